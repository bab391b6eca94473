/* Helpers for unit tests that drive the fake libnvidia-ml.so.1
 * (tests/fakes/libnvidia-ml_so.c): a temporary state directory, its files,
 * and the library path under $OOMLAB_BUILD (default "build"). */
#ifndef OOMLAB_TEST_FAKE_NVML_STATE_H
#define OOMLAB_TEST_FAKE_NVML_STATE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char fake_dir[256];

static void fake_write(const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", fake_dir, rel);
    FILE *f = fopen(path, "w");
    if (!f) abort();
    fputs(text, f);
    fclose(f);
}

static void fake_lib(const char *name)
{
    const char *b = getenv("OOMLAB_BUILD");
    char path[512];
    snprintf(path, sizeof path, "%s/fakes/%s", b && *b ? b : "build", name);
    setenv("OOMLAB_NVML_LIBRARY", path, 1);
}

/* A fresh state dir with GPUs from `gpus`; clears the knobs. */
static void fake_setup(const char *gpus)
{
    snprintf(fake_dir, sizeof fake_dir, "%s/oomlab-fake-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(fake_dir)) abort();
    char procs[512];
    snprintf(procs, sizeof procs, "%s/procs", fake_dir);
    mkdir(procs, 0755);
    fake_write("gpus", gpus);
    setenv("OOMLAB_FAKE_NVML_DIR", fake_dir, 1);
    unsetenv("OOMLAB_FAKE_NVML_API");
    unsetenv("OOMLAB_FAKE_NVML_FAIL");
    unsetenv("OOMLAB_FAKE_NVML_RESERVED");
    unsetenv("OOMLAB_FAKE_NVML_LOG");
    unsetenv("OOMLAB_FAKE_NVML_REAP");
    fake_lib("libnvidia-ml.so.1");
}

static void fake_teardown(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fake_dir);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", fake_dir);
}

#endif
