/*
 * data.c — the measured data set (data/validation/README.md): CSV rows to
 * ws_valid_row, with every cell checked and errors naming file:line and the
 * column.
 */
#include <errno.h>
#include <pthread.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/number.h"
#include "util/strbuf.h"
#include "util/vec.h"
#include "valid/valid_int.h"
#include "warpsight/emu.h"
#include "warpsight/gpu.h"
#include "warpsight/valid_data.h"

/* CSV GPU names to database names: data/validation/gpu-names.csv, embedded
 * in the library (cmake/embed_file.cmake), parsed once on first use. */
extern const char ws_valid_gpu_names_csv[];

static struct {
  ws_csv *csv;     /* the parsed table (kept for the process' lifetime) */
  int col_csv;     /* column csv_name */
  int col_db;      /* column gpu */
} names;
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

static void names_init(void) {
  ws_csv *c = NULL;
  if (ws_valid_csv_parse(&c, ws_valid_gpu_names_csv, strlen(ws_valid_gpu_names_csv),
                   "data/validation/gpu-names.csv", NULL) != WS_OK)
    return;
  names.col_csv = ws_valid_csv_column(c, "csv_name");
  names.col_db = ws_valid_csv_column(c, "gpu");
  if (names.col_csv < 0 || names.col_db < 0) {
    ws_valid_csv_free(c);
    return;
  }
  names.csv = c;
}

size_t ws_valid_gpu_table_count(void) {
  pthread_once(&names_once, names_init);
  return names.csv ? names.csv->nrows : 0;
}

const char *ws_valid_gpu_table_csv(size_t i) {
  if (i >= ws_valid_gpu_table_count()) return NULL;
  return ws_valid_csv_cell(names.csv, i, (size_t)names.col_csv);
}

const char *ws_valid_gpu_table_db(size_t i) {
  if (i >= ws_valid_gpu_table_count()) return NULL;
  return ws_valid_csv_cell(names.csv, i, (size_t)names.col_db);
}

const char *ws_valid_gpu_name(const char *name) {
  if (!name) return NULL;
  for (size_t i = 0; i < ws_valid_gpu_table_count(); i++)
    if (strcmp(ws_valid_gpu_table_csv(i), name) == 0) return ws_valid_gpu_table_db(i);
  for (size_t i = 0; i < ws_gpu_db_count(); i++)
    if (strcmp(ws_gpu_db_name(i), name) == 0) return ws_gpu_db_name(i);
  return NULL;
}

char *ws_valid_gpu_known(void) {
  ws_strbuf b = WS_STRBUF_INIT;
  for (size_t i = 0; i < ws_valid_gpu_table_count(); i++)
    ws_sb_printf(&b, "%s%s (%s)", i ? ", " : "", ws_valid_gpu_table_csv(i),
                 ws_valid_gpu_table_db(i));
  ws_sb_puts(&b, "; or a database GPU:");
  for (size_t i = 0; i < ws_gpu_db_count(); i++) ws_sb_printf(&b, " %s", ws_gpu_db_name(i));
  return ws_sb_take(&b);
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

int ws_valid_bad_cell(ws_diag *d, const ws_csv *c, size_t r, int col, const char *what) {
  ws_diag_add(d, WS_SEV_ERROR, c->origin, c->lines[r], 0, "column %s: %s, got '%s'",
              c->header[col], what, ws_valid_csv_cell(c, r, (size_t)col));
  return WS_EINVAL;
}

int ws_valid_cell_seconds(double *out, ws_diag *d, const ws_csv *c, size_t r, int col) {
  double v;
  if (ws_parse_decimal(ws_valid_csv_cell(c, r, (size_t)col), &v) || !(v >= WS_VALID_MIN_SECONDS) ||
      !(v <= WS_VALID_MAX_SECONDS))
    return ws_valid_bad_cell(d, c, r, col,
                    "expected a positive time in seconds, a decimal number from 1e-9 to 1e6");
  *out = v;
  return WS_OK;
}

/* A whole number in [lo, hi]: decimal digits only (no sign, space, hex or
 * fraction). */
static int get_int(int64_t *out, ws_diag *d, const ws_csv *c, size_t r, int col,
                   int64_t lo, int64_t hi) {
  const char *s = ws_valid_csv_cell(c, r, (size_t)col);
  errno = 0;
  long long v = strtoll(s, NULL, 10);
  if (!*s || s[strspn(s, "0123456789")] || errno) return ws_valid_bad_cell(d, c, r, col, "expected a whole number");
  if (v < lo || v > hi) {
    ws_diag_add(d, WS_SEV_ERROR, c->origin, c->lines[r], 0,
                "column %s: %lld is out of range [%lld, %lld]", c->header[col], v,
                (long long)lo, (long long)hi);
    return WS_EINVAL;
  }
  *out = v;
  return WS_OK;
}

/* Every row's database GPU name: an extra name as it is, else through
 * ws_valid_gpu_name.  Rows with an unknown name keep gpu = NULL; they make
 * ONE error that names each unknown spelling (with its row count and first
 * line) and lists the known names. */
char *ws_valid_keep(ws_valid_data *v, char *s) {
  if (!s || WS_VEC_PUSH(v->strings, v->nstrings, v->strings_cap, s)) {
    free(s);
    return NULL;
  }
  return s;
}

char *ws_valid_resolve_path(const char *origin, const char *path) {
  const char *slash = origin ? strrchr(origin, '/') : NULL;
  if (path[0] == '/' || !slash) return ws_strdup(path);
  ws_strbuf b = WS_STRBUF_INIT;
  ws_sb_printf(&b, "%.*s/%s", (int)(slash - origin), origin, path);
  return ws_sb_take(&b);
}

/* The real path of the data file's folder, once (kept in v). */
static const char *data_folder(ws_valid_data *v) {
  if (v->folder) return v->folder;
  const char *origin = v->csv->origin, *slash = strrchr(origin, '/');
  ws_strbuf b = WS_STRBUF_INIT;
  if (slash) ws_sb_putn(&b, origin, slash == origin ? 1 : (size_t)(slash - origin));
  else ws_sb_puts(&b, ".");
  char *real = b.oom ? NULL : realpath(ws_sb_str(&b), NULL);
  ws_sb_free(&b);
  return v->folder = ws_valid_keep(v, real);
}

int ws_valid_confined(ws_valid_data *v, size_t r, const char *what, const char *name,
                      const char *path, ws_diag *d) {
  if (v->flags & WS_VALID_ALLOW_OUTSIDE) return WS_OK;
  const char *dir = data_folder(v);
  char *real = realpath(path, NULL);
  if (!real) return WS_OK; /* no such file: its reader says so, with the OS's reason */
  size_t n = dir ? strlen(dir) : 0;
  int inside = dir && !strncmp(real, dir, n) && (real[n] == '/' || (n == 1 && dir[0] == '/'));
  free(real);
  if (inside) return WS_OK;
  return ws_diag_add(d, WS_SEV_ERROR, v->csv->origin, v->csv->lines[r], 0,
                     "%s: '%s' is outside the data file's folder %s, so it is not read "
                     "(give --allow-outside-data to read files anywhere)",
                     what, name, dir ? dir : "(unknown)");
}

int ws_valid_data_file(const char **out, ws_valid_data *v, size_t r, int col, const char *cell,
                       ws_diag *d) {
  const ws_csv *c = v->csv;
  char what[300];
  snprintf(what, sizeof what, "column %s", c->header[col]);
  *out = NULL;
  if (cell[0] == '-')
    return ws_diag_add(d, WS_SEV_ERROR, c->origin, c->lines[r], 0,
                       "%s: the file name '%s' begins with '-', which a tool would read as an "
                       "option (write ./%s)", what, cell, cell);
  if (!(*out = ws_valid_keep(v, ws_valid_resolve_path(c->origin, cell)))) return WS_ENOMEM;
  return ws_valid_confined(v, r, what, cell, *out, d);
}

static int is_path(const char *s) {
  size_t n = strlen(s);
  return strchr(s, '/') || (n > 5 && strcmp(s + n - 5, ".json") == 0);
}

/* Row r names a GPU file: the row's GPU is the name inside the file, and
 * v->gpu_files maps that name to the file (one file per name). */
static int file_gpu(ws_valid_data *v, size_t r, int col, const char *name, ws_diag *d) {
  const ws_csv *c = v->csv;
  const char *path;
  int st = ws_valid_data_file(&path, v, r, col, name, d);
  if (st) return st;
  for (size_t i = 0; i < v->ngpu_files; i++)
    if (!strcmp(v->gpu_file_paths[i], path)) {
      v->rows[r].gpu = v->gpu_file_names[i];
      return WS_OK;
    }
  ws_gpu *g = NULL;
  st = ws_gpu_load(&g, path, d);
  if (st) {
    ws_diag_add(d, WS_SEV_ERROR, c->origin, c->lines[r], 0,
                "column %s: the GPU file '%s' does not load", c->header[col], name);
    return st;
  }
  char *gname = ws_valid_keep(v, ws_strdup(g->name));
  ws_gpu_free(g);
  if (!gname) return WS_ENOMEM;
  for (size_t i = 0; i < v->ngpu_files; i++)
    if (!strcmp(v->gpu_file_names[i], gname))
      return ws_diag_add(d, WS_SEV_ERROR, c->origin, c->lines[r], 0,
                         "column %s: '%s' and '%s' both describe GPU '%s'", c->header[col],
                         v->gpu_file_paths[i], path, gname);
  size_t n = v->ngpu_files;
  if (WS_VEC_PUSH(v->gpu_file_names, n, v->gpu_names_cap, gname) ||
      WS_VEC_PUSH(v->gpu_file_paths, v->ngpu_files, v->gpu_paths_cap, path))
    return WS_ENOMEM;
  v->rows[r].gpu = gname;
  return WS_OK;
}

int ws_valid_resolve_gpus(ws_valid_data *v, int col, const char *const *extra, size_t nextra,
                          int allow_files, ws_diag *d) {
  const ws_csv *c = v->csv;
  ws_strbuf b = WS_STRBUF_INIT;
  size_t nbad = 0;
  int first_line = 0;
  for (size_t r = 0; r < v->nrows; r++) {
    const char *name = ws_valid_csv_cell(c, r, (size_t)col);
    if (allow_files && is_path(name)) {
      int st = file_gpu(v, r, col, name, d);
      if (st) {
        ws_sb_free(&b);
        return st;
      }
      continue;
    }
    for (size_t k = 0; k < nextra && !v->rows[r].gpu; k++)
      if (strcmp(extra[k], name) == 0) v->rows[r].gpu = name;
    if (!v->rows[r].gpu) v->rows[r].gpu = ws_valid_gpu_name(name);
    if (v->rows[r].gpu) continue;
    size_t count = 0, seen = 0;
    for (size_t q = 0; q < r && !seen; q++) seen = !strcmp(ws_valid_csv_cell(c, q, (size_t)col), name);
    if (seen) continue; /* counted at its first row */
    for (size_t q = r; q < v->nrows; q++) count += !strcmp(ws_valid_csv_cell(c, q, (size_t)col), name);
    ws_sb_printf(&b, "%s'%s' (%zu row%s, first on line %d)", nbad ? ", " : "", name, count,
                 count == 1 ? "" : "s", c->lines[r]);
    if (!nbad) first_line = c->lines[r];
    nbad++;
  }
  if (!nbad) {
    ws_sb_free(&b);
    return WS_OK;
  }
  char *known = ws_valid_gpu_known();
  ws_diag_add(d, WS_SEV_ERROR, c->origin, first_line, 0,
              "column %s: unknown GPU name%s %s; known: %s (or give a GPU file with "
              "--gpu-file NAME=FILE.json)",
              c->header[col], nbad == 1 ? "" : "s", ws_sb_str(&b), known ? known : "?");
  free(known);
  ws_sb_free(&b);
  return WS_EINVAL;
}

int ws_valid_load_text(ws_valid_data **out, const char *text, size_t len,
                       const char *origin, ws_diag *d) {
  return ws_valid_load_text_ex(out, text, len, origin, NULL, 0, 0, d);
}

static int load_csv(ws_valid_data **out, ws_csv *c, const char *const *extra, size_t nextra,
                    unsigned flags, ws_diag *d);

int ws_valid_load_text_ex(ws_valid_data **out, const char *text, size_t len,
                          const char *origin, const char *const *extra, size_t nextra,
                          unsigned flags, ws_diag *d) {
  *out = NULL;
  ws_csv *c;
  int st = ws_valid_csv_parse(&c, text, len, origin, d);
  return st ? st : load_csv(out, c, extra, nextra, flags, d);
}

/* The rows of the parsed file c (taken over: freed on error). */
static int load_csv(ws_valid_data **out, ws_csv *c, const char *const *extra, size_t nextra,
                    unsigned flags, ws_diag *d) {
  int st = WS_OK;
  if (ws_valid_csv_column(c, "kernel_file") >= 0) { /* the generic format */
    ws_valid_data *v = calloc(1, sizeof *v);
    if (!v) {
      ws_valid_csv_free(c);
      return WS_ENOMEM;
    }
    v->csv = c;
    v->generic = 1;
    v->flags = flags;
    if ((st = ws_valid_load_generic(v, extra, nextra, d)) || (st = ws_valid_assign_halves(v))) {
      ws_valid_data_free(v);
      return st;
    }
    *out = v;
    return WS_OK;
  }
  int col[C_COUNT];
  for (int k = 0; k < C_COUNT; k++) {
    col[k] = ws_valid_csv_column(c, col_names[k]);
    if (col[k] < 0) {
      ws_diag_add(d, WS_SEV_ERROR, c->origin, 1, 0, "missing column '%s'", col_names[k]);
      st = WS_EINVAL;
    }
  }
  if (st) {
    ws_diag_add(d, WS_SEV_NOTE, c->origin, 1, 0,
                "a measured-times file has the columns of data/validation/README.md "
                "(Amaris et al.) or those of the generic format: kernel_file, launch, gpu, "
                "seconds (docs/validation.md)");
    ws_valid_csv_free(c);
    return st;
  }
  ws_valid_data *v = calloc(1, sizeof *v);
  if (!v || !(v->rows = calloc(c->nrows ? c->nrows : 1, sizeof *v->rows))) {
    free(v);
    ws_valid_csv_free(c);
    return WS_ENOMEM;
  }
  v->csv = c;
  v->nrows = c->nrows;
  v->flags = flags;
  st = ws_valid_resolve_gpus(v, col[C_GPU], extra, nextra, 0, d);
  for (size_t r = 0; r < c->nrows; r++) {
    ws_valid_row *w = &v->rows[r];
    int64_t x;
    w->line = c->lines[r];
    w->gpu_csv = ws_valid_csv_cell(c, r, (size_t)col[C_GPU]);
    if (!w->gpu) continue; /* unknown: reported once by resolve_gpus */
    w->kernel = ws_valid_csv_cell(c, r, (size_t)col[C_APP]);
    if (!ws_valid_kernel_known(w->kernel)) {
      st = ws_valid_bad_cell(d, c, r, col[C_APP], "unknown kernel (see docs/validation.md)");
      continue;
    }
    w->signature = ws_valid_csv_cell(c, r, (size_t)col[C_KERNEL]);
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
    if (!s) s = ws_valid_cell_seconds(&w->measured_s, d, c, r, col[C_DUR]);
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
  return ws_valid_load_ex(out, path, NULL, 0, 0, d);
}

int ws_valid_load_ex(ws_valid_data **out, const char *path, const char *const *extra,
                     size_t nextra, unsigned flags, ws_diag *d) {
  *out = NULL;
  ws_csv *c;
  /* parsed in place: the file's text becomes the cells */
  int st = ws_valid_csv_read(&c, path, d);
  return st ? st : load_csv(out, c, extra, nextra, flags, d);
}

void ws_valid_data_free(ws_valid_data *v) {
  if (!v) return;
  ws_valid_csv_free(v->csv);
  free(v->rows);
  for (size_t i = 0; i < v->nstrings; i++) free(v->strings[i]);
  free(v->strings);
  free(v->gpu_file_names);
  free(v->gpu_file_paths);
  free(v);
}
