//===- examples/cuda/cs_shfl_scan.cu - cuda-samples shfl_scan -------------===//
//
// Part of hpp-rewrite. A self-checking CUDA program (port-mode corpus).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// An inclusive prefix sum in the shape of NVIDIA cuda-samples' shfl_scan
/// (2_Concepts_and_Techniques/shfl_scan: shfl_scan_test and uniform_add):
///  - each warp scans its values with `__shfl_up_sync(0xffffffff, value, i,
///    width)` in log2 steps, where the host passes `width = 32`, and adds
///    only where `lane_id >= i`;
///  - the last lane of each warp (`threadIdx.x % warpSize == warpSize - 1`)
///    stores the warp's total into `extern __shared__ int sums[]`, sized at
///    launch as one int per warp (`blockSize / 32`); warp 0 scans those
///    totals the same way and every warp adds its predecessor's total;
///  - the block totals go to a partial-sums array, which one more launch of
///    the same kernel scans, and a uniform_add pass adds them to every block
///    but the first (launched on `data + blockSize`).
///
/// Warp-32 assumptions: the host passes the width 32 and sizes `sums` by
/// `blockSize / 32`, while the kernel takes lanes and warp ids from
/// warpSize. Renamed only, for a 64-lane wavefront: the 32-bit mask does
/// not compile on ROCm 6.2 and later; with it widened, the width stays 32
/// (each wavefront scans as two 32-lane halves), but `lane_id` and
/// `warp_id` come from warpSize = 64, so lanes 32..63 add the wrong
/// neighbours (they count up to 63 while the shuffle stays in a 32-lane
/// segment), only one total per 64 lanes is stored, and the scan of 256
/// elements comes out wrong from element 32 on.
///
/// The values are small integers; the whole scan is compared exactly.
///
//===----------------------------------------------------------------------===//

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

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

// Scans data in place, block by block; each block's total goes to
// partial_sums[blockIdx.x] when that is given.
__global__ void shfl_scan_test(int *data, int width,
                               int *partial_sums = NULL) {
  extern __shared__ int sums[];
  int id = ((blockIdx.x * blockDim.x) + threadIdx.x);
  int lane_id = id % warpSize;
  // the warp within the block
  int warp_id = threadIdx.x / warpSize;

  int value = data[id];

  // Hillis-Steele within the warp: after step i each lane holds the sum of
  // the 2i values ending at itself.
#pragma unroll
  for (int i = 1; i < width; i *= 2) {
    unsigned int mask = 0xffffffff;
    int n = __shfl_up_sync(mask, value, i, width);
    if (lane_id >= i)
      value += n;
  }

  // The last lane holds the warp's total.
  if (threadIdx.x % warpSize == warpSize - 1)
    sums[warp_id] = value;
  __syncthreads();

  // Warp 0 scans the warp totals (lanes past the last warp contribute 0).
  if (warp_id == 0) {
    int nwarps = blockDim.x / warpSize;
    int warp_sum = (lane_id < nwarps) ? sums[lane_id] : 0;
    for (int i = 1; i < width; i *= 2) {
      int n = __shfl_up_sync(0xffffffff, warp_sum, i, width);
      if (lane_id >= i)
        warp_sum += n;
    }
    if (lane_id < nwarps)
      sums[lane_id] = warp_sum;
  }
  __syncthreads();

  int blockSum = 0;
  if (warp_id > 0)
    blockSum = sums[warp_id - 1];
  value += blockSum;

  data[id] = value;

  if (partial_sums != NULL && threadIdx.x == blockDim.x - 1)
    partial_sums[blockIdx.x] = value;
}

// Adds partial_sums[blockIdx.x] to every element of block blockIdx.x; the
// host launches it on data + blockSize, so block b gets the total of
// blocks 0..b.
__global__ void uniform_add(int *data, int *partial_sums, int len) {
  __shared__ int buf;
  int id = ((blockIdx.x * blockDim.x) + threadIdx.x);

  if (threadIdx.x == 0)
    buf = partial_sums[blockIdx.x];
  __syncthreads();

  if (id < len)
    data[id] += buf;
}

int main(int argc, char *argv[]) {
  int cuda_device = 0;
  cudaDeviceProp deviceProp;
  checkCudaErrors(cudaGetDevice(&cuda_device));
  checkCudaErrors(cudaGetDeviceProperties(&deviceProp, cuda_device));
  fprintf(stderr,
          "> Detected Compute SM %d.%d hardware with %d multi-processors\n",
          deviceProp.major, deviceProp.minor, deviceProp.multiProcessorCount);

  int *h_data, *h_partial_sums, *h_result;
  int *d_data, *d_partial_sums;
  const int n_elements = 65536;
  int sz = sizeof(int) * n_elements;

  checkCudaErrors(cudaMallocHost((void **)&h_data, sizeof(int) * n_elements));
  checkCudaErrors(
      cudaMallocHost((void **)&h_result, sizeof(int) * n_elements));

  // Deterministic small values in 0..10.
  for (int i = 0; i < n_elements; i++)
    h_data[i] = (i * 5 + i / 97) % 11;

  int blockSize = 256;
  int gridSize = n_elements / blockSize;
  int nWarps = blockSize / 32;
  int shmem_sz = nWarps * sizeof(int);
  int n_partialSums = n_elements / blockSize;
  int partial_sz = n_partialSums * sizeof(int);

  fprintf(stderr, "Scan summation for %d elements, %d partial sums\n",
          n_elements, n_elements / blockSize);

  int p_blockSize = std::min(n_partialSums, blockSize);
  int p_gridSize = (n_partialSums + p_blockSize - 1) / p_blockSize;
  fprintf(stderr, "Partial summing %d elements with %d blocks of size %d\n",
          n_partialSums, p_gridSize, p_blockSize);

  cudaEvent_t start, stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));
  float et = 0;

  checkCudaErrors(cudaMalloc((void **)&d_data, sz));
  checkCudaErrors(cudaMalloc((void **)&d_partial_sums, partial_sz));
  checkCudaErrors(cudaMemset(d_partial_sums, 0, partial_sz));

  checkCudaErrors(cudaMallocHost((void **)&h_partial_sums, partial_sz));
  checkCudaErrors(cudaMemcpy(d_data, h_data, sz, cudaMemcpyHostToDevice));

  checkCudaErrors(cudaEventRecord(start, 0));
  shfl_scan_test<<<gridSize, blockSize, shmem_sz>>>(d_data, 32,
                                                    d_partial_sums);
  shfl_scan_test<<<p_gridSize, p_blockSize, shmem_sz>>>(d_partial_sums, 32);
  uniform_add<<<gridSize - 1, blockSize>>>(d_data + blockSize,
                                           d_partial_sums, n_elements);
  checkCudaErrors(cudaGetLastError());
  checkCudaErrors(cudaEventRecord(stop, 0));
  checkCudaErrors(cudaEventSynchronize(stop));
  checkCudaErrors(cudaEventElapsedTime(&et, start, stop));
  fprintf(stderr, "Time (ms): %f\n", et);

  checkCudaErrors(cudaMemcpy(h_result, d_data, sz, cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaMemcpy(h_partial_sums, d_partial_sums, partial_sz,
                             cudaMemcpyDeviceToHost));

  // Host reference.
  bool ok = true;
  int running = 0;
  for (int i = 0; i < n_elements; i++) {
    running += h_data[i];
    if (h_result[i] != running) {
      printf("FAIL: scan[%d] = %d, expected %d\n", i, h_result[i], running);
      ok = false;
      break;
    }
  }
  if (ok && h_partial_sums[n_partialSums - 1] != running) {
    printf("FAIL: last partial sum %d, expected %d\n",
           h_partial_sums[n_partialSums - 1], running);
    ok = false;
  }

  long long checksum = 0;
  for (int i = 0; i < n_elements; i += 1023)
    checksum += h_result[i];
  printf("shfl_scan: %d elements\n", n_elements);
  printf("shfl_scan: total = %d\n", h_result[n_elements - 1]);
  printf("shfl_scan: sampled checksum = %lld\n", checksum);

  checkCudaErrors(cudaFreeHost(h_data));
  checkCudaErrors(cudaFreeHost(h_result));
  checkCudaErrors(cudaFreeHost(h_partial_sums));
  checkCudaErrors(cudaFree(d_data));
  checkCudaErrors(cudaFree(d_partial_sums));
  checkCudaErrors(cudaEventDestroy(start));
  checkCudaErrors(cudaEventDestroy(stop));

  if (!ok)
    return 1;
  printf("PASS\n");
  return 0;
}
