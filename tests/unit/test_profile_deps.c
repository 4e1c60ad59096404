/*
 * test_profile_deps.c — the profiler's `dependencies` section and atomic
 * serialization (src/profile/deps.c, docs/profile.md) on synthetic streams
 * of real parsed PTX, against paths worked out by hand below.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "profile/deps.h"
#include "warpsight/gpu.h"
#include "warpsight/profiler.h"
#include "warpsight/ptx.h"

static const char ptx[] =
    ".version 7.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".visible .entry k(.param .u64 a)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  .reg .f32 %f<4>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.global.f32 %f1, [%rd1];\n"          /* 0 */
    "  add.f32 %f2, %f1, %f1;\n"              /* 1 */
    "  add.f32 %f3, %f2, %f2;\n"              /* 2 */
    "  mov.u32 %r1, 5;\n"                     /* 3 */
    "  bar.sync 0;\n"                         /* 4 */
    "  st.global.f32 [%rd1], %f3;\n"          /* 5 */
    "  exit;\n"                               /* 6 */
    "  atom.global.add.u32 %r2, [%rd1], 1;\n" /* 7 */
    "  red.shared.add.u32 [%rd2], 1;\n"       /* 8 */
    "}\n";

typedef struct fixture {
  ws_ptx_module *m;
  const ws_ptx_function *k;
  ws_gpu *g;
  ws_prof *p;
  ws_diag d;
} fixture;

static void setup_src(fixture *fx, const char *src, uint32_t threads, uint32_t blocks, uint64_t sample);
static void setup(fixture *fx, uint32_t threads) { setup_src(fx, ptx, threads, 1, 0); }
static void setup_grid(fixture *fx, uint32_t threads, uint32_t blocks, uint64_t sample) {
  setup_src(fx, ptx, threads, blocks, sample);
}

/* The profiler of kernel k of src on a grid of blocks x threads. */
static void setup_src(fixture *fx, const char *src, uint32_t threads, uint32_t blocks, uint64_t sample) {
  memset(fx, 0, sizeof *fx);
  assert_ok_diag(ws_ptx_parse(&fx->m, src, strlen(src), "deps.ptx", &fx->d), &fx->d);
  fx->k = ws_ptx_find_function(fx->m, "k");
  assert_non_null(fx->k);
  assert_ok_diag(ws_gpu_load(&fx->g, "k20", &fx->d), &fx->d);
  ws_prof_config c = {0};
  c.module = fx->m;
  c.kernel = fx->k;
  c.gpu = fx->g;
  c.grid[0] = blocks, c.grid[1] = 1, c.grid[2] = 1;
  c.sample_blocks = sample;
  c.block[0] = threads, c.block[1] = 1, c.block[2] = 1;
  c.workers = 1;
  c.resources.registers_per_thread = c.resources.shared_bytes_per_block = NAN;
  c.resources.local_bytes_per_thread = NAN;
  assert_ok_diag(ws_prof_new(&fx->p, &c, &fx->d), &fx->d);
}

static void emit_in(fixture *fx, uint32_t block, uint32_t warp, int pc, uint8_t space,
                    const uint64_t *addr) {
  ws_emu_event ev = {0};
  ev.block_linear = block;
  ev.warp = warp;
  ev.func = fx->k;
  ev.inst = &fx->k->insts[pc];
  ev.pc = (uint32_t)pc;
  ev.active = ev.exec = 0xffffffffu;
  ev.space = space;
  ev.bytes = 4;
  ev.addr = addr;
  ws_prof_inst(fx->p, &ev);
}

static void emit(fixture *fx, uint32_t warp, int pc, uint8_t space, const uint64_t *addr) {
  emit_in(fx, 0, warp, pc, space, addr);
}

static ws_profile *finish(fixture *fx) {
  ws_profile *pr = NULL;
  assert_ok_diag(ws_prof_finish(fx->p, &pr, &fx->d), &fx->d);
  ws_prof_free(fx->p);
  ws_gpu_free(fx->g);
  ws_ptx_module_free(fx->m);
  ws_diag_free(&fx->d);
  return pr;
}

/* Two warps, the emulator's order: warp 0 up to the barrier, warp 1 up to
 * it, then each to its end.  Times are (loads, cycles); one issue cycle per
 * instruction, ALU latency 6 (deps.c's nominal table).
 *   warp 0: ld issues (0,1), %f1 ready (1,1); add issues (1,1) -> %f2 (1,7);
 *           add (1,7) -> %f3 (1,13); mov (1,8) -> %r1 (1,14); bar (1,9).
 *   warp 1: mov (0,1); bar (0,2).  Barrier slot: the later, (1,9).
 *   warp 0: st leaves the barrier at (1,9), waits for %f3: (1,13); exit (1,14).
 *   warp 1: add leaves at (1,9), issues (1,10) (its own %f1 was never
 *           loaded) -> %f2 (1,16); add (1,16) -> %f3 (1,22); st (1,22); exit (1,23).
 * The block's longest path is warp 1's: 1 load, 23 cycles.  Without the
 * join at the barrier it would be warp 0's (1,14). */
static void path_through_barrier(void **s) {
  (void)s;
  fixture fx;
  setup(&fx, 64);
  uint64_t a[32];
  for (int l = 0; l < 32; l++) a[l] = 4096 + 4 * (uint64_t)l;
  ws_prof_block_begin(fx.p, 0, 0);
  emit(&fx, 0, 0, WS_PTX_SP_GLOBAL, a);
  emit(&fx, 0, 1, 0, NULL);
  emit(&fx, 0, 2, 0, NULL);
  emit(&fx, 0, 3, 0, NULL);
  emit(&fx, 0, 4, 0, NULL);
  emit(&fx, 1, 3, 0, NULL);
  emit(&fx, 1, 4, 0, NULL);
  emit(&fx, 0, 5, WS_PTX_SP_GLOBAL, a);
  emit(&fx, 0, 6, 0, NULL);
  emit(&fx, 1, 1, 0, NULL);
  emit(&fx, 1, 2, 0, NULL);
  emit(&fx, 1, 5, WS_PTX_SP_GLOBAL, a);
  emit(&fx, 1, 6, 0, NULL);
  ws_prof_block_end(fx.p, 0, 0);
  ws_profile *pr = finish(&fx);
  assert_close(pr->f.path_mem_loads, 1, 0);
  assert_close(pr->f.path_cycles, 23, 0);
  assert_close(pr->f.global_atomic_insts, 0, 0);
  ws_profile_free(pr);
}

/* One warp: an atomic add where all 32 lanes hit one address (32 serialized
 * operations) and a shared reduction where lanes 0-15 and 16-31 hit two
 * addresses (16 each, the two in parallel: 16).  Per warp: global 1
 * request, 32 serialized; shared 1 request, 16.  The atomic's result is a
 * memory load on the path: 1 load. */
static void atomics_same_address(void **s) {
  (void)s;
  fixture fx;
  setup(&fx, 32);
  uint64_t one[32], two[32];
  for (int l = 0; l < 32; l++) one[l] = 8192, two[l] = l < 16 ? 64 : 128;
  ws_prof_block_begin(fx.p, 0, 0);
  emit(&fx, 0, 7, WS_PTX_SP_GLOBAL, one);
  emit(&fx, 0, 8, WS_PTX_SP_SHARED, two);
  ws_prof_block_end(fx.p, 0, 0);
  ws_profile *pr = finish(&fx);
  assert_close(pr->f.global_atomic_insts, 1, 0);
  assert_close(pr->f.global_atomic_serial, 32, 0);
  assert_close(pr->f.shared_atomic_insts, 1, 0);
  assert_close(pr->f.shared_atomic_serial, 16, 0);
  assert_close(pr->f.path_mem_loads, 1, 0);
  ws_profile_free(pr);
}

/* ws_prof_deps_same_address and ws_prof_deps_addresses (one address: a
 * count; else a hash table) against their definitions, counted here lane
 * by lane: the most executing lanes that share an address, and the
 * distinct addresses (an executing lane whose address no earlier executing
 * lane has).  Random masks; addresses from a few to
 * many distinct values. */
static void same_address_definition(void **s) {
  (void)s;
  uint64_t st = 77;
  for (int iter = 0; iter < 3000; iter++) {
    uint64_t addr[32];
    st = st * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t exec = iter % 4 == 0 ? 0xffffffffu : (uint32_t)(st >> 32);
    uint64_t span = 1 + (uint64_t)(iter % 40);
    for (int l = 0; l < 32; l++) {
      st = st * 6364136223846793005ull + 1442695040888963407ull;
      addr[l] = 0x1000 + 4 * ((st >> 33) % span);
    }
    uint32_t want = 0, distinct = 0, nd = 99;
    for (int i = 0; i < 32; i++) {
      uint32_t n = 0, earlier = 0;
      for (int j = 0; j < 32; j++) n += (exec >> i & 1) && (exec >> j & 1) && addr[j] == addr[i];
      for (int j = 0; j < i; j++) earlier += (exec >> j & 1) && addr[j] == addr[i];
      if (n > want) want = n;
      distinct += (exec >> i & 1) && !earlier;
    }
    assert_int_equal(ws_prof_deps_same_address(exec, addr), want);
    assert_int_equal(ws_prof_deps_addresses(exec, addr, &nd), want);
    assert_int_equal(nd, distinct);
  }
}

/* A step of the tests' generator (a 64-bit LCG). */
static uint64_t lcg(uint64_t *st) {
  *st = *st * 6364136223846793005ull + 1442695040888963407ull;
  return *st >> 11;
}

/* addr[] for a request: one of the patterns the counts have fast paths for
 * (one address, rising, sorted with repeats) or not (falling, random with
 * repeats, a rising run that falls once), at word addresses near 0x1000
 * or anywhere in 64 bits (the top bits set, 0 and UINT64_MAX among them). */
static void lanes_pattern(uint64_t *st, int pattern, uint64_t *addr) {
  const int wide = (int)(lcg(st) % 3) == 0;
  uint64_t base = wide ? lcg(st) << 11 ^ lcg(st) : 0x1000;
  const uint64_t span = 1 + lcg(st) % 40, stride = wide ? lcg(st) | 1 : 4 * (1 + lcg(st) % 8);
  const int fall = (int)(lcg(st) % 32);
  for (int l = 0; l < 32; l++) {
    switch (pattern) {
    case 0: addr[l] = base; break;                                            /* one address */
    case 1: addr[l] = base + (uint64_t)l * stride; break;                     /* rising */
    case 2: addr[l] = base - (uint64_t)l * stride; break;                     /* falling */
    case 3: addr[l] = base + (uint64_t)(l / (1 + fall % 5)) * stride; break;  /* sorted, repeats */
    case 4: addr[l] = base + (uint64_t)(l < fall ? l : l - fall) * stride; break; /* rises, falls once */
    case 5: addr[l] = (uint64_t)0 - (lcg(st) % 3); break;                     /* UINT64_MAX, near it */
    case 6: addr[l] = lcg(st) % 3 == 0 ? 0 : lcg(st) % 2 ? UINT64_MAX : base; break;
    default: addr[l] = base + stride * (lcg(st) % span); break;               /* random, repeats */
    }
  }
}

/* A lane mask: a whole warp, none, one lane, a half, or random. */
static uint32_t lanes_mask(uint64_t *st) {
  switch (lcg(st) % 6) {
  case 0: return 0;
  case 1: return 1u << (lcg(st) % 32);
  case 2: return lcg(st) % 2 ? 0xffff0000u : 0x0000ffffu;
  case 3: return (uint32_t)lcg(st);
  default: return 0xffffffffu;
  }
}

/* The most lanes of exec on one address and the distinct addresses,
 * counted lane by lane (the definitions). */
static uint32_t lanes_reference(uint32_t exec, const uint64_t *addr, uint32_t *distinct) {
  uint32_t want = 0, nd = 0;
  for (int i = 0; i < 32; i++) {
    if (!(exec >> i & 1)) continue;
    uint32_t n = 0, earlier = 0;
    for (int j = 0; j < 32; j++) n += (exec >> j & 1) && addr[j] == addr[i];
    for (int j = 0; j < i; j++) earlier += (exec >> j & 1) && addr[j] == addr[i];
    if (n > want) want = n;
    nd += !earlier;
  }
  *distinct = nd;
  return want;
}

/* ws_prof_deps_addresses on every pattern its fast paths and its table
 * take (above), with every kind of mask, against the definitions. */
static void addresses_patterns(void **s) {
  (void)s;
  uint64_t st = 2026;
  for (int iter = 0; iter < 20000; iter++) {
    uint64_t addr[32];
    lanes_pattern(&st, iter % 8, addr);
    const uint32_t exec = lanes_mask(&st);
    uint32_t distinct, nd = 99;
    const uint32_t want = lanes_reference(exec, addr, &distinct);
    assert_int_equal(ws_prof_deps_addresses(exec, addr, &nd), want);
    assert_int_equal(nd, distinct);
    assert_int_equal(ws_prof_deps_same_address(exec, addr), want);
  }
}

/* The tests' plain model of a worker's atomics (deps.h): per request its
 * figures, per block its distinct global addresses (a list searched
 * whole), and the sketch lane by lane -- each lane in its bucket of each
 * row, a bucket counting each block that touched it. */
typedef struct atom_ref {
  double reqs, serial, req_addresses, addresses, sreqs, sserial;
  uint64_t ops[WS_DEPS_HOT_ROWS][WS_DEPS_HOT_BUCKETS];
  uint64_t blocks[WS_DEPS_HOT_ROWS][WS_DEPS_HOT_BUCKETS];
  uint64_t last[WS_DEPS_HOT_ROWS][WS_DEPS_HOT_BUCKETS];
  uint64_t *seen; /* the block's distinct addresses */
  size_t nseen, block;
} atom_ref;

static void ref_request(atom_ref *r, uint32_t exec, const uint64_t *addr, int shared) {
  if (!exec) return;
  uint32_t nd;
  const uint32_t deg = lanes_reference(exec, addr, &nd);
  if (shared) {
    r->sreqs++, r->sserial += deg;
    return;
  }
  r->reqs++, r->serial += deg, r->req_addresses += nd;
  for (int l = 0; l < 32; l++) {
    if (!(exec >> l & 1)) continue;
    size_t i = 0;
    while (i < r->nseen && r->seen[i] != addr[l]) i++;
    if (i == r->nseen) r->seen[r->nseen++] = addr[l];
    for (int w = 0; w < WS_DEPS_HOT_ROWS; w++) {
      const uint32_t b = ws_prof_deps_hot_bucket(addr[l], w);
      r->ops[w][b]++;
      if (r->last[w][b] != r->block + 1) r->blocks[w][b]++, r->last[w][b] = r->block + 1;
    }
  }
}

/* The sketch's bound over the models of n workers (ws_prof_deps_hot's
 * definition). */
static double ref_hot(atom_ref *const *r, int n, double scale) {
  double best = INFINITY;
  for (int w = 0; w < WS_DEPS_HOT_ROWS; w++) {
    double row = 0;
    for (int b = 0; b < WS_DEPS_HOT_BUCKETS; b++) {
      double ops = 0, blocks = 0;
      for (int k = 0; k < n; k++) ops += (double)r[k]->ops[w][b], blocks += (double)r[k]->blocks[w][b];
      const double v = blocks >= 2 ? ops * scale : ops;
      if (v > row) row = v;
    }
    if (row < best) best = row;
  }
  return best;
}

/* A worker's atomics (ws_prof_deps_atomics: the per-request figures, the
 * block's set, the sketch) against the model above, two workers taking
 * blocks in turn: requests of every pattern and mask on a few addresses
 * every block updates (their buckets soon count two blocks), on addresses
 * of one block, and one block of thousands of addresses (the set grows
 * while the block runs); shared requests among them.  With the request
 * stamps started near their top, so that they start again at a block's
 * start (worker 0) and inside a block (worker 1). */
static void atomics_against_reference(void **s) {
  (void)s;
  ws_ptx_module *m = NULL;
  ws_diag dg = {0};
  assert_ok_diag(ws_ptx_parse(&m, ptx, strlen(ptx), "deps.ptx", &dg), &dg);
  const ws_ptx_function *k = ws_ptx_find_function(m, "k");
  assert_non_null(k);
  enum { NBLOCKS = 24, PER_BLOCK = 12, BIG = 4000 };
  ws_deps *d[2];
  atom_ref *ref[2];
  for (int w = 0; w < 2; w++) {
    d[w] = ws_prof_deps_new(k);
    ref[w] = calloc(1, sizeof *ref[w]);
    assert_non_null(d[w]);
    assert_non_null(ref[w]);
    ref[w]->seen = malloc((BIG + NBLOCKS * PER_BLOCK * 32) * sizeof *ref[w]->seen);
    assert_non_null(ref[w]->seen);
  }
  /* worker 0's first block makes PER_BLOCK global requests (none of its
   * requests are shared), so its stamps run out just as its second block
   * begins; worker 1's run out in its first block */
  d[0]->aseq = UINT32_MAX - PER_BLOCK;
  d[1]->aseq = UINT32_MAX - PER_BLOCK / 2;
  uint64_t st = 99;
  const uint64_t common = 0xffff800000001000ull;
  for (int b = 0; b < NBLOCKS; b++) {
    const int w = b % 2;
    ws_prof_deps_block_begin(d[w]);
    ws_prof_deps_warp_begin(d[w], 0); /* (a block counts with a warp) */
    ref[w]->nseen = 0;
    ref[w]->block = (size_t)b;
    const int nreq = b == 5 ? BIG / 8 : PER_BLOCK;
    for (int q = 0; q < nreq; q++) {
      uint64_t addr[32];
      ws_emu_event ev = {0};
      if (b == 5) { /* thousands of addresses: every lane a new one, some again */
        for (int l = 0; l < 32; l++) addr[l] = 0x40000 + 8 * (uint64_t)((q * 32 + l) % (BIG / 2) + (l % 7 == 0));
        ev.exec = 0xffffffffu;
      } else {
        lanes_pattern(&st, (int)(lcg(&st) % 8), addr);
        const int where = (int)(lcg(&st) % 3);
        for (int l = 0; l < 32; l++)
          if (where == 0) addr[l] = common + 8 * (addr[l] % 5); /* a few, every block */
          else if (where == 1) addr[l] ^= (uint64_t)b << 48;    /* this block's */
        ev.exec = lanes_mask(&st);
      }
      ev.space = b >= 2 && lcg(&st) % 5 == 0 ? WS_PTX_SP_SHARED : WS_PTX_SP_GLOBAL;
      ev.addr = addr;
      uint32_t nd;
      const uint32_t want = ev.exec ? lanes_reference(ev.exec, addr, &nd) : 0;
      assert_int_equal(ws_prof_deps_atomics(d[w], &ev), want);
      ref_request(ref[w], ev.exec, addr, ev.space == WS_PTX_SP_SHARED);
    }
    ws_prof_deps_block_end(d[w]);
    ref[w]->addresses += (double)ref[w]->nseen;
  }
  assert_true(d[0]->aseq < 1000 && d[1]->aseq < 1000); /* (the stamps did start again) */
  for (int w = 0; w < 2; w++) {
    ws_deps_sum sum = {0};
    ws_prof_deps_add(&sum, d[w]);
    assert_close(sum.gatom_reqs, ref[w]->reqs, 0);
    assert_close(sum.gatom_serial, ref[w]->serial, 0);
    assert_close(sum.gatom_req_addresses, ref[w]->req_addresses, 0);
    assert_close(sum.gatom_addresses, ref[w]->addresses, 0);
    assert_close(sum.satom_reqs, ref[w]->sreqs, 0);
    assert_close(sum.satom_serial, ref[w]->sserial, 0);
    assert_int_equal(sum.gatom_addresses_short, 0);
    assert_close(ws_prof_deps_hot(&d[w], 1, 2.5), ref_hot(&ref[w], 1, 2.5), 0);
  }
  assert_close(ws_prof_deps_hot(d, 2, 3), ref_hot(ref, 2, 3), 0);
  assert_close(ws_prof_deps_hot(d, 2, 1), ref_hot(ref, 2, 1), 0);
  for (int w = 0; w < 2; w++) {
    ws_prof_deps_free(d[w]);
    free(ref[w]->seen);
    free(ref[w]);
  }
  ws_ptx_module_free(m);
  ws_diag_free(&dg);
}

/* A bucket's count of blocks when another address shares it in one row
 * only.  Addresses a and b share their row-0 bucket X, not their row-1
 * buckets (Ya, Yb).  One worker: block 0 updates b with one lane, blocks 1
 * and 2 update a with 32 lanes each.  X: 65 operations, 3 blocks; Ya: 64
 * operations, 2 blocks (blocks 1 and 2); Yb: 1, 1 block.  Scaled by 4 where
 * two blocks or more touched: row 0's fullest is X, 260; row 1's is Ya,
 * 256; the bound is the smaller, 256.  (X counts two blocks after block 1
 * while Ya counts one: a's buckets must go on counting blocks.) */
static void atomics_sketch_shared_bucket(void **s) {
  (void)s;
  ws_ptx_module *m = NULL;
  ws_diag dg = {0};
  assert_ok_diag(ws_ptx_parse(&m, ptx, strlen(ptx), "deps.ptx", &dg), &dg);
  ws_deps *d = ws_prof_deps_new(ws_ptx_find_function(m, "k"));
  assert_non_null(d);
  const uint64_t a = 0x1000;
  uint64_t b = a + 4;
  while (ws_prof_deps_hot_bucket(b, 0) != ws_prof_deps_hot_bucket(a, 0) ||
         ws_prof_deps_hot_bucket(b, 1) == ws_prof_deps_hot_bucket(a, 1))
    b += 4;
  for (int blk = 0; blk < 3; blk++) {
    uint64_t addr[32];
    for (int l = 0; l < 32; l++) addr[l] = blk ? a : b;
    ws_emu_event ev = {0};
    ev.exec = blk ? 0xffffffffu : 1u;
    ev.space = WS_PTX_SP_GLOBAL;
    ev.addr = addr;
    ws_prof_deps_block_begin(d);
    ws_prof_deps_warp_begin(d, 0);
    assert_int_equal(ws_prof_deps_atomics(d, &ev), blk ? 32 : 1);
    ws_prof_deps_block_end(d);
  }
  assert_close(ws_prof_deps_hot(&d, 1, 4), 256, 0);
  ws_prof_deps_free(d);
  ws_ptx_module_free(m);
  ws_diag_free(&dg);
}

/* The conflict degree of atomic requests (docs/profile.md): one block of
 * two warps, one global atomic each.  Warp 0's 32 lanes update one address
 * (1 distinct, 32 serialized), warp 1's 32 lanes 32 addresses (32
 * distinct, 1 serialized).  Per warp: 1 request, (32 + 1) / 2 = 16.5
 * serialized; 16.5 addresses per request; the most-updated address takes
 * warp 0's 32 operations (a full profile: no scaling). */
static void atomics_conflict_degree(void **s) {
  (void)s;
  fixture fx;
  setup(&fx, 64);
  uint64_t one[32], many[32];
  for (int l = 0; l < 32; l++) one[l] = 8192, many[l] = 16384 + 4 * (uint64_t)l;
  ws_prof_block_begin(fx.p, 0, 0);
  emit(&fx, 0, 7, WS_PTX_SP_GLOBAL, one);
  emit(&fx, 1, 7, WS_PTX_SP_GLOBAL, many);
  ws_prof_block_end(fx.p, 0, 0);
  ws_profile *pr = finish(&fx);
  assert_close(pr->f.global_atomic_insts, 1, 0);
  assert_close(pr->f.global_atomic_serial, 16.5, 0);
  assert_close(pr->f.global_atomic_addresses_per_request, 16.5, 0);
  assert_close(pr->f.global_atomic_max_address_ops, 32, 0);
  ws_profile_free(pr);
}

/* Contention across blocks in a sample: 8 blocks of 32 threads, 2 sampled
 * (the strata centres, blocks 2 and 6: ws_prof_sample_plan), each warp
 * updating with all 32 lanes.  One counter for the whole grid: both
 * sampled blocks update it (32 each), so it is shared and scaled by 8 / 2:
 * 64 x 4 = 256 operations (the grid's 8 x 32).  A counter per block: each
 * is touched by one block, its own 32, not scaled. */
static void atomics_contention_sampled(void **s) {
  (void)s;
  for (int per_block = 0; per_block < 2; per_block++) {
    fixture fx;
    setup_grid(&fx, 32, 8, 2);
    static const uint32_t blocks[2] = {2, 6};
    for (int b = 0; b < 2; b++) {
      uint64_t a[32];
      for (int l = 0; l < 32; l++) a[l] = 8192 + (per_block ? 4 * (uint64_t)blocks[b] : 0);
      assert_true(ws_prof_sampled(fx.p, blocks[b]));
      ws_prof_block_begin(fx.p, 0, blocks[b]);
      emit_in(&fx, blocks[b], 0, 7, WS_PTX_SP_GLOBAL, a);
      ws_prof_block_end(fx.p, 0, blocks[b]);
    }
    ws_profile *pr = finish(&fx);
    assert_close(pr->f.global_atomic_max_address_ops, per_block ? 32 : 256, 0);
    assert_close(pr->f.global_atomic_addresses_per_request, 1, 0);
    ws_profile_free(pr);
  }
}

/* A barrier in a called function joins the warps as one in the kernel does
 * (the profiler's record of an instruction gives the barrier class to every
 * function's, registers to the kernel's alone).  Times as above:
 *   warp 0: ld (0,1) -> %f1 (1,1); add waits for it: issues (1,1) -> %f2
 *           (1,7); call (1,2); f's bar (1,3).
 *   warp 1: call (0,1); bar (0,2).  Barrier slot: the later, (1,3).
 *   warp 0: ret leaves at (1,3), issues (1,4); exit (1,5).  End (1,7).
 *   warp 1: ret (1,4); add (its %f2 never written) (1,5) -> %f3 (1,11);
 *           exit (1,6).  End (1,11).
 * The block's path: 1 load, 11 cycles; without the join at f's barrier,
 * warp 1 would end at (0,10) and the path be warp 0's (1,7). */
static const char ptx_call[] =
    ".version 7.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".func f()\n"
    "{\n"
    "  bar.sync 0;\n"                         /* f 0 */
    "  ret;\n"                                /* f 1 */
    "}\n"
    ".visible .entry k(.param .u64 a)\n"
    "{\n"
    "  .reg .f32 %f<4>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.global.f32 %f1, [%rd1];\n"          /* 0 */
    "  add.f32 %f2, %f1, %f1;\n"              /* 1 */
    "  call f;\n"                             /* 2 */
    "  add.f32 %f3, %f2, %f2;\n"              /* 3 */
    "  exit;\n"                               /* 4 */
    "}\n";

static void call_ev(ws_prof *p, const ws_ptx_function *fn, uint32_t warp, uint32_t pc, const uint64_t *addr) {
  ws_emu_event ev = {0};
  ev.warp = warp;
  ev.func = fn;
  ev.inst = &fn->insts[pc];
  ev.pc = pc;
  ev.active = ev.exec = 0xffffffffu;
  ev.space = addr ? WS_PTX_SP_GLOBAL : 0;
  ev.bytes = addr ? 4 : 0;
  ev.addr = addr;
  ws_prof_inst(p, &ev);
}

static void barrier_in_called_function(void **s) {
  (void)s;
  fixture fx;
  setup_src(&fx, ptx_call, 64, 1, 0);
  const ws_ptx_function *k = fx.k, *f = ws_ptx_find_function(fx.m, "f");
  assert_non_null(f);
  ws_prof *p = fx.p;
  uint64_t a[32];
  for (int l = 0; l < 32; l++) a[l] = 4096 + 4 * (uint64_t)l;
  ws_prof_block_begin(p, 0, 0);
  call_ev(p, k, 0, 0, a);
  call_ev(p, k, 0, 1, NULL);
  call_ev(p, k, 0, 2, NULL);
  call_ev(p, f, 0, 0, NULL);
  call_ev(p, k, 1, 2, NULL);
  call_ev(p, f, 1, 0, NULL);
  call_ev(p, f, 0, 1, NULL);
  call_ev(p, k, 0, 4, NULL);
  call_ev(p, f, 1, 1, NULL);
  call_ev(p, k, 1, 3, NULL);
  call_ev(p, k, 1, 4, NULL);
  ws_prof_block_end(p, 0, 0);
  ws_profile *pr = finish(&fx);
  assert_close(pr->f.path_mem_loads, 1, 0);
  assert_close(pr->f.path_cycles, 11, 0);
  ws_profile_free(pr);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(same_address_definition),
      cmocka_unit_test(addresses_patterns),
      cmocka_unit_test(atomics_against_reference),
      cmocka_unit_test(atomics_sketch_shared_bucket),
      cmocka_unit_test(path_through_barrier),
      cmocka_unit_test(barrier_in_called_function),
      cmocka_unit_test(atomics_same_address),
      cmocka_unit_test(atomics_conflict_degree),
      cmocka_unit_test(atomics_contention_sampled),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
