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

One line per program, then the totals; the exit status is 1 when a program
fails a step or prints other than the original.

Usage:
  port-corpus.py --tool HPP_REWRITE --cxx "COMPILER FLAGS..." --runtime DIR
                 --include DIR --expected DIR --out DIR [--pch-dir DIR]
                 [--gpu-check "CMD..."] [-j N] PROGRAM.cu...
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


def check(args, program):
    """The program's line and whether it passed."""
    name = os.path.splitext(os.path.basename(program))[0]
    port = os.path.join(args.out, name + ".cpp")
    binary = os.path.join(args.out, name)
    rc, _, err = run([args.tool, "--port", program, "-o", port, "--"])
    if rc != 0:
        return "%s: port refused: %s" % (name, first_error(err)), False
    compile_cmd = shlex.split(args.cxx) + ["-I", args.runtime, "-I",
                                           args.include, port, "-o", binary]
    if args.pch_dir:
        compile_cmd = [sys.executable, os.path.join(HERE, "cxx-pch.py"),
                       "--pch-dir", args.pch_dir, "--"] + compile_cmd
    rc, _, err = run(compile_cmd)
    if rc != 0:
        return "%s: port does not build: %s" % (name, first_error(err)), False
    if args.gpu_check:
        rc, out, err = run(shlex.split(args.gpu_check) + [port])
        if rc != 0:
            return "%s: port does not build for a GPU: %s" % (
                name, first_error(out + err)), False
    with open(os.path.join(args.expected, name + ".out")) as f:
        expected = f.read()
    verdicts, ok = [], True
    for width in (32, 64):
        env = dict(os.environ, HPP_CPU_MVECTOR=str(width),
                   HPP_CPU_CHECK="uninit")
        rc, out, err = run([binary], env=env)
        with open("%s.%d.out" % (binary, width), "w") as f:
            f.write(out)
        if rc != 0:
            verdicts.append("%d: exit %d (%s)" % (width, rc, first_error(err)))
            ok = False
        elif out != expected:
            verdicts.append("%d: differs from the original" % width)
            ok = False
        else:
            verdicts.append("%d: =" % width)
    return "%s: %s" % (name, ", ".join(verdicts)), ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for opt in ("--tool", "--cxx", "--runtime", "--include", "--expected",
                "--out"):
        ap.add_argument(opt, required=True)
    ap.add_argument("--pch-dir")
    ap.add_argument("--gpu-check")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("programs", nargs="+")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda p: check(args, p), args.programs))
    for line, _ in results:
        print(line)
    passed = sum(ok for _, ok in results)
    print("%d of %d programs: the port prints the original's output at 32 "
          "and 64" % (passed, len(results)))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
