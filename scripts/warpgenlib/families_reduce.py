"""Kernel families that reduce: warp sums, block reductions, ballot counts and
stream compaction. Each returns the lines of its host function body (helper
lines are added to k.pre), or (lines, template) for a templated one."""

from .pieces import (group_shape, group_size_expr, host_epilogue, host_prologue,
                     lambda_block, launch_line, pred_expr, tid_line, value_lines,
                     wrap_try)


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
                 "  want[e / L] = %s;" % (
                     k.shared.max_call(k, "want[e / L]", "in[e]", "long long")
                     if k.shared and k.chance(0.5) else
                     "std::max<long long>(want[e / L], in[e])")]
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
        # A test for 64 kept lanes of a 32-lane ballot is never true, and
        # the general path is right: no fact. A test for 32 of a 64-lane
        # ballot is true whenever half the wavefront keeps its value.
        ceff = k.want()
        c = k.width(ceff)
        if ceff == 32 and meff == 64:
            k.fact("a full-warp test of a 64-lane ballot", 32)
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
