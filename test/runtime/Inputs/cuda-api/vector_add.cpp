// Port mode's basics on every backend (test/runtime/cuda-api.test): a
// vector add as hpp-rewrite writes it (hpp::launchCuda for `<<<>>>`), the
// launch's argument conversions (NULL, 0 and nullptr to pointer
// parameters, an int to a float parameter, a size_t grid, dim3 shapes), a
// template kernel launched as `k<float, 128>`, and the device's warpSize.
#include <hpp/cuda_api.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void vectorAdd(const float *A, const float *B, float *C, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    C[I] = A[I] + B[I];
}

// Y += Alpha * X where X is given; Count (if given) gets N.
__global__ void axpy(float Alpha, const float *X, float *Y, int N,
                     int *Count) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N && X)
    Y[I] += Alpha * X[I];
  if (Count && I == 0)
    *Count = N;
}

template <class T, int BlockSize> __global__ void scale(T *Data, T By, int N) {
  for (int I = blockIdx.x * BlockSize + threadIdx.x; I < N;
       I += gridDim.x * BlockSize)
    Data[I] *= By;
}

// Each thread of a 2D grid of 3D blocks writes its linear id.
__global__ void shape(int *Out) {
  int Block = blockIdx.y * gridDim.x + blockIdx.x;
  int Thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x +
               threadIdx.x;
  int Size = blockDim.x * blockDim.y * blockDim.z;
  Out[Block * Size + Thread] = Block * Size + Thread;
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
  const int N = 1000;
  std::vector<float> A(N), B(N), C(N);
  for (int I = 0; I < N; ++I) {
    A[I] = float(I);
    B[I] = float(2 * I);
  }
  float *DA, *DB, *DC;
  CHECK(cudaMalloc(&DA, N * sizeof(float)));
  CHECK(cudaMalloc((void **)&DB, N * sizeof(float)));
  CHECK(cudaMalloc(&DC, N * sizeof(float)));
  CHECK(cudaMemcpy(DA, A.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(DB, B.data(), N * sizeof(float), cudaMemcpyHostToDevice));

  const int Threads = 256;
  const std::size_t Blocks = (N + Threads - 1) / Threads;
  hpp::launchCuda(vectorAdd, Blocks, Threads, 0, 0, DA, DB, DC, N);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(C.data(), DC, N * sizeof(float), cudaMemcpyDeviceToHost));
  int Wrong = 0;
  for (int I = 0; I < N; ++I)
    Wrong += C[I] != float(3 * I);
  std::printf("vectorAdd: %d wrong, C[999] = %g\n", Wrong, C[N - 1]);

  // An int for the float Alpha; NULL, 0 and nullptr for pointers.
  int *DCount;
  CHECK(cudaMalloc(&DCount, sizeof(int)));
  CHECK(cudaMemset(DCount, 0, sizeof(int)));
  hpp::launchCuda(axpy, dim3(Blocks), dim3(Threads), 0, NULL, 2, DA, DC, N,
                  DCount);
  hpp::launchCuda(axpy, Blocks, Threads, 0, nullptr, 1, NULL, DC, N, 0);
  hpp::launchCuda(axpy, unsigned(Blocks), Threads, 0, 0, 1, nullptr, DC, N,
                  nullptr);
  CHECK(cudaGetLastError());
  int Count = 0;
  CHECK(cudaMemcpy(&Count, DCount, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(C.data(), DC, N * sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("axpy: count %d, C[10] = %g\n", Count, C[10]);

  // A template kernel, a grid smaller than the data (grid-stride loop).
  hpp::launchCuda(scale<float, 128>, 2, 128, 0, 0, DC, 0.5f, N);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(C.data(), DC, N * sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("scale<float, 128>: C[10] = %g, C[999] = %g\n", C[10], C[N - 1]);

  // dim3 grid and block in two and three dimensions.
  const dim3 Grid(3, 2), Block(4, 2, 2);
  const int Items = 3 * 2 * 4 * 2 * 2;
  int *DOut;
  CHECK(cudaMalloc(&DOut, Items * sizeof(int)));
  hpp::launchCuda(shape, Grid, Block, 0, 0, DOut);
  std::vector<int> Out(Items);
  CHECK(cudaMemcpy(Out.data(), DOut, Items * sizeof(int),
                   cudaMemcpyDeviceToHost));
  int Misplaced = 0;
  for (int I = 0; I < Items; ++I)
    Misplaced += Out[I] != I;
  std::printf("shape: %d items, %d misplaced\n", Items, Misplaced);

  cudaDeviceProp Prop;
  CHECK(cudaGetDeviceProperties(&Prop, 0));
  int WarpSize = 0;
  CHECK(cudaDeviceGetAttribute(&WarpSize, cudaDevAttrWarpSize, 0));
  std::printf("warpSize %d, attribute %d, maxThreadsPerBlock %d\n",
              Prop.warpSize, WarpSize, Prop.maxThreadsPerBlock);

  CHECK(cudaFree(DA));
  CHECK(cudaFree(DB));
  CHECK(cudaFree(DC));
  CHECK(cudaFree(DCount));
  CHECK(cudaFree(DOut));
  return 0;
}
