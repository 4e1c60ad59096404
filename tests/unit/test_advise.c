/*
 * test_advise.c — the advisor and its text: the views on hand-made model
 * results, the flag's rule on numbers, and the changes on a hand profile.
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

static ws_model_result warpsight_dram(void) {
  ws_model_result r = labelled("warpsight", "memory-bound (95% of the overlapped time)", WS_BOUND_WARPSIGHT_DRAM);
  add(&r, WS_TERM_WARPSIGHT_T_DRAM, 950);
  add(&r, WS_TERM_WARPSIGHT_T_OVERLAPPED, 1000);
  return r;
}

/* Without a profile: the bottleneck and the other models' views, each
 * view contradicting the primary at most once. */
static void views(void **state) {
  (void)state;
  ws_model_result w = warpsight_dram();
  ws_model_result g = gpuperf(40000, 30000, 20000); /* compute zone */
  ws_model_result t = transit();                    /* thread bound: latency */
  ws_model_result h = labelled("hong-kim", "memory-bound", WS_BOUND_HONG_KIM_MEMORY_PEAK_BW);
  ws_model_result rl = labelled("roofline", "memory-bound", WS_BOUND_ROOFLINE_MEMORY);
  add(&rl, WS_TERM_ROOFLINE_ARITHMETIC_INTENSITY, 2);
  add(&rl, WS_TERM_ROOFLINE_RIDGE_POINT, 7.16);
  add(&rl, WS_TERM_ROOFLINE_ATTAINABLE_GFLOPS, 288);
  ws_model_result res[] = {h, rl, w, t, g};
  ws_advise_in in = {res, 5, NULL, NULL, NULL};
  ws_advice a = WS_ADVICE_INIT;
  ws_diag d = WS_DIAG_INIT;
  assert_ok_diag(ws_advise(&a, &in, &d), &d);
  /* warpsight's bound, the DRAM term's share of the overlapped time */
  assert_string_equal(a.bottleneck, "DRAM bandwidth, 95 % of the overlapped time (warpsight)");
  assert_string_equal(a.source, "warpsight");
  assert_null(a.primary); /* no profile: no changes */
  assert_int_equal(a.nchanges, 0);
  /* views in the order given: hong-kim, roofline, transit, then gpuperf's
   * three benefits by share and its zone (B_serial 0.6 %: below the cut) */
  assert_int_equal(a.count, 7);
  for (size_t i = 0; i < a.count; i++) assert_int_equal(a.items[i].kind, WS_ADVICE_VIEW);
  assert_string_equal(a.items[0].model, "hong-kim");
  assert_null(a.items[0].flag); /* peak bandwidth: as warpsight */
  assert_string_equal(a.items[1].model, "roofline");
  assert_null(a.items[1].flag);
  assert_non_null(strstr(a.items[1].finding, "ridge point 7.16"));
  assert_string_equal(a.items[2].model, "transit");
  assert_non_null(strstr(a.items[2].action, "arithmetic intensity Z")); /* Section 2.4.1 */
  assert_string_equal(a.items[2].flag, "contradicts warpsight, which names DRAM bandwidth");
  assert_string_equal(a.items[3].topic, "B_memlp");
  assert_close(a.items[3].share, 0.28, 1e-12);
  assert_string_equal(a.items[4].topic, "B_fp");
  assert_string_equal(a.items[5].topic, "B_itilp");
  assert_non_null(strstr(a.items[6].finding, "compute-bound"));
  assert_string_equal(a.items[6].flag, "contradicts warpsight, which names DRAM bandwidth");
  char *text = ws_report_advice_text(&a);
  assert_non_null(strstr(text, "bottleneck: DRAM bandwidth, 95 % of the overlapped time (warpsight)\n"));
  assert_non_null(strstr(text, "\nother models' views (their own metrics):\n"));
  assert_non_null(strstr(text, "  [gpuperf] B_memlp = 28 % of T_exec (14000 cycles)"));
  assert_non_null(strstr(text, "    its direction: prefetching"));
  assert_non_null(strstr(text, "    ! contradicts warpsight, which names DRAM bandwidth\n"));
  assert_null(strstr(text, "B_serial"));
  assert_null(strstr(text, "what to change"));
  free(text);
  ws_advise_free(&a);
  ws_advise_free(&a); /* reusable, idempotent */
  ws_diag_free(&d);
  ws_model_result_free(&g);
  ws_model_result_free(&t);
  ws_model_result_free(&h);
  ws_model_result_free(&rl);
  ws_model_result_free(&w);
}

/* Without warpsight the bottleneck line is GPUPerf's zone, by the model's
 * own rule (issue 13): T_mem = 40 000 > T_comp = 30 000 is memory bound
 * although T_mem' = T_mem - T_overlap = 20 000 is not. */
static void without_warpsight(void **state) {
  (void)state;
  assert_int_equal(ws_model_gpuperf_memory_bound(30000, 40000), 1);
  assert_int_equal(ws_model_gpuperf_memory_bound(40000, 40000), 0);
  ws_model_result g = gpuperf(30000, 40000, 20000);
  ws_advise_in in = {&g, 1, NULL, NULL, NULL};
  ws_advice a = WS_ADVICE_INIT;
  ws_diag d = WS_DIAG_INIT;
  assert_ok_diag(ws_advise(&a, &in, &d), &d);
  assert_non_null(strstr(a.bottleneck, "memory-bound (gpuperf: T_mem = 40000"));
  ws_advise_free(&a);
  ws_model_result_free(&g);
  /* Transit next; a model that did not run (no time) is ignored. */
  ws_model_result t = transit();
  ws_model_result failed = labelled("gpuperf", "x", WS_BOUND_GPUPERF_COMPUTE);
  failed.cycles = NAN;
  ws_model_result two[] = {failed, t};
  in = (ws_advise_in){two, 2, NULL, NULL, NULL};
  assert_ok_diag(ws_advise(&a, &in, &d), &d);
  assert_string_equal(a.bottleneck, "thread bound (transit)");
  assert_int_equal(a.count, 1);
  ws_advise_free(&a);
  ws_model_result_free(&t);
  ws_model_result_free(&failed);
  /* Nothing at all. */
  in = (ws_advise_in){NULL, 0, NULL, NULL, NULL};
  assert_ok_diag(ws_advise(&a, &in, &d), &d);
  assert_null(a.bottleneck);
  char *text = ws_report_advice_text(&a);
  assert_string_equal(text, "bottleneck: unknown: no model could run on this launch (the prediction says why)\n");
  free(text);
  ws_advise_free(&a);
  /* Only a model that failed (NaN cycles): none ran, the same line. */
  failed = labelled("gpuperf", "x", WS_BOUND_GPUPERF_COMPUTE);
  failed.cycles = NAN;
  in = (ws_advise_in){&failed, 1, NULL, NULL, NULL};
  assert_ok_diag(ws_advise(&a, &in, &d), &d);
  assert_int_equal(a.ran, 0);
  text = ws_report_advice_text(&a);
  assert_string_equal(text, "bottleneck: unknown: no model could run on this launch (the prediction says why)\n");
  free(text);
  ws_advise_free(&a);
  ws_model_result_free(&failed);
  /* A model ran but none of those that ran names a bottleneck (Kothapalli
   * has no fallback line, "the bottleneck line without the primary"). */
  ws_model_result k = labelled("kothapalli-max", "compute", WS_BOUND_NONE);
  in = (ws_advise_in){&k, 1, NULL, NULL, NULL};
  assert_ok_diag(ws_advise(&a, &in, &d), &d);
  assert_int_equal(a.ran, 1);
  assert_null(a.bottleneck);
  text = ws_report_advice_text(&a);
  const char *line = "bottleneck: unknown (no model that ran names one)\n"; /* then its view */
  assert_int_equal(strncmp(text, line, strlen(line)), 0);
  free(text);
  ws_advise_free(&a);
  ws_model_result_free(&k);
  ws_diag_free(&d);
}

/* The flag's rule (docs/advisor.md, "Agreement"), on numbers: models 0..4
 * with base times 1 ms; model 0 is the primary. */
static void stances(void **state) {
  (void)state;
  const double base[5] = {1, 1, 1, 1, 1};
  ws_cf_stance st[5];
  /* primary 10 %; 5 % agrees, 0.5 % and -2 % see no gain, 0 is blind:
   * 1 of 3 that see it agrees -> the flag */
  double s1[5] = {0.10, 0.05, 0.005, -0.02, 0};
  assert_int_equal(ws_advise_cf_stances(st, s1, base, 5, 0), 1);
  assert_int_equal(st[0], WS_CF_NOT_RUN);
  assert_int_equal(st[1], WS_CF_AGREES);
  assert_int_equal(st[2], WS_CF_NO_GAIN);
  assert_int_equal(st[3], WS_CF_NO_GAIN);
  assert_int_equal(st[4], WS_CF_BLIND);
  /* 2 of 3 agree: no flag */
  double s2[5] = {0.10, 0.05, 0.03, -0.02, 0};
  assert_int_equal(ws_advise_cf_stances(st, s2, base, 5, 0), 0);
  /* half agree is not most disagreeing: no flag */
  double s3[5] = {0.10, 0.05, -0.02, 0, 0};
  assert_int_equal(ws_advise_cf_stances(st, s3, base, 5, 0), 0);
  /* only one other model sees it: too few to say */
  double s4[5] = {0.10, -0.05, 0, 0, NAN};
  assert_int_equal(ws_advise_cf_stances(st, s4, base, 5, 0), 0);
  assert_int_equal(st[4], WS_CF_BLIND);
  /* the primary does not recommend it (0.5 %): no flag whatever the others */
  double s5[5] = {0.005, 0, -0.1, -0.1, -0.1};
  assert_int_equal(ws_advise_cf_stances(st, s5, base, 5, 0), 0);
  /* a model that did not run has no stance */
  const double nobase[5] = {1, NAN, 1, 1, 1};
  assert_int_equal(ws_advise_cf_stances(st, s1, nobase, 5, 0), 1);
  assert_int_equal(st[1], WS_CF_NOT_RUN);
}

/* A profile: the changes are warpsight's, ranked by its saving; every
 * listed saving is what the model predicts with the change applied, at
 * least 1 % of its time, each change once; a bound comes first exactly
 * when the best change does not lower the limiting term, and its "try"
 * never repeats the limiter. */
static void changes(void **state) {
  (void)state;
  ws_diag d = WS_DIAG_INIT;
  ws_profile *p = NULL;
  ws_gpu *g = NULL;
  assert_ok_diag(ws_profile_load_file(&p, WS_SOURCE_DIR "/examples/hand/every-input.json", &d), &d);
  assert_ok_diag(ws_gpu_load(&g, "a100", &d), &d);
  p->f.synch_insts = 8, p->f.bank_conflict_replays = 6; /* changes to make */
  p->f.path_mem_loads = 6, p->f.path_cycles = 3000;
  ws_model_result res[16];
  size_t n = 0;
  for (size_t m = 0; m < ws_model_count(); m++) {
    res[n] = (ws_model_result)WS_MODEL_RESULT_INIT;
    if (ws_model_predict(&res[n], ws_model_at(m)->name, p, g, &d) == WS_OK) n++;
    else ws_model_result_free(&res[n]);
  }
  ws_diag_free(&d);
  assert_true(n >= 5);
  assert_string_equal(res[0].model, "warpsight");
  ws_advise_in in = {res, n, p, g, NULL};
  ws_advice a = WS_ADVICE_INIT;
  assert_ok_diag(ws_advise(&a, &in, &d), &d);
  assert_string_equal(a.primary, "warpsight");
  assert_true(a.nchanges >= 2);
  size_t first = a.items[0].kind == WS_ADVICE_BOUND;
  int seen[WS_CF_COUNT] = {0};
  for (size_t i = first; i < a.nchanges; i++) {
    const ws_advice_item *it = &a.items[i];
    assert_int_equal(it->kind, WS_ADVICE_CHANGE);
    assert_true(it->change >= 0 && it->change < WS_CF_COUNT);
    assert_int_equal(seen[it->change]++, 0);
    double base, cf;
    assert_int_equal(ws_advise_cf_saving(&base, &cf, "warpsight", p, g, (ws_cf_kind)it->change, &d), WS_OK);
    assert_close(it->saving_ms, res[0].time_ms * (base - cf) / base, 1e-12 * res[0].time_ms);
    assert_close(it->share, it->saving_ms / res[0].time_ms, 1e-15);
    assert_true(it->share >= WS_ADVICE_MIN_SHARE);
    if (i > first) assert_true(it->saving_ms <= a.items[i - 1].saving_ms);
    assert_non_null(it->agree);
  }
  if (first) {
    assert_false(a.items[1].addresses);
    assert_null(strstr(a.items[0].action, ws_model_limiter(&res[0])));
  } else {
    assert_true(a.items[0].addresses);
  }
  /* views follow, none from the primary */
  for (size_t i = a.nchanges; i < a.count; i++) {
    assert_int_equal(a.items[i].kind, WS_ADVICE_VIEW);
    assert_string_not_equal(a.items[i].model, "warpsight");
  }
  char *text = ws_report_advice_text(&a);
  assert_non_null(strstr(text, "\nwhat to change, ranked by the warpsight model's predicted saving:\n"));
  free(text);
  ws_advise_free(&a);
  for (size_t i = 0; i < n; i++) ws_model_result_free(&res[i]);
  ws_gpu_free(g);
  ws_profile_free(p);
  ws_diag_free(&d);
}

/* Issue 13: a negative B_fp is shown and explained, not dropped. */
static void negative_benefit(void **state) {
  (void)state;
  ws_model_result g = gpuperf_bfp(40000, 30000, 20000, -1200); /* compute bound */
  ws_advise_in in = {&g, 1, NULL, NULL, NULL};
  ws_advice a = WS_ADVICE_INIT;
  ws_diag d = WS_DIAG_INIT;
  assert_ok_diag(ws_advise(&a, &in, &d), &d);
  assert_int_equal(a.count, 4); /* B_memlp, B_itilp, the B_fp note, the zone */
  assert_string_equal(a.items[2].topic, "B_fp");
  assert_close(a.items[2].value, -1200, 0);
  assert_non_null(strstr(a.items[2].finding, "B_fp = -1200 cycles, negative: no saving predicted"));
  assert_non_null(strstr(a.items[2].finding, "current ITILP"));
  char *text = ws_report_advice_text(&a);
  assert_non_null(strstr(text, "  [gpuperf] B_fp = -1200 cycles, negative"));
  free(text);
  ws_advise_free(&a);
  ws_diag_free(&d);
  ws_model_result_free(&g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(views),      cmocka_unit_test(without_warpsight),
      cmocka_unit_test(stances),    cmocka_unit_test(changes),
      cmocka_unit_test(negative_benefit),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
