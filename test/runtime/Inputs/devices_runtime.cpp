//===- test/runtime/Inputs/devices_runtime.cpp - Devices, rewritten form --===//
//
// Part of hpp-rewrite. Input of devices-runtime.test.
//
//===----------------------------------------------------------------------===//
//
// docs/devices.md on the device runtime, in the form hpp-rewrite emits
// (outlined __global__ kernels, `hpp::launchKernel(device, kernel, range,
// captures...)`, Tasks from hpp::detail::taskKernel, enqueue, allocate,
// copy, copyAsync and peer access kept as written). Without arguments,
// what every device count prints the same way: a computation split over
// the devices, a chain of tasks from the first device to the last through
// copyAsync, a kernel using another device's memory after
// enablePeerAccess, the forms without a device on the default device, a
// performance kernel on the last device's memory. With `errors`: the
// misuses, each error printed with this file's path cut to its name.
//
//===----------------------------------------------------------------------===//
#include <hpp/runtime.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace hpp;

/// \p Msg with every path of this file cut to its name.
static std::string shown(std::string Msg) {
  const std::string Path = __FILE__;
  const std::string Name = Path.substr(Path.find_last_of('/') + 1);
  for (std::size_t At = 0; (At = Msg.find(Path, At)) != std::string::npos;
       At += Name.size())
    Msg.replace(At, Path.size(), Name);
  return Msg;
}

static void report(const RuntimeError &E) {
  std::printf("error: %s\n", shown(E.what()).c_str());
}

/// p[i] = base + i.
__global__ void hpp_fill_pfor0(hpp::Range<1> hpp_range,
                               const hpp::Pointer<int> p, const int base) {
  hpp::Index<1> i(hpp::detail::kernelIndex(hpp_range).fields());
  if (!i.inGlobalRange())
    return;
  { p[i] = base + int(i); }
}

/// Task<int, Index<1>>: a[i] * a[i].
__global__ void hpp_square_task0(hpp::Range<1, 1> hpp_range,
                                 hpp::detail::TaskResult<int> hpp_result,
                                 const hpp::Pointer<int> a) {
  if (!hpp_result.runs())
    return;
  hpp::Index<1> i(hpp::detail::kernelIndex(hpp_range).fields());
  if (!i.inGlobalRange())
    return;
  hpp_result.store(i, [&]() -> int { return a[i] * a[i]; }());
}

/// Task<void, Index<1>>: a[i] += 1.
__global__ void hpp_inc_task0(hpp::Range<1, 1> hpp_range,
                              hpp::detail::TaskResult<void> hpp_result,
                              const hpp::Pointer<int> a) {
  if (!hpp_result.runs())
    return;
  hpp::Index<1> i(hpp::detail::kernelIndex(hpp_range).fields());
  if (!i.inGlobalRange())
    return;
  { a[i] += 1; }
}

static const char *verdict(bool Ok) { return Ok ? "verified" : "MISMATCH"; }

/// i for i in [0, n), one part per device, gathered on the default device.
static void split(int n) {
  Pointer<int> all = allocate<int>(n);
  std::vector<Device> ds = getDevices();
  const int parts = int(ds.size()), chunk = (n + parts - 1) / parts;
  for (int k = 0; k < parts; ++k) {
    const int lo = k * chunk, m = lo < n ? std::min(chunk, n - lo) : 0;
    if (m == 0)
      continue;
    Pointer<int> part = allocate<int>(std::size_t(m), ds[k]);
    hpp::launchKernel(ds[k], hpp_fill_pfor0, Range<1>(m), part, lo);
    copy(all, std::size_t(lo), part, 0, std::size_t(m));
    deallocate(part);
  }
  bool Ok = true;
  for (int i = 0; i < n; ++i)
    Ok &= all[i] == i;
  std::printf("split: %d values %s\n", n, verdict(Ok));
  deallocate(all);
}

/// inc on the first device, copyAsync to the last, square there.
static void chain(int n) {
  const Device first = Device(0), last = Device(getDeviceCount() - 1);
  Pointer<int> a = allocate<int>(std::size_t(n), first);
  Pointer<int> b = allocate<int>(std::size_t(n), last);
  hpp::launchKernel(first, hpp_fill_pfor0, Range<1>(n), a, 10);
  Task<void, Index<1>> inc(hpp::detail::taskKernel(hpp_inc_task0, a));
  Task<int, Index<1>> square(hpp::detail::taskKernel(hpp_square_task0, b));
  Future<void> f = inc.enqueue(first, Range<1>(n));
  Future<void> c = copyAsync(b, 0, a, 0, std::size_t(n), f);
  Future<std::vector<int>> g = square.enqueue(last, Range<1>(n), c);
  std::vector<int> v = g.get();
  bool Ok = int(v.size()) == n;
  for (int i = 0; Ok && i < n; ++i)
    Ok = v[i] == (11 + i) * (11 + i) && b[i] == 11 + i;
  std::printf("chain: %d values %s\n", n, verdict(Ok));
  deallocate(a);
  deallocate(b);
}

/// A kernel on the last device writes the first device's memory.
static void peer(int n) {
  const Device first = Device(0), last = Device(getDeviceCount() - 1);
  Pointer<int> a = allocate<int>(std::size_t(n), first);
  enablePeerAccess(last, first);
  enablePeerAccess(last, first); // Twice is harmless.
  hpp::launchKernel(last, hpp_fill_pfor0, Range<1>(n), a, 5);
  bool Ok = canAccessPeer(last, first) && canAccessPeer(first, first);
  for (int i = 0; i < n; ++i)
    Ok &= a[i] == 5 + i;
  std::printf("peer: %d values %s\n", n, verdict(Ok));
  deallocate(a);
}

/// The forms without a device: the default device.
static void plain(int n) {
  Pointer<int> a = allocate<int>(std::size_t(n));
  hpp::launchKernel(hpp_fill_pfor0, Range<1>(n), a, 1);
  Task<int, Index<1>> square(hpp::detail::taskKernel(hpp_square_task0, a));
  std::vector<int> v = square.enqueue(Range<1>(n)).get();
  bool Ok = a.getDevice() == getDefaultDevice();
  for (int i = 0; i < n; ++i)
    Ok &= v[i] == (1 + i) * (1 + i);
  std::printf("plain: %d values on the default device %s\n", n, verdict(Ok));
  deallocate(a);
}

/// hpp::reduce over memory of the last device.
static void reduceLast(int n) {
  Pointer<int> a = allocate<int>(std::size_t(n), Device(getDeviceCount() - 1));
  hpp::launchKernel(a.getDevice(), hpp_fill_pfor0, Range<1>(n), a, 0);
  const int Sum = hpp::reduce(a, std::size_t(n));
  std::printf("reduce: %d %s\n", Sum, verdict(Sum == n * (n - 1) / 2));
  deallocate(a);
}

/// The misuses (run with two devices or more, but for `one`).
static void errors() {
  const int n = 8;
  Pointer<int> a0 = allocate<int>(n, Device(0));
  // A forgotten copy: memory of device 0 in a kernel on device 1.
  try {
    hpp::launchKernel(Device(1), hpp_fill_pfor0, Range<1>(n), a0, 0);
    std::printf("forgotten copy: no error\n");
  } catch (const RuntimeError &E) {
    report(E);
  }
  // The same in a task; a copyAsync after it does not happen and fails
  // the same way.
  Pointer<int> d1 = allocate<int>(n, Device(1));
  Task<void, Index<1>> inc(hpp::detail::taskKernel(hpp_inc_task0, a0));
  Future<void> f = inc.enqueue(Device(1), Range<1>(n));
  Future<void> c = copyAsync(d1, 0, a0, 0, n, f);
  try {
    c.wait();
    std::printf("copy after a failed task: no error\n");
  } catch (const RuntimeError &E) {
    report(E);
  }
  std::printf("destination untouched: %s\n",
              d1[0] == 0 && d1[n - 1] == 0 ? "yes" : "no");
  try {
    f.wait();
  } catch (const RuntimeError &E) {
    report(E);
  }
  std::printf("canAccessPeer(1, 0): %d\n",
              int(canAccessPeer(Device(1), Device(0))));
  try {
    enablePeerAccess(Device(1), Device(0));
    hpp::launchKernel(Device(1), hpp_fill_pfor0, Range<1>(n), a0, 3);
    std::printf("after enablePeerAccess: a0[7] = %d\n", a0[7]);
  } catch (const RuntimeError &E) {
    report(E);
  }
  // Devices that do not exist, copies out of range.
  try {
    allocate<int>(4, Device(9));
  } catch (const RuntimeError &E) {
    report(E);
  }
  try {
    hpp::launchKernel(Device(-1), hpp_fill_pfor0, Range<1>(n), a0, 0);
  } catch (const RuntimeError &E) {
    report(E);
  }
  try {
    inc.enqueue(Device(5), Range<1>(n)).wait();
  } catch (const RuntimeError &E) {
    report(E);
  }
  try {
    copy(d1, 4, a0, 0, n);
  } catch (const RuntimeError &E) {
    report(E);
  }
  try {
    copyAsync(d1, 0, a0, 1, n).wait();
  } catch (const RuntimeError &E) {
    report(E);
  }
  deallocate(a0);
  deallocate(d1);
}

/// The default device (HPP_DEVICE).
static void defaults() {
  try {
    const Device d = getDefaultDevice();
    Pointer<int> a = allocate<int>(4);
    hpp::launchKernel(hpp_fill_pfor0, Range<1>(4), a, 2);
    std::printf("default: %d, allocate on %d, a[3] = %d\n", d.getId(),
                a.getDevice().getId(), a[3]);
    deallocate(a);
  } catch (const RuntimeError &E) {
    report(E);
  }
}

int main(int argc, char **argv) {
  const std::string Mode = argc > 1 ? argv[1] : "";
  if (Mode == "errors") {
    errors();
    return 0;
  }
  if (Mode == "default") {
    defaults();
    return 0;
  }
  std::printf("devices: %s\n", int(getDevices().size()) == getDeviceCount()
                                   ? "listed"
                                   : "MISMATCH");
  split(1000);
  chain(777);
  peer(500);
  plain(300);
  reduceLast(1000);
  return 0;
}
