// Port mode refuses, at the line and tagged, what no output keeps right on
// every target, and writes nothing: the warp intrinsics without a mask,
// inline assembly in device code, a launch from device code, a launch whose
// kernel template arguments are deduced from dependent arguments, dynamic
// shared arrays it cannot turn into a pointer, and the cooperative groups
// the runtime does not supply (coalesced groups and their partitions, a
// tile sized by an argument, clusters).
// RUN: not %hpp_rewrite --port %s -o %t.out -- 2>&1 | FileCheck %s --implicit-check-not='[hpp-'
// RUN: not test -e %t.out

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ float old(float v) { return __shfl_down(v, 1); }
// CHECK-DAG: refusals.cu:[[@LINE-1]]:40: error: '__shfl_down' cannot be ported: it has no lane mask {{.*}}write __shfl_down_sync with the mask {{.*}}[hpp-cuda-unsupported]

__device__ bool anyOld(bool b) { return __any(b); }
// CHECK-DAG: refusals.cu:[[@LINE-1]]:41: error: '__any' cannot be ported{{.*}}write __any_sync{{.*}}[hpp-cuda-unsupported]

__global__ void lane(unsigned *out) {
  unsigned r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
  // CHECK-DAG: refusals.cu:[[@LINE-1]]:3: error: device code uses inline assembly: one vendor's instructions (PTX or AMD's){{.*}}[hpp-device-construct]
  out[threadIdx.x] = r;
}

__global__ void parent(unsigned *out) {
  lane<<<1, 32>>>(out);
  // CHECK-DAG: refusals.cu:[[@LINE-1]]:3: error: a kernel launched from device code (dynamic parallelism){{.*}}[hpp-cuda-launch]
}

template <class T> __global__ void zero(T *p) { p[threadIdx.x] = T(); }

template <class T> void clear(T *p) {
  zero<<<1, 32>>>(p);
  // CHECK-DAG: refusals.cu:[[@LINE-1]]:3: error: the kernel template's arguments are deduced here from arguments that depend on the enclosing template's parameters: write them (`kernel<T><<<...>>>`){{.*}}[hpp-cuda-launch]
}

extern __shared__ float everywhere[];
// CHECK-DAG: refusals.cu:[[@LINE-1]]:25: error: a dynamic shared array declared outside a function{{.*}}[hpp-cuda-shared]

__global__ void two(float *p) {
  extern __shared__ float a[], b[];
  // CHECK-DAG: refusals.cu:[[@LINE-1]]:27: error: several dynamic shared arrays in one declaration{{.*}}[hpp-cuda-shared]
  // CHECK-DAG: refusals.cu:[[@LINE-2]]:32: error: several dynamic shared arrays in one declaration{{.*}}[hpp-cuda-shared]
  p[threadIdx.x] = a[0] + b[0] + everywhere[0];
}

int main() {
  unsigned *u = nullptr;
  float *p = nullptr;
  parent<<<1, 1>>>(u);
  clear(p);
  two<<<1, 32, 64>>>(p);
}

template <int Block> __global__ void strided(float *p, int stride = Block) {
  p[threadIdx.x * stride] = 0;
}

#define LAUNCH(K, ...) K<<<1, 32>>>(__VA_ARGS__)

template <class T> __global__ void one(T *p) { p[0] = T(1); }

#define ONE(P) one<<<1, 1>>>(P)

void more(float *p, int *q) {
  strided<32><<<1, 32>>>(p);
  // CHECK-DAG: refusals.cu:[[@LINE-1]]:3: error: the kernel's default argument for 'stride' depends on its template parameters{{.*}}[hpp-cuda-launch]
  LAUNCH(two, p);
  // CHECK-DAG: refusals.cu:[[@LINE-1]]:3: error: this launch is written by a macro, partly in its arguments{{.*}}[hpp-cuda-launch]
  ONE(p);
  ONE(q);
  // CHECK-DAG: refusals.cu:[[@LINE-1]]:3: error: the macro that writes this launch is expanded into launches that need different rewrites{{.*}}[hpp-cuda-launch]
}

__global__ void groups(int *out) {
  cg::coalesced_group g = cg::coalesced_threads();
  // CHECK-DAG: refusals.cu:[[@LINE-1]]:27: error: 'coalesced_threads' cannot be ported: coalesced groups are not ported {{.*}}__activemask(){{.*}}[hpp-cuda-unsupported]
  cg::coalesced_group h = cg::labeled_partition(g, out[0]);
  // CHECK-DAG: refusals.cu:[[@LINE-1]]:27: error: 'labeled_partition' cannot be ported{{.*}}[hpp-cuda-unsupported]
  cg::thread_group t = cg::tiled_partition(cg::this_thread_block(), 16);
  // CHECK-DAG: refusals.cu:[[@LINE-1]]:24: error: 'tiled_partition' cannot be ported: a tile whose size is an argument{{.*}}`cg::tiled_partition<16>(block)`{{.*}}[hpp-cuda-unsupported]
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  out[threadIdx.x] = g.size() + h.size() + t.size() + tile.size();
}
