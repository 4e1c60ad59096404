/*
 * csv.c — a small RFC 4180 CSV reader for the measured-times data sets.
 *
 * Grammar:  file   -> record (EOL record)* EOL?
 *           record -> field (',' field)*
 *           field  -> '"' (char | '""' | ',' | EOL)* '"'  |  char*   (no '"', ',', EOL)
 * EOL is LF or CRLF.  The first record is the header; every later record
 * must have as many fields.  Blank lines at the end are ignored; a blank line
 * elsewhere is a record of one empty field (and so an error unless the header
 * has one column).  A leading UTF-8 byte-order mark is skipped.
 */
#include <stdlib.h>
#include <string.h>

#include "warpsight/valid_data.h"

#include "util/file.h"
#include "util/strbuf.h"
#include "util/vec.h"

typedef struct strvec {
  char **v;     /* owned strings */
  size_t n;     /* in use */
  size_t cap;   /* allocated */
} strvec;

static void sv_free(strvec *s) {
  for (size_t i = 0; i < s->n; i++) free(s->v[i]);
  free(s->v);
}

/* The text of line `line_start` up to its end, for the caret. */
static void set_src(ws_diag *d, const char *text, size_t len, size_t line_start) {
  size_t e = line_start;
  while (e < len && text[e] != '\n' && text[e] != '\r') e++;
  ws_diag_set_source(d, text + line_start, e - line_start);
}

void ws_valid_csv_free(ws_csv *c) {
  if (!c) return;
  free(c->origin);
  for (size_t i = 0; i < c->ncols; i++) free(c->header[i]);
  free(c->header);
  for (size_t i = 0; i < c->nrows * c->ncols; i++) free(c->cells[i]);
  free(c->cells);
  free(c->lines);
  free(c);
}

int ws_valid_csv_parse(ws_csv **out, const char *text, size_t len, const char *origin,
                 ws_diag *d) {
  *out = NULL;
  if (!origin) origin = "<csv>";
  strvec cells = {0};
  int *lines = NULL;
  size_t nlines_cap = 0, nrec = 0, ncols = 0;
  size_t i = 0, line = 1, line_start = 0;
  int st = WS_OK;
  ws_strbuf field = WS_STRBUF_INIT; /* the field being read */
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
    for (;;) {
      size_t col = i - line_start + 1;
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
              ws_sb_putc(&field, '"');
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
          ws_sb_putc(&field, text[i++]);
        }
        if (i < len && text[i] != ',' && text[i] != '\n' &&
            !(text[i] == '\r' && i + 1 < len && text[i + 1] == '\n') &&
            !(text[i] == '\r' && i + 1 == len)) {
          ws_diag_add(d, WS_SEV_ERROR, origin, (int)line, (int)(i - line_start + 1),
                      "unexpected character after a closing quote (field %zu)",
                      nfields + 1);
          set_src(d, text, len, line_start);
          st = WS_EINVAL;
          goto done;
        }
      } else {
        while (i < len && text[i] != ',' && text[i] != '\n' &&
               !(text[i] == '\r' && (i + 1 == len || text[i + 1] == '\n'))) {
          if (text[i] == '"') {
            ws_diag_add(d, WS_SEV_ERROR, origin, (int)line, (int)(i - line_start + 1),
                        "quote inside an unquoted field (field %zu)", nfields + 1);
            set_src(d, text, len, line_start);
            st = WS_EINVAL;
            goto done;
          }
          ws_sb_putc(&field, text[i++]);
        }
      }
      char *f = ws_sb_take(&field);
      if (!f || WS_VEC_PUSH(cells.v, cells.n, cells.cap, f)) {
        free(f);
        st = WS_ENOMEM;
        goto done;
      }
      nfields++;
      if (i < len && text[i] == ',') {
        i++;
        continue;
      }
      break; /* end of record: EOL or end of text */
    }
    size_t rec_ls = line_start;
    if (i < len && text[i] == '\r') i++;
    if (i < len && text[i] == '\n') {
      i++;
      line++;
      line_start = i;
    }
    if (nrec == 0) {
      ncols = nfields;
    } else if (nfields != ncols) {
      ws_diag_add(d, WS_SEV_ERROR, origin, (int)rec_line, 1,
                  "%zu fields, but the header has %zu", nfields, ncols);
      set_src(d, text, len, rec_ls);
      st = WS_EINVAL;
      goto done;
    }
    if (WS_VEC_PUSH(lines, nrec, nlines_cap, (int)rec_line)) {
      st = WS_ENOMEM;
      goto done;
    }
  }
  if (nrec == 0) {
    ws_diag_add(d, WS_SEV_ERROR, origin, 0, 0, "empty file: expected a header line");
    st = WS_EINVAL;
    goto done;
  }

  ws_csv *c = calloc(1, sizeof *c);
  if (!c) {
    st = WS_ENOMEM;
    goto done;
  }
  c->origin = ws_strdup(origin);
  c->ncols = ncols;
  c->nrows = nrec - 1;
  c->header = malloc(ncols * sizeof *c->header);
  c->cells = malloc((cells.n - ncols + 1) * sizeof *c->cells);
  c->lines = malloc(nrec * sizeof *c->lines);
  if (!c->origin || !c->header || !c->cells || !c->lines) {
    free(c->origin);
    free(c->header);
    free(c->cells);
    free(c->lines);
    free(c);
    st = WS_ENOMEM;
    goto done;
  }
  memcpy(c->header, cells.v, ncols * sizeof *c->header);
  memcpy(c->cells, cells.v + ncols, (cells.n - ncols) * sizeof *c->cells);
  memcpy(c->lines, lines + 1, (nrec - 1) * sizeof *c->lines);
  free(cells.v); /* the strings now belong to c */
  cells.v = NULL;
  cells.n = 0;
  *out = c;

done:
  sv_free(&cells);
  free(lines);
  ws_sb_free(&field);
  return st;
}

static int parse_csv(void *out, const char *text, size_t len, const char *path, ws_diag *d) {
  return ws_valid_csv_parse(out, text, len, path, d);
}

int ws_valid_csv_read(ws_csv **out, const char *path, ws_diag *d) {
  *out = NULL;
  return ws_parse_file(out, path, d, parse_csv);
}

int ws_valid_csv_column(const ws_csv *c, const char *name) {
  for (size_t i = 0; i < c->ncols; i++)
    if (strcmp(c->header[i], name) == 0) return (int)i;
  return -1;
}
