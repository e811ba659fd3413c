"""Styles and families of generated kernels, and Kernel: one kernel's random
choices, its spellings of the warp width, its idioms and its model of the
reference runtime at 64 lanes (the expect64 prediction)."""

import random


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
    ("lanemask", 12),
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

    def __init__(self, seed, kid, shared=None, style=None):
        self.kid = kid
        self.rng = random.Random("warpgen:%s:%d" % (seed, kid))
        self.style = weighted(self.rng, STYLES)
        # The multi-file mode's plan for the kernel's source ("mixed-wide":
        # mixed, with 64-bit masks).
        self.force_wide = style == "mixed-wide"
        if style:
            self.style = "mixed" if self.force_wide else style
        # The multi-file mode's library of helpers in shared headers
        # (multifile.SharedLib); None for a single-file program.
        self.shared = shared
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
            return self.real_width()
        return self.width32(template)

    def real_width(self):
        """warpSize, or in the multi-file mode sometimes the shared
        headers' helper of the width."""
        if self.shared and self.chance(self.shared.width_share):
            return self.shared.width_call(self)
        return "warpSize"

    # -- lane and warp ids --------------------------------------------------
    def lane_expr(self, t, eff):
        """A lane id of work-item id `t`, assuming `eff` lanes."""
        if eff == 64:
            ws = self.real_width()
            return self.pick("%s & (%s - 1)" % (t, ws), "%s %% %s" % (t, ws))
        w = self.width32()
        if w == "32":
            return self.pick("%s & 31" % t, "%s %% 32" % t, "%s & 0x1f" % t)
        return self.pick("%s & (%s - 1)" % (t, w), "%s %% %s" % (t, w))

    def warp_expr(self, t, eff):
        """A warp id (within the launch or group) of work-item id `t`."""
        if eff == 64:
            return "%s / %s" % (t, self.real_width())
        w = self.width32()
        if w == "32":
            return self.pick("%s / 32" % t, "%s >> 5" % t)
        return "%s / %s" % (t, w)

    def declare_lane(self, body, t="tid"):
        """Declares `lane` (maybe through a helper); returns its width."""
        eff = self.want()
        if self.force_wide:
            # The multi-file mode's kernels that run as written: the lane
            # from the real width (its helper), the rest mixed.
            eff = 64
        expr = self.lane_expr(self.tid, eff)
        if self.chance(0.5 if self.shared else 0.25):
            name = "laneOf%d" % self.kid
            inner = self.lane_expr("id", eff)
            shared = self.shared and self.shared.lane_helper(self, "lane", inner)
            if shared:
                name = shared
            else:
                self.pre += ["", "/// The lane of work-item `id` in its warp.",
                             "__device(hpp) inline int %s(int id) { return %s; }" % (name, inner)]
            expr = "%s(%s)" % (name, self.tid)
            self.idiom("lane", "%shelper(%s)" % ("shared " if shared else "", inner))
        else:
            self.idiom("lane", expr)
        body.append("int lane = %s;" % expr)
        self.fact("lane id", eff)
        return eff

    def declare_warp(self, body):
        eff = self.want()
        expr = self.warp_expr(self.tid, eff)
        if self.chance(0.45 if self.shared else 0.2):
            name = "warpOf%d" % self.kid
            inner = self.warp_expr("id", eff)
            shared = self.shared and self.shared.lane_helper(self, "warp", inner)
            if shared:
                name = shared
            else:
                self.pre += ["", "/// The warp of work-item `id` in its work-group.",
                             "__device(hpp) inline int %s(int id) { return %s; }" % (name, inner)]
            expr = "%s(%s)" % (name, self.tid)
            self.idiom("warp", "%shelper(%s)" % ("shared " if shared else "", inner))
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
        if need64 or self.force_wide:
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
        shared = self.shared and self.shared.mask_helper(self)
        if shared:
            name = shared
        else:
            self.pre += ["", "/// Every lane of the warp.",
                         "__device(hpp) inline unsigned %s() { return 0xffffffffu; }" % name]
        self.idiom("mask", "%shelper returning unsigned" % ("shared " if shared else ""))
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
        elif self.shared and self.chance(0.5):
            step = ["int other = %s;" % call,
                    "%s = %s;" % (var, self.shared.max_call(self, var, "other"))]
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
        if self.chance(0.45 if self.shared else 0.25):
            name = "lanesBelow%d" % self.kid
            rtype = "unsigned long long" if one == "1ull" else "unsigned"
            shared = self.shared and self.shared.prefix_helper(self, rtype, one)
            if shared:
                name = shared
            else:
                self.pre += ["", "/// The lanes below `lane` in its warp.",
                             "__device(hpp) inline %s %s(int lane) { return (%s << lane) - 1; }"
                             % (rtype, name, one)]
            self.idiom("prefix", "%shelper (%s << lane) - 1" % ("shared " if shared else "", one))
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
