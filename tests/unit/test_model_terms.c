/*
 * test_model_terms.c — the term table (model_terms.def) and the bound table
 * (model_bounds.def): every declared term and bound is well formed and
 * unique within its model, every term and bound a model reports is one of
 * its own, and a value read by id is the hand-computed one.
 */
#include <ctype.h>
#include <string.h>

#include "testutil.h"
#include "warpsight/model.h"
#include "model/transit.h"

static int snake_case(const char *s) {
  if (!*s || !islower((unsigned char)s[0])) return 0;
  for (; *s; s++)
    if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '_') return 0;
  return 1;
}

/* Some registered model belongs to the family. */
static int family_known(const char *family) {
  for (size_t i = 0; i < ws_model_count(); i++)
    if (ws_model_family_of(family, ws_model_at(i)->name)) return 1;
  return 0;
}

static void term_table(void **state) {
  (void)state;
  assert_true(WS_TERM_COUNT > 100); /* seven families, 173 terms when written */
  for (int i = 0; i < WS_TERM_COUNT; i++) {
    const ws_term_info *t = ws_model_term_info((ws_term_id)i);
    assert_non_null(t);
    if (!snake_case(t->name)) fail_msg("term %d: name '%s' is not snake_case", i, t->name);
    if (!family_known(t->family)) fail_msg("term %s: no model of family %s", t->name, t->family);
    assert_non_null(t->unit);
    assert_non_null(t->equation);
    if (strlen(t->meaning) < 5) fail_msg("term %s of %s: no meaning", t->name, t->family);
    for (int j = 0; j < i; j++) {
      const ws_term_info *u = ws_model_term_info((ws_term_id)j);
      if (!strcmp(t->family, u->family) && !strcmp(t->name, u->name))
        fail_msg("%s declares '%s' twice", t->family, t->name);
    }
  }
  assert_null(ws_model_term_info(WS_TERM_COUNT));
  assert_null(ws_model_term_info((ws_term_id)-1));
  /* One entry read back field by field (Hong & Kim, equation (6)). */
  const ws_term_info *m = ws_model_term_info(WS_TERM_HONG_KIM_MWP_PEAK_BW);
  assert_string_equal(m->family, "HONG_KIM");
  assert_string_equal(m->name, "mwp_peak_bw");
  assert_string_equal(m->unit, "warps");
  assert_string_equal(m->equation, "(6)");
}

static void bound_table(void **state) {
  (void)state;
  const ws_bound_info *none = ws_model_bound_info(WS_BOUND_NONE);
  assert_int_equal(WS_BOUND_NONE, 0); /* a zero-initialised result has none */
  assert_string_equal(none->limiter, "");
  assert_string_equal(none->name, "");
  for (int i = 1; i < WS_BOUND_COUNT; i++) {
    const ws_bound_info *b = ws_model_bound_info((ws_model_bound)i);
    assert_non_null(b);
    if (!family_known(b->family)) fail_msg("bound %s: no model of family %s", b->name, b->family);
    if (!*b->name || !*b->limiter) fail_msg("bound %d of %s: empty name or limiter", i, b->family);
    assert_non_null(b->advice);
    for (int j = 1; j < i; j++) {
      const ws_bound_info *c = ws_model_bound_info((ws_model_bound)j);
      if (!strcmp(b->family, c->family) && !strcmp(b->name, c->name))
        fail_msg("%s declares bound '%s' twice", b->family, b->name);
    }
  }
  assert_null(ws_model_bound_info(WS_BOUND_COUNT));
  ws_model_result r = WS_MODEL_RESULT_INIT;
  assert_string_equal(ws_model_limiter(&r), "");
  assert_string_equal(ws_model_limiter(NULL), "");

  /* Transit's four bounds, in the paper's order (Section 2.4), one text each. */
  static const ws_model_bound want[4] = {WS_BOUND_TRANSIT_THREAD, WS_BOUND_TRANSIT_MEMORY,
                                         WS_BOUND_TRANSIT_COMPUTATION, WS_BOUND_TRANSIT_CAPACITY};
  static const char *const names[4] = {"thread", "memory", "computation", "capacity"};
  static const ws_transit_bound tb[4] = {WS_TRANSIT_THREAD, WS_TRANSIT_MEMORY,
                                         WS_TRANSIT_COMPUTATION, WS_TRANSIT_CAPACITY};
  for (int i = 0; i < 4; i++) {
    const ws_bound_info *b = ws_model_bound_info(ws_model_transit_bound(tb[i]));
    assert_int_equal(ws_model_transit_bound(tb[i]), want[i]);
    assert_string_equal(ws_model_transit_bound_name(tb[i]), names[i]);
    assert_ptr_equal(ws_model_transit_direction(tb[i]), b->limiter);
    assert_ptr_equal(ws_model_transit_explain(tb[i]), b->advice);
    assert_true(strlen(b->advice) > strlen(b->limiter)); /* the full direction */
  }
}

static void families(void **state) {
  (void)state;
  assert_true(ws_model_family_of("HONG_KIM", "hong-kim"));
  assert_true(ws_model_family_of("KOTHAPALLI", "kothapalli-max"));
  assert_true(ws_model_family_of("KOTHAPALLI", "kothapalli-sum"));
  assert_true(ws_model_family_of("LUO_SUDA", "luo-suda"));
  assert_false(ws_model_family_of("HONG_KIM", "hong"));
  assert_false(ws_model_family_of("GPUPERF", "gpuperf2"));
  assert_false(ws_model_family_of("GPUPERF", "transit"));
  assert_false(ws_model_family_of(NULL, "transit"));
}

/* Every model on a profile with every input, on GPUs of five generations:
 * each term it reports is declared for its family, once; its bound is its
 * own.  Every model must run on at least one of them. */
static void emitted_terms_declared(void **state) {
  (void)state;
  static const char *const gpus[] = {"gtx280", "c2075", "gtx680", "k20", "a100"};
  ws_diag d = WS_DIAG_INIT;
  ws_profile *p;
  assert_ok_diag(ws_profile_load_file(&p, WS_SOURCE_DIR "/examples/hand/every-input.json", &d), &d);
  size_t ran[64] = {0};
  assert_true(ws_model_count() <= 64);
  for (size_t gi = 0; gi < sizeof gpus / sizeof gpus[0]; gi++) {
    ws_gpu *g;
    assert_ok_diag(ws_gpu_load(&g, gpus[gi], &d), &d);
    for (size_t mi = 0; mi < ws_model_count(); mi++) {
      const char *name = ws_model_at(mi)->name;
      ws_model_result r = WS_MODEL_RESULT_INIT;
      if (ws_model_predict(&r, name, p, g, &d) == WS_OK) {
        ran[mi]++;
        assert_true(r.nterms > 0);
        for (size_t i = 0; i < r.nterms; i++) {
          const ws_term_info *t = ws_model_term_info(r.terms[i].id);
          assert_non_null(t);
          if (!ws_model_family_of(t->family, name))
            fail_msg("%s on %s reports %s's term %s", name, gpus[gi], t->family, t->name);
          assert_non_null(r.terms[i].equation);
          for (size_t j = 0; j < i; j++)
            if (r.terms[j].id == r.terms[i].id) fail_msg("%s reports %s twice", name, t->name);
          assert_true(ws_model_term_value(&r, r.terms[i].id) == r.terms[i].value ||
                      isnan(r.terms[i].value));
        }
        const ws_bound_info *b = ws_model_bound_info(r.bound);
        if (r.bound == WS_BOUND_NONE || !ws_model_family_of(b->family, name))
          fail_msg("%s on %s: bound %d is not one of its own", name, gpus[gi], (int)r.bound);
        assert_string_equal(ws_model_limiter(&r), b->limiter);
      }
      ws_model_result_free(&r);
      ws_diag_clear(&d);
    }
    ws_gpu_free(g);
  }
  for (size_t mi = 0; mi < ws_model_count(); mi++)
    if (!ran[mi]) fail_msg("%s ran on none of the GPUs", ws_model_at(mi)->name);
  ws_profile_free(p);
  ws_diag_free(&d);
}

/* A value read by id: Hong & Kim's Table 2 kernel on the machine of their
 * Section 3.6, as test_model_hong_kim.c computes it by hand:
 *   Mem_L = 420 + 31 x 10 = 730 (12), Departure_delay = 32 x 10 = 320 (15),
 *   MWP = 730 / 320 = 2.28125 (5); memory-bound (23): CWP 20 >= MWP, and
 *   MWP_peak_bw = 80 / (1 x 128 / 730 x 16) = 28.5 > MWP_Without_BW, so the
 *   departure delay limits MWP. */
static void value_by_id(void **state) {
  (void)state;
  static const char gpu_json[] =
      "{\"schema\":\"warpsight-gpu/1\",\"name\":\"t\",\"compute_capability\":\"1.0\","
      "\"sms\":16,\"cores_per_sm\":8,\"clock_ghz\":1.0,\"mem_bandwidth_gbs\":80,"
      "\"models\":{\"hong-kim\":{\"mem_ld\":420,\"departure_del_uncoal\":10,"
      "\"departure_del_coal\":4,\"issue_cycles\":4}}}";
  static const char prof_json[] =
      "{\"schema\":\"warpsight-profile/1\",\"kernel\":\"k\","
      "\"launch\":{\"grid\":[80,1,1],\"block\":[128,1,1]},"
      "\"occupancy\":{\"active_blocks_per_sm\":5,\"active_sms\":16},"
      "\"per_warp\":{\"comp_insts\":27,\"coal_mem_insts\":0,"
      "\"uncoal_mem_insts\":6,\"synch_insts\":6},"
      "\"memory\":{\"uncoal_per_mw\":32,\"coal_per_mw\":1,\"load_bytes_per_warp\":128}}";
  ws_diag d = WS_DIAG_INIT;
  ws_model_result r = WS_MODEL_RESULT_INIT;
  assert_ok_diag(ws_test_predict(&r, &d, "hong-kim", prof_json, gpu_json), &d);
  assert_close(ws_model_term_value(&r, WS_TERM_HONG_KIM_MEM_L), 730, 1e-9);
  assert_close(ws_model_term_value(&r, WS_TERM_HONG_KIM_DEPARTURE_DELAY), 320, 1e-9);
  assert_close(ws_model_term_value(&r, WS_TERM_HONG_KIM_MWP), 2.28125, 1e-12);
  assert_int_equal(r.bound, WS_BOUND_HONG_KIM_MEMORY_DEPARTURE);
  /* Another model's term of the same name is not this result's. */
  assert_true(isnan(ws_model_term_value(&r, WS_TERM_GPUPERF_MWP)));
  /* A case-specific source replaces the table's equation: (23), not (22)-(24). */
  for (size_t i = 0; i < r.nterms; i++)
    if (r.terms[i].id == WS_TERM_HONG_KIM_EXEC_CYCLES_APP)
      assert_string_equal(r.terms[i].equation, "(23)");
  ws_model_result_free(&r);
  ws_diag_free(&d);
}

static void add_and_set(void **state) {
  (void)state;
  ws_model_result r = WS_MODEL_RESULT_INIT;
  assert_int_equal(ws_model_term_add(&r, WS_TERM_ROOFLINE_FLOPS, 2), WS_OK);
  assert_int_equal(ws_model_term_add_eq(&r, WS_TERM_ROOFLINE_DRAM_BYTES, 8, "here"), WS_OK);
  assert_int_equal(ws_model_term_add(&r, WS_TERM_COUNT, 1), WS_EINVAL);
  assert_int_equal(r.nterms, 2);
  assert_string_equal(r.terms[0].equation, ""); /* the table's */
  assert_string_equal(r.terms[1].equation, "here");
  assert_close(ws_model_term_value(&r, WS_TERM_ROOFLINE_DRAM_BYTES), 8, 0);
  assert_true(isnan(ws_model_term_value(&r, WS_TERM_ROOFLINE_RIDGE_POINT)));
  assert_int_equal(ws_model_set_case(&r, WS_BOUND_ROOFLINE_COMPUTE, "compute-bound"), WS_OK);
  assert_string_equal(ws_model_limiter(&r),
                      "peak FP32 throughput: intensity at or above the ridge point");
  ws_model_result_free(&r);
  assert_int_equal(r.nterms, 0);
  assert_int_equal(r.bound, WS_BOUND_NONE);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(term_table),    cmocka_unit_test(bound_table),
      cmocka_unit_test(families),      cmocka_unit_test(emitted_terms_declared),
      cmocka_unit_test(value_by_id),   cmocka_unit_test(add_and_set),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
