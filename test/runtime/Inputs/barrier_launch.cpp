//===- test/runtime/Inputs/barrier_launch.cpp - hpp::Barrier in a kernel --===//
//
// Part of hpp-rewrite. Input of barrier.test: a kernel in the shape
// hpp-rewrite emits for a captured Barrier (a handle parameter bound to
// __shared__ storage in the prologue), a device function taking Barrier&,
// waits in a branch and a data-dependent loop, then skip(); a launch whose
// barrier has more participants than the launch has work-items, which the
// runtime refuses (it could never complete a phase); a kernel whose
// work-item 5 returns while the others wait (with the BarrierExitGuard
// hpp-rewrite declares): the reference runtime's deadlock error; and the
// scope a wait-only barrier's launch picks.
//
//===----------------------------------------------------------------------===//
#include <hpp/runtime.h>
#include <cstdio>
using namespace hpp;
__device__ long long peek(Barrier &b, Pointer<long long> p, std::size_t slot, std::size_t next) {
  p[slot] *= 2; b.wait(); return p[next];
}
__global__ void k(hpp::Range<1, 1> hpp_range, Barrier b, const Pointer<long long> P, const Pointer<long long> Out, std::size_t G) {
  __shared__ hpp::detail::BlockBarrierStorage hpp_barrier_b;
  b.attach(hpp_barrier_b);
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange()) return;
  std::size_t l = i.getLocalX(), base = i.getX() - l, next = base + (l + 1) % G;
  if (l % 3 == 0) Out[i.getX()] = peek(b, P, i.getX(), next);
  else { P[i.getX()] += 1; b.wait(); Out[i.getX()] = P[next]; }
  for (int s = 0; s < int(l % 4); ++s) b.wait();
  b.skip();
}
__global__ void leaves(hpp::Range<1, 1> hpp_range, Barrier b) {
  __shared__ hpp::detail::BlockBarrierStorage hpp_barrier_b;
  b.attach(hpp_barrier_b);
  hpp::detail::BarrierExitGuard hpp_barrier_exit;
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange()) return;
  if (i.getLocalX() == 5) return;
  b.wait();
}
int main() {
  std::size_t N = 1024, G = 256;
  Pointer<long long> P = allocate<long long>(N), Out = allocate<long long>(N);
  for (std::size_t I = 0; I < N; ++I) P[I] = I;
  Barrier b(G);
  hpp::launchKernel(k, Range<1,1>(Range<1>(N), Range<1>(G)), b, P, Out, G);
  long long bad = 0, sum = 0;
  for (std::size_t I = 0; I < N; ++I) { std::size_t L = I % G, Nx = I - L + (L + 1) % G;
    auto After = [G](std::size_t K) { return K % G % 3 == 0 ? 2 * (long long)K : (long long)K + 1; };
    bad += P[I] != After(I) || Out[I] != After(Nx); sum += Out[I]; }
  std::printf("sum=%lld bad=%lld\n", sum, bad);
  try { Barrier wide(2048); hpp::launchKernel(k, Range<1,1>(Range<1>(N), Range<1>(G)), wide, P, Out, G); }
  catch (const RuntimeError &E) { std::printf("error: %s\n", E.what()); }
  try { Barrier b64(64); hpp::launchKernel(leaves, Range<1,1>(64, 64), b64); }
  catch (const RuntimeError &E) { std::printf("error: %s\n", E.what()); }
  // The hardware barrier only for whole work-groups (a partial last one
  // would never complete a phase: the split barrier reports it).
  Barrier b64(64);
  auto V = hpp::detail::waitOnlyVariants(leaves, leaves, leaves, b64);
  std::printf("pick: whole groups %d, partial %d, half %d, launch %d\n",
              int(V.pick(64, 128, 128)), int(V.pick(64, 100, 128)),
              int(V.pick(128, 128, 128)), int(V.pick(32, 64, 64)));
  return bad != 0;
}
