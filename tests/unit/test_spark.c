/* Unit tests for render/spark (sparklines) and sys/filerepl (atomic replace). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "render/spark.h"
#include "sys/filerepl.h"

static void test_levels_ascii_and_utf8(void **state)
{
    (void)state;
    double v[] = {0, 0.05, 0.2, 0.5, 0.8, 1, 2, -1};
    char buf[64];
    assert_string_equal(spark_render(v, 8, false, buf, sizeof buf), "__.=*## ");
    assert_string_equal(spark_render(v, 3, true, buf, sizeof buf), "\u2581\u2581\u2582");
    /* never cut a UTF-8 character in half */
    assert_string_equal(spark_render(v, 8, true, buf, 8), "\u2581\u2581");
    assert_string_equal(spark_render(v, 0, true, buf, sizeof buf), "");
}

static void test_locale(void **state)
{
    (void)state;
    setenv("LC_ALL", "C", 1);
    assert_false(spark_utf8_locale());
    setenv("LC_ALL", "", 1);
    setenv("LC_CTYPE", "", 1);
    setenv("LANG", "en_US.UTF-8", 1);
    assert_true(spark_utf8_locale());
}

static void test_replace_is_atomic_and_cleans_up(void **state)
{
    (void)state;
    char dir[] = "/tmp/oomlab-repl-XXXXXX", path[128], tmp[160];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/m.prom", dir);
    struct oomlab_err err;
    assert_int_equal(filerepl_write(path, "one\n", 4, &err), 0);
    assert_int_equal(filerepl_write(path, "two\n", 4, &err), 0);
    FILE *f = fopen(path, "r");
    char got[16] = "";
    assert_non_null(fgets(got, sizeof got, f));
    fclose(f);
    assert_string_equal(got, "two\n");
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    assert_int_equal(access(tmp, F_OK), -1);
    snprintf(path, sizeof path, "%s/missing/m.prom", dir);
    assert_int_equal(filerepl_write(path, "x", 1, &err), -1);
    assert_non_null(strstr(err.msg, "cannot write"));
    assert_null(strstr(err.msg, ".tmp.")); /* the user's path, not our temporary's */
    assert_non_null(strstr(err.msg, path));
    snprintf(path, sizeof path, "%s/m.prom", dir);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_levels_ascii_and_utf8),
        cmocka_unit_test(test_locale),
        cmocka_unit_test(test_replace_is_atomic_and_cleans_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
