#!/bin/bash
# emu_bad.sh — faulty kernels and launch specs (tests/emu-bad/): each must end
# with the documented exit status (1: the kernel faulted, 2: bad input or an
# unimplemented instruction) and a report naming the place; none may crash.
source "$WS_SRC/tests/cli/lib.sh"
D="$WS_SRC/tests/emu-bad"
n=0
# check NAME RC "substring" ["substring" ...]: run tests/emu-bad/NAME.json on faults.ptx
check() {
  local name=$1 rc=$2
  shift 2
  local extra=()
  [ "$name" = infinite_loop ] && extra=(--max-warp-insts 1000)
  run "$WS" run "$D/${PTX:-faults.ptx}" --launch "$D/$name.json" --out "$TMP" -j 2 "${extra[@]}"
  expect_no_crash "$name"
  ! grep -qE "Sanitizer|runtime error" <<<"$ERR" || fail "$name: sanitizer report: $ERR"
  expect_rc "$rc" "$name"
  for s in "$@"; do expect_err "$s" "$name"; done
  n=$((n + 1))
}
# memory faults: kernel, block, thread, PTX line, instruction, address, nearest object
check oob_read 1 "faults.ptx:26:3: error: out-of-bounds read of 4 bytes at global address 0x100000080 in kernel 'copy', block (0,0,0), thread (31,0,0)" \
  "instruction: ld.global.f32 %f1, [%rd4];" "0 bytes past the end of buffer 'in' (128 bytes"
check oob_before 1 "out-of-bounds read of 4 bytes" "thread (0,0,0)" "12 bytes before the start of buffer 'in'"
# block 0 threads 40..63 write past out[40]: the first is thread 40, 0 bytes past the end
check oob_write 1 "faults.ptx:29:3: error: out-of-bounds write of 4 bytes" "block (0,0,0), thread (40,0,0)" \
  "0 bytes past the end of buffer 'out' (160 bytes"
check misaligned_v4 1 "misaligned read of 16 bytes at global address 0x100000004" "ld.global.v4.f32" "byte offset 4 of buffer 'in'"
check misaligned_u64 1 "misaligned read of 8 bytes" "faults.ptx:56:3"
# sbuf is 64 words: thread 64 writes at offset 256 = its end
check shared_overflow 1 "out-of-bounds write of 4 bytes at shared address 0x100" "thread (64,0,0)" \
  "256 bytes of shared memory (256 static + 0 dynamic)" "nearest object 'sbuf'"
check dynshared_overflow 1 "shared address 0x40" "thread (16,0,0)" "(0 static + 64 dynamic)" "'dyn'"
check null_pointer 1 "out-of-bounds read of 4 bytes at global address 0x0" "faults.ptx:140:3"
check write_const 1 "faults.ptx:152:3: error: write of 4 bytes to read-only const address 0x7d0000000000 in kernel 'wconst', block (0,0,0), thread (0,0,0)" \
  "st.u32 [%rd2], %r1;"
# the same store after loads from a buffer and from the same address: no
# cached object lets a store skip the read-only check
check write_const_ld 1 "faults.ptx:254:3: error: write of 4 bytes to read-only const address 0x7d0000000000 in kernel 'wconst_ld', block (0,0,0), thread (0,0,0)" \
  "st.u32 [%rd2], %r1;"
check local_oob 1 "out-of-bounds read of 4 bytes at local address 0x40" "faults.ptx:163:3"
# barriers, runaway kernels, traps, recursion
check deadlock_exit 1 "barrier deadlock: warp 0 has exited; warp 1 waits at barrier 0 (PTX line 94)" "kernel 'dead1', block (0,0,0)"
# ... but without a thread count the exited warp releases the barrier
check exit_then_barrier 0
check deadlock_two 1 "barrier deadlock: warp 0 waits at barrier 0 (PTX line 109); warp 1 waits at barrier 1 (PTX line 106)"
check infinite_loop 1 "warp 0 exceeded the limit of 1000 warp instructions" "bra.uni LOOP;"
check bad_barrier_count 1 "barrier thread count 48 must be a non-zero multiple of 32" "faults.ptx:170:3"
check trap 1 "trap executed in kernel 'trapk'" "faults.ptx:125:3"
check recursion_overflow 1 "call stack overflow" "in function inf"
check brx_out_of_table 1 "faults.ptx:205:3: error: brx.idx index 5 is outside its 2-entry table" "brx.idx %r1, tbl;"
PTX=assert.ptx check assert_fails 1 "assert.ptx:49:3: error: device assertion 'n < 8' failed at k.cu:42 in ker in kernel 'asrt', block (0,0,0), thread (8,0,0)"
check null_function_pointer 1 "faults.ptx:221:3: error: indirect call to 0x0, which is not the address of a function"
# refused at load time
check unimplemented 2 "faults.ptx:130:3: error: instruction not implemented by the emulator (a breakpoint needs a debugger): brkpt;"
# bad launch specs
check wrong_arg_count 2 "the spec gives 2 arguments, kernel 'copy' takes 3 parameters"
check wrong_arg_type 2 "argument 2 'off': the kernel's parameter 2 'off' is .s32 (4 bytes), the spec gives s64"
check float_for_int 2 "argument 2 'off': the kernel's parameter 2 'off' is .s32 (4 bytes), the spec gives f32"
check buffer_for_scalar 2 "argument 2 'off': the kernel's parameter 2 'off' is .s32 (4 bytes), a buffer needs a 64-bit pointer parameter"
check missing_file 2 "args[0].init.file: cannot open" "no-such-file.bin"
check short_file 2 "must hold exactly 128 bytes (32 f32 elements), it holds 8"
check bad_json 2 "bad_json.json:1:55: error"
check unknown_type 2 "args[0].type: unknown element type 'f128'"
check no_kernel 2 "no kernel named 'nosuch'"
check block_too_large 2 "block: 2048 x 1 x 1 threads is more than 1024 per block"
check scalar_out_of_range 2 "args[2].value: 3000000000 is not a s32 value"
check bad_constant 2 "args[0].init.constant: 1.5 is not a s32 value"
# usage errors
run "$WS" run "$D/faults.ptx"
expect_rc 2 "no --launch"
expect_err "--launch is required" "no --launch"
run "$WS" run "$D/faults.ptx" --launch "$D/oob_read.json" -j 0
expect_rc 2 "-j 0"
run "$WS" run "$D/no-such.ptx" --launch "$D/oob_read.json"
expect_rc 2 "missing PTX"
expect_no_crash "missing PTX"
run "$WS" run --help
expect_rc 0 "--help"
expect_out "usage: warpsight run" "--help"
echo "$n faulty cases checked"
finish
