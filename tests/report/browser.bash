# Headless Chromium for the report tests: render a page, dump its DOM,
# take a screenshot; console messages go to stderr (--enable-logging).
# Shared by tests/e2e/report.sh and tests/report/make-reference.
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
browser() { # browser OUTFILE.err ARGS... FILE
  local err=$1; shift
  HOME=${SCRATCH:-/tmp} timeout 90 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --hide-scrollbars \
    --user-data-dir="${SCRATCH:-/tmp}/chromium-profile" --enable-logging=stderr --v=0 "$@" 2>"$err"
}
# shrink PNG OUT: the comparison form of a screenshot (small, grey).
shrink() { /usr/bin/convert "$1" -crop 800x2200+0+0 +repage -resize 200x -colorspace Gray -depth 8 "$2"; }
