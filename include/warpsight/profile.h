/*
 * warpsight/profile.h — the kernel profile, the seam between the front end
 * and the models (schema "warpsight-profile/1", docs/profile.md).
 *
 * A profile is either written by the profiler or by hand, as the papers did.
 * What the models read is typed and checked at load: scalar fields from
 * profile_fields.def (an absent field is NaN), the model-neutral
 * instruction mix from profile_mix.def, and the hand-written model
 * sections.  The profiler's other report sections stay JSON text
 * (ws_profile_section_json).
 *
 * Ownership: ws_profile_load*() give the caller a profile to release with
 * ws_profile_free(); everything reachable from it is owned by it.
 */
#ifndef WARPSIGHT_PROFILE_H
#define WARPSIGHT_PROFILE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "warpsight/util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The profile's other sections (private to src/profile). */
struct ws_profile_doc;

#define WS_PROFILE_SCHEMA "warpsight-profile/1"

typedef enum ws_pf_check {
  WS_PF_COUNT,    /* finite, >= 0 */
  WS_PF_POSITIVE, /* finite, > 0 */
  WS_PF_RATIO,    /* finite, in [0, 1] */
  WS_PF_ANY       /* finite */
} ws_pf_check;

typedef struct ws_profile_fields {
#define PF(section, key, check, doc) double key; /* section.key */
#include "warpsight/profile_fields.def"
#undef PF
} ws_profile_fields;

/* The model-neutral instruction mix (profile_mix.def, docs/profile.md). */
typedef enum ws_mix_unit {
#define MIX_UNIT(id, name, doc) WS_MIX_UNIT_##id,
#include "warpsight/profile_mix.def"
#undef MIX_UNIT
  WS_MIX_NUNITS
} ws_mix_unit;

typedef enum ws_mix_opf {
#define MIX_OP(id, name, doc) WS_MIX_OP_##id,
#include "warpsight/profile_mix.def"
#undef MIX_OP
  WS_MIX_NOPS
} ws_mix_opf;

/* A key of the mix: unit, operation, float type (0/1), immediate operand (0/1). */
#define WS_MIX_NKEYS (WS_MIX_NUNITS * WS_MIX_NOPS * 4)
static inline unsigned ws_mix_key(unsigned unit, unsigned op, int is_float, int is_imm) {
  return ((unit * WS_MIX_NOPS + op) * 2 + (is_float ? 1u : 0u)) * 2 + (is_imm ? 1u : 0u);
}
static inline unsigned ws_mix_key_unit(unsigned key) { return key / (WS_MIX_NOPS * 4); }
static inline unsigned ws_mix_key_op(unsigned key) { return key / 4 % WS_MIX_NOPS; }
static inline int ws_mix_key_float(unsigned key) { return (int)(key / 2 % 2); }
static inline int ws_mix_key_imm(unsigned key) { return (int)(key % 2); }
/* "UNIT.OP.TYPE.OPERAND" ("int.mad.int.reg") into buf; the key of such a
 * name, or -1. */
const char *ws_profile_mix_key_name(unsigned key, char *buf, size_t n);
int ws_profile_mix_key_parse(const char *name);

/* A count of one key. */
typedef struct ws_mix_count {
  unsigned key;
  double n;
} ws_mix_count;

/* What one warp issued: computation instructions by key (in key order),
 * global requests by threads served per transaction and shared requests by
 * bank-conflict degree (index 1 to 32; 0 unused). */
typedef struct ws_warp_mix {
  uint64_t block;              /* linear block index */
  uint32_t warp;               /* warp within the block */
  ws_mix_count *ops;
  size_t nops;
  double global_by_tpt[33];
  double shared_by_degree[33];
} ws_warp_mix;

/* A period of the representative warp: a run of computation instructions
 * followed by a run of memory instructions, `repeat` times in a row. */
typedef struct ws_mix_period {
  ws_mix_count *ops;
  size_t nops;
  double mem_insts;
  double repeat;
} ws_mix_period;

typedef struct ws_profile_mix {
  /* The heaviest warps: those no warp earlier in (block, warp) order
   * matches or exceeds in every count (so the costliest warp under any
   * non-negative weighting of the counts is among them). */
  ws_warp_mix *warps;
  size_t nwarps;
  /* The representative warp's periods (warp 0 of block 0), in program order;
   * nperiods 0 when it was not profiled. */
  ws_mix_period *periods;
  size_t nperiods;
} ws_profile_mix;

/* The hand-written model sections (docs/profile.md, "Model sections"),
 * checked and typed at load; NULL when the profile has none.  The profiler
 * never writes them: a model that finds one reads it instead of the mix. */
typedef struct ws_pm_count {
  char *name;    /* an operation kind ("int_mul32") or a Table 1 key ("add.int_reg") */
  double count;
} ws_pm_count;

typedef struct ws_pm_group {
  double count;  /* accesses in the group */
  double k;      /* threads per transaction (global) or conflict degree (shared), >= 1 */
} ws_pm_group;

/* "kothapalli": the costliest thread. */
typedef struct ws_profile_kothapalli {
  ws_pm_count *ops;      /* ops_per_thread, in document order */
  size_t nops;
  double comp_cycles;    /* 0 when absent */
  ws_pm_group *global;   /* global_accesses */
  size_t nglobal;
  ws_pm_group *shared;   /* shared_accesses */
  size_t nshared;
} ws_profile_kothapalli;

/* A task of "luo_suda". */
typedef struct ws_pl_task {
  int has_ops;           /* 1: ops; 0: comp_cycles */
  ws_pm_count *ops;      /* by Table 1 key, in document order */
  size_t nops;
  double comp_cycles;
  double mem_cycles;     /* 0 when absent */
  double mem_insts;      /* NaN when absent */
  double repeat;         /* >= 1 */
} ws_pl_task;

/* "luo_suda": the calculate periods of a representative warp. */
typedef struct ws_profile_luo_suda {
  ws_pl_task *tasks;     /* NULL when the section has no "tasks" */
  size_t ntasks;
  double computation_proportion; /* NaN when absent */
  double bytes_per_thread;       /* mem.bytes_per_thread, NaN when absent */
  double transactions;           /* mem.transactions, NaN when absent */
} ws_profile_luo_suda;

/* What a source line's instructions do (bits of ws_profile_line.kinds). */
enum {
  WS_LINE_LOAD = 1,     /* a global or local load */
  WS_LINE_STORE = 2,    /* a global or local store */
  WS_LINE_ATOMIC = 4,   /* a global atomic or reduction */
  WS_LINE_SHARED = 8,   /* a shared-memory load or store */
  WS_LINE_SATOMIC = 16, /* a shared-memory atomic */
  WS_LINE_BARRIER = 32, /* a barrier */
  WS_LINE_BRANCH = 64,  /* a branch */
  WS_LINE_SFU = 128,    /* a special-function instruction */
  WS_LINE_FP64 = 256    /* a double-precision instruction */
};

/* The dynamic counts of one source line (docs/profile.md, "lines"): the
 * instructions the compiler attributed to it with .loc, or one PTX line.
 * Counts are per warp, as per_warp's; the path figures are per block. */
typedef struct ws_profile_line {
  uint32_t file;               /* index into ws_profile_lines.files */
  uint32_t line;               /* 1-based line of that file */
  uint32_t kinds;              /* WS_LINE_* bits of what ran on it */
  double warp_insts;           /* executed warp instructions */
  double global_requests;      /* global/local memory requests (loads, stores, atomics) */
  double sectors;              /* their transactions, in the GPU's unit (docs/profile.md) */
  double sectors_needed;       /* what their bytes need: a coalesced access's transactions */
  double dram_bytes;           /* the launch's DRAM bytes attributed to the line (an
                                  estimate: the launch's read and written bytes shared in
                                  proportion to the line's load and store sectors) */
  double shared_requests;      /* shared-memory requests */
  double bank_conflict_replays;/* their extra passes */
  double branches;             /* branches executed */
  double divergent_branches;   /* ... that diverged */
  double atomic_requests;      /* atomic and reduction requests (global and shared) */
  double atomic_serial;        /* per request, the most lanes on one address, summed */
  double path_mem_loads;       /* loads the line put on a block's longest dependency path */
  double path_cycles;          /* other cycles it put there (issue slots, latencies, replays) */
  double loop_loads_per_trip;  /* the innermost loop around its instructions: global/local
                                  loads per trip (its load requests / its header's
                                  executions), the most over the line's instructions; 0
                                  outside a loop or unknown */
  double loop_trips_per_entry; /* that loop's trips per entry, the most likewise; 0 the same */
} ws_profile_line;

/* The per-line table of a profile (section "lines"). */
typedef struct ws_profile_lines {
  char **files;                /* file names (owned): the PTX's .file names, or the
                                  PTX file itself when ptx_lines */
  size_t nfiles;
  int ptx_lines;               /* 1: the PTX had no line information (no -lineinfo):
                                  rows are PTX lines */
  ws_profile_line *rows;       /* owned; sorted by (file, line) */
  size_t nrows;
  double path_blocks;          /* blocks whose longest path the rows share */
  double path_blocks_skipped;  /* profiled blocks too long to attribute */
} ws_profile_lines;

typedef struct ws_profile {
  char *kernel;              /* kernel name (owned) */
  char *origin;              /* where it was read from, for messages (owned; NULL if built in memory) */
  uint32_t grid[3];          /* launch grid, blocks in x, y, z */
  uint32_t block[3];         /* block dimensions, threads in x, y, z */
  uint64_t blocks;           /* grid[0] * grid[1] * grid[2] */
  uint64_t threads_per_block;/* block[0] * block[1] * block[2] */
  ws_profile_fields f;       /* scalar fields; NaN = absent */
  ws_profile_mix mix;        /* the instruction mix (section "warp_mix", owned) */
  ws_profile_kothapalli *kothapalli; /* hand-written section or NULL (owned) */
  ws_profile_luo_suda *luo_suda;     /* hand-written section or NULL (owned) */
  ws_profile_lines *lines;   /* per source line (section "lines") or NULL (owned) */
  struct ws_profile_doc *doc;/* the other sections: the profiler's report
                                (docs/profile.md), owned; read them with
                                ws_profile_section_json() */
} ws_profile;

/* One entry of the field table, for loaders, writers and docs. */
typedef struct ws_profile_field_info {
  const char *section;  /* JSON object */
  const char *key;      /* JSON key */
  size_t offset;        /* offset of the double in ws_profile_fields */
  ws_pf_check check;    /* validation rule */
  const char *doc;      /* one-line description with units */
} ws_profile_field_info;

extern const ws_profile_field_info ws_profile_field_table[];
extern const size_t ws_profile_field_count;

/* Parse and validate.  `origin` names the document in diagnostics; every
 * error names the offending field by its JSON path. */
int ws_profile_load_json(ws_profile **out, const char *json,
                         const char *origin, ws_diag *d);
int ws_profile_load_file(ws_profile **out, const char *path, ws_diag *d);
void ws_profile_free(ws_profile *p);

/* A new empty profile (all fields NaN) for writers such as the profiler. */
ws_profile *ws_profile_new(const char *kernel, const uint32_t grid[3],
                           const uint32_t block[3]);
/* Serialise to warpsight-profile/1 JSON (malloc'd string, caller frees). */
char *ws_profile_to_json(const ws_profile *p);
/* One top-level section of the profiler's report that has no typed form
 * ("instruction_mix", "simd", "sampling", "caches", "profiler", ...;
 * docs/profile.md, "Measured by the profiler") as unformatted JSON text
 * (malloc'd, caller frees), or NULL when the profile has no such section. */
char *ws_profile_section_json(const ws_profile *p, const char *name);

static inline int ws_pf_has(double v) { return !isnan(v); }

/* Derived counts used by several models. */
double ws_profile_mem_insts(const ws_profile *p);   /* coal + uncoal */
double ws_profile_total_insts(const ws_profile *p); /* comp + coal + uncoal */
/* Measured DRAM bytes of the launch, read + write (an absent one as 0), or
 * NaN when the profile has neither. */
double ws_profile_dram_bytes(const ws_profile *p);

#ifdef __cplusplus
}
#endif
#endif
