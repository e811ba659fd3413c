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
/// with SYNC = `__gpu_sync()` in a kernel written as hpp-rewrite emits it
/// and launched as rewritten code launches it (hpp::launchKernel with
/// hpp::detail::cooperative: co-residency check, cooperative launch, wait);
/// the anchor, the same kernel with `cg::this_grid().sync()` written by
/// hand, launched with cudaLaunchCooperativeKernel; and one kernel launch
/// per step
/// (double-buffered, back to back on one stream); and a launch-wide
/// hpp::Barrier waited on by every work-item, bound as rewritten code binds
/// a barrier it only waits on (the grid barrier), and as the split barrier
/// (device-memory counter, one atomic per warp; what a barrier that may
/// also arrive or skip gets). Medians of `runs`
/// (default 20) timed runs after 3 warm-ups, interleaved; reports
/// microseconds per step, each one's ratio to grid.sync, and checks that
/// every version computes the same array.
///
///   nvcc -std=c++17 -O3 -arch=sm_90 -I runtime -I include \
///        bench/grid_sync_bench.cu -o grid_sync_bench
///   ./grid_sync_bench [steps=10000] [runs=20]
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

/// As hpp-rewrite outlines that loop (\p Cg false: __gpu_sync); with \p Cg
/// the anchor, cg::this_grid().sync(), written by hand instead.
template <bool Cg>
__global__ void stepsKernel(hpp::Range<1, 1> hpp_range, const int Steps,
                            const hpp::Pointer<float> A, const std::size_t N) {
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  meanSteps(i.getX(), Steps, A, N, [] {
    if constexpr (Cg)
      cooperative_groups::this_grid().sync();
    else
      __gpu_sync();
  });
}

/// The same loop with a launch-wide hpp::Barrier, bound as rewritten code
/// binds a barrier it only waits on (WaitOnlyBarrier<Scope>; Scope 0 is
/// the Barrier itself: its launch-wide split barrier in device memory).
template <int Scope>
__global__ void barrierKernel(hpp::Range<1, 1> hpp_range,
                              hpp::Barrier hpp_handle_B, const int Steps,
                              const hpp::Pointer<float> A,
                              const std::size_t N) {
  __shared__ hpp::detail::BlockBarrierStorage hpp_barrier_B;
  hpp::detail::WaitOnlyBarrier<Scope> B(hpp_handle_B, hpp_barrier_B);
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  meanSteps(i.getX(), Steps, A, N, [&B] { B.wait(); });
}

/// One step per launch, from In to Out.
__global__ void stepKernel(const float *In, float *Out, std::size_t N) {
  const std::size_t X = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  Out[X] = (In[X] + In[(X + 1) % N]) * 0.5f;
}

} // namespace

int main(int argc, char **argv) {
  int Steps, Runs;
  if (!bench::parseStepsRuns(argc, argv, Steps, Runs))
    return 2;
  try {
    bench::printSetup(Items, Group, Steps, "grid barriers", Runs);
    enum { Hpp, GridSync, PerStep, WaitOnly, Split, Kinds };
    hpp::Pointer<float> A = hpp::allocate<float>(Items),
                        Anchor = hpp::allocate<float>(Items),
                        WaitOnlyOut = hpp::allocate<float>(Items),
                        SplitOut = hpp::allocate<float>(Items);
    hpp::Barrier B(Items);
    float *Buf[2] = {nullptr, nullptr};
    for (float *&B : Buf)
      HPP_CHECK(cudaMalloc(&B, Items * sizeof(float)));
    std::vector<float> Init(Items);
    for (unsigned I = 0; I < Items; ++I)
      Init[I] = float(I % 17);
    const hpp::Range<1, 1> R{hpp::Range<1>(Items), hpp::Range<1>(Group)};
    float *Last = nullptr; // The per-step version's result.
    auto Reset = [&](int K) {
      float *Dsts[Kinds] = {A.get(), Anchor.get(), Buf[0], WaitOnlyOut.get(),
                            SplitOut.get()};
      float *Dst = Dsts[K];
      HPP_CHECK(cudaMemcpy(Dst, Init.data(), Items * sizeof(float),
                           cudaMemcpyHostToDevice));
    };
    auto Run = [&](int K) {
      if (K == Hpp) {
        hpp::launchKernel(hpp::detail::cooperative(stepsKernel<false>), R,
                          Steps, A, std::size_t(Items));
      } else if (K == GridSync) {
        hpp::Range<1, 1> RangeArg = R;
        int S = Steps;
        std::size_t N = Items;
        void *Args[] = {&RangeArg, &S, &Anchor, &N};
        HPP_CHECK(cudaLaunchCooperativeKernel(
            reinterpret_cast<const void *>(stepsKernel<true>), Items / Group,
            Group, Args, 0, 0));
      } else if (K == WaitOnly) {
        hpp::launchKernel(hpp::detail::waitOnlyVariants(barrierKernel<0>,
                                                        barrierKernel<1>,
                                                        barrierKernel<2>, B),
                          R, B, Steps, WaitOnlyOut, std::size_t(Items));
      } else if (K == Split) {
        hpp::launchKernel(barrierKernel<0>, R, B, Steps, SplitOut,
                          std::size_t(Items));
      } else {
        for (int S = 0; S < Steps; ++S)
          stepKernel<<<Items / Group, Group>>>(Buf[S % 2], Buf[(S + 1) % 2],
                                               std::size_t(Items));
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
    std::vector<float> Out[Kinds];
    const float *Src[Kinds] = {A.get(), Anchor.get(), Last, WaitOnlyOut.get(),
                               SplitOut.get()};
    for (int K = 0; K < Kinds; ++K) {
      Out[K].resize(Items);
      HPP_CHECK(cudaMemcpy(Out[K].data(), Src[K], Items * sizeof(float),
                           cudaMemcpyDeviceToHost));
    }
    bool Same = true;
    for (int K = 1; K < Kinds; ++K)
      Same = Same && Out[K] == Out[Hpp];
    const char *Names[Kinds] = {"__gpu_sync (rewritten, hpp::launchKernel)",
                                "cg::this_grid().sync() (anchor)         ",
                                "one kernel launch per step              ",
                                "launch-wide Barrier, wait-only          ",
                                "launch-wide Barrier, split (arrive/skip)"};
    bench::printSteps(Ms, Names, GridSync, "grid.sync", Steps);
    std::printf("results: %s\n", Same ? "identical" : "DIFFERENT");
    for (hpp::Pointer<float> P : {A, Anchor, WaitOnlyOut, SplitOut})
      hpp::deallocate(P);
    for (float *B : Buf)
      HPP_CHECK(cudaFree(B));
    return Same ? 0 : 1;
  } catch (const hpp::RuntimeError &E) {
    std::fprintf(stderr, "RuntimeError: %s\n", E.what());
    return 1;
  }
}
