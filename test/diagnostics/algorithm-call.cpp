// The runtime's performance kernels (hpp::reduce, inclusiveScan,
// exclusiveScan, select, histogram) run their function object on the
// device: a lambda or a function is refused at the argument, in a template's
// instantiation too, and so is an object that is not trivially copyable (the
// kernels get a copy of its bytes); a call from device code is refused at
// the call.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out

#include <hpp/hpp.h>
#include <vector>
using namespace hpp;

bool isOdd(int x) { return x & 1; }
#define SUM_WITH(op) reduce(f, n, 0.0f, op)

template <class T> T sumOf(Pointer<T> p, std::size_t n) {
  return reduce(p, n, T(), [](T a, T b) { return a + b; });
  // CHECK-MESSAGES: algorithm-call.cpp:[[@LINE-1]]:28: error: a lambda cannot be the function object of hpp::reduce: its kernels call it on the device, and nvcc compiles what host code writes for the host only [hpp-algorithm-call]
  // CHECK-MESSAGES: algorithm-call.cpp:[[@LINE-2]]:28: note: pass an object of a struct whose operator() is __device(hpp) (or hpp::Plus, hpp::Minimum, hpp::Maximum)
}

struct Weighted {
  std::vector<float> w;
  float operator()(float a, float b) const { return a + w[0] * b; }
};

int main() {
  const std::size_t n = 64;
  Pointer<float> f = allocate<float>(n);
  Pointer<int> v = allocate<int>(n), o = allocate<int>(n);
  auto add = [](int a, int b) __device(hpp) { return a + b; };
  inclusiveScan(v, o, n, add);
  // CHECK-MESSAGES: algorithm-call.cpp:[[@LINE-1]]:26: error: a lambda cannot be the function object of hpp::inclusiveScan
  select(v, o, n, isOdd);
  // CHECK-MESSAGES: algorithm-call.cpp:[[@LINE-1]]:19: error: a function cannot be the function object of hpp::select
  select(v, o, n, &isOdd);
  // CHECK-MESSAGES: algorithm-call.cpp:[[@LINE-1]]:19: error: a function cannot be the function object of hpp::select
  SUM_WITH([](float a, float b) { return a + b; });
  // CHECK-MESSAGES: algorithm-call.cpp:[[@LINE-1]]:12: error: a lambda cannot be the function object of hpp::reduce
  reduce(f, n, 0.0f, Weighted{{2.0f}});
  // CHECK-MESSAGES: algorithm-call.cpp:[[@LINE-1]]:22: error: the function object of hpp::reduce is copied to the device byte for byte: 'Weighted' is not trivially copyable
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    if (i.getX() == 0)
      o[0] = int(reduce(f, n));
    // CHECK-MESSAGES: algorithm-call.cpp:[[@LINE-1]]:18: error: hpp::reduce is called from host code only: it launches the runtime's kernels and waits for them [hpp-algorithm-call]
    // CHECK-MESSAGES: algorithm-call.cpp:[[@LINE-2]]:18: note: the work-group and warp collectives
  });
  return int(sumOf(f, n));
}
