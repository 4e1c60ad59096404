#!/bin/bash
# toolkit_only.sh — growable arrays, string copies and bit counts in src/ go
# through the shared toolkit in src/util (vec.h WS_VEC_PUSH/RESERVE,
# strbuf.h ws_strdup/ws_sb_*, bits.h ws_popc32/64), not hand-written copies
# (issue 11, point 6).  Outside src/util the test refuses:
#   realloc(              a hand-written growth loop
#   strdup( / malloc(strlen(   a hand-written string copy
#   __builtin_popcount / "for (; x; x &= x - 1) n++"   a hand-written bit count
# KEEP lists the lines that may stay, each with its reason in the source.
. "$(dirname "$0")/lib.sh"
KEEP="src/emu/spec.c:a->bytes = realloc(buf, a->nbytes);"  # a final shrink, not growth
# the translated engine's generated code, built with -march=native (one POPCNT)
KEEP="$KEEP
src/emu/jit/jit_lane.h:static inline uint32_t jl_popc32(uint32_t x) { return (uint32_t)__builtin_popcount(x); }
src/emu/jit/jit_lane.h:static inline uint32_t jl_popc64(uint64_t x) { return (uint32_t)__builtin_popcountll(x); }"
PAT='realloc\(|(^|[^_a-z])strdup\(|malloc\(strlen\(|__builtin_popcount|&= *[a-z]+ - 1\) *[a-z]+\+\+'
scan() { # scan DIR: offending lines as FILE:TEXT, KEEP entries removed
  find "$1" \( -name '*.c' -o -name '*.h' \) -not -path '*/src/util/*' -print0 |
    xargs -0 grep -HnE "$PAT" | while IFS=: read -r f n text; do
      rel=${f#"$WS_SRC"/}
      rel=${rel#"$1"/}
      t=$(sed 's/^ *//; s/ *\/\*.*//' <<<"$text")
      case "$KEEP" in *"$rel:$t"*) continue ;; esac
      echo "$rel:$n: $t"
    done
}
# The check can fail: a probe tree with one of each is caught, five lines.
mkdir -p "$TMP/src/x" "$TMP/src/util"
cat >"$TMP/src/x/probe.c" <<'C'
void *g(void *p, size_t n) { return realloc(p, n); }
char *d(const char *s) { return strdup(s); }
char *e(const char *s) { return malloc(strlen(s) + 1); }
int c(unsigned x) { return __builtin_popcount(x); }
int k(unsigned x) { int n = 0; for (; x; x &= x - 1) n++; return n; }
char *ok(const char *s) { return ws_strdup(s); }
C
cp "$TMP/src/x/probe.c" "$TMP/src/util/probe.c" # src/util is where they belong
n=$(cd "$TMP" && WS_SRC=$TMP scan "$TMP" | wc -l)
[ "$n" -eq 5 ] || fail "the scan found $n of the probe's 5 hand-written copies: $(WS_SRC=$TMP scan "$TMP")"
# the tree
[ -d "$WS_SRC/src/util" ] || fail "no $WS_SRC/src/util: is WS_SRC right?"
found=$(scan "$WS_SRC/src")
[ -z "$found" ] || fail "hand-written copies of the toolkit in src/ (use src/util):
$found"
finish
