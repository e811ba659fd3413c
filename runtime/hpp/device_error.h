//===- hpp/device_error.h - Errors raised by device code on a GPU ---------===//
//
// Part of hpp-rewrite. Device runtime, every backend (the record is used on
// CUDA and HIP; the CPU backend raises the reference runtime's errors in
// the work-item itself).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// How a GPU reports what the reference runtime raises as hpp::RuntimeError
/// inside a work-item: a Segment index out of range (hpp/dist_array.h), a
/// Barrier deadlock (hpp/block_barrier.h), a task that must not run because
/// a task it waits for failed (hpp/task.h). Design (docs/tasks.md, "Errors
/// raised by device code"):
///  - a launch whose arguments can fail on the device (a Barrier, a
///    BoundDistArray) and every task get one DeviceErrorSlot, in device
///    memory, from a pool; the handles passed to the kernel carry its
///    address (LaunchScratch::errorSlot, prepareLaunchArgument);
///  - the first error of the launch claims the slot with an atomicCAS and
///    writes what the reference's message prints: the kind, the user's
///    file:line (the device's `__builtin_FILE()`/`__builtin_LINE()`
///    default arguments, the same mechanism as the CPU backend: the line of
///    the source nvcc/hipcc compiled; the slot keeps the device address of
///    the file name, a string literal, which the host has copied after an
///    error, readDeviceString), and the numbers (index and size; barrier
///    state, the waiting work-items). Later errors of the launch find the slot
///    claimed and record nothing;
///  - last, it sets the slot's flag, a word of mapped (zero-copy) host
///    memory; the host reads that word after the launch completed (the
///    blocking launch's synchronisation, or the task's event), so a launch
///    without an error costs nothing more: no copy, no zeroing (a slot is
///    zeroed only when it comes back to the pool after an error);
///  - after that the host copies the slot and throws the RuntimeError the
///    reference raises, word for word (hpp/core/error_text.h), from the
///    blocking parallelFor or the task's Future::wait()/get().
/// The work-item that records stops safely: an index out of range reads
/// and writes the segment's first element instead of memory past the
/// segment (the launch's results are void anyway), and goes on; a
/// deadlocked work-group ends (no __trap: the context survives and later
/// launches run).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_DEVICE_ERROR_H
#define HPP_RUNTIME_DEVICE_ERROR_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/runtime.h>, which selects the backend first"
#endif

#include "hpp/core/error.h"
#include "hpp/core/error_text.h"
#include "hpp/launch_options.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace hpp {
namespace detail {

/// What a DeviceErrorSlot holds.
enum DeviceErrorKind : unsigned {
  NoDeviceError = 0,
  SegmentIndexError = 1,    ///< Segment::operator[] out of range
  BarrierDeadlockError = 2, ///< Barrier::wait that can never return
  TaskNotRunError = 3       ///< a task whose dependency failed
};

/// Limits of a slot: work-items of a work-group, barriers a deadlock names;
/// bytes of a file name the host reads.
constexpr unsigned DeviceErrorItems = 1024;
constexpr unsigned DeviceErrorBarriers = 16;
constexpr unsigned DeviceErrorFileBytes = 4096;

/// A barrier that waiting work-items of a deadlocked work-group wait at.
struct DeviceBarrierInfo {
  unsigned Key; ///< 0: unused; else its storage's address, | 1
  unsigned Count;
  unsigned Phase;
  unsigned Arrived;
  unsigned Withdrawn;
  int CreatedLine;
  const char *CreatedFile; ///< a host address, read by the host only
};

/// Where a work-item of a deadlocked work-group waits (Line 0: nowhere).
struct DeviceWaitingItem {
  int Line;
  unsigned Barrier; ///< DeviceBarrierInfo::Key
  /// CUDA: the pending count of its arrival token (hpp/block_barrier.h);
  /// 0 on HIP.
  unsigned Pending;
};

/// One launch's error record, in device memory (see the file comment).
struct DeviceErrorSlot {
  unsigned *Flag; ///< mapped host word, set last; not zeroed
  unsigned Claim; ///< 0 until an error claims the slot
  unsigned Kind;
  int Line;
  unsigned Negative;
  unsigned long long Index, Size; ///< SegmentIndexError
  unsigned Group[3];              ///< the work-group that failed
  unsigned GroupSize;
  unsigned Fold;    ///< a task's dependencies past TaskGate's, folded
  const char *File; ///< a device address (a string literal)
  DeviceBarrierInfo Barriers[DeviceErrorBarriers];
  DeviceWaitingItem Items[DeviceErrorItems];
};

#if !defined(HPP_BACKEND_CPU)
/// Claims \p S for the caller's error: false if another error has it.
HPP_DEVICE inline bool claimDeviceError(DeviceErrorSlot *S) {
  return S && atomicCAS(&S->Claim, 0u, 1u) == 0u;
}

/// Fills the parts of \p S every kind has. The file name stays where it
/// is, a string literal in the device's memory: the host copies it from
/// there (readDeviceString). A few stores, so that the error path of
/// `s[i]`, inline, needs few registers.
HPP_DEVICE inline void fillDeviceError(DeviceErrorSlot *S, unsigned Kind,
                                       const char *File, int Line) {
  S->Kind = Kind;
  S->Line = Line;
  S->File = File;
}

/// The work-group that failed (a deadlock's report needs it).
HPP_DEVICE inline void fillDeviceErrorGroup(DeviceErrorSlot *S) {
  S->Group[0] = blockIdx.x;
  S->Group[1] = blockIdx.y;
  S->Group[2] = blockIdx.z;
  S->GroupSize = blockDim.x * blockDim.y * blockDim.z;
}

/// Makes \p S visible to the host (its flag, in host memory, last): the
/// flag is the error's kind (filled first, never 0), which the host then
/// reads without a copy (DeviceErrorSink::kind).
HPP_DEVICE inline void publishDeviceError(DeviceErrorSlot *S) {
  __threadfence_system();
  *reinterpret_cast<volatile unsigned *>(S->Flag) = S->Kind;
  __threadfence_system();
}

/// Ends the calling work-item without harming the context. Only for
/// work-items whose whole work-group ends with them (a deadlock).
[[noreturn]] HPP_DEVICE inline void endDeviceWorkItem() {
#if defined(HPP_BACKEND_CUDA)
  asm volatile("exit;");
#else
  __builtin_amdgcn_endpgm();
#endif
  __builtin_unreachable();
}

/// `s[i]` with \p Value >= \p Size (\p Negative: a negative index) at
/// \p File : \p Line: recorded in \p S. Returns the index the work-item
/// uses instead, 0, inside the segment, so that it touches no memory past
/// it (an index, not a reference to spare memory: the access stays a
/// shared-memory one on the fast path). Inline: see Segment::operator[].
__forceinline__ HPP_DEVICE unsigned long long
segmentOutOfRange(DeviceErrorSlot *S, unsigned long long Value, bool Negative,
                  unsigned long long Size, const char *File, int Line) {
  if (!S) { // Not launched by hpp::launchKernel: nowhere to report.
#if defined(HPP_BACKEND_CUDA)
    __trap();
#else
    __builtin_trap();
#endif
  }
  if (claimDeviceError(S)) {
    fillDeviceError(S, SegmentIndexError, File, Line);
    S->Index = Value;
    S->Negative = Negative;
    S->Size = Size;
    publishDeviceError(S);
  }
  return 0;
}
#endif

/// The host's side of one DeviceErrorSlot (a launch's, or a task's): takes
/// a slot from the pool, reads it after the launch, gives it back.
class DeviceErrorSink {
public:
  /// A sink with a fresh slot (GPU); null on the CPU backend, where the
  /// work-items raise their errors themselves.
  static std::shared_ptr<DeviceErrorSink> make();
  DeviceErrorSink(DeviceErrorSlot *Slot, volatile unsigned *Flag,
                  int Device = 0)
      : Slot(Slot), Flag(Flag), Device(Device) {}
  DeviceErrorSink(const DeviceErrorSink &) = delete;
  DeviceErrorSink &operator=(const DeviceErrorSink &) = delete;
  ~DeviceErrorSink();

  /// The device address the kernel's handles carry.
  DeviceErrorSlot *slot() const { return Slot; }
  /// The device whose memory holds the slot (whose kernels record in it).
  int device() const { return Device; }
  /// The flag word (mapped host memory, the same address on every device):
  /// what a kernel on another device reads, which may not reach the slot.
  const unsigned *flagWord() const {
    return const_cast<const unsigned *>(Flag);
  }
  /// The launch's range, for the work-items a deadlock report says lie
  /// past its end.
  void setRange(const std::size_t Global[3], const std::size_t Local[3]) {
    for (int D = 0; D < 3; ++D) {
      this->Global[D] = Global[D];
      this->Local[D] = Local[D];
    }
  }
  /// Whether the device recorded an error (read once the launch is over).
  bool failed() const { return *Flag != 0; }
  /// The kind of the error recorded: the flag's value (no copy).
  DeviceErrorKind kind() const { return DeviceErrorKind(*Flag); }
  /// The recorded error, worded as the reference runtime words it.
  RuntimeError error() const;

private:
  const DeviceErrorSlot &record() const;
  /// The arrivals in the current phase of the barrier \p B that waiters of
  /// the first \p Size work-items of the record wait at.
  unsigned arrivals(const DeviceBarrierInfo &B, std::size_t Size) const;

  DeviceErrorSlot *Slot;
  volatile unsigned *Flag;
  int Device;
  std::size_t Global[3] = {1, 1, 1}, Local[3] = {1, 1, 1};
  mutable std::unique_ptr<DeviceErrorSlot> Copy;
};

/// The NUL-terminated string at device address \p P of device \p Device
/// (a string literal of device code: the file of an error), at most
/// DeviceErrorFileBytes bytes; "?" when it cannot be read. Defined by the
/// backend.
std::string readDeviceString(const char *P, int Device);

/// Throws the error \p Sink recorded, if any.
inline void checkDeviceErrors(const std::shared_ptr<DeviceErrorSink> &Sink) {
  if (Sink && Sink->failed())
    throw Sink->error();
}

/// Sinks of launches made on a stream without a wait that are not tasks
/// (a channel's consumer launches): waitForAfterLaunch, which synchronises
/// the device, checks them.
class DeferredDeviceErrors {
public:
  static DeferredDeviceErrors &get() {
    static DeferredDeviceErrors *D = new DeferredDeviceErrors; // Never freed.
    return *D;
  }
  void add(std::shared_ptr<DeviceErrorSink> Sink) {
    std::lock_guard<std::mutex> Lock(M);
    Pending.push_back(std::move(Sink));
  }
  /// After a device-wide synchronisation of device \p Device: throws the
  /// first error among its sinks, in launch order; forgets them (those of
  /// other devices stay, for their device's synchronisation).
  void check(int Device) {
    std::vector<std::shared_ptr<DeviceErrorSink>> Mine;
    {
      std::lock_guard<std::mutex> Lock(M);
      std::vector<std::shared_ptr<DeviceErrorSink>> Others;
      for (auto &S : Pending)
        (S->device() == Device ? Mine : Others).push_back(std::move(S));
      Pending.swap(Others);
    }
    for (const auto &S : Mine)
      checkDeviceErrors(S);
  }

private:
  std::mutex M;
  std::vector<std::shared_ptr<DeviceErrorSink>> Pending;
};

/// After a device-wide synchronisation of \p Device (waitForAfterLaunch).
inline void checkDeferredDeviceErrors(int Device) {
  DeferredDeviceErrors::get().check(Device);
}

/// HIP counts them exactly (Arrived). On CUDA each waiter recorded the
/// pending count before its warp's arrival (hpp/block_barrier.h): the least
/// of them, less the waiters that share it, is what is still pending.
inline unsigned DeviceErrorSink::arrivals(const DeviceBarrierInfo &B,
                                          std::size_t Size) const {
  const DeviceErrorSlot &R = record();
  unsigned Least = ~0u, AtLeast = 0;
  for (std::size_t I = 0; I < Size; ++I) {
    const DeviceWaitingItem &W = R.Items[I];
    if (!W.Line || W.Barrier != B.Key || !W.Pending)
      continue;
    if (W.Pending < Least) {
      Least = W.Pending;
      AtLeast = 1;
    } else if (W.Pending == Least) {
      ++AtLeast;
    }
  }
  if (!AtLeast)
    return B.Arrived;
  const unsigned Left = B.Count > B.Withdrawn ? B.Count - B.Withdrawn : 0;
  const unsigned Pending = Least > AtLeast ? Least - AtLeast : 0;
  return Left > Pending ? Left - Pending : 0;
}

inline RuntimeError DeviceErrorSink::error() const {
  const DeviceErrorSlot &R = record();
  const std::string File = readDeviceString(R.File, Device);
  if (R.Kind == SegmentIndexError)
    return RuntimeError("Segment::operator[]", File, R.Line,
                        segmentIndexText(std::size_t(R.Index), R.Negative != 0,
                                         std::size_t(R.Size)));
  if (R.Kind == TaskNotRunError)
    return RuntimeError("Task::enqueue", File, R.Line,
                        "not run: a task it waits for failed");
  if (R.Kind != BarrierDeadlockError)
    return RuntimeError("hpp::launchKernel", File, R.Line,
                        "the device recorded an error of unknown kind " +
                            std::to_string(R.Kind));
  // As hpp/cpu/group_collectives.h words it: the first waiting work-item's
  // barrier and line, the others at the same ones, one elsewhere, and the
  // work-items that exited or never ran the body.
  const std::size_t Size = std::min<std::size_t>(R.GroupSize, DeviceErrorItems);
  std::size_t First = 0;
  while (First < Size && !R.Items[First].Line)
    ++First;
  if (First == Size)
    return RuntimeError("Barrier::wait", File, R.Line,
                        "deadlock in work-group of " + std::to_string(Size));
  const DeviceWaitingItem P = R.Items[First];
  auto Same = [&](std::size_t I) {
    return R.Items[I].Line == P.Line && R.Items[I].Barrier == P.Barrier;
  };
  std::string Others;
  for (std::size_t I = 0; I < Size; ++I)
    if (R.Items[I].Line && !Same(I)) {
      Others = "; work-item " + std::to_string(I) +
               " waits at Barrier::wait at " + File + ":" +
               std::to_string(R.Items[I].Line);
      break;
    }
  std::string State = "barrier";
  for (const DeviceBarrierInfo &B : R.Barriers)
    if (B.Key == P.Barrier)
      State = barrierStateText(B.Count, B.CreatedFile, B.CreatedLine, B.Phase,
                               arrivals(B, Size), B.Withdrawn);
  const std::size_t Group[3] = {R.Group[0], R.Group[1], R.Group[2]};
  auto Past = [&](std::size_t I) {
    return pastRangeOf(I, Group, Global, Local);
  };
  const std::string PastIds = idRanges(
      Size, [&](std::size_t I) { return !R.Items[I].Line && Past(I); });
  const std::string Finished = finishedText(
      idRanges(Size,
               [&](std::size_t I) { return !R.Items[I].Line && !Past(I); }),
      PastIds, PastIds == "none" ? "" : rangeShapeText(Global, Local));
  return RuntimeError(
      "Barrier::wait", File, P.Line,
      deadlockText(idRanges(Size, Same), State, Others, Finished, Size));
}

} // namespace detail
} // namespace hpp

#if !defined(HPP_BACKEND_CPU)
#include "hpp/backend/gpu_device_error.h"
#else
namespace hpp {
namespace detail {
inline std::shared_ptr<DeviceErrorSink> DeviceErrorSink::make() {
  return nullptr;
}
inline std::string readDeviceString(const char *P, int) { return P ? P : ""; }
inline DeviceErrorSink::~DeviceErrorSink() = default;
inline const DeviceErrorSlot &DeviceErrorSink::record() const {
  if (!Copy)
    Copy.reset(new DeviceErrorSlot());
  return *Copy;
}
inline DeviceErrorSlot *LaunchScratch::errorSlot() { return nullptr; }
} // namespace detail
} // namespace hpp
#endif

#endif // HPP_RUNTIME_DEVICE_ERROR_H
