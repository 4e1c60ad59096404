/*
 * api_table.c — prints docs/exec.md's table of the runtime's entry points
 * from the runtime's own table (src/cudart/api.def), so that the two cannot
 * drift: tests/programs/api_doc.sh compares its output with the doc.
 * Regenerate the doc's table with `build/tests/programs/api_table`.
 */
#include <stdio.h>

typedef struct api {
  const char *name, *status, *note;
} api;

static const api table[] = {
#define API(name, status, note) {#name, #status, note},
#include "cudart/api.def"
#undef API
};

int main(void) {
  size_t n[3] = {0, 0, 0};
  static const char *status[3] = {"SUPPORTED", "PARTIAL", "NOT"};
  static const char *words[3] = {"supported", "partial", "not supported"};
  for (size_t i = 0; i < sizeof table / sizeof *table; i++)
    for (int s = 0; s < 3; s++) n[s] += table[i].status[0] == status[s][0];
  printf("%zu entry points: %zu supported, %zu partial, %zu not supported.\n\n",
         sizeof table / sizeof *table, n[0], n[1], n[2]);
  printf("| entry point | status | note |\n|---|---|---|\n");
  for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
    int s = table[i].status[0] == 'S' ? 0 : table[i].status[0] == 'P' ? 1 : 2;
    printf("| `%s` | %s | %s |\n", table[i].name, words[s], table[i].note);
  }
  return 0;
}
