#!/usr/bin/env bash
# oomlab run and the kernel's OOM killer: a child that dies of SIGKILL is
# told apart by the memory cgroup's oom_kill counter (sys/hostoom), read
# before the child starts and after it ends. The cgroup is a directory laid
# out like /sys/fs/cgroup (OOMLAB_CGROUP_ROOT) with its own /proc/self/cgroup
# (OOMLAB_CGROUP_SELF); the child plays the kernel: it raises the counter,
# then SIGKILLs itself, as an OOM kill does.
. "$(dirname "$0")/lib/run-common.bash"

cg() { # cg SELF-LINE FILE CONTENT: a fake cgroup tree in ./cg
  rm -rf cg; mkdir -p "cg/$(dirname "$2")"
  printf '%s\n' "$1" > cg/self; printf "$3" > "cg/$2"
  export OOMLAB_CGROUP_ROOT=$PWD/cg OOMLAB_CGROUP_SELF=$PWD/cg/self
}

# --- cgroup v2 (a SLURM step): kills before the run are not counted ---
fresh v2
cg "0::/system.slice/slurmstepd.scope/job_7/step_0" system.slice/slurmstepd.scope/job_7/step_0/memory.events 'low 0\nhigh 0\nmax 40\noom 3\noom_kill 3\n'
ev=$PWD/cg/system.slice/slurmstepd.scope/job_7/step_0/memory.events
"$OOMLAB" run -q --id k -- sh -c "printf 'low 0\nhigh 0\nmax 41\noom 4\noom_kill 4\n' > $ev; kill -9 \$\$" 2>err.txt; rc=$?
check host-oom.v2-exit test "$rc" -eq 137
check host-oom.v2-said grep -q "the kernel's OOM killer killed 1 process(es) of this cgroup during the run: host memory (RAM) ran out" err.txt
check host-oom.v2-not-gpu grep -q 'OOM no' err.txt
check host-oom.v2-ledger-kind grep -q 'host-oom-killer' runs.csv
check host-oom.v2-ledger-count test -n "$(csv_field runs.csv k notes | grep -F "killed 1 process(es)")"
# diagnose RUN_ID says it from the row: the log (empty here) has no word of it,
# and before, diagnose said only "no OOM found" after run had said host RAM
"$OOMLAB" diagnose k >diag.txt 2>&1
check host-oom.v2-diagnose-said grep -q "^run k: the kernel's OOM killer killed 1 process(es) of this cgroup (its ledger" diag.txt

# --- a plain kill -9: the counter did not move, and that is said ---
"$OOMLAB" run -q --id plain -- sh -c 'kill -9 $$' 2>err.txt; rc=$?
check host-oom.plain-exit test "$rc" -eq 137
check host-oom.plain-said grep -q "killed by SIGKILL, not by the kernel's OOM killer" err.txt
check host-oom.plain-no-kind test -z "$(csv_field runs.csv plain notes | grep -F host-oom-killer)"

# --- a wrapper (bash, a launcher) reporting its child's SIGKILL as exit 137:
#     the run summary said only "exit 137; OOM no" while `diagnose` on the
#     log ("Killed") says host RAM; the counter's answer is given here too ---
"$OOMLAB" run -q --id wrap -- bash -c 'sh -c "kill -9 \$\$"; exit 137' 2>err.txt; rc=$?
check host-oom.wrapper-exit test "$rc" -eq 137
check host-oom.wrapper-said grep -q "exit 137, how shells and launchers report a child killed by SIGKILL, not by the kernel's OOM killer" err.txt
"$OOMLAB" run -q --id wrapk -- sh -c "printf 'low 0\nhigh 0\nmax 41\noom 5\noom_kill 5\n' > $ev; exit 137" 2>err.txt
check host-oom.wrapper-counted grep -q "the kernel's OOM killer killed 1 process(es)" err.txt

# --- a worker killed, the command exits 1 (a DataLoader worker): still said ---
"$OOMLAB" run -q --id worker -- sh -c "printf 'oom 6\noom_kill 7\n' > $ev; exit 1" 2>err.txt; rc=$?
check host-oom.worker-exit test "$rc" -eq 1
check host-oom.worker-said grep -q "killed 2 process(es)" err.txt
check host-oom.worker-kind grep -q 'host-oom-killer' <(csv_field runs.csv worker notes)

# table shows it at a glance: before, the oom column said only "no" (exit 137)
COLUMNS=200 "$OOMLAB" table >table.txt 2>&1
oomcol() { awk -v id="$1" 'NR==1{for(i=1;i<=NF;i++) if($i=="oom") c=i} $1==id{print $c}' table.txt; }
check host-oom.table-k-host test "$(oomcol k)" = host
check host-oom.table-worker-host test "$(oomcol worker)" = host
check host-oom.table-plain-no test "$(oomcol plain)" = no
check host-oom.table-wrap-no test "$(oomcol wrap)" = no
check host-oom.table-legend grep -q "^oom host: no GPU OOM, but the kernel's OOM killer killed the run" table.txt
"$OOMLAB" table --json >table.json
check host-oom.table-json test "$(jq -c '[.runs[] | [.run_id, .host_oom_killed]]' table.json)" = '[["k",true],["plain",false],["wrap",false],["wrapk",true],["worker",true]]'

# --- cgroup v1 (memory.oom_control), and a container whose cgroup is the root ---
fresh v1
cg "4:memory:/slurm/uid_0/job_9" memory/slurm/uid_0/job_9/memory.oom_control 'oom_kill_disable 0\nunder_oom 0\noom_kill 0\n'
f=$PWD/cg/memory/slurm/uid_0/job_9/memory.oom_control
"$OOMLAB" run -q --id k1 -- sh -c "printf 'oom_kill_disable 0\nunder_oom 0\noom_kill 1\n' > $f; kill -9 \$\$" 2>err.txt
check host-oom.v1-said grep -q "killed 1 process(es)" err.txt
fresh ctr
cg "0::/kubepods/besteffort/pod1/ctr" memory.events 'oom 0\noom_kill 0\n'
"$OOMLAB" run -q --id k2 -- sh -c "printf 'oom 1\noom_kill 1\n' > $PWD/cg/memory.events; kill -9 \$\$" 2>err.txt
check host-oom.container-root-said grep -q "killed 1 process(es)" err.txt

# --- no counter to read: SIGKILL says what to look at instead ---
fresh none
export OOMLAB_CGROUP_ROOT=$PWD/nonexistent OOMLAB_KMSG=$PWD/nonexistent
"$OOMLAB" run -q --id n -- sh -c 'kill -9 $$' 2>err.txt
check host-oom.unknown-said grep -q "cannot read this cgroup's OOM-kill count here: if .dmesg. shows" err.txt
"$OOMLAB" run -q --id t --timeout 200ms --grace 100ms -- sh -c 'trap "" TERM; sleep 5' 2>err.txt
check host-oom.timeout-not-blamed test -z "$(grep -F SIGKILL, err.txt)"

# --- guard: the same evidence in the verdict and in --json. Before, guard
#     said only "the command failed with exit 137 (no GPU OOM found)" and its
#     JSON had neither the signal nor the count ---
fresh guard
cg "0::/job_3" job_3/memory.events 'oom 0\noom_kill 0\n'
ev=$PWD/cg/job_3/memory.events
"$OOMLAB" guard -q --budget 1GiB --id gk -- sh -c "printf 'oom 1\noom_kill 1\n' > $ev; kill -9 \$\$" >out.txt 2>err.txt; rc=$?
check host-oom.guard-exit13 test "$rc" -eq 13
check host-oom.guard-said grep -q "failed with exit 137 (no GPU OOM found): the kernel's OOM killer killed 1 process(es) of this cgroup during the run: host memory (RAM) ran out" out.txt
"$OOMLAB" guard --json --budget 1GiB --id gp -- sh -c 'kill -9 $$' >out.json 2>err.txt; rc=$?
check host-oom.guard-json-exit13 test "$rc" -eq 13
check host-oom.guard-json-fields test "$(python3 -c 'import json,sys; j=json.load(open("out.json")); print(j["command_signal"], j["host_oom_kills"], j["kill_cause"])')" = "SIGKILL 0 not-oom-killer"
check host-oom.guard-json-not-oom grep -q "killed by SIGKILL, not by the kernel's OOM killer" err.txt
"$OOMLAB" guard --json --budget 1GiB --id gx -- sh -c 'exit 3' >out.json 2>err.txt
check host-oom.guard-json-plain-exit test "$(python3 -c 'import json,sys; j=json.load(open("out.json")); print(j["command_signal"], j["host_oom_kills"], j["kill_cause"])')" = "None 0 None"
export OOMLAB_CGROUP_ROOT=$PWD/nonexistent
"$OOMLAB" guard --json --budget 1GiB --id gu -- sh -c 'kill -9 $$' >out.json 2>err.txt
check host-oom.guard-json-unknown test "$(python3 -c 'import json,sys; j=json.load(open("out.json")); print(j["command_signal"], j["host_oom_kills"], j["kill_cause"])')" = "SIGKILL None unknown"
check host-oom.guard-unknown-said grep -q "killed by SIGKILL: the kernel's OOM killer sends it when host memory (RAM) runs out, and so do a scheduler's limit" err.txt

# --- no count, but the kernel's log (/dev/kmsg; here a file of records in
#     its format, OOMLAB_KMSG) says the OOM killer killed the command's own
#     process: said, in run's line, the ledger and guard's JSON. A record for
#     another pid or name, or from before the run, is not evidence ---
fresh kmsg
export OOMLAB_CGROUP_ROOT=$PWD/nonexistent OOMLAB_KMSG=$PWD/kmsg
: > kmsg
rec() { printf '6,1,1,-;random: crng init done\n3,2,%s,-;Out of memory: Killed process %s (%s) total-vm:8388608kB, anon-rss:8000000kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:16000kB oom_score_adj:0\n SUBSYSTEM=memory\n' "$1" "$2" "$3" >> kmsg; }
# the child writes the kernel's line about itself, then dies as the kernel kills
"$OOMLAB" run -q --id km -- sh -c "$(declare -f rec); rec 99999999999999 \$\$ sh; kill -9 \$\$" 2>err.txt; rc=$?
check host-oom.kmsg-exit test "$rc" -eq 137
check host-oom.kmsg-said grep -q "killed by SIGKILL, by the kernel's OOM killer (the kernel's log has its \"Killed process\" line for the command's process" err.txt
check host-oom.kmsg-fixes grep -q "more RAM" err.txt
check host-oom.kmsg-ledger grep -q "the kernel's log: its OOM killer killed the command" <(csv_field runs.csv km notes)
check host-oom.kmsg-kind grep -q 'host-oom-killer' <(csv_field runs.csv km notes)
"$OOMLAB" diagnose km >diag.txt 2>&1
check host-oom.kmsg-diagnose-said grep -q "^run km: the kernel's log: its OOM killer killed the command (its ledger" diag.txt
"$OOMLAB" diagnose kother >diag.txt 2>&1
check host-oom.kmsg-diagnose-not-said test -z "$(grep "OOM killer killed" diag.txt)"
: > kmsg
"$OOMLAB" run -q --id kother -- sh -c "$(declare -f rec); rec 99999999999999 \$((\$\$ + 1)) sh; kill -9 \$\$" 2>err.txt
check host-oom.kmsg-other-pid grep -q "cannot read this cgroup's OOM-kill count here" err.txt
: > kmsg
"$OOMLAB" run -q --id kname -- sh -c "$(declare -f rec); rec 99999999999999 \$\$ python3; kill -9 \$\$" 2>err.txt
check host-oom.kmsg-other-name grep -q "cannot read this cgroup's OOM-kill count here" err.txt
: > kmsg
"$OOMLAB" run -q --id kold -- sh -c "$(declare -f rec); rec 1 \$\$ sh; kill -9 \$\$" 2>err.txt
check host-oom.kmsg-before-the-run grep -q "cannot read this cgroup's OOM-kill count here" err.txt
: > kmsg
"$OOMLAB" guard --json --budget 1GiB --id gkm -- sh -c "$(declare -f rec); rec 99999999999999 \$\$ sh; kill -9 \$\$" >out.json 2>err.txt
check host-oom.kmsg-guard-json test "$(python3 -c 'import json,sys; j=json.load(open("out.json")); print(j["command_signal"], j["host_oom_kills"], j["kill_cause"])')" = "SIGKILL None host-oom-killer"
