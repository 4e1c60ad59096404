/*
 * warpsight/emu.h — the functional PTX emulator: launch specs, loading a
 * kernel into an executable form, running a grid, and the profiler hooks.
 *
 * Pipeline:  ws_launch_spec_load()   the JSON launch spec (DESIGN.md)
 *            ws_emu_load()           decode a kernel of a parsed module once;
 *                                    refuses unimplemented instructions here
 *            ws_emu_launch_new()     check the arguments against the kernel's
 *                                    .param list, build the memory image
 *            ws_emu_run()            run every block (a pool of threads)
 *            ws_emu_write_outputs()  the spec's "output" buffers as raw files
 *
 * Execution is exact and deterministic: a warp runs each instruction for all
 * its active lanes; divergence reconverges at the immediate post-dominator of
 * the branch; memory is sequentially consistent.  docs/emulator.md has the
 * memory map, barrier and atomic rules and the exit statuses.
 *
 * Ownership: every object returned through **out is owned by the caller and
 * freed by its _free function (NULL is a no-op).  A ws_emu_program borrows
 * the ws_ptx_module it was loaded from (keep the module alive); a launch
 * borrows its program and spec.  Nothing here prints except vprintf output,
 * which goes to the FILE* given in ws_emu_options.
 */
#ifndef WARPSIGHT_EMU_H
#define WARPSIGHT_EMU_H

#include <stdint.h>
#include <stdio.h>

#include "warpsight/ptx.h"
#include "warpsight/util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- launch spec ---------------------------------------------------------- */

/* Element types of launch-spec buffers and scalars. */
typedef enum ws_elem_type {
  WS_ELEM_U8, WS_ELEM_S8, WS_ELEM_U16, WS_ELEM_S16, WS_ELEM_U32, WS_ELEM_S32,
  WS_ELEM_U64, WS_ELEM_S64, WS_ELEM_F16, WS_ELEM_BF16, WS_ELEM_F32,
  WS_ELEM_F64, WS_ELEM_COUNT
} ws_elem_type;

const char *ws_elem_type_name(ws_elem_type t); /* "f32" */
int ws_elem_type_size(ws_elem_type t);         /* bytes */

typedef enum ws_init_kind {
  WS_INIT_ZERO,     /* "zero" (also the default) */
  WS_INIT_CONSTANT, /* {"constant": v} */
  WS_INIT_IOTA,     /* {"iota": {"start": s, "step": d}}: s + i*d */
  WS_INIT_RANDOM,   /* {"random": {"seed", "min", "max"}} (warpsight/rng.h) */
  WS_INIT_FILE      /* {"file": "x.bin"}: raw little-endian elements */
} ws_init_kind;

typedef struct ws_launch_arg {
  int is_buffer;      /* 1: {"buffer": ...}, 0: {"scalar": ...} */
  char *name;         /* buffer or scalar name (owned) */
  ws_elem_type type;  /* element type */
  uint64_t count;     /* buffer elements */
  ws_init_kind init;  /* buffer initialiser */
  double v0, v1;      /* constant: v0; iota: start, step; random: min, max */
  uint64_t seed;      /* random seed */
  char *file;         /* init file, resolved against the spec's folder (owned) */
  char *output;       /* output file name, or NULL (owned) */
  uint64_t value;     /* scalar: the value's raw little-endian bits */
} ws_launch_arg;

typedef struct ws_launch_spec {
  char *path;                 /* file it was read from (owned), for messages */
  char *kernel;               /* kernel name (owned) */
  uint32_t grid[3];           /* blocks per dimension */
  uint32_t block[3];          /* threads per dimension */
  uint64_t dynamic_shared;    /* dynamic_shared_bytes */
  uint32_t nargs;             /* arguments */
  ws_launch_arg *args;        /* nargs, in order (owned) */
} ws_launch_spec;

/* Read a launch spec.  Relative "file" paths are resolved against the
 * spec's folder.  Errors name the JSON path ("args[2].type: ..."). */
int ws_launch_spec_load(ws_launch_spec **out, const char *path, ws_diag *d);
/* Parse spec text; `dir` is the folder for relative files ("." if NULL). */
int ws_launch_spec_parse(ws_launch_spec **out, const char *text,
                         const char *origin, const char *dir, ws_diag *d);
void ws_launch_spec_free(ws_launch_spec *s);

/* --- loading ---------------------------------------------------------------- */

typedef struct ws_emu_program ws_emu_program;

/* Decode kernel `kernel` of module m and every function it calls.  Returns
 * WS_EINVAL when the kernel is absent, WS_EUNSUP naming opcode, modifiers
 * and PTX line of the first instruction the emulator does not implement. */
int ws_emu_load(ws_emu_program **out, const ws_ptx_module *m,
                const char *kernel, ws_diag *d);
void ws_emu_program_free(ws_emu_program *p);
const ws_ptx_function *ws_emu_program_kernel(const ws_emu_program *p);

/* --- hooks for the profiler -------------------------------------------------- */

/* One executed warp instruction.  Borrowed for the duration of the call. */
typedef struct ws_emu_event {
  int worker;                   /* worker thread index (0 .. threads-1) */
  uint32_t block_linear;        /* linear block index */
  uint32_t block[3];            /* %ctaid */
  uint32_t warp;                /* warp index within the block */
  const ws_ptx_function *func;  /* function the instruction belongs to */
  const ws_ptx_inst *inst;      /* the IR instruction */
  uint32_t pc;                  /* its index in func->insts */
  uint32_t active;              /* lanes active at the instruction */
  uint32_t exec;                /* lanes that executed it (guard applied) */
  uint32_t taken;               /* branches: lanes that jumped */
  int bb_entry;                 /* 1 when pc starts a basic block */
  uint8_t space;                /* memory ops: ws_ptx_space resolved (generic
                                   addresses are resolved per lane) */
  uint8_t bytes;                /* memory ops: bytes per lane access */
  const uint64_t *addr;         /* memory ops: per-lane addresses (32 slots,
                                   valid where exec has the bit), else NULL */
} ws_emu_event;

/* Callbacks; any may be NULL.  With -j > 1 they are called concurrently from
 * several worker threads (ev->worker tells which): keep per-worker state. */
typedef struct ws_emu_hooks {
  void *user;                                        /* passed back */
  void (*inst)(void *user, const ws_emu_event *ev);  /* every warp instruction */
  void (*block_begin)(void *user, int worker, uint32_t block_linear);
  void (*block_end)(void *user, int worker, uint32_t block_linear);
  /* Which blocks run, for sampling (NULL: every block, with the hooks).
   * Called once per block before it runs (concurrently, like the hooks);
   * returns a ws_emu_block_action. */
  int (*block_filter)(void *user, uint32_t block_linear);
} ws_emu_hooks;

typedef enum ws_emu_block_action {
  WS_EMU_BLOCK_HOOKED = 0, /* run it and call the hooks */
  WS_EMU_BLOCK_PLAIN = 1,  /* run it without hooks (no profiling cost) */
  WS_EMU_BLOCK_SKIP = 2    /* do not run it: its writes never happen */
} ws_emu_block_action;

/* --- running ---------------------------------------------------------------- */

typedef struct ws_emu_options {
  int version;               /* WS_EMU_OPTIONS_VERSION */
  int threads;               /* worker threads; 0 = the number of cores */
  uint64_t max_warp_insts;   /* per-warp instruction limit; 0 = none */
  FILE *printf_out;          /* vprintf output (NULL: discarded) */
  const ws_emu_hooks *hooks; /* NULL: no profiling, no cost */
} ws_emu_options;

#define WS_EMU_OPTIONS_VERSION 1
#define WS_EMU_OPTIONS_INIT {WS_EMU_OPTIONS_VERSION, 0, 0, NULL, NULL}

typedef struct ws_emu_stats {
  uint64_t blocks;      /* blocks run */
  uint64_t warps;       /* warps run */
  uint64_t warp_insts;  /* warp instructions executed (guard-false included) */
  uint64_t thread_insts;/* sum over warp instructions of executing lanes */
  double seconds;       /* wall-clock time of ws_emu_run */
  int threads;          /* worker threads used */
} ws_emu_stats;

typedef struct ws_emu_launch ws_emu_launch;

/* Check the spec against the program's kernel (argument count, kinds, sizes
 * and types; grid and block limits), read input files and initialise every
 * buffer.  Errors name the argument ("argument 2 'n': ..."). */
int ws_emu_launch_new(ws_emu_launch **out, const ws_emu_program *p,
                      const ws_launch_spec *s, ws_diag *d);
/* Run the grid.  WS_EFAULT when the kernel faulted (out-of-bounds or
 * misaligned access, write to read-only memory, deadlock, trap, instruction
 * limit): the diagnostic names kernel, block, thread, PTX line, instruction
 * and address.  stats may be NULL. */
int ws_emu_run(ws_emu_launch *l, const ws_emu_options *o, ws_emu_stats *stats,
               ws_diag *d);
/* Write each "output" buffer into dir (NULL = "."). */
int ws_emu_write_outputs(const ws_emu_launch *l, const char *dir, ws_diag *d);
/* A buffer's contents by argument name (for tests); NULL if none. */
void *ws_emu_buffer(ws_emu_launch *l, const char *name, uint64_t *bytes);
/* The launch's global memory objects (the module's .global variables and
 * the spec's buffers), ascending by address, into out (at most max);
 * returns how many there are.  Names are borrowed from the launch. */
typedef struct ws_emu_region {
  uint64_t base;     /* global address of the first byte */
  uint64_t bytes;    /* size */
  const char *name;  /* buffer or variable name */
} ws_emu_region;
size_t ws_emu_regions(const ws_emu_launch *l, ws_emu_region *out, size_t max);
void ws_emu_launch_free(ws_emu_launch *l);

#ifdef __cplusplus
}
#endif
#endif
