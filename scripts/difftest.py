#!/usr/bin/env python3
"""difftest: differential testing of hpp-rewrite against the reference runtime.

For every input dialect program P (and each of its argument lists):

 1. P is built against the CPU reference runtime (-I include) and run at
    HPP_CPU_MVECTOR=32 and 64;
 2. P is rewritten by hpp-rewrite (its diagnostics kept), the output is built
    against the runtime's CPU backend (-I runtime -I include) and run at 32
    and 64;
 3. every check unit is judged. A unit is a kernel of a program from
    scripts/warpgen.py (its `kernel <id>: ...` output line, its source lines
    from the `// warpgen kernel <id>: lines A-B` marker), or the whole output
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
    unit that is wrong at 64 as written when one of its errors lies inside
    the unit. Units of a generator program that hold an error are blanked
    out (line numbers kept) and the rest is rewritten again, so one refused
    kernel does not hide the others. Any other refusal is class
    tool-refused.
A failure of classes mismatch-32, mismatch-64 or wrong-64-unwarned is a
silent mismatch: the tool accepted the code and the result is wrong. The
runner prints each failing unit with the four outputs and the diagnostics,
a summary, and `N passed, M failed` as its last line; it exits 1 when any
unit failed.

Inputs are .cpp files, directories (their *.cpp files) and .json configs:

  {"root": "../..",                       # paths relative to this, default: the file's dir
   "programs": [
     {"path": "examples/warp_reduce.cpp", "runs": [[], ["1000003"]]},
     {"path": "examples/segmented_reduce.cpp", "width_defines": true},
     {"path": "test/rewrite/lane-mask.cpp", "width_dependent": true},
     {"path": "test/examples/Inputs/warp_intrinsics.cpp", "ignore": "warp-width"},
     {"path": "...", "may_refuse": true},
     {"path": "...", "skip": "why it is not a whole program"},
     {"path": "...", "cxxflags": ["-DX"], "tool_args": ["--", "-DX"], "env": {"K": "V"}}]}

  runs: argument lists (default [[]]); width_defines: the reference is built
  once per width with -DHPP_CPU_MVECTOR=32|64 (host code that needs the width
  as a constant); width_dependent: its output may differ between widths and
  it checks itself (correct = exit status 0); ignore: a regex, matching output
  lines are dropped before comparing. A config entry also sets the options of
  the same file given through a directory.

Examples:
  difftest.py examples/warp_scan.cpp
  difftest.py -j2 test/differential/Inputs/programs.json examples
  warpgen.py --seed 7 --kernels 100 --per-tu 25 --out /tmp/g && difftest.py /tmp/g
"""

import argparse
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

MARKER = re.compile(r"^// warpgen kernel (\d+): lines (\d+)-(\d+)(.*)$")
EXPECT = re.compile(r"expect64 (ok|wrong) \((.*)\)\s*$")
DIAG = re.compile(r"^(.*?):(\d+):(\d+): (warning|error|fatal error|remark|note): (.*?)"
                  r"(?: \[([A-Za-z0-9_.-]+)\])?$")
UNIT_LINE = re.compile(r"^kernel (\d+): (.*)$")

SILENT = ("mismatch-32", "mismatch-64", "wrong-64-unwarned")
CLASS_HELP = {
    "bad-reference": "the input is wrong at 32 lanes on the reference (an input bug)",
    "ref-build-failed": "the input does not build against the reference runtime",
    "tool-refused": "hpp-rewrite exited with an error on code it should accept",
    "tool-crashed": "hpp-rewrite crashed or timed out",
    "gen-build-failed": "the rewritten output does not build on the CPU backend",
    "mismatch-32": "rewritten@32 differs from reference@32 (silent)",
    "mismatch-64": "reference@64 is right, rewritten@64 differs (silent)",
    "wrong-64-unwarned": "wrong at 64 as written, still wrong rewritten, no warning (silent)",
}


# ---------------------------------------------------------------------------
# Inputs


class Program:
    """One input program and its options."""

    def __init__(self, path, opts=None):
        opts = opts or {}
        self.path = os.path.abspath(path)
        self.runs = [list(map(str, r)) for r in opts.get("runs", [[]])]
        self.width_defines = bool(opts.get("width_defines", False))
        self.width_dependent = bool(opts.get("width_dependent", False))
        self.ignore = re.compile(opts["ignore"]) if opts.get("ignore") else None
        self.may_refuse = bool(opts.get("may_refuse", False))
        self.skip = opts.get("skip")
        self.cxxflags = list(opts.get("cxxflags", []))
        self.tool_args = list(opts.get("tool_args", []))
        self.env = dict(opts.get("env", {}))
        with open(self.path, errors="replace") as f:
            self.source = f.read()
        self.units = self._kernel_units()

    def _kernel_units(self):
        """The generator's kernels of this file, or None for a whole program."""
        units = []
        for line in self.source.splitlines():
            m = MARKER.match(line)
            if m:
                e = EXPECT.search(m.group(4))
                units.append({"id": int(m.group(1)), "lines": (int(m.group(2)), int(m.group(3))),
                              "expect64": e.group(1) if e else None,
                              "reason": e.group(2) if e else ""})
        return units or None


def load_config(path):
    """Program options keyed by absolute path, in the config's order."""
    with open(path) as f:
        cfg = json.load(f)
    base = os.path.dirname(os.path.abspath(path))
    root = os.path.normpath(os.path.join(base, cfg.get("root", ".")))
    entries = []
    for entry in cfg.get("programs", []):
        entries.append((os.path.normpath(os.path.join(root, entry["path"])), entry))
    return entries


def collect_inputs(args_inputs):
    """Programs from files, directories and configs, and skipped ones."""
    options, order = {}, []
    plain = []
    for item in args_inputs:
        if item.endswith(".json"):
            for path, entry in load_config(item):
                options[path] = entry
                order.append(path)
        elif os.path.isdir(item):
            for name in sorted(os.listdir(item)):
                if name.endswith(".cpp"):
                    plain.append(os.path.abspath(os.path.join(item, name)))
        elif os.path.isfile(item):
            plain.append(os.path.abspath(item))
        else:
            raise SystemExit("difftest: no such input: %s" % item)
    seen, programs, skipped = set(), [], []
    for path in order + plain:
        if path in seen:
            continue
        seen.add(path)
        opts = options.get(path, {})
        if opts.get("skip"):
            skipped.append((path, opts["skip"]))
            continue
        if not os.path.isfile(path):
            raise SystemExit("difftest: no such input: %s" % path)
        programs.append(Program(path, opts))
    return programs, skipped


# ---------------------------------------------------------------------------
# Running things


class Runner:
    """Runs commands, at most `jobs` at a time, and measures their CPU time
    (user + system: the machine may be shared, so wall time says little)."""

    def __init__(self, jobs, timeout):
        self.slots = threading.Semaphore(jobs)
        self.timeout = timeout

    def run(self, cmd, env=None, cwd=None, timeout=None, timing=None, key=None):
        """(exit status, stdout, stderr); status 124 on a timeout, negative
        for a signal. Adds the command's CPU seconds to timing[key]."""
        full_env = dict(os.environ)
        if env:
            full_env.update(env)
        limit = timeout or self.timeout
        with self.slots:
            try:
                p = subprocess.Popen(cmd, env=full_env, cwd=cwd, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
            except OSError as e:
                return 127, "", "cannot run %s: %s" % (cmd[0], e)
            chunks = {"out": [], "err": []}
            readers = [threading.Thread(target=lambda f=f, k=k: chunks[k].append(f.read()))
                       for f, k in ((p.stdout, "out"), (p.stderr, "err"))]
            for r in readers:
                r.start()
            status, usage = self._wait(p, limit)
            for r in readers:
                r.join()
            p.stdout.close()
            p.stderr.close()
            out = b"".join(chunks["out"]).decode(errors="replace")
            err = b"".join(chunks["err"]).decode(errors="replace")
            if status is None:
                status, err = 124, err + "\ntimed out after %ss" % limit
            if timing is not None and usage is not None:
                timing[key] = timing.get(key, 0) + usage.ru_utime + usage.ru_stime
            return status, out, err

    @staticmethod
    def _wait(p, limit):
        """Waits for `p` (killing it after `limit` seconds): (exit status or
        None on a timeout, its resource usage)."""
        deadline = time.time() + limit
        delay = 0.001
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                p.returncode = os.waitstatus_to_exitcode(status)
                return p.returncode, usage
            if time.time() > deadline:
                p.kill()
                pid, status, usage = os.wait4(p.pid, 0)
                p.returncode = -9
                return None, usage
            time.sleep(delay)
            delay = min(delay * 2, 0.02)


class Progress:
    """A one-line progress display on a terminal, nothing otherwise."""

    def __init__(self, total, enabled):
        self.total, self.done, self.failed = total, 0, 0
        self.enabled = enabled
        self.lock = threading.Lock()
        self.start = time.time()

    def step(self, failed_units):
        with self.lock:
            self.done += 1
            self.failed += failed_units
            if self.enabled:
                sys.stderr.write("\r[%d/%d programs] %d failing units, %.0fs " % (
                    self.done, self.total, self.failed, time.time() - self.start))
                sys.stderr.flush()

    def finish(self):
        if self.enabled:
            sys.stderr.write("\n")


def parse_diagnostics(stderr, path):
    """The tool's diagnostics about `path`: dicts with line, severity, tag, text."""
    base = os.path.basename(path)
    diags = []
    for line in stderr.splitlines():
        m = DIAG.match(line)
        if not m:
            continue
        if os.path.basename(m.group(1)) != base:
            continue
        diags.append({"line": int(m.group(2)), "severity": m.group(4),
                      "tag": m.group(6) or "", "text": line})
    return diags


def in_unit(diag, unit):
    lo, hi = unit["lines"]
    return lo <= diag["line"] <= hi


def blank_units(source, units):
    """`source` with the lines of `units` emptied (line numbers kept)."""
    lines = source.split("\n")
    for u in units:
        lo, hi = u["lines"]
        for n in range(lo - 1, min(hi, len(lines))):
            lines[n] = ""
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# One program


class Outcome:
    """What one unit printed in one run: text (None if missing) and ok."""

    def __init__(self, text, ok):
        self.text, self.ok = text, ok

    def show(self):
        return "<no output: the program stopped before it>" if self.text is None else self.text


def split_units(stdout):
    """Unit id -> text of a generator program's `kernel <id>: ...` lines."""
    res = {}
    for line in stdout.splitlines():
        m = UNIT_LINE.match(line)
        if m and int(m.group(1)) not in res:
            res[int(m.group(1))] = m.group(2)
    return res


class ProgramTest:
    """Builds, rewrites, runs and judges one program."""

    def __init__(self, prog, cfg, runner, work):
        self.p, self.cfg, self.runner = prog, cfg, runner
        stem = os.path.splitext(os.path.basename(prog.path))[0]
        self.work = os.path.join(work, stem)
        n = 1
        while os.path.exists(self.work):
            n += 1
            self.work = os.path.join(work, "%s.%d" % (stem, n))
        os.makedirs(self.work)
        self.results = []  # dicts per unit
        self.timing = {}

    # -- building ----------------------------------------------------------
    def cxx(self, src, out, includes, extra=(), key="build"):
        cmd = [self.cfg.cxx, "-std=c++17", self.cfg.opt, "-pthread", "-w"]
        for inc in includes:
            cmd += ["-I", inc]
        cmd += list(extra) + self.p.cxxflags + [src, "-o", out]
        rc, _, err = self.runner.run(cmd, timeout=self.cfg.build_timeout,
                                     timing=self.timing, key=key)
        if rc != 0 and self.cfg.retry_delay > 0:
            # Once more, later: in a shared checkout a header may be half
            # written at that moment. A real error fails again.
            time.sleep(self.cfg.retry_delay)
            rc, _, err = self.runner.run(cmd, timeout=self.cfg.build_timeout,
                                         timing=self.timing, key=key)
        return rc, err

    def build_reference(self):
        """{width: binary} or an error text."""
        bins = {}
        if self.p.width_defines:
            for w in (32, 64):
                exe = os.path.join(self.work, "ref%d" % w)
                rc, err = self.cxx(self.p.path, exe, [self.cfg.include],
                                   ["-DHPP_CPU_MVECTOR=%d" % w], key="ref build")
                if rc:
                    return None, err
                bins[w] = exe
        else:
            exe = os.path.join(self.work, "ref")
            rc, err = self.cxx(self.p.path, exe, [self.cfg.include], key="ref build")
            if rc:
                return None, err
            bins = {32: exe, 64: exe}
        return bins, ""

    def rewrite(self, src):
        """(status, output path, stderr) of hpp-rewrite on `src`."""
        out = os.path.join(self.work, "rewritten.cpp")
        if os.path.exists(out):
            os.remove(out)
        cmd = self.cfg.tool_cmd + [src, "-o", out] + self.p.tool_args
        for attempt in range(4):
            rc, _, err = self.runner.run(cmd, timeout=self.cfg.build_timeout,
                                         timing=self.timing, key="rewrite")
            # The tool cannot be started (being relinked) or died of a
            # signal: try again later; a real crash crashes again.
            transient = rc == 127 and err.startswith("cannot run")
            if not (transient or (rc < 0 and attempt == 0)) or self.cfg.retry_delay <= 0:
                break
            time.sleep(self.cfg.retry_delay * (attempt + 1))
        with open(os.path.join(self.work, "rewrite.stderr"), "a") as f:
            f.write(err)
        return rc, out, err

    # -- running -----------------------------------------------------------
    def run_exe(self, exe, width, args):
        env = {"HPP_CPU_MVECTOR": str(width)}
        if self.cfg.check is not None:
            env["HPP_CPU_CHECK"] = self.cfg.check
        if self.cfg.cpu_threads:
            env["HPP_CPU_THREADS"] = str(self.cfg.cpu_threads)
        env.update(self.p.env)
        return self.runner.run([exe] + list(args), env=env, timing=self.timing, key="runs")

    def kernel_outputs(self, exe, width, ids):
        """Unit id -> text for a generator program; re-runs the kernels a
        crash left without output one by one."""
        _, out, _ = self.run_exe(exe, width, [])
        got = split_units(out)
        missing = [i for i in ids if i not in got]
        if missing and len(missing) <= self.cfg.max_reruns:
            for i in missing:
                rc1, out1, err1 = self.run_exe(exe, width, [str(i)])
                one = split_units(out1).get(i)
                if one is None:
                    tail = (err1.strip().splitlines() or ["exit status %d" % rc1])[-1]
                    one = "CRASH (exit status %d, alone: %s)" % (rc1, tail[:300])
                got[i] = one
        return got

    def whole_output(self, exe, width, args):
        rc, out, err = self.run_exe(exe, width, args)
        lines = out.splitlines()
        if self.p.ignore:
            lines = [l for l in lines if not self.p.ignore.search(l)]
        text = "exit status %d\n%s" % (rc, "\n".join(lines))
        if rc != 0 and err.strip():
            text += "\n[stderr] " + "\n[stderr] ".join(err.strip().splitlines()[-5:])
        return rc, text

    # -- the whole pipeline --------------------------------------------------
    def execute(self):
        p = self.p
        if self.cfg.reference_only:
            ref_bins, ref_err = self.build_reference()
            gen = {"exe": None, "status": "skipped", "diags": [], "blanked": [], "text": ""}
        else:
            with concurrent.futures.ThreadPoolExecutor(2) as ex:
                fref = ex.submit(self.build_reference)
                fgen = ex.submit(self.rewrite_and_build)
                ref_bins, ref_err = fref.result()
                gen = fgen.result()
        if ref_bins is None:
            self.fail_all("ref-build-failed", ref_err)
            return self.results
        if p.units is not None:
            self.judge_kernels(ref_bins, gen)
        else:
            self.judge_whole(ref_bins, gen)
        return self.results

    def rewrite_and_build(self):
        """Rewrites (blanking refused kernels out and retrying) and builds.

        Returns a dict: exe (or None), status (ok / refused / crashed /
        build-failed), diags (all diagnostics about the input), blanked
        (unit ids removed because of their errors), text (tool or build
        output for reports)."""
        p = self.p
        src = p.path
        blanked = []
        all_diags = []
        stderr_all = ""
        while True:
            rc, out, err = self.rewrite(src)
            stderr_all += err
            diags = parse_diagnostics(err, src)
            all_diags += [d for d in diags if d not in all_diags]
            if rc == 0 and os.path.exists(out):
                break
            if rc < 0 or rc == 124 or not re.search(r": (fatal )?error: ", err):
                return {"exe": None, "status": "crashed", "diags": all_diags,
                        "blanked": blanked,
                        "text": "hpp-rewrite exited with status %d%s" % (
                            rc, ", stderr:\n" + err if err.strip() else ", no diagnostics")}
            if p.units is None:
                return {"exe": None, "status": "refused", "diags": all_diags,
                        "blanked": blanked, "text": err}
            errors = [d for d in diags if d["severity"] in ("error", "fatal error")]
            hit = [u for u in p.units if u["id"] not in blanked and
                   any(in_unit(d, u) for d in errors)]
            outside = [d for d in errors if not any(in_unit(d, u) for u in p.units)]
            if outside or not hit:
                return {"exe": None, "status": "refused", "diags": all_diags,
                        "blanked": blanked, "text": err}
            blanked += [u["id"] for u in hit]
            reduced = os.path.join(self.work, os.path.basename(p.path))
            with open(reduced, "w") as f:
                f.write(blank_units(p.source, [u for u in p.units if u["id"] in blanked]))
            src = reduced
            if len(blanked) == len(p.units):
                return {"exe": None, "status": "refused", "diags": all_diags,
                        "blanked": blanked, "text": err}
        exe = os.path.join(self.work, "gen")
        # The CPU backend checks work-group memory only when built for it.
        checks = ["-DHPP_CPU_CHECKS"] if self.cfg.check else []
        rc, err = self.cxx(out, exe, [self.cfg.runtime, self.cfg.include], checks,
                           key="gen build")
        if rc:
            return {"exe": None, "status": "build-failed", "diags": all_diags,
                    "blanked": blanked, "text": err}
        return {"exe": exe, "status": "ok", "diags": all_diags, "blanked": blanked,
                "text": stderr_all}

    # -- judging -------------------------------------------------------------
    def fail_all(self, cls, text):
        units = self.p.units if self.p.units is not None else [
            {"id": None, "lines": (1, 10 ** 9)} for _ in self.p.runs]
        for n, u in enumerate(units):
            self.results.append({"program": self.p.path, "unit": self.unit_name(u, n),
                                 "status": "fail", "class": cls, "outputs": {},
                                 "diags": [], "detail": text, "wrong64": None,
                                 "warned": False, "expect64": u.get("expect64")})

    def unit_name(self, u, n):
        if u.get("id") is not None:
            return "kernel %d (lines %d-%d)" % (u["id"], u["lines"][0], u["lines"][1])
        args = self.p.runs[n] if n < len(self.p.runs) else []
        return "whole output, arguments [%s]" % " ".join(args)

    def judge(self, unit_name, outs, diags, gen, expect=None, blanked=False):
        """Applies the rule to one unit; outs maps ref32/ref64/gen32/gen64
        to Outcome (gen ones absent when there is no rewritten program)."""
        r32, r64 = outs["ref32"], outs["ref64"]
        wrong64 = not r64.ok
        warned = any(d["severity"] == "warning" and d["tag"].startswith("hpp") for d in diags)
        errored = any(d["severity"] in ("error", "fatal error") for d in diags)
        res = {"program": self.p.path, "unit": unit_name, "outputs": outs, "diags": diags,
               "wrong64": wrong64, "warned": warned, "expect64": expect, "status": "pass",
               "class": None, "detail": ""}

        def fail(cls, detail=""):
            res["status"], res["class"], res["detail"] = "fail", cls, detail

        if not r32.ok:
            fail("bad-reference")
        elif gen["status"] == "skipped":
            pass
        elif blanked or gen["status"] == "refused":
            if self.p.may_refuse or (wrong64 and errored):
                res["status"] = "refused"
            else:
                fail("tool-refused", "" if errored else gen["text"])
        elif gen["status"] == "crashed":
            fail("tool-crashed", gen["text"])
        elif gen["status"] == "build-failed":
            fail("gen-build-failed", gen["text"])
        else:
            g32, g64 = outs["gen32"], outs["gen64"]
            if g32.text != r32.text:
                fail("mismatch-32")
            elif not wrong64:
                if g64.text != r64.text:
                    fail("mismatch-64", "the tool warned in this unit" if warned else "")
            elif g64.ok:
                res["status"] = "fixed"
            elif warned:
                res["status"] = "warned"
            else:
                fail("wrong-64-unwarned")
        self.results.append(res)

    def judge_kernels(self, ref_bins, gen):
        ids = [u["id"] for u in self.p.units]
        ref = {w: self.kernel_outputs(ref_bins[w], w, ids) for w in (32, 64)}
        genout = {}
        if gen["exe"]:
            live = [i for i in ids if i not in gen["blanked"]]
            genout = {w: self.kernel_outputs(gen["exe"], w, live) for w in (32, 64)}
        for u in self.p.units:
            i = u["id"]

            def outcome(table):
                text = table.get(i)
                return Outcome(text, text == "ok")
            outs = {"ref32": outcome(ref[32]), "ref64": outcome(ref[64])}
            if genout:
                outs["gen32"], outs["gen64"] = outcome(genout[32]), outcome(genout[64])
            diags = [d for d in gen["diags"] if in_unit(d, u)]
            self.judge(self.unit_name(u, 0), outs, diags, gen, expect=u["expect64"],
                       blanked=i in gen["blanked"])

    def judge_whole(self, ref_bins, gen):
        for n, args in enumerate(self.p.runs):
            rc32, t32 = self.whole_output(ref_bins[32], 32, args)
            rc64, t64 = self.whole_output(ref_bins[64], 64, args)
            r32 = Outcome(t32, rc32 == 0)
            ok64 = rc64 == 0 if self.p.width_dependent else (t64 == t32 and rc32 == 0)
            outs = {"ref32": r32, "ref64": Outcome(t64, ok64)}
            if gen["exe"]:
                g32rc, g32 = self.whole_output(gen["exe"], 32, args)
                g64rc, g64 = self.whole_output(gen["exe"], 64, args)
                g64ok = g64rc == 0 if self.p.width_dependent else (g64 == t32 and g64rc == 0)
                outs["gen32"] = Outcome(g32, g32rc == 0)
                outs["gen64"] = Outcome(g64, g64ok)
            self.judge(self.unit_name({"id": None}, n), outs, gen["diags"], gen)


# ---------------------------------------------------------------------------
# Reporting


def indent(text, prefix="      ", limit=20):
    lines = text.splitlines() or [""]
    if len(lines) > limit:
        lines = lines[:limit] + ["... (%d more lines)" % (len(lines) - limit)]
    return "\n".join(prefix + l for l in lines)


def report_failure(r):
    out = ["FAIL [%s] %s: %s" % (r["class"], r["program"], r["unit"])]
    out.append("    %s" % CLASS_HELP.get(r["class"], ""))
    for key, label in (("ref32", "reference@32"), ("ref64", "reference@64"),
                       ("gen32", "rewritten@32"), ("gen64", "rewritten@64")):
        o = r["outputs"].get(key)
        if o is not None:
            out.append("    %s:\n%s" % (label, indent(o.show())))
    if r.get("expect64"):
        out.append("    generator's prediction at 64 as written: %s" % r["expect64"])
    if r["diags"]:
        out.append("    hpp-rewrite diagnostics in the unit:")
        out += ["      " + d["text"] for d in r["diags"]]
    else:
        out.append("    hpp-rewrite diagnostics in the unit: none")
    if r["detail"]:
        out.append("    detail:\n%s" % indent(r["detail"], limit=30))
    return "\n".join(out)


def write_json(path, results, skipped):
    """Every unit's result, for scripts that sort failures."""
    units = []
    for r in results:
        units.append({
            "program": r["program"], "unit": r["unit"], "status": r["status"],
            "class": r["class"], "wrong64": r["wrong64"], "warned": r["warned"],
            "expect64": r.get("expect64"), "detail": r["detail"],
            "outputs": {k: o.text for k, o in r["outputs"].items()},
            "diagnostics": [d["text"] for d in r["diags"]]})
    with open(path, "w") as f:
        json.dump({"units": units, "skipped": [{"program": p, "why": w} for p, w in skipped]},
                  f, indent=1)


def summarize(results, skipped, elapsed, timings):
    total = len(results)
    passed = sum(1 for r in results if r["status"] != "fail")
    failed = total - passed
    by_class = {}
    for r in results:
        if r["status"] == "fail":
            by_class[r["class"]] = by_class.get(r["class"], 0) + 1
    wrong64 = [r for r in results if r["wrong64"]]
    lines = ["", "Summary: %d units in %d programs, %.0fs" % (
        total, len({r["program"] for r in results}), elapsed)]
    if timings:
        n = len(timings)
        avg = {k: sum(t.get(k, 0) for t in timings) / n
               for k in ("ref build", "rewrite", "gen build", "runs")}
        lines.append("  CPU time per program: " + ", ".join("%s %.1fs" % (k, v)
                                                          for k, v in avg.items()))
    lines.append("  wrong at 64 as written (reference): %d (fixed by the rewrite %d, warned %d, "
                 "refused %d)" % (len(wrong64),
                                  sum(1 for r in wrong64 if r["status"] == "fixed"),
                                  sum(1 for r in wrong64 if r["status"] == "warned"),
                                  sum(1 for r in wrong64 if r["status"] == "refused")))
    lines.append("  units with an [hpp-...] warning: %d" % sum(1 for r in results if r["warned"]))
    lines.append("  refused (allowed): %d" % sum(1 for r in results if r["status"] == "refused"))
    predicted = [r for r in results if r.get("expect64") and r["wrong64"] is not None
                 and r["class"] not in ("bad-reference", "ref-build-failed")]
    if predicted:
        off = [r for r in predicted if (r["expect64"] == "wrong") != r["wrong64"]]
        lines.append("  generator's 64-lane prediction: %d of %d right" % (
            len(predicted) - len(off), len(predicted)))
        for r in off[:10]:
            lines.append("    predicted %s, reference@64 %s: %s: %s" % (
                r["expect64"], "wrong" if r["wrong64"] else "ok", r["program"], r["unit"]))
    if skipped:
        lines.append("  skipped inputs: %d" % len(skipped))
    for cls in sorted(by_class):
        lines.append("  failed [%s]%s: %d" % (cls, " (silent)" if cls in SILENT else "",
                                              by_class[cls]))
    silent = sum(v for k, v in by_class.items() if k in SILENT)
    lines.append("  silent mismatches: %d" % silent)
    lines.append("%d passed, %d failed" % (passed, failed))
    return "\n".join(lines), failed


# ---------------------------------------------------------------------------


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
    ap.add_argument("--expect-covered", metavar="DIR", action="append", default=[],
                    help="fail unless every .cpp file in DIR is an input or skipped")
    ap.add_argument("--reference-only", action="store_true",
                    help="only build and run the reference (checks inputs and the "
                         "generator's predictions; no rewriting)")
    ap.add_argument("--json", metavar="FILE",
                    help="also write every unit's result (status, class, outputs, "
                         "diagnostics) to FILE")
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
    args.tool_cmd = [args.tool] if os.path.exists(args.tool) else shlex.split(args.tool)
    if not args.tool_cmd or not shutil.which(args.tool_cmd[0]):
        raise SystemExit("difftest: no hpp-rewrite at %s (--tool)" % args.tool)

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
        t = ProgramTest(prog, args, runner, work)
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
