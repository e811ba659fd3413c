//===- hpp/backend/gpu_reduce_tree.h - The tree over a reduction's tiles --===//
//
// Part of hpp-rewrite. Device runtime, GPU backends.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The second step of hpp::reduce on a GPU: the pairwise tree over the
/// tiles' values (hpp/core/algorithm_order.h, refReduceTree), one
/// work-group of ReduceTreeThreads. A subtree over an aligned block of a
/// power of two of leaves is a node of the tree, so the work-group cuts
/// the values into groups of ReduceTreeGroup<T> leaves, each segment of
/// the work-group into 32 * ReduceTreeLeaves<T> of them:
///  - a segment reads its leaves in chunks of 32 * Per (Per: the values
///    one 16-byte load holds), coalesced, all loads in flight at once;
///    lane l folds its Per leaves of a chunk in registers, and the lanes
///    fold the chunk by the down-tree v[l] = v[l] (+) v[l + o] for o = 1,
///    2, 4, 8, 16 and l a multiple of 2o (the tree's pairs); lane 0 folds
///    the chunks' values pairwise;
///  - the segments' values are folded the same way through shared memory;
///  - values past the end are a suffix: a pair whose right child is
///    missing keeps its left one, by index, with no flag to carry.
/// More than one group (over ReduceTreeGroup tiles: 2^28 floats fit in
/// one) folds each group to a value and the group values again. The
/// result is init (+) the root. Launched after reduceTilesKernel, as a
/// programmatic dependent launch on CUDA where gpu_reduce.h allows it.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_GPU_REDUCE_TREE_H
#define HPP_RUNTIME_BACKEND_GPU_REDUCE_TREE_H

#include "hpp/backend/gpu.h"
#include "hpp/backend/gpu_segment.h"
#include "hpp/core/algorithm_order.h"

#include <cstddef>
#include <cstdint>

namespace hpp {
namespace detail {
namespace gpu {

/// Work-items of the tree's work-group (HPP_REDUCE_TREE_THREADS, a power
/// of two from 32 to 1024; default 512: 16 segments).
#ifndef HPP_REDUCE_TREE_THREADS
#define HPP_REDUCE_TREE_THREADS 512
#endif
constexpr int ReduceTreeThreads = HPP_REDUCE_TREE_THREADS;
constexpr int ReduceTreeSegments = ReduceTreeThreads / SegmentLanes;
static_assert(ReduceTreeThreads >= SegmentLanes && ReduceTreeThreads <= 1024 &&
                  (ReduceTreeThreads & (ReduceTreeThreads - 1)) == 0,
              "a group of the tree is a node of it: a power of two of leaves");

/// The largest power of two <= \p X (X >= 1).
constexpr std::size_t floorPow2(std::size_t X) {
  return X <= 1 ? 1 : 2 * floorPow2(X / 2);
}

/// Leaves per lane of a segment (the segment folds 32 times as many): 256
/// bytes of them, a power of two from 1 to 64.
template <class T>
constexpr int ReduceTreeLeaves = int(floorPow2(
    sizeof(T) >= 256 ? 1 : (256 / sizeof(T) > 64 ? 64 : 256 / sizeof(T))));
/// Leaves of one group: what the work-group folds at once.
template <class T>
constexpr std::size_t
    ReduceTreeGroup = std::size_t(ReduceTreeLeaves<T>) * ReduceTreeThreads;

/// Groups of \p M leaves.
template <class T>
HPP_HD constexpr std::size_t reduceTreeGroups(std::size_t M) {
  return (M + ReduceTreeGroup<T> - 1) / ReduceTreeGroup<T>;
}

/// Levels W, W / 2, ..., 1 of the pairwise tree over X in place (a
/// template per level, so that every loop has a constant trip count and
/// X stays in registers); \p Have: the values present, a prefix (L: all).
template <int W, int L, class T, class Op>
HPP_DEVICE inline T reduceTreeLevels(T (&X)[L], int Have, Op &O) {
  if (Have == L) {
#pragma unroll
    for (int I = 0; I < W; ++I)
      X[I] = O(X[2 * I], X[2 * I + 1]);
  } else {
#pragma unroll
    for (int I = 0; I < W; ++I)
      X[I] = 2 * I + 1 < Have ? O(X[2 * I], X[2 * I + 1]) : X[2 * I];
  }
  if constexpr (W > 1)
    return reduceTreeLevels<W / 2>(X, Have == L ? L : (Have + 1) / 2, O);
  else
    return X[0];
}

/// Leaves a lane loads at once: one 16-byte load's worth where T divides
/// 16 bytes, else 1.
template <class T>
constexpr int ReduceTreePer = (sizeof(T) <= 16 && 16 % sizeof(T) == 0)
                                  ? int(16 / sizeof(T))
                                  : 1;

/// The subtree over the 32 * ReduceTreeLeaves<T> leaves at \p Src, of
/// which the first \p Left are present (Left > 0; more than the segment's
/// leaves: all), at lane 0; every lane of the segment calls it. The
/// segment reads its leaves in ReduceTreeChunks<T> chunks of 32 * Per,
/// coalesced: lane l holds leaves l * Per ... of each chunk, folds them in
/// registers, and the lanes fold the chunk by the down-tree; then lane 0
/// folds the chunks' values.
template <class T>
constexpr int ReduceTreeChunks = ReduceTreeLeaves<T> / ReduceTreePer<T>;

template <class T, class Op>
HPP_DEVICE inline T reduceTreeSegment(const T *Src, std::size_t Left, int Lane,
                                      T *Chunk, Op &O) {
  constexpr int L = ReduceTreeLeaves<T>, P = ReduceTreePer<T>;
  constexpr int Q = L / P, C = SegmentLanes * P; // chunks, leaves of one
  static_assert(L % P == 0, "whole chunks");
  T V[Q];
  if (Left >= std::size_t(SegmentLanes) * L) {
    if (P > 1 && reinterpret_cast<std::uintptr_t>(Src) % 16 == 0) {
      uint4 Bits[Q];
#pragma unroll
      for (int K = 0; K < Q; ++K)
        Bits[K] = reinterpret_cast<const uint4 *>(Src + K * C)[Lane];
#pragma unroll
      for (int K = 0; K < Q; ++K) {
        T Part[P];
        __builtin_memcpy(&Part[0], &Bits[K], 16);
        if constexpr (P > 1)
          V[K] = reduceTreeLevels<P / 2>(Part, P, O);
        else
          V[K] = Part[0];
      }
    } else {
      T X[Q][P];
#pragma unroll
      for (int K = 0; K < Q; ++K)
#pragma unroll
        for (int J = 0; J < P; ++J)
          X[K][J] = Src[K * C + Lane * P + J];
#pragma unroll
      for (int K = 0; K < Q; ++K) {
        if constexpr (P > 1)
          V[K] = reduceTreeLevels<P / 2>(X[K], P, O);
        else
          V[K] = X[K][0];
      }
    }
#pragma unroll
    for (int Off = 1; Off < SegmentLanes; Off *= 2)
#pragma unroll
      for (int K = 0; K < Q; ++K) {
        const T Other = segmentShflDown(V[K], unsigned(Off));
        if (Lane % (2 * Off) == 0)
          V[K] = O(V[K], Other);
      }
    if constexpr (Q == 1)
      return V[0];
    else
      return reduceTreeLevels<Q / 2>(V, Q, O);
  }
  // A suffix is missing (the group's last segment, at most once a group):
  // a chunk at a time, its value through \p Chunk. Lane l's part of chunk
  // k is present iff its first leaf k * C + l * P is, and so is a pair
  // whose right member is.
  const std::size_t Chunks = (Left + C - 1) / C; // < Q
#pragma unroll 1
  for (int K = 0; K < int(Chunks); ++K) {
    const std::size_t First = std::size_t(K) * C + std::size_t(Lane) * P;
    const int Have =
        First >= Left
            ? 0
            : (Left - First >= std::size_t(P) ? P : int(Left - First));
    T Part[P];
#pragma unroll
    for (int J = 0; J < P; ++J)
      Part[J] = J < Have ? Src[First + J] : Src[0];
    T W = Part[0];
    if constexpr (P > 1)
      W = reduceTreeLevels<P / 2>(Part, Have > 0 ? Have : 1, O);
#pragma unroll
    for (int Off = 1; Off < SegmentLanes; Off *= 2) {
      const T Other = segmentShflDown(W, unsigned(Off));
      if (Lane % (2 * Off) == 0 &&
          std::size_t(K) * C + std::size_t(Lane + Off) * P < Left)
        W = O(W, Other);
    }
    if (Lane == 0)
      Chunk[K] = W; // Read back by lane 0 only: no barrier.
  }
#pragma unroll
  for (int K = 0; K < Q; ++K)
    V[K] = Chunk[std::size_t(K) < Chunks ? K : 0];
  if constexpr (Q == 1)
    return V[0];
  else
    return reduceTreeLevels<Q / 2>(V, int(Chunks), O);
}

/// The node over leaves Src[Base .. Base + ReduceTreeGroup<T>) of
/// Src[0 .. M) (Base < M), at work-item 0; every work-item calls it (it
/// holds barriers). \p Seg: ReduceTreeSegments values of shared memory,
/// \p Chunk: ReduceTreeSegments * ReduceTreeChunks<T>.
template <class T, class Op>
HPP_DEVICE inline T reduceTreeGroup(const T *Src, std::size_t M,
                                    std::size_t Base, T *Seg, T *Chunk, Op &O) {
  constexpr std::size_t SegLeaves =
      std::size_t(SegmentLanes) * ReduceTreeLeaves<T>;
  const int Lane = int(threadIdx.x) % SegmentLanes;
  const int S = int(threadIdx.x) / SegmentLanes;
  const std::size_t Left = M - Base; // Leaves present in the group.
  const std::size_t First = std::size_t(S) * SegLeaves;
  T V = Src[Base]; // Any value: replaced below where present.
  if (First < Left)
    V = reduceTreeSegment(Src + Base + First, Left - First, Lane,
                          Chunk + S * ReduceTreeChunks<T>, O);
  __syncthreads(); // Seg's last readers are done.
  if (Lane == 0)
    Seg[S] = V;
  __syncthreads();
  // Segment s is present iff s * SegLeaves < Left: a prefix, so a pair is
  // folded iff its right member is present.
  if (S == 0) {
    V = Seg[Lane < ReduceTreeSegments ? Lane : 0];
#pragma unroll
    for (int Off = 1; Off < ReduceTreeSegments; Off *= 2) {
      const T Other = segmentShflDown(V, unsigned(Off));
      if (Lane % (2 * Off) == 0 && std::size_t(Lane + Off) * SegLeaves < Left)
        V = O(V, Other);
    }
  }
  return V;
}

/// *Out = Init (+) the pairwise tree over Src[0 .. M) (M >= 1), ping-
/// ponging the group values of a tree over more than one group between
/// \p Buf0 and \p Buf1 (Src is Buf0; Buf1 holds reduceTreeGroups<T>(M)).
template <class T, class Op>
__global__ void __launch_bounds__(ReduceTreeThreads)
    reduceTreeKernel(const T *Src, std::size_t M, T *Buf0, T *Buf1, T *Out,
                     T Init, Op OpArg) {
  Op O = OpArg;
  __shared__ SharedValues<T, ReduceTreeSegments> SegMemory;
  __shared__ SharedValues<T, ReduceTreeSegments * ReduceTreeChunks<T>>
      ChunkMemory;
  T *Seg = SegMemory.get(), *Chunk = ChunkMemory.get();
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  // The tiles kernel ahead of a programmatic launch has finished and its
  // writes are visible (a no-op after an ordinary launch).
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
  while (M > ReduceTreeGroup<T>) {
    T *Dst = Src == Buf0 ? Buf1 : Buf0;
    const std::size_t Groups = reduceTreeGroups<T>(M);
    for (std::size_t G = 0; G < Groups; ++G) {
      const T V =
          reduceTreeGroup(Src, M, G * ReduceTreeGroup<T>, Seg, Chunk, O);
      if (threadIdx.x == 0)
        Dst[G] = V;
    }
    __syncthreads(); // The group values are written before they are read.
    Src = Dst;
    M = Groups;
  }
  const T V = reduceTreeGroup(Src, M, 0, Seg, Chunk, O);
  if (threadIdx.x == 0)
    *Out = O(Init, V);
}

} // namespace gpu
} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_GPU_REDUCE_TREE_H
