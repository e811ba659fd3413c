// __device(hpp) functions become __host__ __device__ (declaration and
// definition); inline helpers and templates the device code calls get
// __host__ __device__ too; a plain host function is left alone. Functions
// that run a collective, directly or through a callee, become __device__
// (nvcc rejects collectives in host-device functions), and so do functions
// that use the CUDA bit intrinsics or atomics, which CUDA declares
// __device__, or a Segment.
// RUN: %hpp_rewrite %s -o %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx_runtime -c %t.cpp -o %t.o
// RUN: %gpu_check %t.cpp

#include <hpp/hpp.h>
using namespace hpp;

__device(hpp) float clampf(float x, float lo, float hi);
// CHECK: __host__ __device__ float clampf(float x, float lo, float hi);

__device(hpp) float clampf(float x, float lo, float hi) {
  return x < lo ? lo : (x > hi ? hi : x);
}
// CHECK: __host__ __device__ float clampf(float x, float lo, float hi) {

inline float twice(float x) { return 2 * x; }
// CHECK: __host__ __device__ inline float twice(float x) { return 2 * x; }

template <class T> T cube(T x) { return x * x * x; }
// CHECK: template <class T> __host__ __device__ T cube(T x) { return x * x * x; }

struct Scale {
  float k;
  float operator()(float x) const { return k * x; }
};
// CHECK: __host__ __device__ float operator()(float x) const { return k * x; }

__device(hpp) int fromLane0(int x);
// CHECK: {{^}}__device__ int fromLane0(int x);

__device(hpp) int fromLane0(int x) { return __shfl_sync(0xffffffff, x, 0); }
// CHECK: {{^}}__device__ int fromLane0(int x) { return

inline int viaCallee(int x) { return fromLane0(x) + 1; }
// CHECK: {{^}}__device__ inline int viaCallee(int x) { return fromLane0(x) + 1; }

template <class T> __device(hpp) T viaTemplate(T x) { return viaCallee(x); }
// CHECK: template <class T> __device__ T viaTemplate(T x) { return viaCallee(x); }

__device(hpp) int bits(unsigned m) { return __popc(m); }
// CHECK: {{^}}__device__ int bits(unsigned m) { return

// A free atomic on a plain pointer is CUDA's and HIP's __device__ overload
// in the GPU build, and a Segment lives in a work-group's memory.
__device(hpp) void countAt(int *c, int v) { atomicAdd(&c[v], 1); }
// CHECK: {{^}}__device__ void countAt(int *c, int v) { atomicAdd(&c[v], 1); }

__device(hpp) float firstOf(Segment<float> s) { return s[0]; }
// CHECK: {{^}}__device__ float firstOf(Segment<float> s) { return s[0]; }

inline int hostOnly() { return 3; }
// CHECK: {{^}}inline int hostOnly() { return 3; }

void run(Pointer<float> v, Pointer<int> w, int n) {
  Scale s{0.5f};
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    v[i.getX()] = s(clampf(twice(cube(v[i.getX()])), -1.f, 1.f));
    w[i.getX()] = viaTemplate(w[i.getX()]) + bits(w[i.getX()]);
    countAt(w.get(), 0);
  });
}
// CHECK: __global__ void hpp_run_pfor0(hpp::Range<1> hpp_range,
// CHECK-NEXT: const hpp::Pointer<float> v, const Scale s,
// CHECK-NEXT: const hpp::Pointer<int> w) {
