// A tensor-core GEMM with mma.sync (inline PTX), the way hand-tuned kernels
// write it: each warp stages 16 x 16 tiles of A and B in shared memory,
// loads its fragments with ldmatrix (B through .trans) and issues
// mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 twice per k-step for a
// 16 x 16 tile of C.  48 x 32 x 64, inputs small integers (exact in f16,
// exact sums in f32): the C reference is exact.
#include "check.h"
#include <cuda_fp16.h>
#include <vector>

__device__ unsigned smem_addr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

// A: M x K row-major; B: K x N row-major; C: M x N row-major f32.
__global__ void gemm(const half *A, const half *B, float *C, int M, int N, int K) {
  __shared__ __align__(16) half sa[16 * 16], sb[16 * 16];
  int tm = blockIdx.y, tn = blockIdx.x, lane = threadIdx.x;
  float acc[2][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int i = lane; i < 256; i += 32) {
      sa[i] = A[(tm * 16 + i / 16) * K + k0 + i % 16];
      sb[i] = B[(k0 + i / 16) * N + tn * 16 + i % 16];
    }
    __syncwarp();
    unsigned a[4], b[4];
    // A fragment: four 8x8 matrices (rows 0-7/8-15, cols 0-7/8-15); lane l
    // gives row l % 16 at column 8 * (l / 16)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                 : "r"(smem_addr(&sa[(lane % 16) * 16 + 8 * (lane / 16)])));
    // B (k x n, row-major): transposed loads give the col-major fragments;
    // b[0], b[1] for n 0-7, b[2], b[3] for n 8-15
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(b[0]), "=r"(b[1]), "=r"(b[2]), "=r"(b[3])
                 : "r"(smem_addr(&sb[(lane % 16) * 16 + 8 * (lane / 16)])));
    for (int h = 0; h < 2; h++)
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                   "{%0,%1,%2,%3};"
                   : "+f"(acc[h][0]), "+f"(acc[h][1]), "+f"(acc[h][2]), "+f"(acc[h][3])
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[2 * h]), "r"(b[2 * h + 1]));
    __syncwarp();
  }
  int g = lane / 4, t = lane % 4;
  for (int h = 0; h < 2; h++)
    for (int i = 0; i < 4; i++) {
      int r = g + 8 * (i / 2), c = h * 8 + t * 2 + (i % 2);
      C[(tm * 16 + r) * N + tn * 16 + c] = acc[h][i];
    }
}

int main() {
  const int M = 48, N = 32, K = 64;
  std::vector<float> a(M * K), b(K * N), c(M * N), ref(M * N);
  std::vector<half> ha(M * K), hb(K * N);
  for (int i = 0; i < M * K; i++) a[i] = (float)((i * 13) % 11 - 5);
  for (int i = 0; i < K * N; i++) b[i] = (float)((i * 7) % 9 - 4) * 0.5f;
  for (int i = 0; i < M * K; i++) ha[i] = __float2half(a[i]);
  for (int i = 0; i < K * N; i++) hb[i] = __float2half(b[i]);
  for (int m = 0; m < M; m++)
    for (int n = 0; n < N; n++) {
      float s = 0;
      for (int k = 0; k < K; k++) s += a[m * K + k] * b[k * N + n];
      ref[m * N + n] = s;
    }
  half *da = dev_buf(M * K, ha.data()), *db = dev_buf(K * N, hb.data());
  float *dc = dev_buf<float>(M * N);
  gemm<<<dim3(N / 16, M / 16), 32>>>(da, db, dc, M, N, K);
  CK(cudaGetLastError());
  CK(cudaMemcpy(c.data(), dc, M * N * sizeof(float), cudaMemcpyDeviceToHost));
  bool ok = close_all("mma.sync m16n8k16 GEMM 48x32x64 (ldmatrix)", c.data(), ref.data(), M * N, 0.0f);
  std::printf("%s tensor-core GEMM with mma.sync\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
