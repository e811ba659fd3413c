//===- hpp/core/copy_range.h - The range check of copy and copyAsync ------===//
//
// Part of hpp-rewrite. Shared by every backend (host code only).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What copy and copyAsync (docs/devices.md) check of each side before
/// they copy, the same text on the CPU runtimes and on the GPU runtime: a
/// null Pointer, or elements outside the Pointer's size. The device check
/// is each runtime's own.
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

} // namespace detail
} // namespace hpp

#endif // HPP_CORE_COPY_RANGE_H
