"""warpgenlib: the parts of scripts/warpgen.py, the warp program generator.

kernel.py holds a kernel's random choices and its 64-lane model, pieces.py
the code shared by the kernel families, families_reduce.py and
families_scan.py the families themselves.
"""
