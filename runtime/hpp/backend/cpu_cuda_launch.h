//===- hpp/backend/cpu_cuda_launch.h - CUDA launches, CPU -------*- C++ -*-===//
//
// Part of hpp-rewrite. Device runtime, CPU backend (hpp/cuda_api.h).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Kernel launches of port-mode code on the CPU backend:
///  - hpp::launchCuda(kernel, grid, block, shmem, stream, args...), what
///    hpp-rewrite makes of `kernel<<<grid, block, shmem, stream>>>(args...)`,
///    and hpp::launchCudaCooperative, which launches as
///    cudaLaunchCooperativeKernel does. Each argument is converted to its
///    parameter's type at the call (the pack after the kernel is not
///    deduced: cuda_api_support.h), and each work-item gets its own copies,
///    as on a GPU. The grid runs on the backend's executors
///    (cpu_executor.h; a cooperative launch on cpu_cooperative.h's, one host
///    thread per block, so that cg::this_grid().sync() works), with
///    threadIdx, blockIdx, blockDim and gridDim set, and returns when it is
///    done, whatever the stream;
///  - a launch the device would refuse does not run and returns nothing,
///    as `<<<>>>`: its error (cudaErrorInvalidConfiguration for a block of
///    more than 1024 threads, a block's z above 64, an empty or too large
///    grid; cudaErrorInvalidValue for more dynamic shared memory than the
///    kernel may have: 48 KiB, or what cudaFuncSetAttribute's
///    cudaFuncAttributeMaxDynamicSharedMemorySize allowed, up to 227 KiB;
///    cudaErrorInvalidResourceHandle for a stream that does not exist;
///    cudaErrorCooperativeLaunchTooLarge for a cooperative grid larger than
///    the occupancy model holds) is what the next cudaGetLastError or
///    cudaPeekAtLastError returns, and hpp::lastCudaErrorPlace() names the
///    launch's file and line. An error in a kernel's code (a divergent
///    barrier, a bad shuffle, a write past the dynamic shared memory)
///    throws hpp::RuntimeError from the launch, as the CPU backend reports
///    every such error;
///  - hpp::dynamicShared<T>(): the block's dynamic shared memory, poisoned
///    (0xFF bytes) when each block starts, like `__shared__` variables. A
///    guard of 64 poisoned bytes follows the launch's size: a work-item
///    that ends finds whether something was written there, and the launch
///    throws hpp::RuntimeError at its line;
///  - cudaLaunchKernel and cudaLaunchCooperativeKernel with the arguments
///    as `void **`: from the kernel itself, or from the kernel's address
///    (`(void *)kernel`) when the backend has seen the kernel typed before
///    (launched, or given to cudaFuncSetAttribute, cudaFuncGetAttributes or
///    an occupancy call: cpu_cuda_kernels.h); otherwise the backend cannot
///    call it and throws hpp::RuntimeError saying so;
///  - cg::grid_group and cg::this_grid(): sync() is the launch-wide barrier
///    of a cooperative launch (hpp/cpu/gpu_sync.h's), an error elsewhere.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_CPU_CUDA_LAUNCH_H
#define HPP_RUNTIME_BACKEND_CPU_CUDA_LAUNCH_H

#include "hpp/backend/cpu_cuda_device.h"
#include "hpp/cpu/barrier_ops.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>

namespace hpp {
namespace detail {

/// Poisoned bytes after a launch's dynamic shared memory, checked when each
/// work-item ends.
constexpr std::size_t DynamicSharedGuard = 64;

/// A kernel as the CPU backend can call it from its address and `void **`
/// arguments (CudaKernels).
struct CudaLaunchRequest;
using CudaInvoker = cudaError_t (*)(const CudaLaunchRequest &, void **Args);

/// What the CUDA calls know of each kernel, by address.
class CudaKernels {
public:
  struct Info {
    int MaxDynamicShared = 48 * 1024;
    int Carveout = -1;
    CudaInvoker Invoke = nullptr;
  };
  static CudaKernels &get() {
    static CudaKernels *Kernels = new CudaKernels; // Outlives static dtors.
    return *Kernels;
  }
  Info find(const void *Kernel) {
    std::lock_guard<std::mutex> Guard(Lock);
    auto It = Table.find(Kernel);
    return It == Table.end() ? Info() : It->second;
  }
  template <class F> void update(const void *Kernel, F Change) {
    std::lock_guard<std::mutex> Guard(Lock);
    Change(Table[Kernel]);
  }

private:
  std::mutex Lock;
  std::map<const void *, Info> Table;
};

/// One launch: the kernel's address, its shape, and how a work-item runs
/// (\p Run on \p Item).
struct CudaLaunchRequest {
  const void *Kernel;
  dim3 Grid;
  dim3 Block;
  std::size_t SharedBytes;
  cudaStream_t Stream;
  bool Cooperative;
  const char *Call;
  const char *File;
  int Line;
  void (*Run)(void *) = nullptr;
  void *Item = nullptr;
};

/// The occupancy model: blocks of \p BlockSize threads with \p Shared bytes
/// of dynamic shared memory one multiprocessor of \p P holds (threads in
/// whole warps, blocks, shared memory with the per-block reserve).
inline int cudaBlocksPerSm(const cudaDeviceProp &P, int BlockSize,
                           std::size_t Shared) {
  if (BlockSize <= 0 || BlockSize > P.maxThreadsPerBlock ||
      Shared > P.sharedMemPerBlockOptin)
    return 0;
  const int Threads = (BlockSize + P.warpSize - 1) / P.warpSize * P.warpSize;
  const int ByThreads = P.maxThreadsPerMultiProcessor / Threads;
  const int ByShared = int(P.sharedMemPerMultiprocessor /
                           (Shared + P.reservedSharedMemPerBlock));
  return std::min(P.maxBlocksPerMultiProcessor, std::min(ByThreads, ByShared));
}

/// The error the device gives launch \p L before running it, if any.
inline cudaError_t cudaLaunchError(const CudaLaunchRequest &L) {
  if (!validStream(L.Stream))
    return cudaErrorInvalidResourceHandle;
  const cudaDeviceProp &P = cudaCpuDevice(L.File, L.Line);
  const dim3 &B = L.Block, &G = L.Grid;
  const std::uint64_t Threads = hpp::cpu_backend::itemCount(B);
  if (Threads == 0 || B.x > unsigned(P.maxThreadsDim[0]) ||
      B.y > unsigned(P.maxThreadsDim[1]) ||
      B.z > unsigned(P.maxThreadsDim[2]) ||
      Threads > std::uint64_t(P.maxThreadsPerBlock))
    return cudaErrorInvalidConfiguration;
  if (G.x == 0 || G.y == 0 || G.z == 0 || G.x > unsigned(P.maxGridSize[0]) ||
      G.y > unsigned(P.maxGridSize[1]) || G.z > unsigned(P.maxGridSize[2]))
    return cudaErrorInvalidConfiguration;
  if (L.SharedBytes >
      std::size_t(CudaKernels::get().find(L.Kernel).MaxDynamicShared))
    return cudaErrorInvalidValue;
  if (L.Cooperative &&
      hpp::cpu_backend::itemCount(G) >
          std::uint64_t(cudaBlocksPerSm(P, int(Threads), L.SharedBytes)) *
              std::uint64_t(P.multiProcessorCount))
    return cudaErrorCooperativeLaunchTooLarge;
  return cudaSuccess;
}

/// Throws if a work-item of \p L wrote into the guard after the dynamic
/// shared memory.
inline void checkSharedGuard(const CudaLaunchRequest &L) {
  const unsigned char *Guard =
      hpp::cpu_backend::dynamicShared() + L.SharedBytes;
  for (std::size_t K = 0; K != DynamicSharedGuard; ++K)
    if (Guard[K] != hpp::cpu::GroupMemoryFill)
      throw RuntimeError(
          L.Call, L.File, L.Line,
          "a thread of block (" + std::to_string(blockIdx.x) + "," +
              std::to_string(blockIdx.y) + "," + std::to_string(blockIdx.z) +
              ") wrote byte " + std::to_string(L.SharedBytes + K) +
              " of its dynamic shared memory, past the " +
              std::to_string(L.SharedBytes) + " bytes the launch gave it");
}

/// One work-item of a launch: the kernel, then the guard's check.
inline void runCudaWorkItem(void *Launch) {
  const auto &L = *static_cast<const CudaLaunchRequest *>(Launch);
  L.Run(L.Item);
  checkSharedGuard(L);
}

/// Runs \p L, or records its error (and, if \p Unread, reports it at exit
/// unless a cudaGetLastError reads it). Not a template: compiled once.
inline cudaError_t launchCudaOnCpu(const CudaLaunchRequest &L, bool Unread) {
  hpp::cpu::validateCheckSettings(L.File, L.Line);
  const cudaError_t E = cudaLaunchError(L);
  if (E != cudaSuccess) {
    cudaFail(E, L.Call, L.File, L.Line);
    if (Unread) {
      cudaErrorState().UnreadLaunch = {L.Call, L.File, L.Line};
      cudaErrorState().UnreadLaunchError = E;
    }
    return E;
  }
  LaunchOptions Options;
  Options.Cooperative = L.Cooperative;
  Options.SharedBytes = L.SharedBytes + DynamicSharedGuard;
  Options.InRange = std::size_t(hpp::cpu_backend::itemCount(L.Grid) *
                                hpp::cpu_backend::itemCount(L.Block));
  void *Launch = const_cast<CudaLaunchRequest *>(&L);
  try {
    if (L.Cooperative)
      hpp::cpu_backend::CooperativeExecutor(L.Grid, L.Block, Options,
                                            &runCudaWorkItem, Launch)
          .run();
    else
      hpp::cpu_backend::GridExecutor(L.Grid, L.Block, Options, &runCudaWorkItem,
                                     Launch)
          .run();
  } catch (const RuntimeError &Error) {
    if (isLaunchError(Error))
      throw Error.at(L.File, L.Line);
    throw;
  }
  return cudaSuccess;
}

/// A kernel with its arguments, called as one work-item: each call passes
/// copies of the arguments.
template <class... P> struct CudaKernelCall {
  void (*Kernel)(P...);
  std::tuple<P...> Args;
  static void run(void *Self) {
    auto &C = *static_cast<CudaKernelCall *>(Self);
    std::apply(C.Kernel, C.Args);
  }
};

template <class... P>
cudaError_t launchCall(CudaLaunchRequest L, CudaKernelCall<P...> &Call,
                       bool Unread) {
  L.Run = &CudaKernelCall<P...>::run;
  L.Item = &Call;
  return launchCudaOnCpu(L, Unread);
}

/// The launch of the kernel \p L names, with the arguments \p Args point
/// to (a CudaInvoker).
template <class... P, std::size_t... I>
cudaError_t invokeWith(const CudaLaunchRequest &L, void **Args,
                       std::index_sequence<I...>) {
  if (sizeof...(P) && !Args)
    return cudaFail(cudaErrorInvalidValue, L.Call, L.File, L.Line);
  using KernelT = void (*)(P...);
  CudaKernelCall<P...> Call{
      reinterpret_cast<KernelT>(const_cast<void *>(L.Kernel)),
      std::tuple<P...>(*static_cast<P *>(Args[I])...)};
  return launchCall(L, Call, false);
}
template <class... P>
cudaError_t invokeCuda(const CudaLaunchRequest &L, void **Args) {
  return invokeWith<P...>(L, Args, std::index_sequence_for<P...>());
}

/// Remembers how to call \p Kernel from its address; returns the address.
template <class... P> const void *registerKernel(void (*Kernel)(P...)) {
  const void *Address = reinterpret_cast<const void *>(Kernel);
  CudaKernels::get().update(
      Address, [](CudaKernels::Info &I) { I.Invoke = &invokeCuda<P...>; });
  return Address;
}

/// A launch from the kernel's address and `void **` arguments.
inline cudaError_t launchByAddress(const CudaLaunchRequest &L, void **Args) {
  const CudaInvoker Invoke = CudaKernels::get().find(L.Kernel).Invoke;
  if (!Invoke)
    throw RuntimeError(
        L.Call, L.File, L.Line,
        "the CPU backend calls a kernel given by its address only once it "
        "has seen the kernel typed (launched, or given to "
        "cudaFuncSetAttribute, cudaFuncGetAttributes or an occupancy "
        "call); pass the kernel itself, not (void *)kernel");
  return Invoke(L, Args);
}

} // namespace detail

/// `Kernel<<<Grid, Block, SharedBytes, Stream>>>(Args...)`.
template <class... P>
void launchCuda(void (*Kernel)(P...), CudaGrid Grid, dim3 Block,
                std::size_t SharedBytes, cudaStream_t Stream,
                typename detail::Identity<P>::type... Args) {
  detail::CudaKernelCall<P...> Call{Kernel, std::tuple<P...>(Args...)};
  detail::launchCall(detail::CudaLaunchRequest{detail::registerKernel(Kernel),
                                               Grid.Dims, Block, SharedBytes,
                                               Stream, false, "kernel launch",
                                               Grid.File, Grid.Line},
                     Call, true);
}

/// The cooperative launch of \p Kernel, as cudaLaunchCooperativeKernel
/// makes it (every block resident at once; cg::this_grid().sync() works);
/// returns its error.
template <class... P>
cudaError_t launchCudaCooperative(void (*Kernel)(P...), CudaGrid Grid,
                                  dim3 Block, std::size_t SharedBytes,
                                  cudaStream_t Stream,
                                  typename detail::Identity<P>::type... Args) {
  detail::CudaKernelCall<P...> Call{Kernel, std::tuple<P...>(Args...)};
  return detail::launchCall(
      detail::CudaLaunchRequest{
          detail::registerKernel(Kernel), Grid.Dims, Block, SharedBytes, Stream,
          true, "cooperative kernel launch", Grid.File, Grid.Line},
      Call, false);
}

/// The block's dynamic shared memory (`extern __shared__ T name[]`).
template <class T> T *dynamicShared(HPP_CALLER_LOCATION) {
  hpp::cpu_backend::requireWorkItem("hpp::dynamicShared", File, Line);
  return reinterpret_cast<T *>(hpp::cpu_backend::dynamicShared());
}

} // namespace hpp

template <class... P>
cudaError_t cudaLaunchKernel(void (*Kernel)(P...), dim3 Grid, dim3 Block,
                             void **Args, std::size_t SharedBytes = 0,
                             cudaStream_t Stream = 0, HPP_CALLER_LOCATION) {
  return hpp::detail::invokeCuda<P...>({hpp::detail::registerKernel(Kernel),
                                        Grid, Block, SharedBytes, Stream, false,
                                        "cudaLaunchKernel", File, Line},
                                       Args);
}
inline cudaError_t cudaLaunchKernel(const void *Kernel, dim3 Grid, dim3 Block,
                                    void **Args, std::size_t SharedBytes = 0,
                                    cudaStream_t Stream = 0,
                                    HPP_CALLER_LOCATION) {
  return hpp::detail::launchByAddress({Kernel, Grid, Block, SharedBytes, Stream,
                                       false, "cudaLaunchKernel", File, Line},
                                      Args);
}

template <class... P>
cudaError_t
cudaLaunchCooperativeKernel(void (*Kernel)(P...), dim3 Grid, dim3 Block,
                            void **Args, std::size_t SharedBytes = 0,
                            cudaStream_t Stream = 0, HPP_CALLER_LOCATION) {
  return hpp::detail::invokeCuda<P...>(
      {hpp::detail::registerKernel(Kernel), Grid, Block, SharedBytes, Stream,
       true, "cudaLaunchCooperativeKernel", File, Line},
      Args);
}
inline cudaError_t cudaLaunchCooperativeKernel(const void *Kernel, dim3 Grid,
                                               dim3 Block, void **Args,
                                               std::size_t SharedBytes = 0,
                                               cudaStream_t Stream = 0,
                                               HPP_CALLER_LOCATION) {
  return hpp::detail::launchByAddress({Kernel, Grid, Block, SharedBytes, Stream,
                                       true, "cudaLaunchCooperativeKernel",
                                       File, Line},
                                      Args);
}

namespace cooperative_groups {

/// Every thread of the launch. sync() needs a cooperative launch.
class grid_group {
public:
  void sync(const char *File = __builtin_FILE(),
            int Line = __builtin_LINE()) const {
    hpp::cpu::GroupExecutor &E =
        hpp::cpu::deviceExecutor("grid_group::sync", File, Line);
    if (!E.launch())
      throw hpp::RuntimeError(
          "grid_group::sync", File, Line,
          "the grid synchronizes only in a cooperative launch "
          "(cudaLaunchCooperativeKernel or hpp::launchCudaCooperative)");
    hpp::cpu::barrierOp(E.launch()->gridBarrier(), true, 0, "grid_group::sync",
                        File, Line);
  }
  /// Whether the launch is cooperative (the grid can synchronize).
  bool is_valid() const {
    hpp::cpu::GroupExecutor *E = hpp::cpu::GroupExecutor::current();
    return E && E->launch();
  }
  unsigned long long num_threads() const {
    return num_blocks() * hpp::cpu_backend::itemCount(blockDim);
  }
  unsigned long long size() const { return num_threads(); }
  unsigned long long block_rank() const {
    return (unsigned long long)(blockIdx.z * gridDim.y + blockIdx.y) *
               gridDim.x +
           blockIdx.x;
  }
  unsigned long long num_blocks() const {
    return hpp::cpu_backend::itemCount(gridDim);
  }
  unsigned long long thread_rank() const {
    return block_rank() * hpp::cpu_backend::itemCount(blockDim) +
           this_thread_block().thread_rank();
  }
  dim3 group_dim() const { return gridDim; }
  dim3 dim_blocks() const { return gridDim; }
  dim3 block_index() const { return blockIdx; }
};

inline grid_group this_grid() { return grid_group(); }

} // namespace cooperative_groups

#endif // HPP_RUNTIME_BACKEND_CPU_CUDA_LAUNCH_H
