# Shared by tests/e2e/run_*.sh: tap-like helpers, the simulated trainer, a
# scratch directory.
set -u
: "${OOMLAB:?}" "${OOMLAB_BUILD:?}" "${OOMLAB_ROOT:?}"
. "$(dirname "${BASH_SOURCE[0]}")/wait.bash"
SIM="$OOMLAB_BUILD/fakes/simtrain"
# No real GPU in these tests, even on a machine that has one: NVML is the
# fake library where a test asks for it, and absent otherwise.
export OOMLAB_NVML_LIBRARY=/nonexistent/libnvidia-ml.so.1
unset OOMLAB_FAKE_NVML_DIR
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/oomlab-e2e.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
cd "$SCRATCH" || exit 2

ok()   { echo "ok $1"; }
bad()  { echo "not ok $1"; shift; for l in "$@"; do echo "  $l"; done; }
check() { # check NAME COMMAND...: ok when the command succeeds
  local name=$1; shift
  if "$@"; then ok "$name"; else bad "$name" "failed: $*"; fi
}
skip() { echo "skip $1: $2"; }

# csv_field FILE ROW COLUMN: a ledger cell, parsed by Python's csv module.
csv_field() {
  python3 -c 'import csv,sys
rows=list(csv.DictReader(open(sys.argv[1],newline="")))
r=[x for x in rows if x["run_id"]==sys.argv[2]]
print(r[-1][sys.argv[3]] if r else "<no row>")' "$1" "$2" "$3"
}
csv_rows() { python3 -c 'import csv,sys; print(len(list(csv.DictReader(open(sys.argv[1],newline="")))))' "$1"; }
fresh() { rm -rf "$SCRATCH/$1"; mkdir -p "$SCRATCH/$1"; cd "$SCRATCH/$1" || exit 2; }
