// Port mode: atomicAdd on a float or a double (hpp-cuda-fp-atomic). Where
// every launch of the kernel passes memory from cudaMalloc (coarse-grained
// on AMD) it becomes hpp::unsafeAtomicAdd, the hardware's floating-point
// atomic there; anywhere else it stays atomicAdd (right on any memory: a
// compare-and-swap loop on AMD), with a remark and a note that says why:
// managed memory, host-pinned memory, a parameter of the host function, two
// launches of which one is managed, a call a macro writes, a kernel
// template over float and int. An int atomic and a shared-memory one get
// nothing. The port prints the same sums at 32 and 64 lanes on the CPU
// backend, and builds for sm_90, gfx90a and gfx1030.
// RUN: %hpp_rewrite --port %s -o %t.cpp -- 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck %s --check-prefix=MANAGED < %t.err
// RUN: FileCheck %s --check-prefix=PINNED < %t.err
// RUN: FileCheck %s --check-prefix=PARAM < %t.err
// RUN: FileCheck %s --check-prefix=TWICE < %t.err
// RUN: FileCheck %s --check-prefix=MACRO < %t.err
// RUN: FileCheck %s --check-prefix=TEMPLATE < %t.err
// Six remarks (one per case), no other diagnostic of the tool's.
// RUN: grep -c '\[hpp-' %t.err | grep -x 6
// RUN: grep -c 'remark: .*\[hpp-cuda-fp-atomic\]' %t.err | grep -x 6
// RUN: %cxx_runtime %t.cpp -o %t
// RUN: env HPP_CPU_MVECTOR=32 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: env HPP_CPU_MVECTOR=64 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: %gpu_check %t.cpp
// OUT: accumulate 636 512 636
// OUT-NEXT: managed 636, pinned 636, param 636
// OUT-NEXT: both 512 256, macro 256
// OUT-NEXT: template 256 256, shared 256

#include <cstdio>

/// Known coarse-grained: its one launch passes cudaMalloc's memory.
__global__ void accumulate(const float *in, float *sum, double *sums, int n,
                           int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(sum, in[i]);
    // CHECK: {{^}}    hpp::unsafeAtomicAdd(sum, in[i]);
    atomicAdd(sums + 1, (double)in[i]);
    // CHECK: {{^}}    hpp::unsafeAtomicAdd(sums + 1, (double)in[i]);
    atomicAdd(&sum[1], 2.0f);
    // CHECK: {{^}}    hpp::unsafeAtomicAdd(&sum[1], 2.0f);
    atomicAdd(count, 1);
    // CHECK: {{^}}    atomicAdd(count, 1);
  }
}

__global__ void addManaged(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(out, in[i]);
  // CHECK: {{^}}    atomicAdd(out, in[i]);
  // MANAGED: fp-atomics.cu:[[@LINE-2]]:5: remark: 'atomicAdd' on 'float' stays the safe form (a compare-and-swap loop on AMD): its memory is not known to be coarse-grained (cudaMalloc's), the only memory where the faster 'hpp::unsafeAtomicAdd' is right [hpp-cuda-fp-atomic]
}

__global__ void addPinned(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(out, in[i]);
  // CHECK: {{^}}    atomicAdd(out, in[i]);
  // PINNED: fp-atomics.cu:[[@LINE-2]]:5: remark: 'atomicAdd' on 'float' stays the safe form
}

__global__ void addTo(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(out, in[i]);
  // CHECK: {{^}}    atomicAdd(out, in[i]);
  // PARAM: fp-atomics.cu:[[@LINE-2]]:5: remark: 'atomicAdd' on 'float' stays the safe form
}

/// Launched twice, on device and on managed memory.
__global__ void addOne(float *out) {
  atomicAdd(out, 1.0f);
  // CHECK: {{^}}  atomicAdd(out, 1.0f);
  // TWICE: fp-atomics.cu:[[@LINE-2]]:3: remark: 'atomicAdd' on 'float' stays the safe form
}

#define ATOMIC_ADD(p, v) atomicAdd(p, v)
__global__ void addMacro(float *out) {
  ATOMIC_ADD(out, 1.0f);
  // CHECK: {{^}}  ATOMIC_ADD(out, 1.0f);
  // MACRO: fp-atomics.cu:[[@LINE-2]]:3: remark: 'atomicAdd' on 'float' stays the safe form
  // MACRO: fp-atomics.cu:[[@LINE-5]]:26: note: the call is written inside the macro 'ATOMIC_ADD', which the tool does not edit
}

/// One text for float and int: it stays, with a remark for the float
/// instantiation only.
template <class T> __global__ void addT(T *out, T v) {
  atomicAdd(out, v);
  // CHECK: {{^}}  atomicAdd(out, v);
  // TEMPLATE: fp-atomics.cu:[[@LINE-2]]:3: remark: 'atomicAdd' on 'float' stays the safe form
  // TEMPLATE: fp-atomics.cu:[[@LINE-3]]:3: note: the call is in a template, where the pointer's type depends on a template parameter: the text serves every instantiation
  // TEMPLATE-NOT: 'atomicAdd' on 'int'
}

/// Shared memory: the hardware's atomic on AMD already; nothing to say.
__global__ void addShared(float *out) {
  __shared__ float total;
  if (threadIdx.x == 0)
    total = 0;
  __syncthreads();
  atomicAdd(&total, 1.0f);
  // CHECK: {{^}}  atomicAdd(&total, 1.0f);
  __syncthreads();
  if (threadIdx.x == 0)
    atomicAdd(out, total);
  // CHECK: {{^}}    hpp::unsafeAtomicAdd(out, total);
}

/// The memory is the caller's: not known.
void launchTo(const float *in, float *p, int n) {
  addTo<<<2, 128>>>(in, p, n);
  // PARAM: fp-atomics.cu:[[@LINE-1]]:25: note: this launch passes 'p' for 'out'
  // PARAM: fp-atomics.cu:[[@LINE-3]]:39: note: 'p' is a parameter of 'launchTo': its memory is its callers'
}

float readBack(const float *d) {
  float v = 0;
  cudaMemcpy(&v, d, sizeof(float), cudaMemcpyDeviceToHost);
  return v;
}

int main() {
  const int n = 256;
  float host[n];
  for (int k = 0; k < n; ++k)
    host[k] = float(k % 6);
  float *in, *sum, *dev, *tpl, *shared, *managed, *pinned;
  double *sums;
  int *count, *ints;
  cudaMalloc(&in, n * sizeof(float));
  cudaMemcpy(in, host, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMalloc(&sum, 2 * sizeof(float));
  cudaMalloc((void **)&sums, 2 * sizeof(double));
  cudaMalloc(&count, sizeof(int));
  cudaMalloc(&dev, 2 * sizeof(float));
  cudaMalloc(&tpl, sizeof(float));
  cudaMalloc(&ints, sizeof(int));
  cudaMalloc(&shared, sizeof(float));
  cudaMallocManaged(&managed, 3 * sizeof(float));
  // MANAGED-DAG: fp-atomics.cu:[[@LINE-1]]:22: note: 'managed' is written by 'cudaMallocManaged' here: only cudaMalloc's memory is known to be coarse-grained
  // TWICE-DAG: fp-atomics.cu:[[@LINE-2]]:22: note: 'managed' is written by 'cudaMallocManaged' here
  cudaMallocHost(&pinned, sizeof(float));
  // PINNED-DAG: fp-atomics.cu:[[@LINE-1]]:19: note: 'pinned' is written by 'cudaMallocHost' here: only cudaMalloc's memory is known to be coarse-grained
  cudaMemset(sum, 0, 2 * sizeof(float));
  cudaMemset(sums, 0, 2 * sizeof(double));
  cudaMemset(count, 0, sizeof(int));
  cudaMemset(dev, 0, 2 * sizeof(float));
  cudaMemset(tpl, 0, sizeof(float));
  cudaMemset(ints, 0, sizeof(int));
  cudaMemset(shared, 0, sizeof(float));
  for (int k = 0; k < 3; ++k)
    managed[k] = 0;
  *pinned = 0;

  accumulate<<<2, 128>>>(in, sum, sums, n, count);
  addManaged<<<2, 128>>>(in, managed, n);
  // MANAGED-DAG: fp-atomics.cu:[[@LINE-1]]:30: note: this launch passes 'managed' for 'out'
  addPinned<<<2, 128>>>(in, pinned, n);
  // PINNED-DAG: fp-atomics.cu:[[@LINE-1]]:29: note: this launch passes 'pinned' for 'out'
  launchTo(in, managed + 1, n);
  addOne<<<2, 256>>>(dev);
  addOne<<<2, 128>>>(managed + 2);
  // TWICE-DAG: fp-atomics.cu:[[@LINE-1]]:22: note: this launch passes 'managed + 2' for 'out'
  addMacro<<<2, 128>>>(dev + 1);
  addT<<<2, 128>>>(tpl, 1.0f);
  addT<<<2, 128>>>(ints, 1);
  addShared<<<2, 128>>>(shared);
  cudaDeviceSynchronize();

  double d[2];
  int c = 0, i = 0;
  cudaMemcpy(d, sums, sizeof(d), cudaMemcpyDeviceToHost);
  cudaMemcpy(&c, count, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(&i, ints, sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("accumulate %.0f %.0f %.0f\n", readBack(sum),
              readBack(sum + 1), d[1]);
  std::printf("managed %.0f, pinned %.0f, param %.0f\n", managed[0], *pinned,
              managed[1]);
  std::printf("both %.0f %.0f, macro %.0f\n", readBack(dev), managed[2],
              readBack(dev + 1));
  std::printf("template %.0f %d, shared %.0f\n", readBack(tpl), i,
              readBack(shared));
  cudaFree(in);
  cudaFree(sum);
  cudaFree(sums);
  cudaFree(count);
  cudaFree(dev);
  cudaFree(tpl);
  cudaFree(ints);
  cudaFree(shared);
  cudaFree(managed);
  cudaFreeHost(pinned);
  return c == n ? 0 : 1;
}
