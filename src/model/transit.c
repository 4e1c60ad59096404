/*
 * transit.c — the Transit model (A. Li, Y. C. Tay, A. Kumar, H. Corporaal,
 * "Transit: A Visual Analytical Model for Multithreaded Machines", HPDC'15).
 *
 * A multithreaded machine is a closed network of n threads shared by a
 * memory system (MS, supply f(k) with k threads in it) and a computation
 * system (CS, demand g(x) on the MS with x threads in it).  In steady state
 * f(k) = g(x) with k + x = n (3).  Both curves are roofline-shaped, so the
 * equilibrium is the intersection of two piecewise-linear curves and has a
 * closed form on each of the four pairs of linear pieces; the pair that
 * holds it is the bound (Section 2.4).
 *
 * Units are per SM and spelled out in model/transit.h; the choices the
 * paper leaves open (what pi's ordinate counts, how Z is converted to bytes,
 * SP or DP) are in docs/models/transit.md.
 */
#include "model/transit.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "warpsight/model.h"

/* The model ---------------------------------------------------------------*/

int ws_model_transit(ws_model_result *out, const ws_profile *p,
                     const ws_gpu *g, ws_diag *d);

int ws_model_transit(ws_model_result *out, const ws_profile *p,
                     const ws_gpu *g, ws_diag *d) {
  ws_model_launch_ctx ctx;
  int st = ws_model_launch_ctx_compute(&ctx, p, g, d);
  if (st != WS_OK) return st;
  const ws_profile_fields *f = &p->f;
  int missing = 0;

  /* Work: thread instructions of the whole launch. */
  ws_model_need(out, f->comp_insts, "per_warp.comp_insts", &missing, d);
  ws_model_need(out, f->coal_mem_insts, "per_warp.coal_mem_insts", &missing, d);
  ws_model_need(out, f->uncoal_mem_insts, "per_warp.uncoal_mem_insts", &missing, d);

  /* DRAM traffic: measured bytes if the profile has them, else Sim et al.'s
   * transactions (mem insts x avg_trans_warp x miss_ratio) x the size of
   * one of those transactions.  avg_trans_warp counts transactions in the
   * GPU's own unit (docs/profile.md): 128-B lines on Fermi, 32-B sectors
   * from CC 3.0, the GPU's gpuperf.transaction_bytes (derived per CC when
   * the file does not give it); the L2 sector only when that is absent
   * (ws_model_transaction_bytes). */
  const double sector = g->cache.l2_sector_bytes > 0 ? g->cache.l2_sector_bytes
                                                     : 32.0;
  const double trans_bytes = ws_model_transaction_bytes(g);
  double dram_bytes = ws_profile_dram_bytes(p);
  int measured = ws_pf_has(dram_bytes);
  if (!measured) {
    if (!ws_pf_has(f->avg_trans_warp)) {
      ws_model_missing(out, "memory.dram_read_bytes", d);
      missing = 1;
    } else if (!ws_pf_has(f->miss_ratio)) {
      ws_model_missing(out, "memory.miss_ratio", d);
      missing = 1;
    } else if (!missing) {
      dram_bytes = ws_profile_mem_insts(p) * f->avg_trans_warp *
                   f->miss_ratio * trans_bytes * ctx.total_warps;
    }
  }

  /* SP or DP: the majority of the floating-point instructions decides. */
  int dp = ws_pf_has(f->fp64_insts) && ws_pf_has(f->fp_insts) &&
           f->fp64_insts > 0.5 * f->fp_insts;
  /* the measured points of models.transit, SP or DP */
  static const ws_gp_id pts[2][4] = {
      {WS_GP_TRANSIT_DELTA_SP_THREADS, WS_GP_TRANSIT_DELTA_SP_GBS, WS_GP_TRANSIT_PI_SP_THREADS,
       WS_GP_TRANSIT_PI_SP_VALUE},
      {WS_GP_TRANSIT_DELTA_DP_THREADS, WS_GP_TRANSIT_DELTA_DP_GBS, WS_GP_TRANSIT_PI_DP_THREADS,
       WS_GP_TRANSIT_PI_DP_VALUE}};
  ws_transit_params tp;
  tp.k_delta = ws_model_gpu_param(out, g, pts[dp][0], &missing, d);
  tp.r = ws_model_gpu_param(out, g, pts[dp][1], &missing, d);
  tp.m = ws_model_gpu_param(out, g, pts[dp][2], &missing, d);
  tp.p = ws_model_gpu_param(out, g, pts[dp][3], &missing, d);
  if (missing) return WS_EMISSING;

  const double ws = g->warp_size > 0 ? g->warp_size : 32;
  const double warp_insts = ws_profile_total_insts(p) * ctx.total_warps;
  const double thread_insts = warp_insts * ws;
  if (!(thread_insts > 0))
    return ws_diag_error(d, "transit: the profile has no instructions "
                            "(per_warp.comp_insts + mem insts = 0)");
  tp.n = ctx.active_warps_per_sm * ws;         /* Section 3: occupancy x max threads */
  tp.z_ops_per_byte = dram_bytes > 0 ? thread_insts / dram_bytes : INFINITY;
  double z_paper = dram_bytes > 0 ? warp_insts / (dram_bytes / sector) : INFINITY;

  ws_transit_eq eq;
  st = ws_model_transit_solve(&eq, &tp, d);
  if (st != WS_OK) return st;

  const double sms = ctx.active_sms;
  double time_s = thread_insts / (eq.cs_gops * 1e9 * sms);
  if (!(eq.cs_gops > 0) || !isfinite(time_s) || !isfinite(thread_insts))
    return ws_diag_error(d, "transit: instruction counts too large for a "
                            "finite prediction");

  int e = 0;
  e |= ws_model_term_add(out, WS_TERM_TRANSIT_PRECISION_DP, dp);
  e |= ws_model_term_add(out, WS_TERM_TRANSIT_N, tp.n);
  e |= ws_model_term_add(out, WS_TERM_TRANSIT_Z, z_paper);
  e |= ws_model_term_add(out, WS_TERM_TRANSIT_Z_OPS_PER_BYTE, tp.z_ops_per_byte);
  e |= ws_model_term_add(out, WS_TERM_TRANSIT_DRAM_BYTES, dram_bytes);
  e |= ws_model_term_add(out, WS_TERM_TRANSIT_DRAM_BYTES_MEASURED, measured);
  e |= ws_model_term_add(out, WS_TERM_TRANSIT_SECTOR_BYTES, sector);
  if (!measured)
    e |= ws_model_term_add(out, WS_TERM_TRANSIT_TRANSACTION_BYTES, trans_bytes);
  e |= ws_model_term_add(out, WS_TERM_TRANSIT_DELTA_THREADS, tp.k_delta);
  e |= ws_model_term_add(out, WS_TERM_TRANSIT_DELTA_GBS, tp.r);
  e |= ws_model_term_add(out, WS_TERM_TRANSIT_PI_THREADS, tp.m);
  e |= ws_model_term_add(out, WS_TERM_TRANSIT_PI_VALUE, tp.p);
  e |= ws_model_term_add(out, WS_TERM_TRANSIT_G_CEILING_GBS, eq.g_ceiling_gbs);
  e |= ws_model_term_add(out, WS_TERM_TRANSIT_K_EQ, eq.k);
  e |= ws_model_term_add(out, WS_TERM_TRANSIT_X_EQ, eq.x);
  e |= ws_model_term_add(out, WS_TERM_TRANSIT_MS_THROUGHPUT, eq.ms_gbs);
  e |= ws_model_term_add(out, WS_TERM_TRANSIT_CS_THROUGHPUT, eq.cs_gops);
  if (ws_pf_has(f->flops))
    e |= ws_model_term_add(out, WS_TERM_TRANSIT_CS_GFLOPS, eq.cs_gops * f->flops / (ws_profile_total_insts(p) * ws));
  /* The bound's number is shown as a term, as it always was; readers take
   * the bound from out->bound, never from this number. */
  e |= ws_model_term_add(out, WS_TERM_TRANSIT_BOUND, (double)eq.bound);
  e |= ws_model_term_add(out, WS_TERM_TRANSIT_ACTIVE_SMS, sms);
  e |= ws_model_term_add(out, WS_TERM_TRANSIT_TOTAL_THREAD_INSTS, thread_insts);
  char label[48];
  snprintf(label, sizeof label, "%s bound", ws_model_transit_bound_name(eq.bound));
  e |= ws_model_set_case(out, ws_model_transit_bound(eq.bound), label);
  if (e) return ws_diag_error(d, "transit: out of memory");

  out->time_ms = time_s * 1e3;
  out->cycles = time_s * g->clock_ghz * 1e9;
  return WS_OK;
}
