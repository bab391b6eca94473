#!/usr/bin/env bash
# Output through the tee: a child writing 1 GB quickly (stdout and stderr
# interleaved) lands byte for byte in the log; a full disk (a small tmpfs)
# is reported, the child is not blocked, and no half row reaches the ledger.
. "$(dirname "$0")/lib/run-common.bash"

GB=$((1 << 30))
fresh flood
want=$("$SIM" --flood $GB --flood-mix 2>&1 | md5sum | cut -d' ' -f1)
t0=$(date +%s%N)
"$OOMLAB" run -q --id flood -- "$SIM" --flood $GB --flood-mix 2>err.txt; rc=$?
t1=$(date +%s%N)
check run.flood-exit0 test "$rc" -eq 0
check run.flood-size test "$(stat -c %s logs/flood.log)" -eq $GB
check run.flood-byte-identical test "$(md5sum < logs/flood.log | cut -d' ' -f1)" = "$want"
echo "# 1 GiB through oomlab run -q: $(( (t1 - t0) / 1000000 )) ms"
rm -f logs/flood.log
# echoed to our stdout too (not quiet): the copy on stdout is identical as well
got=$("$OOMLAB" run --id flood2 -- "$SIM" --flood $((64 << 20)) --flood-mix 2>/dev/null | md5sum | cut -d' ' -f1)
check run.flood-echo-identical test "$got" = "$("$SIM" --flood $((64 << 20)) --flood-mix 2>&1 | md5sum | cut -d' ' -f1)"
# a reader that goes away (| head) does not kill the child or lose the log
"$OOMLAB" run --id flood3 -- "$SIM" --flood $((16 << 20)) 2>/dev/null | head -c 100 >/dev/null
check run.flood-epipe-log-complete test "$(stat -c %s logs/flood3.log)" -eq $((16 << 20))
check run.flood-epipe-row test "$(csv_field runs.csv flood3 exit_status)" = 0
# a stdout that cannot be written (a full disk behind `> out.txt`; /dev/full
# here) is said at once and noted in the row, not dropped without a word;
# the log still has every byte and the command's code is kept
"$OOMLAB" run --id fullout -- sh -c 'echo hello; sleep 0.2; echo world' >/dev/full 2>err.txt; rc=$?
check run.echo-full-exit0 test "$rc" -eq 0
check run.echo-full-said grep -q "no longer shown on stdout: No space left on device; the log still gets all of it" err.txt
case $(csv_field runs.csv fullout notes) in
  *"output no longer shown on stdout: No space left on device"*) ok run.echo-full-noted ;;
  *) bad run.echo-full-noted "notes: $(csv_field runs.csv fullout notes)" ;;
esac
check run.echo-full-log test "$(cat logs/fullout.log)" = "$(printf 'hello\nworld')"
# a reader that leaves is not an error: nothing said
"$OOMLAB" run --id epipe2 -- sh -c 'echo hello' 2>err.txt | head -c 0
check run.echo-epipe-quiet sh -c "! grep -q 'no longer shown' err.txt"

# --- a full disk ---
fresh disk
mkdir mnt
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=2m tmpfs mnt 2>/dev/null; then
  trap 'umount "$SCRATCH/disk/mnt" 2>/dev/null; rm -rf "$SCRATCH"' EXIT
  "$OOMLAB" run -q --dir mnt --id full -- "$SIM" --flood $((8 << 20)) 2>err.txt; rc=$?
  check run.disk-full-exit3 test "$rc" -eq 3
  check run.disk-full-said grep -q 'No space left on device' err.txt
  check run.disk-full-log-partial test "$(stat -c %s mnt/logs/full.log)" -lt $((8 << 20))
  if [ -f mnt/runs.csv ]; then
    check run.disk-full-ledger-whole python3 -c 'import csv; rows=list(csv.reader(open("mnt/runs.csv",newline=""))); assert all(len(r)==len(rows[0]) for r in rows), rows'
  else ok run.disk-full-ledger-whole; fi
  # said while the command still runs, not when it ends: the log's failure
  # at once, and the 'running' row that a full disk refuses before it starts
  "$OOMLAB" run -q --dir mnt/new --id full3 -- sh -c 'head -c 3000000 /dev/zero; echo; sleep 3' 2>err3.txt & pid=$!
  # until both are said (a fixed 1.5 s assumed they were by then); the child
  # still sleeps, so "at once" is checked by its being alive after
  poll has_line err3.txt 'the log stops at [0-9]* bytes: No space left on device'
  poll has_line err3.txt "full3: the 'running' row was not written"
  check run.disk-full-said-at-once grep -q 'the log stops at [0-9]* bytes: No space left on device' err3.txt
  check run.disk-full-placeholder-said grep -q "full3: the 'running' row was not written" err3.txt
  check run.disk-full-still-running kill -0 "$pid"
  wait "$pid"
  # the child's own failure still wins over ours
  "$OOMLAB" run -q --dir mnt --id full2 -- sh -c 'exit 5' 2>/dev/null; rc=$?
  check run.disk-full-child-code test "$rc" -eq 5
  umount mnt
else
  skip run.disk-full "cannot mount a tmpfs here (needs root and mount permission in this container)"
fi

# -q on a run that fails by itself: the summary said "exit 1; OOM no" and
# why it failed was in the log alone (a typo'd script, a missing module,
# overnight under nohup or in CI). Its last line is said, cleaned of
# control characters; nothing is added for a clean exit, a GPU OOM (which
# has its first fix), a signal, or without -q, where the output was shown
# (stranger23).
fresh failtail
"$OOMLAB" run -q --id f1 -- sh -c 'echo "step 1"; echo "ModuleNotFoundError: No module named '"'"'flash_attn'"'"'" >&2; printf "\n  \n"; exit 1' 2>err.txt; rc=$?
check run.failtail-exit test "$rc" -eq 1
check run.failtail-said grep -qx "oomlab run: f1: exit 1, no GPU OOM; the log's last line: ModuleNotFoundError: No module named 'flash_attn'" err.txt
"$OOMLAB" run -q --id f2 -- sh -c 'printf "bad \033[31mred\n"; exit 2' 2>err.txt
check run.failtail-clean grep -qx "oomlab run: f2: exit 2, no GPU OOM; the log's last line: bad ?\[31mred" err.txt
"$OOMLAB" run -q --id f6 -- sh -c 'echo "train.py FAILED"; echo "exitcode  : 1 (pid: 7)"; echo "============"; exit 1' 2>err.txt
check run.failtail-skips-rule grep -qx "oomlab run: f6: exit 1, no GPU OOM; the log's last line: exitcode  : 1 (pid: 7)" err.txt
# binary output at the log's end (raw bytes with stray letters) printed as
# '?'s: the last line of text before it is said, or that it ends in binary
"$OOMLAB" run -q --id f7 -- sh -c 'echo "RuntimeError: bad magic"; printf "\200\201ab\377\001\002c\376\375xyz\003\004\n\217\020q\n"; exit 1' 2>err.txt
check run.failtail-binary-skipped grep -qx "oomlab run: f7: exit 1, no GPU OOM; the log's last line: RuntimeError: bad magic" err.txt
"$OOMLAB" run -q --id f8 -- sh -c 'printf "\200\201ab\377\001\002c\376\375xyz\003\004"; exit 1' 2>err.txt
check run.failtail-binary-said grep -qx "oomlab run: f8: exit 1, no GPU OOM; the log ends in binary output (./logs/f8.log)" err.txt
# a last line longer than the 4096 bytes read: said from its first whole
# word, the cut marked with "…", not from inside a word ("188 word189 ...")
# (left25)
"$OOMLAB" run -q --id f9 -- sh -c 'i=0; while [ $i -lt 700 ]; do printf "word%03d " $i; i=$((i+1)); done; printf "END\n"; exit 1' 2>err.txt
check run.failtail-long-line-word grep -q "the log's last line: …word189 word190 .* \.\.\.$" err.txt
# the read beginning right at a line's start (a newline before it): the line
# is whole, no "…" and its first word kept; at a word's start (a blank
# before it): "…" and that word kept (review24)
"$OOMLAB" run -q --id f10 -- sh -c 'printf "HEAD\n"; i=0; while [ $i -lt 819 ]; do printf "w%03d " $i; i=$((i+1)); done; printf "\n"; exit 1' 2>err.txt
check run.failtail-line-at-read-start grep -q "the log's last line: w000 w001 .* \.\.\.$" err.txt
"$OOMLAB" run -q --id f11 -- sh -c 'printf "zzzz "; i=0; while [ $i -lt 819 ]; do printf "w%03d " $i; i=$((i+1)); done; printf "\n"; exit 1' 2>err.txt
check run.failtail-word-at-read-start grep -q "the log's last line: …w000 w001 .* \.\.\.$" err.txt
# ... but a last line the read starts at (4095 bytes and its newline, a
# line break just before them) is whole: its first word is said (fuzz24)
"$OOMLAB" run -q --id f12 -- sh -c 'echo first; printf "alpha "; head -c 4089 /dev/zero | tr "\\0" y; echo; exit 1' 2>err.txt
check run.failtail-line-at-read-start-long grep -q "the log's last line: alpha yyy.* \.\.\.$" err.txt
"$OOMLAB" run -q --id f3 -- sh -c 'echo fine' 2>err.txt
check run.failtail-not-clean-exit test "$(grep -c "last line" err.txt)" -eq 0
"$OOMLAB" run --id f4 -- sh -c 'echo shown; exit 1' >/dev/null 2>err.txt
check run.failtail-not-without-q test "$(grep -c "last line" err.txt)" -eq 0
"$OOMLAB" run -q --id f5 -- "$SIM" --batch 96 --seq 1024 2>err.txt
check run.failtail-not-oom test "$(grep -c "last line" err.txt)" -eq 0
