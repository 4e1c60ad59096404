// Rodinia style Needleman-Wunsch: one anti-diagonal of 16x16 blocks, wavefront inside a shared tile
#define NB 16
extern "C" __global__ void nw_diag(int *score, const int *ref, int cols, int penalty, int blk, int block_width)
{
    __shared__ int tmp[NB + 1][NB + 1];
    __shared__ int rf[NB][NB];
    int bx = blockIdx.x, tx = threadIdx.x;
    int bxr = bx, byr = blk - 1 - bx;
    int base = cols * NB * byr + NB * bxr;
    for (int ty = 0; ty < NB; ty++) rf[ty][tx] = ref[base + cols * (ty + 1) + tx + 1];
    if (tx == 0) tmp[0][0] = score[base];
    tmp[tx + 1][0] = score[base + cols * (tx + 1)];
    tmp[0][tx + 1] = score[base + tx + 1];
    __syncthreads();
    for (int m = 0; m < NB; m++) {
        if (tx <= m) {
            int x = tx + 1, y = m - tx + 1;
            int a = tmp[y - 1][x - 1] + rf[y - 1][x - 1];
            int b = tmp[y][x - 1] - penalty;
            int c = tmp[y - 1][x] - penalty;
            tmp[y][x] = max(a, max(b, c));
        }
        __syncthreads();
    }
    for (int m = NB - 2; m >= 0; m--) {
        if (tx <= m) {
            int x = tx + NB - m, y = NB - tx;
            int a = tmp[y - 1][x - 1] + rf[y - 1][x - 1];
            int b = tmp[y][x - 1] - penalty;
            int c = tmp[y - 1][x] - penalty;
            tmp[y][x] = max(a, max(b, c));
        }
        __syncthreads();
    }
    for (int ty = 0; ty < NB; ty++) score[base + cols * (ty + 1) + tx + 1] = tmp[ty + 1][tx + 1];
    (void)block_width;
}
