/*
 * warpsight/emu.h — the functional PTX emulator: launch specs, loading a
 * kernel into an executable form, running a grid, and the profiler hooks.
 *
 * Pipeline:  ws_emu_launch_spec_load()   the JSON launch spec (DESIGN.md)
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

const char *ws_emu_elem_type_name(ws_elem_type t); /* "f32" */
int ws_emu_elem_type_size(ws_elem_type t);         /* bytes */

typedef enum ws_init_kind {
  WS_INIT_ZERO,     /* "zero" (also the default) */
  WS_INIT_CONSTANT, /* {"constant": v} */
  WS_INIT_IOTA,     /* {"iota": {"start": s, "step": d}}: s + i*d */
  WS_INIT_RANDOM,   /* {"random": {"seed", "min", "max"}} (emu/rng.h) */
  WS_INIT_FILE,     /* {"file": "x.bin"}: raw little-endian elements */
  WS_INIT_VALUES    /* {"values": [v0, v1, ...]}: element i is v_i */
} ws_init_kind;

/* A kernel argument, or (in ws_launch_spec.vars) a module variable to set. */
typedef struct ws_launch_arg {
  int is_buffer;      /* 1: {"buffer": ...}, 0: {"scalar": ...} or {"aggregate": ...} */
  int is_aggregate;   /* 1: {"aggregate": ...}: a .b8 array parameter (struct by value) */
  char *name;         /* buffer or scalar name (owned) */
  ws_elem_type type;  /* element type */
  uint64_t count;     /* buffer elements */
  ws_init_kind init;  /* buffer initialiser */
  double v0, v1;      /* constant: v0; iota: start, step; random: min, max */
  int exact;          /* integer types: i0, i1 hold those values exactly
                         (the spec parser sets it; else v0, v1 are used) */
  uint64_t i0, i1;    /* exact: constant: i0; iota: start, step; random: min,
                         max; as 64-bit two's complement (sign-extended) */
  uint64_t seed;      /* random seed */
  char *file;         /* init file, resolved against the spec's folder (owned) */
  char *output;       /* output file name, or NULL (owned) */
  uint64_t value;     /* scalar: the value's raw little-endian bits */
  uint64_t *values;   /* WS_INIT_VALUES: count raw element bit patterns (owned) */
  uint8_t *bytes;     /* aggregate: the parameter's bytes (owned) */
  uint32_t nbytes;    /* aggregate: their number (padded to `align`) */
  uint32_t align;     /* aggregate: the largest alignment its fields need (1 for "bytes") */
} ws_launch_arg;

/* Static shared memory the emulator gives one block at most: 1 MiB, the
 * same cap as dynamic_shared_bytes in a launch spec, and more than any
 * GPU allows per block (227 KB on an H100, CUDA C Programming Guide,
 * "Technical Specifications per Compute Capability").  A kernel declaring
 * more is refused by ws_emu_load. */
#define WS_EMU_MAX_SHARED_BYTES (1ull << 20)
/* Shared memory reserved for the system (PTX ISA: %reserved_smem_offset_*)
 * that a block gets when its kernel reads one of those registers: 1 KiB,
 * what CUDA reserves per block on compute capability 8.0 and later
 * (CUDA C++ Programming Guide, "Technical Specifications per Compute
 * Capability": 1 KB of shared memory reserved for system use per block;
 * cudaDevAttrReservedSharedMemoryPerBlock).  Cooperative groups keeps up to
 * 288 bytes of scratch at %reserved_smem_offset_1. */
#define WS_EMU_RESERVED_SMEM_BYTES 1024u

typedef struct ws_launch_spec {
  char *path;                 /* file it was read from (owned), for messages */
  char *kernel;               /* kernel name (owned) */
  uint32_t grid[3];           /* blocks per dimension */
  uint32_t block[3];          /* threads per dimension */
  uint64_t dynamic_shared;    /* dynamic_shared_bytes */
  uint64_t sweep_threads;     /* sweep.total_threads, 0 when absent: the
                                 threads in x `warpsight sweep` keeps */
  int l2_warm;                /* "l2": 0 "cold" (the default: the L2 starts
                                 empty, as after NVBench's flush), 1 "warm"
                                 (it holds what the previous identical launch
                                 left); the emulator ignores it, the profiler
                                 reads it (docs/launch-spec.md) */
  uint32_t nargs;             /* arguments */
  ws_launch_arg *args;        /* nargs, in order (owned) */
  uint32_t nvars;             /* module variables set by "variables" */
  ws_launch_arg *vars;        /* nvars (owned): name = the .global/.const
                                 variable, type, count elements from its
                                 start (0: the whole variable), init */
} ws_launch_spec;

/* Read a launch spec.  Relative "file" paths are resolved against the
 * spec's folder.  Errors name the JSON path ("args[2].type: ..."). */
int ws_emu_launch_spec_load(ws_launch_spec **out, const char *path, ws_diag *d);
/* Parse spec text; `dir` is the folder for relative files ("." if NULL). */
int ws_emu_launch_spec_parse(ws_launch_spec **out, const char *text,
                         const char *origin, const char *dir, ws_diag *d);
void ws_emu_launch_spec_free(ws_launch_spec *s);

/* --- loading ---------------------------------------------------------------- */

typedef struct ws_emu_program ws_emu_program;

/* Decode kernel `kernel` of module m and every function it calls.  Returns
 * WS_EINVAL when the kernel is absent, WS_EUNSUP naming opcode, modifiers
 * and PTX line of the first instruction the emulator does not implement. */
int ws_emu_load(ws_emu_program **out, const ws_ptx_module *m,
                const char *kernel, ws_diag *d);
void ws_emu_program_free(ws_emu_program *p);
const ws_ptx_function *ws_emu_program_kernel(const ws_emu_program *p);

/* --- the translated engine ---------------------------------------------------
 *
 * A second engine for the blocks that are not profiled: the program's PTX
 * translated to C, compiled once with the system's C compiler (found at run
 * time) into a shared object that is cached and loaded.  It gives the same
 * results, bit for bit, as the interpreter, which stays the reference and
 * runs every block with profiler hooks (docs/emulator.md, "The translated
 * engine").
 *
 * Ownership: ws_emu_jit_new gives the caller a translator it frees with
 * ws_emu_jit_free (NULL is a no-op); the code ws_emu_jit_prepare loads
 * belongs to the program and goes with ws_emu_program_free.  A translator
 * is used by one thread at a time. */
typedef struct ws_emu_jit ws_emu_jit;

typedef struct ws_emu_jit_options {
  int version;           /* WS_EMU_JIT_OPTIONS_VERSION */
  const char *cc;        /* the C compiler (NULL: cc, gcc or clang from PATH) */
  const char *cache_dir; /* folder of compiled kernels (NULL:
                            $XDG_CACHE_HOME/warpsight/jit, else
                            $HOME/.cache/warpsight/jit); made if absent; an
                            unusable folder means no cache */
  int keep_source;       /* keep each generated C file beside its object, as
                            <key>.c (for reading what was compiled) */
  int opt_level;         /* the compiler's -O level, 0 to 3 (INIT: 2, what
                            the speed figures use; the tests compile most
                            kernels with 0, which compiles 5 times faster) */
} ws_emu_jit_options;

#define WS_EMU_JIT_OPTIONS_VERSION 2
#define WS_EMU_JIT_OPTIONS_INIT {WS_EMU_JIT_OPTIONS_VERSION, NULL, NULL, 0, 2}
/* Options from the environment the command-line tool and the CUDA
 * runtime document: WARPSIGHT_JIT_CC (cc), WARPSIGHT_JIT_CACHE (cache_dir),
 * WARPSIGHT_JIT_KEEP (keep_source, set unless empty or 0) and
 * WARPSIGHT_JIT_OPT (opt_level: 0, 1, 2 or 3; another value is ignored);
 * unset variables leave *o's fields alone.  The strings are the
 * environment's. */
void ws_emu_jit_options_env(ws_emu_jit_options *o);

/* A translator with its compiler and cache.  WS_EUNSUP, with a diagnostic
 * saying why, when no C compiler is found or it does not run. */
int ws_emu_jit_new(ws_emu_jit **out, const ws_emu_jit_options *o, ws_diag *d);
void ws_emu_jit_free(ws_emu_jit *j);
/* "path: first line of --version" of its compiler; its cache folder (NULL:
 * none).  Borrowed from j. */
const char *ws_emu_jit_compiler(const ws_emu_jit *j);
const char *ws_emu_jit_cache_dir(const ws_emu_jit *j);
/* Translate p's kernel (and every function it reaches), compile it or take
 * it from the cache, and attach the code to p; from then on ws_emu_run runs
 * p's unhooked blocks with it (unless ws_emu_options.engine says
 * otherwise).  flags: 0 or WS_EMU_JIT_CACHED_ONLY (attach code only when
 * the cache already has it; WS_EMISSING, without a diagnostic, when not).
 * WS_OK (also when p already has code); WS_EUNSUP with a diagnostic naming
 * the instruction and its line when the kernel uses something the
 * translator does not handle, or when compiling fails (p then runs in the
 * interpreter); WS_ENOMEM. */
#define WS_EMU_JIT_CACHED_ONLY 1
int ws_emu_jit_prepare(ws_emu_jit *j, ws_emu_program *p, int flags, ws_diag *d);
/* Whether compiling p pays for itself: 1 when the work of running it with
 * `threads` threads, estimated from its code (instructions inside loops
 * count 16 times per loop level), plus `done`, the thread instructions
 * already run in the interpreter (a runtime adds up its launches), reaches
 * what the compile costs: WS_EMU_JIT_MIN_WORK, 2^28 thread instructions
 * (0.3 to 0.8 seconds of interpreting on the development machine: 1e9
 * thread instructions a second for matmul_tiled, 3.4e8 for blackscholes,
 * against a compile of 0.5 to 4 seconds paid once per kernel per cache),
 * for a program of up to WS_EMU_JIT_SIZE_UNIT decoded instructions (all its
 * functions), and that times (n / WS_EMU_JIT_SIZE_UNIT)^2 for n above: the
 * compiler's time grows about as the square of the generated code (CPU
 * seconds at -O2 for the CUDA samples' kernels: 2 for BlackScholes' 147
 * instructions, about 9 for each of convolutionSeparable's 313 and 346, 43
 * and 0.9 GB for sortingNetworks' fully unrolled bitonicSortShared1 of
 * 795: about 0.55 + 6.7e-5 n^2, which at the interpreter's faster rate, 1e9
 * thread instructions a second, is 2^28 (n / 64)^2 within a factor of 1.4
 * from 150 to 800 instructions; a unit of 96, 4.4e8 a second, still
 * compiled convolutionSeparable's kernels halfway for 32 CPU s against 13
 * in the interpreter alone), so a large kernel whose launches would be
 * interpreted in less time than its compile stays in the interpreter
 * (docs/emulator.md, "Which engine runs").  The kernel corpus's launch
 * specs estimate at most 3e7, so the tests stay in the interpreter. */
#define WS_EMU_JIT_MIN_WORK (1ull << 28)
#define WS_EMU_JIT_SIZE_UNIT 64
int ws_emu_jit_worth(const ws_emu_program *p, uint64_t threads, uint64_t done);
/* Whether p has translated code. */
int ws_emu_program_translated(const ws_emu_program *p);
/* Whether the emulator implements PTX opcode op: 1 when it decodes it (a
 * form it does not implement is still refused by ws_emu_load, naming it),
 * 0 when it refuses every form (*why, if why is not NULL: the reason, a
 * static string), -1 for a value that is no opcode.  docs/emulator.md lists
 * the refused opcodes ("Instructions the emulator refuses"). */
int ws_emu_opcode_supported(ws_ptx_opcode op, const char **why);

/* --- hooks for the profiler -------------------------------------------------- */

/* One executed warp instruction -- or, with ws_emu_hooks.runs, `count`
 * consecutive ones of a run (docs/emulator.md, "Profiler hooks").
 * Borrowed for the duration of the call. */
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
  uint32_t count;               /* instructions it stands for: 1, or with
                                   hooks->runs the n of a run of plain
                                   instructions pc .. pc + n - 1, each
                                   executed by every active lane (exec ==
                                   active; no guard, no memory access, no
                                   branch: taken, space, bytes 0, addr NULL;
                                   bb_entry is pc's) */
} ws_emu_event;

/* Callbacks; any may be NULL.  With -j > 1 they are called concurrently from
 * several worker threads (ev->worker tells which): keep per-worker state.
 * Zero the whole struct before setting fields (`= {0}`, designated
 * initialisers or memset): a field added later (runs) then reads 0, the
 * behaviour a caller written before it expects. */
typedef struct ws_emu_hooks {
  void *user;                                        /* passed back */
  void (*inst)(void *user, const ws_emu_event *ev);  /* every warp instruction
                                                        (or run of them: runs) */
  void (*block_begin)(void *user, int worker, uint32_t block_linear);
  void (*block_end)(void *user, int worker, uint32_t block_linear);
  /* Which blocks run, for sampling (NULL: every block, with the hooks).
   * Called once per block before it runs (concurrently, like the hooks);
   * returns a ws_emu_block_action. */
  int (*block_filter)(void *user, uint32_t block_linear);
  /* 1: one event per run of plain instructions (ev->count of them), which
   * a hook must expand into count instructions; 0: one event per
   * instruction, count 1.  A run is a maximal sequence of consecutive
   * instructions of one basic block with no guard, no memory access of
   * any space, no control flow, barrier, fence or no-op, nothing that can
   * change the warp's lanes or make it yield (docs/emulator.md, "Profiler
   * hooks"). */
  int runs;
} ws_emu_hooks;

typedef enum ws_emu_block_action {
  WS_EMU_BLOCK_HOOKED = 0, /* run it and call the hooks */
  WS_EMU_BLOCK_PLAIN = 1,  /* run it without hooks (no profiling cost) */
  WS_EMU_BLOCK_SKIP = 2,   /* do not run it: its writes never happen */
  WS_EMU_BLOCK_PROBE = 3   /* run it with the hooks only until a warp has
                              executed WS_EMU_PROBE_WARP_INSTS instructions
                              (checked at branches) or it faults: it stops
                              there, and neither ends the launch.  Its
                              writes up to then happen (probe a copy of the
                              launch: the profiler's scan for blocks that do
                              work, docs/profile.md "Sampling") */
} ws_emu_block_action;

/* The instructions a probed warp runs at most (WS_EMU_BLOCK_PROBE): more
 * than a block's exit path (a bounds check and `ret` take a dozen). */
#define WS_EMU_PROBE_WARP_INSTS 256

/* --- running ---------------------------------------------------------------- */

/* Default limits on emulated work, so that a runaway kernel (a loop that
 * never ends, a warp spinning while another waits at a barrier) stops with
 * a fault instead of running until killed.  Sized from the largest work in
 * the bundled data (docs/emulator.md, "Limits"): a validation row profiles
 * at most about 16 M warp instructions (two sampled blocks of subSeqMax at
 * N = 268 M, 8 M each) and no warp executes more than about 2 M; the
 * defaults leave 8x and 32x headroom, and stop a spinning kernel in
 * seconds (the emulator runs 2e7 to 7e7 warp instructions a second). */
#define WS_EMU_DEFAULT_MAX_WARP_INSTS (1ull << 26)   /* 67,108,864 per warp */
/* The launch limit by default scales with the launch's work, so that a
 * long kernel is not taken for a runaway one (issue 21): the larger of
 * 2^27 warp instructions and 2^20 (1,048,576) per warp of the grid — a
 * budget no kernel of the bundled data or of the CUDA samples comes near
 * (binomialOptions runs about 330,000 per warp).  A grid with more warps
 * than 2^27 is refused before it runs, as before. */
#define WS_EMU_LAUNCH_INSTS_AUTO UINT64_MAX          /* the scaled default */
#define WS_EMU_DEFAULT_MAX_LAUNCH_INSTS WS_EMU_LAUNCH_INSTS_AUTO
#define WS_EMU_MIN_LAUNCH_INSTS (1ull << 27)         /* 134,217,728 per launch */
#define WS_EMU_LAUNCH_INSTS_PER_WARP (1ull << 20)    /* 1,048,576 per warp */

/* Which engine runs the blocks that are not profiled (ws_emu_options.engine;
 * docs/emulator.md, "The translated engine"). */
typedef enum ws_emu_engine {
  WS_EMU_ENGINE_AUTO = 0, /* the translated code where the program has it
                             (ws_emu_jit_prepare), else the interpreter */
  WS_EMU_ENGINE_INTERP,   /* the interpreter only */
  WS_EMU_ENGINE_JIT       /* as AUTO for ws_emu_run; to callers that parse
                             options it means "translated, or an error" */
} ws_emu_engine;

/* "auto", "interp" or "jit" into *out: WS_OK, or WS_EINVAL for another word. */
int ws_emu_engine_parse(ws_emu_engine *out, const char *s);

typedef struct ws_emu_options {
  int version;               /* WS_EMU_OPTIONS_VERSION */
  int threads;               /* worker threads; 0 = the number of cores */
  uint64_t max_warp_insts;   /* per-warp instruction limit; 0 = none
                                (WS_EMU_OPTIONS_INIT: the default above) */
  FILE *printf_out;          /* vprintf output (NULL: discarded) */
  const ws_emu_hooks *hooks; /* NULL: no profiling, no cost */
  uint64_t max_launch_insts; /* limit on the warp instructions of the whole
                                launch (every block); 0 = none;
                                WS_EMU_LAUNCH_INSTS_AUTO (the default):
                                scaled with the grid (above).  A grid
                                whose warps alone exceed it is refused
                                before anything runs. */
  double clock_per_inst;     /* cycles %clock and %clock64 advance per warp
                                 instruction of the warp (0: 1, the count) */
  double timer_ns_per_inst;  /* nanoseconds %globaltimer advances per warp
                                 instruction of the warp (0: 1) */
  uint64_t timer_base_ns;    /* %globaltimer when the launch starts */
  int engine;                /* ws_emu_engine for the blocks run without
                                hooks (blocks with hooks always run in the
                                interpreter): AUTO by default */
} ws_emu_options;

/* The machine's cores (online processors, or on Linux the CPUs the
 * process may run on when fewer; read once per process; at most 256):
 * what ws_emu_options.threads = 0 uses. */
int ws_emu_cores(void);

#define WS_EMU_OPTIONS_VERSION 1
#define WS_EMU_OPTIONS_INIT                                                     \
  {WS_EMU_OPTIONS_VERSION, 0, WS_EMU_DEFAULT_MAX_WARP_INSTS, NULL, NULL,        \
   WS_EMU_DEFAULT_MAX_LAUNCH_INSTS, 0, 0, 0, WS_EMU_ENGINE_AUTO}

/* What stopped a launch that faulted (ws_emu_stats.fault_kind), so that a
 * runtime can map it to its own error codes.  New kinds are added at the
 * end (the values are an ABI). */
typedef enum ws_emu_fault {
  WS_EMU_FAULT_NONE = 0,   /* no fault */
  WS_EMU_FAULT_OOB,        /* access outside every object of its space */
  WS_EMU_FAULT_MISALIGNED, /* address not a multiple of the access size */
  WS_EMU_FAULT_READONLY,   /* write to .const or kernel .param space */
  WS_EMU_FAULT_DEADLOCK,   /* barrier that can never complete */
  WS_EMU_FAULT_LIMIT,      /* a warp passed max_warp_insts */
  WS_EMU_FAULT_TRAP,       /* trap instruction */
  WS_EMU_FAULT_STACK,      /* call stack overflow, no memory for a frame */
  WS_EMU_FAULT_ASSERT,     /* device assert() failed (__assertfail) */
  WS_EMU_FAULT_OTHER,      /* anything else (bad indirect call, bad barrier...) */
  WS_EMU_FAULT_LAUNCH_LIMIT, /* the launch passed max_launch_insts */
  WS_EMU_FAULT_SPIN_DEADLOCK, /* a warp passed max_warp_insts while another
                                of its block waits at a barrier (it spins on
                                what the waiting one would do after it) */
  WS_EMU_FAULT_MEMBERMASK    /* shfl/vote/match.sync executed by a lane not
                                in its member mask, or a shfl reading a lane
                                outside it (undefined in the PTX ISA) */
} ws_emu_fault;

typedef struct ws_emu_stats {
  uint64_t blocks;      /* blocks run */
  uint64_t warps;       /* warps run */
  uint64_t warp_insts;  /* warp instructions executed (guard-false included) */
  uint64_t thread_insts;/* sum over warp instructions of executing lanes */
  double seconds;       /* wall-clock time of ws_emu_run */
  int threads;          /* worker threads used */
  int fault_kind;       /* ws_emu_fault: WS_EMU_FAULT_NONE unless ws_emu_run
                           returned WS_EFAULT */
} ws_emu_stats;

typedef struct ws_emu_launch ws_emu_launch;

/* The global memory (buffers and .global variables) one launch may
 * allocate: by default half the machine's physical memory, so a spec that
 * asks for more is refused with a message naming the budget before
 * anything is allocated (calloc'd pages nobody touches cost nothing, so a
 * budget above the free memory is still useful).  0 lifts the budget. */
uint64_t ws_emu_default_memory_budget(void);
void ws_emu_program_set_memory_budget(ws_emu_program *p, uint64_t bytes);

/* Local memory per thread the emulator allows: 512 KiB, CUDA's maximum
 * (CUDA C Programming Guide, "Technical Specifications per Compute
 * Capability": 512 KB of local memory per thread).  Frames and alloca past
 * it fault as a call-stack overflow naming the limit. */
#define WS_EMU_MAX_LOCAL_BYTES (512ull << 10)

/* Device printf output one launch may buffer: 64 MiB (64 times CUDA's
 * default printf FIFO of 1 MB, cudaLimitPrintfFifoSize); a kernel printing
 * more faults, naming the limit, instead of filling the host's memory. */
#define WS_EMU_MAX_PRINTF_BYTES (64ull << 20)
/* --- device memory -----------------------------------------------------------
 *
 * A device: one global address space shared by every launch made on it (the
 * CUDA context of a process).  Allocations live until freed or until the
 * device is freed.  Module variables (.global, .const, .global
 * .attribute(.managed)) of each module whose programs are used on the device
 * live on it too, created with their PTX initialisers on first use: they keep
 * their values across launches of kernels of the same module (a __device__
 * counter, a __constant__ filter).
 *
 * Addresses: allocations from 2^44 up, 256-byte aligned, with unmapped gaps
 * between them (an overrun faults), never reused after a free (a use after
 * free faults); module .global variables at the addresses their program was
 * laid out with (below 2^44).  The address ws_emu_var_find() gives a .const
 * variable is 0x7d0000000000 (the generic .const window) + (module index on
 * the device << 32) + its bank offset: for the first module used on the
 * device this is the generic address a kernel computes with cvta.const.  Every module's .global
 * variables share the addresses from 2^32 up (docs/emulator.md "Device
 * memory"): a launch sees its own module's variables, and ws_emu_mem_host()
 * resolves a variable address in the module last named to ws_emu_var_find()
 * or launched.
 *
 * Ownership: the device owns its allocations and variables; it borrows the
 * ws_ptx_module of every program used on it (keep them alive until
 * ws_emu_device_free).  A launch borrows its device.  The device keeps the
 * worker threads its launches run on from launch to launch (started when a
 * launch first needs them, ended by ws_emu_device_free).  Not thread-safe:
 * one caller at a time, and no allocation or free while a launch runs. */
typedef struct ws_emu_device ws_emu_device;

typedef struct ws_emu_device_options {
  uint64_t memory_budget;   /* total bytes of allocations; 0: the machine's
                               physical memory (16 GiB when unknown) */
} ws_emu_device_options;

int ws_emu_device_new(ws_emu_device **out, const ws_emu_device_options *o, ws_diag *d);
void ws_emu_device_free(ws_emu_device *dev);

/* Allocate `bytes` (0 allowed) of zeroed device memory, 256-byte aligned, at
 * a device address (never 0); WS_ENOMEM past the budget, with a diagnostic
 * naming the budget.  `name` (may be NULL; copied) is used in fault reports
 * ("buffer 'd_a'"). */
int ws_emu_mem_alloc(ws_emu_device *dev, uint64_t bytes, const char *name, uint64_t *addr,
                     ws_diag *d);
/* Free an allocation by its base address; WS_EINVAL (with a diagnostic) for
 * an address that is not the base of a live allocation. */
int ws_emu_mem_free(ws_emu_device *dev, uint64_t addr, ws_diag *d);
/* Host pointer to device bytes [addr, addr+bytes), which must lie inside one
 * allocation or one module variable; NULL otherwise.  Valid until that
 * allocation is freed or the device is freed.  Writing through it into a
 * .const variable changes what later launches read. */
void *ws_emu_mem_host(ws_emu_device *dev, uint64_t addr, uint64_t bytes);

/* The device address and size of module variable `name` (.global or .const,
 * as declared in the PTX) of the module p was loaded from; creates the
 * module's variables on first use.  WS_EINVAL (diagnostic naming it) when
 * absent.  The address works with ws_emu_mem_host. */
int ws_emu_var_find(ws_emu_device *dev, const ws_emu_program *p, const char *name,
                    uint64_t *addr, uint64_t *bytes, ws_diag *d);

/* Pack a kernel's parameters from cudaLaunchKernel-style pointers: args[i]
 * points at the value of the kernel's i-th .param (its declared size;
 * aggregates .b8 arrays included), placed at the parameter's aligned offset.
 * Writes the parameter image to buf (cap bytes), sets *used (the kernel's
 * parameter bytes).  WS_EINVAL if cap is too small or an args[i] is NULL. */
int ws_emu_params_pack(const ws_ptx_function *k, void *const *args, void *buf, size_t cap,
                       size_t *used, ws_diag *d);

typedef struct ws_emu_launch_config {
  uint32_t grid[3], block[3]; /* blocks per dimension, threads per dimension */
  uint64_t dynamic_shared;    /* dynamic shared bytes per block */
  const void *params;         /* packed parameter image (ws_emu_params_pack) */
  size_t params_bytes;        /* its bytes: the kernel's parameter bytes */
} ws_emu_launch_config;

/* Make a prepared launch cooperative (cudaLaunchCooperativeKernel): every
 * block is resident at once, so that grid-wide synchronisation
 * (cooperative groups' grid.sync()) completes; the launch gets the
 * workspace grid.sync() uses (%envreg1:%envreg2, 256 bytes of the
 * device's memory until the launch is freed).  docs/emulator.md,
 * "Cooperative launches".  WS_EINVAL (diagnostic) when the device has no
 * memory left for it. */
int ws_emu_launch_set_cooperative(ws_emu_launch *l, ws_diag *d);
/* Whether a prepared launch is cooperative.  Its blocks then take turns
 * on one thread, every block is run (a block filter's SKIP runs it without
 * hooks), and the hooks' worker index is the block's rank among the
 * hooked blocks: a profiler needs one worker per hooked block. */
int ws_emu_launch_cooperative(const ws_emu_launch *l);

/* A grid a launch's threads launched with the device runtime (dynamic
 * parallelism: a kernel's `k<<<grid, block, shared, stream>>>`, which CUDA
 * 12+ compiles to the device runtime's cudaGetParameterBuffer and
 * cudaLaunchDevice system calls).  The emulator records it and runs
 * nothing: its caller runs each child grid after the parent's
 * (docs/emulator.md, "Device-side launches"). */
typedef struct ws_emu_child {
  const ws_ptx_function *kernel; /* a kernel of the launch's module */
  uint32_t grid[3], block[3];
  uint32_t shared_bytes;         /* its dynamic shared memory */
  const uint8_t *params;         /* its parameter image: kernel->param_bytes bytes */
  uint32_t block_linear;         /* the block that launched it */
} ws_emu_child;
/* The grids the last ws_emu_run of l launched, ordered by launching block
 * and, within a block, by launch; *out is valid until l is run again or
 * freed.  0 when there are none (or out of memory: WS_ENOMEM in *err). */
size_t ws_emu_launch_children(ws_emu_launch *l, const ws_emu_child **out, int *err);

/* Prepare a launch of program p on device dev (grid and block checked
 * against CUDA's limits and the kernel's .reqntid/.maxntid, the parameter
 * image against the kernel's size; the image is copied).  Then ws_emu_run()
 * it, or hand it to ws_prof_launch().  Writes by the kernel land in the
 * device's memory.  The launch borrows dev and p. */
int ws_emu_launch_raw(ws_emu_launch **out, ws_emu_device *dev, const ws_emu_program *p,
                      const ws_emu_launch_config *c, ws_diag *d);

/* --- launching ------------------------------------------------------------ */

/* Check the spec against the program's kernel (argument count, kinds, sizes
 * and types; grid and block limits), read input files and initialise every
 * buffer.  Errors name the argument ("argument 2 'n': ...").  A thin layer
 * over the device API: a private device (no budget), one allocation per
 * buffer, the scalars packed, ws_emu_launch_raw(). */
int ws_emu_launch_new(ws_emu_launch **out, const ws_emu_program *p,
                      const ws_launch_spec *s, ws_diag *d);
/* Run the grid.  WS_EFAULT when the kernel faulted (out-of-bounds or
 * misaligned access, write to read-only memory, deadlock, trap, instruction
 * limit): the diagnostic names kernel, block, thread, PTX line, instruction
 * and address.  stats may be NULL. */
int ws_emu_run(ws_emu_launch *l, const ws_emu_options *o, ws_emu_stats *stats,
               ws_diag *d);
/* Refuse (WS_EINVAL, with a diagnostic naming the limit) a launch whose
 * `blocks` blocks that will run hold more warps than o->max_launch_insts:
 * each warp executes at least one instruction.  ws_emu_run calls it for
 * the whole grid when no block_filter is set; a caller that filters blocks
 * (sampling) calls it with the number that will run. */
int ws_emu_check_work(const ws_emu_launch *l, uint64_t blocks, const ws_emu_options *o,
                      ws_diag *d);

/* The launch limit o gives for launch L: o->max_launch_insts, or the
 * scaled default for WS_EMU_LAUNCH_INSTS_AUTO. */
uint64_t ws_emu_launch_limit(const ws_emu_launch *L, const ws_emu_options *o);
/* Write each "output" buffer into dir (NULL = ".").  Spec launches only. */
int ws_emu_write_outputs(const ws_emu_launch *l, const char *dir, ws_diag *d);
/* A buffer's contents by argument name (for tests); NULL if none (or a
 * raw launch). */
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

/* --- textures and surfaces -------------------------------------------------
 * Texture and surface objects of a device (cudaCreateTextureObject,
 * cudaCreateSurfaceObject): a resource (texels in the device's memory) and,
 * for a texture, how it is sampled.  Kernels name one by its 64-bit handle
 * (tex, tld4, txq, suld, sust, suq: docs/emulator.md, "Textures and
 * surfaces").  Texel (x, y, z) of layer or cube face f lies at
 * addr + f * slice + z * slice_z + y * pitch + x * texel bytes, where
 * slice_z = pitch * height and slice = slice_z * depth. */
typedef enum ws_emu_chan_kind {
  WS_EMU_CHAN_SIGNED, WS_EMU_CHAN_UNSIGNED, WS_EMU_CHAN_FLOAT
} ws_emu_chan_kind;
typedef enum ws_emu_addr_mode {
  WS_EMU_ADDR_WRAP, WS_EMU_ADDR_CLAMP, WS_EMU_ADDR_MIRROR, WS_EMU_ADDR_BORDER
} ws_emu_addr_mode;

typedef struct ws_emu_tex_desc {
  uint64_t addr;          /* device address of texel (0, 0, 0) */
  uint32_t dims;          /* 1, 2 or 3 */
  uint32_t width, height, depth; /* texels (1 for an unused dimension) */
  uint32_t layers;        /* layers of a layered texture (0: not layered) */
  int cubemap;            /* 6 faces of width x width (x layers) */
  uint64_t pitch;         /* bytes from one row to the next (0: width x texel bytes) */
  uint32_t nchan;         /* channels per texel: 1, 2 or 4 */
  uint32_t chan_bits;     /* bits per channel: 8, 16 or 32 (every channel alike) */
  ws_emu_chan_kind kind;  /* what a channel holds */
  int linear_memory;      /* a linear-memory resource (tex1Dfetch: integer
                             coordinates, zero outside) */
  /* sampling (textures) */
  ws_emu_addr_mode addr_mode[3];
  int filter_linear;      /* bilinear/trilinear, else nearest texel */
  int read_normalized;    /* 8/16-bit integers read as floats in [0,1] or [-1,1] */
  int normalized_coords;  /* coordinates in [0, 1) */
  float border[4];        /* the border colour */
  int surface;            /* a surface object (suld, sust), not a texture */
} ws_emu_tex_desc;

/* Create a texture (or, with d->surface, surface) object on dev; *handle
 * its non-zero handle.  WS_EINVAL (diagnostic) for a description that
 * cannot be sampled (no channel, bad sizes, a texture outside the
 * device's allocations is found when a kernel reads it). */
int ws_emu_tex_create(ws_emu_device *dev, const ws_emu_tex_desc *d, uint64_t *handle, ws_diag *diag);
/* Destroy one; WS_EINVAL for a handle that is not a live object. */
int ws_emu_tex_destroy(ws_emu_device *dev, uint64_t handle, ws_diag *diag);
/* The description of a live object, or NULL. */
const ws_emu_tex_desc *ws_emu_tex_find(const ws_emu_device *dev, uint64_t handle);

#ifdef __cplusplus
}
#endif
#endif
