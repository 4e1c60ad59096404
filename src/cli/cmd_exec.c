/*
 * cmd_exec.c — `warpsight exec`: run an unmodified CUDA program (built with
 * `nvcc -cudart shared`) on warpsight's CUDA runtime (src/cudart), then
 * print the predicted time of every kernel it launched (docs/exec.md).
 *
 * The runtime does the work inside the program's process; this command only
 * sets the environment (LD_LIBRARY_PATH and the WARPSIGHT_* variables), runs
 * the program, and prints the warpsight-exec/1 report the runtime wrote.
 */
#define _GNU_SOURCE /* sigabbrev_np */
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <dirent.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/elf_needed.h"
#include "cli/html_report.h"
#include "cli/toolchain.h"
#include "cli/model_print.h"
#include "report/table.h"
#include "util/strbuf.h"
#include "util/tool.h"
#include "util/vec.h"
#include "warpsight/gpu.h"
#include "warpsight/report.h"

#ifndef WS_CUDART_DIR
#define WS_CUDART_DIR "" /* set by CMake: the build tree's runtime folder */
#endif

static const char help_text[] =
    "usage: warpsight exec [--gpu G|G1,G2,...|all] [--model M|M1,M2,...|all]\n"
    "                      [--sample-blocks N] [--report DIR]\n"
    "                      [--json] [--max-warp-insts N] [--max-launch-insts N]\n"
    "                      [--max-memory N] [--engine E] -- PROGRAM [ARGS...]\n\n"
    "Runs PROGRAM, an unmodified CUDA program built with `nvcc -cudart shared`, on\n"
    "warpsight's CUDA runtime: every kernel runs in the functional emulator, is\n"
    "profiled and its run time predicted on GPU G.  The program prints what it\n"
    "prints; cudaEventElapsedTime returns the predicted time.  Then, per kernel\n"
    "(demangled name, grid, block): launches, the predicted time per launch and in\n"
    "total for each model, the bottleneck, and the program's total predicted GPU\n"
    "time.  Identical launches (same kernel, geometry and arguments) are profiled\n"
    "once.  docs/exec.md says what the runtime supports.\n\n"
    "  --gpu G               target GPU, a name of 'warpsight gpus' or a JSON file\n"
    "                        (default a100); a comma-separated list or 'all' (the\n"
    "                        database) runs the program once per GPU, each run's\n"
    "                        report, then the program's time per GPU (--report DIR\n"
    "                        writes DIR/GPU/; --json {\"schema\", \"gpus\": [...]})\n"
    "  --model M             a model, models separated by commas, or 'all' (default);\n"
    "                        the first one (warpsight for all) is the primary model: it\n"
    "                        drives cudaEventElapsedTime and the bottleneck; models:\n"
    "%s"
    "  --sample-blocks N     profile N blocks of each grid (all blocks still run);\n"
    "                        default 0 (or 'all'): every block is profiled\n"
    "  --report DIR          write DIR/exec.json (the report), each profiled launch's\n"
    "                        profile, the models' charts and DIR/index.html: one\n"
    "                        self-contained page with the kernels, and per launch the\n"
    "                        models with their terms, the advice, the source lines\n"
    "                        (build with nvcc -lineinfo for .cu lines) and the charts\n"
    "  --json                print the warpsight-exec/1 report as JSON instead\n"
    "  --max-warp-insts N    stop a warp after N warp instructions (default 2^26 =\n"
    "                        67108864; 0: no limit): a runaway kernel faults, as in\n"
    "                        'warpsight run', and the program sees cudaErrorLaunchTimeout\n"
    "  --max-launch-insts N  stop a launch after N warp instructions in all its blocks\n"
    "                        (default: the larger of 2^27 and 2^20 per warp of the\n"
    "                        grid; 0: no limit)\n"
    "  --max-memory N[K|M|G|T]  device memory: the emulator's budget for cudaMalloc and\n"
    "                        the like, and cudaDeviceProp.totalGlobalMem (default 4G;\n"
    "                        0: no budget); past it cudaMalloc returns\n"
    "                        cudaErrorMemoryAllocation\n"
    "  --engine E            which engine runs the blocks the profiler does not watch\n"
    "                        (repeated launches, the blocks --sample-blocks leaves):\n"
    "                        auto (default: the translated engine when the kernel is\n"
    "                        in the cache or its launches pay for a compile, and a C\n"
    "                        compiler and the kernel allow; else the interpreter),\n"
    "                        interp, or jit (translated from the first launch, or the\n"
    "                        launch fails); docs/exec.md, \"Engines\"\n\n"
    "The same options as environment variables, for running the program directly\n"
    "with LD_LIBRARY_PATH=%s:\n"
    "  WARPSIGHT_GPU, WARPSIGHT_MODEL (a name, a comma-separated list, or all),\n"
    "  WARPSIGHT_SAMPLE_BLOCKS, WARPSIGHT_EXEC_JSON (where to write the report),\n"
    "  WARPSIGHT_REPORT_DIR (charts), WARPSIGHT_QUIET=1 (no summary line at exit),\n"
    "  WARPSIGHT_MAX_WARP_INSTS, WARPSIGHT_MAX_LAUNCH_INSTS, WARPSIGHT_MAX_MEMORY,\n"
    "  WARPSIGHT_EXEC_LOG (a launch log written as the program runs), WARPSIGHT_ENGINE;\n"
    "  and WARPSIGHT_JIT_CC (the C compiler), WARPSIGHT_JIT_CACHE (compiled kernels,\n"
    "  default ~/.cache/warpsight/jit), WARPSIGHT_VERBOSE=1 (say which engine runs\n"
    "  each kernel and why).\n"
    "WARPSIGHT_CUDART_DIR overrides the runtime's folder.\n\n"
    "Exit status: the program's (128+N when signal N ended it, said on stderr, as\n"
    "is a status other than 0 and the symbol the dynamic linker could not find);\n"
    "2 bad usage, or the program did not load warpsight's runtime (built without\n"
    "-cudart shared).  A program that dies (abort, a signal, the dynamic linker)\n"
    "still gets its report: the runtime logs every launch as it happens.\n";

static const char *runtime_dir(void) {
  const char *e = getenv("WARPSIGHT_CUDART_DIR");
  return e && *e ? e : WS_CUDART_DIR;
}

static void print_help(void) {
  char list[4096];
  cli_model_list(list, sizeof list);
  printf(help_text, list, runtime_dir());
}

static int set_env(const char *k, const char *v) {
  if (!v) return 0;
  if (setenv(k, v, 1)) {
    fprintf(stderr, "warpsight exec: error: cannot set %s: %s\n", k, strerror(errno));
    return -1;
  }
  return 0;
}

/* What `exec` saw of the program's output: the last byte it wrote on
 * stdout (so that --json starts on a line of its own) and the end of its
 * stderr (to name what the dynamic linker could not find). */
typedef struct seen {
  int tee_out, tee_err;   /* the stream went through exec (not a terminal) */
  int last_out;           /* last byte written on stdout, -1: none */
  char err_tail[4096];    /* the last bytes of stderr, NUL-terminated */
  size_t nerr;
  int exec_errno;         /* execvp's errno when the program could not be
                             started (not found, not executable), else 0 */
} seen;

static void keep_tail(seen *sn, const char *b, size_t n) {
  size_t cap = sizeof sn->err_tail - 1;
  if (n >= cap) {
    memcpy(sn->err_tail, b + n - cap, cap);
    sn->nerr = cap;
  } else {
    size_t drop = sn->nerr + n > cap ? sn->nerr + n - cap : 0;
    memmove(sn->err_tail, sn->err_tail + drop, sn->nerr - drop);
    memcpy(sn->err_tail + sn->nerr - drop, b, n);
    sn->nerr += n - drop;
  }
  sn->err_tail[sn->nerr] = 0;
}

static void write_all(int fd, const char *b, size_t n) {
  while (n) {
    ssize_t w = write(fd, b, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return; /* our own output is gone: keep draining the program */
    b += w;
    n -= (size_t)w;
  }
}

/* Forward what is ready on the program's pipes; 0 once both are closed. */
static int pump(int *fds, seen *sn, int timeout_ms) {
  struct pollfd p[2];
  int n = 0, idx[2];
  for (int i = 0; i < 2; i++)
    if (fds[i] >= 0) p[n] = (struct pollfd){fds[i], POLLIN, 0}, idx[n++] = i;
  if (!n) return 0;
  if (poll(p, (nfds_t)n, timeout_ms) <= 0) return 1;
  for (int k = 0; k < n; k++) {
    if (!(p[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    char b[8192];
    ssize_t r = read(p[k].fd, b, sizeof b);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      close(fds[idx[k]]);
      fds[idx[k]] = -1;
      continue;
    }
    write_all(idx[k] ? 2 : 1, b, (size_t)r);
    if (idx[k] == 0) sn->last_out = (unsigned char)b[r - 1];
    else keep_tail(sn, b, (size_t)r);
  }
  return 1;
}

/* Run argv with the runtime in the environment; the wait status, or -1
 * when it could not be started.  Its stdout and stderr pass through exec
 * when they are not terminals (a terminal stays the program's own, so
 * that it behaves as when run alone). */
static int run_program(char **argv, seen *sn) {
  int po[2] = {-1, -1}, pe[2] = {-1, -1}, ep[2] = {-1, -1};
  sn->tee_out = !isatty(1) && pipe(po) == 0;
  sn->tee_err = !isatty(2) && pipe(pe) == 0;
  sn->last_out = -1;
  sn->exec_errno = 0;
  /* closed by a successful execvp; the child writes errno to it when
   * execvp fails, so exec can tell "not started" from a program's 127 */
  if (pipe2(ep, O_CLOEXEC)) ep[0] = ep[1] = -1;
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (sn->tee_out) dup2(po[1], 1), close(po[0]), close(po[1]);
    if (sn->tee_err) dup2(pe[1], 2), close(pe[0]), close(pe[1]);
    if (ep[0] >= 0) close(ep[0]);
    execvp(argv[0], argv);
    int e = errno;
    fprintf(stderr, "warpsight exec: error: cannot run '%s': %s\n", argv[0], strerror(e));
    ssize_t w = ep[1] >= 0 ? write(ep[1], &e, sizeof e) : 0;
    (void)w; /* a short write: exec falls back to the old messages */
    _exit(127);
  }
  int fds[2] = {sn->tee_out ? po[0] : -1, sn->tee_err ? pe[0] : -1};
  if (sn->tee_out) close(po[1]);
  if (sn->tee_err) close(pe[1]);
  if (ep[1] >= 0) {
    close(ep[1]);
    int e = 0;
    ssize_t n;
    while ((n = read(ep[0], &e, sizeof e)) < 0 && errno == EINTR) {
    }
    if (n == (ssize_t)sizeof e) sn->exec_errno = e ? e : ENOEXEC;
    close(ep[0]);
  }
  int ws = 0, done = 0;
  /* until both pipes close; once the program has ended, until nothing is
   * pending (a process it left behind may hold a pipe open) */
  while (pump(fds, sn, done ? 0 : 200)) {
    if (!done && waitpid(pid, &ws, WNOHANG) == pid) done = 1;
    struct pollfd p[2] = {{fds[0], POLLIN, 0}, {fds[1], POLLIN, 0}};
    if (done && poll(p, 2, 0) <= 0) break;
  }
  for (int i = 0; i < 2; i++)
    if (fds[i] >= 0) close(fds[i]);
  while (!done && waitpid(pid, &ws, 0) < 0)
    if (errno != EINTR) return -1;
  return ws;
}

/* Before the run: a program that links one of NVIDIA's libraries that
 * reach the GPU through the driver (cuBLAS, cuFFT, ...) gets a note that
 * those calls will fail, since a crash or a wrong result later would not
 * say why (docs/exec.md, "NVIDIA's libraries"). */
static void note_driver_libraries(const char *prog) {
  char buf[4096], *names = NULL;
  size_t n = 0;
  const char *file = ws_tool_which(prog, buf, sizeof buf); /* as execvp finds it */
  if (!file || cli_elf_needed(file, &names, &n)) return;
  ws_strbuf b = WS_STRBUF_INIT;
  const char *s = names;
  for (size_t i = 0; i < n; s += strlen(s) + 1, i++) {
    const char *lib = cli_driver_library(s);
    if (lib) ws_sb_printf(&b, "%s%s (%s)", b.n ? ", " : "", s, lib);
  }
  free(names);
  if (b.n && !b.oom)
    fprintf(stderr,
            "warpsight exec: note: %s links %s: these libraries run their own kernels through the CUDA "
            "driver, which warpsight does not provide, so their calls fail as on a machine without a GPU "
            "(cublasCreate returns CUBLAS_STATUS_NOT_INITIALIZED); the program's own kernels run as usual "
            "(docs/exec.md, \"NVIDIA's libraries\")\n",
            prog, ws_sb_str(&b));
  ws_sb_free(&b);
}

/* Say how the program ended when it did not exit with 0 (issue 21): its
 * exit status, the signal that killed it, and for the dynamic linker's
 * status 127 the symbol or library it could not find. */
static void say_how_it_ended(const char *prog, int ws, const seen *sn) {
  if (WIFSIGNALED(ws)) {
    int sig = WTERMSIG(ws);
    const char *abbr = sigabbrev_np(sig);
    fprintf(stderr, "warpsight exec: %s was killed by signal %d (%s%s%s)\n", prog, sig,
            abbr ? "SIG" : "", abbr ? abbr : "", abbr ? "" : strsignal(sig));
    return;
  }
  int st = WEXITSTATUS(ws);
  if (!st) return;
  const char *sym = strstr(sn->err_tail, "undefined symbol: ");
  const char *lib = strstr(sn->err_tail, "error while loading shared libraries: ");
  if (st == 127 && sym) {
    sym += strlen("undefined symbol: ");
    fprintf(stderr, "warpsight exec: %s exited with status 127: the dynamic linker could not find "
            "symbol %.*s\n", prog, (int)strcspn(sym, "\n"), sym);
  } else if (st == 127 && lib) {
    lib += strlen("error while loading shared libraries: ");
    fprintf(stderr, "warpsight exec: %s exited with status 127: the dynamic linker could not load "
            "%.*s\n", prog, (int)strcspn(lib, ":\n"), lib);
  } else {
    fprintf(stderr, "warpsight exec: %s exited with status %d%s\n", prog, st,
            st == 127 && !sn->tee_err ? " (127: a symbol or library the dynamic linker could not "
                                        "find, as its message above says, or a program that "
                                        "could not be run)" : "");
  }
}

static double num(const cJSON *o, const char *k) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* A time in a column of `width` (0: the last column, no padding). */
static void print_ms(FILE *out, double v, int width) {
  char t[32];
  if (isnan(v))
    snprintf(t, sizeof t, "-");
  else
    snprintf(t, sizeof t, "%.6g", v);
  fprintf(out, "%-*s", width, t);
}

static void print_dims(FILE *out, const cJSON *a) {
  int n = 0;
  const cJSON *x;
  cJSON_ArrayForEach(x, a) fprintf(out, "%s%d", n++ ? " x " : "", x->valueint);
}

/* The report as a table (docs/exec.md, "Output"). */
static void print_report(FILE *out, const cJSON *r) {
  const cJSON *models = cJSON_GetObjectItemCaseSensitive(r, "models"), *m, *k;
  const cJSON *kernels = cJSON_GetObjectItemCaseSensitive(r, "kernels");
  int nk = cJSON_GetArraySize(kernels);
  double nl = num(r, "launches");
  fprintf(out, "\n== warpsight exec: %d kernel configuration%s, %.0f launch%s, predicted on %s\n", nk,
         nk == 1 ? "" : "s", nl, nl == 1 ? "" : "es",
         cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "gpu")));
  cJSON_ArrayForEach(k, kernels) {
    const char *dm = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(k, "demangled"));
    fprintf(out, "\nkernel %s: %.0f launch%s, grid ", dm ? dm : "?", num(k, "launches"),
           num(k, "launches") == 1 ? "" : "es");
    print_dims(out, cJSON_GetObjectItemCaseSensitive(k, "grid"));
    fprintf(out, ", block ");
    print_dims(out, cJSON_GetObjectItemCaseSensitive(k, "block"));
    if (num(k, "dynamic_shared") > 0) fprintf(out, ", %.0f dynamic shared bytes", num(k, "dynamic_shared"));
    fprintf(out, "\n  %-16s%-22s%s\n", "model", "per launch (ms)", "total (ms)");
    const cJSON *per = cJSON_GetObjectItemCaseSensitive(k, "per_launch_ms");
    const cJSON *tot = cJSON_GetObjectItemCaseSensitive(k, "total_ms");
    cJSON_ArrayForEach(m, models) {
      fprintf(out, "  %-16s", m->valuestring);
      print_ms(out, num(per, m->valuestring), 22);
      print_ms(out, num(tot, m->valuestring), 0);
      fprintf(out, "\n");
    }
    const char *b = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(k, "bottleneck"));
    fprintf(out, "  bottleneck (%s): %s\n",
           cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "primary_model")),
           b ? b : "unknown (the model could not run)");
  }
  fprintf(out, "\npredicted GPU time of the program (ms):\n");
  const cJSON *tot = cJSON_GetObjectItemCaseSensitive(r, "total_ms");
  cJSON_ArrayForEach(m, models) {
    fprintf(out, "  %-16s", m->valuestring);
    print_ms(out, num(tot, m->valuestring), 0);
    fprintf(out, "\n");
  }
}

/* The emulated-work limits as given (the runtime reads the same syntax). */
typedef struct exec_limits {
  const char *warp, *launch, *memory; /* --max-warp-insts, --max-launch-insts, --max-memory */
  const char *engine;                 /* --engine */
} exec_limits;

/* Check the options before running anything: the one grammar of --gpu and
 * --model (cli_model_names, cli_gpu_names), every GPU loaded. */
static int check_options(const char **gpus, size_t *ngpu, char *gbuf, size_t gsize, const char *gpu,
                         const char *model, const char *sample, const exec_limits *lim) {
  long n;
  ws_emu_engine eng;
  if (cli_parse_engine("exec", lim->engine, &eng)) return EXIT_USAGE;
  unsigned long long v;
  char mbuf[4096];
  const char *models[CLI_MAX_TARGETS];
  if (sample && cli_parse_sample_blocks("exec", sample, &n)) return EXIT_USAGE;
  if (cli_parse_limit("exec", "--max-warp-insts", lim->warp, &v) ||
      cli_parse_limit("exec", "--max-launch-insts", lim->launch, &v) ||
      cli_parse_bytes("exec", "--max-memory", lim->memory, &v))
    return EXIT_USAGE;
  if (model && !cli_model_names("exec", "--model", model, mbuf, sizeof mbuf, models, CLI_MAX_TARGETS))
    return EXIT_USAGE;
  *ngpu = 1;
  gpus[0] = NULL; /* the runtime's default */
  if (gpu && !(*ngpu = cli_gpu_names("exec", "--gpu", gpu, gbuf, gsize, gpus, CLI_MAX_TARGETS)))
    return EXIT_USAGE;
  for (size_t k = 0; gpu && k < *ngpu; k++) {
    ws_diag d = WS_DIAG_INIT;
    ws_gpu *g = NULL;
    int st = ws_gpu_load(&g, gpus[k], &d);
    cli_print_diag(&d);
    ws_diag_free(&d);
    ws_gpu_free(g);
    if (st) return EXIT_USAGE;
  }
  return EXIT_OK;
}

/* Point the environment at the runtime and the options; *json_path gets
 * the report's file (the caller frees it; a temporary one is removed). */
static int prepare_env(const char *gpu, const char *model, const char *sample, const exec_limits *lim,
                       const char *report, char **json_path, int *tmp) {
  ws_strbuf b = {0};
  const char *old = getenv("LD_LIBRARY_PATH"), *rt = runtime_dir();
  size_t n = strlen(rt);
  int st = 0;
  if (!old || strncmp(old, rt, n) || (old[n] && old[n] != ':')) { /* once, for a --gpu list too */
    ws_sb_printf(&b, "%s%s%s", rt, old && *old ? ":" : "", old && *old ? old : "");
    char *lib = ws_sb_take(&b);
    st = set_env("LD_LIBRARY_PATH", lib);
    free(lib);
  }
  st = st || set_env("WARPSIGHT_GPU", gpu) || set_env("WARPSIGHT_MODEL", model) ||
       set_env("WARPSIGHT_SAMPLE_BLOCKS", sample) || set_env("WARPSIGHT_MAX_WARP_INSTS", lim->warp) ||
       set_env("WARPSIGHT_MAX_LAUNCH_INSTS", lim->launch) || set_env("WARPSIGHT_MAX_MEMORY", lim->memory) ||
       set_env("WARPSIGHT_ENGINE", lim->engine);
  if (st) return EXIT_USAGE;
  *tmp = 0;
  if (report) {
    if (cli_make_dir("exec", report)) return EXIT_USAGE;
    ws_sb_printf(&b, "%s/exec.json", report);
    *json_path = ws_sb_take(&b);
    if (set_env("WARPSIGHT_REPORT_DIR", report)) return EXIT_USAGE;
  } else {
    const char *t = getenv("TMPDIR");
    ws_sb_printf(&b, "%s/warpsight-exec-XXXXXX", t && *t ? t : "/tmp");
    *json_path = ws_sb_take(&b);
    int fd = *json_path ? mkstemp(*json_path) : -1;
    if (fd < 0) {
      fprintf(stderr, "warpsight exec: error: cannot create a temporary file: %s\n", strerror(errno));
      return EXIT_USAGE;
    }
    close(fd);
    *tmp = 1;
  }
  unlink(*json_path); /* the runtime writes it: its absence says it did not */
  ws_sb_printf(&b, "%s.log", *json_path);
  char *log = ws_sb_take(&b);
  if (log) unlink(log); /* the runtime creates it when it starts */
  unsetenv("WARPSIGHT_QUIET");
  st = set_env("WARPSIGHT_EXEC_JSON", *json_path) || !log || set_env("WARPSIGHT_EXEC_LOG", log);
  free(log);
  return st ? EXIT_USAGE : EXIT_OK;
}

/* The report from the runtime's launch log (src/cudart/report.c says what
 * it holds), for a program that ended without the runtime's exit handler:
 * every kernel that ran, with its launches.  NULL when the log has no
 * start line (nothing ran) or cannot be read.  A line cut short (the
 * program killed while writing it) is skipped, and so are the launches of
 * a profile never described. */
#define LOG_MAX_MODELS 64
static char *report_from_log(const char *path) {
  char *text = NULL, *out = NULL;
  size_t len;
  ws_diag d = WS_DIAG_INIT;
  int st = ws_read_file(&text, &len, path, &d);
  ws_diag_free(&d);
  if (st) return NULL;
  cJSON *start = NULL, *lines = cJSON_CreateArray(); /* the parsed lines, kept: records borrow them */
  ws_exec_kernel *ks = NULL;
  double *ms = NULL; /* nmodels per record */
  size_t nk = 0, cap_ks = 0, cap_ms = 0, nmodels = 0;
  const char *models[LOG_MAX_MODELS], *sticky = "cudaSuccess";
  uint64_t launches = 0;
  for (char *p = text, *e; lines && *p; p = e + (*e != 0)) {
    e = p + strcspn(p, "\n");
    size_t i;
    if (sscanf(p, "{\"launch\":%zu}", &i) == 1) {
      if (i < nk && ks[i].name) ks[i].launches++, launches++;
      continue;
    }
    char keep = *e;
    *e = 0;
    cJSON *o = cJSON_Parse(p);
    *e = keep;
    if (!o) continue;
    cJSON_AddItemToArray(lines, o);
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(o, "kstat");
    const cJSON *se = cJSON_GetObjectItemCaseSensitive(o, "sticky_error");
    if (cJSON_IsString(se)) sticky = se->valuestring;
    if (!start && (start = cJSON_GetObjectItemCaseSensitive(o, "start"))) {
      const cJSON *m;
      cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(start, "models"))
        if (cJSON_IsString(m) && nmodels < LOG_MAX_MODELS) models[nmodels++] = m->valuestring;
    }
    if (!start || !cJSON_IsNumber(k) || k->valuedouble < 0 || k->valuedouble > 1e9) continue;
    i = (size_t)k->valuedouble;
    if (i >= nk) { /* keys come in order; a gap is left empty */
      if (WS_VEC_RESERVE(ks, cap_ks, i + 1) || WS_VEC_RESERVE(ms, cap_ms, (i + 1) * (nmodels + 1)))
        break;
      memset(ks + nk, 0, (i + 1 - nk) * sizeof *ks);
      nk = i + 1;
    }
    ws_exec_kernel *r = &ks[i];
    r->name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "name"));
    for (int a = 0; a < 3; a++) {
      const cJSON *gv = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(o, "grid"), a);
      const cJSON *bv = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(o, "block"), a);
      r->grid[a] = cJSON_IsNumber(gv) ? (uint32_t)gv->valuedouble : 0;
      r->block[a] = cJSON_IsNumber(bv) ? (uint32_t)bv->valuedouble : 0;
    }
    const cJSON *ds = cJSON_GetObjectItemCaseSensitive(o, "dynamic_shared");
    r->dynamic_shared = cJSON_IsNumber(ds) ? (uint64_t)ds->valuedouble : 0;
    for (size_t m = 0; m < nmodels; m++) {
      const cJSON *v = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(o, "per_launch_ms"), (int)m);
      ms[i * (nmodels + 1) + m] = cJSON_IsNumber(v) ? v->valuedouble : NAN;
    }
    r->bottleneck = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "bottleneck"));
  }
  for (size_t i = 0; i < nk; i++) { /* the times move with realloc: pointed to at the end */
    ks[i].per_launch_ms = ms + i * (nmodels + 1);
    if (!ks[i].name) ks[i].name = "", ks[i].launches = 0;
  }
  if (start) {
    ws_exec_run run = {cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(start, "gpu")),
                       models, nmodels, launches, sticky, ks, nk};
    out = ws_report_exec_json(&run, NULL);
  }
  cJSON_Delete(lines);
  free(ks), free(ms), free(text);
  return out;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Run the program once on GPU `gpu` (NULL: the runtime's default), say
 * how it ended, and read its report into *out: the runtime's, else the one
 * its launch log gives for a program that ended without the runtime's exit
 * handler (NULL when there is none; *loaded says whether the runtime
 * started at all).  *sn: what the program printed last (for --json).
 * Returns the program's exit status (128+N for signal N), -1 when it could
 * not be started, or EXIT_USAGE before running it. */
static int exec_gpu(cJSON **out, int *loaded, seen *sn, char **argv, const char *gpu, const char *model,
                    const char *sample, const exec_limits *lim, const char *report) {
  *out = NULL;
  *loaded = 0;
  char *json_path = NULL;
  int tmp = 0;
  int st = prepare_env(gpu, model, sample, lim, report, &json_path, &tmp);
  if (st) {
    free(json_path);
    return st;
  }
  memset(sn, 0, sizeof *sn);
  int ws = run_program(argv, sn);
  int rc = ws < 0 ? -1 : WIFEXITED(ws) ? WEXITSTATUS(ws) : WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : -1;
  if (ws >= 0 && !sn->exec_errno) say_how_it_ended(argv[0], ws, sn);
  char *text = NULL, *log = NULL;
  size_t len;
  ws_diag d = WS_DIAG_INIT;
  cJSON *r = NULL;
  if (ws_read_file(&text, &len, json_path, &d) == WS_OK) r = cJSON_Parse(text);
  ws_diag_free(&d);
  ws_strbuf b = {0};
  ws_sb_printf(&b, "%s.log", json_path);
  log = ws_sb_take(&b);
  struct stat lst;
  *loaded = log && stat(log, &lst) == 0; /* the runtime creates it when it starts */
  if (!r && *loaded) {
    /* the program ended without the runtime's exit handler: the kernels
     * that ran come from the launch log (and go to --report's file too) */
    free(text);
    text = report_from_log(log);
    r = text ? cJSON_Parse(text) : NULL;
    if (r) {
      fprintf(stderr, "warpsight exec: %s ended before warpsight's runtime wrote its report; the "
              "kernels below come from the runtime's launch log\n", argv[0]);
      if (!tmp) {
        ws_diag wd = WS_DIAG_INIT;
        if (ws_write_file(json_path, text, strlen(text), &wd)) cli_print_diag(&wd);
        ws_diag_free(&wd);
      }
    } else {
      fprintf(stderr, "warpsight exec: %s loaded warpsight's CUDA runtime but ended before any "
              "kernel ran\n", argv[0]);
    }
  }
  free(text);
  if (log) unlink(log);
  free(log);
  if (tmp) unlink(json_path);
  free(json_path);
  *out = r;
  return rc;
}

/* A --gpu list: the program's predicted GPU time per model (a row) and
 * GPU (a column). */
static void print_gpu_table(cJSON *const *reps, const char *const *gpus, size_t ngpu) {
  const cJSON *models = NULL;
  for (size_t k = 0; k < ngpu && !models; k++)
    if (reps[k]) models = cJSON_GetObjectItemCaseSensitive(reps[k], "models");
  printf("\npredicted GPU time of the program (ms), by GPU:\n  %-16s", "model");
  for (size_t k = 0; k < ngpu; k++) printf(" %*s", ws_report_col_width(gpus[k]), gpus[k]);
  printf("\n");
  const cJSON *m;
  cJSON_ArrayForEach(m, models) {
    printf("  %-16s", m->valuestring);
    for (size_t k = 0; k < ngpu; k++) {
      const cJSON *t = reps[k] ? cJSON_GetObjectItemCaseSensitive(reps[k], "total_ms") : NULL;
      double v = num(t, m->valuestring);
      if (isnan(v)) printf(" %*s", ws_report_col_width(gpus[k]), "-");
      else printf(" %*.6g", ws_report_col_width(gpus[k]), v);
    }
    printf("\n");
  }
}

/* --report DIR's page, for one GPU's run (its report r, its folder dir):
 * the kernels' table, then each profiled launch the runtime wrote
 * (DIR/KERNEL-N.profile.json) with the models, the advice, the source lines
 * (found as the program's PTX names them) and the charts. */
static int exec_html_run(ws_html *h, const cJSON *r, const char *dir, const char *program) {
  const char *gpu = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "gpu"));
  char head[512];
  snprintf(head, sizeof head, "%s on %s", program, gpu ? gpu : "?");
  ws_report_html_open(h, "exec", head);
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len); /* the table as the terminal shows it */
  if (mem) {
    print_report(mem, r);
    fclose(mem);
    ws_report_html_pre(h, text ? text : "");
  }
  free(text);
  ws_report_html_close(h);
  const cJSON *mj = cJSON_GetObjectItemCaseSensitive(r, "models"), *m;
  const char *models[CLI_MAX_TARGETS];
  size_t nm = 0;
  cJSON_ArrayForEach(m, mj) if (cJSON_IsString(m) && nm < CLI_MAX_TARGETS) models[nm++] = m->valuestring;
  DIR *dp = opendir(dir);
  if (!dp) return EXIT_OK;
  struct dirent *e;
  int rc = EXIT_OK;
  char **names = NULL;
  size_t n = 0, cap = 0;
  while ((e = readdir(dp)))
    if (cli_has_suffix(e->d_name, ".profile.json")) {
      char *c = ws_strdup(e->d_name);
      if (c && WS_VEC_PUSH(names, n, cap, c)) free(c);
    }
  closedir(dp);
  if (n) qsort(names, n, sizeof *names, cmp_str);
  for (size_t i = 0; i < n; i++) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    ws_diag d = WS_DIAG_INIT;
    ws_profile *p = NULL;
    ws_gpu *g = NULL;
    if (ws_profile_load_file(&p, path, &d) || ws_gpu_load(&g, gpu ? gpu : "a100", &d)) {
      cli_print_diag(&d);
      rc = EXIT_USAGE;
    } else {
      char label[1024];
      ws_report_kernel_label(label, sizeof label, p->kernel);
      ws_report_html_heading(h, label);
      ws_model_result *res = NULL;
      size_t nres = 0;
      cJSON *quiet = cJSON_CreateObject(); /* the results go to the page only */
      cli_run_models(p, g, models, nm, quiet, &res, &nres);
      cJSON_Delete(quiet);
      ws_advice a = WS_ADVICE_INIT;
      int ast = cli_advise(&a, p, g, res, nres, NULL, &d);
      if (cli_html_result_set(h, p, g, res, nres, ast == WS_OK ? &a : NULL, program, dir)) rc = EXIT_USAGE;
      ws_advise_free(&a);
      for (size_t j = 0; j < nres; j++) ws_model_result_free(&res[j]);
      free(res);
    }
    ws_profile_free(p);
    ws_gpu_free(g);
    ws_diag_free(&d);
    free(names[i]);
  }
  free(names);
  return rc;
}

int cmd_exec(int argc, char **argv) {
  int dd = 1;
  while (dd < argc && strcmp(argv[dd], "--") != 0) dd++;
  const char *gpu = NULL, *model = NULL, *sample = NULL, *report = NULL, *json = NULL;
  exec_limits lim = {NULL, NULL, NULL, NULL};
  cli_opt opts[] = {{"--gpu", 1, &gpu},
                    {"--model", 1, &model},
                    {"--sample-blocks", 1, &sample},
                    {"--report", 1, &report},
                    {"--json", 0, &json},
                    {"--max-warp-insts", 1, &lim.warp},
                    {"--max-launch-insts", 1, &lim.launch},
                    {"--max-memory", 1, &lim.memory},
                    {"--engine", 1, &lim.engine},
                    {NULL, 0, NULL}};
  const char *pos[1];
  int npos, help;
  if (cli_parse("exec", dd, argv, opts, pos, 0, &npos, "", &help)) return EXIT_USAGE;
  if (help) {
    print_help();
    return EXIT_OK;
  }
  if (dd + 1 >= argc) return cli_usage_error("exec", "expected -- PROGRAM [ARGS...]");
  char gbuf[4096];
  const char *gpus[CLI_MAX_TARGETS];
  size_t ngpu = 0;
  int st = check_options(gpus, &ngpu, gbuf, sizeof gbuf, gpu, model, sample, &lim);
  if (st) return st;
  if (!*runtime_dir())
    return cli_usage_error("exec", "this warpsight was built without its CUDA runtime; "
                           "set WARPSIGHT_CUDART_DIR to the folder of libcudart.so.13");
  if (ngpu > 1 && report && cli_make_dir("exec", report)) return EXIT_USAGE;
  note_driver_libraries(argv[dd + 1]);
  /* A GPU list runs the program once per GPU (docs/exec.md): each run's
   * report, then the comparison. */
  cJSON *reps[CLI_MAX_TARGETS] = {NULL};
  int rc = EXIT_OK, newline = 0;
  for (size_t k = 0; k < ngpu; k++) {
    char dir[4096];
    const char *rdir = cli_charts_dir(dir, sizeof dir, report, gpus[k], ngpu);
    int loaded;
    seen sn;
    int r = exec_gpu(&reps[k], &loaded, &sn, argv + dd + 1, gpus[k], model, sample, &lim, rdir);
    if (!reps[k] && !loaded && sn.exec_errno) {
      /* not started: the child said why ("cannot run"); no advice on how
       * it was built, which would mislead */
    } else if (!reps[k] && !loaded) {
      fprintf(stderr, "warpsight exec: error: %s did not load warpsight's CUDA runtime (no report); "
              "build it with `nvcc -cudart shared` (docs/exec.md)\n", argv[dd + 1]);
      if (r == 0 || r < 0) r = EXIT_USAGE;
    } else if (reps[k] && !json) {
      print_report(stdout, reps[k]);
    }
    /* --json on a line of its own, whatever the program's output ended
     * with (on a terminal that is not known: a newline first) */
    newline = sn.last_out != '\n' && (sn.last_out >= 0 || !sn.tee_out);
    if (r != 0 && rc == 0) rc = r < 0 ? EXIT_USAGE : r;
    if (!reps[k] && !loaded) break; /* the program does not load the runtime: once is enough */
  }
  if (json && newline && (ngpu > 1 || reps[0])) fputc('\n', stdout);
  if (json && ngpu == 1 && reps[0]) {
    cli_print_json(reps[0]);
  } else if (json) {
    cJSON *all = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(all, "gpus");
    cJSON_AddStringToObject(all, "schema", "warpsight-exec/1");
    for (size_t k = 0; k < ngpu; k++)
      if (reps[k]) cJSON_AddItemReferenceToArray(arr, reps[k]);
    cli_print_json(all);
    cJSON_Delete(all);
  } else if (ngpu > 1) {
    print_gpu_table(reps, gpus, ngpu);
  }
  if (report) { /* DIR/index.html (docs/charts.md, "The HTML report") */
    char title[1024];
    snprintf(title, sizeof title, "warpsight exec: %s", argv[dd + 1]);
    ws_html *h = ws_report_html_new(title);
    int hr = h ? EXIT_OK : EXIT_USAGE;
    for (size_t k = 0; h && k < ngpu; k++) {
      char dir[4096];
      if (reps[k] && exec_html_run(h, reps[k], cli_charts_dir(dir, sizeof dir, report, gpus[k], ngpu),
                                   argv[dd + 1]))
        hr = EXIT_USAGE;
    }
    if (h && cli_html_write(h, "exec", report, json != NULL)) hr = EXIT_USAGE;
    ws_report_html_free(h);
    if (hr && rc == EXIT_OK) rc = hr;
  }
  for (size_t k = 0; k < ngpu; k++) cJSON_Delete(reps[k]);
  return rc;
}
