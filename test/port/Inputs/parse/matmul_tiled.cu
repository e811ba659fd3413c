// Tiled matrix multiplication: 2D dim3 grids and blocks, a tile size as a
// template parameter, two static __shared__ tiles and an unrolled inner
// product.
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

template <int TILE>
__global__ void matmul(const float *A, const float *B, float *C, int M, int N,
                       int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE + 1];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    int ak = t * TILE + threadIdx.x, bk = t * TILE + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

int main() {
  const int M = 512, N = 384, K = 256;
  std::vector<float> hA(M * K, 1.0f), hB(K * N, 2.0f), hC(M * N);
  float *A, *B, *C;
  cudaMalloc(&A, hA.size() * sizeof(float));
  cudaMalloc(&B, hB.size() * sizeof(float));
  cudaMalloc(&C, hC.size() * sizeof(float));
  cudaMemcpy(A, hA.data(), hA.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(B, hB.data(), hB.size() * sizeof(float), cudaMemcpyHostToDevice);
  constexpr int TILE = 16;
  dim3 threads(TILE, TILE);
  dim3 blocks((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  matmul<TILE><<<blocks, threads>>>(A, B, C, M, N, K);
  matmul<32><<<dim3((N + 31) / 32, (M + 31) / 32, 1), dim3(32, 32, 1)>>>(
      A, B, C, M, N, K);
  cudaMemcpy(hC.data(), C, hC.size() * sizeof(float), cudaMemcpyDeviceToHost);
  printf("C[0] = %f (expected %f)\n", hC[0], 2.0f * K);
  cudaFree(A);
  cudaFree(B);
  cudaFree(C);
  return 0;
}
