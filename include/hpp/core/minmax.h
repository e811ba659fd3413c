//===- hpp/core/minmax.h - hpp::min and hpp::max for host and device ------===//
//
// Part of hpp-rewrite. Shared by the CPU reference runtime and the device
// runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// std::min and std::max are constexpr functions of the host's library,
/// which nvcc does not compile for the device ("calling a constexpr
/// __host__ function ... is not allowed"). hpp::math::min and
/// hpp::math::max are the same functions (the same results, the same
/// argument returned on a tie: the first) for host and device code alike;
/// hpp-host-call-in-device offers them as the fix of a std::min or
/// std::max in device code. They live in a namespace of their own, so that
/// `using namespace hpp;` next to `using namespace std;` leaves an
/// unqualified min(a, b) unambiguous.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CORE_MINMAX_H
#define HPP_CORE_MINMAX_H

#include "hpp/core/config.h"

namespace hpp {
namespace math {

/// The smaller of \p A and \p B; \p A when neither is smaller.
template <class T> HPP_HD constexpr const T &min(const T &A, const T &B) {
  return B < A ? B : A;
}
/// The smaller of \p A and \p B by \p Less; \p A when neither is smaller.
template <class T, class Compare>
HPP_HD constexpr const T &min(const T &A, const T &B, Compare Less) {
  return Less(B, A) ? B : A;
}
/// The larger of \p A and \p B; \p A when neither is larger.
template <class T> HPP_HD constexpr const T &max(const T &A, const T &B) {
  return A < B ? B : A;
}
/// The larger of \p A and \p B by \p Less; \p A when neither is larger.
template <class T, class Compare>
HPP_HD constexpr const T &max(const T &A, const T &B, Compare Less) {
  return Less(A, B) ? B : A;
}

} // namespace math
} // namespace hpp

#endif // HPP_CORE_MINMAX_H
