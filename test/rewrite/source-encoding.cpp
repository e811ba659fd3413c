// RUN: %hpp_rewrite %S/Inputs/latin1.cpp -o %t.cpp 2> %t.err
// RUN: not grep -E 'error|hpp-' %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %cxx -I%hpp_include %S/Inputs/latin1.cpp -o %t.ref
// RUN: %cxx_runtime %t.cpp -o %t.gen
// RUN: env HPP_CPU_MVECTOR=32 %t.ref > %t.ref.out
// RUN: env HPP_CPU_MVECTOR=64 %t.gen | cmp %t.ref.out -
// RUN: %hpp_rewrite %t.cpp | cmp %t.cpp -
// RUN: %gpu_check %t.cpp
// A byte that is not UTF-8 in a literal (a Latin-1 file's é, 0xE9) is what
// nvcc refuses anywhere in a file; g++ keeps the byte. In the output each
// such byte is its octal escape, the same byte: host and device literals,
// a char literal, a macro's definition, a skipped branch, an escape
// followed by a digit; well-formed UTF-8 (\xc3\xa9) stays as written. The
// program prints the same bytes as the reference.
// CHECK: #define GREETING "h\351"
// CHECK: const char *s = "\351t\351";
// CHECK: char c = '\351';
// CHECK: const char *host = "caf\351 {{.}}{{.}}t\351 \3517";
// CHECK: const char *never = "\377";
