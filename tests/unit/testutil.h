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

#endif
