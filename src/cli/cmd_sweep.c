/*
 * cmd_sweep.c — `warpsight sweep`: re-profile one launch for a range of
 * block sizes, keeping the total work, and predict each on every GPU with
 * the chosen models; a table (src/report/sweep_text.c), JSON, and a chart
 * of time and occupancy against threads per block (docs/sweep.md).
 *
 * The grid rule: the threads in x, T, are the spec's sweep.total_threads,
 * else grid.x x block.x as the spec gives them; for block.x = B the grid is
 * ceil(T / B) blocks in x.  block.y, block.z, grid.y, grid.z and the
 * buffers are the spec's.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/html_report.h"
#include "cli/model_print.h"
#include "cli/prof_run.h"
#include "report/report_json.h"
#include "warpsight/emu.h"
#include "warpsight/model.h"
#include "warpsight/profiler.h"
#include "warpsight/report.h"

static const char help_text[] =
    "usage: warpsight sweep FILE.ptx|FILE.cu --launch L.json --block A..B\n"
    "                       [--step N | --pow2] [--gpu G1,G2,...|all] [--model M1,M2,...|all]\n"
    "                       [--out DIR] [--report DIR] [--json] [--kernel K] [--arch sm_XX]\n"
    "                       [-j N]\n"
    "                       [--sample-blocks N] [--functional-rest] [--max-* N]\n\n"
    "Profiles the launch once per block size and GPU and predicts each with the\n"
    "models: how time and occupancy change with threads per block (as Hong & Kim\n"
    "ISCA'09 figs. 15-20 and Luo & Suda fig. 8 plot).  The total work is kept:\n"
    "the threads in x, T, are the spec's \"sweep\": {\"total_threads\": T}, else\n"
    "grid.x x block.x as the spec gives them, and block.x = B runs ceil(T / B)\n"
    "blocks in x; block.y, block.z, grid.y, grid.z and the buffers are the\n"
    "spec's (docs/sweep.md).\n\n"
    "Prints one line per (block size, GPU): threads per block, blocks in the\n"
    "grid, resident blocks and warps per SM, occupancy (resident warps over the\n"
    "GPU's maximum, as the models see it: registers, shared memory and the grid\n"
    "can limit it) and each model's predicted ms ('-': the block cannot run on\n"
    "that GPU, or the model could not run).\n\n"
    "options:\n"
    "  --block A..B          block.x from A to B threads (1 <= A <= B <= 1024;\n"
    "                        with the spec's block.y x block.z at most 1024 per block)\n"
    "  --step N              every N threads from A (default 32)\n"
    "  --pow2                the powers of two between A and B instead\n"
    "  --gpu G1,G2,...|all   GPUs (default " PROF_DEFAULT_GPU "; all: the database), each\n"
    "                        profiled on its own\n"
    "  --model M1,M2,...     models to run, or 'all' (default warpsight); models:\n"
    "%s"
    "  --out DIR             write DIR/KERNEL-sweep.png and .svg: predicted time\n"
    "                        against threads per block, a line per GPU and model,\n"
    "                        and occupancy below it; DIR is created\n"
    "  --report DIR          write DIR/index.html: the table, the best block size per GPU\n"
    "                        and model, and the chart inline (self-contained; docs/charts.md)\n"
    "  --json                {\"schema\": \"warpsight-sweep/1\", \"kernel\", \"total_threads\",\n"
    "                        \"rule\", \"gpus\", \"models\", \"rows\": [{\"threads_per_block\",\n"
    "                        \"block\", \"grid\", \"gpu\", \"active_blocks_per_sm\",\n"
    "                        \"active_warps_per_sm\", \"occupancy\", \"limited_by\",\n"
    "                        \"time_ms\": {MODEL: ms|null}}], \"charts\"}\n"
    "  --kernel K, --arch sm_XX, -j N, --sample-blocks N|all|auto (default auto),\n"
    "  --functional-rest, --max-warp-insts N, --max-launch-insts N, --max-memory N:\n"
    "                        as for 'warpsight predict', for each profile\n"
    "\nExit status: 0 ok; 1 the kernel faulted in the emulator; 2 bad usage or input.\n";

#define SWEEP_MAX_ROWS 1024
#define SWEEP_MAX_GPUS CLI_MAX_TARGETS
#define SWEEP_MAX_MODELS CLI_MAX_TARGETS

/* --block A..B with --step N or --pow2 into sizes[]; 0 or EXIT_USAGE. */
static int block_sizes(const char *range, const char *step_s, int pow2, uint32_t *sizes,
                       size_t *n) {
  char *end = NULL;
  errno = 0;
  long lo = strtol(range, &end, 10), hi = -1, step = 32;
  if (end != range && end[0] == '.' && end[1] == '.') {
    const char *h = end + 2;
    hi = strtol(h, &end, 10);
    if (end == h) hi = -1;
  }
  if (errno || *end || hi < 0)
    return cli_usage_error("sweep", "--block expects A..B (like 32..1024), got '%s'", range);
  if (lo < 1 || hi > 1024 || lo > hi)
    return cli_usage_error("sweep", "--block %s: expected 1 <= A <= B <= 1024", range);
  if (step_s && pow2) return cli_usage_error("sweep", "--step and --pow2 exclude each other");
  if (step_s && (cli_parse_int("sweep", "--step", step_s, &step) || step < 1))
    return step < 1 ? cli_usage_error("sweep", "--step must be at least 1") : EXIT_USAGE;
  *n = 0;
  for (long b = pow2 ? 1 : lo; b <= hi; b = pow2 ? b * 2 : b + step)
    if (b >= lo) sizes[(*n)++] = (uint32_t)b;
  if (!*n) return cli_usage_error("sweep", "--block %s --pow2: no power of two in the range", range);
  return 0;
}

typedef struct sweep_run {
  ws_sweep_table t;        /* what is printed and charted */
  uint64_t *threads, *blocks;
  double *bps, *wps, *occ, *ms;
  const char **limiter;
  uint32_t grid[SWEEP_MAX_ROWS][3];  /* each row's grid */
  uint32_t block[SWEEP_MAX_ROWS][3]; /* each row's block */
  int max_threads[SWEEP_MAX_GPUS];    /* each GPU's limit per block */
  size_t nauto, ncells;               /* cells --sample-blocks auto sampled, of those profiled */
} sweep_run;

/* Profile row r on GPU k and run the models; fills the table's cells. */
static int sweep_cell(sweep_run *s, prof_request rq, size_t r, size_t k) {
  size_t i = r * s->t.ngpus + k;
  ws_profile *p = NULL;
  ws_gpu *g = NULL;
  rq.gpu = s->t.gpus[k];
  rq.grid = s->grid[r];
  rq.block = s->block[r];
  if (s->t.threads[r] > (uint64_t)s->max_threads[k]) {
    s->limiter[i] = "the block is larger than the GPU allows";
    return EXIT_OK;
  }
  ws_diag d = WS_DIAG_INIT;
  int rc = cli_profile_run(&rq, &p, &g, NULL);
  if (rc) return rc;
  char *sam = ws_profile_section_json(p, "sampling"); /* auto records its choice there */
  cJSON *sj = sam ? cJSON_Parse(sam) : NULL;
  s->nauto += cJSON_GetObjectItemCaseSensitive(sj, "auto") != NULL; /* the member, not a value */
  s->ncells++;
  cJSON_Delete(sj);
  free(sam);
  ws_model_launch_ctx lc;
  if (ws_model_launch_ctx_compute(&lc, p, g, &d) == WS_OK) {
    s->bps[i] = lc.active_blocks_per_sm;
    s->wps[i] = lc.active_warps_per_sm;
    s->occ[i] = lc.active_warps_per_sm / g->limits.max_warps_per_sm;
    s->limiter[i] = lc.occupancy_source;
  }
  ws_diag_free(&d);
  for (size_t m = 0; m < s->t.nmodels; m++) {
    ws_model_result res = WS_MODEL_RESULT_INIT;
    if (ws_model_predict(&res, s->t.models[m], p, g, &d) == WS_OK)
      s->ms[i * s->t.nmodels + m] = res.time_ms;
    ws_model_result_free(&res);
    ws_diag_free(&d);
  }
  ws_profile_free(p);
  ws_gpu_free(g);
  return EXIT_OK;
}

/* Allocate the table's arrays for nrows x ngpus; NaN-filled. */
static int sweep_alloc(sweep_run *s) {
  size_t cells = s->t.nrows * s->t.ngpus;
  s->threads = calloc(s->t.nrows, sizeof *s->threads);
  s->blocks = calloc(s->t.nrows, sizeof *s->blocks);
  s->bps = malloc(cells * sizeof *s->bps);
  s->wps = malloc(cells * sizeof *s->wps);
  s->occ = malloc(cells * sizeof *s->occ);
  s->ms = malloc(cells * s->t.nmodels * sizeof *s->ms);
  s->limiter = calloc(cells, sizeof *s->limiter);
  if (!s->threads || !s->blocks || !s->bps || !s->wps || !s->occ || !s->ms || !s->limiter) return -1;
  for (size_t i = 0; i < cells; i++) s->bps[i] = s->wps[i] = s->occ[i] = NAN;
  for (size_t i = 0; i < cells * s->t.nmodels; i++) s->ms[i] = NAN;
  s->t.threads = s->threads, s->t.blocks = s->blocks, s->t.blocks_per_sm = s->bps;
  s->t.warps_per_sm = s->wps, s->t.occupancy = s->occ, s->t.time_ms = s->ms;
  s->t.limiter = s->limiter, s->t.block = s->block, s->t.grid = s->grid;
  return 0;
}

static void sweep_free(sweep_run *s) {
  free(s->threads), free(s->blocks), free(s->bps), free(s->wps), free(s->occ), free(s->ms);
  free((void *)s->limiter);
  free(s);
}

/* The rows: block.x = sizes[r], grid.x = ceil(total / sizes[r]).  Returns
 * 0, or EXIT_USAGE after printing why a row cannot be launched. */
static int sweep_rows(sweep_run *s, const ws_launch_spec *spec, const uint32_t *sizes,
                      uint64_t total) {
  for (size_t r = 0; r < s->t.nrows; r++) {
    uint64_t yz = (uint64_t)spec->block[1] * spec->block[2], gx = (total + sizes[r] - 1) / sizes[r];
    if (sizes[r] * yz > 1024)
      return cli_usage_error("sweep", "--block: %u x %u x %u threads is more than 1024 per block",
                             sizes[r], spec->block[1], spec->block[2]);
    if (gx > 2147483647u)
      return cli_usage_error("sweep", "%llu threads in x need %llu blocks of %u, more than 2^31 - 1",
                             (unsigned long long)total, (unsigned long long)gx, sizes[r]);
    memcpy(s->block[r], spec->block, sizeof s->block[r]);
    memcpy(s->grid[r], spec->grid, sizeof s->grid[r]);
    s->block[r][0] = sizes[r];
    s->grid[r][0] = (uint32_t)gx;
    s->threads[r] = sizes[r] * yz;
    s->blocks[r] = gx * spec->grid[1] * spec->grid[2];
  }
  return 0;
}

static void print_help(void) {
  char list[4096];
  cli_model_list(list, sizeof list);
  printf(help_text, list);
}

/* Write the chart into dir; its two file names go to `charts` (JSON) or
 * stdout.  0 or EXIT_USAGE. */
static int sweep_chart(const ws_sweep_table *t, const char *dir, cJSON *charts) {
  if (!ws_report_chart_available())
    return cli_usage_error("sweep", "--out needs cairo: this warpsight was built without it");
  if (cli_make_dir("sweep", dir)) return EXIT_USAGE;
  char base[4096];
  size_t k = (size_t)snprintf(base, sizeof base, "%s/", dir);
  if (k + 16 >= sizeof base) return cli_usage_error("sweep", "--out %s: the path is too long", dir);
  k += cli_file_safe(base + k, sizeof base - k - 15, t->kernel);
  snprintf(base + k, sizeof base - k, "-sweep");
  ws_diag d = WS_DIAG_INIT;
  int st = ws_report_chart_sweep(base, t, &d);
  cli_print_diag(&d);
  ws_diag_free(&d);
  if (st) return EXIT_USAGE;
  char f[4200];
  for (int j = 0; j < 2; j++) {
    snprintf(f, sizeof f, "%s.%s", base, j ? "svg" : "png");
    if (charts) cJSON_AddItemToArray(charts, cJSON_CreateString(f));
  }
  if (!charts) printf("\nwrote %s.png and %s.svg\n", base, base);
  return 0;
}

/* --report DIR: DIR/index.html with the sweep's table, its best block size
 * per GPU and model, and its chart (written into DIR and inlined). */
static int sweep_html(const ws_sweep_table *t, const char *rule, const char *dir, int quiet) {
  char title[1024], base[4200], line[512];
  snprintf(title, sizeof title, "warpsight sweep: %s", t->kernel);
  ws_html *h = ws_report_html_new(title);
  if (!h) return cli_usage_error("sweep", "out of memory");
  ws_report_html_open(h, "sweep", "Time and occupancy against threads per block");
  ws_report_html_note(h, rule);
  char *text = ws_report_sweep_text(t);
  ws_report_html_pre(h, text ? text : "");
  free(text);
  for (size_t k = 0; k < t->ngpus; k++)
    for (size_t m = 0; m < t->nmodels; m++) {
      double best = NAN;
      size_t at = 0;
      for (size_t r = 0; r < t->nrows; r++) {
        double v = t->time_ms[(r * t->ngpus + k) * t->nmodels + m];
        if (isfinite(v) && !(v >= best)) best = v, at = r;
      }
      if (!isfinite(best)) continue;
      snprintf(line, sizeof line, "best on %s by %s: %llu threads per block, %.6g ms", t->gpus[k], t->models[m],
               (unsigned long long)t->threads[at], best);
      ws_report_html_note(h, line);
    }
  int rc = ws_report_chart_available() ? sweep_chart(t, dir, NULL) : EXIT_OK;
  if (!ws_report_chart_available()) ws_report_html_note(h, "This warpsight was built without cairo: no chart.");
  if (!rc && ws_report_chart_available()) {
    size_t k = (size_t)snprintf(base, sizeof base, "%s/", dir);
    k += cli_file_safe(base + k, sizeof base - k - 16, t->kernel);
    snprintf(base + k, sizeof base - k, "-sweep.svg");
    ws_diag d = WS_DIAG_INIT;
    if (ws_report_html_svg(h, NULL, "predicted time and occupancy against threads per block", base, &d))
      cli_print_diag(&d), rc = EXIT_USAGE;
    ws_diag_free(&d);
  }
  ws_report_html_close(h);
  if (!rc) rc = cli_html_write(h, "sweep", dir, quiet);
  ws_report_html_free(h);
  return rc;
}

/* Profile and predict every (row, GPU), then print and chart. */
static int sweep_go(sweep_run *s, const prof_request *rq, uint64_t total, const char *rule,
                    const char *out, int json, const char *report) {
  int rc = EXIT_OK;
  for (size_t r = 0; r < s->t.nrows && !rc; r++)
    for (size_t k = 0; k < s->t.ngpus && !rc; k++) rc = sweep_cell(s, *rq, r, k);
  if (rc) return rc;
  if (s->nauto)
    fprintf(stderr, "warpsight sweep: note: %zu of %zu cells profiled %d blocks of their grid "
                    "(--sample-blocks auto: a launch over %.3g warp instructions); --sample-blocks "
                    "all for full profiles\n",
            s->nauto, s->ncells, WS_PROF_AUTO_SAMPLE_BLOCKS, (double)WS_PROF_AUTO_BUDGET_WARP_INSTS);
  cJSON *root = json ? ws_report_sweep_json(&s->t, total, rule) : NULL;
  if (!json) {
    char *text = ws_report_sweep_text(&s->t);
    printf("sweep of %s: %s\n\n%s", s->t.kernel, rule, text ? text : "");
    free(text);
  }
  if (out) rc = sweep_chart(&s->t, out, root ? cJSON_AddArrayToObject(root, "charts") : NULL);
  if (report && !rc) rc = sweep_html(&s->t, rule, report, json);
  if (root) {
    cli_print_json(root);
    cJSON_Delete(root);
  }
  return rc;
}

int cmd_sweep(int argc, char **argv) {
  prof_args a = {0};
  const char *model = "warpsight", *json = NULL, *out = NULL, *range = NULL, *step = NULL,
             *pow2 = NULL, *report = NULL;
  cli_opt opts[] = {PROF_ARGS_OPTS(a),        {"--model", 1, &model}, {"--json", 0, &json},
                    {"--out", 1, &out},       {"--block", 1, &range}, {"--step", 1, &step},
                    {"--pow2", 0, &pow2},     {"--report", 1, &report}, {NULL, 0, NULL}};
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return print_help(), EXIT_OK;
  const char *pos[1];
  int npos, help;
  if (cli_parse("sweep", argc, argv, opts, pos, 1, &npos, "", &help)) return EXIT_USAGE;
  prof_request rq;
  if (cli_prof_request(&rq, "sweep", &a, npos, npos ? pos[0] : NULL)) return EXIT_USAGE;
  if (!range) return cli_usage_error("sweep", "--block A..B is required");
  uint32_t sizes[SWEEP_MAX_ROWS];
  size_t nsizes, ngpu, nmodel;
  char gbuf[4096], mbuf[4096];
  const char *gpus[SWEEP_MAX_GPUS], *models[SWEEP_MAX_MODELS];
  if (block_sizes(range, step, pow2 != NULL, sizes, &nsizes)) return EXIT_USAGE;
  if (!(nmodel = cli_model_names("sweep", "--model", model, mbuf, sizeof mbuf, models, SWEEP_MAX_MODELS)))
    return EXIT_USAGE;
  if (!(ngpu = cli_gpu_names("sweep", "--gpu", rq.gpu, gbuf, sizeof gbuf, gpus, SWEEP_MAX_GPUS))) return EXIT_USAGE;
  ws_diag d = WS_DIAG_INIT;
  ws_launch_spec *spec = NULL;
  int max_threads[SWEEP_MAX_GPUS];
  int st = ws_emu_launch_spec_load(&spec, rq.launch, &d);
  for (size_t k = 0; k < ngpu && !st; k++) { /* every GPU loads before profiling */
    ws_gpu *g = NULL;
    st = ws_gpu_load(&g, gpus[k], &d);
    if (!st) max_threads[k] = g->limits.max_threads_per_block;
    ws_gpu_free(g);
  }
  cli_print_diag(&d);
  ws_diag_free(&d);
  if (st) return ws_emu_launch_spec_free(spec), cli_exit_for(st);
  uint64_t total = spec->sweep_threads ? spec->sweep_threads : (uint64_t)spec->grid[0] * spec->block[0];
  char rule[256];
  snprintf(rule, sizeof rule, "%llu threads in x (%s); grid.x = ceil(%llu / block.x)",
           (unsigned long long)total, spec->sweep_threads ? "the spec's sweep.total_threads" : "grid.x x block.x of the spec",
           (unsigned long long)total);
  sweep_run *s = calloc(1, sizeof *s);
  int rc = s ? EXIT_OK : EXIT_USAGE;
  if (s) {
    s->t = (ws_sweep_table){.kernel = a.kernel ? a.kernel : spec->kernel, .nrows = nsizes, .ngpus = ngpu,
                            .gpus = gpus, .nmodels = nmodel, .models = models};
    memcpy(s->max_threads, max_threads, ngpu * sizeof *max_threads);
    rc = sweep_alloc(s) ? cli_usage_error("sweep", "out of memory") : sweep_rows(s, spec, sizes, total);
  }
  cli_cu_cache cu = {0}; /* a .cu compiled once per distinct arch, not per cell */
  rq.cu = &cu;
  if (!rc) rc = sweep_go(s, &rq, total, rule, out, json != NULL, report);
  cli_cu_cache_free(&cu);
  if (s) sweep_free(s);
  ws_emu_launch_spec_free(spec);
  return rc;
}
