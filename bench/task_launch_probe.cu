//===- bench/task_launch_probe.cu - What one task's launch costs ---------===//
//
// Part of hpp-rewrite. Benchmark.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Splits the per-task cost of bench/task_workloads.cpp's chain (rewritten,
/// HPP_GENERATED) into the launch call and the rest. Interleaved rounds
/// (each of these once per round, median over the rounds), host wall
/// clock, K launches then a stream synchronise, per launch:
///  - raw <<<>>>: a one-warp kernel with one pointer argument;
///  - cudaLaunchKernel with the task's own kernel and the arguments a task
///    passes (its Range, its TaskResult with an open gate, its Pointer);
///  - cuLaunchKernel (the driver's, through cudaGetDriverEntryPoint, the
///    kernel's handle looked up once) with either kernel: what the
///    runtime's task launch calls (hpp/backend/gpu_stream_launch.h);
///  - the hpp chain (taskChain), and each line's difference from raw.
/// Then the device's side: K/2 launches of each queued behind a kernel
/// that waits for a host flag, released once all are queued, timed from
/// the release to the end: the GPU time per kernel, which bounds a chain
/// once the host is faster than it.
///
///   nvcc -std=c++17 -O3 -arch=sm_90 -I runtime -I include \
///        -DHPP_GENERATED='"/abs/path/gen/bench/task_workloads.cu"' \
///        bench/task_launch_probe.cu -o task_launch_probe
///   ./task_launch_probe [K=1000] [rounds=30]
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
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <thread>
#include <vector>

#define CK(X) BENCH_CHECK(X)

using Clock = std::chrono::steady_clock;

__global__ void rawTiny(int *Flag) {
  if (threadIdx.x == 0)
    Flag[0] += 1;
}

__global__ void waitForHost(volatile int *Go) {
  while (!*Go) {
  }
}

int main(int argc, char **argv) {
  const int K = argc > 1 ? std::atoi(argv[1]) : 1000;
  const int Rounds = argc > 2 ? std::atoi(argv[2]) : 30;
  cudaDeviceProp Prop;
  CK(cudaGetDeviceProperties(&Prop, 0));
  std::printf("device: %s; K=%d launches, %d rounds\n", Prop.name, K, Rounds);

  hpp::Pointer<int> Flag = hpp::allocate<int>(1);
  int *RawFlag = nullptr;
  CK(cudaMalloc(&RawFlag, sizeof(int)));
  cudaStream_t S;
  CK(cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking));
  const RawDriverLaunch DriverTiny(reinterpret_cast<const void *>(rawTiny));
  const RawDriverLaunch DriverTask(
      reinterpret_cast<const void *>(hpp_taskChain_task0));
  hpp::Range<1, 1> Rg(32, 32);
  hpp::detail::TaskResult<void> Open; // No dependency: the gate is open.
  auto rawLaunches = [&](int N) {
    for (int I = 0; I < N; ++I)
      rawTiny<<<1, 32, 0, S>>>(RawFlag);
  };
  auto taskKernelLaunches = [&](int N) {
    for (int I = 0; I < N; ++I) {
      void *Args[] = {&Rg, &Open, &Flag};
      CK(cudaLaunchKernel(reinterpret_cast<const void *>(hpp_taskChain_task0),
                          dim3(1), dim3(32), Args, 0, S));
    }
  };
  auto driverLaunches = [&](const RawDriverLaunch &Launch, void **Args) {
    for (int I = 0; I < K; ++I)
      Launch(32, S, Args);
  };
  void *TinyArgs[] = {&RawFlag};
  void *TaskArgs[] = {&Rg, &Open, &Flag};
  const char *Names[] = {
      "raw <<<>>>, one-warp kernel", "cudaLaunchKernel, the task's kernel",
      "cuLaunchKernel, one-warp kernel", "cuLaunchKernel, the task's kernel",
      "hpp chain (enqueue after the future)"};
  std::vector<std::function<void()>> Fs;
  Fs.push_back([&] { rawLaunches(K); });
  Fs.push_back([&] { taskKernelLaunches(K); });
  Fs.push_back([&] { driverLaunches(DriverTiny, TinyArgs); });
  Fs.push_back([&] { driverLaunches(DriverTask, TaskArgs); });
  for (auto &F : Fs) // Each then waits for its launches.
    F = [&, Launches = F] {
      Launches();
      CK(cudaStreamSynchronize(S));
    };
  Fs.push_back([&] { taskChain(Flag, K); });
  std::vector<std::vector<double>> T = interleavedUs(Rounds, Fs);
  for (auto &Round : T) // Per launch.
    for (double &Us : Round)
      Us /= K;
  for (std::size_t I = 0; I < Fs.size(); ++I)
    std::printf("host: %-38s %.3f us per launch, %+.3f us against raw\n",
                Names[I], median(T[I]), medianDiff(T[I], T[0]));

  // The device's side.
  int *Go = nullptr, *GoDevice = nullptr;
  CK(cudaHostAlloc(&Go, sizeof(int), cudaHostAllocMapped));
  CK(cudaHostGetDevicePointer(reinterpret_cast<void **>(&GoDevice), Go, 0));
  auto deviceUs = [&](const std::vector<cudaStream_t> &Blocked,
                      const std::function<void()> &Queue) {
    *reinterpret_cast<volatile int *>(Go) = 0;
    for (cudaStream_t B : Blocked)
      waitForHost<<<1, 1, 0, B>>>(GoDevice);
    std::atomic<long long> Released{0};
    std::thread Release([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      Released = Clock::now().time_since_epoch().count();
      *reinterpret_cast<volatile int *>(Go) = 1;
    });
    Queue(); // Returns once all ran.
    const long long End = Clock::now().time_since_epoch().count();
    Release.join();
    return std::chrono::duration<double, std::micro>(
               std::chrono::steady_clock::duration(End - Released.load()))
        .count();
  };
  // Every task stream, so that the chain's first task waits too.
  std::vector<cudaStream_t> TaskStreams;
  for (int I = 0; I < HPP_TASK_STREAMS; ++I)
    TaskStreams.push_back(hpp::detail::StreamPool::get().next());
  const int Queued = K / 2;
  for (int R = 0; R < 3; ++R) {
    const double Raw = deviceUs({S}, [&] {
      rawLaunches(Queued);
      CK(cudaStreamSynchronize(S));
    });
    const double Kernel = deviceUs({S}, [&] {
      taskKernelLaunches(Queued);
      CK(cudaStreamSynchronize(S));
    });
    const double Chain =
        deviceUs(TaskStreams, [&] { taskChain(Flag, Queued); });
    std::printf("device, %d queued: raw %.3f us per kernel, the task's kernel "
                "%.3f us, hpp chain %.3f us\n",
                Queued, Raw / Queued, Kernel / Queued, Chain / Queued);
  }
  return 0;
}
