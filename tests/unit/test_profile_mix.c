/* test_profile_mix.c — the typed sections of a profile as the loader reads
 * them: the model-neutral mix ("warp_mix") and the hand-written
 * "kothapalli" section, their values and the paths their errors name; and
 * the list of known fields an unknown one is answered with.  Expected
 * values are the hand-written inputs below and profile_fields.def. */
#include <string.h>

#include "testutil.h"
#include "warpsight/profile.h"

#define HEAD                                                                            \
  "{\"schema\":\"warpsight-profile/1\",\"kernel\":\"k\","                                \
  "\"launch\":{\"blocks\":1,\"threads_per_block\":64}"

/* Loads json, expects WS_EINVAL and a message containing `want`. */
static void expect_error(const char *json, const char *want) {
  ws_diag d = WS_DIAG_INIT;
  ws_profile *p = NULL;
  assert_int_equal(ws_profile_load_json(&p, json, "p.json", &d), WS_EINVAL);
  assert_null(p);
  char *msg = ws_diag_format(&d);
  if (!strstr(msg, want)) print_error("got: %s\nwanted: %s\n", msg, want);
  assert_non_null(strstr(msg, want));
  free(msg);
  ws_diag_free(&d);
}

/* Two heaviest warps and three periods, read into ws_profile_mix. */
static void mix_read(void **s) {
  (void)s;
  const char *json =
      HEAD ",\"warp_mix\":{\"heaviest_warps\":["
           "{\"block\":0,\"warp\":1,\"ops\":{\"int.add.int.reg\":4,\"fp32.fma.float.reg\":2},"
           "\"global_requests\":{\"1\":3,\"32\":1},\"shared_requests\":{\"2\":5}},"
           "{\"block\":7,\"warp\":0}],"
           "\"representative_warp\":{\"block\":0,\"warp\":0,\"periods\":["
           "{\"ops\":{\"int.add.int.imm\":1},\"mem_insts\":2,\"repeat\":3},"
           "{\"ops\":{}},{\"mem_insts\":1}]}}}";
  ws_diag d = WS_DIAG_INIT;
  ws_profile *p = NULL;
  assert_ok_diag(ws_profile_load_json(&p, json, "p.json", &d), &d);
  const ws_profile_mix *m = &p->mix;
  assert_int_equal(m->nwarps, 2);
  assert_int_equal(m->warps[0].block, 0);
  assert_int_equal(m->warps[0].warp, 1);
  assert_int_equal(m->warps[0].nops, 2);
  /* key order: unit int before fp32 (profile_mix.def) */
  assert_int_equal(m->warps[0].ops[0].key, ws_profile_mix_key_parse("int.add.int.reg"));
  assert_close(m->warps[0].ops[0].n, 4, 0);
  assert_int_equal(m->warps[0].ops[1].key, ws_profile_mix_key_parse("fp32.fma.float.reg"));
  assert_close(m->warps[0].ops[1].n, 2, 0);
  assert_close(m->warps[0].global_by_tpt[1], 3, 0);
  assert_close(m->warps[0].global_by_tpt[32], 1, 0);
  assert_close(m->warps[0].shared_by_degree[2], 5, 0);
  assert_int_equal(m->warps[1].block, 7);
  assert_int_equal(m->warps[1].nops, 0);
  assert_int_equal(m->nperiods, 3);
  assert_int_equal(m->periods[0].nops, 1);
  assert_close(m->periods[0].mem_insts, 2, 0);
  assert_close(m->periods[0].repeat, 3, 0);
  assert_close(m->periods[1].mem_insts, 0, 0); /* absent: 0 */
  assert_close(m->periods[1].repeat, 1, 0);    /* absent: 1 */
  assert_close(m->periods[2].mem_insts, 1, 0);
  ws_profile_free(p);
  ws_diag_free(&d);
}

/* Each entry's errors name its index. */
static void mix_errors(void **s) {
  (void)s;
  expect_error(HEAD ",\"warp_mix\":{\"heaviest_warps\":[{\"block\":0,\"warp\":0},{\"block\":1}]}}",
               "p.json: error: warp_mix.heaviest_warps[1].warp: missing");
  expect_error(HEAD ",\"warp_mix\":{\"heaviest_warps\":[{\"block\":0,\"warp\":0,"
                    "\"ops\":{\"int.add.int.rag\":1}}]}}",
               "warp_mix.heaviest_warps[0].ops.int.add.int.rag: unknown key");
  expect_error(HEAD ",\"warp_mix\":{\"heaviest_warps\":[{\"block\":0,\"warp\":0,"
                    "\"global_requests\":{\"33\":1}}]}}",
               "warp_mix.heaviest_warps[0].global_requests.33: expected a key from 1 to 32");
  expect_error(HEAD ",\"warp_mix\":{\"representative_warp\":{\"periods\":[{},{\"repeat\":0}]}}}",
               "warp_mix.representative_warp.periods[1].repeat: expected an integer >= 1, got 0");
  expect_error(HEAD ",\"warp_mix\":{\"representative_warp\":{\"periods\":[{\"mem_insts\":-1}]}}}",
               "warp_mix.representative_warp.periods[0].mem_insts: expected a non-negative number");
}

/* kothapalli's access groups: read in order, a degree below 1 refused at
 * its index. */
static void kothapalli_groups(void **s) {
  (void)s;
  const char *json = HEAD ",\"kothapalli\":{\"global_accesses\":[{\"count\":3,"
                          "\"threads_per_transaction\":4},{\"count\":1}],"
                          "\"shared_accesses\":[{\"count\":2,\"conflict_degree\":8}]}}";
  ws_diag d = WS_DIAG_INIT;
  ws_profile *p = NULL;
  assert_ok_diag(ws_profile_load_json(&p, json, "p.json", &d), &d);
  const ws_profile_kothapalli *k = p->kothapalli;
  assert_non_null(k);
  assert_int_equal(k->nglobal, 2);
  assert_close(k->global[0].count, 3, 0);
  assert_close(k->global[0].k, 4, 0);
  assert_close(k->global[1].count, 1, 0);
  assert_close(k->global[1].k, 1, 0); /* absent: 1 */
  assert_int_equal(k->nshared, 1);
  assert_close(k->shared[0].count, 2, 0);
  assert_close(k->shared[0].k, 8, 0);
  ws_profile_free(p);
  ws_diag_free(&d);
  expect_error(HEAD ",\"kothapalli\":{\"shared_accesses\":[{\"count\":1},{\"count\":1,"
                    "\"conflict_degree\":0.5}]}}",
               "kothapalli.shared_accesses[1].conflict_degree: expected a number >= 1, got 0.5");
}

/* A key of a field section that is no typo of a field is answered with the
 * section's fields, in profile_fields.def's order (parallelism: ilp, mlp). */
static void unknown_field_lists_known(void **s) {
  (void)s;
  expect_error(HEAD ",\"parallelism\":{\"zzzzzzzz\":1}}",
               "p.json: error: parallelism.zzzzzzzz: unknown field (known: ilp, mlp)");
}

/* Every key's name parses back to it; a name with a part missing, a part
 * too many or an unknown part is no key. */
static void key_names(void **s) {
  (void)s;
  char buf[64];
  for (unsigned k = 0; k < WS_MIX_NKEYS; k++)
    assert_int_equal(ws_profile_mix_key_parse(ws_profile_mix_key_name(k, buf, sizeof buf)), (int)k);
  /* unit fp32, op fma, float, imm: the order of profile_mix.def */
  assert_int_equal(ws_profile_mix_key_parse("fp32.fma.float.imm"),
                   (int)ws_mix_key(WS_MIX_UNIT_FP32, WS_MIX_OP_FMA, 1, 1));
  const char *bad[] = {"", "int", "int.add.int", "int.add.int.reg.x", "int.add.int.reg.",
                       "int..int.reg", "int.add.int.regs", "int.ad.int.reg", "Int.add.int.reg",
                       "int.add.double.reg", ".int.add.int.reg"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    if (ws_profile_mix_key_parse(bad[i]) != -1) print_error("accepted \"%s\"\n", bad[i]);
    assert_int_equal(ws_profile_mix_key_parse(bad[i]), -1);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(key_names),
      cmocka_unit_test(mix_read),
      cmocka_unit_test(mix_errors),
      cmocka_unit_test(kothapalli_groups),
      cmocka_unit_test(unknown_field_lists_known),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
