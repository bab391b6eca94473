#!/usr/bin/env bash
# Runs with ranks (issue 16) on the fake card: one oomlab per rank under the
# srun stand-in (2 simulated hosts, one shard each), one oomlab wrapping the
# torchrun stand-in (its ranks' own logs and rows, and its restarts kept
# apart), another job refused the same id, and 200 concurrent
# rank appends across 8 simulated hosts with no row lost or mangled.
. "$(dirname "$0")/lib/run-common.bash"
F="$OOMLAB_ROOT/tests/fakes"
card() { # 4 fake 80 GB cards in ./nv
  mkdir -p nv/procs
  for i in 0 1 2 3; do echo "$i 85899345920 536870912 35 NVIDIA A100-SXM4-80GB"; done > nv/gpus
  export OOMLAB_FAKE_NVML_DIR=$PWD/nv OOMLAB_NVML_LIBRARY="$OOMLAB_BUILD/fakes/libnvidia-ml.so.1"
}
job() { python3 -c 'import json,sys; d=json.load(sys.stdin)["runs"][0]; print(*[d[k] for k in sys.argv[1:]])' "$@"; }

# --- srun oomlab run: 4 ranks on 2 hosts, rank 2 OOMs, the rest time out ---
fresh srun
card
"$F/fakelaunch" --srun -n 4 --nodes 2 --job-id 900 --label --gpus-per-task -- \
  "$OOMLAB" run --id j --set batch=4 -- "$F/ranktrain" --oom-rank 2 -- "$SIM" --steps 5 --sleep-ms 20 --config {config} >out 2>err
check srun.exit-is-a-rank-s-worst test $? -eq 134
check srun.files-per-rank test "$(cd logs && ls j_rank*.log | tr '\n' ' ')" = "j_rank0.log j_rank1.log j_rank2.log j_rank3.log "
check srun.mem-per-rank test "$(ls logs/j_rank*_mem.csv | wc -l)" -eq 4
check srun.config-once test "$(ls configs)" = "j.yaml"
check srun.no-runs-csv test ! -e runs.csv
check srun.one-shard-per-host test "$(ls runs.d | tr '\n' ' ')" = "node0.csv node1.csv "
check srun.label-prefix grep -q '^2: .*CUDA out of memory' out
check srun.one-row test "$("$OOMLAB" table --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["runs"]))')" -eq 1
check srun.worst-rank-is-the-oom test "$("$OOMLAB" table --json | job ranks worst_rank oom exit_status job_id)" = "4 2 True 1 slurm:900"
check srun.first-failure-note grep -q 'first to fail: rank 2 (exit 1, GPU OOM); 3 other ranks failed after it' <("$OOMLAB" table --json)
# diagnose of the job's run id reads every rank's log: the OOM rank is the
# root cause, the others' watchdog timeouts its consequences
"$OOMLAB" diagnose --json j > diag.json
check srun.diagnose-root-cause-rank python3 -c '
import json; d = json.load(open("diag.json")); r = d["runs"][0]; e = d["events"]
root = e[r["primary"]] if "primary" in r else None
assert root and root["rank"] == 2 and root["gpu_oom"], (r, root)
assert all(x["consequence"] for x in e if x["rank"] != 2), e'
# the logs do not say the job id; the run's ledger row (from the launcher) does
check srun.diagnose-job-id-from-ledger test "$(python3 -c 'import json; print(json.load(open("diag.json"))["runs"][0]["job_id"])')" = slurm:900
"$OOMLAB" diagnose j > diag.txt
check srun.diagnose-text-names-job grep -q 'job slurm:900' diag.txt
check srun.rank-gpu test "$("$OOMLAB" table --json | python3 -c 'import json,sys; print(*[r["gpu"] for r in json.load(sys.stdin)["runs"][0]["rank_rows"]])')" = "0 1 0 1"
check srun.rank-mem-csv-own-gpu test "$(grep -v '^#' logs/j_rank1_mem.csv | awk -F, '$1 != "timestamp" {print $3}' | sort -u | tr -d '\n')" = 1
check srun.table-ranks grep -q '^  rank 3 ' <("$OOMLAB" table --ranks)
check srun.watchdog-lines grep -q '^\[rank1\]:\[E.*Watchdog caught collective operation timeout' logs/j_rank1.log
# the job's whole output (srun -l's "N: " labels and srun's own task lines,
# as slurm-900.out holds them): the OOM task is the cause, srun's lines for
# the others consequences
fresh srun-out
card
"$F/fakelaunch" --srun -n 4 --nodes 2 --job-id 900 --label --gpus-per-task -- \
  "$OOMLAB" run --id j -- "$F/ranktrain" --oom-rank 2 -- "$SIM" --steps 5 --sleep-ms 20 >slurm-900.out 2>&1
check srun.srun-error-lines test "$(grep -c '^srun: error: node[01]: tasks* [0-9,-]*: Exited with exit code' slurm-900.out)" -ge 2
"$OOMLAB" diagnose slurm-900.out > diag.txt
check srun.diagnose-srun-cause grep -q 'launcher: srun: task 2 on node1: exit code 1 (line [0-9]*): task 2 is rank 2, which' diag.txt
check srun.diagnose-srun-consequence grep -q "after rank 2's GPU" diag.txt
"$OOMLAB" diagnose --json slurm-900.out > diag.json
check srun.diagnose-srun-json python3 -c '
import json; d = json.load(open("diag.json"))
t = d["logs"][0]["launcher"]["srun_tasks"]
assert sum(x["n_tasks"] for x in t) == 4 and all(x["end"] == "exit" for x in t), t
assert [x for x in t if x["tasks"] == "2"][0]["exitcode"] == 1, t'
cd "$SCRATCH/srun" || exit 2
# the same id in another job is refused; the same job's ranks may share it
SLURM_JOB_ID=901 SLURM_PROCID=0 SLURM_NTASKS=2 "$OOMLAB" run -q --id j -- true 2>err
check srun.other-job-refused test $? -eq 2
check srun.other-job-message grep -q "run id 'j' is taken (.*job slurm:900, this is slurm:901)" err
SLURM_JOB_ID=900 SLURM_PROCID=1 SLURM_NTASKS=4 "$OOMLAB" run -q --id j -- true 2>err
check srun.same-rank-twice-refused grep -q 'rank 1 of this job started twice' err
SLURM_JOB_ID=901 SLURM_PROCID=0 SLURM_NTASKS=1 OOMLAB_HOST=node0 "$OOMLAB" run -q --id j -- true 2>err
check srun.plain-run-refused test $? -eq 2
SLURM_JOB_ID=901 SLURM_PROCID=0 SLURM_NTASKS=2 "$OOMLAB" run -q --force --id j -- true 2>err
check srun.force-new-job test "$("$OOMLAB" table --json | job job_id ranks)" = "slurm:901 1"
SLURM_JOB_ID=902 SLURM_PROCID=1 SLURM_NTASKS=2 "$OOMLAB" run -q -- true 2>/dev/null
check srun.default-id-from-job test -e logs/slurm-902_rank1.log

# --- oomlab run -- torchrun: one run, the worst rank from the prefixed log ---
fresh torchrun
card
"$OOMLAB" run -q --id t -- "$F/fakelaunch" --torchrun --nproc 4 -- \
  "$F/ranktrain" --oom-rank 3 -- "$SIM" --steps 5 --sleep-ms 20 2>err
check torchrun.exit test $? -eq 1
check torchrun.worst-rank test "$("$OOMLAB" table --json | job ranks worst_rank oom oom_stage)" = "4 3 True backward"
check torchrun.notes grep -q '4 ranks in the log; worst rank 3 (log); first GPU OOM: rank 3' <("$OOMLAB" table --json)
check torchrun.summary grep -q 't: 4 ranks; worst rank 3 (log); first GPU OOM: rank 3' err
check torchrun.prefixed-log grep -q '^\[rank3\]:torch.OutOfMemoryError' logs/t.log
check torchrun.agent-summary grep -q 'Root Cause (first observed failure)' logs/t.log
check torchrun.ledger-is-runs-csv test -e runs.csv
# per rank: each rank's lines in its own log (the names srun oomlab run
# gives), a row per rank under the job's one row, the exit code from
# torchelastic's table where it names the rank
check torchrun.rank-logs test "$(cd logs && ls t_rank*.log | tr '\n' ' ')" = "t_rank0.log t_rank1.log t_rank2.log t_rank3.log "
check torchrun.rank-log-own-lines test "$(grep -c -v '^\[rank3\]:' logs/t_rank3.log)" -eq 0
check torchrun.rank-log-has-oom grep -q '^\[rank3\]:torch.OutOfMemoryError' logs/t_rank3.log
check torchrun.one-job-row test "$("$OOMLAB" table --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["runs"]))')" -eq 1
check torchrun.rank-rows test "$("$OOMLAB" table --json | python3 -c '
import json,sys
r = json.load(sys.stdin)["runs"][0]["rank_rows"]
print(*["%s:%s:%s:%s" % (x["rank"], x["restart"], x["oom"], x["exit_status"]) for x in r])')" = "0:0:False:None 1:0:False:None 2:0:False:None 3:0:True:1"
check torchrun.rank-row-peak test "$("$OOMLAB" table --json | python3 -c '
import json,sys
r = json.load(sys.stdin)["runs"][0]["rank_rows"]
print(r[3]["peak_source"], r[3]["peak_lower_bound"], r[0]["peak_source"], r[0]["peak_reserved_GB"])')" = "oom True log 4.2"
check torchrun.table-ranks grep -q '^  rank 3 ' <("$OOMLAB" table --ranks)
check torchrun.summary-per-rank grep -q 't: per rank: oomlab table --ranks; logs/t_rankN.log' err
# diagnose t reads logs/t.log once (its rank logs are copies of its lines)
"$OOMLAB" diagnose --json t > diag.json
check torchrun.diagnose-one-log python3 -c '
import json; d = json.load(open("diag.json"))
assert len(d["logs"]) == 1 and d["logs"][0]["path"].endswith("logs/t.log"), d["logs"]
assert sum(e["gpu_oom"] for e in d["events"]) == 1, d["events"]'
# the agent's SIGTERMs to the three others are consequences, named as such
check torchrun.diagnose-sigterms python3 -c '
import json; d = json.load(open("diag.json"))
l = d["logs"][0]["launcher"]
assert l["agent_sigterms"] == 3 and l["restarts"] == 0, l
assert [f["rank"] for f in l["failures"]] == [3], l'
check torchrun.diagnose-sigterm-text grep -q "^launcher: torchelastic's agent sent SIGTERM to 3 workers" <("$OOMLAB" diagnose t)
# --force with fewer ranks: the older run's rank logs do not stay
"$OOMLAB" run -q --force --id t -- "$F/fakelaunch" --torchrun --nproc 2 -- \
  "$F/ranktrain" --oom-rank 1 -- "$SIM" --steps 5 --sleep-ms 20 2>/dev/null
check torchrun.force-drops-old-rank-logs test "$(cd logs && ls t_rank*.log | tr '\n' ' ')" = "t_rank0.log t_rank1.log "

# --- a launcher that prefixes nothing: the ranks from NVML's processes, each
# mapped to its rank by the environment torchrun gave it ---
fresh noprefix
card
"$OOMLAB" run -q --interval 50ms --id n -- "$F/fakelaunch" --torchrun --nproc 4 --prefix none -- \
  "$F/ranktrain" --oom-rank 3 -- "$SIM" --steps 5 --sleep-ms 100 2>err
check noprefix.rank-rows-from-nvml test "$("$OOMLAB" table --json | python3 -c '
import json,sys
r = json.load(sys.stdin)["runs"][0]["rank_rows"]
print(*["%s:%s:%s" % (x["rank"], x["peak_source"], x["peak_reserved_GB"]) for x in r if x["rank"] in (0, 1, 2)])')" = "0:nvml:4.49 1:nvml:4.49 2:nvml:4.49"
# rank 3 is the worst when the sampler caught its memory before it died, else the tie goes to rank 0
check noprefix.worst-from-nvml grep -q -E 'n: [34] ranks; worst rank (0|3) \(nvml\)' err

# --- torchrun restarting its workers: attempts kept apart ---
fresh restart
card
"$OOMLAB" run -q --id r -- "$F/fakelaunch" --torchrun --nproc 4 --max-restarts 1 -- \
  "$F/ranktrain" --oom-rank 3 --oom-attempts 1 -- "$SIM" --steps 5 --sleep-ms 20 2>err
check restart.exit test $? -eq 0
check restart.rank-logs-per-attempt test "$(cd logs && ls r_rank3*.log | tr '\n' ' ')" = "r_rank3.log r_rank3_restart1.log "
check restart.attempt0-has-the-oom grep -q 'OutOfMemoryError' logs/r_rank3.log
check restart.attempt1-has-none test "$(grep -c 'OutOfMemoryError' logs/r_rank3_restart1.log)" -eq 0
# the job's row is the last attempt's; its notes name the attempt that OOMed
check restart.row-last-attempt test "$("$OOMLAB" table --json | job oom exit_status ranks)" = "False 0 4"
# every rank of the last attempt peaked at 4.20 GB: the tie goes to the lowest rank
check restart.worst-rank-tie-lowest test "$("$OOMLAB" table --json | job worst_rank)" = 0
check restart.notes-name-attempt grep -q 'torchelastic restarted the workers 1 time (this row: attempt 1); attempt 0: GPU OOM, rank 3 first; attempt 1: no GPU OOM' <("$OOMLAB" table --json)
check restart.summary grep -q 'r: torchelastic restarted the workers 1 time' err
# report shows the attempt the row is (the last), not attempt 0's OOM rank
# that came first in the rank rows' order; it showed r_rank3.log, whose OOM
# the row (oom no) does not have
"$OOMLAB" report r > report.out 2>report.err
check restart.report-latest-attempt grep -q "A job of 4 ranks (restart 1, the latest: the attempt its row is): its log, memory and steps below are rank 0&#39;s (logs/r_rank0_restart1.log)" reports/r.html
check restart.report-not-attempt0 test -z "$(grep -o 'logs/r_rank3.log' reports/r.html)"
check restart.rank-rows-per-attempt test "$("$OOMLAB" table --json | python3 -c '
import json,sys
r = json.load(sys.stdin)["runs"][0]["rank_rows"]
print(len(r), *["%s:%s:%s" % (x["rank"], x["restart"], x["oom"]) for x in r if x["rank"] == 3])')" = "8 3:0:True 3:1:False"
# a CI gate fails on an OOM in any attempt, even when a restart then passed
"$OOMLAB" guard -q --budget 79GiB --id g -- "$F/fakelaunch" --torchrun --nproc 4 --max-restarts 1 -- \
  "$F/ranktrain" --oom-rank 3 --oom-attempts 1 -- "$SIM" --steps 5 --sleep-ms 20 >guard.out 2>&1
check restart.guard-oom-exit test $? -eq 12
check restart.guard-names-attempt grep -q '^oomlab guard: oom: .*attempt 0: GPU OOM, rank 3 first' guard.out
"$OOMLAB" diagnose --json r > diag.json
check restart.diagnose-attempts python3 -c '
import json; d = json.load(open("diag.json"))
assert d["logs"][0]["launcher"]["restarts"] == 1, d["logs"][0]["launcher"]
oom = [e for e in d["events"] if e["gpu_oom"]]
assert [(e["rank"], e["attempt"]) for e in oom] == [(3, 0)], oom'
check restart.diagnose-text grep -q 'launcher: torchelastic restarted the workers 1 time; line [0-9]*: GPU OOM of rank 3' <("$OOMLAB" diagnose r)

# --- 200 concurrent rank appends over 8 simulated hosts: nothing lost ---
fresh shards
for h in $(seq 0 7); do
  for r in $(seq 0 24); do
    OOMLAB_HOST=host$h SLURM_JOB_ID=77 SLURM_PROCID=$((h * 25 + r)) SLURM_NTASKS=200 \
      "$OOMLAB" run -q --id big --note "rank $((h * 25 + r)), \"quoted\"" -- true 2>/dev/null &
  done
done
wait
check shards.8-files test "$(ls runs.d | wc -l)" -eq 8
check shards.400-records-whole python3 -c '
import csv, glob
rows = []
for f in glob.glob("runs.d/*.csv"):
    rs = list(csv.reader(open(f, newline="")))
    assert all(len(r) == len(rs[0]) for r in rs), f
    assert sum(r[0] == "run_id" for r in rs) == 1, f
    rows += rs[1:]
assert len(rows) == 400, len(rows)
final = [r for r in rows if r[17] != "running"]
assert sorted(int(r[30]) for r in final) == list(range(200)), "ranks"
assert sorted(r[19].split("; ")[0] for r in final) == sorted("rank %d, \"quoted\"" % i for i in range(200))'
check shards.one-job-200-ranks test "$("$OOMLAB" table --json | job ranks exit_status)" = "200 0"
# compare found the job in the shards: the same id twice is then refused as such (80e6d50c), not "not in"
check shards.compare-reads grep -q "'big' is given twice" <("$OOMLAB" compare big big 2>&1)
check shards.completion-reads test "$(cd . && "$OOMLAB" completion --values runids 2>/dev/null | grep -c '^big$')" -eq 1
# an old runs.csv and the shards read together
"$OOMLAB" run -q --id old -- true 2>/dev/null  # runs.d exists: a shard row too
check shards.dir-opts-in test "$(grep -c '^old,' runs.d/*.csv | awk -F: '{s+=$2} END {print s}')" -eq 2
printf 'run_id,exit_status,started_at\nlegacy,0,2020-01-01T00:00:00Z\n' > runs.csv
check shards.merge-legacy test "$("$OOMLAB" table --json | python3 -c 'import json,sys; print(*[r["run_id"] for r in json.load(sys.stdin)["runs"]])')" = "legacy big old"

# A plain run whose output is a numbered list ("1: load the model") has no
# ranks: srun --label's "N: " is a rank only where a line within 16
# carries the same label (lib/msg.h, the rule diagnose applies too).
# Before: rank logs nl_rank1..3.log and the row's rank 3.
fresh numbered
"$OOMLAB" run -q --id nl -- sh -c 'echo "Plan:"; echo "1: load the model"; echo "2: train"; echo "3: evaluate"' 2>/dev/null
check numbered.no-rank-logs test -z "$(ls logs | grep _rank)"
check numbered.no-rank-in-row test -z "$(csv_field runs.csv nl rank)"

# --- oomlab run in an sbatch script (one task, not a rank): a plain run
# whose row names its job, so table/diagnose lead to sacct and slurm-N.out;
# two runs of one id (--force) in that job stay two runs, the latest shown ---
fresh sbatch
SLURM_JOB_ID=4242 SLURM_JOBID=4242 SLURM_PROCID=0 SLURM_NTASKS=1 SLURM_NODEID=0 SLURM_LOCALID=0 \
  "$OOMLAB" run -q --id sb -- "$SIM" --steps 2 >/dev/null 2>err; rc=$?
check sbatch.exit0 test $rc -eq 0
check sbatch.not-a-rank test ! -e logs/sb_rank0.log
check sbatch.row-job-id test "$(csv_field runs.csv sb job_id),$(csv_field runs.csv sb rank)" = "slurm:4242,"
check sbatch.diagnose-names-job grep -q '^run sb: job slurm:4242 (its ledger row)$' <("$OOMLAB" diagnose sb)
SLURM_JOB_ID=4242 SLURM_PROCID=0 SLURM_NTASKS=1 "$OOMLAB" run -q --id sb --force -- "$SIM" --steps 3 >/dev/null 2>&1
check sbatch.force-latest-shown test "$("$OOMLAB" table --json | python3 -c 'import json,sys; r=json.load(sys.stdin)["runs"]; print(len(r), r[0]["job_id"], r[0]["exit_status"])')" = "1 slurm:4242 0"
OOMLAB_RANKS=off SLURM_JOB_ID=4243 SLURM_PROCID=0 SLURM_NTASKS=1 "$OOMLAB" run -q --id off -- "$SIM" --steps 1 >/dev/null 2>&1
check sbatch.ranks-off-no-job test "$(csv_field runs.csv off job_id)" = ""
