//===- examples/cuda/bnb_quantize.cu - bitsandbytes blockwise quantize ----===//
//
// Part of hpp-rewrite. A self-checking CUDA program (port-mode corpus).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Blockwise 8-bit quantization with a per-block absmax scale, in the style
/// of bitsandbytes (csrc/kernels.cu kQuantizeBlockwise and
/// kDequantizeBlockwise, csrc/ops.cu quantizeBlockwise):
///  - `template <typename T, int BLOCK_SIZE, int NUM_PER_TH>`: a thread
///    block of BLOCK_SIZE / NUM_PER_TH threads quantizes one block of
///    BLOCK_SIZE values, NUM_PER_TH consecutive values per thread, with a
///    partial last block (`valid_items`);
///  - the block's absmax comes from a block-wide max (bitsandbytes uses
///    cub::BlockReduce; here an xor butterfly with `0xffffffff` and one
///    shared slot per 32-lane warp), thread 0 writes `absmax[i /
///    BLOCK_SIZE]` and shares it through `__shared__ float
///    smem_absmax_value`;
///  - each value is divided by the absmax and mapped to the nearest entry
///    of a 256-entry code table staged in `__shared__ float smem_code[256]`
///    by binary search;
///  - the host dispatch: blocksize 4096 with 1024 threads, 1024 with 256,
///    256 with 128, 64 with 32 threads (two values each).
///
/// Warp-32 assumptions: blocksize 64 is launched as one 32-thread warp and
/// the reduction needs no shared memory there; BNB_WARP_SIZE is 32 in the
/// slot count. Renamed only, for a 64-lane wavefront: the 32-bit mask does
/// not compile on ROCm 6.2 and later; with it widened, a 32-thread block is
/// half a wavefront, and with BNB_WARP_SIZE set to 64 the 32-thread
/// instantiation has zero warp slots and a butterfly that starts at 32.
/// ROCm's bitsandbytes dropped blocksize 64 because of this
/// (ROCm/bitsandbytes PR 10: "ROCm warpsize doesn't support that case");
/// bitsandbytes PR 1856 brought it back on CDNA with a kernel that packs
/// two quantization blocks into one 64-lane wavefront and reduces them as
/// logical 32-lane warps.
///
/// The inputs are multiples of 1/8, so each absmax is exact; the host runs
/// the same nearest-code search on the same IEEE quotients, so the bytes
/// are compared exactly; dequantized values are checked against the
/// quantization step.
///
//===----------------------------------------------------------------------===//

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define BNB_WARP_SIZE 32

#define CUDA_CHECK_RETURN(value)                                               \
  {                                                                            \
    cudaError_t _m_cudaStat = value;                                           \
    if (_m_cudaStat != cudaSuccess) {                                          \
      fprintf(stderr, "Error %s at line %d in file %s\n",                      \
              cudaGetErrorString(_m_cudaStat), __LINE__, __FILE__);            \
      exit(1);                                                                 \
    }                                                                          \
  }

/// The index of the entry of the sorted 256-entry \p code nearest to \p x
/// (the lower one on a tie). Host and device run the same float operations.
__host__ __device__ inline unsigned char nearest_code(const float *code,
                                                      float x) {
  int lo = 0, hi = 255;
  while (hi - lo > 1) {
    int mid = (lo + hi) >> 1;
    if (code[mid] <= x)
      lo = mid;
    else
      hi = mid;
  }
  float dlo = fabsf(x - code[lo]);
  float dhi = fabsf(code[hi] - x);
  return (unsigned char)(dhi < dlo ? hi : lo);
}

/// The maximum over a block of THREADS threads, in every thread.
template <int THREADS>
__device__ __forceinline__ float block_reduce_max(float v) {
  __shared__ float warp_max[(THREADS + BNB_WARP_SIZE - 1) / BNB_WARP_SIZE];
  const int lane = threadIdx.x & (BNB_WARP_SIZE - 1);
  const int warp = threadIdx.x / BNB_WARP_SIZE;
#pragma unroll
  for (int offset = BNB_WARP_SIZE / 2; offset > 0; offset >>= 1)
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, offset));
  if (THREADS <= BNB_WARP_SIZE)
    return v; // one warp: the butterfly already gave everyone the max
  if (lane == 0)
    warp_max[warp] = v;
  __syncthreads();
  v = (lane < THREADS / BNB_WARP_SIZE) ? warp_max[lane] : 0.0f;
#pragma unroll
  for (int offset = BNB_WARP_SIZE / 2; offset > 0; offset >>= 1)
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, offset));
  __syncthreads(); // warp_max may be reused by the next call
  return v;
}

template <typename T, int BLOCK_SIZE, int NUM_PER_TH>
__global__ void kQuantizeBlockwise(const float *code, const T *__restrict__ A,
                                   float *absmax, unsigned char *out,
                                   const int n) {
  constexpr int THREADS = BLOCK_SIZE / NUM_PER_TH;
  const int n_full = gridDim.x * BLOCK_SIZE;
  const int base_idx = blockIdx.x * BLOCK_SIZE;

  T vals[NUM_PER_TH];
  unsigned char qvals[NUM_PER_TH];
  __shared__ float smem_code[256];
  __shared__ float smem_absmax_value;

  for (int i = threadIdx.x; i < 256; i += blockDim.x)
    smem_code[i] = code[i];

  for (int i = base_idx; i < n_full; i += gridDim.x * BLOCK_SIZE) {
    const int valid_items = n - i > BLOCK_SIZE ? BLOCK_SIZE : n - i;
    float local_abs_max = 0.0f;

    __syncthreads();
#pragma unroll
    for (int j = 0; j < NUM_PER_TH; j++) {
      const int k = threadIdx.x * NUM_PER_TH + j;
      vals[j] = k < valid_items ? A[i + k] : (T)0.0f;
      local_abs_max = fmaxf(local_abs_max, fabsf((float)vals[j]));
    }

    local_abs_max = block_reduce_max<THREADS>(local_abs_max);

    if (threadIdx.x == 0) {
      smem_absmax_value = local_abs_max;
      absmax[i / BLOCK_SIZE] = local_abs_max;
    }
    __syncthreads();

    local_abs_max = smem_absmax_value;
#pragma unroll
    for (int j = 0; j < NUM_PER_TH; j++) {
      float normed =
          local_abs_max > 0.0f ? (float)vals[j] / local_abs_max : 0.0f;
      qvals[j] = nearest_code(smem_code, normed);
    }

#pragma unroll
    for (int j = 0; j < NUM_PER_TH; j++) {
      const int k = threadIdx.x * NUM_PER_TH + j;
      if (k < valid_items)
        out[i + k] = qvals[j];
    }
  }
}

template <typename T>
__global__ void kDequantizeBlockwise(const float *code,
                                     const unsigned char *A,
                                     const float *absmax, T *out,
                                     const int blocksize, const int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    out[i] = (T)(code[A[i]] * absmax[i / blocksize]);
}

template <typename T>
void quantizeBlockwise(const float *code, const T *A, float *absmax,
                       unsigned char *out, int blocksize, const int n) {
  int num_blocks = n / blocksize;
  num_blocks = n % blocksize == 0 ? num_blocks : num_blocks + 1;

  if (blocksize == 4096)
    kQuantizeBlockwise<T, 4096, 4><<<num_blocks, 1024>>>(code, A, absmax, out,
                                                         n);
  else if (blocksize == 1024)
    kQuantizeBlockwise<T, 1024, 4><<<num_blocks, 256>>>(code, A, absmax, out,
                                                        n);
  else if (blocksize == 256)
    kQuantizeBlockwise<T, 256, 2><<<num_blocks, 128>>>(code, A, absmax, out,
                                                       n);
  else if (blocksize == 64)
    kQuantizeBlockwise<T, 64, 2><<<num_blocks, 32>>>(code, A, absmax, out, n);

  CUDA_CHECK_RETURN(cudaPeekAtLastError());
}

int main() {
  const int n = 15950;
  const int blocksizes[] = {64, 256, 1024, 4096};

  std::vector<float> h_A(n), h_code(256);
  for (int i = 0; i < n; ++i) {
    h_A[i] = 0.125f * (float)(((i * 37) % 97) - 48);
    if (i % 613 == 0)
      h_A[i] = (i % 2) ? -30.0f : 30.0f; // outliers
  }
  for (int j = 0; j < 256; ++j)
    h_code[j] = ((float)j - 127.5f) / 127.5f;

  float *d_A, *d_code, *d_absmax, *d_deq;
  unsigned char *d_q;
  const int max_blocks = (n + 63) / 64;
  CUDA_CHECK_RETURN(cudaMalloc(&d_A, sizeof(float) * n));
  CUDA_CHECK_RETURN(cudaMalloc(&d_code, sizeof(float) * 256));
  CUDA_CHECK_RETURN(cudaMalloc(&d_absmax, sizeof(float) * max_blocks));
  CUDA_CHECK_RETURN(cudaMalloc(&d_deq, sizeof(float) * n));
  CUDA_CHECK_RETURN(cudaMalloc(&d_q, n));
  CUDA_CHECK_RETURN(
      cudaMemcpy(d_A, h_A.data(), sizeof(float) * n, cudaMemcpyHostToDevice));
  CUDA_CHECK_RETURN(cudaMemcpy(d_code, h_code.data(), sizeof(float) * 256,
                               cudaMemcpyHostToDevice));

  bool ok = true;
  for (int blocksize : blocksizes) {
    const int num_blocks = (n + blocksize - 1) / blocksize;
    quantizeBlockwise<float>(d_code, d_A, d_absmax, d_q, blocksize, n);
    kDequantizeBlockwise<float>
        <<<(n + 255) / 256, 256>>>(d_code, d_q, d_absmax, d_deq, blocksize, n);
    CUDA_CHECK_RETURN(cudaPeekAtLastError());

    std::vector<float> absmax(num_blocks), deq(n);
    std::vector<unsigned char> q(n);
    CUDA_CHECK_RETURN(cudaMemcpy(absmax.data(), d_absmax,
                                 sizeof(float) * num_blocks,
                                 cudaMemcpyDeviceToHost));
    CUDA_CHECK_RETURN(cudaMemcpy(q.data(), d_q, n, cudaMemcpyDeviceToHost));
    CUDA_CHECK_RETURN(cudaMemcpy(deq.data(), d_deq, sizeof(float) * n,
                                 cudaMemcpyDeviceToHost));

    double absmax_sum = 0.0;
    long long code_checksum = 0;
    for (int b = 0; b < num_blocks && ok; ++b) {
      float want = 0.0f;
      for (int i = b * blocksize; i < n && i < (b + 1) * blocksize; ++i)
        want = fmaxf(want, fabsf(h_A[i]));
      if (absmax[b] != want) {
        printf("FAIL: blocksize %d: absmax[%d] = %g, expected %g\n",
               blocksize, b, absmax[b], want);
        ok = false;
        break;
      }
      absmax_sum += absmax[b];
      for (int i = b * blocksize; i < n && i < (b + 1) * blocksize; ++i) {
        unsigned char wq =
            nearest_code(h_code.data(), want > 0.0f ? h_A[i] / want : 0.0f);
        if (q[i] != wq) {
          printf("FAIL: blocksize %d: q[%d] = %d, expected %d\n", blocksize,
                 i, q[i], wq);
          ok = false;
          break;
        }
        code_checksum += (long long)q[i] * (i % 13 + 1);
        // Half a code step (1/127.5) of the block's scale, and some slack.
        if (!(fabsf(deq[i] - h_A[i]) <= want * (0.5f / 127.5f) + 1e-5f)) {
          printf("FAIL: blocksize %d: dequantized[%d] = %g, input %g\n",
                 blocksize, i, deq[i], h_A[i]);
          ok = false;
          break;
        }
      }
    }
    printf("blocksize %4d: %4d blocks, absmax sum = %.3f, code checksum = "
           "%lld\n",
           blocksize, num_blocks, absmax_sum, code_checksum);
  }

  CUDA_CHECK_RETURN(cudaFree(d_A));
  CUDA_CHECK_RETURN(cudaFree(d_code));
  CUDA_CHECK_RETURN(cudaFree(d_absmax));
  CUDA_CHECK_RETURN(cudaFree(d_deq));
  CUDA_CHECK_RETURN(cudaFree(d_q));
  if (!ok)
    return 1;
  printf("PASS\n");
  return 0;
}
