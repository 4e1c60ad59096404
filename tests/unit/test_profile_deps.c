/*
 * test_profile_deps.c — the profiler's `dependencies` section and atomic
 * serialization (src/profile/deps.c, docs/profile.md) on synthetic streams
 * of real parsed PTX, against paths worked out by hand below.
 */
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
      cmocka_unit_test(path_through_barrier),
      cmocka_unit_test(barrier_in_called_function),
      cmocka_unit_test(atomics_same_address),
      cmocka_unit_test(atomics_conflict_degree),
      cmocka_unit_test(atomics_contention_sampled),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
