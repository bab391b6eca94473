/* Fuzz target: fsutil_why, which names the part of a path in the way
 * ("afile is a regular file, not a directory") where a file operation said
 * ENOTDIR. Input: one byte of options (bits 0-2: the errno; 3-5: the
 * buffer's size; bit 6: the path as given, else under a scratch folder
 * holding a regular file, a folder and a FIFO), then the path. It only
 * stats. Must never over-read or overflow; the answer is a NUL-terminated
 * string, inside buf when it is buf, and names a part of the path. The
 * library's sys/fsutil.c is built into this target (the fuzz build's
 * library is src/lib and src/render). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/sys/fsutil.c"

static char scratch[64];

static void remove_scratch(void)
{
    char p[128];
    const char *parts[] = {"d/fifo", "d", "afile", ""};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", scratch, parts[i]);
        remove(p);
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    snprintf(scratch, sizeof scratch, "/tmp/fuzz_fsutil.XXXXXX");
    if (!mkdtemp(scratch)) abort();
    char p[128];
    snprintf(p, sizeof p, "%s/afile", scratch);
    FILE *f = fopen(p, "w");
    if (f) fclose(f);
    snprintf(p, sizeof p, "%s/d", scratch);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/d/fifo", scratch);
    mkfifo(p, 0600);
    atexit(remove_scratch);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    static const int errnos[] = {ENOTDIR, ENOTDIR, ENOTDIR, ENOTDIR, ENOENT, EACCES, EISDIR, 0};
    static const size_t sizes[] = {PATH_MAX + 64, 1, 2, 8, 32, 64, 256, 4096};
    int errnum = errnos[data[0] & 7];
    size_t buf_size = sizes[(data[0] >> 3) & 7];
    bool as_given = data[0] & 0x40;
    size_t n = size - 1;
    size_t at = as_given ? 0 : strlen(scratch) + 1;
    char *path = malloc(at + n + 1);
    char *buf = malloc(buf_size);
    if (!path || !buf) goto done;
    if (!as_given) snprintf(path, at + 1, "%s/", scratch);
    memcpy(path + at, data + 1, n);
    path[at + n] = '\0';
    memset(buf, 'x', buf_size);
    const char *why = fsutil_why(path, errnum, buf, buf_size);
    if (!why) __builtin_trap();
    if (why == buf) {
        if (!memchr(buf, '\0', buf_size)) __builtin_trap();
        /* the part named is a prefix of the path */
        const char *is = strstr(buf, " is ");
        if (is && strncmp(buf, path, (size_t)(is - buf))) __builtin_trap();
    } else {
        (void)strlen(why);
    }
done:
    free(path);
    free(buf);
    return 0;
}
