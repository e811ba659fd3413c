// Spec 7 (docs/devices.md): parallelFor on a named device becomes
// `hpp::launchKernel(<device>, <kernel>, <range>, captures...)`, the device
// expression kept as written (Device(k), a variable, getDevices()[i],
// getDefaultDevice(), p.getDevice(), in a template), the DistArray form
// too; allocate on a device, copy, copyAsync, peer access and tasks
// enqueued on a device after a Future of another stay as written. The
// reference at 1, 2 and 3 simulated devices prints the same, and the
// rewritten program prints it too on the runtime's CPU backend at widths
// 32 and 64; the output compiles for sm_90, gfx90a and gfx1030.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | count 0
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %hpp_rewrite %t.cpp | diff %t.cpp -
// RUN: %cxx -I %hpp_include %s -o %t.ref
// RUN: env HPP_CPU_DEVICES=1 HPP_CPU_MVECTOR=32 %t.ref > %t.ref1
// RUN: env HPP_CPU_DEVICES=2 HPP_CPU_MVECTOR=64 %t.ref > %t.ref2
// RUN: env HPP_CPU_DEVICES=3 HPP_CPU_MVECTOR=32 HPP_CPU_CHECK=uninit %t.ref > %t.ref3
// RUN: diff %t.ref1 %t.ref2
// RUN: diff %t.ref1 %t.ref3
// RUN: FileCheck %s --check-prefix=OUT --match-full-lines < %t.ref1
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_DEVICES=1 HPP_CPU_MVECTOR=32 %t.exe > %t.gen1
// RUN: env HPP_CPU_DEVICES=2 HPP_CPU_MVECTOR=64 %t.exe > %t.gen2
// RUN: env HPP_CPU_DEVICES=3 HPP_CPU_MVECTOR=64 %t.exe > %t.gen3
// RUN: diff %t.ref1 %t.gen1
// RUN: diff %t.ref1 %t.gen2
// RUN: diff %t.ref1 %t.gen3
// RUN: %gpu_check %t.cpp
//
// OUT: split: 1000 values verified
// OUT-NEXT: chain: 777 values verified
// OUT-NEXT: peer: 500 values verified
// OUT-NEXT: tiles: 40x40 verified
// OUT-NEXT: template: 300 values verified
// OUT-NOT: {{.}}

#include <hpp/hpp.h>

#include <cstdio>
#include <vector>

using namespace hpp;

/// y = 2x + 1, split into one part per device: each part is copied to its
/// device, computed there and copied back.
void split(std::size_t n) {
  Pointer<float> x = allocate<float>(n), y = allocate<float>(n);
  for (std::size_t i = 0; i < n; ++i)
    x[i] = float(i) - 300.0f;
  std::vector<Device> ds = getDevices();
  const std::size_t parts = ds.size(), chunk = (n + parts - 1) / parts;
  for (std::size_t k = 0; k < parts; ++k) {
    const std::size_t lo = k * chunk, m = lo < n ? std::min(chunk, n - lo) : 0;
    if (m == 0)
      continue;
    Pointer<float> in = allocate<float>(m, ds[k]);
    Pointer<float> out = allocate<float>(m, Device(int(k)));
    copy(in, 0, x, lo, m);
    parallelFor(ds[k], Range<1>(m), [=](Index<1> i) __device(hpp) {
      out[i] = 2.0f * in[i] + 1.0f;
    });
    copy(y, lo, out, 0, m);
    deallocate(in);
    deallocate(out);
  }
  int wrong = 0;
  for (std::size_t i = 0; i < n; ++i)
    wrong += !(y[i] == 2.0f * x[i] + 1.0f);
  std::printf("split: %zu values %s\n", n, wrong ? "FAILED" : "verified");
  deallocate(x);
  deallocate(y);
}
// CHECK: void split(std::size_t n) {
// CHECK: hpp::launchKernel(ds[k], hpp_split_pfor0, Range<1>(m), out, in);

/// A task on the last device after a copy that waits for a task on the
/// first: the futures cross devices, the host never waits in between.
void chain(std::size_t n) {
  const Device first = getDefaultDevice();
  const Device last(getDeviceCount() - 1);
  Pointer<int> a = allocate<int>(n, first), b = allocate<int>(n, last);
  Task<void, Index<1>> fill([=](Index<1> i) __device(hpp) {
    a[i] = int(i) * 3;
  });
  Task<int, Index<1>> inc([=](Index<1> i) __device(hpp) { return b[i] + 1; });
  Future<void> f = fill.enqueue(first, Range<1>(n));
  Future<void> c = copyAsync(b, 0, a, 0, n, f);
  Future<std::vector<int>> g = inc.enqueue(last, Range<1>(n), c);
  std::vector<int> v = g.get();
  int wrong = v.size() != n;
  for (std::size_t i = 0; i < v.size(); ++i)
    wrong += v[i] != int(i) * 3 + 1;
  std::printf("chain: %zu values %s\n", n, wrong ? "FAILED" : "verified");
  deallocate(a);
  deallocate(b);
}
// CHECK: Future<void> f = fill.enqueue(first, Range<1>(n));
// CHECK-NEXT: Future<void> c = copyAsync(b, 0, a, 0, n, f);
// CHECK-NEXT: Future<std::vector<int>> g = inc.enqueue(last, Range<1>(n), c);

/// A kernel on the last device reads the first device's memory directly
/// once peer access is enabled.
void peer(std::size_t n) {
  Device last(getDeviceCount() - 1);
  Pointer<double> src = allocate<double>(n, Device(0));
  Pointer<double> dst = allocate<double>(n, last);
  for (std::size_t i = 0; i < n; ++i)
    src[i] = 0.5 * double(i);
  if (canAccessPeer(last, src.getDevice()))
    enablePeerAccess(last, src.getDevice());
  parallelFor(dst.getDevice(), Range<1, 1>(n, 64),
              [=](Index<1, 1> i) __device(hpp) { dst[i] = src[i] * 4.0; });
  int wrong = 0;
  for (std::size_t i = 0; i < n; ++i)
    wrong += !(dst[i] == 2.0 * double(i));
  std::printf("peer: %zu values %s\n", n, wrong ? "FAILED" : "verified");
  deallocate(src);
  deallocate(dst);
}
// CHECK: hpp::launchKernel(dst.getDevice(), hpp_peer_pfor0, Range<1, 1>(n, 64),
// CHECK-SAME: dst, src);

/// The DistArray form on a device: each work-group stages its tile of A in
/// work-group memory and writes its transpose.
void tiles(std::size_t n) {
  const Device d(getDeviceCount() > 1 ? 1 : 0);
  Pointer<int> A = allocate<int>(n * n, d), B = allocate<int>(n * n, d);
  for (std::size_t i = 0; i < n * n; ++i)
    A[i] = int(i % 97);
  const std::size_t T = 8;
  DistArray<int> tile;
  Region<int> r = tile.allocRegion(T * T);
  parallelFor(d, Range<2, 2>(Range<2>(n, n), Range<2>(T, T)), tile,
              [=](Index<2, 2> i, BoundDistArray<int> a) __device(hpp) {
                Segment<int> s = a(r);
                s[i.getLocalY() * T + i.getLocalX()] =
                    A[i.getY() * n + i.getX()];
                s.barrier();
                B[i.getX() * n + i.getY()] = s[i.getLocalY() * T + i.getLocalX()];
              });
  int wrong = 0;
  for (std::size_t y = 0; y < n; ++y)
    for (std::size_t x = 0; x < n; ++x)
      wrong += B[x * n + y] != A[y * n + x];
  std::printf("tiles: %zux%zu %s\n", n, n, wrong ? "FAILED" : "verified");
  deallocate(A);
  deallocate(B);
}
// CHECK: hpp::launchKernel(d, hpp_tiles_pfor0, Range<2, 2>(Range<2>(n, n), Range<2>(T, T)), tile,

/// In a function template, on the default device.
template <class T> void fillOn(Device d, Pointer<T> p, T v, std::size_t n) {
  parallelFor(d, Range<1>(n), [=](Index<1> i) __device(hpp) { p[i] = v + T(i); });
}
// CHECK: template <class T> void fillOn(Device d, Pointer<T> p, T v, std::size_t n) {
// CHECK-NEXT: hpp::launchKernel(d, hpp_fillOn_pfor0<T>, Range<1>(n), p, v);

int main() {
  split(1000);
  chain(777);
  peer(500);
  tiles(40);
  Pointer<long> p = allocate<long>(300);
  fillOn(getDefaultDevice(), p, 5L, 300);
  int wrong = 0;
  for (std::size_t i = 0; i < 300; ++i)
    wrong += p[i] != 5L + long(i);
  std::printf("template: 300 values %s\n", wrong ? "FAILED" : "verified");
  deallocate(p);
  return 0;
}
