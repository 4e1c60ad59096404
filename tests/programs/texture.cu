// Texture objects over CUDA arrays, against a C reference of the CUDA C++
// Programming Guide's "Texture Fetching" arithmetic:
//  - a 2D float array (cudaMallocArray + cudaMemcpy2DToArray) sampled with
//    linear filtering, normalised coordinates and clamp addressing;
//  - the same array with point sampling and wrap addressing;
//  - a uchar4 array read as normalised floats, bilinear;
//  - a 3D array (cudaMalloc3DArray + cudaMemcpy3D), trilinear;
//  - a 2D layered array, and tex1Dfetch over linear memory;
//  - a surface: the kernel writes through surf2Dwrite, the host reads back
//    with cudaMemcpy2DFromArray.
// Texel values are small multiples of 1/4 and the weights multiples of 1/256,
// so every product and sum is exact in float: the reference's results are the
// exact ones, whatever order or precision a fetch uses.
#include "check.h"
#include <cstring>
#include <vector>

__global__ void sample2d(cudaTextureObject_t t, const float2 *c, float4 *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  o[i] = tex2D<float4>(t, c[i].x, c[i].y);
}
__global__ void sample3d(cudaTextureObject_t t, const float4 *c, float *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  o[i] = tex3D<float>(t, c[i].x, c[i].y, c[i].z);
}
__global__ void layered(cudaTextureObject_t t, const float4 *c, float *o) {
  int i = threadIdx.x;
  o[i] = tex2DLayered<float>(t, c[i].x, c[i].y, (int)c[i].w);
}
__global__ void fetch(cudaTextureObject_t t, float2 *o, int n) {
  int i = threadIdx.x;
  o[i] = tex1Dfetch<float2>(t, i - 4);  // 4 outside below, some above n: zeros
}
__global__ void surf(cudaSurfaceObject_t s, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) surf2Dwrite(float(x * 10 + y), s, x * (int)sizeof(float), y);
}

// ---- the C reference (the guide's formulas) ------------------------------------------
struct Tex {
  const std::vector<float> *v;  // texels, nch channels each, row-major (w x h x d)
  int w, h, d, nch;
  int mode;                     // cudaAddressModeClamp or Wrap (all dimensions)
  bool linear, norm;
};
static int addr(const Tex &t, long i, int n) {
  if (t.mode == cudaAddressModeWrap && t.norm) return (int)(((i % n) + n) % n);
  return i < 0 ? 0 : i >= n ? n - 1 : (int)i;
}
static double texel(const Tex &t, long x, long y, long z, int c) {
  if (c >= t.nch) return c == 3 ? 1 : 0;
  x = addr(t, x, t.w), y = addr(t, y, t.h), z = addr(t, z, t.d);
  return (*t.v)[((z * t.h + y) * t.w + x) * t.nch + c];
}
static double ref(const Tex &t, int dims, const double *in, int c) {
  double x[3] = {0, 0, 0};
  int n[3] = {t.w, t.h, t.d};
  for (int a = 0; a < dims; a++) {
    double u = in[a];
    if (t.norm && t.mode == cudaAddressModeWrap) u -= std::floor(u);
    x[a] = t.norm ? u * n[a] : u;
  }
  if (!t.linear) return texel(t, (long)std::floor(x[0]), (long)std::floor(x[1]), (long)std::floor(x[2]), c);
  long i0[3];
  double al[3];
  for (int a = 0; a < 3; a++) {
    double b = x[a] - 0.5;
    i0[a] = (long)std::floor(b);
    al[a] = std::round((b - std::floor(b)) * 256) / 256;  // 9-bit fixed point, 8 fractional bits
  }
  double s = 0;
  for (int q = 0; q < (1 << dims); q++) {
    double wgt = 1;
    long ix[3] = {i0[0], i0[1], i0[2]};
    for (int a = 0; a < dims; a++) {
      int up = (q >> a) & 1;
      ix[a] += up;
      wgt *= up ? al[a] : 1 - al[a];
    }
    s += wgt * texel(t, ix[0], dims > 1 ? ix[1] : 0, dims > 2 ? ix[2] : 0, c);
  }
  return s;
}

static bool same(const char *what, const float *got, const double *want, int n) {
  for (int i = 0; i < n; i++)
    if (got[i] != (float)want[i]) {
      std::printf("FAIL %s[%d] = %.9g, reference %.9g\n", what, i, got[i], want[i]);
      return false;
    }
  std::printf("PASS %s (%d values equal the C reference)\n", what, n);
  return true;
}

int main() {
  bool ok = true;
  // --- 2D float2 array, 13 x 9 ---
  const int W = 13, H = 9, N = 256;
  std::vector<float> tex(W * H * 2);
  for (int i = 0; i < W * H * 2; i++) tex[i] = (float)((i * 37) % 41) * 0.25f;
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float2>();
  cudaArray_t arr;
  CK(cudaMallocArray(&arr, &cd, W, H));
  CK(cudaMemcpy2DToArray(arr, 0, 0, tex.data(), W * sizeof(float2), W * sizeof(float2), H, cudaMemcpyHostToDevice));
  std::vector<float2> coords(N);
  for (int i = 0; i < N; i++)  // normalised, some outside [0, 1)
    coords[i] = make_float2((float)((i * 7) % 97) / 64.0f - 0.2f, (float)((i * 13) % 89) / 64.0f - 0.2f);
  float2 *dc = dev_buf(N, coords.data());
  float4 *dout = dev_buf<float4>(N);
  for (int pass = 0; pass < 2; pass++) {  // 0: linear, clamp; 1: point, wrap
    cudaResourceDesc rd;
    std::memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    cudaTextureDesc td;
    std::memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = pass ? cudaAddressModeWrap : cudaAddressModeClamp;
    td.filterMode = pass ? cudaFilterModePoint : cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 1;
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    sample2d<<<N / 64, 64>>>(t, dc, dout);
    CK(cudaGetLastError());
    std::vector<float4> got(N);
    CK(cudaMemcpy(got.data(), dout, N * sizeof(float4), cudaMemcpyDeviceToHost));
    Tex rt = {&tex, W, H, 1, 2, pass ? cudaAddressModeWrap : cudaAddressModeClamp, pass == 0, true};
    std::vector<double> want(N * 4);
    for (int i = 0; i < N; i++) {
      double c[2] = {coords[i].x, coords[i].y};
      for (int ch = 0; ch < 4; ch++) want[i * 4 + ch] = ref(rt, 2, c, ch);
    }
    ok &= same(pass ? "tex2D point wrap" : "tex2D linear clamp normalised", &got[0].x, want.data(), N * 4);
    cudaTextureDesc back;
    CK(cudaGetTextureObjectTextureDesc(&back, t));
    ok &= back.filterMode == td.filterMode && back.normalizedCoords == 1;
    CK(cudaDestroyTextureObject(t));
  }
  // --- uchar4, normalised float reads, bilinear ---
  {
    const int w = 6, h = 5;
    std::vector<unsigned char> px(w * h * 4);
    for (int i = 0; i < w * h * 4; i++) px[i] = (unsigned char)((i * 53) % 256);
    cudaChannelFormatDesc c4 = cudaCreateChannelDesc<uchar4>();
    cudaArray_t a4;
    CK(cudaMallocArray(&a4, &c4, w, h));
    CK(cudaMemcpy2DToArray(a4, 0, 0, px.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a4;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeNormalizedFloat;
    td.normalizedCoords = 1;
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    sample2d<<<N / 64, 64>>>(t, dc, dout);
    std::vector<float4> got(N);
    CK(cudaMemcpy(got.data(), dout, N * sizeof(float4), cudaMemcpyDeviceToHost));
    std::vector<float> vals(px.size());
    for (size_t i = 0; i < px.size(); i++) vals[i] = (float)px[i];  // scaled by 1/255 below
    Tex rt = {&vals, w, h, 1, 4, cudaAddressModeClamp, true, true};
    bool good = true;
    for (int i = 0; i < N && good; i++) {
      double c[2] = {coords[i].x, coords[i].y};
      for (int ch = 0; ch < 4; ch++) {
        double want = ref(rt, 2, c, ch) / 255.0;  // weights times v/255
        if (std::fabs(got[i].x * (ch == 0) + got[i].y * (ch == 1) + got[i].z * (ch == 2) + got[i].w * (ch == 3) -
                      want) > 1e-6) {
          std::printf("FAIL uchar4 normalised [%d].%d, reference %.9g\n", i, ch, want);
          good = false;
        }
      }
    }
    if (good) std::printf("PASS uchar4 read as normalised floats, bilinear (%d texels)\n", N);
    ok &= good;
    CK(cudaDestroyTextureObject(t));
    CK(cudaFreeArray(a4));
  }
  // --- 3D float 5 x 4 x 3, trilinear, unnormalised, clamp ---
  {
    const int w = 5, h = 4, d = 3, n = 64;
    std::vector<float> vol(w * h * d);
    for (int i = 0; i < w * h * d; i++) vol[i] = (float)((i * 11) % 23) * 0.5f;
    cudaChannelFormatDesc c1 = cudaCreateChannelDesc<float>();
    cudaArray_t a3;
    CK(cudaMalloc3DArray(&a3, &c1, make_cudaExtent(w, h, d)));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(vol.data(), w * sizeof(float), w, h);
    p.dstArray = a3;
    p.extent = make_cudaExtent(w, h, d);
    p.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&p));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a3;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    std::vector<float4> c3(n);
    for (int i = 0; i < n; i++)
      c3[i] = make_float4((float)((i * 5) % 27) / 4 - 0.5f, (float)((i * 3) % 19) / 4, (float)(i % 15) / 4, 0);
    float4 *dc3 = dev_buf(n, c3.data());
    float *o3 = dev_buf<float>(n);
    sample3d<<<1, n>>>(t, dc3, o3);
    std::vector<float> got(n);
    std::vector<double> want(n);
    CK(cudaMemcpy(got.data(), o3, n * sizeof(float), cudaMemcpyDeviceToHost));
    Tex rt = {&vol, w, h, d, 1, cudaAddressModeClamp, true, false};
    for (int i = 0; i < n; i++) {
      double c[3] = {c3[i].x, c3[i].y, c3[i].z};
      want[i] = ref(rt, 3, c, 0);
    }
    ok &= same("tex3D trilinear clamp", got.data(), want.data(), n);
    // the volume back through cudaMemcpy3D from the array
    std::vector<float> back(w * h * d);
    cudaMemcpy3DParms q = {};
    q.srcArray = a3;
    q.dstPtr = make_cudaPitchedPtr(back.data(), w * sizeof(float), w, h);
    q.extent = make_cudaExtent(w, h, d);
    q.kind = cudaMemcpyDeviceToHost;
    CK(cudaMemcpy3D(&q));
    bool rb = back == vol;
    std::printf("%s cudaMemcpy3D from a 3D array returns what was copied in\n", rb ? "PASS" : "FAIL");
    ok &= rb;
    CK(cudaDestroyTextureObject(t));
  }
  // --- 2D layered (3 layers of 4 x 3), point; tex1Dfetch over linear memory ---
  {
    const int w = 4, h = 3, L = 3;
    std::vector<float> lay(w * h * L);
    for (int i = 0; i < w * h * L; i++) lay[i] = (float)i;
    cudaChannelFormatDesc c1 = cudaCreateChannelDesc<float>();
    cudaArray_t al;
    CK(cudaMalloc3DArray(&al, &c1, make_cudaExtent(w, h, L), cudaArrayLayered));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(lay.data(), w * sizeof(float), w, h);
    p.dstArray = al;
    p.extent = make_cudaExtent(w, h, L);
    p.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&p));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = al;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    std::vector<float4> cl(32);
    for (int i = 0; i < 32; i++) cl[i] = make_float4((float)(i % 6) - 0.5f, (float)(i % 4), 0, (float)(i % L));
    float4 *dcl = dev_buf(32, cl.data());
    float *ol = dev_buf<float>(32);
    layered<<<1, 32>>>(t, dcl, ol);
    std::vector<float> got(32);
    std::vector<double> want(32);
    CK(cudaMemcpy(got.data(), ol, 32 * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++) {
      int x = (int)std::floor(cl[i].x), y = (int)cl[i].y, l = (int)cl[i].w;
      x = x < 0 ? 0 : x >= w ? w - 1 : x;
      y = y >= h ? h - 1 : y;
      want[i] = lay[(l * h + y) * w + x];
    }
    ok &= same("tex2DLayered point clamp", got.data(), want.data(), 32);
    // linear memory of float2: tex1Dfetch, zero outside
    const int n = 20;
    std::vector<float> lin(n * 2);
    for (int i = 0; i < n * 2; i++) lin[i] = (float)(i * 3) * 0.25f;
    float *dl = dev_buf(n * 2, lin.data());
    float2 *of = dev_buf<float2>(32);
    cudaResourceDesc rl = {};
    rl.resType = cudaResourceTypeLinear;
    rl.res.linear.devPtr = dl;
    rl.res.linear.desc = cudaCreateChannelDesc<float2>();
    rl.res.linear.sizeInBytes = n * sizeof(float2);
    cudaTextureDesc tl = {};
    cudaTextureObject_t tf;
    CK(cudaCreateTextureObject(&tf, &rl, &tl, nullptr));
    fetch<<<1, 32>>>(tf, of, n);
    std::vector<float> gf(64);
    std::vector<double> wf(64);
    CK(cudaMemcpy(gf.data(), of, 32 * sizeof(float2), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++)
      for (int c = 0; c < 2; c++) wf[i * 2 + c] = i - 4 >= 0 && i - 4 < n ? lin[(i - 4) * 2 + c] : 0.0;
    ok &= same("tex1Dfetch over linear memory", gf.data(), wf.data(), 64);
  }
  // --- a surface written by a kernel, read back from the array ---
  {
    const int w = 24, h = 7;
    cudaChannelFormatDesc c1 = cudaCreateChannelDesc<float>();
    cudaArray_t as;
    CK(cudaMallocArray(&as, &c1, w, h, cudaArraySurfaceLoadStore));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = as;
    cudaSurfaceObject_t s;
    CK(cudaCreateSurfaceObject(&s, &rd));
    surf<<<h, 32>>>(s, w, h);
    CK(cudaGetLastError());
    std::vector<float> got(w * h);
    std::vector<double> want(w * h);
    CK(cudaMemcpy2DFromArray(got.data(), w * sizeof(float), as, 0, 0, w * sizeof(float), h, cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) want[y * w + x] = x * 10 + y;
    ok &= same("surf2Dwrite then cudaMemcpy2DFromArray", got.data(), want.data(), w * h);
    CK(cudaDestroySurfaceObject(s));
    CK(cudaFreeArray(as));
  }
  CK(cudaFreeArray(arr));
  std::printf("%s texture objects and surfaces\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
