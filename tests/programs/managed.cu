// Managed memory with the hints of today's programs: cudaMemAdvise and
// cudaMemPrefetchAsync with cudaMemLocation, read back with
// cudaMemRangeGetAttribute(s) (it was not supported); two streams ordered
// by cudaStreamWaitEvent and timed with events; the host reads the results
// in place.  Checked against the C reference.
#include "check.h"

__global__ void scale(float *p, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * s + 1.f;
}

__global__ void addv(const float *a, float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] += a[i];
}

int main() {
  const int n = 5000;
  const size_t bytes = n * sizeof(float);
  bool ok = true;
  float *m, *m2;
  CK(cudaMallocManaged(&m, bytes));
  CK(cudaMallocManaged(&m2, bytes, cudaMemAttachGlobal));
  for (int i = 0; i < n; i++) m[i] = (float)i, m2[i] = 2.f * i;
  cudaMemLocation dev = {cudaMemLocationTypeDevice, 0}, host = {cudaMemLocationTypeHost, 0};
  CK(cudaMemAdvise(m, bytes, cudaMemAdviseSetReadMostly, dev));
  CK(cudaMemAdvise(m2, bytes, cudaMemAdviseSetPreferredLocation, dev));
  CK(cudaMemAdvise(m2, bytes, cudaMemAdviseSetAccessedBy, host));
  cudaStream_t s1, s2;
  CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CK(cudaStreamCreate(&s2));
  CK(cudaMemPrefetchAsync(m, bytes, dev, 0, s1));
  cudaEvent_t e0, e1, e2, untimed;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  CK(cudaEventCreate(&e2));
  CK(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming));
  CK(cudaEventRecord(e0, s1));
  scale<<<(n + 255) / 256, 256, 0, s1>>>(m, n, 3.f);
  CK(cudaEventRecord(e1, s1));
  CK(cudaStreamWaitEvent(s2, e1, 0));
  addv<<<(n + 255) / 256, 256, 0, s2>>>(m, m2, n);
  CK(cudaEventRecord(e2, s2));
  CK(cudaEventRecord(untimed, s2));
  CK(cudaMemPrefetchAsync(m2, bytes, host, 0, s2));
  CK(cudaEventSynchronize(e2));
  // predicted times: each kernel's is positive, and they add up
  float t01, t02, t12, dummy;
  CK(cudaEventElapsedTime(&t01, e0, e1));
  CK(cudaEventElapsedTime(&t02, e0, e2));
  CK(cudaEventElapsedTime(&t12, e1, e2));
  if (!(t01 > 0 && t12 > 0 && std::fabs(t01 + t12 - t02) <= 1e-5f * t02)) {
    std::printf("FAIL events %g + %g != %g ms\n", t01, t12, t02);
    ok = false;
  }
  if (cudaEventElapsedTime(&dummy, e0, untimed) != cudaErrorInvalidResourceHandle) {
    std::printf("FAIL elapsed time of a cudaEventDisableTiming event\n");
    ok = false;
  }
  CK(cudaStreamSynchronize(s2));
  for (int i = 0; i < n && ok; i++)
    if (m[i] != 3.f * i + 1.f || m2[i] != 2.f * i + 3.f * i + 1.f) {
      std::printf("FAIL m[%d] = %g, m2[%d] = %g\n", i, m[i], i, m2[i]);
      ok = false;
    }
  // the hints read back, as CUDA documents them
  int rm = -1, pref = -1, acc[2] = {9, 9}, last = -1, lastm2 = -1;
  CK(cudaMemRangeGetAttribute(&rm, 4, cudaMemRangeAttributeReadMostly, m, bytes));
  CK(cudaMemRangeGetAttribute(&pref, 4, cudaMemRangeAttributePreferredLocation, m2, bytes));
  CK(cudaMemRangeGetAttribute(acc, sizeof acc, cudaMemRangeAttributeAccessedBy, m2, bytes));
  CK(cudaMemRangeGetAttribute(&last, 4, cudaMemRangeAttributeLastPrefetchLocation, m, bytes));
  void *data[1] = {&lastm2};
  size_t sizes[1] = {4};
  cudaMemRangeAttribute which[1] = {cudaMemRangeAttributeLastPrefetchLocation};
  CK(cudaMemRangeGetAttributes(data, sizes, which, 1, m2, bytes));
  // m: read-mostly, prefetched to device 0; m2: preferred on device 0,
  // accessed by the host (cudaCpuDeviceId) only, prefetched to the host
  if (rm != 1 || pref != 0 || acc[0] != cudaCpuDeviceId || acc[1] != cudaInvalidDeviceId || last != 0 ||
      lastm2 != cudaCpuDeviceId) {
    std::printf("FAIL range attributes: read-mostly %d, preferred %d, accessed by %d %d, last prefetch %d %d\n",
                rm, pref, acc[0], acc[1], last, lastm2);
    ok = false;
  }
  CK(cudaFree(m));
  CK(cudaFree(m2));
  std::printf(ok ? "PASS managed: hints, events and results\n" : "FAIL managed\n");
  return ok ? 0 : 1;
}
