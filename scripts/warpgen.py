#!/usr/bin/env python3
"""warpgen: seeded generator of warp-level HPP dialect programs.

Writes translation units (dialect programs) of several kernels each. Every
kernel is one or two parallelFor launches written the way ported CUDA code is
written (32-bit masks, 16-based shuffle trees, `& 31` lane ids, per-warp
slots in work-group memory, helpers, templates and macros over the width), and
computes a result that does not depend on the warp width: a sum, a maximum, a
count, a prefix sum, a compacted array. The host compares each kernel's
result with a plain C++ computation and prints one line per kernel:

    kernel 17: ok
    kernel 17: MISMATCH at 5: got 12 expected 14
    kernel 17: ERROR <hpp::RuntimeError message>

A program never stops at a mismatch, and `prog 3 17` runs only kernels 3 and
17 (the differential runner uses that to isolate a crash).

Every kernel is right at a 32-lane warp (the reference runtime at
HPP_CPU_MVECTOR=32). Whether it is right at 64 lanes *as written* depends on
the idioms drawn: code written only with 32 (literal, macro, constant or
template argument) is right at 64 on the reference runtime, whose 32-bit
masks (and __activemask()) name a 32-lane half of the mvector; code written
only with warpSize and 64-bit masks (~0ull) is right at 64 too; code that
mixes the two (warpSize with literal 32, a warpSize / 2 tree under a 32-bit
mask, a 64-lane ballot kept in `unsigned`, ...) is right on NVIDIA only.
The generator predicts that for every kernel (`expect64 ok|wrong` and the
reason) from a small model of the reference runtime; difftest.py reports
where the prediction and the reference differ (a maximum reduction can be
right at 64 by luck: a lost half may not hold the maximum).

Each kernel's code (its macros, constants, helpers, host function and its
registration) lies between two marker comments; the first one gives its
source line range, family, prediction and idioms:

    // warpgen kernel 17: lines 120-185, family block-reduce, expect64 wrong (...)
    // idioms: mask=0xffffffff; lane=tid & 31; ...
    ...
    // warpgen end kernel 17

Kernel k of seed S is the same whatever --per-tu is: its random choices are
seeded by (S, k) alone.

Usage:
    warpgen.py --seed 1 --kernels 300 --per-tu 25 --out DIR
    warpgen.py --seed 1 --first 100 --kernels 5 --per-tu 5 --out DIR

writes DIR/warpgen_s<seed>_<first kernel>.cpp files and DIR/warpgen.json (the
kernels of each file: id, line range, family, idioms, expect64).
"""

import argparse
import json
import os
import random
import sys

# How the kernels of a seed are styled: written for a 32-lane warp only (as
# CUDA code usually is), width-generic (warpSize and 64-bit masks), or a mix.
STYLES = (("cuda32", 50), ("generic", 20), ("mixed", 30))

# Families of kernels and their weights.
FAMILIES = (
    ("warp-sum", 16),
    ("block-reduce", 20),
    ("ballot-count", 14),
    ("compaction", 16),
    ("block-scan", 18),
    ("segmented", 10),
    ("launch-scan", 6),
)

# Facts with these values make a kernel wrong at 64 lanes outright.
BAD = ("error", "wrong")


def weighted(rng, table):
    """Picks a key of a ((key, weight), ...) table."""
    total = sum(w for _, w in table)
    x = rng.uniform(0, total)
    for key, w in table:
        x -= w
        if x <= 0:
            return key
    return table[-1][0]


class Kernel:
    """One generated kernel: its choices, code, idioms and 64-lane model.

    Facts model the reference runtime at 64 lanes as written: each is the
    warp width (32 or 64) one piece of the kernel assumes there, or "error"
    (the runtime throws) or "wrong" (a wrong value whatever the rest). The
    kernel is predicted right at 64 when no fact is bad and the widths agree.
    """

    def __init__(self, seed, kid):
        self.kid = kid
        self.rng = random.Random("warpgen:%s:%d" % (seed, kid))
        self.style = weighted(self.rng, STYLES)
        self.family = None
        self.facts = []  # (what, 32 | 64 | "error" | "wrong")
        self.idioms = []  # "what=how"
        self.pre = []  # lines before the host function
        self.post = []  # lines after the registration
        self.defined = {}  # macro / constant names already emitted
        # The kernel's preferred spelling of a 32 that is a width.
        self.w32 = weighted(self.rng, (("literal", 60), ("macro", 25), ("const", 15)))
        self.macro = self.rng.choice(("WARP", "WARP_SIZE", "WARPSIZE", "LANES"))
        self.const = "kWarpSize%d" % kid
        self.tid = self.rng.choice(("tid", "tid", "lid", "threadId"))

    # -- random helpers ----------------------------------------------------
    def pick(self, *options):
        return self.rng.choice(options)

    def chance(self, p):
        return self.rng.random() < p

    def want(self):
        """The width the next width-dependent piece assumes at 64 lanes."""
        if self.style == "cuda32":
            return 32
        if self.style == "generic":
            return 64
        return self.pick(32, 64)

    def fact(self, what, value):
        if value is not None:
            self.facts.append((what, value))

    def idiom(self, what, how):
        self.idioms.append("%s=%s" % (what, how))

    # -- spellings of the width ---------------------------------------------
    def width32(self, allow_template=None):
        """A spelling of 32 as a width: literal, macro or constant."""
        if allow_template and self.chance(0.7):
            return allow_template
        style = self.w32 if self.chance(0.85) else self.pick("literal", "macro", "const")
        if style == "macro":
            if "macro" not in self.defined:
                self.defined["macro"] = True
                self.pre.append("#define %s 32" % self.macro)
                self.post.append("#undef %s" % self.macro)
            return self.macro
        if style == "const":
            if "const" not in self.defined:
                self.defined["const"] = True
                self.pre.append("constexpr int %s = 32;" % self.const)
            return self.const
        return "32"

    def width(self, eff, template=None):
        """The width spelled for a piece that assumes `eff` lanes at 64."""
        if eff == 64:
            return "warpSize"
        return self.width32(template)

    # -- lane and warp ids --------------------------------------------------
    def lane_expr(self, t, eff):
        """A lane id of work-item id `t`, assuming `eff` lanes."""
        if eff == 64:
            return self.pick("%s & (warpSize - 1)" % t, "%s %% warpSize" % t)
        w = self.width32()
        if w == "32":
            return self.pick("%s & 31" % t, "%s %% 32" % t, "%s & 0x1f" % t)
        return self.pick("%s & (%s - 1)" % (t, w), "%s %% %s" % (t, w))

    def warp_expr(self, t, eff):
        """A warp id (within the launch or group) of work-item id `t`."""
        if eff == 64:
            return "%s / warpSize" % t
        w = self.width32()
        if w == "32":
            return self.pick("%s / 32" % t, "%s >> 5" % t)
        return "%s / %s" % (t, w)

    def declare_lane(self, body, t="tid"):
        """Declares `lane` (maybe through a helper); returns its width."""
        eff = self.want()
        expr = self.lane_expr(self.tid, eff)
        if self.chance(0.25):
            name = "laneOf%d" % self.kid
            inner = self.lane_expr("id", eff)
            self.pre += ["", "/// The lane of work-item `id` in its warp.",
                         "__device(hpp) inline int %s(int id) { return %s; }" % (name, inner)]
            expr = "%s(%s)" % (name, self.tid)
            self.idiom("lane", "helper(%s)" % inner)
        else:
            self.idiom("lane", expr)
        body.append("int lane = %s;" % expr)
        self.fact("lane id", eff)
        return eff

    def declare_warp(self, body):
        eff = self.want()
        expr = self.warp_expr(self.tid, eff)
        if self.chance(0.2):
            name = "warpOf%d" % self.kid
            inner = self.warp_expr("id", eff)
            self.pre += ["", "/// The warp of work-item `id` in its work-group.",
                         "__device(hpp) inline int %s(int id) { return %s; }" % (name, inner)]
            expr = "%s(%s)" % (name, self.tid)
            self.idiom("warp", "helper(%s)" % inner)
        else:
            self.idiom("warp", expr)
        body.append("int warp = %s;" % expr)
        self.fact("warp id", eff)
        return eff

    # -- masks ----------------------------------------------------------------
    def choose_mask(self, body, need64=False):
        """Declares the kernel's mask; returns (text, width it names at 64)."""
        if self.style == "cuda32":
            wide = False
        elif self.style == "generic":
            wide = True
        else:
            wide = self.chance(0.35)
        if need64:
            wide = True
        if wide:
            # 64-bit masks name the whole mvector (HIP-aware code).
            kind = self.pick("literal", "literal", "define", "constexpr", "local")
            lit = self.pick("~0ull", "0xffffffffffffffffull", "~0ULL")
            if kind == "literal":
                self.idiom("mask", lit)
                return lit, 64
            if kind == "define":
                name = self.pick("FULL_MASK", "WARP_MASK", "ALL_LANES")
                self.pre.append("#define %s %s" % (name, lit))
                self.post.append("#undef %s" % name)
                self.idiom("mask", "#define %s %s" % (name, lit))
                return name, 64
            if kind == "constexpr":
                name = "kFullMask%d" % self.kid
                self.pre.append("constexpr unsigned long long %s = %s;" % (name, lit))
                self.idiom("mask", "constexpr unsigned long long")
                return name, 64
            body.append("const unsigned long long mask = %s;" % lit)
            self.idiom("mask", "local const unsigned long long")
            return "mask", 64
        kind = self.pick("literal", "literal", "literal", "define", "constexpr", "local",
                         "active-unsigned", "active-int", "active-auto", "active-inline",
                         "helper")
        if kind == "literal":
            text = self.pick("0xffffffff", "0xFFFFFFFFu", "~0u", "-1", "0xffffffffu")
            self.idiom("mask", text)
            return text, 32
        if kind == "define":
            name = self.pick("FULL_MASK", "WARP_MASK", "ALL_LANES")
            self.pre.append("#define %s %s" % (name, self.pick("0xffffffff", "0xffffffffu", "(~0u)")))
            self.post.append("#undef %s" % name)
            self.idiom("mask", "#define %s" % name)
            return name, 32
        if kind == "constexpr":
            name = "kFullMask%d" % self.kid
            self.pre.append("%s unsigned %s = %s;" % (
                self.pick("constexpr", "const", "static constexpr"), name,
                self.pick("0xffffffffu", "0xFFFFFFFF", "~0u")))
            self.idiom("mask", "constexpr/const unsigned")
            return name, 32
        if kind == "local":
            body.append("%s mask = %s;" % (self.pick("const unsigned", "unsigned", "const unsigned int"),
                                           self.pick("0xffffffff", "0xffffffffu", "~0u")))
            self.idiom("mask", "local const unsigned")
            return "mask", 32
        if kind == "active-unsigned":
            body.append("unsigned mask = __activemask();")
            self.idiom("mask", "unsigned mask = __activemask()")
            return "mask", 32
        if kind == "active-int":
            body.append("int mask = __activemask();")
            self.idiom("mask", "int mask = __activemask()")
            return "mask", 32
        if kind == "active-auto":
            body.append(self.pick("auto mask = __activemask();", "const auto mask = __activemask();"))
            self.idiom("mask", "auto mask = __activemask()")
            return "mask", 32
        if kind == "active-inline":
            self.idiom("mask", "__activemask() in each call")
            return "__activemask()", 32
        name = "fullMask%d" % self.kid
        self.pre += ["", "/// Every lane of the warp.",
                     "__device(hpp) inline unsigned %s() { return 0xffffffffu; }" % name]
        self.idiom("mask", "helper returning unsigned")
        return "%s()" % name, 32

    # -- shuffle trees --------------------------------------------------------
    def tree(self, var, op, mask, meff, template=None, neutral=False, what="tree"):
        """Lines of a warp reduction of `var` (op "sum" or "max").

        `template` is the name of a template width parameter in scope. With
        `neutral`, the result's width does not matter (only errors do).
        Returns (lines, kind) with kind "down" (lane 0 holds the result) or
        "xor" (every lane does).
        """
        kind = self.pick("down", "down", "xor")
        intr = "__shfl_down_sync" if kind == "down" else "__shfl_xor_sync"
        eff = 32 if template else self.want()
        if eff == 64:
            start = self.pick("warpSize / 2", "warpSize >> 1")
        else:
            w = self.width32(template)
            start = "16" if w == "32" and self.chance(0.6) else self.pick("%s / 2" % w, "%s >> 1" % w)
        widtharg = self.width_arg(template)
        call = "%s(%s, %s, o%s)" % (intr, mask, var, ", " + widtharg if widtharg else "")
        if op == "sum":
            step = ["%s += %s;" % (var, call)]
        else:
            step = ["int other = %s;" % call,
                    "%s = other > %s ? other : %s;" % (var, var, var)]
        form = self.pick("for /=", "for >>=", "for /=", "while")
        if form == "while":
            # In a block of its own: a kernel may hold two trees.
            lines = ["{", "  int o = %s;" % start, "  while (o > 0) {"] + \
                    ["    " + s for s in step] + ["    o /= 2;", "  }", "}"]
        else:
            upd = "o /= 2" if form == "for /=" else "o >>= 1"
            head = "for (int o = %s; o > 0; %s)" % (start, upd)
            if len(step) == 1:
                lines = [head, "  " + step[0]]
            else:
                lines = [head + " {"] + ["  " + s for s in step] + ["}"]
        self.idiom(what, "%s from %s, %s%s" % (kind, start, form,
                                               ", width " + widtharg if widtharg else ""))
        wide_width = widtharg == "warpSize"
        if eff == 32:
            if wide_width and meff == 32:
                self.fact(what + " (width warpSize > 32 under a 32-bit mask)", "error")
            elif not neutral:
                self.fact(what, 32)
        else:
            # A step of offset 32 outside the mask's warp or the width reads
            # the own value: a sum doubles, a maximum stays (a 32-lane tree).
            if meff == 32 and wide_width:
                self.fact(what + " (width warpSize > 32 under a 32-bit mask)", "error")
            elif meff == 32 or (widtharg and not wide_width):
                if op == "max":
                    if not neutral:
                        self.fact(what, 32)
                else:
                    self.fact(what + " (offset 32 %s reads the own value)" % (
                        "under a 32-bit mask" if meff == 32 else "past its width 32"), "wrong")
            elif not neutral:
                self.fact(what, 64)
        return lines, kind

    def scan(self, var, mask, meff, guard, template=None, width=None, what="scan"):
        """Lines of an inclusive __shfl_up_sync scan of `var` in its warp
        (or in segments of `width`), guarded by `guard >= d`."""
        eff = 32 if (template or width) else self.want()
        # `d <= w` (the CUDA sample's loop) ends with a step of the whole
        # width, which reads the own value and which the guard never adds.
        if width:
            limit = self.pick("d < %s" % width, "d <= %s / 2" % width, "d <= %s" % width)
        elif eff == 64:
            limit = self.pick("d < warpSize", "d <= warpSize / 2", "d <= warpSize")
        else:
            w = self.width32(template)
            limit = self.pick("d < %s" % w, "d <= %s / 2" % w, "d <= %s" % w) if w != "32" else \
                self.pick("d < 32", "d <= 16", "d < 32", "d <= 32")
        upd = self.pick("d *= 2", "d <<= 1", "d *= 2", "d += d")
        widtharg = width or self.width_arg(template, p_none=0.75)
        lines = ["for (int d = 1; %s; %s) {" % (limit, upd),
                 "  int up = __shfl_up_sync(%s, %s, d%s);" % (mask, var,
                                                            ", " + widtharg if widtharg else ""),
                 "  if (%s >= d)" % guard,
                 "    %s += up;" % var,
                 "}"]
        self.idiom(what, "shfl_up, %s, %s%s" % (limit, upd, ", width " + widtharg if widtharg else ""))
        if width:
            return lines
        # At 64 lanes a step of offset 32 reads the own value outside a
        # 32-bit mask's warp or a width of 32, which the guard adds on lanes
        # >= 32 only: a 32-lane scan. Under a 64-bit mask a loop that reaches
        # offset 32 (`d < warpSize`, also `d <= 32`) scans whatever width
        # its guard's lane id has: no fact.
        whole = eff == 64 or (limit.startswith("d <= ") and "/" not in limit
                              and limit != "d <= 16")
        if widtharg == "warpSize" and meff == 32:
            self.fact(what + " (width warpSize > 32 under a 32-bit mask)", "error")
        elif not (whole and meff == 64 and widtharg in (None, "warpSize")):
            self.fact(what, 32)
        return lines

    def width_arg(self, template=None, p_none=0.5):
        """The optional width argument of a shuffle: none, a 32 (or the
        template width) in code written for 32 lanes, warpSize in code
        written for any width."""
        if self.chance(p_none):
            return None
        narrow = template if template else self.width32()
        if self.style == "cuda32":
            return narrow
        if self.style == "generic":
            return "warpSize"
        return self.pick(narrow, "warpSize")

    def last_lane(self, eff=None):
        """A spelling of the warp's last lane; returns (text, width)."""
        eff = eff or self.want()
        if eff == 64:
            return "warpSize - 1", 64
        w = self.width32()
        return ("31" if w == "32" else "%s - 1" % w), 32

    # -- ballots ------------------------------------------------------------
    def ballot(self, body, mask, meff, pred):
        """Declares `b`, the ballot of `pred`; returns its width info.

        Returns a dict: bits (32 or 64: how many lanes the value holds at 64
        lanes), popc/ffs spellings, and the prefix-mask one (bit type)."""
        if self.style == "generic" or (meff == 64 and self.chance(0.6)):
            store = self.pick("auto", "unsigned long long")
            wide_ops = True
        else:
            store = self.pick("unsigned", "unsigned", "int", "auto", "unsigned int")
            # An int ballot sign-extends into the 64-bit forms: only the
            # unsigned ones may use them.
            wide_ops = store != "int" and self.chance(0.15)
        body.append("%s b = __ballot_sync(%s, %s);" % (store, mask, pred))
        self.idiom("ballot", "stored in %s" % store)
        narrow_store = store in ("unsigned", "int", "unsigned int")
        if meff == 64 and narrow_store:
            self.fact("ballot of 64 lanes kept in %s" % store, "wrong")
        self.fact("ballot", meff)
        bits = 64 if (meff == 64 and not narrow_store) else 32
        info = {"bits": bits,
                "popc": "__popcll" if wide_ops else "__popc",
                "ffs": "__ffsll" if wide_ops else "__ffs",
                "one": "1ull" if wide_ops else "1u"}
        return info

    def popc(self, info, arg):
        if info["bits"] == 64 and info["popc"] == "__popc":
            self.fact("__popc of a 64-lane ballot", "wrong")
        return "%s(%s)" % (info["popc"], arg)

    def ffs(self, info, arg):
        if info["bits"] == 64 and info["ffs"] == "__ffs":
            self.fact("__ffs of a 64-lane ballot", "wrong")
        return "%s(%s)" % (info["ffs"], arg)

    def prefix(self, info, lane_text):
        """The lanes below `lane_text`, as CUDA code spells it."""
        one = info["one"]
        if info["bits"] == 64 and one == "1u":
            self.fact("(1u << lane) with lanes up to 63", "wrong")
        if self.chance(0.25):
            name = "lanesBelow%d" % self.kid
            rtype = "unsigned long long" if one == "1ull" else "unsigned"
            self.pre += ["", "/// The lanes below `lane` in its warp.",
                         "__device(hpp) inline %s %s(int lane) { return (%s << lane) - 1; }"
                         % (rtype, name, one)]
            self.idiom("prefix", "helper (%s << lane) - 1" % one)
            return "%s(%s)" % (name, lane_text)
        self.idiom("prefix", "(%s << lane) - 1" % one)
        return "((%s << %s) - 1)" % (one, lane_text)

    # -- the predicted result at 64 lanes -------------------------------------
    def expect64(self):
        bad = [w for w, v in self.facts if v in BAD]
        if bad:
            return "wrong", "; ".join(bad)
        widths = sorted({v for _, v in self.facts})
        if len(widths) > 1:
            by = {}
            for w, v in self.facts:
                by.setdefault(v, []).append(w)
            return "wrong", "mixes " + " vs ".join(
                "%d lanes (%s)" % (v, ", ".join(by[v])) for v in widths)
        return "ok", ("assumes %d lanes throughout" % widths[0]) if widths else "width-agnostic"


# ---------------------------------------------------------------------------
# Pieces shared by the families


def group_shape(k):
    """Work-group size L, group count G, elements n (the launch is G * L)."""
    L = weighted(k.rng, ((64, 3), (128, 4), (256, 3)))
    G = k.pick(2, 3, 4, 5)
    pad = k.pick(0, 0, 0, k.rng.randrange(1, L))
    return L, G, G * L - pad


def launch_line(k, L, dist):
    """The parallelFor call opening a lambda (global size Gl, local L)."""
    shape = "Range<1, 1>(Range<1>(Gl), Range<1>(L))"
    if dist:
        return ["parallelFor(%s, shared," % shape,
                "            [=](Index<1, 1> i, BoundDistArray<int> a) __device(hpp) {"]
    return ["parallelFor(%s," % shape,
            "            [=](Index<1, 1> i) __device(hpp) {"]


def tid_line(k):
    return k.pick("int %s = int(i.getLocalX());",
                  "const int %s = static_cast<int>(i.getLocalX());",
                  "int %s = i.getLocalX();") % k.tid


def value_lines(k, op="sum"):
    pad = "0" if op == "sum" else "-1000000"
    return ["const int g = int(i.getX());",
            "int v = g < n ? in[g] : %s;" % pad]


def group_size_expr(k, L):
    return k.pick("int(i.getLocalSizeX())", "L", "int(i.get_local_size(0))",
                  str(L) if L == 256 else "L")


def host_prologue(k, L, G, n, outs, rng_range):
    salt = k.rng.randrange(1, 1 << 30)
    lines = ["const int L = %d, G = %d, Gl = G * L, n = %d;" % (L, G, n),
             "Pointer<int> in = allocate<int>(n);"]
    for name, size in outs:
        lines.append("Pointer<int> %s = allocate<int>(%s);" % (name, size))
    lines.append("for (int e = 0; e < n; ++e)")
    lines.append("  in[e] = wgInput(e, %du, %d);" % (salt, rng_range))
    return lines


def host_epilogue(outs):
    return ["deallocate(in);"] + ["deallocate(%s);" % name for name, _ in outs]


def wrap_try(k, launch, check):
    return (["try {"] + ["  " + s for s in launch] + ["  " + s for s in check] +
            ["} catch (const hpp::RuntimeError &E) {",
             "  wgError(%d, E.what());" % k.kid,
             "} catch (const std::exception &E) {",
             "  wgError(%d, E.what());" % k.kid,
             "}"])


def lambda_block(head, body):
    """A parallelFor call: head lines, the body indented, and the closer."""
    return head + ["              " + s if s else "" for s in body] + ["            });"]


def pred_expr(k, v):
    m = k.pick(3, 5, 7)
    r = k.rng.randrange(0, m)
    return k.pick("%s %% %d == %d" % (v, m, r if r else 0),
                  "(%s & 1) != 0" % v, "%s > %d" % (v, k.rng.randrange(-20, 20)),
                  "(%s * 7 + 3) %% %d < 2" % (v, m))


# ---------------------------------------------------------------------------
# Families. Each returns (lines of the host function body, helper lines are
# added to k.pre).


def fam_warp_sum(k):
    """Sum of the input (over the launch or per work-group) by warp trees or
    scans and one atomicAdd per warp."""
    L, G, n = group_shape(k)
    per_group = k.chance(0.5)
    outs = [("out", "G" if per_group else "1")]
    body = [tid_line(k)]
    mask, meff = k.choose_mask(body)
    k.declare_lane(body)
    body += value_lines(k)
    how = k.pick("tree", "tree", "helper", "template", "scan")
    if how == "tree":
        lines, _ = k.tree("v", "sum", mask, meff)
        body += lines
    elif how == "helper" or how == "template":
        name = "warpSum%d" % k.kid
        takes_mask = k.chance(0.6) and mask != "mask" or (mask == "mask")
        inner_mask, inner_eff = ("mask", 32) if takes_mask else (mask, meff)
        if how == "template":
            lines, _ = k.tree("v", "sum", inner_mask, inner_eff, template="W")
            head = "template <int W> __device(hpp) inline int %s(%sint v) {" % (
                name, "unsigned mask, " if takes_mask else "")
            targ = k.width32()
            call = "%s<%s>(%sv)" % (name, targ, mask + ", " if takes_mask else "")
            k.idiom("helper", "template <int W> tree, called <%s>" % targ)
        else:
            lines, _ = k.tree("v", "sum", inner_mask, inner_eff)
            head = "__device(hpp) inline int %s(%sint v) {" % (
                name, "unsigned mask, " if takes_mask else "")
            call = "%s(%sv)" % (name, mask + ", " if takes_mask else "")
            k.idiom("helper", "tree in __device(hpp) function%s" % (
                " taking the mask" if takes_mask else ""))
        k.pre += ["", "/// The sum over the warp, in lane 0 (all lanes for a xor tree)."]
        k.pre += [head] + ["  " + s for s in lines] + ["  return v;", "}"]
        body.append("v = %s;" % call)
    else:
        body += k.scan("v", mask, meff, "lane")
        last, leff = k.last_lane()
        if meff == 64 and leff == 32:
            k.fact("__shfl_sync from lane 31 under a 64-lane mask", "wrong")
        else:
            k.fact("broadcast lane", 32 if meff == 32 else leff)
        body.append("v = __shfl_sync(%s, v, %s);" % (mask, last))
        k.idiom("broadcast", "__shfl_sync(m, v, %s)" % last)
    target = "&out[i.getGroupX()]" if per_group else k.pick("out", "&out[0]")
    if k.chance(0.3):
        body += ["if (!lane)", "  atomicAdd(%s, v);" % target]
    else:
        body += ["if (lane == 0)", "  atomicAdd(%s, v);" % target]
    k.idiom("result", "atomicAdd per warp, %s" % ("per group" if per_group else "launch total"))
    launch = lambda_block(launch_line(k, L, False), body)
    if per_group:
        check = ["std::vector<long long> got(G), want(G);",
                 "for (int e = 0; e < n; ++e)",
                 "  want[e / L] += in[e];",
                 "for (int r = 0; r < G; ++r)",
                 "  got[r] = out[r];"]
    else:
        check = ["std::vector<long long> got(1, out[0]), want(1);",
                 "for (int e = 0; e < n; ++e)",
                 "  want[0] += in[e];"]
    check.append("wgCheck(%d, got, want);" % k.kid)
    return host_prologue(k, L, G, n, outs, 50) + wrap_try(k, launch, check) + host_epilogue(outs)


def fam_block_reduce(k):
    """Per-work-group sum or maximum: warp trees, per-warp slots in
    work-group memory, a barrier and a second pass."""
    L, G, n = group_shape(k)
    op = "max" if k.chance(0.15) else "sum"
    outs = [("out", "G")]
    zero_init = k.chance(0.25)
    region = "32" if zero_init or k.chance(0.4) else k.pick("L / 32", "L / MVECTOR_MIN", "L >> 5")
    body = ["Segment<int> slots = a(warpSlots);", tid_line(k)]
    mask, meff = k.choose_mask(body)
    k.declare_lane(body)
    weff = k.declare_warp(body)
    warp_fact = len(k.facts) - 1
    body += value_lines(k, op)
    if zero_init:
        body += ["if (%s < 32)" % k.tid, "  slots[%s] = %s;" % (k.tid, "0" if op == "sum" else "-1000000"),
                 "slots.barrier();"]
        k.idiom("slots", "[32], zeroed first")
    else:
        k.idiom("slots", "[%s]" % region)
    if k.chance(0.3):
        name = "warpReduce%d" % k.kid
        lines, _ = k.tree("v", op, "mask", 32)
        k.pre += ["", "/// The warp's %s, in lane 0." % op,
                  "__device(hpp) inline int %s(unsigned mask, int v) {" % name]
        k.pre += ["  " + s for s in lines] + ["  return v;", "}"]
        body.append("v = %s(%s, v);" % (name, mask))
        k.idiom("helper", "tree in __device(hpp) function taking the mask")
    else:
        lines, _ = k.tree("v", op, mask, meff)
        body += lines
    body += ["if (lane == 0)", "  slots[warp] = v;", "slots.barrier();"]
    # The number of warps in the group.
    nweff = k.want()
    lsz = group_size_expr(k, L)
    if nweff == 64:
        nw = "%s / warpSize" % lsz
    else:
        w = k.width32()
        nw = k.pick("%s / %s" % (lsz, w), "%s >> 5" % lsz if w == "32" else "%s / %s" % (lsz, w))
    pas = k.pick("loop", "loop", "lanes", "lanes-float", "warp0")
    if zero_init and nweff == 32:
        # Zeroed slots, all 32-lane warps' slots read: extra slots add 0,
        # and 32-lane warp ids only spread wider warps' sums apart.
        if weff == 32 and pas != "warp0":
            del k.facts[warp_fact]
    else:
        k.fact("warps per group", nweff)
    if pas == "loop":
        upd = "t += slots[w];" if op == "sum" else "t = slots[w] > t ? slots[w] : t;"
        body += ["if (%s == 0) {" % k.tid,
                 "  int t = %s;" % ("0" if op == "sum" else "-1000000"),
                 "  for (int w = 0; w < %s; ++w)" % nw,
                 "    %s" % upd,
                 "  out[i.getGroupX()] = t;", "}"]
        k.idiom("second pass", "thread 0 loops w < %s" % nw)
    else:
        neutral_v = "0" if op == "sum" else "-1000000"
        if pas == "lanes-float":
            if nweff == 64:
                cond = "%s < %s / float(warpSize)" % (k.tid, lsz)
            else:
                cond = "%s < %s / %s.f" % (k.tid, lsz, "32")
            k.idiom("second pass", "all lanes, %s" % cond)
        else:
            cond = "%s < %s" % (k.tid, nw)
            k.idiom("second pass", "%s, %s" % ("warp 0" if pas == "warp0" else "all lanes", cond))
        inner = ["int partial = %s ? slots[%s] : %s;" % (cond, k.tid, neutral_v)]
        lines, _ = k.tree("partial", op, mask, meff, neutral=True, what="second tree")
        inner += lines
        inner += ["if (%s == 0)" % k.tid, "  out[i.getGroupX()] = partial;"]
        if pas == "warp0":
            # A 32-bit mask's collective is its 32-lane warp's; a 64-bit
            # mask's needs the whole mvector, which `warp == 0` splits.
            if weff == 32 and meff == 64:
                k.fact("if (warp == 0) around 64-bit-mask shuffles splits a 64-lane mvector",
                       "error")
            body += ["if (warp == 0) {"] + ["  " + s for s in inner] + ["}"]
        else:
            body += inner
    launch = ["DistArray<int> shared;",
              "Region<int> warpSlots = shared.allocRegion(%s);" % region]
    launch += lambda_block(launch_line(k, L, True), body)
    if op == "sum":
        check = ["std::vector<long long> got(G), want(G);",
                 "for (int e = 0; e < n; ++e)",
                 "  want[e / L] += in[e];"]
    else:
        check = ["std::vector<long long> got(G), want(G, -1000000);",
                 "for (int e = 0; e < n; ++e)",
                 "  want[e / L] = std::max<long long>(want[e / L], in[e]);"]
    check += ["for (int r = 0; r < G; ++r)", "  got[r] = out[r];",
              "wgCheck(%d, got, want);" % k.kid]
    return host_prologue(k, L, G, n, outs, 60) + wrap_try(k, launch, check) + host_epilogue(outs)


def fam_ballot_count(k):
    """Count of the elements a predicate keeps, per work-group: ballots,
    __popc, and optionally __all_sync / __any_sync shortcuts."""
    L, G, n = group_shape(k)
    outs = [("out", "G")]
    body = [tid_line(k)]
    mask, meff = k.choose_mask(body)
    k.declare_lane(body)
    body += value_lines(k)
    votes = k.chance(0.4)
    pred = pred_expr(k, "v")
    if votes:
        # Runs of whole warps that all vote yes, and mixed warps.
        pred = "(g / %d) %% 2 == 0 || %s" % (k.pick(64, 96, 128, 192), pred)
    body.append("const bool p = g < n && (%s);" % pred)
    info = k.ballot(body, mask, meff, "p")
    if votes:
        body += ["const int all = __all_sync(%s, p);" % mask,
                 "const int any = __any_sync(%s, p);" % mask]
        ceff = k.want()
        c = k.width(ceff)
        k.fact("lanes of a full warp", ceff)
        k.idiom("votes", "__all_sync ? %s : __any_sync ? popc : 0" % c)
        body += ["if (lane == 0)",
                 "  atomicAdd(&out[i.getGroupX()], all ? %s : (any ? %s : 0));" % (c, k.popc(info, "b"))]
    else:
        body += ["const int count = %s;" % k.popc(info, "b"),
                 "if (lane == 0)",
                 "  atomicAdd(&out[i.getGroupX()], count);"]
    k.idiom("result", "per-group count")
    launch = lambda_block(launch_line(k, L, False), body)
    check = ["std::vector<long long> got(G), want(G);",
             "for (int e = 0; e < n; ++e) {",
             "  const int v = in[e], g = e;",
             "  if (%s)" % pred,
             "    ++want[e / L];",
             "}",
             "for (int r = 0; r < G; ++r)", "  got[r] = out[r];",
             "wgCheck(%d, got, want);" % k.kid]
    return host_prologue(k, L, G, n, outs, 40) + wrap_try(k, launch, check) + host_epilogue(outs)


def fam_compaction(k):
    """Stream compaction: ballot, rank by a prefix mask, one atomicAdd per
    warp by its leader, broadcast of the base; the output compared as a
    sorted multiset with its count."""
    L, G, n = group_shape(k)
    outs = [("out", "n"), ("counter", "1")]
    body = [tid_line(k)]
    mask, meff = k.choose_mask(body)
    leff = k.declare_lane(body)
    body += value_lines(k)
    fast = k.chance(0.35)
    pred = pred_expr(k, "v")
    if fast:
        # Runs of whole warps that keep everything, and mixed warps.
        pred = "(g / %d) %% 2 == 0 || %s" % (k.pick(64, 96, 128, 192), pred)
    body.append("const bool keep = g < n && (%s);" % pred)
    info = k.ballot(body, mask, meff, "keep")
    body.append("const int count = %s;" % k.popc(info, "b"))
    body.append("const int rank = %s;" % k.popc(info, "b & %s" % k.prefix(info, "lane")))
    k.fact("lane bits of the ballot", leff)
    lead = k.pick("lane0", "lane0", "ffs")
    if lead == "ffs":
        body.append("const int leader = %s - 1;" % k.ffs(info, "b"))
        cond, src = "lane == leader", "leader"
        k.idiom("leader", "__ffs(ballot) - 1")
    else:
        cond, src = "lane == 0 && count > 0", "0"
        k.idiom("leader", "lane 0")
    body += ["int base = 0;", "if (%s)" % cond, "  base = atomicAdd(counter, count);"]
    body.append("base = __shfl_sync(%s, base, %s);" % (mask, src))
    k.fact("broadcast of the base", meff)
    if fast:
        # A full-warp test of the other width is (almost) never true, and
        # the general path is right: no fact.
        ceff = k.want()
        c = k.width(ceff)
        k.idiom("full warp", "%s == %s" % (info["popc"] + "(b)", c))
        full = "count" if k.chance(0.5) else k.popc(info, "b")
        body += ["if (%s == %s) {" % (full, c),
                 "  if (base + lane < n)",
                 "    out[base + lane] = v;",
                 "} else if (keep && base + rank < n) {",
                 "  out[base + rank] = v;",
                 "}"]
    else:
        body += ["if (keep && base + rank < n)", "  out[base + rank] = v;"]
    launch = lambda_block(launch_line(k, L, False), body)
    check = ["std::vector<long long> want;",
             "for (int e = 0; e < n; ++e) {",
             "  const int v = in[e], g = e;",
             "  if (%s)" % pred,
             "    want.push_back(v);",
             "}",
             "const int kept = counter[0];",
             "std::vector<long long> got(1, kept);",
             "for (int e = 0; e < kept && e < n; ++e)",
             "  got.push_back(out[e]);",
             "std::sort(got.begin() + 1, got.end());",
             "std::sort(want.begin(), want.end());",
             "want.insert(want.begin(), (long long)want.size());",
             "wgCheck(%d, got, want);" % k.kid]
    return host_prologue(k, L, G, n, outs, 30) + wrap_try(k, launch, check) + host_epilogue(outs)


def fam_block_scan(k):
    """Inclusive or exclusive prefix sum within each work-group: warp scans,
    warp totals in work-group memory, offsets from the lower warps."""
    L, G, n = group_shape(k)
    outs = [("out", "n")]
    body = ["Segment<int> slots = a(warpSlots);", tid_line(k)]
    mask, meff = k.choose_mask(body)
    k.declare_lane(body)
    k.declare_warp(body)
    body += value_lines(k)
    body.append("const int x = v;")
    if k.chance(0.3):
        name = "warpScan%d" % k.kid
        lines = k.scan("v", "mask", 32, "lane")
        k.pre += ["", "/// Inclusive scan of `v` over the lanes of the warp up to `lane`.",
                  "__device(hpp) inline int %s(unsigned mask, int v, int lane) {" % name]
        k.pre += ["  " + s for s in lines] + ["  return v;", "}"]
        body.append("v = %s(%s, v, lane);" % (name, mask))
        k.idiom("helper", "scan in __device(hpp) function taking mask and lane")
    else:
        body += k.scan("v", mask, meff, "lane")
    last, leff = k.last_lane()
    if k.chance(0.5):
        body += ["if (lane == %s)" % last, "  slots[warp] = v;"]
        k.fact("last lane", leff)
        k.idiom("warp total", "lane == %s stores" % last)
    else:
        body += ["const int total = __shfl_sync(%s, v, %s);" % (mask, last),
                 "if (lane == 0)", "  slots[warp] = total;"]
        if meff == 64 and leff == 32:
            # Every lane gets the first 32 lanes' total; only the last warp
            # of a group of 64 has no reader.
            if L > 64:
                k.fact("__shfl_sync from lane 31 under a 64-lane mask", "wrong")
        else:
            k.fact("broadcast lane", 32 if meff == 32 else leff)
        k.idiom("warp total", "__shfl_sync(m, v, %s)" % last)
    body += ["slots.barrier();",
             "int offset = 0;",
             "for (int w = 0; w < warp; ++w)",
             "  offset += slots[w];"]
    exclusive = k.chance(0.3)
    body += ["if (g < n)", "  out[g] = offset + v%s;" % (" - x" if exclusive else "")]
    k.idiom("result", "%s scan per group" % ("exclusive" if exclusive else "inclusive"))
    region = k.pick("32", "L / 32", "L / MVECTOR_MIN")
    launch = ["DistArray<int> shared;",
              "Region<int> warpSlots = shared.allocRegion(%s);" % region]
    launch += lambda_block(launch_line(k, L, True), body)
    step = ["  want[e] = run;", "  run += in[e];"] if exclusive else \
        ["  run += in[e];", "  want[e] = run;"]
    check = ["std::vector<long long> got(n), want(n);",
             "long long run = 0;",
             "for (int e = 0; e < n; ++e) {",
             "  if (e % L == 0)",
             "    run = 0;"] + step + [
             "  got[e] = out[e];",
             "}",
             "wgCheck(%d, got, want);" % k.kid]
    return host_prologue(k, L, G, n, outs, 20) + wrap_try(k, launch, check) + host_epilogue(outs)


def seg_tree(k, mask, w):
    """A shuffle tree over segments of `w` lanes (explicit width argument)."""
    kind = k.pick("down", "down", "xor")
    intr = "__shfl_down_sync" if kind == "down" else "__shfl_xor_sync"
    start = k.pick("%s / 2" % w, "%s >> 1" % w)
    k.idiom("tree", "%s from %s, width %s" % (kind, start, w))
    if k.chance(0.3):
        return ["{", "  int o = %s;" % start, "  while (o > 0) {",
                "    v += %s(%s, v, o, %s);" % (intr, mask, w), "    o /= 2;", "  }", "}"]
    return ["for (int o = %s; o > 0; %s)" % (start, k.pick("o /= 2", "o >>= 1")),
            "  v += %s(%s, v, o, %s);" % (intr, mask, w)]


def fam_segmented(k):
    """Sums or inclusive scans of fixed segments of TPS elements (TNL's
    threads per segment): shuffles with an explicit width, TPS a template
    parameter, a macro or a constant. Right at any width as written."""
    L, G, n = group_shape(k)
    tps = k.pick(4, 8, 16, 32)
    scan = k.chance(0.35)
    outs = [("out", "Gl" if scan else "Gl / TPS")]
    spell = k.pick("template", "template", "constexpr", "macro")
    if spell == "macro":
        k.pre.append("#define TPS %d" % tps)
        k.post.append("#undef TPS")
    body = [tid_line(k)]
    mask, meff = k.choose_mask(body)
    body += value_lines(k)
    body.append("const int rank = g %s;" % k.pick("% TPS", "& (TPS - 1)"))
    if scan:
        body += k.scan("v", mask, meff, "rank", width="TPS")
        body += ["if (g < n)", "  out[g] = v;"]
    else:
        if k.chance(0.5):
            name = "segSum%d" % k.kid
            if spell != "macro" or k.chance(0.5):
                k.pre += ["", "/// The sum of each segment of W lanes, in its first lane.",
                          "template <int W>",
                          "__device(hpp) inline int %s(unsigned mask, int v) {" % name]
                k.pre += ["  " + s for s in seg_tree(k, "mask", "W")]
                call = "%s<TPS>(%s, v)" % (name, mask)
                k.idiom("helper", "template <int W> segment tree")
            else:
                k.pre += ["", "/// The sum of each segment of TPS lanes, in its first lane.",
                          "__device(hpp) inline int %s(unsigned mask, int v) {" % name]
                k.pre += ["  " + s for s in seg_tree(k, "mask", "TPS")]
                call = "%s(%s, v)" % (name, mask)
                k.idiom("helper", "segment tree in __device(hpp) function")
            k.pre += ["  return v;", "}"]
            body.append("v = %s;" % call)
        else:
            body += seg_tree(k, mask, "TPS")
        body += ["if (rank == 0)", "  out[g / TPS] = v;"]
    k.idiom("segments", "TPS=%d as %s%s" % (tps, spell, ", scan" if scan else ", sum"))
    launch = lambda_block(launch_line(k, L, False), body)
    if scan:
        check = ["std::vector<long long> got(n), want(n);",
                 "long long run = 0;",
                 "for (int e = 0; e < n; ++e) {",
                 "  run = (e % TPS == 0 ? 0 : run) + in[e];",
                 "  want[e] = run;",
                 "  got[e] = out[e];",
                 "}"]
    else:
        check = ["std::vector<long long> got(Gl / TPS), want(Gl / TPS);",
                 "for (int e = 0; e < n; ++e)",
                 "  want[e / TPS] += in[e];",
                 "for (int s = 0; s < Gl / TPS; ++s)",
                 "  got[s] = out[s];"]
    check.append("wgCheck(%d, got, want);" % k.kid)
    fn = host_prologue(k, L, G, n, outs, 50) + wrap_try(k, launch, check) + host_epilogue(outs)
    if spell == "template":
        return fn, ("template <int TPS>", "<%s>" % (k.width32() if tps == 32 else tps))
    if spell == "constexpr":
        fn.insert(0, "constexpr int TPS = %d;" % tps)
    return fn


def fam_launch_scan(k):
    """Inclusive scan over the whole launch, as examples/warp_scan.cpp:
    warp scans store warp totals at totals[g / 32], the host scans them, a
    second launch adds them."""
    L, G, n = group_shape(k)
    outs = [("out", "n"), ("totals", "Gl / MVECTOR_MIN")]
    body = [tid_line(k)]
    mask, meff = k.choose_mask(body)
    k.declare_lane(body)
    body += value_lines(k)
    body += k.scan("v", mask, meff, "lane")
    last, leff = k.last_lane()
    k.fact("last lane", leff)
    weff = k.want()
    wexpr = k.warp_expr("g", weff)
    body += ["if (g < n)", "  out[g] = v;", "if (lane == %s)" % last, "  totals[%s] = v;" % wexpr]
    k.idiom("warp total", "lane == %s stores totals[%s]" % (last, wexpr))
    body2 = ["const int g = int(i.getX());"]
    weff2 = k.want()
    if weff != 32 or weff2 != 32:
        # Entries per 32 lanes in both launches fit any width (a wider warp
        # leaves zeros between its totals); otherwise they must agree.
        k.fact("warp of the launch", weff)
        k.fact("warp of the launch (second launch)", weff2)
    wexpr2 = k.warp_expr("g", weff2)
    body2 += ["if (g < n)", "  out[g] += totals[%s];" % wexpr2]
    launch = lambda_block(launch_line(k, L, False), body)
    launch += ["int running = 0;",
               "for (int w = 0; w < Gl / MVECTOR_MIN; ++w) {",
               "  const int total = totals[w];",
               "  totals[w] = running;",
               "  running += total;",
               "}"]
    launch += lambda_block(launch_line(k, L, False), body2)
    check = ["std::vector<long long> got(n), want(n);",
             "long long run = 0;",
             "for (int e = 0; e < n; ++e) {",
             "  run += in[e];",
             "  want[e] = run;",
             "  got[e] = out[e];",
             "}",
             "wgCheck(%d, got, want);" % k.kid]
    k.idiom("result", "inclusive scan of the launch, two launches")
    return host_prologue(k, L, G, n, outs, 20) + wrap_try(k, launch, check) + host_epilogue(outs)


FAMILY_FUNCS = {
    "warp-sum": fam_warp_sum,
    "block-reduce": fam_block_reduce,
    "ballot-count": fam_ballot_count,
    "compaction": fam_compaction,
    "block-scan": fam_block_scan,
    "segmented": fam_segmented,
    "launch-scan": fam_launch_scan,
}


def make_kernel(seed, kid):
    """The code lines of kernel `kid` (without its marker lines) and its
    description."""
    k = Kernel(seed, kid)
    k.family = weighted(k.rng, FAMILIES)
    res = FAMILY_FUNCS[k.family](k)
    template = None
    if isinstance(res, tuple):
        res, template = res
    name = "runKernel%d" % kid
    lines = list(k.pre)
    lines.append("")
    if template:
        lines.append(template[0])
        lines.append("static void %sImpl() {" % name)
    else:
        lines.append("static void %s() {" % name)
    lines += ["  " + s if s else "" for s in res]
    lines.append("}")
    if template:
        lines.append("static void %s() { %sImpl%s(); }" % (name, name, template[1]))
    lines.append("static const bool registered%d = wgRegister(%d, &%s);" % (kid, kid, name))
    lines += k.post
    verdict, reason = k.expect64()
    info = {"id": kid, "family": k.family, "style": k.style, "expect64": verdict,
            "reason": reason, "idioms": k.idioms}
    return lines, info


PROLOGUE = r"""#include <hpp/hpp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

using namespace hpp;

typedef void (*WgKernelFn)();
struct WgKernel {
  int Id;
  WgKernelFn Run;
};
static std::vector<WgKernel> &wgKernels() {
  static std::vector<WgKernel> Kernels;
  return Kernels;
}
static bool wgRegister(int Id, WgKernelFn Run) {
  wgKernels().push_back({Id, Run});
  return true;
}
/// Deterministic, irregular integers in [-Range, Range].
static int wgInput(int E, unsigned Salt, int Range) {
  unsigned X = unsigned(E) * 0x9E3779B1u + Salt;
  X ^= X >> 15;
  X *= 0x2C1B3C6Du;
  X ^= X >> 12;
  return int(X % unsigned(2 * Range + 1)) - Range;
}
static void wgCheck(int Id, const std::vector<long long> &Got,
                    const std::vector<long long> &Want) {
  for (std::size_t E = 0; E < Want.size() || E < Got.size(); ++E) {
    long long G = E < Got.size() ? Got[E] : -1, W = E < Want.size() ? Want[E] : -1;
    if (E >= Got.size() || E >= Want.size() || G != W) {
      std::printf("kernel %d: MISMATCH at %zu: got %lld expected %lld\n", Id, E, G, W);
      std::fflush(stdout);
      return;
    }
  }
  std::printf("kernel %d: ok\n", Id);
  std::fflush(stdout);
}
static void wgError(int Id, const char *What) {
  std::string Line(What);
  for (char &C : Line)
    if (C == '\n' || C == '\r')
      C = ' ';
  std::printf("kernel %d: ERROR %s\n", Id, Line.c_str());
  std::fflush(stdout);
}
"""

EPILOGUE = r"""
/// Runs every kernel, or those whose ids are the arguments.
int main(int argc, char **argv) {
  for (const WgKernel &K : wgKernels()) {
    bool Run = argc < 2;
    for (int A = 1; A < argc; ++A)
      Run = Run || std::atoi(argv[A]) == K.Id;
    if (Run)
      K.Run();
  }
  return 0;
}
"""


def make_tu(seed, ids, total_tus, index):
    """The source text of one translation unit and its kernels' info."""
    lines = ["// Generated by scripts/warpgen.py --seed %s: translation unit %d of %d, kernels %d-%d."
             % (seed, index + 1, total_tus, ids[0], ids[-1]),
             "// Each kernel prints `kernel <id>: ok` when its width-independent result",
             "// matches a plain C++ computation. `expect64` predicts the reference",
             "// runtime at HPP_CPU_MVECTOR=64 for the kernel as written."]
    lines += PROLOGUE.split("\n")
    infos = []
    for kid in ids:
        code, info = make_kernel(seed, kid)
        start = len(lines) + 1  # 1-based number of the first marker line
        end = start + 2 + len(code)  # the end marker
        head = "// warpgen kernel %d: lines %d-%d, family %s, style %s, expect64 %s (%s)" % (
            kid, start, end, info["family"], info["style"], info["expect64"], info["reason"])
        lines.append(head)
        lines.append("// idioms: " + "; ".join(info["idioms"]))
        lines += code
        lines.append("// warpgen end kernel %d" % kid)
        assert len(lines) == end
        info["lines"] = [start, end]
        infos.append(info)
    lines += EPILOGUE.split("\n")
    return "\n".join(lines).rstrip("\n") + "\n", infos


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n", 1)[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", default="1", help="seed (any string; default 1)")
    ap.add_argument("--kernels", type=int, default=100, help="number of kernels (default 100)")
    ap.add_argument("--first", type=int, default=0, help="id of the first kernel (default 0)")
    ap.add_argument("--per-tu", type=int, default=20,
                    help="kernels per translation unit (default 20)")
    ap.add_argument("--out", required=True, help="output directory (created)")
    ap.add_argument("--only", type=int, nargs="*",
                    help="generate only these kernel ids (one TU each)")
    args = ap.parse_args(argv)
    if args.kernels < 1 or args.per_tu < 1:
        ap.error("--kernels and --per-tu must be positive")
    os.makedirs(args.out, exist_ok=True)
    ids = args.only if args.only else list(range(args.first, args.first + args.kernels))
    groups = [ids[p:p + args.per_tu] for p in range(0, len(ids), args.per_tu)]
    if args.only:
        groups = [[x] for x in ids]
    manifest = {"seed": args.seed, "files": []}
    for index, group in enumerate(groups):
        text, infos = make_tu(args.seed, group, len(groups), index)
        name = "warpgen_s%s_%05d.cpp" % (args.seed, group[0])
        with open(os.path.join(args.out, name), "w") as f:
            f.write(text)
        manifest["files"].append({"file": name, "kernels": infos})
    with open(os.path.join(args.out, "warpgen.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
