//===- hpp/backend/gpu.h - CUDA and HIP backends of the device runtime ----===//
//
// Part of hpp-rewrite. Device runtime, GPU backends (nvcc; hipcc, HIP 5.2
// to ROCm 7.x).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The primitives launch.h and memory.h build on, written once for the CUDA
/// and HIP runtime APIs, which differ only in their prefix (HPP_GPU(Malloc)
/// is cudaMalloc or hipMalloc) and in the few places spelled out below:
/// HIP memory from allocate is advised coarse-grained
/// (hipMemAdviseSetCoarseGrain), so the hardware floating-point atomics
/// (unsafeAtomicAdd) are correct on it; CUDA 13 takes a cudaMemLocation in
/// cudaMemPrefetchAsync. A launch that writes a channel runs on the
/// runtime's after-launch stream (afterLaunchStream) and is waited for by
/// launch.h. Every call is checked with HPP_CHECK.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_GPU_H
#define HPP_RUNTIME_BACKEND_GPU_H

/// Set by the backend header; the shared pieces of the runtime need it.
#define HPP_RUNTIME_BACKEND 1

#include "hpp/check.h"
#include "hpp/core/config.h"
#include "hpp/core/future.h"
#include "hpp/launch_options.h"

#if defined(HPP_BACKEND_HIP)
#include <hip/hip_runtime.h>
// After the runtime header, which it needs.
#include <hip/hip_cooperative_groups.h>
#define HPP_GPU(Name) hip##Name
#define HPP_GPU_ATTR_CONCURRENT_MANAGED                                        \
  hipDeviceAttributeConcurrentManagedAccess
#define HPP_GPU_ATTR_WARP_SIZE hipDeviceAttributeWarpSize
#define HPP_GPU_ATTR_COOPERATIVE hipDeviceAttributeCooperativeLaunch
#define HPP_GPU_ATTR_SMS hipDeviceAttributeMultiprocessorCount
#define HPP_GPU_ATTR_MAX_SHARED hipDeviceAttributeMaxSharedMemoryPerBlock
#define HPP_GPU_ATTR_MAX_THREADS hipDeviceAttributeMaxThreadsPerBlock
#else
#include <cuda_runtime.h>
// After the runtime header, which it needs.
#include <cooperative_groups.h>
#define HPP_GPU(Name) cuda##Name
#define HPP_GPU_ATTR_CONCURRENT_MANAGED cudaDevAttrConcurrentManagedAccess
#define HPP_GPU_ATTR_WARP_SIZE cudaDevAttrWarpSize
#define HPP_GPU_ATTR_COOPERATIVE cudaDevAttrCooperativeLaunch
#define HPP_GPU_ATTR_SMS cudaDevAttrMultiProcessorCount
#define HPP_GPU_ATTR_MAX_SHARED cudaDevAttrMaxSharedMemoryPerBlockOptin
#define HPP_GPU_ATTR_MAX_THREADS cudaDevAttrMaxThreadsPerBlock
#endif

#include "hpp/backend/gpu_devices.h"       // After the backend's runtime
#include "hpp/backend/gpu_stream_launch.h" // header, which they need.
#include "hpp/launch_graph.h"

#include <atomic>
#include <cstddef>
#include <cstring>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace hpp {
namespace detail {

/// Reads cudaError_t / hipError_t for HPP_CHECK.
template <> struct BackendErrorTraits<HPP_GPU(Error_t)> {
  static bool isSuccess(HPP_GPU(Error_t) E) { return E == HPP_GPU(Success); }
  static const char *message(HPP_GPU(Error_t) E) {
    return HPP_GPU(GetErrorString)(E);
  }
  static void clear() { (void)HPP_GPU(GetLastError)(); }
};

/// The device kernels run on, and what it supports.
struct DeviceTarget {
  int Id = 0;
  bool ConcurrentManagedAccess = false;
};

/// The current device; its attribute is asked once per device, not at
/// every launch with a Pointer argument (which asks for it).
inline DeviceTarget currentDeviceTarget() {
  DeviceTarget T;
  HPP_CHECK(HPP_GPU(GetDevice)(&T.Id));
  static std::atomic<int> Known[64]; // 0: not asked yet; 1: no; 2: yes.
  const bool Cached = T.Id >= 0 && T.Id < 64;
  int K = Cached ? Known[T.Id].load(std::memory_order_relaxed) : 0;
  if (!K) {
    int Concurrent = 0;
    HPP_CHECK(HPP_GPU(DeviceGetAttribute)(
        &Concurrent, HPP_GPU_ATTR_CONCURRENT_MANAGED, T.Id));
    K = Concurrent ? 2 : 1;
    if (Cached)
      Known[T.Id].store(K, std::memory_order_relaxed);
  }
  T.ConcurrentManagedAccess = K == 2;
  return T;
}

/// \p Bytes (> 0) of zeroed managed memory (on HIP advised coarse-grained
/// for the current device).
inline void *allocateManagedBytes(std::size_t Bytes) {
  void *P = nullptr;
  HPP_CHECK(HPP_GPU(MallocManaged)(&P, Bytes, HPP_GPU(MemAttachGlobal)));
  try {
#if defined(HPP_BACKEND_HIP)
    int Device = 0;
    HPP_CHECK(hipGetDevice(&Device));
    HPP_CHECK(hipMemAdvise(P, Bytes, hipMemAdviseSetCoarseGrain, Device));
#endif
    HPP_CHECK(HPP_GPU(Memset)(P, 0, Bytes));
    HPP_CHECK(HPP_GPU(DeviceSynchronize)());
  } catch (...) {
    (void)HPP_GPU(Free)(P);
    throw;
  }
  return P;
}

/// allocateManagedBytes with device \p Dev current, placed there
/// (adviseDevice).
inline void *allocateManagedBytesOn(std::size_t Bytes, int Dev) {
  DeviceScope Scope(Dev);
  void *P = allocateManagedBytes(Bytes);
  try {
    adviseDevice(P, Bytes, Dev);
  } catch (...) {
    (void)HPP_GPU(Free)(P);
    throw;
  }
  return P;
}

inline void freeManagedBytes(void *P) { HPP_CHECK(HPP_GPU(Free)(P)); }

/// allocateHost's memory: \p Bytes (> 0) of zeroed page-locked host memory
/// (cudaMallocHost / hipHostMalloc), mapped for every device.
inline void *allocateHostBytes(std::size_t Bytes) {
  void *P = nullptr;
#if defined(HPP_BACKEND_HIP)
  HPP_CHECK(hipHostMalloc(&P, Bytes, hipHostMallocDefault));
#else
  HPP_CHECK(cudaMallocHost(&P, Bytes));
#endif
  std::memset(P, 0, Bytes);
  return P;
}

/// Frees allocateHostBytes' memory; like cudaFree, it waits for the
/// device.
inline void freeHostBytes(void *P) {
#if defined(HPP_BACKEND_HIP)
  HPP_CHECK(hipHostFree(P));
#else
  HPP_CHECK(cudaFreeHost(P));
#endif
}

/// Memory from allocate needs no bookkeeping on the GPU backends.
inline void recordAllocationSite(const void *, std::size_t, int, const char *,
                                 int) {}
inline void forgetAllocationSite(const void *) {}

/// Migrates managed memory to the launch device ahead of a kernel (null
/// stream, so it is ordered before the launch).
inline void prefetchToDevice(const DeviceTarget &T, const void *P,
                             std::size_t Bytes) {
#if defined(HPP_BACKEND_CUDA) && CUDART_VERSION >= 13000
  cudaMemLocation Location{};
  Location.type = cudaMemLocationTypeDevice;
  Location.id = T.Id;
  HPP_CHECK(cudaMemPrefetchAsync(P, Bytes, Location, 0, 0));
#else
  HPP_CHECK(HPP_GPU(MemPrefetchAsync)(P, Bytes, T.Id, 0));
#endif
}

/// Device blocks of ScratchBlockBytes kept between launches (allocating
/// and freeing them cost ~50 us per launch), one pool per device: a launch
/// takes them from its device's and gives them back.
constexpr std::size_t ScratchBlockBytes = 256;
struct ScratchPool {
  std::mutex Lock;
  std::vector<void *> Free;
  static ScratchPool &get(int Device) {
    static ScratchPool *Pools = new ScratchPool[MaxDevices]; // Never freed.
    return Pools[Device];
  }
};

inline void *LaunchScratch::zeroed(std::size_t Bytes) {
  if (Bytes > ScratchBlockBytes)
    throw RuntimeError("hpp::launchKernel", __FILE__, __LINE__,
                       "launch scratch of " + std::to_string(Bytes) +
                           " bytes exceeds a block");
  void *P = nullptr;
  const int Dev = launchDeviceId();
  if (Device < 0)
    Device = Dev;
  else if (Device != Dev)
    throw RuntimeError("hpp::launchKernel", __FILE__, __LINE__,
                       "one launch's scratch on two devices");
  {
    ScratchPool &Pool = ScratchPool::get(Device);
    std::lock_guard<std::mutex> Guard(Pool.Lock);
    if (!Pool.Free.empty()) {
      P = Pool.Free.back();
      Pool.Free.pop_back();
    }
  }
  if (!P)
    HPP_CHECK(HPP_GPU(Malloc)(&P, ScratchBlockBytes));
  Blocks.push_back(P);
  // Ordered before the kernel on its stream.
  flushLaunchRecording();
  HPP_CHECK(HPP_GPU(MemsetAsync)(P, 0, Bytes,
                                 static_cast<HPP_GPU(Stream_t)>(Stream)));
  return P;
}
inline void LaunchScratch::release() noexcept {
  cancelAfterLaunch();
  if (Blocks.empty())
    return;
  // The launch has finished (launchOnBackend synchronises, or the task
  // that kept this scratch has completed): reuse them.
  ScratchPool &Pool = ScratchPool::get(Device);
  std::lock_guard<std::mutex> Guard(Pool.Lock);
  Pool.Free.insert(Pool.Free.end(), Blocks.begin(), Blocks.end());
  Blocks.clear();
  Device = -1;
}
inline LaunchScratch::~LaunchScratch() { release(); }

/// Refuses a cooperative launch of \p Func whose \p Grid cannot be
/// resident at once on the current device: it would hang, or fail with a
/// less clear error.
inline void checkCoResident(const void *Func, dim3 Grid, dim3 Block,
                            std::size_t SharedBytes) {
  int Device = 0, Supported = 0, SMs = 0, PerSM = 0;
  HPP_CHECK(HPP_GPU(GetDevice)(&Device));
  HPP_CHECK(HPP_GPU(DeviceGetAttribute)(&Supported, HPP_GPU_ATTR_COOPERATIVE,
                                        Device));
  if (!Supported)
    throw RuntimeError("hpp::launchKernel", __FILE__, __LINE__,
                       "a launch with __gpu_sync needs a cooperative launch, "
                       "which device " +
                           std::to_string(Device) + " does not support");
  HPP_CHECK(HPP_GPU(DeviceGetAttribute)(&SMs, HPP_GPU_ATTR_SMS, Device));
  const int Threads = int(Block.x * Block.y * Block.z);
  // The occupancy query costs microseconds: remembered per kernel and shape.
  using OccupancyKey = std::tuple<const void *, int, int, std::size_t>;
  static std::mutex Lock;
  static std::map<OccupancyKey, int> Known;
  const OccupancyKey Key(Func, Device, Threads, SharedBytes);
  {
    std::lock_guard<std::mutex> Guard(Lock);
    auto It = Known.find(Key);
    if (It != Known.end())
      PerSM = It->second;
  }
  if (!PerSM) {
    HPP_CHECK(HPP_GPU(OccupancyMaxActiveBlocksPerMultiprocessor)(
        &PerSM, Func, Threads, SharedBytes));
    std::lock_guard<std::mutex> Guard(Lock);
    Known[Key] = PerSM;
  }
  const unsigned long long Groups =
      (unsigned long long)Grid.x * Grid.y * Grid.z;
  const unsigned long long Resident = (unsigned long long)PerSM * SMs;
  if (Groups > Resident)
    throw RuntimeError(
        "hpp::launchKernel", __FILE__, __LINE__,
        "a launch with __gpu_sync needs its " + std::to_string(Groups) +
            " work-groups of " + std::to_string(Threads) +
            " work-items resident at once; device " + std::to_string(Device) +
            " holds at most " + std::to_string(Resident) + " of this kernel (" +
            std::to_string(PerSM) + " per multiprocessor x " +
            std::to_string(SMs) + ")");
}

/// The most dynamic shared memory a work-group may have on the current
/// device (on CUDA the opt-in maximum, which launchOnBackend opts into).
inline std::size_t maxDynamicSharedBytes() {
  int Device = 0, Bytes = 0;
  HPP_CHECK(HPP_GPU(GetDevice)(&Device));
  HPP_CHECK(
      HPP_GPU(DeviceGetAttribute)(&Bytes, HPP_GPU_ATTR_MAX_SHARED, Device));
  return std::size_t(Bytes);
}

/// The most work-items a work-group may have on the current device (1024
/// on NVIDIA and AMD GPUs).
inline std::size_t maxWorkGroupItems() {
  int Device = 0, Items = 0;
  HPP_CHECK(HPP_GPU(GetDevice)(&Device));
  HPP_CHECK(
      HPP_GPU(DeviceGetAttribute)(&Items, HPP_GPU_ATTR_MAX_THREADS, Device));
  return std::size_t(Items);
}

/// Lets \p Func use \p Bytes of dynamic shared memory, or refuses.
inline void prepareSharedMemory(const void *Func, std::size_t Bytes) {
  const std::size_t Max = maxDynamicSharedBytes();
  if (Bytes > Max)
    throw RuntimeError("hpp::launchKernel", __FILE__, __LINE__,
                       "the launch's distributed array needs " +
                           std::to_string(Bytes) +
                           " bytes of shared memory per work-group; the "
                           "device has " +
                           std::to_string(Max));
#if defined(HPP_BACKEND_CUDA)
  if (Bytes > 48 * 1024) // Beyond the default, CUDA needs an opt-in.
    HPP_CHECK(cudaFuncSetAttribute(
        Func, cudaFuncAttributeMaxDynamicSharedMemorySize, int(Bytes)));
#else
  (void)Func;
#endif
}

/// Whether a launch with LaunchOptions::WaitsInKernel is made as a
/// programmatic dependent launch: CUDA (11.8 and later) on a device of
/// compute capability 9.0 or later, unless HPP_PROGRAMMATIC_LAUNCH=0. HIP
/// has no such launch.
inline bool programmaticLaunch() {
#if defined(HPP_BACKEND_CUDA) && CUDART_VERSION >= 11080
  static const bool Enabled = [] {
    const char *Env = std::getenv("HPP_PROGRAMMATIC_LAUNCH");
    return !(Env && std::string(Env) == "0");
  }();
  if (!Enabled)
    return false;
  static int Known[64]; // 0: not asked yet; 1: no; 2: yes.
  int Device = 0;
  HPP_CHECK(cudaGetDevice(&Device));
  if (Device < 0 || Device >= 64)
    return false;
  if (!Known[Device]) {
    int Major = 0;
    HPP_CHECK(cudaDeviceGetAttribute(&Major, cudaDevAttrComputeCapabilityMajor,
                                     Device));
    Known[Device] = Major >= 9 ? 2 : 1;
  }
  return Known[Device] == 2;
#else
  return false;
#endif
}

/// A programmatic dependent launch of \p Func (see programmaticLaunch): it
/// may be scheduled before the kernel ahead of it on \p Stream has
/// finished, and waits for it in its code (griddepcontrol.wait).
template <class StreamT>
void launchProgrammatic(const void *Func, dim3 Grid, dim3 Block, void **ArgPtrs,
                        std::size_t Shared, StreamT Stream) {
#if defined(HPP_BACKEND_CUDA) && CUDART_VERSION >= 11080
  launchKernelEx(Func, Grid, Block, ArgPtrs, Shared, Stream, true);
#else
  (void)Func, (void)Grid, (void)Block, (void)ArgPtrs, (void)Shared,
      (void)Stream;
#endif
}

/// Launches \p Kernel with the range and the converted arguments, then waits
/// for it (parallelFor blocks).
template <class KernelT, class RangeT, class... P, std::size_t... I>
void launchOnBackend(KernelT *Kernel, dim3 Grid, dim3 Block, RangeT &RangeArg,
                     std::tuple<P...> &Args, const LaunchOptions &Options,
                     std::index_sequence<I...>) {
  void *ArgPtrs[] = {static_cast<void *>(&RangeArg),
                     static_cast<void *>(&std::get<I>(Args))...};
  const void *Func = reinterpret_cast<const void *>(Kernel);
  const std::size_t Shared = Options.SharedBytes;
  const auto Stream = static_cast<HPP_GPU(Stream_t)>(Options.Stream);
  if (Shared)
    prepareSharedMemory(Func, Shared);
  const bool Programmatic = Options.WaitsInKernel && !Options.Cooperative &&
                            Stream && programmaticLaunch();
  // Behind a launch with after-launch work: recorded, and made with it
  // (hpp/launch_graph.h).
  if (LaunchGraph *G = LaunchGraph::recording()) {
    const std::size_t Sizes[] = {sizeof(RangeArg),
                                 sizeof(std::get<I>(Args))...};
    if (Options.Cooperative)
      G->flush();
    else if (G->record(Func, Grid, Block, Shared, Programmatic, ArgPtrs, Sizes,
                       sizeof...(I) + 1, Stream))
      return;
  }
  if (Programmatic) {
    launchProgrammatic(Func, Grid, Block, ArgPtrs, Shared, Stream);
  } else if (Options.Cooperative) {
    checkCoResident(Func, Grid, Block, Shared);
    HPP_CHECK(HPP_GPU(LaunchCooperativeKernel)(Func, Grid, Block, ArgPtrs,
                                               unsigned(Shared), Stream));
  } else if (Stream) {
    launchOnStream(Func, Grid, Block, ArgPtrs, Shared, Stream);
  } else {
    HPP_CHECK(
        HPP_GPU(LaunchKernel)(Func, Grid, Block, ArgPtrs, Shared, Stream));
  }
  if (!Stream) // A task's launch (hpp/task.h) is waited for by its future.
    HPP_CHECK(HPP_GPU(DeviceSynchronize)());
}

/// The stream of a launch with after-launch work (launch.h: a launch that
/// writes a channel), on the launch's device. A blocking stream (not
/// StreamNonBlocking), so that it stays ordered with the null stream that
/// the other blocking launches, the scratch zeroing and the consumer
/// launches use; made once per device, never destroyed.
inline void *afterLaunchStream() {
  static std::mutex Lock;
  static HPP_GPU(Stream_t) Streams[MaxDevices] = {};
  const int Dev = launchDeviceId();
  std::lock_guard<std::mutex> Guard(Lock);
  if (!Streams[Dev])
    HPP_CHECK(HPP_GPU(StreamCreate)(&Streams[Dev]));
  return Streams[Dev];
}

void checkDeferredDeviceErrors(int Device); // hpp/device_error.h

/// Waits for a launch with after-launch work and what was enqueued behind
/// it; as a blocking launch does, for the whole device. Then throws the
/// first error the device code of the launches made on that stream without
/// a wait recorded (a channel's consumers: hpp/device_error.h).
inline void waitForAfterLaunch(void *) {
  flushLaunchRecording();
  HPP_CHECK(HPP_GPU(DeviceSynchronize)());
  checkDeferredDeviceErrors(launchDeviceId());
}

/// Before a blocking launch (a parallelFor) at \p File : \p Line: when a
/// task nobody waits for any more (an orphan: hpp/core/work.h) may still be
/// running, waits for it and throws its error, if it failed, instead of
/// launching (docs/dialect.md, "Errors in tasks": the parallelFor that
/// reports such an error does not run its own launch, as on the CPU,
/// where the orphans are settled before the launch). Without orphans, one
/// load: the launch's device-wide synchronisation completes every other
/// task.
inline void beforeBlockingLaunch(const char *File, int Line) {
  if (Orphans::get().pending())
    Orphans::get().settle(File, Line);
}
/// After it, at \p File : \p Line: the errors of tasks nobody waited for
/// (those orphaned while it ran: a channel's).
inline void afterBlockingLaunch(const char *File, int Line) {
  if (Orphans::get().pending())
    Orphans::get().settle(File, Line);
}

/// The warp (wavefront) size device \p DeviceId reports: 32 or 64.
inline int queryWarpSize(int DeviceId) {
  int Size = 0;
  HPP_CHECK(
      HPP_GPU(DeviceGetAttribute)(&Size, HPP_GPU_ATTR_WARP_SIZE, DeviceId));
  return Size;
}

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_GPU_H
