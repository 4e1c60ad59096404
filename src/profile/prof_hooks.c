/*
 * prof_hooks.c — the adapter between the emulator's hooks (warpsight/emu.h)
 * and the profiler (warpsight/profiler.h): one copy used by `profile`,
 * `predict` and `validate`.
 */
#include "warpsight/profiler.h"

#include <string.h>

static void on_inst(void *user, const ws_emu_event *ev) {
  ws_prof_emu_state *h = user;
  ws_prof_event pe;
  pe.worker = ev->worker;
  pe.block_linear = ev->block_linear;
  pe.warp = ev->warp;
  pe.func = ev->func;
  pe.inst = ev->inst;
  pe.pc = ev->pc;
  pe.active = ev->active;
  pe.exec = ev->exec;
  pe.taken = ev->taken;
  pe.bb_entry = ev->bb_entry;
  pe.space = ev->space;
  pe.bytes = ev->bytes;
  pe.addr = ev->addr;
  ws_prof_inst(h->prof, &pe);
}

static void on_begin(void *user, int worker, uint32_t b) {
  ws_prof_block_begin(((ws_prof_emu_state *)user)->prof, worker, b);
}

static void on_end(void *user, int worker, uint32_t b) {
  ws_prof_block_end(((ws_prof_emu_state *)user)->prof, worker, b);
}

/* Sampled blocks run with the hooks; the others are skipped, or run plain
 * with functional_rest (for kernels whose later blocks read earlier ones). */
static int on_filter(void *user, uint32_t b) {
  const ws_prof_emu_state *h = user;
  if (ws_prof_block_sampled(b, h->total_blocks, h->sample_blocks)) return WS_EMU_BLOCK_HOOKED;
  return h->functional_rest ? WS_EMU_BLOCK_PLAIN : WS_EMU_BLOCK_SKIP;
}

void ws_prof_emu_hooks(ws_emu_hooks *out, ws_prof_emu_state *state) {
  memset(out, 0, sizeof *out);
  out->user = state;
  out->inst = on_inst;
  out->block_begin = on_begin;
  out->block_end = on_end;
  out->block_filter = on_filter;
}
