//===- hpp/backend/cpu_executor.h - Runs a kernel grid on host threads ----===//
//
// Part of hpp-rewrite. Device runtime, CPU backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CPU backend's stand-ins for the CUDA/HIP built-in variables
/// (threadIdx, blockIdx, blockDim, gridDim: thread-local; with them the
/// launch's global size, for get_global_size) and the two
/// executors that run a launch: GridExecutor hands work-groups to the host
/// threads of the CPU reference runtime's pool (hpp/cpu/thread_pool.h);
/// BlockExecutor runs the work-items of one work-group as fibers through
/// the reference runtime's hpp::cpu::GroupExecutor (hpp/cpu/
/// group_executor.h), at the simulated width HPP_CPU_MVECTOR (32 or 64).
///
/// All the fibers of a work-group run on one host thread, which runs one
/// work-group at a time: so the thread-local built-in variables and
/// __shared__ variables (static thread_local, backend/cpu.h) are right for
/// the running work-item and shared by its group. A work-item switches only
/// at a collective (a warp operation of backend/cpu_warp.h, __syncthreads,
/// a cooperative-groups sync), and threadIdx is set again at every switch.
///
/// Work-group memory starts poisoned (hpp/cpu/group_memory.h: every byte
/// 0xFF, NaN as float or double) in every work-group: beginGroupMemory
/// fills the thread's dynamic shared memory (the launch's size) and every
/// __shared__ variable of the program before the group's first work-item
/// runs. The __shared__ variables are found as one block: backend/cpu.h
/// puts them in the ELF section HPP_CPU_SHARED_SECTION, whose bounds the
/// linker provides (__start_/__stop_ symbols) as offsets in the program's
/// thread-local storage image, and dl_iterate_phdr gives the calling
/// thread's copy of that image. With HPP_CPU_CHECK=uninit the dynamic
/// shared memory also gets a GroupMemoryShadow, which Segment::operator[]
/// (hpp/dist_array.h, compiled with -DHPP_CPU_CHECKS) consults.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_CPU_EXECUTOR_H
#define HPP_RUNTIME_BACKEND_CPU_EXECUTOR_H

#include "hpp/cpu/group_executor.h"
#include "hpp/cpu/group_memory.h"
#include "hpp/cpu/settings.h"
#include "hpp/cpu/thread_pool.h"
#include "hpp/launch_options.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <string>
#include <vector>

#if defined(__ELF__) && defined(__linux__)
#include <link.h>
/// The section of the __shared__ variables (backend/cpu.h); a C identifier,
/// so that the linker defines __start_hpp_shared and __stop_hpp_shared.
#define HPP_CPU_SHARED_SECTION "hpp_shared"
// Its bounds in the thread-local storage image; null without __shared__
// variables (weak).
extern "C" unsigned char __start_hpp_shared[] __attribute__((weak));
extern "C" unsigned char __stop_hpp_shared[] __attribute__((weak));
#endif

/// CUDA's dim3: three unsigned extents, 1 by default.
struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned X = 1, unsigned Y = 1, unsigned Z = 1)
      : x(X), y(Y), z(Z) {}
};

// The built-in variables, per host thread: a host thread runs one work-group
// at a time, and BlockExecutor sets threadIdx for the work-item it resumes.
inline thread_local dim3 threadIdx(0, 0, 0);
inline thread_local dim3 blockIdx(0, 0, 0);
inline thread_local dim3 blockDim;
inline thread_local dim3 gridDim;

namespace hpp {
namespace detail {
/// The global size of the launch whose work-item runs on this thread, for
/// get_global_size (hpp/kernel_index.h, whose kernelIndex sets it); saved
/// and restored with the built-in variables.
inline thread_local std::size_t LaunchGlobalSize[3] = {1, 1, 1};
} // namespace detail

namespace cpu_backend {

/// Throws for a call of work-item function \p Name outside a kernel at
/// \p File : \p Line (the reference runtime's error, hpp/cpu/work_item.h).
inline void requireWorkItem(const char *Name, const char *File, int Line) {
  if (!hpp::cpu::GroupExecutor::current())
    throw RuntimeError(Name, File, Line,
                       "called outside a parallelFor body: it names the "
                       "calling work-item");
}
/// The check of the work-item functions (hpp/kernel_index.h), which take
/// their caller's File and Line on the CPU backend.
#define HPP_CPU_REQUIRE_WORK_ITEM(Name)                                        \
  ::hpp::cpu_backend::requireWorkItem(Name, File, Line);

/// Number of work-items in a work-group of shape \p Block.
inline std::uint64_t itemCount(const dim3 &Block) {
  return std::uint64_t(Block.x) * Block.y * Block.z;
}

/// The work-group memory of the work-group running on this thread.
struct GroupMemory {
  /// Dynamic shared memory: the launch's size, 16-byte aligned (operator
  /// new's alignment), grown at group start when a launch needs more.
  std::vector<unsigned char> Dynamic;
  /// What the group wrote of Dynamic (HPP_CPU_CHECK=uninit).
  hpp::cpu::GroupMemoryShadow Shadow;
};
inline GroupMemory &groupMemory() {
  static thread_local GroupMemory Memory;
  return Memory;
}

/// The dynamic shared memory of the work-group running on this thread.
inline unsigned char *dynamicShared() { return groupMemory().Dynamic.data(); }

/// This thread's copy of the __shared__ variables: one block (null if the
/// program has none, or the platform has no section bounds).
struct SharedVariables {
  unsigned char *Data = nullptr;
  std::size_t Bytes = 0;
};
inline SharedVariables locateSharedVariables() {
  SharedVariables V;
#if defined(HPP_CPU_SHARED_SECTION)
  // Weak: both null without __shared__ variables.
  const auto Begin = reinterpret_cast<std::uintptr_t>(__start_hpp_shared);
  const auto End = reinterpret_cast<std::uintptr_t>(__stop_hpp_shared);
  if (Begin == 0 || End <= Begin)
    return V;
  // The module whose thread-local storage image holds the section.
  dl_iterate_phdr(
      [](dl_phdr_info *Info, std::size_t, void *Out) {
        auto Start = reinterpret_cast<std::uintptr_t>(__start_hpp_shared);
        for (unsigned K = 0; K != Info->dlpi_phnum; ++K) {
          const auto &Segment = Info->dlpi_phdr[K];
          std::uintptr_t Image = Info->dlpi_addr + Segment.p_vaddr;
          if (Segment.p_type != PT_TLS || Start < Image ||
              Start >= Image + Segment.p_memsz || !Info->dlpi_tls_data)
            continue;
          auto &R = *static_cast<SharedVariables *>(Out);
          R.Data = static_cast<unsigned char *>(Info->dlpi_tls_data) +
                   (Start - Image);
          R.Bytes = std::size_t(__stop_hpp_shared - __start_hpp_shared);
          return 1;
        }
        return 0;
      },
      &V);
#endif
  return V;
}

/// Readies the memory of the work-group \p Group that starts on this
/// thread (\p DynamicBytes of dynamic shared memory): poisons it and starts
/// its uninit check, unless \p Nested (a launch from inside a work-item,
/// whose group's memory the thread still holds).
inline void beginGroupMemory(std::size_t DynamicBytes, const dim3 &Group,
                             bool Nested = false) {
  GroupMemory &M = groupMemory();
  if (M.Dynamic.size() < DynamicBytes)
    M.Dynamic.resize(DynamicBytes);
  if (Nested)
    return;
  hpp::cpu::poisonGroupMemory(M.Dynamic.data(), DynamicBytes);
  static thread_local const SharedVariables Shared = locateSharedVariables();
  hpp::cpu::poisonGroupMemory(Shared.Data, Shared.Bytes);
  if (hpp::cpu::checkUninit())
    M.Shadow.reset(M.Dynamic.data(), DynamicBytes,
                   "the work-group's dynamic shared memory",
                   "(" + std::to_string(Group.x) + "," +
                       std::to_string(Group.y) + "," + std::to_string(Group.z) +
                       ")");
}

/// The uninit check of an access by the running work-item to element
/// \p Index (of \p Count) at \p Element, \p Size bytes, of the dynamic
/// shared memory (Segment::operator[], HPP_CPU_CHECK=uninit). Out of line:
/// the accessor stays small.
__attribute__((noinline)) inline void
checkGroupMemoryAccess(const void *Element, std::size_t Size, std::size_t Index,
                       std::size_t Count, const char *File, int Line) {
  hpp::cpu::GroupExecutor *E = hpp::cpu::GroupExecutor::current();
  GroupMemory &M = groupMemory();
  auto *P = static_cast<const unsigned char *>(Element);
  if (!E || P < M.Dynamic.data() || P >= M.Dynamic.data() + M.Dynamic.size())
    return;
  M.Shadow.access(*E, {"Segment::operator[]", File, Line, Index, Count,
                       std::size_t(P - M.Dynamic.data()), Size});
}

/// The Index fields work-group \p Group of a launch shares (ids 0), for
/// GroupExecutor::pastRange: which of its work-items lie past the end of
/// the range \p Global, so never run the body.
inline hpp::detail::IndexFields groupFields(const dim3 &Grid, const dim3 &Block,
                                            const dim3 &Group,
                                            const std::size_t *Global) {
  hpp::detail::IndexFields F{};
  const unsigned G[3] = {Group.x, Group.y, Group.z};
  const unsigned B[3] = {Block.x, Block.y, Block.z};
  const unsigned C[3] = {Grid.x, Grid.y, Grid.z};
  for (int D = 0; D < 3; ++D) {
    F.Group[D] = G[D];
    F.LocalSize[D] = B[D];
    F.GroupCount[D] = C[D];
    F.GlobalSize[D] = Global[D];
  }
  return F;
}
/// \p F for GroupExecutor::setIndexBase, or null when the range is not
/// known (a launch that did not give it: a 0 in its global size).
inline const hpp::detail::IndexFields *
groupIndexBase(const hpp::detail::IndexFields &F) {
  return F.GlobalSize[0] && F.GlobalSize[1] && F.GlobalSize[2] ? &F : nullptr;
}

/// Runs the work-groups of a launch on the calling thread, one at a time:
/// each work-item is a fiber of hpp::cpu::GroupExecutor (the CPU reference
/// runtime's), at the simulated mvector width, so work-group barriers and
/// warp operations work as on a GPU.
class BlockExecutor {
public:
  /// \p Global: the range's global size (0s if unknown).
  BlockExecutor(const dim3 &Grid, const dim3 &Block, unsigned MvectorWidth,
                std::size_t SharedBytes, const std::size_t *Global)
      : Grid(Grid), Block(Block),
        SharedBytes(SharedBytes), Global{Global[0], Global[1], Global[2]},
        Fibers(MvectorWidth) {}

  /// Runs \p WorkItem once per work-item of work-group \p Group. threadIdx
  /// is set whenever a work-item's fiber starts or resumes; the other
  /// built-in variables hold for the whole group. They are restored
  /// afterwards (a launch from inside a work-item, possible on the CPU,
  /// which leaves the work-group memory of the launching group alone).
  /// The work-item reaches it type-erased (\p Call on \p WorkItem): this
  /// class and GridExecutor are compiled once, not once per kernel.
  void run(const dim3 &Group, void (*Call)(void *), void *WorkItem) {
    const BuiltinScope Saved;
    beginGroupMemory(SharedBytes, Group,
                     hpp::cpu::GroupExecutor::current() != nullptr);
    gridDim = Grid;
    blockDim = Block;
    blockIdx = Group;
    Fields = groupFields(Grid, Block, Group, Global);
    Fibers.setIndexBase(groupIndexBase(Fields));
    const unsigned X = Block.x, XY = Block.x * Block.y;
    Fibers.runGroup(
        itemCount(Block), [Call, WorkItem](std::size_t) { Call(WorkItem); },
        [X, XY](std::size_t Id) {
          const unsigned L = static_cast<unsigned>(Id);
          threadIdx = dim3(L % X, L % XY / X, L / XY);
        });
  }

private:
  /// Saves the built-in variables of the calling thread, restores them.
  struct BuiltinScope {
    dim3 Thread = threadIdx, BlockId = blockIdx, Dim = blockDim,
         Grid = gridDim;
    std::size_t GlobalSize[3] = {hpp::detail::LaunchGlobalSize[0],
                                 hpp::detail::LaunchGlobalSize[1],
                                 hpp::detail::LaunchGlobalSize[2]};
    ~BuiltinScope() {
      threadIdx = Thread;
      blockIdx = BlockId;
      blockDim = Dim;
      gridDim = Grid;
      for (int D = 0; D < 3; ++D)
        hpp::detail::LaunchGlobalSize[D] = GlobalSize[D];
    }
  };

  dim3 Grid;
  dim3 Block;
  std::size_t SharedBytes;
  std::size_t Global[3];
  hpp::detail::IndexFields Fields{}; ///< The running group's.
  hpp::cpu::GroupExecutor Fibers;
};

/// Runs the work-groups of a grid on the host threads of hpp::cpu::
/// ThreadPool (HPP_CPU_THREADS, the calling thread included), each through
/// its own BlockExecutor; the fibers' stacks stay with the pool's threads
/// from launch to launch. The first exception a work-item throws stops the
/// launch and is rethrown once every thread has finished.
class GridExecutor {
public:
  /// \p Options: the dynamic shared memory of each work-group and the
  /// range's global size; \p Call runs the work-item \p WorkItem.
  GridExecutor(const dim3 &Grid, const dim3 &Block,
               const hpp::detail::LaunchOptions &Options,
               void (*Call)(void *), void *WorkItem)
      : Grid(Grid), Block(Block),
        SharedBytes(Options.SharedBytes), Global{Options.GlobalSize[0],
                                                 Options.GlobalSize[1],
                                                 Options.GlobalSize[2]},
        Call(Call), WorkItem(WorkItem), Width(hpp::cpu::mvectorWidth()) {}

  void run() {
    const std::uint64_t Groups = itemCount(Grid);
    if (Groups == 0 || itemCount(Block) == 0)
      return;
    hpp::cpu::ThreadPool &Pool = hpp::cpu::ThreadPool::get();
    const unsigned Threads =
        unsigned(std::min<std::uint64_t>(Pool.size(), Groups));
    Pool.run(Threads, &GridExecutor::work, this);
    if (FirstError)
      std::rethrow_exception(FirstError);
  }

private:
  static void work(void *Context, unsigned) noexcept {
    auto &G = *static_cast<GridExecutor *>(Context);
    const std::uint64_t Groups = itemCount(G.Grid);
    const std::uint64_t PerPlane = std::uint64_t(G.Grid.x) * G.Grid.y;
    try {
      BlockExecutor Executor(G.Grid, G.Block, G.Width, G.SharedBytes, G.Global);
      while (!G.Failed.load(std::memory_order_relaxed)) {
        const std::uint64_t N = G.Next.fetch_add(1, std::memory_order_relaxed);
        if (N >= Groups)
          return;
        const dim3 Group(unsigned(N % G.Grid.x),
                         unsigned(N / G.Grid.x % G.Grid.y),
                         unsigned(N / PerPlane));
        Executor.run(Group, G.Call, G.WorkItem);
      }
    } catch (...) {
      std::lock_guard<std::mutex> Guard(G.ErrorLock);
      if (!G.FirstError)
        G.FirstError = std::current_exception();
      G.Failed.store(true, std::memory_order_relaxed);
    }
  }

  dim3 Grid;
  dim3 Block;
  std::size_t SharedBytes;
  std::size_t Global[3];
  void (*Call)(void *);
  void *WorkItem;
  unsigned Width;
  std::atomic<std::uint64_t> Next{0};
  std::atomic<bool> Failed{false};
  std::mutex ErrorLock;
  std::exception_ptr FirstError;
};

} // namespace cpu_backend
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_CPU_EXECUTOR_H
