# public_headers_no_cjson.sh — no header under include/ names cJSON (issue
# 11, point 2: models read typed inputs; the JSON library is an internal
# detail of the loaders and writers in src/).  Every header and .def file of
# the public surface is searched, comments included, so a forward
# declaration such as "struct cJSON;" fails too.
. "$(dirname "$0")/lib.sh"
n=0
while IFS= read -r -d '' f; do
  n=$((n + 1))
  if grep -n -i 'cjson' "$f" >"$TMP/hits"; then
    fail "${f#"$WS_SRC"/} names cJSON: $(head -3 "$TMP/hits" | tr '\n' ' ')"
  fi
done < <(find "$WS_SRC/include" -type f \( -name '*.h' -o -name '*.def' \) -print0)
[ "$n" -gt 5 ] || fail "found only $n headers under $WS_SRC/include: is WS_SRC right?"
# The check can fail: a header that names it is caught.
printf 'struct cJSON;\n' >"$TMP/probe.h"
grep -q -i 'cjson' "$TMP/probe.h" || fail "the search does not see 'struct cJSON;'"
finish
