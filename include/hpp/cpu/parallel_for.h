//===- hpp/cpu/parallel_for.h - parallelFor on the CPU --------------------===//
//
// Part of hpp-rewrite. CPU reference runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// parallelFor(Range<N>, body) and parallelFor(Range<N,N>, body). The
/// work-groups of a launch are handed out to the threads of the ThreadPool;
/// each thread runs the work-items of a group through a GroupExecutor.
/// Work-group sizes, the Index fields and the skipping of trailing
/// work-items match the GPU runtime exactly.
///
/// parallelFor(Device(d), range, body) runs the launch on simulated device
/// d (hpp/cpu/device_sim.h: its work-items may use the memory of d and of
/// the devices d was given peer access to); the forms without a Device
/// run on the default device.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_PARALLEL_FOR_H
#define HPP_CPU_PARALLEL_FOR_H

#include "hpp/core/device.h"
#include "hpp/core/error.h"
#include "hpp/core/index.h"
#include "hpp/core/range.h"
#include "hpp/core/range_check.h"
#include "hpp/cpu/device_sim.h"
#include "hpp/cpu/group_executor.h"
#include "hpp/cpu/launch_context.h"
#include "hpp/cpu/settings.h"
#include "hpp/cpu/sync.h"
#include "hpp/cpu/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

namespace hpp {
namespace cpu {

/// Work-group extent along \p D that parallelFor uses for a Range<Dims>
/// (256 in 1D, 16x16 in 2D, 8x8x4 in 3D; the GPU runtime's defaults).
constexpr std::size_t defaultLocalSize(int Dims, int D) {
  if (Dims == 1)
    return D == 0 ? 256 : 1;
  if (Dims == 2)
    return D < 2 ? 16 : 1;
  return D < 2 ? 8 : 4;
}

/// Most work-items a work-group may have (the HIP and CUDA limit).
constexpr std::size_t MaxGroupSize = 1024;

/// Sizes of one launch, per dimension X, Y, Z (unused dimensions are 1).
struct LaunchShape {
  std::size_t GlobalSize[3];
  std::size_t LocalSize[3];
  std::size_t GroupCount[3];
  std::size_t Groups;        ///< Work-groups in the launch.
  std::size_t ItemsPerGroup; ///< Work-items in each work-group.
};

/// The shape of a launch over \p R; throws RuntimeError(\p Call) at the
/// launch, \p File : \p Line, for a range no launch can have
/// (detail::checkLaunchRange: a negative size converted to std::size_t, a
/// work-group size of zero or above MaxGroupSize, ...), with the device
/// runtime's text.
template <int Dims, int LocalDims>
LaunchShape launchShape(const Range<Dims, LocalDims> &R, const char *File,
                        int Line, const char *Call = "parallelFor") {
  detail::checkLaunchRange(R, Call, File, Line);
  LaunchShape S;
  S.Groups = 1;
  S.ItemsPerGroup = 1;
  for (int D = 0; D < 3; ++D) {
    S.GlobalSize[D] = D < Dims ? R.get(D) : 1;
    if constexpr (LocalDims == 0)
      S.LocalSize[D] = defaultLocalSize(Dims, D);
    else
      S.LocalSize[D] = D < Dims ? R.getLocal(D) : 1;
    S.GroupCount[D] = detail::groupsFor(S.GlobalSize[D], S.LocalSize[D]);
    S.Groups *= S.GroupCount[D];
    S.ItemsPerGroup *= S.LocalSize[D];
  }
  return S;
}

/// Calls \p Body on one work-item. A mutable lambda gets a fresh copy per
/// work-item, as each GPU thread gets its own copy of the captures.
template <class F, class IndexT>
void invokeBody(const F &Body, const IndexT &I) {
  if constexpr (std::is_invocable<const F &, const IndexT &>::value) {
    Body(I);
  } else {
    F Copy(Body);
    Copy(I);
  }
}

/// invokeBody on a body known by its address, for the work-item \p Item
/// when it lies in the range: what a Launch calls.
template <class F, class IndexT>
void invokeErased(const void *Body, const detail::IndexFields &Item) {
  IndexT I(Item);
  if (I.inGlobalRange())
    invokeBody(*static_cast<const F *>(Body), I);
}

/// True when \p F can be a body for launches that produce an IndexT.
template <class F, class IndexT> constexpr bool isBodyFor() {
  return std::is_invocable<F &, const IndexT &>::value;
}

/// The first parameter type of a call operator (void if none).
template <class M> struct FirstParameter { using type = void; };
#define HPP_CPU_FIRST_PARAMETER(Qualifiers)                                    \
  template <class R, class C, class P, class... Ps>                            \
  struct FirstParameter<R (C::*)(P, Ps...) Qualifiers> {                       \
    using type = P;                                                            \
  };
HPP_CPU_FIRST_PARAMETER()
HPP_CPU_FIRST_PARAMETER(const)
HPP_CPU_FIRST_PARAMETER(noexcept)
HPP_CPU_FIRST_PARAMETER(const noexcept)
#undef HPP_CPU_FIRST_PARAMETER

template <class T> struct IsIndex : std::false_type {};
template <int N, int L> struct IsIndex<Index<N, L>> : std::true_type {};

/// False when \p F's first parameter is known and is not an Index (a 1-D
/// Index converts to an integer, so `[](int i)` would otherwise be taken
/// for a body; hpp-rewrite declares the body's index as an hpp::Index).
/// Generic lambdas pass.
template <class F, class = void> struct TakesIndexType : std::true_type {};
template <class F>
struct TakesIndexType<F, std::void_t<decltype(&F::operator())>> {
  using Parameter = std::remove_cv_t<std::remove_reference_t<
      typename FirstParameter<decltype(&F::operator())>::type>>;
  static constexpr bool value =
      std::is_void<Parameter>::value || IsIndex<Parameter>::value;
};

/// State shared by the threads running one launch.
///
/// Each thread takes work-groups in turn and runs them to completion. A
/// work-group whose work-items all wait on launch-wide objects (Barrier
/// of more than a work-group, __gpu_sync) stays suspended on its thread
/// while the thread starts or resumes others; a thread with only suspended
/// groups sleeps until a launch-wide object releases waiters
/// (LaunchContext::notify). When every thread sleeps, the launch is
/// deadlocked, or its groups cannot all be resident: RuntimeError. Each
/// thread may always run one work-group; beyond that, at most
/// HPP_CPU_MAX_RESIDENT work-items of the launch are resident at once.
///
/// The body reaches it type-erased (a pointer and the function that makes
/// the work-item's Index and calls it), so that this class is compiled
/// once, not once per body or per index shape: a test program's build
/// spent most of its time instantiating it.
class Launch : public LaunchContext {
public:
  /// Calls the body \p Body points to on the work-item \p Item, when it
  /// lies in the range.
  using InvokeFn = void (*)(const void *Body, const detail::IndexFields &Item);

  /// A launch made at \p File : \p Line.
  Launch(const LaunchShape &Shape, const void *Body, InvokeFn Invoke,
         unsigned Width, const char *File, int Line)
      : LaunchContext(inRangeItems(Shape), File, Line), Shape(Shape),
        Body(Body), Invoke(Invoke), Width(Width) {}

  /// Runs the launch to completion; rethrows the first exception a body
  /// threw (the launch stops handing out work-groups after it).
  void run() {
    std::size_t Threads = ThreadPool::get().size();
    if (Shape.Groups < Threads)
      Threads = Shape.Groups;
    ThreadPool::get().run(static_cast<unsigned>(Threads), &Launch::work, this);
    if (Error)
      std::rethrow_exception(Error);
  }

private:
  using Fields = detail::IndexFields;

  static std::size_t inRangeItems(const LaunchShape &S) {
    return S.GlobalSize[0] * S.GlobalSize[1] * S.GlobalSize[2];
  }

  /// Runs the work-items of one group.
  struct ItemRunner {
    const Launch *L;
    Fields Base;
    void operator()(std::size_t Id) const {
      const std::size_t *LS = L->Shape.LocalSize;
      Fields Item = Base;
      Item.Local[0] = Id % LS[0];
      Item.Local[1] = (Id / LS[0]) % LS[1];
      Item.Local[2] = Id / (LS[0] * LS[1]);
      for (int D = 0; D < 3; ++D)
        Item.Global[D] = Item.Group[D] * LS[D] + Item.Local[D];
      L->Invoke(L->Body, Item);
    }
  };

  /// A work-group in flight on a thread.
  struct GroupRun {
    GroupRun(Launch &L, std::size_t Group) : Exec(L.Width), Run{&L, {}} {
      const std::size_t *LS = L.Shape.LocalSize;
      const std::size_t *GC = L.Shape.GroupCount;
      Fields &B = Run.Base;
      B.Group[0] = Group % GC[0];
      B.Group[1] = (Group / GC[0]) % GC[1];
      B.Group[2] = Group / (GC[0] * GC[1]);
      for (int D = 0; D < 3; ++D) {
        B.Global[D] = B.Local[D] = 0;
        B.LocalSize[D] = LS[D];
        B.GlobalSize[D] = L.Shape.GlobalSize[D];
        B.GroupCount[D] = GC[D];
      }
      Exec.setLaunch(&L, Group);
      Exec.setIndexBase(&Run.Base);
      Exec.start(L.Shape.ItemsPerGroup, Run);
    }
    GroupExecutor Exec;
    ItemRunner Run;
  };

  static void work(void *Context, unsigned) noexcept {
    static_cast<Launch *>(Context)->workLoop();
  }

  /// Runs \p G until it finishes or stalls; true when it finished (or
  /// failed: the launch is then over).
  bool step(GroupRun &G) {
    try {
      return G.Exec.resume();
    } catch (...) {
      fail(std::current_exception());
      return true;
    }
  }

  void workLoop() {
    std::vector<std::unique_ptr<GroupRun>> Mine; // Suspended groups.
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      ++Active;
    }
    for (;;) {
      if (Failed.load(std::memory_order_relaxed))
        break;
      const std::uint64_t Seen = epoch();
      bool Progress = false;
      for (std::size_t K = 0; K < Mine.size();) {
        if (step(*Mine[K])) {
          Resident.fetch_sub(Shape.ItemsPerGroup, std::memory_order_relaxed);
          Mine.erase(Mine.begin() + K);
          Progress = true;
        } else {
          ++K;
        }
      }
      if (Failed.load(std::memory_order_relaxed))
        break;
      if (startGroup(Mine))
        continue;
      if (Mine.empty() && NextGroup.load() >= Shape.Groups)
        break;
      // Mine is in start order: its front has the lowest group index.
      if (!Progress &&
          !sleep(Seen,
                 Mine.empty() ? nullptr : Mine.front()->Exec.firstParked(),
                 Mine.empty() ? 0 : Mine.front()->Exec.groupIndex()))
        break;
    }
    for (auto &G : Mine)
      G->Exec.abandon();
    leave();
  }

  /// Starts the next group unless none is left or \p Mine is suspended and
  /// the residency limit is reached; runs it until it finishes or stalls.
  bool startGroup(std::vector<std::unique_ptr<GroupRun>> &Mine) {
    if (NextGroup.load(std::memory_order_relaxed) >= Shape.Groups)
      return false;
    if (!Mine.empty() &&
        Resident.load(std::memory_order_relaxed) + Shape.ItemsPerGroup >
            maxResidentItems())
      return false;
    std::size_t Group = NextGroup.fetch_add(1, std::memory_order_relaxed);
    if (Group >= Shape.Groups)
      return false;
    Resident.fetch_add(Shape.ItemsPerGroup, std::memory_order_relaxed);
    Mine.push_back(std::make_unique<GroupRun>(*this, Group));
    if (step(*Mine.back())) {
      Resident.fetch_sub(Shape.ItemsPerGroup, std::memory_order_relaxed);
      Mine.pop_back();
    }
    return true;
  }

  /// Only facts that do not depend on timing: how many groups the threads
  /// had started when they all slept does.
  StuckReport stuckReason() const override {
    std::size_t Started =
        std::min(NextGroup.load(std::memory_order_relaxed), Shape.Groups);
    if (Started < Shape.Groups)
      return {"the launch's " + std::to_string(Shape.Groups) +
                  " work-groups of " + std::to_string(Shape.ItemsPerGroup) +
                  " work-items cannot all be resident: a launch-wide wait "
                  "needs them running at once, and the CPU runtime keeps at "
                  "most " +
                  std::to_string(maxResidentItems()) +
                  " suspended work-items (HPP_CPU_MAX_RESIDENT)",
              false};
    return LaunchContext::stuckReason();
  }

  const LaunchShape &Shape;
  const void *Body;
  InvokeFn Invoke;
  unsigned Width;
  std::atomic<std::size_t> NextGroup{0};
  std::atomic<std::size_t> Resident{0};
};

/// Runs \p Body over \p R and waits for it. \p File : \p Line is the
/// parallelFor call, where a bad range or setting is reported.
template <int Dims, int LocalDims, class F>
void launch(const Range<Dims, LocalDims> &R, const F &Body, const char *File,
            int Line) {
  validateCheckSettings(File, Line);
  LaunchShape Shape = launchShape(R, File, Line);
  unsigned Width = mvectorWidth(File, Line);
  if (Shape.Groups == 0)
    return;
  // Read now, at the call: the host threads read them later.
  (void)maxResidentItems(File, Line);
  (void)ThreadPool::get(File, Line);
  Launch(Shape, &Body, &invokeErased<F, Index<Dims, LocalDims>>, Width, File,
         Line)
      .run();
}

/// The number that stands for the default device in launchBlocking
/// (resolved at the call, where a bad HPP_DEVICE is reported). No Device
/// has it: a Device's number is an int, so Device(-1) is refused as any
/// other device that does not exist.
constexpr long long DefaultDevice = -(1LL << 40);

/// The device \p Dev names at the launch at \p File : \p Line (the
/// default device for DefaultDevice); throws RuntimeError(\p Call) for a
/// device that does not exist.
inline int launchDevice(long long Dev, const char *Call, const char *File,
                        int Line) {
  if (Dev == DefaultDevice)
    return defaultDeviceId(File, Line);
  checkDeviceId(static_cast<int>(Dev), Call, File, Line);
  return static_cast<int>(Dev);
}

/// A blocking parallelFor on device \p Dev (or DefaultDevice): first runs
/// the enqueued tasks and reports the errors of tasks nobody waited for
/// (hpp/cpu/sync.h), then launches, then waits for the channel consumers
/// the launch's writes triggered.
template <int Dims, int LocalDims, class F>
void launchBlocking(long long Named, const Range<Dims, LocalDims> &R,
                    const F &Body, const char *File, int Line) {
  const int Dev = launchDevice(Named, "parallelFor", File, Line);
  synchronize(File, Line);
  std::exception_ptr E;
  try {
    RunOnDevice OnDevice(Dev, File, Line);
    launch(R, Body, File, Line);
  } catch (...) {
    E = std::current_exception();
  }
  try {
    awaitConsumers(); // Even after a failure: they use the launch's data.
  } catch (...) {
    if (!E)
      E = std::current_exception();
  }
  if (E)
    std::rethrow_exception(E);
}

} // namespace cpu

// While hpp-rewrite parses a source it needs parallelFor's signature and type
// checks, not the CPU executor's instantiations for every body: leaving
// them out keeps the tool's parse cheaper than compiling the program. It
// also sees parallelFor without the caller's file and line
// (HPP_CPU_LAUNCH_LOCATION): a call there has exactly the arguments written.
#if defined(__HPP_REWRITE__)
#define HPP_CPU_LAUNCH_LOCATION
#define HPP_CPU_LAUNCH_ON(Dev, R, Body) ((void)(Dev), (void)(R), (void)(Body))
#else
#define HPP_CPU_LAUNCH_LOCATION , HPP_CALLER_LOCATION
#define HPP_CPU_LAUNCH_ON(Dev, R, Body)                                        \
  cpu::launchBlocking(Dev, R, Body, File, Line)
#endif

/// Runs \p Body once per point of \p R, with the runtime's default
/// work-group size, on the default device, and returns when every
/// work-item has finished. An exception thrown by the body propagates to
/// the caller; the runtime's errors name the caller's file and line.
template <int N, class F>
void parallelFor(Range<N> R, F Body HPP_CPU_LAUNCH_LOCATION) {
  constexpr bool TakesIndex = cpu::isBodyFor<F, Index<N>>();
  static_assert(TakesIndex,
                "parallelFor(Range<N>, body): the body must take an Index<N> "
                "with the same N as the range (Index<N,N> goes with "
                "Range<N,N>)");
  static_assert(cpu::TakesIndexType<F>::value,
                "parallelFor: the body's parameter must be an hpp::Index (a "
                "1-D Index converts to its global id inside the body)");
  if constexpr (TakesIndex) {
    static_assert(
        std::is_void<std::invoke_result_t<F &, const Index<N> &>>::value,
        "parallelFor: the body must return void");
    HPP_CPU_LAUNCH_ON(cpu::DefaultDevice, R, Body);
  }
}

/// Runs \p Body once per point of \p R's global range in work-groups of
/// \p R's local size, on the default device, and returns when every
/// work-item has finished. The trailing work-items of a partial last group
/// do not run the body. A 1-D body may take the paper's Index<1> instead of
/// the Index<1,1>.
template <int N, class F>
void parallelFor(Range<N, N> R, F Body HPP_CPU_LAUNCH_LOCATION) {
  constexpr bool TakesIndex = cpu::isBodyFor<F, Index<N, N>>();
  static_assert(TakesIndex,
                "parallelFor(Range<N,N>, body): the body must take an "
                "Index<N,N> with the same N as the range (Index<N> goes with "
                "Range<N>)");
  static_assert(cpu::TakesIndexType<F>::value,
                "parallelFor: the body's parameter must be an hpp::Index (a "
                "1-D Index converts to its global id inside the body)");
  if constexpr (TakesIndex) {
    static_assert(
        std::is_void<std::invoke_result_t<F &, const Index<N, N> &>>::value,
        "parallelFor: the body must return void");
    HPP_CPU_LAUNCH_ON(cpu::DefaultDevice, R, Body);
  }
}

/// parallelFor(R, Body) on device \p D: its work-items may use the memory
/// of \p D and of the devices \p D has peer access to.
template <int N, class F>
void parallelFor(Device D, Range<N> R, F Body HPP_CPU_LAUNCH_LOCATION) {
  constexpr bool TakesIndex = cpu::isBodyFor<F, Index<N>>();
  static_assert(TakesIndex,
                "parallelFor(Range<N>, body): the body must take an Index<N> "
                "with the same N as the range (Index<N,N> goes with "
                "Range<N,N>)");
  static_assert(cpu::TakesIndexType<F>::value,
                "parallelFor: the body's parameter must be an hpp::Index (a "
                "1-D Index converts to its global id inside the body)");
  if constexpr (TakesIndex) {
    static_assert(
        std::is_void<std::invoke_result_t<F &, const Index<N> &>>::value,
        "parallelFor: the body must return void");
    HPP_CPU_LAUNCH_ON(D.getId(), R, Body);
  }
}

/// parallelFor(R, Body) with work-groups, on device \p D.
template <int N, class F>
void parallelFor(Device D, Range<N, N> R, F Body HPP_CPU_LAUNCH_LOCATION) {
  constexpr bool TakesIndex = cpu::isBodyFor<F, Index<N, N>>();
  static_assert(TakesIndex,
                "parallelFor(Range<N,N>, body): the body must take an "
                "Index<N,N> with the same N as the range (Index<N> goes with "
                "Range<N>)");
  static_assert(cpu::TakesIndexType<F>::value,
                "parallelFor: the body's parameter must be an hpp::Index (a "
                "1-D Index converts to its global id inside the body)");
  if constexpr (TakesIndex) {
    static_assert(
        std::is_void<std::invoke_result_t<F &, const Index<N, N> &>>::value,
        "parallelFor: the body must return void");
    HPP_CPU_LAUNCH_ON(D.getId(), R, Body);
  }
}

} // namespace hpp

#endif // HPP_CPU_PARALLEL_FOR_H
