"""Kernel families that scan: block scans, segmented reductions and a scan
over the whole launch. Each returns the lines of its host function body
(helper lines are added to k.pre), or (lines, template) for a templated one."""

from .pieces import (group_shape, host_epilogue, host_prologue, lambda_block,
                     launch_line, tid_line, value_lines, wrap_try)


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
