/*
 * test_emu_simt.c — SIMT semantics of the emulator on small hand-written
 * PTX kernels: nested divergence and reconvergence, per-lane loop trip
 * counts, early exit before a barrier, warp shuffles/votes/redux/match under
 * partial masks, atomics under contention (integer and half precision),
 * recursion through call with per-frame local memory, brx.idx switches,
 * indirect calls, alloca, profiler hooks, 56 instruction results on fixed
 * operands, fma.rn.f32 against the host's fmaf, device printf, a fault
 * report, 32-bit .shared/.local addresses that wrap, redux.sync with
 * member masks, the %reserved_smem_offset_* registers and their
 * region, and registers read before written in a worker's later blocks.  Every expected value is computed in the test from the
 * kernel's definition (comments show the arithmetic) or by an independent
 * host function (fmaf, snprintf), never taken from the emulator's own
 * output.
 */
#include "testutil.h"
#include "util/strbuf.h"

#include <string.h>

#include "emu/emu_int.h"
#include "warpsight/analysis.h"
#include "warpsight/emu.h"
#include "warpsight/ptx.h"

#define HDR ".version 7.0\n.target sm_80\n.address_size 64\n"

typedef struct run {
  ws_ptx_module *m;
  ws_emu_program *p;
  ws_launch_spec *s;
  ws_emu_launch *l;
  ws_diag d;
  int status;
  int fault_kind; /* ws_emu_stats.fault_kind of the run */
} run;

/* Parse, load, launch and run; r->status is the first failing status. */
static void run_ptx(run *r, const char *ptx, const char *kernel, const char *spec, int threads) {
  memset(r, 0, sizeof *r);
  int st = ws_ptx_parse(&r->m, ptx, strlen(ptx), "test.ptx", &r->d);
  assert_ok_diag(st, &r->d);
  st = ws_emu_launch_spec_parse(&r->s, spec, "spec.json", ".", &r->d);
  assert_ok_diag(st, &r->d);
  st = ws_emu_load(&r->p, r->m, kernel, &r->d);
  if (!st) st = ws_emu_launch_new(&r->l, r->p, r->s, &r->d);
  if (!st) {
    ws_emu_options o = WS_EMU_OPTIONS_INIT;
    o.threads = threads;
    o.max_warp_insts = 1000000;
    ws_emu_stats sx;
    memset(&sx, 0, sizeof sx);
    st = ws_emu_run(r->l, &o, &sx, &r->d);
    r->fault_kind = sx.fault_kind;
  }
  r->status = st;
}

static void run_free(run *r) {
  ws_emu_launch_free(r->l);
  ws_emu_program_free(r->p);
  ws_emu_launch_spec_free(r->s);
  ws_ptx_module_free(r->m);
  ws_diag_free(&r->d);
}

static uint32_t *buf32(run *r, const char *name) {
  uint64_t n;
  void *p = ws_emu_buffer(r->l, name, &n);
  assert_non_null(p);
  return p;
}

/* --- nested if/else ------------------------------------------------------------ */

static const char nested_ptx[] = HDR
    ".visible .entry nested(.param .u64 out, .param .u64 inner)\n"
    "{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u64 %rd4, [inner];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r2, %r1, 1;\n  setp.eq.u32 %p1, %r2, 0;\n  @%p1 bra EVEN;\n"
    "  and.b32 %r3, %r1, 2;\n  setp.eq.u32 %p2, %r3, 0;\n  @%p2 bra ODD_B;\n"
    "  mov.u32 %r4, 1;\n  activemask.b32 %r6;\n  bra ODD_END;\n"
    "ODD_B:\n  mov.u32 %r4, 2;\n  activemask.b32 %r6;\n"
    "ODD_END:\n  bra JOIN;\n"
    "EVEN:\n  and.b32 %r3, %r1, 4;\n  setp.eq.u32 %p3, %r3, 0;\n  @%p3 bra EVEN_B;\n"
    "  mov.u32 %r4, 3;\n  activemask.b32 %r6;\n  bra JOIN;\n"
    "EVEN_B:\n  mov.u32 %r4, 4;\n  activemask.b32 %r6;\n"
    "JOIN:\n  activemask.b32 %r5;\n  setp.eq.u32 %p1, %r5, -1;\n  selp.u32 %r7, 10, 0, %p1;\n"
    "  add.u32 %r4, %r4, %r7;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r4;\n"
    "  add.s64 %rd5, %rd4, %rd2;\n  st.global.u32 [%rd5], %r6;\n"
    "  ret;\n}\n";

static int nested_path(uint32_t t) {
  /* odd: bit 1 set -> 1, clear -> 2; even: bit 2 set -> 3, clear -> 4 */
  if (t & 1) return (t & 2) ? 1 : 2;
  return (t & 4) ? 3 : 4;
}

static void test_nested_divergence(void **state) {
  (void)state;
  run r;
  run_ptx(&r, nested_ptx, "nested",
          "{\"kernel\": \"nested\", \"grid\": [2,1,1], \"block\": [64,1,1], \"args\": ["
          "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 64},"
          "{\"buffer\": \"inner\", \"type\": \"u32\", \"count\": 64}]}",
          1);
  assert_ok_diag(r.status, &r.d);
  uint32_t *out = buf32(&r, "out"), *inner = buf32(&r, "inner");
  for (uint32_t t = 0; t < 64; t++) {
    /* every lane reconverges at JOIN with the full warp: path + 10 */
    assert_int_equal(out[t], (uint32_t)nested_path(t) + 10);
    /* inside a leaf, exactly the lanes of the same warp on the same path */
    uint32_t m = 0;
    for (uint32_t l = 0; l < 32; l++)
      if (nested_path((t & ~31u) + l) == nested_path(t)) m |= 1u << l;
    assert_int_equal(inner[t], m);
  }
  run_free(&r);
}

/* --- per-lane loop trip counts --------------------------------------------------- */

static const char loop_ptx[] = HDR
    ".visible .entry loop(.param .u64 out, .param .u64 mask)\n"
    "{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u64 %rd4, [mask];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, 0;\n  mov.u32 %r3, 0;\n"
    "LOOP:\n  setp.ge.u32 %p1, %r3, %r1;\n  @%p1 bra DONE;\n"
    "  add.u32 %r2, %r2, %r3;\n  add.u32 %r3, %r3, 1;\n  bra LOOP;\n"
    "DONE:\n  activemask.b32 %r4;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r2;\n"
    "  add.s64 %rd5, %rd4, %rd2;\n  st.global.u32 [%rd5], %r4;\n"
    "  ret;\n}\n";

static void test_loop_trip_counts(void **state) {
  (void)state;
  run r;
  run_ptx(&r, loop_ptx, "loop",
          "{\"kernel\": \"loop\", \"grid\": [1,1,1], \"block\": [48,1,1], \"args\": ["
          "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 48},"
          "{\"buffer\": \"mask\", \"type\": \"u32\", \"count\": 48}]}",
          1);
  assert_ok_diag(r.status, &r.d);
  uint32_t *out = buf32(&r, "out"), *mask = buf32(&r, "mask");
  for (uint32_t t = 0; t < 48; t++) {
    assert_int_equal(out[t], t * (t - 1) / 2 * (t > 0)); /* 0 + 1 + ... + (t-1) */
    /* after the loop the warp is whole again: 32 lanes, or 16 in the partial second warp */
    assert_int_equal(mask[t], t < 32 ? 0xffffffffu : 0xffffu);
  }
  run_free(&r);
}

/* --- profiler hooks ---------------------------------------------------------------- */

/* Parse and load a kernel and its launch spec (no launch yet). */
static void load_ptx(run *r, const char *ptx, const char *kernel, const char *spec) {
  memset(r, 0, sizeof *r);
  assert_ok_diag(ws_ptx_parse(&r->m, ptx, strlen(ptx), "test.ptx", &r->d), &r->d);
  assert_ok_diag(ws_emu_launch_spec_parse(&r->s, spec, "spec.json", ".", &r->d), &r->d);
  assert_ok_diag(ws_emu_load(&r->p, r->m, kernel, &r->d), &r->d);
}

/* Launch r's kernel on one thread with inst(user, ...) on every warp
 * instruction; its statistics into *st. */
static void run_hooked(run *r, void *user, void (*inst)(void *, const ws_emu_event *), ws_emu_stats *st) {
  ws_emu_hooks hk = {.user = user, .inst = inst};
  ws_emu_options o = WS_EMU_OPTIONS_INIT;
  o.hooks = &hk;
  o.threads = 1;
  assert_ok_diag(ws_emu_launch_new(&r->l, r->p, r->s, &r->d), &r->d);
  assert_ok_diag(ws_emu_run(r->l, &o, st, &r->d), &r->d);
}

typedef struct hookcount {
  uint64_t events, stores, store_addr_ok, divergent, bbs;
  uint64_t out_base;
} hookcount;

static void on_inst(void *user, const ws_emu_event *ev) {
  hookcount *h = user;
  h->events++;
  if (ev->bb_entry) h->bbs++;
  if (ev->inst && ev->inst->op == WS_PTX_OP_BRA && ev->taken && ev->taken != ev->active) h->divergent++;
  if (ev->inst && ev->inst->op == WS_PTX_OP_ST && ev->addr) {
    h->stores++;
    /* st.global.u32 [out + 4*tid]: lane l of warp w stores at 4*(32w + l) */
    int ok = ev->space == WS_PTX_SP_GLOBAL && ev->bytes == 4;
    uint32_t f = (uint32_t)__builtin_ctz(ev->exec);
    uint64_t base = ev->addr[f] - 4u * (32u * ev->warp + f); /* the buffer's address */
    ok &= (base & 255) == 0;                                  /* buffers are 256-byte aligned */
    for (uint32_t l = 0; l < 32; l++)
      if ((ev->exec >> l) & 1) ok &= ev->addr[l] == base + 4u * (32u * ev->warp + l);
    if (h->out_base == 0) h->out_base = base;
    ok &= ev->exec == (ev->warp == 0 ? 0xffffffffu : 0xffffu);
    h->store_addr_ok += (uint64_t)ok;
  }
}

static void test_hooks(void **state) {
  (void)state;
  run r;
  load_ptx(&r, loop_ptx, "loop",
           "{\"kernel\": \"loop\", \"grid\": [1,1,1], \"block\": [48,1,1], \"args\": ["
           "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 48},"
           "{\"buffer\": \"mask\", \"type\": \"u32\", \"count\": 48}]}");
  ws_emu_stats plain, hooked;
  assert_ok_diag(ws_emu_launch_new(&r.l, r.p, r.s, &r.d), &r.d);
  assert_ok_diag(ws_emu_run(r.l, NULL, &plain, &r.d), &r.d);
  ws_emu_launch_free(r.l);
  hookcount h = {0};
  run_hooked(&r, &h, on_inst, &hooked);
  /* one event per warp instruction, and hooks change nothing */
  assert_int_equal(h.events, hooked.warp_insts);
  assert_int_equal(plain.warp_insts, hooked.warp_insts);
  /* two stores per warp, two warps; both name out[tid] / mask[tid] lane by lane */
  assert_int_equal(h.stores, 4);
  assert_int_equal(h.store_addr_ok, 4);
  /* the loop exit diverges once per trip where some lanes leave: lanes leave
   * one at a time (trip count = tid), so warp 0 diverges at trips 1..31 and
   * warp 1 (tids 32..47, all still looping until trip 32) at trips 33..47 */
  assert_int_equal(h.divergent, 31 + 15);
  run_free(&r);
}

/* --- brx.idx: a switch through a branch-target table ----------------------------------- */

static const char brx_ptx[] = ".version 7.8\n.target sm_75\n.address_size 64\n"
    ".visible .entry sw(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  and.b32 %r2, %r1, 3;\n"
    "  setp.lt.u32 %p1, %r1, 40;\n"
    "  ts: .branchtargets L0, L1, L2, L0;\n"
    "  mov.u32 %r3, 5;\n"
    "  @%p1 brx.idx %r2, ts;\n"
    "  bra.uni DONE;\n"
    "L0:\n  mov.u32 %r3, 10;\n  bra.uni DONE;\n"
    "L1:\n  mov.u32 %r3, 20;\n  bra.uni DONE;\n"
    "L2:\n  mov.u32 %r3, 30;\n"
    "DONE:\n  activemask.b32 %r4;\n"
    "  mul.wide.u32 %rd2, %r1, 8;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.v2.u32 [%rd3], {%r3, %r4};\n"
    "  ret;\n}\n";

static void test_brx(void **state) {
  (void)state;
  run r;
  run_ptx(&r, brx_ptx, "sw",
          "{\"kernel\": \"sw\", \"grid\": [1,1,1], \"block\": [64,1,1], \"args\": ["
          "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 128}]}",
          1);
  assert_ok_diag(r.status, &r.d);
  uint32_t *o = buf32(&r, "out");
  static const uint32_t val[4] = {10, 20, 30, 10}; /* the table: L0, L1, L2, L0 */
  for (uint32_t t = 0; t < 64; t++) {
    /* threads 40..63 have a false guard and skip the switch: 5 */
    assert_int_equal(o[2 * t], t < 40 ? val[t & 3] : 5);
    assert_int_equal(o[2 * t + 1], 0xffffffffu); /* all four paths reconverge at DONE */
  }
  run_free(&r);
}

/* --- indirect calls with per-lane function pointers -------------------------------------- */

static const char icall_ptx[] = HDR
    ".func (.param .b32 r) inc(.param .b32 a)\n"
    "{\n  .reg .b32 %t<3>;\n  ld.param.b32 %t1, [a];\n  add.s32 %t2, %t1, 1;\n  st.param.b32 [r], %t2;\n  ret;\n}\n"
    ".func (.param .b32 r) dbl(.param .b32 a)\n"
    "{\n  .reg .b32 %t<3>;\n  ld.param.b32 %t1, [a];\n  shl.b32 %t2, %t1, 1;\n  st.param.b32 [r], %t2;\n  ret;\n}\n"
    ".global .align 8 .u64 table[2] = {inc, dbl};\n"
    ".visible .entry icall(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<6>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  and.b32 %r2, %r1, 1;\n"
    "  mul.wide.u32 %rd2, %r2, 8;\n  mov.u64 %rd3, table;\n  add.s64 %rd4, %rd3, %rd2;\n"
    "  ld.global.u64 %rd5, [%rd4];\n"
    "  {\n  .param .b32 a0;\n  .param .b32 r0;\n  st.param.b32 [a0], %r1;\n"
    "  proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
    "  call (r0), %rd5, (a0), proto;\n  ld.param.b32 %r3, [r0];\n  }\n"
    "  activemask.b32 %r4;\n"
    "  mul.wide.u32 %rd6, %r1, 8;\n  add.s64 %rd7, %rd1, %rd6;\n  st.global.v2.u32 [%rd7], {%r3, %r4};\n"
    "  ret;\n}\n";

static void test_indirect_call(void **state) {
  (void)state;
  run r;
  run_ptx(&r, icall_ptx, "icall",
          "{\"kernel\": \"icall\", \"grid\": [1,1,1], \"block\": [32,1,1], \"args\": ["
          "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 64}]}",
          1);
  assert_ok_diag(r.status, &r.d);
  uint32_t *o = buf32(&r, "out");
  for (uint32_t t = 0; t < 32; t++) {
    assert_int_equal(o[2 * t], (t & 1) ? 2 * t : t + 1); /* odd lanes call dbl, even lanes inc */
    assert_int_equal(o[2 * t + 1], 0xffffffffu);         /* the warp is whole after the call */
  }
  run_free(&r);
}

/* The hooks' event names the function each instruction belongs to: the
 * emulator sets it when it loads a warp's frame (a call, a return), not per
 * event.  Even lanes call inc and odd ones dbl, one after the other: four
 * events in each (ld.param, add or shl, st.param, ret), every event's inst
 * the one at its pc in its func, and the kernel's store after the return. */
typedef struct funcseen {
  const ws_ptx_function *inc, *dbl, *k;
  uint32_t in_inc, in_dbl, in_k, consistent, events, store_in_k;
  int inc_op1, dbl_op1;
} funcseen;

static void on_inst_func(void *user, const ws_emu_event *ev) {
  funcseen *h = user;
  h->events++;
  h->consistent += ev->func && ev->pc < ev->func->ninsts && ev->inst == &ev->func->insts[ev->pc];
  if (ev->func == h->inc) {
    h->in_inc++;
    if (ev->pc == 1) h->inc_op1 = ev->inst->op;
  } else if (ev->func == h->dbl) {
    h->in_dbl++;
    if (ev->pc == 1) h->dbl_op1 = ev->inst->op;
  } else if (ev->func == h->k) {
    h->in_k++;
    h->store_in_k += ev->inst->op == WS_PTX_OP_ST && ev->space == WS_PTX_SP_GLOBAL;
  }
}

static void test_hooks_functions(void **state) {
  (void)state;
  run r;
  load_ptx(&r, icall_ptx, "icall",
           "{\"kernel\": \"icall\", \"grid\": [1,1,1], \"block\": [32,1,1], \"args\": ["
           "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 64}]}");
  funcseen h = {ws_ptx_find_function(r.m, "inc"), ws_ptx_find_function(r.m, "dbl"),
                ws_ptx_find_function(r.m, "icall"), 0, 0, 0, 0, 0, 0, -1, -1};
  assert_non_null(h.inc);
  assert_non_null(h.dbl);
  ws_emu_stats st;
  run_hooked(&r, &h, on_inst_func, &st);
  assert_int_equal(h.events, st.warp_insts);
  assert_int_equal(h.consistent, h.events);
  assert_int_equal(h.in_inc, 4);
  assert_int_equal(h.in_dbl, 4);
  assert_int_equal(h.inc_op1, WS_PTX_OP_ADD);
  assert_int_equal(h.dbl_op1, WS_PTX_OP_SHL);
  assert_int_equal(h.in_k, h.events - 8);
  assert_int_equal(h.store_in_k, 1);
  run_free(&r);
}

/* --- half-precision atomics ------------------------------------------------------------ */

static const char hatom_ptx[] = HDR
    ".visible .entry hatom(.param .u64 out)\n"
    "{\n"
    "  .reg .b16 %h<3>;\n  .reg .b32 %r<3>;\n  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.b16 %h1, 0x3C00;\n"                     /* 1.0 */
    "  atom.global.add.noftz.f16 %h2, [%rd1], %h1;\n"
    "  mov.b32 %r1, 0x40003C00;\n"                 /* {1.0, 2.0} */
    "  atom.global.add.noftz.f16x2 %r2, [%rd1+4], %r1;\n"
    "  ret;\n}\n";

static void test_half_atomics(void **state) {
  (void)state;
  run r;
  run_ptx(&r, hatom_ptx, "hatom",
          "{\"kernel\": \"hatom\", \"grid\": [2,1,1], \"block\": [48,1,1], \"args\": ["
          "{\"buffer\": \"out\", \"type\": \"u16\", \"count\": 4}]}",
          2);
  assert_ok_diag(r.status, &r.d);
  uint64_t n;
  uint16_t *o = ws_emu_buffer(r.l, "out", &n);
  /* 96 threads add 1.0: 96.0 = 1.5 * 2^6 -> binary16 0x5600; every partial
   * sum is an integer below 2048, so each addition is exact */
  assert_int_equal(o[0], 0x5600);
  assert_int_equal(o[2], 0x5600); /* lower half of the f16x2: 96 * 1.0 */
  assert_int_equal(o[3], 0x5A00); /* upper half: 96 * 2.0 = 192 = 1.5 * 2^7 */
  run_free(&r);
}

/* --- set with half-precision pairs and half destinations ----------------------------------- */

/* PTX ISA "Half Precision Comparison Instructions: set": comparing f16x2 or
 * bf16x2 pairs, each 16-bit half of d gets its element's outcome, 1.0 in
 * the pair's format (.f16x2 0x3C00, .bf16x2 0x3F80) or 0xFFFF (.u32/.s32);
 * a .f16 destination gets 1.0 as f16 (0x3C00).  nvcc's h2exp, h2log, h2cos,
 * ... (cuda_fp16.hpp) use set.eq.f16x2.f16x2; it was refused. */
static const char hset_ptx[] = ".version 7.8\n.target sm_90\n.address_size 64\n"
    ".visible .entry hset(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<3>;\n  .reg .b16 %h<2>;\n  .reg .b32 %r<12>;\n  .reg .f32 %f<3>;\n  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.b32 %r1, 0x40003C00;\n"                  /* f16 {lo 1.0, hi 2.0} */
    "  mov.b32 %r2, 0x42003C00;\n"                  /* f16 {lo 1.0, hi 3.0} */
    "  set.eq.f16x2.f16x2 %r3, %r1, %r2;\n"         /* {1 == 1, 2 == 3} */
    "  set.lt.u32.f16x2 %r4, %r1, %r2;\n"           /* {1 < 1, 2 < 3} */
    "  mov.b32 %r5, 0x40003F80;\n"                  /* bf16 {lo 1.0, hi 2.0} */
    "  mov.b32 %r6, 0x40003F00;\n"                  /* bf16 {lo 0.5, hi 2.0} */
    "  set.gt.bf16x2.bf16x2 %r7, %r5, %r6;\n"       /* {1 > 0.5, 2 > 2} */
    "  mov.f32 %f1, 0f3F800000;\n  mov.f32 %f2, 0f40000000;\n"
    "  set.lt.f16.f32 %h1, %f1, %f2;\n"             /* 1 < 2: 1.0 as f16 */
    "  cvt.u32.u16 %r8, %h1;\n"
    "  setp.eq.u32 %p1, %r1, %r1;\n"                /* true */
    "  set.ne.or.f16x2.f16x2 %r9, %r1, %r2, !%p1;\n" /* {1 != 1 or false, 2 != 3 or false} */
    "  set.ge.and.s32.f16x2 %r10, %r2, %r1, !%p1;\n" /* anything and false */
    "  st.global.v4.u32 [%rd1], {%r3, %r4, %r7, %r8};\n"
    "  st.global.v2.u32 [%rd1+16], {%r9, %r10};\n"
    "  ret;\n}\n";

static void test_half_set(void **state) {
  (void)state;
  run r;
  run_ptx(&r, hset_ptx, "hset",
          "{\"kernel\": \"hset\", \"grid\": [1,1,1], \"block\": [1,1,1], \"args\": ["
          "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 6}]}",
          1);
  assert_ok_diag(r.status, &r.d);
  uint64_t n;
  uint32_t *o = ws_emu_buffer(r.l, "out", &n);
  assert_int_equal(o[0], 0x00003C00u); /* lo 1.0 (f16), hi 0 */
  assert_int_equal(o[1], 0xFFFF0000u); /* lo 0, hi 0xFFFF */
  assert_int_equal(o[2], 0x00003F80u); /* lo 1.0 (bf16), hi 0 */
  assert_int_equal(o[3], 0x3C00u);     /* 1.0 as f16, not 0xFFFF */
  assert_int_equal(o[4], 0x3C000000u); /* lo 0, hi 1.0 */
  assert_int_equal(o[5], 0u);
  run_free(&r);
}

/* --- alloca, stacksave, stackrestore ----------------------------------------------------- */

static const char alloca_ptx[] = ".version 7.3\n.target sm_80\n.address_size 64\n"
    ".visible .entry al(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  stacksave.u64 %rd2;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n  add.s64 %rd3, %rd3, 4;\n"       /* 4 * (tid + 1) bytes */
    "  alloca.u64 %rd4, %rd3, 16;\n"
    "  st.local.u32 [%rd4], %r1;\n"
    "  add.s64 %rd5, %rd4, %rd3;\n  add.s64 %rd5, %rd5, -4;\n"      /* last word of this lane's request */
    "  mul.lo.u32 %r2, %r1, 7;\n  st.local.u32 [%rd5], %r2;\n"
    "  ld.local.u32 %r3, [%rd4];\n  ld.local.u32 %r4, [%rd5];\n  add.u32 %r5, %r3, %r4;\n"
    "  and.b64 %rd6, %rd4, 15;\n  cvt.u32.u64 %r6, %rd6;\n"          /* alignment: 0 */
    "  stackrestore.u64 %rd2;\n  stacksave.u64 %rd7;\n  sub.s64 %rd8, %rd7, %rd2;\n  cvt.u32.u64 %r7, %rd8;\n"
    "  mul.wide.u32 %rd9, %r1, 12;\n  add.s64 %rd9, %rd1, %rd9;\n"
    "  st.global.u32 [%rd9], %r5;\n  st.global.u32 [%rd9+4], %r6;\n  st.global.u32 [%rd9+8], %r7;\n"
    "  ret;\n}\n";

static void test_alloca(void **state) {
  (void)state;
  run r;
  run_ptx(&r, alloca_ptx, "al",
          "{\"kernel\": \"al\", \"grid\": [1,1,1], \"block\": [40,1,1], \"args\": ["
          "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 120}]}",
          1);
  assert_ok_diag(r.status, &r.d);
  uint32_t *o = buf32(&r, "out");
  for (uint32_t t = 0; t < 40; t++) {
    /* lane 0 asks for 4 bytes: first and last word coincide, 7*0 overwrote 0 */
    assert_int_equal(o[3 * t], t == 0 ? 0 : t + 7 * t);
    assert_int_equal(o[3 * t + 1], 0); /* 16-byte aligned */
    assert_int_equal(o[3 * t + 2], 0); /* stackrestore gave the stack back */
  }
  run_free(&r);
}

/* --- early exit then bar.sync ------------------------------------------------------ */

static const char early_ptx[] = HDR
    ".shared .align 4 .b8 sv[256];\n"
    ".visible .entry early(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  setp.lt.u32 %p1, %r1, 16;\n  @%p1 exit;\n"
    "  shl.b32 %r2, %r1, 2;\n  mov.u32 %r3, sv;\n  add.u32 %r4, %r3, %r2;\n"
    "  mul.lo.u32 %r5, %r1, 3;\n  st.shared.u32 [%r4], %r5;\n"
    "  bar.sync 0;\n"
    "  add.u32 %r6, %r1, 32;\n  and.b32 %r6, %r6, 63;\n  shl.b32 %r7, %r6, 2;\n  add.u32 %r8, %r3, %r7;\n"
    "  ld.shared.u32 %r9, [%r8];\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r9;\n"
    "  ret;\n}\n";

static void test_early_exit_barrier(void **state) {
  (void)state;
  run r;
  run_ptx(&r, early_ptx, "early",
          "{\"kernel\": \"early\", \"grid\": [3,1,1], \"block\": [64,1,1], \"args\": ["
          "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 64, \"init\": {\"constant\": 57005}}]}",
          2);
  assert_ok_diag(r.status, &r.d);
  uint32_t *out = buf32(&r, "out");
  for (uint32_t t = 0; t < 64; t++) {
    uint32_t nb = (t + 32) % 64;
    if (t < 16)
      assert_int_equal(out[t], 57005); /* exited: never wrote */
    else if (nb >= 16)
      assert_int_equal(out[t], 3 * nb); /* written by thread nb before the barrier */
  }
  run_free(&r);
}

/* --- shuffles, votes, redux, match under a partial mask ----------------------------- */

static const char warp_ptx[] = HDR
    ".visible .entry wops(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<6>;\n  .reg .b32 %r<20>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %laneid;\n"
    "  setp.ge.u32 %p1, %r1, 20;\n  @%p1 bra SKIP;\n"
    "  mul.lo.u32 %r2, %r1, 10;\n"
    "  shfl.sync.up.b32 %r3|%p2, %r2, 3, 4096, 1048575;\n"  /* c = 0x10 << 8: 16-lane segments */
    "  selp.u32 %r4, 1, 0, %p2;\n"
    "  shfl.sync.bfly.b32 %r5, %r2, 1, 31, 1048575;\n"
    "  shfl.sync.idx.b32 %r6, %r2, 5, 31, 1048575;\n"
    "  and.b32 %r7, %r1, 1;\n  setp.eq.u32 %p3, %r7, 1;\n"
    "  vote.sync.ballot.b32 %r8, %p3, 1048575;\n"
    "  setp.lt.u32 %p4, %r1, 19;\n"
    "  vote.sync.all.pred %p5, %p4, 1048575;\n  selp.u32 %r9, 1, 0, %p5;\n"
    "  vote.sync.any.pred %p5, %p4, 1048575;\n  selp.u32 %r10, 1, 0, %p5;\n"
    "  redux.sync.add.u32 %r11, %r1, 1048575;\n"
    "  rem.u32 %r12, %r1, 3;\n  match.any.sync.b32 %r13, %r12, 1048575;\n"
    "  mul.wide.u32 %rd2, %r1, 48;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.v4.u32 [%rd3], {%r3, %r4, %r5, %r6};\n"
    "  st.global.v4.u32 [%rd3+16], {%r8, %r9, %r10, %r11};\n"
    "  st.global.u32 [%rd3+32], %r13;\n"
    "SKIP:\n  ret;\n}\n";

static void test_warp_ops_partial(void **state) {
  (void)state;
  run r;
  run_ptx(&r, warp_ptx, "wops",
          "{\"kernel\": \"wops\", \"grid\": [1,1,1], \"block\": [32,1,1], \"args\": ["
          "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 384}]}",
          1);
  assert_ok_diag(r.status, &r.d);
  uint32_t *o = buf32(&r, "out");
  for (uint32_t l = 0; l < 20; l++) {
    const uint32_t *e = o + l * 12;
    /* up by 3 within 16-lane segments: source l-3 when l-3 >= (l & 16) */
    int ok = (int)l - 3 >= (int)(l & 16);
    assert_int_equal(e[0], ok ? 10 * (l - 3) : 10 * l);
    assert_int_equal(e[1], (uint32_t)ok);
    assert_int_equal(e[2], 10 * (l ^ 1));     /* butterfly with 1 */
    assert_int_equal(e[3], 50);               /* lane 5's value */
    assert_int_equal(e[4], 0xAAAAAu);         /* odd lanes among 0..19 */
    assert_int_equal(e[5], 0);                /* lane 19 is not < 19 */
    assert_int_equal(e[6], 1);
    assert_int_equal(e[7], 190);              /* redux.add of lanes 0..19: 19*20/2 */
    uint32_t mm = 0;
    for (uint32_t k = 0; k < 20; k++)
      if (k % 3 == l % 3) mm |= 1u << k;
    assert_int_equal(e[8], mm);               /* match.any: lanes with the same l % 3 */
  }
  for (uint32_t l = 20; l < 32; l++) assert_int_equal(o[l * 12], 0); /* inactive lanes wrote nothing */
  run_free(&r);
}

/* --- redux.sync with member masks ----------------------------------------------------- */

/* Lanes 0..15 name mask 0x0000ffdf (their half without lane 5), lanes 16..31
 * 0xffff0000; d starts at a sentinel.  Issue 21: redux ignored the mask. */
static const char redux_ptx[] = HDR
    ".visible .entry rdx(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %laneid;\n"
    "  setp.lt.u32 %p1, %r1, 16;\n  selp.b32 %r2, 65503, -65536, %p1;\n"
    "  add.u32 %r3, %r1, 1;\n  mov.u32 %r4, 1000000;\n  mov.u32 %r5, 2000000;\n"
    "  redux.sync.add.u32 %r4, %r3, %r2;\n"
    "  redux.sync.min.u32 %r5, %r3, %r2;\n"
    "  mul.wide.u32 %rd2, %r1, 8;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.v2.u32 [%rd3], {%r4, %r5};\n"
    "  ret;\n}\n";

static void test_redux_member_mask(void **state) {
  (void)state;
  run r;
  run_ptx(&r, redux_ptx, "rdx",
          "{\"kernel\": \"rdx\", \"grid\": [1,1,1], \"block\": [32,1,1], \"args\": ["
          "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 64}]}",
          1);
  assert_ok_diag(r.status, &r.d);
  const uint32_t *o = buf32(&r, "out");
  for (uint32_t l = 0; l < 32; l++) {
    if (l == 5) { /* outside its own mask: neither contributes nor receives */
      assert_int_equal(o[2 * l], 1000000);
      assert_int_equal(o[2 * l + 1], 2000000);
    } else if (l < 16) { /* lanes 0..15 but 5, values l + 1: 1+..+16 - 6 = 130, min 1 */
      assert_int_equal(o[2 * l], 130);
      assert_int_equal(o[2 * l + 1], 1);
    } else { /* 17+..+32 = 392, min 17 */
      assert_int_equal(o[2 * l], 392);
      assert_int_equal(o[2 * l + 1], 17);
    }
  }
  run_free(&r);
}

/* --- member masks of shfl, vote and match (docs/emulator.md, "Member masks") ---------- */

/* halves: lanes 0..15 name 0x0000ffff, lanes 16..31 0xffff0000 (two
 * 16-lane groups, as cooperative groups' tiled partitions make them);
 * each lane's shuffle, vote and match see its own half only.  ownmask:
 * every lane names 0xfffffff7 (all but lane 3) in the instruction `op`
 * selects (0 shfl, 1 vote, 2 match).  srcmask: the halves' masks, but a
 * shuffle down by 8 over the whole warp, so lane 8 reads lane 16.
 * partial: 48 threads, a full mask: warp 1's lanes 16..31 do not exist,
 * and lanes 0..15 read them (shfl down 16) and vote. */
static const char mask_ptx[] = HDR
    ".visible .entry halves(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<6>;\n  .reg .b32 %r<14>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %laneid;\n"
    "  setp.lt.u32 %p1, %r1, 16;\n  selp.b32 %r2, 65535, -65536, %p1;\n"
    "  mul.lo.u32 %r3, %r1, 10;\n"
    "  shfl.sync.down.b32 %r4, %r3, 8, 4127, %r2;\n" /* c = 16 << 8 | 31: 16-lane segments */
    "  setp.ne.u32 %p2, %r1, 20;\n"
    "  vote.sync.all.pred %p3, %p2, %r2;\n  selp.u32 %r5, 1, 0, %p3;\n"
    "  vote.sync.ballot.b32 %r6, %p2, %r2;\n"
    "  setp.eq.u32 %p4, %r1, 3;\n  vote.sync.any.pred %p5, %p4, %r2;\n  selp.u32 %r7, 1, 0, %p5;\n"
    "  and.b32 %r8, %r1, 3;\n  match.any.sync.b32 %r9, %r8, %r2;\n"
    "  shr.u32 %r10, %r1, 4;\n  match.all.sync.b32 %r11|%p5, %r10, %r2;\n  selp.u32 %r12, 1, 0, %p5;\n"
    "  mul.wide.u32 %rd2, %r1, 32;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.v4.u32 [%rd3], {%r4, %r5, %r6, %r7};\n"
    "  st.global.v4.u32 [%rd3+16], {%r9, %r11, %r12, %r1};\n"
    "  ret;\n}\n"
    ".visible .entry ownmask(.param .u32 op)\n"
    "{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<6>;\n"
    "  ld.param.u32 %r1, [op];\n  mov.u32 %r2, %laneid;\n  mov.u32 %r3, -9;\n"
    "  setp.eq.u32 %p1, %r1, 0;\n  @%p1 shfl.sync.idx.b32 %r4, %r2, 0, 31, %r3;\n"
    "  setp.eq.u32 %p2, %r1, 1;\n  @%p2 vote.sync.any.pred %p3, %p2, %r3;\n"
    "  setp.eq.u32 %p2, %r1, 2;\n  @%p2 match.any.sync.b32 %r5, %r2, %r3;\n"
    "  ret;\n}\n"
    ".visible .entry srcmask()\n"
    "{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n"
    "  mov.u32 %r1, %laneid;\n  setp.lt.u32 %p1, %r1, 16;\n  selp.b32 %r2, 65535, -65536, %p1;\n"
    "  shfl.sync.down.b32 %r3, %r1, 8, 31, %r2;\n"
    "  ret;\n}\n"
    ".visible .entry partial(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  shfl.sync.down.b32 %r2|%p1, %r1, 16, 31, -1;\n"
    "  setp.lt.u32 %p2, %r1, 100;\n  vote.sync.ballot.b32 %r3, %p2, -1;\n"
    "  activemask.b32 %r4;\n  shfl.sync.idx.b32 %r5, %r1, 0, 31, %r4;\n"
    "  mul.wide.u32 %rd2, %r1, 12;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r3;\n  st.global.u32 [%rd3+4], %r4;\n  st.global.u32 [%rd3+8], %r5;\n"
    "  ret;\n}\n";

static void test_member_mask_groups(void **state) {
  (void)state;
  run r;
  run_ptx(&r, mask_ptx, "halves",
          "{\"kernel\": \"halves\", \"grid\": [1,1,1], \"block\": [32,1,1], \"args\": ["
          "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 256}]}",
          1);
  assert_ok_diag(r.status, &r.d);
  const uint32_t *o = buf32(&r, "out");
  for (uint32_t l = 0; l < 32; l++) {
    const uint32_t *e = o + 8 * l, half = l < 16 ? 0x0000ffffu : 0xffff0000u;
    /* down 8 within 16-lane segments: lane l + 8 when it stays in l's half */
    assert_int_equal(e[0], (l & 15) < 8 ? 10 * (l + 8) : 10 * l);
    assert_int_equal(e[1], l < 16);                                 /* all (lane != 20): only the low half */
    assert_int_equal(e[2], l < 16 ? 0x0000ffffu : 0xffef0000u);     /* ballot: the half without lane 20 */
    assert_int_equal(e[3], l < 16);                                 /* any (lane == 3) */
    assert_int_equal(e[4], (0x11111111u << (l & 3)) & half);       /* match.any of l & 3, within the half */
    assert_int_equal(e[5], half);                                   /* match.all of l >> 4: the half */
    assert_int_equal(e[6], 1);
    assert_int_equal(e[7], l);
  }
  run_free(&r);
}

static void expect_mask_fault(run *r, const char *what, const char *thread) {
  assert_int_equal(r->status, WS_EFAULT);
  assert_int_equal(r->fault_kind, WS_EMU_FAULT_MEMBERMASK);
  char *t = ws_diag_format(&r->d);
  if (!strstr(t, what) || !strstr(t, thread)) print_error("expected '%s' and '%s' in:\n%s\n", what, thread, t);
  assert_non_null(strstr(t, what));
  assert_non_null(strstr(t, thread));
  free(t);
}

/* A lane outside its own member mask, in each of the three instructions,
 * and a shuffle from a lane outside the reader's mask: a fault naming the
 * kernel, thread, PTX line (test.ptx, the module above: ownmask's
 * instructions are its lines 41, 43 and 45, srcmask's shuffle line 55),
 * lane and mask. */
static void test_member_mask_faults(void **state) {
  (void)state;
  static const char *const line[] = {"test.ptx:41:", "test.ptx:43:", "test.ptx:45:"};
  for (int op = 0; op < 3; op++) {
    char spec[160];
    snprintf(spec, sizeof spec,
             "{\"kernel\": \"ownmask\", \"grid\": [1,1,1], \"block\": [32,1,1], \"args\": ["
             "{\"scalar\": \"op\", \"type\": \"u32\", \"value\": %d}]}", op);
    run r;
    run_ptx(&r, mask_ptx, "ownmask", spec, 1);
    expect_mask_fault(&r,
                      "warp-synchronous instruction executed by lane 3, which is not in its member mask "
                      "0xfffffff7 (undefined in the PTX ISA) in kernel 'ownmask'",
                      "block (0,0,0), thread (3,0,0)");
    char *t = ws_diag_format(&r.d);
    if (!strstr(t, line[op])) print_error("op %d: expected %s in:\n%s\n", op, line[op], t);
    assert_non_null(strstr(t, line[op]));
    free(t);
    run_free(&r);
  }
  run r;
  run_ptx(&r, mask_ptx, "srcmask", "{\"kernel\": \"srcmask\", \"grid\": [1,1,1], \"block\": [32,1,1], \"args\": []}",
          1);
  expect_mask_fault(&r,
                    "test.ptx:55:3: error: shuffle by lane 8 from lane 16, which is not in its member mask "
                    "0x0000ffff (undefined in the PTX ISA) in kernel 'srcmask'",
                    "thread (8,0,0)");
  run_free(&r);
}

/* Only the lanes that execute matter: a partial warp (48 threads: warp 1
 * has lanes 0..15) under a full mask does not fault, though its lanes
 * 16..31 are in the mask and lanes 0..15 shuffle from them (undefined
 * values, not checked); the ballot holds the existing lanes, activemask
 * names them, and a shuffle under that mask reads lane 0 of the warp. */
static void test_member_mask_partial_warp(void **state) {
  (void)state;
  run r;
  run_ptx(&r, mask_ptx, "partial",
          "{\"kernel\": \"partial\", \"grid\": [2,1,1], \"block\": [48,1,1], \"args\": ["
          "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 144}]}",
          1);
  assert_ok_diag(r.status, &r.d);
  assert_int_equal(r.fault_kind, WS_EMU_FAULT_NONE);
  const uint32_t *o = buf32(&r, "out");
  for (uint32_t t = 0; t < 48; t++) {
    uint32_t lanes = t < 32 ? 0xffffffffu : 0x0000ffffu;
    assert_int_equal(o[3 * t], lanes);
    assert_int_equal(o[3 * t + 1], lanes);
    assert_int_equal(o[3 * t + 2], t < 32 ? 0 : 32); /* lane 0 of its warp: tid 0 or 32 */
  }
  run_free(&r);
}

/* A mask in a register (nvcc's `mov.u32 %r, -1;` before its intrinsics):
 * both engines treat it as the full mask, without checks, only where every
 * lane that reaches the instruction holds 0xffffffff (ws_emu_full_mask).
 * regfull: nvcc's shape, the mov in a block after a join, dominating the
 * uses.  regpart: lanes 0..3 branch around the mov and read the register
 * unwritten (0).  regloop: the use precedes the mov in a loop's body, so
 * the first iteration reads 0.  regmixed: -1 at the entry, then lanes
 * 0..15 set 0x0000ffff on a path that joins the others before the uses. */
static const char regmask_ptx[] = HDR
    ".visible .entry regfull(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<6>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %laneid;\n  mov.u32 %r2, 7;\n"
    "  setp.lt.u32 %p1, %r1, 8;\n  @%p1 bra JOIN;\n  mov.u32 %r2, 9;\n"
    "JOIN:\n  mov.u32 %r3, -1;\n"
    "  shfl.sync.down.b32 %r4|%p2, %r1, 1, 31, %r3;\n"
    "  setp.ne.u32 %p3, %r1, 20;\n  vote.sync.ballot.b32 %r5, %p3, %r3;\n"
    "  vote.sync.all.pred %p4, %p3, %r3;\n  selp.u32 %r6, 1, 0, %p4;\n"
    "  and.b32 %r7, %r1, 3;\n  match.any.sync.b32 %r8, %r7, %r3;\n"
    "  selp.u32 %r9, 1, 0, %p2;\n"
    "  mul.wide.u32 %rd2, %r1, 32;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.v4.u32 [%rd3], {%r4, %r5, %r6, %r8};\n  st.global.v2.u32 [%rd3+16], {%r9, %r2};\n"
    "  ret;\n}\n"
    ".visible .entry regpart()\n"
    "{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n"
    "  mov.u32 %r1, %laneid;\n  setp.lt.u32 %p1, %r1, 4;\n  @%p1 bra USE;\n  mov.u32 %r2, -1;\n"
    "USE:\n  shfl.sync.idx.b32 %r3, %r1, 0, 31, %r2;\n"
    "  ret;\n}\n"
    ".visible .entry regloop()\n"
    "{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<4>;\n"
    "  mov.u32 %r1, 0;\n  setp.eq.u32 %p1, %r1, 0;\n"
    "LOOP:\n  vote.sync.any.pred %p2, %p1, %r2;\n  mov.u32 %r2, -1;\n"
    "  add.u32 %r1, %r1, 1;\n  setp.lt.u32 %p2, %r1, 2;\n  @%p2 bra LOOP;\n"
    "  ret;\n}\n"
    ".visible .entry regmixed(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %laneid;\n"
    "  mov.u32 %r2, -1;\n  setp.lt.u32 %p1, %r1, 16;\n  @!%p1 bra JOIN;\n  mov.u32 %r2, 65535;\n"
    "JOIN:\n  setp.ne.u32 %p2, %r1, 100;\n  vote.sync.ballot.b32 %r3, %p2, %r2;\n"
    "  match.any.sync.b32 %r4, %r2, %r2;\n"
    "  mul.wide.u32 %rd2, %r1, 8;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.v2.u32 [%rd3], {%r3, %r4};\n"
    "  ret;\n}\n";

/* A member mask of 0 (Kernel Tuner's reduction example calls
 * __shfl_down_sync(0, sum, s); nvcc loads the 0 into a register as it
 * loads -1): the PTX ISA leaves it undefined; GPUs run the instruction over
 * the lanes that execute it (the mask only makes the lanes it names
 * reconverge), so the emulator runs it as under 0xffffffff, with a warning
 * per instruction naming its line (test.ptx lines 12, 14 and 16).  By hand,
 * 32 lanes: down 1 reads lane l + 1 (lane 31 itself); the ballot of
 * lane != 20 is 0xffefffff; match.any of l & 3 is 0x11111111 << (l & 3).
 * Before, every lane faulted ("not in its member mask 0x00000000"). */
static const char zeromask_ptx[] = HDR
    ".visible .entry zeromask(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %laneid;\n  mov.u32 %r2, 0;\n"
    "  shfl.sync.down.b32 %r3|%p1, %r1, 1, 31, %r2;\n"
    "  setp.ne.u32 %p2, %r1, 20;\n"
    "  vote.sync.ballot.b32 %r4, %p2, %r2;\n"
    "  and.b32 %r5, %r1, 3;\n"
    "  match.any.sync.b32 %r6, %r5, 0;\n"
    "  mul.wide.u32 %rd2, %r1, 16;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.v4.u32 [%rd3], {%r3, %r4, %r6, %r1};\n"
    "  ret;\n}\n";

static void test_member_mask_zero(void **state) {
  (void)state;
  run r;
  run_ptx(&r, zeromask_ptx, "zeromask",
          "{\"kernel\": \"zeromask\", \"grid\": [1,1,1], \"block\": [32,1,1], \"args\": ["
          "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 128}]}",
          1);
  assert_ok_diag(r.status, &r.d);
  assert_int_equal(r.fault_kind, WS_EMU_FAULT_NONE);
  const uint32_t *o = buf32(&r, "out");
  for (uint32_t l = 0; l < 32; l++) {
    assert_int_equal(o[4 * l], l < 31 ? l + 1 : l);
    assert_int_equal(o[4 * l + 1], 0xffefffffu);
    assert_int_equal(o[4 * l + 2], 0x11111111u << (l & 3));
    assert_int_equal(o[4 * l + 3], l);
  }
  char *t = ws_diag_format(&r.d);
  static const char *const want[] = {"test.ptx:12:3: warning: member mask 0 names no lane",
                                     "test.ptx:14:3: warning: member mask 0 names no lane",
                                     "test.ptx:16:3: warning: member mask 0 names no lane"};
  for (int i = 0; i < 3; i++) {
    if (!strstr(t, want[i])) print_error("expected '%s' in:\n%s\n", want[i], t);
    assert_non_null(strstr(t, want[i]));
  }
  free(t);
  run_free(&r);
}

/* Which member masks are full (ws_emu_full_mask: what the decoders and the
 * translator decide), by hand: the immediate -1 and regfull's register
 * are (1), the immediate 0 counts as full too (2); 0xfffffff7, regpart's and regloop's register (unwritten on some
 * path) and regmixed's (0x0000ffff on one path) are not. */
static void test_member_mask_full_decision(void **state) {
  (void)state;
  static const char imm_ptx[] = HDR
      ".visible .entry imm()\n{\n  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n  mov.u32 %r1, %laneid;\n"
      "  shfl.sync.idx.b32 %r2, %r1, 0, 31, -1;\n  shfl.sync.idx.b32 %r3, %r1, 0, 31, -9;\n"
      "  vote.sync.any.pred %p1, %p1, 0xffffffff;\n  shfl.sync.idx.b32 %r3, %r1, 0, 31, 0;\n  ret;\n}\n";
  static const struct {
    const char *ptx, *kernel;
    int full[4]; /* per shfl/vote/match of the kernel, in order; -1 past the last */
  } want[] = {
      {imm_ptx, "imm", {1, 0, 1, 2}},          {regmask_ptx, "regfull", {1, 1, 1, 1}},
      {regmask_ptx, "regpart", {0, -1, -1, -1}}, {regmask_ptx, "regloop", {0, -1, -1, -1}},
      {regmask_ptx, "regmixed", {0, 0, -1, -1}},
  };
  for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
    ws_diag d = {0};
    ws_ptx_module *m = NULL;
    assert_ok_diag(ws_ptx_parse(&m, want[k].ptx, strlen(want[k].ptx), "test.ptx", &d), &d);
    const ws_ptx_function *f = NULL;
    for (uint32_t i = 0; i < m->nfuncs; i++)
      if (!strcmp(m->funcs[i].name, want[k].kernel)) f = &m->funcs[i];
    assert_non_null(f);
    ws_cfg *c = NULL;
    assert_int_equal(ws_analysis_build(&c, m, f, &d), WS_OK);
    int n = 0;
    for (uint32_t i = 0; i < f->ninsts; i++) {
      const ws_ptx_inst *in = &f->insts[i];
      if (in->op != WS_PTX_OP_SHFL && in->op != WS_PTX_OP_VOTE && in->op != WS_PTX_OP_MATCH) continue;
      assert_true(n < 4);
      int got = ws_emu_full_mask(c, i, &in->ops[in->nops - 1]);
      if (got != want[k].full[n]) print_error("%s: warp instruction %d: full %d, expected %d\n", want[k].kernel, n,
                                              got, want[k].full[n]);
      assert_int_equal(got, want[k].full[n]);
      n++;
    }
    assert_true(n == 4 || want[k].full[n] == -1);
    ws_analysis_free(c);
    ws_ptx_module_free(m);
    ws_diag_free(&d);
  }
}

/* The results under a register mask: regfull's full mask (down 1: lane
 * l + 1, lane 31 itself, out of range; the ballot without lane 20; match
 * of l & 3) and regmixed's two masks (the low half votes and matches in
 * its 0x0000ffff, the high half over the warp); regpart's lane 0 and
 * regloop's lane 0 are outside their (zero) masks and fault. */
static void test_member_mask_register(void **state) {
  (void)state;
  run r;
  run_ptx(&r, regmask_ptx, "regfull",
          "{\"kernel\": \"regfull\", \"grid\": [1,1,1], \"block\": [32,1,1], \"args\": ["
          "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 256}]}",
          1);
  assert_ok_diag(r.status, &r.d);
  const uint32_t *o = buf32(&r, "out");
  for (uint32_t l = 0; l < 32; l++) {
    const uint32_t *e = o + 8 * l;
    assert_int_equal(e[0], l < 31 ? l + 1 : l);
    assert_int_equal(e[1], 0xffefffffu);
    assert_int_equal(e[2], 0);
    assert_int_equal(e[3], 0x11111111u << (l & 3));
    assert_int_equal(e[4], l < 31);
    assert_int_equal(e[5], l < 8 ? 7 : 9);
  }
  run_free(&r);
  run_ptx(&r, regmask_ptx, "regmixed",
          "{\"kernel\": \"regmixed\", \"grid\": [1,1,1], \"block\": [32,1,1], \"args\": ["
          "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 64}]}",
          1);
  assert_ok_diag(r.status, &r.d);
  o = buf32(&r, "out");
  for (uint32_t l = 0; l < 32; l++) {
    assert_int_equal(o[2 * l], l < 16 ? 0x0000ffffu : 0xffffffffu);
    assert_int_equal(o[2 * l + 1], l < 16 ? 0x0000ffffu : 0xffff0000u); /* lanes of the same mask value */
  }
  run_free(&r);
  static const char *const kernels[] = {"regpart", "regloop"};
  for (int k = 0; k < 2; k++) {
    char spec[128];
    snprintf(spec, sizeof spec, "{\"kernel\": \"%s\", \"grid\": [1,1,1], \"block\": [32,1,1], \"args\": []}",
             kernels[k]);
    run_ptx(&r, regmask_ptx, kernels[k], spec, 1);
    expect_mask_fault(&r, "executed by lane 0, which is not in its member mask 0x00000000", "thread (0,0,0)");
    run_free(&r);
  }
}

/* --- the system-reserved shared region --------------------------------------------- */

/* rsv reads every %reserved_smem_offset_* register, writes 288 bytes of
 * cooperative-groups-style scratch at offset_1 through a generic pointer
 * and checks that the user's dynamic shared data survive; plain reads no
 * reserved register. */
static const char reserved_ptx[] = HDR
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".visible .entry rsv(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<20>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %reserved_smem_offset_begin;\n  mov.u32 %r3, %reserved_smem_offset_end;\n"
    "  mov.u32 %r4, %reserved_smem_offset_cap;\n  mov.u32 %r5, %reserved_smem_offset_0;\n"
    "  mov.u32 %r6, %reserved_smem_offset_1;\n  mov.u32 %r7, %total_smem_size;\n"
    "  mov.u32 %r8, %aggr_smem_size;\n"
    "  mov.u32 %r9, dyn;\n  shl.b32 %r10, %r1, 2;\n  add.u32 %r11, %r9, %r10;\n"
    "  setp.lt.u32 %p1, %r1, 25;\n  add.u32 %r12, %r1, 7;\n  @%p1 st.shared.u32 [%r11], %r12;\n"
    "  bar.sync 0;\n"
    "  cvt.u64.u32 %rd2, %r6;\n  cvta.shared.u64 %rd3, %rd2;\n"
    "  mul.wide.u32 %rd4, %r1, 4;\n  add.s64 %rd5, %rd3, %rd4;\n"
    "  or.b32 %r13, %r1, -559087616;\n"                           /* 0xdead0000 | t */
    "  st.u32 [%rd5], %r13;\n  st.u32 [%rd5+128], %r13;\n"
    "  setp.lt.u32 %p2, %r1, 8;\n  @%p2 st.u32 [%rd5+256], %r13;\n" /* words 64..71: 288 bytes in all */
    "  bar.sync 0;\n"
    "  @%p1 ld.shared.u32 %r14, [%r11];\n  ld.u32 %r15, [%rd5+128];\n"
    "  mul.wide.u32 %rd6, %r1, 48;\n  add.s64 %rd7, %rd1, %rd6;\n"
    "  st.global.v4.u32 [%rd7], {%r2, %r3, %r4, %r5};\n"
    "  st.global.v4.u32 [%rd7+16], {%r6, %r7, %r8, %r14};\n"
    "  st.global.v2.u32 [%rd7+32], {%r15, %r1};\n"
    "  ret;\n}\n"
    ".visible .entry plain(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %total_smem_size;\n  mov.u32 %r2, %aggr_smem_size;\n"
    "  st.global.v2.u32 [%rd1], {%r1, %r2};\n"
    "  ret;\n}\n";

static void test_reserved_shared(void **state) {
  (void)state;
  run r;
  run_ptx(&r, reserved_ptx, "rsv",
          "{\"kernel\": \"rsv\", \"grid\": [2,1,1], \"block\": [32,1,1], \"dynamic_shared_bytes\": 100, \"args\": ["
          "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 384}]}",
          1);
  assert_ok_diag(r.status, &r.d);
  const uint32_t *o = buf32(&r, "out");
  /* no static shared: the user's bytes are the 100 dynamic ones; the
   * reserved region (WS_EMU_RESERVED_SMEM_BYTES = 1024) starts at 100
   * rounded up to 128: begin 128, end 1152, cap 1024, offset_0 128 (its
   * first half), offset_1 128 + 512 = 640 (its second half) */
  for (uint32_t t = 0; t < 32; t++) {
    const uint32_t *e = o + 12 * t;
    assert_int_equal(e[0], 128);
    assert_int_equal(e[1], 1152);
    assert_int_equal(e[2], 1024);
    assert_int_equal(e[3], 128);
    assert_int_equal(e[4], 640);
    assert_int_equal(e[5], 100);  /* total: the user's static + dynamic bytes */
    assert_int_equal(e[6], 1152); /* aggr: with the reserved region */
    assert_int_equal(e[7], t < 25 ? t + 7 : 0); /* user data intact (out starts zeroed) */
    assert_int_equal(e[8], 0xdead0000u | t);  /* scratch word t + 32 */
    assert_int_equal(e[9], t);
  }
  run_free(&r);
  run_ptx(&r, reserved_ptx, "plain",
          "{\"kernel\": \"plain\", \"grid\": [1,1,1], \"block\": [32,1,1], \"dynamic_shared_bytes\": 100, \"args\": ["
          "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 2}]}",
          1);
  assert_ok_diag(r.status, &r.d);
  o = buf32(&r, "out");
  assert_int_equal(o[0], 100); /* no reserved region without the registers */
  assert_int_equal(o[1], 100);
  run_free(&r);
}

/* --- 32-bit shared and local addresses wrap ------------------------------------------ */

/* %r5 = &sh[t] - 4 and %r13 = &loc - 8 are past 2^32 for thread 0 (sh and
 * loc at offset 0): [%r5+4] is sh[t], [%r13+8] loc, as on the hardware's
 * 32-bit .shared/.local addressing.  Each form of access: the scalar shared
 * store and load (ST_S, LD_S), a byte load (LD), an atomic, and .local. */
static const char wrap_ptx[] = HDR
    ".shared .align 4 .b8 sh[64];\n"
    ".visible .entry wrap(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<16>;\n  .reg .b64 %rd<4>;\n  .local .align 4 .b8 loc[16];\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, sh;\n  shl.b32 %r3, %r1, 2;\n  add.u32 %r4, %r2, %r3;\n  add.u32 %r5, %r4, -4;\n"
    "  mul.lo.u32 %r6, %r1, 91;\n"
    "  st.shared.u32 [%r5+4], %r6;\n  bar.sync 0;\n"
    "  ld.shared.u32 %r7, [%r5+4];\n  ld.shared.u8 %r8, [%r5+4];\n"
    "  atom.shared.add.u32 %r9, [%r5+4], 1;\n  ld.shared.u32 %r10, [%r5+4];\n"
    "  mov.u32 %r12, loc;\n  add.u32 %r13, %r12, -8;\n"
    "  st.local.u32 [%r13+8], %r6;\n  ld.local.u32 %r11, [%r13+8];\n"
    "  mul.wide.u32 %rd2, %r1, 32;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.v4.u32 [%rd3], {%r7, %r8, %r9, %r10};\n  st.global.u32 [%rd3+16], %r11;\n"
    "  ret;\n}\n";

static void test_address_wrap32(void **state) {
  (void)state;
  run r;
  run_ptx(&r, wrap_ptx, "wrap",
          "{\"kernel\": \"wrap\", \"grid\": [1,1,1], \"block\": [16,1,1], \"args\": ["
          "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 128}]}",
          1);
  assert_ok_diag(r.status, &r.d);
  const uint32_t *o = buf32(&r, "out");
  for (uint32_t t = 0; t < 16; t++) {
    const uint32_t *e = o + 8 * t;
    assert_int_equal(e[0], 91 * t);          /* sh[t] */
    assert_int_equal(e[1], (91 * t) & 0xff); /* its low byte (little-endian) */
    assert_int_equal(e[2], 91 * t);          /* the atomic's old value */
    assert_int_equal(e[3], 91 * t + 1);
    assert_int_equal(e[4], 91 * t);          /* loc[0] */
  }
  run_free(&r);
}

/* --- atomics under contention -------------------------------------------------------- */

static const char histo_ptx[] = HDR
    ".shared .align 4 .b8 sh[28];\n"
    ".visible .entry histo(.param .u64 bins, .param .u64 olds)\n"
    "{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [bins];\n  ld.param.u64 %rd9, [olds];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r10, %ctaid.x;\n  mov.u32 %r11, %ntid.x;\n"
    "  mov.u32 %r3, sh;\n"
    "  setp.lt.u32 %p1, %r1, 7;\n  shl.b32 %r4, %r1, 2;\n  add.u32 %r5, %r3, %r4;\n"
    "  @%p1 st.shared.u32 [%r5], 0;\n"
    "  bar.sync 0;\n"
    "  rem.u32 %r2, %r1, 7;\n  shl.b32 %r6, %r2, 2;\n  add.u32 %r7, %r3, %r6;\n"
    "  atom.shared.add.u32 %r8, [%r7], 1;\n"
    "  mul.wide.u32 %rd2, %r2, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  atom.global.add.u32 %r9, [%rd3], 1;\n"
    "  red.global.add.u32 [%rd3+28], 2;\n"
    "  mad.lo.s32 %r10, %r10, %r11, %r1;\n  mul.wide.u32 %rd10, %r10, 4;\n  add.s64 %rd11, %rd9, %rd10;\n"
    "  st.global.u32 [%rd11], %r8;\n"
    "  bar.sync 0;\n"
    "  @%p1 ld.shared.u32 %r9, [%r5];\n"
    "  mul.wide.u32 %rd4, %r1, 4;\n  add.s64 %rd5, %rd1, %rd4;\n"
    "  @%p1 atom.global.add.u32 %r9, [%rd5+56], %r9;\n"
    "  ret;\n}\n";

static void test_atomic_histogram(void **state) {
  (void)state;
  for (int j = 1; j <= 2; j++) {
    run r;
    run_ptx(&r, histo_ptx, "histo",
            "{\"kernel\": \"histo\", \"grid\": [4,1,1], \"block\": [256,1,1], \"args\": ["
            "{\"buffer\": \"bins\", \"type\": \"u32\", \"count\": 21},"
            "{\"buffer\": \"olds\", \"type\": \"u32\", \"count\": 1024}]}",
            j);
    assert_ok_diag(r.status, &r.d);
    uint32_t *b = buf32(&r, "bins"), *old = buf32(&r, "olds");
    for (uint32_t k = 0; k < 7; k++) {
      /* 256 = 7*36 + 4: bins 0..3 get 37 threads per block, 4..6 get 36; 4 blocks */
      uint32_t per = k < 4 ? 37 : 36;
      assert_int_equal(b[k], 4 * per);
      assert_int_equal(b[7 + k], 8 * per);  /* red adds 2 each */
      assert_int_equal(b[14 + k], 4 * per); /* block totals from shared memory */
      /* the old values of one bin in one block are exactly 0 .. per-1 */
      for (uint32_t blk = 0; blk < 4; blk++) {
        uint64_t seen = 0;
        for (uint32_t t = k; t < 256; t += 7) {
          uint32_t v = old[blk * 256 + t];
          assert_true(v < per);
          seen |= 1ull << v;
        }
        assert_int_equal(seen, (per == 64 ? ~0ull : (1ull << per) - 1));
      }
    }
    run_free(&r);
  }
}

/* --- recursion ------------------------------------------------------------------------ */

static const char fact_ptx[] = HDR
    ".func (.param .b32 fr) fact(.param .b32 fn)\n"
    "{\n"
    "  .local .align 4 .b8 buf[4];\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n"
    "  ld.param.b32 %r1, [fn];\n  st.local.u32 [buf], %r1;\n"
    "  setp.le.u32 %p1, %r1, 1;\n  @%p1 bra BASE;\n"
    "  sub.u32 %r2, %r1, 1;\n"
    "  {\n  .param .b32 a0;\n  st.param.b32 [a0], %r2;\n  .param .b32 r0;\n"
    "  call.uni (r0), fact, (a0);\n  ld.param.b32 %r3, [r0];\n  }\n"
    "  ld.local.u32 %r5, [buf];\n  mul.lo.u32 %r4, %r3, %r5;\n  st.param.b32 [fr], %r4;\n  ret;\n"
    "BASE:\n  mov.u32 %r6, 1;\n  st.param.b32 [fr], %r6;\n  ret;\n"
    "}\n"
    ".visible .entry rec(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<6>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  rem.u32 %r2, %r1, 13;\n"
    "  {\n  .param .b32 a0;\n  st.param.b32 [a0], %r2;\n  .param .b32 r0;\n"
    "  call.uni (r0), fact, (a0);\n  ld.param.b32 %r3, [r0];\n  }\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r3;\n"
    "  ret;\n}\n";

static void test_recursion(void **state) {
  (void)state;
  run r;
  run_ptx(&r, fact_ptx, "rec",
          "{\"kernel\": \"rec\", \"grid\": [1,1,1], \"block\": [40,1,1], \"args\": ["
          "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 40}]}",
          1);
  assert_ok_diag(r.status, &r.d);
  uint32_t *out = buf32(&r, "out");
  for (uint32_t t = 0; t < 40; t++) {
    uint32_t n = t % 13, f = 1;
    for (uint32_t k = 2; k <= n; k++) f *= k; /* n! wraps mod 2^32 for n = 13: not reached (n <= 12) */
    assert_int_equal(out[t], f);
  }
  run_free(&r);
}

/* --- fma.rn.f32 against the host's fmaf --------------------------------------------- */

static const char fma_ptx[] = HDR
    ".visible .entry fmak(.param .u64 a, .param .u64 b, .param .u64 c, .param .u64 d)\n"
    "{\n"
    "  .reg .b32 %r<3>;\n  .reg .f32 %f<5>;\n  .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [a];\n  ld.param.u64 %rd2, [b];\n  ld.param.u64 %rd3, [c];\n  ld.param.u64 %rd4, [d];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mad.lo.s32 %r1, %r2, 256, %r1;\n"
    "  mul.wide.u32 %rd5, %r1, 4;\n"
    "  add.s64 %rd6, %rd1, %rd5;\n  add.s64 %rd7, %rd2, %rd5;\n  add.s64 %rd8, %rd3, %rd5;\n  add.s64 %rd9, %rd4, %rd5;\n"
    "  ld.global.f32 %f1, [%rd6];\n  ld.global.f32 %f2, [%rd7];\n  ld.global.f32 %f3, [%rd8];\n"
    "  fma.rn.f32 %f4, %f1, %f2, %f3;\n  st.global.f32 [%rd9], %f4;\n"
    "  ret;\n}\n";

static void test_fma_exact(void **state) {
  (void)state;
  run r;
  memset(&r, 0, sizeof r);
  const char *spec =
      "{\"kernel\": \"fmak\", \"grid\": [16,1,1], \"block\": [256,1,1], \"args\": ["
      "{\"buffer\": \"a\", \"type\": \"f32\", \"count\": 4096, \"init\": {\"random\": {\"seed\": 7, \"min\": -1000, \"max\": 1000}}},"
      "{\"buffer\": \"b\", \"type\": \"f32\", \"count\": 4096, \"init\": {\"random\": {\"seed\": 8, \"min\": -1, \"max\": 1}}},"
      "{\"buffer\": \"c\", \"type\": \"f32\", \"count\": 4096, \"init\": {\"random\": {\"seed\": 9, \"min\": -1000, \"max\": 1000}}},"
      "{\"buffer\": \"d\", \"type\": \"f32\", \"count\": 4096}]}";
  assert_ok_diag(ws_ptx_parse(&r.m, fma_ptx, strlen(fma_ptx), "fma.ptx", &r.d), &r.d);
  assert_ok_diag(ws_emu_launch_spec_parse(&r.s, spec, "spec.json", ".", &r.d), &r.d);
  assert_ok_diag(ws_emu_load(&r.p, r.m, "fmak", &r.d), &r.d);
  assert_ok_diag(ws_emu_launch_new(&r.l, r.p, r.s, &r.d), &r.d);
  float *a = ws_emu_buffer(r.l, "a", NULL), *b = ws_emu_buffer(r.l, "b", NULL), *c = ws_emu_buffer(r.l, "c", NULL);
  /* (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 is a midpoint between two floats; with
   * c = 2^-70 the exact sum lies just above it and must round up, which a
   * double-then-float evaluation gets wrong (it lands on the midpoint). */
  uint32_t one_eps = 0x3F800800u, tiny = 0x1C800000u; /* 1 + 2^-12, 2^-70 */
  memcpy(&a[0], &one_eps, 4);
  memcpy(&b[0], &one_eps, 4);
  memcpy(&c[0], &tiny, 4);
  memcpy(&a[1], &one_eps, 4);
  memcpy(&b[1], &one_eps, 4);
  c[1] = 0.0f; /* exactly the midpoint: ties to even */
  a[2] = 1e-30f; b[2] = 1e-10f; c[2] = 0.0f;  /* subnormal-range product */
  a[3] = 3e38f; b[3] = 2.0f; c[3] = -1.0f;    /* overflow */
  a[4] = 0.0f; b[4] = -1.0f; c[4] = 0.0f;     /* -0 + +0 = +0 */
  a[5] = INFINITY; b[5] = 0.0f; c[5] = 1.0f;  /* NaN */
  ws_emu_options o = WS_EMU_OPTIONS_INIT;
  o.threads = 1;
  assert_ok_diag(ws_emu_run(r.l, &o, NULL, &r.d), &r.d);
  float *dd = ws_emu_buffer(r.l, "d", NULL);
  for (int i = 0; i < 4096; i++) {
    float e = fmaf(a[i], b[i], c[i]); /* the host libm: correctly rounded */
    uint32_t eb, gb;
    memcpy(&eb, &e, 4);
    memcpy(&gb, &dd[i], 4);
    if (e != e) eb = 0x7fffffffu; /* PTX canonical NaN */
    if (eb != gb) print_error("element %d: got 0x%08x expected 0x%08x\n", i, gb, eb);
    assert_int_equal(gb, eb);
  }
  run_free(&r);
}

/* --- instruction semantics on fixed operands ------------------------------------------ */

/* Results of tests/unit/emu_alu.ptx for x = 0xFFFFFFF9 (-7 as s32), y = 3,
 * computed by hand from the PTX ISA definitions. */
static const uint32_t alu_expected[] = {
    0x00000001u, /* 0: x + x = 0x1_FFFF_FFF2: carry 1 into addc(0, 0) */
    0xFFFFFFF2u, /* 1: low word of x + x */
    0xFFFFFFFFu, /* 2: 3 - 0xFFFFFFF9 borrows: 0 - 0 - 1 */
    0x0000000Au, /* 3: 3 - 0xFFFFFFF9 mod 2^32 = 10 */
    0xFFFFFFFFu, /* 4: -7 * 3 = -21: high word -1 */
    0x00000002u, /* 5: 0xFFFFFFF9 * 3 = 0x2_FFFF_FFEB */
    0xFFFFFFFEu, /* 6: -7 / 3 truncates to -2 */
    0xFFFFFFFFu, /* 7: -7 % 3 = -1 (sign of the dividend) */
    0x55555553u, /* 8: 4294967289 / 3 = 1431655763 */
    0xFFFFFFFCu, /* 9: -7 >> 1 = -4 (arithmetic) */
    0x7FFFFFFCu, /* 10: 0xFFFFFFF9 >> 1 */
    0x00000000u, /* 11: shift amounts >= 32 give 0 */
    0xFFFFFFFFu, /* 12: arithmetic shift by >= 32 fills with the sign */
    0xFFFFFFF9u, /* 13: min(-7, 3) = -7 */
    0x00000003u, /* 14: min(4294967289, 3) = 3 */
    0xFFFFFFF9u, /* 15: low nibble 1001b sign-extended = -7 */
    0x000000FFu, /* 16: bits 4..11 of 0xFFFFFFF9 */
    0xFFFFF3F9u, /* 17: 0011b into bits 8..11 of 0xFFFFFFF9 */
    0x03FFFFFFu, /* 18: bytes {a1,a2,a3,b0} = {FF,FF,FF,03} */
    0x0000001Eu, /* 19: 0xFFFFFFF9 has two zero bits */
    0x0000001Eu, /* 20: 3 = 0b11 */
    0xC0000000u, /* 21: bit reversal of 0b11 */
    0x00000001u, /* 22: most significant set bit of 3 */
    0x00000002u, /* 23: -7 = ...11111001b: most significant non-sign bit is bit 2 */
    0x00000000u, /* 24: (4294967289 < 3) and (-7 < 3) = false */
    0xFFFFFFFFu, /* 25: -7 < 3: set.u32 gives all ones */
    0xFFFFFFFFu, /* 26: sign extension: high word of -7 */
    0x00000000u, /* 27: zero extension: high word 0 */
    0x000000F9u, /* 28: truncate to 8 bits, zero-extend back */
    0xFFFFFFF9u, /* 29: truncate to s8 (-7), sign-extend back */
    0xFFFFFFFEu, /* 30: -2.5 to nearest even: -2 */
    0xFFFFFFFDu, /* 31: -2.5 toward -inf: -3 */
    0xC0E00000u, /* 32: -7.0f */
    0x02FFFFEBu, /* 33: 0xFFFFF9 * 3 = 50331627 (low 24 bits of x) */
    0xFFFFFFF7u, /* 34: |4294967289 - 3| + 1 */
    0x0F0F0F0Au, /* 35: three-way xor: 0xFFFFFFF9 ^ 3 ^ 0xF0F0F0F0 */
    0x0000003Fu, /* 36: high word of (3:0xFFFFFFF9) << 4 */
    0x00000014u, /* 37: x < 0 selects b */
    0xFFFFFFFCu, /* 38: ~3 */
    0x00000000u, /* 39: 3 != 0 */
    0xFFFFFFFDu, /* 40: -3 */
    0x00000007u, /* 41: |-7| */
    0x7FFFFFFFu, /* 42: saturates at INT32_MAX */
    0xC0000000u, /* 43: |2.0| with the sign of -1.0 */
    0x3F800000u, /* 44: min(NaN, 1) = 1 */
    0x00003555u, /* 45: RN(0.33333334f) in binary16 */
    0x41000000u, /* 46: 2^3 = 8 exactly */
    0x3E800000u, /* 47: 1/4 */
    0x3FB504F3u, /* 48: RN(sqrt 2) = 1.41421354f */
    0x3EAAAAABu, /* 49: RN(1/3) */
    0x3EAAAAAAu, /* 50: 1/3 toward zero */
    0x00000000u, /* 51: .ftz flushes the subnormal inputs */
    0x00000002u, /* 52: subnormals kept: 2 * 2^-149 */
    0x3F800000u, /* 53: .sat clamps 1.5 to 1.0 */
    0x42004200u, /* 54: f16x2: 1*2 + 1 = 3 in each half (0x4200) */
    0xFFFFFFFFu, /* 55: unsigned division by zero: all ones (docs/numerics.md) */
};

static void test_alu(void **state) {
  (void)state;
  run r;
  memset(&r, 0, sizeof r);
  char *text;
  size_t len;
  assert_ok_diag(ws_read_file(&text, &len, WS_SOURCE_DIR "/tests/unit/emu_alu.ptx", &r.d), &r.d);
  run_ptx(&r, text, "alu",
          "{\"kernel\": \"alu\", \"grid\": [1,1,1], \"block\": [1,1,1], \"args\": ["
          "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 56},"
          "{\"scalar\": \"x\", \"type\": \"u32\", \"value\": 4294967289},"
          "{\"scalar\": \"y\", \"type\": \"u32\", \"value\": 3}]}",
          1);
  free(text);
  assert_ok_diag(r.status, &r.d);
  uint32_t *out = buf32(&r, "out");
  assert_int_equal(sizeof alu_expected / sizeof alu_expected[0], 56);
  for (int i = 0; i < 56; i++) {
    if (out[i] != alu_expected[i]) print_error("result %d: got 0x%08x expected 0x%08x\n", i, out[i], alu_expected[i]);
    assert_int_equal(out[i], alu_expected[i]);
  }
  run_free(&r);
}

/* --- device printf ------------------------------------------------------------------ */

static void test_printf(void **state) {
  (void)state;
  for (int j = 1; j <= 3; j += 2) {
    run r;
    memset(&r, 0, sizeof r);
    char *text;
    size_t len;
    assert_ok_diag(ws_read_file(&text, &len, WS_SOURCE_DIR "/tests/unit/emu_printf.ptx", &r.d), &r.d);
    assert_ok_diag(ws_ptx_parse(&r.m, text, len, "emu_printf.ptx", &r.d), &r.d);
    free(text);
    assert_ok_diag(ws_emu_launch_spec_parse(&r.s,
                                        "{\"kernel\": \"pk\", \"grid\": [3,1,1], \"block\": [2,1,1], \"args\": ["
                                        "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 2}]}",
                                        "spec.json", ".", &r.d),
                   &r.d);
    assert_ok_diag(ws_emu_load(&r.p, r.m, "pk", &r.d), &r.d);
    assert_ok_diag(ws_emu_launch_new(&r.l, r.p, r.s, &r.d), &r.d);
    FILE *f = tmpfile();
    assert_non_null(f);
    ws_emu_options o = WS_EMU_OPTIONS_INIT;
    o.threads = j;
    o.printf_out = f;
    assert_ok_diag(ws_emu_run(r.l, &o, NULL, &r.d), &r.d);
    /* the host's printf is the reference; output comes in block order */
    char expect[1024] = "", line[2][128];
    for (int t = 0; t < 2; t++)
      snprintf(line[t], sizeof line[t], "t%d u=%u x=%x ll=%lld c=%c s=%s f=%.2f %%\n", t, 4294967295u, 48879u,
               -5000000000ll, 'A' + t, "hi", 3.14159265358979);
    for (int b = 0; b < 3; b++)
      for (int t = 0; t < 2; t++) strcat(expect, line[t]);
    char got[1024] = "";
    rewind(f);
    size_t n = fread(got, 1, sizeof got - 1, f);
    got[n] = '\0';
    fclose(f);
    assert_string_equal(got, expect);
    uint32_t *out = buf32(&r, "out");
    assert_int_equal(out[0], strlen(line[0])); /* vprintf returns the characters written */
    assert_int_equal(out[1], strlen(line[1]));
    run_free(&r);
  }
}

/* Nothing is cut at a fixed length: a 6000-character field and a
 * 5000-character %s string come out whole (the reference is the host's
 * snprintf; the emulator used to stop each conversion at 4159 characters
 * and each string at 4095). */
static void test_printf_long(void **state) {
  (void)state;
  enum { SLEN = 5000 };
  static const char fmt[] = "%6000d|%s\n";
  ws_strbuf ptx = WS_STRBUF_INIT;
  ws_sb_printf(&ptx, "%s.extern .func (.param .b32 func_retval0) vprintf (.param .b64 a, .param .b64 b);\n"
                     ".global .align 1 .b8 fmt[%zu] = {", HDR, sizeof fmt);
  for (size_t i = 0; i < sizeof fmt; i++) ws_sb_printf(&ptx, "%s%d", i ? ", " : "", fmt[i]);
  ws_sb_printf(&ptx, "};\n.global .align 1 .b8 str[%d] = {", SLEN + 1);
  for (int i = 0; i <= SLEN; i++) ws_sb_printf(&ptx, "%s%d", i ? ", " : "", i < SLEN ? 'a' + i % 26 : 0);
  ws_sb_puts(&ptx, "};\n"
                   ".visible .entry pl(.param .u64 out)\n{\n"
                   "  .local .align 8 .b8 d[16];\n  .reg .b32 %r<3>;\n  .reg .b64 %rd<8>;\n"
                   "  mov.u64 %rd1, d;\n  cvta.local.u64 %rd2, %rd1;\n"
                   "  mov.u32 %r1, 42;\n  st.local.u32 [%rd1], %r1;\n"
                   "  mov.u64 %rd3, str;\n  cvta.global.u64 %rd4, %rd3;\n  st.local.u64 [%rd1+8], %rd4;\n"
                   "  mov.u64 %rd5, fmt;\n  cvta.global.u64 %rd6, %rd5;\n"
                   "  { .param .b64 p0; st.param.b64 [p0], %rd6; .param .b64 p1; st.param.b64 [p1], %rd2;\n"
                   "    .param .b32 rv; call.uni (rv), vprintf, (p0, p1); ld.param.b32 %r2, [rv]; }\n"
                   "  ld.param.u64 %rd7, [out];\n  st.global.u32 [%rd7], %r2;\n  ret;\n}\n");
  assert_false(ptx.oom);
  run r;
  memset(&r, 0, sizeof r);
  assert_ok_diag(ws_ptx_parse(&r.m, ptx.s, ptx.n, "printf_long.ptx", &r.d), &r.d);
  ws_sb_free(&ptx);
  assert_ok_diag(ws_emu_launch_spec_parse(&r.s,
                                          "{\"kernel\": \"pl\", \"grid\": [1,1,1], \"block\": [1,1,1], \"args\": ["
                                          "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 1}]}",
                                          "spec.json", ".", &r.d),
                 &r.d);
  assert_ok_diag(ws_emu_load(&r.p, r.m, "pl", &r.d), &r.d);
  assert_ok_diag(ws_emu_launch_new(&r.l, r.p, r.s, &r.d), &r.d);
  FILE *f = tmpfile();
  assert_non_null(f);
  ws_emu_options o = WS_EMU_OPTIONS_INIT;
  o.printf_out = f;
  assert_ok_diag(ws_emu_run(r.l, &o, NULL, &r.d), &r.d);
  static char s[SLEN + 1], expect[6000 + SLEN + 8], got[sizeof expect + 16];
  for (int i = 0; i < SLEN; i++) s[i] = (char)('a' + i % 26);
  int n = snprintf(expect, sizeof expect, "%6000d|%s\n", 42, s);
  assert_int_equal(n, 6000 + 1 + SLEN + 1);
  rewind(f);
  size_t g = fread(got, 1, sizeof got - 1, f);
  got[g] = '\0';
  fclose(f);
  assert_int_equal(g, (size_t)n);
  assert_string_equal(got, expect);
  assert_int_equal(buf32(&r, "out")[0], (uint32_t)n); /* vprintf returns the characters written */
  run_free(&r);
}

/* --- registers a block reads before writing them ---------------------------------------- */

/* A worker reuses its warps' registers from block to block and clears only
 * those a lane may read before writing them (docs/emulator.md,
 * "Registers"): %r3 (not written by lanes tid < ctaid, then stored) and
 * %r5 (written by every lane that runs on, but read by shfl from lane 5,
 * which exits first in block 1).  Uninitialised registers read as 0, as
 * in a fresh frame: in block b, lanes tid < b store 0 (block 0 left
 * tid + 100 there); in block 1 every lane gets 0 from lane 5 (block 0 left
 * 1005 there). */
static const char reuse_ptx[] = HDR
    ".visible .entry reuse(.param .u64 out, .param .u64 sh)\n"
    "{\n"
    "  .reg .pred %p<5>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u64 %rd4, [sh];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n"
    "  setp.lt.u32 %p1, %r1, %r2;\n  @%p1 bra SKIP;\n"
    "  add.u32 %r3, %r1, 100;\n"
    "SKIP:\n"
    "  mad.lo.u32 %r4, %r2, 32, %r1;\n  mul.wide.u32 %rd2, %r4, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r3;\n"
    "  setp.eq.u32 %p2, %r1, 5;\n  setp.eq.u32 %p3, %r2, 1;\n  and.pred %p4, %p2, %p3;\n"
    "  @%p4 exit;\n"
    "  add.u32 %r5, %r1, 1000;\n"
    "  shfl.sync.idx.b32 %r6, %r5, 5, 31, -1;\n"
    "  add.s64 %rd5, %rd4, %rd2;\n  st.global.u32 [%rd5], %r6;\n"
    "  ret;\n}\n";

static void test_register_reuse(void **state) {
  (void)state;
  run r;
  run_ptx(&r, reuse_ptx, "reuse",
          "{\"kernel\": \"reuse\", \"grid\": [3,1,1], \"block\": [32,1,1], \"args\": ["
          "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 96},"
          "{\"buffer\": \"sh\", \"type\": \"u32\", \"count\": 96}]}",
          1); /* one worker: blocks 0, 1, 2 in order on the same warps */
  assert_ok_diag(r.status, &r.d);
  uint32_t *out = buf32(&r, "out"), *sh = buf32(&r, "sh");
  for (uint32_t b = 0; b < 3; b++)
    for (uint32_t t = 0; t < 32; t++) {
      assert_int_equal(out[b * 32 + t], t < b ? 0 : t + 100);
      /* lane 5 of block 1 exited (its element stays 0); lane 5's %r5 is
       * 5 + 1000 where it ran */
      uint32_t want = b == 1 ? 0 : 1005;
      assert_int_equal(sh[b * 32 + t], want);
    }
  run_free(&r);
}

/* The same for the warp-wide matrix instructions, which read all 32 lanes'
 * registers (load.c, cross_lane_reads): movmatrix transposes the 8x8 b16
 * matrix whose row t/4, columns 2(t%4) and 2(t%4)+1 lane t holds in %r5
 * (both halves tid + 1).  Lane t's half h of the result is element
 * (2(t%4)+h, t/4), held by lane src = (2(t%4)+h) x 4 + t/8, half (t/4)%2:
 * src + 1, except in block 1, where lane 5 exits before writing %r5 and so
 * supplies 0, as a fresh frame's register (block 0 left 6 there): lanes 8
 * and 12's upper halves.  Lane 5 of block 1 stores nothing (0). */
static const char reuse_mma_ptx[] = ".version 7.8\n.target sm_80\n.address_size 64\n"
    ".visible .entry reuse_mma(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<5>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n"
    "  mad.lo.u32 %r4, %r2, 32, %r1;\n  mul.wide.u32 %rd2, %r4, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  setp.eq.u32 %p2, %r1, 5;\n  setp.eq.u32 %p3, %r2, 1;\n  and.pred %p4, %p2, %p3;\n"
    "  @%p4 exit;\n"
    "  mad.lo.u32 %r5, %r1, 65537, 65537;\n"
    "  movmatrix.sync.aligned.m8n8.trans.b16 %r6, %r5;\n"
    "  st.global.u32 [%rd3], %r6;\n"
    "  ret;\n}\n";

static void test_register_reuse_matrix(void **state) {
  (void)state;
  run r;
  run_ptx(&r, reuse_mma_ptx, "reuse_mma",
          "{\"kernel\": \"reuse_mma\", \"grid\": [3,1,1], \"block\": [32,1,1], \"args\": ["
          "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 128}]}",
          1); /* one worker: blocks 0, 1, 2 in order on the same warps */
  assert_ok_diag(r.status, &r.d);
  uint32_t *out = buf32(&r, "out");
  for (uint32_t b = 0; b < 3; b++)
    for (uint32_t t = 0; t < 32; t++) {
      uint32_t want = 0;
      for (uint32_t h = 0; h < 2; h++) {
        uint32_t src = (2 * (t % 4) + h) * 4 + t / 8;
        want |= (b == 1 && src == 5 ? 0 : src + 1) << (16 * h);
      }
      if (b == 1 && t == 5) want = 0;
      assert_int_equal(out[b * 32 + t], want);
    }
  run_free(&r);
}

/* --- faults ------------------------------------------------------------------------------ */

static const char oob_ptx[] = HDR
    ".visible .entry oob(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<3>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r1;\n"
    "  ret;\n}\n";

static void test_fault_report(void **state) {
  (void)state;
  run r;
  /* 40 threads write out[0..39]; out has 36 elements: thread 36 writes 0 bytes past the end */
  run_ptx(&r, oob_ptx, "oob",
          "{\"kernel\": \"oob\", \"grid\": [1,1,1], \"block\": [40,1,1], \"args\": ["
          "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 36}]}",
          1);
  assert_int_equal(r.status, WS_EFAULT);
  char *txt = ws_diag_format(&r.d);
  assert_non_null(strstr(txt, "out-of-bounds write of 4 bytes"));
  assert_non_null(strstr(txt, "thread (36,0,0)"));
  assert_non_null(strstr(txt, "block (0,0,0)"));
  assert_non_null(strstr(txt, "0 bytes past the end of buffer 'out'"));
  assert_non_null(strstr(txt, "st.global.u32"));
  if (!strstr(txt, "test.ptx:12:3")) print_error("%s\n", txt);
  assert_non_null(strstr(txt, "test.ptx:12:3"));
  free(txt);
  run_free(&r);
}

/* --- one event per run of plain instructions (hooks->runs) ----------------------------- */

/* One instruction as the hooks report it. */
typedef struct hrec {
  uint32_t block, warp, pc, active, exec, taken;
  ptrdiff_t func; /* its index in the module (each run parses its own) */
  int bb_entry;
  uint8_t space;
} hrec;

typedef struct hseq {
  const ws_ptx_module *m; /* the run's module */
  hrec *r;
  size_t n, cap;
  uint64_t events, runs, run_insts; /* events; those with count > 1, and their instructions */
  int runs_bad;                     /* a run event with a branch's, a guard's or a memory access's fields */
} hseq;

static void hseq_push(hseq *h, const ws_emu_event *ev, uint32_t k) {
  if (h->n == h->cap) {
    h->cap = h->cap ? 2 * h->cap : 256;
    h->r = realloc(h->r, h->cap * sizeof *h->r);
    assert_non_null(h->r);
  }
  /* the k-th instruction of the event: bb_entry is the first's */
  h->r[h->n++] = (hrec){ev->block_linear, ev->warp, ev->pc + k, ev->active, ev->exec, ev->taken,
                        ev->func - h->m->funcs, k ? 0 : ev->bb_entry, ev->space};
}

/* Records every event, a run expanded into its instructions. */
static void on_inst_seq(void *user, const ws_emu_event *ev) {
  hseq *h = user;
  h->events++;
  if (ev->count > 1) {
    h->runs++;
    h->run_insts += ev->count;
    h->runs_bad |= ev->exec != ev->active || ev->taken || ev->space || ev->bytes || ev->addr ||
                   ev->pc + ev->count > ev->func->ninsts;
  }
  for (uint32_t k = 0; k < (ev->count ? ev->count : 1); k++) hseq_push(h, ev, k);
}

/* Runs `kernel` of ptx under spec on one thread with the recording hook,
 * per instruction (runs 0) or per run (1); returns the run's status. */
static int run_seq(const char *ptx, const char *kernel, const char *spec, int runs, hseq *h, uint64_t *warp_insts) {
  run r;
  load_ptx(&r, ptx, kernel, spec);
  h->m = r.m;
  ws_emu_hooks hk = {.user = h, .inst = on_inst_seq, .runs = runs};
  ws_emu_options o = WS_EMU_OPTIONS_INIT;
  o.hooks = &hk;
  o.threads = 1;
  assert_ok_diag(ws_emu_launch_new(&r.l, r.p, r.s, &r.d), &r.d);
  ws_emu_stats st;
  memset(&st, 0, sizeof st);
  int status = ws_emu_run(r.l, &o, &st, &r.d);
  *warp_insts = st.warp_insts;
  run_free(&r);
  return status;
}

/* The kernel run per instruction and per run gives, runs expanded, the
 * same sequence of (block, warp, function, pc, active, exec, bb_entry,
 * taken, space), one instruction per executed warp instruction; returns
 * how many run events it had.  `status`: the run's expected status. */
static uint64_t check_runs(const char *ptx, const char *kernel, const char *spec, int status) {
  hseq one = {0}, many = {0};
  uint64_t n1 = 0, n2 = 0;
  assert_int_equal(run_seq(ptx, kernel, spec, 0, &one, &n1), status);
  assert_int_equal(run_seq(ptx, kernel, spec, 1, &many, &n2), status);
  assert_int_equal(one.runs, 0); /* without runs, every event is one instruction */
  if (status == WS_OK) assert_int_equal(one.n, n1);
  assert_int_equal(many.n, one.n);
  assert_false(many.runs_bad);
  for (size_t i = 0; i < one.n; i++) {
    const hrec *a = &one.r[i], *b = &many.r[i];
    int same = a->block == b->block && a->warp == b->warp && a->func == b->func && a->pc == b->pc &&
               a->active == b->active && a->exec == b->exec && a->bb_entry == b->bb_entry &&
               a->taken == b->taken && a->space == b->space;
    if (!same)
      print_error("%s: instruction %zu: per instruction warp %u pc %u active %08x exec %08x bb %d; "
                  "with runs warp %u pc %u active %08x exec %08x bb %d\n",
                  kernel, i, a->warp, a->pc, a->active, a->exec, a->bb_entry, b->warp, b->pc, b->active, b->exec,
                  b->bb_entry);
    assert_true(same);
  }
  /* fewer events, by as many as the runs' instructions past their first */
  assert_int_equal(many.events + many.run_insts - many.runs, one.events);
  free(one.r);
  free(many.r);
  return many.runs;
}

/* Guarded instructions inside a block, a barrier, a loop and a fault. */
static const char runs_ptx[] = HDR
    ".shared .align 4 .b8 sr[256];\n"
    ".visible .entry runs(.param .u64 out, .param .u32 bad)\n"
    "{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u32 %r10, [bad];\n"
    "  mov.u32 %r1, %tid.x;\n  and.b32 %r2, %r1, 3;\n  setp.eq.u32 %p1, %r2, 0;\n"
    "  add.u32 %r3, %r1, 7;\n  @%p1 add.u32 %r3, %r3, 1;\n  mul.lo.u32 %r4, %r3, 3;\n"
    "  @!%p1 mul.lo.u32 %r4, %r4, 5;\n  xor.b32 %r5, %r4, %r1;\n"
    "  shl.b32 %r6, %r1, 2;\n  mov.u32 %r7, sr;\n  add.u32 %r7, %r7, %r6;\n  st.shared.u32 [%r7], %r5;\n"
    "  bar.sync 0;\n"
    "  add.u32 %r8, %r5, 1;\n  mov.u32 %r9, 0;\n"
    "LOOP:\n  add.u32 %r9, %r9, %r8;\n  sub.u32 %r8, %r8, 1;\n  and.b32 %r8, %r8, 7;\n"
    "  setp.ne.u32 %p2, %r8, 0;\n  @%p2 bra LOOP;\n"
    "  add.u32 %r9, %r9, 1;\n  mov.u32 %r11, 1;\n  shl.b32 %r11, %r11, %r10;\n  not.b32 %r11, %r11;\n"
    "  shfl.sync.idx.b32 %r11, %r9, 0, 31, %r11;\n  add.u32 %r9, %r9, %r11;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r9;\n"
    "  ret;\n}\n";

static void test_hooks_runs(void **state) {
  (void)state;
  /* guards, a barrier, a loop; and bad = 3: lane 3 is not in its shuffle's
   * member mask, a fault inside a run */
  assert_true(check_runs(runs_ptx, "runs",
                         "{\"kernel\": \"runs\", \"grid\": [2,1,1], \"block\": [64,1,1], \"args\": ["
                         "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 128},"
                         "{\"scalar\": \"bad\", \"type\": \"u32\", \"value\": 40}]}",
                         WS_OK) > 0);
  check_runs(runs_ptx, "runs",
             "{\"kernel\": \"runs\", \"grid\": [1,1,1], \"block\": [32,1,1], \"args\": ["
             "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 32},"
             "{\"scalar\": \"bad\", \"type\": \"u32\", \"value\": 3}]}",
             WS_EFAULT);
  /* nested divergence */
  assert_true(check_runs(nested_ptx, "nested",
                         "{\"kernel\": \"nested\", \"grid\": [1,1,1], \"block\": [40,1,1], \"args\": ["
                         "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 40},"
                         "{\"buffer\": \"inner\", \"type\": \"u32\", \"count\": 40}]}",
                         WS_OK) > 0);
  /* per-lane loop trip counts */
  assert_true(check_runs(loop_ptx, "loop",
                         "{\"kernel\": \"loop\", \"grid\": [1,1,1], \"block\": [48,1,1], \"args\": ["
                         "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 48},"
                         "{\"buffer\": \"mask\", \"type\": \"u32\", \"count\": 48}]}",
                         WS_OK) > 0);
  /* indirect calls, one group of lanes after the other, and recursion */
  check_runs(icall_ptx, "icall",
             "{\"kernel\": \"icall\", \"grid\": [1,1,1], \"block\": [32,1,1], \"args\": ["
             "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 64}]}",
             WS_OK);
  assert_true(check_runs(fact_ptx, "rec",
                         "{\"kernel\": \"rec\", \"grid\": [1,1,1], \"block\": [40,1,1], \"args\": ["
                         "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 40}]}",
                         WS_OK) > 0);
  /* exits before a barrier, two warps and three blocks */
  assert_true(check_runs(early_ptx, "early",
                         "{\"kernel\": \"early\", \"grid\": [3,1,1], \"block\": [64,1,1], \"args\": ["
                         "{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 64}]}",
                         WS_OK) > 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_nested_divergence), cmocka_unit_test(test_loop_trip_counts),
      cmocka_unit_test(test_early_exit_barrier), cmocka_unit_test(test_warp_ops_partial),
      cmocka_unit_test(test_atomic_histogram),   cmocka_unit_test(test_recursion),
      cmocka_unit_test(test_brx),                cmocka_unit_test(test_alloca),                cmocka_unit_test(test_half_atomics),
      cmocka_unit_test(test_half_set),                cmocka_unit_test(test_indirect_call),                cmocka_unit_test(test_alu),                cmocka_unit_test(test_printf), cmocka_unit_test(test_printf_long),                cmocka_unit_test(test_fma_exact),          cmocka_unit_test(test_hooks), cmocka_unit_test(test_hooks_functions), cmocka_unit_test(test_hooks_runs),          cmocka_unit_test(test_fault_report),
      cmocka_unit_test(test_address_wrap32), cmocka_unit_test(test_redux_member_mask),
      cmocka_unit_test(test_member_mask_groups), cmocka_unit_test(test_member_mask_faults),
      cmocka_unit_test(test_member_mask_partial_warp), cmocka_unit_test(test_member_mask_full_decision),
      cmocka_unit_test(test_member_mask_register),
      cmocka_unit_test(test_member_mask_zero),
      cmocka_unit_test(test_reserved_shared), cmocka_unit_test(test_register_reuse),
      cmocka_unit_test(test_register_reuse_matrix),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
