// half2 and __nv_bfloat162 math: fused multiply-add, h2exp, conversions, bf16 max
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void half_bf16(const __half2 *a, const __half2 *b, __half2 *c,
                                     const __nv_bfloat162 *x, const __nv_bfloat162 *y, __nv_bfloat162 *z,
                                     float *f, int n2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2) {
        __half2 h = __hfma2(a[i], b[i], __float2half2_rn(0.5f));
        h = __hmul2(h, h2exp(__hneg2(__habs2(a[i]))));
        c[i] = h;
        __nv_bfloat162 p = __hfma2(x[i], y[i], __float2bfloat162_rn(1.0f));
        z[i] = __hmax2(p, __hsub2(x[i], y[i]));
        float2 fl = __half22float2(h);
        f[i] = fl.x + fl.y + __low2float(p) * __high2float(p);
    }
}
