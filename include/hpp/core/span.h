//===- hpp/core/span.h - Span<T>: a pointer and a length ------------------===//
//
// Part of hpp-rewrite. Shared by the CPU reference runtime and the device
// runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp::Span<T>, the view of a channel's values that a consumer receives
/// (spec 1.8): `data()`, `size()`, `s[i]`, `begin()`/`end()`. Usable in
/// host and device code; it owns nothing.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CORE_SPAN_H
#define HPP_CORE_SPAN_H

#include "hpp/core/config.h"

#include <cstddef>

namespace hpp {

/// \p Count values of type T starting at \p Data, owned elsewhere.
template <class T> class Span {
public:
  Span() = default;
  HPP_HD Span(T *Data, std::size_t Count) : Ptr(Data), Count(Count) {}

  HPP_HD T *data() const { return Ptr; }
  HPP_HD std::size_t size() const { return Count; }
  HPP_HD bool empty() const { return Count == 0; }
  HPP_HD T &operator[](std::size_t I) const { return Ptr[I]; }
  HPP_HD T *begin() const { return Ptr; }
  HPP_HD T *end() const { return Ptr + Count; }

private:
  T *Ptr = nullptr;
  std::size_t Count = 0;
};

} // namespace hpp

#endif // HPP_CORE_SPAN_H
