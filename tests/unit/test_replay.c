/*
 * test_replay.c — the profiler's interleaved cache replay (docs/profile.md,
 * "Caches") on synthetic request streams whose hits and DRAM bytes are
 * worked out by hand in each test's comment for the interleaved order (and,
 * where it differs, for the warp-after-warp order the replay replaced, so
 * each test can tell the two apart).
 *
 * The caches are shrunk (a real GPU's facts with small sizes) so that LRU
 * evictions are easy to follow: a 512-byte cache of 4 ways and 128-byte
 * lines is one set of 4 lines.  A "line read" is one warp instruction whose
 * 32 lanes read 32 consecutive 4-byte words: one 128-byte line, 4 sectors.
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "profile/replay.h"
#include "testutil.h"
#include "warpsight/gpu.h"
#include "warpsight/profiler.h"
#include "warpsight/ptx.h"

static const char ptx[] =
    ".version 7.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".visible .entry k(.param .u64 a)\n"
    "{\n"
    "  .reg .f32 %f<2>;\n"
    "  .reg .b64 %rd<2>;\n"
    "  ld.global.f32 %f1, [%rd1];\n"              /* 0 */
    "  st.global.f32 [%rd1], %f1;\n"              /* 1 */
    "  ld.global.cg.f32 %f1, [%rd1];\n"           /* 2 */
    "  ld.global.cv.f32 %f1, [%rd1];\n"           /* 3 */
    "  ld.volatile.global.f32 %f1, [%rd1];\n"     /* 4 */
    "  ld.relaxed.gpu.global.f32 %f1, [%rd1];\n"  /* 5 */
    "  ld.acquire.sys.global.f32 %f1, [%rd1];\n"  /* 6 */
    "  ld.relaxed.cta.global.f32 %f1, [%rd1];\n"  /* 7 */
    "  ld.global.cs.f32 %f1, [%rd1];\n"           /* 8 */
    "  ld.global.lu.f32 %f1, [%rd1];\n"           /* 9 */
    "  ld.global.ca.f32 %f1, [%rd1];\n"           /* 10 */
    "  ld.global.nc.f32 %f1, [%rd1];\n"           /* 11 */
    "  st.global.cg.f32 [%rd1], %f1;\n"           /* 12 */
    "  st.volatile.global.f32 [%rd1], %f1;\n"     /* 13 */
    "  st.release.gpu.global.f32 [%rd1], %f1;\n"  /* 14 */
    "  ld.local.cg.f32 %f1, [%rd1];\n"            /* 15 */
    "  exit;\n"                                   /* 16 */
    "}\n";

enum {
  I_LD, I_ST, I_LD_CG, I_LD_CV, I_LD_VOLATILE, I_LD_RELAXED_GPU, I_LD_ACQUIRE_SYS, I_LD_RELAXED_CTA,
  I_LD_CS, I_LD_LU, I_LD_CA, I_LD_NC, I_ST_CG, I_ST_VOLATILE, I_ST_RELEASE_GPU, I_LD_LOCAL_CG
};

typedef struct fixture {
  ws_ptx_module *m;
  const ws_ptx_function *k;
  ws_gpu *g;
  ws_prof *p;
  ws_diag d;
} fixture;

typedef struct geometry {
  int l1_bytes;           /* per SM, 4 ways, 128-byte lines (0: none) */
  int l2_bytes;           /* 4 ways, 128-byte lines, 32-byte sectors */
  int sms;                /* SMs of the GPU */
  int max_blocks_per_sm;  /* resident blocks per SM (occupancy) */
} geometry;

static const ws_emu_region *g_regions; /* the launch's buffers for setup (or NULL) */
static size_t g_nregions;

/* GPU `gpu` of the database with the caches, SMs and block limit of
 * `geo` (NULL: the board's own). */
static void setup_gpu(fixture *fx, const char *gpu, const geometry *geo, uint32_t blocks,
                      uint32_t threads, uint64_t sample) {
  memset(fx, 0, sizeof *fx);
  assert_ok_diag(ws_ptx_parse(&fx->m, ptx, strlen(ptx), "test.ptx", &fx->d), &fx->d);
  fx->k = ws_ptx_find_function(fx->m, "k");
  assert_non_null(fx->k);
  assert_ok_diag(ws_gpu_load(&fx->g, gpu, &fx->d), &fx->d);
  if (geo) {
    fx->g->cache.l1_bytes = geo->l1_bytes;
    fx->g->cache.l1_assoc = 4;
    fx->g->cache.l1_line_bytes = 128;
    fx->g->cache.l1_caches_global = 1;
    fx->g->cache.l2_bytes = geo->l2_bytes;
    fx->g->cache.l2_assoc = 4;
    fx->g->cache.l2_line_bytes = 128;
    fx->g->cache.l2_sector_bytes = 32;
    fx->g->sms = geo->sms;
    fx->g->limits.max_blocks_per_sm = geo->max_blocks_per_sm;
  }
  ws_prof_config c = {0};
  c.module = fx->m;
  c.kernel = fx->k;
  c.gpu = fx->g;
  c.grid[0] = blocks, c.grid[1] = 1, c.grid[2] = 1;
  c.block[0] = threads, c.block[1] = 1, c.block[2] = 1;
  c.workers = 2;
  c.sample_blocks = sample;
  c.resources.registers_per_thread = c.resources.shared_bytes_per_block = NAN;
  c.resources.local_bytes_per_thread = NAN;
  c.regions = g_regions;
  c.nregions = g_nregions;
  assert_ok_diag(ws_prof_new(&fx->p, &c, &fx->d), &fx->d);
}

/* An A100 with the caches, SMs and block limit of `geo`. */
static void setup(fixture *fx, const geometry *geo, uint32_t blocks, uint32_t threads,
                  uint64_t sample) {
  setup_gpu(fx, "a100", geo, blocks, threads, sample);
}

static void teardown_fx(fixture *fx) {
  ws_prof_free(fx->p);
  ws_gpu_free(fx->g);
  ws_ptx_module_free(fx->m);
  ws_diag_free(&fx->d);
}

/* Warp `warp` of block `block` reads (or writes) 4 bytes a lane, lane l
 * at addr + stride x l, in state space `space` (a ws_ptx_space). */
static void strided_access_in(fixture *fx, int worker, uint32_t block, uint32_t warp, int pc,
                              uint64_t addr, uint64_t stride, int space) {
  uint64_t a[32];
  for (int l = 0; l < 32; l++) a[l] = addr + stride * (uint64_t)l;
  ws_emu_event ev = {0};
  ev.worker = worker;
  ev.block_linear = block;
  ev.warp = warp;
  ev.func = fx->k;
  ev.inst = &fx->k->insts[pc];
  ev.pc = (uint32_t)pc;
  ev.active = ev.exec = ~0u;
  ev.space = (uint8_t)space;
  ev.bytes = 4;
  ev.addr = a;
  ws_prof_inst(fx->p, &ev);
}

/* The same in global memory. */
static void strided_access(fixture *fx, int worker, uint32_t block, uint32_t warp, int pc,
                           uint64_t addr, uint64_t stride) {
  strided_access_in(fx, worker, block, warp, pc, addr, stride, WS_PTX_SP_GLOBAL);
}

/* Warp `warp` of block `block` reads (or writes) the 128-byte line at `addr`. */
static void line_access(fixture *fx, int worker, uint32_t block, uint32_t warp, int pc,
                        uint64_t addr) {
  strided_access(fx, worker, block, warp, pc, addr, 4);
}

static ws_profile *finish(fixture *fx) {
  ws_profile *pr = NULL;
  assert_ok_diag(ws_prof_finish(fx->p, &pr, &fx->d), &fx->d);
  return pr;
}

/* A report section of a profile as a tree the caller deletes. */
static cJSON *section_of(const ws_profile *p, const char *name) {
  char *text = ws_profile_section_json(p, name);
  cJSON *s = text ? cJSON_Parse(text) : NULL;
  free(text);
  return s;
}

static double cache_count(const ws_profile *pr, const char *level, const char *what) {
  cJSON *caches = section_of(pr, "caches");
  const cJSON *c = cJSON_GetObjectItem(caches, level);
  double v = cJSON_GetObjectItem(c, what)->valuedouble;
  cJSON_Delete(caches);
  return v;
}

/* The L1's and L2's lookups and hits and the DRAM bytes read. */
static void assert_caches(const ws_profile *pr, double l1_access, double l1_hit, double l2_access,
                          double l2_hit, double dram_read) {
  assert_close(cache_count(pr, "l1", "accesses"), l1_access, 0);
  assert_close(cache_count(pr, "l1", "hits"), l1_hit, 0);
  assert_close(cache_count(pr, "l2", "accesses"), l2_access, 0);
  assert_close(cache_count(pr, "l2", "hits"), l2_hit, 0);
  assert_close(pr->f.dram_read_bytes, dram_read, 0);
}

#define LINE(i) (0x1000000 + 128 * (uint64_t)(i))

/* Warps of a block interleave in L1.  One block of 2 warps (one SM); both
 * warps read lines X0..X7 in order; the emulator hands warp 0's eight
 * requests first, then warp 1's.  L1: one set of 4 lines.
 *   Interleaved (w0 X0, w1 X0, w0 X1, w1 X1, ...): w0's read of Xk misses
 *   (4 sectors), w1's hits (4 sectors): L1 64 accesses, 32 hits; L2 sees
 *   the 32 misses, none hits; DRAM 8 lines = 1024 bytes.
 *   Warp after warp: when w1 starts, X0..X3 were evicted by X4..X7 and
 *   each of w1's reads evicts the line it needs next: 0 L1 hits, 2048
 *   bytes from DRAM. */
static void warps_interleave_in_l1(void **s) {
  (void)s;
  geometry geo = {512, 1 << 20, 1, 32};
  fixture fx;
  setup(&fx, &geo, 1, 64, 0);
  ws_prof_block_begin(fx.p, 0, 0);
  for (uint32_t w = 0; w < 2; w++)
    for (int i = 0; i < 8; i++) line_access(&fx, 0, 0, w, I_LD, LINE(i));
  ws_prof_block_end(fx.p, 0, 0);
  ws_profile *pr = finish(&fx);
  assert_close(cache_count(pr, "l1", "accesses"), 64, 0);
  assert_close(cache_count(pr, "l1", "hits"), 32, 0);
  assert_close(pr->f.l1_hit_ratio, 0.5, 0);
  assert_close(pr->f.l2_hit_ratio, 0, 0);
  assert_close(pr->f.dram_read_bytes, 1024, 0);
  ws_profile_free(pr);
  teardown_fx(&fx);
}

/* SMs take turns at the L2.  Two blocks of one warp on two SMs, no L1;
 * both read X0..X7; L2: one set of 4 lines.
 *   Interleaved (SM0 X0, SM1 X0, SM0 X1, ...): SM1's read of each line
 *   hits what SM0 just brought: L2 64 sector accesses, 32 hits; DRAM 8
 *   lines = 1024 bytes.
 *   Block after block: block 1 finds X0..X3 evicted: 0 hits, 2048 bytes. */
static void sms_interleave_in_l2(void **s) {
  (void)s;
  geometry geo = {0, 512, 108, 32};
  fixture fx;
  setup(&fx, &geo, 2, 32, 0);
  for (uint32_t b = 0; b < 2; b++) {
    int wk = (int)b;
    ws_prof_block_begin(fx.p, wk, b);
    for (int i = 0; i < 8; i++) line_access(&fx, wk, b, 0, I_LD, LINE(i));
    ws_prof_block_end(fx.p, wk, b);
  }
  ws_profile *pr = finish(&fx);
  assert_close(cache_count(pr, "l2", "accesses"), 64, 0);
  assert_close(cache_count(pr, "l2", "hits"), 32, 0);
  assert_close(pr->f.dram_read_bytes, 1024, 0);
  ws_profile_free(pr);
  teardown_fx(&fx);
}

/* Resident blocks interleave; occupancy bounds how many.  One SM, no L1,
 * L2 one set of 4 lines; four blocks of one warp; blocks 0 and 1 read
 * X0..X7, blocks 2 and 3 read Y0..Y7 (other lines).  Blocks are handed
 * over in the order 3, 2, 1, 0 (the replay waits for block 0).
 *   2 blocks per SM: 0 and 1 run together (as in the test above: 8 line
 *   misses), then 2 and 3 (8 more): DRAM 16 lines = 2048 bytes, L2 hits
 *   64 of 128 sector accesses.
 *   1 block per SM: each block alone, every read misses: 32 lines = 4096
 *   bytes, 0 hits. */
static void resident_blocks_follow_occupancy(void **s) {
  (void)s;
  for (int per_sm = 1; per_sm <= 2; per_sm++) {
    geometry geo = {0, 512, 1, per_sm};
    fixture fx;
    setup(&fx, &geo, 4, 32, 0);
    for (int b = 3; b >= 0; b--) {
      ws_prof_block_begin(fx.p, b % 2, (uint32_t)b);
      for (int i = 0; i < 8; i++)
        line_access(&fx, b % 2, (uint32_t)b, 0, I_LD, LINE(i + (b >= 2 ? 64 : 0)));
      ws_prof_block_end(fx.p, b % 2, (uint32_t)b);
    }
    ws_profile *pr = finish(&fx);
    cJSON *c = section_of(pr, "caches");
    assert_close(cJSON_GetObjectItem(c, "blocks_per_sm")->valuedouble, per_sm, 0);
    cJSON_Delete(c);
    assert_close(cache_count(pr, "l2", "accesses"), 128, 0);
    assert_close(cache_count(pr, "l2", "hits"), per_sm == 2 ? 64 : 0, 0);
    assert_close(pr->f.dram_read_bytes, per_sm == 2 ? 2048 : 4096, 0);
    ws_profile_free(pr);
    teardown_fx(&fx);
  }
}

/* A streaming kernel's DRAM bytes are its footprint, exactly, whatever
 * the interleaving and even when the footprint dwarfs the L2: 64 blocks of
 * 4 warps on 8 SMs, 2 resident per SM (4 waves), L1 512 B, L2 4 KB; thread
 * i reads a[i] and b[i] and writes c[i] (three disjoint 32 KB arrays).
 * Every sector is touched once: DRAM reads 2 x 64 x 128 x 4 = 65536 bytes,
 * writes 32768 (each dirty sector written back once, on eviction or at the
 * end); no cache hits at all. */
static void streaming_dram_is_footprint(void **s) {
  (void)s;
  geometry geo = {512, 4096, 8, 2};
  fixture fx;
  setup(&fx, &geo, 64, 128, 0);
  const uint64_t a = 0x1000000, b = 0x2000000, c = 0x3000000;
  for (uint32_t blk = 0; blk < 64; blk++) {
    int wk = (int)(blk % 2);
    ws_prof_block_begin(fx.p, wk, blk);
    for (uint32_t w = 0; w < 4; w++) {
      uint64_t off = (blk * 128 + w * 32) * 4;
      line_access(&fx, wk, blk, w, I_LD, a + off);
      line_access(&fx, wk, blk, w, I_LD, b + off);
      line_access(&fx, wk, blk, w, I_ST, c + off);
    }
    ws_prof_block_end(fx.p, wk, blk);
  }
  ws_profile *pr = finish(&fx);
  assert_close(pr->f.dram_read_bytes, 65536, 0);
  assert_close(pr->f.dram_write_bytes, 32768, 0);
  assert_close(pr->f.l1_hit_ratio, 0, 0);
  assert_close(pr->f.l2_hit_ratio, 0, 0);
  ws_profile_free(pr);
  teardown_fx(&fx);
}

/* The grid estimate from a sample (docs/profile.md, "Sampling").  Ten
 * blocks of one warp, A100 (its 40 MB L2 holds everything); each block b
 * reads
 *   P: its own line, P + 128 b (10 lines, 40 sectors, shared by none);
 *   N: lines b and b + 1 of N (11 lines, 44 sectors: each shared with a
 *      neighbour; a block spans 2 of 11 lines);
 *   T: all 8 lines of T (32 sectors, every block spans all of it).
 * The full profile reads every sector once: (40 + 44 + 32) x 32 = 3712
 * bytes.  --sample-blocks 2 profiles blocks 2 and 7 (floor((2i + 1) x 10 /
 * 4)), scale 5; the replay moves P 8 sectors (U 8), N 16 (U 16), T 32
 * (block 7 hits what block 2 brought; U 32):
 *   P: U x 5 = 40 <= 40: not shared, R x 5 = 40;
 *   N: U x 5 = 80 > 44, span 2/11 < 1/2: neighbours, min(80, 44 + 0) = 44;
 *   T: U x 5 = 160 > 32, span 1: global; everything fits the L2, so every
 *      re-reference hits: F = 32.
 * Estimate 116 sectors = 3712 bytes, the full profile's; scaling the
 * sample would say (8 + 16 + 32) x 5 x 32 = 8960.  Each half (block 2 or
 * block 7 alone, scale 10) estimates the same 116: split-half error 0. */
static void sample_estimate_per_buffer(void **s) {
  (void)s;
  const uint64_t P = 0x1000000, N = 0x2000000, T = 0x3000000;
  const ws_emu_region regions[3] = {{P, 1280, "P"}, {N, 1408, "N"}, {T, 1024, "T"}};
  g_regions = regions;
  g_nregions = 3;
  for (int sampled = 0; sampled < 2; sampled++) {
    geometry geo = {0, 40 << 20, 108, 32};
    fixture fx;
    setup(&fx, &geo, 10, 32, sampled ? 2 : 0);
    for (uint32_t b = 0; b < 10; b++) {
      if (!ws_prof_sampled(fx.p, b)) continue;
      ws_prof_block_begin(fx.p, 0, b);
      line_access(&fx, 0, b, 0, I_LD, P + 128 * (uint64_t)b);
      line_access(&fx, 0, b, 0, I_LD, N + 128 * (uint64_t)b);
      line_access(&fx, 0, b, 0, I_LD, N + 128 * (uint64_t)(b + 1));
      for (int i = 0; i < 8; i++) line_access(&fx, 0, b, 0, I_LD, T + 128 * (uint64_t)i);
      ws_prof_block_end(fx.p, 0, b);
    }
    ws_profile *pr = finish(&fx);
    assert_close(pr->f.dram_read_bytes, 3712, 1e-9);
    assert_close(pr->f.dram_bytes_rel_error, 0, 0);
    if (sampled) {
      cJSON *sam = section_of(pr, "sampling");
      assert_close(cJSON_GetObjectItem(sam, "profiled_blocks")->valuedouble, 2, 0);
      const cJSON *halves = cJSON_GetObjectItem(sam, "split_half_dram_bytes");
      assert_int_equal(cJSON_GetArraySize(halves), 2);
      assert_close(cJSON_GetArrayItem(halves, 0)->valuedouble, 3712, 1e-9);
      assert_close(cJSON_GetArrayItem(halves, 1)->valuedouble, 3712, 1e-9);
      cJSON_Delete(sam);
    }
    ws_profile_free(pr);
    teardown_fx(&fx);
  }
  g_regions = NULL;
  g_nregions = 0;
}

/* A sample's two L2s: its share for the regions its blocks do not spread
 * over and a whole L2 for those they do, each taking its sectors of a
 * request in one batch (replay.c, request).  Both caches hold one line
 * (a GTX 680 with an L2 of one 128-byte way; one block of one: the share
 * is the whole L2's size), so the two must be kept apart.  Region A (256
 * bytes: lines A0, A1) is spread over (the block touches its first and
 * last sector), region B (64 KiB) is not (it touches 64 bytes).  One
 * warp's requests, sectors a0 (A's first), a7 (A's last, line A1), b0, b1
 * (B's first two, one line):
 *   R1 a0 b0:        a0 misses (whole: A0), b0 misses (share: B0);
 *   R2 a0 a7 b0 b1:  a0 hits, a7 misses (A1 evicts A0), b0 hits, b1
 *                    misses (its sector not filled yet);
 *   R3 b1 a7 a0:     b1 hits, a7 hits, a0 misses (A0 evicts A1).
 * L2: 9 sectors looked up, 4 hits, 5 read from DRAM.  One L2 for both
 * would give R2's a0 and b0 misses (each evicted by the other's line). */
static void sample_l2s_apart(void **s) {
  (void)s;
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g;
  assert_ok_diag(ws_gpu_load(&g, "gtx680", &d), &d);
  g->cache.l2_bytes = 128;
  g->cache.l2_assoc = 1;
  g->cache.l2_line_bytes = 128;
  g->cache.l2_sector_bytes = 32;
  const uint64_t A = 0x100000, B = 0x200000, a0 = A, a7 = A + 224, b0 = B, b1 = B + 32;
  const ws_rp_region regions[2] = {{A, 256}, {B, 65536}};
  ws_rp_config rc = {.nslots = 1, .grid_blocks = 1, .blocks_per_sm = 1, .track = 1,
                     .regions = regions, .nregions = 2};
  ws_replay *r = ws_prof_rp_new(g, &rc);
  assert_non_null(r);
  const uint64_t req[3][4] = {{a0, b0}, {a0, a7, b0, b1}, {b1, a7, a0}};
  const int len[3] = {2, 4, 3};
  ws_rp_trace t = {0};
  for (int q = 0; q < 3; q++)
    for (int i = 0; i < len[q]; i++) ws_prof_rp_trace_push(&t, req[q][i] | (i ? 0 : WS_RP_FIRST));
  ws_prof_rp_put(r, 0, &t, 1);
  ws_prof_rp_finish(r);
  const ws_rp_stats *cs = ws_prof_rp_stats_of(r);
  assert_int_equal(cs->l2_bytes, 128);
  assert_int_equal(cs->requests, 3);
  assert_int_equal(cs->l2_access, 9);
  assert_int_equal(cs->l2_hit, 4);
  assert_int_equal(cs->dram_read_sectors, 5);
  ws_prof_rp_trace_free(&t);
  ws_prof_rp_free(r);
  ws_gpu_free(g);
  ws_diag_free(&d);
}

/* Traces are lists of chunks (replay.h) that the replay reads in place.
 * 96 requests of 1 to 128 sectors (request q: 1 + (37 q) mod 128; n = 6,128
 * sectors, summed by hand), each of sectors no other request touches, and
 * then the same 96 again, appended as the profiler does
 * (ws_prof_rp_trace_room) to warp 0 and one entry at a time
 * (ws_prof_rp_trace_push) to warp 1 (its addresses moved by 32 MiB).
 * Checked against the plain array of the same entries: each trace, read
 * chunk after chunk, is that array, and no request straddles two chunks
 * (each chunk starts with a request's first entry).  Replayed on a GTX 680
 * (its L1 does not cache global loads) with a 1 MiB L2 that holds all 2n
 * distinct sectors (392 KiB): 4n L2 lookups, the second passes' 2n hit,
 * 2n sectors read from DRAM, 4 x 96 requests.  The record is given to two
 * replays (as a sample's halves share the profiler's); warp 0's chunks
 * (from the pool's slabs) come back to the pool when its last holder lets
 * it go, warp 1's (allocated on their own) are freed. */
enum { TR_REQS = 96 };

static uint32_t tr_len(int q) { return 1 + (uint32_t)(37 * q) % 128; }

static void check_trace(const ws_rp_trace *t, const uint64_t *want, size_t n) {
  size_t at = 0;
  for (const ws_rp_chunk *c = t->head; c; c = c->next) {
    assert_true(c->n > 0 && c->n <= WS_RP_CHUNK);
    assert_true(c->v[0] & WS_RP_FIRST);
    assert_true(at + c->n <= n);
    assert_memory_equal(c->v, want + at, c->n * sizeof *want);
    at += c->n;
  }
  assert_int_equal(at, n);
}

static void traces_chunked_in_place(void **s) {
  (void)s;
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g;
  assert_ok_diag(ws_gpu_load(&g, "gtx680", &d), &d);
  g->cache.l2_bytes = 1 << 20;
  g->cache.l2_assoc = 16;
  g->cache.l2_line_bytes = 128;
  g->cache.l2_sector_bytes = 32;
  size_t n = 0;
  for (int q = 0; q < TR_REQS; q++) n += tr_len(q);
  uint64_t *want = malloc(2 * n * sizeof *want);
  assert_non_null(want);
  size_t k = 0;
  for (int pass = 0; pass < 2; pass++)
    for (int q = 0, sec = 0; q < TR_REQS; q++)
      for (uint32_t i = 0; i < tr_len(q); i++, sec++)
        want[k++] = (0x1000000 + 32 * (uint64_t)sec) | (i ? 0 : WS_RP_FIRST);
  ws_rp_pool pool = {0};
  ws_rp_trace t[2] = {{0}};
  for (int pass = 0, at = 0; pass < 2; pass++)
    for (int q = 0; q < TR_REQS; at += (int)tr_len(q), q++) {
      uint64_t *o = ws_prof_rp_trace_room(&t[0], tr_len(q), &pool);
      assert_non_null(o);
      memcpy(o, want + at, tr_len(q) * sizeof *o);
      t[0].tail->n += tr_len(q);
    }
  for (size_t i = 0; i < 2 * n; i++) ws_prof_rp_trace_push(&t[1], want[i] ^ 0x2000000);
  check_trace(&t[0], want, 2 * n);
  for (size_t i = 0; i < 2 * n; i++) want[i] ^= 0x2000000;
  check_trace(&t[1], want, 2 * n);
  size_t chunks[2] = {0, 0};
  for (int w = 0; w < 2; w++)
    for (const ws_rp_chunk *c = t[w].head; c; c = c->next) chunks[w]++;
  assert_true(chunks[0] > WS_RP_SLAB / 2 && chunks[1] > WS_RP_SLAB / 2);

  ws_rp_config rc = {.nslots = 1, .grid_blocks = 1, .blocks_per_sm = 1};
  ws_replay *r[2] = {ws_prof_rp_new(g, &rc), ws_prof_rp_new(g, &rc)};
  assert_non_null(r[0]);
  assert_non_null(r[1]);
  const size_t spare = pool.n; /* the last slab's chunks not taken */
  ws_rp_record *rec = ws_prof_rp_record_take(t, 2, &pool);
  assert_non_null(rec);
  assert_null(t[0].head);
  ws_prof_rp_give(r[0], 0, rec); /* replayed at once, and let go */
  ws_prof_rp_give(r[1], 0, rec);
  ws_prof_rp_finish(r[0]);
  ws_prof_rp_finish(r[1]);
  assert_int_equal(pool.n, spare); /* the caller still holds the record */
  ws_prof_rp_record_release(rec);
  assert_int_equal(pool.n, spare + chunks[0]); /* warp 1's, of their own, are freed */
  for (int i = 0; i < 2; i++) {
    const ws_rp_stats *cs = ws_prof_rp_stats_of(r[i]);
    assert_int_equal(cs->requests, 4 * TR_REQS);
    assert_int_equal(cs->l2_access, 4 * n);
    assert_int_equal(cs->l2_hit, 2 * n);
    assert_int_equal(cs->dram_read_sectors, 2 * n);
    assert_int_equal(cs->lost_records, 0);
    ws_prof_rp_free(r[i]);
  }
  ws_prof_rp_pool_free(&pool);
  free(want);
  ws_gpu_free(g);
  ws_diag_free(&d);
}

/* Fermi's L1 fetches whole 128-byte lines (docs/profile.md, "Caches"): on
 * the Tesla C2050 (CC 2.0: global loads cached in L1, 128-byte lines
 * without smaller sectors, cache.l1_sector_bytes 128), an L1 miss asks the
 * L2 for the line's four 32-byte sectors ("each thread will incur one
 * 128-byte L1 transaction and four 32-byte L2 transactions", Nsight VSE,
 * Memory Statistics - Caches).  One warp (one SM, the board's own caches:
 * L1 16 KB, L2 768 KB, both empty at the start):
 *   1. lanes read a[32 l] (4 bytes, a stride of 32 floats): 32 lines, one
 *      sector each: L1 32 lookups, 32 misses; L2 32 x 4 = 128 lookups, all
 *      miss: DRAM 128 sectors = 4096 bytes (32 x 128; the sector alone
 *      would be 32 x 32 = 1024);
 *   2. lanes read b[l] (128 contiguous bytes, one line): L1 4 lookups, the
 *      first misses and brings the line, the other three hit it; L2 4
 *      lookups, all miss: 128 bytes (32 before);
 *   3. and 4. both again: the 33 lines are in L1 (a contiguous run of 33
 *      lines puts at most ceil(33 / 8) + 1 = 6 in any of the 8 sets of 16
 *      ways, docs/profile.md "Sets"): 36 lookups, 36 hits, no L2 access.
 * Totals: L1 72 sector lookups, 3 + 36 = 39 hits; L2 132 lookups, 0 hits;
 * DRAM 4224 bytes.  Before the fix the L2 saw only the missed 32-byte
 * sectors: 33 lookups, 1056 bytes.  The L1's lookups and hits are counted
 * per line of a request (fermi_l1_counts_lines): 1. 32 lines, 32 misses;
 * 2. one line, a miss; 3. and 4. 33 lines, 33 hits: L1 66 lookups, 33
 * hits (72 and 39 per sector).
 *   The same warp on a Kepler K20 (CC 3.5: global loads cached in L2 only)
 * and on an A100 (32-byte sectors in L1) fetches sectors: the strided read
 * 32 sectors, the contiguous one 4: 36 L2 lookups, 1152 bytes, whatever
 * the L1 does (the K20's holds no global loads: every pass goes to the L2,
 * 72 lookups, 36 of them hits; the A100's hits on the second pass). */
static void fermi_l1_fetches_lines(void **s) {
  (void)s;
  const uint64_t a = 0x1000000, b = a + 32 * 128;
  static const struct {
    const char *gpu;
    double l1_access, l1_hit, l2_access, l2_hit, dram;
  } want[] = {
      {"c2050", 66, 33, 132, 0, 4224},
      {"k20", 0, 0, 72, 36, 1152},
      {"a100", 72, 36, 36, 0, 1152},
  };
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    fixture fx;
    setup_gpu(&fx, want[i].gpu, NULL, 1, 32, 0);
    ws_prof_block_begin(fx.p, 0, 0);
    for (int pass = 0; pass < 2; pass++) {
      strided_access(&fx, 0, 0, 0, I_LD, a, 128);
      line_access(&fx, 0, 0, 0, I_LD, b);
    }
    ws_prof_block_end(fx.p, 0, 0);
    ws_profile *pr = finish(&fx);
    print_message("%s\n", want[i].gpu);
    assert_close(cache_count(pr, "l1", "accesses"), want[i].l1_access, 0);
    assert_close(cache_count(pr, "l1", "hits"), want[i].l1_hit, 0);
    assert_close(cache_count(pr, "l2", "accesses"), want[i].l2_access, 0);
    assert_close(cache_count(pr, "l2", "hits"), want[i].l2_hit, 0);
    assert_close(pr->f.dram_read_bytes, want[i].dram, 0);
    ws_profile_free(pr);
    teardown_fx(&fx);
  }
}

/* The average transactions of the first instruction with global requests
 * (the only one in the tests below). */
static double first_avg_transactions(const ws_profile *pr) {
  cJSON *sec = section_of(pr, "global_memory_insts");
  const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(sec, "insts"), 0);
  double v = cJSON_GetObjectItem(row, "avg_transactions")->valuedouble;
  cJSON_Delete(sec);
  return v;
}

/* Cache operators and memory-model qualifiers (docs/profile.md, "Cache
 * operators").  One warp of one block reads the 128-byte line at `a` (32
 * consecutive floats: 4 sectors) twice with the same instruction, caches
 * cold:
 *   On the A100 (L1 caches global loads, 32-byte sectors):
 *   - served by L1 (plain ld, .ca, .cs, .lu, .relaxed.cta; .nc, the A100
 *     having no separate read-only cache; ld.local.cg in local memory):
 *     pass 1 misses L1 (4 lookups) and L2 (4 lookups, 128 bytes from
 *     DRAM), pass 2 hits L1 (4 lookups, 4 hits): L1 8 / 4, L2 4 / 0;
 *   - served by L2 (.cg, .cv, .volatile, .relaxed.gpu, .acquire.sys): no
 *     L1 lookup; pass 1 misses L2 (4), pass 2 hits it (4): L1 0 / 0,
 *     L2 8 / 4.
 *   32-byte sectors: 4 transactions a request either way.
 *   On the C2050 (Fermi: L1 caches global loads in 128-byte lines, a miss
 *   fetches the line, lookups counted per line): plain: pass 1's line
 *   misses and is fetched (4 L2 lookups), pass 2's hits: L1 2 / 1, L2
 *   4 / 0; 1 transaction (one 128-byte line).  .cg: L1 0 / 0, L2 8 / 4 as
 *   above, and 4 transactions (32-byte segments: CC 2.x loads cached in L2
 *   only).
 *   On the K20 (L1 holds local loads only): plain and .cg alike, L1 0 / 0,
 *   L2 8 / 4, 4 transactions.
 * DRAM 128 bytes in every case.  Before L1 bypass every global load was
 * served as a plain one (the .cg row of the A100 read L1 8 / 4). */
static void cache_operators(void **s) {
  (void)s;
  const uint64_t a = 0x1000000;
  static const struct {
    const char *gpu;
    int pc, space;
    double l1_access, l1_hit, l2_access, l2_hit, trans;
  } want[] = {
      {"a100", I_LD, WS_PTX_SP_GLOBAL, 8, 4, 4, 0, 4},
      {"a100", I_LD_CA, WS_PTX_SP_GLOBAL, 8, 4, 4, 0, 4},
      {"a100", I_LD_CS, WS_PTX_SP_GLOBAL, 8, 4, 4, 0, 4},
      {"a100", I_LD_LU, WS_PTX_SP_GLOBAL, 8, 4, 4, 0, 4},
      {"a100", I_LD_RELAXED_CTA, WS_PTX_SP_GLOBAL, 8, 4, 4, 0, 4},
      {"a100", I_LD_NC, WS_PTX_SP_GLOBAL, 8, 4, 4, 0, 4},
      {"a100", I_LD_LOCAL_CG, WS_PTX_SP_LOCAL, 8, 4, 4, 0, 4},
      {"a100", I_LD_CG, WS_PTX_SP_GLOBAL, 0, 0, 8, 4, 4},
      {"a100", I_LD_CV, WS_PTX_SP_GLOBAL, 0, 0, 8, 4, 4},
      {"a100", I_LD_VOLATILE, WS_PTX_SP_GLOBAL, 0, 0, 8, 4, 4},
      {"a100", I_LD_RELAXED_GPU, WS_PTX_SP_GLOBAL, 0, 0, 8, 4, 4},
      {"a100", I_LD_ACQUIRE_SYS, WS_PTX_SP_GLOBAL, 0, 0, 8, 4, 4},
      {"c2050", I_LD, WS_PTX_SP_GLOBAL, 2, 1, 4, 0, 1},
      {"c2050", I_LD_CG, WS_PTX_SP_GLOBAL, 0, 0, 8, 4, 4},
      {"c2050", I_LD_VOLATILE, WS_PTX_SP_GLOBAL, 0, 0, 8, 4, 4},
      {"k20", I_LD, WS_PTX_SP_GLOBAL, 0, 0, 8, 4, 4},
      {"k20", I_LD_CG, WS_PTX_SP_GLOBAL, 0, 0, 8, 4, 4},
  };
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    fixture fx;
    setup_gpu(&fx, want[i].gpu, NULL, 1, 32, 0);
    ws_prof_block_begin(fx.p, 0, 0);
    for (int pass = 0; pass < 2; pass++) strided_access_in(&fx, 0, 0, 0, want[i].pc, a, 4, want[i].space);
    ws_prof_block_end(fx.p, 0, 0);
    ws_profile *pr = finish(&fx);
    print_message("%s, instruction %d\n", want[i].gpu, want[i].pc);
    assert_caches(pr, want[i].l1_access, want[i].l1_hit, want[i].l2_access, want[i].l2_hit, 128);
    assert_close(first_avg_transactions(pr), want[i].trans, 0);
    ws_profile_free(pr);
    teardown_fx(&fx);
  }
}

/* An L2-served load neither looks L1 up nor fills it.  On the A100 one
 * warp reads line X with ld.global.cg, ld, ld, ld.global.cg:
 *   cg 1: L2 4 misses (128 bytes from DRAM), L1 untouched;
 *   ld 1: L1 4 misses (cg 1 did not fill it), L2 4 hits;
 *   ld 2: L1 4 hits;
 *   cg 2: L2 4 hits (not the L1, which holds X now).
 * L1 8 lookups, 4 hits; L2 12 lookups, 8 hits.  (Served as plain loads:
 * L1 16 / 12, L2 4 / 0.) */
static void l1_bypass_neither_reads_nor_fills(void **s) {
  (void)s;
  const uint64_t a = 0x1000000;
  fixture fx;
  setup_gpu(&fx, "a100", NULL, 1, 32, 0);
  ws_prof_block_begin(fx.p, 0, 0);
  line_access(&fx, 0, 0, 0, I_LD_CG, a);
  line_access(&fx, 0, 0, 0, I_LD, a);
  line_access(&fx, 0, 0, 0, I_LD, a);
  line_access(&fx, 0, 0, 0, I_LD_CG, a);
  ws_prof_block_end(fx.p, 0, 0);
  ws_profile *pr = finish(&fx);
  assert_caches(pr, 8, 4, 12, 8, 128);
  ws_profile_free(pr);
  teardown_fx(&fx);
}

/* Stores with a cache operator or a memory-model qualifier are replayed as
 * plain stores (docs/profile.md, "Cache operators": the L1 is
 * write-through and does not allocate on a store, so every store is served
 * by the L2 already).  On the A100 one warp reads line X, stores it with
 * the store under test, and reads it again:
 *   ld 1: L1 4 misses, L2 4 misses (128 bytes from DRAM);
 *   st: the L2's 4 sectors hit and become dirty (written back at the end:
 *   128 bytes); the L1's present sectors are updated, not counted;
 *   ld 2: L1 4 hits.
 * L1 8 / 4, L2 8 / 4, DRAM 128 bytes read and 128 written, for st,
 * st.global.cg, st.volatile.global and st.release.gpu.global alike. */
static void stores_with_operators_are_plain(void **s) {
  (void)s;
  const uint64_t a = 0x1000000;
  static const int st[] = {I_ST, I_ST_CG, I_ST_VOLATILE, I_ST_RELEASE_GPU};
  for (size_t i = 0; i < sizeof st / sizeof *st; i++) {
    fixture fx;
    setup_gpu(&fx, "a100", NULL, 1, 32, 0);
    ws_prof_block_begin(fx.p, 0, 0);
    line_access(&fx, 0, 0, 0, I_LD, a);
    line_access(&fx, 0, 0, 0, st[i], a);
    line_access(&fx, 0, 0, 0, I_LD, a);
    ws_prof_block_end(fx.p, 0, 0);
    ws_profile *pr = finish(&fx);
    print_message("store instruction %d\n", st[i]);
    assert_caches(pr, 8, 4, 8, 4, 128);
    assert_close(pr->f.dram_write_bytes, 128, 0);
    ws_profile_free(pr);
    teardown_fx(&fx);
  }
}

/* Fermi's L1 lookups and hits are counted per line of a request, as
 * nvprof's l1_global_load_hit / _miss (docs/profile.md, "Caches").  On the
 * C2050 one warp reads four lines, each with 32 lanes of 4 consecutive
 * bytes (a stream), then reads from the fourth line on with lanes 8 bytes
 * apart (256 bytes: the fourth line and a fifth):
 *   reads 1-4: one line each, each misses: 4 lookups, 0 hits (per sector:
 *     16 lookups, 12 hits, a ratio of 0.75);
 *   read 5: two lines, the fourth present (a hit), the fifth not (a miss):
 *     2 lookups, 1 hit (per sector: 8 lookups, 4 + 3 = 7 hits).
 * L1 6 lookups, 1 hit; L2 5 lines x 4 sectors = 20 lookups, 0 hits, DRAM
 * 640 bytes (the L2 side as before).  On the A100 (32-byte sectors) the
 * count stays per sector: reads 1-4: 16 lookups, 0 hits; read 5: 8
 * lookups, the fourth line's 4 hit: L1 24 / 4; L2 16 + 4 = 20 lookups, 0
 * hits, 640 bytes. */
static void fermi_l1_counts_lines(void **s) {
  (void)s;
  const uint64_t a = 0x1000000;
  static const struct {
    const char *gpu;
    double l1_access, l1_hit;
  } want[] = {{"c2050", 6, 1}, {"a100", 24, 4}};
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    fixture fx;
    setup_gpu(&fx, want[i].gpu, NULL, 1, 32, 0);
    ws_prof_block_begin(fx.p, 0, 0);
    for (int k = 0; k < 4; k++) line_access(&fx, 0, 0, 0, I_LD, a + 128 * (uint64_t)k);
    strided_access(&fx, 0, 0, 0, I_LD, a + 3 * 128, 8);
    ws_prof_block_end(fx.p, 0, 0);
    ws_profile *pr = finish(&fx);
    print_message("%s\n", want[i].gpu);
    assert_caches(pr, want[i].l1_access, want[i].l1_hit, 20, 0, 640);
    ws_profile_free(pr);
    teardown_fx(&fx);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(warps_interleave_in_l1),
      cmocka_unit_test(sms_interleave_in_l2),
      cmocka_unit_test(resident_blocks_follow_occupancy),
      cmocka_unit_test(streaming_dram_is_footprint),
      cmocka_unit_test(sample_estimate_per_buffer),
      cmocka_unit_test(sample_l2s_apart),
      cmocka_unit_test(traces_chunked_in_place),
      cmocka_unit_test(fermi_l1_fetches_lines),
      cmocka_unit_test(cache_operators),
      cmocka_unit_test(l1_bypass_neither_reads_nor_fills),
      cmocka_unit_test(stores_with_operators_are_plain),
      cmocka_unit_test(fermi_l1_counts_lines),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
