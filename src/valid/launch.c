/*
 * launch.c — a launch spec (DESIGN.md "Launch spec") for each measured row.
 *
 * The kernels are examples/validation/<name>.cu.  How Input.Size maps to the
 * kernel's arguments (docs/validation.md, "Kernels"):
 *   vector kernels (vectorAdd, dotProd): N = Input.Size elements, one per
 *       thread: grid = (ceil(N / block.x), 1, 1);
 *   matrix kernels: N = Input.Size is the width of N x N matrices, one element
 *       per thread: grid = (ceil(N / block.x), ceil(N / block.y), 1);
 *   subSeqMax: N = Input.Size ints split evenly over grid.x blocks of 128
 *       threads, each block's share a multiple of the 4096-int tile.
 * The row's grid must be what the mapping gives: that checks the mapping
 * against every measured row.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "util/demangle.h"
#include "util/json.h"
#include "valid/valid_int.h"
#include "warpsight/valid_launch.h"

#include "util/strbuf.h"

typedef enum shape {
  VECTOR,  /* 1-D, one element per thread */
  MATRIX,  /* 2-D, one matrix element per thread */
  SUBSEQ   /* fixed grid, tiles of 4096 ints per block */
} shape;

typedef enum smem_rule {
  SMEM_NONE,     /* no shared memory */
  SMEM_BLOCK_F,  /* one float per thread (dotProd), dynamic */
  SMEM_TILES_F,  /* 2 * T * T floats, T = block.x = block.y (tiled matMul), dynamic */
  SMEM_STATIC    /* static in the PTX; the row's size is not checked */
} smem_rule;

typedef enum args_rule {
  ARGS_VEC3,     /* a, b: N floats in; c: N floats out; n */
  ARGS_DOT,      /* a, b: N floats in; c: grid.x partial sums; n */
  ARGS_MAT3,     /* a, b: N*N floats in; c: N*N floats out; n */
  ARGS_SUBSEQ    /* in: N ints; out: 4 ints per block; n; per_block */
} args_rule;

static const struct vkernel {
  const char *name;  /* extern "C" name = AppName */
  shape shape;       /* how Input.Size maps to the grid */
  smem_rule smem;    /* shared memory */
  args_rule args;    /* arguments */
} kernels[] = {
    {"vectorAdd", VECTOR, SMEM_NONE, ARGS_VEC3},
    {"dotProd", VECTOR, SMEM_BLOCK_F, ARGS_DOT},
    {"matrix_sum_normal", MATRIX, SMEM_NONE, ARGS_MAT3},
    {"matrix_sum_coalesced", MATRIX, SMEM_NONE, ARGS_MAT3},
    {"matMul_gpu", MATRIX, SMEM_NONE, ARGS_MAT3},
    {"matMul_gpu_uncoalesced", MATRIX, SMEM_NONE, ARGS_MAT3},
    {"matMul_gpu_sharedmem", MATRIX, SMEM_TILES_F, ARGS_MAT3},
    {"matMul_gpu_sharedmem_uncoalesced", MATRIX, SMEM_TILES_F, ARGS_MAT3},
    {"subSeqMax", SUBSEQ, SMEM_STATIC, ARGS_SUBSEQ},
};
#define NKERNELS (sizeof kernels / sizeof kernels[0])

enum {
  SUBSEQ_THREADS = 128,  /* THREADS in subSeqMax.cu */
  SUBSEQ_TILE = 4096,    /* TILE in subSeqMax.cu */
  NARGS = 4              /* every signature takes four arguments */
};

size_t ws_valid_kernel_count(void) { return NKERNELS; }
const char *ws_valid_kernel_name(size_t i) { return i < NKERNELS ? kernels[i].name : NULL; }

static const struct vkernel *find(const char *name) {
  for (size_t i = 0; i < NKERNELS; i++)
    if (strcmp(kernels[i].name, name) == 0) return &kernels[i];
  return NULL;
}

int ws_valid_kernel_known(const char *name) { return find(name) != NULL; }

/* Arguments are built in place in the spec's args array (calloc'd, so a
 * failure part-way leaves only NULL or owned strings for
 * ws_emu_launch_spec_free). */

/* A buffer of `count` elements, uniform random in [lo, hi] from `seed`. */
static int buf_random(ws_launch_arg *a, const char *name, ws_elem_type type, uint64_t count,
                      uint64_t seed, double lo, double hi) {
  a->is_buffer = 1;
  a->type = type;
  a->count = count;
  a->init = WS_INIT_RANDOM;
  a->seed = seed;
  a->v0 = lo;
  a->v1 = hi;
  return (a->name = ws_strdup(name)) ? WS_OK : WS_ENOMEM;
}

static int buf_zero(ws_launch_arg *a, const char *name, ws_elem_type type, uint64_t count) {
  a->is_buffer = 1;
  a->type = type;
  a->count = count;
  a->init = WS_INIT_ZERO;
  return (a->name = ws_strdup(name)) ? WS_OK : WS_ENOMEM;
}

/* An s32 scalar (the kernels' int parameters); v is checked to fit. */
static int scalar_s32(ws_launch_arg *a, const char *name, int64_t v) {
  a->is_buffer = 0;
  a->type = WS_ELEM_S32;
  a->value = (uint64_t)(uint32_t)(int32_t)v;
  return (a->name = ws_strdup(name)) ? WS_OK : WS_ENOMEM;
}

static int mismatch(ws_diag *d, const char *origin, const ws_valid_row *r,
                    const char *what, const uint32_t want[3], const uint32_t got[3]) {
  ws_diag_add(d, WS_SEV_ERROR, origin, r->line, 0,
              "%s, Input.Size %lld: %s should be %u x %u x %u, the row has %u x %u x %u",
              r->kernel, (long long)r->input_size, what, want[0], want[1], want[2], got[0],
              got[1], got[2]);
  return WS_EINVAL;
}

static uint32_t ceil_div(int64_t a, uint32_t b) { return (uint32_t)((a + b - 1) / b); }

/* The row's grid and block against what the Input.Size mapping gives. */
static int check_geometry(const struct vkernel *k, const ws_valid_row *r, const char *origin,
                          ws_diag *d) {
  int64_t n = r->input_size;
  uint32_t want[3];
  if (n > INT32_MAX)
    return ws_diag_add(d, WS_SEV_ERROR, origin, r->line, 0,
                       "%s: Input.Size %lld does not fit the kernel's int n", r->kernel,
                       (long long)n);
  switch (k->shape) {
  case VECTOR:
    want[0] = ceil_div(n, r->block[0]), want[1] = want[2] = 1;
    if (r->block[1] != 1 || r->block[2] != 1) {
      uint32_t wb[3] = {r->block[0], 1, 1};
      return mismatch(d, origin, r, "block", wb, r->block);
    }
    if (memcmp(want, r->grid, sizeof want)) return mismatch(d, origin, r, "grid", want, r->grid);
    break;
  case MATRIX:
    want[0] = ceil_div(n, r->block[0]), want[1] = ceil_div(n, r->block[1]), want[2] = 1;
    if (memcmp(want, r->grid, sizeof want)) return mismatch(d, origin, r, "grid", want, r->grid);
    if (n * n > INT32_MAX)
      return ws_diag_add(d, WS_SEV_ERROR, origin, r->line, 0,
                         "%s: %lld x %lld elements do not fit the kernel's int indices",
                         r->kernel, (long long)n, (long long)n);
    break;
  case SUBSEQ: {
    uint32_t wb[3] = {SUBSEQ_THREADS, 1, 1};
    if (memcmp(wb, r->block, sizeof wb)) return mismatch(d, origin, r, "block", wb, r->block);
    if (r->grid[1] != 1 || r->grid[2] != 1 ||
        n % ((int64_t)r->grid[0] * SUBSEQ_TILE) != 0)
      return ws_diag_add(d, WS_SEV_ERROR, origin, r->line, 0,
                         "subSeqMax: Input.Size %lld is not a multiple of grid.x (%u) x %d "
                         "(each block takes whole tiles of %d ints)",
                         (long long)n, r->grid[0], SUBSEQ_TILE, SUBSEQ_TILE);
    break;
  }
  }
  return WS_OK;
}

/* Shared memory: the measured builds sized it statically per block size;
 * one PTX serves every size here, so it is dynamic, and must equal the
 * measured per-block total.  *dyn receives the dynamic bytes. */
static int shared_bytes(int *dyn, const struct vkernel *k, const ws_valid_row *r,
                        const char *origin, ws_diag *d) {
  int measured = r->static_smem + r->dynamic_smem;
  *dyn = 0;
  if (k->smem == SMEM_BLOCK_F) *dyn = (int)r->block[0] * 4;
  if (k->smem == SMEM_TILES_F) {
    if (r->block[0] != r->block[1])
      return ws_diag_add(d, WS_SEV_ERROR, origin, r->line, 0,
                         "%s needs square blocks (tile = block width), the row has %u x %u",
                         r->kernel, r->block[0], r->block[1]);
    *dyn = 2 * (int)(r->block[0] * r->block[0]) * 4;
  }
  if (k->smem != SMEM_STATIC && *dyn != measured)
    return ws_diag_add(d, WS_SEV_ERROR, origin, r->line, 0,
                       "%s with block %u x %u: the kernel uses %d bytes of shared memory, "
                       "the row says %d (Static.SMem + Dynamic.SMem)",
                       r->kernel, r->block[0], r->block[1], *dyn, measured);
  return WS_OK;
}

/* The four arguments of each signature (a[], b[], c[], n or in[], out[],
 * n, per_block): inputs random, outputs zero. */
static int make_args(ws_launch_arg *a, const struct vkernel *k, const ws_valid_row *r) {
  uint64_t n = (uint64_t)r->input_size, nn = n * n;
  switch (k->args) {
  case ARGS_VEC3:
  case ARGS_DOT:
  case ARGS_MAT3: {
    uint64_t in = k->args == ARGS_MAT3 ? nn : n;
    uint64_t out = k->args == ARGS_DOT ? r->grid[0] : in;
    if (buf_random(&a[0], "a", WS_ELEM_F32, in, 1, 0, 1) ||
        buf_random(&a[1], "b", WS_ELEM_F32, in, 2, 0, 1) ||
        buf_zero(&a[2], "c", WS_ELEM_F32, out) || scalar_s32(&a[3], "n", (int64_t)n))
      return WS_ENOMEM;
    return WS_OK;
  }
  case ARGS_SUBSEQ:
    if (buf_random(&a[0], "in", WS_ELEM_S32, n, 1, -100, 100) ||
        buf_zero(&a[1], "out", WS_ELEM_S32, 4ull * r->grid[0]) ||
        scalar_s32(&a[2], "n", (int64_t)n) ||
        scalar_s32(&a[3], "per_block", (int64_t)(n / r->grid[0])))
      return WS_ENOMEM;
    return WS_OK;
  }
  return WS_OK;
}

/* A generic-format row: its launch spec file, for the row's kernel. */
static int file_launch(ws_launch_spec **out, const ws_valid_row *r, const char *origin,
                       ws_diag *d) {
  int st = ws_emu_launch_spec_load(out, r->launch_file, d);
  if (st) {
    ws_diag_add(d, WS_SEV_ERROR, origin, r->line, 0, "the launch spec '%s' does not load",
                r->launch_file);
    return st;
  }
  if (!ws_demangle_match((*out)->kernel, r->kernel) && !ws_demangle_match(r->kernel, (*out)->kernel)) {
    ws_diag_add(d, WS_SEV_ERROR, origin, r->line, 0,
                "the launch spec '%s' is for kernel '%s', the row names '%s'", r->launch_file,
                (*out)->kernel, r->kernel);
    ws_emu_launch_spec_free(*out);
    *out = NULL;
    return WS_EINVAL;
  }
  return WS_OK;
}

static int table_launch(ws_launch_spec **out, const ws_valid_row *r, const char *origin,
                        ws_diag *d);

int ws_valid_launch(ws_launch_spec **out, const ws_valid_row *r, const char *origin,
                    ws_diag *d) {
  *out = NULL;
  int st = r->launch_file ? file_launch(out, r, origin, d) : table_launch(out, r, origin, d);
  /* the row's condition, when it states one, over the spec's */
  if (!st && r->l2) (*out)->l2_warm = r->l2 == WS_VALID_L2_WARM;
  return st;
}

/* A row of the Amarís data: its launch from the kernel table. */
static int table_launch(ws_launch_spec **out, const ws_valid_row *r, const char *origin,
                        ws_diag *d) {
  const struct vkernel *k = find(r->kernel);
  if (!k)
    return ws_diag_add(d, WS_SEV_ERROR, origin, r->line, 0, "unknown kernel '%s'", r->kernel);
  int dyn = 0, st = check_geometry(k, r, origin, d);
  if (!st) st = shared_bytes(&dyn, k, r, origin, d);
  if (st) return st;
  ws_launch_spec *s = calloc(1, sizeof *s);
  char where[512];
  snprintf(where, sizeof where, "%s:%d", origin ? origin : "<data>", r->line);
  if (!s || !(s->path = ws_strdup(where)) || !(s->kernel = ws_strdup(r->kernel)) ||
      !(s->args = calloc(NARGS, sizeof *s->args)))
    goto nomem;
  memcpy(s->grid, r->grid, sizeof s->grid);
  memcpy(s->block, r->block, sizeof s->block);
  s->dynamic_shared = (uint64_t)dyn;
  s->nargs = NARGS;
  if (make_args(s->args, k, r)) goto nomem;
  *out = s;
  return WS_OK;
nomem:
  ws_emu_launch_spec_free(s);
  return WS_ENOMEM;
}

/* Writing a spec as JSON ------------------------------------------------*/

static cJSON *dims(const uint32_t v[3]) {
  cJSON *a = cJSON_CreateArray();
  for (int i = 0; a && i < 3; i++) cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
  return a;
}

/* A scalar's value from its raw little-endian bits; 0 for the types the
 * format has no scalar of (f16, bf16). */
static int scalar_value(double *out, const ws_launch_arg *a) {
  uint64_t b = a->value;
  switch (a->type) {
  case WS_ELEM_U8: case WS_ELEM_U16: case WS_ELEM_U32: case WS_ELEM_U64: *out = (double)b; return 1;
  case WS_ELEM_S8: *out = (int8_t)b; return 1;
  case WS_ELEM_S16: *out = (int16_t)b; return 1;
  case WS_ELEM_S32: *out = (int32_t)b; return 1;
  case WS_ELEM_S64: *out = (double)(int64_t)b; return 1;
  case WS_ELEM_F32: {
    uint32_t u = (uint32_t)b;
    float f;
    memcpy(&f, &u, sizeof f);
    *out = f;
    return 1;
  }
  case WS_ELEM_F64: memcpy(out, &b, sizeof *out); return 1;
  default: return 0;
  }
}

/* "init" of a buffer: "zero" or {"constant"|"iota"|"random"|"file": ...}. */
static cJSON *init_json(const ws_launch_arg *a) {
  if (a->init == WS_INIT_ZERO) return cJSON_CreateString("zero");
  cJSON *o = cJSON_CreateObject();
  if (!o) return NULL;
  switch (a->init) {
  case WS_INIT_CONSTANT: cJSON_AddNumberToObject(o, "constant", a->v0); break;
  case WS_INIT_IOTA: {
    cJSON *i = cJSON_AddObjectToObject(o, "iota");
    cJSON_AddNumberToObject(i, "start", a->v0);
    cJSON_AddNumberToObject(i, "step", a->v1);
    break;
  }
  case WS_INIT_RANDOM: {
    cJSON *r = cJSON_AddObjectToObject(o, "random");
    cJSON_AddNumberToObject(r, "seed", (double)a->seed);
    cJSON_AddNumberToObject(r, "min", a->v0);
    cJSON_AddNumberToObject(r, "max", a->v1);
    break;
  }
  case WS_INIT_FILE: cJSON_AddStringToObject(o, "file", a->file ? a->file : ""); break;
  default: break;
  }
  return o;
}

cJSON *ws_valid_launch_cjson(const ws_launch_spec *s) {
  cJSON *o = cJSON_CreateObject();
  if (!o) return NULL;
  cJSON_AddStringToObject(o, "kernel", s->kernel);
  cJSON_AddItemToObject(o, "grid", dims(s->grid));
  cJSON_AddItemToObject(o, "block", dims(s->block));
  cJSON_AddNumberToObject(o, "dynamic_shared_bytes", (double)s->dynamic_shared);
  cJSON_AddStringToObject(o, "l2", s->l2_warm ? "warm" : "cold");
  cJSON *args = cJSON_AddArrayToObject(o, "args");
  for (uint32_t i = 0; i < s->nargs; i++) {
    const ws_launch_arg *a = &s->args[i];
    cJSON *j = cJSON_CreateObject();
    double v;
    cJSON_AddItemToArray(args, j);
    cJSON_AddStringToObject(j, a->is_buffer ? "buffer" : "scalar", a->name);
    cJSON_AddStringToObject(j, "type", ws_emu_elem_type_name(a->type));
    if (!a->is_buffer) {
      if (!scalar_value(&v, a)) {
        cJSON_Delete(o);
        return NULL;
      }
      cJSON_AddNumberToObject(j, "value", v);
      continue;
    }
    cJSON_AddNumberToObject(j, "count", (double)a->count);
    cJSON_AddItemToObject(j, "init", init_json(a));
    if (a->output) cJSON_AddStringToObject(j, "output", a->output);
  }
  return o;
}

char *ws_valid_launch_json(const ws_launch_spec *s) {
  cJSON *o = ws_valid_launch_cjson(s);
  char *text = o ? ws_json_print(o, 1) : NULL;
  cJSON_Delete(o);
  return text;
}
