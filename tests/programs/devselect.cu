// Device selection as the CUDA samples' helper_cuda.h does it (written
// here, not copied): every device's compute mode, integrated flag, clock
// rate and SM count through cudaDeviceGetAttribute, a prohibited device
// skipped, the fastest (SMs x cores per SM x clock) chosen with
// cudaSetDevice; then a vector add on it against a C reference.
#include "check.h"
#include <vector>

// FP32 cores per SM by compute capability (CUDA C Programming Guide,
// arithmetic instruction throughput tables).
static int cores_per_sm(int major, int minor) {
  static const struct { int cc, cores; } t[] = {
      {30, 192}, {35, 192}, {37, 192}, {50, 128}, {52, 128}, {53, 128}, {60, 64},
      {61, 128}, {62, 128}, {70, 64},  {72, 64},  {75, 64},  {80, 64},  {86, 128},
      {87, 128}, {89, 128}, {90, 128}, {100, 128}, {120, 128}};
  int cc = major * 10 + minor, best = 64;
  for (const auto &e : t)
    if (e.cc <= cc) best = e.cores;
  return best;
}

static int pick_device() {
  int count = 0, best = -1;
  double best_perf = -1;
  CK(cudaGetDeviceCount(&count));
  for (int d = 0; d < count; d++) {
    int mode = -1, integrated = -1, clock = 0, sms = 0, major = 0, minor = 0;
    CK(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, d));
    CK(cudaDeviceGetAttribute(&integrated, cudaDevAttrIntegrated, d));
    CK(cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, d));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d));
    CK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, d));
    CK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, d));
    std::printf("device %d: mode %d, integrated %d, %d kHz, %d SMs, CC %d.%d\n", d, mode,
                integrated, clock, sms, major, minor);
    if (mode == cudaComputeModeProhibited) continue;
    double perf = (double)sms * cores_per_sm(major, minor) * clock * (integrated ? 0.5 : 1.0);
    if (perf > best_perf) best_perf = perf, best = d;
  }
  return best;
}

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  int dev = pick_device();
  if (dev < 0) { std::printf("FAIL no usable device\n"); return 1; }
  CK(cudaSetDevice(dev));
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, dev));
  std::printf("selected device %d: %s\n", dev, p.name);
  const int n = 5000;
  std::vector<float> a(n), b(n), c(n), ref(n);
  for (int i = 0; i < n; i++) a[i] = (float)i, b[i] = 0.5f * (float)i, ref[i] = a[i] + b[i];
  float *da, *db, *dc;
  CK(cudaMalloc(&da, n * sizeof(float)));
  CK(cudaMalloc(&db, n * sizeof(float)));
  CK(cudaMalloc(&dc, n * sizeof(float)));
  CK(cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  vadd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost));
  bool ok = close_all("vector add on the selected device", c.data(), ref.data(), n);
  CK(cudaFree(da));
  CK(cudaFree(db));
  CK(cudaFree(dc));
  return ok ? 0 : 1;
}
