/* Unit tests for render/json: escaping, nulls for unknowns, shortest doubles. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "render/json.h"

static char *render(void (*fill)(struct json *))
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    struct json j;
    json_init(&j, f, false);
    fill(&j);
    json_finish(&j);
    fclose(f);
    return buf;
}

static void fill_doc(struct json *j)
{
    json_obj_begin(j);
    json_key(j, "peak_GB");
    json_double(j, 19.8);
    json_key(j, "third");
    json_double(j, 1.0 / 3.0);
    json_key(j, "nan");
    json_double(j, NAN);
    json_key(j, "unknown");
    json_bytes(j, -1);
    json_key(j, "bytes");
    json_bytes(j, 578721382709455749LL);
    json_key(j, "s");
    json_strn(j, "a\"b\\\n\x01\xff", 7);
    json_key(j, "list");
    json_arr_begin(j);
    json_arr_end(j);
    json_obj_end(j);
}

static void test_document(void **state)
{
    (void)state;
    char *out = render(fill_doc);
    assert_string_equal(out, "{\"peak_GB\":19.8,\"third\":0.3333333333333333,\"nan\":null,"
                             "\"unknown\":null,\"bytes\":578721382709455749,"
                             "\"s\":\"a\\\"b\\\\\\u000a\\u0001\\ufffd\",\"list\":[]}\n");
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_document)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
