/*
 * test_lines.c — the per-line table of a profile (docs/profile.md, "lines";
 * src/profile/profile_lines.c): a hand-written kernel whose .loc lines each
 * do one known thing, profiled, and every count of every line checked
 * against a hand count; the same kernel without .loc falls back to PTX
 * lines; the table's JSON round trip and its errors.
 */
#include <string.h>

#include "testutil.h"
#include "util/strbuf.h"
#include "warpsight/profiler.h"

/* One block of 64 threads (2 identical warps).  Lines of "lt.cu":
 *   10  ld.param x3, mov %tid.x                       4 instructions
 *   11  in[tid]: mul.wide, add, ld.global             coalesced: 4 sectors, 4 needed
 *   12  out[tid * 32]: mul.wide, add, st.global       32 sectors (128-B stride), 4 needed
 *   13  sh[tid * 8]: shl, mov, add, st.shared         word tid*8: banks 0, 8, 16, 24, 8 lanes
 *                                                     each: 8 passes, 7 replays
 *   14  and, setp, @p bra                             odd lanes fall through: divergent
 *   15  add.f32 (odd lanes only)                      1 instruction
 *   16  atom.global.add on one address               32 lanes on one address: serial 32,
 *                                                     1 sector; inlined from line 99 of
 *                                                     hdr.hpp, a file no own .loc names:
 *                                                     it counts for its call site
 *   17  ret                                           1 instruction */
static const char kernel_lt[] =
    ".version 7.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".file 1 \"lt.cu\"\n"
    ".file 2 \"hdr.hpp\"\n"
    ".visible .entry k(.param .u64 in, .param .u64 out, .param .u64 cnt)\n"
    "{\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  .reg .f32 %f<3>;\n"
    "  .reg .pred %p<2>;\n"
    "  .shared .align 4 .b8 sh[2048];\n"
    "  .loc 1 10 0\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  ld.param.u64 %rd3, [cnt];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  .loc 1 11 0\n"
    "  mul.wide.u32 %rd4, %r1, 4;\n"
    "  add.s64 %rd5, %rd1, %rd4;\n"
    "  ld.global.f32 %f1, [%rd5];\n"
    "  .loc 1 12 0\n"
    "  mul.wide.u32 %rd6, %r1, 128;\n"
    "  add.s64 %rd7, %rd2, %rd6;\n"
    "  st.global.f32 [%rd7], %f1;\n"
    "  .loc 1 13 0\n"
    "  shl.b32 %r2, %r1, 5;\n"
    "  mov.u32 %r3, sh;\n"
    "  add.s32 %r4, %r3, %r2;\n"
    "  st.shared.f32 [%r4], %f1;\n"
    "  .loc 1 14 0\n"
    "  and.b32 %r5, %r1, 1;\n"
    "  setp.eq.u32 %p1, %r5, 0;\n"
    "  @%p1 bra SKIP;\n"
    "  .loc 1 15 0\n"
    "  add.f32 %f2, %f1, %f1;\n"
    "SKIP:\n"
    "  .loc 2 99 3, function_name $L__info_string0, inlined_at 1 16 3\n"
    "  atom.global.add.u32 %r6, [%rd3], 1;\n"
    "  .loc 1 17 0\n"
    "  ret;\n"
    "}\n";

static const char spec_lt[] =
    "{\"kernel\": \"k\", \"grid\": [1, 1, 1], \"block\": [64, 1, 1], \"args\": ["
    " {\"buffer\": \"in\", \"type\": \"f32\", \"count\": 64, \"init\": \"zero\"},"
    " {\"buffer\": \"out\", \"type\": \"f32\", \"count\": 2048, \"init\": \"zero\"},"
    " {\"buffer\": \"cnt\", \"type\": \"u32\", \"count\": 1, \"init\": \"zero\"}]}";

/* Profile `ptx` (named `name`) on the A100 with spec_lt. */
static ws_profile *profile_of(const char *ptx, const char *name) {
  ws_diag d = WS_DIAG_INIT;
  ws_ptx_module *m = NULL;
  ws_gpu *g = NULL;
  ws_launch_spec *spec = NULL;
  ws_profile *p = NULL;
  assert_ok_diag(ws_ptx_parse(&m, ptx, strlen(ptx), name, &d), &d);
  assert_ok_diag(ws_gpu_load(&g, "a100", &d), &d);
  assert_ok_diag(ws_emu_launch_spec_parse(&spec, spec_lt, "lt.json", ".", &d), &d);
  ws_prof_options o = WS_PROF_OPTIONS_INIT;
  o.threads = 1;
  o.input = name;
  ws_emu_stats st;
  assert_ok_diag(ws_prof_launch_spec(&p, &st, m, spec, g, &o, &d), &d);
  ws_emu_launch_spec_free(spec);
  ws_gpu_free(g);
  ws_ptx_module_free(m);
  ws_diag_free(&d);
  return p;
}

static const ws_profile_line *row(const ws_profile *p, uint32_t line) {
  for (size_t i = 0; i < p->lines->nrows; i++)
    if (p->lines->rows[i].line == line) return &p->lines->rows[i];
  fail_msg("no row for line %u", line);
  return NULL;
}

/* The hand counts of the comment above kernel_lt, per warp. */
static void line_counts(void **s) {
  (void)s;
  ws_profile *p = profile_of(kernel_lt, "lt.ptx");
  const ws_profile_lines *l = p->lines;
  assert_non_null(l);
  assert_false(l->ptx_lines);
  assert_int_equal(l->nfiles, 1); /* hdr.hpp's inlined line counts for lt.cu:16 */
  assert_string_equal(l->files[0], "lt.cu");
  assert_close(p->f.atomic_addresses_per_block, 1, 0); /* every lane on cnt[0] */
  assert_int_equal(l->nrows, 8); /* lines 10 to 17 */
  static const struct {
    uint32_t line;
    double insts, req, sec, need, shreq, replays, br, div, atom, serial;
    uint32_t kinds;
  } want[] = {
      {10, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
      {11, 3, 1, 4, 4, 0, 0, 0, 0, 0, 0, WS_LINE_LOAD},
      {12, 3, 1, 32, 4, 0, 0, 0, 0, 0, 0, WS_LINE_STORE},
      {13, 4, 0, 0, 0, 1, 7, 0, 0, 0, 0, WS_LINE_SHARED},
      {14, 3, 0, 0, 0, 0, 0, 1, 1, 0, 0, WS_LINE_BRANCH},
      {15, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
      {16, 1, 1, 1, 1, 0, 0, 0, 0, 1, 32, WS_LINE_ATOMIC},
      {17, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
  };
  double insts = 0;
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    const ws_profile_line *r = row(p, want[i].line);
    assert_int_equal(r->file, 0);
    assert_close(r->warp_insts, want[i].insts, 0);
    assert_close(r->global_requests, want[i].req, 0);
    assert_close(r->sectors, want[i].sec, 0);
    assert_close(r->sectors_needed, want[i].need, 0);
    assert_close(r->shared_requests, want[i].shreq, 0);
    assert_close(r->bank_conflict_replays, want[i].replays, 0);
    assert_close(r->branches, want[i].br, 0);
    assert_close(r->divergent_branches, want[i].div, 0);
    assert_close(r->atomic_requests, want[i].atom, 0);
    assert_close(r->atomic_serial, want[i].serial, 0);
    assert_int_equal(r->kinds, want[i].kinds);
    insts += r->warp_insts;
  }
  /* The lines add up to the whole: 20 instructions per warp. */
  assert_close(insts, ws_profile_total_insts(p), 1e-12);
  assert_close(insts, 20, 0);
  /* DRAM bytes shared by sectors: reads are line 11's 4 and line 16's 1
   * sector per warp, writes line 12's 32 and line 16's 1. */
  double rd = p->f.dram_read_bytes, wr = p->f.dram_write_bytes;
  assert_close(row(p, 11)->dram_bytes, rd * 4 / 5, 1e-9);
  assert_close(row(p, 12)->dram_bytes, wr * 32 / 33, 1e-9);
  assert_close(row(p, 16)->dram_bytes, rd / 5 + wr / 33, 1e-9);
  ws_profile_free(p);
}

/* The longest path of the block, by hand (deps.c: one issue slot per
 * instruction, ld.param and %tid 20 cycles, integer and FP32 6, a global
 * load or an atomic one memory latency; an instruction issues at the later
 * of its warp's last issue + 1 and its operands).  Both warps run the same
 * stream, so the path is one warp's:
 *   line 10: ld.param x3 issue at 1, 2, 3; mov %tid at 4, ready at 24
 *   line 11: mul.wide waits for %r1 (24) -> 30; add -> 36; ld.global issues
 *            at 36, its value is ready one load later: (1 load, 36)
 *   line 12: mul.wide at 37 -> 43; add -> 49; st.global waits for %f1
 *            (1 load, 36): issues there, adding nothing
 *   line 13: shl at (1, 37), mov at 38 -> 44; add waits for %r3 -> 50;
 *            st.shared at 50 plus 7 replays: 57
 *   line 14: and at 58 -> 64; setp -> 70; bra waits for %p1: 70
 *   line 15: add.f32 at 71
 *   line 16: atom at 72, its value one load later: (2 loads, 72)
 *   line 17: ret at 73, earlier than the atom's value.
 * The path ends at (2 loads, 72 cycles); walked back, each line's share:
 *   10: 1 + 1 + 1 + (1 + 20) = 24     11: 6 + 6, 1 load = 12
 *   12: 0                             13: 1 + (1 + 6) + 6 + 7 = 21
 *   14: (1 + 6) + 6 = 13              15: 1     16: 1, 1 load     17: 0 */
static void line_path(void **s) {
  (void)s;
  ws_profile *p = profile_of(kernel_lt, "lt.ptx");
  assert_close(p->f.path_mem_loads, 2, 0);
  assert_close(p->f.path_cycles, 72, 0);
  assert_close(p->lines->path_blocks, 1, 0);
  assert_close(p->lines->path_blocks_skipped, 0, 0);
  static const double cyc[] = {24, 12, 0, 21, 13, 1, 1, 0}, mem[] = {0, 1, 0, 0, 0, 0, 1, 0};
  for (uint32_t line = 10; line <= 17; line++) {
    assert_close(row(p, line)->path_cycles, cyc[line - 10], 0);
    assert_close(row(p, line)->path_mem_loads, mem[line - 10], 0);
  }
  ws_profile_free(p);
}

/* Without .file/.loc the rows are PTX lines of the input. */
static void ptx_lines(void **s) {
  (void)s;
  char *noloc = ws_strdup(kernel_lt);
  for (char *c; (c = strstr(noloc, ".loc")) || (c = strstr(noloc, ".file"));)
    while (*c != '\n') *c++ = ' '; /* blank the directive, keep the line numbers */
  ws_profile *p = profile_of(noloc, "k.ptx");
  assert_true(p->lines->ptx_lines);
  assert_string_equal(p->lines->files[0], "k.ptx");
  /* the st.global is the 25th line of the text above (7 lines of head and
   * braces, 5 declarations, then .loc 10 and its 4, .loc 11 and its 3,
   * .loc 12, mul.wide, add) */
  const ws_profile_line *st = row(p, 25);
  assert_close(st->sectors, 32, 0);
  assert_int_equal(st->kinds, WS_LINE_STORE);
  assert_int_equal(p->lines->nrows, 20); /* one instruction per PTX line */
  ws_profile_free(p);
  free(noloc);
}

/* A block whose longest path needs more than WS_DEPS_MAX_NODES (2^20)
 * steps is not attributed, and says so: one warp loops 300 000 times over
 * add, setp, bra (an issue step for each, a result step for add and setp:
 * 5 steps a trip, 1.5 million), so path_blocks 0 and path_blocks_skipped
 * 1, the rows' path figures 0; the counts and the path itself stay. */
static void path_too_long(void **s) {
  (void)s;
  static const char loop[] =
      ".version 7.0\n.target sm_80\n.address_size 64\n.file 1 \"loop.cu\"\n"
      ".visible .entry k(.param .u64 in, .param .u64 out, .param .u64 cnt)\n{\n"
      "  .reg .b32 %r<4>;\n  .reg .pred %p<2>;\n"
      "  .loc 1 3 0\n  mov.u32 %r1, 0;\n"
      "L:\n  .loc 1 4 0\n  add.u32 %r1, %r1, 1;\n  setp.lt.u32 %p1, %r1, 300000;\n  @%p1 bra L;\n"
      "  .loc 1 5 0\n  ret;\n}\n";
  ws_profile *p = profile_of(loop, "loop.ptx");
  assert_close(p->lines->path_blocks, 0, 0);
  assert_close(p->lines->path_blocks_skipped, 1, 0);
  assert_close(row(p, 4)->warp_insts, 900000, 0);
  assert_close(row(p, 4)->path_cycles, 0, 0);
  assert_true(p->f.path_cycles > 900000);
  ws_profile_free(p);
}

/* JSON: written and read back equal; a bad row names its path. */
static void json_round_trip(void **s) {
  (void)s;
  ws_profile *p = profile_of(kernel_lt, "lt.ptx");
  char *text = ws_profile_to_json(p);
  ws_profile *q = ws_test_profile(text);
  assert_non_null(q->lines);
  assert_int_equal(q->lines->nrows, p->lines->nrows);
  assert_string_equal(q->lines->files[0], "lt.cu");
  for (size_t i = 0; i < p->lines->nrows; i++) { /* field by field: the struct has padding */
    const ws_profile_line *a = &p->lines->rows[i], *b = &q->lines->rows[i];
    assert_int_equal(a->file, b->file);
    assert_int_equal(a->line, b->line);
    assert_int_equal(a->kinds, b->kinds);
    assert_close(a->warp_insts, b->warp_insts, 0);
    assert_close(a->sectors, b->sectors, 0);
    assert_close(a->dram_bytes, b->dram_bytes, 0);
    assert_close(a->bank_conflict_replays, b->bank_conflict_replays, 0);
    assert_close(a->atomic_serial, b->atomic_serial, 0);
    assert_close(a->path_cycles, b->path_cycles, 0);
  }
  free(text);
  ws_profile_free(q);
  ws_profile_free(p);
  static const struct {
    const char *lines, *message;
  } bad[] = {
      {"{\"source\": \"lineinfo\", \"files\": [\"a.cu\"], \"rows\": [{\"file\": 1, \"line\": 3}]}",
       "lines.rows[0].file: expected an index into lines.files (1 files), got 1"},
      {"{\"source\": \"lineinfo\", \"files\": [\"a.cu\"], \"rows\": [{\"file\": 0, \"line\": 0}]}",
       "lines.rows[0].line: expected a line number >= 1, got 0"},
      {"{\"source\": \"lineinfo\", \"files\": [\"a.cu\"], \"rows\": [{\"file\": 0, \"line\": 2, "
       "\"sectors\": -1}]}",
       "lines.rows[0].sectors"},
      {"{\"source\": \"lineinfo\", \"files\": [\"a.cu\"], \"rows\": [{\"file\": 0, \"line\": 2, "
       "\"kinds\": [\"lod\"]}]}",
       "lines.rows[0].kinds[0]: expected one of load"},
      {"{\"source\": \"lineinfo\", \"files\": [\"a.cu\"], \"rows\": [{\"file\": 0, \"line\": 2}, "
       "{\"file\": 0, \"line\": 2}]}",
       "lines.rows[1]: rows must be sorted by (file, line), each pair once"},
      {"{\"source\": \"cu\", \"files\": [], \"rows\": []}", "lines.source: expected \"lineinfo\" or \"ptx\""},
      {"{\"source\": \"ptx\", \"files\": [], \"rows\": [], \"extra\": 1}", "lines.extra: unknown key"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char json[1024];
    snprintf(json, sizeof json,
             "{\"schema\": \"warpsight-profile/1\", \"kernel\": \"k\", \"launch\": {\"blocks\": 1, "
             "\"threads_per_block\": 32}, \"lines\": %s}",
             bad[i].lines);
    ws_diag d = WS_DIAG_INIT;
    ws_profile *r = NULL;
    assert_int_equal(ws_profile_load_json(&r, json, "p.json", &d), WS_EINVAL);
    char *msg = ws_diag_format(&d);
    if (!strstr(msg, bad[i].message)) fail_msg("case %zu: got '%s', expected '%s'", i, msg, bad[i].message);
    free(msg);
    ws_diag_free(&d);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(line_counts),
      cmocka_unit_test(line_path),
      cmocka_unit_test(ptx_lines),
      cmocka_unit_test(path_too_long),
      cmocka_unit_test(json_round_trip),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
