#!/bin/bash
# gpu_notes.sh — `warpsight gpu NAME` shows every fact's source, and for a
# given fact with a note the note: an estimate's source is "estimate (see
# note)", and the note, in the database file compiled into the tool, was
# never printed, so the user saw an estimate without its reasoning.  The
# latencies say their unit (SM cycles, docs/gpu-schema.md) in the heading.
source "$WS_SRC/tests/cli/lib.sh"
need_python3

# Every note of a given (not derived) fact of every database file, read
# from the files themselves, must follow its key's line in `gpu NAME`.
mkdir -p "$TMP/gpu"
for f in "$WS_SRC"/data/gpus/*.json; do
  g=$(basename "$f" .json)
  "$WS" gpu "$g" >"$TMP/gpu/$g" || fail "gpu $g: exit status $?"
done
run python3 - "$WS_SRC/data/gpus" "$TMP/gpu" <<'PY'
import json, os, sys
d, outs = sys.argv[1:]
checked = estimates = 0
bad = []
for f in sorted(os.listdir(d)):
    if not f.endswith(".json"):
        continue
    doc = json.load(open(os.path.join(d, f)))
    text = open(os.path.join(outs, f[:-5])).read().splitlines()
    def walk(o, key):
        global checked, estimates
        if isinstance(o, dict):
            if "value" in o and isinstance(o.get("note"), str) and not o.get("derived"):
                lines = [l for l in text if l.split()[:1] == [key] and o["note"] in l]
                checked += 1
                if not lines:
                    bad.append("%s: %s's note is not shown: %s" % (f, key, o["note"]))
                elif "(see note): " + o["note"] in lines[0]:
                    estimates += 1
                return
            for k, v in o.items():
                walk(v, k)
    walk(doc, "")
print("notes %d, estimates %d" % (checked, estimates))
for b in bad[:10]:
    print(b)
sys.exit(1 if bad or checked < 20 or not estimates else 0)
PY
expect_rc 0 "every note shown: $OUT"

run "$WS" gpu h100-pcie
expect_rc 0 "gpu h100-pcie"
expect_out "  bus_bits                 5120         [estimate] estimate (see note): five active 1024-bit HBM2e stacks" \
  "the H100 PCIe's bus width: an estimate, with its reasoning"
expect_out "latencies (SM cycles):" "latencies with their unit"
run "$WS" gpu a100-pcie-40gb
expect_out "tensor (operations per clock per SM):" "tensor throughput with its unit"
finish
