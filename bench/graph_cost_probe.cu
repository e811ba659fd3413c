//===- bench/graph_cost_probe.cu - What a graph costs a long producer -----===//
//
// Part of hpp-rewrite. Benchmark.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A producer as long as the paper's channel reduction (264 work-groups of
/// 512 that sum 2^28 floats into 264 values) and a one-work-group consumer
/// behind it (a programmatic dependent launch that sums the 264), timed
/// with events on their stream around the submission, four ways:
///  - stream: the two launch calls, one after the other;
///  - graph: one graph of the two, instantiated once; each run sets both
///    nodes' arguments (cudaGraphExecKernelNodeSetParams) and launches it
///    (what hpp/launch_graph.h does);
///  - graph-same: the same graph launched again without setting anything;
///  - stream-1: the producer alone, one launch call (the floor).
/// Medians of Runs, three interleaved rounds, in us.
///
/// build: nvcc -O3 -arch=sm_90 bench/graph_cost_probe.cu
/// usage: graph_cost_probe [Runs]
///
//===----------------------------------------------------------------------===//
#include "bench_util.cuh"
#include "pdl_launch.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(X) BENCH_CHECK(X)

/// The sum of \p V over a work-group of 512 (a power of two).
__device__ float blockSum(float V) {
  __shared__ float Part[512];
  Part[threadIdx.x] = V;
  __syncthreads();
  for (unsigned W = blockDim.x / 2; W; W /= 2) {
    if (threadIdx.x < W)
      Part[threadIdx.x] += Part[threadIdx.x + W];
    __syncthreads();
  }
  return Part[0];
}

__global__ void producer(const float *In, size_t N, float *Sums) {
  float S = 0;
  for (size_t I = blockIdx.x * size_t(blockDim.x) + threadIdx.x; I < N;
       I += size_t(gridDim.x) * blockDim.x)
    S += In[I];
  const float Total = blockSum(S);
  if (threadIdx.x == 0)
    Sums[blockIdx.x] = Total;
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

__global__ void consumer(const float *Sums, unsigned G, float *Out) {
  asm volatile("griddepcontrol.wait;" ::: "memory");
  const float Total = blockSum(threadIdx.x < G ? Sums[threadIdx.x] : 0.f);
  if (threadIdx.x == 0)
    *Out = Total;
}

struct Args {
  const float *In;
  size_t N;
  float *Sums;
  unsigned G;
  float *Out;
};

static void launchPair(const Args &A, cudaStream_t S, bool Consumer) {
  producer<<<A.G, 512, 0, S>>>(A.In, A.N, A.Sums);
  if (!Consumer)
    return;
  CHECK(launchPdl(consumer, dim3(1), dim3(512), S,
                  static_cast<const float *>(A.Sums), A.G, A.Out));
}

int main(int argc, char **argv) {
  const int Runs = argc > 1 ? std::atoi(argv[1]) : 50;
  Args A;
  A.N = size_t(1) << 28;
  A.G = 264;
  float *In, *Sums, *Out;
  CHECK(cudaMalloc(&In, A.N * sizeof(float)));
  CHECK(cudaMemset(In, 0, A.N * sizeof(float)));
  CHECK(cudaMalloc(&Sums, A.G * sizeof(float)));
  CHECK(cudaMalloc(&Out, sizeof(float)));
  A.In = In;
  A.Sums = Sums;
  A.Out = Out;
  cudaStream_t S;
  CHECK(cudaStreamCreate(&S));
  // The graph, from a capture of the pair; its two nodes by kernel.
  cudaGraph_t G;
  CHECK(cudaStreamBeginCapture(S, cudaStreamCaptureModeThreadLocal));
  launchPair(A, S, true);
  CHECK(cudaStreamEndCapture(S, &G));
  cudaGraphNode_t Nodes[2];
  size_t NN = 2;
  CHECK(cudaGraphGetNodes(G, Nodes, &NN));
  cudaGraphExec_t E;
  CHECK(cudaGraphInstantiate(&E, G, 0));
  // Each node's parameters, as a runtime would pass them every launch.
  const float *Sp = A.Sums;
  void *PP[] = {&A.In, &A.N, &A.Sums};
  void *CP[] = {&Sp, &A.G, &A.Out};
  cudaKernelNodeParams Params[2];
  for (int I = 0; I < 2; ++I) {
    Params[I] = {};
    CHECK(cudaGraphKernelNodeGetParams(Nodes[I], &Params[I]));
    Params[I].kernelParams =
        Params[I].func == reinterpret_cast<void *>(producer) ? PP : CP;
  }
  cudaEvent_t T0, T1;
  CHECK(cudaEventCreate(&T0));
  CHECK(cudaEventCreate(&T1));
  const char *Names[] = {"stream", "graph", "graph-same", "stream-1"};
  for (int Round = 0; Round < 3; ++Round) {
    std::vector<float> Ms[4];
    for (int R = 0; R < Runs + 3; ++R)
      for (int M = 0; M < 4; ++M) {
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaEventRecord(T0, S));
        if (M == 0 || M == 3) {
          launchPair(A, S, M == 0);
        } else {
          if (M == 1)
            for (int I = 0; I < 2; ++I)
              CHECK(cudaGraphExecKernelNodeSetParams(E, Nodes[I], &Params[I]));
          CHECK(cudaGraphLaunch(E, S));
        }
        CHECK(cudaEventRecord(T1, S));
        CHECK(cudaEventSynchronize(T1));
        float Elapsed = 0;
        CHECK(cudaEventElapsedTime(&Elapsed, T0, T1));
        if (R >= 3)
          Ms[M].push_back(Elapsed * 1000.f);
      }
    for (int M = 0; M < 4; ++M) {
      std::sort(Ms[M].begin(), Ms[M].end());
      std::printf("round %d %-11s %9.2f us\n", Round, Names[M],
                  Ms[M][Ms[M].size() / 2]);
    }
  }
  return 0;
}
