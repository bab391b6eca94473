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
# gate NAME WANT COUNT WHAT -- COMMAND...: run one oracle into $W/NAME; ok when
# it exits 0 and its output matches WANT (an ERE; "!ERE": must not match;
# "": exit 0 is enough); COUNT (an ERE) counts the points checked for the ok
# line; on failure the lines that say why and the output's tail are shown
gate() {
  local name=$1 want=$2 count=$3 what=$4 rc ok=1
  shift 5
  OOMLAB=$OOMLAB "$@" > "$W/$name" 2>&1
  rc=$?
  [ $rc -eq 0 ] || ok=0
  case $want in
    '') ;;
    '!'*) ! grep -qE "${want#!}" "$W/$name" || ok=0 ;;
    *) grep -qE "$want" "$W/$name" || ok=0 ;;
  esac
  if [ $ok = 1 ]; then
    echo "ok $name: $what ($(grep -cE "$count" "$W/$name") points)"
  else
    echo "not ok $name: bench/$name exit $rc"
    grep -E 'OFF|refused|FAIL|Error|error' "$W/$name" | head -12 | sed 's/^/#   /'
    tail -8 "$W/$name" | sed 's/^/#   /'
  fi
}
# the training terms (the small grid, ~60 s)
gate estimate-oracle '^PASS: 0 term' '^[0-9][0-9]* *weights' 'every term within 1% of real PyTorch' -- \
  timeout 600 "$py" "$root/bench/estimate-oracle" --grid small
# generation (~10 s): the KV cache models, K/V layouts, static lengths, masks
# and prefill logits, eager prefill blocks (HF Llama, BERT, DistilBERT); the KV
# term and the phase peaks where the cache, mask, logits or scores dominate must
# be within 1%
gate estimate-oracle-gen '^PASS: 0 term' '^[0-9][0-9]* *kv ' 'KV cache and phase peaks within 1% of real PyTorch (eager prefill included)' -- \
  timeout 300 "$py" "$root/bench/estimate-oracle-gen" --grid small
# a tied embedding's end of backward (~25 s): the two gradients summed out of
# place, measured as the peak resident set of a child process; tied and
# untied, fp32, bf16 and bf16 autocast, within 0.05 E
gate estimate-oracle-tied '!FAIL' 'PASS' "a tied embedding's end of backward within 0.05 E of real PyTorch" -- \
  timeout 300 "$py" "$root/bench/estimate-oracle-tied"
# AutoAWQ's repacking for the ExLlama kernels (~5 s): the int64 shifts and sums
# of unpack_reorder_pack, 10 B per weight of the largest linear, within 1%
gate estimate-oracle-awqrepack '^PASS' '^ +[0-9]+ +[0-9]+ ' "AWQ's ExLlama repack at load within 1% of real PyTorch" -- \
  timeout 300 "$py" "$root/bench/estimate-oracle-awqrepack"
# HF's sparse MoE block (~2 s): what the experts add to a block's saved set
# (router, gathered tokens, the weighted expert outputs index_add_ keeps),
# fp32 and bf16, full and frozen linears, within 1%
gate estimate-oracle-moe '^worst \|error\|' '^(fp32|bf16)' 'the MoE term within 1% of real PyTorch' -- \
  timeout 300 "$py" "$root/bench/estimate-oracle-moe"
# autocast's cast cache (~1 s): a leaf parameter's cast is cached, an FSDP1
# flat-parameter view's is not
gate estimate-oracle-autocast '' 'PASS' "autocast caches leaf parameters' casts, not FSDP1's views" -- \
  timeout 300 "$py" "$root/bench/estimate-oracle-autocast"
# block checkpointing's backward (~1 s): at block k's recompute the head's and
# blocks k+1..L-1's gradients are alive and the checkpointed inputs above k
# are freed (reentrant and not)
gate estimate-oracle-ckptgrads '' 'PASS' "the later blocks' gradients alive, their inputs freed at each recompute" -- \
  timeout 300 "$py" "$root/bench/estimate-oracle-ckptgrads"
# torchtitan's cross-entropy (~2 s): eager keeps the fp32 log-softmax; under
# torch.compile (AOTAutograd's decompositions, Inductor's min-cut partitioner
# as torch 1.13's functorch runs it) the 16-bit pred and per-row values,
# the gradient in pred's dtype; the "logits + loss" term within 1%; own
# model code whose compiled forward takes the loss (the head's matmul in the
# graph, torch 2's partitioner distance rule): the 16-bit logits again
gate estimate-oracle-closs '' 'PASS' "torchtitan's loss, eager and compiled, and own code's compiled head + loss, within 1% of real PyTorch's saved set" -- \
  timeout 300 "$py" "$root/bench/estimate-oracle-closs"
# ReLU and a plain sum's gradient (~2 s): a ReLU MLP keeps one ffn-sized
# tensor (its result, fc2's input), a fused GELU two; logits.sum()'s
# stride-0 gradient is cloned for the head's matmul (a logits-sized
# temporary); fp32 and bf16, within 1%
gate estimate-oracle-relu '' 'PASS' "ReLU's one kept tensor and the head's clone of a sum's gradient, within 1% of real PyTorch" -- \
  timeout 300 "$py" "$root/bench/estimate-oracle-relu"
# cross-entropy on the logits as returned (~2 s): on bf16 logits (a pure bf16
# loop, --loss-upcast no) autograd keeps the bf16 log-softmax and backward
# holds two bf16 gradients beside it, 2 + 4 B per logit; fp32 4 + 8; the
# "logits + loss" term and it plus the temporaries within 1%
gate estimate-oracle-ce16 '' 'PASS' "cross-entropy on 16-bit logits keeps and holds 16-bit tensors, within 1% of real PyTorch" -- \
  timeout 300 "$py" "$root/bench/estimate-oracle-ce16"
# --mode infer --autograd on|train: a forward with grad enabled keeps the
# training forward's saved tensors (eval mode: no dropout) beside the logits;
# GPT-2 and Llama, batch and sequence sweeps: the saved bytes, the logits, the
# graph's held bytes (grad less no_grad) and the forward's peak within 1%
gate estimate-oracle-nograd '^PASS: 0 term' '^[0-9][0-9]* *activations' "a forward without torch.no_grad keeps the training forward's saved tensors, within 1% of real PyTorch" -- \
  timeout 300 "$py" "$root/bench/estimate-oracle-nograd"
# ZeRO-3's release under torch's linear (~15 s): swapping param.data (what
# DeepSpeed's free_param does) frees nothing that F.linear saved, since it
# saved weight.t(), a view; a function saving the parameter itself (DeepSpeed's
# zero.Init linear) lets it go: L x H x H x 4 B apart, within 2%
gate estimate-oracle-zero3view '^PASS' ' ok$' "a saved weight.t() view keeps a released ZeRO-3 weight, within 2% of real PyTorch" -- \
  timeout 300 "$py" "$root/bench/estimate-oracle-zero3view"
