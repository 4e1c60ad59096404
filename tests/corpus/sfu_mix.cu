// sfu_mix: special-function-unit / FMA mix. Each thread iterates
//     x <- 0.5 * __sinf(x) + 0.25 * __expf(-x * x) + 0.25 * x0,  x starting at x0
// iters times (two SFU operations interleaved with FMAs per step) and writes
// the final x. Stands for the SFU-heavy kernels of Sim et al. (PPoPP'12),
// whose model adds an SFU-parallelism term. The map is a contraction
// (|f'| < 0.72), so approximation errors do not grow with iters, and its
// fixed point depends on x0, so every thread's result depends on its input.
extern "C" __global__ void sfu_mix(const float *in, float *out, int n, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = in[i];
        float c = 0.25f * x;
        for (int k = 0; k < iters; ++k) {
            float s = __sinf(x);
            float e = __expf(-x * x);
            x = fmaf(0.5f, s, fmaf(0.25f, e, c));
        }
        out[i] = x;
    }
}
