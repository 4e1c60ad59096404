// hfma2: packed half-precision arithmetic (cuda_fp16.h __half2). For each of
// n2 pairs: c[i] <- (a[i] * b[i] + c[i]) + a[i] * a[i], as one __hfma2, one
// __hmul2_rn and one __hadd2, each rounded to half (round to nearest even).
// Buffers hold 2 * n2 halves. __hmul2_rn (mul.rn.f16x2) rather than __hmul2
// (mul.f16x2): PTX lets ptxas fuse an unrounded mul into the following add,
// which would make the result depend on the code generator.
#include <cuda_fp16.h>

extern "C" __global__ void hfma2(const __half2 *a, const __half2 *b, __half2 *c, int n2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2) {
        __half2 x = a[i];
        __half2 t = __hfma2(x, b[i], c[i]);
        c[i] = __hadd2(t, __hmul2_rn(x, x));
    }
}
