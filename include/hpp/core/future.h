//===- hpp/core/future.h - Future<T>, f1 && f2, task errors ---------------===//
//
// Part of hpp-rewrite. Shared by the CPU reference runtime and the device
// runtime (host code only).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The host side of spec 1.8's futures, the same for every backend:
///  - detail::Work: one enqueued task, as a backend runs it (the CPU
///    runtimes run it when something waits for it, hpp/cpu/task_queue.h;
///    the GPU backend records an event on its stream, hpp/task.h). It
///    keeps the task's buffers alive and records the task's error, worded
///    to name the line of the enqueue.
///  - Future<T> (T = std::vector<R>, void, or std::pair<A, B> from
///    `f1 && f2`): wait(), get(). Copies share one state. Destroying the
///    last copy never blocks. If nobody waited, the work becomes an orphan:
///    it still completes, and its error is reported at the next
///    synchronising call (a parallelFor, wait or get) or, failing that, at
///    exit (detail::Orphans). The HPX, SYCL and std::async failure modes
///    (a lost exception, a lost asynchronous error, a blocking destructor)
///    cannot happen.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CORE_FUTURE_H
#define HPP_CORE_FUTURE_H

#include "hpp/core/error.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace hpp {

/// The value a Future<void> contributes to the pair of `f1 && f2`.
struct Nothing {
  friend bool operator==(Nothing, Nothing) { return true; }
};

template <class T> class Future;

namespace detail {

/// "FILE:LINE".
inline std::string siteText(const char *File, int Line) {
  return std::string(File ? File : "?") + ":" + std::to_string(Line);
}

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
  void addDependent() {
    std::lock_guard<std::mutex> Lock(M);
    HasDependent = true;
  }
  bool hasDependent() const {
    std::lock_guard<std::mutex> Lock(M);
    return HasDependent;
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
  /// Where the task was enqueued.
  const char *file() const { return File; }
  int line() const { return Line; }

  /// \p E (raised by the task's body or its launch) worded to name the
  /// enqueue.
  RuntimeError inTask(const RuntimeError &E) const {
    const std::string Suffix = "; in the task enqueued at " + siteText(File, Line);
    const std::string &Msg = E.backendMessage();
    if (E.file() == File && E.line() == Line)
      return E; // Already at the enqueue.
    if (Msg.size() >= Suffix.size() &&
        Msg.compare(Msg.size() - Suffix.size(), Suffix.size(), Suffix) == 0)
      return E;
    return RuntimeError(E.call(), E.file(), E.line(), Msg + Suffix);
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
  const char *File;
  int Line;
  bool Done = false;
  bool Reported = false;
  bool HasDependent = false;
  std::exception_ptr Error;
};

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
  }

  /// Completes every orphan; throws the first error among them (at the
  /// work's own location; \p File : \p Line, the synchronising call, is
  /// named in the message).
  void settle(const char *File, int Line) {
    std::vector<std::shared_ptr<Work>> Mine;
    {
      std::lock_guard<std::mutex> Lock(M);
      Mine.swap(List);
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
  std::vector<std::shared_ptr<Work>> List;
};

/// A join's side spelled inside a pair: void and Nothing are both Nothing
/// (a std::pair<X, void> must never be completed, which any argument-
/// dependent lookup over a type that names it may do).
template <class T> struct Canon { using type = T; };
template <> struct Canon<void> { using type = Nothing; };
template <class A, class B> struct Canon<std::pair<A, B>> {
  using type = std::pair<typename Canon<A>::type, typename Canon<B>::type>;
};
/// The future a join keeps for one side: Future<void> for a void side
/// (spelled void or Nothing), a join's pair in its Canon spelling. So
/// `Future<std::pair<A, Nothing>>` and `Future<std::pair<A, void>>` are
/// one future under two spellings.
template <class T> struct Side { using type = typename Canon<T>::type; };
template <> struct Side<void> { using type = void; };
template <> struct Side<Nothing> { using type = void; };

/// What get() returns for a Future<T>: Nothing for void, and a pair of
/// those for a join.
template <class T> struct FutureValue { using type = T; };
template <> struct FutureValue<void> { using type = Nothing; };
template <> struct FutureValue<Nothing> { using type = Nothing; };
template <class A, class B> struct FutureValue<std::pair<A, B>> {
  using type = std::pair<typename FutureValue<A>::type,
                         typename FutureValue<B>::type>;
};

/// The state copies of one Future<T> share.
template <class T> class FutureCore {
public:
  using Fetch = T (*)(void *Results, std::size_t Count);
  FutureCore(std::shared_ptr<Work> W, std::shared_ptr<void> Results,
             std::size_t Count, Fetch F)
      : W(std::move(W)), Results(std::move(Results)), Count(Count),
        FetchFn(F) {}
  ~FutureCore() {
    if (!Observed && W)
      Orphans::get().add(std::move(W));
  }
  void wait(const char *File, int Line) {
    Observed = true;
    W->finish();
    if (W->error())
      std::rethrow_exception(W->error());
    Orphans::get().settle(File, Line);
  }
  const std::shared_ptr<Work> &work() const { return W; }
  T get(const char *File, int Line) {
    wait(File, Line);
    if constexpr (!std::is_void<T>::value) {
      std::lock_guard<std::mutex> Lock(M);
      if (!Cached)
        Cached.reset(new T(FetchFn(Results.get(), Count)));
      return *Cached;
    }
  }

private:
  std::shared_ptr<Work> W;
  std::shared_ptr<void> Results; ///< Backend buffer the work fills.
  std::size_t Count;
  Fetch FetchFn;
  bool Observed = false;
  std::mutex M;
  std::unique_ptr<std::conditional_t<std::is_void<T>::value, int, T>> Cached;
};

/// The two halves of `f1 && f2`.
template <class A, class B> struct JoinCore {
  Future<A> First;
  Future<B> Second;
};

template <class T> struct IsPair : std::false_type {};
template <class T> struct IsVector : std::false_type {};
template <class R> struct IsVector<std::vector<R>> : std::true_type {};
template <class A, class B> struct IsPair<std::pair<A, B>> : std::true_type {};

/// Backends make futures through this.
struct FutureAccess;

} // namespace detail

/// The result of an enqueued task: std::vector<R> (one R per work-item, at
/// its linear global id), void, or a std::pair from `f1 && f2`. Copies
/// share the state. wait() and get() rethrow what the task raised, worded
/// to name the enqueue; the destructor never blocks (see the file
/// comment).
template <class T> class Future {
  static_assert(std::is_void<T>::value || detail::IsPair<T>::value ||
                    detail::IsVector<T>::value,
                "Future<T>: T is void, std::vector<R> (Task<R, ...>) or "
                "std::pair<A, B> (f1 && f2)");

public:
  Future() = default;
  /// True when the future refers to a task.
  bool valid() const { return Core != nullptr; }
  /// Waits for the task; rethrows its error.
  void wait(HPP_CALLER_LOCATION) const { core(File, Line).wait(File, Line); }
  /// Waits, then returns the results (copied from the device once).
  T get(HPP_CALLER_LOCATION) const { return core(File, Line).get(File, Line); }

private:
  friend struct detail::FutureAccess;
  detail::FutureCore<T> &core(const char *File, int Line) const {
    if (!Core)
      throw RuntimeError("Future::wait", File, Line,
                         "the future refers to no task (default-constructed)");
    return *Core;
  }
  std::shared_ptr<detail::FutureCore<T>> Core;
};

/// `f1 && f2`: completes when both have; get() returns both results.
/// A side may be spelled Nothing for void (the type get() gives it); the
/// two spellings convert into each other and share the state.
template <class A, class B> class Future<std::pair<A, B>> {
  using SA = typename detail::Side<A>::type;
  using SB = typename detail::Side<B>::type;
  using Value = std::pair<typename detail::FutureValue<SA>::type,
                          typename detail::FutureValue<SB>::type>;

public:
  Future() = default;
  Future(Future<SA> First, Future<SB> Second)
      : Core(std::make_shared<detail::JoinCore<SA, SB>>(
            detail::JoinCore<SA, SB>{std::move(First), std::move(Second)})) {}
  /// The same join under the other spelling of a void side.
  template <class A2, class B2,
            std::enable_if_t<
                !std::is_same<std::pair<A2, B2>, std::pair<A, B>>::value &&
                    std::is_same<typename detail::Side<A2>::type, SA>::value &&
                    std::is_same<typename detail::Side<B2>::type, SB>::value,
                int> = 0>
  Future(const Future<std::pair<A2, B2>> &Other) : Core(Other.Core) {}
  bool valid() const { return Core.get() != nullptr; }
  /// Waits for both; rethrows the first one's error, else the second's.
  void wait(HPP_CALLER_LOCATION) const {
    check(File, Line);
    std::exception_ptr E;
    try {
      Core->First.wait(File, Line);
    } catch (...) {
      E = std::current_exception();
    }
    try {
      Core->Second.wait(File, Line); // Observed, even if the first failed.
    } catch (...) {
      if (!E)
        E = std::current_exception();
    }
    if (E)
      std::rethrow_exception(E);
  }
  Value get(HPP_CALLER_LOCATION) const {
    wait(File, Line);
    return Value(value(Core->First, File, Line), value(Core->Second, File, Line));
  }

private:
  friend struct detail::FutureAccess;
  template <class> friend class Future;
  void check(const char *File, int Line) const {
    // Not `!Core`: its lookup would complete std::pair<X, void>.
    if (!Core.get())
      throw RuntimeError("Future::wait", File, Line,
                         "the future refers to no task (default-constructed)");
  }
  template <class T>
  static typename detail::FutureValue<T>::type
  value(const Future<T> &F, const char *File, int Line) {
    if constexpr (std::is_void<T>::value) {
      F.wait(File, Line);
      return Nothing{};
    } else {
      return F.get(File, Line);
    }
  }
  std::shared_ptr<detail::JoinCore<SA, SB>> Core;
};

/// Both futures: `(f1 && f2).get()` is the pair of their results.
template <class A, class B>
Future<std::pair<A, B>> operator&&(const Future<A> &F1, const Future<B> &F2) {
  return Future<std::pair<A, B>>(F1, F2);
}

namespace detail {
struct FutureAccess {
  /// A future for work \p W whose results (\p Count values in \p Results)
  /// \p F turns into the T that get() returns.
  template <class T>
  static Future<T> make(std::shared_ptr<Work> W, std::shared_ptr<void> Results,
                        std::size_t Count,
                        typename FutureCore<T>::Fetch F = nullptr) {
    Future<T> Out;
    Out.Core = std::make_shared<FutureCore<T>>(std::move(W), std::move(Results),
                                               Count, F);
    return Out;
  }
  /// The work behind a future made by make() (null for a join or an empty
  /// future), or every work behind a join: what a dependent task waits for.
  template <class T>
  static void works(const Future<T> &F,
                    std::vector<std::shared_ptr<Work>> &Out) {
    if (!F.Core)
      return;
    if constexpr (IsPair<T>::value) {
      works(F.Core->First, Out);
      works(F.Core->Second, Out);
    } else {
      Out.push_back(F.Core->work());
    }
  }
};
} // namespace detail

} // namespace hpp

#endif // HPP_CORE_FUTURE_H
