/*
 * cmd_calibrate.c — `warpsight calibrate`: fit a model's machine parameters
 * for one GPU to the measured times of a data set (docs/validation.md,
 * "Calibration") and write the GPU's JSON with the fitted values.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "cli/valid_cli.h"
#include "util/strbuf.h"
#include "warpsight/model.h"
#include "warpsight/report.h"
#include "warpsight/valid.h"

static const char help[] =
    "usage: warpsight calibrate DATA.csv --gpu G[,G...] --model M [-o G-calibrated.json]\n"
    "                           [--fix P,P] [--kernels K,K] [--sample-blocks N] [--ptx-dir DIR]\n"
    "                           [--cache DIR | --no-cache] [--gpu-file NAME=FILE.json]...\n"
    "                           [--allow-outside-data]\n\n"
    "Fits the machine parameters of model M for GPU G (any database GPU or data set\n"
    "name: gtx680, GTX-680, Tesla-K40, TitanBlack, ...; or a GPU file) to the\n"
    "measured times of that GPU's rows in DATA.csv: least squares on\n"
    "log(predicted) - log(measured) with GSL's trust-region solver, on a training\n"
    "half of the rows (validate --half train: per GPU and kernel, rows sorted by\n"
    "input size alternate train/test, the smallest first; docs/validation.md).\n"
    "Prints the held-out error before and after and writes the GPU's JSON with the\n"
    "fitted parameters marked as calibrated estimates.  DATA.csv is either format\n"
    "of 'warpsight validate' (the Amaris et al. columns or the generic one).\n"
    "Several GPUs (boards of one architecture) are fitted at once: one set of\n"
    "values, each board's rows predicted with its own facts (SMs, L2 slices,\n"
    "bandwidth, clock), and one G-calibrated.json written per board.\n\n"
    "Fitted parameters: warpsight: issue_rate, lsu_rate, l2_bytes_per_slice,\n"
    "                     dram_efficiency, alu_latency_scale, mem_latency_scale,\n"
    "                     overlap_p, launch_us, block_cycles, divergence_penalty,\n"
    "                     partition_camping\n"
    "                     (docs/models/warpsight.md);\n"
    "                   hong-kim: mem_ld, departure_del_uncoal, departure_del_coal;\n"
    "                   gpuperf: dram_lat, delta.\n\n"
    "options:\n"
    "  --gpu G[,G...]     the GPU: database name, the data set's name\n"
    "                     (data/validation/gpu-names.csv) or a GPU file (a path); the\n"
    "                     fit starts from its parameters.  Several: boards of one\n"
    "                     architecture fitted together (they must start from the\n"
    "                     same values)\n"
    "  --gpu-file NAME=FILE.json\n"
    "                     GPU NAME's parameters come from this file (e.g. to refine an\n"
    "                     earlier calibration); repeatable\n"
    "  --model M          the model\n"
    "  -o FILE            output (default G-calibrated.json; one GPU only)\n"
    "  --fix P,P          keep these fitted parameters at the GPU's values (one the\n"
    "                     rows cannot identify, stated from elsewhere)\n"
    "  --kernels L        use only these kernels' rows\n"
    "  --sample-blocks N, --ptx-dir DIR, --cache DIR, --no-cache, --allow-outside-data:\n"
    "                     as for validate\n\n"
    "Exit status: 0 ok; 2 bad usage or input, or no row could be predicted.\n";

/* What calibrate keeps of each row's profile: the scalar fields and the
 * launch, which the fittable models (warpsight, hong-kim, gpuperf) read,
 * not the whole JSON document (basic blocks, loops, per-instruction
 * tables).  Kept whole, the 1,059 K20 rows peaked at 368 MB. */
typedef struct slim_store {
  const ws_valid_data *data; /* the rows (borrowed) */
  ws_profile **p;            /* by row of data, or NULL (owned) */
  int oom;                   /* a copy could not be made */
} slim_store;

static void keep_slim(const ws_valid_outcome *oc, const ws_profile *p, void *user) {
  slim_store *s = user;
  if (!p) return;
  ws_profile *q = ws_profile_new(p->kernel, p->grid, p->block);
  if (!q) {
    s->oom = 1;
    return;
  }
  q->f = p->f;
  size_t i = (size_t)(oc->row - s->data->rows);
  ws_profile_free(s->p[i]);
  s->p[i] = q;
}

static void slim_free(slim_store *s) {
  for (size_t i = 0; s->p && i < s->data->nrows; i++) ws_profile_free(s->p[i]);
  free(s->p);
}

/* The rows predicted without error, with their kept profiles; n of them. */
static size_t rows_with_profiles(ws_valid_row *rows, ws_profile **profs, const ws_valid_report *rep,
                                 const slim_store *s) {
  size_t n = 0;
  for (size_t i = 0; i < rep->nrows; i++) {
    ws_profile *p = s->p[rep->rows[i].row - s->data->rows];
    if (!rep->rows[i].status && p) rows[n] = *rep->rows[i].row, profs[n++] = p;
  }
  return n;
}

/* The board of name among the ng resolved ones (ng when none). */
static size_t board_of(const char *name, const char *const *gnames, size_t ng) {
  size_t b = 0;
  while (b < ng && strcmp(name, gnames[b])) b++;
  return b;
}

/* --gpu's items resolved (before the data is read, names wait: data NULL);
 * a board named twice is one board. */
static int resolve_all(const char **gnames, size_t *ng, const char *const *items, size_t n,
                       vcli_gpu_files *gf, const ws_valid_data *data) {
  const char *in[VCLI_MAX_ITEMS]; /* n <= VCLI_MAX_ITEMS: vcli_split */
  memcpy(in, items, n * sizeof *in); /* items may be gnames itself */
  *ng = 0;
  for (size_t i = 0; i < n; i++) {
    const char *g = NULL;
    if (vcli_resolve_gpu(&g, gf, data, "calibrate", "--gpu", in[i])) return EXIT_USAGE;
    if (board_of(g, gnames, *ng) == *ng) gnames[(*ng)++] = g;
  }
  return 0;
}

/* 1 (after a usage error) when --fix names a parameter that model does not
 * fit: said before any row is profiled, which takes minutes on a large
 * data set (the library checks it again, ws_valid_calibrate_fixing). */
static int unknown_fixed(const char *model, const vcli_list *fix) {
  const char *const *params = ws_valid_fittable(model);
  for (size_t k = 0; k < fix->n; k++) {
    size_t j = 0;
    while (params[j] && strcmp(params[j], fix->v[k])) j++;
    if (params[j]) continue;
    ws_strbuf all = WS_STRBUF_INIT;
    for (j = 0; params[j]; j++) ws_sb_printf(&all, "%s%s", j ? ", " : "", params[j]);
    cli_usage_error("calibrate", "--fix: '%s' is not a fitted parameter of %s (%s)", fix->v[k], model,
                    ws_sb_str(&all));
    ws_sb_free(&all);
    return 1;
  }
  return 0;
}

int cmd_calibrate(int argc, char **argv) {
  const char *gpu_s = NULL, *model = NULL, *out_s = NULL, *kernels_s = NULL, *sample_s = NULL,
             *fix_s = NULL,
             *ptx_s = NULL, *cache_s = NULL, *no_cache = NULL, *outside = NULL;
  cli_opt opts[] = {{"--gpu", 1, &gpu_s},         {"--model", 1, &model},
                    {"-o", 1, &out_s},            {"--kernels", 1, &kernels_s},
                    {"--fix", 1, &fix_s},
                    {"--sample-blocks", 1, &sample_s}, {"--ptx-dir", 1, &ptx_s},
                    {"--cache", 1, &cache_s},     {"--no-cache", 0, &no_cache},
                    {"--allow-outside-data", 0, &outside}, {NULL, 0, NULL}};
  const char *pos[1];
  int npos, want_help, rc = EXIT_USAGE, st;
  vcli_gpu_files gf;
  vcli_cu cu = {"calibrate", NULL, 0, 0};
  vcli_list gl = {0}, fix = {0};
  const char *gnames[VCLI_MAX_ITEMS]; /* the boards, resolved (--gpu's items) */
  size_t ng = 0;
  long sample = VCLI_DEFAULT_SAMPLE_BLOCKS;
  if (vcli_take_gpu_files(&gf, "calibrate", &argc, argv) ||
      cli_parse("calibrate", argc, argv, opts, pos, 1, &npos, help, &want_help)) {
    vcli_gpu_files_free(&gf);
    return EXIT_USAGE;
  }
  if (want_help) rc = EXIT_OK;
  else if (npos != 1) cli_usage_error("calibrate", "expected one DATA.csv");
  else if (!gpu_s) cli_usage_error("calibrate", "--gpu is required");
  else if (!model) cli_usage_error("calibrate", "--model is required");
  else if (cache_s && no_cache) cli_usage_error("calibrate", "--cache and --no-cache conflict");
  else if (sample_s && cli_parse_sample_blocks("calibrate", sample_s, &sample)) {
  } else if (vcli_split(&gl, "calibrate", "--gpu", gpu_s)) {
  } else if (fix_s && vcli_split(&fix, "calibrate", "--fix", fix_s)) {
  } else if (gl.n > 1 && out_s) {
    cli_usage_error("calibrate", "-o names one file: with several GPUs each gets "
                                 "G-calibrated.json");
  } else if (resolve_all(gnames, &ng, gl.v, gl.n, &gf, NULL)) {
  } else if (!ws_model_find(model)) {
    cli_usage_error("calibrate", "--model: unknown model '%s'", model);
  } else if (!ws_valid_fittable(model)) {
    cli_usage_error("calibrate", "--model %s: no fittable parameters (warpsight, hong-kim, gpuperf "
                                 "have them)", model);
  } else if (unknown_fixed(model, &fix)) {
  } else {
    rc = -1; /* go on */
  }
  if (rc != -1) {
    vcli_gpu_files_free(&gf);
    vcli_list_free(&gl);
    vcli_list_free(&fix);
    return rc;
  }
  rc = EXIT_USAGE;

  ws_valid_predictor *pctx = NULL;
  vcli_list kernels = {0};
  ws_diag d = WS_DIAG_INIT;
  ws_valid_data *data = NULL;
  ws_valid_report *rep = NULL;
  ws_gpu *gs[VCLI_MAX_ITEMS] = {NULL};
  size_t *row_gpu = NULL;
  ws_valid_row *rows = NULL;
  ws_profile **profs = NULL;
  slim_store slim = {NULL, NULL, 0};
  char ptx_dir[4096], cache_buf[4096], outbuf[512];
  if (kernels_s && vcli_split(&kernels, "calibrate", "--kernels", kernels_s)) goto out;
  if ((st = ws_valid_load_ex(&data, pos[0], gf.name, gf.n, outside ? WS_VALID_ALLOW_OUTSIDE : 0,
                             &d))) {
    cli_print_diag(&d);
    rc = cli_exit_for(st);
    goto out;
  }
  if (resolve_all(gnames, &ng, gnames, ng, &gf, data)) goto out;
  for (size_t b = 0; b < ng; b++) {
    const char *gpu_src = gnames[b]; /* the data's GPU files, then --gpu-file's */
    for (size_t i = 0; i < data->ngpu_files; i++)
      if (!strcmp(data->gpu_file_names[i], gnames[b])) gpu_src = data->gpu_file_paths[i];
    for (size_t i = 0; i < gf.n; i++)
      if (!strcmp(gf.name[i], gnames[b])) gpu_src = gf.path[i];
    if ((st = ws_gpu_load(&gs[b], gpu_src, &d))) {
      cli_print_diag(&d);
      rc = cli_exit_for(st);
      goto out;
    }
  }
  if (vcli_check_kernels(&kernels, data, "calibrate") ||
      vcli_data_ptx_dir(ptx_dir, sizeof ptx_dir, "calibrate", ptx_s, pos[0], data))
    goto out;
  size_t nsel = 0;
  for (size_t i = 0; i < data->nrows; i++) {
    const ws_valid_row *r = &data->rows[i];
    if (board_of(r->gpu, gnames, ng) == ng || !vcli_selects(&kernels, r->kernel)) continue;
    ws_launch_spec *l = NULL;
    if ((st = ws_valid_launch(&l, r, pos[0], &d))) {
      cli_print_diag(&d);
      rc = cli_exit_for(st);
      goto out;
    }
    ws_emu_launch_spec_free(l);
    nsel++;
  }
  if (nsel < 2) {
    cli_usage_error("calibrate", "%zu rows of %s selected: too few to split and fit", nsel, gpu_s);
    goto out;
  }
  const char *const models[1] = {model};
  ws_valid_options o = {0};
  o.models = models;
  o.nmodels = 1;
  o.gpus = gnames;
  o.ngpus = ng;
  o.kernels = kernels.n ? kernels.v : NULL;
  o.nkernels = kernels.n;
  o.sample_blocks = (int)sample;
  o.ptx_dir = ptx_dir;
  o.cache_dir = vcli_cache_dir(cache_buf, sizeof cache_buf, cache_s, no_cache);
  o.predict = ws_valid_default_predictor();
  if (!(pctx = ws_valid_predictor_new(0))) goto out;
  o.user = pctx;
  o.progress = vcli_progress;
  o.progress_user = "calibrate";
  slim.data = data;
  if (!(slim.p = calloc(data->nrows + 1, sizeof *slim.p))) goto out;
  o.on_row = keep_slim;
  o.on_row_user = &slim;
  o.gpu_file_names = gf.name;
  o.gpu_file_paths = gf.path;
  o.ngpu_files = gf.n;
  o.compile_cu = vcli_compile_cu;
  o.compile_user = &cu;
  if ((st = ws_valid_run(&rep, data, &o, &d))) {
    cli_print_diag(&d);
    rc = cli_exit_for(st);
    goto out;
  }
  /* the rows that have a profile and a prediction */
  rows = calloc(rep->nrows + 1, sizeof *rows);
  profs = calloc(rep->nrows + 1, sizeof *profs);
  row_gpu = calloc(rep->nrows + 1, sizeof *row_gpu);
  if (!rows || !profs || !row_gpu || slim.oom) {
    fprintf(stderr, "warpsight calibrate: error: out of memory while keeping the rows' profiles\n");
    goto out;
  }
  size_t n = rows_with_profiles(rows, profs, rep, &slim);
  for (size_t i = 0; i < n; i++) row_gpu[i] = board_of(rows[i].gpu, gnames, ng);
  ws_valid_calib c;
  if ((st = ws_valid_calibrate_fixing(&c, (const ws_gpu *const *)gs, ng, row_gpu, model, fix.v,
                                      fix.n, rows, profs, n, &d))) {
    cli_print_diag(&d);
    rc = cli_exit_for(st);
    goto out;
  }
  char source[1024], date[32];
  time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
  const char *base = strrchr(pos[0], '/') ? strrchr(pos[0], '/') + 1 : pos[0];
  snprintf(source, sizeof source, "calibrated by warpsight calibrate on %s, %zu rows, %s", base,
           c.ntrain, date);
  ws_report_calibration(stdout, model, gpu_s, &c);
  for (size_t b = 0; b < ng; b++) {
    const char *out_b = out_s;
    if (!out_b) {
      snprintf(outbuf, sizeof outbuf, "%s-calibrated.json", gnames[b]);
      out_b = outbuf;
    }
    ws_gpu *cal = NULL;
    char *json = ws_valid_calibrated_gpu(&cal, gs[b], model, &c, source) == WS_OK
                     ? ws_gpu_to_json(cal) : NULL;
    ws_gpu_free(cal);
    if (!json) {
      fprintf(stderr, "warpsight calibrate: error: out of memory\n");
      goto out;
    }
    int wr = cli_write_text(out_b, json, 1);
    free(json);
    if (wr) goto out;
    printf("wrote %s\n", out_b);
  }
  rc = EXIT_OK;
out:
  ws_valid_predictor_free(pctx);
  free(rows);
  free(profs);
  slim_free(&slim);
  ws_valid_report_free(rep);
  ws_valid_data_free(data);
  for (size_t b = 0; b < ng; b++) ws_gpu_free(gs[b]);
  free(row_gpu);
  vcli_list_free(&gl);
  vcli_list_free(&fix);
  ws_diag_free(&d);
  vcli_list_free(&kernels);
  vcli_gpu_files_free(&gf);
  vcli_cu_free(&cu);
  return rc;
}
