//===- hpp/cpu/launch_context.h - What the work-groups of a launch share --===//
//
// Part of hpp-rewrite. CPU reference runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// LaunchContext: the state the work-groups of one parallelFor launch
/// share, for waits that cross work-groups (launch-wide barriers and
/// __gpu_sync, hpp/cpu/barrier.h). Its host threads keep the work-groups
/// whose work-items all wait on such objects suspended (resident) and run
/// others; an object that releases waiters calls notify(), which wakes the
/// threads with nothing to run. When every thread of the launch has nothing
/// to run, the launch is deadlocked, or needs more work-groups resident
/// than the CPU runtime keeps (HPP_CPU_MAX_RESIDENT work-items): the launch
/// then fails with hpp::RuntimeError instead of hanging.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_LAUNCH_CONTEXT_H
#define HPP_CPU_LAUNCH_CONTEXT_H

#include "hpp/cpu/phase_counter.h"

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>

namespace hpp {
namespace cpu {

class LaunchContext {
public:
  explicit LaunchContext(std::size_t WorkItems)
      : Id(nextId()), WorkItems(WorkItems), Grid(WorkItems, "__gpu_sync", 0) {}
  LaunchContext(const LaunchContext &) = delete;
  LaunchContext &operator=(const LaunchContext &) = delete;

  /// Unique among the process's launches.
  std::uint64_t id() const { return Id; }
  /// Work-items of the launch inside the global range (those that run the
  /// body): __gpu_sync's participants.
  std::size_t workItems() const { return WorkItems; }

  /// The launch's __gpu_sync barrier.
  PhaseCounter &gridBarrier() { return Grid; }

  /// A shared object released waiters: wake the threads that wait for one.
  void notify() {
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      ++Epoch;
      Idle = 0; // Every sleeping thread has something to look at again.
    }
    Wake.notify_all();
  }

protected:
  std::mutex Mutex;
  std::condition_variable Wake;
  std::uint64_t Epoch = 0; ///< Bumped by notify(); guarded by Mutex.
  /// Threads running the launch, and those asleep with nothing to run
  /// since the last notify(); guarded by Mutex.
  unsigned Active = 0, Idle = 0;

private:
  static std::uint64_t nextId() {
    static std::atomic<std::uint64_t> Next{1};
    return Next.fetch_add(1, std::memory_order_relaxed);
  }

  std::uint64_t Id;
  std::size_t WorkItems;
  PhaseCounter Grid;
};

} // namespace cpu
} // namespace hpp

#endif // HPP_CPU_LAUNCH_CONTEXT_H
