// emu_tex.cu — kernels of tests/unit/test_emu_tex.c (texture and surface
// objects).  emu_tex.ptx: nvcc -arch=sm_80 -ptx emu_tex.cu -o emu_tex.ptx
// Thread t samples at the t-th coordinates of the input and writes what
// the fetch returned.
extern "C" __global__ void t1(cudaTextureObject_t tex, const float *c, float4 *o) {
  o[threadIdx.x] = tex1D<float4>(tex, c[threadIdx.x]);
}
extern "C" __global__ void t2(cudaTextureObject_t tex, const float2 *c, float4 *o) {
  float2 p = c[threadIdx.x];
  o[threadIdx.x] = tex2D<float4>(tex, p.x, p.y);
}
extern "C" __global__ void t3(cudaTextureObject_t tex, const float4 *c, float4 *o) {
  float4 p = c[threadIdx.x];
  o[threadIdx.x] = tex3D<float4>(tex, p.x, p.y, p.z);
}
extern "C" __global__ void t1l(cudaTextureObject_t tex, const float4 *c, float4 *o) {
  float4 p = c[threadIdx.x];
  o[threadIdx.x] = tex1DLayered<float4>(tex, p.x, (int)p.w);
}
extern "C" __global__ void t2l(cudaTextureObject_t tex, const float4 *c, float4 *o) {
  float4 p = c[threadIdx.x];
  o[threadIdx.x] = tex2DLayered<float4>(tex, p.x, p.y, (int)p.w);
}
extern "C" __global__ void tcube(cudaTextureObject_t tex, const float4 *c, float4 *o) {
  float4 p = c[threadIdx.x];
  o[threadIdx.x] = texCubemap<float4>(tex, p.x, p.y, p.z);
}
extern "C" __global__ void tfetch(cudaTextureObject_t tex, const int *i, float4 *o) {
  o[threadIdx.x] = tex1Dfetch<float4>(tex, i[threadIdx.x]);
}
extern "C" __global__ void tgather(cudaTextureObject_t tex, const float2 *c, float4 *o) {
  float2 p = c[threadIdx.x];
  o[threadIdx.x] = tex2Dgather<float4>(tex, p.x, p.y, 1);
}
extern "C" __global__ void t2u(cudaTextureObject_t tex, const float2 *c, uint4 *o) {
  float2 p = c[threadIdx.x];
  o[threadIdx.x] = tex2D<uint4>(tex, p.x, p.y);
}
extern "C" __global__ void tq(cudaTextureObject_t tex, int *o) {
  int w, h;
  asm("txq.width.b32 %0, [%1];" : "=r"(w) : "l"(tex));
  asm("txq.height.b32 %0, [%1];" : "=r"(h) : "l"(tex));
  o[0] = w;
  o[1] = h;
}
// Surfaces: each thread reads element (x, y) of a 2D float surface with
// the given boundary mode, writes 2 * value + 1 back with .zero.
extern "C" __global__ void s2(cudaSurfaceObject_t s, const int2 *xy, float *o, int mode) {
  int2 p = xy[threadIdx.x];
  float v;
  if (mode == 0) surf2Dread(&v, s, p.x * 4, p.y, cudaBoundaryModeTrap);
  else if (mode == 1) surf2Dread(&v, s, p.x * 4, p.y, cudaBoundaryModeClamp);
  else surf2Dread(&v, s, p.x * 4, p.y, cudaBoundaryModeZero);
  o[threadIdx.x] = v;
  surf2Dwrite(2 * v + 1, s, p.x * 4, p.y, cudaBoundaryModeZero);
}
// uchar4 surface, 3D: copy layer z of one to the other
extern "C" __global__ void s3(cudaSurfaceObject_t in, cudaSurfaceObject_t out) {
  uchar4 c;
  surf3Dread(&c, in, threadIdx.x * 4, threadIdx.y, blockIdx.x);
  c.x = 255 - c.x;
  surf3Dwrite(c, out, threadIdx.x * 4, threadIdx.y, blockIdx.x);
}
