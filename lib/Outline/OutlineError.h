//===- OutlineError.h - Why a lambda could not be outlined ------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The error every step of outlining reports: the outliner, the scope and
/// template analyses of a kernel, the macros its text restates. A header of
/// its own, so that those steps need not include the outliner.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_OUTLINE_OUTLINEERROR_H
#define HPP_REWRITE_LIB_OUTLINE_OUTLINEERROR_H

#include "clang/Basic/SourceLocation.h"

#include <string>

namespace hpp {
namespace rewrite {

/// Why a lambda could not be outlined, and where.
struct OutlineError {
  clang::SourceLocation Loc;
  std::string Message;
};

} // namespace rewrite
} // namespace hpp

#endif
