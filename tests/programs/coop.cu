// A cooperative kernel with grid-wide synchronisation: the grid is as large
// as the device holds at once (the occupancy API times the SMs, the usual
// pattern), launched with cudaLaunchCooperativeKernel; it runs several
// phases, each reading what every block wrote in the previous one, with
// cooperative groups' grid.sync() between them.  Checked against a C
// reference of the same phases.
#include "check.h"
#include <cooperative_groups.h>
#include <vector>
namespace cg = cooperative_groups;

// Phase r: y[i] = x[i-1] + x[i] + x[i+1] (periodic, mod 2^32), then swap;
// after the last phase, one block sums everything into *total.
__global__ void phases(unsigned *x, unsigned *y, int n, int rounds, unsigned *total) {
  cg::grid_group g = cg::this_grid();
  for (int r = 0; r < rounds; r++) {
    const unsigned *in = r % 2 ? y : x;
    unsigned *out = r % 2 ? x : y;
    for (int i = g.thread_rank(); i < n; i += g.size()) out[i] = in[(i + n - 1) % n] + in[i] + in[(i + 1) % n];
    g.sync();
  }
  if (g.thread_rank() == 0) {
    const unsigned *last = rounds % 2 ? y : x;
    unsigned s = 0;
    for (int i = 0; i < n; i++) s += last[i];
    *total = s;
  }
}

int main() {
  int coop = 0, sms = 0, per_sm = 0;
  CK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  if (!coop) {
    std::printf("FAIL the device does not support cooperative launches\n");
    return 1;
  }
  const int B = 128, n = 4099, rounds = 6;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, phases, B, 0));
  int grid = per_sm * sms;
  if (grid > 64) grid = 64;  // enough blocks to interleave, quick under the emulator
  std::vector<unsigned> h(n);
  for (int i = 0; i < n; i++) h[i] = (unsigned)(i * 2654435761u) >> 7;
  unsigned *x = dev_buf(n, h.data()), *y = dev_buf<unsigned>(n), *tot = dev_buf<unsigned>(1);
  int nn = n, rr = rounds;
  void *args[] = {&x, &y, &nn, &rr, &tot};
  CK(cudaLaunchCooperativeKernel((void *)phases, dim3(grid), dim3(B), args, 0, 0));
  CK(cudaDeviceSynchronize());
  // a grid the device cannot hold at once is refused
  cudaError_t big = cudaLaunchCooperativeKernel((void *)phases, dim3(per_sm * sms + 1), dim3(B), args, 0, 0);
  cudaGetLastError();
  // the C reference
  std::vector<unsigned> a = h, b(n);
  for (int r = 0; r < rounds; r++) {
    for (int i = 0; i < n; i++) b[i] = a[(i + n - 1) % n] + a[i] + a[(i + 1) % n];
    a.swap(b);
  }
  unsigned want = 0, got = 0;
  for (int i = 0; i < n; i++) want += a[i];
  std::vector<unsigned> out(n);
  CK(cudaMemcpy(out.data(), rounds % 2 ? y : x, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&got, tot, sizeof got, cudaMemcpyDeviceToHost));
  bool ok = out == a && got == want && big == cudaErrorCooperativeLaunchTooLarge;
  std::printf("grid %d blocks (%d per SM x %d SMs, capped at 64), %d phases; total %u (reference %u); "
              "an oversized grid: %s\n",
              grid, per_sm, sms, rounds, got, want, cudaGetErrorName(big));
  std::printf("%s cooperative launch with grid.sync()\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
