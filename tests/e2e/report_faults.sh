#!/usr/bin/env bash
# oomlab report when memory runs short while it reads the log's step lines
# (tests/fakes/failgrow_so.c, LD_PRELOAD: the step series, 64-byte points
# first allocated 16 at a time, may not grow past 64 of them). The series
# only feeds the memory trend: the OOM, its log line and the excerpt's line
# numbers must come out as they do with memory to spare. Before b51c5301 a
# step line the series could not hold was not counted, and the page lost
# its "Log around the OOM" (review21 item 7; it had no test).
. "$(dirname "$0")/lib/run-common.bash"
case "$OOMLAB_BUILD" in *asan*) skip report-faults.all "an ASan build owns malloc: no LD_PRELOAD allocator"; exit 0 ;; esac
SHIM=$OOMLAB_BUILD/fakes/failgrow.so.1
[ -f "$SHIM" ] || { bad report-faults.shim "no $SHIM (make fakes)"; exit 0; }

fresh steps-oom
mkdir logs
{ echo "train: batch=16"
  for i in $(seq 1 300); do echo "step=$i loss=2.$((i % 10))000 peak_alloc=10.00GB peak_reserved=10.50GB"; done
  echo "Traceback (most recent call last):"
  echo '  File "train.py", line 9, in <module>'
  echo "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.40 GiB. GPU 0 has a total capacity of 24.00 GiB of which 1.41 GiB is free. Of the allocated memory 20.00 GiB is allocated by PyTorch, and 1.00 GiB is reserved by PyTorch but unallocated."
  echo "after 1"; echo "after 2"; } > logs/r1.log
printf 'run_id,peak_reserved_GB,capacity_GB,oom\nr1,10.5,24,yes\n' > runs.csv
"$OOMLAB" report r1 -o plain.html >/dev/null 2>plain.err; rc1=$?
LD_PRELOAD=$SHIM OOMLAB_TEST_FAILGROW="1024 4096 $PWD/refused.txt" "$OOMLAB" report r1 -o short.html >/dev/null 2>short.err; rc2=$?
check report-faults.exit test "$rc1" -eq 0 -a "$rc2" -eq 0
check report-faults.series-refused test -s refused.txt # the path was taken
excerpt() { sed -n '/<h3>Log around the OOM<\/h3>/,/<\/pre>/p' "$1"; }
check report-faults.oom-line grep -q '<th>log line</th><td>304</td>' short.html
check report-faults.excerpt-hit grep -q '<span class="hit"> *304  torch.OutOfMemoryError: CUDA out of memory' short.html
check report-faults.excerpt-numbers test "$(excerpt short.html | grep -o '<span class="[a-z]*"> *[0-9]*' | grep -o '[0-9]*$' | tr '\n' ' ')" = "$(seq 292 306 | tr '\n' ' ')"
excerpt plain.html > plain.txt; excerpt short.html > short.txt
check report-faults.same-as-plain test -s plain.txt -a -s short.txt
check report-faults.same-excerpt cmp -s plain.txt short.txt
