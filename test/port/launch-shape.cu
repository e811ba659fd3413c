// Port mode: host code that sizes a launch from 32-lane warps (HeCBench's
// gemv, bitsandbytes: `rows_per_block = threads / 32`) agrees with the
// kernel only while its warps have 32 lanes. A kernel written with warpSize
// alone would run at the device's width, and on a 64-lane wavefront do half
// the rows the host counted: the host's 32 is a 32-lane fact of the kernel
// it launches, which keeps 32-lane warps everywhere. The port prints the
// same sums at 32 and 64 lanes, and builds for sm_90, gfx90a and gfx1030.
// RUN: %hpp_rewrite --port %s -o %t.cpp --report-json=%t.json -- 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: %python -c "import json,sys; [print(k['name'], k['model'], k['thirtyTwo']) for k in json.load(open(sys.argv[1]))['files'][0]['kernels']]" %t.json | FileCheck %s --check-prefix=MODEL
// RUN: %cxx_runtime %t.cpp -o %t
// RUN: env HPP_CPU_MVECTOR=32 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: env HPP_CPU_MVECTOR=64 HPP_CPU_CHECK=uninit %t | FileCheck %s --check-prefix=OUT
// RUN: %gpu_check %t.cpp
// DIAG: launch-shape.cu:[[@LINE+9]]:{{[0-9]+}}: remark: this kernel keeps 32-lane warps on every target{{.*}}[hpp-warp-size]
// DIAG: launch-shape.cu:[[@LINE+31]]:{{[0-9]+}}: note: the kernel assumes 32-lane warps here: the literal '32' in the host code that launches it
// MODEL: rowSums logical32 {{.*}}launch-shape.cu:[[@LINE+30]]:{{[0-9]+}}: the literal '32' in the host code that launches it
// OUT: rows 100, wrong 0

#include <cstdio>

/// One warp per row: lane l sums the row's columns l, l + warpSize, ...
__global__ void rowSums(const float *m, float *out, int rows, int cols) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int lane = threadIdx.x % warpSize;
  if (warp >= rows)
    return;
  float v = 0;
  for (int c = lane; c < cols; c += warpSize)
    v += m[warp * cols + c];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(__activemask(), v, o);
  if (lane == 0)
    out[warp] = v;
}

int main() {
  const int rows = 100, cols = 70;
  float *m, *out;
  cudaMallocManaged(&m, rows * cols * sizeof(float));
  cudaMallocManaged(&out, rows * sizeof(float));
  for (int k = 0; k < rows * cols; ++k)
    m[k] = float(k % 7);
  for (int r = 0; r < rows; ++r)
    out[r] = -1;
  int threads = 128;
  int rows_per_block = threads / 32;
  int blocks = (rows + rows_per_block - 1) / rows_per_block;
  rowSums<<<blocks, threads>>>(m, out, rows, cols);
  cudaDeviceSynchronize();
  int wrong = 0;
  for (int r = 0; r < rows; ++r) {
    float want = 0;
    for (int c = 0; c < cols; ++c)
      want += float((r * cols + c) % 7);
    wrong += !(out[r] == want);
  }
  std::printf("rows %d, wrong %d\n", rows, wrong);
  cudaFree(m);
  cudaFree(out);
}
