"""difftest inputs: the programs, their options and their check units.

Program (one input and its options), load_config and collect_inputs (files,
directories and .json configs), parse_diagnostics (hpp-rewrite's messages),
in_unit, blank_units and split_units (a generator program's kernels).
"""

import json
import os
import re

MARKER = re.compile(r"^// (?:warpgen|scope-corpus) kernel (\d+): lines (\d+)-(\d+)(.*)$")
EXPECT = re.compile(r"expect64 (ok|wrong) \((.*)\)\s*$")
DIAG = re.compile(r"^(.*?):(\d+):(\d+): (warning|error|fatal error|remark|note): (.*?)"
                  r"(?: \[([A-Za-z0-9_.-]+)\])?$")
UNIT_LINE = re.compile(r"^kernel (\d+): (.*)$")


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
                              "reason": e.group(2) if e else "",
                              "may_refuse": ", refusal allowed" in m.group(4)})
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



# A compiler's message about a line of a file: g++ and clang
# (`f.cpp:12:5: error: ...`, `f.cpp:12:5:   required from here`), nvcc
# (`f.cpp(12): error: ...`, `... detected during ... at line 12 of f.cpp`).
COMPILER_LINE = re.compile(r"^(?:In file included from )?(.*?)(?::(\d+):\d+:|\((\d+)\):) (.*)$")
NVCC_AT = re.compile(r"at line (\d+) of (\S+)")


def build_error_units(stderr, path, units, gone=()):
    """Unit id -> the compiler's messages that name it, for the units of a
    generator program (`path`, or a copy of the same name) whose lines hold
    an error; where the errors are all in headers, the units named by their
    instantiation context (`required from here`, `requested here`, nvcc's
    `at line N of`). None -> the whole text when no unit is named."""
    base = os.path.basename(path)
    errors, context = {}, {}
    for line in stderr.splitlines():
        m = COMPILER_LINE.match(line)
        hits = []
        if m and os.path.basename(m.group(1)) == base:
            hits.append((int(m.group(2) or m.group(3)), m.group(4)))
        for at in NVCC_AT.finditer(line):
            if os.path.basename(at.group(2)) == base:
                hits.append((int(at.group(1)), "context"))
        for n, msg in hits:
            u = next((u for u in units if u["lines"][0] <= n <= u["lines"][1]), None)
            if u is None or u["id"] in gone:
                continue
            if re.match(r"(fatal )?error", msg):
                errors.setdefault(u["id"], []).append(line)
            elif msg == "context" or re.search(r"required from|requested here|instantiation",
                                               msg):
                context.setdefault(u["id"], []).append(line)
    chosen = errors or context
    if not chosen:
        return {None: stderr}
    return {uid: "\n".join(lines[:20]) for uid, lines in chosen.items()}


def split_units(stdout):
    """Unit id -> text of a generator program's `kernel <id>: ...` lines."""
    res = {}
    for line in stdout.splitlines():
        m = UNIT_LINE.match(line)
        if m and int(m.group(1)) not in res:
            res[int(m.group(1))] = m.group(2)
    return res

