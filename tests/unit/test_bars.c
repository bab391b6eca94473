/* Unit tests for render/bars (`table --plot`): bars share one scale, the
 * capacity is marked, lower bounds and unknowns are said, ASCII fallback. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "render/bars.h"

static char *render(const struct bars_row *rows, size_t n, size_t width, bool utf8)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(bars_render(f, rows, n, width, utf8), 0);
    fclose(f);
    return buf;
}

static size_t count(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what)) n++;
    return n;
}

static void test_ascii_scale_and_marks(void **state)
{
    (void)state;
    const struct bars_row rows[] = {
        {"run001", 40, false, 80, true},
        {"run002", 20, true, 80, false},
        {"run003", NAN, false, NAN, false},
    };
    char *out = render(rows, 3, 60, false); /* 60 - 6 - 26 = 28 bar columns; the capacity in the last */
    char *l1 = out, *l2 = strchr(l1, '\n') + 1, *l3 = strchr(l2, '\n') + 1, *l4 = strchr(l3, '\n') + 1;
    assert_int_equal(strncmp(l1, "run001 ##############             | 40.00 GiB  OOM\n", 51), 0);
    assert_int_equal(strncmp(l2, "run002 #######                    | >=20.00 GiB\n", 48), 0);
    assert_int_equal(strncmp(l3, "run003                              unknown\n", 44), 0);
    assert_non_null(strstr(l4, "| marks each run's card capacity; scale 0-80.00 GiB"));
    free(out);
}

static void test_utf8_eighths(void **state)
{
    (void)state;
    const struct bars_row rows[] = {{"a", 10, false, NAN, false}, {"b", 10.0 * 17 / 8 / 33, false, NAN, false}};
    char *out = render(rows, 2, 60, true); /* 60 - 1 - 26 = 33 columns; 10 GiB fills them */
    char *l2 = strchr(out, '\n') + 1;
    assert_int_equal(count(out, "\xe2\x96\x88"), 33 + 2);
    assert_int_equal(strncmp(l2, "b \xe2\x96\x88\xe2\x96\x88\xe2\x96\x8f ", 2 + 10), 0); /* 2 full + 1/8 */
    assert_null(strstr(out, "capacity")); /* no capacity known: no legend */
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ascii_scale_and_marks),
        cmocka_unit_test(test_utf8_eighths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
