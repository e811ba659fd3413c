//===- hpp/dist_array.h - Distributed arrays in rewritten code ------------===//
//
// Part of hpp-rewrite. Device runtime, every backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// DistArray, Region, BoundDistArray and Segment (spec 1.9) as rewritten
/// code uses them. The host code is the dialect's: `DistArray<T> d; Region<T>
/// r = d.allocRegion(n);`. hpp-rewrite outlines
/// `parallelFor(range, d, [=](Index<N, N> i, BoundDistArray<T> a) {...})`
/// into a kernel whose first parameter after the range is
/// `hpp::BoundDistArray<T> a` and launches it with `d` in that place; the
/// launch gives the kernel d's regions as dynamic shared memory
/// (detail::sharedBytesOf, launch.h). In the body `a(r)` is a Segment: a
/// pointer into the work-group's dynamic shared memory at r's offset, and
/// `s.barrier()` is `__syncthreads()`. Regions are laid out as the CPU
/// reference runtime lays them out (include/hpp/cpu/dist_array.h): in order,
/// each aligned to max(alignof(T), 16) bytes. The limit is the device's:
/// the largest dynamic shared memory a work-group may have (CUDA's opt-in
/// maximum, HIP's per-block maximum; HPP_CPU_GROUP_MEMORY on the CPU
/// backend); allocRegion beyond it throws hpp::RuntimeError at the caller's
/// line. getMaxRegionSize() is also at most the device's largest
/// work-group, so that it can be the launch's work-group size, as in the
/// paper (hpp/core/region_layout.h). `s[i]` checks its index on every
/// backend, as the reference runtime does (one compare; see operator[]):
/// out of range it is the reference's hpp::RuntimeError at the
/// caller's file:line, thrown on the CPU backend, recorded on a GPU and
/// thrown by the launch (hpp/device_error.h). The other checks the
/// reference runtime makes on every access are left to it, but for one on
/// the CPU backend of a program compiled with -DHPP_CPU_CHECKS: with
/// HPP_CPU_CHECK=uninit, `s[i]` reports a read of an element that no
/// work-item of the work-group wrote (hpp::RuntimeError at the caller's
/// file:line; hpp/cpu/group_memory.h). Without the macro the flag is not
/// tested (a test of it would keep compilers from vectorizing loops over a
/// segment), and a launch with dynamic shared memory under
/// HPP_CPU_CHECK=uninit is an error rather than unchecked. The
/// work-group's dynamic shared memory starts poisoned on the CPU backend
/// (every byte 0xFF).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_DIST_ARRAY_H
#define HPP_RUNTIME_DIST_ARRAY_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/runtime.h>, which selects the backend first"
#endif

#include "hpp/core/error.h"
#include "hpp/core/error_text.h"
#include "hpp/core/region_layout.h"
#include "hpp/device_error.h"

#include <cstddef>
#include <string>
#include <type_traits>

namespace hpp {
namespace detail {

/// The work-group's dynamic shared memory (16-byte aligned).
HPP_DEVICE inline unsigned char *dynamicShared() {
#if defined(HPP_BACKEND_CPU)
  return cpu_backend::dynamicShared();
#else
  extern __shared__ __attribute__((aligned(16))) unsigned char
      hpp_dynamic_shared[];
  return hpp_dynamic_shared;
#endif
}

/// Bytes of dynamic shared memory one work-group may have on the current
/// device (on the CPU backend a bad HPP_CPU_GROUP_MEMORY throws at
/// \p File : \p Line).
inline std::size_t groupMemoryLimit(const char *File, int Line) {
#if defined(HPP_BACKEND_CPU)
  return hpp::cpu::groupMemoryBytes(File, Line);
#else
  (void)File, (void)Line;
  return maxDynamicSharedBytes();
#endif
}

} // namespace detail

template <class T> class DistArray;
template <class T> class BoundDistArray;
namespace detail {
template <class T>
void prepareLaunchArgument(BoundDistArray<T> &, unsigned, std::size_t,
                           LaunchOptions &, LaunchScratch &);
} // namespace detail

/// A region of a DistArray: an offset and a size in each work-group's
/// block.
template <class T> class Region {
public:
  Region() = default;
  HPP_HD std::size_t getSize() const { return Size; }

private:
  friend class DistArray<T>;
  friend class BoundDistArray<T>;
  Region(std::size_t Offset, std::size_t Size) : Offset(Offset), Size(Size) {}
  std::size_t Offset = 0; ///< bytes
  std::size_t Size = 0;   ///< elements
};

namespace detail {
#if !defined(HPP_BACKEND_CPU)
/// An index into a Segment on a GPU, with the caller's file:line
/// (operator[] takes one argument, so the location rides on the implicit
/// conversion, as cpu::SegmentIndex does on the CPU). One constructor per
/// integral type, not a template: nvcc evaluates __builtin_FILE() and
/// __builtin_LINE() in a function template's default arguments where the
/// template is declared, not at the call.
struct SegmentIndex {
#define HPP_SEGMENT_INDEX_FROM(I)                                              \
  HPP_DEVICE SegmentIndex(I Index, const char *File = __builtin_FILE(),        \
                          int Line = __builtin_LINE())                         \
      : Value(static_cast<unsigned long long>(Index)),                         \
        Negative(std::is_signed<I>::value && Index < static_cast<I>(0)),       \
        File(File), Line(Line) {}
  HPP_SEGMENT_INDEX_FROM(bool)
  HPP_SEGMENT_INDEX_FROM(char)
  HPP_SEGMENT_INDEX_FROM(signed char)
  HPP_SEGMENT_INDEX_FROM(unsigned char)
  HPP_SEGMENT_INDEX_FROM(wchar_t)
  HPP_SEGMENT_INDEX_FROM(char16_t)
  HPP_SEGMENT_INDEX_FROM(char32_t)
  HPP_SEGMENT_INDEX_FROM(short)
  HPP_SEGMENT_INDEX_FROM(unsigned short)
  HPP_SEGMENT_INDEX_FROM(int)
  HPP_SEGMENT_INDEX_FROM(unsigned)
  HPP_SEGMENT_INDEX_FROM(long)
  HPP_SEGMENT_INDEX_FROM(unsigned long)
  HPP_SEGMENT_INDEX_FROM(long long)
  HPP_SEGMENT_INDEX_FROM(unsigned long long)
#undef HPP_SEGMENT_INDEX_FROM
  unsigned long long Value;
  bool Negative;
  const char *File;
  int Line;
};
#else
using SegmentIndex = cpu::SegmentIndex;

/// `s[i]` out of range on the CPU backend: the reference runtime's error.
[[noreturn]] __attribute__((noinline)) inline void
segmentOutOfRange(const cpu::SegmentIndex &I, std::size_t Size) {
  throw RuntimeError("Segment::operator[]", I.File, I.Line,
                     segmentIndexText(I.Value, I.Negative, Size));
}
#endif
} // namespace detail

/// A work-group's copy of a region, in its shared memory.
template <class T> class Segment {
public:
  HPP_DEVICE Segment(T *Data, std::size_t Size,
                     detail::DeviceErrorSlot *Errors = nullptr)
      : Data(Data), Size(Size), Errors(Errors) {}
  /// Element \p I. An index out of range is the reference runtime's
  /// error, at the caller's file:line: thrown on the CPU; on a GPU recorded
  /// for the launch (hpp/device_error.h), the work-item getting element 0
  /// instead of memory past the segment. One compare on the fast path; the
  /// record (a few stores) inline in the branch not taken: as a call it
  /// would make the kernel keep more registers (segment_reduce_tree's
  /// kernel on sm_90: 16 registers without the check, 24 with it, 26 as a
  /// call).
#if defined(HPP_BACKEND_CPU)
  T &operator[](detail::SegmentIndex I) const {
    if (__builtin_expect(I.Value >= Size, 0)) // A negative index too.
      detail::segmentOutOfRange(I, Size);
#if defined(HPP_CPU_CHECKS)
    // The uninit check (HPP_CPU_CHECK=uninit).
    if (cpu::checkUninit())
      cpu_backend::checkGroupMemoryAccess(Data + I.Value, sizeof(T), I.Value,
                                          Size, I.File, I.Line);
#endif
    return Data[I.Value];
  }
#else
  HPP_DEVICE T &operator[](detail::SegmentIndex I) const {
    unsigned long long At = I.Value;
    if (__builtin_expect(At >= Size, 0))
      At = detail::segmentOutOfRange(Errors, At, I.Negative, Size, I.File,
                                     I.Line);
    return Data[At];
  }
#endif
  HPP_DEVICE std::size_t getRegionSize() const { return Size; }
#if defined(HPP_BACKEND_CPU)
  /// The work-group barrier.
  void barrier(const char *File = __builtin_FILE(),
               int Line = __builtin_LINE()) const {
    __syncthreads(File, Line);
  }
#else
  /// The work-group barrier.
  HPP_DEVICE void barrier() const { __syncthreads(); }
#endif

private:
  T *Data;
  std::size_t Size;
  detail::DeviceErrorSlot *Errors; ///< the launch's (GPU)
};

/// Per-work-group memory, divided into regions (host code).
template <class T> class DistArray {
public:
  DistArray() = default;
  DistArray(const DistArray &) = delete;
  DistArray &operator=(const DistArray &) = delete;

  /// A region of \p Count elements after the existing ones; throws at the
  /// caller's line when \p Count is 0 or the block would exceed the
  /// device's shared memory.
  Region<T> allocRegion(std::size_t Count, HPP_CALLER_LOCATION) {
    const std::size_t Offset = Layout.reserve(
        Count, detail::groupMemoryLimit(File, Line),
        "shared memory of a work-group on this device", File, Line);
    return Region<T>(Offset, Count);
  }

  /// The size of the largest region that fits now and can also be the
  /// work-group size of a launch (the paper's use): what is left of the
  /// shared memory, at most the device's largest work-group
  /// (detail::maxWorkGroupItems(): 1024 on NVIDIA and AMD GPUs and on the
  /// CPU backend).
  std::size_t getMaxRegionSize(HPP_CALLER_LOCATION) const {
    return Layout.maxRegionSize(detail::groupMemoryLimit(File, Line),
                                detail::maxWorkGroupItems());
  }

  /// Elements of T in all the regions allocated so far.
  std::size_t getTotalSize() const { return Layout.total(); }
  /// Bytes of a work-group's block.
  std::size_t getBytes() const { return Layout.bytes(); }

private:
  detail::RegionLayout<T> Layout;
};

/// A DistArray bound to a launch (the kernel parameter): a(r) is the
/// work-group's copy of region r.
template <class T> class BoundDistArray {
public:
  /// The launch converts the DistArray passed to it.
  BoundDistArray(const DistArray<T> &D) : Bytes(D.getBytes()) {}

  HPP_DEVICE Segment<T> operator()(const Region<T> &R) const {
    return Segment<T>(reinterpret_cast<T *>(detail::dynamicShared() + R.Offset),
                      R.Size, Errors);
  }
  HPP_DEVICE Segment<T> getRegion(const Region<T> &R) const {
    return (*this)(R);
  }
  HPP_HD std::size_t sharedBytes() const { return Bytes; }

private:
  template <class U>
  friend void detail::prepareLaunchArgument(BoundDistArray<U> &, unsigned,
                                            std::size_t,
                                            detail::LaunchOptions &,
                                            detail::LaunchScratch &);
  std::size_t Bytes;
  detail::DeviceErrorSlot *Errors = nullptr; ///< the launch's (GPU)
};

namespace detail {

/// Launch-time preparation (hpp::launchKernel): the segments record an
/// index out of range in the launch's error record (GPU).
template <class T>
void prepareLaunchArgument(BoundDistArray<T> &A, unsigned, std::size_t,
                           LaunchOptions &, LaunchScratch &Scratch) {
  A.Errors = Scratch.errorSlot();
}

/// Dynamic shared memory a kernel argument needs (launch.h).
template <class T> std::size_t sharedBytesOf(const BoundDistArray<T> &B) {
  return B.sharedBytes();
}
template <class T> std::size_t sharedBytesOf(const T &) { return 0; }

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_DIST_ARRAY_H
