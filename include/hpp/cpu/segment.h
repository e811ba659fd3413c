//===- hpp/cpu/segment.h - A work-group's copy of a region ----------------===//
//
// Part of hpp-rewrite. CPU reference runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Segment<T> (spec 1.9): a work-group's private copy of a region of a
/// DistArray (hpp/cpu/dist_array.h), the dialect's GPU shared memory, and
/// the per-work-group block of memory behind it.
///
/// A work-group's block (DistBlock) is its GroupExecutor::groupState,
/// created when its first work-item binds a region and freed when the group
/// ends; all the group's work-items share it, every group has its own. A
/// GPU leaves its contents at group start unspecified; here every byte is
/// GroupMemoryFill (0xFF: NaN for float and double, -1 for signed
/// integers; hpp/cpu/group_memory.h), so a read before a write shows up.
/// With HPP_CPU_CHECK=uninit, the first read through operator[] of an
/// element no work-item of the group wrote is an hpp::RuntimeError
/// (GroupMemoryShadow).
///
/// Every use of a Segment is checked, with the caller's file:line in the
/// hpp::RuntimeError: an index out of range, use outside its launch (host
/// code, a later launch) or in another work-group. Segment::barrier() is
/// the GroupExecutor's work-group barrier (CollectiveKind::GroupBarrier,
/// which __syncthreads is in the device runtime): it waits until every
/// work-item of the group that has not exited reaches the same barrier;
/// work-items at different barriers are an error, never a hang.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_SEGMENT_H
#define HPP_CPU_SEGMENT_H

#include "hpp/core/error.h"
#include "hpp/core/error_text.h"
#include "hpp/cpu/group_executor.h"
#include "hpp/cpu/group_memory.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <type_traits>

namespace hpp {

template <class T> class BoundDistArray;

namespace cpu {

/// A launch binds one DistArray, so a work-group has at most one block: its
/// GroupExecutor::groupState key.
inline const char DistBlockKey = 0;

/// A unique number for a DistArray (0: none) or a work-group's block.
inline std::uint64_t nextDistSerial() {
  static std::atomic<std::uint64_t> Next{1};
  return Next.fetch_add(1, std::memory_order_relaxed);
}

/// One work-group's copy of a DistArray's regions, made by the group's
/// first work-item that binds one (GroupExecutor::current() runs it).
struct DistBlock : GroupState {
  DistBlock(std::size_t Bytes, std::size_t Align)
      : Serial(nextDistSerial()), Align(Align),
        Data(static_cast<unsigned char *>(
            ::operator new(Bytes ? Bytes : 1, std::align_val_t(Align)))) {
    poisonGroupMemory(Data, Bytes);
    if (checkUninit()) {
      Shadow.reset(new GroupMemoryShadow);
      Shadow->reset(Data, Bytes, "the work-group's DistArray block",
                    std::to_string(GroupExecutor::current()->groupIndex()));
    }
  }
  ~DistBlock() override { ::operator delete(Data, std::align_val_t(Align)); }
  DistBlock(const DistBlock &) = delete;
  DistBlock &operator=(const DistBlock &) = delete;

  std::uint64_t Serial;
  std::size_t Align;
  unsigned char *Data;
  /// What the group wrote (HPP_CPU_CHECK=uninit only).
  std::unique_ptr<GroupMemoryShadow> Shadow;
};

/// The running work-group's block, or null if it has none.
inline DistBlock *findDistBlock(GroupExecutor &E) {
  struct Absent {};
  try {
    return &E.groupState<DistBlock>(
        &DistBlockKey, []() -> std::unique_ptr<GroupState> { throw Absent(); });
  } catch (const Absent &) {
    return nullptr;
  }
}

/// "1 element", "N elements".
inline std::string elements(std::size_t N) { return detail::elementsText(N); }

} // namespace cpu

/// A work-group's private copy of a region (GPU shared memory): valid in
/// the work-group that bound it, while its launch runs.
template <class T> class Segment {
public:
  /// Element \p I of the region; RuntimeError when out of range or used
  /// outside its work-group.
  T &operator[](cpu::SegmentIndex I) const {
    cpu::DistBlock &B = check("Segment::operator[]", I.File, I.Line);
    if (I.Negative || I.Value >= Size)
      throw RuntimeError("Segment::operator[]", I.File, I.Line,
                         detail::segmentIndexText(I.Value, I.Negative, Size));
    if (B.Shadow)
      B.Shadow->access(
          *cpu::GroupExecutor::current(),
          {"Segment::operator[]", I.File, I.Line, I.Value, Size,
           std::size_t(reinterpret_cast<unsigned char *>(Data + I.Value) -
                       B.Data),
           sizeof(T)});
    return Data[I.Value];
  }
  /// Elements in the region (Region::getSize()).
  std::size_t getRegionSize() const { return Size; }
  /// The work-group barrier: waits until every work-item of the group that
  /// has not exited reaches this same barrier.
  void barrier(const char *File = __builtin_FILE(),
               int Line = __builtin_LINE()) const {
    check("Segment::barrier", File, Line);
    // What __syncthreads is in the device runtime (cpu::warp::groupBarrier,
    // not included here: warp_ops.h defines CUDA's bit intrinsics).
    cpu::GroupExecutor &E = *cpu::GroupExecutor::current();
    E.collective({cpu::CollectiveKind::GroupBarrier, "Segment::barrier", File,
                  Line, ~0ull, 0, 0, static_cast<int>(E.mvectorWidth())});
  }

private:
  friend class BoundDistArray<T>;
  Segment(T *Data, std::size_t Size, std::uint64_t Launch, std::uint64_t Block)
      : Data(Data), Size(Size), Launch(Launch), Block(Block) {}

  /// The calling work-group's block, which must be the one that bound it.
  cpu::DistBlock &check(const char *Name, const char *File, int Line) const {
    cpu::GroupExecutor *E = cpu::GroupExecutor::current();
    if (!E || !E->launch() || E->launch()->id() != Launch)
      throw RuntimeError(
          Name, File, Line,
          std::string("used outside its launch (") +
              (E ? "in another launch" : "in host code") +
              "): a Segment is a work-group's copy of a region and exists "
              "only while that work-group runs");
    cpu::DistBlock *B = cpu::findDistBlock(*E);
    if (!B || B->Serial != Block)
      throw RuntimeError(Name, File, Line,
                         "used in another work-group than the one that bound "
                         "it: a Segment is its work-group's private copy "
                         "(GPU shared memory)");
    return *B;
  }

  T *Data;
  std::size_t Size;
  std::uint64_t Launch, Block;
};

} // namespace hpp

#endif // HPP_CPU_SEGMENT_H
