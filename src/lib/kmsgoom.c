/* kmsgoom: an OOM kill in one record of the kernel's log (see kmsgoom.h). */
#include "lib/kmsgoom.h"

#include <string.h>

/* The digits at *p (at most 18: no overflow) as a number; -1 without any. */
static int64_t digits(const char **p, const char *end)
{
    int64_t n = 0;
    int count = 0;
    while (*p < end && **p >= '0' && **p <= '9' && count < 18)
        n = n * 10 + (*(*p)++ - '0'), count++;
    return count ? n : -1;
}

static const char *find(const char *s, const char *end, const char *what)
{
    return s < end ? memmem(s, (size_t)(end - s), what, strlen(what)) : NULL;
}

bool kmsgoom_parse(const char *rec, size_t len, struct kmsgoom_kill *out)
{
    const char *p = rec, *end = rec + len;
    const char *nl = memchr(rec, '\n', len);
    if (nl) end = nl;
    /* PRIO,SEQ,USEC,FLAGS; */
    for (int field = 0; field < 2; field++) {
        if (digits(&p, end) < 0 || p >= end || *p++ != ',') return false;
    }
    int64_t usec = digits(&p, end);
    const char *semi = memchr(p, ';', (size_t)(end - p));
    if (usec < 0 || p >= end || *p != ',' || !semi) return false;
    const char *text = semi + 1;
    /* "Killed process PID (COMM) total-vm:..." in every kernel's wording
     * (with "Out of memory: " or "Memory cgroup out of memory: " ahead of it
     * since 4.19, alone before); before 5.0 it followed "Out of memory: Kill
     * process PID (COMM) score N or sacrifice child" */
    const char *k = find(text, end, "Killed process ");
    size_t skip = sizeof "Killed process " - 1;
    bool need_total_vm = true;
    if (!k) {
        k = find(text, end, "Kill process ");
        skip = sizeof "Kill process " - 1;
        need_total_vm = false;
        if (k && !find(text, k, "ut of memory")) return false;
    }
    if (!k) return false;
    p = k + skip;
    int64_t pid = digits(&p, end);
    if (pid <= 0 || end - p < 3 || p[0] != ' ' || p[1] != '(') return false;
    /* the name ends where the words after it begin, not at its first ')':
     * a process may name itself "a) b" (prctl PR_SET_NAME, or its file's name) */
    const char *name = p + 2, *close = find(name, end, need_total_vm ? ") total-vm:" : ") score ");
    if (!close || (size_t)(close - name) >= sizeof out->comm) return false;
    out->usec = usec;
    out->pid = (long)pid;
    memcpy(out->comm, name, (size_t)(close - name));
    out->comm[close - name] = '\0';
    return true;
}
