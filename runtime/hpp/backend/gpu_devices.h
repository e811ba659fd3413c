//===- hpp/backend/gpu_devices.h - Devices on CUDA and HIP ----------------===//
//
// Part of hpp-rewrite. Device runtime, CUDA and HIP backends.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The GPU backends' side of hpp/devices.h (docs/devices.md): the device
/// count, the default device (HPP_DEVICE, chosen once and made current on
/// the thread that first needs it), DeviceScope (the device a call runs
/// on: cudaSetDevice, restored after), the check of a device number, peer
/// access (cudaDeviceCanAccessPeer, cudaDeviceEnablePeerAccess; enabling
/// twice is harmless) and the advice that places an allocation on its
/// device. The per-device state of the rest of the backend (task streams,
/// events, launch scratch, error slots) is indexed by the device number,
/// below MaxDevices.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_GPU_DEVICES_H
#define HPP_RUNTIME_BACKEND_GPU_DEVICES_H

#include "hpp/check.h"
#include "hpp/core/device_select.h"
#include "hpp/core/error.h"

#include <atomic>
#include <cstddef>
#include <string>

namespace hpp {
namespace detail {

/// The most devices a process may use (the per-device tables' size).
constexpr int MaxDevices = 64;

/// The number of devices the backend sees (asked once; a failure is
/// thrown at \p File : \p Line).
inline int backendDeviceCount(const char *File = __FILE__,
                              int Line = __LINE__) {
  static const int Count = [File, Line] {
    int N = 0;
    checkCall(HPP_GPU(GetDeviceCount)(&N), "GetDeviceCount", File, Line);
    return N < MaxDevices ? N : MaxDevices;
  }();
  return Count;
}

/// The calling thread's current device.
inline int currentDevice() {
  int D = 0;
  HPP_CHECK(HPP_GPU(GetDevice)(&D));
  return D;
}

/// Throws, at \p File : \p Line, for \p Id that names no device.
inline void checkDeviceId(int Id, const char *Call, const char *File,
                          int Line) {
  const int Count = backendDeviceCount(File, Line);
  if (Id < 0 || Id >= Count)
    throw RuntimeError(Call, File, Line,
                       "there is no Device(" + std::to_string(Id) +
                           "): this platform has " + std::to_string(Count) +
                           " device(s), 0 to " + std::to_string(Count - 1));
}

/// The device of the innermost DeviceScope of the calling thread; -1
/// outside any.
inline int &scopedDevice() {
  static thread_local int Device = -1;
  return Device;
}

/// Makes \p Dev current on the calling thread until the scope ends (a
/// cudaGetDevice, and a cudaSetDevice each way only when it differs).
class DeviceScope {
public:
  explicit DeviceScope(int Dev) : SavedScoped(scopedDevice()) {
    HPP_CHECK(HPP_GPU(GetDevice)(&Saved));
    if (Saved != Dev) {
      HPP_CHECK(HPP_GPU(SetDevice)(Dev));
      Changed = true;
    }
    scopedDevice() = Dev;
  }
  DeviceScope(const DeviceScope &) = delete;
  DeviceScope &operator=(const DeviceScope &) = delete;
  ~DeviceScope() {
    scopedDevice() = SavedScoped;
    if (Changed)
      (void)HPP_GPU(SetDevice)(Saved);
  }

private:
  int Saved = 0;
  int SavedScoped;
  bool Changed = false;
};

/// The device a launch runs on: its DeviceScope's, else the current one.
inline int launchDeviceId() {
  const int D = scopedDevice();
  return D >= 0 ? D : currentDevice();
}

/// The default device (docs/devices.md: HPP_DEVICE), chosen at the first
/// call that needs it (an error in HPP_DEVICE is thrown at that call's
/// \p File : \p Line, and again at the next) and made current on the
/// thread that made it.
inline int defaultDeviceId(const char *File, int Line) {
  static std::atomic<int> Chosen{-1};
  int D = Chosen.load(std::memory_order_acquire);
  if (D >= 0)
    return D;
  D = selectDefaultDevice(backendDeviceCount(File, Line), File, Line);
  int Expected = -1;
  if (Chosen.compare_exchange_strong(Expected, D) && D != 0)
    HPP_CHECK(HPP_GPU(SetDevice)(D));
  return D;
}

/// The device a launch, a task or an allocation runs on, checked at the
/// caller's line and made current until the end of the scope. The CPU
/// backend's (backend/cpu_devices.h) also makes it the device the
/// launch's work-items run on, for the check of their accesses.
class LaunchDevice {
public:
  LaunchDevice(int Id, const char *Call, const char *File, int Line)
      : Scope((checkDeviceId(Id, Call, File, Line), Id)) {}

private:
  DeviceScope Scope;
};

/// Whether kernels on \p From can be given access to \p To's memory.
inline bool backendCanAccessPeer(int From, int To) {
  if (From == To)
    return true;
  int Can = 0;
  HPP_CHECK(HPP_GPU(DeviceCanAccessPeer)(&Can, From, To));
  return Can != 0;
}

/// Lets kernels on \p From use \p To's memory; already enabled is fine.
inline void backendEnablePeer(int From, int To, const char *File, int Line) {
  if (From == To)
    return;
  if (!backendCanAccessPeer(From, To))
    throw RuntimeError("enablePeerAccess", File, Line,
                       "device " + std::to_string(From) +
                           " cannot access the memory of device " +
                           std::to_string(To) + " (canAccessPeer is false)");
  DeviceScope Scope(From);
  const HPP_GPU(Error_t) E = HPP_GPU(DeviceEnablePeerAccess)(To, 0);
  if (E == HPP_GPU(ErrorPeerAccessAlreadyEnabled)) {
    (void)HPP_GPU(GetLastError)();
    return;
  }
  checkCall(E, "DeviceEnablePeerAccess", File, Line);
}

/// Places managed memory \p P of \p Bytes on device \p Dev where the
/// process has more than one device (it then prefers to stay there rather
/// than migrate to a peer that uses it); with one device, nothing, as
/// before devices could be named.
inline void adviseDevice(void *P, std::size_t Bytes, int Dev) {
  if (backendDeviceCount() < 2)
    return;
#if defined(HPP_BACKEND_CUDA) && CUDART_VERSION >= 13000
  cudaMemLocation Location{};
  Location.type = cudaMemLocationTypeDevice;
  Location.id = Dev;
  HPP_CHECK(
      cudaMemAdvise(P, Bytes, cudaMemAdviseSetPreferredLocation, Location));
#else
  HPP_CHECK(HPP_GPU(MemAdvise)(P, Bytes, HPP_GPU(MemAdviseSetPreferredLocation),
                               Dev));
#endif
}

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_GPU_DEVICES_H
