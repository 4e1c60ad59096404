/* ref_printf_kernel: reference for tests/corpus/printf_kernel.cu,
 * launch/printf_kernel.json. The kernel writes no buffer; its output is
 * what it prints. The test that runs the emulator saves the kernel's
 * printf output as OUT_DIR/stdout.txt; this program checks that file holds
 * exactly the ten expected lines
 *     i=<i> v=<v[i]> half=<v[i] * 0.5f, "%.3f">      i = 0, 100, ..., 900
 * in any order (the order of lines from different threads is unspecified),
 * each once, and nothing else. --write-expected writes them in order of i. */
#include "ref.h"

#define N 1000
#define NLINES 10

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int main(int argc, char **argv) {
  ref_ctx c;
  static int32_t v[N];
  static char expected[NLINES][64];
  char *exp_sorted[NLINES], path[4096], line[256];
  ref_init(&c, argc, argv, NULL);
  ref_random_s32(v, N, 36, -500, 500);
  for (int k = 0; k < NLINES; k++) {
    int i = 100 * k;
    snprintf(expected[k], sizeof expected[k], "i=%d v=%d half=%.3f", i, v[i], (double)(v[i] * 0.5f));
    exp_sorted[k] = expected[k];
  }
  ref_path(path, sizeof path, &c, "stdout.txt");
  if (c.write_expected) {
    FILE *f = fopen(path, "w");
    for (int k = 0; f && k < NLINES; k++)
      fprintf(f, "%s\n", expected[k]);
    if (!f || fclose(f) != 0)
      ref_note(&c, 2);
    return ref_finish(&c);
  }
  FILE *f = fopen(path, "r");
  if (!f) {
    printf("stdout.txt: missing output %s\n", path);
    ref_note(&c, 2);
    return ref_finish(&c);
  }
  char *got[NLINES + 1];
  int n = 0, extra = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    if (n < NLINES) {
      got[n] = ref_alloc(strlen(line) + 1, 1);
      strcpy(got[n++], line);
    } else {
      extra++;
    }
  }
  fclose(f);
  qsort(exp_sorted, NLINES, sizeof exp_sorted[0], cmp_str);
  qsort(got, (size_t)n, sizeof got[0], cmp_str);
  int bad = 0;
  for (int k = 0; k < n; k++)
    if (strcmp(got[k], exp_sorted[k]) != 0) {
      if (bad++ < 5)
        printf("stdout.txt: line '%s' where '%s' was expected (sorted order)\n", got[k], exp_sorted[k]);
    }
  printf("stdout.txt: %d lines read, %d expected, %d extra, %d differ\n", n + extra, NLINES, extra, bad);
  if (n < NLINES)
    ref_note(&c, 2);
  else if (bad || extra)
    ref_note(&c, 1);
  for (int k = 0; k < n; k++)
    free(got[k]);
  return ref_finish(&c);
}
