//===- bench/grid_sync_bench.cu - __gpu_sync vs grid.sync -----------------===//
//
// Part of hpp-rewrite. Benchmark.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Cost of one grid-scope barrier step, in one process: the paper's
/// synthetic benchmark (examples/barrier_steps.cpp) over the whole array,
/// 64 Ki work-items in work-groups of 256, `steps` (default 10,000) steps
///
///   mine = a[x]; right = a[(x + 1) % n];  SYNC;  a[x] = (mine + right) / 2;
///   SYNC;
///
/// Versions, interleaved in one process (medians of `runs`, default 20,
/// timed runs after 3 warm-ups; microseconds per step and the ratio to the
/// anchor; each version's array compared with the anchor's):
///  - `__gpu_sync()` in a kernel as hpp-rewrite emits it, launched as
///    rewritten code launches it (hpp::launchKernel with
///    hpp::detail::cooperative: co-residency check, cooperative launch): the
///    runtime's choice, detail::GpuSyncKind (hpp/grid_wait.h);
///  - the anchor: the same kernel with `cg::this_grid().sync()` written by
///    hand, cudaLaunchCooperativeKernel (what __gpu_sync was before);
///  - the candidates for __gpu_sync, each launched as the anchor is:
///    detail::gridSync<K> for K = GridSyncFlip, GridSyncFlipRed,
///    GridSyncFlipSleep, GridSyncFlipRelaxed, GridSyncFlipLast,
///    GridSyncFlipFence (hpp/grid_wait.h says what each does);
///  - one kernel launch per step (double-buffered, back to back);
///  - a launch-wide hpp::Barrier waited on by every work-item, bound as
///    rewritten code binds a barrier it only waits on (launchKernel picks
///    the grid barrier: detail::LaunchWaitKind), and with each kind forced:
///    GridSyncCg (before), GridSyncFlip, GridSyncFlipRelaxed,
///    GridSyncFlipLast and GridSyncFlipFence (on the barrier's own word),
///    GridSyncFlag, GridSyncFlagRelaxed;
///  - the same barrier as the split barrier (what a barrier that may also
///    arrive or skip gets): Barrier::wait() as rewritten code calls it
///    (detail::LaunchSplitKind, hpp/grid_barrier.h), and each kind forced:
///    GridSplitFenced (before), GridSplitAcqRel, GridSplitCombined,
///    GridSplitCombinedDelay, GridSplitGroup, GridSplitGroupFence.
///
/// After the timings, a semantic check of the split barrier with skip()
/// (splitCheckKernel), once per kind: it prints the violations (0 each).
///
///   nvcc -std=c++17 -O3 -arch=sm_90 -I runtime -I include \
///        bench/grid_sync_bench.cu -o grid_sync_bench
///   ./grid_sync_bench [steps=10000] [runs=20]
///
/// The runtime's choices are the constants GpuSyncKind and LaunchWaitKind
/// (hpp/grid_wait.h) and LaunchSplitKind (hpp/grid_barrier.h).
///
//===----------------------------------------------------------------------===//

#include <hpp/runtime.h>

#include "step_timing.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using namespace hpp::detail;

constexpr unsigned Items = 64 * 1024;
constexpr unsigned Group = 256;

/// The loop of the gpu-sync part of examples/barrier_steps.cpp for
/// work-item \p x, synchronising with \p Sync().
template <class SyncFn>
__device__ void meanSteps(std::size_t x, int Steps,
                          const hpp::Pointer<float> &A, std::size_t N,
                          SyncFn Sync) {
  for (int s = 0; s < Steps; ++s) {
    float mine = A[x], right = A[(x + 1) % N];
    Sync();
    A[x] = (mine + right) * 0.5f;
    Sync();
  }
}

/// `__gpu_sync()` as it is now.
constexpr int AsRewritten = -1;

/// As hpp-rewrite outlines that loop with \p K AsRewritten (__gpu_sync);
/// else detail::gridSync<K> written by hand instead (GridSyncCg: the anchor,
/// cg::this_grid().sync()).
template <int K>
__global__ void stepsKernel(hpp::Range<1, 1> hpp_range, const int Steps,
                            const hpp::Pointer<float> A, const std::size_t N) {
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  unsigned long long Syncs = 0;
  meanSteps(i.getX(), Steps, A, N, [&Syncs] {
    if constexpr (K == AsRewritten)
      __gpu_sync();
    else
      gridSync<GridSyncKind(K)>(nullptr, Syncs);
  });
}

/// The same loop with a launch-wide hpp::Barrier, bound as rewritten code
/// binds a barrier it only waits on (WaitOnlyBarrier<Scope>; Scope 0 is
/// the Barrier itself: its launch-wide split barrier in device memory),
/// LaunchScope meeting as \p Kind.
template <int Scope, int Kind = LaunchWaitKind>
__global__ void barrierKernel(hpp::Range<1, 1> hpp_range,
                              hpp::Barrier hpp_handle_B, const int Steps,
                              const hpp::Pointer<float> A,
                              const std::size_t N) {
  __shared__ hpp::detail::BlockBarrierStorage hpp_barrier_B;
  hpp::detail::WaitOnlyBarrier<Scope, Kind> B(hpp_handle_B, hpp_barrier_B);
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  meanSteps(i.getX(), Steps, A, N, [&B] { B.wait(); });
}

/// The split barrier of kind \p K (GridSplitKind), forced.
template <int K>
__global__ void splitKernel(hpp::Range<1, 1> hpp_range, hpp::Barrier B,
                            const int Steps, const hpp::Pointer<float> A,
                            const std::size_t N) {
  __shared__ hpp::detail::BlockBarrierStorage hpp_barrier_B;
  B.attach(hpp_barrier_B);
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  meanSteps(i.getX(), Steps, A, N, [&B] { B.gridWaitAs<K>(); });
}

/// When work-item \p Y of the semantic check skips (withdraws): every
/// fifth one, at a step from 0 to 120; the rest of every ninth warp
/// together at step 50; the others never (\p Steps).
__device__ unsigned leaveStep(unsigned Y, unsigned Steps) {
  if (Y % 5 == 0)
    return (Y % 13) * 10 < 50 || (Y / 32) % 9 != 4 ? (Y % 13) * 10 : 50;
  return (Y / 32) % 9 == 4 ? 50 : Steps;
}

/// The split barrier's semantic check (not timed): every work-item stamps
/// its step, waits (kind \p K: GridSplitKind, or AsRewritten: wait()),
/// and checks the stamps of a neighbour and of a far work-item (another
/// work-group): after the wait of step s, one that has not withdrawn has
/// stamped s + 1 and cannot have stamped past s + 2; one that withdrew
/// (skip(), at leaveStep) stamped what it had. Violations are counted.
template <int K>
__global__ void splitCheckKernel(hpp::Range<1, 1> hpp_range, hpp::Barrier B,
                                 const unsigned Steps, unsigned *Stamp,
                                 unsigned *Errors) {
  __shared__ hpp::detail::BlockBarrierStorage hpp_barrier_B;
  B.attach(hpp_barrier_B);
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  const unsigned X = unsigned(i.getX()), N = Items;
  const unsigned Near = (X + 1) % N, Far = (X + 32771) % N;
  for (unsigned S = 0; S < Steps; ++S) {
    if (S == leaveStep(X, Steps)) {
      B.skip();
      return;
    }
    reinterpret_cast<volatile unsigned *>(Stamp)[X] = S + 1;
    if constexpr (K == AsRewritten)
      B.wait();
    else
      B.gridWaitAs<K>();
    for (unsigned Y : {Near, Far}) {
      const unsigned Seen = reinterpret_cast<volatile unsigned *>(Stamp)[Y];
      const unsigned Leave = leaveStep(Y, Steps);
      const unsigned Low = S + 1 < Leave ? S + 1 : Leave;
      const unsigned High = S + 2 < Leave ? S + 2 : Leave;
      if (Seen < Low || Seen > High)
        atomicAdd(Errors, 1u);
    }
  }
}

/// One step per launch, from In to Out.
__global__ void stepKernel(const float *In, float *Out, std::size_t N) {
  const std::size_t X = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  Out[X] = (In[X] + In[(X + 1) % N]) * 0.5f;
}

enum Kind {
  Hpp,
  Anchor,
  SyncFlip,
  SyncFlipRed,
  SyncFlipSleep,
  SyncFlipRelaxed,
  SyncFlipLast,
  SyncFlipFence,
  PerStep,
  WaitOnlyPick,
  WaitOnlyCg,
  WaitOnlyFlip,
  WaitOnlyFlipRelaxed,
  WaitOnlyFlag,
  WaitOnlyFlagRelaxed,
  WaitOnlyFlipLast,
  WaitOnlyFlipFence,
  SplitWait,
  SplitFenced,
  SplitAcqRel,
  SplitCombined,
  SplitCombinedDelay,
  SplitGroup,
  SplitGroupFence,
  Kinds
};

const char *const Names[Kinds] = {
    "__gpu_sync (rewritten, launchKernel; GpuSyncKind)   ",
    "cg::this_grid().sync() (anchor; __gpu_sync before)  ",
    "gridSync<GridSyncFlip>      (cg's word)             ",
    "gridSync<GridSyncFlipRed>   (cg's word)             ",
    "gridSync<GridSyncFlipSleep> (cg's word)             ",
    "gridSync<GridSyncFlipRelaxed> (cg's word)           ",
    "gridSync<GridSyncFlipLast>  (cg's word)             ",
    "gridSync<GridSyncFlipFence> (cg's word)             ",
    "one kernel launch per step                          ",
    "wait-only Barrier, launchKernel's pick (LaunchWait) ",
    "wait-only Barrier, GridSyncCg (before)              ",
    "wait-only Barrier, GridSyncFlip (own word)          ",
    "wait-only Barrier, GridSyncFlipRelaxed (own word)   ",
    "wait-only Barrier, GridSyncFlag                     ",
    "wait-only Barrier, GridSyncFlagRelaxed              ",
    "wait-only Barrier, GridSyncFlipLast (own word)      ",
    "wait-only Barrier, GridSyncFlipFence (own word)     ",
    "split Barrier::wait() (LaunchSplitKind)             ",
    "split GridSplitFenced (before)                      ",
    "split GridSplitAcqRel                               ",
    "split GridSplitCombined                             ",
    "split GridSplitCombinedDelay                        ",
    "split GridSplitGroup                                ",
    "split GridSplitGroupFence                           "};

/// Launches a kernel taking (range, steps, A, n) cooperatively by hand.
void launchCooperative(const void *Kernel, hpp::Range<1, 1> R, int Steps,
                       hpp::Pointer<float> A) {
  std::size_t N = Items;
  void *Args[] = {&R, &Steps, &A, &N};
  HPP_CHECK(
      cudaLaunchCooperativeKernel(Kernel, Items / Group, Group, Args, 0, 0));
}

} // namespace

int main(int argc, char **argv) {
  int Steps, Runs;
  if (!bench::parseStepsRuns(argc, argv, Steps, Runs))
    return 2;
  try {
    bench::printSetup(Items, Group, Steps, "grid barriers", Runs);
    std::printf("runtime choices: GpuSyncKind %d, LaunchWaitKind %d, "
                "LaunchSplitKind %d (hpp/grid_wait.h, hpp/grid_barrier.h)\n",
                int(GpuSyncKind), int(LaunchWaitKind), int(LaunchSplitKind));
    std::vector<hpp::Pointer<float>> Out;
    for (int K = 0; K < Kinds; ++K)
      Out.push_back(hpp::allocate<float>(Items));
    hpp::Barrier B(Items);
    float *Buf[2] = {nullptr, nullptr};
    for (float *&P : Buf)
      HPP_CHECK(cudaMalloc(&P, Items * sizeof(float)));
    std::vector<float> Init(Items);
    for (unsigned I = 0; I < Items; ++I)
      Init[I] = float(I % 17);
    const hpp::Range<1, 1> R{hpp::Range<1>(Items), hpp::Range<1>(Group)};
    const std::size_t N = Items;
    float *Last = nullptr; // The per-step version's result.
    auto Reset = [&](int K) {
      float *Dst = K == PerStep ? Buf[0] : Out[K].get();
      HPP_CHECK(cudaMemcpy(Dst, Init.data(), Items * sizeof(float),
                           cudaMemcpyHostToDevice));
    };
    auto Run = [&](int K) {
      const hpp::Pointer<float> A = Out[K];
      switch (K) {
      case Hpp:
        hpp::launchKernel(cooperative(stepsKernel<AsRewritten>), R, Steps, A,
                          N);
        break;
      case Anchor:
        launchCooperative((const void *)stepsKernel<GridSyncCg>, R, Steps, A);
        break;
      case SyncFlip:
        launchCooperative((const void *)stepsKernel<GridSyncFlip>, R, Steps, A);
        break;
      case SyncFlipRed:
        launchCooperative((const void *)stepsKernel<GridSyncFlipRed>, R, Steps,
                          A);
        break;
      case SyncFlipSleep:
        launchCooperative((const void *)stepsKernel<GridSyncFlipSleep>, R,
                          Steps, A);
        break;
      case SyncFlipRelaxed:
        launchCooperative((const void *)stepsKernel<GridSyncFlipRelaxed>, R,
                          Steps, A);
        break;
      case SyncFlipLast:
        launchCooperative((const void *)stepsKernel<GridSyncFlipLast>, R, Steps,
                          A);
        break;
      case SyncFlipFence:
        launchCooperative((const void *)stepsKernel<GridSyncFlipFence>, R,
                          Steps, A);
        break;
      case WaitOnlyPick:
        hpp::launchKernel(waitOnlyVariants(barrierKernel<0>, barrierKernel<1>,
                                           barrierKernel<2>, B),
                          R, B, Steps, A, N);
        break;
      case WaitOnlyCg:
        hpp::launchKernel(barrierKernel<LaunchScope, GridSyncCg>, R, B, Steps,
                          A, N);
        break;
      case WaitOnlyFlip:
        hpp::launchKernel(barrierKernel<LaunchScope, GridSyncFlip>, R, B, Steps,
                          A, N);
        break;
      case WaitOnlyFlipRelaxed:
        hpp::launchKernel(barrierKernel<LaunchScope, GridSyncFlipRelaxed>, R, B,
                          Steps, A, N);
        break;
      case WaitOnlyFlag:
        hpp::launchKernel(barrierKernel<LaunchScope, GridSyncFlag>, R, B, Steps,
                          A, N);
        break;
      case WaitOnlyFlagRelaxed:
        hpp::launchKernel(barrierKernel<LaunchScope, GridSyncFlagRelaxed>, R, B,
                          Steps, A, N);
        break;
      case WaitOnlyFlipLast:
        hpp::launchKernel(barrierKernel<LaunchScope, GridSyncFlipLast>, R, B,
                          Steps, A, N);
        break;
      case WaitOnlyFlipFence:
        hpp::launchKernel(barrierKernel<LaunchScope, GridSyncFlipFence>, R, B,
                          Steps, A, N);
        break;
      case SplitWait:
        hpp::launchKernel(barrierKernel<SplitScope>, R, B, Steps, A, N);
        break;
      case SplitFenced:
        hpp::launchKernel(splitKernel<GridSplitFenced>, R, B, Steps, A, N);
        break;
      case SplitAcqRel:
        hpp::launchKernel(splitKernel<GridSplitAcqRel>, R, B, Steps, A, N);
        break;
      case SplitCombined:
        hpp::launchKernel(splitKernel<GridSplitCombined>, R, B, Steps, A, N);
        break;
      case SplitCombinedDelay:
        hpp::launchKernel(splitKernel<GridSplitCombinedDelay>, R, B, Steps, A,
                          N);
        break;
      case SplitGroup:
        hpp::launchKernel(splitKernel<GridSplitGroup>, R, B, Steps, A, N);
        break;
      case SplitGroupFence:
        hpp::launchKernel(splitKernel<GridSplitGroupFence>, R, B, Steps, A, N);
        break;
      default:
        for (int S = 0; S < Steps; ++S)
          stepKernel<<<Items / Group, Group>>>(Buf[S % 2], Buf[(S + 1) % 2], N);
        HPP_CHECK(cudaGetLastError());
        Last = Buf[Steps % 2];
      }
    };
    bench::EventTimer Timer;
    auto Time = [&](int K) {
      Reset(K);
      HPP_CHECK(cudaDeviceSynchronize());
      return Timer([&] { Run(K); });
    };
    const std::vector<std::vector<double>> Ms =
        bench::timeInterleaved(Kinds, Runs, Time);
    std::vector<float> Host[Kinds];
    for (int K = 0; K < Kinds; ++K) {
      Host[K].resize(Items);
      const float *Src = K == PerStep ? Last : Out[K].get();
      HPP_CHECK(cudaMemcpy(Host[K].data(), Src, Items * sizeof(float),
                           cudaMemcpyDeviceToHost));
    }
    bench::printSteps(Ms, Names, Anchor, "grid.sync", Steps);
    bool Same = true;
    for (int K = 0; K < Kinds; ++K) {
      const bool Equal = Host[K] == Host[Anchor];
      Same = Same && Equal;
      if (!Equal)
        std::printf("DIFFERENT from the anchor: %s\n", Names[K]);
    }
    std::printf("results: %s\n", Same ? "identical" : "DIFFERENT");
    std::fflush(stdout);
    // The split barrier with skip(): its semantic check, once per kind.
    unsigned *Stamp = nullptr, *Errors = nullptr;
    HPP_CHECK(cudaMalloc(&Stamp, Items * sizeof(unsigned)));
    HPP_CHECK(cudaMalloc(&Errors, sizeof(unsigned)));
    void (*const Checks[])(hpp::Range<1, 1>, hpp::Barrier, unsigned, unsigned *,
                           unsigned *) = {
        splitCheckKernel<AsRewritten>,
        splitCheckKernel<GridSplitFenced>,
        splitCheckKernel<GridSplitAcqRel>,
        splitCheckKernel<GridSplitCombined>,
        splitCheckKernel<GridSplitCombinedDelay>,
        splitCheckKernel<GridSplitGroup>,
        splitCheckKernel<GridSplitGroupFence>};
    const char *CheckNames[] = {"wait() (LaunchSplitKind)", "GridSplitFenced",
                                "GridSplitAcqRel",          "GridSplitCombined",
                                "GridSplitCombinedDelay",   "GridSplitGroup",
                                "GridSplitGroupFence"};
    static_assert(sizeof(Checks) / sizeof(*Checks) ==
                      sizeof(CheckNames) / sizeof(*CheckNames),
                  "a name per checked kind");
    for (unsigned C = 0; C < sizeof(Checks) / sizeof(*Checks); ++C) {
      HPP_CHECK(cudaMemset(Stamp, 0, Items * sizeof(unsigned)));
      HPP_CHECK(cudaMemset(Errors, 0, sizeof(unsigned)));
      hpp::launchKernel(Checks[C], R, B, 200u, Stamp, Errors);
      unsigned Count = 0;
      HPP_CHECK(
          cudaMemcpy(&Count, Errors, sizeof(unsigned), cudaMemcpyDeviceToHost));
      std::printf("split barrier with skip(), %s: %u violations\n",
                  CheckNames[C], Count);
      Same = Same && Count == 0;
    }
    HPP_CHECK(cudaFree(Stamp));
    HPP_CHECK(cudaFree(Errors));
    for (hpp::Pointer<float> P : Out)
      hpp::deallocate(P);
    for (float *P : Buf)
      HPP_CHECK(cudaFree(P));
    return Same ? 0 : 1;
  } catch (const hpp::RuntimeError &E) {
    std::fprintf(stderr, "RuntimeError: %s\n", E.what());
    return 1;
  }
}
