//===- hpp/backend/gpu_scan.h - Device-wide scans on CUDA and HIP ---------===//
//
// Part of hpp-rewrite. Device runtime, GPU backends.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp::inclusiveScan and hpp::exclusiveScan on a GPU, in the order of
/// hpp/core/algorithm_order.h (the same bits as refScan, on NVIDIA and on
/// AMD wave32 and wave64), in one pass over the data:
///  - one work-group of ScanShape<T>::Threads = 256 work-items (8
///    segments) per tile of ScanShape<T>::Tile elements; the tile number
///    comes from an atomic counter, so tiles start in order and a tile only
///    waits for tiles that are running or done;
///  - the tile is loaded coalesced (segment s reads its 32 x Items
///    elements 32 at a time, or 16 bytes a lane where the tile is 16-byte
///    aligned: HPP_SCAN_VECTOR) into shared memory and read back blocked
///    (work-item t: elements t * Items ... t * Items + Items - 1), one
///    element of padding every 128 bytes keeping both conflict-free;
///  - work-item t folds its elements left to right, the segments scan the
///    work-items' totals with Kogge-Stone shuffles (d = 1 .. 16, width 32),
///    every work-item scans the 8 segment totals the same way (d = 1, 2,
///    4), exactly as refScan;
///  - segment 0 publishes the tile's aggregate and looks back for the
///    tiles' prefix (gpu_scan_lookback.h), the other segments waiting at
///    the barrier with nothing live but a few values: the running values
///    loc[q] are not kept across the look-back but folded again, the same
///    operations in the same order, from the tile still in shared memory
///    (32 registers a work-item: HPP_SCAN_MINBLOCKS = 8 work-groups an SM);
///  - the results go back through shared memory, stored coalesced;
///  - or, HPP_SCAN_DIRECT / _LOAD / _STORE, a full 16-byte aligned tile
///    skips the transpose: work-item t loads its Items elements (into
///    registers, kept across the look-back) or stores its results itself,
///    16 bytes an access; the same folds in the same order.
/// Tuning macros, for bench/algo_sweep.sh: HPP_SCAN_MINBLOCKS,
/// HPP_SCAN_VECTOR, HPP_SCAN_DIRECT*, HPP_SCAN_BLOCK_ORDER (here),
/// HPP_SCAN_WINDOWS, HPP_SCAN_SLEEP (gpu_scan_lookback.h), HPP_SCAN_ITEMS,
/// HPP_SCAN_THREADS (hpp/core/algorithm_order.h: they change the order and the
/// reference with it). A tile reads all its elements before it writes any, so a
/// scan in place (in == out) works. scanAsync enqueues a zeroing of the tile
/// states and the kernel on a stream; scan (hpp/core/algorithms.h's) enqueues
/// on the legacy default stream and waits.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_GPU_SCAN_H
#define HPP_RUNTIME_BACKEND_GPU_SCAN_H

#include "hpp/backend/gpu.h"
#include "hpp/backend/gpu_scan_lookback.h"
#include "hpp/backend/gpu_scratch.h"
#include "hpp/backend/gpu_segment.h"
#include "hpp/core/algorithm_order.h"
#include "hpp/core/pointer.h"
#include "hpp/prefetch.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>

namespace hpp {
namespace detail {
namespace gpu {

/// Blocks of the scan kernel an SM holds at least on CUDA (__launch_bounds__'s
/// second argument; HPP_SCAN_MINBLOCKS, default 5: 48 registers a thread
/// at 256 threads). HIP gets the work-group size bound only.
#ifndef HPP_SCAN_MINBLOCKS
#define HPP_SCAN_MINBLOCKS 5
#endif
#if defined(HPP_BACKEND_HIP)
#define HPP_SCAN_LAUNCH_BOUNDS(Threads) __launch_bounds__(Threads)
#else
#define HPP_SCAN_LAUNCH_BOUNDS(Threads)                                        \
  __launch_bounds__(Threads, HPP_SCAN_MINBLOCKS)
#endif
/// 1: full tiles move through 16-byte loads and stores where In / Out are
/// 16-byte aligned (HPP_SCAN_VECTOR, default 1); 0: element by element.
#ifndef HPP_SCAN_VECTOR
#define HPP_SCAN_VECTOR 1
#endif
/// 1 (CUDA only): tile j is work-group j, as CUB has it, instead of a
/// ticket from the atomic counter (HPP_SCAN_BLOCK_ORDER, default 0).
#ifndef HPP_SCAN_BLOCK_ORDER
#define HPP_SCAN_BLOCK_ORDER 0
#endif

/// 1: full tiles with In and Out 16-byte aligned load (HPP_SCAN_DIRECT_LOAD)
/// and store (HPP_SCAN_DIRECT_STORE) directly (file comment; needs
/// ScanVectorWidth > 1). HPP_SCAN_DIRECT (default 0) is both's default.
#ifndef HPP_SCAN_DIRECT
#define HPP_SCAN_DIRECT 0
#endif
#ifndef HPP_SCAN_DIRECT_LOAD
#define HPP_SCAN_DIRECT_LOAD HPP_SCAN_DIRECT
#endif
#ifndef HPP_SCAN_DIRECT_STORE
#define HPP_SCAN_DIRECT_STORE HPP_SCAN_DIRECT
#endif
/// 1: direct loads also go to their own slots in shared memory (no
/// transpose, no barrier), read again after the look-back instead of kept in
/// registers across it (HPP_SCAN_DIRECT_STASH, default 0).
#ifndef HPP_SCAN_DIRECT_STASH
#define HPP_SCAN_DIRECT_STASH 0
#endif

/// Elements of T one 16-byte access moves, where 16-byte accesses can move
/// a work-item's share of a full tile (1: they cannot).
template <class T>
constexpr int ScanVectorWidth = (HPP_SCAN_VECTOR && sizeof(T) <= 16 &&
                                 16 % sizeof(T) == 0 &&
                                 ScanShape<T>::Items % int(16 / sizeof(T)) == 0)
                                    ? int(16 / sizeof(T))
                                    : 1;

/// Whether full, aligned tiles of T load (Load) or store (!Load) directly.
template <class T, bool Load>
constexpr bool ScanDirect = ScanVectorWidth<T> > 1 &&
                            (Load ? HPP_SCAN_DIRECT_LOAD
                                  : HPP_SCAN_DIRECT_STORE);

/// The shared memory of a scan tile: the tile (padded), the segments'
/// totals, the tile's prefix, its number and the look-back's kept windows.
/// Raw bytes: T need not be trivially constructible.
template <class T> struct ScanShared {
  using Shape = ScanShape<T>;
  /// Elements per padded row of 128 bytes (at least 1).
  static constexpr int Row = sizeof(T) >= 128 ? 1 : int(128 / sizeof(T));
  static constexpr int Slots = int(Shape::Tile) + int(Shape::Tile) / Row;
  HPP_DEVICE static int slot(int I) { return I + I / Row; }
  /// Windows a look-back keeps (at most 4, in at most 2 KiB).
  static constexpr int KeepBytes = 2048;
  static constexpr int WindowBytes =
      int(ScanLookBackWidth * SegmentLanes * sizeof(T));
  static constexpr int KeepRounds =
      KeepBytes / WindowBytes >= 4 ? 4 : KeepBytes / WindowBytes;
  static constexpr int KeptBytes =
      (KeepRounds > 0 ? KeepRounds : 1) * WindowBytes;

  alignas(T) unsigned char Data[Slots * sizeof(T)];
  alignas(T) unsigned char SegTotal[Shape::Segments * sizeof(T)];
  alignas(T) unsigned char Carry[sizeof(T)];
  alignas(T) unsigned char Kept[KeptBytes];
  int SegPresent[Shape::Segments];
  int CarryPresent;
  unsigned TileId;

  HPP_DEVICE T *data() { return reinterpret_cast<T *>(Data); }
  HPP_DEVICE T *segTotal() { return reinterpret_cast<T *>(SegTotal); }
  HPP_DEVICE T *carry() { return reinterpret_cast<T *>(Carry); }
  HPP_DEVICE T *kept() { return reinterpret_cast<T *>(Kept); }
};

/// \p V shifted up \p D lanes in the segment, with its presence (always
/// present in a full tile, where nothing is absent).
template <bool Full, class T>
HPP_DEVICE inline Maybe<T> scanShflUp(const Maybe<T> &V, unsigned D) {
  Maybe<T> R{segmentShflUp(V.Value, D), true};
  if constexpr (!Full)
    R.Present = segmentShflUp(int(V.Present), D) != 0;
  return R;
}

/// Element E's 16-byte group of a tile at \p Global to the padded tile
/// (Load) or back (!Load): VW elements, one 16-byte access.
template <bool Load, class T>
HPP_DEVICE inline void scanMoveVector(T *Global, T *Data, int E) {
  using Sh = ScanShared<T>;
  constexpr int VW = ScanVectorWidth<T>;
  T X[VW];
  if constexpr (Load) {
    const uint4 Bits = *reinterpret_cast<const uint4 *>(Global + E);
    __builtin_memcpy(&X[0], &Bits, 16);
#pragma unroll
    for (int C = 0; C < VW; ++C)
      Data[Sh::slot(E + C)] = X[C];
  } else {
#pragma unroll
    for (int C = 0; C < VW; ++C)
      X[C] = Data[Sh::slot(E + C)];
    uint4 Bits;
    __builtin_memcpy(&Bits, &X[0], 16);
    *reinterpret_cast<uint4 *>(Global + E) = Bits;
  }
}

/// The coalesced moves of a tile between global memory (\p Global) and the
/// padded tile: segment Seg's 32 x Items elements, 32 (or 32 x VW) a step.
template <bool Load, bool Full, class T>
HPP_DEVICE inline void scanMoveTile(T *Global, T *Data, int Count, int Seg,
                                    int Lane) {
  using Sh = ScanShared<T>;
  constexpr int Items = ScanShape<T>::Items;
  constexpr int VW = ScanVectorWidth<T>;
  const int SegFirst = Seg * SegmentLanes * Items;
  if constexpr (Full && VW > 1) {
    if (reinterpret_cast<std::uintptr_t>(Global) % 16 == 0) {
#pragma unroll
      for (int I = 0; I < Items / VW; ++I)
        scanMoveVector<Load>(Global, Data,
                             SegFirst + (I * SegmentLanes + Lane) * VW);
      return;
    }
  }
#pragma unroll
  for (int I = 0; I < Items; ++I) {
    const int E = SegFirst + I * SegmentLanes + Lane;
    if (Full || E < Count) {
      if constexpr (Load)
        Data[Sh::slot(E)] = Global[E];
      else
        Global[E] = Data[Sh::slot(E)];
    }
  }
}

/// Work-item elements \p X[0 .. Items) to or from \p Global (16-byte
/// aligned), 16 bytes an access, in order.
template <bool Load, class T, int Items>
HPP_DEVICE inline void scanMoveDirect(T *Global, T (&X)[Items]) {
  constexpr int VW = ScanVectorWidth<T>;
#pragma unroll
  for (int I = 0; I < Items / VW; ++I) {
    if constexpr (Load) {
      const uint4 Bits = reinterpret_cast<const uint4 *>(Global)[I];
      __builtin_memcpy(&X[I * VW], &Bits, 16);
    } else {
      uint4 Bits;
      __builtin_memcpy(&Bits, &X[I * VW], 16);
      reinterpret_cast<uint4 *>(Global)[I] = Bits;
    }
  }
}

/// One tile: Count (Full: Tile) elements at In to Out, tile number J; see
/// the file comment. Direct: a full tile with In and Out 16-byte aligned,
/// moved as ScanDirect says.
template <bool Full, bool Exclusive, bool Direct, class T, class Op,
          class StatesT>
HPP_DEVICE inline void scanTile(const T *In, T *Out, int Count, unsigned J,
                                const T &Init, Op &O, const StatesT &States,
                                ScanShared<T> &S) {
  using Shape = ScanShape<T>;
  using Sh = ScanShared<T>;
  constexpr int Items = Shape::Items;
  constexpr bool DLoad = Direct && ScanDirect<T, true>;
  constexpr bool DStore = Direct && ScanDirect<T, false>;
  static_assert(!Direct || Full, "scan: only full tiles move directly");
  const int Tid = int(threadIdx.x);
  const int Lane = Tid % SegmentLanes, Seg = Tid / SegmentLanes;
  T *Data = S.data();
  const int First = Tid * Items;
  constexpr bool Stash = DLoad && HPP_SCAN_DIRECT_STASH;
  // Direct loads: this work-item's elements, kept in registers (Stash: and
  // in its own slots).
  T X[DLoad ? Items : 1];
  if constexpr (DLoad) {
    scanMoveDirect<true>(const_cast<T *>(In) + First, X);
    if constexpr (Stash) {
#pragma unroll
      for (int Q = 0; Q < Items; ++Q)
        Data[Sh::slot(First + Q)] = X[Q];
    }
  } else {
    scanMoveTile<true, Full>(const_cast<T *>(In), Data, Count, Seg, Lane);
    __syncthreads();
  }
  (void)X;
  // Element Q of this work-item, wherever it was loaded to.
  auto Elem = [&](int Q) -> T {
    if constexpr (DLoad)
      return X[Q];
    else
      return Data[Sh::slot(First + Q)];
  };
  // The same after the look-back (Stash: from shared memory).
  auto Again = [&](int Q) -> T {
    if constexpr (DLoad && !Stash)
      return X[Q];
    else
      return Data[Sh::slot(First + Q)];
  };

  // Blocked: this work-item's elements, folded left to right. Only the
  // total is kept: the running values are folded again, with the same
  // operations, from the tile still in shared memory (or registers: direct
  // loads) once the prefix is known (fewer registers across the look-back).
  const int Mine = Full ? Items
                        : (Count - First <= 0       ? 0
                           : Count - First >= Items ? Items
                                                    : Count - First);
  T Run = T();
#pragma unroll
  for (int Q = 0; Q < Items; ++Q) {
    if (Full || Q < Mine) {
      const T V = Elem(Q);
      Run = Q == 0 ? V : O(Run, V);
    }
  }

  // Kogge-Stone over the segment's work-items: v[l] = v[l - d] (+) v[l].
  Maybe<T> V{Run, Full || Mine > 0};
#pragma unroll
  for (int D = 1; D < SegmentLanes; D *= 2) {
    const Maybe<T> Other = scanShflUp<Full>(V, unsigned(D));
    if (Lane >= D)
      V = Maybe<T>::combine(Other, V, O);
  }
  Maybe<T> LanePrefix = scanShflUp<Full>(V, 1u);
  if (Lane == 0)
    LanePrefix.Present = false;
  if (Lane == SegmentLanes - 1) {
    S.segTotal()[Seg] = V.Value;
    S.SegPresent[Seg] = V.Present;
  }
  __syncthreads();

  // Kogge-Stone over the segment totals, d = 1, 2, 4: lanes 0-7 of every
  // segment hold them (lane l reads lane l - d < 8 only); then each
  // work-item takes its segment's prefix and the tile's total by shuffles.
  constexpr int Segs = Shape::Segments;
  const int Mirror = Lane < Segs ? Lane : Segs - 1;
  Maybe<T> Tot{S.segTotal()[Mirror], Full || S.SegPresent[Mirror] != 0};
#pragma unroll
  for (int D = 1; D < Segs; D *= 2) {
    const Maybe<T> Other = scanShflUp<Full>(Tot, unsigned(D));
    if (Lane >= D)
      Tot = Maybe<T>::combine(Other, Tot, O);
  }
  // Tot of lane Seg - 1, absent for segment 0.
  Maybe<T> SegPrefix{segmentShfl(Tot.Value, Seg > 0 ? Seg - 1 : 0), false};
  if constexpr (Full)
    SegPrefix.Present = Seg > 0;
  else
    SegPrefix.Present =
        Seg > 0 && segmentShfl(int(Tot.Present), Seg > 0 ? Seg - 1 : 0) != 0;
  const Maybe<T> TilePrefix = Maybe<T>::combine(SegPrefix, LanePrefix, O);

  // The tiles' prefix P[J] (segment 0), shared.
  if (Tid < SegmentLanes) {
    const T Aggregate = segmentShfl(Tot.Value, Segs - 1); // Count > 0.
    const Maybe<T> Carry =
        lookBack(States, (long long)J, Aggregate, Maybe<T>{Init, Exclusive},
                 Lane, O, S.kept(), Sh::KeepRounds);
    if (Lane == 0) {
      *S.carry() = Carry.Value;
      S.CarryPresent = Carry.Present;
    }
  }
  __syncthreads();
  const Maybe<T> Carry{*S.carry(), S.CarryPresent != 0};
  const Maybe<T> Prefix = Maybe<T>::combine(Carry, TilePrefix, O);

  // The results, in place of this work-item's own elements: the running
  // values again (loc[q] of the file comment), each combined with Prefix.
  // Direct stores: the results in registers, Ys.
  T Ys[DStore ? Items : 1];
  Run = T();
#pragma unroll
  for (int Q = 0; Q < Items; ++Q) {
    if (Full || Q < Mine) {
      const T V = Again(Q);
      T Y;
      if constexpr (Exclusive) {
        // Prefix is present: P[J] holds init at least.
        Y = Q == 0 ? Prefix.Value : O(Prefix.Value, Run);
        Run = Q == 0 ? V : O(Run, V);
      } else {
        Run = Q == 0 ? V : O(Run, V);
        Y = Prefix.Present ? O(Prefix.Value, Run) : Run;
      }
      if constexpr (DStore)
        Ys[Q] = Y;
      else
        Data[Sh::slot(First + Q)] = Y;
    }
  }
  (void)Ys;
  if constexpr (DStore) {
    // Every element of this tile was read (by this work-item, or before
    // the barriers above) before any is written: in place is safe.
    scanMoveDirect<false>(Out + First, Ys);
  } else {
    __syncthreads();
    scanMoveTile<false, Full>(Out, Data, Count, Seg, Lane);
  }
}

/// The scan of In[0 .. N) to Out (may be In), a tile per work-group.
template <bool Exclusive, class T, class Op, class StatesT>
__global__ void HPP_SCAN_LAUNCH_BOUNDS(ScanShape<T>::Threads)
    scanKernel(const T *In, T *Out, std::size_t N, T Init, Op OpArg,
               StatesT States, unsigned *TileCounter) {
  using Shape = ScanShape<T>;
  __shared__ ScanShared<T> S;
  Op O = OpArg;
#if HPP_SCAN_BLOCK_ORDER && !defined(HPP_BACKEND_HIP)
  (void)TileCounter;
  const unsigned J = blockIdx.x;
#else
  if (threadIdx.x == 0)
    S.TileId = atomicAdd(TileCounter, 1u);
  __syncthreads();
  const unsigned J = S.TileId;
#endif
  const std::size_t Begin = std::size_t(J) * Shape::Tile;
  const std::size_t Left = N - Begin;
  if constexpr (ScanDirect<T, true> || ScanDirect<T, false>) {
    // Tiles are 16-byte multiples (VW > 1): In and Out decide for all;
    // unaligned, a full tile takes the partial path (fewer spills).
    const int Count = Left >= Shape::Tile ? int(Shape::Tile) : int(Left);
    const bool InOk =
        !ScanDirect<T, true> || reinterpret_cast<std::uintptr_t>(In) % 16 == 0;
    const bool OutOk = !ScanDirect<T, false> ||
                       reinterpret_cast<std::uintptr_t>(Out) % 16 == 0;
    if (Left >= Shape::Tile && InOk && OutOk)
      scanTile<true, Exclusive, true>(In + Begin, Out + Begin, Count, J, Init,
                                      O, States, S);
    else
      scanTile<false, Exclusive, false>(In + Begin, Out + Begin, Count, J, Init,
                                        O, States, S);
  } else if (Left >= Shape::Tile) {
    scanTile<true, Exclusive, false>(In + Begin, Out + Begin, int(Shape::Tile),
                                     J, Init, O, States, S);
  } else {
    scanTile<false, Exclusive, false>(In + Begin, Out + Begin, int(Left), J,
                                      Init, O, States, S);
  }
}

/// Tiles of \p N elements of T.
template <class T> constexpr std::size_t scanTiles(std::size_t N) {
  return (N + ScanShape<T>::Tile - 1) / ScanShape<T>::Tile;
}

/// Scratch bytes scanAsync needs for \p N elements of T: the tile counter,
/// then the tile states.
template <class T> constexpr std::size_t scanScratchBytes(std::size_t N) {
  return 256 + ScanTileStates<T>::bytes(scanTiles<T>(N));
}

/// Enqueues on \p Stream the inclusive (Exclusive false) or exclusive scan
/// of In[0 .. N) to Out (In itself, or apart from it); Init is P[0] of the
/// exclusive scan. \p Scratch: scanScratchBytes<T>(N) bytes of device
/// memory, 256-byte aligned, unused by anything else until the work is
/// done. A zeroing of the counter and the tile flags, then one launch.
/// Does not wait.
template <class T, class Op>
void scanAsync(HPP_GPU(Stream_t) Stream, const T *In, T *Out, std::size_t N,
               bool Exclusive, T Init, Op O, void *Scratch,
               const char *File = __FILE__, int Line = __LINE__) {
  static_assert(std::is_trivially_copyable<T>::value,
                "scan: T must be trivially copyable");
  if (N == 0)
    return;
  using States = ScanTileStates<T>;
  const std::size_t Tiles = scanTiles<T>(N);
  if (Tiles > 0x7fffffffu)
    throw RuntimeError(Exclusive ? "exclusiveScan" : "inclusiveScan", File,
                       Line,
                       "n = " + std::to_string(N) +
                           " needs more tiles than a launch has work-groups");
  checkCall(HPP_GPU(MemsetAsync)(Scratch, 0, 256 + States::zeroedBytes(Tiles),
                                 Stream),
            "MemsetAsync(scan scratch)", File, Line);
  auto *Counter = static_cast<unsigned *>(Scratch);
  const States St = States::at(static_cast<char *>(Scratch) + 256, Tiles);
  constexpr int Threads = ScanShape<T>::Threads;
  if (Exclusive)
    scanKernel<true, T, Op, States><<<unsigned(Tiles), Threads, 0, Stream>>>(
        In, Out, N, Init, O, St, Counter);
  else
    scanKernel<false, T, Op, States><<<unsigned(Tiles), Threads, 0, Stream>>>(
        In, Out, N, Init, O, St, Counter);
  checkCall(HPP_GPU(GetLastError)(), "scan kernel launch", File, Line);
}

/// The blocking scans of hpp/core/algorithms.h (see the file comment).
template <class T, class Op>
void scan(Pointer<T> In, Pointer<T> Out, std::size_t N, bool Exclusive, T Init,
          Op O, const char *File, int Line) {
  // On the input's device (docs/devices.md).
  const DeviceScope OnDevice(In.getDevice().getId());
  beforeBlockingLaunch(File, Line);
  if (N == 0)
    return;
  prefetchPointers(std::make_tuple(In, Out));
  flushLaunchRecording();
  ScratchLease Lease(scanScratchBytes<T>(N), File, Line);
  scanAsync<T, Op>(0, In.get(), Out.get(), N, Exclusive, Init, O, Lease.get(),
                   File, Line);
  checkCall(HPP_GPU(StreamSynchronize)(0),
            Exclusive ? "exclusiveScan" : "inclusiveScan", File, Line);
  afterBlockingLaunch(File, Line);
}

} // namespace gpu
} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_GPU_SCAN_H
