#!/usr/bin/env bash
# The PyTorch hook (share/oomlab/torch) on real CPU torch: rows per optimizer
# step, output byte-identical with and without it, OOM evidence, chaining to
# the user's sitecustomize, its own errors kept out of the run. CUDA's
# counters are scripted (OOMLAB_TORCH_FAKE_CUDA): there is no GPU here.
. "$(dirname "$0")/lib/run-common.bash"
PY=/usr/bin/python3
if ! "$PY" -c 'import torch' 2>/dev/null; then
  bad torch.available "Debian's python3-torch is not installed for $PY (scripts/setup installs it)"
  exit 0
fi
HOOK="$OOMLAB_ROOT/share/oomlab/torch"
TRAIN="$OOMLAB_ROOT/tests/torch/train_tiny.py"
HEADER='step,time,rank,local_rank,device,optimizer,allocated,reserved,peak_allocated,peak_reserved'
echo '{"devices":[0],"steps":[[100,200,300,400],[110,220,330,440],[120,240,360,480]]}' > "$SCRATCH/fake.json"

# hooked ARGS...: the training script under the hook, files in the cwd
hooked() {
  echo "$HEADER" > steps.csv
  OOMLAB_TORCH=${MODE:-steps} OOMLAB_TORCH_STEPS=$PWD/steps.csv OOMLAB_TORCH_OOM_DIR=$PWD/oom \
    OOMLAB_TORCH_ERRORS=$PWD/hook.err OOMLAB_TORCH_FAKE_CUDA=$SCRATCH/fake.json \
    PYTHONPATH="$HOOK${EXTRA_PATH:+:$EXTRA_PATH}" "$PY" "$TRAIN" "$@"
}
rows() { tail -n +2 steps.csv | wc -l; }

fresh steps
hooked --steps 3 > with.out 2>&1; rc1=$?
"$PY" "$TRAIN" --steps 3 > without.out 2>&1; rc2=$?
check hook.exit-same test "$rc1" -eq 0 -a "$rc2" -eq 0
check hook.output-identical cmp -s with.out without.out
check hook.one-row-per-step test "$(rows)" -eq 3
check hook.rows-in-order test "$(tail -n +2 steps.csv | cut -d, -f1 | tr '\n' ' ')" = "1 2 3 "
check hook.scripted-figures test "$(sed -n 2p steps.csv | cut -d, -f3-)" = ",,0,0,100,200,300,400"
check hook.third-row-figures test "$(sed -n 4p steps.csv | cut -d, -f7-)" = "120,240,360,480"
check hook.no-errors test ! -s hook.err

fresh accum
hooked --steps 2 --accum 4 >/dev/null 2>&1
check hook.accumulation-counts-optimizer-steps test "$(rows)" -eq 2
fresh two-optimizers
hooked --steps 2 --optimizers 2 >/dev/null 2>&1
check hook.two-optimizers test "$(tail -n +2 steps.csv | cut -d, -f1,6 | tr '\n' ' ')" = "1,0 1,1 2,0 2,1 "
fresh same-class-twice
hooked --steps 2 --two-models >/dev/null 2>&1
check hook.class-wrapped-once test "$(rows)" -eq 2

fresh no-torch
hooked --no-torch > out 2>&1
check hook.torch-not-imported-by-hook test "$(cat out)" = "no torch here False"
check hook.no-torch-no-rows test "$(rows)" -eq 0
fresh off
echo "$HEADER" > steps.csv
OOMLAB_TORCH_STEPS=$PWD/steps.csv OOMLAB_TORCH_FAKE_CUDA=$SCRATCH/fake.json PYTHONPATH=$HOOK "$PY" "$TRAIN" >/dev/null 2>&1
check hook.off-without-OOMLAB_TORCH test "$(rows)" -eq 0

fresh ranks
RANK=3 LOCAL_RANK=1 hooked --steps 1 >/dev/null 2>&1
check hook.rank-columns test "$(sed -n 2p steps.csv | cut -d, -f1,3,4)" = "1,3,1"
echo "$HEADER" > shared.csv
for r in 0 1 2 3; do
  RANK=$r OOMLAB_TORCH=steps OOMLAB_TORCH_STEPS=$PWD/shared.csv OOMLAB_TORCH_FAKE_CUDA=$SCRATCH/fake.json \
    PYTHONPATH=$HOOK "$PY" "$TRAIN" --steps 40 >/dev/null 2>&1 &
done
wait
check hook.ranks-append-intact test "$(tail -n +2 shared.csv | awk -F, 'NF==10' | wc -l)" -eq 160
check hook.ranks-all-present test "$(tail -n +2 shared.csv | cut -d, -f3 | sort -u | tr '\n' ' ')" = "0 1 2 3 "

fresh oom
hooked --steps 1 --oom > with.out 2>&1; rc1=$?
"$PY" "$TRAIN" --steps 1 --oom > without.out 2>&1; rc2=$?
check hook.oom-exit-same test "$rc1" -eq "$rc2" -a "$rc1" -eq 1
check hook.oom-output-identical cmp -s with.out without.out
check hook.oom-summary-written test "$(ls oom/*.summary.txt 2>/dev/null | wc -l)" -eq 1
check hook.oom-summary-says-why grep -q 'uncaught OutOfMemoryError' oom/*.summary.txt

fresh chain
mkdir user && cat > user/sitecustomize.py <<'PY'
import os
open(os.environ["CHAIN_MARK"], "w").write(__file__)
PY
CHAIN_MARK=$PWD/mark EXTRA_PATH=$PWD/user hooked --steps 1 >/dev/null 2>&1
check hook.chains-user-sitecustomize test "$(cat mark 2>/dev/null)" = "$PWD/user/sitecustomize.py"
check hook.chained-and-still-recording test "$(rows)" -eq 1
cat > user/sitecustomize.py <<'PY'
raise ValueError("the user's own sitecustomize is broken")
PY
EXTRA_PATH=$PWD/user hooked --steps 1 > with.out 2>&1; rc1=$?
PYTHONPATH=$PWD/user "$PY" "$TRAIN" --steps 1 > without.out 2>&1; rc2=$?
check hook.user-sitecustomize-error-as-without test "$rc1" -eq "$rc2" -a "$(grep -c 'broken' with.out)" -eq "$(grep -c 'broken' without.out)"

fresh own-errors
hooked --steps 2 >/dev/null 2>&1  # make the step file unusable: a directory
rm steps.csv; mkdir steps.csv
OOMLAB_TORCH=steps OOMLAB_TORCH_STEPS=$PWD/steps.csv OOMLAB_TORCH_ERRORS=$PWD/hook.err \
  OOMLAB_TORCH_FAKE_CUDA=$SCRATCH/fake.json PYTHONPATH=$HOOK "$PY" "$TRAIN" --steps 2 > with.out 2>&1; rc1=$?
"$PY" "$TRAIN" --steps 2 > without.out 2>&1
check hook.own-error-never-kills test "$rc1" -eq 0
check hook.own-error-output-identical cmp -s with.out without.out
check hook.own-error-in-its-file grep -q 'steps failed' hook.err

# ---- oomlab run --torch: the same hook through run, into the ledger ----
G=1073741824
printf '{"devices":[0],"steps":[[%d,%d,%d,%d],[%d,%d,%d,%d],[%d,%d,%d,%d],[%d,%d,%d,%d]]}\n' \
  $G $((2*G)) $((3*G)) $((4*G))  $G $((2*G)) $((3*G)) $((5*G))  $G $((2*G)) $((3*G)) $((6*G))  $G $((2*G)) $((3*G)) $((7*G)) > "$SCRATCH/grow.json"
fresh run-torch
export OOMLAB_TORCH_FAKE_CUDA=$SCRATCH/grow.json
"$OOMLAB" run -q --torch -- "$PY" "$TRAIN" --steps 4 > /dev/null 2> run.err; rc=$?
"$PY" "$TRAIN" --steps 4 > direct.out 2>&1
check run-torch.exit0 test "$rc" -eq 0
check run-torch.log-as-without cmp -s direct.out logs/run001.log
check run-torch.steps-file test "$(tail -n +2 logs/run001_steps.csv | wc -l)" -eq 4
check run-torch.peak-source test "$(csv_field runs.csv run001 peak_source)" = torch
check run-torch.peak-reserved test "$(csv_field runs.csv run001 peak_reserved_GB)" = 7.00
check run-torch.peak-alloc test "$(csv_field runs.csv run001 peak_alloc_GB)" = 3.00
check run-torch.trend-growing test "$(csv_field runs.csv run001 mem_trend)" = growing
"$OOMLAB" run -q --torch=snapshot -- "$PY" "$TRAIN" --steps 1 --oom > /dev/null 2>&1; rc=$?
check run-torch.oom-exit1 test "$rc" -eq 1
check run-torch.oom-summary test "$(ls logs/run002_oom/*.summary.txt 2>/dev/null | wc -l)" -eq 1
check run-torch.oom-noted grep -q 'OOM evidence: 1 file in logs/ID_oom' runs.csv
check run-torch.oom-in-ledger test "$(csv_field runs.csv run002 oom)" = yes
"$OOMLAB" run -q --torch -- true > /dev/null 2>&1
check run-torch.not-python-noted grep -q 'torch hook: no step recorded' runs.csv
# python -I ignores PYTHONPATH, so the hook never loads: said on stderr too
"$OOMLAB" run -q --id iso --torch -- "$PY" -I "$TRAIN" --steps 2 > /dev/null 2>err.txt
check run-torch.isolated-said grep -q 'iso: --torch: the hook recorded no optimizer step' err.txt
"$OOMLAB" run -q --id plain --torch -- "$PY" "$TRAIN" --steps 2 > /dev/null 2>err.txt
check run-torch.recorded-quiet sh -c '! grep -q "recorded no optimizer step" err.txt'
# a command that changes directory first (a launch script's cd, Hydra's
# run dir) still writes its rows into this run's logs/
"$OOMLAB" run -q --id cd --torch -- sh -c 'mkdir -p sub && cd sub && exec "$0" "$1" --steps 2' "$PY" "$TRAIN" > /dev/null 2>&1
check run-torch.rows-after-cd test "$(tail -n +2 logs/cd_steps.csv | wc -l)" -eq 2
cat > launch.sh <<SH
#!/bin/sh
RANK=0 LOCAL_RANK=0 "$PY" "$TRAIN" --steps 3 & RANK=1 LOCAL_RANK=1 "$PY" "$TRAIN" --steps 3 & wait
SH
chmod +x launch.sh
"$OOMLAB" run -q --torch -- ./launch.sh > /dev/null 2>&1
check run-torch.ranks-noted grep -q 'torch hook: 3 steps, 2 ranks, worst rank' runs.csv
"$OOMLAB" run -q --torch=bogus -- true > /dev/null 2> bad.err; rc=$?
check run-torch.bad-mode-exit2 test "$rc" -eq 2
check run-torch.bad-mode-says grep -q 'want --torch, --torch=steps or --torch=snapshot' bad.err
OOMLAB_SHARE=$PWD/nowhere "$OOMLAB" run -q --torch -- true > /dev/null 2> noshare.err; rc=$?
check run-torch.no-hook-refused test "$rc" -eq 3
check run-torch.no-hook-says grep -q 'OOMLAB_SHARE' noshare.err
fresh probe-torch
"$OOMLAB" probe --torch --max 4 --steps 2 -- "$PY" "$TRAIN" --batch {batch} --steps {steps} > out 2>&1
check probe-torch.trial-steps-files test "$(ls logs/probe001-b*_steps.csv | wc -l)" -ge 3
check probe-torch.trial-peaks-from-hook test "$(csv_field runs.csv probe001-b4 peak_source),$(csv_field runs.csv probe001-b4 peak_reserved_GB)" = "torch,5.00"
"$OOMLAB" probe --torch=nope --max 4 -- true {batch} > /dev/null 2> bad.err; rc=$?
check probe-torch.bad-mode-exit2 test "$rc" -eq 2
unset OOMLAB_TORCH_FAKE_CUDA
