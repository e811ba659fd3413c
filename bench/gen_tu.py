#!/usr/bin/env python3
#===- bench/gen_tu.py - A generated dialect translation unit --------------===#
#
# Part of hpp-rewrite. Benchmark.
#
#===----------------------------------------------------------------------===#
"""usage: gen_tu.py FUNCTIONS [PREFIX]

Prints a dialect TU of FUNCTIONS functions, each a __device(hpp) helper and
two parallelFor calls (14 lines each), named kernel<PREFIX><k>: the input
of bench/rewrite_speed.sh (one large TU) and bench/rewrite_project.sh (one
such TU per file of a project, PREFIX telling the files apart).
"""
import sys

n = int(sys.argv[1])
prefix = sys.argv[2] if len(sys.argv) > 2 else ""
print('#include <hpp/hpp.h>\nusing namespace hpp;\n')
for k in range(n):
    print(f'''__device(hpp) inline float helper{k}(float x) {{ return x * {k % 7 + 1}.0f + 1.0f; }}
void kernel{prefix}{k}(Pointer<float> a, Pointer<float> b, float s, int n) {{
  // step {k}
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {{
    float v = a[i.getX()];
    for (int r = 0; r < {k % 5 + 1}; ++r)
      v = helper{k}(v) * s;
    b[i.getX()] = v;
  }});
  parallelFor(Range<2>(n, n), [=](Index<2> p) __device(hpp) {{
    a[p.getY() * n + p.getX()] += b[p.getX()];
  }});
}}
''')
