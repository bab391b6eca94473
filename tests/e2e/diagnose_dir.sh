#!/usr/bin/env bash
# diagnose DIR: a directory named where a log was meant says what in it can
# be read next, and the command it gives reads it (slurm's output
# directory, torchrun's --log-dir layout, oomlab's own DIR, an empty one).
. "$(dirname "$0")/lib/run-common.bash"
OOM='RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB total capacity; 75.00 GiB already allocated; 1.50 GiB free; 76.00 GiB reserved in total by PyTorch)'
said() { grep -qF -- "$1" err; }

# --- slurm's output directory: logs straight in it, two endings ---
fresh slurm
mkdir out; printf 'step 1\n%s\n' "$OOM" > out/slurm-41.out; echo 'step 1' > out/train.log; echo x > out/notes.md
"$OOMLAB" diagnose out >stdout 2>err; rc=$?
check slurm.exit2 test $rc -eq 2
check slurm.counts said 'out: a directory, not a log file: it holds 1 .log, 1 .out files'
check slurm.globs said 'read them with: oomlab diagnose out/*.log out/*.out'
# the command it gives works (as a shell would run it)
PATH="$(dirname "$OOMLAB"):$PATH" sh -c "$(sed -n 's/.*read them with: //p' err)" >stdout 2>err2; rc=$?
check slurm.hint-runs test $rc -eq 1
check slurm.hint-finds-oom grep -q 'out of memory' stdout
"$OOMLAB" diagnose out/ 2>err >/dev/null
check slurm.trailing-slash said 'read them with: oomlab diagnose out/*.log'
"$OOMLAB" diagnose --json out >j.json 2>err
check slurm.json-input-error python3 -c '
import json; d = json.load(open("j.json")); e = d["input_errors"]
assert len(e) == 1 and e[0]["path"] == "out" and "oomlab diagnose out/*.log" in e[0]["error"], e'

# --- torchrun --log-dir: DIR/RUN/attempt_0/RANK/{stdout,stderr}.log ---
fresh torchrun
mkdir -p 'tr logs/none_ab12/attempt_0/0' 'tr logs/none_ab12/attempt_0/1'
echo 'step 1' > 'tr logs/none_ab12/attempt_0/0/stdout.log'
printf '%s\n' "$OOM" > 'tr logs/none_ab12/attempt_0/1/stderr.log'
echo '{}' > 'tr logs/none_ab12/attempt_0/1/error.json'
"$OOMLAB" diagnose 'tr logs' >stdout 2>err; rc=$?
check torchrun.exit2 test $rc -eq 2
check torchrun.deep-counts said "its subdirectories hold 2 .log files"
check torchrun.find-quoted said "find 'tr logs' -name '*.log' -exec oomlab diagnose {} +"
cmd=$(sed -n 's/.*read them with: //p' err)
PATH="$(dirname "$OOMLAB"):$PATH" sh -c "$cmd" >stdout 2>err2; rc=$?
check torchrun.hint-runs test $rc -eq 1
check torchrun.hint-finds-oom grep -q 'out of memory' stdout

# --- oomlab's own DIR (a ledger): name a run, table lists them ---
fresh ledger
mkdir exp; (cd exp && "$OOMLAB" run -q --id a1 -- "$SIM" --steps 2 >/dev/null 2>&1)
"$OOMLAB" diagnose exp >stdout 2>err; rc=$?
check ledger.exit2 test $rc -eq 2
check ledger.names-runs said "exp: a directory, not a log file: it holds oomlab's ledger; name a run in it: oomlab diagnose --dir exp RUN_ID (oomlab table --dir exp lists them)"
"$OOMLAB" diagnose --dir exp a1 >stdout 2>err; rc=$?
check ledger.hint-runs test $rc -eq 0

# --- a bare name that is a directory, not a run id with a run ---
fresh bare
mkdir logs2; echo 'step 1' > logs2/a.txt
"$OOMLAB" diagnose logs2 >stdout 2>err; rc=$?
check bare.exit2 test $rc -eq 2
check bare.hint said 'logs2: a directory, not a log file: it holds 1 .txt file; read them with: oomlab diagnose logs2/*.txt'

# --- nothing to read in it ---
fresh empty
mkdir e; echo x > e/README
"$OOMLAB" diagnose e >stdout 2>err; rc=$?
check empty.exit2 test $rc -eq 2
check empty.said said 'e: a directory, not a log file, and it holds no .log, .txt, .out, .err or .gz file (nor do its subdirectories, 4 levels down)'

# --- one directory among logs: the logs are still diagnosed ---
fresh mixed
mkdir d; echo 'step 1' > d/x.log; printf '%s\n' "$OOM" > a.log
"$OOMLAB" diagnose a.log d >stdout 2>err; rc=$?
check mixed.exit2 test $rc -eq 2
check mixed.others-read grep -q 'out of memory' stdout
check mixed.hint said 'd: a directory, not a log file: it holds 1 .log file; read them with: oomlab diagnose d/*.log'
