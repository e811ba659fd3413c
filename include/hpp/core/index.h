//===- hpp/core/index.h - Index<N> and Index<N,N> -------------------------===//
//
// Part of hpp-rewrite. Shared by every backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The work-item's position, as seen by a parallelFor body. Every backend
/// fills the same fields; the accessors of spec 1.2 read them. As the paper
/// writes it, a 1-D Index is also an integer (its global id: `a[i]`,
/// `i + 1`), and an Index<1,1> converts to Index<1>, so a Range<1,1>
/// launch may take an Index<1> body.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CORE_INDEX_H
#define HPP_CORE_INDEX_H

#include "hpp/core/range.h"

#include <cstddef>
#include <type_traits>

namespace hpp {

template <int Dims, int LocalDims = 0> class Index;

namespace detail {
/// Per-dimension ids and sizes of a work-item, X first: what every backend
/// fills, the same for every Index<N,L> (Index<N,L>::Fields).
struct IndexFields {
  std::size_t Global[3], Local[3], Group[3];
  std::size_t LocalSize[3], GlobalSize[3], GroupCount[3];
};

/// What a multi-dimensional Index "converts" to: nothing can use it, so
/// only a 1-D Index is an integer.
class IndexIsNotAnInteger {
  HPP_HD explicit IndexIsNotAnInteger(std::size_t) {}
  template <int, int> friend class hpp::Index;
};
} // namespace detail

/// Position of one work-item: global, local and group ids and the sizes of
/// the launch. Index<N> pairs with Range<N>, Index<N,N> with Range<N,N>.
template <int Dims, int LocalDims> class Index {
  static_assert(Dims >= 1 && Dims <= 3, "Index<N>: N must be 1, 2 or 3");
  static_assert(LocalDims == 0 || LocalDims == Dims,
                "Index<N,L>: L must be 0 or N");

public:
  static constexpr int dims = Dims;

  /// Per-dimension ids and sizes, X first. Filled by the backend.
  using Fields = detail::IndexFields;

  Index() = default;
  HPP_HD explicit Index(const Fields &F) : F(F) {}

  /// An Index<1,1> as an Index<1> (the same work-item): the paper's body
  /// of a Range<1,1> launch takes an Index<1>. One dimension only.
  template <int L,
            std::enable_if_t<L == 1 && Dims == 1 && LocalDims == 0, int> = 0>
  HPP_HD Index(const Index<1, L> &I) : F(I.fields()) {}

  /// A 1-D Index is its global id where it is used as an integer (`a[i]`,
  /// `b[i] = ...`, `i + 1`, `i < n`), as the paper writes it. An N-D Index
  /// converts to no integer type.
  using Integer =
      std::conditional_t<Dims == 1, std::size_t, detail::IndexIsNotAnInteger>;
  HPP_HD operator Integer() const { return Integer(F.Global[0]); }

  /// Every id and size of the work-item.
  HPP_HD const Fields &fields() const { return F; }

  HPP_HD std::size_t getX() const { return F.Global[0]; }
  HPP_HD std::size_t getY() const { return F.Global[1]; }
  HPP_HD std::size_t getZ() const { return F.Global[2]; }
  HPP_HD std::size_t getLocalX() const { return F.Local[0]; }
  HPP_HD std::size_t getLocalY() const { return F.Local[1]; }
  HPP_HD std::size_t getLocalZ() const { return F.Local[2]; }
  HPP_HD std::size_t getGroupX() const { return F.Group[0]; }
  HPP_HD std::size_t getGroupY() const { return F.Group[1]; }
  HPP_HD std::size_t getGroupZ() const { return F.Group[2]; }
  HPP_HD std::size_t getLocalSizeX() const { return F.LocalSize[0]; }
  HPP_HD std::size_t getLocalSizeY() const { return F.LocalSize[1]; }
  HPP_HD std::size_t getLocalSizeZ() const { return F.LocalSize[2]; }
  HPP_HD std::size_t getGlobalSizeX() const { return F.GlobalSize[0]; }
  HPP_HD std::size_t getGlobalSizeY() const { return F.GlobalSize[1]; }
  HPP_HD std::size_t getGlobalSizeZ() const { return F.GlobalSize[2]; }
  HPP_HD std::size_t getGroupCountX() const { return F.GroupCount[0]; }
  HPP_HD std::size_t getGroupCountY() const { return F.GroupCount[1]; }
  HPP_HD std::size_t getGroupCountZ() const { return F.GroupCount[2]; }

  /// OpenCL spellings (dimension 0 = X). Out-of-range dimensions give the
  /// OpenCL defaults: id 0, size 1.
  HPP_HD std::size_t get_global_id(unsigned D) const { return at(F.Global, D, 0); }
  HPP_HD std::size_t get_local_id(unsigned D) const { return at(F.Local, D, 0); }
  HPP_HD std::size_t get_group_id(unsigned D) const { return at(F.Group, D, 0); }
  HPP_HD std::size_t get_local_size(unsigned D) const { return at(F.LocalSize, D, 1); }
  HPP_HD std::size_t get_global_size(unsigned D) const { return at(F.GlobalSize, D, 1); }
  HPP_HD std::size_t get_num_groups(unsigned D) const { return at(F.GroupCount, D, 1); }

  /// True when the work-item lies inside the global range (trailing items of
  /// the last work-group do not run the body).
  HPP_HD bool inGlobalRange() const {
    return F.Global[0] < F.GlobalSize[0] && F.Global[1] < F.GlobalSize[1] &&
           F.Global[2] < F.GlobalSize[2];
  }

private:
  HPP_HD static std::size_t at(const std::size_t (&A)[3], unsigned D,
                               std::size_t Default) {
    return D < 3 ? A[D] : Default;
  }
  Fields F;
};

} // namespace hpp

#endif // HPP_CORE_INDEX_H
