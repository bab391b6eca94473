#!/usr/bin/env bash
# oomlab completion: the bash script in a real bash (commands, options from
# each command's own table, values: run ids from the ledger, cards, models,
# the command after --), zsh's and fish's scripts checked by their shells
# when installed, and --values.
. "$(dirname "$0")/lib/run-common.bash"
BIN=$SCRATCH/bin; mkdir -p "$BIN"; ln -s "$OOMLAB" "$BIN/oomlab"
"$OOMLAB" completion bash > oomlab.bash; check completion.bash-syntax bash -n oomlab.bash
cw() { # cw WORDS...: what bash completion offers for the last word, sorted, one line
  PATH=$BIN:$PATH bash -c '. ./oomlab.bash; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=(); _oomlab
    printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' cw "$@"
}
check completion.commands test "$(cw oomlab re)" = "report "
check completion.all-commands test "$(cw oomlab '' | wc -w)" -eq "$(( $("$OOMLAB" completion --values commands | wc -l) + 2 ))"
check completion.run-option test "$(cw oomlab run --ti)" = "--timeout "
check completion.run-new-options test "$(cw oomlab run --to)" = "--torch "
check completion.probe-table test "$(cw oomlab probe --effe)" = "--effective-batch "
check completion.estimate-cards test "$(cw oomlab estimate --gpu a10)" = "a10 a100-40gb a100-80gb a10g "
check completion.estimate-models grep -q 'llama-2-7b' <<<"$(cw oomlab estimate llama-2-)"
check completion.shells test "$(cw oomlab completion '')" = "bash fish zsh "
check completion.after-dashdash-commands grep -qw 'bash' <<<"$(cw oomlab run -- bas)"
check completion.optional-arg-is-a-flag test "$(cw oomlab run --torch '')" = "-- "
mkdir -p sub; check completion.dir-values test "$(cw oomlab table --dir su)" = "sub "
check completion.no-runids-without-ledger test -z "$(cw oomlab compare run | tr -d " ")"
"$OOMLAB" run -q --id base -- true 2>/dev/null; "$OOMLAB" run -q --id bigger -- true 2>/dev/null
check completion.runids-from-ledger test "$(cw oomlab compare b)" = "base bigger "
check completion.values-runids test "$("$OOMLAB" completion --values runids | tr '\n' ' ')" = "base bigger "
# an id with a space from an older ledger (run refuses new ones) was offered
# and split by the shell into "big" and "one": it is left out
printf 'big one,,,,,,,,,,,,,,,,0\n' >> runs.csv
check completion.runids-no-space test "$("$OOMLAB" completion --values runids | tr '\n' ' ')" = "base bigger "
"$OOMLAB" completion fish > oomlab.fish; "$OOMLAB" completion zsh > oomlab.zsh
check completion.fish-has-options grep -q -- "-n '__fish_seen_subcommand_from run' -l timeout -x" oomlab.fish
check completion.zsh-uses-bashcompinit grep -q '^autoload -U +X bashcompinit && bashcompinit$' oomlab.zsh
if command -v fish >/dev/null; then check completion.fish-syntax fish -n oomlab.fish; else skip completion.fish-syntax "fish not installed"; fi
if command -v zsh >/dev/null; then check completion.zsh-syntax zsh -n oomlab.zsh; else skip completion.zsh-syntax "zsh not installed"; fi
# In a zsh without compinit (Debian's zshrc loads none; Ubuntu's does),
# sourcing the script registered nothing ("command not found: compdef")
# and TAB completed file names: the script loads compinit when missing.
if command -v zsh >/dev/null; then
  mkdir -p zdot
  check completion.zsh-registers-without-compinit test -n "$(ZDOTDIR=$PWD/zdot zsh -f -c 'source ./oomlab.zsh 2>/dev/null; print -r -- ${_comps[oomlab]}')"
else skip completion.zsh-registers-without-compinit "zsh not installed"; fi
# Installed as _oomlab in $fpath (the .deb's /usr/share/zsh/vendor-completions,
# make install's PREFIX/share/zsh/site-functions), compinit autoloads it: a
# real TAB in an interactive zsh offers the run ids and the commands. Before
# it had no #compdef line: compinit ignored it and TAB gave file names.
if command -v zsh >/dev/null; then
  mkdir -p zfp; "$OOMLAB" completion zsh > zfp/_oomlab
  check completion.zsh-compdef-line test "$(head -1 zfp/_oomlab)" = "#compdef oomlab"
  PATH=$BIN:$PATH timeout 30 python3 "$OOMLAB_ROOT/tests/e2e/lib/ztab.py" "$PWD/zfp" "oomlab compare " "oomlab rep" >ztab.out 2>&1
  check completion.zsh-autoload-runids grep -q 'base  *bigger' ztab.out
  check completion.zsh-autoload-command grep -q 'oomlab report' ztab.out
else skip completion.zsh-autoload "zsh not installed"; fi
"$OOMLAB" completion tcsh > /dev/null 2>err; check completion.unknown-shell-exit2 test $? -eq 2
"$OOMLAB" completion --values nope > /dev/null 2>err; check completion.unknown-values-exit2 test $? -eq 2
