// The paper's spellings of a 1-D Range<1,1> (spec 1.2): global and local
// size as plain integers, of different integer types (`input.size()` is a
// size_t, the local size an int), an integer with a Range<1> local size as
// the paper's DistArray launch writes it, a Range<1> with an integer, and a
// host range whose local size is MVECTOR_SIZE. Every launch checks each
// work-item's group, local id and sizes against plain C++; the global sizes
// are not multiples of the local ones, so trailing work-items must not run.
// N-D ranges keep the Range<N> forms: Range<2,2>(8, 4) does not compile.
// (MVECTOR_SIZE written in the parallelFor call itself: paper-range-mvector.)
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
// RUN: not %cxx -fsyntax-only -I %hpp_include -DBAD_2D_INTEGERS %s 2>&1 | FileCheck %s --check-prefix=BAD2D
// RUN: %gpu_check %t.cpp
//
// OUT: channel: global=100 local=100 verified
// OUT-NEXT: vector: global=1000 local=64 verified
// OUT-NEXT: darray: global=96 local=64 verified
// OUT-NEXT: range-int: global=300 local=128 verified
// OUT-NEXT: mvector: global=1000 local=MVECTOR_SIZE verified
// OUT-NOT: {{.}}
//
// BAD2D: static assertion failed{{.*}}: Range<N,N>(n, m) with integers is 1-D only; write Range<N,N>(Range<N>(...), Range<N>(...))

#include <hpp/hpp.h>

#include <cstdio>
#include <vector>

using namespace hpp;

/// Fields each work-item records: group id, local id, local size, global
/// size.
constexpr int Fields = 4;

/// Whether \p Out holds what every work-item of a launch of \p Global
/// work-items in groups of \p Local records, and nothing past \p Global
/// (the trailing work-items of the last group); prints the verdict.
static bool verify(const char *Name, const char *LocalText,
                   Pointer<std::size_t> Out, std::size_t Global,
                   std::size_t Local, std::size_t Slots) {
  int Wrong = 0;
  for (std::size_t K = 0; K < Slots; ++K) {
    const std::size_t *F = &Out[K * Fields];
    if (K >= Global) {
      Wrong += F[0] != 0 || F[1] != 0 || F[2] != 0 || F[3] != 0;
      continue;
    }
    Wrong += F[0] != K / Local || F[1] != K % Local || F[2] != Local ||
             F[3] != Global;
  }
  std::printf("%s: global=%zu local=%s %s\n", Name, Global, LocalText,
              Wrong ? "FAILED" : "verified");
  for (std::size_t K = 0; K < Slots * Fields; ++K)
    Out[K] = 0;
  return Wrong == 0;
}

/// The paper's `Range<1,1>(channelSize, channelSize)`: one work-group.
void channel(Pointer<std::size_t> Out, int channelSize) {
  parallelFor(Range<1, 1>(channelSize, channelSize),
              [=](Index<1, 1> i) __device(hpp) {
                std::size_t *F = &Out[i.getX() * Fields];
                F[0] = i.getGroupX();
                F[1] = i.getLocalX();
                F[2] = i.getLocalSizeX();
                F[3] = i.getGlobalSizeX();
              });
}
// CHECK: hpp::launchKernel(hpp_channel_pfor0, Range<1, 1>(channelSize, channelSize), Out);

/// `Range<1,1>(input.size(), L)`: a size_t global size, an int local one.
void fromVector(Pointer<std::size_t> Out, const std::vector<float> &input,
                int L) {
  parallelFor(Range<1, 1>(input.size(), L), [=](Index<1, 1> i) __device(hpp) {
    std::size_t *F = &Out[i.getX() * Fields];
    F[0] = i.getGroupX();
    F[1] = i.getLocalX();
    F[2] = i.getLocalSizeX();
    F[3] = i.getGlobalSizeX();
  });
}
// CHECK: hpp::launchKernel(hpp_fromVector_pfor0, Range<1, 1>(input.size(), L), Out);

/// The paper's DistArray launch: `Range<1,1>(darray.getTotalSize(),
/// Range<1>(region.getSize()))`, each work-group reversing its part of the
/// input through its segment.
void darray(Pointer<std::size_t> Out, Pointer<std::size_t> Mirror) {
  DistArray<std::size_t> darray;
  Region<std::size_t> region = darray.allocRegion(64);
  darray.allocRegion(32);
  parallelFor(Range<1, 1>(darray.getTotalSize(), Range<1>(region.getSize())),
              darray,
              [=](Index<1, 1> i, BoundDistArray<std::size_t> a) __device(hpp) {
                Segment<std::size_t> s = a(region);
                std::size_t *F = &Out[i.getX() * Fields];
                F[0] = i.getGroupX();
                F[1] = i.getLocalX();
                F[2] = i.getLocalSizeX();
                F[3] = i.getGlobalSizeX();
                s[i.getLocalX()] = i.getX();
                s.barrier();
                // The mirror within the group, when that work-item runs.
                std::size_t m = i.getLocalSizeX() - 1 - i.getLocalX();
                if (i.getGroupX() * i.getLocalSizeX() + m < i.getGlobalSizeX())
                  Mirror[i.getX()] = s[m];
              });
}
// CHECK: hpp::launchKernel(hpp_darray_pfor0, Range<1, 1>(darray.getTotalSize(), Range<1>(region.getSize())),
// CHECK-NEXT: darray, region, Out, Mirror);

/// `Range<1,1>(Range<1>(n), L)`.
void rangeInt(Pointer<std::size_t> Out, int n, unsigned L) {
  parallelFor(Range<1, 1>(Range<1>(n), L), [=](Index<1, 1> i) __device(hpp) {
    std::size_t *F = &Out[i.getX() * Fields];
    F[0] = i.getGroupX();
    F[1] = i.getLocalX();
    F[2] = i.getLocalSizeX();
    F[3] = i.getGlobalSizeX();
  });
}
// CHECK: hpp::launchKernel(hpp_rangeInt_pfor0, Range<1, 1>(Range<1>(n), L), Out);

/// The paper's `Range<1,1>(input.size(), MVECTOR_SIZE)`, made in host code
/// before the launch: work-groups of one mvector.
std::size_t mvector(Pointer<std::size_t> Out,
                    const std::vector<float> &input) {
  Range<1, 1> r(input.size(), MVECTOR_SIZE);
  parallelFor(r, [=](Index<1, 1> i) __device(hpp) {
    std::size_t *F = &Out[i.getX() * Fields];
    F[0] = i.getGroupX();
    F[1] = i.getLocalX();
    F[2] = i.getLocalSizeX();
    F[3] = i.getGlobalSizeX();
  });
  return r.getLocal(0);
}
// CHECK: Range<1, 1> r(input.size(), hpp::getWarpSize(hpp::getDevice()));
// CHECK: hpp::launchKernel(hpp_mvector_pfor0, r, Out);

#if defined(BAD_2D_INTEGERS)
Range<2, 2> bad2d() { return Range<2, 2>(8, 4); }
#endif

int main() {
  const std::size_t Slots = 1100;
  Pointer<std::size_t> Out = allocate<std::size_t>(Slots * Fields);
  bool Ok = true;
  channel(Out, 100);
  Ok &= verify("channel", "100", Out, 100, 100, Slots);
  std::vector<float> input(1000, 1.0f);
  fromVector(Out, input, 64);
  Ok &= verify("vector", "64", Out, 1000, 64, Slots);
  Pointer<std::size_t> Mirror = allocate<std::size_t>(96);
  darray(Out, Mirror);
  Ok &= verify("darray", "64", Out, 96, 64, Slots);
  for (std::size_t K = 0; K < 64; ++K)
    Ok &= Mirror[K] == 63 - K;
  rangeInt(Out, 300, 128);
  Ok &= verify("range-int", "128", Out, 300, 128, Slots);
  std::size_t Width = mvector(Out, input);
  Ok &= Width == std::size_t(MVECTOR_SIZE);
  Ok &= verify("mvector", "MVECTOR_SIZE", Out, 1000, Width, Slots);
  deallocate(Mirror);
  deallocate(Out);
  return Ok ? 0 : 1;
}
