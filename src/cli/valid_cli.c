/* valid_cli.c — helpers shared by `warpsight validate` and `calibrate`. */
#include "cli/valid_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "warpsight/valid.h"

int vcli_split(vcli_list *out, const char *cmd, const char *opt, const char *text) {
  memset(out, 0, sizeof *out);
  out->buf = strdup(text);
  if (!out->buf) return cli_usage_error(cmd, "out of memory");
  char *p = out->buf;
  for (;;) {
    char *c = strchr(p, ',');
    if (c) *c = '\0';
    if (!*p) {
      vcli_list_free(out);
      return cli_usage_error(cmd, "%s: empty item in '%s'", opt, text);
    }
    if (out->n == sizeof out->v / sizeof out->v[0]) {
      vcli_list_free(out);
      return cli_usage_error(cmd, "%s: too many items", opt);
    }
    out->v[out->n++] = p;
    if (!c) break;
    p = c + 1;
  }
  return 0;
}

void vcli_list_free(vcli_list *l) {
  free(l->buf);
  memset(l, 0, sizeof *l);
}

static int is_dir(const char *p) {
  struct stat sb;
  return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

int vcli_ptx_dir(char *buf, size_t n, const char *cmd, const char *given, const char *data) {
  if (given) {
    if (!is_dir(given)) return cli_usage_error(cmd, "--ptx-dir '%s' is not a folder", given);
    snprintf(buf, n, "%s", given);
    return 0;
  }
  if (is_dir("examples/validation/ptx")) {
    snprintf(buf, n, "examples/validation/ptx");
    return 0;
  }
  const char *slash = strrchr(data, '/');
  if (slash) {
    snprintf(buf, n, "%.*s/../../examples/validation/ptx", (int)(slash - data), data);
    if (is_dir(buf)) return 0;
  }
  return cli_usage_error(cmd, "cannot find the validation kernels' PTX "
                              "(examples/validation/ptx); give --ptx-dir DIR");
}

const char *vcli_cache_dir(char *buf, size_t n, const char *cache, const char *no_cache) {
  if (no_cache) return NULL;
  if (cache) snprintf(buf, n, "%s", cache);
  else ws_valid_cache_default_dir(buf, n);
  return buf;
}

void vcli_progress(size_t done, size_t total, void *user) {
  const char *cmd = user;
  if (total == 0) return;
  if (isatty(STDERR_FILENO)) {
    int width = 40, fill = (int)((double)done / (double)total * width);
    fprintf(stderr, "\r%s [%.*s%*s] %zu/%zu rows", cmd, fill,
            "########################################", width - fill, "", done, total);
    if (done == total) fputc('\n', stderr);
    fflush(stderr);
    return;
  }
  size_t step = total / 10 ? total / 10 : 1;
  if (done % step == 0 || done == total) fprintf(stderr, "%s: %zu/%zu rows\n", cmd, done, total);
}
