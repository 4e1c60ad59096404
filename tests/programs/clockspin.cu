// A kernel that waits on the clock, as the samples' simpleHyperQ and
// concurrentKernels do (clock_block): it spins until clock() has advanced
// `cycles`.  Under warpsight the clock advances on the predicted clock, so
// the prediction is about cycles / the GPU's clock (run.sh checks the
// report against the clock rate the program reads), not 5 to 8 times
// more as when the clock counted warp instructions (issue 21).
#include "check.h"

__global__ void clock_block(long long *out, long long cycles) {
  unsigned int start = (unsigned int)clock();
  long long elapsed = 0;
  while (elapsed < cycles) elapsed = (long long)((unsigned int)clock() - start);
  out[0] = elapsed;
}

int main() {
  const long long cycles = 2000000;
  int khz = 0;
  CK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
  long long *d, got = 0;
  CK(cudaMalloc(&d, sizeof got));
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  CK(cudaEventRecord(a));
  clock_block<<<1, 1>>>(d, cycles);
  CK(cudaEventRecord(b));
  CK(cudaEventSynchronize(b));
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, a, b));
  CK(cudaMemcpy(&got, d, sizeof got, cudaMemcpyDeviceToHost));
  double want = (double)cycles / khz;  // ms at the device's clock
  std::printf("clock: waited %lld cycles; %.4g ms elapsed, %.4g ms at %d kHz\n", got, ms, want, khz);
  bool ok = got >= cycles && ms > 0.75 * want && ms < 1.5 * want;
  std::printf("%s the wait is predicted at the clock rate\n", ok ? "PASS" : "FAIL");
  CK(cudaFree(d));
  return ok ? 0 : 1;
}
