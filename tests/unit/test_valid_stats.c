/* test_valid_stats.c — error statistics on small hand-computed data. */
#include "testutil.h"
#include "valid/valid_int.h"
#include "warpsight/valid.h"

/* measured m = 1 2 3 4 5, predicted p = 2 1 4 4 3
 * APE = |p-m|/m x 100 = 100, 50, 33.333, 0, 40
 * MAPE = 223.333 / 5 = 44.6667; sorted 0 33.3 40 50 100 -> median 40;
 * within 20 %: only the 0 -> 1/5 = 0.2.
 * ranks(m) = 1 2 3 4 5; ranks(p): 1->1, 2->2, 3->3, the two 4s share
 * (4+5)/2 = 4.5 -> 2 1 4.5 4.5 3.  Both have mean 3.
 * dm = -2 -1 0 1 2, dp = -1 -2 1.5 1.5 0
 * sum dm.dp = 2 + 2 + 0 + 1.5 + 0 = 5.5; sum dm^2 = 10; sum dp^2 = 1+4+2.25+2.25 = 9.5
 * rho = 5.5 / sqrt(10 x 9.5) = 5.5 / 9.7467943 = 0.5642881 */
static void test_hand_example(void **state) {
  (void)state;
  double m[] = {1, 2, 3, 4, 5}, p[] = {2, 1, 4, 4, 3};
  ws_valid_stats s;
  assert_int_equal(ws_valid_stats_compute(&s, m, p, 5), WS_OK);
  assert_int_equal(s.n, 5);
  assert_close(s.mape, 223.3333333 / 5, 1e-6);
  assert_close(s.median_ape, 40, 1e-9);
  assert_close(s.within20, 0.2, 1e-12);
  assert_close(s.spearman, 0.5642881, 1e-6);
}

/* p = 5 5 5 is constant -> rho undefined (NaN).
 * m = 10 20, p = 11 14 (even count): APE |11-10|/10 = 10 %, |14-20|/20 = 30 %
 * -> median (10 + 30) / 2 = 20; within 20 %: only the 10 % -> 1/2.
 * An APE of exactly 20 % counts as within. */
static void test_ties_even_and_boundaries(void **state) {
  (void)state;
  double m1[] = {1, 1, 2}, p1[] = {5, 5, 5};
  ws_valid_stats s;
  ws_valid_stats_compute(&s, m1, p1, 3);
  assert_true(isnan(s.spearman));
  double m2[] = {10, 20}, p2[] = {11, 14};
  ws_valid_stats_compute(&s, m2, p2, 2);
  assert_close(s.median_ape, 20, 1e-9);
  assert_close(s.within20, 0.5, 1e-12);
  assert_true(isnan(s.spearman)); /* 2 points: always +-1, so undefined (was 1.000) */
  /* exactly 20 % counts as within: |12 - 10| / 10 = 20 % */
  double m3[] = {10}, p3[] = {12};
  ws_valid_stats_compute(&s, m3, p3, 1);
  assert_close(s.within20, 1.0, 1e-12);
  assert_true(isnan(s.spearman)); /* n < 3 */
}

/* Pairs with NaN or non-positive measured time are skipped; none left -> n 0, NaN. */
static void test_skips(void **state) {
  (void)state;
  double m[] = {1, 0, 2, -1}, p[] = {NAN, 1, 3, 1};
  ws_valid_stats s;
  ws_valid_stats_compute(&s, m, p, 4);
  assert_int_equal(s.n, 1); /* only (2, 3): APE 50 */
  assert_close(s.mape, 50, 1e-12);
  ws_valid_stats_compute(&s, m, p, 0);
  assert_int_equal(s.n, 0);
  assert_true(isnan(s.mape));
}

/* ranks of 3 1 3 3 2: sorted 1(1) 2(2) 3 3 3 share (3+4+5)/3 = 4 */
static void test_ranks(void **state) {
  (void)state;
  double x[] = {3, 1, 3, 3, 2}, r[5];
  assert_int_equal(ws_valid_ranks(r, x, 5), WS_OK);
  assert_close(r[0], 4, 0);
  assert_close(r[1], 1, 0);
  assert_close(r[2], 4, 0);
  assert_close(r[3], 4, 0);
  assert_close(r[4], 2, 0);
  assert_close(ws_valid_error_pct(4, 3), -25, 1e-12);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hand_example),
      cmocka_unit_test(test_ties_even_and_boundaries),
      cmocka_unit_test(test_skips),
      cmocka_unit_test(test_ranks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
