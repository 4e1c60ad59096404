/*
 * tool.c — finding the toolkit's programs, running them and reading ptxas
 * -v's report (util/tool.h).  Programs run through posix_spawn with an
 * argument vector: no shell parses a path, and no fork copies a large
 * multithreaded process (the CUDA runtime's case).  The reader takes the
 * report's text whole, so a line of any length (a long templated kernel
 * name) is read as one line.
 */
#include "util/tool.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "util/vec.h"
#include "warpsight/util.h"

const char *ws_tool_which(const char *name, char *buf, size_t n) {
  if (strchr(name, '/')) {
    if (strlen(name) >= n || access(name, X_OK) != 0) return NULL;
    memcpy(buf, name, strlen(name) + 1);
    return buf;
  }
  const char *path = getenv("PATH");
  if (!path) path = "/usr/bin:/bin"; /* what posix_spawnp searches then */
  while (*path) {
    size_t len = strcspn(path, ":");
    if (len > 0 && len + strlen(name) + 2 <= n) {
      snprintf(buf, n, "%.*s/%s", (int)len, path, name);
      if (access(buf, X_OK) == 0) return buf;
    }
    path += len + (path[len] == ':');
  }
  return NULL;
}

const char *ws_tool_find(const char *name, char *buf, size_t n) {
  if (getenv("PATH") && ws_tool_which(name, buf, n)) return buf;
  const char *home = getenv("CUDA_HOME");
  if (snprintf(buf, n, "%s/bin/%s", home ? home : "/usr/local/cuda", name) >= (int)n) return NULL;
  return access(buf, X_OK) == 0 ? buf : NULL;
}

const char *ws_tool_find_ptxas(char *buf, size_t n) {
  const char *e = getenv("WARPSIGHT_PTXAS");
  if (e && *e) return access(e, X_OK) == 0 ? e : NULL;
  return ws_tool_find("ptxas", buf, n);
}

const char *ws_tool_file(char *buf, size_t n, const char *path) {
  if (path[0] != '-') return path;
  return snprintf(buf, n, "./%s", path) < (int)n ? buf : NULL;
}

extern char **environ;

/* Start argv (a path, or a name looked up in PATH) with stdin from
 * /dev/null and stdout and stderr into the file `log` (when not NULL) or
 * onto descriptor `out`, in this process's environment less LD_PRELOAD:
 * what a sanitizer or a tracer injects into the program under `warpsight
 * exec` must not reach the toolkit or the C compiler (an ASan runtime
 * preloaded into gcc makes it fail).  0 and *pid, or -1. */
static int spawn(char *const argv[], const char *log, int out, pid_t *pid) {
  size_t ne = 0;
  while (environ[ne]) ne++;
  char **env = calloc(ne + 1, sizeof *env);
  posix_spawn_file_actions_t fa;
  if (!env || posix_spawn_file_actions_init(&fa)) {
    free(env);
    return -1;
  }
  for (size_t i = 0, k = 0; i < ne; i++)
    if (strncmp(environ[i], "LD_PRELOAD=", 11) != 0) env[k++] = environ[i];
  /* files opened in the child alone: no descriptor of the parent's, which
   * another of its threads could hand to a child of its own */
  int bad = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0) ||
            (log ? posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600)
                 : posix_spawn_file_actions_adddup2(&fa, out, 1)) ||
            posix_spawn_file_actions_adddup2(&fa, 1, 2) || posix_spawnp(pid, argv[0], &fa, NULL, argv, env);
  posix_spawn_file_actions_destroy(&fa);
  free(env);
  return bad ? -1 : 0;
}

/* Wait for pid: its exit status, or -1 when it did not exit (a signal). */
static int wait_exit(pid_t pid) {
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int ws_tool_run(char *const argv[], const char *log) {
  pid_t pid;
  return spawn(argv, log, -1, &pid) ? -1 : wait_exit(pid);
}

int ws_tool_capture(char *const argv[], char *out, size_t n) {
  if (n) out[0] = 0;
  int fd[2];
  if (pipe(fd)) return -1;
  /* neither end goes to a child that another thread starts meanwhile (the
   * write end held there would keep the read below from ending) */
  fcntl(fd[0], F_SETFD, FD_CLOEXEC);
  fcntl(fd[1], F_SETFD, FD_CLOEXEC);
  pid_t pid;
  int bad = spawn(argv, NULL, fd[1], &pid);
  close(fd[1]);
  size_t got = 0;
  char buf[4096];
  while (!bad) { /* read to the end, so the program never blocks on a full pipe */
    ssize_t r = read(fd[0], buf, sizeof buf);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    for (ssize_t i = 0; i < r && got + 1 < n; i++) out[got++] = buf[i];
  }
  if (n) out[got] = 0;
  close(fd[0]);
  return bad ? -1 : wait_exit(pid);
}

void ws_tool_ptx_target_arch(char *buf, size_t n, const char *target) {
  snprintf(buf, n, "%.*s", target ? (int)strcspn(target, ", \t") : 0, target ? target : "");
}

int ws_tool_ptxas_on_ptx(const char *ptx_path, const char *arch, ws_ptxas_list *l) {
  char pbuf[4096];
  const char *ptxas = ws_tool_find_ptxas(pbuf, sizeof pbuf);
  if (!ptxas) return 0;
  const char *tmp = getenv("TMPDIR");
  ws_strbuf log = WS_STRBUF_INIT, archopt = WS_STRBUF_INIT;
  ws_sb_printf(&log, "%s/warpsight-ptxas-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  ws_sb_printf(&archopt, "-arch=%s", arch);
  size_t n = strlen(ptx_path) + 3;
  char *fbuf = malloc(n);
  const char *file = fbuf ? ws_tool_file(fbuf, n, ptx_path) : NULL;
  int ok = 0, fd = -1;
  if (file && !log.oom && !archopt.oom && (fd = mkstemp(log.s)) >= 0) {
    close(fd); /* ws_tool_run opens it again, in the child */
    char *argv[] = {(char *)ptxas, "-v", archopt.s, "-o", "/dev/null", (char *)file, NULL};
    char *text = NULL;
    size_t len = 0;
    ws_diag d = WS_DIAG_INIT;
    ok = ws_tool_run(argv, log.s) == 0 && ws_read_file(&text, &len, log.s, &d) == WS_OK &&
         ws_tool_ptxas_parse(l, text) == WS_OK;
    free(text);
    ws_diag_free(&d);
    unlink(log.s);
  }
  free(fbuf);
  ws_sb_free(&log);
  ws_sb_free(&archopt);
  return ok;
}

const ws_ptxas_fn *ws_tool_ptxas_lookup(const ws_ptxas_list *l, const char *name) {
  for (size_t i = 0; i < l->n; i++)
    if (strcmp(l->v[i].name, name) == 0) return &l->v[i];
  return NULL;
}

/* The index of the function named by the len bytes at name, added when
 * absent; -1 when out of memory. */
static long fn_index(ws_ptxas_list *l, const char *name, size_t len) {
  for (size_t i = 0; i < l->n; i++)
    if (strlen(l->v[i].name) == len && memcmp(l->v[i].name, name, len) == 0) return (long)i;
  ws_strbuf b = WS_STRBUF_INIT;
  ws_sb_putn(&b, name, len);
  ws_ptxas_fn f = {ws_sb_take(&b), -1, 0, 0, 0, 0};
  if (!f.name || WS_VEC_PUSH(l->v, l->n, l->cap, f)) {
    free(f.name);
    return -1;
  }
  return (long)l->n - 1;
}

/* The decimal number that ends just before `at` (the digits before " bytes
 * smem"); 0 when none. */
static long number_before(const char *line, const char *at) {
  const char *b = at;
  while (b > line && b[-1] >= '0' && b[-1] <= '9') b--;
  return strtol(b, NULL, 10);
}

int ws_tool_ptxas_parse(ws_ptxas_list *l, const char *text) {
  static const char props[] = "Function properties for ", entry[] = "Compiling entry function '";
  long cur = -1;
  for (const char *line = text; line && *line;) {
    const char *eol = strchr(line, '\n');
    size_t len = eol ? (size_t)(eol - line) : strlen(line);
    while (len && line[len - 1] == '\r') len--;
    /* the line as a string of its own, for strstr and sscanf */
    ws_strbuf lb = WS_STRBUF_INIT;
    ws_sb_putn(&lb, line, len);
    if (lb.oom) return WS_ENOMEM;
    const char *s = ws_sb_str(&lb), *p;
    int oom = 0;
    if ((p = strstr(s, props))) {
      p += sizeof props - 1;
      oom = (cur = fn_index(l, p, strlen(p))) < 0;
    } else if ((p = strstr(s, entry))) {
      p += sizeof entry - 1;
      const char *q = strchr(p, '\'');
      oom = (cur = fn_index(l, p, q ? (size_t)(q - p) : strlen(p))) < 0;
    } else if (cur >= 0 && strstr(s, "bytes stack frame")) {
      long a = 0, b = 0, c = 0;
      if (sscanf(s, " %ld bytes stack frame, %ld bytes spill stores, %ld bytes spill loads", &a, &b, &c) == 3) {
        l->v[cur].stack = a;
        l->v[cur].spill_st = b;
        l->v[cur].spill_ld = c;
      }
    } else if (cur >= 0 && (p = strstr(s, "Used "))) {
      long r;
      if (sscanf(p, "Used %ld registers", &r) == 1) l->v[cur].regs = r;
      const char *sm = strstr(p, " bytes smem");
      if (sm) l->v[cur].smem = number_before(p, sm);
    }
    ws_sb_free(&lb);
    if (oom) return WS_ENOMEM;
    line = eol ? eol + 1 : NULL;
  }
  return WS_OK;
}

void ws_tool_ptxas_free(ws_ptxas_list *l) {
  for (size_t i = 0; i < l->n; i++) free(l->v[i].name);
  free(l->v);
  l->v = NULL;
  l->n = l->cap = 0;
}
