//===- hpp/backend/cpu_cuda_atomics.h - CUDA atomics, CPU -------*- C++ -*-===//
//
// Part of hpp-rewrite. Device runtime, CPU backend (hpp/cuda_api.h).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// CUDA's atomic functions on the CPU backend, with CUDA's overload set:
/// non-template functions of the global namespace, one per type CUDA has
/// (one row each below), so that a call resolves as nvcc resolves it
/// (`atomicAdd(unsigned *, int)` is the unsigned overload, `atomicAdd(float
/// *, 1.0)` the float one, `atomicAdd(long long *, ...)` does not compile).
/// Sequentially consistent GCC/Clang __atomic builtins, since the blocks of
/// a launch run on several host threads; a compare-and-swap loop where no
/// builtin exists (floating-point add, min, max, inc, dec).
///
/// The dialect's atomics (hpp/core/atomic.h: templates in namespace hpp,
/// on T *, Atomic<T> * and Pointer<T>) are untouched: port-mode code sees
/// only these (it has no `using namespace hpp`), and code that sees both
/// gets these for CUDA's exact types (a non-template wins a tie) and the
/// templates for the rest.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_CPU_CUDA_ATOMICS_H
#define HPP_RUNTIME_BACKEND_CPU_CUDA_ATOMICS_H

namespace hpp {
namespace detail {

/// Stores Update(old) at \p Address atomically; returns the old value.
template <class T, class F> T atomicUpdate(T *Address, F Update) {
  T Old;
  __atomic_load(Address, &Old, __ATOMIC_SEQ_CST);
  T New = Update(Old);
  while (!__atomic_compare_exchange(Address, &Old, &New, false,
                                    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
    New = Update(Old);
  return Old;
}

} // namespace detail
} // namespace hpp

// Operations with a builtin: one function per (name, type).
#define HPP_CUDA_ATOMIC_BUILTIN(Name, Type, Builtin)                           \
  inline Type Name(Type *Address, Type Value) {                                \
    return Builtin(Address, Value, __ATOMIC_SEQ_CST);                          \
  }
// Operations as an update of the old value (Old, Value: the new one).
#define HPP_CUDA_ATOMIC_UPDATE(Name, Type, Expression)                         \
  inline Type Name(Type *Address, Type Value) {                                \
    return ::hpp::detail::atomicUpdate(                                        \
        Address, [Value](Type Old) -> Type { return (Expression); });          \
  }

HPP_CUDA_ATOMIC_BUILTIN(atomicAdd, int, __atomic_fetch_add)
HPP_CUDA_ATOMIC_BUILTIN(atomicAdd, unsigned, __atomic_fetch_add)
HPP_CUDA_ATOMIC_BUILTIN(atomicAdd, unsigned long long, __atomic_fetch_add)
HPP_CUDA_ATOMIC_UPDATE(atomicAdd, float, Old + Value)
HPP_CUDA_ATOMIC_UPDATE(atomicAdd, double, Old + Value)

HPP_CUDA_ATOMIC_BUILTIN(atomicSub, int, __atomic_fetch_sub)
HPP_CUDA_ATOMIC_BUILTIN(atomicSub, unsigned, __atomic_fetch_sub)

HPP_CUDA_ATOMIC_BUILTIN(atomicExch, int, __atomic_exchange_n)
HPP_CUDA_ATOMIC_BUILTIN(atomicExch, unsigned, __atomic_exchange_n)
HPP_CUDA_ATOMIC_BUILTIN(atomicExch, unsigned long long, __atomic_exchange_n)
HPP_CUDA_ATOMIC_UPDATE(atomicExch, float, ((void)Old, Value))

HPP_CUDA_ATOMIC_UPDATE(atomicMin, int, Value < Old ? Value : Old)
HPP_CUDA_ATOMIC_UPDATE(atomicMin, unsigned, Value < Old ? Value : Old)
HPP_CUDA_ATOMIC_UPDATE(atomicMin, long long, Value < Old ? Value : Old)
HPP_CUDA_ATOMIC_UPDATE(atomicMin, unsigned long long, Value < Old ? Value : Old)
HPP_CUDA_ATOMIC_UPDATE(atomicMax, int, Value > Old ? Value : Old)
HPP_CUDA_ATOMIC_UPDATE(atomicMax, unsigned, Value > Old ? Value : Old)
HPP_CUDA_ATOMIC_UPDATE(atomicMax, long long, Value > Old ? Value : Old)
HPP_CUDA_ATOMIC_UPDATE(atomicMax, unsigned long long, Value > Old ? Value : Old)

/// ((old >= Value) ? 0 : old + 1), CUDA's wrapping increment.
HPP_CUDA_ATOMIC_UPDATE(atomicInc, unsigned, Old >= Value ? 0u : Old + 1)
/// ((old == 0 || old > Value) ? Value : old - 1), CUDA's wrapping decrement.
HPP_CUDA_ATOMIC_UPDATE(atomicDec, unsigned,
                       Old == 0 || Old > Value ? Value : Old - 1)

HPP_CUDA_ATOMIC_BUILTIN(atomicAnd, int, __atomic_fetch_and)
HPP_CUDA_ATOMIC_BUILTIN(atomicAnd, unsigned, __atomic_fetch_and)
HPP_CUDA_ATOMIC_BUILTIN(atomicAnd, unsigned long long, __atomic_fetch_and)
HPP_CUDA_ATOMIC_BUILTIN(atomicOr, int, __atomic_fetch_or)
HPP_CUDA_ATOMIC_BUILTIN(atomicOr, unsigned, __atomic_fetch_or)
HPP_CUDA_ATOMIC_BUILTIN(atomicOr, unsigned long long, __atomic_fetch_or)
HPP_CUDA_ATOMIC_BUILTIN(atomicXor, int, __atomic_fetch_xor)
HPP_CUDA_ATOMIC_BUILTIN(atomicXor, unsigned, __atomic_fetch_xor)
HPP_CUDA_ATOMIC_BUILTIN(atomicXor, unsigned long long, __atomic_fetch_xor)

#undef HPP_CUDA_ATOMIC_BUILTIN
#undef HPP_CUDA_ATOMIC_UPDATE

// Compare-and-swap: stores Value if the old value equals Compare; returns
// the old value either way.
#define HPP_CUDA_ATOMIC_CAS(Type)                                              \
  inline Type atomicCAS(Type *Address, Type Compare, Type Value) {             \
    __atomic_compare_exchange_n(Address, &Compare, Value, false,               \
                                __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);           \
    return Compare;                                                            \
  }
HPP_CUDA_ATOMIC_CAS(int)
HPP_CUDA_ATOMIC_CAS(unsigned)
HPP_CUDA_ATOMIC_CAS(unsigned long long)
HPP_CUDA_ATOMIC_CAS(unsigned short)
#undef HPP_CUDA_ATOMIC_CAS

#endif // HPP_RUNTIME_BACKEND_CPU_CUDA_ATOMICS_H
