#!/bin/bash
# gpus_table.sh — `warpsight gpus` keeps its columns in line for every
# database GPU: the architecture "Blackwell (GB100, two dies)" (B200) and
# "hypothetical (Tesla-class)" (hk09-example) once pushed the rest of their
# rows up to five characters right of the header.
source "$WS_SRC/tests/cli/lib.sh"
run "$WS" gpus
expect_rc 0 "gpus"
hdr=$(head -1 <<<"$OUT")
# where the header's SMs column ends and its "full name" column starts
sms_end=$(awk '{ print index($0, "SMs") + 2 }' <<<"$hdr")
full=$(awk '{ print index($0, "full name") }' <<<"$hdr")
arch=$(awk '{ print index($0, "architecture") }' <<<"$hdr")
n=0
while IFS= read -r row; do
  n=$((n + 1))
  name=${row%% *}
  sms=$(awk '{print $3}' <<<"$row")
  [ "${row:$((sms_end - ${#sms})):${#sms}}" = "$sms" ] ||
    fail "$name: the SMs '$sms' do not end under the header's SMs: '$row'"
  [ "${row:$((arch - 2)):1}" = " " ] && [ "${row:$((arch - 1)):1}" != " " ] ||
    fail "$name: the architecture does not start under its header: '$row'"
  [ "${row:$((full - 2)):1}" = " " ] && [ "${row:$((full - 1)):6}" = "NVIDIA" -o "$name" = hk09-example ] ||
    fail "$name: the full name does not start under its header: '$row'"
done <<<"$(tail -n +2 <<<"$OUT")"
[ "$n" -ge 68 ] || fail "only $n GPUs listed"
expect_out "Blackwell (GB100, two dies) NVIDIA B200" "b200's row"
finish
