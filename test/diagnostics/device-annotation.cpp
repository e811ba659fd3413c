// Misplaced `__device(hpp)` (hpp-device-function): on a variable or a
// parameter; on a lambda written in host code that device code calls
// (nvcc would need --extended-lambda); written by a macro after a
// function's parameter list (nvcc rejects it there, and the tool does not
// edit inside macro expansions), on a lambda, or on a function that must
// become `__device__`. The front form inside a macro works:
// test/rewrite/device-annotation-placement.cpp.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out

#include <hpp/hpp.h>
using namespace hpp;

__device(hpp) int gv = 3;
// CHECK-MESSAGES: device-annotation.cpp:[[@LINE-1]]:1: error: `__device(hpp)` marks functions and lambdas as device code, not variables: device code reads no variable of the host's [hpp-device-function]
// CHECK-MESSAGES: device-annotation.cpp:[[@LINE-2]]:1: note: for a value device code reads, make it a constant (`constexpr int n = 3;`); for data it reads or writes, allocate it with hpp::allocate and capture or pass the Pointer

int param(__device(hpp) int x) { return x; }
// CHECK-MESSAGES: device-annotation.cpp:[[@LINE-1]]:11: error: `__device(hpp)` marks functions and lambdas as device code; remove it from this declaration [hpp-device-function]

#define DEFINE_SQ(T) T sq_##T(T x) __device(hpp) { return x * x; }
DEFINE_SQ(int)
// CHECK-MESSAGES: device-annotation.cpp:[[@LINE-1]]:1: error: 'sq_int' is declared by the macro 'DEFINE_SQ' with `__device(hpp)` where the tool cannot rewrite it: after the parameter list, nvcc rejects it, and the tool does not edit inside a macro's expansion [hpp-device-function]
// CHECK-MESSAGES: device-annotation.cpp:[[@LINE-3]]:36: note: put `__device(hpp)` in front of the return type inside the macro's definition (`__device(hpp) T f(T x) { ... }`)

#define DEFINE_SUM(T)                                                          \
  __device(hpp) T sum_##T(T v) {                                               \
    return v + __shfl_xor_sync(0xffffffffu, v, 1);                            \
  }
DEFINE_SUM(int)
// CHECK-MESSAGES: device-annotation.cpp:[[@LINE-1]]:1: error: 'sum_int' runs warp or work-group collectives, so it must become `__device__`, but its `__device(hpp)` is written by the macro 'DEFINE_SUM', whose expansion the tool does not edit [hpp-device-function]
// CHECK-MESSAGES: device-annotation.cpp:[[@LINE-5]]:3: note: define 'sum_int' without the macro, or call the collectives outside it

// The same mark after the parameter list, written in a macro's argument,
// or by a macro's body around a signature its argument gives, or by a
// macro that is only the mark: before, these were taken for the front form
// (compared where they are spelled) and left as written, which nvcc
// rejects ("attributes are not permitted in a function definition").
#define WRAP(...) __VA_ARGS__
WRAP(int arg_trail(int v) __device(hpp) { return v + 1; })
// CHECK-MESSAGES: device-annotation.cpp:[[@LINE-1]]:1: error: 'arg_trail' is declared by the macro 'WRAP' with `__device(hpp)` where the tool cannot rewrite it: after the parameter list, nvcc rejects it, and the tool does not edit inside a macro's expansion [hpp-device-function]
// CHECK-MESSAGES: device-annotation.cpp:[[@LINE-2]]:27: note: put the mark in front of the return type (`__device(hpp) T f(T x) { ... }`)
#define DEVFN(sig, ...) sig __device(hpp) __VA_ARGS__
DEVFN(int body_trail(int v), { return v + 1; })
// CHECK-MESSAGES: device-annotation.cpp:[[@LINE-1]]:1: error: 'body_trail' is declared by the macro 'DEVFN' with `__device(hpp)` where the tool cannot rewrite it: after the parameter list, nvcc rejects it, and the tool does not edit inside a macro's expansion [hpp-device-function]
// CHECK-MESSAGES: device-annotation.cpp:[[@LINE-3]]:29: note: put `__device(hpp)` in front of the return type inside the macro's definition (`__device(hpp) T f(T x) { ... }`)
#define DEV __device(hpp)
int dev_trail(int v) DEV { return v + 1; }
// CHECK-MESSAGES: device-annotation.cpp:[[@LINE-1]]:22: error: 'dev_trail' is declared by the macro 'DEV' with `__device(hpp)` where the tool cannot rewrite it: after the parameter list, nvcc rejects it, and the tool does not edit inside a macro's expansion [hpp-device-function]
// CHECK-MESSAGES: device-annotation.cpp:[[@LINE-2]]:22: note: put the mark in front of the return type (`__device(hpp) T f(T x) { ... }`)
// A function that must become `__device__`, its mark in a macro's argument.
WRAP(__device(hpp) int arg_sum(int v) { return v + __shfl_xor_sync(0xffffffffu, v, 1); })
// CHECK-MESSAGES: device-annotation.cpp:[[@LINE-1]]:1: error: 'arg_sum' runs warp or work-group collectives, so it must become `__device__`, but its `__device(hpp)` is written by the macro 'WRAP', whose expansion the tool does not edit [hpp-device-function]

#define ADD_ONE [](int x) __device(hpp) { return x + 1; }
int hostOnly() {
  auto f = ADD_ONE;
  // CHECK-MESSAGES: device-annotation.cpp:[[@LINE-1]]:12: error: this lambda's `__device(hpp)` is written inside a macro: nvcc rejects an execution space written on a lambda, and the tool does not edit inside a macro's expansion [hpp-device-function]
  // CHECK-MESSAGES: device-annotation.cpp:[[@LINE-4]]:27: note: remove `__device(hpp)` from the lambda in the macro
  return f(1);
}

template <class F> __device(hpp) int apply(F f, int x) { return f(x); }
constexpr auto inc = [](int x) __device(hpp) { return x + 1; };
// CHECK-MESSAGES: device-annotation.cpp:[[@LINE-1]]:32: error: this `__device(hpp)` lambda is written in host code and called in device code: nvcc compiles such a lambda for the device only with --extended-lambda, which the output does not require [hpp-device-function]
// CHECK-MESSAGES: device-annotation.cpp:{{[0-9]+}}:{{[0-9]+}}: note: called in device code here
// CHECK-MESSAGES: device-annotation.cpp:[[@LINE-3]]:32: note: make it a `__device(hpp)` function, or write the lambda inside the parallelFor body or the device function that calls it

void kernel(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = sq_int(2) + sum_int(1) + apply(inc, 1) + arg_trail(1) +
                    body_trail(1) + dev_trail(1) + arg_sum(1);
  });
}
// CHECK-MESSAGES: hpp-rewrite: error: rewriting failed; no output written
