/* file.c — whole-file reading with a diagnostic on failure, and handing
 * the text to a parser. */
#include "warpsight/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/file.h"

int ws_read_file(char **out, size_t *out_len, const char *path, ws_diag *d) {
  *out = NULL;
  if (out_len) *out_len = 0;
  FILE *f = fopen(path, "rb");
  if (!f) {
    ws_diag_add(d, WS_SEV_ERROR, path, 0, 0, "cannot open: %s", strerror(errno));
    return WS_EIO;
  }
  size_t cap = 1 << 16, len = 0;
  char *p = malloc(cap);
  if (!p) {
    fclose(f);
    return WS_ENOMEM;
  }
  for (;;) {
    if (len + 1 >= cap) {
      char *q = realloc(p, cap * 2);
      if (!q) {
        free(p);
        fclose(f);
        return WS_ENOMEM;
      }
      p = q;
      cap *= 2;
    }
    size_t n = fread(p + len, 1, cap - len - 1, f);
    len += n;
    if (n == 0) break;
  }
  int err = ferror(f);
  fclose(f);
  if (err) {
    free(p);
    ws_diag_add(d, WS_SEV_ERROR, path, 0, 0, "read error");
    return WS_EIO;
  }
  p[len] = '\0';
  *out = p;
  if (out_len) *out_len = len;
  return WS_OK;
}

int ws_parse_file(void *out, const char *path, ws_diag *d, ws_text_parser *parse) {
  char *text;
  size_t len;
  int st = ws_read_file(&text, &len, path, d);
  if (st) return st;
  st = parse(out, text, len, path, d);
  free(text);
  return st;
}
