/*
 * file.c — every input file is opened here: regular files only (a FIFO
 * would block, a device like /dev/zero never ends, a directory is not
 * data), with a size limit checked before and while reading, and the OS's
 * reason in every error.  ws_parse_file hands a file's text to a parser.
 */
#include "warpsight/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/file.h"

const char *ws_file_kind(unsigned m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISFIFO(m)) return "a FIFO (named pipe)";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

static int too_big(const char *path, unsigned long long size, uint64_t max, ws_diag *d) {
  ws_diag_add(d, WS_SEV_ERROR, path, 0, 0, "input file of %s%llu bytes is larger than the limit of %llu bytes",
              size > max ? "" : "more than ", size > max ? size : (unsigned long long)max,
              (unsigned long long)max);
  return WS_EINVAL;
}

int ws_open_input(FILE **out, uint64_t *out_size, const char *path, uint64_t max_bytes, ws_diag *d) {
  *out = NULL;
  if (out_size) *out_size = 0;
  struct stat sb;
  if (stat(path, &sb) != 0) {
    ws_diag_add(d, WS_SEV_ERROR, path, 0, 0, "cannot open: %s", strerror(errno));
    return WS_EIO;
  }
  if (!S_ISREG(sb.st_mode)) {
    ws_diag_add(d, WS_SEV_ERROR, path, 0, 0, "cannot read: it is %s; an input must be a regular file",
                ws_file_kind(sb.st_mode));
    return WS_EINVAL;
  }
  /* O_NONBLOCK: if the name was swapped for a FIFO since stat, open must
   * not wait for a writer; fstat below sees what was really opened. */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    ws_diag_add(d, WS_SEV_ERROR, path, 0, 0, "cannot open: %s", strerror(errno));
    return WS_EIO;
  }
  if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
    ws_diag_add(d, WS_SEV_ERROR, path, 0, 0, "cannot read: it is %s; an input must be a regular file",
                ws_file_kind(sb.st_mode));
    close(fd);
    return WS_EINVAL;
  }
  if ((uint64_t)sb.st_size > max_bytes) {
    close(fd);
    return too_big(path, (unsigned long long)sb.st_size, max_bytes, d);
  }
  int fl = fcntl(fd, F_GETFL);
  if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  FILE *f = fdopen(fd, "rb");
  if (!f) {
    ws_diag_add(d, WS_SEV_ERROR, path, 0, 0, "cannot open: %s", strerror(errno));
    close(fd);
    return WS_EIO;
  }
  *out = f;
  if (out_size) *out_size = (uint64_t)sb.st_size;
  return WS_OK;
}

int ws_read_file(char **out, size_t *out_len, const char *path, ws_diag *d) {
  *out = NULL;
  if (out_len) *out_len = 0;
  FILE *f;
  uint64_t size;
  int st = ws_open_input(&f, &size, path, WS_MAX_INPUT_BYTES, d);
  if (st) return st;
  /* the stat size is a hint (a file may grow, /proc reports 0): read until
   * end of file, never past the limit */
  size_t cap = size < (1 << 16) ? (size_t)1 << 16 : (size_t)size + 1, len = 0;
  char *p = malloc(cap);
  if (!p) {
    fclose(f);
    ws_diag_add(d, WS_SEV_ERROR, path, 0, 0, "out of memory reading %llu bytes", (unsigned long long)size);
    return WS_ENOMEM;
  }
  for (;;) {
    if (len + 1 >= cap) {
      if (len > WS_MAX_INPUT_BYTES) {
        free(p);
        fclose(f);
        return too_big(path, (unsigned long long)len, WS_MAX_INPUT_BYTES, d);
      }
      char *q = realloc(p, cap * 2);
      if (!q) {
        free(p);
        fclose(f);
        ws_diag_add(d, WS_SEV_ERROR, path, 0, 0, "out of memory reading %zu bytes", cap * 2);
        return WS_ENOMEM;
      }
      p = q;
      cap *= 2;
    }
    size_t n = fread(p + len, 1, cap - len - 1, f);
    len += n;
    if (n == 0) break;
  }
  int err = ferror(f) ? errno : 0;
  fclose(f);
  if (err || len > WS_MAX_INPUT_BYTES) {
    free(p);
    if (len > WS_MAX_INPUT_BYTES) return too_big(path, (unsigned long long)len, WS_MAX_INPUT_BYTES, d);
    ws_diag_add(d, WS_SEV_ERROR, path, 0, 0, "read error: %s", strerror(err));
    return WS_EIO;
  }
  p[len] = '\0';
  *out = p;
  if (out_len) *out_len = len;
  return WS_OK;
}

/* Reads path and hands its text to parse (which borrows it) or take (which
 * takes it over): one of the two is NULL. */
static int read_and(void *out, const char *path, ws_diag *d, ws_text_parser *parse,
                    ws_text_taker *take) {
  char *text;
  size_t len;
  int st = ws_read_file(&text, &len, path, d);
  if (st) return st;
  size_t before = d ? d->errors : 0;
  if (take) {
    st = take(out, text, len, path, d);
  } else {
    st = parse(out, text, len, path, d);
    free(text);
  }
  return ws_diag_oom(d, st, before, path, "loading its %zu bytes", len);
}

int ws_parse_file(void *out, const char *path, ws_diag *d, ws_text_parser *parse) {
  return read_and(out, path, d, parse, NULL);
}

int ws_take_file(void *out, const char *path, ws_diag *d, ws_text_taker *take) {
  return read_and(out, path, d, NULL, take);
}

size_t ws_name_part(char buf[WS_NAME_PART_MAX + 1], const char *name, int dot) {
  size_t k = 0, n = strlen(name);
  for (size_t i = 0; i < n && k < WS_NAME_PART_MAX; i++) {
    char c = name[i];
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
             c == '-' || (dot && c == '.' && i > 0);
    buf[k++] = ok ? c : '_';
  }
  if (n > WS_NAME_PART_MAX) {
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a 64 */
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)name[i]) * 0x100000001b3ull;
    if (k > WS_NAME_PART_MAX - 17) k = WS_NAME_PART_MAX - 17;
    k += (size_t)snprintf(buf + k, WS_NAME_PART_MAX + 1 - k, "-%016llx", (unsigned long long)h);
  }
  buf[k] = '\0';
  return k;
}
