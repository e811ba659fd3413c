// The driver API next to the runtime: <cuda.h> for CUDA_VERSION, device
// queries, the primary context and driver memory, and the runtime's kernel
// launch in the same file.
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>

#define CU_CHECK(call)                                                         \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      const char *msg_ = nullptr;                                              \
      cuGetErrorString(r_, &msg_);                                             \
      fprintf(stderr, "%s failed: %s\n", #call, msg_);                         \
    }                                                                          \
  } while (0)

__global__ void iota(int *a) { a[threadIdx.x] = threadIdx.x; }

int main() {
#if CUDA_VERSION >= 12000
  printf("CUDA %d.%d\n", CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10);
#endif
  CU_CHECK(cuInit(0));
  int n = 0;
  CU_CHECK(cuDeviceGetCount(&n));
  CUdevice dev;
  CU_CHECK(cuDeviceGet(&dev, 0));
  char name[128];
  CU_CHECK(cuDeviceGetName(name, sizeof(name), dev));
  int sms = 0;
  CU_CHECK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                                dev));
  CUcontext ctx;
  CU_CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU_CHECK(cuCtxSetCurrent(ctx));
  CUdeviceptr dptr;
  CU_CHECK(cuMemAlloc(&dptr, 32 * sizeof(int)));
  iota<<<1, 32>>>((int *)dptr);
  CU_CHECK(cuCtxSynchronize());
  int host[32];
  CU_CHECK(cuMemcpyDtoH(host, dptr, sizeof(host)));
  CU_CHECK(cuMemFree(dptr));
  CU_CHECK(cuDevicePrimaryCtxRelease(dev));
  printf("%s: %d SMs, %d devices, host[31] = %d\n", name, sms, n, host[31]);
  return 0;
}
