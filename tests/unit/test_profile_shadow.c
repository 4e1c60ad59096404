/*
 * test_profile_shadow.c — shadow warps in the dependency step
 * (src/profile/deps.c, "Shadows"): a block run with shadows must give the
 * path, the per-instruction attribution and the node-overflow decision of
 * the same block with every warp running the step (ws_prof_deps_shadow not
 * called), and those of a block worked out by hand below.
 */
#include <string.h>

#include "testutil.h"
#include "profile/deps.h"
#include "warpsight/ptx.h"

/* Both kernels' start: one load, an add on it, a barrier, a shared load
 * and an add on that (instructions 0-4). */
#define KERNEL_START                                        \
  ".version 7.0\n.target sm_80\n.address_size 64\n"         \
  ".visible .entry k(.param .u64 a)\n{\n"                   \
  "  .reg .f32 %f<4>;\n  .reg .b64 %rd<4>;\n"               \
  "  ld.global.f32 %f1, [%rd1];\n"   /* 0 */                \
  "  add.f32 %f2, %f1, %f1;\n"       /* 1 */                \
  "  bar.sync 0;\n"                  /* 2 */                \
  "  ld.shared.f32 %f3, [%rd2];\n"   /* 3 */                \
  "  add.f32 %f2, %f2, %f3;\n"       /* 4 */

/* Warps 0-2 run 5 and 6, warps 3 and 4 skip them: they diverge between
 * the two barriers. */
static const char ptx_hand[] = KERNEL_START
    "  add.f32 %f2, %f2, %f2;\n"         /* 5 */
    "  add.f32 %f2, %f2, %f2;\n"         /* 6 */
    "  bar.sync 0;\n"                    /* 7 */
    "  st.global.f32 [%rd1], %f2;\n"     /* 8 */
    "  exit;\n"                          /* 9 */
    "}\n";

/* Three barriers, two shared loads (whose replays the random test varies). */
static const char ptx_rand[] = KERNEL_START
    "  add.f32 %f2, %f2, %f2;\n"         /* 5 */
    "  bar.sync 0;\n"                    /* 6 */
    "  ld.shared.f32 %f3, [%rd2];\n"     /* 7 */
    "  add.f32 %f2, %f2, %f3;\n"         /* 8 */
    "  bar.sync 0;\n"                    /* 9 */
    "  st.global.f32 [%rd1], %f2;\n"     /* 10 */
    "  exit;\n"                          /* 11 */
    "}\n";

enum { MAXI = 16 };

/* Two workers' states for one kernel: `on` with shadows, `off` without. */
typedef struct pair {
  ws_ptx_module *m;
  const ws_ptx_function *k;
  ws_deps *on, *off;
  ws_dstep rec[MAXI]; /* the step records by id (= pc) */
  uint32_t base[2];   /* func_base */
  uint32_t seen;      /* warps seen in the block */
} pair;

static void pair_new(pair *p, const char *src) {
  memset(p, 0, sizeof *p);
  ws_diag d = WS_DIAG_INIT;
  assert_ok_diag(ws_ptx_parse(&p->m, src, strlen(src), "shadow.ptx", &d), &d);
  ws_diag_free(&d);
  p->k = ws_ptx_find_function(p->m, "k");
  assert_non_null(p->k);
  assert_true(p->k->ninsts <= MAXI);
  p->base[1] = p->k->ninsts;
  p->on = ws_prof_deps_new(p->k);
  p->off = ws_prof_deps_new(p->k);
  assert_non_null(p->on);
  assert_non_null(p->off);
  for (uint32_t i = 0; i < p->k->ninsts; i++) p->rec[i] = ws_prof_deps_regs_of(p->on, i);
  assert_int_equal(ws_prof_deps_track(p->on, p->m, p->base, p->k->ninsts), 0);
  assert_int_equal(ws_prof_deps_track(p->off, p->m, p->base, p->k->ninsts), 0);
  assert_int_equal(ws_prof_deps_shadow(p->on, p->rec, sizeof *p->rec, p->k->ninsts), 0);
}

static void pair_free(pair *p) {
  ws_prof_deps_free(p->on);
  ws_prof_deps_free(p->off);
  ws_ptx_module_free(p->m);
}

static void begin(pair *p) {
  ws_prof_deps_block_begin(p->on);
  ws_prof_deps_block_begin(p->off);
  p->seen = 0;
}

static void end(pair *p) {
  ws_prof_deps_block_end(p->on);
  ws_prof_deps_block_end(p->off);
}

/* Warp w executes instruction pc (shared: its access went to shared
 * memory; replays: its bank-conflict replays), in both states. */
static void inst(pair *p, uint32_t w, uint32_t pc, uint32_t shared, uint32_t replays) {
  if (!(p->seen >> w & 1)) {
    ws_prof_deps_warp_begin(p->on, w);
    ws_prof_deps_warp_begin(p->off, w);
    p->seen |= 1u << w;
  }
  ws_prof_deps_inst(p->on, w, &p->rec[pc], shared, replays, pc);
  ws_prof_deps_inst(p->off, w, &p->rec[pc], shared, replays, pc);
}

static void run(pair *p, uint32_t w, const uint32_t *pcs, int n) {
  for (int i = 0; i < n; i++) inst(p, w, pcs[i], pcs[i] == 3, 0);
}

typedef struct result {
  ws_deps_sum sum;
  double mem[MAXI], cyc[MAXI], blocks, skipped;
} result;

static result result_of(const ws_deps *d) {
  result r;
  memset(&r, 0, sizeof r);
  ws_prof_deps_add(&r.sum, d);
  ws_prof_deps_crit_add(d, r.mem, r.cyc, &r.blocks, &r.skipped);
  return r;
}

/* The two states' results are equal, field by field. */
static void assert_same(const pair *p) {
  result a = result_of(p->on), b = result_of(p->off);
  assert_true(a.sum.blocks == b.sum.blocks);
  assert_true(a.sum.path_mem == b.sum.path_mem);
  assert_true(a.sum.path_cyc == b.sum.path_cyc);
  assert_true(a.blocks == b.blocks);
  assert_true(a.skipped == b.skipped);
  for (int i = 0; i < MAXI; i++) {
    assert_true(a.mem[i] == b.mem[i]);
    assert_true(a.cyc[i] == b.cyc[i]);
  }
}

/* Five warps in the emulator's order: round-robin, a warp runs to a
 * barrier, and the warp that completes a barrier goes on at once.  Times
 * (loads, cycles), one issue cycle per instruction, ALU latency 6, shared
 * load 30 (deps.c's nominal table); a memory load is one load.
 *   every warp: ld issues (0,1), %f1 (1,1); add waits: issues (1,1), %f2
 *     (1,7); bar issues (1,2).  Barrier 0: (1,2).
 *   warps 3, 4 (4 completes barrier 0: it goes on first, and leads): ld.shared
 *     (1,3) -> %f3 (1,33); add waits for %f3: (1,33) -> %f2 (1,39); bar
 *     (1,34); later st (1,50) (after barrier 1), exit (1,51).
 *   warps 0, 1: ld.shared (1,3), %f3 (1,33); add (1,33) -> (1,39); 5: (1,39)
 *     -> (1,45); 6: (1,45) -> (1,51); bar (1,46).
 *   warp 2 (3 replays): ld.shared issues (1,3), + 3 replays: (1,6) -> %f3
 *     (1,36); add waits: (1,36) -> (1,42); 5: -> (1,48); 6: -> (1,54); bar
 *     (1,49).  Barrier 1: the latest, (1,49).
 *   after it: warps 0, 1: st waits for %f2 (1,51), exit (1,52); warp 2: st
 *     (1,54), exit (1,55); warps 3, 4: st (1,50), exit (1,51).
 * The block's path is warp 2's: 1 load, 55 cycles, of which: ld 1 cycle
 * and the load; bar (2) 1; ld.shared 4 (issue and replays) + 30; the adds
 * 4, 5, 6: 6 each; exit 1.  The add 1, barrier 7 and st lie off it (they
 * waited or were waited past). */
static void shadow_path_by_hand(void **s) {
  (void)s;
  static const uint32_t to_bar0[] = {0, 1, 2}, skip[] = {3, 4, 7}, full[] = {3, 4, 5, 6, 7}, tail[] = {8, 9};
  pair p;
  pair_new(&p, ptx_hand);
  begin(&p);
  for (uint32_t w = 0; w < 5; w++) run(&p, w, to_bar0, 3);
  assert_int_equal(p.on->leader, 0); /* the first warp leads, the others follow */
  assert_int_equal(p.on->shadows, 0x1e);
  run(&p, 4, skip, 3);               /* warp 4 caught up with warp 0: it leads */
  assert_int_equal(p.on->leader, 4);
  assert_int_equal(p.on->shadows, 0x0f);
  run(&p, 0, full, 5);               /* (0 and 1 leave the trace at 5) */
  run(&p, 1, full, 5);
  inst(&p, 2, 3, 1, 3); /* warp 2's shared load: 3 replays, unlike the leader's */
  run(&p, 2, full + 1, 4);
  assert_int_equal(p.on->shadows, 0x08); /* only warp 3 still follows */
  run(&p, 3, skip, 3);
  run(&p, 3, tail, 2); /* it completes barrier 1, caught up: it leads */
  assert_int_equal(p.on->leader, 3);
  run(&p, 0, tail, 2);
  run(&p, 1, tail, 2);
  run(&p, 2, tail, 2);
  run(&p, 4, tail, 2); /* warp 4 follows warp 3 to the end */
  assert_int_equal(p.on->shadows, 0x10);
  end(&p);
  assert_same(&p);
  result r = result_of(p.on);
  assert_true(r.sum.blocks == 1 && r.blocks == 1 && r.skipped == 0);
  assert_true(r.sum.path_mem == 1);
  assert_true(r.sum.path_cyc == 55);
  static const double cyc[10] = {1, 0, 1, 34, 6, 6, 6, 0, 0, 1};
  for (int i = 0; i < 10; i++) {
    assert_true(r.cyc[i] == cyc[i]);
    assert_true(r.mem[i] == (i == 0));
  }
  pair_free(&p);
}

/* A small deterministic generator (numbers only for the test's choices). */
static uint32_t rnd(uint64_t *x) {
  *x = *x * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(*x >> 33);
}

/* Blocks of 2-8 warps, each running one of a few sequences of ptx_rand
 * (the whole kernel; without 5; 1 twice; an early exit; or the first k
 * instructions only), its shared loads with random replays, the warps
 * interleaved at random in bursts -- barriers not enforced, so a warp may
 * run barriers ahead of another, as an mbarrier or bar.arrive lets it:
 * what a shadow reads at a resume then differs from what the leader read,
 * and a slot is overwritten before a shadow that passed it materialises
 * (the replay must read the value it checked); in some blocks the trace
 * stops growing.  The same as without shadows, block after block on the
 * same states. */
static void shadow_random_blocks(void **s) {
  (void)s;
  static const uint32_t seqs[4][14] = {
      {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11},
      {0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11},
      {0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11},
      {0, 1, 11},
  };
  static const int lens[4] = {12, 11, 13, 3};
  pair p;
  pair_new(&p, ptx_rand);
  uint64_t x = 12345;
  for (int block = 0; block < 3000; block++) {
    uint32_t nw = 2 + rnd(&x) % 7;
    int seq[8], len[8], pos[8] = {0};
    uint32_t rep[8][2];
    for (uint32_t w = 0; w < nw; w++) {
      uint32_t c = rnd(&x) % 10; /* mostly the whole kernel */
      seq[w] = c < 6 ? 0 : c < 7 ? 1 : c < 8 ? 2 : 3;
      len[w] = lens[seq[w]];
      if (rnd(&x) % 8 == 0) len[w] = 1 + (int)(rnd(&x) % (uint32_t)len[w]); /* cut short */
      for (int j = 0; j < 2; j++) rep[w][j] = rnd(&x) % 6 == 0 ? 1 + rnd(&x) % 3 : 0;
    }
    begin(&p);
    /* in one block of ten the trace stops growing somewhere, as when it
     * cannot (deps.c's freeze(): what an allocation failure does) */
    int freeze_at = rnd(&x) % 10 == 0 ? (int)(rnd(&x) % 40) : -1;
    for (int step = 0;; step++) {
      if (step == freeze_at) p.on->tracing = 0, p.on->troom = 0, p.on->leader = 32;
      uint32_t left = 0;
      for (uint32_t w = 0; w < nw; w++) left += pos[w] < len[w];
      if (!left) break;
      uint32_t w = rnd(&x) % nw;
      while (pos[w] >= len[w]) w = (w + 1) % nw;
      for (uint32_t burst = 1 + rnd(&x) % 6; burst && pos[w] < len[w]; burst--) {
        uint32_t pc = seqs[seq[w]][pos[w]++];
        int sh = pc == 3 || pc == 7;
        inst(&p, w, pc, (uint32_t)sh, sh ? rep[w][pc == 7] : 0);
      }
    }
    end(&p);
    assert_same(&p);
  }
  pair_free(&p);
}

/* The node limit: n warps of `steps` adds each (an add whose operand is
 * never written issues one cycle after the last: two nodes per add), all
 * alike, so the shadows make none of theirs.  8 x 65536 x 2 = 2^20 node
 * requests: the last one is past WS_DEPS_MAX_NODES - 1 (node 0 is the
 * block's start), so the block is not attributed; 8 x 65535 x 2 is. */
static void shadow_node_limit(void **s) {
  (void)s;
  assert_true(WS_DEPS_MAX_NODES == (size_t)1 << 20);
  for (int over = 0; over < 2; over++) {
    pair p;
    pair_new(&p, ptx_hand);
    begin(&p);
    const uint32_t steps = over ? 65536 : 65535;
    for (uint32_t w = 0; w < 8; w++)
      for (uint32_t i = 0; i < steps; i++) inst(&p, w, 1, 0, 0);
    end(&p);
    assert_same(&p);
    result r = result_of(p.on);
    assert_true(r.blocks == (over ? 0 : 1));
    assert_true(r.skipped == (over ? 1 : 0));
    assert_true(r.sum.path_cyc == steps + 6); /* the last add's issue + its latency */
    pair_free(&p);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(shadow_path_by_hand),
      cmocka_unit_test(shadow_random_blocks),
      cmocka_unit_test(shadow_node_limit),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
