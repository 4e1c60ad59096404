/*
 * warpsight.c — the project's own model (docs/models/warpsight.md): the
 * seeds' structure (Hong & Kim's overlap of computation and memory, Sim et
 * al.'s serialization terms) with the fixes of their successors: Volkov's
 * latency hiding (a launch is bound by the latency of its warps' dependency
 * paths or by a throughput, whichever is larger, with a gradual transition),
 * GPUMech's representative-warp interval analysis (the profile's
 * per-block longest warp path) and bandwidth queuing at each level (L2,
 * DRAM), MDM's memory divergence (the profile's exact sectors per request),
 * GCoM's per-component cycle accounting.
 *
 *   waves     = ceil(ceil(blocks / SMs) / active blocks per SM)         [W1]
 *   T_sm      = warps on the busiest SM x max(issue, SFU, FP64, LSU,
 *                                              tensor, FP32)          [C1-C7]
 *   T_l2      = L2 sectors x 32 B x request factor
 *               / (L2 bytes per slice x L2 slices)                       [M1, M1b]
 *   T_dram    = DRAM bytes / (bandwidth x efficiency)
 *               x (1 + divergence penalty x scatter)                      [M2, M3]
 *               x (1 + camping x scatter x (partition imbalance - 1))     [M4]
 *   T_atomic  = max(hottest address's updates x atomic cycles
 *                   + its lane operations x atomic lane cycles,
 *                   same-address operations / L2 slices)                 [A1]
 *   T_lat     = waves x (path loads x L_mem + path cycles x ALU scale
 *                        + block issue (with barriers)
 *                        + barriers x barrier cycles + block cycles)     [L1-L3]
 *   cycles    = launch overhead + || (T_sm, T_l2, T_dram, T_atomic, T_lat) ||_p   [T1]
 *   time      = cycles / the sustained clock (clock_ghz when not given)
 *
 * ||.||_p is the p-norm: at least the largest term (so the prediction never
 * goes below a throughput or latency bound), and more than it when two are
 * close (they do not overlap perfectly; Volkov 2016, ch. 6).  Every
 * throughput is capped at its physical peak so the prediction never goes
 * below the launch's floors (floors.c).  Parameters: the GPU's
 * models.warpsight object, per architecture (src/gpu/derive.c's fitted
 * constants); whole-chip throughputs scale with the board's own facts (SMs,
 * L2 slices, DRAM bandwidth, clock); none is per kernel.
 */
#include <math.h>
#include <stdio.h>

#include "warpsight/model.h"

int ws_model_warpsight(ws_model_result *r, const ws_profile *p, const ws_gpu *g, ws_diag *d);

#define M "warpsight"

static double nz(double v) { return ws_pf_has(v) ? v : 0; }
static double max2(double a, double b) { return a > b ? a : b; }

typedef struct ws_params {
  double issue_rate, lsu_rate, l2_slice, l2_bpc, units, clock, dram_eff, alu_scale, mem_scale, p, launch_us;
  double barrier_cycles, atomic_cycles, atomic_lane_cycles, fp64_lanes, block_cycles, div_penalty, camping, l2_req;
} ws_params;

static int read_params(ws_params *w, ws_model_result *r, const ws_gpu *g, ws_diag *d) {
  int missing = 0;
  w->issue_rate = ws_model_gpu_param(r, g, WS_GP_WARPSIGHT_ISSUE_RATE, &missing, d);
  w->lsu_rate = ws_model_gpu_param(r, g, WS_GP_WARPSIGHT_LSU_RATE, &missing, d);
  w->l2_slice = ws_model_gpu_param(r, g, WS_GP_WARPSIGHT_L2_BYTES_PER_SLICE, &missing, d);
  w->dram_eff = ws_model_gpu_param(r, g, WS_GP_WARPSIGHT_DRAM_EFFICIENCY, &missing, d);
  w->alu_scale = ws_model_gpu_param(r, g, WS_GP_WARPSIGHT_ALU_LATENCY_SCALE, &missing, d);
  w->mem_scale = ws_model_gpu_param(r, g, WS_GP_WARPSIGHT_MEM_LATENCY_SCALE, &missing, d);
  w->p = ws_model_gpu_param(r, g, WS_GP_WARPSIGHT_OVERLAP_P, &missing, d);
  w->launch_us = ws_model_gpu_param(r, g, WS_GP_WARPSIGHT_LAUNCH_US, &missing, d);
  w->barrier_cycles = ws_model_gpu_param(r, g, WS_GP_WARPSIGHT_BARRIER_CYCLES, &missing, d);
  w->atomic_cycles = ws_model_gpu_param(r, g, WS_GP_WARPSIGHT_ATOMIC_CYCLES, &missing, d);
  /* Optional (derived): 0 = a request's same-address lanes cost nothing
   * beyond its one update. */
  w->atomic_lane_cycles = ws_gpu_p(g, WS_GP_WARPSIGHT_ATOMIC_LANE_CYCLES);
  if (!(w->atomic_lane_cycles >= 0)) w->atomic_lane_cycles = 0;
  /* Optional: CC 1.0-1.2 have no FP64 units (no value derived): a kernel
   * without FP64 instructions runs (its term is 0), one with them cannot
   * (ws_model_warpsight says so). */
  w->fp64_lanes = ws_gpu_p(g, WS_GP_WARPSIGHT_FP64_LANES_PER_SM);
  if (!isfinite(w->fp64_lanes)) w->fp64_lanes = 0;
  w->block_cycles = ws_model_gpu_param(r, g, WS_GP_WARPSIGHT_BLOCK_CYCLES, &missing, d);
  w->div_penalty = ws_model_gpu_param(r, g, WS_GP_WARPSIGHT_DIVERGENCE_PENALTY, &missing, d);
  /* Optional (derived as 1): a file without it has no camping term. */
  w->camping = ws_gpu_p(g, WS_GP_WARPSIGHT_PARTITION_CAMPING);
  if (!isfinite(w->camping)) w->camping = 0;
  /* Optional (derived): 32 = the L2 works per sector. */
  w->l2_req = ws_gpu_p(g, WS_GP_WARPSIGHT_L2_REQUEST_BYTES);
  if (!isfinite(w->l2_req)) w->l2_req = 32;
  if (!(g->sms > 0) || !(g->clock_ghz > 0) || !(g->mem_bandwidth_gbs > 0)) {
    ws_model_missing(r, "gpu.sms, gpu.clock_ghz, gpu.mem_bandwidth_gbs", d);
    missing = 1;
  }
  /* The L2's slices work in parallel (one per memory controller's share of
   * the address space), so the whole chip's L2 bandwidth is one slice's x
   * the board's slices (else its DRAM partitions; 1 when neither is known):
   * a 24-SM, 384-bit TITAN X has 12/7 of the GTX 970's, not the same. */
  w->units = g->cache.l2_slices > 0 ? g->cache.l2_slices
             : g->dram.partitions > 0 ? g->dram.partitions : 1;
  w->l2_bpc = w->l2_slice * w->units;
  /* Cycles become time at the clock the board holds under load (the
   * measured boards: K40 733 MHz against 876 on the data sheet). */
  w->clock = g->sustained_clock_ghz > 0 ? g->sustained_clock_ghz : g->clock_ghz;
  if (missing) return WS_EMISSING;
  /* Physical caps: never faster than the peak (the floors hold). */
  double peak = ws_model_floor_issue_rate(g->cc_major, g->cc_minor);
  if (!(w->issue_rate > 0) || w->issue_rate > peak) w->issue_rate = peak;
  if (!(w->dram_eff > 0) || w->dram_eff > 1) w->dram_eff = 1;
  if (!(w->p >= 1)) w->p = 1;
  if (!(w->div_penalty >= 0)) w->div_penalty = 0; /* never faster than the floor */
  if (!(w->camping >= 0)) w->camping = 0;
  return WS_OK;
}

/* The effective latency of a load on the path: L1, L2 and DRAM latencies
 * weighted by where the profile's sectors were served (GPUMech section 4). */
static double load_latency(const ws_profile *p, const ws_gpu *g) {
  double h1 = nz(p->f.l1_hit_ratio), h2 = nz(p->f.l2_hit_ratio);
  double l1 = g->lat.l1 > 0 ? g->lat.l1 : 30, l2 = g->lat.l2 > 0 ? g->lat.l2 : 200;
  double dram = g->lat.dram > 0 ? g->lat.dram : 400;
  return h1 * l1 + (1 - h1) * (h2 * l2 + (1 - h2) * dram);
}

/* [C6] tensor-pipe cycles of one warp: each type's operations over the
 * GPU's tensor throughput for it (ops/clock/SM, the tensor.* facts).  A
 * type the GPU file does not rate adds nothing; *unrated is then the term's
 * source naming the first such fact (NULL when every type the profile uses
 * is rated). */
#define UNRATED(fact) "[C6] no " fact " for this GPU (absent or 0): its operations add nothing"
static double tensor_cycles(const ws_profile_fields *f, const ws_gpu *g, const char **unrated) {
  const struct { double ops, rate; const char *note; } t[] = {
      {f->tensor_fp16_f32acc_ops, g->tensor.fp16_f32acc, UNRATED("tensor.fp16_f32acc")},
      {f->tensor_fp16_f16acc_ops, g->tensor.fp16_f16acc, UNRATED("tensor.fp16_f16acc")},
      {f->tensor_bf16_ops, g->tensor.bf16, UNRATED("tensor.bf16")},
      {f->tensor_tf32_ops, g->tensor.tf32, UNRATED("tensor.tf32")},
      {f->tensor_fp8_ops, g->tensor.fp8, UNRATED("tensor.fp8")},
      {f->tensor_int8_ops, g->tensor.int8, UNRATED("tensor.int8")},
      {f->tensor_fp64_ops, g->tensor.fp64, UNRATED("tensor.fp64")},
  };
  double c = 0;
  *unrated = NULL;
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    if (!(nz(t[i].ops) > 0)) continue;
    if (t[i].rate > 0) c += t[i].ops / t[i].rate;
    else if (!*unrated) *unrated = t[i].note;
  }
  return c;
}

static double pnorm(const double *t, int n, double p, int *arg) {
  double mx = 0;
  *arg = 0;
  for (int i = 0; i < n; i++)
    if (t[i] > mx) mx = t[i], *arg = i;
  if (!(mx > 0)) return 0;
  double s = 0;
  for (int i = 0; i < n; i++) s += pow(t[i] / mx, p);
  return mx * pow(s, 1 / p);
}

/* The bound of each of the five overlapped times, in their order. */
static const ws_model_bound time_bounds[5] = {
    WS_BOUND_WARPSIGHT_SM, WS_BOUND_WARPSIGHT_L2, WS_BOUND_WARPSIGHT_DRAM,
    WS_BOUND_WARPSIGHT_ATOMIC, WS_BOUND_WARPSIGHT_LATENCY};

int ws_model_warpsight(ws_model_result *r, const ws_profile *p, const ws_gpu *g, ws_diag *d) {
  ws_params w;
  int missing = 0;
  int st = read_params(&w, r, g, d);
  if (st == WS_EMISSING) missing = 1;
  double insts = ws_model_need(r, ws_profile_total_insts(p), "per_warp.comp_insts", &missing, d);
  /* A kernel with FP64 instructions cannot run on a GPU without FP64 units
   * (CC 1.0-1.2, whose derived fp64_lanes_per_sm is "none" with that
   * reason): say so, as Kothapalli and Transit do, instead of charging the
   * instructions nothing. */
  if (nz(p->f.fp64_insts) > 0 && !(w.fp64_lanes > 0) && st != WS_EMISSING) {
    if (isfinite(ws_gpu_p(g, WS_GP_WARPSIGHT_FP64_LANES_PER_SM))) /* given as 0 */
      ws_model_missing(r, "models.warpsight.fp64_lanes_per_sm (0: the GPU has no FP64 units)", d);
    else /* "none": the derive rule's reason */
      ws_model_missing_gp(r, g, WS_GP_WARPSIGHT_FP64_LANES_PER_SM, d);
    missing = 1;
  }
  if (missing) return WS_EMISSING;
  ws_model_launch_ctx lc;
  if ((st = ws_model_launch_ctx_compute(&lc, p, g, d))) return st;
  const ws_profile_fields *f = &p->f;

  /* [W1] waves on the busiest SM; the last may be partial (the tail). */
  double blocks_sm = ceil(lc.blocks / g->sms);
  double waves = ceil(blocks_sm / lc.active_blocks_per_sm);
  double warps_sm = blocks_sm * lc.warps_per_block;

  /* [C1-C5] per-warp cycles of each SM pipe (Sim et al.'s serialization:
   * bank-conflict replays and shared atomics take issue slots). */
  double replays = nz(f->bank_conflict_replays);
  double satom = max2(0, nz(f->shared_atomic_serial) - nz(f->shared_atomic_insts));
  double c_issue = (insts + replays + satom) / w.issue_rate;                       /* C1 */
  double c_sfu = g->sfu_per_sm > 0 ? nz(f->sfu_insts) * g->warp_size / g->sfu_per_sm : 0; /* C2 */
  double c_fp64 = w.fp64_lanes > 0 ? nz(f->fp64_insts) * g->warp_size / w.fp64_lanes : 0; /* C3 */
  /* [C7] the FP32 lanes (cores_per_sm): an SM with 64 of them (Volta,
   * Turing, GA100, GP100) completes two FP32 warp instructions per cycle
   * however many it dispatches, one with 8 (CC 1.x) one per 4 cycles.  The
   * profile's fp_insts less its FP64 ones: FP32 and FP16 (a packed half2
   * instruction taken as one FP32 lane operation per thread). */
  double fp32_insts = max2(0, nz(f->fp_insts) - nz(f->fp64_insts));
  double c_fp32 = g->cores_per_sm > 0 ? fp32_insts * g->warp_size / g->cores_per_sm : 0; /* C7 */
  double mem_req = nz(f->coal_mem_insts) + nz(f->uncoal_mem_insts);
  double sectors = mem_req * (ws_pf_has(f->avg_trans_warp) ? f->avg_trans_warp : 1);
  /* one 128-B line (four 32-B sectors) or one shared pass per LSU cycle */
  double c_lsu = (sectors / 4 + nz(f->shared_mem_insts) + replays + satom) / w.lsu_rate; /* C4 */
  const char *unrated;
  double c_tensor = tensor_cycles(f, g, &unrated);                                 /* C6 */
  double c_warp = max2(max2(max2(c_issue, c_sfu), max2(c_fp64, c_lsu)), max2(c_tensor, c_fp32));
  double t_sm = warps_sm * c_warp;                                                 /* C5 */

  /* [M1] L2, [M2] DRAM: the whole GPU's traffic through its bandwidth */
  /* [M1b] where the L2 serves a request per line (l2_request_bytes 128,
   * Kepler), a request costs its lines x 128 bytes, not its sectors x 32:
   * a broadcast (1 sector, 1 line) costs a whole line */
  double per_req_sec = ws_pf_has(f->avg_trans_warp) ? f->avg_trans_warp : 0;
  double lines = ws_pf_has(f->lines_per_request) ? f->lines_per_request : 0;
  double req_factor = w.l2_req > 32 && lines > 0 && per_req_sec > 0
                          ? lines * w.l2_req / (per_req_sec * 32) : 1;
  if (req_factor < 1) req_factor = 1;
  double t_l2 = ws_pf_has(f->l2_sectors_per_warp) && w.l2_bpc > 0
                    ? f->l2_sectors_per_warp * lc.total_warps * 32 * req_factor / w.l2_bpc : 0;
  double dram_bytes = nz(f->dram_read_bytes) + nz(f->dram_write_bytes);
  /* [M3] memory divergence (MDM): the share of a request's sectors beyond
   * what its bytes need scatters DRAM accesses over rows and channels */
  double need = ws_pf_has(f->load_bytes_per_warp) ? f->load_bytes_per_warp / 32 : 0;
  double per_req = ws_pf_has(f->avg_trans_warp) ? f->avg_trans_warp : 0;
  double scatter = per_req > 0 && need > 0 && per_req > need ? 1 - need / per_req : 0;
  /* [M4] partition camping (Ruetsch & Micikevicius 2009; Aji et al. 2011):
   * the profile's DRAM partition imbalance I of scattered traffic; the
   * busiest partition sets the pace, so its excess I - 1 slows the
   * scattered share of the traffic */
  double imb = ws_pf_has(f->dram_partition_imbalance) && f->dram_partition_imbalance > 1
                   ? f->dram_partition_imbalance : 1;
  double camp = 1 + w.camping * scatter * (imb - 1);
  double t_dram = dram_bytes / (g->mem_bandwidth_gbs * w.dram_eff) * w.clock *
                  (1 + w.div_penalty * scatter) * camp;
  /* [A1] atomics by address conflicts.  The L2 slice that holds an
   * address performs its updates one after another, each a read-modify-write
   * round of atomic_cycles; the lanes of one request that name the address
   * are combined into one update (plus atomic_lane_cycles each).  So the
   * hottest address's chain is its updates (its lane operations / the
   * lanes per request on one address) x atomic_cycles + its lane
   * operations x atomic_lane_cycles, contention across warps included.
   * Distinct addresses are pipelined: every slice starts one lane operation
   * per cycle, so the launch's same-address lane operations spread over the
   * slices are the other bound.  (RTX 3080, 512 bins flushed per block with
   * atomicAdd: 2,097,152 blocks of 32 threads take 22.6 ms, 524,288 of 128
   * 5.67 ms: ~20 cycles per update of a bin, however many blocks share the
   * slices; docs/models/warpsight.md.) */
  double units = w.units;
  double hot = nz(f->global_atomic_max_address_ops);
  double ainsts = nz(f->global_atomic_insts), aserial = nz(f->global_atomic_serial);
  double lanes_per_update = ainsts > 0 && aserial > ainsts ? aserial / ainsts : 1;
  double chain = hot / lanes_per_update * w.atomic_cycles + hot * w.atomic_lane_cycles;
  double spread = aserial * lc.total_warps / units;
  double t_atom = max2(chain, spread);

  /* [L1-L3] latency: each wave takes at least its longest warp path */
  int have_path = ws_pf_has(f->path_cycles) && ws_pf_has(f->path_mem_loads);
  double l_mem = load_latency(p, g) * w.mem_scale;                                /* L1 */
  double path = have_path ? f->path_mem_loads * l_mem + f->path_cycles * w.alu_scale
                          : insts * w.alu_scale;                                  /* L2 */
  /* [L2b] between barriers a block's warps move in lockstep: the block's
   * own issue time adds to its path instead of hiding under it */
  double block_issue = nz(f->synch_insts) > 0 ? lc.warps_per_block * c_issue : 0;
  double t_lat = waves * (path + block_issue + nz(f->synch_insts) * w.barrier_cycles +
                          w.block_cycles);                                        /* L3 */

  double terms[5] = {t_sm, t_l2, t_dram, t_atom, t_lat};
  int arg;
  double core = pnorm(terms, 5, w.p, &arg);
  double launch = w.launch_us * 1e3 * w.clock;
  double cycles = launch + core;                                                  /* T1 */

  const ws_model_term_val t[] = {
      {WS_TERM_WARPSIGHT_ISSUE_RATE, w.issue_rate, NULL},
      {WS_TERM_WARPSIGHT_LSU_RATE, w.lsu_rate, NULL},
      {WS_TERM_WARPSIGHT_L2_BYTES_PER_CYCLE, w.l2_bpc, NULL},
      {WS_TERM_WARPSIGHT_DRAM_EFFICIENCY, w.dram_eff, NULL},
      {WS_TERM_WARPSIGHT_ALU_LATENCY_SCALE, w.alu_scale, NULL},
      {WS_TERM_WARPSIGHT_MEM_LATENCY_SCALE, w.mem_scale, NULL},
      {WS_TERM_WARPSIGHT_OVERLAP_P, w.p, NULL},
      {WS_TERM_WARPSIGHT_BLOCKS_PER_SM, blocks_sm, NULL},
      {WS_TERM_WARPSIGHT_ACTIVE_BLOCKS_PER_SM, lc.active_blocks_per_sm, NULL},
      {WS_TERM_WARPSIGHT_WAVES, waves, NULL},
      {WS_TERM_WARPSIGHT_INSTS_PER_WARP, insts, NULL},
      {WS_TERM_WARPSIGHT_ISSUE_CYCLES_PER_WARP, c_issue, NULL},
      {WS_TERM_WARPSIGHT_SFU_CYCLES_PER_WARP, c_sfu, NULL},
      {WS_TERM_WARPSIGHT_FP64_CYCLES_PER_WARP, c_fp64, NULL},
      {WS_TERM_WARPSIGHT_FP32_CYCLES_PER_WARP, c_fp32, g->cores_per_sm > 0 ? NULL : "[C7] no cores_per_sm: 0"},
      {WS_TERM_WARPSIGHT_LSU_CYCLES_PER_WARP, c_lsu, NULL},
      {WS_TERM_WARPSIGHT_TENSOR_CYCLES_PER_WARP, c_tensor, unrated},
      {WS_TERM_WARPSIGHT_T_SM, t_sm, NULL},
      {WS_TERM_WARPSIGHT_L2_REQUEST_BYTES, w.l2_req, NULL},
      {WS_TERM_WARPSIGHT_L2_REQUEST_FACTOR, req_factor, NULL},
      {WS_TERM_WARPSIGHT_T_L2, t_l2, NULL},
      {WS_TERM_WARPSIGHT_SCATTER, scatter, NULL},
      {WS_TERM_WARPSIGHT_DIVERGENCE_PENALTY, w.div_penalty, NULL},
      {WS_TERM_WARPSIGHT_PARTITION_IMBALANCE, imb, NULL},
      {WS_TERM_WARPSIGHT_PARTITION_CAMPING, w.camping, NULL},
      {WS_TERM_WARPSIGHT_CAMPING_FACTOR, camp, NULL},
      {WS_TERM_WARPSIGHT_T_DRAM, t_dram, NULL},
      {WS_TERM_WARPSIGHT_ATOMIC_UNITS, units, NULL},
      {WS_TERM_WARPSIGHT_ATOMIC_LANES_PER_UPDATE, lanes_per_update, NULL},
      {WS_TERM_WARPSIGHT_ATOMIC_CHAIN, chain, NULL},
      {WS_TERM_WARPSIGHT_ATOMIC_SPREAD, spread, NULL},
      {WS_TERM_WARPSIGHT_T_ATOMIC, t_atom, NULL},
      {WS_TERM_WARPSIGHT_LOAD_LATENCY, l_mem, NULL},
      {WS_TERM_WARPSIGHT_PATH_CYCLES_PER_WAVE, path, have_path ? NULL : "[L2] no dependencies section: instructions x alu scale"},
      {WS_TERM_WARPSIGHT_BLOCK_ISSUE_CYCLES, block_issue, NULL},
      {WS_TERM_WARPSIGHT_BARRIER_CYCLES, w.barrier_cycles, NULL},
      {WS_TERM_WARPSIGHT_BLOCK_CYCLES, w.block_cycles, NULL},
      {WS_TERM_WARPSIGHT_T_LATENCY, t_lat, NULL},
      {WS_TERM_WARPSIGHT_T_OVERLAPPED, core, NULL},
      {WS_TERM_WARPSIGHT_CLOCK_GHZ, w.clock, g->sustained_clock_ghz > 0 ? NULL : "clock_ghz: no sustained_clock_ghz"},
      {WS_TERM_WARPSIGHT_LAUNCH_CYCLES, launch, NULL},
      {WS_TERM_WARPSIGHT_CYCLES, cycles, NULL},
  };
  if (ws_model_terms_add(r, t, sizeof t / sizeof t[0]))
    return ws_diag_error(d, "%s: out of memory", M);
  char label[160];
  snprintf(label, sizeof label, "%s-bound (%.0f%% of the overlapped time)",
           arg == 4 ? "latency" : arg == 0 ? "SM-throughput" : arg == 3 ? "atomic" : "memory",
           core > 0 ? 100 * terms[arg] / core : 0);
  if (ws_model_set_case(r, time_bounds[arg], label)) return ws_diag_error(d, "%s: out of memory", M);
  r->cycles = cycles;
  r->time_ms = cycles / (w.clock * 1e6);
  return WS_OK;
}
