#include "kernels.h"
#include "warp_reduce.cuh"

__global__ void rowSums(const float *m, float *out, int rows, int cols) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= rows)
    return;
  float v = 0;
  for (int c = laneId(); c < cols; c += 32)
    v += m[row * cols + c];
  v = warpReduceSum(v);
  if (laneId() == 0)
    out[row] = v;
}

void launchRowSums(const float *m, float *out, int rows, int cols,
                   cudaStream_t s) {
  const int threads = 128;
  rowSums<<<(rows + threads / 32 - 1) / (threads / 32), threads, 0, s>>>(
      m, out, rows, cols);
}
