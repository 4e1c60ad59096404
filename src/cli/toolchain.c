/*
 * toolchain.c — nvcc and ptxas for the CLI (cli/toolchain.h).
 */
#include "cli/toolchain.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

void cli_print_file(FILE *to, const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return;
  char line[1024];
  while (fgets(line, sizeof line, f)) fputs(line, to);
  fclose(f);
}

int cli_has_suffix(const char *s, const char *suf) {
  size_t n = strlen(s), m = strlen(suf);
  return n >= m && strcmp(s + n - m, suf) == 0;
}

void cli_rm_tmp(const char *dir) {
  static const char *const names[] = {"in.ptx", "nvcc.log"};
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
  char nvcc[4096];
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
  const char *fa = ws_tool_file(fbuf, sizeof fbuf, file), *oa = ws_tool_file(obuf, sizeof obuf, out);
  if (!fa || !oa) {
    cli_rm_tmp(dir);
    dir[0] = '\0';
    return cli_usage_error(cmd, "the file name '%.200s...' is too long", file);
  }
  char *argv1[] = {nvcc, "-ptx", "-lineinfo", archopt, (char *)fa, "-o", (char *)oa, NULL};
  int st = ws_tool_run(argv1, log);
  if (st != 0) {
    fprintf(stderr, "warpsight %s: error: nvcc failed on %s (status %d):\n", cmd, file, st);
    cli_print_file(stderr, log);
    cli_rm_tmp(dir); /* a failed compile leaves no folder behind */
    dir[0] = '\0';
    return EXIT_USAGE;
  }
  *have_ptxas = ws_tool_ptxas_on_ptx(out, arch, pl);
  return 0;
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
  if (ws_tool_run(argv, log) == 0) {
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
