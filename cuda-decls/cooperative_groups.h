//===- cuda-decls/cooperative_groups.h - Cooperative groups -----*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp-rewrite's parse-only declaration of CUDA's <cooperative_groups.h>:
/// the group types (thread_group, thread_block, thread_block_tile<N>,
/// coalesced_group, grid_group, cluster_group), the functions that make
/// them (this_thread_block, tiled_partition, coalesced_threads, this_grid,
/// ...) and the free functions over any group (sync, thread_rank,
/// group_size). Public members only, with CUDA's names, return types and
/// static-ness; no definitions except where constant expressions need
/// them. All `__device__`. Not for compiling.
///
/// As in CUDA the API lives in a versioned namespace that
/// `cooperative_groups` imports, so `namespace cg = cooperative_groups;`
/// and `cg::thread_block` work; reductions are in
/// <cooperative_groups/reduce.h>, scans in <cooperative_groups/scan.h>.
///
//===----------------------------------------------------------------------===//

#ifndef __HPP_CUDA_COOPERATIVE_GROUPS_H
#define __HPP_CUDA_COOPERATIVE_GROUPS_H

/// CUDA's include guard, which code tests to see what is included.
#define _COOPERATIVE_GROUPS_H_

#include "cuda_runtime.h"

namespace cooperative_groups {
namespace __v1 {

/// Any group of threads, as known at run time: what every group converts
/// to.
class thread_group {
protected:
  __device__ thread_group();

public:
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long thread_rank() const;
  __device__ void sync() const;
  __device__ unsigned int get_type() const;
};

/// The threads of the launch; valid (and sync() allowed) only in a kernel
/// launched with cudaLaunchCooperativeKernel.
class grid_group : public thread_group {
public:
  __device__ bool is_valid() const;
  __device__ void sync() const;
  static __device__ unsigned long long size();
  static __device__ unsigned long long num_threads();
  static __device__ unsigned long long thread_rank();
  static __device__ dim3 group_dim();
  static __device__ dim3 dim_threads();
  static __device__ dim3 thread_index();
  static __device__ dim3 dim_blocks();
  static __device__ unsigned long long num_blocks();
  static __device__ dim3 block_index();
  static __device__ unsigned long long block_rank();
  static __device__ dim3 dim_clusters();
  static __device__ unsigned long long num_clusters();
  static __device__ dim3 cluster_index();
  static __device__ unsigned long long cluster_rank();
};
__device__ grid_group this_grid();

/// The blocks of a thread-block cluster (sm_90).
class cluster_group : public thread_group {
public:
  static __device__ bool is_valid();
  static __device__ void sync();
  static __device__ unsigned int block_rank();
  static __device__ dim3 block_index();
  static __device__ unsigned int num_blocks();
  static __device__ dim3 dim_blocks();
  static __device__ unsigned int thread_rank();
  static __device__ dim3 thread_index();
  static __device__ unsigned int num_threads();
  static __device__ dim3 dim_threads();
  static __device__ unsigned int size();
  template <class T> static __device__ T *map_shared_rank(T *addr, int rank);
  template <class T> static __device__ unsigned int query_shared_rank(T *addr);
};
__device__ cluster_group this_cluster();

/// The threads of the calling block.
class thread_block : public thread_group {
public:
  static __device__ void sync();
  static __device__ unsigned int size();
  static __device__ unsigned int num_threads();
  static __device__ unsigned int thread_rank();
  static __device__ dim3 group_index();
  static __device__ dim3 thread_index();
  static __device__ dim3 group_dim();
  static __device__ dim3 dim_threads();
};
__device__ thread_block this_thread_block();

/// The active threads of the calling warp (or a partition of them).
class coalesced_group : public thread_group {
public:
  __device__ unsigned int size() const;
  __device__ unsigned int num_threads() const;
  __device__ unsigned int thread_rank() const;
  __device__ unsigned int meta_group_rank() const;
  __device__ unsigned int meta_group_size() const;
  __device__ void sync() const;
  template <class T> __device__ T shfl(T var, unsigned int srcRank) const;
  template <class T> __device__ T shfl_up(T var, int delta) const;
  template <class T> __device__ T shfl_down(T var, int delta) const;
  __device__ int any(int predicate) const;
  __device__ int all(int predicate) const;
  __device__ unsigned int ballot(int predicate) const;
  template <class T> __device__ unsigned int match_any(T val) const;
  template <class T> __device__ unsigned int match_all(T val, int &pred) const;
};
__device__ coalesced_group coalesced_threads();

namespace __hpp_details {
/// What every thread_block_tile<Size, ...> has: a size known at compile
/// time (1 to 32 for a tile of one warp, 64 to 512 for one of several),
/// its rank among the tiles of its parent, and the warp collectives.
template <unsigned int Size> class tile_base : public thread_group {
  static_assert(Size > 0 && Size <= 512 && (Size & (Size - 1)) == 0,
                "Size must be one of 1/2/4/8/16/32/64/128/256/512");

public:
  static constexpr unsigned int numThreads = Size;
  static __device__ void sync();
  static __device__ unsigned int thread_rank();
  static constexpr __device__ unsigned int size() { return Size; }
  static constexpr __device__ unsigned int num_threads() { return Size; }
  __device__ unsigned int meta_group_rank() const;
  __device__ unsigned int meta_group_size() const;
  template <class T> __device__ T shfl(T var, int srcRank) const;
  template <class T> __device__ T shfl_up(T var, unsigned int delta) const;
  template <class T> __device__ T shfl_down(T var, unsigned int delta) const;
  template <class T> __device__ T shfl_xor(T var, unsigned int laneMask) const;
  __device__ int any(int predicate) const;
  __device__ int all(int predicate) const;
  __device__ unsigned int ballot(int predicate) const;
  template <class T> __device__ unsigned int match_any(T val) const;
  template <class T> __device__ unsigned int match_all(T val, int &pred) const;
};
} // namespace __hpp_details

/// \name A tile of Size threads partitioned from a parent group
/// thread_block_tile<Size> (parent erased) is what a tile of a known parent
/// converts to, as in CUDA.
/// @{
template <unsigned int Size, class ParentT = void> class thread_block_tile;

template <unsigned int Size>
class thread_block_tile<Size, void> : public __hpp_details::tile_base<Size> {
public:
  template <class ParentT>
  __device__ thread_block_tile(const thread_block_tile<Size, ParentT> &g);
};

template <unsigned int Size, class ParentT>
class thread_block_tile : public __hpp_details::tile_base<Size> {
public:
  __device__ thread_block_tile(const ParentT &g);
  __device__ operator thread_block_tile<Size, void>() const;
};

template <unsigned int Size, class ParentT>
__device__ thread_block_tile<Size, ParentT> tiled_partition(const ParentT &g);
__device__ thread_group tiled_partition(const thread_group &parent,
                                        unsigned int tilesz);
__device__ thread_group tiled_partition(const thread_block &parent,
                                        unsigned int tilesz);
__device__ coalesced_group tiled_partition(const coalesced_group &parent,
                                           unsigned int tilesz);
__device__ thread_block_tile<1, void> this_thread();
/// @}

/// \name Partitions of a coalesced group by a label or a predicate
/// @{
__device__ coalesced_group labeled_partition(const coalesced_group &parent,
                                             int label);
template <unsigned int Size>
__device__ coalesced_group
labeled_partition(const thread_block_tile<Size> &parent, int label);
__device__ coalesced_group binary_partition(const coalesced_group &parent,
                                            bool pred);
template <unsigned int Size>
__device__ coalesced_group
binary_partition(const thread_block_tile<Size> &parent, bool pred);
/// @}

/// \name Functions of any group
/// @{
template <class GroupT> __device__ void sync(GroupT const &g);
template <class GroupT>
__device__ auto thread_rank(GroupT const &g) -> decltype(g.thread_rank());
template <class GroupT>
__device__ auto group_size(GroupT const &g) -> decltype(g.num_threads());
/// @}

} // namespace __v1
using namespace __v1;
} // namespace cooperative_groups

#endif // __HPP_CUDA_COOPERATIVE_GROUPS_H
