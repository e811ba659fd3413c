//===- hpp/core/device.h - Device, one processor that runs kernels --------===//
//
// Part of hpp-rewrite. Shared by every backend (host code only).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The paper's platform model: one host coordinating one or more devices.
/// A Device names one of them by its number, 0 to getDeviceCount() - 1 (the
/// backend's device ordinal: cudaSetDevice's, hipSetDevice's, or one of the
/// CPU runtimes' HPP_CPU_DEVICES simulated devices). Device 0 is the
/// default, so a program that names no device means what it meant before.
/// The functions that enumerate, choose and connect devices belong to each
/// runtime (hpp/cpu/devices.h, hpp/devices.h); this is only the value.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CORE_DEVICE_H
#define HPP_CORE_DEVICE_H

namespace hpp {

/// One device of the platform, by number. Cheap to copy; comparing two
/// compares their numbers. Whether the number exists is checked where the
/// device is used (allocate, parallelFor, Task::enqueue, copy), at the
/// caller's line.
/// The device number of a Pointer to page-locked host memory from
/// allocateHost: no device's (copies and the host use it, kernels do not).
constexpr int HostMemoryId = -1;

class Device {
public:
  /// Device 0.
  Device() = default;
  explicit Device(int Id) : Id(Id) {}

  /// The device's number.
  int getId() const { return Id; }

  friend bool operator==(Device A, Device B) { return A.Id == B.Id; }
  friend bool operator!=(Device A, Device B) { return A.Id != B.Id; }

private:
  int Id = 0;
};

} // namespace hpp

#endif // HPP_CORE_DEVICE_H
