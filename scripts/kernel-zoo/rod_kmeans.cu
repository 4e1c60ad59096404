// Rodinia style kmeans: assign each point (feature-major layout) to its nearest cluster
extern "C" __global__ void kmeans_assign(const float *features, const float *clusters, int *membership,
                                         int npoints, int nclusters, int nfeatures)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npoints) return;
    int best = 0;
    float bestd = 3.4e38f;
    for (int c = 0; c < nclusters; c++) {
        float d = 0.0f;
        for (int f = 0; f < nfeatures; f++) {
            float diff = features[f * npoints + p] - __ldg(&clusters[c * nfeatures + f]);
            d += diff * diff;
        }
        if (d < bestd) { bestd = d; best = c; }
    }
    membership[p] = best;
}
