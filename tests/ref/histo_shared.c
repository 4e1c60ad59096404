/* ref_histo_shared: reference for tests/corpus/histo_shared.cu,
 * launch/histo_shared.json. Counts the 50000 bytes into 256 bins; integer
 * sums do not depend on the order of the atomics: exact. */
#include "ref.h"

#define N 50000

int main(int argc, char **argv) {
  ref_ctx c;
  static uint8_t data[N];
  static uint32_t e[256];
  ref_init(&c, argc, argv, NULL);
  ref_random_u8(data, N, 21, 0, 255);
  for (int i = 0; i < N; i++)
    e[data[i]]++;
  ref_check_exact(&c, "bins.bin", e, 256, sizeof e[0]);
  return ref_finish(&c);
}
