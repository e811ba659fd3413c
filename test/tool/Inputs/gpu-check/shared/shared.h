// A project header two sources of one program include (gpu-check.test):
// in a batch it is hoisted out of the members' namespaces, else the second
// member would not see what #pragma once keeps from it.
#pragma once
__host__ __device__ inline int twice(int X) { return 2 * X; }
