#!/usr/bin/env bash
# The ledger under load and abuse: 20 concurrent runs on one ledger, rows
# cut short by a crash, a ledger edited in a spreadsheet, formula cells.
. "$(dirname "$0")/lib/run-common.bash"

# --- 20 concurrent runs: 20 intact runs (a `running` row at the start and
#     the final row at the end of each: 40 records), 20 distinct ids ---
fresh concurrent
for i in $(seq 20); do
  "$OOMLAB" run -q --note "worker $i, \"quoted\"" -- "$SIM" --steps 3 --sleep-ms 1 2>/dev/null &
done
wait
check run.concurrent-40-records test "$(csv_rows runs.csv)" -eq 40
check run.concurrent-distinct-ids test "$(python3 -c 'import csv; print(len({r["run_id"] for r in csv.DictReader(open("runs.csv",newline=""))}))')" -eq 20
check run.concurrent-every-row-whole python3 -c '
import csv, sys
rows = list(csv.reader(open("runs.csv", newline="")))
assert len(rows) == 41 and all(len(r) == len(rows[0]) for r in rows), [len(r) for r in rows]
final = [r for r in rows[1:] if r[17] != "running"]
assert len(final) == 20, len(final)
notes = sorted(r[19].split("; ")[0] for r in final)
assert notes == sorted("worker %d, \"quoted\"" % i for i in range(1, 21)), notes'
check run.concurrent-one-header test "$(grep -c '^run_id,' runs.csv)" -eq 1
check run.concurrent-logs test "$(ls logs/*.log | wc -l)" -eq 20
check run.concurrent-table test "$("$OOMLAB" table --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["runs"]))')" -eq 20

# --- a row cut short by a crash does not corrupt the next ---
fresh cut
"$OOMLAB" run -q --id a -- true 2>/dev/null
printf 'b,4,1024,bf16' >> runs.csv          # no newline: a crash mid-row
"$OOMLAB" run -q --id c -- true 2>/dev/null
check run.cut-next-row-intact test "$(csv_field runs.csv c exit_status)" = 0
printf 'd,4,1024,bf16,1,false,,,no,-,flat,,,,,,,0,"python x.py --a' >> runs.csv  # inside a quote
"$OOMLAB" run -q --id e -- true 2>/dev/null
check run.cut-quote-next-row-intact test "$(csv_field runs.csv e exit_status)" = 0
check run.cut-table-reads test "$("$OOMLAB" table --json | python3 -c 'import json,sys; print(" ".join(r["run_id"] for r in json.load(sys.stdin)["runs"]))')" = "a b c d e"

# --- formula cells neutralised, read back as written ---
fresh formula
"$OOMLAB" run -q --id f --note '=HYPERLINK("http://x","y")' -- true 2>/dev/null
check run.formula-neutralised grep -q "\"'=HYPERLINK" runs.csv
check run.formula-read-back test "$("$OOMLAB" table --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["runs"][0]["notes"])')" = '=HYPERLINK("http://x","y"); memory not sampled'
"$OOMLAB" run -q --id g -- sh -c 'exit 0' --opt=1 2>/dev/null
check run.command-words-quoted test "$(csv_field runs.csv g command)" = "sh -c 'exit 0' --opt=1"

# --- a spreadsheet's copy: BOM, CRLF, ';', reordered/missing columns ---
fresh sheet
printf '\xef\xbb\xbfoom;run_id;notes;peak_reserved_GB;capacity_GB\r\nyes;run001;"first; OOM";20,0;24\r\nno;run002;fixed;21.5;24\r\n' > runs.csv
check run.sheet-table "$OOMLAB" table >/dev/null
"$OOMLAB" run -q -- true 2>/dev/null
check run.sheet-next-id test -f logs/run003.log
check run.sheet-row-appended test "$("$OOMLAB" table --json | python3 -c 'import json,sys; print(" ".join(r["run_id"] for r in json.load(sys.stdin)["runs"]))')" = "run001 run002 run003"

# --- issue 10: a `running` row at the start; a run whose oomlab is killed
#     still shows, as "no final row" ---
fresh killed
"$OOMLAB" run -q --id long -- sh -c 'echo $$ > child.pid; exec sleep 30' 2>/dev/null &
pid=$!
wait_line runs.csv '^long,'
check run.placeholder-while-running test "$("$OOMLAB" table --json | python3 -c 'import json,sys; r=json.load(sys.stdin)["runs"]; print(len(r), r[0]["state"])')" = "1 running"
# diagnose RUN_ID says a run is not done, in table's words (text and JSON)
check run.running-diagnose-said sh -c '"$0" diagnose long | grep -q "^run long: running: oomlab is still recording it"' "$OOMLAB"
check run.running-diagnose-json test "$("$OOMLAB" diagnose --json long | python3 -c 'import json,sys; print(json.load(sys.stdin)["logs"][0]["run_state"])')" = running
kill -9 "$pid"; wait "$pid" 2>/dev/null
[ -s child.pid ] && kill -9 "$(cat child.pid)" 2>/dev/null # the child, by its own pid
check run.killed-state test "$("$OOMLAB" table --json | python3 -c 'import json,sys; r=json.load(sys.stdin)["runs"]; print(len(r), r[0]["state"], r[0]["run_id"])')" = "1 no final row long"
check run.killed-text-cell sh -c '"$0" table | grep -q "^long .*no final row"' "$OOMLAB"
check run.killed-diagnose-said sh -c '"$0" diagnose long | grep -q "^run long: no final row: the run.s end was never recorded: oomlab was killed"' "$OOMLAB"
check run.killed-diagnose-json test "$("$OOMLAB" diagnose --json long | python3 -c 'import json,sys; l=json.load(sys.stdin)["logs"]; print(l[0]["run_id"], "/", l[0]["run_state"])')" = "long / no final row"
"$OOMLAB" run -q --id after -- true 2>/dev/null
check run.done-diagnose-quiet sh -c '"$0" diagnose after | grep -q "^run after: \(no final row\|running\|done\)" && exit 1; "$0" diagnose --json after | grep -q "\"run_state\": *\"done\""' "$OOMLAB"
check run.final-row-replaces-placeholder test "$("$OOMLAB" table --json | python3 -c 'import json,sys; print(" ".join(r["run_id"]+":"+r["state"] for r in json.load(sys.stdin)["runs"]))')" = "long:no final row after:done"

# --- issue 11: a spreadsheet's `sep=;` line is the delimiter, not a run ---
fresh sepline
printf 'sep=;\r\nrun_id;oom;peak_reserved_GB;capacity_GB\r\nrun001;yes;20,0;24\r\n' > runs.csv
"$OOMLAB" run -q -- true 2>/dev/null
check run.sep-line-read test "$("$OOMLAB" table --json | python3 -c 'import json,sys; print(" ".join(r["run_id"] for r in json.load(sys.stdin)["runs"]))')" = "run001 run002"
check run.sep-line-kept-delimiter test "$(tail -1 runs.csv | cut -d';' -f1)" = run002

# --- issue 11: control characters from the ledger are not printed raw ---
fresh ctrl
printf 'run_id,dtype,command,notes\nr1,\033]0;pwned\007bf16,"echo \033[2J",x\nr2,\033[31mfp16,y,z\n' > runs.csv
"$OOMLAB" table > out.txt
check run.table-no-escape sh -c '! grep -q "$(printf "\033")" out.txt && ! grep -q "$(printf "\007")" out.txt'
check run.table-escape-shown-as-question grep -q '?\]0;pwned?bf16' out.txt
"$OOMLAB" compare r1 r2 > cmp.txt
check run.compare-no-escape sh -c '! grep -q "$(printf "\033")" cmp.txt && grep -q "changed: dtype ?\]0;pwned?bf16 -> ?\[31mfp16" cmp.txt'

# --- issue 10: table fits an 80-column terminal, --wide shows all; ids ---
fresh width
printf 'run_id,device_batch_size,max_seq_len,dtype,grad_accum,grad_ckpt,peak_alloc_GB,peak_reserved_GB,oom,oom_stage,loss_trend,effective_batch,peak_source,peak_pct_capacity,capacity_GB,exit_status,mem_trend\n' > runs.csv
printf 'run001,96,1024,bfloat16,1,false,21.22,22.10,yes,backward,too-few,96,oom,92.1,24.00,1,none-shown\n' >> runs.csv
printf 'run002,48,1024,bfloat16,2,false,14.93,15.67,no,-,falling,96,log,65.3,24.00,0,growing\n' >> runs.csv
COLUMNS=80 "$OOMLAB" table > narrow.txt
check run.table-fits-80 test "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' narrow.txt)" -le 80
check run.table-says-hidden grep -q 'columns hidden to fit 80 columns; --wide shows all' narrow.txt
COLUMNS=80 "$OOMLAB" table --wide > wide.txt
check run.table-wide-all test -n "$(head -1 wide.txt | grep 'alloc_GB')" -a "$(head -1 wide.txt | wc -c)" -gt 81
check run.table-ids test "$("$OOMLAB" table run002 | grep -c '^run00[0-9] ')" -eq 1
"$OOMLAB" table nosuch 2>/dev/null; rc=$?
check run.table-unknown-id-2 test "$rc" -eq 2

# --- issue 10: colour on a terminal for table and compare; NO_COLOR honoured ---
fresh color
printf 'run_id,oom,exit_status\nr1,yes,1\nr2,no,0\n' > runs.csv
if command -v script >/dev/null; then
  TERM=xterm script -qec "$OOMLAB table" /dev/null > tty.txt 2>&1
  check run.table-colour-on-tty grep -q "$(printf '\033\\[31myes')" tty.txt
  NO_COLOR=1 TERM=xterm script -qec "$OOMLAB table" /dev/null > nocolor.txt 2>&1
  check run.table-no-colour-with-NO_COLOR sh -c '! grep -q "$(printf "\033\\[")" nocolor.txt'
  printf 'run_id,device_batch_size,dtype\nr1,8,bf16\nr2,4,fp16\n' > runs.csv
  TERM=xterm script -qec "$OOMLAB compare r1 r2" /dev/null > ctty.txt 2>&1
  check run.compare-colour-on-tty grep -q "$(printf '\033\\[33mwarning')" ctty.txt
  "$OOMLAB" table > pipe.txt
  check run.table-no-colour-in-pipe sh -c '! grep -q "$(printf "\033")" pipe.txt'
else skip run.table-colour-on-tty "no script(1)"; fi

# A ledger made with --dir is looked for where the user stands: the
# message names the --dir that has it (and diagnose the one with the log).
fresh nearby
"$OOMLAB" run -q --dir exp --id r1 -- true 2>/dev/null
"$OOMLAB" table 2>err.txt; rc=$?
check run.nearby-table-exit2 test "$rc" -eq 2
check run.nearby-table-names-dir grep -q 'no ledger at ./runs.csv; there is one with --dir exp$' err.txt
"$OOMLAB" diagnose r1 2>err.txt >/dev/null
check run.nearby-diagnose-names-dir grep -q "no run 'r1' in .; there is one with --dir exp$" err.txt
"$OOMLAB" diagnose r2 2>err.txt >/dev/null
check run.nearby-diagnose-other-id-plain grep -q "no run 'r2' in . (./logs/r2.log: No such file or directory)" err.txt
"$OOMLAB" doctor 2>&1 | grep ledger > doc.txt
check run.nearby-doctor-names-dir grep -q 'no ledger in . yet (oomlab run creates ./runs.csv); there is one with --dir exp$' doc.txt

# A runs.csv that is no ledger (a config.json saved under the wrong name,
# one 10 MB JSON line): refused as "not an oomlab ledger" by the readers,
# and `run` neither runs nor appends to it. Before, table printed junk rows
# (exit 0), report wrote reports/{"hidden_size": 4096.html, run appended.
fresh notledger
python3 -c 'import json; print(json.dumps({"hidden_size": 4096, "num_layers": 32, "layers": list(range(1000000))}))' > runs.csv
cp runs.csv orig.json
"$OOMLAB" table >out.txt 2>err.txt; rc=$?
check run.notledger-table-exit2 test "$rc" -eq 2
check run.notledger-table-said grep -q '^oomlab table: ./runs.csv:1:1: not an oomlab ledger (no run_id header, and 1000002 columns' err.txt
check run.notledger-table-no-rows test ! -s out.txt
"$OOMLAB" report 2>err.txt; rc=$?
check run.notledger-report-exit2 test "$rc" -eq 2
check run.notledger-report-wrote-nothing test ! -e reports
"$OOMLAB" run -q -- touch ran 2>err.txt; rc=$?
check run.notledger-run-exit3 test "$rc" -eq 3
check run.notledger-run-did-not-run test ! -e ran
check run.notledger-run-left-it cmp -s runs.csv orig.json
check run.notledger-run-says-what-next grep -q "move this file aside, or give --dir" err.txt
printf '{\n  "hidden_size": 4096\n}\n' > runs.csv
"$OOMLAB" table --json >out.txt 2>err.txt; rc=$?
check run.notledger-pretty-json-exit2 test "$rc" -eq 2
printf 'name,batch\nr1,8\n' > runs.csv
"$OOMLAB" compare r1 r1 2>err.txt; rc=$?
check run.notledger-other-csv-said grep -q "the guide's column device_batch_size would be 'batch'" err.txt

# A ledger past the 64 MiB oomlab reads (a CI guard's after years): the
# readers say what to do; run runs the command and appends its rows, and
# its id check reads every row in 1 MiB pieces (no cap: ids number on).
# Before: run refused the training (exit 3, the command never ran).
fresh toolarge
printf 'run_id,oom\n' > runs.csv
yes 'old,no' | head -c $((33 << 20)) >> runs.csv
printf 'old,no\nrun041,no\nkeep,no\n' >> runs.csv   # ids deep inside: run reads them all, in pieces
yes 'old,no' | head -c $((32 << 20)) >> runs.csv   # cut mid-row: the tail repair still applies
"$OOMLAB" run -q -- touch ran 2>err.txt; rc=$?
check run.toolarge-run-exit0 test "$rc" -eq 0
check run.toolarge-run-ran test -e ran
check run.toolarge-run-note grep -q '^oomlab run: note: ./runs.csv is 65 MiB, more than the 64 MiB oomlab reads of a ledger: start a new one (mv ./runs.csv ./runs.csv.old.*the run goes on and appends its row' err.txt
# Before: the id check skipped a ledger this size, and numbering restarted at run001.
check run.toolarge-numbers-on-from-ledger test "$(tail -n 1 runs.csv | cut -d, -f1)" = run042
"$OOMLAB" run -q --id keep -- true 2>err.txt; rc=$?
check run.toolarge-id-taken-exit2 test "$rc" -eq 2
check run.toolarge-id-taken-said grep -q "run id 'keep' is taken (./runs.csv)" err.txt
check run.toolarge-cut-row-repaired test "$(tail -n 3 runs.csv | head -n 1 | cut -d, -f1)" != run042
# A TAB streams the ids (in 1 MiB pieces, as run's id check): before, it
# loaded the ledger whole (210 MB at 62 MiB), and past the cap offered none.
# ("ol" is the row the cut left, repaired by the append: a row all the same.)
"$OOMLAB" completion --values runids > ids.txt 2>err.txt; rc=$?
check run.toolarge-completion-ids test "$rc" -eq 0 -a "$(tr '\n' ' ' < ids.txt)" = "old run041 keep ol run042 " -a ! -s err.txt
"$OOMLAB" table 2>err.txt >/dev/null; rc=$?
check run.toolarge-table-exit2 test "$rc" -eq 2
check run.toolarge-table-says-what-next grep -q 'start a new one' err.txt
mv runs.csv runs.csv.old
"$OOMLAB" run -q -- true 2>/dev/null
check run.toolarge-fresh-ledger-numbers-on test "$(csv_field runs.csv run043 exit_status)" = 0

# Reads that scanned per row were quadratic: `table` on a ledger without an
# OOM (each row looked back for the failing run before it: 37 s for 20,000
# jobs), `--json`/`--ranks` (each job's rank rows searched from the start),
# and `completion --values runids` (a lookup per id: minutes at a TAB on
# 250,000 runs). Each is timed on a ledger and on one four times as long:
# CPU seconds (bash's `time`, not the wall clock a loaded machine or ASan
# stretches) must grow less than 8x (linear: about 4x; quadratic: 16x).
# The 120 s timeout only stops a hang.
fresh quadratic
jobs_csv() {
  awk -v n="$1" 'BEGIN { print "run_id,job_id,rank,oom,peak_reserved_GB,capacity_GB,started_at,exit_status";
             for (j = 0; j < n; j++) for (r = 0; r < 2; r++)
               printf "job%05d,slurm:%d,%d,no,%d.00,80.00,2026-12-01T00:00:00Z,0\n", j, j, r, 10 + r }' > runs.csv
}
runs_csv() {
  awk -v n="$1" 'BEGIN { print "run_id,oom"; for (i = 0; i < n; i++) printf "run%06d,no\n", i }' > runs.csv
}
# cpu_ms OUT CMD...: run CMD (stdout to OUT), print its user+system CPU ms
cpu_ms() {
  local out=$1 t; shift
  t=$( { TIMEFORMAT='%3U %3S'; time timeout 120 "$@" > "$out" 2>&1; } 2>&1 )
  echo "$t" | awk '{ printf "%d\n", ($1 + $2) * 1000 }'
}
# linear NAME MAKER SMALL CMD...: CPU for 4*SMALL rows under 8x (+ 50 ms) that of SMALL
linear() {
  local name=$1 maker=$2 n=$3 a b; shift 3
  "$maker" "$n"; a=$(cpu_ms small.out "$@")
  "$maker" $((4 * n)); b=$(cpu_ms t.out "$@")
  check "$name" test "$b" -le $((8 * a + 50))
  [ "$b" -le $((8 * a + 50)) ] || echo "  cpu ms: $n rows $a, $((4 * n)) rows $b" >&2
}
linear run.quadratic-table-fast jobs_csv 3000 "$OOMLAB" table
check run.quadratic-table-rows test "$(grep -c '^job[0-9]' t.out)" -eq 12000
linear run.quadratic-table-json-fast jobs_csv 3000 "$OOMLAB" table --json
check run.quadratic-table-json-rows test "$(grep -c '"rank_rows"' t.out)" -ge 1
linear run.quadratic-completion-fast runs_csv 15000 "$OOMLAB" completion --values runids
check run.quadratic-completion-rows test "$(wc -l < t.out)" -eq 60000

# A crash's block of zeros in the ledger: nothing is appended after it
# (readers say to cut the file there); run says so before the command, as
# for any ledger it cannot read, exit 3 (the appender's own check, which
# scans in pieces, is unit test_ledger's test_tail_in_pieces).
fresh zeros
printf 'run_id,oom\nrun001,no\n' > runs.csv
head -c 4096 /dev/zero >> runs.csv
"$OOMLAB" run -q -- touch ran 2>err.txt; rc=$?
check run.zeros-exit3 test "$rc" -eq 3
check run.zeros-said grep -q 'runs.csv:3:1: binary data (a NUL byte)' err.txt
check run.zeros-nothing-appended test "$(stat -c %s runs.csv)" -eq $((21 + 4096))

# A directory or FIFO named *.csv in runs.d holds no runs: every reader and
# run leave it out with a note and read the rest; never a hang on the FIFO.
# Before: "./runs.d/x.csv: not a regular file", exit 2, for every reader,
# and run refused the training (exit 3).
fresh strayshard
mkdir runs.d
"$OOMLAB" run -q --id s0 -- true 2>/dev/null
"$OOMLAB" run -q --id s1 -- true 2>/dev/null
mkdir runs.d/old.csv
mkfifo runs.d/pipe.csv
for v in table report "compare s0 s1" doctor; do # (compare s1 s1 is a usage error since 80e6d50c)
  timeout 10 "$OOMLAB" $v >out.txt 2>err.txt; rc=$?
  set -- $v
  check run.strayshard-$1-reads test "$rc" -eq 0
  check run.strayshard-$1-note grep -q "^oomlab $1: note: ./runs.d/.*\.csv is a \(directory\|FIFO\), not a shard: left out (and 1 more such entry)" err.txt
done
check run.strayshard-table-lists-s1 grep -q '^s1 ' <(timeout 10 "$OOMLAB" table 2>/dev/null)
timeout 10 "$OOMLAB" run -q --id s2 -- touch ran 2>err.txt; rc=$?
check run.strayshard-run-runs test "$rc" -eq 0 -a -e ran
check run.strayshard-run-note grep -q "^oomlab run: note: ./runs.d/.*\.csv is a" err.txt
timeout 10 "$OOMLAB" doctor >out.txt 2>/dev/null
check run.strayshard-doctor-counts grep -q '^ok   ledger     ./runs.d: 3 runs' out.txt
timeout 10 "$OOMLAB" completion --values runids >out.txt 2>err.txt
check run.strayshard-completion-silent test ! -s err.txt
check run.strayshard-completion-ids grep -qx s2 out.txt
rmdir runs.d/old.csv; rm runs.d/pipe.csv; mkdir runs.d/only.csv; rm -f runs.d/[!o]*.csv
timeout 10 "$OOMLAB" table >/dev/null 2>err.txt; rc=$?
check run.strayshard-nothing-else-no-ledger test "$rc" -eq 2

# diagnose RUN_ID says how oomlab ended a run that did not end by itself
# (its log ends there, not where the job would have): --timeout, a signal
# passed on; nothing for a run that ended by itself
fresh runend
"$OOMLAB" run -q --id slow --timeout 1s -- sh -c 'echo start; sleep 10' >/dev/null 2>&1
check run.timeout-diagnose-said grep -q '^run slow: timeout: --timeout stopped it' <("$OOMLAB" diagnose slow)
check run.timeout-diagnose-json test "$("$OOMLAB" diagnose --json slow | python3 -c 'import json,sys; print(json.load(sys.stdin)["logs"][0]["run_end"])')" = timeout
"$OOMLAB" run -q --id intr -- sh -c 'echo started; exec sleep 10' >/dev/null 2>&1 & pid=$!
wait_line logs/intr.log started
kill -TERM "$pid"; wait "$pid"
check run.interrupted-diagnose-said grep -q '^run intr: interrupted (SIGTERM): oomlab got this signal' <("$OOMLAB" diagnose intr)
"$OOMLAB" run -q --id self -- sh -c 'echo hi' >/dev/null 2>&1
check run.self-ended-diagnose-quiet test "$("$OOMLAB" diagnose --json self | python3 -c 'import json,sys; print(json.load(sys.stdin)["logs"][0]["run_end"])')" = None

# A ledger an older oomlab started (its header stops at `notes`, as before
# 19f30582's later columns): rows are appended in its own layout, so the
# lower-bound mark, the memory trend and the environment had nowhere to go
# and were dropped without a word (stranger23: `table` then showed an OOM
# run's lower bound as its exact peak). run now names what it could not
# record and prints the sed line that adds the columns; after it, they are.
fresh oldheader
printf 'run_id,device_batch_size,max_seq_len,dtype,grad_accum,grad_ckpt,peak_alloc_GB,peak_reserved_GB,oom,oom_stage,loss_trend,effective_batch,peak_source,peak_pct_capacity,capacity_GB,started_at,duration_s,exit_status,command,notes\nold1,8,512,bf16,1,false,4.00,4.20,no,-,falling,8,log,17.5,24.00,2026-11-29T10:00:00Z,3.2,0,python train.py,\n' > runs.csv
"$OOMLAB" run -q --id o1 --alloc-conf expandable_segments:True -- "$SIM" --batch 96 --seq 1024 >/dev/null 2>err.txt
check run.oldheader-said grep -q "^oomlab run: o1: ./runs.csv has no column for peak_lower_bound, mem_trend, env, .*not recorded" err.txt
check run.oldheader-row-kept test "$(csv_field runs.csv o1 oom)" = yes
fix=$(grep -o "sed -i '1s/\$/,peak_lower_bound,[a-zA-Z0-9_,]*/' ./runs.csv" err.txt)
check run.oldheader-sed-given test -n "$fix"
eval "$fix"
"$OOMLAB" run -q --id o2 --alloc-conf expandable_segments:True -- "$SIM" --batch 96 --seq 1024 >/dev/null 2>err2.txt
check run.oldheader-after-quiet test "$(grep -c 'has no column' err2.txt)" -eq 0
check run.oldheader-after-bound test "$(csv_field runs.csv o2 peak_lower_bound)" = yes
check run.oldheader-after-env test "$(csv_field runs.csv o2 env)" = PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True
check run.oldheader-old-rows-read sh -c '"$0" table old1 o1 o2 | grep -c "^o[l12]" | grep -qx 3' "$OOMLAB"

# The same for a host's shard (runs.d/HOST.csv) an older oomlab started:
# its rows are written whole, past the header, so the values are in the file
# but were not read, without a word; the sed line makes them read, the rows
# written before it too (stranger23).
fresh oldshard
mkdir runs.d
printf 'run_id,device_batch_size,max_seq_len,dtype,grad_accum,grad_ckpt,peak_alloc_GB,peak_reserved_GB,oom,oom_stage,loss_trend,effective_batch,peak_source,peak_pct_capacity,capacity_GB,started_at,duration_s,exit_status,command,notes\n' > runs.d/h1.csv
OOMLAB_HOST=h1 "$OOMLAB" run -q --id s1 --alloc-conf expandable_segments:True -- "$SIM" --batch 96 --seq 1024 >/dev/null 2>err.txt
check run.oldshard-said grep -q "^oomlab run: s1: ./runs.d/h1.csv has no column for peak_lower_bound, mem_trend, env, .*written past the header, so not read" err.txt
fix=$(grep -o "sed -i '1s/\$/,peak_lower_bound,[a-zA-Z0-9_,]*/' ./runs.d/h1.csv" err.txt)
check run.oldshard-sed-given test -n "$fix"
eval "$fix"
check run.oldshard-row-read-after sh -c '"$0" table s1 --json | grep -q "\"env\":\"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True\""' "$OOMLAB"
OOMLAB_HOST=h1 "$OOMLAB" run -q --id s2 -- "$SIM" --batch 8 --steps 3 >/dev/null 2>err2.txt
check run.oldshard-after-quiet test "$(grep -c 'has no column' err2.txt)" -eq 0
