// A consumer's std::vector<T> batch taken by value is each work-item's own
// copy in the reference, and the launch's shared batch (an hpp::Span<T>) in
// the rewrite: hpp-channel refuses whatever may modify the copy, through a
// pointer or iterator into it too (data.data(), data.begin(), data.end(),
// &data[k]) or through a non-const reference to an element. Reading through
// them where they are made, comparing them, subtracting them, and pointers
// to const are fine: nothing else is reported. A const batch or a Span is
// never reported for these.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not="{{warning|error}}:"
// RUN: not test -e %t.out

#include <hpp/hpp.h>

#include <vector>

using namespace hpp;

struct Pair {
  int a, b;
  __device(hpp) void reset() { a = b = 0; }
  __device(hpp) int sum() const { return a + b; }
};

__device(hpp) void zero(int *p) { *p = 0; }
__device(hpp) int first(const int *p) { return *p; }
__device(hpp) void bump(int &x) { ++x; }
__device(hpp) int peek(const int &x) { return x; }

void writes(Pointer<int> out) {
  Channel<int> c(8);
  c.executeWith([=](Channel<int> *p) -> bool __device(coord) { return p->size() >= 4; },
                Range<1>(4), [=](Index<1> i, std::vector<int> data) __device(hpp) {
                  *data.data() = 1;
                  // CHECK-MESSAGES: channel-batch-pointers.cpp:[[@LINE-1]]:32: error: this modifies the consumer's copy of the batch: 'data' is a std::vector by value, one copy per work-item, but the rewritten consumer reads the launch's batch in place (an hpp::Span<int>); copy the element into a local variable [hpp-channel]
                  data.begin()[1] += 2;
                  // CHECK-MESSAGES: channel-batch-pointers.cpp:[[@LINE-1]]:35: error: this modifies the consumer's copy of the batch{{.*}}[hpp-channel]
                  int *p = data.data();
                  // CHECK-MESSAGES: channel-batch-pointers.cpp:[[@LINE-1]]:33: error: this may write through a pointer or iterator into the consumer's copy of the batch: 'data' is a std::vector by value, one copy per work-item, but the rewritten consumer reads the launch's batch in place (an hpp::Span<int>); read the element in the same expression (*data.begin(), data.data()[k]), keep a pointer to const (const int *p = data.data()), or take the batch as 'const std::vector<int> &' [hpp-channel]
                  auto it = data.begin() + 1;
                  // CHECK-MESSAGES: channel-batch-pointers.cpp:[[@LINE-1]]:34: error: this may write through a pointer or iterator{{.*}}[hpp-channel]
                  zero(data.data());
                  // CHECK-MESSAGES: channel-batch-pointers.cpp:[[@LINE-1]]:29: error: this may write through a pointer or iterator{{.*}}[hpp-channel]
                  int *q = &data[2];
                  // CHECK-MESSAGES: channel-batch-pointers.cpp:[[@LINE-1]]:29: error: this may write through a pointer or iterator{{.*}}[hpp-channel]
                  int &r = *data.begin();
                  // CHECK-MESSAGES: channel-batch-pointers.cpp:[[@LINE-1]]:24: error: this modifies the consumer's copy of the batch{{.*}}[hpp-channel]
                  bump(data[3]);
                  // CHECK-MESSAGES: channel-batch-pointers.cpp:[[@LINE-1]]:24: error: this may modify an element of the consumer's copy of the batch (a non-const reference to it, or a non-const member function called on it): 'data' is a std::vector by value, one copy per work-item, but the rewritten consumer reads the launch's batch in place (an hpp::Span<int>); copy the element into a local variable [hpp-channel]
                  out[i] = *p + *it + *q + r;
                });
}

void structs(Pointer<int> out) {
  Channel<Pair> c(8);
  c.executeWith([=](Channel<Pair> *p) -> bool __device(coord) { return p->size() >= 4; },
                Range<1>(4), [=](Index<1> i, std::vector<Pair> data) __device(hpp) {
                  data[0].a = 1;
                  // CHECK-MESSAGES: channel-batch-pointers.cpp:[[@LINE-1]]:29: error: this modifies the consumer's copy of the batch{{.*}}[hpp-channel]
                  data.begin()->b = 2;
                  // CHECK-MESSAGES: channel-batch-pointers.cpp:[[@LINE-1]]:35: error: this modifies the consumer's copy of the batch{{.*}}[hpp-channel]
                  data[1].reset();
                  // CHECK-MESSAGES: channel-batch-pointers.cpp:[[@LINE-1]]:19: error: this may modify an element of the consumer's copy of the batch{{.*}}(an hpp::Span<Pair>); copy the element into a local variable [hpp-channel]
                  // Reads.
                  Pair copy = data[2];
                  out[i] = data[i].sum() + data.begin()->a + data.data()[3].b + copy.a;
                });
}

void reads(Pointer<int> out) {
  Channel<int> c(8);
  c.executeWith([=](Channel<int> *p) -> bool __device(coord) { return p->size() >= 4; },
                Range<1>(4), [=](Index<1> i, std::vector<int> data) __device(hpp) {
                  const int *p = data.data();
                  const int &r = *data.begin();
                  int n = int(data.end() - data.begin());
                  bool nonEmpty = data.begin() != data.end();
                  out[i] = *p + r + n + int(nonEmpty) + first(data.data()) +
                           peek(data[1]) + data.data()[2] + *(data.begin() + 3) +
                           data.end()[-1] + (data.data() == p);
                });
  // Const: the original cannot write through these either.
  Channel<int> d(8);
  d.executeWith([=](Channel<int> *p) -> bool __device(coord) { return p->size() >= 4; },
                Range<1>(4), [=](Index<1> i, const std::vector<int> &data) __device(hpp) {
                  auto it = data.begin();
                  out[i] = *it + first(data.data());
                });
}

// A generic consumer (an `auto` index): the subscript's index is of a
// dependent type, and either side of `[]` may be the batch. Reading is
// fine; writing is reported.
void generic(Pointer<int> out) {
  Channel<int> c(8);
  c.executeWith([=](Channel<int> *p) -> bool __device(coord) { return p->size() >= 4; },
                Range<1>(4), [=](auto i, std::vector<int> data) __device(hpp) {
                  out[i.getX()] = data[i.getX()];
                  data[i.getX()] = 0;
                  // CHECK-MESSAGES: channel-batch-pointers.cpp:[[@LINE-1]]:34: error: this modifies the consumer's copy of the batch{{.*}}[hpp-channel]
                });
}

void spans(Pointer<int> out) {
  Channel<int> c(8);
  c.executeWith([=](Channel<int> *p) -> bool __device(coord) { return p->size() >= 4; },
                Range<1>(4), [=](Index<1> i, Span<int> data) __device(hpp) {
                  int *p = data.data();
                  out[i] = *p;
                });
}
// CHECK-MESSAGES: hpp-rewrite: error: rewriting failed; no output written
