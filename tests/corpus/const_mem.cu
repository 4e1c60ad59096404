// const_mem: 9-tap 1-D convolution with the taps in initialised __constant__
// memory (a module-scope .const array with an initializer). All threads of a
// warp read the same tap at the same time (constant-cache broadcast).
// Indices outside [0, n) are clamped to the nearest end.
//     out[i] = sum_k taps[k] * in[clamp(i + k - 4)]   (k = 0..8, FMA in k order)
__constant__ float taps[9] = {0.0625f, 0.0625f, 0.125f, 0.125f, 0.25f,
                              0.125f, 0.125f, 0.0625f, 0.0625f};

extern "C" __global__ void const_mem(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float acc = 0.0f;
        for (int k = 0; k < 9; ++k) {
            int j = min(max(i + k - 4, 0), n - 1);
            acc = fmaf(taps[k], in[j], acc);
        }
        out[i] = acc;
    }
}
