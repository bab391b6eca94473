/* Unit tests for lib/units: sizes as logs print them, checked arithmetic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/units.h"

static int64_t size_of(const char *s, enum units_base base)
{
    int64_t b = -2;
    size_t n = units_parse_size(s, strlen(s), base, &b, NULL);
    return n ? b : -2;
}

static void test_sizes_as_logs_print_them(void **state)
{
    (void)state;
    assert_int_equal(size_of("20.00 MiB", UNITS_KB_IS_1024), 20971520);
    assert_int_equal(size_of("5.80 GiB", UNITS_KB_IS_1024), 6227702579);
    assert_int_equal(size_of("0 bytes", UNITS_KB_IS_1024), 0);
    assert_int_equal(size_of("45.53MiB", UNITS_KB_IS_1024), 47741665);
    assert_int_equal(size_of("1024.00 KiB", UNITS_KB_IS_1024), 1048576);
    assert_int_equal(size_of("15.05 GB", UNITS_KB_IS_1024), 16159814451);
    assert_int_equal(size_of("1 GB", UNITS_KB_IS_1000), 1000000000);
    assert_int_equal(size_of("18.6 G", UNITS_KB_IS_1024), 19971597926);
    assert_int_equal(size_of("4770354232", UNITS_KB_IS_1024), 4770354232);
    assert_int_equal(size_of("GPU", UNITS_KB_IS_1024), -2);
}

static void test_absurd_sizes_saturate(void **state)
{
    (void)state;
    int64_t b;
    bool sat = false;
    const char *s = "538976288.13 GiB";
    assert_true(units_parse_size(s, strlen(s), UNITS_KB_IS_1024, &b, &sat) > 0);
    assert_false(sat);
    assert_int_equal(b, 578721382709455749);
    s = "99999999999 EiB";
    assert_true(units_parse_size(s, strlen(s), UNITS_KB_IS_1024, &b, &sat) > 0);
    assert_true(sat);
    assert_int_equal(b, INT64_MAX);
}

static void test_args(void **state)
{
    (void)state;
    int64_t b, ms;
    double pct;
    long long v;
    assert_int_equal(units_parse_size_arg("80GiB", &b), 0);
    assert_int_equal(b, 85899345920);
    assert_int_equal(units_parse_size_arg("80 GiB x", &b), -1);
    assert_int_equal(units_parse_duration_ms("500ms", &ms), 0);
    assert_int_equal(ms, 500);
    assert_int_equal(units_parse_duration_ms("10m", &ms), 0);
    assert_int_equal(ms, 600000);
    assert_int_equal(units_parse_duration_ms("-1s", &ms), -1);
    assert_int_equal(units_parse_percent("15%", &pct), 0);
    assert_true(pct == 15.0);
    assert_int_equal(units_parse_percent("0.2", &pct), 0);
    assert_true(pct > 19.99 && pct < 20.01);
    assert_int_equal(units_parse_percent("150%", &pct), -1);
    assert_int_equal(units_parse_int("12", 1, 100, &v), 0);
    assert_int_equal(units_parse_int("12x", 1, 100, &v), -1);
    assert_int_equal(units_parse_int("1099511627776", 1, 1 << 20, &v), -1);
}

static void test_format_and_checked_math(void **state)
{
    (void)state;
    char buf[32];
    assert_string_equal(units_format_bytes(1610612736, buf, sizeof buf), "1.50 GiB");
    assert_string_equal(units_format_bytes(-1, buf, sizeof buf), "unknown");
    assert_string_equal(units_format_bytes(512, buf, sizeof buf), "512 B");
    int64_t r = 7;
    assert_false(units_mul(INT64_MAX, 2, &r));
    assert_int_equal(r, 7);
    assert_true(units_add(40, 2, &r));
    assert_int_equal(r, 42);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes_as_logs_print_them),
        cmocka_unit_test(test_absurd_sizes_saturate),
        cmocka_unit_test(test_args),
        cmocka_unit_test(test_format_and_checked_math),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
