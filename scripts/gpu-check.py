#!/usr/bin/env python3
"""gpu-check: does a source compile for sm_90 (nvcc) and gfx90a and gfx1030 (hipcc)?

The tests' compile check of rewritten output and of the device runtime's
sources. For each FILE it runs the same compiles the tests ran one by one:

  nvcc  -std=c++17 -I<runtime> -I<include> FLAGS -arch=sm_90 -x cu -c FILE
  hipcc -std=c++17 -I<runtime> -I<include> FLAGS -x hip --offload-arch=gfx90a
        --offload-arch=gfx1030 --cuda-device-only -c FILE
        (without --cuda-device-only under --hip-host: host code too)

A compiler that is not given (--nvcc, --hipcc) is not run; `--only nvcc`
or `--only hipcc` runs just that one (a source for one vendor's SDK).

`--has-symbol S` and `--lacks-symbol S` check the host object that nvcc
builds (and hipcc's under --hip-host): some symbol of `nm -C` contains the
text S, or none does (which instantiations the host code made, say).

Immediately (the default), or queued (--queue DIR): the file is copied into
DIR with what the check needs, and `gpu-check.py --drain DIR` compiles
everything queued later, in batches. Most of a compile's time is the
headers (the runtime, cooperative groups, cuda::barrier: about 10 of the
12 seconds nvcc takes on one file, 6 of hipcc's 7), so a batch compiles
queued files as one translation unit (the "unity" file), each inside a
namespace of its own, its main renamed, its macros undefined after it, its
<...> includes hoisted in front. A batch belongs to one compiler: files
queued with the same compiler, flags and include directories (and, for
hipcc, the same --hip-host) share it, as few batches as keep the -j workers
busy (--batch K: K files each). When a batch compiles, every member
compiled. When it fails, each member is compiled again on its own with the
exact commands above, and only a member that fails on its own is a
failure, reported with its compiler's errors and the test that queued it.
A file that the unity form cannot hold (it defines macros before an
#include, includes inside a conditional or undefines a macro it did not
define) is compiled on its own from the start.

In a batch, a member's symbol checks read the symbols of its own
namespace; a check that fails there is made again on the member compiled
on its own, and only a failure there counts.

What the batch does not prove that the single compile would: that the file
includes every standard header it uses (the hoisted includes are seen by
every member). The tests build the same files for the CPU backend on their
own, which does.

Usage:
  gpu-check.py [--nvcc NVCC] [--hipcc HIPCC] [--only nvcc|hipcc] -I DIR...
               [-D...] [--hip-host] [--has-symbol S] [--lacks-symbol S]
               [--queue DIR] FILE...
  gpu-check.py --drain DIR [-j N] [--batch K] [--progress]
  (the compilers and include directories are those each file was queued with)
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
DEFINE_RE = re.compile(r'^\s*#\s*define\s+([A-Za-z_]\w*)')
UNDEF_RE = re.compile(r'^\s*#\s*undef\b\s*(\w*)')
COND_RE = re.compile(r'^\s*#\s*(if|ifdef|ifndef)\b')
ENDIF_RE = re.compile(r'^\s*#\s*endif\b')
# The smallest group of files that the drain splits to use another worker.
MIN_BATCH = 32


def nvcc_cmd(args, flags, src, out):
    return ([args.nvcc, "-std=c++17"] + ["-I" + d for d in args.include] + flags +
            ["-arch=sm_90", "-x", "cu", "-c", src, "-o", out])


def hipcc_cmd(args, flags, host, src, out):
    cmd = ([args.hipcc, "-std=c++17"] + ["-I" + d for d in args.include] + flags +
           ["-x", "hip", "--offload-arch=gfx90a", "--offload-arch=gfx1030"])
    if not host:
        cmd.append("--cuda-device-only")
    return cmd + ["-c", src, "-o", out]


def compilers(args, flags, host):
    """(name, command maker) for each compiler given."""
    out = []
    if args.nvcc:
        out.append(("nvcc sm_90", lambda src, o: nvcc_cmd(args, flags, src, o)))
    if args.hipcc:
        out.append(("hipcc gfx90a+gfx1030",
                    lambda src, o: hipcc_cmd(args, flags, host, src, o)))
    return out


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, errors="replace")
    return p.returncode, p.stdout


def builds_host_code(name, host):
    """True when the compiler's object holds host code: nvcc's always,
    hipcc's under --hip-host."""
    return name.startswith("nvcc") or host


_NM = {}


def symbol_failures(obj, symbols, scope=None):
    """The symbol checks ({"has": [...], "lacks": [...]}) that the object
    fails, as text (empty: all hold). With \p scope, only the symbols of
    that namespace are read."""
    if obj not in _NM:
        _NM[obj] = run(["nm", "-C", obj])
    rc, out = _NM[obj]
    if rc != 0:
        return "nm -C %s failed:\n%s" % (obj, out)
    names = out.splitlines()
    if scope:
        names = [n for n in names if scope + "::" in n]
    wrong = ["no symbol contains '%s'" % s for s in symbols.get("has", [])
             if not any(s in n for n in names)]
    wrong += ["a symbol contains '%s': %s" % (s, next(n for n in names if s in n))
              for s in symbols.get("lacks", []) if any(s in n for n in names)]
    return "\n".join(wrong)


SYMBOLS = ": symbol checks"


def failure_text(name):
    """What a failure of compiler \p name (with SYMBOLS appended: of its
    symbol checks) says of the file."""
    if name.endswith(SYMBOLS):
        return "fails the symbol checks of " + name[:-len(SYMBOLS)]
    return "does not compile with " + name


def compile_one(name, make, host, symbols, src, obj):
    """One compiler on one file: None, or the (compiler, command, output) of
    its failure (a rejected file, or a symbol check that does not hold)."""
    cmd = make(src, obj)
    rc, out = run(cmd)
    if rc != 0:
        return (name, " ".join(cmd), out)
    if symbols and builds_host_code(name, host):
        wrong = symbol_failures(obj, symbols)
        if wrong:
            return (name + SYMBOLS, " ".join(cmd) + " && nm -C " + obj, wrong)
    return None


def compile_alone(args, flags, host, src, work):
    """Every compiler on one file: a list of (compiler, command, output)
    failures."""
    failures = []
    for name, make in compilers(args, flags, host):
        obj = os.path.join(work, "%s.%s.o" % (os.path.basename(src), name.split()[0]))
        fail = compile_one(name, make, host, args.symbols, src, obj)
        if fail:
            failures.append(fail)
    return failures


# -- the queue ---------------------------------------------------------------

def absolute_quote_includes(text, src_dir):
    """Quote includes that name a file beside the source, made absolute, so
    that the copy in the queue includes what the original did."""
    lines = []
    for line in text.splitlines(True):
        m = INCLUDE_RE.match(line)
        if m and m.group(1) == '"' and not os.path.isabs(m.group(2)):
            cand = os.path.join(src_dir, m.group(2))
            if os.path.exists(cand):
                line = line.replace('"%s"' % m.group(2), '"%s"' % os.path.abspath(cand), 1)
        lines.append(line)
    return "".join(lines)


def label_of(path):
    """The lit test a file belongs to: build/test/D/Output/T.tmp... -> D/T."""
    m = re.search(r'/test/([^/]+)/Output/([^/]+?)\.tmp', path)
    if m:
        return "%s/%s" % (m.group(1), m.group(2))
    return os.path.relpath(path)


def enqueue(args, files):
    os.makedirs(args.queue, exist_ok=True)
    for src in files:
        with open(src, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
        text = absolute_quote_includes(text, os.path.dirname(os.path.abspath(src)))
        what = " ".join(args.flags) + json.dumps(args.symbols, sort_keys=True) + \
            "\0%s\0%s" % (args.nvcc, args.hipcc)
        digest = hashlib.sha1((src + "\0" + text + "\0" + what).encode(
            "utf-8", "surrogateescape")).hexdigest()[:16]
        base = os.path.join(args.queue, digest)
        with open(base + ".cpp", "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        with open(base + ".json.tmp", "w") as f:
            json.dump({"source": os.path.abspath(src), "label": label_of(os.path.abspath(src)),
                       "flags": args.flags, "hip_host": args.hip_host,
                       "nvcc": args.nvcc, "hipcc": args.hipcc,
                       "symbols": args.symbols,
                       "include": [os.path.abspath(d) for d in args.include]}, f)
        os.replace(base + ".json.tmp", base + ".json")
    return 0


# -- the batches -------------------------------------------------------------

def unity_parts(text, include_dirs=()):
    """(hoisted includes, macros defined) of a file, or None when the unity
    form cannot hold it: it includes after defining a macro or inside a
    conditional, or undefines a macro it did not define itself (an #undef
    of its own macro reaches no other member). The includes are the
    <...> ones and the quoted ones of a header included once per
    translation unit (#pragma once or a guard), named by its absolute path
    (the queue's copy names a header beside the source so) or found in
    \p include_dirs: unity_text hoists the second kind only where several
    members include the header."""
    includes, macros, seen_define, depth = [], [], False, 0
    for line in text.splitlines():
        if COND_RE.match(line):
            depth += 1
        elif ENDIF_RE.match(line):
            depth -= 1
        m = UNDEF_RE.match(line)
        if m:
            if m.group(1) not in macros:
                return None
            continue
        m = DEFINE_RE.match(line)
        if m:
            seen_define = True
            macros.append(m.group(1))
            continue
        m = INCLUDE_RE.match(line)
        if m:
            if depth > 0 or seen_define:
                return None
            if m.group(1) == "<" or guarded(resolve_quoted(m.group(2), include_dirs)):
                includes.append(line.strip())
    return includes, macros


def resolve_quoted(name, include_dirs):
    """The file an `#include "name"` of a queued copy names: an absolute
    path (a header beside the original source), or one found in the -I
    directories; None otherwise."""
    if os.path.isabs(name):
        return name if os.path.isfile(name) else None
    for d in include_dirs:
        if os.path.isfile(os.path.join(d, name)):
            return os.path.join(d, name)
    return None


def guarded(path):
    """True when the header at \p path is included once per translation
    unit (`#pragma once`, or an #ifndef guard around all of it)."""
    if not path:
        return False
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = [l.strip() for l in f if l.strip() and not l.strip().startswith("//")
                     and not l.strip().startswith("#line")]
    except OSError:
        return False
    if any(l == "#pragma once" for l in lines):
        return True
    return (len(lines) >= 3 and re.match(r"#\s*ifndef\s+(\w+)$", lines[0]) is not None and
            re.match(r"#\s*define\s+%s\b" % re.escape(lines[0].split()[-1]), lines[1]) is not None
            and re.match(r"#\s*endif\b", lines[-1]) is not None)


def unity_text(members):
    """The translation unit of a batch: members are (path, includes, macros).
    A project header that two members include (the sources of one program:
    difftest.py's multi-file programs, project-headers.test) is hoisted
    too, after the <...> ones: included once, in a member's namespace, the
    other members would not see it."""
    out, seen = [], set()
    uses = {}
    for _, includes, _ in members:
        for inc in set(includes):
            uses[inc] = uses.get(inc, 0) + 1
    shared = [inc for inc in uses if '"' in inc and uses[inc] > 1]
    for _, includes, _ in members:
        for inc in includes:
            if inc not in seen and '"' not in inc:
                seen.add(inc)
                out.append(inc)
    for _, includes, _ in members:
        for inc in includes:
            if inc not in seen and inc in shared:
                seen.add(inc)
                out.append(inc)
    for i, (path, _, macros) in enumerate(members):
        out.append("namespace hpp_gpu_check_%d {" % i)
        out.append("#define main hpp_gpu_check_main")
        out.append('#include "%s"' % path)
        out.append("#undef main")
        out.extend("#undef %s" % m for m in sorted(set(macros)))
        out.append("} // namespace hpp_gpu_check_%d" % i)
    return "\n".join(out) + "\n"


def check_batch(members, compiler, host, symbols, work):
    """Compiles a batch with one compiler; returns {member path: [(compiler,
    cmd, output)]}. \p symbols: each member's symbol checks, by path."""
    name, make = compiler
    tag = name.split()[0]
    failures = {}
    alone = [path for path, _, _ in members]
    if len(members) > 1:
        unity = os.path.join(work, "unity.%s.cu" % tag)
        obj = os.path.join(work, "unity.%s.o" % tag)
        with open(unity, "w") as f:
            f.write(unity_text(members))
        rc, _ = run(make(unity, obj))
        if rc == 0:
            # Every member compiled; those whose symbol checks fail in the
            # batch are checked again on their own.
            alone = [path for i, (path, _, _) in enumerate(members)
                     if symbols.get(path) and builds_host_code(name, host) and
                     symbol_failures(obj, symbols[path], "hpp_gpu_check_%d" % i)]
    # One member, a failed batch or a failed symbol check: on its own.
    for path in alone:
        obj = os.path.join(work, "%s.%s.o" % (os.path.basename(path), tag))
        fail = compile_one(name, make, host, symbols.get(path), path, obj)
        if fail:
            failures.setdefault(path, []).append(fail)
    return failures


def drain(args):
    qdir = args.drain
    records = []
    for name in sorted(os.listdir(qdir)):
        if name.endswith(".json"):
            with open(os.path.join(qdir, name)) as f:
                rec = json.load(f)
            rec["path"] = os.path.join(qdir, name[:-5] + ".cpp")
            records.append(rec)
    if not records:
        print("gpu-check: nothing queued in %s" % qdir)
        return 0
    start = time.time()
    # A batch is one compiler's: nvcc compiles host code whether or not a
    # file asked hipcc for it (--hip-host), so its batches hold both kinds;
    # hipcc's keep them apart. Every compiler call pays the headers again
    # (most of its time), so a group is split only to keep the workers busy.
    groups, singles = {}, []
    for rec in records:
        with open(rec["path"], encoding="utf-8", errors="surrogateescape") as f:
            parts = unity_parts(f.read(), rec["include"])
        for kind in ("nvcc", "hipcc"):
            if not rec[kind]:
                continue
            key = (kind, rec[kind], tuple(rec["flags"]), tuple(rec["include"]),
                   kind == "hipcc" and rec["hip_host"])
            if parts is None:
                singles.append((key, [(rec["path"], [], [])]))
            else:
                groups.setdefault(key, []).append((rec["path"],) + parts)
    batches = list(singles)
    for key, members in sorted(groups.items(), key=lambda kv: repr(kv[0])):
        n = -(-len(members) // args.batch) if args.batch else \
            max(1, min(args.jobs, len(members) // MIN_BATCH))
        size = -(-len(members) // n)
        for i in range(0, len(members), size):
            batches.append((key, members[i:i + size]))
    by_path = {r["path"]: r for r in records}
    work_root = tempfile.mkdtemp(prefix="gpu-check-", dir=qdir)
    failures = {}
    done = 0

    # One job per batch, the longest first (nvcc's, then by size).
    jobs = []
    for i, (key, members) in enumerate(batches):
        kind, binary, flags, include, host = key
        tools = argparse.Namespace(nvcc=None, hipcc=None, include=list(include))
        setattr(tools, kind, binary)
        jobs.append((i, host, members, compilers(tools, list(flags), host)[0]))
    jobs.sort(key=lambda job: (not job[3][0].startswith("nvcc"), -len(job[2])))
    symbols = {r["path"]: r.get("symbols") or {} for r in records}

    def one(job):
        i, host, members, compiler = job
        work = os.path.join(work_root, str(i))
        os.makedirs(work, exist_ok=True)
        return check_batch(members, compiler, host, symbols, work)

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for result in pool.map(one, jobs):
            for path, fails in result.items():
                failures.setdefault(path, []).extend(fails)
            done += 1
            if args.progress:
                print("gpu-check: %d/%d compiles" % (done, len(jobs)), flush=True)
    for path, fails in sorted(failures.items()):
        rec = by_path[path]
        for name, cmd, out in fails:
            print("FAIL: %s: %s (%s) %s" % (rec["label"], rec["source"],
                                            os.path.basename(path), failure_text(name)))
            print("  $ " + cmd)
            print("".join("  " + l + "\n" for l in out.rstrip().splitlines()[:60]))
    if not failures:
        shutil.rmtree(work_root, ignore_errors=True)
    tests = len({r["label"] for r in records})
    print("gpu-check: %d files from %d tests in %d batches, %d compiler calls, %.0f s: "
          "%d failed" % (len(records), tests, len(batches), len(jobs),
                         time.time() - start, len(failures)))
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nvcc")
    ap.add_argument("--hipcc")
    ap.add_argument("-I", dest="include", action="append", default=[])
    ap.add_argument("--hip-host", action="store_true",
                    help="hipcc compiles host code too (no --cuda-device-only)")
    ap.add_argument("--only", choices=("nvcc", "hipcc"),
                    help="run only this one of the compilers given")
    ap.add_argument("--has-symbol", action="append", default=[], metavar="S",
                    help="some symbol of the host object (nm -C) contains S")
    ap.add_argument("--lacks-symbol", action="append", default=[], metavar="S",
                    help="no symbol of the host object (nm -C) contains S")
    ap.add_argument("--queue", help="queue the files in DIR instead of compiling")
    ap.add_argument("--drain", metavar="DIR", help="compile everything queued in DIR")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--batch", type=int, default=0,
                    help="files per translation unit (default: as few batches as keep "
                         "the -j workers busy, none under %d files)" % MIN_BATCH)
    ap.add_argument("--progress", action="store_true")
    ap.add_argument("files", nargs="*")
    args, rest = ap.parse_known_args()
    args.flags = [a for a in rest if a.startswith("-D")]
    if len(args.flags) != len(rest):
        ap.error("unknown options: %s" % " ".join(a for a in rest if not a.startswith("-D")))
    if args.only == "nvcc":
        args.hipcc = None
    elif args.only == "hipcc":
        args.nvcc = None
    args.symbols = {}
    if args.has_symbol:
        args.symbols["has"] = args.has_symbol
    if args.lacks_symbol:
        args.symbols["lacks"] = args.lacks_symbol
    if args.drain:
        return drain(args)
    if not args.files:
        ap.error("no file")
    if args.queue:
        return enqueue(args, args.files)
    status = 0
    with tempfile.TemporaryDirectory() as work:
        for src in args.files:
            for name, cmd, out in compile_alone(args, args.flags, args.hip_host, src, work):
                sys.stdout.write("gpu-check: %s %s\n  $ %s\n%s\n" %
                                 (src, failure_text(name), cmd, out))
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
