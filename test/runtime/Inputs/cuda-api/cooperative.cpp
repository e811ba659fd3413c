// Occupancy, kernel attributes and cooperative launches
// (test/runtime/cuda-api.test): a grid sized by the occupancy calls, as
// CUDA's samples size a cooperative grid, runs a two-phase kernel that
// synchronizes the grid (cg::this_grid().sync()) between the phases,
// launched by cudaLaunchCooperativeKernel (from the kernel, and from
// `(void *)kernel`) and by hpp::launchCudaCooperative; a kernel opted into
// more than 48 KiB of dynamic shared memory; the device's properties and
// attributes agree.
#include <hpp/cuda_api.h>

#include <cstdio>
#include <cstdlib>

namespace cg = cooperative_groups;

// Phase 1: each thread writes its rank; phase 2: each reads its mirror's.
__global__ void mirror(int *Data, int *Out) {
  cg::grid_group Grid = cg::this_grid();
  const unsigned long long Rank = Grid.thread_rank();
  const unsigned long long Size = Grid.size();
  Data[Rank] = int(Rank);
  Grid.sync();
  Out[Rank] = Data[Size - 1 - Rank];
}

__global__ void bigShared(int *Out) {
  int *Smem = hpp::dynamicShared<int>();
  const int Count = 64 * 1024 / sizeof(int);
  for (int I = threadIdx.x; I < Count; I += blockDim.x)
    Smem[I] = I;
  __syncthreads();
  if (threadIdx.x == 0)
    Out[blockIdx.x] = Smem[Count - 1];
}

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t E = (call);                                                    \
    if (E != cudaSuccess) {                                                    \
      std::printf("%s failed: %s\n", #call, cudaGetErrorString(E));           \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

static int checkMirror(const int *Out, int Items) {
  int Wrong = 0;
  for (int I = 0; I < Items; ++I)
    Wrong += Out[I] != Items - 1 - I;
  return Wrong;
}

int main() {
  cudaDeviceProp Prop;
  CHECK(cudaGetDeviceProperties(&Prop, 0));
  int Cooperative = 0, SMs = 0, MaxShared = 0, Optin = 0;
  CHECK(cudaDeviceGetAttribute(&Cooperative, cudaDevAttrCooperativeLaunch, 0));
  CHECK(cudaDeviceGetAttribute(&SMs, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaDeviceGetAttribute(&MaxShared, cudaDevAttrMaxSharedMemoryPerBlock,
                               0));
  CHECK(cudaDeviceGetAttribute(&Optin, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                               0));
  std::printf("device: cooperative %d, attributes agree %s\n", Cooperative,
              SMs == Prop.multiProcessorCount &&
                      size_t(MaxShared) == Prop.sharedMemPerBlock &&
                      Optin >= MaxShared
                  ? "yes"
                  : "no");

  const int Threads = 128;
  int PerSM = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&PerSM, mirror, Threads,
                                                      0));
  int MinGrid = 0, BlockSize = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&MinGrid, &BlockSize, mirror));
  int PerSMAtBest = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&PerSMAtBest, mirror,
                                                      BlockSize, 0));
  std::printf("occupancy: %s, potential block size %s\n",
              PerSM > 0 ? "blocks fit" : "no block fits",
              BlockSize > 0 && BlockSize % Prop.warpSize == 0 &&
                      MinGrid == PerSMAtBest * Prop.multiProcessorCount
                  ? "consistent"
                  : "inconsistent");

  // A grid of two blocks per multiprocessor (at most what fits).
  const int Blocks = (PerSM < 2 ? PerSM : 2) * Prop.multiProcessorCount;
  const int Items = Blocks * Threads;
  int *Data, *Out;
  CHECK(cudaMallocManaged(&Data, Items * sizeof(int)));
  CHECK(cudaMallocManaged(&Out, Items * sizeof(int)));
  void *Args[] = {&Data, &Out};
  CHECK(cudaLaunchCooperativeKernel(mirror, Blocks, Threads, Args));
  CHECK(cudaDeviceSynchronize());
  int Wrong = checkMirror(Out, Items);
  CHECK(cudaMemset(Out, 0, Items * sizeof(int)));
  CHECK(cudaLaunchCooperativeKernel((void *)mirror, dim3(Blocks),
                                    dim3(Threads), Args, 0, 0));
  CHECK(cudaDeviceSynchronize());
  Wrong += checkMirror(Out, Items);
  CHECK(cudaMemset(Out, 0, Items * sizeof(int)));
  CHECK(hpp::launchCudaCooperative(mirror, Blocks, Threads, 0, 0, Data, Out));
  CHECK(cudaDeviceSynchronize());
  Wrong += checkMirror(Out, Items);
  std::printf("cooperative: 3 launches, %d wrong\n", Wrong);

  // Too many blocks to be resident at once.
  const cudaError_t TooLarge = cudaLaunchCooperativeKernel(
      mirror, PerSM * Prop.multiProcessorCount + 1, Threads, Args);
  std::printf("too large: %s\n", cudaGetErrorName(TooLarge));
  CHECK(cudaGetLastError() == TooLarge ? cudaSuccess : cudaErrorUnknown);

  // 64 KiB of dynamic shared memory: refused by default, then opted in.
  int *BigOut;
  CHECK(cudaMalloc(&BigOut, 2 * sizeof(int)));
  hpp::launchCuda(bigShared, 2, 256, 64 * 1024, 0, BigOut);
  std::printf("64 KiB without opt-in: %s\n",
              cudaGetErrorString(cudaGetLastError()));
  CHECK(cudaFuncSetAttribute(bigShared,
                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                             64 * 1024));
  hpp::launchCuda(bigShared, 2, 256, 64 * 1024, 0, BigOut);
  CHECK(cudaGetLastError());
  int HostBig[2];
  CHECK(cudaMemcpy(HostBig, BigOut, sizeof HostBig, cudaMemcpyDeviceToHost));
  cudaFuncAttributes Attributes;
  CHECK(cudaFuncGetAttributes(&Attributes, bigShared));
  std::printf("64 KiB opted in: %d %d, attribute %d\n", HostBig[0], HostBig[1],
              Attributes.maxDynamicSharedSizeBytes);
  CHECK(cudaFree(Data));
  CHECK(cudaFree(Out));
  CHECK(cudaFree(BigOut));
  return 0;
}
