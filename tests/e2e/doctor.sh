#!/usr/bin/env bash
# oomlab doctor and --version: what the machine has, with the fake NVML and
# without, a python with torch and without, a broken ledger, the hook's files.
. "$(dirname "$0")/lib/run-common.bash"

case "$OOMLAB_BUILD" in *asan*) kind=asan ;; *portable*) kind=portable ;; *) kind=release ;; esac
v=$("$OOMLAB" --version)
check version.names-commit-and-kind test -n "$(printf '%s' "$v" | grep -E "^oomlab [0-9.]+ \(commit ([0-9a-f]+(-dirty)?|unknown), $kind build\)$")"

# torch-less python first on PATH, NVML absent
fresh plain
mkdir bin && printf '#!/bin/sh\nexit 1\n' > bin/python3 && chmod +x bin/python3
PATH=$PWD/bin:/usr/bin:/bin "$OOMLAB" doctor > out 2>err; rc=$?
check doctor.no-nvml-is-a-warning test "$rc" -eq 0
check doctor.no-nvml-said grep -q '^warn nvml .*NVML not available' out
check doctor.no-nvml-what-to-do grep -q 'ps/watch exit 4' out
check doctor.no-torch grep -q "^warn torch .*$PWD/bin/python3 cannot import torch" out
check doctor.hook-found grep -q "^ok   hook .*share/oomlab/torch" out
check doctor.no-ledger grep -q '^ok   ledger .*no ledger in \. yet' out

# fake card, real python with torch (when installed), a ledger
fresh card
D=$PWD/nvml; mkdir -p "$D/procs"
echo '0 85899345920 536870912 0 NVIDIA A100-SXM4-80GB' > "$D/gpus"; echo 550.54.15 > "$D/driver"
"$OOMLAB" run -q -- true 2>/dev/null
OOMLAB_NVML_LIBRARY=$OOMLAB_BUILD/fakes/libnvidia-ml.so.1 OOMLAB_FAKE_NVML_DIR=$D \
  PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True PATH=/usr/bin:/bin "$OOMLAB" doctor > out 2>err; rc=$?
check doctor.card-exit0 test "$rc" -eq 0
check doctor.nvml-driver grep -q '^ok   nvml .*driver 550.54.15, 1 GPU$' out
check doctor.gpu-line grep -q '^ok   gpu .*GPU 0 NVIDIA A100-SXM4-80GB: 80.00 GiB total, 512.00 MiB used' out
check doctor.ledger-found grep -q '^ok   ledger .*runs.csv: 1 run, last run001' out
check doctor.env-shown grep -q '^ok   env .*PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True' out
if /usr/bin/python3 -c 'import torch' 2>/dev/null; then
  check doctor.torch-found grep -q '^ok   torch .*/usr/bin/python3: torch [0-9]' out
fi
# expandable_segments is read from torch 2.1 on; Debian's torch 1.13 stops on it
if /usr/bin/python3 -c 'import torch,sys; sys.exit(tuple(map(int, torch.__version__.split(".")[:2])) >= (2, 1))' 2>/dev/null; then
  check doctor.alloc-conf-old-torch grep -q "^warn env .*PYTORCH_CUDA_ALLOC_CONF: torch 1.* does not read expandable_segments (2.1 and later)" out
fi
OOMLAB_NVML_LIBRARY=$OOMLAB_BUILD/fakes/libnvidia-ml.so.1 OOMLAB_FAKE_NVML_DIR=$D PATH=/usr/bin:/bin \
  "$OOMLAB" doctor --json > out.json 2>err
check doctor.json-parses python3 -c 'import json,sys; d=json.load(open("out.json")); assert d["schema"]=="oomlab.doctor.v1"; assert any(c["check"]=="gpu" and c["level"]=="ok" for c in d["checks"])'

# something that stops a command: a ledger that cannot be read, no hook
fresh broken
mkdir runs.csv   # not a file: table/run cannot use it
OOMLAB_SHARE=$PWD/nowhere "$OOMLAB" doctor > out 2>err; rc=$?
check doctor.failure-exit1 test "$rc" -eq 1
check doctor.ledger-unusable grep -q '^fail ledger ' out
check doctor.hook-missing grep -q '^fail hook .*OOMLAB_SHARE=.*nowhere has no torch/sitecustomize.py' out
CUDA_VISIBLE_DEVICES= OOMLAB_SHARE=$PWD/nowhere "$OOMLAB" doctor > out 2>err
check doctor.cvd-empty-warned grep -q '^warn env .*hides every GPU' out
# a key PyTorch's allocator does not know stops every CUDA program at its
# first allocation: said, with the key; PYTORCH_ALLOC_CONF (the newer name) shown
fresh allocconf
PYTORCH_ALLOC_CONF='expandable_segment:True,max_split_size_mb:128' "$OOMLAB" doctor > out 2>err; rc=$?
check doctor.alloc-conf-typo-warned grep -q "^warn env .*PYTORCH_ALLOC_CONF: 'expandable_segment' is not a key" out
check doctor.alloc-conf-typo-exit0 test "$rc" -eq 0
PYTORCH_CUDA_ALLOC_CONF='roundup_power2_divisions:[256:1,>:4],expandable_segments:True' "$OOMLAB" doctor > out 2>err
check doctor.alloc-conf-good-quiet sh -c '! grep -q "is not a key" out'
"$OOMLAB" doctor --bogus >/dev/null 2>err; check doctor.usage-exit2 test $? -eq 2
# NVML loads but cannot count its GPUs (nvmlDeviceGetCount fails): doctor
# said "ok nvml ..., 0 GPUs" and "NVML loaded but lists no GPU", while ps
# and watch stop with the error (exit 3); it now warns with the error
# (stranger24).
OOMLAB_NVML_LIBRARY=$OOMLAB_BUILD/fakes/libnvidia-ml.so.1 OOMLAB_FAKE_NVML_DIR=$D OOMLAB_FAKE_NVML_FAIL=count \
  "$OOMLAB" doctor > out 2>err
check doctor.count-fails-said grep -q '^warn nvml .*cannot count GPUs: Unknown Error (999)' out
check doctor.count-fails-not-no-gpu sh -c '! grep -q "lists no GPU" out'
