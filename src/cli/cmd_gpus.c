/* cmd_gpus.c — `warpsight gpus` and `warpsight gpu NAME [--json]`. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"
#include "util/strbuf.h"
#include "warpsight/gpu.h"
#include "util/json.h"

static const char gpus_help[] =
    "usage: warpsight gpus [--arch NAME] [--json]\n\n"
    "Lists the built-in GPU database: name, compute capability, SMs, SM clock\n"
    "(GHz), DRAM bandwidth (GB/s), architecture and product name.  Use a name\n"
    "with --gpu, or 'warpsight gpu NAME' for every fact and model parameter\n"
    "with its source.\n\n"
    "options:\n"
    "  --arch NAME   only the GPUs of one architecture: NAME is matched, without\n"
    "                regard to case, against the start of a word of the\n"
    "                architecture (Tesla, Fermi, Kepler, Maxwell, Volta,\n"
    "                Turing, Ampere, Ada, Hopper, Blackwell, or a chip such as\n"
    "                GA102); no match is an error that lists the architectures\n"
    "  --json        an array of {name, full_name, architecture,\n"
    "                compute_capability, sms, clock_ghz, mem_bandwidth_gbs}\n";

/* 1 if `want` starts a word of `arch` ("ampere" in "Ampere (GA102)",
 * "ga10" in "Ampere (GA102)"), ignoring case. */
static int arch_matches(const char *arch, const char *want) {
  size_t n = strlen(want);
  if (n == 0) return 0;
  for (const char *p = arch; *p; p++) {
    int word_start = p == arch || !isalnum((unsigned char)p[-1]);
    if (word_start && strncasecmp(p, want, n) == 0) return 1;
  }
  return 0;
}

int cmd_gpus(int argc, char **argv) {
  const char *json = NULL, *arch = NULL;
  cli_opt opts[] = {{"--json", 0, &json}, {"--arch", 1, &arch}, {NULL, 0, NULL}};
  const char *pos[1];
  int npos, help;
  if (cli_parse("gpus", argc, argv, opts, pos, 0, &npos, gpus_help, &help)) return EXIT_USAGE;
  if (help) return EXIT_OK;
  cJSON *arr = json ? cJSON_CreateArray() : NULL;
  size_t shown = 0;
  ws_strbuf archs = WS_STRBUF_INIT; /* the architectures seen, for a no-match error */
  for (size_t i = 0; i < ws_gpu_db_count(); i++) {
    ws_diag d = WS_DIAG_INIT;
    ws_gpu *g;
    if (ws_gpu_load(&g, ws_gpu_db_name(i), &d) != WS_OK) {
      cli_print_diag(&d);
      ws_diag_free(&d);
      ws_sb_free(&archs);
      cJSON_Delete(arr);
      return EXIT_USAGE;
    }
    char first[32];
    snprintf(first, sizeof first, "%.*s", (int)strcspn(g->architecture, " ("), g->architecture);
    if (!strstr(ws_sb_str(&archs), first)) ws_sb_printf(&archs, "%s%s", archs.n ? ", " : "", first);
    if (arch && !arch_matches(g->architecture, arch)) {
      ws_gpu_free(g);
      ws_diag_free(&d);
      continue;
    }
    if (!json && shown == 0)
      printf("%-16s %-4s %5s %9s %11s  %-22s %s\n", "name", "cc", "SMs", "clock", "bandwidth",
             "architecture", "full name");
    shown++;
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", g->cc_major, g->cc_minor);
    if (json) {
      cJSON *o = cJSON_CreateObject();
      cJSON_AddStringToObject(o, "name", g->name);
      cJSON_AddStringToObject(o, "full_name", g->full_name);
      cJSON_AddStringToObject(o, "architecture", g->architecture);
      cJSON_AddStringToObject(o, "compute_capability", cc);
      cJSON_AddNumberToObject(o, "sms", g->sms);
      cJSON_AddNumberToObject(o, "clock_ghz", g->clock_ghz);
      cJSON_AddNumberToObject(o, "mem_bandwidth_gbs", g->mem_bandwidth_gbs);
      cJSON_AddItemToArray(arr, o);
    } else {
      printf("%-16s %-4s %5d %5.3f GHz %6.1f GB/s  %-22s %s%s\n", g->name, cc, g->sms,
             g->clock_ghz, g->mem_bandwidth_gbs, g->architecture, g->full_name,
             g->is_hypothetical ? " (hypothetical)" : "");
    }
    ws_gpu_free(g);
    ws_diag_free(&d);
  }
  if (arch && shown == 0) {
    fprintf(stderr, "warpsight gpus: error: no GPU of architecture '%s' (architectures: %s)\n",
            arch, ws_sb_str(&archs));
    ws_sb_free(&archs);
    cJSON_Delete(arr);
    return EXIT_USAGE;
  }
  ws_sb_free(&archs);
  if (json) {
    cli_print_json(arr);
    cJSON_Delete(arr);
  }
  return EXIT_OK;
}

static const char gpu_help[] =
    "usage: warpsight gpu NAME|FILE.json [--json]\n\n"
    "Shows one GPU: architecture facts, the occupancy limits of its compute\n"
    "capability, DRAM partitions (memory), cache facts, latencies and each\n"
    "model's parameters, with the source of every number.  A value marked\n"
    "[derived] (a model parameter, or memory.dram_partitions and\n"
    "memory.interleave_bytes) was computed\n"
    "when the file was loaded from the GPU's base numbers (the rule and its\n"
    "arithmetic follow; docs/gpu-parameters.md); one marked [given] has a rule\n"
    "but the file states the value, which is used instead.  --json prints the\n"
    "document with the derived parameters added (\"derived\": true) and the\n"
    "given ones marked (\"given\": true).\n";

static void print_value_line(const char *indent, const char *key, const cJSON *v) {
  double num;
  const cJSON *src = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, "source") : NULL;
  const cJSON *est = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, "estimate") : NULL;
  const cJSON *val = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, "value") : v;
  if (cJSON_IsString(val))
    printf("%s%-24s %-12s", indent, key, val->valuestring);
  else if (ws_json_number(v, &num))
    printf("%s%-24s %-12.10g", indent, key, num);
  else
    return;
  const cJSON *der = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, "derived") : NULL;
  const cJSON *giv = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, "given") : NULL;
  const cJSON *note = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, "note") : NULL;
  if (cJSON_IsTrue(der)) {
    /* Derived at load: say so, with the arithmetic on this GPU's numbers. */
    printf(" [derived] %s", cJSON_IsString(src) ? src->valuestring : "");
    if (cJSON_IsString(note)) printf(": %s", note->valuestring);
  } else {
    if (cJSON_IsTrue(giv)) printf(" [given]");
    if (cJSON_IsString(src)) printf(" %s%s", cJSON_IsTrue(est) ? "[estimate] " : "", src->valuestring);
  }
  printf("\n");
}

static void print_tree(const char *indent, const cJSON *obj) {
  char deeper[64];
  snprintf(deeper, sizeof deeper, "%s  ", indent);
  for (const cJSON *k = obj->child; k; k = k->next) {
    int is_leaf = !cJSON_IsObject(k) || cJSON_GetObjectItemCaseSensitive(k, "value");
    if (is_leaf) {
      print_value_line(indent, k->string, k);
    } else {
      printf("%s%s:\n", indent, k->string);
      print_tree(deeper, k);
    }
  }
}

int cmd_gpu(int argc, char **argv) {
  const char *json = NULL;
  cli_opt opts[] = {{"--json", 0, &json}, {NULL, 0, NULL}};
  const char *pos[1];
  int npos, help;
  if (cli_parse("gpu", argc, argv, opts, pos, 1, &npos, gpu_help, &help)) return EXIT_USAGE;
  if (help) return EXIT_OK;
  if (npos != 1) return cli_usage_error("gpu", "expected one GPU name or JSON file");
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g;
  int r = ws_gpu_load(&g, pos[0], &d);
  cli_print_diag(&d);
  ws_diag_free(&d);
  if (r) return cli_exit_for(r);
  /* The document as the one serialiser writes it: the file, the derived
   * parameters added, the given ones marked. */
  char *text = ws_gpu_to_json(g);
  cJSON *root = text && !json ? cJSON_Parse(text) : NULL;
  if (!text || (!json && !root)) {
    fprintf(stderr, "warpsight gpu: error: out of memory\n");
    free(text);
    ws_gpu_free(g);
    return cli_exit_for(WS_ENOMEM);
  }
  if (json) {
    puts(text); /* as cli_print_json prints a document */
    free(text);
    ws_gpu_free(g);
    return EXIT_OK;
  }
  free(text);
  printf("%s — %s%s\n", g->name, g->full_name, g->is_hypothetical ? " (hypothetical machine)" : "");
  printf("architecture %s, compute capability %d.%d\n\n", g->architecture, g->cc_major, g->cc_minor);
  printf("facts (value, source):\n");
  static const char *const facts[] = {"compute_capability", "sms", "cores_per_sm", "sfu_per_sm",
                                      "warp_size", "clock_ghz", "mem_bandwidth_gbs"};
  for (size_t i = 0; i < sizeof facts / sizeof facts[0]; i++) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, facts[i]);
    if (v) print_value_line("  ", facts[i], v);
  }
  const ws_sm_limits *L = &g->limits;
  printf("\nper-SM limits (compute capability %d.%d%s):\n", g->cc_major, g->cc_minor,
         cJSON_GetObjectItemCaseSensitive(root, "limits") ? ", with overrides from the file" : "");
  printf("  threads %d, warps %d, blocks %d, threads/block %d\n", L->max_threads_per_sm,
         L->max_warps_per_sm, L->max_blocks_per_sm, L->max_threads_per_block);
  printf("  registers %d (unit %d per %s, max %d per thread), shared %d bytes (unit %d, max %d per block%s)\n",
         L->regs_per_sm, L->reg_alloc_unit, L->reg_alloc_per_warp ? "warp" : "block",
         L->max_regs_per_thread, L->shared_per_sm, L->shared_alloc_unit, L->max_shared_per_block,
         L->shared_reserved_per_block ? ", 1 KB reserved per block" : "");
  static const char *const sections[] = {"memory", "cache", "latencies", "models"};
  for (size_t i = 0; i < 4; i++) {
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(root, sections[i]);
    if (!cJSON_IsObject(s)) continue;
    printf("\n%s:\n", sections[i]);
    print_tree("  ", s);
  }
  cJSON_Delete(root);
  ws_gpu_free(g);
  return EXIT_OK;
}
