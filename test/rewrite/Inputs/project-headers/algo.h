// Kernels in a header (project-headers.test): an inline function and a
// function template that launch parallelFor, outlined into this header
// (the template's kernel a template, the other's static).
#pragma once
#include <hpp/hpp.h>

#include "helpers.h"

inline void fill(hpp::Pointer<float> p, int n, float v) {
  hpp::parallelFor(hpp::Range<1>(n), [=](hpp::Index<1> i) __device(hpp) {
    p[i.getX()] = v;
  });
}

template <typename T, typename F>
void transform(hpp::Pointer<T> p, int n, F f) {
  hpp::parallelFor(hpp::Range<1, 1>(n, MVECTOR_SIZE),
                   [=](hpp::Index<1, 1> i) __device(hpp) {
                     p[i.getX()] = f(p[i.getX()]);
                   });
}

/// Doubles through the header's helper.
struct Twice {
  __device(hpp) float operator()(float x) const { return twice(x); }
};
