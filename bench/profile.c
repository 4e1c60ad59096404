/*
 * bench/profile.c — what profiling costs.
 *
 *  1. Profiling every block vs plain emulation (no hooks), on every launch
 *     spec of the corpus (tests/corpus/launch, the sm_80 PTX), median of 5
 *     runs of each, the runs of the four kinds interleaved.  "hooks" is the
 *     profiler on the emulator's hooks, its set-up (ws_prof_new) outside
 *     the timing; "finish" is ws_prof_finish alone (merging the workers,
 *     the replay's end, the JSON document), which does not grow with the
 *     launch; "one call" is ws_prof_launch, set-up and finish included.
 *     The ratio is hooks / plain (the goal: <= 2, issue 22); "with finish"
 *     is (hooks + finish) / plain.  One emulator thread by default: process
 *     CPU seconds (the machine may be shared); with -j N, wall seconds.
 *  2. --sample-blocks 64 on a homogeneous kernel (vecadd, 256 threads per
 *     block) from 2^10 to 2^16 blocks: the sampled profile's time should
 *     stay flat while its per-warp figures stay within 1 % of the full
 *     profile's.
 *
 * Usage: build/bench/bench_profile [-j N] [--runs R] [--only NAME]
 *   (prints the figures; never fails on them)
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "warpsight/emu.h"
#include "warpsight/gpu.h"
#include "warpsight/profiler.h"
#include "warpsight/ptx.h"

static int g_cpu = 1; /* time in process CPU seconds (one emulator thread) */

static double now(void) {
  struct timespec t;
  clock_gettime(g_cpu ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct ctx {
  ws_prof *p;
  uint64_t total, sample;
} ctx;

static void on_inst(void *u, const ws_emu_event *ev) { ws_prof_inst(((ctx *)u)->p, ev); }
static void on_nothing(void *u, const ws_emu_event *ev) {
  (void)u;
  (void)ev;
}
static void on_begin(void *u, int w, uint32_t b) { ws_prof_block_begin(((ctx *)u)->p, w, b); }
static void on_end(void *u, int w, uint32_t b) { ws_prof_block_end(((ctx *)u)->p, w, b); }
static int on_filter(void *u, uint32_t b) {
  ctx *c = u;
  return ws_prof_sampled(c->p, b) ? WS_EMU_BLOCK_HOOKED : WS_EMU_BLOCK_SKIP;
}

/* One run: plain (profile = 0), an empty hook (2), the profiler on the
 * hooks with its set-up outside the timing (1), or the whole one-call
 * ws_prof_launch, set-up and finish included (3); returns seconds (for 1:
 * of the run alone, and *fin those of ws_prof_finish), the profile
 * through *out when profiled. */
static double run(const ws_ptx_module *m, const ws_launch_spec *s, const ws_gpu *g, int threads,
                  int profile, uint64_t sample, ws_profile **out, double *fin) {
  ws_diag d = WS_DIAG_INIT;
  ws_emu_program *prog = NULL;
  ws_emu_launch *L = NULL;
  if (ws_emu_load(&prog, m, s->kernel, &d) || ws_emu_launch_new(&L, prog, s, &d)) {
    char *t = ws_diag_format(&d);
    fprintf(stderr, "%s\n", t ? t : "load failed");
    free(t);
    exit(2);
  }
  ws_emu_options o = WS_EMU_OPTIONS_INIT;
  o.max_warp_insts = o.max_launch_insts = 0; /* trusted kernels, measured whole */
  o.threads = threads;
  ws_prof *p = NULL;
  ctx c = {NULL, (uint64_t)s->grid[0] * s->grid[1] * s->grid[2], sample};
  ws_emu_hooks h;
  memset(&h, 0, sizeof h);
  if (profile == 2) { /* the emulator's own cost of calling a hook */
    h.inst = on_nothing;
    h.runs = 1; /* the events the profiler gets */
    o.hooks = &h;
  } else if (profile == 1) {
    ws_prof_config pc;
    memset(&pc, 0, sizeof pc);
    pc.module = m;
    pc.kernel = ws_emu_program_kernel(prog);
    pc.gpu = g;
    memcpy(pc.grid, s->grid, sizeof pc.grid);
    memcpy(pc.block, s->block, sizeof pc.block);
    pc.workers = threads;
    pc.sample_blocks = sample;
    pc.resources.registers_per_thread = pc.resources.shared_bytes_per_block = NAN;
    pc.resources.local_bytes_per_thread = NAN;
    ws_prof_new(&p, &pc, &d);
    c.p = p;
    h.user = &c;
    h.inst = on_inst;
    h.block_begin = on_begin;
    h.block_end = on_end;
    h.block_filter = sample ? on_filter : NULL;
    h.runs = 1; /* as ws_prof_launch: one event per run of plain instructions */
    o.hooks = &h;
  }
  ws_prof_options po = WS_PROF_OPTIONS_INIT;
  po.max_warp_insts = po.max_launch_insts = 0; /* trusted kernels, measured whole */
  po.threads = threads;
  po.sample_blocks = sample;
  ws_prof_target tg = {m, prog, L, {s->grid[0], s->grid[1], s->grid[2]},
                       {s->block[0], s->block[1], s->block[2]}, s->dynamic_shared, NULL};
  double t0 = now();
  int st = profile == 3 ? ws_prof_launch(out, NULL, &tg, g, &po, &d) : ws_emu_run(L, &o, NULL, &d);
  double t1 = now();
  if (!st && p) st = ws_prof_finish(p, out, &d);
  double t = profile == 1 ? t1 - t0 : now() - t0;
  if (fin) *fin = now() - t1;
  if (st) {
    char *txt = ws_diag_format(&d);
    fprintf(stderr, "%s\n", txt ? txt : "run failed");
    free(txt);
    exit(2);
  }
  ws_prof_free(p);
  ws_emu_launch_free(L);
  ws_emu_program_free(prog);
  ws_diag_free(&d);
  return t;
}

static ws_ptx_module *parse(const char *rel) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", WS_SOURCE_DIR, rel);
  ws_diag d = WS_DIAG_INIT;
  ws_ptx_module *m = NULL;
  if (ws_ptx_parse_file(&m, path, &d)) {
    fprintf(stderr, "cannot parse %s\n", path);
    exit(2);
  }
  ws_diag_free(&d);
  return m;
}

static double best_of(int n, const ws_ptx_module *m, const ws_launch_spec *s, const ws_gpu *g,
                      int threads, int profile, uint64_t sample, ws_profile **out) {
  double best = INFINITY;
  for (int i = 0; i < n; i++) {
    ws_profile *p = NULL;
    double t = run(m, s, g, threads, profile, sample, &p, NULL);
    if (t < best) best = t;
    if (out && !*out) *out = p;
    else ws_profile_free(p);
  }
  return best;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The corpus's launch specs (file names), sorted; *n their count. */
static char **corpus_specs(size_t *n) {
  char dir[1024];
  snprintf(dir, sizeof dir, "%s/tests/corpus/launch", WS_SOURCE_DIR);
  DIR *dp = opendir(dir);
  char **v = NULL;
  size_t cap = 0;
  *n = 0;
  if (!dp) return NULL;
  for (struct dirent *e; (e = readdir(dp));) {
    size_t len = strlen(e->d_name);
    if (len < 6 || strcmp(e->d_name + len - 5, ".json")) continue;
    if (*n == cap) {
      cap = cap ? 2 * cap : 64;
      char **nv = calloc(cap, sizeof *nv);
      if (!nv) exit(2);
      if (v) memcpy(nv, v, *n * sizeof *v);
      free(v);
      v = nv;
    }
    v[(*n)++] = strdup(e->d_name);
  }
  closedir(dp);
  qsort(v, *n, sizeof *v, cmp_str);
  return v;
}

/* Section 1 for one spec: median of `runs` interleaved runs of each kind. */
static void cost_row(const char *file, const ws_gpu *g, int threads, int runs, double *ratio_out) {
  char name[256], sp[1024];
  snprintf(name, sizeof name, "%s", file);
  name[strlen(name) - 5] = '\0'; /* NAME[.VARIANT] */
  char *dot = strchr(name, '.');
  char ptx[300];
  snprintf(ptx, sizeof ptx, "tests/corpus/ptx/sm_80/%.*s.ptx", dot ? (int)(dot - name) : (int)strlen(name), name);
  snprintf(sp, sizeof sp, "%s/tests/corpus/launch/%s", WS_SOURCE_DIR, file);
  ws_ptx_module *m = parse(ptx);
  ws_diag d = WS_DIAG_INIT;
  ws_launch_spec *s = NULL;
  if (ws_emu_launch_spec_load(&s, sp, &d)) exit(2);
  double tp[64], te[64], tq[64], tf[64], tc[64];
  for (int i = 0; i < runs; i++) {
    tp[i] = run(m, s, g, threads, 0, 0, NULL, NULL);
    te[i] = run(m, s, g, threads, 2, 0, NULL, NULL);
    ws_profile *pr = NULL;
    tq[i] = run(m, s, g, threads, 1, 0, &pr, &tf[i]);
    ws_profile_free(pr);
    pr = NULL;
    tc[i] = run(m, s, g, threads, 3, 0, &pr, NULL);
    ws_profile_free(pr);
  }
  double p = median(tp, runs), e = median(te, runs), q = median(tq, runs), f = median(tf, runs),
         c = median(tc, runs);
  printf("%-24s %10.5f %10.5f %10.5f %10.5f %10.5f %7.2f %7.2f\n", name, p, e, q, f, c, q / p, (q + f) / p);
  *ratio_out = q / p;
  ws_emu_launch_spec_free(s);
  ws_ptx_module_free(m);
  ws_diag_free(&d);
}

static double rel(double a, double b) { return b != 0 ? fabs(a - b) / fabs(b) : fabs(a); }

int main(int argc, char **argv) {
  int threads = 1, runs = 5;
  const char *only = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-j") && i + 1 < argc) threads = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else {
      fprintf(stderr, "usage: bench_profile [-j N] [--runs R] [--only NAME]\n");
      return 2;
    }
  }
  if (threads < 1) threads = 1;
  if (runs < 1) runs = 1;
  if (runs > 64) runs = 64;
  g_cpu = threads == 1;
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g = NULL;
  if (ws_gpu_load(&g, "a100", &d)) return 2;

  printf("1. profiling cost, every block profiled, %d emulator thread(s) (%s seconds), A100, median of %d\n",
         threads, g_cpu ? "process CPU" : "wall", runs);
  printf("%-24s %10s %10s %10s %10s %10s %7s %7s\n", "spec", "plain s", "empty hook", "hooks s", "finish s",
         "one call s", "ratio", "+finish");
  size_t nspec = 0;
  char **specs = corpus_specs(&nspec);
  double worst_ratio = 0;
  char worst_name[256] = "-";
  for (size_t i = 0; i < nspec; i++) {
    if (!only || !strncmp(specs[i], only, strlen(only))) {
      double r = 0;
      cost_row(specs[i], g, threads, runs, &r);
      if (r > worst_ratio) {
        worst_ratio = r;
        snprintf(worst_name, sizeof worst_name, "%s", specs[i]);
      }
    }
  }
  printf("largest ratio (hooks / plain): %.2f (%s)\n", worst_ratio, worst_name);
  for (size_t i = 0; i < nspec; i++) free(specs[i]);
  free(specs);
  if (only) {
    ws_gpu_free(g);
    ws_diag_free(&d);
    return 0;
  }

  printf("\n2. --sample-blocks 64 on vecadd (256 threads per block), A100, %d thread(s)\n", threads);
  printf("%8s %10s %10s %10s %10s  %s\n", "blocks", "full s", "sampled s", "plain s", "empty hook",
         "largest relative difference of a per-warp figure");
  ws_ptx_module *m = parse("tests/corpus/ptx/sm_80/vecadd.ptx");
  for (int e = 10; e <= 16; e += 2) {
    uint64_t blocks = 1ull << e, n = blocks * 256;
    char text[1024];
    snprintf(text, sizeof text,
             "{\"kernel\": \"vecadd\", \"grid\": [%llu, 1, 1], \"block\": [256, 1, 1],"
             " \"args\": [{\"buffer\": \"a\", \"type\": \"f32\", \"count\": %llu, \"init\": {\"iota\": {\"start\": 0, \"step\": 1}}},"
             " {\"buffer\": \"b\", \"type\": \"f32\", \"count\": %llu, \"init\": \"zero\"},"
             " {\"buffer\": \"c\", \"type\": \"f32\", \"count\": %llu, \"init\": \"zero\"},"
             " {\"scalar\": \"n\", \"type\": \"s32\", \"value\": %llu}]}",
             (unsigned long long)blocks, (unsigned long long)n, (unsigned long long)n,
             (unsigned long long)n, (unsigned long long)n);
    ws_launch_spec *s = NULL;
    if (ws_emu_launch_spec_parse(&s, text, "bench", ".", &d)) return 2;
    ws_profile *full = NULL, *samp = NULL;
    double tf = run(m, s, g, threads, 1, 0, &full, NULL);
    double ts = best_of(3, m, s, g, threads, 1, 64, &samp);
    double tp = run(m, s, g, threads, 0, 0, NULL, NULL);
    double te = run(m, s, g, threads, 2, 0, NULL, NULL);
    double worst = 0;
    const char *which = "";
    for (size_t i = 0; i < ws_profile_field_count; i++) {
      const ws_profile_field_info *fi = &ws_profile_field_table[i];
      if (strcmp(fi->section, "per_warp") && strcmp(fi->section, "memory") &&
          strcmp(fi->section, "parallelism") && strcmp(fi->section, "divergence"))
        continue;
      double a = *(const double *)((const char *)&samp->f + fi->offset);
      double b = *(const double *)((const char *)&full->f + fi->offset);
      if (isnan(a) && isnan(b)) continue;
      double r = rel(a, b);
      if (isnan(r) || r > worst) worst = isnan(r) ? INFINITY : r, which = fi->key;
    }
    printf("%8llu %10.4f %10.4f %10.4f %10.4f  %.3g %% (%s)\n", (unsigned long long)blocks, tf, ts, tp, te,
           100 * worst, *which ? which : "-");
    ws_profile_free(full);
    ws_profile_free(samp);
    ws_emu_launch_spec_free(s);
  }
  ws_ptx_module_free(m);
  ws_gpu_free(g);
  ws_diag_free(&d);
  return 0;
}
