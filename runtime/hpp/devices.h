//===- hpp/devices.h - Devices, peer access and copies --------------------===//
//
// Part of hpp-rewrite. Device runtime, shared by every backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The device API of docs/devices.md, which rewritten sources keep as
/// written: getDeviceCount, getDevices, getDefaultDevice, canAccessPeer,
/// enablePeerAccess, copy and copyAsync (allocate<T>(n, device) is in
/// hpp/memory.h, the launches on a device in hpp/launch.h and
/// hpp/task.h). Every misuse is an hpp::RuntimeError at the caller's line.
///  - CUDA / HIP: the driver's devices (backend/gpu_devices.h) and copies
///    (backend/gpu_copy.h);
///  - CPU backend: the CPU reference runtime's own functions
///    (hpp/cpu/devices.h, hpp/cpu/copy.h) over its HPP_CPU_DEVICES
///    simulated devices, so that both CPU runtimes print the same, errors
///    included.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_DEVICES_H
#define HPP_RUNTIME_DEVICES_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/runtime.h>, which selects the backend first"
#endif

#include "hpp/core/device.h"
#include "hpp/core/error.h"
#include "hpp/task.h"

#include <vector>

#if defined(HPP_BACKEND_CPU)
#include "hpp/cpu/copy.h"
#include "hpp/cpu/devices.h"
#else
#include "hpp/backend/gpu_copy.h"

namespace hpp {

/// The number of devices (at least 1).
inline int getDeviceCount(HPP_CALLER_LOCATION) {
  return detail::backendDeviceCount(File, Line);
}

/// Device(0) to Device(getDeviceCount() - 1).
inline std::vector<Device> getDevices(HPP_CALLER_LOCATION) {
  std::vector<Device> Out;
  const int Count = detail::backendDeviceCount(File, Line);
  for (int I = 0; I != Count; ++I)
    Out.push_back(Device(I));
  return Out;
}

/// The device of the forms that name none (HPP_DEVICE; docs/devices.md).
inline Device getDefaultDevice(HPP_CALLER_LOCATION) {
  return Device(detail::defaultDeviceId(File, Line));
}

/// Whether kernels on \p From can be given access to \p To's memory (the
/// driver's answer; a device can always access its own).
inline bool canAccessPeer(Device From, Device To, HPP_CALLER_LOCATION) {
  detail::checkDeviceId(From.getId(), "canAccessPeer", File, Line);
  detail::checkDeviceId(To.getId(), "canAccessPeer", File, Line);
  try {
    return detail::backendCanAccessPeer(From.getId(), To.getId());
  } catch (const RuntimeError &E) {
    throw E.at(File, Line);
  }
}

/// Lets kernels on \p From use \p To's memory (one direction; twice is
/// harmless; an error where canAccessPeer is false).
inline void enablePeerAccess(Device From, Device To, HPP_CALLER_LOCATION) {
  detail::checkDeviceId(From.getId(), "enablePeerAccess", File, Line);
  detail::checkDeviceId(To.getId(), "enablePeerAccess", File, Line);
  detail::backendEnablePeer(From.getId(), To.getId(), File, Line);
}

} // namespace hpp
#endif

#endif // HPP_RUNTIME_DEVICES_H
