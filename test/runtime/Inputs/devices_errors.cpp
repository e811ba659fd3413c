//===- test/runtime/Inputs/devices_errors.cpp - Misusing devices ----------===//
//
// Part of hpp-rewrite. Input of devices-runtime.test.
//
//===----------------------------------------------------------------------===//
//
// The misuses of docs/devices.md, as a dialect program: built with the
// reference runtime and, rewritten, with the device runtime's CPU backend,
// both must print the same (each error with this file's path cut to its
// name): a forgotten copy in a parallelFor and in a task, a copyAsync
// after the failed task (not done, failing the same way), peer access
// (refused under HPP_CPU_PEER=0), devices that do not exist, copies out of
// range, and the default device (HPP_DEVICE).
//
//===----------------------------------------------------------------------===//
#include <hpp/hpp.h>

#include <cstdio>
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

/// The misuses that need a second device.
static void twoDevices() {
  const std::size_t n = 8;
  Pointer<int> a0 = allocate<int>(n, Device(0));
  try {
    parallelFor(Device(1), Range<1>(n),
                [=](Index<1> i) __device(hpp) { a0[i] = int(i); });
    std::printf("forgotten copy: no error\n");
  } catch (const RuntimeError &E) {
    report(E);
  }
  Pointer<int> d1 = allocate<int>(n, Device(1));
  Task<void, Index<1>> inc([=](Index<1> i) __device(hpp) { a0[i] += 1; });
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
    parallelFor(Device(1), Range<1>(n),
                [=](Index<1> i) __device(hpp) { a0[i] = 3 + int(i); });
    std::printf("after enablePeerAccess: a0[7] = %d\n", a0[7]);
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

/// Devices that do not exist.
static void noSuchDevice() {
  const std::size_t n = 8;
  Pointer<int> a = allocate<int>(n);
  try {
    allocate<int>(4, Device(9));
  } catch (const RuntimeError &E) {
    report(E);
  }
  try {
    parallelFor(Device(4), Range<1>(n),
                [=](Index<1> i) __device(hpp) { a[i] = 1; });
  } catch (const RuntimeError &E) {
    report(E);
  }
  Task<int, Index<1>> get([=](Index<1> i) __device(hpp) { return a[i]; });
  try {
    get.enqueue(Device(5), Range<1>(n)).wait();
  } catch (const RuntimeError &E) {
    report(E);
  }
  try {
    enablePeerAccess(Device(0), Device(3));
  } catch (const RuntimeError &E) {
    report(E);
  }
  deallocate(a);
}

/// The default device: where allocate<T>(n), parallelFor and enqueue
/// without a device go.
static void defaults() {
  try {
    const Device d = getDefaultDevice();
    Pointer<int> a = allocate<int>(4);
    parallelFor(Range<1>(4), [=](Index<1> i) __device(hpp) { a[i] = 2 + i; });
    Task<int, Index<1>> twice(
        [=](Index<1> i) __device(hpp) { return 2 * a[i]; });
    std::vector<int> v = twice.enqueue(Range<1>(4)).get();
    std::printf("default: %d, allocate on %d, a[3] = %d, v[3] = %d\n",
                d.getId(), a.getDevice().getId(), a[3], v[3]);
    deallocate(a);
  } catch (const RuntimeError &E) {
    report(E);
  }
}

int main(int argc, char **argv) {
  const std::string Mode = argc > 1 ? argv[1] : "";
  if (Mode == "two")
    twoDevices();
  else if (Mode == "none")
    noSuchDevice();
  else
    defaults();
  return 0;
}
