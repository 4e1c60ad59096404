// emu_mma.cu — kernels of tests/unit/test_emu_mma.c (the matrix
// instructions).  emu_mma.ptx is generated from it with
//   nvcc -arch=sm_80 -ptx emu_mma.cu -o emu_mma.ptx
// Each mma kernel reads every lane's fragment registers from a buffer laid
// out [lane][register], runs one instruction and writes the destination
// registers the same way; the test builds the registers from matrices with
// the PTX ISA's fragment layouts and checks the result element by element.
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;

#define LOAD(dst, src, n) for (int i_ = 0; i_ < (n); i_++) dst[i_] = src[threadIdx.x * (n) + i_]
#define STORE(dst, src, n) for (int i_ = 0; i_ < (n); i_++) dst[threadIdx.x * (n) + i_] = src[i_]

extern "C" __global__ void mma_f16_f32_k16(const unsigned *a, const unsigned *b, const float *c, float *d) {
  unsigned A[4], B[2];
  float C[4], D[4];
  LOAD(A, a, 4); LOAD(B, b, 2); LOAD(C, c, 4);
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
               : "=f"(D[0]), "=f"(D[1]), "=f"(D[2]), "=f"(D[3])
               : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]),
                 "f"(C[0]), "f"(C[1]), "f"(C[2]), "f"(C[3]));
  STORE(d, D, 4);
}

extern "C" __global__ void mma_f16_f16_k16(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *d) {
  unsigned A[4], B[2], C[2], D[2];
  LOAD(A, a, 4); LOAD(B, b, 2); LOAD(C, c, 2);
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
               : "=r"(D[0]), "=r"(D[1])
               : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]), "r"(C[0]), "r"(C[1]));
  STORE(d, D, 2);
}

extern "C" __global__ void mma_f16_f32_k8(const unsigned *a, const unsigned *b, const float *c, float *d) {
  unsigned A[2], B[1];
  float C[4], D[4];
  LOAD(A, a, 2); LOAD(B, b, 1); LOAD(C, c, 4);
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
               : "=f"(D[0]), "=f"(D[1]), "=f"(D[2]), "=f"(D[3])
               : "r"(A[0]), "r"(A[1]), "r"(B[0]), "f"(C[0]), "f"(C[1]), "f"(C[2]), "f"(C[3]));
  STORE(d, D, 4);
}

extern "C" __global__ void mma_bf16_k16(const unsigned *a, const unsigned *b, const float *c, float *d) {
  unsigned A[4], B[2];
  float C[4], D[4];
  LOAD(A, a, 4); LOAD(B, b, 2); LOAD(C, c, 4);
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
               : "=f"(D[0]), "=f"(D[1]), "=f"(D[2]), "=f"(D[3])
               : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]),
                 "f"(C[0]), "f"(C[1]), "f"(C[2]), "f"(C[3]));
  STORE(d, D, 4);
}

extern "C" __global__ void mma_tf32_k8(const unsigned *a, const unsigned *b, const float *c, float *d) {
  unsigned A[4], B[2];
  float C[4], D[4];
  LOAD(A, a, 4); LOAD(B, b, 2); LOAD(C, c, 4);
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
               : "=f"(D[0]), "=f"(D[1]), "=f"(D[2]), "=f"(D[3])
               : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]),
                 "f"(C[0]), "f"(C[1]), "f"(C[2]), "f"(C[3]));
  STORE(d, D, 4);
}

extern "C" __global__ void mma_tf32_k4(const unsigned *a, const unsigned *b, const float *c, float *d) {
  unsigned A[2], B[1];
  float C[4], D[4];
  LOAD(A, a, 2); LOAD(B, b, 1); LOAD(C, c, 4);
  asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
               : "=f"(D[0]), "=f"(D[1]), "=f"(D[2]), "=f"(D[3])
               : "r"(A[0]), "r"(A[1]), "r"(B[0]), "f"(C[0]), "f"(C[1]), "f"(C[2]), "f"(C[3]));
  STORE(d, D, 4);
}

extern "C" __global__ void mma_f64(const double *a, const double *b, const double *c, double *d) {
  double A[1], B[1], C[2], D[2];
  LOAD(A, a, 1); LOAD(B, b, 1); LOAD(C, c, 2);
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
               : "=d"(D[0]), "=d"(D[1]) : "d"(A[0]), "d"(B[0]), "d"(C[0]), "d"(C[1]));
  STORE(d, D, 2);
}

extern "C" __global__ void mma_s8_k32(const unsigned *a, const unsigned *b, const int *c, int *d, int *ds) {
  unsigned A[4], B[2];
  int C[4], D[4], S[4];
  LOAD(A, a, 4); LOAD(B, b, 2); LOAD(C, c, 4);
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
               : "=r"(D[0]), "=r"(D[1]), "=r"(D[2]), "=r"(D[3])
               : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]),
                 "r"(C[0]), "r"(C[1]), "r"(C[2]), "r"(C[3]));
  asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
               : "=r"(S[0]), "=r"(S[1]), "=r"(S[2]), "=r"(S[3])
               : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]),
                 "r"(C[0]), "r"(C[1]), "r"(C[2]), "r"(C[3]));
  STORE(d, D, 4);
  STORE(ds, S, 4);
}

extern "C" __global__ void mma_u8s8_k16(const unsigned *a, const unsigned *b, const int *c, int *d) {
  unsigned A[2], B[1];
  int C[4], D[4];
  LOAD(A, a, 2); LOAD(B, b, 1); LOAD(C, c, 4);
  asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.u8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
               : "=r"(D[0]), "=r"(D[1]), "=r"(D[2]), "=r"(D[3])
               : "r"(A[0]), "r"(A[1]), "r"(B[0]), "r"(C[0]), "r"(C[1]), "r"(C[2]), "r"(C[3]));
  STORE(d, D, 4);
}

extern "C" __global__ void mma_s8_m8n8k16(const unsigned *a, const unsigned *b, const int *c, int *d) {
  unsigned A[1], B[1];
  int C[2], D[2];
  LOAD(A, a, 1); LOAD(B, b, 1); LOAD(C, c, 2);
  asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%0,%1}, {%2}, {%3}, {%4,%5};"
               : "=r"(D[0]), "=r"(D[1]) : "r"(A[0]), "r"(B[0]), "r"(C[0]), "r"(C[1]));
  STORE(d, D, 2);
}

// ldmatrix / stmatrix / movmatrix on a 32 x 8 (x4: four 8x8 matrices) tile
// of 16-bit values in shared memory; lane l supplies the address of row l.
extern "C" __global__ void ldmatrix_x4(const unsigned short *in, unsigned *out, unsigned *outt, int x1) {
  __shared__ unsigned short s[32 * 8];
  for (int i = threadIdx.x; i < 256; i += 32) s[i] = in[i];
  __syncthreads();
  unsigned addr = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x * 8]);
  unsigned r[4], t[4];
  if (x1) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(addr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(t[0]) : "r"(addr));
    r[1] = r[2] = r[3] = t[1] = t[2] = t[3] = 0;
  } else {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(t[0]), "=r"(t[1]), "=r"(t[2]), "=r"(t[3]) : "r"(addr));
  }
  STORE(out, r, 4);
  STORE(outt, t, 4);
}

extern "C" __global__ void stmatrix_x4(const unsigned *regs, unsigned short *out, unsigned short *outt) {
  __shared__ unsigned short s[32 * 8], st[32 * 8];
  unsigned r[4];
  LOAD(r, regs, 4);
  unsigned addr = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x * 8]);
  unsigned addrt = (unsigned)__cvta_generic_to_shared(&st[threadIdx.x * 8]);
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(addr), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]));
  asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(addrt), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]));
  __syncwarp();
  for (int i = threadIdx.x; i < 256; i += 32) { out[i] = s[i]; outt[i] = st[i]; }
}

extern "C" __global__ void movmatrix_t(const unsigned *in, unsigned *out) {
  unsigned a = in[threadIdx.x], d;
  asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(d) : "r"(a));
  out[threadIdx.x] = d;
}

// wmma: load A, B, C from global memory, one mma, store D.
extern "C" __global__ void wmma_f16_rc(const half *a, const half *b, const float *c, float *d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

extern "C" __global__ void wmma_f16h_32x8(const half *a, const half *b, const half *c, half *d) {
  wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::col_major> fa;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 32, 8, 16, half> fc;
  wmma::load_matrix_sync(fa, a, 32);
  wmma::load_matrix_sync(fb, b, 8);
  wmma::load_matrix_sync(fc, c, 32, wmma::mem_col_major);
  wmma::mma_sync(fc, fa, fb, fc);
  for (int i = 0; i < fc.num_elements; i++) fc.x[i] = __hmul(fc.x[i], __float2half(2.0f));
  wmma::store_matrix_sync(d, fc, 32, wmma::mem_col_major);
}

extern "C" __global__ void wmma_tf32(const float *a, const float *b, float *d, int convert) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 8);
  wmma::load_matrix_sync(fb, b, 16);
  if (convert) {
    for (int i = 0; i < fa.num_elements; i++) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    for (int i = 0; i < fb.num_elements; i++) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
  }
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

extern "C" __global__ void wmma_bf16_8x32(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *d) {
  wmma::fragment<wmma::matrix_a, 8, 32, 16, __nv_bfloat16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 32, 16, __nv_bfloat16, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 32, 16, float> fc;
  wmma::fill_fragment(fc, 1.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 8, wmma::mem_col_major);
}

extern "C" __global__ void wmma_s8(const signed char *a, const signed char *b, const int *c, int *d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc, true);
  wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

extern "C" __global__ void wmma_f64(const double *a, const double *b, double *d) {
  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
  wmma::fill_fragment(fc, 0.5);
  wmma::load_matrix_sync(fa, a, 4);
  wmma::load_matrix_sync(fb, b, 4);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
}
