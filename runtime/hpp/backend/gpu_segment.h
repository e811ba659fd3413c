//===- hpp/backend/gpu_segment.h - 32-lane segments of the runtime kernels ===//
//
// Part of hpp-rewrite. Device runtime, GPU backends.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the reduce and scan kernels (gpu_reduce.h, gpu_scan.h) share: the
/// shuffles over a 32-lane segment (hpp/core/algorithm_order.h) for values
/// of any trivially copyable type, moved as 32-bit words through
/// hpp::warp32 (warp.h), so that a segment is the warp on NVIDIA and wave32,
/// and each half of a wave64 (the source lane never leaves the caller's
/// half). Work-item t of a work-group is lane t % 32 of segment t / 32 on
/// every target.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_GPU_SEGMENT_H
#define HPP_RUNTIME_BACKEND_GPU_SEGMENT_H

#include "hpp/backend/gpu.h"
#include "hpp/core/algorithm_order.h"
#include "hpp/warp.h"

#include <cstddef>

namespace hpp {
namespace detail {
namespace gpu {

/// Room for \p N values of T in shared memory (raw bytes: a `__shared__`
/// T need not be trivially constructible); get() is the first value.
template <class T, int N> struct SharedValues {
  alignas(T) unsigned char Bytes[N * sizeof(T)];
  HPP_DEVICE T *get() { return reinterpret_cast<T *>(Bytes); }
};

/// The 32-bit words a segment shuffle moves a T as.
template <class T> struct SegmentWords {
  static constexpr int Count = int((sizeof(T) + 3) / 4);
  unsigned W[Count];
};

/// Applies \p Shuffle (one 32-bit word) to every word of \p Value.
template <class T, class ShuffleT>
HPP_DEVICE inline T segmentShuffle(const T &Value, ShuffleT Shuffle) {
  SegmentWords<T> Words = {};
  __builtin_memcpy(Words.W, &Value, sizeof(T));
#pragma unroll
  for (int I = 0; I < SegmentWords<T>::Count; ++I)
    Words.W[I] = Shuffle(Words.W[I]);
  T Result = Value;
  __builtin_memcpy(&Result, Words.W, sizeof(T));
  return Result;
}

/// Lane (lane + \p Delta) of the caller's segment; the own value where that
/// leaves the segment.
template <class T>
HPP_DEVICE inline T segmentShflDown(const T &Value, unsigned Delta) {
  return segmentShuffle(Value, [=](unsigned Word) {
    return warp32::shflDownSync(0xffffffffu, Word, Delta);
  });
}

/// Lane (lane - \p Delta) of the caller's segment; the own value where that
/// leaves the segment.
template <class T>
HPP_DEVICE inline T segmentShflUp(const T &Value, unsigned Delta) {
  return segmentShuffle(Value, [=](unsigned Word) {
    return warp32::shflUpSync(0xffffffffu, Word, Delta);
  });
}

/// Lane \p Src (0-31) of the caller's segment.
template <class T> HPP_DEVICE inline T segmentShfl(const T &Value, int Src) {
  return segmentShuffle(Value, [=](unsigned Word) {
    return warp32::shflSync(0xffffffffu, Word, Src);
  });
}

} // namespace gpu
} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_GPU_SEGMENT_H
