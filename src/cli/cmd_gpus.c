/* cmd_gpus.c — `warpsight gpus` and `warpsight gpu NAME [--json]`; the
 * tables are rendered by src/report/report_gpu.c. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"
#include "util/strbuf.h"
#include "warpsight/gpu.h"
#include "report/report_json.h"
#include "warpsight/report.h"

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
    if (!json && shown == 0) ws_report_gpus_header(stdout);
    shown++;
    if (json) cJSON_AddItemToArray(arr, ws_report_gpus_row_json(g));
    else ws_report_gpus_row(stdout, g);
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
    "Shows one GPU: architecture facts (with the clock the board holds under\n"
    "load and its launch floor), the occupancy limits of its compute\n"
    "capability, memory (bus, type, clock, partitions), cache facts,\n"
    "latencies, tensor-core throughput where published and each model's\n"
    "parameters, with the source of every number and the file's note after\n"
    "it (an [estimate]'s reasoning; latencies are in SM cycles, tensor\n"
    "throughput in operations per clock per SM).  A value marked [derived]\n"
    "(a GPU fact or a model parameter the file does not give) was computed\n"
    "when the file was loaded from the GPU's base numbers (the rule and its\n"
    "arithmetic follow; docs/gpu-parameters.md); \"none\" means the GPU has\n"
    "no such unit; one marked [given] has a rule but the file states the\n"
    "value, which is used instead.  A fact no rule can derive (cache.l2_bytes,\n"
    "memory.bus_bits) is a warning when the file lacks it.  --json prints the\n"
    "document with the derived values added (\"derived\": true) and the\n"
    "given ones marked (\"given\": true); it loads back to the same GPU.\n";

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
  /* --json: the document as the one serialiser writes it: the file, the
   * derived parameters added, the given ones marked. */
  char *text = json ? ws_gpu_to_json(g) : NULL;
  if (json && text) puts(text); /* as cli_print_json prints a document */
  r = json ? (text ? WS_OK : WS_ENOMEM) : ws_report_gpu(stdout, g);
  free(text);
  ws_gpu_free(g);
  if (r) fprintf(stderr, "warpsight gpu: error: out of memory\n");
  return cli_exit_for(r);
}
