/* logscan: feed the diagnose engine from a path. Every input is streamed
 * through one window ([history | scanned | lookahead], at most about 21
 * MiB; a file smaller than that gets a window of its own size), so memory
 * stays bounded whatever the log's size and the file is never held in
 * memory. Plain files and stdin are read with read(2); .gz files
 * (and gzip on stdin) through zlib. The same window hands each line to the
 * caller's callback right after the read that completes it, while those
 * bytes are still in cache: one pass serves both readers.
 *
 * Why not mmap: measured on the project's machines (virtualised), touching
 * a 1 GiB page-cache mapping cost 0.6-0.8 s of CPU in page walks alone,
 * while read(2) into a reused, cache-resident buffer cost 0.13 s for the
 * same pass — the mapping made diagnose slower than grep.
 *
 * UTF-16 (PowerShell's `>` writes UTF-16LE with a BOM) is found in the
 * first bytes — a BOM followed by UTF-16 text, or NULs in every other byte
 * of ASCII text — and
 * decoded to UTF-8 as it is read, through a fixed raw buffer, so the
 * engine, the line numbers and the callback see the same text as for a
 * UTF-8 log. Plain UTF-8 pays one look at its first 4 KiB. */
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
#include "lib/strbuf.h"
#include "lib/textenc.h"
#include "sys/fsutil.h"

#define STREAM_CHUNK (16u << 20) /* scanned between two slides of the window */
#define READ_STEP (1u << 20)     /* read, then scan while it is still in cache */
#define SNIFF_BYTES TEXTENC_SNIFF /* looked at for a UTF-16 encoding */
#define RAW_CAP (512u << 10)     /* undecoded UTF-16 bytes per read; decoded <= 1.5x */
#define WINDOW_MAX (SCAN_HISTORY + STREAM_CHUNK + SCAN_LOOKAHEAD)

/* After a slide the window still holds HISTORY + LOOKAHEAD bytes before
 * any newline not yet found, so a line's last LOGSCAN_LINE_MAX bytes are
 * always in the buffer when its end arrives. */
static_assert(LOGSCAN_LINE_MAX <= SCAN_HISTORY + SCAN_LOOKAHEAD,
              "a delivered line must fit in what a slide keeps");
/* At the end of the input the window still holds SCAN_HISTORY bytes. */
static_assert(LOGSCAN_TAIL_MAX <= SCAN_HISTORY, "the tail must be in the window at the end");
static_assert(RAW_CAP / 2 * 3 <= READ_STEP, "a decoded read fits one read step");

/* Line delivery: absolute offsets into the whole input. */
struct line_feed {
    logscan_line_fn fn; /* NULL: no lines wanted */
    void *ctx;
    uint64_t start;    /* first byte of the line not yet delivered */
    uint64_t searched; /* newlines before this offset have been delivered */
    bool stopped;      /* fn asked for no more */
    uint64_t head, tail; /* 0, 0: every line; else head and tail lines only */
    bool skipping;       /* past the head: lines wait for the tail */
    bool lines_only;     /* logscan_opts.lines_only */
};

/* The line [lf->start, stop) — its last LOGSCAN_LINE_MAX bytes. */
static void deliver(struct line_feed *lf, const char *buf, uint64_t base, uint64_t stop)
{
    uint64_t from = lf->start;
    if (stop - from > LOGSCAN_LINE_MAX) from = stop - LOGSCAN_LINE_MAX;
    if (from < base) from = base; /* cannot happen (static_assert above); never read before buf */
    if (lf->fn(buf + (from - base), (size_t)(stop - from), lf->ctx) != 0) lf->stopped = true;
}

/* Past the head, at the end: skip to the first line wholly inside the tail
 * (when the head has not reached it), then deliver as usual. */
static void start_tail(struct line_feed *lf, const char *buf, size_t len, uint64_t base)
{
    uint64_t end = base + len;
    uint64_t from = end > lf->tail ? end - lf->tail : 0;
    if (from < base) from = base; /* cannot happen (static_assert above) */
    if (from > lf->start) {
        const char *nl = memchr(buf + (from - base), '\n', (size_t)(end - from));
        lf->start = nl ? base + (uint64_t)(nl - buf) + 1 : end;
        if (from > base && buf[from - base - 1] == '\n') lf->start = from;
    }
    lf->searched = lf->start;
    lf->skipping = false;
    lf->head = UINT64_MAX; /* no second head */
}

/* Every line whose '\n' is in buf[searched - base, len); at eof also the
 * last line when it has no '\n'. */
static void feed_lines(struct line_feed *lf, const char *buf, size_t len, uint64_t base, bool eof)
{
    if (!lf->fn || lf->stopped) return;
    if (lf->skipping) {
        if (!eof) return;
        start_tail(lf, buf, len, base);
    }
    const char *p = buf + (lf->searched - base), *end = buf + len, *nl;
    while (p < end && (nl = memchr(p, '\n', (size_t)(end - p)))) {
        if (lf->head && lf->start >= lf->head) { /* the head is done */
            lf->skipping = true;
            if (eof) feed_lines(lf, buf, len, base, eof);
            return;
        }
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

enum encoding { ENC_BYTES, ENC_UTF16LE, ENC_UTF16BE };

struct source {
    int fd;
    gzFile gz; /* NULL: plain read(2) */
    const char *path;
    /* UTF-16 decoding (enc != ENC_BYTES): */
    enum encoding enc;
    bool bom;
    size_t sniffed, control; /* first bytes looked at; NUL/control bytes among them */
    unsigned char *raw; /* RAW_CAP bytes not yet decoded */
    size_t raw_len;
    bool raw_eof;
    bool truncated; /* gzip data that ends before its stream does: what inflated is read */
    unsigned high;           /* a high surrogate waiting for its pair; 0 none */
    unsigned char stage[4];  /* a decoded character that did not fit the caller's buffer */
    size_t stage_len, stage_off;
};

static int source_fail(const struct source *src, struct oomlab_err *err)
{
    if (!src->gz) return oomlab_err_set(err, "%s: read error: %s", src->path, strerror(errno));
    int code = 0;
    const char *msg = gzerror(src->gz, &code);
    if (code == Z_ERRNO) msg = strerror(errno);
    /* zlib prefixes "<fd:N>: " for gzdopen streams; the path says it better. */
    if (msg && strncmp(msg, "<fd:", 4) == 0 && strstr(msg, ": ")) msg = strstr(msg, ": ") + 2;
    return oomlab_err_set(err, "%s: corrupt compressed data (%s)", src->path,
                          msg && *msg ? msg : "read error");
}

/* Up to want bytes of the input as stored (inflated): the count, 0 at the
 * end, -1 on error. */
static long source_read_raw(struct source *src, char *p, size_t want)
{
    if (want > (1u << 30)) want = 1u << 30;
    if (src->gz) {
        int got = gzread(src->gz, p, (unsigned)want);
        if (got <= 0) {
            int code = 0;
            gzerror(src->gz, &code);
            /* a cut-off stream ("unexpected end of file": a job killed while
             * gzip wrote): the end of what inflated, said by info->truncated;
             * corrupt data stays an error */
            if (code == Z_BUF_ERROR) {
                src->truncated = true;
                return 0;
            }
            if (code != Z_OK) return -1;
        }
        return got;
    }
    for (;;) {
        ssize_t got = read(src->fd, p, want);
        if (got >= 0 || errno != EINTR) return (long)got;
    }
}

/* UTF-8 of one code point; U+FFFD for what UTF-16 cannot hold. */
static size_t utf8_put(unsigned cp, unsigned char *o)
{
    if (cp < 0x80) return o[0] = (unsigned char)cp, 1;
    if (cp < 0x800) {
        o[0] = (unsigned char)(0xC0 | cp >> 6);
        o[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp >= 0x110000) cp = 0xFFFD;
    if (cp < 0x10000) {
        o[0] = (unsigned char)(0xE0 | cp >> 12);
        o[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
        o[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (unsigned char)(0xF0 | cp >> 18);
    o[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
    o[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
    o[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* The next code point from a 16-bit unit (pairs surrogates; a lone one is
 * U+FFFD); -1 when the unit was a high surrogate now waiting. */
static long utf16_unit(struct source *src, unsigned u)
{
    if (src->high) {
        unsigned hi = src->high;
        src->high = 0;
        if (u >= 0xDC00 && u <= 0xDFFF) return 0x10000 + ((long)(hi - 0xD800) << 10) + (u - 0xDC00);
        if (u >= 0xD800 && u <= 0xDBFF) { /* a second high: the first was lone */
            src->high = u;
            return 0xFFFD;
        }
        src->stage_len = utf8_put(0xFFFD, src->stage); /* lone high, then this unit */
        src->stage_off = 0;
    }
    if (u >= 0xD800 && u <= 0xDBFF) {
        src->high = u;
        return -1;
    }
    return u >= 0xDC00 && u <= 0xDFFF ? 0xFFFD : (long)u;
}

/* Copy what is staged into p[*o, want). */
static void flush_stage(struct source *src, char *p, size_t *o, size_t want)
{
    while (src->stage_off < src->stage_len && *o < want) p[(*o)++] = (char)src->stage[src->stage_off++];
    if (src->stage_off == src->stage_len) src->stage_len = src->stage_off = 0;
}

/* Decode raw[0, raw_len) into p[*o, want) as far as it fits. */
static void decode_raw(struct source *src, char *p, size_t *o, size_t want)
{
    size_t i = 0;
    bool be = src->enc == ENC_UTF16BE;
    while (i + 1 < src->raw_len && *o < want && !src->stage_len) {
        unsigned u = be ? (unsigned)src->raw[i] << 8 | src->raw[i + 1]
                        : (unsigned)src->raw[i + 1] << 8 | src->raw[i];
        i += 2;
        long cp = utf16_unit(src, u);
        if (src->stage_len) { /* a lone high before this unit went first */
            flush_stage(src, p, o, want);
            i -= 2;
            if (src->stage_len) break;
            continue;
        }
        if (cp < 0) continue;
        unsigned char tmp[4];
        size_t n = utf8_put((unsigned)cp, tmp);
        size_t fit = want - *o < n ? want - *o : n;
        memcpy(p + *o, tmp, fit);
        *o += fit;
        if (fit < n) {
            memcpy(src->stage, tmp + fit, n - fit);
            src->stage_len = n - fit;
            src->stage_off = 0;
        }
    }
    memmove(src->raw, src->raw + i, src->raw_len - i);
    src->raw_len -= i;
}

/* Up to want decoded bytes: the count, 0 at the end, -1 on error. */
static long source_read(struct source *src, char *p, size_t want)
{
    if (src->enc == ENC_BYTES) return source_read_raw(src, p, want);
    size_t o = 0;
    while (o == 0) {
        flush_stage(src, p, &o, want);
        if (o == want) break;
        if (src->raw_len < 2 && !src->raw_eof) {
            long got = source_read_raw(src, (char *)src->raw + src->raw_len, RAW_CAP - src->raw_len);
            if (got < 0) return -1;
            if (got == 0) src->raw_eof = true;
            src->raw_len += (size_t)got;
        }
        decode_raw(src, p, &o, want);
        if (o == 0 && src->raw_eof && src->raw_len < 2 && !src->stage_len) {
            if (!src->raw_len && !src->high) break; /* the end */
            src->raw_len = 0, src->high = 0;        /* a cut-off unit or pair */
            src->stage_len = utf8_put(0xFFFD, src->stage), src->stage_off = 0;
        }
    }
    return (long)o;
}

/* UTF-16 from the first bytes: a BOM followed by UTF-16 text, or
 * ASCII-looking text with a NUL in (nearly) every other byte and none in
 * the others. */
static enum encoding sniff(const unsigned char *b, size_t n, bool *bom)
{
    bool big;
    *bom = textenc_utf16_bom(b, n, &big); /* the mark counts only with UTF-16 after it */
    if (*bom) return big ? ENC_UTF16BE : ENC_UTF16LE;
    if (!textenc_nul_pattern(b, n, 8, &big)) return ENC_BYTES;
    return big ? ENC_UTF16BE : ENC_UTF16LE;
}

/* Bytes no text log holds: NUL and the C0 controls other than tab, line
 * ends, form feed, backspace and ESC (ANSI colours), and DEL. */
static size_t control_bytes(const unsigned char *b, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += !b[i] || b[i] == 0x7f || (b[i] < 0x20 && !strchr("\t\n\r\f\v\b\x1b", b[i]));
    return c;
}

/* The first bytes are read before anything is scanned; UTF-16 sends them
 * back through the decoder. Returns the bytes in buf (decoded) or -1. */
static long first_fill(struct source *src, char *buf, size_t cap, bool *eof)
{
    size_t len = 0;
    while (len < SNIFF_BYTES) {
        long got = source_read_raw(src, buf + len, SNIFF_BYTES - len);
        if (got < 0) return -1;
        if (got == 0) {
            *eof = true;
            break;
        }
        len += (size_t)got;
    }
    src->enc = sniff((const unsigned char *)buf, len, &src->bom);
    if (src->enc == ENC_BYTES) {
        src->sniffed = len;
        src->control = control_bytes((const unsigned char *)buf, len);
        return (long)len;
    }
    src->raw = malloc(RAW_CAP);
    if (!src->raw) return -2;
    size_t skip = src->bom ? 2 : 0;
    memcpy(src->raw, buf + skip, len - skip);
    src->raw_len = len - skip;
    src->raw_eof = *eof;
    *eof = false;
    long got = source_read(src, buf, cap < READ_STEP ? cap : READ_STEP);
    if (got == 0) *eof = true;
    return got;
}

/* The window begins at the file's size (a 2 KB log does not get 21 MiB;
 * a file that grows while read, UTF-16 decoded to more bytes, or a
 * gzip/pipe of unknown length grows it by doubling) and slides only once
 * it is WINDOW_MAX. size: the bytes expected, -1 unknown. */
static size_t window_start(int64_t size)
{
    if (size < 0 || (uint64_t)size >= WINDOW_MAX - 1) return WINDOW_MAX;
    return (size_t)size + 1 < SNIFF_BYTES ? SNIFF_BYTES : (size_t)size + 1; /* +1: EOF read in place */
}

static int scan_stream(struct source *src, struct scan *s, struct line_feed *lf, int64_t size,
                       uint64_t *total, struct oomlab_err *err)
{
    size_t cap = window_start(size);
    char *buf = malloc(cap);
    if (!buf) return oomlab_err_set(err, "%s: out of memory", src->path);
    uint64_t base = 0, scanned = 0;
    size_t len = 0;
    bool eof = false, last_nl = true, first = true;
    int rc = 0;
    while (rc == 0) {
        if (len == cap && cap < WINDOW_MAX) { /* more than expected: grow */
            char *grown = strbuf_grow(buf, &cap, cap + 1, 1, WINDOW_MAX);
            if (!grown) {
                rc = oomlab_err_set(err, "%s: out of memory", src->path);
                break;
            }
            buf = grown;
        } else if (len == cap) { /* slide: keep SCAN_HISTORY bytes behind the scan */
            uint64_t keep = scanned > SCAN_HISTORY ? scanned - SCAN_HISTORY : 0;
            if (keep <= base) break; /* cannot happen: cap > history + lookahead */
            if (!lf->lines_only) scan_count_to(s, buf, len, base, keep);
            size_t drop = (size_t)(keep - base);
            memmove(buf, buf + drop, len - drop);
            len -= drop;
            base = keep;
        }
        size_t want = cap - len < READ_STEP ? cap - len : READ_STEP;
        long got = first ? first_fill(src, buf, cap, &eof) : source_read(src, buf + len, want);
        first = false;
        if (got < 0) {
            rc = got == -2 ? oomlab_err_set(err, "%s: out of memory", src->path)
                           : source_fail(src, err);
            break;
        }
        if (got == 0) eof = true;
        len += (size_t)got;
        if (got > 0) last_nl = buf[len - 1] == '\n';
        feed_lines(lf, buf, len, base, eof);
        if (lf->lines_only && lf->stopped) break;
        uint64_t end = base + len;
        uint64_t upto = eof ? end : (end > SCAN_LOOKAHEAD ? end - SCAN_LOOKAHEAD : base);
        if (upto > scanned) {
            if (!lf->lines_only && scan_block(s, buf, len, base, scanned, upto) < 0) {
                rc = oomlab_err_set(err, "%s: out of memory while scanning", src->path);
                break;
            }
            scanned = upto;
        }
        if (eof) break;
    }
    if (rc == 0 && !lf->lines_only) scan_finish_view(s, buf, len, base, last_nl);
    *total = base + len;
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

static void source_info(const struct source *src, uint64_t total, struct logscan_info *info)
{
    if (!info) return;
    static const char *const names[] = {"utf-8", "utf-16le", "utf-16be"};
    info->encoding = names[src->enc];
    info->bom = src->bom;
    info->bytes = total;
    info->sniffed = src->sniffed;
    info->control = src->control;
    info->truncated = src->truncated;
    /* One NUL-free control byte in 20 is more than any terminal log shows. */
    info->binary = src->control && src->control * 20 >= src->sniffed;
}

static int scan_fd(int fd, const char *path, bool regular, int64_t size, struct scan *s,
                   struct line_feed *lf, struct logscan_info *info, struct oomlab_err *err)
{
    struct source src = {.fd = fd, .path = path};
    uint64_t total = 0;
    int rc;
    /* Pipes cannot be peeked: stdin goes through zlib, which passes plain
     * text through unchanged and inflates gzip. */
    if (regular && !is_gzip(fd, regular)) {
        posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
        rc = scan_stream(&src, s, lf, size, &total, err);
    } else {
        int dupfd = dup(fd);
        if (dupfd < 0) return oomlab_err_set(err, "%s: %s", path, strerror(errno));
        src.gz = gzdopen(dupfd, "rb");
        if (!src.gz) {
            close(dupfd);
            return oomlab_err_set(err, "%s: cannot open for reading", path);
        }
        gzbuffer(src.gz, 1u << 20);
        rc = scan_stream(&src, s, lf, -1, &total, err);
        gzclose(src.gz);
    }
    source_info(&src, total, info);
    free(src.raw);
    return rc;
}

int logscan_path(const char *path, struct oom_report *rep, struct oomlab_err *err)
{
    return logscan_path_opts(path, rep, NULL, NULL, err);
}

int logscan_path_lines(const char *path, struct oom_report *rep, logscan_line_fn fn, void *ctx,
                       struct oomlab_err *err)
{
    struct logscan_opts o = {.fn = fn, .ctx = ctx};
    return logscan_path_opts(path, rep, &o, NULL, err);
}

/* A device named as a log that never ends (/dev/zero, /dev/urandom, a
 * disk): every other command refuses devices; a terminal (/dev/stdin
 * typed into, /dev/tty) ends with Ctrl-D and /dev/null at once. */
static bool endless_device(int fd, const struct stat *st, bool is_stdin)
{
    struct stat null_st;
    if (is_stdin || !(S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode)) || isatty(fd)) return false;
    return !(S_ISCHR(st->st_mode) && stat("/dev/null", &null_st) == 0 && null_st.st_rdev == st->st_rdev);
}

int logscan_path_opts(const char *path, struct oom_report *rep, const struct logscan_opts *opts,
                      struct logscan_info *info, struct oomlab_err *err)
{
    struct line_feed lf = {0};
    if (opts) {
        lf.fn = opts->fn;
        lf.ctx = opts->ctx;
        lf.head = opts->head_bytes;
        lf.tail = opts->tail_bytes < LOGSCAN_TAIL_MAX ? opts->tail_bytes : LOGSCAN_TAIL_MAX;
        if (!lf.head && lf.tail) lf.skipping = true; /* the tail only */
        lf.lines_only = opts->lines_only;
    }
    if (info) *info = (struct logscan_info){.encoding = "utf-8"};
    struct scan s;
    if (scan_init(&s, rep, err) < 0) return -1;
    bool is_stdin = strcmp(path, "-") == 0;
    const char *name = is_stdin ? "(stdin)" : path;
    /* a pipe that has its writer (diagnose <(zcat x.gz)) is read as it
     * comes; a FIFO nobody writes (a stray logs/ID.log) is said, not waited
     * on for ever (sys/fsutil, the rule lint's reads share) */
    int fd = is_stdin ? 0 : fsutil_open_input(path, err);
    int rc;
    struct stat st;
    if (fd < 0) {
        rc = -1;
    } else if (fstat(fd, &st) < 0) {
        rc = oomlab_err_set(err, "%s: %s", name, strerror(errno));
    } else if (S_ISDIR(st.st_mode)) {
        rc = oomlab_err_set(err, "%s: is a directory, not a log file", name);
    } else if (endless_device(fd, &st, is_stdin)) {
        rc = oomlab_err_set(err, "%s: a %s device, not a log file (it would be read for ever)", name,
                            S_ISCHR(st.st_mode) ? "character" : "block");
    } else {
        bool regular = S_ISREG(st.st_mode) && !is_stdin;
        rc = scan_fd(fd, name, regular, regular ? (int64_t)st.st_size : -1, &s, &lf, info, err);
    }
    if (fd > 0) close(fd);
    scan_release(&s);
    if (rc < 0) oom_report_release(rep);
    return rc < 0 ? -1 : 0;
}
