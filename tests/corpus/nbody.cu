// nbody: all-pairs gravitational acceleration, the direct-interaction
// ("U-list") phase of the fast multipole method that Sim et al. (PPoPP'12)
// model as FMM-U. Body j is pos[4j..4j+3] = (x, y, z, mass); thread i sums
//     a_i = sum_j m_j * (p_j - p_i) / (|p_j - p_i|^2 + eps2)^(3/2)
// using rsqrtf (the SFU reciprocal square root) and writes acc[3i..3i+2].
// The self term (j == i) contributes exactly 0 because eps2 > 0.
extern "C" __global__ void nbody(const float *pos, float *acc, int n, float eps2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float xi = pos[4 * i], yi = pos[4 * i + 1], zi = pos[4 * i + 2];
        float ax = 0.0f, ay = 0.0f, az = 0.0f;
        for (int j = 0; j < n; ++j) {
            float dx = pos[4 * j] - xi, dy = pos[4 * j + 1] - yi, dz = pos[4 * j + 2] - zi;
            float d2 = fmaf(dx, dx, fmaf(dy, dy, fmaf(dz, dz, eps2)));
            float inv = rsqrtf(d2);
            float s = pos[4 * j + 3] * inv * inv * inv;
            ax = fmaf(dx, s, ax);
            ay = fmaf(dy, s, ay);
            az = fmaf(dz, s, az);
        }
        acc[3 * i] = ax;
        acc[3 * i + 1] = ay;
        acc[3 * i + 2] = az;
    }
}
