// hpp::warp32, the operations of kernels written for a 32-lane warp, in
// kernels of the shape hpp-rewrite produces, for warp32.test: run on the
// CPU backend at HPP_CPU_MVECTOR=32 and 64 (each half of a 64-lane mvector
// is a logical warp of its own, so the output is the same at both widths
// but for the width line), compiled with nvcc and hipcc (gfx90a, gfx1030),
// and the device code of hpp_warp32_reduce_pfor0 inspected.
//
// Usage: warp32 [MODE]. Without MODE, prints the results of chosen
// work-items. With MODE width64 or mask16: a launch that must throw
// hpp::RuntimeError, printed as "MODE: error: what()" (exit 1). The error
// sites are marked "SITE: <mode>"; warp32.test finds their lines with grep.
#include <hpp/runtime.h>
using namespace hpp;

#include <cstdio>
#include <cstring>

/// The results each work-item of hpp_warp32_ops_pfor0 writes.
enum Result {
  Idx3,      // shflSync lane 3
  Idx35,     // shflSync lane + 35 (mod 32)
  Idx3W16,   // shflSync lane 3 of the own 16-lane segment
  Up1,       // shflUpSync 1
  Up32,      // shflUpSync 32: the own value
  Down5W8,   // shflDownSync 5, width 8, long long
  Down16,    // shflDownSync 16: lanes 16-31 keep their own value
  Down33,    // shflDownSync 33, which PTX reads as 1
  Xor16,     // shflXorSync 16
  Xor32,     // shflXorSync 32: the own value
  Xor8W8,    // shflXorSync 8, width 8, short: the lower segment or own
  Xor1D,     // shflXorSync 1, double
  Ballot3,   // ballotSync of item % 3 == 0
  Ballot16,  // ballotSync per 16-lane mask of odd items
  Votes,     // anySync of item % 64 == 40 | allSync of item % 64 < 32 << 1
  Bits,      // __popc | __ffs << 8 | __clz << 16 of Ballot3
  Active,    // activeMask()
  ReduceXor, // xor tree from 16: the logical warp's sum
  ScanUp,    // inclusive scan, shflUpSync k = 1 ... 32
  NumResults
};

/// Every hpp::warp32 operation, lane = threadIdx.x & 31 as CUDA code
/// computes it; each work-item's value is its global id.
__global__ void hpp_warp32_ops_pfor0(hpp::Range<1, 1> hpp_range,
                                     const hpp::Pointer<long long> out) {
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    const unsigned Full = 0xffffffff;
    const int lane = int(i.getLocalX()) & 31;
    const int v = int(i.getX());
    long long *o = &out[i.getX() * NumResults];
    o[Idx3] = hpp::warp32::shflSync(Full, v, 3);
    o[Idx35] = hpp::warp32::shflSync(Full, v, lane + 35);
    o[Idx3W16] = hpp::warp32::shflSync(Full, v, 3, 16);
    o[Up1] = hpp::warp32::shflUpSync(Full, v, 1);
    o[Up32] = hpp::warp32::shflUpSync(Full, v, 32);
    o[Down5W8] = hpp::warp32::shflDownSync(Full, 1000000007LL * v, 5, 8);
    o[Down16] = hpp::warp32::shflDownSync(Full, v, 16);
    o[Down33] = hpp::warp32::shflDownSync(Full, v, 33);
    o[Xor16] = hpp::warp32::shflXorSync(Full, v, 16);
    o[Xor32] = hpp::warp32::shflXorSync(Full, v, 32);
    o[Xor8W8] = hpp::warp32::shflXorSync(Full, short(v), 8, 8);
    o[Xor1D] = (long long)(2 * hpp::warp32::shflXorSync(Full, 0.5 * v, 1));
    const unsigned b = hpp::warp32::ballotSync(Full, v % 3 == 0);
    o[Ballot3] = b;
    o[Ballot16] = hpp::warp32::ballotSync(0xffffu << (lane & 16), v & 1);
    o[Votes] = hpp::warp32::anySync(Full, v % 64 == 40) |
               hpp::warp32::allSync(Full, v % 64 < 32) << 1;
    o[Bits] = __popc(b) | __ffs(b) << 8 | __clz(b) << 16;
    o[Active] = hpp::warp32::activeMask();
    int sum = v;
    for (int offset = 16; offset > 0; offset /= 2)
      sum += hpp::warp32::shflXorSync(Full, sum, offset);
    o[ReduceXor] = sum;
    int scan = v;
    for (int k = 1; k <= 32; k *= 2) {
      const int t = hpp::warp32::shflUpSync(Full, scan, k);
      if (lane >= k)
        scan += t;
    }
    o[ScanUp] = scan;
  }
}

/// The active lanes of each logical warp (a partial last work-group: the
/// work-items past the range have exited).
__global__ void hpp_warp32_active_pfor0(hpp::Range<1, 1> hpp_range,
                                        const hpp::Pointer<long long> out) {
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    out[i.getX()] = hpp::warp32::activeMask();
  }
}

/// The xor tree reduction of CUDA code kept at 32 lanes: 5 steps, each
/// within the caller's 32-lane half on wave64 (warp32.test reads the ISA).
__global__ void hpp_warp32_reduce_pfor0(hpp::Range<1> hpp_range,
                                        const hpp::Pointer<int> in,
                                        const hpp::Pointer<int> out) {
  hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    int v = in[i.getX()];
    for (int offset = 16; offset > 0; offset /= 2)
      v += hpp::warp32::shflXorSync(0xffffffff, v, offset);
    out[i.getX()] = v;
  }
}

/// Launches that must fail on the CPU backend, by Mode.
__global__ void hpp_warp32_errors_pfor0(hpp::Range<1, 1> hpp_range,
                                        const int Mode,
                                        const hpp::Pointer<int> out) {
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    int v = int(i.getX());
    if (Mode == 0)
      v = hpp::warp32::shflDownSync(0xffffffff, v, 1, 64); // SITE: width64
    else
      v = int(hpp::warp32::ballotSync(0xffff, v & 1)); // SITE: mask16
    out[i.getX()] = v;
  }
}

void reduce(hpp::Pointer<int> In, hpp::Pointer<int> Out, int N) {
  hpp::launchKernel(hpp_warp32_reduce_pfor0, hpp::Range<1>(N), In, Out);
}

#if defined(HPP_BACKEND_CPU)

static const char *const ResultNames[NumResults] = {
    "idx3",   "idx35", "idx3w16", "up1",    "up32",  "down5w8", "down16",
    "down33", "xor16", "xor32",   "xor8w8", "xor1d", "ballot3", "ballot16",
    "votes",  "bits",  "active",  "reduce", "scan"};

static int errors(const char *Mode) {
  const int Index = !std::strcmp(Mode, "width64")  ? 0
                    : !std::strcmp(Mode, "mask16") ? 1
                                                   : -1;
  if (Index < 0) {
    std::printf("unknown mode '%s'\n", Mode);
    return 2;
  }
  Pointer<int> Out = allocate<int>(128);
  try {
    hpp::launchKernel(hpp_warp32_errors_pfor0,
                      Range<1, 1>(Range<1>(128), Range<1>(128)), Index, Out);
  } catch (const RuntimeError &E) {
    std::printf("%s: error: %s\n", Mode, E.what());
    return 1;
  }
  std::printf("%s: no error\n", Mode);
  return 0;
}

int main(int Argc, char **Argv) {
  if (Argc > 1)
    return errors(Argv[1]);
  try {
    std::printf("width %d\n", hpp::getWarpSize(0));
    const int N = 256;
    Pointer<long long> Out = allocate<long long>(size_t(N) * NumResults);
    hpp::launchKernel(hpp_warp32_ops_pfor0,
                      Range<1, 1>(Range<1>(N), Range<1>(128)), Out);
    for (int K : {0, 5, 16, 31, 32, 40, 63, 200}) {
      std::printf("item %d:", K);
      for (int R = 0; R < NumResults; ++R) {
        const long long V = Out[size_t(K) * NumResults + R];
        if (R == Ballot3 || R == Ballot16 || R == Active)
          std::printf(" %s=0x%llx", ResultNames[R], V);
        else
          std::printf(" %s=%lld", ResultNames[R], V);
      }
      std::printf("\n");
    }
    // 40 work-items in a group of 64: lanes 40-63 have exited.
    Pointer<long long> Active = allocate<long long>(64);
    hpp::launchKernel(hpp_warp32_active_pfor0,
                      Range<1, 1>(Range<1>(40), Range<1>(64)), Active);
    std::printf("active n=40: item 0 0x%llx, item 39 0x%llx\n", Active[0],
                Active[39]);
    Pointer<int> In = allocate<int>(128), Sums = allocate<int>(128);
    for (int K = 0; K < 128; ++K)
      In[K] = K * K;
    reduce(In, Sums, 128);
    std::printf("reduce squares: %d %d %d %d\n", Sums[0], Sums[40], Sums[64],
                Sums[127]);
  } catch (const RuntimeError &E) {
    std::printf("RuntimeError: %s\n", E.what());
    return 2;
  }
  return 0;
}

#endif
