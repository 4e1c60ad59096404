/*
 * test_profiler.c — the profiler's kernel-level figures from synthetic
 * instruction streams (what the emulator's hooks deliver), against values
 * derived by hand in the comments.  The instructions are real parsed PTX so
 * classes and flops come from the IR; only the lanes and addresses are
 * synthetic.
 */
#include <string.h>

#include <cjson/cJSON.h>

#include "testutil.h"
#include "warpsight/analysis.h"
#include "warpsight/gpu.h"
#include "warpsight/model.h"
#include "warpsight/profiler.h"
#include "warpsight/ptx.h"

/* The kernels' first lines: kernel k(a). */
#define K_HEAD ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 a)\n{\n"

static const char ptx[] =
    K_HEAD
    "  .reg .b32 %r<4>;\n"
    "  .reg .f32 %f<4>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  .reg .pred %p<2>;\n"
    "  ld.global.f32 %f1, [%rd1];\n"          /* 0 */
    "  ld.global.f32 %f2, [%rd1];\n"          /* 1 */
    "  st.global.f32 [%rd1], %f1;\n"          /* 2 */
    "  st.shared.f32 [%rd2], %f1;\n"          /* 3 */
    "  fma.rn.f32 %f3, %f1, %f2, %f1;\n"      /* 4 */
    "  add.rn.f16x2 %r1, %r2, %r3;\n"         /* 5 */
    "  bar.sync 0;\n"                         /* 6 */
    "  @%p1 bra L1;\n"                        /* 7 */
    "  add.s32 %r1, %r1, 1;\n"                /* 8 */
    "L1:\n"
    "  exit;\n"                               /* 9 */
    "}\n";

/* A loop: block 0 (two independent movs), block 1 (a dependent chain
 * add -> setp -> bra, run 10 times), block 2 (exit). */
static const char ptx_loop[] =
    K_HEAD
    "  .reg .b32 %r<4>;\n"
    "  .reg .pred %p<2>;\n"
    "  mov.u32 %r1, 0;\n"                    /* 0 */
    "  mov.u32 %r2, 1;\n"                    /* 1 */
    "L1:\n"
    "  add.s32 %r1, %r1, 1;\n"               /* 2 */
    "  setp.lt.s32 %p1, %r1, 10;\n"          /* 3 */
    "  @%p1 bra L1;\n"                       /* 4 */
    "  exit;\n"                              /* 5 */
    "}\n";
static const char *cur_ptx = ptx;

enum { I_LD0, I_LD1, I_ST, I_STS, I_FMA, I_HADD2, I_BAR, I_BRA, I_ADD, I_EXIT };

typedef struct fixture {
  ws_ptx_module *m;
  const ws_ptx_function *k;
  ws_gpu *g;
  ws_prof *p;
  ws_diag d;
} fixture;

static void setup(fixture *fx, const char *gpu, uint32_t blocks, uint32_t threads,
                  uint64_t sample, int workers) {
  memset(fx, 0, sizeof *fx);
  assert_ok_diag(ws_ptx_parse(&fx->m, cur_ptx, strlen(cur_ptx), "test.ptx", &fx->d), &fx->d);
  fx->k = ws_ptx_find_function(fx->m, "k");
  assert_non_null(fx->k);
  assert_ok_diag(ws_gpu_load(&fx->g, gpu, &fx->d), &fx->d);
  ws_prof_config c = {0};
  c.module = fx->m;
  c.kernel = fx->k;
  c.gpu = fx->g;
  c.grid[0] = blocks, c.grid[1] = 1, c.grid[2] = 1;
  c.block[0] = threads, c.block[1] = 1, c.block[2] = 1;
  c.workers = workers;
  c.sample_blocks = sample;
  c.resources.registers_per_thread = c.resources.shared_bytes_per_block = NAN;
  c.resources.local_bytes_per_thread = NAN;
  assert_ok_diag(ws_prof_new(&fx->p, &c, &fx->d), &fx->d);
}

static void teardown_fx(fixture *fx) {
  ws_prof_free(fx->p);
  ws_gpu_free(fx->g);
  ws_ptx_module_free(fx->m);
  ws_diag_free(&fx->d);
}

static void emit(fixture *fx, int worker, uint32_t block, uint32_t warp, int pc, uint32_t active,
                 uint32_t exec, uint32_t taken, uint8_t space, const uint64_t *addr) {
  ws_emu_event ev = {0};
  ev.worker = worker;
  ev.block_linear = block;
  ev.warp = warp;
  ev.func = fx->k;
  ev.inst = &fx->k->insts[pc];
  ev.pc = (uint32_t)pc;
  ev.active = active;
  ev.exec = exec;
  ev.taken = taken;
  ev.space = space;
  ev.bytes = 4;
  ev.addr = addr;
  ws_prof_inst(fx->p, &ev);
}

/* A report section of a profile as a tree the caller deletes. */
static cJSON *section_of(const ws_profile *p, const char *name) {
  char *text = ws_profile_section_json(p, name);
  cJSON *s = text ? cJSON_Parse(text) : NULL;
  free(text);
  return s;
}

static ws_profile *finish(fixture *fx) {
  ws_profile *pr = NULL;
  assert_ok_diag(ws_prof_finish(fx->p, &pr, &fx->d), &fx->d);
  /* What the profiler writes must load back as a valid profile. */
  char *json = ws_profile_to_json(pr);
  ws_profile *back = NULL;
  assert_ok_diag(ws_profile_load_json(&back, json, "profile", &fx->d), &fx->d);
  ws_profile_free(back);
  free(json);
  return pr;
}

/* Kothapalli et al. Appendix B.1, thread t reads a[idx(t)] with
 *   idx(t) = (t / STRIDE) * 256 * STRIDE + ((t + OFFSET) % STRIDE),
 * 4-byte floats at a 256-byte aligned base.  Warp w's first thread is
 * t0 = 32w, a multiple of STRIDE, so its lanes see warp 0's pattern shifted
 * by t0 / STRIDE * 256 * STRIDE * 4 = 1024 * t0 bytes, a multiple of every
 * segment, line and sector: every warp needs warp 0's transactions, and the
 * kernel-level average equals tests/unit/test_memsim.c's per-warp values:
 *   CC 1.1  OFFSET 0: 32 32 32 32 2 2;  OFFSET 1: 32 for every STRIDE
 *   CC 1.3  32 16 8 4 2 2      CC 2.0 (L1)  32 16 8 4 2 1
 *   CC 8.0  32 16 8 4 4 4 */
static void coalescing_kernel_levels(void **s) {
  (void)s;
  static const struct {
    const char *gpu;
    double t[2][6];
  } rows[] = {
      {"8800gt", {{32, 32, 32, 32, 2, 2}, {32, 32, 32, 32, 32, 32}}},
      {"gtx280", {{32, 16, 8, 4, 2, 2}, {32, 16, 8, 4, 2, 2}}},
      {"c2050", {{32, 16, 8, 4, 2, 1}, {32, 16, 8, 4, 2, 1}}},
      {"a100", {{32, 16, 8, 4, 4, 4}, {32, 16, 8, 4, 4, 4}}},
  };
  const int strides[6] = {1, 2, 4, 8, 16, 32};
  for (size_t g = 0; g < sizeof rows / sizeof rows[0]; g++)
    for (int off = 0; off < 2; off++)
      for (int si = 0; si < 6; si++) {
        fixture fx;
        setup(&fx, rows[g].gpu, 4, 64, 0, 1);
        int stride = strides[si];
        for (uint32_t b = 0; b < 4; b++) {
          ws_prof_block_begin(fx.p, 0, b);
          for (uint32_t w = 0; w < 2; w++) {
            uint64_t addr[32];
            for (int l = 0; l < 32; l++) {
              uint64_t t = b * 64 + w * 32 + (uint64_t)l;
              uint64_t idx = t / (uint64_t)stride * 256 * (uint64_t)stride + (t + (uint64_t)off) % (uint64_t)stride;
              addr[l] = 0x10000000 + 4 * idx;
            }
            emit(&fx, 0, b, w, I_LD0, ~0u, ~0u, 0, WS_PTX_SP_GLOBAL, addr);
          }
          ws_prof_block_end(fx.p, 0, b);
        }
        ws_profile *pr = finish(&fx);
        double want = rows[g].t[off][si];
        if (pr->f.avg_trans_warp != want) {
          print_error("%s STRIDE %d OFFSET %d: %g transactions per request, expected %g\n",
                      rows[g].gpu, stride, off, pr->f.avg_trans_warp, want);
          fail();
        }
        /* Hong & Kim's split: one request per warp, coalesced iff it needs
         * no more transactions than 128 contiguous aligned bytes: CC 1.x one
         * 64-byte transaction per half-warp = 2; CC 2.0 one 128-byte line;
         * CC 8.0 four 32-byte sectors. */
        double best = g < 2 ? 2 : (g == 2 ? 1 : 4);
        assert_close(pr->f.coal_mem_insts, want <= best ? 1 : 0, 0);
        assert_close(pr->f.uncoal_mem_insts, want <= best ? 0 : 1, 0);
        if (want > best) assert_close(pr->f.uncoal_per_mw, want, 0);
        assert_close(pr->f.comp_insts, 0, 0);
        assert_close(pr->f.load_bytes_per_warp, 128, 0); /* 32 lanes x 4 B */
        ws_profile_free(pr);
        teardown_fx(&fx);
      }
}

/* Kothapalli et al. Appendix B.2: lane t stores S[(t * BANK) % 512].  The
 * degree is gcd(BANK, banks) (BANK 0: one word, no conflict); the replays
 * per request are passes - min passes: 32 banks: gcd - 1; 16 banks per
 * half-warp: 2 x gcd(BANK, 16) - 2. */
static unsigned gcd(unsigned a, unsigned b) { return b ? gcd(b, a % b) : a; }

static void bank_conflict_kernel(void **s) {
  (void)s;
  for (int g = 0; g < 2; g++) {
    const char *gpu = g ? "gtx280" : "a100";
    unsigned banks = g ? 16 : 32;
    for (unsigned bank = 0; bank <= 16; bank++) {
      fixture fx;
      setup(&fx, gpu, 2, 32, 0, 1);
      for (uint32_t b = 0; b < 2; b++) {
        ws_prof_block_begin(fx.p, 0, b);
        uint64_t addr[32];
        for (unsigned t = 0; t < 32; t++) addr[t] = 4 * ((t * bank) % 512);
        emit(&fx, 0, b, 0, I_STS, ~0u, ~0u, 0, WS_PTX_SP_SHARED, addr);
        ws_prof_block_end(fx.p, 0, b);
      }
      ws_profile *pr = finish(&fx);
      unsigned deg = bank ? gcd(bank, banks) : 1;
      double replays = banks == 32 ? deg - 1.0 : 2.0 * deg - 2.0;
      cJSON *smi = section_of(pr, "shared_memory_insts");
      const cJSON *ins = cJSON_GetObjectItem(smi, "insts");
      assert_int_equal(cJSON_GetArraySize(ins), 1);
      double got = cJSON_GetObjectItem(cJSON_GetArrayItem(ins, 0), "avg_conflict_degree")->valuedouble;
      cJSON_Delete(smi);
      if (got != deg || pr->f.bank_conflict_replays != replays) {
        print_error("%s BANK %u: degree %g replays %g, expected %u and %g\n", gpu, bank, got,
                    pr->f.bank_conflict_replays, deg, replays);
        fail();
      }
      assert_close(pr->f.shared_mem_insts, 1, 0);
      assert_close(pr->f.comp_insts, 1, 0); /* shared accesses are computation */
      ws_profile_free(pr);
      teardown_fx(&fx);
    }
  }
}

/* A100 (L1 caches global loads).  Strided kernel: lane l reads word 8l
 * (32 bytes apart: one sector per lane, 32 distinct sectors), and the warp
 * reads the same addresses again with the next instruction.  First read:
 * 32 L1 misses -> 32 L2 misses -> 32 sectors from DRAM; second read: 32
 * L1 hits.  L1 hit ratio 32/64 = 0.5; L2 sees 32 accesses, 0 hits; DRAM
 * reads 32 x 32 B = 1024 B per warp; the miss ratio is 32 DRAM sectors /
 * 64 load sectors = 0.5.  Each warp of 4 blocks x 2 warps uses its own
 * 8 KB window (window 0x10000 apart), so nothing is shared. */
static void cache_strided_twice(void **s) {
  (void)s;
  fixture fx;
  setup(&fx, "a100", 4, 64, 0, 1);
  for (uint32_t b = 0; b < 4; b++) {
    ws_prof_block_begin(fx.p, 0, b);
    for (uint32_t w = 0; w < 2; w++) {
      uint64_t addr[32];
      for (int l = 0; l < 32; l++) addr[l] = 0x1000000 + (b * 2 + w) * 0x10000 + 32 * (uint64_t)l;
      emit(&fx, 0, b, w, I_LD0, ~0u, ~0u, 0, WS_PTX_SP_GLOBAL, addr);
      emit(&fx, 0, b, w, I_LD1, ~0u, ~0u, 0, WS_PTX_SP_GLOBAL, addr);
    }
    ws_prof_block_end(fx.p, 0, b);
  }
  ws_profile *pr = finish(&fx);
  assert_close(pr->f.l1_hit_ratio, 0.5, 0);
  assert_close(pr->f.l2_hit_ratio, 0, 0);
  assert_close(pr->f.miss_ratio, 0.5, 0);
  assert_close(pr->f.dram_read_bytes, 8 * 1024, 0);
  assert_close(pr->f.dram_write_bytes, 0, 0);
  assert_close(pr->f.avg_trans_warp, 32, 0); /* 32 sectors per request */
  ws_profile_free(pr);
  teardown_fx(&fx);
}

/* Store then load of the same 128-byte line per warp (A100).  The store
 * goes through to L2 (write-allocate: 4 sector misses, no DRAM read); the
 * load misses L1 (stores do not allocate there) and hits those 4 L2
 * sectors.  L2: 8 accesses, 4 hits = 0.5; L1: 4 accesses, 0 hits; no DRAM
 * reads; the 4 dirty sectors are written back at the end: 128 B per warp. */
static void cache_store_then_load(void **s) {
  (void)s;
  fixture fx;
  setup(&fx, "a100", 2, 32, 0, 1);
  for (uint32_t b = 0; b < 2; b++) {
    ws_prof_block_begin(fx.p, 0, b);
    uint64_t addr[32];
    for (int l = 0; l < 32; l++) addr[l] = 0x2000000 + b * 0x1000 + 4 * (uint64_t)l;
    emit(&fx, 0, b, 0, I_ST, ~0u, ~0u, 0, WS_PTX_SP_GLOBAL, addr);
    emit(&fx, 0, b, 0, I_LD0, ~0u, ~0u, 0, WS_PTX_SP_GLOBAL, addr);
    ws_prof_block_end(fx.p, 0, b);
  }
  ws_profile *pr = finish(&fx);
  assert_close(pr->f.l2_hit_ratio, 0.5, 0);
  assert_close(pr->f.l1_hit_ratio, 0, 0);
  assert_close(pr->f.dram_read_bytes, 0, 0);
  assert_close(pr->f.dram_write_bytes, 2 * 128, 0);
  assert_close(pr->f.miss_ratio, 0, 0);
  ws_profile_free(pr);
  teardown_fx(&fx);
}

/* Random reads from a 4 KB table (128 sectors, fits any L1) by one block of
 * 8 warps on one SM: after the first touch every sector hits, so the L1 hit
 * ratio is 1 - distinct sectors / sector accesses, counted here directly
 * from the addresses (an independent reference: a set, no cache model). */
static void cache_random_small_table(void **s) {
  (void)s;
  fixture fx;
  setup(&fx, "a100", 1, 256, 0, 1);
  uint8_t seen[128] = {0};
  double accesses = 0, distinct = 0;
  uint64_t x = 12345;
  ws_prof_block_begin(fx.p, 0, 0);
  for (uint32_t w = 0; w < 8; w++) {
    uint64_t addr[32];
    uint8_t here[128] = {0};
    for (int l = 0; l < 32; l++) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      uint64_t word = (x >> 33) % 1024;
      addr[l] = 0x3000000 + 4 * word;
      uint64_t sec = word * 4 / 32;
      if (!here[sec]) here[sec] = 1, accesses++;
      if (!seen[sec]) seen[sec] = 1, distinct++;
    }
    emit(&fx, 0, 0, w, I_LD0, ~0u, ~0u, 0, WS_PTX_SP_GLOBAL, addr);
  }
  ws_prof_block_end(fx.p, 0, 0);
  ws_profile *pr = finish(&fx);
  assert_close(pr->f.l1_hit_ratio, 1.0 - distinct / accesses, 1e-12);
  assert_close(pr->f.dram_read_bytes, distinct * 32, 0);
  ws_profile_free(pr);
  teardown_fx(&fx);
}

/* Divergence: one warp of 32.  The branch splits it 16/16 (taken = lanes
 * 0-15); the fall-through path runs add (lanes 16-31), then lanes 0-15 run
 * fma and add.f16x2, then lanes 16-31 exit at `exit` and lanes 0-15 run
 * the barrier alone and exit.
 *   extra = sum (1 - active / live):  add 0.5, fma 0.5, hadd2 0.5, exit
 *   (16 of 32 live) 0.5; after lanes 16-31 exit, live = 16: bar 0, exit 0
 *   -> 2.0.  One branch, divergent: fraction 1.
 *   flops: fma 2 x 16 lanes + f16x2 add 2 halves x 16 lanes = 64.
 *   instructions: bra, add, fma, hadd2, exit, bar, exit = 7; fp 2, synch 1. */
static void divergence_and_flops(void **s) {
  (void)s;
  fixture fx;
  setup(&fx, "a100", 1, 32, 0, 1);
  ws_prof_block_begin(fx.p, 0, 0);
  emit(&fx, 0, 0, 0, I_BRA, ~0u, ~0u, 0xffffu, 0, NULL);
  emit(&fx, 0, 0, 0, I_ADD, 0xffff0000u, 0xffff0000u, 0, 0, NULL);
  emit(&fx, 0, 0, 0, I_FMA, 0xffffu, 0xffffu, 0, 0, NULL);
  emit(&fx, 0, 0, 0, I_HADD2, 0xffffu, 0xffffu, 0, 0, NULL);
  emit(&fx, 0, 0, 0, I_EXIT, 0xffff0000u, 0xffff0000u, 0, 0, NULL);
  emit(&fx, 0, 0, 0, I_BAR, 0xffffu, 0xffffu, 0, 0, NULL);
  emit(&fx, 0, 0, 0, I_EXIT, 0xffffu, 0xffffu, 0, 0, NULL);
  ws_prof_block_end(fx.p, 0, 0);
  ws_profile *pr = finish(&fx);
  assert_close(pr->f.divergent_extra_insts, 2.0, 1e-12);
  assert_close(pr->f.divergent_branch_fraction, 1.0, 0);
  assert_close(pr->f.flops, 64, 0);
  assert_close(pr->f.comp_insts, 7, 0);
  assert_close(pr->f.fp_insts, 2, 0);
  assert_close(pr->f.synch_insts, 1, 0);
  assert_close(pr->f.coal_mem_insts + pr->f.uncoal_mem_insts, 0, 0);
  ws_profile_free(pr);
  teardown_fx(&fx);
}

/* Sampling plan (docs/profile.md, "Sampling").  1-D: the centres of N
 * equal strata, floor((2i + 1) x blocks / 2N): 4 of 10 -> 1, 3, 6, 8;
 * 64 of 65536 -> 512 + 1024 i.  2-D, 8 of a 16 x 16 grid: columns (the
 * first of the longest dimensions) floor((2i + 1) x 16 / 16) = 2i + 1,
 * rows from the base-2 radical inverse of i plus 1/16 (half a cell of 8):
 * 1/16, 9/16, 5/16, 13/16, 3/16, 11/16, 7/16, 15/16 -> rows 1, 9, 5, 13,
 * 3, 11, 7, 15: every sample in its own column and its own row (the old
 * linear stride of 32 put all 8 in column 0).  3-D, 4 of 4 x 4 x 4: x
 * (first longest) 2i + 1 of 8 halves -> 0, 1, 2, 3; y base 2 + 1/8:
 * 1/8, 5/8, 3/8, 7/8 -> 0, 2, 1, 3; z base 3 (cell 1/9, + 1/18): 1/18,
 * 7/18, 13/18, 1/9 + 1/18 = 3/18 -> 0, 1, 2, 0. */
static void sampling_plan(void **s) {
  (void)s;
  uint64_t got[64];
  const uint32_t g1[3] = {10, 1, 1};
  ws_prof_sample_plan(got, g1, 4);
  const uint64_t want1[4] = {1, 3, 6, 8};
  for (int i = 0; i < 4; i++) assert_int_equal(got[i], want1[i]);
  assert_int_equal(ws_prof_sample_count(10, 4), 4);
  assert_int_equal(ws_prof_sample_count(10, 0), 10);
  assert_int_equal(ws_prof_sample_count(10, 64), 10);
  ws_prof_sample_plan(got, g1, 0);
  for (uint64_t b = 0; b < 10; b++) assert_int_equal(got[b], b);
  const uint32_t g64k[3] = {65536, 1, 1};
  ws_prof_sample_plan(got, g64k, 64);
  for (uint64_t i = 0; i < 64; i++) assert_int_equal(got[i], 512 + 1024 * i);
  const uint32_t g2[3] = {16, 16, 1};
  ws_prof_sample_plan(got, g2, 8);
  /* (row, column) = (1, 1), (9, 3), (5, 5), ... in ascending linear order */
  const uint64_t sorted2[8] = {1 * 16 + 1, 3 * 16 + 9, 5 * 16 + 5, 7 * 16 + 13,
                               9 * 16 + 3, 11 * 16 + 11, 13 * 16 + 7, 15 * 16 + 15};
  for (int i = 0; i < 8; i++) assert_int_equal(got[i], sorted2[i]);
  const uint32_t g3[3] = {4, 4, 4};
  ws_prof_sample_plan(got, g3, 4);
  /* (x, y, z) = (0, 0, 0), (1, 2, 1), (2, 1, 2), (3, 3, 0);
   * linear: 0, 1 + 8 + 16 = 25, 2 + 4 + 32 = 38, 3 + 12 = 15 -> 0, 15, 25, 38 */
  const uint64_t sorted3[4] = {0, 15, 25, 38};
  for (int i = 0; i < 4; i++) assert_int_equal(got[i], sorted3[i]);
  /* Collisions move apart: 6 of a 2 x 3 grid is the whole grid; 5 of
   * 6 are 5 distinct blocks. */
  const uint32_t g4[3] = {2, 3, 1};
  ws_prof_sample_plan(got, g4, 5);
  for (int i = 1; i < 5; i++) assert_true(got[i] > got[i - 1]);
  assert_true(got[4] < 6);
}

/* Sampled profile: 4 of 10 blocks, each one warp reading one fresh line
 * (4 sectors = 128 B from DRAM).  Per-warp counts are those of the sampled
 * warps; DRAM bytes are scaled by 10/4: 4 x 128 x 2.5 = 1280. */
static void sampled_profile_scales(void **s) {
  (void)s;
  fixture fx;
  setup(&fx, "a100", 10, 32, 4, 2);
  const uint32_t blocks[4] = {8, 1, 6, 3}; /* the plan's, any completion order, two workers */
  for (int i = 0; i < 4; i++) {
    int wk = i % 2;
    ws_prof_block_begin(fx.p, wk, blocks[i]);
    uint64_t addr[32];
    for (int l = 0; l < 32; l++) addr[l] = 0x4000000 + blocks[i] * 0x1000 + 4 * (uint64_t)l;
    emit(&fx, wk, blocks[i], 0, I_LD0, ~0u, ~0u, 0, WS_PTX_SP_GLOBAL, addr);
    ws_prof_block_end(fx.p, wk, blocks[i]);
  }
  ws_profile *pr = finish(&fx);
  assert_close(pr->f.dram_read_bytes, 1280, 0);
  assert_close(pr->f.coal_mem_insts + pr->f.uncoal_mem_insts, 1, 0);
  cJSON *sam = section_of(pr, "sampling");
  assert_close(cJSON_GetObjectItem(sam, "profiled_blocks")->valuedouble, 4, 0);
  assert_close(cJSON_GetObjectItem(sam, "total_blocks")->valuedouble, 10, 0);
  cJSON_Delete(sam);
  ws_profile_free(pr);
  teardown_fx(&fx);
}

/* The cache replay does not depend on the worker or completion order:
 * blocks 0 and 1 read the same line on different SMs (block b on SM b mod
 * min(SMs, blocks); SM 0 takes the first turn at the L2), so block 0
 * misses everywhere and block 1 misses its L1 but hits L2 — whichever
 * worker finished first. */
static void replay_order_independent(void **s) {
  (void)s;
  for (int order = 0; order < 2; order++) {
    fixture fx;
    setup(&fx, "a100", 2, 32, 0, 2);
    uint64_t addr[32];
    for (int l = 0; l < 32; l++) addr[l] = 0x5000000 + 4 * (uint64_t)l;
    for (int i = 0; i < 2; i++) {
      uint32_t b = (uint32_t)(order ? 1 - i : i);
      ws_prof_block_begin(fx.p, (int)b, b);
      emit(&fx, (int)b, b, 0, I_LD0, ~0u, ~0u, 0, WS_PTX_SP_GLOBAL, addr);
      ws_prof_block_end(fx.p, (int)b, b);
    }
    ws_profile *pr = finish(&fx);
    /* L2: 8 accesses (4 sectors x 2 blocks), the second block's 4 hit. */
    assert_close(pr->f.l2_hit_ratio, 0.5, 0);
    assert_close(pr->f.l1_hit_ratio, 0, 0);
    assert_close(pr->f.dram_read_bytes, 128, 0);
    ws_profile_free(pr);
    teardown_fx(&fx);
  }
}

/* CC 1.x has no data cache: DRAM traffic is the transactions' bytes.  A
 * coalesced 128-byte load on the GTX 280 (CC 1.3) is one 64-byte
 * transaction per half-warp: 2 x 64 B per load, 256 B for two loads, and
 * it counts as coalesced. */
static void no_cache_gpu(void **s) {
  (void)s;
  fixture fx;
  setup(&fx, "gtx280", 1, 32, 0, 1);
  uint64_t addr[32];
  for (int l = 0; l < 32; l++) addr[l] = 0x6000000 + 4 * (uint64_t)l;
  ws_prof_block_begin(fx.p, 0, 0);
  emit(&fx, 0, 0, 0, I_LD0, ~0u, ~0u, 0, WS_PTX_SP_GLOBAL, addr);
  emit(&fx, 0, 0, 0, I_LD1, ~0u, ~0u, 0, WS_PTX_SP_GLOBAL, addr);
  ws_prof_block_end(fx.p, 0, 0);
  ws_profile *pr = finish(&fx);
  assert_close(pr->f.dram_read_bytes, 256, 0);
  assert_close(pr->f.miss_ratio, 1, 0);
  assert_close(pr->f.coal_mem_insts, 2, 0);
  ws_profile_free(pr);
  teardown_fx(&fx);
}

/* parallelism.ilp = sum ILP_K n_K / sum n_K over the executed blocks, with
 * the front end's per-block ILP.  One warp runs block 0 once, the loop
 * block 10 times and block 2 once: (ILP_0 + 10 ILP_1 + ILP_2) / 12.  Sim et
 * al.'s printed form, sum ILP_K n_K / #blocks = (ILP_0 + 10 ILP_1 + ILP_2) / 3,
 * would grow with the trip count; it must not be what we report.  The loop
 * header is entered once and taken back 9 times: 10 trips per entry. */
static void ilp_weighted_by_executions(void **s) {
  (void)s;
  cur_ptx = ptx_loop;
  fixture fx;
  setup(&fx, "a100", 1, 32, 0, 1);
  cur_ptx = ptx;
  ws_cfg *c = NULL;
  assert_ok_diag(ws_analysis_build(&c, fx.m, fx.k, &fx.d), &fx.d);
  assert_int_equal(c->nblocks, 3);
  double i0 = c->blocks[0].ilp, i1 = c->blocks[1].ilp, i2 = c->blocks[2].ilp;
  assert_true(i0 != i1); /* the test means something only if they differ */
  ws_analysis_free(c);
  ws_prof_block_begin(fx.p, 0, 0);
  ws_emu_event ev = {0};
  ev.func = fx.k;
  ev.active = ev.exec = ~0u;
  int seq[2 + 30 + 1], n = 0;
  seq[n++] = 0, seq[n++] = 1;
  for (int it = 0; it < 10; it++) seq[n++] = 2, seq[n++] = 3, seq[n++] = 4;
  seq[n++] = 5;
  for (int i = 0; i < n; i++) {
    ev.pc = (uint32_t)seq[i];
    ev.inst = &fx.k->insts[seq[i]];
    ev.bb_entry = seq[i] == 0 || seq[i] == 2 || seq[i] == 5;
    ev.taken = seq[i] == 4 && i + 1 < n && seq[i + 1] == 2 ? ~0u : 0;
    ws_prof_inst(fx.p, &ev);
  }
  ws_prof_block_end(fx.p, 0, 0);
  ws_profile *pr = finish(&fx);
  assert_close(pr->f.ilp, (i0 + 10 * i1 + i2) / 12, 1e-12);
  assert_true(fabs(pr->f.ilp - (i0 + 10 * i1 + i2) / 3) > 1e-6);
  cJSON *lsec = section_of(pr, "loops");
  const cJSON *loops = cJSON_GetObjectItem(lsec, "loops");
  assert_int_equal(cJSON_GetArraySize(loops), 1);
  const cJSON *l = cJSON_GetArrayItem(loops, 0);
  assert_close(cJSON_GetObjectItem(l, "trips_per_entry")->valuedouble, 10, 0);
  assert_close(cJSON_GetObjectItem(l, "header_executions_per_warp")->valuedouble, 10, 0);
  cJSON_Delete(lsec);
  ws_profile_free(pr);
  teardown_fx(&fx);
}

/* The heaviest warps of one block of 8 warps whose counts (FMAs, ADDs)
 * repeat from warp to warp, against the rule written here (a warp is kept
 * when no warp before it has at least its every count): ws_prof_block_end
 * skips a warp equal to the one before it, which must not skip one that
 * differs in one count alone (warp 2 after 1: the same ADDs; warp 7 after
 * 6: the same FMAs).  By hand: (1,1) (1,1) (2,1) (2,1) (0,2) (2,2) (2,2)
 * (2,3) keeps warps 0, 2, 4, 5 and 7. */
static void heaviest_warps_repeated(void **s) {
  (void)s;
  static const int cnt[8][2] = {{1, 1}, {1, 1}, {2, 1}, {2, 1}, {0, 2}, {2, 2}, {2, 2}, {2, 3}};
  fixture fx;
  setup(&fx, "a100", 1, 256, 0, 1);
  ws_prof_block_begin(fx.p, 0, 0);
  for (uint32_t w = 0; w < 8; w++) {
    for (int k = 0; k < cnt[w][0]; k++) emit(&fx, 0, 0, w, I_FMA, ~0u, ~0u, 0, 0, NULL);
    for (int k = 0; k < cnt[w][1]; k++) emit(&fx, 0, 0, w, I_ADD, ~0u, ~0u, 0, 0, NULL);
  }
  ws_prof_block_end(fx.p, 0, 0);
  ws_profile *pr = finish(&fx);
  uint32_t kept[8], nk = 0;
  for (uint32_t w = 0; w < 8; w++) {
    int covered = 0;
    for (uint32_t e = 0; e < w; e++)
      covered |= cnt[e][0] >= cnt[w][0] && cnt[e][1] >= cnt[w][1];
    if (!covered) kept[nk++] = w;
  }
  assert_int_equal(nk, 5);
  assert_int_equal(pr->mix.nwarps, nk);
  for (uint32_t i = 0; i < nk; i++) {
    assert_int_equal(pr->mix.warps[i].block, 0);
    assert_int_equal(pr->mix.warps[i].warp, kept[i]);
  }
  ws_profile_free(pr);
  teardown_fx(&fx);
}

/* The mix's heaviest warps: a warp is left out when a warp before it in
 * (block, warp) order issued at least as much of everything.  Block 0:
 * warp 0 runs one FMA, warp 1 three FMAs and a coalesced 128-byte load;
 * block 1: warp 0 three FMAs and the same load (equal to block 0's warp 1,
 * which comes first: left out).  Block 0's warp 0 stays: the later warp 1
 * covers it, but only an earlier warp can leave one out.  Expected, in
 * either order of the blocks: (0,0) with one fp32.fma.float.reg; (0,1) with
 * three and one global request of 32 threads / 4 sectors = 8 threads per
 * transaction (A100).  Kothapalli then takes (0,1): 3 x op_cycles.fp_simple
 * of computation and (G + 8) / 8 of global memory (3.2.2), by hand. */
static void heaviest_warps(void **s) {
  (void)s;
  for (int order = 0; order < 2; order++) {
    fixture fx;
    setup(&fx, "a100", 2, 64, 0, 2);
    uint64_t addr[32];
    for (int l = 0; l < 32; l++) addr[l] = 0x7000000 + 4 * (uint64_t)l;
    for (int i = 0; i < 2; i++) {
      uint32_t b = (uint32_t)(order ? 1 - i : i);
      int wk = (int)b;
      ws_prof_block_begin(fx.p, wk, b);
      if (b == 0) emit(&fx, wk, b, 0, I_FMA, ~0u, ~0u, 0, 0, NULL);
      for (int k = 0; k < 3; k++) emit(&fx, wk, b, b == 0 ? 1 : 0, I_FMA, ~0u, ~0u, 0, 0, NULL);
      emit(&fx, wk, b, b == 0 ? 1 : 0, I_LD0, ~0u, ~0u, 0, WS_PTX_SP_GLOBAL, addr);
      ws_prof_block_end(fx.p, wk, b);
    }
    ws_profile *pr = finish(&fx);
    unsigned fma = ws_mix_key(WS_MIX_UNIT_FP32, WS_MIX_OP_FMA, 1, 0);
    assert_int_equal(ws_profile_mix_key_parse("fp32.fma.float.reg"), (int)fma);
    assert_int_equal(pr->mix.nwarps, 2);
    const ws_warp_mix *w0 = &pr->mix.warps[0], *w1 = &pr->mix.warps[1];
    assert_int_equal(w0->block, 0);
    assert_int_equal(w0->warp, 0);
    assert_int_equal(w0->nops, 1);
    assert_int_equal(w0->ops[0].key, fma);
    assert_close(w0->ops[0].n, 1, 0);
    for (int k = 1; k <= 32; k++) assert_close(w0->global_by_tpt[k], 0, 0);
    assert_int_equal(w1->block, 0);
    assert_int_equal(w1->warp, 1);
    assert_int_equal(w1->nops, 1);
    assert_close(w1->ops[0].n, 3, 0);
    assert_close(w1->global_by_tpt[8], 1, 0);
    /* the section round-trips through JSON */
    char *text = ws_profile_to_json(pr);
    ws_profile *back;
    assert_ok_diag(ws_profile_load_json(&back, text, "rt", &fx.d), &fx.d);
    assert_int_equal(back->mix.nwarps, 2);
    assert_close(back->mix.warps[1].global_by_tpt[8], 1, 0);
    ws_model_result r = WS_MODEL_RESULT_INIT;
    assert_ok_diag(ws_model_predict(&r, "kothapalli-max", back, fx.g, &fx.d), &fx.d);
    double fp = ws_gpu_p(fx.g, WS_GP_KOTHAPALLI_OP_FP_SIMPLE),
           gc = ws_gpu_p(fx.g, WS_GP_KOTHAPALLI_GLOBAL_CYCLES);
    assert_close(ws_model_term_value(&r, WS_TERM_KOTHAPALLI_N_COMP), 3 * fp, 0);
    assert_close(ws_model_term_value(&r, WS_TERM_KOTHAPALLI_N_MEMORY_GLOBAL), (gc + 8) / 8, 0);
    ws_model_result_free(&r);
    ws_profile_free(back);
    free(text);
    ws_profile_free(pr);
    teardown_fx(&fx);
  }
}

/* The representative warp keeps its first 2^22 instructions (docs/profile.md):
 * warp 0 of block 0 runs 2^22 FMAs, then one more; the periods count 2^22
 * FMAs both times, and only the second profile says it was cut. */
static void representative_warp_cap(void **s) {
  (void)s;
  const uint32_t cap = 1u << 22;
  for (uint32_t extra = 0; extra < 2; extra++) {
    fixture fx;
    setup(&fx, "a100", 1, 32, 0, 1);
    ws_prof_block_begin(fx.p, 0, 0);
    for (uint32_t i = 0; i < cap + extra; i++) emit(&fx, 0, 0, 0, I_FMA, ~0u, ~0u, 0, 0, NULL);
    ws_prof_block_end(fx.p, 0, 0);
    ws_profile *pr = finish(&fx);
    assert_int_equal(pr->mix.nperiods, 1);
    assert_int_equal(pr->mix.periods[0].nops, 1);
    assert_close(pr->mix.periods[0].ops[0].n, cap, 0);
    assert_close(pr->mix.periods[0].repeat, 1, 0);
    cJSON *prof = section_of(pr, "profiler");
    assert_non_null(prof);
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(prof, "representative_warp_truncated");
    if (extra) assert_true(cJSON_IsTrue(t));
    else assert_null(t);
    cJSON_Delete(prof);
    ws_profile_free(pr);
    teardown_fx(&fx);
  }
}

/* Tensor-core operations by type: 2 M N K per warp execution of an
 * mma.sync or wmma.mma, under the A operand's type (FP16 split by the
 * accumulator; wmma's FP16 form names only .dtype.ctype).  One warp runs
 *   m16n8k16 f32.f16 twice   2 x 4096 \
 *   wmma m16n16k16 f32.f32   8192      > fp16_f32acc 16384
 *   m16n8k8 f16.f16          2048        fp16_f16acc
 *   m16n8k8 tf32             2048        tf32
 *   wmma m16n16k16 bf16      8192        bf16
 *   m16n8k32 s8              8192        int8
 *   m8n8k4 f64               512         fp64
 * and no FP8: that field stays absent, and flops counts none of them. */
static const char ptx_mma[] =
    ".version 8.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".visible .entry k(.param .u64 a)\n"
    "{\n"
    "  .reg .b32 %r<20>;\n"
    "  .reg .f32 %f<20>;\n"
    "  .reg .f64 %fd<10>;\n"
    "  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, "
    "{%f5,%f6,%f7,%f8};\n"                                                                     /* 0 */
    "  wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, "
    "{%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, "
    "{%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};\n"                                                     /* 1 */
    "  mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%r1,%r2}, {%r3,%r4}, {%r5}, {%r6,%r7};\n" /* 2 */
    "  mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, "
    "{%r5,%r6}, {%f5,%f6,%f7,%f8};\n"                                                          /* 3 */
    "  wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, "
    "{%r1,%r2,%r3,%r4}, {%r5,%r6,%r7,%r8}, {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};\n"                /* 4 */
    "  mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%r1,%r2,%r3,%r4}, {%r5,%r6,%r7,%r8}, "
    "{%r9,%r10}, {%r11,%r12,%r13,%r14};\n"                                                     /* 5 */
    "  mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%fd1,%fd2}, {%fd3}, {%fd4}, {%fd5,%fd6};\n" /* 6 */
    "  exit;\n"                                                                                 /* 7 */
    "}\n";

static void tensor_ops(void **s) {
  (void)s;
  fixture fx;
  cur_ptx = ptx_mma;
  setup(&fx, "a100", 1, 32, 0, 1);
  cur_ptx = ptx;
  static const int pcs[] = {0, 0, 1, 2, 3, 4, 5, 6, 7};
  ws_prof_block_begin(fx.p, 0, 0);
  for (size_t i = 0; i < sizeof pcs / sizeof *pcs; i++) emit(&fx, 0, 0, 0, pcs[i], ~0u, ~0u, 0, 0, NULL);
  ws_prof_block_end(fx.p, 0, 0);
  ws_profile *pr = finish(&fx);
  assert_close(pr->f.tensor_fp16_f32acc_ops, 16384, 0);
  assert_close(pr->f.tensor_fp16_f16acc_ops, 2048, 0);
  assert_close(pr->f.tensor_tf32_ops, 2048, 0);
  assert_close(pr->f.tensor_bf16_ops, 8192, 0);
  assert_close(pr->f.tensor_int8_ops, 8192, 0);
  assert_close(pr->f.tensor_fp64_ops, 512, 0);
  assert_false(ws_pf_has(pr->f.tensor_fp8_ops));
  assert_close(pr->f.flops, 0, 0);
  ws_profile_free(pr);
  teardown_fx(&fx);
}

/* A run of plain instructions in one event (ws_emu_hooks.runs, count > 1)
 * gives the profile of the same instructions one event each, byte for
 * byte: the per-instruction path is the reference.  Kernel: block 0 (two
 * movs), block 1 (fma, add, setp: a run; the branch; ten trips), block 2
 * (exit).  The streams are made by hand (the profiler takes any):
 * warp 0 leads and is the representative warp (it skips pc 1: its trace
 * goes 0, 2, 3, ...); warp 1 follows its trace (a shadow, runs matched in
 * one loop); warp 2 leaves it inside its first run (0, 1 against 0, 2),
 * then ends with a hand-made "run" of the branch and the exit (the slow
 * kinds' fallback); warp 3 runs all of it with half its lanes (the
 * histogram and idle lanes times n); warp 4 follows the trace through
 * ten trips, runs matched in one loop, then leaves it for two more trips
 * of its own: its path is the block's longest, so the position a run's
 * matches leave it at in the trace shows in the profile. */
static const char ptx_runs[] =
    K_HEAD
    "  .reg .b32 %r<4>;\n"
    "  .reg .f32 %f<4>;\n"
    "  .reg .pred %p<2>;\n"
    "  mov.u32 %r1, 0;\n"                    /* 0 */
    "  mov.f32 %f1, 0f3F800000;\n"           /* 1 */
    "L1:\n"
    "  fma.rn.f32 %f1, %f1, %f1, %f1;\n"     /* 2 */
    "  add.s32 %r1, %r1, 1;\n"               /* 3 */
    "  setp.lt.s32 %p1, %r1, 10;\n"          /* 4 */
    "  @%p1 bra L1;\n"                       /* 5 */
    "  exit;\n"                              /* 6 */
    "}\n";

/* Warp w's events of one block as runs (first pc, count), in order. */
static size_t runs_of(uint32_t w, uint32_t (*g)[2]) {
  size_t n = 0;
  g[n][0] = 0, g[n++][1] = w < 2 || w == 4 ? 1 : 2;
  for (int it = 0; it < (w == 2 ? 1 : w == 4 ? 12 : 10); it++) {
    g[n][0] = 2, g[n++][1] = 3;
    if (w != 2) g[n][0] = 5, g[n++][1] = 1;
  }
  if (w == 2) g[n][0] = 5, g[n++][1] = 2; /* the branch and the exit as one "run" */
  else g[n][0] = 6, g[n++][1] = 1;
  return n;
}

static char *profile_of_runs(int runs) {
  cur_ptx = ptx_runs;
  fixture fx;
  setup(&fx, "a100", 1, 160, 0, 1); /* five warps */
  cur_ptx = ptx;
  ws_prof_block_begin(fx.p, 0, 0);
  for (uint32_t w = 0; w < 5; w++) {
    uint32_t g[32][2];
    size_t n = runs_of(w, g);
    ws_emu_event ev = {0};
    ev.func = fx.k;
    ev.warp = w;
    ev.active = ev.exec = w == 3 ? 0xffffu : ~0u;
    for (size_t i = 0; i < n; i++)
      for (uint32_t k = 0; k < g[i][1]; k += runs ? g[i][1] : 1) {
        uint32_t pc = g[i][0] + k;
        ev.pc = pc;
        ev.inst = &fx.k->insts[pc];
        ev.count = runs ? g[i][1] : 1;
        ev.bb_entry = pc == 0 || pc == 2 || pc == 6;
        /* the branch jumps back when the next event is the loop's body */
        ev.taken = !runs && pc == 5 && k + 1 == g[i][1] && i + 1 < n && g[i + 1][0] == 2 ? ev.active : 0;
        ws_prof_inst(fx.p, &ev);
      }
  }
  ws_prof_block_end(fx.p, 0, 0);
  ws_profile *pr = finish(&fx);
  char *json = ws_profile_to_json(pr);
  assert_non_null(json);
  ws_profile_free(pr);
  teardown_fx(&fx);
  return json;
}

static void runs_as_instructions(void **s) {
  (void)s;
  char *one = profile_of_runs(0), *many = profile_of_runs(1);
  if (strcmp(one, many)) print_error("one event per instruction:\n%s\nper run:\n%s\n", one, many);
  assert_string_equal(one, many);
  /* the test means something: the kernel's flops are there (fma: 2 per lane) */
  assert_non_null(strstr(one, "\"flops\""));
  free(one);
  free(many);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(coalescing_kernel_levels), cmocka_unit_test(bank_conflict_kernel),
      cmocka_unit_test(cache_strided_twice),      cmocka_unit_test(cache_store_then_load),
      cmocka_unit_test(cache_random_small_table), cmocka_unit_test(divergence_and_flops),
      cmocka_unit_test(sampling_plan),            cmocka_unit_test(sampled_profile_scales),
      cmocka_unit_test(replay_order_independent), cmocka_unit_test(no_cache_gpu),
      cmocka_unit_test(ilp_weighted_by_executions), cmocka_unit_test(heaviest_warps),
      cmocka_unit_test(heaviest_warps_repeated),
      cmocka_unit_test(representative_warp_cap), cmocka_unit_test(tensor_ops),
      cmocka_unit_test(runs_as_instructions),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
