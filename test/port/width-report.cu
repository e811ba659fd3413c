// Port mode: the JSON report gives each kernel's width decision and the
// facts behind it (docs/report.md, "kernels"): a kernel with a 32-lane fact
// (here one that reaches its helper through an argument) keeps 32-lane warps
// on every target; one written with warpSize alone keeps them too when
// another kernel of its file does (the warp is one thing in a program:
// docs/width-model.md), and the report says so.
// RUN: %hpp_rewrite --port %s -o %t.cpp --report-json=%t.json -- 2>/dev/null
// RUN: %python -c "import json,sys; [print(k['name'], k['model'], k['thirtyTwo'], k['realWidth'], sep=' | ') for k in json.load(open(sys.argv[1]))['files'][0]['kernels']]" %t.json | FileCheck %s
// CHECK: sum32 | logical32 | {{.*}}width-report.cu:[[@LINE+11]]:38: the literal '16' | None
// CHECK-NEXT: sumWide | logical32 | {{.*}}width-report.cu:[[@LINE+10]]:38: another kernel of this file keeps 32-lane warps (the literal '16') | {{.*}}width-report.cu:[[@LINE+17]]:16: 'warpSize'
// CHECK-NOT: {{.}}

__device__ float warpSum(float v, int from) {
  for (int o = from; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}

__global__ void sum32(const float *in, float *out) {
  float v = warpSum(in[threadIdx.x], 16);
  if (threadIdx.x % 32 == 0)
    atomicAdd(out, v);
}

__global__ void sumWide(const float *in, float *out) {
  float v = in[threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(__activemask(), v, o);
  if (threadIdx.x % warpSize == 0)
    atomicAdd(out, v);
}
