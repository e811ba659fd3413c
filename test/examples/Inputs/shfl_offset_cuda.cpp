//===- test/examples/Inputs/shfl_offset_cuda.cpp - CUDA's shuffle edges ---===//
//
// Part of hpp-rewrite. Input of shfl-offset-cuda.test.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Shuffles with a 32-bit mask and a lane offset of 32 or more, which CUDA
/// defines (PTX shfl.sync uses the offset's bits 4:0: 32 and 64 give the
/// own value, 33 shifts by 1), and __activemask(), on the CPU reference
/// runtime. Every value is checked against a host model of CUDA (per
/// 32-lane warp) and the output is the same at HPP_CPU_MVECTOR=32 and 64:
///   shfl_offset_cuda            the CUDA sample's shfl_up scan loop (its
///                               last step has offset 32 = width), up,
///                               down and xor by 32, 33, 64 and ~0,
///                               __activemask with exited lanes
///   shfl_offset_cuda width64    a shuffle width of 64 with a 32-bit mask:
///                               hpp::RuntimeError (CUDA: width <= 32)
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdio>
#include <cstring>

using namespace hpp;

static int Failures = 0;

static void expect(bool Ok, const char *What, int I, long long Got,
                   long long Want) {
  if (!Ok && Failures++ < 10)
    std::printf("MISMATCH %s at %d: %lld, want %lld\n", What, I, Got, Want);
}

/// The sample's inclusive warp scan, shfl_up_sync with the width: its last
/// step has offset == width, which no lane uses (lane >= 32 never holds).
__device(hpp) int warpScan(int v, int lane, int width) {
  for (int k = 1; k <= width; k *= 2) {
    int n = __shfl_up_sync(0xffffffff, v, k, width);
    if (lane >= k)
      v += n;
  }
  return v;
}

static void offsets(int N, int G) {
  Pointer<int> In = allocate<int>(N), Scan = allocate<int>(N),
               Scan16 = allocate<int>(N), Far = allocate<int>(N),
               Far33 = allocate<int>(N), FarXor = allocate<int>(N),
               FarDown = allocate<int>(N);
  Pointer<unsigned> Active = allocate<unsigned>(N);
  for (int I = 0; I != N; ++I)
    In[I] = (I * 37) % 101 - 50;
  parallelFor(Range<1, 1>(Range<1>(N), Range<1>(G)),
              [=](Index<1, 1> i) __device(hpp) {
                int g = int(i.getX());
                int lane = int(i.getLocalX()) % 32; // CUDA's lane id
                int v = In[g];
                Scan[g] = warpScan(v, lane, 32);
                Scan16[g] = warpScan(v, lane % 16, 16);
                // Offsets of 32 and more: their bits 4:0 count.
                int far = __shfl_up_sync(0xffffffff, v, 32) +   // own
                          __shfl_down_sync(0xffffffff, v, 32) + // own
                          __shfl_xor_sync(0xffffffff, v, 32) +  // own
                          __shfl_down_sync(0xffffffff, v, 64u); // own
                Far[g] = far;
                Far33[g] = __shfl_up_sync(0xffffffff, v, 33u, 16);  // up 1
                FarXor[g] = __shfl_xor_sync(0xffffffff, v, -1);     // xor 31
                FarDown[g] = __shfl_down_sync(0xffffffffu, v, ~0u); // 31
                // Lanes 40 and up of each work-group exit first.
                if (i.getLocalX() >= 40)
                  return;
                Active[g] = __activemask();
              });
  for (int I = 0; I != N; ++I) {
    int Base = I - I % 32, Lane = I % 32, S = 0, S16 = 0;
    for (int L = 0; L <= Lane; ++L)
      S += In[Base + L];
    for (int L = Lane - Lane % 16; L <= Lane; ++L)
      S16 += In[Base + L];
    expect(Scan[I] == S, "scan", I, Scan[I], S);
    expect(Scan16[I] == S16, "scan16", I, Scan16[I], S16);
    expect(Far[I] == 4 * In[I], "offset-32-64", I, Far[I], 4 * In[I]);
    int Up1 = Lane % 16 >= 1 ? In[I - 1] : In[I];
    expect(Far33[I] == Up1, "up-33-width-16", I, Far33[I], Up1);
    expect(FarXor[I] == In[Base + (Lane ^ 31)], "xor-minus-1", I, FarXor[I],
           In[Base + (Lane ^ 31)]);
    int Down31 = Lane == 0 ? In[Base + 31] : In[I];
    expect(FarDown[I] == Down31, "down-2^32-1", I, FarDown[I], Down31);
    int Local = I % G;
    if (Local >= 40)
      continue;
    // The group's not-exited items of the caller's 32-lane warp.
    int WarpBase = Local - Local % 32, Live = 0;
    for (int L = WarpBase; L < WarpBase + 32; ++L)
      Live += L < 40;
    unsigned Want = Live == 32 ? 0xffffffffu : (1u << Live) - 1;
    expect(Active[I] == Want, "activemask", I, Active[I], Want);
  }
  std::printf("offsets n=%d group=%d %s\n", N, G,
              Failures ? "FAILED" : "verified");
}

static int width64() {
  try {
    parallelFor(Range<1, 1>(Range<1>(64), Range<1>(64)),
                [=](Index<1, 1> i) __device(hpp) {
                  int v = int(i.getX());
                  v = __shfl_up_sync(0xffffffff, v, 1, 64); // WIDTH64-LINE
                  (void)v;
                });
    std::printf("width64: no error\n");
    return 0;
  } catch (const RuntimeError &E) {
    std::printf("width64: error: %s\n", E.what());
    return 1;
  }
}

int main(int Argc, char **Argv) {
  if (Argc > 1 && !std::strcmp(Argv[1], "width64"))
    return width64();
  offsets(256, 64);
  offsets(384, 128);
  return Failures ? 1 : 0;
}
