//===- WidthFacts.cpp - What device code says of the warp width -----------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Analysis/WidthFacts.h"
#include "Analysis/LaneId.h"
#include "Analysis/LaneMask.h"
#include "Dialect/Collectives.h"
#include "Dialect/DeviceCode.h"
#include "Framework/DynamicASTVisitor.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {

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

} // namespace

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

namespace {

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

  BodyWidthFacts Found;

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
    // The dialect's warp collectives run over the mvector: uses of its
    // width (Collectives.def).
    StringRef Collective;
    if (dialectCollective(CE, &Collective) == CollectiveScope::Warp) {
      real(CE->getBeginLoc(), "'" + Collective.str() + "'");
      return true;
    }
    StringRef Name = globalCalleeName(CE);
    if (!warpCollectiveName(CE).empty() || !warpOperation(Name).empty() ||
        !maskBitFunction(Name).empty() || laneMaskArgument(CE) ||
        isWarpWidth(CE))
      Found.WarpCode = true;
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
    // A 64-bit mask names the whole mvector: the real width (not one that
    // CUDA's `unsigned` parameter cuts to 32 bits).
    if (isWideLaneMask(CE, Ctx)) {
      real(Mask->getBeginLoc(), "a 64-bit lane mask");
      Found.WideMask = true;
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
    Found.WarpCode = true;
    if (Found.RealWidth.Loc.isInvalid())
      Found.RealWidth = {Loc, std::move(What)};
  }
  void fact(SourceLocation Loc, std::string What) {
    if (Found.ThirtyTwo.Loc.isInvalid())
      Found.ThirtyTwo = {Loc, std::move(What)};
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  unsigned WarpArguments = 0;
  llvm::DenseSet<const IntegerLiteral *> Offsets;
};

} // namespace

BodyWidthFacts scanWidthFacts(const Stmt *Body, ASTContext &Ctx) {
  FactScan Scan(Ctx);
  Scan.TraverseStmt(const_cast<Stmt *>(Body));
  return Scan.Found;
}

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

} // namespace rewrite
} // namespace hpp
