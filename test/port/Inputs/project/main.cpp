// The host program, a C++ source of the CUDA project.
#include "kernels.h"

#include <cstdio>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t e = (call);                                                    \
    if (e != cudaSuccess) {                                                    \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e),           \
                  __FILE__, __LINE__);                                         \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main() {
  const int rows = 37, cols = 45, n = rows * cols;
  float *m, *out, *sum;
  CUDA_CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&out, rows * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&sum, sizeof(float)));
  for (int k = 0; k < n; ++k)
    m[k] = float(k % 5);
  *sum = 0;
  launchRowSums(m, out, rows, cols, 0);
  launchTotal(m, sum, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  int wrong = 0;
  float all = 0;
  for (int r = 0; r < rows; ++r) {
    float want = 0;
    for (int c = 0; c < cols; ++c)
      want += float((r * cols + c) % 5);
    wrong += !(out[r] == want);
    all += want;
  }
  std::printf("rows wrong %d, total %.0f (want %.0f)\n", wrong, *sum, all);
  return wrong != 0 || !(*sum == all);
}
