/*
 * profiler.c — dynamic profile of one launch from the emulator's stream of
 * warp instructions (warpsight/profiler.h; what each field means and how it
 * is measured: docs/profile.md, "Measured by the profiler").
 *
 * Per worker: counters per instruction (executions, memory requests,
 * transactions, bank-conflict passes, branch outcomes), an active-lane
 * histogram, divergence state per warp of the current block, and the global
 * memory sectors each warp of the current block touched, in its issue
 * order.  At block_end the block's record goes to the cache replay
 * (replay.h), which interleaves warps, blocks and SMs as a GPU does and
 * advances as far as the records present allow, so cache results do not
 * depend on -j and memory holds only the blocks that wait for an earlier
 * one or are resident in the replay.
 */
#include "warpsight/profiler.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpsight/analysis.h"
#include "profile/memsim.h"
#include "deps.h"
#include "lines.h"
#include "replay.h"
#include "profile/profile_doc.h"
#include "profile/profile_mix.h"
#include "util/strbuf.h"
#include "util/vec.h"
#include "util/bits.h"

/* Floating-point operations one lane of `in` performs: FMA/MAD count two,
 * a packed f16x2/bf16x2 operation counts its two halves; compares, moves and
 * SFU operations count none (docs/profile.md). */
static int inst_flops(const ws_ptx_inst *in) {
  if (ws_ptx_opcode_kind((ws_ptx_opcode)in->op) != WS_PTX_K_ARITH || !in->ntypes) return 0;
  int t = in->type[0];
  int k = ws_ptx_type_kind((ws_ptx_type)t);
  if (k != WS_PTX_TK_F && k != WS_PTX_TK_H) return 0;
  int n = (in->op == WS_PTX_OP_FMA || in->op == WS_PTX_OP_MAD) ? 2 : 1;
  if (t == WS_PTX_T_F16X2 || t == WS_PTX_T_BF16X2) n *= 2;
  return n;
}

/* Tensor-core operation types, in the order of the per_warp.tensor_*_ops
 * fields (profile_fields.def) and the GPU's tensor facts. */
enum { TC_NONE, TC_FP16_F32ACC, TC_FP16_F16ACC, TC_BF16, TC_TF32, TC_FP8, TC_INT8, TC_FP64, TC_COUNT };

/* The tensor-core type of an mma.sync or wmma.mma, by its A operand's type
 * (and, for FP16, its accumulator's), and the operations one execution
 * performs for the whole warp: 2 M N K (a multiply and an add per product).
 * TC_NONE for every other instruction, and for the 4-bit and 1-bit types,
 * which the GPU facts do not rate (docs/profile.md). */
static int inst_tensor(const ws_ptx_inst *in, double *ops) {
  unsigned M, N, K;
  if ((in->op != WS_PTX_OP_MMA && in->op != WS_PTX_OP_WMMA_MMA) || !in->ntypes ||
      !ws_ptx_shape_mnk((ws_ptx_mod)in->shape, &M, &N, &K))
    return TC_NONE;
  /* .dtype.atype.btype.ctype, or wmma's FP16 .dtype.ctype */
  int a = in->ntypes >= 4 ? in->type[1] : WS_PTX_T_F16, tc;
  switch (a) {
  case WS_PTX_T_F16: case WS_PTX_T_F16X2:
    tc = in->type[0] == WS_PTX_T_F16 || in->type[0] == WS_PTX_T_F16X2 ? TC_FP16_F16ACC : TC_FP16_F32ACC;
    break;
  case WS_PTX_T_BF16: case WS_PTX_T_BF16X2: tc = TC_BF16; break;
  case WS_PTX_T_TF32: tc = TC_TF32; break;
  case WS_PTX_T_E4M3: case WS_PTX_T_E5M2: tc = TC_FP8; break;
  case WS_PTX_T_S8: case WS_PTX_T_U8: tc = TC_INT8; break;
  case WS_PTX_T_F64: tc = TC_FP64; break;
  default: return TC_NONE;
  }
  *ops = 2.0 * M * N * K;
  return tc;
}

/* The mix key of one instruction of class c (profile_mix.def), or MIX_NONE
 * for memory instructions (global, local, generic, texture and surface
 * accesses, atomics and reductions: ws_analysis_is_mem_request), which the
 * mix counts as requests. */
enum { MIX_NONE = 0xffff };

static unsigned mix_op_of(const ws_ptx_inst *in) {
  switch (in->op) {
  case WS_PTX_OP_ADD: return WS_MIX_OP_ADD;
  case WS_PTX_OP_SUB: return WS_MIX_OP_SUB;
  case WS_PTX_OP_MUL: return WS_MIX_OP_MUL;
  case WS_PTX_OP_MUL24: return WS_MIX_OP_MUL24;
  case WS_PTX_OP_MAD: return WS_MIX_OP_MAD;
  case WS_PTX_OP_MAD24: return WS_MIX_OP_MAD24;
  case WS_PTX_OP_FMA: return WS_MIX_OP_FMA;
  case WS_PTX_OP_DIV: return WS_MIX_OP_DIV;
  case WS_PTX_OP_REM: return WS_MIX_OP_REM;
  case WS_PTX_OP_NEG: return WS_MIX_OP_NEG;
  case WS_PTX_OP_ABS: return WS_MIX_OP_ABS;
  case WS_PTX_OP_MIN: return WS_MIX_OP_MIN;
  case WS_PTX_OP_MAX: return WS_MIX_OP_MAX;
  case WS_PTX_OP_AND: return WS_MIX_OP_AND;
  case WS_PTX_OP_OR: return WS_MIX_OP_OR;
  case WS_PTX_OP_XOR: return WS_MIX_OP_XOR;
  case WS_PTX_OP_NOT: return WS_MIX_OP_NOT;
  case WS_PTX_OP_CNOT: return WS_MIX_OP_CNOT;
  default:
    switch (ws_ptx_opcode_kind((ws_ptx_opcode)in->op)) {
    case WS_PTX_K_LOGIC: return WS_MIX_OP_LOGIC;
    case WS_PTX_K_COMPARE: return WS_MIX_OP_COMPARE;
    case WS_PTX_K_SFU: return WS_MIX_OP_SFU;
    default: return WS_MIX_OP_OTHER;
    }
  }
}

/* Whether ws_prof_inst's switch has work for an instruction of kind k: a
 * branch, an exit or return, or a memory access (global, local, shared;
 * texture and surface accesses, atomics, reductions, async copies). */
static uint8_t kind_special(int k) {
  switch (k) {
  case WS_PTX_K_BRANCH: case WS_PTX_K_EXIT: case WS_PTX_K_RETURN:
  case WS_PTX_K_LOAD: case WS_PTX_K_STORE: case WS_PTX_K_ATOMIC: case WS_PTX_K_REDUCTION:
  case WS_PTX_K_ASYNC_COPY:
  case WS_PTX_K_TEXTURE:    /* tex, tld4: one texel address per lane */
  case WS_PTX_K_SURF_LOAD:  /* suld */
  case WS_PTX_K_SURF_STORE: /* sust */
    return 1;
  default: return 0;
  }
}

static unsigned mix_key_of(int c, const ws_ptx_inst *in) {
  if (ws_analysis_is_mem_request((ws_iclass)c)) return MIX_NONE;
  unsigned unit = c == WS_IC_INT    ? WS_MIX_UNIT_INT
                  : c == WS_IC_FP32 ? WS_MIX_UNIT_FP32
                  : c == WS_IC_FP16 ? WS_MIX_UNIT_FP16
                  : c == WS_IC_FP64 ? WS_MIX_UNIT_FP64
                  : c == WS_IC_SFU  ? WS_MIX_UNIT_SFU
                                    : WS_MIX_UNIT_OTHER;
  int k = in->ntypes ? ws_ptx_type_kind((ws_ptx_type)in->type[0]) : 0;
  int fl = k == WS_PTX_TK_F || k == WS_PTX_TK_H;
  int imm = 0;
  for (int i = 1; i < in->nops; i++)
    if (in->ops[i].kind == WS_PTX_O_IMM_INT || in->ops[i].kind == WS_PTX_O_IMM_F32 ||
        in->ops[i].kind == WS_PTX_O_IMM_F64)
      imm = 1;
  return ws_mix_key(unit, mix_op_of(in), fl, imm);
}

/* One of the heaviest warps (the mix's candidates): its position and its
 * counts (p->vlen entries: the module's mix keys, then global requests by
 * threads per transaction 1..32, then shared requests by degree 1..32). */
typedef struct heavy {
  uint64_t block;
  uint32_t warp;
  uint32_t *v;
} heavy;

/* At most this many heaviest warps are kept; beyond, a warp that matches
 * none is dropped (docs/profile.md). */
#define WS_PROF_MAX_HEAVY 1024

/* At most this many instructions of the representative warp are kept (16
 * MiB of ids); beyond, profiler.representative_warp_truncated says so
 * (docs/profile.md). */
#define MAX_REP ((size_t)1 << 22)


typedef struct inst_stat {
  uint64_t execs;       /* warp executions (some lane active) */
  uint64_t back_entries;/* arrivals from a later instruction (a back edge) */
  uint64_t requests;    /* global/local requests (some lane executing) */
  uint64_t coal_reqs;   /* ... needing one transaction */
  uint64_t trans;       /* transactions of all requests */
  uint64_t lines;       /* distinct 128-byte lines of all requests */
  uint64_t bytes;       /* bytes requested */
  uint64_t bytes_moved; /* bytes of the transactions */
  uint64_t sh_reqs;     /* shared-memory requests */
  uint64_t passes;      /* shared passes */
  uint64_t min_passes;  /* passes without conflicts */
  uint64_t degree_sum;  /* sum of conflict degrees */
  uint64_t branches;    /* branch executions */
  uint64_t div_branches;/* ... that diverged */
  uint64_t needed;      /* transactions the requests' bytes need (coalesced) */
  uint64_t atom_reqs;   /* atomic/reduction requests (any space) */
  uint64_t atom_serial; /* per request, the most lanes on one address, summed */
} inst_stat;

/* What the profiler needs of one instruction, found once per launch
 * (ws_prof_new) into one 16-byte record per id, so that the step per warp
 * instruction (ws_prof_inst) reads it and nothing of the IR: no kind to
 * switch on, no register lists to look up (docs/emulator.md, "Profiler
 * hooks").  `slow` is 0 for an instruction the counters and the dependency
 * step cover alone; otherwise its bits say what else it needs. */
typedef struct iinfo {
  ws_dstep dep;           /* its dependency record (deps.h) */
  uint16_t mslot;         /* its mix key's slot in a warp's counts, or MIX_NONE */
  uint8_t flops;          /* per lane (inst_flops) */
  uint8_t slow;           /* SLOW_* bits */
  uint8_t iclass;         /* ws_iclass */
  uint8_t kind;           /* ws_ptx_kind of the opcode */
} iinfo;

enum {
  SLOW_SPECIAL = 1, /* its kind needs inst_special (kind_special) */
  SLOW_ATOMIC = 2   /* an atomic or a reduction (its class is ATOMIC or
                       REDUCTION exactly when its kind is) */
};

typedef struct worker {
  inst_stat *st;          /* per instruction id */
  uint64_t hist[33];      /* warp executions by active lanes */
  uint64_t warps, blocks;
  uint64_t div_idle[33];  /* per live-lane count l: inactive live lanes summed
                             over diverged warp instructions; the lost issue
                             slots are sum_l div_idle[l] / l (integers, so the
                             total does not depend on how blocks split over
                             workers) */
  uint64_t flops;         /* all lanes */
  uint64_t *execs;        /* per instruction id: warp executions (merged into
                             inst_stat.execs by merge_workers) */
  uint32_t rep_warp;      /* the representative warp's index in this block
                             (0 in p->rep_block), else UINT32_MAX */
  uint64_t uncoal_trans;  /* transactions of requests needing more than one */
  uint64_t k_hist[33];    /* requests by threads per transaction */
  uint64_t deg_hist[33];  /* shared requests by conflict degree */
  uint32_t live[32];      /* lanes not exited, per warp of the block */
  uint32_t seen;          /* warps of the block seen */
  uint32_t last[32];      /* per warp: id of its previous instruction */
  uint32_t *wv;           /* per warp of the current block: its mix counts
                             (32 x p->vlen) */
  heavy *heavy;           /* the heaviest warps this worker has seen */
  size_t nheavy, capheavy;
  int heavy_dropped;      /* 1 if WS_PROF_MAX_HEAVY was reached */
  int heavy_oom;          /* 1 if a warp was lost to an allocation failure */
  ws_rp_trace tr[32];     /* current block's sectors, per warp (replay.h) */
  ws_rp_pool pool;        /* trace chunks to reuse (refilled from the
                             profiler's under its lock) */
  ws_sector_set secs;     /* a request's sectors (ws_prof_sectors' scratch) */
  int in_block;
  int touched;            /* the current block made a global memory request */
  uint64_t idle_blocks;   /* profiled blocks that made none */
  ws_deps *deps;          /* dependency paths and atomics (deps.c) */
  const ws_ptx_function *ifunc; /* the function of the last event (NULL: none yet) */
  uint32_t ibase;         /* its first instruction id (UINT32_MAX: not of the module) */
  uint32_t ininsts;       /* its instructions (0 when not of the module) */
} worker;

struct ws_prof {
  ws_prof_config cfg;
  uint64_t total_blocks, nslots, tpb;
  uint64_t represented;   /* blocks the profiled ones stand for (cfg) */
  uint64_t rep_block;     /* the representative warp's block: the first
                             profiled one */
  uint64_t *plan;         /* the profiled blocks, linear order (NULL: every block) */
  uint32_t nfunc;
  uint32_t *func_base;    /* first instruction id of each module function */
  uint32_t ninst;         /* instruction ids in all */
  iinfo *info;            /* per id: what ws_prof_inst needs of it */
  uint16_t *mkeys;        /* per slot: the mix key */
  uint32_t nmkeys;        /* slots of mix keys */
  uint32_t vlen;          /* counts per warp: nmkeys + 64 */
  int nworkers;
  worker *w;
  ws_coal_rule load_rule, store_rule;
  ws_coal_rule load_rule_l2; /* a load the L1 does not serve (l1_bypass) */
  ws_bank_config banks;
  uint32_t *rep;          /* instruction ids of warp 0 of block 0, in order
                             (its first MAX_REP) */
  size_t nrep, caprep;
  int rep_truncated;      /* warp 0 of block 0 ran more than MAX_REP */
  int rep_oom;            /* a push to rep failed: its periods would be wrong */
  pthread_mutex_t mu;     /* guards rp and half */
  int mu_init;
  ws_replay *rp;          /* the cache replay of the profiled blocks */
  ws_replay *half[2];     /* sampled: the even and the odd slots alone, for
                             the split-half error (NULL otherwise) */
  ws_rp_pool pool;        /* trace chunks the replays released (under mu) */
};

/* Slot of block b among the profiled ones (its rank in the plan), or
 * UINT64_MAX when it is not profiled. */
static uint64_t sample_slot(const ws_prof *p, uint64_t b) {
  if (!p->plan) return b < p->total_blocks ? b : UINT64_MAX;
  uint64_t lo = 0, hi = p->nslots;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (p->plan[mid] < b) lo = mid + 1;
    else hi = mid;
  }
  return lo < p->nslots && p->plan[lo] == b ? lo : UINT64_MAX;
}

int ws_prof_sampled(const ws_prof *p, uint64_t block) {
  return sample_slot(p, block) != UINT64_MAX;
}

/* Instruction id of (func, pc), or UINT32_MAX for a function outside the
 * module. */
static uint32_t inst_id(const ws_prof *p, const ws_ptx_function *f, uint32_t pc) {
  const ws_ptx_module *m = p->cfg.module;
  if (f < m->funcs || f >= m->funcs + m->nfuncs) return UINT32_MAX;
  uint32_t fi = (uint32_t)(f - m->funcs);
  if (pc >= f->ninsts) return UINT32_MAX;
  return p->func_base[fi] + pc;
}

struct ws_prof_l2 {
  ws_cache c; /* the L2's tags, sectors and LRU stamps, all clean */
};

/* The cache replays (replay.h): one of the profiled blocks; when sampling,
 * DRAM traffic is attributed to the launch's regions for the grid estimate,
 * and two more replays of the even and the odd slots give its split-half
 * error.  0, or -1 out of memory. */
static int replays_new(ws_prof *p) {
  const ws_gpu *g = p->cfg.gpu;
  uint32_t per_sm = ws_prof_rp_blocks_per_sm(g, p->tpb, p->cfg.resources.registers_per_thread,
                                        p->cfg.resources.shared_bytes_per_block);
  int sampled = p->nslots < p->total_blocks;
  int counted = sampled || p->cfg.l2_start == WS_PROF_L2_WARM;
  size_t nreg = counted ? p->cfg.nregions : 0;
  ws_rp_region *reg = calloc(nreg + 1, sizeof *reg);
  if (!reg) return -1;
  for (size_t i = 0; i < nreg; i++) reg[i] = (ws_rp_region){p->cfg.regions[i].base, p->cfg.regions[i].bytes};
  /* The shared memory the resident blocks take from a unified L1/shared
   * array: their own bytes and, on CC >= 8.0, the 1 KB per block the driver
   * reserves (limits.shared_reserved_per_block; docs/gpu-schema.md, "The
   * L1/shared carve-out"). */
  double sh = p->cfg.resources.shared_bytes_per_block;
  sh = sh > 0 ? sh : 0;
  if (g->limits.shared_reserved_per_block > 0) sh += g->limits.shared_reserved_per_block;
  ws_rp_config rc = {.nslots = p->nslots, .grid_blocks = p->represented, .blocks_per_sm = per_sm,
                     .track = sampled, .regions = reg, .nregions = nreg,
                     .shared_per_sm = (uint64_t)(sh * per_sm), .l2_start = p->cfg.l2_start,
                     .l2_carried = p->cfg.l2_carried ? &p->cfg.l2_carried->c : NULL};
  p->rp = ws_prof_rp_new(g, &rc);
  int bad = !p->rp;
  if (sampled && p->nslots >= 2 && !bad)
    for (int h = 0; h < 2; h++) {
      ws_rp_config hc = rc;
      hc.nslots = (p->nslots + 1 - (uint64_t)h) / 2;
      p->half[h] = ws_prof_rp_new(g, &hc);
      bad |= !p->half[h];
    }
  free(reg);
  p->cfg.regions = NULL; /* read here only (profiler.h) */
  p->cfg.nregions = 0;
  p->cfg.l2_carried = NULL;
  return bad ? -1 : 0;
}

void ws_prof_l2_free(ws_prof_l2 *s) {
  if (!s) return;
  ws_prof_cache_free(&s->c);
  free(s);
}

int ws_prof_l2_end(ws_prof_l2 **out, const ws_prof *p) {
  *out = NULL;
  const ws_rp_stats *cs = ws_prof_rp_stats_of(p->rp);
  if (p->nslots < p->total_blocks || !cs->have_l2) return WS_OK;
  ws_prof_l2 *s = calloc(1, sizeof *s);
  if (!s || ws_prof_rp_l2_end(&s->c, p->rp)) {
    free(s);
    return WS_ENOMEM;
  }
  *out = s;
  return WS_OK;
}

int ws_prof_new(ws_prof **out, const ws_prof_config *cfg, ws_diag *d) {
  *out = NULL;
  if (!cfg->module || !cfg->kernel || !cfg->gpu || cfg->workers < 1) {
    ws_diag_error(d, "profiler: module, kernel, GPU and workers >= 1 are required");
    return WS_EINVAL;
  }
  ws_prof *p = calloc(1, sizeof *p);
  if (!p) return WS_ENOMEM;
  p->cfg = *cfg;
  p->total_blocks = (uint64_t)cfg->grid[0] * cfg->grid[1] * cfg->grid[2];
  p->tpb = (uint64_t)cfg->block[0] * cfg->block[1] * cfg->block[2];
  p->nslots = cfg->plan ? cfg->nplan : ws_prof_sample_count(p->total_blocks, cfg->sample_blocks);
  if (cfg->plan && (!cfg->nplan || cfg->nplan > p->total_blocks)) {
    ws_diag_error(d, "profiler: a plan of %llu blocks for a grid of %llu",
                  (unsigned long long)cfg->nplan, (unsigned long long)p->total_blocks);
    free(p);
    return WS_EINVAL;
  }
  if (p->nslots < p->total_blocks) {
    p->plan = malloc(p->nslots * sizeof *p->plan);
    if (!p->plan) goto nomem;
    if (cfg->plan) memcpy(p->plan, cfg->plan, p->nslots * sizeof *p->plan);
    else ws_prof_sample_plan(p->plan, cfg->grid, cfg->sample_blocks);
    p->rep_block = p->plan[0];
  }
  p->cfg.plan = NULL; /* copied */
  p->represented = cfg->represented_blocks && cfg->represented_blocks <= p->total_blocks
                       ? cfg->represented_blocks : p->total_blocks;
  if (p->represented < p->nslots) p->represented = p->nslots;
  const ws_ptx_module *m = cfg->module;
  p->nfunc = m->nfuncs;
  p->func_base = calloc(m->nfuncs + 1, sizeof *p->func_base);
  if (!p->func_base) goto nomem;
  for (uint32_t f = 0; f < m->nfuncs; f++) p->func_base[f + 1] = p->func_base[f] + m->funcs[f].ninsts;
  p->ninst = p->func_base[m->nfuncs];
  p->info = calloc(p->ninst + 1, sizeof *p->info);
  p->mkeys = calloc(p->ninst + 1, sizeof *p->mkeys);
  p->nworkers = cfg->workers;
  p->w = calloc((size_t)cfg->workers, sizeof *p->w);
  if (!p->info || !p->mkeys || !p->w) goto nomem;
  for (uint32_t f = 0; f < m->nfuncs; f++)
    for (uint32_t i = 0; i < m->funcs[f].ninsts; i++) {
      const ws_ptx_inst *in = &m->funcs[f].insts[i];
      iinfo *ii = &p->info[p->func_base[f] + i];
      ii->iclass = (uint8_t)ws_analysis_class(in);
      ii->flops = (uint8_t)inst_flops(in);
      ii->kind = (uint8_t)ws_ptx_opcode_kind((ws_ptx_opcode)in->op);
      ii->slow = (uint8_t)((kind_special(ii->kind) ? SLOW_SPECIAL : 0) |
                           (ii->kind == WS_PTX_K_ATOMIC || ii->kind == WS_PTX_K_REDUCTION ? SLOW_ATOMIC : 0));
      unsigned key = mix_key_of(ii->iclass, in);
      uint32_t s = 0;
      while (key != MIX_NONE && s < p->nmkeys && p->mkeys[s] != key) s++;
      if (key != MIX_NONE && s == p->nmkeys) p->mkeys[p->nmkeys++] = (uint16_t)key;
      ii->mslot = key == MIX_NONE ? MIX_NONE : (uint16_t)s;
    }
  p->vlen = p->nmkeys + 64;
  for (int k = 0; k < cfg->workers; k++) {
    p->w[k].st = calloc(p->ninst + 1, sizeof *p->w[k].st);
    p->w[k].execs = calloc(p->ninst + 1, sizeof *p->w[k].execs);
    p->w[k].deps = ws_prof_deps_new(cfg->kernel);
    p->w[k].wv = calloc((size_t)32 * p->vlen, sizeof *p->w[k].wv);
    p->w[k].rep_warp = UINT32_MAX;
    if (!p->w[k].st || !p->w[k].execs || !p->w[k].deps || !p->w[k].wv) goto nomem;
    if (ws_prof_deps_track(p->w[k].deps, m, p->func_base, p->ninst)) goto nomem;
  }
  /* The dependency records: the kernel's instructions from its register
   * lists (every worker's are the same, made from the same kernel), the
   * barrier class for every function's. */
  for (uint32_t f = 0; f < m->nfuncs; f++)
    for (uint32_t i = 0; i < m->funcs[f].ninsts; i++) {
      iinfo *ii = &p->info[p->func_base[f] + i];
      if (&m->funcs[f] == cfg->kernel) ii->dep = ws_prof_deps_regs_of(p->w[0].deps, i);
      ii->dep.barrier = ii->iclass == WS_IC_BARRIER;
    }
  /* Warps that run the same instructions as their block's first one only
   * follow its trace (deps.c, "Shadows"); without room for that, every
   * warp runs the step, with the same results. */
  for (int k = 0; p->tpb > 32 && k < cfg->workers; k++)
    (void)ws_prof_deps_shadow(p->w[k].deps, &p->info[0].dep, sizeof *p->info, p->ninst);
  const ws_gpu *g = cfg->gpu;
  p->load_rule = ws_prof_coal_rule_for(g->cc_major, g->cc_minor, g->cache.l1_caches_global, 0);
  p->load_rule_l2 = ws_prof_coal_rule_for(g->cc_major, g->cc_minor, 0, 0);
  p->store_rule = ws_prof_coal_rule_for(g->cc_major, g->cc_minor, g->cache.l1_caches_global, 1);
  p->banks = ws_prof_bank_config_for(g->cc_major, g->cc_minor);
  pthread_mutex_init(&p->mu, NULL);
  p->mu_init = 1;
  if (replays_new(p)) goto nomem;
  *out = p;
  return WS_OK;
nomem:
  ws_prof_free(p);
  return WS_ENOMEM;
}

void ws_prof_free(ws_prof *p) {
  if (!p) return;
  for (int k = 0; p->w && k < p->nworkers; k++) {
    free(p->w[k].st);
    free(p->w[k].execs);
    ws_prof_deps_free(p->w[k].deps);
    for (int i = 0; i < 32; i++) ws_prof_rp_trace_clear(&p->w[k].tr[i], &p->w[k].pool);
    free(p->w[k].wv);
    for (size_t h = 0; h < p->w[k].nheavy; h++) free(p->w[k].heavy[h].v);
    free(p->w[k].heavy);
  }
  free(p->func_base);
  free(p->plan);
  free(p->info);
  free(p->mkeys);
  free(p->rep);
  ws_prof_rp_free(p->rp);
  ws_prof_rp_free(p->half[0]);
  ws_prof_rp_free(p->half[1]);
  /* The trace chunks, in the workers' slabs, after the replays have
   * released their records (replay.h). */
  for (int k = 0; p->w && k < p->nworkers; k++) ws_prof_rp_pool_free(&p->w[k].pool);
  ws_prof_rp_pool_free(&p->pool);
  free(p->w);
  if (p->mu_init) pthread_mutex_destroy(&p->mu);
  free(p);
}

void ws_prof_block_begin(ws_prof *p, int worker_id, uint32_t block_linear) {
  worker *w = &p->w[worker_id];
  w->seen = 0;
  w->rep_warp = block_linear == p->rep_block ? 0 : UINT32_MAX; /* warp 0 of block 0 (of the plan) */
  for (int i = 0; i < 32; i++) ws_prof_rp_trace_clear(&w->tr[i], &w->pool);
  w->in_block = 1;
  w->touched = 0;
  ws_prof_deps_block_begin(w->deps);
}

/* Is (block, warp) a before b in linear order? */
static int heavy_before(uint64_t ab, uint32_t aw, uint64_t bb, uint32_t bw) {
  return ab < bb || (ab == bb && aw < bw);
}

static int covers(const uint32_t *a, const uint32_t *b, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    if (a[i] < b[i]) return 0;
  return 1;
}

/* Adds a warp to a list of heaviest warps: dropped when an earlier warp of
 * the list has at least its every count; else it drops the later warps it
 * covers.  The list that results does not depend on the order of the
 * calls, so not on -j (docs/profile.md).  v is copied. */
static int heavy_add(heavy **list, size_t *n, size_t *cap, int *dropped, uint64_t block,
                     uint32_t warp, const uint32_t *v, uint32_t len) {
  for (size_t i = 0; i < *n; i++)
    if (heavy_before((*list)[i].block, (*list)[i].warp, block, warp) && covers((*list)[i].v, v, len))
      return WS_OK;
  size_t k = 0;
  for (size_t i = 0; i < *n; i++) {
    heavy *h = &(*list)[i];
    if (heavy_before(block, warp, h->block, h->warp) && covers(v, h->v, len)) free(h->v);
    else (*list)[k++] = *h;
  }
  *n = k;
  if (*n >= WS_PROF_MAX_HEAVY) {
    *dropped = 1;
    return WS_OK;
  }
  uint32_t *copy = malloc((size_t)len * sizeof *copy);
  if (!copy || WS_VEC_RESERVE(*list, *cap, *n + 1)) {
    free(copy);
    return WS_ENOMEM;
  }
  memcpy(copy, v, (size_t)len * sizeof *copy);
  (*list)[(*n)++] = (heavy){block, warp, copy};
  return WS_OK;
}

void ws_prof_block_end(ws_prof *p, int worker_id, uint32_t block_linear) {
  worker *w = &p->w[worker_id];
  const uint32_t *prev = NULL; /* the counts of the warp added last, when it went well */
  for (uint32_t wi = 0; wi < 32; wi++) {
    if (!(w->seen >> wi & 1)) continue;
    const uint32_t *v = &w->wv[(size_t)wi * p->vlen];
    /* A warp whose counts equal those of the block's warp before it leaves
     * the list as it is: that warp is in the list (and covers it) or was
     * dropped for an earlier warp that covers both, or the list was full
     * (and it still is).  Most blocks' warps run the same counts. */
    if (prev && !memcmp(v, prev, (size_t)p->vlen * sizeof *v)) continue;
    prev = v;
    if (heavy_add(&w->heavy, &w->nheavy, &w->capheavy, &w->heavy_dropped, block_linear, wi, v,
                  p->vlen) != WS_OK) {
      w->heavy_oom = 1; /* the list is incomplete: ws_prof_finish fails */
      prev = NULL;
    }
  }
  w->warps += ws_popc32(w->seen);
  w->blocks++;
  w->idle_blocks += !w->touched;
  ws_prof_deps_block_end(w->deps);
  w->in_block = 0;
  uint64_t s = sample_slot(p, block_linear);
  if (s == UINT64_MAX) return;
  /* The block's traces go to the replays as they are (one record, shared);
   * the worker takes back as many chunks as the replays have released, up
   * to what the block used. */
  uint32_t nwarps = w->seen ? 32 - (uint32_t)__builtin_clz(w->seen) : 0;
  size_t used = 0;
  for (uint32_t i = 0; i < nwarps; i++)
    for (const ws_rp_chunk *c = w->tr[i].head; c; c = c->next) used++;
  pthread_mutex_lock(&p->mu);
  ws_rp_record *rec = ws_prof_rp_record_take(w->tr, nwarps, &p->pool);
  ws_prof_rp_give(p->rp, s, rec);
  if (p->half[0]) ws_prof_rp_give(p->half[s % 2], s / 2, rec);
  ws_prof_rp_record_release(rec);
  ws_prof_rp_pool_move(&w->pool, &p->pool, used);
  pthread_mutex_unlock(&p->mu);
}

/* Lanes of warp `warp` in a block of tpb threads. */
static uint32_t warp_lanes(uint64_t tpb, uint32_t warp) {
  uint64_t first = (uint64_t)warp * 32;
  if (first >= tpb) return 0;
  uint64_t n = tpb - first;
  return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

/* Bytes one lane accesses: the event's, else (an atomic or reduction, whose
 * event carries none) its instruction's type's size, else 4 -- so that an
 * atomics-only kernel still has memory bytes (issue 23). */
static inline unsigned ev_bytes(const ws_emu_event *ev) {
  if (ev->bytes) return ev->bytes;
  int n = ev->inst && ev->inst->ntypes ? ws_ptx_type_size((ws_ptx_type)ev->inst->type[0]) : 0;
  return n > 0 ? (unsigned)n : 4;
}

/* The lanes' bytes as the memory simulator models them: ev_bytes(ev), or
 * for a size memsim does not model (a vector wider than 16 bytes, an odd
 * width) 16 or 4 bytes per lane.  The lanes' addresses are read in place
 * from the event (ws_prof_coalesce_counted_at, ws_prof_bank_conflicts_at),
 * not copied. */
static inline uint32_t sim_size(unsigned bytes) {
  if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8 && bytes != 16) return bytes > 16 ? 16 : 4;
  return bytes;
}

/* Whether a global load is served past the L1, at the L2
 * (docs/profile.md, "Cache operators"; the replay's WS_RP_L1_BYPASS):
 *   - ld.global.cg ("cache at global level, not L1") and ld.global.cv
 *     ("don't cache and fetch again"): the PTX ISA, "Cache Operators";
 *     __ldcg and __ldcv of the CUDA C++ Programming Guide, "Load Functions
 *     Using Cache Hints";
 *   - ld.volatile (which the PTX ISA's memory consistency model treats as
 *     a relaxed load at system scope), ld.mmio, and ld.relaxed / ld.acquire
 *     at .gpu, .sys or .cluster scope: they must see other SMs' writes,
 *     and the L1 is not coherent between SMs ("multiple L1 caches are not
 *     coherent for global data", ld.ca in "Cache Operators"), so they are
 *     served by the L2, where global data is coherent.  At .cta scope the
 *     block's own SM's L1 serves (its threads share it).
 * .ca, .cs and .lu (and no operator) stay on the L1 path; ld.global.nc
 * keeps the read-only path whatever its operator (an assumption: the ISA
 * allows .ca/.cg/.cs with .nc and says nothing of where they are served).
 * Loads of other spaces, stores, atomics and texture fetches: never. */
static inline int l1_bypass(const ws_emu_event *ev, int kind, int nc) {
  const ws_ptx_inst *in = ev->inst;
  if (kind != WS_PTX_K_LOAD || ev->space != WS_PTX_SP_GLOBAL || nc || !in) return 0;
  if (in->cache == WS_PTX_MOD_CG || in->cache == WS_PTX_MOD_CV) return 1;
  if (ws_ptx_inst_has(in, WS_PTX_MOD_VOLATILE) || ws_ptx_inst_has(in, WS_PTX_MOD_MMIO)) return 1;
  return in->sem && in->scope != WS_PTX_MOD_CTA;
}

WS_CLONES_V3
static void global_request(ws_prof *p, worker *w, inst_stat *st, const ws_emu_event *ev,
                           int kind) {
  int is_write = kind == WS_PTX_K_STORE || kind == WS_PTX_K_ATOMIC || kind == WS_PTX_K_REDUCTION ||
                 kind == WS_PTX_K_SURF_STORE;
  int is_atomic = kind == WS_PTX_K_ATOMIC || kind == WS_PTX_K_REDUCTION;
  const unsigned bytes = ev_bytes(ev); /* found once per request */
  const uint32_t size = sim_size(bytes);
  /* ld.global.nc and texture fetches: the read-only (texture) path (replay.c) */
  int nc = (kind == WS_PTX_K_LOAD && ev->space == WS_PTX_SP_GLOBAL && ev->inst &&
            ws_ptx_inst_has(ev->inst, WS_PTX_MOD_NC)) ||
           kind == WS_PTX_K_TEXTURE;
  const int bypass = l1_bypass(ev, kind, nc);
  /* a load served by the L2 alone is counted in its 32-byte sectors even
   * where the L1's loads are in 128-byte lines (CC 2.x, as -dlcm=cg) */
  const ws_coal_rule rule = is_write ? p->store_rule : bypass ? p->load_rule_l2 : p->load_rule;
  /* The distinct 32-byte sectors, in lane order, for the cache replay; when
   * the lanes' access size is the one coalescing counts with, they give its
   * sector and line counts too. */
  uint64_t sec[128];
  uint32_t nl, ns = ws_prof_sectors(&w->secs, ev->exec, ev->addr, bytes, sec, &nl);
  ws_coal_result r;
  if (size == bytes) {
    ws_prof_coalesce_counted_at(&r, ev->exec, size, ev->addr, rule,
                                ns < 64 ? ns : 64, nl < 64 ? nl : 64);
  } else { /* an odd size: the sectors of the size coalescing counts with */
    ws_warp_access a = {ev->exec, size, {0}};
    memcpy(a.addr, ev->addr, sizeof a.addr);
    ws_prof_coalesce(&r, &a, rule);
  }
  st->requests++;
  st->trans += r.transactions;
  st->lines += r.lines;
  uint32_t nexec = ws_lanes32(ev->exec);
  st->bytes += (uint64_t)nexec * bytes;
  st->bytes_moved += r.bytes_moved;
  /* Coalesced: no more transactions than a contiguous, aligned access of
   * the same bytes would need (docs/profile.md): one per warp for 4-byte
   * lanes under CC 2.x's 128-byte lines, one per half-warp on CC 1.x, four
   * 32-byte sectors on CC >= 3.0. */
  uint32_t best = 0;
  if (rule == WS_COAL_CC1X_STRICT || rule == WS_COAL_CC1X_RELAXED) {
    for (int h = 0; h < 2; h++) {
      uint32_t n = ws_popc32(h ? ev->exec >> 16 : ev->exec & 0xffffu);
      best += (n * size + 127) / 128;
    }
  } else {
    uint32_t unit = rule == WS_COAL_CC2X_L1 ? 128 : 32;
    best = (nexec * size + unit - 1) / unit;
  }
  st->needed += best < r.transactions ? best : r.transactions; /* never above its own */
  if (r.transactions <= best) st->coal_reqs++;
  else w->uncoal_trans += r.transactions;
  uint32_t k = r.transactions ? nexec / r.transactions : 1;
  w->k_hist[k < 1 ? 1 : (k > 32 ? 32 : k)]++;
  w->wv[(size_t)(ev->warp & 31) * p->vlen + p->nmkeys + (k < 1 ? 1 : (k > 32 ? 32 : k)) - 1]++;
  uint64_t flags = (is_write ? WS_RP_WRITE : 0) | (is_atomic ? WS_RP_ATOMIC : 0) |
                   (ev->space == WS_PTX_SP_LOCAL ? WS_RP_LOCAL : 0) | (nc ? WS_RP_NC : 0) |
                   (bypass ? WS_RP_L1_BYPASS : 0);
  if (ev->space == WS_PTX_SP_GLOBAL) w->touched = 1;
  ws_rp_trace *t = &w->tr[ev->warp & 31];
  uint64_t *o = ns ? ws_prof_rp_trace_room(t, ns, &w->pool) : NULL;
  if (!o) return; /* none, or out of memory (noted in t) */
  o[0] = sec[0] | flags | WS_RP_FIRST;
  for (uint32_t j = 1; j < ns; j++) o[j] = sec[j] | flags;
  t->tail->n += ns;
}

/* Returns the request's extra passes (bank-conflict replays). */
static uint32_t shared_request(ws_prof *p, worker *w, inst_stat *st, const ws_emu_event *ev) {
  ws_bank_result r;
  ws_prof_bank_conflicts_at(&r, ev->exec, sim_size(ev_bytes(ev)), ev->addr, &p->banks);
  st->sh_reqs++;
  st->passes += r.passes;
  st->min_passes += r.min_passes;
  st->degree_sum += r.degree;
  w->deg_hist[r.degree < 1 ? 1 : (r.degree > 32 ? 32 : r.degree)]++;
  w->wv[(size_t)(ev->warp & 31) * p->vlen + p->nmkeys + 32 +
        (r.degree < 1 ? 1 : (r.degree > 32 ? 32 : r.degree)) - 1]++;
  return r.passes > r.min_passes ? r.passes - r.min_passes : 0;
}

/* The slow paths of ws_prof_inst, out of line so that its common path
 * (counters and the dependency step) keeps its registers. */

/* A warp's first instruction in the block: its state cleared (and the
 * dependency step's). */
static __attribute__((noinline)) void warp_first(ws_prof *p, worker *w, uint32_t warp) {
  uint32_t wi = warp & 31;
  w->seen |= 1u << wi;
  w->live[wi] = warp_lanes(p->tpb, warp);
  w->last[wi] = UINT32_MAX;
  memset(&w->wv[(size_t)wi * p->vlen], 0, p->vlen * sizeof *w->wv);
  ws_prof_deps_warp_begin(w->deps, wi);
}

/* An event of another function than the last one's: its first id, and its
 * instructions (0 for no function, or one outside the module: no ids). */
static __attribute__((noinline)) void func_switch(ws_prof *p, worker *w, const ws_ptx_function *f) {
  w->ifunc = f;
  w->ibase = f ? inst_id(p, f, 0) : UINT32_MAX;
  w->ininsts = w->ibase == UINT32_MAX ? 0 : f->ninsts;
}

/* An instruction of the representative warp (one worker runs a block, so
 * no other thread writes rep). */
static __attribute__((noinline)) void rep_push(ws_prof *p, uint32_t id) {
  if (p->nrep == MAX_REP) p->rep_truncated = 1; /* said in the profile */
  else if (WS_VEC_PUSH(p->rep, p->nrep, p->caprep, id)) p->rep_oom = 1; /* ws_prof_finish: WS_ENOMEM */
}

/* What an instruction of a kind_special kind does besides the counters;
 * returns a shared request's extra passes (bank-conflict replays). */
static uint32_t inst_special(ws_prof *p, worker *w, inst_stat *st, const ws_emu_event *ev, int kind) {
  uint32_t wi = ev->warp & 31;
  switch (kind) {
  case WS_PTX_K_BRANCH:
    st->branches++;
    if (ev->taken && (ev->taken & ev->active) != ev->active) st->div_branches++;
    return 0;
  case WS_PTX_K_EXIT: w->live[wi] &= ~ev->exec; return 0;
  case WS_PTX_K_RETURN:
    if (ev->func == p->cfg.kernel) w->live[wi] &= ~ev->exec;
    return 0;
  default: /* the memory kinds */
    if (!ev->exec || !ev->addr) return 0;
    if (ev->space == WS_PTX_SP_GLOBAL || ev->space == WS_PTX_SP_LOCAL)
      global_request(p, w, st, ev, kind);
    else if (ev->space == WS_PTX_SP_SHARED)
      return shared_request(p, w, st, ev);
    return 0;
  }
}

/* The slow path of ws_prof_inst (an iinfo with slow bits), out of line so
 * that the common path keeps its registers: a branch, an exit, a memory
 * access (inst_special), an atomic's figures.  Returns the extra
 * shared-memory passes (bank-conflict replays). */
static __attribute__((noinline)) uint32_t inst_slow(ws_prof *p, worker *w, const ws_emu_event *ev,
                                                    const iinfo *ii, uint32_t id) {
  inst_stat *st = &w->st[id];
  const uint32_t replays = ii->slow & SLOW_SPECIAL ? inst_special(p, w, st, ev, ii->kind) : 0;
  if (ii->slow & SLOW_ATOMIC) {
    /* an atomic's most lanes on one address, counted once by the
     * dependency section (deps.c) and here per line (lines.h) */
    uint32_t deg = ws_prof_deps_atomics(w->deps, ev);
    if (ev->exec && ev->addr) st->atom_reqs++, st->atom_serial += deg;
  }
  return replays;
}

/* A run of ev->count > 1 plain instructions from ev->pc, executed by every
 * active lane (ws_emu_hooks.runs; docs/emulator.md, "Profiler hooks"):
 * for each, what ws_prof_inst does for one, in one loop over their
 * records.  The counters that are the same for every instruction of the
 * run are added once, times n: the active-lane histogram and div_idle
 * (the warp's live lanes change only at an exit or a return, which end a
 * run); a back edge can be only at the first (the run is inside one basic
 * block), and flops are the run's sum times the lanes.  The dependency
 * step (or a shadow's check) runs for each instruction in order; none has
 * a shared access or replays.  An instruction with slow bits (none should
 * be in a run: those are branches, exits, returns, memory accesses and
 * atomics) gets an event of its own.  A run past its function's end (a
 * hand-made event) counts the instructions up to it. */
static __attribute__((noinline)) void inst_run(ws_prof *p, worker *w, const ws_emu_event *ev, uint32_t id,
                                               uint32_t wi) {
  const uint32_t active = ev->active, pc = ev->pc;
  const uint32_t n = ev->count < w->ininsts - pc ? ev->count : w->ininsts - pc;
  const iinfo *ii = &p->info[id];
  const uint32_t last = w->last[wi];
  if (ev->bb_entry && last - id < w->ibase + w->ininsts - id) w->st[id].back_entries++;
  w->last[wi] = id + n - 1;
  if (ev->warp == w->rep_warp)
    for (uint32_t k = 0; k < n; k++) rep_push(p, id + k);
  w->hist[ws_lanes32(active)] += n;
  const uint32_t live = w->live[wi];
  if ((active & live) != live)
    w->div_idle[ws_popc32(live)] += (uint64_t)n * (ws_popc32(live) - ws_popc32(active & live));
  uint32_t *wv = &w->wv[(size_t)wi * p->vlen];
  uint64_t *execs = &w->execs[id];
  uint64_t flops = 0;
  uint32_t slow = 0;
  for (uint32_t k = 0; k < n; k++) {
    execs[k]++;
    if (ii[k].mslot != MIX_NONE) wv[ii[k].mslot]++;
    flops += ii[k].flops;
    slow |= ii[k].slow;
  }
  w->flops += flops * ws_lanes32(active);
  if (!slow) {
    ws_prof_deps_run(w->deps, wi, &ii->dep, sizeof *ii, n, id);
    return;
  }
  for (uint32_t k = 0; k < n; k++) {
    uint32_t replays = 0;
    if (ii[k].slow) {
      ws_emu_event one = *ev;
      one.pc = pc + k;
      one.inst = &ev->func->insts[pc + k];
      one.bb_entry = k ? 0 : ev->bb_entry;
      one.count = 1;
      replays = inst_slow(p, w, &one, &ii[k], id + k);
    }
    ws_prof_deps_inst(w->deps, wi, &ii[k].dep, 0, replays, id + k);
  }
}

/* The step per warp instruction.  Its common path (an instruction of no
 * slow kind, all lanes alive) is the counters that need the event (the
 * executions, the warp's mix slot, the active-lane histogram, flops, a back
 * edge at a block's entry) and the dependency step over the instruction's
 * record: about 200 x86 instructions, 125 of them the dependency step
 * (docs/emulator.md, "What is left"; the measurements in
 * docs/emulator-history.md, "prof-inst") -- for a warp that follows its
 * block's leader, a check of the leader's trace instead, about 10
 * (deps.c, "Shadows").  An event for a run of plain instructions (count >
 * 1) goes to inst_run. */
void ws_prof_inst(ws_prof *p, const ws_emu_event *ev) {
  worker *w = &p->w[ev->worker];
  if (ev->func != w->ifunc) func_switch(p, w, ev->func);
  const uint32_t pc = ev->pc, active = ev->active, warp = ev->warp;
  if (pc >= w->ininsts || !active) return; /* no instruction id, or no lane */
  const uint32_t id = w->ibase + pc, wi = warp & 31;
  const iinfo *ii = &p->info[id];
  if (!(w->seen >> wi & 1)) warp_first(p, w, warp);
  if (ev->count > 1) {
    inst_run(p, w, ev, id, wi);
    return;
  }
  w->execs[id]++;
  if (ii->mslot != MIX_NONE) w->wv[(size_t)wi * p->vlen + ii->mslot]++;
  /* A block entered from an instruction at or after it in the same
   * function came along a back edge (loop trip counts): last in
   * [id, ibase + ininsts), UINT32_MAX (none yet) never. */
  const uint32_t last = w->last[wi];
  if (ev->bb_entry && last - id < w->ibase + w->ininsts - id) w->st[id].back_entries++;
  w->last[wi] = id;
  /* the representative warp of the mix's periods: warp 0 of block 0 */
  if (warp == w->rep_warp) rep_push(p, id);
  w->hist[ws_lanes32(active)]++;
  const uint32_t live = w->live[wi];
  if ((active & live) != live) /* (live 0: every lane exited, no idle ones) */
    w->div_idle[ws_popc32(live)] += ws_popc32(live) - ws_popc32(active & live);
  if (ii->flops) w->flops += (uint64_t)ii->flops * ws_lanes32(ev->exec);
  const uint32_t replays = ii->slow ? inst_slow(p, w, ev, ii, id) : 0;
  ws_prof_deps_inst(w->deps, wi, &ii->dep, ev->space == WS_PTX_SP_SHARED, replays, id);
}

/* Sections ----------------------------------------------------------------*/

static cJSON *section(ws_profile *pr, ws_profile_sec id) {
  cJSON *root = ws_profile_doc_root(pr);
  if (!root) return NULL;
  const char *name = ws_profile_sec_key(id);
  cJSON *s = cJSON_GetObjectItemCaseSensitive(root, name);
  if (!s) s = cJSON_AddObjectToObject(root, name);
  return s;
}

/* The mix ------------------------------------------------------------------*/

/* The non-zero counts of v's mix slots as a key-ordered list. */
static int mix_counts(const ws_prof *p, const uint32_t *v, ws_mix_count **out, size_t *n) {
  *out = NULL;
  *n = 0;
  size_t nz = 0;
  for (uint32_t s = 0; s < p->nmkeys; s++) nz += v[s] != 0;
  if (!nz) return WS_OK;
  if (!(*out = malloc(nz * sizeof **out))) return WS_ENOMEM;
  for (uint32_t s = 0; s < p->nmkeys; s++)
    if (v[s]) (*out)[(*n)++] = (ws_mix_count){p->mkeys[s], v[s]};
  ws_prof_mix_sort(*out, *n);
  return WS_OK;
}

static int cmp_heavy(const void *a, const void *b) {
  const heavy *x = a, *y = b;
  return heavy_before(x->block, x->warp, y->block, y->warp) ? -1
         : heavy_before(y->block, y->warp, x->block, x->warp) ? 1 : 0;
}

/* The heaviest warps of all workers, in (block, warp) order. */
static int heaviest_warps(const ws_prof *p, ws_profile_mix *m, int *dropped) {
  heavy *all = NULL;
  size_t n = 0, cap = 0;
  int st = WS_OK;
  *dropped = 0;
  for (int k = 0; k < p->nworkers && st == WS_OK; k++) {
    const worker *w = &p->w[k];
    *dropped |= w->heavy_dropped;
    for (size_t i = 0; i < w->nheavy && st == WS_OK; i++)
      st = heavy_add(&all, &n, &cap, dropped, w->heavy[i].block, w->heavy[i].warp, w->heavy[i].v,
                     p->vlen);
  }
  if (st == WS_OK && n) {
    qsort(all, n, sizeof *all, cmp_heavy);
    m->warps = calloc(n, sizeof *m->warps);
    if (!m->warps) st = WS_ENOMEM;
  }
  for (size_t i = 0; i < n && st == WS_OK; i++) {
    ws_warp_mix *wm = &m->warps[m->nwarps++];
    wm->block = all[i].block;
    wm->warp = all[i].warp;
    st = mix_counts(p, all[i].v, &wm->ops, &wm->nops);
    for (int k = 1; k <= 32; k++) {
      wm->global_by_tpt[k] = all[i].v[p->nmkeys + (uint32_t)k - 1];
      wm->shared_by_degree[k] = all[i].v[p->nmkeys + 32 + (uint32_t)k - 1];
    }
  }
  for (size_t i = 0; i < n; i++) free(all[i].v);
  free(all);
  return st;
}

/* The representative warp's periods: its instruction stream as runs of
 * computation instructions (counted by mix key) each followed by a run of
 * memory instructions, equal neighbours merged into one with a repeat. */
static int rep_periods(const ws_prof *p, ws_profile_mix *m) {
  if (!p->nrep) return WS_OK;
  uint32_t *cur = calloc(p->nmkeys + 1, sizeof *cur), *prev = calloc(p->nmkeys + 1, sizeof *prev);
  size_t cap = 0;
  uint32_t mem = 0, prev_mem = 0;
  int open = 0, st = WS_OK;
  if (!cur || !prev) st = WS_ENOMEM;
  for (size_t i = 0; i <= p->nrep && st == WS_OK; i++) {
    uint32_t id = i < p->nrep ? p->rep[i] : 0;
    if (i < p->nrep && p->info[id].mslot == MIX_NONE) { /* a memory instruction */
      mem++;
      open = 1;
      continue;
    }
    /* A computation after memory (or the end) closes the period. */
    if ((i < p->nrep && mem) || (i == p->nrep && open)) {
      if (m->nperiods && prev_mem == mem && !memcmp(prev, cur, p->nmkeys * sizeof *cur)) {
        m->periods[m->nperiods - 1].repeat++;
      } else if ((st = WS_VEC_RESERVE(m->periods, cap, m->nperiods + 1)) == WS_OK) {
        ws_mix_period *pe = &m->periods[m->nperiods++];
        memset(pe, 0, sizeof *pe);
        pe->mem_insts = mem;
        pe->repeat = 1;
        st = mix_counts(p, cur, &pe->ops, &pe->nops);
        memcpy(prev, cur, p->nmkeys * sizeof *cur);
        prev_mem = mem;
      }
      memset(cur, 0, p->nmkeys * sizeof *cur);
      mem = 0;
    }
    if (i < p->nrep) {
      cur[p->info[id].mslot]++;
      open = 1;
    }
  }
  free(cur);
  free(prev);
  return st;
}

/* Finish ------------------------------------------------------------------*/


/* The CFG of function fi when it ran and has a body (*c), else *c NULL;
 * WS_OK, or WS_ENOMEM. */
static int ran_cfg(const ws_prof *p, const inst_stat *st, uint32_t fi, ws_cfg **c) {
  const ws_ptx_function *fn = &p->cfg.module->funcs[fi];
  const inst_stat *fs = st + p->func_base[fi];
  uint64_t any = 0;
  *c = NULL;
  for (uint32_t i = 0; i < fn->ninsts; i++) any |= fs[i].execs;
  if (!any || !fn->has_body) return WS_OK;
  ws_diag d = WS_DIAG_INIT;
  int r = ws_analysis_build(c, p->cfg.module, fn, &d);
  ws_diag_free(&d);
  if (r != WS_OK) *c = NULL;
  return r == WS_ENOMEM ? r : WS_OK;
}

/* Per basic block of every function that ran: executions (those of its
 * first instruction), the front end's static ILP and MLP, and loops with
 * their trip counts.  parallelism.ilp = sum ILP_K n_K / sum n_K over the
 * blocks, parallelism.mlp the same over blocks with loads (docs/profile.md
 * explains why not Sim et al.'s printed sum / #basic_blocks). */
static int static_parallelism(ws_prof *p, const inst_stat *st, ws_profile *pr, double W) {
  const ws_ptx_module *m = p->cfg.module;
  cJSON *bbs = cJSON_AddArrayToObject(section(pr, WS_PSEC_BASIC_BLOCKS), "blocks");
  cJSON *lps = cJSON_AddArrayToObject(section(pr, WS_PSEC_LOOPS), "loops");
  double ilp_num = 0, ilp_den = 0, mlp_num = 0, mlp_den = 0;
  for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
    const ws_ptx_function *fn = &m->funcs[fi];
    const inst_stat *fs = st + p->func_base[fi];
    ws_cfg *c;
    if (ran_cfg(p, st, fi, &c) == WS_ENOMEM) return WS_ENOMEM;
    if (!c) continue;
    for (uint32_t b = 0; b < c->nblocks; b++) {
      const ws_bb *bb = &c->blocks[b];
      if (bb->first >= bb->end) continue;
      double n = (double)fs[bb->first].execs;
      if (n > 0) {
        ilp_num += bb->ilp * n, ilp_den += n;
        if (bb->nloads) mlp_num += bb->mlp * n, mlp_den += n;
      }
      cJSON *o = cJSON_CreateObject();
      cJSON_AddStringToObject(o, "function", fn->name);
      cJSON_AddNumberToObject(o, "block", b);
      cJSON_AddNumberToObject(o, "line_first", bb->line_first);
      cJSON_AddNumberToObject(o, "line_last", bb->line_last);
      cJSON_AddNumberToObject(o, "executions", n);
      cJSON_AddNumberToObject(o, "per_warp", n / W);
      cJSON_AddNumberToObject(o, "ilp", bb->ilp);
      cJSON_AddNumberToObject(o, "mlp", bb->mlp);
      /* A block runs straight through with one mask, so each execution
       * issues each of its instructions once: class counts x executions. */
      cJSON *cl = cJSON_AddObjectToObject(o, "insts_per_warp");
      for (int k = 0; k < WS_IC_COUNT; k++)
        if (bb->counts[k] && n > 0)
          cJSON_AddNumberToObject(cl, ws_analysis_class_name((ws_iclass)k), bb->counts[k] * n / W);
      cJSON_AddItemToArray(bbs, o);
    }
    for (uint32_t l = 0; l < c->nloops; l++) {
      const ws_bb *h = &c->blocks[c->loops[l].header];
      const inst_stat *hs = &fs[h->first];
      double execs = (double)hs->execs, entries = (double)(hs->execs - hs->back_entries);
      cJSON *o = cJSON_CreateObject();
      cJSON_AddStringToObject(o, "function", fn->name);
      cJSON_AddNumberToObject(o, "header_line", h->line_first);
      cJSON_AddNumberToObject(o, "depth", c->loops[l].depth);
      cJSON_AddNumberToObject(o, "header_executions_per_warp", execs / W);
      cJSON_AddNumberToObject(o, "entries_per_warp", entries / W);
      if (entries > 0) cJSON_AddNumberToObject(o, "trips_per_entry", execs / entries);
      cJSON_AddItemToArray(lps, o);
    }
    ws_analysis_free(c);
  }
  if (ilp_den > 0 && ilp_num > 0) pr->f.ilp = ilp_num / ilp_den;
  if (mlp_den > 0 && mlp_num > 0) pr->f.mlp = mlp_num / mlp_den;
  return WS_OK;
}

static double ratio(double a, double b) { return b > 0 ? a / b : NAN; }

/* The fields every per-instruction table row shares. */
static cJSON *inst_row(const char *func, uint32_t line, const char *cls, uint64_t requests, double warps) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "function", func);
  cJSON_AddNumberToObject(o, "line", line);
  cJSON_AddStringToObject(o, "class", cls);
  cJSON_AddNumberToObject(o, "requests", (double)requests);
  cJSON_AddNumberToObject(o, "per_warp", (double)requests / warps);
  return o;
}


/* The workers' counters summed: per instruction into st, the rest into *t. */
static void merge_workers(const ws_prof *p, inst_stat *st, worker *t) {
  memset(t, 0, sizeof *t);
  for (int k = 0; k < p->nworkers; k++) {
    const worker *w = &p->w[k];
    for (uint32_t i = 0; i < p->ninst; i++) {
      inst_stat *a = &st[i];
      const inst_stat *b = &w->st[i];
      a->execs += w->execs[i], a->back_entries += b->back_entries, a->requests += b->requests;
      a->coal_reqs += b->coal_reqs, a->trans += b->trans, a->bytes += b->bytes;
      a->lines += b->lines;
      a->bytes_moved += b->bytes_moved, a->sh_reqs += b->sh_reqs, a->passes += b->passes;
      a->min_passes += b->min_passes, a->degree_sum += b->degree_sum;
      a->branches += b->branches, a->div_branches += b->div_branches;
      a->needed += b->needed, a->atom_reqs += b->atom_reqs, a->atom_serial += b->atom_serial;
    }
    for (int i = 0; i < 33; i++) {
      t->hist[i] += w->hist[i];
      t->k_hist[i] += w->k_hist[i];
      t->deg_hist[i] += w->deg_hist[i];
    }
    t->warps += w->warps, t->blocks += w->blocks, t->idle_blocks += w->idle_blocks;
    for (int i = 0; i < 33; i++) t->div_idle[i] += w->div_idle[i];
    t->flops += w->flops, t->uncoal_trans += w->uncoal_trans;
  }
}

/* What the whole launch did: executions per instruction class into cls,
 * every per-instruction counter summed into *all. */
static void sum_insts(const ws_prof *p, const inst_stat *st, double cls[WS_IC_COUNT],
                      inst_stat *all) {
  memset(all, 0, sizeof *all);
  for (uint32_t i = 0; i < p->ninst; i++) {
    cls[p->info[i].iclass] += (double)st[i].execs;
    all->execs += st[i].execs, all->requests += st[i].requests, all->coal_reqs += st[i].coal_reqs;
    all->trans += st[i].trans, all->bytes += st[i].bytes, all->bytes_moved += st[i].bytes_moved;
    all->lines += st[i].lines;
    all->sh_reqs += st[i].sh_reqs, all->passes += st[i].passes, all->min_passes += st[i].min_passes;
    all->degree_sum += st[i].degree_sum;
    all->branches += st[i].branches, all->div_branches += st[i].div_branches;
  }
}

/* per_warp.tensor_*_ops: each executed matrix product's operations under
 * its type; a type the kernel does not use stays absent. */
static void tensor_fields(const ws_prof *p, ws_profile_fields *f, const inst_stat *st, double W) {
  double ops[TC_COUNT] = {0};
  const ws_ptx_module *m = p->cfg.module;
  for (uint32_t fi = 0; fi < m->nfuncs; fi++)
    for (uint32_t i = 0; i < m->funcs[fi].ninsts; i++) {
      double n = 0;
      int tc = inst_tensor(&m->funcs[fi].insts[i], &n);
      if (tc != TC_NONE) ops[tc] += n * (double)st[p->func_base[fi] + i].execs;
    }
  double *out[TC_COUNT] = {NULL,
                           &f->tensor_fp16_f32acc_ops,
                           &f->tensor_fp16_f16acc_ops,
                           &f->tensor_bf16_ops,
                           &f->tensor_tf32_ops,
                           &f->tensor_fp8_ops,
                           &f->tensor_int8_ops,
                           &f->tensor_fp64_ops};
  for (int t = 1; t < TC_COUNT; t++)
    if (ops[t] > 0) *out[t] = ops[t] / W;
}

/* The per-warp counts and the scalar memory figures (profile_fields.def). */
static void count_fields(const ws_prof *p, ws_profile_fields *f, const worker *t,
                         const inst_stat *all, const double cls[WS_IC_COUNT], const inst_stat *st) {
  double W = (double)t->warps;
  f->registers_per_thread = p->cfg.resources.registers_per_thread;
  f->shared_bytes_per_block = p->cfg.resources.shared_bytes_per_block;
  f->local_bytes_per_thread = p->cfg.resources.local_bytes_per_thread;
  uint64_t uncoal = all->requests - all->coal_reqs;
  f->comp_insts = (double)(all->execs - all->requests) / W;
  f->coal_mem_insts = (double)all->coal_reqs / W;
  f->uncoal_mem_insts = (double)uncoal / W;
  f->synch_insts = cls[WS_IC_BARRIER] / W;
  f->fp_insts = (cls[WS_IC_FP32] + cls[WS_IC_FP64] + cls[WS_IC_FP16]) / W;
  f->sfu_insts = cls[WS_IC_SFU] / W;
  f->shared_mem_insts = (double)all->sh_reqs / W;
  f->bank_conflict_replays = (double)(all->passes - all->min_passes) / W;
  double div_extra = 0;
  for (int l = 1; l <= 32; l++) div_extra += (double)t->div_idle[l] / l;
  f->divergent_extra_insts = div_extra / W;
  f->flops = (double)t->flops / W;
  f->fp64_insts = cls[WS_IC_FP64] / W;
  tensor_fields(p, f, st, W);
  if (uncoal) f->uncoal_per_mw = (double)t->uncoal_trans / (double)uncoal;
  f->coal_per_mw = 1;
  if (all->requests) {
    f->load_bytes_per_warp = all->bytes ? (double)all->bytes / (double)all->requests : NAN;
    f->avg_trans_warp = all->trans ? (double)all->trans / (double)all->requests : NAN;
    f->lines_per_request = all->lines ? (double)all->lines / (double)all->requests : NAN;
  }
  f->divergent_branch_fraction =
      all->branches ? (double)all->div_branches / (double)all->branches : 0;
}

/* Load sectors served by the SM's first-level caches: L1, and the
 * read-only cache for ld.global.nc where the GPU has one. */
static double l1_ratio(const ws_rp_stats *cs) {
  uint64_t acc = cs->l1_access + cs->ro_access, hit = cs->l1_hit + cs->ro_hit;
  return acc ? (double)hit / (double)acc : 0;
}

/* Cache ratios and DRAM bytes, scaled from the profiled blocks to the grid. */
static void cache_fields(const ws_prof *p, ws_profile_fields *f, const inst_stat *st,
                         double scale) {
  const ws_rp_stats *cs = ws_prof_rp_stats_of(p->rp);
  uint64_t dram_read_bytes, dram_write_bytes;
  if (cs->have_l2) {
    /* The grid's traffic from the replayed blocks (docs/profile.md,
     * "Sampling"); a full profile's own figures. */
    ws_rp_estimate e;
    ws_prof_rp_estimate_grid(&e, p->rp, scale);
    f->dram_read_bytes = round(e.dram_read_bytes);
    f->dram_write_bytes = round(e.dram_write_bytes);
    f->l1_hit_ratio = l1_ratio(cs);
    f->l2_hit_ratio = cs->l2_access ? e.l2_hit_ratio : 0;
    f->miss_ratio = cs->load_sectors ? e.miss_ratio : 0;
    if (f->miss_ratio > 1) f->miss_ratio = 1;
    if (f->l2_hit_ratio > 1) f->l2_hit_ratio = 1;
    /* A ratio of the replayed requests: no scaling to the grid. */
    if (cs->partitions)
      f->dram_partition_imbalance = cs->part_sectors ? cs->part_weighted / (double)cs->part_sectors : 1;
    return;
  } else {
    /* No L2 (CC 1.x): every transaction goes to DRAM with its own size. */
    uint64_t rd = 0, wr = 0;
    for (uint32_t i = 0; i < p->ninst; i++) {
      int c = p->info[i].iclass;
      int wrt = c == WS_IC_ST_GLOBAL || c == WS_IC_ST_LOCAL || c == WS_IC_ST_GENERIC || c == WS_IC_ATOMIC ||
                c == WS_IC_REDUCTION;
      if (wrt) wr += st[i].bytes_moved;
      else rd += st[i].bytes_moved;
    }
    dram_read_bytes = rd, dram_write_bytes = wr;
  }
  f->l1_hit_ratio = l1_ratio(cs);
  f->l2_hit_ratio = cs->have_l2 && cs->l2_access ? ratio((double)cs->l2_hit, (double)cs->l2_access) : 0;
  f->miss_ratio = cs->load_sectors ? ratio((double)cs->dram_read_sectors, (double)cs->load_sectors)
                                   : (cs->have_l2 ? 0 : 1);
  if (f->miss_ratio > 1) f->miss_ratio = 1;
  f->dram_read_bytes = round((double)dram_read_bytes * scale);
  f->dram_write_bytes = round((double)dram_write_bytes * scale);
}

/* instruction_mix, simd and divergence_detail. */
static void mix_sections(ws_profile *pr, const double cls[WS_IC_COUNT], const worker *t,
                         const inst_stat *all) {
  double W = (double)t->warps;
  cJSON *mix = section(pr, WS_PSEC_INSTRUCTION_MIX);
  cJSON_AddStringToObject(mix, "unit", "dynamic warp instructions per warp");
  cJSON *bycls = cJSON_AddObjectToObject(mix, "per_warp");
  for (int c = 0; c < WS_IC_COUNT; c++)
    if (cls[c] > 0) cJSON_AddNumberToObject(bycls, ws_analysis_class_name((ws_iclass)c), cls[c] / W);
  cJSON_AddNumberToObject(mix, "total_per_warp", (double)all->execs / W);

  cJSON *simd = section(pr, WS_PSEC_SIMD);
  double lanes = 0;
  for (int i = 0; i <= 32; i++) lanes += (double)i * (double)t->hist[i];
  cJSON_AddNumberToObject(simd, "efficiency", all->execs ? lanes / (32.0 * (double)all->execs) : 0);
  cJSON *hist = cJSON_AddArrayToObject(simd, "active_lane_histogram");
  for (int i = 0; i <= 32; i++) cJSON_AddItemToArray(hist, cJSON_CreateNumber((double)t->hist[i]));
  cJSON_AddStringToObject(simd, "histogram_unit",
                          "warp instructions with i active lanes, i = 0..32 (profiled blocks)");

  cJSON *div = section(pr, WS_PSEC_DIVERGENCE_DETAIL);
  cJSON_AddNumberToObject(div, "branches_per_warp", (double)all->branches / W);
  cJSON_AddNumberToObject(div, "divergent_branches_per_warp", (double)all->div_branches / W);
  cJSON_AddStringToObject(div, "extra_insts_definition",
                          "sum over warp instructions of (1 - active lanes / live lanes), "
                          "live = lanes of the warp that have not exited");
}

/* global_memory_insts and shared_memory_insts: one row per instruction
 * that made requests. */
static void inst_tables(const ws_prof *p, const inst_stat *st, ws_profile *pr, double W) {
  const ws_ptx_module *m = p->cfg.module;
  cJSON *gmi = cJSON_AddArrayToObject(section(pr, WS_PSEC_GLOBAL_MEMORY_INSTS), "insts");
  cJSON *smi = cJSON_AddArrayToObject(section(pr, WS_PSEC_SHARED_MEMORY_INSTS), "insts");
  for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
    const ws_ptx_function *fn = &m->funcs[fi];
    for (uint32_t pc = 0; pc < fn->ninsts; pc++) {
      const inst_stat *s = &st[p->func_base[fi] + pc];
      const ws_ptx_inst *in = &fn->insts[pc];
      const char *iclass_name = ws_analysis_class_name((ws_iclass)p->info[p->func_base[fi] + pc].iclass);
      if (s->requests) {
        cJSON *o = inst_row(fn->name, in->line, iclass_name, s->requests, W);
        cJSON_AddNumberToObject(o, "avg_transactions", (double)s->trans / (double)s->requests);
        cJSON_AddNumberToObject(o, "bytes_per_request", (double)s->bytes / (double)s->requests);
        cJSON_AddNumberToObject(o, "coalesced_fraction", (double)s->coal_reqs / (double)s->requests);
        cJSON_AddItemToArray(gmi, o);
      }
      if (s->sh_reqs) {
        cJSON *o = inst_row(fn->name, in->line, iclass_name, s->sh_reqs, W);
        cJSON_AddNumberToObject(o, "avg_conflict_degree", (double)s->degree_sum / (double)s->sh_reqs);
        cJSON_AddNumberToObject(o, "avg_passes", (double)s->passes / (double)s->sh_reqs);
        cJSON_AddItemToArray(smi, o);
      }
    }
  }
}

/* caches.l2_start: the L2's condition at the start and what it did
 * (docs/profile.md, "Cold and warm"). */
static void l2_start_json(const ws_prof *p, cJSON *cj, double scale) {
  const ws_rp_stats *cs = ws_prof_rp_stats_of(p->rp);
  cJSON *o = cJSON_AddObjectToObject(cj, "l2_start");
  ws_rp_estimate e;
  ws_prof_rp_estimate_grid(&e, p->rp, scale);
  switch (cs->l2_start) {
  case WS_PROF_L2_WARM:
    cJSON_AddStringToObject(o, "condition", "warm");
    cJSON_AddStringToObject(o, "meaning", "the L2 holds what the previous identical launch left");
    if (cs->footprint_over)
      cJSON_AddStringToObject(o, "footprint", "more sectors than the L2 holds");
    else if (isfinite(e.footprint_bytes))
      cJSON_AddNumberToObject(o, "footprint_bytes", round(e.footprint_bytes));
    cJSON_AddStringToObject(o, "effect",
                            e.warm_hits ? "the footprint fits the L2: its first reads hit"
                                        : "the footprint does not fit the L2: as cold");
    break;
  case WS_PROF_L2_CARRIED:
    cJSON_AddStringToObject(o, "condition", cs->l2_carry_refused ? "cold" : "carried");
    cJSON_AddStringToObject(o, "meaning",
                            cs->l2_carry_refused
                                ? "an earlier launch's L2 was given, but a sampled profile (or "
                                  "another cache geometry) starts cold"
                                : "the L2 holds what the previous launch left (its dirty sectors "
                                  "counted by that launch)");
    break;
  default:
    cJSON_AddStringToObject(o, "condition", "cold");
    cJSON_AddStringToObject(o, "meaning", "the L2 starts empty (as after NVBench's flush)");
    if (isfinite(e.footprint_bytes)) cJSON_AddNumberToObject(o, "footprint_bytes", round(e.footprint_bytes));
    break;
  }
}

/* caches: the rules, the geometry and the replay's counts. */
static void caches_section(const ws_prof *p, ws_profile *pr, double scale) {
  const ws_rp_stats *cs = ws_prof_rp_stats_of(p->rp);
  cJSON *cj = section(pr, WS_PSEC_CACHES);
  cJSON_AddStringToObject(cj, "load_rule", ws_prof_coal_rule_name(p->load_rule));
  cJSON_AddStringToObject(cj, "store_rule", ws_prof_coal_rule_name(p->store_rule));
  cJSON_AddStringToObject(cj, "replay_order",
                          "profiled block i (linear order) on SM i mod min(SMs, profiled blocks), "
                          "up to blocks_per_sm resident per SM; each SM's resident warps "
                          "round-robin, one request per turn; the SMs take turns at the L2, "
                          "one request each");
  cJSON_AddNumberToObject(cj, "blocks_per_sm", cs->blocks_per_sm);
  cJSON_AddNumberToObject(cj, "sms", cs->nsm);
  cJSON *l1j = cJSON_AddObjectToObject(cj, "l1");
  cJSON_AddNumberToObject(l1j, "bytes_per_sm", cs->l1_bytes);
  if (cs->l1_full != cs->l1_bytes) {
    cJSON_AddNumberToObject(l1j, "bytes_without_shared", cs->l1_full);
    cJSON_AddStringToObject(l1j, "carveout",
                            "the unified L1/shared array less the smallest carve-out of the "
                            "compute capability that holds the resident blocks' shared memory "
                            "(ws_gpu_l1_bytes_for_shared)");
  }
  cJSON_AddNumberToObject(l1j, "ways", cs->l1_ways);
  cJSON_AddNumberToObject(l1j, "line_bytes", cs->l1_line);
  cJSON_AddBoolToObject(l1j, "caches_global_loads", cs->have_l1 && p->cfg.gpu->cache.l1_caches_global);
  cJSON_AddNumberToObject(l1j, "accesses", (double)cs->l1_access);
  cJSON_AddNumberToObject(l1j, "hits", (double)cs->l1_hit);
  if (cs->have_ro) {
    cJSON *roj = cJSON_AddObjectToObject(cj, "readonly");
    cJSON_AddNumberToObject(roj, "bytes_per_sm", cs->ro_bytes);
    cJSON_AddNumberToObject(roj, "ways", cs->ro_ways);
    cJSON_AddNumberToObject(roj, "line_bytes", cs->l1_line);
    cJSON_AddStringToObject(roj, "serves", "ld.global.nc loads (const __restrict__, __ldg)");
    cJSON_AddNumberToObject(roj, "accesses", (double)cs->ro_access);
    cJSON_AddNumberToObject(roj, "hits", (double)cs->ro_hit);
  }
  cJSON *l2j = cJSON_AddObjectToObject(cj, "l2");
  cJSON_AddNumberToObject(l2j, "bytes", cs->l2_bytes);
  cJSON_AddNumberToObject(l2j, "ways", cs->l2_ways);
  cJSON_AddNumberToObject(l2j, "line_bytes", cs->l2_line);
  cJSON_AddNumberToObject(l2j, "sector_bytes", cs->sector);
  cJSON_AddNumberToObject(l2j, "accesses", (double)cs->l2_access);
  cJSON_AddNumberToObject(l2j, "hits", (double)cs->l2_hit);
  cJSON_AddStringToObject(cj, "set_index",
                          "(line mod S + h(line div S)) mod S, S sets, h the splitmix64 finaliser");
  ws_strbuf b = {0};
  ws_sb_printf(&b, "line 128 B and sector 32 B where the GPU file gives none");
  if (cs->l1_assumed || cs->l2_assumed || cs->ro_assumed)
    ws_sb_printf(&b, "; associativity not in the GPU file, assumed %s%s%s%s%s 16 ways",
                 cs->l1_assumed ? "L1" : "", cs->l1_assumed && (cs->l2_assumed || cs->ro_assumed) ? ", " : "",
                 cs->l2_assumed ? "L2" : "", cs->l2_assumed && cs->ro_assumed ? ", " : "",
                 cs->ro_assumed ? "read-only cache" : "");
  cJSON_AddStringToObject(cj, "defaults", b.s ? b.s : "");
  ws_sb_free(&b);
  l2_start_json(p, cj, scale);
}

/* How the sample's DRAM traffic stands for the grid's, and its split-half
 * error: the estimate from the even slots alone and from the odd slots
 * alone; the relative error of their mean is |a - b| / (a + b)
 * (docs/profile.md, "Sampling"). */
static void sampling_estimate(const ws_prof *p, ws_profile *pr, cJSON *sam, const worker *t) {
  if (p->nslots == p->total_blocks) {
    pr->f.dram_bytes_rel_error = 0;
    return;
  }
  if (!ws_prof_rp_stats_of(p->rp)->have_l2) {
    cJSON_AddStringToObject(sam, "dram_estimator", "no L2: the profiled blocks' transactions, scaled");
    return;
  }
  cJSON_AddStringToObject(sam, "dram_estimator",
                          "per buffer, R the sectors the sampled blocks moved to or from DRAM in "
                          "the replay, U the distinct ones, S the buffer's, F = min(S, U x scale): "
                          "not shared (U x scale <= S) R x scale; shared with neighbours "
                          "min(R x scale, F + (R - U) x scale); shared globally (blocks span half "
                          "of it or more) F plus the re-references that miss the L2 under Che's "
                          "approximation; writes by the neighbour rule");
  if (!p->half[0] || t->blocks < 2) {
    cJSON_AddStringToObject(sam, "dram_bytes_rel_error", "needs 2 or more profiled blocks");
    return;
  }
  double est[2];
  cJSON *arr = cJSON_AddArrayToObject(sam, "split_half_dram_bytes");
  for (int h = 0; h < 2; h++) {
    ws_rp_estimate e;
    double blocks = (double)((p->nslots + 1 - (uint64_t)h) / 2);
    ws_prof_rp_estimate_grid(&e, p->half[h], (double)p->represented / blocks);
    est[h] = e.dram_read_bytes + e.dram_write_bytes;
    cJSON_AddItemToArray(arr, cJSON_CreateNumber(round(est[h])));
  }
  pr->f.dram_bytes_rel_error = est[0] + est[1] > 0 ? fabs(est[0] - est[1]) / (est[0] + est[1]) : 0;
}

/* sampling (how many blocks stood for the grid) and profiler (where the
 * profile comes from). */
static void provenance_sections(const ws_prof *p, ws_profile *pr, const worker *t, double scale) {
  cJSON *sam = section(pr, WS_PSEC_SAMPLING);
  cJSON_AddNumberToObject(sam, "total_blocks", (double)p->total_blocks);
  cJSON_AddNumberToObject(sam, "profiled_blocks", (double)t->blocks);
  cJSON_AddNumberToObject(sam, "profiled_warps", (double)t->warps);
  cJSON_AddStringToObject(sam, "method",
                          p->nslots == p->total_blocks
                              ? "every block"
                              : "N blocks of a Hammersley set over the grid: sample i at the "
                                "centre of stratum i of N in the longest dimension, radical "
                                "inverses of i (base 2, 3) in the others");
  cJSON_AddStringToObject(sam, "rest",
                          p->nslots == p->total_blocks ? "none"
                          : p->cfg.functional_rest   ? "run without profiling"
                                                     : "skipped");
  cJSON_AddNumberToObject(sam, "scale", scale);
  cJSON_AddStringToObject(sam, "scaled_fields", "memory.dram_read_bytes, memory.dram_write_bytes");
  sampling_estimate(p, pr, sam, t);

  cJSON *pj = section(pr, WS_PSEC_PROFILER);
  cJSON_AddStringToObject(pj, "gpu", p->cfg.gpu->name ? p->cfg.gpu->name : "");
  cJSON_AddStringToObject(pj, "resources_source",
                          p->cfg.resources_source ? p->cfg.resources_source : "none");
}

/* Per instruction in[i]: the innermost natural loop around it, its
 * global/local loads per trip (the load requests of the loop's
 * instructions, inner loops' included, over its header's executions: an
 * unrolled body issues several) and its trips per entry; 0 outside a loop
 * (docs/profile.md, "lines").  The advisor reads them (docs/advisor.md,
 * "Unrolling"). */
static int loop_facts(const ws_prof *p, const inst_stat *st, ws_line_in *in) {
  const ws_ptx_module *m = p->cfg.module;
  for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
    const ws_ptx_function *fn = &m->funcs[fi];
    const inst_stat *fs = st + p->func_base[fi];
    ws_cfg *c;
    if (ran_cfg(p, st, fi, &c) == WS_ENOMEM) return WS_ENOMEM;
    if (!c || !c->nloops) {
      ws_analysis_free(c);
      continue;
    }
    double *loads = calloc(c->nloops, sizeof *loads), *trips = calloc(c->nloops, sizeof *trips);
    if (!loads || !trips) {
      free(loads);
      free(trips);
      ws_analysis_free(c);
      return WS_ENOMEM;
    }
    for (uint32_t l = 0; l < c->nloops; l++) {
      const ws_loop *lp = &c->loops[l];
      const ws_bb *h = &c->blocks[lp->header];
      if (h->first >= h->end) continue;
      double execs = (double)fs[h->first].execs, entries = execs - (double)fs[h->first].back_entries;
      if (!(execs > 0)) continue;
      double n = 0;
      for (uint32_t k = 0; k < lp->nblocks; k++)
        for (uint32_t j = c->blocks[lp->blocks[k]].first; j < c->blocks[lp->blocks[k]].end; j++)
          if (p->info[p->func_base[fi] + j].kind == WS_PTX_K_LOAD) n += (double)fs[j].requests;
      loads[l] = n / execs;
      trips[l] = entries > 0 ? execs / entries : 0;
    }
    for (uint32_t i = 0; i < fn->ninsts; i++) {
      uint32_t b = c->block_of[i];
      uint32_t l = b < c->nblocks ? c->blocks[b].loop : WS_CFG_NONE;
      if (l == WS_CFG_NONE) continue;
      in[p->func_base[fi] + i].loop_loads = loads[l];
      in[p->func_base[fi] + i].loop_trips = trips[l];
    }
    free(loads);
    free(trips);
    ws_analysis_free(c);
  }
  return WS_OK;
}

/* The per-line table (lines.h, docs/profile.md "lines"): each
 * instruction's counts and its share of the blocks' longest paths. */
static int lines_section(const ws_prof *p, const inst_stat *st, ws_profile *pr, double W) {
  ws_line_in *in = calloc(p->ninst + 1, sizeof *in);
  double *mem = calloc(p->ninst + 1, sizeof *mem), *cyc = calloc(p->ninst + 1, sizeof *cyc);
  double blocks = 0, skipped = 0;
  int rc = WS_ENOMEM;
  if (!in || !mem || !cyc) goto done;
  for (int k = 0; k < p->nworkers; k++) ws_prof_deps_crit_add(p->w[k].deps, mem, cyc, &blocks, &skipped);
  for (uint32_t i = 0; i < p->ninst; i++) {
    const inst_stat *s = &st[i];
    int c = p->info[i].iclass, kind = p->info[i].kind;
    int atom = kind == WS_PTX_K_ATOMIC || kind == WS_PTX_K_REDUCTION;
    int store = kind == WS_PTX_K_STORE || kind == WS_PTX_K_SURF_STORE;
    uint32_t kinds = 0;
    if (s->requests) kinds |= atom ? WS_LINE_ATOMIC : store ? WS_LINE_STORE : WS_LINE_LOAD;
    if (s->sh_reqs) kinds |= atom ? WS_LINE_SATOMIC : WS_LINE_SHARED;
    if (c == WS_IC_BARRIER) kinds |= WS_LINE_BARRIER;
    if (s->branches) kinds |= WS_LINE_BRANCH;
    if (c == WS_IC_SFU) kinds |= WS_LINE_SFU;
    if (c == WS_IC_FP64) kinds |= WS_LINE_FP64;
    in[i] = (ws_line_in){(double)s->execs, (double)s->requests, (double)s->trans, (double)s->needed,
                         s->requests && !store ? (double)s->trans : 0,
                         s->requests && (store || atom) ? (double)s->trans : 0, (double)s->sh_reqs,
                         (double)(s->passes - s->min_passes), (double)s->branches,
                         (double)s->div_branches, (double)s->atom_reqs, (double)s->atom_serial,
                         mem[i], cyc[i], 0, 0, kinds};
  }
  if ((rc = loop_facts(p, st, in)) != WS_OK) goto done;
  rc = ws_prof_lines_build(&pr->lines, p->cfg.module, p->func_base, in, W, blocks, skipped,
                           p->cfg.input ? p->cfg.input : p->cfg.module->path,
                           ws_pf_has(pr->f.dram_read_bytes) ? pr->f.dram_read_bytes : 0,
                           ws_pf_has(pr->f.dram_write_bytes) ? pr->f.dram_write_bytes : 0);
done:
  free(in);
  free(mem);
  free(cyc);
  return rc;
}

/* The dependency path, atomics and the caches' sector counts per warp
 * (deps.c; docs/profile.md, "dependencies"). */
static int deps_fields(const ws_prof *p, ws_profile_fields *f, double W, double scale) {
  ws_deps_sum s = {0};
  for (int k = 0; k < p->nworkers; k++) ws_prof_deps_add(&s, p->w[k].deps);
  if (s.blocks > 0) {
    f->path_mem_loads = s.path_mem / s.blocks;
    f->path_cycles = s.path_cyc / s.blocks;
  }
  f->global_atomic_insts = s.gatom_reqs / W;
  f->global_atomic_serial = s.gatom_serial / W;
  if (s.blocks > 0 && !s.gatom_addresses_short) f->atomic_addresses_per_block = s.gatom_addresses / s.blocks;
  f->shared_atomic_insts = s.satom_reqs / W;
  f->shared_atomic_serial = s.satom_serial / W;
  if (s.gatom_reqs > 0) {
    f->global_atomic_addresses_per_request = s.gatom_req_addresses / s.gatom_reqs;
    ws_deps *ds[WS_PROF_MAX_THREADS];
    for (int k = 0; k < p->nworkers; k++) ds[k] = p->w[k].deps;
    double hot = ws_prof_deps_hot(ds, p->nworkers, scale);
    if (hot < 0) return WS_ENOMEM; /* a worker lost its buckets: the figure would be short */
    f->global_atomic_max_address_ops = round(hot);
  }
  /* the replay sees the sampled blocks' sectors: per profiled warp (the
   * replayed blocks are the profiled ones) */
  const ws_rp_stats *cs = ws_prof_rp_stats_of(p->rp);
  f->l1_sectors_per_warp = (double)(cs->l1_access + cs->ro_access) / W;
  f->l2_sectors_per_warp = (double)cs->l2_access / W;
  return WS_OK;
}

int ws_prof_finish(ws_prof *p, ws_profile **out, ws_diag *d) {
  *out = NULL;
  if (p->rep_oom) return WS_ENOMEM; /* the representative warp lost instructions */
  for (int k = 0; k < p->nworkers; k++)
    if (p->w[k].heavy_oom) return WS_ENOMEM; /* a heaviest warp may be missing */
  inst_stat *st = calloc(p->ninst + 1, sizeof *st);
  if (!st) return WS_ENOMEM;
  worker t;
  merge_workers(p, st, &t);
  if (t.warps == 0) {
    free(st);
    ws_diag_error(d, "profiler: no warp was profiled (kernel '%s')", p->cfg.kernel->name);
    return WS_EINVAL;
  }
  double W = (double)t.warps;
  double cls[WS_IC_COUNT] = {0};
  inst_stat all;
  sum_insts(p, st, cls, &all);
  ws_prof_rp_finish(p->rp);
  int lost = ws_prof_rp_stats_of(p->rp)->lost_records;
  for (int h = 0; h < 2; h++)
    if (p->half[h]) {
      ws_prof_rp_finish(p->half[h]);
      lost |= ws_prof_rp_stats_of(p->half[h])->lost_records;
    }
  if (lost) { /* a block's accesses never reached the cache replay: its figures would be short */
    free(st);
    return WS_ENOMEM;
  }

  ws_profile *pr = ws_profile_new(p->cfg.kernel->name, p->cfg.grid, p->cfg.block);
  if (!pr) {
    free(st);
    return WS_ENOMEM;
  }
  double scale = (double)p->represented / (double)t.blocks;
  count_fields(p, &pr->f, &t, &all, cls, st);
  /* A full profile counts the idle blocks; a sample's share is an
   * estimate that the scan replaces (prof_launch.c) */
  pr->f.idle_block_fraction = (double)t.idle_blocks / (double)t.blocks;
  cache_fields(p, &pr->f, st, scale);
  mix_sections(pr, cls, &t, &all);
  int r = static_parallelism(p, st, pr, W);
  if (r) {
    free(st);
    ws_profile_free(pr);
    return r;
  }
  inst_tables(p, st, pr, W);
  if ((r = lines_section(p, st, pr, W))) {
    free(st);
    ws_profile_free(pr);
    return r;
  }
  caches_section(p, pr, scale);
  provenance_sections(p, pr, &t, scale);
  int dropped = 0;
  r = heaviest_warps(p, &pr->mix, &dropped);
  if (r == WS_OK) r = rep_periods(p, &pr->mix);
  if (r) {
    free(st);
    ws_profile_free(pr);
    return r;
  }
  if (dropped) cJSON_AddTrueToObject(section(pr, WS_PSEC_PROFILER), "heaviest_warps_truncated");
  if (p->rep_truncated)
    cJSON_AddTrueToObject(section(pr, WS_PSEC_PROFILER), "representative_warp_truncated");
  if (p->cfg.input) cJSON_AddStringToObject(section(pr, WS_PSEC_PROFILER), "input", p->cfg.input);
  r = deps_fields(p, &pr->f, W, scale);
  free(st);
  if (r) {
    ws_profile_free(pr);
    return r;
  }
  *out = pr;
  return WS_OK;
}
