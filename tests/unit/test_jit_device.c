/*
 * test_jit_device.c — test_emu_device.c with every program in the translated
 * engine (jit_wrap.h): the same kernels, the same independent expected
 * values.  Skipped (77) without a C compiler.
 */
#define JIT_WRAPPED "test_emu_device.c"
#include "jit_wrap.h"
