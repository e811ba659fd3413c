// A thread_block_tile of 3 threads: sizes are powers of two.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void k(int *x) {
  auto tile = cg::tiled_partition<3>(cg::this_thread_block());
  x[0] = tile.thread_rank();
}

int main() {
  k<<<1, 32>>>(nullptr);
  return 0;
}
// CHECK: error: static assertion failed {{.*}}Size must be one of
// NVCC: error: static assertion failed with "Size must be one of
