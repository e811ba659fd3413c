//===- hpp/cpu/task.h - Task<R, Index<N>> on the CPU ----------------------===//
//
// Part of hpp-rewrite. CPU reference runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Spec 1.8's tasks:
///
///   Task<float, Index<1>> t([=](Index<1> i) __device(hpp) { return a[i]; });
///   Future<std::vector<float>> f = t.enqueue(Range<1>(n));
///   Future<std::vector<float>> g = t.enqueue(Range<1>(n), f); // after f
///   std::vector<float> v = g.get();
///   Future<std::vector<float>> h = t.enqueue(Device(1), Range<1>(n), g);
///
/// The body is copied at construction, as a lambda copies its captures;
/// each enqueue launches it over a range (a Range<N> or a Range<N,N>,
/// whatever the Index type) and returns at once. The future's result holds
/// one value per work-item, at its linear global id (X fastest); R must be
/// default-constructible. When the task runs, and why the CPU runs it
/// late, is in hpp/cpu/sync.h; the range and the settings are checked at
/// the enqueue, as a GPU launch checks them. A task enqueued on a Device
/// runs its work-items on that device (hpp/cpu/device_sim.h), the forms
/// without one on the default device; `after` may come from any device.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_TASK_H
#define HPP_CPU_TASK_H

#include "hpp/core/device.h"
#include "hpp/core/error.h"
#include "hpp/core/future.h"
#include "hpp/core/index.h"
#include "hpp/core/range.h"
#include "hpp/cpu/parallel_for.h"
#include "hpp/cpu/sync.h"

#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__HPP_REWRITE__)
#define HPP_CPU_TASK_LOCATION_ARGS , nullptr, 0
#else
#define HPP_CPU_TASK_LOCATION_ARGS , File, Line
#endif

namespace hpp {

namespace cpu {
/// The linear global id of \p F's work-item, X fastest: where a task
/// stores its result.
inline std::size_t linearGlobalId(const detail::IndexFields &F) {
  return F.Global[0] +
         F.GlobalSize[0] * (F.Global[1] + F.GlobalSize[1] * F.Global[2]);
}

/// The future's value for a task with results \p Out (\p Count of them).
template <class R> std::vector<R> fetchResults(void *Out, std::size_t Count) {
  const R *P = static_cast<const R *>(Out);
  return std::vector<R>(P, P + Count);
}

template <class T> struct IsTaskIndex : std::false_type {};
template <int N, int L> struct IsTaskIndex<Index<N, L>> : std::true_type {};
} // namespace cpu

template <class R, class IndexT> class Task {
  static_assert(cpu::IsTaskIndex<IndexT>::value,
                "Task<R, IndexT>: IndexT must be hpp::Index<N> or "
                "hpp::Index<N, N>");
};

/// A data-parallel body to enqueue over ranges; see the file comment.
template <class R, int N, int L> class Task<R, Index<N, L>> {
  using IndexT = Index<N, L>;
  using Result =
      std::conditional_t<std::is_void<R>::value, void, std::vector<R>>;
  /// Results of one enqueue (none for void).
  using Slot = std::conditional_t<std::is_void<R>::value, char, R>;

public:
  /// \p Body: `[=](Index<N[,N]> i) __device(hpp) -> R { ... }`.
  template <class F> explicit Task(F Body) {
    static_assert(std::is_invocable<F &, const IndexT &>::value,
                  "Task<R, Index<...>>: the body must take the task's Index "
                  "type");
    static_assert(cpu::TakesIndexType<F>::value,
                  "Task: the body's parameter must be an hpp::Index");
    if constexpr (std::is_invocable<F &, const IndexT &>::value) {
      using Returned = std::invoke_result_t<F &, const IndexT &>;
      static_assert(std::is_void<R>::value
                        ? std::is_void<Returned>::value
                        : std::is_convertible<Returned, R>::value,
                    "Task<R, ...>: the body must return R (void for "
                    "Task<void, ...>)");
      auto Copy = std::make_shared<F>(std::move(Body));
      Body_ = Copy;
      Run1 = &run<F, Range<N>>;
      RunN = &run<F, Range<N, N>>;
    }
  }

  /// Launches the body over \p Rg on the default device; returns at once.
  Future<Result> enqueue(const Range<N> &Rg HPP_CPU_LAUNCH_LOCATION) {
    return make(cpu::DefaultDevice, Rg, Run1, {} HPP_CPU_TASK_LOCATION_ARGS);
  }
  Future<Result> enqueue(const Range<N, N> &Rg HPP_CPU_LAUNCH_LOCATION) {
    return make(cpu::DefaultDevice, Rg, RunN, {} HPP_CPU_TASK_LOCATION_ARGS);
  }
  /// Launches the body over \p Rg once \p After has completed; returns at
  /// once. If \p After fails, this task does not run and fails too.
  template <class D>
  Future<Result> enqueue(const Range<N> &Rg,
                         const Future<D> &After HPP_CPU_LAUNCH_LOCATION) {
    return make(cpu::DefaultDevice, Rg, Run1,
                depsOf(After) HPP_CPU_TASK_LOCATION_ARGS);
  }
  template <class D>
  Future<Result> enqueue(const Range<N, N> &Rg,
                         const Future<D> &After HPP_CPU_LAUNCH_LOCATION) {
    return make(cpu::DefaultDevice, Rg, RunN,
                depsOf(After) HPP_CPU_TASK_LOCATION_ARGS);
  }
  /// The same on device \p Dev; \p After may come from any device.
  Future<Result> enqueue(Device Dev,
                         const Range<N> &Rg HPP_CPU_LAUNCH_LOCATION) {
    return make(Dev.getId(), Rg, Run1, {} HPP_CPU_TASK_LOCATION_ARGS);
  }
  Future<Result> enqueue(Device Dev,
                         const Range<N, N> &Rg HPP_CPU_LAUNCH_LOCATION) {
    return make(Dev.getId(), Rg, RunN, {} HPP_CPU_TASK_LOCATION_ARGS);
  }
  template <class D>
  Future<Result> enqueue(Device Dev, const Range<N> &Rg,
                         const Future<D> &After HPP_CPU_LAUNCH_LOCATION) {
    return make(Dev.getId(), Rg, Run1,
                depsOf(After) HPP_CPU_TASK_LOCATION_ARGS);
  }
  template <class D>
  Future<Result> enqueue(Device Dev, const Range<N, N> &Rg,
                         const Future<D> &After HPP_CPU_LAUNCH_LOCATION) {
    return make(Dev.getId(), Rg, RunN,
                depsOf(After) HPP_CPU_TASK_LOCATION_ARGS);
  }

private:
  using Deps = std::vector<std::shared_ptr<detail::Work>>;
  template <class D> static Deps depsOf(const Future<D> &After) {
    Deps Out;
    detail::FutureAccess::works(After, Out);
    return Out;
  }

  /// Runs body \p B over \p Rg, storing into \p Out.
  template <class F, class RangeT>
  static void run(const void *B, const void *Rg, Slot *Out, const char *File,
                  int Line) {
#if defined(__HPP_REWRITE__)
    (void)B, (void)Rg, (void)Out, (void)File, (void)Line;
#else
    const F &Body = *static_cast<const F *>(B);
    auto Item = [&Body, Out](const auto &I) {
      IndexT Mine(I.fields());
      if constexpr (std::is_void<R>::value) {
        cpu::invokeBody(Body, Mine);
        (void)Out;
      } else if constexpr (std::is_invocable<const F &,
                                             const IndexT &>::value) {
        Out[cpu::linearGlobalId(I.fields())] = Body(Mine);
      } else {
        F Copy(Body); // A mutable body: a fresh copy per work-item.
        Out[cpu::linearGlobalId(I.fields())] = Copy(Mine);
      }
    };
    cpu::launch(*static_cast<const RangeT *>(Rg), Item, File, Line);
#endif
  }

  using RunFn = void (*)(const void *, const void *, Slot *, const char *, int);

  template <class RangeT>
  Future<Result> make(long long Named, const RangeT &Rg, RunFn Fn, Deps After,
                      const char *File, int Line) {
    int Dev = 0;
    (void)Named;
#if !defined(__HPP_REWRITE__)
    // What a GPU launch refuses at once.
    Dev = cpu::launchDevice(Named, "Task::enqueue", File, Line);
    cpu::validateCheckSettings(File, Line);
    (void)cpu::launchShape(Rg, File, Line, "Task::enqueue");
    (void)cpu::mvectorWidth(File, Line);
#endif
    const std::size_t Count = Rg.size();
    // One result per work-item; none for a void task.
    const std::size_t Slots = std::is_void<R>::value || !Count ? 1 : Count;
    std::shared_ptr<Slot> Out(new Slot[Slots](), std::default_delete<Slot[]>());
    auto Body = Body_;
    for (auto &D : After)
      D->addDependent();
    auto W = std::make_shared<cpu::DeferredWork>(
        [Dev, Fn, Body, Rg, Out, File, Line] {
          cpu::RunOnDevice OnDevice(Dev, File, Line);
          Fn(Body.get(), &Rg, Out.get(), File, Line);
        },
        std::move(After), File, Line);
    cpu::TaskQueue::get().push(W);
    if constexpr (std::is_void<R>::value)
      return detail::FutureAccess::make<void>(W, nullptr, 0);
    else
      return detail::FutureAccess::make<Result>(W, Out, Count,
                                                &cpu::fetchResults<R>);
  }

  std::shared_ptr<const void> Body_;
  RunFn Run1 = nullptr, RunN = nullptr;
};

} // namespace hpp

#endif // HPP_CPU_TASK_H
