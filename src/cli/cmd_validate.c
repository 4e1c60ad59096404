/*
 * cmd_validate.c — `warpsight validate`: predict every measured launch of a
 * data set (data/validation/amaris-measured-dev.csv) and compare with the
 * measured times: statistics per model, GPU and kernel, a per-row CSV and
 * charts (docs/validation.md).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/model_print.h"
#include "cli/valid_cli.h"
#include "util/strbuf.h"
#include "warpsight/model.h"
#include "warpsight/report.h"
#include "warpsight/valid.h"

static const char help[] =
    "usage: warpsight validate DATA.csv [--model M,M|all] [--gpu G,G|all] [--kernels K,K]\n"
    "                          [--sample-blocks N] [--limit N] [--report DIR]\n"
    "                          [--ptx-dir DIR] [--cache DIR | --no-cache] [--launches DIR]\n"
    "                          [--gpu-file NAME=FILE.json]... [--half train|test]\n"
    "                          [--min-seconds S]\n"
    "                          [--max-warp-insts N] [--max-launch-insts N] [--max-memory N]\n"
    "                          [--allow-outside-data]\n\n"
    "Predicts each measured kernel launch of DATA.csv (the columns of\n"
    "data/validation/amaris-measured-dev.csv: GPU, kernel, input size, grid, block,\n"
    "Duration in seconds) with the performance models and compares the\n"
    "predictions with the measured times.  Each row's launch is built from its\n"
    "input size (docs/validation.md), the kernel's PTX is read from --ptx-dir, the\n"
    "kernel is emulated and profiled, and the models run on the profile.\n\n"
    "DATA.csv may instead be in the generic format (a header with kernel_file):\n"
    "one row per measured launch with kernel_file (PTX, or .cu compiled with\n"
    "nvcc -ptx for the row's GPU, as predict does: its compute capability's sm,\n"
    "clamped to what nvcc compiles for), launch (a launch spec), gpu (a name or a\n"
    "GPU file) and seconds, optionally kernel, size, registers and shared_bytes;\n"
    "files are relative to DATA.csv's folder (docs/validation.md, \"Your own\n"
    "kernels\").  --ptx-dir is not needed then.  A file named there must lie\n"
    "inside that folder (symlinks followed) unless --allow-outside-data is given,\n"
    "and a name beginning with '-' is refused.\n"
    "A UTF-8 byte-order mark before the header is skipped.\n\n"
    "options:\n"
    "  --model L          'all' (default) or model names separated by commas, as every\n"
    "                     command that predicts takes them (--models: the same)\n"
    "  --gpu L            'all' (default: every row) or keep rows of these GPUs (--gpus:\n"
    "                     the same): database names (gtx680, k40, ...), the\n"
    "                     data set's names (GTX-680, Tesla-K40, TitanBlack, ...: the table\n"
    "                     data/validation/gpu-names.csv) or GPU files (a path: its rows\n"
    "                     are those of the GPU the file names, predicted with the file)\n"
    "  --gpu-file NAME=FILE.json\n"
    "                     predict the rows of GPU NAME (a database or data set name, or\n"
    "                     a name the table does not know) with this GPU file, e.g. one\n"
    "                     'warpsight calibrate' wrote; repeatable\n"
    "  --kernels L        keep rows of these kernels (the CSV's AppName)\n"
    "  --sample-blocks N  profile N blocks per launch, spread over every grid\n"
    "                     dimension (default 2; 0 or 'all': every block); the\n"
    "                     others are skipped and DRAM bytes are estimated per\n"
    "                     buffer (docs/profile.md)\n"
    "  --limit N          at most N rows (after the filters)\n"
    "  --half H           keep only the 'train' or the 'test' half of the rows: per GPU\n"
    "                     and kernel, rows sorted by input size alternate train/test,\n"
    "                     the smallest first (docs/validation.md); calibrate fits on\n"
    "                     'train', report held-out figures with 'test'\n"
    "  --min-seconds S    keep only rows measured at least S seconds (e.g. 50e-6: the\n"
    "                     launches long enough that the launch floor does not count)\n"
    "  --report DIR       write DIR/rows.csv (per row: kernel, gpu, input size, grid,\n"
    "                     block, measured s, predicted s and error % per model),\n"
    "                     DIR/summary.txt, DIR/<model>.png/.svg (log-log scatter)\n"
    "                     DIR/counters.csv (nvprof's counters beside the profile's)\n"
    "                     and DIR/floors.csv (per row: the DRAM and issue floors and\n"
    "                     whether each model's prediction is below one), and\n"
    "                     DIR/index.html, the tables and charts on one self-contained page\n"
    "  --ptx-dir DIR      the kernels' PTX (default examples/validation/ptx)\n"
    "  --allow-outside-data\n"
    "                     read the files a generic DATA.csv names wherever they are\n"
    "                     (by default only those inside DATA.csv's folder)\n"
    "  --cache DIR        profile cache (default $XDG_CACHE_HOME/warpsight, else\n"
    "                     ~/.cache/warpsight, else .warpsight-cache)\n"
    "  --no-cache         neither read nor write the profile cache\n"
    "  --launches DIR     write each selected row's launch spec to DIR/L<line>-<kernel>.json\n"
    "                     (for 'warpsight run') and stop without predicting\n"
    CLI_LIMIT_OPTIONS_HELP "\n"
    "Prints, per model, the rows, mean and median absolute percentage error, the\n"
    "fraction within 20 % and Spearman's rank correlation ('-' for fewer than\n"
    "3 rows) per GPU and kernel, and a '!' line when predictions fall below a\n"
    "physical floor of their launch (DRAM bytes / peak bandwidth, or warp\n"
    "instructions / peak issue; docs/models/floors.md).\n"
    "Progress goes to stderr.\n\n"
    "Exit status: 0 ok; 2 bad usage or input, or no row could be predicted.\n";

/* DIR/counters.csv (ws_report_counters): open, or close and rename into
 * place; 0, or EXIT_USAGE after a message. */
static int counters_open(ws_report_counters **co, const ws_valid_data *data, const char *path,
                         const ws_outdir *od) {
  ws_diag d = WS_DIAG_INIT;
  int st = ws_report_counters_open(co, data, path, &d);
  ws_outdir_names(od, &d, 0);
  cli_print_diag(&d);
  ws_diag_free(&d);
  return st ? EXIT_USAGE : 0;
}

static int counters_close(ws_report_counters *co, const ws_outdir *od) {
  ws_diag d = WS_DIAG_INIT;
  int st = ws_report_counters_close(co, &d);
  ws_outdir_names(od, &d, 0);
  cli_print_diag(&d);
  ws_diag_free(&d);
  return st ? EXIT_USAGE : 0;
}

static int make_dir(const char *dir) { return cli_make_dir("validate", dir); }

/* --launches: DIR/L<line>-<kernel>.json (DIR created for the first). */
static int write_launch(const char *dir, const ws_valid_row *r, const ws_launch_spec *l,
                        int first) {
  char path[4200];
  if (first && make_dir(dir)) return EXIT_USAGE;
  snprintf(path, sizeof path, "%s/L%d-%s.json", dir, r->line, r->kernel);
  char *json = ws_valid_launch_json(l);
  if (!json) {
    fprintf(stderr, "warpsight validate: error: out of memory\n");
    return EXIT_USAGE;
  }
  int rc = cli_write_text(path, json, 1);
  free(json);
  return rc;
}

/* --report DIR's index.html: the tables and each model's scatter chart
 * inline (docs/charts.md, "The HTML report"). */
static int write_html(const char *report, const char *data, const char *text, const char *const *mv,
                      size_t nm, ws_diag *d) {
  char title[4200], path[4200];
  snprintf(title, sizeof title, "warpsight validate: %s", data);
  ws_html *h = ws_report_html_new(title);
  if (!h) return WS_ENOMEM;
  ws_report_html_open(h, "validation", "Predicted against measured");
  ws_report_html_pre(h, text);
  int st = WS_OK;
  for (size_t m = 0; m < nm && !st && ws_report_chart_available(); m++) {
    snprintf(path, sizeof path, "%s/%s.svg", report, mv[m]);
    snprintf(title, sizeof title, "%s: predicted against measured time", mv[m]);
    st = ws_report_html_svg(h, NULL, title, path, d);
  }
  ws_report_html_close(h);
  snprintf(path, sizeof path, "%s/index.html", report);
  if (!st) st = ws_report_html_write(h, path, d);
  ws_report_html_free(h);
  return st;
}

/* --report DIR: rows.csv, floors.csv, summary.txt (the printed tables),
 * each model's scatter chart (.png and .svg) and index.html, into `report`
 * (the staging folder of DIR: committed all or none).  Status of the first
 * failure. */
static int write_report(const ws_valid_report *rep, const char *report, const char *data, const char *text,
                        const char *const *mv, size_t nm, ws_diag *d) {
  char path[4200];
  snprintf(path, sizeof path, "%s/rows.csv", report);
  int st = ws_report_validate_csv(rep, path, d);
  snprintf(path, sizeof path, "%s/floors.csv", report);
  if (!st) st = ws_report_validate_floors_csv(rep, path, d);
  snprintf(path, sizeof path, "%s/summary.txt", report);
  if (!st && cli_write_text(path, text, 0)) st = WS_EIO;
  for (size_t m = 0; m < nm && !st; m++) {
    snprintf(path, sizeof path, "%s/%s", report, mv[m]); /* .png and .svg */
    st = ws_report_validate_chart(rep, m, path, d);
  }
  if (!st) st = write_html(report, data, text, mv, nm, d);
  if (!st) ws_report_chart_shutdown(); /* cairo's font caches, for leak checkers */
  return st;
}

/* Nothing selected: when --gpu alone leaves no row, say so with the
 * data's GPUs (a user asking for rtx4090 of a file measured on h100-pcie
 * once read only "no rows left after --gpus/..."), else name the filters. */
static void no_rows_left(const ws_valid_data *data, const vcli_list *gpus, const char *gpus_s,
                         const char *file) {
  size_t on_gpus = 0;
  for (size_t i = 0; i < data->nrows; i++) on_gpus += vcli_selects(gpus, data->rows[i].gpu);
  if (gpus->n && !on_gpus) {
    ws_strbuf b = WS_STRBUF_INIT;
    for (size_t i = 0; i < data->nrows; i++) {
      size_t j = 0;
      while (j < i && strcmp(data->rows[j].gpu, data->rows[i].gpu)) j++;
      if (j == i) ws_sb_printf(&b, "%s%s", b.n ? ", " : "", data->rows[i].gpu);
    }
    cli_usage_error("validate", "--gpu %s: no row of %s was measured on %s (its rows are for %s)",
                    gpus_s, file, gpus->n > 1 ? "those GPUs" : "that GPU", b.n ? b.s : "no GPU");
    ws_sb_free(&b);
    return;
  }
  cli_usage_error("validate", "no rows of %s left after the selection (--gpu, --kernels, --half, "
                              "--min-seconds, --limit)", file);
}

/* After the selection: 1 after the message when it left no row; else 0,
 * with a warning for each GPU of a --gpu list that has no row (said, not
 * skipped). */
static int check_selection(size_t nsel, const ws_valid_data *data, const vcli_list *gpus,
                           const char *gpus_s, const char *file) {
  if (nsel == 0) {
    no_rows_left(data, gpus, gpus_s, file);
    return 1;
  }
  for (size_t j = 0; j < gpus->n; j++) {
    size_t i = 0;
    while (i < data->nrows && strcmp(data->rows[i].gpu, gpus->v[j])) i++;
    if (i == data->nrows)
      fprintf(stderr, "warpsight validate: warning: --gpu %s: no row of %s was measured on it\n",
              gpus->v[j], file);
  }
  return 0;
}

int cmd_validate(int argc, char **argv) {
  const char *models_s = "all", *gpus_s = NULL, *kernels_s = NULL, *sample_s = NULL,
             *limit_s = NULL, *report = NULL, *ptx_s = NULL, *cache_s = NULL,
             *no_cache = NULL, *launches = NULL, *half_s = NULL, *min_s = NULL, *maxw = NULL, *maxl = NULL,
             *maxm = NULL, *outside = NULL;
  cli_opt opts[] = {{"--launches", 1, &launches},{"--models", 1, &models_s},   {"--gpus", 1, &gpus_s},
                    {"--model", 1, &models_s},    {"--gpu", 1, &gpus_s},
                    {"--kernels", 1, &kernels_s}, {"--sample-blocks", 1, &sample_s},
                    {"--limit", 1, &limit_s},     {"--report", 1, &report},
                    {"--ptx-dir", 1, &ptx_s},     {"--cache", 1, &cache_s},
                    {"--no-cache", 0, &no_cache}, {"--half", 1, &half_s},
                    {"--max-warp-insts", 1, &maxw}, {"--max-launch-insts", 1, &maxl},
                    {"--max-memory", 1, &maxm},   {"--allow-outside-data", 0, &outside},
                    {"--min-seconds", 1, &min_s},
                    {NULL, 0, NULL}};
  const char *pos[1];
  int npos, want_help;
  vcli_gpu_files gf;
  vcli_cu cu = {"validate", NULL, 0, 0};
  ws_report_counters *co = NULL;
  ws_outdir od = {NULL, NULL}; /* --report DIR: its outputs, all or none */
  if (vcli_take_gpu_files(&gf, "validate", &argc, argv) ||
      cli_parse("validate", argc, argv, opts, pos, 1, &npos, help, &want_help)) {
    vcli_gpu_files_free(&gf);
    return EXIT_USAGE;
  }
  if (want_help) {
    vcli_gpu_files_free(&gf);
    return EXIT_OK;
  }
  int rc = EXIT_USAGE;
  long sample = VCLI_DEFAULT_SAMPLE_BLOCKS, limit = 0;
  if (npos != 1 || (cache_s && no_cache) ||
      (sample_s && cli_parse_sample_blocks("validate", sample_s, &sample)) ||
      (limit_s && cli_parse_int("validate", "--limit", limit_s, &limit))) {
    if (npos != 1) cli_usage_error("validate", "expected one DATA.csv");
    else if (cache_s && no_cache) cli_usage_error("validate", "--cache and --no-cache conflict");
    vcli_gpu_files_free(&gf);
    return EXIT_USAGE;
  }
  unsigned long long mw = WS_EMU_DEFAULT_MAX_WARP_INSTS, mlaunch = WS_EMU_DEFAULT_MAX_LAUNCH_INSTS, mmem = 0;
  if (cli_parse_limit("validate", "--max-warp-insts", maxw, &mw) ||
      cli_parse_limit("validate", "--max-launch-insts", maxl, &mlaunch) ||
      cli_parse_bytes("validate", "--max-memory", maxm, &mmem)) {
    vcli_gpu_files_free(&gf);
    return EXIT_USAGE;
  }
  double min_sec = 0;
  if (min_s) {
    char *end = NULL;
    min_sec = strtod(min_s, &end);
    if (!end || end == min_s || *end || !(min_sec >= 0) || !isfinite(min_sec)) {
      cli_usage_error("validate", "--min-seconds: expected a number of seconds >= 0, not '%s'",
                      min_s);
      vcli_gpu_files_free(&gf);
      return EXIT_USAGE;
    }
  }
  int half = 0;
  if (half_s) {
    if (!strcmp(half_s, "train")) half = WS_VALID_TRAIN;
    else if (!strcmp(half_s, "test")) half = WS_VALID_TEST;
    else {
      cli_usage_error("validate", "--half: expected 'train' or 'test', not '%s'", half_s);
      vcli_gpu_files_free(&gf);
      return EXIT_USAGE;
    }
  }

  ws_valid_predictor *pctx = NULL;
  vcli_list gpus = {0}, kernels = {0};
  char mbuf[4096];
  const char *mv[CLI_MAX_TARGETS];
  ws_diag d = WS_DIAG_INIT;
  ws_valid_data *data = NULL;
  ws_valid_report *rep = NULL;
  /* the one --model grammar of every command that predicts */
  size_t nm = cli_model_names("validate", "--model", models_s, mbuf, sizeof mbuf, mv, CLI_MAX_TARGETS);
  if (!nm) goto out;
  if (gpus_s && !strcmp(gpus_s, "all")) gpus_s = NULL; /* every row */
  if (gpus_s) {
    if (vcli_split(&gpus, "validate", "--gpus", gpus_s)) goto out;
    for (size_t i = 0; i < gpus.n; i++) /* GPU files first: their names are accepted */
      if (vcli_resolve_gpu(&gpus.v[i], &gf, NULL, "validate", "--gpus", gpus.v[i])) goto out;
  }
  if (kernels_s && vcli_split(&kernels, "validate", "--kernels", kernels_s)) goto out;
  char ptx_dir[4096], cache_buf[4096];
  int st = ws_valid_load_ex(&data, pos[0], gf.name, gf.n, outside ? WS_VALID_ALLOW_OUTSIDE : 0, &d);
  if (st) {
    cli_print_diag(&d);
    rc = cli_exit_for(st);
    goto out;
  }
  for (size_t i = 0; i < gpus.n; i++)
    if (vcli_resolve_gpu(&gpus.v[i], &gf, data, "validate", "--gpus", gpus.v[i])) goto out;
  if (vcli_check_kernels(&kernels, data, "validate") ||
      vcli_data_ptx_dir(ptx_dir, sizeof ptx_dir, "validate", ptx_s, pos[0], data))
    goto out;

  /* Select and check every launch before predicting anything. */
  size_t nsel = 0;
  for (size_t i = 0; i < data->nrows; i++) {
    const ws_valid_row *r = &data->rows[i];
    int keep = vcli_selects(&gpus, r->gpu) && vcli_selects(&kernels, r->kernel);
    if (half && r->half != half) keep = 0;
    if (r->measured_s < min_sec) keep = 0;
    if (!keep || (limit && nsel >= (size_t)limit)) continue;
    ws_launch_spec *l = NULL;
    if ((st = ws_valid_launch(&l, r, pos[0], &d)) != WS_OK) {
      cli_print_diag(&d);
      rc = cli_exit_for(st);
      goto out;
    }
    int bad = launches && write_launch(launches, r, l, nsel == 0);
    ws_emu_launch_spec_free(l);
    if (bad) goto out;
    nsel++;
  }
  if (check_selection(nsel, data, &gpus, gpus_s, pos[0])) goto out;
  if (launches) {
    printf("wrote %zu launch specs to %s\n", nsel, launches);
    rc = EXIT_OK;
    goto out;
  }

  ws_valid_options o = {0};
  o.models = mv;
  o.nmodels = nm;
  o.gpus = gpus.n ? gpus.v : NULL;
  o.ngpus = gpus.n;
  o.kernels = kernels.n ? kernels.v : NULL;
  o.nkernels = kernels.n;
  o.limit = (size_t)limit;
  o.half = half;
  o.min_measured_s = min_sec;
  o.sample_blocks = (int)sample;
  o.ptx_dir = ptx_dir;
  o.cache_dir = vcli_cache_dir(cache_buf, sizeof cache_buf, cache_s, no_cache);
  o.predict = ws_valid_default_predictor();
  if (!(pctx = ws_valid_predictor_new(0))) goto out;
  ws_valid_predictor_limits(pctx, mw, mlaunch, mmem);
  o.user = pctx;
  o.progress = vcli_progress;
  o.progress_user = "validate";
  o.gpu_file_names = gf.name;
  o.gpu_file_paths = gf.path;
  o.ngpu_files = gf.n;
  o.compile_cu = vcli_compile_cu;
  o.compile_user = &cu;
  char path[4200];
  if (report) { /* DIR/counters.csv is written as the rows are predicted */
    if (cli_outdir_begin("validate", &od, report)) goto out;
    snprintf(path, sizeof path, "%s/counters.csv", ws_outdir_path(&od));
    if (counters_open(&co, data, path, &od)) goto out;
    o.on_row = ws_report_counters_row;
    o.on_row_user = co;
  }
  st = ws_valid_run(&rep, data, &o, &d);
  cli_print_diag(&d);
  int cst = counters_close(co, &od);
  co = NULL;
  if (cst) goto out;
  if (st) {
    rc = cli_exit_for(st);
    goto out;
  }
  char *text = ws_report_validate_text(rep);
  if (text) fputs(text, stdout);
  if (report) {
    ws_diag_clear(&d);
    st = write_report(rep, ws_outdir_path(&od), pos[0], text, mv, nm, &d);
    ws_outdir_names(&od, &d, 0);
    cli_print_diag(&d);
    if (st || cli_outdir_end(&od, 1)) {
      free(text);
      rc = st ? cli_exit_for(st) : EXIT_USAGE;
      goto out;
    }
  }
  free(text);
  rc = rep->failed == rep->nrows ? EXIT_USAGE : EXIT_OK;
out:
  ws_report_counters_discard(co);
  ws_outdir_discard(&od);
  ws_valid_predictor_free(pctx);
  ws_valid_report_free(rep);
  ws_valid_data_free(data);
  ws_diag_free(&d);
  vcli_list_free(&gpus);
  vcli_list_free(&kernels);
  vcli_gpu_files_free(&gf);
  vcli_cu_free(&cu);
  return rc;
}
