#!/usr/bin/env bash
# oomlab run under faults: files it must not write through (symlinks,
# FIFOs), `ulimit -f`, a stdout nobody reads (a pipe, a terminal), kill -9
# and SIGQUIT of oomlab, a signal while the finished log is read back, a
# child too quick for the first sampling tick, and what the child leaves
# behind (processes of its group, output written after it exits).
. "$(dirname "$0")/lib/child.bash" # before run-common.bash: it changes directory
. "$(dirname "$0")/lib/run-common.bash"
ulimit -c 0 # SIGQUIT cases must not leave core files

ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

# --- files oomlab writes are never reached through a symlink ---
fresh links
echo "precious" > target.csv
ln -s target.csv runs.csv
"$OOMLAB" run -q --id l1 -- true 2>err.txt; rc=$?
check run.symlink-ledger-refused test "$rc" -ne 0
check run.symlink-ledger-target-intact test "$(cat target.csv)" = precious
check run.symlink-ledger-said grep -q 'runs.csv.*symbolic link' err.txt
rm runs.csv
"$OOMLAB" run -q --id l2 -- true 2>/dev/null
echo "precious" > target.log
rm logs/l2.log && ln -s ../target.log logs/l2.log
"$OOMLAB" run -q --force --id l2 -- echo overwritten 2>err.txt; rc=$?
check run.symlink-log-force-refused test "$rc" -ne 0
check run.symlink-log-target-intact test "$(cat target.log)" = precious
check run.symlink-log-said grep -q 'l2.log.*symbolic link' err.txt
rm logs/l2.log && mkfifo logs/l2.log
timeout 10 "$OOMLAB" run -q --force --id l2 -- true 2>err.txt; rc=$?
check run.fifo-log-refused test "$rc" -ne 0 -a "$rc" -ne 124
check run.fifo-log-said grep -q 'not a regular file' err.txt
# The readers of that run's log never wait for a writer the FIFO will not
# get (before: diagnose l2 and report hung for ever); a FIFO nobody writes
# is said as such (it read as an empty log: "no OOM found", exit 0).
timeout 10 "$OOMLAB" diagnose l2 >/dev/null 2>&1; rc=$?
check run.fifo-log-diagnose-returns test "$rc" -ne 124
timeout 10 "$OOMLAB" report -o r.html >/dev/null 2>&1; rc=$?
check run.fifo-log-report-returns test "$rc" -eq 0
timeout 10 "$OOMLAB" diagnose logs/l2.log >/dev/null 2>err.txt; rc=$?
check run.fifo-path-diagnose-returns test "$rc" -eq 2
check run.fifo-path-diagnose-said grep -q '^oomlab diagnose: logs/l2.log: a FIFO nobody writes (no writer came in 1 s): start the command that writes it first' err.txt
# lint and diagnose read a named file by one rule (sys/fsutil's
# fsutil_open_input): the same FIFO gets the same words from both.
timeout 10 "$OOMLAB" lint logs/l2.log >/dev/null 2>err2.txt; rc=$?
check run.fifo-path-lint-agrees test "$rc" -eq 2 -a "$(sed 's/^oomlab [a-z]*: //' err.txt)" = "$(sed 's/^oomlab [a-z]*: //' err2.txt)"
# A FIFO whose writer comes a moment after oomlab (`oomlab diagnose f &
# train > f`) is read: before, it read as empty ("no OOM found", exit 0).
(sleep 0.3; timeout 5 sh -c 'cat "$1" > logs/l2.log' sh "$OOMLAB_ROOT/examples/train-oom.log") &  # no reader: gives up
timeout 10 "$OOMLAB" diagnose logs/l2.log >out.txt 2>&1; rc=$?
wait
check run.fifo-late-writer-diagnosed test "$rc" -eq 1
(sleep 0.3; timeout 5 sh -c 'printf "import torch\\nx = torch.load(\\"a.pt\\")\\n" > logs/l2.log') &
timeout 10 "$OOMLAB" lint logs/l2.log >out.txt 2>&1; rc=$?
wait
check run.fifo-late-writer-linted test "$rc" -eq 1
# lint of a pipe with its writer (`lint <(git show HEAD:train.py)`,
# /dev/stdin) reads it: before, "not a regular file", exit 2.
timeout 10 "$OOMLAB" lint <(printf 'import torch\nx = torch.load("a.pt")\n') >out.txt 2>&1; rc=$?
check run.lint-process-substitution-read test "$rc" -eq 1
check run.lint-process-substitution-found grep -q 'load-without-map-location' out.txt
printf 'import torch\nx = torch.load("a.pt")\n' | timeout 10 "$OOMLAB" lint /dev/stdin >out.txt 2>&1; rc=$?
check run.lint-dev-stdin-read test "$rc" -eq 1
timeout 10 "$OOMLAB" lint /dev/null >/dev/null 2>err.txt; rc=$?
check run.lint-device-still-refused test "$rc" -eq 2
check run.lint-device-still-said grep -q 'not a regular file' err.txt
check run.pipe-with-writer-still-read test "$(printf 'RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n' | "$OOMLAB" diagnose --json /dev/stdin | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["events"]))')" = 1

# --- a ledger we may not write: refused before the command runs, not
# found out as it ends (root is checked as an unprivileged user) ---
fresh unwritable
"$OOMLAB" run -q --id first -- true 2>/dev/null
chmod 444 runs.csv
if [ "$(id -u)" != 0 ] || command -v setpriv >/dev/null; then
  as_user() { if [ "$(id -u)" = 0 ]; then setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; else "$@"; fi; }
  chmod 755 "$SCRATCH"; chmod 777 . logs configs
  as_user "$OOMLAB" run -q --id second -- sh -c 'echo ran > ran.txt' 2>err.txt; rc=$?
  check run.unwritable-ledger-refused test "$rc" -eq 3
  check run.unwritable-ledger-not-run test ! -e ran.txt
  check run.unwritable-ledger-said grep -q 'cannot write ./runs.csv: Permission denied' err.txt
  check run.unwritable-ledger-id-free test ! -e logs/second.log
  # no ledger yet, in a directory we may not create it in
  rm -f runs.csv; chmod 555 .
  as_user "$OOMLAB" run -q --id third -- true 2>../err3.txt; rc=$?
  chmod 755 .
  check run.unwritable-dir-refused test "$rc" -eq 3 -a ! -e logs/third.log
  check run.unwritable-dir-said grep -q 'cannot create ./runs.csv: Permission denied' ../err3.txt
else skip run.unwritable-ledger "root without setpriv(1)"; fi

# --- stdout or stderr closed (a daemon, `>&-`): the first file oomlab opened
# took the number, so the echo doubled the log and our messages landed in it ---
fresh closedfds
"$OOMLAB" run --id out -- sh -c 'echo hello' >&- 2>/dev/null
check run.closed-stdout-log-once test "$(cat logs/out.log)" = hello
"$OOMLAB" run --id err -- sh -c 'echo hello' 2>&- >/dev/null
check run.closed-stderr-log-clean test "$(cat logs/err.log)" = hello
check run.closed-stderr-ledger-clean test "$(csv_rows runs.csv)" -eq 4

# --- ulimit -f: SIGXFSZ ignored, the row written, partial writes counted ---
fresh fsize
( ulimit -f 1000; exec "$OOMLAB" run -q --id big -- "$SIM" --flood $((8 << 20)) ) 2>err.txt; rc=$?
check run.fsize-not-killed test "$rc" -ne $((128 + 25))
check run.fsize-error-exit test "$rc" -eq 3
check run.fsize-row test "$(csv_field runs.csv big exit_status)" = 0
check run.fsize-note grep -q 'log incomplete (1024000 of 8388608 bytes): File too large' runs.csv
check run.fsize-log-size test "$(stat -c %s logs/big.log)" -eq 1024000
check run.fsize-said grep -q 'File too large' err.txt

# where the output still goes once the log stops: stdout (was "only on this
# terminal", whatever stdout was), stderr for guard --json
( ulimit -f 1000; exec "$OOMLAB" run --id bigecho -- "$SIM" --flood $((2 << 20)) ) >/dev/null 2>err.txt
check run.ulimit-echo-where grep -q 'the log stops at [0-9]* bytes: File too large; the command goes on, its output only on stdout' err.txt
( ulimit -f 1000; exec "$OOMLAB" guard --json --budget 1GiB --id gbig -- "$SIM" --flood $((2 << 20)) ) >/dev/null 2>err.txt
check guard.ulimit-echo-where grep -q 'its output only on stderr' err.txt

# The ledger row past `ulimit -f`: the short write is rolled back and its
# real reason said (it said "No space left on device", sending the user to
# df); the rows already there are kept, byte for byte.
"$OOMLAB" run -q --id small -- true 2>/dev/null
# pad the ledger to 300 bytes short of a KiB boundary, the limit: the
# `running` row (~130 bytes) fits, the final one (~850 with the note)
# starts below the limit and crosses it: a short write, not a refused one
size=$(stat -c %s runs.csv)
printf 'pad,%0*d\n' $(( (2 * 1024 - 300 - size % 1024 - 5) % 1024 )) 0 >> runs.csv
cp runs.csv before.csv
( ulimit -f $(( ($(stat -c %s runs.csv) + 300) / 1024 )); exec "$OOMLAB" run -q --id long --note "$(printf '%0700d' 0)" -- true ) 2>err.txt; rc=$?
check run.fsize-ledger-exit3 test "$rc" -eq 3
check run.fsize-ledger-reason grep -q 'ledger row not written: cannot append to ./runs.csv: File too large' err.txt
check run.fsize-ledger-kept cmp -s before.csv <(head -c "$(stat -c %s before.csv)" runs.csv)
check run.fsize-ledger-parses sh -c '"$0" table --csv small >/dev/null' "$OOMLAB"
# its `running` row stays, its lock is free: not a crash, no final row,
# and the legend names the failed write as a cause, not only kill -9
"$OOMLAB" table >tbl.txt 2>&1
check run.fsize-ledger-state test "$("$OOMLAB" table --json | python3 -c 'import json,sys; print([r["state"] for r in json.load(sys.stdin)["runs"] if r["run_id"]=="long"][0])')" = "no final row"
check run.fsize-ledger-legend grep -q 'could not write the row (full disk' tbl.txt

# --- kill -9 of oomlab: the child does not live on under PID 1 ---
fresh kill9
"$OOMLAB" run -q --id k9 -- sh -c 'echo pid=$$; exec sleep 60' 2>/dev/null & pid=$!
wait_line logs/k9.log 'pid='
cpid=$(sed -n 's/^pid=//p' logs/k9.log)
kill -KILL "$pid"; wait "$pid" 2>/dev/null
check run.kill9-child-dies gone "$cpid"
reap "$cpid"

# --- SIGQUIT is caught like SIGTERM: forwarded, the row written ---
fresh quit
"$OOMLAB" run -q --id q -- "$SIM" --steps 300 --sleep-ms 20 2>/dev/null & pid=$!
wait_line logs/q.log 'step=2'
kill -QUIT "$pid"; wait "$pid"; rc=$?
check run.sigquit-131 test "$rc" -eq 131
check run.sigquit-row grep -q '^q,.*interrupted (SIGQUIT)' runs.csv

# --- a signal while the finished log is read back: the row is still written ---
fresh readback
"$OOMLAB" run -q --id rb -- sh -c "$SIM --flood $((512 << 20)); echo \$\$ > child-done" 2>/dev/null & pid=$!
# until oomlab has reaped the child (it then reads 512 MiB of log back): a
# fixed 0.4 s after child-done assumed it had
WAIT_S=30 wait_for "the child's pid in child-done" nonempty child-done
chpid=$(cat child-done)
wait_for "the child reaped" eval '[ ! -e "/proc/$chpid" ]'
kill -TERM "$pid"; wait "$pid"; rc=$?
check run.readback-signal-row test "$(csv_field runs.csv rb exit_status)" = 0
check run.readback-signal-exit test "$rc" -eq 0

# --- a child quicker than the first sampling tick is still sampled ---
fresh quick
mkdir nvml && echo "0 $((80 << 30)) $((1 << 30)) 0 Fake H100 80GB" > nvml/gpus
for i in 1 2 3 4 5; do
  OOMLAB_NVML_LIBRARY="$OOMLAB_BUILD/fakes/libnvidia-ml.so.1" OOMLAB_FAKE_NVML_DIR=$PWD/nvml \
    "$OOMLAB" run -q --id "q$i" --interval 10s -- true 2>/dev/null
done
check run.quick-child-sampled test "$(grep -c 'memory not sampled' runs.csv)" -eq 0
check run.quick-child-two-samples test "$(grep -c '^20' logs/q1_mem.csv)" -ge 2

# --- what the child leaves behind ---
fresh heirs
# output written after the child exits still reaches the log
"$OOMLAB" run -q --id late -- sh -c '(sleep 0.6; echo late-output) & echo parent-done' 2>err.txt
check run.heir-late-output-logged grep -q late-output logs/late.log
check run.heir-late-no-cut-note test "$(csv_field runs.csv late notes)" = "memory not sampled"
# a leftover that holds the pipe: read for --grace, then SIGTERM, and say so
t0=$(date +%s%N)
"$OOMLAB" run -q --id left --grace 500ms -- sh -c 'sleep 60 & echo pid=$!' 2>err.txt; rc=$?
el=$(ms_since "$t0"); lpid=$(sed -n 's/^pid=//p' logs/left.log)
check run.leftover-exit0 test "$rc" -eq 0
check run.leftover-prompt test "$el" -lt 4000
check run.leftover-killed gone "$lpid"
check run.leftover-said grep -q 'still running.*SIGTERM' err.txt
check run.leftover-note grep -q '^left,.*1 leftover process of the group: SIGTERM' runs.csv
reap "$lpid"
# a silent leftover (its output elsewhere) is signalled at once
t0=$(date +%s%N)
"$OOMLAB" run -q --id silent --grace 5s -- sh -c 'sleep 60 >/dev/null 2>&1 & echo pid=$!' 2>/dev/null
el=$(ms_since "$t0"); lpid=$(sed -n 's/^pid=//p' logs/silent.log)
check run.silent-leftover-at-once test "$el" -lt 3000
check run.silent-leftover-killed gone "$lpid"
reap "$lpid"
# one that ignores SIGTERM gets SIGKILL after the grace period
t0=$(date +%s%N)
"$OOMLAB" run -q --id stub --grace 300ms -- sh -c '(trap "" TERM; exec sleep 60) & echo pid=$!' 2>err.txt
el=$(ms_since "$t0"); lpid=$(sed -n 's/^pid=//p' logs/stub.log)
check run.stubborn-leftover-killed gone "$lpid"
check run.stubborn-leftover-prompt test "$el" -lt 4000
check run.stubborn-leftover-note grep -q '^stub,.*SIGKILL after the grace period' runs.csv
reap "$lpid"
# a process outside the group (setsid) holding the pipe: the output is cut, and noted
"$OOMLAB" run -q --id cut --grace 300ms -- sh -c 'setsid sh -c "echo \$\$ > cut.pid; exec sleep 2" & echo parent-done' 2>err.txt
check run.cut-noted grep -q '^cut,.*output cut' runs.csv
check run.cut-said grep -q 'output cut' err.txt
reap "$(cat cut.pid 2>/dev/null)"

# --- a stdout nobody reads: the log gets everything, the run ends ---
fresh unread
mkfifo pipe
exec 3<>pipe # a reader that never reads: writes fill the pipe, then block
t0=$(date +%s%N)
timeout -k 3 20 "$OOMLAB" run --id nr -- "$SIM" --flood $((8 << 20)) >pipe 2>err.txt; rc=$?
check run.unread-stdout-exit0 test "$rc" -eq 0
check run.unread-stdout-log-complete test "$(stat -c %s logs/nr.log)" -eq $((8 << 20))
check run.unread-stdout-said grep -q 'not echoed' err.txt
check run.unread-stdout-note grep -q '^nr,.*bytes not echoed' runs.csv
timeout -k 3 20 "$OOMLAB" run --id nrt --timeout 1s -- "$SIM" --steps 100000000 --sleep-ms 0 >pipe 2>/dev/null; rc=$?
check run.unread-stdout-timeout-works test "$rc" -eq 143
mkdir nvml && echo "0 $((80 << 30)) $((1 << 30)) 0 Fake H100 80GB" > nvml/gpus
OOMLAB_NVML_LIBRARY="$OOMLAB_BUILD/fakes/libnvidia-ml.so.1" OOMLAB_FAKE_NVML_DIR=$PWD/nvml \
  timeout -k 3 20 "$OOMLAB" run --id nrs --interval 100ms --timeout 3s -- "$SIM" --steps 100000000 --sleep-ms 0 >pipe 2>/dev/null
check run.unread-stdout-sampling-goes-on test "$(grep -c '^20' logs/nrs_mem.csv)" -ge 15
exec 3>&-
# a terminal nobody reads (a stopped pager, Ctrl-S)
python3 - "$OOMLAB" "$SIM" <<'EOF' >tty.txt 2>&1
import os, subprocess, sys
m, s = os.openpty()
p = subprocess.Popen([sys.argv[1], "run", "--id", "tty", "--", sys.argv[2], "--flood", str(4 << 20)],
                     stdin=subprocess.DEVNULL, stdout=s, stderr=subprocess.DEVNULL)
os.close(s)
try:
    print("rc", p.wait(timeout=20))
except subprocess.TimeoutExpired:
    p.kill(); p.wait(); print("hung")
os.close(m)
EOF
check run.unread-tty-not-hung grep -q '^rc 0' tty.txt
check run.unread-tty-log-complete test "$(stat -c %s logs/tty.log 2>/dev/null)" = $((4 << 20))

# --- --pty: the child gets a terminal; every byte still logged ---
fresh pty
"$OOMLAB" run -q --pty --id t -- sh -c 'test -t 0 && test -t 1 && test -t 2 && echo on-a-terminal; printf "a\nb\n"' 2>err.txt; rc=$?
check run.pty-exit0 test "$rc" -eq 0
check run.pty-is-terminal grep -q '^on-a-terminal$' logs/t.log
check run.pty-newlines-as-written test "$(tail -c 4 logs/t.log | od -An -c | tr -d ' ')" = 'a\nb\n'
want=$("$SIM" --flood $((16 << 20)) --flood-mix 2>&1 | md5sum | cut -d' ' -f1)
"$OOMLAB" run -q --pty --id tf -- "$SIM" --flood $((16 << 20)) --flood-mix 2>/dev/null
check run.pty-flood-byte-identical test "$(md5sum < logs/tf.log | cut -d' ' -f1)" = "$want"
"$OOMLAB" run -q --pty --id tc -- sh -c 'exit 7' 2>/dev/null; rc=$?
check run.pty-exit-code test "$rc" -eq 7
"$OOMLAB" run -q --pty --id ts --timeout 300ms -- sleep 30 2>/dev/null; rc=$?
check run.pty-timeout test "$rc" -eq 143

# --- a reader that stops reading (`| head -1`): no error, no message; every
# verb ends as coreutils and git do, by SIGPIPE (141), after its work is
# done. Before: exit 3 with nothing said (table, guard, watch), or "cannot
# write the output" (table --json). run keeps the command's own code, and
# guard its verdict's (a CI step's `guard ... | head -1` must still fail on
# an over-budget smoke; it ended by SIGPIPE, 141, before). ---
fresh pipe
printf 'run_id,oom\n' > runs.csv
for i in $(seq 20000); do echo "r$i,no"; done >> runs.csv
"$OOMLAB" table 2>err.txt | head -1 >/dev/null; rc=${PIPESTATUS[0]}
check run.pipe-table-sigpipe test "$rc" -eq 141
check run.pipe-table-silent test ! -s err.txt
"$OOMLAB" table --json 2>err.txt | head -c 10 >/dev/null; rc=${PIPESTATUS[0]}
check run.pipe-table-json-sigpipe test "$rc" -eq 141
check run.pipe-table-json-silent test ! -s err.txt
"$OOMLAB" table >/dev/full 2>err.txt; rc=$?
check run.full-table-exit3 test "$rc" -eq 3
check run.full-table-said grep -q 'cannot write the output: No space left on device' err.txt
mkdir -p nv/procs; echo "0 25769803776 536870912 35 NVIDIA A10G" > nv/gpus
OOMLAB_NVML_LIBRARY=$OOMLAB_BUILD/fakes/libnvidia-ml.so.1 OOMLAB_FAKE_NVML_DIR=$PWD/nv \
  "$OOMLAB" watch --interval 10ms 2>err.txt | head -2 >/dev/null; rc=${PIPESTATUS[0]}
check run.pipe-watch-sigpipe test "$rc" -eq 141
check run.pipe-watch-silent test ! -s err.txt
mkdir g && cd g
OOMLAB_NVML_LIBRARY=$OOMLAB_BUILD/fakes/libnvidia-ml.so.1 OOMLAB_FAKE_NVML_DIR=$PWD/../nv \
  "$OOMLAB" guard --interval 50ms --budget 30GiB -- "$SIM" --batch 8 --per-token-kb 2048 --steps 5 --sleep-ms 30 \
  2>err.txt | head -1 >/dev/null; rc=${PIPESTATUS[0]}
check run.pipe-guard-keeps-verdict test "$rc" -eq 0
check run.pipe-guard-row-written test "$(csv_field runs.csv run001 exit_status)" = 0
cd ..
"$OOMLAB" run -q --id p5 -- sh -c 'seq 100000; exit 5' 2>/dev/null | head -1 >/dev/null; rc=${PIPESTATUS[0]}
check run.pipe-run-keeps-child-code test "$rc" -eq 5

# --- a log that starts with FF FE but is 8-bit text: not UTF-16 ---
# run's summary and row, and diagnose of the run, read it alike (the one
# reader, sys/logscan) and find the OOM; a real UTF-16LE log still decodes.
fresh bom8
OOMLINE='RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB total capacity; 70.00 GiB already allocated; 1.00 GiB free; 75.00 GiB reserved in total by PyTorch)'
"$OOMLAB" run -q --id b8 -- bash -c "printf '\xff\xfestep 1\n%s\n' '$OOMLINE'" 2>err.txt
check run.bom-8bit-row-oom test "$(csv_field runs.csv b8 oom)" = yes
"$OOMLAB" diagnose b8 >diag.txt 2>&1
check run.bom-8bit-diagnose-agrees grep -q 'GPU out of memory' diag.txt
check run.bom-8bit-not-utf16 bash -c "! grep -q UTF-16 diag.txt"
printf 'step 1\n%s\n' "$OOMLINE" | iconv -f UTF-8 -t UTF-16 >u16.log   # glibc writes LE with a BOM here
"$OOMLAB" run -q --id u16 -- cat u16.log 2>/dev/null >/dev/null
check run.bom-utf16-row-oom test "$(csv_field runs.csv u16 oom)" = yes
"$OOMLAB" diagnose u16 >diag16.txt 2>&1
check run.bom-utf16-decoded grep -q 'UTF-16LE text (byte-order mark)' diag16.txt
