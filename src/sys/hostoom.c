#include "sys/hostoom.h"
#include "sys/fsutil.h"

#include "lib/kmsgoom.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FILE_MAX 8192 /* memory.events and memory.oom_control are a few lines */

int64_t hostoom_parse(const char *text, size_t len)
{
    static const char key[] = "oom_kill ";
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - text) : len;
        if (end - i > sizeof key - 1 && !memcmp(text + i, key, sizeof key - 1)) {
            int64_t n = 0;
            size_t j = i + sizeof key - 1;
            if (j == end) return -1;
            for (; j < end; j++) {
                if (text[j] < '0' || text[j] > '9' || n > (INT64_MAX - 9) / 10) return -1;
                n = n * 10 + (text[j] - '0');
            }
            return n;
        }
        i = end + 1;
    }
    return -1;
}

static int64_t kills_in(const char *root, const char *sub, const char *path, const char *file)
{
    char p[4096], buf[FILE_MAX];
    if (!strcmp(path, "/")) path = "";
    int n = snprintf(p, sizeof p, "%s%s%s/%s", root, sub, path, file);
    if (n < 0 || (size_t)n >= sizeof p) return -1;
    ssize_t len = fsutil_read_small(p, buf, sizeof buf);
    if (len < 0 && path[0]) return kills_in(root, sub, "", file); /* the container's own cgroup is the root */
    return len < 0 ? -1 : hostoom_parse(buf, (size_t)len);
}

int64_t hostoom_kills(void)
{
    const char *root = getenv("OOMLAB_CGROUP_ROOT");
    if (!root || !*root) root = "/sys/fs/cgroup";
    char buf[FILE_MAX], v1[2048] = "", v2[2048] = "";
    bool have_v1 = false, have_v2 = false;
    char self[4096];
    snprintf(self, sizeof self, "%s", getenv("OOMLAB_CGROUP_SELF") ? getenv("OOMLAB_CGROUP_SELF") : "/proc/self/cgroup");
    ssize_t len = fsutil_read_small(self, buf, sizeof buf);
    if (len < 0) return -1;
    /* lines "ID:CONTROLLERS:PATH"; v2 is "0::PATH" */
    for (char *line = buf, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2) continue;
        *c1 = *c2 = '\0';
        const char *ctrl = c1 + 1, *path = c2 + 1;
        if (!strcmp(line, "0") && !*ctrl && !have_v2) {
            snprintf(v2, sizeof v2, "%s", path);
            have_v2 = true;
        }
        for (const char *t = ctrl; *t;) { /* "memory" among comma-separated controllers */
            size_t w = strcspn(t, ",");
            if (w == 6 && !memcmp(t, "memory", 6) && !have_v1) {
                snprintf(v1, sizeof v1, "%s", path);
                have_v1 = true;
            }
            t += w + (t[w] == ',');
        }
    }
    int64_t k = have_v1 ? kills_in(root, "/memory", v1, "memory.oom_control") : -1;
    if (k < 0 && have_v2) k = kills_in(root, "", v2, "memory.events");
    return k;
}

#define KMSG_MAX ((size_t)32 << 20) /* the ring buffer is a few MiB at most */

/* The record names the kill of pid (comm) at or after since_us. */
static bool kill_of(const char *rec, size_t len, long pid, const char *comm, int64_t since_us)
{
    struct kmsgoom_kill k;
    return kmsgoom_parse(rec, len, &k) && k.pid == pid && k.usec >= since_us &&
           !strncmp(k.comm, comm, 15); /* the kernel keeps 15 characters of a name */
}

/* Records from fd: /dev/kmsg gives one per read() (EAGAIN at the end,
 * EPIPE where the ring overwrote what we were about to read); a test's
 * file gives many per read, split at newlines (continuation lines, " KEY=",
 * do not parse as records). A line longer than the buffer (a file's; the
 * kernel's records are under 8 KiB) is read by its head, where a kill's
 * words stand ("PRIO,SEQ,USEC,FLAGS;" then "Killed process ..."), and the
 * rest of it skipped up to its newline: never read as a record of its own. */
static int kmsg_scan(int fd, long pid, const char *comm, int64_t since_us)
{
    char buf[16384];
    size_t have = 0, total = 0;
    bool skipping = false; /* in the rest of a line whose head was read */
    for (;;) {
        ssize_t n = read(fd, buf + have, sizeof buf - 1 - have);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EPIPE) continue;
        bool at_end = n == 0 && have > 0; /* a file's last record without its newline */
        if (n <= 0 && !at_end) return (n < 0 && errno != EAGAIN) ? (total ? 0 : -1) : 0;
        if (at_end) buf[have++] = '\n'; /* room: the read above left one byte */
        total += (size_t)(n > 0 ? n : 0);
        have += (size_t)(n > 0 ? n : 0);
        size_t start = 0;
        for (size_t i = 0; i < have; i++) {
            if (buf[i] != '\n') continue;
            if (!skipping && kill_of(buf + start, i - start, pid, comm, since_us)) return 1;
            skipping = false;
            start = i + 1;
        }
        memmove(buf, buf + start, have - start);
        have -= start;
        if (have == sizeof buf - 1) { /* a line longer than the buffer */
            if (!skipping && kill_of(buf, have, pid, comm, since_us)) return 1;
            skipping = true;
            have = 0;
        }
        if (total > KMSG_MAX) return 0;
    }
}

int hostoom_kmsg_killed(long pid, const char *comm, int64_t since_us)
{
    const char *path = getenv("OOMLAB_KMSG");
    if (!path || !*path) path = "/dev/kmsg";
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    int rc = kmsg_scan(fd, pid, comm, since_us);
    close(fd);
    return rc;
}
