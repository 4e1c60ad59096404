// A pitched 2D image: cudaMallocPitch, cudaMemcpy2D in and out (the host
// rows packed, the device rows padded to the pitch), cudaMemset2D, and a
// kernel that walks rows by the pitch (a 3-point horizontal blur); checked
// against a C reference.  Also cudaMalloc3D / cudaMemcpy3D round trip.
#include "check.h"
#include <vector>

__global__ void blur(const float *in, size_t ipitch, float *out, size_t opitch, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  const float *row = (const float *)((const char *)in + y * ipitch);
  float l = row[x > 0 ? x - 1 : x], c = row[x], r = row[x < w - 1 ? x + 1 : x];
  ((float *)((char *)out + y * opitch))[x] = (l + c + r) / 3.0f;
}

int main() {
  const int w = 100, h = 37;
  std::vector<float> img(w * h), ref(w * h), got(w * h);
  for (int i = 0; i < w * h; i++) img[i] = (float)((i * 7919) % 101);
  float *din, *dout;
  size_t ip, op;
  CK(cudaMallocPitch((void **)&din, &ip, w * sizeof(float), h));
  CK(cudaMallocPitch((void **)&dout, &op, w * sizeof(float), h));
  std::printf("pitch %zu bytes for rows of %zu\n", ip, w * sizeof(float));
  if (ip < w * sizeof(float) || ip % 256) { std::printf("FAIL pitch %zu\n", ip); return 1; }
  CK(cudaMemset2D(dout, op, 0, w * sizeof(float), h));
  CK(cudaMemcpy2D(din, ip, img.data(), w * sizeof(float), w * sizeof(float), h,
                  cudaMemcpyHostToDevice));
  dim3 b(32, 8), g((w + 31) / 32, (h + 7) / 8);
  blur<<<g, b>>>(din, ip, dout, op, w, h);
  CK(cudaGetLastError());
  CK(cudaMemcpy2D(got.data(), w * sizeof(float), dout, op, w * sizeof(float), h,
                  cudaMemcpyDeviceToHost));
  for (int y = 0; y < h; y++)  // C reference
    for (int x = 0; x < w; x++) {
      const float *row = &img[y * w];
      ref[y * w + x] = (row[x > 0 ? x - 1 : x] + row[x] + row[x < w - 1 ? x + 1 : x]) / 3.0f;
    }
  bool ok = close_all("blur over pitched rows", got.data(), ref.data(), w * h);
  // 3D: a volume through a pitched allocation and back
  cudaExtent ext = make_cudaExtent(w * sizeof(float), h, 3);
  cudaPitchedPtr vol;
  CK(cudaMalloc3D(&vol, ext));
  std::vector<float> v3(w * h * 3), b3(w * h * 3);
  for (int i = 0; i < w * h * 3; i++) v3[i] = (float)i * 0.5f;
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(v3.data(), w * sizeof(float), w, h);
  p.dstPtr = vol;
  p.extent = ext;
  p.kind = cudaMemcpyHostToDevice;
  CK(cudaMemcpy3D(&p));
  p.srcPtr = vol;
  p.dstPtr = make_cudaPitchedPtr(b3.data(), w * sizeof(float), w, h);
  p.kind = cudaMemcpyDeviceToHost;
  CK(cudaMemcpy3D(&p));
  ok = close_all("3D round trip", b3.data(), v3.data(), w * h * 3) && ok;
  CK(cudaFree(din));
  CK(cudaFree(dout));
  CK(cudaFree(vol.ptr));
  return ok ? 0 : 1;
}
