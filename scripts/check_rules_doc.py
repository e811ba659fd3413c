#!/usr/bin/env python3
"""check_rules_doc: docs/rules.md documents exactly the registered rules.

Runs `hpp-rewrite --list-rules` (the table of lib/Rules/Rules.def) and
compares it with the `### `hpp-...`` headings of the rules document: every
registered rule must have one heading, in the section of its kind, and every
heading must name a registered rule. The sections are

  ## Rewrites            lowering rules
  ## Checks (errors)     error checks
  ## Checks (warnings)   warning checks

Prints each difference and exits 1 when there is one; prints the number of
rules and exits 0 otherwise.

usage: check_rules_doc.py --tool path/to/hpp-rewrite path/to/rules.md
"""

import argparse
import re
import subprocess
import sys

SECTIONS = {
    "Rewrites": "lowering",
    "Checks (errors)": "error-check",
    "Checks (warnings)": "warning-check",
}
KINDS = set(SECTIONS.values())


def registered(tool):
    """The rules the tool lists, as {name: kind}, in its order."""
    out = subprocess.run([tool, "--list-rules"], check=True, text=True,
                         stdout=subprocess.PIPE).stdout
    rules = {}
    for line in out.splitlines():
        m = re.match(r"^  (hpp-[a-z0-9-]+)\s+([a-z-]+)", line)
        if m and m.group(2) in KINDS:
            rules[m.group(1)] = m.group(2)
    if not rules:
        sys.exit("check_rules_doc: no rules in the output of --list-rules")
    return rules


def documented(path):
    """The rules the document describes, as [(name, section, line)]."""
    rules = []
    section = None
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            title = re.match(r"^## (.*?)\s*$", line)
            if title:
                section = title.group(1)
                continue
            heading = re.match(r"^### `(hpp-[a-z0-9-]+)`", line)
            if heading:
                rules.append((heading.group(1), section, number))
    return rules


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tool", required=True)
    parser.add_argument("doc")
    args = parser.parse_args()

    rules = registered(args.tool)
    problems = []
    seen = set()
    titles = {kind: title for title, kind in SECTIONS.items()}
    for name, section, line in documented(args.doc):
        where = "%s:%d" % (args.doc, line)
        if name in seen:
            problems.append("%s: '%s' is documented twice" % (where, name))
        seen.add(name)
        if name not in rules:
            problems.append("%s: '%s' is documented but not registered in "
                            "lib/Rules/Rules.def" % (where, name))
        elif SECTIONS.get(section) != rules[name]:
            problems.append("%s: '%s' is a %s rule, documented under '## %s' "
                            "instead of '## %s'"
                            % (where, name, rules[name], section,
                               titles[rules[name]]))
    for name, kind in rules.items():
        if name not in seen:
            problems.append("%s: '%s' (%s) is registered but not documented "
                            "(no '### `%s`' heading)"
                            % (args.doc, name, kind, name))
    for p in problems:
        print(p)
    if problems:
        return 1
    print("%d rules documented" % len(rules))
    return 0


if __name__ == "__main__":
    sys.exit(main())
