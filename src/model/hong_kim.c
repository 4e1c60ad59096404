/*
 * hong_kim.c — the MWP-CWP model of Hong & Kim, ISCA'09, equations (5)-(27)
 * (docs/models/hong-kim.md).
 *
 * Case order (the paper's printed condition for (23) contradicts its
 * Section 3.2.2; see shared notes and docs/models/hong-kim.md):
 *   (22) when MWP = N and CWP = N;
 *   otherwise (24) when MWP > CWP;
 *   otherwise (23).
 * A kernel without global memory instructions is all computation:
 *   Exec_cycles_app = Comp_cycles x N x #Rep.
 * All quantities are per SM, in SM cycles; Freq is in GHz so that
 * Freq x bytes / cycles is in GB/s, the unit of Mem_Bandwidth.
 */
#include <math.h>
#include <stdio.h>

#include "warpsight/model.h"

int ws_model_hong_kim(ws_model_result *r, const ws_profile *p, const ws_gpu *g,
                      ws_diag *d);

#define M "hong-kim"

static double min2(double a, double b) { return a < b ? a : b; }

int ws_model_hong_kim(ws_model_result *r, const ws_profile *p, const ws_gpu *g,
                      ws_diag *d) {
  int missing = 0;
  double mem_ld = ws_model_gpu_param(r, g, WS_GP_HONG_KIM_MEM_LD, &missing, d);
  double dd_uncoal = ws_model_gpu_param(r, g, WS_GP_HONG_KIM_DEPARTURE_DEL_UNCOAL, &missing, d);
  double dd_coal = ws_model_gpu_param(r, g, WS_GP_HONG_KIM_DEPARTURE_DEL_COAL, &missing, d);
  double issue_cycles = ws_model_gpu_param(r, g, WS_GP_HONG_KIM_ISSUE_CYCLES, &missing, d);
  double comp_insts = ws_model_need(r, p->f.comp_insts, "per_warp.comp_insts", &missing, d);
  double coal = ws_model_need(r, p->f.coal_mem_insts, "per_warp.coal_mem_insts", &missing, d);
  double uncoal = ws_model_need(r, p->f.uncoal_mem_insts, "per_warp.uncoal_mem_insts", &missing, d);
  double synch = 0;
  if (ws_pf_has(p->f.synch_insts)) {
    synch = p->f.synch_insts;
  } else {
    ws_diag_add(d, WS_SEV_WARNING, NULL, 0, 0,
                "%s: per_warp.synch_insts is absent; assuming the kernel has no barriers", M);
  }
  double mem_insts = coal + uncoal; /* #Mem_insts */
  double uncoal_per_mw = 1, load_bytes = 0;
  if (!missing && mem_insts > 0) {
    if (uncoal > 0) {
      if (ws_pf_has(p->f.uncoal_per_mw))
        uncoal_per_mw = p->f.uncoal_per_mw;
      else if (isfinite(ws_gpu_p(g, WS_GP_HONG_KIM_UNCOAL_PER_MW)))
        uncoal_per_mw = ws_gpu_p(g, WS_GP_HONG_KIM_UNCOAL_PER_MW);
      else {
        char path[160];
        snprintf(path, sizeof path,
                 "memory.uncoal_per_mw (or the GPU's models.%s.uncoal_per_mw; %s has none)", M, g->name);
        ws_model_missing(r, path, d);
        missing = 1;
      }
    }
    load_bytes = ws_model_need(r, p->f.load_bytes_per_warp, "memory.load_bytes_per_warp", &missing, d);
  }
  if (missing) return WS_EMISSING;

  ws_model_launch_ctx lc;
  int st = ws_model_launch_ctx_compute(&lc, p, g, d);
  if (st) return st;
  double n = lc.active_warps_per_sm; /* (20) */
  double total_insts = comp_insts + mem_insts; /* #Total_insts */
  if (total_insts <= 0)
    return ws_diag_error(d, "%s: the profile has no instructions (per_warp counts are all 0)", M);

  double comp_cycles = issue_cycles * total_insts; /* (19) */
  double cycles, synch_cost = 0, exec_app;
  int e = 0; /* WS_ENOMEM from adding a term */
  /* Inputs first, in the order of the paper's Table 2 ("Obtained" column
   * in place of an equation number). */
  e |= ws_model_term_add(r, WS_TERM_HONG_KIM_MEM_LD, mem_ld);
  e |= ws_model_term_add(r, WS_TERM_HONG_KIM_DEPARTURE_DEL_UNCOAL, dd_uncoal);
  e |= ws_model_term_add(r, WS_TERM_HONG_KIM_DEPARTURE_DEL_COAL, dd_coal);
  e |= ws_model_term_add(r, WS_TERM_HONG_KIM_ISSUE_CYCLES, issue_cycles);
  e |= ws_model_term_add(r, WS_TERM_HONG_KIM_THREADS_PER_BLOCK, lc.threads_per_block);
  e |= ws_model_term_add(r, WS_TERM_HONG_KIM_BLOCKS, lc.blocks);
  e |= ws_model_term_add_eq(r, WS_TERM_HONG_KIM_ACTIVE_BLOCKS_PER_SM, lc.active_blocks_per_sm,
                            ws_pf_has(p->f.active_blocks_per_sm) ? "profile" : NULL);
  e |= ws_model_term_add_eq(r, WS_TERM_HONG_KIM_ACTIVE_SMS, lc.active_sms,
                            ws_pf_has(p->f.active_sms) ? "profile" : NULL);
  e |= ws_model_term_add(r, WS_TERM_HONG_KIM_N, n);
  e |= ws_model_term_add(r, WS_TERM_HONG_KIM_COMP_INSTS, comp_insts);
  e |= ws_model_term_add(r, WS_TERM_HONG_KIM_UNCOAL_MEM_INSTS, uncoal);
  e |= ws_model_term_add(r, WS_TERM_HONG_KIM_COAL_MEM_INSTS, coal);
  e |= ws_model_term_add(r, WS_TERM_HONG_KIM_SYNCH_INSTS, synch);
  if (mem_insts > 0) {
    e |= ws_model_term_add_eq(r, WS_TERM_HONG_KIM_UNCOAL_PER_MW, uncoal_per_mw,
                              ws_pf_has(p->f.uncoal_per_mw) ? NULL : "GPU");
    e |= ws_model_term_add(r, WS_TERM_HONG_KIM_LOAD_BYTES_PER_WARP, load_bytes);
  }

  if (mem_insts == 0) {
    /* No global memory instructions: the warps' computation serialises. */
    exec_app = comp_cycles * n * lc.rep;
    e |= ws_model_term_add(r, WS_TERM_HONG_KIM_COMP_CYCLES, comp_cycles);
    e |= ws_model_term_add(r, WS_TERM_HONG_KIM_MEM_CYCLES, 0);
    e |= ws_model_term_add(r, WS_TERM_HONG_KIM_REP, lc.rep);
    e |= ws_model_term_add(r, WS_TERM_HONG_KIM_EXEC_CYCLES_APP, exec_app);
    e |= ws_model_term_add(r, WS_TERM_HONG_KIM_SYNCH_COST, 0);
    cycles = exec_app;
    e |= ws_model_term_add(r, WS_TERM_HONG_KIM_CYCLES, cycles);
    e |= ws_model_set_case(r, WS_BOUND_HONG_KIM_COMPUTE_ONLY,
                      "compute only: no global memory instructions (Comp_cycles x N x #Rep)");
  } else {
    double mem_l_uncoal = mem_ld + (uncoal_per_mw - 1) * dd_uncoal; /* (10) */
    double mem_l_coal = mem_ld;                                     /* (11) */
    double w_uncoal = uncoal / mem_insts;                           /* (13) */
    double w_coal = coal / mem_insts;                               /* (14) */
    double mem_l = mem_l_uncoal * w_uncoal + mem_l_coal * w_coal;   /* (12) */
    double departure_delay = dd_uncoal * uncoal_per_mw * w_uncoal + dd_coal * w_coal; /* (15) */
    double mwp_wo_bw_full = mem_l / departure_delay;                /* (16) */
    double mwp_wo_bw = min2(mwp_wo_bw_full, n);                     /* (17) */
    double bw_per_warp = g->clock_ghz * load_bytes / mem_l;         /* (7), GB/s */
    double mwp_peak_bw = g->mem_bandwidth_gbs / (bw_per_warp * lc.active_sms); /* (6) */
    double mwp = min2(min2(mwp_wo_bw, mwp_peak_bw), n);             /* (5) */
    double mem_cycles = mem_l_uncoal * uncoal + mem_l_coal * coal;  /* (18) */
    double cwp_full = (mem_cycles + comp_cycles) / comp_cycles;     /* (8) */
    double cwp = min2(cwp_full, n);                                 /* (9) */
    double comp_p = comp_cycles / mem_insts;                        /* (2) */
    const char *eq, *label;
    ws_model_bound bound;
    if (mwp == n && cwp == n) {
      exec_app = (mem_cycles + comp_cycles + comp_p * (mwp - 1)) * lc.rep; /* (22) */
      eq = "(22)";
      label = "not enough warps: MWP = CWP = N (eq. 22)";
      bound = WS_BOUND_HONG_KIM_PARALLELISM;
    } else if (mwp > cwp) {
      exec_app = (mem_l + comp_cycles * n) * lc.rep; /* (24) */
      eq = "(24)";
      label = "compute-bound: MWP > CWP (eq. 24)";
      bound = WS_BOUND_HONG_KIM_COMPUTE;
    } else {
      exec_app = (mem_cycles * n / mwp + comp_p * (mwp - 1)) * lc.rep; /* (23) */
      eq = "(23)";
      label = "memory-bound: CWP >= MWP (eq. 23)";
      if (mwp == mwp_peak_bw)
        bound = WS_BOUND_HONG_KIM_MEMORY_PEAK_BW;
      else if (mwp == n)
        bound = WS_BOUND_HONG_KIM_MEMORY_WARPS;
      else
        bound = WS_BOUND_HONG_KIM_MEMORY_DEPARTURE;
    }
    synch_cost = departure_delay * (mwp - 1) * synch * lc.active_blocks_per_sm * lc.rep; /* (26) */
    cycles = exec_app + synch_cost; /* (27) */

    e |= ws_model_term_add(r, WS_TERM_HONG_KIM_WEIGHT_UNCOAL, w_uncoal);
    e |= ws_model_term_add(r, WS_TERM_HONG_KIM_WEIGHT_COAL, w_coal);
    e |= ws_model_term_add(r, WS_TERM_HONG_KIM_DEPARTURE_DELAY, departure_delay);
    e |= ws_model_term_add(r, WS_TERM_HONG_KIM_MEM_L_UNCOAL, mem_l_uncoal);
    e |= ws_model_term_add(r, WS_TERM_HONG_KIM_MEM_L_COAL, mem_l_coal);
    e |= ws_model_term_add(r, WS_TERM_HONG_KIM_MEM_L, mem_l);
    e |= ws_model_term_add(r, WS_TERM_HONG_KIM_MWP_WITHOUT_BW_FULL, mwp_wo_bw_full);
    e |= ws_model_term_add(r, WS_TERM_HONG_KIM_MWP_WITHOUT_BW, mwp_wo_bw);
    e |= ws_model_term_add(r, WS_TERM_HONG_KIM_BW_PER_WARP, bw_per_warp);
    e |= ws_model_term_add(r, WS_TERM_HONG_KIM_MWP_PEAK_BW, mwp_peak_bw);
    e |= ws_model_term_add(r, WS_TERM_HONG_KIM_MWP, mwp);
    e |= ws_model_term_add(r, WS_TERM_HONG_KIM_COMP_CYCLES, comp_cycles);
    e |= ws_model_term_add(r, WS_TERM_HONG_KIM_MEM_CYCLES, mem_cycles);
    e |= ws_model_term_add(r, WS_TERM_HONG_KIM_CWP_FULL, cwp_full);
    e |= ws_model_term_add(r, WS_TERM_HONG_KIM_CWP, cwp);
    e |= ws_model_term_add(r, WS_TERM_HONG_KIM_REP, lc.rep);
    e |= ws_model_term_add_eq(r, WS_TERM_HONG_KIM_EXEC_CYCLES_APP, exec_app, eq);
    e |= ws_model_term_add(r, WS_TERM_HONG_KIM_SYNCH_COST, synch_cost);
    e |= ws_model_term_add(r, WS_TERM_HONG_KIM_CYCLES, cycles);
    e |= ws_model_set_case(r, bound, label);
  }
  /* CPI (25): cycles per warp instruction over all warps an SM runs. */
  e |= ws_model_term_add(r, WS_TERM_HONG_KIM_CPI,
                         exec_app / (total_insts * lc.warps_per_block * lc.blocks / lc.active_sms));
  if (e) return ws_diag_error(d, "%s: out of memory", M);
  r->cycles = cycles;
  r->time_ms = cycles / (g->clock_ghz * 1e6);
  return WS_OK;
}
