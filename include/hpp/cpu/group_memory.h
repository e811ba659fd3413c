//===- hpp/cpu/group_memory.h - Poisoned work-group memory, uninit check --===//
//
// Part of hpp-rewrite. CPU reference runtime, shared with the device
// runtime's CPU backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Work-group memory (GPU shared memory) on the CPU, as both CPU runtimes
/// treat it: the reference runtime's DistArray blocks (hpp/cpu/segment.h)
/// and the CPU backend's dynamic shared memory and `__shared__` variables
/// (runtime/hpp/backend/cpu.h).
///
/// Poison. A GPU leaves shared memory at block start as the previous block
/// left it. Here every byte is GroupMemoryFill (0xFF) when a work-group
/// starts: NaN as float or double, -1 as a signed integer, the largest
/// value as an unsigned one, so a read before any write shows up in
/// results instead of reading 0 or the previous group's value by luck.
///
/// The uninit check (HPP_CPU_CHECK=uninit, hpp::cpu::checkUninit()).
/// GroupMemoryShadow records which bytes of its block a work-group has
/// written through an accessor (Segment::operator[]); an access to an
/// element that is not written yet is classified after the fact, since the
/// accessor returns a T& and cannot tell a read from a write:
///  - if the element no longer holds the poison, something wrote it
///    through a pointer or reference taken earlier: written;
///  - otherwise the accessor stores the tag in it (uninitTagByte: an
///    unlikely value, e.g. -3974491 as an int, a NaN as float or double)
///    and leaves a pending check (GroupExecutor::setPendingCheck). It runs
///    at the work-item's next accessor call, collective operation, park or
///    end, before any other work-item of the group runs: an element that
///    still holds the tag was read (hpp::RuntimeError at the accessor's
///    file:line, naming the element, the block and the work-group);
///    anything else was a write.
/// Limits (docs/design.md, "Work-group memory"): a write of a value whose
/// bytes equal the tag reads as a read; so does taking `&s[i]` of an
/// unwritten element and writing through the pointer only after the next
/// check point; an integer read-modify-write (`s[i] += x`) of an unwritten
/// element counts as a write (a float one keeps the NaN tag and is
/// reported); loads through pointers are not checked.
///
/// Without HPP_CPU_CHECK the reference runtime's accessor tests one flag,
/// read at start-up; the CPU backend's has the check only when compiled
/// with -DHPP_CPU_CHECKS (runtime/hpp/dist_array.h).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_GROUP_MEMORY_H
#define HPP_CPU_GROUP_MEMORY_H

#include "hpp/core/error.h"
#include "hpp/cpu/group_executor.h"
#include "hpp/cpu/settings.h"

#include <cstddef>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace hpp {
namespace cpu {

/// The byte every byte of a work-group's memory holds when the group
/// starts.
constexpr unsigned char GroupMemoryFill = 0xFF;

/// Byte \p K of the tag: what an unwritten element of \p N bytes holds
/// while an access to it is being classified (the uninit check). A value
/// programs hardly ever write: 0xFFC35AA5 (-3974491) as a 4-byte integer,
/// 0xFFFF5AA53CC35AA5 as an 8-byte one, a quiet NaN as float or double
/// (arithmetic keeps it); 0xA5 as a byte.
constexpr unsigned char uninitTagByte(std::size_t K, std::size_t N) {
  constexpr unsigned char Pattern[4] = {0xA5, 0x5A, 0xC3, 0x3C};
  if (N == 4)
    return K == 3 ? 0xFF : Pattern[K];
  if (N >= 8 && K + 2 >= N)
    return 0xFF; // The sign and exponent of a double: a NaN.
  return Pattern[K % 4];
}

/// Fills \p Bytes at \p Data with the poison.
inline void poisonGroupMemory(void *Data, std::size_t Bytes) {
  if (Bytes)
    std::memset(Data, GroupMemoryFill, Bytes);
}

/// An index into a Segment (both runtimes), with the caller's file:line
/// (operator[] takes one argument, so the location rides on the implicit
/// conversion).
struct SegmentIndex {
  template <class I, class = std::enable_if_t<std::is_integral<I>::value>>
  SegmentIndex(I Index, const char *File = __builtin_FILE(),
               int Line = __builtin_LINE())
      : Value(static_cast<std::size_t>(Index)),
        Negative(std::is_signed<I>::value && Index < I(0)), File(File),
        Line(Line) {}
  std::size_t Value;
  bool Negative;
  const char *File;
  int Line;
};

/// One accessor call, for the uninit check and its error.
struct GroupMemoryAccess {
  const char *Name; ///< The accessor, e.g. "Segment::operator[]".
  const char *File;
  int Line;
  std::size_t Index;  ///< The element's index in its segment.
  std::size_t Count;  ///< Elements in the segment.
  std::size_t Offset; ///< The element's first byte in the block.
  std::size_t Size;   ///< Bytes of the element.
};

/// Which bytes of a work-group's memory block the group has written (the
/// uninit check; see the file comment).
class GroupMemoryShadow {
public:
  /// Starts a work-group whose block of \p Bytes at \p Data is poisoned:
  /// nothing is written. \p Memory names the block and \p Group the
  /// work-group in errors ("the work-group's DistArray block", "1").
  void reset(unsigned char *Block, std::size_t Bytes, const char *Memory,
             std::string Group) {
    Data = Block;
    Written.assign(Bytes, 0);
    MemoryName = Memory;
    GroupName = std::move(Group);
  }

  /// The current work-item, run by \p E, accesses \p A through an accessor:
  /// classifies its previous access, then this one.
  void access(GroupExecutor &E, const GroupMemoryAccess &A) {
    E.runPendingCheck();
    if (A.Size == 0 || A.Offset + A.Size > Written.size() ||
        isWritten(A.Offset, A.Size))
      return;
    unsigned char *P = Data + A.Offset;
    for (std::size_t K = 0; K != A.Size; ++K)
      if (P[K] != GroupMemoryFill) {
        markWritten(A.Offset, A.Size); // Through a pointer.
        return;
      }
    for (std::size_t K = 0; K != A.Size; ++K)
      P[K] = uninitTagByte(K, A.Size);
    Last = A;
    E.setPendingCheck(&GroupMemoryShadow::classify, this);
  }

private:
  bool isWritten(std::size_t Offset, std::size_t Size) const {
    // Through the data pointer: at -O0 (the tests' builds) each
    // std::vector::operator[] is a call, on every access checked.
    const unsigned char *W = Written.data() + Offset;
    for (std::size_t K = 0; K != Size; ++K)
      if (!W[K])
        return false;
    return true;
  }
  void markWritten(std::size_t Offset, std::size_t Size) {
    std::memset(Written.data() + Offset, 1, Size);
  }

  /// The pending check of the last access (GroupExecutor).
  static void classify(void *Self) {
    auto &S = *static_cast<GroupMemoryShadow *>(Self);
    const GroupMemoryAccess &A = S.Last;
    unsigned char *P = S.Data + A.Offset;
    for (std::size_t K = 0; K != A.Size; ++K)
      if (P[K] != uninitTagByte(K, A.Size)) {
        S.markWritten(A.Offset, A.Size);
        return;
      }
    poisonGroupMemory(P, A.Size);
    throw RuntimeError(A.Name, A.File, A.Line,
                       "read of element " + std::to_string(A.Index) +
                           " of a segment of " + std::to_string(A.Count) +
                           (A.Count == 1 ? " element" : " elements") +
                           " (byte " + std::to_string(A.Offset) + " of " +
                           S.MemoryName +
                           "), which no work-item of work-group " +
                           S.GroupName + " has written (HPP_CPU_CHECK=uninit)");
  }

  unsigned char *Data = nullptr;
  std::vector<unsigned char> Written; ///< Per byte: 1 once written.
  const char *MemoryName = "";
  std::string GroupName;
  GroupMemoryAccess Last{};
};

} // namespace cpu
} // namespace hpp

#endif // HPP_CPU_GROUP_MEMORY_H
