// Warp operations, work-group barriers and cooperative groups in the shape
// hpp-rewrite produces (outlined __global__ kernels launched through
// hpp::launchKernel, hpp:: warp operations, cg:: tiles), run on the CPU
// backend at the simulated width 32 or 64 (HPP_CPU_MVECTOR). Every result is
// checked against plain C++ computed per warp of hpp::getWarpSize(0) lanes;
// a line per check says "verified" or "MISMATCH", and the output is the same
// at both widths except the "width" line.
//
// Usage: cpu_backend_warp [MODE]. Without MODE, all the checks (exit 1 on a
// mismatch). With MODE diverge, barrier, barrier-warp, mask32 or tile: a
// launch that must throw hpp::RuntimeError, printed as "MODE: error: what()"
// (exit 1), or "MODE: no error" (exit 0). The error sites are marked
// "SITE: <mode>"; cpu-backend-warp.test finds their lines with grep.
#include <hpp/runtime.h>
using namespace hpp;

#include <cstdio>
#include <cstring>
#include <vector>

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

/// Warp sums: a shflDownSync tree from getWarpSize()/2 with the full mask;
/// lane 0 writes its warp's sum.
__global__ void hpp_warpReduce_pfor0(hpp::Range<1, 1> hpp_range,
                                     const hpp::Pointer<int> in,
                                     const hpp::Pointer<long long> sums) {
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    const int W = hpp::getWarpSize();
    long long v = in[i.getX()];
    for (int offset = W / 2; offset > 0; offset /= 2)
      v += hpp::shflDownSync(hpp::getWarpFullMask(), v, offset);
    if (i.getLocalX() % W == 0)
      sums[i.getX() / W] = v;
  }
}

/// Inclusive scan per warp with shflUpSync; a butterfly (shflXorSync) sum
/// that every lane gets; a broadcast from lane 3 of each 8-lane segment.
__global__ void hpp_warpScan_pfor0(hpp::Range<1, 1> hpp_range,
                                   const hpp::Pointer<int> in,
                                   const hpp::Pointer<int> scan,
                                   const hpp::Pointer<int> total,
                                   const hpp::Pointer<int> bcast8) {
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    const int W = hpp::getWarpSize();
    const int lane = int(i.getLocalX() % W);
    const int v = in[i.getX()];
    int p = v;
    for (int o = 1; o < W; o *= 2) {
      int t = hpp::shflUpSync(hpp::getWarpFullMask(), p, o);
      if (lane >= o)
        p += t;
    }
    scan[i.getX()] = p;
    int s = v;
    for (int o = W / 2; o > 0; o /= 2)
      s += hpp::shflXorSync(hpp::getWarpFullMask(), s, o);
    total[i.getX()] = s;
    bcast8[i.getX()] = hpp::shflSync(hpp::getWarpFullMask(), v, 3, 8);
  }
}

/// Stream compaction of the positive values of each work-group, in order,
/// into the group's slice of out: ballotSync + popcMask within a warp,
/// per-warp counts in __shared__ memory, __syncthreads, warp offsets.
__global__ void hpp_compact_pfor0(hpp::Range<1, 1> hpp_range,
                                  const hpp::Pointer<int> in,
                                  const hpp::Pointer<int> out,
                                  const hpp::Pointer<int> counts) {
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    __shared__ int warpCount[1024 / MVECTOR_MIN];
    __shared__ int warpOffset[1024 / MVECTOR_MIN];
    const int W = hpp::getWarpSize();
    const int t = int(i.getLocalX());
    const int lane = t % W, warp = t / W;
    const int warps = int(i.getLocalSizeX()) / W;
    const int v = in[i.getX()];
    const hpp::LaneMask keep = hpp::ballotSync(hpp::getWarpFullMask(), v > 0);
    const hpp::LaneMask below = (hpp::LaneMask(1) << lane) - 1;
    if (lane == 0)
      warpCount[warp] = hpp::popcMask(keep);
    __syncthreads();
    if (t == 0) {
      int sum = 0;
      for (int w = 0; w < warps; ++w) {
        warpOffset[w] = sum;
        sum += warpCount[w];
      }
      counts[i.getGroupX()] = sum;
    }
    __syncthreads();
    if (v > 0)
      out[i.getGroupX() * i.getLocalSizeX() + warpOffset[warp] +
          hpp::popcMask(keep & below)] = v;
  }
}

/// Work-group sums: warp sums (shflDownSync) into __shared__ partials,
/// __syncthreads, then the first warp reduces the partials.
__global__ void hpp_blockReduce_pfor0(hpp::Range<1, 1> hpp_range,
                                      const hpp::Pointer<int> in,
                                      const hpp::Pointer<long long> sums) {
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    __shared__ long long partial[1024 / MVECTOR_MIN];
    const int W = hpp::getWarpSize();
    const int t = int(i.getLocalX());
    long long v = in[i.getX()];
    for (int offset = W / 2; offset > 0; offset /= 2)
      v += hpp::shflDownSync(hpp::getWarpFullMask(), v, offset);
    if (t % W == 0)
      partial[t / W] = v;
    __syncthreads();
    if (t < W) {
      long long s = t < int(i.getLocalSizeX()) / W ? partial[t] : 0;
      for (int offset = W / 2; offset > 0; offset /= 2)
        s += hpp::shflDownSync(hpp::getWarpFullMask(), s, offset);
      if (t == 0)
        sums[i.getGroupX()] = s;
    }
  }
}

/// Reverses each work-group's slice through __shared__ memory; in a partial
/// last group the work-items outside the range have exited and count as
/// arrived at the barrier.
__global__ void hpp_reverse_pfor0(hpp::Range<1, 1> hpp_range,
                                  const hpp::Pointer<int> in,
                                  const hpp::Pointer<int> out) {
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    __shared__ int buf[1024];
    const size_t t = i.getLocalX();
    const size_t start = i.getGroupX() * i.getLocalSizeX();
    size_t valid = i.getGlobalSizeX() - start;
    if (valid > i.getLocalSizeX())
      valid = i.getLocalSizeX();
    buf[t] = in[i.getX()];
    cg::this_thread_block().sync();
    out[i.getX()] = buf[valid - 1 - t];
  }
}

/// Tiles of 32 and 16 (the rewritten __syncwarp is a tile of MVECTOR_MIN):
/// each work-item reads its right neighbour in the tile after tile.sync().
/// rank[] gets thread_rank, meta_group_rank and the sizes, checked on the
/// host.
__global__ void hpp_tiles_pfor0(hpp::Range<1, 1> hpp_range,
                                const hpp::Pointer<int> in,
                                const hpp::Pointer<int> next32,
                                const hpp::Pointer<int> next16,
                                const hpp::Pointer<int> rank) {
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    __shared__ int buf[1024];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(block);
    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
    const int t = int(block.thread_rank());
#if defined(HPP_BACKEND_HIP)
    // HIP 5.2's tiles have no meta_group_rank.
    const unsigned meta32 = unsigned(t) / 32, meta16 = unsigned(t) / 16;
#else
    const unsigned meta32 = t32.meta_group_rank();
    const unsigned meta16 = t16.meta_group_rank();
#endif
    buf[t] = in[i.getX()];
    t32.sync();
    next32[i.getX()] = buf[meta32 * 32 + (t32.thread_rank() + 1) % 32];
    t32.sync();
    buf[t] = -in[i.getX()];
    t16.sync();
    next16[i.getX()] = buf[meta16 * 16 + (t16.thread_rank() + 1) % 16];
    rank[i.getX()] = int(t32.thread_rank()) + 100 * int(meta32) +
                     10000 * int(t16.thread_rank()) +
                     1000000 * int(meta16 == unsigned(t / 16)) +
                     10000000 * int(t32.size() == 32 && t16.size() == 16 &&
                                    block.size() == i.getLocalSizeX());
  }
}

/// The built-in variables stay right for each work-item across collectives
/// (2D work-groups of 16 x 16: 8 or 4 mvectors).
__global__ void hpp_builtins_pfor0(hpp::Range<2, 2> hpp_range,
                                   const hpp::Pointer<int> bad) {
  hpp::Index<2, 2> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    auto same = [&] {
      return threadIdx.x == i.getLocalX() && threadIdx.y == i.getLocalY() &&
             threadIdx.z == 0 && blockIdx.x == i.getGroupX() &&
             blockIdx.y == i.getGroupY() && blockDim.x == 16 &&
             blockDim.y == 16 && gridDim.x == i.getGroupCountX();
    };
    int ok = same();
    const int lane = int((threadIdx.y * blockDim.x + threadIdx.x) %
                         unsigned(hpp::getWarpSize()));
    const int from = hpp::shflXorSync(hpp::getWarpFullMask(), lane, 1);
    ok &= same() && from == (lane ^ 1);
    __syncthreads();
    ok &= same();
    ok &= hpp::allSync(hpp::getWarpFullMask(), ok);
    ok &= same();
    if (!ok)
      bad[0] = 1;
  }
}

/// Votes and the mask functions.
__global__ void hpp_votes_pfor0(hpp::Range<1, 1> hpp_range,
                                const hpp::Pointer<int> in,
                                const hpp::Pointer<int> votes) {
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    const int v = in[i.getX()];
    const hpp::LaneMask full = hpp::getWarpFullMask();
    const hpp::LaneMask big = hpp::ballotSync(full, v > 600);
    votes[i.getX()] = hpp::anySync(full, v > 600) +
                      2 * hpp::allSync(full, v > -300) +
                      4 * hpp::allSync(full, v > 0) +
                      8 * hpp::ffsMask(big) + 1000 * hpp::clzMask(big) +
                      100000 * int(hpp::activeMask() == full);
  }
}

/// The width and full mask device code sees; CUDA's bit intrinsics.
__global__ void hpp_width_pfor0(hpp::Range<1> hpp_range,
                                const hpp::Pointer<int> width,
                                const hpp::Pointer<hpp::LaneMask> mask) {
  hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    width[0] = hpp::getWarpSize();
    mask[0] = hpp::getWarpFullMask();
    mask[1] = hpp::activeMask();
    // CUDA's bit intrinsics on ordinary integers stay in rewritten code.
    width[1] = __popc(0xf0f0u);
    width[2] = __popcll(~0ull);
    width[3] = __ffs(0x50);
    width[4] = __ffsll(1ll << 40);
    width[5] = __clz(1);
    width[6] = __clzll(1ll << 40);
  }
}

/// Launches that must fail: Mode 0 diverge, 1 barrier, 2 barrier-warp,
/// 3 mask32, 4 tile, 5 past-end (launched over 500 work-items: the last
/// work-group's trailing ones never run the body).
__global__ void hpp_errors_pfor0(hpp::Range<1, 1> hpp_range, const int mode,
                                 const hpp::Pointer<int> out) {
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    const int t = int(i.getLocalX());
    const int lane = t % hpp::getWarpSize();
    int v = t;
    if (mode == 0) {
      // A shuffle in a lane-dependent branch: lanes 16 and up skip it.
      if (lane < 16)
        v = hpp::shflDownSync(hpp::getWarpFullMask(), v, 1); // SITE: diverge
    } else if (mode == 1) {
      // Two barriers: the group can never go on.
      if (t < 128)
        __syncthreads(); // SITE: barrier
      else
        __syncthreads(); // SITE: barrier-other
    } else if (mode == 2) {
      // A barrier and a warp operation in one mvector.
      if (lane < 16)
        __syncthreads(); // SITE: barrier-warp
      else
        v = hpp::shflSync(hpp::getWarpFullMask(), v, 0); // SITE: barrier-warp-shuffle
    } else if (mode == 3) {
      // A 32-bit full mask: lanes 0-31 only on a 64-wide mvector.
      v = hpp::shflSync(0xffffffff, v, 0); // SITE: mask32
    } else if (mode == 5) {
      // Every lane of a partial mvector at the end of the range.
      v = hpp::shflSync(hpp::getWarpFullMask(), v, 0); // SITE: past-end
    }
#if defined(HPP_BACKEND_CPU)
    // CUDA has no tiles of 64.
    else if (mode == 4) {
      // A tile wider than a 32-wide mvector.
      cg::tiled_partition<64>(cg::this_thread_block()).sync(); // SITE: tile
    }
#endif
    out[i.getX()] = v;
  }
}

//===----------------------------------------------------------------------===//
// Host side
//===----------------------------------------------------------------------===//

static int Failures = 0;

/// Prints What's result; \p Checked counts the values the check covers.
static void report(const char *What, const std::vector<size_t> &Bad,
                   size_t Checked) {
  if (Bad.empty()) {
    std::printf("%s verified (%zu values)\n", What, Checked);
    return;
  }
  ++Failures;
  std::printf("%s MISMATCH at %zu (%zu values wrong)\n", What, Bad[0],
              Bad.size());
}

static Pointer<int> input(size_t N) {
  Pointer<int> In = allocate<int>(N);
  for (size_t K = 0; K < N; ++K)
    In[K] = int((K * 7919u) % 1000u) - 300;
  return In;
}

static void warpReduce(size_t N, size_t G) {
  const size_t W = size_t(getWarpSize(0));
  Pointer<int> In = input(N);
  Pointer<long long> Sums = allocate<long long>(N / W);
  hpp::launchKernel(hpp_warpReduce_pfor0, Range<1, 1>(Range<1>(N), Range<1>(G)),
                    In, Sums);
  std::vector<size_t> Bad;
  for (size_t Wp = 0; Wp < N / W; ++Wp) {
    long long S = 0;
    for (size_t L = 0; L < W; ++L)
      S += In[Wp * W + L];
    if (Sums[Wp] != S)
      Bad.push_back(Wp);
  }
  char What[96];
  std::snprintf(What, sizeof What, "warp-reduce n=%zu group=%zu", N, G);
  report(What, Bad, N);
  deallocate(Sums);
  deallocate(In);
}

static void warpScan(size_t N, size_t G) {
  const size_t W = size_t(getWarpSize(0));
  Pointer<int> In = input(N), Scan = allocate<int>(N), Total = allocate<int>(N),
               Bcast = allocate<int>(N);
  hpp::launchKernel(hpp_warpScan_pfor0, Range<1, 1>(Range<1>(N), Range<1>(G)),
                    In, Scan, Total, Bcast);
  std::vector<size_t> Bad;
  for (size_t K = 0; K < N; ++K) {
    const size_t Base = K - K % W;
    int P = 0, T = 0;
    for (size_t L = Base; L < Base + W; ++L) {
      if (L <= K)
        P += In[L];
      T += In[L];
    }
    if (Scan[K] != P || Total[K] != T || Bcast[K] != In[K - K % 8 + 3])
      Bad.push_back(K);
  }
  report("warp-scan", Bad, N);
  deallocate(Bcast);
  deallocate(Total);
  deallocate(Scan);
  deallocate(In);
}

static void compact(size_t N, size_t G) {
  Pointer<int> In = input(N), Out = allocate<int>(N),
               Counts = allocate<int>(N / G);
  hpp::launchKernel(hpp_compact_pfor0, Range<1, 1>(Range<1>(N), Range<1>(G)),
                    In, Out, Counts);
  std::vector<int> Expected, Got;
  for (size_t K = 0; K < N; ++K)
    if (In[K] > 0)
      Expected.push_back(In[K]);
  for (size_t B = 0; B < N / G; ++B)
    for (int K = 0; K < Counts[B]; ++K)
      Got.push_back(Out[B * G + size_t(K)]);
  std::vector<size_t> Bad;
  for (size_t K = 0; K < Expected.size() || K < Got.size(); ++K)
    if (K >= Expected.size() || K >= Got.size() || Expected[K] != Got[K])
      Bad.push_back(K);
  char What[96];
  std::snprintf(What, sizeof What, "compact group=%zu kept=%zu", G,
                Got.size());
  report(What, Bad, Expected.size());
  deallocate(Counts);
  deallocate(Out);
  deallocate(In);
}

static void blockReduce(size_t N, size_t G) {
  Pointer<int> In = input(N);
  Pointer<long long> Sums = allocate<long long>(N / G);
  hpp::launchKernel(hpp_blockReduce_pfor0,
                    Range<1, 1>(Range<1>(N), Range<1>(G)), In, Sums);
  std::vector<size_t> Bad;
  long long All = 0;
  for (size_t B = 0; B < N / G; ++B) {
    long long S = 0;
    for (size_t K = B * G; K < (B + 1) * G; ++K)
      S += In[K];
    All += S;
    if (Sums[B] != S)
      Bad.push_back(B);
  }
  char What[96];
  std::snprintf(What, sizeof What, "block-reduce group=%zu total=%lld", G, All);
  report(What, Bad, N / G);
  deallocate(Sums);
  deallocate(In);
}

static void reverse(size_t N, size_t G) {
  Pointer<int> In = input(N), Out = allocate<int>(N);
  hpp::launchKernel(hpp_reverse_pfor0, Range<1, 1>(Range<1>(N), Range<1>(G)),
                    In, Out);
  std::vector<size_t> Bad;
  for (size_t K = 0; K < N; ++K) {
    const size_t Start = K - K % G;
    const size_t End = Start + G < N ? Start + G : N;
    if (Out[K] != In[End - 1 - (K - Start)])
      Bad.push_back(K);
  }
  char What[96];
  std::snprintf(What, sizeof What, "reverse n=%zu group=%zu", N, G);
  report(What, Bad, N);
  deallocate(Out);
  deallocate(In);
}

static void tiles(size_t N, size_t G) {
  Pointer<int> In = input(N), Next32 = allocate<int>(N),
               Next16 = allocate<int>(N), Rank = allocate<int>(N);
  hpp::launchKernel(hpp_tiles_pfor0, Range<1, 1>(Range<1>(N), Range<1>(G)), In,
                    Next32, Next16, Rank);
  std::vector<size_t> Bad;
  for (size_t K = 0; K < N; ++K) {
    const size_t T = K % G;
    const size_t N32 = K - T % 32 + (T % 32 + 1) % 32;
    const size_t N16 = K - T % 16 + (T % 16 + 1) % 16;
    const int R = int(T % 32) + 100 * int(T / 32) + 10000 * int(T % 16) +
                  1000000 + 10000000;
    if (Next32[K] != In[N32] || Next16[K] != -In[N16] || Rank[K] != R)
      Bad.push_back(K);
  }
  report("tiles", Bad, N);
  deallocate(Rank);
  deallocate(Next16);
  deallocate(Next32);
  deallocate(In);
}

static void builtins() {
  Pointer<int> Bad = allocate<int>(1);
  hpp::launchKernel(hpp_builtins_pfor0,
                    Range<2, 2>(Range<2>(64, 48), Range<2>(16, 16)), Bad);
  std::vector<size_t> Wrong;
  if (Bad[0])
    Wrong.push_back(0);
  report("builtins-2d", Wrong, 64 * 48);
  deallocate(Bad);
}

static void votes(size_t N, size_t G) {
  const size_t W = size_t(getWarpSize(0));
  Pointer<int> In = input(N), Votes = allocate<int>(N);
  hpp::launchKernel(hpp_votes_pfor0, Range<1, 1>(Range<1>(N), Range<1>(G)), In,
                    Votes);
  std::vector<size_t> Bad;
  for (size_t K = 0; K < N; ++K) {
    const size_t Base = K - K % W;
    unsigned long long Big = 0;
    bool AllGt = true, AllPos = true;
    for (size_t L = 0; L < W; ++L) {
      const int V = In[Base + L];
      if (V > 600)
        Big |= 1ull << L;
      AllGt &= V > -300;
      AllPos &= V > 0;
    }
    const int Ffs = Big ? __builtin_ffsll((long long)Big) : 0;
    const int Clz = Big ? __builtin_clzll(Big) : 64;
    const int E = int(Big != 0) + 2 * int(AllGt) + 4 * int(AllPos) + 8 * Ffs +
                  1000 * Clz + 100000;
    if (Votes[K] != E)
      Bad.push_back(K);
  }
  report("votes", Bad, N);
  deallocate(Votes);
  deallocate(In);
}

static void width() {
  Pointer<int> Width = allocate<int>(7);
  Pointer<LaneMask> Mask = allocate<LaneMask>(2);
  hpp::launchKernel(hpp_width_pfor0, Range<1>(1), Width, Mask);
  // One work-item: its mvector has one lane that has not exited.
  std::printf("width device %d host %d full 0x%llx active 0x%llx\n", Width[0],
              getWarpSize(0), (unsigned long long)Mask[0],
              (unsigned long long)Mask[1]);
  std::printf("bits popc=%d popcll=%d ffs=%d ffsll=%d clz=%d clzll=%d\n",
              Width[1], Width[2], Width[3], Width[4], Width[5], Width[6]);
  deallocate(Mask);
  deallocate(Width);
}

static const char *const Modes[] = {"diverge", "barrier", "barrier-warp",
                                    "mask32",  "tile",    "past-end"};

static int errors(const char *Mode) {
  int Index = -1;
  for (int M = 0; M < int(sizeof Modes / sizeof *Modes); ++M)
    if (!std::strcmp(Mode, Modes[M]))
      Index = M;
  if (Index < 0) {
    std::printf("unknown mode '%s'\n", Mode);
    return 2;
  }
  Pointer<int> Out = allocate<int>(512);
  try {
    const size_t N = Index == 5 ? 500 : 512;
    hpp::launchKernel(hpp_errors_pfor0,
                      Range<1, 1>(Range<1>(N), Range<1>(256)), Index, Out);
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
    width();
    warpReduce(4096, 256);
    warpReduce(4096, 64);
    warpReduce(size_t(1) << 20, 256);
    warpScan(4096, 128);
    compact(8192, 256);
    compact(8192, 1024);
    blockReduce(8192, 1024);
    blockReduce(8192, 128);
    reverse(1000, 256);
    reverse(4096, 1024);
    tiles(4096, 256);
    builtins();
    votes(4096, 256);
  } catch (const RuntimeError &E) {
    std::printf("RuntimeError: %s\n", E.what());
    return 2;
  }
  std::printf("%s\n", Failures ? "SOME FAILED" : "ALL OK");
  return Failures ? 1 : 0;
}
