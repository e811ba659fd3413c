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
///    anything of the program's). Newer HIP versions have them;
///  - where HIP's thread_block_tile has no ballot(), any() and all() (HIP
///    before ROCm 6.2; ROCm 6.x without HIP_ENABLE_WARP_SYNC_BUILTINS; any
///    version with HIP_DISABLE_WARP_SYNC_BUILTINS), those members, in the
///    same tile_base<N>: votes of the tile's threads only, ballot as
///    CUDA's `unsigned` of the tile's bits (bit i: rank i) for a tile of up
///    to 32, a 64-bit mask for a tile of 64 (wave64, as HIP's).
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

// HIP's thread_block_tile has ballot(), any() and all() (in
// thread_block_tile_base, on ROCm's warp sync builtins) from ROCm 6.2 with
// HIP_ENABLE_WARP_SYNC_BUILTINS defined, and from ROCm 7.0 unless
// HIP_DISABLE_WARP_SYNC_BUILTINS is; everywhere else they are supplied
// here. Where both exist, HIP's, in the derived thread_block_tile_base,
// hide these.
#if HIP_VERSION < 60200000 || defined(HIP_DISABLE_WARP_SYNC_BUILTINS) ||       \
    (HIP_VERSION < 70000000 && !defined(HIP_ENABLE_WARP_SYNC_BUILTINS))
#define HPP_HIP_TILE_VOTES 1
#endif

#if defined(HPP_HIP_TILE_VOTES)

namespace hpp {
namespace detail {

/// The result type of a tile's ballot: CUDA's `unsigned` up to 32 threads,
/// HIP's 64-bit mask for a tile of 64 (a wave64 wavefront).
template <unsigned N> struct HipTileBits { using type = unsigned; };
template <> struct HipTileBits<64> { using type = unsigned long long; };

/// Bit i: the thread of rank i of the caller's tile of \p N threads (the
/// wavefront's lanes from a multiple of N) is active and passes a non-zero
/// \p Predicate. The wavefront's __ballot, shifted to the tile's first lane
/// and cut to N bits (a tile of up to 32 threads reads the low half only,
/// all that a wave32 ballot has).
template <unsigned N>
__device__ inline unsigned long long hipTileBallot(int Predicate) {
  return (__ballot(Predicate) >> (__lane_id() & ~(N - 1))) &
         (~0ull >> (64 - N));
}

/// The caller's rank in its thread block.
__device__ inline unsigned int hipBlockRank() {
  return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}

} // namespace detail
} // namespace hpp

namespace cooperative_groups {

// The votes of CUDA's thread_block_tile: of the tile's threads only (its
// lanes of the wavefront), whatever the rest of the wavefront does.
#define HPP_HIP_TILE_VOTE_MEMBERS(N)                                           \
  __device__ static typename ::hpp::detail::HipTileBits<N>::type ballot(       \
      int Predicate) {                                                         \
    return static_cast<typename ::hpp::detail::HipTileBits<N>::type>(          \
        ::hpp::detail::hipTileBallot<N>(Predicate));                           \
  }                                                                            \
  __device__ static int any(int Predicate) {                                   \
    return ::hpp::detail::hipTileBallot<N>(Predicate) != 0;                    \
  }                                                                            \
  __device__ static int all(int Predicate) {                                   \
    return ::hpp::detail::hipTileBallot<N>(!Predicate) == 0;                   \
  }

// What every version's tile_base<N> has: numThreads, thread_rank and size
// (the tiles partition the thread block by rank), and the votes.
#define HPP_HIP_TILE_CORE(N)                                                   \
protected:                                                                     \
  static constexpr unsigned int numThreads = N;                                \
                                                                               \
public:                                                                        \
  __device__ static unsigned int thread_rank() {                               \
    return ::hpp::detail::hipBlockRank() & (N - 1);                            \
  }                                                                            \
  __device__ static unsigned int size() { return N; }                          \
  HPP_HIP_TILE_VOTE_MEMBERS(N)

#if HIP_VERSION < 50300000
// HIP 5.2's tile_base<N> with the members it lacks.
#define HPP_HIP_TILE_BASE(N)                                                   \
  template <> class tile_base<N> {                                             \
    HPP_HIP_TILE_CORE(N)                                                       \
    __device__ static unsigned int num_threads() { return N; }                 \
    __device__ static unsigned int meta_group_rank() {                         \
      return ::hpp::detail::hipBlockRank() / N;                                \
    }                                                                          \
    __device__ static unsigned int meta_group_size() {                         \
      return (blockDim.x * blockDim.y * blockDim.z + N - 1) / N;               \
    }                                                                          \
  };
#else
// HIP's own tile_base<N> of ROCm 5.3 to 6.x (meta_group_rank & co. are
// parent_group_info's there, so not here) with the votes.
#define HPP_HIP_TILE_BASE(N)                                                   \
  template <> class tile_base<N> { HPP_HIP_TILE_CORE(N) };
#endif

HPP_HIP_TILE_BASE(1)
HPP_HIP_TILE_BASE(2)
HPP_HIP_TILE_BASE(4)
HPP_HIP_TILE_BASE(8)
HPP_HIP_TILE_BASE(16)
HPP_HIP_TILE_BASE(32)
HPP_HIP_TILE_BASE(64)
#undef HPP_HIP_TILE_BASE
#undef HPP_HIP_TILE_CORE
#undef HPP_HIP_TILE_VOTE_MEMBERS

} // namespace cooperative_groups

#endif // HPP_HIP_TILE_VOTES

#endif // HPP_RUNTIME_BACKEND_HIP_CUDA_CG_H
