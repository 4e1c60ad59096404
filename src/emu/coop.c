/*
 * coop.c — cooperative launches (cudaLaunchCooperativeKernel): every block
 * of the grid is resident at once, as the runtime guarantees, so that a
 * grid-wide barrier (cooperative groups' grid.sync(): an atomic arrival on
 * a counter in the launch's workspace, then a spin on ld.acquire until
 * every block arrived) completes.
 *
 * The blocks take turns on one worker thread: each turn runs one round of
 * a block's warp scheduler (ws_emu_block_step), in which a warp runs until
 * it finishes, waits at a barrier, or stops at a spin point: after an
 * atom, an ld.acquire/ld.volatile/ld.relaxed.gpu load or an mbarrier wait
 * that has not completed, the warp yields and the next block runs.  A
 * spin that can never complete is reported instead of running until the
 * instruction limit: when, for two rounds of the whole grid, every warp
 * that ran stopped at a spin point having loaded the same values as the
 * time before there, and no barrier, mbarrier or warp changed, nothing can
 * change what they wait for (docs/emulator.md, "Cooperative launches").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_int.h"
#include "util/strbuf.h"

/* The grid-wide deadlock: every live block only spins.  Names the first
 * spinning warp of each block (at most a few) in the first one's fault. */
static void grid_stuck(blockctx *B, uint32_t nb, const uint8_t *done, fault *flt) {
  blockctx *first = NULL;
  char *p = flt->msg;
  size_t left = sizeof flt->msg;
  int n = snprintf(p, left, "grid-wide spin that cannot complete (cooperative launch): every warp still running "
                            "waits for a value no other warp will write; ");
  p += n;
  left -= (size_t)n;
  uint32_t named = 0;
  for (uint32_t b = 0; b < nb && left > 96; b++) {
    if (done[b]) continue;
    for (uint32_t i = 0; i < B[b].nwarps; i++) {
      warp *w = &B[b].warps[i];
      if (w->state != WS_RUN || !w->spin) continue;
      const dfunc *f = w->frames[w->nframes - 1].f;
      uint32_t pc = w->stk[w->sp - 1].pc - 1;
      if (!first) {
        first = &B[b];
        flt->kind = FAULT_DEADLOCK;
        flt->block = b;
        flt->warp = w->id;
        flt->lane = (uint32_t)__builtin_ctz(w->stk[w->sp - 1].mask | 1);
        flt->f = f;
        flt->pc = pc;
      }
      if (named < 4) {
        n = snprintf(p, left, "%sblock %u warp %u spins at PTX line %u", named ? ", " : "", b, w->id,
                     pc < f->f->ninsts ? f->f->insts[pc].line : 0);
        if (n < 0 || (size_t)n >= left) return;
        p += n;
        left -= (size_t)n;
      }
      named++;
      break;
    }
  }
  if (named > 4) snprintf(p, left, " and %u other blocks", named - 4);
}

int ws_emu_coop_run(ws_emu_launch *L, const ws_emu_options *o, uint32_t nb, coop_result *res) {
  memset(res, 0, sizeof *res);
  blockctx *B = calloc(nb, sizeof *B);
  uint8_t *done = calloc(nb, 1), *hooked = calloc(nb, 1);
  uint32_t nthreads = L->block[0] * L->block[1] * L->block[2], nwarps = (nthreads + 31) / 32;
  ws_emu_options plain = *o; /* blocks the filter runs without hooks */
  plain.hooks = NULL;
  const ws_emu_hooks *H = o->hooks;
  int st = 0, nhooked = 0;
  if (!B || !done || !hooked) {
    res->oom = 1;
    goto out;
  }
  for (uint32_t b = 0; b < nb; b++) {
    blockctx *X = &B[b];
    X->L = L;
    X->launch_insts = &res->launch_insts;
    X->printf_bytes = &res->printf_bytes;
    X->nthreads = nthreads;
    X->nwarps = nwarps;
    X->block = b;
    X->warps = calloc(nwarps, sizeof *X->warps);
    X->shared = malloc(L->shared_bytes + 1);
    if (!X->warps || !X->shared) {
      res->oom = 1;
      goto out;
    }
    ws_emu_block_tids(X);
    /* every block runs: a skipped one would never arrive at grid.sync() */
    int act = H && H->block_filter ? H->block_filter(H->user, b) : WS_EMU_BLOCK_HOOKED;
    hooked[b] = act == WS_EMU_BLOCK_HOOKED;
    X->o = hooked[b] ? o : &plain;
    X->worker = hooked[b] ? nhooked++ : 0;
    if (hooked[b] && H && H->block_begin) H->block_begin(H->user, X->worker, b);
    if (ws_emu_block_start(X)) {
      res->flt = X->flt;
      st = -1;
      goto out;
    }
  }
  uint32_t live = nb;
  int stuck = 0;
  while (live) {
    int all_spin = 1;
    for (uint32_t b = 0; b < nb; b++) {
      if (done[b]) continue;
      int r = ws_emu_block_step(&B[b]);
      if (r < 0) {
        res->flt = B[b].flt;
        st = -1;
        goto out;
      }
      if (r > 0) {
        done[b] = 1;
        live--;
        all_spin = 0;
        if (hooked[b] && H && H->block_end) H->block_end(H->user, B[b].worker, b);
      } else if (!B[b].spinning) {
        all_spin = 0;
      }
    }
    stuck = live && all_spin ? stuck + 1 : 0;
    if (stuck >= 2) {
      grid_stuck(B, nb, done, &res->flt);
      st = -1;
      goto out;
    }
  }
out:
  for (uint32_t b = 0; B && b < nb; b++) {
    res->warp_insts += B[b].warp_insts;
    res->thread_insts += B[b].thread_insts;
    if (done && done[b]) {
      res->blocks++;
      res->warps += B[b].nwarps;
      if (ws_emu_cdp_block_end(&B[b])) res->oom = 1; /* its device-side launches */
    }
    /* device printf in block order, as the pool writes it */
    if (B[b].pout.oom) res->oom = 1;
    if (B[b].pout.n && o->printf_out) fwrite(B[b].pout.s, 1, B[b].pout.n, o->printf_out);
    ws_emu_block_free(&B[b]);
  }
  free(B);
  free(done);
  free(hooked);
  return st;
}
