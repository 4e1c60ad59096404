/*
 * test_jit_workers.c — test_emu_workers.c with every program in the
 * translated engine (jit_wrap.h): blocks shared out among workers, the
 * lowest fault, the launch limit.  Skipped (77) without a C compiler.
 */
#define JIT_WRAPPED "test_emu_workers.c"
#include "jit_wrap.h"
