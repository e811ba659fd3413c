//===- hpp/task.h - Task<R, Index<N>> for rewritten code ------------------===//
//
// Part of hpp-rewrite. Device runtime, shared by every backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The host side of a rewritten Task (spec 1.8). hpp-rewrite outlines the
/// task's lambda into a kernel
///
///   __global__ void k(hpp::Range<N, N> range,
///                     hpp::detail::TaskResult<R> result, captures...);
///
/// and constructs the Task from `hpp::detail::taskKernel(k, captures...)`,
/// which copies the captures as the lambda did. `enqueue(range[, after])`
/// (also `enqueue(device, range[, after])`: docs/devices.md; without a
/// device, on the default one) and the Future (hpp/core/future.h) keep the
/// dialect's spelling; the
/// kernel starts with `if (!result.runs()) return;` (TaskGate):
///  - CUDA/HIP: each enqueue launches on one of the runtime's non-blocking
///    streams (round robin, so that independent tasks overlap), after an
///    event wait for each future it depends on (ordering on the device,
///    never by blocking the host), and records an event that the future
///    waits for (hpp/backend/gpu_task.h). The results live in device
///    memory and are copied back once, at the first get().
///  - CPU backend: as the reference runtime, the task runs when something
///    synchronises with it (hpp/cpu/sync.h).
/// A Range<N> launch is made as the Range<N, N> with the default
/// work-group size, which is what Range<N> means.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_TASK_H
#define HPP_RUNTIME_TASK_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/runtime.h>, which selects the backend first"
#endif

#include "hpp/core/device.h"
#include "hpp/core/error.h"
#include "hpp/core/future.h"
#include "hpp/core/index.h"
#include "hpp/core/range.h"
#include "hpp/core/range_check.h"
#include "hpp/device_error.h"
#include "hpp/launch.h"

#include <cstddef>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace hpp {
namespace detail {

/// Whether a task's kernel may run its body: not when a task it waits for
/// failed (on a GPU the launch is already enqueued behind it; the kernel's
/// first statement, `if (!result.runs()) return;`, asks). The gate reads
/// the dependencies' error records (hpp/device_error.h), complete by then;
/// a task with more dependencies than Deps holds has them folded into one
/// word first (hpp/backend/gpu_task.h). A task that does not run records
/// that in its own record, for its dependents and its future. Always open
/// on the CPU backend, whose queue does not run such a task at all.
struct TaskGate {
  static constexpr unsigned Max = 8;
  const unsigned *Deps[Max] = {}; ///< DeviceErrorSlot::Claim words
  unsigned Count = 0;
  DeviceErrorSlot *Self = nullptr;
#if !defined(HPP_BACKEND_CPU)
  /// Reads every dependency's word at once, each at a constant index: a
  /// loop up to Count indexes the parameter at run time, which makes the
  /// kernel copy it to local memory first (as a call with its address
  /// would: notRun).
  HPP_DEVICE bool runs() const {
    unsigned Failed = 0;
#pragma unroll
    for (unsigned I = 0; I < Max; ++I)
      if (I < Count)
        Failed |= *Deps[I];
    if (__builtin_expect(Failed != 0, 0)) {
      notRun(Self);
      return false;
    }
    return true;
  }
  /// Records in \p Self that the task did not run. Static, taking the slot
  /// by value: a call with `this` would need the parameter's address, and
  /// so its copy in local memory.
  __noinline__ HPP_DEVICE static void notRun(DeviceErrorSlot *Self) {
    if (claimDeviceError(Self)) {
      fillDeviceError(Self, TaskNotRunError, nullptr, 0);
      publishDeviceError(Self);
    }
  }
#else
  bool runs() const { return true; }
#endif
};

/// Where the work-items of a task store their values: at the linear
/// global id, X fastest; and the task's gate.
template <class R> struct TaskResult {
  R *Out = nullptr;
  TaskGate Gate;
  HPP_DEVICE bool runs() const { return Gate.runs(); }
  template <class IndexT>
  HPP_HD void store(const IndexT &I, const R &Value) const {
    const IndexFields &F = I.fields();
    Out[F.Global[0] +
        F.GlobalSize[0] * (F.Global[1] + F.GlobalSize[1] * F.Global[2])] =
        Value;
  }
};
/// A void task stores nothing.
template <> struct TaskResult<void> {
  TaskGate Gate;
  HPP_DEVICE bool runs() const { return Gate.runs(); }
};

/// An outlined task kernel and the captures it was constructed with.
template <class KernelT, class... A> struct TaskKernel {
  KernelT Kernel;
  std::tuple<A...> Args;
};

/// What the rewritten Task is constructed from.
template <class KernelT, class... A>
TaskKernel<KernelT, std::decay_t<A>...> taskKernel(KernelT Kernel,
                                                   A &&...Args) {
  return {Kernel, std::tuple<std::decay_t<A>...>(std::forward<A>(Args)...)};
}

/// Prepares the launch with \p Options (hpp/launch.h, prepareLaunch; on a
/// stream, not waited for).
template <class KernelT, class RangeT, class... A>
PreparedLaunch prepareTaskKernel(LaunchOptions Options, KernelT Kernel,
                                 const RangeT &R, const A &...Args) {
  return prepareLaunch(Options, Kernel, R, Args...);
}
template <class KernelT, class RangeT, class... A>
PreparedLaunch prepareTaskKernel(LaunchOptions Options,
                                 Cooperative<KernelT> Kernel, const RangeT &R,
                                 const A &...Args) {
  Options.Cooperative = true;
  return prepareLaunch(Options, Kernel.Kernel, R, Args...);
}
/// Launches with \p Options (a stream: not waited for).
template <class KernelT, class RangeT, class... A>
void launchTaskKernel(LaunchOptions Options, KernelT Kernel, const RangeT &R,
                      const A &...Args) {
  launchWith(Options, Kernel, R, Args...);
}
template <class KernelT, class RangeT, class... A>
void launchTaskKernel(LaunchOptions Options, Cooperative<KernelT> Kernel,
                      const RangeT &R, const A &...Args) {
  Options.Cooperative = true;
  launchWith(Options, Kernel.Kernel, R, Args...);
}

/// The Range<N, N> that a Range<N> launch uses.
template <int N> Range<N, N> withLocalSize(const Range<N> &R) {
  const std::size_t *L = DefaultLocalSize<N>::Size;
  if constexpr (N == 1)
    return Range<N, N>(R, Range<1>(L[0]));
  else if constexpr (N == 2)
    return Range<N, N>(R, Range<2>(L[0], L[1]));
  else
    return Range<N, N>(R, Range<3>(L[0], L[1], L[2]));
}
template <int N> Range<N, N> withLocalSize(const Range<N, N> &R) { return R; }

/// Checks, at the enqueue, that a task may be launched with the capture
/// \p A: nothing to check but for a channel the task writes
/// (hpp/channel.h, found by argument-dependent lookup).
template <class A> void checkTaskArgument(const A &) {}
template <class A> void checkTaskCapture(const A &Arg) {
  checkTaskArgument(Arg);
}

template <class T> struct IsTaskIndex : std::false_type {};
template <int N, int L> struct IsTaskIndex<Index<N, L>> : std::true_type {};

} // namespace detail
} // namespace hpp

#if defined(HPP_BACKEND_HIP) || defined(HPP_BACKEND_CUDA)
#include "hpp/backend/gpu_task.h"
#else
#include "hpp/backend/cpu_task.h"
#endif

namespace hpp {

template <class R, class IndexT> class Task {
  static_assert(detail::IsTaskIndex<IndexT>::value,
                "Task<R, IndexT>: IndexT must be hpp::Index<N> or "
                "hpp::Index<N, N>");
};

/// A rewritten task; see the file comment.
template <class R, int N, int L> class Task<R, Index<N, L>> {
  using Result =
      std::conditional_t<std::is_void<R>::value, void, std::vector<R>>;

public:
  template <class KernelT, class... A>
  Task(detail::TaskKernel<KernelT, A...> K)
      : Launch(std::make_shared<LaunchOf<KernelT, A...>>(std::move(K))) {}

  /// Launches over \p Rg on the default device; returns at once.
  Future<Result> enqueue(const Range<N> &Rg, HPP_CALLER_LOCATION) {
    return submit(false, 0, detail::withLocalSize(Rg), {}, File, Line);
  }
  Future<Result> enqueue(const Range<N, N> &Rg, HPP_CALLER_LOCATION) {
    return submit(false, 0, Rg, {}, File, Line);
  }
  /// Launches over \p Rg after \p After has completed; returns at once.
  template <class D>
  Future<Result> enqueue(const Range<N> &Rg, const Future<D> &After,
                         HPP_CALLER_LOCATION) {
    return submit(false, 0, detail::withLocalSize(Rg), depsOf(After), File,
                  Line);
  }
  template <class D>
  Future<Result> enqueue(const Range<N, N> &Rg, const Future<D> &After,
                         HPP_CALLER_LOCATION) {
    return submit(false, 0, Rg, depsOf(After), File, Line);
  }
  /// The same on device \p Dev; \p After may come from any device (on a
  /// GPU, Dev's stream waits for its event; the host does not block).
  Future<Result> enqueue(Device Dev, const Range<N> &Rg, HPP_CALLER_LOCATION) {
    return submit(true, Dev.getId(), detail::withLocalSize(Rg), {}, File, Line);
  }
  Future<Result> enqueue(Device Dev, const Range<N, N> &Rg,
                         HPP_CALLER_LOCATION) {
    return submit(true, Dev.getId(), Rg, {}, File, Line);
  }
  template <class D>
  Future<Result> enqueue(Device Dev, const Range<N> &Rg, const Future<D> &After,
                         HPP_CALLER_LOCATION) {
    return submit(true, Dev.getId(), detail::withLocalSize(Rg), depsOf(After),
                  File, Line);
  }
  template <class D>
  Future<Result> enqueue(Device Dev, const Range<N, N> &Rg,
                         const Future<D> &After, HPP_CALLER_LOCATION) {
    return submit(true, Dev.getId(), Rg, depsOf(After), File, Line);
  }

private:
  using Deps = std::vector<std::shared_ptr<detail::Work>>;
  using Results = detail::TaskResult<R>;

  /// Launches the kernel with the captures it was constructed with.
  struct Launcher {
    virtual ~Launcher() = default;
    virtual void launch(const detail::LaunchOptions &O, const Range<N, N> &Rg,
                        Results Res) const = 0;
    /// Refuses, at the enqueue, captures a task cannot be launched with.
    virtual void check() const = 0;
  };
  template <class KernelT, class... A> struct LaunchOf : Launcher {
    explicit LaunchOf(detail::TaskKernel<KernelT, A...> K) : K(std::move(K)) {}
    void launch(const detail::LaunchOptions &O, const Range<N, N> &Rg,
                Results Res) const override {
      std::apply(
          [&](const A &...Args) {
            detail::launchTaskKernel(O, K.Kernel, Rg, Res, Args...);
          },
          K.Args);
    }
    void check() const override {
      std::apply(
          [](const A &...Args) { (detail::checkTaskCapture(Args), ...); },
          K.Args);
    }
    detail::TaskKernel<KernelT, A...> K;
  };

  template <class D> static Deps depsOf(const Future<D> &After) {
    Deps Out;
    detail::FutureAccess::works(After, Out);
    return Out;
  }

  /// Enqueues on device \p Dev if \p Named, else on the default device.
  Future<Result> submit(bool Named, int Dev, const Range<N, N> &Rg, Deps After,
                        const char *File, int Line) {
    if (!Named)
      Dev = detail::defaultDeviceId(File, Line);
    else
      detail::checkDeviceId(Dev, "Task::enqueue", File, Line);
    // The reference's refusals of a range, with its texts: before any
    // buffer is sized by it.
    detail::checkLaunchRange(Rg, "Task::enqueue", File, Line);
    try {
      Launch->check();
      return detail::submitTask<R, N>(Launch, Rg, std::move(After), Dev, File,
                                      Line);
    } catch (const RuntimeError &E) {
      if (detail::isLaunchError(E))
        throw E.at(File, Line);
      throw;
    }
  }

  std::shared_ptr<const Launcher> Launch;
};

} // namespace hpp

#endif // HPP_RUNTIME_TASK_H
