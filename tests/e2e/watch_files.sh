#!/usr/bin/env bash
# Issue 11, "watch --prom PATH replaces a device node, a symlink or a FIFO
# with a regular file": --prom and --csv refuse anything at PATH that is not
# a regular file (or absent) and leave it as it was — a symlink (and its
# target), a dangling symlink, a FIFO (without blocking), a character device
# made with mknod (as root), a directory; a regular file is replaced with a
# 0644 file and no temp file is left; a --prom path that becomes a symlink
# while watch runs stops it (exit 3) without touching the target.
. "$(dirname "$0")/lib/fake-card.bash"
mkdir -p "$T/out"
printf '0 85899345920 536870912 35 NVIDIA A100-SXM4-80GB\n' > "$D/gpus"
O=$T/out
echo "precious" > "$O/victim"

# refused PATH kinds: NAME, how to make it, what the message says, how to tell it is unchanged
ln -s victim "$O/link"
ln -s nowhere "$O/dangling"
mkfifo "$O/fifo"
mkdir "$O/dir"
made_dev=0
if [ "$(id -u)" -eq 0 ] && mknod "$O/dev" c 1 3 2>/dev/null; then made_dev=1; fi # 1,3 = /dev/null
for opt in --prom --csv; do
  for kind in "link:a symbolic link:-L" "dangling:a symbolic link:-L" "fifo:a FIFO:-p" "dir:a directory:-d" "dev:a character device:-c"; do
    name=${kind%%:*}; rest=${kind#*:}; words=${rest%:*}; test_op=${rest##*:}
    [ "$name" = dev ] && [ $made_dev -eq 0 ] && { echo "# note: not root or no mknod: device case skipped"; continue; }
    out=$(timeout 10 "$OOMLAB" watch --count 1 $opt "$O/$name" 2>&1 >/dev/null); rc=$?
    want="$opt $O/$name: is $words; refusing to replace it"
    # a directory: the file to name in it (run --prom takes a directory; watch one file)
    [ "$name" = dir ] && want="$opt $O/dir: is a directory; watch writes one file: name it, e.g. $opt $O/dir/"
    [ $rc -eq 2 ] && has "$out" "$want" && [ "$test_op" "$O/$name" ]
    check "watch $opt refuses $words and leaves it as it was" $? "rc=$rc" "$out"
  done
done
[ "$(cat "$O/victim")" = precious ]; check "watch: a symlink's target is untouched" $?
[ ! -e "$O/nowhere" ]; check "watch: a dangling symlink's target is not created" $?
[ -z "$(ls "$O" | grep '\.tmp\.')" ]; check "watch: no temp file left by a refusal" $?

# a regular file is replaced (and a new name created), 0644 less the umask
echo "old" > "$O/m.prom"
(umask 027; "$OOMLAB" watch --count 2 --interval 10ms --prom "$O/m.prom" --csv "$O/w.csv" >/dev/null); rc=$?
mode=$(stat -c %a "$O/m.prom")
[ $rc -eq 0 ] && grep -q '^oomlab_gpu_memory_used_bytes' "$O/m.prom" && [ "$mode" = 640 ] && [ -f "$O/w.csv" ] &&
  [ -z "$(ls "$O" | grep '\.tmp\.')" ]
check "watch: a regular --prom file is replaced (mode 0644 less umask), a new --csv created" $? "rc=$rc mode=$mode"

# the path becomes a symlink while watch runs: stop, do not write through it
"$OOMLAB" watch --interval 50ms --prom "$O/live.prom" >/dev/null 2>"$O/live.err" & W=$!; PIDS+=("$W")
wait_for "watch's first --prom file" test -f "$O/live.prom"
ln -s victim "$O/swap" && mv -T "$O/swap" "$O/live.prom"
poll ended "$W" || { kill -9 "$W"; bad "watch stopped after the swap"; }
wait "$W"; rc=$?
err=$(cat "$O/live.err")
[ $rc -eq 3 ] && has "$err" "is a symbolic link" && [ -L "$O/live.prom" ] && [ "$(cat "$O/victim")" = precious ]
check "watch: --prom swapped for a symlink mid-run stops it, target untouched" $? "rc=$rc" "$err"
# A full disk (here ulimit -f; stderr goes to a pipe, which the limit does
# not cover): --csv FILE whose header cannot be written was left behind
# empty, as if it were a log. A FILE watch created is removed and the
# message says so; one that was there (empty) stays and the message says
# it is empty; one that fills up mid-run keeps its whole rows and says so.
err=$( (ulimit -f 0; exec "$OOMLAB" watch --count 2 --interval 10ms --csv "$O/full.csv" 2>&1 >/dev/null) | cat)
[ ! -e "$O/full.csv" ] && has "$err" "cannot write $O/full.csv: File too large; removed $O/full.csv, which it had just created"
check "watch --csv on a full disk removes the empty FILE it created and says so" $? "$err"
: > "$O/had.csv"
err=$( (ulimit -f 0; exec "$OOMLAB" watch --count 2 --interval 10ms --csv "$O/had.csv" 2>&1 >/dev/null) | cat)
[ -f "$O/had.csv" ] && has "$err" "$O/had.csv is left empty"
check "watch --csv on a full disk leaves a FILE that was there and says it is empty" $? "$err"
err=$( (ulimit -f 1; exec "$OOMLAB" watch --count 200 --interval 10ms --csv "$O/mid.csv" 2>&1 >/dev/null) | cat)
size=$(stat -c %s "$O/mid.csv")
[ "$size" -gt 0 ] && [ "$(tail -c 1 "$O/mid.csv" | od -An -c | tr -d ' ')" = '\n' ] &&
  has "$err" "cannot write $O/mid.csv: File too large; it keeps the $size bytes written before; stopping"
check "watch --csv filling the disk mid-run keeps the whole rows written and says where" $? "size=$size" "$err"
exit 0
