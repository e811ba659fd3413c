#!/usr/bin/env python3
"""new-rule: creates the files of a new hpp-rewrite rule, ready to build.

  new-rule.py hpp-foo-bar --kind {lowering,error-check,warning-check}
              [--summary TEXT] [--dry-run] [--root DIR]

writes, for a rule tagged hpp-foo-bar (docs/internals.md, "How to add a
rule"):

  lib/Rules/FooBarCheck.h, .cpp   the rule (FooBarRule for a lowering rule):
                                  a matcher on calls of the global function
                                  fooBarPlaceholder(), which no real program
                                  has, and a diagnostic through the rule's
                                  error()/warning() (RuleDiagnostics), tagged
                                  [hpp-foo-bar]; a lowering rule renames the
                                  call to fooBarLowered() through the
                                  EditCollector, and refuses one written
                                  through a macro
  lib/Rules/Rules.def             its HPP_RULE line, at the end of the rules
                                  of its kind (a lowering rule before the
                                  rules that collect kernel sites, which
                                  close the table)
  lib/Rules/Registry.cpp          the #include of its header
  test/diagnostics/foo-bar.cpp    its lit test (test/rewrite/foo-bar.cpp for
                                  a lowering rule): the diagnostic (or the
                                  edit) on a small input, and nothing on code
                                  the rule must not touch
  docs/rules.md                   its `### hpp-foo-bar` entry, in the section
                                  of its kind (scripts/check_rules_doc.py)

The generated rule builds and its test passes as generated; then replace
the placeholder matcher, message, test and entry with the rule's own.

The name must be `hpp-` and lowercase words joined by dashes, and name no
registered rule. Nothing is overwritten: when any file to create exists, or
any edit cannot be placed, nothing is written and the exit status is 1.
--dry-run prints what would be written and writes nothing. --root names the
source tree (default: the one holding this script).
"""

import argparse
import os
import re
import sys

KINDS = {
    # --kind: (Rules.def kind, class suffix, docs/rules.md section, test dir)
    "lowering": ("Lowering", "Rule", "Rewrites", "test/rewrite"),
    "error-check": ("ErrorCheck", "Check", "Checks (errors)",
                    "test/diagnostics"),
    "warning-check": ("WarningCheck", "Check", "Checks (warnings)",
                      "test/diagnostics"),
}
# Tags the tool itself uses for diagnostics of no registered rule.
RESERVED_TAGS = {"hpp-rewrite", "hpp-rewrite-crash"}
NAME_RE = re.compile(r"^hpp(-[a-z][a-z0-9]*)+$")
# The rules that collect the kernel sites close the table, after the
# checks; a new lowering rule goes before them, with the other lowering
# rules. (Outlining does not depend on the order: the driver outlines the
# kernels after every rule, lib/Outline/OutlinePhase.h.)
OUTLINING_TAGS = ("hpp-channel", "hpp-task", "hpp-parallel-for")
COLUMNS = 80


class Refusal(Exception):
    """A reason not to write anything."""


# ---------------------------------------------------------------------------
# Reading Rules.def.

def rule_entries(text):
    """The HPP_RULE entries of Rules.def, as dicts with the class, tag,
    kind, and the offsets of the entry's first character and of the line
    after it."""
    entries = []
    pos = 0
    while True:
        m = re.compile(r"^HPP_RULE\(", re.M).search(text, pos)
        if not m:
            return entries
        i = m.end()
        depth = 1
        in_string = False
        while i < len(text) and depth:
            c = text[i]
            if in_string:
                if c == "\\":
                    i += 1
                elif c == '"':
                    in_string = False
            elif c == '"':
                in_string = True
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            i += 1
        if depth:
            raise Refusal("lib/Rules/Rules.def: unterminated HPP_RULE( at "
                          "offset %d" % m.start())
        args = re.match(r'\s*(\w+)\s*,\s*"([^"]*)"\s*,\s*(\w+)\s*,',
                        text[m.end():i])
        if not args:
            raise Refusal("lib/Rules/Rules.def: cannot read the entry at "
                          "line %d" % (text.count("\n", 0, m.start()) + 1))
        end = text.find("\n", i)
        end = len(text) if end < 0 else end + 1
        entries.append({"class": args.group(1), "tag": args.group(2),
                        "kind": args.group(3), "begin": m.start(),
                        "end": end,
                        "line": text.count("\n", 0, m.start()) + 1})
        pos = end


def insertion_offset(entries, def_kind):
    """Where a new entry of kind def_kind goes in Rules.def: after the last
    entry of that kind that comes before the rules that collect kernel
    sites (which close the table). Returns (offset, the entry it
    follows)."""
    first_outlining = min(
        [i for i, e in enumerate(entries) if e["tag"] in OUTLINING_TAGS],
        default=len(entries))
    candidates = [e for e in entries[:first_outlining]
                  if e["kind"] == def_kind]
    if not candidates:
        raise Refusal("lib/Rules/Rules.def: no %s rule before the outlining "
                      "rules (%s) to place the new one after"
                      % (def_kind, ", ".join(OUTLINING_TAGS)))
    last = candidates[-1]
    return last["end"], last


# ---------------------------------------------------------------------------
# Text of the generated files.

def c_string(text):
    """text escaped for a C string literal."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def wrap_words(words, first_width, width):
    """Greedy lines of words: the first at most first_width wide,
    the others width."""
    lines = [""]
    limit = first_width
    for w in words:
        candidate = (lines[-1] + " " + w) if lines[-1] else w
        if len(candidate) <= limit or not lines[-1]:
            lines[-1] = candidate
        else:
            lines.append(w)
            limit = width
    return lines


def rules_def_entry(cls, tag, def_kind, summary):
    """The HPP_RULE(...) entry as clang-format lays out the existing ones."""
    indent = " " * len("HPP_RULE(")
    head = ["%s," % cls, '"%s",' % tag, "%s," % def_kind]
    lines = ["HPP_RULE("]
    for piece in head:
        sep = "" if lines[-1].endswith("(") else " "
        if len(lines[-1] + sep + piece) <= COLUMNS:
            lines[-1] += sep + piece
        else:
            lines.append(indent + piece)
    # The summary: string literals of words, each line within 80 columns
    # (quotes and the closing parenthesis included).
    escaped = c_string(summary)
    words = escaped.split(" ")
    room = COLUMNS - len(indent) - 3  # "..." plus ')' or a space
    chunks = wrap_words(words, room, room)
    literals = ['"%s"' % (c + (" " if i + 1 < len(chunks) else ""))
                for i, c in enumerate(chunks)]
    if len(literals) == 1 and \
            len(lines[-1] + " " + literals[0] + ")") <= COLUMNS:
        lines[-1] += " " + literals[0]
    else:
        lines.extend(indent + lit for lit in literals)
    lines[-1] += ")"
    return "\n".join(lines) + "\n"


def banner(path, description, fallback, cpp_header):
    """The LLVM file banner of path, 80 columns: description, or
    fallback when that does not fit."""
    name = os.path.basename(path)
    suffix = "-*- C++ -*-===//" if cpp_header else "===//"
    start = "//===- %s - " % name
    room = COLUMNS - len(start) - len(suffix) - 1
    if len(description) > room:
        description = fallback
    if len(description) > room:
        description = ""
    line = (start + description + " ") if description else \
        "//===- %s " % name
    line += "-" * (COLUMNS - len(line) - len(suffix)) + suffix
    return ("%s\n//\n// Part of hpp-rewrite.\n//\n//===%s===//\n"
            % (line, "-" * (COLUMNS - 10)))


def cxx_string(text, column):
    """text as C++ string literals, the first starting at column
    (0-based), the others aligned under it, each line within 80 columns."""
    room = COLUMNS - column - 4  # the quotes, and `);` after the last
    chunks = wrap_words(c_string(text).split(" "), room, room)
    return ("\n" + " " * column).join(
        '"%s"' % (c + (" " if i + 1 < len(chunks) else ""))
        for i, c in enumerate(chunks))


def doc_comment(text, indent=""):
    """text as `///` lines."""
    prefix = indent + "/// "
    return "".join(prefix + line + "\n"
                   for line in wrap_words(text.split(), COLUMNS - len(prefix),
                                          COLUMNS - len(prefix)))


def line_comment(text, prefix="// "):
    """text as `//` lines."""
    return "".join(prefix + line + "\n"
                   for line in wrap_words(text.split(), COLUMNS - len(prefix),
                                          COLUMNS - len(prefix)))


def signature(head, params):
    """A function definition's first line, its parameters on the next line
    when they do not fit."""
    if len(head + params) <= COLUMNS:
        return head + params + "\n"
    return head + "\n    " + params + "\n"


def clause(summary):
    """summary as written, ending in a full stop."""
    s = summary.strip()
    return s if s.endswith(".") else s + "."


def sentence(summary):
    """summary with a capital and a full stop."""
    s = summary.strip()
    s = s[0].upper() + s[1:]
    return s if s.endswith(".") else s + "."


class Rule:
    """Everything derived from the name and the kind."""

    def __init__(self, name, kind, summary):
        words = name.split("-")[1:]
        self.name = name
        self.kind = kind
        self.def_kind, suffix, self.section, test_dir = KINDS[kind]
        self.cls = "".join(w[:1].upper() + w[1:] for w in words) + suffix
        self.short = "-".join(words)
        camel = words[0] + "".join(w[:1].upper() + w[1:] for w in words[1:])
        self.placeholder = camel + "Placeholder"
        self.lowered = camel + "Lowered"
        self.header = "lib/Rules/%s.h" % self.cls
        self.source = "lib/Rules/%s.cpp" % self.cls
        self.test = "%s/%s.cpp" % (test_dir, self.short)
        if summary is None:
            if kind == "lowering":
                summary = ("calls of %s() become calls of %s() (a generated "
                           "rule: replace this summary)"
                           % (self.placeholder, self.lowered))
            else:
                summary = ("a call of %s() (a generated rule: replace this "
                           "summary)" % self.placeholder)
        self.summary = summary
        self.fallback = "The %s %s" % (name, "rule" if kind == "lowering"
                                       else "check")

    # The rule's header.
    def header_text(self):
        guard = "HPP_REWRITE_LIB_RULES_%s_H" % self.cls.upper()
        if self.kind == "lowering":
            what = ("Generated by scripts/new-rule.py: each call of `%s()` in "
                    "the main file becomes a call of `%s()` (an edit through "
                    "the EditCollector); a call whose name a macro writes "
                    "cannot be edited and is an error. Replace the matcher "
                    "and the edit with the rule's own."
                    % (self.placeholder, self.lowered))
        else:
            what = ("Generated by scripts/new-rule.py: %s at each call of "
                    "`%s()` in the main file. Replace the matcher and the "
                    "message with the rule's own."
                    % ("an error" if self.kind == "error-check"
                       else "a warning", self.placeholder))
        return (banner(self.header, self.summary, self.fallback, True) +
                "#ifndef %s\n#define %s\n\n" % (guard, guard) +
                '#include "hpp-rewrite/Rule.h"\n\n'
                "namespace hpp {\nnamespace rewrite {\n\n" +
                doc_comment(sentence(self.summary)) + "///\n" +
                doc_comment(what) +
                "class %s : public Rule {\n" % self.cls +
                "public:\n"
                "  using Rule::Rule;\n"
                "  void registerMatchers(clang::ast_matchers::MatchFinder "
                "&Finder) override;\n"
                "  void\n"
                "  run(const clang::ast_matchers::MatchFinder::MatchResult "
                "&Result) override;\n"
                "};\n\n"
                "} // namespace rewrite\n} // namespace hpp\n\n"
                "#endif\n")

    def check_message(self):
        return ("call of '%s' (a generated rule's placeholder: replace the "
                "matcher and this message)" % self.placeholder)

    def macro_message(self):
        return ("cannot rewrite a call of '%s' whose name a macro writes; "
                "call it directly" % self.placeholder)

    # The rule's source.
    def source_text(self):
        placeholder = '  auto Placeholder = functionDecl(hasName("::%s"));\n' \
            % self.placeholder
        if len(placeholder) > COLUMNS + 1:
            placeholder = ('  auto Placeholder = functionDecl(\n'
                           '      hasName("::%s"));\n' % self.placeholder)
        matcher = (
            signature("void %s::registerMatchers(" % self.cls,
                      "MatchFinder &Finder) {") +
            "  // As spelled: a call in a template is matched once, in the "
            "pattern, not in\n"
            "  // each instantiation.\n" + placeholder +
            "  Finder.addMatcher(\n"
            "      traverse(\n"
            "          TK_IgnoreUnlessSpelledInSource,\n"
            "          callExpr(isExpansionInMainFile(), "
            "callee(Placeholder)).bind(\"call\")),\n"
            "      this);\n"
            "}\n\n")
        if self.kind == "lowering":
            run = signature("void %s::run(" % self.cls,
                            "const MatchFinder::MatchResult &Result) {") + (
                "  const auto *Call = Result.Nodes.getNodeAs<CallExpr>"
                "(\"call\");\n"
                "  const auto *Callee =\n"
                "      Call ? dyn_cast<DeclRefExpr>("
                "Call->getCallee()->IgnoreImplicit())\n"
                "           : nullptr;\n"
                "  if (!Callee)\n"
                "    return;\n"
                "  const SourceManager &SM = *Result.SourceManager;\n"
                "  if (Callee->getLocation().isMacroID()) {\n"
                "    // The EditCollector would leave it as written, with a "
                "warning:\n"
                "    // the output would not be lowered.\n"
                "    error(SM.getExpansionLoc(Callee->getLocation()),\n"
                "          %s);\n"
                "    return;\n"
                "  }\n"
                "  Ctx.Edits.replace(\n"
                "      CharSourceRange::getTokenRange("
                "Callee->getNameInfo().getSourceRange()),\n"
                "      \"%s\", Name);\n"
                "}\n" % (cxx_string(self.macro_message(), 10), self.lowered))
            includes = ('#include "clang/AST/Expr.h"\n'
                        '#include "clang/Basic/SourceManager.h"\n')
        else:
            report = "error" if self.kind == "error-check" else "warning"
            run = signature("void %s::run(" % self.cls,
                            "const MatchFinder::MatchResult &Result) {") + (
                "  const auto *Call = Result.Nodes.getNodeAs<CallExpr>"
                "(\"call\");\n"
                "  if (!Call)\n"
                "    return;\n"
                "  %s(Call->getBeginLoc(),\n"
                "  %s%s);\n"
                "}\n" % (report, " " * (len(report) + 1),
                         cxx_string(self.check_message(),
                                    len(report) + 3)))
            includes = '#include "clang/AST/Expr.h"\n'
        return (banner(self.source, self.summary, self.fallback, False) +
                "\n" +
                '#include "Rules/%s.h"\n\n' % self.cls + includes + "\n"
                "using namespace clang;\n"
                "using namespace clang::ast_matchers;\n\n"
                "namespace hpp {\nnamespace rewrite {\n\n" +
                matcher + run +
                "\n} // namespace rewrite\n} // namespace hpp\n")

    # The lit test.
    def test_text(self):
        base = os.path.basename(self.test)
        decls = ("#include <hpp/hpp.h>\n\n"
                 "void %s(int) {}\n" % self.placeholder)
        if self.kind == "lowering":
            decls += "void %s(int) {}\n" % self.lowered
        decls += "void otherFunction(int) {}\n"
        if self.kind == "lowering":
            head = line_comment(
                "%s: %s Generated by scripts/new-rule.py: each call of %s() "
                "becomes a call of %s(), without a diagnostic; other calls "
                "stay. A call whose name a macro writes is an error, and "
                "nothing is written." % (self.name, clause(self.summary),
                                         self.placeholder, self.lowered))
            runs = (
                "// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | count 0\n"
                "// RUN: %strip %t.cpp | FileCheck %s\n"
                "// RUN: not %hpp_rewrite %s -o %t.macro.cpp "
                "-- -DTHROUGH_MACRO 2>&1 \\\n"
                "// RUN:   | FileCheck %s --check-prefix=MACRO\n"
                "// RUN: not test -e %t.macro.cpp\n")
            body = (
                "\n#ifdef THROUGH_MACRO\n"
                "#define CALL_PLACEHOLDER(x) %s(x)\n"
                "void throughMacro() { CALL_PLACEHOLDER(0); }\n"
                "// MACRO: %s:[[@LINE-1]]:23: error: %s [%s]\n"
                "// MACRO: hpp-rewrite: error: rewriting failed; no output "
                "written\n"
                "#endif\n\n"
                "void host() {\n"
                "  %s(1);\n"
                "  // CHECK: {{^}}  %s(1);\n"
                "  otherFunction(2);\n"
                "  // CHECK-NEXT: {{^}}  otherFunction(2);\n"
                "}\n" % (self.placeholder, base, self.macro_message(),
                         self.name, self.placeholder, self.lowered))
        elif self.kind == "error-check":
            head = line_comment(
                "%s: %s Generated by scripts/new-rule.py: an error at each "
                "call of %s(), and then nothing is written; no diagnostic "
                "elsewhere (the run with -DNO_PLACEHOLDER rewrites the file "
                "without one)." % (self.name, clause(self.summary),
                                   self.placeholder))
            runs = (
                "// RUN: not %hpp_rewrite %s -o %t.out 2>&1 | FileCheck %s "
                "--check-prefix=CHECK-MESSAGES \\\n"
                "// RUN:   "
                "--implicit-check-not=\"{{warning|error|remark}}:\"\n"
                "// RUN: not test -e %t.out\n"
                "// RUN: %hpp_rewrite %s -o %t.ok.cpp -- -DNO_PLACEHOLDER "
                "2>&1 | count 0\n")
            body = (
                "\nvoid host() {\n"
                "#ifndef NO_PLACEHOLDER\n"
                "  %s(1);\n"
                "  // CHECK-MESSAGES: %s:[[@LINE-1]]:3: error: %s [%s]\n"
                "#endif\n"
                "  otherFunction(2);\n"
                "}\n"
                "// CHECK-MESSAGES: hpp-rewrite: error: rewriting failed; no "
                "output written\n" % (self.placeholder, base,
                                      self.check_message(), self.name))
        else:
            head = line_comment(
                "%s: %s Generated by scripts/new-rule.py: a warning at each "
                "call of %s(), none elsewhere; a warning does not stop the "
                "rewrite, and --disable turns the check off."
                % (self.name, clause(self.summary), self.placeholder))
            runs = (
                "// RUN: %%hpp_rewrite %%s -o %%t.cpp 2>&1 | FileCheck %%s "
                "--check-prefix=CHECK-MESSAGES \\\n"
                "// RUN:   "
                "--implicit-check-not=\"{{warning|error|remark}}:\"\n"
                "// RUN: test -s %%t.cpp\n"
                "// RUN: %%hpp_rewrite %%s -o %%t.off.cpp --disable=%s 2>&1 "
                "| count 0\n" % self.name)
            body = (
                "\nvoid host() {\n"
                "  %s(1);\n"
                "  // CHECK-MESSAGES: %s:[[@LINE-1]]:3: warning: %s [%s]\n"
                "  otherFunction(2);\n"
                "}\n" % (self.placeholder, base, self.check_message(),
                         self.name))
        return head + runs + "\n" + decls + body

    # The docs/rules.md entry.
    def doc_text(self):
        if self.kind == "lowering":
            what = ("Generated by `scripts/new-rule.py`: a call of `%s()` "
                    "becomes a call of `%s()`; one whose name a macro writes "
                    "is an error." % (self.placeholder, self.lowered))
        else:
            what = ("Generated by `scripts/new-rule.py`: %s at each call of "
                    "`%s()`." % ("an error" if self.kind == "error-check"
                                 else "a warning", self.placeholder))
        text = "%s %s Replace this entry with what the rule does and why. " \
               "Test: `%s`." % (sentence(self.summary), what, self.test)
        return ("### `%s`\n" % self.name +
                "\n".join(wrap_words(text.split(), 75, 75)) + "\n")


# ---------------------------------------------------------------------------
# The edits of existing files.

def edit_rules_def(text, rule):
    entries = rule_entries(text)
    offset, after = insertion_offset(entries, rule.def_kind)
    entry = rules_def_entry(rule.cls, rule.name, rule.def_kind, rule.summary)
    return text[:offset] + entry + text[offset:], after, entry


def edit_registry(text, rule):
    line = '#include "Rules/%s.h"\n' % rule.cls
    includes = list(re.finditer(r'^#include "Rules/\w+\.h"\n', text, re.M))
    if not includes:
        raise Refusal("lib/Rules/Registry.cpp: no #include \"Rules/...h\" "
                      "line to place the new one among")
    for m in includes:
        if m.group(0) > line:
            return text[:m.start()] + line + text[m.start():], line
    end = includes[-1].end()
    return text[:end] + line + text[end:], line


def edit_rules_doc(text, rule):
    lines = text.splitlines(True)
    start = None
    for i, line in enumerate(lines):
        if re.match(r"^## %s\s*$" % re.escape(rule.section), line):
            start = i
            break
    if start is None:
        raise Refusal("docs/rules.md: no '## %s' section" % rule.section)
    end = len(lines)
    for i in range(start + 1, len(lines)):
        if lines[i].startswith("## "):
            end = i
            break
    # After the section's last non-blank line.
    last = end
    while last > start + 1 and not lines[last - 1].strip():
        last -= 1
    before = "".join(lines[:last])
    if not before.endswith("\n"):
        before += "\n"
    rest = "".join(lines[last:])
    entry = "\n" + rule.doc_text()
    if rest and not rest.startswith("\n"):
        entry += "\n"
    return before + entry + rest


# ---------------------------------------------------------------------------

def plan(root, name, kind, summary):
    """The files to create and to replace, as [(path, text, is_new)], and
    what to print; raises Refusal."""
    if not NAME_RE.match(name):
        raise Refusal("'%s' is not a rule name: `hpp-` and lowercase words "
                      "(letters and digits, each starting with a letter) "
                      "joined by dashes, e.g. hpp-foo-bar" % name)
    if name in RESERVED_TAGS:
        raise Refusal("'%s' is a tag the tool itself uses" % name)
    if summary is not None:
        if not summary.strip() or "\n" in summary or "\r" in summary:
            raise Refusal("--summary is one line of text")
        summary = summary.strip()
    rule = Rule(name, kind, summary)

    def read(rel):
        try:
            with open(os.path.join(root, rel), encoding="utf-8") as f:
                return f.read()
        except OSError as e:
            raise Refusal("cannot read %s: %s" % (rel, e.strerror))

    rules_def = read("lib/Rules/Rules.def")
    entries = rule_entries(rules_def)
    for e in entries:
        if e["tag"] == name:
            raise Refusal("'%s' is a registered rule (lib/Rules/Rules.def:%d, "
                          "class %s)" % (name, e["line"], e["class"]))
        if e["class"] == rule.cls:
            raise Refusal("class %s is registered already, as '%s' "
                          "(lib/Rules/Rules.def:%d)"
                          % (rule.cls, e["tag"], e["line"]))
    rules_doc = read("docs/rules.md")
    if re.search(r"^### `%s`" % re.escape(name), rules_doc, re.M):
        raise Refusal("docs/rules.md documents '%s' already" % name)
    for rel in (rule.header, rule.source, rule.test):
        if os.path.lexists(os.path.join(root, rel)):
            raise Refusal("%s exists; nothing is overwritten" % rel)

    new_def, after, entry = edit_rules_def(rules_def, rule)
    new_registry, include = edit_registry(read("lib/Rules/Registry.cpp"),
                                          rule)
    new_doc = edit_rules_doc(rules_doc, rule)
    writes = [(rule.header, rule.header_text(), True),
              (rule.source, rule.source_text(), True),
              (rule.test, rule.test_text(), True),
              ("lib/Rules/Rules.def", new_def, False),
              ("lib/Rules/Registry.cpp", new_registry, False),
              ("docs/rules.md", new_doc, False)]
    notes = {
        "lib/Rules/Rules.def": "after %s (line %d):\n%s"
        % (after["tag"], after["line"],
           "\n".join("    " + l for l in entry.splitlines())),
        "lib/Rules/Registry.cpp": include.strip(),
        "docs/rules.md": "'### `%s`' at the end of '## %s'"
        % (name, rule.section),
    }
    return rule, writes, notes


def write_all(root, writes):
    """Creates and replaces the files, all or none (a failure undoes what
    was written before it)."""
    done = []  # (path, previous text or None)
    try:
        for rel, text, is_new in writes:
            path = os.path.join(root, rel)
            if is_new:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "x", encoding="utf-8", newline="\n") as f:
                    done.append((path, None))
                    f.write(text)
            else:
                with open(path, encoding="utf-8", newline="") as f:
                    old = f.read()
                tmp = path + ".new-rule.tmp"
                with open(tmp, "x", encoding="utf-8", newline="\n") as f:
                    f.write(text)
                os.replace(tmp, path)
                done.append((path, old))
    except OSError as e:
        for path, old in reversed(done):
            if old is None:
                os.remove(path)
            else:
                with open(path, "w", encoding="utf-8", newline="") as f:
                    f.write(old)
        raise Refusal("cannot write %s: %s; nothing was changed"
                      % (e.filename, e.strerror))


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="See docs/internals.md, 'How to add a rule'.")
    parser.add_argument("name", help="the rule's tag, e.g. hpp-foo-bar")
    parser.add_argument("--kind", required=True, choices=sorted(KINDS),
                        help="lowering: edits the output, always runs; "
                        "error-check: refuses, always runs; warning-check: "
                        "warns, may be turned off")
    parser.add_argument("--summary", help="the one-line summary that "
                        "--list-rules prints (default: a placeholder)")
    parser.add_argument("--dry-run", action="store_true",
                        help="print what would be written; write nothing")
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), help="the source tree (default: the "
        "one holding this script)")
    args = parser.parse_args()

    try:
        rule, writes, notes = plan(args.root, args.name, args.kind,
                                   args.summary)
        print("new-rule: %s (%s), class %s" % (rule.name, rule.kind,
                                               rule.cls))
        for rel, _, is_new in writes:
            if is_new:
                print("create %s" % rel)
            else:
                print("edit   %s: %s" % (rel, notes[rel]))
        if args.dry_run:
            print("dry run: nothing written")
            return 0
        write_all(args.root, writes)
    except Refusal as e:
        print("new-rule: error: %s" % e, file=sys.stderr)
        return 1
    print("done. Next: ninja -C build; then run its test:\n"
          "  python3 /usr/lib/llvm-19/build/utils/lit/lit.py -sv build/test "
          "--filter '%s'\n"
          "and test/tool/list-rules.test, test/tool/rules-doc.test."
          % rule.test[len("test/"):])
    return 0


if __name__ == "__main__":
    sys.exit(main())
