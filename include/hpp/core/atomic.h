//===- hpp/core/atomic.h - Atomic<T> and the free atomic functions --------===//
//
// Part of hpp-rewrite. Shared by every backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Atomic<T> has the size and layout of T, so allocate<Atomic<int>>(n) is n
/// ints of device-visible memory. Read-modify-write members return the
/// previous value, like CUDA's atomicAdd. The operations themselves come
/// from the backend: hpp::detail::AtomicOps<T> (GCC/Clang __atomic builtins
/// on the host, atomicAdd & co. in device code).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CORE_ATOMIC_H
#define HPP_CORE_ATOMIC_H

#include "hpp/core/atomic_ops.h"
#include "hpp/core/pointer.h"

namespace hpp {

/// An atomically updated T (int, unsigned, long long, unsigned long long,
/// float or double).
template <class T> class Atomic {
  using Ops = detail::AtomicOps<T>;

public:
  using value_type = T;

  Atomic() = default;
  HPP_HD Atomic(T Initial) : Value(Initial) {}
  Atomic(const Atomic &) = delete;
  Atomic &operator=(const Atomic &) = delete;

  HPP_HD T add(T V) { return Ops::add(&Value, V); }
  HPP_HD T sub(T V) { return Ops::add(&Value, T(0) - V); }
  HPP_HD T min(T V) { return Ops::min(&Value, V); }
  HPP_HD T max(T V) { return Ops::max(&Value, V); }
  HPP_HD T exchange(T V) { return Ops::exchange(&Value, V); }
  /// Stores \p Desired if the value equals \p Expected; returns the previous
  /// value either way.
  HPP_HD T compareExchange(T Expected, T Desired) {
    return Ops::compareExchange(&Value, Expected, Desired);
  }
  HPP_HD T load() const { return Ops::load(&Value); }
  HPP_HD void store(T V) { Ops::store(&Value, V); }

  HPP_HD T operator++() { return add(T(1)) + T(1); }
  HPP_HD T operator++(int) { return add(T(1)); }
  HPP_HD T operator--() { return add(T(0) - T(1)) - T(1); }
  HPP_HD T operator--(int) { return add(T(0) - T(1)); }
  HPP_HD T operator+=(T V) { return add(V) + V; }
  HPP_HD T operator-=(T V) { return add(T(0) - V) - V; }
  HPP_HD operator T() const { return load(); }

private:
  T Value;
};

// Free functions in CUDA's spelling, on Pointer<T>, Pointer<Atomic<T>>, T*
// and Atomic<T>*. They return the previous value.
#define HPP_FREE_ATOMIC(NAME, OP)                                              \
  template <class T> HPP_HD T NAME(T *Addr, T V) {                             \
    return detail::AtomicOps<T>::OP(Addr, V);                                  \
  }                                                                            \
  template <class T> HPP_HD T NAME(Atomic<T> *Addr, T V) {                     \
    return NAME(reinterpret_cast<T *>(Addr), V);                               \
  }                                                                            \
  template <class T> HPP_HD T NAME(const Pointer<T> &P, T V) {                 \
    return NAME(P.get(), V);                                                   \
  }                                                                            \
  template <class T> HPP_HD T NAME(const Pointer<Atomic<T>> &P, T V) {         \
    return NAME(reinterpret_cast<T *>(P.get()), V);                            \
  }
HPP_FREE_ATOMIC(atomicAdd, add)
HPP_FREE_ATOMIC(atomicMin, min)
HPP_FREE_ATOMIC(atomicMax, max)
HPP_FREE_ATOMIC(atomicExch, exchange)
#undef HPP_FREE_ATOMIC

template <class T> HPP_HD T atomicSub(T *Addr, T V) {
  return detail::AtomicOps<T>::add(Addr, T(0) - V);
}
template <class T> HPP_HD T atomicSub(const Pointer<T> &P, T V) {
  return atomicSub(P.get(), V);
}
template <class T> HPP_HD T atomicCAS(T *Addr, T Expected, T Desired) {
  return detail::AtomicOps<T>::compareExchange(Addr, Expected, Desired);
}
template <class T> HPP_HD T atomicCAS(const Pointer<T> &P, T Expected,
                                      T Desired) {
  return atomicCAS(P.get(), Expected, Desired);
}

} // namespace hpp

#endif // HPP_CORE_ATOMIC_H
