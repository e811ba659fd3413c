#!/usr/bin/env python3
"""A stand-in for hpp-rewrite in runner.test: `fake-tool.py SRC -o OUT`.

SRC is test/differential/Inputs/rule.cpp (kernels 1-6 between marker
comments, perhaps blanked out by the runner). OUT is a plain C++ program
that prints, for each kernel still in SRC, the line a rewrite of it would
print at HPP_CPU_MVECTOR=32 and 64 (see rule.cpp). Diagnostics: an
[hpp-test] warning in kernel 5, a compiler warning (no hpp tag) in kernel
4. FAKE_TOOL=refuse-N reports an error in kernel N while it is in SRC and
exits 1; FAKE_TOOL=crash exits with status 3 and no diagnostics.
"""
import os
import sys

# Kernel: (first body line, output at 32, output at 64).
KERNELS = {
    1: (39, "ok", "ok"),
    2: (42, "ok", "MISMATCH at 0: got 1 expected 2"),
    3: (45, "ok", "ok"),
    4: (48, "ok", "MISMATCH at 0: got 64 expected 32"),
    5: (51, "ok", "MISMATCH at 0: got 64 expected 32"),
    6: (54, "MISMATCH at 0: got 1 expected 2", "ok"),
}


def main():
    src, out = sys.argv[1], sys.argv[sys.argv.index("-o") + 1]
    with open(src) as f:
        lines = f.read().split("\n")
    live = [k for k, (line, _, _) in KERNELS.items() if lines[line - 1].strip()]
    mode = os.environ.get("FAKE_TOOL", "")
    if mode == "crash":
        return 3
    if mode.startswith("refuse-"):
        k = int(mode.split("-")[1])
        if k in live:
            sys.stderr.write("%s:%d:1: error: refused for the test [hpp-test]\n"
                             % (src, KERNELS[k][0]))
            return 1
    if 4 in live:
        sys.stderr.write("%s:48:1: warning: a compiler warning [-Wtest]\n" % src)
    if 5 in live:
        sys.stderr.write("%s:51:1: warning: this kernel may be wrong [hpp-test]\n" % src)
    body = ["#include <cstdio>", "#include <cstdlib>", "int main() {",
            '  const char *W = std::getenv("HPP_CPU_MVECTOR");',
            '  const bool Wide = W && std::atoi(W) == 64;']
    for k in live:
        _, at32, at64 = KERNELS[k]
        body.append('  std::printf("kernel %d: %%s\\n", Wide ? "%s" : "%s");' % (k, at64, at32))
    body += ["  return 0;", "}"]
    with open(out, "w") as f:
        f.write("\n".join(body) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
