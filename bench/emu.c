/*
 * bench/emu.c — speed of the functional emulator's two engines on four
 * corpus kernels (tests/corpus/ptx/sm_80): vector add (2^24 elements),
 * tiled matmul (1024 x 1024, 16 x 16 tiles), tree reduction (reduce6, 2^24
 * ints) and Black-Scholes (2^22 options).  For each: the interpreter and
 * the translated engine at -j 1, a plain C version of the same computation
 * on the same inputs, single-threaded, all timed in the same run, and the
 * slowdowns against plain C; the translated engine at -j 2; the time to
 * translate and compile (or load from the cache); and whether the two
 * engines' buffers are identical (the exit status is 1 when not).  A
 * second table, for each engine, gives the second thread's figures: -j 1
 * wall and CPU seconds, -j 2 wall and CPU seconds (both threads), the CPU
 * -j 2 adds (j2 cpu / j1 cpu: work the second worker makes, such as
 * contention), the part of the -j 2 run that did not run in parallel
 * (wall - cpu / 2, in seconds; on a machine whose two cores are free) and
 * the speed-up, -j 1 wall over -j 2 wall.  Build optimised for the
 * figures (the default RelWithDebInfo, or Release, which docs/emulator.md's
 * figures use; exec.c is at -O3 in both).  Native and -j 1 times in the
 * first table are process CPU seconds; -j 2 times are wall-clock.
 *
 * Fairness: every buffer of a launch has its pages touched (each page's
 * first byte written back) before the timed run, as the native loops'
 * outputs are before theirs, so neither side's time includes the kernel's
 * first-touch page faults (16,384 of them, about 0.02 s, for vecadd's
 * 64 MiB output); the compile is timed apart (`compile s`).  After a -j 2
 * run the process's CPU seconds are read 2 ms later: Linux adds another
 * thread's CPU time since its last tick (4 ms here) only when that thread
 * stops, and a worker that has just finished may not have stopped yet.
 *
 * usage: bench_emu [--quick] [--only NAME] [--repeat N] [--interp-only] [--no-j2] [--runs]
 *   --quick        1/16 of the sizes, for a smoke run
 *   --only NAME    only the kernel NAME (vecadd, matmul_tiled, reduce6, blackscholes)
 *   --repeat N     time each engine N times, alternating (-j 1 and -j 2),
 *                  on fresh launches and report the medians (and the -j 1
 *                  spreads).  For a shared machine.
 *   --interp-only  the interpreter alone (no C compiler needed)
 *   --no-j2        no -j 2 runs
 *   --runs         every timed run on stderr, in order (what a spread is made of)
 * WARPSIGHT_JIT_CACHE: the compiled kernels' folder (default ~/.cache/warpsight/jit);
 * WARPSIGHT_JIT_CC: the C compiler.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "warpsight/emu.h"
#include "warpsight/ptx.h"

/* Process CPU time: the machine may be shared, and at -j 1 both the native
 * loop and the emulator run on one thread, so CPU seconds compare fairly. */
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---- native versions (single thread) ------------------------------------------- */

static void native_vecadd(const float *a, const float *b, float *c, int n) {
  for (int i = 0; i < n; i++) c[i] = a[i] + b[i];
}

static void native_matmul(const float *A, const float *B, float *C, int m, int n, int k) {
  for (int i = 0; i < m * n; i++) C[i] = 0.0f;
  for (int i = 0; i < m; i++)
    for (int t = 0; t < k; t++) {
      float a = A[i * k + t];
      const float *b = B + (size_t)t * n;
      float *c = C + (size_t)i * n;
      for (int j = 0; j < n; j++) c[j] += a * b[j];
    }
}

static long long native_reduce(const int *in, int n) {
  long long s = 0;
  for (int i = 0; i < n; i++) s += in[i];
  return s;
}

static float cnd(float d) {
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f, a5 = 1.330274429f;
  float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  float poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
  float c = 0.39894228040143267794f * expf(-0.5f * d * d) * poly;
  return d > 0.0f ? 1.0f - c : c;
}

static void native_bs(const float *S, const float *X, const float *T, float *call, float *put, float r, float v,
                      int n) {
  for (int i = 0; i < n; i++) {
    float s = S[i], x = X[i], t = T[i];
    float sq = sqrtf(t);
    float d1 = (logf(s / x) + (r + 0.5f * v * v) * t) / (v * sq);
    float d2 = d1 - v * sq;
    float c1 = cnd(d1), c2 = cnd(d2);
    float disc = x * expf(-r * t);
    call[i] = s * c1 - disc * c2;
    put[i] = disc * (1.0f - c2) - s * (1.0f - c1);
  }
}

/* ---- harness --------------------------------------------------------------------- */

typedef struct result {
  const char *name;
  double native_s;      /* plain C, CPU seconds (median) */
  double interp_s;      /* interpreter -j 1, CPU seconds (median) */
  double jit_s;         /* translated engine -j 1, CPU seconds (median); NAN: not run */
  double jit2_s;        /* translated engine -j 2, wall seconds (median); NAN: not run */
  double compile_s;     /* translating and compiling (or loading from the cache), wall seconds */
  unsigned long long warp_insts;
  double spread[2];     /* --repeat: (slowest - fastest) / median, interpreter and translated */
  double iwall1;        /* interpreter -j 1, wall seconds (median) */
  double i2_s, i2_cpu;  /* interpreter -j 2: wall seconds, process CPU seconds (both threads; medians) */
  double jwall1;        /* translated engine -j 1, wall seconds (median); NAN: not run */
  double j2_cpu;        /* translated engine -j 2, process CPU seconds (median); NAN: not run */
  int same;             /* the engines' buffers are identical */
} result;

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n, double *spread) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  double m = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  if (spread) *spread = n > 1 ? (v[n - 1] - v[0]) / m : 0;
  return m;
}

static int g_repeat = 1;     /* --repeat: timed runs of each engine (alternating) */
static int g_threads2 = 1;   /* -j 2 runs too (--no-j2 clears it) */
static int g_jit = 1;        /* --interp-only clears it */
static int g_runs = 0;       /* --runs: print every timed run */
static ws_emu_jit *g_j;      /* the translator (NULL: no compiler) */

/* Every page of l's buffers resident, their bytes unchanged (the top
 * comment: the native loops' outputs are touched outside their timing). */
static void touch_buffers(ws_emu_launch *l, const ws_launch_spec *s) {
  for (uint32_t i = 0; i < s->nargs; i++) {
    uint64_t n;
    volatile uint8_t *b = s->args[i].is_buffer ? ws_emu_buffer(l, s->args[i].name, &n) : NULL;
    for (uint64_t k = 0; b && k < n; k += 4096) b[k] = b[k];
  }
}

/* One timed run of a fresh launch with the engine asked for: CPU seconds
 * at -j 1, wall at -j 2; *other (if not NULL) the other one: wall seconds
 * at -j 1, both threads' CPU seconds at -j 2. */
static int run_once(const ws_emu_program *p, const ws_launch_spec *s, int engine, int threads, double *secs,
                    double *other, unsigned long long *insts, ws_emu_launch **keep, ws_diag *d) {
  ws_emu_launch *l = NULL;
  int st = ws_emu_launch_new(&l, p, s, d);
  if (st) return st;
  ws_emu_options o = WS_EMU_OPTIONS_INIT;
  o.max_warp_insts = o.max_launch_insts = 0; /* trusted kernels, measured whole */
  o.threads = threads;
  o.engine = engine;
  ws_emu_stats stats;
  touch_buffers(l, s);
  double c0 = now();
  st = ws_emu_run(l, &o, &stats, d);
  if (threads > 1) { /* the other worker's CPU time counted (the top comment) */
    struct timespec z = {0, 2000000};
    nanosleep(&z, NULL);
  }
  /* -j 1: CPU seconds; -j 2: wall-clock seconds (CPU time would add both threads) */
  *secs = threads == 1 ? now() - c0 : stats.seconds;
  if (other) *other = threads == 1 ? stats.seconds : now() - c0;
  *insts = stats.warp_insts;
  if (g_runs && !st)
    fprintf(stderr, "run: %s -j %d: %.4f s CPU, %.4f s wall\n", engine == WS_EMU_ENGINE_INTERP ? "interp" : "jit",
            threads, threads == 1 ? *secs : (other ? *other : NAN), stats.seconds);
  if (keep && !st) *keep = l;
  else ws_emu_launch_free(l);
  return st;
}

/* Whether the two launches' buffers hold the same bytes. */
static int same_buffers(ws_emu_launch *a, ws_emu_launch *b, const ws_launch_spec *s) {
  for (uint32_t i = 0; i < s->nargs; i++) {
    if (!s->args[i].is_buffer) continue;
    uint64_t na, nb;
    void *x = ws_emu_buffer(a, s->args[i].name, &na), *y = ws_emu_buffer(b, s->args[i].name, &nb);
    if (!x || !y || na != nb || memcmp(x, y, (size_t)na) != 0) return 0;
  }
  return 1;
}

/* Runs `kernel` from the corpus with spec text in both engines (-j 1,
 * alternating, --repeat times) and the native loop on the same inputs. */
static int bench(result *r, const char *file, const char *spec, void (*native)(ws_emu_launch *l, double *secs)) {
  char path[1024];
  snprintf(path, sizeof path, "%s/tests/corpus/ptx/sm_80/%s.ptx", WS_SOURCE_DIR, file);
  ws_diag d = WS_DIAG_INIT;
  ws_ptx_module *m = NULL;
  ws_launch_spec *s = NULL;
  ws_emu_program *p = NULL;
  int st = ws_ptx_parse_file(&m, path, &d);
  if (!st) st = ws_emu_launch_spec_parse(&s, spec, r->name, ".", &d);
  if (!st) st = ws_emu_load(&p, m, s->kernel, &d);
  int jit = 0;
  r->jit_s = r->jit2_s = r->jwall1 = r->j2_cpu = r->compile_s = NAN;
  r->i2_s = r->i2_cpu = NAN;
  r->same = -1;
  if (!st && g_jit && g_j) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ws_diag jd = WS_DIAG_INIT;
    jit = ws_emu_jit_prepare(g_j, p, 0, &jd) == WS_OK;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    r->compile_s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (!jit) {
      char *t = ws_diag_format(&jd);
      fprintf(stderr, "%s: the translated engine is not used: %s\n", r->name, t ? t : "?");
      free(t);
    }
    ws_diag_free(&jd);
  }
  double ti[64], tj[64], tn[64], tw[64], tjw[64], t2[4][64];
  int n = g_repeat < 64 ? g_repeat : 64;
  for (int i = 0; i < n && !st; i++) { /* alternating; the first runs' inputs for the native loop */
    ws_emu_launch *li = NULL, *lj = NULL;
    st = run_once(p, s, WS_EMU_ENGINE_INTERP, 1, &ti[i], &tw[i], &r->warp_insts, i == 0 ? &li : NULL, &d);
    if (!st && jit)
      st = run_once(p, s, WS_EMU_ENGINE_AUTO, 1, &tj[i], &tjw[i], &r->warp_insts, i == 0 ? &lj : NULL, &d);
    if (!st && g_threads2)
      st = run_once(p, s, WS_EMU_ENGINE_INTERP, 2, &t2[0][i], &t2[1][i], &r->warp_insts, NULL, &d);
    if (!st && g_threads2 && jit)
      st = run_once(p, s, WS_EMU_ENGINE_AUTO, 2, &t2[2][i], &t2[3][i], &r->warp_insts, NULL, &d);
    if (li) {
      native(li, &tn[i]);
      for (int k = 1; k < n; k++) native(li, &tn[k]);
      if (lj) r->same = same_buffers(li, lj, s);
    }
    ws_emu_launch_free(li);
    ws_emu_launch_free(lj);
  }
  if (!st) {
    r->native_s = median(tn, n, NULL);
    r->interp_s = median(ti, n, &r->spread[0]);
    r->iwall1 = median(tw, n, NULL);
    if (jit) {
      r->jit_s = median(tj, n, &r->spread[1]);
      r->jwall1 = median(tjw, n, NULL);
    }
    if (g_threads2) {
      r->i2_s = median(t2[0], n, NULL);
      r->i2_cpu = median(t2[1], n, NULL);
    }
    if (g_threads2 && jit) {
      r->jit2_s = median(t2[2], n, NULL);
      r->j2_cpu = median(t2[3], n, NULL);
    }
  }
  if (st) {
    char *t = ws_diag_format(&d);
    fprintf(stderr, "%s: %s\n", r->name, t ? t : "error");
    free(t);
  }
  ws_emu_program_free(p);
  ws_emu_launch_spec_free(s);
  ws_ptx_module_free(m);
  ws_diag_free(&d);
  return st;
}

static int g_scale = 1;

/* The second table: each engine at -j 1 and -j 2 (see the top comment). */
static void print_threads(const result *r, const int *ran) {
  printf("\n%-20s %-6s %8s %8s %8s %8s %8s %8s %7s\n", "kernel", "engine", "j1 wall", "j1 cpu", "j2 wall",
         "j2 cpu", "cpu j2/1", "serial s", "j1/j2");
  for (int i = 0; i < 4; i++) {
    if (!ran[i]) continue;
    for (int e = 0; e < 2; e++) {
      double w1 = e ? r[i].jwall1 : r[i].iwall1, c1 = e ? r[i].jit_s : r[i].interp_s;
      double w2 = e ? r[i].jit2_s : r[i].i2_s, c2 = e ? r[i].j2_cpu : r[i].i2_cpu;
      if (isnan(w2)) continue;
      printf("%-20s %-6s %8.4f %8.4f %8.4f %8.4f %7.2fx %8.4f %6.2fx\n", r[i].name, e ? "jit" : "interp", w1, c1, w2,
             c2, c2 / c1, w2 - c2 / 2, w1 / w2);
    }
  }
  printf("issue 22: -j 2 at least 1.7x faster than -j 1 (j1/j2) on an idle two-core machine; at -j 1 wall and "
         "CPU agree when the machine is idle\n");
}

static void nat_vecadd(ws_emu_launch *l, double *secs) {
  uint64_t n;
  float *a = ws_emu_buffer(l, "a", &n), *b = ws_emu_buffer(l, "b", NULL);
  float *c = malloc(n);
  memset(c, 0, n); /* touch the pages outside the timed region */
  double t0 = now();
  native_vecadd(a, b, c, (int)(n / 4));
  *secs = now() - t0;
  free(c);
}

static void nat_matmul(ws_emu_launch *l, double *secs) {
  float *A = ws_emu_buffer(l, "A", NULL), *B = ws_emu_buffer(l, "B", NULL);
  int N = 1024 / g_scale;
  float *C = malloc((size_t)N * N * sizeof *C);
  memset(C, 0, (size_t)N * N * sizeof *C);
  double t0 = now();
  native_matmul(A, B, C, N, N, N);
  *secs = now() - t0;
  free(C);
}

static volatile long long g_sink;

static void nat_reduce(ws_emu_launch *l, double *secs) {
  uint64_t n;
  int *in = ws_emu_buffer(l, "in", &n);
  double t0 = now();
  g_sink = native_reduce(in, (int)(n / 4));
  *secs = now() - t0;
}

static void nat_bs(ws_emu_launch *l, double *secs) {
  uint64_t n;
  float *S = ws_emu_buffer(l, "S", &n), *X = ws_emu_buffer(l, "X", NULL), *T = ws_emu_buffer(l, "T", NULL);
  int cnt = (int)(n / 4);
  float *c = malloc(n), *p = malloc(n);
  memset(c, 0, n);
  memset(p, 0, n);
  double t0 = now();
  native_bs(S, X, T, c, p, 0.02f, 0.3f, cnt);
  *secs = now() - t0;
  free(c);
  free(p);
}

int main(int argc, char **argv) {
  const char *only = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--quick") == 0) g_scale = 16;
    else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = argv[++i];
    else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) g_repeat = atoi(argv[++i]);
    else if (strcmp(argv[i], "--interp-only") == 0) g_jit = 0;
    else if (strcmp(argv[i], "--no-j2") == 0) g_threads2 = 0;
    else if (strcmp(argv[i], "--runs") == 0) g_runs = 1;
    else {
      fprintf(stderr, "usage: bench_emu [--quick] [--only NAME] [--repeat N] [--interp-only] [--no-j2] [--runs]\n");
      return 2;
    }
  }
  if (g_repeat < 1) g_repeat = 1;
  if (g_jit) {
    ws_diag jd = WS_DIAG_INIT;
    ws_emu_jit_options jo = WS_EMU_JIT_OPTIONS_INIT;
    ws_emu_jit_options_env(&jo);
    if (ws_emu_jit_new(&g_j, &jo, &jd)) {
      char *t = ws_diag_format(&jd);
      fprintf(stderr, "bench_emu: the translated engine is not measured: %s\n", t ? t : "?");
      free(t);
    }
    ws_diag_free(&jd);
  }
  char sv[1024], sm[1024], sr[1024], sb[2048];
  int nv = (1 << 24) / g_scale, N = 1024 / g_scale, nr = (1 << 24) / g_scale, nb = (1 << 22) / g_scale;
  snprintf(sv, sizeof sv,
           "{\"kernel\": \"vecadd\", \"grid\": [%d,1,1], \"block\": [256,1,1], \"args\": ["
           "{\"buffer\": \"a\", \"type\": \"f32\", \"count\": %d, \"init\": {\"random\": {\"seed\": 1, \"min\": 0, \"max\": 1}}},"
           "{\"buffer\": \"b\", \"type\": \"f32\", \"count\": %d, \"init\": {\"random\": {\"seed\": 2, \"min\": 0, \"max\": 1}}},"
           "{\"buffer\": \"c\", \"type\": \"f32\", \"count\": %d},"
           "{\"scalar\": \"n\", \"type\": \"s32\", \"value\": %d}]}",
           nv / 256, nv, nv, nv, nv);
  snprintf(sm, sizeof sm,
           "{\"kernel\": \"matmul_tiled\", \"grid\": [%d,%d,1], \"block\": [16,16,1], \"args\": ["
           "{\"buffer\": \"A\", \"type\": \"f32\", \"count\": %d, \"init\": {\"random\": {\"seed\": 10, \"min\": 0, \"max\": 1}}},"
           "{\"buffer\": \"B\", \"type\": \"f32\", \"count\": %d, \"init\": {\"random\": {\"seed\": 11, \"min\": 0, \"max\": 1}}},"
           "{\"buffer\": \"C\", \"type\": \"f32\", \"count\": %d},"
           "{\"scalar\": \"m\", \"type\": \"s32\", \"value\": %d}, {\"scalar\": \"n\", \"type\": \"s32\", \"value\": %d},"
           "{\"scalar\": \"k\", \"type\": \"s32\", \"value\": %d}]}",
           N / 16, N / 16, N * N, N * N, N * N, N, N, N);
  snprintf(sr, sizeof sr,
           "{\"kernel\": \"reduce6\", \"grid\": [%d,1,1], \"block\": [256,1,1], \"dynamic_shared_bytes\": 1024, \"args\": ["
           "{\"buffer\": \"in\", \"type\": \"s32\", \"count\": %d, \"init\": {\"random\": {\"seed\": 16, \"min\": -1000, \"max\": 1000}}},"
           "{\"buffer\": \"out\", \"type\": \"s32\", \"count\": 1024},"
           "{\"scalar\": \"n\", \"type\": \"s32\", \"value\": %d}]}",
           nr / 256 / 64 > 0 ? nr / 256 / 64 : 1, nr, nr);
  snprintf(sb, sizeof sb,
           "{\"kernel\": \"blackscholes\", \"grid\": [%d,1,1], \"block\": [128,1,1], \"args\": ["
           "{\"buffer\": \"S\", \"type\": \"f32\", \"count\": %d, \"init\": {\"random\": {\"seed\": 12, \"min\": 5, \"max\": 30}}},"
           "{\"buffer\": \"X\", \"type\": \"f32\", \"count\": %d, \"init\": {\"random\": {\"seed\": 13, \"min\": 1, \"max\": 100}}},"
           "{\"buffer\": \"T\", \"type\": \"f32\", \"count\": %d, \"init\": {\"random\": {\"seed\": 14, \"min\": 0.25, \"max\": 10}}},"
           "{\"buffer\": \"call\", \"type\": \"f32\", \"count\": %d}, {\"buffer\": \"put\", \"type\": \"f32\", \"count\": %d},"
           "{\"scalar\": \"r\", \"type\": \"f32\", \"value\": 0.02}, {\"scalar\": \"v\", \"type\": \"f32\", \"value\": 0.3},"
           "{\"scalar\": \"n\", \"type\": \"s32\", \"value\": %d}]}",
           nb / 128, nb, nb, nb, nb, nb, nb);
  result r[4];
  memset(r, 0, sizeof r);
  r[0].name = "vecadd 2^24";
  r[1].name = "matmul_tiled 1024^2";
  r[2].name = "reduce6 2^24";
  r[3].name = "blackscholes 2^22";
  if (g_scale > 1) {
    r[0].name = "vecadd 2^20";
    r[1].name = "matmul_tiled 64^2";
    r[2].name = "reduce6 2^20";
    r[3].name = "blackscholes 2^18";
  }
  const char *files[4] = {"vecadd", "matmul_tiled", "reduce", "blackscholes"};
  const char *specs[4] = {sv, sm, sr, sb};
  void (*natives[4])(ws_emu_launch *, double *) = {nat_vecadd, nat_matmul, nat_reduce, nat_bs};
  int ran[4] = {0}, bad = 0, nran = 0;
  for (int i = 0; i < 4; i++) {
    if (only && strncmp(r[i].name, only, strlen(only)) != 0) continue;
    if (g_runs) fprintf(stderr, "%s\n", r[i].name);
    bad |= bench(&r[i], files[i], specs[i], natives[i]);
    ran[i] = 1;
    nran++;
  }
  ws_emu_jit_free(g_j);
  if (bad) return 1;
  printf("%-20s %12s %10s %10s %10s %8s %8s %9s", "kernel", "warp insts", "native s", "interp s", "jit s", "interp/C",
         "jit/C", "compile s");
  if (g_repeat > 1) printf(" %8s %8s", "spread i", "spread j");
  printf(" same\n");
  double si[4], sj[4];
  int k = 0, kj = 0;
  for (int i = 0; i < 4; i++) {
    if (!ran[i]) continue;
    si[k++] = r[i].interp_s / r[i].native_s;
    if (!isnan(r[i].jit_s)) sj[kj++] = r[i].jit_s / r[i].native_s;
    printf("%-20s %12llu %10.4f %10.3f %10.3f %7.1fx %7.1fx %9.2f", r[i].name, r[i].warp_insts, r[i].native_s,
           r[i].interp_s, r[i].jit_s, si[k - 1], r[i].jit_s / r[i].native_s, r[i].compile_s);
    if (g_repeat > 1) printf(" %7.1f%% %7.1f%%", 100 * r[i].spread[0], 100 * r[i].spread[1]);
    printf(" %s\n", r[i].same < 0 ? "-" : r[i].same ? "yes" : "NO");
    if (r[i].same == 0) bad = 1;
  }
  if (nran == 4) {
    qsort(si, 4, sizeof *si, cmp_double);
    printf("median slowdown against plain C, -j 1 (issue 22: <= 4x median, no kernel above 8x, for what exec "
           "uses): interpreter %.1fx",
           (si[1] + si[2]) / 2);
    if (kj == 4) {
      qsort(sj, 4, sizeof *sj, cmp_double);
      printf(", translated engine %.1fx (largest %.1fx)", (sj[1] + sj[2]) / 2, sj[3]);
    }
    printf("\n");
  }
  if (g_threads2) print_threads(r, ran);
  if (bad) {
    fprintf(stderr, "bench_emu: the engines' outputs differ\n");
    return 1;
  }
  return 0;
}
