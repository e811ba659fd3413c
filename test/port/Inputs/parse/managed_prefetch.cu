// Unified memory: cudaMallocManaged, a __managed__ variable, prefetches and
// advice in the form of the CUDA release compiling it (a device number
// before CUDA 13, a cudaMemLocation from CUDA 13 on).
#include <cstdio>
#include <cuda_runtime.h>

__managed__ int launches = 0;

__global__ void init(float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    x[i] = 1.0f;
  if (threadIdx.x == 0 && blockIdx.x == 0)
    ++launches;
}

int main() {
  const int n = 1 << 20;
  float *x = nullptr;
  cudaMallocManaged(&x, n * sizeof(float));
  float *y = nullptr;
  cudaMallocManaged((void **)&y, n * sizeof(float), cudaMemAttachHost);
  int device = -1, concurrent = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess,
                         device);
  cudaStream_t stream = 0;
  if (concurrent) {
#if CUDART_VERSION >= 13000
    cudaMemLocation onDevice = {cudaMemLocationTypeDevice, device};
    cudaMemLocation onHost = {cudaMemLocationTypeHost, 0};
    cudaMemAdvise(x, n * sizeof(float), cudaMemAdviseSetPreferredLocation,
                  onDevice);
    cudaMemPrefetchAsync(x, n * sizeof(float), onDevice, 0, stream);
#else
    cudaMemAdvise(x, n * sizeof(float), cudaMemAdviseSetPreferredLocation,
                  device);
    cudaMemPrefetchAsync(x, n * sizeof(float), device, stream);
#endif
    init<<<256, 256, 0, stream>>>(x, n);
#if CUDART_VERSION >= 13000
    cudaMemPrefetchAsync(x, n * sizeof(float), onHost, 0);
#else
    cudaMemPrefetchAsync(x, n * sizeof(float), cudaCpuDeviceId);
#endif
  } else {
    init<<<256, 256>>>(x, n);
  }
  cudaStreamAttachMemAsync(stream, y);
  cudaDeviceSynchronize();
  printf("x[0] = %f after %d launches\n", x[0], launches);
  cudaFree(x);
  cudaFree(y);
  return 0;
}
