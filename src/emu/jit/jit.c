/*
 * jit.c — the translated engine's compiler side: finding a C compiler at
 * run time, compiling a program's translation into a shared object,
 * caching it, loading it.
 *
 * Cache: one file per translation, <folder>/<key>.so, where the key is a
 * 128-bit hash of the generated C text (which holds the translator's
 * version and the embedded headers, so any change to them changes it), the
 * compiler's identity (its path and the first line of `--version`), the
 * flags, and on Linux the CPU (flags are -march=native there).  A new
 * object is compiled into a temporary file in the same folder and renamed
 * into place, so concurrent processes never see half a file; the loaded
 * object's own key is checked against the name.  Without a usable folder
 * the object is compiled in a private temporary folder and removed once
 * loaded.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emu/jit/jit.h"
#include "util/strbuf.h"
#include "util/tool.h"

struct ws_emu_jit {
  char *cc;        /* the compiler (a path, or a name looked up in PATH) */
  char *ident;     /* its identity: path and first line of --version */
  char *cache;     /* the cache folder, or NULL (private temporary folders) */
  char *flags;     /* compiler flags */
  char *cpu;       /* the CPU the code is compiled for ("" when -march is not used) */
  int keep;        /* keep the generated C files */
};

/* Is `name` an executable file on PATH (or a path to one)? */
static int on_path(const char *name) {
  char buf[4096];
  return ws_tool_which(name, buf, sizeof buf) != NULL;
}

/* The CPU's model and feature flags (Linux), so that code compiled with
 * -march=native is only ever loaded on the CPU it was made for. */
static char *cpu_identity(void) {
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f) return NULL;
  ws_strbuf b = WS_STRBUF_INIT;
  char line[8192];
  int model = 0, flags = 0;
  while ((!model || !flags) && fgets(line, sizeof line, f)) {
    if (!model && (strncmp(line, "model name", 10) == 0 || strncmp(line, "CPU part", 8) == 0)) {
      ws_sb_puts(&b, line);
      model = 1;
    }
    if (!flags && (strncmp(line, "flags", 5) == 0 || strncmp(line, "Features", 8) == 0)) {
      ws_sb_puts(&b, line);
      flags = 1;
    }
  }
  fclose(f);
  if (!flags) {
    ws_sb_free(&b);
    return NULL;
  }
  return ws_sb_take(&b);
}

void ws_emu_jit_free(ws_emu_jit *j) {
  if (!j) return;
  free(j->cc);
  free(j->ident);
  free(j->cache);
  free(j->flags);
  free(j->cpu);
  free(j);
}

/* mkdir -p dir (mode 0700 for what it creates); 0 when it is a folder. */
static int make_dirs(const char *dir) {
  char path[4096];
  size_t n = strlen(dir);
  if (!n || n >= sizeof path) return -1;
  memcpy(path, dir, n + 1);
  for (char *p = path + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      if (mkdir(path, 0700) && errno != EEXIST) return -1;
      *p = '/';
    }
  if (mkdir(path, 0700) && errno != EEXIST) return -1;
  struct stat s;
  return stat(path, &s) == 0 && S_ISDIR(s.st_mode) && access(path, W_OK | X_OK) == 0 ? 0 : -1;
}

/* $XDG_CACHE_HOME/warpsight/jit, else $HOME/.cache/warpsight/jit, else NULL. */
static char *default_cache(void) {
  const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
  ws_strbuf b = WS_STRBUF_INIT;
  if (x && x[0] == '/') ws_sb_printf(&b, "%s/warpsight/jit", x);
  else if (h && h[0] == '/') ws_sb_printf(&b, "%s/.cache/warpsight/jit", h);
  else return NULL;
  return ws_sb_take(&b);
}

void ws_emu_jit_options_env(ws_emu_jit_options *o) {
  const char *cc = getenv("WARPSIGHT_JIT_CC"), *cache = getenv("WARPSIGHT_JIT_CACHE"),
             *keep = getenv("WARPSIGHT_JIT_KEEP");
  if (cc && *cc) o->cc = cc;
  if (cache && *cache) o->cache_dir = cache;
  if (keep) o->keep_source = *keep && strcmp(keep, "0") != 0;
  const char *opt = getenv("WARPSIGHT_JIT_OPT");
  if (opt && opt[0] >= '0' && opt[0] <= '3' && !opt[1]) o->opt_level = opt[0] - '0';
}

int ws_emu_jit_new(ws_emu_jit **out, const ws_emu_jit_options *o, ws_diag *d) {
  *out = NULL;
  ws_emu_jit_options def = WS_EMU_JIT_OPTIONS_INIT;
  if (!o) o = &def;
  const char *cc = o->cc && o->cc[0] ? o->cc : NULL;
  static const char *const names[] = {"cc", "gcc", "clang"};
  for (size_t i = 0; !cc && i < sizeof names / sizeof *names; i++)
    if (on_path(names[i])) cc = names[i];
  if (!cc || !on_path(cc))
    return ws_diag_add(d, WS_SEV_ERROR, NULL, 0, 0,
                       cc ? "the C compiler '%s' for the translated engine is not an executable file"
                          : "no C compiler for the translated engine (looked for cc, gcc and clang on PATH)%s",
                       cc ? cc : ""),
           WS_EUNSUP;
  char ver[512] = "";
  char *argv[] = {(char *)cc, "--version", NULL};
  if (ws_tool_capture(argv, ver, sizeof ver) != 0)
    return ws_diag_add(d, WS_SEV_ERROR, NULL, 0, 0, "the C compiler '%s' does not run ('%s --version' failed)", cc,
                       cc),
           WS_EUNSUP;
  ver[strcspn(ver, "\n")] = 0;
  ws_emu_jit *j = calloc(1, sizeof *j);
  if (!j) return WS_ENOMEM;
  ws_strbuf b = WS_STRBUF_INIT;
  ws_sb_printf(&b, "%s: %s", cc, ver);
  j->ident = ws_sb_take(&b);
  j->cc = ws_strdup(cc);
  j->cpu = cpu_identity();
  int opt = o->version >= 2 && o->opt_level >= 0 && o->opt_level <= 3 ? o->opt_level : 2;
  ws_sb_printf(&b,
               "-O%d -fPIC -shared -std=gnu11 -w -fvisibility=hidden -ffp-contract=off -fno-math-errno "
               "-fno-trapping-math%s",
               opt, j->cpu ? " -march=native" : "");
  j->flags = ws_sb_take(&b);
  if (!j->cpu) j->cpu = ws_strdup("");
  j->cache = o->cache_dir && o->cache_dir[0] ? ws_strdup(o->cache_dir) : default_cache();
  j->keep = o->keep_source;
  if (!j->ident || !j->cc || !j->flags || !j->cpu) {
    ws_emu_jit_free(j);
    return WS_ENOMEM;
  }
  if (j->cache && make_dirs(j->cache)) { /* not usable: compile in temporary folders */
    free(j->cache);
    j->cache = NULL;
  }
  *out = j;
  return WS_OK;
}

const char *ws_emu_jit_compiler(const ws_emu_jit *j) { return j->ident; }
const char *ws_emu_jit_cache_dir(const ws_emu_jit *j) { return j->cache; }

/* FNV-1a, 64 bits, from seed h. */
static uint64_t fnv(uint64_t h, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    h ^= (uint8_t)s[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

void ws_emu_jit_code_free(struct ws_jit_code *c) {
  if (!c) return;
  if (c->dl) dlclose(c->dl);
  free(c);
}

/* Load the object at path if it is the translation with this key. */
static struct ws_jit_code *load(const char *path, const char *key, uint32_t nfuncs) {
  void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!dl) return NULL;
  const jit_program *p = dlsym(dl, "ws_jit_program");
  struct ws_jit_code *c = p && p->abi == WS_JIT_ABI_VERSION && p->key && strcmp(p->key, key) == 0 &&
                                  p->nfuncs == nfuncs
                              ? calloc(1, sizeof *c)
                              : NULL;
  if (!c) {
    dlclose(dl);
    return NULL;
  }
  c->dl = dl;
  c->prog = p;
  return c;
}

/* Compile src into dir/<key>.so (through a temporary file renamed into
 * place); 0, or -1 with the compiler's output in err. */
static int compile(const ws_emu_jit *j, const char *dir, const char *key, const ws_strbuf *src, char *err,
                   size_t nerr) {
  char cpath[4200], opath[4200], final[4200];
  snprintf(cpath, sizeof cpath, "%s/.tmp-%s-XXXXXX.c", dir, key);
  int fd = mkstemps(cpath, 2);
  if (fd < 0) {
    snprintf(err, nerr, "cannot create a file in %s: %s", dir, strerror(errno));
    return -1;
  }
  size_t done = 0;
  while (done < src->n) {
    ssize_t w = write(fd, src->s + done, src->n - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;
    done += (size_t)w;
  }
  close(fd);
  if (done != src->n) {
    snprintf(err, nerr, "cannot write %s: %s", cpath, strerror(errno));
    unlink(cpath);
    return -1;
  }
  snprintf(opath, sizeof opath, "%.*sso", (int)(strlen(cpath) - 1), cpath);
  snprintf(final, sizeof final, "%s/%s.so", dir, key);
  /* the flags as separate arguments */
  char flags[512], *argv[32];
  int argc = 0;
  snprintf(flags, sizeof flags, "%s", j->flags);
  argv[argc++] = j->cc;
  for (char *t = strtok(flags, " "); t && argc < 24; t = strtok(NULL, " ")) argv[argc++] = t;
  argv[argc++] = "-o";
  argv[argc++] = opath;
  argv[argc++] = cpath;
  argv[argc++] = "-lm";
  argv[argc] = NULL;
  int rc = ws_tool_capture(argv, err, nerr);
  char kept[4200];
  snprintf(kept, sizeof kept, "%s/%s.c", dir, key);
  if (!j->keep || rename(cpath, kept)) unlink(cpath);
  if (rc != 0) {
    unlink(opath);
    if (rc < 0) snprintf(err, nerr, "cannot run %s", j->cc);
    return -1;
  }
  if (rename(opath, final)) {
    snprintf(err, nerr, "cannot rename %s to %s: %s", opath, final, strerror(errno));
    unlink(opath);
    return -1;
  }
  return 0;
}

static int prepare(ws_emu_jit *j, ws_emu_program *p, int flags, ws_diag *d) {
  if (p->jit) return WS_OK;
  ws_strbuf src = WS_STRBUF_INIT;
  int st = ws_emu_jit_translate(&src, p, d);
  if (st) {
    ws_sb_free(&src);
    return st;
  }
  /* the key: the text, the compiler, the flags, the CPU */
  uint64_t h1 = 0xcbf29ce484222325ull, h2 = 0x84222325cbf29ce4ull;
  const char *parts[] = {src.s ? src.s : "", j->ident, j->flags, j->cpu};
  for (size_t i = 0; i < 4; i++) {
    size_t n = strlen(parts[i]);
    h1 = fnv(h1, parts[i], n + 1);
    h2 = fnv(h2 ^ (uint64_t)(i + 1) * 0x9e3779b97f4a7c15ull, parts[i], n + 1);
  }
  char key[40];
  snprintf(key, sizeof key, "%016llx%016llx", (unsigned long long)h1, (unsigned long long)h2);
  ws_sb_printf(&src,
               "__attribute__((visibility(\"default\"))) const jit_program ws_jit_program = "
               "{WS_JIT_ABI_VERSION, \"%s\", JIT_NFUNCS, jit_funcs_};\n",
               key);
  if (src.oom) {
    ws_sb_free(&src);
    return WS_ENOMEM;
  }
  char path[4200], err[9000] = "", tmpdir[4200] = "";
  const char *dir = j->cache;
  if (dir && sizeof path <= (size_t)snprintf(path, sizeof path, "%s/%s.so", dir, key))
    dir = NULL; /* a folder name too long for a path: no cache */
  if (dir) {
    if ((p->jit = load(path, key, p->nfuncs))) goto done;
    if (flags & WS_EMU_JIT_CACHED_ONLY) {
      ws_sb_free(&src);
      return WS_EMISSING;
    }
    unlink(path); /* absent, or not this translation: (re)compile it */
  } else {
    if (flags & WS_EMU_JIT_CACHED_ONLY) {
      ws_sb_free(&src);
      return WS_EMISSING;
    }
    const char *t = getenv("TMPDIR");
    if (!t || t[0] != '/' || strlen(t) > 4000) t = "/tmp";
    snprintf(tmpdir, sizeof tmpdir, "%s/warpsight-jit-XXXXXX", t);
    if (!mkdtemp(tmpdir)) {
      ws_sb_free(&src);
      return ws_diag_add(d, WS_SEV_ERROR, NULL, 0, 0, "the translated engine cannot make a temporary folder: %s",
                         strerror(errno)),
             WS_EUNSUP;
    }
    dir = tmpdir;
    if (sizeof path <= (size_t)snprintf(path, sizeof path, "%s/%s.so", dir, key)) path[0] = 0; /* not reached */
  }
  if (compile(j, dir, key, &src, err, sizeof err) == 0) p->jit = load(path, key, p->nfuncs);
  if (!p->jit && !err[0]) snprintf(err, sizeof err, "cannot load %s: %s", path, dlerror());
  if (tmpdir[0]) {
    unlink(path);
    rmdir(tmpdir);
  }
done:
  ws_sb_free(&src);
  if (p->jit) return WS_OK;
  err[strcspn(err, "\n")] = 0; /* the compiler's first line says enough */
  ws_diag_add(d, WS_SEV_ERROR, p->m->path, 0, 0, "the translated engine could not compile kernel '%s' with %s: %s",
              p->funcs[0].f->name, j->cc, err);
  return WS_EUNSUP;
}

int ws_emu_jit_prepare(ws_emu_jit *j, ws_emu_program *p, int flags, ws_diag *d) {
  size_t before = d ? d->errors : 0;
  int st = prepare(j, p, flags, d);
  return ws_diag_oom(d, st, before, p->m->path, "translating kernel '%s' to C", p->funcs[0].f->name);
}

/* Thread instructions of one thread, estimated from the code: each
 * instruction counts once, times 16 for every backward branch around it
 * (a loop level, at most four), and every function the kernel reaches
 * counts once (a call site is not weighted by its callee).  UINT64_MAX when
 * out of memory (then the translation is tried). */
static uint64_t code_work(const ws_emu_program *p) {
  uint64_t total = 0;
  for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
    const dfunc *f = &p->funcs[fi];
    int32_t *depth = calloc((size_t)f->ncode + 1, sizeof *depth);
    if (!depth) return UINT64_MAX;
    for (uint32_t b = 0; b < f->ncode; b++) /* loop levels as differences */
      if (f->code[b].op == D_BRA && f->code[b].target <= b) {
        depth[f->code[b].target]++;
        depth[b + 1]--;
      }
    int32_t level = 0;
    for (uint32_t pc = 0; pc < f->ncode; pc++) {
      level += depth[pc];
      total += 1ull << (4 * (level < 4 ? level : 4));
    }
    free(depth);
  }
  return total;
}

/* The interpreted work a compile of p must save (WS_EMU_JIT_MIN_WORK
 * scaled by the square of its size past WS_EMU_JIT_SIZE_UNIT instructions,
 * as the compiler's time grows; emu.h says by how much), capped at 2^62. */
static uint64_t compile_work(const ws_emu_program *p) {
  uint64_t n = 0;
  for (uint32_t fi = 0; fi < p->nfuncs; fi++) n += p->funcs[fi].ncode;
  if (n <= WS_EMU_JIT_SIZE_UNIT) return WS_EMU_JIT_MIN_WORK;
  double s = (double)n / WS_EMU_JIT_SIZE_UNIT, w = (double)WS_EMU_JIT_MIN_WORK * s * s;
  return w >= 0x1p62 ? 1ull << 62 : (uint64_t)w;
}

int ws_emu_jit_worth(const ws_emu_program *p, uint64_t threads, uint64_t done) {
  uint64_t need = compile_work(p), w = code_work(p);
  if (done >= need) return 1;
  if (threads && w >= (need - done + threads - 1) / threads) return 1;
  return 0;
}

int ws_emu_program_translated(const ws_emu_program *p) { return p->jit != NULL; }

int ws_emu_engine_parse(ws_emu_engine *out, const char *s) {
  if (strcmp(s, "auto") == 0) *out = WS_EMU_ENGINE_AUTO;
  else if (strcmp(s, "interp") == 0) *out = WS_EMU_ENGINE_INTERP;
  else if (strcmp(s, "jit") == 0) *out = WS_EMU_ENGINE_JIT;
  else return WS_EINVAL;
  return WS_OK;
}
