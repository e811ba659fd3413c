"""difftest process helpers: Runner (runs commands, at most N at a time,
with a timeout, measuring their CPU time) and Progress (the progress line).
"""

import os
import subprocess
import sys
import threading
import time


class Runner:
    """Runs commands, at most `jobs` at a time, and measures their CPU time
    (user + system: the machine may be shared, so wall time says little)."""

    def __init__(self, jobs, timeout):
        self.slots = threading.Semaphore(jobs)
        self.timeout = timeout

    def run(self, cmd, env=None, cwd=None, timeout=None, timing=None, key=None):
        """(exit status, stdout, stderr); status 124 on a timeout, negative
        for a signal. Adds the command's CPU seconds to timing[key]."""
        full_env = dict(os.environ)
        if env:
            full_env.update(env)
        limit = timeout or self.timeout
        with self.slots:
            try:
                p = subprocess.Popen(cmd, env=full_env, cwd=cwd, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
            except OSError as e:
                return 127, "", "cannot run %s: %s" % (cmd[0], e)
            chunks = {"out": [], "err": []}
            readers = [threading.Thread(target=lambda f=f, k=k: chunks[k].append(f.read()))
                       for f, k in ((p.stdout, "out"), (p.stderr, "err"))]
            for r in readers:
                r.start()
            status, usage = self._wait(p, limit)
            for r in readers:
                r.join()
            p.stdout.close()
            p.stderr.close()
            out = b"".join(chunks["out"]).decode(errors="replace")
            err = b"".join(chunks["err"]).decode(errors="replace")
            if status is None:
                status, err = 124, err + "\ntimed out after %ss" % limit
            if timing is not None and usage is not None:
                timing[key] = timing.get(key, 0) + usage.ru_utime + usage.ru_stime
            return status, out, err

    @staticmethod
    def _wait(p, limit):
        """Waits for `p` (killing it after `limit` seconds): (exit status or
        None on a timeout, its resource usage)."""
        deadline = time.time() + limit
        delay = 0.001
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                p.returncode = os.waitstatus_to_exitcode(status)
                return p.returncode, usage
            if time.time() > deadline:
                p.kill()
                pid, status, usage = os.wait4(p.pid, 0)
                p.returncode = -9
                return None, usage
            time.sleep(delay)
            delay = min(delay * 2, 0.02)


class Progress:
    """A one-line progress display on a terminal, nothing otherwise."""

    def __init__(self, total, enabled):
        self.total, self.done, self.failed = total, 0, 0
        self.enabled = enabled
        self.lock = threading.Lock()
        self.start = time.time()

    def step(self, failed_units):
        with self.lock:
            self.done += 1
            self.failed += failed_units
            if self.enabled:
                sys.stderr.write("\r[%d/%d programs] %d failing units, %.0fs " % (
                    self.done, self.total, self.failed, time.time() - self.start))
                sys.stderr.flush()

    def finish(self):
        if self.enabled:
            sys.stderr.write("\n")

