/*
 * ops/stack.h — the per-thread stack: alloca, stacksave/stackrestore and
 * the addresses of .local variables (frames: exec.c).  Decoders and
 * executors of the STACK family (dops.def); compiled in exec.c.
 */

/* alloca.type ptr, size{, align} */
DECODER(alloca) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  di->op = D_ALLOCA;
  DST(0);
  SRC(1, a);
  di->imm = 8;
  if (in->nops > 2) {
    if (o[2].kind != WS_PTX_O_IMM_INT || o[2].imm < 1 || o[2].imm > 4096 || (o[2].imm & (o[2].imm - 1)))
      UNSUP("alloca alignment");
    di->imm = o[2].imm;
  }
  return WS_OK;
}

/* room for the largest request of the lanes, at the same offset in each
 * lane's local memory */
EXEC(ALLOCA) {
  warp *w = X->w;
  const uint64_t *A = lanes(X, in->a);
  uint64_t need = 0, al = (uint64_t)in->imm;
  LANES(m, need = A[l] > need ? A[l] : need);
  uint64_t base = (w->local_top + al - 1) / al * al;
  if (need > WS_EMU_MAX_LOCAL_BYTES || grow_local(w, base + need)) {
    set_fault(X->B, w, (uint32_t)__builtin_ctz(m), X->F, PC(in), FAULT_STACK, 0, 0, 0);
    return FL_FAULT;
  }
  for (uint32_t l = 0; l < 32; l++) memset(w->local + l * w->local_cap + w->local_top, 0, base + need - w->local_top);
  w->local_top = base + need;
  ISET(base & in->wmask);
}

EXEC(STACKSAVE) { ISET(X->w->local_top & in->wmask); }

DECODER(stackrestore) {
  int t = T->t;
  di->op = D_STACKRESTORE;
  SRC(0, a);
  return WS_OK;
}

/* a restore outside this frame's part of the stack is a fault */
EXEC(STACKRESTORE) {
  warp *w = X->w;
  uint64_t v = lanes(X, in->a)[__builtin_ctz(m)], lo = X->lbase + X->F->frame_bytes;
  if (v < lo || v > w->local_top)
    return fault_msg(X, in, (uint32_t)__builtin_ctz(m), FAULT_OTHER, v,
                     "stackrestore to 0x%llx, outside this frame's stack (0x%llx..0x%llx)", (unsigned long long)v,
                     (unsigned long long)lo, (unsigned long long)w->local_top);
  w->local_top = v;
  return FL_NEXT;
}

/* mov of a .local variable's address (decoded by mov, ops/move.h) */
EXEC(MOV_LOCALSYM) { ISET(X->lbase + (uint64_t)in->imm); }
