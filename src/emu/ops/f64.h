/*
 * ops/f64.h — double precision: the plain round-to-nearest forms on the
 * host FPU, the others in num.c (LIB_EXEC).  Decoded in ops/int.h (add,
 * sub, mul, fma, div, min, max, abs, neg) and ops/f32.h (rcp, sqrt, rsqrt,
 * copysign).  Executors of the F64 family (dops.def); compiled in exec.c.
 */

EXEC(F64_ADD) { IBIN(bf64(f64(a) + f64(b))); }
EXEC(F64_SUB) { IBIN(bf64(f64(a) - f64(b))); }
EXEC(F64_MUL) { IBIN(bf64(f64(a) * f64(b))); }
EXEC(F64_FMA) { ITER(bf64(fma(f64(a), f64(b), f64(c)))); }
/* IEEE division and square root are correctly rounded on the host */
EXEC(F64_DIV_RN) { IBIN(bf64(f64(a) / f64(b))); }
EXEC(F64_SQRT_RN) { IUN(bf64(sqrt(f64(a)))); }
EXEC(F64_RCP_RN) { IUN(bf64(1.0 / f64(a))); }

#define RND ((ws_emu_num_rnd)in->rnd)
LIB_EXEC(F64_ADD_X) { IBIN(ws_emu_num_f64_add(a, b, RND)); }
LIB_EXEC(F64_SUB_X) { IBIN(ws_emu_num_f64_sub(a, b, RND)); }
LIB_EXEC(F64_MUL_X) { IBIN(ws_emu_num_f64_mul(a, b, RND)); }
LIB_EXEC(F64_FMA_X) { ITER(ws_emu_num_f64_fma(a, b, c, RND)); }
LIB_EXEC(F64_DIV) { IBIN(ws_emu_num_f64_div(a, b, RND)); }
LIB_EXEC(F64_RCP) { IUN(ws_emu_num_f64_rcp(a, RND)); }
LIB_EXEC(F64_RCP_APPROX) { IUN(ws_emu_num_f64_rcp_approx_ftz(a)); }
LIB_EXEC(F64_SQRT) { IUN(ws_emu_num_f64_sqrt(a, RND)); }
LIB_EXEC(F64_RSQRT) { IUN(ws_emu_num_f64_rsqrt_approx(a, in->ftz)); }
LIB_EXEC(F64_MIN) { IBIN(ws_emu_num_f64_min(a, b, in->nan)); }
LIB_EXEC(F64_MAX) { IBIN(ws_emu_num_f64_max(a, b, in->nan)); }
LIB_EXEC(F64_ABS) { IUN(ws_emu_num_f64_abs(a)); }
LIB_EXEC(F64_NEG) { IUN(ws_emu_num_f64_neg(a)); }
LIB_EXEC(F64_COPYSIGN) { IBIN(ws_emu_num_f64_copysign(a, b)); }
#undef RND
