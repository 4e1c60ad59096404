/*
 * test_charts.c — the three charts on hand-made results: the files exist,
 * are a PNG and an SVG of plausible size, and the SVG carries its labels as
 * text (cairo draws glyphs; warpsight adds <title> and <text> elements).
 * Built without cairo, every chart must say WS_EUNSUP.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "warpsight/report.h"
#include "model/transit.h"
#include "report/escape.h"

/* fontconfig (under cairo) keeps its configuration for the life of the
 * process; only FcFini() would free it.  Not ours to free: tell LeakSanitizer. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libfontconfig.so\n"; }

static char dir[64];

static int setup(void **state) {
  (void)state;
  snprintf(dir, sizeof dir, "/tmp/ws-charts-XXXXXX");
  return mkdtemp(dir) ? 0 : -1;
}

static void rm(const char *base, const char *ext) {
  char p[256];
  snprintf(p, sizeof p, "%s%s", base, ext);
  unlink(p);
}

static int teardown(void **state) {
  (void)state;
  static const char *const names[] = {"benefit", "transit", "roofline", "escaped"};
  for (size_t i = 0; i < 4; i++) {
    char b[128];
    snprintf(b, sizeof b, "%s/%s", dir, names[i]);
    rm(b, ".png");
    rm(b, ".svg");
  }
  char page[128];
  snprintf(page, sizeof page, "%s/page.html", dir);
  unlink(page);
  rmdir(dir);
  return 0;
}

static void add(ws_model_result *r, ws_term_id id, double v) {
  assert_int_equal(ws_model_term_add(r, id, v), WS_OK);
}

/* Checks PATH.png (signature, > 8 KB) and PATH.svg (> 8 KB, every label). */
static void check_files(const char *base, const char *const *labels) {
  char p[256];
  struct stat st;
  snprintf(p, sizeof p, "%s.png", base);
  assert_int_equal(stat(p, &st), 0);
  assert_true(st.st_size > 8000);
  FILE *f = fopen(p, "rb");
  unsigned char sig[8] = {0};
  assert_int_equal(fread(sig, 1, 8, f), 8);
  fclose(f);
  assert_memory_equal(sig, "\x89PNG\r\n\x1a\n", 8);

  snprintf(p, sizeof p, "%s.svg", base);
  char *svg = NULL;
  size_t len = 0;
  ws_diag d = WS_DIAG_INIT;
  assert_ok_diag(ws_read_file(&svg, &len, p, &d), &d);
  assert_true(len > 8000);
  assert_non_null(strstr(svg, "<svg"));
  assert_non_null(strstr(svg, "</svg>"));
  for (size_t i = 0; labels[i]; i++)
    if (!strstr(svg, labels[i])) {
      print_error("%s lacks '%s'\n", p, labels[i]);
      fail();
    }
  free(svg);
  ws_diag_free(&d);
}

/* A gpuperf result at A = (T_mem 40000, T_comp 30000), T_overlap 20000,
 * T_fp 8000, T_mem_min 6000, B_memlp 14000, with the other benefits given. */
static ws_model_result with_benefits(double b_itilp, double b_serial, double b_fp) {
  ws_model_result r = WS_MODEL_RESULT_INIT;
  r.model = "gpuperf";
  add(&r, WS_TERM_GPUPERF_T_COMP, 30000);
  add(&r, WS_TERM_GPUPERF_T_MEM, 40000);
  add(&r, WS_TERM_GPUPERF_T_OVERLAP, 20000);
  add(&r, WS_TERM_GPUPERF_T_FP, 8000);
  add(&r, WS_TERM_GPUPERF_T_MEM_MIN, 6000);
  add(&r, WS_TERM_GPUPERF_B_ITILP, b_itilp);
  add(&r, WS_TERM_GPUPERF_B_SERIAL, b_serial);
  add(&r, WS_TERM_GPUPERF_B_FP, b_fp);
  add(&r, WS_TERM_GPUPERF_B_MEMLP, 14000);
  r.cycles = 50000;
  return r;
}

static ws_model_result gpuperf(void) {
  ws_model_result r = with_benefits(9000, 3000, 10000);
  /* T_mem > T_comp: the model's zone (Figure 4) */
  assert_int_equal(ws_model_set_case(&r, WS_BOUND_GPUPERF_MEMORY, "memory bound"), WS_OK);
  return r;
}

static void benefit(void **state) {
  (void)state;
  ws_model_result r = gpuperf();
  char base[128];
  snprintf(base, sizeof base, "%s/benefit", dir);
  ws_diag d = WS_DIAG_INIT;
  int st = ws_report_chart_benefit(base, &r, &d);
  if (!ws_report_chart_available()) {
    assert_int_equal(st, WS_EUNSUP);
    assert_non_null(strstr(d.items[0].message, "cairo"));
  } else {
    assert_ok_diag(st, &d);
    /* T_mem 40000 > T_comp 30000: memory bound, the gpuperf model's own
     * rule (ws_model_gpuperf_memory_bound; issue 13), not T_mem' against T_comp. */
    static const char *const labels[] = {
        "<title>GPUPerf benefit chart: memory bound</title>",
        ">compute bound</text>", ">memory bound</text>",
        ">B_memlp = 14k</text>", ">B_itilp = 9000</text>",
        ">B_serial = 3000</text>", ">B_fp = 10k</text>",
        ">T_fp = 8000</text>", ">T_mem_min = 6000</text>",
        ">A (40k, 30k)</text>", ">A'</text>", "T_overlap = 20k",
        "memory cost T_mem' = T_mem - T_overlap (cycles)",
        "computation cost T_comp (cycles)", NULL};
    /* XML-escaped in the file: ' stays, < > & are escaped. */
    check_files(base, labels);
  }
  ws_diag_free(&d);
  ws_model_result_free(&r);
}

/* The y of the SVG <text> element whose content is `label`. */
static double label_y(const char *svg, const char *label) {
  const char *at = strstr(svg, label);
  assert_non_null(at);
  const char *y = NULL;
  for (const char *p = svg; p < at; p++)
    if (strncmp(p, "<text ", 6) == 0) y = p;
  assert_non_null(y);
  y = strstr(y, " y=\"");
  assert_non_null(y);
  return atof(y + 4);
}

/* Issue 13: labels of clustered marks do not overlap.  Three tiny benefits
 * stack three short arrows under A': their labels, at the arrows' midpoints,
 * would fall within a few pixels of each other; each must be at least a line
 * (13 px) from the others.  A negative B_fp is named as such in the legend,
 * not as a negative percentage. */
static void clustered_labels(void **state) {
  (void)state;
  if (!ws_report_chart_available()) return;
  ws_model_result r = with_benefits(40, 30, 50);
  char base[128];
  snprintf(base, sizeof base, "%s/benefit", dir);
  ws_diag d = WS_DIAG_INIT;
  assert_ok_diag(ws_report_chart_benefit(base, &r, &d), &d);
  char p[256], *svg = NULL;
  snprintf(p, sizeof p, "%s.svg", base);
  assert_ok_diag(ws_read_file(&svg, NULL, p, &d), &d);
  double ys = label_y(svg, ">B_serial = 30</text>"), yi = label_y(svg, ">B_itilp = 40</text>"),
         yf = label_y(svg, ">B_fp = 50</text>");
  assert_true(fabs(ys - yi) >= 13 && fabs(ys - yf) >= 13 && fabs(yi - yf) >= 13);
  free(svg);
  ws_model_result_free(&r);
  /* A negative benefit in the legend. */
  r = with_benefits(9000, 3000, -10000);
  assert_ok_diag(ws_report_chart_benefit(base, &r, &d), &d);
  assert_ok_diag(ws_read_file(&svg, NULL, p, &d), &d);
  assert_non_null(strstr(svg, ">B_fp = -10k (negative: no saving)</text>"));
  assert_null(strstr(svg, "-20 %"));
  free(svg);
  ws_model_result_free(&r);
  ws_diag_free(&d);
}

/* A transit result of the parameters and their equilibrium. */
static ws_model_result transit_result(const ws_transit_params *tp, const ws_transit_eq *eq) {
  ws_model_result r = WS_MODEL_RESULT_INIT;
  r.model = "transit";
  add(&r, WS_TERM_TRANSIT_N, tp->n);
  add(&r, WS_TERM_TRANSIT_Z_OPS_PER_BYTE, tp->z_ops_per_byte);
  add(&r, WS_TERM_TRANSIT_DELTA_THREADS, tp->k_delta);
  add(&r, WS_TERM_TRANSIT_DELTA_GBS, tp->r);
  add(&r, WS_TERM_TRANSIT_PI_THREADS, tp->m);
  add(&r, WS_TERM_TRANSIT_PI_VALUE, tp->p);
  add(&r, WS_TERM_TRANSIT_K_EQ, eq->k);
  add(&r, WS_TERM_TRANSIT_MS_THROUGHPUT, eq->ms_gbs);
  return r;
}

static void transit(void **state) {
  (void)state;
  /* The thread-bound equilibrium of test_transit.c: n = 1024, Z = 8. */
  ws_transit_params tp = {1024, 1536, 8.93, 576, 24.8, 8};
  ws_transit_eq eq;
  ws_diag d = WS_DIAG_INIT;
  assert_ok_diag(ws_model_transit_solve(&eq, &tp, &d), &d);
  ws_model_result r = transit_result(&tp, &eq);
  ws_model_set_case(&r, ws_model_transit_bound(eq.bound), "thread bound");
  r.cycles = 1;
  char base[128];
  snprintf(base, sizeof base, "%s/transit", dir);
  int st = ws_report_chart_for_result(base, &r, &d);
  if (!ws_report_chart_available()) {
    assert_int_equal(st, WS_EUNSUP);
  } else {
    assert_ok_diag(st, &d);
    static const char *const labels[] = {
        "<title>Transit: thread bound", "f(k): memory supply",
        "g(x): computation demand", "delta (1536, 8.93)", "pi (x = M = 576)",
        "equilibrium: k = 492.3, x = 531.7 threads", ">n = 1024</text>",
        "k: threads in the memory system (per SM)",
        "memory-system throughput (GB/s per SM)",
        "x = n - k: threads in the computation system", NULL};
    check_files(base, labels);
  }
  ws_diag_free(&d);
  ws_model_result_free(&r);
}

static void roofline(void **state) {
  (void)state;
  ws_model_result r = WS_MODEL_RESULT_INIT;
  r.model = "roofline";
  add(&r, WS_TERM_ROOFLINE_ARITHMETIC_INTENSITY, 2);
  add(&r, WS_TERM_ROOFLINE_PEAK_GFLOPS, 1030.4);
  add(&r, WS_TERM_ROOFLINE_BANDWIDTH_GBS, 144);
  add(&r, WS_TERM_ROOFLINE_RIDGE_POINT, 1030.4 / 144);
  add(&r, WS_TERM_ROOFLINE_ATTAINABLE_GFLOPS, 288);
  ws_model_set_case(&r, WS_BOUND_ROOFLINE_MEMORY, "memory-bound");
  r.cycles = 1;
  char base[128];
  snprintf(base, sizeof base, "%s/roofline", dir);
  ws_diag d = WS_DIAG_INIT;
  int st = ws_report_chart_roofline(base, &r, &d);
  if (!ws_report_chart_available()) {
    assert_int_equal(st, WS_EUNSUP);
  } else {
    assert_ok_diag(st, &d);
    static const char *const labels[] = {
        "<title>Roofline: memory-bound</title>", "peak FP32: 1030 GFLOP/s",
        "DRAM: 144 GB/s", "kernel: 2 FLOP/B, 288 GFLOP/s", "ridge 7.156 FLOP/B",
        "arithmetic intensity (FLOP/byte of DRAM traffic)",
        "attainable performance (GFLOP/s)", NULL};
    check_files(base, labels);
  }
  ws_diag_free(&d);
  ws_model_result_free(&r);
}

static void errors(void **state) {
  (void)state;
  if (!ws_report_chart_available()) skip();
  ws_diag d = WS_DIAG_INIT;
  ws_model_result r = gpuperf();
  /* An unwritable place. */
  assert_int_equal(ws_report_chart_benefit("/nonexistent-dir/x", &r, &d), WS_EIO);
  assert_true(d.errors >= 1);
  ws_diag_clear(&d);
  /* A result without the terms: the diagnostic names the first one. */
  ws_model_result empty = WS_MODEL_RESULT_INIT;
  empty.model = "roofline";
  assert_int_equal(ws_report_chart_roofline("/tmp/unused", &empty, &d), WS_EMISSING);
  assert_non_null(strstr(d.items[0].message, "'peak_gflops'"));
  /* Transit without DRAM traffic: Z = +inf is drawn (g is 0 everywhere). */
  ws_transit_params tp = {256, 1536, 8.93, 576, 24.8, INFINITY};
  ws_transit_eq eq;
  assert_ok_diag(ws_model_transit_solve(&eq, &tp, &d), &d);
  ws_model_result t = transit_result(&tp, &eq); /* Z = tp.z_ops_per_byte = +inf */
  char base[128];
  snprintf(base, sizeof base, "%s/transit", dir);
  assert_ok_diag(ws_report_chart_transit(base, &t, &d), &d);
  ws_model_result_free(&t);
  /* A model without a chart. */
  ws_model_result hk = WS_MODEL_RESULT_INIT;
  hk.model = "hong-kim";
  assert_int_equal(ws_report_chart_for_result("/tmp/unused", &hk, &d), WS_EUNSUP);
  ws_diag_free(&d);
  ws_model_result_free(&r);
}

/* One escaping for the HTML page and the SVG charts (report/escape.h): the
 * expected texts are the four entities written out by hand; ' and every
 * other byte pass as they are. */
static void escaping(void **state) {
  (void)state;
  static const char raw[] = "a<b & \"c\">'d";
  static const char want[] = "a&lt;b &amp; &quot;c&quot;&gt;'d";
  ws_strbuf b = WS_STRBUF_INIT;
  ws_report_xml_escape(&b, raw);
  ws_report_xml_escape(&b, NULL); /* appends nothing */
  assert_string_equal(ws_sb_str(&b), want);
  ws_sb_free(&b);

  /* the page: its <title>, its <h1> and a heading */
  ws_diag d = WS_DIAG_INIT;
  char page[128], *text = NULL;
  size_t len = 0;
  snprintf(page, sizeof page, "%s/page.html", dir);
  ws_html *h = ws_report_html_new(raw);
  assert_non_null(h);
  ws_report_html_heading(h, raw);
  assert_ok_diag(ws_report_html_write(h, page, &d), &d);
  ws_report_html_free(h);
  assert_ok_diag(ws_read_file(&text, &len, page, &d), &d);
  assert_non_null(strstr(text, "<title>a&lt;b &amp; &quot;c&quot;&gt;'d</title>"));
  assert_non_null(strstr(text, "<h2 class=\"set\">a&lt;b &amp; &quot;c&quot;&gt;'d</h2>"));
  assert_null(strstr(text, raw));
  free(text);

  /* a chart: its <title>, <desc> and a legend label in the text layer */
  if (ws_report_chart_available()) {
    static const double x[] = {1, 2}, y[] = {1, 2};
    ws_report_chart_scatter_spec sp = {raw, raw, "x", "y", 0, 0};
    ws_report_chart_series se = {raw, x, y, 2};
    char base[128], svg[160];
    snprintf(base, sizeof base, "%s/escaped", dir);
    assert_ok_diag(ws_report_chart_scatter(base, &sp, &se, 1, &d), &d);
    snprintf(svg, sizeof svg, "%s.svg", base);
    assert_ok_diag(ws_read_file(&text, &len, svg, &d), &d);
    assert_non_null(strstr(text, "<title>a&lt;b &amp; &quot;c&quot;&gt;'d</title>"));
    assert_non_null(strstr(text, "<desc>a&lt;b &amp; &quot;c&quot;&gt;'d</desc>"));
    assert_non_null(strstr(text, ">a&lt;b &amp; &quot;c&quot;&gt;'d</text>"));
    assert_null(strstr(text, raw));
    free(text);
  }
  ws_diag_free(&d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(benefit), cmocka_unit_test(clustered_labels),
      cmocka_unit_test(transit),
      cmocka_unit_test(roofline),
      cmocka_unit_test(errors),
      cmocka_unit_test(escaping),
  };
  int failed = cmocka_run_group_tests(tests, setup, teardown);
  ws_report_chart_shutdown();
  return failed;
}
