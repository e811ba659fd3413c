//===- Registry.cpp - The rules of Rules.def, as data and as objects ------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "hpp-rewrite/Rule.h"
#include "hpp-rewrite/RuleRegistry.h"

#include "Rules/AlgorithmCallCheck.h"
#include "Rules/BarrierDivergenceCheck.h"
#include "Rules/ChannelRule.h"
#include "Rules/CudaFpAtomicRule.h"
#include "Rules/CudaIncludeRule.h"
#include "Rules/CudaLaunchRule.h"
#include "Rules/CudaSharedRule.h"
#include "Rules/CudaUnsupportedCheck.h"
#include "Rules/CudaVolatileWarpCheck.h"
#include "Rules/DeviceConstructCheck.h"
#include "Rules/DeviceFunctionRule.h"
#include "Rules/DivergentWarpOpCheck.h"
#include "Rules/HostCallInDeviceCheck.h"
#include "Rules/HostReferenceCaptureCheck.h"
#include "Rules/HostStateInDeviceCheck.h"
#include "Rules/HostWarpSizeRule.h"
#include "Rules/ImplicitDeviceFunctionRule.h"
#include "Rules/IncludeRule.h"
#include "Rules/LaneMaskRule.h"
#include "Rules/MissingDeviceAnnotationCheck.h"
#include "Rules/ParallelForRule.h"
#include "Rules/RecursiveDeviceFunctionCheck.h"
#include "Rules/ReservedNameCheck.h"
#include "Rules/SourceEncodingRule.h"
#include "Rules/SourcePositionRule.h"
#include "Rules/SyncWarpRule.h"
#include "Rules/TaskRule.h"
#include "Rules/TiledPartitionWidthCheck.h"
#include "Rules/WarpIntrinsicRule.h"
#include "Rules/WarpSizeRule.h"
#include "Rules/WavefrontSizeMacroCheck.h"

namespace hpp {
namespace rewrite {

llvm::StringRef kindName(RuleKind Kind) {
  switch (Kind) {
  case RuleKind::Lowering:
    return "lowering";
  case RuleKind::ErrorCheck:
    return "error-check";
  case RuleKind::WarningCheck:
    break;
  }
  return "warning-check";
}

llvm::ArrayRef<RuleInfo> registeredRules() {
  static const RuleInfo Rules[] = {
#define HPP_RULE(Class, Name, Kind, Summary) {Name, RuleKind::Kind, Summary},
#include "Rules/Rules.def"
  };
  return Rules;
}

std::vector<std::unique_ptr<Rule>> createRules(RuleContext &Ctx,
                                               const RuleSelection &Selection) {
  std::vector<std::unique_ptr<Rule>> Rules;
#define HPP_RULE(Class, Name, Kind, Summary)                                   \
  if (Selection.runs(Name, RuleKind::Kind))                                    \
    Rules.push_back(std::make_unique<Class>(Name, Ctx));
#include "Rules/Rules.def"
  return Rules;
}

} // namespace rewrite
} // namespace hpp
