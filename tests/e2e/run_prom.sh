#!/usr/bin/env bash
# run --prom DIR on the simulated trainer and the fake card: the textfile
# while the run goes (step, running), final values, per-rank names that
# never collide, OOM count, dcgm-exporter names, bad directories.
. "$(dirname "$0")/lib/run-common.bash"
PROMCHECK=$OOMLAB_BUILD/fakes/promcheck
pc() { "$PROMCHECK" "$@" >/dev/null; }
mkdir -p nv/procs; echo "0 25769803776 536870912 35 NVIDIA A10G" > nv/gpus
export OOMLAB_NVML_LIBRARY=$OOMLAB_BUILD/fakes/libnvidia-ml.so.1 OOMLAB_FAKE_NVML_DIR=$PWD/nv
val() { # val FILE METRIC: the sample's value (first series)
  awk -v m="$2" '$1 ~ "^"m"({|$)" {print $2; exit}' "$1"; }

fresh live; mkdir prom
"$OOMLAB" run -q --id live1 --prom prom --interval 50ms -- "$SIM" --steps 12 --sleep-ms 150 2>err &
pid=$!
seen_running=0 seen_step=0 bad=0
for _ in $(seq 1 60); do
  sleep 0.1
  f=prom/oomlab_run_live1.prom
  [ -f "$f" ] || continue
  cp "$f" snap.prom
  "$PROMCHECK" snap.prom >/dev/null 2>&1 || bad=1
  [ "$(val snap.prom oomlab_run_running)" = 1 ] && seen_running=1
  s=$(val snap.prom oomlab_run_step); [ -n "$s" ] && [ "$s" -ge 2 ] && [ "$s" -lt 12 ] && seen_step=1
  [ "$(val snap.prom oomlab_run_running)" = 0 ] && break
done
wait $pid; rc=$?
check prom.exit0 test "$rc" -eq 0
check prom.valid-while-running test "$bad" -eq 0
check prom.running-seen test "$seen_running" -eq 1
check prom.step-during-run test "$seen_step" -eq 1
f=prom/oomlab_run_live1.prom
check prom.final-valid pc "$f"
check prom.final-running0 test "$(val $f oomlab_run_running),$(val $f oomlab_run_exit_code),$(val $f oomlab_run_step),$(val $f oomlab_run_ooms_total)" = "0,0,12,0"
# the peak is the ledger's: 2.00 GiB base + 8*1024*256 KiB x 1.05, as runs.csv says
check prom.peak-is-ledgers test "$(awk '/^oomlab_run_peak_bytes/ {printf "%.2f", $2/1073741824}' $f)" = "$(csv_field runs.csv live1 peak_reserved_GB)"
check prom.peak-source grep -q '^oomlab_run_peak_bytes{run_id="live1",host="[^"]*",source="log"}' $f
check prom.gpu-total test "$(val $f oomlab_run_gpu_memory_total_bytes)" = 25769803776
check prom.labels grep -q '^oomlab_run_gpu_memory_used_bytes{run_id="live1",host="[^"]*",gpu="0"} ' $f
check prom.no-temp test "$(ls prom | wc -l)" -eq 1
check prom.no-warning test "$(grep -c warning err)" -eq 0

# two ranks of one job on one node, same run id: two files, never one
fresh ranks; mkdir prom
RANK=0 SLURM_JOB_ID=4242 "$OOMLAB" run -q --dir r0 --id job7 --prom prom -- "$SIM" --steps 3 --sleep-ms 1 2>/dev/null &
RANK=1 SLURM_JOB_ID=4242 "$OOMLAB" run -q --dir r1 --id job7 --prom prom -- "$SIM" --steps 3 --sleep-ms 1 2>/dev/null
wait
check prom.rank-files test "$(ls prom | tr '\n' ' ')" = "oomlab_run_job7_rank0.prom oomlab_run_job7_rank1.prom "
check prom.rank-labels grep -q '^oomlab_run_step{run_id="job7",rank="1",host="[^"]*",job="4242"} 3$' prom/oomlab_run_job7_rank1.prom
RANK=x1 "$OOMLAB" run -q --dir r2 --id job8 --prom prom -- true 2>/dev/null
check prom.rank-not-a-number-ignored test -f prom/oomlab_run_job8.prom

# an OOM: counted, exit code, lower-bound source; dcgm names in MiB
fresh oom; mkdir prom
"$OOMLAB" run -q --id o1 --prom prom --prom-dcgm -- "$SIM" --batch 16 --per-token-kb 2048 --steps 3 2>/dev/null; rc=$?
f=prom/oomlab_run_o1.prom
check prom.oom-exit1 test "$rc" -eq 1
check prom.oom-valid pc "$f"
check prom.oom-count test "$(val $f oomlab_run_ooms_total),$(val $f oomlab_run_exit_code)" = "1,1"
check prom.oom-source-is-ledgers grep -q "source=\"$(csv_field runs.csv o1 peak_source)\"" $f
used=$(val $f oomlab_run_gpu_memory_used_bytes)
check prom.dcgm-mib test "$(val $f DCGM_FI_DEV_FB_USED)" = "$(( (used + 524288) / 1048576 ))"
check prom.dcgm-free grep -q '^DCGM_FI_DEV_FB_FREE{' $f

# no NVML: no per-GPU samples, the rest still written
fresh nonvml; mkdir prom
OOMLAB_NVML_LIBRARY=/nonexistent "$OOMLAB" run -q --id n1 --prom prom -- "$SIM" --steps 3 --sleep-ms 1 2>/dev/null
check prom.no-nvml-valid pc prom/oomlab_run_n1.prom
check prom.no-nvml-no-gpu-sample test "$(grep -c '^oomlab_run_gpu' prom/oomlab_run_n1.prom)" -eq 0
check prom.no-nvml-step test "$(val prom/oomlab_run_n1.prom oomlab_run_step)" = 3

# bad directories: usage errors, nothing run
fresh bad
"$OOMLAB" run -q --prom nowhere -- true 2>err; rc=$?
check prom.missing-dir test "$rc" -eq 2 -a ! -e runs.csv
check prom.missing-dir-said grep -q -- '--prom nowhere: No such file or directory' err
: > afile
"$OOMLAB" run -q --prom afile -- true 2>err; rc=$?
check prom.not-a-dir test "$rc" -eq 2
"$OOMLAB" run -q --prom-dcgm -- true 2>err; rc=$?
check prom.dcgm-needs-prom test "$rc" -eq 2
# a symlink planted at the file's name is not written through
mkdir prom; ln -s ../victim prom/oomlab_run_s1.prom; echo keep > victim
"$OOMLAB" run -q --id s1 --prom prom -- true 2>err; rc=$?
check prom.symlink-run-goes-on test "$rc" -eq 0
check prom.symlink-untouched test "$(cat victim)" = keep
check prom.symlink-said-once test "$(grep -c 'warning: --prom' err)" -eq 1
