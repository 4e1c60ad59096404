// transpose: out = in^T for an n x n matrix of floats, the naive way.
// Thread (x, y) of the grid reads in[y][x] -- consecutive threads read
// consecutive addresses, coalesced -- and writes out[x][y], n floats apart
// for consecutive threads: every lane of a warp's store lands on its own
// 32-byte sector (32 sectors for 128 bytes).  `warpsight predict --lines`
// names the store line first (docs/cli-profile-predict.md).
// transpose.sm_80.ptx is this file compiled by regen-transpose.sh
// (nvcc -ptx -arch=sm_80 -O3 -lineinfo); transpose.launch.json runs it on a
// 1024 x 1024 matrix in blocks of 32 x 8 threads.
extern "C" __global__ void transpose(const float *in, float *out, int n)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < n && y < n) {
        float v = in[y * n + x];
        out[x * n + y] = v;
    }
}
