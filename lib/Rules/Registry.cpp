//===- Registry.cpp - Instantiates every rule of Rules.def ----------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "hpp-rewrite/Rule.h"

#include "Rules/BarrierDivergenceCheck.h"
#include "Rules/ChannelRule.h"
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
#include "Rules/SourcePositionRule.h"
#include "Rules/SyncWarpRule.h"
#include "Rules/TaskRule.h"
#include "Rules/TiledPartitionWidthCheck.h"
#include "Rules/WarpIntrinsicRule.h"
#include "Rules/WarpSizeRule.h"
#include "Rules/WavefrontSizeMacroCheck.h"

namespace hpp {
namespace rewrite {

std::vector<std::unique_ptr<Rule>> createAllRules(RuleContext &Ctx) {
  std::vector<std::unique_ptr<Rule>> Rules;
#define HPP_RULE(Class, Name)                                                  \
  Rules.push_back(std::make_unique<Class>(Name, Ctx));
#include "Rules/Rules.def"
  return Rules;
}

} // namespace rewrite
} // namespace hpp
