//===- hpp/cpu/thread_pool.h - Host threads that run work-groups ----------===//
//
// Part of hpp-rewrite. CPU reference runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A fixed pool of host threads (HPP_CPU_THREADS, default the hardware
/// concurrency) that run one job at a time; the calling thread takes part as
/// worker 0. A job submitted while the pool is busy (from another host
/// thread, or from inside a running job) runs on the calling thread alone,
/// so submission never deadlocks.
///
/// The pool is created on first use and deliberately never destroyed: its
/// threads sleep until the process exits, and parallelFor stays usable from
/// static destructors.
///
/// A job runs the work-items of a launch: every thread that takes part
/// runs them on the submitting thread's launch device (RunOnDevice,
/// hpp/cpu/device_sim.h), which Pointer's device check compares against.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_THREAD_POOL_H
#define HPP_CPU_THREAD_POOL_H

#include "hpp/cpu/device_sim.h"
#include "hpp/cpu/settings.h"

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <system_error>
#include <thread>

namespace hpp {
namespace cpu {

/// Fixed set of host threads running one job at a time.
class ThreadPool {
public:
  /// A job: called once per participating worker with the worker's index
  /// (0 is the submitting thread). It must not throw.
  using JobFn = void (*)(void *Context, unsigned Worker) noexcept;

  explicit ThreadPool(unsigned Threads) {
    // Workers only touch members, which are all constructed by now. If the
    // system refuses a thread, the pool keeps the ones it got.
    try {
      for (unsigned I = 1; I < Threads; ++I) {
        std::thread([this, I] { workerMain(I); }).detach();
        ++WorkerCount;
      }
    } catch (const std::system_error &) {
    }
  }
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  /// The process-wide pool; a bad HPP_CPU_THREADS throws RuntimeError at
  /// \p File : \p Line.
  static ThreadPool &get(HPP_CALLER_LOCATION) {
    static ThreadPool *Pool = new ThreadPool(readThreadCount(File, Line));
    return *Pool;
  }

  /// Number of threads, the caller included.
  unsigned size() const { return WorkerCount + 1; }

  /// Runs \p Fn on up to \p Wanted workers and returns when all are done,
  /// each running work-items on the device of currentLaunchSite().
  void run(unsigned Wanted, JobFn Fn, void *Context) {
    const DeviceSite Site = currentLaunchSite();
    if (Wanted <= 1 || WorkerCount == 0 || insideJob() ||
        !SubmitMutex.try_lock()) {
      runOnThisThread(Fn, Context, 0, Site);
      return;
    }
    std::lock_guard<std::mutex> Submit(SubmitMutex, std::adopt_lock);
    {
      std::lock_guard<std::mutex> Lock(M);
      Job = Fn;
      JobContext = Context;
      JobSite = Site;
      Participants = Wanted < size() ? Wanted : size();
      Pending = Participants - 1;
      ++Generation;
    }
    WorkCv.notify_all();
    runOnThisThread(Fn, Context, 0, Site);
    std::unique_lock<std::mutex> Lock(M);
    DoneCv.wait(Lock, [this] { return Pending == 0; });
  }

  /// True on a thread that is running a job (pool worker or submitter).
  static bool &insideJob() {
    static thread_local bool Inside = false;
    return Inside;
  }

private:
  static void runOnThisThread(JobFn Fn, void *Context, unsigned Worker,
                              const DeviceSite &Site) {
    ExecutingScope OnDevice(Site);
    bool &Inside = insideJob();
    bool Saved = Inside;
    Inside = true;
    Fn(Context, Worker);
    Inside = Saved;
  }

  void workerMain(unsigned Index) {
    std::uint64_t Seen = 0;
    std::unique_lock<std::mutex> Lock(M);
    for (;;) {
      WorkCv.wait(Lock, [&] { return Generation != Seen; });
      Seen = Generation;
      if (Index >= Participants)
        continue;
      JobFn Fn = Job;
      void *Context = JobContext;
      const DeviceSite Site = JobSite;
      Lock.unlock();
      runOnThisThread(Fn, Context, Index, Site);
      Lock.lock();
      if (--Pending == 0)
        DoneCv.notify_one();
    }
  }

  unsigned WorkerCount = 0; ///< Threads besides the submitter.
  std::mutex SubmitMutex;   ///< Held by the thread whose job the pool runs.
  std::mutex M;             ///< Guards the fields below.
  std::condition_variable WorkCv, DoneCv;
  std::uint64_t Generation = 0;
  JobFn Job = nullptr;
  void *JobContext = nullptr;
  DeviceSite JobSite; ///< The launch the job's work-items belong to.
  unsigned Participants = 0;
  unsigned Pending = 0;
};

} // namespace cpu
} // namespace hpp

#endif // HPP_CPU_THREAD_POOL_H
