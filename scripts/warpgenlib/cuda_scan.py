"""CUDA kernel families that scan and select (warpgen.py --cuda): block
scans (shuffle-up warp scans, warp totals in shared memory, a second scan
by warp 0) and stream compaction (order-preserving by ballots and prefix
masks, or unordered by warp-aggregated atomics under `__activemask()`).
Each takes a CudaKernel, adds its device code to k.pre and returns the
lines of its host function.
"""

from .cuda_reduce import ballot_lines, predicate, shape


def slots_decl(k, body, ty, name):
    """Per-warp slots in shared memory: a static [32] or extern (sized by
    the launch). Returns the launch's shared bytes (None when static),
    written with `threads` and maybe the host's `warp_size`."""
    if k.chance(0.65):
        body.append("%s__shared__ %s %s[%s];" % (k.pick("", "static "), ty, name, k.max_warps()))
        return None
    extern_decl(k, body, ty, name)
    if k.style != "generic":
        return k.pick("(threads / 32) * sizeof(%s)", "32 * sizeof(%s)") % ty
    return "threads * sizeof(%s)" % ty


def extern_decl(k, body, ty, name):
    """`extern __shared__` memory used as `name`: every kernel of a file
    names its own (CUDA refuses one name of two types in a file), read
    through a pointer as cuda-samples' SharedMemory does."""
    raw = "%s%d" % (name, k.kid)
    body += ["extern __shared__ %s %s[];" % (ty, raw), "%s *%s = %s;" % (ty, name, raw)]


def last_lane(k, tile=None):
    if tile:
        return k.pick("%s.size() - 1" % tile, "31")
    w = k.ws()
    return "31" if w == "32" else "%s - 1" % w


def fam_block_scan(k):
    """Inclusive or exclusive prefix sums within each block: warp scans,
    the warp totals (the last lane's, or broadcast by __shfl_sync) in
    shared memory, offsets by a loop or by warp 0's scan of the totals."""
    ty = k.elem_type()
    B, G, n = shape(k)
    exclusive = k.chance(0.3)
    use_cg = k.uses_cg(0.2)
    body, tile, mask = [], None, None
    shmem = slots_decl(k, body, ty, "totals")
    if use_cg:
        tile = k.tile_decl(body)
        body += ["const int lane = %s.thread_rank();" % tile,
                 "const int warp = %s.meta_group_rank();" % tile]
        nw = "%s.meta_group_size()" % tile
    else:
        mask = k.mask(body)
        k.declare_lane_warp(body)
        nw = k.warps_in_block()
    body += ["const int i = blockIdx.x * blockDim.x + threadIdx.x;",
             "const %s x = i < n ? in[i] : %s;" % (ty, k.zero(ty)), "%s v = x;" % ty]
    body += k.scan("v", mask, "lane", tile=tile)
    last = last_lane(k, tile)
    if k.chance(0.5):
        body += ["if (lane == %s)" % last, "  totals[warp] = v;"]
    else:
        bcast = "%s.shfl(v, %s)" % (tile, last) if tile else "__shfl_sync(%s, v, %s)" % (mask, last)
        body += ["const %s total = %s;" % (ty, bcast), "if (lane == 0)", "  totals[warp] = total;"]
    k.idiom("warp total", "lane %s" % last)
    body.append("__syncthreads();")
    if k.chance(0.5):
        body += ["%s offset = %s;" % (ty, k.zero(ty)), "for (int w = 0; w < warp; ++w)",
                 "  offset += totals[w];"]
        k.idiom("offsets", "loop over the lower warps")
    else:
        body += ["if (warp == 0) {",
                 "  %s t = lane < %s ? totals[lane] : %s;" % (ty, nw, k.zero(ty))]
        body += ["  " + s for s in k.scan("t", mask, "lane", tile=tile)]
        body += ["  if (lane < %s)" % nw, "    totals[lane] = t;", "}", "__syncthreads();",
                 "const %s offset = warp > 0 ? totals[warp - 1] : %s;" % (ty, k.zero(ty))]
        k.idiom("offsets", "warp 0 scans the totals")
    body += ["if (i < n)", "  out[i] = offset + v%s;" % (" - x" if exclusive else "")]
    kname = k.name("blockScan")
    k.pre += ["", "__global__ void %s(const %s *in, %s *out, int n) {" % (kname, ty, ty)]
    k.pre += ["  " + s for s in body] + ["}"]
    host = ["const int n = %d, threads = %d;" % (n, B),
            "const int blocks = (n + threads - 1) / threads;"]
    host += k.input_lines("h_in", ty, "n")
    host += k.alloc("d_in", ty, "n") + k.alloc("d_out", ty, "n")
    host += k.upload("d_in", "h_in", ty, "n")
    host += k.launch(kname, "blocks", "threads", ["d_in", "d_out", "n"], shmem)
    host += k.download("h_out", "d_out", ty, "n")
    acc = k.acc_type(ty)
    step = ["  want[e] = run;", "  run += h_in[e];"] if exclusive else \
        ["  run += h_in[e];", "  want[e] = run;"]
    host += ["std::vector<%s> got(n), want(n);" % acc, "%s run = 0;" % acc,
             "for (int e = 0; e < n; ++e) {", "  if (e % threads == 0)", "    run = 0;"]
    host += step + ["  got[e] = h_out[e];", "}", k.check_call(ty)]
    k.idiom("result", "%s scan per block" % ("exclusive" if exclusive else "inclusive"))
    return host + k.free("d_in", "d_out")


def lanes_below(k, wide):
    """The lanes below `lane`, as CUDA code spells it: a shift, a helper,
    or (rarely) PTX's %lanemask_lt, which the port refuses."""
    if wide:
        return "((1ull << lane) - 1)"
    if k.chance(0.06):
        name = k.name("lanemaskLt")
        k.pre += ["", "__device__ __forceinline__ unsigned %s() {" % name, "  unsigned m;",
                  '  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));', "  return m;", "}"]
        k.refusal = "inline PTX"
        k.idiom("prefix", "PTX %lanemask_lt")
        return "%s()" % name
    if k.chance(0.3):
        name = k.name("lanesBelow")
        k.pre += ["", "__device__ __forceinline__ unsigned %s(int lane) {" % name,
                  "  return (1u << lane) - 1;", "}"]
        k.idiom("prefix", "helper (1u << lane) - 1")
        return "%s(lane)" % name
    return "((1u << lane) - 1)"


def fam_compaction(k):
    """Stream compaction of the elements that pass a predicate: per block
    and order-preserving (a ballot, the popcount of the lanes below, warp
    counts in shared memory), or over the grid and unordered by
    warp-aggregated atomics (`__activemask()` in the branch, the leader
    `__ffs(active) - 1` adds, `__shfl_sync` broadcasts its base)."""
    ty = k.elem_type()
    B, G, n = shape(k)
    pred = predicate(k, ty, "v")
    ordered = k.chance(0.55)
    wide = k.style == "generic"
    body = []
    if ordered:
        shmem = slots_decl(k, body, "int", "warpCounts")
        mask = k.mask(body)
        k.declare_lane_warp(body)
        lines, popc = ballot_lines(k, mask, "keep")
        if wide and popc == "__popc(b)":
            lines, popc = ["const unsigned long long b = __ballot_sync(%s, keep);" % mask], \
                "__popcll(b)"
        pc = "__popcll" if popc == "__popcll(b)" else "__popc"
        body += ["const int i = blockIdx.x * blockDim.x + threadIdx.x;",
                 "const %s v = i < n ? in[i] : %s;" % (ty, k.zero(ty)),
                 "const bool keep = i < n && (%s);" % pred] + lines
        body += ["const int rank = %s(b & %s);" % (pc, lanes_below(k, pc == "__popcll")),
                 "if (lane == 0)", "  warpCounts[warp] = %s;" % popc, "__syncthreads();",
                 "int offset = 0;", "for (int w = 0; w < warp; ++w)", "  offset += warpCounts[w];",
                 "if (keep)", "  out[blockIdx.x * blockDim.x + offset + rank] = v;",
                 "if (threadIdx.x == 0) {", "  int total = 0;",
                 "  for (int w = 0; w < %s; ++w)" % k.warps_in_block(),
                 "    total += warpCounts[w];", "  counts[blockIdx.x] = total;", "}"]
        k.idiom("compaction", "ordered per block")
        sig = "const %s *in, %s *out, int *counts, int n" % (ty, ty)
    else:
        shmem = None
        lane = k.lane_expr()
        if wide:
            active = ["const unsigned long long active = __activemask();"]
            pc, ffs = "__popcll", "__ffsll"
        else:
            active = ["const unsigned active = __activemask();"]
            pc, ffs = "__popc", "__ffs"
        body += ["const int i = blockIdx.x * blockDim.x + threadIdx.x;", "if (i < n) {",
                 "  const %s v = in[i];" % ty, "  if (%s) {" % pred]
        inner = active + ["const int lane = %s;" % lane,
                          "const int leader = %s(active) - 1;" % ffs, "int base = 0;",
                          "if (lane == leader)",
                          "  base = atomicAdd(counter, %s(active));" % pc,
                          "base = __shfl_sync(active, base, leader);",
                          "out[base + %s(active & %s)] = v;" % (pc, lanes_below(k, wide))]
        body += ["    " + s for s in inner] + ["  }", "}"]
        k.idiom("compaction", "warp-aggregated atomics, %s" % lane)
        sig = "const %s *in, %s *out, int *counter, int n" % (ty, ty)
    kname = k.name("compact")
    k.pre += ["", "__global__ void %s(%s) {" % (kname, sig)]
    k.pre += ["  " + s for s in body] + ["}"]
    host = ["const int n = %d, threads = %d;" % (n, B),
            "const int blocks = (n + threads - 1) / threads;"]
    host += k.input_lines("h_in", ty, "n")
    cnt = "blocks" if ordered else "1"
    host += k.alloc("d_in", ty, "n") + k.alloc("d_out", ty, "blocks * threads")
    host += k.alloc("d_count", "int", cnt)
    host += k.upload("d_in", "h_in", ty, "n") + k.zero_fill("d_out", ty, "blocks * threads")
    host += k.zero_fill("d_count", "int", cnt)
    host += k.launch(kname, "blocks", "threads", ["d_in", "d_out", "d_count", "n"], shmem)
    host += k.download("h_out", "d_out", ty, "blocks * threads")
    host += k.download("h_count", "d_count", "int", cnt)
    acc = k.acc_type(ty)
    host += ["std::vector<%s> got, want;" % acc]
    if ordered:
        host += ["for (int b = 0; b < blocks; ++b) {", "  got.push_back(h_count[b]);",
                 "  int c = 0;",
                 "  for (int e = b * threads; e < n && e < (b + 1) * threads; ++e) {",
                 "    const %s v = h_in[e];" % ty, "    c += (%s) ? 1 : 0;" % pred, "  }",
                 "  want.push_back(c);", "}",
                 "for (int b = 0; b < blocks; ++b) {",
                 "  for (int j = 0; j < h_count[b] && j < threads; ++j)",
                 "    got.push_back(h_out[b * threads + j]);",
                 "  for (int e = b * threads; e < n && e < (b + 1) * threads; ++e) {",
                 "    const %s v = h_in[e];" % ty, "    if (%s)" % pred, "      want.push_back(v);",
                 "  }", "}"]
    else:
        host += ["std::vector<%s> kept;" % acc, "for (int e = 0; e < n; ++e) {",
                 "  const %s v = h_in[e];" % ty, "  if (%s)" % pred, "    kept.push_back(v);", "}",
                 "got.push_back(h_count[0]);",
                 "want.push_back(static_cast<%s>(kept.size()));" % acc,
                 "std::vector<%s> out;" % acc,
                 "for (int j = 0; j < h_count[0] && j < blocks * threads; ++j)",
                 "  out.push_back(h_out[j]);",
                 "// The order depends on the timing of the atomics: compare sorted.",
                 "std::sort(out.begin(), out.end());", "std::sort(kept.begin(), kept.end());",
                 "got.insert(got.end(), out.begin(), out.end());",
                 "want.insert(want.end(), kept.begin(), kept.end());"]
    host.append(k.check_call(ty))
    return host + k.free("d_in", "d_out", "d_count")
