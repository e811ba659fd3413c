#===- device_errors_lines.py - The lines device_errors' messages name ----===#
#
# Part of hpp-rewrite. Test helper.
#
#===----------------------------------------------------------------------===#
#
# usage: device_errors_lines.py SOURCE
#
# Prints "LINE:TEXT" (as grep -n does) for the line of SOURCE that contains
# each marker below (exactly one), in this order: examples/device_errors.cpp
# or its rewritten form, whose kernels come in another order.
# test/examples/device_errors.test reads them with FileCheck, for the
# reference's output and for the rewritten program's.
#
#===----------------------------------------------------------------------===#
import sys

MARKERS = ["[read]", "[task-wait]", "[barrier]", "[barrier-wait]",
           "[partial]", "[partial-wait]", "[consumer-read]", "[task]",
           "stuck.enqueue(", "second = mark.enqueue(", "third = mark.enqueue(",
           "Barrier B2(64);", "B2.wait();", "stuck2.enqueue(",
           "last = mark.enqueue(", "Barrier B3(64);", "stuck3.enqueue(",
           "const int ParallelForLine"]

with open(sys.argv[1]) as f:
    lines = f.read().split("\n")
for marker in MARKERS:
    found = [n for n, text in enumerate(lines, 1) if marker in text]
    if len(found) != 1:
        sys.exit("%s: %d lines contain %r" % (sys.argv[1], len(found), marker))
    print("%d:%s" % (found[0], lines[found[0] - 1]))
