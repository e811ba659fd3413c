//===- cuda-decls/cooperative_groups/reduce.h - Reductions ------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp-rewrite's parse-only declaration of CUDA's
/// <cooperative_groups/reduce.h>: cg::reduce over a tile or coalesced
/// group, and the function objects CUDA provides for it and for the scans
/// (plus, less, greater, bit_and, bit_or, bit_xor). Not for compiling.
///
//===----------------------------------------------------------------------===//

#ifndef __HPP_CUDA_COOPERATIVE_GROUPS_REDUCE_H
#define __HPP_CUDA_COOPERATIVE_GROUPS_REDUCE_H

#include "../cooperative_groups.h"

namespace cooperative_groups {
namespace __v1 {

/// \name Operations for reduce and the scans
/// less gives the smaller operand and greater the larger, as in CUDA.
/// @{
template <class Ty> struct plus {
  __device__ Ty operator()(Ty arg1, Ty arg2) const;
};
template <class Ty> struct less {
  __device__ Ty operator()(Ty arg1, Ty arg2) const;
};
template <class Ty> struct greater {
  __device__ Ty operator()(Ty arg1, Ty arg2) const;
};
template <class Ty> struct bit_and {
  __device__ Ty operator()(Ty arg1, Ty arg2) const;
};
template <class Ty> struct bit_or {
  __device__ Ty operator()(Ty arg1, Ty arg2) const;
};
template <class Ty> struct bit_xor {
  __device__ Ty operator()(Ty arg1, Ty arg2) const;
};
/// @}

/// `op` applied over the values of every thread of `group` (a
/// thread_block_tile or a coalesced_group); every thread gets the result.
/// `op` is one of the operations above or any callable of two values.
template <class TyGroup, class TyVal, class TyFn>
__device__ auto reduce(const TyGroup &group, TyVal &&val, TyFn &&op)
    -> decltype(op(val, val));

} // namespace __v1
} // namespace cooperative_groups

#endif // __HPP_CUDA_COOPERATIVE_GROUPS_REDUCE_H
