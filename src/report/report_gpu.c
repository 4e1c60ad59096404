/*
 * report_gpu.c — the reports of `warpsight gpus` (one row per database GPU)
 * and `warpsight gpu NAME` (every fact and model parameter with its source;
 * derived parameters with their rule's arithmetic).  warpsight/report.h,
 * report/report_json.h.
 */
#include "warpsight/report.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_json.h"
#include "util/json.h"

void ws_report_gpus_header(FILE *out) {
  /* The architecture column is as wide as the database's widest ("Blackwell (GB100, two
   * dies)"), so that no row pushes its columns out of line. */
  fprintf(out, "%-16s %-4s %5s %9s %11s  %-27s %s\n", "name", "cc", "SMs", "clock", "bandwidth",
          "architecture", "full name");
}

void ws_report_gpus_row(FILE *out, const ws_gpu *g) {
  char cc[16];
  snprintf(cc, sizeof cc, "%d.%d", g->cc_major, g->cc_minor);
  fprintf(out, "%-16s %-4s %5d %5.3f GHz %6.1f GB/s  %-27s %s%s\n", g->name, cc, g->sms,
          g->clock_ghz, g->mem_bandwidth_gbs, g->architecture, g->full_name,
          g->is_hypothetical ? " (hypothetical)" : "");
}

cJSON *ws_report_gpus_row_json(const ws_gpu *g) {
  char cc[16];
  snprintf(cc, sizeof cc, "%d.%d", g->cc_major, g->cc_minor);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", g->name);
  cJSON_AddStringToObject(o, "full_name", g->full_name);
  cJSON_AddStringToObject(o, "architecture", g->architecture);
  cJSON_AddStringToObject(o, "compute_capability", cc);
  cJSON_AddNumberToObject(o, "sms", g->sms);
  cJSON_AddNumberToObject(o, "clock_ghz", g->clock_ghz);
  cJSON_AddNumberToObject(o, "mem_bandwidth_gbs", g->mem_bandwidth_gbs);
  return o;
}

static void print_value_line(FILE *out, const char *indent, const char *key, const cJSON *v) {
  double num;
  const cJSON *src = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, "source") : NULL;
  const cJSON *est = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, "estimate") : NULL;
  const cJSON *val = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, "value") : v;
  const cJSON *none = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, "none") : NULL;
  if (cJSON_IsTrue(none))
    fprintf(out, "%s%-24s %-12s", indent, key, "none");
  else if (cJSON_IsString(val))
    fprintf(out, "%s%-24s %-12s", indent, key, val->valuestring);
  else if (ws_json_number(v, &num))
    fprintf(out, "%s%-24s %-12.10g", indent, key, num);
  else
    return;
  const cJSON *der = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, "derived") : NULL;
  const cJSON *giv = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, "given") : NULL;
  const cJSON *note = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, "note") : NULL;
  if (cJSON_IsTrue(der)) {
    /* Derived at load: say so, with the arithmetic on this GPU's numbers. */
    const char *rule = cJSON_IsString(src) ? src->valuestring : "";
    if (!strncmp(rule, "derived: ", 9)) rule += 9; /* the marker says it once */
    fprintf(out, " [derived] %s", rule);
    if (cJSON_IsString(note)) fprintf(out, ": %s", note->valuestring);
  } else {
    if (cJSON_IsTrue(giv)) fprintf(out, " [given]");
    if (cJSON_IsString(src)) fprintf(out, " %s%s", cJSON_IsTrue(est) ? "[estimate] " : "", src->valuestring);
    /* The file's note: an estimate's only source ("estimate (see note)"),
     * else what the number means or leaves out; the database is compiled
     * in, so the user has no file to see it in. */
    if (cJSON_IsString(note)) fprintf(out, ": %s", note->valuestring);
  }
  fprintf(out, "\n");
}

/* 1 if gpu_facts.def declares SECTION.KEY (printed in the table's order). */
static int declared_fact(const char *section, const char *key) {
  char path[96];
  snprintf(path, sizeof path, "%s.%s", section, key);
  return ws_gpu_fact_find(path) >= 0;
}

/* A fact section (memory, cache, latencies, tensor): the declared facts in
 * gpu_facts.def's order, then any other key the file has. */
static void print_fact_section(FILE *out, const char *section, const cJSON *obj) {
  for (int i = 0; i < WS_GF_COUNT; i++) {
    const char *path = ws_gpu_fact_table[i].path, *dot = strchr(path, '.');
    if (!dot || strncmp(path, section, (size_t)(dot - path)) != 0 || section[dot - path] != '\0')
      continue;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, dot + 1);
    if (v) print_value_line(out, "  ", dot + 1, v);
  }
  for (const cJSON *k = obj->child; k; k = k->next)
    if (!declared_fact(section, k->string)) print_value_line(out, "  ", k->string, k);
}

static void print_tree(FILE *out, const char *indent, const cJSON *obj) {
  char deeper[64];
  snprintf(deeper, sizeof deeper, "%s  ", indent);
  for (const cJSON *k = obj->child; k; k = k->next) {
    int is_leaf = !cJSON_IsObject(k) || cJSON_GetObjectItemCaseSensitive(k, "value");
    if (is_leaf) {
      print_value_line(out, indent, k->string, k);
    } else {
      fprintf(out, "%s%s:\n", indent, k->string);
      print_tree(out, deeper, k);
    }
  }
}

int ws_report_gpu(FILE *out, const ws_gpu *g) {
  /* The document as the one serialiser writes it: the file, the derived
   * parameters added, the given ones marked. */
  char *text = ws_gpu_to_json(g);
  cJSON *root = text ? cJSON_Parse(text) : NULL;
  free(text);
  if (!root) return WS_ENOMEM;
  fprintf(out, "%s — %s%s\n", g->name, g->full_name, g->is_hypothetical ? " (hypothetical machine)" : "");
  fprintf(out, "architecture %s, compute capability %d.%d\n\n", g->architecture, g->cc_major, g->cc_minor);
  fprintf(out, "facts (value, source):\n");
  static const char *const facts[] = {"compute_capability", "sms",        "cores_per_sm",
                                      "sfu_per_sm",         "warp_size",  "clock_ghz",
                                      "sustained_clock_ghz", "mem_bandwidth_gbs",
                                      "launch_overhead_us"};
  for (size_t i = 0; i < sizeof facts / sizeof facts[0]; i++) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, facts[i]);
    if (v) print_value_line(out, "  ", facts[i], v);
  }
  const ws_sm_limits *L = &g->limits;
  fprintf(out, "\nper-SM limits (compute capability %d.%d%s):\n", g->cc_major, g->cc_minor,
         cJSON_GetObjectItemCaseSensitive(root, "limits") ? ", with overrides from the file" : "");
  fprintf(out, "  threads %d, warps %d, blocks %d, threads/block %d\n", L->max_threads_per_sm,
         L->max_warps_per_sm, L->max_blocks_per_sm, L->max_threads_per_block);
  fprintf(out, "  registers %d (unit %d per %s, max %d per thread), shared %d bytes (unit %d, max %d per block%s)\n",
         L->regs_per_sm, L->reg_alloc_unit, L->reg_alloc_per_warp ? "warp" : "block",
         L->max_regs_per_thread, L->shared_per_sm, L->shared_alloc_unit, L->max_shared_per_block,
         L->shared_reserved_per_block ? ", 1 KB reserved per block" : "");
  /* A section whose keys do not carry their unit says it in its heading
   * (docs/gpu-schema.md: latencies in SM cycles, tensor throughput in
   * operations per clock per SM). */
  static const struct {
    const char *name, *unit; /* the unit: "" or " (...)", after the name */
  } sections[] = {
      {"memory", ""},
      {"cache", ""},
      {"latencies", " (SM cycles)"},
      {"tensor", " (operations per clock per SM)"},
      {"models", ""},
  };
  for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
    const char *name = sections[i].name, *unit = sections[i].unit;
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(root, name);
    if (!cJSON_IsObject(s) && !strcmp(name, "tensor") && g->cc_major >= 7) {
      /* the warpsight model reads it (C6): say that it is missing */
      fprintf(out, "\ntensor%s:\n  not published for this board: the warpsight model prices "
                   "tensor-core (mma) operations at 0 cycles on it\n", unit);
      continue;
    }
    if (!cJSON_IsObject(s)) continue;
    fprintf(out, "\n%s%s:\n", name, unit);
    if (strcmp(name, "models") == 0) print_tree(out, "  ", s);
    else print_fact_section(out, name, s);
  }
  cJSON_Delete(root);
  return WS_OK;
}
