#!/usr/bin/env bash
# End-to-end tests of `oomlab probe`: real child processes through the run
# engine, a scripted trainer whose OOM boundary is known exactly (PyTorch's
# own OOM text, the guide's step lines), the fake NVML card when it is built,
# and the simulated trainer (simtrain) when it is built. Prints ok / not ok.
set -u
OOMLAB=${OOMLAB:-$PWD/build/oomlab}
OOMLAB_BUILD=${OOMLAB_BUILD:-$PWD/build}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
. "$(dirname "$0")/lib/wait.bash"
ok() { echo "ok $1"; }
nok() { echo "not ok $1"; shift; for l in "$@"; do echo "#   $l"; done; }
check() { local name=$1; shift; if "$@"; then ok "$name"; else nok "$name" "${why:-}"; fi; why=; }
jget() { python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    d=d[int(k)] if isinstance(d,list) else d.get(k)
print("null" if d is None else (str(d).lower() if isinstance(d,bool) else d))' "$@" 2>/dev/null; }

# A probe needs the log engine to recognise an OOM: check it first.
cat > "$W/oom.log" <<'EOF'
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 79.15 GiB of which 3.81 MiB is free. Including non-PyTorch memory, this process has 79.14 GiB memory in use. Of the allocated memory 78.00 GiB is allocated by PyTorch, and 650.00 MiB is reserved by PyTorch but unallocated.
EOF
"$OOMLAB" diagnose "$W/oom.log" >/dev/null 2>&1
if [ $? -ne 1 ]; then echo "not ok probe-e2e: diagnose does not recognise a PyTorch OOM"; exit 1; fi

# A trainer with a known boundary: memory = BASE + PER * batch (MiB) against
# CAP; over it, PyTorch's OOM traceback and exit 1. Modes inject failures
# at batch >= AT: crash (SIGSEGV), hang (hangfit: only where it fits), killed (SIGKILL, no OOM text),
# flaky (batch == AT OOMs on its second run: a long batch met later).
cat > "$W/trainer" <<'EOF'
#!/bin/sh
for a in "$@"; do case $a in --bs=*) b=${a#--bs=};; --steps=*) steps=${a#--steps=};; esac; done
base=${FT_BASE:-4096} per=${FT_PER:-50} cap=${FT_CAP:-81920}
need=$((base + per * b))
case ${FT_MODE:-} in
crash) [ "$b" -ge "$FT_AT" ] && { echo "Fatal Python error: Segmentation fault"; kill -SEGV $$; } ;;
hang) [ "$b" -ge "$FT_AT" ] && { echo "waiting for a peer"; sleep 60; } ;;
hangfit) [ "$b" -ge "$FT_AT" ] && [ "$need" -le "$cap" ] && { echo "waiting for a peer"; sleep 60; } ;;
killed) [ "$b" -ge "$FT_AT" ] && kill -KILL $$ ;;
flaky) if [ "$b" -eq "$FT_AT" ]; then
         [ -f "$FT_STATE" ] && need=$((cap + per))
         touch "$FT_STATE"
       fi ;;
esac
gib() { awk -v m="$1" 'BEGIN { printf "%.2f", m / 1024 }'; }
echo "batch=$b steps=${steps:-?}"
if [ "$need" -gt "$cap" ]; then
  cat <<OOM
Traceback (most recent call last):
  File "/work/train.py", line 88, in <module>
    loss.backward()
  File "/usr/lib/python3/dist-packages/torch/_tensor.py", line 521, in backward
    torch.autograd.backward(
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate $per.00 MiB. GPU 0 has a total capacity of $(gib "$cap") GiB of which 20.00 MiB is free. Including non-PyTorch memory, this process has $(gib $((cap - 20))) GiB memory in use. Of the allocated memory $(gib $((cap - 420))) GiB is allocated by PyTorch, and 400.00 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.
OOM
  exit 1
fi
shown=${FT_SHOWN:-$need} # FT_SHOWN: the peak the step line shows, MiB (a flat one: no curve to follow)
echo "step=1 loss=2.3100 peak_alloc=$(gib $((shown - 100)))GB peak_reserved=$(gib "$shown")GB"
exit 0
EOF
chmod +x "$W/trainer"

# The fake card, when the NVML test double is built: as large as the
# trainer's card, so NVML and the OOM messages agree.
fake_card() { # fake_card MIB
  [ -n "${OOMLAB_FAKE_NVML_DIR:-}" ] && echo "0 $(($1 * 1048576)) 0 0 Fake H100 80GB" > "$W/nvml/gpus"
}
if [ -f "$OOMLAB_BUILD/fakes/libnvidia-ml.so.1" ]; then
  export OOMLAB_NVML_LIBRARY="$OOMLAB_BUILD/fakes/libnvidia-ml.so.1" OOMLAB_FAKE_NVML_DIR="$W/nvml"
  mkdir -p "$W/nvml"
fi

n=0
probe() { # probe [VAR=VALUE...] -- probe args; leaves $D (dir), $J (json), $rc
  n=$((n + 1)); D="$W/p$n"; mkdir -p "$D"; J="$D/out.json"
  local envs=() cap=81920
  while [ "$1" != "--" ]; do envs+=("$1"); case $1 in FT_CAP=*) cap=${1#FT_CAP=};; esac; shift; done; shift
  fake_card "$cap"
  env "${envs[@]}" "$OOMLAB" probe --dir "$D" --json "$@" > "$J" 2> "$D/err"; rc=$?
}
T="$W/trainer"

# 1. Exact boundaries, bisection within --max 4096 and doubling without.
for B in 1 64 65 1000; do
  probe FT_CAP=$((4096 + 50 * B + 25)) -- --max 4096 --steps 2 -- "$T" --bs={batch} --steps={steps}
  why="exit $rc, largest_fit $(jget "$J" largest_fit), trials $(jget "$J" trial_count) $(head -3 "$D/err")"
  check "probe-boundary-$B-max4096" test "$rc" = 0 -a "$(jget "$J" largest_fit)" = "$B" \
    -a "$(jget "$J" trial_count)" -le 14 -a "$(jget "$J" confirmed)" = true
  probe FT_CAP=$((4096 + 50 * B + 25)) -- -- "$T" --bs={batch}
  why="exit $rc, largest_fit $(jget "$J" largest_fit)"
  check "probe-boundary-$B-doubling" test "$rc" = 0 -a "$(jget "$J" largest_fit)" = "$B"
done

# 2. The boundary lies above --max: max is the answer, and says so.
probe FT_CAP=$((4096 + 50 * 5000)) -- --max 4096 -- "$T" --bs={batch}
why="exit $rc, $(jget "$J" largest_fit) $(jget "$J" above_max)"
check probe-above-max test "$rc" = 0 -a "$(jget "$J" largest_fit)" = 4096 -a "$(jget "$J" above_max)" = true

# 3. Nothing fits: exit 1, no largest fit.
probe FT_CAP=4000 -- --max 64 -- "$T" --bs={batch}
why="exit $rc, $(jget "$J" largest_fit) $(jget "$J" trial_count)"
check probe-nothing-fits test "$rc" = 1 -a "$(jget "$J" largest_fit)" = null -a "$(jget "$J" trial_count)" = 1
# 3b. A reader of stdout that went away (`oomlab probe ... | head -1` in a
#     CI step) does not take the verdict: still 1, not SIGPIPE's 141.
n=$((n + 1)); D="$W/p$n"; mkdir -p "$D"; fake_card 4000
FT_CAP=4000 "$OOMLAB" probe --dir "$D" --max 64 -- "$T" --bs={batch} 2> "$D/err" | true; rc=${PIPESTATUS[0]}
why="exit $rc"
check probe-reader-gone-keeps-exit1 test "$rc" = 1

# 4. A data-dependent OOM: 300 passes, then OOMs on its confirm run.
probe FT_CAP=$((4096 + 50 * 300 + 25)) FT_MODE=flaky FT_AT=300 FT_STATE="$W/flaky.state" -- --max 4096 -- "$T" --bs={batch}
why="exit $rc, flaky $(jget "$J" flaky), largest $(jget "$J" largest_fit)"
lf=$(jget "$J" largest_fit)
check probe-data-dependent-oom test "$rc" = 0 -a "$(jget "$J" flaky)" = 300 -a "${lf:-999}" -lt 300

# 5. A crash is not an OOM: the probe stops with its diagnosis (exit 3).
probe FT_MODE=crash FT_AT=16 -- -- "$T" --bs={batch}
why="exit $rc, smallest_oom $(jget "$J" smallest_oom), diagnosis $(jget "$J" diagnosis)"
check probe-crash-stops test "$rc" = 3 -a "$(jget "$J" smallest_oom)" = null -a "$(jget "$J" stop)" = failed
probe FT_MODE=killed FT_AT=4 -- -- "$T" --bs={batch}
why="exit $rc, stop $(jget "$J" stop)"
check probe-killed-stops test "$rc" = 3 -a "$(jget "$J" smallest_oom)" = null

# 5b. Stopped before anything passed: the text says stopped (as JSON and
#     exit 3 do), never "nothing fits" — a crash says nothing about memory.
n=$((n + 1)); D="$W/p$n"; mkdir -p "$D"; fake_card 81920
FT_MODE=crash FT_AT=1 NO_COLOR=1 "$OOMLAB" probe --dir "$D" -- "$T" --bs={batch} > "$D/out" 2> "$D/err"; rc=$?
why="exit $rc; $(cat "$D/out")"
check probe-stopped-text test "$rc" = 3 -a -z "$(grep -i 'nothing fits' "$D/out")" \
  -a -n "$(grep -E '^stopped at batch=1 before any trial passed: what fits is not known yet$' "$D/out")" \
  -a -n "$(grep -E '^stopped at batch=1: killed by signal 11' "$D/out")"

# 6. A trial that hangs past --timeout stops the probe.
start=$(date +%s)
probe FT_MODE=hang FT_AT=8 -- --timeout 1s -- "$T" --bs={batch}
took=$(( $(date +%s) - start ))
why="exit $rc in ${took}s, diagnosis $(jget "$J" diagnosis)"
check probe-timeout test "$rc" = 3 -a "$took" -lt 30 -a -n "$(jget "$J" diagnosis | grep 'timed out')"

# 7. Ctrl-C: exit 130, what was learned is printed, the trial says interrupted.
n=$((n + 1)); D="$W/p$n"; mkdir -p "$D"; fake_card 81920
FT_MODE=hang FT_AT=8 "$OOMLAB" probe --dir "$D" -- "$T" --bs={batch} > "$D/out" 2> "$D/err" &
pid=$!; hung=
hung_log() { hung=$(grep -l 'waiting for a peer' "$D"/logs/*.log 2>/dev/null | head -1); [ -n "$hung" ]; }
wait_for "a trial waiting for a peer" hung_log
kill -INT $pid; wait $pid; rc=$?
hung=$(basename "${hung:-none}" .log); hv=${hung##*-b}
why="exit $rc; hung in $hung; $(tail -4 "$D/out")"
check probe-interrupt test "$rc" = 130 -a -n "$(grep -E '^largest fit: batch=[0-9]+ \(so far\)' "$D/out")" \
  -a -n "$(grep -E "^ *$hv +interrupted .*$hung\$" "$D/out")"
why="runs.csv: $(tail -2 "$D/runs.csv" 2>/dev/null)"
check probe-interrupt-ledger test -n "$(grep "^$hung," "$D/runs.csv" 2>/dev/null | grep -i interrupt)"
# ... and how to go on from what was learned, as --min/--max: the largest pass
# (run again) up to the smallest OOM less one, else the old --max (none here:
# the doubling search had no OOM yet, so no --max) (stranger25)
lf=$(sed -nE 's/^largest fit: batch=([0-9]+).*/\1/p' "$D/out")
why="largest fit ${lf:-none}; $(tail -2 "$D/out")"
check probe-interrupt-resume test -n "$lf" -a \
  "$(tail -1 "$D/out")" = "to go on from here: the same probe with --min $lf (batch=$lf passed)"
# With --max, after an OOM: --max becomes the smallest OOM less one (a flat
# peak in the step lines: no curve to follow; hangfit: only a trial that
# would fit hangs, so an OOM above it is met first).
n=$((n + 1)); D="$W/p$n"; mkdir -p "$D"; fake_card 81920
FT_MODE=hangfit FT_AT=1500 FT_SHOWN=2048 "$OOMLAB" probe --dir "$D" --max 4096 -- "$T" --bs={batch} > "$D/out" 2> "$D/err" &
pid=$!
wait_for "a trial waiting for a peer" eval 'grep -q "waiting for a peer" "$D"/logs/*.log 2>/dev/null'
kill -INT $pid; wait $pid; rc=$?
lf=$(sed -nE 's/^largest fit: batch=([0-9]+).*/\1/p' "$D/out")
so=$(awk '$2 == "oom" { print $1 }' "$D/out" | sort -n | head -1)
why="exit $rc; largest fit ${lf:-none}, smallest oom ${so:-none}; $(tail -2 "$D/out")"
check probe-interrupt-resume-max test "$rc" = 130 -a -n "$lf" -a -n "$so" -a \
  "$(tail -1 "$D/out")" = "to go on from here: the same probe with --min $lf --max $((${so:-0} - 1)) (batch=$lf passed, batch=$so OOMs)"
# 7b. SIGTERM (a cancelled job, scancel): 128+15, as run and guard exit,
# not Ctrl-C's 130.
n=$((n + 1)); D="$W/p$n"; mkdir -p "$D"; fake_card 81920
FT_MODE=hang FT_AT=8 "$OOMLAB" probe --dir "$D" -- "$T" --bs={batch} > "$D/out" 2> "$D/err" &
pid=$!
wait_for "a trial waiting for a peer" eval 'grep -q "waiting for a peer" "$D"/logs/*.log 2>/dev/null'
kill -TERM $pid; wait $pid; rc=$?
why="exit $rc; $(tail -2 "$D/out")"
check probe-sigterm-143 test "$rc" = 143 -a -n "$(grep -E '^interrupted at batch=' "$D/out")"

# 8. Every trial is a run: its log, and a ledger row tagged probe.
probe FT_CAP=$((4096 + 50 * 100 + 25)) -- --max 256 -- "$T" --bs={batch}
ids=$(python3 -c 'import json,sys; print(" ".join(t["run_id"] for t in json.load(open(sys.argv[1]))["trials"]))' "$J")
missing=""; for id in $ids; do
  [ -f "$D/logs/$id.log" ] && grep "^$id," "$D/runs.csv" | grep -q probe || missing="$missing $id"
done
why="missing:$missing (ids: $ids)"
check probe-trials-are-runs test -n "$ids" -a -z "$missing"
why="ids: $ids"
check probe-run-ids test -n "$(echo "$ids" | grep -E '^probe001-b1 ')" -a -n "$(echo "$ids" | grep -E 'probe001-b100-r2$')"
"$OOMLAB" probe --dir "$D" --max 4 -- "$T" --bs={batch} > "$D/out2" 2>&1
why="$(cat "$D/out2" | head -5)"
check probe-second-probe-number test -n "$(grep probe002-b1 "$D/out2")"

# 8b. Probes started together in one directory take different numbers
#     (claimed with O_EXCL, as run's ids), and each keeps its own.
n=$((n + 1)); D="$W/p$n"; mkdir -p "$D"; fake_card 81920
pids=""; for i in 1 2 3 4; do
  "$OOMLAB" probe --dir "$D" --max 2 --json -- "$T" --bs={batch} > "$D/o$i.json" 2> "$D/e$i" & pids="$pids $!"
done
rcs=""; for p in $pids; do wait "$p"; rcs="$rcs$?"; done
nums=$(for i in 1 2 3 4; do python3 -c 'import json,sys
ids=[t["run_id"] for t in json.load(open(sys.argv[1]))["trials"]]
print(",".join(sorted(set(i.split("-")[0] for i in ids))), " ".join(ids))' "$D/o$i.json" 2>/dev/null; done)
why="exits $rcs; $nums"
check probe-concurrent-numbers test "$rcs" = 0000 \
  -a "$(echo "$nums" | cut -d' ' -f1 | sort -u | grep -c '^probe[0-9]*$')" = 4 \
  -a -z "$(echo "$nums" | grep -E -- '-b1-r|-b2-r[^2]')"
why="$(ls "$D/logs")"
check probe-number-marker test -f "$D/logs/probe001.probe" -a -f "$D/logs/probe004.probe"

# 9. Headroom on the peak, gradient accumulation for an effective batch.
probe FT_CAP=$((4096 + 50 * 100 + 25)) -- --max 256 --effective-batch 64 -- "$T" --bs={batch}
rec=$(jget "$J" recommended); ga=$(jget "$J" grad_accum)
# 85% of the card: (0.85 * 9121 - 4096) / 50 = 73.1 -> 73 (peaks are printed to 10 MiB)
why="recommended $rec grad_accum $ga basis $(jget "$J" recommended_basis)"
check probe-recommended-headroom test "${rec:-0}" -ge 72 -a "${rec:-0}" -le 73 -a "$ga" = 1 \
  -a "$(jget "$J" recommended_basis)" = peak
probe FT_CAP=$((4096 + 50 * 100 + 25)) -- --max 256 --effective-batch 256 -- "$T" --bs={batch}
why="grad_accum $(jget "$J" grad_accum) recommended $(jget "$J" recommended)"
check probe-grad-accum test "$(jget "$J" grad_accum)" = 4 -a "$(jget "$J" schema)" = oomlab.probe.v1

# 9b. The split never goes over the effective batch: 151 is prime, so
#     50 x 3 = 150 (1 short, said so), not 51 x 3 = 153.
probe FT_CAP=$((4096 + 50 * 100 + 25)) -- --max 256 --effective-batch 151 -- "$T" --bs={batch}
why="batch $(jget "$J" accum_batch) x $(jget "$J" grad_accum) = $(jget "$J" effective_batch_achieved)"
check probe-accum-not-over test "$(jget "$J" effective_batch_achieved)" = 150 \
  -a "$(jget "$J" accum_batch)" = 50 -a "$(jget "$J" grad_accum)" = 3 -a "$(jget "$J" exact_batch)" = 1
n=$((n + 1)); D="$W/p$n"; mkdir -p "$D"; fake_card $((4096 + 50 * 100 + 25))
FT_CAP=$((4096 + 50 * 100 + 25)) NO_COLOR=1 "$OOMLAB" probe --dir "$D" --max 256 --effective-batch 151 \
  -- "$T" --bs={batch} > "$D/out" 2> "$D/err"
why="$(grep -A1 '^gradient' "$D/out")"
check probe-accum-text test -n "$(grep -F 'gradient accumulation: 3 steps of batch=50 = 150, 1 short of the effective batch 151' "$D/out")" \
  -a -n "$(grep -F 'exactly 151: batch=1 x 151 steps' "$D/out")"
# an effective batch at most the recommendation: one step, not "1 steps"
n=$((n + 1)); D="$W/p$n"; mkdir -p "$D"; fake_card 81920
NO_COLOR=1 "$OOMLAB" probe --dir "$D" --max 16 --effective-batch 7 -- "$T" --bs={batch} > "$D/out" 2> "$D/err"
why="$(grep '^gradient' "$D/out")"
check probe-accum-one-step test -n "$(grep -F 'gradient accumulation: 1 step of batch=7 for the effective batch of 7' "$D/out")"

# 9c. An OOM trial's peak is the bound its OOM message gives ("this process
#     has X in use"), marked as a bound, whether NVML is there (and saw
#     nothing) or not: the same figure every time, never a blank or a 0.
oom_peaks() { python3 -c 'import json,sys
t=[x for x in json.load(open(sys.argv[1]))["trials"] if x["outcome"]=="oom"]
print(" ".join("%s:%s" % (x["peak_bytes"], x["peak_lower_bound"]) for x in t))' "$1" 2>/dev/null; }
probe FT_CAP=$((4096 + 50 * 64 + 25)) -- --max 4096 -- "$T" --bs={batch}
with=$(oom_peaks "$J"); Dw=$D
probe FT_CAP=$((4096 + 50 * 64 + 25)) OOMLAB_NVML_LIBRARY=/nonexistent/libnvidia-ml.so.1 -- --max 4096 -- "$T" --bs={batch}
without=$(oom_peaks "$J")
# the largest of the message's figures (GiB to 2 decimals): in use = cap - 20
# MiB, or allocated (cap - 420 MiB) + 400 MiB reserved-but-unallocated
want=$(python3 -c 'c = 4096 + 50 * 64 + 25
print(round(max(round((c - 20) / 1024, 2), round((c - 420) / 1024, 2) + 400 / 1024) * 2**30))')
why="with NVML: $with; without: $without; want $want:True"
check probe-oom-peak-bound test -n "$with" -a -n "$without" \
  -a "$(echo $with $without | tr ' ' '\n' | sort -u)" = "$want:True"
n=$((n + 1)); D="$W/p$n"; mkdir -p "$D"; fake_card $((4096 + 50 * 64 + 25))
FT_CAP=$((4096 + 50 * 64 + 25)) NO_COLOR=1 "$OOMLAB" probe --dir "$D" --max 4096 -- "$T" --bs={batch} > "$D/out" 2> "$D/err"
why="$(cat "$D/out") $(cat "$D/err")"
check probe-oom-peak-text test -n "$(grep -E '^ +[0-9]+ +oom +>=[0-9.]+ [GM]iB +>=[0-9.]+%' "$D/out")" \
  -a -z "$(grep -E '^ +[0-9]+ +oom +- ' "$D/out")" -a -n "$(grep -E 'oom, peak >=[0-9.]+ [GM]iB' "$D/err")"

# 10. The text report: the table, the largest fit, the recommendation.
n=$((n + 1)); D="$W/p$n"; mkdir -p "$D"; fake_card $((4096 + 50 * 64 + 25))
FT_CAP=$((4096 + 50 * 64 + 25)) NO_COLOR=1 "$OOMLAB" probe --dir "$D" --max 4096 -- "$T" --bs={batch} > "$D/out" 2> "$D/err"
why="$(cat "$D/out")"
check probe-text-report test -n "$(grep -E '^batch +outcome +peak' "$D/out")" \
  -a -n "$(grep 'largest fit: batch=64 (passed twice); 65 OOMs' "$D/out")" -a -n "$(grep '^recommended: batch=' "$D/out")"

# 11. Through the run config: {config} is the trial's config, the --config
#     file in its own schema (training.per_device_train_batch_size stays where
#     it is) with the --set values and the probed value applied.
printf 'model: gpt2\ntraining:\n  per_device_train_batch_size: 4\n  lr: 0.0003\n' > "$W/base.yaml"
probe FT_CAP=$((4096 + 50 * 77 + 25)) -- --max 256 --config "$W/base.yaml" --set grad_accum_steps=2 -- \
  sh -c 'b=$(sed -n "s/^  per_device_train_batch_size: *//p" "$1"); exec "$0" --bs="$b"' "$T" {config}
cfg="$D/configs/$(jget "$J" trials.0.run_id).yaml"
why="exit $rc largest $(jget "$J" largest_fit); $(cat "$cfg" 2>/dev/null | tr '\n' ' ') $(head -3 "$D/err")"
check probe-config-route test "$rc" = 0 -a "$(jget "$J" largest_fit)" = 77 \
  -a -n "$(grep '^grad_accum_steps: 2' "$cfg" 2>/dev/null)" -a -n "$(grep 'gpt2' "$cfg" 2>/dev/null)"

# 12. The simulated trainer on the fake card: the value found runs, the next OOMs.
SIM="$OOMLAB_BUILD/fakes/simtrain"
if [ -x "$SIM" ] && [ -n "${OOMLAB_FAKE_NVML_DIR:-}" ]; then
  probe FT_CAP=16384 -- --max 4096 --steps 2 -- "$SIM" --batch {batch} --seq 512 --steps {steps}
  best=$(jget "$J" largest_fit)
  (cd "$D" && "$SIM" --batch "$best" --seq 512 --steps 2 > a.log 2>&1); a=$?
  (cd "$D" && "$SIM" --batch $((best + 1)) --seq 512 --steps 2 > b.log 2>&1); b=$?
  why="exit $rc best $best: $a / $b $(tail -2 "$D/b.log") $(head -3 "$D/err")"
  why="$why; trials $(jget "$J" trial_count)"
  check probe-simtrain test "$rc" = 0 -a "$a" = 0 -a "$b" != 0 -a -n "$(grep -i 'out of memory' "$D/b.log")" \
    -a "$(jget "$J" trial_count)" -le 14
  # the same through its run config
  probe FT_CAP=16384 -- --max 4096 --steps 2 -- "$SIM" --seq 512 --steps {steps} --config {config}
  why="exit $rc largest $(jget "$J" largest_fit), want $best; $(head -3 "$D/err")"
  check probe-simtrain-config test "$rc" = 0 -a "$(jget "$J" largest_fit)" = "$best"
  # the text's trial count names blind bisection's bound as a reference, not
  # as a bound on this search (it said "trials: 11 (at most 9 by ...)")
  n=$((n + 1)); D="$W/p$n"; mkdir -p "$D"; fake_card 24576
  NO_COLOR=1 "$OOMLAB" probe --dir "$D" --max 128 -- "$SIM" --batch {batch} > "$D/out" 2> "$D/err"; rc=$?
  why="exit $rc; $(grep '^trials' "$D/out")"
  check probe-trials-line test "$rc" = 0 -a -n "$(grep -E '^trials: [0-9]+ \(blind bisection: at most 9\)$' "$D/out")"
else
  echo "not ok probe-simtrain: simtrain or the fake NVML not built"
fi

# --gpu naming a GPU the card lacks: a usage error before any trial, not a
# probe whose trials sample nothing and whose answer is 15% off the count.
if [ -n "${OOMLAB_FAKE_NVML_DIR:-}" ]; then
  probe -- --gpu 7 --max 64 -- "$T" --bs={batch}
  why="exit $rc; $(head -2 "$D/err"); $(ls "$D" | tr '\n' ' ')"
  check probe-gpu-missing test "$rc" = 2 -a -n "$(grep -- '--gpu 7: NVML sees 1 GPU' "$D/err")" -a ! -e "$D/runs.csv"
fi

# A GPU another process holds memory on: a probe drives the card to OOM on
# purpose, so the other job could fail too (and the answer is for what it
# leaves free). Refused before any trial (it ran 8 trials and recommended
# "at most 20.40 GiB of 24.00 GiB usable" with 12 GiB held by another
# process); --allow-busy probes anyway and says so.
if [ -n "${OOMLAB_FAKE_NVML_DIR:-}" ]; then
  mkdir -p "$W/nvml/procs"
  sleep 60 & holder=$!
  echo "0 12884901888" > "$W/nvml/procs/$holder"
  probe -- --max 64 -- "$T" --bs={batch}
  why="exit $rc; $(head -2 "$D/err"); $(ls "$D" | tr '\n' ' ')"
  check probe-busy-gpu-refused test "$rc" = 3 -a ! -e "$D/runs.csv" -a ! -e "$D/logs" \
    -a -n "$(grep -F "GPU 0: 12.00 GiB held by 1 other process (PID $holder)" "$D/err")" \
    -a -n "$(grep -F -- '--allow-busy' "$D/err")"
  probe -- --allow-busy --max 64 -- "$T" --bs={batch}
  why="exit $rc; $(head -2 "$D/err")"
  check probe-busy-gpu-allowed test "$rc" = 0 -a "$(jget "$J" largest_fit)" = 64 \
    -a -n "$(grep -F 'note: GPU 0: 12.00 GiB held by 1 other process' "$D/err")"
  probe -- --gpu 0 --max 64 -- "$T" --bs={batch} # --gpu names the busy one: still refused
  check probe-busy-gpu-named test "$rc" = 3
  # a desktop's Xorg (graphics list only) holds memory on every workstation
  # card: it is no job, the probe runs
  echo "0 314572800 graphics" > "$W/nvml/procs/$holder"
  probe -- --max 64 -- "$T" --bs={batch}
  why="exit $rc; $(head -2 "$D/err")"
  check probe-busy-graphics-only-runs test "$rc" = 0 -a -z "$(grep -F 'other process' "$D/err")"
  kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null
  rm -f "$W/nvml/procs/$holder"
fi

# A --set precision oomlab cannot name is warned about, as run does.
probe FT_CAP=$((4096 + 50 * 8 + 25)) -- --max 8 --set dtype=bf61 -- "$T" --bs={batch}
why="exit $rc, $(head -3 "$D/err")"
check probe-set-unknown-precision-said test "$rc" = 0 -a -n "$(grep -- '--set dtype=bf61: not a precision oomlab knows' "$D/err")"

# An unknown --set key gets run's warning and did-you-mean (probe had none).
probe FT_CAP=$((4096 + 50 * 8 + 25)) -- --max 8 --set grad_acum=2 --set lerning_rate=1e-4 -- "$T" --bs={batch}
why="exit $rc, $(head -3 "$D/err")"
check probe-set-unknown-key-did-you-mean test "$rc" = 0 -a -n "$(grep -- "^oomlab probe: warning: --set grad_acum: not a key oomlab reads; did you mean 'grad_accum'?" "$D/err")"
check probe-set-unknown-key-said test -n "$(grep -- '^oomlab probe: warning: --set lerning_rate: not a key oomlab reads (added as written)' "$D/err")"

check probe-set-record-only-said test -n "$(grep -- '^oomlab probe: note: the command has no {config}: --set changes only the record' "$D/err")"
probe FT_CAP=$((4096 + 50 * 8 + 25)) -- --max 8 --set grad_accum=2 -- "$T" --bs={batch} --cfg={config}
check probe-set-with-config-no-note test "$rc" = 0 -a -z "$(grep -- 'changes only the record' "$D/err")"

# Under ASan/UBSan (tests/run-all), no report in any probe's stderr.
bad=$(grep -l -E 'Sanitizer|runtime error' "$W"/p*/err 2>/dev/null | head -3)
why="$bad"
check probe-no-sanitizer-report test -z "$bad"
exit 0
