//===- hpp/prefetch.h - Prefetching a launch's Pointer arguments ---------===//
//
// Part of hpp-rewrite. Device runtime, shared by every backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Step 4 of hpp::launchKernel (hpp/launch.h): the managed memory of every
/// Pointer argument allocated on the launch device is prefetched to it
/// where the device supports concurrent managed access, as HPP_PREFETCH
/// says (PrefetchPolicy); a Pointer of another device (used through peer
/// access) stays where it is. The backend provides launchDeviceId,
/// currentDeviceTarget and prefetchToDevice.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_PREFETCH_H
#define HPP_RUNTIME_PREFETCH_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/runtime.h>, which selects the backend first"
#endif

#include "hpp/core/error.h"
#include "hpp/core/pointer.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_set>

namespace hpp {
namespace detail {

/// When launchKernel prefetches its Pointer arguments, from HPP_PREFETCH
/// (read once):
///  - `first` (the default): at the first launch that uses an allocation,
///    until it is deallocated (later launches rely on the data staying on
///    the device; pages the host touched in between migrate back on
///    demand);
///  - `always`: before every launch;
///  - `never`.
/// Prefetching only moves data: every policy computes the same results. It
/// is not free when the data is already on the device: the driver walks the
/// range on every call (about 20 us per 32 MiB, 0.6 ms per GiB on an H200
/// with CUDA 13), which matters for short kernels on large arrays.
enum class PrefetchPolicy { Always, First, Never };

inline PrefetchPolicy readPrefetchPolicy() {
  const char *Env = std::getenv("HPP_PREFETCH");
  if (!Env || !*Env || !std::strcmp(Env, "first"))
    return PrefetchPolicy::First;
  if (!std::strcmp(Env, "always"))
    return PrefetchPolicy::Always;
  if (!std::strcmp(Env, "never"))
    return PrefetchPolicy::Never;
  throw RuntimeError(std::string("HPP_PREFETCH=") + Env, __FILE__, __LINE__,
                     "must be always, first or never");
}

inline PrefetchPolicy prefetchPolicy() {
  static const PrefetchPolicy Policy = readPrefetchPolicy();
  return Policy;
}

/// The allocations already prefetched under PrefetchPolicy::First. Each
/// thread remembers the last few it was told were seen, until any is
/// forgotten (Generation), so that a launch with a Pointer it used before
/// takes no lock. (A race with a forget can only skip a prefetch, which
/// never changes a result.)
class PrefetchedSet {
public:
  /// True the first time \p P is seen (since it was last forgotten).
  bool insert(const void *P) {
    constexpr unsigned Size = 8;
    thread_local const void *Recent[Size] = {};
    thread_local unsigned long long RecentGeneration = 0;
    thread_local unsigned Next = 0;
    const unsigned long long Now = Generation.load(std::memory_order_acquire);
    if (RecentGeneration != Now) {
      std::fill(Recent, Recent + Size, nullptr);
      RecentGeneration = Now;
    }
    for (const void *Q : Recent)
      if (Q == P)
        return false;
    bool New;
    {
      std::lock_guard<std::mutex> Guard(Lock);
      New = Seen.insert(P).second;
    }
    Recent[Next] = P;
    Next = (Next + 1) % Size;
    return New;
  }
  void forget(const void *P) {
    std::lock_guard<std::mutex> Guard(Lock);
    Seen.erase(P);
    Generation.fetch_add(1, std::memory_order_release);
  }
  static PrefetchedSet &get() {
    static PrefetchedSet Set;
    return Set;
  }

private:
  std::mutex Lock;
  std::unordered_set<const void *> Seen;
  std::atomic<unsigned long long> Generation{1};
};

/// The distinct Pointer ranges among a launch's arguments (at most \p N).
template <unsigned N> struct PrefetchList {
  struct Entry {
    const void *Ptr;
    std::size_t Bytes;
  };
  Entry Entries[N];
  unsigned Count = 0;
  /// The launch's device: Pointers of others are left out (-1: none is).
  int Device = -1;

  template <class T> void add(const Pointer<T> &P) {
    if (!P || P.size() == 0 || (Device >= 0 && P.getDevice().getId() != Device))
      return;
    const void *Ptr = P.get();
    const std::size_t Bytes = P.size() * sizeof(T);
    for (unsigned I = 0; I < Count; ++I)
      if (Entries[I].Ptr == Ptr && Entries[I].Bytes == Bytes)
        return;
    Entries[Count++] = {Ptr, Bytes};
  }
  template <class T> void add(const T &) {}
};

/// Prefetches every Pointer among \p Args to the launch device, where the
/// device supports it (concurrent managed access) and the policy asks for
/// it. A Pointer passed twice is prefetched once.
/// Under PrefetchPolicy::First, the allocations already seen are left out
/// before the device is asked for anything (a launch that uses only those
/// makes no backend call here).
template <class... P> void prefetchPointers(const std::tuple<P...> &Args) {
  if constexpr ((IsPointer<P>::value || ...)) {
    const PrefetchPolicy Policy = prefetchPolicy();
    if (Policy == PrefetchPolicy::Never)
      return;
    PrefetchList<(unsigned(IsPointer<P>::value) + ...)> List;
    List.Device = launchDeviceId();
    std::apply([&](const auto &...A) { (List.add(A), ...); }, Args);
    unsigned Count = 0;
    for (unsigned I = 0; I < List.Count; ++I)
      if (Policy == PrefetchPolicy::Always ||
          PrefetchedSet::get().insert(List.Entries[I].Ptr))
        List.Entries[Count++] = List.Entries[I];
    if (!Count)
      return;
    const DeviceTarget Target = currentDeviceTarget();
    if (!Target.ConcurrentManagedAccess)
      return;
    for (unsigned I = 0; I < Count; ++I)
      prefetchToDevice(Target, List.Entries[I].Ptr, List.Entries[I].Bytes);
  }
}

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_PREFETCH_H
