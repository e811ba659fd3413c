//===- hpp/launch_options.h - How launchKernel launches a kernel ----------===//
//
// Part of hpp-rewrite. Device runtime, shared by every backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// LaunchOptions: what hpp::launchKernel (launch.h) tells the backend's
/// launchOnBackend besides the kernel, its shape and its arguments.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_LAUNCH_OPTIONS_H
#define HPP_RUNTIME_LAUNCH_OPTIONS_H

#include <cstddef>
#include <memory>
#include <vector>

namespace hpp {
namespace detail {

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
  /// must outlive the kernel (the task's work frees it once complete).
  std::shared_ptr<class LaunchScratch> *KeepScratch = nullptr;
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

private:
  std::vector<void *> Blocks;
};

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_LAUNCH_OPTIONS_H
