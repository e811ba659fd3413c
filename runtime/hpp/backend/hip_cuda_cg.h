//===- hpp/backend/hip_cuda_cg.h - cg gaps, HIP -----------------*- C++ -*-===//
//
// Part of hpp-rewrite. Device runtime, HIP backend (hipcc, HIP 5.2 to ROCm
// 7.x) (hpp/cuda_api.h).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// HIP's cooperative groups (<hip/hip_cooperative_groups.h>, namespace
/// cooperative_groups) with what CUDA code uses and some HIP versions lack:
///  - cg::reduce and its operators (CUDA's <cooperative_groups/reduce.h>):
///    HIP's own where the HIP has them
///    (<hip/amd_detail/amd_hip_cooperative_groups_reduce.h>, recent ROCm 7
///    releases), else hpp/cg_reduce.h's, on the tile's shfl_xor;
///  - on HIP 5.2 and older, whose thread_block_tile has neither, the tile
///    members num_threads(), meta_group_rank() and meta_group_size() (of a
///    tile of the thread block): HIP's tile_base<N>, the base of every tile
///    of N threads, is specialized for N = 1, 2, ..., 64 with them, before
///    any tile is instantiated (hpp/cuda_api.h includes this header before
///    anything of the program's). Newer HIP versions have them.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_HIP_CUDA_CG_H
#define HPP_RUNTIME_BACKEND_HIP_CUDA_CG_H

#include <hip/hip_cooperative_groups.h>

#if __has_include(<hip/amd_detail/amd_hip_cooperative_groups_reduce.h>)
#include <hip/amd_detail/amd_hip_cooperative_groups_reduce.h>
#else
#include "hpp/cg_reduce.h"
#endif

#if HIP_VERSION < 50300000

namespace cooperative_groups {

// HIP 5.2's tile_base<N> (thread_rank, size, numThreads) and the members
// it lacks; the tiles partition the thread block by rank.
#define HPP_HIP_TILE_BASE(N)                                                   \
  template <> class tile_base<N> {                                             \
  protected:                                                                   \
    static constexpr unsigned int numThreads = N;                              \
                                                                               \
  public:                                                                      \
    __device__ static unsigned int thread_rank() {                             \
      return blockRank() & (N - 1);                                            \
    }                                                                          \
    __device__ static unsigned int size() { return N; }                        \
    __device__ static unsigned int num_threads() { return N; }                 \
    __device__ static unsigned int meta_group_rank() {                         \
      return blockRank() / N;                                                  \
    }                                                                          \
    __device__ static unsigned int meta_group_size() {                         \
      return (blockDim.x * blockDim.y * blockDim.z + N - 1) / N;               \
    }                                                                          \
                                                                               \
  private:                                                                     \
    __device__ static unsigned int blockRank() {                               \
      return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x +           \
             threadIdx.x;                                                      \
    }                                                                          \
  };
HPP_HIP_TILE_BASE(1)
HPP_HIP_TILE_BASE(2)
HPP_HIP_TILE_BASE(4)
HPP_HIP_TILE_BASE(8)
HPP_HIP_TILE_BASE(16)
HPP_HIP_TILE_BASE(32)
HPP_HIP_TILE_BASE(64)
#undef HPP_HIP_TILE_BASE

} // namespace cooperative_groups

#endif // HIP_VERSION < 50300000

#endif // HPP_RUNTIME_BACKEND_HIP_CUDA_CG_H
