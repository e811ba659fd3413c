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

#include "hpp/core/error.h"
#include "hpp/cpu/phase_counter.h"

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace hpp {
namespace cpu {

/// What a parked work-item waits for (GroupExecutor::park).
struct ParkSite {
  const char *Name; ///< The operation, e.g. "Barrier::wait".
  const char *File;
  int Line;
  const void *Object; ///< What the item waits on.
  std::uint64_t Token;
  /// Whether the wait is over, e.g. Object's phase is past Token.
  bool (*Released)(const void *Object, std::uint64_t Token);
  /// Object's state, for the deadlock report.
  std::string (*Describe)(const void *Object);
  /// Whether work-items of other work-groups can release it (a
  /// launch-wide barrier): the group may then stall instead of deadlock.
  bool Shared = false;
};

/// The error for a launch none of whose work-items can go on: \p Why,
/// reported at \p Where (a suspended wait; Name null if none is known),
/// with the state of its object if \p WithState; without a wait, at the
/// launch, \p LaunchFile : \p LaunchLine (if known).
inline RuntimeError launchStuckError(const ParkSite &Where,
                                     const std::string &Why,
                                     bool WithState = true,
                                     const char *LaunchFile = nullptr,
                                     int LaunchLine = 0) {
  if (!Where.Name)
    return LaunchFile ? RuntimeError("parallelFor", LaunchFile, LaunchLine, Why)
                      : RuntimeError("parallelFor", __FILE__, __LINE__, Why);
  return RuntimeError(
      Where.Name, Where.File, Where.Line,
      WithState ? Why + " (" + Where.Describe(Where.Object) + ")" : Why);
}

/// The state the work-groups of one launch share, and the bookkeeping of
/// its host threads: who sleeps, the first failure, the stuck report. The
/// report must not depend on the threads' timing: it names the wait of the
/// suspended work-group with the lowest index.
class LaunchContext {
public:
  /// A launch of \p WorkItems work-items in the range, made at \p File :
  /// \p Line (null if unknown) for the errors that name no wait.
  explicit LaunchContext(std::size_t WorkItems, const char *File = nullptr,
                         int Line = 0)
      : Id(nextId()), WorkItems(WorkItems), Grid(WorkItems, "__gpu_sync", 0),
        LaunchFile(File), LaunchLine(Line) {}
  LaunchContext(const LaunchContext &) = delete;
  LaunchContext &operator=(const LaunchContext &) = delete;

  /// Unique among the process's launches.
  std::uint64_t id() const { return Id; }
  /// Work-items of the launch inside the global range (those that run the
  /// body): __gpu_sync's participants.
  std::size_t workItems() const { return WorkItems; }

  /// The launch's __gpu_sync barrier.
  PhaseCounter &gridBarrier() { return Grid; }

  /// The launch's instance of barrier \p Key (of \p Count participants),
  /// made on first use: a device runtime Barrier whose participants span
  /// work-groups (runtime/hpp/barrier.h).
  PhaseCounter &sharedCounter(std::uint64_t Key, std::size_t Count) {
    std::lock_guard<std::mutex> Lock(Mutex);
    std::unique_ptr<PhaseCounter> &C = Counters[Key];
    if (!C)
      C.reset(new PhaseCounter(Count, nullptr, 0));
    return *C;
  }

  /// A shared object released waiters: wake the threads that wait for one.
  void notify() {
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      ++Epoch;
      Idle = 0; // Every sleeping thread has something to look at again.
      Stuck = ParkSite{}; // The waits seen so far may be over.
      StuckGroup = ~std::size_t(0);
    }
    Wake.notify_all();
  }

  virtual ~LaunchContext() = default;

protected:
  /// Records the first failure \p E (the launch then stops) and wakes
  /// every sleeping thread.
  void fail(std::exception_ptr E) {
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      if (!Error)
        Error = E;
      Failed.store(true, std::memory_order_relaxed);
    }
    Wake.notify_all();
  }

  std::uint64_t epoch() {
    std::lock_guard<std::mutex> Lock(Mutex);
    return Epoch;
  }

  /// Every group of the calling thread waits on a launch-wide object
  /// (\p Parked: the first wait of its lowest-numbered one, \p Group, for
  /// the report; may be null): sleeps until notify() (true), or reports the
  /// launch stuck when every thread sleeps (false). \p Seen: epoch()
  /// before the groups last ran.
  bool sleep(std::uint64_t Seen, const ParkSite *Parked, std::size_t Group) {
    std::unique_lock<std::mutex> Lock(Mutex);
    if (Epoch != Seen)
      return true;
    if (Parked && Group < StuckGroup) {
      Stuck = *Parked; // Its object lives as long as the launch.
      StuckGroup = Group;
    }
    if (++Idle == Active) {
      --Idle;
      Lock.unlock();
      reportStuck();
      return false;
    }
    Wake.wait(Lock, [&] {
      return Epoch != Seen || Failed.load(std::memory_order_relaxed);
    });
    if (Epoch == Seen)
      --Idle; // Woken by a failure; notify() reset the count otherwise.
    return !Failed.load(std::memory_order_relaxed);
  }

  /// A thread is done: if the others all sleep, nobody can wake them.
  void leave() {
    bool Report;
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      --Active;
      Report = Active > 0 && Idle == Active && !Failed.load();
    }
    if (Report)
      reportStuck();
  }

  /// Why the launch is stuck, for the error, and whether the state of the
  /// reported wait belongs in it: yes for a deadlock (every work-item that
  /// can arrive has), no when the work-groups cannot all be resident (how
  /// many arrived depends on which groups the threads started).
  struct StuckReport {
    std::string Why;
    bool WithState;
  };
  virtual StuckReport stuckReason() const {
    return {"deadlock: every work-item of the launch that has not exited "
            "waits, and none can arrive",
            true};
  }

  std::mutex Mutex;
  std::condition_variable Wake;
  std::uint64_t Epoch = 0; ///< Bumped by notify(); guarded by Mutex.
  /// Threads running the launch, and those asleep with nothing to run
  /// since the last notify(); guarded by Mutex.
  unsigned Active = 0, Idle = 0;

  std::atomic<bool> Failed{false};
  std::exception_ptr Error; ///< The first failure; guarded by Mutex.

private:
  void reportStuck() {
    ParkSite Where{};
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      Where = Stuck;
    }
    StuckReport R = stuckReason();
    fail(std::make_exception_ptr(
        launchStuckError(Where, R.Why, R.WithState, LaunchFile, LaunchLine)));
  }

  /// The wait of the lowest-numbered suspended group since the last
  /// notify(), and that group, for the report; guarded by Mutex.
  ParkSite Stuck{};
  std::size_t StuckGroup = ~std::size_t(0);
  /// sharedCounter's instances; guarded by Mutex.
  std::map<std::uint64_t, std::unique_ptr<PhaseCounter>> Counters;

  static std::uint64_t nextId() {
    static std::atomic<std::uint64_t> Next{1};
    return Next.fetch_add(1, std::memory_order_relaxed);
  }

  std::uint64_t Id;
  std::size_t WorkItems;
  PhaseCounter Grid;
  const char *LaunchFile; ///< The launch's call (null if unknown).
  int LaunchLine;
};

} // namespace cpu
} // namespace hpp

#endif // HPP_CPU_LAUNCH_CONTEXT_H
