// FP8 (cuda_fp8.h) on sm_89: floats to __nv_fp8_e4m3 / __nv_fp8_e5m2 and
// back, and pairs through half2, as the header lowers them there (cvt
// between e4m3x2/e5m2x2 and f32 or f16x2).  The reference is the header's
// own host conversion (C code in cuda_fp8.hpp), on inputs chosen for the
// edges: every FP8 value, the midpoints between neighbours (ties to even),
// subnormals, values past the largest finite, infinities and NaN.
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstring>
#include <vector>

#include "check.h"

__global__ void convert(const float *in, unsigned char *e4, unsigned char *e5, float *back4, float *back5,
                        unsigned *pair4, unsigned *pair5, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __nv_fp8_e4m3 a(in[i]);
  __nv_fp8_e5m2 b(in[i]);
  e4[i] = a.__x, e5[i] = b.__x;
  back4[i] = (float)a, back5[i] = (float)b;
  if (i + 1 < n) {
    // a pair: the two floats as half2 to fp8x2 (f16x2 form), then back to half2
    __half2_raw h = __half2(__float2half_rn(in[i]), __float2half_rn(in[i + 1]));
    __nv_fp8x2_storage_t p4 = __nv_cvt_halfraw2_to_fp8x2(h, __NV_SATFINITE, __NV_E4M3);
    __nv_fp8x2_storage_t p5 = __nv_cvt_halfraw2_to_fp8x2(h, __NV_SATFINITE, __NV_E5M2);
    __half2_raw r4 = __nv_cvt_fp8x2_to_halfraw2(p4, __NV_E4M3), r5 = __nv_cvt_fp8x2_to_halfraw2(p5, __NV_E5M2);
    pair4[i] = (unsigned)p4 << 16 | r4.x, pair5[i] = (unsigned)p5 << 16 | r5.y;
  }
}

static bool same(float x, float y) { return std::memcmp(&x, &y, 4) == 0 || (x != x && y != y); }

int main() {
  std::vector<float> in;
  for (int b = 0; b < 256; b++) {  // every FP8 value of both formats, and the midpoints above them
    __nv_fp8_e4m3 a;
    __nv_fp8_e5m2 c;
    a.__x = (__nv_fp8_storage_t)b, c.__x = (__nv_fp8_storage_t)b;
    __nv_fp8_e4m3 an;
    __nv_fp8_e5m2 cn;
    an.__x = (__nv_fp8_storage_t)(b + 1), cn.__x = (__nv_fp8_storage_t)(b + 1);
    in.push_back((float)a), in.push_back((float)c);
    if ((b & 0x7f) < 0x7e) in.push_back(((float)a + (float)an) / 2), in.push_back(((float)c + (float)cn) / 2);
  }
  const float more[] = {1e-30f, -1e-30f, 460.f, 470.f, 500.f, -1e5f, 57344.f, 60000.f, 61440.f, 1e10f,
                        INFINITY, -INFINITY, NAN, 0.f, -0.f, 1.0625f, 1.1875f, 3e-3f, 0.0009765625f};
  in.insert(in.end(), more, more + sizeof more / sizeof *more);
  const int n = (int)in.size();
  float *din = dev_buf(n, in.data()), *db4 = dev_buf<float>(n), *db5 = dev_buf<float>(n);
  unsigned char *d4 = dev_buf<unsigned char>(n), *d5 = dev_buf<unsigned char>(n);
  unsigned *dp4 = dev_buf<unsigned>(n), *dp5 = dev_buf<unsigned>(n);
  convert<<<(n + 127) / 128, 128>>>(din, d4, d5, db4, db5, dp4, dp5, n);
  CK(cudaGetLastError());
  std::vector<unsigned char> e4(n), e5(n);
  std::vector<float> b4(n), b5(n);
  std::vector<unsigned> p4(n), p5(n);
  CK(cudaMemcpy(e4.data(), d4, n, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(e5.data(), d5, n, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(b4.data(), db4, n * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(b5.data(), db5, n * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(p4.data(), dp4, n * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(p5.data(), dp5, n * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    __nv_fp8_e4m3 a(in[i]);  // the header's host conversion: the reference
    __nv_fp8_e5m2 c(in[i]);
    bool ok = e4[i] == a.__x && e5[i] == c.__x && same(b4[i], (float)a) && same(b5[i], (float)c);
    if (i + 1 < n) {
      __half2_raw h = __half2(__float2half_rn(in[i]), __float2half_rn(in[i + 1]));
      __nv_fp8x2_storage_t q4 = __nv_cvt_halfraw2_to_fp8x2(h, __NV_SATFINITE, __NV_E4M3);
      __nv_fp8x2_storage_t q5 = __nv_cvt_halfraw2_to_fp8x2(h, __NV_SATFINITE, __NV_E5M2);
      __half2_raw r4 = __nv_cvt_fp8x2_to_halfraw2(q4, __NV_E4M3), r5 = __nv_cvt_fp8x2_to_halfraw2(q5, __NV_E5M2);
      ok &= p4[i] == ((unsigned)q4 << 16 | r4.x) && p5[i] == ((unsigned)q5 << 16 | r5.y);
    }
    if (!ok && bad++ < 5)
      std::printf("FAIL %.9g: e4m3 %02x e5m2 %02x back %g %g pairs %08x %08x; reference %02x %02x %g %g\n", in[i],
                  e4[i], e5[i], b4[i], b5[i], p4[i], p5[i], a.__x, c.__x, (float)a, (float)c);
  }
  if (bad) {
    std::printf("FAIL fp8: %d of %d inputs differ from cuda_fp8.h's host conversion\n", bad, n);
    return 1;
  }
  std::printf("PASS fp8: %d inputs convert as cuda_fp8.h's host code does\n", n);
  return 0;
}
