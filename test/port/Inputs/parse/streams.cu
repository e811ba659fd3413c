// Streams: launches with four config arguments on created streams and on the
// default stream spelled 0, NULL and nullptr; async copies and events
// ordering the streams.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x) checkCuda((x), #x, __LINE__)
static void checkCuda(cudaError_t e, const char *what, int line) {
  if (e != cudaSuccess)
    fprintf(stderr, "line %d: %s: %s\n", line, what, cudaGetErrorString(e));
}

__global__ void increment(int *a, int n, int by) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    a[i] += by;
}

int main() {
  const int nStreams = 4, n = 1 << 16, chunk = n / nStreams;
  int *h = nullptr, *d = nullptr;
  CHECK(cudaMallocHost(&h, n * sizeof(int)));
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  cudaStream_t streams[nStreams];
  for (int s = 0; s < nStreams; ++s)
    CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
  cudaStream_t extra;
  CHECK(cudaStreamCreate(&extra));
  for (int s = 0; s < nStreams; ++s) {
    int off = s * chunk;
    CHECK(cudaMemcpyAsync(d + off, h + off, chunk * sizeof(int),
                          cudaMemcpyHostToDevice, streams[s]));
    increment<<<chunk / 256, 256, 0, streams[s]>>>(d + off, chunk, 1);
    CHECK(cudaMemcpyAsync(h + off, d + off, chunk * sizeof(int),
                          cudaMemcpyDeviceToHost, streams[s]));
  }
  cudaEvent_t done;
  CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
  CHECK(cudaEventRecord(done, streams[0]));
  CHECK(cudaStreamWaitEvent(extra, done, 0));
  increment<<<64, 256, 0, extra>>>(d, n, 2);
  increment<<<64, 256, 0, 0>>>(d, n, 3);
  increment<<<64, 256, 0, NULL>>>(d, n, 4);
  increment<<<64, 256, 0, nullptr>>>(d, n, 5);
  increment<<<64, 256, 0, cudaStreamPerThread>>>(d, n, 6);
  CHECK(cudaMemsetAsync(d, 0, sizeof(int), extra));
  if (cudaStreamQuery(extra) == cudaErrorNotReady)
    CHECK(cudaStreamSynchronize(extra));
  for (int s = 0; s < nStreams; ++s)
    CHECK(cudaStreamDestroy(streams[s]));
  CHECK(cudaStreamDestroy(extra));
  CHECK(cudaEventDestroy(done));
  CHECK(cudaFreeHost(h));
  CHECK(cudaFree(d));
  return 0;
}
