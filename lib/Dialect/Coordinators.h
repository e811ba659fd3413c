//===- Coordinators.h - The coordinator of a channel ------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The coordinator of `c.executeWith(pred, range, ...)` (spec 1.8) stays
/// host code as written: the device runtime evaluates it once per size on
/// a probe channel, ahead of the launches (docs/rules.md, hpp-channel). So
/// it must be a pure function of `c->size()`; coordinatorProblems() says
/// why one is not.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_DIALECT_COORDINATORS_H
#define HPP_REWRITE_LIB_DIALECT_COORDINATORS_H

#include "Dialect/Channels.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <vector>

namespace hpp {
namespace rewrite {

/// Why the coordinator \p Coord (executeWith's first argument) of a
/// `Channel<Element>` is not a pure function of the channel's size: not a
/// lambda, a capture by reference, a parameter that is not a
/// `Channel<Element> *`, a call of anything but its parameter's `size()`,
/// a constexpr or a `__device(hpp)` function.
std::vector<ChannelProblem> coordinatorProblems(const clang::Expr *Coord,
                                                clang::QualType Element);

/// Whether coordinator \p LE is marked `__device(coord)`: clang keeps the
/// annotation before a trailing return type and drops it after one (as the
/// paper writes it), so the text between the parameter list and the body
/// is read too.
bool hasCoordinatorMark(const clang::LambdaExpr *LE,
                        const clang::SourceManager &SM,
                        const clang::LangOptions &LO);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_DIALECT_COORDINATORS_H
