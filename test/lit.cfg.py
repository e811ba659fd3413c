# -*- Python -*- lit configuration for hpp-rewrite.
import os
import sys
import lit.formats
import lit.util

config.name = "hpp-rewrite"
config.test_format = lit.formats.ShTest(not lit.util.which("bash"))
# `.cu`: port mode's tests, CUDA sources with RUN lines (test/port).
config.suffixes = [".cpp", ".test", ".cu"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.hpp_obj_root, "test")

config.environment["PATH"] = os.pathsep.join(
    [config.hpp_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
# The CPU runtime reads these; tests set them explicitly when they matter.
for var in ["HPP_CPU_MVECTOR", "HPP_CPU_THREADS", "HPP_CPU_CHECK"]:
    config.environment.pop(var, None)

src = config.hpp_src_root
include = os.path.join(src, "include")
runtime = os.path.join(src, "runtime")
# -O0: the programs the tests build run for well under a second, and at -O2
# their compile took three times as long (docs/benchmarks.md, "The test
# suite's time").
cxx = config.hpp_cxx + " -std=c++17 -O0 -pthread"
# gold links a test program in two thirds of ld.bfd's time (0.56 s
# against 0.8 s for a whole build of examples/vector_add.cpp with the
# precompiled header), and the suite links about 800 of them.
_linker = "gold" if lit.util.which("ld.gold") else None
if _linker:
    cxx += " -fuse-ld=" + _linker
# Through scripts/cxx-pch.py: a program whose source includes the dialect
# header (or the runtime's) before anything of its own is compiled with that
# header precompiled, once per set of flags, in build/test/pch; any other
# command runs as given (HPP_NO_PCH=1: every command).
pch_dir = os.path.join(config.hpp_obj_root, "test", "pch")
cxx_pch = sys.executable + " " + os.path.join(src, "scripts", "cxx-pch.py")
config.substitutions.append(("%cxx_pch", cxx_pch))
config.substitutions.append(("%cxx_command", cxx))
cxx = " ".join([cxx_pch, "--pch-dir", pch_dir, "--", cxx])
config.environment["HPP_NO_PCH"] = os.environ.get("HPP_NO_PCH", "")
# glibc's malloc with transparent huge pages (madvise; glibc 2.35 and
# later, ignored by older ones): a compile of a test program spends a
# quarter less time (page faults of the heap, costly in a virtual machine:
# docs/benchmarks.md, "The eighth session"). What a program does is the
# same; an environment that sets glibc.malloc.hugetlb itself keeps its own.
_tunables = os.environ.get("GLIBC_TUNABLES", "")
if "glibc.malloc.hugetlb=" not in _tunables:
    _tunables = ":".join(t for t in [_tunables, "glibc.malloc.hugetlb=1"] if t)
config.environment["GLIBC_TUNABLES"] = _tunables
# hpp-rewrite parses the dialect header precompiled too, kept in
# build/test/tool-pch (--pch-dir; lib/Driver/DialectPCH.h): a rewrite took
# a second, nearly all of it that header (docs/benchmarks.md). HPP_NO_PCH=1
# turns it off as well; test/tool/dialect-pch.test tests it with its own
# directories.
config.environment.pop("HPP_REWRITE_PCH_EXPLAIN", None)
if os.environ.get("HPP_NO_PCH") == "1":
    config.environment.pop("HPP_REWRITE_PCH_DIR", None)
else:
    config.environment["HPP_REWRITE_PCH_DIR"] = os.path.join(
        config.hpp_obj_root, "test", "tool-pch")

config.substitutions.append(("%hpp_rewrite", os.path.join(config.hpp_tools_dir, "hpp-rewrite")))
config.substitutions.append(("%hpp_unittests", os.path.join(
    config.hpp_obj_root, "unittests", "hpp-rewrite-unittests")))
config.substitutions.append(("%hpp_include", include))
config.substitutions.append(("%hpp_runtime", runtime))
config.substitutions.append(("%examples", os.path.join(src, "examples")))
config.substitutions.append(("%inputs", os.path.join(src, "test", "Inputs")))
# Port mode: the parse-only CUDA declarations the tool puts on the include
# path (-isystem) to parse CUDA sources without a CUDA SDK (cuda-decls/).
config.substitutions.append(("%cuda_decls", os.path.join(src, "cuda-decls")))
# Compile rewritten output on the CPU backend of the runtime and run it.
config.substitutions.append(("%cxx_runtime", cxx + " -I" + runtime + " -I" + include))
config.substitutions.append(("%cxx", cxx))
# g++ (test/examples/gxx.test): the dialect headers compile with it too.
_gxx = lit.util.which("g++")
if _gxx:
    config.available_features.add("gxx")
    config.substitutions.append(("%gxx", _gxx))
# Differential testing (test/differential): the runner and the generator of
# warp programs, with the tool and compiler of this build.
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%src_root", src))
config.substitutions.append(("%obj_root", config.hpp_obj_root))
# With HPP_GPU_CHECK_QUEUE set, a --gpu run queues its GPU builds there too
# (%gpu_check, below).
_difftest = [sys.executable, os.path.join(src, "scripts", "difftest.py"),
             "--progress=off", "--opt", "O0", "--pch-dir", pch_dir,
             "--tool", os.path.join(config.hpp_tools_dir, "hpp-rewrite"),
             "--cxx", config.hpp_cxx]
if _linker:
    _difftest += ["--linker", _linker]
if os.environ.get("HPP_GPU_CHECK_QUEUE"):
    _difftest += ["--gpu-queue", os.environ["HPP_GPU_CHECK_QUEUE"]]
config.substitutions.append(("%difftest", " ".join(_difftest)))
# lit runs its built-in `diff` as a Python process (about 0.06 s of CPU
# each, some 380 a run); the system's diff gives the same exit status. A
# `diff` in a command's place (after lit's `%dbg(...)` marker, a pipe,
# `&&`, `;` or `not`) runs it. After %difftest, whose name it must not
# touch.
_diff = lit.util.which("diff")
if _diff:
    config.substitutions.append(
        (r"(^\s*|%dbg\([^)]*\)\s*|\|\s*|&&\s*|;\s*|\bnot\s+)diff(?=\s)",
         r"\g<1>" + _diff))
config.substitutions.append(
    ("%warpgen", sys.executable + " " + os.path.join(src, "scripts", "warpgen.py")))
# The output keeps comments, so a test's own RUN/CHECK lines would be copied
# into it and match themselves: drop them before FileCheck reads the output.
# %strip also drops the `#line` directives that keep the output numbered as
# the input (hpp-source-position), which test/rewrite/line-directives.cpp
# checks with %strip_checks; the other tests check the code around them.
config.substitutions.append(
    ("%strip_checks", "sed -E '/^[[:space:]]*\\/\\/ *(RUN|REQUIRES|[A-Z-]*CHECK[-A-Z]*):/d'"))
config.substitutions.append(
    ("%strip", "sed -E -e '/^[[:space:]]*\\/\\/ *(RUN|REQUIRES|[A-Z-]*CHECK[-A-Z]*):/d'"
               " -e '/^#line [0-9]+ \"/d'"))

# GPU compilers: features for REQUIRES, detected at configure time.
if config.hpp_nvcc and os.path.exists(config.hpp_nvcc):
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc_bin", config.hpp_nvcc))
    config.substitutions.append(
        ("%nvcc", config.hpp_nvcc + " -std=c++17 -I" + runtime + " -I" + include))
if config.hpp_hipcc and os.path.exists(config.hpp_hipcc):
    config.available_features.add("hipcc")
    config.substitutions.append(("%hipcc_bin", config.hpp_hipcc))
    config.substitutions.append(
        ("%hipcc", config.hpp_hipcc + " -std=c++17 -I" + runtime + " -I" + include))

# %gpu_check FILE: FILE compiles for sm_90 (nvcc) and gfx90a and gfx1030
# (hipcc), with the compilers that are installed (scripts/gpu-check.py).
# With HPP_GPU_CHECK_QUEUE=DIR in the environment (scripts/test.sh sets
# it), the file is queued there instead, and `gpu-check.py --drain DIR`
# compiles all the queued files afterwards, several per compiler call.
_gpu_check = [sys.executable, os.path.join(src, "scripts", "gpu-check.py"),
              "-I", runtime, "-I", include]
if "nvcc" in config.available_features:
    _gpu_check += ["--nvcc", config.hpp_nvcc]
if "hipcc" in config.available_features:
    _gpu_check += ["--hipcc", config.hpp_hipcc]
if os.environ.get("HPP_GPU_CHECK_QUEUE"):
    _gpu_check += ["--queue", os.environ["HPP_GPU_CHECK_QUEUE"]]
config.substitutions.append(("%gpu_check", " ".join(_gpu_check)))

# MPI (examples/heat_mpi.cpp, test/examples/heat_mpi.test): Open MPI's
# mpicxx and mpirun, which scripts/install-deps.sh installs; the feature
# `mpi` where both exist (a developer machine may lack them). %mpicxx
# builds with %cxx's flags (its compiler is mpicxx's own, g++); add
# -I%hpp_include for the reference, -I%hpp_runtime -I%hpp_include for the
# rewritten output. %mpi_include is mpi.h's directories as -I flags, for
# the tool (after `--`) and the GPU compilers (%gpu_check: compiles only).
# %mpirun runs on one machine without ssh or a network but the loopback
# (plm isolated; btl self,vader), as root (CI), more ranks than cores,
# through shared memory in /tmp (a container's /dev/shm may be small or
# absent) without cross-process reads (which containers often forbid),
# and gives up after two minutes instead of hanging.
def _mpi_include_flags(mpicxx):
    import subprocess
    try:
        out = subprocess.check_output([mpicxx, "--showme:incdirs"],
                                      universal_newlines=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return " ".join("-I" + d for d in out.split())


_mpicxx = lit.util.which("mpicxx")
_mpirun = lit.util.which("mpirun")
_mpi_include = _mpicxx and _mpirun and _mpi_include_flags(_mpicxx)
if _mpi_include:
    config.available_features.add("mpi")
    _mpicxx_cmd = _mpicxx + " -std=c++17 -O0 -pthread"
    if _linker:
        _mpicxx_cmd += " -fuse-ld=" + _linker
    config.substitutions.append(("%mpicxx", _mpicxx_cmd))
    config.substitutions.append(("%mpi_include", _mpi_include))
    config.substitutions.append(
        ("%mpirun", "timeout --kill-after=10 120 " + _mpirun +
         " --allow-run-as-root --oversubscribe --mca plm isolated"
         " --mca btl self,vader --mca btl_vader_single_copy_mechanism none"
         " --mca btl_vader_backing_directory /tmp"))

# hpp-rewrite-fuzzer (HPP_BUILD_FUZZER, built by scripts/build.sh in
# build/fuzz with clang 19): the smoke run of test/fuzz; absent when it was
# not built.
if config.hpp_fuzzer and os.path.exists(config.hpp_fuzzer):
    config.available_features.add("fuzzer")
    config.substitutions.append(("%hpp_fuzzer", config.hpp_fuzzer))

# Files that even root cannot replace (`chattr +i`), for the tests of
# all-or-nothing writes; absent where the file system has no such flag.
def _immutable_files_work():
    import shutil, subprocess, tempfile
    probe_dir = None
    try:
        probe_dir = tempfile.mkdtemp(dir=config.hpp_obj_root)
        probe = os.path.join(probe_dir, "probe")
        open(probe, "w").close()
        if subprocess.call(["chattr", "+i", probe], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL) != 0:
            return False
        subprocess.call(["chattr", "-i", probe])
        return True
    except OSError:
        return False
    finally:
        if probe_dir:
            shutil.rmtree(probe_dir, ignore_errors=True)


if _immutable_files_work():
    config.available_features.add("immutable-files")

# clang-apply-replacements (Debian's clang-tools-19), for the test that
# applies the YAML of --export-fixes; absent when not installed.
_car = None
for _name in ["clang-apply-replacements-19", "clang-apply-replacements"]:
    _car = lit.util.which(_name, config.environment["PATH"])
    if _car:
        break
if _car:
    config.available_features.add("clang-apply-replacements")
    config.substitutions.append(("%clang_apply_replacements", _car))

# script(1) from util-linux runs a command on a pseudo-terminal: the test
# of the progress line that hpp-rewrite redraws on a terminal.
if lit.util.which("script", config.environment["PATH"]):
    config.available_features.add("script")
