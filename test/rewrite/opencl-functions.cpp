// The paper's free OpenCL work-item functions in device code (spec 1.2):
// get_global_id, get_local_id, get_group_id, get_global_size,
// get_local_size and get_num_groups, unqualified after `using namespace
// hpp;` and as hpp::..., in a body and in a __device(hpp) function it
// calls. They must agree with the body's Index and with plain C++ for
// every work-item, in 1, 2 and 3 dimensions, beyond the range's dimensions
// (id 0, size 1) and where the global size is not a multiple of the
// work-group size: get_global_size is the range's, not the grid's rounded
// up size. They name the calling work-item, so host code gets an error.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | count 0
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx -I %hpp_include %s -o %t.ref
// RUN: env HPP_CPU_MVECTOR=32 %t.ref > %t.ref32
// RUN: env HPP_CPU_MVECTOR=64 %t.ref > %t.ref64
// RUN: diff %t.ref32 %t.ref64
// RUN: FileCheck %s --check-prefix=OUT --match-full-lines < %t.ref32
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe > %t.gen32
// RUN: env HPP_CPU_MVECTOR=64 %t.exe > %t.gen64
// RUN: diff %t.ref32 %t.gen32
// RUN: diff %t.ref32 %t.gen64
// RUN: %gpu_check %t.cpp
//
// OUT: 1d-local: global=(1000,1,1) local=(96,1,1) verified
// OUT-NEXT: 1d-default: global=(700,1,1) local=(256,1,1) verified
// OUT-NEXT: 2d-local: global=(50,30,1) local=(16,8,1) verified
// OUT-NEXT: 3d-default: global=(10,9,7) local=(8,8,4) verified
// OUT-NEXT: host call: get_local_id failed: called outside a parallelFor body: it names the calling work-item
// OUT-NOT: {{.}}

#include <hpp/hpp.h>

#include <cstdio>
#include <cstring>

using namespace hpp;

/// Values each work-item records: the six functions for dimensions 0-2,
/// then how many of its checks in device code failed.
constexpr int Slots = 6 * 3 + 1;

/// The work-item's linear id within its group, from the qualified
/// spellings, in a device function the body calls.
__device(hpp) inline std::size_t linearLocal() {
  return hpp::get_local_id(0) +
         hpp::get_local_size(0) *
             (hpp::get_local_id(1) + hpp::get_local_size(1) *
                                         hpp::get_local_id(2));
}
// CHECK: __host__ __device__ inline std::size_t linearLocal() {
// CHECK-NEXT: return hpp::get_local_id(0) +

/// Records the six functions for dimensions 0-2 at \p Out, and counts the
/// disagreements with \p I (and the OpenCL defaults past the third
/// dimension) in device code.
template <class IndexT>
__device(hpp) inline void record(const IndexT &I, std::size_t *Out) {
  std::size_t Bad = 0;
  for (unsigned D = 0; D < 3; ++D) {
    Out[0 * 3 + D] = get_global_id(D);
    Out[1 * 3 + D] = get_local_id(D);
    Out[2 * 3 + D] = get_group_id(D);
    Out[3 * 3 + D] = get_global_size(D);
    Out[4 * 3 + D] = get_local_size(D);
    Out[5 * 3 + D] = get_num_groups(D);
    Bad += get_global_id(D) != I.get_global_id(D);
    Bad += get_local_id(D) != I.get_local_id(D);
    Bad += get_group_id(D) != I.get_group_id(D);
    Bad += get_global_size(D) != I.get_global_size(D);
    Bad += get_local_size(D) != I.get_local_size(D);
    Bad += get_num_groups(D) != I.get_num_groups(D);
  }
  Bad += get_global_id(3) != 0 || get_local_id(3) != 0 ||
         get_group_id(3) != 0 || get_global_size(3) != 1 ||
         get_local_size(3) != 1 || get_num_groups(3) != 1;
  Bad += linearLocal() != I.getLocalX() + I.getLocalSizeX() *
                                              (I.getLocalY() +
                                               I.getLocalSizeY() *
                                                   I.getLocalZ());
  Out[Slots - 1] = Bad;
}

/// Where work-item (X, Y, Z) of a range \p G records.
__device(hpp) inline std::size_t slot(const std::size_t G[3], std::size_t X,
                                      std::size_t Y, std::size_t Z) {
  return ((Z * G[1] + Y) * G[0] + X) * Slots;
}

void oneLocal(Pointer<std::size_t> Out, int n, int l) {
  parallelFor(Range<1, 1>(Range<1>(n), Range<1>(l)),
              [=](Index<1, 1> i) __device(hpp) {
                record(i, &Out[get_global_id(0) * Slots]);
              });
}
// CHECK: record(i, &Out[get_global_id(0) * Slots]);

void oneDefault(Pointer<std::size_t> Out, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    record(i, &Out[hpp::get_global_id(0) * Slots]);
  });
}

void twoLocal(Pointer<std::size_t> Out, int nx, int ny) {
  parallelFor(Range<2, 2>(Range<2>(nx, ny), Range<2>(16, 8)),
              [=](Index<2, 2> i) __device(hpp) {
                std::size_t G[3] = {get_global_size(0), get_global_size(1), 1};
                record(i, &Out[slot(G, get_global_id(0), get_global_id(1), 0)]);
              });
}

void threeDefault(Pointer<std::size_t> Out, int nx, int ny, int nz) {
  parallelFor(Range<3>(nx, ny, nz), [=](Index<3> i) __device(hpp) {
    std::size_t G[3] = {get_global_size(0), get_global_size(1),
                        get_global_size(2)};
    record(i, &Out[slot(G, get_global_id(0), get_global_id(1),
                        get_global_id(2))]);
  });
}

/// Checks every work-item's record of a launch over \p G in groups of
/// \p L against plain C++, and prints the verdict.
static bool verify(const char *Name, Pointer<std::size_t> Out,
                   const std::size_t G[3], const std::size_t L[3]) {
  std::size_t Wrong = 0;
  for (std::size_t Z = 0; Z < G[2]; ++Z)
    for (std::size_t Y = 0; Y < G[1]; ++Y)
      for (std::size_t X = 0; X < G[0]; ++X) {
        const std::size_t *R = &Out[slot(G, X, Y, Z)];
        const std::size_t Id[3] = {X, Y, Z};
        for (int D = 0; D < 3; ++D) {
          Wrong += R[0 * 3 + D] != Id[D];
          Wrong += R[1 * 3 + D] != Id[D] % L[D];
          Wrong += R[2 * 3 + D] != Id[D] / L[D];
          Wrong += R[3 * 3 + D] != G[D];
          Wrong += R[4 * 3 + D] != L[D];
          Wrong += R[5 * 3 + D] != (G[D] + L[D] - 1) / L[D];
        }
        Wrong += R[Slots - 1];
      }
  std::printf("%s: global=(%zu,%zu,%zu) local=(%zu,%zu,%zu) %s\n", Name, G[0],
              G[1], G[2], L[0], L[1], L[2], Wrong ? "FAILED" : "verified");
  std::memset(&Out[0], 0, G[0] * G[1] * G[2] * Slots * sizeof(std::size_t));
  return Wrong == 0;
}

int main() {
  Pointer<std::size_t> Out = allocate<std::size_t>(1500 * Slots);
  bool Ok = true;
  {
    const std::size_t G[3] = {1000, 1, 1}, L[3] = {96, 1, 1};
    oneLocal(Out, 1000, 96);
    Ok &= verify("1d-local", Out, G, L);
  }
  {
    const std::size_t G[3] = {700, 1, 1}, L[3] = {256, 1, 1};
    oneDefault(Out, 700);
    Ok &= verify("1d-default", Out, G, L);
  }
  {
    const std::size_t G[3] = {50, 30, 1}, L[3] = {16, 8, 1};
    twoLocal(Out, 50, 30);
    Ok &= verify("2d-local", Out, G, L);
  }
  {
    const std::size_t G[3] = {10, 9, 7}, L[3] = {8, 8, 4};
    threeDefault(Out, 10, 9, 7);
    Ok &= verify("3d-default", Out, G, L);
  }
  try {
    (void)get_local_id(0);
    std::printf("host call: no error\n");
    Ok = false;
  } catch (const RuntimeError &E) {
    std::printf("host call: %s failed: %s\n", E.call().c_str(),
                E.backendMessage().c_str());
  }
  deallocate(Out);
  return Ok ? 0 : 1;
}
