// A 1-D Index used as the paper uses it (spec 1.2): as an integer, its
// global id (`a[i]`, `b[i] = ...`, `i + 1`, `i < n`, passed for a
// std::size_t), and an Index<1> body for a Range<1,1> launch, with and
// without a DistArray. The outliner declares the index as the body wrote
// it (Index<1>, from the launch's Index<1, 1>), so a __device(hpp) function
// taking Index<1> sees the same type. Results are checked against plain
// C++. A body taking an integer instead of an Index, and an N-D Index used
// as an integer, do not compile.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | count 0
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx -I %hpp_include %s -o %t.ref
// RUN: env HPP_CPU_MVECTOR=32 HPP_CPU_CHECK=uninit %t.ref > %t.ref32
// RUN: env HPP_CPU_MVECTOR=64 HPP_CPU_CHECK=uninit %t.ref > %t.ref64
// RUN: diff %t.ref32 %t.ref64
// RUN: FileCheck %s --check-prefix=OUT --match-full-lines < %t.ref32
// RUN: %cxx_runtime -DHPP_CPU_CHECKS %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 HPP_CPU_CHECK=uninit %t.exe > %t.gen32
// RUN: env HPP_CPU_MVECTOR=64 HPP_CPU_CHECK=uninit %t.exe > %t.gen64
// RUN: diff %t.ref32 %t.gen32
// RUN: diff %t.ref32 %t.gen64
// RUN: not %cxx -fsyntax-only -I %hpp_include -DBAD_INTEGER_BODY %s 2>&1 | FileCheck %s --check-prefix=BADBODY
// RUN: not %cxx -fsyntax-only -I %hpp_include -DBAD_2D_INTEGER %s 2>&1 | FileCheck %s --check-prefix=BAD2D
// RUN: %gpu_check %t.cpp
//
// OUT: saxpy: n=1000 verified
// OUT-NEXT: paper: n=1000 local=64 verified
// OUT-NEXT: darray: n=200 local=64 verified
// OUT-NOT: {{.}}
//
// BADBODY: static assertion failed{{.*}}: parallelFor: the body's parameter must be an hpp::Index (a 1-D Index converts to its global id inside the body)

#include <hpp/hpp.h>

#include <cstdio>

using namespace hpp;

/// Takes the body's Index<1>.
__device(hpp) inline float twice(Index<1> j, Pointer<float> a) {
  return 2.0f * a[j];
}
/// Takes a global id.
__device(hpp) inline std::size_t next(std::size_t k) { return k + 1; }

/// y = a * x + y over Range<1>: `x[i]`, `y[i]`.
void saxpy(Pointer<float> x, Pointer<float> y, float a, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    y[i] = a * x[i] + y[i];
  });
}
// CHECK: hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range);
// CHECK: y[i] = a * x[i] + y[i];

/// The paper's Range<1,1> launch with an Index<1> body.
void paper(Pointer<float> a, Pointer<float> b, Pointer<std::size_t> c,
           Pointer<float> d, int n) {
  parallelFor(Range<1, 1>(n, 64), [=](Index<1> i) __device(hpp) {
    b[i] = a[i] + 1.0f;
    c[i] = i + 1;
    if (i < 4)
      d[i] = twice(i, a);
    else
      d[i] = float(next(i) - i);
  });
}
// CHECK: __global__ void hpp_paper_pfor0(hpp::Range<1, 1> hpp_range,
// CHECK: hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range);
// CHECK: b[i] = a[i] + 1.0f;
// CHECK-NEXT: c[i] = i + 1;

/// The paper's DistArray launch with an Index<1> body: each work-group
/// reverses its part of \p in through its segment.
void darray(Pointer<int> in, Pointer<int> out, int n) {
  DistArray<int> shared;
  Region<int> region = shared.allocRegion(64);
  parallelFor(Range<1, 1>(n, Range<1>(region.getSize())), shared,
              [=](Index<1> i, BoundDistArray<int> a) __device(hpp) {
                Segment<int> s = a(region);
                s[i.getLocalX()] = in[i];
                s.barrier();
                std::size_t m = i.getLocalSizeX() - 1 - i.getLocalX();
                std::size_t from = i - i.getLocalX() + m;
                if (from < std::size_t(n))
                  out[i] = s[m];
              });
}
// CHECK: hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range);
// CHECK: s[i.getLocalX()] = in[i];

#if defined(BAD_INTEGER_BODY)
void badIntegerBody(Pointer<float> y, int n) {
  parallelFor(Range<1>(n), [=](std::size_t i) __device(hpp) { y[i] = 0; });
}
#endif
#if defined(BAD_2D_INTEGER)
void bad2dInteger(Pointer<float> y, int n) {
  parallelFor(Range<2>(n, n), [=](Index<2> i) __device(hpp) {
    y[i] = 0;
    // BAD2D: index-as-integer.cpp:[[@LINE-1]]:{{[0-9]+}}: error:
  });
}
#endif

int main() {
  bool Ok = true;
  {
    const int n = 1000;
    Pointer<float> x = allocate<float>(n), y = allocate<float>(n);
    for (int k = 0; k < n; ++k) {
      x[k] = float(k);
      y[k] = 1.0f;
    }
    saxpy(x, y, 2.0f, n);
    int Wrong = 0;
    for (int k = 0; k < n; ++k)
      Wrong += y[k] != 2.0f * float(k) + 1.0f;
    std::printf("saxpy: n=%d %s\n", n, Wrong ? "FAILED" : "verified");
    Ok &= Wrong == 0;
    deallocate(x);
    deallocate(y);
  }
  {
    const int n = 1000;
    Pointer<float> a = allocate<float>(n), b = allocate<float>(n),
                   d = allocate<float>(n);
    Pointer<std::size_t> c = allocate<std::size_t>(n);
    for (int k = 0; k < n; ++k)
      a[k] = float(3 * k);
    paper(a, b, c, d, n);
    int Wrong = 0;
    for (int k = 0; k < n; ++k) {
      Wrong += b[k] != float(3 * k) + 1.0f;
      Wrong += c[k] != std::size_t(k) + 1;
      Wrong += d[k] != (k < 4 ? 2.0f * float(3 * k) : 1.0f);
    }
    std::printf("paper: n=%d local=64 %s\n", n, Wrong ? "FAILED" : "verified");
    Ok &= Wrong == 0;
    deallocate(a);
    deallocate(b);
    deallocate(c);
    deallocate(d);
  }
  {
    const int n = 200;
    Pointer<int> in = allocate<int>(n), out = allocate<int>(n);
    for (int k = 0; k < n; ++k) {
      in[k] = 7 * k;
      out[k] = -1;
    }
    darray(in, out, n);
    int Wrong = 0;
    for (int k = 0; k < n; ++k) {
      int From = k / 64 * 64 + 63 - k % 64;
      Wrong += out[k] != (From < n ? 7 * From : -1);
    }
    std::printf("darray: n=%d local=64 %s\n", n, Wrong ? "FAILED" : "verified");
    Ok &= Wrong == 0;
    deallocate(in);
    deallocate(out);
  }
  return Ok ? 0 : 1;
}
