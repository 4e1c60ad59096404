// A call warpsight's runtime does not implement: cudaErrorNotSupported and
// a line on stderr naming it (checked by the test).  IPC cannot be: the
// emulated memory lives in one process.
#include <cstdio>

int main() {
  void *p = nullptr;
  if (cudaMalloc(&p, 256) != cudaSuccess) return 3;
  cudaIpcMemHandle_t h;
  cudaError_t e = cudaIpcGetMemHandle(&h, p);
  std::printf("cudaIpcGetMemHandle: %s\n", cudaGetErrorName(e));
  cudaError_t last = cudaGetLastError();
  bool ok = e == cudaErrorNotSupported && last == cudaErrorNotSupported &&
            cudaGetLastError() == cudaSuccess;
  std::printf("%s unimplemented call returns cudaErrorNotSupported\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
