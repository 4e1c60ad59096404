#!/bin/bash
# function_length.sh — no function in src/ is longer than 200 lines (issue
# 11's acceptance; generated tables are data, not functions).  Lengths come
# from tests/tools/function_lengths.awk; the test first checks the counter
# on a made-up file with a 201-line function, so it can fail.
source "$WS_SRC/tests/cli/lib.sh"
AWK="$WS_SRC/tests/tools/function_lengths.awk"
LIMIT=200
# the counter: f is 2 + 199 body lines = 201 lines (1-201), g a one-liner
# (202), h 3 lines (203-205)
{
  echo "static int f(int x) {"
  for i in $(seq 199); do echo "  x += $i;"; done
  echo "}"
  echo "static int g(void) { return 0; }"
  echo "int h(int a,"
  echo "      int b) {"
  echo "}"
} >"$TMP/probe.c"
awk -f "$AWK" "$TMP/probe.c" >"$TMP/probe.out"
grep -qx "201 $TMP/probe.c:1 f" "$TMP/probe.out" || fail "counter: f should be 201 lines; got: $(cat "$TMP/probe.out")"
grep -q " g$" "$TMP/probe.out" && fail "counter: a one-line function is no definition to count"
grep -qx "3 $TMP/probe.c:203 h" "$TMP/probe.out" || fail "counter: h should be 3 lines from line 203; got: $(cat "$TMP/probe.out")"
# the tree.  KNOWN: functions over the limit that another change owns right
# now, to be split there (each entry is FILE:NAME; remove it when done).
KNOWN=""
find "$WS_SRC/src" -name '*.c' | sort | xargs awk -f "$AWK" >"$TMP/all.out"
[ -s "$TMP/all.out" ] || fail "no function found under $WS_SRC/src"
long=$(awk -v lim=$LIMIT '$1 > lim' "$TMP/all.out" | sed "s|$WS_SRC/||" |
       while read -r n at name; do
         case " $KNOWN " in *" ${at%%:*}:$name "*) echo "note: known, not split yet: $at $name ($n lines)" >&2 ;;
                            *) echo "$n $at $name" ;; esac
       done)
[ -z "$long" ] || fail "functions longer than $LIMIT lines (split them):
$long"
finish
