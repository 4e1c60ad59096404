/*
 * test_analysis.c — basic blocks, CFG, dominators, post-dominators, loops,
 * def-use chains, instruction classes and static ILP/MLP.
 *
 * Every expected value is worked out by hand in the comments from the PTX
 * in the test, with the rules of docs/static-analysis.md.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpsight/analysis.h"

typedef struct fixture {
  ws_ptx_module *m;
  ws_cfg *c;
} fixture;

static void build(fixture *fx, const char *src, const char *fname) {
  ws_diag d = WS_DIAG_INIT;
  int r = ws_ptx_parse(&fx->m, src, strlen(src), "t.ptx", &d);
  if (r) {
    char *s = ws_diag_format(&d);
    fprintf(stderr, "%s", s ? s : "");
    free(s);
  }
  assert_int_equal(r, WS_OK);
  const ws_ptx_function *f = ws_ptx_find_function(fx->m, fname);
  assert_non_null(f);
  assert_int_equal(ws_analysis_build(&fx->c, fx->m, f, &d), WS_OK);
  ws_diag_free(&d);
}

static void done(fixture *fx) {
  ws_analysis_free(fx->c);
  ws_ptx_module_free(fx->m);
}

#define HDR ".version 8.0\n.target sm_80\n.address_size 64\n"

/* One block: three loads, then their uses.
 *  0 ld.global %f1, [%rd1]      group 1
 *  1 ld.global %f2, [%rd1+4]    reads %rd1 only -> group 1
 *  2 ld.global %f3, [%rd1+8]    group 1
 *  3 add %f4, %f1, %f2          reads %f1 (group 1) -> group 2
 *  4 st.global [%rd2], %f4      reads %f4 (group 2) -> group 3
 *  5 add %f5, %f3, %f4          %f4 is from group 2, %f3 from 1 -> group 3
 *  6 ret                        group 3
 * ILP = 7 / 3.
 * MLP: load 0 -> requests 0,1,2 before its use at 3 = 3;
 *      load 1 -> 1,2 = 2 (used at 3);
 *      load 2 -> 2, then 4 (st.global) before its use at 5 = 2.
 * MLP = (3 + 2 + 2) / 3 = 7/3. */
static const char *straight =
    HDR ".entry s(.param .u64 a)\n{\n.reg .b64 %rd<3>;\n.reg .f32 %f<6>;\n"
    "ld.global.f32 %f1, [%rd1];\n"
    "ld.global.f32 %f2, [%rd1+4];\n"
    "ld.global.f32 %f3, [%rd1+8];\n"
    "add.f32 %f4, %f1, %f2;\n"
    "st.global.f32 [%rd2], %f4;\n"
    "add.f32 %f5, %f3, %f4;\n"
    "ret;\n}\n";

static void test_ilp_mlp_straight(void **state) {
  (void)state;
  fixture fx;
  build(&fx, straight, "s");
  assert_int_equal(fx.c->nblocks, 1);
  const ws_bb *b = &fx.c->blocks[0];
  assert_int_equal(b->ngroups, 3);
  assert_true(fabs(b->ilp - 7.0 / 3.0) < 1e-12);
  assert_int_equal(b->nloads, 3);
  assert_true(fabs(b->mlp - 7.0 / 3.0) < 1e-12);
  assert_int_equal(b->counts[WS_IC_LD_GLOBAL], 3);
  assert_int_equal(b->counts[WS_IC_ST_GLOBAL], 1);
  assert_int_equal(b->counts[WS_IC_FP32], 2);
  assert_int_equal(b->counts[WS_IC_RET], 1);
  assert_int_equal(b->nsucc, 1);
  assert_int_equal(b->succ[0], 1); /* the exit is block id nblocks = 1 */
  /* def-use: %f4 (inst 3) is used by 4 and 5; the use of %f3 at 5 comes from 2 */
  const ws_cfg *c = fx.c;
  assert_int_equal(c->du_start[4] - c->du_start[3], 2);
  assert_int_equal(c->du[c->du_start[3]], 4);
  assert_int_equal(c->du[c->du_start[3] + 1], 5);
  int found = 0;
  for (uint32_t u = c->use_start[5]; u < c->use_start[6]; u++)
    if (c->uses[u].ndefs == 1 && c->uses[u].defs[0] == 2) found = 1;
  assert_true(found);
  /* %rd1 is read but never written in the function: no reaching def */
  assert_int_equal(c->uses[c->use_start[0]].ndefs, 0);
  done(&fx);
}

/* A diamond with a guarded definition:
 *  B0: 0 setp  1 @%p1 bra ELSE          succ: B2 (ELSE), B1
 *  B1: 2 mov %r2, 1   3 bra JOIN        succ: B3
 *  B2: 4 mov %r2, 2   5 @%p1 mov %r2, 3 succ: B3 (falls through)
 *  B3: 6 add %r3, %r2, %r2   7 ret      succ: exit
 * idom: B1, B2, B3 <- B0.  ipdom: B0, B1, B2 -> B3; B3 -> exit.
 * The branch at 1 reconverges at the first instruction of B3 (6).
 * Reaching defs of %r2 at 6: 2 (B1), 4 and 5 (5 is guarded, so 4 survives). */
static const char *diamond =
    HDR ".entry d(.param .u32 x)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\n"
    "setp.eq.u32 %p1, %r1, 0;\n"
    "@%p1 bra ELSE;\n"
    "mov.u32 %r2, 1;\n"
    "bra JOIN;\n"
    "ELSE:\n"
    "mov.u32 %r2, 2;\n"
    "@%p1 mov.u32 %r2, 3;\n"
    "JOIN:\n"
    "add.s32 %r3, %r2, %r2;\n"
    "ret;\n}\n";

static void test_diamond(void **state) {
  (void)state;
  fixture fx;
  build(&fx, diamond, "d");
  const ws_cfg *c = fx.c;
  assert_int_equal(c->nblocks, 4);
  assert_int_equal(c->blocks[0].nsucc, 2);
  assert_int_equal(c->blocks[0].succ[0], 2);
  assert_int_equal(c->blocks[0].succ[1], 1);
  assert_int_equal(c->blocks[1].succ[0], 3);
  assert_int_equal(c->blocks[2].succ[0], 3);
  assert_int_equal(c->blocks[3].succ[0], 4); /* exit */
  assert_int_equal(c->blocks[0].idom, WS_CFG_NONE);
  for (int b = 1; b < 4; b++) assert_int_equal(c->blocks[b].idom, 0);
  for (int b = 0; b < 3; b++) assert_int_equal(c->blocks[b].ipdom, 3);
  assert_int_equal(c->blocks[3].ipdom, 4);
  assert_true(ws_analysis_cfg_postdominates(c, 3, 0));
  assert_false(ws_analysis_cfg_postdominates(c, 1, 0));
  assert_true(ws_analysis_cfg_dominates(c, 0, 3));
  assert_false(ws_analysis_cfg_dominates(c, 1, 3));
  assert_int_equal(ws_analysis_cfg_reconverge_inst(c, 1), 6);
  assert_int_equal(c->blocks[3].npred, 2);
  assert_int_equal(c->nloops, 0);
  /* the two reads of %r2 at instruction 6 both see {2, 4, 5} */
  uint32_t u = c->use_start[6];
  assert_int_equal(c->use_start[7] - u, 2);
  assert_int_equal(c->uses[u].ndefs, 3);
  assert_int_equal(c->uses[u].defs[0], 2);
  assert_int_equal(c->uses[u].defs[1], 4);
  assert_int_equal(c->uses[u].defs[2], 5);
  /* the guard %p1 of instruction 5 is a use defined at 0 */
  int guard_use = 0;
  for (uint32_t k = c->use_start[5]; k < c->use_start[6]; k++)
    if (c->uses[k].ndefs == 1 && c->uses[k].defs[0] == 0) guard_use = 1;
  assert_true(guard_use);
  done(&fx);
}

/* Two nested loops:
 *  B0: 0 mov %r1, 0                            succ B1
 *  B1 OUTER: 1 mov %r2, 0                      succ B2
 *  B2 INNER: 2 add %r2  3 setp  4 @%p1 bra INNER   succ B2, B3
 *  B3: 5 add %r1  6 setp  7 @%p2 bra OUTER     succ B1, B4
 *  B4: 8 exit                                  succ exit
 * Back edges B2->B2 (inner, header B2) and B3->B1 (outer, header B1).
 * Outer loop {1,2,3} depth 1; inner {2} depth 2, parent = outer. */
static const char *nested =
    HDR ".entry n()\n{\n.reg .pred %p<3>;\n.reg .b32 %r<3>;\n"
    "mov.u32 %r1, 0;\n"
    "OUTER:\n"
    "mov.u32 %r2, 0;\n"
    "INNER:\n"
    "add.s32 %r2, %r2, 1;\n"
    "setp.lt.s32 %p1, %r2, 10;\n"
    "@%p1 bra INNER;\n"
    "add.s32 %r1, %r1, 1;\n"
    "setp.lt.s32 %p2, %r1, 5;\n"
    "@%p2 bra OUTER;\n"
    "exit;\n}\n";

static void test_nested_loops(void **state) {
  (void)state;
  fixture fx;
  build(&fx, nested, "n");
  const ws_cfg *c = fx.c;
  assert_int_equal(c->nblocks, 5);
  assert_int_equal(c->nloops, 2);
  const ws_loop *outer = &c->loops[0], *inner = &c->loops[1];
  assert_int_equal(outer->header, 1);
  assert_int_equal(outer->depth, 1);
  assert_int_equal(outer->parent, WS_CFG_NONE);
  assert_int_equal(outer->nblocks, 3);
  assert_int_equal(outer->blocks[0], 1);
  assert_int_equal(outer->blocks[2], 3);
  assert_int_equal(outer->nlatches, 1);
  assert_int_equal(outer->latches[0], 3);
  assert_int_equal(inner->header, 2);
  assert_int_equal(inner->depth, 2);
  assert_int_equal(inner->parent, 0);
  assert_int_equal(inner->nblocks, 1);
  assert_int_equal(c->blocks[0].loop_depth, 0);
  assert_int_equal(c->blocks[1].loop_depth, 1);
  assert_int_equal(c->blocks[2].loop_depth, 2);
  assert_int_equal(c->blocks[2].loop, 1);
  assert_int_equal(c->blocks[3].loop_depth, 1);
  assert_int_equal(c->blocks[4].loop_depth, 0);
  /* B2: add (g1), setp reads %r2 (g1) -> g2, bra reads %p1 (g2) -> g3: ILP 1 */
  assert_int_equal(c->blocks[2].ngroups, 3);
  assert_true(fabs(c->blocks[2].ilp - 1.0) < 1e-12);
  /* the inner branch reconverges at B3's first instruction (5); the outer at B4 (8) */
  assert_int_equal(ws_analysis_cfg_reconverge_inst(c, 4), 5);
  assert_int_equal(ws_analysis_cfg_reconverge_inst(c, 7), 8);
  /* %r2 read at 2 comes from 1 (entry) or 2 itself (the back edge) */
  uint32_t u = c->use_start[2];
  assert_int_equal(c->uses[u].ndefs, 2);
  assert_int_equal(c->uses[u].defs[0], 1);
  assert_int_equal(c->uses[u].defs[1], 2);
  done(&fx);
}

/* Classes by opcode, type and state space (docs/instruction-classes.md). */
static void test_classes(void **state) {
  (void)state;
  const char *src =
      HDR ".entry k()\n{\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<3>;\n"
      ".reg .f32 %f<3>;\n.reg .f64 %fd<3>;\n.reg .b16 %h<3>;\n"
      "add.s32 %r1, %r2, %r3;\n"      /* 0 int */
      "add.f32 %f1, %f2, %f2;\n"      /* 1 fp32 */
      "fma.rn.f64 %fd1, %fd2, %fd2, %fd2;\n" /* 2 fp64 */
      "add.f16 %h1, %h2, %h2;\n"      /* 3 fp16 */
      "ex2.approx.f32 %f1, %f2;\n"    /* 4 sfu */
      "sqrt.rn.f64 %fd1, %fd2;\n"     /* 5 fp64 (not the SFU) */
      "mov.u32 %r1, %tid.x;\n"        /* 6 sreg */
      "mov.u32 %r1, %r2;\n"           /* 7 conv */
      "ld.global.f32 %f1, [%rd1];\n"  /* 8 ld.global */
      "ld.f32 %f1, [%rd1];\n"         /* 9 ld.generic */
      "st.shared.f32 [%r1], %f1;\n"   /* 10 st.shared */
      "ld.param.u64 %rd1, [%rd2];\n"  /* 11 ld.param */
      "atom.global.add.u32 %r1, [%rd1], 1;\n" /* 12 atomic */
      "red.shared.add.u32 [%r1], 1;\n" /* 13 reduction */
      "bar.sync 0;\n"                 /* 14 barrier */
      "membar.gl;\n"                  /* 15 fence */
      "shfl.sync.idx.b32 %r1, %r2, 0, 31, -1;\n" /* 16 warp */
      "setp.lt.f32 %p1, %f1, %f2;\n"  /* 17 fp32 */
      "setp.lt.s32 %p1, %r1, %r2;\n"  /* 18 int */
      "cvt.rn.f32.s32 %f1, %r1;\n"    /* 19 conv */
      "ret;\n}\n";                    /* 20 ret */
  fixture fx;
  build(&fx, src, "k");
  const ws_ptx_function *f = fx.c->func;
  static const ws_iclass want[] = {
      WS_IC_INT, WS_IC_FP32, WS_IC_FP64, WS_IC_FP16, WS_IC_SFU, WS_IC_FP64, WS_IC_SREG,
      WS_IC_CONV, WS_IC_LD_GLOBAL, WS_IC_LD_GENERIC, WS_IC_ST_SHARED, WS_IC_LD_PARAM,
      WS_IC_ATOMIC, WS_IC_REDUCTION, WS_IC_BARRIER, WS_IC_FENCE, WS_IC_WARP, WS_IC_FP32,
      WS_IC_INT, WS_IC_CONV, WS_IC_RET};
  assert_int_equal(f->ninsts, sizeof want / sizeof *want);
  for (uint32_t i = 0; i < f->ninsts; i++) {
    if (ws_analysis_class(&f->insts[i]) != want[i])
      fprintf(stderr, "instruction %u: class %s, want %s\n", i,
              ws_analysis_class_name(ws_analysis_class(&f->insts[i])),
              ws_analysis_class_name(want[i]));
    assert_int_equal(ws_analysis_class(&f->insts[i]), want[i]);
  }
  /* memory requests for MLP: global/generic/atomics yes, shared/param no */
  assert_true(ws_analysis_is_mem_request(WS_IC_LD_GLOBAL));
  assert_true(ws_analysis_is_mem_request(WS_IC_ATOMIC));
  assert_false(ws_analysis_is_mem_request(WS_IC_ST_SHARED));
  assert_false(ws_analysis_is_mem_request(WS_IC_LD_PARAM));
  done(&fx);
}

/* The tiled matrix multiplication of Hong & Kim (ISCA'09) Fig. 12/13,
 * compiled by nvcc 13 for sm_80 (tests/analysis/matmul_tiled.ptx).
 * Hand reading of that file:
 *  B0 lines 32-46 (15 insts)  B1 line 47  B2 lines 50-65 (16)
 *  B3 lines 68-81 (14): the outer-loop body with ld.global x2 (71, 77),
 *     st.shared x2 (73, 78), bar.sync (79)
 *  B4 lines 85-92 (8): the inner loop, ld.shared x2, fma x1, back edge to B4
 *  B5 lines 94-98 (5): bar.sync (94), back edge to B3
 *  B6 line 99, B7 line 102, B8 lines 105-112 (8) with st.global
 * Outer loop = {B3, B4, B5}: 2 global loads, 2 shared stores, 2 barriers.
 * Inner loop = {B4}, depth 2.
 * ILP of B4: ld, ld | fma, add, add, add | setp | bra  -> 8 / 4 = 2.
 * ILP of B3: add | mul.wide | add | ld, mov | st, add | mul.wide | add | ld |
 *            st, bar, mov, mov -> 14 / 9.
 * MLP of B3: each global load is used by the next st.shared with no other
 *            memory request in between -> 1 and 1, mean 1. */
static void test_matmul_tiled(void **state) {
  (void)state;
  ws_diag d = WS_DIAG_INIT;
  ws_ptx_module *m = NULL;
  assert_int_equal(
      ws_ptx_parse_file(&m, WS_SOURCE_DIR "/tests/analysis/matmul_tiled.ptx", &d), WS_OK);
  const ws_ptx_function *f = ws_ptx_find_function(m, "MatrixMulKernel");
  assert_non_null(f);
  ws_cfg *c = NULL;
  assert_int_equal(ws_analysis_build(&c, m, f, &d), WS_OK);
  assert_int_equal(f->ninsts, 69);
  assert_int_equal(c->nblocks, 9);
  static const uint32_t first[] = {32, 47, 50, 68, 85, 94, 99, 102, 105};
  static const uint32_t last[] = {46, 47, 65, 81, 92, 98, 99, 102, 112};
  for (uint32_t b = 0; b < 9; b++) {
    assert_int_equal(c->blocks[b].line_first, first[b]);
    assert_int_equal(c->blocks[b].line_last, last[b]);
  }
  assert_int_equal(c->nloops, 2);
  const ws_loop *outer = &c->loops[0], *inner = &c->loops[1];
  assert_int_equal(outer->header, 3);
  assert_int_equal(outer->nblocks, 3);
  assert_int_equal(inner->header, 4);
  assert_int_equal(inner->depth, 2);
  assert_int_equal(inner->parent, 0);
  uint32_t ldg = 0, sts = 0, bar = 0, lds = 0, fp = 0;
  for (uint32_t k = 0; k < outer->nblocks; k++) {
    const ws_bb *b = &c->blocks[outer->blocks[k]];
    ldg += b->counts[WS_IC_LD_GLOBAL];
    sts += b->counts[WS_IC_ST_SHARED];
    bar += b->counts[WS_IC_BARRIER];
  }
  lds = c->blocks[4].counts[WS_IC_LD_SHARED];
  fp = c->blocks[4].counts[WS_IC_FP32];
  assert_int_equal(ldg, 2);
  assert_int_equal(sts, 2);
  assert_int_equal(bar, 2);
  assert_int_equal(lds, 2);
  assert_int_equal(fp, 1);
  assert_int_equal(c->blocks[4].loop_depth, 2);
  assert_int_equal(c->blocks[3].loop_depth, 1);
  assert_int_equal(c->blocks[8].counts[WS_IC_ST_GLOBAL], 1);
  assert_true(fabs(c->blocks[4].ilp - 2.0) < 1e-12);
  assert_true(fabs(c->blocks[3].ilp - 14.0 / 9.0) < 1e-12);
  assert_true(fabs(c->blocks[3].mlp - 1.0) < 1e-12);
  assert_int_equal(c->blocks[4].nloads, 0);
  /* post-dominators: B5's two ways (B3, B6) meet at B6; B0's at B8 */
  assert_int_equal(c->blocks[5].ipdom, 6);
  assert_int_equal(c->blocks[0].ipdom, 8);
  assert_int_equal(c->blocks[8].idom, 0);
  ws_analysis_free(c);
  ws_ptx_module_free(m);
  ws_diag_free(&d);
}

/* An endless loop never reaches the exit: its blocks post-dominate nothing
 * and get the exit as ipdom; unreachable code has no idom. */
static void test_endless_and_unreachable(void **state) {
  (void)state;
  const char *src = HDR ".entry e()\n{\n.reg .b32 %r<2>;\n"
                        "L:\nadd.s32 %r1, %r1, 1;\nbra L;\n"
                        "mov.u32 %r1, 0;\nret;\n}\n";
  fixture fx;
  build(&fx, src, "e");
  const ws_cfg *c = fx.c;
  assert_int_equal(c->nblocks, 2);
  assert_int_equal(c->blocks[0].ipdom, 2);
  assert_false(c->blocks[1].reachable);
  assert_int_equal(c->blocks[1].idom, WS_CFG_NONE);
  assert_int_equal(c->nloops, 1);
  done(&fx);
}

/* brx.idx through a .branchtargets table (tests/ptx/brx_sm75.ptx):
 *  B0: ld.param, ld.param, and, brx.idx %r2, ts    (instructions 0-3)
 *  ts = {L0, L1, L2, L0}: successors B1 (L0), B2 (L1), B3 (L2), L0 once
 *  B1: mov, bra DONE (4-5)  B2: mov, bra DONE (6-7)  B3: mov (8), falls into
 *  B4: DONE, from instruction 9 to the ret.
 * All three ways meet at B4, so the brx reconverges at instruction 9. */
static void test_indirect_branch(void **state) {
  (void)state;
  ws_diag d = WS_DIAG_INIT;
  ws_ptx_module *m = NULL;
  assert_int_equal(ws_ptx_parse_file(&m, WS_SOURCE_DIR "/tests/ptx/brx_sm75.ptx", &d), WS_OK);
  const ws_ptx_function *f = ws_ptx_find_function(m, "sw");
  assert_int_equal(f->nbtables, 1);
  assert_int_equal(f->btables[0].ntargets, 4);
  ws_cfg *c = NULL;
  assert_int_equal(ws_analysis_build(&c, m, f, &d), WS_OK);
  assert_int_equal(c->nblocks, 5);
  assert_int_equal(c->blocks[0].nsucc, 3);
  assert_int_equal(c->blocks[0].succ[0], 1);
  assert_int_equal(c->blocks[0].succ[1], 2);
  assert_int_equal(c->blocks[0].succ[2], 3);
  assert_int_equal(c->blocks[0].ipdom, 4);
  assert_int_equal(ws_analysis_cfg_reconverge_inst(c, 3), 9);
  assert_int_equal(c->blocks[4].npred, 3);
  ws_analysis_free(c);
  ws_ptx_module_free(m);
  ws_diag_free(&d);
}

/* Reaching definitions are never cut short.  Twenty guarded writes of %r1
 * (instructions 0..19; a guarded write kills nothing) and ten reads of it
 * (20..29): every read is reached by all twenty writes, 200 entries in
 * all -- more than the fixed 4 x uses + defs + 16 = 4 x 30 + 30 + 16 = 166
 * the chains once had room for (30 uses: 20 guards, 10 reads of %r1). */
static void test_defuse_not_cut(void **state) {
  (void)state;
  char src[4096];
  int n = snprintf(src, sizeof src, "%s.entry g()\n{\n.reg .pred %%p<2>;\n.reg .b32 %%r<3>;\n", HDR);
  for (int k = 0; k < 20; k++) n += snprintf(src + n, sizeof src - (size_t)n, "@%%p1 mov.u32 %%r1, %d;\n", k);
  for (int k = 0; k < 10; k++) n += snprintf(src + n, sizeof src - (size_t)n, "add.u32 %%r2, %%r1, 1;\n");
  snprintf(src + n, sizeof src - (size_t)n, "ret;\n}\n");
  fixture fx;
  build(&fx, src, "g");
  const ws_cfg *c = fx.c;
  assert_int_equal(c->regs_cut, 0);
  for (uint32_t i = 20; i < 30; i++) {
    const ws_use *u = NULL;
    for (uint32_t k = c->use_start[i]; k < c->use_start[i + 1]; k++)
      if (c->uses[k].reg == c->uses[c->use_start[20]].reg) u = &c->uses[k];
    assert_non_null(u);
    assert_int_equal(u->ndefs, 20);
    for (uint32_t e = 0; e < 20; e++) assert_int_equal(u->defs[e], e);
  }
  /* and each write's chain holds all ten reads */
  for (uint32_t i = 0; i < 20; i++) assert_int_equal(c->du_start[i + 1] - c->du_start[i], 10);
  done(&fx);
}

/* An instruction naming more registers than WS_ANALYSIS_MAX_REGS (a call
 * passing 42; tests/analysis/many_regs.ptx, line 67) cannot be recorded
 * whole: the cfg counts it and ws_analysis_build warns, naming the
 * function and the limit. */
static void test_regs_cut_warned(void **state) {
  (void)state;
  ws_ptx_module *m = NULL;
  ws_diag d = WS_DIAG_INIT;
  assert_int_equal(ws_ptx_parse_file(&m, WS_SOURCE_DIR "/tests/analysis/many_regs.ptx", &d), WS_OK);
  const ws_ptx_function *f = ws_ptx_find_function(m, "many_regs");
  assert_non_null(f);
  uint32_t defs[WS_ANALYSIS_MAX_REGS], uses[WS_ANALYSIS_MAX_REGS];
  int nd, nu, call = -1;
  for (uint32_t i = 0; i < f->ninsts; i++)
    if (f->insts[i].op == WS_PTX_OP_CALL) call = (int)i;
  assert_true(call >= 0);
  /* 42 argument registers read, none written: 2 past the 40 kept */
  assert_int_equal(ws_analysis_inst_regs(f, &f->insts[call], defs, &nd, uses, &nu), 2);
  assert_int_equal(nu, WS_ANALYSIS_MAX_REGS);
  ws_cfg *c = NULL;
  assert_int_equal(ws_analysis_build(&c, m, f, &d), WS_OK);
  assert_int_equal(c->regs_cut, 1);
  assert_int_equal(c->first_cut, (uint32_t)call);
  assert_int_equal(d.errors, 0);
  char *s = ws_diag_format(&d);
  assert_non_null(s);
  assert_non_null(strstr(s, "many_regs.ptx:67:3: warning: def-use chains of 'many_regs' are incomplete"));
  assert_non_null(strstr(s, "more than 40 registers"));
  free(s);
  ws_analysis_free(c);
  ws_diag_free(&d);
  ws_ptx_module_free(m);
}

/* docs/instruction-classes.md lists every opcode with its kind. */
static void test_doc_lists_every_opcode(void **state) {
  (void)state;
  char *doc = NULL;
  size_t len = 0;
  ws_diag d = WS_DIAG_INIT;
  assert_int_equal(ws_read_file(&doc, &len, WS_SOURCE_DIR "/docs/instruction-classes.md", &d),
                   WS_OK);
  for (int op = 1; op < WS_PTX_OP_COUNT; op++) {
    char row[128];
    snprintf(row, sizeof row, "| `%s` | %s |", ws_ptx_opcode_name((ws_ptx_opcode)op),
             ws_ptx_kind_name(ws_ptx_opcode_kind((ws_ptx_opcode)op)));
    if (!strstr(doc, row)) fprintf(stderr, "docs/instruction-classes.md lacks: %s\n", row);
    assert_non_null(strstr(doc, row));
  }
  for (int c = 0; c < WS_IC_COUNT; c++) {
    char row[128];
    snprintf(row, sizeof row, "| `%s` |", ws_analysis_class_name((ws_iclass)c));
    assert_non_null(strstr(doc, row));
  }
  free(doc);
  ws_diag_free(&d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ilp_mlp_straight), cmocka_unit_test(test_diamond),
      cmocka_unit_test(test_nested_loops),     cmocka_unit_test(test_classes),
      cmocka_unit_test(test_matmul_tiled),     cmocka_unit_test(test_endless_and_unreachable),
      cmocka_unit_test(test_doc_lists_every_opcode),
      cmocka_unit_test(test_indirect_branch),  cmocka_unit_test(test_defuse_not_cut),
      cmocka_unit_test(test_regs_cut_warned),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
