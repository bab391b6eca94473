#!/usr/bin/env bash
# oomlab guard end to end on the simulated trainer and the fake card: each
# exit code, --steps both ways, JUnit XML validated against the schema CI
# reporters read (tests/ci/junit.xsd, xmllint), GitHub annotations escaped.
. "$(dirname "$0")/lib/run-common.bash"
unset GITHUB_WORKSPACE # file= paths: set where a check wants it
XSD=$OOMLAB_ROOT/tests/ci/junit.xsd
card() { mkdir -p nv/procs; echo "0 25769803776 536870912 35 NVIDIA A10G" > nv/gpus
  export OOMLAB_NVML_LIBRARY=$OOMLAB_BUILD/fakes/libnvidia-ml.so.1 OOMLAB_FAKE_NVML_DIR=$PWD/nv; }
valid() { xmllint --noout --schema "$XSD" "$1" 2>/dev/null; }
xq() { python3 -c 'import sys,xml.etree.ElementTree as E; r=E.parse(sys.argv[1]).getroot(); print(eval(sys.argv[2]))' "$@"; }
# simtrain at batch 8, 2 MiB per token: peak 18.90 GiB by its step lines, 19.19 GiB by NVML (context included)
SMOKE=("$SIM" --batch 8 --per-token-kb 2048 --steps 5 --sleep-ms 30)

fresh codes; card
"$OOMLAB" guard -q --interval 50ms --budget 30GiB --junit pass.xml -- "${SMOKE[@]}" >out 2>err; rc=$?
check guard.pass-exit0 test "$rc" -eq 0
check guard.pass-line grep -q '^oomlab guard: pass: peak 19.19 GiB is within the budget 30.00 GiB with 15% headroom (line 25.50 GiB); run run001' out
check guard.pass-nvml-wins grep -q 'peak from nvml' out
check guard.pass-junit-valid valid pass.xml
check guard.pass-junit-counts test "$(xq pass.xml 'r.get("tests"),r.get("failures"),r.get("errors"),len(list(r.iter("failure")))')" = "('1', '0', '0', 0)"
check guard.pass-ledger-tag test "$(csv_field runs.csv run001 notes)" = guard
"$OOMLAB" guard -q --interval 50ms --budget 20GiB --junit edge.xml -- "${SMOKE[@]}" >out 2>err; rc=$?
check guard.edge-exit11 test "$rc" -eq 11
check guard.edge-junit-failure test "$(xq edge.xml '[f.get("type") for f in r.iter("failure")]')" = "['edge']"
check guard.edge-junit-valid valid edge.xml
"$OOMLAB" guard -q --interval 50ms --budget 22GiB --headroom 5% -- "${SMOKE[@]}" >out 2>err; rc=$?
check guard.headroom-5-pass test "$rc" -eq 0
"$OOMLAB" guard -q --interval 50ms --budget 19GiB -- "${SMOKE[@]}" >out 2>err; rc=$?
check guard.over-exit10 test "$rc" -eq 10
check guard.over-line grep -q '^oomlab guard: over-budget: peak 19.19 GiB is over the budget 19.00 GiB' out
# decimal GB: 20.5 GB = 19.09 GiB < the 19.19 GiB peak
"$OOMLAB" guard -q --interval 50ms --budget 20.5GB --headroom 0 -- "${SMOKE[@]}" >out 2>err; rc=$?
check guard.decimal-gb-over test "$rc" -eq 10
"$OOMLAB" guard -q --budget 30GiB --junit oom.xml --github -- "$SIM" --batch 16 --per-token-kb 2048 --steps 5 >out 2>err; rc=$?
check guard.oom-exit12 test "$rc" -eq 12
check guard.oom-junit test "$(xq oom.xml '[f.get("type") for f in r.iter("failure")]')" = "['oom']"
check guard.oom-junit-valid valid oom.xml
ann=$(grep '^::error ' out)
line=$(printf '%s' "$ann" | sed -n 's/.*,line=\([0-9]*\),.*/\1/p')
lastlog=$(ls -t logs/*.log | head -1)
ann_file() { printf '%s' "$ann" | grep -q "^::error file=logs/$(basename "$lastlog"),line=[0-9]*,title=oomlab guard%3A oom::the command ran out of GPU memory (peak "; }
ann_line() { sed -n "${line:-0}p" "$lastlog" | grep -q 'CUDA out of memory'; }
check guard.oom-annotation-file ann_file
check guard.oom-annotation-line-is-the-error ann_line
# file= is relative to the checkout ($GITHUB_WORKSPACE), no "./": run from
# a subdirectory of it, the subdirectory leads the path
GITHUB_WORKSPACE=$(dirname "$PWD") "$OOMLAB" guard -q --budget 30GiB --github -- "$SIM" --batch 16 --per-token-kb 2048 --steps 5 >out 2>err
check guard.oom-annotation-file-in-workspace grep -q "^::error file=$(basename "$PWD")/logs/run[0-9]*\.log,line=[0-9]" out
"$OOMLAB" guard -q --budget 30GiB --junit fail.xml -- "$SIM" --steps 2 --exit-code 3 >out 2>err; rc=$?
check guard.failed-exit13 test "$rc" -eq 13
check guard.failed-junit-error test "$(xq fail.xml '[e.get("type") for e in r.iter("error")],r.get("errors")')" = "(['failed'], '1')"
"$OOMLAB" guard -q --budget 30GiB -- "$SIM" --crash-at 2 >out 2>err; rc=$?
check guard.crash-exit13 test "$rc" -eq 13
"$OOMLAB" guard -q --budget 30GiB --junit nf.xml -- ./no-such-trainer >out 2>err; rc=$?
check guard.not-found-exit13 test "$rc" -eq 13
check guard.not-found-said grep -q 'no-such-trainer: command not found' err
check guard.not-found-junit valid nf.xml
# a command that did not start leaves no row and its id free (as run): the
# verdict named a run id the ledger never got
check guard.not-found-no-run-id grep -q '; no run recorded, exit 127' out
"$OOMLAB" guard --json --budget 30GiB -- ./no-such-trainer >out 2>err
check guard.not-found-json-run-id-null test "$(jq -c '[.run_id,.log]' out)" = '[null,null]'
"$OOMLAB" guard -q --budget 30GiB --timeout 1 -- "$SIM" --hang-at 2 >out 2>err; rc=$?
check guard.timeout-exit13 test "$rc" -eq 13
check guard.timeout-said grep -q 'timed out' out

# no NVML and step lines without memory: nothing measured, never a pass
fresh unmeasured
export OOMLAB_NVML_LIBRARY=/nonexistent/libnvidia-ml.so.1; unset OOMLAB_FAKE_NVML_DIR
"$OOMLAB" guard -q --budget 30GiB --junit u.xml -- "$SIM" --format plain --steps 3 >out 2>err; rc=$?
check guard.unmeasured-exit14 test "$rc" -eq 14
check guard.unmeasured-junit test "$(xq u.xml '[e.get("type") for e in r.iter("error")]')" = "['unmeasured']"
# step lines with memory but no NVML: the log's peak is judged
"$OOMLAB" guard -q --budget 30GiB -- "$SIM" --steps 3 >out 2>err; rc=$?
check guard.log-peak-without-nvml test "$rc,$(grep -c 'peak from log' out)" = "0,1"

# --steps N: {steps} in the command, or a stop after N steps seen
fresh steps; card
"$OOMLAB" guard -q --budget 30GiB --steps 3 -- "$SIM" --steps {steps} --sleep-ms 1 >out 2>err; rc=$?
check guard.steps-placeholder test "$rc" -eq 0
check guard.steps-placeholder-reached grep -q 'steps=3 card' logs/run001.log
"$OOMLAB" guard -q --budget 30GiB --steps 3 --interval 50ms -- "$SIM" --steps 1000 --sleep-ms 100 >out 2>err; rc=$?
check guard.steps-stop-pass test "$rc" -eq 0
check guard.steps-stop-early test "$(grep -c '^step=' logs/run002.log)" -lt 10
check guard.steps-stop-noted grep -q 'stopped by oomlab (enough steps seen)' runs.csv
check guard.steps-stop-said grep -q 'stopped after the smoke' out
"$OOMLAB" guard -q --budget 30GiB --steps 3 -- "$SIM" --steps 1 >out 2>err; rc=$?
check guard.steps-fewer-is-fine test "$rc" -eq 0
"$OOMLAB" guard -q --budget 30GiB -- "$SIM" --steps '{steps}' >out 2>err; rc=$?
check guard.steps-placeholder-needs-steps test "$rc" -eq 2

# hostile text in the command and the directory: the XML still validates, annotations escaped
fresh hostile; card
d=$'lab,x:y%z'
"$OOMLAB" guard -q --dir "$d" --budget 30GiB --junit h.xml --github -- "$SIM" --batch 16 --per-token-kb 2048 --steps 2 $'<&"\x01\xff\r\n>' >out 2>err; rc=$?
check guard.hostile-exit test "$rc" -eq 12
check guard.hostile-junit-valid valid h.xml
check guard.hostile-junit-replaced grep -qF $'&lt;&amp;&quot;\xef\xbf\xbd\xef\xbf\xbd&#13;&#10;&gt;' h.xml
check guard.hostile-annotation-property grep -q '^::error file=lab%2Cx%3Ay%25z/logs/run001.log,line=' out
check guard.hostile-annotation-message grep -q 'log lab,x:y%25z/logs/run001.log' out
check guard.hostile-one-line test "$(grep -c '^::' out)" -eq 1
check guard.junit-no-temp test "$(ls | grep -c 'h.xml.tmp')" -eq 0

# a --junit that is a symlink is refused before anything runs
ln -s /etc/passwd evil.xml
"$OOMLAB" guard -q --budget 30GiB --junit evil.xml -- "$SIM" --steps 1 >out 2>err; rc=$?
check guard.junit-symlink-refused test "$rc" -eq 2 -a ! -e runs.csv
check guard.junit-symlink-untouched test "$(readlink evil.xml)" = /etc/passwd
# a device: refused, and the message must not tell the user to remove it
"$OOMLAB" guard -q --budget 30GiB --junit /dev/null -- "$SIM" --steps 1 >out 2>err; rc=$?
check guard.junit-device-refused test "$rc" -eq 2 -a -c /dev/null -a ! -e runs.csv
check guard.junit-device-no-remove-advice test -n "$(grep 'is a device' err)" -a -z "$(grep 'remove it' err)"

# --gpu naming a GPU the card lacks: a usage error before the smoke runs
# (it ran unsampled and ended "unmeasured", exit 14, the cause only in a
# "oomlab run:" line above)
rm -f runs.csv
"$OOMLAB" guard -q --gpu 7 --budget 30GiB -- "$SIM" --steps 1 >out 2>err; rc=$?
check guard.gpu-missing-usage test "$rc" -eq 2 -a ! -e runs.csv -a -n "$(grep -- '--gpu 7: NVML sees 1 GPU' err)"

# completion offers guard and its options
"$OOMLAB" completion bash > comp.bash
check guard.completion grep -q -- '--budget' comp.bash

# --junit into a directory that does not exist yet (CI's test-results/) is
# made; one that cannot be made is refused before the command runs. Before:
# the smoke run passed, then guard exited 3 "cannot write".
fresh junitdir; card
"$OOMLAB" guard -q --interval 50ms --budget 30GiB --junit test-results/sub/guard.xml -- "${SMOKE[@]}" >out 2>err; rc=$?
check guard.junit-dir-made test "$rc" -eq 0 -a -f test-results/sub/guard.xml
check guard.junit-dir-valid valid test-results/sub/guard.xml
"$OOMLAB" guard -q --budget 30GiB --junit /proc/nonexistent/guard.xml -- touch ran >out 2>err; rc=$?
check guard.junit-bad-dir-exit2 test "$rc" -eq 2
check guard.junit-bad-dir-not-run test ! -e ran

# oomlab guard itself interrupted (GitHub Actions cancels a job with SIGINT,
# then SIGTERM; scancel sends SIGTERM): not "the command failed", and no
# verdict on a budget it did not finish measuring; exit 128+N as run's
fresh cancelled; card
"$OOMLAB" guard -q --interval 50ms --budget 30GiB --github --junit c.xml -- "$SIM" --batch 8 --steps 100 --sleep-ms 100 >out 2>err & pid=$!
wait_line logs/run001.log 'step=2'
kill -TERM "$pid"; wait "$pid"; rc=$?
check guard.cancelled-exit143 test "$rc" -eq 143
check guard.cancelled-line grep -q '^oomlab guard: interrupted: oomlab was interrupted (SIGTERM: a cancelled CI job or scancel?) before the smoke ended: the budget 30.00 GiB was not judged; run run001' out
check guard.cancelled-not-failed test "$(grep -c 'the command failed' out)" -eq 0
check guard.cancelled-annotation grep -q '^::error title=oomlab guard%3A interrupted::oomlab was interrupted' out
check guard.cancelled-junit-valid valid c.xml
check guard.cancelled-junit-error test "$(xq c.xml '[e.get("type") for e in r.iter("error")]')" = "['interrupted']"
# guard --json: one JSON object on stdout (oomlab.guard.v1); the verdict
# line and --github's annotation on stderr, --junit still written. Before:
# "--json" was an unknown option (exit 2).
fresh json; card
"$OOMLAB" guard --json --interval 50ms --budget 30GiB --github --junit j.xml -- "${SMOKE[@]}" >out 2>err; rc=$?
jqv() { jq -r "$1" out 2>/dev/null; }
check guard.json-exit0 test "$rc" -eq 0
check guard.json-parses sh -c "test -s out && jq -e . out >/dev/null"
check guard.json-schema test "$(jqv .schema)" = oomlab.guard.v1
check guard.json-verdict test "$(jqv '[.verdict,.exit_code,.run_id,.peak_source,.budget_bytes,.headroom_line_bytes]|@tsv')" = "$(printf 'pass\t0\trun001\tnvml\t32212254720\t27380416512')"
check guard.json-peak test "$(jqv '.peak_bytes > 20000000000 and .peak_bytes < 21000000000 and .peak_lower_bound == false')" = true
check guard.json-log-and-junit test "$(jqv '[.log,.junit,.oom,.interrupted_by]|@json')" = '["./logs/run001.log","j.xml",null,null]'
check guard.json-line-on-stderr grep -q '^oomlab guard: pass: ' err
check guard.json-annotation-on-stderr grep -q '^::notice title=oomlab guard%3A pass::' err
check guard.json-no-child-output test "$(grep -c '^step=' out)" -eq 0
# the command's output on stderr, so a CI console shows what the smoke did
# (before: in the log only, as with -q); -q still keeps it to the log
check guard.json-child-output-on-stderr test "$(grep -c '^step=' err)" -gt 0
"$OOMLAB" guard -q --json --id quiet --interval 50ms --budget 30GiB -- "${SMOKE[@]}" >out 2>err
check guard.json-quiet-no-child-output test "$(grep -c '^step=' err out)" = "$(printf 'err:0\nout:0')"
check guard.json-quiet-parses sh -c "jq -e . out >/dev/null"
check guard.json-junit-valid valid j.xml
"$OOMLAB" guard --json --budget 30GiB -- "$SIM" --batch 16 --per-token-kb 2048 --steps 5 >out 2>err; rc=$?
check guard.json-oom test "$rc,$(jqv '[.verdict,.exit_code]|@tsv')" = "12,$(printf 'oom\t12')"
oomline=$(jqv .oom.line)
check guard.json-oom-line-is-the-error sh -c "sed -n '${oomline}p' logs/run002.log | grep -q 'CUDA out of memory'"
"$OOMLAB" guard --json --interval 50ms --budget 30GiB -- "$SIM" --batch 8 --steps 100 --sleep-ms 100 >out 2>err & pid=$!
wait_line logs/run003.log 'step=2'
kill -TERM "$pid"; wait "$pid"; rc=$?
check guard.json-interrupted test "$rc,$(jqv '[.verdict,.exit_code,.interrupted_by]|@tsv')" = "143,$(printf 'interrupted\t143\tSIGTERM')"
check guard.json-in-help sh -c "'$OOMLAB' guard --help | grep -q -- '--json'"

# every --help that takes a DUR says the same forms, days included (d is
# accepted). Before: run's and guard's said "500ms, 30s, 5m, 2h".
for v in run guard probe ps; do
  check "guard.durations-help-$v" sh -c "'$OOMLAB' $v --help | grep -qF 'DUR: 90, 500ms, 30s, 10m, 1.5h or 2d; a bare number is'"
done
"$OOMLAB" guard --budget 30GiB --timeout 1x -- true >out 2>err
check guard.durations-error-says-days grep -qF '1.5h or 2d' err

# guard's notices name guard: before, a smoke without NVML said "oomlab run:
# GPU memory not sampled ..." from inside `oomlab guard`
fresh who
OOMLAB_NVML_LIBRARY=/nonexistent/libnvidia-ml.so.1 "$OOMLAB" guard -q --budget 1GiB --id who -- true >out 2>err
check guard.notices-name-guard grep -q '^oomlab guard: GPU memory not sampled' err
check guard.notices-not-run test -z "$(grep '^oomlab run:' err)"

# --json to a full disk: exit 3 and why (before: exit 3 and no word of it)
fresh fulljson
OOMLAB_NVML_LIBRARY=/nonexistent/libnvidia-ml.so.1 "$OOMLAB" guard --json --budget 1GiB -- true >/dev/full 2>err; rc=$?
check guard.json-full-exit3 test "$rc" -eq 3
check guard.json-full-said grep -q '^oomlab guard: cannot write the JSON to stdout: No space left on device' err

# a reader of stdout that leaves (`oomlab guard ... | head -c1` in a CI step)
# does not take the verdict away: before, oomlab died of SIGPIPE (141)
fresh pipe; card
LOTS='i=0; while [ $i -lt 20000 ]; do echo "line $i"; i=$((i+1)); done'
"$OOMLAB" guard --budget 30GiB -- sh -c "$LOTS; exit 3" 2>err | head -c1 >/dev/null; rc=${PIPESTATUS[0]}
check guard.reader-gone-keeps-exit13 test "$rc" -eq 13
"$OOMLAB" guard --budget 30GiB -- sh -c 'exit 3' 2>err | head -c1 >/dev/null; rc=${PIPESTATUS[0]}
check guard.reader-gone-verdict-line-exit13 test "$rc" -eq 13
"$OOMLAB" guard --json --budget 30GiB -- sh -c 'exit 3' 2>err | head -c1 >/dev/null; rc=${PIPESTATUS[0]}
check guard.reader-gone-json-exit13 test "$rc" -eq 13
check guard.reader-gone-no-word test -z "$(grep -i 'cannot write\|broken pipe' err)"
"$OOMLAB" run -- sh -c "$LOTS; exit 5" 2>err | head -c1 >/dev/null; rc=${PIPESTATUS[0]}
check run.reader-gone-keeps-exit5 test "$rc" -eq 5
check run.reader-gone-row test "$(csv_field runs.csv run004 exit_status)" = 5
# the command itself still gets the default SIGPIPE (oomlab ignores it only for its own writes)
"$OOMLAB" guard -q --budget 30GiB -- sh -c 'grep SigIgn /proc/self/status' >out 2>err
check guard.child-sigpipe-default test "$(( 0x$(awk '/^SigIgn/{print $2}' logs/*005*.log) & 0x1000 ))" -eq 0
