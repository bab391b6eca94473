# Shared by every e2e script (run-common.bash and fake-card.bash source it):
# bounded waits FOR a state, instead of a fixed sleep that assumes the state
# is reached by then. CI runs make check on 2 busy cores, where a child may
# take well over 0.2 s to exec, to reach 'S' or to switch its uid; twice a
# test failed there after a fixed `sleep 0.2`.
#
# poll CMD...: runs CMD every 0.05 s until it succeeds, for up to $WAIT_S
#   seconds (10; OOMLAB_WAIT_S overrides); quiet; fails on timeout. For a
#   check's own condition ("the process has ended").
# wait_for WHAT CMD...: poll, and on timeout a "not ok" line naming WHAT and
#   the command, so a state never reached fails the test even when the checks
#   after it happen to pass. For a test's preconditions.
# wait_line FILE PATTERN: wait_for a line matching PATTERN (grep) in FILE.
#
# The predicates, for poll and wait_for:
#   pstate PID (prints the state letter, R S D T Z...), in_state PID LETTERS,
#   ended PID (no such process, or a zombie), comm_is PID NAME (exec'd: the
#   kernel's name for it), execd PID NAME (that, and its new arguments in
#   place), argv_match PID REGEX, asleep PID, uid_is PID UID,
#   has_line FILE PATTERN, nonempty FILE.
WAIT_S=${OOMLAB_WAIT_S:-10}

_wait_now_us() { # microseconds since the epoch, without a fork on bash 5
  if [ -n "${EPOCHREALTIME:-}" ]; then local t=${EPOCHREALTIME/[.,]/}; echo "${t#0}"
  else echo $(( $(date +%s%N) / 1000 )); fi
}
poll() {
  local end=$(( $(_wait_now_us) + WAIT_S * 1000000 ))
  until "$@"; do
    [ "$(_wait_now_us)" -ge "$end" ] && return 1
    sleep 0.05
  done
}
wait_for() {
  local what=$1; shift
  poll "$@" && return 0
  echo "not ok waited for $what"
  echo "# gave up after $WAIT_S s: $*"
  return 1
}
wait_line() { wait_for "'$2' in $1" has_line "$1" "$2"; }

pstate() { # the field after the name, which may hold spaces or ')'
  local s
  s=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  s=${s##*) }; echo "${s%% *}"
}
in_state() { local s; s=$(pstate "$1") && [ -n "$s" ] && [[ $2 == *"$s"* ]]; }
ended() { local s; s=$(pstate "$1") || return 0; [ -z "$s" ] || [ "$s" = Z ]; }
comm_is() { [ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ]; }
# execd PID NAME: comm is NAME and the new arguments are in place (the kernel
# renames the process first; cmdline reads empty in between)
execd() { comm_is "$1" "$2" && [ -n "$(tr -d '\0' < "/proc/$1/cmdline" 2>/dev/null)" ]; }
# argv_match PID REGEX: its arguments, joined by spaces, match REGEX (grep -E)
argv_match() { tr '\0' ' ' < "/proc/$1/cmdline" 2>/dev/null | grep -qE -- "$2"; }
# asleep PID: an exec'd sleep(1) that has reached its nanosleep ('S'): right
# after exec it is still running or paging itself in
asleep() { execd "$1" sleep && in_state "$1" S; }
uid_is() { [ "$(stat -c %u "/proc/$1" 2>/dev/null)" = "$2" ]; }
has_line() { grep -q -- "$2" "$1" 2>/dev/null; }
nonempty() { [ -s "$1" ]; }
