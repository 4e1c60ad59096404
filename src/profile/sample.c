/*
 * sample.c — which blocks a sampled profile runs (warpsight/profiler.h,
 * ws_prof_sample_plan; docs/profile.md, "Sampling").
 *
 * N blocks of a grid (gx, gy, gz) as a Hammersley point set: sample i
 * takes, in the grid's longest dimension, the centre of stratum i of N
 * ((i + 1/2) / N), and in the other two the radical inverses of i in base 2
 * and base 3, moved to the centre of their cells.  So a 2-D grid's sample
 * covers N distinct columns and rows spread over the whole grid (a linear
 * stride could put every sample in one column), and a 1-D grid's sample is
 * the centres of N equal strata.  Two samples that land on one block are
 * moved apart to the next free linear index, so there are exactly N.
 */
#include <stdlib.h>

#include "warpsight/profiler.h"

uint64_t ws_prof_sample_count(uint64_t total, uint64_t n) {
  return n == 0 || n >= total ? total : n;
}

/* The radical inverse of i in base b, plus half the smallest cell of the
 * first n points (b^k >= n), so that the points are cell centres. */
static double radical_inverse_centred(uint64_t i, unsigned b, uint64_t n) {
  double inv = 0, f = 1.0 / b;
  for (uint64_t x = i; x; x /= b, f /= b) inv += f * (double)(x % b);
  double cell = 1;
  for (uint64_t p = 1; p < n; p *= b) cell /= b;
  double u = inv + cell / 2;
  return u < 1 ? u : u - 1;
}

/* floor(u * extent), kept inside [0, extent). */
static uint64_t cell_of(double u, uint32_t extent) {
  uint64_t c = (uint64_t)(u * (double)extent);
  return c < extent ? c : (uint64_t)extent - 1;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

void ws_prof_sample_plan(uint64_t *out, const uint32_t grid[3], uint64_t n) {
  uint64_t total = (uint64_t)grid[0] * grid[1] * grid[2];
  uint64_t count = ws_prof_sample_count(total, n);
  if (count == total) {
    for (uint64_t b = 0; b < total; b++) out[b] = b;
    return;
  }
  /* The stratified dimension is the longest (the first on a tie); the
   * others take base 2 and base 3 in dimension order. */
  int strat = 0;
  for (int k = 1; k < 3; k++)
    if (grid[k] > grid[strat]) strat = k;
  for (uint64_t i = 0; i < count; i++) {
    uint64_t c[3];
    unsigned base = 2;
    for (int k = 0; k < 3; k++) {
      if (k == strat) {
        c[k] = (uint64_t)(((unsigned __int128)(2 * i + 1) * grid[k]) / (2 * (unsigned __int128)count));
      } else {
        c[k] = cell_of(radical_inverse_centred(i, base, count), grid[k]);
        base++;
      }
    }
    out[i] = (c[2] * grid[1] + c[1]) * grid[0] + c[0];
  }
  /* Distinct, in linear order: a repeat moves up to the next free index;
   * if that runs past the grid, the tail moves down. */
  qsort(out, count, sizeof *out, cmp_u64);
  for (uint64_t i = 1; i < count; i++)
    if (out[i] <= out[i - 1]) out[i] = out[i - 1] + 1;
  if (out[count - 1] >= total) {
    out[count - 1] = total - 1;
    for (uint64_t i = count - 1; i-- > 0;)
      if (out[i] >= out[i + 1]) out[i] = out[i + 1] - 1;
  }
}
