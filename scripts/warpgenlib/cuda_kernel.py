"""CudaKernel: one kernel of scripts/warpgen.py --cuda, its random choices
and the spellings its families share: the warp width (a literal 32, a
macro, a constant, a template parameter or warpSize), lane and warp ids
(`& 31`, `% warpSize`, `>> 5`, `/ 32`, helpers), masks (`0xffffffff`, a
FULL_MASK macro, `__activemask()`), shuffle trees and scans, cooperative
groups tiles, and the host side: allocations, copies, launches
(`<<<grid, block, shmem>>>`, `dim3`), CUDA_CHECK-style checks, managed
memory.

The style of a kernel says how it spells the width: "cuda32" (the 32s of
most CUDA code), "generic" (warpSize everywhere, and a result that is the
same whatever the warp width) or "mixed" (both, in one kernel: right on
NVIDIA, where warpSize is 32). Every kernel is right on an NVIDIA GPU (the
original is the reference at 32 lanes), and its result does not depend
on the warp width where the kernel does not fix it at 32: a kernel whose
output depends on how threads group into warps (one warp per row sized
from `threads / 32` on the host) has a 32-lane fact, which the port
keeps.
"""

import random

from .kernel import weighted

# How a kernel spells the warp width.
STYLES = (("cuda32", 55), ("generic", 20), ("mixed", 25))

# Block sizes (threads), 32 to 1024, with multiples of 32 that are not of 64.
BLOCKS = ((32, 3), (64, 8), (96, 9), (128, 12), (160, 7), (192, 5), (256, 12),
          (512, 5), (1024, 3))

# Element types of the data.
TYPES = (("int", 50), ("unsigned", 15), ("float", 35))


class CudaKernel:
    """One generated CUDA kernel: its choices, code lines and idioms.

    pre: file-scope lines before the host function (macros, device
    helpers, the kernels); post: lines after its registration (#undef);
    idioms: "what=how" strings for the marker comment."""

    def __init__(self, seed, kid, style=None):
        self.kid = kid
        self.rng = random.Random("warpgen-cuda:%s:%d" % (seed, kid))
        self.style = weighted(self.rng, STYLES)
        if style:
            self.style = style
        self.family = None
        self.pre, self.post, self.idioms = [], [], []
        self.defined = set()
        self.w32 = weighted(self.rng, (("literal", 60), ("macro", 25), ("const", 15)))
        self.macro = self.rng.choice(("WARP_SIZE", "WARPSIZE", "WARP_SZ", "LANES"))
        self.const = "kWarpSize%d" % self.kid
        self.checker = weighted(self.rng, (("CUDA_CHECK", 55), ("cudaCheck", 25), ("", 20)))
        self.managed = self.chance(0.12)
        self.launch_form = weighted(self.rng, (("plain", 60), ("dim3", 25), ("dim3-vars", 15)))
        self.refusal = None  # what the tool may refuse, with why
        self.launches = 0

    # -- random helpers ------------------------------------------------------
    def pick(self, *options):
        return self.rng.choice(options)

    def chance(self, p):
        return self.rng.random() < p

    def uses_cg(self, p):
        """Whether to write it with a cooperative groups tile of 32: a
        32-lane fact, so never in the generic style."""
        return self.style != "generic" and self.chance(p)

    def literal(self, lo, hi):
        """An integer in [lo, hi) that is none of the literals the port takes
        for a 32-lane fact (16, 31, 32): a predicate's constant says
        nothing of the warp."""
        while True:
            x = self.rng.randrange(lo, hi)
            if x not in (16, 31, 32):
                return x

    def max_warps(self):
        """The size of a static array of per-warp slots: 32 (the warps of a
        block of 1024 on NVIDIA), or 64 in the generic style (any width)."""
        return "64" if self.style == "generic" else "32"

    def idiom(self, what, how):
        self.idioms.append("%s=%s" % (what, how))

    def name(self, stem):
        """A new name of the kernel's code: the stem and the kernel's id
        (and a letter for a second one of the stem)."""
        name = "%s%d" % (stem, self.kid)
        while name in self.defined:
            name += "b"
        self.defined.add(name)
        return name

    # -- the element type ----------------------------------------------------
    def elem_type(self, allow_float=True):
        ty = weighted(self.rng, TYPES)
        if ty == "float" and not allow_float:
            ty = "int"
        return ty

    @staticmethod
    def zero(ty):
        return "0.0f" if ty == "float" else ("0u" if ty == "unsigned" else "0")

    @staticmethod
    def lowest(ty):
        """A neutral element of a maximum over the generated values."""
        return {"float": "-1.0e30f", "unsigned": "0u"}.get(ty, "-1000000")

    def max_call(self, ty, a, b):
        """The larger of two plain operands (evaluated twice by the ternary)."""
        if ty == "float":
            return "fmaxf(%s, %s)" % (a, b)
        return self.pick("max(%s, %s)" % (a, b), "(%s > %s ? %s : %s)" % (a, b, a, b))

    def block_size(self, low=32, high=1024):
        """A block size of BLOCKS in [low, high]; not 32 in the generic
        style (a launch of one warp is a 32-lane fact of the kernel)."""
        if self.style == "generic":
            low = max(low, 64)
        table = tuple((b, w) for b, w in BLOCKS if low <= b <= high)
        return weighted(self.rng, table)

    # -- spellings of the width ------------------------------------------------
    def width32(self):
        """A spelling of 32 as the warp's width: literal, macro or constant."""
        style = self.w32 if self.chance(0.85) else self.pick("literal", "macro", "const")
        if style == "macro":
            if "macro" not in self.defined:
                self.defined.add("macro")
                self.pre.append("#define %s 32" % self.macro)
                self.post.append("#undef %s" % self.macro)
            return self.macro
        if style == "const":
            if "const" not in self.defined:
                self.defined.add("const")
                self.pre.append("constexpr int %s = 32;" % self.const)
            return self.const
        return "32"

    def ws(self, template=None):
        """The warp width where the code means the warp's size."""
        if self.style == "generic" or (self.style == "mixed" and self.chance(0.5)):
            return "warpSize"
        if template and self.chance(0.6):
            return template
        return self.width32()

    def lane_expr(self, t="threadIdx.x", template=None):
        w = self.ws(template)
        if w == "32":
            return self.pick("%s & 31" % t, "%s %% 32" % t, "%s & 0x1f" % t)
        return self.pick("%s %% %s" % (t, w), "%s & (%s - 1)" % (t, w))

    def warp_expr(self, t="threadIdx.x", template=None):
        w = self.ws(template)
        if w == "32":
            return self.pick("%s / 32" % t, "%s >> 5" % t)
        return "%s / %s" % (t, w)

    def warps_in_block(self, template=None, block=None):
        """The number of warps of the block."""
        if block and self.chance(0.5):
            w = self.ws()
            return "%s / %s" % (block, w) if w != "32" or self.chance(0.5) else "%s >> 5" % block
        w = self.ws(template)
        if w == "32":
            return self.pick("blockDim.x / 32", "blockDim.x >> 5", "(blockDim.x + 31) / 32")
        return self.pick("blockDim.x / %s" % w, "(blockDim.x + %s - 1) / %s" % (w, w))

    def declare_lane_warp(self, body, warp=True, template=None):
        """Declares `lane` (and `warp`), maybe through device helpers."""
        lane = self.lane_expr(template=template)
        if self.chance(0.2) and not template:
            name = self.name("laneId")
            self.pre += ["", "__device__ __forceinline__ int %s() { return %s; }" % (name, lane)]
            self.idiom("lane", "helper %s" % lane)
            lane = "%s()" % name
        else:
            self.idiom("lane", lane)
        body.append("%s lane = %s;" % (self.pick("const int", "int"), lane))
        if warp:
            w = self.warp_expr(template=template)
            self.idiom("warp", w)
            body.append("%s warp = %s;" % (self.pick("const int", "int"), w))

    def mask(self, body, allow_active=True):
        """Declares or spells the full mask of a converged warp."""
        kinds = [("literal", 45), ("macro", 25), ("local", 10)]
        if allow_active:
            kinds += [("active-local", 10), ("active", 10)]
        kind = weighted(self.rng, tuple(kinds))
        if kind == "literal":
            text = self.pick("0xffffffff", "0xffffffffu", "0xFFFFFFFF", "~0u")
            self.idiom("mask", text)
            return text
        if kind == "macro":
            name = self.pick("FULL_MASK", "FINAL_MASK", "WARP_MASK")
            if name not in self.defined:
                self.defined.add(name)
                self.pre.append("#define %s %s" % (name, self.pick("0xffffffff", "0xffffffffu")))
                self.post.append("#undef %s" % name)
            self.idiom("mask", "#define %s" % name)
            return name
        if kind == "local":
            name = self.pick("mask", "full")
            body.append("const unsigned %s = 0xffffffffu;" % name)
            self.idiom("mask", "local const unsigned")
            return name
        if kind == "active-local":
            body.append("const unsigned mask = __activemask();")
            self.idiom("mask", "unsigned mask = __activemask()")
            return "mask"
        self.idiom("mask", "__activemask() at each call")
        return "__activemask()"

    # -- warp collectives -------------------------------------------------------
    def tree(self, var, ty, op, mask, template=None, tile=None, kind=None):
        """Lines of a warp reduction of `var` ("sum" or "max"); `tile` is a
        cooperative groups tile to shuffle through instead. Returns (lines,
        kind): "down" (lane 0 holds the result) or "xor" (every lane)."""
        kind = kind or self.pick("down", "down", "xor")
        if tile:
            start = self.pick("%s.size() / 2" % tile, "16")
            call = "%s.shfl_%s(%s, o)" % (tile, kind, var)
        else:
            w = self.ws(template)
            start = "16" if w == "32" and self.chance(0.6) else \
                self.pick("%s / 2" % w, "%s >> 1" % w)
            width = ""
            if self.chance(0.25):
                width = ", " + self.ws(template)
            call = "__shfl_%s_sync(%s, %s, o%s)" % (kind, mask, var, width)
        if op == "sum":
            steps = ["%s += %s;" % (var, call)]
        else:
            # Every lane shuffles: the other's value first, then the maximum.
            steps = ["const %s other = %s;" % (ty, call),
                     "%s = %s;" % (var, self.max_call(ty, var, "other"))]
        form = self.pick("for /=", "for >>=", "unroll", "while")
        if form == "while":
            lines = ["{", "  int o = %s;" % start, "  while (o > 0) {"]
            lines += ["    " + s for s in steps] + ["    o /= 2;", "  }", "}"]
        else:
            upd = "o >>= 1" if form == "for >>=" else "o /= 2"
            lines = ["#pragma unroll"] if form == "unroll" else []
            head = "for (int o = %s; o > 0; %s)" % (start, upd)
            lines += [head, "  " + steps[0]] if len(steps) == 1 else \
                [head + " {"] + ["  " + s for s in steps] + ["}"]
        self.idiom("tree", "%s %s from %s%s" % ("tile" if tile else "shfl", kind, start,
                                                ", " + form))
        return lines, kind

    def scan(self, var, mask, lane, template=None, tile=None):
        """Lines of an inclusive shuffle-up scan of `var` over the warp."""
        if tile:
            limit = self.pick("d < %s.size()" % tile, "d < 32", "d <= 16")
            call = "%s.shfl_up(%s, d)" % (tile, var)
        else:
            w = self.ws(template)
            limit = self.pick("d < %s" % w, "d <= %s / 2" % w) if w != "32" else \
                self.pick("d < 32", "d <= 16")
            width = ", " + self.ws(template) if self.chance(0.25) else ""
            call = "__shfl_up_sync(%s, %s, d%s)" % (mask, var, width)
        upd = self.pick("d *= 2", "d <<= 1", "d += d")
        tmp = "up"
        self.idiom("scan", "%s, %s" % ("tile.shfl_up" if tile else "__shfl_up_sync", limit))
        return ["for (int d = 1; %s; %s) {" % (limit, upd),
                "  const auto %s = %s;" % (tmp, call),
                "  if (%s >= d)" % lane,
                "    %s += %s;" % (var, tmp),
                "}"]

    def tile_decl(self, body, size="32"):
        """Declares a cooperative groups tile of `size` threads: `tile`."""
        if self.chance(0.5):
            body.append("cg::thread_block block = cg::this_thread_block();")
            parent = "block"
        else:
            parent = "cg::this_thread_block()"
        decl = self.pick("cg::thread_block_tile<%s> tile" % size, "auto tile")
        body.append("%s = cg::tiled_partition<%s>(%s);" % (decl, size, parent))
        self.idiom("tile", "tiled_partition<%s>" % size)
        return "tile"

    # -- host code ---------------------------------------------------------------
    def check(self, call):
        return "%s(%s);" % (self.checker, call) if self.checker else "%s;" % call

    def alloc(self, dname, ty, count):
        bytes_ = "%s * sizeof(%s)" % (count, ty)
        if self.managed:
            return ["%s *%s = nullptr;" % (ty, dname),
                    self.check("cudaMallocManaged(&%s, %s)" % (dname, bytes_))]
        cast = self.pick("&%s" % dname, "(void **)&%s" % dname)
        return ["%s *%s = nullptr;" % (ty, dname),
                self.check("cudaMalloc(%s, %s)" % (cast, bytes_))]

    def upload(self, dname, hname, ty, count):
        if self.managed:
            return ["for (int e = 0; e < %s; ++e)" % count, "  %s[e] = %s[e];" % (dname, hname)]
        return [self.check("cudaMemcpy(%s, %s.data(), %s * sizeof(%s), cudaMemcpyHostToDevice)"
                           % (dname, hname, count, ty))]

    def zero_fill(self, dname, ty, count):
        return [self.check("cudaMemset(%s, 0, %s * sizeof(%s))" % (dname, count, ty))]

    def download(self, hname, dname, ty, count):
        if self.managed:
            return ["std::vector<%s> %s(%s, %s + %s);" % (ty, hname, dname, dname, count)]
        return ["std::vector<%s> %s(%s);" % (ty, hname, count),
                self.check("cudaMemcpy(%s.data(), %s, %s * sizeof(%s), cudaMemcpyDeviceToHost)"
                           % (hname, dname, count, ty))]

    def free(self, *dnames):
        return [self.check("cudaFree(%s)" % d) for d in dnames]

    def launch(self, kernel, grid, block, args, shmem=None):
        """The launch and the checks after it."""
        extra = ""
        if shmem is not None:
            extra = ", %s" % shmem
            if self.chance(0.2):
                extra += ", 0"
        lines, stream = [], None
        if self.chance(0.1):
            # On a stream of its own, created and destroyed around it.
            stream = self.name("stream")
            lines += ["cudaStream_t %s;" % stream, self.check("cudaStreamCreate(&%s)" % stream)]
            extra = ", %s, %s" % (shmem if shmem is not None else "0", stream)
        self.launches += 1
        if self.launch_form == "dim3-vars":
            tag = "%d%s" % (self.kid, "_%d" % self.launches if self.launches > 1 else "")
            lines += ["dim3 grid%s(%s);" % (tag, grid), "dim3 block%s(%s);" % (tag, block)]
            shape = "grid%s, block%s" % (tag, tag)
        elif self.launch_form == "dim3":
            shape = "dim3(%s), dim3(%s)" % (grid, block)
        else:
            shape = "%s, %s" % (grid, block)
        lines.append("%s<<<%s%s>>>(%s);" % (kernel, shape, extra, ", ".join(args)))
        self.idiom("launch", "<<<%s%s%s>>>" % (self.launch_form, ", shmem" if shmem else "",
                                              ", stream" if stream else ""))
        lines.append(self.check("cudaGetLastError()"))
        if stream:
            lines += [self.check("cudaStreamSynchronize(%s)" % stream),
                      self.check("cudaStreamDestroy(%s)" % stream)]
        else:
            lines.append(self.check("cudaDeviceSynchronize()"))
        return lines

    def input_lines(self, hname, ty, count, rng_range=50):
        """A host vector of deterministic, irregular values of type `ty`."""
        salt = self.rng.randrange(1, 1 << 30)
        if ty == "unsigned":
            val = "unsigned(wcInput(e, %du, %d) + %d)" % (salt, rng_range, rng_range)
        elif ty == "float":
            val = self.pick("float(wcInput(e, %du, %d))", "0.5f * float(wcInput(e, %du, %d))") % (
                salt, rng_range)
        else:
            val = "wcInput(e, %du, %d)" % (salt, rng_range)
        return ["std::vector<%s> %s(%s);" % (ty, hname, count),
                "for (int e = 0; e < %s; ++e)" % count,
                "  %s[e] = %s;" % (hname, val)]

    def check_call(self, ty, got="got", want="want"):
        """The host's check of `got` against `want` (vectors of long long,
        or of double for float results: NaN never compares equal)."""
        fn = "wcCheckF" if ty == "float" else "wcCheck"
        return "%s(%d, %s, %s);" % (fn, self.kid, got, want)

    @staticmethod
    def acc_type(ty):
        """The host's type for expected values of `ty`."""
        return "double" if ty == "float" else "long long"
