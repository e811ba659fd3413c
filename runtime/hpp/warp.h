//===- hpp/warp.h - Mvector (warp) width, lane masks ----------------------===//
//
// Part of hpp-rewrite. Device runtime, shared by every backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The width of the machine vector (warp, wavefront) a kernel runs on, per
/// spec 1.5 and 3.2 (TNL's conventions):
///  - MVECTOR_MAX / MVECTOR_MIN and getMaxWarpSize() / getMinWarpSize():
///    compile-time bounds (64/32 on HIP and the CPU backend, 32/32 on CUDA);
///  - getWarpSize(): the executing device's width, exact per target in
///    device code and never a constant expression (it is not one on ROCm 7);
///    on the host side of a __host__ __device__ function, the current
///    device's width;
///  - getWarpSize(DeviceId): the width a device reports, host code;
///  - LaneMask / getWarpFullMask(): masks wide enough for a wavefront;
///  - getDevice(): the current device (host code), for getWarpSize(DeviceId);
///  - the warp operations the rewriter maps the CUDA intrinsics to (one
///    backend header each: backend/gpu_warp.h for CUDA and HIP,
///    backend/cpu_warp.h for the CPU backend), all device code, masks of
///    type LaneMask, an optional shuffle Width (a power of two up to the
///    warp width; omitted = the whole warp):
///      T shflSync(LaneMask, T, int SrcLane[, int Width])
///      T shflUpSync(LaneMask, T, unsigned Delta[, int Width])
///      T shflDownSync(LaneMask, T, unsigned Delta[, int Width])
///      T shflXorSync(LaneMask, T, int LaneMask[, int Width])
///      LaneMask ballotSync(LaneMask, int Predicate)
///      int anySync(LaneMask, int Predicate), allSync(LaneMask, int)
///      LaneMask activeMask()
///      LaneMask matchAnySync(LaneMask, T Value)
///      LaneMask matchAllSync(LaneMask, T Value, int *Pred)
///      int popcMask(LaneMask), ffsMask(LaneMask), clzMask(LaneMask)
///    (__popc/__ffs/__clz over the full LaneMask width: the 64-bit forms on
///    HIP and the CPU backend). __syncwarp is lowered to
///    cg::tiled_partition<MVECTOR_MIN>(cg::this_thread_block()).sync().
///  - hpp::warp32, the operations of kernels written for a 32-lane warp
///    (32-bit masks, `& 31`, xor trees from 16, ...), which the rewriter
///    keeps at 32 lanes on every target: a 32-lane logical warp is the warp
///    on CUDA, the wavefront on wave32 and each half (lanes 0-31, 32-63) of
///    a 64-lane wavefront or CPU mvector. Device code, every backend:
///      constexpr int size = 32
///      T shflSync(unsigned Mask, T, int SrcLane, int Width = 32)
///      T shflUpSync(unsigned Mask, T, unsigned Delta, int Width = 32)
///      T shflDownSync(unsigned Mask, T, unsigned Delta, int Width = 32)
///      T shflXorSync(unsigned Mask, T, int LaneMask, int Width = 32)
///      unsigned ballotSync(unsigned Mask, int Predicate)
///      int anySync(unsigned Mask, int Predicate), allSync(unsigned, int)
///      unsigned activeMask()
///      unsigned matchAnySync(unsigned Mask, T Value)
///      unsigned matchAllSync(unsigned Mask, T Value, int *Pred)
///    with CUDA's semantics for a 32-lane warp (PTX shfl.sync, vote.sync,
///    match.sync),
///    those of the CPU reference runtime's intrinsics called with a 32-bit
///    mask: bit i of a mask or ballot is lane i of the caller's logical
///    warp; Width (a power of two up to 32) splits it into segments; the
///    lane argument counts modulo 32 (PTX reads its bits 4:0); shflSync
///    reads lane (SrcLane mod Width) of the own segment; up / down keep the
///    own value where the source leaves the segment (Delta 32 is 0: the own
///    value); xor may read a lower segment and keeps the own value where
///    the source lies above the own segment. A source never lies in the
///    other half. A Width above 32 is an error on the CPU backend (at the
///    caller's file:line) and means 32 on GPUs.
///    __popc, __ffs and __clz on `unsigned`, which such kernels keep as
///    written, exist on every backend.
///  - The matches (CUDA's __match_any_sync / __match_all_sync, sm_70): the
///    lanes of the mask whose Value has the caller's bits; or the mask
///    itself if every lane of it has them (and *Pred = 1), else 0 (and
///    *Pred = 0). T is one of CUDA's value types, HPP_WARP_MATCH_TYPES
///    (one overload each, so a call resolves as CUDA's does). CUDA's
///    intrinsics on CUDA; ballots over the distinct values on HIP, which has
///    no match instruction (backend/gpu_warp_match.h); collectives on the
///    CPU backend.
///  - On the CPU backend every operation with a mask is a collective of
///    exactly the mask's lanes, as CUDA's _sync rule says (part of a warp
///    may call it from divergent code), and activeMask() is the lanes
///    converged at the call (backend/cpu_warp.h says what that is there).
/// Nothing here depends on __AMDGCN_WAVEFRONT_SIZE__ (gone in ROCm 7.2) or on
/// warpSize being a constant expression (not since ROCm 7.0).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_WARP_H
#define HPP_RUNTIME_WARP_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/runtime.h>, which selects the backend first"
#endif

#include "hpp/core/config.h"

#include <type_traits>

/// Largest mvector width any target of this build can have.
#if defined(HPP_BACKEND_CUDA)
#define MVECTOR_MAX 32
#else
#define MVECTOR_MAX 64
#endif
/// Smallest mvector width any target can have.
#define MVECTOR_MIN 32

/// `cg::tiled_partition<W>(cg::this_thread_block()).sync()` & co. The CUDA
/// and HIP backends include the real header; the CPU backend has a stub.
namespace cg = cooperative_groups;

namespace hpp {

/// A bit per lane of a warp: 32 bits on CUDA, 64 on HIP (wave64) and on the
/// CPU backend.
#if defined(HPP_BACKEND_CUDA)
using LaneMask = unsigned;
#else
using LaneMask = unsigned long long;
#endif

/// Compile-time upper bound of the mvector width (per-lane storage).
HPP_HD constexpr int getMaxWarpSize() { return MVECTOR_MAX; }
/// Compile-time lower bound of the mvector width (per-warp counts).
HPP_HD constexpr int getMinWarpSize() { return MVECTOR_MIN; }

/// The current device (host code).
inline int getDevice() { return detail::currentDeviceTarget().Id; }

/// The mvector width device \p DeviceId reports (host code; a run-time value
/// on HIP, where the host has no compile-time wavefront size).
inline int getWarpSize(int DeviceId) { return detail::queryWarpSize(DeviceId); }

/// The mvector width of the executing device. Host and device, because
/// __device(hpp) functions become __host__ __device__: on the host side it
/// is the current device's width.
HPP_HD inline int getWarpSize() {
#if defined(HPP_DEVICE_PASS) && defined(HPP_BACKEND_HIP)
#if __has_builtin(__builtin_amdgcn_wavefrontsize)
  return __builtin_amdgcn_wavefrontsize();
#else
  // Compilers before the builtin (HIP 5.x) define warpSize per target.
  return warpSize;
#endif
#elif defined(HPP_BACKEND_CPU)
  // The simulated width (HPP_CPU_MVECTOR).
  return detail::queryWarpSize(0);
#elif defined(HPP_DEVICE_PASS) || defined(HPP_BACKEND_CUDA)
  return 32;
#else
  int Device = 0;
  HPP_CHECK(hipGetDevice(&Device));
  return getWarpSize(Device);
#endif
}

/// Host code that needs the width as a constant (an array bound, a
/// `constexpr` variable, `if constexpr`, `static_assert`, a template
/// argument): \p Body, a generic callable, is called with
/// `std::integral_constant<int, W>` for the current device's width W.
/// getMaxWarpSize() guards what is compiled: a CUDA build instantiates
/// only W = 32 (TNL's guard-plus-dispatch). The rewriter wraps such
/// statements in `hpp::withWarpSize([&](auto hppWarp) { ... })` and reads
/// the width there as `decltype(hppWarp)::value`.
template <class F> decltype(auto) withWarpSize(F &&Body) {
  if constexpr (getMaxWarpSize() == 32) {
    return Body(std::integral_constant<int, 32>());
  } else {
    if (getWarpSize(getDevice()) == 32)
      return Body(std::integral_constant<int, 32>());
    return Body(std::integral_constant<int, 64>());
  }
}

/// Mask with a bit set for every lane of the executing warp (on the host
/// side of a __host__ __device__ function: of the current device).
HPP_HD inline LaneMask getWarpFullMask() {
#if defined(HPP_BACKEND_HIP) || defined(HPP_BACKEND_CPU)
  return getWarpSize() == 64 ? ~LaneMask(0) : LaneMask(0xffffffffu);
#else
  return LaneMask(0xffffffffu);
#endif
}

namespace warp32 {
/// The width of the logical warp of a kernel written for 32 lanes.
constexpr int size = 32;
} // namespace warp32

} // namespace hpp

/// The value types of matchAnySync and matchAllSync: CUDA's overloads of
/// __match_any_sync and __match_all_sync. X(T) for each.
#define HPP_WARP_MATCH_TYPES(X)                                                \
  X(int)                                                                       \
  X(unsigned)                                                                  \
  X(long)                                                                      \
  X(unsigned long)                                                             \
  X(long long)                                                                 \
  X(unsigned long long)                                                        \
  X(float)                                                                     \
  X(double)

#if defined(HPP_BACKEND_CPU)
#include "hpp/backend/cpu_warp.h"
#else
#include "hpp/backend/gpu_warp.h"
#endif

#endif // HPP_RUNTIME_WARP_H
