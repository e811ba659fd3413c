//===- test/runtime/Inputs/dist_array_launch.cpp - DistArray in a kernel --===//
//
// Part of hpp-rewrite. Input of dist-array.test: a kernel in the shape
// hpp-rewrite emits for parallelFor(range, darray, lambda): two regions
// (a small one, then one of argv[1] ints) as dynamic shared memory. Each
// work-group fills the big region, synchronises, and sums it backwards;
// prints the sum and whether every group agreed. Region sizes beyond the
// device's shared memory are a RuntimeError.
//
//===----------------------------------------------------------------------===//
#include <hpp/runtime.h>
#include <cstdio>
#include <cstdlib>
using namespace hpp;
__global__ void fill(hpp::Range<1, 1> hpp_range, hpp::BoundDistArray<int> a,
                     const hpp::Region<int> small, const hpp::Region<int> big,
                     const hpp::Pointer<long long> Out) {
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange()) return;
  Segment<int> s = a(small), b = a.getRegion(big);
  std::size_t l = i.getLocalX(), G = i.getLocalSizeX();
  for (std::size_t k = l; k < b.getRegionSize(); k += G) b[k] = int(k % 1000) + int(i.getGroupX());
  if (l < s.getRegionSize()) s[l] = int(l);
  b.barrier();
  long long Sum = 0;
  for (std::size_t k = b.getRegionSize(); k-- > 0;) Sum += b[k];
  Out[i.getX()] = Sum + s[l % s.getRegionSize()] - int(l % s.getRegionSize()) - (long long)b.getRegionSize() * i.getGroupX();
}
int main(int argc, char **argv) {
  std::size_t Ints = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000;
  try {
    DistArray<int> D;
    Region<int> Small = D.allocRegion(3), Big = D.allocRegion(Ints);
    std::printf("offsets: total %zu\n", D.getTotalSize());
    const std::size_t N = 512, G = 128;
    Pointer<long long> Out = allocate<long long>(N);
    launchKernel(fill, Range<1, 1>(Range<1>(N), Range<1>(G)), D, Small, Big, Out);
    long long Expect = 0;
    for (std::size_t k = 0; k < Ints; ++k) Expect += int(k % 1000);
    std::size_t Bad = 0;
    for (std::size_t I = 0; I < N; ++I) Bad += Out[I] != Expect;
    std::printf("ints=%zu sum=%lld bad=%zu\n", Ints, Expect, Bad);
    return Bad != 0;
  } catch (const RuntimeError &E) {
    std::printf("error: %s\n", E.what());
    return 1;
  }
}
