#!/usr/bin/env bash
# The portable build (make portable; tests/run-all runs the whole suite
# against it): no versioned glibc symbol above 2.28, no shared library
# beyond glibc's own, the tarball's layout, and the quick start from the
# unpacked tarball (the hook found beside the binary, NVML through dlopen).
. "$(dirname "$0")/lib/run-common.bash"
case "$OOMLAB_BUILD" in *build-portable) ;; *) skip portable.all "not the portable build (tests/run-all runs it)"; exit 0 ;; esac
FLOOR=2.28
objdump -T "$OOMLAB" | grep -o 'GLIBC_[0-9][0-9.]*' | sort -u -V > versions
newest=$(tail -1 versions | sed 's/GLIBC_//')
check portable.glibc-floor test "$(printf '%s\n%s\n' "$newest" "$FLOOR" | sort -V | tail -1)" = "$FLOOR"
objdump -p "$OOMLAB" | awk '/NEEDED/ {print $2}' | sort > needed
check portable.only-glibc-libraries test -z "$(grep -v -x -E 'libc\.so\.6|libm\.so\.6|libdl\.so\.2|libpthread\.so\.0|ld-linux-x86-64\.so\.2' needed)"
check portable.no-json-c-yaml-z-needed test -z "$(grep -E 'json|yaml|libz' needed)"
"$OOMLAB" --version | grep -q ', portable build)$'; check portable.version-says-portable test $? -eq 0
tar=$(ls "$OOMLAB_ROOT"/build-portable/oomlab-*-linux-x86_64.tar.gz 2>/dev/null | head -1)
if [ -z "$tar" ]; then
  tar=$("$OOMLAB_ROOT/scripts/mktarball" "$OOMLAB_BUILD" 0.0.0-test "$SCRATCH/oomlab-test-linux-x86_64.tar.gz")
fi
tar -tzf "$tar" > listing
for f in bin/oomlab share/oomlab/torch/sitecustomize.py share/oomlab/torch/oomlab_torchhook.py man/man1/oomlab.1; do
  check "portable.tarball-has[$f]" grep -q "^oomlab-[^/]*/$f\$" listing
done
mkdir opt && tar -C opt -xzf "$tar"
P=$(ls -d opt/oomlab-*)/bin/oomlab
"$P" diagnose "$OOMLAB_ROOT/examples/train-oom.log" > quick.out 2>&1; rc=$?
check portable.quick-start-exit1 test "$rc" -eq 1
check portable.quick-start-finds-oom grep -q 'GPU out of memory' quick.out
env -u OOMLAB_SHARE "$P" doctor > doctor.out 2>&1
check portable.finds-its-hook grep -q "^ok   hook .*opt/oomlab-[^/]*/share/oomlab/torch" doctor.out
D=$SCRATCH/nvml; mkdir -p "$D/procs"; echo '0 85899345920 536870912 0 NVIDIA A100-SXM4-80GB' > "$D/gpus"
OOMLAB_NVML_LIBRARY=$OOMLAB_BUILD/fakes/libnvidia-ml.so.1 OOMLAB_FAKE_NVML_DIR=$D "$P" ps > ps.out 2>&1
check portable.nvml-through-dlopen grep -q 'NVIDIA A100-SXM4-80GB' ps.out
