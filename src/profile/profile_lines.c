/*
 * profile_lines.c — the per-line table of a profile (lines.h; docs/profile.md,
 * "lines"): built from the profiler's per-instruction counts, read back from
 * JSON with every error naming its path, and written out.
 *
 * Invariant: rows are sorted by (file, line), one row per pair, and every
 * row's file indexes files[].
 */
#include "profile/lines.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile_mix.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/vec.h"

/* The numeric columns of a row, once: JSON key = member name. */
#define LINE_NUMS(X)                                                                      \
  X(warp_insts) X(global_requests) X(sectors) X(sectors_needed) X(dram_bytes)             \
  X(shared_requests) X(bank_conflict_replays) X(branches) X(divergent_branches)           \
  X(atomic_requests) X(atomic_serial) X(path_mem_loads) X(path_cycles)                       \
  X(loop_loads_per_trip) X(loop_trips_per_entry)

/* The names of the WS_LINE_* bits, in bit order. */
static const char *const kind_names[] = {"load",   "store",  "atomic", "shared", "shared_atomic",
                                         "barrier", "branch", "sfu",    "fp64",   NULL};

void ws_profile_lines_free(ws_profile_lines *l) {
  if (!l) return;
  for (size_t i = 0; i < l->nfiles; i++) free(l->files[i]);
  free(l->files);
  free(l->rows);
  free(l);
}

static int cmp_row(const void *a, const void *b) {
  const ws_profile_line *x = a, *y = b;
  if (x->file != y->file) return x->file < y->file ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

/* The index of file name `name` in l->files, added when absent; -1 out of memory. */
static long file_index(ws_profile_lines *l, size_t *cap, const char *name) {
  for (size_t i = 0; i < l->nfiles; i++)
    if (!strcmp(l->files[i], name)) return (long)i;
  char *copy = ws_strdup(name);
  if (!copy || WS_VEC_PUSH(l->files, l->nfiles, *cap, copy)) {
    free(copy);
    return -1;
  }
  return (long)l->nfiles - 1;
}

/* The .file entry of module m numbered n, or NULL. */
static const char *loc_file_name(const ws_ptx_module *m, uint32_t n) {
  for (uint32_t i = 0; i < m->nfiles; i++)
    if (m->files[i].number == n) return m->files[i].name;
  return NULL;
}

/* Is .file number f one that the module's own (not inlined) .loc lines
 * name?  Code inlined from a file that is not (a CUDA header's atomicAdd or
 * __shfl_down_sync) counts for its call site instead (docs/profile.md). */
static int own_file(const ws_ptx_module *m, uint32_t f) {
  for (uint32_t i = 0; i < m->nfuncs; i++)
    for (uint32_t pc = 0; pc < m->funcs[i].ninsts; pc++) {
      const ws_ptx_inst *in = &m->funcs[i].insts[pc];
      if (in->loc_line && !in->loc_at_line && in->loc_file == f) return 1;
    }
  return 0;
}

int ws_prof_lines_build(ws_profile_lines **out, const ws_ptx_module *m, const uint32_t *func_base,
                        const ws_line_in *in, double W, double path_blocks, double skipped,
                        const char *ptx_name, double dram_read, double dram_write) {
  *out = NULL;
  ws_profile_lines *l = calloc(1, sizeof *l);
  uint32_t ninst = func_base[m->nfuncs];
  /* per instruction: its row, or UINT32_MAX for one that never ran */
  uint32_t *row_of = calloc(ninst ? ninst : 1, sizeof *row_of);
  size_t fcap = 0, rcap = 0, last = 0;
  int *own = NULL; /* per .file: does the module's own code name it (own_file)? */
  double rd = 0, wr = 0;
  int any_loc = 0;
  if (!l || !row_of) goto oom;
  for (uint32_t f = 0; f < m->nfuncs; f++)
    for (uint32_t pc = 0; pc < m->funcs[f].ninsts; pc++)
      any_loc |= m->funcs[f].insts[pc].loc_line > 0 && loc_file_name(m, m->funcs[f].insts[pc].loc_file);
  l->ptx_lines = !any_loc;
  if (!(own = calloc(m->nfiles + 1, sizeof *own))) goto oom;
  for (uint32_t i = 0; i < m->nfiles; i++) own[i] = own_file(m, m->files[i].number);
  for (uint32_t f = 0; f < m->nfuncs; f++)
    for (uint32_t pc = 0; pc < m->funcs[f].ninsts; pc++) {
      uint32_t id = func_base[f] + pc;
      row_of[id] = UINT32_MAX;
      if (!(in[id].execs > 0)) continue;
      const ws_ptx_inst *ins = &m->funcs[f].insts[pc];
      uint32_t lf = ins->loc_file, ll = ins->loc_line;
      if (ins->loc_at_line) { /* inlined: its call site unless its own file is the module's */
        uint32_t k = 0;
        while (k < m->nfiles && m->files[k].number != lf) k++;
        if (k == m->nfiles || !own[k]) lf = ins->loc_at_file, ll = ins->loc_at_line;
      }
      const char *fname = ll ? loc_file_name(m, lf) : NULL;
      long fi = file_index(l, &fcap, fname ? fname : (ptx_name ? ptx_name : "(ptx)"));
      if (fi < 0) goto oom;
      uint32_t line = fname ? ll : ins->line;
      /* neighbouring instructions mostly share a line: try the last one first */
      size_t r = last < l->nrows && l->rows[last].file == (uint32_t)fi && l->rows[last].line == line
                     ? last : 0;
      while (r < l->nrows && !(l->rows[r].file == (uint32_t)fi && l->rows[r].line == line)) r++;
      if (r == l->nrows) {
        ws_profile_line row = {.file = (uint32_t)fi, .line = line};
        if (WS_VEC_PUSH(l->rows, l->nrows, rcap, row)) goto oom;
      }
      row_of[id] = (uint32_t)(last = r);
      rd += in[id].read_sectors;
      wr += in[id].write_sectors;
    }
  for (uint32_t id = 0; id < ninst; id++) {
    if (row_of[id] == UINT32_MAX) continue;
    const ws_line_in *s = &in[id];
    ws_profile_line *o = &l->rows[row_of[id]];
    o->kinds |= s->kinds;
    o->warp_insts += s->execs / W;
    o->global_requests += s->requests / W;
    o->sectors += s->sectors / W;
    o->sectors_needed += s->needed / W;
    o->shared_requests += s->sh_requests / W;
    o->bank_conflict_replays += s->replays / W;
    o->branches += s->branches / W;
    o->divergent_branches += s->div_branches / W;
    o->atomic_requests += s->atom_requests / W;
    o->atomic_serial += s->atom_serial / W;
    if (path_blocks > 0) {
      o->path_mem_loads += s->path_mem / path_blocks;
      o->path_cycles += s->path_cyc / path_blocks;
    }
    /* a row may gather instructions of several loops (a source line nvcc
     * split into an unrolled body and its remainder): the most of each */
    o->loop_loads_per_trip = fmax(o->loop_loads_per_trip, s->loop_loads);
    o->loop_trips_per_entry = fmax(o->loop_trips_per_entry, s->loop_trips);
    if (rd > 0 && dram_read > 0) o->dram_bytes += dram_read * s->read_sectors / rd;
    if (wr > 0 && dram_write > 0) o->dram_bytes += dram_write * s->write_sectors / wr;
  }
  free(own);
  qsort(l->rows, l->nrows, sizeof *l->rows, cmp_row);
  l->path_blocks = path_blocks;
  l->path_blocks_skipped = skipped;
  free(row_of);
  *out = l;
  return WS_OK;
oom:
  free(own);
  free(row_of);
  ws_profile_lines_free(l);
  return WS_ENOMEM;
}

int ws_profile_lines_write(cJSON *root, const ws_profile_lines *l) {
  if (!l) return WS_OK;
  cJSON *s = cJSON_AddObjectToObject(root, "lines");
  if (!s) return WS_ENOMEM;
  cJSON_AddStringToObject(s, "source", l->ptx_lines ? "ptx" : "lineinfo");
  cJSON *files = cJSON_AddArrayToObject(s, "files");
  for (size_t i = 0; files && i < l->nfiles; i++) cJSON_AddItemToArray(files, cJSON_CreateString(l->files[i]));
  cJSON_AddNumberToObject(s, "path_blocks", l->path_blocks);
  cJSON_AddNumberToObject(s, "path_blocks_skipped", l->path_blocks_skipped);
  cJSON *rows = cJSON_AddArrayToObject(s, "rows");
  if (!files || !rows) return WS_ENOMEM;
  for (size_t i = 0; i < l->nrows; i++) {
    const ws_profile_line *r = &l->rows[i];
    cJSON *o = cJSON_CreateObject();
    if (!o) return WS_ENOMEM;
    cJSON_AddItemToArray(rows, o);
    cJSON_AddNumberToObject(o, "file", r->file);
    cJSON_AddNumberToObject(o, "line", r->line);
    cJSON *k = cJSON_AddArrayToObject(o, "kinds");
    for (int b = 0; kind_names[b]; b++)
      if (r->kinds >> b & 1) cJSON_AddItemToArray(k, cJSON_CreateString(kind_names[b]));
#define X(name) cJSON_AddNumberToObject(o, #name, r->name);
    LINE_NUMS(X)
#undef X
  }
  return WS_OK;
}

/* An error naming the first key of obj (at `path`) that is not in known[]
 * (NULL-terminated); WS_OK when every key is known. */
static int known_keys(const cJSON *obj, const char *const *known, const char *path,
                      const char *origin, ws_diag *d) {
  for (const cJSON *k = obj->child; k; k = k->next) {
    size_t i = 0;
    while (known[i] && strcmp(known[i], k->string)) i++;
    if (!known[i]) return ws_json_error(d, origin, path, k->string, "unknown key (docs/profile.md, \"lines\")");
  }
  return WS_OK;
}

/* One row of lines.rows; ctx: the number of files. */
static int read_row(void *elem, const cJSON *it, const char *path, const void *ctx,
                    const char *origin, ws_diag *d) {
  ws_profile_line *r = elem;
  size_t nfiles = *(const size_t *)ctx;
  static const char *const known[] = {"file", "line", "kinds",
#define X(name) #name,
                                      LINE_NUMS(X)
#undef X
                                      NULL};
  if (known_keys(it, known, path, origin, d)) return WS_EINVAL;
  double file = 0, line = 0;
  int rc = ws_json_get_number(it, path, "file", 1, WS_JSON_UINT, &file, origin, d);
  if (rc == WS_OK) rc = ws_json_get_number(it, path, "line", 1, WS_JSON_UINT, &line, origin, d);
  if (rc) return WS_EINVAL;
  if (file >= (double)nfiles)
    return ws_json_error(d, origin, path, "file", "expected an index into lines.files (%zu files), got %g",
                         nfiles, file);
  if (line < 1 || line > 4294967295.0)
    return ws_json_error(d, origin, path, "line", "expected a line number >= 1, got %g", line);
  r->file = (uint32_t)file;
  r->line = (uint32_t)line;
  const cJSON *kinds = cJSON_GetObjectItemCaseSensitive(it, "kinds");
  if (kinds && !cJSON_IsArray(kinds)) return ws_json_error(d, origin, path, "kinds", "expected an array of names");
  const cJSON *k;
  int ki = 0;
  cJSON_ArrayForEach(k, kinds) {
    int b = 0;
    while (kind_names[b] && !(cJSON_IsString(k) && !strcmp(kind_names[b], k->valuestring))) b++;
    if (!kind_names[b]) {
      char kp[32];
      snprintf(kp, sizeof kp, "kinds[%d]", ki);
      return ws_json_error(d, origin, path, kp, "expected one of load, store, atomic, shared, "
                                                "shared_atomic, barrier, branch, sfu, fp64");
    }
    r->kinds |= 1u << b;
    ki++;
  }
#define X(name)                                                                                 \
  if (ws_json_get_number(it, path, #name, 0, WS_JSON_NONNEG, &r->name, origin, d) == WS_EINVAL) \
    return WS_EINVAL;
  LINE_NUMS(X)
#undef X
  return WS_OK;
}

int ws_profile_lines_read(ws_profile *p, const cJSON *root, const char *origin, ws_diag *d) {
  const cJSON *s = NULL;
  int rc = ws_json_get_object(root, "", "lines", 0, &s, origin, d);
  if (rc != WS_OK) return rc == WS_EMISSING ? WS_OK : rc;
  static const char *const known[] = {"source", "files", "path_blocks", "path_blocks_skipped", "rows", NULL};
  if (known_keys(s, known, "lines", origin, d)) return WS_EINVAL;
  ws_profile_lines *l = calloc(1, sizeof *l);
  if (!(p->lines = l)) return WS_ENOMEM;
  const char *src = NULL;
  if (ws_json_get_string(s, "lines", "source", 1, &src, origin, d)) return WS_EINVAL;
  if (strcmp(src, "ptx") && strcmp(src, "lineinfo"))
    return ws_json_error(d, origin, "lines", "source", "expected \"lineinfo\" or \"ptx\", got \"%s\"", src);
  l->ptx_lines = !strcmp(src, "ptx");
  const cJSON *files = cJSON_GetObjectItemCaseSensitive(s, "files");
  if (!cJSON_IsArray(files)) return ws_json_error(d, origin, "lines", "files", "expected an array of file names");
  l->files = calloc((size_t)cJSON_GetArraySize(files) + 1, sizeof *l->files);
  if (!l->files) return WS_ENOMEM;
  const cJSON *f;
  cJSON_ArrayForEach(f, files) {
    if (!cJSON_IsString(f)) {
      char kp[32];
      snprintf(kp, sizeof kp, "files[%zu]", l->nfiles);
      return ws_json_error(d, origin, "lines", kp, "expected a file name");
    }
    if (!(l->files[l->nfiles++] = ws_strdup(f->valuestring))) return WS_ENOMEM;
  }
  if (ws_json_get_number(s, "lines", "path_blocks", 0, WS_JSON_NONNEG, &l->path_blocks, origin, d) ==
          WS_EINVAL ||
      ws_json_get_number(s, "lines", "path_blocks_skipped", 0, WS_JSON_NONNEG, &l->path_blocks_skipped,
                         origin, d) == WS_EINVAL)
    return WS_EINVAL;
  const cJSON *rows;
  size_t n;
  if ((rc = ws_json_get_objects(s, "lines", "rows", 1, &rows, &n, origin, d))) return rc;
  void *items;
  rc = ws_prof_read_items(&items, &l->nrows, sizeof *l->rows, rows, n, "lines.rows", read_row,
                          &l->nfiles, origin, d);
  l->rows = items;
  if (rc) return rc;
  for (size_t i = 1; i < l->nrows; i++)
    if (cmp_row(&l->rows[i - 1], &l->rows[i]) >= 0) {
      char kp[32];
      snprintf(kp, sizeof kp, "rows[%zu]", i);
      return ws_json_error(d, origin, "lines", kp, "rows must be sorted by (file, line), each pair once");
    }
  return WS_OK;
}
