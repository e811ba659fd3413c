//===- examples/paper_regions.cpp - Regions sized the paper's way ---------===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A reduction written as the HPP paper writes distributed arrays: the
/// DistArray's region is as large as the runtime allows
/// (`darray.getMaxRegionSize()`), and the launch uses the region's size as
/// its work-group size:
///
///   parallelFor(Range<1, 1>(darray.getTotalSize(),
///                           Range<1>(region.getSize())),
///               darray, [=](Index<1> i, BoundDistArray<T> a) ... );
///
/// getMaxRegionSize() is what is left of a work-group's memory, at most the
/// largest work-group (1024 work-items on NVIDIA and AMD GPUs and on the
/// CPU runtimes), so the launch is one work-group of one work-item per
/// element of the region. Each work-item adds up a strided share of the n
/// inputs, stores its partial result in its element of the region (the
/// work-group's memory), and the group folds the region in half until one
/// element is left, with a Barrier of the group's size between the steps.
/// It runs for float sums, long long sums and int maxima; every value is an
/// integer, so every float sum is exact and the results are compared
/// exactly with plain C++.
///
/// Usage: paper_regions   (prints one line per run; exit status 0 when
/// every result matches)
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdio>

using namespace hpp;

static int Failures = 0;

/// The folding operation: the larger of x and y if \p Max, else the sum.
template <class T> __device(hpp) inline T combine(bool Max, T x, T y) {
  return Max ? (x < y ? y : x) : x + y;
}

/// Out[0] = the sum (or, if \p Max, the maximum) of In[0..n), in one
/// work-group whose size is the largest region of T the runtime allows;
/// \p Identity is the operation's neutral element. Returns the region's
/// size.
template <class T>
static std::size_t reduce(Pointer<T> In, Pointer<T> Out, std::size_t n,
                          T Identity, bool Max) {
  DistArray<T> darray;
  Region<T> region = darray.allocRegion(darray.getMaxRegionSize());
  Barrier b(region.getSize());
  parallelFor(Range<1, 1>(darray.getTotalSize(), Range<1>(region.getSize())),
              darray, [=, &b](Index<1> i, BoundDistArray<T> a) __device(hpp) {
                Segment<T> s = a(region);
                std::size_t l = i.getLocalX(), g = s.getRegionSize();
                T mine = Identity;
                for (std::size_t k = l; k < n; k += g)
                  mine = combine(Max, mine, In[k]);
                s[l] = mine;
                b.wait();             // every partial result is in the region
                std::size_t half = 1; // the largest power of two below g
                while (half * 2 < g)
                  half *= 2;
                for (; half > 0; half /= 2) {
                  if (l < half && l + half < g)
                    s[l] = combine(Max, s[l], s[l + half]);
                  b.wait(); // this step's results are in the region
                }
                if (l == 0)
                  Out[0] = s[0];
              });
  return region.getSize();
}

/// Reduces n generated values of T and checks the result.
template <class T>
static void run(const char *Name, std::size_t n, T Identity, bool Max) {
  Pointer<T> In = allocate<T>(n), Out = allocate<T>(1);
  T Want = Identity;
  for (std::size_t K = 0; K != n; ++K) {
    In[K] = static_cast<T>(static_cast<long long>(K * 37 % 101) - 50);
    Want = combine(Max, Want, In[K]);
  }
  std::size_t Group = reduce(In, Out, n, Identity, Max);
  bool Ok = Out[0] == Want;
  if (!Ok)
    ++Failures;
  std::printf("%s n=%zu region=%zu result=%lld %s\n", Name, n, Group,
              static_cast<long long>(Out[0]), Ok ? "verified" : "FAILED");
  deallocate(In);
  deallocate(Out);
}

int main() {
  run<float>("sum-float", 100000, 0.0f, false);
  run<long long>("sum-long", 77777, 0, false);
  run<int>("max-int", 5000, -1000000, true);
  run<float>("sum-float", 700, 0.0f, false); // fewer inputs than work-items
  return Failures ? 1 : 0;
}
