//===- proj/math.h - Plain helpers the kernels call -----------*- C++ -*-===//
//
// Part of hpp-rewrite: examples/project (README.md).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Plain C++: an inline function and a function template, with no dialect
/// mark. Kernels of several sources call them, and host code too; the
/// rewrite compiles them for both (`__host__ __device__`).
///
//===----------------------------------------------------------------------===//
#ifndef PROJ_MATH_H
#define PROJ_MATH_H

/// The value element \p k holds: small integers, so float sums are exact.
inline float valueAt(int k) { return static_cast<float>(k % 7); }

/// \p x scaled by \p by, in \p T.
template <typename T> T scaled(T x, T by) { return x * by; }

#endif // PROJ_MATH_H
