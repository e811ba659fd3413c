#!/usr/bin/env python3
"""Compiles every example with g++ (-fsyntax-only: the dialect headers and
the example, templates instantiated, no code generation), as the examples'
CMake targets build them: the examples that need the simulated width
compiled in (HPP_CONSTANT_WIDTH_EXAMPLES in examples/CMakeLists.txt) once
at 32 and once at 64, the others as they are.

Usage: gxx-examples.py GXX INCLUDE_DIR EXAMPLES_DIR"""
import glob
import os
import re
import subprocess
import sys


def main():
    gxx, include, examples = sys.argv[1:4]
    with open(os.path.join(examples, "CMakeLists.txt")) as f:
        m = re.search(r"set\(HPP_CONSTANT_WIDTH_EXAMPLES([^)]*)\)", f.read())
    constant = set(m.group(1).split()) if m else set()
    files = sorted(glob.glob(os.path.join(examples, "*.cpp")))
    base = [gxx, "-std=c++17", "-fsyntax-only", "-Wall", "-I", include]
    runs = [base + [f for f in files
                    if os.path.splitext(os.path.basename(f))[0] not in constant]]
    for f in files:
        if os.path.splitext(os.path.basename(f))[0] in constant:
            runs += [base + ["-DHPP_CPU_MVECTOR=%d" % w, f] for w in (32, 64)]
    status = 0
    for cmd in runs:
        status |= subprocess.call(cmd)
    print("g++ compiled %d examples (%d of them at widths 32 and 64)" % (
        len(files), len([f for f in files
                         if os.path.splitext(os.path.basename(f))[0] in constant])))
    return 1 if status else 0


if __name__ == "__main__":
    sys.exit(main())
