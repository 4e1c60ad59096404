// sepia: sepia-tone filter on an RGB image stored as interleaved floats in
// [0, 1] (pixel p occupies rgb[3p], rgb[3p+1], rgb[3p+2]).
// Stands for Hong & Kim's "Sepia" workload: per-pixel weighted sums with a
// saturating clamp; the interleaved layout makes each load stride 3 words
// apart across a warp (partly coalesced).
extern "C" __global__ void sepia(const float *rgb, float *out, int npixels)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < npixels) {
        float r = rgb[3 * p], g = rgb[3 * p + 1], b = rgb[3 * p + 2];
        float nr = fmaf(0.393f, r, fmaf(0.769f, g, 0.189f * b));
        float ng = fmaf(0.349f, r, fmaf(0.686f, g, 0.168f * b));
        float nb = fmaf(0.272f, r, fmaf(0.534f, g, 0.131f * b));
        out[3 * p]     = fminf(nr, 1.0f);
        out[3 * p + 1] = fminf(ng, 1.0f);
        out[3 * p + 2] = fminf(nb, 1.0f);
    }
}
