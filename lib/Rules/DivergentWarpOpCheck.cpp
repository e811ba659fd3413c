//===- DivergentWarpOpCheck.cpp - Warp collectives in divergent code ------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/DivergentWarpOpCheck.h"
#include "Core/LaneId.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLFunctionalExtras.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

namespace {

/// Walks one root in source order, keeping the id-dependent conditions
/// that enclose the current statement, and calls Report for every warp
/// collective under one (or after an early return under one).
class DivergenceWalker {
public:
  using ReportFn = llvm::function_ref<void(const CallExpr *, StringRef,
                                           const Expr *Cond, bool Returned)>;
  DivergenceWalker(const LaneId &Ids, ReportFn Report)
      : Ids(Ids), Report(Report) {}

  void walkFunction(const Stmt *Body, const Expr *Returned) {
    const Expr *Saved = EarlyReturn;
    size_t SavedBase = FrameBase;
    EarlyReturn = Returned;
    FrameBase = Conds.size();
    walk(Body);
    EarlyReturn = Saved;
    FrameBase = SavedBase;
  }

private:
  /// Walks \p S with \p Cond (when id-dependent) enclosing it.
  void under(const Expr *Cond, const Stmt *S) {
    bool Divergent = Cond && Ids.dependsOnId(Cond);
    if (Divergent)
      Conds.push_back(Cond);
    walk(S);
    if (Divergent)
      Conds.pop_back();
  }

  void walk(const Stmt *S) {
    if (!S)
      return;
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      walk(If->getInit());
      walk(If->getConditionVariableDeclStmt());
      walk(If->getCond());
      under(If->getCond(), If->getThen());
      under(If->getCond(), If->getElse());
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(S)) {
      walk(CO->getCond());
      under(CO->getCond(), CO->getTrueExpr());
      under(CO->getCond(), CO->getFalseExpr());
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S);
               BO && BO->isLogicalOp()) {
      walk(BO->getLHS());
      under(BO->getLHS(), BO->getRHS());
    } else if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
      walk(Sw->getInit());
      walk(Sw->getCond());
      under(Sw->getCond(), Sw->getBody());
    } else if (const auto *W = dyn_cast<WhileStmt>(S)) {
      // Later evaluations of the condition run in the lanes still looping.
      under(W->getCond(), W->getCond());
      under(W->getCond(), W->getBody());
    } else if (const auto *D = dyn_cast<DoStmt>(S)) {
      under(D->getCond(), D->getBody());
      under(D->getCond(), D->getCond());
    } else if (const auto *F = dyn_cast<ForStmt>(S)) {
      walk(F->getInit());
      under(F->getCond(), F->getCond());
      under(F->getCond(), F->getBody());
      under(F->getCond(), F->getInc());
    } else if (const auto *LE = dyn_cast<LambdaExpr>(S)) {
      walkFunction(LE->getBody(), EarlyReturn);
    } else if (isa<ReturnStmt>(S)) {
      walkChildren(S);
      if (!EarlyReturn && Conds.size() > FrameBase)
        EarlyReturn = Conds.back();
    } else {
      if (const auto *CE = dyn_cast<CallExpr>(S)) {
        StringRef Name = warpCollectiveName(CE);
        if (!Name.empty() && !Conds.empty())
          Report(CE, Name, Conds.back(), false);
        else if (!Name.empty() && EarlyReturn)
          Report(CE, Name, EarlyReturn, true);
      }
      walkChildren(S);
    }
  }

  void walkChildren(const Stmt *S) {
    for (const Stmt *Child : S->children())
      walk(Child);
  }

  const LaneId &Ids;
  ReportFn Report;
  llvm::SmallVector<const Expr *, 4> Conds;
  size_t FrameBase = 0;
  const Expr *EarlyReturn = nullptr;
};

} // namespace

void DivergentWarpOpCheck::registerMatchers(MatchFinder &Finder) {
  DeviceRoots::addMatchers(Finder, this);
}

void DivergentWarpOpCheck::run(const MatchFinder::MatchResult &Result) {
  std::optional<DeviceRoot> Root = Roots.take(Result);
  if (!Root)
    return;
  LaneId Ids(Root->Body);
  auto Report = [&](const CallExpr *CE, StringRef Collective, const Expr *Cond,
                    bool Returned) {
    warning(CE->getBeginLoc(),
            "warp collective '" + Collective.str() +
                "' in control flow that depends on the work-item id; on AMD "
                "every active lane of the wavefront must take part");
    note(Cond->getBeginLoc(),
         Returned ? "some work-items return early under this condition, "
                    "which depends on the work-item id"
                  : "this condition depends on the work-item id");
  };
  DivergenceWalker(Ids, Report).walkFunction(Root->Body, nullptr);
}

} // namespace rewrite
} // namespace hpp
