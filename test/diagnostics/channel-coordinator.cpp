// The coordinator of executeWith stays host code as written, but must be a
// pure function of the channel's size: a lambda written in the call, with
// nothing captured by reference, one `Channel<T> *` parameter of the
// channel's T, and no calls but its parameter's size(), constexpr
// functions and __device(hpp) functions. One without `__device(coord)` is
// a warning with a fix-it. The paper's `-> bool __device(coord)` parses
// without a warning (include/hpp/cpu/annotations.h), while a
// `__device(hpp)` after a trailing return type still gets clang's. A
// coordinator has no state: not `mutable`, no static or thread-local
// variable, no variable of the program that is not a constant, no memory
// behind a pointer (the reference evaluates it after each write, the
// device runtime once per size: a stateful one would batch differently).
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out
// RUN: not %hpp_rewrite %s 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: not %hpp_rewrite %s -- -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=FIXIT
// RUN: not %hpp_rewrite %s -- -DMISPLACED 2>&1 | FileCheck %s --check-prefix=MISPLACED

#include <hpp/hpp.h>

#include <algorithm>

using namespace hpp;

bool enough(std::size_t n);
int Threshold = 4;
const int Fixed = 0;
int *Limit = &Threshold;
constexpr bool big(std::size_t n) { return n >= 4; }
__device(hpp) bool full(std::size_t n) { return n >= 8; }

void coordinators(Pointer<int> out) {
  Channel<int> c(8);
  auto consumer = [=](Index<1> i, Span<int> d) __device(hpp) { out[i] = d[i]; };
  (void)consumer;
  std::size_t limit = 4;
  // The paper's form, and the form before the return type: no diagnostic.
  c.executeWith([=](Channel<int> *p) -> bool __device(coord) {
                  return p->size() >= std::min<std::size_t>(limit, 8) &&
                         big(p->size()) && !full((*p).size());
                },
                Range<1>(4), [=](Index<1> i, Span<int> d) __device(hpp) { out[i] = d[i]; });
  Channel<int> e(8);
  e.executeWith([=](Channel<int> *p) __device(coord) -> bool { return p->size() >= limit; },
                Range<1>(4), [=](Index<1> i, Span<int> d) __device(hpp) { out[i] = d[i]; });
  // QUIET-NOT: Wignored-attributes

  Channel<int> f(8);
  auto pred = [=](Channel<int> *p) -> bool __device(coord) { return p->size() >= 4; };
  f.executeWith(pred, Range<1>(4), [=](Index<1> i, Span<int> d) __device(hpp) { out[i] = d[i]; });
  // CHECK-MESSAGES: channel-coordinator.cpp:[[@LINE-1]]:17: error: the coordinator of executeWith must be a lambda written in the call, `[=](Channel<int> *c) -> bool __device(coord) { ... }`: the rewriter checks that it is a pure function of c->size() [hpp-channel]

  Channel<int> g(8);
  g.executeWith([&limit](Channel<int> *p) -> bool __device(coord) { return p->size() >= limit; },
                Range<1>(4), [=](Index<1> i, Span<int> d) __device(hpp) { out[i] = d[i]; });
  // CHECK-MESSAGES: channel-coordinator.cpp:[[@LINE-2]]:19: error: the coordinator captures 'limit' by reference, which is host state: a coordinator is a pure function of c->size() and of what it captures by value (the runtime evaluates it ahead of the launches); capture it by value [hpp-channel]
  Channel<int> h(8);
  h.executeWith([&](Channel<int> *p) -> bool __device(coord) { return p->size() >= limit; },
                Range<1>(4), [=](Index<1> i, Span<int> d) __device(hpp) { out[i] = d[i]; });
  // CHECK-MESSAGES: channel-coordinator.cpp:[[@LINE-2]]:84: error: the coordinator captures 'limit' by reference{{.*}}[hpp-channel]

  Channel<int> k(8);
  k.executeWith([=](Channel<int> *p) -> bool __device(coord) { return enough(p->size()); },
                Range<1>(4), [=](Index<1> i, Span<int> d) __device(hpp) { out[i] = d[i]; });
  // CHECK-MESSAGES: channel-coordinator.cpp:[[@LINE-2]]:71: error: the coordinator calls 'enough', which is not device code; a coordinator may call only its parameter's size(), constexpr functions and __device(hpp) functions: it is a pure function of the channel's size, which the runtime evaluates ahead of the launches [hpp-channel]
  Channel<int> m(8);
  m.executeWith([=](Channel<int> *p) -> bool __device(coord) { return p->capacity() > 4; },
                Range<1>(4), [=](Index<1> i, Span<int> d) __device(hpp) { out[i] = d[i]; });
  // CHECK-MESSAGES: channel-coordinator.cpp:[[@LINE-2]]:74: error: the coordinator calls 'hpp::Channel<int>::capacity', which is not device code{{.*}}[hpp-channel]

  Channel<int> n(8);
  n.executeWith([=](void *p) -> bool __device(coord) { return p != nullptr; },
                Range<1>(4), [=](Index<1> i, Span<int> d) __device(hpp) { out[i] = d[i]; });
  // CHECK-MESSAGES: channel-coordinator.cpp:[[@LINE-2]]:21: error: the coordinator's parameter must be 'Channel<int> *', a pointer to this channel's type, not 'void *' [hpp-channel]
  Channel<int> q(8);
  q.executeWith([=](auto *p) -> bool __device(coord) { return p->size() >= 4; },
                Range<1>(4), [=](Index<1> i, Span<int> d) __device(hpp) { out[i] = d[i]; });
  // CHECK-MESSAGES: channel-coordinator.cpp:[[@LINE-2]]:21: error: the coordinator's parameter must be 'Channel<int> *', a pointer to this channel's type, not 'auto *' [hpp-channel]

  Channel<int> r(8);
  r.executeWith([=](Channel<int> *p) -> bool { return p->size() >= 4; },
                Range<1>(4), [=](Index<1> i, Span<int> d) __device(hpp) { out[i] = d[i]; });
  // CHECK-MESSAGES: channel-coordinator.cpp:[[@LINE-2]]:17: warning: the coordinator is not marked '__device(coord)' [hpp-channel]
  // FIXIT: fix-it:"{{.*}}channel-coordinator.cpp":{[[@LINE-3]]:46-[[@LINE-3]]:46}:"__device(coord) "
}

void stateful(Pointer<int> out, Pointer<int> sizes) {
  Channel<int> s1(64);
  int seen = 0;
  s1.executeWith([=](Channel<int> *p) mutable -> bool __device(coord) { return ++seen % 4 == 0; },
                 Range<1>(1), [=](Index<1> i, Span<int> d) __device(hpp) { out[i] = d[0]; });
  // CHECK-MESSAGES: channel-coordinator.cpp:[[@LINE-2]]:18: error: the coordinator is 'mutable': its captures are state that changes between evaluations{{.*}}; remove 'mutable' [hpp-channel]
  Channel<int> s2(64);
  s2.executeWith([=](Channel<int> *p) -> bool __device(coord) {
                   static int calls = 0;
                   thread_local int more = 0;
                   return p->size() >= 4 + calls + more;
                 },
                 Range<1>(1), [=](Index<1> i, Span<int> d) __device(hpp) { out[i] = d[0]; });
  // CHECK-MESSAGES: channel-coordinator.cpp:[[@LINE-5]]:31: error: the coordinator declares the static variable 'calls', state kept between evaluations: a coordinator is a pure function of c->size() and of what it captures by value, which the runtime evaluates once per size ahead of the launches, not after each write [hpp-channel]
  // CHECK-MESSAGES: channel-coordinator.cpp:[[@LINE-5]]:37: error: the coordinator declares the thread-local variable 'more'{{.*}}[hpp-channel]
  Channel<int> s3(64);
  s3.executeWith([=](Channel<int> *p) -> bool __device(coord) { return p->size() >= std::size_t(Threshold); },
                 Range<1>(1), [=](Index<1> i, Span<int> d) __device(hpp) { out[i] = d[0]; });
  // CHECK-MESSAGES: channel-coordinator.cpp:[[@LINE-2]]:97: error: the coordinator reads 'Threshold', a variable the program may change{{.*}}[hpp-channel]
  Channel<int> s4(64);
  s4.executeWith([=](Channel<int> *p) -> bool __device(coord) { return p->size() >= std::size_t(sizes[0]) + std::size_t(*Limit); },
                 Range<1>(1), [=](Index<1> i, Span<int> d) __device(hpp) { out[i] = d[0]; });
  // CHECK-MESSAGES: channel-coordinator.cpp:[[@LINE-2]]:102: error: the coordinator calls 'hpp::Pointer<int>::operator[]', which is not device code{{.*}}[hpp-channel]
  // CHECK-MESSAGES: channel-coordinator.cpp:[[@LINE-3]]:121: error: the coordinator reads memory through a pointer{{.*}}[hpp-channel]
  // CHECK-MESSAGES: channel-coordinator.cpp:[[@LINE-4]]:122: error: the coordinator reads 'Limit', a variable the program may change{{.*}}[hpp-channel]
  // Constants and copies are no state.
  Channel<int> s5(64);
  const int Four = 4;
  s5.executeWith([=](Channel<int> *p) -> bool __device(coord) { return p->size() >= std::size_t(Four + Fixed); },
                 Range<1>(1), [=](Index<1> i, Span<int> d) __device(hpp) { out[i] = d[0]; });
  // CHECK-MESSAGES-NOT: channel-coordinator.cpp:[[@LINE-2]]:{{.*}}error
}

#ifdef MISPLACED
void misplaced(Pointer<int> out) {
  parallelFor(Range<1>(4), [=](Index<1> i) -> void __device(hpp) { out[i] = 0; });
  // MISPLACED: channel-coordinator.cpp:[[@LINE-1]]:52: warning: 'annotate' attribute ignored when parsing type [-Wignored-attributes]
  // MISPLACED: channel-coordinator.cpp:[[@LINE-2]]:28: error: the lambda passed to parallelFor is not marked '__device(hpp)' [hpp-missing-device-annotation]
}
#endif
