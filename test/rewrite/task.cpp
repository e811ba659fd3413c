// Spec 1.8's tasks: each Task's lambda becomes a kernel `hpp_<f>_task<k>`
// over a Range<N, N> (whatever range enqueue is given), with a
// TaskResult<R> and the captures as parameters, that first asks the result
// whether it runs (not when a task it waits for failed: TaskGate,
// runtime/hpp/task.h), and the Task is made from
// hpp::detail::taskKernel(kernel, captures...); enqueue, Future, wait, get
// and && stay as written. A value task over a Range<1> and a Range<1,1>, a
// task enqueued after another's future, a void 2-D task, a task on an
// Index<1,1>, `(f && h).get()`, and numbering with a parallelFor in the
// same function. The reference and the rewritten program print the same
// at widths 32 and 64.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | count 0
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx -I %hpp_include %s -o %t.ref
// RUN: env HPP_CPU_MVECTOR=32 HPP_CPU_CHECK=uninit %t.ref > %t.ref32
// RUN: env HPP_CPU_MVECTOR=64 HPP_CPU_CHECK=uninit %t.ref > %t.ref64
// RUN: diff %t.ref32 %t.ref64
// RUN: FileCheck %s --check-prefix=OUT --match-full-lines < %t.ref32
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe > %t.gen32
// RUN: env HPP_CPU_MVECTOR=64 %t.exe > %t.gen64
// RUN: diff %t.ref32 %t.gen32
// RUN: diff %t.ref32 %t.gen64
// RUN: %gpu_check %t.cpp
//
// OUT: scale: 1000 values, sum 999000 and 999000
// OUT-NEXT: fill: 48x48 verified
// OUT-NEXT: after: 2304 values verified
// OUT-NEXT: pair: 300 values, sum 89700
// OUT-NEXT: local: 200 values verified
// OUT-NEXT: template: sum 999000
// OUT-NOT: {{.}}

#include <hpp/hpp.h>

#include <cstdio>
#include <utility>
#include <vector>

using namespace hpp;

/// A value task, enqueued over a Range<1> and over a Range<1,1> after the
/// first: a[i] * k at each i.
void scale(Pointer<float> a, float k, std::size_t n) {
  Task<float, Index<1>> t([=](Index<1> i) __device(hpp) { return a[i] * k; });
  Future<std::vector<float>> f = t.enqueue(Range<1>(n));
  Future<std::vector<float>> g = t.enqueue(Range<1, 1>(n, 64), f);
  std::vector<float> v = f.get(), w = g.get();
  double Sv = 0, Sw = 0;
  for (std::size_t x = 0; x < v.size(); ++x) {
    Sv += v[x];
    Sw += w[x];
  }
  std::printf("scale: %zu values, sum %.0f and %.0f\n", v.size(), Sv, Sw);
}
// CHECK: /// Outlined by hpp-rewrite from the Task at task.cpp:[[@LINE-11]]:25.
// CHECK-NEXT: __global__ void hpp_scale_task0(hpp::Range<1, 1> hpp_range,
// CHECK-NEXT:                                 hpp::detail::TaskResult<float> hpp_result,
// CHECK-NEXT:                                 const hpp::Pointer<float> a, const float k) {
// CHECK-NEXT:   if (!hpp_result.runs())
// CHECK-NEXT:     return;
// CHECK-NEXT:   hpp::Index<1> i(hpp::detail::kernelIndex(hpp_range).fields());
// CHECK-NEXT:   if (!i.inGlobalRange())
// CHECK-NEXT:     return;
// CHECK-NEXT:   hpp_result.store(i, [&]() -> float { return a[i] * k; }());
// CHECK-NEXT: }
// CHECK: Task<float, Index<1>> t(hpp::detail::taskKernel(hpp_scale_task0, a, k));
// CHECK-NEXT: Future<std::vector<float>> f = t.enqueue(Range<1>(n));
// CHECK-NEXT: Future<std::vector<float>> g = t.enqueue(Range<1, 1>(n, 64), f);

/// A void 2-D task writes M; a value task reads it after the first's
/// future; a parallelFor in between numbers on its own.
void fillThenRead(Pointer<int> M, std::size_t n) {
  Task<void, Index<2>> fill([=](Index<2> ix) __device(hpp) {
    std::size_t x = ix.getX(), y = ix.getY();
    if (x >= n)
      return; // Leaves the kernel, as in a parallelFor body.
    M[y * n + x] = int(x + 1000 * y);
  });
  Future<void> h = fill.enqueue(Range<2>(n, n));
  h.wait();
  int Wrong = 0;
  for (std::size_t y = 0; y < n; ++y)
    for (std::size_t x = 0; x < n; ++x)
      Wrong += M[y * n + x] != int(x + 1000 * y);
  std::printf("fill: %zux%zu %s\n", n, n, Wrong ? "FAILED" : "verified");
  parallelFor(Range<1>(n * n), [=](Index<1> i) __device(hpp) { M[i] += 1; });
  auto read = Task<long, Index<2, 2>>(
      [=](Index<2, 2> ix) __device(hpp) -> long {
        return M[ix.getY() * n + ix.getX()] - 1;
      });
  Future<std::vector<long>> r =
      read.enqueue(Range<2, 2>(Range<2>(n, n), Range<2>(16, 16)), h);
  std::vector<long> v = r.get();
  Wrong = 0;
  for (std::size_t y = 0; y < n; ++y)
    for (std::size_t x = 0; x < n; ++x)
      Wrong += v[y * n + x] != long(x + 1000 * y);
  std::printf("after: %zu values %s\n", v.size(), Wrong ? "FAILED" : "verified");
}
// CHECK: __global__ void hpp_fillThenRead_task0(hpp::Range<2, 2> hpp_range,
// CHECK-NEXT:                                        hpp::detail::TaskResult<void> hpp_result,
// CHECK-NEXT:                                        const std::size_t n,
// CHECK-NEXT:                                        const hpp::Pointer<int> M) {
// CHECK-NEXT:   if (!hpp_result.runs())
// CHECK-NEXT:     return;
// CHECK-NEXT:   hpp::Index<2> ix(hpp::detail::kernelIndex(hpp_range).fields());
// CHECK-NEXT:   if (!ix.inGlobalRange())
// CHECK-NEXT:     return;
// CHECK-NEXT:   {
// CHECK-NEXT:     std::size_t x = ix.getX(), y = ix.getY();
// CHECK:   }
// CHECK-NEXT: }
// CHECK: __global__ void hpp_fillThenRead_pfor0(hpp::Range<1> hpp_range,
// CHECK: __global__ void hpp_fillThenRead_task1(hpp::Range<2, 2> hpp_range,
// CHECK-NEXT:                                        hpp::detail::TaskResult<long> hpp_result,
// CHECK-NEXT:                                        const hpp::Pointer<int> M,
// CHECK-NEXT:                                        const std::size_t n) {
// CHECK-NEXT:   if (!hpp_result.runs())
// CHECK-NEXT:     return;
// CHECK-NEXT:   hpp::Index<2, 2> ix(hpp::detail::kernelIndex(hpp_range).fields());
// CHECK-NEXT:   if (!ix.inGlobalRange())
// CHECK-NEXT:     return;
// CHECK-NEXT:   hpp_result.store(ix, [&]() -> long {
// CHECK-NEXT:     return M[ix.getY() * n + ix.getX()] - 1;
// CHECK-NEXT:   }());
// CHECK-NEXT: }
// CHECK: Task<void, Index<2>> fill(hpp::detail::taskKernel(hpp_fillThenRead_task0, n, M));
// CHECK: Future<void> h = fill.enqueue(Range<2>(n, n));
// CHECK: hpp::launchKernel(hpp_fillThenRead_pfor0, Range<1>(n * n), M);
// CHECK: auto read = Task<long, Index<2, 2>>(
// CHECK-NEXT: hpp::detail::taskKernel(hpp_fillThenRead_task1, M, n));

/// Two futures joined: `(f && h).get()` is the pair of their results.
void pair(Pointer<int> a, std::size_t n) {
  Task<int, Index<1>> sq{[=](Index<1> i) __device(hpp) { return int(i) * 2; }};
  Task<void, Index<1>> put([=](Index<1> i) __device(hpp) { a[i] = 7; });
  Future<std::vector<int>> f = sq.enqueue(Range<1>(n));
  Future<void> h = put.enqueue(Range<1>(n));
  std::pair<std::vector<int>, Nothing> p = (f && h).get();
  long S = 0;
  for (int v : p.first)
    S += v;
  for (std::size_t x = 0; x < n; ++x)
    S += a[x] != 7;
  std::printf("pair: %zu values, sum %ld\n", p.first.size(), S);
}
// CHECK: Task<int, Index<1>> sq{hpp::detail::taskKernel(hpp_pair_task0)};
// CHECK-NEXT: Task<void, Index<1>> put(hpp::detail::taskKernel(hpp_pair_task1, a));
// CHECK: std::pair<std::vector<int>, Nothing> p = (f && h).get();

/// A body on an Index<1,1> enqueued over a Range<1,1>: group and local
/// ids.
void local(std::size_t n) {
  Task<unsigned, Index<1, 1>> t([=](Index<1, 1> i) __device(hpp) {
    return unsigned(i.getGroupX() * 1000 + i.getLocalX());
  });
  std::vector<unsigned> v = t.enqueue(Range<1, 1>(n, 32)).get();
  int Wrong = 0;
  for (std::size_t x = 0; x < v.size(); ++x)
    Wrong += v[x] != unsigned(x / 32 * 1000 + x % 32);
  std::printf("local: %zu values %s\n", v.size(), Wrong ? "FAILED" : "verified");
}
// CHECK: __global__ void hpp_local_task0(hpp::Range<1, 1> hpp_range,
// CHECK-NEXT:                                 hpp::detail::TaskResult<unsigned int> hpp_result) {
// CHECK-NEXT:   if (!hpp_result.runs())
// CHECK-NEXT:     return;
// CHECK-NEXT:   hpp::Index<1, 1> i(hpp::detail::kernelIndex(hpp_range).fields());
// CHECK: Task<unsigned, Index<1, 1>> t(hpp::detail::taskKernel(hpp_local_task0));

/// In a function template: the kernel is a template, made with <T>.
template <typename T> T twice(Pointer<T> a, std::size_t n) {
  Task<T, Index<1>> t([=](Index<1> i) __device(hpp) { return a[i] * T(2); });
  std::vector<T> v = t.enqueue(Range<1>(n)).get();
  T S = 0;
  for (T x : v)
    S += x;
  return S;
}
// CHECK: template <typename T>
// CHECK-NEXT: __global__ void hpp_twice_task0(hpp::Range<1, 1> hpp_range,
// CHECK-NEXT:                                 hpp::detail::TaskResult<T> hpp_result,
// CHECK-NEXT:                                 const hpp::Pointer<T> a) {
// CHECK: Task<T, Index<1>> t(hpp::detail::taskKernel(hpp_twice_task0<T>, a));

int main() {
  const std::size_t n = 1000;
  Pointer<float> a = allocate<float>(n);
  for (std::size_t x = 0; x < n; ++x)
    a[x] = float(x);
  scale(a, 2.0f, n);
  Pointer<int> M = allocate<int>(48 * 48);
  fillThenRead(M, 48);
  Pointer<int> b = allocate<int>(300);
  pair(b, 300);
  local(200);
  std::printf("template: sum %.0f\n", double(twice(a, n)));
  deallocate(b);
  deallocate(M);
  deallocate(a);
  return 0;
}
