//===- bench/latency_probe.cu - Raw "write -> next kernel running" gaps ---===//
//
// Part of hpp-rewrite. Benchmark.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The floor under a channel's "predicate true -> consumer running"
/// latency, in plain CUDA: kernel A (one warp) stores the global timer
/// (the "write"), kernel B (one warp) stores the time from that store to
/// its own start. Variants:
///  - plain: A and B launched back to back with <<<>>>;
///  - pdl-after: B a programmatic dependent launch, A triggers its
///    dependents after the store, B waits with griddepcontrol.wait;
///  - pdl-start: the same, A triggers at its start;
///  - pdl-poll: A triggers at its start, B spins on a flag that A sets
///    after the store (release/acquire), no griddepcontrol.wait;
///  - *-gap: the host spends GapNs between the two launch calls;
///  - late-*: A spins DelayNs before its store (a predicate that becomes
///    true in the middle of a producer);
///  - graph, graph-pdl: A and B as two kernel nodes of one CUDA graph,
///    instantiated once; each run sets both nodes' arguments
///    (cudaGraphExecKernelNodeSetParams) and launches the graph. graph-pdl
///    captures the pdl-after pair, so the edge is programmatic;
///  - capture, capture-pdl: each run captures the pair's launches
///    (stream capture), updates one instantiated graph with the capture
///    (cudaGraphExecUpdate) and launches it;
///  - waitvalue: B is launched first, on a second stream, behind a
///    cuStreamWaitValue32 on the flag; A on the first stream; B polls
///    nothing (the wait released it after A's store).
/// Each printed as the median of Runs, in ns, with the median host time of
/// one run (from the first launch call to the synchronise's return).
///
/// build: nvcc -O3 -arch=sm_90 bench/latency_probe.cu -lcuda
///
/// usage: latency_probe [Runs] [GapNs] [DelayNs]
///
//===----------------------------------------------------------------------===//
#include "bench_util.cuh"
#include "pdl_launch.cuh"

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(X) BENCH_CHECK(X)

__device__ inline unsigned long long now() {
  unsigned long long T;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(T));
  return T;
}

struct Slot {
  unsigned long long Stamp;
  unsigned Flag;
};

/// Trigger: 0 never, 1 after the store, 2 at the start.
__global__ void producer(Slot *S, int Trigger, unsigned long long DelayNs,
                         unsigned Epoch) {
  if (Trigger == 2)
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  if (threadIdx.x == 0) {
    if (DelayNs) {
      const unsigned long long T0 = now();
      while (now() - T0 < DelayNs) {
      }
    }
    S->Stamp = now();
    __threadfence();
    asm volatile("st.release.gpu.u32 [%0], %1;" ::"l"(&S->Flag), "r"(Epoch)
                 : "memory");
  }
  if (Trigger == 1)
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

/// Wait: 0 none, 1 griddepcontrol.wait, 2 spin on the flag.
__global__ void consumer(const Slot *S, unsigned long long *Gap, int Wait,
                         unsigned Epoch) {
  if (Wait == 1)
    asm volatile("griddepcontrol.wait;" ::: "memory");
  if (Wait == 2) {
    unsigned F;
    do {
      asm volatile("ld.acquire.gpu.u32 %0, [%1];"
                   : "=r"(F)
                   : "l"(&S->Flag)
                   : "memory");
    } while (F != Epoch);
  }
  const unsigned long long T = now();
  if (threadIdx.x == 0)
    *Gap = T - S->Stamp;
}

static void spinHost(long Ns) {
  if (Ns <= 0)
    return;
  const auto T0 = std::chrono::steady_clock::now();
  while (std::chrono::duration<double, std::nano>(
             std::chrono::steady_clock::now() - T0)
             .count() < Ns) {
  }
}

struct Variant {
  const char *Name;
  int Trigger, Wait;
  bool Pdl;
  long HostGapNs;
  unsigned long long DelayNs;
  int Kind = 0; // 0 stream launches, 1 graph, 2 graph-pdl, 3 waitvalue.
};

/// The pair launched on \p Stream, the host spending \p GapNs between the
/// two calls; the consumer a programmatic dependent launch with \p Pdl.
static void launchPair(const Variant &V, Slot *S, unsigned long long *Gap,
                       cudaStream_t Stream, unsigned Epoch, bool Pdl,
                       long GapNs = 0) {
  producer<<<1, 32, 0, Stream>>>(S, V.Trigger, V.DelayNs, Epoch);
  spinHost(GapNs);
  if (!Pdl) {
    consumer<<<1, 32, 0, Stream>>>(S, Gap, V.Wait, Epoch);
    return;
  }
  CHECK(launchPdl(consumer, dim3(1), dim3(32), Stream,
                  static_cast<const Slot *>(S), Gap, V.Wait, Epoch));
}

/// The pair as an instantiated graph (Kind 1: plain edge; 2: captured
/// programmatic launch).
static cudaGraphExec_t makeGraph(const Variant &V, Slot *S,
                                 unsigned long long *Gap, cudaStream_t Stream,
                                 cudaGraphNode_t Nodes[2]) {
  cudaGraph_t G;
  CHECK(cudaStreamBeginCapture(Stream, cudaStreamCaptureModeThreadLocal));
  launchPair(V, S, Gap, Stream, 0, V.Kind == 2);
  CHECK(cudaStreamEndCapture(Stream, &G));
  size_t N = 0;
  CHECK(cudaGraphGetNodes(G, nullptr, &N));
  if (N != 2) {
    std::fprintf(stderr, "graph: %zu nodes\n", N);
    std::exit(1);
  }
  CHECK(cudaGraphGetNodes(G, Nodes, &N));
  cudaGraphExec_t E;
  CHECK(cudaGraphInstantiate(&E, G, 0));
  // Nodes of G name the exec's nodes in SetParams.
  return E;
}

/// Sets the pair's arguments for \p Epoch, as a runtime would per launch.
static void setGraphParams(cudaGraphExec_t E, cudaGraphNode_t Nodes[2],
                           const Variant &V, Slot *S, unsigned long long *Gap,
                           unsigned Epoch) {
  int Trigger = V.Trigger, Wait = V.Wait;
  unsigned long long Delay = V.DelayNs;
  const Slot *SC = S;
  void *PA[] = {&S, &Trigger, &Delay, &Epoch};
  void *CA[] = {&SC, &Gap, &Wait, &Epoch};
  for (int I = 0; I < 2; ++I) {
    cudaKernelNodeParams P = {};
    CHECK(cudaGraphKernelNodeGetParams(Nodes[I], &P));
    P.kernelParams = P.func == reinterpret_cast<void *>(producer) ? PA : CA;
    CHECK(cudaGraphExecKernelNodeSetParams(E, Nodes[I], &P));
  }
}

struct Result {
  double GapNs, HostNs;
};

static Result runVariant(const Variant &V, Slot *S, unsigned long long *Gap,
                         cudaStream_t Stream, cudaStream_t Second, int Runs,
                         unsigned &Epoch) {
  std::vector<double> G, H;
  cudaGraphNode_t Nodes[2];
  cudaGraphExec_t Exec = nullptr, Captured = nullptr;
  if (V.Kind == 1 || V.Kind == 2)
    Exec = makeGraph(V, S, Gap, Stream, Nodes);
  for (int R = 0; R < Runs + 10; ++R) {
    ++Epoch;
    const auto T0 = std::chrono::steady_clock::now();
    if (V.Kind == 4 || V.Kind == 5) {
      cudaGraph_t CG;
      CHECK(cudaStreamBeginCapture(Stream, cudaStreamCaptureModeThreadLocal));
      launchPair(V, S, Gap, Stream, Epoch, V.Kind == 5);
      CHECK(cudaStreamEndCapture(Stream, &CG));
      cudaGraphExecUpdateResultInfo Info;
      if (!Captured) {
        CHECK(cudaGraphInstantiate(&Captured, CG, 0));
      } else if (cudaGraphExecUpdate(Captured, CG, &Info) != cudaSuccess) {
        std::fprintf(stderr, "cudaGraphExecUpdate failed\n");
        std::exit(1);
      }
      CHECK(cudaGraphLaunch(Captured, Stream));
      CHECK(cudaGraphDestroy(CG));
    } else if (Exec) {
      setGraphParams(Exec, Nodes, V, S, Gap, Epoch);
      CHECK(cudaGraphLaunch(Exec, Stream));
    } else if (V.Kind == 3) {
      CUdeviceptr Flag = CUdeviceptr(&S->Flag);
      if (cuStreamWaitValue32(CUstream(Second), Flag, Epoch,
                              CU_STREAM_WAIT_VALUE_EQ) != CUDA_SUCCESS) {
        std::fprintf(stderr, "cuStreamWaitValue32 failed\n");
        std::exit(1);
      }
      consumer<<<1, 32, 0, Second>>>(S, Gap, 0, Epoch);
      producer<<<1, 32, 0, Stream>>>(S, V.Trigger, V.DelayNs, Epoch);
    } else {
      launchPair(V, S, Gap, Stream, Epoch, V.Pdl, V.HostGapNs);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(Stream));
    CHECK(cudaStreamSynchronize(Second));
    const auto T1 = std::chrono::steady_clock::now();
    unsigned long long Ns = 0;
    CHECK(cudaMemcpy(&Ns, Gap, sizeof Ns, cudaMemcpyDeviceToHost));
    if (R >= 10) {
      G.push_back(double(Ns));
      H.push_back(std::chrono::duration<double, std::nano>(T1 - T0).count());
    }
  }
  if (Exec)
    CHECK(cudaGraphExecDestroy(Exec));
  if (Captured)
    CHECK(cudaGraphExecDestroy(Captured));
  std::sort(G.begin(), G.end());
  std::sort(H.begin(), H.end());
  return {G[G.size() / 2], H[H.size() / 2]};
}

int main(int argc, char **argv) {
  const int Runs = argc > 1 ? std::atoi(argv[1]) : 200;
  const long GapNs = argc > 2 ? std::atol(argv[2]) : 2000;
  const unsigned long long DelayNs = argc > 3 ? std::atoll(argv[3]) : 20000;
  Slot *S = nullptr;
  unsigned long long *Gap = nullptr;
  CHECK(cudaMalloc(&S, sizeof(Slot)));
  CHECK(cudaMemset(S, 0, sizeof(Slot)));
  CHECK(cudaMalloc(&Gap, sizeof(unsigned long long)));
  cudaStream_t Stream, Second;
  CHECK(cudaStreamCreate(&Stream));
  CHECK(cudaStreamCreate(&Second));
  const Variant Vs[] = {
      {"plain", 0, 0, false, 0, 0},
      {"pdl-after", 1, 1, true, 0, 0},
      {"pdl-start", 2, 1, true, 0, 0},
      {"pdl-poll", 2, 2, true, 0, 0},
      {"plain-gap", 0, 0, false, GapNs, 0},
      {"pdl-after-gap", 1, 1, true, GapNs, 0},
      {"pdl-poll-gap", 2, 2, true, GapNs, 0},
      {"late-plain", 0, 0, false, 0, DelayNs},
      {"late-pdl-after", 1, 1, true, 0, DelayNs},
      {"late-pdl-start", 2, 1, true, 0, DelayNs},
      {"late-pdl-poll", 2, 2, true, 0, DelayNs},
      {"graph", 0, 0, false, 0, 0, 1},
      {"graph-pdl", 1, 1, true, 0, 0, 2},
      {"waitvalue", 0, 0, false, 0, 0, 3},
      {"late-graph", 0, 0, false, 0, DelayNs, 1},
      {"late-graph-pdl", 1, 1, true, 0, DelayNs, 2},
      {"late-waitvalue", 0, 0, false, 0, DelayNs, 3},
      {"capture", 0, 0, false, 0, 0, 4},
      {"capture-pdl", 1, 1, true, 0, 0, 5},
      {"late-capture-pdl", 1, 1, true, 0, DelayNs, 5},
  };
  unsigned Epoch = 0;
  // Three rounds, interleaved, so that the process's drift shows.
  for (int Round = 0; Round < 3; ++Round)
    for (const Variant &V : Vs) {
      const Result Res = runVariant(V, S, Gap, Stream, Second, Runs, Epoch);
      std::printf("round %d %-16s %8.0f ns   host %8.0f ns\n", Round, V.Name,
                  Res.GapNs, Res.HostNs);
    }
  CHECK(cudaFree(S));
  CHECK(cudaFree(Gap));
  return 0;
}
