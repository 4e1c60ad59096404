#!/bin/bash
# help_usage.sh — every option a command's --help describes appears in its
# usage synopsis too (`profile` and `predict` described --arch sm_XX below
# but left it out of the synopsis a user copies from), and `warpsight
# --help`'s line for each command is a whole phrase.  The commands come
# from `warpsight --help`; "[--max-* N]" stands for the --max-... options.
source "$WS_SRC/tests/cli/lib.sh"
cmds=$("$WS" --help 2>&1 | awk '/^commands:/{t=1; next} t && /^  [a-z]/{print $1}')
[ "$(wc -w <<<"$cmds")" -ge 10 ] || fail "could not read the commands from warpsight --help: $cmds"
for c in $cmds; do
  h=$("$WS" "$c" --help 2>&1) || { fail "$c --help: exit status $?"; continue; }
  # the synopsis: the first line and the indented lines right after it
  usage=$(awk 'NR == 1 || (/^ / && !done) {print; next} {done = 1}' <<<"$h")
  for o in $(grep -oE '^  (--[a-z0-9-]+|-[a-zA-Z])' <<<"$h" | tr -d ' ' | sort -u); do
    case "$o" in -h|--help) continue ;; esac
    case "$o" in --max-*) grep -qF -- "--max-*" <<<"$usage" && continue ;; esac
    grep -qF -- "$o" <<<"$usage" || fail "$c --help describes $o but its usage lacks it: $usage"
  done
done
# the command list's line for profile once stopped at "a warpsight-profile/1"
"$WS" --help | grep -qE "^  profile +profile a kernel launch in the emulator: a warpsight-profile/1 document" ||
  fail "warpsight --help: the profile line is cut: $("$WS" --help | grep '^  profile')"
finish
