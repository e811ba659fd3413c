// Host code that needs the mvector width as a constant (an array bound, a
// constexpr variable, static_assert, `if constexpr`, a case label, a
// template argument outside a call statement, a `const` variable holding
// the width used as one): the statements of its block from the first such
// use to the last that uses what they declare run once per width, inside
// `hpp::withWarpSize([&](auto hppWarp) { ... });`, where the width is
// `decltype(hppWarp)::value` (spec 1.5: guard-plus-dispatch; a CUDA build
// compiles only 32). A region that reaches the end of its function and
// returns a value is returned. Lines stay where they were.
// The reference needs the width compiled in (-DHPP_CPU_MVECTOR); the
// rewritten program picks it at run time, at either width.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx -I %hpp_include -DHPP_CPU_MVECTOR=32 %s -o %t.ref32
// RUN: %cxx -I %hpp_include -DHPP_CPU_MVECTOR=64 %s -o %t.ref64
// RUN: env HPP_CPU_MVECTOR=32 %t.ref32 > %t.out32
// RUN: env HPP_CPU_MVECTOR=64 %t.ref64 > %t.out64
// RUN: FileCheck %s --check-prefix=OUT32 --match-full-lines < %t.out32
// RUN: FileCheck %s --check-prefix=OUT64 --match-full-lines < %t.out64
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe | diff %t.out32 -
// RUN: env HPP_CPU_MVECTOR=64 %t.exe | diff %t.out64 -
// RUN: %gpu_check %t.cpp
//
// REMARK: host-width-constant.cpp:[[@LINE+22]]:15: remark: this needs the mvector width as a constant: the statements from here to line [[@LINE+47]] run once for the current device's width (hpp::withWarpSize; a CUDA build compiles only 32) [hpp-host-warp-size]
// OUT32: constants 96, blocked 32 6, lambda 16, member 3 3072, launch 32, spelled 40
// OUT32-NEXT: alias 37
// OUT64: constants 193, blocked 64 3, lambda 32, member 3 1536, launch 64, spelled 80
// OUT64-NEXT: alias 69
// OUT32-NOT: {{.}}
// OUT64-NOT: {{.}}

#include <hpp/hpp.h>

#include <cstdio>

using namespace hpp;

template <int W> struct Tile {
  int data[W];
};
template <int W> int lanes() { return W; }

/// Every constant form; the region reaches the end and returns.
int constants(int k) {
  int before = k;
  int perLane[MVECTOR_SIZE];
  constexpr int half = MVECTOR_SIZE / 2;
  static_assert(MVECTOR_SIZE >= 32, "");
  // A CUDA build never instantiates the 64-lane arm (MVECTOR_MAX is 32).
  static_assert(MVECTOR_SIZE <= MVECTOR_MAX, "");
  Tile<MVECTOR_SIZE> tile;
  tile.data[half] = half;
  if constexpr (MVECTOR_SIZE == 64)
    k += 1;
  int w = lanes<MVECTOR_SIZE>();
  switch (k) {
  case MVECTOR_SIZE:
    k = 0;
    break;
  default:
    break;
  }
  for (int i = 0; i < w; ++i)
    perLane[i] = i % 2;
  int sum = 0;
  for (int v : perLane)
    sum += v;
  // Bounds are constants everywhere.
  int bound[MVECTOR_MAX + MVECTOR_MIN];
  bound[0] = 0;
  return before + sum + tile.data[half] + w + bound[0] + k;
}
// CHECK-LABEL: int constants(int k) {
// CHECK-NEXT:   int before = k;
// CHECK-NEXT:   return hpp::withWarpSize([&](auto hppWarp) -> int { int perLane[decltype(hppWarp)::value];
// CHECK-NEXT:   constexpr int half = decltype(hppWarp)::value / 2;
// CHECK-NEXT:   static_assert(decltype(hppWarp)::value >= 32, "");
// CHECK:        static_assert(decltype(hppWarp)::value <= MVECTOR_MAX, "");
// CHECK-NEXT:   Tile<decltype(hppWarp)::value> tile;
// CHECK:        case decltype(hppWarp)::value:
// CHECK:        return before + sum + tile.data[half] + w + bound[0] + k; });
// CHECK-NEXT: }

/// A region in an inner block, through a `const` variable that holds the
/// width, ending at the last use of what it declares.
void blocked(int n, int &width, int &groups) {
  if (n > 0) {
    const int w = MVECTOR_SIZE;
    Tile<w> t;
    t.data[0] = w;
    groups = n / w;
    width = t.data[0];
    n = 0;
  }
}
// CHECK-LABEL: void blocked(int n, int &width, int &groups) {
// CHECK-NEXT:   if (n > 0) {
// CHECK-NEXT:     hpp::withWarpSize([&](auto hppWarp) { const int w = decltype(hppWarp)::value;
// CHECK-NEXT:     Tile<w> t;
// CHECK:          width = t.data[0]; });
// CHECK-NEXT:     n = 0;

/// warpSize, and constants that hold it, as template arguments.
template <int W> int use(int k) { return k * W; }
int spelled(int k) {
  int perLane[warpSize];
  const int half = warpSize / 2;
  const int quarter = half / 2;
  Tile<quarter> tile;
  tile.data[0] = use<half>(k);
  perLane[0] = quarter;
  return tile.data[0] + perLane[0];
}
// CHECK-LABEL: int spelled(int k) {
// CHECK-NEXT:   return hpp::withWarpSize([&](auto hppWarp) -> int { int perLane[decltype(hppWarp)::value];
// CHECK-NEXT:   const int half = decltype(hppWarp)::value / 2;
// CHECK-NEXT:   const int quarter = half / 2;
// CHECK-NEXT:   Tile<quarter> tile;
// CHECK-NEXT:   tile.data[0] = use<half>(k);

/// A region in a host lambda's body.
int inLambda() {
  auto f = [](int x) {
    constexpr int q = MVECTOR_SIZE / 4;
    int a[q];
    a[0] = x;
    return a[0] * q;
  };
  return f(2);
}
// CHECK:      auto f = [](int x) {
// CHECK-NEXT:   return hpp::withWarpSize([&](auto hppWarp) { constexpr int q = decltype(hppWarp)::value / 4;

/// In a member function of a class template.
template <class T> struct Buffer {
  T scale;
  T perMvector(int n) const {
    T slots[MVECTOR_SIZE / 32];
    slots[0] = scale;
    return slots[0] * (n / (MVECTOR_SIZE / 32));
  }
};
// CHECK:      T perMvector(int n) const {
// CHECK-NEXT:   return hpp::withWarpSize([&](auto hppWarp) -> T { T slots[decltype(hppWarp)::value / 32];

/// A kernel launched before the region, in the same function.
int launch(Pointer<int> p) {
  parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = MVECTOR_SIZE;
  });
  constexpr int w = MVECTOR_SIZE;
  int got[w];
  got[0] = p[0];
  return got[0];
}

/// A type alias in a region, and a kernel launched after it in the same
/// block: the kernel does not get the alias (it is in the region's lambda).
int aliasBeforeLaunch(Pointer<int> p) {
  int got = 0;
  using TileW = Tile<MVECTOR_SIZE>;
  TileW t;
  t.data[0] = 5;
  got = t.data[0];
  parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) {
    p[i.getX()] = MVECTOR_SIZE;
  });
  return got + p[0];
}

int main() {
  int width = 0, groups = 0;
  blocked(192, width, groups);
  Pointer<int> p = allocate<int>(64);
  Buffer<int> b{3};
  std::printf("constants %d, blocked %d %d, lambda %d, member %d %d, "
              "launch %d, spelled %d\n",
              constants(32), width, groups, inLambda(), b.perMvector(0) + 3,
              b.perMvector(1024), launch(p), spelled(2));
  std::printf("alias %d\n", aliasBeforeLaunch(p));
  deallocate(p);
  return 0;
}
