//===- hpp/backend/gpu_select.h - Stream compaction on CUDA and HIP -------===//
//
// Part of hpp-rewrite. Device runtime, GPU backends (nvcc; hipcc, HIP 5.2
// to ROCm 7.x).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp::select on a GPU (hpp/core/algorithms.h): the elements x of
/// in[0 .. n) with pred(x), copied to out in their order, in one pass over
/// the input with a decoupled look-back on the kept counts.
///
/// Each work-group of SelectThreads work-items takes the next tile of
/// SelectTuning<T>::Items elements per work-item from an atomic counter (so
/// the tiles start in the order of their ids, and every tile a work-group
/// waits for has started), loads it striped (element k * SelectThreads + t
/// of the tile in work-item t: coalesced), and ranks its kept elements with
/// 32-lane ballots (hpp::warp32: the warp on CUDA, each half of a wave64
/// wavefront, the whole of a wave32 one) and a scan of the per-row,
/// per-segment counts by the first 32 work-items. Those then publish the
/// tile's count (Aggregate), look back over the 32 tiles before it at a
/// time until one with an inclusive prefix, and publish the tile's own
/// (Prefix). The kept elements are staged in shared memory in their order
/// and written out coalesced at the tile's offset. The last tile writes the
/// total count.
///
/// A tile's status is one 64-bit word, the flag in its top two bits and the
/// count below, written and read whole (relaxed atomics: nothing else is
/// read through it), zeroed before every call with the tile counter.
///
/// selectAsync is the stream-ordered piece (bench/ times it against CUB);
/// select, the blocking call, prefetches its Pointers, takes the device's
/// scratch (gpu_scratch.h), enqueues on the legacy default stream and
/// waits; its count goes straight to pinned host memory mapped into the
/// device (no copy after the kernel).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_GPU_SELECT_H
#define HPP_RUNTIME_BACKEND_GPU_SELECT_H

#include "hpp/backend/gpu.h"
#include "hpp/backend/gpu_scratch.h"
#include "hpp/core/error.h"
#include "hpp/core/pointer.h"
#include "hpp/prefetch.h"
#include "hpp/warp.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>

namespace hpp {
namespace detail {
namespace gpu {

/// Work-items per work-group of the select kernel.
constexpr int SelectThreads = 256;
/// 32-lane segments per work-group (warps on CUDA, half-wavefronts on
/// wave64).
constexpr int SelectSegments = SelectThreads / 32;

/// Elements per work-item of types up to 4 bytes (8-byte ones take half):
/// 16 by default, 16 KiB of elements per tile; -DHPP_SELECT_ITEMS=N (a
/// multiple of 8 from 8 to 32) tunes it.
#ifndef HPP_SELECT_ITEMS
#define HPP_SELECT_ITEMS 16
#endif

/// Elements per work-item and per tile.
template <class T> struct SelectTuning {
  static_assert(HPP_SELECT_ITEMS % 8 == 0 && HPP_SELECT_ITEMS >= 8 &&
                    HPP_SELECT_ITEMS <= 32,
                "HPP_SELECT_ITEMS: a multiple of 8 from 8 to 32");
  static constexpr int Items =
      sizeof(T) >= 8 ? HPP_SELECT_ITEMS / 2 : HPP_SELECT_ITEMS;
  static constexpr int Tile = SelectThreads * Items;
};

/// The work-groups per multiprocessor the select kernel is built for (its
/// registers: 40 at 16 elements per work-item on sm_90, no spills).
constexpr int SelectMinGroups = HPP_SELECT_ITEMS > 16 ? 4 : 6;

/// The flags of a tile's status word (its top two bits); the count is below.
constexpr unsigned long long SelectAggregate = 1ull << 62;
constexpr unsigned long long SelectPrefix = 2ull << 62;
constexpr unsigned long long SelectCountMask = (1ull << 62) - 1;

/// A tile status, read whole.
HPP_DEVICE inline unsigned long long selectLoadStatus(unsigned long long *P) {
#if defined(HPP_BACKEND_HIP)
  return __hip_atomic_load(P, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
#else
  return *reinterpret_cast<volatile unsigned long long *>(P);
#endif
}

/// Publishes a tile status, written whole.
HPP_DEVICE inline void selectStoreStatus(unsigned long long *P,
                                         unsigned long long V) {
#if defined(HPP_BACKEND_HIP)
  __hip_atomic_store(P, V, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
#else
  *reinterpret_cast<volatile unsigned long long *>(P) = V;
#endif
}

/// The exclusive prefix of tile \p Tile (> 0): the kept counts of the tiles
/// before it, summed by the 32 lanes of a segment over 32 predecessors at a
/// time, back to the nearest one with an inclusive prefix. Called by all 32
/// lanes of one segment.
HPP_DEVICE inline unsigned long long selectLookBack(unsigned long long *Status,
                                                    unsigned Tile, int Lane) {
  unsigned long long Exclusive = 0;
  long long Pred = (long long)Tile - 1 - Lane;
  for (;;) {
    unsigned long long S;
    // Before a tile id less than 0 is reached, tile 0 (a prefix) is.
    do
      S = Pred >= 0 ? selectLoadStatus(Status + Pred) : SelectPrefix;
    while (warp32::anySync(0xffffffffu, (S >> 62) == 0));
    const unsigned Prefixes =
        warp32::ballotSync(0xffffffffu, (S >> 62) == (SelectPrefix >> 62));
    // Lanes up to the nearest prefix (the lowest lane with one) count.
    const int Nearest = Prefixes ? __ffs(int(Prefixes)) - 1 : 31;
    unsigned long long Value = Lane <= Nearest ? (S & SelectCountMask) : 0;
    for (int D = 16; D > 0; D >>= 1)
      Value += warp32::shflXorSync(0xffffffffu, Value, D);
    Exclusive += Value;
    if (Prefixes)
      return Exclusive;
    Pred -= 32;
  }
}

/// One tile per work-group (see the file comment). \p Status holds a zeroed
/// word per tile, \p TileCounter a zeroed counter. (On HIP the second
/// bound asks for SelectMinGroups waves per SIMD, which the kernel's 36 to
/// 56 VGPRs give anyway.)
template <class T, class Pred>
__global__ void __launch_bounds__(SelectThreads, SelectMinGroups)
    selectKernel(const T *__restrict__ In, T *__restrict__ Out, std::size_t N,
                 Pred P, unsigned long long *Status, unsigned *TileCounter,
                 std::size_t *Count, unsigned NumTiles) {
  constexpr int Items = SelectTuning<T>::Items;
  constexpr int TileSize = SelectTuning<T>::Tile;
  constexpr int Entries = Items * SelectSegments;
  constexpr int PerLane = Entries / 32;
  static_assert(Entries % 32 == 0, "the count scan gives each lane as many");
  static_assert(Items <= 32, "the kept flags are one word");
  static_assert(alignof(T) <= 16, "select: elements aligned to at most 16");
  // The staged elements (raw words: T need not be default constructible
  // in shared memory).
  __shared__ uint4 StageWords[(TileSize * sizeof(T) + 15) / 16];
  // Per row of the tile and segment, its kept count, then its offset in
  // the tile.
  __shared__ unsigned RowCounts[Entries];
  __shared__ unsigned SharedTile, SharedTotal;
  __shared__ unsigned long long SharedExclusive;
  T *Stage = reinterpret_cast<T *>(StageWords);

  const int Tid = int(threadIdx.x);
  const int Lane = Tid & 31;
  const int Segment = Tid >> 5;
  if (Tid == 0)
    SharedTile = atomicAdd(TileCounter, 1u);
  __syncthreads();
  const unsigned Tile = SharedTile;
  const std::size_t Base = std::size_t(Tile) * TileSize;
  const bool Full = N - Base >= std::size_t(TileSize);

  T V[Items];
  unsigned Keep = 0; // Bit k: element k of this work-item is kept.
  if (Full) {
#pragma unroll
    for (int K = 0; K < Items; ++K)
      V[K] = In[Base + K * SelectThreads + Tid];
#pragma unroll
    for (int K = 0; K < Items; ++K)
      Keep |= unsigned(bool(P(V[K]))) << K;
  } else {
#pragma unroll
    for (int K = 0; K < Items; ++K) {
      const std::size_t I = Base + K * SelectThreads + Tid;
      if (I < N) {
        V[K] = In[I];
        Keep |= unsigned(bool(P(V[K]))) << K;
      }
    }
  }
#pragma unroll
  for (int K = 0; K < Items; ++K) {
    const unsigned Row = warp32::ballotSync(0xffffffffu, (Keep >> K) & 1);
    if (Lane == 0)
      RowCounts[K * SelectSegments + Segment] = __popc(Row);
  }
  __syncthreads();

  // The offsets of the rows' segments in the tile (in the order of the
  // elements: row, then segment, then lane) and the tile's count.
  if (Tid < 32) {
    unsigned C[PerLane];
    unsigned Sum = 0;
#pragma unroll
    for (int J = 0; J < PerLane; ++J) {
      C[J] = RowCounts[Tid * PerLane + J];
      Sum += C[J];
    }
    unsigned Inclusive = Sum;
#pragma unroll
    for (int D = 1; D < 32; D <<= 1) {
      const unsigned Up = warp32::shflUpSync(0xffffffffu, Inclusive, D);
      if (Lane >= D)
        Inclusive += Up;
    }
    unsigned Offset = Inclusive - Sum;
#pragma unroll
    for (int J = 0; J < PerLane; ++J) {
      RowCounts[Tid * PerLane + J] = Offset;
      Offset += C[J];
    }
    const unsigned Total = warp32::shflSync(0xffffffffu, Inclusive, 31);
    if (Tid == 0) {
      SharedTotal = Total;
      // Early, so that the tiles after this one can look past it.
      selectStoreStatus(Status + Tile,
                        (Tile == 0 ? SelectPrefix : SelectAggregate) | Total);
    }
  }
  __syncthreads();

  // Stage the kept elements in their order.
  const unsigned Below = (1u << Lane) - 1u;
#pragma unroll
  for (int K = 0; K < Items; ++K) {
    const unsigned Row = warp32::ballotSync(0xffffffffu, (Keep >> K) & 1);
    if ((Keep >> K) & 1)
      Stage[RowCounts[K * SelectSegments + Segment] + __popc(Row & Below)] =
          V[K];
  }
  const unsigned Total = SharedTotal;
  if (Tid < 32) {
    unsigned long long Exclusive = 0;
    if (Tile != 0) {
      Exclusive = selectLookBack(Status, Tile, Lane);
      if (Tid == 0)
        selectStoreStatus(Status + Tile, SelectPrefix | (Exclusive + Total));
    }
    if (Tid == 0) {
      SharedExclusive = Exclusive;
      if (Tile == NumTiles - 1)
        *Count = std::size_t(Exclusive + Total);
    }
  }
  __syncthreads();

  // Out, coalesced.
  T *Dest = Out + SharedExclusive;
  for (unsigned I = unsigned(Tid); I < Total; I += SelectThreads)
    Dest[I] = Stage[I];
}

/// Tiles of \p N elements of T.
template <class T> constexpr std::size_t selectTiles(std::size_t N) {
  return (N + SelectTuning<T>::Tile - 1) / SelectTuning<T>::Tile;
}

/// Scratch bytes selectAsync needs for \p N elements of T: the tile
/// counter, then a status word per tile.
template <class T> constexpr std::size_t selectScratchBytes(std::size_t N) {
  return 256 + scratchRound(selectTiles<T>(N) * sizeof(unsigned long long));
}

/// Enqueues on \p Stream the select of the elements x of In[0 .. N) with
/// P(x) to Out (apart from In, room for N), and the number kept to
/// \p *Count (device memory). \p Scratch: selectScratchBytes<T>(N) bytes of
/// device memory, 256-byte aligned, unused by anything else until the work
/// is done. Does not wait.
template <class T, class Pred>
void selectAsync(HPP_GPU(Stream_t) Stream, const T *In, T *Out, std::size_t N,
                 Pred P, std::size_t *Count, void *Scratch,
                 const char *File = __FILE__, int Line = __LINE__) {
  if (N == 0) {
    checkCall(HPP_GPU(MemsetAsync)(Count, 0, sizeof(std::size_t), Stream),
              "MemsetAsync(select count)", File, Line);
    return;
  }
  const std::size_t Tiles = selectTiles<T>(N);
  if (Tiles > 0x7fffffffu)
    throw RuntimeError("select", File, Line,
                       "n = " + std::to_string(N) +
                           " needs more tiles than a launch has work-groups");
  checkCall(HPP_GPU(MemsetAsync)(Scratch, 0, selectScratchBytes<T>(N), Stream),
            "MemsetAsync(select scratch)", File, Line);
  auto *Counter = static_cast<unsigned *>(Scratch);
  auto *Status = reinterpret_cast<unsigned long long *>(
      static_cast<char *>(Scratch) + 256);
  selectKernel<T, Pred><<<unsigned(Tiles), SelectThreads, 0, Stream>>>(
      In, Out, N, P, Status, Counter, Count, unsigned(Tiles));
  checkCall(HPP_GPU(GetLastError)(), "select kernel launch", File, Line);
}

/// The current device's pinned, device-mapped host word that the blocking
/// select's last tile writes its count to (read after the wait, no copy).
/// Called while holding the device's ScratchLease, which serialises its
/// users; made once per device, never freed.
inline std::size_t *selectHostCount(const char *File, int Line) {
  static std::size_t *Words[MaxScratchDevices] = {};
  int Device = 0;
  checkCall(HPP_GPU(GetDevice)(&Device), "GetDevice", File, Line);
  if (!Words[Device]) {
    void *P = nullptr;
#if defined(HPP_BACKEND_HIP)
    checkCall(hipHostMalloc(&P, sizeof(std::size_t),
                            hipHostMallocMapped | hipHostMallocCoherent),
              "HostMalloc(select count)", File, Line);
#else
    checkCall(cudaHostAlloc(&P, sizeof(std::size_t), cudaHostAllocMapped),
              "HostAlloc(select count)", File, Line);
#endif
    Words[Device] = static_cast<std::size_t *>(P);
  }
  return Words[Device];
}

/// The blocking select of hpp/core/algorithms.h (see the file comment).
template <class T, class Pred>
std::size_t select(Pointer<T> In, Pointer<T> Out, std::size_t N, Pred P,
                   const char *File, int Line) {
  // On the input's device (docs/devices.md).
  const DeviceScope OnDevice(In.getDevice().getId());
  beforeBlockingLaunch(File, Line);
  if (N == 0)
    return 0;
  prefetchPointers(std::make_tuple(In, Out));
  flushLaunchRecording();
  ScratchLease Lease(selectScratchBytes<T>(N), File, Line);
  std::size_t *HostCount = selectHostCount(File, Line);
  void *DeviceCount = nullptr;
  checkCall(HPP_GPU(HostGetDevicePointer)(&DeviceCount, HostCount, 0),
            "HostGetDevicePointer(select count)", File, Line);
  selectAsync<T, Pred>(0, In.get(), Out.get(), N, P,
                       static_cast<std::size_t *>(DeviceCount), Lease.get(),
                       File, Line);
  checkCall(HPP_GPU(StreamSynchronize)(0), "select", File, Line);
  const std::size_t Kept = *static_cast<volatile std::size_t *>(HostCount);
  afterBlockingLaunch(File, Line);
  return Kept;
}

} // namespace gpu
} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_GPU_SELECT_H
