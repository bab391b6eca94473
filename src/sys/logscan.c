/* logscan: feed the diagnose engine from a path. Every input is streamed
 * through one fixed window ([history | scanned | lookahead], about 21 MiB),
 * so memory stays bounded whatever the log's size and the file is never
 * held in memory. Plain files and stdin are read with read(2); .gz files
 * (and gzip on stdin) through zlib. The same window hands each line to the
 * caller's callback right after the read that completes it, while those
 * bytes are still in cache: one pass serves both readers.
 *
 * Why not mmap: measured on the project's machines (virtualised), touching
 * a 1 GiB page-cache mapping cost 0.6-0.8 s of CPU in page walks alone,
 * while read(2) into a reused, cache-resident buffer cost 0.13 s for the
 * same pass — the mapping made diagnose slower than grep. */
#include "sys/logscan.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "lib/scan.h"

#define STREAM_CHUNK (16u << 20) /* scanned between two slides of the window */
#define READ_STEP (1u << 20)     /* read, then scan while it is still in cache */

/* After a slide the window still holds HISTORY + LOOKAHEAD bytes before
 * any newline not yet found, so a line's last LOGSCAN_LINE_MAX bytes are
 * always in the buffer when its end arrives. */
static_assert(LOGSCAN_LINE_MAX <= SCAN_HISTORY + SCAN_LOOKAHEAD,
              "a delivered line must fit in what a slide keeps");

/* Line delivery: absolute offsets into the whole input. */
struct line_feed {
    logscan_line_fn fn; /* NULL: no lines wanted */
    void *ctx;
    uint64_t start;    /* first byte of the line not yet delivered */
    uint64_t searched; /* newlines before this offset have been delivered */
    bool stopped;      /* fn asked for no more */
};

/* The line [lf->start, stop) — its last LOGSCAN_LINE_MAX bytes. */
static void deliver(struct line_feed *lf, const char *buf, uint64_t base, uint64_t stop)
{
    uint64_t from = lf->start;
    if (stop - from > LOGSCAN_LINE_MAX) from = stop - LOGSCAN_LINE_MAX;
    if (from < base) from = base; /* cannot happen (static_assert above); never read before buf */
    if (lf->fn(buf + (from - base), (size_t)(stop - from), lf->ctx) != 0) lf->stopped = true;
}

/* Every line whose '\n' is in buf[searched - base, len); at eof also the
 * last line when it has no '\n'. */
static void feed_lines(struct line_feed *lf, const char *buf, size_t len, uint64_t base, bool eof)
{
    if (!lf->fn || lf->stopped) return;
    const char *p = buf + (lf->searched - base), *end = buf + len, *nl;
    while (p < end && (nl = memchr(p, '\n', (size_t)(end - p)))) {
        uint64_t at = base + (uint64_t)(nl - buf);
        deliver(lf, buf, base, at);
        lf->start = at + 1;
        if (lf->stopped) return;
        p = nl + 1;
    }
    lf->searched = base + len;
    if (eof && lf->start < lf->searched) {
        deliver(lf, buf, base, lf->searched);
        lf->start = lf->searched;
    }
}

struct source {
    int fd;
    gzFile gz; /* NULL: plain read(2) */
    const char *path;
};

static int source_fail(const struct source *src, struct oomlab_err *err)
{
    if (!src->gz) return oomlab_err_set(err, "%s: read error: %s", src->path, strerror(errno));
    int code = 0;
    const char *msg = gzerror(src->gz, &code);
    if (code == Z_ERRNO) msg = strerror(errno);
    /* zlib prefixes "<fd:N>: " for gzdopen streams; the path says it better. */
    if (msg && strncmp(msg, "<fd:", 4) == 0 && strstr(msg, ": ")) msg = strstr(msg, ": ") + 2;
    return oomlab_err_set(err, "%s: corrupt or truncated compressed data (%s)", src->path,
                          msg && *msg ? msg : "read error");
}

/* Up to want bytes into p: the count, 0 at the end, -1 on error. */
static long source_read(const struct source *src, char *p, size_t want)
{
    if (want > (1u << 30)) want = 1u << 30;
    if (src->gz) {
        int got = gzread(src->gz, p, (unsigned)want);
        if (got == 0) {
            int code = 0;
            gzerror(src->gz, &code);
            if (code != Z_OK) return -1; /* e.g. a cut-off stream */
        }
        return got;
    }
    for (;;) {
        ssize_t got = read(src->fd, p, want);
        if (got >= 0 || errno != EINTR) return (long)got;
    }
}

static int scan_stream(const struct source *src, struct scan *s, struct line_feed *lf,
                       struct oomlab_err *err)
{
    size_t cap = SCAN_HISTORY + STREAM_CHUNK + SCAN_LOOKAHEAD;
    char *buf = malloc(cap);
    if (!buf) return oomlab_err_set(err, "%s: out of memory", src->path);
    uint64_t base = 0, scanned = 0;
    size_t len = 0;
    bool eof = false, last_nl = true;
    int rc = 0;
    while (rc == 0) {
        if (len == cap) { /* slide: keep SCAN_HISTORY bytes behind the scan */
            uint64_t keep = scanned > SCAN_HISTORY ? scanned - SCAN_HISTORY : 0;
            if (keep <= base) break; /* cannot happen: cap > history + lookahead */
            scan_count_to(s, buf, len, base, keep);
            size_t drop = (size_t)(keep - base);
            memmove(buf, buf + drop, len - drop);
            len -= drop;
            base = keep;
        }
        size_t want = cap - len < READ_STEP ? cap - len : READ_STEP;
        long got = source_read(src, buf + len, want);
        if (got < 0) {
            rc = source_fail(src, err);
            break;
        }
        if (got == 0) eof = true;
        len += (size_t)got;
        if (got > 0) last_nl = buf[len - 1] == '\n';
        feed_lines(lf, buf, len, base, eof);
        uint64_t end = base + len;
        uint64_t upto = eof ? end : (end > SCAN_LOOKAHEAD ? end - SCAN_LOOKAHEAD : base);
        if (upto > scanned) {
            if (scan_block(s, buf, len, base, scanned, upto) < 0) {
                rc = oomlab_err_set(err, "%s: out of memory while scanning", src->path);
                break;
            }
            scanned = upto;
        }
        if (eof) break;
    }
    if (rc == 0) scan_finish(s, last_nl);
    free(buf);
    return rc;
}

static bool is_gzip(int fd, bool regular)
{
    unsigned char magic[2];
    if (!regular) return false;
    ssize_t n = pread(fd, magic, 2, 0);
    return n == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

static int scan_fd(int fd, const char *path, bool regular, struct scan *s, struct line_feed *lf,
                   struct oomlab_err *err)
{
    struct source src = {fd, NULL, path};
    /* Pipes cannot be peeked: stdin goes through zlib, which passes plain
     * text through unchanged and inflates gzip. */
    if (regular && !is_gzip(fd, regular)) {
        posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
        return scan_stream(&src, s, lf, err);
    }
    int dupfd = dup(fd);
    if (dupfd < 0) return oomlab_err_set(err, "%s: %s", path, strerror(errno));
    src.gz = gzdopen(dupfd, "rb");
    if (!src.gz) {
        close(dupfd);
        return oomlab_err_set(err, "%s: cannot open for reading", path);
    }
    gzbuffer(src.gz, 1u << 20);
    int rc = scan_stream(&src, s, lf, err);
    gzclose(src.gz);
    return rc;
}

int logscan_path(const char *path, struct oom_report *rep, struct oomlab_err *err)
{
    return logscan_path_lines(path, rep, NULL, NULL, err);
}

int logscan_path_lines(const char *path, struct oom_report *rep, logscan_line_fn fn, void *ctx,
                       struct oomlab_err *err)
{
    struct line_feed lf = {.fn = fn, .ctx = ctx};
    struct scan s;
    if (scan_init(&s, rep, err) < 0) return -1;
    bool is_stdin = strcmp(path, "-") == 0;
    const char *name = is_stdin ? "(stdin)" : path;
    int fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);
    int rc;
    struct stat st;
    if (fd < 0) {
        rc = oomlab_err_set(err, "%s: %s", name, strerror(errno));
    } else if (fstat(fd, &st) < 0) {
        rc = oomlab_err_set(err, "%s: %s", name, strerror(errno));
    } else if (S_ISDIR(st.st_mode)) {
        rc = oomlab_err_set(err, "%s: is a directory, not a log file", name);
    } else {
        rc = scan_fd(fd, name, S_ISREG(st.st_mode) && !is_stdin, &s, &lf, err);
    }
    if (fd > 0) close(fd);
    scan_release(&s);
    if (rc < 0) oom_report_release(rep);
    return rc < 0 ? -1 : 0;
}
