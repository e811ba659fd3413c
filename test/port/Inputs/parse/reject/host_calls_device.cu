// CUDART_INF_F is a device function's result (__int_as_float), so host
// code cannot use it.
#include <cstdio>
#include <math_constants.h>

int main() {
  float inf = CUDART_INF_F;
  printf("%f\n", inf);
  return 0;
}
// CHECK: host_calls_device.cu:7:15: error: no matching function for call to '__int_as_float'
// NVCC: host_calls_device.cu(7): error: calling a __device__ function("__int_as_float") from a __host__ function("main") is not allowed
