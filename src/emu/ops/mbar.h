/*
 * ops/mbar.h — mbarrier objects: 8-byte barriers in shared memory with an
 * expected arrival count, a pending arrival count, a transaction count
 * (bytes of asynchronous copies still to land) and a phase (PTX ISA,
 * "Parallel synchronization and communication instructions: mbarrier").
 *
 * The object is opaque to programs; the emulator keeps its state in its
 * 64 bits:
 *   bits  0..19  pending arrivals of the current phase (0 .. 2^20 - 1)
 *   bits 20..39  expected arrivals per phase (the init count, lowered by
 *                arrive_drop)
 *   bits 40..60  transaction count, 21-bit two's complement (-(2^20-1) ..
 *                2^20 - 1)
 *   bit  63      the current phase's parity
 * The phase completes when the pending arrivals reach zero and the
 * transaction count is zero: the parity flips, pending becomes expected.
 * The state an arrive returns is the object right after its arrival (the
 * phase it arrived in, the arrivals still pending); test_wait with it is
 * true once that phase completed.
 *
 * A wait that is not complete (test_wait, try_wait false) makes the warp
 * yield (the others run; spin loops progress), and marks it spinning: when
 * every warp of a block still running spins at a wait or waits at a
 * barrier, and a whole round of them changed no mbarrier, the block is
 * stopped with a deadlock report (exec.c) instead of spinning until the
 * instruction limit.  Blocks own their shared memory: no atomics needed.
 * Decoders and executors of the MBAR family (dops.def); compiled in exec.c.
 */

#define MB_PEND(v) ((uint32_t)((v) & 0xfffffu))
#define MB_EXP(v) ((uint32_t)(((v) >> 20) & 0xfffffu))
#define MB_PHASE(v) ((uint32_t)((v) >> 63))

static inline int32_t mb_tx(uint64_t v) {
  uint32_t t = (uint32_t)((v >> 40) & 0x1fffffu);
  return (int32_t)(t << 11) >> 11; /* sign-extend 21 bits */
}

static inline uint64_t mb_make(uint32_t pend, uint32_t expct, int32_t tx, uint32_t phase) {
  return (uint64_t)(pend & 0xfffffu) | (uint64_t)(expct & 0xfffffu) << 20 |
         (uint64_t)((uint32_t)tx & 0x1fffffu) << 40 | (uint64_t)(phase & 1) << 63;
}

/* The mbarrier operand [addr] (operand i) of a shared or generic
 * mbarrier instruction into di->a + di->imm (di->space); op is the
 * decoded opcode. */
static int mbar_operand(dec *D, const ws_ptx_inst *in, dinst *di, int i, int op) {
  int ms;
  if (ws_ptx_inst_has(in, WS_PTX_MOD_SHARED_CLUSTER))
    return ws_emu_dec_unsup(D, in, "mbarrier of another block of the cluster (thread-block clusters are not emulated)");
  TRY(ws_emu_dec_space(D, in, &in->ops[i], &ms));
  if (ms != MS_SHARED && ms != MS_GENERIC) return ws_emu_dec_unsup(D, in, "mbarrier outside shared memory");
  di->op = (uint16_t)op;
  di->space = (uint8_t)ms;
  di->size = 8;
  di->vec = 1;
  return ws_emu_dec_address(D, in, &in->ops[i], di);
}

/* The mbarrier of lane l (its host bytes), or NULL after a fault. */
static uint8_t *mbar_at(const xctx *X, const dinst *in, uint32_t l, uint64_t addr) {
  uint8_t *p = resolve(X->B, X->w, in->space, addr, 8, l, 1, X->F, PC(in));
  if (p && in->space == MS_GENERIC && generic_space(addr) != MS_SHARED) {
    fault_msg(X, in, l, FAULT_OTHER, addr, "mbarrier at 0x%llx, which is not shared memory", (unsigned long long)addr);
    return NULL;
  }
  return p;
}

/* After a change: complete the phase when nothing is pending. */
static inline uint64_t mb_settle(uint64_t v) {
  if (MB_PEND(v) == 0 && mb_tx(v) == 0) return mb_make(MB_EXP(v), MB_EXP(v), 0, MB_PHASE(v) ^ 1);
  return v;
}

/* mbarrier.init.b64 [a], count */
DECODER(mbar_init) {
  int t = WS_PTX_T_U32;
  (void)T;
  TRY(mbar_operand(D, in, di, 0, D_MBAR_INIT));
  SRC(1, b);
  return WS_OK;
}
EXEC(MBAR_INIT) {
  const uint64_t *A = lanes(X, in->a), *C = lanes(X, in->b);
  LANES(m, {
    uint64_t a = eff_addr(in, A[l], (uint64_t)in->imm);
    uint8_t *p = mbar_at(X, in, l, a);
    if (!p) return FL_FAULT;
    uint32_t cnt = (uint32_t)C[l];
    if (cnt < 1 || cnt > 0xfffffu)
      return fault_msg(X, in, l, FAULT_OTHER, a, "mbarrier.init count %u is outside 1 .. 2^20-1", cnt);
    wr(p, 8, mb_make(cnt, cnt, 0, 0));
  });
  X->B->progress++;
  return FL_NEXT;
}

/* mbarrier.inval.b64 [a]: the object becomes plain memory again */
DECODER(mbar_inval) {
  (void)T;
  return mbar_operand(D, in, di, 0, D_MBAR_INVAL);
}
EXEC(MBAR_INVAL) {
  const uint64_t *A = lanes(X, in->a);
  LANES(m, {
    uint8_t *p = mbar_at(X, in, l, eff_addr(in, A[l], (uint64_t)in->imm));
    if (!p) return FL_FAULT;
    wr(p, 8, 0);
  });
  return FL_NEXT;
}

/* mbarrier.arrive{.expect_tx}{.noComplete}.b64 state, [a]{, count | txCount};
 * mbarrier.arrive_drop{...}.b64 state, [a]{, count}.  Flags in di->bop: 1
 * drop, 2 expect_tx (the third operand is the byte count; one arrival),
 * 4 noComplete. */
DECODER(mbar_arrive) {
  int t = WS_PTX_T_U32;
  (void)T;
  TRY(mbar_operand(D, in, di, 1, D_MBAR_ARRIVE));
  di->bop = (uint8_t)((in->op == WS_PTX_OP_MBARRIER_ARRIVE_DROP ? 1 : 0) |
                      (ws_ptx_inst_has(in, WS_PTX_MOD_EXPECT_TX) ? 2 : 0) |
                      (ws_ptx_inst_has(in, WS_PTX_MOD_NOCOMPLETE) ? 4 : 0));
  if ((di->bop & 2) && in->nops < 3) UNSUP("mbarrier.arrive.expect_tx without a byte count");
  DST(0);
  if (in->nops > 2) SRC(2, b);
  else CONST(1, b);
  return WS_OK;
}

/* One arrival of lane l (count arrivals, or one with tx expected bytes
 * when flags has 2); *state the object after it.  0, or -1 after a fault. */
static int mbar_arrive1(const xctx *X, const dinst *in, uint32_t l, uint64_t a, uint32_t count, int flags,
                        uint64_t *state) {
  uint8_t *p = mbar_at(X, in, l, a);
  if (!p) return -1;
  uint64_t v = rd(p, 8);
  uint32_t pend = MB_PEND(v), ex = MB_EXP(v);
  int32_t tx = mb_tx(v);
  if (flags & 2) {
    tx += (int32_t)count;
    count = 1;
  }
  if (count > pend) {
    fault_msg(X, in, l, FAULT_OTHER, a,
              "mbarrier at 0x%llx: %u arrival%s but only %u pending in this phase (the ISA leaves this undefined)",
              (unsigned long long)a, count, count == 1 ? "" : "s", pend);
    return -1;
  }
  pend -= count;
  if ((flags & 1) && count <= ex) ex -= count;
  v = mb_make(pend, ex, tx, MB_PHASE(v));
  if (state) *state = v;
  if (!(flags & 4)) v = mb_settle(v);
  wr(p, 8, v);
  X->B->progress++;
  return 0;
}

EXEC(MBAR_ARRIVE) {
  const uint64_t *A = lanes(X, in->a), *C = lanes(X, in->b);
  uint64_t *Dd = lanes(X, in->d);
  LANES(m, {
    uint64_t st;
    if (mbar_arrive1(X, in, l, eff_addr(in, A[l], (uint64_t)in->imm), (uint32_t)C[l], in->bop, &st)) return FL_FAULT;
    Dd[l] = st;
  });
  return FL_NEXT;
}

/* cp.async.mbarrier.arrive.noinc (async.h): one arrival, no state */
EXEC(MBAR_ARRIVE_NOINC) {
  const uint64_t *A = lanes(X, in->a);
  LANES(m, if (mbar_arrive1(X, in, l, eff_addr(in, A[l], (uint64_t)in->imm), 1, 0, NULL)) return FL_FAULT);
  return FL_NEXT;
}

/* mbarrier.expect_tx.b64 [a], bytes (bop 0); mbarrier.complete_tx.b64 [a], bytes (bop 1) */
DECODER(mbar_tx) {
  int t = WS_PTX_T_U32;
  (void)T;
  TRY(mbar_operand(D, in, di, 0, D_MBAR_TX));
  di->bop = in->op == WS_PTX_OP_MBARRIER_COMPLETE_TX;
  SRC(1, b);
  return WS_OK;
}

/* The transaction count of lane l's mbarrier at addr moves by -bytes
 * (complete) ; 0, or -1 after a fault. */
static int mbar_complete_tx(const xctx *X, const dinst *in, uint32_t l, uint64_t addr, int64_t bytes) {
  uint8_t *p = resolve(X->B, X->w, MS_SHARED, addr, 8, l, 1, X->F, PC(in));
  if (!p) return -1;
  uint64_t v = rd(p, 8);
  wr(p, 8, mb_settle(mb_make(MB_PEND(v), MB_EXP(v), mb_tx(v) - (int32_t)bytes, MB_PHASE(v))));
  X->B->progress++;
  return 0;
}

EXEC(MBAR_TX) {
  const uint64_t *A = lanes(X, in->a), *C = lanes(X, in->b);
  LANES(m, {
    uint64_t a = eff_addr(in, A[l], (uint64_t)in->imm);
    uint8_t *p = mbar_at(X, in, l, a);
    if (!p) return FL_FAULT;
    uint64_t v = rd(p, 8);
    int32_t tx = mb_tx(v) + (in->bop ? -(int32_t)C[l] : (int32_t)C[l]);
    v = mb_make(MB_PEND(v), MB_EXP(v), tx, MB_PHASE(v));
    wr(p, 8, in->bop ? mb_settle(v) : v);
  });
  X->B->progress++;
  return FL_NEXT;
}

/* mbarrier.test_wait{.parity}.b64 p, [a], state|parity;
 * mbarrier.try_wait{.parity}.b64 p, [a], state|parity{, suspendTimeHint} */
DECODER(mbar_wait) {
  int t = WS_PTX_T_U64;
  (void)T;
  TRY(mbar_operand(D, in, di, 1, D_MBAR_WAIT));
  di->bop = (uint8_t)ws_ptx_inst_has(in, WS_PTX_MOD_PARITY);
  PRED(0, d);
  if (di->bop) t = WS_PTX_T_U32;
  SRC(2, b);
  return WS_OK;
}

/* p: whether the phase of the state (or of the parity) completed.  When
 * a lane's phase has not, the warp yields and counts as spinning. */
EXEC(MBAR_WAIT) {
  const uint64_t *A = lanes(X, in->a), *S = lanes(X, in->b);
  uint32_t done = 0;
  LANES(m, {
    uint8_t *p = mbar_at(X, in, l, eff_addr(in, A[l], (uint64_t)in->imm));
    if (!p) return FL_FAULT;
    uint32_t want = in->bop ? (uint32_t)S[l] & 1 : MB_PHASE(S[l]);
    done |= (uint32_t)(MB_PHASE(rd(p, 8)) != want) << l;
  });
  pset(X, in->d, m, done);
  if (done == m) {
    X->w->spin = 0;
    return FL_NEXT;
  }
  if (X->H) emit(X, in, X->active, m, 0, 0);
  X->w->spin = 1;
  X->top->pc = PC(in) + 1;
  return FL_YIELD;
}

/* mbarrier.pending_count.b64 count, state */
DECODER(mbar_pending) {
  int t = WS_PTX_T_U64;
  (void)T; (void)D;
  di->op = D_MBAR_PENDING;
  DST(0);
  SRC(1, a);
  return WS_OK;
}
EXEC(MBAR_PENDING) {
  const uint64_t *A = lanes(X, in->a);
  uint64_t *Dd = lanes(X, in->d);
  LANES(m, Dd[l] = MB_PEND(A[l]));
  return FL_NEXT;
}
