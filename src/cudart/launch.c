/*
 * launch.c — a kernel launch: check the configuration as CUDA does, pack
 * the parameters from the kernel's .param list (the generated code passes
 * only pointers to the values), submit it to its stream (stream.c: run now,
 * or recorded while the stream captures), run the grid in the emulator on
 * the device, profile it with ws_prof_launch and predict its time with the
 * chosen models.
 *
 * Launch reuse (docs/exec.md): launches with the same kernel, grid, block,
 * dynamic shared bytes and reuse key are profiled once; the later ones run
 * in the emulator without the profiler (their writes matter) and reuse the
 * prediction.  The key keeps only the parameter bytes that can change what
 * the kernel does (ws_analysis_param_use: they reach a branch, a guard, an
 * address...), and of a device pointer only its address modulo 256 (its
 * alignment, which decides coalescing): a loop whose launches change a
 * scale factor or swap ping-pong buffers is profiled once, one whose launch
 * changes a size or a loop bound is profiled again.  The predicted-time
 * clock (events) advances by the primary model's time (the first model of
 * WARPSIGHT_MODEL) at every launch.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cudart/exports.h"
#include "cudart/rt.h"
#include "util/file.h"
#include "util/strbuf.h"
#include "util/vec.h"
#include "warpsight/analysis.h"
#include "warpsight/profiler.h"
#include "warpsight/report.h"

/* The reuse key's bytes per parameter byte (f->key_mask), from the
 * kernel's PTX; NULL (every byte, as bytes) when it cannot be made. */
static void make_key_mask(rt_func *f) {
  uint8_t *use = NULL;
  uint64_t n = 0;
  ws_diag d = WS_DIAG_INIT;
  if (ws_analysis_param_use(&use, &n, ws_emu_program_kernel(f->prog), &d) == WS_OK) {
    for (uint64_t i = 0; i < n; i++) {
      int wide = (use[i] & WS_PARAM_WIDE) && i + 8 <= n;
      if (!(use[i] & WS_PARAM_CONTROL))
        use[i] = RT_KEY_IGNORE;
      else
        use[i] = wide ? RT_KEY_PTR : RT_KEY_EXACT;
    }
    f->key_mask = use;
    f->key_bytes = (size_t)n;
  }
  ws_diag_free(&d);
}

/* The reuse key of a parameter image into key (cap bytes); its length.  A
 * pointer field whose value is a device (or mirrored) address becomes its
 * address modulo 256 and a marker byte 1; any other value, its bytes and a
 * marker 0 (the marker keeps a pointer from equalling a number). */
static size_t make_key(ws_rt *rt, const rt_func *f, const unsigned char *p, size_t n,
                       unsigned char *key) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    int m = f->key_mask && i < f->key_bytes ? f->key_mask[i] : RT_KEY_EXACT;
    if (m == RT_KEY_PTR) {
      uint64_t v;
      memcpy(&v, p + i, 8);
      int is_ptr = v && rt_host_ptr(rt, v, 1) != NULL;
      if (is_ptr) {
        key[k++] = (unsigned char)(v & 255);
        key[k++] = 1;
      } else {
        memcpy(key + k, p + i, 8);
        k += 8;
        key[k++] = 0;
      }
      i += 7; /* the field's other bytes */
    } else if (m == RT_KEY_EXACT) {
      key[k++] = p[i];
    }
  }
  return k;
}

static int same_config(const rt_kstat *k, size_t func, dim3 grid, dim3 block, uint64_t shared) {
  return k->func == func && k->grid[0] == grid.x && k->grid[1] == grid.y && k->grid[2] == grid.z &&
         k->block[0] == block.x && k->block[1] == block.y && k->block[2] == block.z &&
         k->dyn_shared == shared;
}

static rt_kstat *find_or_add(ws_rt *rt, size_t func, dim3 grid, dim3 block, uint64_t shared,
                             const unsigned char *key, size_t nkey, int *fresh) {
  *fresh = 0;
  for (size_t i = 0; i < rt->nkstats; i++) {
    rt_kstat *k = &rt->kstats[i];
    if (same_config(k, func, grid, block, shared) && k->key_bytes == nkey &&
        !memcmp(k->key, key, nkey))
      return k;
  }
  rt_kstat k = {0};
  k.func = func;
  k.grid[0] = grid.x, k.grid[1] = grid.y, k.grid[2] = grid.z;
  k.block[0] = block.x, k.block[1] = block.y, k.block[2] = block.z;
  k.dyn_shared = shared;
  k.key = malloc(nkey ? nkey : 1);
  k.key_bytes = nkey;
  for (size_t m = 0; m < RT_MAX_MODELS; m++) k.pred.ms[m] = NAN;
  if (!k.key) return NULL;
  memcpy(k.key, key, nkey);
  if (WS_VEC_PUSH(rt->kstats, rt->nkstats, rt->cap_kstats, k)) {
    free(k.key);
    return NULL;
  }
  *fresh = 1;
  return &rt->kstats[rt->nkstats - 1];
}

/* WARPSIGHT_REPORT_DIR: the charts of the models that draw one. */
static void write_charts(ws_rt *rt, const rt_kstat *k, const ws_model_result *r) {
  const char *dir = getenv("WARPSIGHT_REPORT_DIR");
  if (!dir || !*dir) return;
  char path[4096], name[WS_NAME_PART_MAX + 1];
  /* a templated kernel's name can pass the 255 bytes of a file name (its
   * charts were missing without a word): shortened, unique and safe */
  ws_name_part(name, rt->funcs[k->func].name, 0);
  snprintf(path, sizeof path, "%s/%s-%zu-%s", dir, name, (size_t)(k - rt->kstats), r->model);
  ws_diag d = WS_DIAG_INIT;
  int st = ws_report_chart_for_result(path, r, &d);
  if (st && st != WS_EUNSUP) rt_print_diag(&d); /* models without a chart: not an error */
  ws_diag_free(&d);
}

/* WARPSIGHT_REPORT_DIR: the profile of each profiled launch, as
 * KERNEL-N.profile.json, for `exec --report`'s HTML page. */
static void write_profile(ws_rt *rt, const rt_kstat *k, const ws_profile *prof) {
  const char *dir = getenv("WARPSIGHT_REPORT_DIR");
  if (!dir || !*dir) return;
  char path[4096], name[WS_NAME_PART_MAX + 1];
  ws_name_part(name, rt->funcs[k->func].name, 0); /* as the charts' (write_charts) */
  snprintf(path, sizeof path, "%s/%s-%zu.profile.json", dir, name, (size_t)(k - rt->kstats));
  char *text = ws_profile_to_json(prof);
  ws_diag d = WS_DIAG_INIT;
  if (text && ws_write_file(path, text, strlen(text), &d)) rt_print_diag(&d);
  ws_diag_free(&d);
  free(text);
}

/* Run the models on a fresh profile into k->pred. */
static void predict(ws_rt *rt, rt_kstat *k, const ws_profile *prof) {
  write_profile(rt, k, prof);
  for (size_t i = 0; i < rt->nmodels; i++) {
    ws_model_result r = WS_MODEL_RESULT_INIT;
    ws_diag d = WS_DIAG_INIT;
    int st = ws_model_predict(&r, rt->models[i], prof, rt->gpu, &d);
    if (st == WS_OK) {
      k->pred.ms[i] = r.time_ms;
      if (i == 0 && r.bound != WS_BOUND_NONE) k->pred.bottleneck = ws_strdup(ws_model_limiter(&r));
      write_charts(rt, k, &r);
    } else if (i == 0 && !rt->primary_warned) { /* once: the same reason for every kernel */
      fprintf(stderr, "warpsight: warning: the primary model %s cannot predict kernel %s "
              "(events and the clock get no time from it):\n", rt->models[i],
              rt->funcs[k->func].name);
      rt_print_diag(&d);
      rt->primary_warned = 1;
    }
    ws_model_result_free(&r);
    ws_diag_free(&d);
  }
  k->ok = 1;
}

/* The CUDA error for an emulator fault. */
static cudaError_t fault_error(const ws_emu_stats *s) {
  switch (s->fault_kind) {
  case WS_EMU_FAULT_MISALIGNED: return cudaErrorMisalignedAddress;
  case WS_EMU_FAULT_TRAP: return cudaErrorLaunchFailure;
  case WS_EMU_FAULT_ASSERT: return cudaErrorAssert;
  case WS_EMU_FAULT_LIMIT: /* either instruction limit: what a GPU's watchdog reports */
  case WS_EMU_FAULT_LAUNCH_LIMIT:
  case WS_EMU_FAULT_SPIN_DEADLOCK: /* stopped by the warp limit: a GPU spins on */
    return cudaErrorLaunchTimeout;
  case WS_EMU_FAULT_OOB: return cudaErrorIllegalAddress;
  default: return cudaErrorLaunchFailure;
  }
}

/* CUDA's grid limits (Programming Guide, Technical Specifications: x up to
 * 2^31-1 from CC 3.0, 65535 before; y and z 65535). */
static uint32_t max_grid_x(const ws_gpu *g) { return g->cc_major >= 3 ? 2147483647u : 65535u; }

/* The kernel's static shared bytes (resources.c), once. */
static int static_shared(ws_rt *rt, rt_func *f) {
  if (f->static_shared < 0) {
    ws_prof_resources r;
    if (rt_func_resources(rt, f, &r, NULL)) return 0;
    f->static_shared = isfinite(r.shared_bytes_per_block) ? (int)r.shared_bytes_per_block : 0;
  }
  return f->static_shared;
}

/* As CUDA answers a launch it refuses: a zero or too large grid or block
 * is cudaErrorInvalidConfiguration (also a block against the kernel's
 * .reqntid/.maxntid); dynamic shared memory beyond the kernel's maximum
 * (48 KiB minus its static shared memory unless cudaFuncSetAttribute raised
 * it) or static + dynamic beyond the opt-in maximum per block is
 * cudaErrorInvalidValue, the "invalid argument" of cuLaunchKernel. */
cudaError_t rt_check_config(ws_rt *rt, rt_func *f, dim3 grid, dim3 block, uint64_t dyn_shared) {
  cudaError_t e = cudaSuccess;
  ws_emu_program *p = rt_func_prog(rt, f, &e);
  if (!p) return e;
  const ws_gpu *g = rt->gpu;
  const ws_ptx_perf *pf = &ws_emu_program_kernel(p)->perf;
  uint64_t threads = (uint64_t)block.x * block.y * block.z;
  uint32_t gd[3] = {grid.x, grid.y, grid.z}, bd[3] = {block.x, block.y, block.z};
  for (int i = 0; i < 3; i++)
    if (!gd[i] || !bd[i]) return cudaErrorInvalidConfiguration;
  if (threads > (uint64_t)g->limits.max_threads_per_block || block.x > 1024 || block.y > 1024 ||
      block.z > 64)
    return cudaErrorInvalidConfiguration;
  if (grid.x > max_grid_x(g) || grid.y > 65535 || grid.z > 65535) return cudaErrorInvalidConfiguration;
  if (pf->nreqntid && (pf->reqntid[0] != block.x || pf->reqntid[1] != block.y ||
                       pf->reqntid[2] != block.z))
    return cudaErrorInvalidConfiguration;
  /* Beyond __launch_bounds__ (.maxntid): the CUDA C++ Programming Guide,
   * "Launch Bounds", says the kernel "will fail to launch" but names no
   * code, and neither cudaErrorLaunchOutOfResources ("too many threads for
   * the kernel's register count") nor cudaErrorInvalidConfiguration is
   * documented for it; unverified on a GPU (docs/exec.md, "Errors"). */
  if (pf->nmaxntid && threads > (uint64_t)pf->maxntid[0] * pf->maxntid[1] * pf->maxntid[2])
    return cudaErrorInvalidConfiguration;
  uint64_t st = (uint64_t)static_shared(rt, f);
  uint64_t max_dyn = f->max_dyn_shared >= 0 ? (uint64_t)f->max_dyn_shared
                     : st < 49152        ? 49152 - st
                                         : 0;
  if (dyn_shared > max_dyn || st + dyn_shared > (uint64_t)g->limits.max_shared_per_block)
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

/* The translated engine for f's program p before a launch of which
 * `plain` threads run without the profiler's hooks (docs/exec.md, "Engines"):
 * WARPSIGHT_ENGINE=jit compiles on the first launch, and a failure fails it
 * (WS_EUNSUP, said once); auto takes the code from the cache, else
 * compiles it once the launches so far and this one's plain threads make
 * enough work (ws_emu_jit_worth), and otherwise stays in the interpreter. */
static int prepare_engine(ws_rt *rt, rt_func *f, ws_emu_program *p, uint64_t plain) {
  if (rt->engine == WS_EMU_ENGINE_INTERP || f->jit_state == 1) return WS_OK;
  if (f->jit_state == 2) return rt->engine == WS_EMU_ENGINE_JIT ? WS_EUNSUP : WS_OK;
  int force = rt->engine == WS_EMU_ENGINE_JIT;
  if (!force && !plain) return WS_OK; /* nothing would run in it */
  ws_diag d = WS_DIAG_INIT;
  int st = WS_OK;
  if (!rt->jit && !rt->jit_none) {
    ws_emu_jit_options o = WS_EMU_JIT_OPTIONS_INIT;
    ws_emu_jit_options_env(&o);
    if ((st = ws_emu_jit_new(&rt->jit, &o, &d))) rt->jit_none = 1;
  }
  if (!rt->jit) {
    f->jit_state = 2;
    if (!force && !rt->verbose && !rt->jit_noted && ws_emu_jit_worth(p, plain, f->interp_insts)) {
      /* once per process, when the work would pay for a compile */
      fprintf(stderr, "warpsight: note: the kernels run in the interpreter: %s\n",
              d.count ? d.items[0].message : "no C compiler");
      rt->jit_noted = 1;
    }
  } else {
    st = ws_emu_jit_prepare(rt->jit, p, force ? 0 : WS_EMU_JIT_CACHED_ONLY, &d);
    if (st == WS_EMISSING) {
      if (!ws_emu_jit_worth(p, plain, f->interp_insts)) {
        ws_diag_free(&d);
        return WS_OK; /* asked again at the next launch */
      }
      st = ws_emu_jit_prepare(rt->jit, p, 0, &d);
    }
    f->jit_state = st == WS_OK ? 1 : st == WS_ENOMEM ? 0 : 2;
  }
  const char *k = rt->funcs[f - rt->funcs].name;
  if (st && (force || st == WS_ENOMEM)) {
    rt_print_diag(&d);
  } else if (rt->verbose) {
    if (st) {
      fprintf(stderr, "warpsight: kernel %s runs in the interpreter:\n", k);
      rt_print_diag(&d);
    } else {
      fprintf(stderr, "warpsight: kernel %s runs in the translated engine (%s)\n", k, ws_emu_jit_compiler(rt->jit));
    }
  }
  ws_diag_free(&d);
  return force || st == WS_ENOMEM ? st : WS_OK;
}

/* A cooperative launch of f runs in the interpreter whatever the engine:
 * its blocks take turns at spin points (coop.c), which the translated code
 * does not have.  WARPSIGHT_ENGINE=jit ("translated, or the launch fails")
 * refuses it, naming the kernel and why; auto says so once per kernel when
 * verbose. */
static int coop_engine(ws_rt *rt, rt_func *f) {
  const char *k = rt->funcs[f - rt->funcs].name;
  if (rt->engine == WS_EMU_ENGINE_JIT) {
    fprintf(stderr,
            "warpsight: error: kernel %s: a cooperative launch runs in the interpreter only (its blocks take turns "
            "at grid-wide waits); WARPSIGHT_ENGINE=jit refuses it (auto runs it in the interpreter)\n",
            k);
    return WS_EUNSUP;
  }
  if (rt->verbose && rt->engine == WS_EMU_ENGINE_AUTO && !f->coop_noted) {
    fprintf(stderr, "warpsight: kernel %s runs in the interpreter: a cooperative launch\n", k);
    f->coop_noted = 1;
  }
  return WS_OK;
}

cudaError_t rt_pack(ws_rt *rt, rt_func *f, void **args, unsigned char *buf, size_t cap,
                    size_t *used) {
  cudaError_t e = cudaSuccess;
  ws_emu_program *p = rt_func_prog(rt, f, &e);
  if (!p) return e;
  const ws_ptx_function *k = ws_emu_program_kernel(p);
  if (k->nparams && !args) return cudaErrorInvalidValue;
  ws_diag d = WS_DIAG_INIT;
  int st = ws_emu_params_pack(k, (void *const *)args, buf, cap, used, &d);
  rt_print_diag(&d);
  ws_diag_free(&d);
  return st ? cudaErrorInvalidValue : cudaSuccess;
}

/* The emulator's clock rates for a launch (docs/exec.md, "Timing"):
 * %clock advances, per warp instruction, by the mean dependent latency of
 * an instruction of a loop that reads the clock and compares — 33 nominal
 * cycles for the four instructions mov %clock, sub, setp, bra (20 + 6 + 6
 * + 1, the profile's nominal latencies, docs/profile.md) — scaled as the
 * warpsight model scales ALU latencies (alu_latency_scale): a kernel that
 * spins until the clock has advanced N cycles then runs about as many
 * iterations as the model predicts N cycles hold.  %globaltimer is that
 * clock in nanoseconds at the GPU's clock, from the predicted clock. */
#define CLOCK_LOOP_CYCLES_PER_INST (33.0 / 4.0)
static void clock_rates(const ws_rt *rt, double *cycles, double *ns, uint64_t *base) {
  double s = ws_gpu_p(rt->gpu, WS_GP_WARPSIGHT_ALU_LATENCY_SCALE);
  *cycles = CLOCK_LOOP_CYCLES_PER_INST * (isfinite(s) && s > 0 ? s : 1.0);
  *ns = rt->gpu->clock_ghz > 0 ? *cycles / rt->gpu->clock_ghz : *cycles;
  *base = (uint64_t)(rt->clock_ms * 1e6);
}

/* Run (profiling when fresh) one prepared launch; the emulator's status. */
static int run(ws_rt *rt, rt_func *f, ws_emu_launch *l, dim3 grid, dim3 block, uint64_t shared,
               rt_kstat *k, int fresh, ws_emu_stats *stats, ws_diag *d) {
  fflush(stdout); /* the program's output before the kernel's printf */
  int st;
  double cyc, ns;
  uint64_t base;
  clock_rates(rt, &cyc, &ns, &base);
  if (fresh) {
    ws_prof_target t = {rt_module_ptx(rt, f->module), f->prog, l, {grid.x, grid.y, grid.z},
                        {block.x, block.y, block.z}, shared, NULL};
    ws_prof_options po = WS_PROF_OPTIONS_INIT;
    po.sample_blocks = rt->sample_blocks;
    po.functional_rest = 1; /* every block runs: the program needs its results */
    po.threads = rt->ncpu;  /* read once per process */
    po.printf_out = stdout;
    po.max_warp_insts = rt->max_warp_insts;
    po.max_launch_insts = rt->max_launch_insts;
    po.clock_per_inst = cyc, po.timer_ns_per_inst = ns, po.timer_base_ns = base;
    ws_prof_resources res; /* the cubin's registers and shared bytes where there is one */
    const char *src = NULL;
    if (!rt_func_resources(rt, f, &res, &src) && src) {
      po.resources = &res;
      po.resources_source = src;
    }
    /* back-to-back launches: this one starts from the L2 the previous one
     * left (docs/exec.md), and leaves its own for the next */
    ws_prof_l2 *left = NULL;
    po.l2_start = rt->l2 ? WS_PROF_L2_CARRIED : WS_PROF_L2_COLD;
    po.l2_carried = rt->l2;
    po.l2_end = &left;
    ws_profile *prof = NULL;
    st = ws_prof_launch(&prof, stats, &t, rt->gpu, &po, d);
    ws_prof_l2_free(rt->l2);
    rt->l2 = left;
    if (st == WS_OK) predict(rt, k, prof);
    ws_profile_free(prof);
  } else {
    ws_emu_options eo = WS_EMU_OPTIONS_INIT;
    eo.printf_out = stdout;
    eo.max_warp_insts = rt->max_warp_insts;
    eo.max_launch_insts = rt->max_launch_insts;
    eo.clock_per_inst = cyc, eo.timer_ns_per_inst = ns, eo.timer_base_ns = base;
    uint64_t blocks = (uint64_t)grid.x * grid.y * grid.z;
    eo.threads = ws_prof_workers(rt->ncpu, blocks, 0, 1); /* the profiler's rule: no idle workers */
    st = ws_emu_run(l, &eo, stats, d);
    ws_prof_l2_free(rt->l2); /* not simulated: what it left in the L2 is unknown */
    rt->l2 = NULL;
  }
  fflush(stdout);
  return st;
}

cudaError_t rt_launch(ws_rt *rt, rt_func *f, dim3 grid, dim3 block, const unsigned char *params,
                      size_t params_bytes, uint64_t shared, int coop) {
  if (!rt->gpu) return cudaErrorInitializationError;
  cudaError_t e = cudaSuccess;
  ws_emu_program *p = rt_func_prog(rt, f, &e);
  ws_emu_device *dev = rt_device(rt);
  if (!p) return e;
  if (!dev) return cudaErrorInitializationError;
  if ((e = rt_check_config(rt, f, grid, block, shared))) return e;
  static _Thread_local unsigned char key[RT_PARAM_BYTES * 2];
  size_t nkey = make_key(rt, f, params, params_bytes, key);
  ws_emu_launch_config c = {{grid.x, grid.y, grid.z}, {block.x, block.y, block.z}, shared, params,
                            params_bytes};
  ws_diag d = WS_DIAG_INIT;
  ws_emu_launch *l = NULL;
  int fresh = 0;
  size_t fi = (size_t)(f - rt->funcs);
  rt_kstat *k = find_or_add(rt, fi, grid, block, shared, key, nkey, &fresh);
  int st = k ? WS_OK : WS_ENOMEM;
  if (!st) {
    rt_mirror_sync(rt, 1);
    st = ws_emu_launch_raw(&l, dev, p, &c, &d);
    if (!st && coop) st = ws_emu_launch_set_cooperative(l, &d);
  }
  if (!st && coop) {
    st = coop_engine(rt, f);
  } else if (!st) { /* the threads of the blocks the profiler does not hook */
    uint64_t blocks = (uint64_t)c.grid[0] * c.grid[1] * c.grid[2];
    uint64_t hooked = !fresh ? 0 : !rt->sample_blocks || rt->sample_blocks > blocks ? blocks : rt->sample_blocks;
    st = prepare_engine(rt, f, p, (blocks - hooked) * c.block[0] * c.block[1] * c.block[2]);
  }
  ws_emu_stats stats = {0};
  if (!st) st = run(rt, f, l, grid, block, shared, k, fresh, &stats, &d);
  if (!ws_emu_program_translated(p)) f->interp_insts += stats.thread_insts;
  if (l) rt_mirror_sync(rt, 0);
  rt_child *kids = NULL; /* its device-side launches (cdp.c) */
  size_t nkids = 0;
  cudaError_t ke = st ? cudaSuccess : rt_children_take(rt, f, l, &kids, &nkids);
  ws_emu_launch_free(l);
  rt_print_diag(&d);
  ws_diag_free(&d);
  if (fresh && k && k->ok) rt_log_kstat(rt, (size_t)(k - rt->kstats));
  if (st == WS_EFAULT) {
    rt->sticky = fault_error(&stats);
    rt_log_fault(rt); /* for a program that dies of it */
    return rt->sticky;
  }
  if (st == WS_ENOMEM) return cudaErrorMemoryAllocation;
  if (st) return cudaErrorLaunchFailure;
  k->launches++;
  rt->launches++;
  rt_log_launch(rt, (size_t)(k - rt->kstats));
  if (k->ok && !isnan(k->pred.ms[0])) rt->clock_ms += k->pred.ms[0];
  if (ke) return ke;
  return rt_children_run(rt, kids, nkids); /* the parent completes when they have */
}

cudaError_t rt_launch_call(ws_rt *rt, const void *func, dim3 grid, dim3 block, void **args,
                           size_t shared, cudaStream_t stream, int coop) {
  static _Thread_local unsigned char params[RT_PARAM_BYTES];
  cudaError_t e = rt_sticky(rt);
  rt_func *f = e ? NULL : rt_find_func(rt, func);
  if (!e && !f) e = cudaErrorInvalidDeviceFunction;
  if (!e) e = rt_check_config(rt, f, grid, block, shared);
  rt_op op = {.kind = RT_OP_KERNEL};
  if (!e) e = rt_pack(rt, f, args, params, sizeof params, &op.u.k.params_bytes);
  if (e) return e;
  op.u.k.func = (size_t)(f - rt->funcs);
  op.u.k.grid = grid;
  op.u.k.block = block;
  op.u.k.shared = shared;
  op.u.k.params = params;
  op.u.k.coop = coop;
  return rt_submit(rt, stream, &op);
}

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                             size_t sharedMem, cudaStream_t stream) {
  ws_rt *rt = rt_enter();
  return rt_done(rt_launch_call(rt, func, gridDim, blockDim, args, sharedMem, stream, 0));
}

cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                  size_t sharedMem, cudaStream_t stream) {
  return cudaLaunchKernel(func, gridDim, blockDim, args, sharedMem, stream);
}

/* The extensible launch (Thrust uses it): the configuration's stream and
 * shared memory; attributes that change nothing here (priority, access
 * policy, synchronisation policy, programmatic serialisation...) are
 * accepted; a cooperative launch or a cluster of more than one block is not
 * supported yet, by name. */
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args) {
  if (!config || (config->numAttrs && !config->attrs)) return rt_error(cudaErrorInvalidValue);
  int coop = 0;
  for (unsigned i = 0; i < config->numAttrs; i++) {
    const cudaLaunchAttribute *a = &config->attrs[i];
    if (a->id == cudaLaunchAttributeCooperative && a->val.cooperative) coop = 1;
    if (a->id == cudaLaunchAttributeClusterDimension &&
        (uint64_t)a->val.clusterDim.x * a->val.clusterDim.y * a->val.clusterDim.z > 1)
      return rt_unsupported("cudaLaunchKernelExC with a cluster dimension");
  }
  if (coop)
    return rt_launch_cooperative(func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
                                 config->stream);
  return cudaLaunchKernel(func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
                          config->stream);
}

cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func,
                                     void **args) {
  return cudaLaunchKernelExC(config, func, args);
}

/* Load a function's program (and its reuse mask) on first use. */
ws_emu_program *rt_func_prog(ws_rt *rt, rt_func *f, cudaError_t *err) {
  if (f->prog) return f->prog;
  const ws_ptx_module *m = rt_module_ptx(rt, f->module);
  if (!m) {
    rt_module *md = &rt->modules[f->module];
    if (!md->error || md->error[0]) fprintf(stderr, "warpsight: error: %s\n", md->error ? md->error : "?");
    if (md->error) md->error[0] = 0; /* said once */
    *err = cudaErrorNoKernelImageForDevice;
    return NULL;
  }
  ws_diag d = WS_DIAG_INIT;
  if (ws_emu_load(&f->prog, m, f->name, &d)) {
    rt_print_diag(&d);
    *err = cudaErrorInvalidPtx;
  } else {
    make_key_mask(f);
  }
  ws_diag_free(&d);
  return f->prog;
}
