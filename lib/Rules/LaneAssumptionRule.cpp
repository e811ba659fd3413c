//===- LaneAssumptionRule.cpp - 32-lane arithmetic -> the warp width ------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/LaneAssumptionRule.h"
#include "Core/LaneId.h"
#include "Core/ShuffleTree.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

namespace {

/// One row of LaneAssumption.def.
struct LaneArithmetic {
  BinaryOperatorKind Op;
  uint64_t Literal;
  const char *NewOperator;
  const char *Width;
};
const LaneArithmetic LaneArithmetics[] = {
#define HPP_LANE_ARITHMETIC(Op, Lit, NewOp, Width) {Op, Lit, NewOp, Width},
#include "Rules/LaneAssumption.def"
};

/// \p E as an integer literal of value \p V written outside macros.
const IntegerLiteral *literal(const Expr *E, uint64_t V) {
  const auto *IL = dyn_cast<IntegerLiteral>(E->IgnoreParenImpCasts());
  return IL && IL->getValue() == V && !IL->getLocation().isMacroID() ? IL
                                                                     : nullptr;
}

/// The loops, binary operators, local one-dimensional arrays and the
/// subscripts of the arrays of one root.
class Scan : public RecursiveASTVisitor<Scan> {
public:
  std::vector<const ForStmt *> Loops;
  std::vector<const BinaryOperator *> Operators;
  std::vector<std::pair<const VarDecl *, ArrayTypeLoc>> Arrays;
  llvm::DenseMap<const VarDecl *, std::vector<const Expr *>> Subscripts;

  bool VisitForStmt(ForStmt *FS) {
    Loops.push_back(FS);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    Operators.push_back(BO);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (isa<ParmVarDecl>(VD) || !VD->getTypeSourceInfo())
      return true;
    auto ATL =
        VD->getTypeSourceInfo()->getTypeLoc().getAsAdjusted<ArrayTypeLoc>();
    if (ATL && !ATL.getElementLoc().getAsAdjusted<ArrayTypeLoc>() &&
        ATL.getSizeExpr())
      Arrays.emplace_back(VD, ATL);
    return true;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *ASE) {
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(ASE->getBase()->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        Subscripts[VD].push_back(ASE->getIdx());
    return true;
  }
};

} // namespace

void LaneAssumptionRule::registerMatchers(MatchFinder &Finder) {
  DeviceRoots::addMatchers(Finder, this);
}

void LaneAssumptionRule::replace(SourceRange Tokens, StringRef Text) {
  Ctx.Edits.replace(CharSourceRange::getTokenRange(Tokens), Text, Name);
}

void LaneAssumptionRule::run(const MatchFinder::MatchResult &Result) {
  std::optional<DeviceRoot> Root = Roots.take(Result);
  if (!Root)
    return;
  LaneId Ids(Root->Body);
  Scan S;
  S.TraverseStmt(const_cast<Stmt *>(Root->Body));
  for (const ForStmt *FS : S.Loops)
    if (std::optional<ShuffleTree> Tree = matchShuffleTree(FS))
      rewriteShuffleTree(FS, *Tree);
  for (const BinaryOperator *BO : S.Operators)
    rewriteArithmetic(BO, Ids);
  for (auto [VD, ATL] : S.Arrays)
    rewriteArray(ATL.getSizeExpr(), S.Subscripts.lookup(VD), Ids);
}

void LaneAssumptionRule::rewriteShuffleTree(const ForStmt *FS,
                                            const ShuffleTree &Tree) {
  if (Tree.Step < 0) { // A tree from 16 down.
    if (const IntegerLiteral *IL = literal(Tree.Start, 16))
      replace(IL->getSourceRange(), "hpp::getWarpSize() / 2");
    return;
  }
  // From 1 up to `o < 32`, `o != 32`, `o <= 16` (or mirrored).
  const auto *Cond =
      dyn_cast<BinaryOperator>(FS->getCond()->IgnoreParenImpCasts());
  if (!literal(Tree.Start, 1) || !Cond || !Cond->isComparisonOp())
    return;
  bool VarLeft = refersTo(Cond->getLHS(), Tree.Var);
  const Expr *Bound = VarLeft ? Cond->getRHS() : Cond->getLHS();
  BinaryOperatorKind Op =
      VarLeft ? Cond->getOpcode()
              : BinaryOperator::reverseComparisonOp(Cond->getOpcode());
  if (const IntegerLiteral *IL = literal(Bound, 32);
      IL && (Op == BO_LT || Op == BO_NE))
    replace(IL->getSourceRange(), "hpp::getWarpSize()");
  else if (const IntegerLiteral *IL = literal(Bound, 16); IL && Op == BO_LE)
    replace(IL->getSourceRange(), "hpp::getWarpSize() / 2");
}

void LaneAssumptionRule::rewriteArithmetic(const BinaryOperator *BO,
                                           const LaneId &Ids) {
  if (BO->getOperatorLoc().isMacroID())
    return;
  // `lane == 31`: the warp's last lane.
  if (BO->isEqualityOp()) {
    if (const IntegerLiteral *IL = literal(BO->getRHS(), 31);
        IL && Ids.isLaneIndex(BO->getLHS()))
      replace(IL->getSourceRange(), "hpp::getWarpSize() - 1");
    else if (const IntegerLiteral *IL = literal(BO->getLHS(), 31);
             IL && Ids.isLaneIndex(BO->getRHS()))
      replace(IL->getSourceRange(), "hpp::getWarpSize() - 1");
    return;
  }
  for (const LaneArithmetic &A : LaneArithmetics) {
    if (BO->getOpcode() != A.Op)
      continue;
    const Expr *Id = BO->getLHS();
    const IntegerLiteral *IL = literal(BO->getRHS(), A.Literal);
    if (!IL && A.Op == BO_And) // `31 & id`
      if ((IL = literal(BO->getLHS(), A.Literal)))
        Id = BO->getRHS();
    if (!IL || !Ids.dependsOnId(Id))
      return;
    replace(IL->getSourceRange(), A.Width);
    if (!*A.NewOperator)
      return;
    replace(BO->getOperatorLoc(), A.NewOperator);
    // `a + b >> 5` is `(a + b) >> 5`, but `a + b / w` is not.
    const auto *L = dyn_cast<BinaryOperator>(Id->IgnoreImpCasts());
    if (L && (L->isAdditiveOp() || L->isShiftOp())) {
      Ctx.Edits.insert(L->getBeginLoc(), "(", Name);
      Ctx.Edits.insert(Lexer::getLocForEndOfToken(L->getEndLoc(), 0,
                                                  Ctx.CI.getSourceManager(),
                                                  Ctx.CI.getLangOpts()),
                       ")", Name);
    }
    return;
  }
}

void LaneAssumptionRule::rewriteArray(const Expr *Size,
                                      llvm::ArrayRef<const Expr *> Subscripts,
                                      const LaneId &Ids) {
  if (const IntegerLiteral *IL = literal(Size, 32)) {
    // Per-lane storage needs the widest warp; other uses are not ours.
    auto IsLane = [&](const Expr *I) { return Ids.isLaneIndex(I); };
    auto IsId = [&](const Expr *I) { return Ids.dependsOnId(I); };
    if (llvm::any_of(Subscripts, IsLane)) {
      replace(IL->getSourceRange(), "MVECTOR_MAX");
    } else if (llvm::any_of(Subscripts, IsId)) {
      warning(IL->getLocation(),
              "array of 32 elements indexed by the work-item id: if it "
              "holds one element per lane, a 64-wide wavefront overflows it");
      note(IL->getLocation(), "per-lane storage takes the widest warp: "
                              "MVECTOR_MAX (64 on HIP, 32 on CUDA)")
          << FixItHint::CreateReplacement(IL->getSourceRange(), "MVECTOR_MAX");
    }
    return;
  }
  // Warp counts `[N / 32]`, `[N >> 5]`: the most warps there can be.
  const auto *BO = dyn_cast<BinaryOperator>(Size->IgnoreParenImpCasts());
  if (!BO || BO->getOperatorLoc().isMacroID())
    return;
  if (const IntegerLiteral *IL =
          BO->getOpcode() == BO_Div   ? literal(BO->getRHS(), 32)
          : BO->getOpcode() == BO_Shr ? literal(BO->getRHS(), 5)
                                      : nullptr) {
    if (BO->getOpcode() == BO_Shr)
      replace(BO->getOperatorLoc(), "/");
    replace(IL->getSourceRange(), "MVECTOR_MIN");
  }
}

} // namespace rewrite
} // namespace hpp
