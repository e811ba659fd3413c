// Reductions as ported CUDA writes them (test/runtime/cuda-api.test): a
// block reduction in dynamic shared memory (`extern __shared__ float
// smem[]`, which hpp-rewrite makes hpp::dynamicShared<float>()), a warp-tile
// reduction with cg::reduce and the tile's shuffles, float and double
// atomicAdd of the partial sums, a byte buffer (`extern __shared__
// __align__(16) unsigned char`) used as doubles, and the poison of dynamic
// shared memory: each block finds it unwritten (NaN), never the previous
// block's values.
#include <hpp/cuda_api.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;

__global__ void blockSum(const float *In, float *Out, int N) {
  float *Smem = hpp::dynamicShared<float>();
  unsigned T = threadIdx.x;
  unsigned I = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  float V = 0;
  if (I < N)
    V = In[I];
  if (I + blockDim.x < N)
    V += In[I + blockDim.x];
  Smem[T] = V;
  __syncthreads();
  for (unsigned S = blockDim.x / 2; S > 0; S >>= 1) {
    if (T < S)
      Smem[T] += Smem[T + S];
    __syncthreads();
  }
  if (T == 0)
    Out[blockIdx.x] = Smem[0];
}

// Tiles of 32 threads: cg::reduce, then the tile's shfl_down for the max;
// Tiles counts the tiles (meta_group_rank / meta_group_size).
__global__ void tileSum(const float *In, float *Total, double *TotalD,
                        int *Max, unsigned *Tiles, int N) {
  cg::thread_block Block = cg::this_thread_block();
  cg::thread_block_tile<32> Tile = cg::tiled_partition<32>(Block);
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  float V = I < N ? In[I] : 0.0f;
  float Sum = cg::reduce(Tile, V, cg::plus<float>());
  int M = I < N ? int(In[I]) : 0;
  for (int Offset = Tile.size() / 2; Offset > 0; Offset /= 2)
    M = max(M, Tile.shfl_down(M, Offset));
  if (Tile.thread_rank() == 0 && Tile.num_threads() == 32 &&
      Tile.meta_group_rank() == threadIdx.x / 32 &&
      Tile.meta_group_size() == blockDim.x / 32)
    atomicAdd(Tiles, 1u);
  if (Tile.thread_rank() == 0) {
    atomicAdd(Total, Sum);
    atomicAdd(TotalD, double(Sum));
    atomicMax(Max, M);
  }
}

// Bytes of dynamic shared memory read as doubles; thread 0 first reads the
// slot nobody wrote yet.
__global__ void poisoned(double *FirstRead, double *Sums) {
  unsigned char *Bytes = hpp::dynamicShared<unsigned char>();
  double *Slots = reinterpret_cast<double *>(Bytes);
  if (threadIdx.x == 0)
    FirstRead[blockIdx.x] = Slots[0];
  __syncthreads();
  Slots[threadIdx.x] = blockIdx.x + 1;
  __syncthreads();
  if (threadIdx.x == 0) {
    double S = 0;
    for (unsigned K = 0; K < blockDim.x; ++K)
      S += Slots[K];
    Sums[blockIdx.x] = S;
  }
}

// CUDA device functions HIP 5.2 lacks (the CPU backend has them): each
// lane counts the lanes of its warp with its key (__match_any_sync), and
// reads and writes through the cache-hinted __ldcs / __stcs; min and max
// with CUDA's overloads (int and unsigned: unsigned); a tile's votes.
#if !defined(HPP_BACKEND_HIP)
__global__ void groupBy(const int *Keys, int *Counts, unsigned *Largest,
                        int *Votes) {
  const int I = blockIdx.x * blockDim.x + threadIdx.x;
  const int Key = __ldcs(Keys + I);
  const unsigned Same = __match_any_sync(0xffffffffu, Key);
  __stcs(Counts + I, __popc(Same));
  atomicMax(Largest, max(Key, 0u));
  cg::thread_block_tile<32> Tile =
      cg::tiled_partition<32>(cg::this_thread_block());
  Votes[I] = __popc(Tile.ballot(Key == 7)) * 100 + Tile.any(Key == 4) * 10 +
             Tile.all(Key >= 0);
}
#endif

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t E = (call);                                                    \
    if (E != cudaSuccess) {                                                    \
      std::printf("%s failed: %s\n", #call, cudaGetErrorString(E));           \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

int main() {
  const int N = 5000, Threads = 128;
  std::vector<float> Host(N);
  for (int I = 0; I < N; ++I)
    Host[I] = float(I % 100);
  float *In, *Partial, *Total;
  double *TotalD;
  int *Max;
  unsigned *Tiles;
  const int Blocks = (N + 2 * Threads - 1) / (2 * Threads);
  CHECK(cudaMalloc(&In, N * sizeof(float)));
  CHECK(cudaMalloc(&Partial, Blocks * sizeof(float)));
  CHECK(cudaMalloc(&Total, sizeof(float)));
  CHECK(cudaMalloc(&TotalD, sizeof(double)));
  CHECK(cudaMalloc(&Max, sizeof(int)));
  CHECK(cudaMalloc(&Tiles, sizeof(unsigned)));
  CHECK(cudaMemcpy(In, Host.data(), N * sizeof(float), cudaMemcpyHostToDevice));

  hpp::launchCuda(blockSum, Blocks, Threads, Threads * sizeof(float), 0, In,
                  Partial, N);
  CHECK(cudaGetLastError());
  std::vector<float> Sums(Blocks);
  CHECK(cudaMemcpy(Sums.data(), Partial, Blocks * sizeof(float),
                   cudaMemcpyDeviceToHost));
  double Sum = 0;
  for (float S : Sums)
    Sum += S;
  std::printf("blockSum: %d blocks, sum %.0f\n", Blocks, Sum);

  CHECK(cudaMemset(Total, 0, sizeof(float)));
  CHECK(cudaMemset(TotalD, 0, sizeof(double)));
  CHECK(cudaMemset(Max, 0, sizeof(int)));
  CHECK(cudaMemset(Tiles, 0, sizeof(unsigned)));
  hpp::launchCuda(tileSum, (N + 255) / 256, 256, 0, 0, In, Total, TotalD, Max,
                  Tiles, N);
  CHECK(cudaGetLastError());
  float T;
  double TD;
  int M;
  unsigned HostTiles;
  CHECK(cudaMemcpy(&HostTiles, Tiles, sizeof HostTiles, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&T, Total, sizeof T, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&TD, TotalD, sizeof TD, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&M, Max, sizeof M, cudaMemcpyDeviceToHost));
  std::printf("tileSum: float %.0f, double %.0f, max %d, %u tiles\n", T, TD, M,
              HostTiles);

  const int PBlocks = 3, PThreads = 64;
  double *First, *PSums;
  CHECK(cudaMalloc(&First, PBlocks * sizeof(double)));
  CHECK(cudaMalloc(&PSums, PBlocks * sizeof(double)));
  hpp::launchCuda(poisoned, PBlocks, PThreads, PThreads * sizeof(double), 0,
                  First, PSums);
  CHECK(cudaGetLastError());
  double HFirst[PBlocks], HSums[PBlocks];
  CHECK(cudaMemcpy(HFirst, First, sizeof HFirst, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(HSums, PSums, sizeof HSums, cudaMemcpyDeviceToHost));
  for (int B = 0; B < PBlocks; ++B)
    std::printf("poisoned block %d: first read %s, sum %.0f\n", B,
                std::isnan(HFirst[B]) ? "NaN" : "a value", HSums[B]);
#if !defined(HPP_BACKEND_HIP)
  int *Keys, *Counts, *Votes;
  unsigned *Largest;
  CHECK(cudaMallocManaged(&Keys, 64 * sizeof(int)));
  CHECK(cudaMallocManaged(&Counts, 64 * sizeof(int)));
  CHECK(cudaMallocManaged(&Votes, 64 * sizeof(int)));
  CHECK(cudaMallocManaged(&Largest, sizeof(unsigned)));
  for (int I = 0; I < 64; ++I)
    Keys[I] = I % 3 == 0 ? 7 : I % 5;
  *Largest = 0;
  hpp::launchCuda(groupBy, 2, 32, 0, 0, Keys, Counts, Largest, Votes);
  CHECK(cudaDeviceSynchronize());
  std::printf("groupBy: lane 0 with %d, lane 1 with %d, lane 33 with %d, "
              "largest %u, votes %d %d\n",
              Counts[0], Counts[1], Counts[33], *Largest, Votes[0], Votes[63]);
#endif
  return 0;
}
