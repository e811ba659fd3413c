// Port mode: blocks of whole 64-lane wavefronts, at least two of them (128,
// 192, 256, a dim3 of 64 x 2, every arm of a conditional), are no 32-lane
// fact: a kernel written with warpSize alone runs on whole wavefronts. So
// are blocks passed to a launcher whose every call the tool sees
// (launchStatic, called with 128 and 256; a lambda called with 192;
// HostValues.h). A launch whose block the tool cannot evaluate keeps that
// decision, with a warning at the launch: here a parameter of a launcher
// with external linkage, which another source may call with a block of 96
// or 64 that would compute differently (launch-blocks.cu), although its
// call here passes 128. A kernel without warp code (clear) computes the
// same in any block: its block of 12 is no fact, and does not narrow the
// file's other kernels. The port prints the same sums at 32 and 64 lanes,
// and builds for sm_90, gfx90a and gfx1030.
// RUN: %hpp_rewrite --port %s -o %t.cpp --report-json=%t.json -- 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: %python -c "import json,sys; [print(k['name'], k['model'], k['thirtyTwo'], sep=' | ') for k in json.load(open(sys.argv[1]))['files'][0]['kernels']]" %t.json | FileCheck %s --check-prefix=MODEL
// RUN: %cxx_runtime %t.cpp -o %t
// RUN: env HPP_CPU_MVECTOR=32 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: env HPP_CPU_MVECTOR=64 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: %gpu_check %t.cpp
// DIAG-NOT: warning:
// DIAG: launch-blocks-native.cu:[[@LINE+85]]:3: warning: the kernel this launches runs on whole 64-lane wavefronts (it is written with warpSize), but the tool cannot evaluate the launch's block size{{.*}}[hpp-host-warp-size]
// DIAG: launch-blocks-native.cu:[[@LINE+83]]:6: note: the block size is a parameter, and the tool does not see every call that passes it: 'launch' has external linkage: another source may call it
// DIAG-NOT: warning:
// MODEL: blockSum | native | None
// MODEL-NEXT: byParameter | native | None
// MODEL-NEXT: byStatic | native | None
// MODEL-NEXT: byLambda | native | None
// MODEL-NEXT: clear | logical32 | None
// MODEL-NOT: {{.}}
// OUT: sums 128 128 192 192 256 256 128 128 512 512 128 128 128 128 256 256 192 192

#include <cstdio>

// Sums its block: per-warp shuffles from warpSize / 2, one slot per warp,
// the slots of n / warpSize warps added by thread 0.
__global__ void blockSum(const int *in, int *out) {
  __shared__ int s[64];
  int tid = threadIdx.y * blockDim.x + threadIdx.x,
      n = blockDim.x * blockDim.y;
  int v = in[blockIdx.x * n + tid];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(__activemask(), v, o);
  if (tid % warpSize == 0)
    s[tid / warpSize] = v;
  __syncthreads();
  if (tid == 0) {
    int t = 0;
    for (int w = 0; w < n / warpSize; ++w)
      t += s[w];
    out[blockIdx.x] = t;
  }
}

__global__ void byParameter(const int *in, int *out) {
  __shared__ int s[64];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(__activemask(), v, o);
  if (threadIdx.x % warpSize == 0)
    s[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int t = 0;
    for (int w = 0; w < blockDim.x / warpSize; ++w)
      t += s[w];
    out[blockIdx.x] = t;
  }
}

__global__ void byStatic(const int *in, int *out) {
  __shared__ int s[64];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(__activemask(), v, o);
  if (threadIdx.x % warpSize == 0)
    s[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int t = 0;
    for (int w = 0; w < blockDim.x / warpSize; ++w)
      t += s[w];
    out[blockIdx.x] = t;
  }
}

__global__ void byLambda(const int *in, int *out) {
  __shared__ int s[64];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(__activemask(), v, o);
  if (threadIdx.x % warpSize == 0)
    s[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int t = 0;
    for (int w = 0; w < blockDim.x / warpSize; ++w)
      t += s[w];
    out[blockIdx.x] = t;
  }
}

__global__ void clear(int *out) { out[threadIdx.x] = -1; }

// External linkage: another source may call it with another block.
void launch(const int *in, int *out, int threads) {
  byParameter<<<2, threads>>>(in, out);
}

// Every call is in this file: 128 and 256.
static void launchStatic(const int *in, int *out, int threads) {
  byStatic<<<2, threads>>>(in, out);
}

int main(int argc, char **) {
  int *in, *out;
  cudaMallocManaged(&in, 1024 * sizeof(int));
  cudaMallocManaged(&out, 18 * sizeof(int));
  for (int e = 0; e < 1024; ++e)
    in[e] = 1;
  clear<<<1, 12>>>(out);
  blockSum<<<2, 128>>>(in, out);
  const int threads = 192;
  blockSum<<<2, threads>>>(in, out + 2);
  dim3 block(256);
  blockSum<<<2, block>>>(in, out + 4);
  blockSum<<<2, dim3(64, 2)>>>(in, out + 6);
  int wide = argc > 4 ? 128 : 512;
  blockSum<<<2, wide>>>(in, out + 8);
  launch(in, out + 10, 128);
  launchStatic(in, out + 12, 128);
  launchStatic(in, out + 14, 256);
  auto launchLambda = [&](int t) { byLambda<<<2, t>>>(in, out + 16); };
  launchLambda(192);
  cudaDeviceSynchronize();
  std::printf("sums");
  for (int k = 0; k < 18; ++k)
    std::printf(" %d", out[k]);
  std::printf("\n");
}
