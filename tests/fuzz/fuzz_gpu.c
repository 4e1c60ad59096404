/*
 * fuzz_gpu.c — libFuzzer entry point for the GPU-file loader.
 *
 * For every input: load it as a warpsight-gpu/1 document; when it loads,
 * the checked values must keep the occupancy calculator and the parameter
 * readers safe, so compute the occupancy of a few block shapes and read
 * every top-level model table's parameters.  A crash, a sanitizer report
 * (division by zero, signed overflow), a loaded GPU with a non-positive
 * count, or an occupancy above 1 is a finding.  See docs/fuzzing.md.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "warpsight/gpu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g = NULL;
  if (ws_gpu_load_json(&g, text, "fuzz.json", &d) == WS_OK) {
    if (g->sms < 1 || g->warp_size < 1 || g->warp_size > 64 || !(g->clock_ghz > 0) ||
        !(g->mem_bandwidth_gbs > 0) || g->limits.max_warps_per_sm < 1)
      abort();
    static const ws_occupancy_in shapes[] = {
        {1, 0, 0}, {32, 16, 0}, {256, 255, 4096}, {1024, 64, 49152}, {65536, 1, 1 << 30}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
      ws_occupancy o;
      ws_diag od = WS_DIAG_INIT;
      if (ws_gpu_occupancy_compute(&o, &g->limits, g->warp_size, &shapes[i], &od) == WS_OK &&
          (o.occupancy <= 0 || o.occupancy > 1 || !isfinite(o.occupancy)))
        abort();
      ws_diag_free(&od);
    }
    /* every typed parameter a number (NaN = absent), and the GPU writes out */
    for (int i = 0; i < WS_GP_COUNT; i++)
      if (isinf(g->params[i].value) || (g->params[i].origin == WS_GP_DERIVED && !(g->params[i].value > 0)))
        abort();
    char *out = ws_gpu_to_json(g);
    cJSON *back = out ? cJSON_Parse(out) : NULL;
    if (!back) abort();
    cJSON_Delete(back);
    free(out);
  }
  ws_gpu_free(g);
  ws_diag_free(&d);
  free(text);
  return 0;
}
