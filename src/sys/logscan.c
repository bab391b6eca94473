/* logscan: feed the diagnose engine from a path. Regular files are mapped
 * (no copy) and scanned in windows whose pages are dropped behind the scan,
 * so resident memory stays bounded on multi-GiB logs; .gz files and stdin
 * are streamed through zlib (which passes plain data through) with a
 * sliding window that keeps SCAN_HISTORY bytes of context. */
#include "sys/logscan.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "lib/scan.h"

#define MAP_WINDOW (16u << 20)  /* scanned between two page drops */
#define MAP_KEEP (8u << 20)     /* kept resident behind the scan (>= SCAN_HISTORY) */
#define STREAM_CHUNK (4u << 20)

static int scan_mapped(int fd, size_t size, const char *path, struct scan *s,
                       struct oomlab_err *err)
{
    if (size == 0) {
        scan_finish(s, true);
        return 0;
    }
    char *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) return oomlab_err_set(err, "%s: cannot map: %s", path, strerror(errno));
    madvise(map, size, MADV_SEQUENTIAL);
    long page = sysconf(_SC_PAGESIZE);
    size_t pg = page > 0 ? (size_t)page : 4096;
    int rc = 0;
    for (size_t off = 0; off < size && rc == 0; off += MAP_WINDOW) {
        size_t upto = size - off > MAP_WINDOW ? off + MAP_WINDOW : size;
        rc = scan_block(s, map, size, 0, off, upto);
        if (upto > MAP_KEEP) {
            size_t drop = (upto - MAP_KEEP) / pg * pg;
            madvise(map, drop, MADV_DONTNEED);
        }
    }
    if (rc == 0) scan_finish(s, map[size - 1] == '\n');
    munmap(map, size);
    if (rc < 0) return oomlab_err_set(err, "%s: out of memory while scanning", path);
    return 0;
}

static int gz_fail(gzFile gz, const char *path, struct oomlab_err *err)
{
    int code = 0;
    const char *msg = gzerror(gz, &code);
    if (code == Z_ERRNO) msg = strerror(errno);
    /* zlib prefixes "<fd:N>: " for gzdopen streams; the path says it better. */
    if (msg && strncmp(msg, "<fd:", 4) == 0 && strstr(msg, ": ")) msg = strstr(msg, ": ") + 2;
    return oomlab_err_set(err, "%s: corrupt or truncated compressed data (%s)", path,
                          msg && *msg ? msg : "read error");
}

/* Stream through a window: [history | searched | lookahead]. */
static int scan_stream(gzFile gz, const char *path, struct scan *s, struct oomlab_err *err)
{
    size_t cap = SCAN_HISTORY + STREAM_CHUNK + SCAN_LOOKAHEAD;
    char *buf = malloc(cap);
    if (!buf) return oomlab_err_set(err, "%s: out of memory", path);
    uint64_t base = 0, scanned = 0;
    size_t len = 0;
    bool eof = false, last_nl = true;
    int rc = 0;
    while (rc == 0) {
        while (len < cap && !eof) {
            unsigned want = cap - len > (1u << 30) ? (1u << 30) : (unsigned)(cap - len);
            int got = gzread(gz, buf + len, want);
            if (got < 0) {
                rc = gz_fail(gz, path, err);
                break;
            }
            if (got == 0) {
                int code = 0;
                gzerror(gz, &code);
                if (code != Z_OK) rc = gz_fail(gz, path, err); /* e.g. cut-off stream */
                eof = true;
                break;
            }
            len += (size_t)got;
            last_nl = buf[len - 1] == '\n';
        }
        if (rc) break;
        uint64_t end = base + len;
        uint64_t upto = eof ? end : (end > SCAN_LOOKAHEAD ? end - SCAN_LOOKAHEAD : base);
        if (upto > scanned && scan_block(s, buf, len, base, scanned, upto) < 0) {
            rc = oomlab_err_set(err, "%s: out of memory while scanning", path);
            break;
        }
        if (upto > scanned) scanned = upto;
        if (eof) break;
        uint64_t keep = scanned > SCAN_HISTORY ? scanned - SCAN_HISTORY : 0;
        if (keep > base) {
            scan_count_to(s, buf, len, base, keep);
            size_t drop = (size_t)(keep - base);
            memmove(buf, buf + drop, len - drop);
            len -= drop;
            base = keep;
        }
    }
    if (rc == 0) scan_finish(s, last_nl);
    free(buf);
    return rc;
}

static bool is_gzip(int fd)
{
    unsigned char magic[2];
    ssize_t n = pread(fd, magic, 2, 0);
    return n == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

static int scan_fd(int fd, const char *path, bool regular, size_t size, struct scan *s,
                   struct oomlab_err *err)
{
    if (regular && !is_gzip(fd)) return scan_mapped(fd, size, path, s, err);
    int dupfd = dup(fd);
    if (dupfd < 0) return oomlab_err_set(err, "%s: %s", path, strerror(errno));
    gzFile gz = gzdopen(dupfd, "rb");
    if (!gz) {
        close(dupfd);
        return oomlab_err_set(err, "%s: cannot open for reading", path);
    }
    gzbuffer(gz, 1u << 20);
    int rc = scan_stream(gz, path, s, err);
    gzclose(gz);
    return rc;
}

int logscan_path(const char *path, struct oom_report *rep, struct oomlab_err *err)
{
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
        bool regular = S_ISREG(st.st_mode) && !is_stdin;
        if (regular && (uint64_t)st.st_size > SIZE_MAX)
            rc = oomlab_err_set(err, "%s: too large to map", name);
        else
            rc = scan_fd(fd, name, regular, regular ? (size_t)st.st_size : 0, &s, err);
    }
    if (fd > 0) close(fd);
    scan_release(&s);
    if (rc < 0) oom_report_release(rep);
    return rc < 0 ? -1 : 0;
}
