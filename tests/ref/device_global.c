/* ref_device_global: reference for tests/corpus/device_global.cu,
 * launch/device_global.json. out[i] = lut[in[i] & 15] * 1000 + (in[i] >> 4)
 * in u32 arithmetic (wrapping): exact. */
#include "ref.h"

#define N 5000

static const uint32_t lut[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};

int main(int argc, char **argv) {
  ref_ctx c;
  static uint32_t in[N], e[N];
  ref_init(&c, argc, argv, NULL);
  ref_random_u32(in, N, 38, 0, 4294967295LL);
  for (int i = 0; i < N; i++)
    e[i] = lut[in[i] & 15] * 1000u + (in[i] >> 4);
  ref_check_exact(&c, "out.bin", e, N, sizeof e[0]);
  return ref_finish(&c);
}
