# analyze_corpus.sh — `warpsight analyze --json` succeeds on every PTX file
# of the kernel corpus (tests/corpus/**), of tests/ptx and tests/analysis,
# and its JSON is well formed with consistent block numbering: successors
# name existing blocks or "exit", and instruction counts add up.
source "$WS_SRC/tests/cli/lib.sh"
n=0
while IFS= read -r -d '' f; do
  run "$WS" analyze "$f" --json
  expect_rc 0 "$f"
  if [ "$RC" -eq 0 ] && command -v python3 >/dev/null; then
    printf '%s' "$OUT" >"$TMP/a.json"
    python3 - "$TMP/a.json" <<'PY' || fail "$f: inconsistent JSON"
import json, sys
d = json.load(open(sys.argv[1]))
for k in d["kernels"]:
    nb = len(k["blocks"])
    assert sum(b["instructions"] for b in k["blocks"]) == k["instructions"], k["name"]
    for b in k["blocks"]:
        for s in b["successors"]:
            assert s == "exit" or 0 <= s < nb, (k["name"], b["id"], s)
        assert b["lines"][0] <= b["lines"][1]
        assert sum(b["counts"].values()) == b["instructions"]
    for l in k["loops"]:
        assert l["header"] in l["blocks"]
PY
  fi
  n=$((n + 1))
done < <(find "$WS_SRC/tests/corpus" "$WS_SRC/tests/ptx" "$WS_SRC/tests/analysis" \
           -name '*.ptx' -print0 2>/dev/null)
echo "analyzed $n PTX files"
[ "$n" -ge 1 ] || fail "no PTX files found"
finish
