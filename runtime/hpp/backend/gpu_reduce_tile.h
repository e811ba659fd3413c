//===- hpp/backend/gpu_reduce_tile.h - One tile of the GPU reduction ------===//
//
// Part of hpp-rewrite. Device runtime, GPU backends.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The value of one reduction tile on a GPU, in the order of
/// hpp/core/algorithm_order.h (refReduceTile): one 32-lane segment, lane l
/// folding its Vec accumulators over the tile's steps (ReduceUnroll loads
/// in flight; 16-byte loads where the tile is aligned), then the balanced
/// tree of its accumulators and the down-tree over the segment's lanes.
/// gpu_reduce.h's kernels call it for every tile of every level.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_GPU_REDUCE_TILE_H
#define HPP_RUNTIME_BACKEND_GPU_REDUCE_TILE_H

#include "hpp/backend/gpu.h"
#include "hpp/backend/gpu_segment.h"
#include "hpp/core/algorithm_order.h"

#include <cstddef>
#include <cstdint>

namespace hpp {
namespace detail {
namespace gpu {
/// Loads of Vec elements each lane of reduceTilesKernel has in flight
/// (HPP_REDUCE_UNROLL, default 8).
#ifndef HPP_REDUCE_UNROLL
#define HPP_REDUCE_UNROLL 8
#endif

/// Work-items of reduceTilesKernel's work-groups (HPP_REDUCE_THREADS, a
/// power of two from 32 to 1024; default 256: 8 segments, whose tiles'
/// node of the pairwise tree each work-group leaves). Changes nothing in
/// the result: every node is one of the tree's.
#ifndef HPP_REDUCE_THREADS
#define HPP_REDUCE_THREADS 256
#endif
constexpr int ReduceThreads = HPP_REDUCE_THREADS;
constexpr int ReduceSegments = ReduceThreads / SegmentLanes;
static_assert(ReduceThreads >= SegmentLanes && ReduceThreads <= 1024 &&
                  (ReduceThreads & (ReduceThreads - 1)) == 0,
              "a work-group's tiles are a node of the tree: a power of two");
/// Loads of Vec elements each lane has in flight in the hot loop.
constexpr int ReduceUnroll = HPP_REDUCE_UNROLL;
static_assert(ReduceShape<float>::Iters % ReduceUnroll == 0,
              "the unrolled steps cover a lane's Iters");

/// Whether a lane's Vec elements are one 16-byte load.
template <class T>
constexpr bool ReduceVectorizable = sizeof(T) * ReduceShape<T>::Vec == 16;

/// Lane \p Lane's Vec elements of step \p K of the tile at \p Tile.
template <bool Vector, class T>
HPP_DEVICE inline void reduceLoad(const T *Tile, int K, int Lane,
                                  T (&X)[ReduceShape<T>::Vec]) {
  constexpr int Vec = ReduceShape<T>::Vec;
  const std::size_t First = (std::size_t(K) * SegmentLanes + Lane) * Vec;
  if constexpr (Vector) {
    const uint4 Bits = *reinterpret_cast<const uint4 *>(Tile + First);
    __builtin_memcpy(&X[0], &Bits, 16);
  } else {
#pragma unroll
    for (int C = 0; C < Vec; ++C)
      X[C] = Tile[First + C];
  }
}

/// The balanced tree of a lane's accumulators, as refReduceTile.
template <class T, class Op>
HPP_DEVICE inline T reduceAccumulators(T (&Acc)[ReduceShape<T>::Vec], Op &O) {
#pragma unroll
  for (int Width = ReduceShape<T>::Vec / 2; Width >= 1; Width /= 2)
#pragma unroll
    for (int C = 0; C < Width; ++C)
      Acc[C] = O(Acc[2 * C], Acc[2 * C + 1]);
  return Acc[0];
}

/// The value of a full tile (Tile elements at \p Tile), at lane 0 of the
/// calling segment.
template <bool Vector, class T, class Op>
HPP_DEVICE inline T reduceFullTileAs(const T *Tile, int Lane, Op &O) {
  using Shape = ReduceShape<T>;
  constexpr int Vec = Shape::Vec;
  T Acc[Vec];
  T X[ReduceUnroll][Vec];
#pragma unroll
  for (int U = 0; U < ReduceUnroll; ++U)
    reduceLoad<Vector>(Tile, U, Lane, X[U]);
#pragma unroll
  for (int C = 0; C < Vec; ++C) {
    Acc[C] = X[0][C];
#pragma unroll
    for (int U = 1; U < ReduceUnroll; ++U)
      Acc[C] = O(Acc[C], X[U][C]);
  }
#pragma unroll 1
  for (int K = ReduceUnroll; K < Shape::Iters; K += ReduceUnroll) {
#pragma unroll
    for (int U = 0; U < ReduceUnroll; ++U)
      reduceLoad<Vector>(Tile, K + U, Lane, X[U]);
#pragma unroll
    for (int U = 0; U < ReduceUnroll; ++U)
#pragma unroll
      for (int C = 0; C < Vec; ++C)
        Acc[C] = O(Acc[C], X[U][C]);
  }
  T V = reduceAccumulators(Acc, O);
#pragma unroll
  for (int Off = SegmentLanes / 2; Off >= 1; Off /= 2)
    V = O(V, segmentShflDown(V, unsigned(Off)));
  return V;
}

/// reduceFullTileAs with vector loads where \p Tile allows them.
template <class T, class Op>
HPP_DEVICE inline T reduceFullTile(const T *Tile, int Lane, Op &O) {
  if constexpr (ReduceVectorizable<T>) {
    if (reinterpret_cast<std::uintptr_t>(Tile) % 16 == 0)
      return reduceFullTileAs<true>(Tile, Lane, O);
  }
  return reduceFullTileAs<false>(Tile, Lane, O);
}

/// The value of a tile of \p Count (0 < Count < Tile) elements at \p Tile,
/// at lane 0 of the calling segment; absent elements as Maybe::combine.
template <class T, class Op>
HPP_DEVICE inline T reducePartialTile(const T *Tile, std::size_t Count,
                                      int Lane, Op &O) {
  using Shape = ReduceShape<T>;
  constexpr int Vec = Shape::Vec;
  // Accumulator c has a value iff its first element, Lane * Vec + c, is in
  // the tile: a prefix of the accumulators, Have of them. (Plain arrays
  // indexed by constants only: they stay in registers.)
  const std::size_t Own = std::size_t(Lane) * Vec;
  int Have = Own >= Count ? 0 : (Count - Own >= Vec ? Vec : int(Count - Own));
  T Acc[Vec];
#pragma unroll
  for (int C = 0; C < Vec; ++C)
    Acc[C] = C < Have ? Tile[Own + C] : T();
#pragma unroll 1
  for (int K = 1; K < Shape::Iters; ++K) {
    const std::size_t First = (std::size_t(K) * SegmentLanes + Lane) * Vec;
    if (First >= Count)
      break; // Every later step of this lane lies further out.
#pragma unroll
    for (int C = 0; C < Vec; ++C)
      if (First + C < Count)
        Acc[C] = O(Acc[C], Tile[First + C]);
  }
  // The balanced tree; a pair with one value keeps it (Maybe::combine),
  // and the values stay a prefix.
#pragma unroll
  for (int Width = Vec / 2; Width >= 1; Width /= 2) {
#pragma unroll
    for (int C = 0; C < Width; ++C)
      Acc[C] = 2 * C + 1 < Have ? O(Acc[2 * C], Acc[2 * C + 1]) : Acc[2 * C];
    Have = (Have + 1) / 2;
  }
  // Lane l has a value iff l * Vec < Count: a prefix of the lanes, which
  // stays the prefix of the values present at every step of the tree.
  const std::size_t Lanes = (Count + Vec - 1) / Vec;
  const int Present =
      Lanes < std::size_t(SegmentLanes) ? int(Lanes) : SegmentLanes;
  T V = Acc[0];
#pragma unroll
  for (int Off = SegmentLanes / 2; Off >= 1; Off /= 2) {
    const T Other = segmentShflDown(V, unsigned(Off));
    if (Lane + Off < Present)
      V = O(V, Other);
  }
  return V;
}

/// The value of the tile of \p Count (0 < Count <= Tile) elements at \p Tile.
template <class T, class Op>
HPP_DEVICE inline T reduceTile(const T *Tile, std::size_t Count, int Lane,
                               Op &O) {
  if (Count == ReduceShape<T>::Tile)
    return reduceFullTile(Tile, Lane, O);
  return reducePartialTile(Tile, Count, Lane, O);
}

} // namespace gpu
} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_GPU_REDUCE_TILE_H
