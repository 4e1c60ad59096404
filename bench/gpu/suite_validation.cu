// suite_validation.cu — the validation kernels (examples/validation/*.cu,
// the Amarís et al. set of docs/validation.md) and the example kernels
// (examples/kernels/*.cu), over sizes and block shapes, each with its C
// reference.  The kernels are compiled from those very files into their own
// objects (bench/gpu/run.sh); this file only declares them.
//
// Arguments follow docs/validation.md, "From a row to a launch" (a, b
// random in [0, 1) with seeds 1 and 2, outputs zero; subSeqMax's ints in
// [-100, 100]), so a row measured here reads like a row of the data set.
#include "harness.h"

#include <algorithm>
#include <vector>

using namespace gb;

extern "C" __global__ void vectorAdd(const float *a, const float *b, float *c, int n);
extern "C" __global__ void dotProd(float *a, float *b, float *c, int n);
extern "C" __global__ void matrix_sum_normal(float *a, float *b, float *c, int n);
extern "C" __global__ void matrix_sum_coalesced(float *a, float *b, float *c, int n);
extern "C" __global__ void matMul_gpu(float *a, float *b, float *c, int n);
extern "C" __global__ void matMul_gpu_uncoalesced(float *a, float *b, float *c, int n);
extern "C" __global__ void matMul_gpu_sharedmem(float *a, float *b, float *c, int n);
extern "C" __global__ void matMul_gpu_sharedmem_uncoalesced(float *a, float *b, float *c, int n);
extern "C" __global__ void subSeqMax(int *in, int *out, int n, int per_block);
extern "C" __global__ void vecadd(const float *a, const float *b, float *c, int n);
extern "C" __global__ void matmul_tiled(const float *M, const float *N, float *P, int wM, int wN);

typedef std::vector<long long> Sizes;
typedef std::vector<dim3> Blocks;

static unsigned cdiv(long long a, long long b) { return (unsigned)((a + b - 1) / b); }

// ---- references ----

static bool check_add(const Result &r, std::string *why) { // c = a + b
  size_t n = r.count(2);
  std::vector<double> want(n);
  for (size_t i = 0; i < n; i++)
    want[i] = (double)r.in<float>(0)[i] + r.in<float>(1)[i];
  return close_to("c", r.out<float>(2), want.data(), n, 1e-6, why);
}

static bool check_dot(const Result &r, std::string *why) { // per-block partial dot products
  long long n = r.ival(3);
  unsigned bs = r.launch->block.x, nb = r.launch->grid.x;
  std::vector<double> want(nb, 0.0);
  for (long long i = 0; i < n; i++)
    want[(i / bs) % nb] += (double)r.in<float>(0)[i] * r.in<float>(1)[i];
  return close_to("c", r.out<float>(2), want.data(), nb, 1e-5, why);
}

// matrix_sum_*: c = a + b elementwise over n x n (the index order does not
// change an elementwise sum; both kernels must cover every element).
static bool check_msum(const Result &r, std::string *why) { return check_add(r, why); }

// c = a b, n x n row-major; a float sum of n products, hence the tolerance.
static bool check_matmul(const Result &r, std::string *why) {
  std::vector<double> want = matmul_ref(r.in<float>(0), r.in<float>(1), r.ival(3));
  return close_to("c", r.out<float>(2), want.data(), want.size(), 1e-4, why);
}

// matmul_tiled: P = M N; the launches below are square (wM = wN = rows).
static bool check_matmul_tiled(const Result &r, std::string *why) {
  std::vector<double> want = matmul_ref(r.in<float>(0), r.in<float>(1), r.ival(3));
  return close_to("P", r.out<float>(2), want.data(), want.size(), 1e-4, why);
}

// subSeqMax: block b's summary (sum, best prefix, best suffix, best
// non-empty subsequence) of in[b * per_block, (b + 1) * per_block), by a
// sequential scan.
static bool check_subseq(const Result &r, std::string *why) {
  long long per = r.ival(3);
  unsigned nb = r.launch->grid.x;
  const int *in = r.in<int>(0);
  std::vector<int> want(4 * nb);
  for (unsigned b = 0; b < nb; b++) {
    const int *x = in + (size_t)b * per;
    long long sum = 0, pre = x[0], cur = 0, best = x[0];
    for (long long i = 0; i < per; i++) {
      sum += x[i];
      pre = std::max(pre, sum);
      cur = i ? std::max((long long)x[i], cur + x[i]) : x[0];
      best = std::max(best, cur);
    }
    want[4 * b] = (int)sum, want[4 * b + 1] = (int)pre, want[4 * b + 2] = (int)cur;
    want[4 * b + 3] = (int)best;
  }
  return equal("out", r.out<int>(1), want.data(), want.size(), why);
}

// ---- launches ----

static Launch base(const char *kernel, const void *func, const char *src, dim3 grid, dim3 block,
                   long long size, const char *size_name) {
  Launch L;
  L.kernel = kernel, L.func = func, L.src = src, L.grid = grid, L.block = block, L.size = size;
  L.label = label(size_name, size, block);
  return L;
}

// c[i] = a[i] + b[i], n elements: vectorAdd (a, b random, as the data set)
// and vecadd (b an iota, as examples/kernels/vecadd.launch.json).
static void vector_launches(std::vector<Launch> *v, Level l, const char *kernel, const void *func,
                            const char *src, Init binit) {
  Sizes ns = pick<Sizes>(l, {3000}, {1 << 16, 1 << 20, 1 << 24},
                         {1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20, 1 << 22, 1 << 24, 1 << 26});
  Blocks bs = pick<Blocks>(l, {dim3(64), dim3(256)}, {dim3(128), dim3(256), dim3(1024)},
                           {dim3(64), dim3(128), dim3(256), dim3(512), dim3(1024)});
  for (long long n : ns)
    for (dim3 b : bs) {
      Launch L = base(kernel, func, src, dim3(cdiv(n, b.x)), b, n, "n");
      L.args = {buf("a", F32, n, rnd(1, 0, 1)), buf("b", F32, n, binit), buf("c", F32, n, zero()),
                scalar("n", S32, (double)n)};
      L.check = check_add, L.ref_ops = (double)n;
      v->push_back(L);
    }
}

static void dot_launches(std::vector<Launch> *v, Level l) {
  Sizes ns = pick<Sizes>(l, {4096}, {1 << 16, 1 << 20, 1 << 24},
                         {1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20, 1 << 22, 1 << 24, 1 << 26});
  Blocks bs = pick<Blocks>(l, {dim3(64), dim3(256)}, {dim3(64), dim3(256), dim3(1024)},
                           {dim3(32), dim3(64), dim3(128), dim3(256), dim3(512), dim3(1024)});
  for (long long n : ns)
    for (dim3 b : bs) {
      unsigned g = cdiv(n, b.x);
      Launch L = base("dotProd", (const void *)dotProd, "dotProd", dim3(g), b, n, "n");
      L.dyn_shared = 4 * b.x;
      L.args = {buf("a", F32, n, rnd(1, 0, 1)), buf("b", F32, n, rnd(2, 0, 1)),
                buf("c", F32, g, zero()), scalar("n", S32, (double)n)};
      L.check = check_dot, L.ref_ops = (double)n;
      v->push_back(L);
    }
}

// n x n matrices, grid ceil(n / block) in x and y.
static void matrix_launches(std::vector<Launch> *v, Level l, const char *kernel, const void *func,
                            Sizes ns, bool product) {
  Blocks bs = pick<Blocks>(l, {dim3(8, 8), dim3(16, 16)}, {dim3(8, 8), dim3(16, 16), dim3(32, 32)},
                           {dim3(8, 8), dim3(16, 16), dim3(32, 8), dim3(32, 32)});
  for (long long n : ns)
    for (dim3 b : bs) {
      Launch L = base(kernel, func, kernel, dim3(cdiv(n, b.x), cdiv(n, b.y)), b, n, "n");
      L.args = {buf("a", F32, n * n, rnd(1, 0, 1)), buf("b", F32, n * n, rnd(2, 0, 1)),
                buf("c", F32, n * n, zero()), scalar("n", S32, (double)n)};
      L.check = product ? check_matmul : check_msum;
      L.ref_ops = product ? (double)n * n * n : (double)n * n;
      v->push_back(L);
    }
}

// Tiled products: square tiles T = block.x = block.y, n a multiple of T,
// 2 T^2 floats of dynamic shared memory.
static void tiled_launches(std::vector<Launch> *v, const char *kernel, const void *func, Sizes ns) {
  for (long long n : ns)
    for (unsigned t : {8u, 16u, 32u}) {
      Launch L = base(kernel, func, kernel, dim3(n / t, n / t), dim3(t, t), n, "n");
      L.dyn_shared = 2 * t * t * 4;
      L.args = {buf("a", F32, n * n, rnd(1, 0, 1)), buf("b", F32, n * n, rnd(2, 0, 1)),
                buf("c", F32, n * n, zero()), scalar("n", S32, (double)n)};
      L.check = check_matmul, L.ref_ops = (double)n * n * n;
      v->push_back(L);
    }
}

// subSeqMax: 128 threads per block; each block owns per_block = n / grid
// ints, a multiple of its 4,096-int tile.  The data set's grid is 32.
static void subseq_launches(std::vector<Launch> *v, Level l) {
  Sizes ns =
      pick<Sizes>(l, {1 << 14}, {1 << 20, 1 << 24}, {1 << 17, 1 << 19, 1 << 21, 1 << 23, 1 << 25});
  std::vector<unsigned> grids = pick<std::vector<unsigned>>(l, {2, 4}, {32, 128}, {32, 128, 512});
  for (long long n : ns)
    for (unsigned g : grids) {
      if (n % ((long long)g * 4096)) continue;
      Launch L =
          base("subSeqMax", (const void *)subSeqMax, "subSeqMax", dim3(g), dim3(128), n, "n");
      L.label = "n" + std::to_string(n) + "-g" + std::to_string(g);
      L.args = {buf("in", S32, n, rnd(1, -100, 100)), buf("out", S32, 4 * g, zero()),
                scalar("n", S32, (double)n), scalar("per_block", S32, (double)(n / g))};
      L.check = check_subseq, L.ref_ops = (double)n;
      v->push_back(L);
    }
}

// matmul_tiled (examples/kernels): blocks of 16 x 8 fixed by the kernel;
// square n x n operands, n a multiple of 16; inputs in [-1, 1] as its
// launch spec.
static void matmul_tiled_launches(std::vector<Launch> *v, Level l) {
  Sizes ns = pick<Sizes>(l, {48}, {256, 1024, 2048}, {128, 256, 512, 1024, 2048, 4096});
  for (long long n : ns) {
    Launch L = base("matmul_tiled", (const void *)matmul_tiled, "matmul_tiled", dim3(n / 16, n / 8),
                    dim3(16, 8), n, "n");
    L.args = {buf("M", F32, n * n, rnd(1, -1, 1)), buf("N", F32, n * n, rnd(2, -1, 1)),
              buf("P", F32, n * n, zero()), scalar("wM", S32, (double)n),
              scalar("wN", S32, (double)n)};
    L.check = check_matmul_tiled, L.ref_ops = (double)n * n * n;
    v->push_back(L);
  }
}

static std::vector<Launch> make(Level l) {
  std::vector<Launch> v;
  vector_launches(&v, l, "vectorAdd", (const void *)vectorAdd, "vectorAdd", rnd(2, 0, 1));
  dot_launches(&v, l);
  Sizes sum = pick<Sizes>(l, {40}, {512, 2048, 8192}, {256, 512, 1024, 2048, 4096, 8192});
  matrix_launches(&v, l, "matrix_sum_normal", (const void *)matrix_sum_normal, sum, false);
  matrix_launches(&v, l, "matrix_sum_coalesced", (const void *)matrix_sum_coalesced, sum, false);
  Sizes mm = pick<Sizes>(l, {40}, {256, 1024, 2048}, {128, 256, 512, 1024, 2048, 4096});
  Sizes mmu = pick<Sizes>(l, {40}, {256, 1024}, {128, 256, 512, 1024, 2048});
  matrix_launches(&v, l, "matMul_gpu", (const void *)matMul_gpu, mm, true);
  matrix_launches(&v, l, "matMul_gpu_uncoalesced", (const void *)matMul_gpu_uncoalesced, mmu, true);
  // The uncoalesced tiled product has 32-way bank conflicts at T = 32
  // (about N^3 shared wavefronts: 0.3 s at N = 4096 on an H100), so it stops
  // at 2048, like the naive uncoalesced one.
  tiled_launches(&v, "matMul_gpu_sharedmem", (const void *)matMul_gpu_sharedmem,
                 pick<Sizes>(l, {64}, {256, 1024, 2048}, {128, 256, 512, 1024, 2048, 4096}));
  tiled_launches(&v, "matMul_gpu_sharedmem_uncoalesced",
                 (const void *)matMul_gpu_sharedmem_uncoalesced,
                 pick<Sizes>(l, {64}, {256, 1024}, {128, 256, 512, 1024, 2048}));
  subseq_launches(&v, l);
  vector_launches(&v, l, "vecadd", (const void *)vecadd, "vecadd", iota(0, 0.5));
  matmul_tiled_launches(&v, l);
  return v;
}

int main(int argc, char **argv) { return bench_main(argc, argv, "validation", make); }
