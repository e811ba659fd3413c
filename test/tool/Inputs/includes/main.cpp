// test/tool/absolute-includes.test: headers beside the source (beside.h,
// sub/nested.h), one found through -I (inc/elsewhere.h), a system one.
#include <hpp/hpp.h>

#include "beside.h"
#include "elsewhere.h"
#include "sub/nested.h"
#include <vector>

#if __has_include("beside.h")
#define HAS_BESIDE 8
#else
#define HAS_BESIDE 0
#endif

using namespace hpp;

void fill(Pointer<int> p) {
  parallelFor(Range<1>(4), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = Beside + Nested + Elsewhere + HAS_BESIDE;
  });
}
