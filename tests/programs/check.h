// check.h — what the test programs share: a CUDA call checker, device
// buffers from host data, and a float comparison against the host's C
// reference.
#pragma once
#include <cmath>
#include <cstdio>
#include <cstdlib>

#define CK(call)                                                                  \
  do {                                                                            \
    cudaError_t e_ = (call);                                                      \
    if (e_ != cudaSuccess) {                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,          \
                   cudaGetErrorString(e_));                                       \
      std::exit(3);                                                               \
    }                                                                             \
  } while (0)

// A device buffer of n elements of T, holding host's n when given.
template <class T>
static T *dev_buf(size_t n, const T *host = nullptr) {
  T *d = nullptr;
  CK(cudaMalloc(&d, n * sizeof(T)));
  if (host) CK(cudaMemcpy(d, host, n * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

// Relative comparison of n floats; prints the first mismatch.
static inline bool close_all(const char *what, const float *got, const float *want, int n,
                             float tol = 1e-5f) {
  for (int i = 0; i < n; i++) {
    float d = std::fabs(got[i] - want[i]), s = std::fmax(1.0f, std::fabs(want[i]));
    if (!(d <= tol * s)) {
      std::printf("FAIL %s[%d] = %.9g, reference %.9g\n", what, i, got[i], want[i]);
      return false;
    }
  }
  std::printf("PASS %s (%d values match the C reference)\n", what, n);
  return true;
}
