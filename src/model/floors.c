/*
 * floors.c — the physical floors of a launch (warpsight/model.h,
 * docs/models/floors.md): no kernel can run faster than its DRAM traffic at
 * the data sheet's peak bandwidth, nor than its warp instructions at the
 * peak dispatch rate of every SM.  They judge any model's prediction; they
 * never change it.
 */
#include <math.h>
#include <stdio.h>

#include "warpsight/model.h"

/* Peak warp instructions dispatched per SM per cycle, by compute
 * capability: schedulers x dispatch units (NVIDIA's architecture white
 * papers: G80/GT200 one warp instruction per 4 cycles on 8 SPs, plus the
 * SFUs' dual issue; Fermi GF100 2 schedulers with one dispatch unit each,
 * GF104 (CC 2.1) two each; Kepler SMX and Maxwell SMM 4 schedulers with two
 * dispatch units each; Volta and later 4 schedulers, one dispatch each). */
double ws_model_floor_issue_rate(int cc_major, int cc_minor) {
  if (cc_major <= 1) return 0.5;
  if (cc_major == 2) return cc_minor >= 1 ? 4 : 2;
  if (cc_major <= 6) return 8;
  return 4;
}

int ws_model_floors_compute(ws_floors *out, const ws_profile *p, const ws_gpu *g) {
  *out = (ws_floors){NAN, NAN, NAN, NAN, NAN};
  if (!p || !g) return WS_EINVAL;
  double warps = (double)p->blocks * ceil((double)p->threads_per_block /
                                          (g->warp_size > 0 ? g->warp_size : 32));
  out->dram_bytes = ws_profile_dram_bytes(p);
  if (ws_pf_has(out->dram_bytes) && g->mem_bandwidth_gbs > 0)
    out->dram_ms = out->dram_bytes / (g->mem_bandwidth_gbs * 1e9) * 1e3;
  double insts = ws_profile_total_insts(p);
  if (ws_pf_has(insts)) {
    out->warp_insts = insts * warps;
    out->issue_per_cycle = ws_model_floor_issue_rate(g->cc_major, g->cc_minor);
    /* the faster of the data-sheet and the sustained clock: a board may
     * hold more than its data-sheet boost (RTX 3060: 1882 against 1777 MHz) */
    double clk = g->sustained_clock_ghz > g->clock_ghz ? g->sustained_clock_ghz : g->clock_ghz;
    if (g->sms > 0 && clk > 0)
      out->issue_ms = out->warp_insts / (g->sms * out->issue_per_cycle * clk * 1e9) * 1e3;
  }
  return WS_OK;
}

const char *ws_model_floors_check(char *buf, size_t n, const ws_floors *fl, double time_ms) {
  if (!(time_ms >= 0) || !fl) return NULL;
  /* 1e-9 relative slack: a model that sits exactly on a floor is not below it */
  int dram = fl->dram_ms > 0 && time_ms < fl->dram_ms * (1 - 1e-9);
  int issue = fl->issue_ms > 0 && time_ms < fl->issue_ms * (1 - 1e-9);
  if (!dram && !issue) return NULL;
  if (dram && (!issue || fl->dram_ms / time_ms >= fl->issue_ms / time_ms))
    snprintf(buf, n, "below the DRAM floor: %.4g ms < %.4g ms = %.4g bytes / peak bandwidth "
                     "(%.2fx of it)", time_ms, fl->dram_ms, fl->dram_bytes, time_ms / fl->dram_ms);
  else
    snprintf(buf, n, "below the issue floor: %.4g ms < %.4g ms = %.4g warp instructions / "
                     "(SMs x %.3g per cycle) (%.2fx of it)", time_ms, fl->issue_ms,
             fl->warp_insts, fl->issue_per_cycle, time_ms / fl->issue_ms);
  return buf;
}
