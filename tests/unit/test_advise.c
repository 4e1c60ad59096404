/*
 * test_advise.c — the advisor and its text, on hand-made model results.
 *
 * GPUPerf result: T_comp = 40 000, T_mem = 30 000, T_overlap = 20 000
 * cycles, so T_mem < T_comp: compute bound (Sim et al. Figure 4: point A =
 * (T_mem, T_comp) above the diagonal).  T_exec = 50 000.  Benefits, as shares of T_exec:
 *   B_memlp 14 000 -> 28 %, B_fp 10 000 -> 20 %, B_itilp 9 000 -> 18 %,
 *   B_serial 300 -> 0.6 % (below WS_ADVICE_MIN_SHARE = 1 %: left out).
 */
#include <string.h>

#include "testutil.h"
#include "warpsight/advise.h"
#include "warpsight/report.h"

static void add(ws_model_result *r, ws_term_id id, double v) {
  assert_int_equal(ws_model_term_add(r, id, v), WS_OK);
}

/* A gpuperf result with B_fp = b_fp, in the zone the model would set. */
static ws_model_result gpuperf_bfp(double tcomp, double tmem, double tovl, double b_fp) {
  ws_model_result r = WS_MODEL_RESULT_INIT;
  r.model = "gpuperf";
  add(&r, WS_TERM_GPUPERF_T_COMP, tcomp);
  add(&r, WS_TERM_GPUPERF_T_MEM, tmem);
  add(&r, WS_TERM_GPUPERF_T_OVERLAP, tovl);
  add(&r, WS_TERM_GPUPERF_T_EXEC, tcomp + tmem - tovl);
  add(&r, WS_TERM_GPUPERF_B_ITILP, 9000);
  add(&r, WS_TERM_GPUPERF_B_SERIAL, 300);
  add(&r, WS_TERM_GPUPERF_B_FP, b_fp);
  add(&r, WS_TERM_GPUPERF_B_MEMLP, 14000);
  r.cycles = tcomp + tmem - tovl;
  /* the zone as the model sets it (Figure 4) */
  assert_int_equal(ws_model_set_case(&r, ws_model_gpuperf_memory_bound(tcomp, tmem)
                                             ? WS_BOUND_GPUPERF_MEMORY
                                             : WS_BOUND_GPUPERF_COMPUTE,
                                     "zone"),
                   WS_OK);
  return r;
}

static ws_model_result gpuperf(double tcomp, double tmem, double tovl) {
  return gpuperf_bfp(tcomp, tmem, tovl, 10000);
}

static ws_model_result transit(void) {
  ws_model_result r = WS_MODEL_RESULT_INIT;
  r.model = "transit";
  add(&r, WS_TERM_TRANSIT_N, 1024);
  add(&r, WS_TERM_TRANSIT_K_EQ, 492.25);
  add(&r, WS_TERM_TRANSIT_MS_THROUGHPUT, 2.86);
  add(&r, WS_TERM_TRANSIT_CS_THROUGHPUT, 22.9);
  add(&r, WS_TERM_TRANSIT_BOUND, 0);
  assert_int_equal(ws_model_set_case(&r, WS_BOUND_TRANSIT_THREAD, "thread bound"), WS_OK);
  r.cycles = 1000;
  return r;
}

static ws_model_result labelled(const char *model, const char *c, ws_model_bound b) {
  ws_model_result r = WS_MODEL_RESULT_INIT;
  r.model = model;
  assert_int_equal(ws_model_set_case(&r, b, c), WS_OK);
  r.cycles = 1000;
  return r;
}

static void ranked(void **state) {
  (void)state;
  ws_model_result g = gpuperf(40000, 30000, 20000);
  ws_model_result t = transit();
  ws_model_result h = labelled("hong-kim", "memory-bound: CWP >= MWP (eq. 23)",
                                 WS_BOUND_HONG_KIM_MEMORY_DEPARTURE);
  ws_model_result rl = labelled("roofline", "memory-bound", WS_BOUND_ROOFLINE_MEMORY);
  add(&rl, WS_TERM_ROOFLINE_ARITHMETIC_INTENSITY, 2);
  add(&rl, WS_TERM_ROOFLINE_RIDGE_POINT, 7.16);
  add(&rl, WS_TERM_ROOFLINE_ATTAINABLE_GFLOPS, 288);
  /* Given in an order unlike the ranking. */
  const ws_model_result *in[] = {&h, &rl, &t, &g, NULL};
  ws_advice a = WS_ADVICE_INIT;
  ws_diag d = WS_DIAG_INIT;
  assert_ok_diag(ws_advise(&a, in, 5, &d), &d);

  assert_non_null(strstr(a.bottleneck, "compute-bound"));
  assert_string_equal(a.source, "gpuperf");
  assert_int_equal(a.count, 3 + 3); /* 3 benefits, transit, roofline, hong-kim */
  assert_string_equal(a.items[0].topic, "B_memlp");
  assert_close(a.items[0].share, 0.28, 1e-12);
  assert_non_null(strstr(a.items[0].finding, "28 %"));
  assert_non_null(strstr(a.items[0].action, "memory-level parallelism"));
  assert_string_equal(a.items[1].topic, "B_fp");
  assert_close(a.items[1].share, 0.20, 1e-12);
  assert_string_equal(a.items[2].topic, "B_itilp");
  assert_int_equal(a.items[3].kind, WS_ADVICE_BOUND);
  assert_string_equal(a.items[3].model, "transit");
  /* Transit's action is the long direction of Section 2.4.1. */
  assert_non_null(strstr(a.items[3].action, "arithmetic intensity Z"));
  assert_string_equal(a.items[4].model, "roofline");
  assert_non_null(strstr(a.items[4].finding, "ridge point 7.16"));
  assert_int_equal(a.items[5].kind, WS_ADVICE_NOTE);
  assert_string_equal(a.items[5].model, "hong-kim");

  char *text = ws_report_advice_text(&a);
  assert_non_null(text);
  assert_non_null(strstr(text, "bottleneck: compute-bound"));
  assert_non_null(strstr(text, " 1. [gpuperf] B_memlp = 28 % of run time"));
  assert_non_null(strstr(text, "    try: raise memory-level parallelism"));
  assert_null(strstr(text, "B_serial")); /* 0.6 %: below the cut */
  free(text);
  ws_advise_free(&a);
  ws_advise_free(&a); /* reusable, idempotent */
  ws_diag_free(&d);
  ws_model_result_free(&g);
  ws_model_result_free(&t);
  ws_model_result_free(&h);
  ws_model_result_free(&rl);
}

/* T_mem = 50 000 > T_comp = 30 000: memory bound. */
static void memory_zone(void **state) {
  (void)state;
  ws_model_result g = gpuperf(30000, 50000, 5000);
  const ws_model_result *in[] = {&g};
  ws_advice a = WS_ADVICE_INIT;
  ws_diag d = WS_DIAG_INIT;
  assert_ok_diag(ws_advise(&a, in, 1, &d), &d);
  assert_non_null(strstr(a.bottleneck, "memory-bound"));
  assert_non_null(strstr(a.bottleneck, "T_mem = 50000"));
  ws_advise_free(&a);
  ws_diag_free(&d);
  ws_model_result_free(&g);
}

/* Issue 13: one rule for the model and the advisor.  T_comp = 30 000,
 * T_mem = 40 000, T_overlap = 20 000: the gpuperf model calls this memory
 * bound (T_mem > T_comp); the advisor used T_mem' = 20 000 and said
 * compute-bound.  Both now use ws_model_gpuperf_memory_bound. */
static void one_bottleneck_rule(void **state) {
  (void)state;
  assert_int_equal(ws_model_gpuperf_memory_bound(30000, 40000), 1);
  assert_int_equal(ws_model_gpuperf_memory_bound(40000, 40000), 0);
  ws_model_result g = gpuperf(30000, 40000, 20000);
  const ws_model_result *in[] = {&g};
  ws_advice a = WS_ADVICE_INIT;
  ws_diag d = WS_DIAG_INIT;
  assert_ok_diag(ws_advise(&a, in, 1, &d), &d);
  assert_non_null(strstr(a.bottleneck, "memory-bound"));
  ws_advise_free(&a);
  ws_diag_free(&d);
  ws_model_result_free(&g);
}

/* Without GPUPerf, Transit's bound is the headline; a model that did not
 * run (no time) is ignored. */
static void without_gpuperf(void **state) {
  (void)state;
  ws_model_result t = transit();
  ws_model_result failed = labelled("gpuperf", "x", WS_BOUND_GPUPERF_COMPUTE);
  failed.cycles = NAN;
  const ws_model_result *in[] = {&failed, &t};
  ws_advice a = WS_ADVICE_INIT;
  ws_diag d = WS_DIAG_INIT;
  assert_ok_diag(ws_advise(&a, in, 2, &d), &d);
  assert_string_equal(a.bottleneck, "thread bound (transit)");
  assert_int_equal(a.count, 1);
  ws_advise_free(&a);
  ws_model_result_free(&t);
  ws_model_result_free(&failed);

  /* Nothing at all: no bottleneck, no items, text says so. */
  assert_ok_diag(ws_advise(&a, NULL, 0, &d), &d);
  assert_null(a.bottleneck);
  char *text = ws_report_advice_text(&a);
  assert_string_equal(text, "bottleneck: unknown (no model gave one)\n");
  free(text);
  ws_advise_free(&a);
  ws_diag_free(&d);
}

/* The warpsight model, when it ran, names the bottleneck before GPUPerf's
 * zone, and its bound comes first in the list. */
static void warpsight_first(void **state) {
  (void)state;
  ws_model_result g = gpuperf(30000, 50000, 5000);
  ws_model_result w = labelled("warpsight", "latency-bound (97% of the overlapped time)",
                               WS_BOUND_WARPSIGHT_LATENCY);
  const ws_model_result *in[] = {&g, &w};
  ws_advice a = WS_ADVICE_INIT;
  ws_diag d = WS_DIAG_INIT;
  assert_ok_diag(ws_advise(&a, in, 2, &d), &d);
  assert_string_equal(a.bottleneck, "latency-bound (97% of the overlapped time) (warpsight)");
  assert_true(a.count >= 2);
  assert_string_equal(a.items[0].model, "warpsight");
  ws_advise_free(&a);
  /* Without a result (it could not run), GPUPerf's zone again. */
  w.cycles = NAN;
  assert_ok_diag(ws_advise(&a, in, 2, &d), &d);
  assert_non_null(strstr(a.bottleneck, "gpuperf"));
  ws_advise_free(&a);
  ws_model_result_free(&g);
  ws_model_result_free(&w);
  ws_diag_free(&d);
}

/* Issue 13: a negative B_fp is shown and explained, not dropped. */
static void negative_benefit(void **state) {
  (void)state;
  ws_model_result g = gpuperf_bfp(40000, 30000, 20000, -1200); /* compute bound */
  const ws_model_result *in[] = {&g};
  ws_advice a = WS_ADVICE_INIT;
  ws_diag d = WS_DIAG_INIT;
  assert_ok_diag(ws_advise(&a, in, 1, &d), &d);
  assert_int_equal(a.count, 3); /* B_memlp, B_itilp, then the B_fp note */
  assert_int_equal(a.items[2].kind, WS_ADVICE_NOTE);
  assert_string_equal(a.items[2].topic, "B_fp");
  assert_close(a.items[2].value, -1200, 0);
  assert_non_null(strstr(a.items[2].finding, "B_fp = -1200 cycles, negative: no saving predicted"));
  assert_non_null(strstr(a.items[2].finding, "current ITILP"));
  char *text = ws_report_advice_text(&a);
  assert_non_null(strstr(text, " 3. [gpuperf] B_fp = -1200 cycles, negative"));
  free(text);
  ws_advise_free(&a);
  ws_diag_free(&d);
  ws_model_result_free(&g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(warpsight_first),
      cmocka_unit_test(ranked),
      cmocka_unit_test(memory_zone), cmocka_unit_test(one_bottleneck_rule), cmocka_unit_test(negative_benefit),
      cmocka_unit_test(without_gpuperf),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
