#!/usr/bin/env bash
# End-to-end tests of `oomlab snapshot` on pickles written by Python's own
# pickle in PyTorch's snapshot structure (tests/snapshot/gen_snapshot.py):
# every figure checked against an independent reading with pickle.load (and
# torch 1.13's _memory_viz.stats where torch is installed), .gz against
# plain, two files, hostile files refused with nothing executed, a FIFO,
# and a streamed 20 MB snapshot read in bounded memory. Prints ok / not ok.
set -u
OOMLAB=${OOMLAB:-$PWD/build/oomlab}
ROOT=${OOMLAB_ROOT:-$PWD}
PY=/usr/bin/python3
S=$ROOT/tests/snapshot
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
ok() { echo "ok $1"; }
nok() { echo "not ok $1"; shift; for l in "$@"; do echo "#   $l"; done; }
check() { local name=$1; shift; if "$@"; then ok "$name"; else nok "$name" "${why:-}"; fi; why=; }

# The oracle: the same figures from pickle.load, written the way oomlab's
# JSON names them.
cat > "$W/oracle.py" <<'EOF'
import json, pickle, sys
snap = pickle.load(open(sys.argv[1], "rb"))
segs = snap["segments"] if isinstance(snap, dict) else snap
out = {}
for s in segs:
    d = out.setdefault(s["device"], {"reserved_bytes": 0, "allocated_bytes": 0,
                                     "active_bytes": 0, "largest_free_block_bytes": None})
    d["reserved_bytes"] += s["total_size"]
    d["allocated_bytes"] += s["allocated_size"]
    d["active_bytes"] += s["active_size"]
    for b in s["blocks"]:
        if b["state"] == "inactive":
            lf = d["largest_free_block_bytes"]
            d["largest_free_block_bytes"] = max(lf or 0, b["size"])
traces = snap.get("device_traces", []) if isinstance(snap, dict) else []
for i, t in enumerate(traces):
    ooms = [e for e in t if e["action"] == "oom"]
    d = out.setdefault(i, {})
    d["trace_entries"] = len(t)
    # the timeline: alloc adds, free_completed takes back (what the trace
    # allocated before it began, too); the start is what the segments hold
    # less what the trace added
    live, net, top = {}, 0, None
    for e in t:
        if e["action"] == "alloc":
            live[e["addr"]] = e["size"]
            net += e["size"]
            top = net if top is None else max(top, net)
        elif e["action"] in ("free_completed", "free"):
            net -= live.pop(e["addr"], e["size"])
    start = max(0, d.get("allocated_bytes", 0) - net)
    d["peak_allocated_bytes"] = None if top is None else start + top
    d["oom"] = {"requested_bytes": ooms[-1]["size"],
                "device_free_bytes": ooms[-1]["device_free"]} if ooms else None
print(json.dumps({str(k): v for k, v in sorted(out.items())}, sort_keys=True))
EOF
# oomlab's JSON reduced to the oracle's keys
cat > "$W/ours.py" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
out = {}
for d in j["devices"]:
    o = {k: d[k] for k in ("reserved_bytes", "allocated_bytes", "active_bytes",
                           "largest_free_block_bytes")} if d["segments"] else {}
    if d["trace"] is not None:
        o["trace_entries"] = d["trace"]["entries"]
        o["peak_allocated_bytes"] = d["trace"]["peak_allocated_bytes"]
        o["oom"] = None if d["oom"] is None else {k: d["oom"][k] for k in
                                                  ("requested_bytes", "device_free_bytes")}
    out[str(d["device"])] = o
print(json.dumps(out, sort_keys=True))
EOF

# 1. Every fixture: oomlab's figures are pickle.load's.
for f in oom history-2.0 two-devices segment-list before after; do
  "$OOMLAB" snapshot --json "$S/$f.pickle" > "$W/$f.json" 2> "$W/$f.err"; rc=$?
  want=$($PY "$W/oracle.py" "$S/$f.pickle"); got=$($PY "$W/ours.py" "$W/$f.json" 2>&1)
  why="exit $rc; got $got; want $want; $(head -2 "$W/$f.err")"
  check "snapshot-figures-$f" test "$rc" -le 1 -a "$got" = "$want"
done

# 2. torch's own reading (1.13's _memory_viz.stats sums the blocks by state).
if $PY -c 'import torch.cuda._memory_viz' 2>/dev/null; then
  want=$($PY -c 'import pickle, sys
from torch.cuda._memory_viz import stats
s = stats(pickle.load(open(sys.argv[1], "rb"))["segments"])
print(s["total_size"].value, s["active_allocated"].value)' "$S/oom.pickle")
  got=$($PY -c 'import json, sys
d = json.load(open(sys.argv[1]))["devices"][0]
print(d["reserved_bytes"], d["allocated_bytes"])' "$W/oom.json")
  why="torch: $want; oomlab: $got"
  check snapshot-torch-memory-viz test -n "$want" -a "$want" = "$got"
else
  echo "ok snapshot-torch-memory-viz # skip: torch not importable by $PY"
fi

# 3. The text report: the OOM against the largest free block, stacks with
#    the user's frames first, the leak; exit 1 (the trace records an OOM).
"$OOMLAB" snapshot "$S/oom.pickle" > "$W/oom.txt" 2>&1; rc=$?
why="exit $rc; $(cat "$W/oom.txt")"
check snapshot-text test "$rc" = 1 \
  -a -n "$(grep -F 'OOM at trace entry 150: 2.00 GiB requested, 1.10 GiB free on the device' "$W/oom.txt")" \
  -a -n "$(grep -F 'largest free cached block: 8.00 MiB of 961.99 MiB free in the cache:' "$W/oom.txt")" \
  -a -n "$(grep -E '^ +27.00 GiB +2  train.py:81 train_step < train.py:101 main$' "$W/oom.txt")" \
  -a -n "$(grep -F 'leak candidates' "$W/oom.txt")"
why="$(awk 'length > 80' "$W/oom.txt")"
# 80 columns, apart from the header line that names the file as given (a
# path can be longer than any line): read it by a short name.
(cd "$S" && "$OOMLAB" snapshot oom.pickle) > "$W/oom-short.txt" 2>&1
check snapshot-text-80-columns test -z "$(awk 'length > 80' "$W/oom-short.txt")"
"$OOMLAB" snapshot "$S/before.pickle" > /dev/null 2>&1; rc=$?
check snapshot-no-oom-exit-0 test "$rc" = 0

# 4. .gz reads like the plain file.
"$OOMLAB" snapshot --json "$S/oom.pickle.gz" | grep -v '"file"' > "$W/gz.json"
grep -v '"file"' "$W/oom.json" > "$W/plain.json"
why="$(diff "$W/gz.json" "$W/plain.json" | head -5)"
check snapshot-gzip cmp -s "$W/gz.json" "$W/plain.json"

# 5. Two files: what grew, by stack.
"$OOMLAB" snapshot --json "$S/before.pickle" "$S/after.pickle" > "$W/diff.json"; rc=$?
got=$($PY -c 'import json, sys
g = json.load(open(sys.argv[1]))
print(g["schema"], g["grew"][0]["frames"][0], g["grew"][0]["delta_bytes"], len(g["grew"]))' "$W/diff.json" 2>&1)
why="exit $rc; $got"
check snapshot-growth test "$rc" = 0 -a "$got" = "oomlab.snapshot-diff.v1 /work/train.py:57 train_step 15360 1"

# 6. Hostile files: exit 2 with the reason, and nothing executed.
$PY - "$W" <<'EOF'
import os, pickle, sys
class Touch:
    def __reduce__(self):
        return (os.system, ("touch %s/pwned" % sys.argv[1],))
open(sys.argv[1] + "/evil.pickle", "wb").write(pickle.dumps({"segments": [Touch()]}, protocol=4))
open(sys.argv[1] + "/evil2.pickle", "wb").write(pickle.dumps({"segments": [Touch()]}, protocol=2))
EOF
for f in "$W/evil.pickle" "$W/evil2.pickle"; do
  "$OOMLAB" snapshot "$f" > /dev/null 2> "$W/evil.err"; rc=$?
  why="exit $rc; $(cat "$W/evil.err"); pwned: $(ls "$W"/pwned 2>&1)"
  check "snapshot-refuses-code-$(basename "$f" .pickle)" test "$rc" = 2 -a ! -e "$W/pwned" \
    -a -n "$(grep -E 'GLOBAL.*refused' "$W/evil.err")"
done
for f in truncated:truncated reduce:refused global:GLOBAL deep:'nested deeper' \
         huge-length:'memory limit' unknown-opcode:'unknown opcode' memo-unset:'before it is stored' \
         not-a-snapshot:'not a memory snapshot' protocol0:'protocol 2 or later' empty:'empty file (0 bytes)'; do
  name=${f%%:*} want=${f#*:}
  "$OOMLAB" snapshot "$S/$name.pickle" > "$W/h.out" 2> "$W/h.err"; rc=$?
  why="exit $rc; $(cat "$W/h.err")"
  check "snapshot-hostile-$name" test "$rc" = 2 -a -n "$(grep -F "$want" "$W/h.err")" \
    -a ! -s "$W/h.out"
done

# 7. Not a regular file: refused at once (a FIFO would block open/read).
mkfifo "$W/fifo"
timeout 10 "$OOMLAB" snapshot "$W/fifo" > /dev/null 2> "$W/fifo.err"; rc=$?
why="exit $rc; $(cat "$W/fifo.err")"
check snapshot-fifo test "$rc" = 2 -a -n "$(grep -F 'not a regular file' "$W/fifo.err")"
"$OOMLAB" snapshot "$W/missing.pickle" 2> "$W/m.err"; rc=$?
why="exit $rc; $(cat "$W/m.err")"
check snapshot-missing test "$rc" = 2 -a -n "$(grep -F 'No such file' "$W/m.err")"
"$OOMLAB" snapshot --top 0 "$S/oom.pickle" 2>/dev/null; rc1=$?
"$OOMLAB" snapshot 2>/dev/null; rc2=$?
"$OOMLAB" snapshot a b c 2>/dev/null; rc3=$?
why="exits $rc1 $rc2 $rc3"
check snapshot-usage test "$rc1$rc2$rc3" = 222

# 8. A streamed 20 MB snapshot: the trace's entries all counted, in far less
#    memory than the file (Python's pickle.load holds it all).
$PY "$S/gen_snapshot.py" big "$W/big.pickle" 20 > /dev/null
got=$($PY - "$OOMLAB" "$W/big.pickle" <<'EOF'
import json, pickle, resource, subprocess, sys
out = subprocess.run([sys.argv[1], "snapshot", "--json", sys.argv[2]], capture_output=True)
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
entries = json.loads(out.stdout)["devices"][0]["trace"]["entries"]
want = len(pickle.load(open(sys.argv[2], "rb"))["device_traces"][0])
print(out.returncode, entries == want, rss < 40, rss)
EOF
)
why="exit, entries match, rss < 40 MiB, rss MiB: $got"
check snapshot-streamed-20mb test "${got% *}" = "1 True True"
"$OOMLAB" snapshot --memory-limit 16MiB "$W/big.pickle" > /dev/null 2>&1; rc=$?
why="exit $rc"
check snapshot-memory-limit-streams test "$rc" = 1

# Snapshot-shaped pickles with nothing readable in them: 'segments' not a
# list, every segment without integer sizes. Before: exit 0 and "nothing was
# allocated when it was taken", which the file does not say. A real empty
# snapshot still reads (exit 0).
$PY - "$W" <<'EOF'
import pickle, sys
w = sys.argv[1]
seg = {"device": 0, "address": 0, "total_size": -5, "allocated_size": float("nan"), "blocks": []}
pickle.dump({"segments": 5}, open(w + "/seg-int.pickle", "wb"), protocol=4)
pickle.dump({"segments": [seg, seg]}, open(w + "/seg-nan.pickle", "wb"), protocol=4)
pickle.dump([seg], open(w + "/list-nan.pickle", "wb"), protocol=4)
pickle.dump({"segments": [], "device_traces": [[]]}, open(w + "/empty-ok.pickle", "wb"), protocol=4)
EOF
for f in seg-int seg-nan list-nan; do
    "$OOMLAB" snapshot "$W/$f.pickle" > "$W/$f.out" 2> "$W/$f.err"; rc=$?
    why="exit $rc: $(cat "$W/$f.err")"
    check "snapshot-unreadable-$f" test "$rc" = 2 -a -n "$(grep -F 'not a memory snapshot' "$W/$f.err")"
done
why="$(cat "$W/seg-int.err")"
check snapshot-unreadable-says-which grep -q "its 'segments' is of type int, not a list" "$W/seg-int.err"
"$OOMLAB" snapshot "$W/empty-ok.pickle" > "$W/empty-ok.out" 2> "$W/empty-ok.err"; rc=$?
why="exit $rc"
check snapshot-empty-still-reads test "$rc" = 0 -a -n "$(grep -F 'nothing was allocated' "$W/empty-ok.out")"

bad=$(grep -l -E 'Sanitizer|runtime error' "$W"/*.err 2>/dev/null | head -3)
why="$bad"
check snapshot-no-sanitizer-report test -z "$bad"
exit 0
