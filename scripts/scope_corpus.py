#!/usr/bin/env python3
# ===- scripts/scope_corpus.py - device code in many scopes and forms -----=== #
#
# Part of hpp-rewrite.
#
# ===----------------------------------------------------------------------=== #
"""scope_corpus: seeded generator of dialect programs that put parallelFor,
Task and channel-consumer bodies in many scopes and declaration forms.

Where placement_corpus.py writes one fixed program, this writes the
neighbourhoods of the constructs a held-out trial found the tool accepting
and then miscompiling (issue 27): bodies placed in and capturing what is
declared in `extern "C++"` and `extern "C"` blocks; function templates whose
captures are typed through dependent member aliases and `decltype`; generic
lambdas called with several types; bodies whose Index or BoundDistArray
parameter is `auto`; device helpers defined by macros; macros defined,
undefined and redefined inside the enclosing function; function-local
constants read without capture; try/catch around a launch; UTF-8 and
non-UTF-8 bytes in and around a body; Tasks made in `emplace_back`, in a
`std::function`, in a ternary, returning bool, an enum or a struct; all of
them in namespaces, anonymous namespaces, static functions, class members,
nested classes and class templates.

Each construct is a *kind*: one entry of KINDS (a function that writes a
case). Case k of a seed is of kind KINDS[k % len(KINDS)] (so every batch of
len(KINDS) cases holds every kind); its other choices (the launch: a
parallelFor over a Range<1> or a Range<1,1>, a DistArray launch, a Task, a
channel consumer; the placement; names, types and values) are seeded by
(seed, k) alone. Every case computes one int per element on the device and
compares it on the host with the same expression evaluated where the body
was written, printing `kernel <k>: ok` or a mismatch. Nothing in them
depends on the warp width: a program prints the same at HPP_CPU_MVECTOR=32
and 64 on the reference runtime, and the rewritten one must print it too.

A case the tool may refuse by a documented limit (a Task body passed to
emplace_back, a Task result type that is a class member) says so in its
marker (`refusal allowed (why)`): refusing it with an error in its lines is
then no failure; --accepted-only draws such a case again.

The cases are written in scripts/warpgen.py's format, so that
scripts/difftest.py judges each case on its own (and blanks out a case the
tool refuses, to go on with the others): markers

    // scope-corpus kernel 17: lines 120-185, family local-macros, style scope, expect64 ok (...)
    // idioms: construct=task; placement=anonymous-namespace; ...
    ...
    // scope-corpus end kernel 17

and `prog 3 17` runs only cases 3 and 17.

--refusals writes instead the constructs the tool must refuse (try and
throw in device code, std::vector, std::string, std::function, std::max in
device code, Task<std::string>, static locals, local types, ...). Every
such line ends with a marker comment

    // scope-corpus: expect error [hpp-host-call-in-device]

and --check-refusals TOOL DIR runs TOOL on each program of DIR: it must exit
with status 1 and print an `error: ... [hpp-...]` on each marked line (the
tag in the marker is the one expected; another hpp tag is reported but
accepted) and none outside the refusals' own lines. Each refusal is put in
a seeded placement (a namespace, a template, a class or class template, an
extern "C++" block, a generic lambda), or with --every-place in each of
them. With --split, each refusal is a program of its own (then an exit
status of 0 is caught case by case).

Usage:
    scope_corpus.py --seed 1 --count 60 --per-tu 30 --out DIR
    scope_corpus.py --seed 1 --refusals [--split] [--every-place] --out DIR
    scope_corpus.py --check-refusals TOOL DIR [-- CLANG ARGS]

writes DIR/scope_s<seed>_<first case>.cpp (DIR/refusals_s<seed>*.cpp) and
DIR/scope.json (the cases of each file: id, lines, kind, idioms).
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from warpgenlib import harness  # noqa: E402
from warpgenlib.kernel import weighted  # noqa: E402


# ---------------------------------------------------------------------------
# The cases' shared frame
# ---------------------------------------------------------------------------

PROLOGUE = r"""#include <hpp/hpp.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <string>
#include <utility>
#include <vector>

using namespace hpp;

""" + harness.registry("sc", "Case") + harness.checks("sc")

EPILOGUE = harness.main_function("sc", "Case")

# The ways a body is launched. Each computes out[e] = EXPR(e) for e < n.
CONSTRUCTS = (("pfor", 30), ("pfor-local", 15), ("pfor-dist", 15), ("task", 25),
              ("channel", 15))


def indent(lines, pad):
    return [pad + s if s else "" for s in lines]


class Case:
    """One generated case: its random choices, names and idioms."""

    def __init__(self, seed, cid, kind):
        self.id = cid
        self.kind = kind
        self.rng = random.Random("scope-corpus:%s:%d" % (seed, cid))
        self.idioms = []
        self.pre = []  # namespace-scope lines before the runner
        self.post = []  # lines after the registration (#undefs)
        self.construct = weighted(self.rng, CONSTRUCTS)
        self.index_auto = False  # the body's Index parameter is `auto`
        self.darray_auto = False  # its BoundDistArray parameter is `auto`
        self.batch = "std::vector<int>"  # a consumer's batch parameter
        self.launch_pre = []  # host lines just before the launch
        self.prefix = ""  # text before `parallelFor(` on its line
        self.lambda_prefix = ""  # text before the body's lambda
        self.body_comment = ""  # a comment on the lambda's line
        self.may_refuse = None  # why the tool may refuse the case (documented limits)

    def pick(self, *options):
        return self.rng.choice(options)

    def chance(self, p):
        return self.rng.random() < p

    def idiom(self, what, how):
        self.idioms.append("%s=%s" % (what, how))

    def nm(self, base):
        """A name unique to this case."""
        return "%s%d" % (base, self.id)

    def shape(self):
        """(n, L): elements and work-group size of the launch."""
        L = self.pick(32, 64, 128)
        groups = self.pick(1, 2, 3)
        if self.construct in ("pfor-dist", "channel"):
            return L * groups, L
        return L * groups - self.pick(0, 0, self.rng.randrange(1, L)), L


def subst(text, i):
    return text.replace("{i}", i)


def launch(c, out, n, L, expr, body_pre=(), captures="=", pad=""):
    """Lines that compute out[e] = expr(e) for e < n with c.construct.

    `expr` and `body_pre` (device lines before it) use {i} for the
    element's index as an int."""
    idx = "auto" if c.index_auto else None
    lines = list(c.launch_pre)
    pf = c.prefix + "parallelFor("
    lam = c.lambda_prefix + "[%s]" % captures
    note = " " + c.body_comment if c.body_comment else ""
    k = c.construct
    if k == "pfor":
        i = "int(i.getX())"
        lines.append("%sRange<1>(%s), %s(%s i) __device(hpp) {%s" % (pf, n, lam, idx or "Index<1>", note))
        lines += indent([subst(s, i) for s in body_pre], "  ")
        lines.append("  %s[i.getX()] = %s;" % (out, subst(expr, i)))
        lines.append("});")
    elif k == "pfor-local":
        i = c.pick("int(i.getX())", "int(i.getGroupX() * i.getLocalSizeX() + i.getLocalX())")
        lines.append("%sRange<1, 1>(%s, %d), %s(%s i) __device(hpp) {%s" % (
            pf, n, L, lam, idx or "Index<1, 1>", note))
        lines.append("  const int scE = %s;" % i)
        lines += indent([subst(s, "scE") for s in body_pre], "  ")
        lines.append("  %s[scE] = %s;" % (out, subst(expr, "scE")))
        lines.append("});")
    elif k == "pfor-dist":
        darr, reg = c.nm("scDarr"), c.nm("scReg")
        lines += ["DistArray<int> %s;" % darr,
                  "Region<int> %s = %s.allocRegion(%d);" % (reg, darr, L)]
        aty = "auto" if c.darray_auto else "BoundDistArray<int>"
        lines.append("%sRange<1, 1>(%s, %d), %s, %s(%s i, %s a) __device(hpp) {%s" % (
            pf, n, L, darr, lam, idx or "Index<1, 1>", aty, note))
        seg = "auto" if c.darray_auto and c.chance(0.5) else "Segment<int>"
        lines.append("  %s s = a(%s);" % (seg, reg))
        lines.append("  const int scE = int(i.getX()), scL = int(i.getLocalX());")
        lines += indent([subst(s, "scE") for s in body_pre], "  ")
        lines.append("  s[scL] = %s;" % subst(expr, "scE"))
        lines.append("  s.barrier();")
        lines.append("  const int scO = (scL + 1) %% %d;" % L)
        lines.append("  %s[scE - scL + scO] = s[scO];" % out)
        lines.append("});")
    elif k == "task":
        t, r = c.nm("scTask"), c.nm("scRes")
        form = c.pick("paren", "paren", "brace", "auto")
        ity = idx or "Index<1>"
        head = "[%s](%s i) __device(hpp) -> int {%s" % (captures, ity, note)
        if form == "paren":
            lines.append("Task<int, Index<1>> %s(%s%s" % (t, c.lambda_prefix, head))
        elif form == "brace":
            lines.append("Task<int, Index<1>> %s{%s%s" % (t, c.lambda_prefix, head))
        else:
            lines.append("auto %s = Task<int, Index<1>>(%s%s" % (t, c.lambda_prefix, head))
        c.idiom("task", form)
        lines += indent([subst(s, "int(i.getX())") for s in body_pre], "  ")
        lines.append("  return %s;" % subst(expr, "int(i.getX())"))
        lines.append("});" if form != "brace" else "}};")
        lines.append("std::vector<int> %s = %s.enqueue(Range<1>(%s)).get();" % (r, t, n))
        lines.append("for (int scE = 0; scE < %s; ++scE)" % n)
        lines.append("  %s[scE] = %s[scE];" % (out, r))
    elif k == "channel":
        ch = c.nm("scChan")
        K = c.pick(8, 16, 32)
        while L % K:
            K //= 2
        cap = K * c.pick(1, 2, 4)
        lines.append("Channel<int> %s(%d);" % (ch, cap))
        lines.append("%s.executeWith(" % ch)
        lines.append("    [=](Channel<int> *c) -> bool __device(coord) { return c->size() >= %d; }," % K)
        bty = "auto" if c.index_auto else "Index<1>"
        lines.append("    Range<1>(%d), %s(%s j, %s data) __device(hpp) {%s" % (
            K, lam, bty, c.batch, note))
        lines.append("      const int scV = data[j.getX()];")
        lines += indent([subst(s, "scV") for s in body_pre], "      ")
        lines.append("      %s[scV] = %s;" % (out, subst(expr, "scV")))
        lines.append("    });")
        lines.append("%sRange<1>(%s), [=, &%s](Index<1> i) __device(hpp) {" % (pf, n, ch))
        lines.append("  %s.write(int(i.getX()));" % ch)
        lines.append("});")
        c.idiom("channel", "batches of %d, capacity %d, %s" % (K, cap, c.batch))
    c.idiom("construct", k + (" auto index" if c.index_auto else "")
            + (" auto darray" if c.darray_auto else ""))
    return indent(lines, pad)


def host_check(c, out, n, expr, host_pre=(), pad="", want="scWant"):
    """Lines that compute the wanted values where the body is written."""
    lines = ["std::vector<long long> %s(%s);" % (want, n),
             "for (int e = 0; e < %s; ++e) {" % n]
    lines += indent([subst(s, "e") for s in host_pre], "  ")
    lines += ["  %s[e] = (long long)(%s);" % (want, subst(expr, "e")), "}"]
    return indent(lines, pad)


def got_check(c, out, n, pad="", want="scWant", extra=()):
    """Lines that compare out with the wanted values (and `extra` lines
    that add to both first)."""
    return indent(["std::vector<long long> scGot(%s);" % n,
                   "for (int e = 0; e < %s; ++e)" % n,
                   "  scGot[e] = %s[e];" % out] + list(extra) +
                  ["scCheck(%d, scGot, %s);" % (c.id, want)], pad)


# ---------------------------------------------------------------------------
# Placements: where the function holding the launch is
# ---------------------------------------------------------------------------

def place(c, body, allowed=None):
    """Wraps `body` (the lines of a function taking `Pointer<int> out, int
    n`) in a placement; returns (definition lines, call text)."""
    options = allowed or ("static", "namespace", "anonymous-namespace", "nested-namespace",
                          "inline-namespace", "static-member", "member-out-of-class",
                          "nested-class", "class-template", "function-template",
                          "host-lambda", "generic-lambda", "extern-cxx-function", "constructor")
    p = c.pick(*options)
    c.idiom("placement", p)
    f = c.nm("scRunner")
    sig = "(Pointer<int> out, int n)"
    b = indent(body, "  ")
    if p == "static":
        return ["static void %s%s {" % (f, sig)] + b + ["}"], "%s(out, n);" % f
    if p == "namespace":
        ns = c.nm("sc_ns")
        return (["namespace %s {" % ns, "void %s%s {" % (f, sig)] + b +
                ["}", "} // namespace %s" % ns], "%s::%s(out, n);" % (ns, f))
    if p == "anonymous-namespace":
        return (["namespace {", "void %s%s {" % (f, sig)] + b + ["}", "} // namespace"],
                "%s(out, n);" % f)
    if p == "nested-namespace":
        ns = c.nm("sc_outer")
        return (["namespace %s::inner {" % ns, "void %s%s {" % (f, sig)] + b +
                ["}", "} // namespace %s::inner" % ns], "%s::inner::%s(out, n);" % (ns, f))
    if p == "inline-namespace":
        ns = c.nm("sc_ins")
        return (["namespace %s {" % ns, "inline namespace v1 {", "void %s%s {" % (f, sig)] + b +
                ["}", "} // namespace v1", "} // namespace %s" % ns], "%s::%s(out, n);" % (ns, f))
    cls = c.nm("ScHolder")
    if p == "static-member":
        return (["struct %s {" % cls, "  static void run%s {" % sig] + indent(b, "  ") +
                ["  }", "};"], "%s::run(out, n);" % cls)
    if p == "member-out-of-class":
        return (["class %s {" % cls, "public:", "  void run%s;" % sig, "};",
                 "void %s::run%s {" % (cls, sig)] + b + ["}"], "%s().run(out, n);" % cls)
    if p == "nested-class":
        return (["struct %s {" % cls, "  struct Inner {", "    void run%s const {" % sig] +
                indent(b, "    ") + ["    }", "  };", "};"], "%s::Inner().run(out, n);" % cls)
    if p == "class-template":
        return (["template <typename U> struct %s {" % cls, "  void run%s {" % sig] +
                indent(b, "  ") + ["  }", "};"], "%s<%s>().run(out, n);" % (
                    cls, c.pick("int", "long", "float")))
    if p == "function-template":
        return (["template <typename T> void %s(Pointer<T> out, int n) {" % f] + b + ["}"],
                "%s<int>(out, n);" % f)
    if p == "host-lambda":
        return ([], None, ["auto scGo = [&]() {"] + b + ["};", "scGo();"])
    if p == "generic-lambda":
        # A template: its call operator's parameters are `auto`.
        return ([], None, ["auto scGo = [](auto out, auto n) {"] + b + ["};", "scGo(out, n);"])
    if p == "extern-cxx-function":
        return (['extern "C++" {', "void %s%s {" % (f, sig)] + b + ["}", '} // extern "C++"'],
                "%s(out, n);" % f)
    if p == "constructor":
        return (["struct %s {" % cls, "  %s%s {" % (cls, sig)] + indent(b, "  ") +
                ["  }", "};"], "%s scObj(out, n);\n  (void)scObj;" % cls)
    raise AssertionError(p)


def case_unit(c, body, allowed=None, n=None, pad_entry=()):
    """The unit of a case whose runner is `body` (a function of out, n):
    the placement, then the entry that allocates `out` and calls it."""
    placed = place(c, body, allowed)
    entry = ["static void %s() {" % c.nm("scRun"),
             "  const int n = %d;" % n,
             "  Pointer<int> out = allocate<int>(n);",
             "  try {"]
    entry += indent(list(pad_entry), "    ")
    if len(placed) == 3:  # in a host lambda of the entry
        entry += indent(placed[2], "    ")
        defs = []
    else:
        defs, call = placed
        entry += indent(call.split("\n"), "    ")
    entry += ["  } catch (const hpp::RuntimeError &E) {",
              "    scError(%d, E.what());" % c.id,
              "  } catch (const std::exception &E) {",
              "    scError(%d, E.what());" % c.id,
              "  }",
              "  deallocate(out);",
              "}"]
    return defs + [""] + entry


def simple_body(c, n, L, expr, decls=(), body_pre=(), host_pre=(), captures="="):
    """The usual runner: declarations, the wanted values, the launch, the
    check."""
    return (list(decls) + host_check(c, "out", "n", expr, host_pre) +
            launch(c, "out", "n", L, expr, body_pre, captures) + got_check(c, "out", "n"))


# ---------------------------------------------------------------------------
# The kinds
# ---------------------------------------------------------------------------

def kind_extern_cxx(c):
    """Types, constants and functions declared in an `extern "C++"` block,
    the launch inside the block or after it."""
    n, L = c.shape()
    pt, k, f = c.nm("ScPt"), c.nm("kSc"), c.nm("scTwice")
    spec = c.pick("__device(hpp) inline", "inline", "constexpr", "__device(hpp) constexpr")
    kdecl = c.pick("constexpr int %s = %d;", "const int %s = %d;", "enum { %s = %d };",
                   "static const int %s = %d;") % (k, c.rng.randrange(2, 9))
    nested = c.chance(0.3)
    blk = ['extern "C++" {']
    q = ""
    if nested:
        ns = c.nm("sc_cxx")
        blk.append("namespace %s {" % ns)
        q = ns + "::"
    blk += ["struct %s {" % pt, "  int x, y;", "  struct Inner {", "    int v;", "  };", "};", kdecl,
            "%s int %s(int x) { return 2 * x + 1; }" % (spec, f)]
    if nested:
        blk.append("} // namespace %s" % ns)
    c.idiom("extern-c++", "%s%s; constant %s" % ("namespace, " if nested else "", spec,
                                                  kdecl.split()[0]))
    expr = "%s%s({i}) + %s%s * pt.x + pt.y" % (q, f, q, k)
    decls = ["%s%s pt{%d, %d};" % (q, pt, c.rng.randrange(1, 9), c.rng.randrange(-5, 5))]
    if c.chance(0.35):
        # A capture of a nested class type (the kernel may become a
        # template over it, which C linkage does not allow).
        decls.append("%s%s::Inner in{%d};" % (q, pt, c.rng.randrange(1, 9)))
        expr += " + in.v"
        c.idiom("nested type", "captured")
    body = simple_body(c, n, L, expr, decls)
    inside = c.chance(0.5)
    if inside:
        # The runner inside the block too.
        c.idiom("runner", "inside the block")
        r = c.nm("scRunner")
        blk += ["void %s(Pointer<int> out, int n) {" % r] + indent(body, "  ") + ["}"]
        blk.append('} // extern "C++"')
        return c.pre + blk + [""] + entry_calling(c, n, "%s(out, n);" % r)
    blk.append('} // extern "C++"')
    return c.pre + blk + [""] + case_unit(c, body, n=n)


def entry_calling(c, n, call):
    return ["static void %s() {" % c.nm("scRun"),
            "  const int n = %d;" % n,
            "  Pointer<int> out = allocate<int>(n);",
            "  try {"] + indent(call.split("\n"), "    ") + [
            "  } catch (const hpp::RuntimeError &E) {",
            "    scError(%d, E.what());" % c.id,
            "  } catch (const std::exception &E) {",
            "    scError(%d, E.what());" % c.id,
            "  }",
            "  deallocate(out);",
            "}"]


def kind_extern_c(c):
    """A C struct, a typedef, an enum, a constant and a function in an
    `extern "C"` block (or a one-declaration `extern "C"`); the launch in a
    C-linkage function or after the block."""
    n, L = c.shape()
    pt, f, k = c.nm("sc_pt"), c.nm("sc_twice"), c.nm("SC_K")
    ty = c.pick("struct %s" % pt, "%s_t" % pt)
    spec = c.pick("__device(hpp) inline", "inline", "static inline", "__device(hpp) static inline")
    blk = ['extern "C" {',
           "struct %s {" % pt, "  int x;", "  short y;", "  struct inner {", "    int v;", "  };", "};",
           "typedef struct %s %s_t;" % (pt, pt),
           "enum { %s = %d };" % (k, c.rng.randrange(2, 9)),
           "static const int %s_c = %d;" % (k, c.rng.randrange(1, 5)),
           "%s int %s(int x) { return 3 * x - 1; }" % (spec, f)]
    single = c.chance(0.25)
    if single:
        # Each declaration on its own.
        blk = ['extern "C" struct %s {' % pt, "  int x;", "  short y;", "  struct inner {",
               "    int v;", "  };", "};",
               'extern "C" typedef struct %s %s_t;' % (pt, pt),
               "enum { %s = %d };" % (k, c.rng.randrange(2, 9)),
               "static const int %s_c = %d;" % (k, c.rng.randrange(1, 5)),
               'extern "C" %s int %s(int x) { return 3 * x - 1; }' % (
                   spec.replace("static ", ""), f)]
    c.idiom("extern-c", "%s; %s; %s" % ("single declarations" if single else "block", spec, ty))
    expr = "%s({i}) + %s * pt.x + pt.y + %s_c" % (f, k, k)
    decls = ["%s pt = {%d, %d};" % (ty, c.rng.randrange(1, 9), c.rng.randrange(-5, 5))]
    if c.chance(0.35):
        # A capture of a nested class type (the kernel may become a
        # template over it, which C linkage does not allow).
        decls.append("%s::inner in = {%d};" % (pt, c.rng.randrange(1, 9)))
        expr += " + in.v"
        c.idiom("nested type", "captured")
    body = simple_body(c, n, L, expr, decls)
    if not single and c.chance(0.5):
        # The runner has C linkage (its parameters are C++ types: allowed).
        c.idiom("runner", "extern \"C\" function")
        r = c.nm("sc_runner")
        blk += ["void %s(hpp::Pointer<int> out, int n) {" % r] + indent(body, "  ") + ["}"]
        blk.append('} // extern "C"')
        return blk + [""] + entry_calling(c, n, "%s(out, n);" % r)
    if not single:
        blk.append('} // extern "C"')
    return blk + [""] + case_unit(c, body, n=n)


TYPES = (("int", "3", "int"), ("long", "4L", "long"), ("short", "short(2)", "short"),
         ("unsigned", "5u", "unsigned"), ("float", "1.5f", "float"), ("double", "2.25", "double"),
         ("long long", "6LL", "long long"))


def kind_dependent_alias(c):
    """A function template whose captures are typed through a dependent
    member alias (`using V = typename Traits<T>::value_type;`), an alias
    template and `decltype(v)`; instantiated with two or three types."""
    n, L = c.shape()
    tr, f = c.nm("ScTraits"), c.nm("scTemplated")
    scale = c.rng.randrange(2, 6)
    c.pre += ["template <typename T> struct %s {" % tr,
              "  using value_type = T;",
              "  typedef T other_type;",
              "  static constexpr int scale = %d;" % scale,
              "};"]
    alias = c.pick("using", "typedef", "alias-template")
    if alias == "using":
        vdecl = "using V = typename %s<T>::value_type;" % tr
    elif alias == "typedef":
        vdecl = "typedef typename %s<T>::other_type V;" % tr
    else:
        at = c.nm("ScValueOf")
        c.pre += ["template <typename T> using %s = typename %s<T>::value_type;" % (at, tr)]
        vdecl = "using V = %s<T>;" % at
    c.idiom("alias", alias)
    wform = c.pick("decltype(v) w = v + V(1);", "decltype(v + v) w = v + V(1);",
                   "const decltype(v) w = v + V(1);")
    c.idiom("decltype", wform.split(" w")[0])
    useT = c.chance(0.5)
    expr = "int(v * V({i} %% 7)) + int(w) + %s<T>::scale" % tr
    body_pre = []
    if c.chance(0.5):
        body_pre = ["V scT = v;", "decltype(w) scU = w;"]
        expr = "int(scT * V({i} %% 7)) + int(scU) + %s<T>::scale" % tr
        c.idiom("body", "declares V and decltype(w) locals")
    if useT:
        expr += " + int(sizeof(T))"
    decls = [vdecl, "V v = V(seed);", wform]
    # Each instantiation adds its values to the case's one check.
    body = (["const int n = %d;" % n, "Pointer<int> out = allocate<int>(n);"] + decls +
            host_check(c, "out", "n", expr, body_pre) +
            launch(c, "out", "n", L, expr, body_pre) +
            ["for (int e = 0; e < n; ++e) {",
             "  scWantAll.push_back(scWant[e]);",
             "  scGotAll.push_back(out[e]);",
             "}",
             "deallocate(out);"])
    fn = (["template <typename T>",
           "void %s(std::vector<long long> &scWantAll, std::vector<long long> &scGotAll, "
           "T seed) {" % f] + indent(body, "  ") + ["}"])
    types = c.rng.sample(TYPES, c.pick(2, 3))
    c.idiom("types", ", ".join(t[0] for t in types))
    calls = ["std::vector<long long> scWant, scGot;"]
    calls += ["%s<%s>(scWant, scGot, %s);" % (f, t[0], t[1]) for t in types]
    calls.append("scCheck(%d, scGot, scWant);" % c.id)
    return c.pre + fn + [""] + entry_lines(c, calls)


def entry_lines(c, lines):
    """The entry of a case that allocates nothing itself."""
    return ["static void %s() {" % c.nm("scRun"), "  try {"] + indent(lines, "    ") + [
        "  } catch (const hpp::RuntimeError &E) {",
        "    scError(%d, E.what());" % c.id,
        "  } catch (const std::exception &E) {",
        "    scError(%d, E.what());" % c.id,
        "  }",
        "}"]


def kind_generic_lambda(c):
    """A generic lambda `[](auto p, auto v) { parallelFor(...); }` called
    with two or more types, in a function or at namespace scope."""
    n, L = c.shape()
    at_ns = c.chance(0.3)
    g = c.nm("scGeneric")
    capture_n = not at_ns and c.chance(0.5)
    params = "auto p, auto v" + ("" if capture_n else ", int n")
    expr = "int(v * ({i} % 5)) + int(sizeof(v))"
    body_pre = []
    if c.chance(0.4):
        body_pre = ["decltype(v) scW = v + decltype(v)(1);"]
        expr = "int(scW * ({i} % 5)) + int(sizeof(v))"
        c.idiom("body", "decltype(v) local")
    # The want is computed by the caller for each v.
    inner = launch(c, "p", "n", L, expr, body_pre)
    lam = ["[%s](%s) {" % ("&" if capture_n else "", params)] + indent(inner, "  ") + ["}"]
    types = c.rng.sample(TYPES, c.pick(2, 3))
    c.idiom("generic-lambda", "%s, called with %s" % (
        "namespace scope" if at_ns else ("captures n" if capture_n else "in the function"),
        ", ".join(t[0] for t in types)))
    lines = []
    if at_ns:
        lines += ["static auto %s = %s" % (g, lam[0])] + lam[1:-1] + ["};"]
    body = ["const int n = %d;" % n]
    if not at_ns:
        body += ["auto %s = %s" % (g, lam[0])] + lam[1:-1] + ["};"]
    body += ["std::vector<long long> scWant, scGot;"]
    for t in types:
        body += ["{",
                 "  Pointer<int> p = allocate<int>(n);",
                 "  %s v = %s;" % (t[0], t[1]),
                 "  %s(p, v%s);" % (g, "" if capture_n else ", n"),
                 "  for (int e = 0; e < n; ++e) {"]
        body += indent([subst(s, "e") for s in body_pre], "    ")
        body += ["    scWant.push_back((long long)(%s));" % subst(expr, "e"),
                 "    scGot.push_back(p[e]);",
                 "  }",
                 "  deallocate(p);",
                 "}"]
    body.append("scCheck(%d, scGot, scWant);" % c.id)
    return lines + entry_lines(c, body)


def kind_auto_params(c):
    """Bodies whose parameters are `auto`: the Index, and the
    BoundDistArray of a DistArray launch (and `auto s = a(r)`)."""
    if c.construct == "pfor-local" or c.chance(0.4):
        c.construct = "pfor-dist"
    n, L = c.shape()
    what = c.pick("index", "darray", "both") if c.construct == "pfor-dist" else "index"
    c.index_auto = what in ("index", "both")
    c.darray_auto = what in ("darray", "both")
    if c.construct == "channel" and c.index_auto and c.chance(0.5):
        c.batch = "Span<int>"
    k = c.rng.randrange(2, 9)
    expr = "{i} * %d + 1" % k
    return case_unit(c, simple_body(c, n, L, expr), n=n)


def kind_macro_helper(c):
    """Device helpers defined by a macro (`#define DEF(name, f) inline int
    name(int x) { return x * (f); }`), called from the body."""
    n, L = c.shape()
    m = c.nm("SC_DEF")
    spec = c.pick("__device(hpp) inline", "inline", "constexpr", "static inline",
                  "__device(hpp) static inline")
    form = c.pick("plain", "plain", "paste", "template")
    a, b = c.rng.randrange(2, 6), c.rng.randrange(1, 4)
    if form == "plain":
        c.pre += ["#define %s(name, f) %s int name(int x) { return x * (f); }" % (m, spec),
                  "%s(%s, %d)" % (m, c.nm("scTriple"), a),
                  "%s(%s, %d + %d)" % (m, c.nm("scMore"), b, a)]
        expr = "%s({i}) + %s(2)" % (c.nm("scTriple"), c.nm("scMore"))
    elif form == "paste":
        c.pre += ["#define %s(suffix, f) %s int scMul%d_##suffix(int x) { return x * (f); }" % (
            m, spec, c.id),
            "%s(a, %d)" % (m, a), "%s(b, %d)" % (m, b)]
        expr = "scMul%d_a({i}) - scMul%d_b(3)" % (c.id, c.id)
    else:
        tspec = spec.replace("static ", "")
        c.pre += ["#define %s(name, f) template <typename T> %s T name(T x) { return x * T(f); }" % (
            m, tspec),
            "%s(%s, %d)" % (m, c.nm("scTimes"), a)]
        expr = "%s({i}) + int(%s(1.5f))" % (c.nm("scTimes"), c.nm("scTimes"))
    if c.chance(0.3):
        # The macro also defines a second-level helper through another.
        m2 = c.nm("SC_WRAP")
        c.pre += ["#define %s(name, g) %s int name(int x) { return g(x) + 1; }" % (m2, spec.replace(
            "constexpr", "inline")),
            "%s(%s, %s)" % (m2, c.nm("scWrapped"), expr.split("(")[0])]
        expr = "%s({i})" % c.nm("scWrapped")
        c.post.append("#undef %s" % m2)
        c.idiom("nested", "a macro-defined helper calling another")
    c.post.append("#undef %s" % m)
    if "__device(hpp)" not in spec:
        # The tool marks an implicit device function by editing its
        # declaration, which it cannot always do inside a macro.
        c.may_refuse = "a device helper a macro defines without __device(hpp)"
    c.idiom("macro-helper", "%s, %s" % (form, spec))
    return c.pre + case_unit(c, simple_body(c, n, L, expr), n=n) + c.post


def kind_local_macros(c):
    """Macros #defined, #undef'd and redefined inside the enclosing function
    before the body (object-like, function-like, one expanding another),
    and again after the launch; some shadow a file-scope definition."""
    n, L = c.shape()
    A, B, F, G, N = (c.nm(x) for x in ("SC_A", "SC_B", "SC_F", "SC_G", "SC_N"))
    a_file, a_fn = c.rng.randrange(2, 9), c.rng.randrange(10, 19)
    b, nb = c.rng.randrange(1, 6), c.pick(2, 3, 4)
    file_scope = c.chance(0.6)
    if file_scope:
        c.pre += ["#define %s %d" % (A, a_file), "#define %s(x) ((x) - 1000)" % F]
    defs = []
    if file_scope:
        defs += ["#undef %s" % A, "#undef %s" % F]
    defs += ["#define %s %d" % (A, a_fn),
             "#define %s(x) ((x) * %s + %s)" % (F, A, B)]
    nested = c.chance(0.6)
    if nested:
        defs += ["#define %s(x) (%s(x) - %s)" % (G, F, A)]
    defs += ["#define %s %d" % (B, b)]
    if c.chance(0.5):
        # Redefined once more before the body: the last one counts.
        defs += ["#undef %s" % B, "#define %s %d" % (B, b + 7)]
        c.idiom("redefined", "twice in the function")
    defs += ["#define %s %d" % (N, nb)]
    call = "%s({i})" % (G if nested else F)
    expr = "%s + %s + scBuf[%s - 1]" % (call, A, N)
    body_pre = ["int scBuf[%s];" % N, "scBuf[%s - 1] = %s;" % (N, B)]
    if c.chance(0.35):
        # A conditional inside the body on a redefined macro.
        body_pre += ["#if %s > 12" % A, "scBuf[%s - 1] += 100;" % N, "#else",
                     "scBuf[%s - 1] -= 100;" % N, "#endif"]
        c.idiom("body", "#if on a redefined macro")
    host_pre, host_expr = list(body_pre), expr
    after_use = []
    if c.chance(0.3):
        # A macro #defined inside the body, used by the host after it.
        IN, v = c.nm("SC_IN"), c.rng.randrange(2, 9)
        body_pre = ["#define %s %d" % (IN, v)] + body_pre
        expr += " + %s" % IN
        host_expr += " + %d" % v
        after_use = ["static_assert(%s == %d, \"defined in the body\");" % (IN, v),
                     "#undef %s" % IN]
        c.idiom("body", "#defines a macro the host uses after it")
        c.may_refuse = "a body that #defines or #undefs a macro"
    extra = []
    if c.chance(0.3):
        # A macro the body redefines: the host after the body sees the
        # body's definition (as the preprocessor reads the file).
        RB, v1, v2 = c.nm("SC_RB"), c.rng.randrange(2, 9), c.rng.randrange(10, 19)
        defs += ["#define %s %d" % (RB, v1)]
        body_pre = ["#undef %s" % RB, "#define %s %d" % (RB, v2)] + body_pre
        expr += " + %s" % RB
        host_expr += " + %d" % v2
        extra = ["scGot.push_back(%s);" % RB, "scWant.push_back(%d);" % v2]
        after_use += ["#undef %s" % RB]
        c.idiom("body", "redefines a macro the host reads after it")
        c.may_refuse = "a body that #defines or #undefs a macro"
    c.idiom("macros", "%s; %s" % ("shadow file-scope" if file_scope else "function only",
                                  "nested" if nested else "flat"))
    after = ["#undef %s" % A, "#define %s %d" % (A, a_fn + 100),
             "#undef %s" % B, "#define %s 0" % B]
    body = (["#" + d[1:] for d in defs] +
            host_check(c, "out", "n", host_expr, host_pre) +
            launch(c, "out", "n", L, expr, body_pre) + after + got_check(c, "out", "n", extra=extra) +
            after_use +
            ["#undef %s" % x for x in (A, B, F, N)] + (["#undef %s" % G] if nested else []))
    if file_scope:
        body += ["#define %s %d" % (A, a_file), "#define %s(x) ((x) - 1000)" % F]
        c.post += ["#undef %s" % A, "#undef %s" % F]
    # Preprocessor lines stay in column 0 after indenting.
    unit = c.pre + case_unit(c, body, n=n) + c.post
    return [l.lstrip() if l.lstrip().startswith("#") else l for l in unit]


def kind_local_constants(c):
    """Function-local constants read by the body without capture: from a
    macro, used as an array bound and as a value, one chosen by #ifdef, in
    an if-init statement or an enclosing block, shadowing a namespace-scope
    constant of the same name."""
    n, L = c.shape()
    M, W = c.nm("SC_M"), c.nm("SC_WIDE")
    m = c.rng.randrange(2, 6)
    c.pre += ["#define %s %d" % (M, m)]
    c.post += ["#undef %s" % M]
    K, J = c.nm("K"), c.nm("J")
    shadow = c.chance(0.4)
    if shadow:
        c.pre += ["constexpr int %s = 1000; // shadowed by the runner's %s" % (K, K)]
    defined = c.chance(0.5)
    ctype = c.pick("const int", "constexpr int", "const long", "const unsigned", "static const int",
                   "const short", "constexpr std::size_t", "static constexpr int",
                   "static const unsigned")
    head = ["#define %s" % W] if defined else []
    if defined:
        c.post.append("#undef %s" % W)
    decls = ["%s %s = %s * 2;" % (ctype, K, M),
             "#ifdef %s" % W, "const int %s = %d;" % (J, m + 7), "#else",
             "const int %s = %d;" % (J, m + 1), "#endif",
             "constexpr long KJ = %s * %s;" % (K, J),
             "const bool Flag = %s;" % c.pick("true", "false"),
             "constexpr double Half = %s;" % c.pick("0.5", "1.0 / 4", "0x1.8p-1")]
    expr = ("int(scBuf[%s - 1]) + int(KJ) + (Flag ? %s : -%s) + int(Half * 8) + int(%s)"
            % (K, J, J, K))
    body_pre = ["long scBuf[%s];" % K, "scBuf[%s - 1] = {i} * %s;" % (K, J)]
    block = c.pick("none", "none", "block", "if-init")
    c.idiom("constants", "%s K; #ifdef %s; %s%s" % (
        ctype, "defined" if defined else "undefined", block,
        "; shadows a namespace constant" if shadow else ""))
    inner = host_check(c, "out", "n", expr, body_pre) + launch(c, "out", "n", L, expr, body_pre) + \
        got_check(c, "out", "n")
    if block == "block":
        body = head + decls[:1] + ["{"] + indent(decls[1:] + inner, "  ") + ["}"]
    elif block == "if-init":
        body = head + decls[:-1] + ["if (%s; Half > 0) {" % decls[-1][:-1]] + indent(inner, "  ") + ["}"]
    else:
        body = head + decls + inner
    unit = c.pre + case_unit(c, body, n=n) + c.post
    return [l.lstrip() if l.lstrip().startswith("#") else l for l in unit]


def kind_try_catch(c):
    """try/catch in host code around a launch: a try block, a function-try-
    block, the launch in a handler, nested tries, a try in a host lambda."""
    n, L = c.shape()
    k = c.rng.randrange(2, 9)
    expr = "{i} * %d - 3" % k
    want = host_check(c, "out", "n", expr)
    core = launch(c, "out", "n", L, expr)
    got = got_check(c, "out", "n")
    form = c.pick("try", "function-try", "in-handler", "nested", "lambda")
    c.idiom("try", form)
    catch = ["} catch (const hpp::RuntimeError &E) {", "  scError(%d, E.what());" % c.id,
             "  return;", "}"]
    if form == "try":
        body = want + ["try {"] + indent(core, "  ") + catch + got
    elif form == "nested":
        body = want + ["try {", "  try {"] + indent(core, "    ") + [
            "  } catch (const std::bad_alloc &) {", "    throw;", "  }"] + catch + got
    elif form == "in-handler":
        body = want + ["try {", "  throw %d;" % k, "} catch (int scCaught) {",
                       "  (void)scCaught;"] + indent(core, "  ") + ["}"] + got
    elif form == "lambda":
        body = want + ["auto scInner = [&]() {", "  try {"] + indent(core, "    ") + [
            "  } catch (...) {", "    throw;", "  }", "};", "scInner();"] + got
    else:
        # A function-try-block: the whole runner.
        f = c.nm("scRunner")
        fn = ["static void %s(Pointer<int> out, int n) try {" % f] + indent(
            want + core + got, "  ") + [
            "} catch (const hpp::RuntimeError &E) {", "  scError(%d, E.what());" % c.id, "}"]
        return fn + [""] + entry_calling(c, n, "%s(out, n);" % f)
    return case_unit(c, body, n=n)


# Raw bytes that are not UTF-8 are written through surrogateescape.
LATIN1 = "\udce9\udcfc"  # the bytes 0xE9 0xFC


def kind_encodings(c):
    """UTF-8 and non-UTF-8 bytes in string and character literals in a body
    and around it: comments, text before the launch and the lambda on
    their lines, strings the host uses."""
    n, L = c.shape()
    raw = c.chance(0.4)
    texts = ["h\u00e9llo \u2713", "na\u00efve \u03a9", "\u65e5\u672c", "caf\u00e9 \U0001F600"]
    s = c.pick(*texts)
    if raw:
        s = s + LATIN1
    lit = (c.pick('"%s"', 'u8"%s"') if not raw else '"%s"') % s
    ch = c.pick("'\\xe9'", "'A'", "'\\377'")
    around = c.pick("comment", "prefix", "lambda-prefix", "line-comment")
    if around == "prefix":
        c.prefix = "/* \u00fcber %s */ " % ("\udcff" if raw else "\u2603")
    elif around == "lambda-prefix":
        c.lambda_prefix = "/* \u00c5 */ "
    elif around == "line-comment":
        c.body_comment = "// \u00e9t\u00e9 \u2603%s" % (" \udce9" if raw else "")
    c.launch_pre = ["// donn\u00e9es: \u00e9\u00e8 \u2014 \u2713%s" % (" \udcfe" if raw else "")]
    body_pre = ["const char scS[] = %s; // \u00e9" % lit,
                "const char scC = %s;" % ch]
    expr = "int((unsigned char)scS[{i} % int(sizeof(scS) - 1)]) + int((unsigned char)scC)"
    host = ["const char *scLabel = \"\u00e9t\u00e9 \u2713%s\";" % ("\udcfc" if raw else ""),
            "(void)scLabel;"]
    ident = c.chance(0.25)
    if ident:
        # A captured variable named in UTF-8 (C++ and clang accept it).
        host.append("const int gr\u00f6\u00dfe = %d;" % c.rng.randrange(2, 9))
        expr += " + gr\u00f6\u00dfe"
    c.idiom("encoding", "%s%s, around: %s%s" % (lit.split('"')[0] or "narrow",
                                                " with raw bytes" if raw else "", around,
                                                ", a UTF-8 identifier" if ident else ""))
    body = host + simple_body(c, n, L, expr, body_pre=body_pre, host_pre=body_pre)
    return case_unit(c, body, n=n)


def kind_task_forms(c):
    """Tasks made in unusual places: `std::vector<Task>::emplace_back(lambda)`,
    `push_back(Task(lambda))`, inside a host lambda kept in a `std::function`
    or an `auto` variable, an `auto` Task variable, a ternary of Tasks."""
    n, L = c.shape()
    k = c.rng.randrange(2, 9)
    expr = "{i} * %d + 2" % k
    lam = "[=](Index<1> i) __device(hpp) -> int { return %s; }" % subst(expr, "int(i.getX())")
    lam2 = "[=](Index<1> i) __device(hpp) -> int { return %s; }" % subst("{i} * 1000", "int(i.getX())")
    form = c.pick("emplace-back", "push-back", "std-function", "auto-lambda", "auto-task",
                  "ternary", "ternary-auto")
    c.idiom("task form", form)
    r = "scR"
    if form == "emplace-back":
        c.may_refuse = "a Task body must be written in the Task's construction"
        t = ["std::vector<Task<int, Index<1>>> scTs;", "scTs.emplace_back(%s);" % lam,
             "std::vector<int> %s = scTs[0].enqueue(Range<1>(n)).get();" % r]
    elif form == "push-back":
        t = ["std::vector<Task<int, Index<1>>> scTs;",
             "scTs.push_back(Task<int, Index<1>>(%s));" % lam,
             "std::vector<int> %s = scTs.back().enqueue(Range<1>(n)).get();" % r]
    elif form in ("std-function", "auto-lambda"):
        decl = ("std::function<std::vector<int>(int)> scJob =" if form == "std-function"
                else "auto scJob =")
        t = ["%s [=](int m) {" % decl,
             "  Task<int, Index<1>> t(%s);" % lam,
             "  return t.enqueue(Range<1>(m)).get();",
             "};",
             "std::vector<int> %s = scJob(n);" % r]
    elif form == "auto-task":
        t = ["auto t = Task<int, Index<1>>(%s);" % lam,
             "std::vector<int> %s = t.enqueue(Range<1>(n)).get();" % r]
    else:
        flag = c.pick("n > 0", "n % 2 == 0 || n > 0")
        ty = "Task<int, Index<1>>" if form == "ternary" else "auto"
        t = ["const bool scFlag = %s;" % flag,
             "%s t = scFlag ? Task<int, Index<1>>(%s)" % (ty, lam),
             "              : Task<int, Index<1>>(%s);" % lam2,
             "std::vector<int> %s = t.enqueue(Range<1>(n)).get();" % r]
    body = host_check(c, "out", "n", expr) + t + [
        "for (int e = 0; e < n; ++e)", "  out[e] = %s[e];" % r] + got_check(c, "out", "n")
    return case_unit(c, body, n=n)


def kind_task_results(c):
    """Task<bool>, Task<enum>, Task<struct> (and an enum or struct declared
    in a namespace, a class, an anonymous namespace or an extern "C"
    block)."""
    n, L = c.shape()
    what = c.pick("bool", "enum", "enum-class", "struct", "struct-init", "nested-struct")
    where = c.pick("global", "namespace", "anonymous-namespace", "extern-c")
    if what == "nested-struct":
        where = "class"
    c.idiom("task result", "%s, declared %s" % (what, where))
    T = c.nm("ScRes")
    decl, q = [], ""
    k = c.rng.randrange(2, 7)
    if what == "bool":
        R = "bool"
        ret = "{i} %% %d == 0" % k
        back = "int(scR[e])"
    elif what == "enum":
        decl = ["enum %s { %sA = 1, %sB = 7 };" % (T, T, T)]
        R = T
        ret = "({i} %% %d == 0) ? %sA : %sB" % (k, T, T)
        back = "int(scR[e])"
    elif what == "enum-class":
        decl = ["enum class %s : %s { A = 2, B = 9 };" % (T, c.pick("int", "short", "unsigned char", "long long"))]
        R = T
        ret = "({i} %% %d == 0) ? %s::A : %s::B" % (k, "{q}" + T, "{q}" + T)
        back = "int(scR[e])"
    else:
        init = " = 5" if what == "struct-init" else ""
        decl = ["struct %s {" % T, "  int a%s;" % init, "  float b;", "  bool c;", "};"]
        R = T
        ret = "%s{{i} * %d, 0.5f * float({i}), {i} %% 2 == 1}" % ("{q}" + T, k)
        back = "scR[e].a + int(scR[e].b * 2) + (scR[e].c ? 1000 : 0)"
    if what == "nested-struct":
        c.may_refuse = "a Task result type that is a class member"
        outer = c.nm("ScOuter")
        decl = ["struct %s {" % outer] + indent(decl, "  ") + ["};"]
        q = outer + "::"
    elif where == "namespace":
        ns = c.nm("sc_res_ns")
        decl = ["namespace %s {" % ns] + decl + ["} // namespace %s" % ns]
        q = ns + "::"
    elif where == "anonymous-namespace":
        decl = ["namespace {"] + decl + ["} // namespace"]
    elif where == "extern-c" and decl:
        decl = ['extern "C" {'] + [d.replace("enum class", "enum class") for d in decl] + ['}']
    ret = ret.replace("{q}", q)
    if what == "enum" and q:
        ret = ret.replace(T + "A", q + T + "A").replace(T + "B", q + T + "B")
    if R != "bool":
        R = q + R
    # The host's want: the same value through the same type.
    body = ["std::vector<long long> scWant(n);",
            "for (int e = 0; e < n; ++e) {",
            "  std::vector<%s> scR(e + 1);" % R,
            "  scR[e] = %s;" % subst(ret, "e"),
            "  scWant[e] = %s;" % back,
            "}"]
    ity = c.pick("Index<1>", "Index<1>", "auto")
    tform = c.pick("paren", "auto")
    lam = "[=](%s i) __device(hpp) -> %s {" % (ity, R)
    if tform == "paren":
        body.append("Task<%s, Index<1>> scT(%s" % (R, lam))
    else:
        body.append("auto scT = Task<%s, Index<1>>(%s" % (R, lam))
    body += ["  return %s;" % subst(ret, "int(i.getX())"), "});"]
    body += ["std::vector<%s> scR = scT.enqueue(Range<1>(n)).get();" % R,
             "for (int e = 0; e < n; ++e)",
             "  out[e] = %s;" % back] + got_check(c, "out", "n")
    allowed = None
    if where == "anonymous-namespace":
        allowed = ("static", "anonymous-namespace", "host-lambda")
    return decl + case_unit(c, body, allowed=allowed, n=n)


def kind_scopes(c):
    """Namespace-scope names the body uses from where it is placed: a
    namespace's constant, function and type, an anonymous namespace's, a
    static function, a class's static constexpr member and nested type."""
    n, L = c.shape()
    ns = c.nm("sc_lib")
    k = c.rng.randrange(2, 9)
    c.pre += ["namespace %s {" % ns,
              "constexpr int kScale = %d;" % k,
              "struct Pair {", "  int a, b;", "};",
              "__device(hpp) inline int mix(int x, int y) { return x * kScale + y; }",
              "namespace detail {",
              "inline int bump(int x) { return x + 1; }",
              "} // namespace detail",
              "} // namespace %s" % ns,
              "namespace {",
              "constexpr int %s = %d;" % (c.nm("kScAnon"), k + 1),
              "inline int %s(int x) { return x - 2; }" % c.nm("scAnonFn"),
              "} // namespace",
              "__device(hpp) static inline int %s(int x) { return x ^ 5; }" % c.nm("scStatic"),
              "struct %s {" % c.nm("ScK"),
              "  static constexpr int kValue = %d;" % (k + 2),
              "  struct Nested {", "    int v;", "  };",
              "};"]
    using = c.pick("qualified", "using-namespace", "using-declaration", "namespace-alias")
    decls = []
    q = ns + "::"
    if using == "using-namespace":
        decls = ["using namespace %s;" % ns]
        q = ""
    elif using == "using-declaration":
        decls = ["using %s::mix;" % ns]
    elif using == "namespace-alias":
        decls = ["namespace scL = %s;" % ns]
        q = "scL::"
    mix = "mix" if using in ("using-namespace", "using-declaration") else q + "mix"
    decls += ["%sPair pr{%d, %d};" % (q if using != "using-declaration" else ns + "::", k, 3),
              "%s::Nested nd{%d};" % (c.nm("ScK"), k * 3)]
    expr = ("%s({i}, pr.a) + pr.b + %s::detail::bump(%s) + %s(%s({i})) + %s::kValue + nd.v"
            % (mix, ns, c.nm("kScAnon"), c.nm("scStatic"), c.nm("scAnonFn"), c.nm("ScK")))
    c.idiom("scopes", using)
    body = simple_body(c, n, L, expr, decls)
    return c.pre + case_unit(c, body, allowed=("static", "anonymous-namespace", "host-lambda",
                                                "static-member", "function-template",
                                                "nested-class", "class-template",
                                                "member-out-of-class"), n=n)


def kind_capture_forms(c):
    """Capture lists and body forms: init-captures (renaming the Pointer,
    of an expression, of a struct), explicit capture lists, a `mutable`
    body that changes its copy, lambdas (generic ones too) nested in the
    body, a trailing `-> void`."""
    n, L = c.shape()
    k = c.rng.randrange(2, 9)
    pt = c.nm("ScCap")
    c.pre += ["struct %s {" % pt, "  int a, b;", "};"]
    form = c.pick("init-rename", "init-expr", "init-struct", "explicit", "mutable", "nested",
                  "nested-generic", "trailing-void")
    if form == "trailing-void" and not c.construct.startswith("pfor"):
        form = "nested"
    decls = ["const int scK = %d;" % k, "%s scP{%d, %d};" % (pt, k + 1, k - 1)]
    body_pre = []
    expr = "{i} * scK + scP.a - scP.b"
    captures = "="
    if form == "init-rename":
        captures = "=, scOut = out"
        c.launch_pre = []
        expr = "{i} * scK + scP.a - scP.b"
    elif form == "init-expr":
        captures = "=, scQ = scK * 3 + scP.a"
        expr = "{i} + scQ"
    elif form == "init-struct":
        captures = "=, scR = %s{scP.b, scP.a}" % pt
        expr = "{i} * scR.a + scR.b"
    elif form == "explicit":
        captures = "out, scK, scP"
        if c.construct == "pfor-dist":
            captures += ", " + c.nm("scReg")
    elif form == "mutable":
        # Each work-item changes its own copy.
        body_pre = ["scP.a += 1;"]
        expr = "{i} * scK + scP.a - scP.b"
    elif form == "nested":
        body_pre = ["auto scTwice = [](int x) { return 2 * x; };"]
        expr = "scTwice({i}) + scK"
    else:
        body_pre = ["auto scTwice = [](auto x) { return x + x; };"]
        expr = "scTwice({i}) + int(scTwice(0.5f)) + scK"
    c.idiom("capture form", form)
    host_pre = [l for l in body_pre]
    host_expr = expr.replace("scQ", "(scK * 3 + scP.a)").replace("scR.a", "scP.b").replace(
        "scR.b", "scP.a")
    if form == "mutable":
        host_pre = ["%s scPc = scP;" % pt, "scPc.a += 1;"]
        host_expr = "{i} * scK + scPc.a - scPc.b"
    lines = launch(c, "out", "n", L, expr, body_pre, captures)
    if form == "init-rename":
        lines = [l.replace("out[", "scOut[") if "parallelFor(" not in l and "Task<" not in l
                 and "executeWith" not in l and "for (int scE" not in l and "out[scE] = scRes" not in l
                 else l for l in lines]
    if form == "trailing-void":
        lines = [l.replace(") __device(hpp) {", ") __device(hpp) -> void {", 1) for l in lines]
    if form == "mutable":
        lines = [l.replace(") __device(hpp) {", ") __device(hpp) mutable {", 1)
                 if "[%s]" % captures in l else l for l in lines]
        lines = [l.replace(") __device(hpp) -> int {", ") __device(hpp) mutable -> int {", 1)
                 if "[%s]" % captures in l else l for l in lines]
    body = decls + host_check(c, "out", "n", host_expr, host_pre) + lines + \
        got_check(c, "out", "n")
    return c.pre + case_unit(c, body, n=n)


# The table: a new kind is one entry.
KINDS = (
    ("extern-c++", kind_extern_cxx),
    ("extern-c", kind_extern_c),
    ("dependent-alias", kind_dependent_alias),
    ("generic-lambda", kind_generic_lambda),
    ("auto-params", kind_auto_params),
    ("macro-helper", kind_macro_helper),
    ("local-macros", kind_local_macros),
    ("local-constants", kind_local_constants),
    ("try-catch", kind_try_catch),
    ("encodings", kind_encodings),
    ("task-forms", kind_task_forms),
    ("task-results", kind_task_results),
    ("scopes", kind_scopes),
    ("capture-forms", kind_capture_forms),
)


def make_case(seed, cid, kinds, accepted_only=False):
    """The code of case `cid` and its description; with accepted_only, a
    case the tool may refuse (a documented limit) is drawn again."""
    name, fn = kinds[cid % len(kinds)]
    for attempt in range(50):
        c = Case(seed if attempt == 0 else "%s/%d" % (seed, attempt), cid, name)
        code = fn(c)
        if not (accepted_only and c.may_refuse):
            break
    code.append("static const bool %s = scRegister(%d, &%s);" % (
        c.nm("scRegistered"), cid, c.nm("scRun")))
    info = {"id": cid, "kind": name, "idioms": c.idioms, "may_refuse": c.may_refuse}
    return code, info


def make_tu(seed, ids, kinds, total, index, accepted_only=False):
    lines = ["// Generated by scripts/scope_corpus.py --seed %s: translation unit %d of %d, "
             "cases %d-%d." % (seed, index + 1, total, ids[0], ids[-1]),
             "// Each case prints `kernel <id>: ok` when what its body computed on the",
             "// device equals the same expression evaluated on the host where the body",
             "// is written. Nothing depends on the warp width."]
    lines += PROLOGUE.split("\n")
    infos = []
    for cid in ids:
        code, info = make_case(seed, cid, kinds, accepted_only)
        start = len(lines) + 1
        end = start + 2 + len(code)
        lines.append("// scope-corpus kernel %d: lines %d-%d, family %s, style scope%s, "
                     "expect64 ok (width-independent)" % (
                         cid, start, end, info["kind"],
                         ", refusal allowed (%s)" % info["may_refuse"] if info["may_refuse"] else ""))
        lines.append("// idioms: " + "; ".join(info["idioms"]))
        lines += code
        lines.append("// scope-corpus end kernel %d" % cid)
        assert len(lines) == end
        info["lines"] = [start, end]
        infos.append(info)
    lines += EPILOGUE.split("\n")
    return "\n".join(lines).rstrip("\n") + "\n", infos


# ---------------------------------------------------------------------------
# Refusals: constructs the tool must refuse, each at its line
# ---------------------------------------------------------------------------

EXPECT = "// scope-corpus: expect error [%s]"


def refusal_cases():
    """(name, expected tag, lines, host lines of a call); the offending line
    ends with the marker comment. {F} is the case's function name."""
    hc = "hpp-host-call-in-device"
    hs = "hpp-host-state-in-device"
    pf = "parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {"
    cases = [
        ("try-in-body", "hpp-device-construct", [
            "void {F}(Pointer<int> p, int n) {", "  " + pf,
            "    try { " + EXPECT,
            "      p[i] = 1;", "    } catch (...) {", "      p[i] = 2;", "    }", "  });", "}"]),
        ("throw-in-body", "hpp-device-construct", [
            "void {F}(Pointer<int> p, int n) {", "  " + pf,
            "    if (p[i] < 0)",
            "      throw 1; " + EXPECT,
            "    p[i] = 1;", "  });", "}"]),
        ("throw-in-helper", "hpp-device-construct", [
            "__device(hpp) inline int {F}_check(int x) {",
            "  if (x < 0)",
            "    throw x; " + EXPECT,
            "  return x;", "}",
            "void {F}(Pointer<int> p, int n) {", "  " + pf,
            "    p[i] = {F}_check(int(i));", "  });", "}"]),
        ("try-in-task", "hpp-device-construct", [
            "void {F}(Pointer<int> p, int n) {",
            "  Task<int, Index<1>> t([=](Index<1> i) __device(hpp) -> int {",
            "    try { " + EXPECT,
            "      return p[i];", "    } catch (...) {", "      return 0;", "    }", "  });",
            "  t.enqueue(Range<1>(n)).wait();", "}"]),
        ("throw-in-consumer", "hpp-device-construct", [
            "void {F}(Pointer<int> p, int n) {",
            "  Channel<int> c(16);",
            "  c.executeWith([=](Channel<int> *c) -> bool __device(coord) { return c->size() >= 8; },",
            "                Range<1>(8), [=](Index<1> j, std::vector<int> data) __device(hpp) {",
            "                  if (data[j.getX()] < 0)",
            "                    throw 2; " + EXPECT,
            "                  p[data[j.getX()]] = 1;", "                });",
            "  parallelFor(Range<1>(n), [=, &c](Index<1> i) __device(hpp) { c.write(int(i)); });",
            "}"]),
        ("std-vector-in-body", hc, [
            "void {F}(Pointer<int> p, int n) {", "  " + pf,
            "    std::vector<int> v(3, int(i)); " + EXPECT,
            "    p[i] = v[1];", "  });", "}"]),
        ("std-string-in-body", hc, [
            "void {F}(Pointer<int> p, int n) {", "  " + pf,
            "    std::string s(\"ab\"); " + EXPECT,
            "    p[i] = int(s.size());", "  });", "}"]),
        ("std-function-in-body", hc, [
            "void {F}(Pointer<int> p, int n) {", "  " + pf,
            "    std::function<int(int)> f = [](int x) { return x + 1; }; " + EXPECT,
            "    p[i] = f(int(i));", "  });", "}"]),
        ("std-max-in-body", hc, [
            "void {F}(Pointer<int> p, int n) {", "  " + pf,
            "    p[i] = std::max(int(i), 3); " + EXPECT, "  });", "}"]),
        ("std-min-in-task", hc, [
            "void {F}(Pointer<int> p, int n) {",
            "  Task<int, Index<1>> t([=](Index<1> i) __device(hpp) -> int {",
            "    return std::min(int(i), p[i]); " + EXPECT, "  });",
            "  t.enqueue(Range<1>(n)).wait();", "}"]),
        ("std-max-in-helper", hc, [
            "__device(hpp) inline int {F}_clamp(int x) {",
            "  return std::max(x, 0); " + EXPECT, "}",
            "void {F}(Pointer<int> p, int n) {", "  " + pf,
            "    p[i] = {F}_clamp(int(i) - 4);", "  });", "}"]),
        ("task-of-string", "hpp-task", [
            "void {F}(Pointer<int> p, int n) {",
            "  Task<std::string, Index<1>> t([=](Index<1> i) __device(hpp) -> std::string { " + EXPECT,
            "    return std::string(1, char('a' + p[i] % 26));", "  });",
            "  t.enqueue(Range<1>(n)).wait();", "}"]),
        ("task-of-vector", "hpp-task", [
            "void {F}(Pointer<int> p, int n) {",
            "  Task<std::vector<int>, Index<1>> t([=](Index<1> i) __device(hpp) -> std::vector<int> { "
            + EXPECT,
            "    return std::vector<int>(1, p[i]);", "  });",
            "  t.enqueue(Range<1>(n)).wait();", "}"]),
        ("static-local-in-body", hs, [
            "void {F}(Pointer<int> p, int n) {", "  " + pf,
            "    static int calls = 0;",
            "    p[i] = ++calls; " + EXPECT, "  });", "}"]),
        ("local-enum-in-body", "hpp-parallel-for", [
            "void {F}(Pointer<int> p, int n) {",
            "  enum Local { A = 1, B = 2 };", "  " + pf,
            "    p[i] = B; " + EXPECT, "  });", "}"]),
        ("local-struct-capture", "hpp-parallel-for", [
            "void {F}(Pointer<int> p, int n) {",
            "  struct Local {", "    int a;", "  } l{3};", "  " + pf,
            "    p[i] = l.a; " + EXPECT, "  });", "}"]),
        ("vector-capture", hs, [
            "void {F}(Pointer<int> p, int n) {",
            "  std::vector<int> v(4, 1);", "  " + pf,
            "    p[i] = v[0]; " + EXPECT, "  });", "}"]),
        ("global-in-body", hs, [
            "int {F}_counter = 3;",
            "void {F}(Pointer<int> p, int n) {", "  " + pf,
            "    p[i] = {F}_counter; " + EXPECT, "  });", "}"]),
        ("host-function-in-body", hc, [
            "int {F}_host(int x) { return x + 1; }",
            "void {F}(Pointer<int> p, int n) {", "  " + pf,
            "    p[i] = {F}_host(int(i)); " + EXPECT, "  });", "}"]),
        ("std-array-in-body", hc, [
            "void {F}(Pointer<int> p, int n) {", "  " + pf,
            "    std::array<int, 3> a{1, 2, 3};",
            "    p[i] = a[int(i) % 3]; " + EXPECT, "  });", "}"]),
        ("numeric-limits-in-body", hc, [
            "void {F}(Pointer<int> p, int n) {", "  " + pf,
            "    p[i] = std::numeric_limits<int>::max() - int(i); " + EXPECT, "  });", "}"]),
        ("std-swap-in-body", hc, [
            "void {F}(Pointer<int> p, int n) {", "  " + pf,
            "    int a = int(i), b = 1;",
            "    std::swap(a, b); " + EXPECT,
            "    p[i] = a - b;", "  });", "}"]),
        ("task-of-pair", "hpp-task", [
            "void {F}(Pointer<int> p, int n) {",
            "  Task<std::pair<int, int>, Index<1>> t([=](Index<1> i) __device(hpp) -> std::pair<int, int> { "
            + EXPECT,
            "    return {p[i], int(i)};", "  });",
            "  t.enqueue(Range<1>(n)).wait();", "}"]),
        ("task-emplace-back", "hpp-task", [
            "void {F}(Pointer<int> p, int n) {",
            "  std::vector<Task<int, Index<1>>> ts;",
            "  ts.emplace_back([=](Index<1> i) __device(hpp) -> int { return p[i]; }); " + EXPECT,
            "  ts[0].enqueue(Range<1>(n)).wait();", "}"]),
        ("typeid-in-body", "hpp-host-call-in-device", [
            "void {F}(Pointer<int> p, int n) {", "  " + pf,
            "    p[i] = int(typeid(int).name()[0]); " + EXPECT, "  });", "}"]),
    ]
    return cases


REFUSAL_PLACES = ("plain", "namespace", "template", "static-member", "extern-cxx",
                  "anonymous-namespace", "class-template", "generic-lambda")


def place_refusal(rng, f, text, where=None):
    """Puts a refusal's function (its first line `void {F}(Pointer<int> p,
    int n) {`) in a placement, seeded unless `where` says; returns (lines,
    call)."""
    head = "void %s(Pointer<int> p, int n) {" % f
    if head not in text:
        return text, "%s(p, 64);" % f
    at = text.index(head)
    if where is None:
        where = rng.choice(("plain",) + REFUSAL_PLACES)
    if where == "class-template":
        text = list(text)
        text[at] = "template <typename U> struct %s_S {" % f
        text.insert(at + 1, "static void run(Pointer<int> p, int n) {")
        return (text + ["};", "template struct %s_S<int>;" % f],
                "%s_S<int>::run(p, 64);" % f)
    if where == "generic-lambda":
        # The function's body in a generic lambda it calls.
        text = list(text)
        close = len(text) - 1 - text[::-1].index("}")
        text[close] = "  };"
        text.insert(close + 1, "  g(p, n);")
        text.insert(close + 2, "}")
        text.insert(at + 1, "  auto g = [](auto p, int n) {")
        return text, "%s(p, 64);" % f
    if where == "namespace":
        return (["namespace %s_ns {" % f] + text + ["} // namespace %s_ns" % f],
                "%s_ns::%s(p, 64);" % (f, f))
    if where == "anonymous-namespace":
        return ["namespace {"] + text + ["} // namespace"], "%s(p, 64);" % f
    if where == "extern-cxx":
        return ['extern "C++" {'] + text + ['}'], "%s(p, 64);" % f
    if where == "template":
        text = list(text)
        text[at] = "template <typename T> void %s(Pointer<T> p, int n) {" % f
        return text + ["template void %s<int>(Pointer<int>, int);" % f], "%s<int>(p, 64);" % f
    if where == "static-member":
        text = list(text)
        text[at] = "struct %s_S {" % f
        text.insert(at + 1, "static void run(Pointer<int> p, int n) {")
        return text + ["};"], "%s_S::run(p, 64);" % f
    return text, "%s(p, 64);" % f


def make_refusals(seed, split, every_place=False):
    """{file name: text} of the refusal programs; with every_place, each
    refusal in each placement (REFUSAL_PLACES)."""
    rng = random.Random("scope-corpus-refusals:%s" % seed)
    cases = refusal_cases()
    if every_place:
        cases = [("%s-in-%s" % (name, where), tag, lines, where)
                 for name, tag, lines in cases for where in REFUSAL_PLACES]
    else:
        cases = [c + (None,) for c in cases]
    head = ["// Generated by scripts/scope_corpus.py --refusals --seed %s: constructs" % seed,
            "// hpp-rewrite must refuse, each with an error at its marked line.",
            "#include <hpp/hpp.h>", "",
            "#include <algorithm>", "#include <array>", "#include <functional>",
            "#include <limits>", "#include <string>", "#include <typeinfo>", "#include <utility>",
            "#include <vector>", "",
            "using namespace hpp;", ""]
    files = {}
    body, calls = [], []
    for k, (name, tag, lines, where) in enumerate(cases):
        f = "scRefuse%d_%s" % (k, name.replace("-", "_"))
        text = [l.replace("{F}", f).replace(EXPECT, EXPECT % tag) for l in lines]
        text, call = place_refusal(rng, f, text, where)
        unit = ["// refusal %d: %s" % (k, name)] + text + [""]
        if split:
            main = ["int main() {", "  Pointer<int> p = allocate<int>(64);",
                    "  " + call, "  deallocate(p);", "}"]
            files["refusals_s%s_%02d_%s.cpp" % (seed, k, name)] = "\n".join(head + unit + main) + "\n"
        else:
            body += unit
            calls.append("  " + call)
    if not split:
        main = ["int main() {", "  Pointer<int> p = allocate<int>(64);"] + calls + [
            "  deallocate(p);", "}"]
        files["refusals_s%s.cpp" % seed] = "\n".join(head + body + main) + "\n"
    return files


DIAG = re.compile(r"^(.*?):(\d+):(\d+): (error|warning|note|remark): (.*?)(?: \[([A-Za-z0-9_.-]+)\])?$")


def run_tool(cmd, tries=5, delay=20):
    """subprocess.run of the tool, again later while it cannot be started
    (a shared build relinking it) or dies of a signal."""
    for attempt in range(tries):
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               errors="replace")
            if p.returncode >= 0 and p.returncode not in (126, 127):
                return p
        except OSError:
            p = None
        if attempt + 1 < tries:
            time.sleep(delay)
    if p is None:
        raise SystemExit("scope_corpus: cannot run %s" % cmd[0])
    return p


def check_refusals(tool, paths, tool_args):
    """Runs the tool on each refusal program; returns the failure count."""
    failures = 0
    for path in paths:
        with open(path, errors="surrogateescape") as f:
            src = f.read().split("\n")
        want, unit_of, unit = {}, {}, None
        for n, line in enumerate(src, 1):
            if line.startswith("// refusal "):
                unit = n
            elif line.startswith("int main("):
                unit = None
            unit_of[n] = unit
            m = re.search(r"// scope-corpus: expect error \[([a-z0-9-]+)\]", line)
            if m:
                want[n] = m.group(1)
        out = path + ".out"
        if os.path.exists(out):
            os.remove(out)
        p = run_tool(tool + [path, "-o", out] + tool_args)
        got = {}
        base = os.path.basename(path)
        for line in p.stderr.splitlines():
            m = DIAG.match(line)
            if m and m.group(4) == "error" and os.path.basename(m.group(1)) == base:
                got.setdefault(int(m.group(2)), []).append(m.group(6) or "")
        problems = []
        if p.returncode != 1:
            problems.append("exit status %d (expected 1)" % p.returncode)
        if os.path.exists(out):
            problems.append("an output was written")
        for n, tag in sorted(want.items()):
            tags = got.get(n, [])
            hpp = [t for t in tags if t.startswith("hpp-")]
            if not hpp:
                problems.append("line %d: no hpp error (expected [%s])%s" % (
                    n, tag, "; errors: " + ", ".join(tags) if tags else ""))
            elif tag not in hpp:
                print("note: %s:%d: error tagged %s, expected [%s] (accepted)" % (
                    base, n, ", ".join("[%s]" % t for t in hpp), tag))
        # Errors elsewhere in a refusal's own lines (a use of what the
        # marked line declares) are fine; outside them they are not.
        marked = {unit_of.get(n) for n in want}
        stray = sorted(l for l in got if l not in want and unit_of.get(l) not in marked)
        if stray:
            problems.append("errors outside the refusals, at lines %s" % ", ".join(map(str, stray)))
        if problems:
            failures += 1
            print("FAIL %s:" % path)
            for pr in problems:
                print("  " + pr)
            for line in p.stderr.splitlines():
                if ": error:" in line:
                    print("    " + line)
        else:
            print("ok %s (%d refusals)" % (base, len(want)))
    print("%d passed, %d failed" % (len(paths) - failures, failures))
    return failures


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n", 1)[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", default="1", help="seed (any string; default 1)")
    ap.add_argument("--count", type=int, default=None,
                    help="number of cases (default: one per kind)")
    ap.add_argument("--first", type=int, default=0, help="id of the first case (default 0)")
    ap.add_argument("--per-tu", type=int, default=30, help="cases per translation unit (default 30)")
    ap.add_argument("--kinds", help="comma-separated kinds to cycle through (default: all)")
    ap.add_argument("--only", type=int, nargs="*", help="generate only these case ids (one TU each)")
    ap.add_argument("--accepted-only", action="store_true",
                    help="no case the tool may refuse (marked `refusal allowed`: a documented "
                         "limit); such a case is drawn again")
    ap.add_argument("--out", help="output directory (created)")
    ap.add_argument("--refusals", action="store_true",
                    help="write the constructs the tool must refuse instead")
    ap.add_argument("--split", action="store_true", help="with --refusals: one program per refusal")
    ap.add_argument("--every-place", action="store_true",
                    help="with --refusals: each refusal in each placement (%s), not in a "
                         "seeded one" % ", ".join(REFUSAL_PLACES))
    ap.add_argument("--check-refusals", nargs="+", metavar=("TOOL", "PATH"),
                    help="run TOOL on the refusal programs PATH... (files or directories)")
    ap.add_argument("--list-kinds", action="store_true", help="print the kinds and exit")
    args, extra = ap.parse_known_args(argv)
    if args.list_kinds:
        for name, fn in KINDS:
            print("%-16s %s" % (name, " ".join(fn.__doc__.split())))
        for name, tag, _ in refusal_cases():
            print("%-16s refusal, [%s]" % (name, tag))
        return 0
    if args.check_refusals:
        if len(args.check_refusals) < 2:
            ap.error("--check-refusals TOOL PATH...")
        tool = args.check_refusals[0].split()
        paths = []
        for p in args.check_refusals[1:]:
            if os.path.isdir(p):
                paths += [os.path.join(p, f) for f in sorted(os.listdir(p))
                          if f.startswith("refusals") and f.endswith(".cpp")]
            else:
                paths.append(p)
        return 1 if check_refusals(tool, paths, extra) else 0
    if not args.out:
        ap.error("--out is required")
    os.makedirs(args.out, exist_ok=True)
    if args.refusals:
        for name, text in make_refusals(args.seed, args.split, args.every_place).items():
            with open(os.path.join(args.out, name), "w", errors="surrogateescape") as f:
                f.write(text)
        return 0
    kinds = KINDS
    if args.kinds:
        wanted = args.kinds.split(",")
        unknown = [k for k in wanted if k not in dict(KINDS)]
        if unknown:
            ap.error("unknown kinds: %s" % ", ".join(unknown))
        kinds = tuple(k for k in KINDS if k[0] in wanted)
    count = args.count if args.count is not None else len(kinds)
    if count < 1 or args.per_tu < 1:
        ap.error("--count and --per-tu must be positive")
    ids = args.only if args.only else list(range(args.first, args.first + count))
    groups = [ids[p:p + args.per_tu] for p in range(0, len(ids), args.per_tu)]
    if args.only:
        groups = [[x] for x in ids]
    manifest = {"seed": args.seed, "files": []}
    for index, group in enumerate(groups):
        text, infos = make_tu(args.seed, group, kinds, len(groups), index, args.accepted_only)
        name = "scope_s%s_%05d.cpp" % (args.seed, group[0])
        with open(os.path.join(args.out, name), "w", errors="surrogateescape") as f:
            f.write(text)
        manifest["files"].append({"file": name, "cases": infos})
    with open(os.path.join(args.out, "scope.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
