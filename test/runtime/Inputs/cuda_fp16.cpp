// CUDA's half precision through <hpp/cuda_api.h>, written as port mode
// writes CUDA code (cuda-fp16.test): conversions on the host; arithmetic,
// comparisons, operators and __half2 operations in a kernel; shuffles of
// __half and __half2 through the warp operations; and, on the CPU backend,
// a sweep of the conversions and operations against an independent model:
// the compiler's _Float16, whose conversions from float and from double
// round once to nearest even, applied to the exact result in double.
#include <hpp/cuda_api.h>

#include <cmath>
#include <cstdio>
#include <cstring>

static unsigned bitsOf(__half H) {
  unsigned short U;
  std::memcpy(&U, &H, sizeof U);
  return U;
}
static __half fromBits(unsigned short U) {
  __half_raw R;
  R.x = U;
  return __half(R);
}
static unsigned floatBits(float F) {
  unsigned U;
  std::memcpy(&U, &F, sizeof U);
  return U;
}

/// The values of the tables: zeros, subnormals, normals, the largest,
/// infinities, a NaN.
constexpr int NumValues = 12;
static const unsigned short Values[NumValues] = {
    0x0000, 0x8000, 0x0001, 0x03ff, 0x3c00, 0xbe00,
    0x3555, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00};

/// Per pair of values: + - * / (operators and functions), max, min.
constexpr int PerPair = 6;

__global__ void arithmetic(const __half *A, __half *Out, int *Cmp, int N) {
  const int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N * N)
    return;
  const __half X = A[I / N], Y = A[I % N];
  __half *O = Out + I * PerPair;
  O[0] = X + Y;
  O[1] = __hsub(X, Y);
  O[2] = __hmul(X, Y);
  O[3] = X / Y;
  O[4] = __hmax(X, Y);
  O[5] = __hmin(X, Y);
  Cmp[I] = (X == Y) | (X != Y) << 1 | (X < Y) << 2 | (X > Y) << 3 |
           (X <= Y) << 4 | (X >= Y) << 5 | __heq(X, Y) << 6 |
           __hlt(X, Y) << 7;
}

/// Operators with assignment, increments, negation, __half2.
__global__ void operators(__half *H, float *F) {
  __half X = __float2half(2.5f);
  X += __float2half(1.0f);
  X *= __float2half(2.0f);
  X -= __float2half(0.5f);
  X /= __float2half(4.0f);
  H[0] = X;      // 1.625
  H[1] = ++X;    // 2.625
  H[2] = X--;    // 2.625
  H[3] = -X;     // -1.625
  H[4] = __hneg(X);
  H[5] = __habs(H[4]);
  H[6] = __hadd(__low2half(__halves2half2(X, H[1])),
                __high2half(__halves2half2(X, H[1]))); // 4.25
  const __half2 P = __floats2half2_rn(1.5f, -2.25f);
  const __half2 Q = __hadd2(P, __hmul2(P, P));
  const float2 R = __half22float2(Q);
  F[0] = R.x;                                  // 3.75
  F[1] = R.y;                                  // 2.8125
  F[2] = __low2float(P) + __high2float(P);     // -0.75
  F[3] = __half2float(__hadd(X, X));           // 3.25
  F[4] = __half2float(__hdiv(__float2half(1.0f), __float2half(3.0f)));
}

/// The largest value of each 32-lane warp and of its first half, and the
/// sums of a __half2 per warp, through the warp operations.
__global__ void shuffles(float *Out) {
  const int Lane = threadIdx.x & 31;
  __half Max = __float2half(0.5f * (float)((Lane * 7) % 32));
  __half2 Sum = __halves2half2(__float2half((float)Lane),
                               __float2half(-(float)Lane));
  for (int Offset = 16; Offset > 0; Offset >>= 1) {
    Max = __hmax(Max, hpp::warp32::shflXorSync(0xffffffff, Max, Offset));
    Sum = __hadd2(Sum, hpp::warp32::shflXorSync(0xffffffff, Sum, Offset));
  }
  const __half First = hpp::warp32::shflSync(0xffffffff, Max, 0);
  Out[threadIdx.x * 4 + 0] = __half2float(Max);
  Out[threadIdx.x * 4 + 1] = __low2float(Sum);
  Out[threadIdx.x * 4 + 2] = __high2float(Sum);
  Out[threadIdx.x * 4 + 3] = __half2float(First);
}

template <class T> static T *managed(int N) {
  T *P = nullptr;
  cudaMallocManaged(&P, N * sizeof(T));
  return P;
}

static void conversions() {
  const float Floats[] = {0.0f,       -0.0f,     1.0f,        -2.5f,
                          0.1f,       65504.0f,  65519.996f,  65520.0f,
                          1e6f,       -INFINITY, NAN,         6.1035156e-5f,
                          5.9604645e-8f, 2.9802322e-8f, 4.4703484e-8f,
                          2049.0f,    2051.0f,   1.00048828125f, 1.00146484375f};
  printf("float to half:");
  for (float F : Floats)
    printf(" %04x", bitsOf(__float2half(F)));
  printf("\n");
  printf("rn and pairs: %04x %04x %04x\n", bitsOf(__float2half_rn(0.3f)),
         bitsOf(__low2half(__floats2half2_rn(0.3f, -7.0f))),
         bitsOf(__high2half(__floats2half2_rn(0.3f, -7.0f))));
  const unsigned short Halves[] = {0x0001, 0x03ff, 0x0400, 0x3555, 0x7bff,
                                   0x7c00, 0xfc00, 0x8000, 0x7e00, 0xfe01};
  printf("half to float:");
  for (unsigned short H : Halves)
    printf(" %08x", floatBits(__half2float(fromBits(H))));
  printf("\n");
}

#if defined(HPP_BACKEND_CPU)
/// The CPU backend's conversions and operations against _Float16.
static void sweep() {
#if defined(__FLT16_MANT_DIG__)
  auto Model = [](double D) {
    const _Float16 M = static_cast<_Float16>(D);
    unsigned short U;
    std::memcpy(&U, &M, sizeof U);
    return D != D ? 0x7fffu : unsigned(U);
  };
  long Checked = 0, Wrong = 0;
  auto Check = [&](unsigned Got, unsigned Want) {
    ++Checked;
    Wrong += Got != Want;
  };
  // Every half, to float and back; and the floats around every tie.
  for (unsigned H = 0; H < 0x10000; ++H) {
    const __half X = fromBits(static_cast<unsigned short>(H));
    const float F = __half2float(X);
    Check(bitsOf(__float2half(F)), __hisnan(X) ? 0x7fffu : H);
    if ((H & 0x7c00) == 0x7c00)
      continue;
    const float Next = __half2float(fromBits(static_cast<unsigned short>(H + 1)));
    if (Next != Next || (H & 0x7fff) == 0x7bff)
      continue;
    const float Tie = F + (Next - F) / 2;
    for (float G : {Tie, std::nextafter(Tie, -INFINITY),
                    std::nextafter(Tie, INFINITY)})
      Check(bitsOf(__float2half(G)), Model(G));
    const double D = static_cast<double>(F) + (static_cast<double>(Next) - F) / 2;
    for (double E : {D, std::nextafter(D, -1e300), std::nextafter(D, 1e300)})
      Check(bitsOf(__double2half(E)), Model(E));
  }
  // Floats across the whole range, every 4099th bit pattern.
  for (unsigned long long U = 0; U < 0x100000000ull; U += 4099) {
    float F;
    const unsigned Bits = static_cast<unsigned>(U);
    std::memcpy(&F, &Bits, sizeof F);
    Check(bitsOf(__float2half(F)), Model(F));
  }
  // The operations on every pair of a sample of halves.
  for (unsigned A = 0; A < 0x10000; A += 97)
    for (unsigned B = 0; B < 0x10000; B += 89) {
      const __half X = fromBits(static_cast<unsigned short>(A));
      const __half Y = fromBits(static_cast<unsigned short>(B));
      const double DX = __half2float(X), DY = __half2float(Y);
      Check(bitsOf(__hadd(X, Y)), Model(DX + DY));
      Check(bitsOf(__hsub(X, Y)), Model(DX - DY));
      Check(bitsOf(__hmul(X, Y)), Model(DX * DY));
      Check(bitsOf(__hdiv(X, Y)), Model(DX / DY));
    }
  printf("sweep: %ld checked, %ld wrong\n", Checked, Wrong);
#endif
  // CUDA's conversions to and from integers: rounded, saturated, NaN 0.
  printf("integers: %04x %04x %04x %d %d %d %u %lld %d %d\n",
         bitsOf(__half(70000)), bitsOf(__half(-2049)), bitsOf(__half(2051u)),
         int(__half(-3.75f)), int(short(__half(65504.0f))),
         int(short(fromBits(0xfbff))), unsigned(__half(-5.0f)),
         static_cast<long long>(fromBits(0x7c00)), int(fromBits(0x7e00)),
         int(bool(fromBits(0x8000))));
}
#endif

int main() {
  conversions();

  __half *A = managed<__half>(NumValues);
  for (int I = 0; I < NumValues; ++I)
    A[I] = fromBits(Values[I]);
  const int Pairs = NumValues * NumValues;
  __half *Out = managed<__half>(Pairs * PerPair);
  int *Cmp = managed<int>(Pairs);
  hpp::launchCuda(arithmetic, (Pairs + 63) / 64, 64, 0, 0, A, Out, Cmp,
                  NumValues);
  cudaDeviceSynchronize();
  for (int I = 0; I < Pairs; I += 5) {
    printf("%04x %04x:", Values[I / NumValues], Values[I % NumValues]);
    for (int K = 0; K < PerPair; ++K)
      printf(" %04x", bitsOf(Out[I * PerPair + K]));
    printf(" cmp %02x\n", Cmp[I]);
  }

  __half *H = managed<__half>(8);
  float *F = managed<float>(8);
  hpp::launchCuda(operators, 1, 1, 0, 0, H, F);
  cudaDeviceSynchronize();
  printf("operators:");
  for (int I = 0; I < 7; ++I)
    printf(" %g", __half2float(H[I]));
  printf(" |");
  for (int I = 0; I < 5; ++I)
    printf(" %g", F[I]);
  printf("\n");

  float *S = managed<float>(64 * 4);
  hpp::launchCuda(shuffles, 1, 64, 0, 0, S);
  cudaDeviceSynchronize();
  printf("shuffles: lane 0: %g %g %g %g, lane 63: %g %g %g %g\n", S[0], S[1],
         S[2], S[3], S[252], S[253], S[254], S[255]);

#if defined(HPP_BACKEND_CPU)
  sweep();
#endif
  return 0;
}
