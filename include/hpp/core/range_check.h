//===- hpp/core/range_check.h - Ranges a launch can have ------------------===//
//
// Part of hpp-rewrite. Shared by the CPU reference runtime and the device
// runtime (host code only).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// detail::checkLaunchRange: what every runtime refuses about the range of
/// a launch (a parallelFor, a Task's enqueue, a channel's consumer) before
/// it does anything else, with one text, so that the reference and a
/// rewritten program report the same error at the same line:
///  - a size that is a negative number converted to std::size_t
///    (`Range<1>(-1)`: 2^64 - 1 work-items, which no runtime can launch nor
///    hold one result per work-item of);
///  - a work-group size of 0, or a work-group of more than 1024 work-items
///    (the CUDA and HIP limit, which every backend keeps);
///  - more work-groups along one dimension than a launch can have
///    (2^32 - 1: the backends' grid extents are 32-bit), or more
///    work-items than a std::size_t counts.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CORE_RANGE_CHECK_H
#define HPP_CORE_RANGE_CHECK_H

#include "hpp/core/error.h"
#include "hpp/core/range.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace hpp {
namespace detail {

/// Most work-items a work-group may have (the HIP and CUDA limit).
constexpr std::size_t MaxRangeGroupItems = 1024;
/// Most work-groups a launch may have along one dimension.
constexpr std::size_t MaxRangeGroups = 4294967295u;

/// The work-group extent along \p D of a Range<Dims> launched without a
/// local size: 256 in 1D, 16x16 in 2D, 8x8x4 in 3D (every runtime's).
constexpr std::size_t defaultLocalExtent(int Dims, int D) {
  return Dims == 1 ? (D == 0 ? 256 : 1)
                   : Dims == 2 ? (D < 2 ? 16 : 1) : (D < 2 ? 8 : 4);
}

/// What is wrong with a launch of global sizes \p Global and work-group
/// sizes \p Local (X, Y, Z; 1 past the range's dimensions); empty when
/// nothing is.
inline std::string rangeProblem(const std::size_t Global[3],
                                const std::size_t Local[3]) {
  constexpr std::size_t Negative = SIZE_MAX / 2; // Above: a negative value.
  auto Converted = [](const char *What, std::size_t V, int D) {
    return std::string(What) + " " + std::to_string(V) +
           " along dimension " + std::to_string(D) + " is -" +
           std::to_string(std::size_t(0) - V) +
           " converted to std::size_t: a range's sizes cannot be negative";
  };
  for (int D = 0; D < 3; ++D) {
    if (Global[D] > Negative)
      return Converted("global size", Global[D], D);
    if (Local[D] > Negative)
      return Converted("work-group size", Local[D], D);
  }
  for (int D = 0; D < 3; ++D)
    if (Local[D] == 0)
      return "work-group size is 0 along dimension " + std::to_string(D);
  const auto Limit = " work-items exceeds the limit of " +
                     std::to_string(MaxRangeGroupItems);
  std::size_t Items = 0;
  if (__builtin_mul_overflow(Local[0], Local[1], &Items) ||
      __builtin_mul_overflow(Items, Local[2], &Items))
    return "work-group of " + std::to_string(Local[0]) + "x" +
           std::to_string(Local[1]) + "x" + std::to_string(Local[2]) + Limit;
  if (Items > MaxRangeGroupItems)
    return "work-group of " + std::to_string(Items) + Limit;
  std::size_t Total = 1;
  for (int D = 0; D < 3; ++D) {
    const std::size_t Groups = (Global[D] + Local[D] - 1) / Local[D];
    if (Groups > MaxRangeGroups)
      return "global size " + std::to_string(Global[D]) + " along dimension " +
             std::to_string(D) + " needs " + std::to_string(Groups) +
             " work-groups of " + std::to_string(Local[D]) +
             ", more than the " + std::to_string(MaxRangeGroups) +
             " a launch can have";
    if (Global[D] && Total > SIZE_MAX / Global[D])
      return "the range's " + std::to_string(Global[0]) + "x" +
             std::to_string(Global[1]) + "x" + std::to_string(Global[2]) +
             " work-items are more than a std::size_t counts";
    Total *= Global[D];
  }
  return std::string();
}

/// Throws RuntimeError(\p Call, \p File, \p Line) when a launch cannot
/// have range \p R (see the file comment).
template <int Dims, int LocalDims>
void checkLaunchRange(const Range<Dims, LocalDims> &R, const char *Call,
                      const char *File, int Line) {
  std::size_t Global[3], Local[3];
  for (int D = 0; D < 3; ++D) {
    Global[D] = D < Dims ? R.get(D) : 1;
    if constexpr (LocalDims == Dims)
      Local[D] = D < Dims ? R.getLocal(D) : 1;
    else
      Local[D] = defaultLocalExtent(Dims, D);
  }
  std::string Problem = rangeProblem(Global, Local);
  if (!Problem.empty())
    throw RuntimeError(Call, File ? File : "?", Line, std::move(Problem));
}

} // namespace detail
} // namespace hpp

#endif // HPP_CORE_RANGE_CHECK_H
