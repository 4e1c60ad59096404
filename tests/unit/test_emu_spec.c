/*
 * test_emu_spec.c — exact launch specs (issue 14 points 6 and 8): 64-bit
 * integer scalars and initialisers reach the kernel bit for bit over their
 * whole range (JSON integers read from their text, not through a double);
 * the widest random ranges draw without overflow, as the generator contract
 * of docs/launch-spec.md computes them here by hand; unknown keys are
 * errors naming the path with a did-you-mean; two buffers with one output
 * name are an error.  Expected values are the literal numbers of the spec
 * or the contract's formula evaluated in the test.
 */
#include "testutil.h"

#include <string.h>

#include "warpsight/emu.h"
#include "warpsight/ptx.h"

#define HDR ".version 7.0\n.target sm_80\n.address_size 64\n"

/* params: out[0] = a (u64), out[1] = b (s64), out[2] = c (s32, sign-extended) */
static const char params_ptx[] = HDR
    ".visible .entry params(.param .u64 a, .param .s64 b, .param .s32 c, .param .u64 out)\n"
    "{\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [a];\n  ld.param.s64 %rd2, [b];\n  ld.param.s32 %r1, [c];\n"
    "  ld.param.u64 %rd3, [out];\n  cvt.s64.s32 %rd4, %r1;\n"
    "  st.global.u64 [%rd3], %rd1;\n  st.global.u64 [%rd3+8], %rd2;\n  st.global.u64 [%rd3+16], %rd4;\n"
    "  ret;\n}\n"
    /* touch: reads nothing, writes nothing; its buffers keep their initial contents */
    ".visible .entry touch(.param .u64 x, .param .u64 y)\n{\n  ret;\n}\n";

typedef struct run {
  ws_ptx_module *m;
  ws_emu_program *p;
  ws_launch_spec *s;
  ws_emu_launch *l;
  ws_diag d;
  int status;
} run;

static void run_spec(run *r, const char *spec) {
  memset(r, 0, sizeof *r);
  assert_ok_diag(ws_ptx_parse(&r->m, params_ptx, strlen(params_ptx), "spec.ptx", &r->d), &r->d);
  int st = ws_emu_launch_spec_parse(&r->s, spec, "spec.json", ".", &r->d);
  if (!st) st = ws_emu_load(&r->p, r->m, r->s->kernel, &r->d);
  if (!st) st = ws_emu_launch_new(&r->l, r->p, r->s, &r->d);
  if (!st) {
    ws_emu_options o = WS_EMU_OPTIONS_INIT;
    o.threads = 1;
    o.max_warp_insts = 1000;
    st = ws_emu_run(r->l, &o, NULL, &r->d);
  }
  r->status = st;
}

static void run_free(run *r) {
  ws_emu_launch_free(r->l);
  ws_emu_program_free(r->p);
  ws_emu_launch_spec_free(r->s);
  ws_ptx_module_free(r->m);
  ws_diag_free(&r->d);
}

static void expect_error(const char *spec, const char *msg) {
  run r;
  run_spec(&r, spec);
  assert_int_equal(r.status, WS_EINVAL);
  char *t = ws_diag_format(&r.d);
  if (!strstr(t, msg)) {
    print_error("expected '%s' in:\n%s\n", msg, t);
    fail();
  }
  free(t);
  run_free(&r);
}

#define PARAMS(a, b, c)                                                                            \
  "{\"kernel\": \"params\", \"grid\": [1], \"block\": [1], \"args\": [{\"scalar\": \"a\", \"type\": \"u64\", " \
  "\"value\": " a "}, {\"scalar\": \"b\", \"type\": \"s64\", \"value\": " b "}, {\"scalar\": \"c\", "       \
  "\"type\": \"s32\", \"value\": " c "}, {\"buffer\": \"out\", \"type\": \"u64\", \"count\": 3}]}"

static void check_params(const char *spec, uint64_t a, int64_t b, int64_t c) {
  run r;
  run_spec(&r, spec);
  assert_ok_diag(r.status, &r.d);
  const uint64_t *out = ws_emu_buffer(r.l, "out", NULL);
  if (!out) out = ws_emu_buffer(r.l, "out-1", NULL);
  assert_non_null(out);
  assert_int_equal(out[0], a);
  assert_int_equal((int64_t)out[1], b);
  assert_int_equal((int64_t)out[2], c);
  run_free(&r);
}

static void test_scalars_exact(void **state) {
  (void)state;
  check_params(PARAMS("18446744073709551615", "9223372036854775807", "2147483647"), UINT64_MAX, INT64_MAX,
               INT32_MAX);
  check_params(PARAMS("9007199254740993", "-9223372036854775808", "-2147483648"), 9007199254740993ull, INT64_MIN,
               INT32_MIN);
  /* 2^53 + 1 as s64, and an integer written with an exponent still works */
  check_params(PARAMS("1e3", "-9007199254740993", "0"), 1000, -9007199254740993ll, 0);
  /* digits, minus signs and escaped quotes inside strings are not numbers:
   * the values after them still come out exact */
  check_params("{\"kernel\": \"params\", \"grid\": [1], \"block\": [1], \"args\": [{\"scalar\": \"a\\\"-12 3e4\", "
               "\"type\": \"u64\", \"value\": 18446744073709551614}, {\"scalar\": \"-5\", \"type\": \"s64\", "
               "\"value\": -9223372036854775807}, {\"scalar\": \"c\", \"type\": \"s32\", \"value\": -1}, "
               "{\"buffer\": \"out-1\", \"type\": \"u64\", \"count\": 3}]}",
               UINT64_MAX - 1, INT64_MIN + 1, -1);
  expect_error(PARAMS("18446744073709551616", "0", "0"), "args[0].value: 18446744073709551616 is not a u64 value");
  expect_error(PARAMS("-1", "0", "0"), "args[0].value: -1 is not a u64 value");
  expect_error(PARAMS("0", "9223372036854775808", "0"), "args[1].value: 9223372036854775808 is not a s64 value");
  expect_error(PARAMS("0", "-9223372036854775809", "0"), "args[1].value: -9223372036854775809 is not a s64 value");
  expect_error(PARAMS("0", "0", "2147483648"), "args[2].value: 2147483648 is not a s32 value");
  expect_error(PARAMS("0", "0.5", "0"), "args[1].value: 0.5 is not a s64 value");
}

#define TOUCH(x, y)                                                                                   \
  "{\"kernel\": \"touch\", \"grid\": [1], \"block\": [1], \"args\": [{\"buffer\": \"x\", " x "}, " \
  "{\"buffer\": \"y\", " y "}]}"

/* The contract (docs/launch-spec.md): splitmix64 draws d, u = (d >> 11) 2^-53,
 * v = min + floor(u * (max - min + 1)) capped at max, in 64-bit two's
 * complement.  Written out here independently of rng.h. */
static uint64_t draw(uint64_t *st) {
  uint64_t z = (*st += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static void test_wide_random(void **state) {
  (void)state;
  run r;
  run_spec(&r, TOUCH("\"type\": \"s64\", \"count\": 64, \"init\": {\"random\": {\"seed\": 18446744073709551615, "
                     "\"min\": -9223372036854775808, \"max\": 9223372036854775807}}",
                     "\"type\": \"u64\", \"count\": 64, \"init\": {\"random\": {\"seed\": 3, \"min\": 0, "
                     "\"max\": 18446744073709551615}}"));
  assert_ok_diag(r.status, &r.d);
  const int64_t *x = ws_emu_buffer(r.l, "x", NULL);
  const uint64_t *y = ws_emu_buffer(r.l, "y", NULL);
  uint64_t sx = UINT64_MAX, sy = 3;
  int neg = 0, big = 0;
  for (int i = 0; i < 64; i++) {
    /* span 2^64 (both ranges): floor(u * 2^64) = d >> 11 << 11, below 2^64 */
    uint64_t ox = (draw(&sx) >> 11) << 11, oy = (draw(&sy) >> 11) << 11;
    assert_int_equal((uint64_t)x[i], 0x8000000000000000ull + ox);
    assert_int_equal(y[i], oy);
    neg += x[i] < 0;
    big += y[i] > 0x8000000000000000ull;
  }
  assert_true(neg > 10 && neg < 54); /* both halves of the range are drawn */
  assert_true(big > 10 && big < 54);
  run_free(&r);
  /* exact constants and iota in u64: 2^64 - 1, then wrapping to 0, 1 */
  run_spec(&r, TOUCH("\"type\": \"u64\", \"count\": 2, \"init\": {\"constant\": 18446744073709551615}",
                     "\"type\": \"u64\", \"count\": 3, \"init\": {\"iota\": {\"start\": 18446744073709551615, "
                     "\"step\": 1}}"));
  assert_ok_diag(r.status, &r.d);
  x = ws_emu_buffer(r.l, "x", NULL);
  y = ws_emu_buffer(r.l, "y", NULL);
  assert_int_equal((uint64_t)x[0], UINT64_MAX);
  assert_int_equal((uint64_t)x[1], UINT64_MAX);
  assert_int_equal(y[0], UINT64_MAX);
  assert_int_equal(y[1], 0);
  assert_int_equal(y[2], 1);
  run_free(&r);
  expect_error(TOUCH("\"type\": \"s64\", \"count\": 1, \"init\": {\"random\": {\"seed\": 1, \"min\": 9223372036854775807, "
                     "\"max\": 9223372036854775806}}",
                     "\"type\": \"u8\", \"count\": 1"),
               "args[0].init.random.max: max 9223372036854775806 is below min 9223372036854775807");
}

static void test_unknown_keys(void **state) {
  (void)state;
  expect_error(TOUCH("\"type\": \"u8\", \"count\": 4, \"ouput\": \"x.bin\"", "\"type\": \"u8\", \"count\": 4"),
               "args[0].ouput: unknown key (did you mean \"output\"?)");
  expect_error(TOUCH("\"type\": \"u8\", \"count\": 4, \"inti\": {\"constant\": 1}", "\"type\": \"u8\", \"count\": 4"),
               "args[0].inti: unknown key (did you mean \"init\"?)");
  expect_error(TOUCH("\"type\": \"u8\", \"count\": 4", "\"type\": \"u8\", \"count\": 4, \"colour\": 1"),
               "args[1].colour: unknown key (expected one of buffer, type, count, init, output)");
  expect_error("{\"kernel\": \"touch\", \"grdi\": [1], \"block\": [1], \"args\": []}",
               "grdi: unknown key (did you mean \"grid\"?)");
  expect_error(TOUCH("\"type\": \"u8\", \"count\": 4, \"init\": {\"random\": {\"seed\": 1, \"min\": 0, \"mx\": 3}}",
                     "\"type\": \"u8\", \"count\": 4"),
               "args[0].init.random.mx: unknown key (did you mean \"max\"?)");
  expect_error(TOUCH("\"type\": \"u8\", \"count\": 4, \"init\": {\"constnat\": 1}", "\"type\": \"u8\", \"count\": 4"),
               "args[0].init.constnat: unknown initialiser (did you mean \"constant\"?)");
  expect_error(PARAMS("1, \"vaule\": 2", "0", "0"), "args[0].vaule: unknown key (did you mean \"value\"?)");
}

static void test_duplicate_outputs(void **state) {
  (void)state;
  expect_error(TOUCH("\"type\": \"u8\", \"count\": 4, \"output\": \"o.bin\"",
                     "\"type\": \"u8\", \"count\": 4, \"output\": \"o.bin\""),
               "args[1].output: 'o.bin' is also the output of args[0]");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scalars_exact),
      cmocka_unit_test(test_wide_random),
      cmocka_unit_test(test_unknown_keys),
      cmocka_unit_test(test_duplicate_outputs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
