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
/// with BARRIER = `__syncthreads()` (the anchor); hpp::Barrier::wait() as
/// rewritten code calls it when hpp-rewrite proves the kernel only waits on
/// the barrier (detail::WaitOnlyBarrier<GroupScope>: the named hardware barrier
/// 1); the same barrier when the kernel may also arrive() or skip() (the
/// split barrier: cuda::barrier in shared memory), as Barrier::wait() is
/// now and with each kind of launch-wide split barrier (GridSplitKind,
/// hpp/grid_barrier.h) inlined beside it, as wait() inlines the runtime's
/// choice: the work-group path is the same code, only what the compiler
/// makes of the loop around it differs (GridSplitFenced is the code as it
/// was measured before); with the arrival written out in PTX
/// (BlockWaitPtx; BlockSplitKind is the runtime's choice); with the runtime's
/// launch-wide kind (LaunchSplitKind) placed each way wait() can place it
/// (WaitScopeLayout, hpp/barrier.h: inline, inline behind an unlikely
/// branch, or an out-of-line call never taken here; BarrierWaitLayout is the
/// runtime's choice, the kinds above are inline); and a raw
/// cuda::barrier::arrive_and_wait() for reference. Medians of `runs` (default
/// 20) timed launches after 3 warm-ups, interleaved; reports microseconds per
/// step and each one's ratio to __syncthreads, and checks that every version
/// computes the same array as __syncthreads.
///
///   nvcc -std=c++17 -O3 -arch=sm_90 -I runtime -I include \
///        bench/barrier_bench.cu -o barrier_bench
///   ./barrier_bench [steps=10000] [runs=20]
///
/// No hardware (named) barrier serves a barrier that may also arrive() or
/// skip(): PTX's `barrier.arrive` waits for the non-exited threads of its
/// warp and counts whole warps, so a lane's arrive() would wait for lanes
/// that may be waiting for it, a skip() could not withdraw from later
/// phases, and a wait could not tell a deadlock (hpp/barrier.h).
///
//===----------------------------------------------------------------------===//

#include <hpp/runtime.h>

#include "step_timing.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr unsigned Items = 64 * 1024;
constexpr unsigned Group = 256;

enum Kind {
  SyncThreads,
  HppWaitOnly,
  HppBarrier,
  HppFenced,
  HppAcqRel,
  HppCombined,
  HppPtx,
  HppInline,
  HppExpect,
  HppCall,
  CudaBarrier,
  NumKinds
};

/// hpp::Barrier::waitAs<K, BlockK, Layout>, as a barrier with a wait().
template <int K, int BlockK = hpp::detail::BlockSplitKind,
          int Layout = hpp::detail::BarrierWaitLayout>
struct SplitAs {
  hpp::Barrier &B;
  __device__ void wait() { B.waitAs<K, BlockK, Layout>(); }
};

/// The benchmark's loop, with barrier \p B (anything with a wait()).
template <class BarrierT>
__device__ void steps(int *Out, int Steps, int *S, BarrierT &B) {
  const unsigned T = threadIdx.x;
  S[T] = int(blockIdx.x * Group + T);
  __syncthreads();
  for (int Step = 0; Step < Steps; ++Step) {
    int V = S[(T + 1) % Group];
    B.wait();
    S[T] = V + 1;
    B.wait();
  }
  Out[blockIdx.x * Group + T] = S[T];
}

struct SyncThreadsBarrier {
  __device__ void wait() { __syncthreads(); }
};
struct RawCudaBarrier {
  hpp::detail::BlockBarrier *B;
  __device__ void wait() { B->arrive_and_wait(); }
};

/// Binds the barrier of kind \p K as rewritten code (or, for the anchors,
/// hand-written code) does, and runs the loop.
template <Kind K>
__global__ void stepKernel(int *Out, int Steps, hpp::Barrier Handle) {
  __shared__ hpp::detail::BlockBarrierStorage Storage;
  __shared__ int S[Group];
  if constexpr (K == SyncThreads) {
    SyncThreadsBarrier B;
    steps(Out, Steps, S, B);
  } else if constexpr (K == HppWaitOnly) {
    hpp::detail::WaitOnlyBarrier<hpp::detail::GroupScope> B(Handle, Storage);
    steps(Out, Steps, S, B);
  } else if constexpr (K == HppBarrier) {
    Handle.attach(Storage);
    steps(Out, Steps, S, Handle);
  } else if constexpr (K == HppFenced || K == HppAcqRel || K == HppCombined) {
    Handle.attach(Storage);
    SplitAs<K == HppFenced   ? hpp::detail::GridSplitFenced
            : K == HppAcqRel ? hpp::detail::GridSplitAcqRel
                             : hpp::detail::GridSplitCombined,
            hpp::detail::BlockSplitKind, hpp::detail::WaitScopeInline>
        B{Handle};
    steps(Out, Steps, S, B);
  } else if constexpr (K == HppPtx) {
    Handle.attach(Storage);
    SplitAs<hpp::detail::LaunchSplitKind, hpp::detail::BlockWaitPtx> B{Handle};
    steps(Out, Steps, S, B);
  } else if constexpr (K == HppInline || K == HppExpect || K == HppCall) {
    Handle.attach(Storage);
    SplitAs<hpp::detail::LaunchSplitKind, hpp::detail::BlockSplitKind,
            K == HppInline   ? hpp::detail::WaitScopeInline
            : K == HppExpect ? hpp::detail::WaitScopeExpect
                             : hpp::detail::WaitScopeCall>
        B{Handle};
    steps(Out, Steps, S, B);
  } else {
    if (threadIdx.x == 0)
      init(Storage.get(), Group);
    __syncthreads();
    RawCudaBarrier B{Storage.get()};
    steps(Out, Steps, S, B);
  }
}

} // namespace

int main(int argc, char **argv) {
  int Steps, Runs;
  if (!bench::parseStepsRuns(argc, argv, Steps, Runs))
    return 2;
  try {
    bench::printSetup(Items, Group, Steps, "barriers", Runs);
    int *Out[NumKinds];
    for (int *&O : Out)
      HPP_CHECK(cudaMalloc(&O, Items * sizeof(int)));
    hpp::Barrier B(Group);
    // What launchKernel picks for rewritten code (hpp/launch.h).
    if (hpp::detail::waitOnlyVariants(stepKernel<HppBarrier>,
                                      stepKernel<HppWaitOnly>,
                                      stepKernel<HppBarrier>, B)
            .pick(Group, Items) != hpp::detail::GroupScope) {
      std::fprintf(stderr, "the wait-only instantiation was not picked\n");
      return 1;
    }
    void (*const Kernels[NumKinds])(int *, int, hpp::Barrier) = {
        stepKernel<SyncThreads>, stepKernel<HppWaitOnly>,
        stepKernel<HppBarrier>,  stepKernel<HppFenced>,
        stepKernel<HppAcqRel>,   stepKernel<HppCombined>,
        stepKernel<HppPtx>,      stepKernel<HppInline>,
        stepKernel<HppExpect>,   stepKernel<HppCall>,
        stepKernel<CudaBarrier>};
    bench::EventTimer Timer;
    auto Time = [&](int K) {
      return Timer([&] {
        Kernels[K]<<<Items / Group, Group>>>(Out[K], Steps, B);
        HPP_CHECK(cudaGetLastError());
      });
    };
    const std::vector<std::vector<double>> Ms =
        bench::timeInterleaved(NumKinds, Runs, Time);
    bool Same = true;
    std::vector<int> Host[NumKinds];
    const char *Names[NumKinds] = {
        "__syncthreads()                                       ",
        "hpp::Barrier::wait(), wait-only                       ",
        "hpp::Barrier::wait(), split barrier (LaunchSplitKind) ",
        "split barrier, GridSplitFenced inlined (before)       ",
        "split barrier, GridSplitAcqRel inlined                ",
        "split barrier, GridSplitCombined inlined              ",
        "split barrier, BlockWaitPtx (arrive written out)      ",
        "split barrier, launch path inline (WaitScopeInline)   ",
        "split barrier, launch path unlikely (WaitScopeExpect) ",
        "split barrier, launch path a call (WaitScopeCall)     ",
        "cuda::barrier::arrive_and_wait (raw)                  "};
    for (int K = 0; K < NumKinds; ++K) {
      Host[K].resize(Items);
      HPP_CHECK(cudaMemcpy(Host[K].data(), Out[K], Items * sizeof(int),
                           cudaMemcpyDeviceToHost));
      if (Host[K] != Host[0])
        std::printf("DIFFERENT from __syncthreads: %s\n", Names[K]);
      Same = Same && Host[K] == Host[0];
    }
    std::printf("runtime choices: LaunchSplitKind %d (hpp/grid_barrier.h), "
                "BlockSplitKind %d (hpp/block_barrier.h), BarrierWaitLayout "
                "%d (hpp/barrier.h)\n",
                int(hpp::detail::LaunchSplitKind),
                int(hpp::detail::BlockSplitKind),
                int(hpp::detail::BarrierWaitLayout));
    bench::printSteps(Ms, Names, 0, "__syncthreads", Steps);
    std::printf("results: %s\n", Same ? "identical" : "DIFFERENT");
    for (int *O : Out)
      HPP_CHECK(cudaFree(O));
    return Same ? 0 : 1;
  } catch (const hpp::RuntimeError &E) {
    std::fprintf(stderr, "RuntimeError: %s\n", E.what());
    return 1;
  }
}
