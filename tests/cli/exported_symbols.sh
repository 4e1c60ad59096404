# exported_symbols.sh — every symbol the library exports begins with ws_
# (issue 11, point 5: the public surface names its part).  Lists the
# library's defined global symbols with nm and fails on any other name.
. "$(dirname "$0")/lib.sh"
: "${WS_BUILD:?WS_BUILD must point at the build tree}"
command -v nm >/dev/null || { echo "nm not found: skipped"; exit 77; }
lib=""
for f in "$WS_BUILD/libwarpsight.a" "$WS_BUILD/libwarpsight.so"; do
  [ -f "$f" ] && lib=$f && break
done
[ -n "$lib" ] || { fail "no libwarpsight.a or .so under $WS_BUILD"; finish; }

# Defined (not undefined) global symbols: "addr TYPE name" lines.
# In the sanitizer build the library is position-independent (the CUDA
# runtime links it into a shared object) and ASan adds an ODR indicator,
# "__odr_asan.NAME", beside each global NAME: the name checked is NAME.
nm -g --defined-only "$lib" | awk 'NF == 3 { print $3 }' | sed 's/^__odr_asan\.//' | sort -u >"$TMP/syms"
[ -s "$TMP/syms" ] || fail "nm listed no symbol in $lib"
grep -q '^ws_ptx_parse' "$TMP/syms" || fail "ws_ptx_parse missing from the list: is nm reading $lib?"
bad=$(grep -v '^ws_' "$TMP/syms" || true)
[ -z "$bad" ] || fail "exported symbols without the ws_ prefix:
$bad"
finish
