# exported_symbols.sh — every symbol the library exports begins with ws_
# and the name of its part (issue 11, point 5: the public surface names its
# part).  Lists the library's defined global symbols with nm and fails on any
# name outside the parts' prefixes below (docs/architecture.md, "Names").
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
# A sanitizer build adds its own instrumentation symbols (__odr_asan.NAME,
# __asan_*, __ubsan_*, __sancov_*): not the library's names.
grep -v -e '^__odr_asan' -e '^__asan' -e '^__ubsan' -e '^__sancov' "$TMP/syms" >"$TMP/own"
bad=$(grep -v '^ws_' "$TMP/own" || true)
[ -z "$bad" ] || fail "exported symbols without the ws_ prefix:
$bad"

# The part prefixes (docs/architecture.md, "Names"): one per part, ws_prof_
# and ws_profile_ for profile (the part and its data type); util, the toolkit
# under every part, names its modules instead (ws_diag_, ws_sb_, ...).
parts='ws_ptx_ ws_analysis_ ws_emu_ ws_prof_ ws_profile_ ws_gpu_ ws_model_
ws_advise ws_advise_ ws_report_ ws_valid_'
util='ws_diag_ ws_arena_ ws_sb_ ws_strdup ws_vec_ ws_json_ ws_outfile_ ws_outdir_
ws_demangle ws_demangle_ ws_read_file ws_write_file ws_open_input ws_parse_file ws_take_file
ws_file_kind ws_name_part ws_suggest ws_suggest_ ws_parse_count ws_parse_decimal ws_parse_sample_blocks
ws_env_limit ws_tool_'
re=""
for p in $parts $util; do
  case $p in
    *_) re="$re|^$p" ;;    # a prefix
    *) re="$re|^$p\$" ;;  # one exact name
  esac
done
re=${re#|}
off=$(grep -v -E "$re" "$TMP/own" || true)
[ -z "$off" ] || fail "exported symbols whose prefix names no part (ws_ptx_, ws_emu_, ...):
$off"
# The check must be able to fail: a name of no part is refused.
for n in ws_coalesce ws_launch_ctx_compute ws_num_f32_add ws_advisex ws_strdupx ws_chart_roofline lex_next; do
  ! grep -q -E "$re" <<<"$n" || fail "the prefix list accepts $n, a name of no part"
done
finish
