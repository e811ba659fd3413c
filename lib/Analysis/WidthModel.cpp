//===- WidthModel.cpp - One warp-width decision per kernel ----------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Analysis/WidthModel.h"
#include "Analysis/DeviceCallGraph.h"
#include "Analysis/LaneId.h"
#include "Analysis/LaneMask.h"
#include "Dialect/DeviceCode.h"
#include "Framework/DynamicASTVisitor.h"
#include "Framework/RewriteScope.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
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
  return V.getActiveBits() <= 6 && (V == 16 || V == 31 || V == 32);
}
bool isThirtyTwoLaneLiteral(const llvm::APSInt &V) {
  return !V.isNegative() &&
         isThirtyTwoLaneLiteral(static_cast<const llvm::APInt &>(V));
}

/// A call, in \p E or its bit operations, of a function of the user's that
/// returns a narrow integer: a mask the tool cannot widen (`fullMask()`,
/// `b & lanesBelow(lane)`).
const CallExpr *narrowMaskCall(const Expr *E, const ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (FD && warpCollectiveName(CE).empty() && !isDialectAPI(FD) &&
        !FD->getBuiltinID() && isNarrowInteger(FD->getReturnType(), Ctx))
      return CE;
    return nullptr;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isBitwiseOp())
      if (const CallExpr *C = narrowMaskCall(BO->getLHS(), Ctx))
        return C;
    if (BO->isBitwiseOp() || BO->isAdditiveOp())
      return narrowMaskCall(BO->isBitwiseOp() ? BO->getRHS() : BO->getLHS(),
                            Ctx);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_Not)
      return narrowMaskCall(UO->getSubExpr(), Ctx);
  return nullptr;
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
class FactScan : public DynamicASTVisitor {
public:
  FactScan(ASTContext &Ctx) : Ctx(Ctx), SM(Ctx.getSourceManager()) {}

  WidthFact RealWidth, ThirtyTwo;
  /// A warp intrinsic takes a 64-bit mask.
  bool WideMask = false;

  bool VisitDeclRefExpr(DeclRefExpr *DRE) override {
    const ValueDecl *D = DRE->getDecl();
    const auto *VD = dyn_cast<VarDecl>(D);
    if (VD && VD->getIdentifier() && VD->getName() == "warpSize" &&
        VD->getDeclContext()->isTranslationUnit()) {
      real(DRE->getBeginLoc(), "'warpSize'");
      return true;
    }
    // A named constant of 16, 31 or 32 (`constexpr int kWarp = 32;`, an
    // enumerator) is the literal under another name.
    std::optional<llvm::APSInt> Value;
    if (const auto *EC = dyn_cast<EnumConstantDecl>(D)) {
      if (!EC->getInitExpr() || !readsWarpWidth(EC->getInitExpr()))
        Value = EC->getInitVal();
    } else if (VD && !VD->getType()->isDependentType() &&
               VD->getType()->isIntegerType() &&
               VD->isUsableInConstantExpressions(Ctx) &&
               // `const int w = warpSize;` is the real width (a constant
               // only while the tool parses), not a 32.
               !readsWarpWidth(VD->getInit()))
      if (const APValue *V = VD->evaluateValue(); V && V->isInt())
        Value = V->getInt();
    if (Value && isThirtyTwoLaneLiteral(*Value) && !isBound(DRE->getBeginLoc()))
      fact(DRE->getBeginLoc(), "the constant '" + D->getNameAsString() + "' (" +
                                   toString(*Value, 10) + ")");
    return true;
  }
  bool VisitParenExpr(ParenExpr *PE) override {
    if (PE->getBeginLoc().isMacroID() &&
        expandedFrom(PE->getBeginLoc(), "MVECTOR_SIZE", SM, Ctx.getLangOpts()))
      real(PE->getBeginLoc(), "'MVECTOR_SIZE'");
    return true;
  }
  /// In a warp intrinsic's mask, lane, offset or width argument every
  /// literal counts (`lane + 16`); a shuffled value is data.
  bool TraverseCallExpr(CallExpr *CE) override {
    StringRef Warp = warpCollectiveName(CE);
    if (Warp.empty())
      return DynamicASTVisitor::TraverseCallExpr(CE);
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
  bool VisitIntegerLiteral(IntegerLiteral *IL) override {
    if (isThirtyTwoLaneLiteral(IL->getValue()) && !isBound(IL->getLocation()) &&
        !Offsets.count(IL))
      fact(IL->getLocation(), "the literal " + spelling(IL));
    return true;
  }
  bool VisitFloatingLiteral(FloatingLiteral *FL) override {
    if (FL->getValue().isExactlyValue(32.0))
      fact(FL->getLocation(), "the literal " + spelling(FL));
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) override {
    // `x + 32`, `n - 16`: an offset, not a width (`MVECTOR_SIZE + 32 - 32`);
    // `lane & 31`, `id / 32`, `o = 16`, `s[32]`, `k < 32` are widths.
    // (`WARP - 1` with `#define WARP 32` is a width: a literal on the left.)
    if (BO->isAdditiveOp() && !WarpArguments &&
        !isa<IntegerLiteral>(BO->getLHS()->IgnoreParenImpCasts()))
      if (const auto *IL =
              dyn_cast<IntegerLiteral>(BO->getRHS()->IgnoreParenImpCasts()))
        Offsets.insert(IL);
    if (!BO->isShiftOp() && !BO->isShiftAssignOp())
      return true;
    const auto *IL =
        dyn_cast<IntegerLiteral>(BO->getRHS()->IgnoreParenImpCasts());
    if (IL && IL->getValue() == 5)
      fact(BO->getOperatorLoc(), "a shift by 5 (a 32-lane warp index)");
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) override {
    StringRef Name = globalCalleeName(CE);
    if (Name == "__clz" || Name == "__clzll") {
      fact(CE->getBeginLoc(), "'" + Name.str() +
                                  "', whose count depends on "
                                  "the mask's width");
      return true;
    }
    const Expr *Mask = laneMaskArgument(CE);
    if (!Mask)
      return true;
    QualType T = Mask->IgnoreParenImpCasts()->getType();
    if (T->isDependentType() || !T->isIntegerType())
      return true;
    // A 64-bit mask names the whole mvector: the real width.
    if (Ctx.getIntWidth(T) >= 64) {
      real(Mask->getBeginLoc(), "a 64-bit lane mask");
      WideMask = true;
      return true;
    }
    if (const CallExpr *Helper = narrowMaskCall(Mask, Ctx))
      fact(Helper->getBeginLoc(),
           "a lane mask computed by '" +
               Helper->getDirectCallee()->getNameAsString() +
               "', which returns it as 32 bits");
    // Under a 32-bit mask, a shuffle width other than the warp's, however
    // it is computed (a literal, a template parameter, a value from the
    // host), cuts a 32-lane warp into segments.
    if (warpCollectiveKind(warpCollectiveName(CE)) ==
            WarpCollectiveKind::Shuffle &&
        writtenArgCount(CE) >= 4 && !mentionsWarpWidth(CE->getArg(3)))
      fact(CE->getArg(3)->getBeginLoc(),
           "a shuffle width that is not the warp's");
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

/// The calls of \p Body's bit operations that combine a lane mask of
/// \p Masks with a narrow value computed by a user function, and those
/// whose narrow value initialises or is assigned to a mask variable.
std::vector<const CallExpr *> maskHelperCalls(const Stmt *Body,
                                              const LaneMaskFlow &Masks,
                                              const ASTContext &Ctx) {
  struct Finder : DynamicASTVisitor {
    const LaneMaskFlow &Masks;
    const ASTContext &Ctx;
    std::vector<const CallExpr *> Found;
    Finder(const LaneMaskFlow &M, const ASTContext &C) : Masks(M), Ctx(C) {}
    /// `unsigned m = lanesBelow(lane);` then `b & m`: the helper's 32 bits
    /// reach the mask through a variable.
    bool VisitVarDecl(VarDecl *VD) override {
      if (VD->getInit() && Masks.isMaskVariable(VD))
        if (const CallExpr *C = narrowMaskCall(VD->getInit(), Ctx))
          Found.push_back(C);
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) override {
      if (BO->isAssignmentOp())
        if (const auto *DRE =
                dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
          if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
              VD && Masks.isMaskVariable(VD))
            if (const CallExpr *C = narrowMaskCall(BO->getRHS(), Ctx))
              Found.push_back(C);
      if (!BO->isBitwiseOp())
        return true;
      if (const CallExpr *C = narrowMaskCall(BO->getRHS(), Ctx);
          C && Masks.isMask(BO->getLHS()))
        Found.push_back(C);
      if (const CallExpr *C = narrowMaskCall(BO->getLHS(), Ctx);
          C && Masks.isMask(BO->getRHS()))
        Found.push_back(C);
      return true;
    }
  } F(Masks, Ctx);
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

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

WidthModel::WidthModel(ASTContext &Ctx, const DeviceCallGraph &Graph,
                       llvm::StringRef ExternalNarrowing)
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
    D.WideMask |= Scan.WideMask;
    Bodies.push_back({SM.getExpansionLoc(Body->getBeginLoc()),
                      SM.getExpansionLoc(Body->getEndLoc()), UnitComponent[I]});
    // The lane-mask flow starts at the outermost roots of the main file,
    // as hpp-lane-mask's does.
    if (!isWrittenInRewrittenFile(SM, SM.getExpansionLoc(FD->getLocation())))
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

  // A lane mask from a helper combined with a mask (`b & lanesBelow(l)`).
  for (unsigned I = 0; I < Units.size(); ++I)
    if (const Stmt *Body = Units[I]->getBody())
      for (const CallExpr *Helper : maskHelperCalls(Body, Masks, Ctx))
        MaskFact(Helper->getBeginLoc(),
                 "a lane mask computed by '" +
                     Helper->getDirectCallee()->getNameAsString() +
                     "', which returns it as 32 bits");

  for (WidthDecision &D : Decisions) {
    bool Real = D.RealWidth.Loc.isValid(), Fact = D.ThirtyTwo.Loc.isValid();
    D.Model = Real && !Fact        ? WarpModel::Native
              : Real && D.WideMask ? WarpModel::AsWritten
                                   : WarpModel::Logical32;
  }
  // What the warp is must be one thing per program: kernels exchange
  // per-warp data through memory (slots one kernel writes by `warpSize`,
  // the next reads by `>> 5`), which no analysis of one kernel sees. Once
  // a kernel keeps 32-lane warps because of a 32-lane fact, every kernel of
  // the file that uses the real width does too.
  const WidthDecision *Narrowing = nullptr;
  for (const WidthDecision &D : Decisions)
    if (D.Model == WarpModel::Logical32 && D.ThirtyTwo.Loc.isValid() &&
        (!Narrowing || SM.isBeforeInTranslationUnit(D.ThirtyTwo.Loc,
                                                    Narrowing->ThirtyTwo.Loc)))
      Narrowing = &D;
  if (Narrowing) {
    this->Narrowing = Narrowing->ThirtyTwo;
    WidthFact Why{Narrowing->ThirtyTwo.Loc,
                  "another kernel of this file keeps 32-lane warps (" +
                      Narrowing->ThirtyTwo.What + ")"};
    for (WidthDecision &D : Decisions)
      if (D.Model == WarpModel::Native) {
        D.Model = WarpModel::Logical32;
        D.ThirtyTwo = Why;
      }
  } else if (!ExternalNarrowing.empty()) {
    // The same across the program's sources (the tool's second pass): the
    // fact is in another file, so each component's note is at its own
    // first use of the real width.
    for (WidthDecision &D : Decisions)
      if (D.Model == WarpModel::Native) {
        D.Model = WarpModel::Logical32;
        D.ThirtyTwo = {D.RealWidth.Loc,
                       "a kernel of another source of the program keeps "
                       "32-lane warps (" +
                           ExternalNarrowing.str() + ")"};
      }
  }
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
