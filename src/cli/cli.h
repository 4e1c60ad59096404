/*
 * cli.h — what the subcommands share: option parsing, diagnostics output,
 * exit codes.  Only the CLI prints; the library reports through ws_diag.
 */
#ifndef WS_CLI_H
#define WS_CLI_H

#include <stdio.h>

#include "warpsight/emu.h"
#include "warpsight/util.h"

enum { EXIT_OK = 0, EXIT_KERNEL_FAULT = 1, EXIT_USAGE = 2 };

#define CMD(fn, name, summary) int fn(int argc, char **argv);
#include "cli/commands.def"
#undef CMD

/* Print every diagnostic to stderr, prefixed by "warpsight: " where an entry
 * has no file. */
void cli_print_diag(const ws_diag *d);
/* Exit status for a library status (WS_EFAULT -> 1, other errors -> 2);
 * when no error has been printed yet, prints the status's generic text so
 * that a failure never ends with an empty stderr.  Call it after
 * cli_print_diag, never before (the generic line would precede the real one). */
int cli_exit_for(int status);
/* The same exit status, printing nothing: for a helper whose caller prints
 * the diagnostics afterwards. */
int cli_exit_code(int status);
/* Make folder dir for command cmd's outputs (one that exists is fine when it
 * is a folder): 0, or EXIT_USAGE after printing "DIR: cannot create: why"
 * once (not once per file that would have gone into it). */
int cli_make_dir(const char *cmd, const char *dir);
/* A folder of outputs committed all or none (ws_outdir, issue 24): DIR made
 * when missing (cli_make_dir), then its staging folder, where the command
 * writes (ws_outdir_path).  0, or EXIT_USAGE after a message. */
int cli_outdir_begin(const char *cmd, ws_outdir *o, const char *dir);
/* Move the staged outputs into place when ok, else drop them; 0, or
 * EXIT_USAGE after a message (nothing was replaced). */
int cli_outdir_end(ws_outdir *o, int ok);
/* name for a file name: ws_name_part (letters, digits, '_' and '-' kept,
 * every other byte '_'; a name past 100 bytes cut and given a hash
 * suffix), into buf (size bytes, NUL-terminated).  Returns the length
 * written. */
size_t cli_file_safe(char *buf, size_t size, const char *name);
/* Print "warpsight CMD: error: ..." to stderr and return EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* 1 if a is an sm_XX target name (sm_80, sm_90a). */
int cli_arch_ok(const char *a);
/* --arch of run, analyze, profile, predict and sweep (NULL: not given): an
 * sm_XX name, and only for a .cu FILE (PTX is compiled already, for its
 * .target; the option was once ignored there without a word).  0, or
 * EXIT_USAGE after the message. */
int cli_check_arch(const char *cmd, const char *arch, const char *file);

/* A tiny long-option parser: options are "--name value", "--name=value" or
 * flags.  Positional arguments are collected in order.  An option whose
 * value is optional ("--lines [N]") takes "--name=value", or the next
 * argument when it reads as a number (a negative or fractional one too, so
 * that "--name -3" gets the option's own error, as "--name=-3" does); alone
 * its value is "". */
typedef struct cli_opt {
  const char *name;   /* "--gpu" or "-j" */
  int takes_value;    /* 1 if it takes a value, 2 if the value is optional */
  const char **value; /* where the value goes (or "1" for a flag) */
} cli_opt;

/* Returns 0, or EXIT_USAGE after printing what was wrong.  `help` is printed
 * and 1 returned through *want_help when -h/--help is given. */
int cli_parse(const char *cmd, int argc, char **argv, const cli_opt *opts,
              const char **positional, int max_positional, int *npositional,
              const char *help, int *want_help);
/* Print a JSON document (indented) and a newline on stdout; nothing when it
 * cannot be rendered (out of memory). */
struct cJSON;
void cli_print_json(const struct cJSON *j);

/* The folder of GPU `gpu`'s charts under --charts DIR (NULL: none): DIR
 * itself for one GPU, DIR/GPU (a '/' in GPU as '_') in buf for a list. */
const char *cli_charts_dir(char *buf, size_t size, const char *charts, const char *gpu,
                           size_t ngpu);

/* Parse a non-negative integer option value; EXIT_USAGE with a message. */
int cli_parse_int(const char *cmd, const char *opt, const char *s, long *out);
/* --sample-blocks N: N >= 1 blocks profiled, or 0 or 'all' for every block
 * (*out = 0), the same in every command that takes it; EXIT_USAGE with a
 * message otherwise. */
int cli_parse_sample_blocks(const char *cmd, const char *s, long *out);
/* The same, or 'auto' (*out = CLI_SAMPLE_AUTO): `profile`, `predict` and
 * `sweep` (warpsight/profiler.h, WS_PROF_AUTO_*). */
#define CLI_SAMPLE_AUTO (-1L)
int cli_parse_sample_blocks_auto(const char *cmd, const char *s, long *out);

/* Write text (and a newline if nl) to path through a ws_outfile (a
 * temporary file renamed into place).  0, or EXIT_USAGE after printing the
 * error with the OS's reason. */
int cli_write_text(const char *path, const char *text, int nl);

/* The limits on emulated work every command that runs a kernel takes
 * (run, profile, predict, validate, calibrate): the values given (NULL: not
 * given, keep the default already in *out) into *out; 0 lifts a limit. */
int cli_parse_limit(const char *cmd, const char *opt, const char *s, unsigned long long *out);
/* --max-memory N[K|M|G|T] (binary multiples) into *out when s is not NULL;
 * 0 means no budget and is returned as UINT64_MAX. */
int cli_parse_bytes(const char *cmd, const char *opt, const char *s, unsigned long long *out);
#define CLI_LIMIT_OPTIONS_HELP                                                        \
  "  --max-warp-insts N    stop a warp after N warp instructions (default 2^26 =\n"   \
  "                        67108864; 0: no limit): a runaway kernel faults, exit 1\n" \
  "  --max-launch-insts N  stop the launch after N warp instructions in all blocks\n"  \
  "                        that run (default 2^27 = 134217728; 0: no limit); a grid\n" \
  "                        with more warps than N is refused before it runs\n"    \
  "  --max-memory N[K|M|G] global memory (buffers, .global variables) a launch may\n" \
  "                        allocate (default half the machine's memory; 0: no\n"   \
  "                        budget); a launch asking for more is refused\n"

/* The engine options of the commands that run every block of a kernel
 * (run): --engine (default: $WARPSIGHT_ENGINE, else auto) into *out;
 * EXIT_USAGE after a message for another word. */
int cli_parse_engine(const char *cmd, const char *s, ws_emu_engine *out);
#define CLI_ENGINE_OPTION_HELP                                                          \
  "  --engine E            which engine runs the blocks: auto (default: the\n"          \
  "                        translated engine when the kernel is in the cache, or its\n"  \
  "                        work pays for a compile, and a C compiler and the kernel\n"   \
  "                        allow; else the interpreter), interp, or jit (translated\n"   \
  "                        whatever the work, or an error); also WARPSIGHT_ENGINE.\n"   \
  "                        The compiled code is cached in WARPSIGHT_JIT_CACHE\n"         \
  "                        (default ~/.cache/warpsight/jit);\n"                          \
  "                        WARPSIGHT_JIT_CC names the compiler; WARPSIGHT_VERBOSE=1\n"  \
  "                        says which engine runs the kernel and why\n"
/* Attach translated code to p as engine e asks (making *jit on first use;
 * the caller frees it), for a launch of `threads` threads: interp does
 * nothing; auto takes the code from the cache, else compiles it when the
 * work pays for it (ws_emu_jit_worth), else leaves p to the interpreter, as
 * it does when it cannot translate or compile (saying why on stderr with
 * WARPSIGHT_VERBOSE); jit compiles whatever the work and returns a failure
 * with its diagnostics in d. */
int cli_prepare_engine(ws_emu_jit **jit, ws_emu_program *p, ws_emu_engine e, uint64_t threads, ws_diag *d);

#endif
