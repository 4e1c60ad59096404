// C++: a kernel template over a functor type, instantiated twice, and a
// namespace.
#include "check.h"
#include <vector>

namespace ops {
struct Saxpy {
  float a;
  __device__ float operator()(float x, float y) const { return a * x + y; }
};
template <typename T>
struct MaxOf {
  T floor;
  __device__ T operator()(T x, T y) const { return x > y ? (x > floor ? x : floor) : (y > floor ? y : floor); }
};
}  // namespace ops

template <typename T, typename Op>
__global__ void zip(Op op, const T *x, const T *y, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = op(x[i], y[i]);
}

int main() {
  const int n = 1000;
  std::vector<float> x(n), y(n), r1(n), r2(n), g1(n), g2(n);
  for (int i = 0; i < n; i++) x[i] = (float)(i % 13) - 6, y[i] = (float)(i % 7) - 3;
  float *dx, *dy, *dout;
  CK(cudaMalloc(&dx, n * sizeof(float)));
  CK(cudaMalloc(&dy, n * sizeof(float)));
  CK(cudaMalloc(&dout, n * sizeof(float)));
  CK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  ops::Saxpy sx{2.5f};
  zip<float><<<(n + 127) / 128, 128>>>(sx, dx, dy, dout, n);
  CK(cudaMemcpy(g1.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  ops::MaxOf<float> mx{-1.0f};
  zip<float><<<(n + 127) / 128, 128>>>(mx, dx, dy, dout, n);
  CK(cudaMemcpy(g2.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {  // C reference
    r1[i] = 2.5f * x[i] + y[i];
    float m = x[i] > y[i] ? x[i] : y[i];
    r2[i] = m > -1.0f ? m : -1.0f;
  }
  bool ok = close_all("zip<Saxpy>", g1.data(), r1.data(), n);
  ok = close_all("zip<MaxOf<float>>", g2.data(), r2.data(), n) && ok;
  return ok ? 0 : 1;
}
