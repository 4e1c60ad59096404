/*
 * rt.c — the runtime's one state (rt.h says why there is one), its start-up
 * from the environment (docs/exec.md, "Environment"), the error calls and
 * the report at exit.
 */
#include "cudart/rt.h"
#include "cudart/tex.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudart/exports.h"
#include "warpsight/report.h"
#include "util/number.h"
#include "util/strbuf.h"

ws_rt ws_rt_state;
/* Outside ws_rt so that the exit handler can clear the whole state and
 * later calls still find a lock (issue 24, row 4). */
static pthread_mutex_t rt_lock;
static pthread_once_t rt_once = PTHREAD_ONCE_INIT;
static _Thread_local cudaError_t rt_last_error; /* per host thread, as CUDA's */

void rt_print_diag(const ws_diag *d) { ws_diag_print(stderr, d, "warpsight"); }

/* Free everything and leave the state empty (every count 0, every pointer
 * NULL): a call made after this finds nothing to use after its free. */
static void rt_free_all(ws_rt *rt) {
  /* the graphs (their kernel parameters), the device (its module
   * variables), then the programs, then the modules they borrow */
  rt_graph_free_all(rt);
  rt_array_free_all(rt);
  rt_tex_free_all(rt);
  rt_mirror_unmap(rt);
  ws_prof_l2_free(rt->l2);
  rt->l2 = NULL;
  ws_emu_device_free(rt->dev);
  ws_emu_jit_free(rt->jit); /* the programs keep their code */
  rt->jit = NULL;
  for (size_t i = 0; i < rt->nfuncs; i++) {
    free(rt->funcs[i].name);
    free(rt->funcs[i].key_mask);
    ws_emu_program_free(rt->funcs[i].prog);
  }
  for (size_t i = 0; i < rt->nmodules; i++) {
    free(rt->modules[i].ptx);
    free(rt->modules[i].error);
    free(rt->modules[i].handle);
    ws_ptx_module_free(rt->modules[i].m);
    for (size_t k = 0; k < rt->modules[i].nparts; k++) {
      ws_ptx_module_free(rt->modules[i].parts[k]);
      free(rt->modules[i].part_ptx[k]);
    }
    free(rt->modules[i].parts);
    free(rt->modules[i].part_ptx);
    rt_module_res_free(&rt->modules[i]);
  }
  for (size_t i = 0; i < rt->nvars; i++) free(rt->vars[i].name);
  for (size_t i = 0; i < rt->nkstats; i++) {
    free(rt->kstats[i].key);
    free(rt->kstats[i].pred.bottleneck);
  }
  for (size_t i = 0; i < rt->nhostmem; i++)
    if (!rt->hostmem[i].registered && !rt->hostmem[i].mapped_at_dev) free(rt->hostmem[i].ptr);
  while (rt->events) {
    rt_event *e = rt->events;
    rt->events = e->next;
    free(e->deps.v);
    free(e);
  }
  while (rt->streams) {
    rt_stream *s = rt->streams;
    rt->streams = s->next;
    free(s->deps.v);
    free(s);
  }
  while (rt->pools) {
    rt_pool *p = rt->pools;
    rt->pools = p->next;
    free(p);
  }
  if (rt->log_fd >= 0) close(rt->log_fd);
  ws_gpu_free(rt->gpu);
  free(rt->modules), free(rt->funcs), free(rt->vars), free(rt->mirrors), free(rt->kstats);
  for (size_t i = 0; i < rt->nallocs; i++) free(rt->allocs[i].advice);
  free(rt->maps), free(rt->allocs), free(rt->hostmem);
  free(rt->json_out);
  memset(rt, 0, sizeof *rt);
  rt->log_fd = -1;
}

/* At exit: the report, then the state is emptied and marked unloading, so
 * that a destructor or another thread calling in later gets
 * cudaErrorCudartUnloading, as from CUDA's runtime. */
static void rt_at_exit(void) {
  ws_rt *rt = &ws_rt_state;
  pthread_mutex_lock(&rt_lock);
  if (!rt->unloading) {
    if (rt->ready) rt_report(rt);
    rt_free_all(rt);
    ws_report_chart_shutdown(); /* cairo's font caches, for leak checkers */
    rt->unloading = 1;
  }
  pthread_mutex_unlock(&rt_lock);
}

/* The primary model of "all" (docs/exec.md): warpsight's own model, the one
 * validated against measured times (docs/validation.md), fixed so that
 * event timings do not move when a model is added. */
#define RT_PRIMARY_OF_ALL "warpsight"

/* WARPSIGHT_MODEL: "all" (default) or a comma-separated list of names, each
 * once and without 'all' (the grammar of --model, cli_model_names: a name
 * twice ran its model twice and wrote its key twice into each of the
 * report's objects); the first is the primary model. */
static int parse_models(ws_rt *rt, const char *spec) {
  if (!spec || !*spec || strcmp(spec, "all") == 0) {
    if (ws_model_find(RT_PRIMARY_OF_ALL)) rt->models[rt->nmodels++] = RT_PRIMARY_OF_ALL;
    for (size_t i = 0; i < ws_model_count(); i++)
      if (strcmp(ws_model_at(i)->name, RT_PRIMARY_OF_ALL) != 0)
        rt->models[rt->nmodels++] = ws_model_at(i)->name;
    return 0;
  }
  const char *p = spec;
  while (*p) {
    size_t n = strcspn(p, ",");
    const ws_model_info *found = NULL;
    for (size_t i = 0; i < ws_model_count(); i++)
      if (strlen(ws_model_at(i)->name) == n && strncmp(ws_model_at(i)->name, p, n) == 0)
        found = ws_model_at(i);
    if (n == 3 && strncmp(p, "all", 3) == 0) {
      fprintf(stderr, "warpsight: error: WARPSIGHT_MODEL: 'all' cannot be in a list\n");
      return -1;
    }
    if (!found) {
      fprintf(stderr, "warpsight: error: WARPSIGHT_MODEL: unknown model '%.*s' (warpsight "
              "predict --help lists them)\n", (int)n, p);
      return -1;
    }
    for (size_t i = 0; i < rt->nmodels; i++)
      if (strcmp(rt->models[i], found->name) == 0) {
        fprintf(stderr, "warpsight: error: WARPSIGHT_MODEL: model '%s' given twice\n", found->name);
        return -1;
      }
    if (rt->nmodels == RT_MAX_MODELS) {
      fprintf(stderr, "warpsight: error: WARPSIGHT_MODEL: more than %d models (each model once)\n",
              RT_MAX_MODELS);
      return -1;
    }
    rt->models[rt->nmodels++] = found->name;
    p += n + (p[n] == ',');
  }
  return 0;
}

/* What an environment variable counts: a plain count, bytes (with an
 * optional K, M, G or T), or blocks to profile ("all" too). */
enum { ENV_COUNT, ENV_BYTES, ENV_BLOCKS };

/* Environment variable `name` as a count of `kind` into *out, left alone
 * when unset or empty; -1 after a message that names what it counts
 * (`what`). */
static int env_count(const char *name, int kind, const char *what, uint64_t *out) {
  const char *s = getenv(name);
  if (!s || !*s) return 0;
  if ((kind == ENV_BLOCKS ? ws_parse_sample_blocks(s, out) : ws_parse_count(s, kind == ENV_BYTES, out)) == 0)
    return 0;
  fprintf(stderr, "warpsight: error: %s: expected a number of %s, got '%.200s'\n", name, what, s);
  return -1;
}

static void rt_init(void) {
  ws_rt *rt = &ws_rt_state;
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&rt_lock, &a);
  pthread_mutexattr_destroy(&a);
  rt->log_fd = -1;
  const char *g = getenv("WARPSIGHT_GPU");
  const char *js = getenv("WARPSIGHT_EXEC_JSON"), *q = getenv("WARPSIGHT_QUIET");
  const char *lg = getenv("WARPSIGHT_EXEC_LOG");
  const char *en = getenv("WARPSIGHT_ENGINE"), *vb = getenv("WARPSIGHT_VERBOSE");
  ws_diag d = WS_DIAG_INIT;
  if (ws_gpu_load(&rt->gpu, g && *g ? g : "a100", &d)) {
    rt_print_diag(&d);
    fprintf(stderr, "warpsight: error: WARPSIGHT_GPU: no GPU '%s' (warpsight gpus lists them); "
            "every CUDA call returns cudaErrorInitializationError\n", g);
    rt->gpu = NULL;
    rt->init_failed = 1;
  }
  ws_diag_free(&d);
  if (parse_models(rt, getenv("WARPSIGHT_MODEL"))) rt->init_failed = 1;
  if (env_count("WARPSIGHT_SAMPLE_BLOCKS", ENV_BLOCKS, "blocks (or 'all')", &rt->sample_blocks)) rt->init_failed = 1;
  /* the emulated-work limits of run, profile and predict (docs/emulator.md) */
  rt->max_warp_insts = WS_EMU_DEFAULT_MAX_WARP_INSTS;
  rt->max_launch_insts = WS_EMU_DEFAULT_MAX_LAUNCH_INSTS;
  rt->memory_budget = RT_MEMORY_BUDGET;
  if (env_count("WARPSIGHT_MAX_WARP_INSTS", ENV_COUNT, "warp instructions", &rt->max_warp_insts) ||
      env_count("WARPSIGHT_MAX_LAUNCH_INSTS", ENV_COUNT, "warp instructions", &rt->max_launch_insts) ||
      env_count("WARPSIGHT_MAX_MEMORY", ENV_BYTES, "bytes with an optional K, M, G or T", &rt->memory_budget))
    rt->init_failed = 1;
  if (!rt->memory_budget) rt->memory_budget = UINT64_MAX; /* 0: no budget */
  rt->json_out = js && *js ? ws_strdup(js) : NULL;
  rt->quiet = q && *q && strcmp(q, "0") != 0;
  rt->verbose = vb && *vb && strcmp(vb, "0") != 0;
  ws_emu_engine eng = WS_EMU_ENGINE_AUTO;
  if (en && *en && ws_emu_engine_parse(&eng, en) != WS_OK) {
    fprintf(stderr, "warpsight: error: WARPSIGHT_ENGINE expects auto, interp or jit, got '%.100s'\n", en);
    rt->init_failed = 1;
  }
  rt->engine = (int)eng;
  /* the emulator's and the profiler's worker count: the core count the
   * emulator reads once per process (ws_emu_cores) */
  rt->ncpu = ws_emu_cores();
  /* CUDA's defaults (cudaDeviceGetLimit): 1 KiB of stack per thread, a
   * 1 MiB printf FIFO, an 8 MiB device heap, sync depth 2, 2048 pending
   * launches, 64-byte L2 fetch granularity, no persisting L2 */
  const size_t limit_defaults[7] = {1024, 1u << 20, 8u << 20, 2, 2048, 64, 0};
  memcpy(rt->limits, limit_defaults, sizeof limit_defaults);
  rt->current_pool = &rt->default_pool;
  rt->next_id = 1;
  if (lg && *lg) {
    rt->log_fd = open(lg, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (rt->log_fd < 0)
      fprintf(stderr, "warpsight: warning: WARPSIGHT_EXEC_LOG: cannot open %s: %s\n", lg,
              strerror(errno));
  }
  rt->ready = 1;
  atexit(rt_at_exit);
}

ws_rt *rt_enter(void) {
  pthread_once(&rt_once, rt_init);
  pthread_mutex_lock(&rt_lock);
  return &ws_rt_state;
}

void rt_leave(void) { pthread_mutex_unlock(&rt_lock); }

cudaError_t rt_error(cudaError_t err) {
  if (err != cudaSuccess) rt_last_error = err;
  return err;
}

cudaError_t rt_done(cudaError_t e) {
  rt_leave();
  return rt_error(e);
}

cudaError_t rt_sticky(const ws_rt *rt) {
  if (rt->unloading) return cudaErrorCudartUnloading;
  if (rt->init_failed) return cudaErrorInitializationError;
  return rt->sticky;
}

cudaError_t rt_unsupported(const char *name) {
  ws_rt *rt = rt_enter();
  size_t i = 0;
  while (i < rt->unsup_nseen && strcmp(rt->unsup_seen[i], name) != 0) i++;
  if (i == rt->unsup_nseen) {
    fprintf(stderr, "warpsight: error: %s is not supported by warpsight's CUDA runtime "
            "(returns cudaErrorNotSupported; docs/exec.md lists what is)\n", name);
    if (rt->unsup_nseen < RT_MAX_UNSUP) rt->unsup_seen[rt->unsup_nseen++] = name;
  }
  rt_leave();
  return rt_error(cudaErrorNotSupported);
}

/* --- errors --------------------------------------------------------------- */

typedef struct err_text {
  cudaError_t code;  /* value */
  const char *name;  /* enumerator name */
  const char *text;  /* description */
} err_text;

static const err_text err_texts[] = {
#define ERR(name, value, text) {name, #name, text},
#include "cudart/errors.def"
#undef ERR
};

static const err_text *err_find(cudaError_t e) {
  for (size_t i = 0; i < sizeof err_texts / sizeof *err_texts; i++)
    if (err_texts[i].code == e) return &err_texts[i];
  return NULL;
}

const char *cudaGetErrorString(cudaError_t e) {
  const err_text *t = err_find(e);
  return t ? t->text : "unrecognized error code";
}

const char *cudaGetErrorName(cudaError_t e) {
  const err_text *t = err_find(e);
  return t ? t->name : "cudaErrorUnknown";
}

/* As on a GPU: a kernel fault is sticky (every later call returns it);
 * other errors are returned once and reset. */
cudaError_t cudaGetLastError(void) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (e == cudaSuccess) e = rt_last_error;
  rt_last_error = cudaSuccess;
  rt_leave();
  return e;
}

cudaError_t cudaPeekAtLastError(void) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (e == cudaSuccess) e = rt_last_error;
  rt_leave();
  return e;
}
