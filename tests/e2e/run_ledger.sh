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
