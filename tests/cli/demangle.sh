#!/usr/bin/env bash
# C++ kernel names: reports show the demangled name, and --kernel and a
# launch spec's "kernel" take the mangled or the demangled one.  scale.ptx is
# nvcc -ptx -arch=sm_80 of a namespace template instantiated as
# ns::scale<float, 3> (mangled _ZN2ns5scaleIfLi3EEEvPT_i).
source "$WS_SRC/tests/cli/lib.sh"
T=$WS_SRC/tests/data/demangle
M=_ZN2ns5scaleIfLi3EEEvPT_i

run "$WS" analyze "$T/scale.ptx"
expect_rc 0 "analyze"
expect_out "kernel ns::scale<float, 3> [$M] (line 15)" "analyze shows the demangled name"
for k in "$M" "ns::scale<float, 3>" "ns::scale<float,3>" "ns::scale<float, 3>(float*, int)"; do
  run "$WS" analyze "$T/scale.ptx" --kernel "$k"
  expect_rc 0 "analyze --kernel '$k'"
  expect_out "kernel ns::scale<float, 3>" "analyze --kernel '$k'"
done
run "$WS" analyze "$T/scale.ptx" --kernel "ns::scale<float, 4>"
expect_rc 2 "a template argument that does not match"
run "$WS" analyze "$T/scale.ptx" --json
expect_out '"demangled":	"ns::scale<float, 3>"' "analyze --json"

# The spec names the kernel demangled; x[i] = 3 i (hand computation).
run "$WS" run "$T/scale.ptx" --launch "$T/scale.json" --out "$TMP"
expect_rc 0 "run with a demangled spec kernel"
python3 -c "
import struct, sys
x = struct.unpack('100f', open('$TMP/x.bin', 'rb').read())
sys.exit(0 if all(x[i] == 3 * i for i in range(100)) else 1)" || fail "run: x != 3 i"
run "$WS" predict "$T/scale.ptx" --launch "$T/scale.json" --model roofline --kernel "$M"
expect_rc 0 "predict --kernel mangled, spec demangled"
expect_out "kernel ns::scale<float, 3> [$M]: grid 2 x 1 x 1" "predict shows the demangled name"
run "$WS" profile "$T/scale.ptx" --launch "$T/scale.json" --kernel "ns::scale<float, 3>"
expect_rc 0 "profile --kernel demangled"
finish
