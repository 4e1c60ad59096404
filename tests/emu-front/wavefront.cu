// wavefront.cu — a kernel whose shared-memory addresses nvcc computes in 32
// bits through a value below zero: for the diagonal walk below, nvcc 13.0
// (-arch=sm_80 -O3) keeps a register %r119 = %r135 - 140 and loads
// [%r119+68]; for thread 1 in the first step %r119 is -64, i.e. 2^32 - 64
// in its 32 bits, and only the offset brings the address (4) back into the
// array, as the hardware's 32-bit shared addressing does.  Before the
// emulator wrapped such addresses it reported "out-of-bounds read of 4
// bytes at shared address 0x100000004" at that load (PTX line 188).
// Checked against a C reference in tests/unit/test_emu_frontend.c.
//
// Each block aligns one 16 x 16 tile of scores: dp[i][j] = max(dp[i-1][j-1]
// + score[i-1][j-1], dp[i-1][j] - gap, dp[i][j-1] - gap), with dp[0][j] =
// -j * gap and dp[i][0] = -i * gap, one anti-diagonal per step (thread tx
// owns column tx + 1); out[block * 16 + tx] = dp[16][tx + 1].
// PTX: nvcc -ptx -arch=sm_80 -O3 wavefront.cu -o wavefront.sm_80.ptx (CUDA 13.0)
#define B 16

extern "C" __global__ void wavefront(const int *score, int *out, int gap) {
  __shared__ int dp[B + 1][B + 1];
  __shared__ int sc[B][B];
  int tx = threadIdx.x;
  for (int r = 0; r < B; r++) sc[r][tx] = score[blockIdx.x * B * B + r * B + tx];
  dp[0][tx + 1] = -(tx + 1) * gap;
  dp[tx + 1][0] = -(tx + 1) * gap;
  if (tx == 0) dp[0][0] = 0;
  __syncthreads();
  for (int m = 0; m < 2 * B - 1; m++) {
    int i = m - tx + 1, j = tx + 1;
    if (i >= 1 && i <= B) {
      int d = dp[i - 1][j - 1] + sc[i - 1][j - 1];
      int u = dp[i - 1][j] - gap;
      int l = dp[i][j - 1] - gap;
      dp[i][j] = max(d, max(u, l));
    }
    __syncthreads();
  }
  out[blockIdx.x * B + tx] = dp[B][tx + 1];
}
