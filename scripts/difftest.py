#!/usr/bin/env python3
"""difftest: differential testing of hpp-rewrite against the reference runtime.

For every input dialect program P (and each of its argument lists):

 1. P is built against the CPU reference runtime (-I include) and run at
    HPP_CPU_MVECTOR=32 and 64;
 2. P is rewritten by hpp-rewrite (its diagnostics kept), the output is built
    against the runtime's CPU backend (-I runtime -I include) and run at 32
    and 64;
 3. every check unit is judged. A unit is a kernel of a program from
    scripts/warpgen.py or scripts/scope_corpus.py (its `kernel <id>: ...`
    output line, its source lines from the `// warpgen kernel <id>: lines
    A-B` or `// scope-corpus kernel <id>: ...` marker), or the whole output
    (exit status and stdout) of any other program and argument list.

Every run has HPP_CPU_CHECK=uninit (reads of work-group memory no work-item
wrote are errors) unless --check says otherwise; the rewritten program is
then built with -DHPP_CPU_CHECKS, which the CPU backend needs for it. A
kernel's output is correct when it is `ok`; a whole output is correct at 32
when the program exits with status 0 (every input checks itself). When a
generator program stops early (a crash), the kernels left without output
run again one by one (`prog <id>`). A failed build is tried once more after
--retry-delay seconds, and the tool again when it could not start or died
of a signal: in a shared checkout a header or the tool may be half written
at that moment.

The rule, per unit, with R32/R64 the reference's outputs and G32/G64 the
rewritten program's:
  - R32 must be correct (a program must be right on a 32-lane warp; if it is
    not, the input is broken: class bad-reference);
  - G32 must equal R32 (class mismatch-32);
  - if R64 is correct (equal to R32, or exit status 0 for programs marked
    width-dependent), G64 must equal it (class mismatch-64);
  - if R64 is wrong or fails (the code is right on NVIDIA, wrong at 64 lanes
    as written), G64 must be correct, unless hpp-rewrite printed a warning
    with an [hpp-...] tag inside the unit's source lines (class
    wrong-64-unwarned).
  - hpp-rewrite may refuse (exit non-zero) an input marked may_refuse, or a
    unit that is wrong at 64 as written, or whose marker says `refusal
    allowed`, when one of its errors lies inside the unit. Units of a generator program that hold an error are blanked
    out (line numbers kept) and the rest is rewritten again, so one refused
    kernel does not hide the others. Any other refusal is class
    tool-refused.
  - the rewritten program must build on the CPU backend; in a generator
    program the units the compiler's errors name (the output's #line
    directives give the input's lines) are class gen-build-failed, and they
    are blanked out and the rest rewritten and built again. With --gpu,
    nvcc and hipcc must compile it too (class gpu-build-failed, in the
    units their errors name, or every unit when they name none).
A failure of classes mismatch-32, mismatch-64 or wrong-64-unwarned is a
silent mismatch: the tool accepted the code and the result is wrong. The
runner prints each failing unit with the four outputs and the diagnostics,
a summary, and `N passed, M failed` as its last line; it exits 1 when any
unit failed.

A directory with a program.json (scripts/warpgen.py --multi-file) is one
program of several sources and the project headers they share: the
reference is built from all its sources, the tool rewrites them in one run
(--output-dir, --root: each header once for all of them), the rewritten
sources are built against the rewritten headers, and each kernel is judged
by the rule above; a warning or error in a header helper a kernel calls
counts as in the kernel. A header that two translation units need
rewritten differently ("the translation units disagree on this project
header"): the helper at that line and the kernels that call it are
blanked out, counted as refused by a header conflict (not a failure; with
--strict-conflicts, a failure unless the program's expect_conflict says so),
and the rest rewritten again. The summary counts the multi-file programs:
accepted and right, with a warning, refused by a conflict, failed.

A .cu file (scripts/warpgen.py --cuda, examples/cuda) is a CUDA program
(difftestlib/cuda_test.py): it is ported with `hpp-rewrite --port`, the
port is built on the CPU backend and run at 32 and 64, and there is no
reference run: the original is right on an NVIDIA GPU and checks itself.
A kernel (or the whole output, exit status 0) is right when the port
prints ok at both widths; refused by an [hpp-...] error in its lines, or
wrong with an [hpp-...] warning there, it is counted apart and passes;
wrong with no warning is a silent mismatch (mismatch-32, mismatch-64), and
a port that dies running it fails (run-crashed). --xfail lists kernels
expected to fail (known tool bugs met by a fixed-seed test).

Inputs are .cpp and .cu files, directories (their *.cpp and *.cu files
and multi-file program directories) and .json configs:

  {"root": "../..",                       # paths relative to this, default: the file's dir
   "programs": [
     {"path": "examples/warp_reduce.cpp", "runs": [[], ["1000003"]]},
     {"path": "examples/segmented_reduce.cpp", "width_defines": true},
     {"path": "test/rewrite/lane-mask.cpp", "width_dependent": true},
     {"path": "test/examples/Inputs/warp_intrinsics.cpp", "ignore": "warp-width"},
     {"path": "...", "may_refuse": true},
     {"path": "...", "skip": "why it is not a whole program"},
     {"path": "...", "cxxflags": ["-DX"], "tool_args": ["--", "-DX"], "env": {"K": "V"}}]}

  runs: argument lists (default [[]]), or {"args": [...], "env": {"K": "V"}}
  for a run with its own environment (HPP_CPU_DEVICES=3); width_defines: the reference is built
  once per width with -DHPP_CPU_MVECTOR=32|64 (host code that needs the width
  as a constant); width_dependent: its output may differ between widths and
  it checks itself (correct = exit status 0); ignore: a regex, matching output
  lines are dropped before comparing. A config entry also sets the options of
  the same file given through a directory.

Examples:
  difftest.py examples/warp_scan.cpp
  difftest.py -j2 test/differential/Inputs/programs.json examples
  warpgen.py --seed 7 --kernels 100 --per-tu 25 --out /tmp/g && difftest.py /tmp/g
  scope_corpus.py --seed 7 --count 60 --out /tmp/s && difftest.py --gpu /tmp/s
  warpgen.py --cuda --seed 7 --kernels 200 --per-tu 40 --out /tmp/c && difftest.py /tmp/c
"""

import argparse
import concurrent.futures
import os
import shlex
import shutil
import sys
import tempfile
import threading
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# The code lives in the difftestlib package next to this file: found from
# any working directory, and wherever the two are copied together.
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from difftestlib.cuda_test import CudaProgramTest  # noqa: E402
from difftestlib.program_test import MultiProgramTest, ProgramTest  # noqa: E402
from difftestlib.programs import collect_inputs  # noqa: E402
from difftestlib.report import apply_xfail, report_failure, summarize, write_json  # noqa: E402
from difftestlib.runner import Progress, Runner  # noqa: E402


def default_cxx():
    for c in (os.environ.get("CXX"), "clang++-19", "g++"):
        if c and shutil.which(c):
            return c
    return "g++"


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n", 1)[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="+", help="programs, directories, .json configs")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                    help="parallel compiles and runs (default: the core count)")
    ap.add_argument("--tool", default=os.path.join(ROOT, "build", "tools", "hpp-rewrite",
                                                   "hpp-rewrite"),
                    help="hpp-rewrite binary (or a command, split like a shell word list)")
    ap.add_argument("--cxx", default=default_cxx(),
                    help="C++ compiler (default: $CXX, clang++-19 or g++)")
    ap.add_argument("--pch-dir", metavar="DIR",
                    help="build through scripts/cxx-pch.py, which keeps precompiled "
                         "dialect headers in DIR (the tests' builds share them)")
    ap.add_argument("--linker", metavar="NAME",
                    help="link with -fuse-ld=NAME (the tests use gold: faster)")
    ap.add_argument("--opt", default="O1",
                    help="optimization level: O0, O1, O2 (default O1)")
    ap.add_argument("--include", default=os.path.join(ROOT, "include"),
                    help="the dialect headers (reference runtime)")
    ap.add_argument("--runtime", default=os.path.join(ROOT, "runtime"),
                    help="the device runtime (CPU backend)")
    ap.add_argument("--check", default="uninit",
                    help="HPP_CPU_CHECK for every run (default uninit; '' for none)")
    ap.add_argument("--cpu-threads", type=int, default=0,
                    help="HPP_CPU_THREADS for every run (default: the runtime's)")
    ap.add_argument("--timeout", type=float, default=120, help="seconds per run (default 120)")
    ap.add_argument("--build-timeout", type=float, default=600,
                    help="seconds per compile or rewrite (default 600)")
    ap.add_argument("--retry-delay", type=float, default=5,
                    help="seconds before building again after a failed build, or "
                         "starting the tool again after it could not start or died of "
                         "a signal (default 5; 0: never retry)")
    ap.add_argument("--max-reruns", type=int, default=50,
                    help="kernels to re-run one by one after a crash (default 50)")
    ap.add_argument("--work-dir", help="work directory (kept); default: a temporary one")
    ap.add_argument("--keep", action="store_true",
                    help="keep the temporary work directory when something fails")
    ap.add_argument("--strict-expect", action="store_true",
                    help="fail when the generator's 64-lane prediction is wrong")
    ap.add_argument("--strict-conflicts", action="store_true",
                    help="a header conflict in a multi-file program whose program.json does "
                         "not expect one fails its kernels (class conflict-unpredicted)")
    ap.add_argument("--expect-covered", metavar="DIR", action="append", default=[],
                    help="fail unless every .cpp file in DIR is an input or skipped")
    ap.add_argument("--reference-only", action="store_true",
                    help="only build and run the reference (checks inputs and the "
                         "generator's predictions; no rewriting)")
    ap.add_argument("--json", metavar="FILE",
                    help="also write every unit's result (status, class, outputs, "
                         "diagnostics) to FILE")
    ap.add_argument("--gpu", nargs="?", const="auto", default=None,
                    help="also compile every rewritten program with GPU compilers: a "
                         "comma-separated list of nvcc (sm_90) and hipcc offload "
                         "architectures (gfx90a, gfx1030, ...); without a list, nvcc, "
                         "gfx90a and gfx1030 where installed. A rejection is class "
                         "gpu-build-failed, in the units its errors name")
    ap.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc", help="nvcc for --gpu")
    ap.add_argument("--hipcc", default="hipcc", help="hipcc for --gpu")
    ap.add_argument("--gpu-queue", metavar="DIR",
                    help="with --gpu, queue each rewritten output in DIR for "
                         "`scripts/gpu-check.py --drain DIR` (several files per "
                         "compiler call; a file the compilers reject is reported "
                         "there, named with its test) instead of compiling it here")
    ap.add_argument("--xfail", metavar="IDS", action="append", default=[],
                    help="comma-separated ids of generator kernels expected to fail (a "
                         "known tool bug that a fixed-seed test meets): their failures are "
                         "listed and counted apart, not as failures; one that passes fails "
                         "(class xpass: take it off the list)")
    ap.add_argument("--show-passing", action="store_true",
                    help="also list the units that passed")
    ap.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                    help="a progress line on stderr (auto: when it is a terminal)")
    args = ap.parse_args(argv)

    programs, skipped = collect_inputs(args.inputs)
    for d in args.expect_covered:
        known = {p.path for p in programs} | {s for s, _ in skipped}
        missing = [os.path.join(d, f) for f in sorted(os.listdir(d))
                   if f.endswith(".cpp") and os.path.abspath(os.path.join(d, f)) not in known]
        if missing:
            print("difftest: not covered by the inputs: %s" % ", ".join(missing))
            print("0 passed, %d failed" % len(missing))
            return 1
    # The tool parses with the headers the reference builds against, not
    # the ones compiled into it (a copied tree, headers edited mid-run).
    os.environ.setdefault("HPP_REWRITE_INCLUDE_DIR", os.path.abspath(args.include))
    os.environ.setdefault("HPP_REWRITE_RUNTIME_DIR", os.path.abspath(args.runtime))
    args.cxx_cmd = [args.cxx]
    if args.pch_dir:
        args.cxx_cmd = [sys.executable, os.path.join(HERE, "cxx-pch.py"), "--pch-dir",
                        os.path.abspath(args.pch_dir), "--", args.cxx]
    args.tool_cmd = [args.tool] if os.path.exists(args.tool) else shlex.split(args.tool)
    if not args.tool_cmd or not shutil.which(args.tool_cmd[0]):
        raise SystemExit("difftest: no hpp-rewrite at %s (--tool)" % args.tool)

    if args.gpu == "auto":
        args.gpu = ([] if not shutil.which(args.nvcc) else ["nvcc"]) + \
            ([] if not shutil.which(args.hipcc) else ["gfx90a", "gfx1030"])
    elif args.gpu:
        args.gpu = args.gpu.split(",")
    else:
        args.gpu = []
    work = args.work_dir or tempfile.mkdtemp(prefix="difftest-")
    os.makedirs(work, exist_ok=True)
    args.check = args.check if args.check != "" else None
    args.opt = args.opt if args.opt.startswith("-") else "-" + args.opt
    runner = Runner(max(1, args.jobs), args.timeout)
    show = args.progress == "on" or (args.progress == "auto" and sys.stderr.isatty())
    progress = Progress(len(programs), show)
    start = time.time()
    results, timings = [], []
    lock = threading.Lock()

    def one(prog):
        cls = MultiProgramTest if prog.multi else (CudaProgramTest if prog.cuda else ProgramTest)
        t = cls(prog, args, runner, work)
        try:
            res = t.execute()
        except Exception:  # report, never lose the other programs
            t.fail_all("tool-crashed", "difftest internal error:\n" + traceback.format_exc())
            res = t.results
        with lock:
            results.extend(res)
            timings.append(t.timing)
        progress.step(sum(1 for r in res if r["status"] == "fail"))

    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs) + 1) as ex:
        list(ex.map(one, programs))
    progress.finish()

    order = {p.path: n for n, p in enumerate(programs)}
    results.sort(key=lambda r: (order.get(r["program"], 0)))
    apply_xfail(results, {int(x) for arg in args.xfail for x in arg.split(",") if x.strip()})
    failures = [r for r in results if r["status"] == "fail"]
    keep = bool(args.work_dir) or (args.keep and failures)
    for r in failures:
        print(report_failure(r))
        print()
    if args.show_passing:
        for r in results:
            if r["status"] != "fail":
                print("%s %s: %s" % (r["status"].upper(), r["program"], r["unit"]))
    for path, why in skipped:
        print("skipped %s: %s" % (path, why))
    if args.json:
        write_json(args.json, results, skipped)
    text, failed = summarize(results, skipped, time.time() - start, timings)
    if keep:
        text = text.replace("\nSummary:", "\nwork directory kept: %s\nSummary:" % work, 1)
    elif not args.work_dir:
        shutil.rmtree(work, ignore_errors=True)
    print(text)
    sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
