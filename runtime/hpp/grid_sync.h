//===- hpp/grid_sync.h - __gpu_sync in rewritten code ---------------------===//
//
// Part of hpp-rewrite. Device runtime, every backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `__gpu_sync()` (spec 1.7), which rewritten code calls as the dialect
/// spells it: a barrier of every work-item of the launch. hpp-rewrite
/// launches a kernel that reaches it (directly or through device functions)
/// cooperatively (hpp::detail::cooperative, launch.h), so every work-group
/// is resident. On CUDA and HIP it is the grid barrier of hpp/grid_wait.h,
/// of kind detail::GpuSyncKind (there: on CUDA 12 and later cg's protocol
/// on cg's own grid workspace word, without the grid_group object; else,
/// and on HIP, `cooperative_groups::this_grid().sync()`); work-items past
/// the global range have returned from the kernel by then, and the
/// per-block `__syncthreads` counts exited threads as arrived (PTX ISA,
/// `exit`: exiting threads that hold up a barrier of all threads release
/// it). On the CPU backend it is the reference runtime's launch-wide phase
/// counter (hpp/cpu/gpu_sync.h).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_GRID_SYNC_H
#define HPP_RUNTIME_GRID_SYNC_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/runtime.h>, which selects the backend first"
#endif

#if defined(HPP_BACKEND_CPU)
#include "hpp/cpu/gpu_sync.h"
#else
#include "hpp/grid_wait.h"

static_assert(hpp::detail::GpuSyncKind != hpp::detail::GridSyncFlag &&
                  hpp::detail::GpuSyncKind != hpp::detail::GridSyncFlagRelaxed,
              "__gpu_sync has no per-launch state for the Flag kinds");

/// Waits until every work-item of the launch has reached a __gpu_sync.
HPP_DEVICE inline void __gpu_sync() {
  unsigned long long Unused = 0;
  hpp::detail::gridSync<hpp::detail::GpuSyncKind>(nullptr, Unused);
}
#endif

#endif // HPP_RUNTIME_GRID_SYNC_H
