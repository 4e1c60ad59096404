/*
 * test_emu_ops.c — the emulator's instruction set against the PTX opcode
 * table: every opcode of warpsight/ptx/opcodes.def is either decoded or
 * refused with a stated reason (src/emu/dops.def), docs/emulator.md lists
 * exactly the refused ones with those reasons, and a refused opcode stops
 * ws_emu_load with its place and reason.  Expected values: the opcode
 * table itself (every opcode must be covered) and the documentation page.
 */
#include "testutil.h"

#include <string.h>

#include "util/strbuf.h"
#include "warpsight/emu.h"
#include "warpsight/ptx.h"

#define DOC WS_SOURCE_DIR "/docs/emulator.md"
#define SECTION "## Instructions the emulator refuses"

/* Every opcode: decoded (1) or refused with a reason (0); never neither
 * (-1) nor both (-2). */
static void test_opcode_coverage(void **state) {
  (void)state;
  int bad = 0, decoded = 0, refused = 0;
  for (int op = WS_PTX_OP_NONE + 1; op < WS_PTX_OP_COUNT; op++) {
    const char *why = NULL;
    int st = ws_emu_opcode_supported((ws_ptx_opcode)op, &why);
    if (st == 1) {
      decoded++;
    } else if (st == 0 && why && *why) {
      refused++;
    } else {
      print_error("opcode '%s' is %s in src/emu/dops.def\n", ws_ptx_opcode_name((ws_ptx_opcode)op),
                  st == -2 ? "both decoded and refused" : "neither decoded nor refused with a reason");
      bad++;
    }
  }
  assert_int_equal(bad, 0);
  assert_int_equal(decoded + refused, WS_PTX_OP_COUNT - 1);
  /* not opcodes */
  assert_int_equal(ws_emu_opcode_supported(WS_PTX_OP_NONE, NULL), -1);
  assert_int_equal(ws_emu_opcode_supported(WS_PTX_OP_COUNT, NULL), -1);
}

/* The refused opcodes' table in docs/emulator.md: rows "| `name` | reason |"
 * under SECTION, exactly one per refused opcode, with dops.def's reason. */
static void test_refusals_documented(void **state) {
  (void)state;
  char *doc = NULL;
  size_t len = 0;
  ws_diag d = WS_DIAG_INIT;
  assert_ok_diag(ws_read_file(&doc, &len, DOC, &d), &d);
  ws_diag_free(&d);
  char *sec = strstr(doc, SECTION);
  assert_non_null(sec);
  char *end = strstr(sec + 1, "\n## ");
  if (end) *end = 0;
  char *lines = ws_strdup(sec); /* strtok cuts its copy into lines */
  assert_non_null(lines);
  int rows = 0, bad = 0;
  for (char *line = strtok(lines, "\n"); line; line = strtok(NULL, "\n")) {
    char name[64], why[256];
    if (sscanf(line, "| `%63[^`]` | %255[^|]|", name, why) != 2) continue;
    size_t n = strlen(why);
    while (n && why[n - 1] == ' ') why[--n] = 0;
    rows++;
    int op = WS_PTX_OP_NONE + 1;
    while (op < WS_PTX_OP_COUNT && strcmp(ws_ptx_opcode_name((ws_ptx_opcode)op), name) != 0) op++;
    const char *want = NULL;
    if (op == WS_PTX_OP_COUNT || ws_emu_opcode_supported((ws_ptx_opcode)op, &want) != 0) {
      print_error("docs/emulator.md lists '%s' as refused; it is %s\n", name,
                  op == WS_PTX_OP_COUNT ? "no opcode" : "not refused");
      bad++;
    } else if (strcmp(want, why) != 0) {
      print_error("docs/emulator.md gives '%s' the reason '%s'; src/emu/dops.def says '%s'\n", name, why, want);
      bad++;
    }
  }
  int refused = 0;
  for (int op = WS_PTX_OP_NONE + 1; op < WS_PTX_OP_COUNT; op++) {
    const char *why = NULL;
    if (ws_emu_opcode_supported((ws_ptx_opcode)op, &why) != 0) continue;
    refused++;
    char row[128];
    snprintf(row, sizeof row, "| `%s` |", ws_ptx_opcode_name((ws_ptx_opcode)op));
    if (!strstr(sec, row)) {
      print_error("docs/emulator.md lacks the row: %s %s |\n", row, why);
      bad++;
    }
  }
  assert_int_equal(bad, 0);
  assert_int_equal(rows, refused);
  free(lines);
  free(doc);
}

/* ws_emu_load of kernel k of ptx is refused with a message holding want. */
static void expect_refused(const char *ptx, const char *want) {
  ws_diag d = WS_DIAG_INIT;
  ws_ptx_module *m = NULL;
  ws_emu_program *p = NULL;
  assert_ok_diag(ws_ptx_parse(&m, ptx, strlen(ptx), "test.ptx", &d), &d);
  assert_int_equal(ws_emu_load(&p, m, "k", &d), WS_EUNSUP);
  assert_null(p);
  char *t = ws_diag_format(&d);
  if (!strstr(t, want)) print_error("got:\n%s\nwanted: %s\n", t, want);
  assert_non_null(strstr(t, want));
  free(t);
  ws_ptx_module_free(m);
  ws_diag_free(&d);
}

/* A refused opcode stops ws_emu_load at its line, naming it and why. */
static void test_refused_load(void **state) {
  (void)state;
  expect_refused(".version 7.8\n.target sm_90\n.address_size 64\n"
                 ".visible .entry k()\n{\n  .reg .b32 %r<3>;\n"
                 "  mov.u32 %r1, 0;\n  getctarank.shared::cluster.u32 %r2, %r1;\n  ret;\n}\n",
                 "test.ptx:8:3: error: instruction not implemented by the emulator (thread-block clusters are "
                 "not emulated): getctarank.shared::cluster.u32 %r2, %r1; (in k)");
}

/* A form the emulator does not implement is refused naming the feature:
 * sm_90's vector atomics (atomicAdd on a float2 emits atom.add.v2.f32;
 * the message named only the instruction). */
static void test_refused_vector_atomic(void **state) {
  (void)state;
  expect_refused(".version 8.6\n.target sm_90\n.address_size 64\n"
                 ".visible .entry k(.param .u64 p)\n{\n  .reg .f32 %f<5>;\n  .reg .b64 %rd<2>;\n"
                 "  ld.param.u64 %rd1, [p];\n  mov.f32 %f1, 0f3F800000;\n  mov.f32 %f2, 0f40000000;\n"
                 "  atom.global.add.v2.f32 {%f3, %f4}, [%rd1], {%f1, %f2};\n  ret;\n}\n",
                 "test.ptx:11:3: error: instruction not implemented by the emulator (vector atomics: atom/red "
                 ".v2/.v4/.v8, sm_90's atomicAdd on float2 and float4): atom.global.add.v2.f32");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_opcode_coverage),
      cmocka_unit_test(test_refusals_documented),
      cmocka_unit_test(test_refused_load),
      cmocka_unit_test(test_refused_vector_atomic),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
