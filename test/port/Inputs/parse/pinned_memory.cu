// Page-locked host memory (cudaMallocHost in its C and C++ forms,
// cudaHostAlloc with flags and the mapped device pointer), pitched 2D
// allocations and copies, fills, and cudaDeviceReset.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void touch2D(float *p, size_t pitch, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    float *row = (float *)((char *)p + y * pitch);
    row[x] += 1.0f;
  }
}

int main() {
  const int w = 100, h = 64;
  float *pinned = nullptr;
  cudaMallocHost((void **)&pinned, w * h * sizeof(float));
  double *pinned2 = nullptr;
  cudaMallocHost(&pinned2, 16 * sizeof(double), cudaHostAllocPortable);
  int *mapped = nullptr, *mappedDev = nullptr;
  cudaSetDeviceFlags(cudaDeviceMapHost);
  cudaHostAlloc(&mapped, 256 * sizeof(int),
                cudaHostAllocMapped | cudaHostAllocWriteCombined);
  cudaHostGetDevicePointer(&mappedDev, mapped, 0);
  memset(pinned, 0, w * h * sizeof(float));
  float *dev = nullptr;
  size_t pitch = 0;
  cudaMallocPitch(&dev, &pitch, w * sizeof(float), h);
  cudaMemset2D(dev, pitch, 0, w * sizeof(float), h);
  cudaMemcpy2D(dev, pitch, pinned, w * sizeof(float), w * sizeof(float), h,
               cudaMemcpyHostToDevice);
  touch2D<<<dim3((w + 15) / 16, (h + 15) / 16), dim3(16, 16)>>>(dev, pitch, w,
                                                                h);
  cudaMemcpy2D(pinned, w * sizeof(float), dev, pitch, w * sizeof(float), h,
               cudaMemcpyDeviceToHost);
  cudaMemset(mappedDev, 0, 256 * sizeof(int));
  printf("%f %s\n", pinned[0], cudaGetErrorString(cudaPeekAtLastError()));
  cudaFree(dev);
  cudaFreeHost(pinned);
  cudaFreeHost(pinned2);
  cudaFreeHost(mapped);
  cudaDeviceReset();
  return 0;
}
