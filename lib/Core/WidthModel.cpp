//===- WidthModel.cpp - One warp-width decision per kernel ----------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Core/WidthModel.h"
#include "Core/DeviceCallGraph.h"
#include "Core/DeviceCode.h"
#include "Core/LaneId.h"
#include "Core/LaneMask.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {

/// The declaration that stands for \p FD in the model: its template
/// pattern, or its definition (as DeviceCallGraph edits them).
const FunctionDecl *normalized(const FunctionDecl *FD) {
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
    FD = Pattern;
  if (const FunctionDecl *Def = FD->getDefinition())
    return Def;
  return FD;
}

/// True when \p Loc comes from an expansion of the macro \p Name, directly
/// or through other macros.
bool expandedFrom(SourceLocation Loc, StringRef Name, const SourceManager &SM,
                  const LangOptions &LO) {
  while (Loc.isMacroID()) {
    if (Lexer::getImmediateMacroName(Loc, SM, LO) == Name)
      return true;
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  return false;
}

/// The literal values that carry a 32-lane warp: a tree's start (16), the
/// last lane or a lane mask (31, 0x1f), the width (32).
bool isThirtyTwoLaneLiteral(const llvm::APInt &V) {
  return V == 16 || V == 31 || V == 32;
}

/// True when \p E reads the warp width somewhere (`warpSize / 2`).
bool mentionsWarpWidth(const Stmt *E) {
  if (const auto *X = dyn_cast_or_null<Expr>(E); X && isWarpWidth(X))
    return true;
  for (const Stmt *Child : E->children())
    if (Child && mentionsWarpWidth(Child))
      return true;
  return false;
}

/// Finds the real-width uses and the 32-lane facts of one body, as written.
class FactScan : public RecursiveASTVisitor<FactScan> {
public:
  FactScan(ASTContext &Ctx) : Ctx(Ctx), SM(Ctx.getSourceManager()) {}

  WidthFact RealWidth, ThirtyTwo;

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (VD && VD->getIdentifier() && VD->getName() == "warpSize" &&
        VD->getDeclContext()->isTranslationUnit())
      real(DRE->getBeginLoc(), "'warpSize'");
    return true;
  }
  bool VisitParenExpr(ParenExpr *PE) {
    if (PE->getBeginLoc().isMacroID() &&
        expandedFrom(PE->getBeginLoc(), "MVECTOR_SIZE", SM, Ctx.getLangOpts()))
      real(PE->getBeginLoc(), "'MVECTOR_SIZE'");
    return true;
  }
  /// In a warp intrinsic's mask, lane, offset or width argument every
  /// literal counts (`lane + 16`); a shuffled value is data.
  bool TraverseCallExpr(CallExpr *CE) {
    StringRef Warp = warpCollectiveName(CE);
    if (Warp.empty())
      return RecursiveASTVisitor::TraverseCallExpr(CE);
    if (!WalkUpFromCallExpr(CE) || !TraverseStmt(CE->getCallee()))
      return false;
    bool Shuffle = warpCollectiveKind(Warp) == WarpCollectiveKind::Shuffle;
    for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
      bool Data = Shuffle && I == 1;
      WarpArguments += !Data;
      bool Ok = TraverseStmt(CE->getArg(I));
      WarpArguments -= !Data;
      if (!Ok)
        return false;
    }
    return true;
  }
  bool VisitIntegerLiteral(IntegerLiteral *IL) {
    if (isThirtyTwoLaneLiteral(IL->getValue()) && !isBound(IL->getLocation()) &&
        !Offsets.count(IL))
      fact(IL->getLocation(), "the literal " + spelling(IL));
    return true;
  }
  bool VisitFloatingLiteral(FloatingLiteral *FL) {
    if (FL->getValue().isExactlyValue(32.0))
      fact(FL->getLocation(), "the literal " + spelling(FL));
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    // `x + 32`, `n - 16`: an offset, not a width (`MVECTOR_SIZE + 32 - 32`);
    // `lane & 31`, `id / 32`, `o = 16`, `s[32]`, `k < 32` are widths.
    if (BO->isAdditiveOp() && !WarpArguments)
      for (const Expr *Side : {BO->getLHS(), BO->getRHS()})
        if (const auto *IL = dyn_cast<IntegerLiteral>(Side->IgnoreParenImpCasts()))
          Offsets.insert(IL);
    if (!BO->isShiftOp() && !BO->isShiftAssignOp())
      return true;
    const auto *IL = dyn_cast<IntegerLiteral>(BO->getRHS()->IgnoreParenImpCasts());
    if (IL && IL->getValue() == 5)
      fact(BO->getOperatorLoc(), "a shift by 5 (a 32-lane warp index)");
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    StringRef Name = globalCalleeName(CE);
    if (Name == "__clz" || Name == "__clzll") {
      fact(CE->getBeginLoc(), "'" + Name.str() + "', whose count depends on "
                                                 "the mask's width");
      return true;
    }
    // A shuffle width other than the warp's, however it is computed
    // (a literal, a template parameter, a value from the host), cuts the
    // warp into segments of a fixed size: a 32-lane warp's.
    if (warpCollectiveKind(warpCollectiveName(CE)) ==
            WarpCollectiveKind::Shuffle &&
        writtenArgCount(CE) >= 4 && !mentionsWarpWidth(CE->getArg(3)))
      fact(CE->getArg(3)->getBeginLoc(),
           "a shuffle width that is not the warp's");
    // A 64-bit mask names the whole mvector: the real width.
    if (const Expr *Mask = laneMaskArgument(CE)) {
      QualType T = Mask->IgnoreParenImpCasts()->getType();
      if (!T->isDependentType() && T->isIntegerType() &&
          Ctx.getIntWidth(T) >= 64)
        real(Mask->getBeginLoc(), "a 64-bit lane mask");
    }
    return true;
  }

private:
  /// MVECTOR_MIN / MVECTOR_MAX are the dialect's compile-time bounds, not
  /// assumptions.
  bool isBound(SourceLocation Loc) {
    const LangOptions &LO = Ctx.getLangOpts();
    return Loc.isMacroID() && (expandedFrom(Loc, "MVECTOR_MIN", SM, LO) ||
                               expandedFrom(Loc, "MVECTOR_MAX", SM, LO));
  }
  std::string spelling(const Expr *E) {
    SourceLocation Loc = SM.getSpellingLoc(E->getBeginLoc());
    return "'" +
           Lexer::getSourceText(CharSourceRange::getTokenRange(Loc, Loc), SM,
                                Ctx.getLangOpts())
               .str() +
           "'";
  }
  void real(SourceLocation Loc, std::string What) {
    if (RealWidth.Loc.isInvalid())
      RealWidth = {Loc, std::move(What)};
  }
  void fact(SourceLocation Loc, std::string What) {
    if (ThirtyTwo.Loc.isInvalid())
      ThirtyTwo = {Loc, std::move(What)};
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  unsigned WarpArguments = 0;
  llvm::DenseSet<const IntegerLiteral *> Offsets;
};

/// The function whose body lexically encloses the lambda call operator
/// \p MD, or null.
const FunctionDecl *enclosingFunction(const CXXMethodDecl *MD) {
  if (!MD->getParent()->isLambda())
    return nullptr;
  for (const DeclContext *DC = MD->getParent()->getDeclContext(); DC;
       DC = DC->getParent())
    if (const auto *FD = dyn_cast<FunctionDecl>(DC))
      return FD;
  return nullptr;
}

} // namespace

unsigned WidthModel::find(unsigned X) {
  while (Parent[X] != X)
    X = Parent[X] = Parent[Parent[X]];
  return X;
}

WidthModel::WidthModel(ASTContext &Ctx, const DeviceCallGraph &Graph)
    : Ctx(Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  // The functions of device code, one node each.
  std::vector<const FunctionDecl *> Units;
  auto Node = [&](const FunctionDecl *FD) {
    FD = normalized(FD);
    auto [It, New] = Index.try_emplace(FD, Units.size());
    if (New) {
      Units.push_back(FD);
      Parent.push_back(It->second);
    }
    return It->second;
  };
  auto Join = [&](unsigned A, unsigned B) { Parent[find(A)] = find(B); };
  for (const FunctionDecl *FD : Graph.functions())
    Node(FD);
  for (const DeviceCallGraph::Call &C : Graph.calls())
    if (C.Caller && Index.count(normalized(C.Callee)))
      Join(Node(C.Caller), Node(C.Callee));
  // A lambda nested in device code is part of it.
  for (size_t I = 0; I < Units.size(); ++I)
    if (const auto *MD = dyn_cast<CXXMethodDecl>(Units[I]))
      if (const FunctionDecl *Outer = enclosingFunction(MD))
        if (Index.count(normalized(Outer)))
          Join(I, Node(Outer));

  // Components, in discovery order.
  llvm::DenseMap<unsigned, unsigned> ComponentOf;
  UnitComponent.resize(Units.size());
  for (unsigned I = 0; I < Units.size(); ++I) {
    auto [It, New] = ComponentOf.try_emplace(find(I), Decisions.size());
    if (New)
      Decisions.emplace_back();
    UnitComponent[I] = It->second;
  }

  // Facts of each body, and the body ranges for lookups.
  LaneMaskFlow Masks;
  for (unsigned I = 0; I < Units.size(); ++I) {
    const FunctionDecl *FD = Units[I];
    const Stmt *Body = FD->getBody();
    if (!Body)
      continue;
    WidthDecision &D = Decisions[UnitComponent[I]];
    FactScan Scan(Ctx);
    Scan.TraverseStmt(const_cast<Stmt *>(Body));
    if (D.RealWidth.Loc.isInvalid())
      D.RealWidth = Scan.RealWidth;
    if (D.ThirtyTwo.Loc.isInvalid())
      D.ThirtyTwo = Scan.ThirtyTwo;
    Bodies.push_back({SM.getExpansionLoc(Body->getBeginLoc()),
                      SM.getExpansionLoc(Body->getEndLoc()), UnitComponent[I]});
    // The lane-mask flow starts at the outermost roots of the main file,
    // as hpp-lane-mask's does.
    if (!SM.isWrittenInMainFile(SM.getExpansionLoc(FD->getLocation())))
      continue;
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);
    bool Lambda = MD && MD->getParent()->isLambda();
    if (!Lambda && getDeviceAnnotation(FD))
      Masks.addRoot(FD, Body, /*EditableParameters=*/true);
    if (Lambda) {
      const FunctionDecl *Outer = enclosingFunction(MD);
      if (!Outer || !Index.count(normalized(Outer)))
        Masks.addRoot(FD, Body, /*EditableParameters=*/false);
    }
  }

  // Masks the tool cannot widen keep a component on 32-lane warps.
  Masks.solve(Ctx);
  auto MaskFact = [&](SourceLocation Loc, std::string What) {
    WidthDecision &D = const_cast<WidthDecision &>(at(Loc));
    if (&D != &None && D.ThirtyTwo.Loc.isInvalid())
      D.ThirtyTwo = {Loc, std::move(What)};
  };
  for (const MaskEscape &E : Masks.escapes())
    MaskFact(E.At->getBeginLoc(),
             "a lane mask stored where its type cannot be widened");
  for (const VarDecl *VD : Masks.maskVariables()) {
    if (!Masks.isLocal(VD) || !isNarrowInteger(VD->getType(), Ctx))
      continue;
    if (VD->isConstexpr() || VD->isStaticLocal())
      MaskFact(VD->getLocation(),
               "the constant lane mask '" + VD->getName().str() + "'");
    SourceRange Spec = typeSpecifierRange(VD);
    if (Spec.isValid())
      for (const VarDecl *Other : Masks.sharingTypeSpecifier(Spec.getBegin()))
        if (!Masks.isMaskVariable(Other))
          MaskFact(VD->getLocation(), "the lane mask '" + VD->getName().str() +
                                          "', declared together with '" +
                                          Other->getName().str() + "'");
  }
  for (const Expr *Lit : Masks.maskLiterals())
    if (classifyMaskLiteral(Lit, Ctx) == MaskLiteral::Partial &&
        Masks.isWholeMask(Lit))
      MaskFact(Lit->getBeginLoc(), "a lane mask naming part of a 32-lane warp");

  for (WidthDecision &D : Decisions)
    D.Model = D.RealWidth.Loc.isValid() && D.ThirtyTwo.Loc.isInvalid()
                  ? WarpModel::Native
                  : WarpModel::Logical32;
}

const WidthDecision &WidthModel::at(SourceLocation Loc) const {
  const SourceManager &SM = Ctx.getSourceManager();
  Loc = SM.getExpansionLoc(Loc);
  const BodyRange *Best = nullptr;
  unsigned BestSize = ~0u;
  for (const BodyRange &B : Bodies) {
    if (SM.getFileID(B.Begin) != SM.getFileID(Loc) ||
        !SM.isPointWithin(Loc, B.Begin, B.End))
      continue;
    unsigned Size = SM.getFileOffset(B.End) - SM.getFileOffset(B.Begin);
    if (Size < BestSize) {
      Best = &B;
      BestSize = Size;
    }
  }
  return Best ? Decisions[Best->Component] : None;
}

const WidthDecision &WidthModel::of(const FunctionDecl *FD) const {
  auto It = Index.find(normalized(FD));
  return It == Index.end() ? None : Decisions[UnitComponent[It->second]];
}

} // namespace rewrite
} // namespace hpp
