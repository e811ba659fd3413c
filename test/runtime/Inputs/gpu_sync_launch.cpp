//===- test/runtime/Inputs/gpu_sync_launch.cpp - __gpu_sync in a kernel ---===//
//
// Part of hpp-rewrite. Input of gpu-sync.test: kernels in the shape
// hpp-rewrite emits for a body calling __gpu_sync, launched as it launches
// them (hpp::detail::cooperative); argv[1] picks a case: ok, too-large,
// deadlock, not-cooperative.
//
//===----------------------------------------------------------------------===//
#include <hpp/runtime.h>
#include <cstdio>
#include <cstring>
#include <vector>
using namespace hpp;
__global__ void steps(hpp::Range<1, 1> hpp_range, const Pointer<float> A, const std::size_t N, const int Steps) {
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange()) return;
  for (int s = 0; s < Steps; ++s) {
    float l = A[i.getX()], r = A[(i.getX() + 1) % N];
    __gpu_sync();
    A[i.getX()] = (l + r) * 0.5f;
    __gpu_sync();
  }
}
__global__ void leaves(hpp::Range<1, 1> hpp_range, const Pointer<float> A) {
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange()) return;
  if (i.getX() == 70) return; // never arrives
  __gpu_sync(); // DEADLOCK-LINE
  A[i.getX()] = 1;
}
int main(int argc, char **argv) {
  const char *Case = argc > 1 ? argv[1] : "ok";
  try {
    if (!std::strcmp(Case, "ok")) {
      for (std::size_t N : {1000, 4096}) {
        Pointer<float> A = allocate<float>(N);
        std::vector<float> R(N);
        for (std::size_t I = 0; I < N; ++I) R[I] = A[I] = float(I % 17);
        launchKernel(hpp::detail::cooperative(steps), Range<1, 1>(Range<1>(N), Range<1>(64)), A, N, 6);
        for (int s = 0; s < 6; ++s) {
          std::vector<float> Old(R);
          for (std::size_t I = 0; I < N; ++I) R[I] = (Old[I] + Old[(I + 1) % N]) * 0.5f;
        }
        std::size_t Bad = 0;
        for (std::size_t I = 0; I < N; ++I) Bad += R[I] != A[I];
        std::printf("n=%zu bad=%zu\n", N, Bad);
        deallocate(A);
      }
      return 0;
    }
    std::size_t N = !std::strcmp(Case, "too-large") ? 70000 : 256;
    Pointer<float> A = allocate<float>(N);
    if (!std::strcmp(Case, "deadlock"))
      launchKernel(hpp::detail::cooperative(leaves), Range<1, 1>(Range<1>(N), Range<1>(64)), A);
    else if (!std::strcmp(Case, "not-cooperative"))
      launchKernel(steps, Range<1, 1>(Range<1>(N), Range<1>(64)), A, N, 1);
    else
      launchKernel(hpp::detail::cooperative(steps), Range<1, 1>(Range<1>(N), Range<1>(64)), A, N, 1);
  } catch (const RuntimeError &E) {
    std::printf("error: %s\n", E.what());
    return 1;
  }
  return 0;
}
