#!/usr/bin/env bash
# oomlab run with the engines it builds on: the diagnose engine (OOM and
# stage), the step parser (peaks, loss trend) and NVML through the fake
# libnvidia-ml.so.1 driven by the simulated trainer.
. "$(dirname "$0")/lib/run-common.bash"

# --- GPU OOM and its stage (diagnose engine) ---
  fresh oom
  "$OOMLAB" run -q --id bwd -- "$SIM" --batch 128 --steps 5 --sleep-ms 0 2>/dev/null; rc=$?
  check run.oom-exit1 test "$rc" -eq 1
  check run.oom-backward test "$(csv_field runs.csv bwd oom),$(csv_field runs.csv bwd oom_stage)" = "yes,backward"
  check run.oom-capacity-from-message test "$(csv_field runs.csv bwd capacity_GB)" = 24.00
  want=$(grep -o 'Of the allocated memory [0-9.]* GiB' logs/bwd.log | grep -o '[0-9.]*')
  check run.oom-peak-from-message test "$(csv_field runs.csv bwd peak_source),$(csv_field runs.csv bwd peak_alloc_GB)" = "oom,$want"
  "$OOMLAB" run -q --id bwd2 -- "$SIM" --batch 128 --steps 5 --sleep-ms 0 2>bwd2.err
  check run.summary-names-peak-source grep -q 'peak >= [0-9.]* GiB (OOM message, a lower bound)' bwd2.err
  "$OOMLAB" run -q --id fwd -- "$SIM" --batch 200 --steps 5 --sleep-ms 0 2>/dev/null
  check run.oom-forward test "$(csv_field runs.csv fwd oom_stage)" = forward
  "$OOMLAB" run -q --id opt -- "$SIM" --batch 8 --optim-gb 30 --steps 5 --sleep-ms 0 2>/dev/null
  check run.oom-optimizer test "$(csv_field runs.csv opt oom_stage)" = optimizer
  "$OOMLAB" run -q --id ev -- "$SIM" --batch 8 --eval-every 3 --eval-spike-gb 40 --steps 5 --sleep-ms 0 2>/dev/null
  check run.oom-eval test "$(csv_field runs.csv ev oom_stage)" = eval
  "$OOMLAB" run -q --id host -- "$SIM" --steps 5 --sleep-ms 0 --host-oom-at 2 2>/dev/null
  check run.host-oom-not-gpu test "$(csv_field runs.csv host oom)" = no
  "$OOMLAB" run -q --id fine -- "$SIM" --steps 5 --sleep-ms 0 2>/dev/null
  check run.no-oom test "$(csv_field runs.csv fine oom),$(csv_field runs.csv fine oom_stage)" = "no,-"

# --- peaks and loss trend from the log (step parser) ---
  fresh steps
  "$OOMLAB" run -q --id a -- "$SIM" --batch 8 --steps 8 --sleep-ms 0 2>/dev/null
  check run.steps-peaks test "$(csv_field runs.csv a peak_alloc_GB),$(csv_field runs.csv a peak_reserved_GB),$(csv_field runs.csv a peak_source)" = "4.00,4.20,log"
  check run.steps-falling test "$(csv_field runs.csv a loss_trend)" = falling
  "$OOMLAB" run -q --id r -- "$SIM" --steps 8 --sleep-ms 0 --loss rising 2>/dev/null
  check run.steps-rising test "$(csv_field runs.csv r loss_trend)" != falling
  "$OOMLAB" run -q --id n -- "$SIM" --steps 8 --sleep-ms 0 --loss nan 2>/dev/null
  check run.steps-nan test "$(csv_field runs.csv n loss_trend)" = nan
  "$OOMLAB" run -q --id hf -- "$SIM" --steps 8 --sleep-ms 0 --format hf 2>/dev/null
  check run.steps-hf-loss test "$(csv_field runs.csv hf loss_trend)" = falling
  "$OOMLAB" run -q --id few -- "$SIM" --steps 1 --sleep-ms 0 2>/dev/null
  check run.steps-too-few test "$(csv_field runs.csv few loss_trend)" = too-few

# --- the guide's loop end to end: a failing run, a "fix" that did not lower the peak ---
  fresh loop
  "$OOMLAB" run -q --id base --set device_batch_size=80 -- "$SIM" --batch 80 --steps 3 --sleep-ms 0 --growth-mb 9000 2>/dev/null
  "$OOMLAB" run -q --id edge --set device_batch_size=80 -- "$SIM" --batch 80 --steps 2 --sleep-ms 0 2>/dev/null
  "$OOMLAB" run -q --id fix --set device_batch_size=40 --set grad_accum=2 -- "$SIM" --batch 40 --steps 2 --sleep-ms 0 2>/dev/null
  check run.loop-base-oom test "$(csv_field runs.csv base oom)" = yes
  check run.table-flags-edge sh -c "'$OOMLAB' table | grep -q -E '^edge .*peak-not-lower'"
  check run.table-fix-not-flagged sh -c "'$OOMLAB' table | grep -E '^fix ' | grep -v -q -E 'peak-not-lower|near-capacity'"
  check run.compare-loop sh -c "'$OOMLAB' compare base fix | grep -q 'batch traded for gradient accumulation'"

# --- NVML through the fake library ---
fake=$(ls "$OOMLAB_BUILD"/fakes/*nvidia-ml*.so.1 2>/dev/null | head -1)
if [ -n "$fake" ]; then
  fresh nvml
  mkdir -p gpu/procs
  echo "0 25769803776 268435456 35 NVIDIA Fake 24GB" > gpu/gpus
  export OOMLAB_NVML_LIBRARY="$fake" OOMLAB_FAKE_NVML_DIR="$PWD/gpu"
  "$OOMLAB" run --id s --interval 20ms -- "$SIM" --steps 10 --sleep-ms 30 --format hf >/dev/null 2>err.txt
  check run.nvml-no-notice sh -c '! grep -q "not sampled" err.txt'
  check run.nvml-rows test "$(grep -v '^#' logs/s_mem.csv | tail -n +2 | wc -l)" -ge 5
  check run.nvml-peak-source test "$(csv_field runs.csv s peak_source)" = nvml
  check run.nvml-capacity test "$(csv_field runs.csv s capacity_GB)" = 24.00
  check run.nvml-peak-at-least-model python3 -c "import csv; r=[x for x in csv.DictReader(open('runs.csv')) if x['run_id']=='s'][-1]; assert float(r['peak_reserved_GB']) >= 4.0, r"
  check run.nvml-procs-cleaned test -z "$(ls gpu/procs)"

  # issue 10: README's walkthrough on the fake card — the OOM run's peak is
  # never below what its own message reports; the fix's leak shows.
  fresh walk
  mkdir -p gpu/procs
  echo "0 25769803776 536870912 35 NVIDIA GeForce RTX 4090" > gpu/gpus
  export OOMLAB_FAKE_NVML_DIR="$PWD/gpu"
  "$OOMLAB" run -q --set device_batch_size=96 --set max_seq_len=1024 -- "$SIM" --batch 96 --seq 1024 2>oom.err
  check run.walk-oom-peak-not-below-message python3 -c '
import csv, re
r = [x for x in csv.DictReader(open("runs.csv")) if x["run_id"] == "run001"][-1]
log = open("logs/run001.log").read()
alloc = float(re.search(r"Of the allocated memory ([0-9.]+) GiB", log).group(1))
assert r["peak_source"] in ("oom", "nvml") and float(r["peak_reserved_GB"]) >= alloc, r
assert (r["peak_source"] == "oom") == (r["peak_lower_bound"] == "yes"), r'
  check run.walk-first-fix grep -q '^oomlab run: run001: first fix: ' oom.err
  check run.walk-diagnose-command grep -q '^oomlab run: run001: the whole diagnosis: oomlab diagnose run001$' oom.err
  "$OOMLAB" run -q --alloc-conf expandable_segments:True --set device_batch_size=48 --set grad_accum=2 \
    --set max_seq_len=1024 -- "$SIM" --batch 48 --seq 1024 --growth-mb 50 2>leak.err
  check run.walk-leak-in-summary grep -q 'memory growing: [0-9.]* -> [0-9.]* GB over steps 1-20 (+[0-9.]* GB per 100 steps)' leak.err
  check run.walk-leak-in-ledger test "$(csv_field runs.csv run002 mem_trend),$(csv_field runs.csv run002 mem_steps)" = "growing,1-20"
  check run.walk-leak-in-table sh -c '"$0" table | grep -q "^run002: memory growing: "' "$OOMLAB"
  check run.walk-leak-in-compare sh -c '"$0" compare run001 run002 | grep -q "memory trend: none-shown -> growing ("' "$OOMLAB"
  # a run whose per-step peak climbs until it OOMs: its summary's first fix
  # is diagnose's first (the leak hunt), not the next one in the plan
  "$OOMLAB" run -q --id leakoom -- "$SIM" --batch 48 --seq 1024 --growth-mb 300 --steps 60 2>leakoom.err
  check run.leak-oom-first-fix grep -q '^oomlab run: leakoom: first fix: Hunt the leak before changing sizes' leakoom.err
  check run.leak-oom-first-fix-is-diagnose-first sh -c '"$0" diagnose leakoom | grep -A1 "^Fix plan" | grep -q "1. Hunt the leak"' "$OOMLAB"
  check run.walk-env-recorded test "$(csv_field runs.csv run002 env)" = "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True"
  check run.walk-env-in-compare sh -c '"$0" compare run001 run002 | grep -q "changed: env PYTORCH_CUDA_ALLOC_CONF (unset) -> expandable_segments:True"' "$OOMLAB"
  check run.walk-env-one-variable-warning sh -c '"$0" compare run001 run002 | grep -q "2 variables changed (the batch trade counts once)"' "$OOMLAB"
  "$OOMLAB" run -q --alloc-conf garbage_collection_threshold:0.6 -- sh -c 'echo "conf=$PYTORCH_CUDA_ALLOC_CONF"' 2>/dev/null
  check run.alloc-conf-reaches-child grep -q '^conf=garbage_collection_threshold:0.6$' logs/run003.log
  "$OOMLAB" run -q -- true 2>true.err
  check run.walk-nothing-seen-not-0B sh -c '! grep -q "0 B" true.err && grep -q "nvml saw none of it" true.err'
  check run.walk-nothing-seen-no-peak test "$(csv_field runs.csv run004 peak_reserved_GB),$(csv_field runs.csv run004 peak_source)" = ","
  unset OOMLAB_NVML_LIBRARY OOMLAB_FAKE_NVML_DIR
else bad run.nvml "fake libnvidia-ml.so.1 not built"; fi
