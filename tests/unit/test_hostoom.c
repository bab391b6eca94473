/* The cgroup OOM-kill counter's parser, on the files' real layouts
 * (cgroup v2 memory.events and v1 memory.oom_control as Linux 6.1 and 5.10
 * print them). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "sys/hostoom.h"

static int64_t parse(const char *s) { return hostoom_parse(s, strlen(s)); }

static void test_layouts(void **state)
{
    (void)state;
    assert_int_equal(parse("low 0\nhigh 0\nmax 12\noom 2\noom_kill 3\noom_group_kill 0\n"), 3);
    assert_int_equal(parse("oom_kill_disable 0\nunder_oom 0\noom_kill 17\n"), 17);
    assert_int_equal(parse("oom_kill_disable 0\nunder_oom 0\n"), -1); /* before Linux 4.13 */
    assert_int_equal(parse("oom_kill 5"), 5);                         /* no final newline */
    assert_int_equal(parse(""), -1);
}

static void test_hostile(void **state)
{
    (void)state;
    assert_int_equal(parse("oom_kill \n"), -1);
    assert_int_equal(parse("oom_kill -1\n"), -1);
    assert_int_equal(parse("oom_kill 12x\n"), -1);
    assert_int_equal(parse("oom_kill 99999999999999999999999\n"), -1);
    assert_int_equal(parse("xoom_kill 4\noom_kill 9\n"), 9);
    static const char nul[] = "oom_kill 4\0oom_kill 9";
    assert_int_equal(hostoom_parse(nul, 10), 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_hostile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
