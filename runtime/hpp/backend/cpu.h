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
/// threads, each work-item a fiber of the CPU reference runtime's
/// GroupExecutor, on a simulated mvector of HPP_CPU_MVECTOR (32 or 64)
/// lanes. __syncthreads, the cooperative_groups subset the rewriter emits
/// (this_thread_block, tiled_partition, sync) and the warp operations of
/// cpu_warp.h are collectives of those fibers: a barrier or warp operation
/// that not every work-item or lane reaches throws hpp::RuntimeError with
/// the caller's file:line instead of hanging. The API mirrors the CUDA
/// runtime calls the GPU backends make, returning hpp::cpu_backend::Error,
/// so HPP_CHECK reports failures the same way.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_CPU_H
#define HPP_RUNTIME_BACKEND_CPU_H

/// Set by the backend header; the shared pieces of the runtime need it.
#define HPP_RUNTIME_BACKEND 1

#include "hpp/backend/cpu_cooperative.h"
#include "hpp/backend/cpu_devices.h"
#include "hpp/backend/cpu_executor.h"
#include "hpp/check.h"
#include "hpp/core/config.h"
#include "hpp/core/error.h"
#include "hpp/cpu/settings.h"
#include "hpp/cpu/sync.h"
#include "hpp/cpu/warp_ops.h"
#include "hpp/launch_options.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

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
/// one work-group at a time, so the work-items of a group share it. In the
/// section HPP_CPU_SHARED_SECTION (where the platform has one), so that
/// every work-group starts with them poisoned (cpu_executor.h).
#ifndef __shared__
#if defined(HPP_CPU_SHARED_SECTION) && !defined(__HPP_REWRITE__)
#define __shared__                                                             \
  static thread_local __attribute__((section(HPP_CPU_SHARED_SECTION)))
#else
#define __shared__ static thread_local HPP_CPU_QUALIFIER(shared)
#endif
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

/// Throws for HPP_CPU_CHECK entries this launch cannot honour: the uninit
/// check of a launch with dynamic shared memory (Segments) needs the
/// accessors compiled with -DHPP_CPU_CHECKS (hpp/dist_array.h).
inline void validateChecks(std::size_t SharedBytes) {
  hpp::cpu::validateCheckSettings();
#if !defined(HPP_CPU_CHECKS)
  if (SharedBytes && hpp::cpu::checkUninit())
    throw RuntimeError(
        "hpp::launchKernel", __FILE__, __LINE__,
        "HPP_CPU_CHECK=uninit checks the Segment accesses of the CPU "
        "backend only in a program compiled with -DHPP_CPU_CHECKS (without "
        "it they are plain loads and stores, as on a GPU)");
#else
  (void)SharedBytes;
#endif
}

inline bool validShape(const dim3 &Grid, const dim3 &Block) {
  return itemCount(Grid) != 0 && itemCount(Block) != 0 &&
         itemCount(Block) <= MaxWorkGroupItems && Block.z <= MaxWorkGroupZ;
}

/// Runs \p Run (\p Item) as each work-item of the grid, each work-group
/// with \p Options.SharedBytes of dynamic shared memory (cpu_executor.h:
/// dynamicShared()), and returns when it is done; with
/// \p Options.Cooperative, every work-group resident at once, and
/// \p Options.InRange work-items run the body. Not a template: compiled
/// once, whatever the kernel.
inline Error launchErased(const dim3 &Grid, const dim3 &Block,
                          const hpp::detail::LaunchOptions &Options,
                          void (*Run)(void *), void *Item) {
  if (!validShape(Grid, Block))
    return Error::InvalidConfiguration;
  validateChecks(Options.SharedBytes);
  if (Options.Cooperative)
    CooperativeExecutor(Grid, Block, Options, Run, Item).run();
  else
    GridExecutor(Grid, Block, Options, Run, Item).run();
  return Error::Success;
}

/// launchErased on the callable \p WorkItem.
template <class F>
Error launch(const dim3 &Grid, const dim3 &Block,
             const hpp::detail::LaunchOptions &Options, F &WorkItem) {
  return launchErased(
      Grid, Block, Options, [](void *Item) { (*static_cast<F *>(Item))(); },
      &WorkItem);
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

/// allocateManagedBytes on simulated device \p Dev (the memory is the
/// same; the Pointer and the allocation's record carry the device).
inline void *allocateManagedBytesOn(std::size_t Bytes, int) {
  return allocateManagedBytes(Bytes);
}

inline void freeManagedBytes(void *P) {
  // cudaFree waits for the device: the enqueued tasks run first.
  hpp::cpu::TaskQueue::get().runUntil(nullptr);
  HPP_CHECK(cpu_backend::freeManaged(P));
}

/// allocateHost's memory: zeroed host memory, as the CPU backend's
/// managed memory is.
inline void *allocateHostBytes(std::size_t Bytes) {
  return allocateManagedBytes(Bytes);
}
inline void freeHostBytes(void *P) { freeManagedBytes(P); }

inline void prefetchToDevice(const DeviceTarget &, const void *, std::size_t) {}

/// The most work-items a work-group may have: the GPUs' limit.
inline std::size_t maxWorkGroupItems() {
  return std::size_t(cpu_backend::MaxWorkGroupItems);
}

inline void *LaunchScratch::zeroed(std::size_t Bytes) {
  Blocks.push_back(std::calloc(1, Bytes));
  if (!Blocks.back())
    throw std::bad_alloc();
  return Blocks.back();
}
inline void LaunchScratch::release() noexcept {
  cancelAfterLaunch();
  for (void *P : Blocks)
    std::free(P);
  Blocks.clear();
}
inline LaunchScratch::~LaunchScratch() { release(); }

/// Runs \p Kernel over the grid on host threads; returns when it is done.
/// A cooperative launch runs every work-group at once
/// (backend/cpu_cooperative.h).
template <class KernelT, class RangeT, class... P, std::size_t... I>
void launchOnBackend(KernelT *Kernel, dim3 Grid, dim3 Block, RangeT &RangeArg,
                     std::tuple<P...> &Args, const LaunchOptions &Options,
                     std::index_sequence<I...>) {
  // Each work-item gets its own copies of the arguments, as on a GPU.
  auto WorkItem = [&] { Kernel(RangeArg, std::get<I>(Args)...); };
  HPP_CHECK(cpu_backend::launch(Grid, Block, Options, WorkItem));
}

/// A launch with after-launch work (launch.h) runs as any other: it has
/// returned when the work runs.
inline void *afterLaunchStream() { return nullptr; }
inline void waitForAfterLaunch(void *) {}

/// Before a blocking launch (a parallelFor) at \p File : \p Line: the
/// enqueued tasks run (hpp/cpu/sync.h), and the errors of tasks nobody
/// waited for are reported.
inline void beforeBlockingLaunch(const char *File, int Line) {
  hpp::cpu::synchronize(File, Line);
}
/// After it: the channel consumers its writes triggered have finished.
inline void afterBlockingLaunch(const char *, int) {
  hpp::cpu::awaitConsumers();
}

/// The simulated mvector width, HPP_CPU_MVECTOR (32 or 64; any other value
/// throws hpp::RuntimeError).
inline int queryWarpSize(int) { return int(hpp::cpu::mvectorWidth()); }

} // namespace detail
} // namespace hpp

//===----------------------------------------------------------------------===//
// Work-group synchronization
//===----------------------------------------------------------------------===//

/// The caller's file:line, for the errors of a synchronization.
#define HPP_CPU_CALLER                                                         \
  const char *File = __builtin_FILE(), int Line = __builtin_LINE()

/// Work-group barrier: waits until every work-item of the group that has
/// not exited reaches this same __syncthreads (exited ones count as
/// arrived). Reached by some work-items while the others wait at another
/// barrier or a warp operation, it throws hpp::RuntimeError with the
/// caller's file:line instead of hanging.
inline void __syncthreads(HPP_CPU_CALLER) {
  hpp::cpu::warp::groupBarrier("__syncthreads", File, Line);
}

/// The subset of cooperative_groups the rewritten code names, on the CPU
/// backend's fibers (the CUDA and HIP backends include the real header).
namespace cooperative_groups {

/// The work-group of the calling work-item.
class thread_block {
public:
  /// The work-group barrier (__syncthreads).
  void sync(HPP_CPU_CALLER) const {
    hpp::cpu::warp::groupBarrier("thread_block::sync", File, Line);
  }
  unsigned size() const {
    return unsigned(hpp::cpu_backend::itemCount(blockDim));
  }
  unsigned num_threads() const { return size(); }
  unsigned thread_rank() const {
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  }
  dim3 group_index() const { return blockIdx; }
  dim3 thread_index() const { return threadIdx; }
  dim3 group_dim() const { return blockDim; }
};

inline thread_block this_thread_block() { return thread_block(); }

/// A static partition of a work-group into tiles of \p Size consecutive
/// work-items (by thread_rank). A tile lies in one mvector (its Size lanes
/// from a multiple of Size), and its collectives (sync, the shuffles,
/// ballot, any, all) are exact-mask collectives of exactly those lanes
/// (hpp/cpu/mask_collectives.h), as on NVIDIA, where a tile of 32 is a
/// warp, and on AMD, where HIP confines a tile's operations to its lanes:
/// the other tiles of the mvector may have returned, or wait at another
/// collective or at __syncthreads. Every lane of the tile that exists (a
/// partial last mvector has fewer) must reach the same call; one that has
/// exited, or that can never come, is an error (hpp::RuntimeError with the
/// caller's file:line), as is a tile larger than the mvector (a
/// thread_block_tile<64> at HPP_CPU_MVECTOR=32).
template <unsigned Size> class thread_block_tile {
  static_assert(Size > 0 && (Size & (Size - 1)) == 0 && Size <= 64,
                "tiled_partition<N>: N must be a power of two up to 64");
  using BallotBits =
      std::conditional_t<(Size <= 32), unsigned, unsigned long long>;

public:
  void sync(HPP_CPU_CALLER) const {
    const char *Name = "thread_block_tile::sync";
    hpp::cpu::warp::collective(hpp::cpu::CollectiveKind::SyncWarp, Name,
                               lanes(Name, File, Line), 0, 0, 0, File, Line,
                               /*Half=*/false, /*Exact=*/true);
  }
  static constexpr unsigned size() { return Size; }
  static constexpr unsigned num_threads() { return Size; }
  unsigned thread_rank() const {
    return this_thread_block().thread_rank() % Size;
  }
  /// The tile's index within the work-group.
  unsigned meta_group_rank() const {
    return this_thread_block().thread_rank() / Size;
  }
  /// Number of tiles in the work-group.
  unsigned meta_group_size() const {
    return (this_thread_block().size() + Size - 1) / Size;
  }

  // The tile's shuffles and votes (port mode, hpp/cuda_api.h): the warp
  // operations of hpp/cpu/warp_ops.h over the tile's lanes, with the tile
  // as the shuffle's segment.
  template <class T> T shfl(T Var, int SrcRank, HPP_CPU_CALLER) const {
    return shuffle(hpp::cpu::CollectiveKind::Shfl, "thread_block_tile::shfl",
                   Var, SrcRank, File, Line);
  }
  template <class T> T shfl_up(T Var, unsigned Delta, HPP_CPU_CALLER) const {
    return shuffle(hpp::cpu::CollectiveKind::ShflUp,
                   "thread_block_tile::shfl_up", Var, int(Delta), File, Line);
  }
  template <class T> T shfl_down(T Var, unsigned Delta, HPP_CPU_CALLER) const {
    return shuffle(hpp::cpu::CollectiveKind::ShflDown,
                   "thread_block_tile::shfl_down", Var, int(Delta), File, Line);
  }
  template <class T> T shfl_xor(T Var, unsigned Mask, HPP_CPU_CALLER) const {
    return shuffle(hpp::cpu::CollectiveKind::ShflXor,
                   "thread_block_tile::shfl_xor", Var, int(Mask), File, Line);
  }
  /// Bit i: the tile's thread of rank i passes a non-zero \p Predicate
  /// (CUDA's `unsigned` up to 32 threads; HIP's 64-bit mask for 64).
  BallotBits ballot(int Predicate, HPP_CPU_CALLER) const {
    const char *Name = "thread_block_tile::ballot";
    const unsigned long long Bits =
        hpp::cpu::warp::ballot(Name, lanes(Name, File, Line), Predicate, File,
                               Line, /*Half=*/false, /*Exact=*/true);
    return static_cast<BallotBits>(Bits >> base(Name, File, Line));
  }
  /// 1 if some thread of the tile passes a non-zero \p Predicate.
  int any(int Predicate, HPP_CPU_CALLER) const {
    const char *Name = "thread_block_tile::any";
    return hpp::cpu::warp::any(Name, lanes(Name, File, Line), Predicate, File,
                               Line, /*Half=*/false, /*Exact=*/true);
  }
  /// 1 if every thread of the tile passes a non-zero \p Predicate.
  int all(int Predicate, HPP_CPU_CALLER) const {
    const char *Name = "thread_block_tile::all";
    return hpp::cpu::warp::all(Name, lanes(Name, File, Line), Predicate, File,
                               Line, /*Half=*/false, /*Exact=*/true);
  }

private:
  /// The tile's first lane in the caller's mvector; throws when the tile
  /// is wider than the mvector.
  static unsigned base(const char *Name, const char *File, int Line) {
    hpp::cpu::GroupExecutor &E = hpp::cpu::warp::executorFor(Name, File, Line);
    const unsigned Width = E.mvectorWidth();
    if (Size > Width) {
      // "thread_block_tile::sync" -> "thread_block_tile<64>::sync".
      std::string Op = Name;
      Op.insert(Op.find("::"), "<" + std::to_string(Size) + ">");
      throw hpp::RuntimeError(Op, File, Line,
                              "a tile is larger than the mvector width " +
                                  std::to_string(Width));
    }
    return E.currentLane() & ~(Size - 1);
  }
  /// The mask of the tile's lanes in the caller's mvector.
  static unsigned long long lanes(const char *Name, const char *File,
                                  int Line) {
    return (~0ull >> (64 - Size)) << base(Name, File, Line);
  }
  template <class T>
  static T shuffle(hpp::cpu::CollectiveKind Kind, const char *Name, T Var,
                   int Arg, const char *File, int Line) {
    return hpp::cpu::warp::shuffle(Kind, Name, lanes(Name, File, Line), Var,
                                   Arg, int(Size), File, Line,
                                   /*Half=*/false, /*Exact=*/true);
  }
};

template <unsigned Size, class ParentT>
thread_block_tile<Size> tiled_partition(const ParentT &) {
  return thread_block_tile<Size>();
}

} // namespace cooperative_groups

#undef HPP_CPU_CALLER

#endif // HPP_RUNTIME_BACKEND_CPU_H
