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
/// is resident. On CUDA and HIP it is `cooperative_groups::this_grid().
/// sync()`; work-items past the global range have returned from the kernel
/// by then, and the grid barrier's per-block `__syncthreads` counts exited
/// threads as arrived. On the CPU backend it is the reference runtime's
/// launch-wide phase counter (hpp/cpu/gpu_sync.h).
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
/// Waits until every work-item of the launch has reached a __gpu_sync.
HPP_DEVICE inline void __gpu_sync() { cooperative_groups::this_grid().sync(); }
#endif

#endif // HPP_RUNTIME_GRID_SYNC_H
