#!/usr/bin/env python3
"""port-corpus: the port-mode oracle on the CPU backend.

For each CUDA program given (examples/cuda/*.cu), it

  1. ports it: hpp-rewrite --port PROGRAM -o OUT/NAME.cpp --
  2. builds the port on the CPU backend (--cxx, through scripts/cxx-pch.py
     when --pch-dir is given: the runtime's <hpp/cuda_api.h> precompiled);
  3. runs it at HPP_CPU_MVECTOR=32 and 64 (HPP_CPU_CHECK=uninit: shared
     memory the GPU would leave uninitialised is poisoned);
  4. compares each run's stdout with EXPECTED/NAME.out, the original's
     output on an NVIDIA GPU (docs/port.md says how it was recorded).

With --gpu-check CMD, each port is also handed to CMD (scripts/gpu-check.py
with its compilers and include directories: a compile for sm_90, gfx90a
and gfx1030, or queued for one).

With --renamed, each program also goes through the simulation of a
rename-only port (HIPIFY's: runtime calls and launches renamed, the warp
code as written): hpp-rewrite --port --simulate-rename-only, built with
-DHPP_CPU_HIP_RENAMED (HIP's meaning of the CUDA warp intrinsics:
hpp/cpu/hip_renamed.h) and run at 64 lanes (wave64) and 32 (wave32). Its
verdict at 64 is the docs' "renamed" column; at 32 it must print the
original's output (wave32 runs CUDA's warp code as CUDA does), or the
simulation itself is wrong and the program fails.

One line per program, then the totals; the exit status is 1 when a program
fails a step or prints other than the original.

Usage:
  port-corpus.py --tool HPP_REWRITE --cxx "COMPILER FLAGS..." --runtime DIR
                 --include DIR --expected DIR --out DIR [--pch-dir DIR]
                 [--gpu-check "CMD..."] [--renamed] [-j N] PROGRAM.cu...
"""

import argparse
import concurrent.futures
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd, env=None, timeout=300):
    """(exit status, stdout, stderr) of \\p cmd; 124 after the timeout."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env,
                           timeout=timeout, errors="replace")
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return 124, "", "timed out after %d s" % timeout


def first_error(text):
    for line in text.splitlines():
        if "error" in line:
            return line.strip()[:300]
    return text.strip().splitlines()[-1][:300] if text.strip() else ""


def build(args, source, binary, defines=()):
    """(exit status, stderr) of building \\p source on the CPU backend."""
    compile_cmd = shlex.split(args.cxx) + list(defines) + [
        "-I", args.runtime, "-I", args.include, source, "-o", binary]
    if args.pch_dir:
        compile_cmd = [sys.executable, os.path.join(HERE, "cxx-pch.py"),
                       "--pch-dir", args.pch_dir, "--"] + compile_cmd
    rc, _, err = run(compile_cmd)
    return rc, err


def run_at(binary, width, expected, suffix=""):
    """The verdict of one run of \\p binary at \\p width lanes: "=", or what
    went wrong; its output is kept beside it."""
    env = dict(os.environ, HPP_CPU_MVECTOR=str(width), HPP_CPU_CHECK="uninit")
    rc, out, err = run([binary], env=env)
    with open("%s%s.%d.out" % (binary, suffix, width), "w") as f:
        f.write(out)
    if out != expected:
        what = "differs from the original"
        if rc != 0:
            what += " (exit %d%s)" % (rc, ": " + first_error(err)
                                      if err.strip() else "")
        return what
    if rc != 0:
        return "exit %d (%s)" % (rc, first_error(err))
    return "="


def renamed(args, program, name, expected):
    """The rename-only port's verdicts at 64 and 32 (see the docstring)."""
    source = os.path.join(args.out, name + ".renamed.cpp")
    binary = os.path.join(args.out, name + ".renamed")
    rc, _, err = run([args.tool, "--port", "--simulate-rename-only", program,
                      "-o", source, "--"])
    if rc != 0:
        return "not written (%s)" % first_error(err), None
    rc, err = build(args, source, binary, ["-DHPP_CPU_HIP_RENAMED"])
    if rc != 0:
        return "does not build (%s)" % first_error(err), None
    return run_at(binary, 64, expected), run_at(binary, 32, expected)


def check(args, program):
    """The program's line, whether it passed, and the rename-only port's
    verdict at 64 lanes (None without --renamed)."""
    name = os.path.splitext(os.path.basename(program))[0]
    port = os.path.join(args.out, name + ".cpp")
    binary = os.path.join(args.out, name)
    rc, _, err = run([args.tool, "--port", program, "-o", port, "--"])
    if rc != 0:
        return "%s: port refused: %s" % (name, first_error(err)), False, None
    rc, err = build(args, port, binary)
    if rc != 0:
        return ("%s: port does not build: %s" % (name, first_error(err)),
                False, None)
    if args.gpu_check:
        rc, out, err = run(shlex.split(args.gpu_check) + [port])
        if rc != 0:
            return "%s: port does not build for a GPU: %s" % (
                name, first_error(out + err)), False, None
    with open(os.path.join(args.expected, name + ".out")) as f:
        expected = f.read()
    verdicts, ok = [], True
    for width in (32, 64):
        verdict = run_at(binary, width, expected)
        verdicts.append("%d: %s" % (width, verdict))
        ok = ok and verdict == "="
    line = "%s: %s" % (name, ", ".join(verdicts))
    if not args.renamed:
        return line, ok, None
    at64, at32 = renamed(args, program, name, expected)
    line += "; renamed only: 64: %s" % at64
    if at32 != "=":
        line += ", 32: %s (the simulation is wrong)" % at32
        ok = False
    return line, ok, at64


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for opt in ("--tool", "--cxx", "--runtime", "--include", "--expected",
                "--out"):
        ap.add_argument(opt, required=True)
    ap.add_argument("--pch-dir")
    ap.add_argument("--gpu-check")
    ap.add_argument("--renamed", action="store_true")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("programs", nargs="+")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda p: check(args, p), args.programs))
    for line, _, _ in results:
        print(line)
    passed = sum(ok for _, ok, _ in results)
    print("%d of %d programs: the port prints the original's output at 32 "
          "and 64" % (passed, len(results)))
    if args.renamed:
        wrong = [r for _, _, r in results if r != "="]
        print("%d of %d programs: a rename-only port is wrong at 64 "
              "(simulated)" % (len(wrong), len(results)))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
