/* test_valid_csv.c — the CSV reader and the measured data set loader. */
#include <string.h>

#include "testutil.h"
#include "warpsight/valid.h"

static ws_csv *parse_ok(const char *text) {
  ws_diag d = WS_DIAG_INIT;
  ws_csv *c = NULL;
  assert_ok_diag(ws_csv_parse(&c, text, strlen(text), "t.csv", &d), &d);
  ws_diag_free(&d);
  return c;
}

/* Parse `text`, expect an error whose formatted text contains `want`. */
static void parse_err(const char *text, const char *want) {
  ws_diag d = WS_DIAG_INIT;
  ws_csv *c = NULL;
  assert_int_equal(ws_csv_parse(&c, text, strlen(text), "t.csv", &d), WS_EINVAL);
  assert_null(c);
  char *s = ws_diag_format(&d);
  if (!strstr(s, want)) {
    print_error("expected '%s' in:\n%s\n", want, s);
    fail();
  }
  free(s);
  ws_diag_free(&d);
}

static void test_quoted_commas(void **state) {
  (void)state;
  ws_csv *c = parse_ok("name,sig,n\r\n"
                       "dot,\"dotProd(float*, float*, float*, int)\",7\r\n"
                       "q,\"say \"\"hi\"\"\",\n");
  assert_int_equal(c->ncols, 3);
  assert_int_equal(c->nrows, 2);
  assert_string_equal(ws_csv_cell(c, 0, 1), "dotProd(float*, float*, float*, int)");
  assert_string_equal(ws_csv_cell(c, 0, 2), "7");
  assert_string_equal(ws_csv_cell(c, 1, 1), "say \"hi\"");
  assert_string_equal(ws_csv_cell(c, 1, 2), ""); /* empty last field */
  assert_int_equal(c->lines[0], 2);
  assert_int_equal(c->lines[1], 3);
  assert_int_equal(ws_csv_column(c, "sig"), 1);
  assert_int_equal(ws_csv_column(c, "nope"), -1);
  ws_csv_free(c);
}

static void test_newline_in_quotes_and_line_numbers(void **state) {
  (void)state;
  /* row 1 spans lines 2-3, so row 2 starts on line 4 */
  ws_csv *c = parse_ok("a,b\n\"x\ny\",1\nz,2");
  assert_int_equal(c->nrows, 2);
  assert_string_equal(ws_csv_cell(c, 0, 0), "x\ny");
  assert_int_equal(c->lines[1], 4);
  assert_string_equal(ws_csv_cell(c, 1, 1), "2"); /* no final newline */
  ws_csv_free(c);
}

static void test_trailing_blank_lines(void **state) {
  (void)state;
  ws_csv *c = parse_ok("a,b\n1,2\n\n\n");
  assert_int_equal(c->nrows, 1);
  ws_csv_free(c);
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
           "m.csv:2: error: column gpu_name: unknown GPU");
  load_err("GTX-680,3,1,1,fooKernel,\"v\",64,1,1,1,64,1,1,10,0,0,1e-5\n",
           "m.csv:2: error: column AppName: unknown kernel");
  load_err("GTX-680,3,1,1,vectorAdd,\"v\",6x4,1,1,1,64,1,1,10,0,0,1e-5\n",
           "m.csv:2: error: column Input.Size: expected a whole number, got '6x4'");
  load_err("GTX-680,3,1,1,vectorAdd,\"v\",64,1,1,1,2048,1,1,10,0,0,1e-5\n",
           "m.csv:2: error: column Block.X: 2048 is out of range [1, 1024]");
  load_err("GTX-680,3,1,1,vectorAdd,\"v\",64,1,1,1,64,1,1,10,0,0,NA\n",
           "m.csv:2: error: column Duration: expected a positive time in seconds, got 'NA'");
  load_err("GTX-680,3,1,1,vectorAdd,\"v\",64,1,1,1,64,1,1,10,0,0,-1\n",
           "column Duration: expected a positive time");
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
  assert_string_equal(ws_valid_gpu_name("GTX-680"), "gtx680");
  assert_string_equal(ws_valid_gpu_name("GTX-970"), "gtx970");
  assert_string_equal(ws_valid_gpu_name("Tesla-K20"), "k20");
  assert_null(ws_valid_gpu_name("GTX-780"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_quoted_commas),
      cmocka_unit_test(test_newline_in_quotes_and_line_numbers),
      cmocka_unit_test(test_trailing_blank_lines),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_load_errors),
      cmocka_unit_test(test_load_dataset),
      cmocka_unit_test(test_gpu_names),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
