//===- BarrierDivergenceCheck.cpp - Barrier waits in divergent code -------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/BarrierDivergenceCheck.h"
#include "Analysis/Captures.h"
#include "Analysis/DeviceCodeMap.h"
#include "Analysis/Divergence.h"
#include "Analysis/GridSyncUses.h"
#include "Analysis/LaneId.h"
#include "Dialect/Collectives.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

/// "Barrier::wait" for `b.wait()`, "__gpu_sync" for it; the callee's name
/// for a call that reaches __gpu_sync or passes a Barrier (it may wait);
/// empty otherwise.
static StringRef barrierWait(const CallExpr *CE, GridSyncIndex &GridSyncs) {
  // The dialect's work-group collectives wait as a barrier does.
  StringRef Collective;
  if (dialectCollective(CE, &Collective) == CollectiveScope::Group)
    return Collective;
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return "";
  if (isGridSync(FD))
    return "__gpu_sync";
  if (GridSyncs.reaches(FD))
    return FD->getName(); // Reported as reaching __gpu_sync.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    const Expr *Object = MC->getImplicitObjectArgument();
    if (Object && isDialectBarrier(Object->getType()))
      return FD->getName() == "wait" ? "Barrier::wait" : "";
  }
  for (const Expr *Arg : CE->arguments())
    if (isDialectBarrier(Arg->getType()))
      return FD->getName();
  return "";
}

void BarrierDivergenceCheck::registerMatchers(MatchFinder &Finder) {
  addDeviceRootMatchers(Finder, this, Ctx);
}

void BarrierDivergenceCheck::run(const MatchFinder::MatchResult &Result) {
  // Each outermost root once: a root inside it is walked with it.
  const DeviceRoot *Root = Ctx.deviceCode().root(Result);
  if (!Root || !Root->Outermost)
    return;
  LaneId Ids(Root->Body);
  auto Report = [&](const CallExpr *CE, StringRef Wait, const Expr *Cond,
                    bool Returned) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (dialectCollective(CE) == CollectiveScope::Group) {
      warning(CE->getBeginLoc(),
              "work-group collective '" + Wait.str() +
                  "' in control flow that depends on the work-item id; "
                  "every work-item of the work-group must call it (it waits "
                  "at the work-group barrier)");
      note(Cond->getBeginLoc(),
           Returned ? "some work-items return early under this condition, "
                      "which depends on the work-item id"
                    : "this condition depends on the work-item id");
      return;
    }
    if (isGridSync(Callee) || GridSyncs.reaches(Callee)) {
      std::string What =
          isGridSync(Callee)
              ? std::string("__gpu_sync")
              : "call of '" + Wait.str() + "', which reaches __gpu_sync,";
      warning(CE->getBeginLoc(),
              What + " in control flow that depends on the work-item id; "
                     "__gpu_sync lowers to cg::this_grid().sync(), whose "
                     "work-group barrier every work-item of a work-group "
                     "must reach at the same call");
      note(Cond->getBeginLoc(),
           Returned ? "some work-items return early under this condition, "
                      "which depends on the work-item id"
                    : "this condition depends on the work-item id");
      return;
    }
    std::string What = Wait == "Barrier::wait" ? std::string("barrier wait")
                                               : "call of '" + Wait.str() +
                                                     "', which takes a "
                                                     "Barrier and may wait,";
    warning(CE->getBeginLoc(),
            What + " in control flow that depends on the work-item id; on "
                   "AMD the lanes that wait spin while the other lanes of "
                   "their wavefront cannot arrive (no independent thread "
                   "scheduling)");
    note(Cond->getBeginLoc(),
         (Returned ? "some work-items return early under this condition, "
                     "which depends on the work-item id"
                   : "this condition depends on the work-item id") +
             std::string("; keep a barrier's participants in whole "
                         "wavefronts on AMD (branch on the wavefront, not "
                         "the lane)"));
  };
  auto Classify = [this](const CallExpr *CE) {
    return barrierWait(CE, GridSyncs);
  };
  DivergenceWalker(Ids, Classify, Report).walkFunction(Root->Body, nullptr);
}

} // namespace rewrite
} // namespace hpp
