/* Unit tests for the bounds on what scan.c reads per hit (diagperf): a log
 * where every line hits an anchor must cost a few lines and bytes per line,
 * not a window's worth. The scan counts its own work (scan.work), so the
 * bounds are checked without a clock. Before:
 * - apply_near read its 400-line windows above every message ("No GPU/TPU
 *   found", "rank %d nranks"): 800+ context lines read per line of a log of
 *   JAX messages (10 s a MiB of bench/hostile's anchor-dense);
 * - short_next searched a short anchor's key byte to the end of the 256 KiB
 *   slice after every hit when the byte was absent;
 * - the walks around each event cleaned and classified every line they
 *   passed, again for each walk and each event (read_cline keeps lines). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/scan.h"

/* `lines` copies of line, as one text; the caller frees it. */
static char *repeat(const char *line, int lines, size_t *len)
{
    size_t k = strlen(line);
    char *log = malloc(k * (size_t)lines + 1);
    assert_non_null(log);
    for (int i = 0; i < lines; i++) memcpy(log + k * (size_t)i, line, k);
    log[k * (size_t)lines] = '\0';
    *len = k * (size_t)lines;
    return log;
}

/* Scan text; the work counted and, in *events, the events kept. */
static void scan_work(const char *text, size_t len, uint64_t *lines_read, uint64_t *short_bytes,
                      int *events)
{
    struct oom_report rep;
    struct oomlab_err err = {{0}};
    struct scan s;
    assert_int_equal(scan_init(&s, &rep, &err), 0);
    assert_int_equal(scan_block(&s, text, len, 0, 0, len), 0);
    scan_finish_view(&s, text, len, 0, true);
    *lines_read = s.work.lines_read;
    *short_bytes = s.work.short_bytes;
    *events = (int)rep.n_events;
    scan_release(&s);
    oom_report_release(&rep);
}

#define LINES 3000

static void test_jax_messages_read_few_lines(void **state)
{
    (void)state;
    /* JAX's message on every line: each reads its 400-line windows above
     * for "No GPU/TPU found" only where some line there could match */
    size_t len;
    char *log = repeat("jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while "
                       "trying to allocate 1073741824 bytes.\n",
                       LINES, &len);
    uint64_t lines_read, short_bytes;
    int events;
    scan_work(log, len, &lines_read, &short_bytes, &events);
    assert_true(events >= 1);
    assert_true(lines_read <= 64u * LINES);
    free(log);
}

static void test_window_still_read_where_a_line_matches(void **state)
{
    (void)state;
    /* the memo skips nothing it should read: JAX's fallback warning 300
     * lines above the message still makes it host memory */
    static const char warn[] = "WARNING: No GPU/TPU found, falling back to CPU. (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)\n";
    static const char chatter[] = "I0501 step done\n";
    static const char oom[] = "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while "
                              "trying to allocate 1073741824 bytes.\n";
    size_t n = sizeof oom * 40 + sizeof warn + sizeof chatter * 300 + 1;
    char *log = malloc(n), *p = log;
    assert_non_null(log);
    /* messages before the warning (the memo starts), the warning, then the message 300 lines below it */
    for (int i = 0; i < 40; i++) memcpy(p, oom, sizeof oom - 1), p += sizeof oom - 1;
    memcpy(p, warn, sizeof warn - 1), p += sizeof warn - 1;
    for (int i = 0; i < 300; i++) memcpy(p, chatter, sizeof chatter - 1), p += sizeof chatter - 1;
    memcpy(p, oom, sizeof oom - 1), p += sizeof oom - 1;
    *p = '\0';
    struct oom_report rep;
    struct oomlab_err err = {{0}};
    assert_int_equal(scan_text(log, (size_t)(p - log), &rep, &err), 0);
    bool host = false;
    for (size_t i = 0; i < rep.n_events; i++) host |= !strcmp(rep.events[i].kind, "xla-host-memory");
    assert_true(host);
    oom_report_release(&rep);
    free(log);
}

static void test_short_anchor_search_linear(void **state)
{
    (void)state;
    /* every line hits; the short anchors' key bytes searched only up to
     * the next hit */
    size_t len;
    char *log = repeat("INFO: out of memory? no, fine. OOM check passed, CUDA error: none, RESOURCE_EXHAUSTED=0\n",
                       LINES, &len);
    uint64_t lines_read, short_bytes;
    int events;
    scan_work(log, len, &lines_read, &short_bytes, &events);
    assert_true(short_bytes <= 64u * len);
    free(log);
}

static void test_ranks_lines_read_once(void **state)
{
    (void)state;
    /* 400 ranks' messages over one other writer's lines (fuzz13's shape,
     * 64 KiB): the walks around each event read the same lines; each is
     * cleaned about once (before: 57 times a line) */
    char *log = malloc(64 << 10), *p = log;
    assert_non_null(log);
    int lines = 0;
    for (int r = 0; r < 400; r++, lines++)
        p += snprintf(p, 128, "[rank%d]: RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n", r);
    static const char other[] = "[rank0]: step 10 done\n";
    while ((size_t)(p - log) + sizeof other < (64u << 10)) memcpy(p, other, sizeof other - 1), p += sizeof other - 1, lines++;
    *p = '\0';
    uint64_t lines_read, short_bytes;
    int events;
    scan_work(log, (size_t)(p - log), &lines_read, &short_bytes, &events);
    assert_true(events >= 1);
    assert_true(lines_read <= 8u * (uint64_t)lines);
    free(log);
}

static void test_repeated_message_read_once(void **state)
{
    (void)state;
    /* one message on every line (a retry loop): classified and its numbers
     * read once, not once a line (each was a memmem per rule and clause) */
    size_t len;
    char *log = repeat("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB total "
                       "capacity; 74.31 GiB already allocated; 1.02 GiB free; 77.00 GiB reserved in total by PyTorch)\n",
                       LINES, &len);
    struct oom_report rep;
    struct oomlab_err err = {{0}};
    struct scan s;
    assert_int_equal(scan_init(&s, &rep, &err), 0);
    assert_int_equal(scan_block(&s, log, len, 0, 0, len), 0);
    scan_finish_view(&s, log, len, 0, true);
    assert_true(s.work.classified <= 16);
    assert_true(s.work.extracted <= 16);
    assert_true(rep.n_events == 1 && rep.events[0].repeats == LINES - 1);
    assert_int_equal(rep.events[0].bytes.requested, 2147483648);
    scan_release(&s);
    oom_report_release(&rep);
    free(log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jax_messages_read_few_lines),
        cmocka_unit_test(test_window_still_read_where_a_line_matches),
        cmocka_unit_test(test_short_anchor_search_linear),
        cmocka_unit_test(test_ranks_lines_read_once),
        cmocka_unit_test(test_repeated_message_read_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
