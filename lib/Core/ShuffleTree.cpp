//===- ShuffleTree.cpp - Loops that drive warp shuffles -------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Core/ShuffleTree.h"
#include "Core/LaneId.h"

#include "clang/AST/Expr.h"

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {

bool isInteger(const Expr *E, uint64_t V) {
  const auto *IL = dyn_cast<IntegerLiteral>(E->IgnoreParenImpCasts());
  return IL && IL->getValue() == V;
}

/// How \p Inc steps \p V: -1 halving, +1 doubling, 0 anything else.
int stepOf(const Expr *Inc, const VarDecl *V) {
  const auto *BO = dyn_cast_or_null<BinaryOperator>(Inc);
  if (!BO || !BO->isAssignmentOp() || !refersTo(BO->getLHS(), V))
    return 0;
  BinaryOperatorKind Op = BO->getOpcode();
  const Expr *By = BO->getRHS();
  if (Op == BO_Assign) { // `o = o / 2`
    const auto *RB = dyn_cast<BinaryOperator>(By->IgnoreParenImpCasts());
    if (!RB || !refersTo(RB->getLHS(), V))
      return 0;
    Op = RB->getOpcode();
    By = RB->getRHS();
  } else {
    Op = BinaryOperator::getOpForCompoundAssignment(Op);
  }
  if ((Op == BO_Shr && isInteger(By, 1)) || (Op == BO_Div && isInteger(By, 2)))
    return -1;
  if ((Op == BO_Shl && isInteger(By, 1)) ||
      (Op == BO_Mul && isInteger(By, 2)) || (Op == BO_Add && refersTo(By, V)))
    return 1;
  return 0;
}

/// Whether \p S has a shuffle fed by \p V, and whether all such shuffles
/// use the whole warp (no width argument, or the warp width).
void findFedShuffles(const Stmt *S, const VarDecl *V, bool &Fed,
                     bool &WholeWarp) {
  if (!S)
    return;
  if (const auto *CE = dyn_cast<CallExpr>(S))
    if (warpCollectiveKind(warpCollectiveName(CE)) ==
            WarpCollectiveKind::Shuffle &&
        writtenArgCount(CE) >= 3 && refersTo(CE->getArg(2), V)) {
      Fed = true;
      if (writtenArgCount(CE) > 3 && !isWarpWidth(CE->getArg(3)))
        WholeWarp = false;
    }
  for (const Stmt *Child : S->children())
    findFedShuffles(Child, V, Fed, WholeWarp);
}

} // namespace

bool refersTo(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    return DRE->getDecl() == V;
  return llvm::any_of(S->children(),
                      [&](const Stmt *Child) { return refersTo(Child, V); });
}

std::optional<ShuffleTree> matchShuffleTree(const ForStmt *FS) {
  // `for (int o = 16; ...)` or `for (o = 16; ...)`.
  const VarDecl *V = nullptr;
  const Expr *Start = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(FS->getInit())) {
    if (DS->isSingleDecl() && (V = dyn_cast<VarDecl>(DS->getSingleDecl())))
      Start = V->getInit();
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(FS->getInit())) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS());
        DRE && BO->getOpcode() == BO_Assign &&
        (V = dyn_cast<VarDecl>(DRE->getDecl())))
      Start = BO->getRHS();
  }
  if (!V || !Start || !FS->getCond())
    return std::nullopt;
  int Step = stepOf(FS->getInc(), V);
  bool Fed = false, WholeWarp = true;
  findFedShuffles(FS->getBody(), V, Fed, WholeWarp);
  if (!Step || !Fed || !WholeWarp)
    return std::nullopt;
  return ShuffleTree{V, Start, Step};
}

} // namespace rewrite
} // namespace hpp
