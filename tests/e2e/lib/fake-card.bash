# Shared by tests/e2e/ps_*.sh and watch_files.sh: the fake NVML
# (tests/fakes/libnvidia-ml_so.c, docs/testing.md) in a scratch state
# directory $D under $T, the processes a test starts ($PIDS, killed on any
# exit), and the tap-like helpers. Source it first; then write $D/gpus.
set -u
: "${OOMLAB:?}" "${OOMLAB_BUILD:?}" "${OOMLAB_ROOT:?}"
. "$(dirname "${BASH_SOURCE[0]}")/wait.bash"
export LC_ALL=C NO_COLOR=1
FAKES=$OOMLAB_BUILD/fakes
T=$(mktemp -d)
D=$T/state
mkdir -p "$D/procs"
export OOMLAB_NVML_LIBRARY=$FAKES/libnvidia-ml.so.1 OOMLAB_FAKE_NVML_DIR=$D
unset OOMLAB_FAKE_NVML_API OOMLAB_FAKE_NVML_FAIL OOMLAB_FAKE_NVML_REAP OOMLAB_FAKE_NVML_RESERVED
PIDS=()
fake_card_cleanup() {
  disown -a 2>/dev/null
  for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
  rm -rf "$T"
}
trap fake_card_cleanup EXIT
trap 'exit 143' TERM; trap 'exit 130' INT # run the cleanup on these too

ok()  { echo "ok $1"; }
bad() { echo "not ok $1"; shift; for l in "$@"; do echo "# $l"; done; }
check() { # NAME COND-STATUS [details...]
  local name=$1 st=$2; shift 2
  if [ "$st" -eq 0 ]; then ok "$name"; else bad "$name" "$@"; fi
}
has() { grep -qF -- "$2" <<<"$1"; }
jq_py() { python3 -c "import json,sys; d=json.load(sys.stdin); $1"; }
GIB=1073741824
# hold PID GPU BYTES: PID holds BYTES on GPU (the fake's process file,
# replaced by rename as the trainer does); `hold PID "GPU BYTES"` works too.
hold() { local pid=$1; shift; printf '%s\n' "$*" > "$D/procs/.$pid.tmp" && mv "$D/procs/.$pid.tmp" "$D/procs/$pid"; }
