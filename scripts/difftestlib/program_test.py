"""difftest for one program: ProgramTest builds the reference, rewrites and
builds the output, runs all four and judges every check unit (Outcome: what
one unit printed in one run).
"""

import concurrent.futures
import os
import re
import sys
import time

from .programs import (CONFLICT, blank_units, build_error_units, build_error_units_tree,
                       in_unit, parse_diagnostics, parse_diagnostics_tree, split_units)


class Outcome:
    """What one unit printed in one run: text (None if missing) and ok."""

    def __init__(self, text, ok):
        self.text, self.ok = text, ok

    def show(self):
        return "<no output: the program stopped before it>" if self.text is None else self.text



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
        cmd = self.cfg.cxx_cmd + ["-std=c++17", self.cfg.opt, "-pthread", "-w"]
        if self.cfg.linker:
            cmd.append("-fuse-ld=" + self.cfg.linker)
        for inc in includes:
            cmd += ["-I", inc]
        srcs = src if isinstance(src, list) else [src]
        cmd += list(extra) + self.p.cxxflags + srcs + ["-o", out]
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

    def rewrite(self, src, name="rewritten.cpp"):
        """(status, output path, stderr) of hpp-rewrite on `src`."""
        out = os.path.join(self.work, name)
        if os.path.exists(out):
            os.remove(out)
        cmd = self.cfg.tool_cmd + [src, "-o", out] + self.p.tool_args
        rc, err = self.run_tool(cmd)
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
        env.update(getattr(args, "env", {}))
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
        """Rewrites (blanking refused kernels out and retrying) and builds
        (blanking out the kernels the compiler's errors name and retrying).

        Returns a dict: exe (or None), status (ok / refused / crashed /
        build-failed), diags (all diagnostics about the input), blanked
        (unit ids removed because of their errors), build_failed (unit id
        -> the compiler's errors that removed it), gpu_failed (unit id, or
        None where the errors name no unit, -> a GPU compiler's errors),
        text (tool or build output for reports)."""
        p = self.p
        src = p.path
        blanked = []
        build_failed = {}
        all_diags = []
        stderr_all = ""

        def result(status, text, exe=None):
            return {"exe": exe, "status": status, "diags": all_diags, "blanked": blanked,
                    "text": text, "build_failed": build_failed, "gpu_failed": {}}

        while True:
            rc, out, err = self.rewrite(src)
            stderr_all += err
            diags = parse_diagnostics(err, src)
            all_diags += [d for d in diags if d not in all_diags]
            if rc != 0 or not os.path.exists(out):
                if rc < 0 or rc == 124 or not re.search(r": (fatal )?error: ", err):
                    return result("crashed", "hpp-rewrite exited with status %d%s" % (
                        rc, ", stderr:\n" + err if err.strip() else ", no diagnostics"))
                if p.units is None:
                    return result("refused", err)
                errors = [d for d in diags if d["severity"] in ("error", "fatal error")]
                hit = [u for u in p.units if u["id"] not in blanked and
                       any(in_unit(d, u) for d in errors)]
                outside = [d for d in errors if not any(in_unit(d, u) for u in p.units)]
                if outside or not hit:
                    return result("refused", err)
                blanked += [u["id"] for u in hit]
                src = self.reduce(blanked, build_failed)
                if len(blanked) + len(build_failed) == len(p.units):
                    return result("refused", err)
                continue
            exe = os.path.join(self.work, "gen")
            # The CPU backend checks work-group memory only when built for it.
            checks = ["-DHPP_CPU_CHECKS"] if self.cfg.check else []
            rc, err = self.cxx(out, exe, [self.cfg.runtime, self.cfg.include], checks,
                               key="gen build")
            if rc:
                # The output names the input's lines (#line): the units of a
                # generator program that the errors name are blanked out,
                # and the rest is rewritten and built again.
                hit = build_error_units(err, p.path, p.units,
                                        set(blanked) | set(build_failed)) if p.units else {}
                hit.pop(None, None)
                if not hit:
                    return result("build-failed", err)
                build_failed.update(hit)
                if len(blanked) + len(build_failed) == len(p.units):
                    return result("build-failed", err)
                src = self.reduce(blanked, build_failed)
                continue
            gen = result("ok", stderr_all, exe)
            if self.cfg.gpu:
                gen["gpu_failed"] = self.gpu_builds(out, blanked, build_failed)
            return gen

    def reduce(self, *removed):
        """The input with the removed units blanked out (line numbers kept)."""
        p = self.p
        gone = set()
        for ids in removed:
            gone |= set(ids)
        reduced = os.path.join(self.work, os.path.basename(p.path))
        with open(reduced, "w", errors="surrogateescape") as f:
            f.write(blank_units(p.source, [u for u in p.units if u["id"] in gone]))
        return reduced

    def gpu_builds(self, out, blanked, build_failed):
        """Compiles the rewritten program with the GPU compilers of --gpu.
        A compiler stops at some errors before it reaches others (nvcc's
        device pass after host-side template errors), so the units its
        errors name are blanked out, the rest rewritten and compiled again.
        Returns {unit id, or None for errors that name no unit: "compiler
        rejects ...: errors"}."""
        failed = {}
        gone = set(blanked) | set(build_failed)
        cur = out
        if self.cfg.gpu_queue:
            return self.queue_gpu_build(out)
        for target in self.cfg.gpu:
            if target == "nvcc":
                base = [self.cfg.nvcc, "-std=c++17", "-arch=sm_90", "-x", "cu", "-c"]
            else:
                base = [self.cfg.hipcc, "-std=c++17", "-x", "hip", "--offload-arch=" + target,
                        "--cuda-device-only", "-c"]
            for attempt in range(6):
                cmd = base + ["-I", self.cfg.runtime, "-I", self.cfg.include, cur,
                              "-o", os.devnull]
                rc, _, err = self.runner.run(cmd, timeout=self.cfg.build_timeout,
                                             timing=self.timing, key="gpu build")
                if rc == 0:
                    break
                with open(os.path.join(self.work, "%s.%d.stderr" % (target, attempt)), "w") as f:
                    f.write(err)
                hit = build_error_units(err, self.p.path, self.p.units,
                                        gone | set(failed)) if self.p.units else {None: err}
                for uid, text in hit.items():
                    failed[uid] = failed.get(uid, "") + "%s rejects the rewritten program:\n%s\n" % (
                        target, text)
                if None in hit or not self.p.units:
                    break
                if len(gone) + len(failed) >= len(self.p.units):
                    return failed
                # The rest, rewritten again.
                src = self.reduce(gone, failed)
                rc, nxt, _ = self.rewrite(src, "rewritten-gpu.cpp")
                if rc != 0 or not os.path.exists(nxt):
                    break
                cur = nxt
        return failed

    def queue_gpu_build(self, out):
        """--gpu-queue: hands the rewritten program to scripts/gpu-check.py,
        which compiles it later with the other queued files (for sm_90 with
        nvcc, gfx90a and gfx1030 with hipcc, as gpu_builds does) and reports
        a rejected file itself. {} once queued."""
        cmd = [sys.executable, os.path.join(os.path.dirname(os.path.dirname(
                   os.path.abspath(__file__))), "gpu-check.py"),
               "--queue", self.cfg.gpu_queue,
               "-I", self.cfg.runtime, "-I", self.cfg.include]
        if "nvcc" in self.cfg.gpu:
            cmd += ["--nvcc", self.cfg.nvcc]
        if any(t != "nvcc" for t in self.cfg.gpu):
            cmd += ["--hipcc", self.cfg.hipcc]
        rc, _, err = self.runner.run(cmd + [out], timeout=self.cfg.build_timeout,
                                     timing=self.timing, key="gpu build")
        return {} if rc == 0 else {None: "queueing the GPU build failed:\n%s\n" % err}

    # -- judging -------------------------------------------------------------
    def fail_all(self, cls, text):
        units = self.p.units if self.p.units is not None else [
            {"id": None, "lines": (1, 10 ** 9)} for _ in self.p.runs]
        for n, u in enumerate(units):
            self.results.append({"program": self.p.path, "unit": self.unit_name(u, n),
                                 "status": "fail", "class": cls, "outputs": {},
                                 "diags": [], "detail": text, "wrong64": None,
                                 "warned": False, "expect64": u.get("expect64"),
                                 "conflict": False,
                                 "expect_conflict": getattr(self.p, "expect_conflict", None)})

    def run_tool(self, cmd):
        """Runs hpp-rewrite; returns (status, stderr). The tool cannot be
        started (being relinked) or died of a signal: tried again later; a
        real crash crashes again."""
        for attempt in range(6):
            rc, _, err = self.runner.run(cmd, timeout=self.cfg.build_timeout,
                                         timing=self.timing, key="rewrite")
            transient = rc == 127 and err.startswith("cannot run")
            if not (transient or (rc < 0 and attempt == 0)) or self.cfg.retry_delay <= 0:
                break
            time.sleep(self.cfg.retry_delay * (attempt + 1))
        return rc, err

    def unit_name(self, u, n):
        if u.get("id") is not None:
            return "kernel %d (lines %d-%d)" % (u["id"], u["lines"][0], u["lines"][1])
        args = self.p.runs[n] if n < len(self.p.runs) else []
        return "whole output, arguments [%s]" % " ".join(args)

    def judge(self, unit_name, outs, diags, gen, expect=None, blanked=False, build_error=None,
              gpu_error=None, may_refuse=False, conflict=False):
        """Applies the rule to one unit; outs maps ref32/ref64/gen32/gen64
        to Outcome (gen ones absent when there is no rewritten program);
        build_error and gpu_error are the CPU and GPU compilers' errors in
        the unit's rewritten code."""
        r32, r64 = outs["ref32"], outs["ref64"]
        wrong64 = not r64.ok
        warned = any(d["severity"] == "warning" and d["tag"].startswith("hpp") for d in diags)
        errored = any(d["severity"] in ("error", "fatal error") for d in diags)
        res = {"program": self.p.path, "unit": unit_name, "outputs": outs, "diags": diags,
               "wrong64": wrong64, "warned": warned, "expect64": expect, "status": "pass",
               "class": None, "detail": "", "conflict": False,
               "expect_conflict": getattr(self.p, "expect_conflict", None)}

        def fail(cls, detail=""):
            res["status"], res["class"], res["detail"] = "fail", cls, detail

        if not r32.ok:
            fail("bad-reference")
        elif gen["status"] == "skipped":
            pass
        elif build_error is not None:
            fail("gen-build-failed", build_error)
        elif conflict:
            # A multi-file program's header that two translation units need
            # rewritten differently: the tool refuses, writing nothing. Not
            # a failure; unless the generator said so, a failure under
            # --strict-conflicts.
            res["status"], res["conflict"] = "refused", True
            if getattr(self.cfg, "strict_conflicts", False) and not self.p.expect_conflict:
                fail("conflict-unpredicted", gen.get("conflict_text", ""))
        elif blanked or gen["status"] == "refused":
            if self.p.may_refuse or (errored and (wrong64 or may_refuse)):
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
                if g64.text != r64.text and warned:
                    # Right at 64 as written, changed by the rewrite, with a
                    # warning in the unit's lines that says why (a kernel
                    # narrowed beside one that runs as written): what the
                    # contract allows ("a warning at the line that keeps it
                    # from being right"), counted apart in the summary.
                    res["status"], res["changed64"] = "warned", True
                elif g64.text != r64.text:
                    fail("mismatch-64")
            elif g64.ok:
                res["status"] = "fixed"
            elif warned:
                res["status"] = "warned"
            else:
                fail("wrong-64-unwarned")
            if gpu_error is not None and res["status"] != "fail":
                fail("gpu-build-failed", gpu_error)
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
            gpu = gen.get("gpu_failed", {})
            self.judge(self.unit_name(u, 0), outs, diags, gen, expect=u["expect64"],
                       blanked=i in gen["blanked"],
                       build_error=gen.get("build_failed", {}).get(i),
                       gpu_error=gpu.get(i, gpu.get(None)), may_refuse=u.get("may_refuse"),
                       conflict=i in gen.get("conflicted", ()))

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
            self.judge(self.unit_name({"id": None}, n), outs, gen["diags"], gen,
                       gpu_error="".join(gen.get("gpu_failed", {}).values()) or None)



class MultiProgramTest(ProgramTest):
    """A program of several sources and the project headers they share
    (programs.MultiProgram): built from all its sources, rewritten in one
    run of the tool (`--output-dir`, `--root`: the headers are rewritten
    once for all the sources) and judged kernel by kernel as a
    single-file generator program is. A kernel refused by an error in its
    lines or in a helper it calls is blanked out, with main's call of it,
    and the rest rewritten again; a header conflict (CONFLICT) blanks the
    helper at its line and every kernel that calls it, which count as
    refused by the conflict."""

    def __init__(self, prog, cfg, runner, work):
        super().__init__(prog, cfg, runner, work)
        self.roots = [prog.root]
        self.rounds = 0

    def unit_name(self, u, n):
        if u.get("id") is None:  # a project without kernel markers: its output
            return super().unit_name(u, n)
        return "kernel %d (%s lines %d-%d)" % (u["id"], u["rel"], u["lines"][0], u["lines"][1])

    def judge_kernels(self, ref_bins, gen):
        super().judge_kernels(ref_bins, gen)
        # A failure of a kernel that the generator's model joins through a
        # shared helper to other kernels in a component that runs as
        # written: the tool's one warning of the component lies at another
        # kernel's line, and the kernel may run as written where alone it
        # would be widened or narrowed (test/differential/
        # shared-helper-join.test).
        model = {k["id"]: k for k in self.p.desc.get("kernels", [])}
        for r in self.results:
            m = re.match(r"kernel (\d+) ", r["unit"])
            k = model.get(int(m.group(1))) if m else None
            if r["status"] == "fail" and k and k.get("model") == "as-written" and \
                    k.get("model_joined"):
                r["known"] = "shared-helper-join"

    def includes(self, root):
        return [os.path.join(root, d) for d in self.p.include_dirs]

    def sources(self, root):
        return [os.path.join(root, s) for s in self.p.sources]

    def build_reference(self):
        exe = os.path.join(self.work, "ref")
        rc, err = self.cxx(self.sources(self.p.root), exe,
                           [self.cfg.include] + self.includes(self.p.root), key="ref build")
        if rc:
            return None, err
        return {32: exe, 64: exe}, ""

    def rewrite_tree(self, root):
        """(status, output directory, stderr) of one run of the tool on
        every source of the program under `root`."""
        out = os.path.join(self.work, "out-%d" % self.rounds)
        cmd = self.cfg.tool_cmd + self.sources(root) + [
            "--output-dir", out, "--root", root, "--quiet", "--"]
        cmd += ["-I" + d for d in self.includes(root)] + self.p.tool_args
        rc, err = self.run_tool(cmd)
        with open(os.path.join(self.work, "rewrite.stderr"), "a") as f:
            f.write("$ %s\n%s" % (" ".join(cmd), err))
        return rc, out, err

    def reduce_tree(self, blanked, build_failed, helpers):
        """A copy of the program with these units and helpers blanked out."""
        self.rounds += 1
        dest = os.path.join(self.work, "reduced-%d" % self.rounds)
        gone = set(blanked) | set(build_failed)
        self.p.tree(dest, [u for u in self.p.units if u["id"] in gone], helpers)
        self.roots.append(dest)
        return dest

    def rewrite_and_build(self):
        p = self.p
        root = p.root
        blanked, conflicted, helpers = [], [], []
        build_failed = {}
        all_diags = []
        stderr_all = ""
        state = {"conflict_text": ""}

        def result(status, text, exe=None):
            return {"exe": exe, "status": status, "diags": all_diags, "blanked": blanked,
                    "text": text, "build_failed": build_failed, "gpu_failed": {},
                    "conflicted": conflicted, "conflict_text": state["conflict_text"]}

        while True:
            rc, out, err = self.rewrite_tree(root)
            stderr_all += err
            diags = parse_diagnostics_tree(err, self.roots)
            all_diags += [d for d in diags if d not in all_diags]
            if rc != 0:
                if rc < 0 or rc == 124 or not re.search(r": (fatal )?error: ", err):
                    return result("crashed", "hpp-rewrite exited with status %d%s" % (
                        rc, ", stderr:\n" + err if err.strip() else ", no diagnostics"))
                errors = [d for d in diags if d["severity"] in ("error", "fatal error")]
                live = [u for u in p.units if u["id"] not in blanked]
                conflicts = [d for d in errors if CONFLICT in d["text"]]
                others = [d for d in errors if CONFLICT not in d["text"]]
                if conflicts:
                    state["conflict_text"] += "".join(d["text"] + "\n" for d in conflicts)
                new_helpers = set()
                for d in errors:
                    new_helpers |= set(p.helpers_at(d["file"], d["line"]))
                if any(not p.helpers_at(d["file"], d["line"]) for d in conflicts):
                    # A conflict outside the generator's helpers: the whole
                    # program is refused by it.
                    conflicted += [u["id"] for u in live]
                    blanked += [u["id"] for u in live]
                    return result("refused", err)
                by_conflict = {n for d in conflicts for n in p.helpers_at(d["file"], d["line"])}
                hit_conflict = [u for u in live if any(u["id"] in p.helpers[n]["users"]
                                                       for n in by_conflict)]
                hit = [u for u in live if u not in hit_conflict and
                       any(in_unit(d, u) for d in others)]
                outside = [d for d in others if not any(in_unit(d, u) for u in p.units)
                           and not p.helpers_at(d["file"], d["line"])]
                if outside or not (hit or new_helpers):
                    return result("refused", err)
                conflicted += [u["id"] for u in hit_conflict]
                blanked += [u["id"] for u in hit_conflict + hit]
                helpers += sorted(new_helpers - set(helpers))
                if len(set(blanked) | set(build_failed)) >= len(p.units):
                    return result("refused", err)
                root = self.reduce_tree(blanked, build_failed, helpers)
                continue
            exe = os.path.join(self.work, "gen")
            checks = ["-DHPP_CPU_CHECKS"] if self.cfg.check else []
            rc, err = self.cxx(self.sources(out), exe,
                               [self.cfg.runtime, self.cfg.include] + self.includes(out), checks,
                               key="gen build")
            if rc:
                hit = build_error_units_tree(err, self.roots, p,
                                             set(blanked) | set(build_failed))
                hit.pop(None, None)
                if not hit:
                    return result("build-failed", err)
                build_failed.update(hit)
                if len(set(blanked) | set(build_failed)) >= len(p.units):
                    return result("build-failed", err)
                root = self.reduce_tree(blanked, build_failed, helpers)
                continue
            gen = result("ok", stderr_all, exe)
            if self.cfg.gpu:
                gen["gpu_failed"] = self.gpu_builds_tree(out, root, blanked, build_failed,
                                                         helpers)
            return gen

    def gpu_builds_tree(self, out, root, blanked, build_failed, helpers):
        """gpu_builds for the program's rewritten sources, each compiled on
        its own (or all queued, one group per program: -I the output)."""
        if self.cfg.gpu_queue:
            cmd = [sys.executable, os.path.join(os.path.dirname(os.path.dirname(
                       os.path.abspath(__file__))), "gpu-check.py"),
                   "--queue", self.cfg.gpu_queue, "-I", self.cfg.runtime, "-I", self.cfg.include,
                   "-I", out] + sum((["-I", d] for d in self.includes(out)), [])
            if "nvcc" in self.cfg.gpu:
                cmd += ["--nvcc", self.cfg.nvcc]
            if any(t != "nvcc" for t in self.cfg.gpu):
                cmd += ["--hipcc", self.cfg.hipcc]
            rc, _, err = self.runner.run(cmd + self.sources(out), timeout=self.cfg.build_timeout,
                                         timing=self.timing, key="gpu build")
            return {} if rc == 0 else {None: "queueing the GPU build failed:\n%s\n" % err}
        failed = {}
        gone = set(blanked) | set(build_failed)
        cur = out
        for target in self.cfg.gpu:
            if target == "nvcc":
                base = [self.cfg.nvcc, "-std=c++17", "-arch=sm_90", "-x", "cu", "-c"]
            else:
                base = [self.cfg.hipcc, "-std=c++17", "-x", "hip", "--offload-arch=" + target,
                        "--cuda-device-only", "-c"]
            for attempt in range(6):
                incs = ["-I", self.cfg.runtime, "-I", self.cfg.include]
                incs += sum((["-I", d] for d in self.includes(cur)), [])
                errs = ""
                for src in self.sources(cur):
                    rc, _, err = self.runner.run(base + incs + [src, "-o", os.devnull],
                                                 timeout=self.cfg.build_timeout,
                                                 timing=self.timing, key="gpu build")
                    if rc:
                        errs += err
                if not errs:
                    break
                with open(os.path.join(self.work, "%s.%d.stderr" % (target, attempt)), "w") as f:
                    f.write(errs)
                hit = build_error_units_tree(errs, self.roots, self.p, gone | set(failed))
                for uid, text in hit.items():
                    failed[uid] = failed.get(uid, "") + \
                        "%s rejects the rewritten program:\n%s\n" % (target, text)
                if None in hit or len(gone) + len(failed) >= len(self.p.units):
                    break
                reduced = self.reduce_tree(gone | set(failed), {}, helpers)
                rc, nxt, _ = self.rewrite_tree(reduced)
                if rc != 0:
                    break
                cur = nxt
        return failed
