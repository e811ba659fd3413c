"""CUDA kernel families built on shared memory (warpgen.py --cuda):
histograms (per block, per warp at `threadIdx.x >> 5`, or aggregated by
`__match_any_sync`), warp-synchronous reductions stepped by `__syncwarp()`
or a tile's sync(), cuda-samples' reduce (a shared-memory tree down to
64, then `if (tid < 32)` and shuffles), and two kernels that pass per-warp
partial sums through global memory (the host sizes them from `threads /
32`). Each takes a CudaKernel, adds its device code to k.pre and returns
the lines of its host function.
"""

from .cuda_reduce import device_warp_size, shape, warp_reduce
from .cuda_scan import extern_decl


def fam_histogram(k):
    """A histogram of unsigned values in shared memory: one per block, one
    per warp at `threadIdx.x >> 5` (`extern __shared__`, sized from
    `threads / 32` or the device's warp size), or one per block whose
    increments are aggregated over the warp's peers by __match_any_sync;
    merged into the global bins by atomicAdd."""
    B, G, n = shape(k)
    nb = k.pick(16, 32, 64) if k.style != "generic" else k.pick(8, 24, 64)
    how = k.pick("block", "block", "warp", "match")
    body, shmem, host_ws = [], None, False
    kname = k.name("histogram")
    loop = ["for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;",
            "     i += blockDim.x * gridDim.x)"]
    if how == "warp":
        w = k.warp_expr()
        nw = k.warps_in_block()
        extern_decl(k, body, "unsigned", "hist")
        body += [
                 "const int nwarps = %s;" % nw,
                 "unsigned *mine = hist + (%s) * NB;" % w,
                 "for (int b = threadIdx.x; b < nwarps * NB; b += blockDim.x)",
                 "  hist[b] = 0;", "__syncthreads();"]
        body += loop + ["  atomicAdd(&mine[in[i] % NB], 1u);", "__syncthreads();",
                        "for (int b = threadIdx.x; b < NB; b += blockDim.x) {",
                        "  unsigned s = 0;", "  for (int w = 0; w < nwarps; ++w)",
                        "    s += hist[w * NB + b];", "  atomicAdd(&bins[b], s);", "}"]
        if k.style == "generic":
            host_ws = True
            shmem = "((threads + warp_size - 1) / warp_size) * NB%d * sizeof(unsigned)" % k.kid
        else:
            shmem = "(threads / 32) * NB%d * sizeof(unsigned)" % k.kid
        k.idiom("histogram", "per warp at %s" % w)
    else:
        body += ["__shared__ unsigned local[NB];",
                 "for (int b = threadIdx.x; b < NB; b += blockDim.x)", "  local[b] = 0;",
                 "__syncthreads();"]
        if how == "match":
            body += ["const int i = blockIdx.x * blockDim.x + threadIdx.x;", "if (i < n) {",
                     "  const unsigned bin = in[i] % NB;",
                     "  const unsigned peers = __match_any_sync(__activemask(), bin);",
                     "  if ((%s) == __ffs(peers) - 1)" % k.lane_expr(),
                     "    atomicAdd(&local[bin], (unsigned)__popc(peers));", "}"]
            k.idiom("histogram", "__match_any_sync peers")
        else:
            body += loop + ["  atomicAdd(&local[in[i] % NB], 1u);"]
            k.idiom("histogram", "per block")
        body += ["__syncthreads();", "for (int b = threadIdx.x; b < NB; b += blockDim.x)",
                 "  atomicAdd(&bins[b], local[b]);"]
    k.pre += ["", "#define NB %d" % nb,
              "__global__ void %s(const unsigned *in, unsigned *bins, int n) {" % kname]
    k.pre += ["  " + s for s in body] + ["}", "#undef NB"]
    blocks = "(n + threads - 1) / threads" if how == "match" else str(max(1, G - 1))
    host = ["const int n = %d, threads = %d, blocks = %s;" % (n, B, blocks),
            "const int NB%d = %d;" % (k.kid, nb)]
    if host_ws:
        device_warp_size(k, host)
    host += k.input_lines("h_in", "unsigned", "n", 1000)
    host += k.alloc("d_in", "unsigned", "n") + k.alloc("d_bins", "unsigned", "NB%d" % k.kid)
    host += k.upload("d_in", "h_in", "unsigned", "n")
    host += k.zero_fill("d_bins", "unsigned", "NB%d" % k.kid)
    host += k.launch(kname, "blocks", "threads", ["d_in", "d_bins", "n"], shmem)
    host += k.download("h_bins", "d_bins", "unsigned", "NB%d" % k.kid)
    host += ["std::vector<long long> got(h_bins.begin(), h_bins.end()), want(NB%d, 0);" % k.kid,
             "for (int e = 0; e < n; ++e)", "  want[h_in[e] %% NB%d] += 1;" % k.kid,
             k.check_call("unsigned")]
    return host + k.free("d_in", "d_bins")


def fam_syncwarp(k):
    """A warp-synchronous reduction in shared memory: each thread's value
    in a buffer, halving steps that read a neighbour's slot, each read and
    write separated by `__syncwarp()` (or a tile's sync()); lane 0 adds
    (or takes the maximum into) the grid's result atomically."""
    ty = k.elem_type(allow_float=True)
    op = "max" if ty != "float" and k.chance(0.2) else "sum"
    B, G, n = shape(k)
    body, tile = [], None
    buf = k.pick("static", "extern")
    if buf == "static":
        body.append("__shared__ %s buf[%d];" % (ty, B))
    else:
        extern_decl(k, body, ty, "buf")
    if k.uses_cg(0.25):
        tile = k.tile_decl(body)
        body.append("const int lane = %s.thread_rank();" % tile)
        sync, start = "%s.sync();" % tile, k.pick("%s.size() / 2" % tile, "16")
    else:
        k.declare_lane_warp(body, warp=False)
        sync = k.pick("__syncwarp();", "__syncwarp();", "__syncwarp(0xffffffff);")
        w = k.ws()
        start = "16" if w == "32" and k.chance(0.5) else "%s / 2" % w
    neutral = "0" if op == "sum" else k.lowest(ty)
    body += ["const int tid = threadIdx.x;",
             "const int i = blockIdx.x * blockDim.x + tid;",
             "buf[tid] = i < n ? in[i] : %s;" % neutral, sync,
             "for (int o = %s; o > 0; o >>= 1) {" % start,
             "  const %s t = lane < o ? buf[tid + o] : %s;" % (ty, neutral), "  " + sync,
             "  if (lane < o)",
             "    buf[tid] = %s;" % ("buf[tid] + t" if op == "sum" else
                                     k.max_call(ty, "buf[tid]", "t")),
             "  " + sync, "}", "if (lane == 0)",
             "  atomic%s(out, buf[tid]);" % ("Add" if op == "sum" else "Max")]
    k.idiom("syncwarp", "%s steps from %s" % (sync, start))
    kname = k.name("warpShared")
    k.pre += ["", "__global__ void %s(const %s *in, %s *out, int n) {" % (kname, ty, ty)]
    k.pre += ["  " + s for s in body] + ["}"]
    host = ["const int n = %d, threads = %d;" % (n, B),
            "const int blocks = (n + threads - 1) / threads;"]
    host += k.input_lines("h_in", ty, "n")
    host += k.alloc("d_in", ty, "n") + k.alloc("d_out", ty, "1")
    host += k.upload("d_in", "h_in", ty, "n")
    if op == "sum":
        host += k.zero_fill("d_out", ty, "1")
    else:
        host += ["std::vector<%s> h_init(1, %s);" % (ty, k.lowest(ty))]
        host += k.upload("d_out", "h_init", ty, "1")
    shmem = "threads * sizeof(%s)" % ty if buf == "extern" else None
    host += k.launch(kname, "blocks", "threads", ["d_in", "d_out", "n"], shmem)
    host += k.download("h_out", "d_out", ty, "1")
    acc = k.acc_type(ty)
    fold = "want[0] += h_in[e];" if op == "sum" else \
        "want[0] = std::max(want[0], static_cast<%s>(h_in[e]));" % acc
    host += ["std::vector<%s> got(1, static_cast<%s>(h_out[0])), want(1, %s);" % (
                 acc, acc, neutral),
             "for (int e = 0; e < n; ++e)", "  " + fold, k.check_call(ty)]
    return host + k.free("d_in", "d_out")


def fam_shared_tree(k):
    """cuda-samples' reduce: each thread adds two elements into shared
    memory, a tree of halving steps with __syncthreads() down to 64
    threads, then the first warp alone (`if (tid < 32)`) adds the upper 32
    and shuffles down from 16 or `warpSize / 2`; thread 0 writes the
    block's sum. Sometimes a template over the block size."""
    ty = k.elem_type()
    B = k.pick(64, 128, 128, 256, 256, 512, 1024)
    G = k.rng.randint(1, 3 if B == 1024 else 4)
    n = G * 2 * B - k.pick(0, k.rng.randrange(1, 2 * B))
    templ = k.chance(0.4)
    bs = "blockSize" if templ else "blockDim.x"
    # The last warp's part: 32 as cuda-samples writes it, or warpSize (the
    # tree then stops at two warps, which a block of 64 is on NVIDIA only).
    w = k.ws()
    body = []
    if templ and k.chance(0.5):
        body.append("__shared__ %s sdata[blockSize];" % ty)
        shmem = None
    else:
        extern_decl(k, body, ty, "sdata")
        shmem = "threads * sizeof(%s)" % ty
    mask = k.mask(body)
    body += ["const unsigned int tid = threadIdx.x;",
             "const unsigned int i = blockIdx.x * (%s * 2) + threadIdx.x;" % bs,
             "%s sum = i < n ? in[i] : %s;" % (ty, k.zero(ty)),
             "if (i + %s < n)" % bs, "  sum += in[i + %s];" % bs,
             "sdata[tid] = sum;", "__syncthreads();",
             "for (unsigned int s = %s / 2; s > %s; s >>= 1) {" % (bs, w),
             "  if (tid < s)", "    sdata[tid] = sum = sum + sdata[tid + s];",
             "  __syncthreads();", "}",
             "if (tid < %s) {" % w, "  sum += sdata[tid + %s];" % w]
    body += ["  " + s for s in k.tree("sum", ty, "sum", mask, kind="down")[0]]
    body += ["}", "if (tid == 0)", "  out[blockIdx.x] = sum;"]
    k.idiom("reduce", "shared tree to 2 * %s, then tid < %s" % (w, w))
    kname = k.name("reduceTree")
    k.pre += [""] + (["template <unsigned int blockSize>"] if templ else [])
    k.pre += ["__global__ void %s(const %s *in, %s *out, unsigned int n) {" % (kname, ty, ty)]
    k.pre += ["  " + s for s in body] + ["}"]
    host = ["const int n = %d, threads = %d;" % (n, B),
            "const int blocks = (n + threads * 2 - 1) / (threads * 2);"]
    host += k.input_lines("h_in", ty, "n")
    host += k.alloc("d_in", ty, "n") + k.alloc("d_out", ty, "blocks")
    host += k.upload("d_in", "h_in", ty, "n")
    host += k.launch(kname + ("<threads>" if templ else ""), "blocks", "threads",
                     ["d_in", "d_out", "n"], shmem)
    host += k.download("h_out", "d_out", ty, "blocks")
    acc = k.acc_type(ty)
    host += ["std::vector<%s> got(h_out.begin(), h_out.end()), want(blocks, 0);" % acc,
             "for (int e = 0; e < n; ++e)", "  want[e / (threads * 2)] += h_in[e];",
             k.check_call(ty)]
    return host + k.free("d_in", "d_out")


def fam_two_pass(k):
    """Two kernels that pass per-warp partial sums through global memory:
    the first stores each warp's sum at `blockIdx.x * warps + warp`, the
    second (one block) adds them up. The host sizes the partials from
    `threads / 32` (in the generic style: one slot per thread, zeroed,
    enough at any warp width)."""
    ty = k.elem_type()
    B, G, n = shape(k)
    body = []
    mask = k.mask(body)
    k.declare_lane_warp(body)
    body += ["const int i = blockIdx.x * blockDim.x + threadIdx.x;",
             "%s v = i < n ? in[i] : %s;" % (ty, k.zero(ty))]
    warp_reduce(k, body, "v", ty, "sum", mask)
    body += ["if (lane == 0)", "  partials[blockIdx.x * (%s) + warp] = v;" % k.warps_in_block()]
    first, second = k.name("partialSums"), k.name("finalSum")
    k.pre += ["", "__global__ void %s(const %s *in, %s *partials, int n) {" % (first, ty, ty)]
    k.pre += ["  " + s for s in body] + ["}"]
    body = []
    mask = k.mask(body)
    k.declare_lane_warp(body, warp=False)
    body += ["%s v = %s;" % (ty, k.zero(ty)),
             "for (int j = threadIdx.x; j < count; j += blockDim.x)", "  v += partials[j];"]
    body += k.tree("v", ty, "sum", mask)[0]
    body += ["if (lane == 0)", "  atomicAdd(out, v);"]
    k.pre += ["", "__global__ void %s(const %s *partials, %s *out, int count) {" % (
        second, ty, ty)]
    k.pre += ["  " + s for s in body] + ["}"]
    host = ["const int n = %d, threads = %d;" % (n, B),
            "const int blocks = (n + threads - 1) / threads;"]
    if k.style == "generic":
        host.append("const int count = blocks * threads;")
    else:
        host += ["const int warps_per_block = %s;" % k.pick("threads / 32", "(threads + 31) / 32"),
                 "const int count = blocks * warps_per_block;"]
        k.idiom("host", "partials from threads / 32")
    host += k.input_lines("h_in", ty, "n")
    host += k.alloc("d_in", ty, "n") + k.alloc("d_partials", ty, "count")
    host += k.alloc("d_out", ty, "1")
    host += k.upload("d_in", "h_in", ty, "n") + k.zero_fill("d_out", ty, "1")
    if k.style == "generic":
        host += k.zero_fill("d_partials", ty, "count")
    host += k.launch(first, "blocks", "threads", ["d_in", "d_partials", "n"])
    host += k.launch(second, "1", str(k.block_size(32, 256)), ["d_partials", "d_out", "count"])
    host += k.download("h_out", "d_out", ty, "1")
    acc = k.acc_type(ty)
    host += ["std::vector<%s> got(1, static_cast<%s>(h_out[0])), want(1, 0);" % (acc, acc),
             "for (int e = 0; e < n; ++e)", "  want[0] += h_in[e];", k.check_call(ty)]
    return host + k.free("d_in", "d_partials", "d_out")
