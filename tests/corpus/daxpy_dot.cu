// daxpy_dot: double precision. y[i] <- a * x[i] + y[i] (one fused
// multiply-add), then each block sums x[i] * y_new[i] over its elements by a
// shared-memory tree (sequential addressing) into partial[blockIdx.x].
// Launch with 256 threads per block. Exercises f64 loads, FMA and adds
// (the double-precision rate is a separate term in several models).
#define BS 256

extern "C" __global__ void daxpy_dot(const double *x, double *y, double a,
                                     double *partial, int n)
{
    __shared__ double s[BS];
    int tid = threadIdx.x;
    int i = blockIdx.x * BS + tid;
    double prod = 0.0;
    if (i < n) {
        double yn = fma(a, x[i], y[i]);
        y[i] = yn;
        prod = x[i] * yn;
    }
    s[tid] = prod;
    __syncthreads();
    for (int st = BS / 2; st > 0; st >>= 1) {
        if (tid < st)
            s[tid] += s[tid + st];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = s[0];
}
