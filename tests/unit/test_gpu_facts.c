/* test_gpu_facts.c — the GPU facts every consumer reads (issue 20, item 1;
 * include/warpsight/gpu_facts.def): every database board has every one,
 * given or derived by a documented rule, none silently absent; a user's file
 * that lacks one no rule can give loads with a warning naming it; the rules'
 * values against hand arithmetic; the L1/shared carve-out; the serialised
 * document loads back to the same facts. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/facts.h"
#include "testutil.h"
#include "warpsight/gpu.h"

static size_t warnings_in(const ws_diag *d) {
  size_t n = 0;
  for (size_t i = 0; i < d->count; i++) n += d->items[i].severity == WS_SEV_WARNING;
  return n;
}

/* The completeness test: each database board loads with no warning, and
 * every fact of gpu_facts.def that is not OPTIONAL is given by the file,
 * derived by a rule (with the rule as its source), or "none" with the
 * reason (a unit the GPU does not have). */
static void every_board_has_every_fact(void **s) {
  (void)s;
  size_t n = ws_gpu_db_count();
  assert_true(n >= 68);
  for (size_t b = 0; b < n; b++) {
    ws_diag d = WS_DIAG_INIT;
    ws_gpu *g;
    assert_ok_diag(ws_gpu_load(&g, ws_gpu_db_name(b), &d), &d);
    if (warnings_in(&d)) {
      char *msg = ws_diag_format(&d);
      fail_msg("%s loads with a warning: %s", ws_gpu_db_name(b), msg ? msg : "");
    }
    for (int i = 0; i < WS_GF_COUNT; i++) {
      const ws_gf_info *in = &ws_gpu_fact_table[i];
      const ws_gf_state *st = &g->facts[i];
      if (in->level == WS_GFL_OPTIONAL) continue;
      if (st->origin == WS_GFO_ABSENT)
        fail_msg("%s lacks %s (read by %s)", g->name, in->path, in->consumers);
      if (st->origin == WS_GFO_DERIVED || st->origin == WS_GFO_NONE) {
        assert_non_null(st->source);
        assert_true(strncmp(st->source, "derived: ", 9) == 0);
        assert_true(st->note && *st->note);
      }
    }
    assert_true(g->dram.type[0] != '\0');
    assert_true(g->cache.l2_sector_bytes > 0);
    assert_true(g->sustained_clock_ghz > 0 && g->launch_overhead_us > 0);
    ws_gpu_free(g);
    ws_diag_free(&d);
  }
}

static const char *min_gpu =
    "{\"schema\":\"warpsight-gpu/1\",\"name\":\"m\",\"compute_capability\":\"%s\",\"sms\":68,"
    "\"cores_per_sm\":128,\"clock_ghz\":1.71,\"mem_bandwidth_gbs\":760%s%s}";

/* The minimal GPU with `extra` members; an empty "models" unless extra has
 * its own (a key given twice is an error). */
static ws_gpu *load_min(const char *cc, const char *extra, ws_diag *d) {
  char buf[2048];
  snprintf(buf, sizeof buf, min_gpu, cc, extra, strstr(extra, "\"models\"") ? "" : ",\"models\":{}");
  ws_gpu *g = NULL;
  assert_ok_diag(ws_gpu_load_json(&g, buf, "m.json", d), d);
  return g;
}

/* A file with neither cache.l2_bytes nor memory.bus_bits: it loads, and one
 * warning names both and what reads them (no cache turned off in silence);
 * with them, no warning. */
static void missing_fact_warns(void **s) {
  (void)s;
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g = load_min("8.6", "", &d);
  assert_int_equal(warnings_in(&d), 1);
  char *msg = ws_diag_format(&d);
  assert_non_null(strstr(msg, "cache.l2_bytes (read by profiler (L2 replay)"));
  assert_non_null(strstr(msg, "memory.bus_bits"));
  assert_null(strstr(msg, "cache.l1_bytes")); /* derived, not missing */
  free(msg);
  assert_int_equal(g->facts[WS_GF_L2_BYTES].origin, WS_GFO_ABSENT);
  ws_gpu_free(g);
  ws_diag_free(&d);
  g = load_min("8.6", ",\"cache\":{\"l2_bytes\":5242880},\"memory\":{\"bus_bits\":320}", &d);
  assert_int_equal(warnings_in(&d), 0);
  ws_gpu_free(g);
  ws_diag_free(&d);
}

/* The rules on a CC 8.6 board with a 320-bit bus and 760 GB/s, by hand:
 * memory clock 760e3 / (2 x 320 / 8) = 9500 MHz; 320 / 64 = 5 partitions;
 * 320 / 32 = 10 L2 slices; the 128 KB unified array with a 0 KB smallest
 * carve-out: 128 KB of L1, which ld.global.nc also uses; 32-byte L1
 * sectors; 4 and 16 ways; the clock held = the data-sheet clock; 3 us of
 * launch floor; the A100's latencies (575, 213, 36.1); 16 SFUs. */
static void rules_by_hand(void **s) {
  (void)s;
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g = load_min("8.6", ",\"cache\":{\"l2_bytes\":5242880},\"memory\":{\"bus_bits\":320}", &d);
  assert_close(g->dram.clock_mhz, 9500, 1e-9);
  assert_int_equal(g->dram.partitions, 5);
  assert_int_equal(g->dram.interleave_bytes, 256);
  assert_int_equal(g->cache.l2_slices, 10);
  assert_int_equal(g->cache.l1_shared_bytes, 131072);
  assert_int_equal(g->cache.l1_bytes, 131072);
  assert_int_equal(g->cache.readonly_bytes, 131072);
  assert_int_equal(g->cache.l1_sector_bytes, 32);
  assert_int_equal(g->cache.l1_assoc, 16); /* the assumption with hashed sets (gpu-parameters.md) */
  assert_int_equal(g->cache.l2_assoc, 16);
  assert_int_equal(g->cache.l2_line_bytes, 128);
  assert_int_equal(g->cache.l1_caches_global, 1);
  assert_close(g->sustained_clock_ghz, 1.71, 0);
  assert_close(g->launch_overhead_us, 3, 0);
  assert_close(g->lat.dram, 575, 0);
  assert_close(g->lat.l2, 213, 0);
  assert_close(g->lat.l1, 36.1, 0);
  assert_close(g->lat.fp32, 4, 0);
  assert_int_equal(g->sfu_per_sm, 16);
  assert_int_equal(g->facts[WS_GF_MEMORY_CLOCK_MHZ].origin, WS_GFO_DERIVED);
  assert_int_equal(g->facts[WS_GF_BUS_BITS].origin, WS_GFO_GIVEN);
  assert_true(isnan(g->tensor.fp16_f32acc)); /* optional: nothing derived */
  ws_gpu_free(g);
  /* The bus from a given memory clock: 760e3 x 8 / (2 x 9501) = 319.97 -> 320;
   * an HBM board's slices are per 64-bit pseudo-channel: 4096 / 64 = 64. */
  g = load_min("8.6", ",\"cache\":{\"l2_bytes\":5242880},\"memory\":{\"clock_mhz\":9501}", &d);
  assert_int_equal(g->dram.bus_bits, 320);
  assert_int_equal(g->facts[WS_GF_BUS_BITS].origin, WS_GFO_DERIVED);
  ws_gpu_free(g);
  g = load_min("7.0", ",\"cache\":{\"l2_bytes\":6291456},\"memory\":{\"bus_bits\":4096,\"type\":\"HBM2\"}", &d);
  assert_int_equal(g->cache.l2_slices, 64);
  assert_string_equal(g->dram.type, "HBM2");
  assert_close(g->launch_overhead_us, 5, 0); /* Volta: the TITAN V's measured floor */
  ws_gpu_free(g);
  /* Kepler: global loads bypass L1 (0 bytes), the 48 KB read-only cache of
   * CC 3.5 serves ld.global.nc, 128-byte L1 sectors (whole lines). */
  g = load_min("3.5", ",\"cache\":{\"l2_bytes\":1572864},\"memory\":{\"bus_bits\":384}", &d);
  assert_int_equal(g->cache.l1_caches_global, 0);
  assert_int_equal(g->cache.l1_bytes, 0);
  assert_int_equal(g->cache.readonly_bytes, 48 * 1024);
  assert_int_equal(g->cache.l1_sector_bytes, 128);
  assert_close(g->lat.dram, 331, 0);
  ws_gpu_free(g);
  /* Pascal: GP100 (6.0) caches global loads in its 24 KB L1/texture cache
   * by default, GP10x (6.1) in L2 only (Pascal Tuning Guide). */
  g = load_min("6.0", ",\"cache\":{\"l2_bytes\":4194304},\"memory\":{\"bus_bits\":4096}", &d);
  assert_int_equal(g->cache.l1_caches_global, 1);
  assert_int_equal(g->cache.l1_bytes, 24 * 1024);
  ws_gpu_free(g);
  g = load_min("6.1", ",\"cache\":{\"l2_bytes\":2097152},\"memory\":{\"bus_bits\":256}", &d);
  assert_int_equal(g->cache.l1_caches_global, 0);
  assert_int_equal(g->cache.l1_bytes, 0);
  assert_int_equal(g->cache.readonly_bytes, 48 * 1024);
  ws_gpu_free(g);
  /* A measured, fractional FP32 latency (4.13 cycles, Accel-Sim's TITAN V)
   * loads, and Transit's pi_sp_threads is a thread count: the minimal
   * file's 128 lanes x 4.13 = 528.64, rounded up to 529 (at most 2048). */
  g = load_min("7.0", ",\"cache\":{\"l2_bytes\":6291456},\"memory\":{\"bus_bits\":4096},"
               "\"latencies\":{\"fp32\":{\"value\":4.13,\"source\":\"x\"}}", &d);
  assert_close(ws_gpu_param_or(g, "transit", "pi_sp_threads", -1), 529, 0);
  ws_gpu_free(g);
  /* CC 1.x: no L2 (0 bytes, derived), no L1/L2 latency ("none"), the DRAM
   * latency from the file's own Mem_LD. */
  g = load_min("1.3", ",\"memory\":{\"bus_bits\":512},\"models\":{\"hong-kim\":{\"mem_ld\":450}}", &d);
  assert_int_equal(g->cache.l2_bytes, 0);
  assert_int_equal(g->facts[WS_GF_L2_BYTES].origin, WS_GFO_DERIVED);
  assert_int_equal(g->facts[WS_GF_LAT_L2].origin, WS_GFO_NONE);
  assert_true(isnan(g->lat.l2));
  assert_close(g->lat.dram, 450, 0);
  assert_int_equal(warnings_in(&d), 0);
  ws_gpu_free(g);
  ws_diag_free(&d);
}

/* The carve-out (docs/gpu-schema.md): the smallest capacity of the CC that
 * holds the resident blocks' shared memory leaves the rest of the unified
 * array to L1.  A100 (192 KB; 0..164 KB): none -> 192 KB; 50 KB -> the 64 KB
 * carve-out -> 128 KB; 164 KB -> 28 KB; 200 KB (more than any) -> the
 * largest, 164 KB -> 28 KB.  T4 (96 KB; 32 or 64 KB): none -> 64 KB; 40 KB
 * -> 32 KB.  K40: global loads bypass L1 -> 0.  C2050: the fixed 16 KB. */
static void carveout(void **s) {
  (void)s;
  static const struct {
    const char *gpu;
    long long shared;
    int l1;
  } cases[] = {
      {"a100", 0, 196608},       {"a100", 51200, 131072}, {"a100", 167936, 28672},
      {"a100", 204800, 28672},   {"t4", 0, 65536},        {"t4", 40000, 32768},
      {"k40", 0, 0},             {"k40", 40000, 0},       {"c2050", 40000, 16384},
      {"rtx3080", 102400, 28672}, {"h100-sxm", 0, 262144},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ws_diag d = WS_DIAG_INIT;
    ws_gpu *g;
    assert_ok_diag(ws_gpu_load(&g, cases[i].gpu, &d), &d);
    int got = ws_gpu_l1_bytes_for_shared(g, cases[i].shared);
    if (got != cases[i].l1)
      fail_msg("%s with %lld shared bytes: L1 %d, expected %d", cases[i].gpu, cases[i].shared, got,
               cases[i].l1);
    ws_gpu_free(g);
    ws_diag_free(&d);
  }
}

/* Every compute capability the occupancy table knows has a row of
 * cc_facts.def (else a board of that CC would derive nothing). */
static void cc_rows(void **s) {
  (void)s;
  for (int ma = 1; ma <= 12; ma++)
    for (int mi = 0; mi <= 9; mi++) {
      ws_sm_limits l;
      if (ws_gpu_sm_limits_for_cc(&l, ma, mi) != WS_OK) continue;
      if (!ws_gpu_cc_facts_known(ma, mi)) fail_msg("CC %d.%d has no row in cc_facts.def", ma, mi);
    }
}

/* `gpu --json` loads back to the same facts: the serialised derived facts
 * are marked, dropped at load and derived again to the same values. */
static void json_round_trip(void **s) {
  (void)s;
  for (size_t b = 0; b < ws_gpu_db_count(); b++) {
    ws_diag d = WS_DIAG_INIT;
    ws_gpu *g, *h;
    assert_ok_diag(ws_gpu_load(&g, ws_gpu_db_name(b), &d), &d);
    char *text = ws_gpu_to_json(g);
    assert_non_null(text);
    assert_ok_diag(ws_gpu_load_json(&h, text, "round.json", &d), &d);
    assert_int_equal(warnings_in(&d), 0);
    for (int i = 0; i < WS_GF_COUNT; i++) {
      if (g->facts[i].origin != h->facts[i].origin)
        fail_msg("%s: %s was %d, %d after the round trip", g->name, ws_gpu_fact_table[i].path,
                 g->facts[i].origin, h->facts[i].origin);
    }
    assert_memory_equal(&g->cache, &h->cache, sizeof g->cache);
    assert_int_equal(g->dram.bus_bits, h->dram.bus_bits);
    assert_string_equal(g->dram.type, h->dram.type);
    assert_true(g->dram.clock_mhz == h->dram.clock_mhz);
    assert_true(g->sustained_clock_ghz == h->sustained_clock_ghz);
    char *again = ws_gpu_to_json(h);
    cJSON *a = cJSON_Parse(text), *c = cJSON_Parse(again);
    static const char *const sections[] = {"cache", "memory", "latencies", "tensor",
                                           "sustained_clock_ghz", "launch_overhead_us"};
    for (size_t k = 0; k < sizeof sections / sizeof sections[0]; k++) {
      const cJSON *x = cJSON_GetObjectItemCaseSensitive(a, sections[k]),
                  *y = cJSON_GetObjectItemCaseSensitive(c, sections[k]);
      if ((x || y) && !cJSON_Compare(x, y, 1))
        fail_msg("%s: %s differs after the round trip", g->name, sections[k]);
    }
    cJSON_Delete(a);
    cJSON_Delete(c);
    free(again);
    free(text);
    ws_gpu_free(h);
    ws_gpu_free(g);
    ws_diag_free(&d);
  }
}

/* docs/gpu-schema.md documents every fact (its key appears in backquotes). */
/* warpsight's constants are per architecture and derived into every board
 * (src/gpu/derive.c, docs/gpu-parameters.md "warpsight"): no board file
 * carries a copy, two boards of one architecture derive the same per-unit
 * values and differ only in the facts that scale them (the GTX 970's 7 L2
 * slices against the TITAN X's 12); an architecture without data borrows the
 * nearest measured one's and says so. */
static void warpsight_constants_per_architecture(void **s) {
  (void)s;
  static const struct { const char *a, *b; int same; } pairs[] = {
      {"gtx970", "titan-x-maxwell", 1}, {"gtx680", "k20", 1},   {"rtx2060", "rtx2080ti", 1},
      {"rtx3060", "rtx3080", 1},        {"rtx3060", "rtx4090", 1}, {"rtx2060", "v100", 1},
      {"rtx2060", "rtx3060", 0},        {"gtx970", "rtx2060", 0},
  };
  static const ws_gp_id ids[] = {WS_GP_WARPSIGHT_ISSUE_RATE, WS_GP_WARPSIGHT_L2_BYTES_PER_SLICE,
                                 WS_GP_WARPSIGHT_LAUNCH_US, WS_GP_WARPSIGHT_ATOMIC_CYCLES};
  ws_diag d = WS_DIAG_INIT;
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
    ws_gpu *ga, *gb;
    assert_ok_diag(ws_gpu_load(&ga, pairs[i].a, &d), &d);
    assert_ok_diag(ws_gpu_load(&gb, pairs[i].b, &d), &d);
    int same = 1;
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
      assert_int_equal(ga->params[ids[k]].origin, WS_GP_DERIVED);
      assert_int_equal(gb->params[ids[k]].origin, WS_GP_DERIVED);
      same &= ws_gpu_p(ga, ids[k]) == ws_gpu_p(gb, ids[k]);
    }
    if (same != pairs[i].same) fail_msg("%s and %s: same constants %d, expected %d", pairs[i].a,
                                        pairs[i].b, same, pairs[i].same);
    ws_gpu_free(ga);
    ws_gpu_free(gb);
  }
  /* the facts that scale them differ */
  ws_gpu *m, *t, *v;
  assert_ok_diag(ws_gpu_load(&m, "gtx970", &d), &d);
  assert_ok_diag(ws_gpu_load(&t, "titan-x-maxwell", &d), &d);
  assert_int_equal(m->cache.l2_slices, 7);
  assert_int_equal(t->cache.l2_slices, 12);
  /* a borrowed architecture's note says whose constants it takes */
  assert_ok_diag(ws_gpu_load(&v, "v100", &d), &d);
  const char *note = v->params[WS_GP_WARPSIGHT_L2_BYTES_PER_SLICE].note;
  assert_non_null(note);
  assert_non_null(strstr(note, "estimate"));
  assert_non_null(strstr(note, "Turing"));
  ws_gpu_free(m), ws_gpu_free(t), ws_gpu_free(v);
  ws_diag_free(&d);
}

static void schema_documents_every_fact(void **s) {
  (void)s;
  FILE *f = fopen(WS_SOURCE_DIR "/docs/gpu-schema.md", "rb");
  assert_non_null(f);
  static char doc[400000];
  size_t n = fread(doc, 1, sizeof doc - 1, f);
  fclose(f);
  doc[n] = '\0';
  for (int i = 0; i < WS_GF_COUNT; i++) {
    const char *key = strrchr(ws_gpu_fact_table[i].path, '.');
    key = key ? key + 1 : ws_gpu_fact_table[i].path;
    char want[80];
    snprintf(want, sizeof want, "`%s`", key);
    if (!strstr(doc, want)) fail_msg("docs/gpu-schema.md does not document %s", ws_gpu_fact_table[i].path);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_board_has_every_fact), cmocka_unit_test(missing_fact_warns),
      cmocka_unit_test(rules_by_hand),              cmocka_unit_test(carveout),
      cmocka_unit_test(cc_rows),                    cmocka_unit_test(json_round_trip),
      cmocka_unit_test(schema_documents_every_fact),
      cmocka_unit_test(warpsight_constants_per_architecture),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
