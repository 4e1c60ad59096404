#!/usr/bin/env bash
# warpsight exec without a CUDA program: usage errors, a program that does
# not load the runtime (as one built with the default static cudart), the
# program's exit status passed through.  tests/programs/ run real programs.
source "$WS_SRC/tests/cli/lib.sh"

run "$WS" exec --help
expect_rc 0 "--help"
expect_out "WARPSIGHT_GPU" "--help names the environment variables"
expect_out "nvcc -cudart shared" "--help says how to build"
run "$WS" exec
expect_rc 2 "no program"
expect_err "expected -- PROGRAM" "no program"
run "$WS" exec --gpu nosuchgpu -- /bin/true
expect_rc 2 "unknown GPU"
run "$WS" exec --model nosuchmodel -- /bin/true
expect_rc 2 "unknown model"
run "$WS" exec --model hong-kim,nosuchmodel -- /bin/true
expect_rc 2 "an unknown model in a list"
run "$WS" exec --model hong-kim,roofline -- /bin/true
expect_rc 2 "a list of models is accepted (then: no runtime in /bin/true)"
expect_err "did not load warpsight's CUDA runtime" "a list of models"
run "$WS" exec --sample-blocks x -- /bin/true
expect_rc 2 "bad --sample-blocks"
run "$WS" exec -- /bin/true
expect_rc 2 "a program without the runtime"
expect_err "did not load warpsight's CUDA runtime" "a program without the runtime"
expect_err "nvcc -cudart shared" "the message says how to build"
run "$WS" exec -- /bin/sh -c "exit 5"
expect_rc 5 "the program's exit status passes through"
run "$WS" exec -- /nonexistent/program
expect_rc 127 "a program that cannot be started"
expect_err "cannot run '/nonexistent/program'" "a program that cannot be started"
# ... and nothing else: it was never started, so neither how it "exited"
# nor advice on how it was built (both misled a user who mistyped a name)
[ "$(grep -c . <<<"$ERR")" = 1 ] || fail "a program that cannot be started: one line on stderr, got: $ERR"
run "$WS" exec -- "$TMP"
expect_rc 127 "a folder cannot be started"
expect_err "cannot run '$TMP': Permission denied" "a folder cannot be started"
# a program that exits with 127 itself was started: its status is said
run "$WS" exec -- /bin/sh -c "exit 127"
expect_rc 127 "a program's own 127"
expect_err "exited with status 127" "a program's own 127"
finish
