/* fsutil: atomic replace, locked single-write appends, mkdir -p, bounded
 * reads. Every syscall is checked: these functions sit between a finished
 * experiment and its record. */
#include "sys/fsutil.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <poll.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/strbuf.h"

int fsutil_join(char *buf, size_t size, const char *dir, const char *name,
                struct oomlab_err *err)
{
    size_t len = strlen(dir); /* "src/" + "t.py" is src/t.py, as the user typed the folder */
    int n = snprintf(buf, size, "%s%s%s", dir, len && dir[len - 1] == '/' ? "" : "/", name);
    if (n < 0 || (size_t)n >= size) return oomlab_err_set(err, "%s/%s: path too long", dir, name);
    return 0;
}

static bool is_device(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode));
}

/* Why we refuse, in words; errno is kept for the caller. */
static int refuse(const char *path, int e, struct oomlab_err *err)
{
    if (e == ELOOP)
        oomlab_err_set(err, "refusing to write %s: it is a symbolic link (oomlab never writes "
                            "through one, the data would land in its target); remove the link",
                       path);
    else if (e == EINVAL && is_device(path)) /* never advise removing /dev/full */
        oomlab_err_set(err, "refusing to write %s: it is a device, not a regular file; name a "
                            "regular file instead",
                       path);
    else if (e == EINVAL)
        oomlab_err_set(err, "refusing to write %s: not a regular file (a FIFO, device or "
                            "directory is not one of oomlab's records); remove it",
                       path);
    else
        oomlab_err_set(err, "cannot write %s: %s", path, strerror(e));
    errno = e;
    return -1;
}

int fsutil_open_write(const char *path, int flags, mode_t mode, struct oomlab_err *err)
{
    /* O_NONBLOCK: opening a FIFO must not wait for a reader; O_TRUNC only
     * once we know it is a regular file of our own. */
    int fd = open(path, (flags & ~O_TRUNC) | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode);
    if (fd < 0) {
        int e = errno;
        struct stat st;
        if (e == ENXIO || (e == ELOOP && lstat(path, &st) == 0 && !S_ISLNK(st.st_mode)))
            e = EINVAL; /* a FIFO without reader; a loop of another kind */
        return refuse(path, e, err);
    }
    struct stat st;
    int e = 0;
    if (fstat(fd, &st) < 0) e = errno;
    else if (!S_ISREG(st.st_mode)) e = EINVAL;
    else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) e = errno;
    else if ((flags & O_TRUNC) && ftruncate(fd, 0) < 0) e = errno;
    if (e) {
        close(fd);
        return refuse(path, e, err);
    }
    return fd;
}

int fsutil_open_nofollow(const char *path, int flags, mode_t mode, struct oomlab_err *err)
{
    int fd = open(path, flags | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0) {
        struct stat st;
        int e = errno;
        if (e == ELOOP && lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) return refuse(path, e, err);
        oomlab_err_set(err, "cannot create %s: %s", path, strerror(e));
        errno = e;
        return -1;
    }
    return fd;
}

int fsutil_check_own(const char *path, struct oomlab_err *err)
{
    struct stat st;
    if (lstat(path, &st) < 0) return errno == ENOENT ? 0 : refuse(path, errno, err);
    if (S_ISLNK(st.st_mode)) return refuse(path, ELOOP, err);
    return S_ISREG(st.st_mode) ? 0 : refuse(path, EINVAL, err);
}

void fsutil_std_fds_open(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF) continue;
        int n = open("/dev/null", fd ? O_WRONLY : O_RDONLY); /* the lowest free fd: this one */
        if (n >= 0 && n != fd) {
            dup2(n, fd);
            close(n);
        }
    }
}

int fsutil_check_writable(const char *path, struct oomlab_err *err)
{
    char dir[PATH_MAX];
    if (access(path, F_OK) == 0)
        return access(path, W_OK) == 0 ? 0 : oomlab_err_set(err, "cannot write %s: %s", path, strerror(errno));
    if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir) return oomlab_err_set(err, "%s: path too long", path);
    for (char *slash = strrchr(dir, '/'); slash; slash = strrchr(dir, '/')) { /* the nearest directory there is */
        *slash = '\0';
        struct stat st;
        const char *d = slash == dir ? "/" : dir;
        if (stat(d, &st) < 0) continue;
        if (access(d, W_OK | X_OK) == 0) return 0;
        return oomlab_err_set(err, "cannot create %s: %s (in %s)", path, strerror(errno), d);
    }
    return access(".", W_OK | X_OK) == 0 ? 0 : oomlab_err_set(err, "cannot create %s: %s", path, strerror(errno));
}

static int mkdir_one(const char *path, struct oomlab_err *err)
{
    struct stat st;
    if (mkdir(path, 0777) == 0) return 0;
    int e = errno;
    if (e == EEXIST && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return 0;
    if (e == EEXIST) return oomlab_err_set(err, "%s: exists and is not a directory", path);
    return oomlab_err_set(err, "cannot create directory %s: %s", path, strerror(e));
}

int fsutil_mkdir_p(const char *path, struct oomlab_err *err)
{
    char buf[PATH_MAX];
    size_t len = strlen(path);
    if (len == 0) return oomlab_err_set(err, "empty directory name");
    if (len >= sizeof buf) return oomlab_err_set(err, "%s: path too long", path);
    memcpy(buf, path, len + 1);
    for (size_t i = 1; i < len; i++) {
        if (buf[i] != '/' || buf[i - 1] == '/') continue;
        buf[i] = '\0';
        if (mkdir_one(buf, err) < 0) return -1;
        buf[i] = '/';
    }
    return mkdir_one(buf, err);
}

int fsutil_write_rest(int fd, const char *rest, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, rest, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return n < 0 ? errno : ENOSPC;
        rest += n;
        len -= (size_t)n;
    }
    return 0;
}

static int write_all(int fd, const char *p, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -1;
        if (n == 0) {
            errno = ENOSPC;
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static void fsync_parent(const char *path)
{
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 0;
    if (n == 0 || n >= sizeof dir) {
        memcpy(dir, slash ? "/" : ".", 2);
    } else {
        memcpy(dir, path, n);
        dir[n] = '\0';
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd); /* best effort: some filesystems refuse directory fsync */
        close(fd);
    }
}

/* A file type in words: "a regular file", "a character device", ... */
static const char *type_words(mode_t mode)
{
    switch (mode & S_IFMT) {
    case S_IFREG: return "a regular file";
    case S_IFIFO: return "a FIFO";
    case S_IFCHR: return "a character device";
    case S_IFBLK: return "a block device";
    case S_IFSOCK: return "a socket";
    case S_IFLNK: return "a symbolic link";
    default: return "not a directory";
    }
}

const char *fsutil_why(const char *path, int errnum, char *buf, size_t size)
{
    /* "" has no part to name (the walk below starts past its first byte) and
     * a 0-byte buf cannot hold the words */
    if (errnum != ENOTDIR || !path || !*path || !buf || !size) return strerror(errnum);
    char p[PATH_MAX];
    if (snprintf(p, sizeof p, "%s", path) >= (int)sizeof p) return strerror(errnum);
    /* the shortest prefix that exists and is no directory: the one in the way */
    for (char *s = p + 1; (s = strchr(s, '/')); *s++ = '/') {
        *s = '\0';
        struct stat st;
        if (stat(p, &st) == 0 && !S_ISDIR(st.st_mode)) {
            snprintf(buf, size, "%s is %s, not a directory", p, type_words(st.st_mode));
            return buf;
        }
    }
    return strerror(errnum);
}

/* rename(2) replaces whatever has the name: only a regular file, a symbolic
 * link (the link itself, never its target) or a new name may be replaced,
 * never a device, FIFO or socket (`report -o /dev/full` run as root turned
 * the device into a file). */
static int replaceable(const char *path, struct oomlab_err *err)
{
    static const struct {
        mode_t type;
        const char *words;
    } kinds[] = {
        {S_IFIFO, "a FIFO"},
        {S_IFCHR, "a character device"},
        {S_IFBLK, "a block device"},
        {S_IFDIR, "a directory"},
        {S_IFSOCK, "a socket"},
    };
    struct stat st;
    char why[PATH_MAX + 64];
    if (lstat(path, &st) < 0)
        return errno == ENOENT ? 0 : oomlab_err_set(err, "cannot write %s: %s", path,
                                                     fsutil_why(path, errno, why, sizeof why));
    if (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) return 0;
    const char *words = "not a regular file";
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if ((st.st_mode & S_IFMT) == kinds[i].type) words = kinds[i].words;
    return oomlab_err_set(err, "refusing to replace %s: it is %s; give a regular file or a new name", path, words);
}

int fsutil_write_atomic(const char *path, const void *data, size_t len, struct oomlab_err *err)
{
    if (replaceable(path, err) < 0) return -1;
    char tmp[PATH_MAX];
    int n = snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    if (n < 0 || (size_t)n >= sizeof tmp) return oomlab_err_set(err, "%s: path too long", path);
    unlink(tmp); /* a stale temp file of a dead process with our pid */
    int fd = fsutil_open_write(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666, err);
    if (fd < 0) { /* name what the user asked for, not our temp name ("x.html.tmp.2539") */
        int e = errno;
        char why[PATH_MAX + 64];
        char dir[PATH_MAX];
        const char *slash = strrchr(path, '/');
        struct stat st;
        /* ENOENT alone ("No such file or directory") says neither which: the
         * directory that is missing, or one that exists and takes no new
         * files (`report -o /proc/x`) */
        if (slash) snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
        else snprintf(dir, sizeof dir, ".");
        if (e == ENOTDIR)
            oomlab_err_set(err, "cannot write %s: %s", path, fsutil_why(path, e, why, sizeof why));
        else if (e == ENOENT && stat(dir, &st) < 0 && errno == ENOENT)
            oomlab_err_set(err, "cannot write %s: no directory %s (make it first, or write elsewhere)", path, dir);
        else if (e == ENOENT && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
            oomlab_err_set(err, "cannot write %s: %s takes no new files (%s: a virtual file system such as /proc "
                                "or /sys?); write elsewhere", path, dir, strerror(e));
        else if (e != ELOOP && e != EINVAL)
            oomlab_err_set(err, "cannot write %s: %s (in its directory: the file is written to a temp "
                                "name there and renamed)", path, strerror(e));
        errno = e;
        return -1;
    }
    int e = 0;
    if (write_all(fd, data, len) < 0 || fsync(fd) < 0) e = errno;
    if (close(fd) < 0 && !e) e = errno;
    if (!e && replaceable(path, err) < 0) { /* it changed while we wrote */
        unlink(tmp);
        return -1;
    }
    if (!e && rename(tmp, path) < 0) e = errno;
    if (e) {
        unlink(tmp);
        return oomlab_err_set(err, "cannot write %s: %s", path, strerror(e));
    }
    fsync_parent(path);
    return 0;
}

/* The one capped read of a whole file: a regular file (or, for
 * fsutil_read_input, a pipe), read to its end (st_size is a hint, not
 * trusted: /proc reports 0, a log may grow), at most max bytes. */
static int read_capped(int fd, const char *path, size_t max, bool pipe_ok, char **data, size_t *len,
                       struct oomlab_err *err)
{
    struct stat st;
    if (fstat(fd, &st) < 0) return oomlab_err_set(err, "%s: %s", path, strerror(errno));
    bool is_pipe = pipe_ok && S_ISFIFO(st.st_mode);
    if (!S_ISREG(st.st_mode) && !is_pipe) return oomlab_err_set(err, "%s: not a regular file", path);
    if ((unsigned long long)st.st_size > max)
        return oomlab_err_set(err, "%s: larger than %zu bytes", path, max);
    size_t cap = st.st_size > 0 ? (size_t)st.st_size : 4096, got = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        if (got == cap) { /* grew past st_size: keep reading, up to max + 1 to tell "too large" */
            if (cap > max) break;
            size_t room = cap + 1; /* cap bytes and the NUL */
            char *grown = strbuf_grow(buf, &room, room + 1, 1, max + 2);
            if (!grown) break;
            buf = grown;
            cap = room - 1;
        }
        ssize_t n = is_pipe ? read(fd, buf + got, cap - got) : pread(fd, buf + got, cap - got, (off_t)got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            int e = errno;
            free(buf);
            return oomlab_err_set(err, "cannot read %s: %s", path, strerror(e));
        }
        if (n == 0) {
            buf[got] = '\0';
            *data = buf;
            *len = got;
            return 0;
        }
        got += (size_t)n;
    }
    bool too_large = buf != NULL;
    free(buf);
    if (too_large) return oomlab_err_set(err, "%s: larger than %zu bytes", path, max);
    return oomlab_err_set(err, "%s: out of memory", path);
}

int fsutil_read_fd(int fd, const char *path, size_t max, char **data, size_t *len,
                   struct oomlab_err *err)
{
    return read_capped(fd, path, max, false, data, len, err);
}

/* Whether a FIFO opened O_NONBLOCK has a writer now, without taking a
 * byte: tee(2) copies (never consumes) the pipe's contents and says EAGAIN
 * when a writer is there with nothing written yet, 0 when there is none
 * and nothing left. 1 has (or data waits), 0 has none. */
static int fifo_has_writer(int fd)
{
    int probe[2];
    if (pipe2(probe, O_CLOEXEC | O_NONBLOCK) < 0) return 1; /* cannot tell: read as cat would */
    ssize_t n = tee(fd, probe[1], 1, SPLICE_F_NONBLOCK); /* -1 EAGAIN: a writer, nothing yet */
    close(probe[0]);
    close(probe[1]);
    return n != 0;
}

/* A FIFO with no writer: wait a moment for one. poll(2) wakes when a
 * writer writes or closes (a writer that came and went reads as empty at
 * once: POLLHUP); a FIFO nobody opens stays silent. */
static int fifo_wait_writer(int fd, const char *path, struct oomlab_err *err)
{
    if (fifo_has_writer(fd)) return 0;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int r;
    while ((r = poll(&p, 1, FSUTIL_FIFO_WAIT_MS)) < 0 && errno == EINTR) {}
    if (r != 0) return 0;
    return oomlab_err_set(err, "%s: a FIFO nobody writes (no writer came in %d s): start the command that "
                               "writes it first, or pipe its output in (CMD | oomlab ... -)",
                          path, FSUTIL_FIFO_WAIT_MS / 1000);
}

int fsutil_open_input(const char *path, struct oomlab_err *err)
{
    /* non-blocking: open(2) of a FIFO would wait for a writer for ever */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return oomlab_err_set(err, "%s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) < 0) {
        oomlab_err_set(err, "%s: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (S_ISFIFO(st.st_mode) && fifo_wait_writer(fd, path, err) < 0) {
        close(fd);
        return -1;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    return fd;
}

int fsutil_read_input(const char *path, size_t max, char **data, size_t *len, struct oomlab_err *err)
{
    *data = NULL;
    *len = 0;
    int fd = fsutil_open_input(path, err);
    if (fd < 0) return -1;
    int rc = read_capped(fd, path, max, true, data, len, err);
    close(fd);
    return rc;
}

int fsutil_read(const char *path, size_t max, char **data, size_t *len, bool *missing,
                struct oomlab_err *err)
{
    *data = NULL;
    *len = 0;
    if (missing) *missing = false;
    /* non-blocking: opening a FIFO for reading would wait for a writer */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        if (errno == ENOENT && missing) *missing = true;
        char why[PATH_MAX + 64];
        return oomlab_err_set(err, "cannot read %s: %s", path, fsutil_why(path, errno, why, sizeof why));
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    int rc = fsutil_read_fd(fd, path, max, data, len, err);
    close(fd);
    return rc;
}

static int flock_wait(int fd)
{
    while (flock(fd, LOCK_EX) < 0)
        if (errno != EINTR) return -1;
    return 0;
}

#define APPEND_CHUNK ((size_t)1 << 20)

int fsutil_append_locked(const char *path, size_t head_max, fsutil_scan_fn scan, fsutil_record_fn make_record,
                         void *ctx, struct oomlab_err *err)
{
    int fd = fsutil_open_write(path, O_RDWR | O_CREAT | O_APPEND, 0666, err);
    if (fd < 0) return -1;
    if (flock_wait(fd) < 0) {
        int e = errno;
        close(fd);
        return oomlab_err_set(err, "cannot lock %s: %s", path, strerror(e));
    }
    char *head = malloc(head_max + 1), *chunk = malloc(APPEND_CHUNK), *rec = NULL;
    size_t head_len = 0, rec_len = 0;
    unsigned long long cur_len = 0;
    int rc = -1;
    if (!head || !chunk) {
        oomlab_err_set(err, "out of memory");
        goto out;
    }
    for (;;) { /* the whole file once, in pieces: memory stays APPEND_CHUNK + head_max */
        ssize_t n = pread(fd, chunk, APPEND_CHUNK, (off_t)cur_len);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            oomlab_err_set(err, "cannot read %s: %s", path, strerror(errno));
            goto out;
        }
        if (n == 0) break;
        size_t keep = head_len < head_max ? head_max - head_len : 0;
        if (keep > (size_t)n) keep = (size_t)n;
        memcpy(head + head_len, chunk, keep);
        head_len += keep;
        if (scan && scan(chunk, (size_t)n, ctx) < 0) {
            oomlab_err_set(err, "out of memory");
            goto out;
        }
        cur_len += (unsigned long long)n;
    }
    head[head_len] = '\0';
    rec = make_record(head, head_len, cur_len, &rec_len, ctx, err);
    if (!rec) goto out;
    /* One write() for the whole record; a short one is rolled back. */
    ssize_t n;
    do n = write(fd, rec, rec_len);
    while (n < 0 && errno == EINTR);
    int e = n < 0 ? errno : (size_t)n == rec_len ? 0 : fsutil_write_rest(fd, rec + n, rec_len - (size_t)n);
    if (e) {
        if (ftruncate(fd, (off_t)cur_len) < 0) { /* nothing more we can do */
        }
        oomlab_err_set(err, "cannot append to %s: %s", path, strerror(e));
        goto out;
    }
    if (fsync(fd) < 0 && errno != EINVAL) {
        oomlab_err_set(err, "cannot append to %s: %s", path, strerror(errno));
        goto out;
    }
    rc = 0;
out:
    free(head);
    free(chunk);
    free(rec);
    close(fd); /* releases the lock */
    return rc;
}

ssize_t fsutil_read_small(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return -1;
    size_t n = 0;
    while (n + 1 < size) {
        ssize_t r = read(fd, buf + n, size - 1 - n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        n += (size_t)r;
    }
    int saved = errno;
    close(fd);
    errno = saved;
    buf[n] = '\0';
    return (ssize_t)n;
}

bool fsutil_reader_gone(int fd)
{
    struct pollfd p = {.fd = fd, .events = POLLOUT};
    return poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}
