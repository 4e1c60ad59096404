// device_global: module-scope __device__ variables (.global in PTX): an
// initialised lookup table and an initialised scalar, read by every thread.
//     out[i] = lut[in[i] & 15] * scale + (in[i] >> 4)     (u32 arithmetic)
__device__ unsigned lut[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
__device__ unsigned scale = 1000;

extern "C" __global__ void device_global(const unsigned *in, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = lut[in[i] & 15] * scale + (in[i] >> 4);
}
