//===- hpp/core/algorithm_order.h - The order the runtime kernels fold in -===//
//
// Part of hpp-rewrite. Shared by the CPU reference runtime and the device
// runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The performance kernels (reduce, inclusiveScan, exclusiveScan: see
/// hpp/core/algorithms.h) combine elements in one fixed order, the same on
/// every backend and at every mvector width, so that a floating-point result
/// is the same bits on the CPU, on NVIDIA and on AMD wave32 and wave64. This
/// file defines that order: the tile shapes (ReduceShape, ScanShape) and
/// the reference implementations (refReduce, refScan), which are what the
/// CPU backends run and what the GPU kernels must reproduce bit for bit.
///
/// Terms (docs/dialect.md, "Performance kernels", says the same in words):
///  - a *segment* is 32 logical lanes (MVECTOR_MIN); a 64-lane mvector runs
///    two. Every tree below is over a segment or over segments, never over
///    an mvector, so the width does not enter the order.
///  - `a (+) b` is `Op(a, b)` where both are present; an absent operand (past
///    the end of the input) leaves the other: Maybe::combine.
///
/// Reduce: the input is cut into tiles of ReduceShape<T>::Tile elements
/// (the last one shorter). In a tile, lane l of the segment folds, for each
/// of Vec accumulators c, the elements tile + (k * 32 + l) * Vec + c for
/// k = 0, 1, ..., Iters - 1, left to right; its value is the balanced tree
/// of its accumulators ((a0 (+) a1) (+) (a2 (+) a3) for Vec = 4); the
/// segment's value is the down-tree v[l] = v[l] (+) v[l + o] for o = 16, 8,
/// 4, 2, 1, read at lane 0. The tiles' values v[0 .. m) are then folded by
/// the pairwise tree: v[i] = v[2i] (+) v[2i + 1] for every i, m = (m + 1)
/// / 2, until one value is left (the balanced binary tree whose leaves are
/// the tiles in order, a missing right child leaving the left one); the
/// result is init (+) that value.
///
/// Scan: tiles of ScanShape<T>::Tile = 256 x Items elements; work-item t of
/// the tile holds elements t * Items ... t * Items + Items - 1 and folds
/// them left to right (its running values loc[q]); the 8 segments' work-
/// items scan their totals with Kogge-Stone steps d = 1, 2, 4, 8, 16
/// (v[l] = v[l - d] (+) v[l] for l >= d), the 8 segment totals are scanned
/// the same way (d = 1, 2, 4), and work-item t's prefix inside the tile is
/// segmentPrefix (+) lanePrefix. Across tiles the prefix is the left fold
/// P[j] = P[j-1] (+) A[j-1] of the tiles' totals A (P[0] = init for an
/// exclusive scan, absent for an inclusive one). Element q of work-item t
/// gets (P[j] (+) tilePrefix[t]) (+) loc[q] (inclusive), or the same
/// without loc[q] and with loc[q - 1] (exclusive).
///
/// Op must be associative and, for reduce, commutative; on exact types
/// (integers, min, max) the order does not change the result.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CORE_ALGORITHM_ORDER_H
#define HPP_CORE_ALGORITHM_ORDER_H

#include "hpp/core/config.h"

#include <cstddef>
#include <vector>

/// The tile constants, overridable for performance experiments only
/// (bench/algo_sweep.sh): they change the order, hence the bits, and every
/// translation unit of a program must see the same values. HPP_REDUCE_ITERS
/// is ReduceShape's Iters; HPP_SCAN_ITEMS is ScanShape's Items for a 4-byte
/// T (a larger T gets as many items as fit in HPP_SCAN_ITEMS * 4 bytes, at
/// least 1); HPP_SCAN_THREADS is ScanShape's Threads (a multiple of 32).
#ifndef HPP_REDUCE_ITERS
#define HPP_REDUCE_ITERS 64
#endif
#ifndef HPP_SCAN_ITEMS
#define HPP_SCAN_ITEMS 32
#endif
#ifndef HPP_SCAN_THREADS
#define HPP_SCAN_THREADS 256
#endif

namespace hpp {
namespace detail {

/// Lanes of a segment: the trees of the performance kernels run over 32
/// lanes whatever the mvector width.
constexpr int SegmentLanes = 32;

/// The tile of a reduction over T: 32 lanes x Vec accumulators x Iters.
template <class T> struct ReduceShape {
  /// Accumulators per lane: the elements one 16-byte (or 4-element) load
  /// brings, 1 for a size that does not divide 16.
  static constexpr int Vec =
      (sizeof(T) <= 16 && 16 % sizeof(T) == 0)
          ? (16 / sizeof(T) > 4 ? 4 : int(16 / sizeof(T)))
          : 1;
  static constexpr int Iters = HPP_REDUCE_ITERS;
  static constexpr std::size_t Tile = std::size_t(SegmentLanes) * Vec * Iters;
};

/// The tile of a scan over T: 256 work-items (8 segments) x Items.
template <class T> struct ScanShape {
  static constexpr int Threads = HPP_SCAN_THREADS;
  static constexpr int Segments = Threads / SegmentLanes;
  static constexpr std::size_t ItemBytes = std::size_t(HPP_SCAN_ITEMS) * 4;
  static constexpr int Items =
      ItemBytes / sizeof(T) >= HPP_SCAN_ITEMS
          ? HPP_SCAN_ITEMS
          : (ItemBytes / sizeof(T) >= 1 ? int(ItemBytes / sizeof(T)) : 1);
  static constexpr std::size_t Tile = std::size_t(Threads) * Items;
};

/// A value or nothing (an element past the end of the input).
template <class T> struct Maybe {
  T Value{};
  bool Present = false;

  template <class Op>
  HPP_HD static Maybe combine(const Maybe &A, const Maybe &B, Op &O) {
    if (!A.Present)
      return B;
    if (!B.Present)
      return A;
    return Maybe{O(A.Value, B.Value), true};
  }
};

/// The value of one reduction tile: In[0 .. Count), Count <= Tile, in the
/// order the file comment gives. Count > 0.
template <class T, class Op>
T refReduceTile(const T *In, std::size_t Count, Op &O) {
  using Shape = ReduceShape<T>;
  Maybe<T> Lane[SegmentLanes];
  for (int L = 0; L < SegmentLanes; ++L) {
    Maybe<T> Acc[Shape::Vec];
    for (int K = 0; K < Shape::Iters; ++K)
      for (int C = 0; C < Shape::Vec; ++C) {
        std::size_t E = (std::size_t(K) * SegmentLanes + L) * Shape::Vec + C;
        if (E < Count)
          Acc[C] = Maybe<T>::combine(Acc[C], Maybe<T>{In[E], true}, O);
      }
    // The balanced tree of the accumulators.
    for (int Width = Shape::Vec / 2; Width >= 1; Width /= 2)
      for (int C = 0; C < Width; ++C)
        Acc[C] = Maybe<T>::combine(Acc[2 * C], Acc[2 * C + 1], O);
    Lane[L] = Acc[0];
  }
  for (int Off = SegmentLanes / 2; Off >= 1; Off /= 2)
    for (int L = 0; L < Off; ++L)
      Lane[L] = Maybe<T>::combine(Lane[L], Lane[L + Off], O);
  return Lane[0].Value;
}

/// The pairwise tree over V[0 .. M) (file comment), in place; M > 0.
template <class T, class Op> T refReduceTree(T *V, std::size_t M, Op &O) {
  for (; M > 1; M = (M + 1) / 2)
    for (std::size_t I = 0; 2 * I < M; ++I)
      V[I] = 2 * I + 1 < M ? O(V[2 * I], V[2 * I + 1]) : V[2 * I];
  return V[0];
}

/// init (+) the reduction of In[0 .. N).
template <class T, class Op>
T refReduce(const T *In, std::size_t N, T Init, Op O) {
  if (N == 0)
    return Init;
  using Shape = ReduceShape<T>;
  std::vector<T> Tiles;
  for (std::size_t B = 0; B < N; B += Shape::Tile)
    Tiles.push_back(
        refReduceTile(In + B, N - B < Shape::Tile ? N - B : Shape::Tile, O));
  return O(Init, refReduceTree(Tiles.data(), Tiles.size(), O));
}

/// The Kogge-Stone inclusive scan of V[0 .. Count) in place.
template <class T, class Op> void refKoggeStone(Maybe<T> *V, int Count, Op &O) {
  std::vector<Maybe<T>> Old(V, V + Count);
  for (int D = 1; D < Count; D *= 2) {
    Old.assign(V, V + Count);
    for (int L = D; L < Count; ++L)
      V[L] = Maybe<T>::combine(Old[L - D], Old[L], O);
  }
}

/// Out[i] = the inclusive (Exclusive false) or exclusive scan of
/// In[0 .. N), in the order the file comment gives. Init is used only by
/// the exclusive scan. In and Out may be the same array.
template <class T, class Op>
void refScan(const T *In, T *Out, std::size_t N, bool Exclusive, T Init, Op O) {
  using Shape = ScanShape<T>;
  Maybe<T> Carry{Init, Exclusive}; // P[j]
  std::vector<T> Loc(Shape::Tile);
  std::vector<Maybe<T>> Total(Shape::Threads);
  for (std::size_t Base = 0; Base < N; Base += Shape::Tile) {
    std::size_t Count = N - Base < Shape::Tile ? N - Base : Shape::Tile;
    for (int T0 = 0; T0 < Shape::Threads; ++T0) {
      Maybe<T> Run;
      for (int Q = 0; Q < Shape::Items; ++Q) {
        std::size_t E = std::size_t(T0) * Shape::Items + Q;
        if (E >= Count)
          break;
        Run = Maybe<T>::combine(Run, Maybe<T>{In[Base + E], true}, O);
        Loc[E] = Run.Value;
      }
      Total[T0] = Run;
    }
    // Kogge-Stone inside each segment, then over the segments' totals.
    Maybe<T> SegTotal[Shape::Segments];
    for (int S = 0; S < Shape::Segments; ++S) {
      refKoggeStone(Total.data() + S * SegmentLanes, SegmentLanes, O);
      SegTotal[S] = Total[S * SegmentLanes + SegmentLanes - 1];
    }
    refKoggeStone(SegTotal, Shape::Segments, O);
    for (int T0 = 0; T0 < Shape::Threads; ++T0) {
      int S = T0 / SegmentLanes, L = T0 % SegmentLanes;
      Maybe<T> LanePrefix = L > 0 ? Total[T0 - 1] : Maybe<T>{};
      Maybe<T> SegPrefix = S > 0 ? SegTotal[S - 1] : Maybe<T>{};
      Maybe<T> Prefix = Maybe<T>::combine(
          Carry, Maybe<T>::combine(SegPrefix, LanePrefix, O), O);
      for (int Q = 0; Q < Shape::Items; ++Q) {
        std::size_t E = std::size_t(T0) * Shape::Items + Q;
        if (E >= Count)
          break;
        Maybe<T> Before =
            Q == 0 ? Prefix
                   : Maybe<T>::combine(Prefix, Maybe<T>{Loc[E - 1], true}, O);
        Out[Base + E] =
            Exclusive
                ? Before.Value
                : Maybe<T>::combine(Prefix, Maybe<T>{Loc[E], true}, O).Value;
      }
    }
    Carry = Maybe<T>::combine(Carry, SegTotal[Shape::Segments - 1], O);
  }
}

} // namespace detail
} // namespace hpp

#endif // HPP_CORE_ALGORITHM_ORDER_H
