/* ref_scan: reference for tests/corpus/scan.cu, launch/scan.json.
 * Each block of 128 threads scans a 256-element segment: out[i] is the sum
 * of the segment's elements before i, sums[b] the segment total (elements
 * past n = 5000 count as 0). Integer sums: exact. */
#include "ref.h"

#define N 5000
#define SEG 256
#define GRID 20

int main(int argc, char **argv) {
  ref_ctx c;
  static int32_t in[N], e[N], sums[GRID];
  ref_init(&c, argc, argv, NULL);
  ref_random_s32(in, N, 24, -100, 100);
  for (int b = 0; b < GRID; b++) {
    int32_t run = 0;
    for (int i = b * SEG; i < (b + 1) * SEG && i < N; i++) {
      e[i] = run;
      run += in[i];
    }
    sums[b] = run;
  }
  ref_check_exact(&c, "out.bin", e, N, sizeof e[0]);
  ref_check_exact(&c, "sums.bin", sums, GRID, sizeof sums[0]);
  return ref_finish(&c);
}
