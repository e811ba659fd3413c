//===- hpp/backend/cpu_channel.h - Channel memory on the CPU backend ------===//
//
// Part of hpp-rewrite. Device runtime, CPU backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// detail::ChannelMemory for the CPU backend (hpp/channel.h): "device"
/// memory is host memory, the state has no mirror (the host reads the
/// counter that the work-items' atomics updated once the launch has
/// returned), copies are memcpy and there is nothing to wait for. A
/// channel's destructor first runs the tasks still queued (hpp/cpu/sync.h):
/// one of them may write the channel.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_CPU_CHANNEL_H
#define HPP_RUNTIME_BACKEND_CPU_CHANNEL_H

#include "hpp/cpu/sync.h"

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>

namespace hpp {
namespace detail {

/// Memory and copies of a channel on the CPU backend.
struct ChannelMemory {
  /// The state is read and written where the work-items update it.
  static constexpr bool Mirrored = false;

  /// \p Bytes (> 0) of zeroed memory.
  static void *device(std::size_t Bytes) {
    void *P = std::calloc(1, Bytes);
    if (!P)
      throw std::bad_alloc();
    return P;
  }
  static void freeDevice(void *P) noexcept { std::free(P); }
  static void *host(std::size_t Bytes) { return device(Bytes); }
  static void freeHost(void *P) noexcept { std::free(P); }
  /// Host memory is the device's: the same address.
  static void *onDevice(void *P) { return P; }
  static void copy(void *To, const void *From, std::size_t Bytes, void *) {
    std::memmove(To, From, Bytes);
  }
  static void wait(void *) {}
  /// Before a channel is destroyed: the enqueued tasks run, as a GPU has
  /// run them (their errors go to their futures).
  static void completeTasks() noexcept {
    hpp::cpu::TaskQueue::get().runUntil(nullptr);
  }
};

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_CPU_CHANNEL_H
