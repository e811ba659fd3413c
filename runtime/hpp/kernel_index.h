//===- hpp/kernel_index.h - The work-item's Index inside a kernel ---------===//
//
// Part of hpp-rewrite. Device runtime, shared by every backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// detail::kernelIndex(range): the Index<N,L> of the calling work-item, from
/// threadIdx/blockIdx/blockDim/gridDim and the launch's global size. The
/// first statement of every outlined kernel.
///
/// The free OpenCL work-item functions of the paper (spec 1.2), for the
/// calling work-item, in device code, as the Index members of the same
/// names (dimension 0 = X; beyond the range's dimensions: id 0, size 1):
///   get_global_id(d)  get_local_id(d)  get_group_id(d)
///   get_global_size(d)  get_local_size(d)  get_num_groups(d)
/// All but get_global_size read the built-in variables. The global size is
/// the range's, which the grid only rounds up to whole work-groups, so
/// kernelIndex leaves it where they can read it: LaunchGlobalSize, a
/// __shared__ array on the GPU that every work-item of the group writes
/// with the same values before reading it (24 bytes of shared memory; a
/// kernel that never reads it loses the stores and the array, as the
/// compilers drop a global that is never loaded), a thread-local one on the
/// CPU backend (backend/cpu_executor.h). They are valid in the body of a
/// kernel the rewriter outlined (after its kernelIndex), and in the
/// functions it calls.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_KERNEL_INDEX_H
#define HPP_RUNTIME_KERNEL_INDEX_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/runtime.h>, which selects the backend first"
#endif

#include "hpp/core/config.h"
#include "hpp/core/error.h"
#include "hpp/core/index.h"
#include "hpp/core/range.h"

#include <cstddef>

namespace hpp {
namespace detail {

#if !defined(HPP_BACKEND_CPU)
/// The global size of the running launch along X, Y, Z (1 beyond the
/// range's dimensions), for get_global_size: written by kernelIndex.
static __shared__ std::size_t LaunchGlobalSize[3];
#endif

/// The calling work-item's Index within the launch of range \p R (device
/// code). Global ids are computed in size_t, so ranges beyond 2^32 work.
template <int Dims, int LocalDims>
HPP_DEVICE inline Index<Dims, LocalDims>
kernelIndex(const Range<Dims, LocalDims> &R) {
  const std::size_t Local[3] = {static_cast<std::size_t>(threadIdx.x),
                                static_cast<std::size_t>(threadIdx.y),
                                static_cast<std::size_t>(threadIdx.z)};
  const std::size_t Group[3] = {static_cast<std::size_t>(blockIdx.x),
                                static_cast<std::size_t>(blockIdx.y),
                                static_cast<std::size_t>(blockIdx.z)};
  const std::size_t LocalSize[3] = {static_cast<std::size_t>(blockDim.x),
                                    static_cast<std::size_t>(blockDim.y),
                                    static_cast<std::size_t>(blockDim.z)};
  const std::size_t GroupCount[3] = {static_cast<std::size_t>(gridDim.x),
                                     static_cast<std::size_t>(gridDim.y),
                                     static_cast<std::size_t>(gridDim.z)};
  typename Index<Dims, LocalDims>::Fields F;
  for (int D = 0; D < 3; ++D) {
    if (D < Dims) {
      F.Global[D] = Group[D] * LocalSize[D] + Local[D];
      F.Local[D] = Local[D];
      F.Group[D] = Group[D];
      F.LocalSize[D] = LocalSize[D];
      F.GlobalSize[D] = R.get(D);
      F.GroupCount[D] = GroupCount[D];
    } else {
      // launchKernel gives the dimensions beyond Dims extent 1; saying so
      // as constants lets the compiler drop their part of inGlobalRange().
      F.Global[D] = F.Local[D] = F.Group[D] = 0;
      F.LocalSize[D] = F.GlobalSize[D] = F.GroupCount[D] = 1;
    }
    LaunchGlobalSize[D] = F.GlobalSize[D];
  }
  return Index<Dims, LocalDims>(F);
}

/// \p X, \p Y or \p Z for dimension \p D, \p Default beyond.
HPP_HD inline std::size_t pickDimension(unsigned D, std::size_t X,
                                        std::size_t Y, std::size_t Z,
                                        std::size_t Default) {
  return D == 0 ? X : D == 1 ? Y : D == 2 ? Z : Default;
}

} // namespace detail
} // namespace hpp

#if defined(HPP_DEVICE_PASS) || defined(HPP_BACKEND_CPU)
/// Component \p D of the built-in variable \p V, \p Default beyond Z
/// (each component of HIP's built-ins has its own type: cast each).
#define HPP_BUILTIN_DIMENSION(V, D, Default)                                   \
  ::hpp::detail::pickDimension(D, static_cast<std::size_t>(V.x),               \
                               static_cast<std::size_t>(V.y),                  \
                               static_cast<std::size_t>(V.z), Default)
/// Where device code may call them (the CPU backend checks that a
/// work-item runs).
#define HPP_WORK_ITEM_BEGIN(Name) HPP_CPU_REQUIRE_WORK_ITEM(Name)
#else
// The host side of a __host__ __device__ function (__device(hpp) functions
// become __host__ __device__): there is no work-item.
#define HPP_WORK_ITEM_BEGIN(Name)                                              \
  throw ::hpp::RuntimeError(Name, __FILE__, __LINE__,                          \
                            "called in host code: it names the calling "       \
                            "work-item of a kernel");
#define HPP_BUILTIN_DIMENSION(V, D, Default) std::size_t(Default)
#endif
#if !defined(HPP_BACKEND_CPU)
#define HPP_CPU_REQUIRE_WORK_ITEM(Name)
#endif
// On the CPU backend the functions take their caller's file and line, for
// the error of a call outside a kernel.
#if defined(HPP_BACKEND_CPU)
#define HPP_WORK_ITEM_PARAMETERS unsigned D, HPP_CALLER_LOCATION
#else
#define HPP_WORK_ITEM_PARAMETERS unsigned D
#endif

namespace hpp {

/// The calling work-item's global id along dimension \p D.
HPP_HD inline std::size_t get_global_id(HPP_WORK_ITEM_PARAMETERS) {
  HPP_WORK_ITEM_BEGIN("get_global_id")
  return HPP_BUILTIN_DIMENSION(blockIdx, D, 0) *
             HPP_BUILTIN_DIMENSION(blockDim, D, 1) +
         HPP_BUILTIN_DIMENSION(threadIdx, D, 0);
}
/// The calling work-item's id within its work-group along \p D.
HPP_HD inline std::size_t get_local_id(HPP_WORK_ITEM_PARAMETERS) {
  HPP_WORK_ITEM_BEGIN("get_local_id")
  return HPP_BUILTIN_DIMENSION(threadIdx, D, 0);
}
/// The calling work-item's work-group id along \p D.
HPP_HD inline std::size_t get_group_id(HPP_WORK_ITEM_PARAMETERS) {
  HPP_WORK_ITEM_BEGIN("get_group_id")
  return HPP_BUILTIN_DIMENSION(blockIdx, D, 0);
}
/// The range's global size along \p D (not rounded up to whole
/// work-groups, unlike gridDim * blockDim).
HPP_HD inline std::size_t get_global_size(HPP_WORK_ITEM_PARAMETERS) {
  HPP_WORK_ITEM_BEGIN("get_global_size")
#if defined(HPP_DEVICE_PASS) || defined(HPP_BACKEND_CPU)
  return D < 3 ? detail::LaunchGlobalSize[D] : 1;
#else
  return 1;
#endif
}
/// The work-group size along \p D.
HPP_HD inline std::size_t get_local_size(HPP_WORK_ITEM_PARAMETERS) {
  HPP_WORK_ITEM_BEGIN("get_local_size")
  return HPP_BUILTIN_DIMENSION(blockDim, D, 1);
}
/// The number of work-groups along \p D.
HPP_HD inline std::size_t get_num_groups(HPP_WORK_ITEM_PARAMETERS) {
  HPP_WORK_ITEM_BEGIN("get_num_groups")
  return HPP_BUILTIN_DIMENSION(gridDim, D, 1);
}

} // namespace hpp

#undef HPP_BUILTIN_DIMENSION
#undef HPP_WORK_ITEM_BEGIN
#undef HPP_WORK_ITEM_PARAMETERS

#endif // HPP_RUNTIME_KERNEL_INDEX_H
