/* ref_listrank: reference for tests/corpus/listrank.cu, launch/listrank.json.
 * Reads the committed successor list (launch/listrank_succ.bin, made by
 * regen.sh), checks that it is a single list through all n nodes, and ranks
 * it by walking from the head: the node k links before the tail has rank k.
 * Integer result: exact. */
#include "ref.h"

#define N 1000

#ifndef WS_CORPUS_DIR
#error "WS_CORPUS_DIR must name tests/corpus"
#endif

int main(int argc, char **argv) {
  ref_ctx c;
  static int32_t succ[N], e[N], order[N];
  static unsigned char has_pred[N];
  ref_init(&c, argc, argv, NULL);
  FILE *f = fopen(WS_CORPUS_DIR "/launch/listrank_succ.bin", "rb");
  if (!f || fread(succ, sizeof succ[0], N, f) != N) {
    fprintf(stderr, "%s: cannot read launch/listrank_succ.bin\n", c.prog);
    return 2;
  }
  fclose(f);
  for (int i = 0; i < N; i++) {
    if (succ[i] < -1 || succ[i] >= N || (succ[i] >= 0 && has_pred[succ[i]]++)) {
      fprintf(stderr, "%s: listrank_succ.bin is not a list (node %d)\n", c.prog, i);
      return 2;
    }
  }
  int head = 0, len = 0;
  while (head < N && has_pred[head])
    head++;
  for (int v = head; v >= 0 && v < N && len < N; v = succ[v])
    order[len++] = v;
  if (len != N || succ[order[N - 1]] != -1) {
    fprintf(stderr, "%s: listrank_succ.bin is not one list through all nodes\n", c.prog);
    return 2;
  }
  for (int k = 0; k < N; k++)
    e[order[k]] = N - 1 - k;
  ref_check_exact(&c, "rank.bin", e, N, sizeof e[0]);
  return ref_finish(&c);
}
