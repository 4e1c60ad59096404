// Host callbacks in stream order: cudaStreamAddCallback and
// cudaLaunchHostFunc each run after the work submitted before them (they
// see the kernel's results) and before the work after them; checked
// against a C reference and the order of the calls.
#include "check.h"
#include <vector>

__global__ void fill(int *v, int k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = k * i;
}

struct Log {
  const int *host;  // the copy the callback reads
  int n, k;
  int order[8], count;
  bool saw_right;
};

static void check(Log *l, int tag) {
  bool right = true;
  for (int i = 0; i < l->n; i++) right = right && l->host[i] == l->k * i;  // C reference
  l->saw_right = l->saw_right && right;
  l->order[l->count++] = tag;
}
static void CUDART_CB on_callback(cudaStream_t, cudaError_t status, void *p) {
  Log *l = (Log *)p;
  check(l, status == cudaSuccess ? 1 : -1);
}
static void CUDART_CB on_host_func(void *p) { check((Log *)p, 2); }

int main() {
  const int n = 512;
  int *d;
  std::vector<int> h(n, -1);
  CK(cudaMalloc(&d, n * sizeof(int)));
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  Log log = {h.data(), n, 3, {0}, 0, true};
  fill<<<n / 128, 128, 0, s>>>(d, 3, n);
  CK(cudaMemcpyAsync(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  CK(cudaStreamAddCallback(s, on_callback, &log, 0));
  fill<<<n / 128, 128, 0, s>>>(d, 5, n);
  CK(cudaMemcpyAsync(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  CK(cudaStreamSynchronize(s));  // the second check must see 5 * i
  log.k = 5;
  CK(cudaLaunchHostFunc(s, on_host_func, &log));
  CK(cudaStreamSynchronize(s));
  bool ok = log.saw_right && log.count == 2 && log.order[0] == 1 && log.order[1] == 2;
  std::printf("%s host callbacks in stream order (%d calls, results %s)\n", ok ? "PASS" : "FAIL",
              log.count, log.saw_right ? "seen" : "not seen");
  CK(cudaStreamDestroy(s));
  CK(cudaFree(d));
  return ok ? 0 : 1;
}
