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
#include <cjson/cJSON.h>
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

/* The GPU's models.luo-suda.inst_costs entry for `key` ("add.int_reg",
 * "ld_st"): a flat key first, then the same key read as a dotted path. */
static int inst_cost(double *out, const ws_gpu *g, const char *key) {
  const cJSON *m = g->models ? cJSON_GetObjectItemCaseSensitive(g->models, GPU_MODEL) : NULL;
  const cJSON *tab = m ? cJSON_GetObjectItemCaseSensitive(m, "inst_costs") : NULL;
  const cJSON *it = tab ? cJSON_GetObjectItemCaseSensitive(tab, key) : NULL;
  if (it && ws_json_number(it, out) && isfinite(*out) && *out >= 0) return WS_OK;
  char dotted[160];
  snprintf(dotted, sizeof dotted, "inst_costs.%s", key);
  double v = ws_gpu_param_or(g, GPU_MODEL, dotted, NAN);
  if (isfinite(v) && v >= 0) {
    *out = v;
    return WS_OK;
  }
  return WS_EMISSING;
}

/* Cycles of a task given as operation counts: Σ count × inst_costs[op]. */
static int ops_cycles(double *out, const cJSON *ops, const char *path,
                      ws_model_result *r, const ws_gpu *g, const char *origin,
                      ws_diag *d, int *miss) {
  *out = 0.0;
  const cJSON *op;
  cJSON_ArrayForEach(op, ops) {
    double count, cost;
    int rc = ws_json_get_number(ops, path, op->string, 1, WS_JSON_NONNEG, &count, origin, d);
    if (rc != WS_OK) return rc;
    if (inst_cost(&cost, g, op->string) != WS_OK) {
      char key[160];
      snprintf(key, sizeof key, "inst_costs.%s", op->string);
      ws_model_missing_gpu(r, g, GPU_MODEL, key, d);
      (*miss)++;
      continue;
    }
    *out += count * cost;
  }
  return WS_OK;
}

/* One entry of luo_suda.tasks. */
static int read_task(ls_task *t, const cJSON *it, const char *path,
                     ws_model_result *r, const ws_gpu *g, const char *origin,
                     ws_diag *d, int *miss) {
  if (!cJSON_IsObject(it)) return ws_json_error(d, origin, path, NULL, "expected an object");
  int rc;
  const cJSON *ops = NULL;
  rc = ws_json_get_object(it, path, "ops", 0, &ops, origin, d);
  if (rc == WS_EINVAL) return rc;
  rc = ws_json_get_number(it, path, "comp_cycles", !ops, WS_JSON_NONNEG, &t->c, origin, d);
  if (rc == WS_EINVAL) return rc;
  if (ops) {
    if (rc == WS_OK)
      return ws_json_error(d, origin, path, NULL, "give either comp_cycles or ops, not both");
    char opath[128];
    snprintf(opath, sizeof opath, "%s.ops", path);
    rc = ops_cycles(&t->c, ops, opath, r, g, origin, d, miss);
    if (rc != WS_OK) return rc;
  }
  double mem_insts = NAN;
  rc = ws_json_get_number(it, path, "mem_insts", 0, WS_JSON_NONNEG, &mem_insts, origin, d);
  if (rc == WS_EINVAL) return rc;
  int has_mi = rc == WS_OK;
  t->m = 0.0;
  rc = ws_json_get_number(it, path, "mem_cycles", 0, WS_JSON_NONNEG, &t->m, origin, d);
  if (rc == WS_EINVAL) return rc;
  if (has_mi) {
    if (rc == WS_OK)
      return ws_json_error(d, origin, path, NULL, "give either mem_cycles or mem_insts, not both");
    double ld_st;
    if (inst_cost(&ld_st, g, "ld_st") != WS_OK) {
      ws_model_missing_gpu(r, g, GPU_MODEL, "inst_costs.ld_st", d);
      (*miss)++;
    } else {
      t->m = mem_insts * ld_st;
    }
  }
  t->repeat = 1;
  rc = ws_json_get_number(it, path, "repeat", 0, WS_JSON_UINT, &t->repeat, origin, d);
  if (rc == WS_EINVAL) return rc;
  if (t->repeat < 1)
    return ws_json_error(d, origin, path, "repeat", "expected an integer >= 1, got %g", t->repeat);
  return WS_OK;
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

int ws_model_luo_suda(ws_model_result *out, const ws_profile *p,
                      const ws_gpu *g, ws_diag *d) {
  char origin[160];
  profile_origin(origin, sizeof origin, p);
  const cJSON *sec = NULL;
  int rc = ws_json_get_object(p->root, "", SECTION, 0, &sec, origin, d);
  if (rc == WS_EINVAL) return rc;
  const cJSON *list = sec ? cJSON_GetObjectItemCaseSensitive(sec, "tasks") : NULL;
  if (!list) {
    /* Name the GPU's missing keys too, not only the profile's. */
    ws_model_missing(out, SECTION ".tasks", d);
    static const char *const keys[] = {"a", "b", "c", "d", "t_mem"};
    for (size_t j = 0; j < sizeof keys / sizeof keys[0]; j++)
      if (!isfinite(ws_gpu_param_or(g, GPU_MODEL, keys[j], NAN)))
        ws_model_missing_gpu(out, g, GPU_MODEL, keys[j], d);
    return WS_EMISSING;
  }
  if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) == 0)
    return ws_json_error(d, origin, SECTION, "tasks", "expected a non-empty array of tasks");

  int miss = 0, ntasks = cJSON_GetArraySize(list);
  ls_task *tasks = calloc((size_t)ntasks, sizeof *tasks);
  if (!tasks) return WS_ENOMEM;
  int i = 0;
  const cJSON *it;
  cJSON_ArrayForEach(it, list) {
    char path[64];
    snprintf(path, sizeof path, SECTION ".tasks[%d]", i);
    rc = read_task(&tasks[i++], it, path, out, g, origin, d, &miss);
    if (rc != WS_OK) goto done;
  }

  /* GPU parameters (a, b, c from (3); d from (5); m from (4); t_mem from (1)). */
  double pa = 0, pb = 0, pcc = 0, pd = 0, pm = 0, t_mem = 0;
  struct { const char *key; double *v; } gp[] = {
    {"a", &pa}, {"b", &pb}, {"c", &pcc}, {"d", &pd}, {"m", &pm},
  };
  for (size_t j = 0; j < sizeof gp / sizeof gp[0]; j++) {
    *gp[j].v = ws_gpu_param_or(g, GPU_MODEL, gp[j].key, NAN);
    if (!isfinite(*gp[j].v)) {
      if (gp[j].v == &pm && g->limits.max_warps_per_sm > 0) {
        pm = g->limits.max_warps_per_sm; /* "the maximum warp number" */
        continue;
      }
      ws_model_missing_gpu(out, g, GPU_MODEL, gp[j].key, d);
      miss++;
    }
  }

  /* Memory-access inputs of (1): needed only when some task touches memory. */
  double any_mem = 0, sum_c = 0, sum_all = 0;
  for (i = 0; i < ntasks; i++) {
    any_mem += tasks[i].m;
    sum_c += tasks[i].repeat * tasks[i].c;
    sum_all += tasks[i].repeat * (tasks[i].c + tasks[i].m);
  }
  double d_mem = NAN, n_trans = NAN;
  if (any_mem > 0) {
    t_mem = ws_gpu_param_or(g, GPU_MODEL, "t_mem", NAN);
    if (!isfinite(t_mem)) {
      ws_model_missing_gpu(out, g, GPU_MODEL, "t_mem", d);
      miss++;
    }
    const cJSON *mem = NULL;
    rc = ws_json_get_object(sec, SECTION, "mem", 0, &mem, origin, d);
    if (rc == WS_EINVAL) goto done;
    rc = ws_json_get_number(mem, SECTION ".mem", "bytes_per_thread", 0,
                            WS_JSON_POSITIVE, &d_mem, origin, d);
    if (rc == WS_EINVAL) goto done;
    rc = ws_json_get_number(mem, SECTION ".mem", "transactions", 0,
                            WS_JSON_POSITIVE, &n_trans, origin, d);
    if (rc == WS_EINVAL) goto done;
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
  rc = ws_json_get_number(sec, SECTION, "computation_proportion", 0, WS_JSON_RATIO,
                          &prop, origin, d);
  if (rc == WS_EINVAL) goto done;

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

  const ws_model_term_def terms[] = {
    {"p", prop, "3.4", ""},
    {"n_act", n_act, "(2)", "warps"},
    {"warp_bwt", warp_bwt, "(1)", "bytes/cycle"},
    {"gpu_bwt", gpu_bwt, "(2)", "bytes/cycle"},
    {"mpd_raw", mpd_raw, "(2)", "warps"},
    {"mpd", mpd, "(2)", "warps"},
    {"cpd1_raw", cpd1_raw, "(3)", "warps"},
    {"cpd1", cpd1, "(3)", "warps"},
    {"n_cpd", n_cpd, "(5)", ""},
    {"cpd2", cpd2, "(4)", "warps"},
    {"cpd", cpd, "3.4", "warps"},
    {"periods_type1", s.count[0], "(6)", "periods"},
    {"t_type1", s.t[0], "(6)", "cycles"},
    {"periods_type2", s.count[1], "(7)", "periods"},
    {"t_type2", s.t[1], "(7)", "cycles"},
    {"periods_type3", s.count[2], "(9)", "periods"},
    {"t_type3", s.t[2], "(9)", "cycles"},
    {"periods_type4", s.count[3], "(11)", "periods"},
    {"t_type4", s.t[3], "(11)", "cycles"},
    {"t_comp", s.base, "(6)", "cycles"},
    {"t_wait", s.wait, "(8), (10)", "cycles"},
    {"t_round", round, "3.5", "cycles"},
    {"rep", ctx.rep, "", "rounds"},
    {"t_total", cycles, "3.5", "cycles"},
  };
  rc = ws_model_terms_add(out, terms, sizeof terms / sizeof terms[0]);
  if (rc != WS_OK) goto done;
  char label[128];
  snprintf(label, sizeof label, "CPD = %s (%.3g), MPD = %.3g",
           cpd1 <= cpd2 ? "CPD1" : "CPD2", cpd, mpd);
  rc = ws_model_set_labels(out, label,
                           s.base >= s.wait ? "computation (CPD)"
                                            : "memory waiting (MPD)");
  if (rc != WS_OK) goto done;
  out->cycles = cycles;
  out->time_ms = cycles / (g->clock_ghz * 1e6);
  rc = WS_OK;
done:
  free(tasks);
  return rc;
}
