/*
 * bench/programs/scan.cu — a whole CUDA program for the emulator's speed
 * under `warpsight exec` (bench/exec_programs.sh): the exclusive prefix sum
 * of N unsigned integers (default 16M = 16,777,216) in three kernels (each
 * block scans 1024 elements with warp shuffles and writes its total; the
 * totals are scanned the same way, recursively; every block then adds its
 * offset), ITER times over the same input, checked exactly against a
 * sequential C scan (sums wrap modulo 2^32 on both sides).
 *
 * Prints the plain C reference's time ("C: S s"), the launches' wall time
 * including the synchronisation ("kernels: S s"), and PASS or FAIL.
 * Build: nvcc -cudart shared -arch=sm_80 -O2 scan.cu.  Usage: scan [N [ITER]].
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(x)                                                                              \
  do {                                                                                        \
    cudaError_t e_ = (x);                                                                     \
    if (e_ != cudaSuccess) {                                                                  \
      printf("FAIL %s: %s\n", #x, cudaGetErrorString(e_));                                    \
      exit(1);                                                                                \
    }                                                                                         \
  } while (0)

#define THREADS 512       /* per block */
#define PER_BLOCK 1024    /* elements per block: two per thread */

/* Inclusive scan of v over the warp's lanes. */
__device__ static inline unsigned warp_scan(unsigned v) {
  int lane = threadIdx.x & 31;
  for (int d = 1; d < 32; d <<= 1) {
    unsigned u = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += u;
  }
  return v;
}

/* out[i] = in[0] + ... + in[i-1] within each block of PER_BLOCK elements;
 * sums[block] = the block's total (when sums is not NULL). */
__global__ void scan_blocks(const unsigned *in, unsigned *out, unsigned *sums, int n) {
  __shared__ unsigned warp_tot[THREADS / 32];
  int base = blockIdx.x * PER_BLOCK + 2 * threadIdx.x;
  unsigned a = base < n ? in[base] : 0, b = base + 1 < n ? in[base + 1] : 0;
  unsigned incl = warp_scan(a + b);
  int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  if (lane == 31) warp_tot[warp] = incl;
  __syncthreads();
  if (warp == 0) {
    unsigned t = lane < THREADS / 32 ? warp_tot[lane] : 0;
    t = warp_scan(t);
    if (lane < THREADS / 32) warp_tot[lane] = t;
  }
  __syncthreads();
  unsigned before = (warp ? warp_tot[warp - 1] : 0) + incl - (a + b);
  if (base < n) out[base] = before;
  if (base + 1 < n) out[base + 1] = before + a;
  if (sums && threadIdx.x == THREADS - 1) sums[blockIdx.x] = before + a + b;
}

/* out[i] += offs[block of i]. */
__global__ void add_offsets(unsigned *out, const unsigned *offs, int n) {
  int i = blockIdx.x * PER_BLOCK + threadIdx.x;
  unsigned o = offs[blockIdx.x];
  if (i < n) out[i] += o;
  if (i + THREADS < n) out[i + THREADS] += o;
}

/* Exclusive scan of n elements of d_in into d_out; tmp holds the levels'
 * totals. */
static void scan(const unsigned *d_in, unsigned *d_out, unsigned *tmp, int n) {
  int blocks = (n + PER_BLOCK - 1) / PER_BLOCK;
  if (blocks == 1) {
    scan_blocks<<<1, THREADS>>>(d_in, d_out, NULL, n);
    return;
  }
  unsigned *sums = tmp, *offs = tmp + blocks;
  scan_blocks<<<blocks, THREADS>>>(d_in, d_out, sums, n);
  scan(sums, offs, offs + blocks, blocks);
  add_offsets<<<blocks, THREADS>>>(d_out, offs, n);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 16 << 20;
  int iters = argc > 2 ? atoi(argv[2]) : 4;
  size_t bytes = (size_t)n * sizeof(unsigned);
  unsigned *in = (unsigned *)malloc(bytes), *out = (unsigned *)malloc(bytes), *ref = (unsigned *)malloc(bytes);
  if (!in || !out || !ref) {
    printf("FAIL: out of memory\n");
    return 1;
  }
  unsigned long long st = 7;
  for (int i = 0; i < n; i++) {
    st = st * 6364136223846793005ull + 1442695040888963407ull;
    in[i] = (unsigned)(st >> 33); /* large values: the sums wrap */
  }
  unsigned *d_in, *d_out, *d_tmp;
  CHECK(cudaMalloc(&d_in, bytes));
  CHECK(cudaMalloc(&d_out, bytes));
  CHECK(cudaMalloc(&d_tmp, bytes)); /* the levels' totals: n / 1024 + n / 1024^2 + ... < n */
  CHECK(cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice));
  double t0 = now();
  for (int it = 0; it < iters; it++) scan(d_in, d_out, d_tmp, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  double t1 = now();
  CHECK(cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost));
  double t2 = now();
  for (int it = 0; it < iters; it++) {
    unsigned acc = 0;
    for (int i = 0; i < n; i++) {
      ref[i] = acc;
      acc += in[i];
    }
  }
  double t3 = now();
  int bad = -1;
  for (int i = 0; i < n && bad < 0; i++)
    if (out[i] != ref[i]) bad = i;
  printf("scan: %d elements, %d scans\n", n, iters);
  printf("C: %.3f s\n", t3 - t2);
  printf("kernels: %.3f s\n", t1 - t0);
  if (bad >= 0) printf("FAIL scan: element %d is %u, expected %u\n", bad, out[bad], ref[bad]);
  else printf("PASS scan\n");
  cudaFree(d_in), cudaFree(d_out), cudaFree(d_tmp);
  free(in), free(out), free(ref);
  return bad >= 0;
}
