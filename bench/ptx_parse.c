/*
 * ptx_parse.c — throughput of the PTX front end.
 *
 * Builds a PTX file of at least 10 MB (or the size given as argv[1] in MB)
 * by replicating real nvcc output (the _sm80 files of tests/ptx and the
 * files of tests/analysis) with every module-level symbol renamed per copy,
 * writes it to a temporary file, then reports:
 *   - parse:            read nothing, parse the buffer (best of 3 runs)
 *   - parse + analyze:  the same plus ws_analysis_build on every function body
 * in MB/s of this thread's CPU time (one core; wall time is printed too,
 * and is larger on a loaded machine).  Figures only; nothing is asserted.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "warpsight/analysis.h"
#include "warpsight/ptx.h"

typedef struct buf {
  char *p;
  size_t len, cap;
} buf;

static int append(buf *b, const char *s, size_t n) {
  if (n > ((size_t)1 << 40)) return -1;
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 1 << 20;
    while (cap < b->len + n + 1) cap *= 2;
    char *np = realloc(b->p, cap);
    if (!np) return -1;
    b->p = np;
    b->cap = cap;
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
  b->p[b->len] = '\0';
  return 0;
}

/* CPU time of this thread: the figure for "one core" that other processes
 * on a loaded machine do not distort.  Wall time is printed beside it. */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double wall(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int is_id(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || c == '$';
}

/* Append `src` with every identifier in `names` suffixed by "_r<copy>". */
static int append_renamed(buf *out, const char *src, size_t len, const ws_ptx_module *m,
                          int copy) {
  size_t i = 0;
  char suffix[32];
  snprintf(suffix, sizeof suffix, "_r%d", copy);
  while (i < len) {
    if (is_id((unsigned char)src[i]) && (i == 0 || (!is_id((unsigned char)src[i - 1]) &&
                                                    src[i - 1] != '%'))) {
      size_t j = i;
      while (j < len && is_id((unsigned char)src[j])) j++;
      int hit = 0;
      for (uint32_t k = 0; k < m->nvars && !hit; k++)
        hit = strlen(m->vars[k].name) == j - i && memcmp(m->vars[k].name, src + i, j - i) == 0;
      for (uint32_t k = 0; k < m->nfuncs && !hit; k++)
        hit = strlen(m->funcs[k].name) == j - i && memcmp(m->funcs[k].name, src + i, j - i) == 0;
      if (append(out, src + i, j - i) < 0) return -1;
      if (hit && append(out, suffix, strlen(suffix)) < 0) return -1;
      i = j;
      continue;
    }
    if (append(out, src + i, 1) < 0) return -1;
    i++;
  }
  return 0;
}

/* Offset just past the ".address_size" line (the module header). */
static size_t header_end(const char *s) {
  const char *p = strstr(s, ".address_size");
  if (!p) return 0;
  p = strchr(p, '\n');
  return p ? (size_t)(p - s) + 1 : 0;
}

int main(int argc, char **argv) {
  double target_mb = argc > 1 ? atof(argv[1]) : 10.0;
  if (target_mb <= 0) target_mb = 10.0;
  const char *dirs[] = {WS_SOURCE_DIR "/tests/ptx", WS_SOURCE_DIR "/tests/analysis"};
  char *srcs[32];
  size_t lens[32];
  ws_ptx_module *mods[32];
  int n = 0;
  ws_diag d = WS_DIAG_INIT;
  for (int di = 0; di < 2; di++) {
    DIR *dir = opendir(dirs[di]);
    if (!dir) continue;
    struct dirent *e;
    while ((e = readdir(dir)) && n < 32) {
      size_t l = strlen(e->d_name);
      int want = di == 0 ? (l > 9 && strcmp(e->d_name + l - 9, "_sm80.ptx") == 0 &&
                            !strstr(e->d_name, "debug"))
                         : (l > 4 && strcmp(e->d_name + l - 4, ".ptx") == 0);
      if (!want) continue;
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", dirs[di], e->d_name);
      if (ws_read_file(&srcs[n], &lens[n], path, &d) != WS_OK) continue;
      if (ws_ptx_parse(&mods[n], srcs[n], lens[n], path, &d) != WS_OK) {
        free(srcs[n]);
        continue;
      }
      printf("kernel source: %s (%zu bytes)\n", e->d_name, lens[n]);
      n++;
    }
    closedir(dir);
  }
  if (n == 0) {
    fprintf(stderr, "ptx_parse: no input PTX found under %s\n", WS_SOURCE_DIR);
    return 1;
  }
  buf big = {NULL, 0, 0};
  size_t target = (size_t)(target_mb * 1024 * 1024);
  size_t h0 = header_end(srcs[0]);
  if (append(&big, srcs[0], h0) < 0) return 1;
  int copies = 0;
  while (big.len < target) {
    for (int i = 0; i < n && big.len < target; i++) {
      size_t h = header_end(srcs[i]);
      if (append_renamed(&big, srcs[i] + h, lens[i] - h, mods[i], copies * 32 + i) < 0) return 1;
    }
    copies++;
  }
  char path[] = "/tmp/ws-bench-XXXXXX";
  int fd = mkstemp(path);
  if (fd >= 0) {
    FILE *f = fdopen(fd, "w");
    if (f) {
      fwrite(big.p, 1, big.len, f);
      fclose(f);
    }
    printf("generated %s: %.1f MB, %d copies of %d files\n", path, big.len / 1048576.0,
           copies, n);
  }
  double mb = big.len / 1048576.0;
  double best_parse = 1e9, best_all = 1e9, best_wall = 1e9;
  uint64_t insts = 0;
  uint32_t funcs = 0;
  for (int run = 0; run < 3; run++) {
    ws_ptx_module *m = NULL;
    double w0 = wall();
    double t0 = now();
    int r = ws_ptx_parse(&m, big.p, big.len, path, &d);
    double t1 = now();
    if (r != WS_OK) {
      char *s = ws_diag_format(&d);
      fprintf(stderr, "parse failed:\n%s", s ? s : "");
      free(s);
      return 1;
    }
    insts = 0;
    funcs = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
      if (!m->funcs[i].has_body) continue;
      ws_cfg *c = NULL;
      if (ws_analysis_build(&c, m, &m->funcs[i], &d) != WS_OK) return 1;
      insts += m->funcs[i].ninsts;
      funcs++;
      ws_analysis_free(c);
    }
    double t2 = now();
    double w2 = wall();
    if (w2 - w0 < best_wall) best_wall = w2 - w0;
    if (t1 - t0 < best_parse) best_parse = t1 - t0;
    if (t2 - t0 < best_all) best_all = t2 - t0;
    ws_ptx_module_free(m);
  }
  printf("%u functions, %llu instructions\n", funcs, (unsigned long long)insts);
  printf("parse:           %.3f s CPU  %.1f MB/s\n", best_parse, mb / best_parse);
  printf("parse + analyze: %.3f s CPU  %.1f MB/s  (wall %.3f s, %.1f MB/s)\n", best_all,
         mb / best_all, best_wall, mb / best_wall);
  if (!getenv("WS_BENCH_KEEP")) remove(path); /* WS_BENCH_KEEP=1 keeps it for profiling */
  for (int i = 0; i < n; i++) {
    free(srcs[i]);
    ws_ptx_module_free(mods[i]);
  }
  free(big.p);
  ws_diag_free(&d);
  return 0;
}
