// suite_pairs.cu — the kernels of tests/model-pairs/pairs.cu (copies,
// stencils, SpMV, transposes, histograms, reductions, atomics, products,
// SFU, FP64, divergence) over sizes and block shapes, each with its C
// reference.  pairs.cu is compiled into its own object (bench/gpu/run.sh);
// this file only declares its kernels.
//
// Left out: pairs.cu's matmul_tiled, whose name is also the name of
// examples/kernels/matmul_tiled.cu's kernel (suite_validation.cu):
// `warpsight validate` groups its tables by kernel name and would mix the two.
// matMul_gpu_sharedmem with 16 x 16 tiles is the same algorithm.
//
// Arguments follow tests/cli/model_pairs.sh (random inputs in [0, 1), seeds
// per buffer, outputs zero).
#include "harness.h"

#include <cmath>
#include <vector>

using namespace gb;

extern "C" {
__global__ void copy_coalesced(const float *in, float *out, int n);
__global__ void copy_uncoalesced(const float *in, float *out, int n);
__global__ void vector_add(const float *a, const float *b, float *c, int n);
__global__ void saxpy(float a, const float *x, float *y, int n);
__global__ void gather(const float *in, const int *idx, float *out, int n);
__global__ void stencil_1d(const float *in, float *out, int n);
__global__ void stencil_2d(const float *in, float *out, int w, int h);
__global__ void spmv_scalar(const int *rowptr, const int *col, const float *val, const float *x,
                            float *y, int rows);
__global__ void spmv_vector(const int *rowptr, const int *col, const float *val, const float *x,
                            float *y, int rows);
__global__ void transpose_naive(const float *in, float *out, int n);
__global__ void transpose_tiled(const float *in, float *out, int n);
__global__ void transpose_padded(const float *in, float *out, int n);
__global__ void histogram(const unsigned *in, unsigned *bins, int n);
__global__ void reduce_tree(const float *in, float *out, int n);
__global__ void reduce_shuffle(const float *in, float *out, int n);
__global__ void atomic_per_block(const float *in, float *sum, int n);
__global__ void atomic_per_element(const float *in, float *sum, int n);
__global__ void matmul_naive(const float *a, const float *b, float *c, int n);
__global__ void sfu_heavy(const float *in, float *out, int n);
__global__ void fp64_poly(const double *in, double *out, int n);
__global__ void divergent(const float *in, float *out, int n);
}

typedef std::vector<long long> Sizes;
typedef std::vector<dim3> Blocks;
static unsigned cdiv(long long a, long long b) { return (unsigned)((a + b - 1) / b); }

// ---- references (one element per output; float kernels in double) ----

// out = f(i) for every element of argument `o`, compared with tolerance tol.
template <class F> static bool each(const Result &r, size_t o, double tol, std::string *why, F f) {
  size_t n = r.count(o);
  std::vector<double> want(n);
  for (size_t i = 0; i < n; i++)
    want[i] = f(i);
  return close_to(r.launch->args[o].name.c_str(), r.out<float>(o), want.data(), n, tol, why);
}

static bool check_copy(const Result &r, std::string *why) {
  const float *in = r.in<float>(0);
  return each(r, 1, 0, why, [&](size_t i) { return (double)in[i]; });
}
static bool check_copy_unc(const Result &r, std::string *why) {
  const float *in = r.in<float>(0);
  size_t stride = (size_t)r.ival(2) / 32;
  return each(r, 1, 0, why, [&](size_t i) { return (double)in[(i % 32) * stride + i / 32]; });
}
static bool check_vector_add(const Result &r, std::string *why) {
  const float *a = r.in<float>(0), *b = r.in<float>(1);
  return each(r, 2, 1e-6, why, [&](size_t i) { return (double)a[i] + b[i]; });
}
static bool check_saxpy(const Result &r, std::string *why) {
  double a = r.launch->args[0].value;
  const float *x = r.in<float>(1), *y = r.in<float>(2);
  return each(r, 2, 1e-6, why, [&](size_t i) { return a * x[i] + y[i]; });
}
static bool check_gather(const Result &r, std::string *why) {
  const float *in = r.in<float>(0);
  const int *idx = r.in<int>(1);
  return each(r, 2, 0, why, [&](size_t i) { return (double)in[idx[i]]; });
}
static bool check_stencil_1d(const Result &r, std::string *why) {
  const float *x = r.in<float>(0);
  size_t n = r.count(0);
  return each(r, 1, 1e-5, why, [&](size_t i) {
    if (i < 2 || i + 2 >= n) return 0.0;
    return (double)0.1f * x[i - 2] + (double)0.2f * x[i - 1] + (double)0.4f * x[i] +
           (double)0.2f * x[i + 1] + (double)0.1f * x[i + 2];
  });
}
static bool check_stencil_2d(const Result &r, std::string *why) {
  const float *x = r.in<float>(0);
  size_t w = (size_t)r.ival(2), h = (size_t)r.ival(3);
  return each(r, 1, 1e-5, why, [&](size_t i) {
    size_t px = i % w, py = i / w;
    if (px < 1 || px + 1 >= w || py < 1 || py + 1 >= h) return 0.0;
    return 0.25 * ((double)x[i - 1] + x[i + 1] + x[i - w] + x[i + w]) - x[i];
  });
}
static bool check_spmv(const Result &r, std::string *why) {
  const int *rowptr = r.in<int>(0), *col = r.in<int>(1);
  const float *val = r.in<float>(2), *x = r.in<float>(3);
  return each(r, 4, 1e-5, why, [&](size_t row) {
    double s = 0;
    for (int j = rowptr[row]; j < rowptr[row + 1]; j++)
      s += (double)val[j] * x[col[j]];
    return s;
  });
}
static bool check_transpose(const Result &r, std::string *why) {
  const float *in = r.in<float>(0);
  size_t n = (size_t)r.ival(2);
  return each(r, 1, 0, why, [&](size_t i) { return (double)in[(i % n) * n + i / n]; });
}
static bool check_histogram(const Result &r, std::string *why) {
  const unsigned *in = r.in<unsigned>(0);
  std::vector<unsigned> want(256, 0);
  for (size_t i = 0; i < (size_t)r.ival(2); i++)
    want[in[i] & 255u]++;
  return equal("bins", r.out<unsigned>(1), want.data(), 256, why);
}
// out[b] = the sum of block b's elements (reduce_tree, reduce_shuffle).
static bool check_block_sums(const Result &r, std::string *why) {
  const float *in = r.in<float>(0);
  size_t n = (size_t)r.ival(2), bs = r.launch->block.x;
  return each(r, 1, 1e-5, why, [&](size_t b) {
    double s = 0;
    for (size_t i = b * bs; i < (b + 1) * bs && i < n; i++)
      s += in[i];
    return s;
  });
}
// One float sum accumulated by atomics in any order: rounding differs run
// to run, hence the tolerance.
static bool check_total(const Result &r, std::string *why) {
  const float *in = r.in<float>(0);
  double s = 0;
  for (size_t i = 0; i < (size_t)r.ival(2); i++)
    s += in[i];
  return close_to("sum", r.out<float>(1), &s, 1, 1e-3, why);
}
static bool check_matmul(const Result &r, std::string *why) {
  std::vector<double> want = matmul_ref(r.in<float>(0), r.in<float>(1), r.ival(3));
  return close_to("c", r.out<float>(2), want.data(), want.size(), 1e-4, why);
}
static bool check_sfu(const Result &r, std::string *why) {
  const float *in = r.in<float>(0);
  return each(r, 1, 1e-4, why, [&](size_t i) {
    double v = in[i];
    for (int k = 0; k < 16; k++)
      v = std::sin(v) + std::exp(-v);
    return v;
  });
}
static bool check_fp64(const Result &r, std::string *why) {
  const double *in = r.in<double>(0);
  size_t n = r.count(1);
  std::vector<double> want(n);
  for (size_t i = 0; i < n; i++) {
    double s = 0;
    for (int k = 0; k < 16; k++)
      s = s * in[i] + 1.0 / (k + 1);
    want[i] = s;
  }
  return close_to("out", r.out<double>(1), want.data(), n, 1e-12, why);
}
static bool check_divergent(const Result &r, std::string *why) {
  const float *in = r.in<float>(0);
  unsigned bs = r.launch->block.x;
  return each(r, 1, 1e-5, why, [&](size_t i) {
    double v = in[i];
    if ((i % bs) % 2)
      for (int k = 0; k < 32; k++)
        v = v * (double)1.0001f + 0.5;
    return v;
  });
}

// ---- launches ----

struct Ctx {
  std::vector<Launch> *v;
  Level l;
};

static Launch base(const char *kernel, const void *func, dim3 grid, dim3 block, long long size,
                   const char *size_name) {
  Launch L;
  L.kernel = kernel, L.func = func, L.src = "pairs", L.grid = grid, L.block = block;
  L.size = size, L.label = label(size_name, size, block);
  return L;
}
static Arg f32(const char *name, long long n, uint64_t seed) {
  return buf(name, F32, n, rnd(seed, 0, 1));
}
static Arg outf(const char *name, long long n) { return buf(name, F32, n, zero()); }

static Sizes vec_sizes(Level l) {
  return pick<Sizes>(l, {2048}, {1 << 16, 1 << 20, 1 << 24},
                     {1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20, 1 << 22, 1 << 24, 1 << 26});
}
static Blocks vec_blocks(Level l, unsigned max = 1024) {
  Blocks all = pick<Blocks>(l, {dim3(64), dim3(256)}, {dim3(128), dim3(256), dim3(1024)},
                            {dim3(64), dim3(128), dim3(256), dim3(512), dim3(1024)});
  Blocks v;
  for (dim3 b : all)
    if (b.x <= max) v.push_back(b);
  if (max < 1024 && (v.empty() || v.back().x != max)) v.push_back(dim3(max));
  return v;
}

// A 1-D kernel over n elements: args(n) gives its arguments.
template <class A>
static void linear(Ctx c, const char *kernel, const void *func, CheckFn check, A args,
                   unsigned max_block = 1024, double ops_per_elem = 1) {
  for (long long n : vec_sizes(c.l))
    for (dim3 b : vec_blocks(c.l, max_block)) {
      Launch L = base(kernel, func, dim3(cdiv(n, b.x)), b, n, "n");
      L.args = args(n, dim3(cdiv(n, b.x)));
      L.check = check, L.ref_ops = ops_per_elem * (double)n;
      c.v->push_back(L);
    }
}

static void spmv(Ctx c, const char *kernel, const void *func, bool vector) {
  const long long rlen = 64;
  Sizes rows = pick<Sizes>(c.l, {96}, {4096, 65536}, {1024, 4096, 16384, 65536, 262144});
  for (long long m : rows)
    for (dim3 b : vec_blocks(c.l)) {
      long long threads = vector ? m * 32 : m;
      Launch L = base(kernel, func, dim3(cdiv(threads, b.x)), b, m, "rows");
      L.args = {buf("rowptr", S32, m + 1, iota(0, (double)rlen)),
                buf("col", S32, m * rlen, rnd(3, 0, (double)(m - 1))),
                f32("val", m * rlen, 4),
                f32("x", m, 5),
                outf("y", m),
                scalar("rows", S32, (double)m)};
      L.check = check_spmv, L.ref_ops = (double)(m * rlen);
      c.v->push_back(L);
    }
}

// n x n matrices with 2-D blocks.
static void square(Ctx c, const char *kernel, const void *func, CheckFn check, Sizes ns, Blocks bs,
                   bool product, bool tiles32) {
  for (long long n : ns)
    for (dim3 b : bs) {
      dim3 g = tiles32 ? dim3(n / 32, n / 32) : dim3(cdiv(n, b.x), cdiv(n, b.y));
      Launch L = base(kernel, func, g, b, n, "n");
      if (product)
        L.args = {f32("a", n * n, 1), f32("b", n * n, 2), outf("c", n * n),
                  scalar("n", S32, (double)n)};
      else
        L.args = {f32("in", n * n, 1), outf("out", n * n), scalar("n", S32, (double)n)};
      L.check = check, L.ref_ops = product ? (double)n * n * n : (double)n * n;
      c.v->push_back(L);
    }
}

static void histograms(Ctx c) {
  Sizes ns = pick<Sizes>(c.l, {5000}, {1 << 20, 1 << 24},
                         {1 << 16, 1 << 18, 1 << 20, 1 << 22, 1 << 24, 1 << 26});
  std::vector<unsigned> grids = pick<std::vector<unsigned>>(c.l, {3}, {64, 1024}, {64, 256, 1024});
  for (long long n : ns)
    for (unsigned g : grids)
      for (int skewed = 0; skewed < 2; skewed++) {
        Launch L = base("histogram", (const void *)histogram, dim3(g), dim3(256), n, "n");
        L.label =
            "n" + std::to_string(n) + "-g" + std::to_string(g) + (skewed ? "-skewed" : "-uniform");
        L.args = {buf("in", U32, n, skewed ? constant(7) : rnd(8, 0, 255)),
                  buf("bins", U32, 256, zero()), scalar("n", S32, (double)n)};
        L.check = check_histogram, L.ref_ops = (double)n;
        c.v->push_back(L);
      }
}

static std::vector<Launch> make(Level l) {
  std::vector<Launch> v;
  Ctx c = {&v, l};
  auto in_out = [](long long n, dim3) {
    return std::vector<Arg>{f32("in", n, 1), outf("out", n), scalar("n", S32, (double)n)};
  };
  linear(c, "copy_coalesced", (const void *)copy_coalesced, check_copy, in_out);
  linear(c, "copy_uncoalesced", (const void *)copy_uncoalesced, check_copy_unc, in_out);
  linear(c, "vector_add", (const void *)vector_add, check_vector_add, [](long long n, dim3) {
    return std::vector<Arg>{f32("a", n, 1), f32("b", n, 2), outf("c", n),
                            scalar("n", S32, (double)n)};
  });
  linear(c, "saxpy", (const void *)saxpy, check_saxpy, [](long long n, dim3) {
    return std::vector<Arg>{scalar("a", F32, 2.5), f32("x", n, 1), f32("y", n, 2),
                            scalar("n", S32, (double)n)};
  });
  linear(c, "gather", (const void *)gather, check_gather, [](long long n, dim3) {
    return std::vector<Arg>{f32("in", n, 1), buf("idx", S32, n, rnd(7, 0, (double)(n - 1))),
                            outf("out", n), scalar("n", S32, (double)n)};
  });
  linear(c, "stencil_1d", (const void *)stencil_1d, check_stencil_1d, in_out);
  Blocks b2 =
      pick<Blocks>(l, {dim3(32, 8), dim3(16, 16)}, {dim3(32, 8), dim3(16, 16), dim3(32, 32)},
                   {dim3(32, 8), dim3(16, 16), dim3(64, 4), dim3(32, 32)});
  for (long long n : pick<Sizes>(l, {40}, {512, 2048, 8192}, {256, 512, 1024, 2048, 4096, 8192}))
    for (dim3 b : b2) {
      Launch L =
          base("stencil_2d", (const void *)stencil_2d, dim3(cdiv(n, b.x), cdiv(n, b.y)), b, n, "n");
      L.args = {f32("in", n * n, 1), outf("out", n * n), scalar("w", S32, (double)n),
                scalar("h", S32, (double)n)};
      L.check = check_stencil_2d, L.ref_ops = (double)n * n;
      v.push_back(L);
    }
  spmv(c, "spmv_scalar", (const void *)spmv_scalar, false);
  spmv(c, "spmv_vector", (const void *)spmv_vector, true);
  Sizes tn = pick<Sizes>(l, {64}, {1024, 4096}, {512, 1024, 2048, 4096, 8192});
  square(c, "transpose_naive", (const void *)transpose_naive, check_transpose, tn, {dim3(32, 8)},
         false, true);
  square(c, "transpose_tiled", (const void *)transpose_tiled, check_transpose, tn, {dim3(32, 8)},
         false, true);
  square(c, "transpose_padded", (const void *)transpose_padded, check_transpose, tn, {dim3(32, 8)},
         false, true);
  histograms(c);
  auto sums = [](long long n, dim3 g) {
    return std::vector<Arg>{f32("in", n, 1), outf("out", g.x), scalar("n", S32, (double)n)};
  };
  linear(c, "reduce_tree", (const void *)reduce_tree, check_block_sums, sums, 256);
  linear(c, "reduce_shuffle", (const void *)reduce_shuffle, check_block_sums, sums);
  auto total = [](long long n, dim3) {
    return std::vector<Arg>{f32("in", n, 1), outf("sum", 1), scalar("n", S32, (double)n)};
  };
  linear(c, "atomic_per_block", (const void *)atomic_per_block, check_total, total, 256);
  linear(c, "atomic_per_element", (const void *)atomic_per_element, check_total, total);
  square(c, "matmul_naive", (const void *)matmul_naive, check_matmul,
         pick<Sizes>(l, {32}, {256, 1024, 2048}, {128, 256, 512, 1024, 2048, 4096}),
         pick<Blocks>(l, {dim3(16, 16)}, {dim3(16, 16), dim3(32, 8)},
                      {dim3(8, 8), dim3(16, 16), dim3(32, 8), dim3(32, 32)}),
         true, false);
  linear(c, "sfu_heavy", (const void *)sfu_heavy, check_sfu, in_out, 1024, 16);
  linear(
      c, "fp64_poly", (const void *)fp64_poly, check_fp64,
      [](long long n, dim3) {
        return std::vector<Arg>{buf("in", F64, n, rnd(9, 0, 1)), buf("out", F64, n, zero()),
                                scalar("n", S32, (double)n)};
      },
      1024, 16);
  linear(c, "divergent", (const void *)divergent, check_divergent, in_out, 1024, 32);
  return v;
}

int main(int argc, char **argv) { return bench_main(argc, argv, "pairs", make); }
