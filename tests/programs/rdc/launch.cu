// The third translation unit: kernels that launch kernels (dynamic
// parallelism, CUDA 12+'s device runtime from libcudadevrt): rows of a
// matrix filled by one child grid per row, a tree of grids three levels
// deep, and a launch of scale.cu's add_bias from here.
#include "common.h"

__global__ void fill_row(int *row, int r, int cols) {
  int c = threadIdx.x;
  if (c < cols) row[c] = r * 1000 + c;
}

__global__ void fill_rows(int *m, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) fill_row<<<1, cols>>>(m + r * cols, r, cols);
}

// Each block counts itself at its level and, above the last, launches two
// blocks of the next level: 1, 2, 4, 8 blocks.
__global__ void tree(int *count, int level, int last) {
  if (threadIdx.x != 0) return;
  atomicAdd(&count[level], 1);
  if (level < last) tree<<<2, 32, 0, cudaStreamTailLaunch>>>(count, level + 1, last);
}

// A kernel of another file, launched from here into a fire-and-forget stream.
__global__ void bias_later(int *v, int n) {
  if (blockIdx.x == 0 && threadIdx.x == 0) add_bias<<<(n + 127) / 128, 128, 0, cudaStreamFireAndForget>>>(v, n);
}
