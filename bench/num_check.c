/*
 * num_check.c — the long randomized check of the PTX numeric library
 * (src/emu/num.c) against the independent references in tests/unit/num_ref.h,
 * plus the time per call. The unit test runs 20,000 inputs per operation;
 * run this one with many millions before changing the rounding code:
 *
 *   build/bench/bench_num_check [inputs-per-op (default 2000000)] [seed]
 *
 * Exit status 1 when any result differs from the reference.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "num_ref.h"

static const ws_emu_num_rnd MODES[] = {WS_NUM_RN, WS_NUM_RZ, WS_NUM_RM, WS_NUM_RP};
static const char *MODE_NAME[] = {"rn", "rz", "rm", "rp"};

static long mismatches;

static void check(const char *op, int k, uint64_t a, uint64_t b, uint64_t c, uint64_t got,
                  uint64_t want) {
  if (got == want) return;
  if (mismatches < 20)
    printf("MISMATCH %s.%s a=0x%" PRIX64 " b=0x%" PRIX64 " c=0x%" PRIX64 ": got 0x%" PRIX64
           " want 0x%" PRIX64 "\n", op, MODE_NAME[k], a, b, c, got, want);
  mismatches++;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 2000000;
  uint64_t s = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x9E3779B97F4A7C15ull;
  if (n <= 0 || s == 0) {
    fprintf(stderr, "usage: bench_num_check [inputs-per-op > 0] [seed != 0]\n");
    return 2;
  }
  double t0 = now();
  uint32_t prev = 0x3F800000;
  for (long i = 0; i < n; i++) {
    uint32_t a = ref_rand_f32(&s, prev), b = ref_rand_f32(&s, a), c = ref_rand_f32(&s, b);
    prev = c;
    for (int k = 0; k < 4; k++) {
      ws_emu_num_rnd m = MODES[k];
      check("add.f32", k, a, b, c, ws_emu_num_f32_add(a, b, m, 0, 0), ref_f32_add(a, b, m));
      check("mul.f32", k, a, b, c, ws_emu_num_f32_mul(a, b, m, 0, 0), ref_f32_mul(a, b, m));
      check("fma.f32", k, a, b, c, ws_emu_num_f32_fma(a, b, c, m, 0, 0), ref_f32_fma(a, b, c, m));
      check("div.f32", k, a, b, c, ws_emu_num_f32_div(a, b, m, 0), ref_f32_div(a, b, m));
      check("sqrt.f32", k, a, b, c, ws_emu_num_f32_sqrt(a, m, 0), ref_f32_sqrt(a, m));
    }
  }
  double t1 = now();
  printf("f32: %ld inputs x 4 modes x 5 ops checked in %.2f s\n", n, t1 - t0);
#ifdef WS_HAVE_F128
  uint64_t prev64 = 0x3FF0000000000000ull;
  for (long i = 0; i < n; i++) {
    uint64_t a = ref_rand_f64(&s, prev64), b = ref_rand_f64(&s, a), c = ref_rand_f64(&s, b);
    prev64 = c;
    for (int k = 0; k < 4; k++) {
      ws_emu_num_rnd m = MODES[k];
      check("add.f64", k, a, b, c, ws_emu_num_f64_add(a, b, m), ref_f64_add(a, b, m));
      check("mul.f64", k, a, b, c, ws_emu_num_f64_mul(a, b, m), ref_f64_mul(a, b, m));
      check("fma.f64", k, a, b, c, ws_emu_num_f64_fma(a, b, c, m), ref_f64_fma(a, b, c, m));
      check("div.f64", k, a, b, c, ws_emu_num_f64_div(a, b, m), ref_f64_div(a, b, m));
      check("sqrt.f64", k, a, b, c, ws_emu_num_f64_sqrt(a, m), ref_f64_sqrt(a, m));
    }
  }
  double t2 = now();
  printf("f64: %ld inputs x 4 modes x 5 ops checked in %.2f s\n", n, t2 - t1);
  /* Every f32 -> f16 / bf16 conversion is cheap to check exhaustively over a
   * stride of the 2^32 patterns. */
  static ref_h th, tb;
  ref_h_init(&th, 10, 5);
  ref_h_init(&tb, 7, 8);
  long conv = 0;
  for (uint64_t u = 0; u < (1ull << 32); u += 4099) {
    float f = bitsf((uint32_t)u);
    if (isnan(f) || isinf(f)) continue;
    for (int k = 0; k < 4; k++) {
      check("cvt.f16.f32", k, u, 0, 0, ws_emu_num_cvt(u, WS_NUM_F32, WS_NUM_F16, MODES[k], 0, 0),
            ref_h_round(&th, (ref_q)f, MODES[k]));
      check("cvt.bf16.f32", k, u, 0, 0, ws_emu_num_cvt(u, WS_NUM_F32, WS_NUM_BF16, MODES[k], 0, 0),
            ref_h_round(&tb, (ref_q)f, MODES[k]));
    }
    conv++;
  }
  printf("cvt f32 -> f16/bf16: %ld patterns x 4 modes checked in %.2f s\n", conv, now() - t2);
#endif
  /* Speed of the common per-lane calls (RN, no checking). */
  volatile uint32_t sink = 0;
  uint32_t x = 0x3F8CCCCD, y = 0x40490FDB;
  double t3 = now();
  for (long i = 0; i < 10000000; i++) sink += ws_emu_num_f32_fma(x + (uint32_t)i, y, x, WS_NUM_RN, 0, 0);
  double t4 = now();
  for (long i = 0; i < 10000000; i++) sink += ws_emu_num_f32_add(x + (uint32_t)i, y, WS_NUM_RN, 0, 0);
  double t5 = now();
  if (sink == 1) printf("(sink)\n"); /* keeps the loops alive */
  printf("speed: fma.rn.f32 %.1f ns/call, add.rn.f32 %.1f ns/call\n", (t4 - t3) * 100, (t5 - t4) * 100);
  printf("%ld mismatches\n", mismatches);
  return mismatches ? 1 : 0;
}
