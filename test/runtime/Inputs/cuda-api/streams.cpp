// Streams, events, asynchronous copies and the other kinds of memory
// (test/runtime/cuda-api.test): two streams each copy in, run and copy out
// half of the data, an event on one stream orders the other, the time
// between two events is measured; constant memory set with
// cudaMemcpyToSymbol, a `__device__` variable read back with
// cudaMemcpyFromSymbol (and through cudaGetSymbolAddress), pinned host
// memory, managed memory prefetched with both forms of
// cudaMemPrefetchAsync (CUDA 12's device number, CUDA 13's location).
#include <hpp/cuda_api.h>

#include <cstdio>
#include <cstdlib>

__constant__ float Coefficients[4];
__device__ int Calls;

// Data[I] = c0 + c1 x + c2 x^2 + c3 x^3, x = Data[I].
__global__ void polynomial(float *Data, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    float X = Data[I];
    Data[I] = Coefficients[0] +
              X * (Coefficients[1] + X * (Coefficients[2] + X * Coefficients[3]));
  }
  if (I == 0)
    atomicAdd(&Calls, 1);
}

__global__ void addOne(int *Data, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Data[I] += 1;
}

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t E = (call);                                                    \
    if (E != cudaSuccess) {                                                    \
      std::printf("%s failed: %s\n", #call, cudaGetErrorString(E));           \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

int main() {
  const float Host[4] = {1.0f, 2.0f, 0.0f, 1.0f}; // 1 + 2x + x^3
  CHECK(cudaMemcpyToSymbol(Coefficients, Host, sizeof Host));
  const int Zero = 0;
  CHECK(cudaMemcpyToSymbol(Calls, &Zero, sizeof Zero, 0,
                           cudaMemcpyHostToDevice));

  const int N = 1024, Half = N / 2;
  float *Pinned, *Device;
  CHECK(cudaMallocHost(&Pinned, N * sizeof(float)));
  CHECK(cudaMalloc(&Device, N * sizeof(float)));
  for (int I = 0; I < N; ++I)
    Pinned[I] = float(I % 8);

  cudaStream_t Streams[2];
  CHECK(cudaStreamCreate(&Streams[0]));
  CHECK(cudaStreamCreateWithFlags(&Streams[1], cudaStreamNonBlocking));
  cudaEvent_t Start, Stop, FirstDone;
  CHECK(cudaEventCreate(&Start));
  CHECK(cudaEventCreate(&Stop));
  CHECK(cudaEventCreateWithFlags(&FirstDone, cudaEventDisableTiming));
  CHECK(cudaEventRecord(Start, Streams[0]));
  for (int S = 0; S < 2; ++S) {
    const int Offset = S * Half;
    CHECK(cudaMemcpyAsync(Device + Offset, Pinned + Offset,
                          Half * sizeof(float), cudaMemcpyHostToDevice,
                          Streams[S]));
    hpp::launchCuda(polynomial, Half / 128, 128, 0, Streams[S],
                    Device + Offset, Half);
    CHECK(cudaMemcpyAsync(Pinned + Offset, Device + Offset,
                          Half * sizeof(float), cudaMemcpyDeviceToHost,
                          Streams[S]));
    if (S == 0)
      CHECK(cudaEventRecord(FirstDone, Streams[0]));
    else
      CHECK(cudaStreamWaitEvent(Streams[1], FirstDone, 0));
  }
  CHECK(cudaEventRecord(Stop, Streams[1]));
  CHECK(cudaEventSynchronize(Stop));
  CHECK(cudaStreamSynchronize(Streams[0]));
  CHECK(cudaStreamQuery(Streams[1]));
  CHECK(cudaEventQuery(FirstDone));
  float Ms = -1;
  CHECK(cudaEventElapsedTime(&Ms, Start, Stop));
  int Wrong = 0;
  for (int I = 0; I < N; ++I) {
    const float X = float(I % 8);
    Wrong += Pinned[I] != 1 + 2 * X + X * X * X;
  }
  int HostCalls = 0;
  CHECK(cudaMemcpyFromSymbol(&HostCalls, Calls, sizeof HostCalls));
  int *CallsAddress = nullptr;
  CHECK(cudaGetSymbolAddress((void **)&CallsAddress, Calls));
  int ViaAddress = 0;
  CHECK(cudaMemcpy(&ViaAddress, CallsAddress, sizeof(int),
                   cudaMemcpyDeviceToHost));
  std::printf("streams: %d wrong, %d launches counted (%d via the address), "
              "elapsed time %s\n",
              Wrong, HostCalls, ViaAddress, Ms >= 0 ? "measured" : "negative");

  // Managed memory: written by the host, prefetched, used by a kernel.
  int *Managed;
  CHECK(cudaMallocManaged(&Managed, N * sizeof(int)));
  for (int I = 0; I < N; ++I)
    Managed[I] = I;
  int Device0 = -1;
  CHECK(cudaGetDevice(&Device0));
  CHECK(cudaMemPrefetchAsync(Managed, N * sizeof(int), Device0, Streams[0]));
  cudaMemLocation Location = {};
  Location.type = cudaMemLocationTypeDevice;
  Location.id = Device0;
  CHECK(cudaMemPrefetchAsync(Managed, N * sizeof(int), Location, 0, 0));
  hpp::launchCuda(addOne, N / 256, 256, 0, Streams[0], Managed, N);
  CHECK(cudaDeviceSynchronize());
  long long Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += Managed[I];
  std::printf("managed: sum %lld\n", Sum);

  // Pinned memory by cudaHostAlloc, mapped into the device.
  int *Mapped, *MappedDevice;
  CHECK(cudaHostAlloc(&Mapped, 256 * sizeof(int), cudaHostAllocMapped));
  CHECK(cudaHostGetDevicePointer((void **)&MappedDevice, Mapped, 0));
  CHECK(cudaMemset(MappedDevice, 0, 256 * sizeof(int)));
  hpp::launchCuda(addOne, 1, 256, 0, 0, MappedDevice, 256);
  CHECK(cudaDeviceSynchronize());
  std::printf("mapped: %d %d\n", Mapped[0], Mapped[255]);

  size_t Free = 0, Total = 0;
  CHECK(cudaMemGetInfo(&Free, &Total));
  std::printf("memory info: %s\n",
              Free > 0 && Free <= Total ? "consistent" : "inconsistent");

  CHECK(cudaEventDestroy(Start));
  CHECK(cudaEventDestroy(Stop));
  CHECK(cudaEventDestroy(FirstDone));
  CHECK(cudaStreamDestroy(Streams[0]));
  CHECK(cudaStreamDestroy(Streams[1]));
  CHECK(cudaFreeHost(Pinned));
  CHECK(cudaFreeHost(Mapped));
  CHECK(cudaFree(Device));
  CHECK(cudaFree(Managed));
  CHECK(cudaDeviceReset());
  return 0;
}
