/* cli.c — option parsing and diagnostics output shared by all subcommands. */
#include "cli/cli.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/file.h"
#include "util/json.h"
#include "util/number.h"
#include "util/strbuf.h"
#include "util/vec.h"

/* Whether an error has been printed (cli_print_diag, cli_usage_error), so
 * that cli_exit_for never ends a failing command with an empty stderr.  The
 * CLI's mutable state: it is the process, not the library. */
static int error_printed;

/* Every diagnostic printed so far (its rendered text, owned; with a hash to
 * compare quickly), so that one printed at several levels of a call chain,
 * or once per row, model or GPU (validate's rows faulting at the same
 * instruction, a profile warning for each GPU of a list) appears once
 * (issue 14, point 10).  Held until exit. */
typedef struct seen_diag {
  unsigned long hash; /* FNV-1a of text */
  char *text;         /* the entry as printed (owned) */
} seen_diag;
static seen_diag *seen;
static size_t nseen, seen_cap;

static unsigned long fnv1a(const char *s) {
  unsigned long h = 2166136261ul;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619ul;
  return h;
}

/* 1 when text was printed before; otherwise records it and returns 0 (also
 * when it cannot be recorded: printing twice beats printing nothing). */
static int printed_before(char *text) {
  unsigned long h = fnv1a(text);
  for (size_t i = 0; i < nseen; i++)
    if (seen[i].hash == h && !strcmp(seen[i].text, text)) return 1;
  seen_diag s = {h, ws_strdup(text)};
  if (s.text && WS_VEC_PUSH(seen, nseen, seen_cap, s) != WS_OK) free(s.text);
  return 0;
}

/* What a status means, for a failure the library gave no message for. */
static const char *status_text(int status) {
  switch (status) {
  case WS_ENOMEM: return "out of memory";
  case WS_EIO: return "a file could not be read or written";
  case WS_EFAULT: return "the emulated kernel faulted";
  case WS_EUNSUP: return "the input uses something warpsight does not implement";
  case WS_EMISSING: return "a model lacks an input it needs";
  default: return "bad input";
  }
}

void cli_print_diag(const ws_diag *d) {
  if (d->errors) error_printed = 1;
  for (size_t i = 0; i < d->count; i++) {
    char *s = ws_diag_format_entry(&d->items[i]);
    if (!s) {
      fputs("warpsight: error: out of memory while printing a diagnostic\n", stderr);
      return;
    }
    int seen_before = printed_before(s);
    free(s);
    if (seen_before) continue;
    ws_diag one = {(ws_diag_entry *)&d->items[i], 1, 1, 0}; /* a view of entry i */
    ws_diag_print(stderr, &one, "warpsight");
  }
}

int cli_exit_code(int status) {
  if (status == WS_OK) return EXIT_OK;
  return status == WS_EFAULT ? EXIT_KERNEL_FAULT : EXIT_USAGE;
}

int cli_exit_for(int status) {
  if (status == WS_OK) return EXIT_OK;
  if (!error_printed) {
    fprintf(stderr, "warpsight: error: %s (status %d; no further detail)\n", status_text(status), status);
    error_printed = 1;
  }
  return cli_exit_code(status);
}

int cli_make_dir(const char *cmd, const char *dir) {
  struct stat sb;
  if (mkdir(dir, 0777) == 0) return 0;
  int e = errno;
  if (e == EEXIST && stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode)) return 0;
  error_printed = 1;
  fprintf(stderr, "warpsight %s: error: %s: cannot create: %s\n", cmd, dir,
          e == EEXIST ? "it exists and is not a folder" : strerror(e));
  return EXIT_USAGE;
}

int cli_outdir_begin(const char *cmd, ws_outdir *o, const char *dir) {
  memset(o, 0, sizeof *o);
  if (cli_make_dir(cmd, dir)) return EXIT_USAGE;
  ws_diag d = WS_DIAG_INIT;
  int st = ws_outdir_begin(o, dir, &d);
  cli_print_diag(&d);
  ws_diag_free(&d);
  return st ? EXIT_USAGE : 0;
}

int cli_outdir_end(ws_outdir *o, int ok) {
  if (!ok) {
    ws_outdir_discard(o);
    return 0;
  }
  ws_diag d = WS_DIAG_INIT;
  int st = ws_outdir_commit(o, &d);
  cli_print_diag(&d);
  ws_diag_free(&d);
  return st ? EXIT_USAGE : 0;
}

size_t cli_file_safe(char *buf, size_t size, const char *name) {
  char part[WS_NAME_PART_MAX + 1];
  size_t k = ws_name_part(part, name, 0);
  if (!size) return 0;
  if (k >= size) k = size - 1;
  memcpy(buf, part, k);
  buf[k] = '\0';
  return k;
}

int cli_usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  error_printed = 1;
  fprintf(stderr, "warpsight %s: error: ", cmd);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n(run 'warpsight %s --help' for usage)\n", cmd);
  va_end(ap);
  return EXIT_USAGE;
}

int cli_arch_ok(const char *a) {
  return a && strncmp(a, "sm_", 3) == 0 && strlen(a) >= 5 && strlen(a) <= 16 &&
         strspn(a + 3, "0123456789af") == strlen(a + 3);
}

int cli_check_arch(const char *cmd, const char *arch, const char *file) {
  if (!arch) return 0;
  if (!cli_arch_ok(arch)) return cli_usage_error(cmd, "--arch expects sm_XX (like sm_80), got '%s'", arch);
  size_t n = file ? strlen(file) : 0;
  if (file && !(n >= 3 && !strcmp(file + n - 3, ".cu")))
    return cli_usage_error(cmd, "--arch %s chooses nvcc's target for a .cu file; %s is PTX already, "
                                "run for its own .target (compile the .cu for %s instead)",
                           arch, file, arch);
  return 0;
}

/* 1 when s reads as a number, signed or not, whole or not ("3", "-3",
 * "+2.5", "-.5"): the next argument an option with an optional value takes,
 * so that "--lines -3" gets the option's own range error, as "--lines=-3"
 * does, not "unknown option '-3'" (and "--lines 2.5" its own error, not
 * "unexpected argument").  "-j" or a file name is not one. */
static int looks_numeric(const char *s) {
  if (*s == '-' || *s == '+') s++;
  size_t n = strlen(s);
  return n > 0 && strspn(s, "0123456789.") == n && strpbrk(s, "0123456789") != NULL;
}

int cli_parse(const char *cmd, int argc, char **argv, const cli_opt *opts,
              const char **positional, int max_positional, int *npositional,
              const char *help, int *want_help) {
  *npositional = 0;
  *want_help = 0;
  int only_positional = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!only_positional && strcmp(a, "--") == 0) {
      only_positional = 1;
      continue;
    }
    if (!only_positional && (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)) {
      fputs(help, stdout);
      *want_help = 1;
      return 0;
    }
    if (!only_positional && a[0] == '-' && a[1] != '\0') {
      const char *eq = strchr(a, '=');
      size_t n = eq ? (size_t)(eq - a) : strlen(a);
      const cli_opt *o = NULL;
      for (const cli_opt *q = opts; q && q->name; q++)
        if (strlen(q->name) == n && strncmp(q->name, a, n) == 0) o = q;
      if (!o) return cli_usage_error(cmd, "unknown option '%.*s'", (int)n, a);
      if (o->takes_value == 2) { /* optional: =value, or a number next */
        if (eq) *o->value = eq + 1;
        else if (i + 1 < argc && looks_numeric(argv[i + 1]))
          *o->value = argv[++i];
        else *o->value = "";
      } else if (o->takes_value) {
        if (eq) {
          *o->value = eq + 1;
        } else {
          if (i + 1 >= argc)
            return cli_usage_error(cmd, "option '%s' needs a value", o->name);
          *o->value = argv[++i];
        }
      } else {
        if (eq) return cli_usage_error(cmd, "option '%s' takes no value", o->name);
        *o->value = "1";
      }
      continue;
    }
    if (*npositional >= max_positional)
      return cli_usage_error(cmd, "unexpected argument '%s'", a);
    positional[(*npositional)++] = a;
  }
  return 0;
}

int cli_parse_limit(const char *cmd, const char *opt, const char *s, unsigned long long *out) {
  uint64_t v;
  if (!s) return 0;
  if (ws_parse_count(s, 0, &v))
    return cli_usage_error(cmd, "%s expects a number of warp instructions (0: no limit), got '%.200s'", opt, s);
  *out = v;
  return 0;
}

int cli_parse_bytes(const char *cmd, const char *opt, const char *s, unsigned long long *out) {
  uint64_t v;
  if (!s) return 0;
  if (ws_parse_count(s, 1, &v))
    return cli_usage_error(cmd, "%s expects a number of bytes with an optional K, M, G or T, got '%.200s'", opt,
                           s);
  *out = v ? v : ~0ull;
  return 0;
}

void cli_print_json(const cJSON *j) {
  char *s = ws_json_print(j, 1);
  if (s) puts(s);
  cJSON_free(s);
}

const char *cli_charts_dir(char *buf, size_t size, const char *charts, const char *gpu,
                           size_t ngpu) {
  if (!charts || ngpu <= 1) return charts;
  snprintf(buf, size, "%s/%s", charts, gpu);
  size_t n = strlen(charts) + 1;
  for (char *c = buf + (n < size ? n : size - 1); *c; c++)
    if (*c == '/') *c = '_';
  return buf;
}

int cli_write_text(const char *path, const char *text, int nl) {
  ws_diag d = WS_DIAG_INIT;
  ws_outfile o;
  int st = ws_outfile_open(&o, path, &d);
  if (!st) {
    if (text) fputs(text, o.f);
    if (nl) fputc('\n', o.f);
    st = ws_outfile_commit(&o, &d);
  }
  cli_print_diag(&d);
  ws_diag_free(&d);
  return st ? EXIT_USAGE : 0;
}

int cli_parse_int(const char *cmd, const char *opt, const char *s, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < 0)
    return cli_usage_error(cmd, "%s expects a non-negative integer, got '%s'", opt, s);
  *out = v;
  return 0;
}

static int parse_sample_blocks(const char *cmd, const char *s, long *out, int with_auto) {
  uint64_t v;
  if (with_auto && strcmp(s, "auto") == 0) return *out = CLI_SAMPLE_AUTO, 0;
  if (ws_parse_sample_blocks(s, &v))
    return cli_usage_error(cmd, "--sample-blocks expects a number of blocks (0 or 'all': every block%s), got '%s'",
                           with_auto ? "; or 'auto'" : "", s);
  if (v > (uint64_t)1 << 30)
    return cli_usage_error(cmd, "--sample-blocks %llu is more than 2^30 blocks", (unsigned long long)v);
  *out = (long)v;
  return 0;
}

int cli_parse_sample_blocks(const char *cmd, const char *s, long *out) {
  return parse_sample_blocks(cmd, s, out, 0);
}

int cli_parse_sample_blocks_auto(const char *cmd, const char *s, long *out) {
  return parse_sample_blocks(cmd, s, out, 1);
}

int cli_parse_engine(const char *cmd, const char *s, ws_emu_engine *out) {
  const char *e = getenv("WARPSIGHT_ENGINE");
  *out = WS_EMU_ENGINE_AUTO;
  if (!s && e && *e) {
    if (ws_emu_engine_parse(out, e) == WS_OK) return 0;
    return cli_usage_error(cmd, "WARPSIGHT_ENGINE expects auto, interp or jit, got '%.100s'", e);
  }
  if (s && ws_emu_engine_parse(out, s) != WS_OK)
    return cli_usage_error(cmd, "--engine expects auto, interp or jit, got '%.100s'", s);
  return 0;
}

int cli_prepare_engine(ws_emu_jit **jit, ws_emu_program *p, ws_emu_engine e, uint64_t threads, ws_diag *d) {
  if (e == WS_EMU_ENGINE_INTERP) return WS_OK;
  ws_diag jd = WS_DIAG_INIT;
  int st = WS_OK;
  if (!*jit) {
    ws_emu_jit_options o = WS_EMU_JIT_OPTIONS_INIT;
    ws_emu_jit_options_env(&o);
    st = ws_emu_jit_new(jit, &o, &jd);
  }
  int small = 0; /* auto, not cached, too little work to pay a compile */
  if (!st && e == WS_EMU_ENGINE_AUTO) {
    st = ws_emu_jit_prepare(*jit, p, WS_EMU_JIT_CACHED_ONLY, &jd);
    if (st == WS_EMISSING) {
      small = !ws_emu_jit_worth(p, threads, 0);
      st = small ? WS_EMISSING : ws_emu_jit_prepare(*jit, p, 0, &jd);
    }
  } else if (!st) {
    st = ws_emu_jit_prepare(*jit, p, 0, &jd);
  }
  const char *v = getenv("WARPSIGHT_VERBOSE");
  int verbose = v && *v && strcmp(v, "0") != 0;
  const char *k = ws_emu_program_kernel(p)->name;
  if (st == WS_ENOMEM || (st && e == WS_EMU_ENGINE_JIT)) {
    ws_diag_append(d, &jd);
  } else if (!*jit && !verbose && ws_emu_jit_worth(p, threads, 0)) {
    /* the work would pay for a compile: one line saying why it is not done */
    fprintf(stderr, "warpsight: note: kernel %s runs in the interpreter: %s\n", k,
            jd.count ? jd.items[0].message : "no C compiler");
  } else if (verbose) {
    if (small) {
      fprintf(stderr,
              "warpsight: kernel %s runs in the interpreter: too little work to pay for compiling it "
              "(--engine jit compiles it anyway)\n",
              k);
    } else if (st) {
      fprintf(stderr, "warpsight: kernel %s runs in the interpreter:\n", k);
      cli_print_diag(&jd);
    } else {
      fprintf(stderr, "warpsight: kernel %s runs in the translated engine (%s)\n", k, ws_emu_jit_compiler(*jit));
    }
  }
  ws_diag_free(&jd);
  return st == WS_ENOMEM || e == WS_EMU_ENGINE_JIT ? st : WS_OK;
}
