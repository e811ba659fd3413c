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
///      int popcMask(LaneMask), ffsMask(LaneMask), clzMask(LaneMask)
///    (__popc/__ffs/__clz over the full LaneMask width: the 64-bit forms on
///    HIP and the CPU backend). __syncwarp is lowered to
///    cg::tiled_partition<MVECTOR_MIN>(cg::this_thread_block()).sync().
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

/// Mask with a bit set for every lane of the executing warp (on the host
/// side of a __host__ __device__ function: of the current device).
HPP_HD inline LaneMask getWarpFullMask() {
#if defined(HPP_BACKEND_HIP) || defined(HPP_BACKEND_CPU)
  return getWarpSize() == 64 ? ~LaneMask(0) : LaneMask(0xffffffffu);
#else
  return LaneMask(0xffffffffu);
#endif
}

} // namespace hpp

#if defined(HPP_BACKEND_CPU)
#include "hpp/backend/cpu_warp.h"
#else
#include "hpp/backend/gpu_warp.h"
#endif

#endif // HPP_RUNTIME_WARP_H
