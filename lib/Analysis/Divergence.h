//===- Divergence.h - Calls under work-item-dependent control flow -*- C++
//-*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// DivergenceWalker finds the calls of a device root that only part of a
/// wavefront may reach: lexically under an if / ?: / && / || / switch /
/// loop whose condition depends on the work-item id (LaneId), or after a
/// `return` taken under such a condition. The warp-collective and barrier
/// checks use it with their own notion of which calls matter.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_ANALYSIS_DIVERGENCE_H
#define HPP_REWRITE_LIB_ANALYSIS_DIVERGENCE_H

#include "Analysis/LaneId.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace hpp {
namespace rewrite {

/// Walks one root in source order, keeping the id-dependent conditions
/// that enclose the current statement, and calls Report for every call
/// Classify names (a non-empty name) under one, or after an early return
/// taken under one.
class DivergenceWalker {
public:
  using ClassifyFn =
      llvm::function_ref<llvm::StringRef(const clang::CallExpr *)>;
  using ReportFn =
      llvm::function_ref<void(const clang::CallExpr *, llvm::StringRef,
                              const clang::Expr *Cond, bool Returned)>;
  DivergenceWalker(const LaneId &Ids, ClassifyFn Classify, ReportFn Report)
      : Ids(Ids), Classify(Classify), Report(Report) {}

  void walkFunction(const clang::Stmt *Body, const clang::Expr *Returned) {
    const clang::Expr *Saved = EarlyReturn;
    size_t SavedBase = FrameBase;
    EarlyReturn = Returned;
    FrameBase = Conds.size();
    walk(Body);
    EarlyReturn = Saved;
    FrameBase = SavedBase;
  }

private:
  /// Walks \p S with \p Cond (when id-dependent) enclosing it.
  void under(const clang::Expr *Cond, const clang::Stmt *S) {
    bool Divergent = Cond && Ids.dependsOnId(Cond);
    if (Divergent)
      Conds.push_back(Cond);
    walk(S);
    if (Divergent)
      Conds.pop_back();
  }

  void walk(const clang::Stmt *S) {
    if (!S)
      return;
    if (const auto *If = clang::dyn_cast<clang::IfStmt>(S)) {
      walk(If->getInit());
      walk(If->getConditionVariableDeclStmt());
      walk(If->getCond());
      under(If->getCond(), If->getThen());
      under(If->getCond(), If->getElse());
    } else if (const auto *CO =
                   clang::dyn_cast<clang::ConditionalOperator>(S)) {
      walk(CO->getCond());
      under(CO->getCond(), CO->getTrueExpr());
      under(CO->getCond(), CO->getFalseExpr());
    } else if (const auto *BO = clang::dyn_cast<clang::BinaryOperator>(S);
               BO && BO->isLogicalOp()) {
      walk(BO->getLHS());
      under(BO->getLHS(), BO->getRHS());
    } else if (const auto *Sw = clang::dyn_cast<clang::SwitchStmt>(S)) {
      walk(Sw->getInit());
      walk(Sw->getCond());
      under(Sw->getCond(), Sw->getBody());
    } else if (const auto *W = clang::dyn_cast<clang::WhileStmt>(S)) {
      // Later evaluations of the condition run in the lanes still looping.
      under(W->getCond(), W->getCond());
      under(W->getCond(), W->getBody());
    } else if (const auto *D = clang::dyn_cast<clang::DoStmt>(S)) {
      under(D->getCond(), D->getBody());
      under(D->getCond(), D->getCond());
    } else if (const auto *F = clang::dyn_cast<clang::ForStmt>(S)) {
      walk(F->getInit());
      under(F->getCond(), F->getCond());
      under(F->getCond(), F->getBody());
      under(F->getCond(), F->getInc());
    } else if (const auto *LE = clang::dyn_cast<clang::LambdaExpr>(S)) {
      walkFunction(LE->getBody(), EarlyReturn);
    } else if (clang::isa<clang::ReturnStmt>(S)) {
      walkChildren(S);
      if (!EarlyReturn && Conds.size() > FrameBase)
        EarlyReturn = Conds.back();
    } else {
      if (const auto *CE = clang::dyn_cast<clang::CallExpr>(S)) {
        llvm::StringRef Name = Classify(CE);
        if (!Name.empty() && !Conds.empty())
          Report(CE, Name, Conds.back(), false);
        else if (!Name.empty() && EarlyReturn)
          Report(CE, Name, EarlyReturn, true);
      }
      walkChildren(S);
    }
  }

  void walkChildren(const clang::Stmt *S) {
    for (const clang::Stmt *Child : S->children())
      walk(Child);
  }

  const LaneId &Ids;
  ClassifyFn Classify;
  ReportFn Report;
  llvm::SmallVector<const clang::Expr *, 4> Conds;
  size_t FrameBase = 0;
  const clang::Expr *EarlyReturn = nullptr;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_ANALYSIS_DIVERGENCE_H
