// subSeqMax — maximum (non-empty) subsequence sum of in[0 .. n).
//
// Block b owns the contiguous slice in[b * per_block .. (b + 1) * per_block)
// (per_block = n / gridDim.x, a multiple of TILE) and walks it in tiles of
// TILE = 4096 ints (16 KiB of shared memory):
//   1. the block copies the tile to shared memory, coalesced;
//   2. thread t scans its own 32 consecutive ints tile[32t .. 32t + 32)
//      (Kadane), giving a summary (sum, best prefix, best suffix, best);
//   3. thread 0 folds the 128 summaries, in order, into the block's running
//      summary.
// Thread 0 finally writes the block's summary to out[4b .. 4b + 4); the host
// folds the gridDim.x summaries the same way (docs/validation.md).
// Launch: 128 threads per block (THREADS), as in the measured data (grid 32).
#define THREADS 128
#define CHUNK 32
#define TILE (THREADS * CHUNK)

struct summary { int sum, pre, suf, best; };

__device__ static summary fold(summary l, summary r) {
  summary s;
  s.sum = l.sum + r.sum;
  s.pre = max(l.pre, l.sum + r.pre);
  s.suf = max(r.suf, r.sum + l.suf);
  s.best = max(max(l.best, r.best), l.suf + r.pre);
  return s;
}

extern "C" __global__ void subSeqMax(int *in, int *out, int n, int per_block) {
  __shared__ int tile[TILE];
  int t = threadIdx.x;
  int begin = blockIdx.x * per_block;
  int end = min(begin + per_block, n);
  summary acc;
  bool have = false;
  for (int base = begin; base + TILE <= end; base += TILE) {
    for (int j = 0; j < CHUNK; j++) tile[j * THREADS + t] = in[base + j * THREADS + t];
    __syncthreads();
    summary s;
    int cur;
    s.sum = s.pre = s.best = cur = tile[t * CHUNK];
    for (int j = 1; j < CHUNK; j++) {
      int v = tile[t * CHUNK + j];
      s.sum += v;
      s.pre = max(s.pre, s.sum);
      cur = max(v, cur + v);
      s.best = max(s.best, cur);
    }
    s.suf = cur;  // Kadane's running value is the best suffix sum
    __syncthreads();
    tile[4 * t] = s.sum;
    tile[4 * t + 1] = s.pre;
    tile[4 * t + 2] = s.suf;
    tile[4 * t + 3] = s.best;
    __syncthreads();
    if (t == 0) {
      for (int k = 0; k < THREADS; k++) {
        summary r = {tile[4 * k], tile[4 * k + 1], tile[4 * k + 2], tile[4 * k + 3]};
        acc = have ? fold(acc, r) : r;
        have = true;
      }
    }
    __syncthreads();
  }
  if (t == 0 && have) {
    out[4 * blockIdx.x] = acc.sum;
    out[4 * blockIdx.x + 1] = acc.pre;
    out[4 * blockIdx.x + 2] = acc.suf;
    out[4 * blockIdx.x + 3] = acc.best;
  }
}
