/*
 * gpuperf.c — the GPUPerf analytical model and performance advisor of
 * J. Sim, A. Dasgupta, H. Kim, R. Vuduc, "A Performance Analysis Framework
 * for Identifying Potential Benefits in GPGPU Applications", PPoPP 2012.
 *
 * T_exec = T_comp + T_mem - T_overlap (1), with T_comp split into a
 * parallel base and serialization overheads (2)-(10), T_mem from the average
 * memory access time and inter-thread MLP (11)-(15), the overlap from MWP and
 * CWP (16)-(17) (both as updated in the paper's Appendix A), and the
 * advisor's ideal costs and benefit metrics (18)-(23).
 *
 * Unit: the paper's "cost", i.e. SM cycles of one SM for the whole launch
 * (every term below that says "cycles" is per SM).  docs/models/gpuperf.md
 * lists the inputs and the choices made where the paper is silent.
 */
#include <math.h>
#include <stdio.h>

#include "warpsight/gpu.h"
#include "warpsight/model.h"
#include "warpsight/profile.h"

int ws_model_gpuperf(ws_model_result *out, const ws_profile *p,
                     const ws_gpu *g, ws_diag *d);

#define GPUPERF_GAMMA_DEFAULT 64.0 /* Γ, Section 4.1.1: "We chose 64" */

/* A profile field the model cannot do without. */
static double need(ws_model_result *r, double v, const char *path,
                   ws_diag *d, int *miss) {
  if (!ws_pf_has(v)) {
    ws_model_missing(r, path, d);
    (*miss)++;
  }
  return v;
}

/* A count whose absence means "none seen": 0, with a warning so it is never
 * assumed silently. */
static double count_or_zero(double v, const char *path, ws_diag *d) {
  if (ws_pf_has(v)) return v;
  ws_diag_add(d, WS_SEV_WARNING, NULL, 0, 0,
              "gpuperf: profile has no %s; assuming 0", path);
  return 0.0;
}

/* models.gpuperf.KEY of the GPU, or `fallback` (when finite and > 0), else
 * reported missing. */
static double gpu_need(ws_model_result *r, const ws_gpu *g, ws_gp_id id,
                       double fallback, ws_diag *d, int *miss) {
  double v = ws_gpu_p(g, id);
  if (isfinite(v)) return v;
  if (isfinite(fallback) && fallback > 0) return fallback;
  ws_model_missing_gp(r, g, id, d);
  (*miss)++;
  return NAN;
}

static double min2(double a, double b) { return a < b ? a : b; }
static double max2(double a, double b) { return a > b ? a : b; }

int ws_model_gpuperf_memory_bound(double t_comp, double t_mem) { return t_mem > t_comp; }

/* The memory figures of (12)-(13): transactions per request (*trans) and
 * the DRAM miss ratio, from the profile or derived from the hit ratios;
 * what is missing and needed is recorded (*miss). */
static void memory_ratios(double *trans_out, double *miss_out, ws_model_result *out, const ws_profile_fields *f,
                          int no_cache, int has_mem, ws_diag *d, int *miss) {
  double trans = f->avg_trans_warp, miss_ratio = f->miss_ratio;
  double h1 = f->l1_hit_ratio, h2 = f->l2_hit_ratio;
  if (no_cache) {
    /* A GPU without a data cache for global loads (CC 1.x): hit ratios
     * measured elsewhere do not apply, every transaction reaches DRAM. */
    h1 = 0.0;
    h2 = 0.0;
    miss_ratio = 1.0;
  }
  if (!ws_pf_has(trans)) {
    if (has_mem) need(out, trans, "memory.avg_trans_warp", d, miss);
    trans = 1.0; /* no memory requests: the value is never used */
  }
  if (!ws_pf_has(h1)) h1 = 0.0;
  if (!ws_pf_has(miss_ratio)) {
    if (ws_pf_has(h2)) {
      miss_ratio = (1.0 - h1) * (1.0 - h2);
    } else if (no_cache || !has_mem) {
      miss_ratio = 1.0 - h1; /* no L2: every L1 miss goes to DRAM */
    } else {
      need(out, miss_ratio, "memory.miss_ratio", d, miss);
    }
  }
  *trans_out = trans;
  *miss_out = miss_ratio;
}

/* The profile's parallelism.<name> (ILP or MLP), or 1 with a warning. */
static double parallelism_or_one(double v, const char *name, ws_diag *d) {
  if (ws_pf_has(v)) return v;
  ws_diag_add(d, WS_SEV_WARNING, NULL, 0, 0,
              "gpuperf: profile has no parallelism.%s; assuming 1 (the MWP-CWP model's assumption)", name);
  return 1.0;
}

/* size_of_data of (19), in bytes, and (*src) where it came from: the DRAM
 * bytes if the profile has them, else the bytes the loads ask for, else
 * every request's transactions. */
static double data_size(const ws_profile_fields *f, double mem, double trans, double trans_size,
                        double total_warps, const char **src) {
  double dr = f->dram_read_bytes, dw = f->dram_write_bytes;
  if (ws_pf_has(dr) || ws_pf_has(dw)) {
    *src = "memory.dram_read_bytes + dram_write_bytes";
    return (ws_pf_has(dr) ? dr : 0.0) + (ws_pf_has(dw) ? dw : 0.0);
  }
  if (ws_pf_has(f->load_bytes_per_warp)) {
    *src = "load_bytes_per_warp x mem insts x total warps";
    return f->load_bytes_per_warp * mem * total_warps;
  }
  *src = "mem insts x avg_trans_warp x transaction_size x total warps";
  return mem * trans * trans_size * total_warps;
}

int ws_model_gpuperf(ws_model_result *out, const ws_profile *p,
                     const ws_gpu *g, ws_diag *d) {
  int miss = 0;
  const ws_profile_fields *f = &p->f;

  /* Profile: instruction counts per warp (Table 2). */
  double comp = need(out, f->comp_insts, "per_warp.comp_insts", d, &miss);
  double coal = need(out, f->coal_mem_insts, "per_warp.coal_mem_insts", d, &miss);
  double uncoal = need(out, f->uncoal_mem_insts, "per_warp.uncoal_mem_insts", d, &miss);
  double fp = need(out, f->fp_insts, "per_warp.fp_insts", d, &miss);
  double mem = coal + uncoal;
  int has_mem = ws_pf_has(mem) && mem > 0;

  /* Memory behaviour: needed only when the kernel touches global memory. */
  int no_cache = !g->cache.l1_caches_global && g->cache.l2_bytes == 0;
  double trans, miss_ratio;
  memory_ratios(&trans, &miss_ratio, out, f, no_cache, has_mem, d, &miss);

  /* GPU parameters (Table 3). */
  double dram_lat = gpu_need(out, g, WS_GP_GPUPERF_DRAM_LAT, NAN, d, &miss);
  double delta = gpu_need(out, g, WS_GP_GPUPERF_DELTA, NAN, d, &miss);
  double fp_lat = gpu_need(out, g, WS_GP_GPUPERF_FP_LAT, NAN, d, &miss);
  double simd_width = gpu_need(out, g, WS_GP_GPUPERF_SIMD_WIDTH, g->cores_per_sm, d, &miss);
  double trans_size = gpu_need(out, g, WS_GP_GPUPERF_TRANSACTION_BYTES,
                               g->cache.l1_line_bytes, d, &miss);
  double gamma = ws_gpu_p(g, WS_GP_GPUPERF_GAMMA);
  if (!isfinite(gamma)) gamma = GPUPERF_GAMMA_DEFAULT;
  double warp_size = g->warp_size;

  if (miss) return WS_EMISSING;

  double sfu = count_or_zero(f->sfu_insts, "per_warp.sfu_insts", d);
  double sync = count_or_zero(f->synch_insts, "per_warp.synch_insts", d);
  double div_extra = count_or_zero(f->divergent_extra_insts,
                                   "per_warp.divergent_extra_insts", d);
  double bank = count_or_zero(f->bank_conflict_replays,
                              "per_warp.bank_conflict_replays", d);
  double sfu_width = NAN, hit_lat = 0.0;
  if (sfu > 0)
    sfu_width = gpu_need(out, g, WS_GP_GPUPERF_SFU_WIDTH, g->sfu_per_sm, d, &miss);
  /* (12) as printed: AMAT = avg_DRAM_lat x miss_ratio + hit_lat, with one
   * cache hit latency (Table 3), that of the first cache a global load
   * looks up: L1 where it caches global loads, else L2; none without a
   * cache.  (A hit-ratio-weighted hit latency is the warpsight model's.) */
  if (has_mem && g->cache.l1_caches_global)
    hit_lat = gpu_need(out, g, WS_GP_GPUPERF_L1_LAT, g->lat.l1, d, &miss);
  else if (has_mem && !no_cache)
    hit_lat = gpu_need(out, g, WS_GP_GPUPERF_L2_LAT, g->lat.l2, d, &miss);
  if (miss) return WS_EMISSING;

  double ilp = parallelism_or_one(f->ilp, "ilp", d), mlp = parallelism_or_one(f->mlp, "mlp", d);

  /* #insts excludes SFU instructions (Table 2) and the extra instructions
   * divergence adds (they are charged once, as O_CFdiv). */
  double insts = comp + mem - sfu - div_extra;
  if (!(insts > 0)) {
    return ws_diag_add(d, WS_SEV_ERROR, NULL, 0, 0,
                       "gpuperf: the profile leaves no instructions per warp "
                       "(comp_insts + mem insts - sfu_insts - divergent_extra_insts = %g)",
                       insts);
  }
  if (!(simd_width > 0) || !(warp_size > 0) || !(delta > 0) || !(fp_lat > 0) ||
      !(trans_size > 0) || (sfu > 0 && !(sfu_width > 0)))
    return ws_diag_add(d, WS_SEV_ERROR, NULL, 0, 0,
                       "gpuperf: GPU '%s' has a non-positive width, latency, delta or transaction size",
                       g->name);

  ws_model_launch_ctx ctx;
  int rc = ws_model_launch_ctx_compute(&ctx, p, g, d);
  if (rc != WS_OK) return rc;
  double n = ctx.active_warps_per_sm;                  /* N */
  double per_sm = ctx.total_warps / ctx.active_sms;    /* warps one SM runs */

  /* Computation cost ---------------------------------------------------- */
  double avg_inst_lat = fp_lat;                        /* Sec. 4.1.1: ~ FP latency */
  double itilp_max = avg_inst_lat / (warp_size / simd_width);           /* (5) */
  double itilp = min2(ilp * n, itilp_max);                              /* (4) */
  double inst_cost = avg_inst_lat / itilp;  /* cycles per warp instruction */
  double w_parallel = insts * per_sm * inst_cost;                       /* (3) */

  double avg_dram_lat = dram_lat + (trans - 1.0) * delta;               /* (13) */
  double f_sync = gamma * avg_dram_lat * (mem / insts);                 /* (8) */
  double o_sync = sync * per_sm * f_sync;                               /* (7) */
  double sfu_ratio = sfu / insts;
  double f_sfu = 0.0, o_sfu = 0.0;
  if (sfu > 0) {
    f_sfu = min2(max2(sfu_ratio - sfu_width / simd_width, 0.0), 1.0);   /* (10) */
    o_sfu = sfu * per_sm * (warp_size / sfu_width) * f_sfu;             /* (9) */
  }
  double o_cfdiv = div_extra * per_sm * inst_cost; /* extra issued instructions */
  double o_bank = bank * per_sm * inst_cost;       /* one re-issue per replay */
  double w_serial = o_sync + o_sfu + o_cfdiv + o_bank;                  /* (6) */
  double t_comp = w_parallel + w_serial;                                /* (2) */

  /* Memory cost ---------------------------------------------------------- */
  double amat = avg_dram_lat * miss_ratio + hit_lat;                    /* (12) */
  double bw_per_warp = g->clock_ghz * trans_size / avg_dram_lat;        /* (A.7) */
  double mwp_peak_bw = g->mem_bandwidth_gbs / (bw_per_warp * ctx.active_sms); /* (A.6) */
  double mwp = min2(min2(avg_dram_lat / delta, mwp_peak_bw), n);        /* (A.5) */
  double comp_cycles = insts * inst_cost;                               /* (A.3) */
  double mem_cycles = mem * amat / mlp;                                 /* (A.4) */
  double cwp_full = (mem_cycles + comp_cycles) / comp_cycles;           /* (A.2) */
  double cwp = min2(cwp_full, n);                                       /* (A.1) */
  double mwp_cp = min2(max2(1.0, cwp - 1.0), mwp);                      /* (15) */
  double itmlp = min2(mlp * mwp_cp, mwp_peak_bw);                       /* (14) */
  double t_mem = mem * per_sm / itmlp * amat;                           /* (11) */

  /* Overlap and execution time ------------------------------------------ */
  double zeta = cwp <= mwp ? 1.0 : 0.0;                                 /* (17) */
  double f_overlap = (n - zeta) / n;                                    /* (17) */
  double t_overlap = min2(t_comp * f_overlap, t_mem);                   /* (16) */
  double t_exec = t_comp + t_mem - t_overlap;                           /* (1) */

  /* Advisor --------------------------------------------------------------- */
  double t_fp = fp * per_sm * fp_lat / itilp;                           /* (18) */
  const char *size_src;
  double size_of_data = data_size(f, mem, trans, trans_size, ctx.total_warps, &size_src);
  /* (19) counts DRAM requests: bytes -> transactions of one SM. */
  double data_trans = size_of_data / trans_size / ctx.active_sms;
  double t_mem_min = data_trans * avg_dram_lat / mwp_peak_bw;           /* (19) */
  double b_itilp = w_parallel - insts * per_sm * avg_inst_lat / itilp_max; /* (20) */
  double b_serial = w_serial;                                           /* (21) */
  double b_fp = t_comp - t_fp - b_itilp - b_serial;                     /* (22) */
  double t_mem_prime = t_mem - t_overlap;
  double b_memlp = max2(t_mem_prime - t_mem_min, 0.0);                  /* (23) */

  if (!isfinite(t_exec) || !isfinite(b_fp) || !isfinite(b_memlp))
    return ws_diag_add(d, WS_SEV_ERROR, NULL, 0, 0,
                       "gpuperf: the prediction is not a finite number (T_exec = %g cycles); "
                       "the profile's counts are out of range", t_exec);

  const ws_model_term_val t[] = {
    {WS_TERM_GPUPERF_INSTS, insts, NULL},
    {WS_TERM_GPUPERF_MEM_INSTS, mem, NULL},
    {WS_TERM_GPUPERF_N, n, NULL},
    {WS_TERM_GPUPERF_ILP, ilp, NULL},
    {WS_TERM_GPUPERF_MLP, mlp, NULL},
    {WS_TERM_GPUPERF_AVG_INST_LAT, avg_inst_lat, NULL},
    {WS_TERM_GPUPERF_ITILP_MAX, itilp_max, NULL},
    {WS_TERM_GPUPERF_ITILP, itilp, NULL},
    {WS_TERM_GPUPERF_W_PARALLEL, w_parallel, NULL},
    {WS_TERM_GPUPERF_AVG_DRAM_LAT, avg_dram_lat, NULL},
    {WS_TERM_GPUPERF_F_SYNC, f_sync, NULL},
    {WS_TERM_GPUPERF_O_SYNC, o_sync, NULL},
    {WS_TERM_GPUPERF_F_SFU, f_sfu, NULL},
    {WS_TERM_GPUPERF_O_SFU, o_sfu, NULL},
    {WS_TERM_GPUPERF_O_CFDIV, o_cfdiv, NULL},
    {WS_TERM_GPUPERF_O_BANK, o_bank, NULL},
    {WS_TERM_GPUPERF_W_SERIAL, w_serial, NULL},
    {WS_TERM_GPUPERF_T_COMP, t_comp, NULL},
    {WS_TERM_GPUPERF_HIT_LAT, hit_lat, NULL},
    {WS_TERM_GPUPERF_MISS_RATIO, miss_ratio, NULL},
    {WS_TERM_GPUPERF_AMAT, amat, NULL},
    {WS_TERM_GPUPERF_BW_PER_WARP, bw_per_warp, NULL},
    {WS_TERM_GPUPERF_MWP_PEAK_BW, mwp_peak_bw, NULL},
    {WS_TERM_GPUPERF_MWP, mwp, NULL},
    {WS_TERM_GPUPERF_COMP_CYCLES, comp_cycles, NULL},
    {WS_TERM_GPUPERF_MEM_CYCLES, mem_cycles, NULL},
    {WS_TERM_GPUPERF_CWP_FULL, cwp_full, NULL},
    {WS_TERM_GPUPERF_CWP, cwp, NULL},
    {WS_TERM_GPUPERF_MWP_CP, mwp_cp, NULL},
    {WS_TERM_GPUPERF_ITMLP, itmlp, NULL},
    {WS_TERM_GPUPERF_T_MEM, t_mem, NULL},
    {WS_TERM_GPUPERF_ZETA, zeta, NULL},
    {WS_TERM_GPUPERF_F_OVERLAP, f_overlap, NULL},
    {WS_TERM_GPUPERF_T_OVERLAP, t_overlap, NULL},
    {WS_TERM_GPUPERF_T_EXEC, t_exec, NULL},
    {WS_TERM_GPUPERF_T_FP, t_fp, NULL},
    {WS_TERM_GPUPERF_SIZE_OF_DATA, size_of_data, NULL},
    {WS_TERM_GPUPERF_T_MEM_MIN, t_mem_min, NULL},
    {WS_TERM_GPUPERF_T_MEM_PRIME, t_mem_prime, NULL},
    {WS_TERM_GPUPERF_B_ITILP, b_itilp, NULL},
    {WS_TERM_GPUPERF_B_SERIAL, b_serial, NULL},
    {WS_TERM_GPUPERF_B_FP, b_fp, NULL},
    {WS_TERM_GPUPERF_B_MEMLP, b_memlp, NULL},
  };
  rc = ws_model_terms_add(out, t, sizeof t / sizeof t[0]);
  if (rc != WS_OK) return rc;

  char label[192];
  int mem_bound = ws_model_gpuperf_memory_bound(t_comp, t_mem);
  snprintf(label, sizeof label, "%s, %s (zeta = %g); size_of_data from %s",
           mem_bound ? "memory bound (T_mem > T_comp)" : "compute bound (T_comp >= T_mem)",
           cwp <= mwp ? "CWP <= MWP" : "CWP > MWP", zeta, size_src);
  rc = ws_model_set_case(out, mem_bound ? WS_BOUND_GPUPERF_MEMORY : WS_BOUND_GPUPERF_COMPUTE,
                         label);
  if (rc != WS_OK) return rc;

  out->cycles = t_exec;
  out->time_ms = t_exec / (g->clock_ghz * 1e6);
  return WS_OK;
}
