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
#include <cjson/cJSON.h>
#include <string.h>

#include "warpsight/valid.h"

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
  SUBSEQ_TILE = 4096     /* TILE in subSeqMax.cu */
};

size_t ws_valid_kernel_count(void) { return NKERNELS; }
const char *ws_valid_kernel_name(size_t i) { return i < NKERNELS ? kernels[i].name : NULL; }

static const struct vkernel *find(const char *name) {
  for (size_t i = 0; i < NKERNELS; i++)
    if (strcmp(kernels[i].name, name) == 0) return &kernels[i];
  return NULL;
}

int ws_valid_kernel_known(const char *name) { return find(name) != NULL; }

static cJSON *dims(const uint32_t v[3]) {
  cJSON *a = cJSON_CreateArray();
  for (int i = 0; i < 3; i++) cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
  return a;
}

/* {"buffer": name, "type": t, "count": n, "init": {"random": {...}}} */
static cJSON *buf_random(const char *name, const char *type, double count, int seed,
                         double lo, double hi) {
  cJSON *b = cJSON_CreateObject();
  cJSON_AddStringToObject(b, "buffer", name);
  cJSON_AddStringToObject(b, "type", type);
  cJSON_AddNumberToObject(b, "count", count);
  cJSON *init = cJSON_AddObjectToObject(b, "init");
  cJSON *r = cJSON_AddObjectToObject(init, "random");
  cJSON_AddNumberToObject(r, "seed", seed);
  cJSON_AddNumberToObject(r, "min", lo);
  cJSON_AddNumberToObject(r, "max", hi);
  return b;
}

static cJSON *buf_zero(const char *name, const char *type, double count) {
  cJSON *b = cJSON_CreateObject();
  cJSON_AddStringToObject(b, "buffer", name);
  cJSON_AddStringToObject(b, "type", type);
  cJSON_AddNumberToObject(b, "count", count);
  cJSON_AddStringToObject(b, "init", "zero");
  return b;
}

static cJSON *scalar(const char *name, double v) {
  cJSON *s = cJSON_CreateObject();
  cJSON_AddStringToObject(s, "scalar", name);
  cJSON_AddStringToObject(s, "type", "s32");
  cJSON_AddNumberToObject(s, "value", v);
  return s;
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

int ws_valid_launch(cJSON **out, const ws_valid_row *r, const char *origin, ws_diag *d) {
  *out = NULL;
  const struct vkernel *k = find(r->kernel);
  if (!k)
    return ws_diag_add(d, WS_SEV_ERROR, origin, r->line, 0, "unknown kernel '%s'", r->kernel);
  int64_t n = r->input_size;
  uint32_t want[3];

  /* The grid the Input.Size mapping gives, against the row's. */
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

  /* Shared memory: the measured builds sized it statically per block size;
   * one PTX serves every size here, so it is dynamic, and must equal the
   * measured per-block total. */
  int dyn = 0, measured = r->static_smem + r->dynamic_smem;
  if (k->smem == SMEM_BLOCK_F) dyn = (int)r->block[0] * 4;
  if (k->smem == SMEM_TILES_F) {
    if (r->block[0] != r->block[1])
      return ws_diag_add(d, WS_SEV_ERROR, origin, r->line, 0,
                         "%s needs square blocks (tile = block width), the row has %u x %u",
                         r->kernel, r->block[0], r->block[1]);
    dyn = 2 * (int)(r->block[0] * r->block[0]) * 4;
  }
  if (k->smem != SMEM_STATIC && dyn != measured)
    return ws_diag_add(d, WS_SEV_ERROR, origin, r->line, 0,
                       "%s with block %u x %u: the kernel uses %d bytes of shared memory, "
                       "the row says %d (Static.SMem + Dynamic.SMem)",
                       r->kernel, r->block[0], r->block[1], dyn, measured);

  cJSON *o = cJSON_CreateObject();
  if (!o) return WS_ENOMEM;
  cJSON_AddStringToObject(o, "kernel", r->kernel);
  cJSON_AddItemToObject(o, "grid", dims(r->grid));
  cJSON_AddItemToObject(o, "block", dims(r->block));
  cJSON_AddNumberToObject(o, "dynamic_shared_bytes", dyn);
  cJSON *args = cJSON_AddArrayToObject(o, "args");
  double nn = (double)n * (double)n;
  switch (k->args) {
  case ARGS_VEC3:
  case ARGS_DOT:
    cJSON_AddItemToArray(args, buf_random("a", "f32", (double)n, 1, 0, 1));
    cJSON_AddItemToArray(args, buf_random("b", "f32", (double)n, 2, 0, 1));
    cJSON_AddItemToArray(args, buf_zero("c", "f32", k->args == ARGS_DOT ? r->grid[0] : (double)n));
    cJSON_AddItemToArray(args, scalar("n", (double)n));
    break;
  case ARGS_MAT3:
    cJSON_AddItemToArray(args, buf_random("a", "f32", nn, 1, 0, 1));
    cJSON_AddItemToArray(args, buf_random("b", "f32", nn, 2, 0, 1));
    cJSON_AddItemToArray(args, buf_zero("c", "f32", nn));
    cJSON_AddItemToArray(args, scalar("n", (double)n));
    break;
  case ARGS_SUBSEQ:
    cJSON_AddItemToArray(args, buf_random("in", "s32", (double)n, 1, -100, 100));
    cJSON_AddItemToArray(args, buf_zero("out", "s32", 4.0 * r->grid[0]));
    cJSON_AddItemToArray(args, scalar("n", (double)n));
    cJSON_AddItemToArray(args, scalar("per_block", (double)(n / r->grid[0])));
    break;
  }
  *out = o;
  return WS_OK;
}
