// Warp-level matrix multiply: wmma 16x16x16 half inputs, float accumulate, one warp per 16x16 C tile
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;
extern "C" __global__ void wmma_gemm(const __half *a, const __half *b, float *c, int M, int N, int K)
{
    int warp_m = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int warp_n = blockIdx.y * blockDim.y + threadIdx.y;
    if (warp_m * 16 >= M || warp_n * 16 >= N) return;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(fa, a + warp_m * 16 * K + k, K);
        wmma::load_matrix_sync(fb, b + warp_n * 16 * K + k, K);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    wmma::store_matrix_sync(c + warp_m * 16 * N + warp_n * 16, fc, N, wmma::mem_row_major);
}
