// The errors of the CUDA runtime API on the CPU backend
// (test/runtime/cuda-api.test), one mode per kind, each printing the
// error's name, CUDA's text and hpp::lastCudaErrorPlace(); the expected
// output is FileCheck directives here, above the lines they name.
#include <hpp/cuda_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

namespace cg = cooperative_groups;

__constant__ int Table[8];

__global__ void fill(int *Data, int Value) {
  Data[blockIdx.x * blockDim.x + threadIdx.x] = Value;
}

__global__ void pastShared(int Count) {
  int *Smem = hpp::dynamicShared<int>();
  if (threadIdx.x == 0)
    Smem[Count] = 1; // One int past the launch's Count ints.
}

__global__ void gridSync(int *Data) {
  Data[threadIdx.x] = 1;
  // GRID-SYNC: errors.cpp:[[@LINE+1]]: grid_group::sync failed: the grid synchronizes only in a cooperative launch (cudaLaunchCooperativeKernel or hpp::launchCudaCooperative)
  cg::this_grid().sync();
}

__global__ void neverSeen(int *Data) { Data[0] = 1; }

static void report(const char *What, cudaError_t E) {
  std::printf("%s: %s (%s)", What, cudaGetErrorName(E), cudaGetErrorString(E));
  if (E != cudaSuccess)
    std::printf(" at %s", hpp::lastCudaErrorPlace().str().c_str());
  std::printf("\n");
}

int main(int Argc, char **Argv) {
  if (Argc != 2)
    return 2;
  const char *Mode = Argv[1];
  int *D = nullptr;
  if (cudaMalloc(&D, 16 * sizeof(int)) != cudaSuccess)
    return 3;
  int Host[32] = {};

  if (!std::strcmp(Mode, "copy")) {
    // COPY: past the end: cudaErrorInvalidValue (invalid argument) at {{.*}}errors.cpp:[[@LINE+1]]
    report("past the end", cudaMemcpy(D, Host, 17 * sizeof(int), cudaMemcpyHostToDevice));
    // COPY-NEXT: last error: cudaErrorInvalidValue (invalid argument) at {{.*}}errors.cpp:[[@LINE-1]]
    report("last error", cudaGetLastError());
    // COPY-NEXT: then: cudaSuccess (no error)
    report("then", cudaGetLastError());
    // COPY-NEXT: leaves from inside: cudaErrorInvalidValue (invalid argument) at {{.*}}errors.cpp:[[@LINE+1]]
    report("leaves from inside", cudaMemcpy(Host, D + 10, 8 * sizeof(int), cudaMemcpyDeviceToHost));
    // COPY-NEXT: host pointer as device: cudaErrorInvalidValue (invalid argument) at {{.*}}errors.cpp:[[@LINE+1]]
    report("host pointer as device", cudaMemcpy(Host + 16, Host, 4, cudaMemcpyHostToDevice));
    // COPY-NEXT: memset past the end: cudaErrorInvalidValue (invalid argument) at {{.*}}errors.cpp:[[@LINE+1]]
    report("memset past the end", cudaMemset(D + 8, 0, 9 * sizeof(int)));
    // COPY-NEXT: symbol too small: cudaErrorInvalidValue (invalid argument) at {{.*}}errors.cpp:[[@LINE+1]]
    report("symbol too small", cudaMemcpyToSymbol(Table, Host, 4 * sizeof(int), 5 * sizeof(int)));
    // COPY-NEXT: symbol direction: cudaErrorInvalidMemcpyDirection (invalid copy direction for memcpy) at {{.*}}errors.cpp:[[@LINE+1]]
    report("symbol direction", cudaMemcpyToSymbol(Table, Host, 4, 0, cudaMemcpyDeviceToHost));
    // COPY-NEXT: within: cudaSuccess (no error)
    report("within", cudaMemcpy(Host, D + 8, 8 * sizeof(int), cudaMemcpyDeviceToHost));
    // COPY-NEXT: poisoned: -1
    std::printf("poisoned: %d\n", Host[0]);
  } else if (!std::strcmp(Mode, "launch")) {
    cudaMemset(D, 0, 16 * sizeof(int));
    // LAUNCH: block of 2048: cudaErrorInvalidConfiguration (invalid configuration argument) at {{.*}}errors.cpp:[[@LINE+1]]
    hpp::launchCuda(fill, 1, 2048, 0, 0, D, 1);
    report("block of 2048", cudaPeekAtLastError());
    // LAUNCH-NEXT: read: cudaErrorInvalidConfiguration (invalid configuration argument) at {{.*}}errors.cpp:[[@LINE-2]]
    report("read", cudaGetLastError());
    // LAUNCH-NEXT: then: cudaSuccess (no error)
    report("then", cudaGetLastError());
    // LAUNCH-NEXT: block of 32x32x2: cudaErrorInvalidConfiguration (invalid configuration argument) at {{.*}}errors.cpp:[[@LINE+1]]
    hpp::launchCuda(fill, 1, dim3(32, 32, 2), 0, 0, D, 1);
    report("block of 32x32x2", cudaGetLastError());
    // LAUNCH-NEXT: z of 65: cudaErrorInvalidConfiguration (invalid configuration argument) at {{.*}}errors.cpp:[[@LINE+1]]
    hpp::launchCuda(fill, 1, dim3(1, 1, 65), 0, 0, D, 1);
    report("z of 65", cudaGetLastError());
    // LAUNCH-NEXT: empty grid: cudaErrorInvalidConfiguration (invalid configuration argument) at {{.*}}errors.cpp:[[@LINE+1]]
    hpp::launchCuda(fill, 0, 16, 0, 0, D, 1);
    report("empty grid", cudaGetLastError());
    // LAUNCH-NEXT: 49 KiB of shared memory: cudaErrorInvalidValue (invalid argument) at {{.*}}errors.cpp:[[@LINE+1]]
    hpp::launchCuda(fill, 1, 16, 49 * 1024, 0, D, 1);
    report("49 KiB of shared memory", cudaGetLastError());
    cudaMemcpy(Host, D, 16 * sizeof(int), cudaMemcpyDeviceToHost);
    // LAUNCH-NEXT: nothing ran: 0
    std::printf("nothing ran: %d\n", Host[0] + Host[15]);
  } else if (!std::strcmp(Mode, "free")) {
    // FREE: stack: cudaErrorInvalidValue (invalid argument) at {{.*}}errors.cpp:[[@LINE+1]]
    report("stack", cudaFree(Host));
    // FREE-NEXT: interior: cudaErrorInvalidValue (invalid argument) at {{.*}}errors.cpp:[[@LINE+1]]
    report("interior", cudaFree(D + 1));
    // FREE-NEXT: host free of device memory: cudaErrorInvalidValue (invalid argument) at {{.*}}errors.cpp:[[@LINE+1]]
    report("host free of device memory", cudaFreeHost(D));
    // FREE-NEXT: free: cudaSuccess (no error)
    report("free", cudaFree(D));
    // FREE-NEXT: again: cudaErrorInvalidValue (invalid argument) at {{.*}}errors.cpp:[[@LINE+1]]
    report("again", cudaFree(D));
    // FREE-NEXT: null: cudaSuccess (no error)
    report("null", cudaFree(nullptr));
    // FREE-NEXT: copy after free: cudaErrorInvalidValue (invalid argument) at {{.*}}errors.cpp:[[@LINE+1]]
    report("copy after free", cudaMemcpy(D, Host, 4, cudaMemcpyHostToDevice));
  } else if (!std::strcmp(Mode, "handles")) {
    cudaStream_t S;
    cudaStreamCreate(&S);
    cudaStreamDestroy(S);
    // HANDLES: destroyed stream: cudaErrorInvalidResourceHandle (invalid resource handle) at {{.*}}errors.cpp:[[@LINE+1]]
    report("destroyed stream", cudaStreamSynchronize(S));
    // HANDLES-NEXT: launch on it: cudaErrorInvalidResourceHandle (invalid resource handle) at {{.*}}errors.cpp:[[@LINE+1]]
    hpp::launchCuda(fill, 1, 16, 0, S, D, 1);
    report("launch on it", cudaGetLastError());
    cudaEvent_t A, B, Untimed;
    cudaEventCreate(&A);
    cudaEventCreate(&B);
    cudaEventCreateWithFlags(&Untimed, cudaEventDisableTiming);
    cudaEventRecord(A);
    float Ms;
    // HANDLES-NEXT: never recorded: cudaErrorInvalidResourceHandle (invalid resource handle) at {{.*}}errors.cpp:[[@LINE+1]]
    report("never recorded", cudaEventElapsedTime(&Ms, A, B));
    cudaEventRecord(Untimed);
    // HANDLES-NEXT: without timing: cudaErrorInvalidResourceHandle (invalid resource handle) at {{.*}}errors.cpp:[[@LINE+1]]
    report("without timing", cudaEventElapsedTime(&Ms, A, Untimed));
    // HANDLES-NEXT: device 1: cudaErrorInvalidDevice (invalid device ordinal) at {{.*}}errors.cpp:[[@LINE+1]]
    report("device 1", cudaSetDevice(1));
    // HANDLES-NEXT: unknown code: unrecognized error code
    std::printf("unknown code: %s\n", cudaGetErrorString(cudaError_t(12345)));
  } else if (!std::strcmp(Mode, "check")) {
    // CHECK-REPORT: errors.cpp:[[@LINE+3]]: cudaGetLastError() failed: invalid configuration argument (set by the kernel launch at {{.*}}errors.cpp:[[@LINE+1]])
    hpp::launchCuda(fill, 1, 2048, 0, 0, D, 1);
    try {
      HPP_CUDA_CHECK(cudaGetLastError());
    } catch (const std::exception &E) {
      std::printf("%s\n", E.what());
    }
    try {
      // CHECK-REPORT-NEXT: errors.cpp:[[@LINE+1]]: cudaMemcpy(D, Host, 20 * sizeof(int), cudaMemcpyHostToDevice) failed: invalid argument (set by the cudaMemcpy at {{.*}}errors.cpp:[[@LINE+1]])
      HPP_CHECK(cudaMemcpy(D, Host, 20 * sizeof(int), cudaMemcpyHostToDevice));
    } catch (const std::exception &E) {
      std::printf("%s\n", E.what());
    }
    // CHECK-REPORT-NEXT: cleared: cudaSuccess (no error)
    report("cleared", cudaGetLastError());
  } else if (!std::strcmp(Mode, "unread")) {
    // UNREAD: errors.cpp:[[@LINE+1]]: hpp: the kernel launch here failed (invalid configuration argument), and no cudaGetLastError or cudaPeekAtLastError read the error
    hpp::launchCuda(fill, 1, 4096, 0, 0, D, 1);
    return 0;
  } else if (!std::strcmp(Mode, "overflow")) {
    try {
      // OVERFLOW: errors.cpp:[[@LINE+1]]: kernel launch failed: a thread of block ({{[01]}},0,0) wrote byte 64 of its dynamic shared memory, past the 64 bytes the launch gave it
      hpp::launchCuda(pastShared, dim3(2), dim3(32), 16 * sizeof(int), 0, 16);
    } catch (const std::exception &E) {
      std::printf("%s\n", E.what());
    }
  } else if (!std::strcmp(Mode, "grid-sync")) {
    try {
      hpp::launchCuda(gridSync, 2, 16, 0, 0, D);
    } catch (const std::exception &E) {
      std::printf("%s\n", E.what());
    }
  } else if (!std::strcmp(Mode, "setting")) {
    try {
      // SETTING: errors.cpp:[[@LINE+1]]: HPP_CPU_{{CHECK=bogus failed: unknown check 'bogus'; the CPU runtimes know: uninit|MVECTOR=48 failed: the simulated mvector width must be 32 or 64}}
      hpp::launchCuda(fill, 1, 16, 0, 0, D, 1);
    } catch (const std::exception &E) {
      std::printf("%s\n", E.what());
    }
  } else if (!std::strcmp(Mode, "by-address")) {
    void *Args[] = {&D};
    try {
      // BY-ADDRESS: errors.cpp:[[@LINE+1]]: cudaLaunchKernel failed: the CPU backend calls a kernel given by its address only once it has seen the kernel typed
      (void)cudaLaunchKernel((const void *)neverSeen, dim3(1), dim3(1), Args, 0, 0);
    } catch (const std::exception &E) {
      std::printf("%s\n", E.what());
    }
    // BY-ADDRESS-NEXT: typed: cudaSuccess (no error)
    report("typed", cudaLaunchKernel(neverSeen, dim3(1), dim3(1), Args, 0, 0));
    // BY-ADDRESS-NEXT: by address now: cudaSuccess (no error)
    report("by address now", cudaLaunchKernel((const void *)neverSeen, dim3(1), dim3(1), Args, 0, 0));
  }
  return 0;
}
