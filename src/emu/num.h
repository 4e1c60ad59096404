/*
 * num.h — exact numeric semantics of PTX instructions, as pure functions on
 * raw bits. The emulator calls these per lane; nothing here touches the host
 * floating-point environment (no fesetround, no reliance on FTZ/DAZ flags):
 * directed rounding, flush-to-zero and saturation are done in software.
 *
 * Conventions (apply to every function below):
 *  - Values are raw bits: uint32_t for .f32/.b32, uint64_t for .f64/.b64,
 *    uint16_t for .f16/.bf16, uint32_t for packed .f16x2/.bf16x2 (element 0 =
 *    bits 0..15 = the "lower half", element 1 = bits 16..31).
 *  - Integer functions taking `bits` (8, 16, 32 or 64) read only the low
 *    `bits` of each operand and return the result in the low bits with every
 *    higher bit ZERO (raw bits, not sign-extended). ws_emu_num_sext() widens a
 *    signed result when the emulator needs it. `sgn` != 0 selects the signed
 *    (.sNN) form, 0 the unsigned (.uNN/.bNN) form.
 *  - `ftz` != 0 is the .ftz modifier: subnormal inputs are treated as zero of
 *    the same sign, and a subnormal result becomes zero of the same sign.
 *    Without it subnormals are kept (sm_20+ semantics).
 *  - `sat` != 0 is .sat on a float result: clamp to [+0.0, 1.0], NaN -> +0.0.
 *  - NaN results of f32/f16/bf16 arithmetic are the canonical NaN
 *    (f32 0x7FFFFFFF, f16 0x7FFF, bf16 0x7FFF) as the PTX ISA states; f64
 *    results also use the canonical 0x7FFFFFFFFFFFFFFF (the ISA does not
 *    promise payload propagation; see docs/numerics.md).
 *  - `rnd` == WS_NUM_RND_NONE means "no rounding modifier in the source": the
 *    function uses the PTX default for that instruction (RN for arithmetic).
 *  - Functions never fail: undefined PTX cases (integer division by zero, ...)
 *    return the documented value listed in docs/numerics.md.
 *
 * docs/numerics.md describes each operation, the choices made where PTX
 * leaves the result unspecified, and the error bounds of the .approx forms.
 */
#ifndef WS_EMU_NUM_H
#define WS_EMU_NUM_H

#include <stdint.h>

/* Rounding modifiers. Order does not matter. */
typedef enum ws_emu_num_rnd {
  WS_NUM_RND_NONE = 0, /* no modifier: the instruction's default */
  WS_NUM_RN,           /* .rn  nearest, ties to even */
  WS_NUM_RZ,           /* .rz  toward zero */
  WS_NUM_RM,           /* .rm  toward -inf */
  WS_NUM_RP,           /* .rp  toward +inf */
  WS_NUM_RNA,          /* .rna nearest, ties away from zero (cvt to tf32) */
  WS_NUM_RNI,          /* .rni integer rounding: nearest even integer */
  WS_NUM_RZI,          /* .rzi integer rounding toward zero */
  WS_NUM_RMI,          /* .rmi integer rounding toward -inf */
  WS_NUM_RPI           /* .rpi integer rounding toward +inf */
} ws_emu_num_rnd;

/* cvt types. Order does not matter. */
typedef enum ws_emu_num_type {
  WS_NUM_U8, WS_NUM_S8, WS_NUM_U16, WS_NUM_S16,
  WS_NUM_U32, WS_NUM_S32, WS_NUM_U64, WS_NUM_S64,
  WS_NUM_F16, WS_NUM_BF16, WS_NUM_F32, WS_NUM_F64,
  WS_NUM_TF32 /* f32 bit layout with the low 13 significand bits zero */
} ws_emu_num_type;

/* setp comparison operators. The integer forms use EQ..GE with `sgn`
 * (lo/ls/hi/hs are the unsigned spellings of LT/LE/GT/GE: map them so). */
typedef enum ws_emu_num_cmp {
  WS_NUM_EQ, WS_NUM_NE, WS_NUM_LT, WS_NUM_LE, WS_NUM_GT, WS_NUM_GE,
  /* floating point only: */
  WS_NUM_EQU, WS_NUM_NEU, WS_NUM_LTU, WS_NUM_LEU, WS_NUM_GTU, WS_NUM_GEU,
  WS_NUM_NUM, /* both operands are numbers */
  WS_NUM_NAN  /* either operand is NaN */
} ws_emu_num_cmp;

/* testp classes. */
typedef enum ws_emu_num_testp {
  WS_NUM_FINITE, WS_NUM_INFINITE, WS_NUM_NUMBER, WS_NUM_NOTANUMBER,
  WS_NUM_NORMAL, WS_NUM_SUBNORMAL
} ws_emu_num_testp;

/* prmt modes. */
typedef enum ws_emu_num_prmt {
  WS_NUM_PRMT_DEFAULT, WS_NUM_PRMT_F4E, WS_NUM_PRMT_B4E, WS_NUM_PRMT_RC8,
  WS_NUM_PRMT_ECL, WS_NUM_PRMT_ECR, WS_NUM_PRMT_RC16
} ws_emu_num_prmt_mode;

/* ---- f32 ------------------------------------------------------------- */
/* add/sub/mul{.rnd}{.ftz}{.sat}.f32; rnd NONE = RN. */
uint32_t ws_emu_num_f32_add(uint32_t a, uint32_t b, ws_emu_num_rnd rnd, int ftz, int sat);
uint32_t ws_emu_num_f32_sub(uint32_t a, uint32_t b, ws_emu_num_rnd rnd, int ftz, int sat);
uint32_t ws_emu_num_f32_mul(uint32_t a, uint32_t b, ws_emu_num_rnd rnd, int ftz, int sat);
/* fma{.rnd}{.ftz}{.sat}.f32 and mad.f32 (sm_20+: mad.f32 = fma.rn.f32):
 * a*b+c with a single rounding. rnd NONE = RN. */
uint32_t ws_emu_num_f32_fma(uint32_t a, uint32_t b, uint32_t c, ws_emu_num_rnd rnd, int ftz, int sat);
/* div.{rn,rz,rm,rp}{.ftz}.f32: correctly rounded a/b (rnd NONE = RN). */
uint32_t ws_emu_num_f32_div(uint32_t a, uint32_t b, ws_emu_num_rnd rnd, int ftz);
/* div.approx{.ftz}.f32: a * (1/b) as PTX describes (max 2 ulp for
 * |b| in [2^-126, 2^126]; 0 for |b| in (2^126, 2^128)). Deterministic. */
uint32_t ws_emu_num_f32_div_approx(uint32_t a, uint32_t b, int ftz);
/* div.full{.ftz}.f32: max 2 ulp over the full range. Returns RN of a/b. */
uint32_t ws_emu_num_f32_div_full(uint32_t a, uint32_t b, int ftz);
/* rcp.{rn,rz,rm,rp}{.ftz}.f32: correctly rounded 1/a. */
uint32_t ws_emu_num_f32_rcp(uint32_t a, ws_emu_num_rnd rnd, int ftz);
/* rcp.approx{.ftz}.f32 (returns RN of 1/a: within the 1 ulp bound). */
uint32_t ws_emu_num_f32_rcp_approx(uint32_t a, int ftz);
/* sqrt.{rn,rz,rm,rp}{.ftz}.f32: correctly rounded. sqrt(-0) = -0,
 * sqrt(negative) = NaN. */
uint32_t ws_emu_num_f32_sqrt(uint32_t a, ws_emu_num_rnd rnd, int ftz);
/* sqrt.approx{.ftz}.f32, rsqrt.approx{.ftz}.f32. */
uint32_t ws_emu_num_f32_sqrt_approx(uint32_t a, int ftz);
uint32_t ws_emu_num_f32_rsqrt_approx(uint32_t a, int ftz);
/* sin/cos/ex2/lg2/tanh .approx{.ftz}.f32: host libm in double, then RN to
 * f32, then PTX special cases; error bounds in docs/numerics.md. */
uint32_t ws_emu_num_f32_sin_approx(uint32_t a, int ftz);
uint32_t ws_emu_num_f32_cos_approx(uint32_t a, int ftz);
uint32_t ws_emu_num_f32_ex2_approx(uint32_t a, int ftz);
uint32_t ws_emu_num_f32_lg2_approx(uint32_t a, int ftz);
uint32_t ws_emu_num_f32_tanh_approx(uint32_t a);
/* min/max{.ftz}{.NaN}.f32: `nanmode` = .NaN (any NaN input -> canonical
 * NaN); otherwise one NaN input returns the other operand, two -> NaN.
 * -0.0 is less than +0.0. */
uint32_t ws_emu_num_f32_min(uint32_t a, uint32_t b, int ftz, int nanmode);
uint32_t ws_emu_num_f32_max(uint32_t a, uint32_t b, int ftz, int nanmode);
/* abs/neg{.ftz}.f32: sign-bit operations (NaN keeps its payload). */
uint32_t ws_emu_num_f32_abs(uint32_t a, int ftz);
uint32_t ws_emu_num_f32_neg(uint32_t a, int ftz);
/* copysign.f32 d, a, b: |b| with the sign of a (PTX operand order). */
uint32_t ws_emu_num_f32_copysign(uint32_t a, uint32_t b);
/* testp.op.f32 (testp has no .ftz: a subnormal is .subnormal). */
int ws_emu_num_f32_testp(uint32_t a, ws_emu_num_testp op);
/* setp.cmp{.ftz}.f32 -> 0/1. Ordered compares are false when either is NaN. */
int ws_emu_num_f32_cmp(uint32_t a, uint32_t b, ws_emu_num_cmp op, int ftz);

/* ---- f64 (no .ftz/.sat except rcp/rsqrt .approx.ftz) ------------------ */
uint64_t ws_emu_num_f64_add(uint64_t a, uint64_t b, ws_emu_num_rnd rnd);
uint64_t ws_emu_num_f64_sub(uint64_t a, uint64_t b, ws_emu_num_rnd rnd);
uint64_t ws_emu_num_f64_mul(uint64_t a, uint64_t b, ws_emu_num_rnd rnd);
uint64_t ws_emu_num_f64_fma(uint64_t a, uint64_t b, uint64_t c, ws_emu_num_rnd rnd);
uint64_t ws_emu_num_f64_div(uint64_t a, uint64_t b, ws_emu_num_rnd rnd);
uint64_t ws_emu_num_f64_rcp(uint64_t a, ws_emu_num_rnd rnd);
/* rcp.approx.ftz.f64: RN of 1/a on the flushed input, result flushed. */
uint64_t ws_emu_num_f64_rcp_approx_ftz(uint64_t a);
uint64_t ws_emu_num_f64_sqrt(uint64_t a, ws_emu_num_rnd rnd);
/* rsqrt.approx{.ftz}.f64 */
uint64_t ws_emu_num_f64_rsqrt_approx(uint64_t a, int ftz);
uint64_t ws_emu_num_f64_min(uint64_t a, uint64_t b, int nanmode);
uint64_t ws_emu_num_f64_max(uint64_t a, uint64_t b, int nanmode);
uint64_t ws_emu_num_f64_abs(uint64_t a);
uint64_t ws_emu_num_f64_neg(uint64_t a);
uint64_t ws_emu_num_f64_copysign(uint64_t a, uint64_t b);
int ws_emu_num_f64_testp(uint64_t a, ws_emu_num_testp op);
int ws_emu_num_f64_cmp(uint64_t a, uint64_t b, ws_emu_num_cmp op);

/* ---- f16 / bf16 (scalar) and f16x2 / bf16x2 (packed, per element) ------
 * Computed exactly (in f64) and rounded once. rnd: RN (NONE) or RZ/RM/RP
 * where PTX allows them. `relu` (fma/min/max .relu): negative -> +0,
 * NaN -> canonical NaN. bf16 forms take no .ftz/.sat (pass 0). */
uint16_t ws_emu_num_f16_add(uint16_t a, uint16_t b, ws_emu_num_rnd rnd, int ftz, int sat);
uint16_t ws_emu_num_f16_sub(uint16_t a, uint16_t b, ws_emu_num_rnd rnd, int ftz, int sat);
uint16_t ws_emu_num_f16_mul(uint16_t a, uint16_t b, ws_emu_num_rnd rnd, int ftz, int sat);
uint16_t ws_emu_num_f16_fma(uint16_t a, uint16_t b, uint16_t c, ws_emu_num_rnd rnd, int ftz, int sat, int relu);
uint16_t ws_emu_num_f16_neg(uint16_t a, int ftz);
uint16_t ws_emu_num_f16_abs(uint16_t a, int ftz);
uint16_t ws_emu_num_f16_min(uint16_t a, uint16_t b, int ftz, int nanmode, int relu);
uint16_t ws_emu_num_f16_max(uint16_t a, uint16_t b, int ftz, int nanmode, int relu);
int ws_emu_num_f16_cmp(uint16_t a, uint16_t b, ws_emu_num_cmp op, int ftz);

/* ex2.approx{.ftz}.f16/.bf16 and tanh.approx.f16/.bf16 (and their x2 forms,
 * per element): libm in double, rounded to nearest once. */
uint16_t ws_emu_num_f16_ex2_approx(uint16_t a, int ftz);
uint16_t ws_emu_num_bf16_ex2_approx(uint16_t a, int ftz);
uint16_t ws_emu_num_f16_tanh_approx(uint16_t a);
uint16_t ws_emu_num_bf16_tanh_approx(uint16_t a);

uint16_t ws_emu_num_bf16_add(uint16_t a, uint16_t b, ws_emu_num_rnd rnd);
uint16_t ws_emu_num_bf16_sub(uint16_t a, uint16_t b, ws_emu_num_rnd rnd);
uint16_t ws_emu_num_bf16_mul(uint16_t a, uint16_t b, ws_emu_num_rnd rnd);
uint16_t ws_emu_num_bf16_fma(uint16_t a, uint16_t b, uint16_t c, ws_emu_num_rnd rnd, int relu);
uint16_t ws_emu_num_bf16_neg(uint16_t a);
uint16_t ws_emu_num_bf16_abs(uint16_t a);
uint16_t ws_emu_num_bf16_min(uint16_t a, uint16_t b, int nanmode, int relu);
uint16_t ws_emu_num_bf16_max(uint16_t a, uint16_t b, int nanmode, int relu);
int ws_emu_num_bf16_cmp(uint16_t a, uint16_t b, ws_emu_num_cmp op);

uint32_t ws_emu_num_f16x2_add(uint32_t a, uint32_t b, ws_emu_num_rnd rnd, int ftz, int sat);
uint32_t ws_emu_num_f16x2_sub(uint32_t a, uint32_t b, ws_emu_num_rnd rnd, int ftz, int sat);
uint32_t ws_emu_num_f16x2_mul(uint32_t a, uint32_t b, ws_emu_num_rnd rnd, int ftz, int sat);
uint32_t ws_emu_num_f16x2_fma(uint32_t a, uint32_t b, uint32_t c, ws_emu_num_rnd rnd, int ftz, int sat, int relu);
uint32_t ws_emu_num_f16x2_neg(uint32_t a, int ftz);
uint32_t ws_emu_num_f16x2_abs(uint32_t a, int ftz);
uint32_t ws_emu_num_f16x2_min(uint32_t a, uint32_t b, int ftz, int nanmode, int relu);
uint32_t ws_emu_num_f16x2_max(uint32_t a, uint32_t b, int ftz, int nanmode, int relu);
/* setp.cmp.f16x2 p|q, a, b: bit 0 = lower element's result (p), bit 1 =
 * upper element's (q). */
unsigned ws_emu_num_f16x2_cmp(uint32_t a, uint32_t b, ws_emu_num_cmp op, int ftz);

uint32_t ws_emu_num_bf16x2_add(uint32_t a, uint32_t b, ws_emu_num_rnd rnd);
uint32_t ws_emu_num_bf16x2_sub(uint32_t a, uint32_t b, ws_emu_num_rnd rnd);
uint32_t ws_emu_num_bf16x2_mul(uint32_t a, uint32_t b, ws_emu_num_rnd rnd);
uint32_t ws_emu_num_bf16x2_fma(uint32_t a, uint32_t b, uint32_t c, ws_emu_num_rnd rnd, int relu);
uint32_t ws_emu_num_bf16x2_neg(uint32_t a);
uint32_t ws_emu_num_bf16x2_abs(uint32_t a);
uint32_t ws_emu_num_bf16x2_min(uint32_t a, uint32_t b, int nanmode, int relu);
uint32_t ws_emu_num_bf16x2_max(uint32_t a, uint32_t b, int nanmode, int relu);
unsigned ws_emu_num_bf16x2_cmp(uint32_t a, uint32_t b, ws_emu_num_cmp op);

/* ---- cvt ----------------------------------------------------------------
 * cvt{.rnd}{.ftz}{.sat}.to.from d, src. `src` holds the source's raw bits in
 * its low bits (higher bits ignored); the result is the destination's raw
 * bits, zero above its width (an s8/s16/s32 result is NOT sign-extended).
 *  - float -> int: rnd must be an integer rounding (RNI/RZI/RMI/RPI; NONE =
 *    RZI as a fallback, PTX requires one). Out-of-range values saturate to
 *    the destination's range, NaN -> 0 (PTX cvt always clamps here).
 *  - int -> float, float -> narrower float: rnd RN/RZ/RM/RP (NONE = RN).
 *  - float -> same/wider float: exact; with RNI..RPI on same-size float it
 *    rounds to an integral value (cvt.rni.f32.f32).
 *  - int -> int: sign/zero extension or truncation; .sat clamps to the
 *    destination range.
 *  - .ftz applies to f32 sources/results only; .sat on a float destination
 *    clamps to [0, 1]. */
uint64_t ws_emu_num_cvt(uint64_t src, ws_emu_num_type from, ws_emu_num_type to, ws_emu_num_rnd rnd, int ftz, int sat);
/* cvt.frnd{.relu}{.satfinite}.f16.f32 / .bf16.f32 (scalar, to = WS_NUM_F16
 * or WS_NUM_BF16): .relu: negative -> +0, NaN -> canonical NaN; .satfinite:
 * +-inf -> +-largest finite, NaN stays NaN. */
uint16_t ws_emu_num_cvt_half(uint32_t a, ws_emu_num_type to, ws_emu_num_rnd rnd, int relu, int satfinite);
/* cvt.rn{.relu}{.satfinite}.f16x2.f32 d, a, b: d = {hi = cvt(a), lo = cvt(b)}. */
uint32_t ws_emu_num_cvt_f16x2_f32(uint32_t a, uint32_t b, ws_emu_num_rnd rnd, int relu, int satfinite);
uint32_t ws_emu_num_cvt_bf16x2_f32(uint32_t a, uint32_t b, ws_emu_num_rnd rnd, int relu, int satfinite);
/* cvt.rna{.satfinite}.tf32.f32 (also .rn/.rz for sm_90): result in f32 layout. */
uint32_t ws_emu_num_cvt_tf32_f32(uint32_t a, ws_emu_num_rnd rnd, int satfinite);
/* FP8 (sm_89+): cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b (a in
 * the high byte), .f16x2 d, a; and cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2}
 * d, a (exact).  e5m2: 1 for E5M2, 0 for E4M3 (no infinities, NaN 0x7f,
 * largest 448). */
uint16_t ws_emu_num_cvt_f8x2_f32(uint32_t a, uint32_t b, int e5m2, int relu);
uint16_t ws_emu_num_cvt_f8x2_f16x2(uint32_t a, int e5m2, int relu);
uint32_t ws_emu_num_cvt_f16x2_f8x2(uint32_t a, int e5m2, int relu);

/* ---- integers ------------------------------------------------------------ */
/* Sign-extend the low `bits` of v to 64 bits. */
uint64_t ws_emu_num_sext(uint64_t v, int bits);
/* add/sub .sat.s32 (clamps to [INT32_MIN, INT32_MAX]). */
uint32_t ws_emu_num_s32_add_sat(uint32_t a, uint32_t b);
uint32_t ws_emu_num_s32_sub_sat(uint32_t a, uint32_t b);
/* Carry chain: add.cc/addc (cin = CC.CF) and sub.cc/subc, bits 32 or 64.
 * *cout gets the carry out (for sub: the borrow out, 1 when a < b + cin
 * unsigned; subc computes a - (b + cin)). add.cc = addc with cin 0. */
uint64_t ws_emu_num_addc(uint64_t a, uint64_t b, unsigned cin, int bits, unsigned *cout);
uint64_t ws_emu_num_subc(uint64_t a, uint64_t b, unsigned cin, int bits, unsigned *cout);
/* madc{.lo,.hi}{.cc}: (a*b).lo or .hi + c + cin, bits 32 or 64; *cout gets
 * the carry out of that add (for the .cc form). mad.lo.cc = madc with cin 0. */
uint64_t ws_emu_num_madc(uint64_t a, uint64_t b, uint64_t c, unsigned cin, int hi, int sgn, int bits,
                     unsigned *cout);
/* mul.lo / mul.hi (bits 16/32/64); mul.wide (bits 16/32: result 2*bits). */
uint64_t ws_emu_num_mul_lo(uint64_t a, uint64_t b, int bits);
uint64_t ws_emu_num_mul_hi(uint64_t a, uint64_t b, int bits, int sgn);
uint64_t ws_emu_num_mul_wide(uint64_t a, uint64_t b, int bits, int sgn);
/* mad.lo/.hi/.wide: the product above plus c (c is 2*bits wide for .wide),
 * wrapping. mad.hi.sat.s32: `sat` clamps (a*b)>>32 + c to the s32 range. */
uint64_t ws_emu_num_mad_lo(uint64_t a, uint64_t b, uint64_t c, int bits);
uint64_t ws_emu_num_mad_hi(uint64_t a, uint64_t b, uint64_t c, int bits, int sgn, int sat);
uint64_t ws_emu_num_mad_wide(uint64_t a, uint64_t b, uint64_t c, int bits, int sgn);
/* mul24.lo/.hi and mad24.lo/.hi{.sat} (32-bit; operands use their low 24
 * bits, sign-extended for sgn; .hi = bits 16..47 of the 48-bit product). */
uint32_t ws_emu_num_mul24(uint32_t a, uint32_t b, int hi, int sgn);
uint32_t ws_emu_num_mad24(uint32_t a, uint32_t b, uint32_t c, int hi, int sgn, int sat);
/* div / rem. Division by zero: unsigned -> all ones (div), a (rem);
 * signed -> -1 when a >= 0 else 1 (div), a (rem); MIN / -1 -> MIN (wraps),
 * MIN % -1 -> 0. See docs/numerics.md. */
uint64_t ws_emu_num_div(uint64_t a, uint64_t b, int bits, int sgn);
uint64_t ws_emu_num_rem(uint64_t a, uint64_t b, int bits, int sgn);
uint64_t ws_emu_num_min(uint64_t a, uint64_t b, int bits, int sgn);
uint64_t ws_emu_num_max(uint64_t a, uint64_t b, int bits, int sgn);
uint64_t ws_emu_num_abs(uint64_t a, int bits);  /* abs(MIN) = MIN */
uint64_t ws_emu_num_neg(uint64_t a, int bits);
int ws_emu_num_int_cmp(uint64_t a, uint64_t b, ws_emu_num_cmp op, int bits, int sgn);
/* popc/clz/brev.b32/.b64; popc and clz return a count. */
uint32_t ws_emu_num_popc(uint64_t a, int bits);
uint32_t ws_emu_num_clz(uint64_t a, int bits);
uint64_t ws_emu_num_brev(uint64_t a, int bits);
/* bfind{.shiftamt}.u32/.s32/.u64/.s64: bit position of the most significant
 * non-sign bit; 0xFFFFFFFF when none. */
uint32_t ws_emu_num_bfind(uint64_t a, int bits, int sgn, int shiftamt);
/* bfe.u32/.s32/.u64/.s64 (pos and len use their low 8 bits, per the ISA). */
uint64_t ws_emu_num_bfe(uint64_t a, uint32_t pos, uint32_t len, int bits, int sgn);
/* bfi.b32/.b64 d, a(field), b(base), pos, len. */
uint64_t ws_emu_num_bfi(uint64_t a, uint64_t b, uint32_t pos, uint32_t len, int bits);
/* prmt.b32{.mode} d, a, b, c. */
uint32_t ws_emu_num_prmt(uint32_t a, uint32_t b, uint32_t c, ws_emu_num_prmt_mode mode);
/* shf.l/.r{.wrap,.clamp}.b32 d, a(lo), b(hi), c. */
uint32_t ws_emu_num_shf(uint32_t a, uint32_t b, uint32_t c, int left, int wrap);
/* shl.bNN, shr.{b,u,s}NN: shift amounts >= bits clamp (shl/shr.u -> 0,
 * shr.s -> sign fill). `n` is the full unsigned 32-bit amount. */
uint64_t ws_emu_num_shl(uint64_t a, uint32_t n, int bits);
uint64_t ws_emu_num_shr(uint64_t a, uint32_t n, int bits, int sgn);
/* lop3.b32 d, a, b, c, immLut. */
uint32_t ws_emu_num_lop3(uint32_t a, uint32_t b, uint32_t c, uint8_t lut);
/* dp4a.atype.btype / dp2a.lo|hi.atype.btype: *_sgn = .s32 for that operand.
 * Result is s32/u32 bits (wrapping add with c). */
uint32_t ws_emu_num_dp4a(uint32_t a, uint32_t b, uint32_t c, int a_sgn, int b_sgn);
uint32_t ws_emu_num_dp2a(uint32_t a, uint32_t b, uint32_t c, int a_sgn, int b_sgn, int hi);
/* sad.type d, a, b, c: c + |a - b|. */
uint64_t ws_emu_num_sad(uint64_t a, uint64_t b, uint64_t c, int bits, int sgn);
/* szext.{clamp,wrap}.{u32,s32} d, a, b: extend the low b bits of a. */
uint32_t ws_emu_num_szext(uint32_t a, uint32_t b, int wrap, int sgn);
/* bmsk.{clamp,wrap}.b32 d, a(pos), b(width). */
uint32_t ws_emu_num_bmsk(uint32_t a, uint32_t b, int wrap);
/* Packed 16-bit integers (.u16x2/.s16x2): add/sub wrap per half;
 * min/max{.relu} (relu: negative halves -> 0, s16x2 only). */
uint32_t ws_emu_num_add16x2(uint32_t a, uint32_t b, int sub);
uint32_t ws_emu_num_min16x2(uint32_t a, uint32_t b, int sgn, int relu);
uint32_t ws_emu_num_max16x2(uint32_t a, uint32_t b, int sgn, int relu);
/* fns.b32 d, mask, base, offset: position of the n-th set bit (0xFFFFFFFF if
 * not found). */
uint32_t ws_emu_num_fns(uint32_t mask, uint32_t base, int32_t offset);

#endif
