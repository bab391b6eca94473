#!/usr/bin/env bash
# oomlab run end to end: files under one id, the log byte for byte, the
# ledger row, ids, exit codes, the child's environment and process group.
. "$(dirname "$0")/lib/run-common.bash"

# --- a clean run: files, log, ledger row ---
fresh basic
"$SIM" --steps 6 --sleep-ms 1 > direct.log 2>&1
"$OOMLAB" run --set device_batch_size=8 --set max_seq_len=1024 -- "$SIM" --steps 6 --sleep-ms 1 >echo.out 2>run.err; rc=$?
check run.exit0 test "$rc" -eq 0
check run.files test -f configs/run001.yaml -a -f logs/run001.log -a -f logs/run001_mem.csv -a -f runs.csv
check run.log-identical cmp -s direct.log logs/run001.log
check run.echoed cmp -s direct.log echo.out
check run.ledger-header test "$(head -1 runs.csv)" = "run_id,device_batch_size,max_seq_len,dtype,grad_accum,grad_ckpt,peak_alloc_GB,peak_reserved_GB,oom,oom_stage,loss_trend,effective_batch,peak_source,peak_pct_capacity,capacity_GB,started_at,duration_s,exit_status,command,notes,peak_lower_bound,mem_trend,mem_first_GB,mem_last_GB,mem_steps,mem_GB_per_100_steps,env,oomlab_pid,host,job_id,rank,local_rank,node_rank,world_size,restart,gpu,ranks,worst_rank,device_peak_GB,device_used_start_GB"
check run.ledger-row test "$(csv_field runs.csv run001 device_batch_size),$(csv_field runs.csv run001 max_seq_len),$(csv_field runs.csv run001 oom),$(csv_field runs.csv run001 oom_stage),$(csv_field runs.csv run001 exit_status)" = "8,1024,no,-,0"
check run.ledger-command grep -q "simtrain --steps 6 --sleep-ms 1" runs.csv
check run.config-from-set grep -q '^device_batch_size: 8' configs/run001.yaml
check run.no-nvml-said-once test "$(grep -c 'memory not sampled' run.err)" -eq 1
check run.no-nvml-mem-csv grep -q '^# GPU memory not sampled' logs/run001_mem.csv
check run.no-nvml-note test "$(csv_field runs.csv run001 notes)" = "memory not sampled"
  check run.peak-from-log test "$(csv_field runs.csv run001 peak_source)" = log
  check run.peak-alloc test "$(csv_field runs.csv run001 peak_alloc_GB)" = "$(grep -o 'peak_alloc=[0-9.]*' direct.log | sort -t= -k2 -n | tail -1 | cut -d= -f2)"
  check run.loss-falling test "$(csv_field runs.csv run001 loss_trend)" = falling
  "$OOMLAB" run -q --id empty -- true 2>/dev/null
  check run.empty-log-too-few test "$(csv_field runs.csv empty loss_trend),$(csv_field runs.csv empty peak_source)" = "too-few,"
  rm -f logs/empty* configs/empty*

# --- next free id; quiet; --dir ---
"$OOMLAB" run -q -- "$SIM" --steps 2 --sleep-ms 0 >quiet.out 2>/dev/null
check run.next-id test -f logs/run002.log
check run.quiet test ! -s quiet.out
mkdir -p logs && : > logs/run007.log
"$OOMLAB" run -q -- true 2>/dev/null
check run.next-id-after-files test -f logs/run008.log
"$OOMLAB" run -q --dir sub/dir -- true 2>/dev/null
check run.dir test -f sub/dir/runs.csv -a -f sub/dir/logs/run001.log

# --- ids ---
for id in 'a/b' '..' 'x..y' "$(printf 'a\tb')" "$(printf 'a\033b')" '-x' ''; do
  "$OOMLAB" run -q --id "$id" -- true 2>err.txt; rc=$?
  check "run.id-refused[$(printf %q "$id")]" test "$rc" -eq 2
done
check run.id-refused-nothing-written test ! -e 'logs/a' -a ! -e ../x..y.log
# a new id is ASCII letters, digits and _ . - + = , @ (first: a letter, a
# digit or '_'): what a shell, a file name, table or oomlab's unquoted hints
# would take apart is refused with the id to use, and nothing is written
rows=$(cat runs.csv 2>/dev/null | wc -l)
for id in 'a$b' 'a`b`' "a'b" 'a"b' 'a;b' 'a|b' 'a*b' 'a\b' 'x:y' '+x' 'ünï' "$(printf 'a\342\200\256b')"; do
  "$OOMLAB" run -q --id "$id" -- true 2>err.txt; rc=$?
  check "run.id-charset-refused[$(printf %q "$id")]" test "$rc" -eq 2 -a -n "$(grep "; use '[A-Za-z0-9_][A-Za-z0-9._+=,@-]*'$" err.txt)"
done
check run.id-charset-nothing-written test "$(cat runs.csv 2>/dev/null | wc -l)" -eq "$rows" -a ! -e 'logs/a$b.log' -a ! -e 'logs/x:y.log'
"$OOMLAB" run -q --id 'lr=3e-4,bs=8@a100+ckpt_v1.2' -- true 2>/dev/null; rc=$?
check run.id-charset-taken test "$rc" -eq 0 -a -f 'logs/lr=3e-4,bs=8@a100+ckpt_v1.2.log'
"$OOMLAB" run -q --id base -- true 2>/dev/null
before=$(cat logs/base.log | wc -c); records=$(grep -c '^base,' runs.csv)
"$OOMLAB" run -q --id base -- echo again 2>err.txt; rc=$?
check run.id-exists-refused test "$rc" -eq 2
check run.id-exists-message grep -q "taken" err.txt
check run.id-exists-untouched test "$(grep -c '^base,' runs.csv)" -eq "$records"
"$OOMLAB" run -q --id base --force -- echo again 2>/dev/null; rc=$?
check run.id-force test "$rc" -eq 0 -a "$(cat logs/base.log)" = again
check run.id-force-new-row test "$(grep -c '^base,' runs.csv)" -eq $((records * 2))
check run.id-force-one-run-shown test "$("$OOMLAB" table --json base | python3 -c 'import json,sys; r=json.load(sys.stdin)["runs"]; print(len(r), r[0]["command"])')" = "1 echo again"

# --- exit codes ---
fresh codes
"$OOMLAB" run -q -- sh -c 'exit 7' 2>/dev/null; check run.exit-code-passed test $? -eq 7
"$OOMLAB" run -q -- false 2>/dev/null; check run.exit-1 test $? -eq 1
check run.exit-in-ledger test "$(csv_field runs.csv run001 exit_status)" = 7
rows=$(csv_rows runs.csv)
"$OOMLAB" run -q -- no-such-command-xyz 2>err.txt; rc=$?
check run.not-found-127 test "$rc" -eq 127
check run.not-found-message grep -q 'no-such-command-xyz: command not found' err.txt
check run.not-found-no-row test "$(csv_rows runs.csv)" -eq "$rows"
check run.not-found-no-files test ! -e logs/run003.log
printf '#!/bin/sh\necho hi\n' > noexec.sh; chmod 644 noexec.sh
"$OOMLAB" run -q -- ./noexec.sh 2>err.txt; rc=$?
check run.not-executable-126 test "$rc" -eq 126
check run.not-executable-message grep -q 'cannot execute' err.txt
mkdir -p adir; "$OOMLAB" run -q -- ./adir 2>/dev/null; check run.directory-126 test $? -eq 126
"$OOMLAB" run -q -- "$SIM" --steps 5 --sleep-ms 0 --crash-at 2 2>/dev/null; rc=$?
check run.segfault-139 test "$rc" -eq 139
check run.segfault-note grep -q 'killed by SIGSEGV' runs.csv
check run.segfault-log grep -q 'Fatal Python error: Segmentation fault' logs/run003.log
"$OOMLAB" run -q -- "$SIM" --steps 5 --sleep-ms 0 --host-oom-at 2 2>/dev/null; rc=$?
check run.host-oom-137 test "$rc" -eq 137
check run.host-oom-note grep -q 'killed by SIGKILL' runs.csv
check run.host-oom-not-gpu test "$(csv_field runs.csv run004 oom)" = no
"$OOMLAB" run -q -- "$SIM" --steps 1 --exit-code 42 2>/dev/null; check run.exit-42 test $? -eq 42
"$OOMLAB" run -q 2>/dev/null; check run.no-command-2 test $? -eq 2
"$OOMLAB" run -q --interval 5ms -- true 2>/dev/null; check run.interval-too-small-2 test $? -eq 2

# --- the child's environment and process group ---
fresh env
env | grep -v -E '^(_|PYTHONUNBUFFERED|PYTHONFAULTHANDLER|SHLVL|PWD|OLDPWD)=' | sort > want.env
CUDA_VISIBLE_DEVICES=3 "$OOMLAB" run -q --gpu 1 -- env 2>/dev/null
check run.env-python grep -qx 'PYTHONUNBUFFERED=1' logs/run001.log
check run.env-faulthandler grep -qx 'PYTHONFAULTHANDLER=1' logs/run001.log
check run.env-gpu-untouched grep -qx 'CUDA_VISIBLE_DEVICES=3' logs/run001.log
grep -v -E '^(_|PYTHONUNBUFFERED|PYTHONFAULTHANDLER|SHLVL|PWD|OLDPWD|CUDA_VISIBLE_DEVICES)=' logs/run001.log | sort > got.env
grep -v '^CUDA_VISIBLE_DEVICES=' want.env > want2.env
check run.env-otherwise-unchanged cmp -s want2.env got.env
"$OOMLAB" run -q -- sh -c 'echo "$$ $(cut -d" " -f5 /proc/$$/stat)"' 2>/dev/null
read -r pid pgid < logs/run002.log
check run.own-process-group test "$pid" = "$pgid" -a "$pgid" != "$(cut -d' ' -f5 /proc/$$/stat)"
"$OOMLAB" run -q -- sh -c 'echo out1; echo err1 >&2; echo out2; echo err2 >&2' 2>/dev/null
check run.stdout-stderr-in-order test "$(tr '\n' ' ' < logs/run003.log)" = "out1 err1 out2 err2 "

# --- a config file: copied verbatim; with --set, merged and the original kept ---
fresh config
printf 'device_batch_size: 8   # per GPU\nmax_seq_len: 2048\ndtype: bfloat16\n' > base.yaml
  "$OOMLAB" run -q --config base.yaml -- true 2>/dev/null
  check run.config-verbatim cmp -s base.yaml configs/run001.yaml
  check run.config-in-ledger test "$(csv_field runs.csv run001 device_batch_size),$(csv_field runs.csv run001 dtype)" = "8,bfloat16"
  "$OOMLAB" run -q --config base.yaml --set per_device_train_batch_size=4 -- true 2>/dev/null
  check run.config-set-merged grep -q '^device_batch_size: 4' configs/run002.yaml
  check run.config-set-header grep -q '^# oomlab run: base.yaml with --set per_device_train_batch_size=4$' configs/run002.yaml
  check run.config-set-in-ledger test "$(csv_field runs.csv run002 device_batch_size)" = 4
  printf 'device_batch_size: 8\nmax_seq_len: [1, 2\n' > bad.yaml
  fresh badcfg; cp ../config/bad.yaml .
  "$OOMLAB" run -q --config bad.yaml -- true 2>err.txt; rc=$?
  check run.bad-config-2 test "$rc" -eq 2
  check run.bad-config-file-line-col grep -q -E 'bad\.yaml:[0-9]+:[0-9]+:' err.txt
  check run.bad-config-nothing-written test ! -e runs.csv -a ! -e logs -a ! -e configs
fresh badset
"$OOMLAB" run -q --set novalue -- true 2>err.txt; rc=$?
check run.bad-set-2 test "$rc" -eq 2
check run.bad-set-nothing-written test ! -e runs.csv -a ! -e logs -a ! -e configs
"$OOMLAB" run -q --config missing.yaml -- true 2>err.txt; rc=$?
check run.missing-config-2 test "$rc" -eq 2
check run.missing-config-nothing-written test ! -e runs.csv -a ! -e logs

# --- issue 10: --set changes the command through {config} / {KEY}, in the
#     user's own schema ---
fresh schema
printf '# mine\nmodel:\n  name: gpt2\ntraining:\n  per_device_train_batch_size: 8\n  learning_rate: 3.0e-4\n' > cfg.yaml
# a script that reads the nested key, as a real one does (KeyError if flattened)
cat > train.sh <<'SH'
#!/bin/sh
b=$(sed -n 's/^  per_device_train_batch_size: *//p' "$1")
[ -n "$b" ] || { echo "KeyError: 'training'"; exit 1; }
echo "step=1 loss=2.0 batch=$b"
SH
chmod +x train.sh
"$OOMLAB" run -q --config cfg.yaml --set training.per_device_train_batch_size=4 -- ./train.sh {config} 2>err.txt; rc=$?
check run.set-reaches-command test "$rc" -eq 0 -a -n "$(grep 'batch=4' logs/run001.log)"
check run.set-ledger-matches-command test "$(csv_field runs.csv run001 device_batch_size)" = 4
check run.set-schema-kept test "$(sed -n 2,6p configs/run001.yaml | tr '\n' '|')" = "model:|  name: gpt2|training:|  per_device_train_batch_size: 4|  learning_rate: 3.0e-4|"
check run.set-header-names-config grep -q '^# oomlab run: cfg.yaml with --set training.per_device_train_batch_size=4$' configs/run001.yaml
check run.set-no-record-only-note sh -c '! grep -q "changes only the record" err.txt'
"$OOMLAB" run -q --config cfg.yaml --set device_batch_size=2 -- ./train.sh {config} 2>/dev/null
check run.set-alias-lands-on-own-key test -n "$(grep 'batch=2' logs/run002.log)" -a "$(csv_field runs.csv run002 device_batch_size)" = 2
"$OOMLAB" run -q --set bs=3 -- sh -c 'echo "batch={bs}"' 2>err.txt
check run.set-key-substituted grep -q '^batch=3$' logs/run003.log
"$OOMLAB" run -q --config cfg.yaml --set learning_rat=1 -- true 2>err.txt
check run.set-unknown-did-you-mean grep -q "\-\-set learning_rat: not a key of the config; did you mean 'learning_rate'?" err.txt
check run.set-record-only-said-once test "$(grep -c 'changes only the record' err.txt)" -eq 1
# a precision oomlab cannot name (a typo) is said: the ledger's dtype stays empty
"$OOMLAB" run -q --id dt --set dtype=bf61 -- true 2>err.txt
check run.set-unknown-precision-said grep -q -- '--set dtype=bf61: not a precision oomlab knows' err.txt
"$OOMLAB" run -q --id dt2 --set dtype=BF16-mixed -- true 2>err.txt
check run.set-known-precision-quiet sh -c '! grep -q "not a precision" err.txt'
check run.set-known-precision-ledger test "$(csv_field runs.csv dt2 dtype)" = bfloat16
"$OOMLAB" run -q -- cat {config} 2>err.txt; rc=$?
check run.config-placeholder-without-config test "$rc" -eq 2
printf '{"train": {"batch_size": 8}, "lr": 0.1}' > c.json
"$OOMLAB" run -q --id js --config c.json --set batch_size=16 -- true 2>/dev/null
if /usr/bin/python3 -c 'import yaml' 2>/dev/null; then
  check run.set-yaml-parses-with-pyyaml /usr/bin/python3 -c 'import yaml,sys; d=yaml.safe_load(open(sys.argv[1])); assert d["training"]["per_device_train_batch_size"] == 4 and d["model"] == {"name": "gpt2"}, d' configs/run001.yaml
  "$OOMLAB" run -q --id hostile --config cfg.yaml --set "model.name=$(printf 'a\nbatch: 9\r# x')" -- true 2>/dev/null
  check run.set-hostile-value-pyyaml /usr/bin/python3 -c 'import yaml,sys; d=yaml.safe_load(open(sys.argv[1])); assert d["model"]["name"] == "a\nbatch: 9\r# x" and "batch" not in d, d' configs/hostile.yaml
else skip run.set-yaml-parses-with-pyyaml "no PyYAML for /usr/bin/python3"; fi
check run.set-json-stays-json python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d == {"train": {"batch_size": 16}, "lr": 0.1}, d' configs/js.yaml

# --- issue 11: config files that are not regular files are refused at once ---
fresh cfgkinds
mkfifo fifo
for cmd in "run -q --config fifo -- true" "diagnose --config fifo /dev/null" "probe --config fifo -- echo {batch}"; do
  timeout 10 "$OOMLAB" $cmd >/dev/null 2>err.txt; rc=$?
  check "run.config-fifo-refused (${cmd%% *})" test "$rc" -eq 2 -a -n "$(grep 'fifo: a FIFO, not a config file' err.txt)"
done
timeout 10 "$OOMLAB" run -q --config /dev/null -- true 2>err.txt; rc=$?
check run.config-devnull-refused test "$rc" -eq 2 -a -n "$(grep '/dev/null: a character device, not a config file' err.txt)"
timeout 10 "$OOMLAB" diagnose --config /dev/null /dev/null >/dev/null 2>err2.txt
check run.config-devnull-same-message test "$(sed 's/^oomlab [a-z]*: //' err.txt | head -1)" = "$(sed 's/^oomlab [a-z]*: //' err2.txt | head -1)"
check run.config-fifo-nothing-written test ! -e runs.csv -a ! -e logs

# --- issue 11: ids must be UTF-8; notes keep the status and stay UTF-8 ---
fresh idnotes
"$OOMLAB" run -q --id "$(printf 'r\xff1')" -- true 2>err.txt; rc=$?
check run.id-not-utf8-refused test "$rc" -eq 2 -a -n "$(grep 'not UTF-8' err.txt)" -a ! -e runs.csv
long=$(python3 -c 'print("\u00e9" * 700)')
"$OOMLAB" run -q --id k --note "$long" -- sh -c 'kill -9 $$' 2>/dev/null
check run.notes-status-first python3 -c '
import csv
r = [x for x in csv.DictReader(open("runs.csv", encoding="utf-8", newline=""))][-1]
assert r["notes"].startswith("killed by SIGKILL; "), r["notes"][:40]
parts = r["notes"].split("; ")
assert len(r["notes"].encode()) <= 1023, len(r["notes"].encode())
assert parts[1] == "\u00e9" * 384 and parts[-1] == "memory not sampled", parts[1:]'

# --- issue 10: a --dir that cannot be used is a usage error (2) ---
fresh baddir
: > afile
"$OOMLAB" run -q --dir afile -- true 2>err.txt; rc=$?
check run.dir-not-a-directory-2 test "$rc" -eq 2 -a -n "$(grep 'not a directory' err.txt)"

# --- --gpu naming a GPU the card does not have: said, not blamed on the interval ---
fresh gpu-missing
mkdir -p card/procs; echo "0 25769803776 536870912 35 NVIDIA GeForce RTX 4090" > card/gpus
OOMLAB_NVML_LIBRARY="$OOMLAB_BUILD/fakes/libnvidia-ml.so.1" OOMLAB_FAKE_NVML_DIR=$PWD/card \
  "$OOMLAB" run -q --id g7 --gpu 7 -- true 2>err.txt; rc=$?
check run.gpu-missing-exit0 test "$rc" -eq 0
check run.gpu-missing-said grep -q 'GPU memory not sampled: --gpu 7: NVML sees 1 GPU (index 0)' err.txt
check run.gpu-missing-no-interval-advice test -z "$(grep 'shorter --interval' err.txt)"
check run.gpu-missing-notes test "$(csv_field runs.csv g7 notes)" = "memory not sampled"
# a GPU NVML cannot read (lost) gives rows of empty cells: that is no
# sample, said when met, and no advice about the interval
OOMLAB_NVML_LIBRARY="$OOMLAB_BUILD/fakes/libnvidia-ml.so.1" OOMLAB_FAKE_NVML_DIR=$PWD/card OOMLAB_FAKE_NVML_FAIL=memory \
  "$OOMLAB" run -q --id lost -- "$SIM" --steps 3 --batch 96 --seq 1024 2>err.txt; rc=$?
check run.gpu-lost-said grep -q 'warning: GPU memory sampling: NVML: GPU 0: cannot read memory: GPU is lost' err.txt
check run.gpu-lost-not-sampled grep -q '; nvml not sampled;' err.txt
check run.gpu-lost-no-interval-advice test -z "$(grep 'shorter --interval' err.txt)"
check run.gpu-lost-notes grep -q 'memory not sampled' <<<"$(csv_field runs.csv lost notes)"

# --- NVML sees only the device (the run's pids hidden: a container, or no
# permission for the process list): the device-wide figure is not the run's
# peak (stranger: `true` on a shared card was recorded at 3.16 GiB) ---
fresh device-wide
mkdir -p card/procs; echo "0 25769803776 536870912 35 NVIDIA GeForce RTX 4090" > card/gpus
OTHER=4194000 # another tenant, in a PID namespace /proc cannot see
while kill -0 "$OTHER" 2>/dev/null || [ -d "/proc/$OTHER" ]; do OTHER=$((OTHER + 1)); done
echo "0 2856321024" > card/procs/$OTHER # 2.66 GiB: used 3.16 GiB with the driver's 0.5
for fail in "" procs; do
  OOMLAB_NVML_LIBRARY="$OOMLAB_BUILD/fakes/libnvidia-ml.so.1" OOMLAB_FAKE_NVML_DIR=$PWD/card OOMLAB_FAKE_NVML_FAIL=$fail \
    "$OOMLAB" run -q --id "dw$fail" -- sh -c 'sleep 0.3' 2>err.txt; rc=$?
  check "run.device-wide$fail-exit0" test "$rc" -eq 0
  check "run.device-wide$fail-peak-unknown" test "$(csv_field runs.csv "dw$fail" peak_reserved_GB),$(csv_field runs.csv "dw$fail" peak_source),$(csv_field runs.csv "dw$fail" peak_pct_capacity)" = ",,"
  check "run.device-wide$fail-device-columns" test "$(csv_field runs.csv "dw$fail" device_peak_GB),$(csv_field runs.csv "dw$fail" device_used_start_GB)" = "3.16,3.16"
  check "run.device-wide$fail-note" grep -q 'nvml device-wide only' <<<"$(csv_field runs.csv "dw$fail" notes)"
  check "run.device-wide$fail-summary" grep -q '; peak unknown; nvml device-wide only (NVML showed none of the run.s own processes): peak 3.16 GiB, 3.16 GiB in use at the start; memory' err.txt
  check "run.device-wide$fail-no-interval-advice" test -z "$(grep 'shorter --interval' err.txt)"
done
# the card held nothing else: the device's rise is shown as an estimate,
# labelled, and still not written as the run's peak
rm -f card/procs/$OTHER
OOMLAB_NVML_LIBRARY="$OOMLAB_BUILD/fakes/libnvidia-ml.so.1" OOMLAB_FAKE_NVML_DIR=$PWD/card \
  "$OOMLAB" run -q --id rise --interval 50ms -- sh -c 'sleep 1; printf "0 2147483648\n" > card/procs/.t; mv card/procs/.t "card/procs/$1"; sleep 1; rm -f "card/procs/$1"' sh "$OTHER" 2>err.txt
check run.device-wide-rise-peak-unknown test "$(csv_field runs.csv rise peak_reserved_GB),$(csv_field runs.csv rise peak_source)" = ","
check run.device-wide-rise-columns test "$(csv_field runs.csv rise device_peak_GB),$(csv_field runs.csv rise device_used_start_GB)" = "2.50,0.50"
check run.device-wide-rise-estimate grep -q 'peak 2.50 GiB, 512.00 MiB in use at the start (a rise of 2.00 GiB: the run.s own only if nothing else on the GPU changed)' err.txt

# --- a {NAME} that no --set names reaches the command as written: said ---
fresh placeholder-typo
"$OOMLAB" run -q --id t --set batch_size=4 -- echo --bs {batch_sise} '{"json": 1}' '${HOME}' {batch_size} 2>err.txt
check run.placeholder-typo-said grep -q 'the command.s {batch_sise} matches no --set key: it is passed as written' err.txt
check run.placeholder-typo-only-it test "$(grep -c 'matches no --set key' err.txt)" -eq 1
check run.placeholder-typo-passed test "$(cat logs/t.log)" = '--bs {batch_sise} {"json": 1} ${HOME} 4'
# ...and so with no --set at all (a probe command line reused for run), or
# with only a --config (whose values fill no {KEY})
"$OOMLAB" run -q --id t2 -- echo --bs {batch} 2>err.txt
check run.placeholder-no-set-said grep -q 'the command.s {batch} matches no --set key' err.txt
printf 'batch_size: 4\n' > c.yaml
"$OOMLAB" run -q --id t3 --config c.yaml -- echo --bs {batch_size} {config} 2>err.txt
check run.placeholder-config-only-said grep -q 'the command.s {batch_size} matches no --set key' err.txt
check run.placeholder-config-only-one test "$(grep -c 'matches no --set key' err.txt)" -eq 1

# --- the summary names the signal a child died of (stranger: "exit 139" alone hid SIGSEGV) ---
fresh signal-named
"$OOMLAB" run --id s -- "$SIM" --steps 5 --sleep-ms 0 --crash-at 2 2>err.txt >/dev/null
check run.summary-names-sigsegv grep -q 'oomlab run: s: exit 139 (killed by SIGSEGV); OOM no' err.txt
"$OOMLAB" run --id e -- sh -c 'exit 3' 2>err.txt >/dev/null
check run.summary-plain-exit grep -q 'oomlab run: e: exit 3; OOM no' err.txt

# A bare `oomlab diagnose` on a terminal reads the terminal: it says so
# instead of looking hung (script(1) gives it a terminal; /dev/null ends it).
fresh diagnose-tty
if command -v script >/dev/null; then
  timeout 10 script -qec "$OOMLAB diagnose" /dev/null </dev/null >tty.txt 2>&1
  check diagnose.tty-stdin-said grep -q 'reading a log from the terminal: paste it, then Ctrl-D' tty.txt
  "$OOMLAB" diagnose </dev/null >/dev/null 2>notty.txt
  check diagnose.pipe-stdin-quiet test ! -s notty.txt
else skip diagnose.tty-stdin-said "no script(1)"; fi

# `oomlab diagnose logs/*` reads the logs, not run's own side files
# (ID_mem.csv, ID.idx): they are skipped, and said so
fresh diagnose-glob
"$OOMLAB" run -q --id g1 -- "$SIM" --steps 2 2>/dev/null
"$OOMLAB" diagnose logs/* > out.txt 2>err.txt
check diagnose.glob-side-files-skipped grep -q "skipped 2 of oomlab run's own files" err.txt
check diagnose.glob-one-run sh -c '! grep -q "== run" out.txt'
"$OOMLAB" diagnose logs/g1_mem.csv > /dev/null 2>err.txt
check diagnose.side-file-alone-read sh -c '! grep -q skipped err.txt'
