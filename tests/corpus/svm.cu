// svm: RBF-kernel support vector machine decision values.
// out[i] = sum_j alpha[j] * exp(-gamma * |x_i - sv_j|^2) for each of n test
// vectors of dimension dim against nsv support vectors (row-major arrays).
// Stands for Hong & Kim's "SVM" workload: dot-product style inner loops over
// feature vectors with an exp per support vector; sv and alpha are read by
// every thread at the same address (broadcast).
extern "C" __global__ void svm(const float *x, const float *sv, const float *alpha,
                               float *out, int n, int nsv, int dim, float gamma)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float acc = 0.0f;
        for (int j = 0; j < nsv; ++j) {
            float d2 = 0.0f;
            for (int k = 0; k < dim; ++k) {
                float d = x[i * dim + k] - sv[j * dim + k];
                d2 = fmaf(d, d, d2);
            }
            acc = fmaf(alpha[j], expf(-gamma * d2), acc);
        }
        out[i] = acc;
    }
}
