/*
 * luo_suda.c — the execution-time model of Luo Cheng and Reiji Suda, "An
 * execution time prediction analytical model for GPU with instruction-level
 * and thread-level parallelism awareness".
 *
 * A representative warp is a sequence of calculate periods, each a
 * computation task (c_i cycles) followed by a memory task (m_i cycles).
 * The N_act active warps of an SM run a period's computation tasks with
 * computing parallel degree CPD (3)-(5) and overlap memory tasks up to the
 * memory parallel degree MPD (1)-(2).  A period costs
 * ceil(N_act · c_i / CPD) plus waiting caused by a long memory task in this
 * period (T_c) and/or in the previous one (T_p), depending on which of the
 * four types it is (6)-(13).  The sum over the periods is the time of one
 * round of resident warps; the launch takes #Rep rounds.
 *
 * The readings of the paper's unclear spots (n in (8), the second argument
 * of (13), CPD below 1, MPD of 0) are in docs/models/luo-suda.md.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpsight/gpu.h"
#include "util/json.h"
#include "warpsight/model.h"
#include "warpsight/profile.h"
#include "model/section.h"

int ws_model_luo_suda(ws_model_result *out, const ws_profile *p,
                      const ws_gpu *g, ws_diag *d);

#define SECTION "luo_suda"
#define GPU_MODEL "luo-suda"

typedef struct ls_task {
  double c;       /* c_i: computation task cycles */
  double m;       /* m_i: memory task cycles */
  double repeat;  /* consecutive identical periods */
} ls_task;

typedef struct ls_params {
  double n_act;   /* N_act: active warps per SM */
  double cpd;     /* computing parallel degree */
  double mpd;     /* memory parallel degree (>= 1) */
} ls_params;

typedef struct ls_sums {
  double t[4];      /* cycles spent in periods of type 1..4 */
  double count[4];  /* periods of type 1..4 */
  double base;      /* cycles of computation, ceil(N_act c_i / CPD) */
  double wait;      /* cycles of memory waiting, T_p + T_c */
} ls_sums;

/* The GPU's models.luo-suda parameter `id` (Table 1's cells), or NaN after
 * recording it missing and counting it in *miss. */
static double gp_cost(ws_model_result *r, const ws_gpu *g, ws_gp_id id, ws_diag *d, int *miss) {
  double v = ws_gpu_p(g, id);
  if (isfinite(v) && v >= 0) return v;
  ws_model_missing_gp(r, g, id, d);
  (*miss)++;
  return NAN;
}

/* The GPU's models.luo-suda.inst_costs entry for `name` ("add.int_reg",
 * "ld_st"; gpu_params.def declares Table 1's cells), or NaN after recording
 * it missing (a name the table does not declare is missing on every GPU). */
static double inst_cost(ws_model_result *r, const ws_gpu *g, const char *name, ws_diag *d,
                        int *miss) {
  char key[160];
  snprintf(key, sizeof key, "inst_costs.%s", name);
  int id = ws_gpu_param_find(GPU_MODEL, key);
  if (id >= 0) return gp_cost(r, g, (ws_gp_id)id, d, miss);
  ws_model_missing_gpu(r, g, GPU_MODEL, key, d);
  (*miss)++;
  return NAN;
}

/* Cycles of a task given as operation counts: Σ count × inst_costs[op]. */
static double ops_cycles(const ws_pm_count *ops, size_t n, ws_model_result *r, const ws_gpu *g,
                         ws_diag *d, int *miss) {
  double out = 0.0;
  for (size_t i = 0; i < n; i++) {
    double cost = inst_cost(r, g, ops[i].name, d, miss);
    if (!isnan(cost)) out += ops[i].count * cost;
  }
  return out;
}

/* A task of the hand-written luo_suda section (typed at load). */
static void task_from_section(ls_task *t, const ws_pl_task *in, ws_model_result *r,
                              const ws_gpu *g, ws_diag *d, int *miss) {
  t->c = in->has_ops ? ops_cycles(in->ops, in->nops, r, g, d, miss) : in->comp_cycles;
  t->m = in->mem_cycles;
  if (!isnan(in->mem_insts)) {
    double ld_st = gp_cost(r, g, WS_GP_LUO_SUDA_LD_ST, d, miss);
    if (!isnan(ld_st)) t->m = in->mem_insts * ld_st;
  }
  t->repeat = in->repeat;
}

/* T_i of a period with computation c, memory m, after a period with
 * (pc, pm); `first` when there is no previous period.  Adds to `s`. */
static double period(const ls_params *k, double pc, double pm, int first,
                     double c, double m, ls_sums *s, double times) {
  double n = k->n_act;
  double base = ceil(n * c / k->cpd);                      /* (6) */
  int prev_long = !first && pc < pm;
  int cur_long = c < m;
  double tp = 0.0, tc = 0.0;
  if (prev_long)                                           /* (10), (12) */
    tp = fmax(pm * floor(n / k->mpd - 1.0) - (n - 1.0) * c, 0.0);
  if (cur_long && !prev_long)                              /* (8), n = N_act */
    tc = fmax(m - (n - 1.0) * c, 0.0);
  else if (cur_long)                                       /* (13) */
    tc = fmax(m - ((n - 1.0) * c + tp), 0.0);
  int type = prev_long ? (cur_long ? 4 : 3) : (cur_long ? 2 : 1);
  double t = base + tp + tc;                               /* (6), (7), (9), (11) */
  s->t[type - 1] += t * times;
  s->count[type - 1] += times;
  s->base += base * times;
  s->wait += (tp + tc) * times;
  return t * times;
}

/* Luo & Suda's Table 1 operations, in the order of the keys' sums. */
enum { LS_ADD, LS_SUB, LS_MUL, LS_DIV, LS_NEG, LS_MIN, LS_MAX, LS_AND, LS_OR, LS_XOR, LS_NOT,
       LS_NOPS, LS_KEYS = LS_NOPS * 4 };

/* The Table 1 operations one instruction of the mix stands for
 * (docs/models/luo-suda.md): listed opcodes as themselves, mad/fma as
 * mul + add, other logic as and, compares and selects as sub, rem and SFU
 * operations as div, abs as neg, anything else as add. */
static int ls_ops_of(unsigned op, int out[2]) {
  out[1] = -1;
  switch (op) {
  case WS_MIX_OP_ADD: out[0] = LS_ADD; break;
  case WS_MIX_OP_SUB: out[0] = LS_SUB; break;
  case WS_MIX_OP_MUL: case WS_MIX_OP_MUL24: out[0] = LS_MUL; break;
  case WS_MIX_OP_MAD: case WS_MIX_OP_MAD24: case WS_MIX_OP_FMA: out[0] = LS_MUL, out[1] = LS_ADD; break;
  case WS_MIX_OP_DIV: case WS_MIX_OP_REM: case WS_MIX_OP_SFU: out[0] = LS_DIV; break;
  case WS_MIX_OP_NEG: case WS_MIX_OP_ABS: out[0] = LS_NEG; break;
  case WS_MIX_OP_MIN: out[0] = LS_MIN; break;
  case WS_MIX_OP_MAX: out[0] = LS_MAX; break;
  case WS_MIX_OP_AND: case WS_MIX_OP_LOGIC: out[0] = LS_AND; break;
  case WS_MIX_OP_OR: out[0] = LS_OR; break;
  case WS_MIX_OP_XOR: out[0] = LS_XOR; break;
  case WS_MIX_OP_NOT: case WS_MIX_OP_CNOT: out[0] = LS_NOT; break;
  case WS_MIX_OP_COMPARE: out[0] = LS_SUB; break;
  default: out[0] = LS_ADD; break;
  }
  return out[1] >= 0 ? 2 : 1;
}

/* A task from a period of the profile's representative warp: c_i is
 * sum over Table 1 keys (in key order) of count x inst_costs[key], m_i is
 * the memory instructions x inst_costs.ld_st. */
static void task_from_period(ls_task *t, const ws_mix_period *pe, ws_model_result *r,
                             const ws_gpu *g, ws_diag *d, int *miss) {
  double n[LS_KEYS] = {0};
  for (size_t i = 0; i < pe->nops; i++) {
    int o[2], no = ls_ops_of(ws_mix_key_op(pe->ops[i].key), o);
    int cell = ws_mix_key_float(pe->ops[i].key) * 2 + (ws_mix_key_imm(pe->ops[i].key) ? 0 : 1);
    for (int j = 0; j < no; j++) n[o[j] * 4 + cell] += pe->ops[i].n;
  }
  /* gpu_params.def lists Table 1's cells in this key order (op, then
   * int_const, int_reg, float_const, float_reg). */
  _Static_assert(WS_GP_LUO_SUDA_NOT_FLOAT_REG - WS_GP_LUO_SUDA_ADD_INT_CONST == LS_KEYS - 1,
                 "gpu_params.def: Luo & Suda's Table 1 cells in key order");
  t->c = 0.0;
  for (int k = 0; k < LS_KEYS; k++) {
    if (!(n[k] > 0)) continue;
    double cost = gp_cost(r, g, (ws_gp_id)(WS_GP_LUO_SUDA_ADD_INT_CONST + k), d, miss);
    if (!isnan(cost)) t->c += n[k] * cost;
  }
  t->m = 0.0;
  if (pe->mem_insts > 0) {
    double ld_st = gp_cost(r, g, WS_GP_LUO_SUDA_LD_ST, d, miss);
    if (!isnan(ld_st)) t->m = pe->mem_insts * ld_st;
  }
  t->repeat = pe->repeat;
}

/* The tasks: the profile's hand-written luo_suda section when it has one
 * (docs/profile.md), else its representative warp's periods. */
static int read_tasks(ls_task **out, int *ntasks, const ws_profile *p, ws_model_result *r,
                      const ws_gpu *g, ws_diag *d, int *miss) {
  const ws_profile_luo_suda *l = p->luo_suda;
  size_t n = l ? l->ntasks : p->mix.nperiods;
  *ntasks = 0;
  *out = calloc(n ? n : 1, sizeof **out);
  if (!*out) return WS_ENOMEM;
  for (size_t i = 0; i < n; i++) {
    if (l) task_from_section(&(*out)[i], &l->tasks[i], r, g, d, miss);
    else task_from_period(&(*out)[i], &p->mix.periods[i], r, g, d, miss);
  }
  *ntasks = (int)n;
  return WS_OK;
}

int ws_model_luo_suda(ws_model_result *out, const ws_profile *p,
                      const ws_gpu *g, ws_diag *d) {
  char origin[160];
  profile_origin(origin, sizeof origin, p);
  const ws_profile_luo_suda *sec = p->luo_suda;
  int rc;
  if (sec ? !sec->tasks : !p->mix.nperiods) {
    /* Name the GPU's missing keys too, not only the profile's. */
    ws_model_missing(out, SECTION ".tasks", d);
    static const ws_gp_id keys[] = {WS_GP_LUO_SUDA_A, WS_GP_LUO_SUDA_B, WS_GP_LUO_SUDA_C,
                                    WS_GP_LUO_SUDA_D, WS_GP_LUO_SUDA_T_MEM};
    for (size_t j = 0; j < sizeof keys / sizeof keys[0]; j++)
      if (!isfinite(ws_gpu_p(g, keys[j])))
        ws_model_missing_gp(out, g, keys[j], d);
    return WS_EMISSING;
  }

  int miss = 0, ntasks = 0, i;
  ls_task *tasks = NULL;
  rc = read_tasks(&tasks, &ntasks, p, out, g, d, &miss);
  if (rc != WS_OK) goto done;

  /* GPU parameters (a, b, c from (3); d from (5); m from (4); t_mem from (1)). */
  double pa = ws_model_gpu_param(out, g, WS_GP_LUO_SUDA_A, &miss, d);
  double pb = ws_model_gpu_param(out, g, WS_GP_LUO_SUDA_B, &miss, d);
  double pcc = ws_model_gpu_param(out, g, WS_GP_LUO_SUDA_C, &miss, d);
  double pd = ws_model_gpu_param(out, g, WS_GP_LUO_SUDA_D, &miss, d);
  double pm = ws_gpu_p(g, WS_GP_LUO_SUDA_M), t_mem = 0;
  if (!isfinite(pm) && g->limits.max_warps_per_sm > 0)
    pm = g->limits.max_warps_per_sm; /* "the maximum warp number" */
  else if (!isfinite(pm))
    ws_model_gpu_param(out, g, WS_GP_LUO_SUDA_M, &miss, d);

  /* Memory-access inputs of (1): needed only when some task touches memory. */
  double any_mem = 0, sum_c = 0, sum_all = 0;
  for (i = 0; i < ntasks; i++) {
    any_mem += tasks[i].m;
    sum_c += tasks[i].repeat * tasks[i].c;
    sum_all += tasks[i].repeat * (tasks[i].c + tasks[i].m);
  }
  double d_mem = NAN, n_trans = NAN;
  if (any_mem > 0) {
    t_mem = ws_model_gpu_param(out, g, WS_GP_LUO_SUDA_T_MEM, &miss, d);
    if (sec) d_mem = sec->bytes_per_thread, n_trans = sec->transactions;
    if (isnan(d_mem) && ws_pf_has(p->f.load_bytes_per_warp))
      d_mem = p->f.load_bytes_per_warp / g->warp_size;
    if (isnan(n_trans) && ws_pf_has(p->f.avg_trans_warp)) n_trans = p->f.avg_trans_warp;
    if (isnan(d_mem)) {
      ws_model_missing(out, SECTION ".mem.bytes_per_thread", d);
      miss++;
    }
    if (isnan(n_trans)) {
      ws_model_missing(out, SECTION ".mem.transactions", d);
      miss++;
    }
  }
  if (miss) {
    rc = WS_EMISSING;
    goto done;
  }
  if (!(sum_all > 0)) {
    rc = ws_json_error(d, origin, SECTION, "tasks", "every task has zero cycles");
    goto done;
  }
  if (!(pm > 1)) {
    rc = ws_diag_add(d, WS_SEV_ERROR, NULL, 0, 0,
                     "luo-suda: GPU '%s': models.luo-suda.m must be greater than 1", g->name);
    goto done;
  }

  double prop = sum_c / sum_all;  /* computation proportion P */
  if (sec && !isnan(sec->computation_proportion)) prop = sec->computation_proportion;

  ws_model_launch_ctx ctx;
  rc = ws_model_launch_ctx_compute(&ctx, p, g, d);
  if (rc != WS_OK) goto done;
  double n_act = ctx.active_warps_per_sm;

  /* MPD (1)-(2); bandwidths in bytes per SM cycle. */
  double warp_bwt = NAN, gpu_bwt = g->mem_bandwidth_gbs / g->clock_ghz, mpd_raw = NAN, mpd = 1;
  if (any_mem > 0) {
    warp_bwt = (g->warp_size * d_mem) / (n_trans * t_mem);              /* (1) */
    mpd_raw = fmin(n_act, floor(gpu_bwt / (n_act * ctx.active_sms * warp_bwt))); /* (2) */
    mpd = fmax(mpd_raw, 1.0); /* at least one warp can wait on memory */
  }

  /* CPD (3)-(5). */
  double cpd1_raw = (pcc - prop) * (n_act - pb) + pa;                   /* (3) */
  double cpd1 = fmax(cpd1_raw, 1.0);
  double n_cpd = pd * (prop - pcc) * (prop - pcc);                      /* (5) */
  double arg = (pm - 1) * (pm - 1) - (n_act - pm) * (n_act - pm);
  double cpd2 = n_cpd * sqrt(fmax(arg, 0.0)) / (pm - 1) + pa;           /* (4) */
  double cpd = fmax(fmin(cpd1, cpd2), 1.0);

  ls_params k = {n_act, cpd, mpd};
  ls_sums s;
  memset(&s, 0, sizeof s);
  double round = 0;
  for (i = 0; i < ntasks; i++) {
    const ls_task *t = &tasks[i];
    /* The first of a run follows the previous run; the rest follow themselves. */
    round += period(&k, i ? tasks[i - 1].c : 0, i ? tasks[i - 1].m : 0, i == 0,
                    t->c, t->m, &s, 1);
    if (t->repeat > 1) round += period(&k, t->c, t->m, 0, t->c, t->m, &s, t->repeat - 1);
  }
  double cycles = round * ctx.rep;
  if (!isfinite(cycles) || !isfinite(prop)) {
    rc = ws_diag_add(d, WS_SEV_ERROR, NULL, 0, 0,
                     "luo-suda: the prediction is not a finite number (%g cycles); "
                     "the luo_suda section's cycles are out of range", cycles);
    goto done;
  }

  const ws_model_term_val terms[] = {
    {WS_TERM_LUO_SUDA_P, prop, NULL},
    {WS_TERM_LUO_SUDA_N_ACT, n_act, NULL},
    {WS_TERM_LUO_SUDA_WARP_BWT, warp_bwt, NULL},
    {WS_TERM_LUO_SUDA_GPU_BWT, gpu_bwt, NULL},
    {WS_TERM_LUO_SUDA_MPD_RAW, mpd_raw, NULL},
    {WS_TERM_LUO_SUDA_MPD, mpd, NULL},
    {WS_TERM_LUO_SUDA_CPD1_RAW, cpd1_raw, NULL},
    {WS_TERM_LUO_SUDA_CPD1, cpd1, NULL},
    {WS_TERM_LUO_SUDA_N_CPD, n_cpd, NULL},
    {WS_TERM_LUO_SUDA_CPD2, cpd2, NULL},
    {WS_TERM_LUO_SUDA_CPD, cpd, NULL},
    {WS_TERM_LUO_SUDA_PERIODS_TYPE1, s.count[0], NULL},
    {WS_TERM_LUO_SUDA_T_TYPE1, s.t[0], NULL},
    {WS_TERM_LUO_SUDA_PERIODS_TYPE2, s.count[1], NULL},
    {WS_TERM_LUO_SUDA_T_TYPE2, s.t[1], NULL},
    {WS_TERM_LUO_SUDA_PERIODS_TYPE3, s.count[2], NULL},
    {WS_TERM_LUO_SUDA_T_TYPE3, s.t[2], NULL},
    {WS_TERM_LUO_SUDA_PERIODS_TYPE4, s.count[3], NULL},
    {WS_TERM_LUO_SUDA_T_TYPE4, s.t[3], NULL},
    {WS_TERM_LUO_SUDA_T_COMP, s.base, NULL},
    {WS_TERM_LUO_SUDA_T_WAIT, s.wait, NULL},
    {WS_TERM_LUO_SUDA_T_ROUND, round, NULL},
    {WS_TERM_LUO_SUDA_REP, ctx.rep, NULL},
    {WS_TERM_LUO_SUDA_T_TOTAL, cycles, NULL},
  };
  rc = ws_model_terms_add(out, terms, sizeof terms / sizeof terms[0]);
  if (rc != WS_OK) goto done;
  char label[128];
  snprintf(label, sizeof label, "CPD = %s (%.3g), MPD = %.3g",
           cpd1 <= cpd2 ? "CPD1" : "CPD2", cpd, mpd);
  rc = ws_model_set_case(out,
                         s.base >= s.wait ? WS_BOUND_LUO_SUDA_COMPUTE
                                          : WS_BOUND_LUO_SUDA_MEMORY,
                         label);
  if (rc != WS_OK) goto done;
  out->cycles = cycles;
  out->time_ms = cycles / (g->clock_ghz * 1e6);
  rc = WS_OK;
done:
  free(tasks);
  return rc;
}
