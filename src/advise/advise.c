/*
 * advise.c — the performance advisor (warpsight/advise.h, docs/advisor.md).
 *
 * One source of truth: the ranked list is the primary model's changes
 * (counterfactual.c), ordered by the saving that model predicts; every
 * other model's prediction for the same change says whether it agrees.
 * The seed models' own metrics (GPUPerf's potential benefits, Sim et al.
 * PPoPP'12 Section 3; the bounds and cases of Transit, Roofline, Hong &
 * Kim, Kothapalli et al., Luo & Suda) follow as each model's view, and a
 * view that contradicts the primary says so once.
 */
#include "warpsight/advise.h"

#include <cjson/cJSON.h>

#include "util/strbuf.h"
#include "util/vec.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  ws_strbuf b = WS_STRBUF_INIT;
  ws_sb_vprintf(&b, f, ap);
  va_end(ap);
  return ws_sb_take(&b);
}

/* A result worth reading: a model that ran and predicted a time. */
static int usable(const ws_model_result *r) {
  return r && r->model && r->cycles > 0 && isfinite(r->cycles);
}

static int is_model(const ws_model_result *r, const char *name) {
  return usable(r) && strcmp(r->model, name) == 0;
}

static void item_free(ws_advice_item *it) {
  free(it->topic);
  free(it->finding);
  free(it->action);
  free(it->agree);
  free(it->no_gain);
  free(it->blind);
  free(it->flag);
  free(it->where);
}

/* Append *it (its strings owned by the advice from now on, also on failure);
 * names its line from p's table. */
static int push_at(ws_advice *a, ws_advice_item *it, const ws_profile *p) {
  if (it->line >= 0 && p && p->lines && (size_t)it->line < p->lines->nrows) {
    char name[512];
    if (!(it->where = ws_strdup(ws_advise_line_name(name, sizeof name, p->lines, &p->lines->rows[it->line])))) {
      item_free(it);
      return WS_ENOMEM;
    }
  }
  if (!it->topic || !it->finding || !it->action || WS_VEC_PUSH(a->items, a->count, a->cap, *it)) {
    item_free(it);
    return WS_ENOMEM;
  }
  return WS_OK;
}

static int push(ws_advice *a, ws_advice_item *it) { return push_at(a, it, NULL); }

static ws_advice_item item(ws_advice_kind kind, const char *model, char *topic, char *finding,
                           char *action) {
  ws_advice_item it = {kind, model, topic, -1, NAN, NAN, NAN, finding, action, NULL, NULL, NULL,
                       NULL, 0, -1, NULL};
  return it;
}

/* --- what limits: classes for comparing models ----------------------------- */

/* What a bottleneck is about, coarsely, so that two models' bounds can be
 * compared (docs/advisor.md, "Views"). */
typedef enum lclass {
  LC_NONE,      /* says nothing comparable */
  LC_COMPUTE,   /* the SM's pipes */
  LC_BANDWIDTH, /* DRAM or L2 bandwidth */
  LC_LATENCY,   /* latency not hidden: too few warps, dependencies */
  LC_ATOMIC,    /* conflicting atomics */
  LC_MEMORY     /* "memory" without saying which (bandwidth, latency or atomics) */
} lclass;

static lclass bound_class(ws_model_bound b) {
  switch (b) {
  case WS_BOUND_WARPSIGHT_SM: case WS_BOUND_HONG_KIM_COMPUTE_ONLY: case WS_BOUND_HONG_KIM_COMPUTE:
  case WS_BOUND_GPUPERF_COMPUTE: case WS_BOUND_KOTHAPALLI_COMPUTE: case WS_BOUND_LUO_SUDA_COMPUTE:
  case WS_BOUND_TRANSIT_COMPUTATION: case WS_BOUND_ROOFLINE_COMPUTE:
    return LC_COMPUTE;
  case WS_BOUND_WARPSIGHT_L2: case WS_BOUND_WARPSIGHT_DRAM: case WS_BOUND_HONG_KIM_MEMORY_PEAK_BW:
  case WS_BOUND_TRANSIT_MEMORY: case WS_BOUND_ROOFLINE_MEMORY:
    return LC_BANDWIDTH;
  case WS_BOUND_WARPSIGHT_LATENCY: case WS_BOUND_HONG_KIM_PARALLELISM: case WS_BOUND_HONG_KIM_MEMORY_WARPS:
  case WS_BOUND_HONG_KIM_MEMORY_DEPARTURE: case WS_BOUND_TRANSIT_THREAD:
    return LC_LATENCY;
  case WS_BOUND_WARPSIGHT_ATOMIC: return LC_ATOMIC;
  case WS_BOUND_GPUPERF_MEMORY: case WS_BOUND_KOTHAPALLI_MEMORY: case WS_BOUND_LUO_SUDA_MEMORY:
    return LC_MEMORY;
  default: return LC_NONE;
  }
}

/* Do a view's class and the primary's say the same thing? "Memory" agrees
 * with any memory limiter; a class that says nothing agrees with all. */
static int compatible(lclass view, lclass primary) {
  if (view == LC_NONE || primary == LC_NONE || view == primary) return 1;
  if (view == LC_MEMORY) return primary != LC_COMPUTE;
  if (primary == LC_MEMORY) return view != LC_COMPUTE;
  return 0;
}

/* --- the primary's bottleneck ---------------------------------------------- */

/* warpsight: the limiter of its bound, for the SM the slowest pipe, and
 * the limiting term's share of the overlapped time. */
static char *warpsight_bottleneck(const ws_model_result *r) {
  static const ws_term_id times[] = {WS_TERM_WARPSIGHT_T_SM, WS_TERM_WARPSIGHT_T_L2,
                                     WS_TERM_WARPSIGHT_T_DRAM, WS_TERM_WARPSIGHT_T_ATOMIC,
                                     WS_TERM_WARPSIGHT_T_LATENCY};
  static const ws_model_bound bounds[] = {WS_BOUND_WARPSIGHT_SM, WS_BOUND_WARPSIGHT_L2,
                                          WS_BOUND_WARPSIGHT_DRAM, WS_BOUND_WARPSIGHT_ATOMIC,
                                          WS_BOUND_WARPSIGHT_LATENCY};
  double term = NAN, all = ws_model_term_value(r, WS_TERM_WARPSIGHT_T_OVERLAPPED);
  for (size_t i = 0; i < 5; i++)
    if (r->bound == bounds[i]) term = ws_model_term_value(r, times[i]);
  const char *what = ws_model_limiter(r);
  if (r->bound == WS_BOUND_WARPSIGHT_SM) {
    static const char *const pipe[] = {"SM throughput: instruction issue", "SM throughput: the SFU pipe",
                                       "SM throughput: the FP64 pipe",
                                       "SM throughput: the load/store units"};
    ws_line_metric m = ws_advise_line_metric(r);
    what = pipe[m == WS_LM_SFU ? 1 : m == WS_LM_FP64 ? 2 : m == WS_LM_LSU ? 3 : 0];
  }
  if (isfinite(term) && all > 0)
    return fmt("%s, %.0f %% of the overlapped time (%s)", what, 100 * term / all, r->model);
  return fmt("%s (%s)", r->case_label ? r->case_label : what, r->model);
}

/* --- lines ------------------------------------------------------------------ */

/* The heaviest line of p under m: its row (-1 when none) and a name for it
 * in buf ("" when none). */
static long top_line(char *buf, size_t size, const ws_profile *p, ws_line_metric m, double lat) {
  buf[0] = 0;
  if (!p || !p->lines || !p->lines->nrows) return -1;
  long best = -1;
  double most = 0;
  for (size_t i = 0; i < p->lines->nrows; i++) {
    double w = ws_advise_line_weight(&p->lines->rows[i], m, lat);
    if (w > most) most = w, best = (long)i;
  }
  if (best >= 0) ws_advise_line_name(buf, size, p->lines, &p->lines->rows[best]);
  return best;
}

/* "the store at " / "the load at " / ... for row r: what to change there. */
static const char *access_word(const ws_profile_line *r) {
  if (!r) return "";
  if (r->kinds & WS_LINE_ATOMIC) return "the atomic at ";
  if ((r->kinds & (WS_LINE_LOAD | WS_LINE_STORE)) == WS_LINE_STORE) return "the store at ";
  if ((r->kinds & (WS_LINE_LOAD | WS_LINE_STORE)) == WS_LINE_LOAD) return "the load at ";
  return "the accesses at ";
}

/* "in LINE" or "" when no line is known. */
static const char *in_line(char *buf, size_t size, const char *name) {
  if (*name) snprintf(buf, size, " in %s", name);
  else buf[0] = 0;
  return buf;
}

/* Whether advice about row `row` of the line table (-1: none named) may
 * say to unroll (docs/advisor.md, "Unrolling"): only when the kernel has a
 * loop, i.e. the profile's "loops" section (docs/profile.md: the natural
 * loops, each a CFG back edge's body) lists one; and for a table of PTX
 * lines, whose rows are single instructions, only a row that ran more than
 * once per warp, which outside a loop none does.  Straight-line code (five
 * independent loads interleaved with adds) was told to unroll the line that
 * computes its index.  A profile without the section (written by hand) is
 * not known to loop: no unrolling either. */
static int may_unroll(const ws_profile *p, long row) {
  char *s = p ? ws_profile_section_json(p, "loops") : NULL;
  cJSON *j = s ? cJSON_Parse(s) : NULL;
  const cJSON *l = cJSON_GetObjectItemCaseSensitive(j, "loops");
  int n = cJSON_IsArray(l) ? cJSON_GetArraySize(l) : 0;
  cJSON_Delete(j);
  free(s);
  if (n > 0 && row >= 0 && p->lines && (size_t)row < p->lines->nrows) {
    const ws_profile_line *r = &p->lines->rows[row];
    /* its loop's body already holds the iterations unrolling would give,
     * or the loop runs once per entry: nothing to unroll */
    if (round(r->loop_loads_per_trip) >= WS_ADVICE_MLP_FACTOR) return 0;
    if (r->loop_trips_per_entry > 0 && r->loop_trips_per_entry < 2) return 0;
    /* in a loop when the profile's loop figures say so (a row of them
     * above 0); a profile without them (written before them or by hand):
     * a PTX row, one instruction, when it ran more than once per warp, a
     * source row whenever the kernel has a loop */
    int figures = 0;
    for (size_t i = 0; i < p->lines->nrows && !figures; i++)
      figures = p->lines->rows[i].loop_trips_per_entry > 0;
    if (figures) return r->loop_trips_per_entry > 0;
    if (p->lines->ptx_lines) return r->warp_insts > 1;
  }
  return n > 0;
}

/* "; its loop already issues 4 loads per iteration" for row `row` when its
 * loop issues more than one load per trip (an unrolled body, or several
 * arrays read), else "". */
static const char *loop_note(char *buf, size_t size, const ws_profile *p, long row) {
  buf[0] = 0;
  if (row >= 0 && p->lines && (size_t)row < p->lines->nrows &&
      p->lines->rows[row].loop_loads_per_trip > 1)
    snprintf(buf, size, "; its loop already issues %.3g loads per iteration",
             p->lines->rows[row].loop_loads_per_trip);
  return buf;
}

/* The load latency warpsight prices a path load at (its [L1] term), else a
 * nominal 400 cycles. */
static double load_latency(const ws_model_result *r) {
  double v = r ? ws_model_term_value(r, WS_TERM_WARPSIGHT_LOAD_LATENCY) : NAN;
  return isfinite(v) && v > 0 ? v : 400;
}

/* --- the changes ------------------------------------------------------------ */

/* The action of change k, in words, naming its line (row into *line). */
static char *change_action(long *line, ws_cf_kind k, const ws_profile *p, const ws_gpu *g,
                           const ws_advise_in *in) {
  char name[512], il[600];
  const ws_profile_lines *l = p->lines;
  *line = -1;
  switch (k) {
  case WS_CF_COALESCING: {
    *line = top_line(name, sizeof name, p, WS_LM_EXCESS, 0);
    const ws_profile_line *r = *line >= 0 ? &l->rows[*line] : NULL;
    if (!r || !(r->global_requests > 0))
      return fmt("make consecutive threads access consecutive addresses (%.3g transactions per "
                 "request now)", p->f.avg_trans_warp);
    return fmt("make consecutive threads access consecutive addresses in %s%s: %.3g transactions "
               "per request where %.3g would do",
               access_word(r), name, r->sectors / r->global_requests,
               r->sectors_needed / r->global_requests);
  }
  case WS_CF_BANK_CONFLICTS: {
    *line = top_line(name, sizeof name, p, WS_LM_REPLAYS, 0);
    const ws_profile_line *r = *line >= 0 ? &l->rows[*line] : NULL;
    double way = r && r->shared_requests > 0 ? 1 + r->bank_conflict_replays / r->shared_requests : NAN;
    char deg[64] = "";
    if (isfinite(way)) snprintf(deg, sizeof deg, " (%.3g-way conflicts now)", way);
    return fmt("pad the shared array or change its index so that a warp's lanes use distinct "
               "banks%s%s", in_line(il, sizeof il, name), deg);
  }
  case WS_CF_DIVERGENCE:
    *line = top_line(name, sizeof name, p, WS_LM_DIVERGENT, 0);
    return fmt("make the branch%s go the same way for all 32 lanes of a warp (assign work per warp, "
               "sort or regroup the data, or compute both sides without branching)",
               in_line(il, sizeof il, name));
  case WS_CF_BARRIERS:
    *line = top_line(name, sizeof name, p, WS_LM_BARRIER, 0);
    return fmt("remove the barrier%s where a warp's own data suffices (warp shuffles instead of "
               "shared memory, fewer phases per block)", in_line(il, sizeof il, name));
  case WS_CF_ILP: {
    char note[96];
    *line = top_line(name, sizeof name, p, WS_LM_PATH_CYC, 0);
    return fmt("break the dependency chain through %s: independent accumulators, %sreordering (the "
               "limit: no dependency stalls at all%s)",
               *name ? name : "the kernel's longest path", may_unroll(p, *line) ? "unrolling, " : "",
               loop_note(note, sizeof note, p, *line));
  }
  case WS_CF_MLP: {
    *line = top_line(name, sizeof name, p, WS_LM_PATH_MEM, 0);
    const ws_profile_line *r = *line >= 0 ? &l->rows[*line] : NULL;
    if (!may_unroll(p, *line))
      return fmt("issue the loads of %s %.0f at a time before their values are needed (move them "
                 "ahead of the arithmetic that waits on them)",
                 *name ? name : "the kernel", WS_ADVICE_MLP_FACTOR);
    double per = r ? r->loop_loads_per_trip : 0, u = r ? ws_advise_mlp_unroll(r) : WS_ADVICE_MLP_FACTOR;
    if (per > 1)
      return fmt("issue the loads of %s %.0f at a time before their values are needed (its loop "
                 "issues %.3g loads per iteration now: unroll it by %.0f, or prefetch the next "
                 "iteration's data)",
                 *name ? name : "the loop", WS_ADVICE_MLP_FACTOR, per, u);
    return fmt("issue the loads of %s %.0f at a time before their values are needed (unroll its loop "
               "by %.0f, or prefetch the next iteration's data)",
               *name ? name : "the loop", WS_ADVICE_MLP_FACTOR, u);
  }
  case WS_CF_OCCUPANCY: {
    ws_model_launch_ctx lc;
    ws_diag d = WS_DIAG_INIT;
    ws_profile q = *p;
    int ok = ws_model_launch_ctx_compute(&lc, p, g, &d) == WS_OK &&
             ws_advise_cf_apply_launch(&q, g, WS_CF_OCCUPANCY, &d) == 1;
    ws_diag_free(&d);
    if (!ok) return fmt("raise the resident blocks per SM");
    const char *src = lc.occupancy_source ? lc.occupancy_source : "";
    const char *how = strstr(src, "register") ? "fewer registers per thread (__launch_bounds__ or "
                                                "-maxrregcount)"
                      : strstr(src, "shared") ? "less shared memory per block (smaller tiles, or "
                                                "dynamic shared memory sized to the block)"
                                              : "fewer registers per thread or less shared memory "
                                                "per block";
    return fmt("raise occupancy from %.0f to %.0f blocks per SM (%s): %s", lc.active_blocks_per_sm,
               q.f.active_blocks_per_sm, src, how);
  }
  case WS_CF_ATOMIC_DISTINCT:
    *line = top_line(name, sizeof name, p, WS_LM_SATOMIC, 0);
    return fmt("spread the atomics%s over distinct addresses (per-thread or per-warp partial "
               "results, combined at the end)", in_line(il, sizeof il, name));
  case WS_CF_ATOMIC_WARP:
    *line = top_line(name, sizeof name, p, WS_LM_SATOMIC, 0);
    return fmt("aggregate the atomic%s within the warp first (__reduce_add_sync or __shfl_down_sync "
               "steps), then let one lane update", in_line(il, sizeof il, name));
  case WS_CF_ATOMIC_PRIVATE:
    *line = top_line(name, sizeof name, p, WS_LM_GATOMIC, 0);
    return fmt("privatise the target of the atomic%s per block in shared memory and merge it into "
               "global memory once per block", in_line(il, sizeof il, name));
  case WS_CF_LAUNCH: {
    const ws_profile *q = in->launch_alt;
    ws_model_launch_ctx a, b;
    ws_diag d = WS_DIAG_INIT;
    int ok = q && ws_model_launch_ctx_compute(&a, p, g, &d) == WS_OK &&
             ws_model_launch_ctx_compute(&b, q, g, &d) == WS_OK && g->limits.max_warps_per_sm > 0;
    ws_diag_free(&d);
    if (!ok) return fmt("launch the best block size of a sweep");
    /* Occupancy per SM can fall while the launch gains: more, smaller
     * blocks spread over SMs that sat idle.  Say so, or the numbers seem
     * to contradict the advice ("occupancy 50 % -> 2 %" as the first
     * change of a one-block launch). */
    char sms[96] = "";
    if (a.active_sms != b.active_sms)
      snprintf(sms, sizeof sms, ", %.0f -> %.0f of %d SMs busy", a.active_sms, b.active_sms, g->sms);
    return fmt("launch blocks of %llu threads instead of %llu (%llu blocks): occupancy %.0f %% -> %.0f %%%s",
               (unsigned long long)q->threads_per_block, (unsigned long long)p->threads_per_block,
               (unsigned long long)q->blocks, 100 * a.active_warps_per_sm / g->limits.max_warps_per_sm,
               100 * b.active_warps_per_sm / g->limits.max_warps_per_sm, sms);
  }
  default: return fmt("%s", ws_advise_cf_name(k));
  }
}

/* The other models' stance on change k as three lists. */
static int stance_lists(ws_advice_item *it, const ws_cf_table *t, size_t k) {
  ws_strbuf s[3] = {WS_STRBUF_INIT, WS_STRBUF_INIT, WS_STRBUF_INIT};
  for (size_t i = 0; i < t->n; i++) {
    ws_cf_stance st = t->stance[k * t->n + i];
    int j = st == WS_CF_AGREES ? 0 : st == WS_CF_NO_GAIN ? 1 : st == WS_CF_BLIND ? 2 : -1;
    if (j >= 0) ws_sb_printf(&s[j], "%s%s", s[j].n ? ", " : "", t->res[i].model);
  }
  it->agree = s[0].n ? ws_sb_take(&s[0]) : fmt("%s", "");
  it->no_gain = s[1].n ? ws_sb_take(&s[1]) : fmt("%s", "");
  it->blind = s[2].n ? ws_sb_take(&s[2]) : fmt("%s", "");
  for (int j = 0; j < 3; j++) ws_sb_free(&s[j]);
  return it->agree && it->no_gain && it->blind ? WS_OK : WS_ENOMEM;
}

/* The flag's line: how many of the other models that see k predict no gain. */
static char *flag_line(const ws_cf_table *t, size_t k) {
  int seen = 0, no = 0;
  for (size_t i = 0; i < t->n; i++) {
    ws_cf_stance st = t->stance[k * t->n + i];
    seen += st == WS_CF_AGREES || st == WS_CF_NO_GAIN;
    no += st == WS_CF_NO_GAIN;
  }
  return fmt("%d of the %d other models that see this change predict no saving of %.0f %% or more",
             no, seen, 100 * WS_ADVICE_MIN_SHARE);
}

/* What to do about the primary's bottleneck itself, naming its heaviest
 * lines: never the limiter's own words (docs/advisor.md, "The bound"). */
static char *bound_action(long *line, const ws_model_result *r, const ws_profile *p) {
  ws_line_metric m = ws_advise_line_metric(r);
  double lat = load_latency(r);
  char name[512], il[600];
  *line = top_line(name, sizeof name, p, m, lat);
  in_line(il, sizeof il, name);
  switch (m) {
  case WS_LM_SFU:
    return fmt("fewer special-function operations%s: compute a value once and reuse it, a table, "
               "or cheaper math", il);
  case WS_LM_FP64:
    return fmt("single precision where the accuracy allows%s: this GPU has few FP64 units", il);
  case WS_LM_LSU:
    return fmt("fewer memory transactions per instruction%s: wider (vector) loads, coalesced "
               "access, data kept in registers", il);
  case WS_LM_L2:
    return fmt("fewer L2 sectors%s: reuse data from shared memory or registers, and coalesce", il);
  case WS_LM_DRAM: {
    double mb = ws_profile_dram_bytes(p) / 1e6;
    return fmt("move fewer DRAM bytes (the launch moves %.3g MB): narrower types, fusing with the "
               "kernel that produces or consumes the data, reuse from on-chip memory; the most "
               "traffic is%s",
               isfinite(mb) ? mb : 0.0, *il ? il : " not known by line");
  }
  case WS_LM_ATOMIC:
    return fmt("fewer atomics on the same address%s: aggregate per warp, or privatise per block", il);
  case WS_LM_LATENCY:
    return fmt("more independent work per warp or more warps in flight%s: %s, prefetch, more "
               "blocks or threads per SM", il, may_unroll(p, *line) ? "unroll" : "reorder");
  default:
    if (!may_unroll(p, *line))
      return fmt("issue fewer instructions%s: less address arithmetic (vector loads), no redundant "
                 "work", il);
    return fmt("issue fewer instructions%s: less address and loop arithmetic (unrolling, vector "
               "loads), no redundant work", il);
  }
}

static int advise_changes(ws_advice *a, const ws_advise_in *in, const ws_model_result *prim) {
  const ws_profile *p = in->profile;
  ws_cf_table *t = &a->cf;
  int st = ws_advise_cf_table_compute(t, p, in->gpu, in->results, in->nresults, in->launch_alt);
  if (st) return st;
  double base = prim->time_ms;
  size_t first = a->count;
  for (size_t o = 0; o < WS_CF_COUNT; o++) {
    size_t k = t->order[o];
    double s = t->saving_ms[k * t->n + t->trusted];
    if (!isfinite(s) || !(s >= WS_ADVICE_MIN_SHARE * base)) continue;
    ws_advice_item it = item(WS_ADVICE_CHANGE, prim->model, fmt("%s", ws_advise_cf_name((ws_cf_kind)k)),
                             fmt("saves %.4g ms, %.0f %% of %.4g ms", s, 100 * s / base, base), NULL);
    it.action = change_action(&it.line, (ws_cf_kind)k, p, in->gpu, in);
    it.change = (int)k;
    it.saving_ms = s;
    it.share = s / base;
    it.addresses = t->addresses[k];
    if ((st = stance_lists(&it, t, k)) == WS_OK && t->disagree[k] && !(it.flag = flag_line(t, k)))
      st = WS_ENOMEM;
    if (st) {
      item_free(&it);
      return st;
    }
    if ((st = push_at(a, &it, p))) return st;
  }
  /* The bottleneck first when no change, or not the best one, reduces it. */
  if (a->count == first || !a->items[first].addresses) {
    ws_advice_item it = item(WS_ADVICE_BOUND, prim->model, fmt("%s", ws_model_limiter(prim)),
                             fmt("%s", a->bottleneck ? a->bottleneck : ws_model_limiter(prim)), NULL);
    it.action = bound_action(&it.line, prim, p);
    char *why = a->count == first
                    ? fmt("no change the advisor models saves %.0f %% or more", 100 * WS_ADVICE_MIN_SHARE)
                    : fmt("the largest saving below (%s) does not reduce it", a->items[first].topic);
    if (!why || !it.finding) {
      free(why);
      item_free(&it);
      return WS_ENOMEM;
    }
    char *f = fmt("%s; %s", it.finding, why);
    free(why);
    free(it.finding);
    it.finding = f;
    if ((st = push_at(a, &it, p))) return st;
    ws_advice_item b = a->items[a->count - 1]; /* move it to the front of the list */
    memmove(a->items + first + 1, a->items + first, (a->count - 1 - first) * sizeof *a->items);
    a->items[first] = b;
  }
  a->nchanges = a->count;
  return WS_OK;
}

/* --- the views ---------------------------------------------------------- */

/* GPUPerf's four benefits (Table 1), with the primary's changes that
 * remove the same inefficiency (for the contradiction check). */
static const struct {
  ws_term_id term;    /* the term in the gpuperf result */
  const char *topic;  /* how the paper writes it */
  const char *what;   /* what the benefit measures */
  const char *action; /* what to try (Sim et al. Sections 3 and 6) */
  int changes[4];     /* the primary's changes for it, -1 terminated */
} benefits[] = {
    {WS_TERM_GPUPERF_B_ITILP, "B_itilp", "inter-thread instruction-level parallelism",
     "more independent instructions per thread (unrolling, reordering) or more resident warps",
     {WS_CF_ILP, WS_CF_OCCUPANCY, -1}},
    {WS_TERM_GPUPERF_B_MEMLP, "B_memlp", "memory-level parallelism",
     "prefetching, more independent loads per thread, more warps in flight, or fewer DRAM "
     "transactions",
     {WS_CF_MLP, WS_CF_OCCUPANCY, WS_CF_COALESCING, -1}},
    {WS_TERM_GPUPERF_B_FP, "B_fp", "computing efficiency",
     "less address and loop arithmetic (unrolling, vector loads), cheaper math (SFU intrinsics such "
     "as rsqrt)",
     {-1}},
    {WS_TERM_GPUPERF_B_SERIAL, "B_serial", "serialization",
     "fewer barriers, less SFU contention, no shared memory bank conflicts or divergent branches",
     {WS_CF_BARRIERS, WS_CF_BANK_CONFLICTS, WS_CF_DIVERGENCE, -1}},
};

/* A benefit's contradiction: the view claims at least 10 % and the
 * primary's best change for the same inefficiency saves less than a
 * quarter of that. */
static char *benefit_contradiction(const ws_advice *a, size_t b, double share) {
  const ws_cf_table *t = &a->cf;
  if (!t->n || benefits[b].changes[0] < 0 || share < 0.10) return NULL;
  double best = 0, base = t->res[t->trusted].time_ms;
  ws_strbuf names = WS_STRBUF_INIT;
  for (int j = 0; benefits[b].changes[j] >= 0; j++) {
    int k = benefits[b].changes[j];
    double s = t->saving_ms[(size_t)k * t->n + t->trusted];
    if (isfinite(s) && base > 0) best = fmax(best, s / base);
    ws_sb_printf(&names, "%s%s", j ? ", " : "", ws_advise_cf_name((ws_cf_kind)k));
  }
  char *out = best < share / 4
                  ? fmt("contradicts %s: its changes for it (%s) save at most %.1f %%",
                        t->res[t->trusted].model, ws_sb_str(&names), 100 * best)
                  : NULL;
  ws_sb_free(&names);
  return out;
}

static int view_gpuperf(ws_advice *a, const ws_model_result *r) {
  double t_exec = ws_model_term_value(r, WS_TERM_GPUPERF_T_EXEC);
  if (!(t_exec > 0) || !isfinite(t_exec)) t_exec = r->cycles;
  int st = WS_OK;
  size_t first = a->count;
  for (size_t i = 0; i < sizeof benefits / sizeof benefits[0] && st == WS_OK; i++) {
    double b = ws_model_term_value(r, benefits[i].term);
    if (!isfinite(b) || b == 0) continue;
    double share = b / t_exec > 1 ? 1 : b / t_exec;
    if (b > 0 && share < WS_ADVICE_MIN_SHARE) continue;
    ws_advice_item it;
    if (b > 0) {
      it = item(WS_ADVICE_VIEW, r->model, fmt("%s", benefits[i].topic),
                fmt("%s = %.0f %% of T_exec (%.0f cycles): GPUPerf's potential benefit of better %s",
                    benefits[i].topic, 100 * share, b, benefits[i].what),
                fmt("%s", benefits[i].action));
      it.share = share;
      it.flag = benefit_contradiction(a, i, share);
    } else {
      /* A negative benefit is shown, not dropped (issue 13), with why. */
      const char *why = benefits[i].term == WS_TERM_GPUPERF_B_FP
                            ? "(22) subtracts B_itilp, taken at the maximum ITILP, from T_comp, while "
                              "T_fp (18) uses the current ITILP, so T_comp - B_itilp - B_serial can "
                              "fall below T_fp"
                            : "the model's ideal cost is above its current cost";
      it = item(WS_ADVICE_VIEW, r->model, fmt("%s", benefits[i].topic),
                fmt("%s = %.0f cycles, negative: no saving predicted from better %s; %s",
                    benefits[i].topic, b, benefits[i].what, why),
                fmt("%s", ""));
    }
    it.value = b;
    it.change = benefits[i].changes[0];
    st = push(a, &it);
  }
  /* positive benefits by share, largest first; negative ones after */
  for (size_t x = first + 1; x < a->count; x++)
    for (size_t y = x; y > first; y--) {
      double p = a->items[y].share, q = a->items[y - 1].share;
      if (!(isfinite(p) && (!isfinite(q) || p > q))) break;
      ws_advice_item t = a->items[y];
      a->items[y] = a->items[y - 1];
      a->items[y - 1] = t;
    }
  return st;
}

/* A bound or case as a view: its finding, its direction, and whether its
 * class contradicts the primary's. */
static int view_bound(ws_advice *a, const ws_model_result *r, const ws_model_result *prim) {
  if (!r->case_label && r->bound == WS_BOUND_NONE) return WS_OK;
  const char *c = r->case_label ? r->case_label : "";
  char *finding;
  if (is_model(r, "roofline")) {
    finding = fmt("%s: intensity %.3g FLOP/byte against ridge point %.3g; attainable %.4g GFLOP/s", c,
                  ws_model_term_value(r, WS_TERM_ROOFLINE_ARITHMETIC_INTENSITY),
                  ws_model_term_value(r, WS_TERM_ROOFLINE_RIDGE_POINT),
                  ws_model_term_value(r, WS_TERM_ROOFLINE_ATTAINABLE_GFLOPS));
  } else if (is_model(r, "transit")) {
    finding = fmt("%s: of n = %.0f threads per SM, %.0f wait on memory; memory %.3g GB/s, "
                  "computation %.3g Gops/s per SM",
                  c, ws_model_term_value(r, WS_TERM_TRANSIT_N), ws_model_term_value(r, WS_TERM_TRANSIT_K_EQ),
                  ws_model_term_value(r, WS_TERM_TRANSIT_MS_THROUGHPUT),
                  ws_model_term_value(r, WS_TERM_TRANSIT_CS_THROUGHPUT));
  } else if (is_model(r, "gpuperf")) {
    int mem = r->bound == WS_BOUND_GPUPERF_MEMORY;
    finding = fmt("%s (T_mem = %.0f cycles %s T_comp = %.0f cycles; %.0f of them overlapped)",
                  mem ? "memory-bound" : "compute-bound", ws_model_term_value(r, WS_TERM_GPUPERF_T_MEM),
                  mem ? ">" : "<=", ws_model_term_value(r, WS_TERM_GPUPERF_T_COMP),
                  isfinite(ws_model_term_value(r, WS_TERM_GPUPERF_T_OVERLAP))
                      ? ws_model_term_value(r, WS_TERM_GPUPERF_T_OVERLAP) : 0.0);
  } else {
    const char *l = ws_model_limiter(r);
    finding = fmt("%s%s%s", c, *l ? "; limited by " : "", l);
  }
  /* A bound's full direction (Transit's, Section 2.4) where the table has one. */
  const ws_bound_info *bi = ws_model_bound_info(r->bound);
  ws_advice_item it = item(WS_ADVICE_VIEW, r->model, fmt("%s", c), finding,
                           fmt("%s", bi && *bi->advice ? bi->advice : ""));
  if (prim && prim != r && !compatible(bound_class(r->bound), bound_class(prim->bound)))
    it.flag = fmt("contradicts %s, which names %s", prim->model, ws_model_limiter(prim));
  return push(a, &it);
}

/* --- the bottleneck line without the primary's counterfactuals ------------ */

static char *fallback_bottleneck(const ws_model_result *const *res, size_t n, const char **source) {
  for (size_t i = 0; i < n; i++)
    if (is_model(res[i], "gpuperf")) {
      const ws_model_result *r = res[i];
      int mem = r->bound == WS_BOUND_GPUPERF_MEMORY;
      double tc = ws_model_term_value(r, WS_TERM_GPUPERF_T_COMP), tm = ws_model_term_value(r, WS_TERM_GPUPERF_T_MEM);
      double to = ws_model_term_value(r, WS_TERM_GPUPERF_T_OVERLAP);
      if (!isfinite(tc) || !isfinite(tm)) break;
      *source = r->model;
      /* the model's own bound (ws_model_gpuperf_memory_bound): advice and
       * model never disagree on the zone */
      return fmt("%s (gpuperf: T_mem = %.0f cycles %s T_comp = %.0f cycles; %.0f of them overlapped)",
                 mem ? "memory-bound" : "compute-bound", tm, mem ? ">" : "<=", tc,
                 isfinite(to) ? to : 0.0);
    }
  static const char *const order[] = {"transit", "roofline"};
  for (size_t m = 0; m < 2; m++)
    for (size_t i = 0; i < n; i++)
      if (is_model(res[i], order[m]) && res[i]->case_label) {
        *source = res[i]->model;
        return fmt("%s (%s)", res[i]->case_label, res[i]->model);
      }
  return NULL;
}

void ws_advise_free(ws_advice *a) {
  if (!a) return;
  for (size_t i = 0; i < a->count; i++) item_free(&a->items[i]);
  free(a->items);
  free(a->bottleneck);
  ws_advise_cf_table_free(&a->cf);
  memset(a, 0, sizeof *a);
}

int ws_advise(ws_advice *out, const ws_advise_in *in, ws_diag *d) {
  if (!out || !in || (in->nresults && !in->results) || (in->profile && !in->gpu))
    return ws_diag_error(d, "advise: no results given");
  memset(out, 0, sizeof *out);
  const ws_model_result *prim = NULL;
  const ws_model_result **list = calloc(in->nresults + 1, sizeof *list);
  if (!list) return ws_diag_error(d, "advise: out of memory"), WS_ENOMEM;
  size_t n = 0;
  for (size_t i = 0; i < in->nresults; i++)
    if (usable(&in->results[i])) list[n++] = &in->results[i];
  out->ran = n;
  /* The primary: warpsight (the lowest validated error), else the first
   * model that ran, for the changes only. */
  for (size_t i = 0; i < n && !prim; i++)
    if (is_model(list[i], "warpsight")) prim = list[i];
  int st = WS_OK;
  if (prim) {
    out->bottleneck = warpsight_bottleneck(prim);
    out->source = prim->model;
    if (!out->bottleneck) st = WS_ENOMEM;
  } else {
    out->bottleneck = fallback_bottleneck(list, n, &out->source);
  }
  const ws_model_result *ranker = prim ? prim : (n ? list[0] : NULL);
  out->primary = ranker && in->profile ? ranker->model : NULL;
  if (st == WS_OK && in->profile && ranker) {
    /* the table's columns are every model that ran, the ranker among them */
    st = advise_changes(out, in, ranker);
  }
  for (size_t i = 0; i < n && st == WS_OK; i++) {
    if (list[i] == prim) continue;
    if (is_model(list[i], "gpuperf")) st = view_gpuperf(out, list[i]);
    if (st == WS_OK) st = view_bound(out, list[i], prim);
  }
  free(list);
  if (st != WS_OK) {
    ws_advise_free(out);
    ws_diag_error(d, "advise: out of memory");
    return WS_ENOMEM;
  }
  return WS_OK;
}
