/*
 * launch.c — from a launch spec to a finished grid: argument checking
 * against the kernel's .param list, the spec's buffers as allocations on a
 * private device (device.c: module .global variables, then one object per
 * buffer, separated by unmapped gaps so that overruns fault), buffer
 * initialisers, the worker pool, printf ordering, fault reports and output
 * files.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emu/emu_int.h"
#include "emu/jit/jit.h"
#include "emu/num.h"
#include "util/checked.h"
#include "emu/rng.h"
#include "util/vec.h"

static int is_float_elem(ws_elem_type t) {
  return t == WS_ELEM_F16 || t == WS_ELEM_BF16 || t == WS_ELEM_F32 || t == WS_ELEM_F64;
}

/* Element bits of value v (double) for type t. */
static uint64_t elem_bits(ws_elem_type t, double v) {
  uint64_t b;
  switch (t) {
  case WS_ELEM_F64: memcpy(&b, &v, 8); return b;
  case WS_ELEM_F32: { float f = (float)v; uint32_t u; memcpy(&u, &f, 4); return u; }
  case WS_ELEM_F16: memcpy(&b, &v, 8); return ws_emu_num_cvt(b, WS_NUM_F64, WS_NUM_F16, WS_NUM_RN, 0, 0);
  case WS_ELEM_BF16: memcpy(&b, &v, 8); return ws_emu_num_cvt(b, WS_NUM_F64, WS_NUM_BF16, WS_NUM_RN, 0, 0);
  default:
    if (v >= 9223372036854775808.0) return (uint64_t)(v - 9223372036854775808.0) + 0x8000000000000000ull;
    return (uint64_t)(int64_t)v;
  }
}

/* Initialise buffer (or variable) a's count elements at mem; `path` names
 * it in messages ("args[2]"). */
static int init_buffer(uint8_t *mem, const ws_launch_arg *a, const char *origin, const char *path, ws_diag *d) {
  int es = ws_emu_elem_type_size(a->type);
  uint64_t n = a->count;
  switch (a->init) {
  case WS_INIT_ZERO:
    return WS_OK;
  case WS_INIT_VALUES:
    for (uint64_t i = 0; i < n; i++) memcpy(mem + i * (uint64_t)es, &a->values[i], (size_t)es);
    return WS_OK;
  case WS_INIT_CONSTANT: {
    uint64_t b = a->exact && !is_float_elem(a->type) ? a->i0 : elem_bits(a->type, a->v0);
    for (uint64_t i = 0; i < n; i++) memcpy(mem + i * (uint64_t)es, &b, (size_t)es);
    return WS_OK;
  }
  case WS_INIT_IOTA:
    if (!is_float_elem(a->type)) { /* 64-bit two's complement, truncated to the element */
      uint64_t v = a->exact ? a->i0 : (uint64_t)(int64_t)a->v0, step = a->exact ? a->i1 : (uint64_t)(int64_t)a->v1;
      for (uint64_t i = 0; i < n; i++, v += step) memcpy(mem + i * (uint64_t)es, &v, (size_t)es);
      return WS_OK;
    }
    for (uint64_t i = 0; i < n; i++) {
      uint64_t b = elem_bits(a->type, a->v0 + (double)i * a->v1);
      memcpy(mem + i * (uint64_t)es, &b, (size_t)es);
    }
    return WS_OK;
  case WS_INIT_RANDOM: {
    uint64_t st = a->seed;
    for (uint64_t i = 0; i < n; i++) {
      uint64_t b;
      if (is_float_elem(a->type))
        b = elem_bits(a->type, ws_rng_real(&st, a->v0, a->v1));
      else if (a->exact)
        b = ws_rng_uint(&st, a->i0, a->i1);
      else
        b = (uint64_t)ws_rng_int(&st, (int64_t)a->v0, (int64_t)a->v1);
      memcpy(mem + i * (uint64_t)es, &b, (size_t)es);
    }
    return WS_OK;
  }
  case WS_INIT_FILE: {
    FILE *f;
    uint64_t want = n * (uint64_t)es, have;
    /* regular files only (a FIFO would block) */
    int st = ws_open_input(&f, &have, a->file, UINT64_MAX, d);
    if (st) {
      ws_diag_add(d, WS_SEV_NOTE, origin, 0, 0, "%s.init.file: cannot open '%s' for buffer '%s'", path,
                  a->file, a->name);
      return st;
    }
    size_t got = want ? fread(mem, 1, (size_t)want, f) : 0;
    int extra = fgetc(f) != EOF;
    fclose(f);
    if (got != want || extra) {
      ws_diag_add(d, WS_SEV_ERROR, origin, 0, 0,
                  "%s.init.file: '%s' must hold exactly %llu bytes (%llu %s elements), it holds %s%llu",
                  path, a->file, (unsigned long long)want, (unsigned long long)n, ws_emu_elem_type_name(a->type),
                  extra ? "more than " : "", (unsigned long long)got);
      return WS_EINVAL;
    }
    return WS_OK;
  }
  }
  return WS_OK;
}

static const char *ptype_name(const ws_ptx_var *v) {
  return ws_ptx_type_name((ws_ptx_type)v->type);
}

/* An aggregate argument against a .b8 array parameter: the same size (the
 * fields' end rounded up to the parameter's alignment) and no field that
 * needs more alignment than the parameter has. */
static int check_aggregate(const ws_launch_arg *a, const ws_ptx_var *pv, uint32_t i, const char *o, ws_diag *d) {
  uint64_t al = pv->align ? pv->align : 1, padded = (a->nbytes + al - 1) / al * al;
  if (!pv->ndims)
    return ws_diag_add(d, WS_SEV_ERROR, o, 0, 0,
                       "argument %u '%s': the kernel's parameter %u '%s' is .%s (%d bytes), not an aggregate (.b8 array)",
                       i, a->name, i, pv->name, ptype_name(pv), (int)pv->size);
  if (!a->is_aggregate)
    return ws_diag_add(d, WS_SEV_ERROR, o, 0, 0,
                       "argument %u '%s': the kernel's parameter %u '%s' is a %d-byte aggregate (.b8 array): give it as {\"aggregate\": name, \"fields\": [...]} or {\"aggregate\": name, \"bytes\": \"hex\"}",
                       i, a->name, i, pv->name, (int)pv->size);
  if (padded != pv->size)
    return ws_diag_add(d, WS_SEV_ERROR, o, 0, 0,
                       "argument %u '%s': the aggregate has %u bytes, the kernel's parameter %u '%s' has %llu (.align %llu)",
                       i, a->name, a->nbytes, i, pv->name, (unsigned long long)pv->size, (unsigned long long)al);
  if (a->align > al)
    return ws_diag_add(d, WS_SEV_ERROR, o, 0, 0,
                       "argument %u '%s': a field needs %u-byte alignment, the kernel's parameter %u '%s' is .align %llu",
                       i, a->name, a->align, i, pv->name, (unsigned long long)al);
  return WS_OK;
}

static int check_args(const ws_emu_program *p, const ws_launch_spec *s, ws_diag *d) {
  const ws_ptx_function *k = p->funcs[0].f;
  const char *o = s->path;
  if (s->nargs != k->nparams) {
    ws_diag_add(d, WS_SEV_ERROR, o, 0, 0, "the spec gives %u argument%s, kernel '%s' takes %u parameter%s",
                s->nargs, s->nargs == 1 ? "" : "s", k->name, k->nparams, k->nparams == 1 ? "" : "s");
    return WS_EINVAL;
  }
  for (uint32_t i = 0; i < s->nargs; i++) {
    const ws_launch_arg *a = &s->args[i];
    const ws_ptx_var *pv = &k->params[i];
    int tk = ws_ptx_type_kind((ws_ptx_type)pv->type);
    int ps = (int)pv->size;
    if (pv->ndims || a->is_aggregate) {
      if (check_aggregate(a, pv, i, o, d)) return WS_EINVAL;
      continue;
    }
    if (a->is_buffer) {
      if (ps != 8 || tk == WS_PTX_TK_F) {
        ws_diag_add(d, WS_SEV_ERROR, o, 0, 0,
                    "argument %u '%s': the kernel's parameter %u '%s' is .%s (%d bytes), a buffer needs a 64-bit pointer parameter",
                    i, a->name, i, pv->name, ptype_name(pv), ps);
        return WS_EINVAL;
      }
      continue;
    }
    int es = ws_emu_elem_type_size(a->type);
    int sf = is_float_elem(a->type), pf = tk == WS_PTX_TK_F || tk == WS_PTX_TK_H;
    if (es != ps || (sf && tk != WS_PTX_TK_B && !pf) || (!sf && pf)) {
      ws_diag_add(d, WS_SEV_ERROR, o, 0, 0,
                  "argument %u '%s': the kernel's parameter %u '%s' is .%s (%d bytes), the spec gives %s",
                  i, a->name, i, pv->name, ptype_name(pv), ps, ws_emu_elem_type_name(a->type));
      return WS_EINVAL;
    }
  }
  return WS_OK;
}

/* The spec's buffers as allocations on the launch's private device, their
 * addresses and the scalars in the parameter image. */
static int place_args(ws_emu_device *dev, const ws_emu_program *p, const ws_launch_spec *s, uint8_t *image,
                      uint64_t *arg_addr, ws_diag *d) {
  const ws_ptx_function *k = p->funcs[0].f;
  for (uint32_t i = 0; i < s->nargs; i++) {
    const ws_launch_arg *a = &s->args[i];
    const ws_ptx_var *pv = &k->params[i];
    if (a->is_aggregate) {
      memcpy(image + pv->offset, a->bytes, a->nbytes); /* check_aggregate: nbytes <= size */
      continue;
    }
    if (!a->is_buffer) {
      memcpy(image + pv->offset, &a->value, pv->size < 8 ? pv->size : 8);
      continue;
    }
    uint64_t bytes = a->count * (uint64_t)ws_emu_elem_type_size(a->type), g;
    if (ws_emu_dev_alloc(dev, bytes, a->name, &g)) {
      ws_diag_add(d, WS_SEV_ERROR, s->path, 0, 0, "args[%u]: cannot allocate %llu bytes for buffer '%s'", i,
                  (unsigned long long)bytes, a->name);
      return WS_ENOMEM;
    }
    arg_addr[i] = g;
    char path[32];
    snprintf(path, sizeof path, "args[%u]", i);
    int st = init_buffer(ws_emu_dev_find(dev, g)->mem, a, s->path, path, d);
    if (st) return st;
    memcpy(image + pv->offset, &g, 8);
  }
  return WS_OK;
}

/* The spec's "variables": each named .global/.const variable of the module
 * gets its elements before the launch. */
static int set_variables(ws_emu_device *dev, const ws_emu_program *p, const ws_launch_spec *s, ws_diag *d) {
  for (uint32_t i = 0; i < s->nvars; i++) {
    const ws_launch_arg *v = &s->vars[i];
    uint64_t addr, size, es = (uint64_t)ws_emu_elem_type_size(v->type), n = v->count;
    char path[300];
    snprintf(path, sizeof path, "variables.%s", v->name);
    ws_diag tmp = {0};
    int st = ws_emu_var_find(dev, p, v->name, &addr, &size, &tmp);
    ws_diag_free(&tmp);
    if (st)
      return ws_diag_add(d, WS_SEV_ERROR, s->path, 0, 0, "%s: module '%s' has no .global or .const variable '%s'",
                         path, p->m->path, v->name);
    if (!n) {
      if (size % es)
        return ws_diag_add(d, WS_SEV_ERROR, s->path, 0, 0,
                           "%s: the variable has %llu bytes, not a whole number of %s elements; give \"count\"", path,
                           (unsigned long long)size, ws_emu_elem_type_name(v->type));
      n = size / es;
    }
    if (n > size / es)
      return ws_diag_add(d, WS_SEV_ERROR, s->path, 0, 0, "%s: %llu %s elements (%llu bytes) do not fit the variable's %llu bytes",
                         path, (unsigned long long)n, ws_emu_elem_type_name(v->type), (unsigned long long)(n * es),
                         (unsigned long long)size);
    ws_launch_arg whole = *v;
    whole.count = n;
    if ((st = init_buffer(ws_emu_mem_host(dev, addr, n * es), &whole, s->path, path, d))) return st;
  }
  return WS_OK;
}

/* The launch's global memory (module .global variables and buffers) against
 * the program's budget, before anything is allocated. */
static int check_budget(const ws_emu_program *p, const ws_launch_spec *s, ws_diag *d) {
  uint64_t total = 0, b;
  int over = 0;
  for (uint32_t i = 0; i < p->m->nvars; i++)
    if (p->m->vars[i].space == WS_PTX_SP_GLOBAL) over |= ws_add_u64(&total, total, p->m->vars[i].size);
  for (uint32_t i = 0; i < s->nargs; i++)
    if (s->args[i].is_buffer)
      over |= ws_mul_u64(&b, s->args[i].count, (uint64_t)ws_emu_elem_type_size(s->args[i].type)) ||
              ws_add_u64(&total, total, b);
  if (!p->mem_budget || (!over && total <= p->mem_budget)) return WS_OK;
  ws_diag_add(d, WS_SEV_ERROR, s->path, 0, 0,
              "the launch needs %s%llu bytes of global memory (buffers and .global variables), more than the "
              "emulator's budget of %llu bytes (--max-memory; default half the machine's memory)",
              over ? "more than " : "", (unsigned long long)(over ? UINT64_MAX : total),
              (unsigned long long)p->mem_budget);
  return WS_EINVAL;
}

static int launch_new(ws_emu_launch **out, const ws_emu_program *p, const ws_launch_spec *s, ws_diag *d) {
  *out = NULL;
  const ws_ptx_function *k = p->funcs[0].f;
  if (strcmp(s->kernel, k->name) != 0) {
    ws_diag_add(d, WS_SEV_ERROR, s->path, 0, 0, "the spec is for kernel '%s', the program runs '%s'", s->kernel,
                k->name);
    return WS_EINVAL;
  }
  int st = check_args(p, s, d);
  if (!st) st = check_budget(p, s, d);
  if (st) return st;
  uint32_t th = s->block[0] * s->block[1] * s->block[2];
  if (k->perf.nreqntid && (k->perf.reqntid[0] != s->block[0] || k->perf.reqntid[1] != s->block[1] ||
                           k->perf.reqntid[2] != s->block[2])) {
    ws_diag_add(d, WS_SEV_ERROR, s->path, 0, 0, "block %ux%ux%u differs from the kernel's .reqntid %u, %u, %u",
                s->block[0], s->block[1], s->block[2], k->perf.reqntid[0], k->perf.reqntid[1], k->perf.reqntid[2]);
    return WS_EINVAL;
  }
  if (k->perf.nmaxntid && th > k->perf.maxntid[0] * k->perf.maxntid[1] * k->perf.maxntid[2]) {
    ws_diag_add(d, WS_SEV_ERROR, s->path, 0, 0, "block of %u threads exceeds the kernel's .maxntid", th);
    return WS_EINVAL;
  }
  /* a private device whose buffers start right after the module's .global
   * variables, as they always have (fault reports quote these addresses) */
  ws_emu_device *dev = NULL;
  uint8_t *image = calloc(k->param_bytes + 1, 1);
  uint64_t *arg_addr = calloc(s->nargs + 1, sizeof *arg_addr);
  size_t mi;
  st = WS_ENOMEM;
  if (!image || !arg_addr || ws_emu_dev_new_at(&dev, UINT64_MAX, p->gvar_end)) goto fail;
  if ((st = ws_emu_dev_module(dev, p, &mi, d))) goto fail;
  if ((st = place_args(dev, p, s, image, arg_addr, d))) goto fail;
  if ((st = set_variables(dev, p, s, d))) goto fail;
  ws_emu_launch_config c = {{s->grid[0], s->grid[1], s->grid[2]}, {s->block[0], s->block[1], s->block[2]},
                            s->dynamic_shared, image, (size_t)k->param_bytes};
  if ((st = ws_emu_launch_raw(out, dev, p, &c, d))) goto fail;
  (*out)->s = s;
  (*out)->own_dev = dev;
  (*out)->arg_addr = arg_addr;
  free(image);
  return WS_OK;
fail:
  ws_emu_device_free(dev);
  free(image);
  free(arg_addr);
  return st;
}

/* The storage of spec argument i's buffer, or NULL. */
static dalloc *arg_alloc(const ws_emu_launch *l, uint32_t i) {
  if (!l->s || !l->arg_addr || !l->arg_addr[i]) return NULL;
  return ws_emu_dev_find(l->dev, l->arg_addr[i]);
}

void *ws_emu_buffer(ws_emu_launch *l, const char *name, uint64_t *bytes) {
  for (uint32_t i = 0; l->s && i < l->s->nargs; i++) {
    dalloc *a = arg_alloc(l, i);
    if (a && strcmp(l->s->args[i].name, name) == 0) {
      if (bytes) *bytes = a->size;
      return a->mem;
    }
  }
  return NULL;
}

size_t ws_emu_regions(const ws_emu_launch *l, ws_emu_region *out, size_t max) {
  for (uint32_t i = 0; i < l->ngobjs && i < max; i++)
    out[i] = (ws_emu_region){l->gobjs[i].base, l->gobjs[i].size, l->gobjs[i].name};
  return l->ngobjs;
}

int ws_emu_write_outputs(const ws_emu_launch *l, const char *dir, ws_diag *d) {
  if (!dir) dir = ".";
  uint32_t n_out = 0;
  for (uint32_t i = 0; l->s && i < l->s->nargs; i++) n_out += l->s->args[i].is_buffer && l->s->args[i].output;
  if (!n_out) return WS_OK;
  /* every output staged, then all moved into place or none (a failure on
   * the second output once left the first one replaced) */
  ws_outdir od;
  int st = ws_outdir_begin(&od, dir, d);
  size_t before = d ? d->count : 0;
  if (st) return st;
  for (uint32_t i = 0; l->s && i < l->s->nargs && !st; i++) {
    const ws_launch_arg *a = &l->s->args[i];
    const dalloc *b = arg_alloc(l, i);
    if (!a->is_buffer || !a->output || !b) continue;
    size_t n = strlen(ws_outdir_path(&od)) + strlen(a->output) + 2;
    char *path = malloc(n);
    if (!path) {
      st = WS_ENOMEM;
      break;
    }
    snprintf(path, n, "%s/%s", ws_outdir_path(&od), a->output);
    /* a temporary file renamed into place: never through a symlink already
     * there, never half-written */
    if ((st = ws_write_file(path, b->mem, (size_t)b->size, d)))
      ws_diag_add(d, WS_SEV_NOTE, NULL, 0, 0, "the output %s of buffer '%s'", a->output, a->name);
    free(path);
  }
  ws_outdir_names(&od, d, before);
  if (st) {
    ws_outdir_discard(&od);
    return st;
  }
  return ws_outdir_commit(&od, d);
}

/* ---- running ------------------------------------------------------------------ */

typedef struct pchunk {
  uint32_t block; /* block that printed */
  char *text;     /* its output (owned) */
  size_t len;     /* bytes */
} pchunk;

typedef struct pool {
  ws_emu_launch *L;
  const ws_emu_options *o;
  uint32_t nblocks;
  uint32_t nworkers;        /* worker threads asked for (sizes the chunks) */
  uint32_t next;            /* first block not handed out yet (atomic) */
  uint32_t fault_block;     /* lowest faulting block so far (atomic min) */
  pthread_mutex_t mu;       /* guards chunks and the fault */
  pchunk *chunks;
  size_t nchunks, cchunks;
  fault flt;                /* fault of the lowest faulting block */
  int oom;                  /* allocation failure in a worker */
  uint64_t launch_insts;    /* warp instructions so far (atomic) */
  uint64_t printf_bytes;    /* printf output of the launch so far, counted by
                               the workers as they format it (atomic) */
  uint64_t warp_insts, thread_insts, warps, blocks;
} pool;

void ws_emu_block_free(blockctx *B) {
  for (uint32_t i = 0; B->warps && i < B->nwarps; i++) {
    warp *w = &B->warps[i];
    free(w->stk);
    free(w->frames);
    free(w->regs);
    free(w->preds);
    free(w->local);
  }
  free(B->warps);
  free(B->shared);
  ws_sb_free(&B->pout);
  ws_emu_jit_block_free(B->jit);
  ws_emu_cdp_block_free(B);
}

/* The warps' thread ids, the same in every block: set once per block
 * context (a worker's, or each resident block of a cooperative launch),
 * not per block (three divisions per thread per block were 12 % of
 * vecadd). */
void ws_emu_block_tids(blockctx *B) {
  const uint32_t *bd = B->L->block;
  for (uint32_t i = 0; i < B->nwarps; i++)
    for (uint32_t l = 0; l < 32; l++) {
      uint32_t t = i * 32 + l;
      B->warps[i].tid[0][l] = t % bd[0];
      B->warps[i].tid[1][l] = (t / bd[0]) % bd[1];
      B->warps[i].tid[2][l] = t / (bd[0] * bd[1]);
    }
}

/* The next run of consecutive blocks for a worker, [*first, *end); 0 when
 * none is left.  Guided self-scheduling: a worker takes a quarter of its
 * share of what is left (remaining / (4 x workers), at least one block),
 * so the chunks shrink towards the end of the grid and the workers finish
 * within about a block of each other.  Blocks were handed out one at a
 * time before, so two workers wrote interleaved 1 KiB pieces of vecadd's
 * output and met on every new page of it.  Large chunks give each worker
 * its own pages and cost one atomic per chunk, not per block
 * (docs/emulator.md, "Threads and determinism"). */
static int next_chunk(pool *pl, uint32_t *first, uint32_t *end) {
  uint32_t b = __atomic_load_n(&pl->next, __ATOMIC_RELAXED), n;
  do {
    if (b >= pl->nblocks) return 0;
    n = (pl->nblocks - b) / (4 * pl->nworkers);
    if (!n) n = 1;
  } while (!__atomic_compare_exchange_n(&pl->next, &b, b + n, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  *first = b;
  *end = b + n;
  return 1;
}

/* Worker `index` of a run: takes the next chunk of blocks until none is
 * left, and runs a chunk's blocks in order. */
static void work(void *arg, int index) {
  pool *pl = arg;
  ws_emu_launch *L = pl->L;
  blockctx B;
  memset(&B, 0, sizeof B);
  B.L = L;
  B.o = pl->o;
  B.worker = index;
  B.launch_insts = &pl->launch_insts;
  B.printf_bytes = &pl->printf_bytes;
  B.nthreads = L->block[0] * L->block[1] * L->block[2];
  B.nwarps = (B.nthreads + 31) / 32;
  B.warps = calloc(B.nwarps, sizeof *B.warps);
  B.shared = malloc(L->shared_bytes + 1);
  if (!B.warps || !B.shared) {
    pthread_mutex_lock(&pl->mu);
    pl->oom = 1;
    pthread_mutex_unlock(&pl->mu);
    ws_emu_block_free(&B);
    return;
  }
  ws_emu_block_tids(&B);
  uint64_t blocks = 0; /* blocks this worker ran (added to the pool's count at the end) */
  const ws_emu_hooks *H0 = pl->o->hooks;
  int jit = L->p->jit && pl->o->engine != WS_EMU_ENGINE_INTERP;
  ws_emu_options plain = *pl->o; /* for blocks the filter runs without hooks */
  plain.hooks = NULL;
  ws_emu_options probe = *pl->o; /* for probed blocks: a short leash, no launch limit */
  probe.max_warp_insts = WS_EMU_PROBE_WARP_INSTS;
  probe.max_launch_insts = 0;
  uint32_t b = 0, end = 0;
  for (;; b++) {
    if (b == end && !next_chunk(pl, &b, &end)) break;
    /* blocks above a fault do not run; those below it do, so the fault
     * reported is the lowest block's whichever worker ran what */
    if (b > __atomic_load_n(&pl->fault_block, __ATOMIC_SEQ_CST)) break;
    int act = H0 && H0->block_filter ? H0->block_filter(H0->user, b) : WS_EMU_BLOCK_HOOKED;
    if (act == WS_EMU_BLOCK_SKIP) continue;
    const ws_emu_hooks *H = act == WS_EMU_BLOCK_PLAIN ? NULL : H0;
    B.o = act == WS_EMU_BLOCK_PLAIN ? &plain : act == WS_EMU_BLOCK_PROBE ? &probe : pl->o;
    B.block = b;
    memset(&B.flt, 0, sizeof B.flt);
    if (H && H->block_begin) H->block_begin(H->user, index, b);
    /* blocks without hooks run in the translated engine when there is one */
    int r = !H && jit ? ws_emu_jit_run_block(&B) : ws_emu_run_block(&B);
    if (r && !B.flt.kind) { /* the translated engine ran out of memory */
      pthread_mutex_lock(&pl->mu);
      pl->oom = 1;
      pthread_mutex_unlock(&pl->mu);
      break;
    }
    if (r && act == WS_EMU_BLOCK_PROBE) r = 0; /* a probe stops where it stops */
    if (H && H->block_end) H->block_end(H->user, index, b);
    blocks++;
    if (!B.pout.n && !B.pout.oom && !r && !B.ncdp) { /* nothing to share with the other workers */
      B.cdp_seq = 0;
      continue;
    }
    pthread_mutex_lock(&pl->mu);
    if (ws_emu_cdp_block_end(&B)) pl->oom = 1; /* its device-side launches become the launch's */
    if (B.pout.n || B.pout.oom) { /* the block's output becomes a chunk; B.pout is empty again */
      size_t len = B.pout.n;
      char *t = ws_sb_take(&B.pout); /* NULL after an allocation failure */
      if (!t || WS_VEC_PUSH(pl->chunks, pl->nchunks, pl->cchunks, ((pchunk){b, t, len}))) {
        free(t);
        pl->oom = 1; /* lost output is reported (WS_ENOMEM), never dropped in silence */
      }
    }
    if (r && b < pl->fault_block) {
      pl->flt = B.flt;
      __atomic_store_n(&pl->fault_block, b, __ATOMIC_SEQ_CST);
    }
    pthread_mutex_unlock(&pl->mu);
  }
  pthread_mutex_lock(&pl->mu);
  pl->blocks += blocks;
  pl->warps += blocks * B.nwarps;
  pl->warp_insts += B.warp_insts;
  pl->thread_insts += B.thread_insts;
  pthread_mutex_unlock(&pl->mu);
  ws_emu_block_free(&B);
}

static int cmp_chunk(const void *a, const void *b) {
  const pchunk *x = a, *y = b;
  return x->block < y->block ? -1 : x->block > y->block;
}

static const char *space_name(int sp) {
  static const char *n[] = {"global", "shared", "local", "const", "param", "generic"};
  return sp >= 0 && sp <= MS_GENERIC ? n[sp] : "?";
}

/* "N bytes past the end of X" / "inside" / "N bytes before X" for [a, a+n). */
static void where_global(const ws_emu_launch *L, uint64_t a, int bytes, char *buf, size_t size) {
  const gobj *best = NULL;
  uint64_t bestd = UINT64_MAX;
  for (uint32_t i = 0; i < L->ngobjs; i++) {
    const gobj *o = &L->gobjs[i];
    uint64_t dd = a < o->base ? o->base - a : a >= o->base + o->size ? a - (o->base + o->size) : 0;
    if (dd < bestd) {
      bestd = dd;
      best = o;
    }
  }
  if (!best) {
    snprintf(buf, size, "no global object exists");
    return;
  }
  const char *kind = best->arg >= 0 ? "buffer" : "variable";
  if (a < best->base)
    snprintf(buf, size, "%llu bytes before the start of %s '%s' (%llu bytes at 0x%llx)",
             (unsigned long long)(best->base - a), kind, best->name, (unsigned long long)best->size,
             (unsigned long long)best->base);
  else if (a >= best->base + best->size)
    snprintf(buf, size, "%llu bytes past the end of %s '%s' (%llu bytes at 0x%llx; byte offset %llu)",
             (unsigned long long)(a - (best->base + best->size)), kind, best->name,
             (unsigned long long)best->size, (unsigned long long)best->base,
             (unsigned long long)(a - best->base));
  else if (a + (uint64_t)bytes > best->base + best->size)
    snprintf(buf, size, "the access runs past the end of %s '%s' (%llu bytes at 0x%llx; byte offset %llu)", kind,
             best->name, (unsigned long long)best->size, (unsigned long long)best->base,
             (unsigned long long)(a - best->base));
  else
    snprintf(buf, size, "the address is byte offset %llu of %s '%s' (%llu bytes at 0x%llx)",
             (unsigned long long)(a - best->base), kind, best->name, (unsigned long long)best->size,
             (unsigned long long)best->base);
}

static void report_fault(const ws_emu_launch *L, const fault *f, const ws_emu_options *o, ws_diag *d) {
  const uint32_t *grid = L->grid, *block = L->block;
  const ws_ptx_module *m = L->p->m;
  const ws_ptx_function *fn = f->f ? f->f->f : L->p->funcs[0].f;
  const ws_ptx_inst *in = f->f && f->pc < fn->ninsts ? &fn->insts[f->pc] : NULL;
  uint32_t b = f->block, t = f->warp * 32 + f->lane;
  uint32_t bx = b % grid[0], by = (b / grid[0]) % grid[1], bz = b / (grid[0] * grid[1]);
  uint32_t tx = t % block[0], ty = (t / block[0]) % block[1], tz = t / (block[0] * block[1]);
  char what[1024];
  uint64_t a = f->addr;
  int sp = f->space;
  if (sp == MS_GENERIC) {
    uint64_t win = a >> WIN_SHIFT;
    sp = win == (SHARED_WIN >> WIN_SHIFT) ? MS_SHARED : win == (LOCAL_WIN >> WIN_SHIFT) ? MS_LOCAL
         : win == (CONST_WIN >> WIN_SHIFT) ? MS_CONST : MS_GLOBAL;
  }
  uint64_t ra = sp == MS_GLOBAL || f->space != MS_GENERIC ? a
                : a - (sp == MS_SHARED ? SHARED_WIN : sp == MS_LOCAL ? LOCAL_WIN : CONST_WIN);
  const char *rw = in && (in->op == WS_PTX_OP_ST || in->op == WS_PTX_OP_ATOM || in->op == WS_PTX_OP_RED) ? "write" : "read";
  if (in && (in->op == WS_PTX_OP_ATOM || in->op == WS_PTX_OP_RED)) rw = "atomic";
  switch (f->kind) {
  case FAULT_OOB:
    snprintf(what, sizeof what, "out-of-bounds %s of %d bytes at %s%s address 0x%llx", rw, f->bytes,
             f->space == MS_GENERIC ? "generic -> " : "", space_name(sp), (unsigned long long)a);
    break;
  case FAULT_MISALIGNED:
    snprintf(what, sizeof what, "misaligned %s of %d bytes at %s address 0x%llx (must be a multiple of %d)", rw,
             f->bytes, space_name(f->space), (unsigned long long)a, f->bytes);
    break;
  case FAULT_READONLY:
    snprintf(what, sizeof what, "write of %d bytes to read-only %s address 0x%llx", f->bytes, space_name(sp),
             (unsigned long long)a);
    break;
  case FAULT_DEADLOCK:
  case FAULT_SPIN_DEADLOCK:
    snprintf(what, sizeof what, "barrier deadlock: %s", f->msg);
    break;
  case FAULT_LIMIT:
    snprintf(what, sizeof what,
             "runaway kernel: warp %u exceeded the limit of %llu warp instructions per warp (--max-warp-insts)",
             f->warp, (unsigned long long)o->max_warp_insts);
    break;
  case FAULT_LAUNCH_LIMIT:
    snprintf(what, sizeof what,
             "runaway kernel: the launch exceeded the limit of %llu warp instructions in all (--max-launch-insts)",
             (unsigned long long)o->max_launch_insts);
    break;
  case FAULT_TRAP:
    snprintf(what, sizeof what, "trap executed");
    break;
  case FAULT_MEMBERMASK: /* docs/emulator.md, "Member masks" */
    if (f->bytes < 0)
      snprintf(what, sizeof what,
               "warp-synchronous instruction executed by lane %u, which is not in its member mask 0x%08llx "
               "(undefined in the PTX ISA)", f->lane, (unsigned long long)a);
    else
      snprintf(what, sizeof what,
               "shuffle by lane %u from lane %d, which is not in its member mask 0x%08llx (undefined in the "
               "PTX ISA)", f->lane, f->bytes, (unsigned long long)a);
    break;
  case FAULT_STACK:
    snprintf(what, sizeof what,
             "call stack overflow (more than 4096 nested calls, or more than %llu bytes of local memory per "
             "thread) or out of memory for a call frame%s%s",
             (unsigned long long)WS_EMU_MAX_LOCAL_BYTES, f->msg[0] ? ": " : "", f->msg);
    break;
  default:
    snprintf(what, sizeof what, "%s", f->msg);
    break;
  }
  const char *fpath = ws_ptx_func_path(m, fn); /* a linked module's function: its own file */
  ws_diag_add(d, WS_SEV_ERROR, fpath, in ? (int)in->line : (int)fn->line, in ? (int)in->col : 0,
              "%s in kernel '%s', block (%u,%u,%u), thread (%u,%u,%u)%s%s", what, L->p->funcs[0].f->name, bx, by,
              bz, tx, ty, tz, fn != L->p->funcs[0].f ? ", in function " : "",
              fn != L->p->funcs[0].f ? fn->name : "");
  if (in) {
    char *txt = NULL;
    if (ws_ptx_print_inst(&txt, m, fn, in) == WS_OK && txt) {
      ws_diag_add(d, WS_SEV_NOTE, fpath, (int)in->line, (int)in->col, "instruction: %s", txt);
      free(txt);
    }
  }
  if (f->kind == FAULT_LIMIT || f->kind == FAULT_LAUNCH_LIMIT || f->kind == FAULT_SPIN_DEADLOCK)
    ws_diag_add(d, WS_SEV_NOTE, m->path, 0, 0,
                "a kernel that is only long, not a runaway one, needs a higher limit: %s N (0 lifts "
                "it; WARPSIGHT_MAX_%s_INSTS for a program run on warpsight's CUDA runtime)",
                f->kind == FAULT_LAUNCH_LIMIT ? "--max-launch-insts" : "--max-warp-insts",
                f->kind == FAULT_LAUNCH_LIMIT ? "LAUNCH" : "WARP");
  if (f->kind == FAULT_OOB || f->kind == FAULT_MISALIGNED || f->kind == FAULT_READONLY) {
    char near[512];
    if (sp == MS_GLOBAL) {
      where_global(L, ra, f->bytes, near, sizeof near);
    } else if (sp == MS_SHARED) {
      const sobj *best = NULL;
      for (uint32_t i = 0; i < L->p->nsobjs; i++)
        if (L->p->sobjs[i].space == MS_SHARED && L->p->sobjs[i].base <= ra) best = &L->p->sobjs[i];
      char rsv[64] = "";
      if (L->p->reserved_smem)
        snprintf(rsv, sizeof rsv, " + %llu reserved from %llu", (unsigned long long)L->p->reserved_smem,
                 (unsigned long long)L->reserved_base);
      snprintf(near, sizeof near,
               "the block has %llu bytes of shared memory (%llu static + %llu dynamic%s); the address is %llu bytes %s%s%s%s",
               (unsigned long long)L->shared_bytes, (unsigned long long)L->p->shared_dyn_base,
               (unsigned long long)L->dynamic_shared, rsv,
               (unsigned long long)(ra >= L->shared_bytes ? ra - L->shared_bytes : 0),
               ra >= L->shared_bytes ? "past its end" : "inside it", best ? " (nearest object '" : "",
               best ? best->name : "", best ? "')" : "");
    } else if (sp == MS_LOCAL) {
      snprintf(near, sizeof near, "outside the thread's local memory in use (frames of the call stack)");
    } else if (sp == MS_CONST) {
      snprintf(near, sizeof near, "the constant bank holds %llu bytes", (unsigned long long)L->p->const_bytes);
    } else {
      snprintf(near, sizeof near, "the kernel parameter space holds %llu bytes", (unsigned long long)L->param_bytes);
    }
    ws_diag_add(d, WS_SEV_NOTE, fpath, in ? (int)in->line : 0, 0, "%s", near);
  }
}

/* Warps of the whole grid, UINT64_MAX when that overflows. */
static uint64_t grid_warps(const ws_emu_launch *L) {
  uint64_t blocks, threads, warps;
  if (ws_mul3_u64(&blocks, L->grid[0], L->grid[1], L->grid[2]) ||
      ws_mul3_u64(&threads, L->block[0], L->block[1], L->block[2]) ||
      ws_mul_u64(&warps, blocks, (threads + 31) / 32))
    return UINT64_MAX;
  return warps;
}

uint64_t ws_emu_launch_limit(const ws_emu_launch *L, const ws_emu_options *o) {
  uint64_t scaled;
  if (o->max_launch_insts != WS_EMU_LAUNCH_INSTS_AUTO) return o->max_launch_insts;
  if (ws_mul_u64(&scaled, grid_warps(L), WS_EMU_LAUNCH_INSTS_PER_WARP)) scaled = UINT64_MAX - 1;
  return scaled > WS_EMU_MIN_LAUNCH_INSTS ? scaled : WS_EMU_MIN_LAUNCH_INSTS;
}

int ws_emu_check_work(const ws_emu_launch *L, uint64_t blocks, const ws_emu_options *o, ws_diag *d) {
  uint64_t threads, warps;
  /* the scaled default refuses what the unscaled one would: a grid with
   * more warps than 2^27 */
  uint64_t lim = o->max_launch_insts == WS_EMU_LAUNCH_INSTS_AUTO ? WS_EMU_MIN_LAUNCH_INSTS
                                                                 : o->max_launch_insts;
  if (!lim) return WS_OK;
  /* every warp executes at least one instruction (its exit) */
  if (ws_mul3_u64(&threads, L->block[0], L->block[1], L->block[2]) ||
      ws_mul_u64(&warps, blocks, (threads + 31) / 32) || warps > lim) {
    ws_diag_add(d, WS_SEV_ERROR, L->s ? L->s->path : L->p->m->path, 0, 0,
                "the launch runs %llu blocks of %u x %u x %u threads: at least one warp instruction per warp is "
                "more than the limit of %llu warp instructions per launch (--max-launch-insts N sets another; "
                "0 lifts it)",
                (unsigned long long)blocks, L->block[0], L->block[1], L->block[2], (unsigned long long)lim);
    return WS_EINVAL;
  }
  return WS_OK;
}

/* A run's figures, its time since t0. */
static void set_stats(ws_emu_stats *stats, const struct timespec *t0, uint64_t blocks, uint64_t warps,
                      uint64_t warp_insts, uint64_t thread_insts, int threads) {
  if (!stats) return;
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  stats->blocks = blocks;
  stats->warps = warps;
  stats->warp_insts = warp_insts;
  stats->thread_insts = thread_insts;
  stats->seconds = (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
  stats->threads = threads;
}

static int run_launch(ws_emu_launch *L, const ws_emu_options *oin, ws_emu_stats *stats, ws_diag *d) {
  ws_emu_options defo = WS_EMU_OPTIONS_INIT;
  if (!oin) oin = &defo;
  ws_emu_options eff = *oin; /* the launch limit resolved for this grid */
  eff.max_launch_insts = ws_emu_launch_limit(L, oin);
  const ws_emu_options *o = &eff;
  if (stats) stats->fault_kind = WS_EMU_FAULT_NONE;
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  uint64_t nb;
  if (ws_mul3_u64(&nb, L->grid[0], L->grid[1], L->grid[2]) || nb > 0xFFFFFFF0ull) {
    ws_diag_add(d, WS_SEV_ERROR, L->s ? L->s->path : L->p->m->path, 0, 0, "grid of %u x %u x %u blocks is too large",
                L->grid[0], L->grid[1], L->grid[2]);
    return WS_EINVAL;
  }
  if (!(o->hooks && o->hooks->block_filter) && ws_emu_check_work(L, nb, oin, d)) return WS_EINVAL;
  /* allocations made or freed since the launch was prepared */
  int mst = ws_emu_launch_map(L);
  if (mst == WS_EINVAL) return ws_diag_error(d, "module variables and allocations overlap on the device");
  if (mst) return WS_ENOMEM; /* named by ws_emu_run */
  L->dev->cur_mod = L->mod;
  ws_emu_cdp_reset(L); /* the children of an earlier run */
  if (L->grid_ws) { /* cooperative: every block resident, on this thread (coop.c) */
    memset(ws_emu_mem_host(L->dev, L->grid_ws, 256), 0, 256);
    coop_result cr;
    int r = ws_emu_coop_run(L, o, (uint32_t)nb, &cr);
    set_stats(stats, &t0, cr.blocks, cr.warps, cr.warp_insts, cr.thread_insts, 1);
    if (cr.oom) return WS_ENOMEM;
    if (r) {
      if (stats) stats->fault_kind = cr.flt.kind;
      report_fault(L, &cr.flt, o, d);
      return WS_EFAULT;
    }
    return WS_OK;
  }
  int nt = o->threads > 0 ? o->threads : ws_emu_cores();
  if (nt > WS_EMU_MAX_THREADS) nt = WS_EMU_MAX_THREADS;
  if ((uint64_t)nt > nb) nt = (int)(nb ? nb : 1);
  pool pl;
  memset(&pl, 0, sizeof pl);
  pl.L = L;
  pl.o = o;
  pl.nblocks = (uint32_t)nb;
  pl.nworkers = (uint32_t)nt;
  pl.fault_block = UINT32_MAX;
  pthread_mutex_init(&pl.mu, NULL);
  /* the device's threads, kept from launch to launch (pool.c) */
  nt = ws_emu_pool_run(L->dev->pool, nt, work, &pl);
  pthread_mutex_destroy(&pl.mu);
  set_stats(stats, &t0, pl.blocks, pl.warps, pl.warp_insts, pl.thread_insts, nt);
  if (pl.nchunks) qsort(pl.chunks, pl.nchunks, sizeof *pl.chunks, cmp_chunk);
  for (size_t i = 0; i < pl.nchunks; i++) {
    if (o->printf_out) fwrite(pl.chunks[i].text, 1, pl.chunks[i].len, o->printf_out);
    free(pl.chunks[i].text);
  }
  free(pl.chunks);
  if (pl.oom) return WS_ENOMEM; /* named by ws_emu_run */
  if (pl.fault_block != UINT32_MAX) {
    if (stats) stats->fault_kind = pl.flt.kind;
    report_fault(L, &pl.flt, o, d);
    return WS_EFAULT;
  }
  return WS_OK;
}

/* The entry points name what ran out of memory (issue 14, point 10): the
 * kernel and the stage, with the sizes that made it large. */
int ws_emu_launch_new(ws_emu_launch **out, const ws_emu_program *p, const ws_launch_spec *s, ws_diag *d) {
  size_t before = d ? d->errors : 0;
  int st = launch_new(out, p, s, d);
  return ws_diag_oom(d, st, before, s->path,
                     "preparing the launch of kernel '%s' (its buffers, their initial values and the "
                     "module's variables)", p->funcs[0].f->name);
}

int ws_emu_run(ws_emu_launch *L, const ws_emu_options *o, ws_emu_stats *stats, ws_diag *d) {
  size_t before = d ? d->errors : 0;
  int st = run_launch(L, o, stats, d);
  return ws_diag_oom(d, st, before, L->s ? L->s->path : L->p->m->path,
                     "running kernel '%s' (%u x %u x %u blocks of %u x %u x %u threads: each worker "
                     "thread holds a block's registers, shared and local memory)",
                     L->p->funcs[0].f->name, L->grid[0], L->grid[1], L->grid[2], L->block[0], L->block[1],
                     L->block[2]);
}
