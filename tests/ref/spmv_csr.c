/* ref_spmv_csr: reference for tests/corpus/spmv_csr.cu, launch/spmv_csr.json.
 * row_ptr is iota(0, 7): every row has 7 entries; col, val and x are
 * random. Each row is accumulated with fmaf in ascending k, as in the
 * kernel: bit-exact. */
#include "ref.h"

#define NROWS 3000
#define NCOLS 2000
#define PER_ROW 7
#define NNZ (NROWS * PER_ROW)

int main(int argc, char **argv) {
  ref_ctx c;
  static int32_t row_ptr[NROWS + 1], col[NNZ];
  static float val[NNZ], x[NCOLS], e[NROWS];
  ref_init(&c, argc, argv, NULL);
  for (int r = 0; r <= NROWS; r++)
    row_ptr[r] = PER_ROW * r;
  ref_random_s32(col, NNZ, 26, 0, NCOLS - 1);
  ref_random_f32(val, NNZ, 27, -1, 1);
  ref_random_f32(x, NCOLS, 28, -1, 1);
  for (int r = 0; r < NROWS; r++) {
    float sum = 0.0f;
    for (int k = row_ptr[r]; k < row_ptr[r + 1]; k++)
      sum = fmaf(val[k], x[col[k]], sum);
    e[r] = sum;
  }
  ref_check_f32(&c, "y.bin", e, NROWS, 0, 0, NULL);
  return ref_finish(&c);
}
