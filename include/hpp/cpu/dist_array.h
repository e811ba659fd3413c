//===- hpp/cpu/dist_array.h - Distributed arrays on the CPU ---------------===//
//
// Part of hpp-rewrite. CPU reference runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Distributed arrays (spec 1.9), the dialect's GPU shared memory:
///
///   DistArray<float> d;                        // host: the layout
///   Region<float> r = d.allocRegion(256);      // 256 floats per work-group
///   parallelFor(Range<1, 1>(Range<1>(n), Range<1>(256)), d,
///               [=](Index<1, 1> i, BoundDistArray<float> a) __device(hpp) {
///                 Segment<float> s = a(r);     // this group's copy of r
///                 s[i.getLocalX()] = ...;
///                 s.barrier();                 // the work-group barrier
///               });
///
/// A DistArray lays its regions out, in allocation order, in one block of
/// per-work-group memory: each region starts at the next multiple of
/// regionAlignment<T>() = max(alignof(T), 16) bytes (CUDA aligns shared
/// memory at least that much). The block may not exceed groupMemoryBytes()
/// (HPP_CPU_GROUP_MEMORY, default 48 KiB, hpp/cpu/settings.h).
///
/// In a launch every work-group gets its own block, shared by its
/// work-items, with each byte 0xFF at group start; a(r) is the group's
/// Segment of region r, and Segment::barrier() the work-group barrier
/// (hpp/cpu/segment.h). One launch binds one DistArray, any of its regions.
///
/// Errors are hpp::RuntimeError with the caller's file:line: a region that
/// does not fit, allocRegion(0), a Region of another DistArray, a Segment
/// index out of range, a BoundDistArray or Segment used outside its launch
/// (or a Segment in another work-group), a work-group barrier not reached
/// by all.
///
/// getMaxRegionSize() is at most the largest work-group (1024 work-items),
/// so that a region of that size can also be the launch's work-group size,
/// as the paper writes it (core/region_layout.h). parallelFor with a DistArray
/// needs a Range<N,N>: with a Range<N> it does not compile.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_DIST_ARRAY_H
#define HPP_CPU_DIST_ARRAY_H

#include "hpp/core/device.h"
#include "hpp/core/error.h"
#include "hpp/core/index.h"
#include "hpp/core/range.h"
#include "hpp/core/region_layout.h"
#include "hpp/cpu/group_executor.h"
#include "hpp/cpu/parallel_for.h"
#include "hpp/cpu/segment.h"
#include "hpp/cpu/settings.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

namespace hpp {

template <class T> class BoundDistArray;
template <class T> class DistArray;

namespace cpu {

/// The launch the calling work-item runs in (0 in host code).
inline std::uint64_t currentLaunchId() {
  GroupExecutor *E = GroupExecutor::current();
  return E && E->launch() ? E->launch()->id() : 0;
}

/// Lets parallelFor make a BoundDistArray.
struct BindTag {};
template <int N, class T, class F> struct DistBody;

} // namespace cpu

/// A region of a DistArray: \p getSize() elements of T in each work-group's
/// block, at a fixed offset. Made by DistArray::allocRegion; a default one
/// belongs to no DistArray.
template <class T> class Region {
public:
  Region() = default;
  /// Elements of T in the region.
  std::size_t getSize() const { return Size; }

private:
  friend class DistArray<T>;
  friend class BoundDistArray<T>;
  Region(std::uint64_t Owner, std::size_t Offset, std::size_t Size)
      : Owner(Owner), Offset(Offset), Size(Size) {}
  std::uint64_t Owner = 0; ///< The DistArray's serial.
  std::size_t Offset = 0;  ///< In bytes, from the start of the block.
  std::size_t Size = 0;
};

/// The layout of per-work-group memory (host code): regions of T.
template <class T> class DistArray {
public:
  DistArray() : Id(cpu::nextDistSerial()) {}
  DistArray(const DistArray &) = delete;
  DistArray &operator=(const DistArray &) = delete;

  /// A region of \p Count elements after the existing ones. Throws
  /// RuntimeError at the caller's line when \p Count is 0 or the block
  /// would exceed the memory of a work-group.
  Region<T> allocRegion(std::size_t Count, HPP_CALLER_LOCATION) {
    const std::size_t Offset = Layout.reserve(
        Count, cpu::groupMemoryBytes(File, Line),
        "memory of a work-group (HPP_CPU_GROUP_MEMORY)", File, Line);
    return Region<T>(Id, Offset, Count);
  }

  /// The size of the largest region that fits now and can also be the
  /// work-group size of a launch, as the paper uses it: what is left of the
  /// memory of a work-group after the existing regions (aligned), at most
  /// cpu::MaxGroupSize (1024). allocRegion accepts larger regions that fit.
  std::size_t getMaxRegionSize(HPP_CALLER_LOCATION) const {
    return Layout.maxRegionSize(cpu::groupMemoryBytes(File, Line),
                                cpu::MaxGroupSize);
  }

  /// Elements of T in all the regions allocated so far.
  std::size_t getTotalSize() const { return Layout.total(); }

private:
  template <int N, class U, class F> friend struct cpu::DistBody;

  std::uint64_t Id;
  detail::RegionLayout<T> Layout;
};

/// A DistArray bound to a launch, as its body sees it: a(r) gives the
/// work-group's copy of region r.
template <class T> class BoundDistArray {
public:
  BoundDistArray(cpu::BindTag, std::uint64_t Array, std::uint64_t Launch,
                 std::size_t Bytes)
      : Array(Array), Launch(Launch), Bytes(Bytes) {}

  /// The calling work-group's copy of \p R.
  Segment<T> operator()(const Region<T> &R, const char *File = __builtin_FILE(),
                        int Line = __builtin_LINE()) const {
    return bind(R, "BoundDistArray::operator()", File, Line);
  }
  /// The same as operator().
  Segment<T> getRegion(const Region<T> &R, const char *File = __builtin_FILE(),
                       int Line = __builtin_LINE()) const {
    return bind(R, "BoundDistArray::getRegion", File, Line);
  }

private:
  Segment<T> bind(const Region<T> &R, const char *Name, const char *File,
                  int Line) const {
    cpu::GroupExecutor *E = cpu::GroupExecutor::current();
    if (!E || !E->launch() || E->launch()->id() != Launch)
      throw RuntimeError(Name, File, Line,
                         std::string("used outside its launch (") +
                             (E ? "in another launch" : "in host code") +
                             "): a BoundDistArray exists only in the body of "
                             "the parallelFor it is passed to");
    if (R.Owner == 0)
      throw RuntimeError(Name, File, Line,
                         "the region was never allocated (a default-"
                         "constructed Region belongs to no DistArray)");
    if (R.Owner != Array)
      throw RuntimeError(Name, File, Line,
                         "the region (" + cpu::elements(R.Size) +
                             ") belongs to another DistArray than "
                             "the one the launch binds");
    if (R.Offset + R.Size * sizeof(T) > Bytes)
      throw RuntimeError(Name, File, Line,
                         "the region was allocated after the launch started");
    cpu::DistBlock &B = E->groupState<cpu::DistBlock>(&cpu::DistBlockKey, [&] {
      return std::unique_ptr<cpu::GroupState>(
          new cpu::DistBlock(Bytes, detail::regionAlignment<T>()));
    });
    return Segment<T>(reinterpret_cast<T *>(B.Data + R.Offset), R.Size, Launch,
                      B.Serial);
  }

  std::uint64_t Array, Launch;
  std::size_t Bytes; ///< Size of the block at launch.
};

namespace cpu {
/// A DistArray launch's body as parallelFor's launch machinery runs it:
/// binds the DistArray for each work-item. A mutable body gets a fresh copy
/// per work-item, as invokeBody gives it.
template <int N, class T, class F> struct DistBody {
  DistBody(const F &Body, const DistArray<T> &D)
      : Body(&Body), Array(D.Id), Bytes(D.Layout.bytes()) {}
  void operator()(const Index<N, N> &I) const {
    BoundDistArray<T> A(BindTag(), Array, currentLaunchId(), Bytes);
    if constexpr (std::is_invocable<const F &, const Index<N, N> &,
                                    BoundDistArray<T>>::value) {
      (*Body)(I, A);
    } else {
      F Copy(*Body);
      Copy(I, A);
    }
  }
  const F *Body;
  std::uint64_t Array;
  std::size_t Bytes;
};

template <class F> constexpr bool alwaysFalse() { return false; }
} // namespace cpu

/// Runs \p Body once per point of \p R's global range in work-groups of
/// \p R's local size, each work-group with its own copy of \p D's regions
/// (bound as the body's BoundDistArray<T>), on the default device, and
/// returns when every work-item has finished. The trailing work-items of a
/// partial last group do not run the body (they count as arrived at
/// Segment::barrier).
template <int N, class T, class F>
void parallelFor(Range<N, N> R, DistArray<T> &D,
                 F Body HPP_CPU_LAUNCH_LOCATION) {
  constexpr bool TakesIndex =
      std::is_invocable<F &, const Index<N, N> &, BoundDistArray<T>>::value;
  static_assert(TakesIndex,
                "parallelFor(Range<N,N>, DistArray<T>, body): the body must "
                "take (Index<N,N>, BoundDistArray<T>) with the range's N and "
                "the DistArray's T");
  static_assert(cpu::TakesIndexType<F>::value,
                "parallelFor: the body's parameter must be an hpp::Index (a "
                "1-D Index converts to its global id inside the body)");
  if constexpr (TakesIndex) {
    static_assert(std::is_void<std::invoke_result_t<F &, const Index<N, N> &,
                                                    BoundDistArray<T>>>::value,
                  "parallelFor: the body must return void");
    cpu::DistBody<N, T, F> Wrapped(Body, D);
    HPP_CPU_LAUNCH_ON(cpu::DefaultDevice, R, Wrapped);
  }
}

/// The same on device \p Dev.
template <int N, class T, class F>
void parallelFor(Device Dev, Range<N, N> R, DistArray<T> &D,
                 F Body HPP_CPU_LAUNCH_LOCATION) {
  constexpr bool TakesIndex =
      std::is_invocable<F &, const Index<N, N> &, BoundDistArray<T>>::value;
  static_assert(TakesIndex,
                "parallelFor(Range<N,N>, DistArray<T>, body): the body must "
                "take (Index<N,N>, BoundDistArray<T>) with the range's N and "
                "the DistArray's T");
  static_assert(cpu::TakesIndexType<F>::value,
                "parallelFor: the body's parameter must be an hpp::Index (a "
                "1-D Index converts to its global id inside the body)");
  if constexpr (TakesIndex) {
    static_assert(std::is_void<std::invoke_result_t<F &, const Index<N, N> &,
                                                    BoundDistArray<T>>>::value,
                  "parallelFor: the body must return void");
    cpu::DistBody<N, T, F> Wrapped(Body, D);
    HPP_CPU_LAUNCH_ON(Dev.getId(), R, Wrapped);
  }
}

/// A DistArray needs work-groups of a known size: not with a Range<N>.
template <int N, class T, class F>
void parallelFor(Range<N> R, DistArray<T> &D, F Body) {
  static_assert(cpu::alwaysFalse<F>(),
                "parallelFor(Range<N>, DistArray<T>, body): a DistArray needs "
                "a work-group size; pass a Range<N,N>(global, local)");
  (void)R, (void)D, (void)Body;
}
template <int N, class T, class F>
void parallelFor(Device Dev, Range<N> R, DistArray<T> &D, F Body) {
  static_assert(cpu::alwaysFalse<F>(),
                "parallelFor(Device, Range<N>, DistArray<T>, body): a "
                "DistArray needs a work-group size; pass a "
                "Range<N,N>(global, local)");
  (void)Dev, (void)R, (void)D, (void)Body;
}

} // namespace hpp

#endif // HPP_CPU_DIST_ARRAY_H
