#!/usr/bin/env bash
# The documentation tells the truth: every ```console block in README.md and
# docs/*.md is run and its output compared; every other example line that
# calls oomlab (other code blocks, man pages' EXAMPLES) names a command and
# options that exist. How: tests/docs/check-examples.
set -u
cd "$OOMLAB_ROOT" || exit 2
python3 tests/docs/check-examples README.md docs/*.md docs/man/*.1
