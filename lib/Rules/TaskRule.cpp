//===- TaskRule.cpp - Outline Task bodies into kernels --------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/TaskRule.h"
#include "Core/DeviceCode.h"
#include "Core/DialectMatchers.h"
#include "Core/KernelSites.h"
#include "Core/Tasks.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

void TaskRule::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(taskConstruction(), this);
  Finder.addMatcher(taskVariable(), this);
}

void TaskRule::run(const MatchFinder::MatchResult &R) {
  const auto *Site = R.Nodes.getNodeAs<Expr>("task");
  const auto *LE = R.Nodes.getNodeAs<LambdaExpr>("lambda");
  if (!Site || !Seen.insert(Site).second)
    return;
  const SourceManager &SM = *R.SourceManager;
  QualType TaskType = Site->getType();
  if (const auto *VD = R.Nodes.getNodeAs<VarDecl>("task-var"))
    TaskType = VD->getType();
  else if (const auto *UE = dyn_cast<CXXUnresolvedConstructExpr>(Site))
    TaskType = UE->getTypeAsWritten();
  llvm::SmallVector<const Expr *, 2> Args = taskArguments(Site);
  // The tool's own output, parsed again: already a kernel.
  if (Args.empty() || (Args.size() == 1 && isTaskKernelCall(Args[0])))
    return;
  if (Site->getBeginLoc().isMacroID() || Site->getEndLoc().isMacroID()) {
    error(SM.getExpansionLoc(Site->getBeginLoc()),
          "cannot rewrite a Task constructed through a macro; expand the "
          "macro at this construction by hand");
    return;
  }
  if (!LE || Args.size() != 1) {
    error(Args.front()->getBeginLoc(),
          "the body of a Task must be a lambda expression written in the "
          "Task's construction, its only argument");
    return;
  }
  // GPUs launch kernels from the host: HIP has no device-side launch.
  if (isInsideDeviceFunction(LE)) {
    error(SM.getExpansionLoc(Site->getBeginLoc()),
          "a Task inside device code cannot be rewritten: its kernel is "
          "launched from the host (HIP has no launch from device code); "
          "make the Task in host code");
    return;
  }
  if (LE->getBeginLoc().isMacroID() || LE->getEndLoc().isMacroID()) {
    error(SM.getExpansionLoc(LE->getBeginLoc()),
          "cannot outline a Task body written through a macro; write the "
          "lambda in the construction");
    return;
  }
  if (LE->getCallOperator()->getNumParams() != 1) {
    error(LE->getBeginLoc(),
          "the lambda of a Task<R, IndexT> must take one parameter, its "
          "IndexT (hpp::Index<N> or hpp::Index<N, N>); this one takes " +
              std::to_string(LE->getCallOperator()->getNumParams()));
    return;
  }
  Ctx.kernelSites().add({KernelKind::Task, Site, LE, TaskType, Name});
}

} // namespace rewrite
} // namespace hpp
