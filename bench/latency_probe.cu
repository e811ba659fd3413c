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
///    true in the middle of a producer).
/// Each printed as the median of Runs, in ns.
///
/// usage: latency_probe [Runs] [GapNs] [DelayNs]
///
//===----------------------------------------------------------------------===//
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(X)                                                               \
  do {                                                                         \
    cudaError_t E = (X);                                                       \
    if (E != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(E));                                     \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

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
};

static double runVariant(const Variant &V, Slot *S, unsigned long long *Gap,
                         cudaStream_t Stream, int Runs, unsigned &Epoch) {
  std::vector<double> G;
  for (int R = 0; R < Runs + 10; ++R) {
    ++Epoch;
    producer<<<1, 32, 0, Stream>>>(S, V.Trigger, V.DelayNs, Epoch);
    spinHost(V.HostGapNs);
    if (V.Pdl) {
      cudaLaunchAttribute A[1];
      A[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
      A[0].val.programmaticStreamSerializationAllowed = 1;
      cudaLaunchConfig_t C = {};
      C.gridDim = dim3(1);
      C.blockDim = dim3(32);
      C.stream = Stream;
      C.attrs = A;
      C.numAttrs = 1;
      const Slot *SC = S;
      CHECK(cudaLaunchKernelEx(&C, consumer, SC, Gap, V.Wait, Epoch));
    } else {
      consumer<<<1, 32, 0, Stream>>>(S, Gap, V.Wait, Epoch);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(Stream));
    unsigned long long H = 0;
    CHECK(cudaMemcpy(&H, Gap, sizeof H, cudaMemcpyDeviceToHost));
    if (R >= 10)
      G.push_back(double(H));
  }
  std::sort(G.begin(), G.end());
  return G[G.size() / 2];
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
  cudaStream_t Stream;
  CHECK(cudaStreamCreate(&Stream));
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
  };
  unsigned Epoch = 0;
  // Three rounds, interleaved, so that the process's drift shows.
  for (int Round = 0; Round < 3; ++Round)
    for (const Variant &V : Vs)
      std::printf("round %d %-16s %8.0f ns\n", Round, V.Name,
                  runVariant(V, S, Gap, Stream, Runs, Epoch));
  CHECK(cudaFree(S));
  CHECK(cudaFree(Gap));
  return 0;
}
