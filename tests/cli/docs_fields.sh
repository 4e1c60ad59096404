#!/usr/bin/env bash
# docs/profile.md lists every scalar field of include/warpsight/profile_fields.def.
source "$WS_SRC/tests/cli/lib.sh"
n=0
while read -r sec key; do
  n=$((n + 1))
  grep -qF "\`$sec.$key\`" "$WS_SRC/docs/profile.md" || fail "docs/profile.md lacks $sec.$key"
done < <(sed -n 's/^PF(\([a-z_0-9]*\), \([a-z_0-9]*\),.*/\1 \2/p' "$WS_SRC/include/warpsight/profile_fields.def")
[ "$n" -gt 20 ] || fail "read only $n fields from profile_fields.def"
finish
