//===- hpp/core/range.h - Range<N> and Range<N,N> -------------------------===//
//
// Part of hpp-rewrite. Shared by every backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Iteration spaces of a data-parallel launch: Range<N> (global size only)
/// and Range<N, N> (global size and work-group size).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CORE_RANGE_H
#define HPP_CORE_RANGE_H

#include "hpp/core/config.h"

#include <cstddef>

namespace hpp {

/// An N-dimensional iteration space; with LocalDims == Dims it also carries
/// the work-group (local) size.
template <int Dims, int LocalDims = 0> class Range;

/// Global size only: the runtime chooses the work-group size.
template <int Dims> class Range<Dims, 0> {
  static_assert(Dims >= 1 && Dims <= 3, "Range<N>: N must be 1, 2 or 3");

public:
  static constexpr int dims = Dims;
  static constexpr bool hasLocal = false;

  HPP_HD explicit Range(std::size_t X) : Size{X, 1, 1} {
    static_assert(Dims == 1, "Range<1>(n) takes one extent");
  }
  HPP_HD Range(std::size_t X, std::size_t Y) : Size{X, Y, 1} {
    static_assert(Dims == 2, "Range<2>(nx, ny) takes two extents");
  }
  HPP_HD Range(std::size_t X, std::size_t Y, std::size_t Z) : Size{X, Y, Z} {
    static_assert(Dims == 3, "Range<3>(nx, ny, nz) takes three extents");
  }

  /// Extent in dimension \p D (0 = X, the fastest varying); 1 beyond Dims.
  HPP_HD std::size_t get(int D) const { return D < 3 ? Size[D] : 1; }
  HPP_HD std::size_t getX() const { return Size[0]; }
  HPP_HD std::size_t getY() const { return Size[1]; }
  HPP_HD std::size_t getZ() const { return Size[2]; }
  /// Number of points in the range.
  HPP_HD std::size_t size() const { return Size[0] * Size[1] * Size[2]; }

private:
  std::size_t Size[3];
};

/// Global size plus work-group size. The global size need not be a multiple
/// of the local size: trailing work-items of the last group do not run.
///
/// In one dimension either size may also be a plain integer, as the paper
/// writes them: `Range<1,1>(n, m)` (of any integer types, e.g. a size_t and
/// an int), `Range<1,1>(n, Range<1>(m))` and `Range<1,1>(Range<1>(n), m)`.
template <int Dims> class Range<Dims, Dims> {
  static_assert(Dims >= 1 && Dims <= 3, "Range<N,N>: N must be 1, 2 or 3");

public:
  static constexpr int dims = Dims;
  static constexpr bool hasLocal = true;

  HPP_HD Range(const Range<Dims> &Global, const Range<Dims> &Local)
      : Global(Global), Local(Local) {}
  HPP_HD Range(std::size_t Global, std::size_t Local)
      : Global(Global), Local(Local) {
    static_assert(Dims == 1, "Range<N,N>(n, m) with integers is 1-D only; "
                             "write Range<N,N>(Range<N>(...), Range<N>(...))");
  }
  HPP_HD Range(std::size_t Global, const Range<Dims> &Local)
      : Global(Global), Local(Local) {
    static_assert(Dims == 1, "Range<N,N>(n, local) with an integer is 1-D "
                             "only; write Range<N,N>(Range<N>(...), local)");
  }
  HPP_HD Range(const Range<Dims> &Global, std::size_t Local)
      : Global(Global), Local(Local) {
    static_assert(Dims == 1, "Range<N,N>(global, m) with an integer is 1-D "
                             "only; write Range<N,N>(global, Range<N>(...))");
  }

  HPP_HD const Range<Dims> &global() const { return Global; }
  HPP_HD const Range<Dims> &local() const { return Local; }
  HPP_HD std::size_t get(int D) const { return Global.get(D); }
  HPP_HD std::size_t getLocal(int D) const { return Local.get(D); }
  HPP_HD std::size_t size() const { return Global.size(); }

private:
  Range<Dims> Global;
  Range<Dims> Local;
};

namespace detail {
/// Number of work-groups needed along \p D to cover \p Global with \p Local.
HPP_HD inline std::size_t groupsFor(std::size_t Global, std::size_t Local) {
  return Local == 0 ? 0 : (Global + Local - 1) / Local;
}
} // namespace detail

} // namespace hpp

#endif // HPP_CORE_RANGE_H
