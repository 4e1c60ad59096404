#!/bin/bash
# validate_select.sh — a --gpu selection that leaves no row of the data says
# which GPUs the data has (it once said only "no rows left after
# --gpus/--kernels/--half/--min-seconds/--limit", naming an option the user
# had not typed), and a GPU of a --gpu list with no row is a warning
# instead of being skipped without a word.
source "$WS_SRC/tests/cli/lib.sh"
E="$WS_SRC/examples/kernels"
D="$TMP/data"
mkdir -p "$D"
cp "$E/vecadd.sm_80.ptx" "$E/vecadd.launch.json" "$D/"
printf 'kernel_file,launch,gpu,seconds\nvecadd.sm_80.ptx,vecadd.launch.json,h100-pcie,3.0e-06\nvecadd.sm_80.ptx,vecadd.launch.json,a100-pcie-40gb,4.0e-06\n' >"$D/data.csv"

run "$WS" validate "$D/data.csv" --no-cache --model roofline --gpu rtx4090
expect_rc 2 "--gpu with no row"
expect_err "warpsight validate: error: --gpu rtx4090: no row of $D/data.csv was measured on that GPU (its rows are for h100-pcie, a100-pcie-40gb)" \
  "--gpu with no row"

run "$WS" validate "$D/data.csv" --no-cache --model roofline --gpu l40s,rtx4090
expect_rc 2 "--gpu list with no row"
expect_err "--gpu l40s,rtx4090: no row of $D/data.csv was measured on those GPUs" "--gpu list with no row"

run "$WS" validate "$D/data.csv" --no-cache --model roofline --gpu h100-pcie,l40s
expect_rc 0 "--gpu list, one GPU without rows"
expect_err "warpsight validate: warning: --gpu l40s: no row of $D/data.csv was measured on it" \
  "a listed GPU without rows is said"
expect_out "h100-pcie vecadd" "the GPU with rows is validated"

# Other filters that empty the selection are named as the options they are.
run "$WS" validate "$D/data.csv" --no-cache --model roofline --min-seconds 1
expect_rc 2 "--min-seconds leaves nothing"
expect_err "no rows of $D/data.csv left after the selection (--gpu, --kernels, --half, --min-seconds, --limit)" \
  "--min-seconds leaves nothing"
finish
