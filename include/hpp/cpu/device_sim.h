//===- hpp/cpu/device_sim.h - HPP_CPU_DEVICES simulated devices -----------===//
//
// Part of hpp-rewrite. CPU reference runtime; also the CPU backend of the
// device runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CPU runtimes simulate HPP_CPU_DEVICES devices (default 1, at most
/// MaxSimulatedDevices), each with its own memory in the sense of
/// docs/devices.md: a kernel on device d may use memory allocated on d, and
/// memory of another device e only after enablePeerAccess(d, e).
/// HPP_CPU_PEER=0 makes canAccessPeer false for every pair of different
/// devices.
///
/// How the rule is checked:
///  - allocate records each block with its device and line
///    (recordAllocation; deallocate forgets it), for the error message.
///  - A launch runs inside a RunOnDevice scope on the launching thread: the
///    launch's device and file:line. ThreadPool::run (hpp/cpu/
///    thread_pool.h) hands that site to every pool thread that runs the
///    launch's work-items, as the executing site (executingDevice()); in
///    host code it is -1.
///  - Pointer<T>'s operator[], operator*, operator-> and get() (hpp/core/
///    pointer.h, CPU backends only) compare the executing device with the
///    Pointer's device: one thread-local read and a compare on the fast
///    path; on a mismatch checkAccess looks at the peer table and throws
///    accessError, a RuntimeError at the launch's line, which the launch
///    rethrows like any exception of a work-item. Raw pointers taken in
///    host code (p.get() before the launch) escape the check.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_DEVICE_SIM_H
#define HPP_CPU_DEVICE_SIM_H

#include "hpp/core/device.h"
#include "hpp/core/device_select.h"
#include "hpp/core/error.h"
#include "hpp/core/work.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <mutex>
#include <string>

namespace hpp {
namespace cpu {

/// Most devices HPP_CPU_DEVICES may ask for (the peer table is a 64-bit
/// mask per device).
constexpr int MaxSimulatedDevices = 64;

/// HPP_CPU_DEVICES: the number of simulated devices, read on first use.
/// Throws RuntimeError at \p File : \p Line (the user's call that needed
/// it) unless it is unset, empty or an integer from 1 to
/// MaxSimulatedDevices; each call retries, so each reports its own line.
inline int simulatedDeviceCount(HPP_CALLER_LOCATION) {
  static const int Count = [File, Line] {
    const char *Env = std::getenv("HPP_CPU_DEVICES");
    if (!Env || !*Env)
      return 1;
    char *End = nullptr;
    long N = std::strtol(Env, &End, 10);
    if (*End != '\0' || Env[0] < '0' || Env[0] > '9' || N < 1 ||
        N > MaxSimulatedDevices)
      throw RuntimeError(std::string("HPP_CPU_DEVICES=") + Env, File, Line,
                         "the number of simulated devices must be an "
                         "integer from 1 to " +
                             std::to_string(MaxSimulatedDevices));
    return static_cast<int>(N);
  }();
  return Count;
}

/// Throws RuntimeError(\p Call) at \p File : \p Line unless \p Id is a
/// simulated device.
inline void checkDeviceId(int Id, const char *Call, const char *File,
                          int Line) {
  const int Count = simulatedDeviceCount(File, Line);
  if (Id >= 0 && Id < Count)
    return;
  throw RuntimeError(Call, File, Line,
                     "there is no Device(" + std::to_string(Id) +
                         "): the CPU runtime simulates " +
                         std::to_string(Count) + " device(s), 0 to " +
                         std::to_string(Count - 1) + " (HPP_CPU_DEVICES)");
}

/// The default device (HPP_DEVICE, hpp/core/device_select.h), read on
/// first use; a bad HPP_DEVICE throws at \p File : \p Line on every call.
inline int defaultDeviceId(HPP_CALLER_LOCATION) {
  static const int Id = [File, Line] {
    return detail::selectDefaultDevice(simulatedDeviceCount(File, Line), File,
                                       Line);
  }();
  return Id;
}

/// Whether HPP_CPU_PEER=0 (no peer links between simulated devices).
inline bool peerLinksDisabled() {
  static const bool Off = [] {
    const char *Env = std::getenv("HPP_CPU_PEER");
    return Env && std::strcmp(Env, "0") == 0;
  }();
  return Off;
}

/// Whether kernels on \p From can be given access to \p To's memory.
inline bool simulatedCanAccessPeer(int From, int To) {
  return From == To || !peerLinksDisabled();
}

/// Peer access enabled so far: bit e of row d is enablePeerAccess(d, e).
inline std::atomic<std::uint64_t> *peerTable() {
  static std::atomic<std::uint64_t> Table[MaxSimulatedDevices] = {};
  return Table;
}

/// Whether kernels on \p From may use \p To's memory.
inline bool simulatedPeerEnabled(int From, int To) {
  if (From == To)
    return true;
  if (From < 0 || From >= MaxSimulatedDevices || To < 0 ||
      To >= MaxSimulatedDevices)
    return false;
  return (peerTable()[From].load(std::memory_order_relaxed) >> To) & 1;
}

/// enablePeerAccess(Device(From), Device(To)) at \p File : \p Line.
inline void simulatedEnablePeer(int From, int To, const char *File, int Line) {
  checkDeviceId(From, "enablePeerAccess", File, Line);
  checkDeviceId(To, "enablePeerAccess", File, Line);
  if (From == To)
    return;
  if (!simulatedCanAccessPeer(From, To))
    throw RuntimeError("enablePeerAccess(Device(" + std::to_string(From) +
                           "), Device(" + std::to_string(To) + "))",
                       File, Line,
                       "device " + std::to_string(From) +
                           " cannot access device " + std::to_string(To) +
                           "'s memory (canAccessPeer is false: "
                           "HPP_CPU_PEER=0); copy the data instead");
  peerTable()[From].fetch_or(std::uint64_t(1) << To, std::memory_order_relaxed);
}

/// One block from allocate: its size, device and line.
struct AllocationRecord {
  std::size_t Bytes;
  int Device;
  const char *File;
  int Line;
};

/// The blocks from allocate not yet deallocated, by base address.
class AllocationTable {
public:
  static AllocationTable &get() {
    static AllocationTable *T = new AllocationTable; // Never destroyed.
    return *T;
  }
  void add(const void *Base, const AllocationRecord &R) {
    std::lock_guard<std::mutex> Lock(M);
    Blocks[reinterpret_cast<std::uintptr_t>(Base)] = R;
  }
  void remove(const void *Base) {
    std::lock_guard<std::mutex> Lock(M);
    Blocks.erase(reinterpret_cast<std::uintptr_t>(Base));
  }
  /// The block that holds \p P; false if none does.
  bool find(const void *P, AllocationRecord &Out) {
    const std::uintptr_t A = reinterpret_cast<std::uintptr_t>(P);
    std::lock_guard<std::mutex> Lock(M);
    auto It = Blocks.upper_bound(A);
    if (It == Blocks.begin())
      return false;
    --It;
    if (A - It->first >= It->second.Bytes && A != It->first)
      return false;
    Out = It->second;
    return true;
  }

private:
  std::mutex M;
  std::map<std::uintptr_t, AllocationRecord> Blocks;
};

/// Records a block from allocate (\p Bytes at \p Base on device \p Dev,
/// allocated at \p File : \p Line).
inline void recordAllocation(const void *Base, std::size_t Bytes, int Dev,
                             const char *File, int Line) {
  AllocationTable::get().add(Base, AllocationRecord{Bytes, Dev, File, Line});
}

/// Forgets the block at \p Base (deallocate).
inline void forgetAllocation(const void *Base) {
  AllocationTable::get().remove(Base);
}

/// A launch's device and call.
struct DeviceSite {
  int Device = -1; ///< -1: none (host code; or the default device).
  const char *File = nullptr;
  int Line = 0;
};

/// The launching thread's site: the device its launches run on (set by
/// RunOnDevice; -1 means the default device).
inline DeviceSite &launchSite() {
  static thread_local DeviceSite Site;
  return Site;
}

/// The device whose kernel this thread is running work-items of; -1 in
/// host code. Pointer's fast path reads only this.
inline int &executingDeviceSlot() {
  static thread_local int Device = -1;
  return Device;
}
/// The launch this thread is running work-items of (for the message).
inline DeviceSite &executingSite() {
  static thread_local DeviceSite Site;
  return Site;
}
inline int executingDevice() { return executingDeviceSlot(); }

/// While it lives, the work-items of kernels that this thread launches run
/// on device \p Dev (the launch at \p File : \p Line); nests, and restores
/// the previous device. Throws RuntimeError for a device that does not
/// exist.
class RunOnDevice {
public:
  RunOnDevice(int Dev, const char *File, int Line) : Saved(launchSite()) {
    checkDeviceId(Dev, "launch", File, Line);
    launchSite() = DeviceSite{Dev, File, Line};
  }
  ~RunOnDevice() { launchSite() = Saved; }
  RunOnDevice(const RunOnDevice &) = delete;
  RunOnDevice &operator=(const RunOnDevice &) = delete;

private:
  DeviceSite Saved;
};

/// The site a launch from this thread runs at now: the RunOnDevice
/// scope's, or the default device (of a launch made outside one, such as a
/// channel's consumers).
inline DeviceSite currentLaunchSite() {
  DeviceSite S = launchSite();
  if (S.Device < 0)
    S.Device = defaultDeviceId(S.File, S.Line);
  return S;
}

/// Makes this thread run work-items of the launch at \p Site while it
/// lives (ThreadPool::run, on each thread of a launch).
class ExecutingScope {
public:
  explicit ExecutingScope(const DeviceSite &Site)
      : SavedDevice(executingDeviceSlot()), SavedSite(executingSite()) {
    executingSite() = Site;
    executingDeviceSlot() = Site.Device;
  }
  ~ExecutingScope() {
    executingDeviceSlot() = SavedDevice;
    executingSite() = SavedSite;
  }
  ExecutingScope(const ExecutingScope &) = delete;
  ExecutingScope &operator=(const ExecutingScope &) = delete;

private:
  int SavedDevice;
  DeviceSite SavedSite;
};

/// The error of a kernel on the executing device that used \p P, memory
/// of device \p Dev it may not use.
[[noreturn]] inline void accessError(const void *P, int Dev) {
  const DeviceSite Site = executingSite();
  const std::string D = std::to_string(Site.Device), E = std::to_string(Dev);
  AllocationRecord R{};
  std::string Where = " (not from allocate: a Pointer made from a raw pointer)";
  if (AllocationTable::get().find(P, R))
    Where = " allocated at " + detail::siteText(R.File, R.Line);
  if (Dev == HostMemoryId)
    throw RuntimeError(
        "kernel on Device(" + D + ")", Site.File ? Site.File : "?", Site.Line,
        "a work-item on device " + D + " used host memory" + Where +
            " (allocateHost), which kernels may not use; copy it to device " +
            D + " first (hpp::copy)");
  std::string Fix = "copy the data to device " + D + " first (hpp::copy)";
  if (simulatedCanAccessPeer(Site.Device, Dev))
    Fix += " or call enablePeerAccess(Device(" + D + "), Device(" + E +
           ")) before the launch";
  else
    Fix += "; enablePeerAccess(Device(" + D + "), Device(" + E +
           ")) is not possible (HPP_CPU_PEER=0)";
  throw RuntimeError(
      "kernel on Device(" + D + ")", Site.File ? Site.File : "?", Site.Line,
      "a work-item on device " + D + " used memory of device " + E + Where +
          ", which kernels on device " + D + " may not use; " + Fix);
}

/// The slow path of Pointer's check: a kernel on \p Running used \p P,
/// memory of device \p Dev.
inline void checkAccessSlow(const void *P, int Running, int Dev) {
  if (!simulatedPeerEnabled(Running, Dev))
    accessError(P, Dev);
}

/// Pointer's check: whether the executing work-item (if any) may use \p P,
/// memory of device \p Dev; throws accessError otherwise.
inline void checkAccess(const void *P, int Dev) {
  const int Running = executingDeviceSlot();
  if (__builtin_expect(Running != Dev && Running >= 0, 0))
    checkAccessSlow(P, Running, Dev);
}

} // namespace cpu
} // namespace hpp

#endif // HPP_CPU_DEVICE_SIM_H
