// Sparse matrix-vector product (CSR) taking the matrix as a struct by value.
#include "check.h"
#include <vector>

struct Csr {
  int rows;
  const int *rowptr, *col;
  const float *val;
  float scale;
};

__global__ void spmv(Csr m, const float *x, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= m.rows) return;
  float s = 0;
  for (int k = m.rowptr[r]; k < m.rowptr[r + 1]; k++) s += m.val[k] * x[m.col[k]];
  y[r] = m.scale * s;
}

int main() {
  const int n = 500;
  std::vector<int> rp(n + 1), col;
  std::vector<float> val, x(n), ref(n), got(n);
  for (int r = 0; r < n; r++) {  // a banded matrix with a few far entries
    rp[r] = (int)col.size();
    for (int c = r - 2; c <= r + 2; c++)
      if (c >= 0 && c < n) col.push_back(c), val.push_back(1.0f + (float)((r + c) % 5));
    if (r % 7 == 0) col.push_back((r * 31) % n), val.push_back(-0.5f);
  }
  rp[n] = (int)col.size();
  for (int i = 0; i < n; i++) x[i] = (float)(i % 9) - 4.0f;
  int *drp, *dcol;
  float *dval, *dx, *dy;
  CK(cudaMalloc(&drp, rp.size() * sizeof(int)));
  CK(cudaMalloc(&dcol, col.size() * sizeof(int)));
  CK(cudaMalloc(&dval, val.size() * sizeof(float)));
  CK(cudaMalloc(&dx, n * sizeof(float)));
  CK(cudaMalloc(&dy, n * sizeof(float)));
  CK(cudaMemcpy(drp, rp.data(), rp.size() * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dcol, col.data(), col.size() * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dval, val.data(), val.size() * sizeof(float), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  Csr m = {n, drp, dcol, dval, 0.5f};
  spmv<<<(n + 63) / 64, 64>>>(m, dx, dy);
  CK(cudaGetLastError());
  CK(cudaMemcpy(got.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int r = 0; r < n; r++) {  // C reference
    float s = 0;
    for (int k = rp[r]; k < rp[r + 1]; k++) s += val[k] * x[col[k]];
    ref[r] = 0.5f * s;
  }
  return close_all("spmv", got.data(), ref.data(), n) ? 0 : 1;
}
