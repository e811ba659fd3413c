//===- DivergentWarpOpCheck.cpp - Warp collectives in divergent code ------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/DivergentWarpOpCheck.h"
#include "Analysis/DeviceCodeMap.h"
#include "Analysis/Divergence.h"
#include "Analysis/LaneId.h"
#include "Dialect/Collectives.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

void DivergentWarpOpCheck::registerMatchers(MatchFinder &Finder) {
  addDeviceRootMatchers(Finder, this, Ctx);
}

void DivergentWarpOpCheck::run(const MatchFinder::MatchResult &Result) {
  // Each outermost root once: a root inside it is walked with it.
  const DeviceRoot *Root = Ctx.deviceCode().root(Result);
  if (!Root || !Root->Outermost)
    return;
  // CUDA's collectives name the lanes that take part (the `_sync` mask,
  // __activemask's converged lanes): part of a warp may call them from
  // divergent code, and the runtime runs them so on every backend.
  if (Root->Kind == DeviceRootKind::CudaFunction)
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
  // The CUDA spellings, and the dialect's warp collectives (warpReduce &
  // co., over the whole mvector).
  auto Classify = [](const CallExpr *CE) {
    StringRef Name;
    if (dialectCollective(CE, &Name) == CollectiveScope::Warp)
      return Name;
    return warpCollectiveName(CE);
  };
  DivergenceWalker(Ids, Classify, Report).walkFunction(Root->Body, nullptr);
}

} // namespace rewrite
} // namespace hpp
