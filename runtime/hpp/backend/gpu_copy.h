//===- hpp/backend/gpu_copy.h - copy and copyAsync on CUDA and HIP --------===//
//
// Part of hpp-rewrite. Device runtime, CUDA and HIP backends.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// copy and copyAsync between any two Pointer<T> (docs/devices.md) on the
/// GPU backends, with the CPU reference's checks and texts
/// (hpp/cpu/copy.h):
///  - between devices through cudaMemcpyPeerAsync / hipMemcpyPeerAsync
///    (over the peer link where there is one; the driver stages through
///    the host where there is not), within a device cudaMemcpyAsync;
///  - copyAsync runs on a task stream of the destination's device, after
///    the events of `after` (from any device: no host block), and its
///    future is a task's (hpp/backend/gpu_task.h): a task after it waits
///    for its event. After a task (which can fail on the device), the
///    source is first copied to a staging buffer on the destination's
///    device, and a kernel gated like a task's (TaskGate) moves it to the
///    destination only if `after` succeeded: otherwise the destination is
///    untouched, the copy records "not run" for its dependents, and its
///    future fails naming the failed task, as on the CPU;
///  - the blocking copy first waits for every task and copy enqueued so
///    far, on every device (and settles the tasks nobody waits for), as
///    the CPU runtimes do, then copies and waits.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_GPU_COPY_H
#define HPP_RUNTIME_BACKEND_GPU_COPY_H

#include "hpp/backend/gpu_task.h"
#include "hpp/check.h"
#include "hpp/core/copy_range.h"
#include "hpp/core/error.h"
#include "hpp/core/future.h"
#include "hpp/core/pointer.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace hpp {
namespace detail {

/// Enqueues the copy of \p Bytes from \p Src (device \p SrcDev) to \p Dst
/// (device \p DstDev) on \p Stream.
inline void copyBytesAsync(void *Dst, int DstDev, const void *Src, int SrcDev,
                           std::size_t Bytes, HPP_GPU(Stream_t) Stream) {
  if (!Bytes)
    return;
  flushLaunchRecording();
  if (DstDev == SrcDev || DstDev == HostMemoryId || SrcDev == HostMemoryId)
    HPP_CHECK(
        HPP_GPU(MemcpyAsync)(Dst, Src, Bytes, HPP_GPU(MemcpyDefault), Stream));
  else
    HPP_CHECK(
        HPP_GPU(MemcpyPeerAsync)(Dst, DstDev, Src, SrcDev, Bytes, Stream));
}

/// Moves \p Bytes from the staging buffer \p Src to \p Dst unless a
/// dependency of \p Gate failed (then records "not run", as a task would).
template <int = 0>
__global__ void gatedCopy(unsigned char *Dst, const unsigned char *Src,
                          std::size_t Bytes, TaskGate Gate) {
  if (!Gate.runs())
    return;
  const std::size_t Step = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t I = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
       I < Bytes; I += Step)
    Dst[I] = Src[I];
}

/// The device whose stream runs a copy between devices \p DstDev and
/// \p SrcDev: the destination's, the source's when the destination is
/// host memory (allocateHost), the default device's when both are.
inline int copyDevice(int DstDev, int SrcDev, const char *File, int Line) {
  if (DstDev != HostMemoryId)
    return DstDev;
  return SrcDev != HostMemoryId ? SrcDev : defaultDeviceId(File, Line);
}

/// copyAsync's work: \p Bytes from \p Src (device \p SrcDev) to \p Dst
/// (device \p DstDev) after \p After; see the file comment. A template:
/// the gated kernel is compiled only into programs that call copyAsync.
template <int = 0>
Future<void> enqueueDeviceCopy(void *Dst, int DstDev, const void *Src,
                               int SrcDev, std::size_t Bytes,
                               std::vector<std::shared_ptr<Work>> After,
                               const char *File, int Line) {
  const int Dev = copyDevice(DstDev, SrcDev, File, Line);
  DeviceScope Scope(Dev);
  const HPP_GPU(Stream_t) Stream = streamAfter(After, Dev);
  auto W = std::make_shared<GpuWork>(File, Line, Stream, Dev);
  W->setCall("copyAsync");
  bool Gated = false;
  for (const auto &D : After)
    Gated |= static_cast<GpuWork *>(D.get())->Errors != nullptr;
  if (Gated) {
    W->Errors = DeviceErrorSink::make();
    const TaskGate Gate = taskGate(After, W->Errors->slot(), Stream, Dev);
    void *Staging = nullptr;
    HPP_CHECK(HPP_GPU(Malloc)(&Staging, Bytes ? Bytes : 1));
    W->Buffer = std::shared_ptr<void>(Staging,
                                      [Dev](void *Q) { freeOnDevice(Q, Dev); });
    copyBytesAsync(Staging, Dev, Src, SrcDev, Bytes, Stream);
    const std::size_t Blocks = (Bytes + 255) / 256;
    gatedCopy<><<<unsigned(Blocks < 1      ? 1
                           : Blocks > 4096 ? 4096
                                           : Blocks),
                  256, 0, Stream>>>(static_cast<unsigned char *>(Dst),
                                    static_cast<unsigned char *>(Staging),
                                    Bytes, Gate);
    HPP_CHECK(HPP_GPU(GetLastError)());
  } else {
    copyBytesAsync(Dst, DstDev, Src, SrcDev, Bytes, Stream);
  }
  for (auto &D : After)
    D->addDependent();
  W->Deps = std::move(After);
  TaskCheckpoints::get().submitted(W);
  return FutureAccess::make<void>(std::move(W), nullptr, 0);
}

/// The blocking copy: waits for the tasks and copies enqueued so far (on
/// every device), then copies and waits.
inline void copyDeviceBytes(void *Dst, int DstDev, const void *Src, int SrcDev,
                            std::size_t Bytes, const char *File, int Line) {
  if (Orphans::get().pending())
    Orphans::get().settle(File, Line);
  synchronizeDevicesWithStreams(File, Line);
  if (!Bytes)
    return;
  DeviceScope Scope(copyDevice(DstDev, SrcDev, File, Line));
  // The null stream: ordered after the device's blocking launches.
  const auto Stream = static_cast<HPP_GPU(Stream_t)>(nullptr);
  copyBytesAsync(Dst, DstDev, Src, SrcDev, Bytes, Stream);
  checkCall(HPP_GPU(StreamSynchronize)(Stream), "copy", File, Line);
}

} // namespace detail

/// Copies \p Count elements from \p Src at \p SrcOffset to \p Dst at
/// \p DstOffset, after every task enqueued so far; returns when done.
template <class T>
void copy(Pointer<T> Dst, std::size_t DstOffset, Pointer<T> Src,
          std::size_t SrcOffset, std::size_t Count, HPP_CALLER_LOCATION) {
  hpp::detail::checkCopySide(Dst, DstOffset, Count, "destination", "copy", File,
                             Line, detail::checkDeviceId);
  hpp::detail::checkCopySide(Src, SrcOffset, Count, "source", "copy", File,
                             Line, detail::checkDeviceId);
  detail::copyDeviceBytes(Dst.get() + DstOffset, Dst.getDevice().getId(),
                          Src.get() + SrcOffset, Src.getDevice().getId(),
                          Count * sizeof(T), File, Line);
}

/// Copies the first \p Count elements of \p Src to \p Dst (blocking).
template <class T>
void copy(Pointer<T> Dst, Pointer<T> Src, std::size_t Count,
          HPP_CALLER_LOCATION) {
  copy(Dst, 0, Src, 0, Count, File, Line);
}

/// Copies like copy() without waiting for anything; returns at once.
template <class T>
Future<void> copyAsync(Pointer<T> Dst, std::size_t DstOffset, Pointer<T> Src,
                       std::size_t SrcOffset, std::size_t Count,
                       HPP_CALLER_LOCATION) {
  hpp::detail::checkCopySide(Dst, DstOffset, Count, "destination", "copyAsync",
                             File, Line, detail::checkDeviceId);
  hpp::detail::checkCopySide(Src, SrcOffset, Count, "source", "copyAsync", File,
                             Line, detail::checkDeviceId);
  return detail::enqueueDeviceCopy<>(
      Dst.get() + DstOffset, Dst.getDevice().getId(), Src.get() + SrcOffset,
      Src.getDevice().getId(), Count * sizeof(T), {}, File, Line);
}

/// The same once \p After (from any device) has completed; if \p After
/// fails, the copy does not happen and its future fails the same way.
template <class T, class D>
Future<void> copyAsync(Pointer<T> Dst, std::size_t DstOffset, Pointer<T> Src,
                       std::size_t SrcOffset, std::size_t Count,
                       const Future<D> &After, HPP_CALLER_LOCATION) {
  hpp::detail::checkCopySide(Dst, DstOffset, Count, "destination", "copyAsync",
                             File, Line, detail::checkDeviceId);
  hpp::detail::checkCopySide(Src, SrcOffset, Count, "source", "copyAsync", File,
                             Line, detail::checkDeviceId);
  std::vector<std::shared_ptr<detail::Work>> Deps;
  detail::FutureAccess::works(After, Deps);
  return detail::enqueueDeviceCopy<>(
      Dst.get() + DstOffset, Dst.getDevice().getId(), Src.get() + SrcOffset,
      Src.getDevice().getId(), Count * sizeof(T), std::move(Deps), File, Line);
}

} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_GPU_COPY_H
