#!/usr/bin/env bash
# The accuracy `oomlab estimate` quotes comes from src/lib/est_checked.inc,
# which bench/estimate writes from the measured rows in bench/data/. This
# reruns the bench with the binary under test and fails when the committed
# table no longer matches what the estimator computes (regenerate it with
# `bench/estimate --emit-checked src/lib/est_checked.inc`).
set -u
OOMLAB=${OOMLAB:-$PWD/build/oomlab}
root=${OOMLAB_ROOT:-$PWD}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
ok() { echo "ok $1"; }
nok() { echo "not ok $1"; shift; for l in "$@"; do echo "#   $l"; done; }

OOMLAB=$OOMLAB "$root/bench/estimate" --emit-checked "$W/checked.inc" > "$W/bench.out" 2>&1
if [ $? -ne 0 ] || [ ! -s "$W/checked.inc" ]; then
  nok "estimate-checked: bench/estimate --emit-checked ran" "$(tail -3 "$W/bench.out")"
elif grep -q 'oomlab failed' "$W/bench.out"; then
  nok "estimate-checked: every bench row estimated" "$(grep 'oomlab failed' "$W/bench.out" | head -3)"
else
  ok "estimate-checked: bench/estimate --emit-checked ran on every row"
fi
if diff -u "$root/src/lib/est_checked.inc" "$W/checked.inc" > "$W/diff"; then
  ok "estimate-checked: src/lib/est_checked.inc matches the estimator"
else
  nok "estimate-checked: src/lib/est_checked.inc is stale: run bench/estimate --emit-checked src/lib/est_checked.inc" "$(head -12 "$W/diff")"
fi
# The quoted line is what the table says for the workload's kind.
line=$("$OOMLAB" estimate llama-2-7b --precision bf16 --lora-r 8 --quant nf4 --capacity 24GB 2>/dev/null | grep '^accuracy')
rows=$(sed -n 's/^\[EST_KIND_QLORA\] = {EST_KIND_QLORA, \([0-9]*\),.*/\1/p' "$root/src/lib/est_checked.inc")
[ -n "$rows" ] || rows="(no QLoRA row in the table)"
case $line in
  "accuracy   $rows measured QLoRA runs"*) ok "estimate-checked: QLoRA estimate quotes the QLoRA rows" ;;
  *) nok "estimate-checked: QLoRA estimate quotes the QLoRA rows" "got: $line" "want $rows rows" ;;
esac
