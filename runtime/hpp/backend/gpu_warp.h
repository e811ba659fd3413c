//===- hpp/backend/gpu_warp.h - Warp operations on CUDA and HIP -----------===//
//
// Part of hpp-rewrite. Device runtime, GPU backends (nvcc; hipcc, HIP 5.2
// to ROCm 7.x).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The warp operations rewritten device code calls (warp.h lists them):
/// shuffles, ballot, votes, the active mask and the bit functions on masks;
/// the matches are backend/gpu_warp_match.h's, which this header includes.
///
/// CUDA: thin wrappers over the `__shfl_*_sync`, `__ballot_sync`,
/// `__any_sync`, `__all_sync`, `__activemask`, `__popc`/`__ffs`/`__clz`
/// intrinsics, passing the 32-bit mask through.
///
/// HIP: written on what every compiler from HIP 5.2 (clang 15) to ROCm 7.x
/// has, without any HIP version test: the clang builtins
/// `__builtin_amdgcn_ds_bpermute` and `__builtin_amdgcn_mbcnt_lo/hi`, HIP's
/// `__ballot` (64-bit on every version; ROCm 6.2+'s `*_sync` forms are not
/// used: they exist only from 6.2, and trap on a mask that names an inactive
/// lane) and `__popcll`/`__ffsll`/`__clzll`. The width of the wavefront is
/// hpp::getWarpSize(), a per-target constant the optimizer folds (never
/// `__AMDGCN_WAVEFRONT_SIZE__` and never `warpSize` as a constant
/// expression). On HIP:
///  - the mask cannot restrict participation: a wavefront has no independent
///    thread scheduling, so every active lane executes the operation (the
///    rewriter reports shuffles and votes in divergent code). A shuffle reads
///    the source lane's value whatever the mask says;
///  - ballotSync returns the ballot of the active lanes ANDed with the mask;
///    anySync / allSync consider the active lanes in the mask only (allSync
///    of a mask with no active lane is 1);
///  - activeMask() is the ballot of the active lanes (the exec mask).
///
/// Shuffle semantics are CUDA's (PTX shfl.sync) on both, per sub-partition
/// of Width lanes (Width: a power of two, at most the warp width; omitted:
/// the whole warp), with the lane / delta / xor operand taken modulo the
/// warp width as the hardware does:
///  - shflSync reads lane (SrcLane mod Width) of the own segment;
///  - shflUpSync / shflDownSync read Delta lanes below / above, and keep the
///    own value where that leaves the segment;
///  - shflXorSync reads lane ^ LaneMask, and keeps the own value where that
///    lies above the own segment (a lower segment is read, as on CUDA).
/// T is any trivially copyable type of at most 8 bytes; it moves as one or
/// two 32-bit words.
///
/// hpp::warp32 (warp.h) keeps a kernel written for 32 lanes at 32 lanes,
/// with PTX's semantics (the lane argument counts modulo 32):
///  - CUDA: the operations above (a Width above 32, or not positive,
///    means 32);
///  - HIP: the shuffles compute the source within the caller's 32-lane half
///    (the whole wavefront on wave32) and read it with ds_bpermute; ballot,
///    votes and the active mask take the caller's half of the wavefront's
///    ballot (`>> (lane & 32)` on wave64) as `unsigned`, then apply the mask
///    as above.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_GPU_WARP_H
#define HPP_RUNTIME_BACKEND_GPU_WARP_H

#include <type_traits>

namespace hpp {
namespace detail {

/// Whether a T moves through the warp shuffles as its bytes: the trivially
/// copyable types, and those a backend header declares so (CUDA's __half2,
/// whose copy constructors are user-provided but copy the bits:
/// backend/gpu_cuda_fp16.h).
template <class T> struct IsWarpValue : std::is_trivially_copyable<T> {};

/// A value of T seen as the 32-bit words a shuffle moves.
template <class T> struct WarpWords {
  static_assert(IsWarpValue<T>::value,
                "warp shuffles move trivially copyable values only");
  static_assert(sizeof(T) <= 8, "warp shuffles move values of at most 8 bytes");
  static constexpr int Count = (sizeof(T) + 3) / 4;

  unsigned Words[Count] = {};

  HPP_DEVICE explicit WarpWords(const T &Value) {
    __builtin_memcpy(Words, &Value, sizeof(T));
  }

  /// The value the words hold now (T need not be default constructible).
  HPP_DEVICE T value() const {
    union Storage {
      HPP_DEVICE Storage() : Dummy(0) {}
      unsigned char Dummy;
      T Value;
    } S;
    __builtin_memcpy(&S.Value, Words, sizeof(T));
    return S.Value;
  }
};

#if defined(HPP_BACKEND_HIP)

/// The lane of the executing work-item in its wavefront.
HPP_DEVICE inline int laneId() {
  const unsigned Low = __builtin_amdgcn_mbcnt_lo(~0u, 0u);
  // On wave32 the high half of the count is always 0.
  return getWarpSize() == 32 ? int(Low)
                             : int(__builtin_amdgcn_mbcnt_hi(~0u, Low));
}

/// The lanes of the wavefront whose \p Predicate is non-zero. Masked to the
/// wavefront: on wave32, clang 15 folds __ballot(1) to a 64-bit read of exec,
/// whose high half is not the ballot's.
HPP_DEVICE inline LaneMask ballot(int Predicate) {
  return LaneMask(__ballot(Predicate)) & getWarpFullMask();
}

/// Every 32-bit word of \p Value as lane \p SrcLane of the wavefront holds it.
template <class T> HPP_DEVICE inline T readLane(T Value, int SrcLane) {
  WarpWords<T> W(Value);
  for (int I = 0; I < WarpWords<T>::Count; ++I)
    W.Words[I] =
        unsigned(__builtin_amdgcn_ds_bpermute(SrcLane << 2, int(W.Words[I])));
  return W.value();
}

#else

/// Applies the CUDA shuffle \p Shuffle (one 32-bit word) to every word of
/// \p Value.
template <class T, class ShuffleT>
HPP_DEVICE inline T shuffleWords(T Value, ShuffleT Shuffle) {
  WarpWords<T> W(Value);
  for (int I = 0; I < WarpWords<T>::Count; ++I)
    W.Words[I] = Shuffle(W.Words[I]);
  return W.value();
}

#endif

} // namespace detail

/// Lane (SrcLane mod Width) of the own Width-lane segment.
template <class T>
HPP_DEVICE inline T shflSync(LaneMask Mask, T Value, int SrcLane, int Width) {
#if defined(HPP_BACKEND_HIP)
  (void)Mask;
  const int Lane = detail::laneId();
  const int Src = (Lane & ~(Width - 1)) | (SrcLane & (Width - 1));
  return detail::readLane(Value, Src);
#else
  return detail::shuffleWords(Value, [=](unsigned Word) {
    return __shfl_sync(Mask, Word, SrcLane, Width);
  });
#endif
}

/// Delta lanes below, the own value where that leaves the segment.
template <class T>
HPP_DEVICE inline T shflUpSync(LaneMask Mask, T Value, unsigned Delta,
                               int Width) {
#if defined(HPP_BACKEND_HIP)
  (void)Mask;
  const int Lane = detail::laneId();
  const int D = int(Delta & unsigned(getWarpSize() - 1));
  const int Src = (Lane & (Width - 1)) >= D ? Lane - D : Lane;
  return detail::readLane(Value, Src);
#else
  return detail::shuffleWords(Value, [=](unsigned Word) {
    return __shfl_up_sync(Mask, Word, Delta, Width);
  });
#endif
}

/// Delta lanes above, the own value where that leaves the segment.
template <class T>
HPP_DEVICE inline T shflDownSync(LaneMask Mask, T Value, unsigned Delta,
                                 int Width) {
#if defined(HPP_BACKEND_HIP)
  (void)Mask;
  const int Lane = detail::laneId();
  const int D = int(Delta & unsigned(getWarpSize() - 1));
  const int Src = (Lane & (Width - 1)) + D < Width ? Lane + D : Lane;
  return detail::readLane(Value, Src);
#else
  return detail::shuffleWords(Value, [=](unsigned Word) {
    return __shfl_down_sync(Mask, Word, Delta, Width);
  });
#endif
}

/// Lane ^ XorMask, the own value where that lies above the own segment.
template <class T>
HPP_DEVICE inline T shflXorSync(LaneMask Mask, T Value, int XorMask,
                                int Width) {
#if defined(HPP_BACKEND_HIP)
  (void)Mask;
  const int Lane = detail::laneId();
  const int Partner = Lane ^ (XorMask & (getWarpSize() - 1));
  const int Src = Partner < ((Lane & ~(Width - 1)) + Width) ? Partner : Lane;
  return detail::readLane(Value, Src);
#else
  return detail::shuffleWords(Value, [=](unsigned Word) {
    return __shfl_xor_sync(Mask, Word, XorMask, Width);
  });
#endif
}

/// The whole-warp forms (Width = the executing warp's width).
template <class T>
HPP_DEVICE inline T shflSync(LaneMask Mask, T Value, int SrcLane) {
  return shflSync(Mask, Value, SrcLane, getWarpSize());
}
template <class T>
HPP_DEVICE inline T shflUpSync(LaneMask Mask, T Value, unsigned Delta) {
  return shflUpSync(Mask, Value, Delta, getWarpSize());
}
template <class T>
HPP_DEVICE inline T shflDownSync(LaneMask Mask, T Value, unsigned Delta) {
  return shflDownSync(Mask, Value, Delta, getWarpSize());
}
template <class T>
HPP_DEVICE inline T shflXorSync(LaneMask Mask, T Value, int XorMask) {
  return shflXorSync(Mask, Value, XorMask, getWarpSize());
}

/// A bit per lane in \p Mask whose \p Predicate is non-zero.
HPP_DEVICE inline LaneMask ballotSync(LaneMask Mask, int Predicate) {
#if defined(HPP_BACKEND_HIP)
  return detail::ballot(Predicate) & Mask;
#else
  return __ballot_sync(Mask, Predicate);
#endif
}

/// Non-zero if \p Predicate is non-zero on any lane in \p Mask.
HPP_DEVICE inline int anySync(LaneMask Mask, int Predicate) {
#if defined(HPP_BACKEND_HIP)
  return (detail::ballot(Predicate) & Mask) != 0;
#else
  return __any_sync(Mask, Predicate);
#endif
}

/// Non-zero if \p Predicate is non-zero on every lane in \p Mask.
HPP_DEVICE inline int allSync(LaneMask Mask, int Predicate) {
#if defined(HPP_BACKEND_HIP)
  return (detail::ballot(Predicate == 0) & Mask) == 0;
#else
  return __all_sync(Mask, Predicate);
#endif
}

/// The lanes executing this call.
HPP_DEVICE inline LaneMask activeMask() {
#if defined(HPP_BACKEND_HIP)
  return detail::ballot(1);
#else
  return __activemask();
#endif
}

// The bit functions on masks are host-device: host code may count the
// lanes of a mask it was given, and __device(hpp) functions that only count
// bits stay __host__ __device__.

/// Bits set in \p Mask.
HPP_HD inline int popcMask(LaneMask Mask) {
#if defined(HPP_DEVICE_PASS) && defined(HPP_BACKEND_HIP)
  return int(__popcll(Mask));
#elif defined(HPP_DEVICE_PASS)
  return __popc(Mask);
#else
  return __builtin_popcountll(Mask);
#endif
}

/// 1 + the lowest set bit of \p Mask, 0 if none.
HPP_HD inline int ffsMask(LaneMask Mask) {
#if defined(HPP_DEVICE_PASS) && defined(HPP_BACKEND_HIP)
  return int(__ffsll(Mask));
#elif defined(HPP_DEVICE_PASS)
  return __ffs(int(Mask));
#else
  return __builtin_ffsll((long long)Mask);
#endif
}

/// Leading zero bits of \p Mask (its full width if it is 0).
HPP_HD inline int clzMask(LaneMask Mask) {
#if defined(HPP_DEVICE_PASS) && defined(HPP_BACKEND_HIP)
  return int(__clzll((long long)Mask));
#elif defined(HPP_DEVICE_PASS)
  return __clz(int(Mask));
#else
  constexpr int Bits = 8 * int(sizeof(LaneMask));
  return Mask == 0 ? Bits
                   : __builtin_clzll((unsigned long long)Mask) - (64 - Bits);
#endif
}

//===----------------------------------------------------------------------===//
// hpp::warp32: a 32-lane logical warp (warp.h)
//===----------------------------------------------------------------------===//

namespace detail {

/// A shuffle width of hpp::warp32: one of 1-32 as given, anything else
/// (0, negative, above 32) the whole logical warp.
HPP_DEVICE inline int warp32Width(int Width) {
  return unsigned(Width - 1) < 32u ? Width : 32;
}

#if defined(HPP_BACKEND_HIP)

/// The source lane of each hpp::warp32 shuffle, relative to the caller's
/// 32-lane half: \p H is the caller's lane in it (0-31), \p W the width
/// (1-32). As PTX, the lane argument counts modulo 32 (its bits 4:0), so
/// the result lies in [0, 32): within the half.
namespace warp32src {
HPP_DEVICE inline int shflSync(int H, int SrcLane, int W) {
  return (H & ~(W - 1)) | (SrcLane & (W - 1));
}
HPP_DEVICE inline int shflUpSync(int H, unsigned Delta, int W) {
  const int D = int(Delta & 31u);
  return (H & (W - 1)) >= D ? H - D : H;
}
HPP_DEVICE inline int shflDownSync(int H, unsigned Delta, int W) {
  const int D = int(Delta & 31u);
  return (H & (W - 1)) + D < W ? H + D : H;
}
HPP_DEVICE inline int shflXorSync(int H, int LaneMask, int W) {
  const int J = H ^ (LaneMask & 31);
  return J < (H & ~(W - 1)) + W ? J : H;
}
} // namespace warp32src

/// The caller's 32-lane half of the wavefront's ballot of \p Predicate
/// (bit i: lane i of the half).
HPP_DEVICE inline unsigned halfBallot(int Predicate) {
  const LaneMask Bits = ballot(Predicate);
  return unsigned(getWarpSize() == 32 ? Bits : Bits >> (laneId() & 32));
}

#endif

} // namespace detail

namespace warp32 {

// The four shuffles differ only in name and in what the lane argument
// means: one row each.
#define HPP_WARP32_SHUFFLES(X)                                                 \
  X(shflSync, int)          /* source lane */                                  \
  X(shflUpSync, unsigned)   /* delta */                                        \
  X(shflDownSync, unsigned) /* delta */                                        \
  X(shflXorSync, int)       /* xor lane mask */

#if defined(HPP_BACKEND_HIP)
#define HPP_WARP32_SHUFFLE(Name, ArgType)                                      \
  template <class T>                                                           \
  HPP_DEVICE inline T Name(unsigned Mask, T Var, ArgType Arg,                  \
                           int Width = size) {                                 \
    (void)Mask;                                                                \
    const int Lane = detail::laneId();                                         \
    const int H = Lane & 31;                                                   \
    return detail::readLane(                                                   \
        Var, (Lane - H) +                                                      \
                 detail::warp32src::Name(H, Arg, detail::warp32Width(Width))); \
  }
#else
#define HPP_WARP32_SHUFFLE(Name, ArgType)                                      \
  template <class T>                                                           \
  HPP_DEVICE inline T Name(unsigned Mask, T Var, ArgType Arg,                  \
                           int Width = size) {                                 \
    return ::hpp::Name(Mask, Var, Arg, detail::warp32Width(Width));            \
  }
#endif
HPP_WARP32_SHUFFLES(HPP_WARP32_SHUFFLE)
#undef HPP_WARP32_SHUFFLE
#undef HPP_WARP32_SHUFFLES

/// Bit i set when lane i of the logical warp is in \p Mask and passes a
/// non-zero \p Predicate.
HPP_DEVICE inline unsigned ballotSync(unsigned Mask, int Predicate) {
#if defined(HPP_BACKEND_HIP)
  return detail::halfBallot(Predicate) & Mask;
#else
  return ::hpp::ballotSync(Mask, Predicate);
#endif
}

/// Non-zero if \p Predicate is non-zero on any lane in \p Mask.
HPP_DEVICE inline int anySync(unsigned Mask, int Predicate) {
#if defined(HPP_BACKEND_HIP)
  return (detail::halfBallot(Predicate) & Mask) != 0;
#else
  return ::hpp::anySync(Mask, Predicate);
#endif
}

/// Non-zero if \p Predicate is non-zero on every lane in \p Mask.
HPP_DEVICE inline int allSync(unsigned Mask, int Predicate) {
#if defined(HPP_BACKEND_HIP)
  return (detail::halfBallot(Predicate == 0) & Mask) == 0;
#else
  return ::hpp::allSync(Mask, Predicate);
#endif
}

/// The lanes of the logical warp executing this call.
HPP_DEVICE inline unsigned activeMask() {
#if defined(HPP_BACKEND_HIP)
  return detail::halfBallot(1);
#else
  return ::hpp::activeMask();
#endif
}

} // namespace warp32

} // namespace hpp

#include "hpp/backend/gpu_warp_match.h"

#endif // HPP_RUNTIME_BACKEND_GPU_WARP_H
