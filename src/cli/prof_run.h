/*
 * prof_run.h — profile one kernel launch: the part `warpsight profile` and
 * `warpsight predict` share (input file, launch spec, GPU, resources,
 * emulation with the profiler on its hooks).
 */
#ifndef WS_CLI_PROF_RUN_H
#define WS_CLI_PROF_RUN_H

#include "warpsight/emu.h"
#include "warpsight/gpu.h"
#include "warpsight/profile.h"
#include "cli/cli.h"
#include "cli/toolchain.h"

/* A .cu file's compiles, one per architecture (issue 23: a .cu predicted
 * for several GPUs is compiled once per distinct arch): each arch's PTX and
 * ptxas report in a temporary folder, removed by cli_cu_cache_free. */
typedef struct cli_cu_build {
  char arch[16];      /* "sm_75" */
  char dir[4096];     /* the temporary folder: DIR/in.ptx */
  ws_ptxas_list pl;   /* ptxas -v's figures */
  int have_ptxas;     /* ptxas ran */
} cli_cu_build;

typedef struct cli_cu_cache {
  cli_cu_build *v;    /* owned */
  size_t n, cap;
  int archs_known;    /* nvcc --list-gpu-arch was asked */
  int lo, hi;         /* the oldest and newest sm it compiles for (0: unknown) */
} cli_cu_cache;

/* Remove every build's folder and free the cache (NULL: no-op). */
void cli_cu_cache_free(cli_cu_cache *c);

/* The arch a .cu is compiled for on GPU g when no --arch is given: its
 * compute capability's sm, clamped to what this nvcc compiles for (CUDA 13:
 * sm_75 and later), with a note in d when clamped.  `predict`, `profile`
 * and `validate` choose alike, so the same .cu, launch and GPU give the
 * same profile in each. */
void cli_cu_arch_for(char *buf, size_t n, cli_cu_cache *c, const ws_gpu *g, ws_diag *d);

/* The build of FILE for ARCH in c (one cache per file), compiled now when
 * it is not there.  0, or the exit status after nvcc's message. */
int cli_cu_build_get(const cli_cu_build **out, cli_cu_cache *c, const char *cmd, const char *file,
                     const char *arch);

typedef struct prof_request {
  const char *cmd;          /* subcommand, for messages */
  const char *file;         /* FILE.ptx or FILE.cu */
  const char *kernel;       /* --kernel, or NULL: the launch spec's */
  const char *launch;       /* --launch L.json */
  const char *gpu;          /* --gpu G */
  const char *arch;         /* --arch for .cu input, or NULL: the GPU's own */
  cli_cu_cache *cu;         /* compiles to reuse across calls, or NULL (one-off) */
  long sample_blocks;       /* 0: every block; CLI_SAMPLE_AUTO: auto */
  int functional_rest;      /* run unsampled blocks without hooks */
  long threads;             /* -j, 0 = cores */
  unsigned long long max_warp_insts;   /* --max-warp-insts (0: none) */
  unsigned long long max_launch_insts; /* --max-launch-insts (0: none) */
  unsigned long long max_memory;       /* --max-memory (0: default, ~0: none) */
  const uint32_t *grid;     /* replaces the spec's grid (sweep), or NULL */
  const uint32_t *block;    /* replaces the spec's block (sweep), or NULL */
} prof_request;

/* The options both commands take, as given (NULL: absent). */
typedef struct prof_args {
  const char *kernel, *launch, *gpu, *arch, *sample, *frest, *jobs, *maxw, *maxl, *maxm;
} prof_args;

/* Their rows of a cli_opt table (PROF_RUN_OPTIONS_HELP describes them). */
#define PROF_ARGS_OPTS(a)                                                              \
  {"--kernel", 1, &(a).kernel}, {"--launch", 1, &(a).launch}, {"--gpu", 1, &(a).gpu},   \
      {"--sample-blocks", 1, &(a).sample}, {"--functional-rest", 0, &(a).frest},      \
      {"-j", 1, &(a).jobs}, {"--arch", 1, &(a).arch}, {"--max-warp-insts", 1, &(a).maxw}, \
      {"--max-launch-insts", 1, &(a).maxl}, {"--max-memory", 1, &(a).maxm}

/* Check a's values and the positional FILE (npos of them were given) and
 * fill rq for command cmd: 0, or EXIT_USAGE after the message. */
int cli_prof_request(prof_request *rq, const char *cmd, const prof_args *a, int npos,
                     const char *file);

/* The GPU when --gpu is not given. */
#define PROF_DEFAULT_GPU "a100"

/* The options both commands take, for their --help. */
#define PROF_RUN_OPTIONS_HELP                                                        \
  "  --kernel K            the kernel of the module to run (default: the launch\n"   \
  "                        spec's \"kernel\"; the spec's arguments must fit it); a\n" \
  "                        C++ kernel by its mangled or demangled name\n"          \
  "  --launch L.json       launch spec: grid, block and arguments (docs/launch-spec.md)\n" \
  "  --gpu G               GPU name (see 'warpsight gpus') or GPU JSON file\n"       \
  "                        (default " PROF_DEFAULT_GPU ")\n"                          \
  "  --sample-blocks N     profile N blocks spread over every grid dimension (a\n"  \
  "                        Hammersley set, docs/profile.md); the others are skipped\n" \
  "                        and DRAM bytes are estimated per buffer, with an error\n" \
  "                        (memory.dram_bytes_rel_error); 0 or 'all': every block;\n" \
  "                        default 'auto': 8 blocks run first, and every block is\n" \
  "                        profiled when they put the launch at 2e8 warp\n"      \
  "                        instructions or fewer (a full profile in about 25 s),\n" \
  "                        else those 8 (the profile's sampling.auto says so)\n"  \
  "  --functional-rest     run the unsampled blocks too, without profiling (for\n"  \
  "                        kernels whose later blocks read what earlier ones wrote)\n" \
  "  --arch sm_XX          nvcc/ptxas target for .cu input (default: each GPU's own\n" \
  "                        compute capability, clamped to what nvcc compiles for;\n" \
  "                        one compile per distinct arch); refused with PTX, which\n" \
  "                        runs for its own .target\n"                             \
  "  -j N                  emulator worker threads (default: the number of cores;\n" \
  "                        never more than the blocks that run); the profile does\n" \
  "                        not depend on N\n"                                        \
  CLI_LIMIT_OPTIONS_HELP

/* Profile: on success returns 0 with *out and *gpu set (the caller frees
 * both); else prints the diagnostics and returns the exit status (1 the
 * kernel faulted, 2 bad usage or input). */
int cli_profile_run(const prof_request *rq, ws_profile **out, ws_gpu **gpu,
                    ws_emu_stats *stats);

#endif
