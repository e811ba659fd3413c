//===- hpp/cpu/devices.h - Naming and connecting the simulated devices ----===//
//
// Part of hpp-rewrite. CPU reference runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The device API of docs/devices.md on the CPU reference runtime, over
/// the HPP_CPU_DEVICES simulated devices of hpp/cpu/device_sim.h:
///
///   int n = getDeviceCount();              // HPP_CPU_DEVICES, default 1
///   std::vector<Device> ds = getDevices(); // Device(0) .. Device(n - 1)
///   Device d = getDefaultDevice();         // HPP_DEVICE, default 0
///   bool p = canAccessPeer(Device(0), Device(1)); // false: HPP_CPU_PEER=0
///   enablePeerAccess(Device(0), Device(1)); // kernels on 0 use 1's memory
///
/// A device that does not exist, a bad HPP_CPU_DEVICES or HPP_DEVICE, and
/// enablePeerAccess where canAccessPeer is false throw hpp::RuntimeError
/// at the caller's line.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_DEVICES_H
#define HPP_CPU_DEVICES_H

#include "hpp/core/device.h"
#include "hpp/core/error.h"
#include "hpp/cpu/device_sim.h"

#include <vector>

namespace hpp {

/// The number of devices (at least 1).
inline int getDeviceCount(HPP_CALLER_LOCATION) {
  return cpu::simulatedDeviceCount(File, Line);
}

/// Device(0) to Device(getDeviceCount() - 1).
inline std::vector<Device> getDevices(HPP_CALLER_LOCATION) {
  std::vector<Device> Out;
  const int Count = cpu::simulatedDeviceCount(File, Line);
  for (int I = 0; I != Count; ++I)
    Out.push_back(Device(I));
  return Out;
}

/// The device of the forms that name none (HPP_DEVICE; docs/devices.md).
inline Device getDefaultDevice(HPP_CALLER_LOCATION) {
  return Device(cpu::defaultDeviceId(File, Line));
}

/// Whether kernels on \p From can be given access to \p To's memory.
inline bool canAccessPeer(Device From, Device To, HPP_CALLER_LOCATION) {
  cpu::checkDeviceId(From.getId(), "canAccessPeer", File, Line);
  cpu::checkDeviceId(To.getId(), "canAccessPeer", File, Line);
  return cpu::simulatedCanAccessPeer(From.getId(), To.getId());
}

/// Lets kernels on \p From use \p To's memory (one direction; twice is
/// harmless).
inline void enablePeerAccess(Device From, Device To, HPP_CALLER_LOCATION) {
  cpu::simulatedEnablePeer(From.getId(), To.getId(), File, Line);
}

} // namespace hpp

#endif // HPP_CPU_DEVICES_H
