#!/usr/bin/env bash
# oomlab run and signals: Ctrl-C / SIGTERM reach the child's whole process
# group, the files are finished and the ledger row says "interrupted";
# oomlab exits like the child. Timeouts, a child that ignores SIGTERM, a
# second Ctrl-C, and what the child leaves of its group (signalled, so
# neither a run nor this test leaves a process behind).
. "$(dirname "$0")/lib/child.bash" # before run-common.bash: it changes directory
. "$(dirname "$0")/lib/run-common.bash"

# start ID ARGS...: oomlab run in the background; $pid is oomlab's pid.
start() { local id=$1; shift; "$OOMLAB" run -q --id "$id" "$@" 2>"$id.err" & pid=$!; }

# A shell child with a grandchild: both must see the signal (the group gets it).
group_child() {
  sh -c 'trap "echo child-got-$1; exit 0" INT TERM
         sh -c "trap \"echo grandchild-got-\$1; exit 0\" INT TERM; echo grand-pid=\$\$; echo ready-grand; while :; do sleep 0.05; done" x "$1" &
         echo ready; while :; do sleep 0.05; done' x "$1"
}

fresh sigint
start intr -- bash -c "$(declare -f group_child); group_child INT"
wait_line logs/intr.log ready-grand
kill -INT "$pid"; wait "$pid"; rc=$?
check run.sigint-exit-like-child test "$rc" -eq 0  # the child trapped it and exited 0
check run.sigint-child-got-it grep -q child-got-INT logs/intr.log
# the grandchild ignored SIGINT (a background job); once the child is gone it
# gets SIGTERM, and the row says so
gpid=$(sed -n 's/^grand-pid=//p' logs/intr.log)
check run.sigint-grandchild-not-left gone "$gpid"
check run.sigint-leftover-note grep -Eq '[0-9]+ leftover process(es)? of the group: SIGTERM' <<<"$(csv_field runs.csv intr notes)"
[ -n "$gpid" ] && kill -KILL "$gpid" 2>/dev/null
# (a shell's background job ignores SIGINT by POSIX rule, so the grandchild
# is checked with SIGTERM, which reaches it only through the group)
start grp -- bash -c "$(declare -f group_child); group_child TERM"
wait_line logs/grp.log ready-grand
kill -TERM "$pid"; wait "$pid"; rc=$?
check run.sigterm-grandchild-got-it grep -q grandchild-got-TERM logs/grp.log
check run.sigint-ledger-interrupted grep -q 'interrupted (SIGINT)' runs.csv

start sim -- "$SIM" --steps 100000 --sleep-ms 20
wait_line logs/sim.log 'step=2'
kill -INT "$pid"; wait "$pid"; rc=$?
check run.sigint-130 test "$rc" -eq 130
check run.sigint-keyboardinterrupt grep -q KeyboardInterrupt logs/sim.log
check run.sigint-row test "$(csv_field runs.csv sim exit_status)" = 130
check run.sigint-row-note grep -q '^sim,.*interrupted (SIGINT)' runs.csv

fresh sigterm
start term -- "$SIM" --steps 100000 --sleep-ms 20
wait_line logs/term.log 'step=2'
t0=$(date +%s%N); kill -TERM "$pid"; wait "$pid"; rc=$?; t1=$(date +%s%N)
check run.sigterm-143 test "$rc" -eq 143
check run.sigterm-row grep -q '^term,.*interrupted (SIGTERM)' runs.csv
check run.sigterm-fast test $(( (t1 - t0) / 1000000 )) -lt 3000
check run.sigterm-log-kept grep -q 'step=2' logs/term.log

# A child that ignores SIGTERM is killed after --grace.
start stubborn --grace 500ms -- "$SIM" --steps 100000 --sleep-ms 20 --ignore-term
wait_line logs/stubborn.log 'step=2'
kill -TERM "$pid"; wait "$pid"; rc=$?
check run.grace-sigkill-137 test "$rc" -eq 137
check run.grace-note grep -q '^stubborn,.*group killed after the grace period' runs.csv

# A second Ctrl-C kills at once, without waiting for the grace period.
start twice --grace 60s -- "$SIM" --steps 100000 --sleep-ms 20 --ignore-term
wait_line logs/twice.log 'step=2'
t0=$(date +%s%N); kill -TERM "$pid"; sleep 0.2; kill -INT "$pid"; wait "$pid"; rc=$?; t1=$(date +%s%N)
check run.second-signal-kills test "$rc" -eq 137 -a $(( (t1 - t0) / 1000000 )) -lt 5000

# A command still running a second after Ctrl-C (it ignores SIGINT, or
# takes long to wind down) kept printing with no word from oomlab for the
# whole grace period: now it is said what comes next and how to hurry it.
# The second Ctrl-C's SIGKILL is not then reported as leftovers getting
# "SIGTERM, SIGKILL after 60s", and the row says the kill was asked for.
start hint --grace 60s -- sh -c 'trap "" INT; (while :; do sleep 0.05; done) & echo ready; while :; do sleep 0.05; done'
wait_line logs/hint.log ready
# until the hint is said (a second after the first Ctrl-C; a fixed 1.6 s
# assumed it was by then), and before the second Ctrl-C
kill -INT "$pid"; poll has_line hint.err 'still running after SIGINT'; cp hint.err hint1.err; kill -INT "$pid"; wait "$pid"; rc=$?
check run.sigint-still-running-said grep -q '^oomlab run: the command is still running after SIGINT: SIGKILL to its group in 59s (Ctrl-C again kills it now)$' hint1.err
check run.sigint-twice-137 test "$rc" -eq 137
check run.sigint-twice-no-leftover-talk sh -c '! grep -q "SIGTERM, SIGKILL after" hint.err'
check run.sigint-twice-row grep -q '^hint,.*interrupted (SIGINT); killed by SIGKILL; group killed at once by a second signal' runs.csv
# A command that stops at once hears nothing more.
start quick -- "$SIM" --steps 100000 --sleep-ms 20
wait_line logs/quick.log 'step=2'
kill -INT "$pid"; wait "$pid"
check run.sigint-quick-no-hint sh -c '! grep -q "still running after" quick.err'

# SIGHUP interrupts like SIGTERM; but under nohup (SIGHUP ignored when
# oomlab starts) it stays ignored, for oomlab and the command: the logout
# that sends it must not end a run started with `nohup oomlab run ... &`.
fresh sighup
hup_child() { sh -c 'echo ready; sleep 1; grep SigIgn /proc/self/status; echo finished'; }
start hup -- bash -c "$(declare -f hup_child); hup_child"
wait_line logs/hup.log ready
kill -HUP "$pid"; wait "$pid"; rc=$?
check run.sighup-129 test "$rc" -eq 129
check run.sighup-row grep -q 'interrupted (SIGHUP)' <<<"$(csv_field runs.csv hup notes)"
nohup "$OOMLAB" run -q --id nohup -- bash -c "$(declare -f hup_child); hup_child" >/dev/null 2>nohup.err & pid=$!
wait_line logs/nohup.log ready
kill -HUP "$pid"; wait "$pid"; rc=$?
check run.nohup-sighup-ignored test "$rc" -eq 0
check run.nohup-run-finished grep -q finished logs/nohup.log
check run.nohup-row-not-interrupted test "$(csv_field runs.csv nohup exit_status)" = 0
# the command inherits the ignored SIGHUP (bit 0 of SigIgn)
check run.nohup-child-ignores-sighup grep -Eq 'SigIgn:.*[13579bdf]$' logs/nohup.log

# Ctrl-Z (SIGTSTP) stops the job: the command's group (which the terminal's
# Ctrl-Z does not reach: it has a group of its own) and then oomlab; when
# oomlab is continued (fg, bg: SIGCONT), so is the group. Not an interruption.
fresh sigtstp
start tstp --timeout 20s -- sh -c 'echo pid=$$; i=0; while [ $i -lt 60 ]; do echo tick$i; echo tick$i >> ticks.txt; i=$((i+1)); sleep 0.1; done; echo finished'
wait_line logs/tstp.log tick1
cpid=$(sed -n 's/^pid=//p' logs/tstp.log)
kill -TSTP "$pid"
check run.sigtstp-oomlab-stopped poll in_state "$pid" T
check run.sigtstp-command-stopped poll in_state "$cpid" T
n1=$(grep -c tick ticks.txt); sleep 0.5; n2=$(grep -c tick ticks.txt)
check run.sigtstp-command-paused test "$n1" -eq "$n2"
kill -CONT "$pid"; wait "$pid"; rc=$?
check run.sigtstp-continued-exit0 test "$rc" -eq 0
check run.sigtstp-command-finished grep -q finished logs/tstp.log
check run.sigtstp-not-interrupted test "$(csv_field runs.csv tstp exit_status)" = 0
reap "$cpid"

# --timeout: SIGTERM to the group, row says timeout.
fresh timeout
t0=$(date +%s%N)
"$OOMLAB" run -q --id slow --timeout 300ms -- "$SIM" --steps 100000 --sleep-ms 20 2>/dev/null; rc=$?
t1=$(date +%s%N)
check run.timeout-143 test "$rc" -eq 143
check run.timeout-note grep -q '^slow,.*timeout' runs.csv
check run.timeout-prompt test $(( (t1 - t0) / 1000000 )) -lt 3000
"$OOMLAB" run -q --id hang --timeout 300ms --grace 200ms -- "$SIM" --hang-at 1 --ignore-term 2>/dev/null; rc=$?
check run.timeout-hang-killed test "$rc" -eq 137
# ... and the grace period after a timeout is a wait, not a spin: the passed
# deadline stayed among poll's timers, so poll returned at once ~16,000
# times a second (strace -c: 32,811 polls in a 2 s grace) and oomlab burnt
# a third of a core until the SIGKILL. CPU seconds from bash's `times`.
cpu=$( ( "$OOMLAB" run -q --id spin --timeout 200ms --grace 2s -- sh -c 'trap "" TERM; sleep 30' 2>/dev/null; times ) |
  sed -n 2p | awk '{ split($1, u, "m"); split($2, s, "m"); printf "%d", (u[1] * 60 + u[2] + s[1] * 60 + s[2]) * 1000 }')
check run.timeout-grace-no-spin test "${cpu:-99999}" -lt 250

# Heirs that keep the pipe open keep oomlab no longer than --grace: then
# they get SIGTERM.
t0=$(date +%s%N)
"$OOMLAB" run -q --id heir --grace 500ms -- sh -c 'sleep 5 & echo heir=$!; echo parent-done' 2>/dev/null; rc=$?
t1=$(date +%s%N)
check run.heir-not-waited test "$rc" -eq 0 -a $(( (t1 - t0) / 1000000 )) -lt 3000
check run.heir-log grep -q parent-done logs/heir.log
hpid=$(sed -n 's/^heir=//p' logs/heir.log)
check run.heir-signalled gone "$hpid"
[ -n "$hpid" ] && kill -KILL "$hpid" 2>/dev/null
