/*
 * test_emu_pool.c — the worker threads of a launch (pool.c): each part of
 * a run runs exactly once, part 0 on the caller and the others on threads
 * of their own; a thread woken for a run, which the pool puts on the
 * caller's CPUs less the caller's own until it starts (docs/emulator.md,
 * "Threads and determinism"), runs its part on all of the caller's CPUs;
 * and ws_emu_cores counts only the CPUs the process may run on.  Where
 * each part runs is the kernel's choice, so no test asserts a placement.
 */
#define _GNU_SOURCE /* sched_getcpu, sched_getaffinity, pthread_getaffinity_np, CPU_* */
#include <pthread.h>
#include <sched.h>

#include "testutil.h"

#include "emu/emu_int.h"

#define NPARTS 4

typedef struct rec {
  cpu_set_t want;      /* the caller's CPUs */
  int ran[NPARTS];     /* times each part ran */
  pthread_t th[NPARTS];/* the thread that ran it */
  int same[NPARTS];    /* 1: its thread's CPUs were `want` while it ran */
} rec;

static void part(void *arg, int i) {
  rec *r = arg;
  cpu_set_t m;
  r->ran[i]++;
  r->th[i] = pthread_self();
  r->same[i] = pthread_getaffinity_np(pthread_self(), sizeof m, &m) == 0 && CPU_EQUAL(&m, &r->want);
}

/* First in this file: ws_emu_cores reads the count once per process.
 * With the process on one CPU, one worker: more would only take turns. */
static void test_cores_follow_affinity(void **state) {
  (void)state;
  cpu_set_t all, one;
  assert_int_equal(sched_getaffinity(0, sizeof all, &all), 0);
  int cpu = sched_getcpu();
  assert_true(cpu >= 0 && CPU_ISSET(cpu, &all));
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  assert_int_equal(sched_setaffinity(0, sizeof one, &one), 0);
  int n = ws_emu_cores();
  assert_int_equal(sched_setaffinity(0, sizeof all, &all), 0);
  assert_int_equal(n, 1);
}

/* Runs of 1 to NPARTS parts, twice each (threads started, then reused):
 * every part once, on distinct threads, part 0 on the caller, each on the
 * caller's CPUs; a thread left steered by one run would fail the next. */
static void test_parts_on_callers_cpus(void **state) {
  (void)state;
  struct wpool *p = ws_emu_pool_new();
  assert_non_null(p);
  for (int round = 0; round < 2; round++)
    for (int n = 1; n <= NPARTS; n++) {
      rec r;
      memset(&r, 0, sizeof r);
      assert_int_equal(sched_getaffinity(0, sizeof r.want, &r.want), 0);
      assert_int_equal(ws_emu_pool_run(p, n, part, &r), n);
      for (int i = 0; i < n; i++) {
        if (r.ran[i] != 1) fail_msg("round %d, %d parts: part %d ran %d times", round, n, i, r.ran[i]);
        if (!r.same[i]) fail_msg("round %d, %d parts: part %d ran on other CPUs than its caller's", round, n, i);
        for (int k = 0; k < i; k++)
          if (pthread_equal(r.th[k], r.th[i])) fail_msg("round %d: parts %d and %d on one thread", round, k, i);
      }
      assert_true(pthread_equal(r.th[0], pthread_self()));
      for (int i = n; i < NPARTS; i++) assert_int_equal(r.ran[i], 0);
    }
  ws_emu_pool_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cores_follow_affinity),
      cmocka_unit_test(test_parts_on_callers_cpus),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
