//===- hpp/backend/cpu.h - CPU backend of the device runtime --------------===//
//
// Part of hpp-rewrite. Device runtime, CPU backend (g++ / clang++).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Lets rewritten HIP/CUDA sources compile as plain C++17 and run on the
/// host: the CUDA qualifiers expand to nothing (or to annotations while
/// hpp-rewrite parses its own output, __HPP_REWRITE__ defined), the built-in
/// variables are thread-local (cpu_executor.h), and kernels run on host
/// threads. The API mirrors the CUDA runtime calls the GPU backends make,
/// returning hpp::cpu_backend::Error, so HPP_CHECK reports failures the same
/// way.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_CPU_H
#define HPP_RUNTIME_BACKEND_CPU_H

/// Set by the backend header; the shared pieces of the runtime need it.
#define HPP_RUNTIME_BACKEND 1

#include "hpp/backend/cpu_executor.h"
#include "hpp/check.h"
#include "hpp/core/config.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <tuple>
#include <utility>

//===----------------------------------------------------------------------===//
// CUDA qualifiers
//===----------------------------------------------------------------------===//

#if defined(__HPP_REWRITE__)
#define HPP_CPU_QUALIFIER(Name) __attribute__((annotate("hpp.cuda." #Name)))
#else
#define HPP_CPU_QUALIFIER(Name)
#endif

#ifndef __global__
#define __global__ HPP_CPU_QUALIFIER(global)
#endif
#ifndef __device__
#define __device__ HPP_CPU_QUALIFIER(device)
#endif
#ifndef __host__
#define __host__ HPP_CPU_QUALIFIER(host)
#endif
#ifndef __constant__
#define __constant__ HPP_CPU_QUALIFIER(constant)
#endif
/// Work-group shared memory: one copy per host thread, and a host thread runs
/// one work-group at a time, so the work-items of a group share it.
#ifndef __shared__
#define __shared__ static thread_local HPP_CPU_QUALIFIER(shared)
#endif
#ifndef __forceinline__
#define __forceinline__ __inline__ __attribute__((always_inline))
#endif
#ifndef __launch_bounds__
#define __launch_bounds__(...)
#endif

namespace hpp {
namespace cpu_backend {

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/// Result of a CPU backend call (the subset of cudaError_t it can produce).
enum class Error {
  Success = 0,
  InvalidValue,
  MemoryAllocation,
  InvalidConfiguration,
};

/// The message CUDA gives for the same error.
inline const char *getErrorString(Error E) {
  switch (E) {
  case Error::Success:
    return "no error";
  case Error::InvalidValue:
    return "invalid argument";
  case Error::MemoryAllocation:
    return "out of memory";
  case Error::InvalidConfiguration:
    return "invalid configuration argument";
  }
  return "unknown error";
}

//===----------------------------------------------------------------------===//
// The calls the runtime makes
//===----------------------------------------------------------------------===//

/// Zeroed memory for host "device" code (aligned for any scalar type).
inline Error mallocManaged(void **Ptr, std::size_t Bytes) {
  if (!Ptr || Bytes == 0)
    return Error::InvalidValue;
  *Ptr = std::calloc(Bytes, 1);
  return *Ptr ? Error::Success : Error::MemoryAllocation;
}

inline Error freeManaged(void *Ptr) {
  std::free(Ptr);
  return Error::Success;
}

/// Largest work-group the GPU backends accept; the CPU backend keeps the
/// same limits so a launch that works here works there.
constexpr std::uint64_t MaxWorkGroupItems = 1024;
constexpr unsigned MaxWorkGroupZ = 64;

/// Runs \p WorkItem over the grid and returns when it is done.
template <class F>
Error launch(const dim3 &Grid, const dim3 &Block, F &WorkItem) {
  if (itemCount(Grid) == 0 || itemCount(Block) == 0 ||
      itemCount(Block) > MaxWorkGroupItems || Block.z > MaxWorkGroupZ)
    return Error::InvalidConfiguration;
  GridExecutor().run(Grid, Block, WorkItem);
  return Error::Success;
}

} // namespace cpu_backend

namespace detail {

/// Reads cpu_backend::Error for HPP_CHECK.
template <> struct BackendErrorTraits<cpu_backend::Error> {
  static bool isSuccess(cpu_backend::Error E) {
    return E == cpu_backend::Error::Success;
  }
  static const char *message(cpu_backend::Error E) {
    return cpu_backend::getErrorString(E);
  }
  static void clear() {}
};

/// The "device": the host, which needs no prefetching.
struct DeviceTarget {
  int Id = 0;
  bool ConcurrentManagedAccess = false;
};

inline DeviceTarget currentDeviceTarget() { return DeviceTarget(); }

/// \p Bytes (> 0) of zeroed memory.
inline void *allocateManagedBytes(std::size_t Bytes) {
  void *P = nullptr;
  HPP_CHECK(cpu_backend::mallocManaged(&P, Bytes));
  return P;
}

inline void freeManagedBytes(void *P) {
  HPP_CHECK(cpu_backend::freeManaged(P));
}

inline void prefetchToDevice(const DeviceTarget &, const void *, std::size_t) {}

/// Runs \p Kernel over the grid on host threads; returns when it is done.
template <class KernelT, class RangeT, class... P, std::size_t... I>
void launchOnBackend(KernelT *Kernel, dim3 Grid, dim3 Block, RangeT &RangeArg,
                     std::tuple<P...> &Args, std::index_sequence<I...>) {
  // Each work-item gets its own copies of the arguments, as on a GPU.
  auto WorkItem = [&] { Kernel(RangeArg, std::get<I>(Args)...); };
  HPP_CHECK(cpu_backend::launch(Grid, Block, WorkItem));
}

/// The simulated warp width (fixed at 32 for now).
inline int queryWarpSize(int) { return 32; }

} // namespace detail
} // namespace hpp

//===----------------------------------------------------------------------===//
// Work-group synchronization (placeholders until the fiber executor)
//===----------------------------------------------------------------------===//

/// Work-group barrier. Work-groups of one work-item only, for now.
inline void __syncthreads() {
  if (hpp::cpu_backend::itemCount(blockDim) > 1)
    hpp::cpu_backend::unsupported("__syncthreads()");
}

/// The subset of cooperative_groups the rewritten code names (so the CPU
/// backend parses it); sync() has __syncthreads()'s limitation.
namespace cooperative_groups {

/// The work-group of the calling work-item.
class thread_block {
public:
  void sync() const { __syncthreads(); }
  unsigned size() const {
    return unsigned(hpp::cpu_backend::itemCount(blockDim));
  }
  unsigned thread_rank() const {
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  }
  dim3 group_index() const { return blockIdx; }
  dim3 thread_index() const { return threadIdx; }
};

inline thread_block this_thread_block() { return thread_block(); }

/// A static partition of a work-group into tiles of \p Size work-items.
template <unsigned Size> class thread_block_tile {
public:
  void sync() const {
    if (Size > 1 && hpp::cpu_backend::itemCount(blockDim) > 1)
      hpp::cpu_backend::unsupported("thread_block_tile::sync()");
  }
  static constexpr unsigned size() { return Size; }
  unsigned thread_rank() const {
    return this_thread_block().thread_rank() % Size;
  }
  unsigned meta_group_rank() const {
    return this_thread_block().thread_rank() / Size;
  }
};

template <unsigned Size, class ParentT>
thread_block_tile<Size> tiled_partition(const ParentT &) {
  return thread_block_tile<Size>();
}

} // namespace cooperative_groups

#endif // HPP_RUNTIME_BACKEND_CPU_H
