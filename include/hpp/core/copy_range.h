//===- hpp/core/copy_range.h - The range check of copy and copyAsync ------===//
//
// Part of hpp-rewrite. Shared by every backend (host code only).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What copy and copyAsync (docs/devices.md) check of each side before
/// they copy, the same text on the CPU runtimes and on the GPU runtime: a
/// null Pointer, or elements outside the Pointer's size; checkCopySide adds
/// the device check, which each runtime passes in.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CORE_COPY_RANGE_H
#define HPP_CORE_COPY_RANGE_H

#include "hpp/core/error.h"
#include "hpp/core/pointer.h"

#include <cstddef>
#include <string>

namespace hpp {
namespace detail {

/// Throws RuntimeError(\p Call) at \p File : \p Line unless \p Count is 0
/// or [\p Offset, \p Offset + \p Count) lies in \p P (named \p What).
template <class T>
void checkCopyRange(const Pointer<T> &P, std::size_t Offset, std::size_t Count,
                    const char *What, const char *Call, const char *File,
                    int Line) {
  if (Count == 0)
    return;
  if (!P)
    throw RuntimeError(Call, File, Line,
                       std::string("the ") + What + " is a null Pointer");
  if (Offset > P.size() || Count > P.size() - Offset)
    throw RuntimeError(Call, File, Line,
                       "elements [" + std::to_string(Offset) + ", " +
                           std::to_string(Offset) + " + " +
                           std::to_string(Count) + ") lie outside the " + What +
                           "'s " + std::to_string(P.size()) + " elements");
}

/// One side of a copy: throws RuntimeError(\p Call) at \p File : \p Line
/// unless \p P is allocateHost's memory or memory of a device that exists
/// (\p CheckDevice(id, Call, File, Line), the runtime's own check), and
/// checkCopyRange holds.
template <class T, class DeviceCheck>
void checkCopySide(const Pointer<T> &P, std::size_t Offset, std::size_t Count,
                   const char *What, const char *Call, const char *File,
                   int Line, DeviceCheck CheckDevice) {
  if (P.getDevice().getId() != HostMemoryId)
    CheckDevice(P.getDevice().getId(), Call, File, Line);
  checkCopyRange(P, Offset, Count, What, Call, File, Line);
}

} // namespace detail
} // namespace hpp

#endif // HPP_CORE_COPY_RANGE_H
