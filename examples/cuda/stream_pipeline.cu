//===- examples/cuda/stream_pipeline.cu - streams, events, async copies ---===//
//
// Part of hpp-rewrite. A self-checking CUDA program (port-mode corpus).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A chunked copy-compute-copy pipeline over several streams, in the style
/// of NVIDIA's "How to Overlap Data Transfers in CUDA C/C++" (the
/// async.cu example of the CUDA developer blog) and cuda-samples'
/// simpleStreams, with a warp-level reduction inside the kernel:
///  - a CUDA_CHECK macro around every runtime call; pinned host buffers
///    from cudaMallocHost; cudaStreamCreateWithFlags(cudaStreamNonBlocking);
///  - chunk c goes to stream c % nStreams: cudaMemcpyAsync in, the kernel,
///    cudaMemcpyAsync out; a final reduction kernel on stream 0 waits for
///    the others through cudaEventRecord / cudaStreamWaitEvent;
///  - the timing (cudaEventElapsedTime) goes to stderr only;
///  - the kernel transforms each element and adds the chunk's sum with one
///    atomicAdd per warp: `__shfl_down_sync(0xffffffff, v, offset)` from
///    16, `threadIdx.x & 31` to pick lane 0, and `threadIdx.x >> 5` to
///    index a shared array of warp sums for the second kernel.
///
/// Warp-32 assumptions: the 32-bit mask, the butterfly start 16, `& 31` and
/// `>> 5`, and `__shared__ long long warp_sums[32]`. Renamed only, for a
/// 64-lane wavefront: the mask does not compile on ROCm 6.2 and later; with
/// it widened, the shuffles from 16 only sum 32-lane halves and `& 31`
/// makes lanes 0 and 32 both leaders, so each half adds its own partial:
/// the per-warp atomics stay right, and so does the second kernel's
/// `>> 5` indexing (it still counts 32-lane groups). The stream, event and
/// pinned-memory calls map one to one onto HIP's.
///
/// All values are integers; the chunk outputs, the per-chunk sums and the
/// total are compared exactly.
///
//===----------------------------------------------------------------------===//

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err__ = (call);                                                \
    if (err__ != cudaSuccess) {                                                \
      fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #call, __FILE__,         \
              __LINE__, cudaGetErrorString(err__));                            \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

/// y = 3x - 7 over one chunk, and the chunk's sum of y added to *chunk_sum.
__global__ void transform_chunk(const int *__restrict__ x,
                                int *__restrict__ y, int n,
                                long long *chunk_sum) {
  long long sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    int v = 3 * x[i] - 7;
    y[i] = v;
    sum += v;
  }
  for (int offset = 16; offset > 0; offset >>= 1)
    sum += __shfl_down_sync(0xffffffff, sum, offset);
  if ((threadIdx.x & 31) == 0)
    atomicAdd((unsigned long long *)chunk_sum, (unsigned long long)sum);
}

/// One block: the sum of the chunk sums.
__global__ void sum_chunks(const long long *chunk_sums, int nChunks,
                           long long *total) {
  __shared__ long long warp_sums[32];
  long long v = 0;
  for (int c = threadIdx.x; c < nChunks; c += blockDim.x)
    v += chunk_sums[c];
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffff, v, offset);
  if ((threadIdx.x & 31) == 0)
    warp_sums[threadIdx.x >> 5] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    long long t = 0;
    for (int w = 0; w < (int)(blockDim.x >> 5); ++w)
      t += warp_sums[w];
    *total = t;
  }
}

int main() {
  const int n = 129999;
  const int nChunks = 16;
  const int nStreams = 4;
  const int chunkSize = (n + nChunks - 1) / nChunks; // last chunk is short
  const int blockSize = 256;

  int *h_x, *h_y;
  CUDA_CHECK(cudaMallocHost((void **)&h_x, n * sizeof(int)));
  CUDA_CHECK(cudaMallocHost((void **)&h_y, n * sizeof(int)));
  for (int i = 0; i < n; ++i)
    h_x[i] = (i * 13 + 5) % 1000 - 500;

  int *d_x, *d_y;
  long long *d_chunk_sums, *d_total;
  CUDA_CHECK(cudaMalloc((void **)&d_x, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc((void **)&d_y, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc((void **)&d_chunk_sums, nChunks * sizeof(long long)));
  CUDA_CHECK(cudaMalloc((void **)&d_total, sizeof(long long)));
  CUDA_CHECK(cudaMemset(d_chunk_sums, 0, nChunks * sizeof(long long)));
  // The streams below are non-blocking: they do not wait for the legacy
  // default stream, so finish the memset first.
  CUDA_CHECK(cudaDeviceSynchronize());

  cudaStream_t stream[nStreams];
  cudaEvent_t done[nStreams];
  for (int s = 0; s < nStreams; ++s) {
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream[s], cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreateWithFlags(&done[s], cudaEventDisableTiming));
  }
  cudaEvent_t startEvent, stopEvent;
  CUDA_CHECK(cudaEventCreate(&startEvent));
  CUDA_CHECK(cudaEventCreate(&stopEvent));

  CUDA_CHECK(cudaEventRecord(startEvent, stream[0]));
  for (int c = 0; c < nChunks; ++c) {
    const int s = c % nStreams;
    const int offset = c * chunkSize;
    const int count = (offset + chunkSize <= n) ? chunkSize : n - offset;
    const int grid = (count + blockSize - 1) / blockSize;
    CUDA_CHECK(cudaMemcpyAsync(&d_x[offset], &h_x[offset],
                               count * sizeof(int), cudaMemcpyHostToDevice,
                               stream[s]));
    transform_chunk<<<grid, blockSize, 0, stream[s]>>>(
        &d_x[offset], &d_y[offset], count, &d_chunk_sums[c]);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpyAsync(&h_y[offset], &d_y[offset],
                               count * sizeof(int), cudaMemcpyDeviceToHost,
                               stream[s]));
  }
  // Stream 0 sums the chunk sums once every stream is done.
  for (int s = 1; s < nStreams; ++s) {
    CUDA_CHECK(cudaEventRecord(done[s], stream[s]));
    CUDA_CHECK(cudaStreamWaitEvent(stream[0], done[s], 0));
  }
  sum_chunks<<<1, 128, 0, stream[0]>>>(d_chunk_sums, nChunks, d_total);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(stopEvent, stream[0]));
  CUDA_CHECK(cudaEventSynchronize(stopEvent));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, startEvent, stopEvent));
  fprintf(stderr, "pipeline of %d chunks on %d streams: %f ms\n", nChunks,
          nStreams, ms);

  for (int s = 0; s < nStreams; ++s)
    CUDA_CHECK(cudaStreamSynchronize(stream[s]));

  std::vector<long long> chunk_sums(nChunks);
  long long total = 0;
  CUDA_CHECK(cudaMemcpy(chunk_sums.data(), d_chunk_sums,
                        nChunks * sizeof(long long), cudaMemcpyDeviceToHost));
  CUDA_CHECK(
      cudaMemcpy(&total, d_total, sizeof(long long), cudaMemcpyDeviceToHost));

  bool ok = true;
  long long want_total = 0;
  for (int c = 0; c < nChunks && ok; ++c) {
    const int offset = c * chunkSize;
    const int count = (offset + chunkSize <= n) ? chunkSize : n - offset;
    long long want = 0;
    for (int i = offset; i < offset + count; ++i) {
      const int v = 3 * h_x[i] - 7;
      want += v;
      if (h_y[i] != v) {
        printf("FAIL: y[%d] = %d, expected %d\n", i, h_y[i], v);
        ok = false;
        break;
      }
    }
    want_total += want;
    if (ok && chunk_sums[c] != want) {
      printf("FAIL: chunk %d sum %lld, expected %lld\n", c, chunk_sums[c],
             want);
      ok = false;
    }
  }
  if (ok && total != want_total) {
    printf("FAIL: total %lld, expected %lld\n", total, want_total);
    ok = false;
  }
  long long chunk_checksum = 0;
  for (int c = 0; c < nChunks; ++c)
    chunk_checksum += chunk_sums[c] * (c + 1);
  printf("pipeline: n = %d in %d chunks of %d\n", n, nChunks, chunkSize);
  printf("pipeline: total = %lld, chunk checksum = %lld\n", total,
         chunk_checksum);

  for (int s = 0; s < nStreams; ++s) {
    CUDA_CHECK(cudaStreamDestroy(stream[s]));
    CUDA_CHECK(cudaEventDestroy(done[s]));
  }
  CUDA_CHECK(cudaEventDestroy(startEvent));
  CUDA_CHECK(cudaEventDestroy(stopEvent));
  CUDA_CHECK(cudaFreeHost(h_x));
  CUDA_CHECK(cudaFreeHost(h_y));
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  CUDA_CHECK(cudaFree(d_chunk_sums));
  CUDA_CHECK(cudaFree(d_total));
  if (!ok)
    return 1;
  printf("PASS\n");
  return 0;
}
