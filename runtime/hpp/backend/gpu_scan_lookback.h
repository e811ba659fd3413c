//===- hpp/backend/gpu_scan_lookback.h - The scan's decoupled look-back ---===//
//
// Part of hpp-rewrite. Device runtime, GPU backends.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// How a scan tile (gpu_scan.h) learns the prefix of the tiles before it
/// (Merrill & Garland's decoupled look-back), in the order of
/// hpp/core/algorithm_order.h: P[j] = P[j-1] (+) A[j-1], a left fold.
///
/// Each tile has a state: a flag (0 none yet, 1 its aggregate A[j], 2 its
/// inclusive prefix P[j+1] = P[j] (+) A[j]) and the value, zeroed before
/// every scan. For T of at most 4 bytes the flag and the value are one
/// 64-bit word, written and read whole (relaxed device-scope atomics);
/// otherwise the flag is a word of its own and the aggregate and the
/// inclusive prefix have separate slots (never overwritten), the value
/// written before a fence and the flag, read after the flag and a fence.
///
/// Tile j > 0 publishes A[j], then one segment looks back in windows of
/// ScanLookBackWidth x 32 tiles (HPP_SCAN_WINDOWS, default 4: lane i reads
/// tiles hi - 127 + i, hi - 95 + i, hi - 63 + i and hi - 31 + i, one round
/// trip), waiting in each until every state is there, until a window holds an
/// inclusive prefix; from the rightmost one, it folds the aggregates to its
/// right LEFT TO RIGHT (only the lanes above it: in the common case the
/// inclusive prefix is near j - 1 and the fold is short), then each later
/// window's, kept in shared memory on the way back (up to 4 windows; the ones
/// further back are read again), up to tile j - 1. Every published inclusive
/// prefix is the same left fold, whoever computed it, so a tile that has become
/// inclusive in the meantime restarts the fold from its value with the same
/// bits: the result is P[j] whatever tile the look-back stops at. The tile then
/// publishes P[j+1]. Tile 0 publishes P[1] = P[0] (+) A[0] at once.
///
/// Why the width: a tile's prefix is known one round trip per window after
/// its aggregate, and the tiles started meanwhile must find it within their
/// first window, or pay another round trip each; a wider window keeps that
/// so at a higher rate of tiles (reading a window again, as an earlier
/// version did, halved the rate the look-back sustains).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_GPU_SCAN_LOOKBACK_H
#define HPP_RUNTIME_BACKEND_GPU_SCAN_LOOKBACK_H

#include "hpp/backend/gpu.h"
#include "hpp/backend/gpu_scratch.h"
#include "hpp/backend/gpu_segment.h"
#include "hpp/core/algorithm_order.h"

#include <cstddef>

namespace hpp {
namespace detail {
namespace gpu {

/// A relaxed, device-scope atomic load of a 32- or 64-bit word (on CUDA a
/// volatile load, as CUB reads its tile states).
template <class W> HPP_DEVICE inline W tileStateLoad(const W *P) {
#if defined(HPP_BACKEND_HIP)
  return __hip_atomic_load(P, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
#else
  return *static_cast<const volatile W *>(P);
#endif
}

/// A relaxed, device-scope atomic store of a 32- or 64-bit word (on CUDA a
/// volatile store).
template <class W> HPP_DEVICE inline void tileStateStore(W *P, W Value) {
#if defined(HPP_BACKEND_HIP)
  __hip_atomic_store(P, Value, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
#else
  *static_cast<volatile W *>(P) = Value;
#endif
}

/// A tile's state as read: Flag 0 (nothing yet), 1 (Value is the tile's
/// aggregate) or 2 (Value is its inclusive prefix).
template <class T> struct ScanTileEntry {
  int Flag;
  T Value;
};

/// The tile states of one scan, in scratch memory (see the file comment).
template <class T, bool Packed = (sizeof(T) <= 4)> struct ScanTileStates;

/// Flag and value in one 64-bit word: flag << 32 | the value's bits.
template <class T> struct ScanTileStates<T, true> {
  unsigned long long *Words;

  /// The bytes for \p Tiles tiles; all of them are zeroed before a scan.
  static constexpr std::size_t bytes(std::size_t Tiles) {
    return scratchRound(Tiles * sizeof(unsigned long long));
  }
  static constexpr std::size_t zeroedBytes(std::size_t Tiles) {
    return bytes(Tiles);
  }
  static ScanTileStates at(void *Memory, std::size_t) {
    return {static_cast<unsigned long long *>(Memory)};
  }

  HPP_DEVICE void publish(long long J, int Flag, const T &Value) const {
    unsigned Bits = 0;
    __builtin_memcpy(&Bits, &Value, sizeof(T));
    tileStateStore(Words + J, (static_cast<unsigned long long>(Flag) << 32) |
                                  static_cast<unsigned long long>(Bits));
  }
  HPP_DEVICE ScanTileEntry<T> load(long long J) const {
    const unsigned long long W = tileStateLoad(Words + J);
    ScanTileEntry<T> E{int(W >> 32), T()};
    const unsigned Bits = unsigned(W);
    __builtin_memcpy(&E.Value, &Bits, sizeof(T));
    return E;
  }
};

/// A flag word per tile, and the aggregates and inclusive prefixes as
/// 32-bit words in slots of their own.
template <class T> struct ScanTileStates<T, false> {
  static constexpr int Words = int((sizeof(T) + 3) / 4);
  unsigned *Flags;
  unsigned *Aggregates;
  unsigned *Inclusive;

  static constexpr std::size_t valueBytes(std::size_t Tiles) {
    return scratchRound(Tiles * Words * sizeof(unsigned));
  }
  static constexpr std::size_t zeroedBytes(std::size_t Tiles) {
    return scratchRound(Tiles * sizeof(unsigned));
  }
  static constexpr std::size_t bytes(std::size_t Tiles) {
    return zeroedBytes(Tiles) + 2 * valueBytes(Tiles);
  }
  static ScanTileStates at(void *Memory, std::size_t Tiles) {
    char *P = static_cast<char *>(Memory);
    return {reinterpret_cast<unsigned *>(P),
            reinterpret_cast<unsigned *>(P + zeroedBytes(Tiles)),
            reinterpret_cast<unsigned *>(P + zeroedBytes(Tiles) +
                                         valueBytes(Tiles))};
  }

  HPP_DEVICE void publish(long long J, int Flag, const T &Value) const {
    unsigned Bits[Words] = {};
    __builtin_memcpy(Bits, &Value, sizeof(T));
    unsigned *Slot = (Flag == 2 ? Inclusive : Aggregates) + J * Words;
#pragma unroll
    for (int I = 0; I < Words; ++I)
      tileStateStore(Slot + I, Bits[I]);
    __threadfence(); // The value before the flag.
    tileStateStore(Flags + J, unsigned(Flag));
  }
  HPP_DEVICE ScanTileEntry<T> load(long long J) const {
    ScanTileEntry<T> E{int(tileStateLoad(Flags + J)), T()};
    if (E.Flag != 0) {
      __threadfence(); // The flag before the value.
      const unsigned *Slot = (E.Flag == 2 ? Inclusive : Aggregates) + J * Words;
      unsigned Bits[Words];
#pragma unroll
      for (int I = 0; I < Words; ++I)
        Bits[I] = tileStateLoad(Slot + I);
      __builtin_memcpy(&E.Value, Bits, sizeof(T));
    }
    return E;
  }
};

/// Tiles of a look-back window per lane: the window is ScanLookBackWidth
/// x 32 tiles, read in one round trip (HPP_SCAN_WINDOWS, default 2).
#ifndef HPP_SCAN_WINDOWS
#define HPP_SCAN_WINDOWS 2
#endif
constexpr int ScanLookBackWidth = HPP_SCAN_WINDOWS;
static_assert(ScanLookBackWidth >= 1 && ScanLookBackWidth <= 8,
              "HPP_SCAN_WINDOWS: 1 to 8 tiles per lane");

/// Nanoseconds a look-back sleeps before it reads a window again (0: it
/// reads again at once; HIP: s_sleep 1 for any value but 0). Default 0: a
/// read is an L2 round trip already.
#ifndef HPP_SCAN_SLEEP
#define HPP_SCAN_SLEEP 0
#endif

/// A short pause before a look-back reads the states again.
HPP_DEVICE inline void lookBackPause() {
#if HPP_SCAN_SLEEP > 0
#if defined(HPP_BACKEND_HIP)
  __builtin_amdgcn_s_sleep(1);
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  __nanosleep(HPP_SCAN_SLEEP);
#endif
#endif
}

/// A look-back window: sub-window k (0 .. Width - 1) of lane i is tile
/// Hi - Width * 32 + 1 + k * 32 + i, so sub-window Width - 1 ends at Hi.
template <class T> struct LookBackWindow {
  ScanTileEntry<T> E[ScanLookBackWidth];
};

/// The window ending at tile \p Hi, once every state in it is there (a
/// tile below 0 reads as an aggregate, which the fold never reaches: tile 0
/// is always inclusive, and a window that holds tile 0 stops the walk).
template <class T, class StatesT>
HPP_DEVICE inline LookBackWindow<T> lookBackWindow(const StatesT &States,
                                                   long long Hi, int Lane) {
  constexpr int W = ScanLookBackWidth;
  const long long First = Hi - W * SegmentLanes + 1 + Lane;
  LookBackWindow<T> Win;
  for (;;) {
    bool Ready = true;
#pragma unroll
    for (int K = 0; K < W; ++K) {
      const long long Tile = First + K * SegmentLanes;
      Win.E[K] = ScanTileEntry<T>{1, T()};
      if (Tile >= 0)
        Win.E[K] = States.load(Tile);
      Ready = Ready && Win.E[K].Flag != 0;
    }
    if (warp32::allSync(0xffffffffu, Ready))
      return Win;
    lookBackPause();
  }
}

/// \p Acc folded with the values of lanes \p From .. 31 of a sub-window,
/// left to right (From is the same on every lane; 32: none).
template <class T, class Op>
HPP_DEVICE inline T lookBackFoldFrom(const T &V, int From, T Acc, Op &O) {
  if (From == 0) {
#pragma unroll
    for (int I = 0; I < SegmentLanes; ++I)
      Acc = O(Acc, segmentShfl(V, I));
  } else {
    for (int I = From; I < SegmentLanes; ++I)
      Acc = O(Acc, segmentShfl(V, I));
  }
  return Acc;
}

/// \p Acc folded with every value of a window, left to right.
template <class T, class Op>
HPP_DEVICE inline T lookBackFoldAll(const T (&V)[ScanLookBackWidth], T Acc,
                                    Op &O) {
#pragma unroll
  for (int K = 0; K < ScanLookBackWidth; ++K)
    Acc = lookBackFoldFrom(V[K], 0, Acc, O);
  return Acc;
}

/// The fold of a window from its rightmost inclusive prefix, if it holds
/// one (\p Found); every lane returns the same.
template <class T, class Op>
HPP_DEVICE inline T lookBackFoldWindow(const LookBackWindow<T> &Win,
                                       bool &Found, Op &O) {
  constexpr int W = ScanLookBackWidth;
  int Sub = -1, Start = -1;
#pragma unroll
  for (int K = W - 1; K >= 0; --K) {
    const unsigned Inclusive =
        warp32::ballotSync(0xffffffffu, Win.E[K].Flag == 2);
    if (Sub < 0 && Inclusive) {
      Sub = K;
      Start = 31 - __clz(int(Inclusive));
    }
  }
  Found = Sub >= 0;
  T Acc = T();
  if (!Found)
    return Acc;
#pragma unroll
  for (int K = 0; K < W; ++K) {
    if (K == Sub)
      Acc = lookBackFoldFrom(Win.E[K].Value, Start + 1,
                             segmentShfl(Win.E[K].Value, Start), O);
    else if (K > Sub)
      Acc = lookBackFoldFrom(Win.E[K].Value, 0, Acc, O);
  }
  return Acc;
}

/// P[J] for tile \p J > 0, by the look-back of the file comment. Called by
/// the 32 lanes of one segment; every lane returns it. \p Kept: shared
/// memory for \p KeepRounds windows x ScanLookBackWidth x 32 values, where
/// a walk over several windows keeps the ones it passed (windows further
/// back are read again).
template <class T, class Op, class StatesT>
HPP_DEVICE inline T lookBackPrefix(const StatesT &States, long long J, int Lane,
                                   Op &O, T *Kept, int KeepRounds) {
  constexpr int W = ScanLookBackWidth;
  constexpr long long Span = W * SegmentLanes;
  long long Hi = J - 1;
  bool Found = false;
  LookBackWindow<T> Win = lookBackWindow<T>(States, Hi, Lane);
  T Acc = lookBackFoldWindow(Win, Found, O);
  if (Found)
    return Acc;   // The common case: one window, one round trip.
  int Rounds = 0; // Windows passed, ending at J - 1, J - 1 - Span, ...
  do {
    if (Rounds < KeepRounds) {
#pragma unroll
      for (int K = 0; K < W; ++K)
        Kept[(Rounds * W + K) * SegmentLanes + Lane] = Win.E[K].Value;
    }
    ++Rounds;
    Hi -= Span;
    Win = lookBackWindow<T>(States, Hi, Lane);
    Acc = lookBackFoldWindow(Win, Found, O);
  } while (!Found);
  // The windows passed, left to right: each lane reads back what it kept.
  for (int R = Rounds - 1; R >= 0; --R) {
    T V[W];
    if (R < KeepRounds) {
#pragma unroll
      for (int K = 0; K < W; ++K)
        V[K] = Kept[(R * W + K) * SegmentLanes + Lane];
    } else {
      // Read again: a tile may have become inclusive since, and then the
      // fold restarts from it (the same bits: see the file comment).
      const LookBackWindow<T> Again =
          lookBackWindow<T>(States, J - 1 - R * Span, Lane);
      bool Restart = false;
      const T From = lookBackFoldWindow(Again, Restart, O);
      if (Restart) {
        Acc = From;
        continue;
      }
#pragma unroll
      for (int K = 0; K < W; ++K)
        V[K] = Again.E[K].Value;
    }
    Acc = lookBackFoldAll(V, Acc, O);
  }
  return Acc;
}

/// The prefix P[J] of tile \p J, whose aggregate is \p Aggregate: publishes
/// the tile's states (lane 0) and returns P[J] to every lane of the
/// calling segment (absent for tile 0 of an inclusive scan).
template <class T, class Op, class StatesT>
HPP_DEVICE inline Maybe<T> lookBack(const StatesT &States, long long J,
                                    const T &Aggregate, const Maybe<T> &P0,
                                    int Lane, Op &O, T *Kept, int KeepRounds) {
  if (J == 0) {
    if (Lane == 0)
      States.publish(0, 2,
                     Maybe<T>::combine(P0, Maybe<T>{Aggregate, true}, O).Value);
    return P0;
  }
  if (Lane == 0)
    States.publish(J, 1, Aggregate);
  const T Prefix = lookBackPrefix<T>(States, J, Lane, O, Kept, KeepRounds);
  if (Lane == 0)
    States.publish(J, 2, O(Prefix, Aggregate));
  return Maybe<T>{Prefix, true};
}

} // namespace gpu
} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_GPU_SCAN_LOOKBACK_H
