"""Runs the command given as arguments and prints how it ended: "exit N",
or "signal N" when a signal killed it (which lit's `not` would take for a
failure, and so pass). Its own status is 0 either way; its output and error
streams are the command's."""
import subprocess
import sys

code = subprocess.run(sys.argv[1:]).returncode
sys.stdout.flush()
print(f"signal {-code}" if code < 0 else f"exit {code}")
