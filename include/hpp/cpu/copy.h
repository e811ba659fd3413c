//===- hpp/cpu/copy.h - copy and copyAsync between Pointers on the CPU ----===//
//
// Part of hpp-rewrite. CPU reference runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Copies between any two Pointer<T> (same device or not; docs/devices.md):
///
///   copy(dst, src, count);                       // blocking
///   copy(dst, dstOffset, src, srcOffset, count); // element offsets
///   Future<void> f = copyAsync(dst, dstOffset, src, srcOffset, count);
///   Future<void> g = copyAsync(dst, dstOffset, src, srcOffset, count, after);
///
/// The offsets and the count are checked against both Pointers' sizes at
/// the call (RuntimeError at the caller's line). The blocking form first
/// runs every task enqueued so far, as cudaMemcpy waits for the device. An
/// asynchronous copy is a task of the queue of hpp/cpu/sync.h: it happens
/// when something synchronises with it, after \p after (any Future) and
/// the tasks enqueued before it; if \p after failed, it does not happen and
/// its future fails naming it. On the CPU a copy is host code: it is not
/// subject to the device check of Pointer.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_COPY_H
#define HPP_CPU_COPY_H

#include "hpp/core/copy_range.h"
#include "hpp/core/error.h"
#include "hpp/core/future.h"
#include "hpp/core/pointer.h"
#include "hpp/cpu/device_sim.h"
#include "hpp/cpu/sync.h"

#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace hpp {
namespace cpu {

/// Copies \p Count elements from \p Src to \p Dst (they may overlap).
template <class T> void copyElements(T *Dst, const T *Src, std::size_t Count) {
  if (Count == 0 || Dst == Src)
    return;
  if constexpr (std::is_trivially_copyable<T>::value) {
    std::memmove(static_cast<void *>(Dst), static_cast<const void *>(Src),
                 Count * sizeof(T));
  } else if (Dst < Src) {
    for (std::size_t I = 0; I != Count; ++I)
      Dst[I] = Src[I];
  } else {
    for (std::size_t I = Count; I-- != 0;)
      Dst[I] = Src[I];
  }
}

/// The raw element pointers of a checked copy, taken in host code (the
/// device check of Pointer::get() does not apply).
template <class T> T *hostElements(const Pointer<T> &P, std::size_t Offset) {
  return P ? P.get() + Offset : nullptr;
}

/// copyAsync's work: copies when the queue reaches it.
template <class T>
Future<void> enqueueCopy(T *Dst, const T *Src, std::size_t Count,
                         std::vector<std::shared_ptr<hpp::detail::Work>> After,
                         const char *File, int Line) {
  for (auto &D : After)
    D->addDependent();
  auto W = std::make_shared<DeferredWork>(
      [Dst, Src, Count] { copyElements(Dst, Src, Count); }, std::move(After),
      File, Line);
  W->setCall("copyAsync");
  TaskQueue::get().push(W);
  return hpp::detail::FutureAccess::make<void>(W, nullptr, 0);
}

} // namespace cpu

/// Copies \p Count elements from \p Src at \p SrcOffset to \p Dst at
/// \p DstOffset, after every task enqueued so far; returns when done.
template <class T>
void copy(Pointer<T> Dst, std::size_t DstOffset, Pointer<T> Src,
          std::size_t SrcOffset, std::size_t Count, HPP_CALLER_LOCATION) {
  hpp::detail::checkCopySide(Dst, DstOffset, Count, "destination", "copy", File,
                             Line, cpu::checkDeviceId);
  hpp::detail::checkCopySide(Src, SrcOffset, Count, "source", "copy", File,
                             Line, cpu::checkDeviceId);
  cpu::synchronize(File, Line);
  cpu::copyElements(cpu::hostElements(Dst, DstOffset),
                    cpu::hostElements(Src, SrcOffset), Count);
}

/// Copies the first \p Count elements of \p Src to \p Dst (blocking).
template <class T>
void copy(Pointer<T> Dst, Pointer<T> Src, std::size_t Count,
          HPP_CALLER_LOCATION) {
  copy(Dst, 0, Src, 0, Count, File, Line);
}

/// Copies like copy() once the tasks enqueued so far have run; returns at
/// once.
template <class T>
Future<void> copyAsync(Pointer<T> Dst, std::size_t DstOffset, Pointer<T> Src,
                       std::size_t SrcOffset, std::size_t Count,
                       HPP_CALLER_LOCATION) {
  hpp::detail::checkCopySide(Dst, DstOffset, Count, "destination", "copyAsync",
                             File, Line, cpu::checkDeviceId);
  hpp::detail::checkCopySide(Src, SrcOffset, Count, "source", "copyAsync", File,
                             Line, cpu::checkDeviceId);
  return cpu::enqueueCopy(cpu::hostElements(Dst, DstOffset),
                          cpu::hostElements(Src, SrcOffset), Count, {}, File,
                          Line);
}

/// The same once \p After has completed too; if \p After fails, the copy
/// does not happen and its future fails the same way.
template <class T, class D>
Future<void> copyAsync(Pointer<T> Dst, std::size_t DstOffset, Pointer<T> Src,
                       std::size_t SrcOffset, std::size_t Count,
                       const Future<D> &After, HPP_CALLER_LOCATION) {
  hpp::detail::checkCopySide(Dst, DstOffset, Count, "destination", "copyAsync",
                             File, Line, cpu::checkDeviceId);
  hpp::detail::checkCopySide(Src, SrcOffset, Count, "source", "copyAsync", File,
                             Line, cpu::checkDeviceId);
  std::vector<std::shared_ptr<detail::Work>> Deps;
  detail::FutureAccess::works(After, Deps);
  return cpu::enqueueCopy(cpu::hostElements(Dst, DstOffset),
                          cpu::hostElements(Src, SrcOffset), Count,
                          std::move(Deps), File, Line);
}

} // namespace hpp

#endif // HPP_CPU_COPY_H
