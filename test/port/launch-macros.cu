// Port mode: a launch that a macro's body writes whole is rewritten in the
// macro's definition, once for every expansion; the kernel's default
// arguments are written out (<<<>>> evaluates them at the launch), and the
// template arguments the launch deduces are named, after those it writes.
// RUN: %hpp_rewrite --port %s -- > %t.cu 2> %t.err
// RUN: FileCheck %s < %t.cu
// RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t.err
// QUIET-NOT: [hpp-
// CHECK: #include <hpp/cuda_api.h>

struct Twice {
  __device__ int operator()(int v) const { return 2 * v; }
};

template <int Block, class Op, class T>
__global__ void apply(T *p, int n, Op op, int stride = 1) {
  int i = (blockIdx.x * Block + threadIdx.x) * stride;
  if (i < n)
    p[i] = op(p[i]);
}

__global__ void scan(int *data, int width, int *partial = NULL) {
  if (partial)
    partial[blockIdx.x] = data[threadIdx.x] + width;
}

#define APPLY_CASE(B)                                                          \
  case B:                                                                      \
    apply<B, Twice, int><<<(n + B - 1) / B, B>>>(p, n, Twice());               \
    break;
// CHECK:      #define APPLY_CASE(B)
// CHECK-NEXT:   case B:
// CHECK-NEXT:     hpp::launchCuda(apply<B, Twice, int>, (n + B - 1) / B, B, 0, 0, p, n, Twice(), 1);

void dispatch(int *p, int n, int block) {
  switch (block) {
    APPLY_CASE(64)
    APPLY_CASE(128)
    APPLY_CASE(256)
  }
}

int main() {
  int *p = nullptr;
  int n = 100;
  dispatch(p, n, 128);
  apply<64><<<2, 64>>>(p, n, Twice());
  // CHECK: hpp::launchCuda(apply<64, Twice, int>, 2, 64, 0, 0, p, n, Twice(), 1);
  apply<64><<<2, 64>>>(p, n, Twice(), 2);
  // CHECK: hpp::launchCuda(apply<64, Twice, int>, 2, 64, 0, 0, p, n, Twice(), 2);
  scan<<<4, 32, 32 * sizeof(int)>>>(p, 32);
  // CHECK: hpp::launchCuda(scan, 4, 32, 32 * sizeof(int), 0, p, 32, NULL);
  scan<<<4, 32>>>(p, 32, p);
  // CHECK: hpp::launchCuda(scan, 4, 32, 0, 0, p, 32, p);
}
