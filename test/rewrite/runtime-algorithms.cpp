// The runtime's performance kernels from dialect code: reduce, inclusive
// and exclusive scan (in place too), select and histogram over Pointers,
// with the built-in function objects, a user struct, a class template and
// a generic call operator (which the rewrite makes __host__ __device__).
// Every result is checked against plain C++ in the program (exact for
// integers, select, histogram, min and max; within 1e-5 relative for
// floating-point sums, whose bits are printed too); the reference prints
// the same at widths 32 and 64 (the order does not depend on the width),
// and so does the rewritten program on the runtime's CPU backend. Misuse
// throws RuntimeError at the caller's line.
// RUN: %hpp_rewrite %s -o %t.cpp
// RUN: FileCheck %s --check-prefix=REWRITE < %t.cpp
// RUN: %cxx -I %hpp_include %s -o %t.ref
// RUN: env HPP_CPU_MVECTOR=32 %t.ref > %t.out32
// RUN: env HPP_CPU_MVECTOR=64 %t.ref > %t.out64
// RUN: FileCheck %s --check-prefix=OUT --match-full-lines < %t.out32
// RUN: diff %t.out32 %t.out64
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe | diff %t.out32 -
// RUN: env HPP_CPU_MVECTOR=64 %t.exe | diff %t.out32 -
// RUN: %gpu_check %t.cpp
//
// REWRITE: struct AbsMax {
// REWRITE-NEXT: __host__ __device__ float operator()(float a, float b) const {
// REWRITE: template <class T> struct Odd {
// REWRITE-NEXT: __host__ __device__ bool operator()(const T &x) const { return (x & 1) != 0; }
// REWRITE: struct GenericMax {
// REWRITE-NEXT: template <class T> __host__ __device__ T operator()(T a, T b) const { return a < b ? b : a; }
//
// OUT: reduce float n=0 ok bits {{[0-9a-f]+}}
// OUT-NEXT: reduce float n=1 ok bits {{[0-9a-f]+}}
// OUT-NEXT: reduce float n=1000 ok bits {{[0-9a-f]+}}
// OUT-NEXT: reduce float n=8193 ok bits {{[0-9a-f]+}}
// OUT-NEXT: reduce float n=70001 ok bits {{[0-9a-f]+}}
// OUT-NEXT: reduce double n=70001 ok bits {{[0-9a-f]+}}
// OUT-NEXT: reduce int/max/absmax/generic n=70001 ok
// OUT-NEXT: scan n=0 ok
// OUT-NEXT: scan n=1 ok
// OUT-NEXT: scan n=4097 ok
// OUT-NEXT: scan n=70001 ok
// OUT-NEXT: scan in place ok
// OUT-NEXT: select n=70001 kept=35001 ok
// OUT-NEXT: select none kept=0 ok
// OUT-NEXT: histogram int ok
// OUT-NEXT: histogram float ok
// OUT-NEXT: misuse: runtime-algorithms.cpp:[[#MISUSE1:]]: reduce failed: n = 11 but in holds 10 elements
// OUT-NEXT: misuse: runtime-algorithms.cpp:[[#MISUSE1+1]]: select failed: in and out overlap
// OUT-NEXT: misuse: runtime-algorithms.cpp:[[#MISUSE1+2]]: histogram failed: the bin range [lower, upper) is empty
// OUT-NEXT: done, 0 failed

#include <hpp/hpp.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace hpp;

struct AbsMax {
  __device(hpp) float operator()(float a, float b) const {
    return std::fabs(a) < std::fabs(b) ? b : a;
  }
};
template <class T> struct Odd {
  bool operator()(const T &x) const { return (x & 1) != 0; }
};
struct GenericMax {
  template <class T> T operator()(T a, T b) const { return a < b ? b : a; }
};
struct Never {
  __device(hpp) bool operator()(int) const { return false; }
};

static int Failed = 0;

static void report(const char *What, bool Ok) {
  std::printf("%s %s\n", What, Ok ? "ok" : "FAILED");
  Failed += !Ok;
}

static bool near(double Got, double Want) {
  return std::fabs(Got - Want) <= 1e-5 * std::fabs(Want) + 1e-6;
}

template <class T> static std::uint64_t bitsOf(T V) {
  std::uint64_t B = 0;
  std::memcpy(&B, &V, sizeof(T));
  return B;
}

/// Fills p[0 .. n) with n pseudo-random values of [0, 1) (exact in float).
template <class T> static void fill(Pointer<T> P, std::size_t N) {
  std::uint32_t X = 12345;
  for (std::size_t I = 0; I != N; ++I) {
    X = X * 1664525u + 1013904223u;
    P[I] = T(X >> 8) / T(1 << 24);
  }
}

template <class T> static void checkSum(const char *Type, std::size_t N) {
  Pointer<T> P = allocate<T>(N + 1);
  fill(P, N);
  double Want = 0;
  for (std::size_t I = 0; I != N; ++I)
    Want += double(P[I]);
  T Got = reduce(P, N);
  char Line[64];
  std::snprintf(Line, sizeof Line, "reduce %s n=%zu", Type, N);
  bool Ok = near(double(Got), Want) && (N != 0 || bitsOf(Got) == 0);
  // The bits: the reference and the rewritten program print the same.
  std::printf("%s %s bits %llx\n", Line, Ok ? "ok" : "FAILED",
              (unsigned long long)bitsOf(Got));
  Failed += !Ok;
  deallocate(P);
}

static void checkExact() {
  const std::size_t N = 70001;
  Pointer<int> V = allocate<int>(N);
  Pointer<float> F = allocate<float>(N);
  fill(F, N);
  for (std::size_t I = 0; I != N; ++I) {
    V[I] = int((I * 7919) % 100003) - 50000;
    F[I] -= 0.5f;
  }
  long long Sum = 0;
  int Max = V[0], Min = V[0];
  float Abs = -1.0f;
  for (std::size_t I = 0; I != N; ++I) {
    Sum += V[I];
    Max = V[I] > Max ? V[I] : Max;
    Min = V[I] < Min ? V[I] : Min;
    Abs = std::fabs(Abs) < std::fabs(F[I]) ? F[I] : Abs;
  }
  bool Ok = reduce(V, N) == int(Sum) &&
            reduce(V, N, V[0], Maximum<int>()) == Max &&
            reduce(V, N, V[0], GenericMax()) == Max &&
            reduce(F, N, -1.0f, AbsMax()) == Abs &&
            reduce(V, N, 1 << 30, Minimum<int>()) == Min;
  report("reduce int/max/absmax/generic n=70001", Ok);
  deallocate(V);
  deallocate(F);
}

static void checkScan(std::size_t N) {
  Pointer<long long> In = allocate<long long>(N + 1),
                     Inc = allocate<long long>(N + 1),
                     Exc = allocate<long long>(N + 1);
  for (std::size_t I = 0; I != N; ++I)
    In[I] = (long long)((I * 2654435761u) % 1000) - 500;
  inclusiveScan(In, Inc, N);
  exclusiveScan(In, Exc, N, 7LL, Plus<long long>());
  long long Run = 0;
  bool Ok = true;
  for (std::size_t I = 0; I != N; ++I) {
    Ok &= Exc[I] == 7 + Run;
    Run += In[I];
    Ok &= Inc[I] == Run;
  }
  char Line[64];
  std::snprintf(Line, sizeof Line, "scan n=%zu", N);
  report(Line, Ok);
  deallocate(In);
  deallocate(Inc);
  deallocate(Exc);
}

static void checkScanInPlace() {
  const std::size_t N = 9000;
  Pointer<float> P = allocate<float>(N), Copy = allocate<float>(N);
  fill(P, N);
  for (std::size_t I = 0; I != N; ++I)
    Copy[I] = P[I];
  inclusiveScan(Copy, Copy, N);
  inclusiveScan(P, P, N, GenericMax());
  bool Ok = true;
  double Run = 0;
  float Max = 0;
  std::vector<float> Orig(N);
  fill(Pointer<float>(Orig.data(), N), N);
  for (std::size_t I = 0; I != N; ++I) {
    Run += Orig[I];
    Max = Orig[I] > Max ? Orig[I] : Max;
    Ok &= near(Copy[I], Run) && P[I] == (I == 0 ? Orig[0] : Max);
  }
  report("scan in place", Ok);
  deallocate(P);
  deallocate(Copy);
}

static void checkSelect() {
  const std::size_t N = 70001;
  Pointer<int> In = allocate<int>(N), Out = allocate<int>(N);
  for (std::size_t I = 0; I != N; ++I)
    In[I] = int(I * 3 + 1);
  std::size_t Kept = select(In, Out, N, Odd<int>());
  bool Ok = Kept == 35001;
  for (std::size_t I = 0, K = 0; I != N && Ok; ++I)
    if (In[I] & 1)
      Ok &= Out[K++] == In[I];
  std::printf("select n=%zu kept=%zu %s\n", N, Kept, Ok ? "ok" : "FAILED");
  Failed += !Ok;
  Kept = select(In, Out, N, Never());
  std::printf("select none kept=%zu %s\n", Kept, Kept == 0 ? "ok" : "FAILED");
  Failed += Kept != 0;
  deallocate(In);
  deallocate(Out);
}

static void checkHistogram() {
  const std::size_t N = 100000;
  Pointer<int> V = allocate<int>(N);
  Pointer<float> F = allocate<float>(N);
  Pointer<unsigned> Bins = allocate<unsigned>(256);
  Pointer<long long> FBins = allocate<long long>(7);
  fill(F, N);
  for (std::size_t I = 0; I != N; ++I) {
    V[I] = int((I * 48271) % 300) - 20; // some below 0, some above 255
    F[I] = F[I] * 1.2f - 0.1f;          // some outside [0, 1)
  }
  histogram(V, N, Bins, 256, 0, 256);
  std::vector<unsigned> Want(256);
  for (std::size_t I = 0; I != N; ++I)
    if (V[I] >= 0 && V[I] < 256)
      ++Want[V[I]];
  bool Ok = true;
  for (int B = 0; B != 256; ++B)
    Ok &= Bins[B] == Want[B];
  report("histogram int", Ok);
  histogram(F, N, FBins, 7, 0.0f, 1.0f);
  std::vector<long long> FWant(7);
  for (std::size_t I = 0; I != N; ++I)
    if (F[I] >= 0.0f && F[I] < 1.0f) {
      int B = int(F[I] * (7.0f / 1.0f));
      ++FWant[B < 7 ? B : 6];
    }
  Ok = true;
  for (int B = 0; B != 7; ++B)
    Ok &= FBins[B] == FWant[B];
  report("histogram float", Ok);
  deallocate(V);
  deallocate(F);
  deallocate(Bins);
  deallocate(FBins);
}

static void misuse() {
  Pointer<int> P = allocate<int>(10);
  Pointer<unsigned> Bins = allocate<unsigned>(4);
  auto Try = [](auto F) {
    try {
      F();
      std::printf("misuse: not reported\n");
      ++Failed;
    } catch (const RuntimeError &E) {
      const char *Base = std::strrchr(E.what(), '/');
      std::printf("misuse: %s\n", Base ? Base + 1 : E.what());
    }
  };
  Try([&] { reduce(P, 11); });
  Try([&] { select(P, Pointer<int>(P.get() + 2, 8), 8, Odd<int>()); });
  Try([&] { histogram(P, 10, Bins, 4, 5, 5); });
  deallocate(P);
  deallocate(Bins);
}

int main() {
  for (std::size_t N : {0, 1, 1000, 8193, 70001})
    checkSum<float>("float", N);
  checkSum<double>("double", 70001);
  checkExact();
  for (std::size_t N : {0, 1, 4097, 70001})
    checkScan(N);
  checkScanInPlace();
  checkSelect();
  checkHistogram();
  misuse();
  std::printf("done, %d failed\n", Failed);
  return Failed != 0;
}
