//===- BarrierUses.h - Is a captured Barrier only waited on? ----*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Whether a parallelFor body only ever calls `wait()` on a captured
/// hpp::Barrier. Such a barrier can be a hardware barrier when its
/// participants are whole work-groups or the whole launch
/// (runtime/hpp/wait_only_barrier.h): nothing can arrive() on it or skip() it.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_ANALYSIS_BARRIERUSES_H
#define HPP_REWRITE_LIB_ANALYSIS_BARRIERUSES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

namespace hpp {
namespace rewrite {

/// True when every use of \p Barrier in \p Body is the object of a direct
/// `wait()` call. Any other use (arrive, skip, passing it to a function,
/// taking its address) may withdraw a participant, so it is false then.
bool onlyWaitedOn(const clang::VarDecl *Barrier, const clang::Stmt *Body);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_ANALYSIS_BARRIERUSES_H
