// Hand-written stand-in for the rewritten paper matmul (gen/matmul.cu), in
// the shape hpp-rewrite produces (docs/design.md). matmul_cuda.cu includes
// it when HPP_GENERATED is not given. The dialect source it stands for:
//
//   void matmul(Pointer<double> A, Pointer<double> B, Pointer<double> C,
//               int n) {
//     parallelFor(Range<2>(n, n), [=](Index<2> idx) __device(hpp) {
//       size_t i = idx.getY(), j = idx.getX();
//       double sum = 0;
//       for (int k = 0; k < n; ++k)
//         sum += A[i * n + k] * B[k * n + j];
//       C[i * n + j] = sum;
//     });
//   }
#include <hpp/runtime.h>
using namespace hpp;

/// Outlined by hpp-rewrite from the parallelFor at matmul.cpp:5:3.
__global__ void hpp_matmul_pfor0(hpp::Range<2> hpp_range,
                                 const hpp::Pointer<double> A,
                                 const hpp::Pointer<double> B,
                                 const hpp::Pointer<double> C, const int n) {
  hpp::Index<2> idx = hpp::detail::kernelIndex(hpp_range);
  if (!idx.inGlobalRange())
    return;
  {
    size_t i = idx.getY(), j = idx.getX();
    double sum = 0;
    for (int k = 0; k < n; ++k)
      sum += A[i * n + k] * B[k * n + j];
    C[i * n + j] = sum;
  }
}

void matmul(Pointer<double> A, Pointer<double> B, Pointer<double> C, int n) {
  hpp::launchKernel(hpp_matmul_pfor0, Range<2>(n, n), A, B, C, n);
}

int main() {
  const int n = 64;
  Pointer<double> A = allocate<double>(n * n), B = allocate<double>(n * n),
                  C = allocate<double>(n * n);
  for (int k = 0; k < n * n; ++k) {
    A[k] = 1.0;
    B[k] = 2.0;
  }
  matmul(A, B, C, n);
  int Bad = 0;
  for (int k = 0; k < n * n; ++k)
    Bad += C[k] != 2.0 * n;
  deallocate(C);
  deallocate(B);
  deallocate(A);
  return Bad == 0 ? 0 : 1;
}
