/*
 * ops/half.h — f16, bf16, f16x2 and bf16x2 (dinst.ty: the HK_* kind), all
 * in num.c (LIB_EXEC).  Decoded in ops/int.h (add, sub, mul, fma, min,
 * max, abs, neg).  Executors of the HALF family (dops.def); compiled in
 * exec.c.
 */

/* add, sub, mul of one half kind (o: 0 add, 1 sub, 2 mul). */
static uint64_t half_arith(const dinst *in, int o, uint64_t a, uint64_t b) {
  ws_emu_num_rnd rn = (ws_emu_num_rnd)in->rnd;
  switch (in->ty * 3 + o) {
  case 0: return ws_emu_num_f16_add((uint16_t)a, (uint16_t)b, rn, in->ftz, in->sat);
  case 1: return ws_emu_num_f16_sub((uint16_t)a, (uint16_t)b, rn, in->ftz, in->sat);
  case 2: return ws_emu_num_f16_mul((uint16_t)a, (uint16_t)b, rn, in->ftz, in->sat);
  case 3: return ws_emu_num_bf16_add((uint16_t)a, (uint16_t)b, rn);
  case 4: return ws_emu_num_bf16_sub((uint16_t)a, (uint16_t)b, rn);
  case 5: return ws_emu_num_bf16_mul((uint16_t)a, (uint16_t)b, rn);
  case 6: return ws_emu_num_f16x2_add((uint32_t)a, (uint32_t)b, rn, in->ftz, in->sat);
  case 7: return ws_emu_num_f16x2_sub((uint32_t)a, (uint32_t)b, rn, in->ftz, in->sat);
  case 8: return ws_emu_num_f16x2_mul((uint32_t)a, (uint32_t)b, rn, in->ftz, in->sat);
  case 9: return ws_emu_num_bf16x2_add((uint32_t)a, (uint32_t)b, rn);
  case 10: return ws_emu_num_bf16x2_sub((uint32_t)a, (uint32_t)b, rn);
  default: return ws_emu_num_bf16x2_mul((uint32_t)a, (uint32_t)b, rn);
  }
}
LIB_EXEC(H_ADD) { IBIN(half_arith(in, 0, a, b)); }
LIB_EXEC(H_SUB) { IBIN(half_arith(in, 1, a, b)); }
LIB_EXEC(H_MUL) { IBIN(half_arith(in, 2, a, b)); }

/* fma (.relu) */
static uint64_t half_fma(const dinst *in, uint64_t a, uint64_t b, uint64_t c) {
  ws_emu_num_rnd rn = (ws_emu_num_rnd)in->rnd;
  switch (in->ty) {
  case HK_F16: return ws_emu_num_f16_fma((uint16_t)a, (uint16_t)b, (uint16_t)c, rn, in->ftz, in->sat, in->relu);
  case HK_BF16: return ws_emu_num_bf16_fma((uint16_t)a, (uint16_t)b, (uint16_t)c, rn, in->relu);
  case HK_F16X2: return ws_emu_num_f16x2_fma((uint32_t)a, (uint32_t)b, (uint32_t)c, rn, in->ftz, in->sat, in->relu);
  default: return ws_emu_num_bf16x2_fma((uint32_t)a, (uint32_t)b, (uint32_t)c, rn, in->relu);
  }
}
LIB_EXEC(H_FMA) { ITER(half_fma(in, a, b, c)); }

/* neg or abs (ab) */
static uint64_t half_sign(const dinst *in, int ab, uint64_t a) {
  switch (in->ty) {
  case HK_F16: return ab ? ws_emu_num_f16_abs((uint16_t)a, in->ftz) : ws_emu_num_f16_neg((uint16_t)a, in->ftz);
  case HK_BF16: return ab ? ws_emu_num_bf16_abs((uint16_t)a) : ws_emu_num_bf16_neg((uint16_t)a);
  case HK_F16X2: return ab ? ws_emu_num_f16x2_abs((uint32_t)a, in->ftz) : ws_emu_num_f16x2_neg((uint32_t)a, in->ftz);
  default: return ab ? ws_emu_num_bf16x2_abs((uint32_t)a) : ws_emu_num_bf16x2_neg((uint32_t)a);
  }
}
LIB_EXEC(H_NEG) { IUN(half_sign(in, 0, a)); }
LIB_EXEC(H_ABS) { IUN(half_sign(in, 1, a)); }

/* min or max (mx); .relu (e) clamps at zero */
static uint64_t half_minmax(const dinst *in, int mx, uint64_t a, uint64_t b) {
  int relu = (int)in->e;
  uint16_t a16 = (uint16_t)a, b16 = (uint16_t)b;
  uint32_t a32 = (uint32_t)a, b32 = (uint32_t)b;
  switch (in->ty) {
  case HK_F16:
    return mx ? ws_emu_num_f16_max(a16, b16, in->ftz, in->nan, relu) : ws_emu_num_f16_min(a16, b16, in->ftz, in->nan, relu);
  case HK_BF16:
    return mx ? ws_emu_num_bf16_max(a16, b16, in->nan, relu) : ws_emu_num_bf16_min(a16, b16, in->nan, relu);
  case HK_F16X2:
    return mx ? ws_emu_num_f16x2_max(a32, b32, in->ftz, in->nan, relu) : ws_emu_num_f16x2_min(a32, b32, in->ftz, in->nan, relu);
  default:
    return mx ? ws_emu_num_bf16x2_max(a32, b32, in->nan, relu) : ws_emu_num_bf16x2_min(a32, b32, in->nan, relu);
  }
}
LIB_EXEC(H_MIN) { IBIN(half_minmax(in, 0, a, b)); }
LIB_EXEC(H_MAX) { IBIN(half_minmax(in, 1, a, b)); }
