// The coordinator of executeWith stays host code as written, but must be a
// pure function of the channel's size: a lambda written in the call, with
// nothing captured by reference, one `Channel<T> *` parameter of the
// channel's T, and no calls but its parameter's size(), constexpr
// functions and __device(hpp) functions. One without `__device(coord)` is
// a warning with a fix-it. The paper's `-> bool __device(coord)` parses
// without a warning (include/hpp/cpu/annotations.h), while a
// `__device(hpp)` after a trailing return type still gets clang's.
// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: not test -e %t.out
// RUN: not %hpp_rewrite %s 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: not %hpp_rewrite %s -- -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=FIXIT
// RUN: not %hpp_rewrite %s -- -DMISPLACED 2>&1 | FileCheck %s --check-prefix=MISPLACED

#include <hpp/hpp.h>

#include <algorithm>

using namespace hpp;

bool enough(std::size_t n);
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

#ifdef MISPLACED
void misplaced(Pointer<int> out) {
  parallelFor(Range<1>(4), [=](Index<1> i) -> void __device(hpp) { out[i] = 0; });
  // MISPLACED: channel-coordinator.cpp:[[@LINE-1]]:52: warning: 'annotate' attribute ignored when parsing type [-Wignored-attributes]
  // MISPLACED: channel-coordinator.cpp:[[@LINE-2]]:28: error: the lambda passed to parallelFor is not marked '__device(hpp)' [hpp-missing-device-annotation]
}
#endif
