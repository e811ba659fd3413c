//===- DeviceConstructCheck.h - What no GPU compiler builds -----*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_DEVICECONSTRUCTCHECK_H
#define HPP_REWRITE_LIB_RULES_DEVICECONSTRUCTCHECK_H

#include "hpp-rewrite/Rule.h"

namespace hpp {
namespace rewrite {

/// Device code that nvcc and hipcc do not compile for the device, which
/// the reference runtime (plain C++ on the CPU) runs: exceptions (`try`,
/// `throw`), run-time type information (`typeid` of a polymorphic object,
/// `dynamic_cast`), variable-length arrays and `thread_local` variables;
/// and inline assembly, which one vendor's compiler alone takes.
/// An error at the construct, in every function device code reaches.
class DeviceConstructCheck : public Rule {
public:
  using Rule::Rule;
  void onEndOfTranslationUnit(clang::ASTContext &Ctx) override;
};

} // namespace rewrite
} // namespace hpp

#endif
