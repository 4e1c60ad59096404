/*
 * test_transit.c — the Transit equilibrium (warpsight/transit.h).
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

#include "warpsight/transit.h"

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
  assert_int_equal(ws_transit_solve(&eq, &tp, &d), WS_OK);
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
  assert_string_equal(ws_transit_bound_name(eq.bound), "thread");
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
      near(ws_transit_f(&tp, eq.k), ws_transit_g(&tp, eq.x), 1e-9);
      near(eq.cs_gops, z * eq.ms_gbs, 1e-9);
    }
}

static void bad_input(void **state) {
  (void)state;
  ws_diag d = WS_DIAG_INIT;
  ws_transit_eq eq;
  ws_transit_params tp = c2075_sp(0, 1);
  assert_int_equal(ws_transit_solve(&eq, &tp, &d), WS_EINVAL);
  assert_int_equal(d.errors, 1);
  assert_non_null(strstr(d.items[0].message, "n = 0"));
  tp = c2075_sp(512, NAN);
  assert_int_equal(ws_transit_solve(&eq, &tp, &d), WS_EINVAL);
  tp = c2075_sp(512, 1);
  tp.r = -1;
  assert_int_equal(ws_transit_solve(&eq, &tp, &d), WS_EINVAL);
  ws_diag_free(&d);
}

static void directions(void **state) {
  (void)state;
  /* The paper's remedies, by keyword (Section 2.4). */
  assert_non_null(strstr(ws_transit_explain(WS_TRANSIT_THREAD), "threads"));
  assert_non_null(strstr(ws_transit_explain(WS_TRANSIT_MEMORY),
                         "arithmetic intensity Z"));
  assert_non_null(strstr(ws_transit_explain(WS_TRANSIT_COMPUTATION),
                         "raise M"));
  assert_non_null(strstr(ws_transit_explain(WS_TRANSIT_CAPACITY),
                         "together"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(thread_bound),       cmocka_unit_test(computation_bound),
      cmocka_unit_test(memory_bound),       cmocka_unit_test(capacity_bound),
      cmocka_unit_test(at_delta_is_thread), cmocka_unit_test(at_pi_is_computation),
      cmocka_unit_test(no_dram),            cmocka_unit_test(balance_sweep),
      cmocka_unit_test(bad_input),          cmocka_unit_test(directions),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
