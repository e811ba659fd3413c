//===- hpp/backend/gpu_device_error.h - Error slots on CUDA and HIP -------===//
//
// Part of hpp-rewrite. Device runtime, CUDA and HIP backends.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The pool of DeviceErrorSlots (hpp/device_error.h): slots in device
/// memory, allocated 16 at first, then as many as there are (a few backend
/// calls each time) and zeroed once; each has a flag word in mapped host
/// memory (cudaHostAlloc / hipHostMalloc, mapped) that the device sets
/// last, to the error's kind, when it records an error. A slot comes
/// back to the pool when its last owner (the launch's scratch, a task's work,
/// the dependents that read it) lets it go (one pool per device: a kernel
/// records only in its own device's memory); one that recorded an error is
/// zeroed again, with others, before any other launch can get it. An error's
/// file name is read from the device's string literal by a one-thread kernel
/// (readDeviceString).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_GPU_DEVICE_ERROR_H
#define HPP_RUNTIME_BACKEND_GPU_DEVICE_ERROR_H

#include "hpp/check.h"
#include "hpp/device_error.h"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace hpp {
namespace detail {

/// The slots not in use on one device; see the file comment.
class DeviceErrorPool {
public:
  static DeviceErrorPool &get(int Device) {
    // Outlive static dtors.
    static DeviceErrorPool *Pools = [] {
      DeviceErrorPool *P = new DeviceErrorPool[MaxDevices];
      for (int D = 0; D < MaxDevices; ++D)
        P[D].Device = D;
      return P;
    }();
    return Pools[Device];
  }
  struct Entry {
    DeviceErrorSlot *Slot;
    volatile unsigned *Flag; ///< host view of Slot->Flag
  };

  /// A slot (with this pool's device current).
  Entry take() {
    Local *L = local();
    if (L && L->Count && L->Device == Device)
      return L->Kept[--L->Count];
    std::lock_guard<std::mutex> Lock(M);
    if (Free.empty())
      zeroDirty();
    if (Free.empty())
      grow();
    Entry E = Free.back();
    Free.pop_back();
    return E;
  }

  /// Back from a sink. One the device wrote to waits, apart, to be zeroed
  /// with others (DirtyBatch at a time, or when the pool runs out: one
  /// synchronisation for all of them, not one each, which a long chain of
  /// tasks behind a failure, each of which records "not run", would pay
  /// per task) before any launch can get it again. Never throws (a sink's
  /// destructor calls it).
  void give(Entry E) noexcept {
    if (*E.Flag) {
      std::lock_guard<std::mutex> Lock(M);
      Dirty.push_back(E);
      if (Dirty.size() >= DirtyBatch)
        zeroDirty();
      return;
    }
    Local *L = local();
    if (L && (!L->Count || L->Device == Device) && L->Count < Local::Size) {
      L->Device = Device;
      L->Kept[L->Count++] = E;
      return;
    }
    std::lock_guard<std::mutex> Lock(M);
    Free.push_back(E);
  }

private:
  /// The slots this thread gave back last, of one device, taken first: a
  /// task's enqueue and its release take no lock while they balance.
  /// Given back to the pool when the thread ends; a slot given back after
  /// that (a sink a static object held) goes straight to the pool.
  struct Local {
    static constexpr unsigned Size = 64;
    Entry Kept[Size];
    unsigned Count = 0;
    int Device = 0; ///< Of the slots kept.
    ~Local() {
      gone() = true;
      DeviceErrorPool &P = get(Device);
      std::lock_guard<std::mutex> Lock(P.M);
      P.Free.insert(P.Free.end(), Kept, Kept + Count);
    }
  };
  /// Whether this thread's Local was destroyed (a flag with no destructor:
  /// readable until the thread is gone).
  static bool &gone() {
    thread_local bool Gone = false;
    return Gone;
  }
  static Local *local() {
    if (gone())
      return nullptr;
    thread_local Local L;
    return &L;
  }

  static constexpr std::size_t DirtyBatch = 64;

  /// Zeroes the slots the device wrote to and frees them; with M held. A
  /// slot that cannot be zeroed is dropped.
  void zeroDirty() noexcept {
    if (Dirty.empty())
      return;
    const std::size_t From = offsetof(DeviceErrorSlot, Claim);
    const auto Stream = static_cast<HPP_GPU(Stream_t)>(nullptr);
    int Saved = 0;
    bool Ok =
        HPP_GPU(GetDevice)(&Saved) == HPP_GPU(Success) &&
        (Saved == Device || HPP_GPU(SetDevice)(Device) == HPP_GPU(Success));
    for (const Entry &E : Dirty)
      Ok = Ok && HPP_GPU(MemsetAsync)(reinterpret_cast<char *>(E.Slot) + From,
                                      0, sizeof(DeviceErrorSlot) - From,
                                      Stream) == HPP_GPU(Success);
    Ok = Ok && HPP_GPU(StreamSynchronize)(Stream) == HPP_GPU(Success);
    if (Saved != Device)
      (void)HPP_GPU(SetDevice)(Saved);
    if (!Ok) {
      (void)HPP_GPU(GetLastError)();
      Dirty.clear();
      return;
    }
    for (const Entry &E : Dirty) {
      *E.Flag = 0;
      Free.push_back(E);
    }
    Dirty.clear();
  }

  /// The first growth; each next one as many as there are (the pool
  /// doubles, so a program that holds a million slots at once makes
  /// about 16 growths, not 62,500), up to MaxChunk at a time.
  static constexpr std::size_t Chunk = 16, MaxChunk = 4096;

  /// More slots (zeroed, each pointing at its flag), on this pool's device.
  void grow() {
    DeviceScope Scope(Device);
    const std::size_t N = std::min(MaxChunk, std::max(Chunk, Made));
    void *Slots = nullptr, *Flags = nullptr, *DeviceFlags = nullptr;
    HPP_CHECK(HPP_GPU(Malloc)(&Slots, N * sizeof(DeviceErrorSlot)));
#if defined(HPP_BACKEND_HIP)
    HPP_CHECK(hipHostMalloc(&Flags, N * sizeof(unsigned), hipHostMallocMapped));
#else
    HPP_CHECK(cudaHostAlloc(&Flags, N * sizeof(unsigned), cudaHostAllocMapped));
#endif
    HPP_CHECK(HPP_GPU(HostGetDevicePointer)(&DeviceFlags, Flags, 0));
    std::memset(Flags, 0, N * sizeof(unsigned));
    HPP_CHECK(HPP_GPU(Memset)(Slots, 0, N * sizeof(DeviceErrorSlot)));
    auto *S = static_cast<DeviceErrorSlot *>(Slots);
    std::vector<unsigned *> Pointers(N);
    for (std::size_t I = 0; I < N; ++I)
      Pointers[I] = static_cast<unsigned *>(DeviceFlags) + I;
    // Each slot's Flag, in one copy.
    HPP_CHECK(HPP_GPU(Memcpy2D)(&S[0].Flag, sizeof(DeviceErrorSlot),
                                Pointers.data(), sizeof(unsigned *),
                                sizeof(unsigned *), N,
                                HPP_GPU(MemcpyHostToDevice)));
    for (std::size_t I = 0; I < N; ++I)
      Free.push_back({&S[I], static_cast<volatile unsigned *>(Flags) + I});
    Made += N;
  }

  std::size_t Made = 0;
  int Device = 0;
  std::mutex M;
  std::vector<Entry> Free;  ///< Never freed: slots live as long as the program.
  std::vector<Entry> Dirty; ///< Written by the device, not yet zeroed.
};

/// A sink on the device the launch runs on (launchDeviceId).
inline std::shared_ptr<DeviceErrorSink> DeviceErrorSink::make() {
  const int Device = launchDeviceId();
  const DeviceErrorPool::Entry E = DeviceErrorPool::get(Device).take();
  return std::make_shared<DeviceErrorSink>(E.Slot, E.Flag, Device);
}

inline DeviceErrorSink::~DeviceErrorSink() {
  DeviceErrorPool::get(Device).give({Slot, Flag});
}

inline const DeviceErrorSlot &DeviceErrorSink::record() const {
  if (!Copy) {
    std::unique_ptr<DeviceErrorSlot> C(new DeviceErrorSlot());
    HPP_CHECK(HPP_GPU(Memcpy)(C.get(), Slot, sizeof(DeviceErrorSlot),
                              HPP_GPU(MemcpyDeviceToHost)));
    Copy = std::move(C);
  }
  return *Copy;
}

/// Copies the string at \p In (at most \p Max bytes, then a NUL) to
/// \p Out, on the device: the host cannot always copy from a module's
/// memory itself (HIP's copies know only the allocations it made).
template <int = 0>
__global__ void copyDeviceString(char *Out, const char *In, unsigned Max) {
  unsigned I = 0;
  for (; I + 1 < Max && In[I]; ++I)
    Out[I] = In[I];
  Out[I] = 0;
}

inline std::string readDeviceString(const char *P, int Device) {
  if (!P)
    return "";
  DeviceScope Scope(Device);
  char *Buffer = nullptr;
  std::string S(DeviceErrorFileBytes, '\0');
  const auto Stream = static_cast<HPP_GPU(Stream_t)>(nullptr);
  if (HPP_GPU(Malloc)(reinterpret_cast<void **>(&Buffer),
                      DeviceErrorFileBytes) != HPP_GPU(Success)) {
    (void)HPP_GPU(GetLastError)();
    return "?";
  }
  copyDeviceString<><<<1, 1, 0, Stream>>>(Buffer, P, DeviceErrorFileBytes);
  const bool Ok =
      HPP_GPU(GetLastError)() == HPP_GPU(Success) &&
      HPP_GPU(Memcpy)(&S[0], Buffer, DeviceErrorFileBytes,
                      HPP_GPU(MemcpyDeviceToHost)) == HPP_GPU(Success);
  (void)HPP_GPU(Free)(Buffer);
  if (!Ok) {
    (void)HPP_GPU(GetLastError)();
    return "?";
  }
  S.resize(S.find('\0'));
  return S;
}

inline DeviceErrorSlot *LaunchScratch::errorSlot() {
  if (!Errors)
    Errors = DeviceErrorSink::make();
  return Errors->slot();
}

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_GPU_DEVICE_ERROR_H
