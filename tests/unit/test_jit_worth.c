/*
 * test_jit_worth.c — when the translated engine's compile pays for itself
 * (ws_emu_jit_worth, include/warpsight/emu.h): the interpreted work must
 * reach WS_EMU_JIT_MIN_WORK (2^28 thread instructions) for a kernel of up
 * to WS_EMU_JIT_SIZE_UNIT (64) instructions, and 2^28 (n / 64)^2 for a
 * kernel of n instructions above that, as a large kernel's compile costs
 * about the square of its size.  The kernels are straight-line code (no
 * loop weighting), so a launch of T threads estimates T x n; the bounds
 * below are computed by hand from n, which the decoder may make a few
 * instructions longer than the lines written (a margin of 10 % covers it).
 * Needs no C compiler: nothing is compiled.
 */
#include "testutil.h"

#include "warpsight/emu.h"
#include "warpsight/ptx.h"

/* A kernel of `adds` additions and a ret. */
static char *kernel_ptx(int adds) {
  size_t cap = 256 + (size_t)adds * 32;
  char *s = malloc(cap);
  assert_non_null(s);
  int n = snprintf(s, cap,
                   ".version 8.0\n.target sm_80\n.address_size 64\n"
                   ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %%r<4>;\nmov.u32 %%r1, 0;\n");
  for (int i = 0; i < adds; i++) n += snprintf(s + n, cap - (size_t)n, "add.u32 %%r1, %%r1, 1;\n");
  snprintf(s + n, cap - (size_t)n, "ret;\n}\n");
  return s;
}

typedef struct prog {
  ws_ptx_module *m;
  ws_emu_program *p;
} prog;

static void load(prog *g, int adds) {
  char *src = kernel_ptx(adds);
  ws_diag d = WS_DIAG_INIT;
  assert_ok_diag(ws_ptx_parse(&g->m, src, strlen(src), "k.ptx", &d), &d);
  assert_ok_diag(ws_emu_load(&g->p, g->m, "k", &d), &d);
  ws_diag_free(&d);
  free(src);
}

static void unload(prog *g) {
  ws_emu_program_free(g->p);
  ws_ptx_module_free(g->m);
}

#define W WS_EMU_JIT_MIN_WORK

/* About 60 instructions: the fixed threshold, 2^28. */
static void small_kernel(void **st) {
  (void)st;
  prog g;
  load(&g, 58);
  assert_false(ws_emu_jit_worth(g.p, 0, W - 1));
  assert_true(ws_emu_jit_worth(g.p, 0, W));
  /* T x ~60 >= 2^28: T from about 4.47e6 (4.07e6 at 66 instructions) */
  assert_false(ws_emu_jit_worth(g.p, 3800000, 0));
  assert_true(ws_emu_jit_worth(g.p, 4800000, 0));
  assert_true(ws_emu_jit_worth(g.p, 3800000, W / 2)); /* done counts too */
  unload(&g);
}

/* About 512 instructions: 63.8 x 2^28 at 511 (up to 77.4 x at 563). */
static void large_kernel(void **st) {
  (void)st;
  prog g;
  load(&g, 510);
  assert_false(ws_emu_jit_worth(g.p, 0, W));      /* the fixed rule said yes */
  assert_false(ws_emu_jit_worth(g.p, 0, 63 * W));
  assert_true(ws_emu_jit_worth(g.p, 0, 78 * W));
  /* T x n >= 2^28 n^2 / 64^2, T >= 65536 n: from 33.5e6 (36.9e6 at 563) */
  assert_false(ws_emu_jit_worth(g.p, 33000000, 0));
  assert_true(ws_emu_jit_worth(g.p, 37000000, 0));
  unload(&g);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(small_kernel), cmocka_unit_test(large_kernel)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
