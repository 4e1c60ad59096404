/*
 * test_counterfactual.c — the advisor's counterfactuals (issue 13 point 4)
 * on the hand-written profile examples/hand/every-input.json for the A100.
 *
 * No barriers, Hong & Kim (ISCA'09): eq. 27 is exec_cycles_app (eq. 22) +
 * synch_cost (eq. 26), and #Synch_insts enters only eq. 26, so removing the
 * barriers saves exactly eq. 26:
 *   synch_cost = departure_delay * (MWP - 1) * #Synch_insts
 *                * #Active_blocks_per_SM * #Rep
 *              = 13.878 * (16 - 1) * 2 * 2 * (140 / (2 * 108))
 *              = 13.878 * 15 * 4 * 0.648148 = 539.70 cycles
 * (departure_delay = weight_uncoal * 3.13374 * 8 + weight_coal * 12.5349
 * = 6/56 * 25.07 + 50/56 * 12.5349 = 13.878, the A100's departure delays;
 * MWP = N = 16 warps: 2 blocks of 8 warps).
 */
#include <math.h>

#include "testutil.h"
#include "warpsight/advise.h"
#include "warpsight/gpu.h"
#include "warpsight/profile.h"

static ws_profile *load_profile(void) {
  ws_profile *p = NULL;
  ws_diag d = WS_DIAG_INIT;
  assert_int_equal(ws_profile_load_file(&p, WS_SOURCE_DIR "/examples/hand/every-input.json", &d), WS_OK);
  ws_diag_free(&d);
  return p;
}

static ws_gpu *load_gpu(const char *name) {
  ws_gpu *g = NULL;
  ws_diag d = WS_DIAG_INIT;
  assert_int_equal(ws_gpu_load(&g, name, &d), WS_OK);
  ws_diag_free(&d);
  return g;
}

static void hong_kim_no_barriers(void **state) {
  (void)state;
  ws_profile *p = load_profile();
  ws_gpu *g = load_gpu("a100");
  ws_diag d = WS_DIAG_INIT;
  double base, cf;
  assert_int_equal(ws_advise_cf_saving(&base, &cf, "hong-kim", p, g, WS_CF_BARRIERS, &d), WS_OK);
  double dd = 6.0 / 56 * 3.13374 * 8 + 50.0 / 56 * 12.5349;
  double hand = dd * 15 * 2 * 2 * (140.0 / (2 * 108));
  assert_true(fabs(dd - 13.878) < 1e-3);
  assert_true(fabs((base - cf) - hand) < 1e-3 * hand);
  assert_true(fabs((base - cf) - 539.70) < 0.01);
  ws_diag_free(&d);
  ws_gpu_free(g);
  ws_profile_free(p);
}

static void apply_rules(void **state) {
  (void)state;
  ws_profile *p = load_profile();
  ws_profile_fields f = p->f;
  /* every-input: 6 uncoalesced + 50 coalesced memory instructions */
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_COALESCING), 1);
  assert_true(f.uncoal_mem_insts == 0 && f.coal_mem_insts == 56);
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_COALESCING), 0); /* nothing left */
  f.bank_conflict_replays = 3;
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_BANK_CONFLICTS), 1);
  assert_true(f.bank_conflict_replays == 0);
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_BANK_CONFLICTS), 0);
  f.divergent_extra_insts = 10;
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_DIVERGENCE), 1);
  assert_true(f.divergent_extra_insts == 0);
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_BARRIERS), 1);
  assert_true(f.synch_insts == 0);
  /* nothing left to remove: the saving is not computed */
  ws_gpu *g = load_gpu("a100");
  ws_diag d = WS_DIAG_INIT;
  double base, cf;
  ws_profile q = *p;
  q.f = f;
  assert_int_equal(ws_advise_cf_saving(&base, &cf, "hong-kim", &q, g, WS_CF_BARRIERS, &d), WS_EMISSING);
  assert_true(isnan(base) && isnan(cf));
  assert_string_equal(ws_advise_cf_name(WS_CF_BARRIERS), "no barriers");
  ws_diag_free(&d);
  ws_gpu_free(g);
  ws_profile_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(hong_kim_no_barriers),
      cmocka_unit_test(apply_rules),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
