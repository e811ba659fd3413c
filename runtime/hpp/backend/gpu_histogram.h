//===- hpp/backend/gpu_histogram.h - Even-bin histograms on CUDA and HIP --===//
//
// Part of hpp-rewrite. Device runtime, GPU backends (nvcc; hipcc, HIP 5.2
// to ROCm 7.x).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp::histogram on a GPU (hpp/core/algorithms.h): bins[b] = the number of
/// samples of in[0 .. n) in even bin b, as EvenBins<T> defines it.
///
/// The bins are zeroed (memsetAsync), then a grid of about as many
/// work-groups as the device holds at once sweeps the input, grid-strided,
/// in 16-byte loads (four per iteration in flight) between a scalar head up
/// to the first 16-byte boundary and a scalar tail. Each work-group counts
/// in a private histogram of 32-bit counters in shared memory (shared
/// atomics) and adds it to the bins with one atomic per non-zero bin at the
/// end; beyond HistogramSharedBins bins it counts with atomics on the bins
/// themselves. A work-group counts fewer than 2^31 samples, so its counters
/// cannot wrap.
///
/// The bin of a sample is EvenBins<T>'s: floating point through EvenBins
/// itself (the same operations, so the same bits, as the host's); integers
/// through the same formula with a 32-bit division where the product fits
/// (it is exact either way), and 8-bit samples through a table of the 256
/// values' bins in shared memory.
///
/// histogramAsync is the stream-ordered piece (bench/ times it against
/// CUB); histogram, the blocking call, prefetches its Pointers, enqueues on
/// the legacy default stream and waits. Neither needs scratch memory.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_GPU_HISTOGRAM_H
#define HPP_RUNTIME_BACKEND_GPU_HISTOGRAM_H

#include "hpp/backend/gpu.h"
#include "hpp/check.h"
#include "hpp/core/pointer.h"
#include "hpp/prefetch.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>
#include <type_traits>

namespace hpp {
namespace detail {

// hpp/core/algorithms.h, which is included after this header (it calls
// the functions here), defines it; it is complete where they are
// instantiated.
template <class T> struct EvenBins;

namespace gpu {

/// Work-items per work-group of the histogram kernel.
constexpr int HistogramThreads = 256;
/// The most bins counted in shared memory: 47 KiB of 32-bit counters (with
/// the 1 KiB table of 8-bit samples, within the 48 KiB a CUDA work-group
/// has without opting in).
constexpr int HistogramSharedBins = 12032;
/// The most samples one work-group counts (its counters are 32-bit).
constexpr std::size_t HistogramGroupSamples = std::size_t(1) << 31;

/// The bin of a sample on the device: EvenBins<T>'s, computed faster for
/// integers (see the file comment).
template <class T> struct HistogramBinner {
  EvenBins<T> B;
  long long Lower = 0;
  unsigned long long Span = 0;
  unsigned NumBins = 0;
  bool Narrow = false; // Span * NumBins <= 2^32: 32-bit division.

  explicit HistogramBinner(const EvenBins<T> &B) : B(B) {
    NumBins = unsigned(B.NumBins);
    if constexpr (std::is_integral<T>::value) {
      Lower = (long long)B.Lower;
      Span = (unsigned long long)((long long)B.Upper - (long long)B.Lower);
      Narrow = Span <= 0xffffffffull &&
               Span <= (unsigned long long)(1ull << 32) / NumBins;
    }
  }

  HPP_DEVICE int operator()(T X) const {
    if constexpr (std::is_integral<T>::value) {
      if (!(B.Lower <= X && X < B.Upper))
        return -1;
      const unsigned long long Offset =
          (unsigned long long)((long long)X - Lower);
      if (Narrow)
        return int(unsigned(Offset) * NumBins / unsigned(Span));
      return int(Offset * NumBins / Span);
    } else {
      return B(X);
    }
  }
};

/// *P += V for every bin type (long long through its unsigned twin: the
/// same bits).
template <class C> HPP_DEVICE inline void histogramAdd(C *P, unsigned V) {
  if constexpr (sizeof(C) == 8)
    atomicAdd(reinterpret_cast<unsigned long long *>(P), (unsigned long long)V);
  else
    atomicAdd(reinterpret_cast<unsigned *>(P), V);
}

/// Counts in[0 .. N) into \p Bins (zeroed), in a private histogram of
/// \p NumBins counters in dynamic shared memory when \p Shared, else
/// straight into Bins. \p Head: the samples before the first 16-byte
/// boundary (all of them when the samples are not aligned to their size),
/// counted one by one.
template <class T, class C, bool Shared>
__global__ void __launch_bounds__(HistogramThreads)
    histogramKernel(const T *__restrict__ In, std::size_t N, C *Bins,
                    HistogramBinner<T> Binner, std::size_t Head) {
  extern __shared__ unsigned HistogramCounts[];
  constexpr bool Table = sizeof(T) == 1;
  __shared__ int BinOf[Table ? 256 : 1];
  const int NumBins = int(Binner.NumBins);
  const int Tid = int(threadIdx.x);
  if constexpr (Shared)
    for (int I = Tid; I < NumBins; I += HistogramThreads)
      HistogramCounts[I] = 0;
  if constexpr (Table)
    for (int I = Tid; I < 256; I += HistogramThreads) {
      const unsigned char Byte = (unsigned char)I;
      T X;
      __builtin_memcpy(&X, &Byte, 1);
      BinOf[I] = Binner(X);
    }
  if constexpr (Shared || Table)
    __syncthreads();

  auto Count = [&](T X) {
    int Bin;
    if constexpr (Table) {
      unsigned char Byte;
      __builtin_memcpy(&Byte, &X, 1);
      Bin = BinOf[Byte];
    } else {
      Bin = Binner(X);
    }
    if (Bin >= 0) {
      if constexpr (Shared)
        atomicAdd(&HistogramCounts[Bin], 1u);
      else
        histogramAdd(Bins + Bin, 1u);
    }
  };
  constexpr int PerVector = 16 / int(sizeof(T));
  auto CountVector = [&](const uint4 &W) {
    T E[PerVector];
    __builtin_memcpy(E, &W, 16);
#pragma unroll
    for (int K = 0; K < PerVector; ++K)
      Count(E[K]);
  };

  const std::size_t Item = std::size_t(blockIdx.x) * HistogramThreads + Tid;
  const std::size_t Items = std::size_t(gridDim.x) * HistogramThreads;
  for (std::size_t I = Item; I < Head; I += Items)
    Count(In[I]);
  const std::size_t Vectors = (N - Head) / PerVector;
  const uint4 *In4 = reinterpret_cast<const uint4 *>(In + Head);
  std::size_t V = Item;
  for (; V + 3 * Items < Vectors; V += 4 * Items) {
    const uint4 W0 = In4[V], W1 = In4[V + Items], W2 = In4[V + 2 * Items],
                W3 = In4[V + 3 * Items];
    CountVector(W0);
    CountVector(W1);
    CountVector(W2);
    CountVector(W3);
  }
  for (; V < Vectors; V += Items)
    CountVector(In4[V]);
  for (std::size_t I = Head + Vectors * PerVector + Item; I < N; I += Items)
    Count(In[I]);

  if constexpr (Shared) {
    __syncthreads();
    for (int I = Tid; I < NumBins; I += HistogramThreads)
      if (const unsigned K = HistogramCounts[I])
        histogramAdd(Bins + I, K);
  }
}

/// Work-groups of \p Kernel (with \p SharedBytes of dynamic shared memory)
/// the current device holds at once; asked once per device, kernel and
/// size.
inline unsigned histogramResidentGroups(const void *Kernel,
                                        std::size_t SharedBytes,
                                        const char *File, int Line) {
  int Device = 0;
  checkCall(HPP_GPU(GetDevice)(&Device), "GetDevice", File, Line);
  using Key = std::tuple<int, const void *, std::size_t>;
  static std::mutex Lock;
  static std::map<Key, unsigned> Known;
  const Key K(Device, Kernel, SharedBytes);
  {
    std::lock_guard<std::mutex> Guard(Lock);
    auto It = Known.find(K);
    if (It != Known.end())
      return It->second;
  }
  int SMs = 0, PerSM = 0;
  checkCall(HPP_GPU(DeviceGetAttribute)(&SMs, HPP_GPU_ATTR_SMS, Device),
            "DeviceGetAttribute", File, Line);
  checkCall(HPP_GPU(OccupancyMaxActiveBlocksPerMultiprocessor)(
                &PerSM, Kernel, HistogramThreads, SharedBytes),
            "OccupancyMaxActiveBlocksPerMultiprocessor", File, Line);
  const unsigned Groups =
      unsigned((SMs > 0 ? SMs : 1) * (PerSM > 0 ? PerSM : 1));
  std::lock_guard<std::mutex> Guard(Lock);
  Known[K] = Groups;
  return Groups;
}

/// Scratch bytes histogramAsync needs: none (for symmetry with the others).
template <class T> constexpr std::size_t histogramScratchBytes(std::size_t) {
  return 0;
}

/// Enqueues on \p Stream the histogram of In[0 .. N) into
/// Bins[0 .. B.NumBins) (device memory, overwritten). Does not wait.
template <class T, class C>
void histogramAsync(HPP_GPU(Stream_t) Stream, const T *In, std::size_t N,
                    C *Bins, const EvenBins<T> &B, const char *File = __FILE__,
                    int Line = __LINE__) {
  static_assert(std::is_integral<C>::value && sizeof(C) >= 4 && sizeof(C) <= 8,
                "histogram: bins count in int, unsigned, long long or "
                "unsigned long long");
  checkCall(
      HPP_GPU(MemsetAsync)(Bins, 0, std::size_t(B.NumBins) * sizeof(C), Stream),
      "MemsetAsync(histogram bins)", File, Line);
  if (N == 0)
    return;
  const bool Shared = B.NumBins <= HistogramSharedBins;
  const std::size_t SharedBytes =
      Shared ? std::size_t(B.NumBins) * sizeof(unsigned) : 0;
  const void *Kernel =
      Shared ? reinterpret_cast<const void *>(&histogramKernel<T, C, true>)
             : reinterpret_cast<const void *>(&histogramKernel<T, C, false>);
  // As many work-groups as fit at once, fewer for a small input (16
  // samples a work-item), more where a work-group would count 2^31.
  std::size_t Groups = histogramResidentGroups(Kernel, SharedBytes, File, Line);
  const std::size_t Wanted =
      (N + 16 * HistogramThreads - 1) / (16 * HistogramThreads);
  if (Wanted < Groups)
    Groups = Wanted;
  const std::size_t AtLeast =
      (N + HistogramGroupSamples - 1) / HistogramGroupSamples;
  if (Groups < AtLeast)
    Groups = AtLeast;
  const auto Address = reinterpret_cast<std::uintptr_t>(In);
  std::size_t Head = N;
  if (Address % sizeof(T) == 0) {
    Head = (16 - Address % 16) % 16 / sizeof(T);
    if (Head > N)
      Head = N;
  }
  const HistogramBinner<T> Binner(B);
  if (Shared)
    histogramKernel<T, C, true>
        <<<unsigned(Groups), HistogramThreads, SharedBytes, Stream>>>(
            In, N, Bins, Binner, Head);
  else
    histogramKernel<T, C, false>
        <<<unsigned(Groups), HistogramThreads, 0, Stream>>>(In, N, Bins, Binner,
                                                            Head);
  checkCall(HPP_GPU(GetLastError)(), "histogram kernel launch", File, Line);
}

/// The blocking histogram of hpp/core/algorithms.h (see the file comment).
template <class T, class C>
void histogram(Pointer<T> In, std::size_t N, Pointer<C> Bins,
               const EvenBins<T> &B, const char *File, int Line) {
  // On the input's device (docs/devices.md).
  const DeviceScope OnDevice(In.getDevice().getId());
  beforeBlockingLaunch(File, Line);
  prefetchPointers(std::make_tuple(In, Bins));
  flushLaunchRecording();
  histogramAsync<T, C>(0, In.get(), N, Bins.get(), B, File, Line);
  checkCall(HPP_GPU(StreamSynchronize)(0), "histogram", File, Line);
  afterBlockingLaunch(File, Line);
}

} // namespace gpu
} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_GPU_HISTOGRAM_H
