// The second translation unit: a __device__ function and a __device__
// variable that main.cu's kernel uses through extern declarations (resolved
// by the device link), and a kernel of its own.
#include "common.h"

__device__ int bias = 7;

__device__ int scaled(int x, int k) { return x * k + bias; }

__global__ void add_bias(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += bias;
}
