//===- test/Inputs/mock/cuda_runtime.h - Mock CUDA runtime API ------------===//
//
// Part of hpp-rewrite's tests: just enough of <cuda_runtime.h> for the
// rewriter to parse a dialect source that also calls the CUDA host API,
// with no CUDA SDK installed. Never compiled into programs.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_TEST_MOCK_CUDA_RUNTIME_H
#define HPP_TEST_MOCK_CUDA_RUNTIME_H
typedef enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1 } cudaError_t;
extern "C" cudaError_t cudaDeviceSynchronize(void);
extern "C" cudaError_t cudaGetDeviceCount(int *count);
extern "C" const char *cudaGetErrorString(cudaError_t error);
#endif
