/*
 * test_ptx_link.c — linking modules by symbol (ws_ptx_link, src/ptx/link.c),
 * as a program built with -rdc=true needs, and the lenient parse
 * (WS_PTX_PARSE_KEEP_UNKNOWN) a program's fat binary is read with
 * (docs/ptx-frontend.md, "Linking" and "Lenient parsing").
 *
 * Each linked module is run in the emulator, so a reference resolved to
 * the wrong symbol shows as a wrong value:
 *   a.ptx  kernel ka: out[0] = add1(g), out[1] = its own internal $tag (10);
 *          add1 and g are declarations (.extern)
 *   b.ptx  defines add1 (x + 1) and g = 5; kernel kb: out[0] = its own
 *          $tag (20)
 *   w.ptx  .weak definitions: add1 = x + 100, g = 99
 *   c.ptx  a second strong definition of g
 */
#include "testutil.h"

#include <string.h>

#include "warpsight/emu.h"
#include "warpsight/ptx.h"

#define HEAD ".version 7.0\n.target sm_80\n.address_size 64\n"

static const char a_ptx[] = HEAD
    ".extern .func (.param .b32 r) add1(.param .b32 x);\n"
    ".extern .global .align 4 .u32 g;\n"
    ".global .align 4 .u32 $tag = 10;\n"
    ".visible .entry ka(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.global.u32 %r1, [g];\n"
    "  {\n"
    "  .param .b32 p0;\n"
    "  .param .b32 r0;\n"
    "  st.param.b32 [p0], %r1;\n"
    "  call.uni (r0), add1, (p0);\n"
    "  ld.param.b32 %r2, [r0];\n"
    "  }\n"
    "  st.global.u32 [%rd1], %r2;\n"
    "  ld.global.u32 %r3, [$tag];\n"
    "  st.global.u32 [%rd1+4], %r3;\n"
    "  ret;\n"
    "}\n";

#define ADD1(linkage, n)                                      \
  linkage " .func (.param .b32 r) add1(.param .b32 x)\n"      \
          "{\n"                                               \
          "  .reg .b32 %r<3>;\n"                              \
          "  ld.param.b32 %r1, [x];\n"                        \
          "  add.s32 %r2, %r1, " #n ";\n"                     \
          "  st.param.b32 [r], %r2;\n"                        \
          "  ret;\n"                                          \
          "}\n"

static const char b_ptx[] = HEAD
    ".visible .global .align 4 .u32 g = 5;\n"
    ".global .align 4 .u32 $tag = 20;\n"
    ADD1(".visible", 1)
    ".visible .entry kb(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<2>;\n"
    "  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.global.u32 %r1, [$tag];\n"
    "  st.global.u32 [%rd1], %r1;\n"
    "  ret;\n"
    "}\n";

static const char w_ptx[] = HEAD ".weak .global .align 4 .u32 g = 99;\n" ADD1(".weak", 100);

static const char c_ptx[] = HEAD ".visible .global .align 4 .u32 g = 7;\n";

typedef struct fix {
  ws_ptx_module *a, *b, *w, *c;
  ws_ptx_module *keep[4]; /* modules run on dev: freed after it (emu.h) */
  int nkeep;
  ws_emu_device *dev;
  ws_diag d;
} fix;

static ws_ptx_module *parse(const char *src, const char *path, ws_diag *d) {
  ws_ptx_module *m = NULL;
  assert_ok_diag(ws_ptx_parse(&m, src, strlen(src), path, d), d);
  return m;
}

static int setup(void **state) {
  fix *f = calloc(1, sizeof *f);
  assert_non_null(f);
  f->a = parse(a_ptx, "a.ptx", &f->d);
  f->b = parse(b_ptx, "b.ptx", &f->d);
  f->w = parse(w_ptx, "w.ptx", &f->d);
  f->c = parse(c_ptx, "c.ptx", &f->d);
  assert_ok_diag(ws_emu_device_new(&f->dev, NULL, &f->d), &f->d);
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fix *f = *state;
  ws_emu_device_free(f->dev);
  for (int i = 0; i < f->nkeep; i++) ws_ptx_module_free(f->keep[i]); /* before the inputs they borrow */
  ws_ptx_module_free(f->a);
  ws_ptx_module_free(f->b);
  ws_ptx_module_free(f->w);
  ws_ptx_module_free(f->c);
  ws_diag_free(&f->d);
  free(f);
  return 0;
}

/* Whether some diagnostic's message has every one of the strings. */
static int diag_has(const ws_diag *d, const char *s1, const char *s2) {
  for (size_t i = 0; i < d->count; i++)
    if (strstr(d->items[i].message, s1) && (!s2 || strstr(d->items[i].message, s2))) return 1;
  return 0;
}

/* Kernel k of m on one thread with an output buffer; out[0..1] after it.
 * The status of loading and running (the diagnostics in f->d). */
static int run(fix *f, const ws_ptx_module *m, const char *k, uint32_t out[2]) {
  ws_emu_program *p = NULL;
  ws_emu_launch *l = NULL;
  uint64_t buf = 0;
  assert_ok_diag(ws_emu_mem_alloc(f->dev, 8, "out", &buf, &f->d), &f->d);
  memset(ws_emu_mem_host(f->dev, buf, 8), 0, 8);
  int st = ws_emu_load(&p, m, k, &f->d);
  if (st) return st;
  uint8_t img[64];
  size_t used = 0;
  void *args[1] = {&buf};
  assert_ok_diag(ws_emu_params_pack(ws_emu_program_kernel(p), args, img, sizeof img, &used, &f->d), &f->d);
  ws_emu_launch_config c = {{1, 1, 1}, {1, 1, 1}, 0, img, used};
  assert_ok_diag(ws_emu_launch_raw(&l, f->dev, p, &c, &f->d), &f->d);
  ws_emu_options o = WS_EMU_OPTIONS_INIT;
  o.threads = 1;
  ws_emu_stats s;
  memset(&s, 0, sizeof s);
  st = ws_emu_run(l, &o, &s, &f->d);
  memcpy(out, ws_emu_mem_host(f->dev, buf, 8), 8);
  ws_emu_launch_free(l);
  ws_emu_program_free(p);
  return st;
}

/* The modules linked, kept until the device is freed. */
static ws_ptx_module *link_kept(fix *f, ws_ptx_module *const *mods, size_t n) {
  ws_ptx_module *m = NULL;
  assert_true(f->nkeep < 4);
  assert_ok_diag(ws_ptx_link(&m, mods, n, "linked", &f->d), &f->d);
  f->keep[f->nkeep++] = m;
  return m;
}

static int count_funcs(const ws_ptx_module *m, const char *name, int with_body) {
  int n = 0;
  for (uint32_t i = 0; i < m->nfuncs; i++)
    if (!strcmp(m->funcs[i].name, name) && m->funcs[i].has_body == with_body) n++;
  return n;
}

/* a's declarations resolve to b's definitions in either order; each
 * module's internal $tag stays its own; the linked functions name the
 * file their lines are in. */
static void test_resolve(void **state) {
  fix *f = *state;
  for (int order = 0; order < 2; order++) {
    ws_ptx_module *mods[2] = {order ? f->b : f->a, order ? f->a : f->b};
    ws_ptx_module *m = link_kept(f, mods, 2);
    assert_int_equal(count_funcs(m, "add1", 1), 1);
    assert_int_equal(count_funcs(m, "add1", 0), 0); /* the declaration is not copied */
    const ws_ptx_function *ka = ws_ptx_find_function(m, "ka"), *kb = ws_ptx_find_function(m, "kb");
    assert_non_null(ka);
    assert_non_null(kb);
    assert_string_equal(ws_ptx_func_path(m, ka), "a.ptx");
    assert_string_equal(ws_ptx_func_path(m, kb), "b.ptx");
    uint32_t out[2];
    assert_ok_diag(run(f, m, "ka", out), &f->d);
    assert_int_equal(out[0], 6);  /* add1(g) = 5 + 1 */
    assert_int_equal(out[1], 10); /* a's $tag */
    assert_ok_diag(run(f, m, "kb", out), &f->d);
    assert_int_equal(out[0], 20); /* b's $tag */
  }
}

/* A strong definition wins over a .weak one, whichever comes first; alone,
 * the weak one serves. */
static void test_weak(void **state) {
  fix *f = *state;
  ws_ptx_module *wab[3] = {f->w, f->a, f->b};
  ws_ptx_module *m = link_kept(f, wab, 3);
  assert_int_equal(count_funcs(m, "add1", 1), 1);
  uint32_t out[2];
  assert_ok_diag(run(f, m, "ka", out), &f->d);
  assert_int_equal(out[0], 6);
  ws_ptx_module *wa[2] = {f->a, f->w};
  assert_ok_diag(run(f, link_kept(f, wa, 2), "ka", out), &f->d);
  assert_int_equal(out[0], 199); /* 99 + 100 */
}

/* Two strong definitions of g: an error naming the symbol and both files. */
static void test_duplicate(void **state) {
  fix *f = *state;
  ws_ptx_module *m = NULL;
  ws_ptx_module *abc[3] = {f->a, f->b, f->c};
  ws_diag d = WS_DIAG_INIT;
  assert_int_equal(ws_ptx_link(&m, abc, 3, "linked", &d), WS_EINVAL);
  assert_null(m);
  assert_true(diag_has(&d, "multiple definitions of variable 'g'", "(in b.ptx and c.ptx)"));
  ws_diag_free(&d);
}

/* A declaration nobody defines stays one: the link succeeds and the
 * emulator refuses the kernel that calls it, naming the callee. */
static void test_undefined(void **state) {
  fix *f = *state;
  ws_ptx_module *a[1] = {f->a};
  ws_ptx_module *m = link_kept(f, a, 1);
  assert_int_equal(count_funcs(m, "add1", 0), 1);
  ws_diag d = WS_DIAG_INIT;
  uint32_t out[2];
  ws_diag saved = f->d;
  f->d = d;
  assert_int_equal(run(f, m, "ka", out), WS_EUNSUP);
  assert_true(diag_has(&f->d, "add1", "without a body"));
  ws_diag_free(&f->d);
  f->d = saved;
}

/* The lenient parse: a module with an instruction the front end does not
 * know fails the strict parse, but is kept with the instruction's text and
 * the reason; its other kernel runs, and loading the kernel that has the
 * instruction is refused with its line and text. */
static const char partial_ptx[] = HEAD
    ".visible .entry bad(.param .u64 out)\n"      /* line 4 */
    "{\n"
    "  .reg .b32 %r<2>;\n"
    "  frobnicate.sync.b32 %r1, 3;\n"             /* line 7 */
    "  ret;\n"
    "}\n"
    ".visible .entry good(.param .u64 out)\n"
    "{\n"
    "  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  st.global.u32 [%rd1], 42;\n"
    "  ret;\n"
    "}\n";

static void test_lenient_parse(void **state) {
  fix *f = *state;
  ws_ptx_module *m = NULL;
  ws_diag d = WS_DIAG_INIT;
  assert_int_equal(ws_ptx_parse(&m, partial_ptx, strlen(partial_ptx), "p.ptx", &d), WS_EINVAL);
  assert_null(m);
  ws_diag_free(&d);
  assert_ok_diag(ws_ptx_parse_opts(&m, partial_ptx, strlen(partial_ptx), "p.ptx", WS_PTX_PARSE_KEEP_UNKNOWN, &f->d),
                 &f->d);
  f->keep[f->nkeep++] = m; /* run on the device: freed after it */
  const ws_ptx_function *bad = ws_ptx_find_function(m, "bad");
  assert_non_null(bad);
  assert_int_equal(bad->nunknown, 1);
  assert_int_equal(bad->insts[0].op, WS_PTX_OP_UNKNOWN);
  assert_int_equal(bad->insts[0].line, 7);
  assert_string_equal(bad->unknown[0].text, "frobnicate.sync.b32 %r1, 3;");
  assert_non_null(strstr(bad->unknown[0].why, "frobnicate"));
  uint32_t out[2];
  assert_ok_diag(run(f, m, "good", out), &f->d);
  assert_int_equal(out[0], 42);
  assert_int_equal(run(f, m, "bad", out), WS_EUNSUP);
  int found = 0;
  for (size_t i = 0; i < f->d.count; i++)
    if (strstr(f->d.items[i].message, "frobnicate.sync.b32") && strstr(f->d.items[i].message, "does not understand"))
      found = f->d.items[i].line == 7;
  assert_true(found);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_resolve, setup, teardown),
      cmocka_unit_test_setup_teardown(test_weak, setup, teardown),
      cmocka_unit_test_setup_teardown(test_duplicate, setup, teardown),
      cmocka_unit_test_setup_teardown(test_undefined, setup, teardown),
      cmocka_unit_test_setup_teardown(test_lenient_parse, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
