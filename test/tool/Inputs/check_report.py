"""Checks a --report-json report (report-json.test): check_report.py
CASE REPORT DIR, CASE one of ok, fail, wae; DIR holds the sources."""
import json
import os
import sys

case, path, root = sys.argv[1:4]
report = json.load(open(path))
assert report["schema"] == "hpp-rewrite-report/1", report["schema"]
assert report["tool"]["name"] == "hpp-rewrite"
files = {os.path.basename(f["source"]): f for f in report["files"]}
summary = report["summary"]


def source(name):
    return open(os.path.join(root, name), "rb").read()


def check_edits(f):
    """Each edit lies in the source, line:col matches its offset, and the
    edits not moved into a kernel do not overlap."""
    text = source(os.path.basename(f["source"]))
    assert f["file"] == os.path.abspath(os.path.join(root, os.path.basename(f["source"]))), f["file"]
    assert f["edits"], "no edits"
    spans = []
    for e in f["edits"]:
        assert e["rule"].startswith("hpp-"), e
        assert e["file"] == f["file"]
        assert 0 <= e["offset"] and e["offset"] + e["length"] <= len(text), e
        line = text.count(b"\n", 0, e["offset"]) + 1
        col = e["offset"] - (text.rfind(b"\n", 0, e["offset"]) + 1) + 1
        assert (e["line"], e["column"]) == (line, col), (e, line, col)
        assert isinstance(e["text"], str) and isinstance(e["moved"], bool)
        if not e["moved"]:
            spans.append((e["offset"], e["offset"] + e["length"]))
    spans.sort()
    for (a, b), (c, d) in zip(spans, spans[1:]):
        assert b <= c or (a == b == c), (a, b, c, d)
    rules = {e["rule"] for e in f["edits"]}
    assert "hpp-parallel-for" in rules, rules
    return rules


def diag(f, rule):
    found = [d for d in f["diagnostics"] if d["rule"] == rule]
    assert found, (rule, f["diagnostics"])
    d = found[0]
    loc = d["location"]
    assert loc["file"].endswith(os.path.basename(f["source"])), loc
    assert loc["line"] > 0 and loc["column"] > 0
    assert isinstance(d["notes"], list) and isinstance(d["fixits"], list)
    assert not d["message"].endswith("]"), d["message"]
    return d


if case == "ok":
    assert report["written"] is True
    assert summary["files"] == 2 and summary["rewritten"] == 2, summary
    assert summary["failed"] == 0 and summary["kernelsOutlined"] == 2, summary
    assert summary["warnings"] == 2 and summary["errors"] == 0, summary
    a, w = files["a.cpp"], files["warnings.cpp"]
    assert a["status"] == "rewritten" and a["diagnostics"] == []
    assert a["output"].endswith("/out/a.cpp"), a["output"]
    assert a["kernelsOutlined"] == 1
    check_edits(a)
    check_edits(w)
    assert summary["edits"] == len(a["edits"]) + len(w["edits"])
    assert sum(summary["editsByRule"].values()) == summary["edits"]
    for rule in ("hpp-divergent-warp-op", "hpp-barrier-divergence"):
        assert diag(w, rule)["severity"] == "warning"
    assert w["warnings"] == 2 and w["errors"] == 0
elif case == "fail":
    assert report["written"] is False
    assert summary["failed"] == 1 and summary["rewritten"] == 1, summary
    b = files["bad.cpp"]
    assert b["status"] == "failed" and b["edits"] == [] and b["output"] is None
    d = diag(b, "clang-diagnostic-error")
    assert d["severity"] == "error", d
    assert "undeclared identifier 'missing'" in d["message"], d
    assert files["a.cpp"]["output"] is None
elif case == "wae":
    w = files["warnings.cpp"]
    assert w["status"] == "failed"
    d = diag(w, "hpp-barrier-divergence")
    assert d["severity"] == "error", d
    assert diag(w, "hpp-divergent-warp-op")["severity"] == "warning"
else:
    sys.exit("unknown case " + case)
