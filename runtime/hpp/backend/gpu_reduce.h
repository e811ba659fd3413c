//===- hpp/backend/gpu_reduce.h - Device-wide reduce on CUDA and HIP ------===//
//
// Part of hpp-rewrite. Device runtime, GPU backends.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp::reduce on a GPU, in the order of hpp/core/algorithm_order.h (the
/// same bits as refReduce, on NVIDIA and on AMD wave32 and wave64):
///  - one 32-lane segment (gpu_segment.h) reduces one tile of
///    ReduceShape<T>::Tile elements: lane l folds its Vec accumulators over
///    k = 0 .. Iters - 1, ReduceUnroll loads in flight at a time (16-byte
///    vector loads where the tile is 16-byte aligned and Vec elements make
///    16 bytes, scalar loads otherwise: the order is by element index, so
///    both give the same bits), then the balanced tree of its accumulators
///    and the down-tree over the segment's lanes;
///  - reduceTilesKernel: a work-group's 8 segments reduce 8 consecutive
///    tiles, and its first segment folds their values into their node of
///    the pairwise tree (one shared-memory store per segment, one barrier)
///    to scratch (level 1); HPP_REDUCE_GRID and HPP_REDUCE_UNROLL choose
///    the grid and the loads in flight;
///  - reduceTreeKernel (gpu_reduce_tree.h): one work-group folds those
///    nodes by the rest of the pairwise tree, in registers, shuffles and
///    shared memory. HPP_REDUCE_PDL makes it a programmatic dependent
///    launch on CUDA;
///  - reduceFinishKernel: n <= Tile, one tile: one work-group of 512
///    writes init (+) the tile's value. A full tile's 64 steps are split
///    among 4 segments (ReduceChunks), each with its 16 loads in flight at
///    once, which hand the lane's accumulators on, in order, through
///    shared memory (HPP_REDUCE_FINISH 1; 0: one segment, as level 1).
/// n <= Tile takes the finish kernel alone, a larger n the other two.
/// reduceAsync enqueues on a stream; reduce (hpp/core/algorithms.h's)
/// enqueues on the legacy default stream, lets the result land in pinned
/// host memory and waits.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_GPU_REDUCE_H
#define HPP_RUNTIME_BACKEND_GPU_REDUCE_H

#include "hpp/backend/gpu.h"
#include "hpp/backend/gpu_reduce_tile.h"
#include "hpp/backend/gpu_reduce_tree.h"
#include "hpp/backend/gpu_scratch.h"
#include "hpp/backend/gpu_segment.h"
#include "hpp/core/algorithm_order.h"
#include "hpp/core/pointer.h"
#include "hpp/prefetch.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <type_traits>

namespace hpp {
namespace detail {
namespace gpu {

/// reduceTilesKernel's grid (HPP_REDUCE_GRID): -1 the work-groups the
/// device holds at once, segments in a grid-stride loop; 0 (default) one
/// segment per tile; k > 0 at most k work-groups per multiprocessor.
#ifndef HPP_REDUCE_GRID
#define HPP_REDUCE_GRID 0
#endif
/// The finish (HPP_REDUCE_FINISH): 1 (default) every lane of a tile's
/// segment has all its loads in flight at once, the tile's steps split
/// among ReduceChunks segments that hand the accumulators on through
/// shared memory; 0 a segment per tile, ReduceUnroll loads at a time.
#ifndef HPP_REDUCE_FINISH
#define HPP_REDUCE_FINISH 1
#endif

/// 1: on CUDA, where hpp/backend/gpu.h's programmaticLaunch() allows it
/// (compute capability 9.0 on), the finish after reduceTilesKernel is a
/// programmatic dependent launch: it is scheduled while the tiles finish
/// and waits for them (griddepcontrol.wait) before it reads
/// (HPP_REDUCE_PDL, default 1; 0: an ordinary launch).
#ifndef HPP_REDUCE_PDL
#define HPP_REDUCE_PDL 1
#endif

/// Work-groups of reduceTilesKernel a multiprocessor must hold at once:
/// on CUDA 2048 work-items (the most: 8 work-groups of 256; at most 32
/// registers each: the node fold would take 34, and 6 work-groups); on
/// HIP no bound.
#if defined(HPP_BACKEND_CUDA)
constexpr int ReduceTilesGroupsPerSM = 2048 / ReduceThreads;
#else
constexpr int ReduceTilesGroupsPerSM = 1;
#endif

/// Level 1: the node of the pairwise tree over tiles 8b .. 8b + 7 of
/// In[0 .. N) (those present) to NodeValues[b], for every b: the
/// work-group's 8 segments reduce a tile each, and its first segment folds
/// their values by the down-tree; work-groups in a grid-stride loop.
template <class T, class Op>
__global__ void __launch_bounds__(ReduceThreads, ReduceTilesGroupsPerSM)
    reduceTilesKernel(const T *In, std::size_t N, T *NodeValues, Op OpArg) {
  using Shape = ReduceShape<T>;
  Op O = OpArg;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && HPP_REDUCE_PDL
  // The finish may be scheduled (it waits for this grid's end).
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
  __shared__ SharedValues<T, ReduceSegments> TileMemory;
  T *TileValue = TileMemory.get();
  const int Lane = int(threadIdx.x) % SegmentLanes;
  const int Seg = int(threadIdx.x) / SegmentLanes;
  const std::size_t Tiles = (N + Shape::Tile - 1) / Shape::Tile;
  const std::size_t Nodes = (Tiles + ReduceSegments - 1) / ReduceSegments;
  for (std::size_t B = blockIdx.x; B < Nodes; B += gridDim.x) {
    const std::size_t J = B * ReduceSegments + std::size_t(Seg);
    if (J < Tiles) {
      const std::size_t Begin = J * Shape::Tile;
      const std::size_t Count =
          N - Begin < Shape::Tile ? N - Begin : std::size_t(Shape::Tile);
      const T V = reduceTile(In + Begin, Count, Lane, O);
      if (Lane == 0)
        TileValue[Seg] = V;
    }
    __syncthreads(); // The tiles' values are in shared memory.
    if (Seg == 0) {
      // Tile 8b + l is present iff l < Have: a pair is folded iff its
      // right member is present.
      const std::size_t Have = Tiles - B * ReduceSegments;
      T V = TileValue[Lane < ReduceSegments ? Lane : 0];
#pragma unroll
      for (int Off = 1; Off < ReduceSegments; Off *= 2) {
        const T Other = segmentShflDown(V, unsigned(Off));
        if (Lane % (2 * Off) == 0 && std::size_t(Lane + Off) < Have)
          V = O(V, Other);
      }
      if (Lane == 0)
        NodeValues[B] = V;
    }
    __syncthreads(); // TileValue's readers are done.
  }
}

/// The chunked finish (HPP_REDUCE_FINISH 1): a tile's Iters steps in
/// ReduceChunks<T> chunks of ReduceChunkSteps<T>, one segment each, all of
/// a chunk's loads in flight at once; ReduceFinishThreads work-items hold
/// ReduceFinishTiles<T> tiles at a time. For T whose Vec elements are
/// more than 16 bytes, or Iters not a multiple of the chunk, the segment
/// per tile of HPP_REDUCE_FINISH 0.
constexpr int ReduceFinishThreads = 512;
template <class T>
constexpr int ReduceChunkSteps =
    ReduceShape<T>::Iters < 16 ? ReduceShape<T>::Iters : 16;
template <class T>
constexpr int ReduceChunks = ReduceShape<T>::Iters / ReduceChunkSteps<T>;
template <class T>
constexpr bool
    ReduceChunked = HPP_REDUCE_FINISH == 1 &&
                    sizeof(T) * ReduceShape<T>::Vec <= 16 &&
                    ReduceShape<T>::Iters % ReduceChunkSteps<T> == 0 &&
                    ReduceChunks<T> <= ReduceFinishThreads / SegmentLanes;
template <class T>
constexpr int ReduceFinishTiles =
    ReduceFinishThreads / SegmentLanes / ReduceChunks<T>;

/// The accumulators the chunks of the tiles in flight hand on (raw bytes:
/// T need not be trivially constructible).
template <class T> struct ReduceHands {
  alignas(T) unsigned char Bytes[ReduceFinishTiles<T> * ReduceShape<T>::Vec *
                                 SegmentLanes * sizeof(T)];
};

/// Chunk \p Chunk of the full tile at \p Tile, whose accumulators chunk
/// Chunk - 1 left in \p Hand (this lane's, Vec of them): folds its steps
/// on, then hands the accumulators on or, the last chunk, returns the
/// tile's value (at lane 0).
template <bool Vector, class T, class Op>
HPP_DEVICE inline T
reduceChunk(const T (&X)[ReduceChunkSteps<T>][ReduceShape<T>::Vec], int Chunk,
            T *Hand, int Lane, Op &O) {
  constexpr int Vec = ReduceShape<T>::Vec;
  T Acc[Vec];
#pragma unroll
  for (int C = 0; C < Vec; ++C)
    Acc[C] = Chunk == 0 ? X[0][C] : O(Hand[C * SegmentLanes + Lane], X[0][C]);
#pragma unroll
  for (int U = 1; U < ReduceChunkSteps<T>; ++U)
#pragma unroll
    for (int C = 0; C < Vec; ++C)
      Acc[C] = O(Acc[C], X[U][C]);
  if (Chunk < ReduceChunks<T> - 1) {
#pragma unroll
    for (int C = 0; C < Vec; ++C)
      Hand[C * SegmentLanes + Lane] = Acc[C];
    return Acc[0];
  }
  T V = reduceAccumulators(Acc, O);
#pragma unroll
  for (int Off = SegmentLanes / 2; Off >= 1; Off /= 2)
    V = O(V, segmentShflDown(V, unsigned(Off)));
  return V;
}

/// One level of the chunked finish, tiles Base .. Base +
/// ReduceFinishTiles<T> - 1 of Src[0 .. M) to Dst (every work-item calls
/// it: it holds barriers).
template <bool Vector, class T, class Op>
HPP_DEVICE inline void reduceChunkedPass(const T *Src, std::size_t M,
                                         std::size_t Base, T *Dst, T *Hands,
                                         Op &O) {
  using Shape = ReduceShape<T>;
  constexpr int Vec = Shape::Vec, Steps = ReduceChunkSteps<T>;
  constexpr int Chunks = ReduceChunks<T>;
  const int Lane = int(threadIdx.x) % SegmentLanes;
  const int Seg = int(threadIdx.x) / SegmentLanes;
  const int Chunk = Seg % ReduceChunks<T>, Slot = Seg / ReduceChunks<T>;
  const std::size_t Tiles = (M + Shape::Tile - 1) / Shape::Tile;
  const std::size_t J = Base + std::size_t(Slot);
  const std::size_t Begin = J * Shape::Tile;
  const bool Full = J < Tiles && M - Begin >= Shape::Tile;
  T *Hand = Hands + Slot * Vec * SegmentLanes;
  T X[Steps][Vec];
  if (Full) {
#pragma unroll
    for (int U = 0; U < Steps; ++U)
      reduceLoad<Vector>(Src + Begin, Chunk * Steps + U, Lane, X[U]);
  }
  for (int Step = 0; Step < ReduceChunks<T>; ++Step) {
    if (Full && Chunk == Step) {
      const T V = reduceChunk<Vector>(X, Chunk, Hand, Lane, O);
      if (Step == ReduceChunks<T> - 1 && Lane == 0)
        Dst[J] = V;
    }
    if (Chunks > 1)
      __syncthreads(); // The hand-over.
  }
  if (J < Tiles && !Full && Chunk == 0) {
    const T V = reducePartialTile(Src + Begin, M - Begin, Lane, O);
    if (Lane == 0)
      Dst[J] = V;
  }
}

/// One work-group, n <= Tile: *Out = Init (+) the value of the one tile
/// Src[0 .. M) (M <= Tile), or Init when M is 0; the tile's value goes
/// through \p Buf0.
template <class T, class Op>
__global__ void __launch_bounds__(ReduceFinishThreads)
    reduceFinishKernel(const T *Src, std::size_t M, T *Buf0, T *Out, T Init,
                       Op OpArg) {
  using Shape = ReduceShape<T>;
  Op O = OpArg;
  const int Lane = int(threadIdx.x) % SegmentLanes;
  if (M > 1) {
    if constexpr (ReduceChunked<T>) {
      __shared__ ReduceHands<T> HandMemory;
      T *Hands = reinterpret_cast<T *>(HandMemory.Bytes);
      if (ReduceVectorizable<T> &&
          reinterpret_cast<std::uintptr_t>(Src) % 16 == 0)
        reduceChunkedPass<true>(Src, M, 0, Buf0, Hands, O);
      else
        reduceChunkedPass<false>(Src, M, 0, Buf0, Hands, O);
    } else if (threadIdx.x < SegmentLanes) {
      const T V = reduceTile(Src, M, Lane, O);
      if (Lane == 0)
        Buf0[0] = V;
    }
    __syncthreads(); // The tile's value is written before it is read.
    Src = Buf0;
  }
  if (threadIdx.x == 0)
    *Out = M == 0 ? Init : O(Init, Src[0]);
}

/// Tiles of \p N elements of T.
template <class T> constexpr std::size_t reduceTiles(std::size_t N) {
  return (N + ReduceShape<T>::Tile - 1) / ReduceShape<T>::Tile;
}

/// Values reduceTilesKernel leaves for \p N elements of T (at least 1):
/// one per work-group's 8 tiles.
template <class T> constexpr std::size_t reduceNodes(std::size_t N) {
  const std::size_t Nodes =
      (reduceTiles<T>(N) + ReduceSegments - 1) / ReduceSegments;
  return Nodes ? Nodes : 1;
}

/// Scratch bytes reduceAsync needs for \p N elements of T: level 1's
/// values, then room for the tree's group values.
template <class T> constexpr std::size_t reduceScratchBytes(std::size_t N) {
  return scratchRound(reduceNodes<T>(N) * sizeof(T)) +
         scratchRound(reduceTreeGroups<T>(reduceNodes<T>(N)) * sizeof(T));
}

/// The work-groups of reduceTilesKernel<T, Op> for \p Tiles tiles, as
/// HPP_REDUCE_GRID says; the device's multiprocessors and the work-groups
/// one holds at once are asked once per device.
template <class T, class Op>
inline unsigned reduceGroups(std::size_t Tiles, const char *File, int Line) {
  const std::size_t Wanted = (Tiles + ReduceSegments - 1) / ReduceSegments;
  if (HPP_REDUCE_GRID == 0)
    return Wanted < 0x7fffffffu ? unsigned(Wanted) : 0x7fffffffu;
  static std::atomic<unsigned> Known[64]; // SMs << 8 | work-groups per SM.
  const void *Func = reinterpret_cast<const void *>(&reduceTilesKernel<T, Op>);
  int Device = 0;
  checkCall(HPP_GPU(GetDevice)(&Device), "GetDevice", File, Line);
  const bool Cached = Device >= 0 && Device < 64;
  unsigned Packed = Cached ? Known[Device].load(std::memory_order_relaxed) : 0;
  if (!Packed) {
    int SMs = 0, PerSM = 0;
    checkCall(HPP_GPU(DeviceGetAttribute)(&SMs, HPP_GPU_ATTR_SMS, Device),
              "DeviceGetAttribute(multiprocessors)", File, Line);
    checkCall(HPP_GPU(OccupancyMaxActiveBlocksPerMultiprocessor)(
                  &PerSM, Func, ReduceThreads, 0),
              "OccupancyMaxActiveBlocksPerMultiprocessor", File, Line);
    SMs = SMs > 0 ? (SMs < (1 << 23) ? SMs : (1 << 23) - 1) : 1;
    PerSM = PerSM > 0 ? (PerSM < 255 ? PerSM : 255) : 1;
    Packed = unsigned(SMs) << 8 | unsigned(PerSM);
    if (Cached)
      Known[Device].store(Packed, std::memory_order_relaxed);
  }
  unsigned PerSM = Packed & 255u;
  if (HPP_REDUCE_GRID > 0 && unsigned(HPP_REDUCE_GRID) < PerSM)
    PerSM = unsigned(HPP_REDUCE_GRID);
  const unsigned Limit = (Packed >> 8) * PerSM;
  return Wanted < Limit ? unsigned(Wanted) : Limit;
}

/// Enqueues on \p Stream: *Out = Init (+) the reduction of In[0 .. N)
/// (device memory, or host memory the device can write). \p Scratch:
/// reduceScratchBytes<T>(N) bytes of device memory, 256-byte aligned,
/// unused by anything else until the work is done. One launch for
/// N <= ReduceShape<T>::Tile, two above. Does not wait.
template <class T, class Op>
void reduceAsync(HPP_GPU(Stream_t) Stream, const T *In, std::size_t N, T *Out,
                 T Init, Op O, void *Scratch, const char *File = __FILE__,
                 int Line = __LINE__) {
  static_assert(std::is_trivially_copyable<T>::value,
                "reduce: T must be trivially copyable");
  const std::size_t Level1 = reduceNodes<T>(N);
  T *Buf0 = static_cast<T *>(Scratch);
  T *Buf1 = reinterpret_cast<T *>(static_cast<char *>(Scratch) +
                                  scratchRound(Level1 * sizeof(T)));
  if (N <= ReduceShape<T>::Tile) {
    reduceFinishKernel<T, Op>
        <<<1, ReduceFinishThreads, 0, Stream>>>(In, N, Buf0, Out, Init, O);
    checkCall(HPP_GPU(GetLastError)(), "reduce kernel launch", File, Line);
    return;
  }
  const unsigned Groups = reduceGroups<T, Op>(reduceTiles<T>(N), File, Line);
  reduceTilesKernel<T, Op>
      <<<Groups, ReduceThreads, 0, Stream>>>(In, N, Buf0, O);
  checkCall(HPP_GPU(GetLastError)(), "reduce kernel launch", File, Line);
#if defined(HPP_BACKEND_CUDA) && CUDART_VERSION >= 11080 && HPP_REDUCE_PDL
  if (programmaticLaunch()) {
    const T *Src = Buf0;
    std::size_t M = Level1;
    void *Args[] = {&Src, &M, &Buf0, &Buf1, &Out, &Init, &O};
    launchProgrammatic(reinterpret_cast<const void *>(&reduceTreeKernel<T, Op>),
                       dim3(1), dim3(ReduceTreeThreads), Args, 0, Stream);
    return;
  }
#endif
  reduceTreeKernel<T, Op><<<1, ReduceTreeThreads, 0, Stream>>>(
      Buf0, Level1, Buf0, Buf1, Out, Init, O);
  checkCall(HPP_GPU(GetLastError)(), "reduce kernel launch", File, Line);
}

/// Pinned host memory the device writes a reduction's result to, one
/// block per device, used under that device's ScratchLease. Host and
/// device address.
struct ReduceResultSlot {
  void *Host = nullptr;
  void *Device = nullptr;
};
constexpr std::size_t ReduceResultBytes = 256;

inline ReduceResultSlot reduceResultSlot(const char *File, int Line) {
  static ReduceResultSlot Slots[MaxScratchDevices];
  int Device = 0;
  checkCall(HPP_GPU(GetDevice)(&Device), "GetDevice", File, Line);
  ReduceResultSlot &S = Slots[Device]; // ScratchLease checked the range.
  if (!S.Host) {
#if defined(HPP_BACKEND_HIP)
    checkCall(hipHostMalloc(&S.Host, ReduceResultBytes,
                            hipHostMallocMapped | hipHostMallocPortable),
              "HostMalloc(reduce result)", File, Line);
#else
    checkCall(cudaHostAlloc(&S.Host, ReduceResultBytes,
                            cudaHostAllocMapped | cudaHostAllocPortable),
              "HostAlloc(reduce result)", File, Line);
#endif
    checkCall(HPP_GPU(HostGetDevicePointer)(&S.Device, S.Host, 0),
              "HostGetDevicePointer(reduce result)", File, Line);
  }
  return S;
}

/// The blocking reduce of hpp/core/algorithms.h (see the file comment).
template <class T, class Op>
T reduce(Pointer<T> In, std::size_t N, T Init, Op O, const char *File,
         int Line) {
  // On the input's device (docs/devices.md).
  const DeviceScope OnDevice(In.getDevice().getId());
  static_assert(sizeof(T) <= ReduceResultBytes,
                "reduce: values of at most 256 bytes");
  beforeBlockingLaunch(File, Line);
  if (N == 0)
    return Init;
  prefetchPointers(std::make_tuple(In));
  flushLaunchRecording();
  ScratchLease Lease(reduceScratchBytes<T>(N), File, Line);
  const ReduceResultSlot Slot = reduceResultSlot(File, Line);
  reduceAsync<T, Op>(0, In.get(), N, static_cast<T *>(Slot.Device), Init, O,
                     Lease.get(), File, Line);
  checkCall(HPP_GPU(StreamSynchronize)(0), "reduce", File, Line);
  afterBlockingLaunch(File, Line);
  T Result = Init;
  std::memcpy(static_cast<void *>(&Result), Slot.Host, sizeof(T));
  return Result;
}

} // namespace gpu
} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_GPU_REDUCE_H
