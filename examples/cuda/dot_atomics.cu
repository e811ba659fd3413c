//===- examples/cuda/dot_atomics.cu - dot products, atomics and fences ----===//
//
// Part of hpp-rewrite. A self-checking CUDA program (port-mode corpus).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Dot products finished with atomics, in the style of the CUDA
/// Programming Guide's atomic examples and cuda-samples'
/// threadFenceReduction:
///  - dot_atomic_kernel: `__launch_bounds__(256)`, `const float
///    *__restrict__` inputs read through `__ldg`, a warp sum with
///    `__shfl_down_sync(0xffffffff, v, offset)` from 16, and lane 0
///    (`(threadIdx.x & 31) == 0`) doing `atomicAdd(float *, float)`,
///    `atomicAdd(double *, double)` (sm_60 and later) and
///    `atomicAdd(unsigned long long *, unsigned long long)`; thread 0 counts
///    finished blocks with `atomicAdd(blocks_done, 1)` on an `unsigned int
///    *`, the int literal converted to the unsigned overload;
///  - dot_fence_kernel<blockSize>: each block writes its partial, does
///    `__threadfence()`, takes a ticket with `atomicInc(&retirementCount,
///    gridDim.x)` on a `__device__` counter, and the block that draws the
///    last ticket sums all partials (read through volatile) and resets the
///    counter; warp sums go through `__shared__ double
///    sdata[blockSize / 32]` at `threadIdx.x >> 5`.
///
/// Warp-32 assumptions: the 32-bit mask, the start 16, `& 31`, `>> 5` and
/// blockSize / 32 slots. Renamed only, for a 64-lane wavefront: the mask
/// does not compile on ROCm 6.2 and later; with it widened the program is
/// right at 64 (each 32-lane half is reduced by the tree from 16, and both
/// half-leaders add their half, and twice as many atomics are issued).
/// The float, double and 64-bit atomicAdd overloads, atomicInc and
/// __threadfence all have HIP counterparts of the same name.
///
/// The inputs are small integers: every float partial stays below 2^24, so
/// all sums are exact whatever the order of the atomics, and are compared
/// exactly.
///
//===----------------------------------------------------------------------===//

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

template <typename T>
void check(T result, char const *const func, const char *const file,
           int const line) {
  if (result) {
    fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\" \n", file, line,
            static_cast<unsigned int>(result), cudaGetErrorName(result), func);
    exit(EXIT_FAILURE);
  }
}
#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)

__global__ void __launch_bounds__(256)
    dot_atomic_kernel(const float *__restrict__ a,
                      const float *__restrict__ b, int n, float *result_f,
                      double *result_d, unsigned long long *nonzero,
                      unsigned int *blocks_done) {
  float sum = 0.0f;
  unsigned long long nz = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    float p = __ldg(&a[i]) * __ldg(&b[i]);
    sum += p;
    nz += (p != 0.0f) ? 1 : 0;
  }
  for (int offset = 16; offset > 0; offset >>= 1) {
    sum += __shfl_down_sync(0xffffffff, sum, offset);
    nz += __shfl_down_sync(0xffffffff, nz, offset);
  }
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(result_f, sum);
    atomicAdd(result_d, (double)sum);
    atomicAdd(nonzero, nz);
  }
  __syncthreads();
  if (threadIdx.x == 0)
    atomicAdd(blocks_done, 1);
}

// Blocks that have finished their partial sum.
__device__ unsigned int retirementCount = 0;

template <unsigned int blockSize>
__global__ void __launch_bounds__(blockSize)
    dot_fence_kernel(const double *__restrict__ a,
                     const double *__restrict__ b, int n, double *partials,
                     double *result) {
  __shared__ double sdata[blockSize / 32];
  __shared__ bool amLast;

  double sum = 0.0;
  for (int i = blockIdx.x * blockSize + threadIdx.x; i < n;
       i += blockSize * gridDim.x)
    sum += __ldg(&a[i]) * __ldg(&b[i]);
  for (int offset = 16; offset > 0; offset >>= 1)
    sum += __shfl_xor_sync(0xffffffff, sum, offset);
  if ((threadIdx.x & 31) == 0)
    sdata[threadIdx.x >> 5] = sum;
  __syncthreads();

  if (threadIdx.x == 0) {
    double t = 0.0;
    for (unsigned int w = 0; w < blockSize / 32; ++w)
      t += sdata[w];
    partials[blockIdx.x] = t;
    // Make the partial visible before taking a ticket.
    __threadfence();
    unsigned int ticket = atomicInc(&retirementCount, gridDim.x);
    amLast = (ticket == gridDim.x - 1);
  }
  __syncthreads();

  if (amLast) {
    const volatile double *vp = partials;
    double t = 0.0;
    for (unsigned int i = threadIdx.x; i < gridDim.x; i += blockSize)
      t += vp[i];
    for (int offset = 16; offset > 0; offset >>= 1)
      t += __shfl_xor_sync(0xffffffff, t, offset);
    if ((threadIdx.x & 31) == 0)
      sdata[threadIdx.x >> 5] = t;
    __syncthreads();
    if (threadIdx.x == 0) {
      double total = 0.0;
      for (unsigned int w = 0; w < blockSize / 32; ++w)
        total += sdata[w];
      *result = total;
      retirementCount = 0; // ready for the next launch
    }
  }
}

int main() {
  const int n = 200000;
  std::vector<float> h_a(n), h_b(n);
  std::vector<double> h_ad(n), h_bd(n);
  long long want = 0, want_nz = 0;
  for (int i = 0; i < n; ++i) {
    int a = (i % 11) - 3, b = ((i * 7) % 9) - 2;
    h_a[i] = (float)a;
    h_b[i] = (float)b;
    h_ad[i] = (double)(a + (i % 3));
    h_bd[i] = (double)b;
    want += (long long)a * b;
    want_nz += (a * b != 0);
  }
  long long want_d = 0;
  for (int i = 0; i < n; ++i)
    want_d += (long long)h_ad[i] * (long long)h_bd[i];

  float *d_a, *d_b, *d_rf;
  double *d_ad, *d_bd, *d_rd, *d_partials, *d_fence_result;
  unsigned long long *d_nz;
  unsigned int *d_blocks_done;
  const int atomic_blocks = 128, fence_blocks = 100;
  checkCudaErrors(cudaMalloc(&d_a, n * sizeof(float)));
  checkCudaErrors(cudaMalloc(&d_b, n * sizeof(float)));
  checkCudaErrors(cudaMalloc(&d_ad, n * sizeof(double)));
  checkCudaErrors(cudaMalloc(&d_bd, n * sizeof(double)));
  checkCudaErrors(cudaMalloc(&d_rf, sizeof(float)));
  checkCudaErrors(cudaMalloc(&d_rd, sizeof(double)));
  checkCudaErrors(cudaMalloc(&d_nz, sizeof(unsigned long long)));
  checkCudaErrors(cudaMalloc(&d_blocks_done, sizeof(unsigned int)));
  checkCudaErrors(cudaMalloc(&d_partials, fence_blocks * sizeof(double)));
  checkCudaErrors(cudaMalloc(&d_fence_result, sizeof(double)));
  checkCudaErrors(
      cudaMemcpy(d_a, h_a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  checkCudaErrors(
      cudaMemcpy(d_b, h_b.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_ad, h_ad.data(), n * sizeof(double),
                             cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_bd, h_bd.data(), n * sizeof(double),
                             cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemset(d_rf, 0, sizeof(float)));
  checkCudaErrors(cudaMemset(d_rd, 0, sizeof(double)));
  checkCudaErrors(cudaMemset(d_nz, 0, sizeof(unsigned long long)));
  checkCudaErrors(cudaMemset(d_blocks_done, 0, sizeof(unsigned int)));

  dot_atomic_kernel<<<atomic_blocks, 256>>>(d_a, d_b, n, d_rf, d_rd, d_nz,
                                            d_blocks_done);
  checkCudaErrors(cudaGetLastError());
  // Twice, to check that the last block resets the retirement counter.
  for (int rep = 0; rep < 2; ++rep) {
    dot_fence_kernel<256><<<fence_blocks, 256>>>(d_ad, d_bd, n, d_partials,
                                                 d_fence_result);
    checkCudaErrors(cudaGetLastError());
  }
  checkCudaErrors(cudaDeviceSynchronize());

  float rf = 0.0f;
  double rd = 0.0, rfence = 0.0;
  unsigned long long nz = 0;
  unsigned int blocks_done = 0;
  checkCudaErrors(cudaMemcpy(&rf, d_rf, sizeof(float), cudaMemcpyDeviceToHost));
  checkCudaErrors(
      cudaMemcpy(&rd, d_rd, sizeof(double), cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaMemcpy(&nz, d_nz, sizeof(unsigned long long),
                             cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaMemcpy(&blocks_done, d_blocks_done,
                             sizeof(unsigned int), cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaMemcpy(&rfence, d_fence_result, sizeof(double),
                             cudaMemcpyDeviceToHost));

  printf("dot (float atomics) = %.1f\n", rf);
  printf("dot (double atomics) = %.1f\n", rd);
  printf("nonzero products = %llu, blocks done = %u\n", nz, blocks_done);
  printf("dot (threadfence, double) = %.1f\n", rfence);

  bool ok = true;
  if ((double)rf != (double)want) {
    printf("FAIL: float dot %.1f, expected %lld\n", rf, want);
    ok = false;
  }
  if (rd != (double)want) {
    printf("FAIL: double dot %.1f, expected %lld\n", rd, want);
    ok = false;
  }
  if (nz != (unsigned long long)want_nz) {
    printf("FAIL: %llu nonzero products, expected %lld\n", nz, want_nz);
    ok = false;
  }
  if (blocks_done != (unsigned int)atomic_blocks) {
    printf("FAIL: %u blocks done, expected %d\n", blocks_done, atomic_blocks);
    ok = false;
  }
  if (rfence != (double)want_d) {
    printf("FAIL: threadfence dot %.1f, expected %lld\n", rfence, want_d);
    ok = false;
  }

  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_ad);
  cudaFree(d_bd);
  cudaFree(d_rf);
  cudaFree(d_rd);
  cudaFree(d_nz);
  cudaFree(d_blocks_done);
  cudaFree(d_partials);
  cudaFree(d_fence_result);
  if (!ok)
    return 1;
  printf("PASS\n");
  return 0;
}
