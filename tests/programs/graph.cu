// CUDA graphs: a stream captured (a copy in, two kernels on two streams
// forked and joined through events, a copy out, a host function) and
// replayed several times, and a graph built explicitly (memset, kernel,
// memcpy and host nodes with dependencies) and relaunched after its
// kernel node's parameters changed.  Results against a C reference.
#include "check.h"
#include <vector>

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void square(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * v[i];
}

static int host_calls = 0;
static void CUDART_CB on_host(void *p) { host_calls += *(int *)p; }

int main() {
  const int n = 1000, reps = 3;
  std::vector<float> x(n), y(n), got(n), sq(n), ref(n);
  for (int i = 0; i < n; i++) x[i] = (float)i / 10.0f, y[i] = 1.0f;
  float *dx, *dy, *dz;
  CK(cudaMalloc(&dx, n * sizeof(float)));
  CK(cudaMalloc(&dy, n * sizeof(float)));
  CK(cudaMalloc(&dz, n * sizeof(float)));
  CK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  cudaStream_t s, t;
  cudaEvent_t fork, join;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking));
  CK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
  int one = 1;
  // captured: y = 2x + y (stream s), z = x^2 (stream t), both copied out
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CK(cudaMemcpyAsync(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice, s));
  CK(cudaEventRecord(fork, s));
  CK(cudaStreamWaitEvent(t, fork, 0));
  CK(cudaMemcpyAsync(dz, dx, n * sizeof(float), cudaMemcpyDeviceToDevice, t));
  square<<<(n + 127) / 128, 128, 0, t>>>(dz, n);
  CK(cudaEventRecord(join, t));
  saxpy<<<(n + 255) / 256, 256, 0, s>>>(2.0f, dx, dy, n);
  CK(cudaStreamWaitEvent(s, join, 0));
  CK(cudaMemcpyAsync(got.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  CK(cudaMemcpyAsync(sq.data(), dz, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  CK(cudaLaunchHostFunc(s, on_host, &one));
  cudaGraph_t g;
  CK(cudaStreamEndCapture(s, &g));
  size_t nodes = 0;
  CK(cudaGraphGetNodes(g, nullptr, &nodes));
  std::printf("captured graph: %zu nodes\n", nodes);
  cudaGraphExec_t ge;
  CK(cudaGraphInstantiate(&ge, g, 0));
  for (int r = 0; r < reps; r++) CK(cudaGraphLaunch(ge, s));
  CK(cudaStreamSynchronize(s));
  for (int i = 0; i < n; i++) ref[i] = 1.0f + reps * 2.0f * x[i];  // C reference
  bool ok = close_all("captured graph replayed (saxpy)", got.data(), ref.data(), n);
  for (int i = 0; i < n; i++) ref[i] = x[i] * x[i];
  ok = close_all("captured graph replayed (square)", sq.data(), ref.data(), n) && ok;
  ok = ok && nodes == 7 && host_calls == reps;

  // explicit: memset y to 0 -> saxpy(a) -> copy out -> host node
  cudaGraph_t e;
  CK(cudaGraphCreate(&e, 0));
  cudaGraphNode_t set, k, out, host;
  cudaMemsetParams mp = {};
  mp.dst = dy, mp.value = 0, mp.elementSize = 4, mp.width = n, mp.height = 1;
  CK(cudaGraphAddMemsetNode(&set, e, nullptr, 0, &mp));
  float a = 3.0f;
  int nn = n;
  void *args[] = {&a, &dx, &dy, &nn};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)saxpy, kp.gridDim = dim3((n + 255) / 256), kp.blockDim = dim3(256);
  kp.kernelParams = args;
  CK(cudaGraphAddKernelNode(&k, e, &set, 1, &kp));
  CK(cudaGraphAddMemcpyNode1D(&out, e, &k, 1, got.data(), dy, n * sizeof(float),
                              cudaMemcpyDeviceToHost));
  cudaHostNodeParams hp = {on_host, &one};
  CK(cudaGraphAddHostNode(&host, e, &out, 1, &hp));
  CK(cudaGraphExecDestroy(ge));
  CK(cudaGraphInstantiate(&ge, e, 0));
  CK(cudaGraphLaunch(ge, s));
  CK(cudaStreamSynchronize(s));
  for (int i = 0; i < n; i++) ref[i] = 3.0f * x[i];
  ok = close_all("explicit graph", got.data(), ref.data(), n) && ok;
  a = -1.0f;
  CK(cudaGraphExecKernelNodeSetParams(ge, k, &kp));
  CK(cudaGraphLaunch(ge, s));
  CK(cudaStreamSynchronize(s));
  for (int i = 0; i < n; i++) ref[i] = -x[i];
  ok = close_all("explicit graph, new parameters", got.data(), ref.data(), n) && ok;
  ok = ok && host_calls == reps + 2;
  std::printf("%s host nodes ran %d times\n", host_calls == reps + 2 ? "PASS" : "FAIL", host_calls);
  CK(cudaGraphExecDestroy(ge));
  CK(cudaGraphDestroy(g));
  CK(cudaGraphDestroy(e));
  return ok ? 0 : 1;
}
