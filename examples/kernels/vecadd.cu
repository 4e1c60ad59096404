// vecadd: c[i] = a[i] + b[i] for i < n, one thread per element.
// The README quick-start example: vecadd.sm_80.ptx is this file compiled by
// tests/corpus/regen.sh (nvcc -ptx -arch=sm_80 -O3) and vecadd.launch.json
// runs it on 100000 elements (391 blocks of 256 threads; the last block is
// partly idle, which the i < n guard handles).
extern "C" __global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
