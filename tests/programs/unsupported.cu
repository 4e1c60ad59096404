// A call warpsight's runtime does not implement: cudaErrorNotSupported and
// a line on stderr naming it (checked by the test).
#include <cstdio>

int main() {
  void *p = nullptr;
  size_t pitch = 0;
  cudaError_t e = cudaMallocPitch(&p, &pitch, 100, 10);
  std::printf("cudaMallocPitch: %s\n", cudaGetErrorName(e));
  cudaError_t last = cudaGetLastError();
  bool ok = e == cudaErrorNotSupported && last == cudaErrorNotSupported &&
            cudaGetLastError() == cudaSuccess;
  std::printf("%s unimplemented call returns cudaErrorNotSupported\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
