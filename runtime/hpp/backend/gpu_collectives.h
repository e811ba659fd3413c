//===- hpp/backend/gpu_collectives.h - Collectives on CUDA and HIP --------===//
//
// Part of hpp-rewrite. Device runtime, GPU backends.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The work-group and warp collectives on CUDA and HIP (hpp/collectives.h
/// gives their cost). Every fold is hpp/core/collective_order.h's; the warp
/// forms run its warpFold on the runtime's shuffles, the group forms run
/// its segment trees with hpp::warp32 shuffles (full work-groups) or in
/// registers (partial ones), and combine the segment totals through static
/// __shared__ slots.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_GPU_COLLECTIVES_H
#define HPP_RUNTIME_BACKEND_GPU_COLLECTIVES_H

#include "hpp/core/collective_order.h"

#include <cstddef>

namespace hpp {
namespace detail {
namespace gpucoll {

/// The calling work-item's local linear id.
HPP_DEVICE inline unsigned linearId() {
  return unsigned(threadIdx.x) +
         unsigned(blockDim.x) * (unsigned(threadIdx.y) +
                                 unsigned(blockDim.y) * unsigned(threadIdx.z));
}
/// Work-items in the work-group.
HPP_DEVICE inline unsigned groupSize() {
  return unsigned(blockDim.x) * unsigned(blockDim.y) * unsigned(blockDim.z);
}
/// Component \p D of the work-group's id and of its size.
HPP_DEVICE inline std::size_t groupId(int D) {
  return D == 0   ? std::size_t(blockIdx.x)
         : D == 1 ? std::size_t(blockIdx.y)
                  : std::size_t(blockIdx.z);
}
HPP_DEVICE inline std::size_t localSize(int D) {
  return D == 0   ? std::size_t(blockDim.x)
         : D == 1 ? std::size_t(blockDim.y)
                  : std::size_t(blockDim.z);
}
/// Whether work-item \p Id of the group exists and lies in the range.
HPP_DEVICE inline bool present(unsigned Id) {
  const unsigned X = unsigned(blockDim.x), Y = unsigned(blockDim.y);
  if (Id >= groupSize())
    return false;
  const unsigned Local[3] = {Id % X, Id / X % Y, Id / (X * Y)};
  for (int D = 0; D < 3; ++D)
    if (groupId(D) * localSize(D) + Local[D] >= LaunchGlobalSize[D])
      return false;
  return true;
}
/// Every work-item of the group lies in the range and the size is whole
/// segments (the same for the whole group).
HPP_DEVICE inline bool groupFull() {
  if (groupSize() % SegmentLanes != 0)
    return false;
  for (int D = 0; D < 3; ++D)
    if ((groupId(D) + 1) * localSize(D) > LaunchGlobalSize[D])
      return false;
  return true;
}

/// The existing lanes of the caller's warp of \p W lanes.
struct WarpShape {
  int Lane, Count;
  HPP_DEVICE explicit WarpShape(int W) {
    const unsigned Id = linearId();
    Lane = int(Id % unsigned(W));
    const unsigned Left = groupSize() - (Id - unsigned(Lane));
    Count = Left < unsigned(W) ? int(Left) : W;
  }
};

/// warpFold's lanes: the whole warp (wavefront).
struct WarpLanes : WarpShape {
  int W;
  LaneMask Mask;
  HPP_DEVICE WarpLanes() : WarpShape(getWarpSize()), W(getWarpSize()) {
    Mask = Count == W ? getWarpFullMask() : (LaneMask(1) << Count) - 1;
  }
  HPP_DEVICE int lane() const { return Lane; }
  HPP_DEVICE int count() const { return Count; }
  HPP_DEVICE int width() const { return W; }
  template <class T> HPP_DEVICE T down(T V, int Off) {
    return shflDownSync(Mask, V, unsigned(Off), W);
  }
  template <class T> HPP_DEVICE T up(T V, int D) {
    return shflUpSync(Mask, V, unsigned(D), W);
  }
  template <class T> HPP_DEVICE T idx(T V, int Src) {
    return shflSync(Mask, V, Src, W);
  }
  HPP_DEVICE int ballotCount(bool P, bool Below) {
    LaneMask Bits = ballotSync(Mask, P);
    if (Below)
      Bits &= (LaneMask(1) << Lane) - 1;
    return popcMask(Bits);
  }
};

/// warpFold's lanes: the caller's 32-lane logical warp (a segment).
struct Warp32Lanes : WarpShape {
  unsigned Mask;
  HPP_DEVICE Warp32Lanes() : WarpShape(32) {
    Mask = Count == 32 ? 0xffffffffu : (1u << Count) - 1;
  }
  HPP_DEVICE explicit Warp32Lanes(unsigned M) : WarpShape(32), Mask(M) {}
  HPP_DEVICE int lane() const { return Lane; }
  HPP_DEVICE int count() const { return Count; }
  HPP_DEVICE int width() const { return 32; }
  template <class T> HPP_DEVICE T down(T V, int Off) {
    return warp32::shflDownSync(Mask, V, unsigned(Off), 32);
  }
  template <class T> HPP_DEVICE T up(T V, int D) {
    return warp32::shflUpSync(Mask, V, unsigned(D), 32);
  }
  template <class T> HPP_DEVICE T idx(T V, int Src) {
    return warp32::shflSync(Mask, V, Src, 32);
  }
  HPP_DEVICE int ballotCount(bool P, bool Below) {
    unsigned Bits = warp32::ballotSync(Mask, P);
    if (Below)
      Bits &= (1u << Lane) - 1u;
    return popcMask(LaneMask(Bits));
  }
};

/// The shared slots of the group forms over T: a segment total (and
/// whether the segment has one) per segment, the broadcast value.
template <class T> struct Slots {
  T Val[SegmentLanes];
  int Flag[SegmentLanes];
  T Bcast;
};
template <class T> HPP_DEVICE inline Slots<T> &slots() {
  static_assert(sizeof(T) <= 8, "collectives move values of at most 8 bytes");
  __shared__ unsigned long long Raw[(sizeof(Slots<T>) + 7) / 8];
  return *reinterpret_cast<Slots<T> *>(Raw);
}

/// The group forms (hpp/core/collective_order.h).
template <class T, class Op>
HPP_DEVICE T groupFold(GroupFold Kind, T V, const T &Init, Op &O) {
  Slots<T> &S = slots<T>();
  const unsigned Id = linearId();
  const int Seg = int(Id / SegmentLanes), L = int(Id % SegmentLanes);
  const int Segs = int((groupSize() + SegmentLanes - 1) / SegmentLanes);
  const bool Scan = Kind != GroupFold::Reduce;
  T Result;
  if (groupFull()) {
    Warp32Lanes P(0xffffffffu);
    // The segment's tree (lanes 0-31 all present).
    if (!Scan) {
      for (int Off = SegmentLanes / 2; Off >= 1; Off /= 2) {
        T Other = P.down(V, Off);
        if (L + Off < SegmentLanes)
          V = O(V, Other);
      }
    } else {
      for (int D = 1; D < SegmentLanes; D *= 2) {
        T Other = P.up(V, D);
        if (L >= D)
          V = O(Other, V);
      }
    }
    if (L == (Scan ? SegmentLanes - 1 : 0))
      S.Val[Seg] = V;
    __syncthreads();
    // Every segment folds the totals (present below Segs).
    T Tot = S.Val[L < Segs ? L : 0];
    if (!Scan) {
      for (int Off = SegmentLanes / 2; Off >= 1; Off /= 2) {
        T Other = P.down(Tot, Off);
        if (L + Off < Segs)
          Tot = O(Tot, Other);
      }
      Result = P.idx(Tot, 0);
    } else {
      for (int D = 1; D < SegmentLanes; D *= 2) {
        T Other = P.up(Tot, D);
        if (L >= D)
          Tot = O(Other, Tot);
      }
      const T SegPrefix = P.idx(Tot, Seg > 0 ? Seg - 1 : 0);
      const T Below = Kind == GroupFold::Exclusive ? P.up(V, 1) : V;
      Result = scanResult(Maybe<T>{SegPrefix, Seg > 0}, Maybe<T>{V, true},
                          Maybe<T>{Below, L > 0}, Kind == GroupFold::Exclusive,
                          Init, O);
    }
    __syncthreads();
    return Result;
  }
  // A partial group: each segment gathers its present lanes.
  const unsigned Base = Id - unsigned(L);
  unsigned Mask = 0;
  for (int J = 0; J < SegmentLanes; ++J)
    if (present(Base + unsigned(J)))
      Mask |= 1u << J;
  Warp32Lanes P(Mask);
  Maybe<T> Lane[SegmentLanes];
  for (int J = 0; J < SegmentLanes; ++J)
    Lane[J] = Maybe<T>{P.idx(V, J), (Mask >> J & 1u) != 0};
  Maybe<T> Own;
  if (!Scan) {
    Own = segDownTree(Lane, O);
  } else {
    segKoggeStone(Lane, O);
    Own = Lane[SegmentLanes - 1];
  }
  if (L == ffsMask(LaneMask(Mask)) - 1) {
    S.Val[Seg] = Own.Value;
    S.Flag[Seg] = 1;
  }
  if (Id == 0)
    for (int Other = 0; Other < Segs; ++Other) {
      bool Any = false;
      for (int J = 0; J < SegmentLanes && !Any; ++J)
        Any = present(unsigned(Other * SegmentLanes + J));
      if (!Any)
        S.Flag[Other] = 0;
    }
  __syncthreads();
  Maybe<T> Tot[SegmentLanes];
  for (int J = 0; J < Segs; ++J)
    Tot[J] = Maybe<T>{S.Val[J], S.Flag[J] != 0};
  if (!Scan) {
    Result = segDownTree(Tot, O).Value;
  } else {
    segKoggeStone(Tot, O);
    Result = scanResult(Seg > 0 ? Tot[Seg - 1] : Maybe<T>{}, Lane[L],
                        L > 0 ? Lane[L - 1] : Maybe<T>{},
                        Kind == GroupFold::Exclusive, Init, O);
  }
  __syncthreads();
  return Result;
}

/// groupBroadcast (hpp/collectives.h: 2 barriers).
template <class T> HPP_DEVICE T groupBroadcast(T V, std::size_t Src) {
  Slots<T> &S = slots<T>();
  if (linearId() == Src)
    S.Bcast = V;
  __syncthreads();
  const T Result = S.Bcast;
  __syncthreads();
  return Result;
}

/// The warp forms over the lanes \p Lanes describes.
template <class Lanes, class T, class Op>
HPP_DEVICE T warpFold(T V, GroupFold Kind, const T &Init, Op &O) {
  Lanes P;
  return detail::warpFold(P, V, Kind, Init, O);
}
template <class Lanes, class T> HPP_DEVICE T warpBroadcast(T V, int Src) {
  Lanes P;
  return P.idx(V, Src);
}
template <class Lanes> HPP_DEVICE int warpBallot(bool Pred, bool Below) {
  Lanes P;
  return P.ballotCount(Pred, Below);
}

} // namespace gpucoll
} // namespace detail

// The public forms are __host__ __device__, as __device(hpp) functions
// become (hpp-device-function): only their device side runs them; the
// host side, never called, throws.
#if defined(HPP_DEVICE_PASS)
#define HPP_COLLECTIVE_BODY(Name, ...) return __VA_ARGS__;
#else
#define HPP_COLLECTIVE_BODY(Name, ...)                                         \
  throw ::hpp::RuntimeError(Name, __FILE__, __LINE__,                          \
                            "called in host code: collectives run in device "  \
                            "code only");
#endif

template <class T, class Op, detail::IfCombines<T, Op> = 0>
HPP_HD T groupReduce(T V, Op O) {
  HPP_COLLECTIVE_BODY("groupReduce", detail::gpucoll::groupFold(
                                         detail::GroupFold::Reduce, V, V, O))
}
template <class T, class Op, detail::IfCombines<T, Op> = 0>
HPP_HD T groupInclusiveScan(T V, Op O) {
  HPP_COLLECTIVE_BODY(
      "groupInclusiveScan",
      detail::gpucoll::groupFold(detail::GroupFold::Inclusive, V, V, O))
}
template <class T, class Op, detail::IfCombines<T, Op> = 0>
HPP_HD T groupExclusiveScan(T V, T Init, Op O) {
  HPP_COLLECTIVE_BODY(
      "groupExclusiveScan",
      detail::gpucoll::groupFold(detail::GroupFold::Exclusive, V, Init, O))
}
/// One work-item writes, __syncthreads, all read, __syncthreads.
template <class T>
HPP_HD T groupBroadcast(T V, std::size_t Src){
    HPP_COLLECTIVE_BODY("groupBroadcast",
                        detail::gpucoll::groupBroadcast(V, Src))}

// The warp forms, over the wavefront (hpp::) and over a 32-lane logical
// warp (hpp::warp32::).
#define HPP_GPU_WARP_COLLECTIVES(Lanes)                                        \
  template <class T, class Op, detail::IfCombines<T, Op> = 0>                  \
  HPP_HD T warpReduce(T V, Op O) {                                             \
    HPP_COLLECTIVE_BODY("warpReduce", detail::gpucoll::warpFold<Lanes>(        \
                                          V, detail::GroupFold::Reduce, V, O)) \
  }                                                                            \
  template <class T, class Op, detail::IfCombines<T, Op> = 0>                  \
  HPP_HD T warpInclusiveScan(T V, Op O) {                                      \
    HPP_COLLECTIVE_BODY("warpInclusiveScan",                                   \
                        detail::gpucoll::warpFold<Lanes>(                      \
                            V, detail::GroupFold::Inclusive, V, O))            \
  }                                                                            \
  template <class T, class Op, detail::IfCombines<T, Op> = 0>                  \
  HPP_HD T warpExclusiveScan(T V, T Init, Op O) {                              \
    HPP_COLLECTIVE_BODY("warpExclusiveScan",                                   \
                        detail::gpucoll::warpFold<Lanes>(                      \
                            V, detail::GroupFold::Exclusive, Init, O))         \
  }                                                                            \
  template <class T>                                                           \
  HPP_HD T warpBroadcast(T V, int Src){HPP_COLLECTIVE_BODY(                    \
      "warpBroadcast",                                                         \
      detail::gpucoll::warpBroadcast<Lanes>(V, Src))} HPP_HD inline int        \
  warpBallotRank(bool Pred){HPP_COLLECTIVE_BODY(                               \
      "warpBallotRank",                                                        \
      detail::gpucoll::warpBallot<Lanes>(Pred, true))} HPP_HD inline int       \
  warpBallotCount(bool Pred) {                                                 \
    HPP_COLLECTIVE_BODY("warpBallotCount",                                     \
                        detail::gpucoll::warpBallot<Lanes>(Pred, false))       \
  }
HPP_GPU_WARP_COLLECTIVES(detail::gpucoll::WarpLanes) namespace warp32 {
  HPP_GPU_WARP_COLLECTIVES(detail::gpucoll::Warp32Lanes)
} // namespace warp32
#undef HPP_GPU_WARP_COLLECTIVES
#undef HPP_COLLECTIVE_BODY

} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_GPU_COLLECTIVES_H
