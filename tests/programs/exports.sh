#!/usr/bin/env bash
# exports.sh — no program may die in the dynamic linker (issue 21): warpsight's
# libcudart.so.13 exports every function CUDA 13.0's does (the committed list
# tests/programs/cudart13.exports, and the toolkit's own library where one is
# installed), each in version node libcudart.so.13, and exactly the names of
# its table src/cudart/api.def (the table docs/exec.md shows).
# Env: WS_SRC, WS_BUILD.
. "$WS_SRC/tests/cli/lib.sh"
lib="$WS_BUILD/src/cudart/lib/libcudart.so.13"
[ -f "$lib" ] || fail "no runtime at $lib"
names() { nm -D --defined-only "$1" | awk '$2 == "T" { print $3 }'; }
ours=$(names "$lib" | sed 's/@.*//' | sort -u)
[ -n "$ours" ] || fail "nm lists no function of $lib"
unversioned=$(names "$lib" | grep -v '@@libcudart\.so\.13$' || true)
[ -z "$unversioned" ] || fail "exports outside version node libcudart.so.13: $unversioned"
want=$(grep -v '^#' "$WS_SRC/tests/programs/cudart13.exports" | sort -u)
[ "$(wc -l <<<"$want")" -ge 400 ] || fail "the committed list is too short"
missing=$(comm -23 <(echo "$want") <(echo "$ours"))
[ -z "$missing" ] || fail "CUDA 13 exports that warpsight's runtime lacks: $(tr '\n' ' ' <<<"$missing")"
table=$(sed -n 's/^API(\([A-Za-z0-9_]*\),.*/\1/p' "$WS_SRC/src/cudart/api.def" | sort -u)
[ "$table" = "$ours" ] || fail "api.def and the exports differ: $(diff <(echo "$table") <(echo "$ours") | grep '^[<>]' | tr '\n' ' ')"
checked=0
for real in "${CUDA_HOME:-/usr/local/cuda}/lib64/libcudart.so.13" /usr/local/cuda/lib64/libcudart.so.13 \
            /usr/lib/x86_64-linux-gnu/libcudart.so.13; do
  [ -f "$real" ] || continue
  theirs=$(names "$real" | sed 's/@.*//' | grep -v '^libcudart' | sort -u)
  missing=$(comm -23 <(echo "$theirs") <(echo "$ours"))
  [ -z "$missing" ] || fail "$real exports what warpsight's runtime lacks: $(tr '\n' ' ' <<<"$missing")"
  [ "$theirs" = "$want" ] || echo "note: $real differs from cudart13.exports (another CUDA 13 release?)"
  checked=1
  break
done
[ "$checked" = 1 ] && echo "compared with the toolkit's library" || echo "no toolkit library: the committed list only"
finish
