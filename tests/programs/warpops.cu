// Warp-level intrinsics as nvcc 13 emits them for sm_80: __shfl*_sync
// with sub-warp widths (8, 16, 4), __match_any_sync, __reduce_add/max/min
// _sync, __ballot_sync and __activemask; a double atomicAdd emulated with a
// 64-bit atomicCAS loop beside the native one, and atomicExch on a float.
// Each thread's results are compared with the C reference (the lanes each
// width reads, computed on the host).
#include "check.h"
__device__ double atomicAddD(double *a, double v) {
  unsigned long long *p = (unsigned long long *)a, old = *p, assumed;
  do { assumed = old; old = atomicCAS(p, assumed, __double_as_longlong(v + __longlong_as_double(assumed))); } while (assumed != old);
  return __longlong_as_double(old);
}
__global__ void warps(const int *in, int *out, double *dsum, double *dsum2, float *fx, unsigned *masks) {
  int t = threadIdx.x, lane = t & 31, v = in[blockIdx.x * blockDim.x + t];
  int o = (blockIdx.x * blockDim.x + t) * 8;
  out[o + 0] = __shfl_sync(0xffffffff, v, 3, 8);        // lane 3 of each 8-group
  out[o + 1] = __shfl_up_sync(0xffffffff, v, 2, 16);
  out[o + 2] = __shfl_down_sync(0xffffffff, v, 3, 16);
  out[o + 3] = __shfl_xor_sync(0xffffffff, v, 5, 8);
  int s = v; for (int d = 2; d >= 1; d >>= 1) s += __shfl_xor_sync(0xffffffff, s, d, 4);
  out[o + 4] = s;                                       // sum of 4-lane group
  out[o + 5] = (int)__match_any_sync(0xffffffff, v % 5);
  out[o + 6] = (int)__reduce_add_sync(0xffffffff, (unsigned)v);
  out[o + 7] = __reduce_max_sync(0xffffffff, v) ^ __reduce_min_sync(0xffffffff, v);
  unsigned bal = __ballot_sync(0xffffffff, v & 1), act = __activemask();
  if (lane == 0) masks[2 * (blockIdx.x * blockDim.x / 32 + t / 32)] = bal;
  if (lane == 1) masks[2 * (blockIdx.x * blockDim.x / 32 + t / 32) + 1] = act;
  atomicAddD(dsum, (double)v * 0.5);
  atomicAdd(dsum2, (double)v * 0.25);
  atomicExch(fx, (float)v);
}
int main() {
  const int B = 4, T = 64, n = B * T;
  int h[n], r[n * 8]; for (int i = 0; i < n; i++) h[i] = (i * 37 + 11) % 101;
  int *din = dev_buf(n, h), *dout = dev_buf<int>(n * 8);
  double *dd = dev_buf<double>(2); CK(cudaMemset(dd, 0, 2 * sizeof(double)));
  float *fx = dev_buf<float>(1); unsigned *dm = dev_buf<unsigned>(2 * n / 32);
  warps<<<B, T>>>(din, dout, dd, dd + 1, fx, dm);
  CK(cudaGetLastError());
  CK(cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost));
  double hd[2]; CK(cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost));
  float hf; CK(cudaMemcpy(&hf, fx, 4, cudaMemcpyDeviceToHost));
  unsigned hm[2 * n / 32]; CK(cudaMemcpy(hm, dm, sizeof hm, cudaMemcpyDeviceToHost));
  int bad = 0; double ws = 0;
  for (int i = 0; i < n; i++) {
    int w0 = i & ~31, lane = i & 31, want[8];
    int g8 = lane & ~7, g16 = lane & ~15, g4 = lane & ~3;
    want[0] = h[w0 + g8 + 3];
    want[1] = (lane - g16) >= 2 ? h[i - 2] : h[i];
    want[2] = (lane - g16) + 3 < 16 ? h[i + 3] : h[i];
    want[3] = h[w0 + g8 + ((lane - g8) ^ 5)];
    want[4] = h[w0 + g4] + h[w0 + g4 + 1] + h[w0 + g4 + 2] + h[w0 + g4 + 3];
    unsigned m = 0, sum = 0; int mx = -1, mn = 1 << 30;
    for (int j = 0; j < 32; j++) { if (h[w0 + j] % 5 == h[i] % 5) m |= 1u << j; sum += h[w0 + j]; mx = h[w0 + j] > mx ? h[w0 + j] : mx; mn = h[w0 + j] < mn ? h[w0 + j] : mn; }
    want[5] = (int)m; want[6] = (int)sum; want[7] = mx ^ mn;
    for (int k = 0; k < 8; k++) if (r[i * 8 + k] != want[k]) { if (bad++ < 5) printf("FAIL thread %d op %d: %d want %d\n", i, k, r[i * 8 + k], want[k]); }
    ws += h[i];
  }
  for (int w = 0; w < n / 32; w++) {
    unsigned b = 0; for (int j = 0; j < 32; j++) b |= (unsigned)(h[w * 32 + j] & 1) << j;
    if (hm[2 * w] != b || hm[2 * w + 1] != 0xffffffffu) { printf("FAIL ballot/activemask %x %x\n", hm[2 * w], hm[2 * w + 1]); bad++; }
  }
  if (hd[0] != ws * 0.5 || hd[1] != ws * 0.25) { printf("FAIL double sums %g %g want %g %g\n", hd[0], hd[1], ws * 0.5, ws * 0.25); bad++; }
  bool found = false; for (int i = 0; i < n; i++) if ((float)h[i] == hf) found = true;
  if (!found) { printf("FAIL atomicExch float %g\n", hf); bad++; }
  printf(bad ? "FAIL warpops\n" : "PASS warpops\n");
  return bad ? 1 : 0;
}
