#!/usr/bin/env bash
# oomlab estimate's terms against real PyTorch: bench/estimate-oracle runs
# small GPT-2- and Llama-shaped models in plain torch for one training step
# and measures the weights, gradients, optimizer states and the bytes
# autograd saves for backward; every term must match `oomlab estimate` within
# 1% (the small grid: eager/sdpa/flash attention, fp32/bf16, block and
# every-N checkpointing, LoRA with and without dropout, the HF, torchtune and
# litgpt loss paths, blocks under torch.compile's min-cut partitioner when
# python3-networkx is installed). Needs Debian's python3-torch for /usr/bin/python3; skips
# with a clear line without it.
set -u
OOMLAB=${OOMLAB:-$PWD/build/oomlab}
root=${OOMLAB_ROOT:-$PWD}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
py=/usr/bin/python3
if ! [ -x "$py" ] || ! "$py" -c 'import torch' 2>/dev/null; then
  echo "ok estimate-oracle # skipped: no torch (apt-get install python3-torch)"
  exit 0
fi
OOMLAB=$OOMLAB timeout 600 "$py" "$root/bench/estimate-oracle" --grid small > "$W/out" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q '^PASS: 0 term' "$W/out"; then
  echo "ok estimate-oracle: every term within 1% of real PyTorch ($(grep -c '^[0-9][0-9]* *weights' "$W/out") points)"
else
  echo "not ok estimate-oracle: bench/estimate-oracle exit $rc"
  grep -E 'OFF|refused|Error|error' "$W/out" | head -12 | sed 's/^/#   /'
  tail -8 "$W/out" | sed 's/^/#   /'
fi
# generation (bench/estimate-oracle-gen, ~10 s): the KV cache models, K/V layouts,
# static lengths, masks and prefill logits; the KV term and the phase peaks where
# the cache, mask or logits dominate must be within 1%
OOMLAB=$OOMLAB timeout 300 "$py" "$root/bench/estimate-oracle-gen" --grid small > "$W/gen" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q '^PASS: 0 term' "$W/gen"; then
  echo "ok estimate-oracle-gen: KV cache and phase peaks within 1% of real PyTorch ($(grep -c '^[0-9][0-9]* *kv ' "$W/gen") points)"
else
  echo "not ok estimate-oracle-gen: bench/estimate-oracle-gen exit $rc"
  grep -E 'OFF|refused|Error|error' "$W/gen" | head -12 | sed 's/^/#   /'
  tail -8 "$W/gen" | sed 's/^/#   /'
fi
# a tied embedding's end of backward (bench/estimate-oracle-tied, ~25 s): the
# two gradients summed out of place, measured as the peak resident set of a
# child process; tied and untied, fp32, bf16 and bf16 autocast, within 0.05 E
OOMLAB=$OOMLAB timeout 300 "$py" "$root/bench/estimate-oracle-tied" > "$W/tied" 2>&1
rc=$?
if [ $rc -eq 0 ] && ! grep -q 'FAIL' "$W/tied"; then
  echo "ok estimate-oracle-tied: a tied embedding's end of backward within 0.05 E of real PyTorch ($(grep -c 'PASS' "$W/tied") points)"
else
  echo "not ok estimate-oracle-tied: bench/estimate-oracle-tied exit $rc"
  sed 's/^/#   /' "$W/tied" | tail -10
fi
# HF's sparse MoE block (bench/estimate-oracle-moe, ~2 s): what the experts add
# to a block's saved set (router, gathered tokens, the weighted expert outputs
# index_add_ keeps), fp32 and bf16, full and frozen linears, within 1%
OOMLAB=$OOMLAB timeout 300 "$py" "$root/bench/estimate-oracle-moe" > "$W/moe" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q '^worst |error|' "$W/moe"; then
  echo "ok estimate-oracle-moe: the MoE term within 1% of real PyTorch ($(grep -c '^fp32\|^bf16' "$W/moe") points)"
else
  echo "not ok estimate-oracle-moe: bench/estimate-oracle-moe exit $rc"
  sed 's/^/#   /' "$W/moe" | tail -10
fi
# autocast's cast cache (bench/estimate-oracle-autocast, ~1 s): a leaf
# parameter's cast is cached, an FSDP1 flat-parameter view's is not
"$py" "$root/bench/estimate-oracle-autocast" > "$W/ac" 2>&1
rc=$?
if [ $rc -eq 0 ]; then
  echo "ok estimate-oracle-autocast: autocast caches leaf parameters' casts, not FSDP1's views ($(grep -c 'PASS' "$W/ac") cases)"
else
  echo "not ok estimate-oracle-autocast: bench/estimate-oracle-autocast exit $rc"
  sed 's/^/#   /' "$W/ac" | tail -6
fi
# block checkpointing's backward (bench/estimate-oracle-ckptgrads, ~1 s): at
# block k's recompute the head's and blocks k+1..L-1's gradients are alive
# and the checkpointed inputs above k are freed (reentrant and not)
"$py" "$root/bench/estimate-oracle-ckptgrads" > "$W/cg" 2>&1
rc=$?
if [ $rc -eq 0 ]; then
  echo "ok estimate-oracle-ckptgrads: the later blocks' gradients alive, their inputs freed at each recompute ($(grep -c 'PASS' "$W/cg") blocks)"
else
  echo "not ok estimate-oracle-ckptgrads: bench/estimate-oracle-ckptgrads exit $rc"
  sed 's/^/#   /' "$W/cg" | tail -6
fi
