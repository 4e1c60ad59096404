/* ref_bankconf: reference for tests/corpus/bankconf.cu with
 * launch/bankconf.{b1,b2,b32,b33}.json (bank stride 1, 2, 32, 33).
 * Thread t of block b sums s[(t * bank + k) & 1023], k = 0..63, where s is
 * the block's 1024-float slice of in; same f32 adds in the same order:
 * bit-exact. Only threads with global index < 1000 write. */
#include "ref.h"

#define GRID 8
#define BLOCK 128
#define N 1000
#define SLICE 1024
#define ITERS 64

int main(int argc, char **argv) {
  static const char *const variants[] = {"b1", "b2", "b32", "b33", NULL};
  ref_ctx c;
  static float in[GRID * SLICE], e[N];
  ref_init(&c, argc, argv, variants);
  unsigned bank = (unsigned)atoi(c.variant + 1);
  ref_random_f32(in, GRID * SLICE, 20, 0, 1);
  for (int i = 0; i < N; i++) {
    unsigned b = (unsigned)i / BLOCK, t = (unsigned)i % BLOCK;
    float acc = 0.0f;
    for (unsigned k = 0; k < ITERS; k++)
      acc += in[b * SLICE + ((t * bank + k) & (SLICE - 1))];
    e[i] = acc;
  }
  ref_check_f32(&c, "out.bin", e, N, 0, 0, NULL);
  return ref_finish(&c);
}
