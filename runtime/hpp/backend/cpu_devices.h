//===- hpp/backend/cpu_devices.h - Simulated devices on the CPU backend ---===//
//
// Part of hpp-rewrite. Device runtime, CPU backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CPU backend's side of hpp/devices.h: the HPP_CPU_DEVICES devices
/// the CPU reference runtime simulates (hpp/cpu/device_sim.h), with the
/// same count, default device (HPP_DEVICE), peer table (HPP_CPU_PEER) and
/// allocation records, so that a rewritten program prints here what the
/// reference prints, errors included. A launch runs inside a
/// cpu::RunOnDevice scope: its work-items run "on" its device, and
/// Pointer's check (hpp/core/pointer.h) refuses memory of another device
/// without peer access, at the launch's line.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_CPU_DEVICES_H
#define HPP_RUNTIME_BACKEND_CPU_DEVICES_H

#include "hpp/core/error.h"
#include "hpp/cpu/copy.h"
#include "hpp/cpu/device_sim.h"
#include "hpp/cpu/devices.h"
#include "hpp/cpu/sync.h"

#include <cstddef>

namespace hpp {
namespace detail {

/// The most devices a process may use.
constexpr int MaxDevices = cpu::MaxSimulatedDevices;

/// HPP_CPU_DEVICES (a bad value is thrown at \p File : \p Line).
inline int backendDeviceCount(const char *File = __FILE__,
                              int Line = __LINE__) {
  return cpu::simulatedDeviceCount(File, Line);
}

/// Throws, at \p File : \p Line, for \p Id that names no device.
inline void checkDeviceId(int Id, const char *Call, const char *File,
                          int Line) {
  cpu::checkDeviceId(Id, Call, File, Line);
}

/// The default device (HPP_DEVICE), chosen at the first call.
inline int defaultDeviceId(const char *File, int Line) {
  return cpu::defaultDeviceId(File, Line);
}

/// The device a launch or a task runs on, checked at the caller's line;
/// the work-items of the kernels launched in its scope run on it.
class LaunchDevice {
public:
  LaunchDevice(int Id, const char *Call, const char *File, int Line)
      : Scope((checkDeviceId(Id, Call, File, Line), Id), File, Line) {}

private:
  cpu::RunOnDevice Scope;
};

/// The CPU backend prefetches nothing: no launch device to filter by.
inline int launchDeviceId() { return -1; }

/// A scope with no effect on the CPU (host code runs on no device).
class DeviceScope {
public:
  explicit DeviceScope(int) {}
};

inline bool backendCanAccessPeer(int From, int To) {
  return cpu::simulatedCanAccessPeer(From, To);
}

inline void backendEnablePeer(int From, int To, const char *File, int Line) {
  cpu::simulatedEnablePeer(From, To, File, Line);
}

/// The records of the allocations, for the error of a kernel that uses
/// memory of another device.
inline void recordAllocationSite(const void *Base, std::size_t Bytes, int Dev,
                                 const char *File, int Line) {
  cpu::recordAllocation(Base, Bytes, Dev, File, Line);
}
/// At a deallocate: the enqueued tasks run first (they may use the block,
/// and name it in an error), as cudaFree waits for the device.
inline void forgetAllocationSite(const void *Base) {
  cpu::TaskQueue::get().runUntil(nullptr);
  cpu::forgetAllocation(Base);
}

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_CPU_DEVICES_H
