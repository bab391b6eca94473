#!/usr/bin/env bash
# Every fuzz seed of a log parser says where its text comes from: a row in
# tests/fuzz/seeds/SOURCES.tsv naming the thread (owner/repo#N) and the
# labelled log or unit test it matches, or "written here" for a synthetic one.
set -u
root=${OOMLAB_ROOT:-$PWD}
src=$root/tests/fuzz/seeds/SOURCES.tsv
missing=""
for d in scan steps logscan memsummary rankstats logidx; do
  for f in "$root/tests/fuzz/seeds/$d"/*; do
    [ -f "$f" ] || continue
    rel=$d/$(basename "$f")
    awk -F'\t' -v r="$rel" '$1 == r && ($2 != "-" && $2 != "" || $3 ~ /^written here/) { found = 1 } END { exit !found }' "$src" ||
      missing="$missing $rel"
  done
done
if [ -z "$missing" ]; then
  echo "ok fuzz-seed-sources: every log-parser seed has a source row"
else
  echo "not ok fuzz-seed-sources: seeds without a row in tests/fuzz/seeds/SOURCES.tsv"
  for m in $missing; do echo "#   $m"; done
fi
