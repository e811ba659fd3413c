//===- hpp/cpu/sync.h - Deferred tasks and consumers on the CPU -----------===//
//
// Part of hpp-rewrite. CPU reference runtime; also the CPU backend of the
// device runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// When the CPU runtimes run enqueued tasks and channel consumers:
///  - A task (DeferredWork) runs when something synchronises with it: a
///    wait() or get() on its future (or on a future of a task enqueued
///    after it), any blocking parallelFor, a deallocate (cudaFree waits for
///    the device too), the destruction of a Channel (the task may write it
///    through a reference), or when its last future is destroyed unobserved
///    (while what it captured by reference still exists). Tasks run one after
///    the other in enqueue order, which respects every dependency, on the
///    thread that synchronises. Until then nothing of the task has
///    happened: a program that reads a task's output without waiting
///    reads the old values on the CPU, deterministically, instead of
///    racing as it would on a GPU.
///  - A task whose dependency failed does not run; it fails naming the
///    dependency.
///  - Channel consumers (hpp/cpu/channel.h) run on the channel's own
///    thread while the producers go on; ConsumerTracker counts the
///    batches handed to consumers and not yet consumed, so that a blocking
///    parallelFor, and a task, return only after the consumers their
///    writes triggered have finished, and rethrow a consumer's error.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_SYNC_H
#define HPP_CPU_SYNC_H

#include "hpp/core/error.h"
#include "hpp/core/future.h"

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace hpp {
namespace cpu {

/// Consumer launches handed out and not yet finished, over all channels.
class ConsumerTracker {
public:
  static ConsumerTracker &get() {
    static ConsumerTracker *T = new ConsumerTracker; // Never destroyed.
    return *T;
  }
  void started() {
    std::lock_guard<std::mutex> Lock(M);
    ++Outstanding;
  }
  /// A consumer launch ended, with error \p E (may be null).
  void finished(std::exception_ptr E) {
    {
      std::lock_guard<std::mutex> Lock(M);
      --Outstanding;
      if (E && !Error)
        Error = E;
    }
    Cv.notify_all();
  }
  /// Waits until no consumer runs or waits to run; rethrows the first
  /// error a consumer raised since the last call.
  void await() {
    std::unique_lock<std::mutex> Lock(M);
    Cv.wait(Lock, [&] { return Outstanding == 0; });
    std::exception_ptr E = std::move(Error);
    Error = nullptr;
    Lock.unlock();
    if (E)
      std::rethrow_exception(E);
  }

private:
  std::mutex M;
  std::condition_variable Cv;
  std::size_t Outstanding = 0;
  std::exception_ptr Error;
};

class TaskQueue;

/// An enqueued task on the CPU: \p Run launches it; it runs when the
/// queue reaches it (see the file comment).
class DeferredWork : public detail::Work {
public:
  DeferredWork(std::function<void()> Run,
               std::vector<std::shared_ptr<detail::Work>> Deps,
               const char *File, int Line)
      : Work(File, Line), Run(std::move(Run)), Deps(std::move(Deps)) {}

  /// Runs the task now (the queue calls it in enqueue order).
  void execute() {
    std::exception_ptr E = failedDependency(Deps);
    if (!E) {
      try {
        Run();
      } catch (...) {
        E = std::current_exception();
      }
      // Its writes' consumers belong to the task (after a failed launch
      // too: they must not outlive the buffers).
      try {
        ConsumerTracker::get().await();
      } catch (...) {
        if (!E)
          E = std::current_exception();
      }
    }
    Run = nullptr; // The captures and buffers the launch no longer needs.
    Deps.clear();
    settle(E);
  }

  void orphaned() override { finish(); }

protected:
  void complete() override;

private:
  std::function<void()> Run;
  std::vector<std::shared_ptr<detail::Work>> Deps;
};

/// The tasks enqueued and not yet run, in enqueue order.
class TaskQueue {
public:
  static TaskQueue &get() {
    static TaskQueue *Q = new TaskQueue; // Usable from static destructors.
    return *Q;
  }
  void push(std::shared_ptr<DeferredWork> W) {
    std::lock_guard<std::mutex> Lock(M);
    Queue.push_back(std::move(W));
  }
  /// Runs queued tasks in order until \p Until has run (all of them when
  /// null). One thread runs tasks at a time.
  void runUntil(const DeferredWork *Until) {
    std::lock_guard<std::recursive_mutex> Running(RunM);
    for (;;) {
      std::shared_ptr<DeferredWork> Next;
      {
        std::lock_guard<std::mutex> Lock(M);
        if (Queue.empty())
          return;
        Next = std::move(Queue.front());
        Queue.pop_front();
      }
      Next->execute();
      if (Next.get() == Until)
        return;
    }
  }

private:
  std::mutex M;
  std::recursive_mutex RunM;
  std::deque<std::shared_ptr<DeferredWork>> Queue;
};

inline void DeferredWork::complete() { TaskQueue::get().runUntil(this); }

/// What a blocking parallelFor does before its launch, at \p File :
/// \p Line: runs the enqueued tasks (a GPU's device-wide synchronisation
/// completes them too) and reports the errors of tasks nobody waited for.
inline void synchronize(const char *File, int Line) {
  TaskQueue::get().runUntil(nullptr);
  detail::Orphans::get().settle(File, Line);
}

/// What a blocking parallelFor does after its launch: waits for the
/// consumers its channel writes triggered; rethrows their error.
inline void awaitConsumers() { ConsumerTracker::get().await(); }

} // namespace cpu
} // namespace hpp

#endif // HPP_CPU_SYNC_H
