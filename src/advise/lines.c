/*
 * lines.c — which source lines matter (warpsight/advise.h; docs/advisor.md,
 * "Lines"): a line's weight under a metric read from the profile's per-line
 * table, the metric of the primary model's bottleneck, and the lines
 * ranked by it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpsight/advise.h"

double ws_advise_mlp_unroll(const ws_profile_line *r) {
  if (!(r->path_mem_loads > 1)) return 0;
  /* a mean: a load under a rarely false condition makes 1.997 loads per
   * trip, which is 2 */
  double k = fmax(1, round(r->loop_loads_per_trip)), t = r->loop_trips_per_entry;
  if (k >= WS_ADVICE_MLP_FACTOR) return 0;
  double u = ceil(WS_ADVICE_MLP_FACTOR / k);
  /* fewer trips per entry than the factor: nothing to overlap 4 deep, and
   * the remainder loop nvcc splits off an unrolled body (fewer trips than
   * its factor by construction) is no loop to unroll */
  return t > 0 && t < WS_ADVICE_MLP_FACTOR ? 0 : u;
}

double ws_advise_line_weight(const ws_profile_line *r, ws_line_metric m, double load_latency) {
  double excess = r->sectors > r->sectors_needed ? r->sectors - r->sectors_needed : 0;
  switch (m) {
  case WS_LM_ISSUE: return r->warp_insts + r->bank_conflict_replays;
  case WS_LM_LSU: return r->sectors / 4 + r->shared_requests + r->bank_conflict_replays;
  case WS_LM_SFU: return r->kinds & WS_LINE_SFU ? r->warp_insts : 0;
  case WS_LM_FP64: return r->kinds & WS_LINE_FP64 ? r->warp_insts : 0;
  case WS_LM_L2: return r->sectors;
  /* warpsight [M2, M3]: DRAM bytes x (1 + scatter), scatter the share of a
   * request's sectors beyond what its bytes need (the penalty taken as 1) */
  case WS_LM_DRAM: return r->dram_bytes * (1 + (r->sectors > 0 ? excess / r->sectors : 0));
  case WS_LM_ATOMIC: return r->kinds & WS_LINE_ATOMIC ? r->atomic_serial : 0;
  case WS_LM_LATENCY: return r->path_mem_loads * load_latency + r->path_cycles;
  case WS_LM_EXCESS: return excess;
  case WS_LM_REPLAYS: return r->bank_conflict_replays;
  case WS_LM_DIVERGENT: return r->divergent_branches;
  case WS_LM_BARRIER: return r->kinds & WS_LINE_BARRIER ? r->warp_insts : 0;
  case WS_LM_PATH_CYC: return r->path_cycles;
  case WS_LM_PATH_MEM: return ws_advise_mlp_unroll(r) > 0 ? r->path_mem_loads : 0;
  case WS_LM_SATOMIC: return r->atomic_serial > r->atomic_requests ? r->atomic_serial - r->atomic_requests : 0;
  case WS_LM_GATOMIC: return r->kinds & WS_LINE_ATOMIC ? r->atomic_requests : 0;
  default: return 0;
  }
}

ws_line_metric ws_advise_line_metric(const ws_model_result *r) {
  switch (r ? r->bound : WS_BOUND_NONE) {
  case WS_BOUND_WARPSIGHT_L2: return WS_LM_L2;
  case WS_BOUND_WARPSIGHT_DRAM: return WS_LM_DRAM;
  case WS_BOUND_WARPSIGHT_ATOMIC: return WS_LM_ATOMIC;
  case WS_BOUND_WARPSIGHT_LATENCY: return WS_LM_LATENCY;
  case WS_BOUND_WARPSIGHT_SM: {
    /* the slowest pipe of [C1-C4, C7] (FP32 lanes: the lines' warp instructions) */
    static const struct {
      ws_term_id term;
      ws_line_metric m;
    } pipes[] = {{WS_TERM_WARPSIGHT_ISSUE_CYCLES_PER_WARP, WS_LM_ISSUE},
                 {WS_TERM_WARPSIGHT_SFU_CYCLES_PER_WARP, WS_LM_SFU},
                 {WS_TERM_WARPSIGHT_FP64_CYCLES_PER_WARP, WS_LM_FP64},
                 {WS_TERM_WARPSIGHT_LSU_CYCLES_PER_WARP, WS_LM_LSU},
                 {WS_TERM_WARPSIGHT_FP32_CYCLES_PER_WARP, WS_LM_ISSUE}};
    ws_line_metric best = WS_LM_ISSUE;
    double most = -1;
    for (size_t i = 0; i < sizeof pipes / sizeof pipes[0]; i++) {
      double v = ws_model_term_value(r, pipes[i].term);
      if (isfinite(v) && v > most) most = v, best = pipes[i].m;
    }
    return best;
  }
  default: return WS_LM_ISSUE;
  }
}

void ws_advise_lines_rank(size_t *idx, size_t *n, double *total, const ws_profile *p,
                          ws_line_metric m, double load_latency) {
  *n = 0;
  *total = 0;
  if (!p || !p->lines) return;
  const ws_profile_lines *l = p->lines;
  for (size_t i = 0; i < l->nrows; i++) {
    double w = ws_advise_line_weight(&l->rows[i], m, load_latency);
    if (!(w > 0)) continue;
    *total += w;
    /* insertion by weight, heaviest first; ties keep file and line order */
    size_t j = (*n)++;
    while (j > 0 && ws_advise_line_weight(&l->rows[idx[j - 1]], m, load_latency) < w) {
      idx[j] = idx[j - 1];
      j--;
    }
    idx[j] = i;
  }
}

const char *ws_advise_line_name(char *buf, size_t size, const ws_profile_lines *l,
                                const ws_profile_line *r) {
  const char *f = r->file < l->nfiles ? l->files[r->file] : "?";
  const char *base = strrchr(f, '/');
  base = base ? base + 1 : f;
  if (l->ptx_lines) snprintf(buf, size, "PTX line %u of %s", r->line, base);
  else snprintf(buf, size, "%s:%u", base, r->line);
  return buf;
}
