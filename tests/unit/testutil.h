/* testutil.h — small helpers shared by the unit tests. */
#ifndef WS_TESTUTIL_H
#define WS_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpsight/model.h"
#include "warpsight/util.h"

/* |a - b| <= tol, with both values in the failure message. */
#define assert_close(a, b, tol)                                                   \
  do {                                                                            \
    double a_ = (a), b_ = (b);                                                    \
    if (!(fabs(a_ - b_) <= (tol))) {                                              \
      print_error("%s = %.9g, expected %.9g (tolerance %g)\n", #a, a_, b_, (double)(tol)); \
      fail();                                                                     \
    }                                                                             \
  } while (0)

/* Print the diagnostics, then fail, if status is not WS_OK. */
static inline void assert_ok_diag(int status, const ws_diag *d) {
  if (status != WS_OK) {
    char *s = ws_diag_format(d);
    print_error("status %d, diagnostics:\n%s\n", status, s ? s : "");
    free(s);
    fail();
  }
}

/* Fail, printing every diagnostic, unless d's formatted text holds `want`. */
static inline void assert_diag_has(const ws_diag *d, const char *want) {
  char *s = ws_diag_format(d);
  if (!s || !strstr(s, want)) {
    print_error("expected '%s' in:\n%s\n", want, s ? s : "");
    free(s);
    fail();
  }
  free(s);
}

/* A profile loaded from JSON text (origin "test"); the test fails, with the
 * diagnostics, if it does not load. */
static inline ws_profile *ws_test_profile(const char *json) {
  ws_diag d = WS_DIAG_INIT;
  ws_profile *p = NULL;
  assert_ok_diag(ws_profile_load_json(&p, json, "test", &d), &d);
  ws_diag_free(&d);
  return p;
}

/* A GPU loaded from JSON text (origin "gpu"); the test fails, with the
 * diagnostics, if it does not load. */
static inline ws_gpu *ws_test_gpu(const char *json) {
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g = NULL;
  assert_ok_diag(ws_gpu_load_json(&g, json, "gpu", &d), &d);
  ws_diag_free(&d);
  return g;
}

/* Runs `model` on a profile and a GPU given as JSON text (origins "test" and
 * "gpu") and returns the status: the profile load's where that fails (the
 * profile's sections are checked there), else the prediction's.  The GPU
 * must load.  The diagnostics of both loads and the prediction go to d; the
 * caller frees r and d. */
static inline int ws_test_predict(ws_model_result *r, ws_diag *d, const char *model,
                                  const char *profile_json, const char *gpu_json) {
  ws_profile *p;
  int st = ws_profile_load_json(&p, profile_json, "test", d);
  if (st != WS_OK) return st;
  ws_gpu *g;
  assert_ok_diag(ws_gpu_load_json(&g, gpu_json, "gpu", d), d);
  st = ws_model_predict(r, model, p, g, d);
  ws_gpu_free(g);
  ws_profile_free(p);
  return st;
}

#endif
