/* source_text.c — reading the source lines of a profile's line table
 * (cli/source_text.h). */
#include "cli/source_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/strbuf.h"

/* The file named `name`: as named, else its base name beside `input`. */
static char *read_source(const char *name, const char *input, size_t *len) {
  char path[4096];
  const char *cands[2] = {name, NULL};
  const char *base = strrchr(name, '/');
  base = base ? base + 1 : name;
  const char *slash = input ? strrchr(input, '/') : NULL;
  if (slash) snprintf(path, sizeof path, "%.*s/%s", (int)(slash - input), input, base);
  else snprintf(path, sizeof path, "%s", base);
  cands[1] = path;
  for (int i = 0; i < 2; i++) {
    struct stat st;
    if (stat(cands[i], &st) != 0 || !S_ISREG(st.st_mode)) continue;
    ws_diag d = WS_DIAG_INIT;
    char *text = NULL;
    int rc = ws_read_file(&text, len, cands[i], &d);
    ws_diag_free(&d);
    if (rc == WS_OK) return text;
  }
  return NULL;
}

/* Line `line` (1-based) of text, blanks before it skipped, as a new string. */
static char *line_of(const char *text, size_t len, uint32_t line) {
  const char *s = text, *end = text + len;
  for (uint32_t l = 1; l < line && s < end; l++) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    s = nl ? nl + 1 : end;
  }
  if (s >= end) return NULL;
  const char *e = memchr(s, '\n', (size_t)(end - s));
  if (!e) e = end;
  while (s < e && (*s == ' ' || *s == '\t')) s++;
  while (e > s && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t')) e--;
  ws_strbuf b = WS_STRBUF_INIT;
  for (const char *c = s; c < e; c++) ws_sb_putn(&b, *c == '\t' ? " " : c, 1); /* one line of text */
  return b.n ? ws_sb_take(&b) : (ws_sb_free(&b), ws_strdup(""));
}

char **cli_source_text(const ws_profile *p, const char *input) {
  const ws_profile_lines *l = p ? p->lines : NULL;
  if (!l || !l->nrows) return NULL;
  char **out = calloc(l->nrows, sizeof *out);
  if (!out) return NULL;
  for (size_t f = 0; f < l->nfiles; f++) {
    size_t len = 0;
    char *text = read_source(l->files[f], input, &len);
    if (!text) continue;
    for (size_t i = 0; i < l->nrows; i++)
      if (l->rows[i].file == f) out[i] = line_of(text, len, l->rows[i].line);
    free(text);
  }
  return out;
}

void cli_source_text_free(char **text, size_t n) {
  if (!text) return;
  for (size_t i = 0; i < n; i++) free(text[i]);
  free(text);
}
