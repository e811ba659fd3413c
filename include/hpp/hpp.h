//===- hpp/hpp.h - The HPP dialect, executed on the CPU -------------------===//
//
// Part of hpp-rewrite. CPU reference runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one header a dialect program includes. Compiled by g++ or clang++
/// (-std=c++17 -pthread) the program runs on the CPU with the reference
/// semantics; hpp-rewrite parses the same header (with __HPP_REWRITE__
/// defined) to find the dialect in the program.
///
/// Provides: the __device(kind) annotation; Range, Index, Pointer, Atomic
/// and the free atomics, RuntimeError; allocate / deallocate; parallelFor;
/// the OpenCL work-item functions get_local_id & co. (hpp/cpu/work_item.h);
/// reduce, inclusiveScan, exclusiveScan, select and histogram
/// (hpp/core/algorithms.h); DistArray, Region, BoundDistArray and Segment
/// (per-work-group memory, hpp/cpu/dist_array.h); Task, Future and `f1 && f2`
/// (hpp/cpu/task.h, hpp/core/future.h); Channel and Span (hpp/cpu/channel.h);
/// MVECTOR_SIZE (run-time: HPP_CPU_MVECTOR=32|64, default 32; a constant
/// when compiled with -DHPP_CPU_MVECTOR=32|64), MVECTOR_MAX
/// (64) and MVECTOR_MIN (32); the CUDA-spelled warp intrinsics and warpSize
/// on a simulated mvector (hpp/cpu/warp.h); Device, getDeviceCount,
/// getDevices, getDefaultDevice, canAccessPeer and enablePeerAccess over
/// HPP_CPU_DEVICES simulated devices (hpp/cpu/devices.h, docs/devices.md),
/// allocate / parallelFor / Task::enqueue on a Device, copy and copyAsync
/// (hpp/cpu/copy.h).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_HPP_H
#define HPP_HPP_H

#include "hpp/core/config.h"

#include "hpp/core/algorithms.h"
#include "hpp/core/atomic.h"
#include "hpp/core/device.h"
#include "hpp/core/error.h"
#include "hpp/core/future.h"
#include "hpp/core/index.h"
#include "hpp/core/minmax.h"
#include "hpp/core/pointer.h"
#include "hpp/core/range.h"
#include "hpp/core/span.h"

#include "hpp/cpu/annotations.h"
#include "hpp/cpu/barrier.h"
#include "hpp/cpu/channel.h"
#include "hpp/cpu/collectives.h"
#include "hpp/cpu/copy.h"
#include "hpp/cpu/devices.h"
#include "hpp/cpu/dist_array.h"
#include "hpp/cpu/memory.h"
#include "hpp/cpu/parallel_for.h"
#include "hpp/cpu/settings.h"
#include "hpp/cpu/task.h"
#include "hpp/cpu/work_item.h"
#if defined(HPP_BACKEND_CPU)
#include "hpp/cpu/warp.h"
#endif

/// Width of the mvector (warp) the code runs on: a run-time value on the
/// CPU, the simulated width from HPP_CPU_MVECTOR (throws hpp::RuntimeError
/// when that is neither 32 nor 64); see hpp::cpu::mvectorSize().
#ifndef MVECTOR_SIZE
#define MVECTOR_SIZE (::hpp::cpu::mvectorSize())
#endif
/// Compile-time bounds of MVECTOR_SIZE, for array sizes: per-lane storage
/// uses the max, per-mvector counts use the min.
#ifndef MVECTOR_MAX
#define MVECTOR_MAX 64
#endif
#ifndef MVECTOR_MIN
#define MVECTOR_MIN 32
#endif

#endif // HPP_HPP_H
