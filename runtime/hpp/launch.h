//===- hpp/launch.h - launchKernel: run an outlined kernel over a Range ---===//
//
// Part of hpp-rewrite. Device runtime, shared by every backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp::launchKernel(kernel, range, args...), the host side of every
/// rewritten parallelFor, on the default device (docs/devices.md), and
/// hpp::launchKernel(device, kernel, range, args...), the host side of
/// `parallelFor(device, range, ...)`, on that device:
///  0. the device is checked (RuntimeError at the caller's line) and made
///     the current one (GPU: cudaSetDevice, restored after) for every step
///     below; on the CPU backend the work-items run on it, for the check
///     of the memory they use (hpp/cpu/device_sim.h);
///  1. an empty range launches nothing;
///  2. work-group size: the range's local size (Range<N,N>) or a default
///     (256 in 1D, 16x16 in 2D, 8x8x4 in 3D); grid = ceil(global / local)
///     per dimension;
///  3. the arguments are converted to the kernel's parameter types;
///  4. Barrier arguments are checked (hpp/barrier.h); a BoundDistArray
///     argument (hpp/dist_array.h) sets the dynamic shared memory; every
///     Pointer<T> argument of the device is prefetched to it when it
///     supports concurrent managed access (HPP_PREFETCH can restrict this
///     to an allocation's first launch, or turn it off: hpp/prefetch.h);
///  5. the kernel is launched (cudaLaunchKernel / hipLaunchKernel / host
///     threads), and the call waits for it, as parallelFor blocks. A
///     kernel that calls __gpu_sync comes wrapped in detail::cooperative:
///     it is launched cooperatively, after a check that all its work-groups
///     can be resident at once (hpp::RuntimeError otherwise, never a hang);
///  6. the errors the kernel's device code recorded (a Segment index out of
///     range, a Barrier deadlock: hpp/device_error.h) are thrown once it
///     has completed, as the reference runtime throws them;
///  7. an argument that registered after-launch work (a ChannelWriter:
///     hpp/channel.h) makes the launch go on a runtime-owned stream
///     without waiting; the work enqueues what it needs behind the kernel
///     (a channel's eager consumer launches; on CUDA the launch and those
///     are recorded and submitted as one graph: hpp/launch_graph.h),
///     the host waits for the device, and the work finishes (the
///     channel's batches are consumed).
///     A task's launch on a stream (GPU) enqueues that work on the task's
///     stream and returns; the task's work finishes it once complete.
///     A launch without such arguments takes none of these steps.
/// Every backend call is checked; failures throw hpp::RuntimeError.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_LAUNCH_H
#define HPP_RUNTIME_LAUNCH_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/runtime.h>, which selects the backend first"
#endif

#include "hpp/core/device.h"
#include "hpp/core/error.h"
#include "hpp/core/pointer.h"
#include "hpp/core/range.h"
#include "hpp/core/range_check.h"
#include "hpp/device_error.h"
#include "hpp/launch_graph.h"
#include "hpp/prefetch.h"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <exception>
#include <functional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace hpp {
namespace detail {

/// Work-group size used for a Range<N> without a local size.
template <int Dims> struct DefaultLocalSize;
template <> struct DefaultLocalSize<1> {
  static constexpr std::size_t Size[3] = {256, 1, 1};
};
template <> struct DefaultLocalSize<2> {
  static constexpr std::size_t Size[3] = {16, 16, 1};
};
template <> struct DefaultLocalSize<3> {
  static constexpr std::size_t Size[3] = {8, 8, 4};
};

/// Grid and work-group shape of one launch.
struct LaunchShape {
  dim3 Grid;
  dim3 Block;
};

/// \p V as a dim3 extent; throws if the backend cannot express it.
inline unsigned toExtent(std::size_t V, const char *What, int D) {
  if (V > UINT_MAX)
    throw RuntimeError("hpp::launchKernel", __FILE__, __LINE__,
                       std::string(What) + " " + std::to_string(V) +
                           " in dimension " + std::to_string(D) +
                           " does not fit the backend's launch limits");
  return static_cast<unsigned>(V);
}

/// The grid and work-group shape that cover \p R.
template <int Dims, int LocalDims>
LaunchShape launchShapeFor(const Range<Dims, LocalDims> &R) {
  unsigned Grid[3], Block[3];
  for (int D = 0; D < 3; ++D) {
    std::size_t Local;
    if constexpr (LocalDims == Dims)
      Local = R.getLocal(D);
    else
      Local = DefaultLocalSize<Dims>::Size[D];
    Block[D] = toExtent(Local, "work-group size", D);
    Grid[D] = toExtent(groupsFor(R.get(D), Local), "work-group count", D);
  }
  return {dim3(Grid[0], Grid[1], Grid[2]), dim3(Block[0], Block[1], Block[2])};
}

/// Calls the Finish of every hook \p Hooks holds, once the launch and what
/// was enqueued behind it have ended. Every hook is finished even if one
/// throws; the first error is rethrown after the last.
inline void finishHooks(std::vector<AfterLaunchHook> Hooks) {
  std::exception_ptr First;
  for (const AfterLaunchHook &H : Hooks) {
    try {
      H.Finish(H.Context);
    } catch (...) {
      if (!First)
        First = std::current_exception();
    }
  }
  if (First)
    std::rethrow_exception(First);
}

/// The after-launch work of a launch made without waiting, on \p Stream
/// (see AfterLaunchHook): enqueued behind the kernel, waited for, then
/// finished.
/// \p Graph holds the launch and what the hooks launch, if recorded
/// (hpp/launch_graph.h): submitted before the wait; on an error, what it
/// holds is made one call after the other by the wait, as it would have
/// been without it.
inline void runAfterLaunch(LaunchScratch &Scratch, void *Stream,
                           LaunchGraph &Graph) {
  std::vector<AfterLaunchHook> Hooks = std::move(Scratch.AfterLaunch);
  Scratch.AfterLaunch.clear();
  try {
#if !defined(HPP_BACKEND_CPU)
    for (const AfterLaunchHook &H : Hooks)
      H.Launched(H.Context, Stream);
#endif
    Graph.launch();
    waitForAfterLaunch(Stream);
  } catch (...) {
    try { // What was enqueued must end before the hooks let go of it.
      waitForAfterLaunch(Stream);
    } catch (...) {
    }
    for (const AfterLaunchHook &H : Hooks)
      H.Cancel(H.Context);
    throw;
  }
  finishHooks(std::move(Hooks));
}

/// The after-launch work of a task's launch on \p Stream (GPU): enqueued
/// behind the kernel on the task's stream; the hooks stay in \p Scratch,
/// which the task's work keeps and finishes once complete
/// (finishAfterLaunch). Not waited for, but after an error.
inline void launchedInTask(LaunchScratch &Scratch, void *Stream,
                           LaunchGraph &Graph) {
  try {
    for (const AfterLaunchHook &H : Scratch.AfterLaunch)
      H.Launched(H.Context, Stream);
    Graph.launch();
  } catch (...) {
    try { // What was enqueued must end before the hooks let go of it.
      waitForAfterLaunch(Stream);
    } catch (...) {
    }
    Scratch.cancelAfterLaunch();
    throw;
  }
}

/// What a task's work calls once its launch (and what was enqueued behind
/// it) has completed: the Finish of the hooks \p Scratch still holds.
inline void finishAfterLaunch(LaunchScratch &Scratch) {
  std::vector<AfterLaunchHook> Hooks = std::move(Scratch.AfterLaunch);
  Scratch.AfterLaunch.clear();
  finishHooks(std::move(Hooks));
}

/// A kernel that needs all its work-groups resident at once (it calls
/// __gpu_sync): launched cooperatively (cudaLaunchCooperativeKernel /
/// hipLaunchCooperativeKernel) after a co-residency check.
template <class KernelT> struct Cooperative { KernelT Kernel; };

template <class KernelT> Cooperative<KernelT> cooperative(KernelT Kernel) {
  return {Kernel};
}

/// A launch with its arguments converted and prepared (steps 1-4 above):
/// calling it launches (steps 5-7); empty for an empty range. A channel
/// prepares its eager consumer launches before their producer is launched
/// (hpp/channel_launch.h), so that only the launch calls stand between
/// the two.
using PreparedLaunch = std::function<void()>;

/// The scratch of a launch with \p Options (a task's is in its work; any
/// other launch's is made here and kept by \p Owner), its stream set.
inline LaunchScratch &launchScratch(const LaunchOptions &Options,
                                    std::shared_ptr<LaunchScratch> &Owner) {
  LaunchScratch *Scratch = Options.TaskScratch;
  if (!Scratch) {
    Owner = std::make_shared<LaunchScratch>();
    Scratch = Owner.get();
  }
  Scratch->Stream = Options.Stream; // (A task's already holds its Errors.)
  return *Scratch;
}

/// Steps 6 and 7 of a launch (after the kernel's, steps 5, on the graph
/// \p Graph): the after-launch work, then the errors the device code
/// recorded. Not a template: the same for every kernel.
inline void finishLaunchSteps(LaunchScratch &Scratch, LaunchOptions &Resolved,
                              LaunchGraph &Graph, bool AfterLaunch, bool InTask,
                              bool Blocking,
                              std::shared_ptr<LaunchScratch> &ScratchOwner) {
  if (InTask)
    launchedInTask(Scratch, Resolved.Stream, Graph);
  else if (AfterLaunch)
    runAfterLaunch(Scratch, Resolved.Stream, Graph);
  // The errors its device code recorded (hpp/device_error.h): now, once
  // the launch was waited for; a task's, by its work; another launch
  // made on a stream (a channel's consumer), at the wait for that
  // stream.
  if (Scratch.Errors && !Resolved.Task) {
    if (Blocking)
      checkDeviceErrors(Scratch.Errors);
    else if (Resolved.StreamErrors)
      Resolved.StreamErrors->push_back(Scratch.Errors);
    else
      DeferredDeviceErrors::get().add(Scratch.Errors);
  }
  if (Resolved.KeepScratch)
    *Resolved.KeepScratch = std::move(ScratchOwner);
}

/// Steps 2-4 of a launch over \p R, not empty; returns steps 5-7 as a
/// callable (launchWith calls it at once, prepareLaunch keeps it).
template <int Dims, int LocalDims, class... P, class... A>
auto prepareSteps(const LaunchOptions &Options,
                  void (*Kernel)(Range<Dims, LocalDims>, P...),
                  const Range<Dims, LocalDims> &R, A &&...Args) {
  static_assert(sizeof...(P) == sizeof...(A),
                "hpp::launchKernel: one argument per kernel parameter after "
                "the range");
  static_assert(!(std::is_reference<P>::value || ...),
                "hpp::launchKernel: kernel parameters are passed by value");
  const LaunchShape Shape = launchShapeFor(R);
  std::tuple<P...> Converted(std::forward<A>(Args)...);
  const unsigned GroupSize = Shape.Block.x * Shape.Block.y * Shape.Block.z;
  LaunchOptions Resolved = Options;
  Resolved.InRange = R.size();
  for (int D = 0; D < 3; ++D)
    Resolved.GlobalSize[D] = R.get(D);
  std::shared_ptr<LaunchScratch> ScratchOwner;
  LaunchScratch &Scratch = launchScratch(Options, ScratchOwner);
  LaunchScratch *ScratchPtr = &Scratch;
  std::apply(
      [&](auto &...Arg) {
        (prepareLaunchArgument(Arg, GroupSize, Resolved.InRange, Resolved,
                               Scratch),
         ...);
      },
      Converted);
  prefetchPointers(Converted);
  Range<Dims, LocalDims> RangeArg = R;
  std::apply(
      [&](const auto &...Arg) {
        ((Resolved.SharedBytes =
              std::max(Resolved.SharedBytes, sharedBytesOf(Arg))),
         ...);
      },
      Converted);
  // Channels (hpp/channel.h): the launch is not waited for in
  // launchOnBackend, but in runAfterLaunch; a task's (on its stream) by
  // its work.
  const bool AfterLaunch = !Scratch.AfterLaunch.empty();
  const bool InTask = AfterLaunch && Options.Stream;
  const bool Blocking = !Options.Stream;
  if (AfterLaunch && !InTask)
    Resolved.Stream = afterLaunchStream();
  if (Scratch.Errors) {
    std::size_t Local[3] = {Shape.Block.x, Shape.Block.y, Shape.Block.z};
    Scratch.Errors->setRange(Resolved.GlobalSize, Local);
  }
  // Moved into the callable, not copied: a task's launch makes this
  // callable and calls it at once (launchWith), and each copy of a
  // shared_ptr is an atomic update.
  return [=, Converted = std::move(Converted), Resolved = std::move(Resolved),
          ScratchOwner = std::move(ScratchOwner)]() mutable {
    LaunchScratch &Scratch = *ScratchPtr;
    LaunchGraph Graph(AfterLaunch ? Resolved.Stream : nullptr,
                      Resolved.Cooperative,
                      std::size_t(Shape.Grid.x) * Shape.Grid.y * Shape.Grid.z);
    launchOnBackend(Kernel, Shape.Grid, Shape.Block, RangeArg, Converted,
                    Resolved, std::index_sequence_for<P...>());
    finishLaunchSteps(Scratch, Resolved, Graph, AfterLaunch, InTask, Blocking,
                      ScratchOwner);
  };
}

/// The instantiation of a kernel with a wait-only barrier that fits \p R
/// (hpp/wait_only_barrier.h, WaitOnlyVariants); a launch-wide one is
/// cooperative.
template <class KernelT, int Dims, int LocalDims, class... A>
auto prepareSteps(const LaunchOptions &Options,
                  const WaitOnlyVariants<KernelT> &Variants,
                  const Range<Dims, LocalDims> &R, A &&...Args) {
  const LaunchShape Shape = launchShapeFor(R);
  const std::size_t GroupSize = Shape.Block.x * Shape.Block.y * Shape.Block.z;
  const BarrierScope Scope =
      Variants.pick(unsigned(GroupSize), R.size(),
                    GroupSize * Shape.Grid.x * Shape.Grid.y * Shape.Grid.z);
  LaunchOptions Picked = Options;
  Picked.Cooperative |= Scope == LaunchScope;
  return prepareSteps(Picked, Variants.Kernels[Scope], R,
                      std::forward<A>(Args)...);
}

/// The launch of \p Kernel over \p R, prepared; empty for an empty range.
template <class KernelT, int Dims, int LocalDims, class... A>
PreparedLaunch prepareLaunch(const LaunchOptions &Options,
                             const KernelT &Kernel,
                             const Range<Dims, LocalDims> &R, A &&...Args) {
  if (R.size() == 0)
    return {};
  return prepareSteps(Options, Kernel, R, std::forward<A>(Args)...);
}

/// Launches \p Kernel over \p R: prepares, then launches (no type
/// erasure on this path).
template <class KernelT, int Dims, int LocalDims, class... A>
void launchWith(const LaunchOptions &Options, const KernelT &Kernel,
                const Range<Dims, LocalDims> &R, A &&...Args) {
  if (R.size() == 0)
    return;
  prepareSteps(Options, Kernel, R, std::forward<A>(Args)...)();
}

} // namespace detail

namespace detail {
template <class KernelT, int Dims, int LocalDims, class... A>
void launchKernelWith(KernelT Kernel, const Range<Dims, LocalDims> &R,
                      A &&...Args) {
  launchWith(LaunchOptions{}, Kernel, R, std::forward<A>(Args)...);
}

template <class KernelT, int Dims, int LocalDims, class... A>
void launchKernelWith(Cooperative<KernelT> Kernel,
                      const Range<Dims, LocalDims> &R, A &&...Args) {
  LaunchOptions Options;
  Options.Cooperative = true;
  launchWith(Options, Kernel.Kernel, R, std::forward<A>(Args)...);
}

/// Whether \p E is about the launch itself (its shape, its residency, a
/// setting it read: thrown by the runtime with its own file and line), not
/// about the body's code (which names the body's line).
inline bool isLaunchError(const RuntimeError &E) {
  if (E.call() == "hpp::launchKernel" || E.call().rfind("HPP_", 0) == 0)
    return true;
  // The runtime's own headers: this one's directory and below.
  const std::string Here = __FILE__;
  const std::string Dir = Here.substr(0, Here.size() - sizeof("launch.h") + 1);
  return E.file().compare(0, Dir.size(), Dir) == 0;
}
} // namespace detail

/// Runs \p Kernel (an outlined parallelFor body: the range, then one
/// parameter per capture) over \p R with \p Args, and waits for it.
/// \p Kernel may also be detail::WaitOnlyVariants
/// (hpp/wait_only_barrier.h), or detail::Cooperative for a kernel that
/// calls __gpu_sync: a cooperative launch, refused with hpp::RuntimeError
/// when its work-groups cannot all be resident at once.
///
/// Written as a call, `hpp::launchKernel(k, range, args...);`, it is a
/// class whose constructor launches: the deduction guides below fix the
/// argument types, so the constructor can take the caller's file and line
/// after them, and an error about the launch (a work-group too large, a
/// cooperative launch that cannot be resident, a bad HPP_PREFETCH) names
/// the line of the launch rather than this header.
///
/// `hpp::launchKernel(d, k, range, args...)`, with an hpp::Device first,
/// is the same launch on device d (the rewritten
/// `parallelFor(d, range, ...)`). The two cannot be confused: a Device is
/// neither a kernel followed by a Range, nor does a kernel convert to a
/// Device.
template <class KernelT, int Dims, int LocalDims, class... A>
struct launchKernel {
  launchKernel(KernelT Kernel, const Range<Dims, LocalDims> &R, A &&...Args,
               HPP_CALLER_LOCATION) {
    launch(false, 0, Kernel, R, std::forward<A>(Args)..., File, Line);
  }
  launchKernel(Device D, KernelT Kernel, const Range<Dims, LocalDims> &R,
               A &&...Args, HPP_CALLER_LOCATION) {
    launch(true, D.getId(), Kernel, R, std::forward<A>(Args)..., File, Line);
  }

private:
  /// The launch on device \p Dev if \p Named, else on the default device.
  static void launch(bool Named, int Dev, KernelT Kernel,
                     const Range<Dims, LocalDims> &R, A &&...Args,
                     const char *File, int Line) {
    try {
      if (!Named)
        Dev = detail::defaultDeviceId(File, Line);
      const detail::LaunchDevice OnDevice(Dev, "parallelFor", File, Line);
      detail::beforeBlockingLaunch(File, Line);
      // The reference's refusals of a range, with its texts.
      detail::checkLaunchRange(R, "parallelFor", File, Line);
      detail::launchKernelWith(Kernel, R, std::forward<A>(Args)...);
      detail::afterBlockingLaunch(File, Line);
    } catch (const RuntimeError &E) {
      if (detail::isLaunchError(E))
        throw E.at(File, Line);
      throw;
    }
  }
};

template <class KernelT, int Dims, int LocalDims, class... A>
launchKernel(KernelT, const Range<Dims, LocalDims> &, A &&...)
    -> launchKernel<KernelT, Dims, LocalDims, A...>;
template <class KernelT, int Dims, int LocalDims, class... A>
launchKernel(Device, KernelT, const Range<Dims, LocalDims> &, A &&...)
    -> launchKernel<KernelT, Dims, LocalDims, A...>;

} // namespace hpp

#endif // HPP_RUNTIME_LAUNCH_H
