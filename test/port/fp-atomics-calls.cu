// hpp-cuda-fp-atomic through device functions: an atomicAdd on a float or
// double pointer parameter of a `__device__` function becomes
// hpp::unsafeAtomicAdd when every call, transitively up to the kernels'
// launches, passes cudaMalloc's memory (`p`, `p + i`, `&p[i]` of a caller's
// known parameter). One call with managed memory, a local pointer
// variable, or the function's address taken keeps the safe form, with the
// chain of notes (lib/Analysis/CoarseGrained.h).
// RUN: %hpp_rewrite --port %s -o %t.cpp -- 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck %s --check-prefix=NOTES < %t.err
// RUN: grep -c 'remark: .*\[hpp-cuda-fp-atomic\]' %t.err | grep -x 3
// RUN: %cxx_runtime %t.cpp -o %t
// RUN: env HPP_CPU_MVECTOR=32 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: env HPP_CPU_MVECTOR=64 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: %gpu_check %t.cpp
// OUT: sums 512 256 256, managed 256, local 256, pointer 256

#include <cstdio>

/// Known: its calls pass parameters of addBoth, whose one call passes the
/// kernel's, which its launch gives cudaMalloc's memory.
__device__ void addTo(float *dst, float v) { atomicAdd(dst, v); }
// CHECK: __device__ void addTo(float *dst, float v) { hpp::unsafeAtomicAdd(dst, v); }
__device__ void addBoth(float *d, double *e, float v) {
  addTo(d + 1, v);
  addTo(&d[0], v);
  atomicAdd(e, (double)v);
  // CHECK: hpp::unsafeAtomicAdd(e, (double)v);
}
__global__ void sums(const float *in, float *sum, double *dsum) {
  addBoth(sum, dsum, in[blockIdx.x * blockDim.x + threadIdx.x]);
}

/// Not known: its one call passes managed memory.
__device__ void addManaged(float *dst, float v) { atomicAdd(dst, v); }
// CHECK: __device__ void addManaged(float *dst, float v) { atomicAdd(dst, v); }
// NOTES: fp-atomics-calls.cu:[[@LINE-2]]:51: remark: 'atomicAdd' on 'float' stays the safe form
// NOTES: note: this call passes 'out' for 'dst'
// NOTES: note: this launch passes 'm' for 'out'
// NOTES: note: 'm' is written by 'cudaMallocManaged' here
__global__ void managed(const float *in, float *out) {
  addManaged(out, in[blockIdx.x * blockDim.x + threadIdx.x]);
}

/// Not known: the call passes a local pointer variable of the kernel.
__device__ void addLocal(float *d, float v) { atomicAdd(d, v); }
// CHECK: __device__ void addLocal(float *d, float v) { atomicAdd(d, v); }
// NOTES: note: this call passes 'q' for 'd'
// NOTES: note: not a pointer parameter of the calling kernel or device function
__global__ void local(const float *in, float *d) {
  float *q = d;
  addLocal(q, in[blockIdx.x * blockDim.x + threadIdx.x]);
}

/// Not known: its address is taken.
__device__ void addVia(float *dst, float v) { atomicAdd(dst, v); }
// CHECK: __device__ void addVia(float *dst, float v) { atomicAdd(dst, v); }
// NOTES: note: the device function 'addVia' is named here other than in a call
__global__ void pointer(const float *in, float *out) {
  void (*f)(float *, float) = addVia;
  f(out, in[blockIdx.x * blockDim.x + threadIdx.x]);
}

int main() {
  const int n = 256;
  float *in, *sum, *m, *r, *p;
  double *dsum;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&sum, 2 * sizeof(float));
  cudaMalloc(&dsum, sizeof(double));
  cudaMalloc(&r, sizeof(float));
  cudaMalloc(&p, sizeof(float));
  cudaMallocManaged(&m, sizeof(float));
  float ones[n];
  for (int i = 0; i < n; ++i)
    ones[i] = 1.0f;
  cudaMemcpy(in, ones, sizeof ones, cudaMemcpyHostToDevice);
  cudaMemset(sum, 0, 2 * sizeof(float));
  cudaMemset(dsum, 0, sizeof(double));
  cudaMemset(r, 0, sizeof(float));
  cudaMemset(p, 0, sizeof(float));
  *m = 0;
  sums<<<2, 128>>>(in, sum, dsum);
  managed<<<2, 128>>>(in, m);
  local<<<2, 128>>>(in, r);
  pointer<<<2, 128>>>(in, p);
  cudaDeviceSynchronize();
  float s[2], rr, pp;
  double ds;
  cudaMemcpy(s, sum, sizeof s, cudaMemcpyDeviceToHost);
  cudaMemcpy(&ds, dsum, sizeof ds, cudaMemcpyDeviceToHost);
  cudaMemcpy(&rr, r, sizeof rr, cudaMemcpyDeviceToHost);
  cudaMemcpy(&pp, p, sizeof pp, cudaMemcpyDeviceToHost);
  std::printf("sums %g %g %g, managed %g, local %g, pointer %g\n",
              s[0] + s[1], s[1], ds, *m, rr, pp);
  return 0;
}
