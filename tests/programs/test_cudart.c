/*
 * test_cudart.c — warpsight's CUDA runtime called as a program would call it
 * (through the exported functions, src/cudart/exports.h), without nvcc: the
 * device facts come from the GPU database (v100: CC 7.0, 80 SMs, data/gpus/
 * v100.json), copies round-trip, errors follow CUDA's rules (a plain error
 * is returned once by cudaGetLastError), events read the predicted clock
 * (0 with no kernel), managed memory is one pointer for host and device.
 * Launches need real device code: tests/programs/ cover them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cudart/exports.h"

static void test_device(void **state) {
  (void)state;
  int n = 0, v = 0;
  assert_int_equal(cudaGetDeviceCount(&n), cudaSuccess);
  assert_int_equal(n, 1);
  cudaDeviceProp p;
  assert_int_equal(cudaGetDeviceProperties(&p, 0), cudaSuccess);
  assert_non_null(strstr(p.name, "V100"));
  assert_int_equal(p.major, 7);
  assert_int_equal(p.minor, 0);
  assert_int_equal(p.multiProcessorCount, 80);
  assert_int_equal(p.warpSize, 32);
  assert_int_equal(p.maxThreadsPerBlock, 1024); /* CC 7.0 limit */
  assert_int_equal(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
  assert_int_equal(v, 80);
  assert_int_equal(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0), cudaSuccess);
  assert_int_equal(v, 7);
  assert_int_equal(cudaGetDeviceProperties(&p, 1), cudaErrorInvalidDevice);
  assert_int_equal(cudaGetLastError(), cudaErrorInvalidDevice);
  assert_int_equal(cudaGetLastError(), cudaSuccess); /* returned once */
  assert_int_equal(cudaDeviceGetAttribute(&v, 100000, 0), cudaErrorNotSupported);
  assert_int_equal(cudaGetLastError(), cudaErrorNotSupported);
}

static void test_memory(void **state) {
  (void)state;
  int h[100], back[100];
  for (int i = 0; i < 100; i++) h[i] = i * i;
  int *d = NULL, *d2 = NULL;
  assert_int_equal(cudaMalloc((void **)&d, sizeof h), cudaSuccess);
  assert_int_equal(cudaMalloc((void **)&d2, sizeof h), cudaSuccess);
  assert_non_null(d);
  assert_int_equal(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice), cudaSuccess);
  assert_int_equal(cudaMemcpy(d2, d, sizeof h, cudaMemcpyDeviceToDevice), cudaSuccess);
  memset(back, 0, sizeof back);
  assert_int_equal(cudaMemcpy(back, d2, sizeof h, cudaMemcpyDefault), cudaSuccess);
  assert_memory_equal(back, h, sizeof h);
  assert_int_equal(cudaMemset(d2, 0xff, 8), cudaSuccess);
  assert_int_equal(cudaMemcpy(back, d2, 12, cudaMemcpyDeviceToHost), cudaSuccess);
  assert_int_equal(back[0], -1);
  assert_int_equal(back[1], -1);
  assert_int_equal(back[2], 4);
  /* past the end of the allocation, and a host pointer where a device one
   * must be: invalid, never a crash */
  assert_int_equal(cudaMemcpy(back, d2, sizeof h + 4, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
  assert_int_equal(cudaMemcpy(h, back, 4, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  assert_int_equal(cudaMemcpy(d, h, 4, 7), cudaErrorInvalidMemcpyDirection);
  assert_int_equal(cudaGetLastError(), cudaErrorInvalidMemcpyDirection);
  assert_int_equal(cudaFree(d), cudaSuccess);
  assert_int_equal(cudaFree(d), cudaErrorInvalidDevicePointer); /* twice */
  assert_int_equal(cudaFree(d2), cudaSuccess);
  assert_int_equal(cudaFree(NULL), cudaSuccess);
  cudaGetLastError();
  void *ph = NULL;
  assert_int_equal(cudaMallocHost(&ph, 1000), cudaSuccess);
  assert_int_equal(((unsigned char *)ph)[999], 0);
  assert_int_equal(cudaFreeHost(ph), cudaSuccess);
}

static void test_managed(void **state) {
  (void)state;
  if (WS_TEST_ASAN) skip(); /* managed memory lies in ASan's shadow (docs/exec.md) */
  int *m = NULL, out[4] = {0};
  assert_int_equal(cudaMallocManaged((void **)&m, 4 * sizeof(int), 1), cudaSuccess);
  for (int i = 0; i < 4; i++) m[i] = 10 + i; /* the host writes it directly */
  assert_int_equal(cudaMemcpy(out, m, sizeof out, cudaMemcpyDefault), cudaSuccess);
  assert_int_equal(out[3], 13);
  assert_int_equal(cudaMemset(m, 0, sizeof(int)), cudaSuccess);
  assert_int_equal(m[0], 0);
  assert_int_equal(cudaFree(m), cudaSuccess);
}

static void test_errors_and_events(void **state) {
  (void)state;
  assert_string_equal(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress");
  assert_string_equal(cudaGetErrorString(cudaErrorIllegalAddress),
                      "an illegal memory access was encountered");
  assert_string_equal(cudaGetErrorName(801), "cudaErrorNotSupported");
  assert_int_equal(cudaMallocPitch(), cudaErrorNotSupported);
  assert_int_equal(cudaPeekAtLastError(), cudaErrorNotSupported);
  assert_int_equal(cudaGetLastError(), cudaErrorNotSupported);
  cudaEvent_t a, b, never;
  cudaStream_t s;
  float ms = -1;
  assert_int_equal(cudaStreamCreate(&s), cudaSuccess);
  assert_int_equal(cudaEventCreate(&a), cudaSuccess);
  assert_int_equal(cudaEventCreate(&b), cudaSuccess);
  assert_int_equal(cudaEventCreate(&never), cudaSuccess);
  assert_int_equal(cudaEventRecord(a, s), cudaSuccess);
  assert_int_equal(cudaEventRecord(b, s), cudaSuccess);
  assert_int_equal(cudaEventSynchronize(b), cudaSuccess);
  assert_int_equal(cudaEventElapsedTime(&ms, a, b), cudaSuccess);
  assert_true(ms == 0.0f); /* no kernel between the records: no predicted time */
  assert_int_equal(cudaEventElapsedTime(&ms, a, never), cudaErrorInvalidResourceHandle);
  cudaGetLastError();
  assert_int_equal(cudaEventDestroy(a), cudaSuccess);
  assert_int_equal(cudaEventDestroy(a), cudaErrorInvalidResourceHandle);
  cudaGetLastError();
  assert_int_equal(cudaEventDestroy(b), cudaSuccess);
  assert_int_equal(cudaEventDestroy(never), cudaSuccess);
  assert_int_equal(cudaStreamDestroy(s), cudaSuccess);
}

static void test_call_configuration(void **state) {
  (void)state;
  /* <<<>>> nests through argument evaluation: a stack */
  dim3 g1 = {4, 1, 1}, b1 = {128, 1, 1}, g2 = {2, 2, 1}, b2 = {32, 4, 1}, g, b;
  size_t sh;
  cudaStream_t st;
  assert_int_equal(__cudaPushCallConfiguration(g1, b1, 0, NULL), 0);
  assert_int_equal(__cudaPushCallConfiguration(g2, b2, 64, NULL), 0);
  assert_int_equal(__cudaPopCallConfiguration(&g, &b, &sh, &st), cudaSuccess);
  assert_int_equal(g.y, 2);
  assert_int_equal(b.y, 4);
  assert_int_equal(sh, 64);
  assert_int_equal(__cudaPopCallConfiguration(&g, &b, &sh, &st), cudaSuccess);
  assert_int_equal(g.x, 4);
  assert_int_equal(b.x, 128);
  assert_int_equal(__cudaPopCallConfiguration(&g, &b, &sh, &st), cudaErrorMissingConfiguration);
  cudaGetLastError();
  cudaKernel_t k;
  assert_int_equal(__cudaGetKernel(&k, (const void *)test_call_configuration),
                   cudaErrorInvalidDeviceFunction);
  cudaGetLastError();
}

int main(void) {
  setenv("WARPSIGHT_GPU", "v100", 1); /* read at the first call */
  setenv("WARPSIGHT_QUIET", "1", 1);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_device),
      cmocka_unit_test(test_memory),
      cmocka_unit_test(test_managed),
      cmocka_unit_test(test_errors_and_events),
      cmocka_unit_test(test_call_configuration),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
