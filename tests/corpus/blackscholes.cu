// blackscholes: European call and put prices by the Black-Scholes formula,
// one option per thread (stock price S, strike X, years to expiry T; riskless
// rate r and volatility v shared). The cumulative normal distribution is the
// Abramowitz-Stegun 26.2.17 polynomial. Stands for Hong & Kim's
// "Black-Scholes" workload: compute-heavy, with expf/logf/sqrtf (SFU-backed
// special functions) between fully coalesced loads and stores.
#define RSQRT2PI 0.39894228040143267794f

__device__ static float cnd(float d)
{
    const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f,
                a4 = -1.821255978f, a5 = 1.330274429f;
    float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
    float c = RSQRT2PI * expf(-0.5f * d * d) * poly;
    return d > 0.0f ? 1.0f - c : c;
}

extern "C" __global__ void blackscholes(const float *S, const float *X, const float *T,
                                        float *call, float *put, float r, float v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float s = S[i], x = X[i], t = T[i];
        float sqrt_t = sqrtf(t);
        float d1 = (logf(s / x) + (r + 0.5f * v * v) * t) / (v * sqrt_t);
        float d2 = d1 - v * sqrt_t;
        float c1 = cnd(d1), c2 = cnd(d2);
        float disc = x * expf(-r * t);
        call[i] = s * c1 - disc * c2;
        put[i] = disc * (1.0f - c2) - s * (1.0f - c1);
    }
}
