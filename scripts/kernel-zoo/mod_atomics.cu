// atomicAdd on double (atom.add.f64) and on __half2 (atom.add.noftz.f16x2), plus atomicCAS/atomicMax
#include <cuda_fp16.h>
extern "C" __global__ void atomics(const double *v, double *dsum, const __half2 *h, __half2 *hsum,
                                   int *imax, unsigned long long *cas_count, int n, int nbins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&dsum[i % nbins], v[i]);
        atomicAdd(&hsum[i % nbins], h[i]);
        atomicMax(imax, (int)(v[i] * 1000.0));
        unsigned long long old = *cas_count, assumed;
        do {
            assumed = old;
            old = atomicCAS(cas_count, assumed, assumed + 1ull);
        } while (old != assumed);
    }
}
