//===- examples/vector_add.cpp - c = a + b with a work-group size ---------===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// c = a + b over n elements in work-groups of 128. n (default 1000) need
/// not be a multiple of 128: the trailing work-items of the last group do
/// not run the body, which the padding after c checks (it must stay
/// untouched). The addition is a __device(hpp) helper function.
///
/// Usage: vector_add [n]
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdio>
#include <cstdlib>

using namespace hpp;

/// Work-group size of the launch.
constexpr int GroupSize = 128;
/// Value the padding after the n elements of c must keep.
constexpr float Sentinel = -1.0f;

__device(hpp) inline float add(float a, float b) { return a + b; }

void vectorAdd(Pointer<float> a, Pointer<float> b, Pointer<float> c, int n) {
  parallelFor(Range<1, 1>(Range<1>(n), Range<1>(GroupSize)),
              [=](Index<1, 1> i) __device(hpp) {
                // No bounds check: work-items past n do not run.
                std::size_t x = i.getX();
                c[x] = add(a[x], b[x]);
              });
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1000;
  if (n <= 0) {
    std::fprintf(stderr, "usage: vector_add [n]\n");
    return 2;
  }

  // Every array is padded by a work-group, so a stray trailing work-item
  // would read zeros and overwrite c's sentinels instead of crashing.
  std::size_t padded = static_cast<std::size_t>(n) + GroupSize;
  Pointer<float> a = allocate<float>(padded);
  Pointer<float> b = allocate<float>(padded);
  Pointer<float> c = allocate<float>(padded);
  for (int e = 0; e < n; ++e) {
    a[e] = static_cast<float>(e % 17);
    b[e] = static_cast<float>(2 * (e % 13) - 7);
  }
  for (std::size_t e = 0; e < padded; ++e)
    c[e] = Sentinel;

  vectorAdd(a, b, c, n);

  int status = 0;
  double checksum = 0.0;
  for (std::size_t e = 0; e < padded; ++e) {
    float expected = e < static_cast<std::size_t>(n) ? a[e] + b[e] : Sentinel;
    if (e < static_cast<std::size_t>(n))
      checksum += c[e];
    if (c[e] != expected && status == 0) {
      std::printf("vector_add n=%d mismatch at %d: got %.9g, expected %.9g\n",
                  n, static_cast<int>(e), c[e], expected);
      status = 1;
    }
  }
  if (status == 0)
    std::printf("vector_add n=%d checksum=%.17g verified\n", n, checksum);

  deallocate(a);
  deallocate(b);
  deallocate(c);
  return status;
}
