#!/usr/bin/env python3
# ===- kill_inplace.py - Kill hpp-rewrite --in-place while it replaces files ===#
#
# Part of hpp-rewrite. Test helper (test/tool/in-place-kill.test).
#
# usage: kill_inplace.py TOOL WORKDIR SOURCE...
#
# For SIGKILL and SIGTERM: copies the sources into WORKDIR, runs
# `TOOL --in-place --commit-pause-ms=3000 copies...`, waits until the first
# copy has been replaced (the tool is then between two renames), and kills
# it (3 s before the next rename: a loaded machine still kills it in
# time). Then every copy must be whole: byte-identical to its source or to its
# rewrite (TOOL SOURCE on stdout), with at least one of each; after
# SIGTERM no temporary file may be left. Exit status 0 when all holds.
#
# ===----------------------------------------------------------------------===#
import os
import shutil
import signal
import subprocess
import sys
import time


def main():
    tool, work, sources = sys.argv[1], sys.argv[2], sys.argv[3:]
    originals = [open(s, "rb").read() for s in sources]
    ok = True
    for sig in (signal.SIGKILL, signal.SIGTERM):
        run = os.path.join(work, sig.name)
        shutil.rmtree(run, ignore_errors=True)
        os.makedirs(run)
        copies = []
        for s in sources:
            copies.append(os.path.join(run, os.path.basename(s)))
            shutil.copyfile(s, copies[-1])
        # The output names its input (#line directives): rewrite the copies.
        rewritten = [subprocess.run([tool, c], check=True, capture_output=True).stdout
                     for c in copies]
        proc = subprocess.Popen([tool, "--in-place", "--no-backup", "--quiet",
                                 "--commit-pause-ms=3000"] + copies,
                                stderr=subprocess.DEVNULL)
        deadline = time.time() + 300
        while open(copies[0], "rb").read() != rewritten[0]:
            if proc.poll() is not None or time.time() > deadline:
                print(f"{sig.name}: the tool ended (or timed out) before "
                      "replacing the first file")
                proc.kill()
                return 1
            time.sleep(0.01)
        proc.send_signal(sig)
        proc.wait()
        states = []
        for c, o, r in zip(copies, originals, rewritten):
            data = open(c, "rb").read()
            state = "original" if data == o else "rewritten" if data == r else "HALF"
            states.append(state)
        left = sorted(f for f in os.listdir(run) if ".hpp-rewrite-" in f)
        print(f"{sig.name}: {' '.join(states)}; temporaries left: {len(left)}")
        if "HALF" in states or "original" not in states or "rewritten" not in states:
            ok = False
        if sig == signal.SIGTERM and left:
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
