/*
 * facts.c — the GPU facts every consumer reads (include/warpsight/
 * gpu_facts.def): where each came from, the rules that derive a missing one
 * at load (docs/gpu-parameters.md, "GPU facts"), the warning that names one
 * no rule could derive, and their place in the serialised document.
 *
 * A fact the file gives is GIVEN.  A missing one is DERIVED by its rule from
 * the file's other facts and the compute capability's row of cc_facts.def
 * (with the rule as source and the arithmetic as note), or NONE when the GPU
 * has no such unit (no L2 on CC 1.x).  One the rules cannot derive stays
 * ABSENT and the loader warns, naming it and what reads it: a consumer never
 * meets a silently missing fact.  The serialiser writes derived facts as
 * {"value", "source": "derived: RULE", "derived": true, "note"}; the loader
 * drops such entries and derives them again, so an edited copy never carries
 * a stale one and `gpu --json` output loads back to the same facts.
 */
#include "gpu/facts.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/derive.h"
#include "util/strbuf.h"

const ws_gf_info ws_gpu_fact_table[WS_GF_COUNT] = {
#define GF(id, path, field, kind, level, consumers, unit, doc) \
  {path, WS_GFK_##kind, WS_GFL_##level, consumers, unit, doc},
#include "warpsight/gpu_facts.def"
#undef GF
};

int ws_gpu_fact_find(const char *path) {
  if (!path) return -1;
  for (int i = 0; i < WS_GF_COUNT; i++)
    if (strcmp(ws_gpu_fact_table[i].path, path) == 0) return i;
  return -1;
}

/* The per-CC table (cc_facts.def). */
typedef struct cc_facts {
  int major, minor;
  int l1_shared_kb, l1_default_kb, l1_global, l1_sector, readonly_kb;
  const int *carve; /* shared-memory capacities, KB, ascending */
  int ncarve;
  double lat_dram, lat_l2, lat_l1;
  const char *lat_src;
  double launch_us;
  const char *launch_src;
} cc_facts;

static const cc_facts cc_table[] = {
#define CCF(...) CCF_(__VA_ARGS__)
#define CCF_(ma, mi, sh, l1d, glob, sec, ro, carve, nc, ld, l2, l1, lsrc, lu, lusrc) \
  {ma, mi, sh, l1d, glob, sec, ro, carve, nc, ld, l2, l1, lsrc, lu, lusrc},
#include "cc_facts.def"
#undef CCF_
#undef CCF
};

static const cc_facts *cc_row(int major, int minor) {
  for (size_t i = 0; i < sizeof cc_table / sizeof cc_table[0]; i++)
    if (cc_table[i].major == major && cc_table[i].minor == minor) return &cc_table[i];
  return NULL;
}

int ws_gpu_cc_facts_known(int major, int minor) { return cc_row(major, minor) != NULL; }

/* A fact's place in ws_gpu. */
typedef struct fact_ref {
  int *i;
  double *d;
  char *t;
  size_t tn;
} fact_ref;

static fact_ref ref_int(int *p) { return (fact_ref){p, NULL, NULL, 0}; }
static fact_ref ref_dbl(double *p) { return (fact_ref){NULL, p, NULL, 0}; }
static fact_ref ref_txt(char (*p)[16]) { return (fact_ref){NULL, NULL, *p, sizeof *p}; }
#define REF(x) _Generic(&(x), int *: ref_int, double *: ref_dbl, char(*)[16]: ref_txt)(&(x))

static fact_ref slot(ws_gpu *g, int id) {
  switch (id) {
#define GF(id, path, field, kind, level, consumers, unit, doc) \
  case WS_GF_##id:                                            \
    return REF(g->field);
#include "warpsight/gpu_facts.def"
#undef GF
  default:
    return (fact_ref){NULL, NULL, NULL, 0};
  }
}

/* The value of a numeric fact as a double; NaN when unset or textual. */
static double get(const ws_gpu *g, int id) {
  fact_ref r = slot((ws_gpu *)g, id);
  if (r.i) return *r.i;
  if (r.d) return *r.d;
  return NAN;
}

static void set(ws_gpu *g, int id, double v) {
  fact_ref r = slot(g, id);
  if (r.i) *r.i = (int)lround(v);
  else if (r.d) *r.d = v;
}

void ws_gpu_facts_init(ws_gpu *g) {
  g->dram.clock_mhz = NAN;
  g->sustained_clock_ghz = NAN;
  g->launch_overhead_us = NAN;
  g->tensor = (ws_tensor_facts){NAN, NAN, NAN, NAN, NAN, NAN, NAN};
}

/* The item at a fact's path ("cache.l1_bytes"), or NULL. */
static cJSON *item_at(const cJSON *root, const char *path) {
  const char *dot = strchr(path, '.');
  if (!dot) return cJSON_GetObjectItemCaseSensitive(root, path);
  char head[32];
  snprintf(head, sizeof head, "%.*s", (int)(dot - path), path);
  const cJSON *sub = cJSON_GetObjectItemCaseSensitive(root, head);
  return cJSON_IsObject(sub) ? cJSON_GetObjectItemCaseSensitive(sub, dot + 1) : NULL;
}

void ws_gpu_facts_strip(cJSON *root) {
  for (int i = 0; i < WS_GF_COUNT; i++) {
    const char *path = ws_gpu_fact_table[i].path, *dot = strchr(path, '.');
    cJSON *it = item_at(root, path);
    if (!cJSON_IsObject(it) || !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "derived")))
      continue;
    if (!dot) {
      cJSON_DeleteItemFromObjectCaseSensitive(root, path);
    } else {
      char head[32];
      snprintf(head, sizeof head, "%.*s", (int)(dot - path), path);
      cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, head), dot + 1);
    }
  }
}

void ws_gpu_facts_mark(ws_gpu *g, const cJSON *root) {
  for (int i = 0; i < WS_GF_COUNT; i++)
    if (ws_gpu_fact_table[i].level == WS_GFL_FILE || item_at(root, ws_gpu_fact_table[i].path))
      g->facts[i].origin = WS_GFO_GIVEN;
}

/* The rules ------------------------------------------------------------*/

typedef struct rule_out {
  double v;
  int none;     /* the GPU has no such unit */
  int estimate; /* an assumption, not arithmetic on sourced facts */
  const char *formula; /* replaces the entry's formula for this GPU */
  char note[320];
} rule_out;

#define NOTE(...) snprintf(o->note, sizeof o->note, __VA_ARGS__)

/* Each rule returns 1 when it derived o->v (or o->none), 0 when its inputs
 * are missing. */
typedef int (*fact_rule)(const ws_gpu *g, const cc_facts *c, rule_out *o);

static int is_cc1(const ws_gpu *g) { return g->cc_major == 1; }

/* 1 (after recording "none" and why) when the GPU is CC 1.x, which has no
 * cache for global loads. */
static int none_on_cc1(const ws_gpu *g, rule_out *o, const char *why) {
  if (!is_cc1(g)) return 0;
  o->none = 1;
  NOTE("%s", why);
  return 1;
}

static int r_warp(const ws_gpu *g, const cc_facts *c, rule_out *o) {
  (void)g, (void)c;
  o->v = 32;
  NOTE("32 threads on every NVIDIA GPU (CUDA C Programming Guide, technical specifications)");
  return 1;
}

static int r_sfu(const ws_gpu *g, const cc_facts *c, rule_out *o) {
  (void)c;
  o->v = ws_gpu_arch_sfu(g->cc_major, g->cc_minor);
  NOTE("SFU results per clock per SM of CC %d.%d (src/gpu/cc_arch.def, the Programming Guide's "
       "throughput table)", g->cc_major, g->cc_minor);
  return o->v > 0;
}

static int r_sustained(const ws_gpu *g, const cc_facts *c, rule_out *o) {
  (void)c;
  o->v = g->clock_ghz;
  o->estimate = 1;
  NOTE("no measured clock for this board: the data-sheet clock_ghz %g", g->clock_ghz);
  return 1;
}

static int r_launch(const ws_gpu *g, const cc_facts *c, rule_out *o) {
  o->v = c->launch_us;
  o->estimate = 1;
  NOTE("CC %d.%d: %s", g->cc_major, g->cc_minor, c->launch_src);
  return 1;
}

static int r_l1_shared(const ws_gpu *g, const cc_facts *c, rule_out *o) {
  o->v = c->l1_shared_kb * 1024.0;
  if (c->l1_shared_kb)
    NOTE("%d KB unified L1/shared array per SM on CC %d.%d (src/gpu/cc_facts.def)", c->l1_shared_kb,
         g->cc_major, g->cc_minor);
  else
    NOTE("0: shared memory is an array of its own on CC %d.%d", g->cc_major, g->cc_minor);
  return 1;
}

static int r_l1_global(const ws_gpu *g, const cc_facts *c, rule_out *o) {
  o->v = c->l1_global;
  NOTE("CC %d.%d %s global loads in L1 by default (CUDA C Programming Guide, CC %d.x)",
       g->cc_major, g->cc_minor, c->l1_global ? "caches" : "does not cache", g->cc_major);
  return 1;
}

static int r_l1(const ws_gpu *g, const cc_facts *c, rule_out *o) {
  if (!g->cache.l1_caches_global) {
    o->v = 0;
    NOTE("0: global loads bypass L1 by default (cache.l1_caches_global = 0)");
  } else if (c->ncarve > 0 && g->cache.l1_shared_bytes > 0) {
    o->v = g->cache.l1_shared_bytes - c->carve[0] * 1024.0;
    NOTE("l1_shared_bytes %d - the smallest shared carve-out of CC %d.%d, %d KB = %g",
         g->cache.l1_shared_bytes, g->cc_major, g->cc_minor, c->carve[0], o->v);
  } else {
    o->v = c->l1_default_kb * 1024.0;
    NOTE("the default L1 of CC %d.%d: %d KB (16 KB L1 / 48 KB shared split)", g->cc_major,
         g->cc_minor, c->l1_default_kb);
  }
  return 1;
}

static int r_l1_line(const ws_gpu *g, const cc_facts *c, rule_out *o) {
  (void)c;
  if (none_on_cc1(g, o, "no L1 data cache on CC 1.x")) return 1;
  o->v = 128;
  NOTE("128-byte L1 lines from Fermi on (NVIDIA Nsight VSE, Memory Statistics - Global)");
  return 1;
}

static int r_l1_sector(const ws_gpu *g, const cc_facts *c, rule_out *o) {
  if (!c->l1_sector) {
    o->none = 1;
    NOTE("no L1 data cache on CC %d.%d", g->cc_major, g->cc_minor);
    return 1;
  }
  o->v = c->l1_sector;
  NOTE(c->l1_sector == 32 ? "32-byte sectors of 128-byte lines from Maxwell on (src/gpu/cc_facts.def)"
                          : "the whole 128-byte line on Fermi and Kepler (src/gpu/cc_facts.def)");
  return 1;
}

static int r_assoc(const ws_gpu *g, rule_out *o, int ways, const char *none_why) {
  if (none_on_cc1(g, o, none_why)) return 1;
  o->v = ways;
  o->estimate = 1;
  NOTE("%d ways: no associativity is published; the profiler's assumption (docs/gpu-parameters.md)",
       ways);
  return 1;
}
static int r_l1_assoc(const ws_gpu *g, const cc_facts *c, rule_out *o) {
  (void)c;
  return r_assoc(g, o, 16, "no L1 data cache on CC 1.x");
}
static int r_l2_assoc(const ws_gpu *g, const cc_facts *c, rule_out *o) {
  (void)c;
  return r_assoc(g, o, 16, "no L2 on CC 1.x");
}

static int r_readonly(const ws_gpu *g, const cc_facts *c, rule_out *o) {
  if (c->readonly_kb < 0) {
    o->v = g->cache.l1_bytes;
    NOTE("ld.global.nc goes through the L1 from Volta on: cache.l1_bytes = %d", g->cache.l1_bytes);
  } else if (c->readonly_kb == 0) {
    o->v = 0;
    NOTE("0: ld.global.nc (PTX ISA: sm_32 and later) has no cache of its own on CC %d.%d",
         g->cc_major, g->cc_minor);
  } else {
    o->v = c->readonly_kb * 1024.0;
    o->estimate = 1;
    NOTE("%d KB %s per SM on CC %d.%d (src/gpu/cc_facts.def)", c->readonly_kb,
         g->cc_major == 3 ? "read-only data cache" : "unified L1/texture cache", g->cc_major,
         g->cc_minor);
  }
  return 1;
}

static int r_l2(const ws_gpu *g, const cc_facts *c, rule_out *o) {
  (void)c;
  if (!is_cc1(g)) return 0; /* a size no rule can give: the loader warns */
  o->v = 0;
  NOTE("0: no cache serves global loads on CC 1.x");
  return 1;
}

static int r_l2_line(const ws_gpu *g, const cc_facts *c, rule_out *o) {
  (void)c;
  if (none_on_cc1(g, o, "no L2 on CC 1.x")) return 1;
  o->v = 128;
  o->estimate = 1;
  NOTE("128-byte lines of four 32-byte sectors; no source used here states it");
  return 1;
}

static int r_l2_sector(const ws_gpu *g, const cc_facts *c, rule_out *o) {
  (void)c, (void)g;
  o->v = 32;
  NOTE("32-byte L2/DRAM transactions (CUPTI: 32-byte L2 transactions; the 32-byte segment of "
       "CC 1.2+ and Fermi's uncached loads)");
  return 1;
}

static int is_hbm(const ws_gpu *g) { return strncmp(g->dram.type, "HBM", 3) == 0; }

static int r_l2_slices(const ws_gpu *g, const cc_facts *c, rule_out *o) {
  (void)c;
  if (none_on_cc1(g, o, "no L2 on CC 1.x")) return 1;
  if (g->dram.bus_bits <= 0) return 0;
  int per = is_hbm(g) ? 64 : 32;
  o->v = g->dram.bus_bits / per;
  o->estimate = 1;
  NOTE("one slice per %d-bit %s: memory.bus_bits %d / %d = %g", per,
       is_hbm(g) ? "HBM pseudo-channel" : "memory controller", g->dram.bus_bits, per, o->v);
  return o->v >= 1;
}

static int r_bus(const ws_gpu *g, const cc_facts *c, rule_out *o) {
  (void)c;
  if (!(g->dram.clock_mhz > 0)) return 0;
  o->v = round(g->mem_bandwidth_gbs * 1000.0 * 8.0 / (2.0 * g->dram.clock_mhz));
  NOTE("mem_bandwidth_gbs x 8000 / (2 x memory.clock_mhz) = %g x 8000 / (2 x %g)",
       g->mem_bandwidth_gbs, g->dram.clock_mhz);
  return o->v >= 1;
}

static int r_mem_clock(const ws_gpu *g, const cc_facts *c, rule_out *o) {
  (void)c;
  if (g->dram.bus_bits <= 0) return 0;
  o->v = g->mem_bandwidth_gbs * 1000.0 / (2.0 * g->dram.bus_bits / 8.0);
  NOTE("mem_bandwidth_gbs x 1000 / (2 x memory.bus_bits / 8) = %g x 1000 / (2 x %d / 8)",
       g->mem_bandwidth_gbs, g->dram.bus_bits);
  return 1;
}

/* One partition per 64-bit controller on every NVIDIA GPU since GT200
 * (Ruetsch & Micikevicius 2009 for GT200's 8 x 64-bit; the GK104, GK110
 * and GM204 whitepapers' 64-bit controllers). */
static int r_partitions(const ws_gpu *g, const cc_facts *c, rule_out *o) {
  (void)c;
  if (g->dram.bus_bits < 64) return 0;
  o->v = g->dram.bus_bits / 64;
  NOTE("%d / 64 = %g", g->dram.bus_bits, o->v);
  return 1;
}

/* Ruetsch & Micikevicius: "partitions of 256 bytes" (GT200); later GPUs hash
 * and do not document it, so it stays an estimate. */
static int r_interleave(const ws_gpu *g, const cc_facts *c, rule_out *o) {
  (void)c;
  if (g->dram.partitions <= 0) return 0;
  o->v = 256;
  o->estimate = 1;
  NOTE("GT200's partition width; not documented for later GPUs");
  return 1;
}

static int r_latency(const ws_gpu *g, const cc_facts *c, rule_out *o, double v, const char *what) {
  if (isnan(v)) {
    o->none = 1;
    NOTE("no %s caches global loads on CC %d.%d", what, g->cc_major, g->cc_minor);
    return 1;
  }
  o->v = v;
  o->estimate = 1;
  NOTE("CC %d.%d: %s", g->cc_major, g->cc_minor, c->lat_src);
  return 1;
}

static int r_lat_dram(const ws_gpu *g, const cc_facts *c, rule_out *o) {
  double mem_ld = ws_gpu_p(g, WS_GP_HONG_KIM_MEM_LD);
  if (is_cc1(g) && g->params[WS_GP_HONG_KIM_MEM_LD].origin == WS_GP_GIVEN && mem_ld > 0) {
    o->v = mem_ld;
    o->formula = "models.hong-kim.mem_ld";
    NOTE("models.hong-kim.mem_ld = %g cycles, this GPU's DRAM round trip", mem_ld);
    return 1;
  }
  return r_latency(g, c, o, c->lat_dram, "DRAM");
}
static int r_lat_l2(const ws_gpu *g, const cc_facts *c, rule_out *o) { return r_latency(g, c, o, c->lat_l2, "L2"); }
static int r_lat_l1(const ws_gpu *g, const cc_facts *c, rule_out *o) { return r_latency(g, c, o, c->lat_l1, "L1"); }

static int r_lat_fp32(const ws_gpu *g, const cc_facts *c, rule_out *o) {
  (void)c;
  o->v = ws_gpu_arch_fp32_lat(g->cc_major, g->cc_minor);
  NOTE("dependent FP32 latency of CC %d.%d (src/gpu/cc_arch.def)", g->cc_major, g->cc_minor);
  return o->v > 0;
}

/* The rules in the order they run: a rule that reads another fact comes
 * after the rule that may derive it. */
static const struct fact_rule_entry {
  int id;
  fact_rule fn;
  const char *formula; /* after "derived: " in the source */
} fact_rules[] = {
    {WS_GF_WARP_SIZE, r_warp, "32"},
    {WS_GF_SFU_PER_SM, r_sfu, "the CC's SFU throughput"},
    {WS_GF_SUSTAINED_CLOCK_GHZ, r_sustained, "clock_ghz"},
    {WS_GF_LAUNCH_OVERHEAD_US, r_launch, "the CC's launch floor"},
    {WS_GF_L1_SHARED_BYTES, r_l1_shared, "the CC's unified L1/shared array"},
    {WS_GF_L1_CACHES_GLOBAL, r_l1_global, "the CC's default"},
    {WS_GF_L1_BYTES, r_l1, "l1_shared_bytes - the smallest carve-out, or the CC's default L1"},
    {WS_GF_L1_LINE_BYTES, r_l1_line, "128"},
    {WS_GF_L1_SECTOR_BYTES, r_l1_sector, "the CC's L1 sector"},
    {WS_GF_L1_ASSOC, r_l1_assoc, "16 (assumption)"},
    {WS_GF_READONLY_BYTES, r_readonly, "the CC's read-only path"},
    {WS_GF_L2_BYTES, r_l2, "0 on CC 1.x"},
    {WS_GF_L2_LINE_BYTES, r_l2_line, "128"},
    {WS_GF_L2_SECTOR_BYTES, r_l2_sector, "32"},
    {WS_GF_L2_ASSOC, r_l2_assoc, "16 (assumption)"},
    {WS_GF_BUS_BITS, r_bus, "mem_bandwidth_gbs / (2 x memory.clock_mhz)"},
    {WS_GF_MEMORY_CLOCK_MHZ, r_mem_clock, "mem_bandwidth_gbs / (2 x memory.bus_bits / 8)"},
    {WS_GF_L2_SLICES, r_l2_slices, "memory.bus_bits / 32 (GDDR) or / 64 (HBM)"},
    {WS_GF_DRAM_PARTITIONS, r_partitions, "memory.bus_bits / 64"},
    {WS_GF_INTERLEAVE_BYTES, r_interleave, "256 (Ruetsch & Micikevicius 2009, GT200's partition width)"},
    {WS_GF_LAT_DRAM, r_lat_dram, "the CC's measured board"},
    {WS_GF_LAT_L2, r_lat_l2, "the CC's measured board"},
    {WS_GF_LAT_L1, r_lat_l1, "the CC's measured board"},
    {WS_GF_LAT_FP32, r_lat_fp32, "the CC's FP32 latency"},
};

static int record(ws_gpu *g, const struct fact_rule_entry *r, const rule_out *o) {
  ws_gf_state *st = &g->facts[r->id];
  char src[160];
  snprintf(src, sizeof src, "derived: %s",
           o->none ? "not applicable" : o->formula ? o->formula : r->formula);
  free(st->source), free(st->note);
  st->source = ws_strdup(src);
  st->note = ws_strdup(o->note);
  if (!st->source || !st->note) return WS_ENOMEM;
  st->estimate = o->estimate;
  st->origin = o->none ? WS_GFO_NONE : WS_GFO_DERIVED;
  if (!o->none) set(g, r->id, o->v);
  return WS_OK;
}

int ws_gpu_facts_derive(ws_gpu *g) {
  const cc_facts *c = cc_row(g->cc_major, g->cc_minor);
  if (!c) return WS_OK; /* the loader has refused an unknown CC */
  for (size_t i = 0; i < sizeof fact_rules / sizeof fact_rules[0]; i++) {
    const struct fact_rule_entry *r = &fact_rules[i];
    if (g->facts[r->id].origin != WS_GFO_ABSENT) continue;
    rule_out o = {0};
    if (!r->fn(g, c, &o)) continue;
    if (!o.none && !isfinite(o.v)) continue;
    if (record(g, r, &o) != WS_OK) return WS_ENOMEM;
  }
  return WS_OK;
}

void ws_gpu_facts_warn(const ws_gpu *g, const char *origin, ws_diag *d) {
  /* The facts no rule has (named with their readers), then those whose
   * rules lacked an input (or were turned off), by path. */
  ws_strbuf b = WS_STRBUF_INIT, r = WS_STRBUF_INIT;
  for (int i = 0; i < WS_GF_COUNT; i++) {
    const ws_gf_info *in = &ws_gpu_fact_table[i];
    if (g->facts[i].origin != WS_GFO_ABSENT) continue;
    if (in->level == WS_GFL_WARN) ws_sb_printf(&b, "%s%s (read by %s)", b.n ? "; " : "", in->path, in->consumers);
    else if (in->level == WS_GFL_RULE) ws_sb_printf(&r, "%s%s", r.n ? ", " : "", in->path);
  }
  if ((b.n || r.n) && !b.oom && !r.oom)
    ws_diag_add(d, WS_SEV_WARNING, origin, 0, 0,
                "missing GPU facts that no rule can derive from this file: %s%s%s; the profiler "
                "and models go without them (no L2 is simulated without cache.l2_bytes, no "
                "DRAM partitions without memory.bus_bits); give them in the file "
                "(docs/gpu-schema.md)",
                ws_sb_str(&b), b.n && r.n ? "; and for want of an input: " : "", ws_sb_str(&r));
  ws_sb_free(&b);
  ws_sb_free(&r);
}

/* The serialiser's side ---------------------------------------------------*/

static cJSON *parent_for(cJSON *root, const char *path, const char **key) {
  const char *dot = strchr(path, '.');
  if (!dot) {
    *key = path;
    return root;
  }
  char head[32];
  snprintf(head, sizeof head, "%.*s", (int)(dot - path), path);
  cJSON *sub = cJSON_GetObjectItemCaseSensitive(root, head);
  if (!sub) sub = cJSON_AddObjectToObject(root, head);
  *key = dot + 1;
  return cJSON_IsObject(sub) ? sub : NULL;
}

int ws_gpu_facts_decorate(cJSON *root, const ws_gpu *g) {
  for (int i = 0; i < WS_GF_COUNT; i++) {
    const ws_gf_state *st = &g->facts[i];
    if (st->origin != WS_GFO_DERIVED && st->origin != WS_GFO_NONE) continue;
    const char *key;
    cJSON *parent = parent_for(root, ws_gpu_fact_table[i].path, &key);
    if (!parent) return WS_ENOMEM;
    cJSON_DeleteItemFromObjectCaseSensitive(parent, key);
    cJSON *o = cJSON_AddObjectToObject(parent, key);
    int bad = !o;
    if (!bad && st->origin == WS_GFO_DERIVED)
      bad = !cJSON_AddNumberToObject(o, "value", get(g, i));
    if (!bad && st->origin == WS_GFO_NONE) bad = !cJSON_AddTrueToObject(o, "none");
    if (!bad) bad = !cJSON_AddStringToObject(o, "source", st->source ? st->source : "derived");
    if (!bad && st->estimate) bad = !cJSON_AddTrueToObject(o, "estimate");
    if (!bad) bad = !cJSON_AddTrueToObject(o, "derived");
    if (!bad) bad = !cJSON_AddStringToObject(o, "note", st->note ? st->note : "");
    if (bad) return WS_ENOMEM;
  }
  return WS_OK;
}

void ws_gpu_facts_free(ws_gpu *g) {
  for (int i = 0; i < WS_GF_COUNT; i++) free(g->facts[i].source), free(g->facts[i].note);
}

int ws_gpu_facts_copy(ws_gpu *dst, const ws_gpu *src) {
  int bad = 0;
  for (int i = 0; i < WS_GF_COUNT; i++) {
    const ws_gf_state *s = &src->facts[i];
    ws_gf_state *t = &dst->facts[i];
    t->source = t->note = NULL;
    if ((s->source && !(t->source = ws_strdup(s->source))) || (s->note && !(t->note = ws_strdup(s->note))))
      bad = 1;
  }
  return bad ? WS_ENOMEM : WS_OK;
}

/* The carve-out ------------------------------------------------------------*/

int ws_gpu_l1_bytes_for_shared(const ws_gpu *g, long long shared_bytes_per_sm) {
  if (!g || !g->cache.l1_caches_global) return 0;
  const cc_facts *c = cc_row(g->cc_major, g->cc_minor);
  if (!c || c->ncarve == 0 || g->cache.l1_shared_bytes <= 0) return g->cache.l1_bytes;
  long long need = shared_bytes_per_sm > 0 ? shared_bytes_per_sm : 0;
  int carve = c->carve[c->ncarve - 1]; /* the largest when nothing smaller holds them */
  for (int k = 0; k < c->ncarve; k++)
    if ((long long)c->carve[k] * 1024 >= need) {
      carve = c->carve[k];
      break;
    }
  long long l1 = (long long)g->cache.l1_shared_bytes - (long long)carve * 1024;
  if (l1 < 0) l1 = 0;
  return l1 < g->cache.l1_bytes || g->cache.l1_bytes <= 0 ? (int)l1 : g->cache.l1_bytes;
}
