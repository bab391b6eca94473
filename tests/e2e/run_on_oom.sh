#!/usr/bin/env bash
# run --on-oom on the simulated trainer (2 MiB per token: batch 16 OOMs on
# the 24 GiB fake card, batch 8 fits): each attempt its own id and row, the
# parent in the notes, the effective batch kept, floors and attempt limits.
. "$(dirname "$0")/lib/run-common.bash"
mkdir -p nv/procs; echo "0 25769803776 536870912 35 NVIDIA A10G" > nv/gpus
export OOMLAB_NVML_LIBRARY=$OOMLAB_BUILD/fakes/libnvidia-ml.so.1 OOMLAB_FAKE_NVML_DIR=$PWD/nv
row() { echo "$(csv_field runs.csv "$1" device_batch_size),$(csv_field runs.csv "$1" grad_accum),$(csv_field runs.csv "$1" effective_batch),$(csv_field runs.csv "$1" max_seq_len),$(csv_field runs.csv "$1" oom),$(csv_field runs.csv "$1" exit_status)"; }
cat > cfg.yaml <<'Y'
training:
  per_device_train_batch_size: 16
  gradient_accumulation_steps: 2
  max_seq_length: 1024
Y

fresh halve; cp ../cfg.yaml .
"$OOMLAB" run -q --config cfg.yaml --on-oom halve-batch -- "$SIM" --config {config} --per-token-kb 2048 --steps 3 2>err; rc=$?
check onoom.halve-exit0 test "$rc" -eq 0
check onoom.halve-rows test "$(row run001)|$(row run002)" = "16,2,32,1024,yes,1|8,4,32,1024,no,0"
check onoom.halve-config grep -q 'per_device_train_batch_size: 8' configs/run002.yaml
check onoom.halve-config-accum grep -q 'gradient_accumulation_steps: 4' configs/run002.yaml
check onoom.halve-parent test "$(csv_field runs.csv run002 notes)" = "on-oom halve-batch attempt 2, parent run001: device_batch_size 16 -> 8, grad_accum 2 -> 4 (effective batch 32 kept)"
check onoom.halve-summary grep -q '^oomlab run: on-oom halve-batch: run001 OOM -> run002 ok$' err
check onoom.halve-first-untouched grep -q 'per_device_train_batch_size: 16' configs/run001.yaml

# an odd batch: its largest divisor at most half, accumulation by the same factor
fresh odd
"$OOMLAB" run -q --id odd --set batch_size=15 --set grad_accum=1 --on-oom halve-batch -- "$SIM" --config {config} --per-token-kb 2048 --steps 2 2>err; rc=$?
check onoom.odd-exit0 test "$rc" -eq 0
check onoom.odd-ids test "$(row odd)|$(row odd-a2)" = "15,1,15,,yes,1|5,3,15,,no,0"
check onoom.odd-user-key grep -q 'batch_size 15 -> 5, grad_accum 1 -> 3' err

# the floor, and --max-attempts, stop it; the exit code is the last attempt's
fresh floor
"$OOMLAB" run -q --set device_batch_size=16 --on-oom halve-batch --on-oom-floor 16 -- "$SIM" --config {config} --per-token-kb 2048 --steps 2 2>err; rc=$?
check onoom.floor-exit1 test "$rc" -eq 1
check onoom.floor-said grep -q 'nothing left to try: device_batch_size 16 cannot be halved above the floor 16' err
check onoom.floor-one-row test "$(csv_rows runs.csv)" -eq 2 # the running placeholder and the row
fresh attempts
"$OOMLAB" run -q --set device_batch_size=64 --on-oom halve-batch --max-attempts 2 -- "$SIM" --config {config} --per-token-kb 8192 --steps 2 2>err; rc=$?
check onoom.attempts-exit1 test "$rc" -eq 1
check onoom.attempts-two test "$(row run001 | cut -d, -f1)|$(row run002 | cut -d, -f1)|$(test -f logs/run003.log && echo 3)" = "64|32|"
check onoom.attempts-said grep -q 'stopped after --max-attempts 2' err

# halve-seq; ckpt (the trainer ignores it: one retry, then nothing left)
fresh seq
"$OOMLAB" run -q --set device_batch_size=8 --set max_seq_len=2048 --on-oom halve-seq -- "$SIM" --config {config} --per-token-kb 2048 --steps 2 2>err; rc=$?
check onoom.seq-exit0 test "$rc" -eq 0
check onoom.seq-rows test "$(row run001 | cut -d, -f4,5)|$(row run002 | cut -d, -f4,5)" = "2048,yes|1024,no"
fresh ckpt
"$OOMLAB" run -q --set device_batch_size=16 --on-oom ckpt -- "$SIM" --config {config} --per-token-kb 2048 --steps 2 2>err; rc=$?
check onoom.ckpt-exit1 test "$rc" -eq 1
check onoom.ckpt-set test "$(csv_field runs.csv run002 grad_ckpt)" = true
check onoom.ckpt-once grep -q 'nothing left to try: gradient_checkpointing is already on' err

# no retry without an OOM; usage errors before anything runs
fresh noretry
"$OOMLAB" run -q --set device_batch_size=8 --on-oom halve-batch -- "$SIM" --config {config} --exit-code 3 --steps 1 2>err; rc=$?
check onoom.failure-not-retried test "$rc,$(test -f logs/run002.log && echo again)" = "3,"
fresh usage
"$OOMLAB" run -q --set device_batch_size=8 --on-oom halve-batch -- "$SIM" --steps 1 2>err; rc=$?
check onoom.needs-config-placeholder test "$rc,$(ls logs 2>/dev/null | wc -l)" = "2,0"
check onoom.needs-config-said grep -q 'the command must read the change' err
"$OOMLAB" run -q --set device_batch_size=8 --on-oom halve-batch -- "$SIM" --batch {device_batch_size} 2>err; rc=$?
check onoom.needs-accum-placeholder test "$rc" -eq 2
"$OOMLAB" run -q --on-oom halve-batch -- "$SIM" --config {config} 2>err; rc=$?
check onoom.needs-batch test "$rc" -eq 2
"$OOMLAB" run -q --set device_batch_size=8 --on-oom halve -- "$SIM" --config {config} 2>err; rc=$?
check onoom.bad-policy test "$rc,$(grep -c 'expected halve-batch, halve-seq or ckpt' err)" = "2,1"
"$OOMLAB" run -q --max-attempts 3 -- true 2>err; rc=$?
check onoom.max-needs-on-oom test "$rc" -eq 2

# an attempt interrupted after its OOM (a rank OOMs, the others hang on it;
# the user presses Ctrl-C, or scancel sends SIGTERM): no next attempt, the
# exit is the interrupted attempt's, and it is said why
fresh interrupted
cat > hang.sh <<'S'
#!/bin/sh
grep -h device_batch_size "$1"
echo 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.68 GiB of which 1.00 GiB is free.'
echo oom-said
exec sleep 30
S
chmod +x hang.sh
"$OOMLAB" run -q --set device_batch_size=16 --on-oom halve-batch -- ./hang.sh {config} >out 2>err & pid=$!
wait_line logs/run001.log oom-said
kill -TERM "$pid"
wait_for "oomlab to end on SIGTERM" ended "$pid" || kill -KILL "$pid"
wait "$pid"; rc=$?
check onoom.interrupted-exit143 test "$rc" -eq 143
check onoom.interrupted-no-attempt2 test ! -e logs/run002.log
check onoom.interrupted-said grep -q 'on-oom: no attempt 2: run001 was interrupted (SIGTERM)' err
check onoom.interrupted-trail grep -q 'on-oom halve-batch: run001 OOM, interrupted$' err
check onoom.interrupted-row test "$(row run001)" = "16,,16,,yes,143"
