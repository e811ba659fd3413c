//===- test/examples/Inputs/dist_array_errors.cpp - DistArray semantics ---===//
//
// Part of hpp-rewrite. Input of dist-array-errors.test.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// DistArray, Region, BoundDistArray and Segment on the CPU reference
/// runtime (include/hpp/cpu/dist_array.h). Usage: dist_array_errors CASE.
///   layout    prints the layout of three regions, the limits, and what
///             each work-group finds in its copy (no error);
/// and the cases that must throw hpp::RuntimeError, each at the line of
/// its ERROR- comment (dist-array-errors.test finds them):
///   alloc-zero | alloc-limit | alloc-huge | foreign-region |
///   unallocated-region | index | index-negative | bound-host |
///   bound-later | segment-host | segment-later | segment-other-group |
///   barrier-host | barrier-divergent
/// Compiled with -DRANGE_WITHOUT_LOCAL or -DWRONG_BODY it must not compile.
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>

using namespace hpp;

/// Region offsets and alignment, the limits, and per-group copies.
static void layout() {
  DistArray<char> d;
  std::printf("layout: max=%zu\n", d.getMaxRegionSize());
  Region<char> r1 = d.allocRegion(3), r2 = d.allocRegion(20),
               r3 = d.allocRegion(1);
  std::printf("layout: sizes=%zu,%zu,%zu total=%zu max=%zu\n", r1.getSize(),
              r2.getSize(), r3.getSize(), d.getTotalSize(),
              d.getMaxRegionSize());
  Pointer<long long> Out = allocate<long long>(5);
  parallelFor(Range<1, 1>(Range<1>(1), Range<1>(1)), d,
              [=](Index<1, 1>, BoundDistArray<char> a) __device(hpp) {
                Segment<char> s1 = a(r1), s2 = a(r2), s3 = a.getRegion(r3);
                Out[0] = &s2[0] - &s1[0];
                Out[1] = &s3[0] - &s1[0];
                Out[2] = reinterpret_cast<std::uintptr_t>(&s1[0]) % 16;
                Out[3] = static_cast<unsigned char>(s1[0]);
                Out[4] = static_cast<long long>(s2.getRegionSize());
              });
  std::printf("layout: offsets=0,%lld,%lld misalignment=%lld initial=0x%llx "
              "segment-size=%lld\n",
              Out[0], Out[1], Out[2], Out[3], Out[4]);
  // Each work-group its own copy, filled afresh: 4 groups of 64 (the last
  // runs 58), twice.
  DistArray<int> e;
  Region<int> r = e.allocRegion(64);
  const std::size_t N = 250, G = 64;
  Pointer<int> Fresh = allocate<int>(N), Own = allocate<int>(N);
  for (int Launch = 0; Launch != 2; ++Launch)
    parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)), e,
                [=](Index<1, 1> i, BoundDistArray<int> a) __device(hpp) {
                  Segment<int> s = a(r);
                  std::size_t l = i.getLocalX(), base = i.getX() - l;
                  std::size_t m = N - base < G ? N - base : G;
                  Fresh[i.getX()] += s[l] == -1;
                  s.barrier();
                  s[l] = static_cast<int>(i.getGroupX() * 1000 + l);
                  s.barrier();
                  std::size_t next = (l + 1) % m;
                  Own[i.getX()] +=
                      s[next] == static_cast<int>(i.getGroupX() * 1000 + next);
                });
  int SumFresh = 0, SumOwn = 0;
  for (std::size_t I = 0; I != N; ++I) {
    SumFresh += Fresh[I];
    SumOwn += Own[I];
  }
  std::printf("layout: work-items=%zu launches=2 fresh=%d own=%d\n", N,
              SumFresh, SumOwn);
  deallocate(Out);
  deallocate(Fresh);
  deallocate(Own);
}

static int errors(const char *Mode) {
  auto Is = [Mode](const char *Name) { return !std::strcmp(Mode, Name); };
  try {
    if (Is("layout"))
      layout();
    DistArray<int> d;
    if (Is("alloc-zero"))
      d.allocRegion(0); // ERROR-ALLOC-ZERO-LINE
    if (Is("alloc-huge"))
      d.allocRegion(SIZE_MAX); // ERROR-ALLOC-HUGE-LINE
    if (Is("alloc-limit")) {
      std::printf("%s: max=%zu\n", Mode,
                  d.getMaxRegionSize()); // ERROR-GROUP-MEMORY-LINE
      d.allocRegion(100);
      d.allocRegion(3);
      std::printf("%s: total=%zu max=%zu\n", Mode, d.getTotalSize(),
                  d.getMaxRegionSize());
      // getMaxRegionSize() is at most a work-group (1024): fill the rest.
      while (std::size_t Max = d.getMaxRegionSize())
        d.allocRegion(Max);
      std::printf("%s: total=%zu max=%zu\n", Mode, d.getTotalSize(),
                  d.getMaxRegionSize());
      d.allocRegion(1); // ERROR-ALLOC-LIMIT-LINE
    }
    Region<int> r = d.allocRegion(16), none;
    DistArray<int> other;
    Region<int> foreign = other.allocRegion(4);
    std::optional<BoundDistArray<int>> SavedBound;
    std::optional<Segment<int>> SavedSegment;
    auto *SB = &SavedBound;
    auto *SS = &SavedSegment;
    parallelFor(Range<1, 1>(Range<1>(64), Range<1>(64)), d,
                [=](Index<1, 1> i, BoundDistArray<int> a) __device(hpp) {
                  std::size_t l = i.getLocalX();
                  if (Is("foreign-region"))
                    a(foreign); // ERROR-FOREIGN-LINE
                  if (Is("unallocated-region"))
                    a.getRegion(none); // ERROR-UNALLOCATED-LINE
                  Segment<int> s = a(r);
                  if (Is("index") && l == 3)
                    s[16] = 1; // ERROR-INDEX-LINE
                  if (Is("index-negative") && l == 3)
                    s[static_cast<int>(l) - 4] = 1; // ERROR-INDEX-NEGATIVE-LINE
                  if (Is("barrier-divergent")) {
                    if (l < 40)
                      s.barrier(); // ERROR-BARRIER-A-LINE
                    else
                      s.barrier(); // ERROR-BARRIER-B-LINE
                  }
                  if (l == 0) {
                    SB->emplace(a);
                    SS->emplace(s);
                  }
                });
    if (Is("bound-host"))
      (*SavedBound)(r); // ERROR-BOUND-HOST-LINE
    if (Is("segment-host"))
      (*SavedSegment)[0] = 1; // ERROR-SEGMENT-HOST-LINE
    if (Is("barrier-host"))
      SavedSegment->barrier(); // ERROR-BARRIER-HOST-LINE
    if (Is("bound-later") || Is("segment-later"))
      parallelFor(Range<1, 1>(Range<1>(64), Range<1>(64)), d,
                  [=](Index<1, 1>, BoundDistArray<int>) __device(hpp) {
                    if (Is("bound-later"))
                      (**SB)(r); // ERROR-BOUND-LATER-LINE
                    else
                      (**SS)[0] = 1; // ERROR-SEGMENT-LATER-LINE
                  });
    if (Is("segment-other-group")) {
      // Two groups of one work-item; a barrier of both orders them: group
      // 0 keeps its segment, group 1 uses it while group 0 waits.
      Barrier B(2);
      parallelFor(Range<1, 1>(Range<1>(2), Range<1>(1)), d,
                  [=, &B](Index<1, 1> i, BoundDistArray<int> a) __device(hpp) {
                    Segment<int> s = a(r);
                    if (i.getX() == 0)
                      SS->emplace(s);
                    B.wait();
                    if (i.getX() == 1)
                      (**SS)[0] = 1; // ERROR-OTHER-GROUP-LINE
                    B.wait();
                  });
    }
#ifdef RANGE_WITHOUT_LOCAL
    parallelFor(Range<1>(64), d, // ERROR-RANGE-LINE
                [=](Index<1, 1>, BoundDistArray<int>) __device(hpp) {});
#endif
#ifdef WRONG_BODY
    parallelFor(Range<1, 1>(Range<1>(64), Range<1>(64)), d, // ERROR-BODY-LINE
                [=](Index<1, 1>) __device(hpp) {});
#endif
    std::printf("%s: no error\n", Mode);
    return 0;
  } catch (const RuntimeError &E) {
    std::printf("%s: error: %s\n", Mode, E.what());
    return 1;
  }
}

int main(int Argc, char **Argv) {
  if (Argc != 2) {
    std::fprintf(stderr, "usage: %s CASE\n", Argv[0]);
    return 2;
  }
  return errors(Argv[1]);
}
