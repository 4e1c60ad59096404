// Rodinia style SRAD (v2): diffusion coefficient from the four directional derivatives
extern "C" __global__ void srad1(int rows, int cols, const float *J, float *C, float *dN, float *dS,
                                 float *dW, float *dE, float q0sqr)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= rows || j >= cols) return;
    int k = i * cols + j;
    float jc = J[k];
    float n = J[max(i - 1, 0) * cols + j] - jc;
    float s = J[min(i + 1, rows - 1) * cols + j] - jc;
    float w = J[i * cols + max(j - 1, 0)] - jc;
    float e = J[i * cols + min(j + 1, cols - 1)] - jc;
    float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
    float l = (n + s + w + e) / jc;
    float num = 0.5f * g2 - (1.0f / 16.0f) * (l * l);
    float den = 1.0f + 0.25f * l;
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
    float c = 1.0f / (1.0f + den);
    C[k] = fminf(fmaxf(c, 0.0f), 1.0f);
    dN[k] = n; dS[k] = s; dW[k] = w; dE[k] = e;
}
