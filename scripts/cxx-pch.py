#!/usr/bin/env python3
"""Compiles a test program with a precompiled dialect header where that
cannot change what the program means; otherwise exactly as asked.

    cxx-pch.py --pch-dir DIR -- COMPILER FLAGS... SOURCE -o OUTPUT

The tests build about 500 programs on the CPU (the reference on
`include/hpp/hpp.h`, the rewritten output on `runtime/hpp/runtime.h`), and
a third of each build was the same header compiled again: its parse and
the code of its inline functions. This wrapper precompiles each of the two
headers once per configuration (`-fpch-codegen -fpch-instantiate-templates`:
the header's inline functions and the instantiations it makes itself are
compiled once, into an object linked with every program) and compiles a
program with it only when the result is the program the plain command
would build:

- the command compiles and links `.cpp` sources (one, or several: each
  is compiled with the header and the objects are linked together), with
  no flag outside a short list (`-std=`, `-O`, `-pthread`, `-w`, `-D`, `-U`, `-I`,
  `-o`, and the link's `-fuse-ld=`); a `-c`, `-fsyntax-only`, `-W...` or
  any other flag means a plain
  compile. The header is precompiled with the command's own flags (its
  macros among them), once per set of flags, from the second compile
  that asks for that set on (a test's own `-D` is not worth a build);
- the include directories are those of one of the two headers
  (`-I include` for the reference, `-I runtime -I include` for the
  rewritten output), in that order, maybe followed by others (a
  program's own, as a multi-file program's `-I` of its headers) that
  hold no file of that name; the header is precompiled with its own
  directories only;
- each source's first line that is not blank, a comment, a `#line`
  directive or the `#include <...>` of a standard header includes that
  header: nothing the source defines or declares comes before it (with the
  precompiled header, the header is read first);
- the compile succeeds and prints nothing: when it fails or warns, the
  plain command runs again and its result is the one returned, so that a
  test sees the diagnostics it would see without the wrapper.

With the header precompiled, the program is compiled with `-c` (clang
runs its compiler in the driver's process then, not in a second process
that loads LLVM again) and linked by the linker command the compiler's
driver would run itself for that configuration (`-###`, asked once and
kept beside the precompiled header): about a quarter less CPU time per
program than one compile-and-link command.

A header that warns or fails when precompiled is not used (the plain
compile shows what it says). A precompiled header is rebuilt when the
compiler or any file it was built from changes (sizes and times, from its dependency file); concurrent
compiles wait for one another's build (a lock file). `HPP_NO_PCH=1` turns
the wrapper off: every command runs as given; `HPP_PCH_EXPLAIN=1` prints
on stderr, after the compile, whether the header was precompiled and why
not.
"""
import fcntl
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

# The headers that can be precompiled, by the include directories (their
# names, in order): the first of them holds the header. The rewritten
# output includes hpp/runtime.h, a port of CUDA (hpp-rewrite --port)
# hpp/cuda_api.h; a source's first include says which.
HEADERS = {
    ("include",): ("hpp/hpp.h",),
    ("runtime", "include"): ("hpp/runtime.h", "hpp/cuda_api.h"),
}
ALLOWED = re.compile(r"^(-std=(c|gnu)\+\+\d\w*|-O[0-3sg]?|-pthread|-w|-fuse-ld=[\w.-]+|-[DU]\w.*)$")
STD_INCLUDE = re.compile(r"^#\s*include\s*<(?!hpp/)[^>]+>\s*(//.*)?$")
LINE = re.compile(r"^#\s*line\s+\d+(\s+\"[^\"]*\")?\s*(//.*)?$")


def parse(args):
    """(flags, include dirs, sources, output) of a plain compile-and-link
    command the wrapper understands, or None."""
    flags, incs, sources, out = [], [], [], None
    i = 0
    while i < len(args):
        a = args[i]
        if a == "-o" and i + 1 < len(args):
            out = args[i + 1]
            i += 2
            continue
        if a == "-I" and i + 1 < len(args):
            incs.append(args[i + 1])
            i += 2
            continue
        if a.startswith("-I") and len(a) > 2:
            incs.append(a[2:])
        elif a.endswith(".cpp") and not a.startswith("-"):
            sources.append(a)
        elif ALLOWED.match(a):
            flags.append(a)
        else:
            return None
        i += 1
    if not sources or not out:
        return None
    return flags, incs, sources, out


def header_for(incs, sources):
    """(the header these include directories precompile and every source
    includes first, how many of the directories are the header's, the
    headers they could precompile); (None, 0, the headers) when no source
    includes one first, (None, 0, ()) for other directories. Directories
    after the header's may not hold a file of the header's name."""
    for n in range(len(incs), 0, -1):
        tail = tuple(os.path.basename(os.path.normpath(d)) for d in incs[:n])
        headers = tuple(h for h in HEADERS.get(tail, ())
                        if os.path.isfile(os.path.join(incs[0], h)))
        if not headers:
            continue
        if any(os.path.exists(os.path.join(d, h)) for d in incs[n:]
               for h in headers):
            return None, 0, ()
        for header in headers:
            if all(includes_first(s, header) for s in sources):
                return header, n, headers
        return None, 0, headers
    return None, 0, ()


def includes_first(source, header):
    """True when nothing of the source but blank lines, comments, `#line`
    and standard includes comes before its `#include` of \\p header."""
    want = re.compile(r'^#\s*include\s*[<"]%s[>"]\s*(//.*)?$' % re.escape(header))
    try:
        with open(source, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return False
    in_comment = False
    for raw in text.splitlines():
        line = raw.strip()
        if in_comment:
            end = line.find("*/")
            if end < 0:
                continue
            line = line[end + 2:].strip()
            in_comment = False
        while line.startswith("/*"):
            end = line.find("*/", 2)
            if end < 0:
                in_comment = True
                line = ""
                break
            line = line[end + 2:].strip()
        if not line or line.startswith("//"):
            continue
        if line.endswith("\\"):
            return False
        if want.match(line):
            return True
        if LINE.match(line) or STD_INCLUDE.match(line):
            continue
        return False
    return False


def stamp(paths):
    parts = []
    for p in paths:
        try:
            st = os.stat(p)
        except OSError:
            return None
        parts.append("%s %d %d" % (p, st.st_size, st.st_mtime_ns))
    return "\n".join(parts)


def dependencies(depfile):
    with open(depfile) as f:
        text = f.read().replace("\\\n", " ")
    _, _, deps = text.partition(":")
    return [d.replace("\\ ", " ") for d in re.findall(r"(?:\\ |\S)+", deps)]


def precompiled(pch_dir, compiler, flags, incs, header):
    """(pch, object) for this configuration, built if missing or stale;
    None when it is not worth building yet (its first use) or cannot be
    built (an error or a warning in the header)."""
    key = hashlib.sha1("\0".join([compiler] + flags + [os.path.abspath(d) for d in incs])
                       .encode()).hexdigest()[:16]
    base = os.path.join(pch_dir, key)
    pch, obj, stamp_file = base + ".pch", base + ".o", base + ".stamp"
    top = [shutil.which(compiler) or compiler, os.path.join(incs[0], header)]
    os.makedirs(pch_dir, exist_ok=True)
    with open(base + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            with open(stamp_file) as f:
                deps, _, old = f.read().partition("\n")
            if os.path.exists(pch) and os.path.exists(obj) and old == stamp(deps.split("\0")):
                return pch, obj
        except OSError:
            pass
        # A header that did not precompile is tried again once it changes.
        try:
            with open(base + ".failed") as f:
                if f.read() == stamp(top):
                    return None
        except OSError:
            pass
        # A configuration used once (a test's own -D) is not worth it.
        uses = base + ".uses"
        if not os.path.exists(uses):
            open(uses, "w").close()
            return None
        stub = base + ".h"
        with open(stub, "w") as f:
            f.write("#include <%s>\n" % header)
        # The linker's choice is the link's alone: the header's compiles
        # would warn that it is unused.
        compile_flags = [f for f in flags if not f.startswith("-fuse-ld=")]
        common = [compiler] + compile_flags + ["-I" + d for d in incs]
        tmp_pch, tmp_obj, depfile = base + ".tmp.pch", base + ".tmp.o", base + ".d"
        steps = [common + ["-fpch-codegen", "-fpch-instantiate-templates", "-x", "c++-header",
                           stub, "-o", tmp_pch, "-MD", "-MF", depfile],
                 [compiler] + compile_flags + ["-c", tmp_pch, "-o", tmp_obj]]
        for step in steps:
            proc = subprocess.run(step, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            if proc.returncode or proc.stdout:
                with open(base + ".failed", "w") as f:
                    f.write(stamp(top) or "")
                return None
        deps = top[:1] + dependencies(depfile)
        now = stamp(deps)
        if now is None:
            return None
        os.replace(tmp_pch, pch)
        os.replace(tmp_obj, obj)
        with open(stamp_file, "w") as f:
            f.write("\0".join(deps) + "\n" + now)
        return pch, obj


def compile_with_pch(pch_dir, cmd):
    """The exit status of \p cmd, compiled with a precompiled header where
    that is sure to build the same program, and why it was or was not."""
    plain = lambda why: (subprocess.call(cmd), why)  # noqa: E731
    if os.environ.get("HPP_NO_PCH") == "1":
        return plain("HPP_NO_PCH=1")
    parsed = parse(cmd[1:])
    if not parsed:
        return plain("not sources compiled and linked with the listed flags")
    flags, incs, sources, out = parsed
    header, own, headers = header_for(incs, sources)
    if not headers:
        return plain("include directories of neither header")
    if not header:
        return plain("the source does not include <%s> first"
                     % "> or <".join(headers))
    try:
        built = precompiled(pch_dir, cmd[0], flags, incs[:own], header)
    except OSError as e:
        return plain("cannot precompile: %s" % e)
    if not built:
        return plain("not precompiled (first use of these flags, or the header warns)")
    pch, obj = built
    status = compile_and_link(pch_dir, cmd, flags, incs, sources, out, pch, obj)
    if status == 0:
        return 0, "precompiled <%s>" % header
    return plain("the compile with <%s> precompiled failed or warned" % header)


def run_quiet(args):
    """True when \p args succeeds and prints nothing."""
    proc = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return proc.returncode == 0 and not proc.stdout


def link_command(pch_dir, compiler, flags, obj):
    """The linker command \p compiler runs to link a program object and
    the header's \p obj with \p flags, with PROGRAM_OBJECT and OUTPUT as
    placeholders; None when the driver does not say (kept in a file per
    configuration)."""
    link_flags = [f for f in flags if f.startswith("-fuse-ld=") or f == "-pthread"]
    # What the driver's answer depends on: the compiler (its file's size
    # and time too), the flags, the objects and the search paths the
    # environment adds.
    driver = shutil.which(compiler) or compiler
    obj = os.path.abspath(obj)
    key = hashlib.sha1("\0".join([stamp([driver]) or driver, obj] + link_flags + [
        os.environ.get(v, "") for v in ("LIBRARY_PATH", "COMPILER_PATH", "GCC_EXEC_PREFIX")])
                       .encode()).hexdigest()[:16]
    cached = os.path.join(pch_dir, key + ".link")
    try:
        with open(cached) as f:
            return json.load(f)
    except (OSError, ValueError):
        pass
    program = os.path.join(pch_dir, key + ".program.o")
    open(program, "a").close()
    proc = subprocess.run([compiler] + link_flags + ["-###", program, obj, "-o", "OUTPUT"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    commands = [shlex.split(line) for line in proc.stdout.splitlines()
                if line.startswith(' "')]
    if proc.returncode or len(commands) != 1 or commands[0].count(program) != 1:
        return None
    argv = ["PROGRAM_OBJECT" if a == program else a for a in commands[0]]
    tmp = cached + ".%d.tmp" % os.getpid()
    with open(tmp, "w") as f:
        json.dump(argv, f)
    os.replace(tmp, cached)
    return argv


def compile_and_link(pch_dir, cmd, flags, incs, sources, out, pch, obj):
    """Builds \p out with the header precompiled: each source's compile
    alone (in the driver's process), then the driver's own linker command
    on their objects; 0 when all succeed and print nothing."""
    link = link_command(pch_dir, cmd[0], flags, obj)
    if not link:
        return 0 if run_quiet(cmd + ["-include-pch", pch, obj]) else 1
    if len(sources) == 1:
        programs = [out + ".cxx-pch.o"]
    else:
        programs = ["%s.%d.cxx-pch.o" % (out, n) for n in range(len(sources))]
    compile_flags = [f for f in flags if not f.startswith("-fuse-ld=")]
    compile_flags += ["-I" + d for d in incs]
    try:
        for source, program in zip(sources, programs):
            if not run_quiet([cmd[0]] + compile_flags + [source, "-c", "-o", program,
                                                         "-include-pch", pch]):
                return 1
        argv = []
        for a in link:
            argv += programs if a == "PROGRAM_OBJECT" else [out if a == "OUTPUT" else a]
        return 0 if run_quiet(argv) else 1
    finally:
        for program in programs:
            try:
                os.remove(program)
            except OSError:
                pass


def main(argv):
    if "--" not in argv or argv.index("--") != 2 or argv[0] != "--pch-dir" or \
            len(argv) < 4:
        sys.stderr.write("usage: cxx-pch.py --pch-dir DIR -- COMPILER ARGS...\n")
        return 2
    status, why = compile_with_pch(argv[1], argv[3:])
    if os.environ.get("HPP_PCH_EXPLAIN") == "1":
        sys.stderr.write("cxx-pch: %s\n" % why)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
