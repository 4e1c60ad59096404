/*
 * csv.c — a small RFC 4180 CSV reader for the measured-times data sets.
 *
 * Grammar:  file   -> record (EOL record)* EOL?
 *           record -> field (',' field)*
 *           field  -> '"' (char | '""' | ',' | EOL)* '"'  |  char*   (no '"', ',', EOL)
 * EOL is LF or CRLF.  The first record is the header; every later record
 * must have as many fields.  Blank lines at the end are ignored; a blank line
 * elsewhere is a record of one empty field (and so an error unless the header
 * has one column).  A leading UTF-8 byte-order mark is skipped.  A NUL
 * byte, a column name given twice and more cells than
 * ws_valid_csv_max_cells() are errors.
 *
 * Memory: the cells live in one buffer the size of the text (the text
 * itself when it is handed over, ws_valid_csv_parse_owned) plus a pointer
 * per cell: a file of N bytes and C cells takes N + 8 C bytes, not a
 * malloc'd string per cell.
 */
#include <stdlib.h>
#include <string.h>

#include "warpsight/valid_data.h"

#include "util/file.h"
#include "util/number.h"
#include "util/strbuf.h"
#include "util/vec.h"

/* The text of line `line_start` up to its end, for the caret. */
static void set_src(ws_diag *d, const char *text, size_t len, size_t line_start) {
  size_t e = line_start;
  while (e < len && text[e] != '\n' && text[e] != '\r') e++;
  ws_diag_set_source(d, text + line_start, e - line_start);
}

uint64_t ws_valid_csv_max_cells(void) {
  return ws_env_limit("WARPSIGHT_MAX_CSV_CELLS", WS_CSV_MAX_CELLS);
}

void ws_valid_csv_free(ws_csv *c) {
  if (!c) return;
  free(c->origin);
  free(c->text);
  free(c->header);
  free(c->cells);
  free(c->lines);
  free(c);
}

static int cmp_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A column name given twice: an error naming both columns.  The names are
 * sorted (a copy), so a header of n columns costs n log n. */
static int duplicate_column(char *const *header, size_t n, const char *origin, ws_diag *d) {
  char **s = malloc((n ? n : 1) * sizeof *s);
  if (!s) return WS_ENOMEM;
  memcpy(s, header, n * sizeof *s);
  qsort(s, n, sizeof *s, cmp_name);
  size_t i = 1;
  while (i < n && strcmp(s[i - 1], s[i])) i++;
  if (i == n) {
    free(s);
    return WS_OK;
  }
  size_t a = 0, b;
  while (strcmp(header[a], s[i])) a++;
  for (b = a + 1; strcmp(header[b], s[i]); b++) {}
  ws_diag_add(d, WS_SEV_ERROR, origin, 1, 0,
              "column %zu ('%s') has the same name as column %zu: each column must be named once",
              b + 1, header[b], a + 1);
  free(s);
  return WS_EINVAL;
}

/* The parser, in two passes over the text.  The first (out NULL) checks
 * it and writes nothing, so its errors quote the text as it is.  The
 * second unquotes the fields into `out`, a buffer as long as the text,
 * each followed by a NUL: no field's bytes outrun the text that holds them
 * (a quote pair gives one byte, a separator becomes the NUL), so `out` may
 * be the text itself (parsed in place) and never moves. */
#define PUT(ch) (out ? (void)(out[o++] = (ch)) : (void)o++)
static int parse(ws_csv **res, char *out, const char *text, size_t len, const char *origin,
                 ws_diag *d) {
  char **cells = NULL;
  int *lines = NULL;
  size_t ncells = 0, cells_cap = 0, nlines_cap = 0, nrec = 0, ncols = 0;
  size_t i = 0, o = 0, line = 1, line_start = 0;
  uint64_t max_cells = ws_valid_csv_max_cells();
  int st = WS_OK;
  /* A UTF-8 byte-order mark (spreadsheets write one) is not part of the
   * first column's name; columns count from after it. */
  if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) i = line_start = 3;

  while (i < len) {
    /* blank lines at the very end are not records */
    size_t k = i;
    while (k < len && (text[k] == '\n' || text[k] == '\r')) k++;
    if (k == len && nrec > 0) break;
    /* one record */
    size_t rec_line = line, nfields = 0;
    char sep; /* what ended the last field */
    int crlf; /* ... a CR of a CRLF */
    for (;;) {
      size_t col = i - line_start + 1;
      char *field = out ? out + o : NULL;
      if (ncells >= max_cells) {
        ws_diag_add(d, WS_SEV_ERROR, origin, (int)line, (int)col,
                    "more than %llu cells: the limit for a CSV input (raise it with the "
                    "environment variable WARPSIGHT_MAX_CSV_CELLS=N)",
                    (unsigned long long)max_cells);
        st = WS_EINVAL;
        goto done;
      }
      if (i < len && text[i] == '"') {
        size_t qline = line, qls = line_start;
        i++;
        for (;;) {
          if (i >= len) {
            ws_diag_add(d, WS_SEV_ERROR, origin, (int)qline, (int)col,
                        "unterminated quoted field");
            set_src(d, text, len, qls);
            st = WS_EINVAL;
            goto done;
          }
          if (text[i] == '"') {
            if (i + 1 < len && text[i + 1] == '"') {
              PUT('"');
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (text[i] == '\n') {
            line++;
            line_start = i + 1;
          }
          if (text[i] == '\0') break;
          PUT(text[i]);
          i++;
        }
        if (i < len && text[i] != ',' && text[i] != '\n' &&
            !(text[i] == '\r' && i + 1 < len && text[i + 1] == '\n') &&
            !(text[i] == '\r' && i + 1 == len) && text[i] != '\0') {
          ws_diag_add(d, WS_SEV_ERROR, origin, (int)line, (int)(i - line_start + 1),
                      "unexpected character after a closing quote (field %zu)",
                      nfields + 1);
          set_src(d, text, len, line_start);
          st = WS_EINVAL;
          goto done;
        }
      } else {
        while (i < len && text[i] != ',' && text[i] != '\n' && text[i] != '\0' &&
               !(text[i] == '\r' && (i + 1 == len || text[i + 1] == '\n'))) {
          if (text[i] == '"') {
            ws_diag_add(d, WS_SEV_ERROR, origin, (int)line, (int)(i - line_start + 1),
                        "quote inside an unquoted field (field %zu)", nfields + 1);
            set_src(d, text, len, line_start);
            st = WS_EINVAL;
            goto done;
          }
          PUT(text[i]);
          i++;
        }
      }
      /* a NUL is no text: a cell holding one would be cut there in silence */
      if (i < len && text[i] == '\0') {
        ws_diag_add(d, WS_SEV_ERROR, origin, (int)line, (int)(i - line_start + 1),
                    "a NUL byte in field %zu: a CSV file is text and holds none", nfields + 1);
        st = WS_EINVAL;
        goto done;
      }
      /* what ends the field, read before its NUL may overwrite it */
      sep = i < len ? text[i] : '\0';
      crlf = sep == '\r' && i + 1 < len && text[i + 1] == '\n';
      PUT('\0');
      if (!out) ncells++;
      else if (WS_VEC_PUSH(cells, ncells, cells_cap, field)) {
        st = WS_ENOMEM;
        goto done;
      }
      nfields++;
      if (sep == ',') {
        i++;
        continue;
      }
      break; /* end of record: EOL or end of text */
    }
    size_t rec_ls = line_start;
    if (sep == '\r') i++; /* CRLF, or a CR that ends the text */
    if (sep == '\n' || crlf) {
      i++;
      line++;
      line_start = i;
    }
    if (nrec == 0) {
      ncols = nfields;
      if (out && (st = duplicate_column(cells, ncols, origin, d))) goto done;
    } else if (nfields != ncols) {
      ws_diag_add(d, WS_SEV_ERROR, origin, (int)rec_line, 1,
                  "%zu fields, but the header has %zu", nfields, ncols);
      set_src(d, text, len, rec_ls);
      st = WS_EINVAL;
      goto done;
    }
    if (!out) nrec++;
    else if (WS_VEC_PUSH(lines, nrec, nlines_cap, (int)rec_line)) {
      st = WS_ENOMEM;
      goto done;
    }
  }
  if (nrec == 0) {
    ws_diag_add(d, WS_SEV_ERROR, origin, 0, 0, "empty file: expected a header line");
    st = WS_EINVAL;
    goto done;
  }
  if (!out) goto done; /* checked */

  ws_csv *c = calloc(1, sizeof *c);
  if (!c) {
    st = WS_ENOMEM;
    goto done;
  }
  c->origin = ws_strdup(origin);
  c->ncols = ncols;
  c->nrows = nrec - 1;
  c->text = out;
  c->header = malloc(ncols * sizeof *c->header);
  c->cells = malloc((ncells - ncols + 1) * sizeof *c->cells);
  c->lines = malloc(nrec * sizeof *c->lines);
  if (!c->origin || !c->header || !c->cells || !c->lines) {
    c->text = NULL; /* the caller's until success */
    ws_valid_csv_free(c);
    st = WS_ENOMEM;
    goto done;
  }
  memcpy(c->header, cells, ncols * sizeof *c->header);
  memcpy(c->cells, cells + ncols, (ncells - ncols) * sizeof *c->cells);
  memcpy(c->lines, lines + 1, (nrec - 1) * sizeof *c->lines);
  *res = c;

done:
  free(cells);
  free(lines);
  return st;
}
#undef PUT

/* Both passes: check, then fill out. */
static int parse2(ws_csv **res, char *out, const char *text, size_t len, const char *origin,
                  ws_diag *d) {
  int st = parse(res, NULL, text, len, origin, d);
  return st ? st : parse(res, out, text, len, origin, d);
}

int ws_valid_csv_parse(ws_csv **out, const char *text, size_t len, const char *origin,
                       ws_diag *d) {
  *out = NULL;
  char *buf = malloc(len + 1);
  if (!buf) return WS_ENOMEM;
  int st = parse2(out, buf, text, len, origin ? origin : "<csv>", d);
  if (st) free(buf);
  return st;
}

int ws_valid_csv_parse_owned(ws_csv **out, char *text, size_t len, const char *origin,
                             ws_diag *d) {
  *out = NULL;
  int st = parse2(out, text, text, len, origin ? origin : "<csv>", d);
  if (st) free(text);
  return st;
}

static int take_csv(void *out, char *text, size_t len, const char *path, ws_diag *d) {
  return ws_valid_csv_parse_owned(out, text, len, path, d);
}

int ws_valid_csv_read(ws_csv **out, const char *path, ws_diag *d) {
  *out = NULL;
  return ws_take_file(out, path, d, take_csv);
}

int ws_valid_csv_column(const ws_csv *c, const char *name) {
  for (size_t i = 0; i < c->ncols; i++)
    if (strcmp(c->header[i], name) == 0) return (int)i;
  return -1;
}
