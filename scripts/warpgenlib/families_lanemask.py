"""Kernel families of lane masks built by shifts: a binary block scan written
in a public benchmark suite's style (issue 27's held-out case) and its
neighbours. The ballot of a predicate is and-ed with a lane mask built by a
shift (`1u << lane`, `(1 << lane) - 1`, `~(0xffffffffu << lane)`,
lanemask_lt/le/gt/ge-style helpers) that a `__device(hpp)` helper returns as
`unsigned`, `unsigned int`, `uint32_t`, ..., takes as a 32-bit parameter,
or that a 32-bit local holds; `__popc` and `__ffs` count and elect; lane
and warp ids come from `warpSize`, from `& 31` / `>> 5`, or from
MVECTOR_SIZE. The results are width-independent in intent: a rank (prefix
count) of each element in its work-group, the count above it, a compacted
array, a count per work-group.

Each returns the lines of its host function body (helper lines are added
to k.pre).

The 64-lane model (Kernel.facts) of the reference runtime, as written: a
32-bit mask's ballot holds the caller's 32-lane half; a shift of a 32-bit
value by a lane id of 32-63 shifts by the id modulo 32 (x86, and the
generated programs build at -O0), so a 32-bit lane mask of a 64-wide lane
id names the lanes of its 32-lane half: against a 32-bit ballot it counts
as a 32-lane warp whatever the lane id's width. A 64-bit mask of a 64-wide
lane id names the whole mvector; against a 32-bit ballot it counts the
whole lower half for lanes 32-63 (wrong), and a 32-bit mask against a
64-bit ballot drops the upper half (wrong).
"""

from .pieces import group_shape, host_epilogue, host_prologue, lambda_block, launch_line
from .pieces import pred_expr, wrap_try

# The spellings of a 32-bit and a 64-bit lane-mask type.
TYPES32 = ("unsigned", "unsigned int", "uint32_t", "std::uint32_t", "lanemask_t", "int", "auto")
TYPES64 = ("unsigned long long", "uint64_t", "auto")

# Mask expressions of lane `l` by relation and width: {l} is the lane.
EXPRS = {
    ("lt", 32): ("(1u << {l}) - 1", "(1 << {l}) - 1", "~(0xffffffffu << {l})", "(1U << {l}) - 1U",
                 "~(~0u << {l})"),
    ("le", 32): ("(2u << {l}) - 1", "~(0xfffffffeu << {l})"),
    ("gt", 32): ("0xfffffffeu << {l}", "~((2u << {l}) - 1)"),
    ("ge", 32): ("0xffffffffu << {l}", "~((1u << {l}) - 1)", "~0u << {l}"),
    ("lt", 64): ("(1ull << {l}) - 1", "~(~0ull << {l})"),
    ("le", 64): ("(2ull << {l}) - 1",),
    ("gt", 64): ("~((2ull << {l}) - 1)",),
    ("ge", 64): ("~0ull << {l}", "~((1ull << {l}) - 1)"),
}


def lane_ids(k, body, eff, need_warp=True, exact=False):
    """Declares `lane` (and `warp`) of work-item id k.tid for `eff` lanes;
    the spellings of the benchmark (warpSize), of CUDA code (& 31, >> 5) and
    of the dialect (MVECTOR_SIZE)."""
    t = k.tid
    if exact:
        w, lane, warp = "warpSize", "%s %% warpSize" % t, "%s / warpSize" % t
    elif eff == 64:
        w = k.pick("warpSize", "warpSize", "MVECTOR_SIZE")
        lane = k.pick("%s %% %s" % (t, w), "%s & (%s - 1)" % (t, w))
        warp = "%s / %s" % (t, w)
    else:
        w = k.width32()
        if w == "32":
            lane = k.pick("%s & 31" % t, "%s %% 32" % t, "%s & 0x1f" % t)
            warp = k.pick("%s >> 5" % t, "%s / 32" % t)
        else:
            lane = k.pick("%s & (%s - 1)" % (t, w), "%s %% %s" % (t, w))
            warp = "%s / %s" % (t, w)
    if not exact and k.chance(0.45 if k.shared else 0.25):
        # The ids from helpers, as the benchmark's laneId()/warpId().
        rtype = k.pick("int", "unsigned", "int")
        shared = k.shared and k.shared.lane_helper(k, "lane", lane.replace(t, "id"), rtype)
        if not shared:
            k.pre += ["", "/// The lane of work-item `id` in its warp.",
                      "__device(hpp) inline %s laneId%d(int id) { return %s; }" % (
                          rtype, k.kid, lane.replace(t, "id"))]
        body.append("const int lane = %s(%s);" % (shared or "laneId%d" % k.kid, t))
        k.idiom("lane", "%shelper(%s)" % ("shared " if shared else "", lane))
    else:
        body.append("const int lane = %s;" % lane)
        k.idiom("lane", lane)
    if need_warp:
        body.append("const int warp = %s;" % warp)
        k.idiom("warp", warp)
    return w


def mask_type(k, bits):
    if bits == 32:
        return k.pick(*TYPES32)
    return k.pick(*TYPES64)


def masked_count(k, rel, bits, info, body, exact=False):
    """An int expression counting the ballot's bits in relation `rel` (lt,
    le, gt, ge) to `lane`, through a mask of `bits` bits built by a shift,
    in one of the forms of the benchmark and its neighbours (with `exact`,
    the benchmark's own: `(1 << lane) - 1` returned as `unsigned int`).
    Adds the 64-lane fact of the count."""
    ty = mask_type(k, bits)
    exprs = EXPRS[(rel, bits)]
    if exact:
        ty, rel_expr = "unsigned int", "(1 << {l}) - 1"
    elif ty == "int":
        # A signed mask only as the benchmark writes it.
        rel_expr = "(1 << {l}) - 1" if rel == "lt" else exprs[0]
        if rel != "lt":
            ty = "unsigned"
    else:
        rel_expr = k.pick(*exprs)
    if ty == "auto" and "1 <<" in rel_expr and "1u" not in rel_expr and "ull" not in rel_expr:
        ty = "unsigned"
    if ty == "lanemask_t":
        k.pre += ["", "typedef unsigned int lanemask_t;"] if "typedef lanemask" not in "".join(
            k.pre) else []
    expr = rel_expr.replace("{l}", "lane")
    name = "lanemask%s%d" % (rel.capitalize(), k.kid)
    wide = bits == 64 or info["bits"] == 64
    popc = "__popcll" if wide else "__popc"
    form = k.pick("helper-return", "helper-return", "helper-return", "helper-param", "local",
                  "inline", "macro", "template", "out-param", "popc-helper", "lambda",
                  "static-member", "chained", "const-return", "wide-return", "loop")
    if exact:
        form = "helper-return"
    if form == "wide-return" and bits == 64:
        form = "helper-return"
    if form == "loop" and rel not in ("lt", "le"):
        form = "helper-return"
    if form == "template" and ("1 <<" in rel_expr or rel not in ("lt", "ge")):
        form = "helper-return"
    if form == "chained" and rel not in ("le", "gt"):
        form = "helper-return"
    fty = ty if ty != "auto" else ("unsigned long long" if bits == 64 else "unsigned")
    semantics = "shift"  # how the mask's bits follow a 64-wide lane id
    if form == "helper-return":
        k.pre += ["", "/// The lanes %s `lane` in its warp." % REL_TEXT[rel],
                  "__device(hpp) inline %s %s(int lane) { return %s; }" % (ty, name, expr)]
        count = "%s(b & %s(lane))" % (popc, name)
    elif form == "wide-return":
        # A 64-bit result of a 32-bit shift: the width of the value is the
        # expression's, whatever the return type says.
        ty = k.pick("unsigned long long", "uint64_t")
        k.pre += ["", "/// The lanes %s `lane` in its warp." % REL_TEXT[rel],
                  "__device(hpp) inline %s %s(int lane) { return %s; }" % (ty, name, expr)]
        count = "__popcll(b & %s(lane))" % name
    elif form == "loop":
        # One bit at a time: no shift wraps to the half's lanes.
        one = "1ull" if bits == 64 else "1u"
        k.pre += ["", "/// The lanes %s `lane` in its warp, one bit at a time." % REL_TEXT[rel],
                  "__device(hpp) inline %s %s(int lane) {" % (fty, name),
                  "  %s m = 0;" % fty,
                  "  for (int j = 0; j %s lane; ++j)" % ("<" if rel == "lt" else "<="),
                  "    m |= %s << j;" % one,
                  "  return m;", "}"]
        count = "%s(b & %s(lane))" % (popc, name)
        semantics = "loop"
        rel_expr = "loop of %s << j" % one
    elif form == "const-return":
        # The width through a cv-qualified or decltype-spelled return type.
        rty = k.pick("const %s" % fty, "%s const" % fty,
                     "decltype(%s)" % ("0ull" if bits == 64 else "0u"))
        k.pre += ["", "/// The lanes %s `lane` in its warp." % REL_TEXT[rel],
                  "__device(hpp) inline %s %s(int lane) { return %s; }" % (rty, name, expr)]
        count = "%s(b & %s(lane))" % (popc, name)
        ty = rty
    elif form == "lambda":
        # A lambda in the body that returns the mask.
        lam = "lanesOf%d" % k.kid
        body.append("auto %s = [](int l) -> %s { return %s; };" % (
            lam, fty, rel_expr.replace("{l}", "l")))
        count = "%s(b & %s(lane))" % (popc, lam)
    elif form == "static-member":
        cls = "Lanes%d" % k.kid
        k.pre += ["", "/// Lane masks of a warp.", "struct %s {" % cls,
                  "  __device(hpp) static %s %s(int lane) { return %s; }" % (fty, rel, expr), "};"]
        count = "%s(b & %s::%s(lane))" % (popc, cls, rel)
    elif form == "chained":
        # le and gt from a helper for lt: a call chain of 32-bit results.
        base = "lanemaskLt%d" % k.kid
        lt_expr = EXPRS[("lt", bits)][0].replace("{l}", "lane")
        one = "1ull" if bits == 64 else "1u"
        k.pre += ["", "/// The lanes below `lane` in its warp.",
                  "__device(hpp) inline %s %s(int lane) { return %s; }" % (fty, base, lt_expr),
                  "/// The lanes %s `lane`, from those below it." % REL_TEXT[rel],
                  "__device(hpp) inline %s %s(int lane) { return %s; }" % (
                      fty, name, ("%s(lane) | (%s << lane)" % (base, one)) if rel == "le" else
                      "~(%s(lane) | (%s << lane))" % (base, one))]
        count = "%s(b & %s(lane))" % (popc, name)
    elif form == "helper-param":
        # The mask passed to a helper as a parameter of its width.
        fn = "countIn%d" % k.kid
        bty = "unsigned long long" if info["bits"] == 64 else k.pick("unsigned", "unsigned int",
                                                                      "uint32_t")
        k.pre += ["", "/// The bits of `bits` in `mask`.",
                  "__device(hpp) inline int %s(%s bits, %s mask) { return %s(bits & mask); }" % (
                      fn, bty, fty, popc)]
        count = "%s(b, %s)" % (fn, expr)
    elif form == "local":
        body.append("%s %s = %s;" % (fty if ty == "int" else ty, "below" if rel == "lt" else rel + "Mask",
                                     expr))
        count = "%s(b & %s)" % (popc, "below" if rel == "lt" else rel + "Mask")
    elif form == "inline":
        count = "%s(b & (%s))" % (popc, expr)
    elif form == "macro":
        mac = "LANEMASK_%s_%d" % (rel.upper(), k.kid)
        k.pre.append("#define %s(l) (%s)" % (mac, rel_expr.replace("{l}", "(l)")))
        k.post.append("#undef %s" % mac)
        count = "%s(b & %s(lane))" % (popc, mac)
    elif form == "template":
        one = "M(1)"
        t_expr = "(%s << lane) - %s" % (one, one) if rel == "lt" else "~M(0) << lane"
        k.pre += ["", "/// The lanes %s `lane` in a mask of type M." % REL_TEXT[rel],
                  "template <typename M> __device(hpp) inline M %s(int lane) { return %s; }" % (
                      name, t_expr)]
        count = "%s(b & %s<%s>(lane))" % (popc, name, fty)
    elif form == "out-param":
        k.pre += ["", "/// Stores the lanes %s `lane` in `m`." % REL_TEXT[rel],
                  "__device(hpp) inline void %s(int lane, %s &m) { m = %s; }" % (name, fty, expr)]
        body += ["%s m%s;" % (fty, rel), "%s(lane, m%s);" % (name, rel)]
        count = "%s(b & m%s)" % (popc, rel)
    else:
        # A 32-bit popcount helper (the benchmark's popc(unsigned)).
        pc = "popc%d" % k.kid
        pty = "unsigned long long" if wide else k.pick("unsigned", "unsigned int", "uint32_t")
        k.pre += ["", "/// The number of bits set.",
                  "__device(hpp) inline int %s(%s x) { return %s(x); }" % (pc, pty, popc)]
        k.pre += ["", "/// The lanes %s `lane` in its warp." % REL_TEXT[rel],
                  "__device(hpp) inline %s %s(int lane) { return %s; }" % (ty, name, expr)]
        count = "%s(b & %s(lane))" % (pc, name)
    k.idiom("mask " + rel, "%s, %s %s" % (form, ty, rel_expr.replace("{l}", "lane")))
    # The count's width at 64 lanes, as written (the module's docstring).
    # A loop of one-bit shifts of a 32-bit value to a lane id of 32-63
    # wraps around and sets every bit: it does not name the half's lanes.
    if semantics == "loop" and bits == 32 and k.lane_eff == 64:
        k.fact("32-bit lane mask %s built bit by bit up to a 64-wide lane id" % rel, "wrong")
    elif info["bits"] == 32:
        k.fact("lane mask %s against a 32-bit ballot" % rel,
               32 if bits == 32 or k.lane_eff == 32 else "wrong")
    elif bits == 32:
        k.fact("32-bit lane mask %s against a 64-lane ballot" % rel, "wrong")
    else:
        k.fact("64-bit lane mask %s" % rel, 64 if k.lane_eff == 64 else "wrong")
    return count


REL_TEXT = {"lt": "below", "le": "up to", "gt": "above", "ge": "from"}


def ballot_32(k, body, pred, exact=False):
    """A ballot under a 32-bit mask, kept as the benchmark keeps it."""
    if exact:
        body.append("unsigned b = __ballot_sync(0xffffffff, %s);" % pred)
        k.idiom("ballot", "__ballot_sync(0xffffffff), stored in unsigned")
        k.fact("ballot", 32)
        return "0xffffffff", {"bits": 32}
    mask = k.pick("0xffffffff", "0xffffffffu", "0xFFFFFFFF", "__activemask()", "FULL")
    if mask == "FULL":
        k.pre.append("#define FULL_MASK_%d 0xffffffffu" % k.kid)
        k.post.append("#undef FULL_MASK_%d" % k.kid)
        mask = "FULL_MASK_%d" % k.kid
    store = k.pick("unsigned", "unsigned", "unsigned int", "uint32_t", "auto")
    if k.chance(0.2):
        fn = "ballot%d" % k.kid
        k.pre += ["", "/// The warp's ballot of `p`.",
                  "__device(hpp) inline %s %s(bool p) { return __ballot_sync(%s, p); }" % (
                      k.pick("unsigned", "unsigned int", "uint32_t"), fn, mask)]
        body.append("%s b = %s(%s);" % (store, fn, pred))
        k.idiom("ballot", "helper returning 32 bits, stored in %s" % store)
    else:
        body.append("%s b = __ballot_sync(%s, %s);" % (store, mask, pred))
        k.idiom("ballot", "__ballot_sync(%s), stored in %s" % (mask, store))
    k.fact("ballot", 32)
    return mask, {"bits": 32}


def fam_lanemask(k):
    """A binary scan, suffix count, compaction or count per work-group from
    a ballot and lane masks built by shifts (issue 27's held-out case:
    `(1 << lane) - 1` returned as `unsigned int` by a helper, lane and warp
    ids from warpSize, per-warp totals in work-group memory)."""
    L, G, n = group_shape(k)
    result = k.pick("scan", "scan", "scan", "suffix", "compact", "count")
    bench = k.style != "generic" and k.chance(0.5)
    # A share of the benchmark's kernels are its block scan exactly: the
    # ballot under 0xffffffff in an unsigned, `(1 << lane) - 1` returned as
    # `unsigned int`, ids from `% warpSize` and `/ warpSize`, the last
    # lane's `rank + p` as the warp's total.
    exact = bench and k.chance(0.3)
    if exact:
        result = "scan"
    body = []
    if result in ("scan", "suffix"):
        body.append("Segment<int> slots = a(warpSlots);")
    body.append(k.pick("const int %s = int(i.getLocalX());", "int %s = i.getLocalX();") % k.tid)
    # The width each piece assumes at 64 lanes.
    if bench:
        k.lane_eff = 64
    elif k.style == "generic":
        k.lane_eff = 64
    else:
        k.lane_eff = k.want()
    need_warp = result in ("scan", "suffix")
    wspell = lane_ids(k, body, k.lane_eff, need_warp, exact)
    body.append("const int g = int(i.getX());")
    pred = pred_expr(k, "in[g]")
    body.append("const bool p = g < n && (%s);" % pred)
    if bench or k.style == "cuda32" or (k.style == "mixed" and k.chance(0.5)):
        mask, info = ballot_32(k, body, "p", exact)
        meff = 32
        mbits = 64 if (k.style == "mixed" and not bench and k.chance(0.25)) else 32
    else:
        mask, meff = k.choose_mask(body, need64=k.style == "generic")
        info = k.ballot(body, mask, meff, "p")
        mbits = 64 if info["bits"] == 64 else k.pick(32, 32, 64)
        if k.idioms[-1] == "ballot=stored in int":
            # A signed ballot sign-extends into a 64-bit mask (bit 31 set:
            # every upper bit too), wrong at any width: 32-bit masks only.
            mbits = 32
    k.idiom("style", "the benchmark's block scan exactly" if exact else
            "benchmark (warpSize ids, 32-bit masks)" if bench else k.style)
    wide = info["bits"] == 64
    popc = "__popcll" if wide else "__popc"
    ffs = "__ffsll" if wide else "__ffs"
    outs = []
    if result in ("scan", "suffix"):
        k.fact("lane id", k.lane_eff)
        k.fact("warp id", k.lane_eff)
        if result == "scan":
            inclusive = k.chance(0.4) and not exact
            rel = ("le" if k.chance(0.5) else "lt") if inclusive else "lt"
            count = masked_count(k, rel, mbits, info, body, exact)
            body.append("const int rank = %s;" % count)
            if inclusive and rel == "lt":
                body[-1] = "const int rank = %s + (p ? 1 : 0);" % count
        else:
            inclusive = False
            rel = k.pick("gt", "ge")
            count = masked_count(k, rel, mbits, info, body)
            body.append("const int rank = %s;" % count)
            if rel == "ge":
                body[-1] = "const int rank = %s - (p ? 1 : 0);" % count
        k.idiom("result", {"scan": "%s rank in the group" % ("inclusive" if inclusive else
                                                             "exclusive"),
                           "suffix": "count above in the group"}[result])
        # The warp's total into its slot: lane 0, the last lane (the
        # benchmark's `rank + p` there) or the elected lane.
        store = "last" if exact else k.pick("lane0", "last", "last", "ffs")
        last = ("%s - 1" % wspell) if k.lane_eff == 64 else ("31" if wspell == "32" else
                                                              "%s - 1" % wspell)
        if store == "lane0":
            body += ["if (lane == 0)", "  slots[warp] = %s(b);" % popc]
        elif store == "last":
            if result == "scan" and rel == "lt" and not inclusive:
                body += ["if (lane == %s)" % last, "  slots[warp] = rank + (p ? 1 : 0);"]
            elif result == "scan":
                body += ["if (lane == %s)" % last, "  slots[warp] = rank;"]
            else:
                body += ["if (lane == %s)" % last, "  slots[warp] = %s(b);" % popc]
        else:
            body += ["if (lane == (b ? %s(b) - 1 : 0))" % ffs, "  slots[warp] = %s(b);" % popc]
        k.idiom("warp total", store)
        body.append("slots.barrier();")
        # Warps per group, and the offset of this warp's elements.
        nweff = k.lane_eff
        lsz = k.pick("L", "int(i.getLocalSizeX())")
        if nweff == 64:
            nw = k.pick("%s / %s" % (lsz, wspell), "(%s + %s - 1) / %s" % (lsz, wspell, wspell))
        else:
            nw = k.pick("%s / 32" % lsz, "%s >> 5" % lsz) if wspell == "32" else "%s / %s" % (
                lsz, wspell)
        k.fact("warps per group", nweff)
        if result == "scan":
            body += ["int offset = 0;", "for (int w = 0; w < warp; ++w)", "  offset += slots[w];"]
        else:
            body += ["int offset = 0;", "for (int w = warp + 1; w < %s; ++w)" % nw,
                     "  offset += slots[w];"]
        body += ["if (g < n)", "  out[g] = offset + rank;"]
        if k.chance(0.5):
            body += ["if (%s == 0) {" % k.tid, "  int t = 0;",
                     "  for (int w = 0; w < %s; ++w)" % nw, "    t += slots[w];",
                     "  totals[i.getGroupX()] = t;", "}"]
            outs.append(("totals", "G"))
        outs.insert(0, ("out", "n"))
        region = k.pick("32", "L / 32", "L / MVECTOR_MIN")
        launch = ["DistArray<int> shared;",
                  "Region<int> warpSlots = shared.allocRegion(%s);" % region]
        launch += lambda_block(launch_line(k, L, True), body)
        check = ["std::vector<long long> got, want;",
                 "for (int r = 0; r < G; ++r) {",
                 "  long long t = 0;",
                 "  for (int e = r * L; e < (r + 1) * L && e < n; ++e) {",
                 "    const int g = e;",
                 "    const bool p = %s;" % pred.replace("in[g]", "in[e]")]
        if result == "scan":
            check += ["    want.push_back(t + (%s ? 1 : 0));" % ("p && true" if inclusive else "false"),
                      "    t += p;", "  }"]
        else:
            check += ["    (void)g;", "    t += p;", "  }",
                      "  long long above = t;",
                      "  for (int e = r * L; e < (r + 1) * L && e < n; ++e) {",
                      "    const bool p = %s;" % pred.replace("in[g]", "in[e]"),
                      "    above -= p;", "    want.push_back(above);", "  }"]
        check += ["}", "for (int e = 0; e < n; ++e)", "  got.push_back(out[e]);"]
        if outs[-1][0] == "totals":
            check += ["for (int r = 0; r < G; ++r) {", "  long long t = 0;",
                      "  for (int e = r * L; e < (r + 1) * L && e < n; ++e) {",
                      "    const int g = e;", "    (void)g;",
                      "    t += (%s);" % pred.replace("in[g]", "in[e]"), "  }",
                      "  want.push_back(t);", "  got.push_back(totals[r]);", "}"]
        check.append("wgCheck(%d, got, want);" % k.kid)
        return host_prologue(k, L, G, n, outs, 30) + wrap_try(k, launch, check) + host_epilogue(outs)
    if result == "compact":
        # Ranks by the lanes below, one atomicAdd per warp, the base
        # broadcast: the kept values as a multiset.
        count = masked_count(k, "lt", mbits, info, body)
        body.append("const int rank = %s;" % count)
        body.append("const int kept = %s(b);" % popc)
        lead = k.pick("lane0", "ffs")
        k.fact("lane id", k.lane_eff)
        if lead == "ffs":
            body += ["const int leader = %s(b) - 1;" % ffs, "int base = 0;",
                     "if (lane == leader)", "  base = atomicAdd(counter, kept);",
                     "base = __shfl_sync(%s, base, leader < 0 ? 0 : leader);" % mask]
        else:
            body += ["int base = 0;", "if (lane == 0 && kept > 0)",
                     "  base = atomicAdd(counter, kept);",
                     "base = __shfl_sync(%s, base, 0);" % mask]
        k.fact("broadcast of the base", meff)
        k.idiom("result", "compaction, leader %s" % lead)
        body += ["if (p)", "  out[base + rank] = in[g];"]
        outs = [("out", "n"), ("counter", "1")]
        launch = lambda_block(launch_line(k, L, False), body)
        check = ["std::vector<long long> want;",
                 "for (int e = 0; e < n; ++e) {",
                 "  const int g = e;", "  (void)g;",
                 "  if (%s)" % pred.replace("in[g]", "in[e]"),
                 "    want.push_back(in[e]);",
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
    # A count per work-group: the first voting lane (no vote below it)
    # adds the warp's votes. The lane id is used only in the mask.
    rel = k.pick("lt", "lt", "ge")
    count = masked_count(k, rel, mbits, info, body)
    if rel == "lt":
        cond = "p && %s == 0" % count
    else:
        cond = "p && %s == %s(b)" % (count, popc)
    body += ["if (%s)" % cond, "  atomicAdd(&out[i.getGroupX()], %s(b));" % popc]
    k.idiom("result", "count per group by the first voting lane")
    outs = [("out", "G")]
    launch = lambda_block(launch_line(k, L, False), body)
    check = ["std::vector<long long> got(G), want(G);",
             "for (int e = 0; e < n; ++e) {",
             "  const int g = e;", "  (void)g;",
             "  if (%s)" % pred.replace("in[g]", "in[e]"),
             "    ++want[e / L];",
             "}",
             "for (int r = 0; r < G; ++r)", "  got[r] = out[r];",
             "wgCheck(%d, got, want);" % k.kid]
    return host_prologue(k, L, G, n, outs, 30) + wrap_try(k, launch, check) + host_epilogue(outs)
