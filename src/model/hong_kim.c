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
  double mem_ld = ws_model_gpu_param(r, g, M, "mem_ld", &missing, d);
  double dd_uncoal = ws_model_gpu_param(r, g, M, "departure_del_uncoal", &missing, d);
  double dd_coal = ws_model_gpu_param(r, g, M, "departure_del_coal", &missing, d);
  double issue_cycles = ws_model_gpu_param(r, g, M, "issue_cycles", &missing, d);
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
      else if (ws_gpu_param(g, M, "uncoal_per_mw", &uncoal_per_mw, NULL) != WS_OK) {
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
  /* Inputs first, in the order of the paper's Table 2 ("Obtained" column
   * in place of an equation number). */
  ws_model_term_add(r, "mem_ld", mem_ld, "GPU", "cycles");
  ws_model_term_add(r, "departure_del_uncoal", dd_uncoal, "GPU", "cycles");
  ws_model_term_add(r, "departure_del_coal", dd_coal, "GPU", "cycles");
  ws_model_term_add(r, "issue_cycles", issue_cycles, "GPU", "cycles");
  ws_model_term_add(r, "threads_per_block", lc.threads_per_block, "launch", "threads");
  ws_model_term_add(r, "blocks", lc.blocks, "launch", "blocks");
  ws_model_term_add(r, "active_blocks_per_sm", lc.active_blocks_per_sm,
                    ws_pf_has(p->f.active_blocks_per_sm) ? "profile" : "occupancy", "blocks");
  ws_model_term_add(r, "active_sms", lc.active_sms, ws_pf_has(p->f.active_sms) ? "profile" : "min(SMs, blocks)", "SMs");
  ws_model_term_add(r, "n", n, "(20)", "warps");
  ws_model_term_add(r, "comp_insts", comp_insts, "profile", "insts");
  ws_model_term_add(r, "uncoal_mem_insts", uncoal, "profile", "insts");
  ws_model_term_add(r, "coal_mem_insts", coal, "profile", "insts");
  ws_model_term_add(r, "synch_insts", synch, "profile", "insts");
  if (mem_insts > 0) {
    ws_model_term_add(r, "uncoal_per_mw", uncoal_per_mw, ws_pf_has(p->f.uncoal_per_mw) ? "profile" : "GPU", "transactions");
    ws_model_term_add(r, "load_bytes_per_warp", load_bytes, "profile", "bytes");
  }

  if (mem_insts == 0) {
    /* No global memory instructions: the warps' computation serialises. */
    exec_app = comp_cycles * n * lc.rep;
    ws_model_term_add(r, "comp_cycles", comp_cycles, "(19)", "cycles");
    ws_model_term_add(r, "mem_cycles", 0, "(18)", "cycles");
    ws_model_term_add(r, "rep", lc.rep, "(21)", "");
    ws_model_term_add(r, "exec_cycles_app", exec_app, "(22)-(24)", "cycles");
    ws_model_term_add(r, "synch_cost", 0, "(26)", "cycles");
    cycles = exec_app;
    ws_model_term_add(r, "cycles", cycles, "(27)", "cycles");
    ws_model_set_labels(r, "compute only: no global memory instructions (Comp_cycles x N x #Rep)",
                        "computation: instruction issue");
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
    const char *eq, *label, *limiter;
    if (mwp == n && cwp == n) {
      exec_app = (mem_cycles + comp_cycles + comp_p * (mwp - 1)) * lc.rep; /* (22) */
      eq = "(22)";
      label = "not enough warps: MWP = CWP = N (eq. 22)";
      limiter = "parallelism: too few active warps to hide latency";
    } else if (mwp > cwp) {
      exec_app = (mem_l + comp_cycles * n) * lc.rep; /* (24) */
      eq = "(24)";
      label = "compute-bound: MWP > CWP (eq. 24)";
      limiter = "computation: instruction issue";
    } else {
      exec_app = (mem_cycles * n / mwp + comp_p * (mwp - 1)) * lc.rep; /* (23) */
      eq = "(23)";
      label = "memory-bound: CWP >= MWP (eq. 23)";
      if (mwp == mwp_peak_bw)
        limiter = "memory: MWP limited by peak bandwidth";
      else if (mwp == n)
        limiter = "memory: MWP limited by active warps";
      else
        limiter = "memory: MWP limited by departure delay (latency-bound)";
    }
    synch_cost = departure_delay * (mwp - 1) * synch * lc.active_blocks_per_sm * lc.rep; /* (26) */
    cycles = exec_app + synch_cost; /* (27) */

    ws_model_term_add(r, "weight_uncoal", w_uncoal, "(13)", "");
    ws_model_term_add(r, "weight_coal", w_coal, "(14)", "");
    ws_model_term_add(r, "departure_delay", departure_delay, "(15)", "cycles");
    ws_model_term_add(r, "mem_l_uncoal", mem_l_uncoal, "(10)", "cycles");
    ws_model_term_add(r, "mem_l_coal", mem_l_coal, "(11)", "cycles");
    ws_model_term_add(r, "mem_l", mem_l, "(12)", "cycles");
    ws_model_term_add(r, "mwp_without_bw_full", mwp_wo_bw_full, "(16)", "warps");
    ws_model_term_add(r, "mwp_without_bw", mwp_wo_bw, "(17)", "warps");
    ws_model_term_add(r, "bw_per_warp", bw_per_warp, "(7)", "GB/s");
    ws_model_term_add(r, "mwp_peak_bw", mwp_peak_bw, "(6)", "warps");
    ws_model_term_add(r, "mwp", mwp, "(5)", "warps");
    ws_model_term_add(r, "comp_cycles", comp_cycles, "(19)", "cycles");
    ws_model_term_add(r, "mem_cycles", mem_cycles, "(18)", "cycles");
    ws_model_term_add(r, "cwp_full", cwp_full, "(8)", "warps");
    ws_model_term_add(r, "cwp", cwp, "(9)", "warps");
    ws_model_term_add(r, "rep", lc.rep, "(21)", "");
    ws_model_term_add(r, "exec_cycles_app", exec_app, eq, "cycles");
    ws_model_term_add(r, "synch_cost", synch_cost, "(26)", "cycles");
    ws_model_term_add(r, "cycles", cycles, "(27)", "cycles");
    ws_model_set_labels(r, label, limiter);
  }
  /* CPI (25): cycles per warp instruction over all warps an SM runs. */
  ws_model_term_add(r, "cpi", exec_app / (total_insts * lc.warps_per_block * lc.blocks / lc.active_sms),
                    "(25)", "cycles/inst");
  r->cycles = cycles;
  r->time_ms = cycles / (g->clock_ghz * 1e6);
  return WS_OK;
}
