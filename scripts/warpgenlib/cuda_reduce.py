"""CUDA kernel families that reduce (warpgen.py --cuda): a grid's sum by
warp reductions and atomics, per-block sums and maxima through per-warp
slots in shared memory, one warp per matrix row (the host sizes the grid
from `threads / 32`, or from the device's warp size), and votes (ballot
counts, any/all fast paths, leaders by __ffs). Each takes a CudaKernel,
adds its device code to k.pre and returns the lines of its host function.
"""


def shape(k, low=32, high=1024, max_total=6144):
    """(threads, blocks, n): n elements, the last block partial or not."""
    B = k.block_size(low, high)
    G = k.rng.randint(1, max(1, min(5, max_total // B)))
    pad = k.pick(0, 0, k.rng.randrange(1, B))
    return B, G, G * B - pad


def value_of(ty):
    return "T(0)" if ty == "T" else ("0.0f" if ty == "float" else "0")


def warp_reduce(k, body, var, ty, op, mask, template=None):
    """A warp reduction of `var` in place, written in the kernel or in a
    `__device__` helper (a function or a template over the type, taking
    the mask or not). Returns the kind of tree ("down": lane 0 holds it)."""
    if not k.chance(0.35):
        lines, kind = k.tree(var, ty, op, mask, template)
        body += lines
        return kind
    name = k.name("warpReduce" + ("Sum" if op == "sum" else "Max"))
    takes_mask = mask in ("mask", "full") or k.chance(0.4)
    inner = "mask" if takes_mask else mask
    generic = ty == "T" or k.chance(0.4)
    t = "T" if generic else ty
    # A template over the width too (llama.cpp's warp_reduce_sum<width>),
    # called with a 32: warpSize is no constant in CUDA.
    width = k.pick("WIDTH", "W", "kWidth") if k.style != "generic" and k.chance(0.3) else None
    lines, kind = k.tree("v", t, op, inner, template=width)
    params = (["int %s" % width] if width else []) + (["typename T"] if generic else [])
    head = ["template <%s>" % ", ".join(params)] if params else []
    inline = k.pick("__device__ __forceinline__", "__device__", "static __device__ inline")
    head.append("%s %s %s(%s%s v) {" % (inline, t, name,
                                        "unsigned mask, " if takes_mask else "", t))
    k.pre += [""] + head + ["  " + s for s in lines] + ["  return v;", "}"]
    targ = "<%s>" % k.width32() if width else ""
    body.append("%s = %s%s(%s%s);" % (var, name, targ, mask + ", " if takes_mask else "", var))
    k.idiom("helper", "%s%s%s" % ("template " if generic else "", name, targ))
    return kind


def fam_warp_sum(k):
    """The sum of the input over the grid: a warp reduction (shuffles, a
    helper, a cooperative groups tile, cg::reduce) and one atomicAdd per
    warp; sometimes a grid-stride loop first, a kernel template over the
    type, a launch through a host template."""
    ty = k.elem_type()
    B, G, n = shape(k)
    stride = k.chance(0.3)
    templated = k.chance(0.3)
    T = "T" if templated else ty
    kname = k.name("warpSum")
    how = k.pick("tree", "tree", "helper", "tile", "cg-reduce", "tree") if not k.chance(0.03) \
        else "macro"
    if how in ("tile", "cg-reduce") and k.style == "generic":
        how = "helper"
    body, tile = [], None
    if how in ("tile", "cg-reduce"):
        tile = k.tile_decl(body)
        body.append("const int lane = %s.thread_rank();" % tile)
        mask = None
    else:
        mask = k.mask(body)
        k.declare_lane_warp(body, warp=False)
    if stride:
        body += ["%s v = %s;" % (T, value_of(T)),
                 "for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;",
                 "     i += blockDim.x * gridDim.x)", "  v += in[i];"]
        k.idiom("load", "grid-stride loop")
    else:
        body += ["const int i = blockIdx.x * blockDim.x + threadIdx.x;",
                 "%s v = i < n ? in[i] : %s;" % (T, value_of(T))]
    if how == "cg-reduce":
        body.append("v = cg::reduce(%s, v, cg::plus<%s>());" % (tile, T))
        k.idiom("reduce", "cg::reduce plus")
    elif how == "tile":
        body += k.tree("v", T, "sum", None, tile=tile)[0]
    elif how == "macro":
        macro = k.name("SHFL_DOWN")
        k.pre.append("#define %s(v, o) __shfl_down_sync(0xffffffff, v, o)" % macro)
        k.post.append("#undef %s" % macro)
        start = "warpSize / 2" if k.style == "generic" else "16"
        body += ["for (int o = %s; o > 0; o /= 2)" % start, "  v += %s(v, o);" % macro]
        k.refusal = "a warp intrinsic written inside a macro"
        k.idiom("tree", "shfl_down inside a macro")
    elif how == "helper":
        warp_reduce(k, body, "v", T, "sum", mask)
    else:
        body += k.tree("v", T, "sum", mask)[0]
    body += [k.pick("if (lane == 0)", "if (!lane)"),
             "  atomicAdd(%s, v);" % k.pick("out", "&out[0]")]
    k.pre += ["", "template <typename T>"] if templated else [""]
    k.pre += ["__global__ void %s(const %s *in, %s *out, int n) {" % (kname, T, T)]
    k.pre += ["  " + s for s in body] + ["}"]
    host = ["const int n = %d, threads = %d;" % (n, B)]
    if stride:
        host.append("const int blocks = %d;" % max(1, G - 1))
    elif k.style == "cuda32" and k.chance(0.4):
        host += ["const int warps = (n + 31) / 32;",
                 "const int blocks = (warps * 32 + threads - 1) / threads;"]
        k.idiom("grid", "from warps of 32")
    else:
        host.append("const int blocks = (n + threads - 1) / threads;")
    host += k.input_lines("h_in", ty, "n")
    host += k.alloc("d_in", ty, "n") + k.alloc("d_out", ty, "1")
    host += k.upload("d_in", "h_in", ty, "n") + k.zero_fill("d_out", ty, "1")
    args = ["d_in", "d_out", "n"]
    if templated and k.chance(0.25):
        # A host template that launches: the kernel's template arguments
        # written, or deduced from its dependent arguments (refused).
        launcher = k.name("launchWarpSum")
        deduced = k.chance(0.5)
        k.pre += ["", "template <typename T>",
                  "static void %s(const T *in, T *out, int n, int blocks, int threads) {"
                  % launcher,
                  "  %s%s<<<blocks, threads>>>(in, out, n);" % (kname, "" if deduced else "<T>"),
                  "}"]
        if deduced:
            k.refusal = "a launch that deduces the kernel's template arguments from dependent ones"
        host.append("%s(d_in, d_out, n, blocks, threads);" % launcher)
        host += [k.check("cudaGetLastError()"), k.check("cudaDeviceSynchronize()")]
        k.idiom("launch", "in a host template, %s" % ("deduced" if deduced else "explicit"))
    else:
        kexpr = kname + ("<%s>" % ty if templated and k.chance(0.6) else "")
        host += k.launch(kexpr, "blocks", "threads", args)
    acc = k.acc_type(ty)
    host += k.download("h_out", "d_out", ty, "1")
    host += ["std::vector<%s> got(1, static_cast<%s>(h_out[0])), want(1, 0);" % (acc, acc),
             "for (int e = 0; e < n; ++e)", "  want[0] += h_in[e];", k.check_call(ty)]
    return host + k.free("d_in", "d_out")


def fam_block_reduce(k):
    """Per-block sums or maxima: warp reductions, per-warp slots in shared
    memory (a static `[32]`, `[BLOCK / 32]` of a template over the block
    size, or `extern __shared__` sized at the launch), a barrier and a
    second pass (warp 0, thread 0's loop, or FasterTransformer's
    `threadIdx.x < blockDim.x / 32.f`); sometimes an atomic total too."""
    ty = k.elem_type()
    op = "max" if k.chance(0.2) else "sum"
    B, G, n = shape(k)
    tblock = k.pick("BLOCK", "BLOCK_SIZE", "kBlockSize", "THREADS") if k.chance(0.3) else None
    ttype = k.chance(0.2)
    T = "T" if ttype else ty
    neutral = "0" if op == "sum" else k.lowest(ty)
    if ttype:
        neutral = "T(%s)" % neutral
    slots_kind = k.pick("static", "static", "extern") if not tblock or k.style == "generic" else \
        k.pick("static", "template", "template", "extern")
    total = k.chance(0.3) and (op == "sum" or ty != "float")
    kname = k.name("blockReduce")
    body = []
    if slots_kind == "static":
        body.append("%s__shared__ %s slots[%s];" % (k.pick("", "static "), T, k.max_warps()))
    elif slots_kind == "template":
        body.append("__shared__ %s slots[%s / 32];" % (T, tblock))
    elif ttype:
        body += ["extern __shared__ unsigned char smem%d[];" % k.kid,
                 "T *slots = reinterpret_cast<T *>(smem%d);" % k.kid]
    else:
        body += ["extern __shared__ %s slots%d[];" % (T, k.kid),
                 "%s *slots = slots%d;" % (T, k.kid)]
    k.idiom("slots", slots_kind)
    mask = k.mask(body)
    k.declare_lane_warp(body)
    body += ["const int i = blockIdx.x * blockDim.x + threadIdx.x;",
             "%s v = i < n ? in[i] : %s;" % (T, neutral)]
    warp_reduce(k, body, "v", T, op, mask)
    body += ["if (lane == 0)", "  slots[warp] = v;", "__syncthreads();"]
    nw = k.warps_in_block(block=tblock)
    combine = (lambda a, b: "%s + %s" % (a, b)) if op == "sum" else \
        (lambda a, b: k.max_call(T, a, b))
    done = ["out[blockIdx.x] = %s;" % "v"]
    if total:
        done.append("atomic%s(total, v);" % ("Add" if op == "sum" else "Max"))
    second = k.pick("warp0", "warp0", "loop", "float") if op == "sum" else k.pick("warp0", "loop")
    if second == "warp0":
        lines, kind = k.tree("v", T, op, mask)
        body += ["if (warp == 0) {", "  v = threadIdx.x < %s ? slots[lane] : %s;" % (nw, neutral)]
        body += ["  " + s for s in lines] + ["  if (lane == 0) {"] + ["    " + s for s in done]
        body += ["  }", "}"]
    elif second == "loop":
        body += ["if (threadIdx.x == 0) {", "  v = %s;" % neutral,
                 "  for (int w = 0; w < %s; ++w)" % nw, "    v = %s;" % combine("v", "slots[w]")]
        body += ["  " + s for s in done] + ["}"]
    else:
        w = k.ws()
        cond = "blockDim.x / 32.f" if w == "32" else "blockDim.x / (float)%s" % w
        lines, kind = k.tree("v", T, op, mask)
        body += ["v = (threadIdx.x < %s) ? slots[lane] : %s;" % (cond, neutral)] + lines
        body += ["if (threadIdx.x == 0) {"] + ["  " + s for s in done] + ["}"]
    k.idiom("second pass", second)
    tparams = (["typename T"] if ttype else []) + (["int %s" % tblock] if tblock else [])
    k.pre += [""] + (["template <%s>" % ", ".join(tparams)] if tparams else [])
    k.pre += ["__global__ void %s(const %s *__restrict__ in, %s *__restrict__ out,%s int n) {"
              % (kname, T, T, " %s *total," % T if total else "")]
    k.pre += ["  " + s for s in body] + ["}"]
    host = ["%s int n = %d, threads = %d, blocks = %d;" % (
        k.pick("const", "constexpr"), n, B, G)]
    host += k.input_lines("h_in", ty, "n")
    host += k.alloc("d_in", ty, "n") + k.alloc("d_out", ty, "blocks")
    host += k.upload("d_in", "h_in", ty, "n")
    if total:
        host += k.alloc("d_total", ty, "1")
        if op == "sum":
            host += k.zero_fill("d_total", ty, "1")
        else:
            host += ["std::vector<%s> h_init(1, %s);" % (ty, k.lowest(ty))]
            host += k.upload("d_total", "h_init", ty, "1")
    targs = ([ty] if ttype else []) + (["threads"] if tblock else [])
    kexpr = kname + ("<%s>" % ", ".join(targs) if targs else "")
    shmem = None
    if slots_kind == "extern":
        if k.style == "generic" and k.chance(0.3):
            device_warp_size(k, host)
            shmem = "((threads + warp_size - 1) / warp_size) * sizeof(%s)" % ty
        elif k.style == "generic":
            shmem = "threads * sizeof(%s)" % ty
        else:
            shmem = k.pick("(threads / 32) * sizeof(%s)", "((threads + 31) / 32) * sizeof(%s)",
                           "32 * sizeof(%s)") % ty
    host += k.launch(kexpr, "blocks", "threads", ["d_in", "d_out"] +
                     (["d_total"] if total else []) + ["n"], shmem)
    acc = k.acc_type(ty)
    host += k.download("h_out", "d_out", ty, "blocks")
    if total:
        host += k.download("h_total", "d_total", ty, "1")
    init = "0" if op == "sum" else k.lowest(ty)
    fold = "want[b] += h_in[e];" if op == "sum" else \
        "want[b] = std::max(want[b], static_cast<%s>(h_in[e]));" % acc
    host += ["std::vector<%s> got(blocks + %d), want(blocks + %d, %s);" % (
                 acc, int(total), int(total), init),
             "for (int e = 0; e < n; ++e) {", "  const int b = e / threads;", "  " + fold, "}",
             "for (int b = 0; b < blocks; ++b)", "  got[b] = h_out[b];"]
    if total:
        host += ["got[blocks] = h_total[0];", "want[blocks] = %s;" % (
            "0" if op == "sum" else init), "for (int b = 0; b < blocks; ++b)",
            "  want[blocks] = %s;" % ("want[blocks] + want[b]" if op == "sum" else
                                      "std::max(want[blocks], want[b])")]
    host.append(k.check_call(ty))
    return host + k.free("d_in", "d_out", *(["d_total"] if total else []))


def device_warp_size(k, host, var="warp_size"):
    """Host lines that ask the device for its warp size into `var`."""
    if k.chance(0.5):
        host += ["int %s = 0;" % var,
                 k.check("cudaDeviceGetAttribute(&%s, cudaDevAttrWarpSize, 0)" % var)]
    else:
        host += ["cudaDeviceProp prop;", k.check("cudaGetDeviceProperties(&prop, 0)"),
                 "const int %s = prop.warpSize;" % var]
    k.idiom("host", "the device's warp size")


def fam_row_per_warp(k):
    """One warp per row of a matrix (HeCBench's gemv, llm.c's kernels): the
    row from the block and the warp, the grid from `threads / 32` on the
    host (`CEIL_DIV(rows * 32, threads)` for a tile of 32, the device's
    warp size for warpSize code), a strided loop over the row, a warp
    reduction, lane 0 writes; a warp past the last row returns early or
    skips the work."""
    ty = k.elem_type()
    op = "max" if k.chance(0.15) else "sum"
    B = k.block_size(64, 512)
    rows, cols = k.rng.randrange(17, 160), k.rng.randrange(20, 400)
    use_cg = k.uses_cg(0.3)
    neutral = "0" if op == "sum" else k.lowest(ty)
    kname = k.name("rowReduce")
    body, param = [], False
    if use_cg:
        tile = k.tile_decl(body)
        body.append("const int row = blockIdx.x * %s.meta_group_size() + %s.meta_group_rank();"
                    % (tile, tile))
        lane, step = "%s.thread_rank()" % tile, k.pick("%s.size()" % tile, "32")
    else:
        mask = k.mask(body)
        k.declare_lane_warp(body)
        param = k.style == "cuda32" and k.chance(0.3)
        rpb = "rowsPerBlock" if param else "(%s)" % k.warps_in_block()
        body.append("const int row = blockIdx.x * %s + warp;" % rpb)
        lane, step = "lane", k.ws()
    inner = ["%s acc = %s;" % (ty, neutral), "for (int c = %s; c < cols; c += %s)" % (lane, step)]
    if op == "sum":
        inner.append("  acc += mat[row * cols + c] * x[c];")
    else:
        inner.append("  acc = %s;" % k.max_call(ty, "acc", "mat[row * cols + c]"))
    if use_cg and k.chance(0.6):
        inner.append("acc = cg::reduce(%s, acc, cg::%s<%s>());" % (
            tile, "plus" if op == "sum" else "greater", ty))
        k.idiom("reduce", "cg::reduce")
    elif use_cg:
        inner += k.tree("acc", ty, op, None, tile=tile)[0]
    else:
        warp_reduce(k, inner, "acc", ty, op, mask)
    inner += ["if (%s == 0)" % lane, "  y[row] = acc;"]
    if k.chance(0.5):
        body += ["if (row >= rows)", "  return;"] + inner
        k.idiom("past the last row", "return")
    else:
        body += ["if (row < rows) {"] + ["  " + s for s in inner] + ["}"]
    k.pre += ["", "__global__ void %s(const %s *mat, const %s *x, %s *y, int rows, int cols%s) {"
              % (kname, ty, ty, ty, ", int rowsPerBlock" if param else "")]
    k.pre += ["  " + s for s in body] + ["}"]
    host = ["const int rows = %d, cols = %d, threads = %d;" % (rows, cols, B)]
    if use_cg:
        host.append("const int blocks = (rows * 32 + threads - 1) / threads;")
        k.idiom("grid", "CEIL_DIV(rows * 32, threads)")
    elif k.style == "generic":
        device_warp_size(k, host)
        host += ["const int rows_per_block = threads / warp_size;",
                 "const int blocks = (rows + rows_per_block - 1) / rows_per_block;"]
    else:
        w = k.pick("32", "32", k.macro if "macro" in k.defined else "32")
        host += ["const int rows_per_block = threads / %s;" % w,
                 "const int blocks = (rows + rows_per_block - 1) / rows_per_block;"]
        k.idiom("grid", "rows_per_block = threads / %s" % w)
    host += k.input_lines("h_mat", ty, "rows * cols", 20)
    host += k.input_lines("h_x", ty, "cols", 3)
    host += k.alloc("d_mat", ty, "rows * cols") + k.alloc("d_x", ty, "cols")
    host += k.alloc("d_y", ty, "rows")
    host += k.upload("d_mat", "h_mat", ty, "rows * cols") + k.upload("d_x", "h_x", ty, "cols")
    args = ["d_mat", "d_x", "d_y", "rows", "cols"] + (["rows_per_block"] if param else [])
    host += k.launch(kname, "blocks", "threads", args)
    acc = k.acc_type(ty)
    host += k.download("h_y", "d_y", ty, "rows")
    fold = "want[r] += static_cast<%s>(h_mat[r * cols + c]) * h_x[c];" % acc if op == "sum" else \
        "want[r] = std::max(want[r], static_cast<%s>(h_mat[r * cols + c]));" % acc
    host += ["std::vector<%s> got(rows), want(rows, %s);" % (acc, neutral),
             "for (int r = 0; r < rows; ++r) {", "  got[r] = h_y[r];",
             "  for (int c = 0; c < cols; ++c)", "    " + fold, "}", k.check_call(ty)]
    return host + k.free("d_mat", "d_x", "d_y")


def predicate(k, ty, v):
    if ty == "float":
        return k.pick("%s > %d.0f" % (v, k.literal(-10, 10)),
                      "%s < -%d.5f" % (v, k.rng.randrange(0, 10)), "%s == 0.0f" % v)
    m = k.pick(3, 5, 7)
    if ty == "unsigned":
        return k.pick("%s %% %du == %du" % (v, m, k.rng.randrange(m)), "%s > %du" % (
            v, k.literal(10, 90)), "(%s & 1u) != 0u" % v)
    return k.pick("%s %% %d == %d" % (v, m, k.rng.randrange(-m + 1, m)),
                  "%s > %d" % (v, k.literal(-40, 40)), "(%s & 1) != 0" % v)


def ballot_lines(k, mask, pred_var, tile=None):
    """(lines that declare `b`, the popcount spelling of b)."""
    if tile:
        return ["const unsigned b = %s.ballot(%s);" % (tile, pred_var)], "__popc(b)"
    if k.style == "generic" and k.chance(0.4):
        return ["const unsigned long long b = __ballot_sync(%s, %s);" % (mask, pred_var)], \
            "__popcll(b)"
    store = k.pick("unsigned", "const unsigned", "auto", "unsigned int")
    return ["%s b = __ballot_sync(%s, %s);" % (store, mask, pred_var)], "__popc(b)"


def fam_vote(k):
    """Counts by votes: `__ballot_sync` and `__popc` (lane 0 adds, or the
    leader `__ffs(b) - 1`), `__any_sync` and `__all_sync` fast paths, a
    tile's ballot and any; the count of elements that pass a predicate,
    and sometimes their sum."""
    ty = k.elem_type()
    B, G, n = shape(k)
    cty = k.pick("int", "unsigned")
    with_sum = k.chance(0.3)
    how = k.pick("popc", "popc", "leader", "any", "all", "tile")
    if how == "tile" and k.style == "generic":
        how = "popc"
    body, tile, mask = [], None, None
    if how == "tile":
        tile = k.tile_decl(body)
        body.append("const int lane = %s.thread_rank();" % tile)
    else:
        mask = k.mask(body)
        k.declare_lane_warp(body, warp=False)
    pred = predicate(k, ty, "v")
    body += ["const int i = blockIdx.x * blockDim.x + threadIdx.x;",
             "const %s v = i < n ? in[i] : %s;" % (ty, k.zero(ty)),
             "const bool p = i < n && (%s);" % pred]
    cast = "(unsigned)" if cty == "unsigned" else ""
    lines, popc = ballot_lines(k, mask, "p", tile)
    add = ["if (lane == 0)", "  atomicAdd(count, %s%s);" % (cast, popc)]
    if how == "leader":
        first = "__ffsll(b)" if popc == "__popcll(b)" else "__ffs(b)"
        add = ["if (b != 0 && lane == %s - 1)" % first,
               "  atomicAdd(count, %s%s);" % (cast, popc)]
    if how == "any":
        body += ["if (!__any_sync(%s, p))" % mask, "  return;"] + lines + add
        k.idiom("vote", "__any_sync fast path")
    elif how == "all":
        w = k.ws()
        body += ["if (__all_sync(%s, p)) {" % mask, "  if (lane == 0)",
                 "    atomicAdd(count, %s%s);" % (cast, w), "} else {"]
        body += ["  " + s for s in lines + add] + ["}"]
        k.idiom("vote", "__all_sync fast path adds %s" % w)
    else:
        body += lines + add
        k.idiom("vote", "%s ballot, %s" % ("tile" if tile else "__ballot_sync", how))
    if with_sum:
        body.append("%s s = p ? v : %s;" % (ty, k.zero(ty)))
        if tile:
            body += k.tree("s", ty, "sum", None, tile=tile)[0]
        else:
            body += k.tree("s", ty, "sum", mask)[0]
        body += ["if (lane == 0)", "  atomicAdd(sum, s);"]
    kname = k.name("countIf")
    k.pre += ["", "__global__ void %s(const %s *in, %s *count,%s int n) {" % (
        kname, ty, cty, " %s *sum," % ty if with_sum else "")]
    k.pre += ["  " + s for s in body] + ["}"]
    host = ["const int n = %d, threads = %d;" % (n, B),
            "const int blocks = (n + threads - 1) / threads;"]
    host += k.input_lines("h_in", ty, "n")
    host += k.alloc("d_in", ty, "n") + k.alloc("d_count", cty, "1")
    host += k.upload("d_in", "h_in", ty, "n") + k.zero_fill("d_count", cty, "1")
    if with_sum:
        host += k.alloc("d_sum", ty, "1") + k.zero_fill("d_sum", ty, "1")
    host += k.launch(kname, "blocks", "threads",
                     ["d_in", "d_count"] + (["d_sum"] if with_sum else []) + ["n"])
    host += k.download("h_count", "d_count", cty, "1")
    acc = k.acc_type(ty)
    host += ["std::vector<%s> got(1, static_cast<%s>(h_count[0])), want(1, 0);" % (acc, acc)]
    if with_sum:
        host += k.download("h_sum", "d_sum", ty, "1")
        host += ["got.push_back(h_sum[0]);", "want.push_back(0);"]
    host += ["for (int e = 0; e < n; ++e) {", "  const %s v = h_in[e];" % ty,
             "  if (%s) {" % pred, "    want[0] += 1;"]
    if with_sum:
        host.append("    want[1] += v;")
    host += ["  }", "}", k.check_call(ty)]
    return host + k.free("d_in", "d_count", *(["d_sum"] if with_sum else []))
