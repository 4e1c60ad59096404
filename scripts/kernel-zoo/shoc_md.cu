// SHOC style MD: Lennard-Jones force from a neighbour list (ELL-like, neighbour-major), float4 positions
extern "C" __global__ void md_lj(float4 *force, const float4 *pos, const int *neigh, int maxneigh, int natoms,
                                 float cutsq, float lj1, float lj2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= natoms) return;
    float4 ipos = pos[i];
    float4 f = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int j = 0; j < maxneigh; j++) {
        int jidx = neigh[j * natoms + i];
        float4 jpos = __ldg(&pos[jidx]);
        float dx = ipos.x - jpos.x, dy = ipos.y - jpos.y, dz = ipos.z - jpos.z;
        float r2 = dx * dx + dy * dy + dz * dz;
        if (r2 < cutsq && r2 > 0.0f) {
            float r2inv = 1.0f / r2;
            float r6inv = r2inv * r2inv * r2inv;
            float fs = r2inv * r6inv * (lj1 * r6inv - lj2);
            f.x += dx * fs; f.y += dy * fs; f.z += dz * fs;
        }
    }
    force[i] = f;
}
