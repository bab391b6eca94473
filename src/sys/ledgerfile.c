/* ledgerfile: runs.csv plus the per-host shards, read as one ledger; the
 * shard writer. Why no lock for shards: one host writes each shard, and
 * on NFS an O_APPEND write(2) from one client is ordered by that client's
 * inode lock, while flock/fcntl locks may be unsupported or lost. */
#include "sys/ledgerfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/strbuf.h"
#include "sys/fsutil.h"

#define MAX_SHARDS 100000

int ledgerfile_host(char *buf, size_t size)
{
    const char *env = getenv(LEDGERFILE_HOST_ENV);
    if (env && *env && strlen(env) < size) {
        snprintf(buf, size, "%s", env);
    } else if (gethostname(buf, size) == 0) {
        buf[size - 1] = '\0';
    } else {
        buf[0] = '\0';
        return -1;
    }
    return ledger_utf8_invalid_at(buf, strlen(buf)) == strlen(buf) ? 0 : (buf[0] = '\0', -1);
}

int ledgerfile_shard_path(const char *dir, char *buf, size_t size, struct oomlab_err *err)
{
    char host[256], name[300], shards[4096];
    if (ledgerfile_host(host, sizeof host) < 0 || !host[0]) snprintf(host, sizeof host, "unknown-host");
    for (char *c = host; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '.' || *c == '-' || *c == '_'))
            *c = '_';
    if (host[0] == '.') host[0] = '_';
    snprintf(name, sizeof name, "%s.csv", host);
    if (fsutil_join(shards, sizeof shards, dir && *dir ? dir : ".", LEDGERFILE_SHARDS, err) < 0) return -1;
    return fsutil_join(buf, size, shards, name, err);
}

bool ledgerfile_use_shards(const char *dir, bool ranks)
{
    char shards[4096];
    struct stat st;
    if (ranks) return true;
    return fsutil_join(shards, sizeof shards, dir && *dir ? dir : ".", LEDGERFILE_SHARDS, NULL) == 0 &&
           stat(shards, &st) == 0 && S_ISDIR(st.st_mode);
}

static int write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w, n -= (size_t)w;
    }
    return 0;
}

/* The shard with its header, or nothing when another rank made it first. */
static int create_shard(const char *path, struct oomlab_err *err)
{
    char tmp[4200];
    size_t hlen;
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    char *head = ledger_header(&hlen);
    if (!head) return oomlab_err_set(err, "out of memory");
    int fd = fsutil_open_write(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666, err);
    int rc = fd < 0 ? -1 : write_all(fd, head, hlen) < 0 || close(fd) < 0 ? -1 : 0;
    if (fd >= 0 && rc < 0) oomlab_err_set(err, "cannot write %s: %s", tmp, strerror(errno));
    free(head);
    if (rc == 0 && link(tmp, path) < 0 && errno != EEXIST)
        rc = oomlab_err_set(err, "cannot create %s: %s", path, strerror(errno));
    if (fd >= 0) unlink(tmp);
    return rc;
}

int ledgerfile_append_shard(const char *dir, const char *records, size_t len, struct oomlab_err *err)
{
    char path[4096], shards[4096];
    if (ledgerfile_shard_path(dir, path, sizeof path, err) < 0 ||
        fsutil_join(shards, sizeof shards, dir && *dir ? dir : ".", LEDGERFILE_SHARDS, err) < 0 ||
        fsutil_mkdir_p(shards, err) < 0)
        return -1;
    struct stat st;
    if (lstat(path, &st) < 0 && create_shard(path, err) < 0) return -1;
    int fd = fsutil_open_write(path, O_WRONLY | O_APPEND, 0666, err);
    if (fd < 0) return -1;
    char last = '\n';
    if (fstat(fd, &st) == 0 && st.st_size > 0 && pread(fd, &last, 1, st.st_size - 1) != 1) last = '\n';
    char *buf = malloc(len + 1);
    if (!buf) {
        close(fd);
        return oomlab_err_set(err, "out of memory");
    }
    size_t n = 0;
    if (last != '\n') buf[n++] = '\n';
    memcpy(buf + n, records, len);
    n += len;
    ssize_t w;
    do w = write(fd, buf, n);
    while (w < 0 && errno == EINTR);
    /* short: the rest follows (a record cut here would be a broken row) or its write says why */
    int e = w < 0 ? errno : (size_t)w == n ? 0 : fsutil_write_rest(fd, buf + w, n - (size_t)w);
    free(buf);
    if (close(fd) < 0 && !e) e = errno;
    if (e) return oomlab_err_set(err, "cannot append to %s: %s", path, strerror(e));
    return 0;
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static const char *not_a_file(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" : "a device";
}

/* The shard names in DIR/runs.d (NULL with *n 0 when none). An entry that
 * is no regular file (a directory, FIFO, socket or device named *.csv)
 * holds no runs: it is left out, and the first is named in skipped. */
static char **shard_names(const char *shards, size_t *n, char *skipped, size_t skipped_size)
{
    DIR *d = opendir(shards);
    char **names = NULL;
    size_t cap = 0, n_skipped = 0;
    *n = 0;
    if (!d) return NULL;
    for (struct dirent *e; (e = readdir(d)) && *n < MAX_SHARDS;) {
        size_t l = strlen(e->d_name);
        if (e->d_name[0] == '.' || l < 5 || strcmp(e->d_name + l - 4, ".csv")) continue;
        struct stat st;
        if (fstatat(dirfd(d), e->d_name, &st, 0) == 0 && !S_ISREG(st.st_mode)) {
            if (n_skipped++ == 0)
                snprintf(skipped, skipped_size, "%s/%s is %s, not a shard: left out", shards, e->d_name,
                         not_a_file(st.st_mode));
            continue;
        }
        if (*n == cap) {
            char **p = strbuf_grow(names, &cap, *n + 1, sizeof *p, MAX_SHARDS);
            if (!p) break;
            names = p;
        }
        if (!(names[*n] = strdup(e->d_name))) break;
        (*n)++;
    }
    closedir(d);
    if (n_skipped > 1 && skipped_size) {
        size_t len = strlen(skipped);
        snprintf(skipped + len, skipped_size - len, " (and %zu more such entr%s)", n_skipped - 1,
                 n_skipped == 2 ? "y" : "ies");
    }
    if (names) qsort(names, *n, sizeof *names, name_cmp);
    return names;
}

int ledgerfile_size_check(const char *path, struct oomlab_err *err)
{
    struct stat st;
    if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || (unsigned long long)st.st_size <= LEDGERFILE_MAX) return 0;
    return oomlab_err_set(err, "%s is %llu MiB, more than the %zu MiB oomlab reads of a ledger: start a new "
                               "one (mv %s %s.old; the next run writes a fresh one), or keep its header and newest rows",
                          path, (unsigned long long)st.st_size >> 20, LEDGERFILE_MAX >> 20, path, path);
}

static int read_one(const char *path, struct ledger *lg, bool *missing, struct oomlab_err *err)
{
    char *text;
    size_t len;
    if (ledgerfile_size_check(path, err) < 0) return -1;
    if (fsutil_read(path, LEDGERFILE_MAX, &text, &len, missing, err) < 0) return -1;
    int rc = ledger_parse(lg, text, len, path, err);
    free(text);
    return rc;
}

static int merge_shards(const char *shards, struct ledger *lg, size_t *n_read, char *skipped, size_t skipped_size,
                        struct ledgerfile_bad *bad, struct oomlab_err *err)
{
    size_t n;
    char **names = shard_names(shards, &n, skipped, skipped_size);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        struct ledger one;
        bool gone = false;
        if (rc == 0 && fsutil_join(path, sizeof path, shards, names[i], err) == 0) {
            if (read_one(path, &one, &gone, err) == 0) {
                rc = ledger_take_rows(lg, &one, err);
                ledger_release(&one);
                (*n_read)++;
            } else if (!gone) {
                /* unreadable, too large, no ledger: said in err; the other hosts' shards still count */
                if (bad->n++ == 0) {
                    snprintf(bad->path, sizeof bad->path, "%s", path);
                    snprintf(bad->why, sizeof bad->why, "%s", err->msg);
                }
                err->msg[0] = '\0';
            }
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Does DIR/NAME hold a ledger (id NULL) or the log of run id? */
static bool holds(const char *d, const char *name, const char *id)
{
    char p[4096];
    struct stat st;
    if (id) {
        snprintf(p, sizeof p, "%s/%s/logs/%s.log", d, name, id);
        return stat(p, &st) == 0 && S_ISREG(st.st_mode);
    }
    snprintf(p, sizeof p, "%s/%s/runs.csv", d, name);
    if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) return true;
    snprintf(p, sizeof p, "%s/%s/" LEDGERFILE_SHARDS, d, name);
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

bool ledgerfile_holds(const char *dir)
{
    return holds(dir && *dir ? dir : ".", ".", NULL);
}

void ledgerfile_nearby(const char *dir, const char *id, char *buf, size_t size)
{
    enum { MAX_SEEN = 64, MAX_SAID = 3 };
    const char *d = dir && *dir ? dir : ".";
    char *found[MAX_SEEN];
    size_t n = 0;
    buf[0] = '\0';
    DIR *dp = opendir(d);
    if (!dp) return;
    for (struct dirent *e; n < MAX_SEEN && (e = readdir(dp));)
        if (e->d_name[0] != '.' && holds(d, e->d_name, id) && (found[n] = strdup(e->d_name))) n++;
    closedir(dp);
    qsort(found, n, sizeof *found, by_name);
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        if (i < MAX_SAID && len < size) {
            int w = snprintf(buf + len, size - len, "%s--dir %s%s", i ? ", " : "",
                             strcmp(d, ".") ? d : "", strcmp(d, ".") ? "/" : "");
            len += w > 0 ? (size_t)w : 0;
            if (len < size) {
                w = snprintf(buf + len, size - len, "%s", found[i]);
                len += w > 0 ? (size_t)w : 0;
            }
        }
        free(found[i]);
    }
    if (n > MAX_SAID && len < size) snprintf(buf + len, size - len, ", ...");
}

int ledgerfile_load(const char *dir, struct ledger *lg, char *path, size_t size, bool *missing,
                    char *skipped, size_t skipped_size, struct ledgerfile_bad *bad, struct oomlab_err *err)
{
    struct ledgerfile_bad none_said;
    if (!bad) bad = &none_said;
    bad->path[0] = bad->why[0] = '\0';
    bad->n = 0;
    const char *d = dir && *dir ? dir : ".";
    char shards[4096];
    bool none = false;
    memset(lg, 0, sizeof *lg);
    *missing = false;
    if (skipped_size) skipped[0] = '\0';
    if (fsutil_join(path, size, d, "runs.csv", err) < 0 ||
        fsutil_join(shards, sizeof shards, d, LEDGERFILE_SHARDS, err) < 0)
        return -1;
    struct oomlab_err main_err = {{0}};
    if (read_one(path, lg, &none, &main_err) < 0) {
        if (!none) return oomlab_err_set(err, "%s", main_err.msg);
        memset(lg, 0, sizeof *lg);
    }
    size_t n_shards = 0;
    if (merge_shards(shards, lg, &n_shards, skipped, skipped_size, bad, err) < 0) {
        ledger_release(lg);
        return -1;
    }
    if (none && n_shards == 0 && bad->n) { /* the broken shard is all there is */
        ledger_release(lg);
        bad->n = 0; /* said as the error itself */
        return oomlab_err_set(err, "%s", bad->why);
    }
    if (none && n_shards == 0) {
        char near[300];
        *missing = true;
        ledgerfile_nearby(d, NULL, near, sizeof near);
        if (near[0]) return oomlab_err_set(err, "no ledger at %s; there is one with %s", path, near);
        return oomlab_err_set(err, "no ledger at %s (runs are recorded by 'oomlab run')", path);
    }
    if (n_shards) ledger_sort_by_start(lg);
    if (none) snprintf(path, size, "%s", shards);
    return 0;
}

/* ---- reading in pieces (run's id check: any size, bounded memory) ---- */

#define PIECE ((size_t)1 << 20)

/* Fill buf from fd (a short read is not the end); bytes read, -1 on error. */
static ssize_t fill(int fd, char *buf, size_t size)
{
    size_t got = 0;
    while (got < size) {
        ssize_t n = read(fd, buf + got, size - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -1;
        if (n == 0) break;
        got += (size_t)n;
    }
    return (ssize_t)got;
}

struct each_opts {
    const enum ledger_col *keep;
    size_t n_keep;
    ledger_row_fn fn;
    void *ctx;
};

static int each_in(const char *path, const struct each_opts *eo, bool *missing, struct oomlab_err *err)
{
    *missing = false;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY); /* a FIFO must not wait */
    if (fd < 0) {
        *missing = errno == ENOENT;
        return oomlab_err_set(err, "cannot read %s: %s", path, strerror(errno));
    }
    struct stat st;
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    char *buf = malloc(PIECE);
    struct ledger_stream *ls = ledger_stream_new(path, eo->fn, eo->ctx);
    if (ls && eo->keep) ledger_stream_keep(ls, eo->keep, eo->n_keep);
    int rc = 0;
    if (fstat(fd, &st) < 0)
        rc = oomlab_err_set(err, "cannot read %s: %s", path, strerror(errno));
    else if (!S_ISREG(st.st_mode))
        rc = oomlab_err_set(err, "%s: not a regular file", path);
    else if (!buf || !ls)
        rc = oomlab_err_set(err, "%s: out of memory", path);
    for (ssize_t n = PIECE; rc == 0 && n == (ssize_t)PIECE;) {
        if ((n = fill(fd, buf, PIECE)) < 0) rc = oomlab_err_set(err, "cannot read %s: %s", path, strerror(errno));
        else if (n > 0) rc = ledger_stream_feed(ls, buf, (size_t)n, err);
    }
    if (rc == 0) rc = ledger_stream_end(ls, err);
    ledger_stream_free(ls);
    free(buf);
    close(fd);
    return rc;
}

int ledgerfile_each(const char *dir, const enum ledger_col *keep, size_t n_keep, ledger_row_fn fn,
                    void *ctx, bool *missing, char *skipped, size_t skipped_size, struct oomlab_err *err)
{
    const struct each_opts eo = {keep, n_keep, fn, ctx};
    const char *d = dir && *dir ? dir : ".";
    char path[4096], shards[4096];
    bool none = false, gone = false;
    size_t n_read = 0, n;
    *missing = false;
    if (skipped_size) skipped[0] = '\0';
    if (fsutil_join(path, sizeof path, d, "runs.csv", err) < 0 ||
        fsutil_join(shards, sizeof shards, d, LEDGERFILE_SHARDS, err) < 0)
        return -1;
    if (each_in(path, &eo, &none, err) < 0 && !none) return -1;
    char **names = shard_names(shards, &n, skipped, skipped_size);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        if (rc == 0 && fsutil_join(path, sizeof path, shards, names[i], err) == 0) {
            if (each_in(path, &eo, &gone, err) == 0) n_read++;
            else if (!gone) rc = -1;
        }
        free(names[i]);
    }
    free(names);
    if (rc == 0 && none && n_read == 0) {
        *missing = true;
        return oomlab_err_set(err, "no ledger in %s", d);
    }
    return rc;
}
