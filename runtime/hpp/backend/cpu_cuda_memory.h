//===- hpp/backend/cpu_cuda_memory.h - CUDA memory calls, CPU ---*- C++ -*-===//
//
// Part of hpp-rewrite. Device runtime, CPU backend (hpp/cuda_api.h).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA runtime's allocations on the CPU backend, strict as a GPU:
///  - device, managed and pinned host memory (cudaMalloc, cudaMallocManaged,
///    cudaMallocHost / cudaHostAlloc) is host memory aligned to 256 bytes,
///    poisoned as work-group memory is (every byte 0xFF: NaN as float or
///    double, -1 as a signed integer; hpp/cpu/group_memory.h), never zeroed:
///    a kernel that reads what nothing wrote computes with the poison
///    instead of a lucky 0;
///  - every allocation is tracked, with the `__device__` / `__constant__`
///    variables whose address cudaGetSymbolAddress gave, so that the copies
///    (cpu_cuda_copy.h) can check their ranges; cudaFree of a pointer that
///    is not the start of a device or managed allocation (a host pointer, an
///    interior pointer, a pointer freed before) and cudaFreeHost of one that
///    is not from cudaMallocHost / cudaHostAlloc fail with
///    cudaErrorInvalidValue, as on CUDA;
///  - an allocation larger than the host's memory is
///    cudaErrorMemoryAllocation; cudaMemGetInfo reports the host's memory
///    less what the calls hold; cudaDeviceReset frees every allocation;
///  - cudaMemPrefetchAsync, both forms (CUDA 12's device number, CUDA 13's
///    cudaMemLocation), checks its range (managed memory) and target, and
///    moves nothing.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_CPU_CUDA_MEMORY_H
#define HPP_RUNTIME_BACKEND_CPU_CUDA_MEMORY_H

#include "hpp/backend/cpu_cuda_device.h"
#include "hpp/cpu/group_memory.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

namespace hpp {
namespace detail {

/// What an allocation the CUDA calls track is.
enum class CudaMemory { Device, Managed, PinnedHost, Symbol };

struct CudaAllocation {
  std::uintptr_t Base = 0;
  std::size_t Bytes = 0;
  CudaMemory Kind = CudaMemory::Device;
};

/// The allocations of the CUDA calls, by address.
class CudaAllocations {
public:
  static CudaAllocations &get() {
    static CudaAllocations *Table = new CudaAllocations; // Outlives dtors.
    return *Table;
  }

  /// \p Bytes (> 0) of poisoned memory of kind \p Kind; null if the host
  /// cannot give them.
  void *allocate(std::size_t Bytes, CudaMemory Kind) {
    if (Bytes > hostMemoryBytes())
      return nullptr;
    const std::size_t Rounded = (Bytes + 255) / 256 * 256;
    void *P = std::aligned_alloc(256, Rounded);
    if (!P)
      return nullptr;
    hpp::cpu::poisonGroupMemory(P, Bytes);
    std::lock_guard<std::mutex> Guard(Lock);
    Table[std::uintptr_t(P)] = {std::uintptr_t(P), Bytes, Kind};
    Allocated += Bytes;
    return P;
  }

  /// Tracks the variable of \p Bytes at \p P (cudaGetSymbolAddress).
  void addSymbol(const void *P, std::size_t Bytes) {
    std::lock_guard<std::mutex> Guard(Lock);
    Table.emplace(std::uintptr_t(P),
                  CudaAllocation{std::uintptr_t(P), Bytes, CudaMemory::Symbol});
  }

  /// Frees the allocation that starts at \p P if it is of a kind \p Frees
  /// accepts; false otherwise.
  template <class Pred> bool release(const void *P, Pred Frees) {
    {
      std::lock_guard<std::mutex> Guard(Lock);
      auto It = Table.find(std::uintptr_t(P));
      if (It == Table.end() || !Frees(It->second.Kind))
        return false;
      Allocated -= It->second.Bytes;
      Table.erase(It);
    }
    std::free(const_cast<void *>(P));
    return true;
  }

  /// The allocation \p P lies in, if any.
  bool find(const void *P, CudaAllocation &Out) {
    const auto Address = std::uintptr_t(P);
    std::lock_guard<std::mutex> Guard(Lock);
    auto It = Table.upper_bound(Address);
    if (It == Table.begin())
      return false;
    --It;
    if (Address - It->second.Base >= It->second.Bytes)
      return false;
    Out = It->second;
    return true;
  }

  /// Bytes of the allocations made (not the symbols).
  std::size_t allocatedBytes() {
    std::lock_guard<std::mutex> Guard(Lock);
    return Allocated;
  }

  /// Frees every allocation (cudaDeviceReset); the symbols stay.
  void releaseAll() {
    std::vector<void *> Blocks;
    {
      std::lock_guard<std::mutex> Guard(Lock);
      for (auto It = Table.begin(); It != Table.end();) {
        if (It->second.Kind == CudaMemory::Symbol) {
          ++It;
          continue;
        }
        Blocks.push_back(reinterpret_cast<void *>(It->first));
        It = Table.erase(It);
      }
      Allocated = 0;
    }
    for (void *P : Blocks)
      std::free(P);
  }

private:
  std::mutex Lock;
  std::map<std::uintptr_t, CudaAllocation> Table;
  std::size_t Allocated = 0;
};

/// Whether \p Bytes at \p P may be a side of a copy or memset: inside the
/// allocation P lies in, if any; and in one if \p OnDevice.
inline bool validRange(const void *P, std::size_t Bytes, bool OnDevice) {
  if (!P)
    return false;
  CudaAllocation A;
  if (!CudaAllocations::get().find(P, A))
    return !OnDevice;
  return Bytes <= A.Bytes - (std::uintptr_t(P) - A.Base);
}

/// An allocation call: \p Bytes of \p Kind into \p *Ptr (null for 0 bytes).
inline cudaError_t cudaAllocate(void **Ptr, std::size_t Bytes, CudaMemory Kind,
                                const char *Call, const char *File, int Line) {
  if (!Ptr)
    return cudaFail(cudaErrorInvalidValue, Call, File, Line);
  *Ptr = nullptr;
  if (Bytes == 0)
    return cudaSuccess;
  *Ptr = CudaAllocations::get().allocate(Bytes, Kind);
  return *Ptr ? cudaSuccess
              : cudaFail(cudaErrorMemoryAllocation, Call, File, Line);
}

} // namespace detail
} // namespace hpp

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

inline cudaError_t cudaMalloc(void **Ptr, std::size_t Bytes,
                              HPP_CALLER_LOCATION) {
  return hpp::detail::cudaAllocate(Ptr, Bytes, hpp::detail::CudaMemory::Device,
                                   "cudaMalloc", File, Line);
}
template <class T>
cudaError_t cudaMalloc(T **Ptr, std::size_t Bytes, HPP_CALLER_LOCATION) {
  return cudaMalloc(reinterpret_cast<void **>(Ptr), Bytes, File, Line);
}

inline cudaError_t cudaMallocManaged(void **Ptr, std::size_t Bytes,
                                     unsigned Flags = cudaMemAttachGlobal,
                                     HPP_CALLER_LOCATION) {
  if (Flags != cudaMemAttachGlobal && Flags != cudaMemAttachHost)
    return hpp::detail::cudaFail(cudaErrorInvalidValue, "cudaMallocManaged",
                                 File, Line);
  return hpp::detail::cudaAllocate(Ptr, Bytes, hpp::detail::CudaMemory::Managed,
                                   "cudaMallocManaged", File, Line);
}
template <class T>
cudaError_t cudaMallocManaged(T **Ptr, std::size_t Bytes,
                              unsigned Flags = cudaMemAttachGlobal,
                              HPP_CALLER_LOCATION) {
  return cudaMallocManaged(reinterpret_cast<void **>(Ptr), Bytes, Flags, File,
                           Line);
}

inline cudaError_t cudaHostAlloc(void **Ptr, std::size_t Bytes, unsigned Flags,
                                 HPP_CALLER_LOCATION) {
  const unsigned Known =
      cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined;
  if (Flags & ~Known)
    return hpp::detail::cudaFail(cudaErrorInvalidValue, "cudaHostAlloc", File,
                                 Line);
  return hpp::detail::cudaAllocate(Ptr, Bytes,
                                   hpp::detail::CudaMemory::PinnedHost,
                                   "cudaHostAlloc", File, Line);
}
template <class T>
cudaError_t cudaHostAlloc(T **Ptr, std::size_t Bytes, unsigned Flags,
                          HPP_CALLER_LOCATION) {
  return cudaHostAlloc(reinterpret_cast<void **>(Ptr), Bytes, Flags, File,
                       Line);
}

inline cudaError_t cudaMallocHost(void **Ptr, std::size_t Bytes,
                                  HPP_CALLER_LOCATION) {
  return hpp::detail::cudaAllocate(Ptr, Bytes,
                                   hpp::detail::CudaMemory::PinnedHost,
                                   "cudaMallocHost", File, Line);
}
template <class T>
cudaError_t cudaMallocHost(T **Ptr, std::size_t Bytes, unsigned Flags = 0,
                           HPP_CALLER_LOCATION) {
  return cudaHostAlloc(reinterpret_cast<void **>(Ptr), Bytes, Flags, File,
                       Line);
}

/// Pinned host memory is its own device address (unified addressing).
inline cudaError_t cudaHostGetDevicePointer(void **Device, void *Host,
                                            unsigned Flags,
                                            HPP_CALLER_LOCATION) {
  hpp::detail::CudaAllocation A;
  if (!Device || Flags != 0 ||
      !hpp::detail::CudaAllocations::get().find(Host, A) ||
      A.Kind != hpp::detail::CudaMemory::PinnedHost)
    return hpp::detail::cudaFail(cudaErrorInvalidValue,
                                 "cudaHostGetDevicePointer", File, Line);
  *Device = Host;
  return cudaSuccess;
}

inline cudaError_t cudaFree(void *Ptr, HPP_CALLER_LOCATION) {
  using hpp::detail::CudaMemory;
  if (Ptr &&
      !hpp::detail::CudaAllocations::get().release(Ptr, [](CudaMemory K) {
        return K == CudaMemory::Device || K == CudaMemory::Managed;
      }))
    return hpp::detail::cudaFail(cudaErrorInvalidValue, "cudaFree", File, Line);
  return cudaSuccess;
}

inline cudaError_t cudaFreeHost(void *Ptr, HPP_CALLER_LOCATION) {
  using hpp::detail::CudaMemory;
  if (Ptr && !hpp::detail::CudaAllocations::get().release(
                 Ptr, [](CudaMemory K) { return K == CudaMemory::PinnedHost; }))
    return hpp::detail::cudaFail(cudaErrorInvalidValue, "cudaFreeHost", File,
                                 Line);
  return cudaSuccess;
}

/// The host's memory, less what the CUDA calls hold.
inline cudaError_t cudaMemGetInfo(std::size_t *Free, std::size_t *Total,
                                  HPP_CALLER_LOCATION) {
  if (!Free || !Total)
    return hpp::detail::cudaFail(cudaErrorInvalidValue, "cudaMemGetInfo", File,
                                 Line);
  *Total = hpp::detail::hostMemoryBytes();
  const std::size_t Used = hpp::detail::CudaAllocations::get().allocatedBytes();
  *Free = Used < *Total ? *Total - Used : 0;
  return cudaSuccess;
}

/// Frees every allocation; the device is as new.
inline cudaError_t cudaDeviceReset() {
  hpp::detail::CudaAllocations::get().releaseAll();
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Prefetching managed memory (host memory: only checked)
//===----------------------------------------------------------------------===//

namespace hpp {
namespace detail {
inline cudaError_t cudaPrefetch(const void *Ptr, std::size_t Count,
                                bool ValidTarget, unsigned Flags,
                                cudaStream_t Stream, const char *File,
                                int Line) {
  const char *Call = "cudaMemPrefetchAsync";
  CudaAllocation A;
  if (!validStream(Stream))
    return cudaFail(cudaErrorInvalidResourceHandle, Call, File, Line);
  if (!ValidTarget)
    return cudaFail(cudaErrorInvalidDevice, Call, File, Line);
  if (Flags != 0 || !CudaAllocations::get().find(Ptr, A) ||
      A.Kind != CudaMemory::Managed || !validRange(Ptr, Count, true))
    return cudaFail(cudaErrorInvalidValue, Call, File, Line);
  return cudaSuccess;
}
} // namespace detail
} // namespace hpp

/// CUDA 12's form: to device \p Device (0 or cudaCpuDeviceId).
inline cudaError_t cudaMemPrefetchAsync(const void *Ptr, std::size_t Count,
                                        int Device, cudaStream_t Stream = 0,
                                        HPP_CALLER_LOCATION) {
  return hpp::detail::cudaPrefetch(Ptr, Count,
                                   Device == 0 || Device == cudaCpuDeviceId, 0,
                                   Stream, File, Line);
}
/// CUDA 13's form: to \p Location.
inline cudaError_t cudaMemPrefetchAsync(const void *Ptr, std::size_t Count,
                                        cudaMemLocation Location,
                                        unsigned Flags, cudaStream_t Stream = 0,
                                        HPP_CALLER_LOCATION) {
  const bool Valid =
      (Location.type == cudaMemLocationTypeDevice && Location.id == 0) ||
      Location.type == cudaMemLocationTypeHost ||
      Location.type == cudaMemLocationTypeHostNuma ||
      Location.type == cudaMemLocationTypeHostNumaCurrent;
  return hpp::detail::cudaPrefetch(Ptr, Count, Valid, Flags, Stream, File,
                                   Line);
}

#endif // HPP_RUNTIME_BACKEND_CPU_CUDA_MEMORY_H
