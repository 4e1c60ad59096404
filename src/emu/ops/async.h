/*
 * ops/async.h — asynchronous copies: cp.async (global to shared, 4, 8 or
 * 16 bytes per thread, with a source size that zero-fills the rest), its
 * commit and wait groups, cp.async.mbarrier.arrive, and the bulk copies
 * cp.async.bulk (global to shared completing bytes on an mbarrier, shared
 * to global in bulk groups).
 *
 * The emulator completes a copy when the instruction executes: the ISA
 * lets a copy complete at any time before the wait that covers it, and a
 * program that reads the destination (or writes the source) before that
 * wait has no defined result, so completing early is one of the allowed
 * behaviours.  The waits therefore have nothing left to wait for.  The
 * hooks see a cp.async as a read of its global source (the traffic the
 * profiler counts, docs/emulator.md "Asynchronous copies").  Decoders and
 * executors of the ASYNC family (dops.def); compiled in exec.c.
 */

/* The copy sizes of a cp.async lane: cp-size bytes written, src-size read. */
typedef struct cpa_lane {
  uint64_t dst, src;
  uint32_t rd;
} cpa_lane;

/* cp.async.ca/cg.shared{::cta}.global [dst], [src], cp-size{, src-size}{, policy};
 * cp.async... [dst], [src], cp-size{, ignore-src}{, policy} (ignore-src a predicate) */
DECODER(cp_async) {
  const ws_ptx_operand *o = in->ops;
  int t = WS_PTX_T_U32;
  (void)T;
  if (in->space != WS_PTX_SP_SHARED || in->space2 != WS_PTX_SP_GLOBAL) UNSUP("cp.async between these state spaces");
  if (o[2].kind != WS_PTX_O_IMM_INT || (o[2].imm != 4 && o[2].imm != 8 && o[2].imm != 16))
    UNSUP("cp.async copy size (4, 8 or 16 bytes)");
  di->op = D_CP_ASYNC;
  di->size = (uint8_t)o[2].imm;
  di->vec = 1;
  di->hookmem = 1;
  di->space = MS_SHARED;
  TRY(ws_emu_dec_address(D, in, &o[0], di)); /* dst: a, imm */
  di->c = di->a;
  di->e = (uint32_t)di->imm; /* shared offsets fit 32 bits (at most WS_EMU_MAX_SHARED_BYTES + ...) */
  di->sat = di->a32;         /* the shared address wraps modulo 2^32 */
  di->space = MS_GLOBAL;
  TRY(ws_emu_dec_address(D, in, &o[1], di)); /* src: a, imm (what the hooks report) */
  di->b = NO_SLOT;
  di->d2 = NO_SLOT;
  /* then src-size or the ignore-src predicate, then the L2::cache_hint policy */
  int extra = in->nops - 3 - (ws_ptx_inst_has(in, WS_PTX_MOD_L2_CACHE_HINT) ? 1 : 0);
  if (extra < 0 || extra > 1) UNSUP("cp.async operands");
  if (extra == 1 && o[3].kind == WS_PTX_O_REG && is_pred_reg(D, o[3].reg)) {
    PRED(3, d2); /* ignore-src: read nothing, write zeros */
    if (o[3].flags & WS_PTX_OF_NOT) di->flags |= 1;
  } else if (extra == 1) {
    SRC(3, b); /* src-size */
  }
  return WS_OK;
}

/* Every lane's copy: cp-size bytes to shared memory, the first src-size of
 * them read from global memory, the rest zeros. */
EXEC(CP_ASYNC) {
  blockctx *B = X->B;
  warp *w = X->w;
  const uint64_t *A = lanes(X, in->a), *Dst = lanes(X, in->c);
  const uint64_t *Sz = in->b != NO_SLOT ? lanes(X, in->b) : NULL;
  uint32_t ign = in->d2 != NO_SLOT ? pmask_not(X, in->d2, in->flags & 1) : 0;
  const uint32_t n = in->size;
  LANES(m, {
    uint64_t src = A[l] + (uint64_t)in->imm, dst = Dst[l] + in->e;
    if (in->sat) dst = (uint32_t)dst;
    uint64_t rd = (ign >> l & 1) ? 0 : Sz ? Sz[l] : n;
    if (rd > n) rd = n; /* the ISA makes src-size > cp-size undefined: read cp-size */
    w->addr[l] = src;
    uint8_t *d = resolve(B, w, MS_SHARED, dst, n, l, 1, X->F, PC(in));
    if (!d) return FL_FAULT;
    uint8_t buf[16] = {0};
    if (rd) {
      /* the source is aligned to cp-size like the destination */
      uint8_t *s = resolve(B, w, MS_GLOBAL, src & ~(uint64_t)(n - 1), n, l, 0, X->F, PC(in));
      if (!s) return FL_FAULT;
      if (src & (n - 1)) return fault_msg(X, in, l, FAULT_MISALIGNED, src, "cp.async source 0x%llx is not %u-byte aligned", (unsigned long long)src, n);
      memcpy(buf, s, rd);
    }
    memcpy(d, buf, n);
  });
  return FL_NEXT;
}

/* cp.async.commit_group, wait_group N, wait_all; the bulk groups: every
 * copy is complete already */
DECODER(cp_async_group) {
  (void)D; (void)in; (void)T;
  di->op = D_NOP;
  return WS_OK;
}

/* cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [mbar]: the arrive
 * that the completion of the thread's copies triggers.  Without .noinc the
 * barrier's pending count is first raised by one, so the pair has no
 * effect; with .noinc it is one arrival (mbar.h). */
DECODER(cp_async_mbar) {
  (void)T;
  if (!ws_ptx_inst_has(in, WS_PTX_MOD_NOINC)) {
    di->op = D_NOP;
    return WS_OK;
  }
  return mbar_operand(D, in, di, 0, D_MBAR_ARRIVE_NOINC);
}

/* cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size, [mbar];
 * cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size */
DECODER(cp_async_bulk) {
  const ws_ptx_operand *o = in->ops;
  int t = WS_PTX_T_U32;
  (void)T;
  int to_shared = in->space == WS_PTX_SP_SHARED && in->space2 == WS_PTX_SP_GLOBAL;
  int to_global = in->space == WS_PTX_SP_GLOBAL && in->space2 == WS_PTX_SP_SHARED;
  if (ws_ptx_inst_has(in, WS_PTX_MOD_SHARED_CLUSTER) && to_shared && in->nops < 4) UNSUP("bulk copy form");
  if (!(to_shared && ws_ptx_inst_has(in, WS_PTX_MOD_MBAR_COMPLETE_TX) && in->nops >= 4) &&
      !(to_global && ws_ptx_inst_has(in, WS_PTX_MOD_BULK_GROUP)))
    UNSUP("bulk copy form (global to shared completing on an mbarrier, or shared to global in a bulk group)");
  di->op = D_CP_ASYNC_BULK;
  di->hookmem = 1;
  di->vec = 1;
  di->size = 16;
  di->space = to_shared ? MS_SHARED : MS_GLOBAL;
  TRY(ws_emu_dec_address(D, in, &o[0], di));
  if ((uint64_t)di->imm >> 32) UNSUP("bulk copy to a global variable's address");
  di->c = di->a;
  di->e = (uint32_t)di->imm;
  di->sat = di->a32;
  di->space = to_shared ? MS_GLOBAL : MS_SHARED;
  TRY(ws_emu_dec_address(D, in, &o[1], di));
  di->bop = (uint8_t)to_shared; /* 1: global -> shared */
  SRC(2, b);
  di->d2 = NO_SLOT;
  if (to_shared) { /* the mbarrier [m]: its slot in d2, its offset in d */
    dinst mb;
    memset(&mb, 0, sizeof mb);
    mb.space = MS_SHARED;
    TRY(ws_emu_dec_address(D, in, &o[3], &mb));
    if ((uint64_t)mb.imm >> 32) UNSUP("bulk copy mbarrier operand");
    di->d2 = mb.a;
    di->d = (uint32_t)mb.imm;
    di->ftz = mb.a32;
  }
  return WS_OK;
}

static int mbar_complete_tx(const xctx *X, const dinst *in, uint32_t l, uint64_t addr, int64_t bytes);

/* Each executing lane's bulk copy of `size` bytes (a multiple of 16); a
 * global-to-shared copy then completes `size` bytes of the mbarrier's
 * transaction count. */
EXEC(CP_ASYNC_BULK) {
  blockctx *B = X->B;
  warp *w = X->w;
  const uint64_t *A = lanes(X, in->a), *Dst = lanes(X, in->c), *Sz = lanes(X, in->b);
  const int to_shared = in->bop;
  LANES(m, {
    uint64_t src = A[l] + (uint64_t)in->imm, dst = Dst[l] + in->e, n = (uint32_t)Sz[l];
    if (to_shared && in->sat) dst = (uint32_t)dst;
    if (!to_shared && in->a32) src = (uint32_t)src;
    w->addr[l] = to_shared ? src : dst;
    if (n % 16 || (src | dst) % 16)
      return fault_msg(X, in, l, FAULT_MISALIGNED, src, "bulk copy of %llu bytes from 0x%llx to 0x%llx: size and addresses must be multiples of 16",
                       (unsigned long long)n, (unsigned long long)src, (unsigned long long)dst);
    if (n) {
      int ss = to_shared ? MS_GLOBAL : MS_SHARED, ds = to_shared ? MS_SHARED : MS_GLOBAL;
      uint8_t *s = resolve(B, w, ss, src, 16, l, 0, X->F, PC(in));
      uint8_t *d = s ? resolve(B, w, ds, dst, 16, l, 1, X->F, PC(in)) : NULL;
      /* the whole range inside one object: its last 16 bytes in the same one */
      uint8_t *s2 = d ? resolve(B, w, ss, src + n - 16, 16, l, 0, X->F, PC(in)) : NULL;
      uint8_t *d2 = s2 ? resolve(B, w, ds, dst + n - 16, 16, l, 1, X->F, PC(in)) : NULL;
      if (!d2) return FL_FAULT;
      if (s2 != s + n - 16 || d2 != d + n - 16)
        return fault_msg(X, in, l, FAULT_OOB, dst, "bulk copy of %llu bytes from 0x%llx to 0x%llx runs past its object",
                         (unsigned long long)n, (unsigned long long)src, (unsigned long long)dst);
      memmove(d, s, n);
    }
    if (to_shared) {
      uint64_t mb = lanes(X, in->d2)[l] + in->d;
      if (in->ftz) mb = (uint32_t)mb;
      if (mbar_complete_tx(X, in, l, mb, (int64_t)n)) return FL_FAULT;
    }
  });
  return FL_NEXT;
}
