// sfu_mix: special-function-unit / FMA mix. Each thread iterates
//     x <- 0.5 * __sinf(x) + 0.25 * __expf(-x * x)
// iters times (two SFU operations interleaved with FMAs per step) and writes
// the final x. Stands for the SFU-heavy kernels of Sim et al. (PPoPP'12),
// whose model adds an SFU-parallelism term. The map is a contraction
// (|f'| < 0.72), so approximation errors do not grow with iters.
extern "C" __global__ void sfu_mix(const float *in, float *out, int n, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = in[i];
        for (int k = 0; k < iters; ++k) {
            float s = __sinf(x);
            float e = __expf(-x * x);
            x = fmaf(0.5f, s, 0.25f * e);
        }
        out[i] = x;
    }
}
