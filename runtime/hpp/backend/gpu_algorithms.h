//===- hpp/backend/gpu_algorithms.h - The runtime kernels on a GPU --------===//
//
// Part of hpp-rewrite. Device runtime, GPU backends.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp::detail::gpu's side of hpp/core/algorithms.h: each public call
/// (reduce, scan, select, histogram) there calls the function of the same
/// name here, with the caller's Pointers, file and line. Each
///  - prefetches its Pointers as a launch does (prefetch.h),
///  - takes the device's scratch memory (gpu_scratch.h),
///  - enqueues its kernels on the legacy default stream, as a blocking
///    parallelFor does, and waits for them,
///  - gives the same bits as the CPU reference (hpp/core/algorithm_order.h).
/// The stream-ordered pieces (reduceAsync & co., given a stream and scratch
/// memory, not waiting) are what bench/ times against CUB.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_GPU_ALGORITHMS_H
#define HPP_RUNTIME_BACKEND_GPU_ALGORITHMS_H

#include "hpp/backend/gpu_histogram.h"
#include "hpp/backend/gpu_reduce.h"
#include "hpp/backend/gpu_scan.h"
#include "hpp/backend/gpu_select.h"

#endif // HPP_RUNTIME_BACKEND_GPU_ALGORITHMS_H
