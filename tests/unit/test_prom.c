/* Unit tests for render/prom (the writer) and lib/promlint (the checker the
 * e2e tests run on `watch --prom` files): the writer's output passes, and
 * each rule of the checker rejects what it must. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/promlint.h"
#include "render/prom.h"

static void test_writer_escapes_and_passes_lint(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    struct prom p;
    prom_init(&p, f);
    prom_family(&p, "oomlab_gpu_memory_used_bytes", "gauge", "GPU memory in use \\ now\nreally");
    const char *l0[] = {"gpu", "0", "name", "NVIDIA \"A100\"\\80GB\nx", NULL};
    const char *l1[] = {"gpu", "1", "name", "L4", NULL};
    prom_sample_int(&p, "oomlab_gpu_memory_used_bytes", l0, 85899345920LL);
    prom_sample_int(&p, "oomlab_gpu_memory_used_bytes", l1, 0);
    prom_family(&p, "oomlab_gpu_utilization_ratio", "gauge", "Utilisation, 0..1.");
    prom_sample(&p, "oomlab_gpu_utilization_ratio", l1, 0.35);
    prom_family(&p, "up_ish", "gauge", "no labels");
    prom_sample(&p, "up_ish", NULL, 1);
    assert_int_equal(prom_finish(&p), 0);
    fclose(f);
    assert_non_null(
        strstr(buf, "# HELP oomlab_gpu_memory_used_bytes GPU memory in use \\\\ now\\nreally\n"));
    assert_non_null(strstr(buf, "oomlab_gpu_memory_used_bytes{gpu=\"0\",name=\"NVIDIA "
                                "\\\"A100\\\"\\\\80GB\\nx\"} 85899345920\n"));
    assert_non_null(strstr(buf, "oomlab_gpu_utilization_ratio{gpu=\"1\",name=\"L4\"} 0.35\n"));
    struct oomlab_err err;
    size_t n;
    if (promlint_check("w.prom", buf, len, &n, &err) < 0) fail_msg("%s", err.msg);
    assert_int_equal(n, 4);
    free(buf);
}

static void test_writer_refuses_bad_names(void **state)
{
    (void)state;
    FILE *f = fopen("/dev/null", "w");
    struct prom p;
    prom_init(&p, f);
    prom_family(&p, "0bad", "gauge", "x");
    assert_int_equal(prom_finish(&p), -1);
    prom_init(&p, f);
    const char *l[] = {"__reserved", "1", NULL};
    prom_sample(&p, "ok_name", l, 1);
    assert_int_equal(prom_finish(&p), -1);
    fclose(f);
    assert_true(prom_metric_name_ok("a:b_c9"));
    assert_false(prom_metric_name_ok("a-b"));
    assert_false(prom_label_name_ok("a:b"));
    assert_true(prom_label_name_ok("_x"));
}

static const char *lint(const char *text)
{
    static struct oomlab_err err;
    if (promlint_check("t", text, strlen(text), NULL, &err) == 0) return "ok";
    return err.msg;
}

static void test_lint_rules(void **state)
{
    (void)state;
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"# TYPE a gauge\na 1\n", "ok"},
        {"# TYPE a gauge\na{x=\"1\",} 1 1700000000000\n", "ok"},
        {"# TYPE a gauge\na 1", "t: the last line has no newline"},
        {"a 1\n", "t:1:1: a has no TYPE line before it"},
        {"# TYPE a gauge\n# TYPE a gauge\n", "t:2:1: second TYPE line for a"},
        {"# HELP a x\n# HELP a y\n", "t:2:1: second HELP line for a"},
        {"# TYPE a gauge\na 1\n# HELP a late\n", "t:3:1: HELP for a after its samples"},
        {"# TYPE a gaugey\n", "t:1:10: unknown TYPE 'gaugey'"},
        {"# TYPE 9a gauge\n", "t:1:8: bad metric name in TYPE line"},
        {"# TYPE a gauge\na{x=\"1} 1\n", "t:2:5: unterminated label value"},
        {"# TYPE a gauge\na{x=\"\\q\"} 1\n", "t:2:6: bad escape in label value"},
        {"# TYPE a gauge\na{x=\"1\",x=\"2\"} 1\n", "t:2:9: label x repeated"},
        {"# TYPE a gauge\na{__n=\"1\"} 1\n", "t:2:3: bad label name"},
        {"# TYPE a gauge\na 1e\n", "t:2:3: value '1e' is not a number"},
        {"# TYPE a gauge\na 1 x\n", "t:2:5: junk after the value"},
        {"# TYPE a gauge\na{x=\"1\"} 1\na{x=\"1\"} 2\n",
         "t:3:1: series repeated (first on line 2): one sample per series"},
        {"# TYPE a gauge\na{y=\"2\",x=\"1\"} 1\na{x=\"1\",y=\"2\"} 2\n",
         "t:3:1: series repeated (first on line 2): one sample per series"},
        {"# TYPE a gauge\na 1\n# TYPE b gauge\nb 1\na 2\n",
         "t:5:1: samples of a are not grouped together"},
        {"# TYPE h histogram\nh_bucket{le=\"+Inf\"} 1\nh_sum 2\nh_count 1\n", "ok"},
        {"# TYPE a gauge\na NaN\n# TYPE b gauge\nb -Inf\n", "ok"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *got = lint(cases[i].text);
        if (strcmp(got, cases[i].want))
            fail_msg("case %zu: got '%s', want '%s'", i, got, cases[i].want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_writer_escapes_and_passes_lint),
        cmocka_unit_test(test_writer_refuses_bad_names),
        cmocka_unit_test(test_lint_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
