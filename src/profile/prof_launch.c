/*
 * prof_launch.c — profiling a launch in one call (warpsight/profiler.h):
 * the rule for worker threads, the rule for resources, the emulator's hooks
 * feeding the profiler, the run and the profile.  `profile`, `predict`,
 * `validate`/`calibrate` and the CUDA runtime reach the emulator through
 * ws_prof_launch(); the profiler consumes the emulator's ws_emu_event as it
 * is, so the hooks only forward.
 */
#include "warpsight/profiler.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile_doc.h"
#include "util/checked.h"
#include "scan.h"

/* Threads ----------------------------------------------------------------*/

int ws_prof_workers(int requested, uint64_t total_blocks, uint64_t sample_blocks,
                    int functional_rest) {
  long n = requested;
  if (n <= 0) n = ws_emu_cores();
  /* A block runs on one worker, so more workers than blocks that run only
   * allocate counters nobody fills; skipped blocks cost nothing. */
  uint64_t run = functional_rest ? total_blocks : ws_prof_sample_count(total_blocks, sample_blocks);
  if (run < 1) run = 1;
  if ((uint64_t)n > run) n = (long)run;
  if (n > WS_PROF_MAX_THREADS) n = WS_PROF_MAX_THREADS;
  return (int)n;
}

/* Resources ---------------------------------------------------------------*/

/* What a kernel can reach: functions (calls, function addresses) and
 * module variables (named by an instruction or by a reachable variable's
 * initialiser).  A worklist over both, each entered once. */
typedef struct reach {
  const ws_ptx_module *m;  /* the module */
  uint8_t *fseen, *vseen;  /* per function / module variable: reached */
  uint32_t *fstack;        /* functions still to scan */
  uint32_t nf;             /* entries in fstack */
} reach;

static void reach_func(reach *r, uint32_t fi) {
  if (fi < r->m->nfuncs && !r->fseen[fi]) {
    r->fseen[fi] = 1;
    r->fstack[r->nf++] = fi;
  }
}

static void reach_var(reach *r, uint32_t vi) {
  if (vi >= r->m->nvars || r->vseen[vi]) return;
  r->vseen[vi] = 1;
  const ws_ptx_var *v = &r->m->vars[vi];
  for (uint32_t i = 0; i < v->ninit; i++) {
    if (v->init[i].kind != WS_PTX_O_SYM) continue;
    if (v->init[i].symkind == WS_PTX_S_FUNC) reach_func(r, v->init[i].sym);
    if (v->init[i].symkind == WS_PTX_S_GLOBAL) reach_var(r, v->init[i].sym);
  }
}

static void reach_operand(reach *r, const ws_ptx_operand *o) {
  if (o->kind != WS_PTX_O_SYM && o->kind != WS_PTX_O_ADDR) return;
  if (o->symkind == WS_PTX_S_FUNC) reach_func(r, o->reg);
  if (o->symkind == WS_PTX_S_GLOBAL) reach_var(r, o->reg);
}

/* Static shared bytes the kernel pays for (ws_prof_kernel_resources). */
static double reachable_shared(const ws_ptx_module *m, const ws_ptx_function *k) {
  double sh = 0;
  reach r = {m, calloc(m->nfuncs + 1, 1), calloc(m->nvars + 1, 1),
             calloc(m->nfuncs + 1, sizeof *r.fstack), 0};
  if (!r.fseen || !r.vseen || !r.fstack || k < m->funcs || k >= m->funcs + m->nfuncs) {
    /* Out of memory, or a kernel from elsewhere: its own variables only. */
    for (uint32_t i = 0; i < k->nvars; i++)
      if (k->vars[i].space == WS_PTX_SP_SHARED) sh += (double)k->vars[i].size;
    goto done;
  }
  reach_func(&r, (uint32_t)(k - m->funcs));
  while (r.nf) {
    const ws_ptx_function *f = &m->funcs[r.fstack[--r.nf]];
    for (uint32_t i = 0; i < f->nvars; i++)
      if (f->vars[i].space == WS_PTX_SP_SHARED) sh += (double)f->vars[i].size;
    for (uint32_t i = 0; i < f->ninsts; i++)
      for (int j = 0; j < f->insts[i].nops; j++) reach_operand(&r, &f->insts[i].ops[j]);
    for (uint32_t i = 0; i < f->nextra; i++) reach_operand(&r, &f->extra[i]);
  }
  for (uint32_t i = 0; i < m->nvars; i++)
    if (r.vseen[i] && m->vars[i].space == WS_PTX_SP_SHARED) sh += (double)m->vars[i].size;
done:
  free(r.fseen);
  free(r.vseen);
  free(r.fstack);
  return sh;
}

void ws_prof_kernel_resources(ws_prof_resources *out, const ws_ptx_module *m,
                              const ws_ptx_function *k, const ws_gpu *g) {
  double regs = 0, loc = 0;
  for (uint32_t i = 0; i < k->nregs; i++) {
    if (k->regs[i].type == WS_PTX_T_PRED) continue;
    int bits = ws_ptx_type_bits((ws_ptx_type)k->regs[i].type);
    regs += (bits > 32 ? 2 : 1) * (k->regs[i].vec ? k->regs[i].vec : 1);
  }
  int cap = g && g->limits.max_regs_per_thread > 0 ? g->limits.max_regs_per_thread : 255;
  for (uint32_t i = 0; i < k->nvars; i++)
    if (k->vars[i].space == WS_PTX_SP_LOCAL) loc += (double)k->vars[i].size;
  out->registers_per_thread = regs > cap ? cap : regs;
  out->shared_bytes_per_block = reachable_shared(m, k);
  out->local_bytes_per_thread = loc;
}

/* Hooks -------------------------------------------------------------------*/

typedef struct hook_state {
  ws_prof *prof;          /* the profiler fed by the hooks (the working
                             blocks when a scan found idle ones) */
  ws_prof *idle;          /* the idle blocks profiled beside them, or NULL */
  ws_prof **cur;          /* per worker: the profiler of its current block */
  int functional_rest;    /* run unsampled blocks without hooks instead of skipping them */
} hook_state;

static void on_inst(void *user, const ws_emu_event *ev) {
  ws_prof_inst(((hook_state *)user)->cur[ev->worker], ev);
}

static void on_begin(void *user, int worker, uint32_t b) {
  hook_state *h = user;
  h->cur[worker] = h->idle && ws_prof_sampled(h->idle, b) ? h->idle : h->prof;
  ws_prof_block_begin(h->cur[worker], worker, b);
}

static void on_end(void *user, int worker, uint32_t b) {
  hook_state *h = user;
  ws_prof_block_end(h->cur[worker], worker, b);
}

/* Sampled blocks run with the hooks; the others are skipped, or run plain
 * with functional_rest (for kernels whose later blocks read earlier ones). */
static int on_filter(void *user, uint32_t b) {
  const hook_state *h = user;
  if (ws_prof_sampled(h->prof, b) || (h->idle && ws_prof_sampled(h->idle, b)))
    return WS_EMU_BLOCK_HOOKED;
  return h->functional_rest ? WS_EMU_BLOCK_PLAIN : WS_EMU_BLOCK_SKIP;
}

/* Launching ---------------------------------------------------------------*/

/* The profiler's configuration for target t: workers and resources by the
 * two rules.  `note` holds the resources_source text it points to. */
static void make_config(ws_prof_config *c, char *note, size_t nnote, const ws_prof_target *t,
                        const ws_ptx_function *k, const ws_gpu *g, const ws_prof_options *o) {
  memset(c, 0, sizeof *c);
  c->module = t->module;
  c->kernel = k;
  c->gpu = g;
  memcpy(c->grid, t->grid, sizeof c->grid);
  memcpy(c->block, t->block, sizeof c->block);
  uint64_t total = (uint64_t)t->grid[0] * t->grid[1] * t->grid[2];
  c->workers = ws_prof_workers(o->threads, total, o->sample_blocks, o->functional_rest);
  /* a cooperative grid's blocks run interleaved, each hooked one with a
   * worker of its own (warpsight/emu.h, ws_emu_launch_cooperative) */
  if (ws_emu_launch_cooperative(t->launch)) {
    uint64_t hooked = ws_prof_sample_count(total, o->sample_blocks);
    c->workers = hooked < 1 ? 1 : hooked > INT32_MAX ? INT32_MAX : (int)hooked;
  }
  c->sample_blocks = o->sample_blocks;
  c->functional_rest = o->functional_rest;
  c->input = o->input;
  c->l2_start = o->l2_start;
  c->l2_carried = o->l2_carried;
  if (o->resources) {
    c->resources = *o->resources;
    snprintf(note, nnote, "%s", o->resources_source ? o->resources_source : "given by the caller");
  } else {
    ws_prof_kernel_resources(&c->resources, t->module, k, g);
    int cap = g->limits.max_regs_per_thread > 0 ? g->limits.max_regs_per_thread : 255;
    snprintf(note, nnote,
             "PTX declarations%s%s%s: registers declared, capped at %d; static .shared bytes "
             "the kernel references + the launch's dynamic shared bytes",
             o->resources_source ? " (" : "", o->resources_source ? o->resources_source : "",
             o->resources_source ? ")" : "", cap);
  }
  c->resources.shared_bytes_per_block += (double)t->dynamic_shared;
  c->resources_source = note;
}

/* A block's shared memory (static + dynamic) against what the GPU lets one
 * block use (its compute capability's max_shared_per_block, with opt-in):
 * the emulator alone only caps it at WS_EMU_MAX_SHARED_BYTES (issue 14). */
static int check_shared(const ws_prof_config *c, const ws_prof_target *t, const ws_gpu *g,
                        const ws_prof_options *o, ws_diag *d) {
  double max = g->limits.max_shared_per_block, used = c->resources.shared_bytes_per_block;
  if (max <= 0 || used <= max) return WS_OK;
  return ws_diag_add(d, WS_SEV_ERROR, o->input, 0, 0,
                     "kernel '%s' uses %.0f bytes of shared memory per block (%.0f static + %llu "
                     "dynamic), more than the %.0f bytes a block may use on %s (compute capability "
                     "%d.%d, max_shared_per_block)",
                     c->kernel->name, used, used - (double)t->dynamic_shared,
                     (unsigned long long)t->dynamic_shared, max, g->name ? g->name : "the GPU",
                     g->cc_major, g->cc_minor);
}

/* The emulator's options for a run of o's launch: its limits and clocks,
 * `threads` workers, hooks h. */
static ws_emu_options run_options(const ws_prof_options *o, int threads, const ws_emu_hooks *h) {
  ws_emu_options eo = WS_EMU_OPTIONS_INIT;
  eo.threads = threads;
  eo.max_warp_insts = o->max_warp_insts;
  eo.max_launch_insts = o->max_launch_insts;
  eo.clock_per_inst = o->clock_per_inst;
  eo.timer_ns_per_inst = o->timer_ns_per_inst;
  eo.timer_base_ns = o->timer_base_ns;
  eo.hooks = h;
  return eo;
}

int ws_prof_launch(ws_profile **out, ws_emu_stats *stats, const ws_prof_target *t,
                   const ws_gpu *g, const ws_prof_options *o, ws_diag *d) {
  *out = NULL;
  ws_prof_options defo = WS_PROF_OPTIONS_INIT;
  if (!o) o = &defo;
  if (o->version != WS_PROF_OPTIONS_VERSION)
    return ws_diag_error(d, "ws_prof_options version %d, this library knows %d", o->version,
                         WS_PROF_OPTIONS_VERSION);
  if (!t || !t->module || !t->program || !t->launch || !g)
    return ws_diag_error(d, "ws_prof_launch: module, program, launch and GPU are required");
  /* before the profiler sizes its per-block tables: the blocks that run
   * (the sampled ones, unless the rest run too) against the work limit */
  uint64_t nb;
  if (ws_mul3_u64(&nb, t->grid[0], t->grid[1], t->grid[2])) nb = UINT64_MAX;
  uint64_t nrun = o->sample_blocks && !o->functional_rest && o->sample_blocks < nb ? o->sample_blocks : nb;
  ws_emu_options lim = WS_EMU_OPTIONS_INIT;
  lim.max_launch_insts = o->max_launch_insts;
  int st = ws_emu_check_work(t->launch, nrun, &lim, d);
  if (st) return st;
  const ws_ptx_function *k = ws_emu_program_kernel(t->program);
  char note[512];
  ws_prof_config c;
  make_config(&c, note, sizeof note, t, k, g, o);
  st = check_shared(&c, t, g, o, d);
  if (st) return st;
  /* A sample is drawn among the blocks that do work (scan.h), when the
   * launch has a copy to probe. */
  ws_scan scan = {0};
  int sampled = o->sample_blocks && o->sample_blocks < nb;
  if (sampled && t->scratch && (st = ws_prof_scan(&scan, t->scratch, t->grid, o->sample_blocks, d)))
    return ws_diag_oom(d, st, d ? d->errors : 0, o->input,
                       "profiling kernel '%s': probing its blocks for work", k->name);
  /* The launch's buffers, for the sampled DRAM estimate. */
  size_t nreg = ws_emu_regions(t->launch, NULL, 0);
  size_t before = d ? d->errors : 0;
  ws_emu_region *reg = calloc(nreg + 1, sizeof *reg);
  ws_prof **cur = calloc((size_t)c.workers, sizeof *cur);
  if (!reg || !cur) st = WS_ENOMEM;
  ws_prof *prof = NULL, *pidle = NULL;
  if (!st) {
    c.nregions = ws_emu_regions(t->launch, reg, nreg);
    c.regions = reg;
    ws_prof_config ci = c;
    if (scan.work) {
      double f = scan.idle_fraction;
      c.plan = scan.work, c.nplan = scan.nwork;
      c.represented_blocks = (uint64_t)llround((1 - f) * (double)nb);
      ci.plan = scan.idle_blocks, ci.nplan = scan.nidle;
      ci.represented_blocks = (uint64_t)llround(f * (double)nb);
    }
    st = ws_prof_new(&prof, &c, d);
    if (!st && scan.work && scan.nidle) st = ws_prof_new(&pidle, &ci, d);
  }
  free(reg);
  if (st) {
    free(cur);
    ws_prof_free(prof);
    ws_prof_scan_free(&scan);
    return ws_diag_oom(d, st, before, o->input,
                       "profiling kernel '%s': setting up the profiler (%llu blocks to profile, %d "
                       "worker thread%s, the cache simulators of %s)",
                       k->name, (unsigned long long)nrun, c.workers, c.workers == 1 ? "" : "s",
                       g->name ? g->name : "the GPU");
  }
  hook_state h = {prof, pidle, cur, o->functional_rest};
  ws_emu_hooks hooks = {.user = &h, .inst = on_inst, .block_begin = on_begin,
                        .block_end = on_end, .block_filter = on_filter, .runs = 1};
  ws_emu_options eo = run_options(o, c.workers, &hooks);
  eo.printf_out = o->printf_out;
  ws_emu_stats sx;
  memset(&sx, 0, sizeof sx);
  st = ws_emu_run(t->launch, &eo, &sx, d);
  if (stats) *stats = sx;
  if (!st) {
    before = d ? d->errors : 0;
    st = ws_prof_finish(prof, out, d);
    ws_profile *pi = NULL;
    if (!st && pidle) st = ws_prof_finish(pidle, &pi, d);
    if (!st && sampled) st = ws_prof_scan_combine(*out, pi, &scan);
    ws_profile_free(pi);
    if (!st && o->l2_end) st = ws_prof_l2_end(o->l2_end, prof);
    if (st) {
      ws_profile_free(*out);
      *out = NULL;
    }
    ws_diag_oom(d, st, before, o->input, "profiling kernel '%s': building the profile", k->name);
  }
  ws_prof_free(prof);
  ws_prof_free(pidle);
  ws_prof_scan_free(&scan);
  free(cur);
  return st;
}

/* "auto" (ws_prof_options.sample_auto_budget): the Hammersley sample of
 * n blocks run plainly, in the interpreter, on one thread in block order
 * (the count is the same on every machine and for every -j); *insts their
 * warp instructions. */
typedef struct auto_probe {
  const uint64_t *plan; /* the sample's blocks, ascending */
  uint64_t n;
} auto_probe;

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static int auto_filter(void *user, uint32_t b) {
  const auto_probe *ap = user;
  uint64_t key = b;
  return bsearch(&key, ap->plan, ap->n, sizeof key, cmp_u64) ? WS_EMU_BLOCK_PLAIN : WS_EMU_BLOCK_SKIP;
}

static int auto_count(uint64_t *insts, ws_emu_launch *L, const uint32_t grid[3], uint64_t n,
                      const ws_prof_options *o, ws_diag *d) {
  uint64_t *plan = malloc(n * sizeof *plan);
  if (!plan) return WS_ENOMEM;
  ws_prof_sample_plan(plan, grid, n);
  auto_probe ap = {plan, n};
  ws_emu_hooks h = {.user = &ap, .block_filter = auto_filter};
  ws_emu_options eo = run_options(o, 1, &h);
  eo.engine = WS_EMU_ENGINE_INTERP;
  ws_emu_stats st;
  memset(&st, 0, sizeof st);
  int rc = ws_emu_run(L, &eo, &st, d);
  free(plan);
  *insts = st.warp_insts;
  return rc;
}

/* Record in p's sampling section that "auto" chose its sample. */
static int auto_record(ws_profile *p, const ws_prof_options *so, uint64_t insts, double est) {
  cJSON *root = ws_profile_doc_root(p);
  cJSON *sam = root ? cJSON_GetObjectItemCaseSensitive(root, ws_profile_sec_key(WS_PSEC_SAMPLING)) : NULL;
  cJSON *a = sam ? cJSON_AddObjectToObject(sam, "auto") : NULL;
  if (!a) return WS_ENOMEM;
  cJSON_AddStringToObject(a, "rule",
                          "run the N blocks of the sample on the launch's copy first; the launch's "
                          "warp instructions are estimated as theirs x blocks / N; every block is "
                          "profiled when the estimate is at most the budget, else the sample");
  cJSON_AddNumberToObject(a, "sample_blocks", (double)so->sample_blocks);
  cJSON_AddNumberToObject(a, "sample_warp_insts", (double)insts);
  cJSON_AddNumberToObject(a, "estimated_warp_insts", round(est));
  cJSON_AddNumberToObject(a, "budget_warp_insts", (double)so->sample_auto_budget);
  cJSON_AddStringToObject(a, "outcome", "sampled: the estimate is over the budget");
  return WS_OK;
}

int ws_prof_launch_spec(ws_profile **out, ws_emu_stats *stats, const ws_ptx_module *m,
                        const ws_launch_spec *spec, const ws_gpu *g,
                        const ws_prof_options *o, ws_diag *d) {
  *out = NULL;
  ws_emu_program *prog = NULL;
  ws_emu_launch *L = NULL;
  int st = ws_emu_load(&prog, m, spec->kernel, d);
  if (!st && o && o->max_memory) ws_emu_program_set_memory_budget(prog, o->max_memory == UINT64_MAX ? 0 : o->max_memory);
  if (!st) st = ws_emu_launch_new(&L, prog, spec, d);
  if (!st) {
    ws_prof_target t = {m, prog, L, {spec->grid[0], spec->grid[1], spec->grid[2]},
                        {spec->block[0], spec->block[1], spec->block[2]}, spec->dynamic_shared,
                        NULL};
    /* the spec's "l2" unless the caller chose a start */
    ws_prof_options so = WS_PROF_OPTIONS_INIT;
    if (o) so = *o;
    if (so.l2_start == WS_PROF_L2_COLD && spec->l2_warm) so.l2_start = WS_PROF_L2_WARM;
    /* a copy of the launch for a sample's scan (scan.h: its probes write),
     * which auto's count runs on first */
    uint64_t nb = (uint64_t)spec->grid[0] * spec->grid[1] * spec->grid[2], insts = 0;
    int sampled = so.sample_blocks && so.sample_blocks < nb;
    int autos = sampled && so.sample_auto_budget;
    double est = 0;
    if (sampled) st = ws_emu_launch_new(&t.scratch, prog, spec, d);
    if (!st && autos) {
      ws_diag ad = WS_DIAG_INIT; /* its warnings are the profile's to say */
      st = auto_count(&insts, t.scratch, t.grid, so.sample_blocks, &so, &ad);
      if (st) ws_diag_append(d, &ad);
      ws_diag_free(&ad);
      est = (double)insts * (double)nb / (double)so.sample_blocks;
      if (!st && est <= (double)so.sample_auto_budget) { /* every block */
        ws_emu_launch_free(t.scratch);
        t.scratch = NULL;
        so.sample_blocks = 0;
        so.functional_rest = 0;
        autos = 0;
      }
    }
    if (!st) st = ws_prof_launch(out, stats, &t, g, &so, d);
    if (!st && autos && (st = auto_record(*out, &so, insts, est))) {
      ws_profile_free(*out);
      *out = NULL;
      ws_diag_oom(d, st, d ? d->errors : 0, so.input, "profiling kernel '%s': the sampling record",
                  ws_emu_program_kernel(prog)->name);
    }
    ws_emu_launch_free(t.scratch);
  }
  ws_emu_launch_free(L);
  ws_emu_program_free(prog);
  return st;
}
