// coalesce: Kothapalli et al. (HiPC'09) coalescing experiment: thread i
// reads a[i * stride + offset] and writes it, doubled, to out[i]. stride 1,
// offset 0 is fully coalesced; offset shifts the warp off segment
// alignment; stride > 1 spreads a warp over more segments.
// a must hold (n - 1) * stride + offset + 1 elements.
extern "C" __global__ void coalesce(const float *a, float *out, int n, int stride, int offset)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * a[i * stride + offset];
}
