/* test_valid_run.c — the validation run with a TEST DOUBLE predictor (never
 * shipped: the real one needs the profiler), the profile cache, the per-row
 * CSV and the chart. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "warpsight/report.h"
#include "warpsight/valid.h"

/* Three rows: two GTX 680 vectorAdd sizes, one K20 dotProd. */
static const char csv_text[] =
    "gpu_name,compute_version,max_clock_rate,num_of_cores,AppName,Kernel,Input.Size,Grid.X,"
    "Grid.Y,Grid.Z,Block.X,Block.Y,Block.Z,Registers.Per.Thread,Static.SMem,Dynamic.SMem,"
    "Duration\n"
    "GTX-680,3,1058,1536,vectorAdd,\"vectorAdd(float const *, float const *, float*, int)\","
    "131072,2048,1,1,64,1,1,10,0,0,1e-05\n"
    "GTX-680,3,1058,1536,vectorAdd,\"vectorAdd(float const *, float const *, float*, int)\","
    "262144,4096,1,1,64,1,1,10,0,0,2e-05\n"
    "Tesla-K20,3.5,705,2496,dotProd,\"dotProd(float*, float*, float*, int)\","
    "131072,2048,1,1,64,1,1,13,256,0,4e-05\n";

typedef struct dbl {
  int calls;       /* predictor calls */
  int fail_line;   /* fail the row on this CSV line (0: none) */
} dbl;

/* The double: a hand-written paper profile stands in for the emulator; the
 * models run on it as the real predictor will (ws_valid_run_models). */
static int fake_predict(ws_valid_result *out, const ws_valid_request *req, void *user,
                        ws_diag *d) {
  dbl *t = user;
  t->calls++;
  assert_non_null(req->launch);
  assert_non_null(strstr(req->ptx_path, req->row->kernel));
  if (req->row->line == t->fail_line) return ws_diag_error(d, "double: asked to fail");
  int st = ws_profile_load_file(&out->profile, WS_SOURCE_DIR "/examples/paper/hk09-table2.json", d);
  if (st) return st;
  return ws_valid_run_models(out, out->profile, req->gpu, req->models, req->nmodels, req->row,
                             d);
}

static ws_valid_data *load(void) {
  ws_diag d = WS_DIAG_INIT;
  ws_valid_data *v = NULL;
  assert_ok_diag(ws_valid_load_text(&v, csv_text, strlen(csv_text), "t.csv", &d), &d);
  ws_diag_free(&d);
  return v;
}

static const char *const models[] = {"hong-kim"};

static ws_valid_options opts(dbl *t, const char *cache) {
  ws_valid_options o = {0};
  o.models = models;
  o.nmodels = 1;
  o.ptx_dir = WS_SOURCE_DIR "/examples/validation/ptx";
  o.cache_dir = cache;
  o.predict = fake_predict;
  o.user = t;
  return o;
}

static void test_run_filters_and_failures(void **state) {
  (void)state;
  ws_valid_data *v = load();
  dbl t = {0, 3}; /* line 3 = the second vectorAdd row fails */
  ws_valid_options o = opts(&t, NULL);
  const char *gpus[] = {"gtx680"};
  o.gpus = gpus, o.ngpus = 1;
  ws_diag d = WS_DIAG_INIT;
  ws_valid_report *r = NULL;
  assert_ok_diag(ws_valid_run(&r, v, &o, &d), &d);
  assert_int_equal(r->nrows, 2); /* the K20 row is filtered out */
  assert_int_equal(t.calls, 2);
  assert_int_equal(r->failed, 1);
  assert_int_equal(r->rows[0].status, WS_OK);
  assert_int_not_equal(r->rows[1].status, WS_OK);
  assert_true(r->rows[0].time_s[0] > 0);
  ws_valid_stats s;
  ws_valid_report_stats(&s, r, 0, NULL, NULL);
  assert_int_equal(s.n, 1); /* the failed row is not counted */
  char *text = ws_valid_report_text(r);
  assert_non_null(strstr(text, "model hong-kim\n"));
  /* gtx680 vectorAdd: 1 usable row of 2 -> "1" in the rows column; one
   * point -> no Spearman ("-") */
  assert_non_null(strstr(text, "  gtx680   vectorAdd                               1 "));
  assert_non_null(strstr(text, "2 rows, 1 failed, 0 profiles from the cache"));
  free(text);
  ws_valid_report_free(r);
  /* --limit 1 keeps the first selected row */
  o.gpus = NULL, o.limit = 1, t.fail_line = 0;
  assert_ok_diag(ws_valid_run(&r, v, &o, &d), &d);
  assert_int_equal(r->nrows, 1);
  ws_valid_report_free(r);
  ws_diag_free(&d);
  ws_valid_data_free(v);
}

typedef struct seen {
  int lines[8];   /* CSV lines passed to on_row, in order */
  int n;          /* entries */
} seen;

static void on_row(const ws_valid_outcome *oc, const ws_profile *p, void *user) {
  seen *s = user;
  assert_non_null(p); /* the profile while it exists */
  assert_non_null(p->kernel);
  assert_int_equal(oc->status, WS_OK);
  assert_non_null(oc->time_s);
  if (s->n < 8) s->lines[s->n++] = oc->row->line;
}

/* on_row sees every predicted row's profile in file order (not the failed
 * one), and without keep_profiles the report keeps none: what --report's
 * counters.csv needs without holding every profile (issue 10: 6,418 rows
 * took 1.5 GB). */
static void test_on_row_streams(void **state) {
  (void)state;
  ws_valid_data *v = load();
  dbl t = {0, 3}; /* the second vectorAdd row fails */
  seen sn = {{0}, 0};
  ws_valid_options o = opts(&t, NULL);
  o.on_row = on_row;
  o.on_row_user = &sn;
  ws_diag d = WS_DIAG_INIT;
  ws_valid_report *r = NULL;
  assert_ok_diag(ws_valid_run(&r, v, &o, &d), &d);
  assert_int_equal(r->nrows, 3);
  assert_int_equal(sn.n, 2);
  assert_int_equal(sn.lines[0], 2);
  assert_int_equal(sn.lines[1], 4);
  for (size_t i = 0; i < r->nrows; i++) assert_null(r->rows[i].profile);
  ws_valid_report_free(r);
  ws_diag_free(&d);
  ws_valid_data_free(v);
}

static void rm_rf(const char *dir) {
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
}

/* Second run with the same cache folder: every profile comes from the cache,
 * the predictor is not called, the times are the same. */
static void test_cache_reuse(void **state) {
  (void)state;
  char dir[] = "/tmp/ws-valid-cache-XXXXXX";
  assert_non_null(mkdtemp(dir));
  char cache[600];
  snprintf(cache, sizeof cache, "%s/sub/cache", dir); /* created on demand */
  ws_valid_data *v = load();
  dbl t = {0, 0};
  ws_valid_options o = opts(&t, cache);
  ws_diag d = WS_DIAG_INIT;
  ws_valid_report *r1 = NULL, *r2 = NULL;
  assert_ok_diag(ws_valid_run(&r1, v, &o, &d), &d);
  assert_int_equal(t.calls, 3);
  assert_int_equal(r1->cached, 0);
  assert_ok_diag(ws_valid_run(&r2, v, &o, &d), &d);
  assert_int_equal(t.calls, 3); /* no new calls */
  assert_int_equal(r2->cached, 3);
  for (size_t i = 0; i < 3; i++) assert_close(r2->rows[i].time_s[0], r1->rows[i].time_s[0], 0);

  /* the per-row CSV: header + 3 rows, read back with the CSV reader */
  char path[700];
  snprintf(path, sizeof path, "%s/rows.csv", dir);
  assert_ok_diag(ws_valid_report_csv(r2, path, &d), &d);
  ws_csv *c = NULL;
  assert_ok_diag(ws_valid_csv_read(&c, path, &d), &d);
  assert_int_equal(c->nrows, 3);
  assert_int_equal(ws_valid_csv_column(c, "predicted_s_hong-kim"), 6);
  assert_int_equal(ws_valid_csv_column(c, "error_pct_hong-kim"), 7);
  assert_string_equal(ws_valid_csv_cell(c, 2, 1), "k20");
  assert_string_equal(ws_valid_csv_cell(c, 2, 3), "2048x1x1");
  /* error column = 100 (pred - meas) / meas of the columns beside it */
  double meas = atof(ws_valid_csv_cell(c, 0, 5)), pred = atof(ws_valid_csv_cell(c, 0, 6));
  assert_close(atof(ws_valid_csv_cell(c, 0, 7)), 100 * (pred - meas) / meas, 1e-3);
  ws_valid_csv_free(c);

#ifdef WS_HAVE_CAIRO
  snprintf(path, sizeof path, "%s/chart", dir); /* -> chart.png, chart.svg */
  assert_ok_diag(ws_valid_report_chart(r2, 0, path, &d), &d);
  struct stat sb;
  snprintf(path, sizeof path, "%s/chart.png", dir);
  assert_int_equal(stat(path, &sb), 0);
  assert_true(sb.st_size > 1000);
  FILE *f = fopen(path, "rb");
  unsigned char sig[8];
  assert_int_equal(fread(sig, 1, 8, f), 8);
  fclose(f);
  assert_memory_equal(sig, "\x89PNG\r\n\x1a\n", 8);
  /* the SVG keeps its words: title, axis labels and legend as <text> */
  snprintf(path, sizeof path, "%s/chart.svg", dir);
  char *svg = NULL;
  assert_ok_diag(ws_read_file(&svg, NULL, path, &d), &d);
  assert_non_null(strstr(svg, "<title>hong-kim: predicted vs measured kernel time (3 launches)</title>"));
  assert_non_null(strstr(svg, ">measured time (s)</text>"));
  assert_non_null(strstr(svg, ">predicted time (s)</text>"));
  assert_non_null(strstr(svg, ">vectorAdd</text>"));
  assert_non_null(strstr(svg, ">dotProd</text>"));
  assert_null(strstr(svg, ">subSeqMax</text>")); /* no points, not in the legend */
  assert_non_null(strstr(svg, ">y = x (exact prediction)</text>"));
  free(svg);
#endif
  ws_valid_report_free(r1);
  ws_valid_report_free(r2);
  ws_diag_free(&d);
  ws_valid_data_free(v);
  rm_rf(dir);
}

/* The key changes with every input it covers. */
static void test_cache_key(void **state) {
  (void)state;
  ws_valid_data *v = load();
  ws_diag d = WS_DIAG_INIT;
  ws_launch_spec *l = NULL;
  assert_ok_diag(ws_valid_launch(&l, &v->rows[0], "t.csv", &d), &d);
  char k0[17], k[17];
  ws_valid_cache_key(k0, "vectorAdd", "ptx A", l, 3, 0, 0);
  assert_int_equal(strlen(k0), 16);
  ws_valid_cache_key(k, "vectorAdd", "ptx A", l, 3, 0, 0);
  assert_string_equal(k, k0); /* deterministic */
  ws_valid_cache_key(k, "vectorAdd", "ptx B", l, 3, 0, 0);
  assert_string_not_equal(k, k0);
  ws_valid_cache_key(k, "vectorAdd", "ptx A", l, 3, 5, 0);
  assert_string_not_equal(k, k0);
  ws_valid_cache_key(k, "vectorAdd", "ptx A", l, 3, 0, 16);
  assert_string_not_equal(k, k0);
  ws_valid_cache_key(k, "dotProd", "ptx A", l, 3, 0, 0);
  assert_string_not_equal(k, k0);
  l->args[0].seed = 7; /* the first buffer's random seed */
  ws_valid_cache_key(k, "vectorAdd", "ptx A", l, 3, 0, 0);
  assert_string_not_equal(k, k0);
  l->grid[0] = 1;
  char k2[17];
  ws_valid_cache_key(k2, "vectorAdd", "ptx A", l, 3, 0, 0);
  assert_string_not_equal(k2, k);
  ws_emu_launch_spec_free(l);
  ws_diag_free(&d);
  ws_valid_data_free(v);
}

static void test_cache_default_dir(void **state) {
  (void)state;
  char buf[512];
  setenv("XDG_CACHE_HOME", "/x/c", 1);
  ws_valid_cache_default_dir(buf, sizeof buf);
  assert_string_equal(buf, "/x/c/warpsight");
  unsetenv("XDG_CACHE_HOME");
  setenv("HOME", "/h", 1);
  ws_valid_cache_default_dir(buf, sizeof buf);
  assert_string_equal(buf, "/h/.cache/warpsight");
  unsetenv("HOME");
  ws_valid_cache_default_dir(buf, sizeof buf);
  assert_string_equal(buf, ".warpsight-cache");
}

static void test_cache_miss(void **state) {
  (void)state;
  ws_profile *p = NULL;
  ws_diag d = WS_DIAG_INIT;
  assert_int_equal(ws_valid_cache_get(&p, "/nonexistent-ws", "k", "0123456789abcdef", &d),
                   WS_EMISSING);
  assert_null(p);
  /* a damaged entry is a miss with a warning, not an error */
  char dir[] = "/tmp/ws-valid-bad-XXXXXX", path[200];
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/k-0123456789abcdef.json", dir);
  FILE *f = fopen(path, "w");
  fputs("{\"schema\": \"warpsight-prof", f);
  fclose(f);
  assert_int_equal(ws_valid_cache_get(&p, dir, "k", "0123456789abcdef", &d), WS_EMISSING);
  assert_null(p);
  assert_int_equal(d.errors, 0);
  assert_int_equal(d.count, 1);
  assert_int_equal(d.items[0].severity, WS_SEV_WARNING);
  rm_rf(dir);
  ws_diag_free(&d);
}

/* ws_chart_scatter edge cases: no usable point (zero and negative values
 * on log axes, NaN) still gives a framed, empty chart; linear axes work. */
static void test_scatter_edges(void **state) {
  (void)state;
  if (!ws_chart_available()) skip();
  char dir[] = "/tmp/ws-valid-chart-XXXXXX", base[200], path[220];
  assert_non_null(mkdtemp(dir));
  double x[] = {0, -1, NAN}, y[] = {1, 2, 3};
  ws_chart_series s[2] = {{"bad", x, y, 3}, {"none", x, y, 0}};
  ws_chart_scatter_spec spec = {"empty", NULL, "x (s)", "y (s)", 1, 1};
  ws_diag d = WS_DIAG_INIT;
  snprintf(base, sizeof base, "%s/log", dir);
  assert_ok_diag(ws_chart_scatter(base, &spec, s, 2, &d), &d);
  spec.loglog = 0, spec.diagonal = 0;
  snprintf(base, sizeof base, "%s/lin", dir);
  assert_ok_diag(ws_chart_scatter(base, &spec, s, 2, &d), &d);
  struct stat sb;
  snprintf(path, sizeof path, "%s/lin.png", dir);
  assert_int_equal(stat(path, &sb), 0);
  snprintf(path, sizeof path, "%s/log.svg", dir);
  assert_int_equal(stat(path, &sb), 0);
  /* an unwritable place is an I/O error, not a crash */
  assert_int_equal(ws_chart_scatter("/nonexistent-ws/dir/c", &spec, s, 2, &d), WS_EIO);
  ws_diag_free(&d);
  rm_rf(dir);
  ws_chart_shutdown(); /* once, in the last test that draws (report.h) */
}

/* Fontconfig (under cairo's text drawing) keeps process-wide caches it never
 * frees; they are not ours.  LeakSanitizer reads this hook in ASan builds. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libfontconfig\n"; }

/* With a row, the models see the measured build's registers and shared
 * memory and recompute occupancy: the same times as a profile written with
 * those resources and no occupancy section (an independent path through the
 * JSON loader); the profile passed in is unchanged. */
static void test_run_models_measured_build(void **state) {
  (void)state;
  static const char body[] =
      "{\"schema\":\"warpsight-profile/1\",\"kernel\":\"MatrixMulKernel\","
      "\"launch\":{\"grid\":[80,1,1],\"block\":[128,1,1]},"
      "\"resources\":{\"registers_per_thread\":%d,\"shared_bytes_per_block\":%d}%s,"
      "\"per_warp\":{\"comp_insts\":27,\"coal_mem_insts\":0,\"uncoal_mem_insts\":6,"
      "\"synch_insts\":6},"
      "\"memory\":{\"uncoal_per_mw\":32,\"coal_per_mw\":1,\"load_bytes_per_warp\":128}}";
  char a[2048], b[2048];
  /* as profiled: 18 registers, explicit occupancy 5 blocks on 16 SMs */
  snprintf(a, sizeof a, body, 18, 3960,
           ",\"occupancy\":{\"active_blocks_per_sm\":5,\"active_sms\":16}");
  /* the measured build: 60 registers, 8192 B shared, occupancy left to the GPU */
  snprintf(b, sizeof b, body, 60, 8192, "");
  ws_diag d = WS_DIAG_INIT;
  ws_profile *pa, *pb;
  ws_gpu *g;
  assert_ok_diag(ws_profile_load_json(&pa, a, "a", &d), &d);
  assert_ok_diag(ws_profile_load_json(&pb, b, "b", &d), &d);
  assert_ok_diag(ws_gpu_load(&g, "gtx680", &d), &d);
  ws_valid_row row = {0};
  row.regs = 60, row.static_smem = 4096, row.dynamic_smem = 4096;
  ws_valid_result ra = {0}, rb = {0}, rp = {0};
  assert_ok_diag(ws_valid_run_models(&ra, pa, g, models, 1, &row, &d), &d);
  assert_ok_diag(ws_valid_run_models(&rb, pb, g, models, 1, NULL, &d), &d);
  assert_ok_diag(ws_valid_run_models(&rp, pa, g, models, 1, NULL, &d), &d);
  assert_close(ra.time_s[0], rb.time_s[0], 0);
  assert_true(ra.time_s[0] != rp.time_s[0]); /* the override matters here */
  assert_close(pa->f.registers_per_thread, 18, 0);
  assert_close(pa->f.active_blocks_per_sm, 5, 0);
  ws_valid_result_free(&ra);
  ws_valid_result_free(&rb);
  ws_valid_result_free(&rp);
  ws_profile_free(pa);
  ws_profile_free(pb);
  ws_gpu_free(g);
  ws_diag_free(&d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_on_row_streams),
      cmocka_unit_test(test_run_filters_and_failures),
      cmocka_unit_test(test_cache_reuse),
      cmocka_unit_test(test_cache_key),
      cmocka_unit_test(test_cache_default_dir),
      cmocka_unit_test(test_cache_miss),
      cmocka_unit_test(test_run_models_measured_build),
      cmocka_unit_test(test_scatter_edges),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
