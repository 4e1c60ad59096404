/*
 * test_ptx.c — the PTX parser and printer.
 *
 * Expected values come from reading the PTX text in each test (and the
 * PTX ISA manual for encodings such as 0f3F800000 = 1.0f); none is copied
 * from the parser's own output.  The corpus tests walk tests/corpus,
 * tests/ptx and tests/analysis for every .ptx file.
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "warpsight/ptx.h"

static ws_ptx_module *parse_ok(const char *src) {
  ws_diag d = WS_DIAG_INIT;
  ws_ptx_module *m = NULL;
  int r = ws_ptx_parse(&m, src, strlen(src), "test.ptx", &d);
  if (r != WS_OK) {
    char *s = ws_diag_format(&d);
    fprintf(stderr, "%s", s ? s : "");
    free(s);
  }
  assert_int_equal(r, WS_OK);
  assert_non_null(m);
  ws_diag_free(&d);
  return m;
}

static const char *features =
    ".version 8.4\n"
    ".target sm_90a\n"
    ".address_size 64\n"
    ".global .align 8 .b8 blob[6] = {1, 2, 3, 250, 0, 255};\n"
    ".global .f32 one = 0f3F800000;\n"
    ".const .align 16 .v4 .u32 quad = {1, 2, 3, 4};\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".func (.param .b64 r) f(.param .b32 a, .param .align 16 .b8 s[24])\n"
    "{\n"
    "  .reg .b64 %x;\n"
    "  ld.param.u32 %x, [a];\n" /* 11 */
    "  st.param.b64 [r], %x;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry k(\n"
    "  .param .u64 .ptr .global .align 8 p,\n"
    "  .param .u8 c,\n"
    "  .param .f64 d\n"
    ")\n"
    ".maxntid 128, 2\n"
    ".minnctapersm 3\n"
    ".pragma \"nounroll\";\n"
    "{\n"
    "  .reg .pred %p<3>;\n"
    "  .reg .b32 %r<10>;\n"
    "  .reg .f32 %f<5>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  .shared .align 4 .b8 tile[512];\n"
    "  mov.u32 %r1, %tid.y;\n" /* line 29 */
    "  ld.global.nc.v4.f32 {%f1, %f2, _, %f4}, [%rd1+-16];\n"
    "@!%p1 bra $L_end;\n"
    "  shfl.sync.down.b32 %r2|%p2, %r1, 1, 31, -1;\n"
    "  mov.f64 %rd2, 0d3FF8000000000000;\n"
    "  add.s32 %r3, %r1, 0xFFFFFFFF;\n"
    "  atom.relaxed.gpu.global.add.u32 %r4, [%rd1+8], -7;\n"
    "  cvt.rzi.sat.s32.f32 %r5, %f1;\n"
    "  mov.u64 %rd3, blob;\n"
    "  ld.shared.u32 %r6, [tile+12];\n"
    "  mov.f32 %f3, 1.5;\n"
    "$L_end:\n"
    "  ret;\n"
    "}\n";

static void test_module_and_globals(void **state) {
  (void)state;
  ws_ptx_module *m = parse_ok(features);
  assert_int_equal(m->version_major, 8);
  assert_int_equal(m->version_minor, 4);
  assert_string_equal(m->target, "sm_90a");
  assert_int_equal(m->sm, 90);
  assert_int_equal(m->address_size, 64);
  assert_int_equal(m->nvars, 4);
  const ws_ptx_var *blob = &m->vars[0];
  assert_string_equal(blob->name, "blob");
  assert_int_equal(blob->space, WS_PTX_SP_GLOBAL);
  assert_int_equal(blob->align, 8);
  assert_int_equal(blob->size, 6);
  assert_int_equal(blob->ninit, 6);
  assert_int_equal(blob->init[3].value, 250);
  assert_int_equal(m->vars[1].init[0].kind, WS_PTX_O_IMM_F32);
  assert_int_equal((uint32_t)m->vars[1].init[0].value, 0x3F800000u);
  assert_int_equal(m->vars[1].align, 4); /* natural alignment of .f32 */
  const ws_ptx_var *quad = &m->vars[2];
  assert_int_equal(quad->vec, 4);
  assert_int_equal(quad->size, 16); /* one .v4 .u32 = 4 x 4 bytes */
  assert_int_equal(quad->ninit, 4);
  const ws_ptx_var *dyn = &m->vars[3];
  assert_true(dyn->unsized);
  assert_int_equal(dyn->linkage, WS_PTX_L_EXTERN);
  assert_int_equal(dyn->space, WS_PTX_SP_SHARED);
  ws_ptx_module_free(m);
}

static void test_functions_and_params(void **state) {
  (void)state;
  ws_ptx_module *m = parse_ok(features);
  assert_int_equal(m->nfuncs, 2);
  const ws_ptx_function *f = ws_ptx_find_function(m, "f");
  assert_non_null(f);
  assert_false(f->is_entry);
  assert_int_equal(f->nrets, 1);
  assert_string_equal(f->rets[0].name, "r");
  assert_int_equal(f->nparams, 2);
  /* a: 4 bytes at 0; s: align 16, 24 bytes, so at offset 16 */
  assert_int_equal(f->params[0].offset, 0);
  assert_int_equal(f->params[1].offset, 16);
  assert_int_equal(f->params[1].size, 24);
  assert_int_equal(f->param_bytes, 40);
  const ws_ptx_function *k = ws_ptx_find_function(m, "k");
  assert_non_null(k);
  assert_true(k->is_entry);
  assert_int_equal(k->linkage, WS_PTX_L_VISIBLE);
  assert_int_equal(k->nparams, 3);
  assert_true(k->params[0].is_ptr);
  assert_int_equal(k->params[0].ptr_space, WS_PTX_SP_GLOBAL);
  assert_int_equal(k->params[0].ptr_align, 8);
  /* p: 8 bytes at 0; c: 1 byte at 8; d: 8-aligned at 16 */
  assert_int_equal(k->params[1].offset, 8);
  assert_int_equal(k->params[2].offset, 16);
  assert_int_equal(k->param_bytes, 24);
  assert_int_equal(k->perf.nmaxntid, 2);
  assert_int_equal(k->perf.maxntid[0], 128);
  assert_int_equal(k->perf.maxntid[1], 2);
  assert_int_equal(k->perf.maxntid[2], 1);
  assert_int_equal(k->perf.minnctapersm, 3);
  assert_int_equal(k->perf.npragmas, 1);
  assert_string_equal(k->perf.pragmas[0], "nounroll");
  /* registers: %p<3> + %r<10> + %f<5> + %rd<4> = 22, dense in order */
  assert_int_equal(k->nregs, 22);
  assert_int_equal(k->regs[3].type, WS_PTX_T_B32); /* %r0 follows %p0..%p2 */
  assert_int_equal(k->regs[3].num, 0);
  assert_int_equal(k->nvars, 1);
  assert_int_equal(k->vars[0].size, 512);
  assert_int_equal(k->vars[0].offset, 0);
  assert_int_equal(k->shared_bytes, 512);
  assert_int_equal(k->local_bytes, 0);
  assert_int_equal(k->vars[0].space, WS_PTX_SP_SHARED);
  ws_ptx_module_free(m);
}

/* Register index of %name<n> given the declaration order in `features`. */
enum { P0 = 0, R0 = 3, F0 = 13, RD0 = 18 };

static void test_instructions(void **state) {
  (void)state;
  ws_ptx_module *m = parse_ok(features);
  const ws_ptx_function *k = ws_ptx_find_function(m, "k");
  assert_int_equal(k->ninsts, 12);
  const ws_ptx_inst *in = &k->insts[0]; /* mov.u32 %r1, %tid.y; */
  assert_int_equal(in->op, WS_PTX_OP_MOV);
  assert_int_equal(in->line, 29);
  assert_int_equal(in->col, 3);
  assert_int_equal(in->ops[0].kind, WS_PTX_O_REG);
  assert_int_equal(in->ops[0].reg, R0 + 1);
  assert_int_equal(in->ops[1].kind, WS_PTX_O_SREG);
  assert_int_equal(in->ops[1].reg, WS_PTX_SR_TID);
  assert_int_equal(in->ops[1].comp, WS_PTX_C_Y);

  in = &k->insts[1]; /* ld.global.nc.v4.f32 {%f1, %f2, _, %f4}, [%rd1+-16]; */
  assert_int_equal(in->op, WS_PTX_OP_LD);
  assert_int_equal(in->space, WS_PTX_SP_GLOBAL);
  assert_true(ws_ptx_inst_has(in, WS_PTX_MOD_NC));
  assert_int_equal(in->vec, 4);
  assert_int_equal(in->ntypes, 1);
  assert_int_equal(in->type[0], WS_PTX_T_F32);
  assert_int_equal(in->ops[0].kind, WS_PTX_O_VEC);
  assert_int_equal(in->ops[0].comp, 4);
  assert_int_equal(k->extra[in->ops[0].reg + 0].reg, F0 + 1);
  assert_int_equal(k->extra[in->ops[0].reg + 2].kind, WS_PTX_O_SINK);
  assert_int_equal(in->ops[1].kind, WS_PTX_O_ADDR);
  assert_int_equal(in->ops[1].symkind, WS_PTX_S_NONE);
  assert_int_equal(in->ops[1].reg, RD0 + 1);
  assert_int_equal(in->ops[1].imm, -16);

  in = &k->insts[2]; /* @!%p1 bra $L_end; target is the final ret (index 11) */
  assert_int_equal(in->op, WS_PTX_OP_BRA);
  assert_int_equal(in->guard, P0 + 1);
  assert_int_equal(in->guard_not, 1);
  assert_int_equal(in->ops[0].kind, WS_PTX_O_LABEL);
  assert_int_equal(in->ops[0].imm, 11);
  assert_string_equal(k->labels[in->ops[0].reg].name, "$L_end");

  in = &k->insts[3]; /* shfl.sync.down.b32 %r2|%p2, %r1, 1, 31, -1; */
  assert_int_equal(in->op, WS_PTX_OP_SHFL);
  assert_int_equal(in->mode, WS_PTX_MOD_DOWN);
  assert_true(ws_ptx_inst_has(in, WS_PTX_MOD_SYNC));
  assert_int_equal(in->nops, 6);
  assert_true(in->ops[1].flags & WS_PTX_OF_PIPE);
  assert_int_equal(in->ops[1].reg, P0 + 2);
  assert_int_equal(in->ops[5].imm, -1);

  in = &k->insts[4]; /* 0d3FF8000000000000 = 1.5 */
  assert_int_equal(in->ops[1].kind, WS_PTX_O_IMM_F64);
  assert_true((uint64_t)in->ops[1].imm == 0x3FF8000000000000ull);

  in = &k->insts[5]; /* 0xFFFFFFFF keeps its 32 bits, written in hex */
  assert_int_equal(in->ops[2].kind, WS_PTX_O_IMM_INT);
  assert_true(in->ops[2].imm == 0xFFFFFFFFll);
  assert_true(in->ops[2].flags & WS_PTX_OF_HEX);

  in = &k->insts[6]; /* atom.relaxed.gpu.global.add.u32 %r4, [%rd1+8], -7; */
  assert_int_equal(in->op, WS_PTX_OP_ATOM);
  assert_int_equal(in->sem, WS_PTX_MOD_RELAXED);
  assert_int_equal(in->scope, WS_PTX_MOD_GPU);
  assert_int_equal(in->space, WS_PTX_SP_GLOBAL);
  assert_int_equal(in->bop, WS_PTX_MOD_ADD);
  assert_int_equal(in->ops[2].imm, -7);

  in = &k->insts[7]; /* cvt.rzi.sat.s32.f32: dst s32, src f32 */
  assert_int_equal(in->round, WS_PTX_MOD_RZI);
  assert_true(ws_ptx_inst_has(in, WS_PTX_MOD_SAT));
  assert_int_equal(in->ntypes, 2);
  assert_int_equal(in->type[0], WS_PTX_T_S32);
  assert_int_equal(in->type[1], WS_PTX_T_F32);

  in = &k->insts[8]; /* mov.u64 %rd3, blob; -> module variable 0 */
  assert_int_equal(in->ops[1].kind, WS_PTX_O_SYM);
  assert_int_equal(in->ops[1].symkind, WS_PTX_S_GLOBAL);
  assert_int_equal(in->ops[1].reg, 0);

  in = &k->insts[9]; /* ld.shared.u32 %r6, [tile+12]; -> function variable 0 */
  assert_int_equal(in->ops[1].kind, WS_PTX_O_ADDR);
  assert_int_equal(in->ops[1].symkind, WS_PTX_S_LOCAL);
  assert_int_equal(in->ops[1].reg, 0);
  assert_int_equal(in->ops[1].imm, 12);

  in = &k->insts[10]; /* decimal 1.5 is a double literal: 0x3FF8000000000000 */
  assert_int_equal(in->ops[1].kind, WS_PTX_O_IMM_F64);
  assert_true((uint64_t)in->ops[1].imm == 0x3FF8000000000000ull);
  ws_ptx_module_free(m);
}

static void test_scopes_and_calls(void **state) {
  (void)state;
  const char *src =
      ".version 7.0\n.target sm_75\n.address_size 64\n"
      ".func (.param .b32 r) g(.param .b32 a)\n{\n.reg .b32 %t;\nld.param.b32 %t, [a];\n"
      "st.param.b32 [r], %t;\nret;\n}\n"
      ".entry e()\n{\n.reg .b32 %r<3>;\n"
      "{\n.reg .b32 t;\n.param .b32 p0;\n.param .b32 q0;\nst.param.b32 [p0], %r1;\n"
      "call.uni (q0), g, (p0);\nld.param.b32 t, [q0];\nmov.b32 %r2, t;\n}\n"
      "{\n.reg .b16 t;\nmov.b16 t, 7;\n}\n"
      "ret;\n}\n";
  ws_ptx_module *m = parse_ok(src);
  const ws_ptx_function *e = ws_ptx_find_function(m, "e");
  /* %r<3> + t (b32, scope 1) + t (b16, scope 2): the two t are distinct */
  assert_int_equal(e->nregs, 5);
  assert_int_equal(e->regs[3].type, WS_PTX_T_B32);
  assert_int_equal(e->regs[4].type, WS_PTX_T_B16);
  assert_int_equal(e->nscopes, 3);
  assert_int_equal(e->nvars, 2);
  /* call-site params p0 (4 bytes at 0) and q0 (4 bytes at 4) */
  assert_int_equal(e->vars[1].offset, 4);
  assert_int_equal(e->callparam_bytes, 8);
  const ws_ptx_inst *call = &e->insts[1];
  assert_int_equal(call->op, WS_PTX_OP_CALL);
  assert_true(ws_ptx_inst_has(call, WS_PTX_MOD_UNI));
  assert_int_equal(call->ops[0].kind, WS_PTX_O_LIST);
  assert_int_equal(call->ops[1].kind, WS_PTX_O_SYM);
  assert_int_equal(call->ops[1].symkind, WS_PTX_S_FUNC);
  assert_int_equal(call->ops[1].reg, 0);
  assert_int_equal(call->ops[2].kind, WS_PTX_O_LIST);
  assert_int_equal(call->ops[2].comp, 1);
  assert_int_equal(e->extra[call->ops[2].reg].symkind, WS_PTX_S_LOCAL);
  assert_int_equal(e->insts[4].ops[0].reg, 4); /* mov.b16 t: the inner t */
  ws_ptx_module_free(m);
}

static void test_declared_then_defined(void **state) {
  (void)state;
  const char *src = ".version 7.0\n.target sm_75\n.address_size 64\n"
                    ".func h();\n"
                    ".entry e()\n{\ncall.uni h, ();\nret;\n}\n"
                    ".func h()\n{\nret;\n}\n";
  ws_ptx_module *m = parse_ok(src);
  assert_int_equal(m->nfuncs, 3);
  const ws_ptx_function *e = ws_ptx_find_function(m, "e");
  /* the call names the definition (function 2), not the declaration */
  assert_int_equal(e->insts[0].ops[0].reg, 2);
  assert_true(m->funcs[2].has_body);
  ws_ptx_module_free(m);
}

static void test_errors(void **state) {
  (void)state;
  const char *src = ".version 7.0\n.target sm_75\n.address_size 64\n"
                    ".entry e()\n{\n.reg .b32 %r<2>;\nfoo.b32 %r1;\nadd.s32 %r1, %r0;\n}\n";
  ws_diag d = WS_DIAG_INIT;
  ws_ptx_module *m = (ws_ptx_module *)&d; /* must be reset to NULL */
  assert_int_equal(ws_ptx_parse(&m, src, strlen(src), "bad.ptx", &d), WS_EINVAL);
  assert_null(m);
  assert_int_equal(d.errors, 2); /* the parser goes on after the first */
  assert_string_equal(d.items[0].file, "bad.ptx");
  assert_int_equal(d.items[0].line, 7);
  assert_int_equal(d.items[0].col, 1);
  assert_string_equal(d.items[0].message, "unknown opcode 'foo'");
  assert_string_equal(d.items[0].source_line, "foo.b32 %r1;");
  assert_string_equal(d.items[1].message, "'add' expects 3 operands, got 2");
  ws_diag_free(&d);
}

/* A NUL byte is an error where it stands, also inside a comment or a
 * string: a comment used to swallow it, so a .section block kept verbatim
 * was cut at the NUL when printed and the printout did not parse again
 * (found by fuzz_ptx). */
static void test_nul_byte(void **state) {
  (void)state;
  static const char head[] = ".version 7.0\n.target sm_75\n.address_size 64\n";
#define TAIL(x) {x, sizeof x - 1}
  static const struct {
    const char *s;
    size_t n;
  } tails[] = {
      TAIL(".section .x { // a\0b\n }\n"), /* line comment */
      TAIL(".section .x { /* a\0b */ }\n"), /* block comment */
      TAIL(".file 1 \"a\0b\"\n"),         /* string */
  };
#undef TAIL
  for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++) {
    char src[128];
    size_t n = sizeof head - 1;
    memcpy(src, head, n);
    memcpy(src + n, tails[i].s, tails[i].n);
    n += tails[i].n;
    ws_diag d = WS_DIAG_INIT;
    ws_ptx_module *m = NULL;
    assert_int_equal(ws_ptx_parse(&m, src, n, "nul.ptx", &d), WS_EINVAL);
    assert_null(m);
    assert_true(d.errors >= 1);
    assert_int_equal(d.items[0].line, 4);
    assert_non_null(strstr(d.items[0].message, "NUL byte"));
    ws_diag_free(&d);
  }
}

static void test_print_fixed_point_small(void **state) {
  (void)state;
  ws_ptx_module *m = parse_ok(features);
  char *t1 = NULL, *t2 = NULL;
  assert_int_equal(ws_ptx_print(&t1, m), WS_OK);
  ws_ptx_module *m2 = parse_ok(t1);
  assert_int_equal(ws_ptx_print(&t2, m2), WS_OK);
  assert_string_equal(t1, t2);
  /* a few lines as the printer's documented canonical form writes them */
  assert_non_null(strstr(t1, "\tld.global.nc.v4.f32 {%f1, %f2, _, %f4}, [%rd1+-16];\n"));
  assert_non_null(strstr(t1, "\t@!%p1 bra $L_end;\n"));
  assert_non_null(strstr(t1, "shfl.sync.down.b32 %r2|%p2, %r1, 1, 31, -1;"));
  assert_non_null(strstr(t1, ".const .v4 .u32 quad = {1, 2, 3, 4};" /* natural alignment 16 not written */));
  char *one = NULL;
  const ws_ptx_function *k = ws_ptx_find_function(m, "k");
  assert_int_equal(ws_ptx_print_inst(&one, m, k, &k->insts[6]), WS_OK);
  assert_string_equal(one, "atom.relaxed.gpu.global.add.u32 %r4, [%rd1+8], -7;");
  free(one);
  free(t1);
  free(t2);
  ws_ptx_module_free(m);
  ws_ptx_module_free(m2);
}

/* __managed__ variables and warpSize, as nvcc 13 writes them (nvcc -ptx of
 * `__managed__ int m; ... warpSize ...`). */
static void test_managed_and_warp_sz(void **state) {
  (void)state;
  const char *src = ".version 9.0\n.target sm_75\n.address_size 64\n"
                    ".global .attribute(.managed) .align 4 .u32 m;\n"
                    ".visible .entry k()\n{\n.reg .b32 %r<3>;\n"
                    "ld.global.u32 %r1, [m];\nmov.u32 %r2, WARP_SZ;\nret;\n}\n";
  ws_ptx_module *m = parse_ok(src);
  assert_int_equal(m->nvars, 1);
  assert_int_equal(m->vars[0].managed, 1);
  assert_int_equal(m->vars[0].space, WS_PTX_SP_GLOBAL);
  const ws_ptx_function *k = ws_ptx_find_function(m, "k");
  assert_int_equal(k->insts[1].ops[1].kind, WS_PTX_O_IMM_INT);
  assert_int_equal(k->insts[1].ops[1].imm, 32); /* PTX ISA: WARP_SZ, 32 on every target */
  char *t1 = NULL, *t2 = NULL;
  assert_int_equal(ws_ptx_print(&t1, m), WS_OK);
  assert_non_null(strstr(t1, ".global .attribute(.managed) .u32 m;"));
  ws_ptx_module *m2 = parse_ok(t1);
  assert_int_equal(m2->vars[0].managed, 1);
  assert_int_equal(ws_ptx_print(&t2, m2), WS_OK);
  assert_string_equal(t1, t2);
  free(t1);
  free(t2);
  ws_ptx_module_free(m);
  ws_ptx_module_free(m2);
  const char *bad[] = {".global .attribute(.unified(1, 2)) .u32 x;\n", ".shared .attribute(.managed) .u32 x;\n"};
  const char *msg[] = {"unsupported variable attribute '.unified' (only .managed is)",
                       ".attribute(.managed) needs a .global variable"};
  for (int i = 0; i < 2; i++) {
    char text[256];
    snprintf(text, sizeof text, ".version 9.0\n.target sm_75\n.address_size 64\n%s", bad[i]);
    ws_diag d = WS_DIAG_INIT;
    ws_ptx_module *mb = NULL;
    assert_int_equal(ws_ptx_parse(&mb, text, strlen(text), "bad.ptx", &d), WS_EINVAL);
    assert_string_equal(d.items[0].message, msg[i]);
    ws_diag_free(&d);
  }
}

/* --- the corpus: every .ptx under tests/corpus, tests/ptx, tests/analysis */

static char **files;
static size_t nfiles;

static int collect(const char *path, const struct stat *sb, int type, struct FTW *ftw) {
  (void)sb;
  (void)ftw;
  size_t n = strlen(path);
  if (type == FTW_F && n > 4 && strcmp(path + n - 4, ".ptx") == 0) {
    char **nf = realloc(files, (nfiles + 1) * sizeof *nf);
    if (!nf) return 1;
    files = nf;
    files[nfiles++] = strdup(path);
  }
  return 0;
}

static void collect_corpus(void) {
  if (files) return;
  const char *dirs[] = {"tests/corpus", "tests/ptx", "tests/analysis"};
  for (size_t i = 0; i < 3; i++) {
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", WS_SOURCE_DIR, dirs[i]);
    if (access(p, R_OK) == 0) nftw(p, collect, 16, FTW_PHYS);
  }
}

static char *print_file(const char *path, ws_ptx_module **mout) {
  ws_diag d = WS_DIAG_INIT;
  ws_ptx_module *m = NULL;
  int r = ws_ptx_parse_file(&m, path, &d);
  if (r) {
    char *s = ws_diag_format(&d);
    fprintf(stderr, "%s", s ? s : "");
    free(s);
  }
  assert_int_equal(r, WS_OK);
  ws_diag_free(&d);
  char *t = NULL;
  assert_int_equal(ws_ptx_print(&t, m), WS_OK);
  *mout = m;
  return t;
}

static void test_corpus_round_trip(void **state) {
  (void)state;
  collect_corpus();
  assert_true(nfiles >= 8); /* tests/ptx alone has 12 */
  fprintf(stderr, "round trip over %zu PTX files\n", nfiles);
  for (size_t i = 0; i < nfiles; i++) {
    ws_ptx_module *m;
    char *t1 = print_file(files[i], &m);
    ws_ptx_module *m2 = parse_ok(t1);
    char *t2 = NULL;
    assert_int_equal(ws_ptx_print(&t2, m2), WS_OK);
    if (strcmp(t1, t2) != 0) fprintf(stderr, "not a fixed point: %s\n", files[i]);
    assert_string_equal(t1, t2);
    /* the reparsed module has the same shape */
    assert_int_equal(m->nfuncs, m2->nfuncs);
    for (uint32_t f = 0; f < m->nfuncs; f++) {
      assert_int_equal(m->funcs[f].ninsts, m2->funcs[f].ninsts);
      assert_int_equal(m->funcs[f].nregs, m2->funcs[f].nregs);
    }
    free(t1);
    free(t2);
    ws_ptx_module_free(m);
    ws_ptx_module_free(m2);
  }
}

static const char *find_ptxas(char *buf, size_t n) {
  const char *path = getenv("PATH");
  while (path && *path) {
    const char *c = strchr(path, ':');
    size_t len = c ? (size_t)(c - path) : strlen(path);
    snprintf(buf, n, "%.*s/ptxas", (int)len, path);
    if (len && access(buf, X_OK) == 0) return buf;
    path = c ? c + 1 : NULL;
  }
  snprintf(buf, n, "/usr/local/cuda/bin/ptxas");
  return access(buf, X_OK) == 0 ? buf : NULL;
}

static void test_ptxas_accepts_printed(void **state) {
  (void)state;
  char ptxas[4096];
  if (!find_ptxas(ptxas, sizeof ptxas)) {
    fprintf(stderr, "SKIPPED: ptxas not found in PATH or /usr/local/cuda/bin; "
                    "printed PTX not checked by ptxas\n");
    skip();
  }
  collect_corpus();
  char dir[] = "/tmp/ws-ptxas-XXXXXX";
  assert_non_null(mkdtemp(dir));
  for (size_t i = 0; i < nfiles; i++) {
    ws_ptx_module *m;
    char *t = print_file(files[i], &m);
    char path[512], cmd[8192];
    snprintf(path, sizeof path, "%s/p.ptx", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(t, f);
    fclose(f);
    /* ptxas of CUDA 13 starts at sm_75; older targets assemble for sm_75 */
    unsigned sm = m->sm < 75 ? 75 : m->sm;
    const char *suffix = m->target && strlen(m->target) > 5 &&
                                 m->target[strlen(m->target) - 1] == 'a' ? "a" : "";
    snprintf(cmd, sizeof cmd, "'%s' -arch=sm_%u%s '%s' -o '%s/p.cubin' 2>'%s/log'", ptxas, sm,
             suffix, path, dir, dir);
    int rc = system(cmd);
    if (rc != 0) {
      fprintf(stderr, "ptxas rejected the printout of %s:\n", files[i]);
      snprintf(cmd, sizeof cmd, "cat '%s/log' >&2", dir);
      if (system(cmd) != 0) fprintf(stderr, "(no log)\n");
    }
    assert_int_equal(rc, 0);
    free(t);
    ws_ptx_module_free(m);
  }
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
}

/* nvcc -G output keeps .file, .loc and the DWARF .section blocks. */
static void test_debug_info_kept(void **state) {
  (void)state;
  ws_diag d = WS_DIAG_INIT;
  ws_ptx_module *m = NULL;
  assert_int_equal(
      ws_ptx_parse_file(&m, WS_SOURCE_DIR "/tests/ptx/basics_debug_sm80.ptx", &d), WS_OK);
  assert_true(m->nfiles >= 1);
  int sections = 0;
  for (uint32_t i = 0; i < m->nitems; i++)
    if (m->items[i].kind == WS_PTX_MI_RAW && strncmp(m->items[i].text, ".section", 8) == 0)
      sections++;
  assert_true(sections >= 1);
  /* every instruction of the kernel body after the first .loc has a source line */
  const ws_ptx_function *k = ws_ptx_find_function(m, "k1");
  assert_non_null(k);
  uint32_t with_loc = 0;
  for (uint32_t i = 0; i < k->ninsts; i++) with_loc += k->insts[i].loc_line > 0;
  assert_true(with_loc > k->ninsts / 2);
  /* basics.cu has three comment lines on top; the kernel's first line is 8 */
  uint32_t min_line = UINT32_MAX;
  for (uint32_t i = 0; i < k->ninsts; i++)
    if (k->insts[i].loc_line && k->insts[i].loc_line < min_line) min_line = k->insts[i].loc_line;
  assert_int_equal(min_line, 8);
  ws_ptx_module_free(m);
  ws_diag_free(&d);
}

static void test_tables(void **state) {
  (void)state;
  /* every name in the tables is distinct and non-empty */
  for (int i = 1; i < WS_PTX_OP_COUNT; i++) {
    assert_true(strlen(ws_ptx_opcode_name((ws_ptx_opcode)i)) > 0);
    for (int j = 1; j < i; j++)
      assert_string_not_equal(ws_ptx_opcode_name((ws_ptx_opcode)i),
                              ws_ptx_opcode_name((ws_ptx_opcode)j));
  }
  for (int i = 1; i < WS_PTX_MOD_COUNT; i++)
    for (int j = 1; j < i; j++)
      assert_string_not_equal(ws_ptx_mod_name((ws_ptx_mod)i), ws_ptx_mod_name((ws_ptx_mod)j));
  assert_int_equal(ws_ptx_type_bits(WS_PTX_T_F16X2), 32);
  assert_int_equal(ws_ptx_type_size(WS_PTX_T_PRED), 1);
  assert_int_equal(ws_ptx_type_size(WS_PTX_T_B128), 16);
  assert_string_equal(ws_ptx_sreg_name(WS_PTX_SR_LANEMASK_LT), "lanemask_lt");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_module_and_globals),
      cmocka_unit_test(test_functions_and_params),
      cmocka_unit_test(test_instructions),
      cmocka_unit_test(test_scopes_and_calls),
      cmocka_unit_test(test_declared_then_defined),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_nul_byte),
      cmocka_unit_test(test_print_fixed_point_small),
      cmocka_unit_test(test_corpus_round_trip),
      cmocka_unit_test(test_ptxas_accepts_printed),
      cmocka_unit_test(test_debug_info_kept),
      cmocka_unit_test(test_tables),
      cmocka_unit_test(test_managed_and_warp_sz),
  };
  int r = cmocka_run_group_tests(tests, NULL, NULL);
  for (size_t i = 0; i < nfiles; i++) free(files[i]);
  free(files);
  return r;
}
