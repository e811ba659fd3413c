//===- hpp/core/atomic_ops.h - Backend atomic primitives ------------------===//
//
// Part of hpp-rewrite. Shared by every backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// detail::AtomicOps<T>: the primitive operations behind Atomic<T>. Host code
/// (the CPU runtime, and host code of GPU programs) uses the GCC/Clang
/// __atomic builtins; device code uses CUDA/HIP atomics. On HIP, float and
/// double add use unsafeAtomicAdd: Atomic<T> objects only live in memory from
/// hpp::allocate, which the HIP backend advises coarse-grained, where the
/// hardware FP atomics are correct.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CORE_ATOMIC_OPS_H
#define HPP_CORE_ATOMIC_OPS_H

#include "hpp/core/config.h"

#include <cstring>
#include <type_traits>

namespace hpp {
namespace detail {

/// The unsigned integer type with the size of T.
template <class T> struct BitsOf {
  using type = std::conditional_t<
      sizeof(T) == 1, unsigned char,
      std::conditional_t<sizeof(T) == 2, unsigned short,
                         std::conditional_t<sizeof(T) == 4, unsigned int,
                                            unsigned long long>>>;
  static_assert(sizeof(type) == sizeof(T), "no unsigned type of this size");
};

/// Reinterprets the bits of \p From as a To of the same size (memcpy is
/// available in CUDA and HIP device code; std::memcmp & co. are not).
template <class To, class From> HPP_HD To bitCast(const From &F) {
  static_assert(sizeof(To) == sizeof(From), "bitCast: sizes differ");
  To T;
  memcpy(&T, &F, sizeof(To));
  return T;
}

/// Bit-pattern compare-and-swap loop for operations the hardware lacks.
template <class T, class F> HPP_HD T casLoop(T *Addr, F Update);

/// Atomic primitives on a T in memory visible to the caller.
template <class T> struct AtomicOps {
  static_assert(std::is_arithmetic<T>::value,
                "Atomic<T>: T must be int, unsigned, long long, unsigned long "
                "long, float or double");

#if defined(HPP_DEVICE_PASS)
  using Bits = typename BitsOf<T>::type;
  /// Types CUDA and HIP both have atomicAdd/Exch/CAS/Min/Max overloads for.
  /// Any other integer (long long, long) goes through the unsigned type of
  /// its size, which gives the same bits in two's complement.
  static constexpr bool NativeInt = std::is_same<T, int>::value ||
                                    std::is_same<T, unsigned int>::value ||
                                    std::is_same<T, unsigned long long>::value;
  /// CUDA also has atomicMin/Max for long long; HIP 5.x does not.
#if defined(HPP_BACKEND_CUDA)
  static constexpr bool HasNativeLongLongMinMax = true;
#else
  static constexpr bool HasNativeLongLongMinMax = false;
#endif

  __device__ static T add(T *A, T V) {
    if constexpr (std::is_floating_point<T>::value) {
#if defined(HPP_BACKEND_HIP)
      return unsafeAtomicAdd(A, V);
#else
      return ::atomicAdd(A, V);
#endif
    } else if constexpr (NativeInt) {
      return ::atomicAdd(A, V);
    } else {
      return bitCast<T>(
          ::atomicAdd(reinterpret_cast<Bits *>(A), bitCast<Bits>(V)));
    }
  }
  __device__ static T exchange(T *A, T V) {
    if constexpr (NativeInt || std::is_same<T, float>::value)
      return ::atomicExch(A, V);
    else
      return bitCast<T>(
          ::atomicExch(reinterpret_cast<Bits *>(A), bitCast<Bits>(V)));
  }
  __device__ static T compareExchange(T *A, T E, T D) {
    if constexpr (NativeInt)
      return ::atomicCAS(A, E, D);
    else
      return bitsCAS(A, E, D);
  }
  __device__ static T min(T *A, T V) {
    if constexpr (NativeInt || (HasNativeLongLongMinMax &&
                                std::is_same<T, long long>::value))
      return ::atomicMin(A, V);
    else
      return casLoop(A, [V](T Old) { return V < Old ? V : Old; });
  }
  __device__ static T max(T *A, T V) {
    if constexpr (NativeInt || (HasNativeLongLongMinMax &&
                                std::is_same<T, long long>::value))
      return ::atomicMax(A, V);
    else
      return casLoop(A, [V](T Old) { return V > Old ? V : Old; });
  }
  __device__ static T load(const T *A) {
    return *static_cast<const volatile T *>(A);
  }
  __device__ static void store(T *A, T V) { (void)exchange(A, V); }
  /// CAS on the bit pattern (float/double/long long have no native
  /// atomicCAS).
  __device__ static T bitsCAS(T *A, T E, T D) {
    return bitCast<T>(::atomicCAS(reinterpret_cast<Bits *>(A), bitCast<Bits>(E),
                                  bitCast<Bits>(D)));
  }
#else
  static T add(T *A, T V) {
    if constexpr (std::is_floating_point<T>::value)
      return casLoop(A, [V](T Old) { return Old + V; });
    else
      return __atomic_fetch_add(A, V, __ATOMIC_SEQ_CST);
  }
  static T exchange(T *A, T V) {
    T Old;
    __atomic_exchange(A, &V, &Old, __ATOMIC_SEQ_CST);
    return Old;
  }
  static T compareExchange(T *A, T E, T D) {
    __atomic_compare_exchange(A, &E, &D, false, __ATOMIC_SEQ_CST,
                              __ATOMIC_SEQ_CST);
    return E; // Holds the previous value whether or not the swap happened.
  }
  static T min(T *A, T V) {
    return casLoop(A, [V](T Old) { return V < Old ? V : Old; });
  }
  static T max(T *A, T V) {
    return casLoop(A, [V](T Old) { return V > Old ? V : Old; });
  }
  static T load(const T *A) {
    T R;
    __atomic_load(A, &R, __ATOMIC_SEQ_CST);
    return R;
  }
  static void store(T *A, T V) { __atomic_store(A, &V, __ATOMIC_SEQ_CST); }
  static T bitsCAS(T *A, T E, T D) { return compareExchange(A, E, D); }
#endif
};

template <class T, class F> HPP_HD T casLoop(T *Addr, F Update) {
  T Old = AtomicOps<T>::load(Addr);
  for (;;) {
    T Seen = AtomicOps<T>::bitsCAS(Addr, Old, Update(Old));
    using Bits = typename BitsOf<T>::type;
    if (bitCast<Bits>(Seen) == bitCast<Bits>(Old))
      return Old;
    Old = Seen;
  }
}

} // namespace detail
} // namespace hpp

#endif // HPP_CORE_ATOMIC_OPS_H
