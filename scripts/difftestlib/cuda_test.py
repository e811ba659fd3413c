"""difftest for a CUDA program (a `.cu` file, scripts/warpgen.py --cuda):
CudaProgramTest ports it with `hpp-rewrite --port`, builds the port on the
runtime's CPU backend, runs it at 32 and 64 lanes and judges each kernel.

There is no reference run: the original is right on an NVIDIA GPU by
construction, and its host code checks every kernel against plain C++,
so a kernel is right where the port prints `kernel <id>: ok`. Per kernel
(a generator program's marker), or for the whole output (exit status 0)
of any other `.cu` program:

  - right: the port prints ok at 32 and at 64;
  - refused: the tool refused with an error tagged [hpp-...] in the
    kernel's lines (the kernel is blanked out and the rest ported again);
    not a failure, counted apart, and apart again where the marker does
    not say `refusal allowed`. An error without a tag (the tool did not
    parse it) is class tool-refused;
  - warned: the port is wrong at 32 or 64 (MISMATCH or ERROR), with an
    [hpp-...] warning in the kernel's lines; not a failure;
  - a silent mismatch, class mismatch-32 or mismatch-64: wrong with no
    warning;
  - failures as for dialect programs: tool-crashed, gen-build-failed,
    gpu-build-failed (--gpu); and run-crashed: the port died or timed out
    running the kernel (alone too), whatever the warnings.
"""

import os
import re

from .program_test import Outcome, ProgramTest
from .programs import in_unit

# Generator kernels the port left without output (the rerun's text).
CRASHED = re.compile(r"^CRASH\b")


class CudaProgramTest(ProgramTest):
    """Ports, builds, runs and judges one CUDA program."""

    def rewrite(self, src, name="rewritten.cpp"):
        """(status, output path, stderr) of hpp-rewrite --port on `src`."""
        out = os.path.join(self.work, name)
        if os.path.exists(out):
            os.remove(out)
        cmd = self.cfg.tool_cmd + ["--port", src, "-o", out] + (self.p.tool_args or ["--"])
        rc, err = self.run_tool(cmd)
        with open(os.path.join(self.work, "rewrite.stderr"), "a") as f:
            f.write("$ %s\n%s" % (" ".join(cmd), err))
        return rc, out, err

    def execute(self):
        gen = self.rewrite_and_build()
        if self.p.units is not None:
            self.judge_cuda_kernels(gen)
        else:
            self.judge_cuda_whole(gen)
        return self.results

    def judge_cuda_kernels(self, gen):
        genout = {}
        if gen["exe"]:
            live = [u["id"] for u in self.p.units if u["id"] not in gen["blanked"]]
            genout = {w: self.kernel_outputs(gen["exe"], w, live) for w in (32, 64)}
        gpu = gen.get("gpu_failed", {})
        for u in self.p.units:
            i = u["id"]
            outs = {}
            if genout:
                for w in (32, 64):
                    text = genout[w].get(i)
                    outs["gen%d" % w] = Outcome(text, text == "ok")
            self.judge_cuda(self.unit_name(u, 0), outs,
                            [d for d in gen["diags"] if in_unit(d, u)], gen,
                            blanked=i in gen["blanked"],
                            build_error=gen.get("build_failed", {}).get(i),
                            gpu_error=gpu.get(i, gpu.get(None)),
                            expected_refusal=bool(u.get("may_refuse")))

    def judge_cuda_whole(self, gen):
        for n, args in enumerate(self.p.runs):
            outs = {}
            if gen["exe"]:
                for w in (32, 64):
                    rc, text = self.whole_output(gen["exe"], w, args)
                    if rc < 0 or rc == 124:
                        text = "CRASH " + text
                    outs["gen%d" % w] = Outcome(text, rc == 0)
            self.judge_cuda(self.unit_name({"id": None}, n), outs, gen["diags"], gen,
                            blanked=gen["status"] == "refused",
                            gpu_error="".join(gen.get("gpu_failed", {}).values()) or None,
                            expected_refusal=self.p.may_refuse)

    def judge_cuda(self, unit_name, outs, diags, gen, blanked=False, build_error=None,
                   gpu_error=None, expected_refusal=False):
        """The rule of the module's docstring for one unit."""
        warned = any(d["severity"] == "warning" and d["tag"].startswith("hpp") for d in diags)
        errors = [d for d in diags if d["severity"] in ("error", "fatal error")]
        res = {"program": self.p.path, "unit": unit_name, "outputs": outs, "diags": diags,
               "wrong64": None, "warned": warned, "expect64": None, "status": "pass",
               "class": None, "detail": "", "conflict": False, "expect_conflict": None,
               "cuda": True, "expected_refusal": expected_refusal, "wrong32": False}

        def fail(cls, detail=""):
            res["status"], res["class"], res["detail"] = "fail", cls, detail

        if build_error is not None:
            fail("gen-build-failed", build_error)
        elif blanked or gen["status"] == "refused":
            if errors and all(d["tag"].startswith("hpp") for d in errors):
                res["status"] = "refused"
            else:
                fail("tool-refused", gen["text"] if not errors else "")
        elif gen["status"] == "crashed":
            fail("tool-crashed", gen["text"])
        elif gen["status"] == "build-failed":
            fail("gen-build-failed", gen["text"])
        else:
            g32, g64 = outs["gen32"], outs["gen64"]
            crashed = [w for w, o in ((32, g32), (64, g64))
                       if o.text is None or CRASHED.match(o.text)]
            if crashed:
                fail("run-crashed", "the port died or timed out at %s lanes" %
                     " and ".join(map(str, crashed)))
            elif g32.ok and g64.ok:
                pass
            elif warned:
                res["status"], res["wrong32"] = "warned", not g32.ok
            elif not g32.ok:
                fail("mismatch-32")
            else:
                fail("mismatch-64")
            if gpu_error is not None and res["status"] != "fail":
                fail("gpu-build-failed", gpu_error)
        self.results.append(res)
