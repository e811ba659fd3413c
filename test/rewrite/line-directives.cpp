// The output keeps the input's line numbers and file name through `#line`
// directives (hpp-source-position): a body moved into a kernel, code after
// inserted kernels and after launches longer than their calls, and body
// lines after an edit that added lines. `__builtin_LINE()` (the runtime's
// default arguments), `__FILE__` and a runtime error's location are the
// input's: the rewritten program prints what the dialect program prints.
// A directive never lands inside a macro's arguments, a raw string, a
// block comment, a continued line or an `#if` block: the next safe line
// gets it.
// RUN: %hpp_rewrite %s -o %t.cpp 2> %t.err
// RUN: %strip_checks %t.cpp | FileCheck %s
// RUN: %strip_checks %t.cpp | FileCheck %s --check-prefix=BODYCHECK
// RUN: %cxx -I %hpp_include %s -o %t.ref
// RUN: env HPP_CPU_MVECTOR=32 %t.ref > %t.ref.out
// RUN: FileCheck %s --check-prefix=OUT --match-full-lines < %t.ref.out
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe > %t.gen32.out
// RUN: env HPP_CPU_MVECTOR=64 %t.exe > %t.gen64.out
// RUN: diff %t.ref.out %t.gen32.out
// RUN: diff %t.ref.out %t.gen64.out
// RUN: %gpu_check %t.cpp
// The program prints the lines of its __LINE__s: the OUT checks below
// name them, so a line added above them moves every one.

#include <hpp/hpp.h>
#include <cstdio>
#include <cstring>
#include <string>
using namespace hpp;

#define SUM2(a, b) ((a) + (b))

/// The line of the call, as the runtime takes its locations.
__device(hpp) inline int here(int Line = __builtin_LINE()) { return Line; }

static std::string baseName(const char *Path) {
  const char *Slash = std::strrchr(Path, '/');
  return Slash ? Slash + 1 : Path;
}

// CHECK: #line [[# @LINE + 2]] "{{.*}}line-directives.cpp"
// CHECK-NEXT: void lines(Pointer<int> out) {
void lines(Pointer<int> out) {
  // BODYCHECK: #line [[# @LINE + 2]] "{{.*}}line-directives.cpp"
  // BODYCHECK-NEXT: {
  parallelFor(Range<1>(64), [=](Index<1> i) __device(hpp) {
    out[0] = here();
    // BODYCHECK: .sync();
    // BODYCHECK-NEXT: #line [[# @LINE + 4]] "{{.*}}line-directives.cpp"
    // BODYCHECK-NEXT: out[1] = here();
    __syncwarp(
        0xffffffff);
    out[1] = here();
    // Where the next line continues a macro's arguments, a block comment,
    // a raw string or a line, newlines after an edit that took lines away
    // keep the count.
    // BODYCHECK: .sync(){{$}}
    // BODYCHECK-NEXT: ; out[2] = SUM2(here(),
    // BODYCHECK-NEXT: here() * 0);
    // BODYCHECK-NEXT: out[3] = here();
    __syncwarp(
        0xffffffff); out[2] = SUM2(here(),
                                   here() * 0);
    out[3] = here();
    // BODYCHECK: .sync(){{$}}
    // BODYCHECK-NEXT: ; /* a block comment
    // BODYCHECK-NEXT: over two lines */ out[4] = here();
    // BODYCHECK-NEXT: out[5] = here();
    __syncwarp(
        0xffffffff); /* a block comment
                        over two lines */ out[4] = here();
    out[5] = here();
    // BODYCHECK: .sync(){{$}}
    // BODYCHECK-NEXT: ; const char *s = R"(x
    // BODYCHECK-NEXT: y)"; out[6] = here() + s[0] * 0;
    // BODYCHECK-NEXT: out[7] = here();
    __syncwarp(
        0xffffffff); const char *s = R"(x
y)"; out[6] = here() + s[0] * 0;
    out[7] = here();
    // BODYCHECK: .sync(){{$}}
    // BODYCHECK-NEXT: ; out[8] = \
    // BODYCHECK-NEXT: here();
    // BODYCHECK-NEXT: out[9] = here();
    __syncwarp(
        0xffffffff); out[8] = \
        here();
    out[9] = here();
    // Inside an #if block, and again after it: a build that skips the
    // block skips its directive.
    // BODYCHECK: #if 1
    // BODYCHECK-NEXT: .sync();
    // BODYCHECK-NEXT: #line [[# @LINE + 7]] "{{.*}}line-directives.cpp"
    // BODYCHECK-NEXT: out[10] = here();
    // BODYCHECK-NEXT: #endif
    // BODYCHECK-NEXT: #line [[# @LINE + 6]] "{{.*}}line-directives.cpp"
#if 1
    __syncwarp(
        0xffffffff);
    out[10] = here();
#endif
    out[11] = here();
  });
  // CHECK: hpp::launchKernel(hpp_lines_pfor0, Range<1>(64), out);
  // CHECK-NEXT: #line [[# @LINE - 1]] "{{.*}}line-directives.cpp"
  out[12] = here();
}

const char *Raw = R"(first
second)";

void barrier(Pointer<int> out) {
  Barrier b(2);
  parallelFor(Range<1>(2), [=, &b](Index<1> i) __device(hpp) {
    if (i.getX() == 0)
      b.wait();
  });
  out[13] = here();
}

int main() {
  Pointer<int> out = allocate<int>(16);
  lines(out);
  for (int k = 0; k < 13; ++k)
    std::printf("line %d\n", out[k]);
  try {
    barrier(out);
  } catch (const RuntimeError &E) {
    std::printf("error at %s:%d\n", baseName(E.file().c_str()).c_str(),
                E.line());
  }
#if 1
  std::printf("host line %d in %s\n", here(), baseName(__FILE__).c_str());
#endif
  std::printf("%s\n", Raw);
  deallocate(out);
}
// OUT: line 47
// OUT-NEXT: line 53
// OUT-NEXT: line 63
// OUT-NEXT: line 64
// OUT-NEXT: line 71
// OUT-NEXT: line 72
// OUT-NEXT: line 79
// OUT-NEXT: line 80
// OUT-NEXT: line 87
// OUT-NEXT: line 88
// OUT-NEXT: line 100
// OUT-NEXT: line 102
// OUT-NEXT: line 106
// OUT-NEXT: error at line-directives.cpp:116
// OUT-NEXT: host line 133 in line-directives.cpp
// OUT-NEXT: first
// OUT-NEXT: second
