#!/bin/bash
# analyze_regs_cut.sh — an instruction naming more registers than the
# analysis keeps per instruction (a call passing 42; the limit is
# WS_ANALYSIS_MAX_REGS = 40) still analyzes, but `analyze` warns that the
# def-use chains of that function are incomplete, naming it and the limit;
# a kernel within the limit gets no such warning.
source "$WS_SRC/tests/cli/lib.sh"
run "$WS" analyze "$WS_SRC/tests/analysis/many_regs.ptx"
expect_rc 0 "many_regs"
expect_out "kernel many_regs" "many_regs"
expect_err "many_regs.ptx:67:3: warning: def-use chains of 'many_regs' are incomplete" "many_regs"
expect_err "more than 40 registers (WS_ANALYSIS_MAX_REGS)" "many_regs"
run "$WS" analyze "$WS_SRC/tests/analysis/many_regs.ptx" --json
expect_rc 0 "many_regs --json"
expect_err "warning: def-use chains of 'many_regs' are incomplete" "many_regs --json"
run "$WS" analyze "$WS_SRC/tests/analysis/matmul_tiled.ptx"
expect_rc 0 "matmul_tiled"
! grep -q "incomplete" <<<"$ERR" || fail "matmul_tiled: unexpected warning: $ERR"
finish
