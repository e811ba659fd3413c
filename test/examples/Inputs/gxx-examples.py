#!/usr/bin/env python3
"""Compiles every example with g++ (-fsyntax-only: the dialect headers and
the example, templates instantiated, no code generation), as the examples'
CMake targets build them: the examples that need the simulated width
compiled in (HPP_CONSTANT_WIDTH_EXAMPLES in examples/CMakeLists.txt) once
at 32 and once at 64, the others as they are.

The others share one g++ precompiled header of <hpp/hpp.h> (`hpp.h.gch`,
built with the same flags in a directory searched first): g++ parses the
header once instead of once per example (most of each compile). g++ uses it
only where it is valid (the example includes the header before anything
else, with the same flags and macros) and reads the header itself
everywhere else; `-H` says which it did, and the last line counts the
examples that used it. A header that g++ rejects fails the precompile,
which fails the test.

Usage: gxx-examples.py GXX INCLUDE_DIR EXAMPLES_DIR"""
import glob
import os
import re
import subprocess
import sys
import tempfile

# -H's lines: the headers read ('.' per depth; none: the main file, after a
# precompiled header), a precompiled header used ('!') or found invalid
# ('x'), and the closing list of headers that lack include guards.
H_LINE = re.compile(r"^(\.+|!|x) ")
GUARDS = "Multiple include guards may be useful for:"


def compile_one(cmd, src):
    """Runs g++ with -H on \p src; prints what it says but -H's own lines.
    Returns (exit status, whether it used a precompiled header)."""
    proc = subprocess.run(cmd + ["-H"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, errors="replace")
    used, rest, in_guards = False, [], False
    for line in proc.stdout.splitlines():
        if line.startswith("! "):
            used = True
        elif line == GUARDS:
            in_guards = True
        elif not H_LINE.match(line) and line != " " + src and \
                not (in_guards and os.path.isabs(line)):
            rest.append(line)
    if rest:
        sys.stdout.write("\n".join(rest) + "\n")
    return proc.returncode, used


def mpi_include_flags():
    """-I flags of mpi.h's directories (`mpicxx --showme:incdirs`), for the
    examples that include <mpi.h>; None where there is no mpicxx."""
    try:
        out = subprocess.check_output(["mpicxx", "--showme:incdirs"],
                                      universal_newlines=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return ["-I" + d for d in out.split()]


def main():
    gxx, include, examples = sys.argv[1:4]
    with open(os.path.join(examples, "CMakeLists.txt")) as f:
        m = re.search(r"set\(HPP_CONSTANT_WIDTH_EXAMPLES([^)]*)\)", f.read())
    constant = set(m.group(1).split()) if m else set()
    files = sorted(glob.glob(os.path.join(examples, "*.cpp")))
    # MPI programs (examples/heat_mpi.cpp) need mpi.h's directories; they
    # are left out where there is no MPI (scripts/install-deps.sh installs
    # Open MPI).
    mpi = mpi_include_flags()
    uses_mpi = []
    for f in files:
        with open(f) as src:
            if re.search(r"^#\s*include\s*<mpi\.h>", src.read(), re.M):
                uses_mpi.append(f)
    if mpi is None:
        files = [f for f in files if f not in uses_mpi]
    flags = ["-std=c++17", "-Wall"]
    status, precompiled = 0, 0
    with tempfile.TemporaryDirectory(prefix="gxx-examples-") as tmp:
        gch = os.path.join(tmp, "hpp", "hpp.h.gch")
        os.makedirs(os.path.dirname(gch))
        status |= subprocess.call([gxx] + flags + ["-I", include, "-x", "c++-header",
                                                   os.path.join(include, "hpp", "hpp.h"),
                                                   "-o", gch])
        base = [gxx] + flags + ["-fsyntax-only", "-Winvalid-pch"]
        for f in files:
            name = os.path.splitext(os.path.basename(f))[0]
            if name in constant:
                runs = [base + ["-I", include, "-DHPP_CPU_MVECTOR=%d" % w, f] for w in (32, 64)]
            else:
                runs = [base + ["-I", tmp, "-I", include] +
                        (mpi if f in uses_mpi else []) + [f]]
            for cmd in runs:
                rc, used = compile_one(cmd, f)
                status |= rc
                precompiled += used
    print("g++ compiled %d examples (%d of them at widths 32 and 64; %d with the header "
          "precompiled)" % (len(files), len([f for f in files if os.path.splitext(
              os.path.basename(f))[0] in constant]), precompiled))
    return 1 if status else 0


if __name__ == "__main__":
    sys.exit(main())
