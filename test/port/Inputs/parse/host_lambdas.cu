// Lambdas in host code around kernel launches: a launch helper capturing by
// reference, a comparator for std::sort, an error callback in a
// std::function, and a generic lambda taking the kernel to launch.
// <cuda_runtime.h> comes first: clang's <algorithm> wrapper needs its
// macros (nvcc includes it before anything anyway).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

__global__ void fill(int *a, int n, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = value - i;
}

__global__ void twice(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] *= 2;
}

int main() {
  const int n = 1000;
  int *d = nullptr;
  std::function<void(cudaError_t, const char *)> onError =
      [](cudaError_t e, const char *what) {
        if (e != cudaSuccess)
          fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
      };
  onError(cudaMalloc(&d, n * sizeof(int)), "cudaMalloc");
  auto launch = [&](int value) {
    const int threads = 128;
    fill<<<(n + threads - 1) / threads, threads>>>(d, n, value);
    onError(cudaGetLastError(), "fill");
  };
  launch(7);
  auto run = [=](auto kernel) { kernel<<<8, 128>>>(d, n); };
  run(twice);
  std::vector<int> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost);
  std::sort(h.begin(), h.end(), [](int a, int b) { return a > b; });
  int evens = (int)std::count_if(h.begin(), h.end(),
                                 [](int v) { return v % 2 == 0; });
  std::for_each(h.begin(), h.begin() + 3, [](int v) { printf("%d\n", v); });
  printf("%d even, max %d\n", evens, std::max(h.front(), 0));
  cudaFree(d);
  return 0;
}
