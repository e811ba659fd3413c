//===- hpp/backend/gpu_warp_match.h - Warp matches on CUDA and HIP --------===//
//
// Part of hpp-rewrite. Device runtime, GPU backends (nvcc; hipcc, HIP 5.2
// to ROCm 7.x).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// matchAnySync and matchAllSync (hpp/warp.h), for the whole warp and for
/// hpp::warp32, one overload per value type of CUDA's
/// (HPP_WARP_MATCH_TYPES), so that a call resolves as CUDA's does:
///  - CUDA: __match_any_sync and __match_all_sync (sm_70 and later, as the
///    CUDA program the port came from needs);
///  - HIP, which has no match instruction: one iteration per distinct
///    value. The lowest active lane not yet in a group broadcasts its value
///    (readlane), a ballot of the lanes whose value has the same bits is its
///    group, and the loop ends when every lane is in one. On a 64-lane
///    wavefront the groups of hpp::warp32 stay within each 32-lane half.
///    The result is the caller's group within the mask; matchAllSync is the
///    mask when that is the whole mask, else 0.
/// Values compare by their bits, as PTX's match.sync does (-0.0 and 0.0
/// differ, a NaN matches the same NaN). On HIP, as for the other warp
/// operations there (backend/gpu_warp.h), every active lane runs the
/// operation whatever the mask says; the mask only selects the result's
/// lanes.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_GPU_WARP_MATCH_H
#define HPP_RUNTIME_BACKEND_GPU_WARP_MATCH_H

#include <type_traits>

namespace hpp {
namespace detail {

/// \p Value's bits, a 4-byte value zero-extended.
template <class T> HPP_DEVICE inline unsigned long long matchBits(T Value) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8,
                "the matches compare 4- or 8-byte values");
  if constexpr (sizeof(T) == 4) {
    unsigned Word;
    __builtin_memcpy(&Word, &Value, 4);
    return Word;
  } else {
    unsigned long long Bits;
    __builtin_memcpy(&Bits, &Value, 8);
    return Bits;
  }
}

#if defined(HPP_BACKEND_HIP)

/// Lane \p Src's \p Bits (\p Src is the same in every lane).
HPP_DEVICE inline unsigned long long readBits(unsigned long long Bits,
                                              int Src) {
  const unsigned Low =
      unsigned(__builtin_amdgcn_readlane(int(unsigned(Bits)), Src));
  const unsigned High =
      unsigned(__builtin_amdgcn_readlane(int(unsigned(Bits >> 32)), Src));
  return (static_cast<unsigned long long>(High) << 32) | Low;
}

/// The active lanes of the wavefront whose \p Bits equal the caller's;
/// \p Halves: only those of the caller's 32-lane half.
HPP_DEVICE inline LaneMask matchGroup(unsigned long long Bits, bool Halves) {
  const bool Split = Halves && getWarpSize() == 64;
  LaneMask Left = ballot(1);
  LaneMask Mine = 0;
  while (Left) {
    const int Leader = __ffsll(static_cast<long long>(Left)) - 1;
    LaneMask Group = ballot(Bits == readBits(Bits, Leader)) & Left;
    if (Split)
      Group &= Leader < 32 ? LaneMask(0xffffffffu) : ~LaneMask(0xffffffffu);
    if (Group >> laneId() & 1)
      Mine = Group;
    Left &= ~Group;
  }
  return Mine;
}

#endif

/// The lanes of \p Mask (the whole warp's) whose \p Value has the caller's
/// bits.
template <class T> HPP_DEVICE inline LaneMask matchAny(LaneMask Mask, T Value) {
#if defined(HPP_BACKEND_HIP)
  return matchGroup(matchBits(Value), /*Halves=*/false) & Mask;
#else
  return __match_any_sync(Mask, Value);
#endif
}

/// \p Mask if every lane of it has the caller's bits (*\p Pred = 1), else
/// 0 (*\p Pred = 0).
template <class T>
HPP_DEVICE inline LaneMask matchAll(LaneMask Mask, T Value, int *Pred) {
#if defined(HPP_BACKEND_HIP)
  const bool All = matchAny(Mask, Value) == Mask;
  *Pred = All;
  return All ? Mask : LaneMask(0);
#else
  return __match_all_sync(Mask, Value, Pred);
#endif
}

/// hpp::warp32's matchAny: within the caller's 32-lane logical warp.
template <class T>
HPP_DEVICE inline unsigned matchAny32(unsigned Mask, T Value) {
#if defined(HPP_BACKEND_HIP)
  const LaneMask Group = matchGroup(matchBits(Value), /*Halves=*/true);
  return unsigned(getWarpSize() == 32 ? Group : Group >> (laneId() & 32)) &
         Mask;
#else
  return matchAny(Mask, Value);
#endif
}

/// hpp::warp32's matchAll.
template <class T>
HPP_DEVICE inline unsigned matchAll32(unsigned Mask, T Value, int *Pred) {
#if defined(HPP_BACKEND_HIP)
  const bool All = matchAny32(Mask, Value) == Mask;
  *Pred = All;
  return All ? Mask : 0u;
#else
  return matchAll(Mask, Value, Pred);
#endif
}

} // namespace detail

// One overload per value type (HPP_WARP_MATCH_TYPES, hpp/warp.h).
#define HPP_GPU_MATCH(T)                                                       \
  /** The lanes of \p Mask whose \p Value equals the caller's. */              \
  HPP_DEVICE inline LaneMask matchAnySync(LaneMask Mask, T Value) {            \
    return detail::matchAny(Mask, Value);                                      \
  }                                                                            \
  /** \p Mask if every lane of it has the caller's \p Value, else 0. */        \
  HPP_DEVICE inline LaneMask matchAllSync(LaneMask Mask, T Value, int *Pred) { \
    return detail::matchAll(Mask, Value, Pred);                                \
  }
HPP_WARP_MATCH_TYPES(HPP_GPU_MATCH)
#undef HPP_GPU_MATCH

namespace warp32 {

#define HPP_GPU_MATCH32(T)                                                     \
  /** The lanes of \p Mask whose \p Value equals the caller's. */              \
  HPP_DEVICE inline unsigned matchAnySync(unsigned Mask, T Value) {            \
    return detail::matchAny32(Mask, Value);                                    \
  }                                                                            \
  /** \p Mask if every lane of it has the caller's \p Value, else 0. */        \
  HPP_DEVICE inline unsigned matchAllSync(unsigned Mask, T Value, int *Pred) { \
    return detail::matchAll32(Mask, Value, Pred);                              \
  }
HPP_WARP_MATCH_TYPES(HPP_GPU_MATCH32)
#undef HPP_GPU_MATCH32

} // namespace warp32

} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_GPU_WARP_MATCH_H
