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

/* A decimal comma (printf under a German/French locale: "failed to allocate
 * 1900,00 MiB of pinned memory", ggml-org/llama.cpp#9629) against thousands
 * separators ("1,024", "12,345,678 bytes"); the old parser read 1900,00 MiB
 * as 190000 MiB. */
static void test_decimal_comma(void **state)
{
    (void)state;
    assert_int_equal(size_of("1900,00 MiB", UNITS_KB_IS_1024), 1992294400);
    assert_int_equal(size_of("1,5 GiB", UNITS_KB_IS_1024), 1610612736);
    assert_int_equal(size_of("1,024 MiB", UNITS_KB_IS_1024), 1073741824);
    assert_int_equal(size_of("12,345,678 bytes", UNITS_KB_IS_1024), 12345678);
    assert_int_equal(size_of("1,234.50 MiB", UNITS_KB_IS_1024), 1294467072);
    int64_t b = -2;
    assert_int_equal(units_parse_size("20,00, next", 11, UNITS_KB_IS_1024, &b, NULL), 5);
    assert_int_equal(b, 20);
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
    /* "--capacity 24" is 24 bytes to the parser: flagged for a unit */
    assert_int_equal(units_parse_size_arg("24", &b), 0);
    assert_true(units_size_arg_bare_small("24", b));
    assert_true(units_size_arg_bare_small("0.5", 1));
    assert_false(units_size_arg_bare_small("24GiB", (int64_t)24 << 30));
    assert_false(units_size_arg_bare_small("512KiB", 512 << 10)); /* a unit: meant */
    assert_false(units_size_arg_bare_small("85899345920", 85899345920)); /* bytes, plainly */
    assert_false(units_size_arg_bare_small("0", 0));
    assert_int_equal(units_parse_duration_ms("500ms", &ms), 0);
    assert_int_equal(ms, 500);
    assert_int_equal(units_parse_duration_ms("10m", &ms), 0);
    assert_int_equal(ms, 600000);
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

/* One rule for every duration flag: a bare number is seconds (issue 10:
 * `run --timeout 3600` meant 3.6 s). */
static void test_durations(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int64_t ms; /* -1: refused */
    } cases[] = {
        {"3600", 3600000},
        {"600", 600000},
        {"5", 5000},
        {"0", 0},
        {"0.5", 500},
        {".5", 500},
        {"5.", 5000},
        {"500ms", 500},
        {"0.5s", 500},
        {"2s", 2000},
        {"10m", 600000},
        {"1.5h", 5400000},
        {"1h", 3600000},
        {"1.5ms", 2},
        {"0.0004s", 0},
        {"007", 7000},
        {"", -1},
        {"s", -1},
        {".", -1},
        {"-1s", -1},
        {"+5", -1},
        {" 5", -1},
        {"5 ", -1},
        {"5 s", -1},
        {"1e3", -1},
        {"0x10", -1},
        {"inf", -1},
        {"nan", -1},
        {"5S", -1},
        {"5sec", -1},
        {"5min", -1},
        {"2d", 172800000},
        {"0.5d", 43200000},
        {"5D", -1},
        {"5days", -1},
        {"1h30m", -1},
        {"1.2.3", -1},
        {"1,5s", -1},
        {"5ms ", -1},
        {"99999999999999999999999999999999h", -1},
        {"1000000000000000", -1},
        {"1000000000000", 1000000000000000},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t ms = -7;
        int rc = units_parse_duration_ms(cases[i].text, &ms);
        if (cases[i].ms < 0) {
            if (rc != -1) fail_msg("'%s' accepted as %lld ms", cases[i].text, (long long)ms);
        } else if (rc != 0 || ms != cases[i].ms) {
            fail_msg("'%s': rc %d, %lld ms, want %lld", cases[i].text, rc, (long long)ms,
                     (long long)cases[i].ms);
        }
    }
    int64_t ms;
    assert_int_equal(units_parse_duration_ms(NULL, &ms), -1);
}

static void test_duration_args_and_format(void **state)
{
    (void)state;
    struct oomlab_err err;
    int64_t ms = -7;
    assert_int_equal(units_duration_arg("--interval", "5ms", 10, 3600000, &ms, &err), -1);
    assert_string_equal(err.msg, "--interval '5ms': at least 10ms");
    assert_int_equal(ms, -7);
    assert_int_equal(units_duration_arg("--interval", "2h", 10, 3600000, &ms, &err), -1);
    assert_string_equal(err.msg, "--interval '2h': at most 1h");
    /* a duration too long to hold is "at most", not "expected a duration" */
    assert_int_equal(units_duration_arg("--timeout", "99999999999h", 1, INT64_MAX, &ms, &err), -1);
    assert_string_equal(err.msg, "--timeout '99999999999h': at most 1000000000000s");
    assert_int_equal(units_duration_arg("--interval", "99999999999999999999999999999999.5m", 10, 3600000, &ms, &err), -1);
    assert_string_equal(err.msg, "--interval '99999999999999999999999999999999.5m': at most 1h");
    assert_int_equal(units_duration_arg("--timeout", "1e3", 1, INT64_MAX, &ms, &err), -1);
    assert_non_null(strstr(err.msg, "--timeout '1e3': expected a duration"));
    assert_non_null(strstr(err.msg, "a bare number is seconds"));
    /* a combination of units is not read (DURATIONS), but its one-unit
     * spelling is said: "1h30m" is what Go and systemd take (stranger25) */
    assert_int_equal(units_duration_arg("--timeout", "1h30m", 1, INT64_MAX, &ms, &err), -1);
    assert_string_equal(err.msg, "--timeout '1h30m': one unit only: write 90m (see DURATIONS in oomlab(1))");
    assert_int_equal(units_duration_arg("--grace", "1m30s", 1, INT64_MAX, &ms, &err), -1);
    assert_string_equal(err.msg, "--grace '1m30s': one unit only: write 90s (see DURATIONS in oomlab(1))");
    assert_int_equal(units_duration_arg("--timeout", "1d12h", 1, INT64_MAX, &ms, &err), -1);
    assert_string_equal(err.msg, "--timeout '1d12h': one unit only: write 36h (see DURATIONS in oomlab(1))");
    assert_int_equal(units_duration_arg("--timeout", "2s500ms", 1, INT64_MAX, &ms, &err), -1);
    assert_string_equal(err.msg, "--timeout '2s500ms': one unit only: write 2500ms (see DURATIONS in oomlab(1))");
    /* not a combination: units out of order, repeated, or a part without one */
    const char *not_combos[] = {"30m1h", "1m1m", "1h30", "1h 30m", "h30m", "1hm", "1h-30m"};
    for (size_t i = 0; i < sizeof not_combos / sizeof *not_combos; i++) {
        assert_int_equal(units_duration_arg("--timeout", not_combos[i], 1, INT64_MAX, &ms, &err), -1);
        assert_non_null(strstr(err.msg, "expected a duration"));
    }
    assert_int_equal(ms, -7);
    assert_int_equal(units_duration_arg("--interval", "5", 10, 3600000, &ms, &err), 0);
    assert_int_equal(ms, 5000);
    char buf[32];
    assert_string_equal(units_format_duration_ms(10, buf, sizeof buf), "10ms");
    assert_string_equal(units_format_duration_ms(1500, buf, sizeof buf), "1500ms");
    assert_string_equal(units_format_duration_ms(5000, buf, sizeof buf), "5s");
    assert_string_equal(units_format_duration_ms(600000, buf, sizeof buf), "10m");
    assert_string_equal(units_format_duration_ms(3600000, buf, sizeof buf), "1h");
    assert_string_equal(units_format_duration_ms(90000000, buf, sizeof buf), "25h");
    assert_string_equal(units_format_duration_ms(172800000, buf, sizeof buf), "2d");
    assert_string_equal(units_format_duration_ms(0, buf, sizeof buf), "0ms");
    /* what it prints, the parser reads back */
    static const int64_t round[] = {1, 10, 999, 1000, 1500, 59000, 60000, 90000, 3600000, 5400000};
    for (size_t i = 0; i < sizeof round / sizeof round[0]; i++) {
        assert_int_equal(
            units_parse_duration_ms(units_format_duration_ms(round[i], buf, sizeof buf), &ms), 0);
        assert_int_equal(ms, round[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes_as_logs_print_them),
        cmocka_unit_test(test_decimal_comma),
        cmocka_unit_test(test_absurd_sizes_saturate),
        cmocka_unit_test(test_args),
        cmocka_unit_test(test_durations),
        cmocka_unit_test(test_duration_args_and_format),
        cmocka_unit_test(test_format_and_checked_math),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
