/* valid_cli.c — helpers shared by `warpsight validate` and `calibrate`. */
#include "cli/valid_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/toolchain.h"
#include "warpsight/gpu.h"
#include "warpsight/valid.h"

#include "util/strbuf.h"
#include "util/vec.h"

int vcli_split(vcli_list *out, const char *cmd, const char *opt, const char *text) {
  memset(out, 0, sizeof *out);
  out->buf = ws_strdup(text);
  if (!out->buf) return cli_usage_error(cmd, "out of memory");
  char *p = out->buf;
  for (;;) {
    char *c = strchr(p, ',');
    if (c) *c = '\0';
    if (!*p) {
      vcli_list_free(out);
      return cli_usage_error(cmd, "%s: empty item in '%s'", opt, text);
    }
    if (out->n == VCLI_MAX_ITEMS) {
      vcli_list_free(out);
      return cli_usage_error(cmd, "%s: more than %d items (the limit)", opt, VCLI_MAX_ITEMS);
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

int vcli_selects(const vcli_list *l, const char *s) {
  for (size_t j = 0; j < l->n; j++)
    if (!strcmp(l->v[j], s)) return 1;
  return l->n == 0;
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

/* 1 if `s` names a file rather than a GPU (as ws_gpu_load decides). */
static int is_gpu_path(const char *s) {
  size_t n = strlen(s);
  return strchr(s, '/') || (n > 5 && strcmp(s + n - 5, ".json") == 0);
}

/* Load `path` as a GPU: 0, or EXIT_USAGE after printing its diagnostics. */
static int check_gpu_file(ws_gpu **out, const char *cmd, const char *path) {
  ws_diag d = WS_DIAG_INIT;
  int st = ws_gpu_load(out, path, &d);
  if (st) {
    cli_print_diag(&d);
    ws_diag_free(&d);
    return cli_usage_error(cmd, "--gpu-file: '%s' is not a usable GPU file", path);
  }
  ws_diag_free(&d);
  return 0;
}

static int push_gpu_file(vcli_gpu_files *gf, const char *cmd, const char *name,
                         const char *path) {
  for (size_t i = 0; i < gf->n; i++)
    if (!strcmp(gf->name[i], name)) {
      if (!strcmp(gf->path[i], path)) return 0;
      return cli_usage_error(cmd, "two GPU files for '%s': '%s' and '%s'", name, gf->path[i],
                             path);
    }
  if (gf->n == VCLI_MAX_GPU_FILES) return cli_usage_error(cmd, "too many GPU files");
  gf->name[gf->n] = name;
  gf->path[gf->n] = path;
  gf->n++;
  return 0;
}

int vcli_take_gpu_files(vcli_gpu_files *gf, const char *cmd, int *argc, char **argv) {
  memset(gf, 0, sizeof *gf);
  int out = 1;
  for (int i = 1; i < *argc; i++) {
    char *a = argv[i], *spec = NULL;
    if (!strcmp(a, "--")) { /* the rest is positional */
      while (i < *argc) argv[out++] = argv[i++];
      break;
    }
    if (!strcmp(a, "--gpu-file")) {
      if (i + 1 >= *argc) return cli_usage_error(cmd, "--gpu-file needs NAME=FILE.json");
      spec = argv[++i];
    } else if (!strncmp(a, "--gpu-file=", 11)) {
      spec = a + 11;
    } else {
      argv[out++] = a;
      continue;
    }
    char *eq = strchr(spec, '=');
    if (!eq || eq == spec || !eq[1])
      return cli_usage_error(cmd, "--gpu-file expects NAME=FILE.json, got '%s'", spec);
    *eq = '\0';
    ws_gpu *g = NULL;
    if (check_gpu_file(&g, cmd, eq + 1)) return EXIT_USAGE;
    ws_gpu_free(g);
    const char *db = ws_valid_gpu_name(spec);
    if (push_gpu_file(gf, cmd, db ? db : spec, eq + 1)) return EXIT_USAGE;
  }
  argv[out] = NULL;
  *argc = out;
  return 0;
}

int vcli_add_gpu_file(vcli_gpu_files *gf, const char *cmd, const char *path, const char **name) {
  ws_gpu *g = NULL;
  if (check_gpu_file(&g, cmd, path)) return EXIT_USAGE;
  char *n = ws_strdup(g->name ? g->name : path);
  ws_gpu_free(g);
  if (!n) return cli_usage_error(cmd, "out of memory");
  /* a file named after a table spelling or a database GPU serves that
   * board's rows */
  const char *db = ws_valid_gpu_name(n);
  size_t before = gf->n;
  if (push_gpu_file(gf, cmd, db ? db : n, path)) {
    free(n);
    return EXIT_USAGE;
  }
  if (gf->n == before) { /* the same file given twice */
    for (size_t i = 0; i < gf->n; i++)
      if (!strcmp(gf->path[i], path)) *name = gf->name[i];
    free(n);
    return 0;
  }
  gf->owned[before] = n;
  *name = gf->name[before];
  return 0;
}

void vcli_gpu_files_free(vcli_gpu_files *gf) {
  for (size_t i = 0; i < VCLI_MAX_GPU_FILES; i++) free(gf->owned[i]);
  memset(gf, 0, sizeof *gf);
}

int vcli_resolve_gpu(const char **out, vcli_gpu_files *gf, const ws_valid_data *data,
                     const char *cmd, const char *opt, const char *item) {
  if (is_gpu_path(item)) return vcli_add_gpu_file(gf, cmd, item, out);
  *out = item;
  if (!data) return 0; /* before the data is read: names wait */
  const char *db = ws_valid_gpu_name(item);
  if (db) {
    *out = db;
    return 0;
  }
  for (size_t i = 0; i < gf->n; i++)
    if (!strcmp(gf->name[i], item)) {
      *out = gf->name[i];
      return 0;
    }
  for (size_t i = 0; i < data->ngpu_files; i++)
    if (!strcmp(data->gpu_file_names[i], item)) {
      *out = data->gpu_file_names[i];
      return 0;
    }
  char *known = ws_valid_gpu_known();
  cli_usage_error(cmd, "%s: unknown GPU '%s'; known: %s; or a GPU file (a path)", opt, item,
                  known ? known : "?");
  free(known);
  return EXIT_USAGE;
}

int vcli_check_kernels(const vcli_list *k, const ws_valid_data *data, const char *cmd) {
  for (size_t i = 0; i < k->n; i++) {
    int ok = ws_valid_kernel_known(k->v[i]);
    for (size_t r = 0; r < data->nrows && !ok; r++) ok = !strcmp(data->rows[r].kernel, k->v[i]);
    if (ok) continue;
    fprintf(stderr, "warpsight %s: error: --kernels: unknown kernel '%s'; known:", cmd, k->v[i]);
    for (size_t j = 0; j < ws_valid_kernel_count(); j++) fprintf(stderr, " %s", ws_valid_kernel_name(j));
    for (size_t r = 0; r < data->nrows; r++) {
      size_t q = 0; /* each of the file's own kernels once */
      while (q < r && strcmp(data->rows[q].kernel, data->rows[r].kernel)) q++;
      if (q == r && !ws_valid_kernel_known(data->rows[r].kernel))
        fprintf(stderr, " %s", data->rows[r].kernel);
    }
    fputc('\n', stderr);
    return EXIT_USAGE;
  }
  return 0;
}

int vcli_data_ptx_dir(char *buf, size_t n, const char *cmd, const char *given,
                      const char *data_path, const ws_valid_data *data) {
  if (data->generic && !given) {
    buf[0] = '\0';
    return 0;
  }
  return vcli_ptx_dir(buf, n, cmd, given, data_path);
}

int vcli_compile_cu(char **ptx_path, const char *cu_path, const ws_gpu *g, void *user,
                    ws_diag *d) {
  vcli_cu *c = user;
  *ptx_path = NULL;
  if (access(cu_path, R_OK) != 0) return ws_diag_error(d, "cannot read %s", cu_path);
  size_t i = 0;
  while (i < c->n && strcmp(c->v[i].path, cu_path)) i++;
  if (i == c->n) {
    vcli_cu_file f;
    memset(&f, 0, sizeof f);
    if (!(f.path = ws_strdup(cu_path))) return WS_ENOMEM;
    if (WS_VEC_PUSH(c->v, c->n, c->cap, f)) {
      free(f.path);
      return WS_ENOMEM;
    }
  }
  char arch[16];
  cli_cu_arch_for(arch, sizeof arch, &c->v[i].builds, g, d);
  const cli_cu_build *b = NULL;
  if (cli_cu_build_get(&b, &c->v[i].builds, c->cmd, cu_path, arch))
    return ws_diag_error(d, "%s: could not compile to PTX for %s (above)", cu_path, arch);
  ws_strbuf sb = WS_STRBUF_INIT;
  ws_sb_printf(&sb, "%s/in.ptx", b->dir);
  return (*ptx_path = ws_sb_take(&sb)) ? WS_OK : WS_ENOMEM;
}

void vcli_cu_free(vcli_cu *c) {
  for (size_t i = 0; i < c->n; i++) {
    cli_cu_cache_free(&c->v[i].builds);
    free(c->v[i].path);
  }
  free(c->v);
  c->v = NULL;
  c->n = c->cap = 0;
}
