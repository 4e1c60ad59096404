/*
 * derive.c — model parameters derived from a GPU's base numbers when the
 * file is loaded (docs/gpu-parameters.md).
 *
 * Each rule below computes one models.MODEL.KEY from the file's facts (SMs,
 * clock, bandwidth, cores, limits, latencies), the compute capability's row
 * of cc_arch.def, or a parameter derived before it.  A rule runs only when
 * the file does not give the parameter; then it fills the typed value in
 * ws_gpu.params (origin WS_GP_DERIVED, source "derived: FORMULA", the
 * arithmetic as its note), which models read like any other parameter.  A
 * parameter the file gives where a rule exists is flagged has_rule.  The
 * serialiser (ws_gpu_to_json, for `warpsight gpu` and --json) writes the
 * derived ones as {"value", "source", "estimate": true, "derived": true,
 * "note"} and marks the given ones {"given": true}, through
 * ws_gpu_derive_decorate below.  Derived values therefore follow an edited
 * clock or bandwidth and never go stale.
 *
 * Rules run in table order; a rule that reads another parameter comes after
 * the rule that may derive it.  A rule whose inputs are missing derives
 * nothing (the model then reports the parameter missing).
 */
#include "gpu/derive.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

#include "gpu/gpu_doc.h"
#include "util/strbuf.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct arch_row {
  int major, minor;
  double fp32, fp64, sfu, int_add, int_mul; /* results per clock per SM */
  double simd_width;                        /* single-issue FP32 lanes */
  double fp32_lat;                          /* dependent FP32 latency, cycles */
  double trans_bytes;                       /* Sim et al.'s transaction size */
} arch_row;

static const arch_row arch_table[] = {
#define CCA(ma, mi, f32, f64, sfu, ia, im, simd, lat, tb) {ma, mi, f32, f64, sfu, ia, im, simd, lat, tb},
#include "cc_arch.def"
#undef CCA
};

static const arch_row *arch_for(int major, int minor) {
  for (size_t i = 0; i < sizeof arch_table / sizeof arch_table[0]; i++)
    if (arch_table[i].major == major && arch_table[i].minor == minor) return &arch_table[i];
  return NULL;
}

double ws_gpu_arch_sfu(int major, int minor) {
  const arch_row *a = arch_for(major, minor);
  return a ? a->sfu : NAN;
}

double ws_gpu_arch_fp32_lat(int major, int minor) {
  const arch_row *a = arch_for(major, minor);
  return a ? a->fp32_lat : NAN;
}

/* What a rule sees: the GPU and its CC row; it writes the value and the
 * arithmetic into the note. */
typedef struct rule_ctx {
  const ws_gpu *g;
  const arch_row *a;
  char *note;
  size_t note_len;
  int none; /* the rule found that the parameter does not exist on this
               GPU (NONE), not merely that an input is unknown */
} rule_ctx;

typedef int (*rule_fn)(rule_ctx *c, const char *key, double *v);

/* A parameter, given or derived so far; NaN when absent. */
static double par(const rule_ctx *c, ws_gp_id id) { return ws_gpu_p(c->g, id); }

#define NOTE(...) snprintf(c->note, c->note_len, __VA_ARGS__)
/* A rule's answer that its parameter does not exist on this GPU, with the
 * reason (kept in the absent parameter's note; a model that needs it names
 * it: ws_model_missing_gpu).  Evaluates to 0: nothing derived. */
#define NONE(...) (NOTE(__VA_ARGS__), c->none = 1, 0)
/* The reason of a double-precision parameter on CC 1.0-1.2 (cc_arch.def's
 * FP64 throughput 0). */
#define NO_FP64() NONE("the GPU has no double-precision units: CC %d.%d", c->a->major, c->a->minor)

/* The GT200 figures the scaled Luo & Suda costs and the Kothapalli division
 * costs start from. */
#define GT200_FP32_LAT 24.0  /* Wong et al. ISPASS'10: add/mul/mad latency */
#define GT200_MEM_LD 450.0   /* Hong & Kim Table 6, GTX280 column */

/* Transit's measured points over the machine's own peaks (docs/
 * gpu-parameters.md, "Transit"): the mean of the C2075 and GTX690 ratios. */
#define TRANSIT_ETA_R_SP 0.7539 /* (8.93/10.738 + 16.25/24.032) / 2 */
#define TRANSIT_ETA_R_DP 0.8250 /* (9.29/10.738 + 18.86/24.032) / 2 */
#define TRANSIT_ETA_P_SP 0.5423 /* (24.8/36.704 + 80/195.648) / 2 */
#define TRANSIT_ETA_P_DP 0.8721 /* (14/18.352 + 8/8.152) / 2 */

/* Bytes x SMs x clock / bandwidth: cycles between two transactions of one
 * SM when all SMs share the DRAM bandwidth (a lower bound). */
static int departure(rule_ctx *c, double bytes, double *v) {
  const ws_gpu *g = c->g;
  *v = bytes * g->sms * g->clock_ghz / g->mem_bandwidth_gbs;
  NOTE("%g B x %d SMs x %g GHz / %g GB/s = %.4g cycles", bytes, g->sms, g->clock_ghz,
       g->mem_bandwidth_gbs, *v);
  return 1;
}

static int hk_uncoal(rule_ctx *c, const char *k, double *v) { (void)k; return departure(c, 32, v); }
static int hk_coal(rule_ctx *c, const char *k, double *v) { (void)k; return departure(c, 128, v); }

/* Measured DRAM latency, else Hong & Kim's Mem_LD. */
static int dram_latency(rule_ctx *c, const char *k, double *v) {
  (void)k;
  if (!isnan(c->g->lat.dram)) {
    *v = c->g->lat.dram;
    NOTE("latencies.dram = %g cycles", *v);
    return 1;
  }
  *v = par(c, WS_GP_HONG_KIM_MEM_LD);
  NOTE("hong-kim.mem_ld = %g cycles (no measured latencies.dram)", *v);
  return !isnan(*v);
}

static int hk_mem_ld(rule_ctx *c, const char *k, double *v) {
  (void)k;
  *v = c->g->lat.dram;
  NOTE("latencies.dram = %g cycles", *v);
  return !isnan(*v);
}

static int issue_cycles(rule_ctx *c, const char *k, double *v) {
  (void)k;
  double simd = par(c, WS_GP_GPUPERF_SIMD_WIDTH);
  if (isnan(simd)) simd = c->a->simd_width;
  *v = c->g->warp_size / simd;
  NOTE("warp_size / simd_width = %d / %g", c->g->warp_size, simd);
  return 1;
}

static int simd_width(rule_ctx *c, const char *k, double *v) {
  (void)k;
  *v = c->a->simd_width;
  NOTE("single-issue FP32 lanes of CC %d.%d (src/gpu/cc_arch.def)", c->a->major, c->a->minor);
  return 1;
}

static int trans_bytes(rule_ctx *c, const char *k, double *v) {
  (void)k;
  *v = c->a->trans_bytes;
  NOTE("transaction size of CC %d.%d (src/gpu/cc_arch.def)", c->a->major, c->a->minor);
  return 1;
}

static int gp_delta(rule_ctx *c, const char *k, double *v) {
  (void)k;
  *v = par(c, WS_GP_HONG_KIM_DEPARTURE_DEL_UNCOAL);
  NOTE("hong-kim.departure_del_uncoal = %g (Sim et al.'s one departure delay per transaction)", *v);
  return !isnan(*v);
}

static int fp32_latency(rule_ctx *c, const char *k, double *v) {
  (void)k;
  if (!isnan(c->g->lat.fp32)) {
    *v = c->g->lat.fp32;
    NOTE("latencies.fp32 = %g cycles", *v);
  } else {
    *v = c->a->fp32_lat;
    NOTE("FP32 latency of CC %d.%d (src/gpu/cc_arch.def)", c->a->major, c->a->minor);
  }
  return 1;
}

static int cache_latency(rule_ctx *c, const char *k, double *v) {
  *v = strcmp(k, "l1_lat") == 0 ? c->g->lat.l1 : c->g->lat.l2;
  NOTE("latencies.%s = %g cycles", strcmp(k, "l1_lat") == 0 ? "l1" : "l2", *v);
  return !isnan(*v);
}

static int gamma64(rule_ctx *c, const char *k, double *v) {
  (void)k;
  *v = 64;
  NOTE("Sim et al. §4.1.1 give Gamma = 64 for Fermi; no other value is published");
  return 1;
}

static int sfu_width(rule_ctx *c, const char *k, double *v) {
  (void)k;
  if (c->g->sfu_per_sm > 0) {
    *v = c->g->sfu_per_sm;
    NOTE("sfu_per_sm = %g", *v);
  } else {
    *v = c->a->sfu;
    NOTE("SFU results per clock of CC %d.%d (src/gpu/cc_arch.def)", c->a->major, c->a->minor);
  }
  return 1;
}

/* Kothapalli: cycles per warp instruction = warp_size / results per clock. */
static int koth_op(rule_ctx *c, const char *k, double *v) {
  const arch_row *a = c->a;
  const char *op = k;
  double ws = c->g->warp_size, thr = NAN, mult = 1;
  if (strcmp(op, "int_simple") == 0) thr = a->int_add;
  else if (strcmp(op, "fp_simple") == 0) thr = a->fp32;
  else if (strcmp(op, "int_mul32") == 0) thr = a->int_mul;
  else if (strcmp(op, "sfu") == 0) thr = a->sfu;
  else if (strcmp(op, "fp64") == 0) thr = a->fp64;
  else if (strcmp(op, "int_div") == 0 || strcmp(op, "int_rem") == 0) thr = a->int_add, mult = 12;
  else if (strcmp(op, "fp_div") == 0) thr = a->fp32, mult = 9;
  if (!(thr > 0)) return thr == 0 ? NO_FP64() : 0; /* (only FP64's throughput is ever 0) */
  *v = mult * ws / thr;
  if (mult > 1)
    NOTE("%g x warp_size / %g per clock = %g (the CC 1.x ratio to a simple op: %s)", mult, thr, *v,
         mult == 12 ? "48 / 4, Kothapalli §3.5" : "36 / 4, CUDA Programming Guide 2.x");
  else
    NOTE("warp_size / %g results per clock per SM (CC %d.%d) = %g", thr, a->major, a->minor, *v);
  return 1;
}

static int koth_shared(rule_ctx *c, const char *k, double *v) {
  (void)k;
  *v = par(c, WS_GP_KOTHAPALLI_OP_INT_SIMPLE);
  NOTE("op_cycles.int_simple = %g (a conflict-free shared access issues like a simple op; 4 = 4 on CC 1.x)", *v);
  return !isnan(*v);
}

static int koth_depth(rule_ctx *c, const char *k, double *v) {
  (void)k;
  *v = 4;
  NOTE("Kothapalli §2: the GT200 core's 4-stage pipeline; no figure for later cores");
  return 1;
}

/* Luo & Suda Table 1 (GTX 260, GPU clocks): int_const, int_reg,
 * float_const, float_reg per operation. */
static const struct {
  const char *op;
  double cost[4];
} luo_table1[] = {
    {"add", {22, 65, 22, 65}},     {"sub", {22, 65, 22, 65}}, {"mul", {44, 136, 22, 65}},
    {"div", {728, 753, 748, 783}}, {"neg", {22, 22, 17, 17}}, {"min", {62, 62, 62, 62}},
    {"max", {62, 62, 62, 62}},     {"and", {64, 64, 64, 64}}, {"or", {62, 62, 62, 62}},
    {"xor", {62, 62, 62, 62}},     {"not", {22, 22, 22, 22}},
};
static const char *const luo_cells[4] = {"int_const", "int_reg", "float_const", "float_reg"};

static double fp32_lat_of(const rule_ctx *c) {
  return isnan(c->g->lat.fp32) ? c->a->fp32_lat : c->g->lat.fp32;
}

static int luo_cost(rule_ctx *c, const char *k, double *v) {
  char op[16], cell[16];
  if (sscanf(k, "%15[a-z].%15s", op, cell) != 2) return 0;
  for (size_t i = 0; i < sizeof luo_table1 / sizeof luo_table1[0]; i++)
    for (int j = 0; j < 4; j++)
      if (strcmp(op, luo_table1[i].op) == 0 && strcmp(cell, luo_cells[j]) == 0) {
        double lat = fp32_lat_of(c);
        *v = luo_table1[i].cost[j] * lat / GT200_FP32_LAT;
        NOTE("Table 1 (GTX 260) %g x FP32 latency %g / GT200's %g", luo_table1[i].cost[j], lat,
             GT200_FP32_LAT);
        return 1;
      }
  return 0;
}

static int luo_mem(rule_ctx *c, const char *k, double *v) {
  (void)k;
  double d = par(c, WS_GP_HONG_KIM_MEM_LD);
  if (isnan(d)) d = c->g->lat.dram;
  *v = 200 * d / GT200_MEM_LD;
  NOTE("Table 1 ld/st 200 x DRAM latency %g / GT200's Mem_LD %g", d, GT200_MEM_LD);
  return !isnan(d);
}

static int luo_fixed(rule_ctx *c, const char *k, double *v) {
  *v = strcmp(k, "a") == 0 ? 3 : strcmp(k, "b") == 0 ? 11 : strcmp(k, "c") == 0 ? 0.5 : 80;
  NOTE("the GTX 260's empirical value (Luo & Suda §3.4); no other GPU's is published");
  return 1;
}

static int luo_m(rule_ctx *c, const char *k, double *v) {
  (void)k;
  *v = c->g->limits.max_warps_per_sm;
  NOTE("limits.max_warps_per_sm (§4: 32, the GT200's maximum warps per SM)");
  return 1;
}

/* Transit: delta = (threads, GB/s per SM), pi = (threads, Gops/s per SM). */
static int transit_point(rule_ctx *c, const char *k, double *v) {
  const ws_gpu *g = c->g;
  const ws_sm_limits *L = &g->limits;
  int dp = strstr(k, "_dp_") != NULL;
  double bw_sm = g->mem_bandwidth_gbs / g->sms;
  if (strncmp(k, "delta", 5) == 0 && strstr(k, "threads")) {
    *v = dp ? L->max_threads_per_sm / 2 : L->max_threads_per_sm;
    NOTE("max_threads_per_sm%s (both measured GPUs)", dp ? " / 2" : "");
  } else if (strncmp(k, "delta", 5) == 0) {
    double eta = dp ? TRANSIT_ETA_R_DP : TRANSIT_ETA_R_SP;
    *v = eta * bw_sm;
    NOTE("%g x %g GB/s / %d SMs = %.4g", eta, g->mem_bandwidth_gbs, g->sms, *v);
  } else if (strstr(k, "threads")) {
    /* A thread count: a measured, fractional FP32 latency (Accel-Sim's
     * 4.13 cycles on the TITAN V) is rounded up to the threads that cover it. */
    double lanes_lat = ceil(g->cores_per_sm * fp32_lat_of(c));
    *v = dp ? fmin(384, L->max_threads_per_sm) : fmin(lanes_lat, L->max_threads_per_sm);
    if (dp) NOTE("384, both measured GPUs' value, at most max_threads_per_sm");
    else NOTE("min(ceil(cores_per_sm x FP32 latency), max_threads_per_sm) = min(%g, %d)", lanes_lat,
              L->max_threads_per_sm);
  } else {
    double thr = dp ? c->a->fp64 : c->a->fp32, eta = dp ? TRANSIT_ETA_P_DP : TRANSIT_ETA_P_SP;
    if (!(thr > 0)) return thr == 0 ? NO_FP64() : 0;
    *v = eta * thr * g->clock_ghz;
    NOTE("%g x %g results per clock x %g GHz = %.4g", eta, thr, g->clock_ghz, *v);
  }
  return *v > 0;
}

/* warpsight's own parameters (docs/models/warpsight.md).  They are per
 * architecture and per unit (per SM, per L2 slice, per clock, a share of the
 * DRAM bandwidth), so a board's whole-chip throughputs follow its own facts:
 * the model multiplies l2_bytes_per_slice by the board's cache.l2_slices,
 * issue and LSU rates by its SMs, everything by its sustained clock.  The
 * constants of an architecture with measured data were fitted on it
 * (`warpsight calibrate` on a data set's train half, several boards at
 * once); an architecture without any takes the nearest one's, stated as an
 * estimate; Tesla and Fermi keep the defaults before calibration. */
enum { WSA_ISSUE, WSA_LSU, WSA_L2_SLICE, WSA_DRAM_EFF, WSA_ALU, WSA_MEM, WSA_P, WSA_LAUNCH,
       WSA_BLOCK, WSA_DIV, WSA_CAMP, WSA_ATOM, WSA_ATOM_LANE, WSA_N };
static const char *const wsa_key[WSA_N] = {
    "issue_rate",  "lsu_rate",  "l2_bytes_per_slice", "dram_efficiency", "alu_latency_scale",
    "mem_latency_scale", "overlap_p", "launch_us", "block_cycles", "divergence_penalty",
    "partition_camping", "atomic_cycles", "atomic_lane_cycles"};

typedef struct ws_arch_fit {
  const char *name; /* the architecture */
  double v[WSA_N];  /* in wsa_key's order */
  const char *how;  /* where the values come from */
} ws_arch_fit;

/* Kepler: fitted on the K20's train half of amaris-measured-dev (531 rows,
 * 2026-11-25, profile cache 7): its whole-chip 941.84 B/cycle over the
 * K20's 10 L2 slices, cycles at the data-sheet clock (refitting it jointly
 * on the GTX 680 and K20 with sustained clocks raised the train MAPE from
 * 12.1 to 13.4 %, so the K20's fit is kept).  Maxwell: refitted on the GTX
 * 970's train half (531 rows, 2026-11-28, profile cache 12, per L2 slice,
 * sustained clock 1.151 GHz; train MAPE 8.8 -> 8.1 %).  (Values the fit drove to 0 are stated as 1e-6, so
 * that a later fit of their logarithms can start from them.)  Their data
 * has no atomic-bound kernel: they keep the estimate of before, one cycle
 * per lane operation on an address (GK110 whitepaper: same-address atomics
 * at one per clock), i.e. atomic_lane_cycles 1 and atomic_cycles ~0. */
static const ws_arch_fit wsa_kepler = {
    "Kepler",
    {2.9344124033067436, 0.927587457121581, 94.18431415472957, 1.0, 0.8786668368646868,
     0.5579704627284476, 1.427062690053602, 0.054814699069300185, 149.7065697313214,
     1.69335973728015, 1e-6, 1e-6, 1},
    "fitted on the K20's train half of amaris-measured-dev (531 rows, 2026-11-25)"};
static const ws_arch_fit wsa_maxwell = {
    "Maxwell",
    {2.40738895283112, 1.410735283220079, 54.79732463513752, 0.8595587368566026,
     0.642658143768595, 0.08910955018255873, 1.56108820948243, 1e-06, 1e-06, 3.273992055586798,
     1e-06, 1e-6, 1},
    "fitted on the GTX 970's train half of amaris-measured-dev (531 rows, 2026-11-28)"};
/* Turing and Ampere (GA10x): fitted on the train half of the modern
 * development set (docs/validation.md, "Today's boards"). */
static const ws_arch_fit wsa_turing = {
    "Turing",
    {4.491325434413558, 0.5501414660239088, 42.02415838111533, 0.6181659075868136,
     0.377512981609382, 1.1001604501231177, 1.7948332690048512, 7.445425720427016, 1e-6,
     0.227069546012065, 1e-6, 10.860257174481166, 0.598184046249162},
    "fitted on the modern-dev train half (RTX 2060, RTX 2080 Ti)"};
static const ws_arch_fit wsa_ampere = {
    "Ampere GA10x",
    {4.416880372699604, 0.6487163405032286, 65.83831595908123, 1.0577794315375664,
     0.3980463310614662, 1.2799533601023882, 1.85140969328401, 4.764761358219862, 1e-6,
     0.7049082744720494, 1e-6, 12.431435675553958, 0.582333844123174},
    "fitted on the modern-dev train half (RTX 3060, RTX 3080)"};

/* Architectures whose only measured rows set one constant of their own and
 * borrow the others from the nearest measured architecture (`arch_fit`).
 * Volta (CC 7.0): dram_efficiency from the public gpu-benches cuda-stream
 * table of a Tesla V100 PCIe (data/validation/gpubench, docs/validation.md,
 * "Public microbenchmarks", the protocol's set rows): Turing's 0.6182 x the
 * geometric mean of warpsight's predicted / measured time over the seven
 * full-occupancy rows (1280 blocks of 128 threads; init, sum1, dot, tdot,
 * scale, triad, sch_triad at 834-895 GB/s of the 897 GB/s data sheet), 1.5810:
 * every one of those rows is DRAM-bound in the model.  Turing's value was
 * fitted on one GDDR6 board (the RTX 2060). */
typedef struct ws_arch_own {
  int major, minor;
  int key;          /* the constant measured (WSA_*) */
  double v;
  const char *name; /* the architecture */
  const char *how;  /* where the value comes from */
} ws_arch_own;
static const ws_arch_own wsa_own[] = {
    {7, 0, WSA_DRAM_EFF, 0.9773372165766246, "Volta",
     "from the gpu-benches cuda-stream rows of a Tesla V100 PCIe (data/validation/gpubench): "
     "Turing's 0.6182 x 1.5810, the geometric mean of predicted / measured time over its seven "
     "full-occupancy rows"},
};

/* The architecture whose constants CC major.minor takes, and whether they
 * are another (the nearest measured) architecture's. */
static const ws_arch_fit *arch_fit(int ma, int mi, int *borrowed) {
  *borrowed = 1;
  if (ma == 3) return *borrowed = 0, &wsa_kepler;
  if (ma == 5) return *borrowed = 0, &wsa_maxwell;
  if (ma == 6) return &wsa_maxwell;                 /* Pascal: Maxwell's SM and L2 */
  if (ma == 7 && mi == 5) return *borrowed = 0, &wsa_turing;
  if (ma == 7) return &wsa_turing;                  /* Volta: Turing's SM generation */
  if (ma == 8 && mi == 6) return *borrowed = 0, &wsa_ampere;
  if (ma >= 8) return &wsa_ampere; /* GA100, Ada, Hopper, Blackwell: nearest measured */
  return NULL;
}

/* The defaults before calibration (Tesla, Fermi): schedulers per SM, LD/ST
 * units / 32, the L2 per slice, FP32 latency / 6, the board's
 * launch_overhead_us fact as the launch floor, and fixed estimates. */
static double wsa_default(const rule_ctx *c, int k) {
  int ma = c->a->major;
  switch (k) {
  case WSA_ISSUE: return ma <= 1 ? 0.5 : 2;
  case WSA_LSU: return ma <= 1 ? 0.25 : 0.5;
  case WSA_L2_SLICE: return 32;
  case WSA_DRAM_EFF: return 0.8;
  case WSA_ALU: return c->a->fp32_lat / 6.0;
  case WSA_MEM: return 1;
  case WSA_P: return 4;
  case WSA_LAUNCH: /* the launch floor of an empty kernel (gpu_facts.def) */
    return c->g->launch_overhead_us > 0 ? c->g->launch_overhead_us : 2;
  case WSA_BLOCK: return 100;
  case WSA_DIV: return 1;
  case WSA_ATOM: return 1e-6;
  default: return 1;
  }
}

static int ws_arch(rule_ctx *c, const char *k, double *v) {
  int i = 0;
  while (i < WSA_N && strcmp(wsa_key[i], k)) i++;
  if (i == WSA_N) return 0;
  int borrowed;
  const ws_arch_fit *f = arch_fit(c->a->major, c->a->minor, &borrowed);
  if (!f) {
    *v = wsa_default(c, i);
    NOTE("warpsight's default before calibration for CC %d.x (docs/models/warpsight.md)",
         c->a->major);
    return 1;
  }
  for (size_t o = 0; o < sizeof wsa_own / sizeof wsa_own[0]; o++)
    if (wsa_own[o].major == c->a->major && wsa_own[o].minor == c->a->minor && wsa_own[o].key == i) {
      *v = wsa_own[o].v;
      NOTE("the %s constant, %s", wsa_own[o].name, wsa_own[o].how);
      return 1;
    }
  *v = f->v[i];
  char scale[96] = "";
  if (i == WSA_L2_SLICE && c->g->cache.l2_slices > 0) /* the model's scaling, spelled out */
    snprintf(scale, sizeof scale, "; x this board's %d L2 slices: %.4g B/cycle",
             c->g->cache.l2_slices, *v * c->g->cache.l2_slices);
  if (borrowed)
    NOTE("estimate: no measured data for CC %d.%d; the nearest measured architecture's "
         "(%s) constant, %s%s", c->a->major, c->a->minor, f->name, f->how, scale);
  else
    NOTE("the %s constant, %s%s", f->name, f->how, scale);
  return 1;
}

static int ws_fp64(rule_ctx *c, const char *k, double *v) {
  (void)k;
  *v = c->a->fp64;
  if (*v == 0) return NO_FP64();
  NOTE("FP64 results per clock per SM of CC %d.%d (src/gpu/cc_arch.def)", c->a->major, c->a->minor);
  return *v > 0;
}

/* Kepler's global loads bypass L1 and the L2 serves them per 128-byte line:
 * nvprof's Global.Load.Transactions count one per line a warp touches on
 * the GTX 680 and K20 (a coalesced warp load of 32 floats: 1), 32-byte
 * sectors on the GTX 970 (4) (Amaris et al.'s counters, docs/validation.md,
 * "The kernels"). */
static int ws_l2_request(rule_ctx *c, const char *k, double *v) {
  (void)k;
  *v = c->g->cc_major == 3 ? 128 : 32;
  NOTE("compute capability %d.%d", c->g->cc_major, c->g->cc_minor);
  return 1;
}

static int ws_fixed(rule_ctx *c, const char *k, double *v) {
  static const struct { const char *key; double v; } def[] = {{"barrier_cycles", 20}};
  for (size_t i = 0; i < sizeof def / sizeof def[0]; i++)
    if (strcmp(k, def[i].key) == 0) {
      *v = def[i].v;
      NOTE("warpsight's estimate (docs/models/warpsight.md): no data set exercises it");
      return 1;
    }
  return 0;
}

static const struct rule {
  const char *model;
  const char *table; /* NULL, or the sub-table holding the key */
  const char *key;   /* the key within it ("add.int_const" is one flat key) */
  rule_fn fn;
  const char *formula; /* after "derived: " in the source */
} rules[] = {
    {"hong-kim", NULL, "mem_ld", hk_mem_ld, "latencies.dram"},
    {"hong-kim", NULL, "departure_del_uncoal", hk_uncoal, "32 x sms x clock_ghz / mem_bandwidth_gbs"},
    {"hong-kim", NULL, "departure_del_coal", hk_coal, "128 x sms x clock_ghz / mem_bandwidth_gbs"},
    {"hong-kim", NULL, "issue_cycles", issue_cycles, "warp_size / simd_width"},
    {"gpuperf", NULL, "dram_lat", dram_latency, "latencies.dram, else hong-kim.mem_ld"},
    {"gpuperf", NULL, "transaction_bytes", trans_bytes, "transaction size of the CC"},
    {"gpuperf", NULL, "delta", gp_delta, "hong-kim.departure_del_uncoal"},
    {"gpuperf", NULL, "fp_lat", fp32_latency, "latencies.fp32, else the CC's FP32 latency"},
    {"gpuperf", NULL, "l1_lat", cache_latency, "latencies.l1"},
    {"gpuperf", NULL, "l2_lat", cache_latency, "latencies.l2"},
    {"gpuperf", NULL, "gamma", gamma64, "Gamma = 64"},
    {"gpuperf", NULL, "simd_width", simd_width, "single-issue FP32 lanes of the CC"},
    {"gpuperf", NULL, "sfu_width", sfu_width, "sfu_per_sm, else the CC's SFU throughput"},
    {"kothapalli", NULL, "global_cycles", dram_latency, "latencies.dram, else hong-kim.mem_ld"},
    {"kothapalli", "op_cycles", "int_simple", koth_op, "warp_size / integer-add throughput"},
    {"kothapalli", "op_cycles", "fp_simple", koth_op, "warp_size / FP32 throughput"},
    {"kothapalli", "op_cycles", "int_mul32", koth_op, "warp_size / integer-multiply throughput"},
    {"kothapalli", "op_cycles", "int_div", koth_op, "12 x warp_size / integer-add throughput"},
    {"kothapalli", "op_cycles", "int_rem", koth_op, "12 x warp_size / integer-add throughput"},
    {"kothapalli", "op_cycles", "fp_div", koth_op, "9 x warp_size / FP32 throughput"},
    {"kothapalli", "op_cycles", "sfu", koth_op, "warp_size / SFU throughput"},
    {"kothapalli", "op_cycles", "fp64", koth_op, "warp_size / FP64 throughput"},
    {"kothapalli", NULL, "shared_cycles", koth_shared, "op_cycles.int_simple"},
    {"kothapalli", NULL, "pipeline_depth", koth_depth, "D = 4"},
    {"luo-suda", "inst_costs", "*", luo_cost, "Table 1 x FP32 latency / 24"},
    {"luo-suda", "inst_costs", "ld_st", luo_mem, "200 x hong-kim.mem_ld / 450"},
    {"luo-suda", NULL, "t_mem", luo_mem, "200 x hong-kim.mem_ld / 450"},
    {"luo-suda", NULL, "a", luo_fixed, "a = 3 (GTX 260)"},
    {"luo-suda", NULL, "b", luo_fixed, "b = 11 (GTX 260)"},
    {"luo-suda", NULL, "c", luo_fixed, "c = 0.5 (GTX 260)"},
    {"luo-suda", NULL, "d", luo_fixed, "d = 80 (GTX 260)"},
    {"luo-suda", NULL, "m", luo_m, "limits.max_warps_per_sm"},
    {"transit", NULL, "delta_sp_threads", transit_point, "max_threads_per_sm"},
    {"transit", NULL, "delta_sp_gbs", transit_point, "0.7539 x mem_bandwidth_gbs / sms"},
    {"transit", NULL, "pi_sp_threads", transit_point, "min(ceil(cores_per_sm x FP32 latency), max_threads_per_sm)"},
    {"transit", NULL, "pi_sp_value", transit_point, "0.5423 x FP32 throughput x clock_ghz"},
    {"transit", NULL, "delta_dp_threads", transit_point, "max_threads_per_sm / 2"},
    {"transit", NULL, "delta_dp_gbs", transit_point, "0.8250 x mem_bandwidth_gbs / sms"},
    {"transit", NULL, "pi_dp_threads", transit_point, "min(384, max_threads_per_sm)"},
    {"transit", NULL, "pi_dp_value", transit_point, "0.8721 x FP64 throughput x clock_ghz"},
    {"warpsight", NULL, "issue_rate", ws_arch, "the architecture's constant (warp instructions per SM per cycle)"},
    {"warpsight", NULL, "lsu_rate", ws_arch, "the architecture's constant (lines per SM per cycle)"},
    {"warpsight", NULL, "l2_bytes_per_slice", ws_arch, "the architecture's constant (bytes per cycle per L2 slice)"},
    {"warpsight", NULL, "dram_efficiency", ws_arch, "the architecture's constant"},
    {"warpsight", NULL, "alu_latency_scale", ws_arch, "the architecture's constant"},
    {"warpsight", NULL, "mem_latency_scale", ws_arch, "the architecture's constant"},
    {"warpsight", NULL, "overlap_p", ws_arch, "the architecture's constant"},
    {"warpsight", NULL, "launch_us", ws_arch, "the architecture's constant"},
    {"warpsight", NULL, "barrier_cycles", ws_fixed, "20"},
    {"warpsight", NULL, "atomic_cycles", ws_arch, "the architecture's constant"},
    {"warpsight", NULL, "atomic_lane_cycles", ws_arch, "the architecture's constant"},
    {"warpsight", NULL, "block_cycles", ws_arch, "the architecture's constant"},
    {"warpsight", NULL, "divergence_penalty", ws_arch, "the architecture's constant"},
    {"warpsight", NULL, "partition_camping", ws_arch, "the architecture's constant"},
    {"warpsight", NULL, "l2_request_bytes", ws_l2_request, "128 on CC 3.x (Kepler), else 32"},
    {"warpsight", NULL, "fp64_lanes_per_sm", ws_fp64, "FP64 results per clock per SM of the CC"},
};

/* The id of rule r's parameter `key` (a key of its table, if any). */
static int rule_id(const struct rule *r, const char *key) {
  char full[128];
  if (r->table) snprintf(full, sizeof full, "%s.%s", r->table, key);
  return ws_gpu_param_find(r->model, r->table ? full : key);
}

/* One rule for one key: flag a given parameter, or derive it. */
static int apply(ws_gpu *g, const arch_row *a, const struct rule *r, const char *key) {
  int id = rule_id(r, key);
  if (id < 0) return WS_OK; /* every rule's key is in gpu_params.def */
  ws_gp_value *pv = &g->params[id];
  pv->has_rule = 1;
  if (pv->origin == WS_GP_GIVEN) return WS_OK;
  char note[256], src[192];
  rule_ctx c = {g, a, note, sizeof note, 0};
  double v;
  if (!r->fn(&c, key, &v) || !isfinite(v) || !(v > 0)) {
    if (c.none) { /* absent, and why */
      free(pv->note);
      if (!(pv->note = ws_strdup(note))) return WS_ENOMEM;
    }
    return WS_OK;
  }
  snprintf(src, sizeof src, "derived: %s", r->formula);
  free(pv->source), free(pv->note);
  pv->source = ws_strdup(src);
  pv->note = ws_strdup(note);
  if (!pv->source || !pv->note) return WS_ENOMEM;
  pv->value = v;
  pv->origin = WS_GP_DERIVED;
  return WS_OK;
}

typedef int (*rule_visit)(void *user, const arch_row *a, const struct rule *r, const char *key);

/* Every rule and key in table order ("*" is every cell of Luo & Suda's
 * Table 1). */
static int each_rule(void *user, const arch_row *a, rule_visit fn) {
  for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
    const struct rule *r = &rules[i];
    int st = WS_OK;
    if (strcmp(r->key, "*") == 0) {
      for (size_t o = 0; o < sizeof luo_table1 / sizeof luo_table1[0] && !st; o++)
        for (int j = 0; j < 4 && !st; j++) {
          char key[64];
          snprintf(key, sizeof key, "%s.%s", luo_table1[o].op, luo_cells[j]);
          st = fn(user, a, r, key);
        }
    } else {
      st = fn(user, a, r, r->key);
    }
    if (st) return st;
  }
  return WS_OK;
}

static int derive_one(void *user, const arch_row *a, const struct rule *r, const char *key) {
  return apply(user, a, r, key);
}

int ws_gpu_derive(ws_gpu *g) {
  const arch_row *a = arch_for(g->cc_major, g->cc_minor);
  if (!a) return WS_OK; /* the loader has already refused an unknown CC */
  return each_rule(g, a, derive_one);
}

/* The serialiser's side ----------------------------------------------------*/

cJSON *ws_gpu_doc_parent(cJSON *root, const char *model, const char *table) {
  cJSON *models = cJSON_GetObjectItemCaseSensitive(root, "models");
  if (!models) models = cJSON_AddObjectToObject(root, "models");
  if (!cJSON_IsObject(models)) return NULL;
  cJSON *m = cJSON_GetObjectItemCaseSensitive(models, model);
  if (!m) m = cJSON_AddObjectToObject(models, model);
  if (m && table) {
    cJSON *t = cJSON_GetObjectItemCaseSensitive(m, table);
    m = t ? t : cJSON_AddObjectToObject(m, table);
  }
  return cJSON_IsObject(m) ? m : NULL;
}

/* Marks a parameter the file gives as "given" (bare numbers become value
 * objects so they can carry the mark). */
static int mark_given(cJSON *root, const struct rule *r, const char *key) {
  cJSON *parent = ws_gpu_doc_parent(root, r->model, r->table);
  cJSON *it = parent ? cJSON_GetObjectItemCaseSensitive(parent, key) : NULL;
  if (!it) return WS_ENOMEM;
  if (cJSON_IsNumber(it)) {
    cJSON *o = cJSON_CreateObject();
    if (!o || !cJSON_AddNumberToObject(o, "value", it->valuedouble)) {
      cJSON_Delete(o);
      return WS_ENOMEM;
    }
    cJSON_ReplaceItemInObjectCaseSensitive(parent, key, o);
    it = o;
  }
  if (cJSON_IsObject(it) && !cJSON_GetObjectItemCaseSensitive(it, "given"))
    if (!cJSON_AddTrueToObject(it, "given")) return WS_ENOMEM;
  return WS_OK;
}

static int add_derived(cJSON *root, const struct rule *r, const char *key, const ws_gp_value *pv) {
  cJSON *parent = ws_gpu_doc_parent(root, r->model, r->table);
  cJSON *o = parent ? cJSON_AddObjectToObject(parent, key) : NULL;
  if (!o || !cJSON_AddNumberToObject(o, "value", pv->value) ||
      !cJSON_AddStringToObject(o, "source", pv->source ? pv->source : "derived") ||
      !cJSON_AddTrueToObject(o, "estimate") || !cJSON_AddTrueToObject(o, "derived") ||
      !cJSON_AddStringToObject(o, "note", pv->note ? pv->note : ""))
    return WS_ENOMEM;
  return WS_OK;
}

typedef struct decorate_ctx {
  cJSON *root;
  const ws_gpu *g;
} decorate_ctx;

static int decorate_one(void *user, const arch_row *a, const struct rule *r, const char *key) {
  (void)a;
  const decorate_ctx *c = user;
  int id = rule_id(r, key);
  if (id < 0) return WS_OK;
  const ws_gp_value *pv = &c->g->params[id];
  if (pv->origin == WS_GP_GIVEN && pv->has_rule) {
    cJSON *parent = ws_gpu_doc_parent(c->root, r->model, r->table);
    /* the file gives it under another shape (a nested path): leave it */
    if (!parent || !cJSON_GetObjectItemCaseSensitive(parent, key)) return WS_OK;
    return mark_given(c->root, r, key);
  }
  if (pv->origin == WS_GP_DERIVED) return add_derived(c->root, r, key, pv);
  return WS_OK;
}

int ws_gpu_derive_decorate(cJSON *root, const ws_gpu *g) {
  decorate_ctx c = {root, g};
  return each_rule(&c, NULL, decorate_one);
}
