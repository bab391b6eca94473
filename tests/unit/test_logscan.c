/* Unit tests for sys/logscan's line delivery (logscan_path_lines): lines cut
 * by the read steps and the window's slides, CRLF, no final newline, empty
 * input, a line longer than the window, .gz, stdin; the OOM report of the
 * same pass is the one logscan_path gives. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <fcntl.h>
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
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) rc = rc ? rc : 1;
    return rc;
}
