"""The CUDA mode of scripts/warpgen.py (--cuda): self-checking CUDA
translation units of several kernels, as real CUDA code writes them.

Each translation unit is a `.cu` file: `#include <cuda_runtime.h>` and
cooperative groups, a CUDA_CHECK macro (it throws, so that one kernel's
error does not stop the others) and llm.c's `cudaCheck`, the registry of
harness.py, and per kernel: its macros, `__device__` helpers and
`__global__` kernels, then a host function that builds deterministic
input, allocates and copies with the runtime API, launches with `<<<>>>`,
copies back, computes the answer in plain C++ and prints

    kernel 17: ok
    kernel 17: MISMATCH at 5: got 12 expected 14
    kernel 17: ERROR <what a CUDA_CHECK or the runtime threw>

`prog 3 17` runs only kernels 3 and 17. Results are exact (integers, or
floats holding integers and halves whose sums are exact in any order) and
never depend on thread timing: an unordered compaction is sorted on the
host; float results are compared NaN-safe (`!(got == want)` fails).

A kernel's lines lie between markers as in the dialect mode, so that
scripts/difftest.py judges each kernel on its own:

    // warpgen kernel 17: lines 120-185, family block-reduce, style cuda32
    // idioms: mask=0xffffffff; lane=threadIdx.x & 31; ...
    ...
    // warpgen end kernel 17

A marker may add `, refusal allowed (why)`: the kernel holds CUDA that the
port refuses by design (a warp intrinsic written inside a macro, inline
PTX, a launch that deduces template arguments from dependent ones).
Kernel k of seed S is the same whatever --per-tu is: its choices are seeded
by (S, k) alone, and every name it declares ends in k.

The families are in cuda_reduce.py, cuda_scan.py and cuda_shared.py, the
spellings they share (and the styles) in cuda_kernel.py.
"""

import json
import os

from . import harness
from .cuda_kernel import CudaKernel
from .cuda_reduce import fam_block_reduce, fam_row_per_warp, fam_vote, fam_warp_sum
from .cuda_scan import fam_block_scan, fam_compaction
from .cuda_shared import fam_histogram, fam_shared_tree, fam_syncwarp, fam_two_pass
from .kernel import weighted

FAMILIES = (
    ("warp-sum", 14),
    ("block-reduce", 18),
    ("row-per-warp", 11),
    ("vote", 11),
    ("block-scan", 12),
    ("compaction", 12),
    ("histogram", 6),
    ("syncwarp", 6),
    ("shared-tree", 5),
    ("two-pass", 5),
)

FAMILY_FUNCS = {
    "warp-sum": fam_warp_sum,
    "block-reduce": fam_block_reduce,
    "row-per-warp": fam_row_per_warp,
    "vote": fam_vote,
    "block-scan": fam_block_scan,
    "compaction": fam_compaction,
    "histogram": fam_histogram,
    "syncwarp": fam_syncwarp,
    "shared-tree": fam_shared_tree,
    "two-pass": fam_two_pass,
}

STYLE_NAMES = ("cuda32", "generic", "mixed")

PROLOGUE = r"""#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

namespace cg = cooperative_groups;

/// Throws, naming the call, when a CUDA runtime call fails.
#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess)                                                   \
      throw std::runtime_error(std::string(#call) + ": " +                    \
                               cudaGetErrorString(err_));                      \
  } while (0)

/// llm.c's form: a function, and a macro of the same name that passes the
/// place.
static void cudaCheck(cudaError_t error, const char *file, int line) {
  if (error != cudaSuccess)
    throw std::runtime_error(std::string("CUDA error at ") + file + ":" +
                             std::to_string(line) + ": " +
                             cudaGetErrorString(error));
}
#define cudaCheck(err) (cudaCheck(err, __FILE__, __LINE__))

""" + harness.registry("wc", "Kernel") + \
    r"""/// Deterministic, irregular integers in [-Range, Range].
static int wcInput(int E, unsigned Salt, int Range) {
  unsigned X = unsigned(E) * 0x9E3779B1u + Salt;
  X ^= X >> 15;
  X *= 0x2C1B3C6Du;
  X ^= X >> 12;
  return int(X % unsigned(2 * Range + 1)) - Range;
}
""" + harness.checks("wc") + r"""static void wcCheckF(int Id, const std::vector<double> &Got,
                     const std::vector<double> &Want) {
  for (std::size_t E = 0; E < Want.size() || E < Got.size(); ++E) {
    double G = E < Got.size() ? Got[E] : -1, W = E < Want.size() ? Want[E] : -1;
    if (E >= Got.size() || E >= Want.size() || !(G == W)) {
      std::printf("kernel %d: MISMATCH at %zu: got %.17g expected %.17g\n", Id, E, G, W);
      std::fflush(stdout);
      return;
    }
  }
  std::printf("kernel %d: ok\n", Id);
  std::fflush(stdout);
}
"""

EPILOGUE = r"""
/// Runs every kernel, or those whose ids are the arguments; an exception
/// (a failed CUDA call, an error the runtime reports) is that kernel's
/// ERROR line, and the next kernel runs.
int main(int argc, char **argv) {
  for (const WcKernel &K : wcKernels()) {
    bool Run = argc < 2;
    for (int A = 1; A < argc; ++A)
      Run = Run || std::atoi(argv[A]) == K.Id;
    if (!Run)
      continue;
    try {
      K.Run();
    } catch (const std::exception &E) {
      wcError(K.Id, E.what());
    }
    (void)cudaGetLastError();
  }
  return 0;
}
"""


def make_kernel(seed, kid, families=FAMILIES, styles=None):
    """The code lines of kernel `kid` (without its marker lines) and its
    description; its family is drawn from `families`, its style from
    `styles` (None: all, with their weights)."""
    k = CudaKernel(seed, kid)
    if styles and k.style not in styles:
        k.style = styles[k.rng.randrange(len(styles))]
    k.family = weighted(k.rng, families)
    host = FAMILY_FUNCS[k.family](k)
    name = "runKernel%d" % kid
    lines = list(k.pre) + ["", "static void %s() {" % name]
    lines += ["  " + s if s else "" for s in host]
    lines += ["}", "static const bool registered%d = wcRegister(%d, &%s);" % (kid, kid, name)]
    lines += k.post
    info = {"id": kid, "family": k.family, "style": k.style, "idioms": k.idioms,
            "refusal": k.refusal}
    return lines, info


def make_tu(seed, ids, total_tus, index, families=FAMILIES, styles=None):
    """The source text of one translation unit and its kernels' info."""
    lines = ["// Generated by scripts/warpgen.py --cuda --seed %s: translation unit %d of %d, "
             "kernels %d-%d." % (seed, index + 1, total_tus, ids[0], ids[-1]),
             "// Each kernel prints `kernel <id>: ok` when its result matches a plain C++",
             "// computation on the host; `prog 3 17` runs kernels 3 and 17 only."]
    lines += PROLOGUE.split("\n")
    def describe(info):
        head = "family %s, style %s" % (info["family"], info["style"])
        if info["refusal"]:
            head += ", refusal allowed (%s)" % info["refusal"]
        return head

    infos = harness.append_kernels(
        lines, ids, lambda kid: make_kernel(seed, kid, families, styles), describe)
    lines += EPILOGUE.split("\n")
    return "\n".join(lines).rstrip("\n") + "\n", infos


def write_tus(out, seed, ids, per_tu, families=FAMILIES, styles=None, one_each=False):
    """Writes DIR/warpgen_cuda_s<seed>_<first kernel>.cu files and
    DIR/warpgen.json; one translation unit per kernel with `one_each`."""
    os.makedirs(out, exist_ok=True)
    groups = [[x] for x in ids] if one_each else \
        [ids[p:p + per_tu] for p in range(0, len(ids), per_tu)]
    manifest = {"seed": seed, "cuda": True, "files": []}
    for index, group in enumerate(groups):
        text, infos = make_tu(seed, group, len(groups), index, families, styles)
        name = "warpgen_cuda_s%s_%05d.cu" % (seed, group[0])
        with open(os.path.join(out, name), "w") as f:
            f.write(text)
        manifest["files"].append({"file": name, "kernels": infos})
    with open(os.path.join(out, "warpgen.json"), "w") as f:
        json.dump(manifest, f, indent=1)
