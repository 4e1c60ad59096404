/*
 * suggest.c — "did you mean" (util/suggest.h), shared by the launch-spec,
 * GPU-file and profile loaders.
 */
#include "util/suggest.h"

#include <string.h>

int ws_suggest_distance(const char *a, const char *b) {
  size_t m = strlen(a), n = strlen(b);
  if (m > 31 || n > 31) return 3;
  int t[32][32];
  for (size_t i = 0; i <= m; i++) t[i][0] = (int)i;
  for (size_t j = 0; j <= n; j++) t[0][j] = (int)j;
  for (size_t i = 1; i <= m; i++)
    for (size_t j = 1; j <= n; j++) {
      int v = t[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      if (t[i - 1][j] + 1 < v) v = t[i - 1][j] + 1;
      if (t[i][j - 1] + 1 < v) v = t[i][j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && t[i - 2][j - 2] + 1 < v)
        v = t[i - 2][j - 2] + 1;
      t[i][j] = v;
    }
  return t[m][n] < 3 ? t[m][n] : 3;
}

const char *ws_suggest(const char *name, const char *const *known) {
  const char *best = NULL;
  int bd = 3;
  for (int i = 0; known[i]; i++) {
    int dd = ws_suggest_distance(name, known[i]);
    if (dd < bd && (dd == 1 || (dd == 2 && strlen(known[i]) >= 5))) {
      bd = dd;
      best = known[i];
    }
  }
  return best;
}
