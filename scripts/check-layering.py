#!/usr/bin/env python3
# ===- scripts/check-layering.py - the include layering of lib/ ----------=== #
"""Checks the seams of the rewriter library from its `#include` lines and
string literals (test/tool/layering.test runs it; docs/internals.md, "The
layers", says why each seam is there):

  * a file of lib/<Layer>/ includes only headers of its own layer or of the
    layers below it, in the order lib/CMakeLists.txt lists them
    (HPP_REWRITER_LAYERS): analyses never include outlining or rules, the
    framework nothing above it;
  * the rules reach outlining only through Outline/KernelSites.h, which
    RuleContext::kernelSites() hands out;
  * the library's interface (lib/include/hpp-rewrite/) includes only its
    own headers, and the tools only that interface;
  * the framework and the driver never name a rule: no string literal of
    theirs is a tag of lib/Rules/Rules.def;
  * the shipped headers (include/hpp/, runtime/hpp/) include nothing of the
    tool's.

Usage: check-layering.py [SOURCE_ROOT]. Prints each violation as
`file:line: message` and exits 1 when there is one."""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
LITERAL = re.compile(r'"(hpp-[a-z0-9-]+)"')
SOURCES = (".h", ".cpp", ".def")
# Outlining headers a rule may include.
RULES_SEE_OF_OUTLINE = {"Outline/KernelSites.h"}


def layers_of(root):
    with open(os.path.join(root, "lib", "CMakeLists.txt")) as f:
        m = re.search(r"set\(HPP_REWRITER_LAYERS([^)]*)\)", f.read())
    if not m:
        raise SystemExit("check-layering: no HPP_REWRITER_LAYERS in lib/CMakeLists.txt")
    return m.group(1).split()


def rule_tags(root):
    with open(os.path.join(root, "lib", "Rules", "Rules.def")) as f:
        return set(re.findall(r'HPP_RULE\(\s*\w+\s*,\s*"([^"]+)"', f.read()))


def files_under(root, rel):
    top = os.path.join(root, rel)
    for d, _, names in os.walk(top):
        for n in sorted(names):
            if n.endswith(SOURCES):
                yield os.path.relpath(os.path.join(d, n), root)


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), ".."))
    layers = layers_of(root)
    rank = {l: i for i, l in enumerate(layers)}
    tags = rule_tags(root)
    problems, nfiles, nincludes = [], 0, 0

    def scan(rel, check_include, check_literal=None):
        nonlocal nfiles, nincludes
        nfiles += 1
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            for no, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if m:
                    nincludes += 1
                    why = check_include(m.group(1))
                    if why:
                        problems.append("%s:%d: %s" % (rel, no, why))
                elif check_literal and not line.lstrip().startswith("//"):
                    for tag in LITERAL.findall(line):
                        if tag in tags:
                            problems.append("%s:%d: %s" % (rel, no, check_literal(tag)))

    for layer in layers:
        def check(inc, layer=layer):
            top = inc.split("/", 1)[0]
            if top not in rank:
                return None
            if rank[top] > rank[layer]:
                return "the %s layer includes '%s' of the %s layer above it" % (
                    layer, inc, top)
            if layer == "Rules" and top == "Outline" and inc not in RULES_SEE_OF_OUTLINE:
                return ("a rule includes '%s': rules reach outlining only through "
                        "RuleContext::kernelSites() (Outline/KernelSites.h)" % inc)
            return None
        names_rule = None
        if layer in ("Framework", "Driver"):
            def names_rule(tag, layer=layer):
                return ("the %s layer names the rule '%s': what one rule needs of the "
                        "framework is asked through the Rule interface" % (layer, tag))
        for rel in files_under(root, os.path.join("lib", layer)):
            scan(rel, check, names_rule)

    def interface_only(what):
        def check(inc):
            if inc.split("/", 1)[0] in rank:
                return "%s includes '%s' of lib/; only the interface hpp-rewrite/" % (what, inc)
            return None
        return check
    for rel in files_under(root, os.path.join("lib", "include")):
        scan(rel, interface_only("the library's interface"))
    for rel in files_under(root, "tools"):
        scan(rel, interface_only("a tool"))

    def shipped(inc):
        if inc.startswith("hpp-rewrite/") or inc.split("/", 1)[0] in rank:
            return "a shipped header includes '%s' of the tool's" % inc
        return None
    for rel in list(files_under(root, "include")) + list(files_under(root, "runtime")):
        scan(rel, shipped)

    for p in problems:
        print(p)
    print("layering: %d files, %d includes, %s" % (
        nfiles, nincludes, "%d violations" % len(problems) if problems else "no violation"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
