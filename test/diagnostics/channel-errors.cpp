// What hpp-channel cannot lower in a consumer is an error at the right
// place, and nothing is written: a consumer that is not a lambda written in
// the call, an executeWith or a consumer written through a macro,
// executeWith in device code, a batch parameter that is neither
// std::vector<T> nor Span<T>, a std::vector batch used as what the Span it
// becomes is not (push_back, a copy into a std::vector, an argument for a
// std::vector parameter, a modification of the work-item's copy; through
// pointers and iterators: channel-batch-pointers.cpp), a consumer without
// __device(hpp); and a Task that writes a channel as a parallelFor may not
// (here in a loop: a Task's writes are lowered, and checked, as a
// parallelFor's). A consumer that captures its own channel is lowered:
// test/rewrite/channel-self.cpp.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out

#include <hpp/hpp.h>

#include <vector>

using namespace hpp;

#define EXECUTE(ch, body)                                                      \
  ch.executeWith([=](Channel<int> *p) -> bool __device(coord) {                \
    return p->size() >= 4;                                                     \
  }, Range<1>(4), body)
#define CONSUMER [=](Index<1> i, Span<int> d) __device(hpp) { out[i] = d[i]; }

__device(hpp) int sum(const std::vector<int> &v) {
  int S = 0;
  for (int x : v)
    S += x;
  return S;
}

void notLiteral(Pointer<int> out) {
  Channel<int> c(8);
  auto body = [=](Index<1> i, Span<int> d) __device(hpp) { out[i] = d[i]; };
  c.executeWith([=](Channel<int> *p) -> bool __device(coord) { return p->size() >= 4; },
                Range<1>(4), body);
  // CHECK-MESSAGES: channel-errors.cpp:[[@LINE-1]]:30: error: the consumer of executeWith must be a lambda expression written in the call, its last argument [hpp-channel]
}

void throughMacros(Pointer<int> out) {
  Channel<int> c(8);
  EXECUTE(c, [=](Index<1> i, Span<int> d) __device(hpp) { out[i] = d[i]; });
  // CHECK-MESSAGES: channel-errors.cpp:[[@LINE-1]]:3: error: cannot rewrite an executeWith written through a macro; expand the macro at this call by hand [hpp-channel]
  Channel<int> e(8);
  e.executeWith([=](Channel<int> *p) -> bool __device(coord) { return p->size() >= 4; },
                Range<1>(4), CONSUMER);
  // CHECK-MESSAGES: channel-errors.cpp:[[@LINE-1]]:30: error: cannot outline a consumer written through a macro; write the lambda in the executeWith call [hpp-channel]
}

void batchSpelling(Pointer<int> out) {
  Channel<int> c(8);
  c.executeWith([=](Channel<int> *p) -> bool __device(coord) { return p->size() >= 4; },
                Range<1>(4), [=](Index<1> i, auto d) __device(hpp) { out[i] = d[i]; });
  // CHECK-MESSAGES: channel-errors.cpp:[[@LINE-1]]:46: error: the consumer's batch parameter must be a std::vector<int> or a Span<int> (by value or const reference), not 'auto': the rewritten consumer receives the batch as an hpp::Span [hpp-channel]
}

void batchUses(Pointer<int> out) {
  Channel<int> c(8);
  c.executeWith([=](Channel<int> *p) -> bool __device(coord) { return p->size() >= 4; },
                Range<1>(4), [=](Index<1> i, std::vector<int> data) __device(hpp) {
                  data.push_back(1);
                  // CHECK-MESSAGES: channel-errors.cpp:[[@LINE-1]]:24: error: 'data.push_back' is not available on the batch: the rewritten consumer receives it as an hpp::Span<int>, which has size(), empty(), data(), [], begin() and end() [hpp-channel]
                  std::vector<int> copy = data;
                  // CHECK-MESSAGES: channel-errors.cpp:[[@LINE-1]]:43: error: this use of the batch 'data' is not supported: the rewritten consumer receives the batch as an hpp::Span<int> (size(), empty(), data(), [], begin(), end(), a range-for), which is not a std::vector and cannot be copied into or passed as one; use its elements [hpp-channel]
                  out[i] = sum(data) + int(copy.size());
                  // CHECK-MESSAGES: channel-errors.cpp:[[@LINE-1]]:32: error: this use of the batch 'data' is not supported{{.*}}[hpp-channel]
                  data[i] = 0;
                  // CHECK-MESSAGES: channel-errors.cpp:[[@LINE-1]]:27: error: this modifies the consumer's copy of the batch: 'data' is a std::vector by value, one copy per work-item, but the rewritten consumer reads the launch's batch in place (an hpp::Span<int>); copy the element into a local variable [hpp-channel]
                  for (int &v : data)
                    // CHECK-MESSAGES: channel-errors.cpp:[[@LINE-1]]:29: error: this modifies the consumer's copy of the batch{{.*}}[hpp-channel]
                    ++v;
                  // What a Span has is fine.
                  for (int v : data)
                    out[i] += v + int(data.size()) + int(data.empty());
                  out[i] += *data.data() + *data.begin() + data.end()[-1];
                });
  // A const batch cannot be modified: copying it is the only problem.
  c.executeWith([=](Channel<int> *p) -> bool __device(coord) { return p->size() >= 4; },
                Range<1>(4), [=](Index<1> i, const std::vector<int> &data) __device(hpp) {
                  out[i] = sum(data) + data[i];
                  // CHECK-MESSAGES: channel-errors.cpp:[[@LINE-1]]:32: error: this use of the batch 'data'{{.*}}[hpp-channel]
                });
}

void notMarked(Pointer<int> out) {
  Channel<int> c(8);
  c.executeWith([=](Channel<int> *p) -> bool __device(coord) { return p->size() >= 4; },
                Range<1>(4), [=](Index<1> i, Span<int> d) { out[i] = d[i]; });
  // CHECK-MESSAGES: channel-errors.cpp:[[@LINE-1]]:30: error: the consumer lambda of executeWith is not marked '__device(hpp)' [hpp-missing-device-annotation]
}

void taskWrites(Pointer<int> in) {
  Channel<int> c(8);
  Task<void, Index<1>> t([=, &c](Index<1> i) __device(hpp) {
    for (int k = 0; k < in[i]; ++k)
      c.write(k);
    // CHECK-MESSAGES: channel-errors.cpp:[[@LINE-1]]:9: error: a write into 'c' inside a loop: the rewriter cannot bound how many values one work-item writes{{.*}}[hpp-channel]
  });
  t.enqueue(Range<1>(8)).wait();
}

__device(hpp) void inDevice(Pointer<int> out, Channel<int> &c) {
  // CHECK-MESSAGES-DAG: channel-errors.cpp:[[@LINE-1]]:61: error: 'c' of type 'Channel<int> &' is a parameter of device code{{.*}}[hpp-channel]
  c.executeWith([=](Channel<int> *p) -> bool __device(coord) { return p->size() >= 4; },
                Range<1>(4), [=](Index<1> i, Span<int> d) __device(hpp) { out[i] = d[i]; });
  // CHECK-MESSAGES-DAG: channel-errors.cpp:[[@LINE-2]]:5: error: executeWith inside device code cannot be rewritten: its consumer is launched from the host (HIP has no launch from device code); call it in host code [hpp-channel]
}
