#!/usr/bin/env bash
# make deb: the package is built from this build, inspected (contents,
# Depends from the binary's real needs, lintian errors), installed into a
# scratch dpkg root, run from there (it finds its hook), and removed cleanly.
. "$(dirname "$0")/lib/run-common.bash"
case "$OOMLAB_BUILD" in *asan*|*portable*) skip deb.all "the package is built from the plain build only"; exit 0 ;; esac
version=$(sed -n 's/^VERSION *:= *//p' "$OOMLAB_ROOT/Makefile")
deb=$("$OOMLAB_ROOT/scripts/mkdeb" "$OOMLAB_BUILD" "$version" "$SCRATCH/out" 2>err.txt)
check deb.built test -f "$deb"
dpkg-deb -c "$deb" | awk '{print $6}' > contents
for f in ./usr/bin/oomlab ./usr/share/oomlab/torch/sitecustomize.py ./usr/share/oomlab/torch/oomlab_torchhook.py \
         ./usr/share/man/man1/oomlab.1.gz ./usr/share/man/man1/oomlab-run.1.gz ./usr/share/doc/oomlab/copyright \
         ./usr/share/doc/oomlab/changelog.gz ./usr/share/bash-completion/completions/oomlab \
         ./usr/share/fish/vendor_completions.d/oomlab.fish ./usr/share/zsh/vendor-completions/_oomlab; do
  check "deb.contains[$f]" grep -qxF "$f" contents
done
check deb.every-man-page test "$(grep -c '^./usr/share/man/man1/.*\.1\.gz$' contents)" -eq "$(ls "$OOMLAB_ROOT"/docs/man/*.1 | wc -l)"
check deb.depends-json-c dpkg-deb -f "$deb" Depends | grep -q 'libjson-c5'
check deb.depends-libc dpkg-deb -f "$deb" Depends | grep -q 'libc6 (>= '
if command -v lintian >/dev/null; then
  lintian "$deb" > lintian.out 2>&1
  check deb.lintian-no-errors test "$(grep -c '^E: ' lintian.out)" -eq 0
else
  bad deb.lintian "lintian is not installed (scripts/setup installs it)"
fi
R=$SCRATCH/root; mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates"; : > "$R/var/lib/dpkg/status"
dpkg --root="$R" --force-script-chrootless --force-depends -i "$deb" > install.out 2>&1
check deb.installs test -x "$R/usr/bin/oomlab"
"$R/usr/bin/oomlab" --version > version.out; check deb.installed-runs grep -q "^oomlab $version " version.out
env -u OOMLAB_SHARE "$R/usr/bin/oomlab" doctor > doctor.out 2>&1
check deb.installed-finds-hook grep -q "^ok   hook .*$R/usr/share/oomlab/torch" doctor.out
dpkg --root="$R" --force-script-chrootless -r oomlab > remove.out 2>&1
check deb.removes-cleanly test -z "$(find "$R/usr" -type f 2>/dev/null)"
