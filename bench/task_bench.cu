//===- bench/task_bench.cu - Task enqueue overhead and task overlap
//--------===//
//
// Part of hpp-rewrite. Benchmark.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Times, in one process, medians of `runs` (default 20) after 3 warm-ups,
/// host wall clock around each call; the first three interleaved (one of
/// each per round), the extra per task the median of the rounds'
/// differences:
///  - raw: K launches of a one-warp kernel back to back on one stream,
///    then a stream synchronise (the per-launch anchor);
///  - raw event+wait: the same K launches alternating between two streams,
///    each after a cudaEventRecord + cudaStreamWaitEvent on the previous
///    one (the cheapest device-side dependency);
///  - hpp chain: bench/task_workloads.cpp's taskChain, K tasks each
///    enqueued after the previous future, rewritten by hpp-rewrite;
///  - raw driver: the K launches of the first through the driver's
///    cuLaunchKernel (found through cudaGetDriverEntryPoint) with the
///    kernel's handle looked up once, as the runtime makes a task's launch
///    (hpp/backend/gpu_stream_launch.h): what the chain costs over the
///    same launch call, without the runtime's bookkeeping;
///  - two tasks, each of SMs/2 work-groups of 1024 compute-bound
///    work-items: enqueued together and joined with &&, against one after
///    the other (twoTasks), and the same with raw kernels on two streams.
///
///   nvcc -std=c++17 -O3 -arch=sm_90 -I runtime -I include \
///        -DHPP_GENERATED='"/abs/path/gen/task_workloads.cu"' \
///        bench/task_bench.cu -o task_bench
///   ./task_bench [K=1000] [runs=20] [iters=200000]
///
//===----------------------------------------------------------------------===//

#ifndef HPP_GENERATED
#error "define HPP_GENERATED as the path of the rewritten task_workloads source"
#endif

#define main hpp_generated_main
#include HPP_GENERATED
#undef main

#include "driver_launch.cuh"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#define CK(X) BENCH_CHECK(X)

__global__ void rawTiny(int *Flag) {
  if (threadIdx.x == 0)
    Flag[0] += 1;
}

__global__ void rawSpin(float *Out, int Iters) {
  const unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  float x = float(I % 97);
  for (int k = 0; k < Iters; ++k)
    x = x * 0.999f + 0.5f;
  Out[I] = x;
}

static double medianUs(int Runs, const std::function<void()> &F) {
  for (int W = 0; W < 3; ++W)
    F();
  std::vector<double> T;
  for (int R = 0; R < Runs; ++R) {
    auto A = std::chrono::steady_clock::now();
    F();
    auto B = std::chrono::steady_clock::now();
    T.push_back(std::chrono::duration<double, std::micro>(B - A).count());
  }
  std::sort(T.begin(), T.end());
  return T[T.size() / 2];
}

int main(int argc, char **argv) {
  const int K = argc > 1 ? std::atoi(argv[1]) : 1000;
  const int Runs = argc > 2 ? std::atoi(argv[2]) : 20;
  const int Iters = argc > 3 ? std::atoi(argv[3]) : 200000;
  int SMs = 0;
  CK(cudaDeviceGetAttribute(&SMs, cudaDevAttrMultiProcessorCount, 0));
  cudaDeviceProp Prop;
  CK(cudaGetDeviceProperties(&Prop, 0));
  std::printf("device: %s, %d SMs; K=%d tasks, %d runs, %d iterations\n",
              Prop.name, SMs, K, Runs, Iters);

  hpp::Pointer<int> Flag = hpp::allocate<int>(1);
  int *RawFlag = nullptr;
  CK(cudaMalloc(&RawFlag, sizeof(int)));
  cudaStream_t S[2];
  cudaEvent_t Ev[2];
  for (int I = 0; I < 2; ++I) {
    CK(cudaStreamCreateWithFlags(&S[I], cudaStreamNonBlocking));
    CK(cudaEventCreateWithFlags(&Ev[I], cudaEventDisableTiming));
  }

  const RawDriverLaunch DriverTiny(reinterpret_cast<const void *>(rawTiny));

  Flag[0] = 0;
  const auto Times = interleavedUs(
      Runs, {[&] {
               for (int I = 0; I < K; ++I)
                 rawTiny<<<1, 32, 0, S[0]>>>(RawFlag);
               CK(cudaStreamSynchronize(S[0]));
             },
             [&] {
               for (int I = 0; I < K; ++I) {
                 cudaStream_t Mine = S[I & 1];
                 if (I)
                   CK(cudaStreamWaitEvent(Mine, Ev[(I - 1) & 1], 0));
                 rawTiny<<<1, 32, 0, Mine>>>(RawFlag);
                 CK(cudaEventRecord(Ev[I & 1], Mine));
               }
               CK(cudaStreamSynchronize(S[(K - 1) & 1]));
             },
             [&] { taskChain(Flag, K); },
             [&] {
               for (int I = 0; I < K; ++I) {
                 void *Args[] = {&RawFlag};
                 DriverTiny(32, S[0], Args);
               }
               CK(cudaStreamSynchronize(S[0]));
             }});
  const double Raw = median(Times[0]), RawEv = median(Times[1]),
               Hpp = median(Times[2]), RawDriver = median(Times[3]);
  const bool ChainOk = Flag[0] == K * (Runs + 3);
  std::printf("per task: raw launch %.3f us, raw event+wait %.3f us, hpp "
              "enqueue(range, future) %.3f us (medians, interleaved)\n",
              Raw / K, RawEv / K, Hpp / K);
  std::printf("hpp extra over a raw launch: %.3f us per task (%.3fx); over "
              "event+wait: %.3f us (medians of the paired differences)\n",
              medianDiff(Times[2], Times[0]) / K, Hpp / Raw,
              medianDiff(Times[2], Times[1]) / K);
  std::printf("raw driver cuLaunchKernel %.3f us per launch; hpp extra over "
              "it: %.3f us per task (the runtime's bookkeeping)\n",
              RawDriver / K, medianDiff(Times[2], Times[3]) / K);
  std::printf("chain count %s\n", ChainOk ? "verified" : "FAILED");

  const int Groups = std::max(1, SMs / 2);
  const std::size_t N = std::size_t(Groups) * 1024;
  hpp::Pointer<float> Out = hpp::allocate<float>(2 * N);
  float *RawOut = nullptr;
  CK(cudaMalloc(&RawOut, 2 * N * sizeof(float)));
  const double Seq =
      medianUs(Runs, [&] { twoTasks(Out, Groups, Iters, false); });
  const double Par =
      medianUs(Runs, [&] { twoTasks(Out, Groups, Iters, true); });
  const double RawSeq = medianUs(Runs, [&] {
    rawSpin<<<Groups, 1024, 0, S[0]>>>(RawOut, Iters);
    CK(cudaStreamSynchronize(S[0]));
    rawSpin<<<Groups, 1024, 0, S[0]>>>(RawOut + N, Iters);
    CK(cudaStreamSynchronize(S[0]));
  });
  const double RawPar = medianUs(Runs, [&] {
    rawSpin<<<Groups, 1024, 0, S[0]>>>(RawOut, Iters);
    rawSpin<<<Groups, 1024, 0, S[1]>>>(RawOut + N, Iters);
    CK(cudaStreamSynchronize(S[0]));
    CK(cudaStreamSynchronize(S[1]));
  });
  std::vector<float> Host(2 * N);
  CK(cudaMemcpy(Host.data(), RawOut, 2 * N * sizeof(float),
                cudaMemcpyDeviceToHost));
  bool SpinOk = true;
  for (std::size_t I = 0; I < 2 * N; ++I)
    if (!(Out[I] == Host[I]))
      SpinOk = false;
  std::printf("two tasks of %d x 1024: one after the other %.1f us, together "
              "(&&) %.1f us: %.3fx; raw two streams %.1f vs %.1f us: %.3fx\n",
              Groups, Seq, Par, Par / Seq, RawPar, RawSeq, RawPar / RawSeq);
  std::printf("two tasks results %s\n", SpinOk ? "verified" : "FAILED");
  return ChainOk && SpinOk ? 0 : 1;
}
