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
    grep -q -E -e "$o([^A-Za-z0-9-]|\$)" man.txt || miss_man="$miss_man $o"
    grep -q -E -e "$o([^A-Za-z0-9-]|\$)" help.txt || miss_help="$miss_help $o"
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
    LC_ALL=C groff -man -Tutf8 -ww -z "$man" > groff.txt 2>&1
    grep 'not defined' groff.txt > lost.txt
    check "man-pages.no-lost-lines.$(basename "$man")" test ! -s lost.txt
    # ... and no warning at all: oomlab-watch(1)'s 70-character CSV header
    # in running text gave "cannot adjust line" and man(1) rendered it
    # broken and hyphenated ("time-stamp,elapsed_ms,...,to-tal_mib") at 80
    # columns, so a copied header was wrong (stranger24).
    check "man-pages.no-groff-warnings.$(basename "$man")" test ! -s groff.txt
    [ -s groff.txt ] && sed 's/^/  /' groff.txt
  done
fi

# The reverse of the first check: every option an OPTIONS section of a
# man page describes is one the command takes (it is in the command's
# option table) and its --help names it, so no page documents an option
# that was renamed or dropped (stranger24).
for man in "$OOMLAB_ROOT"/docs/man/oomlab-*.1; do
  cmd=$(basename "$man" .1); cmd=${cmd#oomlab-}
  opts=$(awk '/^\.SH /{in_opts = ($2 == "OPTIONS")} in_opts && /^\.(B|BI|BR|IP)( |$)/' "$man" |
         sed 's/\\-/-/g' | grep -o -e '--[a-z0-9][a-z0-9-]*' | sort -u)
  [ -n "$opts" ] || continue
  table=" $(awk -v c="$cmd" '$1 == c {$1 = ""; print}' table.txt) "
  "$OOMLAB" "$cmd" --help > help.txt 2>&1
  miss_table= miss_help=
  for o in $opts; do
    case $o in --help|--version) continue;; esac
    case "$table" in *" $o "*) ;; *) miss_table="$miss_table $o";; esac
    grep -q -E -e "$o([^A-Za-z0-9-]|\$)" help.txt || miss_help="$miss_help $o"
  done
  if [ -z "$miss_table$miss_help" ]; then ok "man-options.reverse.$cmd"
  else bad "man-options.reverse.$cmd" "not an option of $cmd:${miss_table:- -}" "not in --help:${miss_help:- -}"; fi
done

# oomlab-run(1)'s --set example records what it sets: its batch and
# accumulation reach the ledger (the example set 'accum', which is no
# alias: grad_accum stayed empty and the effective batch read 4).
ex=$(sed 's/\\-/-/g' "$OOMLAB_ROOT/docs/man/oomlab-run.1" | grep -m1 '^oomlab run --set bs=4 ')
cmd=${ex#oomlab run }; cmd=${cmd/python train.py/echo}
mkdir -p setex && (cd setex && eval "\"\$OOMLAB\" run -q --id ex $cmd" >/dev/null 2>&1)
check man-options.run-set-example-recorded test -n "$ex" -a "$(csv_field setex/runs.csv ex grad_accum)" = 2 \
  -a "$(csv_field setex/runs.csv ex effective_batch)" = 8

# The exit codes each command's --help names (its "Exit" text) are the
# ones its man page's EXIT STATUS names, 0 to 4 (stranger22: diagnose,
# estimate, lint and doctor exit 3 when their output cannot be written
# and --help, or both, did not say so; run's --help named only the
# child's codes, not its own 2 and 3).
cat > codes.py <<'PY'
import re, subprocess, sys
oomlab, root = sys.argv[1], sys.argv[2]
cmds = sys.argv[3:]
CODE = re.compile(r'(?:^|Exit:? |Exits like CMD \(|[;,(] ?|\n)([0-4])(?=[ ;\n]|$)')
for c in cmds:
    t = subprocess.run([oomlab, c, "--help"], capture_output=True, text=True).stdout
    m = re.search(r'(Exit.*?)(\n\n|$)', t, re.S)
    h = set(CODE.findall(m.group(1))) if m else set()
    man = open(f"{root}/docs/man/oomlab-{c}.1").read()
    m = re.search(r'\.SH EXIT STATUS\n(.*?)\n\.SH', man, re.S)
    body = re.sub(r'\\f[BIRP]|\\-', '', m.group(1)) if m else ''
    body = re.sub(r'^\.(TP|PP|IP|B|BR|I)\b ?', '', body, flags=re.M)
    print(c, ",".join(sorted(h)) or "-", ",".join(sorted(set(CODE.findall(body)))) or "-")
PY
cmds=$(cut -d' ' -f1 table.txt)
python3 codes.py "$OOMLAB" "$OOMLAB_ROOT" $cmds > codes.txt
while read -r cmd help man; do
  check "man-options.exit-codes.$cmd" test "$help" = "$man" -a "$help" != -
  [ "$help" = "$man" ] || echo "  --help names $help, the man page $man"
done < codes.txt
# ... and what a full disk gives (3) is among them.
printf 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n' > full.log
for c in "diagnose full.log" "estimate llama-2-7b --capacity 80GiB" "lint $OOMLAB_ROOT/tests/lint/cases/alloc_conf_after_cuda.py" "doctor" \
         "snapshot $OOMLAB_ROOT/tests/snapshot/oom.pickle" "completion bash"; do
  "$OOMLAB" $c > /dev/full 2>/dev/null; rc=$?
  name=${c%% *}
  check "man-options.full-disk-exit-3-documented.$name" test $rc = 3 -a \
    -n "$(awk -v c="$name" '$1 == c && $2 ~ /3/ && $3 ~ /3/' codes.txt)"
done
