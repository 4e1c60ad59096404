// Tensor-core GEMMs with wmma: C = A B + C for 64 x 48 x 32 (f16 inputs,
// f32 accumulators, one warp per 16 x 16 tile of C, A row-major and B
// column-major) and 32 x 32 x 16 in tf32 (A and B row-major f32 converted
// with __float_to_tf32).  The inputs are small integers and halves (exact in
// f16 and tf32) whose products and sums are exact in f32, so the C reference
// is exact too.
#include "check.h"
#include <cuda_fp16.h>
#include <mma.h>
#include <vector>
using namespace nvcuda;

__global__ void gemm_f16(const half *A, const half *B, float *C, int M, int N, int K) {
  int tile = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int tm = tile / (N / 16), tn = tile % (N / 16);
  if (tm >= M / 16) return;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::load_matrix_sync(c, C + tm * 16 * N + tn * 16, N, wmma::mem_row_major);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + tm * 16 * K + k, K);
    wmma::load_matrix_sync(b, B + tn * 16 * K + k, K);  // column n of B at B + n K
    wmma::mma_sync(c, a, b, c);
  }
  wmma::store_matrix_sync(C + tm * 16 * N + tn * 16, c, N, wmma::mem_row_major);
}

__global__ void gemm_tf32(const float *A, const float *B, float *C, int M, int N, int K) {
  int tile = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int tm = tile / (N / 16), tn = tile % (N / 16);
  if (tm >= M / 16) return;
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
  wmma::fill_fragment(c, 0.0f);
  for (int k = 0; k < K; k += 8) {
    wmma::load_matrix_sync(a, A + tm * 16 * K + k, K);
    wmma::load_matrix_sync(b, B + k * N + tn * 16, N);
    for (int i = 0; i < a.num_elements; i++) a.x[i] = wmma::__float_to_tf32(a.x[i]);
    for (int i = 0; i < b.num_elements; i++) b.x[i] = wmma::__float_to_tf32(b.x[i]);
    wmma::mma_sync(c, a, b, c);
  }
  wmma::store_matrix_sync(C + tm * 16 * N + tn * 16, c, N, wmma::mem_row_major);
}

int main() {
  bool ok = true;
  {  // f16: A M x K row-major, B stored column by column (K x N col-major)
    const int M = 64, N = 48, K = 32;
    std::vector<float> a(M * K), b(K * N), c(M * N), ref(M * N);
    std::vector<half> ha(M * K), hb(K * N);
    for (int i = 0; i < M * K; i++) a[i] = (float)((i * 7) % 9 - 4) * 0.5f;
    for (int i = 0; i < K * N; i++) b[i] = (float)((i * 5) % 7 - 3);
    for (int i = 0; i < M * N; i++) c[i] = (float)(i % 11);
    for (int i = 0; i < M * K; i++) ha[i] = __float2half(a[i]);
    for (int i = 0; i < K * N; i++) hb[i] = __float2half(b[i]);  // b[n * K + k] = B(k, n)
    for (int m = 0; m < M; m++)
      for (int n = 0; n < N; n++) {
        float s = c[m * N + n];
        for (int k = 0; k < K; k++) s += a[m * K + k] * b[n * K + k];
        ref[m * N + n] = s;
      }
    half *da = dev_buf(M * K, ha.data()), *db = dev_buf(K * N, hb.data());
    float *dc = dev_buf(M * N, c.data());
    int tiles = (M / 16) * (N / 16);
    gemm_f16<<<(tiles + 3) / 4, 128>>>(da, db, dc, M, N, K);
    CK(cudaGetLastError());
    CK(cudaMemcpy(c.data(), dc, M * N * sizeof(float), cudaMemcpyDeviceToHost));
    ok &= close_all("wmma f16 GEMM 64x48x32", c.data(), ref.data(), M * N, 0.0f);
  }
  {  // tf32: both row-major
    const int M = 32, N = 32, K = 16;
    std::vector<float> a(M * K), b(K * N), c(M * N), ref(M * N);
    for (int i = 0; i < M * K; i++) a[i] = (float)((i * 3) % 13 - 6) * 0.25f;
    for (int i = 0; i < K * N; i++) b[i] = (float)((i * 11) % 5 - 2);
    for (int m = 0; m < M; m++)
      for (int n = 0; n < N; n++) {
        float s = 0;
        for (int k = 0; k < K; k++) s += a[m * K + k] * b[k * N + n];
        ref[m * N + n] = s;
      }
    float *da = dev_buf(M * K, a.data()), *db = dev_buf(K * N, b.data()), *dc = dev_buf<float>(M * N);
    gemm_tf32<<<1, 128>>>(da, db, dc, M, N, K);
    CK(cudaGetLastError());
    CK(cudaMemcpy(c.data(), dc, M * N * sizeof(float), cudaMemcpyDeviceToHost));
    ok &= close_all("wmma tf32 GEMM 32x32x16", c.data(), ref.data(), M * N, 0.0f);
  }
  std::printf("%s tensor-core GEMMs with wmma\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
