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

    warpgen.py --multi-file --seed 1 --programs 50 --out DIR

writes multi-file programs (warpgenlib/multifile.py): DIR/mf_s<seed>_p<n>/
for n from --first-program, each a main.cpp, two or three sources of
kernels and the project headers they share, with a program.json
(sources, include directories, plan, whether the tool should refuse a
header as two translation units need it rewritten differently) that
scripts/difftest.py reads; DIR/warpgen.json lists them.

    warpgen.py --cuda --seed 1 --kernels 200 --per-tu 40 --out DIR

writes self-checking CUDA translation units (warpgenlib/cuda_harness.py):
DIR/warpgen_cuda_s<seed>_<first kernel>.cu, each with --per-tu kernels
written as real CUDA is written (__global__ kernels and templates,
__device__ helpers, <<<grid, block, shmem>>> launches, shared memory, warp
intrinsics with 32-bit masks, cooperative groups, atomics, the runtime API),
each right on an NVIDIA GPU and checked by its host code as above;
scripts/difftest.py ports each with `hpp-rewrite --port` and judges every
kernel at 32 and 64 lanes. --families and --styles (cuda32, generic,
mixed) narrow what is drawn.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from warpgenlib.families_reduce import (fam_ballot_count, fam_block_reduce,  # noqa: E402
                                        fam_compaction, fam_warp_sum)
from warpgenlib.families_scan import (fam_block_scan, fam_launch_scan,  # noqa: E402
                                      fam_segmented)
from warpgenlib.families_lanemask import fam_lanemask  # noqa: E402
from warpgenlib import cuda_harness  # noqa: E402
from warpgenlib import harness  # noqa: E402
from warpgenlib import multifile  # noqa: E402
from warpgenlib.kernel import FAMILIES, Kernel, weighted  # noqa: E402


FAMILY_FUNCS = {
    "warp-sum": fam_warp_sum,
    "block-reduce": fam_block_reduce,
    "ballot-count": fam_ballot_count,
    "compaction": fam_compaction,
    "block-scan": fam_block_scan,
    "segmented": fam_segmented,
    "launch-scan": fam_launch_scan,
    "lanemask": fam_lanemask,
}


def make_kernel(seed, kid, families=FAMILIES, shared=None, style=None, external=False):
    """The code lines of kernel `kid` (without its marker lines) and its
    description; its family is drawn from `families` (FAMILIES or a part
    of it). The multi-file mode (warpgenlib/multifile.py) passes its
    library of shared helpers, the style its plan wants and `external`: the
    host function `void runKernel<kid>()` has external linkage (main, in
    another source, calls it) and is not registered."""
    k = Kernel(seed, kid, shared, style)
    k.family = weighted(k.rng, families)
    res = FAMILY_FUNCS[k.family](k)
    template = None
    if isinstance(res, tuple):
        res, template = res
    name = "runKernel%d" % kid
    linkage = "" if external else "static "
    lines = list(k.pre)
    lines.append("")
    if template:
        lines.append(template[0])
        lines.append("static void %sImpl() {" % name)
    else:
        lines.append("%svoid %s() {" % (linkage, name))
    lines += ["  " + s if s else "" for s in res]
    lines.append("}")
    if template:
        lines.append("%svoid %s() { %sImpl%s(); }" % (linkage, name, name, template[1]))
    if not external:
        lines.append("static const bool registered%d = wgRegister(%d, &%s);" % (kid, kid, name))
    lines += k.post
    verdict, reason = k.expect64()
    info = {"id": kid, "family": k.family, "style": k.style, "expect64": verdict,
            "reason": reason, "idioms": k.idioms}
    return lines, info


PROLOGUE = r"""#include <hpp/hpp.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

using namespace hpp;

""" + harness.registry("wg", "Kernel") + r"""/// Deterministic, irregular integers in [-Range, Range].
static int wgInput(int E, unsigned Salt, int Range) {
  unsigned X = unsigned(E) * 0x9E3779B1u + Salt;
  X ^= X >> 15;
  X *= 0x2C1B3C6Du;
  X ^= X >> 12;
  return int(X % unsigned(2 * Range + 1)) - Range;
}
""" + harness.checks("wg")

EPILOGUE = harness.main_function("wg", "Kernel")


def make_tu(seed, ids, total_tus, index, families=FAMILIES):
    """The source text of one translation unit and its kernels' info."""
    lines = ["// Generated by scripts/warpgen.py --seed %s: translation unit %d of %d, kernels %d-%d."
             % (seed, index + 1, total_tus, ids[0], ids[-1]),
             "// Each kernel prints `kernel <id>: ok` when its width-independent result",
             "// matches a plain C++ computation. `expect64` predicts the reference",
             "// runtime at HPP_CPU_MVECTOR=64 for the kernel as written."]
    lines += PROLOGUE.split("\n")
    infos = harness.append_kernels(
        lines, ids, lambda kid: make_kernel(seed, kid, families),
        lambda info: "family %s, style %s, expect64 %s (%s)" % (
            info["family"], info["style"], info["expect64"], info["reason"]))
    lines += EPILOGUE.split("\n")
    return "\n".join(lines).rstrip("\n") + "\n", infos


def cuda_main(ap, args):
    """--cuda: the CUDA translation units."""
    if args.multi_file:
        ap.error("--cuda and --multi-file do not go together")
    if args.kernels < 1 or args.per_tu < 1:
        ap.error("--kernels and --per-tu must be positive")
    families = cuda_harness.FAMILIES
    if args.families:
        wanted = args.families.split(",")
        unknown = [f for f in wanted if f not in cuda_harness.FAMILY_FUNCS]
        if unknown:
            ap.error("unknown CUDA families: %s" % ", ".join(unknown))
        families = tuple(f for f in families if f[0] in wanted)
    styles = None
    if args.styles:
        styles = args.styles.split(",")
        unknown = [s for s in styles if s not in cuda_harness.STYLE_NAMES]
        if unknown:
            ap.error("unknown styles: %s" % ", ".join(unknown))
    ids = args.only if args.only else list(range(args.first, args.first + args.kernels))
    cuda_harness.write_tus(args.out, args.seed, ids, args.per_tu, families, styles,
                           one_each=bool(args.only))
    return 0


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
    ap.add_argument("--families",
                    help="comma-separated families to draw from, with their weights "
                         "(default: all: %s; with --cuda: %s)" % (
                             ",".join(f for f, _ in FAMILIES),
                             ",".join(f for f, _ in cuda_harness.FAMILIES)))
    ap.add_argument("--cuda", action="store_true",
                    help="write CUDA translation units (.cu) for port mode "
                         "(warpgenlib/cuda_harness.py)")
    ap.add_argument("--styles",
                    help="with --cuda: comma-separated styles to draw from (default: all: %s)"
                         % ",".join(cuda_harness.STYLE_NAMES))
    ap.add_argument("--multi-file", action="store_true",
                    help="write multi-file programs (warpgenlib/multifile.py): --programs of "
                         "them from --first-program, each a directory of sources and shared "
                         "headers; --kernels and --per-tu are not used")
    ap.add_argument("--programs", type=int, default=10,
                    help="with --multi-file: number of programs (default 10)")
    ap.add_argument("--first-program", type=int, default=0,
                    help="with --multi-file: number of the first program (default 0)")
    args = ap.parse_args(argv)
    if args.cuda:
        return cuda_main(ap, args)
    families = FAMILIES
    if args.families:
        wanted = args.families.split(",")
        unknown = [f for f in wanted if f not in FAMILY_FUNCS]
        if unknown:
            ap.error("unknown families: %s" % ", ".join(unknown))
        families = tuple(f for f in FAMILIES if f[0] in wanted)
    if args.multi_file:
        if args.programs < 1:
            ap.error("--programs must be positive")
        os.makedirs(args.out, exist_ok=True)
        manifest = {"seed": args.seed, "multi_file": True, "programs": []}
        for pid in range(args.first_program, args.first_program + args.programs):
            name, desc = multifile.write_program(args.out, args.seed, pid, make_kernel, families)
            manifest["programs"].append({"dir": name, "plan": desc["plan"],
                                         "expect_conflict": desc["expect_conflict"],
                                         "kernels": [k["id"] for k in desc["kernels"]]})
        with open(os.path.join(args.out, "warpgen.json"), "w") as f:
            json.dump(manifest, f, indent=1)
        return 0
    if args.kernels < 1 or args.per_tu < 1:
        ap.error("--kernels and --per-tu must be positive")
    os.makedirs(args.out, exist_ok=True)
    ids = args.only if args.only else list(range(args.first, args.first + args.kernels))
    groups = [ids[p:p + args.per_tu] for p in range(0, len(ids), args.per_tu)]
    if args.only:
        groups = [[x] for x in ids]
    manifest = {"seed": args.seed, "files": []}
    for index, group in enumerate(groups):
        text, infos = make_tu(args.seed, group, len(groups), index, families)
        name = "warpgen_s%s_%05d.cpp" % (args.seed, group[0])
        with open(os.path.join(args.out, name), "w") as f:
            f.write(text)
        manifest["files"].append({"file": name, "kernels": infos})
    with open(os.path.join(args.out, "warpgen.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
