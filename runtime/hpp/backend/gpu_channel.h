//===- hpp/backend/gpu_channel.h - Channel memory on CUDA and HIP ---------===//
//
// Part of hpp-rewrite. Device runtime, CUDA and HIP backends.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// detail::ChannelMemory for the GPU backends: what hpp/channel.h needs of
/// the device. A channel's values live in device memory (cudaMalloc /
/// hipMalloc). Its state (the reservation counter and the error flags,
/// detail::ChannelState) lives in device memory too, with a mirror in
/// pinned host memory: the host writes the mirror and copies it to the
/// device only when the state must be reset (before the first launch, and
/// after an error or an abandoned launch: the counter otherwise only
/// grows, see ChannelWriter::Shift), and every launch that writes the
/// channel copies it back behind the kernel (and its eager consumers), in
/// stream order, so the wait that the launch makes anyway covers it. Why not
/// mapped pinned host memory for the counter itself: every write's atomic
/// reservation would then cross the bus, serialised on one address (about
/// a microsecond each), and device atomics on host memory are not atomic
/// at all where the link lacks them (x86 PCIe hosts without
/// cudaDevAttrHostNativeAtomicSupported; AMD without PCIe atomics). One
/// 16-byte copy per launch costs about as much as one such atomic; with
/// an eager consumer, not even that: its first work-item writes the state
/// into the mirror (ChannelBatch::Mirror).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_GPU_CHANNEL_H
#define HPP_RUNTIME_BACKEND_GPU_CHANNEL_H

#include "hpp/check.h"
#include "hpp/launch_graph.h"

#include <cstddef>
#include <cstring>

namespace hpp {
namespace detail {

/// Memory and copies of a channel on the GPU; see the file comment.
struct ChannelMemory {
  /// The state has a host mirror, copied to and from the device.
  static constexpr bool Mirrored = true;

  /// \p Bytes (> 0) of device memory.
  static void *device(std::size_t Bytes) {
    void *P = nullptr;
    HPP_CHECK(HPP_GPU(Malloc)(&P, Bytes));
    return P;
  }
  static void freeDevice(void *P) noexcept {
    if (P)
      (void)HPP_GPU(Free)(P);
  }
  /// \p Bytes of zeroed pinned host memory that the device can write (the
  /// state's mirror).
  static void *host(std::size_t Bytes) {
    void *P = nullptr;
#if defined(HPP_BACKEND_HIP)
    HPP_CHECK(hipHostMalloc(&P, Bytes, hipHostMallocMapped));
#else
    HPP_CHECK(cudaHostAlloc(&P, Bytes, cudaHostAllocMapped));
#endif
    std::memset(P, 0, Bytes);
    return P;
  }
  /// The device's address of pinned host memory \p P from host().
  static void *onDevice(void *P) {
    void *D = nullptr;
    HPP_CHECK(HPP_GPU(HostGetDevicePointer)(&D, P, 0));
    return D;
  }
  static void freeHost(void *P) noexcept {
    if (!P)
      return;
#if defined(HPP_BACKEND_HIP)
    (void)hipHostFree(P);
#else
    (void)cudaFreeHost(P);
#endif
  }
  /// Copies \p Bytes (device or pinned memory, either way) in the order of
  /// \p Stream.
  static void copy(void *To, const void *From, std::size_t Bytes,
                   void *Stream) {
    flushLaunchRecording();
    HPP_CHECK(HPP_GPU(MemcpyAsync)(To, From, Bytes, HPP_GPU(MemcpyDefault),
                                   static_cast<HPP_GPU(Stream_t)>(Stream)));
  }
  /// Waits for what was enqueued on \p Stream.
  static void wait(void *Stream) {
    flushLaunchRecording();
    HPP_CHECK(
        HPP_GPU(StreamSynchronize)(static_cast<HPP_GPU(Stream_t)>(Stream)));
  }
  /// Before a channel is destroyed: nothing; a task is launched at its
  /// enqueue, and the channel waits for the one whose launch writes it
  /// (Channel::awaitTask).
  static void completeTasks() noexcept {}
};

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_GPU_CHANNEL_H
