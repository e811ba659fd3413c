"""difftest inputs: the programs, their options and their check units.

Program (one input and its options), load_config and collect_inputs (files,
directories and .json configs), parse_diagnostics (hpp-rewrite's messages),
in_unit, blank_units and split_units (a generator program's kernels).
"""

import json
import os
import re

MARKER = re.compile(r"^// (?:warpgen|scope-corpus) kernel (\d+): lines (\d+)-(\d+)(.*)$")
# The multi-file mode's helpers in headers and the lines of main that call
# a kernel (scripts/warpgenlib/multifile.py).
HELPER = re.compile(r"^// warpgen helper (\w+): lines (\d+)-(\d+), used by kernels ([\d ]+|none)")
CALL = re.compile(r"// warpgen call (\d+)\s*$")
CONFLICT = "the translation units disagree on this project header"
EXPECT = re.compile(r"expect64 (ok|wrong) \((.*)\)\s*$")
DIAG = re.compile(r"^(.*?):(\d+):(\d+): (warning|error|fatal error|remark|note): (.*?)"
                  r"(?: \[([A-Za-z0-9_.-]+)\])?$")
UNIT_LINE = re.compile(r"^kernel (\d+): (.*)$")


class RunArgs(list):
    """One argument list of a program, with the environment of that run
    alone (a run written {"args": [...], "env": {...}})."""

    def __init__(self, args, env=None):
        super().__init__(map(str, args))
        self.env = dict(env or {})


def parse_run(r):
    """A runs entry: an argument list, or {"args": [...], "env": {...}}."""
    if isinstance(r, dict):
        return RunArgs(r.get("args", []), r.get("env"))
    return RunArgs(r)


class Program:
    """One input program and its options. A directory with a program.json
    (scripts/warpgen.py --multi-file) is one program of several sources:
    see MultiProgram."""

    multi = False

    def __init__(self, path, opts=None):
        opts = opts or {}
        self.path = os.path.abspath(path)
        self.runs = [parse_run(r) for r in opts.get("runs", [[]])]
        self.width_defines = bool(opts.get("width_defines", False))
        self.width_dependent = bool(opts.get("width_dependent", False))
        self.ignore = re.compile(opts["ignore"]) if opts.get("ignore") else None
        self.may_refuse = bool(opts.get("may_refuse", False))
        self.skip = opts.get("skip")
        self.cxxflags = list(opts.get("cxxflags", []))
        self.tool_args = list(opts.get("tool_args", []))
        self.env = dict(opts.get("env", {}))
        # A CUDA source (scripts/warpgen.py --cuda, examples/cuda): ported
        # with `hpp-rewrite --port` and judged by difftestlib/cuda_test.py.
        self.cuda = self.path.endswith(".cu")
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


class MultiProgram(Program):
    """A program of several sources and the project headers they share
    (a directory with a program.json: sources, the first one holding
    main; include_dirs; expect_conflict). Its check units are the kernels
    of every source, each with its file (`rel`, relative to the root) and
    the other lines that are its code (`extra`: the header helpers it
    calls, main's lines that call it). `helpers`: the header helpers,
    name -> {rel, lines, users}."""

    multi = True
    cuda = False

    def __init__(self, root, opts=None):
        opts = opts or {}
        self.root = self.path = os.path.abspath(root)
        with open(os.path.join(self.root, "program.json")) as f:
            desc = json.load(f)
        self.desc = desc
        self.sources = list(desc["sources"])
        self.include_dirs = list(desc.get("include_dirs", []))
        self.expect_conflict = bool(desc.get("expect_conflict"))
        self.conflict_helpers = list(desc.get("conflict_helpers", []))
        self.runs = [[]]
        self.width_defines = self.width_dependent = False
        self.ignore = None
        self.may_refuse = bool(opts.get("may_refuse", False))
        self.skip = opts.get("skip")
        self.cxxflags = list(opts.get("cxxflags", []))
        self.tool_args = list(opts.get("tool_args", []))
        self.env = dict(opts.get("env", {}))
        # Every file of the program: the sources and the headers.
        self.files = {}
        for dirpath, _, names in os.walk(self.root):
            for name in names:
                if name.endswith((".cpp", ".h", ".hpp", ".cuh")):
                    full = os.path.join(dirpath, name)
                    with open(full, errors="replace") as f:
                        self.files[os.path.relpath(full, self.root)] = f.read()
        self.helpers = {}
        for rel, text in sorted(self.files.items()):
            for line in text.splitlines():
                m = HELPER.match(line)
                if m:
                    users = [] if m.group(4) == "none" else [int(x) for x in m.group(4).split()]
                    self.helpers[m.group(1)] = {"rel": rel, "users": users,
                                                "lines": (int(m.group(2)), int(m.group(3)))}
        self.source = None
        units = []
        for rel in self.sources:
            for line in self.files[rel].splitlines():
                m = MARKER.match(line)
                if m:
                    e = EXPECT.search(m.group(4))
                    units.append({"id": int(m.group(1)), "rel": rel,
                                  "lines": (int(m.group(2)), int(m.group(3))),
                                  "expect64": e.group(1) if e else None,
                                  "reason": e.group(2) if e else "",
                                  "may_refuse": ", refusal allowed" in m.group(4),
                                  "extra": []})
        by_id = {u["id"]: u for u in units}
        for name, h in self.helpers.items():
            for uid in h["users"]:
                if uid in by_id:
                    by_id[uid]["extra"].append((h["rel"], h["lines"][0], h["lines"][1]))
        for rel in self.sources:
            for n, line in enumerate(self.files[rel].splitlines(), 1):
                m = CALL.search(line)
                if m and int(m.group(1)) in by_id:
                    by_id[int(m.group(1))]["extra"].append((rel, n, n))
        self.units = units or None

    def helpers_at(self, rel, line):
        """The names of the helpers whose lines hold (rel, line)."""
        return [n for n, h in self.helpers.items()
                if h["rel"] == rel and h["lines"][0] <= line <= h["lines"][1]]

    def tree(self, dest, blank_units=(), blank_helpers=()):
        """Writes the program under `dest` with the lines of these units
        (their kernels and main's calls of them) and helpers emptied (line
        numbers kept)."""
        gone = {}
        for u in blank_units:
            gone.setdefault(u["rel"], []).append(u["lines"])
            for rel, lo, hi in u["extra"]:
                if self.helpers_at(rel, lo) == []:  # main's call, not a helper
                    gone.setdefault(rel, []).append((lo, hi))
        for name in blank_helpers:
            h = self.helpers[name]
            gone.setdefault(h["rel"], []).append(h["lines"])
        for rel, text in self.files.items():
            lines = text.split("\n")
            for lo, hi in gone.get(rel, []):
                for n in range(lo - 1, min(hi, len(lines))):
                    lines[n] = ""
            path = os.path.join(dest, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", errors="surrogateescape") as f:
                f.write("\n".join(lines))
        with open(os.path.join(dest, "program.json"), "w") as f:
            json.dump(self.desc, f, indent=1)


def is_multi_program(path):
    return os.path.isdir(path) and os.path.isfile(os.path.join(path, "program.json"))


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
        elif is_multi_program(item):
            plain.append(os.path.abspath(item))
        elif os.path.isdir(item):
            for name in sorted(os.listdir(item)):
                full = os.path.abspath(os.path.join(item, name))
                if name.endswith((".cpp", ".cu")) or is_multi_program(full):
                    plain.append(full)
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
        if is_multi_program(path):
            programs.append(MultiProgram(path, opts))
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


def parse_diagnostics_tree(stderr, roots):
    """The tool's diagnostics about the files under any of `roots` (a
    program's directory and its reduced copies): dicts with file (the
    path relative to its root), line, severity, tag, text."""
    diags = []
    for line in stderr.splitlines():
        m = DIAG.match(line)
        if not m:
            continue
        rel = rel_path(m.group(1), roots)
        if rel is None:
            continue
        diags.append({"file": rel, "line": int(m.group(2)), "severity": m.group(4),
                      "tag": m.group(6) or "", "text": line})
    return diags


def rel_path(path, roots):
    """`path` relative to the first of `roots` that holds it, or None."""
    full = os.path.abspath(path)
    for root in roots:
        if full.startswith(root.rstrip(os.sep) + os.sep):
            return os.path.relpath(full, root)
    return None


def in_unit(diag, unit):
    if "rel" in unit:
        # A unit of a multi-file program: its kernel's lines in its
        # source, and its extra ranges (helpers, main's call).
        ranges = [(unit["rel"],) + tuple(unit["lines"])] + list(unit.get("extra", []))
        return any(diag.get("file") == rel and lo <= diag["line"] <= hi
                   for rel, lo, hi in ranges)
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


def build_error_units_tree(stderr, roots, prog, gone=()):
    """build_error_units for a multi-file program: the compiler's errors
    name files under `roots` (the #line directives of the rewritten files
    name the rewritten input's); an error in a header helper names every
    unit that calls it."""
    errors, context = {}, {}
    for line in stderr.splitlines():
        m = COMPILER_LINE.match(line)
        hits = []
        if m:
            rel = rel_path(m.group(1), roots)
            if rel is not None:
                hits.append((rel, int(m.group(2) or m.group(3)), m.group(4)))
        for at in NVCC_AT.finditer(line):
            rel = rel_path(at.group(2), roots)
            if rel is not None:
                hits.append((rel, int(at.group(1)), "context"))
        for rel, n, msg in hits:
            ids = [u["id"] for u in prog.units if in_unit({"file": rel, "line": n}, u)]
            for uid in ids:
                if uid in gone:
                    continue
                if re.match(r"(fatal )?error", msg):
                    errors.setdefault(uid, []).append(line)
                elif msg == "context" or re.search(r"required from|requested here|instantiation",
                                                   msg):
                    context.setdefault(uid, []).append(line)
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

