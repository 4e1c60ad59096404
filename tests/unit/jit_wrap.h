/*
 * jit_wrap.h — run an emulator unit test again in the translated engine:
 * a test_jit_*.c file defines JIT_WRAPPED as the test file to wrap and
 * includes this header.  Every program the wrapped test loads is
 * translated and compiled (ws_emu_jit_prepare without
 * WS_EMU_JIT_CACHED_ONLY, so whatever its work), and a kernel the
 * translator refuses fails the test with its diagnostics, except one with
 * an instruction the translator leaves to the interpreter by rule
 * (JIT_DOPS in jit/translate.c: matrix, texture, mbarrier, cp.async and
 * device-launch instructions), which runs in the interpreter; the blocks
 * without profiler hooks then run in the translated engine, and the
 * wrapped test's own expected values (computed independently of the
 * emulator) must still hold.  The compiled kernels are cached in
 * WS_JIT_TEST_CACHE (the build tree).  Without a C compiler the test is
 * skipped (exit status 77).
 */
#ifndef WS_JIT_WRAP_H
#define WS_JIT_WRAP_H

#include <stdio.h>

#include "emu/jit/jit.h"
#include "warpsight/emu.h"

#ifndef WS_JIT_TEST_CACHE
#define WS_JIT_TEST_CACHE NULL /* the default cache */
#endif

static ws_emu_jit *jit_wrap_translator;
static unsigned jit_wrap_programs; /* programs translated */
static unsigned jit_wrap_gated;    /* programs left to the interpreter by rule */

static int jit_wrap_load(ws_emu_program **out, const ws_ptx_module *m, const char *kernel, ws_diag *d) {
  int st = ws_emu_load(out, m, kernel, d);
  if (st) return st;
  if (ws_emu_jit_gated(*out)) {
    jit_wrap_gated++;
    return WS_OK;
  }
  st = ws_emu_jit_prepare(jit_wrap_translator, *out, 0, d);
  if (!st && ws_emu_program_translated(*out)) jit_wrap_programs++;
  return st;
}

int jit_wrapped_main(void); /* the wrapped test's main */
#define ws_emu_load jit_wrap_load
#define main jit_wrapped_main
#include JIT_WRAPPED
#undef main
#undef ws_emu_load

int main(void) {
  ws_emu_jit_options o = WS_EMU_JIT_OPTIONS_INIT;
  ws_emu_jit_options_env(&o);
  o.cache_dir = WS_JIT_TEST_CACHE;
  ws_diag d = WS_DIAG_INIT;
  if (ws_emu_jit_new(&jit_wrap_translator, &o, &d)) {
    char *t = ws_diag_format(&d);
    printf("SKIP: %s\n", t ? t : "no C compiler");
    free(t);
    ws_diag_free(&d);
    return 77;
  }
  ws_diag_free(&d);
  int rc = jit_wrapped_main();
  ws_emu_jit_free(jit_wrap_translator);
  printf("%u programs ran translated, %u in the interpreter by rule (%s)\n", jit_wrap_programs, jit_wrap_gated,
         JIT_WRAPPED);
  if (!jit_wrap_programs) return 1; /* the wrapping did not take */
  return rc;
}

#endif
