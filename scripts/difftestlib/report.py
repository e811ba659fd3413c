"""difftest reporting: the failure classes, report_failure (one failing
unit with its outputs and diagnostics), write_json (--json) and summarize
(the summary and the `N passed, M failed` line).
"""

import json
import re

SILENT = ("mismatch-32", "mismatch-64", "wrong-64-unwarned")
CLASS_HELP = {
    "bad-reference": "the input is wrong at 32 lanes on the reference (an input bug)",
    "ref-build-failed": "the input does not build against the reference runtime",
    "tool-refused": "hpp-rewrite exited with an error on code it should accept",
    "tool-crashed": "hpp-rewrite crashed or timed out",
    "gen-build-failed": "the rewritten output does not build on the CPU backend",
    "gpu-build-failed": "nvcc or hipcc rejects the rewritten output (--gpu)",
    "mismatch-32": "rewritten@32 differs from reference@32 (silent)",
    "mismatch-64": "reference@64 is right, rewritten@64 differs (silent)",
    "wrong-64-unwarned": "wrong at 64 as written, still wrong rewritten, no warning (silent)",
    "conflict-unpredicted": "a header conflict refused a multi-file program that does not "
                            "expect one (--strict-conflicts)",
    "run-crashed": "the port died or timed out running it (a CUDA program)",
    "xpass": "expected to fail (--xfail), and passed: take it off the list",
}
# The same classes for a CUDA program (cuda_test.py), which has no
# reference run: the original checks itself.
CUDA_CLASS_HELP = dict(CLASS_HELP, **{
    "mismatch-32": "the port prints a MISMATCH or ERROR at 32 lanes, with no warning (silent)",
    "mismatch-64": "the port is right at 32, prints a MISMATCH or ERROR at 64 lanes, with no "
                   "warning (silent)",
    "tool-refused": "hpp-rewrite --port refused it with an error that has no [hpp-...] tag, "
                    "or outside the kernels",
    "gen-build-failed": "the port does not build on the CPU backend",
})


def apply_xfail(results, ids):
    """--xfail: a failure of a generator kernel whose id is in `ids`
    becomes status "xfail" (its class kept), a pass there class xpass."""
    for r in results:
        m = re.match(r"kernel (\d+) ", r["unit"])
        if not m or int(m.group(1)) not in ids:
            continue
        if r["status"] == "fail":
            r["status"] = "xfail"
        else:
            r["detail"] = "status %s; --xfail expected a failure" % r["status"]
            r["status"], r["class"] = "fail", "xpass"



def indent(text, prefix="      ", limit=20):
    lines = text.splitlines() or [""]
    if len(lines) > limit:
        lines = lines[:limit] + ["... (%d more lines)" % (len(lines) - limit)]
    return "\n".join(prefix + l for l in lines)


def report_failure(r):
    out = ["FAIL [%s] %s: %s" % (r["class"], r["program"], r["unit"])]
    out.append("    %s" % (CUDA_CLASS_HELP if r.get("cuda") else CLASS_HELP).get(r["class"], ""))
    gen = "port" if r.get("cuda") else "rewritten"
    for key, label in (("ref32", "reference@32"), ("ref64", "reference@64"),
                       ("gen32", gen + "@32"), ("gen64", gen + "@64")):
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
            "conflict": r.get("conflict", False), "known": r.get("known"),
            "outputs": {k: o.text for k, o in r["outputs"].items()},
            "diagnostics": [d["text"] for d in r["diags"]]})
    with open(path, "w") as f:
        json.dump({"units": units, "skipped": [{"program": p, "why": w} for p, w in skipped]},
                  f, indent=1)


def program_outcomes(results):
    """Each multi-file program's outcome (results carry expect_conflict,
    None for other programs): failed (a unit failed), conflict (refused by
    a header conflict, some units or all), refused (some units refused
    otherwise), warned (accepted, a unit with a warning), right (accepted,
    every unit right, no warning). {program: (outcome, expected a
    conflict, had one)}."""
    by_prog = {}
    for r in results:
        if r.get("expect_conflict") is None:
            continue
        by_prog.setdefault(r["program"], []).append(r)
    out = {}
    for prog, rs in by_prog.items():
        conflict = any(r.get("conflict") for r in rs)
        if any(r["status"] == "fail" for r in rs):
            what = "failed"
        elif conflict:
            what = "conflict"
        elif any(r["status"] == "refused" for r in rs):
            what = "refused"
        elif any(r["warned"] for r in rs):
            what = "warned"
        else:
            what = "right"
        out[prog] = (what, bool(rs[0]["expect_conflict"]), conflict)
    return out


def multi_file_lines(results):
    outcomes = program_outcomes(results)
    if not outcomes:
        return []
    count = lambda what: sum(1 for o in outcomes.values() if o[0] == what)  # noqa: E731
    units = [r for r in results if r.get("conflict")]
    lines = ["  multi-file programs: %d: accepted and right %d, accepted with a warning %d, "
             "refused by a header conflict %d (%d units), other refusals %d, failed %d" % (
                 len(outcomes), count("right"), count("warned"), count("conflict"), len(units),
                 count("refused"), count("failed"))]
    expected = sum(1 for o in outcomes.values() if o[1])
    unpredicted = sorted(p for p, o in outcomes.items() if o[2] and not o[1])
    missed = sorted(p for p, o in outcomes.items() if o[1] and not o[2])
    lines.append("  header conflicts the generator predicted: %d of %d programs; unpredicted %d, "
                 "predicted but accepted %d" % (expected - len(missed), expected, len(unpredicted),
                                                len(missed)))
    for p in unpredicted[:10]:
        lines.append("    unpredicted header conflict: %s" % p)
    known = [r for r in results if r["status"] == "fail" and r.get("known")]
    if known:
        lines.append("  failed units of a known class (the generator's model joins the kernel "
                     "through a shared helper to a kernel that runs as written: "
                     "test/differential/shared-helper-join.test): %d" % len(known))
    return lines


def cuda_lines(results):
    """The CUDA programs' kernels (cuda_test.py): right, warned, refused
    (those the generator marked `refusal allowed`, and the others),
    failed, silent."""
    cuda = [r for r in results if r.get("cuda")]
    if not cuda:
        return []
    count = lambda st: sum(1 for r in cuda if r["status"] == st)  # noqa: E731
    refused = [r for r in cuda if r["status"] == "refused"]
    expected = sum(1 for r in refused if r.get("expected_refusal"))
    warned = [r for r in cuda if r["status"] == "warned"]
    silent = sum(1 for r in cuda if r["status"] == "fail" and r["class"] in SILENT)
    lines = ["  CUDA kernels: %d: right %d, warned %d, refused %d, failed %d, silent %d" % (
        len(cuda), count("pass"), len(warned), len(refused), count("fail"), silent),
        "    right with a warning in their lines %d; warned and wrong at 32 %d; refused where "
        "the generator allows it %d, elsewhere %d" % (
            sum(1 for r in cuda if r["status"] == "pass" and r["warned"]),
            sum(1 for r in warned if r.get("wrong32")), expected, len(refused) - expected)]
    return lines


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
               for k in ("ref build", "rewrite", "gen build", "runs", "gpu build")
               if k != "gpu build" or any(k in t for t in timings)}
        lines.append("  CPU time per program: " + ", ".join("%s %.1fs" % (k, v)
                                                          for k, v in avg.items()))
    if not results or not all(r.get("cuda") for r in results):  # CUDA: no reference run
        lines.append("  wrong at 64 as written (reference): %d (fixed by the rewrite %d, "
                     "warned %d, refused %d)" % (
                         len(wrong64), sum(1 for r in wrong64 if r["status"] == "fixed"),
                         sum(1 for r in wrong64 if r["status"] == "warned"),
                         sum(1 for r in wrong64 if r["status"] == "refused")))
    lines.append("  units with an [hpp-...] warning: %d" % sum(1 for r in results if r["warned"]))
    changed = sum(1 for r in results if r.get("changed64"))
    if changed:
        lines.append("  right at 64 as written, different rewritten, warned: %d" % changed)
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
    lines += multi_file_lines(results)
    lines += cuda_lines(results)
    xfail = [r for r in results if r["status"] == "xfail"]
    if xfail:
        lines.append("  expected failures (--xfail): %d" % len(xfail))
        lines += ["    %s: %s [%s]" % (r["program"], r["unit"], r["class"]) for r in xfail]
    if skipped:
        lines.append("  skipped inputs: %d" % len(skipped))
    for cls in sorted(by_class):
        lines.append("  failed [%s]%s: %d" % (cls, " (silent)" if cls in SILENT else "",
                                              by_class[cls]))
    silent = sum(v for k, v in by_class.items() if k in SILENT)
    lines.append("  silent mismatches: %d" % silent)
    lines.append("%d passed, %d failed" % (passed, failed))
    return "\n".join(lines), failed

