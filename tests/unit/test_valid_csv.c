/* test_valid_csv.c — the CSV reader and the measured data set loader. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "valid/valid_int.h"
#include "warpsight/valid.h"

static ws_csv *parse_ok(const char *text) {
  ws_diag d = WS_DIAG_INIT;
  ws_csv *c = NULL;
  assert_ok_diag(ws_valid_csv_parse(&c, text, strlen(text), "t.csv", &d), &d);
  ws_diag_free(&d);
  return c;
}

/* Parse `text`, expect an error whose formatted text contains `want`. */
static void parse_err(const char *text, const char *want) {
  ws_diag d = WS_DIAG_INIT;
  ws_csv *c = NULL;
  assert_int_equal(ws_valid_csv_parse(&c, text, strlen(text), "t.csv", &d), WS_EINVAL);
  assert_null(c);
  assert_diag_has(&d, want);
  ws_diag_free(&d);
}

static void test_quoted_commas(void **state) {
  (void)state;
  ws_csv *c = parse_ok("name,sig,n\r\n"
                       "dot,\"dotProd(float*, float*, float*, int)\",7\r\n"
                       "q,\"say \"\"hi\"\"\",\n");
  assert_int_equal(c->ncols, 3);
  assert_int_equal(c->nrows, 2);
  assert_string_equal(ws_valid_csv_cell(c, 0, 1), "dotProd(float*, float*, float*, int)");
  assert_string_equal(ws_valid_csv_cell(c, 0, 2), "7");
  assert_string_equal(ws_valid_csv_cell(c, 1, 1), "say \"hi\"");
  assert_string_equal(ws_valid_csv_cell(c, 1, 2), ""); /* empty last field */
  assert_int_equal(c->lines[0], 2);
  assert_int_equal(c->lines[1], 3);
  assert_int_equal(ws_valid_csv_column(c, "sig"), 1);
  assert_int_equal(ws_valid_csv_column(c, "nope"), -1);
  ws_valid_csv_free(c);
}

static void test_newline_in_quotes_and_line_numbers(void **state) {
  (void)state;
  /* row 1 spans lines 2-3, so row 2 starts on line 4 */
  ws_csv *c = parse_ok("a,b\n\"x\ny\",1\nz,2");
  assert_int_equal(c->nrows, 2);
  assert_string_equal(ws_valid_csv_cell(c, 0, 0), "x\ny");
  assert_int_equal(c->lines[1], 4);
  assert_string_equal(ws_valid_csv_cell(c, 1, 1), "2"); /* no final newline */
  ws_valid_csv_free(c);
}

static void test_trailing_blank_lines(void **state) {
  (void)state;
  ws_csv *c = parse_ok("a,b\n1,2\n\n\n");
  assert_int_equal(c->nrows, 1);
  ws_valid_csv_free(c);
}

/* Issue 24, rows 14 and 6: a NUL byte (it once cut a cell in silence), a
 * column named twice (the first one won), and the cell limit. */
static void test_nul_duplicate_limit(void **state) {
  (void)state;
  ws_diag d = WS_DIAG_INIT;
  ws_csv *c = NULL;
  static const char nul[] = "a,b\n1,x\0y\n";
  assert_int_equal(ws_valid_csv_parse(&c, nul, sizeof nul - 1, "t.csv", &d), WS_EINVAL);
  char *s = ws_diag_format(&d);
  assert_non_null(strstr(s, "t.csv:2:4: error: a NUL byte in field 2: a CSV file is text"));
  free(s);
  ws_diag_free(&d);
  static const char qnul[] = "a,b\n1,\"x\0y\"\n";
  assert_int_equal(ws_valid_csv_parse(&c, qnul, sizeof qnul - 1, "t.csv", &d), WS_EINVAL);
  s = ws_diag_format(&d);
  assert_non_null(strstr(s, "t.csv:2:5: error: a NUL byte in field 2"));
  free(s);
  ws_diag_free(&d);
  parse_err("seconds,gpu,seconds\n1,2,3\n",
            "t.csv:1: error: column 3 ('seconds') has the same name as column 1");
  /* 3 x 3 = 9 cells with a limit of 8: the error names it and the variable */
  setenv("WARPSIGHT_MAX_CSV_CELLS", "8", 1);
  parse_err("a,b,c\n1,2,3\n4,5,6\n",
            "t.csv:3:5: error: more than 8 cells: the limit for a CSV input (raise it with "
            "the environment variable WARPSIGHT_MAX_CSV_CELLS=N)");
  setenv("WARPSIGHT_MAX_CSV_CELLS", "9", 1);
  c = parse_ok("a,b,c\n1,2,3\n4,5,6\n");
  assert_string_equal(ws_valid_csv_cell(c, 1, 2), "6");
  ws_valid_csv_free(c);
  unsetenv("WARPSIGHT_MAX_CSV_CELLS");
  assert_int_equal(ws_valid_csv_max_cells(), WS_CSV_MAX_CELLS);
}

/* Parsed in place (the file's text becomes the cells): the same cells as
 * from a copy, and errors quote the text as it was. */
static void test_in_place(void **state) {
  (void)state;
  static const char t[] = "\xEF\xBB\xBF" "a,\"b\"\"q\",c\r\n,\"x,\ny\",\r\n\"\"\"\",2,3";
  ws_diag d = WS_DIAG_INIT;
  ws_csv *c = NULL;
  char *own = malloc(sizeof t);
  memcpy(own, t, sizeof t);
  assert_ok_diag(ws_valid_csv_parse_owned(&c, own, sizeof t - 1, "t.csv", &d), &d);
  assert_int_equal(c->ncols, 3);
  assert_int_equal(c->nrows, 2);
  assert_string_equal(c->header[0], "a");
  assert_string_equal(c->header[1], "b\"q");
  assert_string_equal(ws_valid_csv_cell(c, 0, 0), "");
  assert_string_equal(ws_valid_csv_cell(c, 0, 1), "x,\ny");
  assert_string_equal(ws_valid_csv_cell(c, 0, 2), "");
  assert_string_equal(ws_valid_csv_cell(c, 1, 0), "\"");
  assert_string_equal(ws_valid_csv_cell(c, 1, 2), "3");
  assert_int_equal(c->lines[1], 4);
  ws_valid_csv_free(c);
  static const char bad[] = "a,b\n1,2\n3,4,5\n";
  own = malloc(sizeof bad);
  memcpy(own, bad, sizeof bad);
  assert_int_equal(ws_valid_csv_parse_owned(&c, own, sizeof bad - 1, "t.csv", &d), WS_EINVAL);
  assert_non_null(d.count ? d.items[0].source_line : NULL);
  assert_string_equal(d.items[0].source_line, "3,4,5");
  ws_diag_free(&d);
}

static void test_errors(void **state) {
  (void)state;
  parse_err("a,b\n1,2,3\n", "t.csv:2:1: error: 3 fields, but the header has 2");
  parse_err("a,b\n\"open,2\n", "t.csv:2:1: error: unterminated quoted field");
  parse_err("a,b\n\"x\"y,2\n", "t.csv:2:4: error: unexpected character after a closing quote");
  parse_err("a,b\n1,x\"y\n", "t.csv:2:4: error: quote inside an unquoted field");
  parse_err("", "empty file");
  parse_err("a,b\n1,2\n\n3,4\n", "t.csv:3:1: error: 1 fields, but the header has 2");
}

static const char header[] =
    "gpu_name,compute_version,max_clock_rate,num_of_cores,AppName,Kernel,Input.Size,Grid.X,"
    "Grid.Y,Grid.Z,Block.X,Block.Y,Block.Z,Registers.Per.Thread,Static.SMem,Dynamic.SMem,"
    "Duration\n";

static void load_err(const char *row, const char *want) {
  char text[2048];
  snprintf(text, sizeof text, "%s%s", header, row);
  ws_diag d = WS_DIAG_INIT;
  ws_valid_data *v = NULL;
  assert_int_equal(ws_valid_load_text(&v, text, strlen(text), "m.csv", &d), WS_EINVAL);
  assert_null(v);
  char *s = ws_diag_format(&d);
  if (!strstr(s, want)) {
    print_error("expected '%s' in:\n%s\n", want, s);
    fail();
  }
  free(s);
  ws_diag_free(&d);
}

static void test_load_errors(void **state) {
  (void)state;
  load_err("GTX-999,3,1,1,vectorAdd,\"v\",64,1,1,1,64,1,1,10,0,0,1e-5\n",
           "m.csv:2: error: column gpu_name: unknown GPU name 'GTX-999' (1 row, first on line 2)");
  load_err("GTX-680,3,1,1,fooKernel,\"v\",64,1,1,1,64,1,1,10,0,0,1e-5\n",
           "m.csv:2: error: column AppName: unknown kernel");
  load_err("GTX-680,3,1,1,vectorAdd,\"v\",6x4,1,1,1,64,1,1,10,0,0,1e-5\n",
           "m.csv:2: error: column Input.Size: expected a whole number, got '6x4'");
  load_err("GTX-680,3,1,1,vectorAdd,\"v\",64,1,1,1,2048,1,1,10,0,0,1e-5\n",
           "m.csv:2: error: column Block.X: 2048 is out of range [1, 1024]");
  load_err("GTX-680,3,1,1,vectorAdd,\"v\",64,1,1,1,64,1,1,10,0,0,NA\n",
           "m.csv:2: error: column Duration: expected a positive time in seconds, a decimal number from 1e-9 to 1e6, got 'NA'");
  load_err("GTX-680,3,1,1,vectorAdd,\"v\",64,1,1,1,64,1,1,10,0,0,-1\n",
           "column Duration: expected a positive time");
  /* issue 24, row 14: what strtod takes but a measured time is not.  A
   * subnormal 1e-320 s made every error "inf%" with exit 0; a hex float, a
   * time past 1e6 s, infinity and a value with spaces were accepted. */
  static const char *const bad_times[] = {"1e-320", "0x1p-3", "1e300", "inf", " 1e-5",
                                          "1e-5 ", "5e-10", "1e-5x", ".", "1e"};
  for (size_t i = 0; i < sizeof bad_times / sizeof *bad_times; i++) {
    char row[160], want[160];
    snprintf(row, sizeof row, "GTX-680,3,1,1,vectorAdd,\"v\",64,1,1,1,64,1,1,10,0,0,%s\n",
             bad_times[i]);
    snprintf(want, sizeof want, "m.csv:2: error: column Duration: expected a positive time in "
                                "seconds, a decimal number from 1e-9 to 1e6, got '%s'", bad_times[i]);
    load_err(row, want);
  }
  /* whole numbers are digits only: strtoll took a sign and spaces */
  load_err("GTX-680,3,1,1,vectorAdd,\"v\",+64,1,1,1,64,1,1,10,0,0,1e-5\n",
           "m.csv:2: error: column Input.Size: expected a whole number, got '+64'");
  load_err("GTX-680,3,1,1,vectorAdd,\"v\", 64,1,1,1,64,1,1,10,0,0,1e-5\n",
           "m.csv:2: error: column Input.Size: expected a whole number, got ' 64'");
  /* a missing column */
  ws_diag d = WS_DIAG_INIT;
  ws_valid_data *v = NULL;
  const char *t = "gpu_name,AppName\nGTX-680,vectorAdd\n";
  assert_int_equal(ws_valid_load_text(&v, t, strlen(t), "m.csv", &d), WS_EINVAL);
  char *s = ws_diag_format(&d);
  assert_non_null(strstr(s, "m.csv:1: error: missing column 'Kernel'"));
  free(s);
  ws_diag_free(&d);
}

/* The shipped data set: 3,100 rows (data/validation/README.md). */
static void test_load_dataset(void **state) {
  (void)state;
  ws_diag d = WS_DIAG_INIT;
  ws_valid_data *v = NULL;
  assert_ok_diag(ws_valid_load(&v, WS_SOURCE_DIR "/data/validation/amaris-measured-dev.csv", &d),
                 &d);
  assert_int_equal(v->nrows, 3100);
  /* line 2: GTX-680,...,dotProd,"dotProd(float*, float*, float*, int)",131072,2048,1,1,64,1,1,
   * 13,256,0,3.3313e-05 */
  const ws_valid_row *r = &v->rows[0];
  assert_int_equal(r->line, 2);
  assert_string_equal(r->gpu, "gtx680");
  assert_string_equal(r->kernel, "dotProd");
  assert_string_equal(r->signature, "dotProd(float*, float*, float*, int)");
  assert_int_equal(r->input_size, 131072);
  assert_int_equal(r->grid[0], 2048);
  assert_int_equal(r->block[0], 64);
  assert_int_equal(r->regs, 13);
  assert_int_equal(r->static_smem, 256);
  assert_close(r->measured_s, 3.3313e-05, 1e-12);
  size_t per_gpu[3] = {0};
  for (size_t i = 0; i < v->nrows; i++) {
    const char *g = v->rows[i].gpu;
    per_gpu[!strcmp(g, "gtx680") ? 0 : !strcmp(g, "gtx970") ? 1 : 2]++;
  }
  /* counted with: cut -d, -f1 data/validation/amaris-measured-dev.csv | sort | uniq -c */
  assert_int_equal(per_gpu[0], 982);
  assert_int_equal(per_gpu[1], 1059);
  assert_int_equal(per_gpu[2], 1059);
  ws_valid_data_free(v);
  ws_diag_free(&d);
}

static void test_gpu_names(void **state) {
  (void)state;
  /* Every board of the Amaris et al. data set, as its deviceInfo.csv spells
   * it, against the database entry written by hand from the board names
   * (deviceInfo's "Quadro" is the K5200: 2304 cores, 771 MHz, 256 bits). */
  static const char *const want[][2] = {
      {"GTX-680", "gtx680"},        {"GTX-970", "gtx970"},
      {"GTX-980", "gtx980"},        {"Tesla-K20", "k20"},
      {"Tesla-K40", "k40"},         {"Titan", "titan"},
      {"TitanBlack", "titan-black"}, {"TitanX", "titan-x-maxwell"},
      {"Quadro", "quadro-k5200"},
      /* the names CUDA reports for today's boards (issue 20) */
      {"NVIDIA GeForce RTX 3080", "rtx3080"},
      {"NVIDIA GeForce RTX 3060 Laptop GPU", "rtx3060-laptop"},
      {"NVIDIA GeForce GTX 1650", "gtx1650-gddr6"},
      {"NVIDIA A100-PCIE-40GB", "a100-pcie-40gb"},
      {"NVIDIA H100 80GB HBM3", "h100-sxm"},
      /* and the reference table's boards (deviceQuery and nvprof spellings) */
      {"Tesla P100-PCIE-16GB", "p100-pcie"},
      {"Tesla P100-SXM2-16GB", "p100-sxm2"},
      {"GeForce GTX 1080", "gtx1080"},
      {"TITAN V", "titan-v"},
      {"Tesla K80", "k80"}};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    const char *g = ws_valid_gpu_name(want[i][0]);
    if (!g || strcmp(g, want[i][1])) {
      print_error("%s -> %s, expected %s\n", want[i][0], g ? g : "NULL", want[i][1]);
      fail();
    }
  }
  assert_int_equal(ws_valid_gpu_table_count(), 9 + 34 + 5);
  /* a database name maps to itself, whether or not the data set has it */
  assert_string_equal(ws_valid_gpu_name("k40"), "k40");
  assert_string_equal(ws_valid_gpu_name("gtx280"), "gtx280");
  assert_null(ws_valid_gpu_name("GTX-780"));
  assert_null(ws_valid_gpu_name("GTX-750")); /* in deviceInfo.csv, not in the database */
  char *known = ws_valid_gpu_known();
  assert_non_null(strstr(known, "TitanBlack (titan-black)"));
  assert_non_null(strstr(known, " k40"));
  free(known);
}

/* The table in data/validation/ (the embedded copy must be the file) and
 * its compute_version column (copied from deviceInfo.csv) against the
 * database entry each row names: a wrong mapping would show as a different
 * compute capability for most boards. */
static void test_gpu_table_file(void **state) {
  (void)state;
  ws_diag d = WS_DIAG_INIT;
  ws_csv *c = NULL;
  assert_ok_diag(ws_valid_csv_read(&c, WS_SOURCE_DIR "/data/validation/gpu-names.csv", &d), &d);
  int cn = ws_valid_csv_column(c, "csv_name"), cg = ws_valid_csv_column(c, "gpu"),
      cv = ws_valid_csv_column(c, "compute_version"), cs = ws_valid_csv_column(c, "source");
  assert_true(cn >= 0 && cg >= 0 && cv >= 0 && cs >= 0);
  assert_int_equal(c->nrows, ws_valid_gpu_table_count());
  for (size_t r = 0; r < c->nrows; r++) {
    assert_string_equal(ws_valid_csv_cell(c, r, (size_t)cn), ws_valid_gpu_table_csv(r));
    assert_string_equal(ws_valid_csv_cell(c, r, (size_t)cg), ws_valid_gpu_table_db(r));
    assert_true(strlen(ws_valid_csv_cell(c, r, (size_t)cs)) > 0);
    ws_gpu *g = NULL;
    assert_ok_diag(ws_gpu_load(&g, ws_valid_csv_cell(c, r, (size_t)cg), &d), &d);
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", g->cc_major, g->cc_minor);
    assert_string_equal(cc, ws_valid_csv_cell(c, r, (size_t)cv));
    ws_gpu_free(g);
  }
  ws_valid_csv_free(c);
  ws_diag_free(&d);
}

/* Unknown GPU names: ONE error naming each spelling with its row count and
 * first line, and listing the known names; an extra name (a --gpu-file
 * board) is accepted as it is. */
static void test_unknown_gpu_once(void **state) {
  (void)state;
  char text[4096];
  const char *row = ",3,1,1,vectorAdd,\"v\",64,1,1,1,64,1,1,10,0,0,1e-5\n";
  snprintf(text, sizeof text, "%sGTX-999%sGTX-680%sGTX-999%sGTX-750%s", header, row, row, row,
           row);
  ws_diag d = WS_DIAG_INIT;
  ws_valid_data *v = NULL;
  assert_int_equal(ws_valid_load_text(&v, text, strlen(text), "m.csv", &d), WS_EINVAL);
  assert_null(v);
  assert_int_equal(d.errors, 1);
  char *s = ws_diag_format(&d);
  assert_non_null(strstr(s, "m.csv:2: error: column gpu_name: unknown GPU names 'GTX-999' "
                            "(2 rows, first on line 2), 'GTX-750' (1 row, first on line 5); "
                            "known: GTX-680 (gtx680), "));
  assert_non_null(strstr(s, "Quadro (quadro-k5200)"));
  free(s);
  ws_diag_free(&d);
  const char *const extra[] = {"GTX-999", "GTX-750"};
  assert_ok_diag(ws_valid_load_text_ex(&v, text, strlen(text), "m.csv", extra, 2, 0, &d), &d);
  assert_int_equal(v->nrows, 4);
  assert_string_equal(v->rows[0].gpu, "GTX-999");
  assert_string_equal(v->rows[1].gpu, "gtx680");
  assert_string_equal(v->rows[3].gpu, "GTX-750");
  ws_valid_data_free(v);
  ws_diag_free(&d);
}

/* A UTF-8 byte-order mark before the header (spreadsheets write one) is
 * not part of the first column's name. */
static void test_bom(void **state) {
  (void)state;
  char text[4096];
  snprintf(text, sizeof text, "\xEF\xBB\xBF%sGTX-680,3,1,1,vectorAdd,\"v\",64,1,1,1,64,1,1,"
                              "10,0,0,1e-5\n", header);
  ws_diag d = WS_DIAG_INIT;
  ws_valid_data *v = NULL;
  assert_ok_diag(ws_valid_load_text(&v, text, strlen(text), "m.csv", &d), &d);
  assert_int_equal(v->nrows, 1);
  assert_string_equal(v->csv->header[0], "gpu_name");
  assert_string_equal(v->rows[0].gpu, "gtx680");
  ws_valid_data_free(v);
  /* columns of the first line count from after the mark */
  parse_err("\xEF\xBB\xBF" "a,\"b\"x\n", "t.csv:1:6: error: unexpected character");
  ws_diag_free(&d);
}

/* The generic format: files resolved against the data file's folder, the
 * launch's grid and block, the kernel from the spec, size defaulting to the
 * launch's threads, and the optional measured resources.  The data file
 * need not exist: only its folder is used (examples/kernels/, which holds
 * vecadd.sm_80.ptx and vecadd.launch.json: grid 391, block 256). */
static void test_generic(void **state) {
  (void)state;
  static const char text[] =
      "kernel_file,launch,gpu,seconds,registers,shared_bytes,size\n"
      "vecadd.sm_80.ptx,vecadd.launch.json,GTX-680,1e-5,,,\n"
      "vecadd.sm_80.ptx,vecadd.launch.json,k20,2e-5,32,1024,77\n";
  const char *origin = WS_SOURCE_DIR "/examples/kernels/my-data.csv";
  ws_diag d = WS_DIAG_INIT;
  ws_valid_data *v = NULL;
  assert_ok_diag(ws_valid_load_text(&v, text, strlen(text), origin, &d), &d);
  assert_true(v->generic);
  assert_int_equal(v->nrows, 2);
  const ws_valid_row *a = &v->rows[0], *b = &v->rows[1];
  assert_string_equal(a->kernel, "vecadd");
  assert_string_equal(a->kernel_file, WS_SOURCE_DIR "/examples/kernels/vecadd.sm_80.ptx");
  assert_string_equal(a->launch_file, WS_SOURCE_DIR "/examples/kernels/vecadd.launch.json");
  assert_string_equal(a->gpu, "gtx680");
  assert_int_equal(a->grid[0], 391);
  assert_int_equal(a->block[0], 256);
  assert_int_equal(a->input_size, 391 * 256); /* no size: the launch's threads */
  assert_int_equal(a->regs, -1);
  assert_int_equal(a->static_smem, -1);
  assert_close(a->measured_s, 1e-5, 1e-18);
  assert_string_equal(b->gpu, "k20");
  assert_int_equal(b->input_size, 77);
  assert_int_equal(b->regs, 32);
  assert_int_equal(b->static_smem, 1024);
  assert_int_equal(b->dynamic_smem, 0);
  /* What the models see: row a keeps the profile's resources and
   * occupancy, row b replaces what it measured and clears the occupancy
   * (recomputed for the GPU). */
  ws_profile p = {0}, m;
  p.f.registers_per_thread = 12;
  p.f.shared_bytes_per_block = 0;
  p.f.active_blocks_per_sm = 8;
  ws_valid_measured_profile(&m, &p, a);
  assert_close(m.f.registers_per_thread, 12, 0);
  assert_close(m.f.active_blocks_per_sm, 8, 0);
  ws_valid_measured_profile(&m, &p, b);
  assert_close(m.f.registers_per_thread, 32, 0);
  assert_close(m.f.shared_bytes_per_block, 1024, 0);
  assert_true(isnan(m.f.active_blocks_per_sm));
  ws_valid_data_free(v);
  /* a bad optional cell names the column */
  static const char bad[] = "kernel_file,launch,gpu,seconds,registers\n"
                            "vecadd.sm_80.ptx,vecadd.launch.json,k20,2e-5,300\n";
  assert_int_equal(ws_valid_load_text(&v, bad, strlen(bad), origin, &d), WS_EINVAL);
  char *msg = ws_diag_format(&d);
  assert_non_null(strstr(msg, "my-data.csv:2: error: column registers: expected a whole number "
                              "in [0, 255], got '300'"));
  free(msg);
  ws_diag_free(&d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_quoted_commas),
      cmocka_unit_test(test_newline_in_quotes_and_line_numbers),
      cmocka_unit_test(test_trailing_blank_lines),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_nul_duplicate_limit),
      cmocka_unit_test(test_in_place),
      cmocka_unit_test(test_load_errors),
      cmocka_unit_test(test_load_dataset),
      cmocka_unit_test(test_gpu_names),
      cmocka_unit_test(test_gpu_table_file),
      cmocka_unit_test(test_unknown_gpu_once),
      cmocka_unit_test(test_bom),
      cmocka_unit_test(test_generic),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
