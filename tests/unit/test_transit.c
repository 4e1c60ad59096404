/*
 * test_transit.c — the Transit equilibrium (model/transit.h).
 *
 * Machine: Tesla C2075, single precision, per SM, from Li et al. HPDC'15
 * Section 3: delta(SP) = (1536 threads, 8.93 GB/s), pi(SP) = (576, 24.8).
 *   a = slope of f = 8.93 / 1536            = 0.005813802 GB/s per thread
 *   b = slope of g = 24.8 / (576 Z)         GB/s per thread in CS
 *   H = ceiling of g = 24.8 / Z             GB/s
 * Each case below is solved by hand on the pair of linear pieces that holds
 * the intersection, and the other pairs are shown to miss.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"
#include "warpsight/model.h"
#include "model/transit.h"

static ws_transit_params c2075_sp(double n, double z) {
  return (ws_transit_params){n, 1536, 8.93, 576, 24.8, z};
}

static void near(double got, double want, double rel) {
  if (fabs(got - want) > rel * fabs(want) + 1e-12) {
    print_error("got %.10g, want %.10g\n", got, want);
    fail();
  }
}

static ws_transit_eq solve(ws_transit_params tp) {
  ws_diag d = WS_DIAG_INIT;
  ws_transit_eq eq;
  assert_int_equal(ws_model_transit_solve(&eq, &tp, &d), WS_OK);
  assert_int_equal(d.count, 0);
  ws_diag_free(&d);
  return eq;
}

/* n = 1024, Z = 8 ops/byte: b = 24.8/4608 = 0.005381944.
 * Slopes meet where a k = b (1024 - k): k = 1024 b / (a + b)
 *   = 5.511111 / 0.011195747 = 492.2504; x = 531.7496 < 576 (g sloping),
 *   k < 1536 (f sloping): thread bound.  r = a k = 2.861847 GB/s,
 *   CS = Z r = 22.89477 Gops/s. */
static void thread_bound(void **state) {
  (void)state;
  ws_transit_eq eq = solve(c2075_sp(1024, 8));
  assert_int_equal(eq.bound, WS_TRANSIT_THREAD);
  near(eq.k, 492.2504361, 1e-9);
  near(eq.x, 531.7495639, 1e-9);
  near(eq.ms_gbs, 2.861846611, 1e-9);
  near(eq.cs_gops, 22.89477289, 1e-9);
  assert_string_equal(ws_model_transit_bound_name(eq.bound), "thread");
}

/* n = 1536, Z = 8: the slopes would meet at k = 738.4, x = 797.6 > 576:
 * not on g's slope.  f sloping meets g flat (H = 3.1 GB/s):
 *   k = H / a = 3.1 / 0.005813802 = 533.2139, x = 1002.786 >= 576:
 * computation bound; CS = 24.8 (the ceiling), MS = 3.1. */
static void computation_bound(void **state) {
  (void)state;
  ws_transit_eq eq = solve(c2075_sp(1536, 8));
  assert_int_equal(eq.bound, WS_TRANSIT_COMPUTATION);
  near(eq.k, 533.2138858, 1e-9);
  near(eq.x, 1002.786114, 1e-9);
  near(eq.ms_gbs, 3.1, 1e-12);
  near(eq.cs_gops, 24.8, 1e-12);
  near(eq.g_ceiling_gbs, 3.1, 1e-12);
}

/* n = 3072 (more than a C2075 SM holds: the memory bound needs n > 1536
 * on this GPU), Z = 1: b = 24.8/576 = 0.04305556, H = 24.8.
 * Slopes: k = 3072 b/(a+b) = 2706.5 > 1536: misses.  f flat meets g
 * sloping: x = R / b = 8.93 / 0.04305556 = 207.4065 <= 576,
 * k = 2864.594 >= 1536: memory bound, MS = 8.93, CS = 8.93. */
static void memory_bound(void **state) {
  (void)state;
  ws_transit_eq eq = solve(c2075_sp(3072, 1));
  assert_int_equal(eq.bound, WS_TRANSIT_MEMORY);
  near(eq.x, 207.4064516, 1e-9);
  near(eq.k, 2864.593548, 1e-9);
  near(eq.ms_gbs, 8.93, 1e-12);
  near(eq.cs_gops, 8.93, 1e-9);
}

/* Z = 24.8 / 8.93 = 2.777156 makes M/Z = R (machine balance); with
 * n = 2560 >= 1536 + 576 both curves are flat on k in [1536, 1984]:
 * capacity bound; the least such k is reported.  MS = 8.93, CS = 24.8. */
static void capacity_bound(void **state) {
  (void)state;
  ws_transit_eq eq = solve(c2075_sp(2560, 24.8 / 8.93));
  assert_int_equal(eq.bound, WS_TRANSIT_CAPACITY);
  near(eq.k, 1536, 1e-9);
  near(eq.ms_gbs, 8.93, 1e-9);
  near(eq.cs_gops, 24.8, 1e-9);
  /* Within 1 % of balance is still capacity bound (WS_TRANSIT_CAPACITY_TOL):
   * Z = 24.8/8.93 x 1.005 gives H = 8.8856, 0.5 % below R. */
  eq = solve(c2075_sp(2560, 24.8 / 8.93 * 1.005));
  assert_int_equal(eq.bound, WS_TRANSIT_CAPACITY);
  /* 3 % off is not: H = 8.93/1.03 = 8.67 < R, f sloping meets g flat at
   * k = 8.6699/0.0058138 = 1491.3 < 1536: computation bound. */
  eq = solve(c2075_sp(2560, 24.8 / 8.93 * 1.03));
  assert_int_equal(eq.bound, WS_TRANSIT_COMPUTATION);
  near(eq.k, 1536 / 1.03, 1e-9);
}

/* An intersection exactly at delta is thread bound (paper, Fig. 13/14:
 * "becomes thread bound when g(x) coincides delta").  With n = 1824,
 * x = 288 at k = 1536 needs b 288 = 8.93: Z = 24.8 x 288 / (576 x 8.93). */
static void at_delta_is_thread(void **state) {
  (void)state;
  ws_transit_eq eq = solve(c2075_sp(1824, 24.8 * 288 / (576 * 8.93)));
  assert_int_equal(eq.bound, WS_TRANSIT_THREAD);
  near(eq.k, 1536, 1e-9);
  near(eq.ms_gbs, 8.93, 1e-9);
}

/* Exactly at pi is computation bound (Fig. 11: "until pi touches f(k)").
 * n = 1152: x = 576 at k = 576 needs H = a 576 = 3.34875: Z = 24.8/3.34875. */
static void at_pi_is_computation(void **state) {
  (void)state;
  ws_transit_eq eq = solve(c2075_sp(1152, 24.8 / (8.93 / 1536 * 576)));
  assert_int_equal(eq.bound, WS_TRANSIT_COMPUTATION);
  near(eq.x, 576, 1e-9);
  near(eq.cs_gops, 24.8, 1e-9);
}

/* No DRAM traffic: g = 0, all n threads compute; n = 256 < M = 576 gives
 * CS = 24.8 x 256/576 = 11.02222 and thread bound; n = 1024 computation. */
static void no_dram(void **state) {
  (void)state;
  ws_transit_eq eq = solve(c2075_sp(256, INFINITY));
  assert_int_equal(eq.bound, WS_TRANSIT_THREAD);
  near(eq.cs_gops, 24.8 * 256 / 576, 1e-12);
  assert_true(eq.ms_gbs == 0);
  eq = solve(c2075_sp(1024, INFINITY));
  assert_int_equal(eq.bound, WS_TRANSIT_COMPUTATION);
  near(eq.cs_gops, 24.8, 1e-12);
}

/* Flow balance holds at every solution: f(k) = g(x), k + x = n. */
static void balance_sweep(void **state) {
  (void)state;
  for (double n = 32; n <= 4096; n *= 1.7)
    for (double z = 0.05; z < 200; z *= 1.9) {
      ws_transit_params tp = c2075_sp(n, z);
      ws_transit_eq eq = solve(tp);
      near(eq.k + eq.x, n, 1e-12);
      near(ws_model_transit_f(&tp, eq.k), ws_model_transit_g(&tp, eq.x), 1e-9);
      near(eq.cs_gops, z * eq.ms_gbs, 1e-9);
    }
}

static void bad_input(void **state) {
  (void)state;
  ws_diag d = WS_DIAG_INIT;
  ws_transit_eq eq;
  ws_transit_params tp = c2075_sp(0, 1);
  assert_int_equal(ws_model_transit_solve(&eq, &tp, &d), WS_EINVAL);
  assert_int_equal(d.errors, 1);
  assert_non_null(strstr(d.items[0].message, "n = 0"));
  tp = c2075_sp(512, NAN);
  assert_int_equal(ws_model_transit_solve(&eq, &tp, &d), WS_EINVAL);
  tp = c2075_sp(512, 1);
  tp.r = -1;
  assert_int_equal(ws_model_transit_solve(&eq, &tp, &d), WS_EINVAL);
  ws_diag_free(&d);
}

static void directions(void **state) {
  (void)state;
  /* The paper's remedies, by keyword (Section 2.4). */
  assert_non_null(strstr(ws_model_transit_explain(WS_TRANSIT_THREAD), "threads"));
  assert_non_null(strstr(ws_model_transit_explain(WS_TRANSIT_MEMORY),
                         "arithmetic intensity Z"));
  assert_non_null(strstr(ws_model_transit_explain(WS_TRANSIT_COMPUTATION),
                         "raise M"));
  assert_non_null(strstr(ws_model_transit_explain(WS_TRANSIT_CAPACITY),
                         "together"));
}

/* The model on hand-written profiles ----------------------------------------
 *
 * GPU: the C2075 transition points above, 14 SMs at 1.15 GHz, 32-byte DRAM
 * transactions, DP points (768, 9.29) and (384, 14) from the same section.
 * Launch: 140 blocks of 256 threads = 1120 warps, 14 active SMs.
 * Per warp 200 + 50 + 6 = 256 instructions, so the launch executes
 *   W = 256 x 1120 x 32 = 9 175 040 thread instructions.
 * n = active blocks x 8 warps x 32 threads; Z = W / DRAM bytes;
 * time = W / (CS throughput x 14 SMs).
 */
static const char gpu_json[] =
    "{\"schema\":\"warpsight-gpu/1\",\"name\":\"t-c2075\",\"compute_capability\":\"2.0\","
    "\"sms\":14,\"cores_per_sm\":32,\"clock_ghz\":1.15,\"mem_bandwidth_gbs\":144,"
    "\"cache\":{\"l2_sector_bytes\":32},"
    "\"models\":{\"transit\":{\"delta_sp_threads\":1536,\"delta_sp_gbs\":8.93,"
    "\"pi_sp_threads\":576,\"pi_sp_value\":24.8,\"delta_dp_threads\":768,"
    "\"delta_dp_gbs\":9.29,\"pi_dp_threads\":384,\"pi_dp_value\":14}}}";

static const char gpu_bare_json[] =
    "{\"schema\":\"warpsight-gpu/1\",\"name\":\"bare\",\"derive\":false,\"compute_capability\":\"2.0\","
    "\"sms\":14,\"cores_per_sm\":32,\"clock_ghz\":1.15,\"mem_bandwidth_gbs\":144}";

/* A profile with `blocks_per_sm` resident blocks and the given sections. */
static ws_profile *profile(int blocks_per_sm, const char *per_warp_extra,
                           const char *memory) {
  char buf[2048];
  snprintf(buf, sizeof buf,
           "{\"schema\":\"warpsight-profile/1\",\"kernel\":\"k\","
           "\"launch\":{\"grid\":[140,1,1],\"block\":[256,1,1]},"
           "\"occupancy\":{\"active_blocks_per_sm\":%d},"
           "\"per_warp\":{\"comp_insts\":200,\"coal_mem_insts\":50,"
           "\"uncoal_mem_insts\":6%s},\"memory\":{%s}}",
           blocks_per_sm, per_warp_extra, memory);
  return ws_test_profile(buf);
}

static ws_model_result run(ws_profile *p, const char *gjson, int want) {
  ws_gpu *g = ws_test_gpu(gjson);
  ws_diag d = WS_DIAG_INIT;
  ws_model_result r = WS_MODEL_RESULT_INIT;
  int st = ws_model_predict(&r, "transit", p, g, &d);
  if (want == WS_OK) assert_ok_diag(st, &d);
  assert_int_equal(st, want);
  ws_diag_free(&d);
  ws_gpu_free(g);
  ws_profile_free(p);
  return r;
}

#define T(id) ws_model_term_value(&r, WS_TERM_TRANSIT_##id)

/* n = 4 x 256 = 1024, DRAM 917 504 + 229 376 = 1 146 880 bytes:
 * Z = 9 175 040 / 1 146 880 = 8 ops/byte, the thread-bound case above:
 * k = 492.2504, CS = 22.89477 Gops/s per SM.
 *   time = 9 175 040 / (22.89477e9 x 14) = 2.862487e-5 s = 0.02862487 ms
 *   cycles = 2.862487e-5 x 1.15e9 = 32918.61.
 * Paper's Z: 286 720 warp insts / (1 146 880 / 32 = 35 840 txns) = 8. */
static void model_thread_bound(void **state) {
  (void)state;
  ws_model_result r = run(profile(4, "", "\"dram_read_bytes\":917504,"
                                        "\"dram_write_bytes\":229376"),
                          gpu_json, WS_OK);
  assert_string_equal(r.case_label, "thread bound");
  assert_int_equal(r.bound, WS_BOUND_TRANSIT_THREAD);
  assert_non_null(strstr(ws_model_limiter(&r), "raise n"));
  assert_close(T(N), 1024, 0);
  assert_close(T(Z), 8, 1e-12);
  assert_close(T(Z_OPS_PER_BYTE), 8, 1e-12);
  assert_close(T(PRECISION_DP), 0, 0);
  assert_close(T(K_EQ), 492.2504361, 1e-6);
  assert_close(T(CS_THROUGHPUT), 22.89477289, 1e-7);
  assert_close(T(BOUND), WS_TRANSIT_THREAD, 0);
  assert_close(r.time_ms, 0.02862487447, 1e-10);
  assert_close(r.cycles, 32918.60564, 1e-4);
  ws_model_result_free(&r);
}

/* n = 6 x 256 = 1536 with Z = 8: computation bound, CS = 24.8:
 * time = 9 175 040 / (24.8e9 x 14) = 0.02642581 ms. */
static void model_computation_bound(void **state) {
  (void)state;
  ws_model_result r = run(profile(6, "", "\"dram_read_bytes\":1146880"),
                          gpu_json, WS_OK);
  assert_string_equal(r.case_label, "computation bound");
  assert_int_equal(r.bound, WS_BOUND_TRANSIT_COMPUTATION);
  assert_non_null(strstr(ws_model_limiter(&r), "wider computation system"));
  assert_close(T(K_EQ), 533.2138858, 1e-6);
  assert_close(T(CS_THROUGHPUT), 24.8, 1e-12);
  assert_close(r.time_ms, 0.02642580645, 1e-10);
  ws_model_result_free(&r);
}

/* n = 12 x 256 = 3072 (a hand-written occupancy beyond the C2075's 1536
 * threads: on this GPU the memory bound needs n > k_delta = 1536) and
 * Z = 1 (DRAM bytes = W): memory bound, CS = Z R = 8.93:
 * time = 9 175 040 / (8.93e9 x 14) = 0.07338858 ms. */
static void model_memory_bound(void **state) {
  (void)state;
  ws_model_result r = run(profile(12, "", "\"dram_read_bytes\":9175040"),
                          gpu_json, WS_OK);
  assert_string_equal(r.case_label, "memory bound");
  assert_int_equal(r.bound, WS_BOUND_TRANSIT_MEMORY);
  assert_non_null(strstr(ws_model_limiter(&r), "raise Z or R"));
  assert_close(T(MS_THROUGHPUT), 8.93, 1e-12);
  assert_close(r.time_ms, 0.07338857783, 1e-10);
  ws_model_result_free(&r);
}

/* n = 10 x 256 = 2560 >= 1536 + 576 and 3 303 744 DRAM bytes:
 * Z = 9 175 040 / 3 303 744 = 2.777164, M/Z = 8.929972, within 0.0003 %
 * of R = 8.93: capacity bound.  M/Z < R, so the exact intersection is on
 * g's flat part: CS = 24.8, time as in the computation case. */
static void model_capacity_bound(void **state) {
  (void)state;
  ws_model_result r = run(profile(10, "", "\"dram_read_bytes\":3303744"),
                          gpu_json, WS_OK);
  assert_string_equal(r.case_label, "capacity bound");
  assert_int_equal(r.bound, WS_BOUND_TRANSIT_CAPACITY);
  assert_non_null(strstr(ws_model_limiter(&r), "grow together"));
  assert_close(T(CS_THROUGHPUT), 24.8, 1e-9);
  assert_close(r.time_ms, 0.02642580645, 1e-9);
  ws_model_result_free(&r);
}

/* 60 of 100 FP instructions are double precision: the DP points.  With
 * n = 1024 and Z = 8: a = 9.29/768, H = 14/8 = 1.75 GB/s; slopes would
 * meet at x = 743.8 > 384, so f's slope meets g's ceiling at
 * k = 1.75 / (9.29/768) = 144.67, x = 879.3 >= 384: computation bound,
 * CS = 14; time = 9 175 040 / (14e9 x 14) = 0.04681143 ms. */
static void model_double_precision(void **state) {
  (void)state;
  ws_model_result r =
      run(profile(4, ",\"fp_insts\":100,\"fp64_insts\":60",
                  "\"dram_read_bytes\":1146880"),
          gpu_json, WS_OK);
  assert_close(T(PRECISION_DP), 1, 0);
  assert_close(T(PI_VALUE), 14, 0);
  assert_close(T(DELTA_THREADS), 768, 0);
  assert_string_equal(r.case_label, "computation bound");
  assert_close(T(K_EQ), 1.75 / (9.29 / 768), 1e-9);
  assert_close(r.time_ms, 0.04681142857, 1e-10);
  ws_model_result_free(&r);
  /* 40 of 100 is a minority: SP. */
  r = run(profile(4, ",\"fp_insts\":100,\"fp64_insts\":40",
                  "\"dram_read_bytes\":1146880"),
          gpu_json, WS_OK);
  assert_close(T(PRECISION_DP), 0, 0);
  ws_model_result_free(&r);
}

/* Without DRAM bytes: 56 memory insts x 2 transactions x 0.5 miss ratio
 * x 32 bytes x 1120 warps = 2 007 040 bytes; Z = 9 175 040 / 2 007 040
 * = 4.571429 ops/byte. */
static void model_traffic_from_transactions(void **state) {
  (void)state;
  /* Issue 13: avg_trans_warp counts the GPU's own transactions, 128-byte
   * lines on this Fermi GPU (gpuperf.transaction_bytes, derived for CC 2.0),
   * not 32-byte sectors: 56 mem insts x 1120 warps x 2 x 0.5 x 128 B =
   * 8 028 160 bytes (the code before the fix took 32 B: 2 007 040), and
   * Z = 9 175 040 / 8 028 160 = 1.142857 ops/byte. */
  ws_model_result r = run(profile(4, "", "\"avg_trans_warp\":2,\"miss_ratio\":0.5"),
                          gpu_json, WS_OK);
  assert_close(T(DRAM_BYTES), 8028160, 0);
  assert_close(T(TRANSACTION_BYTES), 128, 0);
  assert_close(T(DRAM_BYTES_MEASURED), 0, 0);
  assert_close(T(Z_OPS_PER_BYTE), 9175040.0 / 8028160.0, 1e-12);
  ws_model_result_free(&r);
  /* A Kepler-style GPU file stating 32-byte transactions keeps 32 B. */
  char kepler[1024];
  snprintf(kepler, sizeof kepler, "%.*s,\"gpuperf\":{\"transaction_bytes\":32}}}",
           (int)(sizeof gpu_json - 1 - 2), gpu_json);
  r = run(profile(4, "", "\"avg_trans_warp\":2,\"miss_ratio\":0.5"), kepler, WS_OK);
  assert_close(T(DRAM_BYTES), 2007040, 0);
  ws_model_result_free(&r);
}

/* 1e306 instructions per warp overflow W: an error, not an infinite time. */
static void model_overflow(void **state) {
  (void)state;
  ws_model_result r = WS_MODEL_RESULT_INIT;
  ws_profile *p = profile(4, "", "\"dram_read_bytes\":1146880");
  p->f.comp_insts = 1e306;
  r = run(p, gpu_json, WS_EINVAL);
  ws_model_result_free(&r);
}

static void model_missing_inputs(void **state) {
  (void)state;
  ws_model_result r = run(profile(4, "", "\"dram_read_bytes\":1146880"),
                          gpu_bare_json, WS_EMISSING);
  assert_true(r.nmissing >= 4);
  assert_non_null(strstr(r.missing[0], "models.transit.delta_sp_threads"));
  ws_model_result_free(&r);
  r = run(profile(4, "", "\"miss_ratio\":0.5"), gpu_json, WS_EMISSING);
  assert_int_equal(r.nmissing, 1);
  assert_string_equal(r.missing[0], "memory.dram_read_bytes");
  ws_model_result_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(thread_bound),       cmocka_unit_test(computation_bound),
      cmocka_unit_test(memory_bound),       cmocka_unit_test(capacity_bound),
      cmocka_unit_test(at_delta_is_thread), cmocka_unit_test(at_pi_is_computation),
      cmocka_unit_test(no_dram),            cmocka_unit_test(balance_sweep),
      cmocka_unit_test(bad_input),          cmocka_unit_test(directions),
      cmocka_unit_test(model_thread_bound), cmocka_unit_test(model_computation_bound),
      cmocka_unit_test(model_memory_bound), cmocka_unit_test(model_capacity_bound),
      cmocka_unit_test(model_double_precision),
      cmocka_unit_test(model_traffic_from_transactions),
      cmocka_unit_test(model_missing_inputs), cmocka_unit_test(model_overflow),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
