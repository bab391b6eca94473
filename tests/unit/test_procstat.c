/* Unit tests for lib/procstat: /proc/PID/stat with hostile command names,
 * cmdline joining, uptime. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/procstat.h"

#define TAIL " 0 0 0 0 0 0 0 0 20 0 1 0 123456 1000000 2500 18446744073709551615"

static void test_plain_stat(void **state)
{
    (void)state;
    const char *s = "4242 (python3) S 1 4242 4242 0 -1 4194560" TAIL "\n";
    struct procstat st;
    assert_int_equal(procstat_parse(s, strlen(s), &st), 0);
    assert_int_equal(st.pid, 4242);
    assert_string_equal(st.comm, "python3");
    assert_int_equal(st.state, 'S');
    assert_int_equal(st.ppid, 1);
    assert_int_equal(st.start_ticks, 123456);
    assert_int_equal(st.rss_pages, 2500);
}

static void test_comm_with_parens_and_spaces(void **state)
{
    (void)state;
    const char *s = "77 (evil) Z 5 (x) R) Z 3 77 77 0 -1 0" TAIL;
    struct procstat st;
    assert_int_equal(procstat_parse(s, strlen(s), &st), 0);
    assert_string_equal(st.comm, "evil) Z 5 (x) R");
    assert_int_equal(st.state, 'Z');
    assert_int_equal(st.ppid, 3);
}

static void test_bad_stat(void **state)
{
    (void)state;
    struct procstat st;
    const char *bad[] = {"",
                         "42",
                         "42 (x)",
                         "x (y) S 1",
                         "42 (x) S -4 1",
                         "42 (x) SS 1 2",
                         "42 (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 -5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(procstat_parse(bad[i], strlen(bad[i]), &st), -1);
    const char *no_rss = "42 (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 999";
    assert_int_equal(procstat_parse(no_rss, strlen(no_rss), &st), 0);
    assert_int_equal(st.start_ticks, 999);
    assert_int_equal(st.rss_pages, -1); /* unknown, not 0 */
}

static void test_cmdline(void **state)
{
    (void)state;
    char out[64];
    const char raw[] = "python\0-m\0ipykernel_launcher\0-f\0/k.json\0";
    assert_int_equal(procstat_cmdline(raw, sizeof raw - 1, out, sizeof out), 39);
    assert_string_equal(out, "python -m ipykernel_launcher -f /k.json");
    const char ctl[] = "a\nb\0";
    procstat_cmdline(ctl, sizeof ctl - 1, out, sizeof out);
    assert_string_equal(out, "a?b");
    procstat_cmdline(raw, sizeof raw - 1, out, 7);
    assert_string_equal(out, "python");
    assert_int_equal(procstat_cmdline("", 0, out, sizeof out), 0);
}

static void test_uptime(void **state)
{
    (void)state;
    assert_true(procstat_uptime("35.50 120.00\n", 13) == 35.5);
    assert_true(procstat_uptime("x", 1) < 0);
    assert_true(procstat_uptime("nan", 3) < 0);
}

static void test_cpu_ticks(void **state)
{
    (void)state;
    struct procstat st;
    const char *s = "4242 (python3) R 1 4242 4242 0 -1 4194560 10 0 0 0 1234 56 7 8 20 0 9 0 "
                    "123456 1000000 2500";
    assert_int_equal(procstat_parse(s, strlen(s), &st), 0);
    assert_int_equal(st.cpu_ticks, 1290); /* utime + stime; children's (cutime) not counted */
    const char *short_line = "42 (x) S 1 2 3 4 5 6 7 8 9";
    assert_int_equal(procstat_parse(short_line, strlen(short_line), &st), -1);
    const char *bad_cpu = "42 (x) S 1 2 3 4 5 6 7 8 9 10 -11 12 13 14 15 16 17 18 999";
    assert_int_equal(procstat_parse(bad_cpu, strlen(bad_cpu), &st), 0);
    assert_int_equal(st.cpu_ticks, -1); /* unknown, not 0: 0 would read as "idle" */
}

/* A process names itself: nothing it chooses may reach the terminal as an
 * escape (OSC title, CSI clear, 8-bit CSI, bidi reordering). */
static void test_clean_for_terminal(void **state)
{
    (void)state;
    char out[128];
    const char raw[] = "python\0\033]0;pwned\007\0\033[2J\0\xc2\x9b"
                       "31m\0\x9b\0\xff\xfe\0"
                       "caf\xc3\xa9\0\xe2\x80\xae"
                       "evil\0\xf0\x9f\x98\x80\0";
    procstat_cmdline(raw, sizeof raw - 1, out, sizeof out);
    assert_string_equal(out, "python ?]0;pwned? ?[2J ?31m ? ?? caf\xc3\xa9 ?evil \xf0\x9f\x98\x80");
    char overlong[] = "\xc0\xaf \xed\xa0\x80 \xf4\x90\x80\x80 \xe2\x82";
    assert_int_equal(procstat_clean(overlong), 14);
    assert_string_equal(overlong, "?? ??? ???? ??");
    /* a comm holding an escape */
    const char *st_line = "9 (a\033[31mb) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 999";
    struct procstat st;
    assert_int_equal(procstat_parse(st_line, strlen(st_line), &st), 0);
    assert_string_equal(st.comm, "a?[31mb");
    /* truncation keeps whole characters */
    const char e3[] = "\xc3\xa9\xc3\xa9\xc3\xa9\0x";
    assert_int_equal(procstat_cmdline(e3, sizeof e3 - 1, out, 6), 4);
    assert_string_equal(out, "\xc3\xa9\xc3\xa9");
    assert_int_equal(procstat_clip("\xc3\xa9\xc3\xa9", 3), 2);
    assert_int_equal(procstat_clip("abc", 3), 3);
    assert_int_equal(procstat_clip("abcd", 3), 3);
    assert_int_equal(procstat_clip("\xf0\x9f\x98\x80", 3), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_stat),
        cmocka_unit_test(test_comm_with_parens_and_spaces),
        cmocka_unit_test(test_bad_stat),
        cmocka_unit_test(test_cmdline),
        cmocka_unit_test(test_uptime),
        cmocka_unit_test(test_cpu_ticks),
        cmocka_unit_test(test_clean_for_terminal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
