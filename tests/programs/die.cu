// A program that dies after its kernels ran (issue 21: exec dropped them):
// `die abort` calls abort(), `die segv` dereferences NULL, `die symbol`
// calls a function its helper library no longer has (the dynamic linker
// stops it with status 127), `die nonl` prints without a final newline and
// exits normally.  run.sh checks that exec says how it ended and still
// reports both kernels.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <csignal>

extern "C" int die_helper(int);  // in libdiehelper.so (run.sh builds it)

__global__ void twice(int *v) { v[threadIdx.x] *= 2; }
__global__ void plus(int *v, int k) { v[threadIdx.x] += k; }

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "abort";
  int h[32], *d;
  for (int i = 0; i < 32; i++) h[i] = i;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  twice<<<1, 32>>>(d);
  plus<<<1, 32>>>(d, 3);
  plus<<<1, 32>>>(d, 4);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("h[5] = %d", h[5]);  // 5 * 2 + 3 + 4 = 17, no newline yet
  std::fflush(stdout);
  if (!std::strcmp(how, "abort")) std::abort();
  if (!std::strcmp(how, "segv")) std::raise(SIGSEGV);
  if (!std::strcmp(how, "symbol")) return die_helper(h[5]);
  return h[5] == 17 ? 0 : 1;  // "nonl"
}
