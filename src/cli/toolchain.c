/*
 * toolchain.c — nvcc and ptxas for the CLI (cli/toolchain.h).
 */
#include "cli/toolchain.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"

const char *cli_tool_file(char *buf, size_t n, const char *path) {
  if (path[0] != '-') return path;
  return snprintf(buf, n, "./%s", path) < (int)n ? buf : NULL;
}

/* Run argv with stdout and stderr into `log`; returns the exit status or -1. */
int cli_run_tool(char *const argv[], const char *log) {
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
      close(fd);
    }
    execv(argv[0], argv);
    _exit(127);
  }
  int st;
  if (waitpid(pid, &st, 0) < 0) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

void cli_print_file(FILE *to, const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return;
  char line[1024];
  while (fgets(line, sizeof line, f)) fputs(line, to);
  fclose(f);
}

void cli_ptxas_parse_log(const char *path, ws_ptxas_list *l) {
  char *text = NULL;
  size_t len = 0;
  ws_diag d = WS_DIAG_INIT;
  if (ws_read_file(&text, &len, path, &d) == WS_OK) ws_tool_ptxas_parse(l, text);
  free(text);
  ws_diag_free(&d);
}

int cli_has_suffix(const char *s, const char *suf) {
  size_t n = strlen(s), m = strlen(suf);
  return n >= m && strcmp(s + n - m, suf) == 0;
}

void cli_rm_tmp(const char *dir) {
  static const char *const names[] = {"in.ptx", "out.cubin", "nvcc.log", "ptxas.log"};
  char p[4200];
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    if (snprintf(p, sizeof p, "%s/%s", dir, names[i]) >= (int)sizeof p) continue;
    unlink(p);
  }
  rmdir(dir);
}

/* Compile .cu to PTX in a temp folder; returns 0 or EXIT_USAGE. */
int cli_compile_cu(const char *cmd, const char *file, const char *arch, char *dir, size_t dirn,
                      ws_ptxas_list *pl, int *have_ptxas) {
  char nvcc[4096], ptxas[4096];
  if (!ws_tool_find("nvcc", nvcc, sizeof nvcc))
    return cli_usage_error(cmd,
                           "nvcc not found (looked in PATH and $CUDA_HOME/bin or /usr/local/cuda/bin); "
                           "compile the kernel to PTX yourself (nvcc -ptx -arch=%s %s) "
                           "and pass the .ptx file",
                           arch, file);
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, dirn, "%s/warpsight-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    fprintf(stderr, "warpsight %s: error: cannot create a temporary folder: %s\n", cmd,
            strerror(errno));
    return EXIT_USAGE;
  }
  char out[4200], log[4200], archopt[64], fbuf[4200], obuf[4300];
  snprintf(out, sizeof out, "%s/in.ptx", dir);
  snprintf(log, sizeof log, "%s/nvcc.log", dir);
  snprintf(archopt, sizeof archopt, "-arch=%s", arch);
  /* -lineinfo: .loc lines, so that the profile's line table names the .cu's
   * lines (docs/profile.md, "lines"); the code is the same without it.  File
   * names as files, never as options (a .cu named "-optf=o.cu" in a data
   * folder once handed nvcc an options file). */
  const char *fa = cli_tool_file(fbuf, sizeof fbuf, file), *oa = cli_tool_file(obuf, sizeof obuf, out);
  if (!fa || !oa) {
    cli_rm_tmp(dir);
    return cli_usage_error(cmd, "the file name '%.200s...' is too long", file);
  }
  char *argv1[] = {nvcc, "-ptx", "-lineinfo", archopt, (char *)fa, "-o", (char *)oa, NULL};
  int st = cli_run_tool(argv1, log);
  if (st != 0) {
    fprintf(stderr, "warpsight %s: error: nvcc failed on %s (status %d):\n", cmd, file, st);
    cli_print_file(stderr, log);
    return EXIT_USAGE;
  }
  *have_ptxas = 0;
  if (ws_tool_find_ptxas(ptxas, sizeof ptxas)) {
    char cubin[4200], plog[4200], cbuf[4300];
    snprintf(cubin, sizeof cubin, "%s/out.cubin", dir);
    snprintf(plog, sizeof plog, "%s/ptxas.log", dir);
    const char *ca = cli_tool_file(cbuf, sizeof cbuf, cubin);
    char *argv2[] = {ptxas, "-v", archopt, (char *)oa, "-o", (char *)(ca ? ca : cubin), NULL};
    if (cli_run_tool(argv2, plog) == 0) {
      cli_ptxas_parse_log(plog, pl);
      *have_ptxas = 1;
    }
  }
  return 0;
}


int cli_ptxas_on_ptx(const char *ptx_path, const char *arch, ws_ptxas_list *pl) {
  char ptxas[4096];
  if (!ws_tool_find_ptxas(ptxas, sizeof ptxas)) return 0;
  const char *tmp = getenv("TMPDIR");
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/warpsight-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) return 0;
  char cubin[4200], plog[4200], archopt[64], pbuf[4200], cbuf[4300];
  snprintf(cubin, sizeof cubin, "%s/out.cubin", dir);
  snprintf(plog, sizeof plog, "%s/ptxas.log", dir);
  snprintf(archopt, sizeof archopt, "-arch=%s", arch);
  const char *pa = cli_tool_file(pbuf, sizeof pbuf, ptx_path), *ca = cli_tool_file(cbuf, sizeof cbuf, cubin);
  if (!pa || !ca) {
    cli_rm_tmp(dir);
    return 0;
  }
  char *argv[] = {ptxas, "-v", archopt, (char *)pa, "-o", (char *)ca, NULL};
  int ok = cli_run_tool(argv, plog) == 0;
  if (ok) cli_ptxas_parse_log(plog, pl);
  cli_rm_tmp(dir);
  return ok;
}

void cli_nvcc_archs(int *lo, int *hi) {
  *lo = *hi = 0;
  char nvcc[4096], dir[4096], log[4200];
  if (!ws_tool_find("nvcc", nvcc, sizeof nvcc)) return;
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/warpsight-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) return;
  snprintf(log, sizeof log, "%s/nvcc.log", dir);
  char *argv[] = {nvcc, "--list-gpu-arch", NULL};
  if (cli_run_tool(argv, log) == 0) {
    FILE *f = fopen(log, "r");
    char word[64];
    while (f && fscanf(f, "%63s", word) == 1) {
      int v;
      if (sscanf(word, "compute_%d", &v) == 1 && v > 0) {
        if (!*lo || v < *lo) *lo = v;
        if (v > *hi) *hi = v;
      }
    }
    if (f) fclose(f);
  }
  cli_rm_tmp(dir);
}
