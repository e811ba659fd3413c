//===- hpp/backend/cpu_executor.h - Runs a kernel grid on host threads ----===//
//
// Part of hpp-rewrite. Device runtime, CPU backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CPU backend's stand-ins for the CUDA/HIP built-in variables
/// (threadIdx, blockIdx, blockDim, gridDim: thread-local) and the two
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
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_CPU_EXECUTOR_H
#define HPP_RUNTIME_BACKEND_CPU_EXECUTOR_H

#include "hpp/cpu/group_executor.h"
#include "hpp/cpu/settings.h"
#include "hpp/cpu/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>

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
namespace cpu_backend {

/// Number of work-items in a work-group of shape \p Block.
inline std::uint64_t itemCount(const dim3 &Block) {
  return std::uint64_t(Block.x) * Block.y * Block.z;
}

/// Runs the work-groups of a launch on the calling thread, one at a time:
/// each work-item is a fiber of hpp::cpu::GroupExecutor (the CPU reference
/// runtime's), at the simulated mvector width, so work-group barriers and
/// warp operations work as on a GPU.
class BlockExecutor {
public:
  BlockExecutor(const dim3 &Grid, const dim3 &Block, unsigned MvectorWidth)
      : Grid(Grid), Block(Block), Fibers(MvectorWidth) {}

  /// Runs \p WorkItem once per work-item of work-group \p Group. threadIdx
  /// is set whenever a work-item's fiber starts or resumes; the other
  /// built-in variables hold for the whole group. They are restored
  /// afterwards (a launch from inside a work-item, possible on the CPU).
  template <class F> void run(const dim3 &Group, F &WorkItem) {
    const BuiltinScope Saved;
    gridDim = Grid;
    blockDim = Block;
    blockIdx = Group;
    const unsigned X = Block.x, XY = Block.x * Block.y;
    Fibers.runGroup(
        itemCount(Block), [&WorkItem](std::size_t) { WorkItem(); },
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
    ~BuiltinScope() {
      threadIdx = Thread;
      blockIdx = BlockId;
      blockDim = Dim;
      gridDim = Grid;
    }
  };

  dim3 Grid;
  dim3 Block;
  hpp::cpu::GroupExecutor Fibers;
};

/// Runs the work-groups of a grid on the host threads of hpp::cpu::
/// ThreadPool (HPP_CPU_THREADS, the calling thread included), each through
/// its own BlockExecutor; the fibers' stacks stay with the pool's threads
/// from launch to launch. The first exception a work-item throws stops the
/// launch and is rethrown once every thread has finished.
template <class F> class GridExecutor {
public:
  GridExecutor(const dim3 &Grid, const dim3 &Block, F &WorkItem)
      : Grid(Grid), Block(Block), WorkItem(WorkItem),
        Width(hpp::cpu::mvectorWidth()) {}

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
      BlockExecutor Executor(G.Grid, G.Block, G.Width);
      while (!G.Failed.load(std::memory_order_relaxed)) {
        const std::uint64_t N = G.Next.fetch_add(1, std::memory_order_relaxed);
        if (N >= Groups)
          return;
        const dim3 Group(unsigned(N % G.Grid.x),
                         unsigned(N / G.Grid.x % G.Grid.y),
                         unsigned(N / PerPlane));
        Executor.run(Group, G.WorkItem);
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
  F &WorkItem;
  unsigned Width;
  std::atomic<std::uint64_t> Next{0};
  std::atomic<bool> Failed{false};
  std::mutex ErrorLock;
  std::exception_ptr FirstError;
};

} // namespace cpu_backend
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_CPU_EXECUTOR_H
