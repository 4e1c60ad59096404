/*
 * test_jit_simt.c — test_emu_simt.c with every program in the translated
 * engine (jit_wrap.h): the same kernels, the same independent expected
 * values.  Skipped (77) without a C compiler.
 */
#define JIT_WRAPPED "test_emu_simt.c"
#include "jit_wrap.h"
