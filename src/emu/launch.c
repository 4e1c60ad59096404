/*
 * launch.c — from a launch spec to a finished grid: argument checking
 * against the kernel's .param list, the global memory map (module .global
 * variables, then one object per buffer, separated by unmapped gaps so that
 * overruns fault), buffer initialisers, the worker pool, printf ordering,
 * fault reports and output files.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "emu/emu_int.h"
#include "emu/num.h"
#include "warpsight/rng.h"

void ws_emu_var_image(const ws_emu_program *P, const ws_ptx_var *v, uint8_t *img);

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

void ws_emu_launch_free(ws_emu_launch *l) {
  if (!l) return;
  for (uint32_t i = 0; i < l->ngobjs; i++) free(l->gmem[i]);
  free(l->gmem);
  free(l->gobjs);
  free(l->param_image);
  free(l->const_bank);
  free(l->arg_obj);
  free(l);
}

static int is_float_elem(ws_elem_type t) {
  return t == WS_ELEM_F16 || t == WS_ELEM_BF16 || t == WS_ELEM_F32 || t == WS_ELEM_F64;
}

/* Element bits of value v (double) for type t. */
static uint64_t elem_bits(ws_elem_type t, double v) {
  uint64_t b;
  switch (t) {
  case WS_ELEM_F64: memcpy(&b, &v, 8); return b;
  case WS_ELEM_F32: { float f = (float)v; uint32_t u; memcpy(&u, &f, 4); return u; }
  case WS_ELEM_F16: memcpy(&b, &v, 8); return ws_num_cvt(b, WS_NUM_F64, WS_NUM_F16, WS_NUM_RN, 0, 0);
  case WS_ELEM_BF16: memcpy(&b, &v, 8); return ws_num_cvt(b, WS_NUM_F64, WS_NUM_BF16, WS_NUM_RN, 0, 0);
  default:
    if (v >= 9223372036854775808.0) return (uint64_t)(v - 9223372036854775808.0) + 0x8000000000000000ull;
    return (uint64_t)(int64_t)v;
  }
}

static int init_buffer(uint8_t *mem, const ws_launch_arg *a, const char *origin, int idx, ws_diag *d) {
  int es = ws_elem_type_size(a->type);
  uint64_t n = a->count;
  switch (a->init) {
  case WS_INIT_ZERO:
    return WS_OK;
  case WS_INIT_CONSTANT: {
    uint64_t b = elem_bits(a->type, a->v0);
    for (uint64_t i = 0; i < n; i++) memcpy(mem + i * (uint64_t)es, &b, (size_t)es);
    return WS_OK;
  }
  case WS_INIT_IOTA:
    if (!is_float_elem(a->type)) { /* 64-bit two's complement, truncated to the element */
      uint64_t v = (uint64_t)(int64_t)a->v0, step = (uint64_t)(int64_t)a->v1;
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
      else
        b = (uint64_t)ws_rng_int(&st, (int64_t)a->v0, (int64_t)a->v1);
      memcpy(mem + i * (uint64_t)es, &b, (size_t)es);
    }
    return WS_OK;
  }
  case WS_INIT_FILE: {
    FILE *f = fopen(a->file, "rb");
    if (!f) {
      ws_diag_add(d, WS_SEV_ERROR, origin, 0, 0, "args[%d].init.file: cannot open '%s' for buffer '%s'", idx,
                  a->file, a->name);
      return WS_EIO;
    }
    uint64_t want = n * (uint64_t)es;
    size_t got = want ? fread(mem, 1, (size_t)want, f) : 0;
    int extra = fgetc(f) != EOF;
    fclose(f);
    if (got != want || extra) {
      ws_diag_add(d, WS_SEV_ERROR, origin, 0, 0,
                  "args[%d].init.file: '%s' must hold exactly %llu bytes (%llu %s elements), it holds %s%llu",
                  idx, a->file, (unsigned long long)want, (unsigned long long)n, ws_elem_type_name(a->type),
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
    if (pv->ndims) {
      ws_diag_add(d, WS_SEV_ERROR, o, 0, 0,
                  "argument %u '%s': the kernel's parameter %u '%s' is a %d-byte aggregate (.b8 array), which launch specs cannot give",
                  i, a->name, i, pv->name, ps);
      return WS_EINVAL;
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
    int es = ws_elem_type_size(a->type);
    int sf = is_float_elem(a->type), pf = tk == WS_PTX_TK_F || tk == WS_PTX_TK_H;
    if (es != ps || (sf && tk != WS_PTX_TK_B && !pf) || (!sf && pf)) {
      ws_diag_add(d, WS_SEV_ERROR, o, 0, 0,
                  "argument %u '%s': the kernel's parameter %u '%s' is .%s (%d bytes), the spec gives %s",
                  i, a->name, i, pv->name, ptype_name(pv), ps, ws_elem_type_name(a->type));
      return WS_EINVAL;
    }
  }
  return WS_OK;
}

static int cmp_gobj(const void *a, const void *b) {
  const gobj *x = a, *y = b;
  return x->base < y->base ? -1 : x->base > y->base;
}

int ws_emu_launch_new(ws_emu_launch **out, const ws_emu_program *p, const ws_launch_spec *s, ws_diag *d) {
  *out = NULL;
  const ws_ptx_function *k = p->funcs[0].f;
  if (strcmp(s->kernel, k->name) != 0) {
    ws_diag_add(d, WS_SEV_ERROR, s->path, 0, 0, "the spec is for kernel '%s', the program runs '%s'", s->kernel,
                k->name);
    return WS_EINVAL;
  }
  int st = check_args(p, s, d);
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
  ws_emu_launch *L = calloc(1, sizeof *L);
  if (!L) return WS_ENOMEM;
  L->p = p;
  L->s = s;
  const ws_ptx_module *m = p->m;
  uint32_t n = 0;
  for (uint32_t i = 0; i < m->nvars; i++)
    if (m->vars[i].space == WS_PTX_SP_GLOBAL) n++;
  for (uint32_t i = 0; i < s->nargs; i++)
    if (s->args[i].is_buffer) n++;
  L->gobjs = calloc(n + 1, sizeof *L->gobjs);
  L->gmem = calloc(n + 1, sizeof *L->gmem);
  L->arg_obj = malloc((s->nargs + 1) * sizeof *L->arg_obj);
  L->param_bytes = k->param_bytes;
  L->param_image = calloc(k->param_bytes + 1, 1);
  L->const_bank = malloc(p->const_bytes + 1);
  st = WS_ENOMEM;
  if (!L->gobjs || !L->gmem || !L->arg_obj || !L->param_image || !L->const_bank) goto fail;
  memcpy(L->const_bank, p->const_image, p->const_bytes);
  for (uint32_t i = 0; i < m->nvars; i++) {
    const ws_ptx_var *v = &m->vars[i];
    if (v->space != WS_PTX_SP_GLOBAL) continue;
    gobj *o = &L->gobjs[L->ngobjs];
    *o = (gobj){p->mvar_addr[i], v->size, v->name, -1, (int)i};
    L->gmem[L->ngobjs] = calloc(v->size + 1, 1);
    if (!L->gmem[L->ngobjs]) goto fail;
    ws_emu_var_image(p, v, L->gmem[L->ngobjs]);
    L->ngobjs++;
  }
  uint64_t g = p->gvar_end;
  for (uint32_t i = 0; i < s->nargs; i++) {
    const ws_launch_arg *a = &s->args[i];
    const ws_ptx_var *pv = &k->params[i];
    L->arg_obj[i] = -1;
    if (!a->is_buffer) {
      memcpy(L->param_image + pv->offset, &a->value, pv->size < 8 ? pv->size : 8);
      continue;
    }
    uint64_t bytes = a->count * (uint64_t)ws_elem_type_size(a->type);
    g = align_up(g, 256);
    gobj *o = &L->gobjs[L->ngobjs];
    *o = (gobj){g, bytes, a->name, (int)i, -1};
    /* calloc, not malloc + memset: large blocks come zeroed from mmap and
     * pages nobody touches never become resident (sampled launches of huge
     * buffers read and write only a few pages). */
    L->gmem[L->ngobjs] = calloc(bytes + 1, 1);
    if (!L->gmem[L->ngobjs]) {
      ws_diag_add(d, WS_SEV_ERROR, s->path, 0, 0, "args[%u]: cannot allocate %llu bytes for buffer '%s'", i,
                  (unsigned long long)bytes, a->name);
      goto fail;
    }
    L->arg_obj[i] = (int)L->ngobjs;
    L->ngobjs++;
    if ((st = init_buffer(L->gmem[L->ngobjs - 1], a, s->path, (int)i, d))) goto fail;
    st = WS_ENOMEM;
    memcpy(L->param_image + pv->offset, &g, 8);
    g += bytes + GLOBAL_GAP;
  }
  /* objects are created in address order already; keep the invariant explicit */
  {
    /* sorting would reorder gmem too: sort (object, storage) pairs together */
    for (uint32_t i = 1; i < L->ngobjs; i++)
      if (L->gobjs[i].base < L->gobjs[i - 1].base) {
        (void)cmp_gobj;
        break;
      }
  }
  L->shared_bytes = p->shared_dyn_base + s->dynamic_shared;
  *out = L;
  return WS_OK;
fail:
  ws_emu_launch_free(L);
  return st;
}

void *ws_emu_buffer(ws_emu_launch *l, const char *name, uint64_t *bytes) {
  for (uint32_t i = 0; i < l->s->nargs; i++)
    if (l->arg_obj[i] >= 0 && strcmp(l->s->args[i].name, name) == 0) {
      if (bytes) *bytes = l->gobjs[l->arg_obj[i]].size;
      return l->gmem[l->arg_obj[i]];
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
  for (uint32_t i = 0; i < l->s->nargs; i++) {
    const ws_launch_arg *a = &l->s->args[i];
    if (!a->is_buffer || !a->output) continue;
    size_t n = strlen(dir) + strlen(a->output) + 2;
    char *path = malloc(n);
    if (!path) return WS_ENOMEM;
    snprintf(path, n, "%s/%s", dir, a->output);
    FILE *f = fopen(path, "wb");
    int bad = !f;
    int o = l->arg_obj[i];
    if (f) {
      uint64_t sz = l->gobjs[o].size;
      if (sz && fwrite(l->gmem[o], 1, (size_t)sz, f) != sz) bad = 1;
      if (fclose(f)) bad = 1;
    }
    if (bad) {
      ws_diag_add(d, WS_SEV_ERROR, path, 0, 0, "cannot write output '%s' of buffer '%s'", path, a->name);
      free(path);
      return WS_EIO;
    }
    free(path);
  }
  return WS_OK;
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
  uint32_t next;            /* next block to run (atomic) */
  uint32_t fault_block;     /* lowest faulting block so far (atomic min) */
  pthread_mutex_t mu;       /* guards chunks and the fault */
  pchunk *chunks;
  size_t nchunks, cchunks;
  fault flt;                /* fault of the lowest faulting block */
  int oom;                  /* allocation failure in a worker */
  uint64_t warp_insts, thread_insts, warps, blocks;
} pool;

typedef struct worker {
  pool *pl;
  int index;
} worker;

static void free_warps(blockctx *B) {
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
  free(B->pbuf);
}

static void *work(void *arg) {
  worker *wk = arg;
  pool *pl = wk->pl;
  ws_emu_launch *L = pl->L;
  const ws_launch_spec *s = L->s;
  blockctx B;
  memset(&B, 0, sizeof B);
  B.L = L;
  B.o = pl->o;
  B.worker = wk->index;
  B.nthreads = s->block[0] * s->block[1] * s->block[2];
  B.nwarps = (B.nthreads + 31) / 32;
  B.warps = calloc(B.nwarps, sizeof *B.warps);
  B.shared = malloc(L->shared_bytes + 1);
  if (!B.warps || !B.shared) {
    pthread_mutex_lock(&pl->mu);
    pl->oom = 1;
    pthread_mutex_unlock(&pl->mu);
    free_warps(&B);
    return NULL;
  }
  const ws_emu_hooks *H0 = pl->o->hooks;
  ws_emu_options plain = *pl->o; /* for blocks the filter runs without hooks */
  plain.hooks = NULL;
  for (;;) {
    uint32_t b = __atomic_fetch_add(&pl->next, 1, __ATOMIC_SEQ_CST);
    if (b >= pl->nblocks) break;
    if (b > __atomic_load_n(&pl->fault_block, __ATOMIC_SEQ_CST)) break;
    int act = H0 && H0->block_filter ? H0->block_filter(H0->user, b) : WS_EMU_BLOCK_HOOKED;
    if (act == WS_EMU_BLOCK_SKIP) continue;
    const ws_emu_hooks *H = act == WS_EMU_BLOCK_PLAIN ? NULL : H0;
    B.o = act == WS_EMU_BLOCK_PLAIN ? &plain : pl->o;
    B.block = b;
    B.plen = 0;
    memset(&B.flt, 0, sizeof B.flt);
    if (H && H->block_begin) H->block_begin(H->user, wk->index, b);
    int r = ws_emu_run_block(&B);
    if (H && H->block_end) H->block_end(H->user, wk->index, b);
    pthread_mutex_lock(&pl->mu);
    pl->blocks++;
    pl->warps += B.nwarps;
    if (B.plen) {
      if (pl->nchunks == pl->cchunks) {
        size_t c = pl->cchunks ? pl->cchunks * 2 : 64;
        pchunk *nc = realloc(pl->chunks, c * sizeof *nc);
        if (nc) {
          pl->chunks = nc;
          pl->cchunks = c;
        }
      }
      if (pl->nchunks < pl->cchunks) {
        char *t = malloc(B.plen);
        if (t) {
          memcpy(t, B.pbuf, B.plen);
          pl->chunks[pl->nchunks++] = (pchunk){b, t, B.plen};
        }
      }
    }
    if (r && b < pl->fault_block) {
      pl->flt = B.flt;
      __atomic_store_n(&pl->fault_block, b, __ATOMIC_SEQ_CST);
    }
    pthread_mutex_unlock(&pl->mu);
  }
  pthread_mutex_lock(&pl->mu);
  pl->warp_insts += B.warp_insts;
  pl->thread_insts += B.thread_insts;
  pthread_mutex_unlock(&pl->mu);
  free_warps(&B);
  return NULL;
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

static void report_fault(const ws_emu_launch *L, const fault *f, uint64_t limit, ws_diag *d) {
  const ws_launch_spec *s = L->s;
  const ws_ptx_module *m = L->p->m;
  const ws_ptx_function *fn = f->f ? f->f->f : L->p->funcs[0].f;
  const ws_ptx_inst *in = f->f && f->pc < fn->ninsts ? &fn->insts[f->pc] : NULL;
  uint32_t b = f->block, t = f->warp * 32 + f->lane;
  uint32_t bx = b % s->grid[0], by = (b / s->grid[0]) % s->grid[1], bz = b / (s->grid[0] * s->grid[1]);
  uint32_t tx = t % s->block[0], ty = (t / s->block[0]) % s->block[1], tz = t / (s->block[0] * s->block[1]);
  char what[640];
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
    snprintf(what, sizeof what, "barrier deadlock: %s", f->msg);
    break;
  case FAULT_LIMIT:
    snprintf(what, sizeof what, "warp %u exceeded the limit of %llu warp instructions (--max-warp-insts)", f->warp,
             (unsigned long long)limit);
    break;
  case FAULT_TRAP:
    snprintf(what, sizeof what, "trap executed");
    break;
  case FAULT_STACK:
    snprintf(what, sizeof what, "call stack overflow or out of memory for a call frame%s%s", f->msg[0] ? ": " : "",
             f->msg);
    break;
  default:
    snprintf(what, sizeof what, "%s", f->msg);
    break;
  }
  ws_diag_add(d, WS_SEV_ERROR, m->path, in ? (int)in->line : (int)fn->line, in ? (int)in->col : 0,
              "%s in kernel '%s', block (%u,%u,%u), thread (%u,%u,%u)%s%s", what, L->p->funcs[0].f->name, bx, by,
              bz, tx, ty, tz, fn != L->p->funcs[0].f ? ", in function " : "",
              fn != L->p->funcs[0].f ? fn->name : "");
  if (in) {
    char *txt = NULL;
    if (ws_ptx_print_inst(&txt, m, fn, in) == WS_OK && txt) {
      ws_diag_add(d, WS_SEV_NOTE, m->path, (int)in->line, (int)in->col, "instruction: %s", txt);
      free(txt);
    }
  }
  if (f->kind == FAULT_OOB || f->kind == FAULT_MISALIGNED || f->kind == FAULT_READONLY) {
    char near[512];
    if (sp == MS_GLOBAL) {
      where_global(L, ra, f->bytes, near, sizeof near);
    } else if (sp == MS_SHARED) {
      const sobj *best = NULL;
      for (uint32_t i = 0; i < L->p->nsobjs; i++)
        if (L->p->sobjs[i].space == MS_SHARED && L->p->sobjs[i].base <= ra) best = &L->p->sobjs[i];
      snprintf(near, sizeof near,
               "the block has %llu bytes of shared memory (%llu static + %llu dynamic); the address is %llu bytes %s%s%s%s",
               (unsigned long long)L->shared_bytes, (unsigned long long)L->p->shared_dyn_base,
               (unsigned long long)s->dynamic_shared,
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
    ws_diag_add(d, WS_SEV_NOTE, m->path, in ? (int)in->line : 0, 0, "%s", near);
  }
}

int ws_emu_run(ws_emu_launch *L, const ws_emu_options *o, ws_emu_stats *stats, ws_diag *d) {
  ws_emu_options defo = WS_EMU_OPTIONS_INIT;
  if (!o) o = &defo;
  const ws_launch_spec *s = L->s;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  uint64_t nb = (uint64_t)s->grid[0] * s->grid[1] * s->grid[2];
  if (nb > 0xFFFFFFF0ull) {
    ws_diag_add(d, WS_SEV_ERROR, s->path, 0, 0, "grid of %llu blocks is too large", (unsigned long long)nb);
    return WS_EINVAL;
  }
  int nt = o->threads;
  if (nt <= 0) {
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    nt = c > 0 ? (int)c : 1;
  }
  if (nt > 256) nt = 256;
  if ((uint64_t)nt > nb) nt = (int)(nb ? nb : 1);
  pool pl;
  memset(&pl, 0, sizeof pl);
  pl.L = L;
  pl.o = o;
  pl.nblocks = (uint32_t)nb;
  pl.fault_block = UINT32_MAX;
  pthread_mutex_init(&pl.mu, NULL);
  worker *wk = calloc((size_t)nt, sizeof *wk);
  pthread_t *th = calloc((size_t)nt, sizeof *th);
  if (!wk || !th) {
    free(wk);
    free(th);
    pthread_mutex_destroy(&pl.mu);
    return WS_ENOMEM;
  }
  int started = 0;
  for (int i = 0; i < nt; i++) {
    wk[i] = (worker){&pl, i};
    if (nt == 1) break;
    if (pthread_create(&th[i], NULL, work, &wk[i]) != 0) break;
    started++;
  }
  if (nt == 1 || started == 0) work(&wk[0]);
  for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
  free(wk);
  free(th);
  pthread_mutex_destroy(&pl.mu);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (pl.nchunks) qsort(pl.chunks, pl.nchunks, sizeof *pl.chunks, cmp_chunk);
  for (size_t i = 0; i < pl.nchunks; i++) {
    if (o->printf_out) fwrite(pl.chunks[i].text, 1, pl.chunks[i].len, o->printf_out);
    free(pl.chunks[i].text);
  }
  free(pl.chunks);
  if (stats) {
    stats->blocks = pl.blocks;
    stats->warps = pl.warps;
    stats->warp_insts = pl.warp_insts;
    stats->thread_insts = pl.thread_insts;
    stats->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    stats->threads = nt;
  }
  if (pl.oom) {
    ws_diag_error(d, "out of memory while running the kernel");
    return WS_ENOMEM;
  }
  if (pl.fault_block != UINT32_MAX) {
    report_fault(L, &pl.flt, o->max_warp_insts, d);
    return WS_EFAULT;
  }
  return WS_OK;
}
