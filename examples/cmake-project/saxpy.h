//===- saxpy.h - y = a*x + y, declared for main.cpp -----------------------===//
//
// Part of hpp-rewrite. examples/cmake-project.
//
// Include <hpp/hpp.h> before this header: hpp-rewrite rewrites that
// include in each source, and a header that includes it itself would keep
// the CPU reference in the output (error [hpp-include]).
//
//===----------------------------------------------------------------------===//
#ifndef SAXPY_H
#define SAXPY_H

/// y[e] = a * x[e] + y[e] for e < n, on the device.
void saxpy(float a, hpp::Pointer<float> x, hpp::Pointer<float> y, int n);

#endif // SAXPY_H
