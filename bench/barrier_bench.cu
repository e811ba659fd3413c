//===- bench/barrier_bench.cu - hpp::Barrier vs __syncthreads -------------===//
//
// Part of hpp-rewrite. Benchmark.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Cost of one block-scope barrier step, in one process: 64 Ki work-items
/// in work-groups of 256, `steps` (default 10,000) steps of a neighbour
/// exchange through shared memory, each step two barriers:
///
///   v = s[(t + 1) % 256];  BARRIER;  s[t] = v + 1;  BARRIER;
///
/// with BARRIER = `__syncthreads()` (the anchor), hpp::Barrier::wait() as
/// rewritten code calls it (runtime/hpp/barrier.h: cuda::barrier in shared
/// memory, bound in the kernel's prologue), and a raw
/// cuda::barrier::arrive_and_wait() for reference. Medians of `runs`
/// (default 20) timed launches after 3 warm-ups, interleaved; reports
/// microseconds per step and each one's ratio to __syncthreads, and checks
/// that every version computes the same array.
///
///   nvcc -std=c++17 -O3 -arch=sm_90 -I runtime -I include \
///        bench/barrier_bench.cu -o barrier_bench
///   ./barrier_bench [steps=10000] [runs=20]
///
//===----------------------------------------------------------------------===//

#include <hpp/runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr unsigned Items = 64 * 1024;
constexpr unsigned Group = 256;

enum Kind { SyncThreads, HppBarrier, CudaBarrier };

/// One barrier of kind \p K.
template <Kind K>
__device__ void barrier(hpp::Barrier &B,
                        hpp::detail::BlockBarrierStorage &Storage) {
  if (K == SyncThreads)
    __syncthreads();
  else if (K == HppBarrier)
    B.wait();
  else
    Storage.get()->arrive_and_wait();
}

template <Kind K>
__global__ void stepKernel(int *Out, int Steps, hpp::Barrier B) {
  __shared__ hpp::detail::BlockBarrierStorage Storage;
  __shared__ int S[Group];
  if (K == HppBarrier)
    B.attach(Storage);
  if (K == CudaBarrier) {
    if (threadIdx.x == 0)
      init(Storage.get(), Group);
    __syncthreads();
  }
  const unsigned T = threadIdx.x;
  S[T] = int(blockIdx.x * Group + T);
  __syncthreads();
  for (int Step = 0; Step < Steps; ++Step) {
    int V = S[(T + 1) % Group];
    barrier<K>(B, Storage);
    S[T] = V + 1;
    barrier<K>(B, Storage);
  }
  Out[blockIdx.x * Group + T] = S[T];
}

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return V[V.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  const int Steps = argc > 1 ? std::atoi(argv[1]) : 10000;
  const int Runs = argc > 2 ? std::atoi(argv[2]) : 20;
  if (Steps <= 0 || Runs <= 0) {
    std::fprintf(stderr, "usage: %s [steps>0] [runs>0]\n", argv[0]);
    return 2;
  }
  try {
    cudaDeviceProp Prop;
    HPP_CHECK(cudaGetDeviceProperties(&Prop, 0));
    std::printf("device: %s (%d SMs), %u work-items in groups of %u, %d "
                "steps of 2 barriers, %d timed runs each\n",
                Prop.name, Prop.multiProcessorCount, Items, Group, Steps,
                Runs);
    int *Out[3];
    for (int *&O : Out)
      HPP_CHECK(cudaMalloc(&O, Items * sizeof(int)));
    hpp::Barrier B(Group);
    cudaEvent_t Start, Stop;
    HPP_CHECK(cudaEventCreate(&Start));
    HPP_CHECK(cudaEventCreate(&Stop));
    auto Launch = [&](int K) {
      if (K == SyncThreads)
        stepKernel<SyncThreads><<<Items / Group, Group>>>(Out[0], Steps, B);
      else if (K == HppBarrier)
        stepKernel<HppBarrier><<<Items / Group, Group>>>(Out[1], Steps, B);
      else
        stepKernel<CudaBarrier><<<Items / Group, Group>>>(Out[2], Steps, B);
      HPP_CHECK(cudaGetLastError());
    };
    auto Time = [&](int K) {
      HPP_CHECK(cudaEventRecord(Start));
      Launch(K);
      HPP_CHECK(cudaEventRecord(Stop));
      HPP_CHECK(cudaEventSynchronize(Stop));
      float Ms = 0;
      HPP_CHECK(cudaEventElapsedTime(&Ms, Start, Stop));
      return double(Ms);
    };
    for (int R = 0; R < 3; ++R)
      for (int K = 0; K < 3; ++K)
        Time(K);
    std::vector<double> Ms[3];
    for (int R = 0; R < Runs; ++R)
      for (int Slot = 0; Slot < 3; ++Slot) {
        int K = (R + Slot) % 3;
        Ms[K].push_back(Time(K));
      }
    std::vector<int> Host[3];
    for (int K = 0; K < 3; ++K) {
      Host[K].resize(Items);
      HPP_CHECK(cudaMemcpy(Host[K].data(), Out[K], Items * sizeof(int),
                           cudaMemcpyDeviceToHost));
    }
    const bool Same = Host[0] == Host[1] && Host[0] == Host[2];
    const char *Names[3] = {"__syncthreads()          ",
                            "hpp::Barrier::wait()     ",
                            "cuda::barrier (raw)      "};
    const double Anchor = median(Ms[0]) * 1e3 / Steps;
    for (int K = 0; K < 3; ++K) {
      const double Us = median(Ms[K]) * 1e3 / Steps;
      std::printf("%s: %.4f us/step, ratio to __syncthreads %.3f\n", Names[K],
                  Us, Us / Anchor);
    }
    std::printf("results: %s\n", Same ? "identical" : "DIFFERENT");
    for (int *O : Out)
      HPP_CHECK(cudaFree(O));
    return Same ? 0 : 1;
  } catch (const hpp::RuntimeError &E) {
    std::fprintf(stderr, "RuntimeError: %s\n", E.what());
    return 1;
  }
}
