// matmul_tiled.cu — tiled matrix multiplication after Hong & Kim (ISCA'09),
// Figure 12: an outer loop over tiles with two global loads, two shared
// stores and two barriers, and an inner loop over the tile.  The inner loop
// is kept rolled (#pragma unroll 1) so that the PTX shows both loops.
// PTX beside it: nvcc -ptx -arch=sm_80 matmul_tiled.cu -o matmul_tiled.ptx
#define BLOCKSIZE 16

typedef struct {
  int width;
  int height;
  float *elements;
} Matrix;

extern "C" __global__ void MatrixMulKernel(Matrix M, Matrix N, Matrix P) {
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int wM = M.width, wN = N.width;
  int starta = wM * BLOCKSIZE * by, enda = starta + wM - 1, stepa = BLOCKSIZE;
  int startb = BLOCKSIZE * bx, stepb = BLOCKSIZE * wN;
  float subsum = 0.0f;
  for (int a = starta, b = startb; a <= enda; a += stepa, b += stepb) {
    __shared__ float Msub[BLOCKSIZE][BLOCKSIZE];
    __shared__ float Nsub[BLOCKSIZE][BLOCKSIZE];
    Msub[ty][tx] = M.elements[a + wM * ty + tx];
    Nsub[ty][tx] = N.elements[b + wN * ty + tx];
    __syncthreads();
#pragma unroll 1
    for (int k = 0; k < BLOCKSIZE; ++k)
      subsum += Msub[ty][k] * Nsub[k][tx];
    __syncthreads();
  }
  int index = wN * BLOCKSIZE * by + BLOCKSIZE * bx;
  P.elements[index + wN * ty + tx] = subsum;
}
