//===- test/examples/Inputs/cpu_semantics.cpp - CPU runtime semantics -----===//
//
// Part of hpp-rewrite. Input of cpu-runtime-semantics.test.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Exercises the CPU reference runtime and prints what it observes:
///   cpu_semantics index       Index accessors, trailing work-items, mutable
///                             bodies, empty and invalid ranges
///   cpu_semantics atomics     Atomic<T> members and free atomics, on the
///                             host and under contention
///   cpu_semantics exceptions  exceptions thrown by bodies
///   cpu_semantics memory      allocate / deallocate
///   cpu_semantics mvector     MVECTOR_SIZE / MAX / MIN
/// Built with -DHPP_TEST_BAD_INDEX or -DHPP_TEST_BAD_LOCAL_INDEX it must
/// not compile (the body's Index does not match the range).
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>

using namespace hpp;

#if defined(HPP_TEST_BAD_INDEX)
void badIndex() {
  parallelFor(Range<2>(4, 4), [=](Index<1> i) __device(hpp) { (void)i; });
}
#endif
#if defined(HPP_TEST_BAD_LOCAL_INDEX)
void badLocalIndex() {
  parallelFor(Range<2, 2>(Range<2>(8, 8), Range<2>(4, 4)),
              [=](Index<2> i) __device(hpp) { (void)i; });
}
#endif

//===-- index -------------------------------------------------------------===//

/// Slots of the record kept for the target work-item.
enum Slot {
  Named = 0,   // 18 named accessors, getX() .. getGroupCountZ()
  OpenCL = 18, // 6 OpenCL accessors x dimensions 0..3
  SlotCount = 42
};

/// Runs a launch over R; every work-item checks the invariants between its
/// accessors, counts itself in Hits, and the work-item at (TX, TY, TZ)
/// records every accessor. Prints the record and the counts.
template <int N, int L>
void checkRange(const char *Name, Range<N, L> R, std::size_t TX, std::size_t TY,
                std::size_t TZ) {
  std::size_t GX = R.get(0), GY = N > 1 ? R.get(1) : 1;
  std::size_t ExpLocal[3];
  for (int D = 0; D < 3; ++D) {
    if constexpr (L == 0)
      ExpLocal[D] = D >= N ? 1 : N == 1 ? 256 : N == 2 ? 16 : D < 2 ? 8 : 4;
    else
      ExpLocal[D] = D < N ? R.getLocal(D) : 1;
  }
  std::size_t EL0 = ExpLocal[0], EL1 = ExpLocal[1], EL2 = ExpLocal[2];
  std::size_t EG0 = R.get(0), EG1 = R.get(1), EG2 = R.get(2);

  Pointer<Atomic<int>> Hits = allocate<Atomic<int>>(R.size());
  Pointer<Atomic<int>> Ran = allocate<Atomic<int>>(1);
  Pointer<Atomic<int>> Errors = allocate<Atomic<int>>(1);
  Pointer<std::size_t> Rec = allocate<std::size_t>(SlotCount);

  parallelFor(R, [=](Index<N, L> I) __device(hpp) {
    int Bad = 0;
    std::size_t ExpL[3] = {EL0, EL1, EL2};
    std::size_t ExpG[3] = {EG0, EG1, EG2};
    for (unsigned D = 0; D < 3; ++D) {
      Bad += I.get_global_id(D) !=
             I.get_group_id(D) * I.get_local_size(D) + I.get_local_id(D);
      Bad += I.get_local_id(D) >= I.get_local_size(D);
      Bad += I.get_group_id(D) >= I.get_num_groups(D);
      Bad += I.get_local_size(D) != ExpL[D];
      Bad += I.get_global_size(D) != ExpG[D];
      Bad += I.get_num_groups(D) != (ExpG[D] + ExpL[D] - 1) / ExpL[D];
      if (D >= unsigned(N))
        Bad += I.get_global_id(D) != 0 || I.get_local_id(D) != 0 ||
               I.get_group_id(D) != 0 || I.get_global_size(D) != 1 ||
               I.get_local_size(D) != 1 || I.get_num_groups(D) != 1;
    }
    Bad += I.getX() != I.get_global_id(0) || I.getY() != I.get_global_id(1) ||
           I.getZ() != I.get_global_id(2);
    Bad += I.getLocalX() != I.get_local_id(0) ||
           I.getLocalY() != I.get_local_id(1) ||
           I.getLocalZ() != I.get_local_id(2);
    Bad += I.getGroupX() != I.get_group_id(0) ||
           I.getGroupY() != I.get_group_id(1) ||
           I.getGroupZ() != I.get_group_id(2);
    Bad += I.getLocalSizeX() != I.get_local_size(0) ||
           I.getLocalSizeY() != I.get_local_size(1) ||
           I.getLocalSizeZ() != I.get_local_size(2);
    Bad += I.getGlobalSizeX() != I.get_global_size(0) ||
           I.getGlobalSizeY() != I.get_global_size(1) ||
           I.getGlobalSizeZ() != I.get_global_size(2);
    Bad += I.getGroupCountX() != I.get_num_groups(0) ||
           I.getGroupCountY() != I.get_num_groups(1) ||
           I.getGroupCountZ() != I.get_num_groups(2);
    Bad += !I.inGlobalRange();
    if (Bad)
      Errors[0].add(Bad);
    Ran[0].add(1);
    if (I.inGlobalRange())
      Hits[I.getX() + GX * (I.getY() + GY * I.getZ())].add(1);

    if (I.getX() == TX && I.getY() == TY && I.getZ() == TZ) {
      std::size_t Named[18] = {
          I.getX(),           I.getY(),           I.getZ(),
          I.getLocalX(),      I.getLocalY(),      I.getLocalZ(),
          I.getGroupX(),      I.getGroupY(),      I.getGroupZ(),
          I.getLocalSizeX(),  I.getLocalSizeY(),  I.getLocalSizeZ(),
          I.getGlobalSizeX(), I.getGlobalSizeY(), I.getGlobalSizeZ(),
          I.getGroupCountX(), I.getGroupCountY(), I.getGroupCountZ()};
      for (int S = 0; S < 18; ++S)
        Rec[Slot::Named + S] = Named[S];
      for (unsigned D = 0; D < 4; ++D) {
        Rec[Slot::OpenCL + 0 * 4 + D] = I.get_global_id(D);
        Rec[Slot::OpenCL + 1 * 4 + D] = I.get_local_id(D);
        Rec[Slot::OpenCL + 2 * 4 + D] = I.get_group_id(D);
        Rec[Slot::OpenCL + 3 * 4 + D] = I.get_local_size(D);
        Rec[Slot::OpenCL + 4 * 4 + D] = I.get_global_size(D);
        Rec[Slot::OpenCL + 5 * 4 + D] = I.get_num_groups(D);
      }
    }
  });

  int BadHits = 0;
  for (std::size_t E = 0; E < R.size(); ++E)
    BadHits += Hits[E].load() != 1;
  std::printf("%s: points=%zu ran=%d bad_hits=%d errors=%d\n", Name, R.size(),
              Ran[0].load(), BadHits, Errors[0].load());
  const char *NamedLabels[6] = {"global",     "local",       "group",
                                "local_size", "global_size", "group_count"};
  for (int K = 0; K < 6; ++K)
    std::printf("  %s=(%zu,%zu,%zu)\n", NamedLabels[K], Rec[3 * K],
                Rec[3 * K + 1], Rec[3 * K + 2]);
  const char *OpenCLLabels[6] = {"get_global_id",   "get_local_id",
                                 "get_group_id",    "get_local_size",
                                 "get_global_size", "get_num_groups"};
  for (int K = 0; K < 6; ++K)
    std::printf("  %s(0..3)=%zu,%zu,%zu,%zu\n", OpenCLLabels[K],
                Rec[Slot::OpenCL + 4 * K], Rec[Slot::OpenCL + 4 * K + 1],
                Rec[Slot::OpenCL + 4 * K + 2], Rec[Slot::OpenCL + 4 * K + 3]);
  deallocate(Hits);
  deallocate(Ran);
  deallocate(Errors);
  deallocate(Rec);
}

template <class RangeT> void expectRejected(const char *Name, RangeT R) {
  try {
    parallelFor(R, [=](auto) __device(hpp) {});
    std::printf("%s: accepted\n", Name);
  } catch (const RuntimeError &E) {
    std::printf("%s: rejected: %s\n", Name, E.backendMessage().c_str());
  }
}

int runIndex() {
  checkRange("1d", Range<1>(300), 299, 0, 0);
  checkRange("2d", Range<2>(20, 18), 19, 17, 0);
  checkRange("3d", Range<3>(9, 10, 5), 8, 9, 4);
  checkRange("1d-local", Range<1, 1>(Range<1>(10), Range<1>(4)), 9, 0, 0);
  checkRange("2d-local", Range<2, 2>(Range<2>(10, 6), Range<2>(4, 4)), 9, 5, 0);
  checkRange("3d-local", Range<3, 3>(Range<3>(5, 3, 3), Range<3>(2, 2, 2)), 4,
             2, 2);
  checkRange("1d-big", Range<1>(100003), 100002, 0, 0);

  // An empty range runs nothing.
  Pointer<Atomic<int>> Ran = allocate<Atomic<int>>(1);
  parallelFor(Range<2>(0, 5), [=](Index<2>) __device(hpp) { Ran[0].add(1); });
  std::printf("empty: ran=%d\n", Ran[0].load());
  deallocate(Ran);

  // A mutable body: each work-item starts from its own copy of the captures.
  Pointer<int> Out = allocate<int>(1000);
  int Calls = 0;
  parallelFor(Range<1>(1000), [=](Index<1> I) __device(hpp) mutable {
    ++Calls;
    Out[I.getX()] = Calls;
  });
  int NotOne = 0;
  for (int E = 0; E < 1000; ++E)
    NotOne += Out[E] != 1;
  std::printf("mutable: items_not_seeing_1=%d host_copy=%d\n", NotOne, Calls);
  deallocate(Out);

  expectRejected("local-zero", Range<1, 1>(Range<1>(10), Range<1>(0)));
  expectRejected("local-too-big",
                 Range<2, 2>(Range<2>(64, 64), Range<2>(64, 32)));
  expectRejected("local-1024",
                 Range<3, 3>(Range<3>(64, 64, 4), Range<3>(16, 16, 4)));
  return 0;
}

//===-- atomics -----------------------------------------------------------===//

template <class T> void hostAtomics(const char *Name) {
  Pointer<Atomic<T>> P = allocate<Atomic<T>>(1);
  Atomic<T> &A = P[0];
  double Z = double(A.load());
  A.store(T(5));
  double Add = double(A.add(T(3)));                    // 5 -> 8
  double Sub = double(A.sub(T(2)));                    // 8 -> 6
  double Min1 = double(A.min(T(4)));                   // 6 -> 4
  double Min2 = double(A.min(T(9)));                   // 4 stays
  double Max1 = double(A.max(T(10)));                  // 4 -> 10
  double Max2 = double(A.max(T(2)));                   // 10 stays
  double Exch = double(A.exchange(T(1)));              // 10 -> 1
  double Cas1 = double(A.compareExchange(T(1), T(7))); // 1 -> 7
  double Cas2 = double(A.compareExchange(T(1), T(9))); // 7 stays
  double Final = double(A.load());
  double Pre = double(++A);           // 8
  double Post = double(A++);          // 8 -> 9
  double PlusEq = double(A += T(4));  // 13
  double MinusEq = double(A -= T(3)); // 10
  double Dec = double(--A);           // 9
  double Conv = double(T(A));
  std::printf("%s: zero=%g add=%g sub=%g min=%g,%g max=%g,%g exchange=%g "
              "cas=%g,%g load=%g ++a=%g a++=%g +=%g -=%g --a=%g value=%g\n",
              Name, Z, Add, Sub, Min1, Min2, Max1, Max2, Exch, Cas1, Cas2,
              Final, Pre, Post, PlusEq, MinusEq, Dec, Conv);

  // Free functions on T*, Atomic<T>*, Pointer<T> and Pointer<Atomic<T>>.
  Pointer<T> Raw = allocate<T>(1);
  Raw[0] = T(20);
  double F1 = double(atomicAdd(Raw.get(), T(2)));       // 20 -> 22
  double F2 = double(atomicSub(Raw, T(1)));             // 22 -> 21
  double F3 = double(atomicMin(Raw, T(3)));             // 21 -> 3
  double F4 = double(atomicMax(Raw.get(), T(11)));      // 3 -> 11
  double F5 = double(atomicExch(Raw, T(6)));            // 11 -> 6
  double F6 = double(atomicCAS(Raw, T(6), T(12)));      // 6 -> 12
  double F7 = double(atomicCAS(Raw.get(), T(6), T(1))); // 12 stays
  double F8 = double(atomicAdd(P, T(5)));               // 9 -> 14
  double F9 = double(atomicMax(&P[0], T(15)));          // 14 -> 15
  std::printf("%s free: add=%g sub=%g min=%g max=%g exch=%g cas=%g,%g "
              "final=%g atomic_ptr=%g,%g final=%g\n",
              Name, F1, F2, F3, F4, F5, F6, F7, double(Raw[0]), F8, F9,
              double(P[0].load()));
  deallocate(Raw);
  deallocate(P);
}

int runAtomics() {
  hostAtomics<int>("int");
  hostAtomics<unsigned>("unsigned");
  hostAtomics<long long>("long long");
  hostAtomics<unsigned long long>("unsigned long long");
  hostAtomics<float>("float");
  hostAtomics<double>("double");

  // Under contention: one launch, many work-items on the same words.
  const int N = 20000;
  Pointer<Atomic<int>> IMin = allocate<Atomic<int>>(1);
  Pointer<Atomic<int>> IMax = allocate<Atomic<int>>(1);
  Pointer<Atomic<int>> Winner = allocate<Atomic<int>>(1);
  Pointer<Atomic<int>> Wins = allocate<Atomic<int>>(1);
  Pointer<Atomic<long long>> Swap = allocate<Atomic<long long>>(1);
  Pointer<Atomic<long long>> Returned = allocate<Atomic<long long>>(1);
  Pointer<Atomic<double>> DMin = allocate<Atomic<double>>(1);
  Pointer<Atomic<double>> DMax = allocate<Atomic<double>>(1);
  Pointer<Atomic<float>> FSum = allocate<Atomic<float>>(1);
  Pointer<Atomic<unsigned long long>> USum =
      allocate<Atomic<unsigned long long>>(1);
  IMin[0].store(1 << 30);
  IMax[0].store(-1);
  Winner[0].store(-1);
  Swap[0].store(-5);
  DMin[0].store(1e300);
  DMax[0].store(-1e300);
  parallelFor(Range<1>(N), [=](Index<1> I) __device(hpp) {
    int X = static_cast<int>(I.getX());
    IMin[0].min(X + 3);
    IMax[0].max(X * 2);
    if (Winner[0].compareExchange(-1, X) == -1)
      Wins[0].add(1);
    Returned[0].add(Swap[0].exchange(X));
    DMin[0].min(0.5 * X - 7.0);
    DMax[0].max(0.25 * X);
    FSum[0].add(1.0f);
    USum[0].add(static_cast<unsigned long long>(X) << 32);
  });
  long long Ids = static_cast<long long>(N) * (N - 1) / 2;
  int WinnerId = Winner[0].load();
  std::printf("contention: min=%d max=%d cas_wins=%d winner_valid=%d "
              "exchange_conserved=%d dmin=%g dmax=%g fsum=%g usum_ok=%d\n",
              IMin[0].load(), IMax[0].load(), Wins[0].load(),
              WinnerId >= 0 && WinnerId < N,
              Returned[0].load() + Swap[0].load() == -5 + Ids, DMin[0].load(),
              DMax[0].load(), double(FSum[0].load()),
              USum[0].load() == static_cast<unsigned long long>(Ids) << 32);
  deallocate(IMin);
  deallocate(IMax);
  deallocate(Winner);
  deallocate(Wins);
  deallocate(Swap);
  deallocate(Returned);
  deallocate(DMin);
  deallocate(DMax);
  deallocate(FSum);
  deallocate(USum);
  return 0;
}

//===-- exceptions --------------------------------------------------------===//

/// An exception type of the program's own, to check it arrives intact.
struct CustomError {
  int Code;
};

int runExceptions() {
  try {
    parallelFor(Range<1>(5000), [=](Index<1> I) __device(hpp) {
      if (I.getX() == 4321)
        throw std::runtime_error("thrown by work-item 4321");
    });
    std::printf("runtime_error: not propagated\n");
  } catch (const std::runtime_error &E) {
    std::printf("runtime_error: caught '%s'\n", E.what());
  }

  try {
    parallelFor(Range<2, 2>(Range<2>(33, 7), Range<2>(8, 2)),
                [=](Index<2, 2> I) __device(hpp) {
                  if (I.getX() == 32 && I.getY() == 6)
                    throw CustomError{42};
                });
    std::printf("custom: not propagated\n");
  } catch (const CustomError &E) {
    std::printf("custom: caught code=%d\n", E.Code);
  }

  // Every work-item throws: exactly one exception reaches the caller.
  int Caught = 0;
  try {
    parallelFor(Range<3>(20, 20, 20),
                [=](Index<3>) __device(hpp) { throw CustomError{7}; });
  } catch (const CustomError &E) {
    Caught += E.Code == 7;
  }
  std::printf("all-throw: caught=%d\n", Caught);

  // The runtime still works afterwards.
  Pointer<Atomic<int>> Ran = allocate<Atomic<int>>(1);
  parallelFor(Range<1>(777), [=](Index<1>) __device(hpp) { Ran[0].add(1); });
  std::printf("after: ran=%d\n", Ran[0].load());
  deallocate(Ran);
  return 0;
}

//===-- memory ------------------------------------------------------------===//

int runMemory() {
  Pointer<int> I = allocate<int>(1000);
  Pointer<double> D = allocate<double>(3);
  Pointer<Atomic<double>> A = allocate<Atomic<double>>(5);
  Pointer<char> C = allocate<char>(0);
  int NonZero = 0;
  for (std::size_t E = 0; E < I.size(); ++E)
    NonZero += I[E] != 0;
  for (std::size_t E = 0; E < D.size(); ++E)
    NonZero += D[E] != 0.0;
  for (std::size_t E = 0; E < A.size(); ++E)
    NonZero += A[E].load() != 0.0;
  auto Aligned = [](const void *P) {
    return reinterpret_cast<std::uintptr_t>(P) % 256 == 0;
  };
  std::printf("memory: sizes=%zu,%zu,%zu,%zu nonzero=%d aligned=%d,%d,%d "
              "atomic_layout=%d\n",
              I.size(), D.size(), A.size(), C.size(), NonZero, Aligned(I.get()),
              Aligned(D.get()), Aligned(A.get()),
              int(sizeof(Atomic<double>) == sizeof(double)));
  deallocate(I);
  deallocate(D);
  deallocate(A);
  deallocate(C);
  deallocate(Pointer<float>());
  return 0;
}

//===-- mvector -----------------------------------------------------------===//

int runMvector() {
  static_assert(MVECTOR_MAX == 64, "MVECTOR_MAX");
  static_assert(MVECTOR_MIN == 32, "MVECTOR_MIN");
  int PerLane[MVECTOR_MAX] = {};
  int PerMvector[1024 / MVECTOR_MIN] = {};
  std::printf("mvector: max=%d min=%d lanes=%zu mvectors=%zu\n", MVECTOR_MAX,
              MVECTOR_MIN, sizeof(PerLane) / sizeof(int),
              sizeof(PerMvector) / sizeof(int));
  std::fflush(stdout);
  try {
    Pointer<Atomic<int>> Seen = allocate<Atomic<int>>(2);
    Seen[0].store(1 << 30);
    parallelFor(Range<1>(300), [=](Index<1>) __device(hpp) {
      Seen[0].min(static_cast<int>(MVECTOR_SIZE));
      Seen[1].max(static_cast<int>(MVECTOR_SIZE));
    });
    std::printf("mvector: host=%u device=%d..%d\n", unsigned(MVECTOR_SIZE),
                Seen[0].load(), Seen[1].load());
    deallocate(Seen);
  } catch (const RuntimeError &E) {
    std::printf("parallelFor: error: %s\n", E.what());
    try {
      std::printf("MVECTOR_SIZE=%u\n", unsigned(MVECTOR_SIZE));
    } catch (const RuntimeError &E2) {
      std::printf("MVECTOR_SIZE: error: %s\n", E2.backendMessage().c_str());
    }
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  const char *Mode = argc > 1 ? argv[1] : "";
  try {
    if (!std::strcmp(Mode, "index"))
      return runIndex();
    if (!std::strcmp(Mode, "atomics"))
      return runAtomics();
    if (!std::strcmp(Mode, "exceptions"))
      return runExceptions();
    if (!std::strcmp(Mode, "memory"))
      return runMemory();
    if (!std::strcmp(Mode, "mvector"))
      return runMvector();
  } catch (const RuntimeError &E) {
    std::printf("error: %s\n", E.what());
    return 1;
  }
  std::fprintf(
      stderr, "usage: cpu_semantics index|atomics|exceptions|memory|mvector\n");
  return 2;
}
