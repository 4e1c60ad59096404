/*
 * test_jit_frontend.c — test_emu_frontend.c with every program in the translated
 * engine (jit_wrap.h): the same kernels, the same independent expected
 * values.  Skipped (77) without a C compiler.
 */
#define JIT_WRAPPED "test_emu_frontend.c"
#include "jit_wrap.h"
