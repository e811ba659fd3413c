"""The multi-file mode of scripts/warpgen.py: programs of several sources
that share project headers.

A program is a directory: `main.cpp` (main, which calls each kernel's host
function; sometimes a kernel of its own), two or three sources of kernels
(`runKernel<id>()` functions with external linkage), a harness header (the
checks of harness.py as inline functions), and headers of helpers that the
kernels share: lane and warp ids, full masks, prefix masks and the width
(`__device(hpp)` functions, plain `inline` functions, function templates,
`constexpr` functions), predicates that the host's checks call too, a load
and a maximum template. One header may include another; the headers sit
beside the sources, in a subdirectory, or in an include directory given
with -I (`program.json`'s include_dirs); each has `#pragma once` or an
include guard.

The kernels are warpgen's families (a kernel's code, marker, family,
idioms and 64-lane prediction as in the single-file mode), with hooks
(Kernel.shared) that put the helpers they draw into the shared headers:
two kernels that draw the same helper, in one source or in two, call the
same function.

hpp-rewrite decides the warp width of device code by components (a
kernel with the device functions it calls that are warp code, joined with
every other kernel that calls one of them, in any translation unit of the
run), and a header's width-dependent line is rewritten once for all the
translation units: when two units still need different rewrites of it,
the tool refuses the program ("the translation units disagree on this
project header"). The generator predicts that from a model of the
decision (unit_modes, after lib/Analysis/WidthModel.cpp): a
component with the real width (warpSize, MVECTOR_SIZE, a 64-bit mask
given to a collective) and no 32-lane fact runs at the device's width, one
with both and a 64-bit mask runs as written, any other keeps 32-lane
warps; once a component with a fact keeps 32-lane warps, every
component of the program that would run at the device's width keeps them
too (the tool rewrites such sources again). A `__device(hpp)` function of
a header is device code in every unit that includes it, called or not; a
plain inline function or a template only where device code calls it, and
host code elsewhere (its warpSize then the host's:
test/rewrite/project-headers-host-width.test; where it is device code
for another unit, the host's view yields). Each program follows a plan:

  anchored  (most): the warp header holds a `__device(hpp)` helper with a
            32-lane fact that no kernel calls, and every source includes
            it, so every unit keeps 32-lane warps (or runs as written);
  native    every kernel written width-generic (warpSize, 64-bit masks) and
            no helper with a fact in a header;
  conflict  a `__device(hpp)` helper of the width that kernels running as
            written call and that is 32-lane code in the other units
            ("as-written": refused until the tool joined components across
            units, 2026-11-28; now every caller runs as written, warned);
            or ("host") a plain inline one that one unit's kernels call
            and main includes without calling it, which the tool refused
            until 45fab63 and now accepts (device code for one unit, host
            code for the other).

In the first two plans a helper that the model says would conflict is
given back to its kernels (a copy in each kernel's source, renamed), so
the program is accepted; in the third the program says `expect_conflict`
and the helpers the model blames. program.json also gives each kernel's
mode in the model (model, model_alone, model_joined: whether shared
helpers join it to other kernels), which difftest.py uses to name a known
class of failures (test/differential/shared-helper-join.test). Program
`p` of seed `S` depends on (S, p) alone.

Files: DIR/mf_s<S>_p<p>/ with the sources, the headers and program.json
(sources, include_dirs, plan, expect_conflict, the kernels and helpers).
Markers, read by scripts/difftest.py:

    // warpgen kernel 17: lines A-B, family ..., expect64 ... (...)   (a source)
    // warpgen helper laneOf: lines A-B, used by kernels 3 17          (a header)
    if (wgWanted(argc, argv, 17)) runKernel17();  // warpgen call 17  (main)
"""

import json
import os
import random
import re

from . import harness
from .kernel import FAMILIES, weighted

PLANS = (("anchored", 65), ("native", 25), ("conflict", 10))

# -- what a piece of device code holds, as the width model sees it ----------

_LIT = re.compile(r"(?<![\w.])(16|31|32|0x1[fF])(\.0*f?|\.f)?(?![\w.])")
_SHIFT5 = re.compile(r">>=?\s*5(?![\w.])")
_WIDTH = re.compile(r"\b(warpSize|MVECTOR_SIZE)\b")
_WIDE = re.compile(r"~0ull|~0ULL|0xffffffffffffffffull")
_INTR = re.compile(r"\b(__shfl\w*_sync|__ballot_sync|__any_sync|__all_sync|__activemask|"
                   r"__syncwarp|__popc|__ffs|__clz)\w*\b")
_NARROW_RET = re.compile(r"^\s*(?:template\s*<[^>]*>\s*)?(?:__device\(hpp\)\s*)?(?:static\s+)?"
                         r"(?:inline\s+)?(?:constexpr\s+)?(?:const\s+)?"
                         r"(unsigned int|unsigned|uint32_t|lanemask_t|decltype\(0u\))"
                         r"(?:\s+const)?\s+\w+\s*\(")
_MASKY = re.compile(r"0xffffffff|0xFFFFFFFF|~0u\b|<<|__ballot_sync|__activemask")
_CONST_DEF = re.compile(r"^\s*(?:#define\s+(\w+)\s+\(?(16|31|32|0x1f)\)?\s*$|"
                        r"(?:static\s+)?(?:constexpr|const)\s+(?:int|unsigned|long)\s+(\w+)\s*=\s*"
                        r"(16|31|32)\s*;)")
_MACRO = re.compile(r"^\s*#define\s+(\w+)(\([^)]*\))?\s+(.*)$")


def _strip_comments(text):
    return re.sub(r"//[^\n]*", "", text)


def _calls(text, name_re):
    """The argument lists (as text) of the calls of functions matching
    `name_re` in `text`."""
    out = []
    for m in re.finditer(r"\b(?:%s)\s*\(" % name_re, text):
        depth, args, cur = 1, [], ""
        for ch in text[m.end():]:
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
                if depth == 0:
                    break
            if ch == "," and depth == 1:
                args.append(cur.strip())
                cur = ""
            else:
                cur += ch
        args.append(cur.strip())
        out.append([a for a in args if a] if args != [""] else [])
    return out


_MASKED_NAMES = r"__shfl\w*_sync|__ballot_sync|__any_sync|__all_sync|__syncwarp"
_DECL = re.compile(r"\b(unsigned long long|uint64_t|unsigned int|unsigned|uint32_t|int|auto)"
                   r"\s+(?:const\s+)?(\w+)\s*(?:=\s*([^;,)]*))?")


def analyze(text, pre_lines=()):
    """The width model's view of one piece of device code (a function's
    or a lambda's body with its signature): fact (a 32-lane fact), ret32
    (it returns a 32-bit lane mask: a fact where that is used as a mask),
    width (warpSize or MVECTOR_SIZE), wide (a 64-bit mask given to a
    collective), intr (a warp intrinsic or bit function). `pre_lines`:
    the kernel's lines outside device code (its macros and constants)."""
    code = _strip_comments(text)
    names32, macros, consts = set(), {}, {}
    for line in pre_lines:
        m = _CONST_DEF.match(line)
        if m:
            names32.add(m.group(1) or m.group(3))
        m = _MACRO.match(line)
        if m:
            macros[m.group(1)] = m.group(3)
        m = re.match(r"^\s*(?:static\s+)?(?:constexpr|const)\s+([\w ]+?)\s+(\w+)\s*=\s*(.*);",
                     line)
        if m and "," not in m.group(3):
            consts[m.group(2)] = (m.group(1), m.group(3))
    used = code
    # Constants and macros used in the code count with their values.
    for name, (_, value) in consts.items():
        if re.search(r"\b%s\b" % re.escape(name), code):
            used += "\n" + value
    for name, body in macros.items():
        if re.search(r"\b%s\b" % re.escape(name), code):
            used += "\n" + body
    fact = False
    for m in _LIT.finditer(used):
        before = used[:m.start()].rstrip()
        if before.endswith(("+", "-")) and not before.endswith(("++", "--")) and \
                re.search(r"[\w)\]]\s*[+-]$", before):
            continue  # x + 32: not a fact
        fact = True
        break
    fact = fact or bool(_SHIFT5.search(used)) or "__clz" in used
    fact = fact or any(re.search(r"\b%s\b" % re.escape(n), code) for n in names32)
    # Under a 32-bit mask, a shuffle width that is not warpSize.
    fact = fact or any(len(a) == 4 and a[3] != "warpSize" for a in _calls(code, r"__shfl\w*_sync"))
    ret32 = any(_NARROW_RET.match(line) and _MASKY.search(line) for line in code.splitlines())
    decls = {m.group(2): (m.group(1), m.group(3) or "") for m in _DECL.finditer(code)}

    def wide_mask(expr):
        e = expr.strip()
        while e.startswith("(") and e.endswith(")"):
            e = e[1:-1].strip()
        if _WIDE.search(e):
            return True
        if not re.match(r"^\w+$", e):
            return False
        if e in decls:
            t, init = decls[e]
            return t in ("unsigned long long", "uint64_t") or (t == "auto" and
                                                               bool(_WIDE.search(init)))
        if e in consts:
            t, v = consts[e]
            return "long long" in t or "uint64" in t or bool(_WIDE.search(v))
        return e in macros and bool(_WIDE.search(macros[e]))

    wide = any(a and wide_mask(a[0]) for a in _calls(code, _MASKED_NAMES))
    return {"fact": fact, "ret32": ret32, "width": bool(_WIDTH.search(used)),
            "wide": wide, "intr": bool(_INTR.search(code))}


def merge_infos(infos):
    out = {"fact": False, "ret32": False, "width": False, "wide": False, "intr": False}
    for i in infos:
        for k in out:
            out[k] = out[k] or i[k]
    return out


def device_regions(lines):
    """The pieces of device code among a kernel's lines: from each line
    holding `__device(hpp)` to where its braces close (a parallelFor
    body, a helper, a struct's static member); a `template <...>` line
    just before one is part of it."""
    out, cur, depth, inside, opened = [], [], 0, False, False
    prev = ""
    for line in lines:
        if not inside and "__device(hpp)" in line:
            inside, depth, opened = True, 0, False
            cur = [prev] if prev.strip().startswith("template") else []
        if inside:
            cur.append(line)
            depth += line.count("{") - line.count("}")
            opened = opened or "{" in line
            if opened and depth <= 0:
                inside = False
                out.append(cur)
        prev = line
    return out


# -- the shared helpers ------------------------------------------------------

class Helper:
    """One helper of a shared header."""

    def __init__(self, name, role, header, form, lines):
        self.name, self.role, self.header, self.form = name, role, header, form
        self.lines = lines
        self.users = []  # kernel ids
        self.info = analyze("\n".join(lines))
        self.localized = False

    @property
    def root(self):
        """A `__device(hpp)` function or template: device code in every
        unit that includes its header, called or not."""
        return any("__device(hpp)" in line for line in self.lines)

    def refs(self, names):
        """The other helpers (of `names`) that this one calls."""
        body = "\n".join(self.lines[1:])
        return {n for n in names if n != self.name and
                re.search(r"\b%s\b(?=\s*[<(])" % re.escape(n), body)}

    @property
    def width_dependent(self):
        i = self.info
        return i["width"] or i["wide"] or i["intr"]


class SharedLib:
    """The helpers a program's kernels share, by what they compute; the
    hooks of Kernel (kernel.py) and pieces.py ask it for a function's name.
    Returns None where the helper must stay the kernel's own."""

    def __init__(self, rng, plan):
        self.rng, self.plan = rng, plan
        self.helpers = []
        self.by_key = {}
        self.names = set()
        self.preds = []
        # How often a kernel's warpSize is the width helper instead.
        self.width_share = 0.3
        self.width_host_only = False

    def _name(self, pool):
        base = self.rng.choice(pool)
        name, n = base, 2
        while name in self.names:
            # Not <base><number>: a kernel's own helpers are named so
            # (laneOf17), and their copies <name>_k<id>.
            name = "%s_v%d" % (base, n)
            n += 1
        self.names.add(name)
        return name

    def _get(self, key, k, make):
        h = self.by_key.get(key)
        if h is None:
            h = make()
            self.by_key[key] = h
            self.helpers.append(h)
        if k.kid not in h.users:
            h.users.append(k.kid)
        return h

    def _kernel_local(self, k, text):
        """Names of the kernel's own macros and constants in `text`."""
        local = [k.macro] if "macro" in k.defined else []
        local += [k.const] if "const" in k.defined else []
        local += ["TPS"]
        return any(re.search(r"\b%s\b" % re.escape(n), text) for n in local)

    def _fact_allowed(self, text):
        """Helpers with a 32-lane fact go to the headers only where the
        plan allows (the anchored plan)."""
        info = analyze(text)
        return self.plan == "anchored" or not (info["fact"] or info["ret32"])

    def _form(self, width_free, choices=None):
        table = choices or (("device", 55), ("inline", 20), ("template", 15), ("constexpr", 10))
        form = weighted(self.rng, table)
        if form == "constexpr" and not width_free:
            form = "device"
        return form

    def lane_helper(self, k, role, inner, rtype="int"):
        """A lane id (role lane) or warp id (role warp) of `id`."""
        if self._kernel_local(k, inner) or not self._fact_allowed(inner):
            return None
        if self.width_host_only and any(h.role == "width" and h.name in inner
                                        for h in self.helpers):
            # The conflict plan's host variant: no header function calls
            # the width helper (it would be device code in every unit).
            return None
        key = (role, rtype, inner)

        def make():
            pool = {"lane": ("laneOf", "laneId", "laneIndex", "laneNumber"),
                    "warp": ("warpOf", "warpId", "warpIndex")}[role]
            name = self._name(pool)
            # constexpr only for literal arithmetic: no width, no call.
            form = self._form(not _WIDTH.search(inner) and not re.search(r"\w\s*\(", inner))
            if rtype != "int" and form == "template":
                form = "device"
            doc = "/// The %s of work-item `id`." % ("lane in its warp" if role == "lane"
                                                     else "warp in its work-group")
            if form == "template":
                text = "template <typename T> __device(hpp) inline T %s(T id) { return %s; }" % (
                    name, inner)
            elif form == "inline":
                text = "inline %s %s(int id) { return %s; }" % (rtype, name, inner)
            elif form == "constexpr":
                text = "constexpr %s %s(int id) { return %s; }" % (rtype, name, inner)
            else:
                text = "__device(hpp) inline %s %s(int id) { return %s; }" % (rtype, name, inner)
            return Helper(name, role, "warp", form, [doc, text])
        return self._get(key, k, make).name

    def mask_helper(self, k):
        """A full 32-bit mask returned as unsigned (a 32-lane fact)."""
        if self.plan != "anchored":
            return None
        key = ("mask",)

        def make():
            name = self._name(("fullMask", "allLanes", "warpMask"))
            form = weighted(self.rng, (("device", 80), ("inline", 20)))
            text = "%sinline unsigned %s() { return 0xffffffffu; }" % (
                "__device(hpp) " if form == "device" else "", name)
            return Helper(name, "mask", "warp", form, ["/// Every lane of a 32-lane warp.", text])
        return self._get(key, k, make).name

    def prefix_helper(self, k, rtype, one):
        text = "(%s << lane) - 1" % one
        if not self._fact_allowed("%s f(int lane) { return %s; }" % (rtype, text)):
            return None
        key = ("prefix", rtype, one)

        def make():
            name = self._name(("lanesBelow", "maskBelow", "lowerLanes"))
            form = weighted(self.rng, (("device", 70), ("inline", 30)))
            line = "%sinline %s %s(int lane) { return %s; }" % (
                "__device(hpp) " if form == "device" else "", rtype, name, text)
            return Helper(name, "prefix", "warp", form,
                          ["/// The lanes below `lane` in its warp.", line])
        return self._get(key, k, make).name

    def width_call(self, k, form=None):
        """The warp's width from a helper (MVECTOR_SIZE or warpSize)."""
        key = ("width",)

        def make():
            name = self._name(("lanesPerWarp", "warpWidth", "mvectorWidth"))
            spell = self.rng.choice(("MVECTOR_SIZE", "MVECTOR_SIZE", "warpSize"))
            form_ = form or weighted(self.rng, (("device", 80), ("inline", 20)))
            line = "%sinline int %s() { return %s; }" % (
                "__device(hpp) " if form_ == "device" else "", name, spell)
            return Helper(name, "width", "warp", form_, ["/// The width of the warp.", line])
        return "%s()" % self._get(key, k, make).name

    def max_call(self, k, a, b, host_type=None):
        """The larger of a and b through a template (host code too)."""
        key = ("max",)

        def make():
            name = self._name(("maxOf", "larger", "wgMax"))
            dev = self.rng.random() < 0.35
            line = "template <typename T> %sinline T %s(T a, T b) { return a > b ? a : b; }" % (
                "__device(hpp) " if dev else "", name)
            return Helper(name, "max", "util", "template",
                          ["/// The larger of two values (device and host code).", line])
        h = self._get(key, k, make)
        if host_type:
            return "%s<%s>(%s, %s)" % (h.name, host_type, a, b)
        return "%s(%s, %s)" % (h.name, a, b)

    def load_call(self, k, p, g, n, pad):
        """p[g] for g < n, else pad."""
        key = ("load",)

        def make():
            name = self._name(("loadOr", "readOr", "loadPadded"))
            form = weighted(self.rng, (("template", 50), ("inline", 30), ("device", 20)))
            if form == "template":
                line = ("template <typename T> inline T %s(hpp::Pointer<T> p, int g, int n, T pad) "
                        "{ return g < n ? p[g] : pad; }" % name)
            else:
                line = ("%sinline int %s(hpp::Pointer<int> p, int g, int n, int pad) "
                        "{ return g < n ? p[g] : pad; }" % (
                            "__device(hpp) " if form == "device" else "", name))
            return Helper(name, "load", "util", form,
                          ["/// The element g of p, or pad past the end n.", line])
        return "%s(%s, %s, %s, %s)" % (self._get(key, k, make).name, p, g, n, pad)

    def pred_call(self, k, v):
        """One of the program's predicates (host code calls them too)."""
        if self.preds and (len(self.preds) >= 3 or self.rng.random() < 0.7):
            h = self.rng.choice(self.preds)
            if k.kid not in h.users:
                h.users.append(k.kid)
            return "%s(%s)" % (h.name, v)
        m = self.rng.choice((3, 5, 7))
        r = self.rng.randrange(0, m)
        body = self.rng.choice(("x %% %d == %d" % (m, r), "(x & 1) != 0",
                                "x > %d" % self.rng.randrange(-20, 20),
                                "(x * 7 + 3) %% %d < 2" % m))
        if self.plan != "anchored" and analyze(body)["fact"]:
            body = "x %% %d == %d" % (m, r)
        name = self._name(("keepIf", "isKept", "selected", "passes"))
        form = weighted(self.rng, (("inline", 40), ("template", 25), ("device", 20),
                                   ("constexpr", 15)))
        if form == "template":
            line = "template <typename T> inline bool %s(T x) { return %s; }" % (name, body)
        elif form == "device":
            line = "__device(hpp) inline bool %s(int x) { return %s; }" % (name, body)
        else:
            line = "%s bool %s(int x) { return %s; }" % (form, name, body)
        h = Helper(name, "pred", "util", form,
                   ["/// The elements a kernel keeps (its host check asks too).", line])
        h.users.append(k.kid)
        self.helpers.append(h)
        self.preds.append(h)
        return "%s(%s)" % (name, v)


# -- the model of the tool's decision -----------------------------------------

def unit_modes(unit, helpers, program_narrows=False, shared=None):
    """The width model (lib/Analysis/WidthModel.cpp) on one translation
    unit: {helper name: mode} for the header helpers that are device code
    in it (logical32, native, as-written), "host" for those that are host
    code (not `__device(hpp)` and not called from device code).

    Device code is joined into components by calls to warp code (a helper
    with a fact, the width, a 64-bit mask or an intrinsic, or one that
    calls such a helper; a width-free helper joins nobody since 2026-11-28,
    test/differential/shared-helper-join.test); a component is native with the real width (warpSize,
    MVECTOR_SIZE, a 64-bit mask to an intrinsic) and no 32-lane fact,
    as written with both and a 64-bit mask, logical32 otherwise; once a
    logical32 component has a fact, every native one of the unit is
    logical32 too, and of every unit of the program (`program_narrows`:
    another unit has such a component; the tool rewrites the others again
    with 32-lane warps). `shared`: {helper name: facts} that other units'
    components found for the header helpers that are warp code (a
    function is compiled once, so its callers in every unit are one
    component: the tool's joinAcrossSources); a component that holds such
    a helper takes them. Returns (modes, whether this unit narrows); the
    unit's "facts" (per warp-code header helper, its component's facts)
    are left in unit["facts"]."""
    by_name = {h.name: h for h in helpers}
    visible = [h for h in helpers if h.header in unit["headers"]]
    refs = {h.name: h.refs(by_name) for h in helpers}
    called = set()
    for kern in unit["kernels"]:
        called |= kern["calls"] & set(by_name)
    device = {h.name for h in visible if h.root} | called
    # What a function calls is device code too; what an uncalled template
    # calls is not (it is never instantiated).
    templates = {h.name for h in helpers if h.lines[1].lstrip().startswith("template")}
    active = called | {n for n in device if n not in templates}
    while True:
        more = set().union(set(), *[refs[n] for n in active]) - active
        if not more:
            break
        active |= more
        device |= more
    device = [h for h in visible if h.name in device]
    # Warp code: what the tool's WidthFacts.h calls so, through calls too.
    warp = {h.name for h in helpers
            if any(h.info[a] for a in ("fact", "width", "wide", "intr"))}
    while True:
        more = {n for n in by_name if n not in warp and refs[n] & warp}
        if not more:
            break
        warp |= more
    parent = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    infos = {}
    for kern in unit["kernels"]:
        find(("k", kern["id"]))
        calls = kern["calls"] & set(by_name)
        for c in calls & warp:
            parent[find(("h", c))] = find(("k", kern["id"]))
        info = dict(kern["info"])
        # A 32-bit mask returned by a helper the kernel calls.
        info["fact"] = info["fact"] or info["ret32"] or any(
            by_name[c].info["ret32"] for c in calls)
        infos[("k", kern["id"])] = info
    for h in device:
        find(("h", h.name))
        infos[("h", h.name)] = h.info
        for r in refs[h.name] & warp:
            parent[find(("h", r))] = find(("h", h.name))
    comp = {}
    for key, info in infos.items():
        c = comp.setdefault(find(key), {"fact": False, "real": False, "wide": False})
        c["fact"] = c["fact"] or info["fact"]
        c["real"] = c["real"] or info["width"] or info["wide"]
        c["wide"] = c["wide"] or info["wide"]
    for h in device:
        if h.name in warp and shared and h.name in shared:
            c = comp[find(("h", h.name))]
            for a in ("fact", "real", "wide"):
                c[a] = c[a] or shared[h.name][a]
    unit["facts"] = {h.name: dict(comp[find(("h", h.name))])
                     for h in device if h.name in warp}
    model = {}
    for root, c in comp.items():
        model[root] = ("native" if c["real"] and not c["fact"] else
                       "as-written" if c["real"] and c["wide"] else "logical32")
    narrows = any(model[r] == "logical32" and c["fact"] for r, c in comp.items())
    if narrows or program_narrows:
        for r in model:
            if model[r] == "native":
                model[r] = "logical32"
    out = {}
    for h in visible:
        out[h.name] = model[find(("h", h.name))] if h in device else "host"
    # Each kernel's mode, and the one it would have alone (its component
    # without the kernels it is joined to through shared helpers).
    kernels = {}
    for kern in unit["kernels"]:
        key = ("k", kern["id"])
        mine = dict(infos[key])
        for c in kern["calls"] & set(by_name):
            for a in ("fact", "width", "wide"):
                mine[a] = mine[a] or by_name[c].info[a]
        real = mine["width"] or mine["wide"]
        alone = ("native" if real and not mine["fact"] else
                 "as-written" if real and mine["wide"] else "logical32")
        if alone == "native" and (narrows or program_narrows):
            alone = "logical32"
        together = sum(1 for k in unit["kernels"] if find(("k", k["id"])) == find(key))
        # Joined across units: its component holds a helper other units'
        # components share.
        across = any(h.name in (shared or {}) and find(("h", h.name)) == find(key)
                     for h in device if h.name in warp)
        kernels[kern["id"]] = (model[find(key)], alone, together > 1 or across)
    unit["modes"] = kernels
    return out, narrows


def signature(h, mode):
    """What the rewrite of helper h's width-dependent code is in `mode`."""
    i = h.info
    if mode == "host":
        # Host code in this unit: the merge of the units' header edits
        # lets a unit's host view yield inside a function that is device
        # code for another unit (until 45fab63 it conflicted:
        # test/rewrite/project-headers-host-width.test).
        return ()
    sig = []
    if i["width"]:
        sig.append("32" if mode == "logical32" else "device")
    if i["intr"]:
        sig.append(mode if i["wide"] else ("native" if mode == "native" else "warp32"))
    return tuple(sig)


def predict_conflicts(units, helpers):
    """Helpers whose rewrite two translation units would disagree on.

    units: [{"name", "headers": set of header keys it includes (transitive),
    "kernels": [{"id", "info", "calls": set of helper names}]}]; helpers:
    the Helper objects still in headers. Returns {helper name: reason}."""
    by_name = {h.name: h for h in helpers}
    seen = {}  # helper name -> {signature: (unit, mode)}
    # A header helper that is warp code joins its callers in every unit
    # (the tool rewrites the units again with each other's facts, until
    # they agree).
    shared = {}
    for _ in range(3 * len(helpers) + 2):
        for u in units:
            unit_modes(u, helpers, shared=shared)
        grown = False
        for u in units:
            for name, facts in u["facts"].items():
                mine = shared.setdefault(name, {"fact": False, "real": False, "wide": False})
                for a in ("fact", "real", "wide"):
                    if facts[a] and not mine[a]:
                        mine[a] = grown = True
        if not grown:
            break
    # The warp is one thing in a program: one unit's 32-lane fact narrows
    # every unit's real-width components.
    narrows = any(unit_modes(u, helpers, shared=shared)[1] for u in units)
    for u in units:
        for name, mode in unit_modes(u, helpers, narrows, shared)[0].items():
            sig = signature(by_name[name], mode)
            if sig:
                seen.setdefault(name, {}).setdefault(sig, (u["name"], mode))
    out = {}
    for name, sigs in seen.items():
        if len(sigs) > 1:
            out[name] = " vs ".join("%s in %s" % (mode, unit) for unit, mode in sigs.values())
    return out


# -- the program ----------------------------------------------------------------

HARNESS_INCLUDES = ["<algorithm>", "<cstdint>", "<cstdio>", "<cstdlib>", "<exception>",
                    "<string>", "<vector>"]


def _guard(rng, path, body, pragma):
    if pragma:
        return ["#pragma once"] + body
    macro = re.sub(r"\W", "_", path).upper() + "_INCLUDED"
    return ["#ifndef %s" % macro, "#define %s" % macro] + body + ["#endif // %s" % macro]


def _include_path(frm, to, layout):
    """How file `frm` (relative to the program root) names header `to`."""
    if layout["idir"] and to.startswith(layout["idir"] + "/"):
        rel = to[len(layout["idir"]) + 1:]
        return ('<%s>' % rel) if layout["angle"] else '"%s"' % rel
    return '"%s"' % os.path.relpath(to, os.path.dirname(frm) or ".").replace(os.sep, "/")


class Program:
    """One multi-file program of seed `seed`, number `pid`."""

    def __init__(self, seed, pid, make_kernel, families=FAMILIES, plan=None):
        self.seed, self.pid = seed, pid
        self.rng = random.Random("warpgen-mf:%s:%d" % (seed, pid))
        rng = self.rng
        self.plan = plan or weighted(rng, PLANS)
        self.lib = SharedLib(rng, self.plan)
        self.name = "mf_s%s_p%05d" % (seed, pid)
        nsrc = weighted(rng, ((2, 55), (3, 45)))
        # The layout: where the headers and the sources are.
        kind = weighted(rng, (("flat", 40), ("subdir", 30), ("idir", 30)))
        layout = {"idir": None, "angle": False}
        src_dir = ""
        if kind == "flat":
            hdir = ""
        elif kind == "subdir":
            hdir = rng.choice(("inc/", "common/", "include/"))
        else:
            layout["idir"] = "include"
            hdir = "include/%s/" % rng.choice(("wg", "proj", "warpkit"))
            layout["angle"] = rng.random() < 0.4
            src_dir = rng.choice(("", "src/"))
        self.layout, self.kind = layout, kind
        wdir = hdir + rng.choice(("", "", "detail/"))
        self.hpath = {"common": hdir + rng.choice(("wg_common.h", "common.h", "harness.h")),
                      "util": hdir + rng.choice(("helpers.h", "util.h", "device_utils.h")),
                      "warp": wdir + rng.choice(("warp.h", "lanes.h", "warp_utils.h"))}
        # helpers.h includes the warp header (a header included by another).
        self.chain = rng.random() < 0.7
        self.pragma = {h: rng.random() < 0.5 for h in self.hpath}
        self.using_in_common = rng.random() < 0.3
        names = rng.sample(("reduce", "scan", "ballot", "kernels_a", "kernels_b", "part1",
                            "part2", "compact", "lanes_use"), nsrc)
        self.sources = [src_dir + n + ".cpp" for n in names]
        self.main = "main.cpp"
        # Kernels: 1-3 per source; sometimes one in main.
        self.kernels = []  # dicts: id, file, code, info
        kid = pid * 100
        forced = {}
        if self.plan == "native":
            forced = {s: "generic" for s in self.sources + [self.main]}
        elif self.plan == "conflict":
            # The width from a helper: a __device(hpp) function that
            # kernels running as written (64-bit masks with 32-lane facts)
            # call, and that is 32-lane code in the other units (two
            # rewrites: a conflict); or a plain inline function that one
            # unit's kernels call (device code there) and main includes
            # without calling (host code there: accepted since 45fab63).
            self.variant = rng.choice(("host", "as-written"))
            if self.variant == "host":
                forced = {self.sources[0]: "generic", self.sources[1]: "cuda32"}
                self.lib.width_call(_Stub(-1, self.lib), form="inline")
                self.lib.width_host_only = True
            else:
                forced = {self.sources[0]: "mixed-wide", self.sources[1]: "cuda32"}
                self.lib.width_call(_Stub(-1, self.lib), form="device")
            self.lib.width_share = 0.9
        placement = []
        for s in self.sources:
            placement += [s] * weighted(rng, ((1, 30), (2, 45), (3, 25)))
        if self.plan == "anchored" and rng.random() < 0.3:
            placement.append(self.main)
        for f in placement:
            lines, info = make_kernel("mf:%s" % seed, kid, families, shared=self.lib,
                                      style=forced.get(f), external=True)
            self.kernels.append({"id": kid, "file": f, "lines": lines, "info": info})
            kid += 1
        for h in self.lib.helpers:
            h.users = [u for u in h.users if u >= 0]
        self._includes()
        self._settle()

    # -- which file includes which -----------------------------------------
    def _includes(self):
        rng = self.rng
        used = {}  # file -> header keys its kernels use
        for kern in self.kernels:
            for h in self.lib.helpers:
                if kern["id"] in h.users:
                    used.setdefault(kern["file"], set()).add(h.header)
        self.direct = {}
        for f in self.sources + [self.main]:
            hs = set(used.get(f, set()))
            if f != self.main and rng.random() < 0.6:
                hs.add("util")
            if f == self.main and rng.random() < 0.5:
                hs.add("util")
            if self.plan in ("anchored", "conflict"):
                hs.add("warp")
            if self.plan == "native" and rng.random() < 0.5:
                hs.add("warp")
            self.direct[f] = ["common"] + sorted(hs, key=("util", "warp").index)

    def headers_of(self, f):
        """The header keys file f includes, directly or not."""
        out = set(self.direct[f])
        if "util" in out and self.chain:
            out.add("warp")
        return out

    # -- the model, and the helpers given back to their kernels ----------------
    def _units(self):
        units = []
        names = {h.name for h in self.lib.helpers}
        for f in self.sources + [self.main]:
            ks = []
            for kern in self.kernels:
                if kern["file"] != f:
                    continue
                code = self.kernel_code(kern)
                dev = "\n".join("\n".join(r) for r in device_regions(code))
                calls = {n for n in names if re.search(r"\b%s\b" % re.escape(n), dev)}
                info = merge_infos(analyze("\n".join(r), code) for r in device_regions(code))
                ks.append({"id": kern["id"], "info": info, "calls": calls})
            units.append({"name": f, "headers": self.headers_of(f), "kernels": ks})
        return units

    def _settle(self):
        """Gives back the helpers the model says would conflict (not in the
        conflict plan), until none would; records the prediction."""
        for _ in range(20):
            live = [h for h in self.lib.helpers if not h.localized]
            if self.plan == "anchored" and not any(
                    h.root and h.info["fact"] and not h.users and not h.info["width"]
                    for h in live if h.header == "warp"):
                # A helper no kernel calls keeps 32-lane warps in every unit
                # that includes it (a component of its own with a fact).
                name = self.lib._name(("laneOf", "laneId", "laneNumber"))
                anchor = Helper(name, "lane", "warp", "device", [
                    "/// The lane of work-item `id` in its 32-lane warp.",
                    "__device(hpp) inline int " + name + "(int id) { return id " +
                    self.rng.choice(("& 31", "% 32", "& 0x1f")) + "; }"])
                self.lib.helpers.append(anchor)
                live.append(anchor)
            conflicts = predict_conflicts(self._units(), live)
            if not conflicts or self.plan == "conflict":
                break
            for name in conflicts:
                self._localize(name)
        live = [h for h in self.lib.helpers if not h.localized]
        units = self._units()
        conflicts = predict_conflicts(units, live)
        self.expect_conflict = bool(conflicts)
        self.conflicts = conflicts
        for u in units:
            for kern in self.kernels:
                if kern["id"] in u.get("modes", {}):
                    (kern["info"]["model"], kern["info"]["model_alone"],
                     kern["info"]["model_joined"]) = u["modes"][kern["id"]]

    def _localize(self, name):
        """Helper `name` leaves the headers, with every header helper that
        calls it: each kernel that calls one of them gets a copy of its
        own (kernel_code)."""
        names = {h.name for h in self.lib.helpers}
        gone = {name}
        while True:
            more = {h.name for h in self.lib.helpers if not h.localized and h.name not in gone
                    and h.refs(names) & gone}
            if not more:
                break
            gone |= more
        for h in self.lib.helpers:
            if h.name in gone:
                h.localized = True
        for kern in self.kernels:
            before = set(kern.setdefault("locals", []))
            need = set(before)
            text = "\n".join(kern["lines"])
            need |= {n for n in gone if re.search(r"\b%s\b" % re.escape(n), text)}
            by_name = {h.name: h for h in self.lib.helpers}
            while True:
                more = set().union(*[by_name[n].refs(names) for n in need]) if need else set()
                more = {n for n in more if by_name[n].localized} - need
                if not more:
                    break
                need |= more
            for n in sorted(need - before):
                kern["info"]["idioms"].append("helper %s given back to the kernel" % n)
            kern["locals"] = [h.name for h in self.lib.helpers if h.name in need]

    def kernel_code(self, kern):
        """A kernel's lines with its copies of the helpers that left the
        headers (before its code, in the headers' order, renamed
        <name>_k<id>)."""
        locals_ = kern.get("locals", [])
        if not locals_:
            return kern["lines"]
        pats = [(re.compile(r"\b%s\b(?=\s*[<(])" % re.escape(n)), "%s_k%d" % (n, kern["id"]))
                for n in locals_]

        def rename(line):
            for pat, new in pats:
                line = pat.sub(new, line)
            return line
        out = []
        for h in self.lib.helpers:
            if h.name in locals_:
                copy = [rename(line) for line in h.lines]
                if copy[1].startswith(("inline ", "constexpr ")):
                    copy[1] = "static " + copy[1]
                out += [""] + copy
        return out + [rename(line) for line in kern["lines"]]

    # -- the files -------------------------------------------------------------
    def _kernel_block(self, kern, start):
        info = kern["info"]
        code = self.kernel_code(kern)
        end = start + 2 + len(code)
        head = "// warpgen kernel %d: lines %d-%d, family %s, style %s, expect64 %s (%s)" % (
            kern["id"], start, end, info["family"], info["style"], info["expect64"],
            info["reason"])
        info["lines"] = [start, end]
        return [head, "// idioms: " + "; ".join(info["idioms"])] + code + [
            "// warpgen end kernel %d" % kern["id"]]

    def _include_lines(self, f):
        out = []
        for key in self.direct[f]:
            if key == "warp" and "util" in self.direct[f] and self.chain:
                continue
            out.append("#include %s" % _include_path(f, self.hpath[key], self.layout))
        return out

    def _source(self, f):
        lines = ["// Generated by scripts/warpgen.py --multi-file --seed %s: program %d (%s plan), %s."
                 % (self.seed, self.pid, self.plan, "main" if f == self.main else "kernels"),
                 "#include <hpp/hpp.h>", ""]
        lines += self._include_lines(f)
        lines += ["", "#include <cstdio>", "#include <cstdlib>", "#include <vector>", ""]
        if not self.using_in_common:
            lines += ["using namespace hpp;", ""]
        for kern in self.kernels:
            if kern["file"] == f:
                lines += self._kernel_block(kern, len(lines) + 1)
                lines.append("")
        if f == self.main:
            decl = [k for k in self.kernels if k["file"] != f]
            lines += ["void runKernel%d();" % k["id"] for k in decl]
            lines += ["", "/// Whether kernel `Id` runs: all without arguments, else those named.",
                      "static bool wgWanted(int argc, char **argv, int Id) {",
                      "  bool Run = argc < 2;",
                      "  for (int A = 1; A < argc; ++A)",
                      "    Run = Run || std::atoi(argv[A]) == Id;",
                      "  return Run;", "}", "",
                      "int main(int argc, char **argv) {"]
            for k in self.kernels:
                lines.append("  if (wgWanted(argc, argv, %d))  // warpgen call %d" % (k["id"], k["id"]))
                lines.append("    runKernel%d();  // warpgen call %d" % (k["id"], k["id"]))
            lines += ["  return 0;", "}"]
        return "\n".join(lines).rstrip("\n") + "\n"

    def _header(self, key):
        path = self.hpath[key]
        body = ["// %s of program %d (scripts/warpgen.py --multi-file)." % (
            {"common": "The checks", "util": "Helpers", "warp": "Warp helpers"}[key], self.pid)]
        if key == "common":
            body += ["#include <hpp/hpp.h>", ""] + ["#include %s" % i for i in HARNESS_INCLUDES]
            body += [""]
            if self.using_in_common:
                body += ["using namespace hpp;", ""]
            checks = harness.checks("wg").replace("static void", "inline void")
            body += checks.rstrip("\n").split("\n")
            body += ["/// Deterministic, irregular integers in [-Range, Range].",
                     "inline int wgInput(int E, unsigned Salt, int Range) {",
                     "  unsigned X = unsigned(E) * 0x9E3779B1u + Salt;",
                     "  X ^= X >> 15;", "  X *= 0x2C1B3C6Du;", "  X ^= X >> 12;",
                     "  return int(X %% unsigned(2 * Range + 1)) - Range;".replace("%%", "%"),
                     "}"]
            return path, _guard(self.rng, path, body, self.pragma[key])
        body.append(self.rng.choice(("#include <hpp/hpp.h>", "#include <hpp/hpp.h>",
                                     "#include %s" % _include_path(path, self.hpath["common"],
                                                                    self.layout))))
        if key == "util" and self.chain:
            body.append("#include %s" % _include_path(path, self.hpath["warp"], self.layout))
        body.append("")
        return path, body

    def users_of(self, h, names):
        """The kernels that call header helper h, directly or through
        another header helper."""
        pat = re.compile(r"\b%s\b(?=\s*[<(])" % re.escape(h.name))
        users = {kern["id"] for kern in self.kernels
                 if h.name not in kern.get("locals", ()) and
                 any(pat.search(line) for line in kern["lines"])}
        for other in self.lib.helpers:
            if other.name in names and h.name in other.refs(names):
                users |= self.users_of(other, names)
        return {u for u in users if u >= 0}

    def files(self):
        """{relative path: text} and the program's description."""
        out = {}
        for f in self.sources + [self.main]:
            out[f] = self._source(f)
        helpers = []
        for key in ("common", "util", "warp"):
            path, body = self._header(key)
            if key != "common":
                lines = list(body)
                live = [h for h in self.lib.helpers if h.header == key and not h.localized]
                names = {h.name for h in self.lib.helpers if not h.localized}
                head_len = 2 if not self.pragma[key] else 1  # guard lines before the body
                for h in live:
                    start = head_len + len(lines) + 1
                    end = start + len(h.lines) + 1
                    users = sorted(self.users_of(h, names))
                    lines.append("// warpgen helper %s: lines %d-%d, used by kernels %s" % (
                        h.name, start, end, " ".join(map(str, users)) or "none"))
                    lines += h.lines
                    lines.append("// warpgen end helper %s" % h.name)
                    lines.append("")
                    helpers.append({"name": h.name, "file": path, "lines": [start, end],
                                    "form": h.form, "role": h.role, "users": users,
                                    "info": h.info})
                body = _guard(self.rng, path, lines, self.pragma[key])
            out[path] = "\n".join(body).rstrip("\n") + "\n"
        for h in helpers:
            text = out[h["file"]].split("\n")
            assert text[h["lines"][0] - 1].startswith("// warpgen helper %s:" % h["name"]), h
            assert text[h["lines"][1] - 1] == "// warpgen end helper %s" % h["name"], h
        desc = {"generator": "scripts/warpgen.py --multi-file", "seed": self.seed,
                "program": self.pid, "plan": self.plan, "layout": self.kind,
                "sources": [self.main] + self.sources, "main": self.main,
                "include_dirs": [self.layout["idir"]] if self.layout["idir"] else [],
                "headers": [self.hpath[k] for k in ("common", "util", "warp")],
                "expect_conflict": self.expect_conflict,
                "conflict_helpers": sorted(self.conflicts),
                "conflict_reason": "; ".join("%s: %s" % kv for kv in sorted(self.conflicts.items())),
                "kernels": [dict(k["info"], file=k["file"]) for k in self.kernels],
                "helpers": helpers}
        return out, desc


class _Stub:
    """Stands for a kernel where the library wants one (the conflict plan's
    helper, made before any kernel)."""

    def __init__(self, kid, lib):
        self.kid = kid
        self.macro, self.const, self.defined = "", "", {}


def write_program(out_dir, seed, pid, make_kernel, families=FAMILIES):
    prog = Program(seed, pid, make_kernel, families)
    files, desc = prog.files()
    root = os.path.join(out_dir, prog.name)
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    with open(os.path.join(root, "program.json"), "w") as f:
        json.dump(desc, f, indent=1)
    return prog.name, desc
