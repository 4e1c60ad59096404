/*
 * warpsight/gpu.h — the GPU database and the occupancy calculator.
 *
 * A ws_gpu describes one GPU: architecture facts (with sources) and, per
 * model, the machine parameters that model needs ("hong-kim": mem_ld, ...).
 * The database is compiled into the library from the JSON files in data/gpus; a GPU can
 * also be loaded from any JSON file of the same schema (docs/gpu-schema.md).
 *
 * Model parameters are declared once in gpu_params.def and read into
 * ws_gpu.params when the GPU is loaded (given by the file, or derived from
 * its base numbers by src/gpu/derive.c); models read them by id with
 * ws_gpu_p().  A GPU is a value: calibration makes a new one with
 * ws_gpu_with_params(), and ws_gpu_to_json() is the one serialiser.
 *
 * Ownership: ws_gpu_load*() and ws_gpu_with_params() give the caller a
 * ws_gpu to release with ws_gpu_free().  Strings reachable from it are
 * borrowed until then.
 */
#ifndef WARPSIGHT_GPU_H
#define WARPSIGHT_GPU_H

#include <stddef.h>

#include "warpsight/util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The model parameters, by id (WS_GP_HONG_KIM_MEM_LD, ...). */
typedef enum ws_gp_id {
#define GP(id, model, key, check, unit, doc) WS_GP_##id,
#include "warpsight/gpu_params.def"
#undef GP
  WS_GP_COUNT
} ws_gp_id;

typedef enum ws_gp_check {
  WS_GP_POSITIVE, /* finite, > 0, at most 1e12 */
  WS_GP_INTEGER,  /* a positive integer */
  WS_GP_NONNEG    /* finite, >= 0, at most 1e12 */
} ws_gp_check;

/* One entry of gpu_params.def. */
typedef struct ws_gp_info {
  const char *model;  /* table under "models" */
  const char *key;    /* key within it (dotted for a nested table) */
  ws_gp_check check;
  const char *unit;
  const char *doc;
} ws_gp_info;

extern const ws_gp_info ws_gpu_param_table[WS_GP_COUNT];

/* The id of models.MODEL.KEY, or -1 when gpu_params.def does not declare it. */
int ws_gpu_param_find(const char *model, const char *key);

typedef enum ws_gp_origin {
  WS_GP_ABSENT = 0, /* neither given nor derivable: value NaN */
  WS_GP_GIVEN,      /* stated by the file */
  WS_GP_DERIVED     /* computed at load by derive.c */
} ws_gp_origin;

/* A model parameter's value and where it came from. */
typedef struct ws_gp_value {
  double value;        /* NaN when absent */
  ws_gp_origin origin;
  int has_rule;        /* derive.c has a rule for it (a given one is shown [given]) */
  int changed;         /* 0; 1: value changed by ws_gpu_with_params without a
                          source; 2: replaced with a new source */
  int estimate;        /* the replacement is an estimate */
  char *source;        /* the file's source, "derived: FORMULA", or the
                          replacement's; NULL if none */
  char *note;          /* derived: the arithmetic on this GPU's numbers;
                          absent: why the parameter does not exist on this
                          GPU (a rule said so: "the GPU has no
                          double-precision units: CC 1.1"), else NULL */
} ws_gp_value;

/* The GPU file as loaded (private to src/gpu; the serialiser's input). */
struct ws_gpu_doc;

/* Per-SM resource limits of a compute capability (CUDA occupancy rules). */
typedef struct ws_sm_limits {
  int max_threads_per_sm;      /* resident threads per SM */
  int max_warps_per_sm;        /* resident warps per SM */
  int max_blocks_per_sm;       /* resident blocks per SM */
  int max_threads_per_block;   /* launch limit */
  int regs_per_sm;             /* 32-bit registers in the register file */
  int max_regs_per_thread;     /* compiler limit */
  int max_regs_per_block;      /* launch limit (regsPerBlock) */
  int reg_alloc_unit;          /* registers are allocated in multiples of this */
  int reg_alloc_per_warp;      /* 1: unit applies per warp (CC >= 2.0); 0: per block */
  int warp_alloc_granularity;  /* warps per block rounded up to this (per-block reg alloc) */
  int reg_sub_partitions;      /* register file split into this many partitions (CC >= 3.0) */
  int shared_per_sm;           /* bytes of shared memory per SM (max carve-out) */
  int max_shared_per_block;    /* bytes a block may use */
  int shared_alloc_unit;       /* shared memory allocated in multiples of this */
  int shared_reserved_per_block; /* bytes the driver reserves per block (CC >= 8.0) */
} ws_sm_limits;

/* Cache hierarchy facts used by the profiler's cache simulation.  Every one
 * is given by the file or derived at load (ws_gpu.facts says which); 0 means
 * "none" (no L1 caching of global loads, no read-only cache). */
typedef struct ws_cache_facts {
  int l1_bytes;           /* L1 data cache per SM for global loads (0: not cached) */
  int l1_shared_bytes;    /* unified L1/shared array per SM (0: separate arrays) */
  int l1_line_bytes;      /* L1 line size */
  int l1_sector_bytes;    /* L1 sector: what an L1 miss fetches */
  int l1_assoc;           /* L1 associativity (ways) */
  int l1_caches_global;   /* 1 if global loads are cached in L1 by default */
  int readonly_bytes;     /* cache per SM serving ld.global.nc (0: none) */
  int l2_bytes;           /* L2 size for the whole GPU */
  int l2_line_bytes;      /* L2 line size */
  int l2_sector_bytes;    /* L2/DRAM sector size (32 on CC >= 3.0) */
  int l2_assoc;           /* L2 associativity */
  int l2_slices;          /* L2 slices (banks) */
} ws_cache_facts;

/* The DRAM (docs/gpu-parameters.md, "memory"): the bus is split into 64-bit
 * channels, each with its own controller and L2 slice, and consecutive
 * `interleave_bytes` chunks of the address space go to different
 * partitions.  0 = unknown (no partition figure is profiled). */
typedef struct ws_dram_facts {
  int bus_bits;          /* memory bus width, bits (data sheet) */
  int partitions;        /* DRAM partitions (channels): bus_bits / 64 unless given */
  int interleave_bytes;  /* bytes of one partition's chunk (estimate) */
  double clock_mhz;      /* memory clock as CUDA reports it (NaN: unknown) */
  char type[16];         /* "GDDR6", "HBM2e", ... ("": unknown) */
} ws_dram_facts;

/* Dense tensor-core throughput, operations per clock per SM (an FMA counts
 * 2), where published; NaN when not (docs/gpu-schema.md, "tensor"). */
typedef struct ws_tensor_facts {
  double fp16_f32acc, fp16_f16acc, bf16, tf32, fp8, int8, fp64;
} ws_tensor_facts;

/* The GPU facts, by id (WS_GF_SMS, WS_GF_L2_BYTES, ...): gpu_facts.def. */
typedef enum ws_gf_id {
#define GF(id, path, field, kind, level, consumers, unit, doc) WS_GF_##id,
#include "warpsight/gpu_facts.def"
#undef GF
  WS_GF_COUNT
} ws_gf_id;

typedef enum ws_gf_kind { WS_GFK_INT, WS_GFK_REAL, WS_GFK_TEXT } ws_gf_kind;

/* How a fact must be present (gpu_facts.def explains each). */
typedef enum ws_gf_level {
  WS_GFL_FILE,     /* the loader refuses a file without it */
  WS_GFL_RULE,     /* derived at load when absent */
  WS_GFL_WARN,     /* no rule: absent loads with a warning */
  WS_GFL_BOARD,    /* every database board gives it */
  WS_GFL_OPTIONAL  /* where published */
} ws_gf_level;

typedef struct ws_gf_info {
  const char *path;       /* JSON path in a GPU file, "cache.l2_bytes" */
  ws_gf_kind kind;
  ws_gf_level level;
  const char *consumers;  /* who reads it */
  const char *unit;
  const char *doc;
} ws_gf_info;

extern const ws_gf_info ws_gpu_fact_table[WS_GF_COUNT];

typedef enum ws_gf_origin {
  WS_GFO_ABSENT = 0, /* neither given nor derivable */
  WS_GFO_GIVEN,      /* stated by the file */
  WS_GFO_DERIVED,    /* computed at load by src/gpu/facts.c (an estimate unless exact) */
  WS_GFO_NONE        /* the GPU has no such unit (no L2 on CC 1.x): the note says why */
} ws_gf_origin;

/* Where one fact came from. */
typedef struct ws_gf_state {
  ws_gf_origin origin;
  int estimate;        /* derived: the rule is an assumption, not arithmetic on sourced facts */
  char *source;        /* derived/none: "derived: RULE" */
  char *note;          /* derived/none: the arithmetic, or why there is none */
} ws_gf_state;

/* The id of the fact at JSON path `path`, or -1. */
int ws_gpu_fact_find(const char *path);

/* Measured latencies in SM cycles (NaN when no source gives one). */
typedef struct ws_latencies {
  double dram;   /* global memory, pointer chase */
  double l2;     /* L2 hit */
  double l1;     /* L1 hit */
  double smem;   /* shared memory load */
  double fp32;   /* dependent FP32 FMA */
} ws_latencies;

typedef struct ws_gpu {
  char *name;              /* database key, e.g. "gtx280" */
  char *full_name;         /* e.g. "NVIDIA GeForce GTX 280" */
  char *architecture;      /* Tesla, Fermi, Kepler, ... */
  int cc_major, cc_minor;  /* compute capability */
  int sms;                 /* streaming multiprocessors */
  int cores_per_sm;        /* FP32 lanes (SPs) per SM */
  int sfu_per_sm;          /* special function units per SM (0: unknown) */
  int warp_size;           /* threads per warp (32) */
  double clock_ghz;        /* SM clock the models count cycles in */
  double mem_bandwidth_gbs;/* DRAM bandwidth, GB/s (1e9 bytes/s) */
  ws_sm_limits limits;     /* occupancy limits (from the CC table unless overridden) */
  ws_cache_facts cache;    /* cache facts (0 = none) */
  ws_latencies lat;        /* measured latencies */
  ws_dram_facts dram;      /* "memory": bus, type, clock, partitions */
  double sustained_clock_ghz; /* SM clock held under load (clock_ghz unless a source gives one) */
  double launch_overhead_us;  /* launch floor of an empty kernel, measured cold */
  ws_tensor_facts tensor;  /* tensor-core throughput where published (NaN: not) */
  ws_gf_state facts[WS_GF_COUNT]; /* where each fact came from (gpu_facts.def) */
  int is_hypothetical;     /* 1 for machines that exist only in a paper */
  ws_gp_value params[WS_GP_COUNT]; /* model parameters (gpu_params.def) */
  struct ws_gpu_doc *doc;  /* the file as loaded (owned, private) */
} ws_gpu;

/* The value of a model parameter; NaN when the GPU has none. */
static inline double ws_gpu_p(const ws_gpu *g, ws_gp_id id) { return g->params[id].value; }

/* Load from the built-in database by name, or from a file when `name_or_path`
 * contains '/' or ends in ".json".  An unknown name lists the known ones in
 * the diagnostic. */
int ws_gpu_load(ws_gpu **out, const char *name_or_path, ws_diag *d);
/* Load from JSON text; `origin` names it in diagnostics. */
int ws_gpu_load_json(ws_gpu **out, const char *json, const char *origin,
                     ws_diag *d);
void ws_gpu_free(ws_gpu *g);

/* The built-in database, in name order. */
size_t ws_gpu_db_count(void);
const char *ws_gpu_db_name(size_t i);

/* One change for ws_gpu_with_params. */
typedef struct ws_gp_change {
  ws_gp_id id;
  double value;
  const char *source; /* NULL: keep the parameter's source and entry */
  int estimate;       /* with a source: mark the value an estimate */
} ws_gp_change;

/* A new GPU: `g` with the parameters of `changes` replaced.  Derived
 * parameters are not derived again (they keep the values `g` has). */
int ws_gpu_with_params(ws_gpu **out, const ws_gpu *g, const ws_gp_change *changes,
                       size_t n);

/* The GPU as a warpsight-gpu/1 document (malloc'd text, caller frees): the
 * file as loaded, derived parameters added ({"value", "source": "derived:
 * FORMULA", "estimate", "derived", "note"}), given ones that have a rule
 * marked "given", and replaced ones as ws_gpu_with_params left them. */
char *ws_gpu_to_json(const ws_gpu *g);

/* A model parameter by name: models[model][key], a number or {"value": n,
 * ...} (the typed value for a declared parameter, the file's for another).
 * Returns WS_OK, or WS_EMISSING (with a diagnostic naming the path) if absent. */
int ws_gpu_param(const ws_gpu *g, const char *model, const char *key,
                 double *out, ws_diag *d);
/* Same, but returns `dflt` silently when the parameter is absent. */
double ws_gpu_param_or(const ws_gpu *g, const char *model, const char *key,
                       double dflt);
/* The source string recorded for a model parameter, or NULL. */
const char *ws_gpu_param_source(const ws_gpu *g, const char *model,
                                const char *key);

/* The L1 capacity per SM left to global loads when the blocks resident on
 * an SM use `shared_bytes_per_sm` of shared memory (their shared bytes plus
 * the per-block reservation): on CC >= 7.0 the smallest carve-out of the
 * compute capability that holds them is taken from l1_shared_bytes
 * (docs/gpu-schema.md, "The L1/shared carve-out"); before Volta the L1 does
 * not depend on it (cache.l1_bytes).  0 when global loads bypass L1. */
int ws_gpu_l1_bytes_for_shared(const ws_gpu *g, long long shared_bytes_per_sm);

/* Default per-SM limits for a compute capability; WS_EINVAL if unknown. */
int ws_gpu_sm_limits_for_cc(ws_sm_limits *out, int cc_major, int cc_minor);

/* Occupancy ---------------------------------------------------------------*/

typedef enum ws_occ_limiter {
  WS_OCC_BLOCKS,    /* max resident blocks per SM */
  WS_OCC_WARPS,     /* max resident warps/threads per SM */
  WS_OCC_REGISTERS, /* register file */
  WS_OCC_SHARED     /* shared memory */
} ws_occ_limiter;

typedef struct ws_occupancy_in {
  int threads_per_block;       /* block size */
  int regs_per_thread;         /* registers per thread (0: unknown, not limiting) */
  int shared_bytes_per_block;  /* static + dynamic shared memory */
} ws_occupancy_in;

typedef struct ws_occupancy {
  int active_blocks_per_sm;    /* min of the four limits below */
  int active_warps_per_sm;     /* blocks x warps per block */
  double occupancy;            /* active warps / max warps per SM */
  ws_occ_limiter limiter;      /* which limit binds (first in enum order on ties) */
  int limit_blocks;            /* blocks allowed by the block limit */
  int limit_warps;             /* blocks allowed by the warp/thread limit */
  int limit_regs;              /* blocks allowed by registers */
  int limit_shared;            /* blocks allowed by shared memory */
  int regs_per_block_alloc;    /* registers allocated per block */
  int shared_per_block_alloc;  /* shared bytes allocated per block */
} ws_occupancy;

/* Returns WS_EINVAL with a diagnostic when the block cannot run at all
 * (too many threads, registers or shared bytes for one block). */
int ws_gpu_occupancy_compute(ws_occupancy *out, const ws_sm_limits *lim,
                         int warp_size, const ws_occupancy_in *in,
                         ws_diag *d);
const char *ws_gpu_occ_limiter_name(ws_occ_limiter l);

#ifdef __cplusplus
}
#endif
#endif
