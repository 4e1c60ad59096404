/*
 * data.c — the measured data set (data/validation/README.md): CSV rows to
 * ws_valid_row, with every cell checked and errors naming file:line and the
 * column.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "warpsight/valid.h"

/* CSV GPU names to database names (the three GPUs of the data set). */
static const struct {
  const char *csv;  /* gpu_name column */
  const char *db;   /* data/gpus/<db>.json */
} gpu_map[] = {
    {"GTX-680", "gtx680"},
    {"GTX-970", "gtx970"},
    {"Tesla-K20", "k20"},
};

const char *ws_valid_gpu_name(const char *csv_name) {
  for (size_t i = 0; i < sizeof gpu_map / sizeof gpu_map[0]; i++)
    if (strcmp(gpu_map[i].csv, csv_name) == 0) return gpu_map[i].db;
  return NULL;
}

/* The columns the loader reads, in the order of the fields it fills. */
enum {
  C_GPU, C_APP, C_KERNEL, C_SIZE, C_GX, C_GY, C_GZ, C_BX, C_BY, C_BZ, C_REGS,
  C_SSMEM, C_DSMEM, C_DUR, C_COUNT
};
static const char *const col_names[C_COUNT] = {
    "gpu_name", "AppName", "Kernel", "Input.Size", "Grid.X", "Grid.Y", "Grid.Z",
    "Block.X", "Block.Y", "Block.Z", "Registers.Per.Thread", "Static.SMem",
    "Dynamic.SMem", "Duration"};

static int bad_cell(ws_diag *d, const ws_csv *c, size_t r, int col, const char *what) {
  ws_diag_add(d, WS_SEV_ERROR, c->origin, c->lines[r], 0, "column %s: %s, got '%s'",
              c->header[col], what, ws_csv_cell(c, r, (size_t)col));
  return WS_EINVAL;
}

/* A whole number in [lo, hi]. */
static int get_int(int64_t *out, ws_diag *d, const ws_csv *c, size_t r, int col,
                   int64_t lo, int64_t hi) {
  const char *s = ws_csv_cell(c, r, (size_t)col);
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (!*s || *end || errno) return bad_cell(d, c, r, col, "expected a whole number");
  if (v < lo || v > hi) {
    ws_diag_add(d, WS_SEV_ERROR, c->origin, c->lines[r], 0,
                "column %s: %lld is out of range [%lld, %lld]", c->header[col], v,
                (long long)lo, (long long)hi);
    return WS_EINVAL;
  }
  *out = v;
  return WS_OK;
}

int ws_valid_load_text(ws_valid_data **out, const char *text, size_t len,
                       const char *origin, ws_diag *d) {
  *out = NULL;
  ws_csv *c;
  int st = ws_csv_parse(&c, text, len, origin, d);
  if (st) return st;
  int col[C_COUNT];
  for (int k = 0; k < C_COUNT; k++) {
    col[k] = ws_csv_column(c, col_names[k]);
    if (col[k] < 0) {
      ws_diag_add(d, WS_SEV_ERROR, c->origin, 1, 0, "missing column '%s'", col_names[k]);
      st = WS_EINVAL;
    }
  }
  if (st) {
    ws_csv_free(c);
    return st;
  }
  ws_valid_data *v = calloc(1, sizeof *v);
  if (!v || !(v->rows = calloc(c->nrows ? c->nrows : 1, sizeof *v->rows))) {
    free(v);
    ws_csv_free(c);
    return WS_ENOMEM;
  }
  v->csv = c;
  v->nrows = c->nrows;
  for (size_t r = 0; r < c->nrows; r++) {
    ws_valid_row *w = &v->rows[r];
    int64_t x;
    w->line = c->lines[r];
    w->gpu_csv = ws_csv_cell(c, r, (size_t)col[C_GPU]);
    w->gpu = ws_valid_gpu_name(w->gpu_csv);
    if (!w->gpu) {
      st = bad_cell(d, c, r, col[C_GPU], "unknown GPU (known: GTX-680, GTX-970, Tesla-K20)");
      continue;
    }
    w->kernel = ws_csv_cell(c, r, (size_t)col[C_APP]);
    if (!ws_valid_kernel_known(w->kernel)) {
      st = bad_cell(d, c, r, col[C_APP], "unknown kernel (see docs/validation.md)");
      continue;
    }
    w->signature = ws_csv_cell(c, r, (size_t)col[C_KERNEL]);
    int s = get_int(&x, d, c, r, col[C_SIZE], 1, INT32_MAX);
    w->input_size = x;
    static const int dims[6] = {C_GX, C_GY, C_GZ, C_BX, C_BY, C_BZ};
    for (int k = 0; k < 6 && !s; k++) {
      s = get_int(&x, d, c, r, col[dims[k]], 1, k < 3 ? INT32_MAX : 1024);
      if (!s) (k < 3 ? w->grid : w->block)[k % 3] = (uint32_t)x;
    }
    if (!s && !(s = get_int(&x, d, c, r, col[C_REGS], 0, 255))) w->regs = (int)x;
    if (!s && !(s = get_int(&x, d, c, r, col[C_SSMEM], 0, 1 << 20))) w->static_smem = (int)x;
    if (!s && !(s = get_int(&x, d, c, r, col[C_DSMEM], 0, 1 << 20))) w->dynamic_smem = (int)x;
    if (!s) {
      const char *t = ws_csv_cell(c, r, (size_t)col[C_DUR]);
      char *end;
      double dur = strtod(t, &end);
      if (!*t || *end || !isfinite(dur) || dur <= 0)
        s = bad_cell(d, c, r, col[C_DUR], "expected a positive time in seconds");
      else
        w->measured_s = dur;
    }
    if (s) st = s;
    if (d && d->errors >= 20) break; /* enough to go on */
  }
  if (!st) st = ws_valid_assign_halves(v);
  if (st) {
    ws_valid_data_free(v);
    return st;
  }
  *out = v;
  return WS_OK;
}

int ws_valid_load(ws_valid_data **out, const char *path, ws_diag *d) {
  char *text;
  size_t len;
  *out = NULL;
  int st = ws_read_file(&text, &len, path, d);
  if (st) return st;
  st = ws_valid_load_text(out, text, len, path, d);
  free(text);
  return st;
}

void ws_valid_data_free(ws_valid_data *v) {
  if (!v) return;
  ws_csv_free(v->csv);
  free(v->rows);
  free(v);
}
