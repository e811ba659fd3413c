// The macros and the standard that the flags of test/tool/parse-flags.test
// give (nvcc-flags.txt); a missing one is an error.
#include <hpp/hpp.h>

#if !defined(FROM_D) || FROM_D != 1
#error "FROM_D (-DFROM_D=1)"
#endif
#if !defined(FROM_LONG) || FROM_LONG != 2
#error "FROM_LONG (nvcc's --define-macro=FROM_LONG=2)"
#endif
#if !defined(FROM_HOST) || FROM_HOST != 3
#error "FROM_HOST (nvcc's -Xcompiler -DFROM_HOST=3,...)"
#endif
#ifndef __FAST_MATH__
#error "__FAST_MATH__ (nvcc's -Xcompiler ...,-ffast-math)"
#endif
#ifndef FORCED
#error "FORCED (SHELL:-include forced.h)"
#endif
#if __cplusplus != 202002L
#error "C++20 (nvcc's -std c++20)"
#endif
#ifdef UNDEFINED_AGAIN
#error "UNDEFINED_AGAIN (-U after -D)"
#endif
#ifndef __OPTIMIZE__
#error "__OPTIMIZE__ (-O2)"
#endif
#ifndef AFTER_WERROR
#error "AFTER_WERROR (nvcc's -Werror takes its kind, not the next flag)"
#endif

using namespace hpp;

void fill(Pointer<int> p) {
  parallelFor(Range<1>(4), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = FROM_D + FROM_LONG + FROM_HOST;
  });
}
