//===- hpp/core/region_layout.h - Where a DistArray's regions go ----------===//
//
// Part of hpp-rewrite. Shared by the CPU reference runtime and the device
// runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// RegionLayout: the layout of a distributed array's per-work-group block
/// (spec 1.9), the same on every backend: regions in allocation order, each
/// at the next multiple of max(alignof(T), 16) bytes (CUDA aligns shared
/// memory at least that much), the whole within a limit the backend gives
/// (the CPU runtime's HPP_CPU_GROUP_MEMORY, the device's shared memory).
///
/// maxRegionSize() is DistArray::getMaxRegionSize() on every backend: the
/// largest region that fits and can also be the work-group size of the
/// launch, as the paper uses it (`Range<1,1>(d.getTotalSize(),
/// Range<1>(region.getSize()))`): what is left of the memory, capped at the
/// most work-items a work-group may have (1024 on NVIDIA and AMD GPUs and on
/// both CPU runtimes). allocRegion accepts any region that fits.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CORE_REGION_LAYOUT_H
#define HPP_CORE_REGION_LAYOUT_H

#include "hpp/core/error.h"

#include <cstddef>
#include <string>
#include <type_traits>

namespace hpp {
namespace detail {

template <class T> constexpr std::size_t regionAlignment() {
  return alignof(T) > 16 ? alignof(T) : 16;
}

/// The regions of one distributed array of T so far.
template <class T> class RegionLayout {
  static_assert(std::is_trivially_default_constructible<T>::value &&
                    std::is_trivially_destructible<T>::value,
                "DistArray<T>: T must be trivially constructible and "
                "destructible (shared memory never runs constructors)");

public:
  /// Where the next region would start, in bytes.
  std::size_t nextOffset() const {
    constexpr std::size_t A = regionAlignment<T>();
    return (Bytes + A - 1) / A * A;
  }
  /// The most elements a region allocated now can have within \p Limit.
  std::size_t maxCount(std::size_t Limit) const {
    const std::size_t Off = nextOffset();
    return Off >= Limit ? 0 : (Limit - Off) / sizeof(T);
  }
  /// The most elements a region allocated now can have within \p Limit
  /// bytes that is also a work-group size of at most \p MaxGroupSize
  /// work-items (see the file comment).
  std::size_t maxRegionSize(std::size_t Limit, std::size_t MaxGroupSize) const {
    const std::size_t Fit = maxCount(Limit);
    return Fit < MaxGroupSize ? Fit : MaxGroupSize;
  }
  /// Reserves a region of \p Count elements within \p Limit bytes (named
  /// \p LimitWhat in the error) and returns its offset; throws
  /// RuntimeError at \p File : \p Line when \p Count is 0 or too large.
  std::size_t reserve(std::size_t Count, std::size_t Limit,
                      const std::string &LimitWhat, const char *File,
                      int Line) {
    if (Count == 0)
      throw RuntimeError("DistArray::allocRegion", File, Line,
                         "a region needs at least one element");
    const std::size_t Max = maxCount(Limit);
    if (Count > Max)
      throw RuntimeError(
          "DistArray::allocRegion", File, Line,
          "a region of " + std::to_string(Count) +
              (Count == 1 ? " element" : " elements") + " of " +
              std::to_string(sizeof(T)) + " bytes at byte offset " +
              std::to_string(nextOffset()) + " does not fit in the " +
              std::to_string(Limit) + " bytes of " + LimitWhat +
              "; a region allocated now can have at most " +
              std::to_string(Max) + (Max == 1 ? " element" : " elements"));
    const std::size_t Offset = nextOffset();
    Bytes = Offset + Count * sizeof(T);
    Total += Count;
    return Offset;
  }
  /// Bytes of a work-group's block.
  std::size_t bytes() const { return Bytes; }
  /// Elements in all the regions.
  std::size_t total() const { return Total; }

private:
  std::size_t Bytes = 0;
  std::size_t Total = 0;
};

} // namespace detail
} // namespace hpp

#endif // HPP_CORE_REGION_LAYOUT_H
