#!/usr/bin/env bash
# Every option a command accepts (its own option table, as the completion
# script carries it) is named in its --help and in its man page
# docs/man/oomlab-CMD.1 (probe --torch was in neither the man page nor
# anywhere a man reader would look).
. "$(dirname "$0")/lib/run-common.bash"
"$OOMLAB" completion bash > comp.bash
sed -n 's/^ *\([a-z]*\)) with="\([^"]*\)"; flags="\([^"]*\)".*/\1 \2 \3/p' comp.bash > table.txt
check man-options.table-read test "$(wc -l < table.txt)" -ge 12
while read -r cmd opts; do
  man="$OOMLAB_ROOT/docs/man/oomlab-$cmd.1"
  [ -f "$man" ] || { bad "man-options.$cmd" "no $man"; continue; }
  sed 's/\\-/-/g; s/\\f[BIRP]//g; s/\\fP//g' "$man" > man.txt
  "$OOMLAB" "$cmd" --help > help.txt 2>&1
  miss_man= miss_help=
  for o in $opts; do
    case $o in --help|--version) continue;; esac
    grep -q -e "$o\b" man.txt || miss_man="$miss_man $o"
    grep -q -e "$o\b" help.txt || miss_help="$miss_help $o"
  done
  if [ -z "$miss_man$miss_help" ]; then ok "man-options.$cmd"
  else bad "man-options.$cmd" "not in the man page:${miss_man:- -}" "not in --help:${miss_help:- -}"; fi
done < table.txt

# A text line that starts with '.' or "'" is a request to troff: an
# unknown one vanishes from the page (oomlab-diagnose(1) lost ".out, .err
# or .gz is reported as a missing file, not looked up as a run"; lintian's
# groff-message warned). groff -ww says so for each such line.
if command -v groff >/dev/null; then
  for man in "$OOMLAB_ROOT"/docs/man/*.1; do
    LC_ALL=C groff -man -Tutf8 -ww -z "$man" 2>&1 | grep 'not defined' > groff.txt
    check "man-pages.no-lost-lines.$(basename "$man")" test ! -s groff.txt
  done
fi

# oomlab-run(1)'s --set example records what it sets: its batch and
# accumulation reach the ledger (the example set 'accum', which is no
# alias: grad_accum stayed empty and the effective batch read 4).
ex=$(sed 's/\\-/-/g' "$OOMLAB_ROOT/docs/man/oomlab-run.1" | grep -m1 '^oomlab run --set bs=4 ')
cmd=${ex#oomlab run }; cmd=${cmd/python train.py/echo}
mkdir -p setex && (cd setex && eval "\"\$OOMLAB\" run -q --id ex $cmd" >/dev/null 2>&1)
check man-options.run-set-example-recorded test -n "$ex" -a "$(csv_field setex/runs.csv ex grad_accum)" = 2 \
  -a "$(csv_field setex/runs.csv ex effective_batch)" = 8
