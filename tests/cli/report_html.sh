#!/usr/bin/env bash
# report_html.sh — the HTML report of `--report DIR` (docs/charts.md, "The
# HTML report") of predict, sweep, validate and exec, rendered in a real
# headless browser: every section is in the page the browser builds, the
# page's script ran without an error (it adds #ws-script-ok, an error adds
# #ws-script-error), and the charts are inline SVG.  The pages themselves
# are checked first without a browser (self-contained: no http(s) URL, no
# external script, font or style); the browser part is skipped when
# chromium is absent (.ci/run installs it).
source "$WS_SRC/tests/cli/lib.sh"
K="$WS_SRC/examples/kernels"
need_python3

# static: the page names every section and loads nothing from elsewhere
static() { # static PAGE SECTION...
  local page=$1
  shift
  [ -s "$page" ] || { fail "no $page"; return; }
  for s in "$@"; do grep -q "<section id=\"$s\"" "$page" || fail "$page: no section $s"; done
  grep -qiE '(src|href)="(https?:)?//|@import|url\((https?:)?//' "$page" && fail "$page loads something from elsewhere"
  grep -q '<script>' "$page" || fail "$page has no inline script"
}

run "$WS" predict "$K/transpose.sm_80.ptx" --launch "$K/transpose.launch.json" --gpu a100 --report "$TMP/p" -j 2
expect_rc 0 "predict --report"
expect_out "wrote $TMP/p/index.html"
static "$TMP/p/index.html" launch models advice lines charts
grep -q 'transpose.cu:16' "$TMP/p/index.html" || fail "predict page: no source line transpose.cu:16"

run "$WS" sweep "$K/vecadd.sm_80.ptx" --launch "$K/vecadd.launch.json" --block 64..128 --pow2 --gpu a100,t4 \
  --report "$TMP/s" -j 2
expect_rc 0 "sweep --report"
static "$TMP/s/index.html" sweep
grep -q 'best on t4 by warpsight:' "$TMP/s/index.html" || fail "sweep page: no best block size"

run "$WS" validate "$WS_SRC/data/validation/amaris-measured-dev.csv" --kernels vectorAdd --gpu gtx680 --limit 2 \
  --model warpsight,roofline --no-cache --report "$TMP/v"
expect_rc 0 "validate --report"
static "$TMP/v/index.html" validation

conv="${WS_BUILD:-}/tests/programs/conv"
if [ -x "$conv" ]; then
  # a sanitized warpsight preloads the sanitizers into the program (wsexec.sh)
  san=0
  ldd "$WS" 2>/dev/null | grep -q libasan && san=1
  WS_SANITIZE=$san run bash "$WS_SRC/tests/programs/wsexec.sh" --report "$TMP/x" --model warpsight,roofline -- "$conv"
  expect_rc 0 "exec --report"
  static "$TMP/x/index.html" exec launch models advice lines charts
else
  echo "no tests/programs/conv in the build: the exec page is not checked"
fi

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  [ "$FAILED" -eq 0 ] && { echo "skipped: chromium not found (the pages were checked without it)"; exit 77; }
  finish
fi

# the browser: the DOM it built, for each page
render() { # render PAGE -> $TMP/dom
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$(mktemp -d -p "$TMP")" \
    --dump-dom "file://$1" >"$TMP/dom" 2>"$TMP/browser.err"
}
check_dom() { # check_dom NAME MIN_SVG SECTION...
  local name=$1 nsvg=$2
  shift 2
  grep -q 'id="ws-script-ok"' "$TMP/dom" || fail "$name: the page's script did not run: $(tail -5 "$TMP/browser.err")"
  grep -q 'id="ws-script-error"' "$TMP/dom" && fail "$name: script error: $(grep -o 'id="ws-script-error"[^<]*' "$TMP/dom")"
  for s in "$@"; do grep -q "<section id=\"$s\"" "$TMP/dom" || fail "$name: the browser has no section $s"; done
  local n
  n=$(grep -o '<svg' "$TMP/dom" | wc -l)
  [ "$n" -ge "$nsvg" ] || fail "$name: $n inline SVGs in the rendered page, expected >= $nsvg"
}
render "$TMP/p/index.html"
check_dom predict 3 launch models advice lines charts
grep -q '<title>GPUPerf benefit chart' "$TMP/dom" || fail "predict: the benefit chart is not in the page"
render "$TMP/s/index.html"
check_dom sweep 1 sweep
render "$TMP/v/index.html"
check_dom validate 2 validation
if [ -x "$conv" ]; then
  render "$TMP/x/index.html"
  check_dom exec 1 exec launch models advice lines charts
fi

# the marker can fail: a page whose script throws shows #ws-script-error
sed 's|try{|try{null.x;|' "$TMP/p/index.html" >"$TMP/bad.html"
render "$TMP/bad.html"
grep -q 'id="ws-script-error"' "$TMP/dom" || fail "a throwing script left no #ws-script-error"
finish
