// Port mode: a launch's block size that is a parameter of the launching
// function is evaluated at the function's calls, through function
// parameters, transitively (lib/Analysis/HostValues.h): a launcher above
// main or below it (a prototype), called twice (256, then 96), through
// another launcher, with a default argument, a dim3 parameter, a `const
// int &`, a member function, a lambda, and a launcher with external
// linkage (its calls here are evaluated; another source's are not). A
// block that is not whole 64-lane wavefronts, or fewer than two, at any
// call is a 32-lane fact of the kernel launched (launch-blocks.cu), named
// at the call's argument; a launcher template's argument is one already.
// Each kernel drops a partial last wavefront (blockDim.x / warpSize): on
// whole wavefronts a block of 96 would sum 64. The port prints the same
// sums at 32 and 64 lanes, and builds for sm_90, gfx90a and gfx1030.
// RUN: %hpp_rewrite --port %s -o %t.cpp --report-json=%t.json -- 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: %python -c "import json,sys; [print(k['name'], k['model'], k['thirtyTwo'], sep=' | ') for k in json.load(open(sys.argv[1]))['files'][0]['kernels']]" %t.json | FileCheck %s --check-prefix=MODEL
// RUN: %cxx_runtime %t.cpp -o %t
// RUN: env HPP_CPU_MVECTOR=32 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: env HPP_CPU_MVECTOR=64 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: %gpu_check %t.cpp
// DIAG-NOT: warning:
// DIAG: launch-blocks-callers.cu:[[@LINE+66]]:16: remark: this kernel keeps 32-lane warps on every target {{.*}}[hpp-warp-size]
// DIAG: launch-blocks-callers.cu:[[@LINE+214]]:22: note: the kernel assumes 32-lane warps here: a block of 96 threads (a partial last 64-lane wavefront) passed to 'outer' here and on to 'inner' in the host code that launches it
// DIAG-NOT: warning:
// MODEL: aboveMain | logical32 | {{.*}}launch-blocks-callers.cu:[[@LINE+208]]:24: a block of 96 threads (a partial last 64-lane wavefront) passed to 'launchAbove' here in the host code that launches it
// MODEL-NEXT: belowMain | logical32 | {{.*}}launch-blocks-callers.cu:[[@LINE+208]]:28: a block of 160 threads (a partial last 64-lane wavefront) passed to 'launchBelow' here in the host code that launches it
// MODEL-NEXT: twice | logical32 | {{.*}}launch-blocks-callers.cu:[[@LINE+209]]:28: a block of 96 threads (a partial last 64-lane wavefront) passed to 'launchTwice' here in the host code that launches it
// MODEL-NEXT: nested | logical32 | {{.*}}launch-blocks-callers.cu:[[@LINE+209]]:22: a block of 96 threads (a partial last 64-lane wavefront) passed to 'outer' here and on to 'inner' in the host code that launches it
// MODEL-NEXT: byDefault | logical32 | {{.*}}launch-blocks-callers.cu:[[@LINE+170]]:66: a block of 96 threads (a partial last 64-lane wavefront) passed to 'launchDefault' as its default argument here in the host code that launches it
// MODEL-NEXT: byDim3 | logical32 | {{.*}}launch-blocks-callers.cu:[[@LINE+209]]:28: a block of 96 threads (a partial last 64-lane wavefront) passed to 'launchDim3' here in the host code that launches it
// MODEL-NEXT: byConstRef | logical32 | {{.*}}launch-blocks-callers.cu:[[@LINE+210]]:32: a block of 96 threads (a partial last 64-lane wavefront) passed to 'launchConstRef' here in the host code that launches it
// MODEL-NEXT: byMember | logical32 | {{.*}}launch-blocks-callers.cu:[[@LINE+210]]:30: a block of 64 threads (two 32-lane warps, one 64-lane wavefront) passed to 'Launcher::run' here in the host code that launches it
// MODEL-NEXT: byLambda | logical32 | {{.*}}launch-blocks-callers.cu:[[@LINE+211]]:16: a block of 96 threads (a partial last 64-lane wavefront) passed to the lambda 'launchLambda' here in the host code that launches it
// MODEL-NEXT: byTemplate | logical32 | {{.*}}launch-blocks-callers.cu:[[@LINE+184]]:19: a block of 96 threads (a partial last 64-lane wavefront) in the host code that launches it
// MODEL-NEXT: external | logical32 | {{.*}}launch-blocks-callers.cu:[[@LINE+211]]:32: a block of 96 threads (a partial last 64-lane wavefront) passed to 'launchExternal' here in the host code that launches it
// MODEL-NOT: {{.}}
// OUT: sums 96 96 160 160 256 256 96 96 96 96 96 96 96 96 96 96 64 64 96 96 96 96 96 96

#include <cstdio>

// Adds the first n slots (no warp code: it does not join its callers).
__device__ int sumSlots(const int *s, int n) {
  int t = 0;
  for (int w = 0; w < n; ++w)
    t += s[w];
  return t;
}

__global__ void aboveMain(const int *in, int *out) {
  __shared__ int s[64];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(__activemask(), v, o);
  if (threadIdx.x % warpSize == 0)
    s[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = sumSlots(s, blockDim.x / warpSize);
}

__global__ void belowMain(const int *in, int *out) {
  __shared__ int s[64];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(__activemask(), v, o);
  if (threadIdx.x % warpSize == 0)
    s[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = sumSlots(s, blockDim.x / warpSize);
}

__global__ void twice(const int *in, int *out) {
  __shared__ int s[64];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(__activemask(), v, o);
  if (threadIdx.x % warpSize == 0)
    s[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = sumSlots(s, blockDim.x / warpSize);
}

__global__ void nested(const int *in, int *out) {
  __shared__ int s[64];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(__activemask(), v, o);
  if (threadIdx.x % warpSize == 0)
    s[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = sumSlots(s, blockDim.x / warpSize);
}

__global__ void byDefault(const int *in, int *out) {
  __shared__ int s[64];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(__activemask(), v, o);
  if (threadIdx.x % warpSize == 0)
    s[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = sumSlots(s, blockDim.x / warpSize);
}

__global__ void byDim3(const int *in, int *out) {
  __shared__ int s[64];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(__activemask(), v, o);
  if (threadIdx.x % warpSize == 0)
    s[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = sumSlots(s, blockDim.x / warpSize);
}

__global__ void byConstRef(const int *in, int *out) {
  __shared__ int s[64];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(__activemask(), v, o);
  if (threadIdx.x % warpSize == 0)
    s[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = sumSlots(s, blockDim.x / warpSize);
}

__global__ void byMember(const int *in, int *out) {
  __shared__ int s[64];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(__activemask(), v, o);
  if (threadIdx.x % warpSize == 0)
    s[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = sumSlots(s, blockDim.x / warpSize);
}

__global__ void byLambda(const int *in, int *out) {
  __shared__ int s[64];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(__activemask(), v, o);
  if (threadIdx.x % warpSize == 0)
    s[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = sumSlots(s, blockDim.x / warpSize);
}

__global__ void byTemplate(const int *in, int *out) {
  __shared__ int s[64];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(__activemask(), v, o);
  if (threadIdx.x % warpSize == 0)
    s[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = sumSlots(s, blockDim.x / warpSize);
}

__global__ void external(const int *in, int *out) {
  __shared__ int s[64];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(__activemask(), v, o);
  if (threadIdx.x % warpSize == 0)
    s[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = sumSlots(s, blockDim.x / warpSize);
}

static void launchAbove(const int *in, int *out, int threads) {
  aboveMain<<<2, threads>>>(in, out);
}

static void launchBelow(const int *in, int *out, int threads);

static void launchTwice(const int *in, int *out, int threads) {
  twice<<<2, threads>>>(in, out);
}

static void inner(const int *in, int *out, int threads) {
  nested<<<2, threads>>>(in, out);
}

static void outer(const int *in, int *out, int threads) {
  inner(in, out, threads);
}

static void launchDefault(const int *in, int *out, int threads = 96) {
  byDefault<<<2, threads>>>(in, out);
}

static void launchDim3(const int *in, int *out, dim3 block) {
  byDim3<<<2, block>>>(in, out);
}

static void launchConstRef(const int *in, int *out, const int &threads) {
  byConstRef<<<2, threads>>>(in, out);
}

struct Launcher {
  const int *in;
  int *out;
  void run(int threads) { byMember<<<2, threads>>>(in, out); }
};

template <int Threads> void launchTemplate(const int *in, int *out) {
  byTemplate<<<2, Threads>>>(in, out);
}

// External linkage: another source may call it too, but this call's 96 is
// enough for the kernel to keep 32-lane warps (right in any block).
void launchExternal(const int *in, int *out, int threads) {
  external<<<2, threads>>>(in, out);
}

int main() {
  int *in, *out;
  cudaMallocManaged(&in, 512 * sizeof(int));
  cudaMallocManaged(&out, 24 * sizeof(int));
  for (int e = 0; e < 512; ++e)
    in[e] = 1;
  launchAbove(in, out, 96);
  launchBelow(in, out + 2, 160);
  launchTwice(in, out + 4, 256);
  launchTwice(in, out + 6, 96);
  outer(in, out + 8, 96);
  launchDefault(in, out + 10);
  launchDim3(in, out + 12, dim3(96));
  const int threads = 96;
  launchConstRef(in, out + 14, threads);
  Launcher{in, out + 16}.run(64);
  auto launchLambda = [&](int t) { byLambda<<<2, t>>>(in, out + 18); };
  launchLambda(96);
  launchTemplate<96>(in, out + 20);
  launchExternal(in, out + 22, 96);
  cudaDeviceSynchronize();
  std::printf("sums");
  for (int k = 0; k < 24; ++k)
    std::printf(" %d", out[k]);
  std::printf("\n");
}

static void launchBelow(const int *in, int *out, int threads) {
  belowMain<<<2, threads>>>(in, out);
}
