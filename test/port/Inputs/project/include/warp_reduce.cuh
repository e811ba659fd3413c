// A warp helper in a project header, as CUDA projects keep them.
#pragma once

#define FULL_MASK 0xffffffffu

template <typename T> __device__ __forceinline__ T warpReduceSum(T v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(FULL_MASK, v, offset, 32);
  return v;
}

__device__ __forceinline__ int laneId() { return threadIdx.x & 31; }
