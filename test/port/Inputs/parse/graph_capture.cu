// A CUDA graph captured from a stream, instantiated and launched several
// times, with a host function enqueued in the stream.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void step(float *x, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += dt * x[i];
}

static void CUDART_CB report(void *userData) {
  printf("iteration %d enqueued\n", *(int *)userData);
}

int main() {
  const int n = 1 << 16;
  float *x;
  cudaMalloc(&x, n * sizeof(float));
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  int iteration = 0;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  for (int k = 0; k < 10; ++k)
    step<<<n / 256, 256, 0, s>>>(x, n, 0.01f);
  cudaLaunchHostFunc(s, report, &iteration);
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  for (iteration = 0; iteration < 3; ++iteration)
    cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(s);
  cudaFree(x);
  return 0;
}
