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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_stat), cmocka_unit_test(test_comm_with_parens_and_spaces),
        cmocka_unit_test(test_bad_stat),   cmocka_unit_test(test_cmdline),
        cmocka_unit_test(test_uptime),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
