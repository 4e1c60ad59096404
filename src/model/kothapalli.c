/*
 * kothapalli.c — the BSP/PRAM/QRQW model of K. Kothapalli, R. Mukherjee,
 * M. S. Rehman, S. Patidar, P. J. Narayanan, K. Srinathan, "A Performance
 * Prediction Model for the CUDA GPGPU Platform", HiPC 2009.
 *
 * A thread's cost is its computation cycles N_comp (a per-operation cycle
 * table) and its memory cycles N_memory (global accesses at G cycles, or
 * (G + k)/k when k threads share a transaction; shared accesses at S cycles,
 * S·k under a k-way bank conflict).  The MAX model takes C_T = max of the two
 * (latency fully hidden), the SUM model their sum (nothing hidden).  The
 * kernel then costs N_B · N_w · N_t · C_T / (N_C · D) cycles (3), and
 * T = C / R (4).
 *
 * The inputs describe the costliest thread (eq. (2) takes the maximum over
 * threads): the profile's hand-written "kothapalli" section, else the
 * costliest of the heaviest warps of its model-neutral instruction mix,
 * mapped here to the paper's operation kinds; the formats are in
 * docs/profile.md and the choices in docs/models/kothapalli.md.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "warpsight/gpu.h"
#include "util/json.h"
#include "warpsight/model.h"
#include "warpsight/profile.h"
#include "model/section.h"

int ws_model_kothapalli_max(ws_model_result *out, const ws_profile *p,
                            const ws_gpu *g, ws_diag *d);
int ws_model_kothapalli_sum(ws_model_result *out, const ws_profile *p,
                            const ws_gpu *g, ws_diag *d);

#define SECTION "kothapalli"

typedef struct kp_thread {
  double n_comp;      /* N_comp: computation cycles of the thread */
  double n_global;    /* global-memory part of N_memory */
  double n_shared;    /* shared-memory part of N_memory */
  double n_memory;    /* N_memory = n_global + n_shared */
} kp_thread;

/* models.kothapalli.<key> of the GPU (gpu_params.def), or recorded as
 * missing. */
static int gpu_need(double *out, ws_model_result *r, const ws_gpu *g, ws_gp_id id, ws_diag *d) {
  double v = ws_gpu_p(g, id);
  if (isfinite(v) && v >= 0) {
    *out = v;
    return WS_OK;
  }
  ws_model_missing_gp(r, g, id, d);
  return WS_EMISSING;
}

/* The same by key (a section's "op_cycles.<op>"): a key the table does not
 * declare is missing on every GPU. */
static int gpu_need_key(double *out, ws_model_result *r, const ws_gpu *g, const char *key,
                        ws_diag *d) {
  int id = ws_gpu_param_find("kothapalli", key);
  if (id >= 0) return gpu_need(out, r, g, (ws_gp_id)id, d);
  ws_model_missing_gpu(r, g, "kothapalli", key, d);
  return WS_EMISSING;
}

/* Section 3.2.2's access costs, cycles per thread: a global access served
 * k threads per transaction costs (G + k) / k (G when k = 1); a shared one
 * under a k-way conflict S k (QRQW with a linear contention function). */
static double global_cost(double k, double g) { return k == 1 ? g : (g + k) / k; }
static double shared_cost(double k, double s) { return s * k; }

/* Σ count × cost over one of the access groups; `global` selects the cost
 * rule. */
static double sum_groups(const ws_pm_group *g, size_t n, int global, double unit) {
  double out = 0.0;
  for (size_t i = 0; i < n; i++)
    out += g[i].count * (global ? global_cost(g[i].k, unit) : shared_cost(g[i].k, unit));
  return out;
}

/* Kothapalli's operation kinds, in the order the profiler used to write
 * them (the order of the sums below), and the key of each in
 * models.kothapalli.op_cycles. */
enum { KO_INT_SIMPLE, KO_INT_MUL32, KO_INT_DIV, KO_INT_REM, KO_FP_SIMPLE, KO_FP_DIV, KO_SFU,
       KO_FP64, KO_NKINDS, KO_NONE = -1 };
static const ws_gp_id ko_param[KO_NKINDS] = {
    WS_GP_KOTHAPALLI_OP_INT_SIMPLE, WS_GP_KOTHAPALLI_OP_INT_MUL32, WS_GP_KOTHAPALLI_OP_INT_DIV,
    WS_GP_KOTHAPALLI_OP_INT_REM,    WS_GP_KOTHAPALLI_OP_FP_SIMPLE, WS_GP_KOTHAPALLI_OP_FP_DIV,
    WS_GP_KOTHAPALLI_OP_SFU,        WS_GP_KOTHAPALLI_OP_FP64};

/* The kind of a mix key (docs/models/kothapalli.md): integer mul/mad ->
 * int_mul32, div -> int_div, rem -> int_rem, other integer -> int_simple;
 * fp32/fp16 div -> fp_div, other -> fp_simple; sfu; fp64.  Moves,
 * conversions and control (unit "other") are not operations. */
static int ko_kind(unsigned key) {
  unsigned op = ws_mix_key_op(key);
  switch (ws_mix_key_unit(key)) {
  case WS_MIX_UNIT_INT:
    if (op == WS_MIX_OP_DIV) return KO_INT_DIV;
    if (op == WS_MIX_OP_REM) return KO_INT_REM;
    if (op == WS_MIX_OP_MUL || op == WS_MIX_OP_MAD) return KO_INT_MUL32;
    return KO_INT_SIMPLE;
  case WS_MIX_UNIT_FP32:
  case WS_MIX_UNIT_FP16: return op == WS_MIX_OP_DIV ? KO_FP_DIV : KO_FP_SIMPLE;
  case WS_MIX_UNIT_SFU: return KO_SFU;
  case WS_MIX_UNIT_FP64: return KO_FP64;
  default: return KO_NONE;
  }
}

/* One warp of the mix in Kothapalli's terms. */
typedef struct ko_counts {
  double ops[KO_NKINDS];
  const double *tpt;    /* global requests by threads per transaction, [1..32] */
  const double *degree; /* shared requests by conflict degree, [1..32] */
} ko_counts;

static void ko_of(ko_counts *c, const ws_warp_mix *w) {
  memset(c, 0, sizeof *c);
  for (size_t i = 0; i < w->nops; i++) {
    int k = ko_kind(w->ops[i].key);
    if (k != KO_NONE) c->ops[k] += w->ops[i].n;
  }
  c->tpt = w->global_by_tpt;
  c->degree = w->shared_by_degree;
}

/* The thread of a warp's counts: operations x op cycles, accesses at
 * global_cost and shared_cost. */
static void ko_thread(kp_thread *t, const ko_counts *c, const double ops[KO_NKINDS], double gcyc,
                      double scyc) {
  memset(t, 0, sizeof *t);
  for (int k = 0; k < KO_NKINDS; k++)
    if (c->ops[k] > 0) t->n_comp += c->ops[k] * ops[k];
  for (int k = 1; k <= 32; k++) {
    if (c->tpt[k] > 0) t->n_global += c->tpt[k] * global_cost(k, gcyc);
    if (c->degree[k] > 0) t->n_shared += c->degree[k] * shared_cost(k, scyc);
  }
  t->n_memory = t->n_global + t->n_shared;
}

/* Eq. (2) takes the costliest thread: of the profile's heaviest warps, the
 * one with the most cycles under the GPU's costs (under unit costs when the
 * GPU lacks one of them), the first in (block, warp) order on a tie. */
static const ws_warp_mix *costliest(const ws_profile *p, const ws_gpu *g) {
  double ops[KO_NKINDS], gcyc = ws_gpu_p(g, WS_GP_KOTHAPALLI_GLOBAL_CYCLES),
                         scyc = ws_gpu_p(g, WS_GP_KOTHAPALLI_SHARED_CYCLES);
  int all = gcyc >= 0 && scyc >= 0;
  for (int k = 0; k < KO_NKINDS; k++) all &= (ops[k] = ws_gpu_p(g, ko_param[k])) >= 0;
  if (!all) {
    for (int k = 0; k < KO_NKINDS; k++) ops[k] = 1;
    gcyc = scyc = 1;
  }
  const ws_warp_mix *best = NULL;
  double bcost = -1;
  for (size_t i = 0; i < p->mix.nwarps; i++) { /* in (block, warp) order */
    ko_counts c;
    kp_thread t;
    ko_of(&c, &p->mix.warps[i]);
    ko_thread(&t, &c, ops, gcyc, scyc);
    double x = t.n_comp + t.n_memory;
    if (!best || x > bcost) best = &p->mix.warps[i], bcost = x;
  }
  return best;
}

/* The thread from the profile's instruction mix (the profiler's profiles). */
static int thread_from_mix(kp_thread *t, ws_model_result *r, const ws_profile *p,
                           const ws_gpu *g, ws_diag *d) {
  const ws_warp_mix *w = costliest(p, g);
  ko_counts c;
  ko_of(&c, w);
  int miss = 0;
  double cyc[KO_NKINDS] = {0};
  for (int k = 0; k < KO_NKINDS; k++)
    if (c.ops[k] > 0 && gpu_need(&cyc[k], r, g, ko_param[k], d) != WS_OK) miss++;
  double gcyc = 0, scyc = 0, ng = 0, ns = 0;
  for (int k = 1; k <= 32; k++) ng += c.tpt[k], ns += c.degree[k];
  if (ng > 0 && gpu_need(&gcyc, r, g, WS_GP_KOTHAPALLI_GLOBAL_CYCLES, d) != WS_OK) miss++;
  if (ns > 0 && gpu_need(&scyc, r, g, WS_GP_KOTHAPALLI_SHARED_CYCLES, d) != WS_OK) miss++;
  if (miss) return WS_EMISSING;
  ko_thread(t, &c, cyc, gcyc, scyc);
  if (!(t->n_comp + t->n_memory > 0)) {
    char origin[160];
    profile_origin(origin, sizeof origin, p);
    return ws_json_error(d, origin, "warp_mix", "heaviest_warps",
                         "the costliest warp has no work (no operations or accesses)");
  }
  return WS_OK;
}

/* The thread: the profile's hand-written kothapalli section (typed at
 * load, docs/profile.md) when it has one, else the costliest warp of its
 * instruction mix. */
static int read_thread(kp_thread *t, ws_model_result *r, const ws_profile *p,
                       const ws_gpu *g, ws_diag *d) {
  const ws_profile_kothapalli *k = p->kothapalli;
  memset(t, 0, sizeof *t);
  if (!k && p->mix.nwarps) return thread_from_mix(t, r, p, g, d);
  if (!k) {
    ws_model_missing(r, SECTION, d);
    return WS_EMISSING;
  }
  /* N_comp: operations per thread times the GPU's cycles per operation. */
  int miss = 0;
  for (size_t i = 0; i < k->nops; i++) {
    char key[128];
    snprintf(key, sizeof key, "op_cycles.%s", k->ops[i].name);
    double cyc;
    if (gpu_need_key(&cyc, r, g, key, d) != WS_OK) {
      miss++;
      continue;
    }
    t->n_comp += k->ops[i].count * cyc;
  }
  t->n_comp += k->comp_cycles;

  /* N_memory: global and shared accesses. */
  double gcyc = 0, scyc = 0;
  if (k->nglobal > 0 && gpu_need(&gcyc, r, g, WS_GP_KOTHAPALLI_GLOBAL_CYCLES, d) != WS_OK) miss++;
  if (k->nshared > 0 && gpu_need(&scyc, r, g, WS_GP_KOTHAPALLI_SHARED_CYCLES, d) != WS_OK) miss++;
  if (miss) return WS_EMISSING;
  t->n_global = sum_groups(k->global, k->nglobal, 1, gcyc);
  t->n_shared = sum_groups(k->shared, k->nshared, 0, scyc);
  t->n_memory = t->n_global + t->n_shared;
  if (!(t->n_comp + t->n_memory > 0)) {
    char origin[160];
    profile_origin(origin, sizeof origin, p);
    return ws_json_error(d, origin, SECTION, NULL,
                         "the thread has no work (no operations, cycles or accesses)");
  }
  return WS_OK;
}

static int predict(ws_model_result *out, const ws_profile *p, const ws_gpu *g,
                   ws_diag *d, int use_sum) {
  kp_thread t;
  int rc = read_thread(&t, out, p, g, d);
  double depth = 0;
  int rc2 = gpu_need(&depth, out, g, WS_GP_KOTHAPALLI_PIPELINE_DEPTH, d);
  if (rc != WS_OK) return rc;
  if (rc2 != WS_OK) return rc2;
  if (!(depth > 0) || g->cores_per_sm <= 0)
    return ws_diag_add(d, WS_SEV_ERROR, NULL, 0, 0,
                       "kothapalli: GPU '%s' needs positive cores_per_sm and models.kothapalli.pipeline_depth",
                       g->name);

  ws_model_launch_ctx ctx;
  rc = ws_model_launch_ctx_compute(&ctx, p, g, d);
  if (rc != WS_OK) return rc;

  double c_t = use_sum ? t.n_comp + t.n_memory                        /* SUM */
                       : fmax(t.n_comp, t.n_memory);                  /* MAX */
  double n_b = ceil(ctx.blocks / ctx.active_sms); /* blocks each SM runs in sequence */
  double n_w = ctx.warps_per_block;
  double n_t = g->warp_size;
  double n_c = g->cores_per_sm;
  double c_k = n_b * n_w * n_t * c_t / (n_c * depth);                 /* (3) */
  double t_k = c_k / (g->clock_ghz * 1e6);                            /* (4), ms */

  if (!isfinite(c_k))
    return ws_diag_add(d, WS_SEV_ERROR, NULL, 0, 0,
                       "kothapalli: the prediction is not a finite number (C(K) = %g cycles); "
                       "the kothapalli section's counts are out of range", c_k);

  const ws_model_term_val terms[] = {
    {WS_TERM_KOTHAPALLI_N_COMP, t.n_comp, NULL},
    {WS_TERM_KOTHAPALLI_N_MEMORY_GLOBAL, t.n_global, NULL},
    {WS_TERM_KOTHAPALLI_N_MEMORY_SHARED, t.n_shared, NULL},
    {WS_TERM_KOTHAPALLI_N_MEMORY, t.n_memory, NULL},
    {WS_TERM_KOTHAPALLI_C_T, c_t, NULL},
    {WS_TERM_KOTHAPALLI_N_B, n_b, NULL},
    {WS_TERM_KOTHAPALLI_N_W, n_w, NULL},
    {WS_TERM_KOTHAPALLI_N_T, n_t, NULL},
    {WS_TERM_KOTHAPALLI_N_C, n_c, NULL},
    {WS_TERM_KOTHAPALLI_PIPELINE_DEPTH, depth, NULL},
    {WS_TERM_KOTHAPALLI_C_K, c_k, NULL},
    {WS_TERM_KOTHAPALLI_T_K, t_k, NULL},
  };
  rc = ws_model_terms_add(out, terms, sizeof terms / sizeof terms[0]);
  if (rc != WS_OK) return rc;
  rc = ws_model_set_case(out,
                         t.n_comp >= t.n_memory ? WS_BOUND_KOTHAPALLI_COMPUTE
                                                : WS_BOUND_KOTHAPALLI_MEMORY,
                         use_sum ? "SUM: C_T = N_comp + N_memory (no latency hiding)"
                                 : "MAX: C_T = max(N_comp, N_memory) (latency hidden)");
  if (rc != WS_OK) return rc;
  out->cycles = c_k;
  out->time_ms = t_k;
  return WS_OK;
}

int ws_model_kothapalli_max(ws_model_result *out, const ws_profile *p,
                            const ws_gpu *g, ws_diag *d) {
  return predict(out, p, g, d, 0);
}

int ws_model_kothapalli_sum(ws_model_result *out, const ws_profile *p,
                            const ws_gpu *g, ws_diag *d) {
  return predict(out, p, g, d, 1);
}
