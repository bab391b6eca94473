# Shared by tests/e2e/run_faults.sh and run_signals.sh (after
# run-common.bash): waiting for a child's output and for a process to end,
# and killing what a failed test left.

# wait_for FILE PATTERN: up to 10 s for PATTERN to appear in FILE.
wait_for() { for _ in $(seq 100); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done; return 1; }
# gone PID: the process has ended within 3 s (a zombie not yet reaped by
# init counts as ended).
gone() {
  local st
  [ -n "$1" ] || return 1
  for _ in $(seq 30); do
    st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)
    [ -z "$st" ] || [ "$st" = Z ] && return 0
    sleep 0.1
  done
  return 1
}
# reap PID...: a test that failed must not leave its processes behind.
reap() { for p in "$@"; do [ -n "$p" ] && kill -KILL "$p" 2>/dev/null; done; return 0; }
