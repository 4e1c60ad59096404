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

/* A GPU parameter models.transit.<prec>_<key>, recorded as missing if absent. */
static double gpu_param(ws_model_result *out, const ws_gpu *g,
                        const char *point, const char *prec, const char *key,
                        ws_diag *d, int *missing) {
  char name[64];
  snprintf(name, sizeof name, "%s_%s_%s", point, prec, key);
  return ws_model_gpu_param(out, g, "transit", name, missing, d);
}

int ws_model_transit(ws_model_result *out, const ws_profile *p,
                     const ws_gpu *g, ws_diag *d) {
  ws_model_launch_ctx ctx;
  int st = ws_model_launch_ctx_compute(&ctx, p, g, d);
  if (st != WS_OK) return st;
  const ws_profile_fields *f = &p->f;
  int missing = 0;

  /* Work: thread instructions of the whole launch. */
  static const struct { const char *path; size_t off; } insts[] = {
      {"per_warp.comp_insts", offsetof(ws_profile_fields, comp_insts)},
      {"per_warp.coal_mem_insts", offsetof(ws_profile_fields, coal_mem_insts)},
      {"per_warp.uncoal_mem_insts",
       offsetof(ws_profile_fields, uncoal_mem_insts)}};
  for (size_t i = 0; i < sizeof insts / sizeof insts[0]; i++) {
    const double *v = (const double *)((const char *)f + insts[i].off);
    if (!ws_pf_has(*v)) {
      ws_model_missing(out, insts[i].path, d);
      missing = 1;
    }
  }

  /* DRAM traffic: measured bytes if the profile has them, else Sim et al.'s
   * transactions (mem insts x avg_trans_warp x miss_ratio) x the size of
   * one of those transactions.  avg_trans_warp counts transactions in the
   * GPU's own unit (docs/profile.md): 128-B lines on Fermi, 32-B sectors
   * from CC 3.0, the GPU's gpuperf.transaction_bytes (derived per CC when
   * the file does not give it); the L2 sector only when that is absent. */
  const double sector = g->cache.l2_sector_bytes > 0 ? g->cache.l2_sector_bytes
                                                     : 32.0;
  const double trans_bytes = ws_gpu_param_or(g, "gpuperf", "transaction_bytes", sector);
  double dram_bytes = NAN;
  int measured = 0;
  if (ws_pf_has(f->dram_read_bytes) || ws_pf_has(f->dram_write_bytes)) {
    dram_bytes = (ws_pf_has(f->dram_read_bytes) ? f->dram_read_bytes : 0) +
                 (ws_pf_has(f->dram_write_bytes) ? f->dram_write_bytes : 0);
    measured = 1;
  } else {
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
  const char *prec = dp ? "dp" : "sp";
  ws_transit_params tp;
  tp.k_delta = gpu_param(out, g, "delta", prec, "threads", d, &missing);
  tp.r = gpu_param(out, g, "delta", prec, "gbs", d, &missing);
  tp.m = gpu_param(out, g, "pi", prec, "threads", d, &missing);
  tp.p = gpu_param(out, g, "pi", prec, "value", d, &missing);
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
  e |= ws_model_term_add(out, "precision_dp", dp, "", "0 SP, 1 DP");
  e |= ws_model_term_add(out, "n", tp.n, "Sec. 3", "threads");
  e |= ws_model_term_add(out, "z", z_paper, "Sec. 3",
                         "insts/txn");
  e |= ws_model_term_add(out, "z_ops_per_byte", tp.z_ops_per_byte, "",
                         "ops/byte");
  e |= ws_model_term_add(out, "dram_bytes", dram_bytes, "", "bytes");
  e |= ws_model_term_add(out, "dram_bytes_measured", measured, "",
                         "1 measured");
  e |= ws_model_term_add(out, "sector_bytes", sector, "", "bytes");
  if (!measured)
    e |= ws_model_term_add(out, "transaction_bytes", trans_bytes, "", "bytes");
  e |= ws_model_term_add(out, "delta_threads", tp.k_delta, "Fig. 4", "threads");
  e |= ws_model_term_add(out, "delta_gbs", tp.r, "Fig. 4", "GB/s/SM");
  e |= ws_model_term_add(out, "pi_threads", tp.m, "(1)", "threads");
  e |= ws_model_term_add(out, "pi_value", tp.p, "(1)", "Gops/s/SM");
  e |= ws_model_term_add(out, "g_ceiling_gbs", eq.g_ceiling_gbs, "(2)",
                         "GB/s/SM");
  e |= ws_model_term_add(out, "k_eq", eq.k, "(3)", "threads");
  e |= ws_model_term_add(out, "x_eq", eq.x, "(3)", "threads");
  e |= ws_model_term_add(out, "ms_throughput", eq.ms_gbs, "(3)", "GB/s/SM");
  e |= ws_model_term_add(out, "cs_throughput", eq.cs_gops, "(3)",
                         "Gops/s/SM");
  if (ws_pf_has(f->flops))
    e |= ws_model_term_add(out, "cs_gflops",
                           eq.cs_gops * f->flops / (ws_profile_total_insts(p) * ws),
                           "", "GFLOP/s/SM");
  e |= ws_model_term_add(out, "bound", (double)eq.bound, "Sec. 2.4",
                         "0-3");
  e |= ws_model_term_add(out, "active_sms", sms, "", "SMs");
  e |= ws_model_term_add(out, "total_thread_insts", thread_insts, "",
                         "ops");
  char label[48];
  snprintf(label, sizeof label, "%s bound", ws_model_transit_bound_name(eq.bound));
  e |= ws_model_set_labels(out, label, ws_model_transit_direction(eq.bound));
  if (e) return ws_diag_error(d, "transit: out of memory");

  out->time_ms = time_s * 1e3;
  out->cycles = time_s * g->clock_ghz * 1e9;
  return WS_OK;
}
