// Every warp operation of the device runtime (runtime/hpp/backend/gpu_warp.h)
// in kernels of the shape hpp-rewrite produces, for gpu-warp.test to compile
// with nvcc and hipcc and check the device code of.
#include <hpp/runtime.h>

/// Three bytes: moves as one 32-bit word.
struct Rgb {
  unsigned char R, G, B;
};
/// Eight bytes of two kinds, and no default constructor: two words.
struct Tagged {
  __host__ __device__ Tagged(int K, float V) : Key(K), Value(V) {}
  int Key;
  float Value;
};

/// Every shuffle with and without a width, on 4- and 8-byte and odd types,
/// then ballot, votes, the active mask and the bit functions.
__global__ void hpp_warp_ops_pfor0(hpp::Range<1> hpp_range,
                                   const hpp::Pointer<long long> out) {
  hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    const hpp::LaneMask Full = hpp::getWarpFullMask();
    const int Lane = int(i.getLocalX() % hpp::getWarpSize());
    const size_t K = i.getX();
    const int X = int(K) * 3 - 7;
    long long Acc = 0;
    Acc += hpp::shflSync(Full, X, Lane + 1);
    Acc += hpp::shflSync(Full, 1u + X, Lane * 3, 8);
    Acc += (long long)hpp::shflUpSync(Full, 0.5f * X, 1u);
    Acc += (long long)hpp::shflUpSync(Full, 0.25 * X, 3u, 16);
    Acc += hpp::shflDownSync(Full, (long long)X << 33, 2u);
    Acc += (long long)hpp::shflDownSync(Full, ~0ull - X, 5u, 8);
    Acc += hpp::shflXorSync(Full, (short)X, 1);
    Acc += hpp::shflXorSync(Full, (long)X * 5, 8, 16);
    Rgb C{(unsigned char)X, (unsigned char)Lane, 7};
    C = hpp::shflSync(Full, C, 0);
    Acc += C.R + C.G + C.B;
    Tagged T = hpp::shflXorSync(Full, Tagged(X, 1.5f * X), 2, 32);
    Acc += T.Key + (long long)T.Value;

    const hpp::LaneMask Ballot = hpp::ballotSync(Full, X % 3 == 0);
    const hpp::LaneMask Seg16 = hpp::LaneMask(0xffff) << (Lane & ~15);
    Acc += (long long)Ballot + (long long)hpp::ballotSync(Seg16, X & 1);
    Acc += hpp::anySync(Full, Lane == 5) + 2 * hpp::allSync(Full, X != 11) +
           4 * hpp::anySync(Seg16, X & 4) + 8 * hpp::allSync(Seg16, X & 8);
    Acc += (long long)hpp::activeMask();
    Acc += hpp::popcMask(Ballot) + 100 * hpp::ffsMask(Ballot) +
           10000 * hpp::clzMask(Ballot);
    out[K] = Acc;
  }
}

/// The full-warp tree reduction of ported CUDA code, widened by the
/// rewriter: 6 shuffle steps on wave64, 5 on wave32 and CUDA.
__global__ void hpp_warp_reduce_pfor0(hpp::Range<1> hpp_range,
                                      const hpp::Pointer<int> in,
                                      const hpp::Pointer<int> out) {
  hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    int v = in[i.getX()];
    for (int o = hpp::getWarpSize() / 2; o > 0; o /= 2)
      v += hpp::shflDownSync(hpp::getWarpFullMask(), v, o);
    out[i.getX()] = v;
  }
}

void warpOps(hpp::Pointer<long long> Out, int N) {
  hpp::launchKernel(hpp_warp_ops_pfor0, hpp::Range<1>(N), Out);
}

void warpReduce(hpp::Pointer<int> In, hpp::Pointer<int> Out, int N) {
  hpp::launchKernel(hpp_warp_reduce_pfor0, hpp::Range<1>(N), In, Out);
}
