// __half times float: the half's operator* and the built-in float product
// through its conversion to float are equally good.
#include <cuda_fp16.h>

__global__ void k(__half *x) { x[0] = x[0] * 2.0f; }

int main() {
  k<<<1, 1>>>(nullptr);
  return 0;
}
// CHECK: half_times_float.cu:5:44: error: use of overloaded operator '*' is ambiguous (with operand types '__half' and 'float')
// NVCC: half_times_float.cu(5): error: more than one operator "*" matches these operands
