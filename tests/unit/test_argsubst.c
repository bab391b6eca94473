/* Unit tests for lib/argsubst: exact {KEY} replacement shared by run and
 * probe; other braces left alone; replacements not rescanned. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/argsubst.h"

static void test_replaces_exact_keys_only(void **state)
{
    (void)state;
    const char *keys[] = {"config", "bs"}, *vals[] = {"runs/configs/run001.yaml", "{config}"};
    char *s = argsubst("--config={config} --bs {bs} {b} {bs {\"a\":1} {config", keys, vals, 2);
    assert_string_equal(s, "--config=runs/configs/run001.yaml --bs {config} {b} {bs {\"a\":1} {config");
    free(s);
    char *argv[] = {"train", "--bs={bs}", NULL};
    char **out = argsubst_argv(argv, 2, keys, vals, 2);
    assert_string_equal(out[0], "train");
    assert_string_equal(out[1], "--bs={config}");
    assert_null(out[2]);
    argsubst_free(out);
    assert_true(argsubst_uses(argv, 2, "bs"));
    assert_false(argsubst_uses(argv, 2, "b"));
    assert_false(argsubst_uses(argv, 2, "config"));
}

static void test_too_long_is_null(void **state)
{
    (void)state;
    char *big = malloc(ARGSUBST_MAX);
    memset(big, 'x', ARGSUBST_MAX - 1);
    big[ARGSUBST_MAX - 1] = '\0';
    const char *keys[] = {"k"}, *vals[] = {big};
    assert_null(argsubst("{k}{k}", keys, vals, 1));
    free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replaces_exact_keys_only),
        cmocka_unit_test(test_too_long_is_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
