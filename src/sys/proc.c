/* proc: /proc readers (see proc.h); parsing lives in lib/procstat. Files are
 * read whole with one bounded read each: /proc text is small and changes
 * between reads, so nothing is read twice. */
#include "sys/proc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/launcher.h"
#include "lib/procstat.h"
#include "lib/strbuf.h"
#include "sys/fsutil.h"

#define TREE_DEPTH_MAX 256

static int read_stat(pid_t pid, struct procstat *st)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    ssize_t n = fsutil_read_small(path, buf, sizeof buf);
    if (n <= 0) return -1;
    return procstat_parse(buf, (size_t)n, st);
}

double proc_uptime(void)
{
    char buf[128];
    ssize_t n = fsutil_read_small("/proc/uptime", buf, sizeof buf);
    return n > 0 ? procstat_uptime(buf, (size_t)n) : -1;
}

static void fill_owner(pid_t pid, struct proc_info *pi)
{
    char path[64];
    struct stat st;
    snprintf(path, sizeof path, "/proc/%ld", (long)pid);
    if (stat(path, &st) < 0) return;
    pi->uid = st.st_uid;
    pi->uid_known = true;
    struct passwd pw, *res = NULL;
    char buf[1024];
    if (getpwuid_r(st.st_uid, &pw, buf, sizeof buf, &res) == 0 && res)
        snprintf(pi->user, sizeof pi->user, "%s", res->pw_name);
    else
        snprintf(pi->user, sizeof pi->user, "%lu", (unsigned long)st.st_uid);
}

int proc_read(pid_t pid, struct proc_info *pi, struct oomlab_err *err)
{
    memset(pi, 0, sizeof *pi);
    pi->pid = pid;
    pi->state = '?';
    pi->elapsed_s = -1;
    pi->rss_bytes = -1;
    pi->cpu_ticks = -1;
    struct procstat st;
    if (pid <= 0 || read_stat(pid, &st) < 0)
        return oomlab_err_set(err, "pid %ld is not in /proc (exited, or in another PID namespace)",
                              (long)pid);
    pi->ppid = (pid_t)st.ppid;
    pi->state = st.state;
    pi->start_ticks = st.start_ticks;
    pi->cpu_ticks = st.cpu_ticks;
    snprintf(pi->comm, sizeof pi->comm, "%s", st.comm);
    long page = sysconf(_SC_PAGESIZE), hz = sysconf(_SC_CLK_TCK);
    if (st.rss_pages >= 0 && page > 0 && st.rss_pages < INT64_MAX / page)
        pi->rss_bytes = st.rss_pages * page;
    double up = proc_uptime();
    if (up >= 0 && hz > 0) {
        double age = up - (double)st.start_ticks / (double)hz;
        pi->elapsed_s = age < 0 ? 0 : age;
    }
    fill_owner(pid, pi);
    char path[64], raw[4096];
    snprintf(path, sizeof path, "/proc/%ld/cmdline", (long)pid);
    ssize_t n = fsutil_read_small(path, raw, sizeof raw);
    if (n <= 0 || procstat_cmdline(raw, (size_t)n, pi->cmdline, sizeof pi->cmdline) == 0)
        snprintf(pi->cmdline, sizeof pi->cmdline, "[%s]", pi->comm); /* kernel thread, zombie */
    return 0;
}

int proc_parent(pid_t pid, pid_t *ppid, unsigned long long *start_ticks)
{
    struct procstat st;
    if (pid <= 0 || read_stat(pid, &st) < 0) return -1;
    *ppid = (pid_t)st.ppid;
    if (start_ticks) *start_ticks = st.start_ticks;
    return 0;
}

double proc_cpu_s(pid_t pid, unsigned long long start_ticks)
{
    struct procstat st;
    long hz = sysconf(_SC_CLK_TCK);
    if (pid <= 0 || hz <= 0 || read_stat(pid, &st) < 0 || st.start_ticks != start_ticks ||
        st.cpu_ticks < 0)
        return -1;
    return (double)st.cpu_ticks / (double)hz;
}

struct env_blob {
    const char *text; /* NAME=value entries, NUL-separated */
    size_t len;
};

static const char *env_blob_get(const char *name, void *ctx)
{
    const struct env_blob *b = ctx;
    size_t n = strlen(name);
    for (size_t at = 0; at < b->len;) {
        const char *e = b->text + at;
        size_t elen = strnlen(e, b->len - at);
        if (elen > n && !memcmp(e, name, n) && e[n] == '=' && at + elen < b->len) return e + n + 1;
        at += elen + 1;
    }
    return NULL;
}

void proc_rank(pid_t pid, long *rank, long *restart)
{
    static char buf[256 << 10]; /* cluster environments run to tens of KiB */
    char path[64];
    *rank = -1, *restart = 0;
    snprintf(path, sizeof path, "/proc/%ld/environ", (long)pid);
    ssize_t n = fsutil_read_small(path, buf, sizeof buf - 1);
    if (n <= 0) return;
    buf[n] = '\0'; /* a last entry cut short still ends */
    struct env_blob b = {buf, (size_t)n + 1};
    struct launcher_info info;
    launcher_detect(env_blob_get, &b, &info);
    if (!launcher_is_rank(&info)) return;
    *rank = info.rank;
    *restart = info.restart > 0 ? info.restart : 0;
}

bool proc_in_tree(pid_t pid, pid_t root)
{
    if (root <= 0) return false;
    for (int depth = 0; depth < TREE_DEPTH_MAX && pid > 1; depth++) {
        if (pid == root) return true;
        pid_t parent;
        if (proc_parent(pid, &parent, NULL) < 0) return false;
        pid = parent;
    }
    return pid == root;
}

int proc_descendants(pid_t root, pid_t **out, size_t *n, struct oomlab_err *err)
{
    *out = NULL;
    *n = 0;
    DIR *d = opendir("/proc");
    if (!d) return oomlab_err_set(err, "cannot read /proc: %s", strerror(errno));
    size_t cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 0 || pid == root || !proc_in_tree((pid_t)pid, root)) continue;
        if (*n == cap) {
            pid_t *grown = strbuf_grow(*out, &cap, *n + 1, sizeof **out, SIZE_MAX);
            if (!grown) {
                closedir(d);
                free(*out);
                *out = NULL, *n = 0;
                return oomlab_err_set(err, "out of memory");
            }
            *out = grown;
        }
        (*out)[(*n)++] = (pid_t)pid;
    }
    closedir(d);
    return 0;
}
