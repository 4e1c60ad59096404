// frontend.cu — kernels for the front-end gaps of issue 12 point 3, each
// checked against a C reference in tests/unit/test_emu_frontend.c:
//   warp_sums  out[w] = sum of in[] over warp w, a shuffle loop on warpSize
//              (PTX WARP_SZ)
//   affine     y[i] = s.a * x[i] + s.b + s.c with a struct passed by value
//              (PTX .param .align 8 .b8 s[16])
//   conv1d     out[i] = sum_k c_filter[k] * in[i + k - 2], a 5-tap filter in
//              __constant__ memory that the launch spec sets ("variables")
// PTX: nvcc -ptx -arch=sm_80 -O3 frontend.cu -o frontend.sm_80.ptx (CUDA 13.0)
extern "C" __global__ void warp_sums(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % warpSize == 0) out[i / warpSize] = v;
}

struct Affine {
  float a;
  int b;
  double c;
};

extern "C" __global__ void affine(Affine s, const float *x, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = s.a * x[i] + s.b + s.c;
}

__constant__ float c_filter[5];

extern "C" __global__ void conv1d(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0.0f;
  for (int k = 0; k < 5; k++) {
    int j = i + k - 2;
    if (j >= 0 && j < n) acc += c_filter[k] * in[j];
  }
  out[i] = acc;
}
