// Two streams, each with its own kernels, timed with events.  Under
// warpsight the elapsed time is the predicted GPU time of the kernels
// launched between the two records.
#include "check.h"
#include <vector>

__global__ void scale(float *v, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= a;
}
__global__ void offset(float *v, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += b;
}

int main() {
  const int n = 4096;
  std::vector<float> a(n), b(n), ra(n), rb(n);
  for (int i = 0; i < n; i++) a[i] = (float)i, b[i] = (float)(n - i);
  float *da, *db;
  cudaStream_t s1, s2;
  cudaEvent_t start, stop;
  CK(cudaStreamCreate(&s1));
  CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  CK(cudaEventCreate(&start));
  CK(cudaEventCreate(&stop));
  CK(cudaMalloc(&da, n * sizeof(float)));
  CK(cudaMalloc(&db, n * sizeof(float)));
  CK(cudaMemcpyAsync(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice, s1));
  CK(cudaMemcpyAsync(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice, s2));
  CK(cudaEventRecord(start, 0));
  scale<<<n / 256, 256, 0, s1>>>(da, 2.0f, n);
  offset<<<n / 128, 128, 0, s2>>>(db, 1.0f, n);
  offset<<<n / 256, 256, 0, s1>>>(da, -3.0f, n);
  CK(cudaStreamWaitEvent(s2, start, 0));
  CK(cudaEventRecord(stop, 0));
  CK(cudaEventSynchronize(stop));
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, start, stop));
  std::printf("events: %.9g ms\n", ms);
  CK(cudaStreamSynchronize(s1));
  CK(cudaStreamSynchronize(s2));
  std::vector<float> ga(n), gb(n);
  CK(cudaMemcpy(ga.data(), da, n * sizeof(float), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(gb.data(), db, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) ra[i] = a[i] * 2.0f - 3.0f, rb[i] = b[i] + 1.0f;  // C reference
  bool ok = close_all("stream 1", ga.data(), ra.data(), n);
  ok = close_all("stream 2", gb.data(), rb.data(), n) && ok;
  CK(cudaEventDestroy(start));
  CK(cudaEventDestroy(stop));
  CK(cudaStreamDestroy(s1));
  CK(cudaStreamDestroy(s2));
  return ok && ms >= 0 ? 0 : 1;
}
