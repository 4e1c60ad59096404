// SHOC style stream triad: C = A + s*B, float4 vector loads
extern "C" __global__ void triad(const float4 *A, const float4 *B, float4 *C, float s, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 a = A[i], b = B[i];
        C[i] = make_float4(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z, a.w + s * b.w);
    }
}
