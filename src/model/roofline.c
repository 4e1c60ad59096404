/*
 * roofline.c — the Roofline model (S. Williams, A. Waterman, D. Patterson,
 * "Roofline: An Insightful Visual Performance Model for Multicore
 * Architectures", CACM 52(4), 2009), as a baseline for the GPU models.
 *
 *   attainable GFLOP/s = min(peak GFLOP/s, AI x DRAM bandwidth)
 *   AI (operational intensity) = flops / DRAM bytes of the whole launch
 *   peak = SMs x FP32 lanes per SM x 2 (an FMA) x clock
 *   time = flops / attainable
 *
 * The ridge point peak / bandwidth is the intensity where the two roofs
 * meet.  Choices (docs/models/roofline.md): DRAM bytes are the profile's
 * measured dram_read_bytes + dram_write_bytes, else every global memory
 * instruction's load_bytes_per_warp (no cache: an upper bound on traffic);
 * FP32 peak only.  A kernel without flops is timed by its bytes alone.
 */
#include <math.h>
#include <stdio.h>

#include "warpsight/model.h"

int ws_model_roofline(ws_model_result *out, const ws_profile *p,
                      const ws_gpu *g, ws_diag *d);

int ws_model_roofline(ws_model_result *out, const ws_profile *p,
                      const ws_gpu *g, ws_diag *d) {
  ws_model_launch_ctx ctx;
  int st = ws_model_launch_ctx_compute(&ctx, p, g, d);
  if (st != WS_OK) return st;
  const ws_profile_fields *f = &p->f;
  int missing = 0;

  if (!ws_pf_has(f->flops)) {
    ws_model_missing(out, "per_warp.flops", d);
    missing = 1;
  }
  double bytes = NAN;
  int measured = 0;
  if (ws_pf_has(f->dram_read_bytes) || ws_pf_has(f->dram_write_bytes)) {
    bytes = (ws_pf_has(f->dram_read_bytes) ? f->dram_read_bytes : 0) +
            (ws_pf_has(f->dram_write_bytes) ? f->dram_write_bytes : 0);
    measured = 1;
  } else {
    double mem = ws_profile_mem_insts(p);
    if (!ws_pf_has(f->load_bytes_per_warp)) {
      ws_model_missing(out, "memory.dram_read_bytes", d);
      missing = 1;
    } else if (!ws_pf_has(mem)) {
      ws_model_missing(out, ws_pf_has(f->coal_mem_insts)
                                ? "per_warp.uncoal_mem_insts"
                                : "per_warp.coal_mem_insts", d);
      missing = 1;
    } else {
      bytes = f->load_bytes_per_warp * mem * ctx.total_warps;
    }
  }
  if (!(g->sms > 0) || !(g->cores_per_sm > 0) || !(g->clock_ghz > 0)) {
    ws_model_missing(out, "gpu.cores_per_sm", d);
    missing = 1;
  }
  if (!(g->mem_bandwidth_gbs > 0)) {
    ws_model_missing(out, "gpu.mem_bandwidth_gbs", d);
    missing = 1;
  }
  if (missing) return WS_EMISSING;

  const double flops = f->flops * ctx.total_warps;
  const double peak = g->sms * (double)g->cores_per_sm * 2.0 * g->clock_ghz;
  const double bw = g->mem_bandwidth_gbs;
  const double ridge = peak / bw;                 /* flops per byte */
  const double ai = bytes > 0 ? flops / bytes : INFINITY;
  const double mem_roof = ai * bw;
  const int memory_bound = ai < ridge;
  const double attainable = memory_bound ? mem_roof : peak;
  double time_s;
  if (flops > 0)
    time_s = flops / (attainable * 1e9);
  else if (bytes > 0)
    time_s = bytes / (bw * 1e9); /* no flops: the traffic alone */
  else
    return ws_diag_error(d, "roofline: the profile has neither flops "
                            "(per_warp.flops) nor DRAM traffic");

  if (!isfinite(time_s) || !isfinite(flops) || !isfinite(bytes))
    return ws_diag_error(d, "roofline: flops or DRAM bytes too large for a "
                            "finite prediction");

  int e = 0;
  e |= ws_model_term_add(out, WS_TERM_ROOFLINE_FLOPS, flops);
  e |= ws_model_term_add(out, WS_TERM_ROOFLINE_DRAM_BYTES, bytes);
  e |= ws_model_term_add(out, WS_TERM_ROOFLINE_DRAM_BYTES_MEASURED, measured);
  e |= ws_model_term_add(out, WS_TERM_ROOFLINE_ARITHMETIC_INTENSITY, ai);
  e |= ws_model_term_add(out, WS_TERM_ROOFLINE_PEAK_GFLOPS, peak);
  e |= ws_model_term_add(out, WS_TERM_ROOFLINE_BANDWIDTH_GBS, bw);
  e |= ws_model_term_add(out, WS_TERM_ROOFLINE_RIDGE_POINT, ridge);
  e |= ws_model_term_add(out, WS_TERM_ROOFLINE_ATTAINABLE_GFLOPS, attainable);
  if (memory_bound)
    e |= ws_model_set_case(out, WS_BOUND_ROOFLINE_MEMORY, "memory-bound");
  else
    e |= ws_model_set_case(out, WS_BOUND_ROOFLINE_COMPUTE, "compute-bound");
  if (e) return ws_diag_error(d, "roofline: out of memory");
  out->time_ms = time_s * 1e3;
  out->cycles = time_s * g->clock_ghz * 1e9;
  return WS_OK;
}
