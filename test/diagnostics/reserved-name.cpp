// A global declaration whose name the CUDA or HIP headers of the output
// declare too compiles as plain C++ (the CPU reference) but not after the
// rewrite (nvcc: "'half' has already been declared in the current scope").
// Each is an error at its first declaration; the same names in a namespace,
// as members or as locals are fine, and so are other names.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out
// The program itself is valid C++ against the reference headers.
// RUN: %cxx -I %hpp_include -fsyntax-only %s

#include <hpp/hpp.h>
using namespace hpp;

struct float2 {
  float x, y;
};
// CHECK-MESSAGES: reserved-name.cpp:[[@LINE-3]]:8: error: 'float2' is declared at global scope by the CUDA and HIP headers that the rewritten file includes, so the output would not compile [hpp-reserved-name]
// CHECK-MESSAGES: reserved-name.cpp:[[@LINE-4]]:8: note: rename it, or declare it in a namespace

inline float half(float x) __device(hpp) { return x / 2; }
// CHECK-MESSAGES: reserved-name.cpp:[[@LINE-1]]:14: error: 'half' is declared at global scope by the CUDA headers that the rewritten file includes, so the output would not compile [hpp-reserved-name]

extern "C" {
typedef int hipError_t;
// CHECK-MESSAGES: reserved-name.cpp:[[@LINE-1]]:13: error: 'hipError_t' is declared at global scope by the HIP headers
}

struct dim3;
// CHECK-MESSAGES: reserved-name.cpp:[[@LINE-1]]:8: error: 'dim3' is declared at global scope by the CUDA and HIP headers
struct dim3 {
  int x, y, z;
};

namespace geo {
struct float2 {
  float x, y;
};
} // namespace geo

struct Shape {
  int int2 = 0;
};

int main() {
  int uint4 = 4;
  geo::float2 p{1, 2};
  Shape s;
  return uint4 + int(p.x) + s.int2;
}
// CHECK-MESSAGES-NOT: error:
// CHECK-MESSAGES: 4 errors generated.
