//===- hpp/core/future.h - Future<T>, f1 && f2, task errors ---------------===//
//
// Part of hpp-rewrite. Shared by the CPU reference runtime and the device
// runtime (host code only).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The host side of spec 1.8's futures, the same for every backend:
///  - detail::Work (hpp/core/work.h): one enqueued task, as a backend
///    runs it, with its error.
///  - Future<T> (T = std::vector<R>, void, or std::pair<A, B> from
///    `f1 && f2`, Nothing for a void side, which may be a join again):
///    wait(), get(). Copies share one state. Destroying the
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
#include "hpp/core/work.h"

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

namespace detail {
/// The type of `f1 && f2` for a Future<A> and a Future<B>: a void side
/// spelled Nothing (Canon), so that the join can be joined again (an
/// operator's argument-dependent lookup over `Future<std::pair<X, void>>`
/// completes std::pair<X, void>, which does not compile).
template <class A, class B>
using JoinOf = Future<std::pair<typename Canon<A>::type,
                                typename Canon<B>::type>>;
} // namespace detail

/// Both futures: `(f1 && f2).get()` is the pair of their results. The join
/// converts to its spelling with void for a void side.
template <class A, class B>
detail::JoinOf<A, B> operator&&(const Future<A> &F1, const Future<B> &F2) {
  return detail::JoinOf<A, B>(F1, F2);
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
