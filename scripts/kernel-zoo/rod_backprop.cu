// Rodinia style backprop: layer forward with a 16x16 shared partial-sum tree
#define WIDTH 16
extern "C" __global__ void bp_layerforward(const float *input, const float *weights, float *hidden_partial, int hid)
{
    __shared__ float in_node[WIDTH];
    __shared__ float wm[WIDTH][WIDTH];
    int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int index = (hid + 1) * WIDTH * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_in = WIDTH * by + ty + 1;
    if (tx == 0) in_node[ty] = input[index_in];
    __syncthreads();
    wm[ty][tx] = weights[index] * in_node[ty];
    __syncthreads();
    for (int i = 1; i <= 4; i++) {
        int p = 1 << i;
        if (ty % p == 0) wm[ty][tx] += wm[ty + p / 2][tx];
        __syncthreads();
    }
    if (tx == 0) hidden_partial[by * hid + ty] = wm[tx][ty];
}
