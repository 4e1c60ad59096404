/*
 * tests/ref/ref.h — plumbing shared by the C reference programs of the
 * kernel corpus (one program per tests/corpus kernel, tests/ref/<name>.c).
 *
 * A reference program rebuilds its kernel's inputs exactly as the launch
 * spec tests/corpus/launch/<name>[.<variant>].json describes them (same
 * sizes, same seeds, the generator of emu/rng.h), computes the
 * expected outputs in plain single-threaded C, and compares them with the
 * files the emulator wrote:
 *
 *   ref_<name> [--variant V] OUT_DIR                   compare
 *   ref_<name> [--variant V] --write-expected OUT_DIR  write the expected files
 *
 * Exit status: 0 all outputs match, 1 a mismatch, 2 an output file is
 * missing or short (or bad usage). Output files are raw little-endian
 * element arrays; this code assumes a little-endian host and says so when
 * it is not.
 *
 * Floating comparisons pass when |got - expected| <= atol + rtol * scale,
 * where scale is |expected| or a per-element magnitude the caller supplies;
 * each program states and justifies its tolerances (see
 * docs/reference-tolerances.md). Integers and half-precision bit patterns
 * are compared exactly. Every function here is static inline so that each
 * program compiles alone without unused-function warnings.
 */
#ifndef WS_TESTS_REF_H
#define WS_TESTS_REF_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/rng.h"

typedef struct {
  const char *prog;      /* argv[0], for messages */
  const char *out_dir;   /* folder holding (or receiving) the output files */
  const char *variant;   /* --variant value, NULL when none was given */
  int write_expected;    /* 1: write expected files instead of comparing */
  int status;            /* worst result so far: 0 match, 1 mismatch, 2 missing */
} ref_ctx;

static inline void ref_usage(const char *prog, const char *const *variants) {
  fprintf(stderr, "usage: %s [--variant V] [--write-expected] OUT_DIR\n", prog);
  if (variants) {
    fprintf(stderr, "variants:");
    for (; *variants; variants++)
      fprintf(stderr, " %s", *variants);
    fprintf(stderr, "\n");
  }
  exit(2);
}

/* Parses the command line. variants: NULL-terminated list of accepted
 * --variant values (the first is the default), or NULL for a kernel with a
 * single launch spec. */
static inline void ref_init(ref_ctx *c, int argc, char **argv, const char *const *variants) {
  uint32_t probe = 1;
  memset(c, 0, sizeof *c);
  c->prog = argv[0];
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--write-expected") == 0)
      c->write_expected = 1;
    else if (strcmp(argv[i], "--variant") == 0 && i + 1 < argc)
      c->variant = argv[++i];
    else if (strcmp(argv[i], "--help") == 0 || argv[i][0] == '-' || c->out_dir)
      ref_usage(c->prog, variants);
    else
      c->out_dir = argv[i];
  }
  if (!c->out_dir)
    ref_usage(c->prog, variants);
  if (*(unsigned char *)&probe != 1) {
    fprintf(stderr, "%s: output files are little-endian; this host is not\n", c->prog);
    exit(2);
  }
  if (variants) {
    if (!c->variant)
      c->variant = variants[0];
    const char *const *v = variants;
    while (*v && strcmp(*v, c->variant) != 0)
      v++;
    if (!*v) {
      fprintf(stderr, "%s: unknown variant '%s'\n", c->prog, c->variant);
      ref_usage(c->prog, variants);
    }
  } else if (c->variant) {
    fprintf(stderr, "%s: this kernel has no variants\n", c->prog);
    exit(2);
  }
}

static inline int ref_is(const ref_ctx *c, const char *variant) {
  return c->variant && strcmp(c->variant, variant) == 0;
}

static inline void ref_note(ref_ctx *c, int status) {
  if (status > c->status)
    c->status = status;
}

/* Finishes the run: prints the verdict and returns the exit status. */
static inline int ref_finish(ref_ctx *c) {
  if (c->write_expected) {
    printf("%s: expected outputs written to %s\n", c->prog, c->out_dir);
    return c->status;
  }
  printf("%s: %s\n", c->prog, c->status == 0 ? "PASS" : c->status == 1 ? "FAIL (mismatch)" : "FAIL (missing output)");
  return c->status;
}

static inline void *ref_alloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  return p;
}

/* ---- launch-spec initialisers ("random", see emu/rng.h) ---------- */

static inline void ref_random_f32(float *d, size_t n, uint64_t seed, double lo, double hi) {
  uint64_t s = seed;
  for (size_t i = 0; i < n; i++)
    d[i] = (float)ws_rng_real(&s, lo, hi); /* double -> float: round to nearest even */
}

static inline void ref_random_f64(double *d, size_t n, uint64_t seed, double lo, double hi) {
  uint64_t s = seed;
  for (size_t i = 0; i < n; i++)
    d[i] = ws_rng_real(&s, lo, hi);
}

static inline void ref_random_s32(int32_t *d, size_t n, uint64_t seed, int64_t lo, int64_t hi) {
  uint64_t s = seed;
  for (size_t i = 0; i < n; i++)
    d[i] = (int32_t)ws_rng_int(&s, lo, hi);
}

static inline void ref_random_u32(uint32_t *d, size_t n, uint64_t seed, int64_t lo, int64_t hi) {
  uint64_t s = seed;
  for (size_t i = 0; i < n; i++)
    d[i] = (uint32_t)ws_rng_int(&s, lo, hi);
}

static inline void ref_random_u8(uint8_t *d, size_t n, uint64_t seed, int64_t lo, int64_t hi) {
  uint64_t s = seed;
  for (size_t i = 0; i < n; i++)
    d[i] = (uint8_t)ws_rng_int(&s, lo, hi);
}

/* IEEE binary16 bits nearest to x (round to nearest, ties to even;
 * overflow to infinity). Exact scaling by powers of two in double, then one
 * rint() in the default rounding mode, so only one rounding happens. */
static inline uint16_t ref_f16_from_double(double x) {
  uint16_t sign = signbit(x) ? 0x8000u : 0u;
  x = fabs(x);
  if (isnan(x))
    return 0x7e00u;
  if (x >= 65520.0) /* halfway between 65504 and 2^16 ties to the even 2^16: inf */
    return (uint16_t)(sign | 0x7c00u);
  if (x < 0x1p-14) /* subnormal: units of 2^-24; 1024 units is the smallest normal */
    return (uint16_t)(sign | (uint16_t)rint(ldexp(x, 24)));
  int e;
  (void)frexp(x, &e);          /* x in [2^(e-1), 2^e) */
  int E = e - 1;
  double q = rint(ldexp(x, 10 - E)); /* 11-bit significand in [1024, 2048] */
  if (q >= 2048.0) {
    q = 1024.0;
    E++;
  }
  if (E > 15)
    return (uint16_t)(sign | 0x7c00u);
  return (uint16_t)(sign | (uint16_t)((E + 15) << 10) | (uint16_t)(q - 1024.0));
}

static inline double ref_f16_to_double(uint16_t h) {
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  double v;
  if (e == 0)
    v = ldexp(m, -24);
  else if (e == 31)
    v = m ? NAN : INFINITY;
  else
    v = ldexp(m + 1024, e - 25);
  return (h & 0x8000u) ? -v : v;
}

static inline void ref_random_f16(uint16_t *d, size_t n, uint64_t seed, double lo, double hi) {
  uint64_t s = seed;
  for (size_t i = 0; i < n; i++)
    d[i] = ref_f16_from_double(ws_rng_real(&s, lo, hi));
}

/* ---- output files ------------------------------------------------------ */

static inline void ref_path(char *buf, size_t size, const ref_ctx *c, const char *name) {
  snprintf(buf, size, "%s/%s", c->out_dir, name);
}

/* Writes (write-expected mode) or reads `name` as n elements of `size`
 * bytes. Returns a malloc'd copy of the file's elements, or NULL after
 * recording status 2 (missing/short) or 1 (longer than expected). */
static inline void *ref_load(ref_ctx *c, const char *name, const void *expected, size_t n, size_t size) {
  char path[4096];
  ref_path(path, sizeof path, c, name);
  if (c->write_expected) {
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(expected, size, n, f) != n || fclose(f) != 0) {
      fprintf(stderr, "%s: cannot write %s\n", c->prog, path);
      ref_note(c, 2);
    }
    return NULL;
  }
  FILE *f = fopen(path, "rb");
  if (!f) {
    printf("%s: missing output %s\n", name, path);
    ref_note(c, 2);
    return NULL;
  }
  void *got = ref_alloc(n + 1, size);
  size_t r = fread(got, size, n + 1, f);
  fclose(f);
  if (r < n) {
    printf("%s: short output: %zu of %zu elements\n", name, r, n);
    ref_note(c, 2);
    free(got);
    return NULL;
  }
  if (r > n) {
    printf("%s: output longer than the expected %zu elements\n", name, n);
    ref_note(c, 1);
    free(got);
    return NULL;
  }
  return got;
}

/* Floating comparison: element i passes when
 *   |got - exp| <= atol + rtol * (scale ? scale[i] : |exp|)
 * and NaN matches only NaN. Prints the largest error and the mismatches. */
static inline void ref_check_real(ref_ctx *c, const char *name, const double *exp, const double *got,
                                  size_t n, double atol, double rtol, const double *scale) {
  double max_abs = 0, max_rel = 0;
  size_t bad = 0, worst = 0;
  for (size_t i = 0; i < n; i++) {
    double e = exp[i], g = got[i];
    double err = (isnan(e) || isnan(g)) ? (isnan(e) && isnan(g) ? 0 : INFINITY) : fabs(g - e);
    double tol = atol + rtol * (scale ? scale[i] : fabs(e));
    if (err > max_abs) {
      max_abs = err;
      worst = i;
    }
    if (e != 0 && err / fabs(e) > max_rel)
      max_rel = err / fabs(e);
    if (!(err <= tol)) {
      if (bad < 5)
        printf("%s[%zu]: got %.9g expected %.9g (error %.3g > tolerance %.3g)\n", name, i, g, e, err, tol);
      bad++;
    }
  }
  printf("%s: %zu elements, max abs error %.3g (at %zu), max rel error %.3g, tolerance atol %.3g rtol %.3g%s, %zu mismatches\n",
         name, n, max_abs, worst, max_rel, atol, rtol, scale ? " (scaled)" : "", bad);
  if (bad)
    ref_note(c, 1);
}

static inline void ref_check_f32(ref_ctx *c, const char *name, const float *exp, size_t n, double atol,
                                 double rtol, const double *scale) {
  float *got = ref_load(c, name, exp, n, sizeof *exp);
  if (!got)
    return;
  double *e = ref_alloc(n, sizeof *e), *g = ref_alloc(n, sizeof *g);
  for (size_t i = 0; i < n; i++) {
    e[i] = exp[i];
    g[i] = got[i];
  }
  ref_check_real(c, name, e, g, n, atol, rtol, scale);
  free(e);
  free(g);
  free(got);
}

static inline void ref_check_f64(ref_ctx *c, const char *name, const double *exp, size_t n, double atol,
                                 double rtol, const double *scale) {
  double *got = ref_load(c, name, exp, n, sizeof *exp);
  if (!got)
    return;
  ref_check_real(c, name, exp, got, n, atol, rtol, scale);
  free(got);
}

/* Exact comparison of n elements of `size` bytes (integers, f16 bits). */
static inline void ref_check_exact(ref_ctx *c, const char *name, const void *exp, size_t n, size_t size) {
  unsigned char *got = ref_load(c, name, exp, n, size);
  if (!got)
    return;
  const unsigned char *e = exp;
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) {
    if (memcmp(got + i * size, e + i * size, size) != 0) {
      if (bad < 5) {
        uint64_t gv = 0, ev = 0;
        memcpy(&gv, got + i * size, size < 8 ? size : 8);
        memcpy(&ev, e + i * size, size < 8 ? size : 8);
        printf("%s[%zu]: got 0x%llx (%lld) expected 0x%llx (%lld)\n", name, i, (unsigned long long)gv,
               (long long)gv, (unsigned long long)ev, (long long)ev);
      }
      bad++;
    }
  }
  printf("%s: %zu elements compared exactly, %zu mismatches\n", name, n, bad);
  if (bad)
    ref_note(c, 1);
  free(got);
}

#endif
