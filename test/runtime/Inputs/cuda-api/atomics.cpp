// CUDA's atomic functions as ported code calls them
// (test/runtime/cuda-api.test): every overload of the set, from every
// thread of several blocks (on the CPU backend, several host threads), and
// the overload resolution CUDA gives: atomicAdd(unsigned *, int) is the
// unsigned one, atomicAdd(float *, double) the float one.
#include <hpp/cuda_api.h>

#include <cstdio>
#include <cstdlib>
#include <type_traits>

struct Counters {
  int I;
  unsigned U;
  unsigned long long ULL;
  float F;
  double D;
  int SubI;
  unsigned SubU;
  int MinI, MaxI;
  unsigned MinU, MaxU;
  long long MinLL, MaxLL;
  unsigned long long MinULL, MaxULL;
  unsigned Inc, Dec;
  int AndI, OrI, XorI;
  unsigned AndU, OrU, XorU;
  unsigned long long AndULL, OrULL, XorULL;
  int ExchI;
  unsigned ExchU;
  unsigned long long ExchULL;
  float ExchF;
  int CasI;
  unsigned CasU;
  unsigned long long CasULL;
  unsigned short CasUS;
  unsigned short Pad;
};

__global__ void atomics(Counters *C) {
  static_assert(std::is_same<decltype(atomicAdd(&C->U, 1)), unsigned>::value,
                "atomicAdd(unsigned *, int) is the unsigned overload");
  static_assert(std::is_same<decltype(atomicAdd(&C->F, 1.0)), float>::value,
                "atomicAdd(float *, double) is the float overload");
  const int T = blockIdx.x * blockDim.x + threadIdx.x; // 0 .. 511
  atomicAdd(&C->I, 1);
  atomicAdd(&C->U, 2); // An int for an unsigned.
  atomicAdd(&C->ULL, 3ull);
  atomicAdd(&C->F, 0.5);
  atomicAdd(&C->D, 0.25);
  atomicSub(&C->SubI, 1);
  atomicSub(&C->SubU, 1u);
  atomicMin(&C->MinI, T - 100);
  atomicMax(&C->MaxI, T - 100);
  atomicMin(&C->MinU, unsigned(T + 7));
  atomicMax(&C->MaxU, unsigned(T + 7));
  atomicMin(&C->MinLL, -1000000000000ll * T);
  atomicMax(&C->MaxLL, 1000000000000ll * T);
  atomicMin(&C->MinULL, 1000000000000ull + T);
  atomicMax(&C->MaxULL, 1000000000000ull + T);
  atomicInc(&C->Inc, 99u); // Wraps to 0 after 99: 512 % 100.
  atomicDec(&C->Dec, 99u); // From 0 wraps to 99.
  atomicAnd(&C->AndI, ~(1 << (T % 31)));
  atomicOr(&C->OrI, 1 << (T % 31));
  atomicXor(&C->XorI, 1);
  atomicAnd(&C->AndU, ~(1u << (T % 32)));
  atomicOr(&C->OrU, 1u << (T % 32));
  atomicXor(&C->XorU, 3u);
  atomicAnd(&C->AndULL, ~(1ull << (T % 64)));
  atomicOr(&C->OrULL, 1ull << (T % 64));
  atomicXor(&C->XorULL, 1ull << 40);
  atomicExch(&C->ExchI, 7);
  atomicExch(&C->ExchU, 8u);
  atomicExch(&C->ExchULL, 9ull);
  atomicExch(&C->ExchF, 1.5f);
  // Exactly one thread swaps each (the one that finds the old value).
  if (atomicCAS(&C->CasI, 0, T + 1) == 0)
    atomicAdd(&C->CasU, 1u);
  atomicCAS(&C->CasULL, 0ull, 42ull);
  atomicCAS(&C->CasUS, (unsigned short)0, (unsigned short)5);
}

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t E = (call);                                                    \
    if (E != cudaSuccess) {                                                    \
      std::printf("%s failed: %s\n", #call, cudaGetErrorString(E));           \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

int main() {
  Counters H = {};
  H.MinI = 1 << 30;
  H.MaxI = -(1 << 30);
  H.MinU = ~0u;
  H.MinLL = 0;
  H.MaxLL = 0;
  H.MinULL = ~0ull;
  H.AndI = -1;
  H.AndU = ~0u;
  H.AndULL = ~0ull;
  Counters *D;
  CHECK(cudaMalloc(&D, sizeof(Counters)));
  CHECK(cudaMemcpy(D, &H, sizeof H, cudaMemcpyHostToDevice));
  hpp::launchCuda(atomics, 4, 128, 0, 0, D);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(&H, D, sizeof H, cudaMemcpyDeviceToHost));
  std::printf("add: %d %u %llu %g %g\n", H.I, H.U, H.ULL, H.F, H.D);
  std::printf("sub: %d %u\n", H.SubI, H.SubU);
  std::printf("min/max int: %d %d, unsigned: %u %u\n", H.MinI, H.MaxI, H.MinU,
              H.MaxU);
  std::printf("min/max long long: %lld %lld, unsigned: %llu %llu\n", H.MinLL,
              H.MaxLL, H.MinULL, H.MaxULL);
  std::printf("inc/dec: %u %u\n", H.Inc, H.Dec);
  std::printf("and/or/xor int: %d %d %d\n", H.AndI, H.OrI, H.XorI);
  std::printf("and/or/xor unsigned: %u %u %u\n", H.AndU, H.OrU, H.XorU);
  std::printf("and/or/xor unsigned long long: %llu %llx %llx\n", H.AndULL,
              H.OrULL, H.XorULL);
  std::printf("exch: %d %u %llu %g\n", H.ExchI, H.ExchU, H.ExchULL, H.ExchF);
  std::printf("cas: %s, %u swap, %llu %u\n", H.CasI > 0 ? "swapped" : "not",
              H.CasU, H.CasULL, unsigned(H.CasUS));
  CHECK(cudaFree(D));
  return 0;
}
