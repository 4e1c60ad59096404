/* ref_histo_atomic: reference for tests/corpus/histo_atomic.cu,
 * launch/histo_atomic.json. bins[data[i] % 100] counts; exact. */
#include "ref.h"

#define N 30000
#define NBINS 100

int main(int argc, char **argv) {
  ref_ctx c;
  static uint32_t data[N], e[NBINS];
  ref_init(&c, argc, argv, NULL);
  ref_random_u32(data, N, 22, 0, 99999);
  for (int i = 0; i < N; i++)
    e[data[i] % NBINS]++;
  ref_check_exact(&c, "bins.bin", e, NBINS, sizeof e[0]);
  return ref_finish(&c);
}
