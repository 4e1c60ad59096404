/*
 * ops/atom.h — atom (the old value to d) and red on global, shared and
 * generic addresses.  Within a warp lanes apply in lane order; global
 * atomics use the host's compare-and-swap (blocks run on several worker
 * threads), shared memory belongs to one block and one worker.  Decoders
 * and executors of the ATOM family (dops.def); compiled in exec.c.
 */

/* atom.space.op.type d, [a], b{, c}; red.space.op.type [a], b */
DECODER(atom_red) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  int isatom = in->op == WS_PTX_OP_ATOM;
  int ms, i = isatom ? 1 : 0;
  TRY(ws_emu_dec_space(D, in, &o[i], &ms));
  if (ms != MS_GLOBAL && ms != MS_SHARED && ms != MS_GENERIC) UNSUP("atomic state space");
  if (in->vec > 1) UNSUP("vector atomics: atom/red .v2/.v4/.v8, sm_90's atomicAdd on float2 and float4");
  di->space = (uint8_t)ms;
  di->size = (uint8_t)(T->bits / 8);
  di->aop = in->bop;
  int f = T->isf32 || T->isf64;
  switch (in->bop) {
  case WS_PTX_MOD_ADD: break; /* f16/bf16/f16x2/bf16x2: .noftz, round to nearest */
  case WS_PTX_MOD_MIN: case WS_PTX_MOD_MAX: if (T->hk >= 0) UNSUP("half-precision atomic"); break;
  case WS_PTX_MOD_INC: case WS_PTX_MOD_DEC: if (f || T->bits != 32) UNSUP("atomic type"); break;
  case WS_PTX_MOD_AND: case WS_PTX_MOD_OR: case WS_PTX_MOD_XOR: case WS_PTX_MOD_EXCH: case WS_PTX_MOD_CAS:
    if (T->bits < 32 && !(in->bop == WS_PTX_MOD_CAS && T->bits == 16)) UNSUP("atomic type");
    break;
  default: UNSUP("atomic operation");
  }
  if (T->bits < 32 && in->bop != WS_PTX_MOD_CAS && !(T->hk >= 0 && in->bop == WS_PTX_MOD_ADD))
    UNSUP("atomic type");
  di->ty = (uint8_t)(T->isf32 ? 1 : T->isf64 ? 2 : T->hk >= 0 ? 3 + T->hk : 0);
  if (isatom) DST(0);
  TRY(ws_emu_dec_address(D, in, &o[i], di));
  SRC(i + 1, b);
  if (in->bop == WS_PTX_MOD_CAS) {
    if (!isatom || in->nops < 4) REFUSE();
    SRC(i + 2, c);
  }
  di->op = isatom ? D_ATOM : D_RED;
  return WS_OK;
}

/* New value of an atomic op (ws_emu_atom_value, shared with the
 * translated engine). */
static inline uint64_t atom_new(const dinst *in, uint64_t old, uint64_t v, uint64_t cmpv) {
  return ws_emu_atom_value(in->size, in->aop, in->ty, in->sgn, old, v, cmpv);
}

/* Compare-and-swap loop of one width: *q becomes atom_new(old); the old
 * value is returned. */
#define ATOM_CAS(T)                                                                          \
  do {                                                                                       \
    T *q = (T *)(void *)p, old = __atomic_load_n(q, __ATOMIC_SEQ_CST);                      \
    for (;;) {                                                                               \
      T nv = (T)atom_new(in, old, v, c);                                                     \
      if (__atomic_compare_exchange_n(q, &old, nv, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))   \
        return old;                                                                          \
    }                                                                                        \
  } while (0)

/* Apply one lane's atomic at p; shared memory is private to the worker. */
static inline uint64_t atom_apply(const dinst *in, uint8_t *p, int global, uint64_t v, uint64_t c) {
  int n = in->size;
  if (!global) {
    uint64_t old = rd(p, n);
    wr(p, n, atom_new(in, old, v, c));
    return old;
  }
  if (n == 4) ATOM_CAS(uint32_t);
  if (n == 8) ATOM_CAS(uint64_t);
  ATOM_CAS(uint16_t);
}
#undef ATOM_CAS

EXECUTOR int atom_exec(const xctx *X, const dinst *in, uint32_t m) {
  blockctx *B = X->B;
  warp *w = X->w;
  const int hooked = X->H != NULL;
  const uint64_t *A = lanes(X, in->a), *V = lanes(X, in->b), *C = in->c != NO_SLOT ? lanes(X, in->c) : NULL;
  uint64_t *Dd = in->d != NO_SLOT ? lanes(X, in->d) : NULL;
  uint64_t off = (uint64_t)in->imm;
  LANES(m, {
    uint64_t a = eff_addr(in, A[l], off);
    if (hooked) w->addr[l] = a;
    uint8_t *p = resolve(B, w, in->space, a, in->size, l, 1, X->F, PC(in));
    if (!p) return FL_FAULT;
    int global = !(p >= B->shared && p < B->shared + B->L->shared_bytes);
    uint64_t old = atom_apply(in, p, global, V[l], C ? C[l] : 0);
    if (Dd) Dd[l] = old;
  });
  return FL_NEXT;
}
/* In a cooperative launch an atom is a spin point (a lock, a counter
 * another block may be waiting for: exec.c, spin_point). */
EXEC(ATOM) {
  int r = atom_exec(X, in, m);
  if (r != FL_NEXT || !X->B->L->grid_ws || in->d == NO_SLOT) return r;
  return spin_point(X, in, m, &in->d, 1, 1);
}
EXEC(RED) { return atom_exec(X, in, m); }
