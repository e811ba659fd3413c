//===- hpp/runtime.h - The device runtime of rewritten HPP sources --------===//
//
// Part of hpp-rewrite. Device runtime: CUDA (nvcc), HIP (hipcc) and CPU
// (g++ / clang++) backends.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one header a source produced by hpp-rewrite includes (compile with
/// `-I runtime -I include`). It provides, on every backend:
///  - the core types: Range, Index, Pointer, Atomic, RuntimeError;
///  - hpp::launchKernel and hpp::detail::kernelIndex (launch.h,
///    kernel_index.h), hpp::allocate / hpp::deallocate (memory.h);
///  - Device, getDeviceCount, getDevices, getDefaultDevice, canAccessPeer,
///    enablePeerAccess, copy, copyAsync (devices.h; docs/devices.md), and
///    the launches, tasks and allocations on a device;
///  - HPP_CHECK (check.h);
///  - MVECTOR_MAX/MIN, getWarpSize & co., LaneMask, `cg` (warp.h);
///  - Barrier (barrier.h; its work-group state and deadlock detection on
///    GPUs: block_barrier.h), __gpu_sync (grid_sync.h), DistArray, Region,
///    BoundDistArray, Segment (dist_array.h);
///  - on GPUs, the record of the errors device code raises (a Segment index
///    out of range, a Barrier deadlock), thrown by the launch or the task's
///    future as the reference runtime throws them (device_error.h);
///  - Task and Future (task.h, hpp/core/future.h);
///  - Channel, executeWith and the kernel side of channels (channel.h,
///    channel_kernel.h);
///  - the performance kernels reduce, inclusiveScan, exclusiveScan, select
///    and histogram (algorithms.h).
/// The backend is chosen by hpp/core/config.h: HIP under hipcc / clang -x
/// hip, CUDA under nvcc, otherwise the CPU backend (backend/cpu.h: plain
/// C++17, work-groups run on host threads, their work-items as fibers). The
/// other headers of runtime/hpp are pieces of this one and need the backend it
/// selects.
///
/// Environment: HPP_DEVICE (the default device: docs/devices.md);
/// HPP_PREFETCH=always|first|never (launch.h);
/// HPP_CHANNEL_EAGER (GPU: consumer launches enqueued behind a producer,
/// default 2: channel.h); CPU backend:
/// HPP_CPU_THREADS (host threads per launch), HPP_CPU_MVECTOR=32|64 (the
/// simulated warp width, default 32), HPP_CPU_DEVICES and HPP_CPU_PEER (the
/// simulated devices, hpp/cpu/device_sim.h).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_H
#define HPP_RUNTIME_H

#include "hpp/core/config.h"

// The backend first: the core headers call its atomics (atomicAdd & co.).
#if defined(HPP_BACKEND_HIP) || defined(HPP_BACKEND_CUDA)
#include "hpp/backend/gpu.h"
#else
#include "hpp/backend/cpu.h"
#endif

#include "hpp/annotations.h"
#include "hpp/core/atomic.h"
#include "hpp/core/device.h"
#include "hpp/core/error.h"
#include "hpp/core/future.h"
#include "hpp/core/index.h"
#include "hpp/core/minmax.h"
#include "hpp/core/pointer.h"
#include "hpp/core/range.h"
#include "hpp/core/span.h"

#include "hpp/check.h"
#include "hpp/kernel_index.h"
#include "hpp/warp.h"
#include "hpp/collectives.h"
// After warp.h (HIP's barrier uses the warp operations), before launch.h
// (which checks Barrier arguments).
#include "hpp/barrier.h"
#include "hpp/wait_only_barrier.h"
#include "hpp/dist_array.h"
#include "hpp/grid_sync.h"
#include "hpp/launch.h"
#include "hpp/task.h"
// After task.h: a channel's consumers are launched as tasks are.
#include "hpp/channel.h"
#include "hpp/memory.h"
// After memory.h and task.h: allocate on a device, copyAsync's futures.
#include "hpp/devices.h"
// After memory.h and prefetch: the kernels prefetch their Pointers.
#include "hpp/algorithms.h"

#endif // HPP_RUNTIME_H
