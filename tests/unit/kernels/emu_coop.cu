// emu_coop.cu — kernels of tests/unit/test_emu_coop.c (cooperative launches
// and grid-wide synchronisation).
//   nvcc -arch=sm_80 -ptx emu_coop.cu -o emu_coop.ptx
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// rounds of a periodic 3-point stencil, ping-ponging between a and b with a
// grid-wide barrier between rounds: x'[i] = x[i-1] + 2 x[i] + x[i+1] (mod 2^32)
extern "C" __global__ void stencil(unsigned *a, unsigned *b, int n, int rounds) {
  cg::grid_group g = cg::this_grid();
  for (int r = 0; r < rounds; r++) {
    unsigned *in = r % 2 ? b : a, *out = r % 2 ? a : b;
    for (int i = g.thread_rank(); i < n; i += g.size())
      out[i] = in[(i + n - 1) % n] + 2 * in[i] + in[(i + 1) % n];
    g.sync();
  }
}

// Each block sums its part into partial[blockIdx.x]; after the grid-wide
// barrier block 0 adds the partials.
extern "C" __global__ void reduce(const int *x, int n, int *partial, int *total) {
  cg::grid_group g = cg::this_grid();
  __shared__ int s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  int v = 0;
  for (int i = g.thread_rank(); i < n; i += g.size()) v += x[i];
  atomicAdd(&s, v);
  __syncthreads();
  if (threadIdx.x == 0) partial[blockIdx.x] = s;
  g.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    int t = 0;
    for (unsigned b = 0; b < gridDim.x; b++) t += partial[b];
    *total = t;
  }
}

// Block 0 leaves before the barrier: the others can never pass it.
extern "C" __global__ void early_exit(int *o) {
  cg::grid_group g = cg::this_grid();
  if (blockIdx.x == 0) return;
  g.sync();
  o[blockIdx.x] = 1;
}

// Block 1 waits on a flag that block 0 sets after its work (a volatile spin:
// it completes only when both blocks are resident).
extern "C" __global__ void flag(volatile int *f, int *o, int n) {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      int v = 0;
      for (int i = 0; i < n; i++) v += i;
      o[0] = v;
      __threadfence();
      f[0] = 1;
    }
  } else if (threadIdx.x == 0) {
    while (f[0] == 0) {}
    o[1] = o[0] + 1;
  }
}
