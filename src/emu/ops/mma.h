/*
 * ops/mma.h — warp-level matrix instructions: wmma.load/store/mma,
 * mma.sync, ldmatrix, stmatrix and movmatrix (docs/emulator.md, "Matrix
 * instructions").  Each executes for the whole warp at once: the lanes'
 * registers together hold the matrices ("fragments").
 *
 * mma.sync: the fragment layouts of the PTX ISA ("Matrix fragments for
 * mma.mMnNkK"), for the shapes and types CUDA 13 emits on sm_80..sm_90:
 * m16n8k8 and m16n8k16 (.f16, .bf16 with .f16/.f32 accumulators), m16n8k4
 * and m16n8k8 (.tf32), m8n8k4 (.f64), m8n8k16, m16n8k16, m16n8k32 (.s8,
 * .u8).  With groupID = lane >> 2 and t = lane % 4, and e elements of A or
 * B per 32-bit register (2 for 16-bit types, 4 for 8-bit, 1 for tf32):
 *   A register r: row groupID (+8 for odd r when M is 16), columns
 *     (r >> 1) * 4e + t * e + j for its elements j (r for M = 8);
 *   B register r: rows r * 4e + t * e + j, column groupID;
 *   C/D element i: row groupID + 8 * (i >> 1) (M = 16; groupID for M = 8),
 *     column t * 2 + (i & 1).
 * wmma: the ISA leaves the distribution of a fragment over the lanes
 * unspecified; the emulator's (the same for load, mma and store, so every
 * program that uses fragments only through them, or element-wise, is
 * exact) gives lane l's element e the matrix element of row-major index
 * (l * n + e) mod (rows * cols), n the lane's elements: when the fragment
 * holds each element more than once (f16 A and B of 16x16x16), lanes
 * repeat the matrix and the mma reads each element's first copy.
 *
 * Arithmetic (the ISA leaves the order of accumulation and its rounding
 * unspecified beyond "at least single precision"; the emulator's choice,
 * reproduced by tests/unit/test_emu_mma.c's reference): every product of
 * .f16/.bf16/.tf32 inputs is exact in double precision; d = c + the
 * products in k order, summed in double precision, rounded once to the
 * destination type (.f32 or .f16, to nearest even).  .tf32 inputs use
 * their upper 19 bits (the low 13 significand bits of the register are
 * ignored, as the tensor cores do).  .f64: d = fma(a_k, b_k, d) in k
 * order, each rounded to nearest.  Integers: exact, in 64 bits; .satfinite
 * clamps to the s32 range, else the low 32 bits wrap.
 * Decoders and executors of the MMA family (dops.def); compiled in exec.c.
 */

/* Element types of matrix operands. */
enum { MT_F16, MT_BF16, MT_TF32, MT_F32, MT_F64, MT_S8, MT_U8, MT_S32, MT_NONE };

static int mt_of(int t) {
  switch (t) {
  case WS_PTX_T_F16: case WS_PTX_T_F16X2: return MT_F16;
  case WS_PTX_T_BF16: case WS_PTX_T_BF16X2: return MT_BF16;
  case WS_PTX_T_TF32: return MT_TF32;
  case WS_PTX_T_F32: return MT_F32;
  case WS_PTX_T_F64: return MT_F64;
  case WS_PTX_T_S8: return MT_S8;
  case WS_PTX_T_U8: return MT_U8;
  case WS_PTX_T_S32: return MT_S32;
  default: return MT_NONE;
  }
}

/* Bits of one element; elements per register (64-bit registers for f64). */
static inline uint32_t mt_bits(int mt) {
  static const uint8_t b[] = {16, 16, 32, 32, 64, 8, 8, 32};
  return b[mt];
}
static inline uint32_t mt_per_reg(int mt) { return mt == MT_F64 ? 1 : 32 / mt_bits(mt); }

/* The shape modifier's M, N, K; 0 when it is none of the matrix shapes
 * (the decoders check which shapes go with which types). */
static int mma_shape(int mod, uint32_t *M, uint32_t *N, uint32_t *K) {
  unsigned m, n, k;
  if (!ws_ptx_shape_mnk((ws_ptx_mod)mod, &m, &n, &k)) return 0;
  *M = m, *N = n, *K = k;
  return 1;
}

/* A matrix operand of an instruction: its element type, its rows and
 * columns, and its registers (n of them from vslots[base]). */
typedef struct mfrag {
  uint8_t mt, nregs;
  uint8_t rows, cols;
  uint32_t base;
} mfrag;

/* dinst packing of the matrix instructions: vslots hold the register
 * operands one after the other (d, a, b, c for mma); imm (mma) or target
 * (load, store: imm is the address offset) holds the fragment facts. */
static inline uint64_t frag_pack(mfrag f) {
  return (uint64_t)f.mt | (uint64_t)f.nregs << 8 | (uint64_t)f.rows << 16 | (uint64_t)f.cols << 24;
}
static inline mfrag frag_unpack(uint32_t v, uint32_t base) {
  mfrag f = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24), base};
  return f;
}

/* Element e of lane l's fragment f (its raw bits, zero-extended). */
static inline uint64_t frag_get(const xctx *X, const mfrag *f, uint32_t l, uint32_t e) {
  uint32_t per = mt_per_reg(f->mt), b = mt_bits(f->mt);
  uint64_t v = lanes(X, X->F->vslots[f->base + e / per])[l];
  if (f->mt == MT_F64) return v;
  return (v >> ((e % per) * b)) & wmask_of((int)b);
}
static inline void frag_set(const xctx *X, const mfrag *f, uint32_t l, uint32_t e, uint64_t bits) {
  uint32_t per = mt_per_reg(f->mt), b = mt_bits(f->mt);
  uint64_t *R = &lanes(X, X->F->vslots[f->base + e / per])[l];
  if (f->mt == MT_F64) {
    *R = bits;
    return;
  }
  uint32_t sh = (e % per) * b;
  uint64_t mk = wmask_of((int)b) << sh;
  *R = ((*R & ~mk) | ((bits << sh) & mk)) & 0xffffffffu;
}

/* An element's value: floating types as a double (exact), integers
 * sign- or zero-extended in *iv. */
static inline double mt_value(int mt, uint64_t bits, int64_t *iv) {
  switch (mt) {
  case MT_F16: return f64(ws_emu_num_cvt(bits, WS_NUM_F16, WS_NUM_F64, WS_NUM_RN, 0, 0));
  case MT_BF16: return (double)f32(bits << 16);
  case MT_TF32: return (double)f32(bits & 0xffffe000u);
  case MT_F32: return (double)f32(bits);
  case MT_F64: return f64(bits);
  case MT_S8: *iv = (int8_t)bits; return 0;
  case MT_U8: *iv = (uint8_t)bits; return 0;
  default: *iv = (int32_t)bits; return 0;
  }
}

/* The fragment operand i (a vector of registers) of instruction in. */
static int frag_operand(dec *D, const ws_ptx_inst *in, dinst *di, int i, int is_dst, int mt, uint32_t rows,
                        uint32_t cols, mfrag *f) {
  int t = mt == MT_F64 ? WS_PTX_T_F64 : mt == MT_F32 ? WS_PTX_T_F32 : WS_PTX_T_B32;
  uint32_t vb = di->vbase;
  const ws_ptx_operand *o = &in->ops[i];
  if (o->kind != WS_PTX_O_VEC) return ws_emu_dec_unsup(D, in, "matrix operand is not a vector of registers");
  TRY(ws_emu_dec_vec(D, in, o, t, is_dst, di));
  f->mt = (uint8_t)mt;
  f->nregs = di->vec;
  f->rows = (uint8_t)rows;
  f->cols = (uint8_t)cols;
  f->base = di->vbase;
  di->vbase = vb;
  return WS_OK;
}

/* ---- wmma ---------------------------------------------------------------------- */

/* The matrix element (r, c) of lane l's fragment element e (wmma layout);
 * first: whether (l, e) holds the element's first copy. */
static inline void wfrag_rc(const mfrag *f, uint32_t l, uint32_t e, uint32_t *r, uint32_t *c) {
  uint32_t n = (uint32_t)f->nregs * mt_per_reg(f->mt), total = (uint32_t)f->rows * f->cols;
  uint32_t idx = (l * n + e) % total;
  *r = idx / f->cols;
  *c = idx % f->cols;
}

/* The wmma fragment of matrix `which` (0 a, 1 b, 2 c/d) of shape M, N, K. */
static void wmma_dims(int which, uint32_t M, uint32_t N, uint32_t K, uint32_t *rows, uint32_t *cols) {
  *rows = which == 0 ? M : which == 1 ? K : M;
  *cols = which == 0 ? K : N;
}

/* Whether a fragment of nregs registers holds the rows x cols matrix a
 * whole number of times. */
static int frag_fits(const mfrag *f) {
  uint32_t n = 32u * f->nregs * mt_per_reg(f->mt), total = (uint32_t)f->rows * f->cols;
  return n >= total && n % total == 0;
}

/* wmma.load.{a,b,c}.sync.aligned.layout.shape{.ss}.type r, [p]{, stride};
 * wmma.store.d.sync.aligned.layout.shape{.ss}.type [p], r{, stride} */
DECODER(wmma_ldst) {
  int st = in->op == WS_PTX_OP_WMMA_STORE_D;
  int which = in->op == WS_PTX_OP_WMMA_LOAD_A ? 0 : in->op == WS_PTX_OP_WMMA_LOAD_B ? 1 : 2;
  uint32_t M, N, K, rows, cols;
  int ms, mt = mt_of(T->t), t = WS_PTX_T_U32;
  if (!mma_shape(in->shape, &M, &N, &K) || mt == MT_NONE) UNSUP("wmma shape or type");
  if ((which < 2 && (mt == MT_F32 || mt == MT_S32)) || (which == 2 && mt != MT_F16 && mt != MT_F32 && mt != MT_F64 && mt != MT_S32))
    UNSUP("wmma shape or type");
  wmma_dims(which, M, N, K, &rows, &cols);
  int col = 0, nl = 0;
  for (int i = 0; i < in->nmods; i++)
    if (in->mods[i] == WS_PTX_MOD_ROW || in->mods[i] == WS_PTX_MOD_COL) {
      col = in->mods[i] == WS_PTX_MOD_COL;
      nl++;
    }
  if (nl != 1) UNSUP("wmma layout");
  const ws_ptx_operand *ao = &in->ops[st ? 0 : 1];
  TRY(ws_emu_dec_space(D, in, ao, &ms));
  if (ms != MS_GLOBAL && ms != MS_SHARED && ms != MS_GENERIC) UNSUP("wmma state space");
  di->op = st ? D_WMMA_ST : D_WMMA_LD;
  di->space = (uint8_t)ms;
  di->hookmem = 1;
  TRY(ws_emu_dec_address(D, in, ao, di));
  mfrag f = {0};
  TRY(frag_operand(D, in, di, st ? 1 : 0, !st, mt, rows, cols, &f));
  if (!frag_fits(&f)) UNSUP("wmma fragment size");
  di->vbase = f.base;
  di->target = (uint32_t)frag_pack(f);
  di->left = (uint8_t)col; /* column-major memory */
  di->size = (uint8_t)(mt_bits(mt) / 8);
  di->vec = 1;
  if (in->nops > 2) SRC(2, b);
  else CONST(col ? rows : cols, b);
  return WS_OK;
}

/* The address of matrix element (r, c) for lane l. */
static inline uint64_t wmma_addr(const dinst *in, uint64_t base, uint64_t stride, uint32_t r, uint32_t c) {
  uint64_t i = in->left ? (uint64_t)c * stride + r : (uint64_t)r * stride + c;
  return eff_addr(in, base, (uint64_t)in->imm + i * in->size);
}

/* Load or store every element of every lane's fragment. */
EXECUTOR int wmma_ldst(const xctx *X, const dinst *in, uint32_t m, int st) {
  mfrag f = frag_unpack(in->target, in->vbase);
  uint32_t n = (uint32_t)f.nregs * mt_per_reg(f.mt);
  const uint64_t *A = lanes(X, in->a), *S = lanes(X, in->b);
  LANES(m, {
    for (uint32_t e = 0; e < n; e++) {
      uint32_t r, c;
      wfrag_rc(&f, l, e, &r, &c);
      uint64_t a = wmma_addr(in, A[l], (uint32_t)S[l], r, c);
      if (e == 0) X->w->addr[l] = a;
      uint8_t *p = resolve(X->B, X->w, in->space, a, in->size, l, st, X->F, PC(in));
      if (!p) return FL_FAULT;
      if (st) wr(p, in->size, frag_get(X, &f, l, e));
      else frag_set(X, &f, l, e, rd(p, in->size));
    }
  });
  return FL_NEXT;
}
EXEC(WMMA_LD) { return wmma_ldst(X, in, m, 0); }
EXEC(WMMA_ST) { return wmma_ldst(X, in, m, 1); }

/* ---- the product, shared by wmma.mma and mma.sync ------------------------------------ */

/* How a matrix operand's elements map to lanes. */
enum { LAY_WMMA, LAY_MMA };

/* Lane and element holding matrix element (r, c) of operand `which` (0 A,
 * 1 B, 2 C/D) of fragment f, for layout lay (mma shape M x N x K). */
static void frag_where(int lay, int which, const mfrag *f, uint32_t M, uint32_t r, uint32_t c, uint32_t *lane,
                       uint32_t *e) {
  if (lay == LAY_WMMA) {
    uint32_t n = (uint32_t)f->nregs * mt_per_reg(f->mt), idx = r * f->cols + c;
    *lane = idx / n;
    *e = idx % n;
    return;
  }
  uint32_t per = mt_per_reg(f->mt);
  if (which == 2) { /* row g + 8 * (i >> 1), column t * 2 + (i & 1) */
    uint32_t g = r % 8, hi = r / 8, t = c / 2;
    *lane = g * 4 + t;
    *e = hi * 2 + (c & 1);
    return;
  }
  if (which == 1) { /* B register q: rows q * 4e + t * e + j, column g */
    uint32_t q = r / (4 * per), t = (r % (4 * per)) / per, j = r % per;
    *lane = c * 4 + t;
    *e = q * per + j;
    return;
  }
  /* A register q: row g (+8 for odd q when M = 16), columns (q >> 1) * 4e + t * e + j */
  uint32_t chunk = c / (4 * per), t = (c % (4 * per)) / per, j = c % per, g = r % 8;
  uint32_t q = M == 16 ? chunk * 2 + r / 8 : chunk;
  *lane = g * 4 + t;
  *e = q * per + j;
}

/* The floating-point result of one output element (see the top comment). */
static uint64_t mma_round(int dt, double s) {
  if (dt == MT_F16) return ws_emu_num_cvt(bf64(s), WS_NUM_F64, WS_NUM_F16, WS_NUM_RN, 0, 0);
  if (dt == MT_F64) return bf64(s);
  return bf32((float)s);
}

/* The most elements of one mma operand: the PTX ISA's largest shapes'
 * (m16n8k32's a, 16 x 32, and m32n8k16's a, 32 x 16); mma_operands refuses
 * a larger one, so mma_compute's tables and results always fit. */
#define MMA_TAB 512

/* Operand `which` (0 a: rows x cols = M x K, 1 b: K x N) of fragment f
 * into v (floating values) and iv (integer values), row-major: each
 * element converted once per instruction instead of once per product it
 * takes part in (a 16x16x16 f16 wmma.mma did 8192 f16 -> f64 conversions,
 * and the kernel zoo's wmma GEMM profiled in 115 s, 90 % of it here). */
static void mma_table(const xctx *X, int lay, int which, const mfrag *f, uint32_t M, uint32_t rows, uint32_t cols,
                      double *v, int64_t *iv) {
  for (uint32_t r = 0; r < rows; r++)
    for (uint32_t c = 0; c < cols; c++) {
      uint32_t l, e;
      int64_t x = 0;
      frag_where(lay, which, f, M, r, c, &l, &e);
      v[r * cols + c] = mt_value(f->mt, frag_get(X, f, l, e), &x);
      iv[r * cols + c] = x;
    }
}

/* d = a * b + c for the warp: M x N x K, fragments da, fa, fb, fc in layout
 * lay; sat: .satfinite on integers. */
static void mma_compute(const xctx *X, int lay, uint32_t M, uint32_t N, uint32_t K, const mfrag *fd, const mfrag *fa,
                        const mfrag *fb, const mfrag *fc, int sat) {
  uint64_t out[MMA_TAB]; /* at most 512 results per warp */
  int isint = fa->mt == MT_S8 || fa->mt == MT_U8;
  double va_[MMA_TAB], vb_[MMA_TAB]; /* 16 KiB of stack */
  int64_t ia_[MMA_TAB], ib_[MMA_TAB];
  mma_table(X, lay, 0, fa, M, M, K, va_, ia_);
  mma_table(X, lay, 1, fb, M, K, N, vb_, ib_);
  for (uint32_t r = 0; r < M; r++)
    for (uint32_t c = 0; c < N; c++) {
      uint32_t l, e;
      int64_t iv = 0;
      frag_where(lay, 2, fc, M, r, c, &l, &e);
      double s = mt_value(fc->mt, frag_get(X, fc, l, e), &iv);
      for (uint32_t k = 0; k < K; k++) {
        double va = va_[r * K + k], vb = vb_[k * N + c];
        if (isint) iv += ia_[r * K + k] * ib_[k * N + c];
        else if (fa->mt == MT_F64) s = fma(va, vb, s);
        else s += va * vb;
      }
      uint64_t res;
      if (isint) {
        if (sat) iv = iv > INT32_MAX ? INT32_MAX : iv < INT32_MIN ? INT32_MIN : iv;
        res = (uint32_t)iv;
      } else {
        res = mma_round(fd->mt, s);
      }
      out[r * N + c] = res;
    }
  /* written after every read: d may name the same registers as a, b or c */
  for (uint32_t r = 0; r < M; r++)
    for (uint32_t c = 0; c < N; c++) {
      uint32_t l, e;
      frag_where(lay, 2, fd, M, r, c, &l, &e);
      if (lay == LAY_WMMA) { /* every copy of the element */
        uint32_t n = (uint32_t)fd->nregs * mt_per_reg(fd->mt), total = M * N;
        for (uint32_t idx = r * N + c; idx < 32 * n; idx += total) frag_set(X, fd, idx / n, idx % n, out[r * N + c]);
      } else {
        frag_set(X, fd, l, e, out[r * N + c]);
      }
    }
}

/* The d, a, b, c operands of wmma.mma or mma.sync (element types t[4] in
 * that order) for layout lay: their fragments, checked against the
 * layout's sizes (wmma: a whole number of copies of each matrix; mma: the
 * registers the ISA's layout needs: A M*K, B K*N, C M*N elements over 32
 * lanes), and the D_MMA instruction. */
static int mma_operands(dec *D, const ws_ptx_inst *in, dinst *di, int lay, uint32_t M, uint32_t N, uint32_t K,
                        const int t[4]) {
  const uint32_t rows[4] = {M, M, K, M}, cols[4] = {N, K, N, N};
  mfrag f[4] = {{0}}; /* d, a, b, c */
  for (int i = 0; i < 4; i++) {
    TRY(frag_operand(D, in, di, i, i == 0, t[i], rows[i], cols[i], &f[i]));
    if (rows[i] * cols[i] > MMA_TAB) UNSUP("matrix shape larger than the PTX ISA's mma and wmma shapes");
    if (lay == LAY_WMMA && !frag_fits(&f[i])) UNSUP("wmma fragment size");
    if (lay == LAY_MMA && 32u * f[i].nregs * mt_per_reg(t[i]) != rows[i] * cols[i]) UNSUP("mma operand sizes");
  }
  di->op = D_MMA;
  di->mode = (uint8_t)lay;
  di->vbase = f[0].base;
  di->sat = (uint8_t)ws_ptx_inst_has(in, WS_PTX_MOD_SATFINITE);
  di->imm = (int64_t)(frag_pack(f[1]) | frag_pack(f[2]) << 32);
  di->target = (uint32_t)frag_pack(f[3]);
  di->rpc = (uint32_t)frag_pack(f[0]);
  di->e = K;
  return WS_OK;
}

/* wmma.mma.sync.aligned.alayout.blayout.shape.dtype.ctype d, a, b, c (f16);
 * ... .shape.dtype.atype.btype.ctype{.satfinite} (bf16, tf32, s8, u8);
 * ... .shape{.rn}.f64.f64.f64.f64 */
DECODER(wmma_mma) {
  uint32_t M, N, K;
  (void)T;
  if (!mma_shape(in->shape, &M, &N, &K)) UNSUP("wmma shape");
  int dt, at, bt, ct;
  if (in->ntypes == 2) {
    dt = mt_of(in->type[0]);
    ct = mt_of(in->type[1]);
    at = bt = MT_F16;
  } else if (in->ntypes == 4) {
    dt = mt_of(in->type[0]);
    at = mt_of(in->type[1]);
    bt = mt_of(in->type[2]);
    ct = mt_of(in->type[3]);
  } else {
    UNSUP("wmma types");
  }
  if (dt == MT_NONE || at == MT_NONE || bt == MT_NONE || ct == MT_NONE || (at == MT_S8 || at == MT_U8) != (dt == MT_S32))
    UNSUP("wmma types");
  if (in->round && in->round != WS_PTX_MOD_RN) UNSUP("wmma rounding other than .rn");
  return mma_operands(D, in, di, LAY_WMMA, M, N, K, (const int[4]){dt, at, bt, ct});
}

/* mma.sync.aligned.shape.row.col{.satfinite}.dtype.atype.btype.ctype d, a, b, c */
DECODER(mma_sync) {
  uint32_t M, N, K;
  (void)T;
  if (!mma_shape(in->shape, &M, &N, &K) || N != 8 || in->ntypes != 4) UNSUP("mma shape");
  int dt = mt_of(in->type[0]), at = mt_of(in->type[1]), bt = mt_of(in->type[2]), ct = mt_of(in->type[3]);
  int lay[2] = {-1, -1}, nl = 0;
  for (int i = 0; i < in->nmods && nl < 2; i++)
    if (in->mods[i] == WS_PTX_MOD_ROW || in->mods[i] == WS_PTX_MOD_COL) lay[nl++] = in->mods[i];
  if (lay[0] != WS_PTX_MOD_ROW || lay[1] != WS_PTX_MOD_COL) UNSUP("mma layout other than .row.col");
  /* the shapes and types of the top comment */
  int ok = 0;
  if ((at == MT_F16 || at == MT_BF16) && bt == at && (K == 8 || K == 16) && M == 16)
    ok = at == MT_F16 ? (dt == MT_F16 || dt == MT_F32) && (ct == MT_F16 || ct == MT_F32) : dt == MT_F32 && ct == MT_F32;
  if (at == MT_TF32 && bt == at && M == 16 && (K == 4 || K == 8)) ok = dt == MT_F32 && ct == MT_F32;
  if (at == MT_F64 && bt == at && M == 8 && K == 4) ok = dt == MT_F64 && ct == MT_F64;
  if ((at == MT_S8 || at == MT_U8) && (bt == MT_S8 || bt == MT_U8) && dt == MT_S32 && ct == MT_S32)
    ok = (M == 8 && K == 16) || (M == 16 && (K == 16 || K == 32));
  if (!ok) UNSUP("mma shape and types");
  return mma_operands(D, in, di, LAY_MMA, M, N, K, (const int[4]){dt, at, bt, ct});
}

/* The whole warp's product (the ISA makes every lane of the warp take part:
 * the emulator computes from the registers of all 32 lanes). */
LIB_EXEC(MMA) {
  (void)m;
  mfrag fd = frag_unpack(in->rpc, in->vbase);
  mfrag fa = frag_unpack((uint32_t)in->imm, 0), fb = frag_unpack((uint32_t)((uint64_t)in->imm >> 32), 0),
        fc = frag_unpack(in->target, 0);
  /* the operands' registers follow d's in vslots: d, a, b, c */
  fa.base = fd.base + fd.nregs;
  fb.base = fa.base + fa.nregs;
  fc.base = fb.base + fb.nregs;
  uint32_t M = fd.rows, N = fd.cols, K = in->e;
  mma_compute(X, in->mode, M, N, K, &fd, &fa, &fb, &fc, in->sat);
  return FL_NEXT;
}

/* ---- ldmatrix, stmatrix, movmatrix ------------------------------------------------------ */

/* ldmatrix.sync.aligned.m8n8.x1/.x2/.x4{.trans}{.ss}.b16 r, [p];
 * stmatrix.sync.aligned.m8n8.x1/.x2/.x4{.trans}{.ss}.b16 [p], r */
DECODER(ldstmatrix) {
  int st = in->op == WS_PTX_OP_STMATRIX, ms;
  (void)T;
  if (in->shape != WS_PTX_MOD_M8N8 || in->ntypes != 1 || in->type[0] != WS_PTX_T_B16) UNSUP("matrix shape or type");
  int n = ws_ptx_inst_has(in, WS_PTX_MOD_X4) ? 4 : ws_ptx_inst_has(in, WS_PTX_MOD_X2) ? 2 : 1;
  const ws_ptx_operand *ao = &in->ops[st ? 0 : 1];
  TRY(ws_emu_dec_space(D, in, ao, &ms));
  if (ms != MS_SHARED && ms != MS_GENERIC) UNSUP("matrix state space");
  di->op = st ? D_STMATRIX : D_LDMATRIX;
  di->space = (uint8_t)ms;
  di->hookmem = 1;
  di->size = 16; /* one 16-byte row per lane (what the hooks see) */
  TRY(ws_emu_dec_address(D, in, ao, di));
  const ws_ptx_operand *vo = &in->ops[st ? 1 : 0];
  if (vo->kind != WS_PTX_O_VEC || vo->comp != n) UNSUP("matrix register count");
  TRY(ws_emu_dec_vec(D, in, vo, WS_PTX_T_B32, !st, di));
  di->vec = 1;
  di->mode = (uint8_t)n; /* matrices */
  di->bop = (uint8_t)ws_ptx_inst_has(in, WS_PTX_MOD_TRANS);
  return WS_OK;
}

/* Matrix q's row addresses come from lanes 8q .. 8q+7; thread t's register
 * q holds row t/4, columns 2(t%4) and 2(t%4)+1 (.trans: the transpose). */
EXECUTOR int ldstmatrix(const xctx *X, const dinst *in, uint32_t m, int st) {
  (void)m;
  const uint64_t *A = lanes(X, in->a);
  uint8_t *row[32];
  for (uint32_t q = 0; q < in->mode; q++)
    for (uint32_t i = 0; i < 8; i++) {
      uint32_t l = q * 8 + i;
      uint64_t a = eff_addr(in, A[l], (uint64_t)in->imm);
      if (!(row[l] = resolve(X->B, X->w, in->space, a, 16, l, st, X->F, PC(in)))) return FL_FAULT;
    }
  for (uint32_t l = 0; l < 32; l++) X->w->addr[l] = eff_addr(in, A[l % (8u * in->mode)], (uint64_t)in->imm);
  for (uint32_t q = 0; q < in->mode; q++) {
    uint64_t *R = lanes(X, X->F->vslots[in->vbase + q]);
    for (uint32_t t = 0; t < 32; t++)
      for (uint32_t h = 0; h < 2; h++) {
        uint32_t r = t / 4, c = 2 * (t % 4) + h; /* the element register q of thread t holds */
        uint8_t *p = in->bop ? row[q * 8 + c] + 2 * r : row[q * 8 + r] + 2 * c;
        if (st) {
          uint16_t v = (uint16_t)(R[t] >> (16 * h));
          memcpy(p, &v, 2);
        } else {
          uint16_t v;
          memcpy(&v, p, 2);
          R[t] = (R[t] & ~(0xffffull << (16 * h)) & 0xffffffffu) | (uint64_t)v << (16 * h);
        }
      }
  }
  return FL_NEXT;
}
EXEC(LDMATRIX) { return ldstmatrix(X, in, m, 0); }
EXEC(STMATRIX) { return ldstmatrix(X, in, m, 1); }

/* movmatrix.sync.aligned.m8n8.trans.b16 d, a: the transpose of the 8x8
 * matrix the warp holds in a (one register per thread, ldmatrix's layout) */
DECODER(movmatrix) {
  int t = WS_PTX_T_B32;
  (void)T;
  if (in->shape != WS_PTX_MOD_M8N8 || !ws_ptx_inst_has(in, WS_PTX_MOD_TRANS)) UNSUP("movmatrix form");
  di->op = D_MOVMATRIX;
  DST(0);
  SRC(1, a);
  return WS_OK;
}
EXEC(MOVMATRIX) {
  (void)m;
  const uint64_t *A = lanes(X, in->a);
  uint16_t mat[8][8], out[32][2];
  for (uint32_t t = 0; t < 32; t++)
    for (uint32_t h = 0; h < 2; h++) mat[t / 4][2 * (t % 4) + h] = (uint16_t)(A[t] >> (16 * h));
  for (uint32_t t = 0; t < 32; t++)
    for (uint32_t h = 0; h < 2; h++) out[t][h] = mat[2 * (t % 4) + h][t / 4];
  uint64_t *Dd = lanes(X, in->d);
  for (uint32_t t = 0; t < 32; t++) Dd[t] = (uint64_t)out[t][0] | (uint64_t)out[t][1] << 16;
  return FL_NEXT;
}
