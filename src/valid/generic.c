/*
 * generic.c — the generic measured-data format (docs/validation.md, "Your own
 * kernels"): one CSV row per measured launch, with the kernel's file, the
 * launch spec's file, the GPU and the measured seconds, so a user validates
 * and calibrates on their own kernels.
 *
 *   kernel_file,kernel,launch,gpu,seconds
 *   kernels/saxpy.ptx,saxpy,launches/saxpy-1m.json,gtx680,5.1e-05
 *
 * Required columns: kernel_file (PTX, or .cu compiled with nvcc), launch (a
 * launch spec, DESIGN.md), gpu (a database or data set name, or a GPU file),
 * seconds.  Optional: kernel (must equal the spec's "kernel"; the spec's is
 * used when absent), size (a whole number that orders the rows of a kernel
 * for the calibration split; default: the launch's threads), registers
 * and shared_bytes (the measured build's registers per thread and static +
 * dynamic shared bytes per block; default: what `ptxas -v` allocates,
 * profile_run.c, else the profile's), l2 (cold or warm:
 * the L2 at the start of the measured launch; default: the spec's).  Files are
 * relative to the data file's folder.  Each spec is read here, so a bad one
 * is an error before anything is predicted; the row keeps its grid, block
 * and dynamic shared bytes, and the launch is read again when predicted.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/demangle.h"
#include "util/strbuf.h"
#include "valid/valid_int.h"
#include "warpsight/emu.h"
#include "warpsight/gpu.h"
#include "warpsight/valid_data.h"

enum { G_FILE, G_LAUNCH, G_GPU, G_SECONDS, G_KERNEL, G_SIZE, G_REGS, G_SMEM, G_L2, G_COUNT };
static const char *const gcol_names[G_COUNT] = {"kernel_file", "launch", "gpu", "seconds",
                                                "kernel", "size", "registers", "shared_bytes",
                                                "l2"};
enum { G_REQUIRED = 4 }; /* the first four columns must be present */


/* The launch spec of row r: grid, block, shared bytes and kernel name into
 * the row. */
static int row_launch(ws_valid_data *v, size_t r, const int *col, ws_diag *d) {
  const ws_csv *c = v->csv;
  ws_valid_row *w = &v->rows[r];
  const char *cell = ws_valid_csv_cell(c, r, (size_t)col[G_LAUNCH]);
  if (!*cell) return ws_valid_bad_cell(d, c, r, col[G_LAUNCH], "expected a launch spec file");
  int st = ws_valid_data_file(&w->launch_file, v, r, col[G_LAUNCH], cell, d);
  if (st) return st;
  ws_launch_spec *s = NULL;
  st = ws_emu_launch_spec_load(&s, w->launch_file, d);
  if (st) {
    ws_diag_add(d, WS_SEV_ERROR, c->origin, c->lines[r], 0,
                "column launch: the launch spec '%s' does not load (above)", cell);
    return st;
  }
  /* the files the spec reads are data too */
  for (uint32_t i = 0; i < s->nargs + s->nvars && !st; i++) {
    const ws_launch_arg *a = i < s->nargs ? &s->args[i] : &s->vars[i - s->nargs];
    if (a->init != WS_INIT_FILE) continue;
    char what[300];
    snprintf(what, sizeof what, "column launch: the launch spec '%s' initialises %s%s from a file",
             cell, i < s->nargs ? "argument " : "variable ", a->name);
    st = ws_valid_confined(v, r, what, a->file, a->file, d);
  }
  if (st) {
    ws_emu_launch_spec_free(s);
    return st;
  }
  const char *k = col[G_KERNEL] >= 0 ? ws_valid_csv_cell(c, r, (size_t)col[G_KERNEL]) : "";
  if (*k && !ws_demangle_match(s->kernel, k) && !ws_demangle_match(k, s->kernel)) {
    ws_diag_add(d, WS_SEV_ERROR, c->origin, c->lines[r], 0,
                "column kernel: '%s', but the launch spec '%s' is for kernel '%s'", k, cell,
                s->kernel);
    ws_emu_launch_spec_free(s);
    return WS_EINVAL;
  }
  w->kernel = *k ? k : ws_valid_keep(v, ws_strdup(s->kernel));
  w->signature = w->kernel;
  memcpy(w->grid, s->grid, sizeof w->grid);
  memcpy(w->block, s->block, sizeof w->block);
  w->dynamic_smem = (int)(s->dynamic_shared > INT32_MAX ? INT32_MAX : s->dynamic_shared);
  w->input_size = (int64_t)s->grid[0] * s->grid[1] * s->grid[2] * s->block[0] * s->block[1] *
                  s->block[2];
  ws_emu_launch_spec_free(s);
  return w->kernel ? WS_OK : WS_ENOMEM;
}

/* An optional whole-number column in [0, hi]: *out = -1 when the column or
 * the cell is absent. */
static int opt_int(long long *out, const ws_csv *c, size_t r, int col, long long hi,
                   ws_diag *d) {
  *out = -1;
  if (col < 0 || !*ws_valid_csv_cell(c, r, (size_t)col)) return WS_OK;
  const char *z = ws_valid_csv_cell(c, r, (size_t)col);
  errno = 0;
  long long n = strtoll(z, NULL, 10);
  if (z[strspn(z, "0123456789")] || errno || n < 0 || n > hi) {
    ws_diag_add(d, WS_SEV_ERROR, c->origin, c->lines[r], 0,
                "column %s: expected a whole number in [0, %lld], got '%s'", c->header[col], hi,
                z);
    return WS_EINVAL;
  }
  *out = n;
  return WS_OK;
}

/* Everything of row r but its GPU. */
static int generic_row(ws_valid_data *v, size_t r, const int *col, ws_diag *d) {
  const ws_csv *c = v->csv;
  ws_valid_row *w = &v->rows[r];
  w->line = c->lines[r];
  w->gpu_csv = ws_valid_csv_cell(c, r, (size_t)col[G_GPU]);
  w->regs = w->static_smem = -1; /* unknown: the models see the profile's own */
  const char *kf = ws_valid_csv_cell(c, r, (size_t)col[G_FILE]);
  if (!*kf) return ws_valid_bad_cell(d, c, r, col[G_FILE], "expected a PTX or .cu file");
  int st = ws_valid_data_file(&w->kernel_file, v, r, col[G_FILE], kf, d);
  if (st) return st;
  st = row_launch(v, r, col, d);
  if (st) return st;
  if ((st = ws_valid_cell_seconds(&w->measured_s, d, c, r, col[G_SECONDS]))) return st;
  long long n;
  if ((st = opt_int(&n, c, r, col[G_SIZE], INT64_MAX, d)) != WS_OK) return st;
  if (n >= 0) w->input_size = n;
  if ((st = opt_int(&n, c, r, col[G_REGS], 255, d)) != WS_OK) return st;
  w->regs = (int)n;
  if ((st = opt_int(&n, c, r, col[G_SMEM], 1 << 20, d)) != WS_OK) return st;
  if (n >= 0) w->static_smem = (int)n, w->dynamic_smem = 0;
  /* l2: the measurement's condition, cold (the L2 flushed: NVBench) or
   * warm (back-to-back runs: Kernel Tuner); empty: the launch spec's */
  const char *l2 = col[G_L2] >= 0 ? ws_valid_csv_cell(c, r, (size_t)col[G_L2]) : "";
  if (!strcmp(l2, "cold")) w->l2 = WS_VALID_L2_COLD;
  else if (!strcmp(l2, "warm")) w->l2 = WS_VALID_L2_WARM;
  else if (*l2) return ws_valid_bad_cell(d, c, r, col[G_L2], "expected cold or warm (or nothing: the launch spec's)");
  return WS_OK;
}

int ws_valid_load_generic(ws_valid_data *v, const char *const *extra, size_t nextra,
                          ws_diag *d) {
  const ws_csv *c = v->csv;
  int col[G_COUNT], st = WS_OK;
  for (int k = 0; k < G_COUNT; k++) {
    col[k] = ws_valid_csv_column(c, gcol_names[k]);
    if (col[k] < 0 && k < G_REQUIRED) {
      ws_diag_add(d, WS_SEV_ERROR, c->origin, 1, 0,
                  "missing column '%s' (the generic format needs kernel_file, launch, gpu, "
                  "seconds; docs/validation.md)", gcol_names[k]);
      st = WS_EINVAL;
    }
  }
  if (st) return st;
  if (!(v->rows = calloc(c->nrows ? c->nrows : 1, sizeof *v->rows))) return WS_ENOMEM;
  v->nrows = c->nrows;
  st = ws_valid_resolve_gpus(v, col[G_GPU], extra, nextra, 1, d);
  if (st == WS_ENOMEM) return st;
  for (size_t r = 0; r < c->nrows; r++) {
    int s = generic_row(v, r, col, d);
    if (s == WS_ENOMEM) return s;
    if (s) st = s;
    if (d && d->errors >= 20) break; /* enough to go on */
  }
  return st;
}
