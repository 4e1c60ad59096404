// C++ templates (mangled names, a functor, a namespace) with __ldg and a compile-time radius
namespace zoo {
struct Saxpy { float a; __device__ float operator()(float x, float y) const { return a * x + y; } };
template <typename Op, int R>
__global__ void blur_apply(const float *__restrict__ x, const float *__restrict__ y, float *out, Op op, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = 0.0f;
#pragma unroll
    for (int d = -R; d <= R; d++) {
        int j = min(max(i + d, 0), n - 1);
        s += __ldg(&x[j]);
    }
    out[i] = op(s / (2 * R + 1), __ldg(&y[i]));
}
template __global__ void blur_apply<Saxpy, 3>(const float *, const float *, float *, Saxpy, int);
}
