// Names a kernel outlined at namespace scope cannot reach are errors at the
// use, never output that fails in nvcc: private members (CUDA also refuses
// private types in a kernel's parameters), types local to the function,
// closures, and a parallelFor nested in device code (no launch from device
// code on HIP).
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out

#include <hpp/hpp.h>
using namespace hpp;

// Reported as the call is found, before the others.
void nested(Pointer<int> p) {
  parallelFor(Range<1>(2), [=](Index<1> i) __device(hpp) {
    parallelFor(Range<1>(2), [=](Index<1> j) __device(hpp) { p[j.getX()] = 9; });
    // CHECK-MESSAGES: kernel-scope.cpp:[[@LINE-1]]:5: error: a parallelFor inside device code cannot be rewritten: kernels are launched from the host (HIP has no launch from device code); move it to host code, or run its work in this body's loop [hpp-parallel-for]
  });
}

class K {
  struct Hidden {
    int a;
  };
  static int f(int x) __device(hpp) { return x; }

public:
  void callsPrivate(Pointer<int> p) {
    parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) {
      p[i.getX()] = f(1);
      // CHECK-MESSAGES: kernel-scope.cpp:[[@LINE-1]]:21: error: cannot outline: the body uses 'f', a private or protected member of 'K'; the kernel is a function outside the class and cannot access it; make it public, or copy the value into a local variable and capture that [hpp-parallel-for]
    });
  }
  void capturesPrivateType(Pointer<int> p) {
    Hidden h{1};
    parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) {
      p[i.getX()] = h.a;
      // CHECK-MESSAGES: kernel-scope.cpp:[[@LINE-1]]:21: error: cannot outline: a capture has type 'Hidden', which names 'K::Hidden', a private or protected class member; CUDA does not allow it in a kernel's parameters; make it public [hpp-parallel-for]
    });
  }
};

void locals(Pointer<int> p) {
  struct L {
    int a;
  };
  enum E { One = 1 };
  using LA = L;
  parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) {
    L l{2};
    // CHECK-MESSAGES: kernel-scope.cpp:[[@LINE-1]]:5: error: cannot outline: the body uses 'L', a type declared in the enclosing function; the kernel, at namespace scope, cannot name it (CUDA also refuses local types in kernels); declare it at namespace scope [hpp-parallel-for]
    p[i.getX()] = l.a;
  });
  parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) { p[i.getX()] = One; });
  // CHECK-MESSAGES: kernel-scope.cpp:[[@LINE-1]]:75: error: cannot outline: the body uses 'E', a type declared in the enclosing function; {{.*}} [hpp-parallel-for]
  parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) {
    LA l{2};
    // CHECK-MESSAGES: kernel-scope.cpp:[[@LINE-1]]:5: error: cannot outline: the body uses 'LA', a type declared in the enclosing function; {{.*}} [hpp-parallel-for]
    p[i.getX()] = l.a;
  });
  L captured{3};
  parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = captured.a;
    // CHECK-MESSAGES: kernel-scope.cpp:[[@LINE-1]]:19: error: cannot outline: a capture has type 'L', which is local to the function; a kernel at namespace scope cannot name it [hpp-parallel-for]
  });
  auto g = [](int x) __device(hpp) { return x + 1; };
  parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = g(1);
    // CHECK-MESSAGES: kernel-scope.cpp:[[@LINE-1]]:19: error: cannot outline: a capture has type {{.*}}, which is local to the function; a kernel at namespace scope cannot name it [hpp-parallel-for]
  });
}
