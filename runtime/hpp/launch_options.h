//===- hpp/launch_options.h - How launchKernel launches a kernel ----------===//
//
// Part of hpp-rewrite. Device runtime, shared by every backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// LaunchOptions: what hpp::launchKernel (launch.h) tells the backend's
/// launchOnBackend besides the kernel, its shape and its arguments.
/// LaunchScratch: what a launch owns for its duration: device memory, and
/// the after-launch work its arguments registered (AfterLaunchHook: a
/// channel's batch dispatch, hpp/channel.h), and the record of the errors
/// its device code raises (hpp/device_error.h).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_LAUNCH_OPTIONS_H
#define HPP_RUNTIME_LAUNCH_OPTIONS_H

#include <cstddef>
#include <memory>
#include <vector>

namespace hpp {
namespace detail {

class Work;
class DeviceErrorSink;
struct DeviceErrorSlot;

/// How a kernel is launched.
struct LaunchOptions {
  /// Every work-group resident at once (the kernel calls __gpu_sync):
  /// cudaLaunchCooperativeKernel / hipLaunchCooperativeKernel after a
  /// co-residency check; on the CPU backend one host thread per group.
  bool Cooperative = false;
  /// Work-items inside the global range (those that run the body).
  std::size_t InRange = 0;
  /// Dynamic shared memory per work-group, in bytes (a DistArray's
  /// regions: hpp/dist_array.h).
  std::size_t SharedBytes = 0;
  /// The range's global size along X, Y, Z (0: unknown). The CPU backend
  /// tells the work-items past its end, which never run the body, from
  /// those that returned, in its errors.
  std::size_t GlobalSize[3] = {0, 0, 0};
  /// The backend stream of an enqueued task (hpp/task.h): the launch is
  /// made on it and not waited for. Null: the null stream, and the launch
  /// waits for the device (a blocking parallelFor).
  void *Stream = nullptr;
  /// Where an asynchronous launch hands over its scratch memory, which
  /// must outlive the kernel (the launch's waiter frees it).
  std::shared_ptr<class LaunchScratch> *KeepScratch = nullptr;
  /// The scratch of an enqueued task's launch (GPU), kept in the task's
  /// work, which releases it once complete: the launch makes none.
  class LaunchScratch *TaskScratch = nullptr;
  /// The launch of an enqueued task (hpp/task.h), on every backend (the
  /// CPU backend runs tasks without a stream).
  bool Task = false;
  /// The GPU backends: the work of that task (hpp/backend/gpu_task.h). A
  /// channel the launch writes (hpp/channel.h) keeps it, to finish it
  /// before the host uses the channel again.
  Work *TaskWork = nullptr;
  /// Made on Stream right behind the kernel it depends on, and waits for
  /// that kernel in its own code before it reads what that kernel wrote
  /// (a channel's eager consumer: ChannelBatch::ready). CUDA on compute
  /// capability 9.0 and later then launches it as a programmatic
  /// dependent launch, so that it is scheduled while the kernel before it
  /// drains instead of after; elsewhere, and with
  /// HPP_PROGRAMMATIC_LAUNCH=0, it is an ordinary launch.
  bool WaitsInKernel = false;
  /// A launch on Stream that is not waited for (a channel's consumer)
  /// puts its error record here when it is set, for the work that waits for
  /// that stream (a task's, hpp/backend/gpu_task.h); else in
  /// DeferredDeviceErrors, checked at the next device-wide wait.
  std::vector<std::shared_ptr<DeviceErrorSink>> *StreamErrors = nullptr;
};

/// Work that a launch argument registers with its launch
/// (prepareLaunchArgument): hpp::launchKernel then launches without
/// waiting (GPU: on a runtime-owned stream), calls Launched (GPU only:
/// work to enqueue behind the kernel before the host waits), waits for the
/// device, and calls Finish (which may launch, recursively, and throw).
/// The launch of a task on a stream (GPU) calls Launched on the task's
/// stream and returns; the task's work calls Finish once complete
/// (finishAfterLaunch). A launch abandoned before Finish (an error) calls
/// Cancel instead. Plain function pointers, so a launch without such
/// arguments pays nothing.
struct AfterLaunchHook {
  void *Context;
  void (*Launched)(void *Context, void *Stream);
  void (*Finish)(void *Context);
  void (*Cancel)(void *Context) noexcept;
};

/// Device memory a launch needs for its duration (a launch-wide barrier's
/// state): zeroed when handed out, freed when the launch is over. Defined
/// by the backend.
class LaunchScratch {
public:
  LaunchScratch() = default;
  LaunchScratch(const LaunchScratch &) = delete;
  LaunchScratch &operator=(const LaunchScratch &) = delete;
  ~LaunchScratch();
  /// \p Bytes of zeroed device memory.
  void *zeroed(std::size_t Bytes);
  /// The stream the launch is made on (zeroing is ordered before it).
  void *Stream = nullptr;
  /// The device of the blocks (GPU), set by the first zeroed(); -1 before.
  int Device = -1;
  /// Registered by the arguments; empty for most launches (no allocation).
  std::vector<AfterLaunchHook> AfterLaunch;
  /// The record of the launch's device errors (hpp/device_error.h): a
  /// task's (its work made it, in this scratch it keeps: TaskScratch), or
  /// made by errorSlot() for the first argument that can fail on the
  /// device; null otherwise, and always on the CPU backend.
  std::shared_ptr<DeviceErrorSink> Errors;
  /// The device address of Errors' slot, made on first use (null on the
  /// CPU backend). Defined in hpp/device_error.h.
  DeviceErrorSlot *errorSlot();

  /// Gives the blocks back and cancels the hooks that never reached
  /// Finish: the launch is over (the destructor, or a task's work once
  /// complete, which keeps its scratch in itself).
  void release() noexcept;
  /// The hooks of a launch that never reached Finish (the destructor, or
  /// a task's work that failed).
  void cancelAfterLaunch() noexcept {
    std::vector<AfterLaunchHook> Hooks = std::move(AfterLaunch);
    AfterLaunch.clear();
    for (const AfterLaunchHook &H : Hooks)
      H.Cancel(H.Context);
  }

private:
  std::vector<void *> Blocks;
};

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_LAUNCH_OPTIONS_H
