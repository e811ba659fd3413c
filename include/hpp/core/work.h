//===- hpp/core/work.h - One enqueued task, orphaned tasks ------*- C++ -*-===//
//
// Part of hpp-rewrite. Shared by the CPU reference runtime and the device
// runtime (host code only).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What every backend's task is on the host (hpp/core/future.h builds the
/// user's Future<T> on it):
///  - detail::Work: one enqueued task, as a backend runs it (the CPU
///    runtimes run it when something waits for it, hpp/cpu/task_queue.h;
///    the GPU backend records an event on its stream, hpp/task.h). It
///    keeps the task's buffers alive and records the task's error, worded
///    to name the line of the enqueue. Work::failedDependency words the
///    error of a task that did not run because a task it waits for failed.
///  - detail::Orphans: works whose every future was destroyed before
///    anyone waited; their errors are reported at the next synchronising
///    call, or at exit. A blocking parallelFor settles them before its
///    launch, on every backend, so that it throws an orphan's error
///    instead of running (Orphans::pending makes that free without one).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CORE_WORK_H
#define HPP_CORE_WORK_H

#include "hpp/core/error.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace hpp {
namespace detail {
/// "FILE:LINE".
inline std::string siteText(const char *File, int Line) {
  return std::string(File ? File : "?") + ":" + std::to_string(Line);
}

/// The failure at the start of a chain of tasks that did not run: the
/// enqueue site of the task whose own code or launch failed, and its
/// error's text.
struct FailureRoot {
  std::string Site;
  std::string What;
};

/// One enqueued task. Backends derive from it: complete() runs or waits
/// for the work and throws what it raised.
class Work {
public:
  Work(const char *File, int Line) : File(File ? File : "?"), Line(Line) {}
  Work(const Work &) = delete;
  Work &operator=(const Work &) = delete;
  virtual ~Work() = default;

  /// Returns once the work (and every consumer its channel writes
  /// triggered) has finished; its error is then error(). Not holding a
  /// lock while complete() runs: the CPU queue may finish this work from
  /// another waiter.
  void finish() {
    if (done())
      return;
    std::exception_ptr E;
    try {
      complete();
    } catch (const RuntimeError &R) {
      E = std::make_exception_ptr(inTask(R));
    } catch (...) {
      E = std::current_exception();
    }
    std::lock_guard<std::mutex> Lock(M);
    if (!Done) {
      Error = E;
      Done = true;
    }
  }

  bool done() const {
    std::lock_guard<std::mutex> Lock(M);
    return Done;
  }
  std::exception_ptr error() const {
    std::lock_guard<std::mutex> Lock(M);
    return Error;
  }
  /// The error reached the user through a task that depended on this one:
  /// not reported again as an orphan's.
  void markReported() {
    std::lock_guard<std::mutex> Lock(M);
    Reported = true;
  }
  bool reported() const {
    std::lock_guard<std::mutex> Lock(M);
    return Reported;
  }
  /// A task enqueued after this one: its future reports this one's error
  /// too (the CPU runtimes do not run it; on a GPU its kernel returns at
  /// once, hpp/task.h's TaskGate), so this work need not be followed as an
  /// orphan.
  /// (A flag of its own, not under the lock: every enqueue after a future
  /// sets it, and every future let go of reads it.)
  void addDependent() { HasDependent.store(true, std::memory_order_release); }
  bool hasDependent() const {
    return HasDependent.load(std::memory_order_acquire);
  }
  /// For a task that did not run because a dependency failed: the failure
  /// at the start of the chain (failedDependency); null otherwise.
  std::shared_ptr<const FailureRoot> failureRoot() const {
    std::lock_guard<std::mutex> Lock(M);
    return NotRunRoot;
  }
  /// The host still has work to do when the work completes (a GPU task
  /// that wrote a channel): an orphan even with a dependent, so that it
  /// is finished, and its error reported, at the next synchronising call.
  virtual bool hostWorkPending() const { return false; }
  /// The last future of this work was destroyed before anyone waited. The
  /// CPU runtimes run such a task now, while what it refers to (a Barrier
  /// or a Channel captured by reference) still exists, as a GPU would have
  /// run it by then; GPU work just goes on.
  virtual void orphaned() {}
  /// The call that enqueued the work, for its errors ("Task::enqueue"
  /// unless set, e.g. "copyAsync").
  const char *call() const { return Call; }
  void setCall(const char *C) { Call = C; }
  /// Where the task was enqueued.
  const char *file() const { return File; }
  int line() const { return Line; }

  /// \p E (raised by the task's body or its launch) worded to name the
  /// enqueue.
  RuntimeError inTask(const RuntimeError &E) const {
    const std::string Suffix =
        "; in the task enqueued at " + siteText(File, Line);
    const std::string &Msg = E.backendMessage();
    if (E.file() == File && E.line() == Line)
      return E; // Already at the enqueue.
    if (Msg.size() >= Suffix.size() &&
        Msg.compare(Msg.size() - Suffix.size(), Suffix.size(), Suffix) == 0)
      return E;
    return RuntimeError(E.call(), E.file(), E.line(), Msg + Suffix);
  }

  /// The error of this task when it did not run because a task it waits
  /// for failed: the first of \p Deps with an error, named by its enqueue,
  /// and that error's text (the dependency's error is then reported through
  /// this one only). When that dependency did not run either, the text is
  /// not nested: it names the failure at the start of the chain (the
  /// task whose own code or launch failed) with that task's error, so
  /// that the message of the millionth task behind a failure is as long
  /// as the second's. Null when none of \p Deps failed. Finishes each of
  /// \p Deps it looks at (finished already, on the GPU backends, from the
  /// failure on: GpuWork::throwRecorded; no finish here recurses).
  std::exception_ptr
  failedDependency(const std::vector<std::shared_ptr<Work>> &Deps) {
    for (const std::shared_ptr<Work> &D : Deps) {
      D->finish();
      std::exception_ptr DE = D->error();
      if (!DE)
        continue;
      D->markReported();
      std::shared_ptr<const FailureRoot> Root = D->failureRoot();
      std::string Why;
      if (Root) {
        Why = "did not run either; an earlier task it depends on, enqueued "
              "at " +
              Root->Site + ", failed: " + Root->What;
      } else {
        std::string What = "unknown error";
        try {
          std::rethrow_exception(DE);
        } catch (const std::exception &X) {
          What = X.what();
        } catch (...) {
        }
        Root = std::make_shared<const FailureRoot>(
            FailureRoot{siteText(D->file(), D->line()), What});
        Why = "failed: " + What;
      }
      {
        std::lock_guard<std::mutex> Lock(M);
        NotRunRoot = Root;
      }
      return std::make_exception_ptr(
          RuntimeError(Call, File, Line,
                       "not run: the task it waits for, enqueued at " +
                           siteText(D->file(), D->line()) + ", " + Why));
    }
    return nullptr;
  }

protected:
  /// Runs the work or waits for it; throws its error.
  virtual void complete() = 0;
  /// For backends that finish outside finish() (the CPU queue runs works
  /// in enqueue order): records the outcome.
  void settle(std::exception_ptr E) {
    if (E) {
      try {
        std::rethrow_exception(E);
      } catch (const RuntimeError &R) {
        E = std::make_exception_ptr(inTask(R));
      } catch (...) {
      }
    }
    std::lock_guard<std::mutex> Lock(M);
    if (Done)
      return;
    Error = E;
    Done = true;
  }

private:
  mutable std::mutex M;
  const char *Call = "Task::enqueue";
  const char *File;
  int Line;
  bool Done = false;
  bool Reported = false;
  std::atomic<bool> HasDependent{false};
  std::exception_ptr Error;
  std::shared_ptr<const FailureRoot> NotRunRoot;
};

/// Lets go of \p Works without recursion: a work keeps the works it waits
/// for until it completes (a backend's choice), so the last of a chain of
/// a million tasks, each enqueued after the one before, holds a million
/// works, which its destructor must not release from inside one another.
/// Works let go of while a release runs on this thread are queued for it.
inline void releaseWorks(std::vector<std::shared_ptr<Work>> &Works) noexcept {
  thread_local std::vector<std::shared_ptr<Work>> *Pending = nullptr;
  if (Pending) {
    for (std::shared_ptr<Work> &W : Works)
      Pending->push_back(std::move(W));
    Works.clear();
    return;
  }
  std::vector<std::shared_ptr<Work>> Queue = std::move(Works);
  Works.clear();
  Pending = &Queue;
  while (!Queue.empty()) {
    std::shared_ptr<Work> W = std::move(Queue.back());
    Queue.pop_back();
    W.reset(); // May queue the works it kept.
  }
  Pending = nullptr;
}

/// Works whose every Future was destroyed before anyone waited: they keep
/// running, and their errors are reported at the next synchronising call,
/// or at exit.
class Orphans {
public:
  static Orphans &get() {
    static Orphans *O = new Orphans; // Usable from static destructors.
    return *O;
  }

  void add(std::shared_ptr<Work> W) {
    if (W->hasDependent() && !W->hostWorkPending())
      return; // A dependent's future reports it (Work::addDependent).
    W->orphaned();
    std::lock_guard<std::mutex> Lock(M);
    if (!AtExit) {
      AtExit = true;
      std::atexit(&Orphans::atExit);
    }
    List.push_back(std::move(W));
    Any.store(true, std::memory_order_release);
  }

  /// Whether an orphan may be waiting to be settled: one load, so that a
  /// launch that must not start before an orphan's failure is known
  /// (hpp/backend/gpu.h, beforeBlockingLaunch) costs nothing without one.
  bool pending() const { return Any.load(std::memory_order_acquire); }

  /// Completes every orphan; throws the first error among them (at the
  /// work's own location; \p File : \p Line, the synchronising call, is
  /// named in the message).
  void settle(const char *File, int Line) {
    std::vector<std::shared_ptr<Work>> Mine;
    {
      std::lock_guard<std::mutex> Lock(M);
      Mine.swap(List);
      Any.store(false, std::memory_order_release);
    }
    std::exception_ptr First;
    std::size_t Failed = 0;
    for (auto &W : Mine) {
      W->finish();
      if (W->error() && !W->reported() && !Failed++)
        First = W->error();
    }
    if (!First)
      return;
    const std::string Note =
        " (its Future was destroyed without wait() or get(); reported at " +
        std::string(File ? "the synchronising call at " + siteText(File, Line)
                         : "exit") +
        (Failed > 1 ? "; " + std::to_string(Failed - 1) +
                          " more such task(s) failed too"
                    : "") +
        ")";
    try {
      std::rethrow_exception(First);
    } catch (const RuntimeError &E) {
      throw RuntimeError(E.call(), E.file(), E.line(),
                         E.backendMessage() + Note);
    }
  }

private:
  /// At exit the main thread's thread_local objects (the CPU runtime's
  /// fiber stacks among them) are already gone: the orphans are completed
  /// on a thread of their own.
  static void atExit() {
    std::string Message;
    auto Settle = [&Message] {
      try {
        get().settle(nullptr, 0);
      } catch (const std::exception &E) {
        Message = E.what();
      } catch (...) {
        Message = "unknown error";
      }
    };
    try {
      std::thread(Settle).join();
    } catch (const std::system_error &) {
      Settle();
    }
    if (Message.empty())
      return;
    std::fflush(stdout);
    std::fprintf(stderr, "hpp: error: a task failed: %s\n", Message.c_str());
    std::fflush(stderr);
    std::_Exit(EXIT_FAILURE);
  }

  std::mutex M;
  bool AtExit = false;
  std::atomic<bool> Any{false}; ///< List is not empty
  std::vector<std::shared_ptr<Work>> List;
};

} // namespace detail
} // namespace hpp

#endif // HPP_CORE_WORK_H
