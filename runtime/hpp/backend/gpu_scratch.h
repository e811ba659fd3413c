//===- hpp/backend/gpu_scratch.h - Scratch memory of the runtime kernels --===//
//
// Part of hpp-rewrite. Device runtime, GPU backends.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The performance kernels (gpu_algorithms.h) need device memory for their
/// partial results and tile states. A ScratchLease gives a call the
/// current device's buffer, grown (never shrunk) to the bytes it asks for,
/// and holds that device's lock until the call ends, so that two host
/// threads calling a kernel at once take turns instead of sharing it. The
/// buffers live until the process ends.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_GPU_SCRATCH_H
#define HPP_RUNTIME_BACKEND_GPU_SCRATCH_H

#include "hpp/check.h"

#include <cstddef>
#include <mutex>

namespace hpp {
namespace detail {
namespace gpu {

/// The scratch buffer of one device.
struct ScratchBuffer {
  std::mutex Lock;
  void *Memory = nullptr;
  std::size_t Bytes = 0;
};

/// Devices a process may use (more are refused by ScratchLease).
constexpr int MaxScratchDevices = 64;

inline ScratchBuffer &scratchBuffer(int Device) {
  static ScratchBuffer Buffers[MaxScratchDevices];
  return Buffers[Device];
}

/// The current device's scratch buffer, at least \p Bytes, 256-byte
/// aligned, held until the lease ends.
class ScratchLease {
public:
  ScratchLease(std::size_t Bytes, const char *File, int Line) {
    int Device = 0;
    checkCall(HPP_GPU(GetDevice)(&Device), "GetDevice", File, Line);
    if (Device < 0 || Device >= MaxScratchDevices)
      throw RuntimeError("runtime kernel", File, Line,
                         "device number beyond the runtime's scratch table");
    Buffer = &scratchBuffer(Device);
    Guard = std::unique_lock<std::mutex>(Buffer->Lock);
    if (Buffer->Bytes < Bytes) {
      if (Buffer->Memory)
        checkCall(HPP_GPU(Free)(Buffer->Memory), "Free(scratch)", File, Line);
      Buffer->Memory = nullptr;
      Buffer->Bytes = 0;
      std::size_t Grown = Bytes < (1u << 20) ? (1u << 20) : Bytes;
      checkCall(HPP_GPU(Malloc)(&Buffer->Memory, Grown), "Malloc(scratch)",
                File, Line);
      Buffer->Bytes = Grown;
    }
  }
  /// The buffer.
  void *get() const { return Buffer->Memory; }
  template <class T> T *as(std::size_t ByteOffset = 0) const {
    return reinterpret_cast<T *>(static_cast<char *>(Buffer->Memory) +
                                 ByteOffset);
  }

private:
  ScratchBuffer *Buffer = nullptr;
  std::unique_lock<std::mutex> Guard;
};

/// \p Bytes rounded up to 256, for laying out several arrays in a lease.
constexpr std::size_t scratchRound(std::size_t Bytes) {
  return (Bytes + 255) / 256 * 256;
}

} // namespace gpu
} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_GPU_SCRATCH_H
