/*
 * advise.c — the performance advisor (warpsight/advise.h).
 *
 * GPUPerf's four potential benefits (Sim et al. PPoPP'12, Section 3,
 * equations (20)-(23)) are the only quantities that say how much time a
 * change could save, so they are ranked first, by their share of the
 * predicted run time T_exec.  The bounds of Transit and Roofline say which
 * resource limits and in which direction to move; other models contribute
 * their case label as context.  The advice lists what the models say; it
 * does not invent savings for models that do not quantify them.
 */
#include "warpsight/advise.h"

#include "util/strbuf.h"
#include "util/vec.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The four benefits, in the paper's order (Table 1). */
static const struct {
  ws_term_id term;    /* the term in the gpuperf result */
  const char *topic;  /* how the paper writes it */
  const char *what;   /* what the benefit measures */
  const char *action; /* what to try (Sim et al. Sections 3 and 6) */
} benefits[] = {
    {WS_TERM_GPUPERF_B_ITILP, "B_itilp", "inter-thread instruction-level parallelism",
     "raise inter-thread ILP: more independent instructions per thread "
     "(unrolling, reordering) or more resident warps"},
    {WS_TERM_GPUPERF_B_MEMLP, "B_memlp", "memory-level parallelism",
     "raise memory-level parallelism: prefetching, more independent loads per "
     "thread, more warps in flight, or fewer DRAM transactions"},
    {WS_TERM_GPUPERF_B_FP, "B_fp", "computing efficiency",
     "cut non-floating-point overhead: address and loop arithmetic "
     "(unrolling, vector loads), cheaper math (SFU intrinsics such as rsqrt)"},
    {WS_TERM_GPUPERF_B_SERIAL, "B_serial", "serialization",
     "remove serialization: fewer barriers, less SFU contention, no shared "
     "memory bank conflicts or divergent branches"},
};

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  ws_strbuf b = WS_STRBUF_INIT;
  ws_sb_vprintf(&b, f, ap);
  va_end(ap);
  return ws_sb_take(&b);
}

/* Append an item; takes ownership of topic, finding and action. */
static int add_item(ws_advice *a, ws_advice_kind kind, const char *model,
                    char *topic, double value, double share, char *finding,
                    char *action) {
  if (!topic || !finding || !action) goto oom;
  ws_advice_item it = {kind, model, topic, value, share, finding, action};
  if (WS_VEC_PUSH(a->items, a->count, a->cap, it)) goto oom;
  return WS_OK;
oom:
  free(topic);
  free(finding);
  free(action);
  return WS_ENOMEM;
}

static int by_share_desc(const void *pa, const void *pb) {
  const ws_advice_item *a = pa, *b = pb;
  if (a->share > b->share) return -1;
  if (a->share < b->share) return 1;
  return 0;
}

/* A result worth reading: a model that ran and predicted a time. */
static int usable(const ws_model_result *r) {
  return r && r->model && r->cycles > 0 && isfinite(r->cycles);
}

static int is_model(const ws_model_result *r, const char *name) {
  return usable(r) && strcmp(r->model, name) == 0;
}

static int advise_gpuperf(ws_advice *a, const ws_model_result *r,
                          int want_bottleneck) {
  double t_exec = ws_model_term_value(r, WS_TERM_GPUPERF_T_EXEC);
  if (!(t_exec > 0)) t_exec = r->cycles;
  if (!(t_exec > 0) || !isfinite(t_exec)) return WS_OK;
  size_t first = a->count;
  for (size_t i = 0; i < sizeof benefits / sizeof benefits[0]; i++) {
    double b = ws_model_term_value(r, benefits[i].term);
    if (!isfinite(b) || b <= 0) continue;
    double share = b / t_exec;
    if (share > 1) share = 1;
    if (share < WS_ADVICE_MIN_SHARE) continue;
    int st = add_item(
        a, WS_ADVICE_BENEFIT, r->model, fmt("%s", benefits[i].topic), b, share,
        fmt("%s = %.0f %% of run time (%.0f cycles): potential benefit of "
            "better %s",
            benefits[i].topic, 100 * share, b, benefits[i].what),
        fmt("%s", benefits[i].action));
    if (st) return st;
  }
  qsort(a->items + first, a->count - first, sizeof *a->items, by_share_desc);

  /* A negative benefit is shown, not dropped: the model predicts no saving
   * there, and the reader should know why (issue 13). */
  for (size_t i = 0; i < sizeof benefits / sizeof benefits[0]; i++) {
    double b = ws_model_term_value(r, benefits[i].term);
    if (!isfinite(b) || b >= 0) continue;
    const char *why =
        benefits[i].term == WS_TERM_GPUPERF_B_FP
            ? "(22) subtracts B_itilp, taken at the maximum ITILP, from T_comp, while T_fp (18) "
              "uses the current ITILP, so T_comp - B_itilp - B_serial can fall below T_fp"
            : "the model's ideal cost is above its current cost";
    int st = add_item(a, WS_ADVICE_NOTE, r->model, fmt("%s", benefits[i].topic), b, NAN,
                      fmt("%s = %.0f cycles, negative: no saving predicted from better %s; "
                          "%s",
                          benefits[i].topic, b, benefits[i].what, why),
                      fmt("nothing to gain here according to the model"));
    if (st) return st;
  }

  double t_comp = ws_model_term_value(r, WS_TERM_GPUPERF_T_COMP);
  double t_mem = ws_model_term_value(r, WS_TERM_GPUPERF_T_MEM);
  double t_overlap = ws_model_term_value(r, WS_TERM_GPUPERF_T_OVERLAP);
  if (want_bottleneck && isfinite(t_comp) && isfinite(t_mem)) {
    /* The model's own bound (ws_model_gpuperf_memory_bound), so that the advice
     * and the model's limiter never disagree. */
    int mem = r->bound == WS_BOUND_GPUPERF_MEMORY;
    a->bottleneck =
        fmt("%s (gpuperf: T_mem = %.0f cycles %s T_comp = %.0f cycles; %.0f of them "
            "overlapped)",
            mem ? "memory-bound" : "compute-bound", t_mem, mem ? ">" : "<=", t_comp,
            isfinite(t_overlap) ? t_overlap : 0.0);
    if (!a->bottleneck) return WS_ENOMEM;
    a->source = r->model;
  }
  return WS_OK;
}

static int advise_bound(ws_advice *a, const ws_model_result *r,
                        int want_bottleneck) {
  if (!r->case_label) return WS_OK;
  char *finding;
  if (is_model(r, "roofline")) {
    double ai = ws_model_term_value(r, WS_TERM_ROOFLINE_ARITHMETIC_INTENSITY);
    double ridge = ws_model_term_value(r, WS_TERM_ROOFLINE_RIDGE_POINT);
    double att = ws_model_term_value(r, WS_TERM_ROOFLINE_ATTAINABLE_GFLOPS);
    finding = fmt("%s: intensity %.3g FLOP/byte against ridge point %.3g; "
                  "attainable %.4g GFLOP/s",
                  r->case_label, ai, ridge, att);
  } else if (is_model(r, "transit")) {
    double ms = ws_model_term_value(r, WS_TERM_TRANSIT_MS_THROUGHPUT);
    double cs = ws_model_term_value(r, WS_TERM_TRANSIT_CS_THROUGHPUT);
    double n = ws_model_term_value(r, WS_TERM_TRANSIT_N);
    double k = ws_model_term_value(r, WS_TERM_TRANSIT_K_EQ);
    finding = fmt("%s: of n = %.0f threads per SM, %.0f wait on memory; "
                  "memory %.3g GB/s, computation %.3g Gops/s per SM",
                  r->case_label, n, k, ms, cs);
  } else {
    finding = fmt("%s", r->case_label);
  }
  /* A bound's full direction (Transit's, Section 2.4) rather than its
   * short limiter, where the table has one. */
  const ws_bound_info *bi = ws_model_bound_info(r->bound);
  const char *action = bi && *bi->advice ? bi->advice : ws_model_limiter(r);
  int st = add_item(a, WS_ADVICE_BOUND, r->model, fmt("%s", r->case_label),
                    NAN, NAN, finding, fmt("%s", action));
  if (st) return st;
  if (want_bottleneck && !a->bottleneck) {
    a->bottleneck = fmt("%s (%s)", r->case_label, r->model);
    if (!a->bottleneck) return WS_ENOMEM;
    a->source = r->model;
  }
  return WS_OK;
}

static int advise_note(ws_advice *a, const ws_model_result *r) {
  if (!r->case_label && r->bound == WS_BOUND_NONE) return WS_OK;
  const char *c = r->case_label ? r->case_label : "";
  const char *l = ws_model_limiter(r);
  return add_item(a, WS_ADVICE_NOTE, r->model, fmt("%s", c), NAN, NAN,
                  fmt("%s%s%s", c, *l ? "; limited by " : "", l),
                  fmt("%s", ""));
}

void ws_advise_free(ws_advice *a) {
  if (!a) return;
  for (size_t i = 0; i < a->count; i++) {
    free(a->items[i].topic);
    free(a->items[i].finding);
    free(a->items[i].action);
  }
  free(a->items);
  free(a->bottleneck);
  memset(a, 0, sizeof *a);
}

int ws_advise(ws_advice *out, const ws_model_result *const *results, size_t n,
              ws_diag *d) {
  if (!out || (n && !results))
    return ws_diag_error(d, "advise: no results given");
  memset(out, 0, sizeof *out);
  int st = WS_OK;
  /* Pass 0: the warpsight model, when it ran, names the bottleneck: its
   * largest term (docs/models/warpsight.md). */
  for (size_t i = 0; i < n && st == WS_OK; i++)
    if (is_model(results[i], "warpsight") && usable(results[i]))
      st = advise_bound(out, results[i], 1);
  /* Pass 1: GPUPerf (benefits ranked by share, and the zone). */
  for (size_t i = 0; i < n && st == WS_OK; i++)
    if (is_model(results[i], "gpuperf"))
      st = advise_gpuperf(out, results[i], !out->bottleneck);
  /* Pass 2: bounds, Transit before Roofline. */
  static const char *const bound_models[] = {"transit", "roofline"};
  for (size_t m = 0; m < 2 && st == WS_OK; m++)
    for (size_t i = 0; i < n && st == WS_OK; i++)
      if (is_model(results[i], bound_models[m]))
        st = advise_bound(out, results[i], 1);
  /* Pass 3: everyone else's case, in the order given. */
  for (size_t i = 0; i < n && st == WS_OK; i++) {
    const ws_model_result *r = results[i];
    if (!usable(r) || is_model(r, "gpuperf") || is_model(r, "transit") ||
        is_model(r, "roofline") || is_model(r, "warpsight"))
      continue;
    st = advise_note(out, r);
  }
  if (st != WS_OK) {
    ws_advise_free(out);
    ws_diag_error(d, "advise: out of memory");
    return WS_ENOMEM;
  }
  return WS_OK;
}
