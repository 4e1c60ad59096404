// noinline: calls that survive into PTX as .func calls. poly3 is a
// __noinline__ device function (Horner step with FMAs); fib is a recursive
// __noinline__ device function (naive Fibonacci, depth at most 9 here).
//     outf[i] = poly3(x[i], 0.5, -1.25, 2.0) = (0.5 x - 1.25) x + 2
//     outi[i] = fib(i % 10)
__device__ __noinline__ float poly3(float x, float a, float b, float c)
{
    return fmaf(fmaf(a, x, b), x, c);
}

__device__ __noinline__ int fib(int k)
{
    return k < 2 ? k : fib(k - 1) + fib(k - 2);
}

extern "C" __global__ void noinline(const float *x, float *outf, int *outi, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        outf[i] = poly3(x[i], 0.5f, -1.25f, 2.0f);
        outi[i] = fib(i % 10);
    }
}
