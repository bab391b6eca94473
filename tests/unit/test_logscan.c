/* Unit tests for sys/logscan's line delivery (logscan_path_lines): lines cut
 * by the read steps and the window's slides, CRLF, no final newline, empty
 * input, a line longer than the window, .gz, stdin; the OOM report of the
 * same pass is the one logscan_path gives. UTF-16 (BOM LE/BE, BOM-less LE,
 * gz, stdin, surrogates, cut-off units) reads as its UTF-8 text; head/tail
 * delivery gives exactly the documented lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "lib/steps.h"
#include "sys/logscan.h"

static char dir[] = "/tmp/oomlab-logscan-XXXXXX";

/* What the callback saw: the first lines verbatim (short ones), the count,
 * and, when `expect` is set, whether every line matched the rule applied to
 * the whole text in memory. */
#define KEEP 16
struct seen {
    char line[KEEP][64];
    size_t len[KEEP];
    size_t n;
    const char *expect; /* the input's text, or NULL */
    size_t expect_size, pos, mismatches;
    size_t stop_after; /* 0: never stop */
};

static int collect(const char *line, size_t len, void *ctx)
{
    struct seen *s = ctx;
    if (s->n < KEEP) {
        size_t n = len < sizeof s->line[0] - 1 ? len : sizeof s->line[0] - 1;
        memcpy(s->line[s->n], line, n);
        s->line[s->n][n] = '\0';
        s->len[s->n] = len;
    }
    if (s->expect) { /* the documented rule: up to '\n', last LOGSCAN_LINE_MAX bytes */
        const char *start = s->expect + s->pos, *end = s->expect + s->expect_size;
        const char *nl =
            s->pos < s->expect_size ? memchr(start, '\n', (size_t)(end - start)) : NULL;
        const char *stop = nl ? nl : end;
        const char *from =
            (size_t)(stop - start) > LOGSCAN_LINE_MAX ? stop - LOGSCAN_LINE_MAX : start;
        if (s->pos >= s->expect_size || len != (size_t)(stop - from) ||
            memcmp(line, from, len) != 0)
            s->mismatches++;
        s->pos = (size_t)(stop - s->expect) + 1;
    }
    s->n++;
    return s->stop_after && s->n >= s->stop_after;
}

static void write_file(const char *path, const char *data, size_t len, bool gz)
{
    if (gz) {
        gzFile g = gzopen(path, "wb1");
        assert_non_null(g);
        for (size_t off = 0; off < len;) { /* gzwrite takes an unsigned count */
            unsigned n = len - off > (1u << 30) ? 1u << 30 : (unsigned)(len - off);
            assert_int_equal(gzwrite(g, data + off, n), (int)n);
            off += n;
        }
        assert_int_equal(gzclose(g), Z_OK);
        return;
    }
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* Scan `data` written to a file (gzip-compressed when gz); rc returned. */
static int scan_data(const char *data, size_t len, bool gz, struct seen *s, struct oom_report *rep)
{
    char path[256];
    snprintf(path, sizeof path, "%s/in.log%s", dir, gz ? ".gz" : "");
    write_file(path, data, len, gz);
    struct oomlab_err err = {{0}};
    int rc = logscan_path_lines(path, rep, collect, s, &err);
    unlink(path);
    return rc;
}

static void scan_str(const char *text, struct seen *s)
{
    struct oom_report rep;
    memset(s, 0, sizeof *s);
    assert_int_equal(scan_data(text, strlen(text), false, s, &rep), 0);
    oom_report_release(&rep);
}

static void test_crlf_final_line_empty_lines(void **state)
{
    (void)state;
    struct seen s;
    scan_str("a\r\nbb\r\n", &s);
    assert_int_equal(s.n, 2);
    assert_string_equal(s.line[0], "a\r");
    assert_string_equal(s.line[1], "bb\r");
    scan_str("one\ntwo", &s); /* no final newline: still a line */
    assert_int_equal(s.n, 2);
    assert_string_equal(s.line[1], "two");
    assert_int_equal(s.len[1], 3);
    scan_str("\n\nx\n\n", &s); /* empty lines are lines; no extra one after the last '\n' */
    assert_int_equal(s.n, 4);
    assert_int_equal(s.len[0], 0);
    assert_int_equal(s.len[1], 0);
    assert_string_equal(s.line[2], "x");
    assert_int_equal(s.len[3], 0);
    scan_str("\r", &s);
    assert_int_equal(s.n, 1);
    assert_string_equal(s.line[0], "\r");
}

static void test_empty_input(void **state)
{
    (void)state;
    struct seen s;
    scan_str("", &s);
    assert_int_equal(s.n, 0);
}

/* Many lines of varied lengths (1 B to ~70 KiB) over 30 MiB: lines cut by
 * the 1 MiB read steps and by the window's slides must come out whole. */
static char *varied_text(size_t size)
{
    char *t = malloc(size);
    assert_non_null(t);
    uint32_t x = 12345;
    size_t i = 0, line = 0;
    while (i < size) {
        x = x * 1103515245u + 12345u;
        size_t len = (x >> 8) % ((line % 50) == 0 ? 70000 : 200);
        int n = snprintf(t + i, size - i, "step=%zu loss=%u ", line++, (x >> 4) % 1000);
        i += n > 0 ? (size_t)n : 0;
        for (size_t k = 0; k < len && i < size; k++)
            t[i++] = (char)('a' + (k + line) % 26);
        if (i < size) t[i++] = line % 7 == 0 ? '\r' : '\n'; /* some '\r' inside lines */
        if (i < size && line % 7 == 0) t[i++] = '\n';
    }
    return t;
}

static void check_varied(bool gz)
{
    size_t size = (size_t)30 << 20;
    char *text = varied_text(size);
    struct seen s = {.expect = text, .expect_size = size};
    struct oom_report rep;
    assert_int_equal(scan_data(text, size, gz, &s, &rep), 0);
    oom_report_release(&rep);
    assert_int_equal(s.mismatches, 0);
    assert_true(s.pos >= size); /* every byte reached */
    size_t want = 0;
    for (size_t i = 0; i < size; i++)
        want += text[i] == '\n';
    want += text[size - 1] != '\n';
    assert_int_equal(s.n, want);
    free(text);
}

static void test_lines_across_reads_and_slides(void **state)
{
    (void)state;
    check_varied(false);
}

static void test_gz_lines(void **state)
{
    (void)state;
    check_varied(true);
    struct seen s = {0};
    struct oom_report rep;
    const char *text = "x\r\ny\nlast";
    assert_int_equal(scan_data(text, strlen(text), true, &s, &rep), 0);
    oom_report_release(&rep);
    assert_int_equal(s.n, 3);
    assert_string_equal(s.line[0], "x\r");
    assert_string_equal(s.line[2], "last");
}

/* A .gz cut off while it was written: what inflated is read (its OOM kept)
 * and info->truncated says the rest is missing; it was "corrupt or
 * truncated compressed data", rc -1, nothing read. Corrupt data still fails. */
static void test_gz_cut_off(void **state)
{
    (void)state;
    static const char text[] = "step=1 loss=2.0\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
                               "2.00 GiB. GPU 0 has a total capacity of 23.65 GiB of which 1.00 GiB is free.\n";
    char path[256];
    snprintf(path, sizeof path, "%s/cut.log.gz", dir);
    write_file(path, text, sizeof text - 1, true);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(truncate(path, st.st_size - 8), 0); /* the CRC and size trailer gone */
    struct seen s = {0};
    struct oom_report rep;
    struct logscan_info info;
    memset(&info, 0, sizeof info);
    struct oomlab_err err = {{0}};
    struct logscan_opts o = {.fn = collect, .ctx = &s};
    assert_int_equal(logscan_path_opts(path, &rep, &o, &info, &err), 0);
    assert_true(info.truncated);
    assert_int_equal(rep.n_events, 1);
    assert_int_equal(info.bytes, sizeof text - 1);
    oom_report_release(&rep);
    /* a bad block in the middle is corrupt, not cut off */
    write_file(path, text, sizeof text - 1, true);
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, 12, SEEK_SET), 0);
    assert_int_equal(fwrite("\xff\xff\xff\xff\xff\xff\xff\xff", 1, 8, f), 8);
    fclose(f);
    memset(&info, 0, sizeof info);
    struct seen s2 = {0};
    o.ctx = &s2;
    assert_int_equal(logscan_path_opts(path, &rep, &o, &info, &err), -1);
    assert_non_null(strstr(err.msg, "corrupt compressed data"));
    oom_report_release(&rep);
    unlink(path);
}

/* A line of `len` bytes: "step=1 loss=9.0 ", filler, then a '\r' redraw
 * with the bar's final state at the end; then "next\n" unless final. */
static char *long_line(size_t len, bool final, size_t *size)
{
    static const char tail[] = "\rstep=7 loss=0.5 peak_alloc=1.00GB";
    char *t = malloc(len + 8);
    assert_non_null(t);
    size_t head = (size_t)snprintf(t, len, "step=1 loss=9.0 ");
    memset(t + head, '#', len - head);
    memcpy(t + len - (sizeof tail - 1), tail, sizeof tail - 1);
    *size = len;
    if (!final) {
        memcpy(t + len, "\nnext\n", 6);
        *size += 6;
    }
    return t;
}

static void check_long(size_t len, bool final, bool gz)
{
    size_t size;
    char *text = long_line(len, final, &size);
    struct seen s = {.expect = text, .expect_size = size};
    struct oom_report rep;
    assert_int_equal(scan_data(text, size, gz, &s, &rep), 0);
    oom_report_release(&rep);
    assert_int_equal(s.mismatches, 0);
    assert_int_equal(s.n, final ? 1 : 2);
    size_t want = len > LOGSCAN_LINE_MAX ? LOGSCAN_LINE_MAX : len;
    assert_int_equal(s.len[0], want);
    if (!final) assert_string_equal(s.line[1], "next");
    free(text);
}

/* The step parser reads the redraw's final state from what is delivered. */
static int parse_last(const char *line, size_t len, void *ctx)
{
    steps_parse_line(line, len, ctx);
    return 0;
}

static void test_long_lines(void **state)
{
    (void)state;
    check_long(LOGSCAN_LINE_MAX, false, false);     /* whole */
    check_long(LOGSCAN_LINE_MAX + 1, false, false); /* last N bytes */
    check_long((size_t)25 << 20, false, false);     /* longer than the window */
    check_long((size_t)25 << 20, true, false);      /* ... and without '\n' */
    check_long((size_t)25 << 20, false, true);
    size_t size;
    char *text = long_line((size_t)25 << 20, true, &size);
    char path[256];
    snprintf(path, sizeof path, "%s/bar.log", dir);
    write_file(path, text, size, false);
    free(text);
    struct steps_point pt;
    struct oom_report rep;
    struct oomlab_err err = {{0}};
    assert_int_equal(logscan_path_lines(path, &rep, parse_last, &pt, &err), 0);
    oom_report_release(&rep);
    unlink(path);
    assert_int_equal(pt.step, 7);
    assert_true(pt.loss == 0.5);
    assert_int_equal(pt.peak_alloc, 1073741824);
}

static void test_stdin(void **state)
{
    (void)state;
    for (int gz = 0; gz <= 1; gz++) {
        char path[256];
        snprintf(path, sizeof path, "%s/stdin.log", dir);
        const char *text = "first\r\nsecond\nthird";
        write_file(path, text, strlen(text), gz);
        int saved = dup(0), fd = open(path, O_RDONLY);
        assert_true(saved >= 0 && fd >= 0);
        assert_int_equal(dup2(fd, 0), 0);
        close(fd);
        struct seen s = {0};
        struct oom_report rep;
        struct oomlab_err err = {{0}};
        int rc = logscan_path_lines("-", &rep, collect, &s, &err);
        assert_int_equal(dup2(saved, 0), 0);
        close(saved);
        unlink(path);
        assert_int_equal(rc, 0);
        oom_report_release(&rep);
        assert_int_equal(s.n, 3);
        assert_string_equal(s.line[0], "first\r");
        assert_string_equal(s.line[1], "second");
        assert_string_equal(s.line[2], "third");
    }
}

/* The OOM report is the one logscan_path gives, also when the callback stops
 * early; errors are reported as before. */
static void test_same_report_and_stop(void **state)
{
    (void)state;
    char path[256];
    snprintf(path, sizeof path, "%s/oom.log", dir);
    const char *text =
        "step=1 loss=2.0\nstep=2 loss=1.9\nstep=3 loss=1.8\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a "
        "total capacity of 79.15 GiB of which 5.00 MiB is free. Of the allocated memory 70.00 GiB "
        "is allocated by PyTorch, and 2.00 GiB is reserved by PyTorch but unallocated.\n";
    write_file(path, text, strlen(text), false);
    struct oom_report plain, lines;
    struct oomlab_err err = {{0}};
    assert_int_equal(logscan_path(path, &plain, &err), 0);
    struct seen s = {.stop_after = 2};
    assert_int_equal(logscan_path_lines(path, &lines, collect, &s, &err), 0);
    assert_int_equal(s.n, 2);
    assert_int_equal(plain.n_events, 1);
    assert_int_equal(lines.n_events, 1);
    assert_int_equal(lines.lines, plain.lines);
    assert_int_equal(lines.events[0].line, plain.events[0].line);
    assert_int_equal(lines.events[0].step, 3);
    assert_int_equal(lines.events[0].bytes.requested, plain.events[0].bytes.requested);
    oom_report_release(&plain);
    oom_report_release(&lines);
    unlink(path);
    memset(&s, 0, sizeof s);
    assert_int_equal(logscan_path_lines(path, &lines, collect, &s, &err), -1); /* missing */
    assert_non_null(strstr(err.msg, "oom.log"));
    assert_int_equal(s.n, 0);
}


/* ---- UTF-16 ----------------------------------------------------------------- */

/* UTF-8 (valid) -> UTF-16; a BOM first when bom. The caller frees. */
static unsigned char *to_utf16(const char *u8, size_t n, bool be, bool bom, size_t *out_len)
{
    unsigned char *o = malloc(n * 2 + 4);
    assert_non_null(o);
    size_t k = 0;
#define PUT(u)                                                                 \
    do {                                                                       \
        unsigned v_ = (u);                                                     \
        o[k++] = (unsigned char)(be ? v_ >> 8 : v_ & 0xFF);                    \
        o[k++] = (unsigned char)(be ? v_ & 0xFF : v_ >> 8);                    \
    } while (0)
    if (bom) PUT(0xFEFF);
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)u8[i];
        unsigned cp, len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        cp = len == 1 ? c : len == 2 ? c & 0x1F : len == 3 ? c & 0x0F : c & 0x07;
        for (unsigned j = 1; j < len; j++) cp = cp << 6 | ((unsigned char)u8[i + j] & 0x3F);
        i += len;
        if (cp >= 0x10000) {
            PUT(0xD800 + ((cp - 0x10000) >> 10));
            PUT(0xDC00 + ((cp - 0x10000) & 0x3FF));
        } else {
            PUT(cp);
        }
    }
#undef PUT
    *out_len = k;
    return o;
}

static const char oom_text[] =
    "caf\xc3\xa9 \xf0\x9f\x98\x80 step=3 loss=1.8\r\n"
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a "
    "total capacity of 79.15 GiB of which 5.00 MiB is free. Of the allocated memory 70.00 GiB "
    "is allocated by PyTorch, and 2.00 GiB is reserved by PyTorch but unallocated.\n"
    "last line without newline \xe2\x96\x88";

/* Scan bytes from a file with logscan_path_opts (every line). */
static int scan_opts(const void *data, size_t len, bool gz, struct seen *s, struct oom_report *rep,
                     struct logscan_info *info)
{
    char path[256];
    snprintf(path, sizeof path, "%s/in16.log%s", dir, gz ? ".gz" : "");
    write_file(path, data, len, gz);
    struct oomlab_err err = {{0}};
    struct logscan_opts o = {.fn = collect, .ctx = s};
    int rc = logscan_path_opts(path, rep, &o, info, &err);
    unlink(path);
    return rc;
}

static void check_utf16(const char *u8, size_t n, bool be, bool bom, bool gz, const char *enc)
{
    struct oom_report want, got;
    struct seen s0 = {0};
    assert_int_equal(scan_data(u8, n, false, &s0, &want), 0);
    size_t len;
    unsigned char *u16 = to_utf16(u8, n, be, bom, &len);
    struct seen s = {.expect = u8, .expect_size = n};
    struct logscan_info info;
    assert_int_equal(scan_opts(u16, len, gz, &s, &got, &info), 0);
    free(u16);
    assert_string_equal(info.encoding, enc);
    assert_int_equal(info.bom, bom);
    assert_int_equal(info.bytes, n);
    assert_int_equal(s.mismatches, 0); /* every line is the UTF-8 text's */
    assert_int_equal(s.n, s0.n);
    assert_int_equal(got.n_events, want.n_events);
    assert_int_equal(got.lines, want.lines);
    for (size_t i = 0; i < got.n_events; i++) {
        assert_int_equal(got.events[i].line, want.events[i].line);
        assert_int_equal(got.events[i].bytes.requested, want.events[i].bytes.requested);
    }
    oom_report_release(&want);
    oom_report_release(&got);
}

static void test_utf16(void **state)
{
    (void)state;
    size_t n = sizeof oom_text - 1;
    check_utf16(oom_text, n, false, true, false, "utf-16le");  /* PowerShell's `>` */
    check_utf16(oom_text, n, true, true, false, "utf-16be");
    check_utf16(oom_text, n, false, false, false, "utf-16le"); /* no BOM: the NUL pattern */
    check_utf16(oom_text, n, false, true, true, "utf-16le");   /* gzipped */
    /* Large: characters and pairs cut by every read step and slide. */
    size_t size = (size_t)12 << 20;
    char *text = varied_text(size);
    for (size_t i = 0; i + 4 < size; i += 4099) /* sprinkle 4-byte characters */
        if (text[i] != '\n' && text[i] != '\r' && text[i + 1] != '\n' && text[i + 1] != '\r' &&
            text[i + 2] != '\n' && text[i + 2] != '\r' && text[i + 3] != '\n' && text[i + 3] != '\r')
            memcpy(text + i, "\xf0\x9f\x98\x80", 4);
    check_utf16(text, size, false, true, false, "utf-16le");
    free(text);
    /* One event found, not zero, in the decoded text. */
    struct seen s = {0};
    struct oom_report rep;
    size_t len;
    unsigned char *u16 = to_utf16(oom_text, n, false, true, &len);
    assert_int_equal(scan_opts(u16, len, false, &s, &rep, NULL), 0);
    assert_int_equal(rep.n_events, 1);
    oom_report_release(&rep);
    /* A lone surrogate and a cut-off last unit read as U+FFFD. */
    u16[2] = 0x00, u16[3] = 0xD8; /* 'c' -> a lone high surrogate */
    u16[len++] = 'x';             /* half a unit at the end */
    memset(&s, 0, sizeof s);
    assert_int_equal(scan_opts(u16, len, false, &s, &rep, NULL), 0);
    oom_report_release(&rep);
    assert_string_equal(s.line[0], "\xef\xbf\xbd" "af\xc3\xa9 \xf0\x9f\x98\x80 step=3 loss=1.8\r");
    assert_non_null(strstr(s.line[2], "\xef\xbf\xbd"));
    free(u16);
}

/* The window starts at the file's size and grows when the text is longer
 * than the file: UTF-16 CJK text decodes to 1.5x its bytes (3 MiB of
 * UTF-16 -> 4.5 MiB), so the window doubles twice; lines cut by each
 * growth come out whole, and the OOM line at the end is found. */
static void test_window_grows_past_file_size(void **state)
{
    (void)state;
    size_t size = (size_t)9 << 19, i = 0, line = 0; /* 4.5 MiB of UTF-8 */
    char *text = malloc(size + sizeof oom_text);
    assert_non_null(text);
    while (i + 400 < size) {
        int n = snprintf(text + i, size - i, "step=%zu ", line++);
        i += n > 0 ? (size_t)n : 0;
        for (size_t k = 0; k < 1 + line % 120; k++, i += 3) memcpy(text + i, "\xe6\xad\xa5", 3); /* U+6B65 */
        text[i++] = '\n';
    }
    memcpy(text + i, oom_text, sizeof oom_text - 1);
    check_utf16(text, i + sizeof oom_text - 1, false, true, false, "utf-16le");
    free(text);
}

static void test_utf16_stdin_and_not_utf16(void **state)
{
    (void)state;
    char path[256];
    snprintf(path, sizeof path, "%s/stdin16.log", dir);
    size_t len;
    unsigned char *u16 = to_utf16("first\r\nsecond\n", 14, false, true, &len);
    write_file(path, (const char *)u16, len, false);
    free(u16);
    int saved = dup(0), fd = open(path, O_RDONLY);
    assert_true(saved >= 0 && fd >= 0);
    assert_int_equal(dup2(fd, 0), 0);
    close(fd);
    struct seen s = {0};
    struct oom_report rep;
    struct oomlab_err err = {{0}};
    struct logscan_opts o = {.fn = collect, .ctx = &s};
    struct logscan_info info;
    int rc = logscan_path_opts("-", &rep, &o, &info, &err);
    assert_int_equal(dup2(saved, 0), 0);
    close(saved);
    unlink(path);
    assert_int_equal(rc, 0);
    oom_report_release(&rep);
    assert_string_equal(info.encoding, "utf-16le");
    assert_int_equal(s.n, 2);
    assert_string_equal(s.line[1], "second");
    /* Binary with scattered NULs, and UTF-8: read as bytes. */
    unsigned char bin[8192];
    uint32_t x = 7;
    for (size_t i = 0; i < sizeof bin; i++) {
        x = x * 1103515245u + 12345u;
        bin[i] = (unsigned char)(x >> 24);
        if (i % 3 == 0) bin[i] = 0;
    }
    memset(&s, 0, sizeof s);
    assert_int_equal(scan_opts(bin, sizeof bin, false, &s, &rep, &info), 0);
    oom_report_release(&rep);
    assert_string_equal(info.encoding, "utf-8");
    memset(&s, 0, sizeof s);
    assert_int_equal(scan_opts(oom_text, sizeof oom_text - 1, false, &s, &rep, &info), 0);
    oom_report_release(&rep);
    assert_string_equal(info.encoding, "utf-8");
    assert_false(info.bom);
}

/* A BOM alone does not make UTF-16: 8-bit text that starts with FF FE or
 * FE FF is read as bytes (and its OOM found); real UTF-16 after a BOM,
 * CJK text included, is still decoded. */
static void test_bom_then_8bit(void **state)
{
    (void)state;
    static const char *const marks[] = {"\xff\xfe", "\xfe\xff"};
    for (size_t m = 0; m < 2; m++) {
        char text[sizeof oom_text + 2];
        memcpy(text, marks[m], 2);
        memcpy(text + 2, oom_text, sizeof oom_text - 1);
        struct seen s = {0};
        struct oom_report rep;
        struct logscan_info info;
        assert_int_equal(scan_opts(text, sizeof text - 1, false, &s, &rep, &info), 0);
        assert_string_equal(info.encoding, "utf-8");
        assert_false(info.bom);
        assert_int_equal(rep.n_events, 1);
        oom_report_release(&rep);
    }
    /* CJK in UTF-16 (few NULs but its line ends), both byte orders. */
    static const char cjk[] = "\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3\n"
                              "\xe4\xb8\x8a\xe4\xb8\x8b\xe6\x96\x87\n";
    check_utf16(cjk, sizeof cjk - 1, false, true, false, "utf-16le");
    check_utf16(cjk, sizeof cjk - 1, true, true, false, "utf-16be");
    check_utf16(oom_text, sizeof oom_text - 1, false, true, false, "utf-16le");
}

/* ---- head and tail ---------------------------------------------------------- */

struct joined {
    char *buf;
    size_t len, cap;
};

static int join_line(const char *line, size_t len, void *ctx)
{
    struct joined *j = ctx;
    if (j->len + len + 1 > j->cap) {
        j->cap = (j->len + len + 1) * 2;
        j->buf = realloc(j->buf, j->cap);
        assert_non_null(j->buf);
    }
    memcpy(j->buf + j->len, line, len);
    j->len += len;
    j->buf[j->len++] = '\n';
    return 0;
}

/* The documented selection, computed on the text in memory: lines that
 * start before head, then whole lines inside the last tail bytes. */
static void expected_head_tail(const char *t, size_t n, size_t head, size_t tail, struct joined *j)
{
    size_t from = n > tail ? n - tail : 0;
    for (size_t start = 0; start < n;) {
        const char *nl = memchr(t + start, '\n', n - start);
        size_t stop = nl ? (size_t)(nl - t) : n;
        bool in_head = start < head, in_tail = start >= from;
        if (in_head || in_tail) join_line(t + start, stop - start, j);
        start = stop + 1;
    }
}

static void check_head_tail(size_t size, size_t head, size_t tail)
{
    char *text = varied_text(size);
    char path[256];
    snprintf(path, sizeof path, "%s/ht.log", dir);
    write_file(path, text, size, false);
    struct joined got = {0}, want = {0};
    struct oom_report rep;
    struct oomlab_err err = {{0}};
    struct logscan_opts o = {.fn = join_line, .ctx = &got, .head_bytes = head, .tail_bytes = tail};
    assert_int_equal(logscan_path_opts(path, &rep, &o, NULL, &err), 0);
    oom_report_release(&rep);
    unlink(path);
    expected_head_tail(text, size, head, tail, &want);
    assert_int_equal(got.len, want.len);
    assert_memory_equal(got.buf, want.buf, want.len);
    assert_true(got.len < size || size < head + tail + 70000);
    free(got.buf);
    free(want.buf);
    free(text);
}

static void test_head_and_tail(void **state)
{
    (void)state;
    check_head_tail((size_t)30 << 20, 256u << 10, 1u << 20); /* past several slides */
    check_head_tail((size_t)1 << 20, 256u << 10, 1u << 20);  /* head and tail overlap */
    check_head_tail((size_t)3 << 20, 256u << 10, 1u << 20);
}

/* lines_only: the lines and nothing else (diagnose's time pass): no OOM
 * report, and reading stops where the callback says so. Before, the time
 * pass scanned the whole log a second time for its lines (half of
 * diagnose's time on a log of many OOMs). */
static void test_lines_only(void **state)
{
    (void)state;
    char path[256];
    snprintf(path, sizeof path, "%s/lines-only.log", dir);
    static const char text[] = "step 1\n"
                               "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
                               "step 2\n"
                               "RuntimeError: CUDA out of memory. Tried to allocate 4.00 GiB\n";
    write_file(path, text, sizeof text - 1, false);
    struct seen s;
    memset(&s, 0, sizeof s);
    s.stop_after = 2;
    struct oom_report rep;
    struct oomlab_err err = {{0}};
    struct logscan_opts o = {.fn = collect, .ctx = &s, .lines_only = true};
    assert_int_equal(logscan_path_opts(path, &rep, &o, NULL, &err), 0);
    assert_int_equal(s.n, 2);
    assert_string_equal(s.line[1], "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB");
    assert_int_equal(rep.n_events, 0);
    oom_report_release(&rep);
    /* without it, the same file is scanned */
    memset(&s, 0, sizeof s);
    o.lines_only = false;
    assert_int_equal(logscan_path_opts(path, &rep, &o, NULL, &err), 0);
    assert_int_equal(s.n, 4);
    assert_true(rep.n_events > 0);
    oom_report_release(&rep);
    unlink(path);
}

int main(void)
{
    if (!mkdtemp(dir)) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crlf_final_line_empty_lines),
        cmocka_unit_test(test_empty_input),
        cmocka_unit_test(test_lines_across_reads_and_slides),
        cmocka_unit_test(test_gz_lines),
        cmocka_unit_test(test_long_lines),
        cmocka_unit_test(test_stdin),
        cmocka_unit_test(test_same_report_and_stop),
        cmocka_unit_test(test_utf16),
        cmocka_unit_test(test_utf16_stdin_and_not_utf16),
        cmocka_unit_test(test_window_grows_past_file_size),
        cmocka_unit_test(test_bom_then_8bit),
        cmocka_unit_test(test_head_and_tail),
        cmocka_unit_test(test_gz_cut_off),
        cmocka_unit_test(test_lines_only),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) rc = rc ? rc : 1;
    return rc;
}
