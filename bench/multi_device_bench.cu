//===- bench/multi_device_bench.cu - Tasks over several GPUs --------------===//
//
// Part of hpp-rewrite. Benchmark.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The device runtime on 1, 2 and 4 GPUs of one host (docs/devices.md),
/// with the kernels written as hpp-rewrite emits them (outlined __global__
/// functions, Tasks from hpp::detail::taskKernel enqueued on a Device):
///  (a) matmul: the paper's naive matmul of floats (one work-item per
///      element of C, 16x16 work-groups), split by row blocks over D = 1,
///      2, 4 devices: each device gets B and its rows of A (copied there
///      before timing), a task per device computes its rows of C; timed
///      from the enqueues to the last future; speedup against D = 1; a
///      sample of 64 elements of C checked against the host;
///  (b) pipelines: two independent chains of `steps` tasks (each a
///      compute-bound kernel over the whole of its array), both on device
///      0 against one on device 0 and one on device 1; ratio two / one
///      (ideal 0.5); the results checked against the host;
///  (c) cross-device dependency: a one-warp task on device 0, a one-warp
///      task on device 1 enqueued after its future, waited for; against
///      raw CUDA in the same run: the kernel on a stream of device 0,
///      cudaEventRecord, cudaStreamWaitEvent on a stream of device 1, the
///      kernel there, cudaStreamSynchronize; ratio runtime / raw.
/// Medians of `runs` (default 10) host-clock timings after 2 warm-ups
/// (the versions of (b) and (c) interleaved). A row that needs more
/// devices than there are prints "skipped". One line per row:
///   <what> devices=<D> median_ms=<ms> ratio=<x> check=<ok|FAILED>
///
///   nvcc -std=c++17 -O3 -arch=sm_90 -I runtime -I include \
///        bench/multi_device_bench.cu -o multi_device_bench
///   ./multi_device_bench [n=8192] [runs=10] [steps=8]
///
/// Exit status 0 when every row that ran checked.
///
//===----------------------------------------------------------------------===//

#include <hpp/runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

using namespace hpp;

//===----------------------------------------------------------------------===//
// The kernels, as hpp-rewrite outlines them
//===----------------------------------------------------------------------===//

/// Task<void, Index<2>>: rows [0, rows) of C = A * B (A: rows x n, B and
/// C's rows n wide), x = column, y = row.
__global__ void hpp_matmulRows_task0(hpp::Range<2, 2> hpp_range,
                                     hpp::detail::TaskResult<void> hpp_result,
                                     const hpp::Pointer<float> A,
                                     const hpp::Pointer<float> B,
                                     const hpp::Pointer<float> C, const int n) {
  if (!hpp_result.runs())
    return;
  hpp::Index<2> ix(hpp::detail::kernelIndex(hpp_range).fields());
  if (!ix.inGlobalRange())
    return;
  {
    const std::size_t j = ix.getX(), i = ix.getY();
    float Sum = 0.0f;
    for (int k = 0; k < n; ++k)
      Sum += A[i * n + k] * B[std::size_t(k) * n + j];
    C[i * n + j] = Sum;
  }
}

/// Task<void, Index<1>>: `iters` dependent multiply-adds on each x[i].
__global__ void hpp_step_task0(hpp::Range<1, 1> hpp_range,
                               hpp::detail::TaskResult<void> hpp_result,
                               const hpp::Pointer<float> x, const int iters) {
  if (!hpp_result.runs())
    return;
  hpp::Index<1> i(hpp::detail::kernelIndex(hpp_range).fields());
  if (!i.inGlobalRange())
    return;
  {
    float V = x[i];
    for (int k = 0; k < iters; ++k)
      V = V * 0.99999f + 0.00001f;
    x[i] = V;
  }
}

/// Task<void, Index<1, 1>>: work-item 0 adds one to x[0].
__global__ void hpp_tiny_task0(hpp::Range<1, 1> hpp_range,
                               hpp::detail::TaskResult<void> hpp_result,
                               const hpp::Pointer<int> x) {
  if (!hpp_result.runs())
    return;
  hpp::Index<1, 1> i(hpp::detail::kernelIndex(hpp_range).fields());
  if (!i.inGlobalRange())
    return;
  {
    if (i.getX() == 0)
      x[0] += 1;
  }
}

/// The raw kernel of (c): the same work.
__global__ void rawTiny(int *x) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    x[0] += 1;
}

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

static double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  const std::size_t M = V.size() / 2;
  return V.size() % 2 ? V[M] : 0.5 * (V[M - 1] + V[M]);
}

/// Milliseconds of \p Call on the host clock (the call waits for its work).
static double hostMs(const std::function<void()> &Call) {
  const auto A = std::chrono::steady_clock::now();
  Call();
  const auto B = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(B - A).count();
}

/// Medians of \p Calls over \p Runs rounds after 2 warm-up rounds, the
/// calls of a round interleaved, the first rotating.
static std::vector<double>
interleaved(const std::vector<std::function<void()>> &Calls, int Runs) {
  std::vector<std::vector<double>> Ms(Calls.size());
  for (int R = 0; R < 2; ++R)
    for (const auto &C : Calls)
      C();
  for (int R = 0; R < Runs; ++R)
    for (std::size_t S = 0; S < Calls.size(); ++S) {
      const std::size_t K = (R + S) % Calls.size();
      Ms[K].push_back(hostMs(Calls[K]));
    }
  std::vector<double> Out;
  for (auto &V : Ms)
    Out.push_back(median(V));
  return Out;
}

/// The pseudo-random input value at \p K, in [0, 1).
static float inputValue(std::uint64_t K) {
  std::uint32_t H = static_cast<std::uint32_t>(K) * 2654435761u;
  H ^= H >> 15;
  H *= 0x2c1b3c6du;
  H ^= H >> 12;
  return static_cast<float>(H >> 8) * (1.0f / 16777216.0f);
}

static bool AllOk = true;

static void row(const char *What, int Devices, double Ms, double Ratio,
                bool Ok) {
  AllOk &= Ok;
  std::printf("%-28s devices=%d median_ms=%.4f ratio=%.3f check=%s\n", What,
              Devices, Ms, Ratio, Ok ? "ok" : "FAILED");
  std::fflush(stdout);
}

static void skipped(const char *What, int Devices, int Count) {
  std::printf("%-28s devices=%d skipped (%d device%s)\n", What, Devices, Count,
              Count == 1 ? "" : "s");
}

//===----------------------------------------------------------------------===//
// (a) matmul split by row blocks
//===----------------------------------------------------------------------===//

static void matmul(int n, int Runs) {
  const int Count = getDeviceCount();
  const std::size_t NN = std::size_t(n) * n;
  Pointer<float> A = allocate<float>(NN, Device(0));
  Pointer<float> B = allocate<float>(NN, Device(0));
  for (std::size_t K = 0; K < NN; ++K) {
    A[K] = inputValue(K);
    B[K] = inputValue(K + NN);
  }
  double Base = 0;
  for (int D : {1, 2, 4}) {
    if (D > Count) {
      skipped("matmul", D, Count);
      continue;
    }
    // Device d: B, and rows [Lo[d], Lo[d + 1]) of A and C.
    std::vector<int> Lo(D + 1);
    for (int d = 0; d <= D; ++d)
      Lo[d] = int(std::size_t(n) * d / D);
    std::vector<Pointer<float>> Bs, As, Cs;
    for (int d = 0; d < D; ++d) {
      const std::size_t Rows = std::size_t(Lo[d + 1] - Lo[d]);
      Bs.push_back(allocate<float>(NN, Device(d)));
      As.push_back(allocate<float>(Rows * n, Device(d)));
      Cs.push_back(allocate<float>(Rows * n, Device(d)));
      copy(Bs[d], B, NN);
      copy(As[d], 0, A, std::size_t(Lo[d]) * n, Rows * n);
    }
    std::vector<Task<void, Index<2>>> Tasks;
    for (int d = 0; d < D; ++d)
      Tasks.emplace_back(hpp::detail::taskKernel(hpp_matmulRows_task0, As[d],
                                                 Bs[d], Cs[d], n));
    auto Run = [&] {
      std::vector<Future<void>> Fs;
      for (int d = 0; d < D; ++d)
        Fs.push_back(Tasks[d].enqueue(
            Device(d),
            Range<2>(std::size_t(n), std::size_t(Lo[d + 1] - Lo[d]))));
      for (Future<void> &F : Fs)
        F.wait();
    };
    const double Ms = interleaved({Run}, Runs)[0];
    if (D == 1)
      Base = Ms;
    // 64 elements of C against the host, in double.
    bool Ok = true;
    for (int S = 0; S < 64; ++S) {
      const std::size_t I = (std::size_t(S) * 2654435761u) % n,
                        J = (std::size_t(S) * 40503u + 7) % n;
      double Ref = 0;
      for (int K = 0; K < n; ++K)
        Ref += double(A[I * n + K]) * double(B[std::size_t(K) * n + J]);
      int d = 0;
      while (int(I) >= Lo[d + 1])
        ++d;
      const double Got = Cs[d][(I - Lo[d]) * n + J];
      Ok &= std::fabs(Got - Ref) <= 1e-3 * std::fabs(Ref) + 1e-3;
    }
    row("matmul", D, Ms, Base / Ms, Ok);
    for (int d = 0; d < D; ++d) {
      deallocate(Bs[d]);
      deallocate(As[d]);
      deallocate(Cs[d]);
    }
  }
  deallocate(A);
  deallocate(B);
}

//===----------------------------------------------------------------------===//
// (b) two independent pipelines
//===----------------------------------------------------------------------===//

static void pipelines(int Runs, int Steps) {
  const int Count = getDeviceCount();
  const std::size_t M = std::size_t(1) << 22;
  const int Iters = 400;
  Pointer<float> X0 = allocate<float>(M, Device(0));
  Pointer<float> Y0 = allocate<float>(M, Device(0));
  Pointer<float> Y1 =
      Count > 1 ? allocate<float>(M, Device(1)) : Pointer<float>();
  Task<void, Index<1>> StepX(
      hpp::detail::taskKernel(hpp_step_task0, X0, Iters));
  Task<void, Index<1>> StepY0(
      hpp::detail::taskKernel(hpp_step_task0, Y0, Iters));
  Task<void, Index<1>> StepY1(
      hpp::detail::taskKernel(hpp_step_task0, Y1, Iters));
  auto Chains = [&](Task<void, Index<1>> &T2, Device D2) {
    Future<void> F1 = StepX.enqueue(Device(0), Range<1>(M));
    Future<void> F2 = T2.enqueue(D2, Range<1>(M));
    for (int S = 1; S < Steps; ++S) {
      F1 = StepX.enqueue(Device(0), Range<1>(M), F1);
      F2 = T2.enqueue(D2, Range<1>(M), F2);
    }
    F1.wait();
    F2.wait();
  };
  std::vector<std::function<void()>> Calls = {
      [&] { Chains(StepY0, Device(0)); }};
  if (Count > 1)
    Calls.push_back([&] { Chains(StepY1, Device(1)); });
  for (std::size_t K = 0; K < M; ++K)
    X0[K] = Y0[K] = inputValue(K);
  if (Count > 1)
    for (std::size_t K = 0; K < M; ++K)
      Y1[K] = inputValue(K);
  const std::vector<double> Ms = interleaved(Calls, Runs);
  // Each array went through Steps * Iters steps per call, in all the calls
  // of the rounds: x_t = a^t x_0 + b (1 - a^t) / (1 - a), with the float
  // constants' values (the device's rounding drifts by far less than the
  // tolerance).
  const int Calls0 = 2 + Runs; // The warm-ups too.
  auto Check = [&](Pointer<float> P, int NCalls) {
    bool Ok = true;
    const double T = double(NCalls) * Steps * Iters;
    for (std::size_t K = 0; K < M; K += M / 61) {
      const double A = double(0.99999f), B = double(0.00001f);
      const double At = std::pow(A, T);
      const double Want = At * double(inputValue(K)) + B * (1 - At) / (1 - A);
      Ok &= std::fabs(double(P[K]) - Want) <= 2e-3;
    }
    return Ok;
  };
  // X0 ran in every call of both versions; Y0 in the first's, Y1 in the
  // second's.
  const int XCalls = Calls0 * int(Calls.size());
  const bool Ok = Check(X0, XCalls) && Check(Y0, Calls0) &&
                  (Count < 2 || Check(Y1, Calls0));
  row("pipelines both on one", 1, Ms[0], 1.0, Ok);
  if (Count > 1)
    row("pipelines one per device", 2, Ms[1], Ms[1] / Ms[0], Ok);
  else
    skipped("pipelines one per device", 2, Count);
  deallocate(X0);
  deallocate(Y0);
  if (Count > 1)
    deallocate(Y1);
}

//===----------------------------------------------------------------------===//
// (c) a cross-device dependency
//===----------------------------------------------------------------------===//

static void crossDevice(int Runs) {
  const int Count = getDeviceCount();
  if (Count < 2) {
    skipped("cross-device dependency", 2, Count);
    return;
  }
  const int Pairs = 100; // Per timed call.
  Pointer<int> X0 = allocate<int>(1, Device(0));
  Pointer<int> X1 = allocate<int>(1, Device(1));
  Task<void, Index<1, 1>> T0(hpp::detail::taskKernel(hpp_tiny_task0, X0));
  Task<void, Index<1, 1>> T1(hpp::detail::taskKernel(hpp_tiny_task0, X1));
  cudaStream_t S0, S1;
  cudaEvent_t E;
  HPP_CHECK(cudaSetDevice(0));
  HPP_CHECK(cudaStreamCreateWithFlags(&S0, cudaStreamNonBlocking));
  HPP_CHECK(cudaEventCreateWithFlags(&E, cudaEventDisableTiming));
  HPP_CHECK(cudaSetDevice(1));
  HPP_CHECK(cudaStreamCreateWithFlags(&S1, cudaStreamNonBlocking));
  int *R0 = nullptr, *R1 = nullptr;
  HPP_CHECK(cudaMalloc(&R1, sizeof(int)));
  HPP_CHECK(cudaMemset(R1, 0, sizeof(int)));
  HPP_CHECK(cudaSetDevice(0));
  HPP_CHECK(cudaMalloc(&R0, sizeof(int)));
  HPP_CHECK(cudaMemset(R0, 0, sizeof(int)));
  HPP_CHECK(cudaDeviceSynchronize());
  auto Runtime = [&] {
    for (int P = 0; P < Pairs; ++P) {
      Future<void> F0 = T0.enqueue(Device(0), Range<1, 1>(32, 32));
      T1.enqueue(Device(1), Range<1, 1>(32, 32), F0).wait();
    }
  };
  auto Raw = [&] {
    for (int P = 0; P < Pairs; ++P) {
      HPP_CHECK(cudaSetDevice(0));
      rawTiny<<<1, 32, 0, S0>>>(R0);
      HPP_CHECK(cudaEventRecord(E, S0));
      HPP_CHECK(cudaSetDevice(1));
      HPP_CHECK(cudaStreamWaitEvent(S1, E, 0));
      rawTiny<<<1, 32, 0, S1>>>(R1);
      HPP_CHECK(cudaStreamSynchronize(S1));
      HPP_CHECK(cudaSetDevice(0));
    }
  };
  const std::vector<double> Ms = interleaved({Runtime, Raw}, Runs);
  int H0 = 0, H1 = 0;
  HPP_CHECK(cudaMemcpy(&H0, R0, sizeof(int), cudaMemcpyDeviceToHost));
  HPP_CHECK(cudaMemcpy(&H1, R1, sizeof(int), cudaMemcpyDeviceToHost));
  const int Want = Pairs * (2 + Runs);
  const bool Ok = X0[0] == Want && X1[0] == Want && H0 == Want && H1 == Want;
  row("cross-device pair (raw)", 2, Ms[1] / Pairs, 1.0, Ok);
  row("cross-device pair (runtime)", 2, Ms[0] / Pairs, Ms[0] / Ms[1], Ok);
  HPP_CHECK(cudaFree(R0));
  HPP_CHECK(cudaSetDevice(1));
  HPP_CHECK(cudaFree(R1));
  HPP_CHECK(cudaStreamDestroy(S1));
  HPP_CHECK(cudaSetDevice(0));
  HPP_CHECK(cudaStreamDestroy(S0));
  HPP_CHECK(cudaEventDestroy(E));
  deallocate(X0);
  deallocate(X1);
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 8192;
  const int Runs = argc > 2 ? std::atoi(argv[2]) : 10;
  const int Steps = argc > 3 ? std::atoi(argv[3]) : 8;
  if (n < 16 || Runs < 1 || Steps < 1) {
    std::fprintf(stderr,
                 "usage: multi_device_bench [n >= 16] [runs] [steps]\n");
    return 2;
  }
  try {
    const int Count = getDeviceCount();
    std::printf("devices: %d; n=%d runs=%d steps=%d\n", Count, n, Runs, Steps);
    // Kernels on each device may use the others' memory (not needed by
    // the rows below, which copy; it makes the copies take the peer link).
    for (int a = 0; a < Count; ++a)
      for (int b = 0; b < Count; ++b)
        if (a != b && canAccessPeer(Device(a), Device(b)))
          enablePeerAccess(Device(a), Device(b));
    matmul(n, Runs);
    pipelines(Runs, Steps);
    crossDevice(std::max(Runs, 10));
  } catch (const RuntimeError &E) {
    std::fprintf(stderr, "%s\n", E.what());
    return 1;
  }
  return AllOk ? 0 : 1;
}
