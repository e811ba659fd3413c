//===- hpp/cpu/work_item.h - The OpenCL work-item functions on the CPU ----===//
//
// Part of hpp-rewrite. CPU reference runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The free OpenCL-style functions the paper calls in a body, for the
/// calling work-item (spec 1.2):
///   get_global_id(d)  get_local_id(d)  get_group_id(d)
///   get_global_size(d)  get_local_size(d)  get_num_groups(d)
/// They return what the same members of the body's Index return (dimension
/// 0 = X; beyond the range's dimensions: id 0, size 1), as std::size_t.
/// In namespace hpp: `get_local_size(0)` after `using namespace hpp;`, or
/// `hpp::get_local_size(0)`. The device runtime has the same functions
/// (runtime/hpp/kernel_index.h).
///
/// The work-item is the one the calling fiber runs: the running group's
/// executor (GroupExecutor::current()) knows its linear local id and,
/// through the launch, the fields its Index shares with the rest of the
/// group. Called outside a parallelFor body (host code) they throw
/// hpp::RuntimeError naming the function and the caller's file:line.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_WORK_ITEM_H
#define HPP_CPU_WORK_ITEM_H

#include "hpp/core/error.h"
#include "hpp/core/index.h"
#include "hpp/cpu/group_executor.h"

#include <cstddef>

namespace hpp {
namespace cpu {

/// The Index fields of the work-item the calling fiber runs; throws for a
/// call from outside a parallelFor body (\p Name at \p File:\p Line).
inline detail::IndexFields currentIndexFields(const char *Name,
                                              const char *File, int Line) {
  const GroupExecutor *E = GroupExecutor::current();
  if (!E || !E->indexBase())
    throw RuntimeError(Name, File, Line,
                       "called outside a parallelFor body: it names the "
                       "calling work-item");
  detail::IndexFields F = *E->indexBase();
  const std::size_t Id = E->currentItem();
  const std::size_t *LS = F.LocalSize;
  F.Local[0] = Id % LS[0];
  F.Local[1] = Id / LS[0] % LS[1];
  F.Local[2] = Id / (LS[0] * LS[1]);
  for (int D = 0; D < 3; ++D)
    F.Global[D] = F.Group[D] * LS[D] + F.Local[D];
  return F;
}

/// Entry \p D of \p A, or \p Default beyond the third dimension.
inline std::size_t dimension(const std::size_t (&A)[3], unsigned D,
                             std::size_t Default) {
  return D < 3 ? A[D] : Default;
}

} // namespace cpu
} // namespace hpp

#define HPP_WORK_ITEM_LOC                                                      \
  const char *File = __builtin_FILE(), int Line = __builtin_LINE()

// One function per field: its name, the field and the OpenCL default past
// the third dimension.
#define HPP_WORK_ITEM_FUNCTION(Name, Field, Default)                           \
  inline std::size_t Name(unsigned D, HPP_WORK_ITEM_LOC) {                     \
    return ::hpp::cpu::dimension(                                              \
        ::hpp::cpu::currentIndexFields(#Name, File, Line).Field, D, Default);  \
  }

namespace hpp {
/// The calling work-item's global id along dimension \p D.
HPP_WORK_ITEM_FUNCTION(get_global_id, Global, 0)
/// The calling work-item's id within its work-group along \p D.
HPP_WORK_ITEM_FUNCTION(get_local_id, Local, 0)
/// The calling work-item's work-group id along \p D.
HPP_WORK_ITEM_FUNCTION(get_group_id, Group, 0)
/// The launch's global size (the range's, not rounded up to whole
/// work-groups) along \p D.
HPP_WORK_ITEM_FUNCTION(get_global_size, GlobalSize, 1)
/// The work-group size along \p D.
HPP_WORK_ITEM_FUNCTION(get_local_size, LocalSize, 1)
/// The number of work-groups along \p D.
HPP_WORK_ITEM_FUNCTION(get_num_groups, GroupCount, 1)
} // namespace hpp

#undef HPP_WORK_ITEM_FUNCTION
#undef HPP_WORK_ITEM_LOC

#endif // HPP_CPU_WORK_ITEM_H
