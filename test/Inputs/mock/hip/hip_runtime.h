//===- test/Inputs/mock/hip/hip_runtime.h - Mock HIP runtime API ----------===//
//
// Part of hpp-rewrite's tests: just enough of <hip/hip_runtime.h> for the
// rewriter to parse a dialect source that also calls the HIP host API, with
// no ROCm SDK installed. Never compiled into programs.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_TEST_MOCK_HIP_RUNTIME_H
#define HPP_TEST_MOCK_HIP_RUNTIME_H
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
extern "C" hipError_t hipDeviceSynchronize(void);
extern "C" hipError_t hipGetDeviceCount(int *count);
extern "C" const char *hipGetErrorString(hipError_t error);
#endif
