// printf_kernel: device printf (vprintf with an argument buffer in local
// memory). Every thread with i < n and i % 100 == 0 prints one line
//     "i=<i> v=<v[i]> half=<v[i] * 0.5 with %.3f>"
// The order of lines from different threads is unspecified.
#include <cstdio>

extern "C" __global__ void printf_kernel(const int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && i % 100 == 0)
        printf("i=%d v=%d half=%.3f\n", i, v[i], v[i] * 0.5f);
}
