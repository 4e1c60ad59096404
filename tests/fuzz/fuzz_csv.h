/*
 * fuzz_csv.h — the body of the two measured-times CSV harnesses
 * (fuzz_csv_amaris.c, fuzz_csv_generic.c): each input, after the header of
 * its format (FUZZ_CSV_HEADER), is loaded with ws_valid_load_text as a file
 * in a folder made once that holds a launch spec (l.json) and a GPU file
 * (g.json) for the generic rows to name; files elsewhere are refused
 * (outside the data folder).  The loaded rows are checked: a positive
 * finite time, a kernel and a GPU name each.  Errors are expected; a
 * crash, a sanitizer report, a hang or a bad row is a finding.  See
 * docs/fuzzing.md.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "warpsight/valid_data.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The data folder (made on the first input) and the data file's name in it. */
static char origin[600];

static void write_file(const char *dir, const char *name, const char *text) {
  char path[700];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

static char folder[600];

static void remove_folder(void) {
  static const char *const names[] = {"l.json", "g.json"};
  char path[700];
  for (size_t i = 0; i < 2; i++) {
    snprintf(path, sizeof path, "%s/%s", folder, names[i]);
    unlink(path);
  }
  rmdir(folder);
}

static void make_folder(void) {
  char dir[] = "/tmp/ws-fuzz-csv-XXXXXX";
  if (!mkdtemp(dir)) abort();
  snprintf(folder, sizeof folder, "%s", dir);
  atexit(remove_folder);
  write_file(dir, "l.json",
             "{\"kernel\": \"vecadd\", \"grid\": [4,1,1], \"block\": [256,1,1], \"args\": []}\n");
  write_file(dir, "g.json",
             "{\"schema\": \"warpsight-gpu/1\", \"name\": \"fuzz-gpu\", \"full_name\": \"F\", "
             "\"architecture\": \"Ampere\", \"compute_capability\": \"8.0\", \"sms\": 108, "
             "\"clock_ghz\": 1.41, \"mem_bandwidth_gbs\": 1555}\n");
  snprintf(origin, sizeof origin, "%s/data.csv", dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!origin[0]) make_folder();
  size_t h = strlen(FUZZ_CSV_HEADER);
  char *text = malloc(h + size + 1);
  if (!text) return 0;
  memcpy(text, FUZZ_CSV_HEADER, h);
  memcpy(text + h, data, size);
  text[h + size] = '\0';
  ws_diag d = WS_DIAG_INIT;
  ws_valid_data *v = NULL;
  if (ws_valid_load_text(&v, text, h + size, origin, &d) == WS_OK) {
    for (size_t i = 0; i < v->nrows; i++) {
      const ws_valid_row *r = &v->rows[i];
      if (!(r->measured_s >= WS_VALID_MIN_SECONDS && r->measured_s <= WS_VALID_MAX_SECONDS) ||
          !r->kernel || !r->gpu || r->line < 2)
        abort();
    }
  }
  free(ws_diag_format(&d));
  ws_valid_data_free(v);
  ws_diag_free(&d);
  free(text);
  return 0;
}
