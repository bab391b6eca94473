#!/usr/bin/env bash
# bench/label-agreement: agreement, Cohen's kappa and disagreement rows on two
# tiny hand-made label files (kappa worked by hand below), and --scratch's
# two labelled copies of the logs.
. "$(dirname "$0")/lib/run-common.bash"
LA="$OOMLAB_ROOT/bench/label-agreement"
mkdir -p set
H='id	source	framework	is_gpu_oom	tried_to_allocate_bytes	total_capacity_bytes	already_allocated_bytes	free_bytes	reserved_bytes	gpu_index	rank	stage	step	notes'
{ echo "$H"
  printf 'a1\to/r#1\tpytorch\tyes\t100\t\t\t\t\t0\t\tforward\t\t\n'
  printf 'a2\to/r#2\tpytorch\tyes\t\t\t\t\t\t\t\tunknown\t\t\n'
  printf 'a3\to/r#3\tnone\tno\t\t\t\t\t\t\t\tunknown\t\t\n'
  printf 'a4\to/r#4\tpytorch\tyes\t\t\t\t\t\t\t\tbackward\t\t\n'
  printf 'a5\to/r#5\tpytorch\tyes\t\t\t\t\t\t\t\tunknown\t\tnot relabelled\n'; } > set/labels.tsv
for i in a1 a2 a3 a4 a5; do echo "log $i" > set/$i.log; done
{ echo '# a comment line'
  echo 'id	is_gpu_oom	tried_to_allocate_bytes	total_capacity_bytes	already_allocated_bytes	free_bytes	reserved_bytes	gpu_index	rank	stage	step	notes'
  printf 'a1\tyes\t100\t\t\t\t\t0\t\tforward\t\t\n'
  printf 'a2\tyes\t\t\t\t\t\t\t\tload\t\t\n'
  printf 'a3\tyes\t\t\t\t\t\t\t\tunknown\t\t\n'
  printf 'a4\tyes\t200\t\t\t\t\t\t\tbackward\t\t\n'; } > second.tsv
"$LA" --rows --scratch out second.tsv set/labels.tsv > got.txt 2>&1
# call: 3/4 agree; expected agreement (3*4 yes + 1*0 no)/16 = 0.75 -> kappa 0.00
check label-agreement.call grep -q "^is_gpu_oom  *3/4   75.0%   kappa 0.00$" got.txt
# stage pairs (forward,forward) (unknown,load) (unknown,unknown) (backward,backward):
# po 0.75, pe = (1*1 + 2*1 + 1*1)/16 = 0.25 -> kappa 0.67
check label-agreement.stage grep -q "^stage (exact, unknown counts)  3/4   75.0%   kappa 0.67$" got.txt
check label-agreement.stage-either grep -q "^stage where either names one  2/3   66.7%$" got.txt
check label-agreement.tried grep -q "^tried_to_allocate_bytes 1/2   50.0%" got.txt
check label-agreement.rows grep -q '^a4	tried_to_allocate_bytes	-	200$' got.txt
check label-agreement.only-relabelled grep -q '^4 logs labelled twice' got.txt
check label-agreement.scratch test "$(ls out/second | wc -l)" -eq 5
check label-agreement.scratch-labels grep -q '^a2	o/r#2	pytorch	yes.*	load		$' out/second/labels.tsv
check label-agreement.scratch-original cmp <(grep -v '^a5' set/labels.tsv) out/original/labels.tsv
