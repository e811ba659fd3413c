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
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_KERNEL_INDEX_H
#define HPP_RUNTIME_KERNEL_INDEX_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/runtime.h>, which selects the backend first"
#endif

#include "hpp/core/config.h"
#include "hpp/core/index.h"
#include "hpp/core/range.h"

#include <cstddef>

namespace hpp {
namespace detail {

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
  }
  return Index<Dims, LocalDims>(F);
}

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_KERNEL_INDEX_H
