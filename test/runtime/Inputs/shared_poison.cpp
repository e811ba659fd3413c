//===- test/runtime/Inputs/shared_poison.cpp - Poisoned __shared__ --------===//
//
// Part of hpp-rewrite. Input of poison.test: kernels in the shape
// hpp-rewrite emits, with __shared__ variables, on the runtime's CPU
// backend, where every work-group starts with them poisoned (0xFF bytes).
//
//===----------------------------------------------------------------------===//
///
/// \file
///   shared_poison slots        per-warp partial sums in __shared__ float
///                              partial[32], added over all 32 slots by
///                              work-item 0 (a bug: the slots of warps the
///                              group does not have are never written):
///                              NaN sums
///   shared_poison slots-fixed  adding only the group's warps: right sums
///   shared_poison stale        work-group 0 alone writes a __shared__
///                              int and a __shared__ double; every group
///                              reads them (the others see -1 and NaN,
///                              not group 0's values, even on one thread)
///
//===----------------------------------------------------------------------===//
#include <hpp/runtime.h>

#include <cmath>
#include <cstdio>
#include <cstring>

using namespace hpp;

__global__ void hpp_slots_pfor0(hpp::Range<1, 1> hpp_range,
                                const hpp::Pointer<float> in,
                                const hpp::Pointer<float> out, const int used) {
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    __shared__ float partial[32];
    const int W = hpp::getWarpSize();
    const int t = int(i.getLocalX());
    if (t % W == 0) {
      float sum = 0;
      for (int k = 0; k < W; ++k)
        sum += in[i.getX() + k];
      partial[t / W] = sum;
    }
    __syncthreads();
    if (t == 0) {
      const int n = used ? used : int(i.getLocalSizeX()) / W;
      float total = 0;
      for (int w = 0; w < n; ++w)
        total += partial[w];
      out[i.getGroupX()] = total;
    }
  }
}

__global__ void hpp_stale_pfor0(hpp::Range<1, 1> hpp_range,
                                const hpp::Pointer<int> out,
                                const hpp::Pointer<double> dout) {
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    __shared__ int flag;
    __shared__ double value;
    if (i.getGroupX() == 0 && i.getLocalX() == 0) {
      flag = 7;
      value = 2.5;
    }
    __syncthreads();
    out[i.getX()] = flag;
    dout[i.getX()] = value;
  }
}

int main(int argc, char **argv) {
  const char *Mode = argc > 1 ? argv[1] : "slots";
  try {
    if (!std::strcmp(Mode, "stale")) {
      const int N = 256, G = 64;
      Pointer<int> Out = allocate<int>(N);
      Pointer<double> DOut = allocate<double>(N);
      launchKernel(hpp_stale_pfor0, Range<1, 1>(Range<1>(N), Range<1>(G)), Out,
                   DOut);
      std::printf("stale:");
      for (int g = 0; g != N / G; ++g)
        std::printf(" %d/%s", Out[g * G + 1],
                    std::isnan(DOut[g * G + 1]) ? "NaN" : "value");
      std::printf("\n");
      return 0;
    }
    const int N = 512, G = 128;
    Pointer<float> In = allocate<float>(N), Out = allocate<float>(N / G);
    for (int k = 0; k != N; ++k)
      In[k] = float(k % 7);
    const bool Fixed = !std::strcmp(Mode, "slots-fixed");
    launchKernel(hpp_slots_pfor0, Range<1, 1>(Range<1>(N), Range<1>(G)), In,
                 Out, Fixed ? 0 : 32);
    std::printf("%s:", Mode);
    for (int g = 0; g != N / G; ++g)
      if (std::isnan(Out[g]))
        std::printf(" NaN");
      else
        std::printf(" %g", Out[g]);
    std::printf("\n");
  } catch (const RuntimeError &E) {
    std::printf("%s: error: %s\n", Mode, E.what());
    return 1;
  }
  return 0;
}
