// ubench.cu — micro-benchmarks and the device report of bench/gpu
// (docs/measuring.md).
//
// Measures, on device 0: DRAM bandwidth (read, write, copy of a buffer many
// times the L2), read bandwidth against footprint with loads cached in L2
// only (ld.global.cg) — the L2 figure at a quarter of the L2 —, L1 and
// shared-memory bandwidth, load latency by pointer chasing (L1, L2, DRAM,
// and a curve against footprint), launch overhead (an empty kernel, alone,
// cold and warm as the kernel suites time launches, and back to back), and
// the SM clock held under an FMA load (clock64 against %globaltimer).
// Each kernel's result is checked on the host (sums of known data, the
// chase's end node), so the same program is a functional test under
// `warpsight exec`.
//
// Writes DIR/device.json (schema warpsight-gpu-bench/1), DIR/device.txt and
// DIR/gpu/NAME.json: a warpsight GPU file (docs/gpu-schema.md) built from
// the device's properties and these measurements, each value with its
// source.
#include "harness.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <errno.h>
#include <string>
#include <vector>

using namespace gb;

// ---- kernels ----

// The block's sum of v, by thread 0 (blockDim.x a multiple of 32, <= 1024).
__device__ static float block_sum(float v) {
  __shared__ float w[32];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) w[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x < blockDim.x / 32 ? w[threadIdx.x] : 0.0f;
  if (threadIdx.x < 32)
    for (int o = 16; o > 0; o /= 2)
      v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

// Read n float4 `passes` times (grid-stride); cg: cached in L2 only.  Each
// block's sum goes to sink[blockIdx.x].
__global__ void k_read(const float4 *p, size_t n, int passes, int cg, float *sink) {
  float acc = 0;
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (int k = 0; k < passes; k++) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (cg) {
#pragma unroll 4
      for (; i < n; i += stride) {
        float4 v = __ldcg(p + i);
        acc += (v.x + v.y) + (v.z + v.w);
      }
    } else {
#pragma unroll 4
      for (; i < n; i += stride) {
        float4 v = p[i];
        acc += (v.x + v.y) + (v.z + v.w);
      }
    }
  }
  acc = block_sum(acc);
  if (threadIdx.x == 0) sink[blockIdx.x] = acc;
}

__global__ void k_write(float4 *p, size_t n, float v) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
#pragma unroll 4
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride)
    p[i] = make_float4(v, v, v, v);
}

__global__ void k_copy(const float4 *src, float4 *dst, size_t n) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
#pragma unroll 4
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride)
    dst[i] = src[i];
}

// The sum of p[(threadIdx.x + it * 32) & mask] over `iters` iterations: the
// index moves every iteration, so that no load can be hoisted out of the
// loop, and a warp reads 32 consecutive float4 (no shared-memory bank
// conflicts).  Inlined, so a shared array's loads stay ld.shared.
__device__ __forceinline__ static float reread(const float4 *p, unsigned mask, int iters) {
  float acc = 0;
#pragma unroll 4
  for (int it = 0; it < iters; it++) {
    float4 v = p[(threadIdx.x + it * 32) & mask];
    acc += (v.x + v.y) + (v.z + v.w);
  }
  return acc;
}

// L1: each block reads its own 4 KiB (256 float4) over and over.
__global__ void k_read_l1(const float4 *p, int iters, float *sink) {
  float acc = block_sum(reread(p + (size_t)blockIdx.x * 256, 255, iters));
  if (threadIdx.x == 0) sink[blockIdx.x] = acc;
}

// Shared memory: the same on an 8 KiB shared array of ones.
__global__ void k_shared(int iters, float *sink) {
  __shared__ float4 s[512];
  for (int i = threadIdx.x; i < 512; i += blockDim.x)
    s[i] = make_float4(1, 1, 1, 1);
  __syncthreads();
  float acc = block_sum(reread(s, 511, iters));
  if (threadIdx.x == 0) sink[blockIdx.x] = acc;
}

__device__ static unsigned long long globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// One thread follows next[] for `hops` steps from start; cg: loads cached in
// L2 only.  out[0] = the end node, out[1] = SM cycles, out[2] = ns.
__global__ void k_chase(const unsigned *next, unsigned start, int hops, int cg,
                        unsigned long long *out) {
  unsigned j = start;
  long long c0 = clock64();
  unsigned long long t0 = globaltimer();
  if (cg)
    for (int h = 0; h < hops; h++)
      j = __ldcg(next + j);
  else
    for (int h = 0; h < hops; h++)
      j = next[j];
  long long c1 = clock64();
  unsigned long long t1 = globaltimer();
  out[0] = j, out[1] = (unsigned long long)(c1 - c0), out[2] = t1 - t0;
}

__global__ void k_empty() {}

// The clock under load: four independent FMA chains per thread; thread 0 of
// each block records its SM's cycles and nanoseconds over the loop.
__global__ void k_clock(float *out, int iters, unsigned long long *t) {
  float a = threadIdx.x * 1e-3f, b = a + 1, c = a + 2, d = a + 3;
  __syncthreads();
  long long c0 = clock64();
  unsigned long long t0 = globaltimer();
  for (int i = 0; i < iters; i++) {
    a = fmaf(a, 0.999f, 0.001f), b = fmaf(b, 0.999f, 0.001f);
    c = fmaf(c, 0.999f, 0.001f), d = fmaf(d, 0.999f, 0.001f);
  }
  __syncthreads();
  long long c1 = clock64();
  unsigned long long t1 = globaltimer();
  out[blockIdx.x * blockDim.x + threadIdx.x] = a + b + c + d;
  if (threadIdx.x == 0)
    t[2 * blockIdx.x] = (unsigned long long)(c1 - c0), t[2 * blockIdx.x + 1] = t1 - t0;
}

// ---- reports ----

// A JSON document written in order, commas and nesting kept here.
class Json {
  std::string s_;
  std::vector<bool> first_;
  void sep() {
    if (!first_.empty()) {
      if (!first_.back() && s_.back() != ':') s_ += ", ";
      first_.back() = false;
    }
  }

public:
  Json &open(char c) {
    sep();
    s_ += c;
    first_.push_back(true);
    return *this;
  }
  Json &close(char c) {
    s_ += c;
    first_.pop_back();
    return *this;
  }
  Json &key(const char *k) {
    sep();
    s_ += "\"" + std::string(k) + "\":";
    return *this;
  }
  Json &num(double v) {
    sep();
    char b[40];
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9e15)
      snprintf(b, sizeof b, "%.0f", v);
    else if (std::isfinite(v))
      snprintf(b, sizeof b, "%.6g", v);
    else
      snprintf(b, sizeof b, "null");
    s_ += b;
    return *this;
  }
  Json &str(const std::string &v) {
    sep();
    s_ += '"';
    for (char ch : v)
      if (ch == '"' || ch == '\\')
        s_ += '\\', s_ += ch;
      else if ((unsigned char)ch < 0x20)
        s_ += ' ';
      else
        s_ += ch;
    s_ += '"';
    return *this;
  }
  Json &null() {
    sep();
    s_ += "null";
    return *this;
  }
  // A value object of the GPU schema: {"value": v, "source": s}.
  Json &fact(const char *k, double v, const std::string &source, const char *note = 0) {
    key(k).open('{').key("value").num(v).key("source").str(source);
    if (note) key("estimate").raw("true").key("note").str(note);
    return close('}');
  }
  Json &raw(const char *v) {
    sep();
    s_ += v;
    return *this;
  }
  const std::string &text() const { return s_; }
};

struct Opts {
  std::string out, date, driver_release = "", nvcc = "", commit = "", db_name = "", gpu_file = "",
                         arch_name = "";
  Level level = FULL;
  int cores_per_sm = 0;
  size_t flush = 0;
};

struct Ctx {
  Opts o;
  cudaDeviceProp p;
  int blocks_per_sm = 0;           // resident 256-thread blocks per SM
  int blocks = 0;                  // a grid that fills every SM with 256-thread blocks
  double clock_ghz = NAN;          // measured, under load
  double dram_read_gbs = NAN;      // measured, best of the repetitions
  double lat[3] = {NAN, NAN, NAN}; // measured L1, L2, DRAM latency, cycles
  std::string txt;                 // device.txt
  int failed = 0;                  // checks that failed
  void line(const char *fmt, ...) __attribute__((format(printf, 2, 3)));
};

void Ctx::line(const char *fmt, ...) {
  char b[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b, sizeof b, fmt, ap);
  va_end(ap);
  txt += b;
  txt += '\n';
  printf("%s\n", b);
  fflush(stdout);
}

#define CK(call)                                                                                   \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      fprintf(stderr, "ubench: %s:%d: %s: %s\n", __FILE__, __LINE__, #call,                        \
              cudaGetErrorString(e_));                                                             \
      exit(3);                                                                                     \
    }                                                                                              \
  } while (0)

static void check(Ctx *c, bool ok, const char *what, const std::string &detail) {
  if (!ok) {
    c->failed++;
    c->line("  FAIL %s: %s", what, detail.c_str());
  }
}

// A sum of ones read by a bandwidth kernel against the count expected:
// within 1e-6 (the blocks' float sums are exact in most launches, but a
// block's partial sums may pass 2^24).
static void check_sum(Ctx *c, const char *what, double got, double want) {
  check(c, std::fabs(got - want) <= 1e-6 * want, what,
        "the data read sums to " + std::to_string(got) + ", expected " + std::to_string(want));
}

// Times `reps` launches of one kernel (a Launch without arguments of its
// own: argp gives them), warm: the best and the median seconds.
static Stats timed(Ctx *c, const void *func, dim3 grid, dim3 block, void **argp, int reps,
                   bool cold = false, void *flush = 0) {
  Launch L;
  L.func = func, L.grid = grid, L.block = block;
  std::vector<double> t;
  CK(time_launches(L, argp, reps, flush, c->o.flush, cold, &t));
  return stats(t);
}

static int level_reps(const Ctx *c) {
  return c->o.level == TINY ? 2 : c->o.level == QUICK ? 5 : 10;
}
// Target seconds of one timed launch of a bandwidth test.
static double target_s(const Ctx *c) { return c->o.level == FULL ? 0.02 : 0.01; }

// Passes (or iterations) so that a launch runs about target_s: from one
// launch of `one` passes that took t seconds.
static int scale(const Ctx *c, int one, double t) {
  if (c->o.level == TINY) return one;
  double k = target_s(c) / std::max(t, 1e-7) * one;
  return (int)std::min(std::max(k, (double)one), 1e6);
}

static double sum_sink(const float *d, int n) {
  std::vector<float> h(n);
  CK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  double s = 0;
  for (float x : h)
    s += x;
  return s;
}

// DRAM: read, write and copy of `bytes` (several times the L2).
static void dram(Ctx *c, Json *j) {
  size_t bytes = c->o.level == TINY
                     ? (size_t)1 << 18
                     : std::max((size_t)(c->o.level == FULL ? 8 : 4) * c->p.l2CacheSize,
                                (size_t)(c->o.level == FULL ? 1 << 30 : 1 << 29));
  bytes = std::min(bytes, c->p.totalGlobalMem / 4) & ~(size_t)15;
  size_t n = bytes / 16;
  float4 *a, *b;
  float *sink;
  CK(cudaMalloc(&a, bytes));
  CK(cudaMalloc(&b, bytes));
  CK(cudaMalloc(&sink, c->blocks * sizeof(float)));
  int reps = level_reps(c), one = 1, cg = 0;
  float v1 = 1, v0 = 0;
  void *wr[] = {&a, &n, &v1}, *wr0[] = {&b, &n, &v0}, *cp[] = {&a, &b, &n},
       *rd[] = {&b, &n, &one, &cg, &sink};
  dim3 g(c->blocks), blk(256);
  Stats w = timed(c, (const void *)k_write, g, blk, wr, reps);
  timed(c, (const void *)k_write, g, blk, wr0, 1);
  Stats cpy = timed(c, (const void *)k_copy, g, blk, cp, reps);
  Stats r = timed(c, (const void *)k_read, g, blk, rd, reps);
  check_sum(c, "DRAM read of the copied ones", sum_sink(sink, c->blocks), 4.0 * n);
  auto gbs = [](double bytes_, double s) { return bytes_ / s / 1e9; };
  j->key("dram").open('{').key("bytes").num((double)bytes);
  j->key("read_gbs").num(gbs(bytes, r.min)).key("read_gbs_median").num(gbs(bytes, r.median));
  j->key("write_gbs").num(gbs(bytes, w.min)).key("write_gbs_median").num(gbs(bytes, w.median));
  j->key("copy_gbs")
      .num(gbs(2.0 * bytes, cpy.min))
      .key("copy_gbs_median")
      .num(gbs(2.0 * bytes, cpy.median));
  j->close('}');
  c->dram_read_gbs = gbs(bytes, r.min);
  c->line("DRAM bandwidth (%zu MiB, best of %d; median): read %.1f (%.1f) GB/s, write %.1f (%.1f) "
          "GB/s, copy %.1f (%.1f) GB/s (read + written bytes)",
          bytes >> 20, reps, gbs(bytes, r.min), gbs(bytes, r.median), gbs(bytes, w.min),
          gbs(bytes, w.median), gbs(2.0 * bytes, cpy.min), gbs(2.0 * bytes, cpy.median));
  CK(cudaFree(a));
  CK(cudaFree(b));
  CK(cudaFree(sink));
}

// Read bandwidth against footprint, loads cached in L2 only, warm; the L2
// figure is the point at a quarter of the L2.
static void l2_curve(Ctx *c, Json *j) {
  size_t l2 = (size_t)c->p.l2CacheSize;
  std::vector<size_t> fp;
  if (c->o.level == TINY)
    fp = {1 << 14, 1 << 16};
  else
    for (size_t f = l2 / 16; f <= 8 * l2; f *= c->o.level == FULL ? 2 : 4)
      fp.push_back(f);
  size_t maxb = std::min(fp.back(), c->p.totalGlobalMem / 4);
  float4 *a;
  float *sink;
  CK(cudaMalloc(&a, maxb));
  CK(cudaMalloc(&sink, c->blocks * sizeof(float)));
  size_t nmax = maxb / 16;
  float v1 = 1;
  void *wr[] = {&a, &nmax, &v1};
  timed(c, (const void *)k_write, dim3(c->blocks), dim3(256), wr, 1);
  int reps = level_reps(c), cg = 1;
  double l2_gbs = NAN, l2_dist = INFINITY; // the point nearest a quarter of the L2
  j->key("l2_read_curve").open('[');
  c->line("read bandwidth against footprint (loads cached in L2 only, warm, best of %d):", reps);
  for (size_t f : fp) {
    if (f > maxb) break;
    size_t n = f / 16;
    int passes = 1;
    void *rd[] = {&a, &n, &passes, &cg, &sink};
    Stats t1 = timed(c, (const void *)k_read, dim3(c->blocks), dim3(256), rd, 2);
    passes = scale(c, 1, t1.median);
    Stats t = timed(c, (const void *)k_read, dim3(c->blocks), dim3(256), rd, reps);
    check_sum(c, "L2 read", sum_sink(sink, c->blocks), 4.0 * n * passes);
    double gbs = (double)f * passes / t.min / 1e9;
    double dist = std::fabs((double)f - l2 / 4.0);
    if (dist < l2_dist) l2_gbs = gbs, l2_dist = dist;
    j->open('{')
        .key("bytes")
        .num((double)f)
        .key("passes")
        .num(passes)
        .key("gbs")
        .num(gbs)
        .key("gbs_median")
        .num((double)f * passes / t.median / 1e9)
        .close('}');
    c->line("  %10.3f MiB  %9.1f GB/s", f / 1048576.0, gbs);
  }
  j->close(']');
  j->key("l2_read_gbs").num(l2_gbs);
  c->line("L2 read bandwidth (footprint a quarter of the L2): %.1f GB/s", l2_gbs);
  CK(cudaFree(a));
  CK(cudaFree(sink));
}

// L1 and shared-memory bandwidth, every SM busy.
static void l1_shared(Ctx *c, Json *j) {
  float4 *a;
  float *sink;
  size_t n = (size_t)c->blocks * 256;
  CK(cudaMalloc(&a, n * 16));
  CK(cudaMalloc(&sink, c->blocks * sizeof(float)));
  float v1 = 1;
  void *wr[] = {&a, &n, &v1};
  timed(c, (const void *)k_write, dim3(c->blocks), dim3(256), wr, 1);
  int reps = level_reps(c), iters = c->o.level == TINY ? 16 : 256;
  void *l1[] = {&a, &iters, &sink}, *sh[] = {&iters, &sink};
  double per_launch = (double)c->blocks * 256 * 16; // bytes per iteration
  Stats t = timed(c, (const void *)k_read_l1, dim3(c->blocks), dim3(256), l1, 2);
  iters = scale(c, iters, t.median);
  t = timed(c, (const void *)k_read_l1, dim3(c->blocks), dim3(256), l1, reps);
  check_sum(c, "L1 read", sum_sink(sink, c->blocks), 4.0 * iters * n);
  double l1_gbs = per_launch * iters / t.min / 1e9;
  iters = c->o.level == TINY ? 16 : 256;
  Stats s = timed(c, (const void *)k_shared, dim3(c->blocks), dim3(256), sh, 2);
  iters = scale(c, iters, s.median);
  s = timed(c, (const void *)k_shared, dim3(c->blocks), dim3(256), sh, reps);
  check_sum(c, "shared read", sum_sink(sink, c->blocks), 4.0 * iters * n);
  double sh_gbs = per_launch * iters / s.min / 1e9;
  double per_clk = 1e9 / (c->p.multiProcessorCount * c->clock_ghz * 1e9);
  j->key("l1_read_gbs").num(l1_gbs).key("l1_read_bytes_per_clk_per_sm").num(l1_gbs * per_clk);
  j->key("shared_read_gbs")
      .num(sh_gbs)
      .key("shared_read_bytes_per_clk_per_sm")
      .num(sh_gbs * per_clk);
  c->line("L1 read bandwidth (4 KiB per block, %d blocks of 256): %.1f GB/s = %.1f B/clk/SM at "
          "the measured clock",
          c->blocks, l1_gbs, l1_gbs * per_clk);
  c->line("shared-memory read bandwidth (conflict-free float4): %.1f GB/s = %.1f B/clk/SM", sh_gbs,
          sh_gbs * per_clk);
  CK(cudaFree(a));
  CK(cudaFree(sink));
}

// A random cyclic chain (Sattolo's shuffle) over the nodes at `stride`
// bytes within `bytes`: next[node] = the following node's element index.
// Node 0 is element 0, so a chase may start there.
static std::vector<unsigned> chain(size_t bytes, size_t stride, uint64_t seed) {
  size_t nodes = bytes / stride, step = stride / 4;
  std::vector<unsigned> order(nodes), next(bytes / 4, 0);
  for (size_t i = 0; i < nodes; i++)
    order[i] = (unsigned)i;
  uint64_t st = seed;
  for (size_t i = nodes - 1; i > 0; i--) { // Sattolo: one cycle through every node
    st = st * 6364136223846793005ull + 1442695040888963407ull;
    size_t k = (size_t)((st >> 33) % i);
    std::swap(order[i], order[k]);
  }
  for (size_t i = 0; i < nodes; i++)
    next[order[i] * step] = (unsigned)(order[(i + 1) % nodes] * step);
  return next;
}

struct Latency {
  double cycles = NAN, ns = NAN;
};

// Cycles and ns per hop of a chase over `bytes` (warm-up pass first when
// warm), checked against the host's walk of the same chain.  Each of the
// three runs goes on from where the last one stopped, so a cold chase never
// meets a node that an earlier run left in the cache.
static Latency chase(Ctx *c, size_t bytes, size_t stride, int cg, int hops, bool warm) {
  std::vector<unsigned> next = chain(bytes, stride, bytes);
  unsigned *d;
  unsigned long long *out;
  CK(cudaMalloc(&d, bytes));
  CK(cudaMalloc(&out, 3 * sizeof *out));
  CK(cudaMemcpy(d, next.data(), bytes, cudaMemcpyHostToDevice));
  unsigned start = 0;
  int nodes = (int)(bytes / stride);
  if (warm) {
    int all = std::min(nodes, 1 << 16);
    void *a[] = {&d, &start, &all, &cg, &out};
    CK(cudaLaunchKernel((const void *)k_chase, dim3(1), dim3(1), a, 0, 0));
  }
  Latency best;
  for (int r = 0; r < 3; r++) {
    void *a[] = {&d, &start, &hops, &cg, &out};
    CK(cudaLaunchKernel((const void *)k_chase, dim3(1), dim3(1), a, 0, 0));
    unsigned long long h[3];
    CK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    unsigned want = start;
    for (int k = 0; k < hops; k++)
      want = next[want];
    check(c, h[0] == want, "pointer chase",
          "ended at " + std::to_string(h[0]) + ", expected " + std::to_string(want));
    start = want;
    double cy = (double)h[1] / hops, ns = (double)h[2] / hops;
    if (!(cy >= best.cycles)) best.cycles = cy, best.ns = ns; // the fastest of three
  }
  CK(cudaFree(d));
  CK(cudaFree(out));
  return best;
}

static void latencies(Ctx *c, Json *j) {
  bool tiny = c->o.level == TINY;
  size_t l2 = (size_t)c->p.l2CacheSize;
  int hops = tiny ? 64 : 1 << 14;
  size_t dram_bytes = tiny ? 1 << 16 : std::max(4 * l2, (size_t)64 << 20);
  dram_bytes = std::min(dram_bytes, c->p.totalGlobalMem / 4);
  struct Point {
    const char *name, *how;
    size_t bytes;
    int cg;
    bool warm;
  } pts[] = {
      {"l1", "ld.global, 4 KiB, warm", 4096, 0, true},
      {"l2", "ld.global.cg, a quarter of the L2, warm", tiny ? 1 << 14 : l2 / 4, 1, true},
      {"dram", "ld.global.cg, 4 x the L2 (at least 64 MiB), random", dram_bytes, 1, false},
  };
  j->key("latency").open('{');
  c->line("load latency by pointer chase (128-B stride, random order; best of 3; cycles at the "
          "SM's own clock64):");
  for (int i = 0; i < 3; i++) {
    const Point &p = pts[i];
    Latency l = chase(c, p.bytes, 128, p.cg, i == 2 ? hops / 2 : hops, p.warm);
    c->lat[i] = l.cycles;
    j->key(p.name)
        .open('{')
        .key("cycles")
        .num(l.cycles)
        .key("ns")
        .num(l.ns)
        .key("footprint_bytes")
        .num((double)p.bytes)
        .key("how")
        .str(p.how)
        .close('}');
    c->line("  %-5s %8.1f cycles %8.1f ns  (%s)", p.name, l.cycles, l.ns, p.how);
  }
  j->close('}');
  std::vector<size_t> fp;
  if (tiny)
    fp = {4096, 1 << 15};
  else
    for (size_t f = 4096; f <= 4 * l2 && f <= c->p.totalGlobalMem / 4;
         f *= c->o.level == FULL ? 2 : 4)
      fp.push_back(f);
  j->key("latency_curve").open('[');
  c->line("latency against footprint (ld.global, cached in L1 where the GPU does):");
  for (size_t f : fp) {
    Latency l = chase(c, f, 128, 0, tiny ? 64 : 4096, true);
    j->open('{').key("bytes").num((double)f).key("cycles").num(l.cycles).key("ns").num(l.ns).close(
        '}');
    c->line("  %10.3f MiB %8.1f cycles %8.1f ns", f / 1048576.0, l.cycles, l.ns);
  }
  j->close(']');
}

// Launch overhead of an empty kernel, as the suites time a launch.
static void launches(Ctx *c, Json *j, void *flush) {
  int reps = c->o.level == TINY ? 3 : 50;
  dim3 one(1), w(32), full(c->blocks), blk(256);
  Stats cold1 = timed(c, (const void *)k_empty, one, w, NULL, reps, true, flush);
  Stats warm1 = timed(c, (const void *)k_empty, one, w, NULL, reps);
  Stats coldf = timed(c, (const void *)k_empty, full, blk, NULL, reps, true, flush);
  Stats warmf = timed(c, (const void *)k_empty, full, blk, NULL, reps);
  // alone: the device idle before each launch; the host's time of launch + sync
  std::vector<double> host;
  for (int r = 0; r < reps; r++) {
    CK(cudaDeviceSynchronize());
    auto t0 = std::chrono::steady_clock::now();
    CK(cudaLaunchKernel((const void *)k_empty, one, w, NULL, 0, 0));
    CK(cudaDeviceSynchronize());
    host.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  Stats h = stats(host);
  // back to back: K launches between two events
  int k = c->o.level == TINY ? 10 : 1000;
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  CK(cudaEventRecord(e0, 0));
  for (int i = 0; i < k; i++)
    CK(cudaLaunchKernel((const void *)k_empty, one, w, NULL, 0, 0));
  CK(cudaEventRecord(e1, 0));
  CK(cudaEventSynchronize(e1));
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, e0, e1));
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  double b2b = ms * 1e-3 / k;
  j->key("launch").open('{');
  j->key("empty_1x32_cold_s").num(cold1.median).key("empty_1x32_warm_s").num(warm1.median);
  j->key("empty_full_grid_cold_s")
      .num(coldf.median)
      .key("empty_full_grid_warm_s")
      .num(warmf.median);
  j->key("full_grid").open('[').num(c->blocks).num(256).close(']');
  j->key("host_launch_sync_s").num(h.median).key("back_to_back_s").num(b2b).close('}');
  c->line("launch overhead, empty kernel (median of %d, event-timed as the suites time "
          "launches):",
          reps);
  c->line("  <<<1, 32>>>         cold %.2f us, warm %.2f us", cold1.median * 1e6,
          warm1.median * 1e6);
  c->line("  <<<%d, 256>>>  cold %.2f us, warm %.2f us", c->blocks, coldf.median * 1e6,
          warmf.median * 1e6);
  c->line("  launch + synchronise, host clock: %.2f us; back to back (%d launches): %.2f us each",
          h.median * 1e6, k, b2b * 1e6);
}

// The SM clock under an FMA load on every SM: clock64 cycles over
// %globaltimer ns per block, three runs in a row.
static void clock_under_load(Ctx *c, Json *j) {
  int blocks = c->blocks, iters = c->o.level == TINY ? 20 : 1 << 12;
  float *out;
  unsigned long long *t;
  CK(cudaMalloc(&out, (size_t)blocks * 256 * sizeof(float)));
  CK(cudaMalloc(&t, 2 * blocks * sizeof *t));
  void *a[] = {&out, &iters, &t};
  Stats s = timed(c, (const void *)k_clock, dim3(blocks), dim3(256), a, 1);
  if (c->o.level != TINY)
    iters = (int)std::min(1e8, iters * (c->o.level == FULL ? 0.2 : 0.1) / std::max(s.median, 1e-6));
  std::vector<double> runs;
  for (int r = 0; r < 3; r++) {
    CK(cudaLaunchKernel((const void *)k_clock, dim3(blocks), dim3(256), a, 0, 0));
    std::vector<unsigned long long> h(2 * blocks);
    CK(cudaMemcpy(h.data(), t, h.size() * sizeof h[0], cudaMemcpyDeviceToHost));
    std::vector<double> ghz;
    for (int b = 0; b < blocks; b++)
      if (h[2 * b + 1] > 0) ghz.push_back((double)h[2 * b] / (double)h[2 * b + 1]);
    check(c, !ghz.empty(), "clock", "no block measured a time");
    if (!ghz.empty()) runs.push_back(stats(ghz).median);
  }
  c->clock_ghz = runs.empty() ? NAN : stats(runs).median;
  int khz = 0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0) != cudaSuccess)
    khz = 0, cudaGetLastError();
  j->key("sm_clock").open('{').key("ghz").num(c->clock_ghz).key("runs_ghz").open('[');
  for (double r : runs)
    j->num(r);
  j->close(']').key("iterations").num(iters).key("blocks").num(blocks);
  j->key("max_ghz_attribute").num(khz ? khz * 1e-6 : NAN).close('}');
  c->line(
      "SM clock under FMA load (%d blocks of 256, %d iterations, 3 runs): %.3f GHz (runs:%s); "
      "the runtime's maximum %.3f GHz",
      blocks, iters, c->clock_ghz,
      [&] {
        std::string s_;
        char b[32];
        for (double r : runs)
          snprintf(b, sizeof b, " %.3f", r), s_ += b;
        return s_;
      }()
          .c_str(),
      khz * 1e-6);
  CK(cudaFree(out));
  CK(cudaFree(t));
}

// ---- the device ----

static int attr(cudaDeviceAttr a) {
  int v = 0;
  if (cudaDeviceGetAttribute(&v, a, 0) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  return v;
}

static void device(Ctx *c, Json *j, double *dram_gbs) {
  const cudaDeviceProp &p = c->p;
  int drv = 0, rt = 0;
  cudaDriverGetVersion(&drv);
  cudaRuntimeGetVersion(&rt);
  int mem_khz = attr(cudaDevAttrMemoryClockRate), clk_khz = attr(cudaDevAttrClockRate);
  *dram_gbs =
      mem_khz > 0 && p.memoryBusWidth > 0 ? 2.0 * mem_khz * 1e3 * p.memoryBusWidth / 8 / 1e9 : NAN;
  char uuid[40] = "";
  for (int i = 0; i < 16; i++)
    snprintf(uuid + 2 * i, 3, "%02x", (unsigned char)p.uuid.bytes[i]);
  j->key("device").open('{');
  j->key("name")
      .str(p.name)
      .key("compute_capability")
      .str(std::to_string(p.major) + "." + std::to_string(p.minor));
  j->key("sms").num(p.multiProcessorCount).key("warp_size").num(p.warpSize);
  j->key("clock_max_khz").num(clk_khz > 0 ? clk_khz : NAN);
  j->key("memory_clock_khz").num(mem_khz > 0 ? mem_khz : NAN);
  j->key("memory_bus_bits").num(p.memoryBusWidth).key("memory_bytes").num((double)p.totalGlobalMem);
  j->key("dram_peak_gbs").num(*dram_gbs);
  j->key("l2_bytes")
      .num(p.l2CacheSize)
      .key("persisting_l2_max_bytes")
      .num(p.persistingL2CacheMaxSize);
  j->key("shared_per_sm").num((double)p.sharedMemPerMultiprocessor);
  j->key("shared_per_block_optin").num((double)p.sharedMemPerBlockOptin);
  j->key("shared_reserved_per_block").num((double)p.reservedSharedMemPerBlock);
  j->key("regs_per_sm").num(p.regsPerMultiprocessor);
  j->key("max_threads_per_sm").num(p.maxThreadsPerMultiProcessor);
  j->key("max_blocks_per_sm").num(p.maxBlocksPerMultiProcessor);
  j->key("ecc").num(p.ECCEnabled).key("pci_bus_id").num(p.pciBusID).key("uuid").str(uuid);
  j->close('}');
  j->key("versions").open('{').key("driver_api").num(drv).key("runtime").num(rt);
  j->key("driver_release").str(c->o.driver_release).key("nvcc").str(c->o.nvcc);
  j->key("warpsight_commit").str(c->o.commit).close('}');
  char mem[128] = "memory clock and bus not reported";
  if (std::isfinite(*dram_gbs))
    snprintf(mem, sizeof mem, "%d-bit bus at %.0f MHz (peak %.1f GB/s)", p.memoryBusWidth,
             mem_khz / 1e3, *dram_gbs);
  c->line("%s: compute capability %d.%d, %d SMs, max clock %.0f MHz, %.1f GiB, %s, L2 %d KiB, "
          "shared %zu B per SM (%zu per block opt-in)",
          p.name, p.major, p.minor, p.multiProcessorCount, clk_khz / 1e3,
          p.totalGlobalMem / 1073741824.0, mem, p.l2CacheSize / 1024, p.sharedMemPerMultiprocessor,
          p.sharedMemPerBlockOptin);
  c->line("driver %s (CUDA driver API %d), runtime %d, nvcc %s; measured %s",
          c->o.driver_release.c_str(), drv, rt, c->o.nvcc.c_str(), c->o.date.c_str());
}

// The GPU file: the device's facts and the measurements, each with its source.
static std::string gpu_file(const Ctx *c, double dram_gbs) {
  const cudaDeviceProp &p = c->p;
  std::string here = "bench/gpu measurement " + c->o.date + " (device.json";
  std::string rt = "CUDA runtime on the device, " + c->o.date + ": ";
  Json g;
  g.open('{').key("schema").str("warpsight-gpu/1").key("name").str(c->o.gpu_file);
  g.key("full_name").str(std::string(p.name) + " (measured " + c->o.date.substr(0, 10) + ")");
  g.key("architecture").str(c->o.arch_name).key("hypothetical").raw("false");
  g.key("compute_capability")
      .open('{')
      .key("value")
      .str(std::to_string(p.major) + "." + std::to_string(p.minor));
  g.key("source").str(rt + "cudaDeviceProp major.minor").close('}');
  g.fact("sms", p.multiProcessorCount, rt + "multiProcessorCount");
  g.fact("cores_per_sm", c->o.cores_per_sm,
         "CUDA C++ Programming Guide, throughput of 32-bit floating-point add/multiply/fma per "
         "clock per SM for the compute capability (src/gpu/cc_arch.def)");
  g.fact("warp_size", p.warpSize, rt + "warpSize");
  if (std::isfinite(c->clock_ghz))
    g.fact("clock_ghz", std::round(c->clock_ghz * 1000) / 1000,
           here + ": sm_clock, clock64 over %globaltimer under an FMA load on every SM)");
  else
    g.fact("clock_ghz", attr(cudaDevAttrClockRate) * 1e-6, rt + "cudaDevAttrClockRate (maximum)");
  if (std::isfinite(dram_gbs))
    g.fact("mem_bandwidth_gbs", std::round(dram_gbs * 10) / 10,
           rt + "2 x cudaDevAttrMemoryClockRate x memoryBusWidth / 8 (theoretical peak)");
  else
    g.fact("mem_bandwidth_gbs", std::round(c->dram_read_gbs * 10) / 10, here + ": dram.read_gbs)",
           "the runtime gave no memory clock, so not the theoretical peak but the measured read "
           "bandwidth, which is lower");
  g.key("limits").open('{');
  g.fact("shared_per_sm", (double)p.sharedMemPerMultiprocessor, rt + "sharedMemPerMultiprocessor");
  g.fact("max_shared_per_block", (double)p.sharedMemPerBlockOptin, rt + "sharedMemPerBlockOptin");
  g.fact("shared_reserved_per_block", (double)p.reservedSharedMemPerBlock,
         rt + "reservedSharedMemPerBlock");
  g.fact("regs_per_sm", p.regsPerMultiprocessor, rt + "regsPerMultiprocessor");
  g.fact("max_threads_per_sm", p.maxThreadsPerMultiProcessor, rt + "maxThreadsPerMultiProcessor");
  g.fact("max_blocks_per_sm", p.maxBlocksPerMultiProcessor, rt + "maxBlocksPerMultiProcessor");
  g.close('}');
  g.key("cache").open('{').fact("l2_bytes", p.l2CacheSize, rt + "l2CacheSize").close('}');
  // The bus (and the memory clock) the loader needs for the DRAM partitions
  // and L2 slices; without them it warns (docs/gpu-schema.md, "memory").
  int mem_khz = attr(cudaDevAttrMemoryClockRate);
  if (p.memoryBusWidth > 0) {
    g.key("memory").open('{').fact("bus_bits", p.memoryBusWidth, rt + "memoryBusWidth");
    if (mem_khz > 0 && std::isfinite(dram_gbs))
      g.fact("clock_mhz", mem_khz * 1e-3, rt + "cudaDevAttrMemoryClockRate");
    g.close('}');
  }
  g.key("latencies").open('{');
  static const char *const names[] = {"l1", "l2", "dram"};
  for (int i = 0; i < 3; i++)
    if (std::isfinite(c->lat[i]) && c->lat[i] > 0)
      g.fact(names[i], std::round(c->lat[i] * 10) / 10,
             here + ": latency." + names[i] + ", pointer chase, cycles of the SM's clock64)");
  g.close('}').key("models").open('{').close('}').close('}');
  return g.text() + "\n";
}

static void usage() {
  fprintf(stderr, "usage: ubench --out DIR --gpu-file NAME --arch-name ARCH --cores-per-sm N\n"
                  "              [--level tiny|quick|full] [--flush-bytes N] [--date D]\n"
                  "              [--driver-release R] [--nvcc V] [--commit C]\n"
                  "Micro-benchmarks and the device report (bench/gpu, docs/measuring.md).\n");
}

int main(int argc, char **argv) {
  Ctx c;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (i + 1 >= argc) return usage(), 2;
    std::string v = argv[++i];
    if (a == "--out")
      c.o.out = v;
    else if (a == "--gpu-file")
      c.o.gpu_file = v;
    else if (a == "--arch-name")
      c.o.arch_name = v;
    else if (a == "--cores-per-sm")
      c.o.cores_per_sm = atoi(v.c_str());
    else if (a == "--date")
      c.o.date = v;
    else if (a == "--driver-release")
      c.o.driver_release = v;
    else if (a == "--nvcc")
      c.o.nvcc = v;
    else if (a == "--commit")
      c.o.commit = v;
    else if (a == "--flush-bytes")
      c.o.flush = strtoull(v.c_str(), NULL, 10);
    else if (a == "--level")
      c.o.level = v == "tiny" ? TINY : v == "quick" ? QUICK : FULL;
    else
      return usage(), 2;
  }
  if (c.o.out.empty() || c.o.gpu_file.empty() || c.o.cores_per_sm <= 0) return usage(), 2;
  if (c.o.date.empty()) {
    char b[32];
    time_t now = time(NULL);
    strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    c.o.date = b;
  }
  CK(cudaGetDeviceProperties(&c.p, 0));
  c.blocks_per_sm =
      std::max(1, std::min(c.p.maxThreadsPerMultiProcessor / 256, c.p.maxBlocksPerMultiProcessor));
  c.blocks = c.p.multiProcessorCount * c.blocks_per_sm;
  if (c.o.level == TINY) c.blocks = std::min(c.blocks, 8); // under an emulator: keep it small
  if (!c.o.flush) c.o.flush = 2 * (size_t)std::max(c.p.l2CacheSize, 1 << 20);
  void *flush;
  CK(cudaMalloc(&flush, c.o.flush));
  auto t0 = std::chrono::steady_clock::now();

  Json j;
  j.open('{').key("schema").str("warpsight-gpu-bench/1").key("date").str(c.o.date);
  j.key("level").str(c.o.level == TINY ? "tiny" : c.o.level == QUICK ? "quick" : "full");
  double dram_peak;
  device(&c, &j, &dram_peak);
  j.key("measured").open('{');
  clock_under_load(&c, &j);
  dram(&c, &j);
  l2_curve(&c, &j);
  l1_shared(&c, &j);
  latencies(&c, &j);
  launches(&c, &j, flush);
  j.close('}');
  j.key("gpu_file").str("gpu/" + c.o.gpu_file + ".json");
  j.key("checks_failed").num(c.failed).close('}');
  CK(cudaFree(flush));

  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  c.line("micro-benchmarks: %.1f s, %d checks failed", secs, c.failed);
  if (!mkdir_p(c.o.out + "/gpu") || !write_file(c.o.out + "/device.json", j.text() + "\n") ||
      !write_file(c.o.out + "/device.txt", c.txt) ||
      !write_file(c.o.out + "/gpu/" + c.o.gpu_file + ".json", gpu_file(&c, dram_peak))) {
    fprintf(stderr, "ubench: cannot write into %s: %s\n", c.o.out.c_str(), strerror(errno));
    return 2;
  }
  return c.failed ? 1 : 0;
}
