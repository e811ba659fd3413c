//===- hpp/backend/cpu_executor.h - Runs a kernel grid on host threads ----===//
//
// Part of hpp-rewrite. Device runtime, CPU backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CPU backend's stand-ins for the CUDA/HIP built-in variables
/// (threadIdx, blockIdx, blockDim, gridDim: thread-local) and the two
/// executors that run a launch: GridExecutor hands work-groups to a few host
/// threads; BlockExecutor runs the work-items of one work-group.
///
/// BlockExecutor runs the work-items one after another, so a work-group
/// barrier cannot work yet (__syncthreads and cooperative-groups sync abort
/// with a message for work-groups of more than one work-item). Issue 3
/// replaces BlockExecutor with a fiber-based one; nothing else changes.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_CPU_EXECUTOR_H
#define HPP_RUNTIME_BACKEND_CPU_EXECUTOR_H

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

/// CUDA's dim3: three unsigned extents, 1 by default.
struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned X = 1, unsigned Y = 1, unsigned Z = 1)
      : x(X), y(Y), z(Z) {}
};

// The built-in variables, per host thread: a host thread runs one work-item
// at a time.
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

/// Stops the program: a construct the sequential BlockExecutor cannot run.
[[noreturn]] inline void unsupported(const char *What) {
  std::fprintf(stderr,
               "hpp runtime (CPU backend): %s needs the work-items of a "
               "work-group to run concurrently, which this backend does not "
               "do yet (work-group of %u x %u x %u)\n",
               What, blockDim.x, blockDim.y, blockDim.z);
  std::abort();
}

/// Runs the work-items of one work-group on the calling thread, X fastest.
class BlockExecutor {
public:
  BlockExecutor(const dim3 &Grid, const dim3 &Block)
      : Grid(Grid), Block(Block) {}

  /// Runs \p WorkItem once per work-item of work-group \p Group, with the
  /// built-in variables set.
  template <class F> void run(const dim3 &Group, F &WorkItem) const {
    gridDim = Grid;
    blockDim = Block;
    blockIdx = Group;
    for (unsigned Z = 0; Z < Block.z; ++Z)
      for (unsigned Y = 0; Y < Block.y; ++Y)
        for (unsigned X = 0; X < Block.x; ++X) {
          threadIdx = dim3(X, Y, Z);
          WorkItem();
        }
  }

private:
  dim3 Grid;
  dim3 Block;
};

/// Host threads used for a launch: HPP_CPU_THREADS, else the hardware
/// thread count.
inline unsigned hostThreadCount() {
  static const unsigned Count = [] {
    if (const char *Env = std::getenv("HPP_CPU_THREADS")) {
      char *End = nullptr;
      unsigned long N = std::strtoul(Env, &End, 10);
      if (End != Env && *End == '\0' && N > 0 && N < 4096)
        return unsigned(N);
    }
    unsigned N = std::thread::hardware_concurrency();
    return N == 0 ? 1u : N;
  }();
  return Count;
}

/// Distributes the work-groups of a grid over a few host threads (the
/// calling thread included); each runs whole work-groups via BlockExecutor.
/// The first exception a work-item throws stops the launch and is rethrown
/// once every thread has finished.
class GridExecutor {
public:
  explicit GridExecutor(unsigned MaxThreads = hostThreadCount())
      : MaxThreads(std::max(1u, MaxThreads)) {}

  template <class F>
  void run(const dim3 &Grid, const dim3 &Block, F &WorkItem) const {
    const std::uint64_t Groups = itemCount(Grid);
    if (Groups == 0 || itemCount(Block) == 0)
      return;
    std::atomic<std::uint64_t> Next(0);
    std::atomic<bool> Failed(false);
    std::exception_ptr FirstError;
    std::mutex ErrorLock;

    auto Worker = [&] {
      const BlockExecutor Executor(Grid, Block);
      const std::uint64_t PerPlane = std::uint64_t(Grid.x) * Grid.y;
      while (!Failed.load(std::memory_order_relaxed)) {
        const std::uint64_t G = Next.fetch_add(1, std::memory_order_relaxed);
        if (G >= Groups)
          return;
        const dim3 Group(unsigned(G % Grid.x), unsigned(G / Grid.x % Grid.y),
                         unsigned(G / PerPlane));
        try {
          Executor.run(Group, WorkItem);
        } catch (...) {
          std::lock_guard<std::mutex> Guard(ErrorLock);
          if (!FirstError)
            FirstError = std::current_exception();
          Failed.store(true, std::memory_order_relaxed);
        }
      }
    };

    const unsigned Threads =
        unsigned(std::min<std::uint64_t>(MaxThreads, Groups));
    std::vector<std::thread> Pool;
    Pool.reserve(Threads - 1);
    for (unsigned I = 1; I < Threads; ++I) {
      try {
        Pool.emplace_back(Worker);
      } catch (...) {
        break; // Fewer threads; the launch still completes.
      }
    }
    Worker();
    for (std::thread &T : Pool)
      T.join();
    if (FirstError)
      std::rethrow_exception(FirstError);
  }

private:
  unsigned MaxThreads;
};

} // namespace cpu_backend
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_CPU_EXECUTOR_H
