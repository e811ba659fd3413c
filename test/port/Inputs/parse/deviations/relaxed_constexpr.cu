// Device code calling constexpr host functions: std::max (which clang's own
// <algorithm> wrapper declares host and device) and a user's constexpr
// function (which clang treats as host and device). clang accepts both, as
// nvcc does with --expt-relaxed-constexpr; nvcc without that flag rejects
// them.
#include <cuda_runtime.h>

#include <algorithm>

constexpr int roundUp(int x, int m) { return (x + m - 1) / m * m; }

__global__ void k(int *out, int n) {
  out[threadIdx.x] = std::max(roundUp(n, 32), 64);
}

int main() {
  k<<<1, 32>>>(nullptr, 5);
  return 0;
}
// NVCC: relaxed_constexpr.cu(13): error: calling a constexpr __host__ function("roundUp") from a __global__ function("k") is not allowed
