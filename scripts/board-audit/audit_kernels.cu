// audit_kernels.cu: compute-bound kernels for scripts/board_audit.py, the
// side-by-side check of every database board (docs/gpu-parameters.md,
// "Every board, side by side").  Each thread runs `iters` steps of eight
// independent multiply-adds (fp32, fp64) or one warp-wide mma.sync per step
// (tensor), so the work is known exactly and no memory traffic matters:
//   fma32 / fma64: 8 FMA = 16 flops per thread per step;
//   mma16: one m16n8k16 f16 x f16 + f32 per warp per step = 16*8*16*2 = 4096 flops.
// PTX: nvcc -arch=sm_80 -ptx audit_kernels.cu -o audit_kernels.sm_80.ptx
#include <cuda_fp16.h>

// fma32 and fma64: one body, float and double.
#define FMA_KERNEL(NAME, T, FMA, ONE)                                                    \
    extern "C" __global__ void NAME(T *out, int iters)                                   \
    {                                                                                    \
        int i = blockIdx.x * blockDim.x + threadIdx.x;                                   \
        T a0 = i * (T)1e-7, a1 = a0 + ONE, a2 = a0 + 2 * ONE, a3 = a0 + 3 * ONE;        \
        T a4 = a0 + 4 * ONE, a5 = a0 + 5 * ONE, a6 = a0 + 6 * ONE, a7 = a0 + 7 * ONE;   \
        const T m = (T)0.999, c = (T)0.001;                                              \
        for (int k = 0; k < iters; k++) {                                                \
            a0 = FMA(a0, m, c); a1 = FMA(a1, m, c); a2 = FMA(a2, m, c); a3 = FMA(a3, m, c); \
            a4 = FMA(a4, m, c); a5 = FMA(a5, m, c); a6 = FMA(a6, m, c); a7 = FMA(a7, m, c); \
        }                                                                                \
        out[i] = ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7));                      \
    }

FMA_KERNEL(fma32, float, fmaf, 1.f)
FMA_KERNEL(fma64, double, fma, 1.)

extern "C" __global__ void mma16(float *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __half2 h = __floats2half2_rn(0.5f, 0.25f);
    unsigned a = *reinterpret_cast<unsigned *>(&h);
    float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
    for (int k = 0; k < iters; k++) {
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%4,%4,%4}, {%4,%4}, {%0,%1,%2,%3};"
                     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                     : "r"(a));
    }
    out[i] = (d0 + d1) + (d2 + d3);
}
