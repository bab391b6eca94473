# Shared by tests/e2e/run_faults.sh and run_signals.sh: waiting for a
# process to end, and killing what a failed test left. (Waiting for a child's
# output: wait_line in wait.bash.)
. "$(dirname "${BASH_SOURCE[0]}")/wait.bash"

# gone PID: the process has ended within $WAIT_S s (a zombie not yet reaped
# by init counts as ended).
gone() { [ -n "$1" ] && poll ended "$1"; }
# reap PID...: a test that failed must not leave its processes behind.
reap() { for p in "$@"; do [ -n "$p" ] && kill -KILL "$p" 2>/dev/null; done; return 0; }
