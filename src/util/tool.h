/*
 * util/tool.h — the CUDA toolkit's programs as the library's parts find
 * them, and ptxas -v's resource report read back.  Internal to the library:
 * the CLI (`analyze`, `profile`, `predict`, `validate` on .cu and .ptx
 * input) and the CUDA runtime (a kernel's resources from ptxas,
 * src/cudart/resources.c) use the same search, the same way of running a
 * program (posix_spawn with an argument vector: no shell, so no path needs
 * quoting, and safe inside the user's multithreaded program) and the same
 * reader.
 */
#ifndef WS_UTIL_TOOL_H
#define WS_UTIL_TOOL_H

#include <stddef.h>

/* The program `name` as posix_spawnp finds it (written into buf, n
 * bytes): NAME itself when it holds a '/' and is executable, else the first
 * executable NAME in a PATH folder (/usr/bin:/bin when PATH is unset).
 * NULL when none is (or a candidate does not fit in buf). */
const char *ws_tool_which(const char *name, char *buf, size_t n);
/* The path of the toolkit program `name` (written into buf, n bytes): the
 * first executable NAME in a PATH folder, then $CUDA_HOME/bin/NAME, or
 * /usr/local/cuda/bin/NAME when CUDA_HOME is unset.  NULL when none is
 * executable (or a candidate does not fit in buf). */
const char *ws_tool_find(const char *name, char *buf, size_t n);
/* The ptxas to run: $WARPSIGHT_PTXAS when set and not empty (NULL when it
 * is not executable: no other is tried), else ws_tool_find("ptxas"). */
const char *ws_tool_find_ptxas(char *buf, size_t n);

/* A file name as an argument of a toolkit program: "./PATH" (in buf, n
 * bytes) when PATH begins with '-', which the program would read as an
 * option, else PATH itself; NULL when buf is too small.  Every file
 * argument of nvcc and ptxas goes through it. */
const char *ws_tool_file(char *buf, size_t n, const char *path);
/* Run argv (argv[0] the program's path, or a name looked up in PATH as
 * ws_tool_which does; NULL-ended) with this process's environment less
 * LD_PRELOAD (a sanitizer or tracer preloaded into the user's program must
 * not reach the toolkit or the compiler), stdin from /dev/null, and stdout
 * and stderr into the file `log` (created with mode 0600, or truncated).
 * No shell.  The exit status, or -1 when the program could not be started
 * (log not writable included) or did not exit (a signal). */
int ws_tool_run(char *const argv[], const char *log);
/* The same, with stdout and stderr into out (n bytes, always ended: the
 * first n - 1 bytes kept, the rest read and dropped, so the program never
 * waits on a full pipe). */
int ws_tool_capture(char *const argv[], char *out, size_t n);

/* One function of a `ptxas -v` report. */
typedef struct ws_ptxas_fn {
  char *name;    /* the function's (mangled) name (owned) */
  long regs;     /* "Used R registers": registers per thread; -1 when not reported */
  long smem;     /* "S bytes smem": static shared bytes per block (0 when not reported) */
  long stack;    /* "N bytes stack frame": local bytes per thread */
  long spill_st; /* "N bytes spill stores" */
  long spill_ld; /* "N bytes spill loads" */
} ws_ptxas_fn;

/* A report's functions, in the order ptxas first names them. */
typedef struct ws_ptxas_list {
  ws_ptxas_fn *v; /* owned */
  size_t n;       /* in use */
  size_t cap;     /* allocated (util/vec.h) */
} ws_ptxas_list;

#define WS_PTXAS_LIST_INIT {NULL, 0, 0}

/* Read the text of a `ptxas -v` report (NUL-terminated) into l, adding to
 * what it holds.  A function is named by "Compiling entry function 'F'"
 * (a kernel) or "Function properties for F" (a kernel or a device
 * function); the stack-frame and "Used ..." lines after it are its own.
 * 0, or WS_ENOMEM (l keeps what was read). */
int ws_tool_ptxas_parse(ws_ptxas_list *l, const char *text);
/* The function named `name`, or NULL. */
const ws_ptxas_fn *ws_tool_ptxas_lookup(const ws_ptxas_list *l, const char *name);
/* Free l's functions and empty it (l itself is the caller's). */
void ws_tool_ptxas_free(ws_ptxas_list *l);

/* Run `ptxas -v -arch=ARCH -o /dev/null PTX` (ws_tool_find_ptxas's ptxas;
 * PTX written ./PTX when it begins with '-') with its report in a
 * temporary file under $TMPDIR (or /tmp, when unset or empty), removed
 * after, and read the report into l (ws_tool_ptxas_parse, adding to what
 * it holds).  1 when ptxas ran, succeeded and its report was read; else 0
 * (no ptxas, no temporary file, ptxas failed, out of memory), with l as it
 * was or holding part of the report. */
int ws_tool_ptxas_on_ptx(const char *ptx_path, const char *arch, ws_ptxas_list *l);
/* The arch ptxas is given for a PTX module whose .target is `target`
 * ("sm_80, texmode_independent" -> "sm_80"): its first item into buf (""
 * when target is NULL). */
void ws_tool_ptx_target_arch(char *buf, size_t n, const char *target);

#endif
