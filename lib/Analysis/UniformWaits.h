//===- UniformWaits.h - Does every work-item reach the same waits? -*- C++
//-*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Whether every work-item of a parallelFor body reaches the same `wait()`
/// calls on a Barrier, the same number of times: a hardware barrier
/// (runtime/hpp/wait_only_barrier.h) counts on it. A hardware barrier does
/// not see a work-item that leaves the kernel or skips a wait (it stops
/// counting it, or counts an arrival at another wait of the same barrier),
/// where the reference runtime reports a deadlock: so a body that may do
/// that keeps the split barrier, which reports it (runtime/hpp/
/// block_barrier.h).
///
/// The test is syntactic and conservative. A condition is uniform when it
/// only reads literals, constants, enumerators, captures (every work-item
/// has the same copy), the size of a uniform segment, region or barrier
/// (`getRegionSize()`, `getSize()`, `getCount()`; a segment `a(r)` of the
/// body's BoundDistArray for a captured region is uniform), and the body's
/// own scalar variables that are uniform: initialised and changed only by
/// uniform values, under uniform conditions, and never exposed (address
/// taken, bound to a reference); a fixed point. Loads, other calls and the
/// index are never uniform. The waits
/// qualify when every condition enclosing one (if, switch, ?:, &&, ||, a
/// loop) is uniform, none is in a nested lambda or a range-for, and every
/// `return` (but the body's last statement), and every `break`, `continue`
/// or `goto` leaving a loop that waits, is only under uniform conditions.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_ANALYSIS_UNIFORMWAITS_H
#define HPP_REWRITE_LIB_ANALYSIS_UNIFORMWAITS_H

#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"

namespace hpp {
namespace rewrite {

/// True when every work-item running the body of \p Lambda reaches the same
/// `wait()` calls on \p Barrier the same number of times (see the file
/// comment). Only meaningful for a barrier the body only waits on
/// (onlyWaitedOn).
bool waitsAreUniform(const clang::VarDecl *Barrier,
                     const clang::LambdaExpr *Lambda);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_ANALYSIS_UNIFORMWAITS_H
