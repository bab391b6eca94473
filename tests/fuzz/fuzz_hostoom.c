/* Fuzz target: sys/hostoom's readers on arbitrary bytes — the "oom_kill N"
 * line of memory.events / memory.oom_control (hostoom_parse), the kernel's
 * log as a file of records (hostoom_kmsg_killed, through $OOMLAB_KMSG) and
 * /proc/self/cgroup's "ID:CONTROLLERS:PATH" lines (hostoom_kills, through
 * $OOMLAB_CGROUP_SELF, under a cgroup root that does not exist). The input
 * is read from a memfd, as a file would be; the kernel's log's answer must
 * be that of reading it line by line (kmsg_expected). The build compiles lib/ and
 * render/ only, so the module is included here, with sys/fsutil.c, whose
 * fsutil_read_small reads the cgroup files. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_memfd.h"
#include "sys/fsutil.c"
#include "sys/hostoom.c"

/* What the kernel's log as a file should give, line by line: each line
 * (the last one with or without its newline) read by at most its first
 * 16383 bytes, the buffer's, the rest of a longer line never a record. */
static int kmsg_expected(const char *p, size_t size, long pid, const char *comm)
{
    size_t a = 0;
    while (a < size) {
        const char *nl = memchr(p + a, '\n', size - a);
        size_t e = nl ? (size_t)(nl - p) : size, len = e - a;
        if (kill_of(p + a, len < 16383 ? len : 16383, pid, comm, 0)) return 1;
        a = e + 1;
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size ? size : 1); /* exact size: ASan catches any over-read */
    if (!copy) return 0;
    memcpy(copy, data, size);
    int64_t n = hostoom_parse(copy, size);
    if (n < -1) abort();
    if (n >= 0 && !(size >= 9 && !memcmp(copy, "oom_kill ", 9)) && !memmem(copy, size, "\noom_kill ", 10))
        abort(); /* a count only from an "oom_kill " line */
    free(copy);

    char path[64];
    int fd = fuzz_memfd(data, size, "fuzz-hostoom", path, sizeof path);
    if (fd < 0) return 0;
    setenv("OOMLAB_KMSG", path, 1);
    int k = hostoom_kmsg_killed(1234, "python3", 0);
    if (k < -1 || k > 1) abort();
    if (k != kmsg_expected((const char *)data, size, 1234, "python3")) abort();
    setenv("OOMLAB_CGROUP_SELF", path, 1);
    setenv("OOMLAB_CGROUP_ROOT", "/nonexistent-oomlab-fuzz", 1);
    if (hostoom_kills() != -1) abort(); /* no counter file under a missing root */
    close(fd);
    return 0;
}
