// A kernel that captures a Channel by reference writes through a writer
// whose launch needs the most values one work-item writes (the device
// runtime reserves the launch's storage from it): hpp-channel refuses what
// it cannot count, at the use. A write inside a loop, in a nested lambda
// or in a body with goto; a use of the channel other than write(v) and
// size() (an argument of a function, its address, another member); a
// Channel parameter or local in device code; a pointer to a channel
// captured by value; host writes; channels of a dependent type.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out

#include <hpp/hpp.h>

using namespace hpp;

__device(hpp) void put(Channel<int> &ch, int v) { ch.write(v); }
// CHECK-MESSAGES-DAG: channel-writes.cpp:[[@LINE-1]]:38: error: 'ch' of type 'Channel<int> &' is a parameter of device code: the rewriter counts a kernel's channel writes in the lambda that captures the channel by reference (the device runtime reserves each launch's storage from that count); write into the channel there [hpp-channel]

void loops(Channel<int> &c, Pointer<int> in, int n) {
  parallelFor(Range<1>(n), [=, &c](Index<1> i) __device(hpp) {
    for (int k = 0; k < 2; ++k)
      c.write(in[i] + k);
    // CHECK-MESSAGES-DAG: channel-writes.cpp:[[@LINE-1]]:9: error: a write into 'c' inside a loop: the rewriter cannot bound how many values one work-item writes, and the device runtime reserves each launch's channel storage from the most values one work-item writes, which the rewriter counts; write a fixed number of times, outside loops [hpp-channel]
    int k = 0;
    while (k < in[i]) {
      if (k++ % 2)
        c.write(k);
      // CHECK-MESSAGES-DAG: channel-writes.cpp:[[@LINE-1]]:11: error: a write into 'c' inside a loop{{.*}}[hpp-channel]
    }
  });
}

void otherUses(Channel<int> &c, Pointer<int> in, int n) {
  parallelFor(Range<1>(n), [=, &c](Index<1> i) __device(hpp) {
    put(c, in[i]);
    // CHECK-MESSAGES-DAG: channel-writes.cpp:[[@LINE-1]]:9: error: this use of the channel 'c' is not supported in device code: a kernel may only call c.write(v) and c.size() (the device runtime reserves each launch's channel storage from the most values one work-item writes, which the rewriter counts, and cannot follow the channel elsewhere) [hpp-channel]
    Channel<int> *p = &c;
    // CHECK-MESSAGES-DAG: channel-writes.cpp:[[@LINE-1]]:24: error: this use of the channel 'c' is not supported in device code{{.*}}[hpp-channel]
    // CHECK-MESSAGES-DAG: channel-writes.cpp:[[@LINE-2]]:19: error: 'p' of type 'Channel<int> *' is declared in device code: a channel is made on the host, and a kernel reaches it through a by-reference capture [hpp-channel]
    (void)p;
    if (c.capacity() > 4)
      // CHECK-MESSAGES-DAG: channel-writes.cpp:[[@LINE-1]]:11: error: 'c.capacity' in device code: a kernel may only call write(v) and size() on a channel [hpp-channel]
      c.write(1);
  });
}

void nested(Channel<int> &c, Pointer<int> in, int n) {
  parallelFor(Range<1>(n), [=, &c](Index<1> i) __device(hpp) {
    auto twice = [&](int v) {
      c.write(v);
      // CHECK-MESSAGES-DAG: channel-writes.cpp:[[@LINE-1]]:7: error: a lambda inside the kernel uses the channel 'c': the rewriter cannot count how often it writes, and the device runtime reserves each launch's channel storage from the most values one work-item writes, which the rewriter counts; write in the kernel's own body [hpp-channel]
    };
    twice(in[i]);
    twice(in[i] + 1);
  });
}

void withGoto(Channel<int> &c, Pointer<int> in, int n) {
  parallelFor(Range<1>(n), [=, &c](Index<1> i) __device(hpp) {
    int k = 0;
  again:
    c.write(in[i] + k);
    if (++k < 3)
      goto again;
    // CHECK-MESSAGES-DAG: channel-writes.cpp:[[@LINE-1]]:7: error: the kernel writes into 'c' and uses goto, which can run a write again: the rewriter cannot bound how many values one work-item writes, and the device runtime reserves each launch's channel storage from the most values one work-item writes, which the rewriter counts [hpp-channel]
  });
}

void pointers(Channel<int> &c, Pointer<int> in, int n) {
  Channel<int> *cp = &c;
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) { cp->write(in[i]); });
  // CHECK-MESSAGES-DAG: channel-writes.cpp:[[@LINE-1]]:60: error: 'cp' of type 'Channel<int> *' is captured by value: device code reaches a channel only through a by-reference capture of the Channel itself ([&c]), whose writes the rewriter counts [hpp-channel]
  c.write(1);
  // CHECK-MESSAGES-DAG: channel-writes.cpp:[[@LINE-1]]:5: error: Channel::write in host code is not supported by the rewriter: on the device runtime a channel is written by kernels (a parallelFor or consumer that captures it by reference), and the host has only its size() and executeWith [hpp-channel]
  std::size_t left = c.size(); // The host's size(): fine.
  (void)left;
}

template <class T> void produce(Channel<T> &c, Pointer<T> in, int n) {
  // CHECK-MESSAGES-DAG: channel-writes.cpp:[[@LINE-1]]:45: error: 'c' has type 'Channel<T> &': channels of a dependent type (a Channel<T> in a template) are not supported by the rewriter yet; use a concrete Channel type [hpp-channel]
  parallelFor(Range<1>(n), [=, &c](Index<1> i) __device(hpp) { c.write(in[i]); });
  // CHECK-MESSAGES-DAG: channel-writes.cpp:[[@LINE-1]]:66: error: this use of Channel::write: channels of a dependent type{{.*}}[hpp-channel]
}

void callProduce(Channel<int> &c, Pointer<int> in) { produce(c, in, 8); }
