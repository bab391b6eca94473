/* Unit tests for lib/torchsteps: the hook's step file read back — ranks
 * interleaved out of order, rows cut by a kill, malformed rows, foreign
 * headers, the worst rank, and the memory trend of a growing run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "lib/torchsteps.h"
#include "sys/torchhook.h"

#include <sys/resource.h>
#include <unistd.h>

static int parse(const char *text, struct torchsteps *ts)
{
    struct oomlab_err err = {{0}};
    return torchsteps_parse(ts, text, strlen(text), &err);
}

static void test_ranks_interleaved(void **state)
{
    (void)state;
    struct torchsteps ts;
    /* rank 1's step 1 lands after rank 0's step 2: still one point per step */
    const char *t = TORCHSTEPS_HEADER
        "1,100.5,0,0,0,0,10,20,30,40\n"
        "2,101.5,0,0,0,0,10,20,31,41\n"
        "1,100.7,1,1,1,0,10,20,35,50\n"
        "2,101.8,1,1,1,0,10,20,32,42\n";
    assert_int_equal(parse(t, &ts), 0);
    assert_int_equal(ts.rows, 4);
    assert_int_equal(ts.bad_rows, 0);
    assert_int_equal(ts.ranks, 2);
    assert_int_equal(ts.series.n, 2);
    assert_int_equal(ts.series.points[0].step, 1);
    assert_int_equal(ts.series.points[0].peak_alloc, 35);
    assert_int_equal(ts.series.points[0].peak_reserved, 50);
    assert_int_equal(ts.series.points[1].peak_reserved, 42);
    assert_int_equal(ts.peak_reserved, 50);
    assert_int_equal(ts.peak_alloc, 35);
    assert_int_equal(ts.worst_rank, 1);
    assert_int_equal(ts.worst_device, 1);
    assert_true(ts.first_time == 100.5 && ts.last_time == 101.8);
    torchsteps_release(&ts);
}

static void test_cut_and_malformed(void **state)
{
    (void)state;
    struct torchsteps ts;
    const char *t = TORCHSTEPS_HEADER
        "1,1.0,,,0,0,1,2,3,4\n"
        "x,1.0,,,0,0,1,2,3,4\n"          /* not a number */
        "2,1.0,,,0,0,1,2,3\n"            /* a column short */
        "3,1.0,,,0,0,1,2,3,4,5\n"        /* a column too many */
        "0,1.0,,,0,0,1,2,3,4\n"          /* steps start at 1 */
        "4,nan,,,0,0,1,2,3,4\n"          /* no time */
        "5,1.0,,,0,0,1,2,99999999999999999999,4\n" /* overflow */
        "6,1.0,,,0,0,1,2,7,8";           /* cut by a kill: no newline */
    assert_int_equal(parse(t, &ts), 0);
    assert_int_equal(ts.rows, 1);
    assert_int_equal(ts.bad_rows, 7);
    assert_int_equal(ts.ranks, 1); /* unranked counts as one */
    assert_int_equal(ts.worst_rank, -1);
    assert_int_equal(ts.series.n, 1);
    torchsteps_release(&ts);
}

static void test_header(void **state)
{
    (void)state;
    struct torchsteps ts;
    assert_int_equal(parse("step,peak\n1,2\n", &ts), -1);
    assert_int_equal(parse("", &ts), -1);
    assert_int_equal(parse(TORCHSTEPS_HEADER, &ts), 0);
    assert_int_equal(ts.rows, 0);
    assert_int_equal(ts.peak_reserved, -1);
    assert_int_equal(ts.ranks, 0);
    assert_true(isnan(ts.first_time));
    assert_int_equal(steps_memory_trend(&ts.series), STEPS_TREND_NONE);
    torchsteps_release(&ts);
}

static void test_growing(void **state)
{
    (void)state;
    char buf[8192];
    size_t n = (size_t)snprintf(buf, sizeof buf, "%s", TORCHSTEPS_HEADER);
    for (int s = 1; s <= 30; s++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%d,%d.0,0,0,0,0,1,2,%lld,%lld\n", s, s,
                              1000000000LL + s * 50000000LL, 1200000000LL + s * 50000000LL);
    struct torchsteps ts;
    assert_int_equal(parse(buf, &ts), 0);
    assert_int_equal(ts.series.n, 30);
    assert_int_equal(steps_memory_trend(&ts.series), STEPS_TREND_RISING);
    torchsteps_release(&ts);
}

/* Fed one byte at a time, the stream gives what the whole text gives. */
static void test_stream_pieces(void **state)
{
    (void)state;
    const char *t = TORCHSTEPS_HEADER
        "1,100.5,0,0,0,0,10,20,30,40\n"
        "x,bad\n"
        "2,101.5,1,1,1,0,10,20,31,45\n"
        "3,102.5,0,0,0,0,10,2";
    struct torchsteps whole, piece;
    assert_int_equal(parse(t, &whole), 0);
    struct torchsteps_stream *st = torchsteps_stream_new(&piece);
    assert_non_null(st);
    for (size_t i = 0; t[i]; i++) torchsteps_stream_feed(st, t + i, 1);
    struct oomlab_err err = {{0}};
    assert_int_equal(torchsteps_stream_end(st, &err), 0);
    assert_int_equal(piece.rows, 2);
    assert_int_equal(piece.bad_rows, 2);
    assert_int_equal(piece.rows, whole.rows);
    assert_int_equal(piece.bad_rows, whole.bad_rows);
    assert_int_equal(piece.peak_reserved, whole.peak_reserved);
    assert_int_equal(piece.worst_rank, 1);
    assert_int_equal(piece.series.n, whole.series.n);
    assert_true(piece.first_time == whole.first_time && piece.last_time == whole.last_time);
    torchsteps_release(&whole);
    torchsteps_release(&piece);
}

/* A step file above the old 512 MiB whole-file cap (sparse: a 600 MiB hole
 * of NULs, one line that is no row, then a real row) is read in chunks:
 * the row is found and memory does not grow with the file. */
static void test_big_file_bounded(void **state)
{
    (void)state;
    struct torchhook th = {0};
    snprintf(th.steps_path, sizeof th.steps_path, "/tmp/oomlab-test-steps-%d.csv", (int)getpid());
    FILE *f = fopen(th.steps_path, "wb");
    assert_non_null(f);
    fputs(TORCHSTEPS_HEADER, f);
    assert_int_equal(fseeko(f, 600LL << 20, SEEK_SET), 0);
    fputs("\n7,500.25,0,0,0,0,10,20,123,456\n", f);
    fclose(f);
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    struct torchsteps ts;
    struct oomlab_err err = {{0}};
    int rc = torchhook_read(&th, &ts, &err);
    getrusage(RUSAGE_SELF, &after);
    unlink(th.steps_path);
    assert_int_equal(rc, 0);
    assert_int_equal(ts.rows, 1);
    assert_int_equal(ts.bad_rows, 1);
    assert_int_equal(ts.peak_reserved, 456);
    if (after.ru_maxrss - before.ru_maxrss > 64 * 1024) fail_msg("RSS grew %ld KiB", after.ru_maxrss - before.ru_maxrss);
    torchsteps_release(&ts);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranks_interleaved),
        cmocka_unit_test(test_cut_and_malformed),
        cmocka_unit_test(test_header),
        cmocka_unit_test(test_growing),
        cmocka_unit_test(test_stream_pieces),
        cmocka_unit_test(test_big_file_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
