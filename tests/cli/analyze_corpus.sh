# analyze_corpus.sh — `warpsight analyze --json` succeeds on every PTX file
# of the kernel corpus (tests/corpus/**), of tests/ptx and tests/analysis,
# and its JSON is well formed with consistent block numbering: successors
# name existing blocks or "exit", and instruction counts add up.
source "$WS_SRC/tests/cli/lib.sh"
n=0
while IFS= read -r -d '' f; do
  run "$WS" analyze "$f" --json
  expect_rc 0 "$f"
  [ "$RC" -eq 0 ] && printf '%s' "$OUT" >"$TMP/a$n.json"
  n=$((n + 1))
done < <(find "$WS_SRC/tests/corpus" "$WS_SRC/tests/ptx" "$WS_SRC/tests/analysis" \
           -name '*.ptx' -print0 2>/dev/null)
# One python run checks every JSON document (a process per file is slow).
python3 - "$TMP"/a*.json <<'PY' || fail "inconsistent JSON"
import json, sys
for path in sys.argv[1:]:
    d = json.load(open(path))
    for k in d["kernels"]:
        nb = len(k["blocks"])
        assert sum(b["instructions"] for b in k["blocks"]) == k["instructions"], (path, k["name"])
        for b in k["blocks"]:
            for s in b["successors"]:
                assert s == "exit" or 0 <= s < nb, (path, k["name"], b["id"], s)
            assert b["lines"][0] <= b["lines"][1]
            assert sum(b["counts"].values()) == b["instructions"]
        for l in k["loops"]:
            assert l["header"] in l["blocks"]
PY
echo "analyzed $n PTX files"
[ "$n" -ge 1 ] || fail "no PTX files found"
finish
