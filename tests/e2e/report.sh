#!/usr/bin/env bash
# oomlab report in a real headless Chromium: the page loads with no console
# message and no network request (a local server counts them; a control
# page proves it would see one), hostile log/config/command bytes render as
# text, the charts hold the expected series, points and OOM marker, a
# screenshot matches the reference within a tolerance; --svg; errors.
. "$(dirname "$0")/lib/run-common.bash"
. "$OOMLAB_ROOT/tests/report/browser.bash"
FIX=$OOMLAB_ROOT/tests/report/fixture
if [ -z "$CHROMIUM" ] || [ ! -x /usr/bin/compare ]; then
  bad report.browser "chromium and imagemagick are needed (scripts/setup installs them)"; exit 0
fi
dom() { browser "$2.err" --dump-dom "file://$1" > "$2.dom"; /usr/bin/python3 "$OOMLAB_ROOT/tests/report/dom.py" "$2.dom" > "$2"; }

fresh walk
cp -r "$FIX"/. .
"$OOMLAB" report > out 2>err; rc=$?
check report.default-last-run test "$rc" -eq 0 -a "$(cat out)" = "./reports/run002.html" -a -s reports/run002.html
"$OOMLAB" report run001 run002 > out 2>err
check report.two-runs-path test "$(cat out)" = "./reports/run001+run002.html"
dom "$PWD/reports/run001+run002.html" two
check report.no-console-message test "$(grep -c 'CONSOLE' two.err)" -eq 0
check report.nine-charts test "$(grep -c '^chart ' two)" -eq 9
check report.no-active-element test "$(grep -c '^element ' two)" -eq 0
# every id once (the overlay and each run's section had the same chart ids)
check report.ids-unique test -z "$(grep -o ' id="[^"]*"' reports/run001+run002.html | sort | uniq -d)"
check report.overlay-two-runs test "$(awk '$1=="series" && $2=="steps"' two | head -2 | awk '{print $3}' | tr '\n' ' ')" = "run001 run002 "
steps1=$(grep -c 'peak_reserved=' logs/run001.log)
check report.overlay-points test "$(awk '$1=="series" && $2=="steps" && $3=="run001" {print $4; exit}' two)" -eq "$steps1"
rows1=$(grep -c '^[0-9]' logs/run001_mem.csv)
check report.memory-points test "$(awk '$1=="series" && $2=="memory-1" && $3=="GPU_0_used" {print $4; exit}' two)" -eq "$rows1"
oom_step=$("$OOMLAB" diagnose --json logs/run001.log | /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); print([e for e in d["events"] if e["gpu_oom"]][0]["step"])')
check report.oom-marker-at-step test "$(awk '$1=="marker" && $2=="steps-1" {print $3; exit}' two)" = "$oom_step"
oom_line=$(grep -n 'OutOfMemoryError' logs/run001.log | head -1 | cut -d: -f1)
check report.excerpt-marks-oom-line grep -q "<span class=\"hit\"> *$oom_line  torch.OutOfMemoryError" reports/run001+run002.html
check report.excerpt-has-context test "$(grep -c '<span class="ln">' reports/run001+run002.html)" -ge 10
check report.one-move-named grep -q 'one move: batch traded for accumulation' reports/run001+run002.html
check report.csp grep -q "Content-Security-Policy\" content=\"default-src 'none'" reports/run001+run002.html

# The look, against the stored reference (small grey thumbnails).
browser shot.err --window-size=800,2200 --screenshot="$PWD/shot.png" "file://$PWD/reports/run001+run002.html" >/dev/null
shrink shot.png small.png
rmse=$(/usr/bin/compare -metric RMSE small.png "$OOMLAB_ROOT/tests/report/reference.png" null: 2>&1 | sed -n 's/.*(\([0-9.e-]*\)).*/\1/p')
check report.screenshot-matches-reference awk -v r="${rmse:-1}" 'BEGIN{exit !(r < 0.03)}'
browser pdf.err --print-to-pdf="$PWD/r.pdf" --no-pdf-header-footer "file://$PWD/reports/run001+run002.html" >/dev/null
check report.prints test "$(stat -c %s r.pdf 2>/dev/null || echo 0)" -gt 20000

# Hostile bytes in the log, the config and the command; a server that counts requests.
fresh hostile
port_file=$PWD/port; reqs=$PWD/reqs.log; : > "$reqs"
/usr/bin/python3 - "$port_file" "$reqs" <<'PY' &
import http.server, sys, threading
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        open(sys.argv[2], "a").write(self.path + "\n"); self.send_response(404); self.end_headers()
    def log_message(self, *a): pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
open(sys.argv[1], "w").write(str(s.server_port))
threading.Timer(60, s.shutdown).start()
s.serve_forever()
PY
srv=$!
wait_for "the server's port" nonempty "$port_file"
P=$(cat "$port_file")
bait="<img src=\"http://127.0.0.1:$P/img\"><script>alert(1)</script></svg><link rel=stylesheet href=http://127.0.0.1:$P/css>"
printf "x: '%s'\n" "$bait" > cfg.yaml
"$OOMLAB" run -q --config cfg.yaml --note "$bait" -- sh -c 'printf "%s\n\377\376 bad \033[31mred\033[0m\n" "$1"; echo "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 8.00 GiB of which 1.00 GiB is free."; exit 1' sh "$bait" >/dev/null 2>&1
"$OOMLAB" report run001 -o page.html > /dev/null 2>err
dom "$PWD/page.html" hostile
printf '<!DOCTYPE html><img src="http://127.0.0.1:%s/control">' "$P" > control.html
browser control.err --dump-dom "file://$PWD/control.html" > /dev/null
# the server takes requests in turn: once the control page's is in, any the
# hostile page made (it was loaded first) is too
poll has_line "$reqs" '^/control$'
check report.control-page-is-seen grep -q '^/control$' "$reqs"
check report.hostile-no-request test "$(grep -vc '^/control$' "$reqs")" -eq 0
check report.hostile-no-active-element test "$(grep -c '^element ' hostile)" -eq 0
check report.hostile-no-console test "$(grep -c 'CONSOLE' hostile.err)" -eq 0
check report.hostile-as-text grep -q '&lt;script&gt;alert(1)&lt;/script&gt;&lt;/svg&gt;' page.html
check report.hostile-invalid-utf8 grep -q '&#xFFFD;&#xFFFD; bad &#x241B;\[31mred' page.html
check report.hostile-utf8-valid /usr/bin/python3 -c 'open("page.html", encoding="utf-8", errors="strict").read()'
kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null

# A log with a zero-filled block (what a node crash or a hard reset leaves
# on ext4/NFS before the next write): the NULs and the OOM line after them
# are one line. Before stranger23 the excerpt was a C string cut at the
# first NUL: the OOM line showed as empty, the bytes after it lost.
fresh nul-block
mkdir logs
{ echo "step=1 peak_alloc=10.00GB peak_reserved=10.50GB loss=2.0"
  head -c 64 /dev/zero
  echo "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 24.00 GiB of which 1.00 GiB is free."
  printf 'tail\000after the nul\n'; } > logs/r1.log
printf 'run_id,peak_reserved_GB,capacity_GB,oom\nr1,10.5,24,yes\n' > runs.csv
"$OOMLAB" report r1 -o nul.html >/dev/null 2>err; rc=$?
check report.nul-exit test "$rc" -eq 0
# (␀){64}: the 64 NULs, one mark each; a group, so the count holds in the C
# locale too, where ␀ is three bytes and ␀* would repeat only the last
check report.nul-oom-line-kept grep -Eq '<span class="hit"> *2  (␀){64}torch\.OutOfMemoryError: CUDA out of memory' nul.html
check report.nul-after-kept grep -q '<span class="ln"> *3  tail␀after the nul</span>' nul.html
check report.nul-utf8-valid /usr/bin/python3 -c 'open("nul.html", encoding="utf-8", errors="strict").read()'

# --svg: one standalone chart
fresh svg
cp -r "$FIX"/. .
"$OOMLAB" report --svg steps run001 > out 2>err
check report.svg-path test "$(cat out)" = "./reports/run001-steps.svg"
check report.svg-is-xml /usr/bin/python3 -c 'import xml.etree.ElementTree as E,sys; r=E.parse("reports/run001-steps.svg").getroot(); ns="{http://www.w3.org/2000/svg}"; assert r.tag==ns+"svg"; assert len([g for g in r.iter(ns+"g") if "series" in g.get("class","")])==2'
"$OOMLAB" report --svg loss run002 -o - > loss.svg 2>err
check report.svg-stdout grep -q 'data-series="loss"' loss.svg

# A day of samples: thinned, extremes kept, built quickly.
fresh long
cp -r "$FIX"/. .
/usr/bin/python3 - <<'PY'
lines = open("logs/run002_mem.csv").read().split("\n")
head = [l for l in lines if l.startswith("#") or l.startswith("timestamp")]
rows = ["2026-12-01T00:00:00.000Z,%d,0,%d,24576,0,50," % (i * 10, 30000 if i == 123457 else 6000 + i % 7) for i in range(200000)]
open("logs/run002_mem.csv", "w").write("\n".join(head[:-1] + [head[-1]] + rows) + "\n")
PY
"$OOMLAB" report run002 -o long.html > /dev/null 2>err
dom "$PWD/long.html" long
drawn=$(awk '$1=="series" && $2=="memory" {print $4, $5; exit}' long)
check report.long-all-points-counted test "${drawn% *}" -eq 200000
check report.long-thinned test "${drawn#* }" -le 2800
# the one 29.3 GiB sample among 6 GiB ones still sets the axis (a 30 tick)
check report.long-spike-kept grep -q '>30</text>' long.html

# An OOM early in a long log: its excerpt comes from a second read.
fresh early
"$OOMLAB" run -q -- sh -c 'echo before; echo "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."; seq 1 500; exit 1' >/dev/null 2>&1
"$OOMLAB" report run001 -o early.html >/dev/null 2>err
check report.early-excerpt grep -q '<span class="hit">     2  torch.OutOfMemoryError' early.html
check report.early-excerpt-after grep -q '<span class="ln">     8  6</span>' early.html

# A peak from the OOM message is a lower bound, and said so.
fresh bound
"$OOMLAB" run -q -- sh -c 'echo "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 24.00 GiB of which 1.00 GiB is free. Of the allocated memory 20.00 GiB is allocated by PyTorch, and 1.00 GiB is reserved by PyTorch but unallocated."; exit 1' >/dev/null 2>&1
"$OOMLAB" run -q -- sh -c 'echo "step=1 loss=2.0 peak_alloc=10.00GB peak_reserved=12.00GB"' >/dev/null 2>&1
"$OOMLAB" report run001 run002 -o b.html >/dev/null 2>err
check report.lower-bound-shown grep -q 'peak &#8805; 21.00 GiB &#8594; 12.00 GiB (at least 9.00 GiB less)' b.html

# Line times: run writes logs/ID.idx; step lines and the OOM sit at their arrival time on the memory chart.
fresh timed
mkdir -p nvml/procs; echo '0 25769803776 536870912 0 Fake RTX 24GB' > nvml/gpus
OOMLAB_NVML_LIBRARY=$OOMLAB_BUILD/fakes/libnvidia-ml.so.1 OOMLAB_FAKE_NVML_DIR=$PWD/nvml \
  "$OOMLAB" run -q --interval 50ms -- sh -c 't() { date +%s%N >> "$1"; }; t "$0"; echo "step=1 loss=2.0 peak_alloc=1.00GB peak_reserved=2.00GB"; sleep 1.5
    t "$0"; echo "step=2 loss=1.5 peak_alloc=1.50GB peak_reserved=2.50GB"; sleep 0.5
    t "$0"; echo "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."; exit 1' "$PWD/line.ns" >/dev/null 2>&1
check report.index-written grep -qx '# oomlab log index v1' logs/run001.idx
check report.index-ends-at-log-size test "$(tail -1 logs/run001.idx | cut -d' ' -f1)" -eq "$(stat -c %s logs/run001.log)"
"$OOMLAB" report run001 -o t.html >/dev/null 2>err
at() { sed -n "s/.*data-marker=\"$1\" data-x=\"\([0-9.e+-]*\)\".*/\1/p" t.html | sed -n "${2:-1}p"; }
near() { awk -v v="${1:-x}" -v w="$2" 'BEGIN{exit !(v != "x" && v - w < 0.35 && w - v < 0.35)}'; }
# where each line should sit: when the child wrote it (its own clock, just
# before the echo), from the run's start. Not 1.5 s and 2.0 s: on a loaded
# machine starting sh and each sleep can add tenths of a second, and the
# tolerance (0.35 s) is for oomlab's own stamping, not for the machine.
written() { python3 -c 'import sys,datetime
s=[l.split(": ",1)[1].strip() for l in open(sys.argv[1]) if l.startswith("# start: ")][0]
t0=datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc).timestamp()
print("%.3f" % (int(open(sys.argv[2]).read().split()[int(sys.argv[3]) - 1]) / 1e9 - t0))' logs/run001.idx line.ns "$1" 2>/dev/null; }
check report.step-at-arrival near "$(at step 2)" "$(written 2)"
check report.oom-at-arrival near "$(at oom)" "$(written 3)"
check report.steps-apart-as-written awk -v a="$(at step 1)" -v b="$(at step 2)" 'BEGIN{exit !(a != "" && b - a > 1.3)}'
check report.step-dots grep -q 'data-series="peak reserved (step lines)" data-n="2"' t.html
check report.index-said grep -q 'step lines at the time they reached the log (logs/run001.idx)' t.html
rm logs/run001.idx   # a run from before the index: interpolation, said so
"$OOMLAB" report run001 -o t.html >/dev/null 2>err
check report.no-index-interpolated grep -q 'no line-time index (logs/run001.idx): step lines placed by interpolation' t.html
printf '# oomlab log index v1\n0 0\n50 9\n40 10\n' > logs/run001.idx   # out of order
"$OOMLAB" report run001 -o t.html >/dev/null 2>err; rc=$?
check report.bad-index-said test "$rc" -eq 0 -a -n "$(grep -l 'run001.idx is damaged' t.html)"

# Run ids from a ledger edited by hand (run refuses such ids; older ledgers
# and spreadsheets have them): markup in an id is text in every place it
# shows (headings, the ledger table, what changed, data-run), a non-ASCII
# id names its page, and the page loads clean (stranger25).
fresh ids
"$OOMLAB" run -q --id base -- sh -c 'echo step=1 loss=2.0 peak_alloc=1.0GB peak_reserved=2.00GB' >/dev/null 2>&1
/usr/bin/python3 - <<'PY'
import csv
rows = list(csv.reader(open("runs.csv", newline="")))
for rid in ["<img src=x onerror=alert(1)>", "ünïcode😀"]:
    rows.append([rid] + rows[-1][1:])
csv.writer(open("runs.csv", "w", newline="")).writerows(rows)
PY
"$OOMLAB" report 'ünïcode😀' > out 2>err; rc=$?
check report.unicode-id-page test "$rc" -eq 0 -a "$(cat out)" = "./reports/ünïcode😀.html" -a -s "reports/ünïcode😀.html"
"$OOMLAB" report base '<img src=x onerror=alert(1)>' 'ünïcode😀' -o ids.html > /dev/null 2>err
dom "$PWD/ids.html" ids
check report.markup-id-no-element test "$(grep -c '^element ' ids)" -eq 0
check report.markup-id-no-console test "$(grep -c 'CONSOLE' ids.err)" -eq 0
check report.markup-id-as-text test "$(grep -c '&lt;img src=x onerror=alert(1)&gt;' ids.html)" -ge 4
check report.unicode-id-utf8 /usr/bin/python3 -c 'assert "<h2>Run ünïcode😀</h2>" in open("ids.html", encoding="utf-8", errors="strict").read()'

# errors
fresh errors
"$OOMLAB" report > /dev/null 2>err; check report.no-ledger-exit2 test $? -eq 2
cp -r "$FIX"/. .
"$OOMLAB" report nosuch > /dev/null 2>err; rc=$?
check report.unknown-run-exit2 test "$rc" -eq 2
check report.unknown-run-says grep -q "no run 'nosuch'" err
"$OOMLAB" report --svg pie > /dev/null 2>err; check report.bad-svg-exit2 test $? -eq 2
"$OOMLAB" report -o /nonexistent/dir/r.html > /dev/null 2>err; check report.unwritable-exit3 test $? -eq 3
# -o naming a FIFO or a directory: refused, left as it was (the rename
# replaced them; as root, report -o /dev/full turned the device into a file)
mkfifo fifo.html; mkdir dir.html
"$OOMLAB" report -o fifo.html > /dev/null 2>err; rc=$?
check report.fifo-refused-exit3 test "$rc" -eq 3 -a -p fifo.html -a -n "$(grep 'refusing to replace fifo.html: it is a FIFO' err)"
"$OOMLAB" report -o dir.html > /dev/null 2>err; rc=$?
check report.dir-refused-exit2-names-the-file test "$rc" -eq 2 -a -d dir.html -a -n "$(grep -e '-o dir.html: is a directory; name the file, e.g. -o dir.html/' err)"

# An empty memory chart says why in the memory log's own words; a memory
# log that is corrupt is said to be so, not "not sampled" (it was).
fresh memnote
cp -r "$FIX"/. .
printf '# oomlab memory log v1\n# GPU memory not sampled: cannot load NVML (x): no driver\n' > logs/run001_mem.csv
"$OOMLAB" report run001 -o n.html >/dev/null 2>err
check report.mem-not-sampled-why grep -q 'not sampled for this run: cannot load NVML (x): no driver' n.html
head -c 4096 /dev/urandom | tr -d '\n' > logs/run001_mem.csv
"$OOMLAB" report run001 -o c.html >/dev/null 2>err
check report.mem-corrupt-said grep -q 'run001_mem.csv is not a memory log oomlab wrote' c.html
check report.mem-corrupt-not-unsampled sh -c '! grep -q "was not sampled" c.html'
rm logs/run001_mem.csv
"$OOMLAB" report run001 -o m.html >/dev/null 2>err
check report.mem-missing-said grep -q 'not sampled for this run (no logs/run001_mem.csv)' m.html
# rows whose cells are all empty (NVML could not read the GPU) are not "no sample"
printf '# oomlab memory log v1\n# gpu 0: NVML: GPU 0: cannot read memory: GPU is lost (15)\ntimestamp,elapsed_ms,gpu,used_mib,total_mib,free_mib,util_pct,tree_mib\n2026-12-05T21:55:29.663Z,0,0,,,,,\n2026-12-05T21:55:29.701Z,38,0,,,,,\n' > logs/run001_mem.csv
"$OOMLAB" report run001 -o e.html >/dev/null 2>err
check report.mem-empty-rows-said grep -q 'the 2 rows of logs/run001_mem.csv hold no figure' e.html
# --svg of a chart with nothing to draw says so on stderr (still exit 0)
"$OOMLAB" report --svg memory run001 -o e.svg >/dev/null 2>err; rc=$?
check report.svg-empty-said test "$rc" -eq 0 -a -n "$(grep 'run001: the SVG is an empty chart: No memory chart' err)"
"$OOMLAB" report --svg steps run001 -o s.svg >/dev/null 2>err
check report.svg-with-data-quiet test ! -s err

# A hand-edited ledger's absurd figures (1e308 GiB): the peak change and the
# capacity line are written in full (%.3g past 1e9). Before: "%.2f" into a
# 32-byte buffer cut the peak to 31 digits and dropped its unit.
fresh absurd
cp -r "$FIX"/. .
/usr/bin/python3 - <<'PY'
import csv
rows = list(csv.reader(open("runs.csv")))
h = rows[0]
for r in rows[1:]:
    if r[0] == "run002":
        r[h.index("peak_reserved_GB")] = "1e308"
        r[h.index("capacity_GB")] = "1e300"
csv.writer(open("runs.csv", "w", newline="")).writerows(rows)
PY
"$OOMLAB" report run001 run002 -o a.html >/dev/null 2>err; rc=$?
check report.absurd-exit0 test "$rc" -eq 0
check report.absurd-peak-whole grep -q 'peak 22.80 GiB &#8594; 1e+308 GiB (+1e+308 GiB)' a.html
# A loss logged as nan at every step is said so, not "No loss in this log"
# (the ledger's loss_trend for such a log is nan).
fresh nanloss
cp -r "$FIX"/. .
sed -i 's/loss=[0-9.]*/loss=nan/' logs/run002.log
"$OOMLAB" report run002 -o n.html >/dev/null 2>err; rc=$?
check report.nan-loss-said test "$rc" -eq 0 -a -n "$(grep -F 'The loss in this log is nan or inf at every step.' n.html)"
check report.nan-loss-not-missing test "$(grep -c 'No loss in this log' n.html)" -eq 0
# The limit on ids is said in --help (it was only in the refusal).
"$OOMLAB" report r1 r2 r3 r4 r5 r6 r7 r8 r9 >/dev/null 2>err; rc=$?
check report.nine-ids-refused test "$rc" -eq 2 -a -n "$(grep -F 'at most 8 runs in one report' err)"
check report.help-says-limit sh -c '"$OOMLAB" report --help | grep -q "Several ids (up to"'
# A reason that ends in its own '?' gets no '.' after it (NVML missing:
# "... no NVIDIA driver on this machine?." read as a typo).
fresh nonvml
OOMLAB_NVML_LIBRARY=/nonexistent/libnvidia-ml.so.1 "$OOMLAB" run -q --id nv -- true 2>/dev/null
"$OOMLAB" report nv -o nv.html >/dev/null 2>err; rc=$?
check report.not-sampled-said test "$rc" -eq 0 -a -n "$(grep -F 'Device memory was not sampled for this run: ' nv.html)"
# ... and whole: it names the library's path twice (it was cut at 159 bytes)
check report.not-sampled-whole grep -q 'no NVIDIA driver on this machine?</' nv.html
check report.not-sampled-one-stop test "$(grep -c '?\.</' nv.html)" -eq 0
# Eight runs with long commands: the ledger fits the page (it ran ~2300 px
# wide past a 1000 px page, its last runs cut off in print): the right
# margin of a 1100 px window stays white from top to bottom.
fresh wide
for b in 1 2 3 4 5 6 7 8; do "$OOMLAB" run -q -- "$SIM" --batch "$b" --seq 64 --steps 2 >/dev/null 2>&1; done
"$OOMLAB" report run001 run002 run003 run004 run005 run006 run007 run008 -o w.html >/dev/null 2>err
browser wshot.err --window-size=1100,3000 --screenshot="$PWD/w.png" "file://$PWD/w.html" >/dev/null
margin=$(/usr/bin/convert w.png -crop 40x3000+1058+0 +repage -colorspace Gray -format '%[fx:minima]' info: 2>/dev/null)
check report.ledger-fits-page test "$margin" = 1
# A run whose per-step peak climbs to its OOM: the report's first fix is
# diagnose's first, the leak hunt (it planned without the trend and put
# expandable_segments first).
fresh leak
"$OOMLAB" run -q --id leak -- "$SIM" --batch 48 --seq 1024 --growth-mb 300 --steps 60 >/dev/null 2>&1
"$OOMLAB" report leak -o leak.html >/dev/null 2>err
check report.leak-first-fix sh -c 'grep -A1 "First fixes" leak.html | tail -1 | grep -q "^<li><b>Hunt the leak before changing sizes"'
check report.leak-first-fix-why grep -q 'the per-step peak grows before the OOM: peak reserved' leak.html
