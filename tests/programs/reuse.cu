// Launch reuse (docs/exec.md): ten saxpy launches whose scale factor
// changes and whose buffers swap are one behaviour, profiled once; launches
// over a growing n do different work, each profiled.  run.sh counts the
// profiles in the runtime's launch log; the results are checked against a
// C reference.
#include "check.h"
#include <vector>

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 4096;
  std::vector<float> h(n), got(n), ref(n);
  for (int i = 0; i < n; i++) h[i] = (float)(i % 17);
  float *p, *q;
  CK(cudaMalloc(&p, n * sizeof(float)));
  CK(cudaMalloc(&q, n * sizeof(float)));
  CK(cudaMemcpy(p, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(q, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  std::vector<float> rp(h), rq(h);  // C reference
  for (int k = 0; k < 10; k++) {  // one behaviour: a and the buffers change
    float a = 0.5f + 0.25f * k;
    if (k % 2) saxpy<<<n / 256, 256>>>(a, p, q, n);
    else saxpy<<<n / 256, 256>>>(a, q, p, n);
    for (int i = 0; i < n; i++)
      if (k % 2) rq[i] = a * rp[i] + rq[i];
      else rp[i] = a * rq[i] + rp[i];
  }
  for (int m = 1; m <= 3; m++) {  // three amounts of work: three profiles
    saxpy<<<n / 256, 256>>>(1.0f, p, q, m * 1000);
    for (int i = 0; i < m * 1000; i++) rq[i] = rp[i] + rq[i];
  }
  CK(cudaMemcpy(got.data(), p, n * sizeof(float), cudaMemcpyDeviceToHost));
  bool ok = close_all("saxpy into p", got.data(), rp.data(), n, 1e-4f);
  CK(cudaMemcpy(got.data(), q, n * sizeof(float), cudaMemcpyDeviceToHost));
  ok = close_all("saxpy into q", got.data(), rq.data(), n, 1e-4f) && ok;
  return ok ? 0 : 1;
}
