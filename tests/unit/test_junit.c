/* Unit tests for render/junit (XML 1.0 escaping, the document), render/gha
 * (workflow-command escaping) and lib/livelog (a log read as it grows). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "lib/livelog.h"
#include "render/gha.h"
#include "render/junit.h"

static char *esc(const char *s, size_t len, bool attribute)
{
    static char out[1024];
    struct strbuf b = {0};
    junit_escape(&b, s, len, attribute);
    snprintf(out, sizeof out, "%s", b.s ? b.s : "");
    strbuf_release(&b);
    return out;
}

static void test_xml_escaping(void **state)
{
    (void)state;
    assert_string_equal(esc("a<b>&\"'", 7, true), "a&lt;b&gt;&amp;&quot;&apos;");
    assert_string_equal(esc("t\tn\nr\r", 6, true), "t&#9;n&#10;r&#13;");
    assert_string_equal(esc("t\tn\nr\r", 6, false), "t\tn\nr&#13;");
    assert_string_equal(esc("\x01\x1f", 2, false), "\xEF\xBF\xBD\xEF\xBF\xBD");
    assert_string_equal(esc("a\0b", 3, false), "a\xEF\xBF\xBD" "b");
    assert_string_equal(esc("\xff\xc3(", 3, false), "\xEF\xBF\xBD\xEF\xBF\xBD(");
    assert_string_equal(esc("\xc0\xaf", 2, false), "\xEF\xBF\xBD\xEF\xBF\xBD");       /* overlong */
    assert_string_equal(esc("\xed\xa0\x80", 3, false), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"); /* surrogate */
    assert_string_equal(esc("\xef\xbf\xbe", 3, false), "\xEF\xBF\xBD");              /* U+FFFE */
    assert_string_equal(esc("\xc3\xa9\xf0\x9f\x98\x80", 6, false), "\xc3\xa9\xf0\x9f\x98\x80");
    assert_string_equal(esc("\xe2\x82", 2, false), "\xEF\xBF\xBD\xEF\xBF\xBD");       /* cut */
}

static void test_document(void **state)
{
    (void)state;
    struct junit_property props[] = {{"budget_bytes", "1024"}};
    struct junit_case c = {.name = "n<1>", .classname = "oomlab.guard", .seconds = 1.5, .result = "failure",
                           .type = "edge", .message = "m&", .details = "d", .out = "o"};
    struct junit_suite s = {.name = "oomlab guard", .seconds = 1.5, .props = props, .n_props = 1,
                            .cases = &c, .n_cases = 1};
    struct strbuf b = {0};
    junit_write(&b, &s);
    assert_false(b.failed);
    assert_non_null(strstr(b.s, "<testsuites name=\"oomlab guard\" tests=\"1\" failures=\"1\" errors=\"0\" time=\"1.500\">"));
    assert_non_null(strstr(b.s, "<testcase name=\"n&lt;1&gt;\" classname=\"oomlab.guard\" time=\"1.500\">"));
    assert_non_null(strstr(b.s, "<failure type=\"edge\" message=\"m&amp;\">d</failure>"));
    assert_non_null(strstr(b.s, "<property name=\"budget_bytes\" value=\"1024\"/>"));
    strbuf_release(&b);
}

static void test_github(void **state)
{
    (void)state;
    struct strbuf b = {0};
    gha_annotation(&b, "error", "logs/a,b:c%.log", 15, "oomlab guard: oom", "50% done\r\nnext: x,y");
    assert_string_equal(b.s, "::error file=logs/a%2Cb%3Ac%25.log,line=15,title=oomlab guard%3A oom::"
                             "50%25 done%0D%0Anext: x,y\n");
    strbuf_release(&b);
    struct strbuf c = {0};
    gha_annotation(&c, "notice", NULL, 0, NULL, "ok");
    assert_string_equal(c.s, "::notice::ok\n");
    strbuf_release(&c);
}

/* file= relative to the checkout, no "./" (guard wrote file=./logs/...) */
static void test_github_file(void **state)
{
    (void)state;
    char buf[256];
    assert_string_equal(gha_file("./logs/run001.log", NULL, NULL, buf, sizeof buf), "logs/run001.log");
    assert_string_equal(gha_file(".//./logs/a.log", NULL, NULL, buf, sizeof buf), "logs/a.log");
    assert_string_equal(gha_file("./logs/a.log", "/w/repo", "/w/repo", buf, sizeof buf), "logs/a.log");
    assert_string_equal(gha_file("./logs/a.log", "/w/repo/", "/w/repo/exp", buf, sizeof buf), "exp/logs/a.log");
    assert_string_equal(gha_file("/w/repo/exp/logs/a.log", "/w/repo", "/tmp", buf, sizeof buf), "exp/logs/a.log");
    /* outside the checkout, or a workspace that is a prefix of another name: as given */
    assert_string_equal(gha_file("/tmp/logs/a.log", "/w/repo", "/w/repo", buf, sizeof buf), "/tmp/logs/a.log");
    assert_string_equal(gha_file("./a.log", "/w/repo", "/w/repo2", buf, sizeof buf), "a.log");
    assert_string_equal(gha_file(".hidden/a.log", NULL, NULL, buf, sizeof buf), ".hidden/a.log");
}

/* CPU seconds to feed n bytes of 64-byte lines in one piece, best of 3. */
static double livelog_feed_cpu(size_t n)
{
    char *buf = malloc(n);
    assert_non_null(buf);
    for (size_t i = 0; i < n; i++) buf[i] = i % 64 == 63 ? '\n' : 'x';
    double best = 1e9;
    for (int k = 0; k < 3; k++) {
        struct livelog lv;
        assert_int_equal(livelog_init(&lv), 0);
        struct timespec t0, t1;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
        livelog_feed(&lv, buf, n);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
        livelog_release(&lv);
        double cpu = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        if (cpu < best) best = cpu;
    }
    free(buf);
    return best;
}

/* A piece of many '\n' lines and no '\r' is read in time linear in its
 * size: 4x the bytes, about 4x the CPU (each line searched the rest of the
 * piece for a '\r' before: quadratic, 4x the bytes took ~15x; fuzz18). */
static void test_livelog_linear(void **state)
{
    (void)state;
    double small = livelog_feed_cpu((size_t)256 << 10), big = livelog_feed_cpu((size_t)1 << 20);
    if (big > 8 * small) fail_msg("1 MiB took %.3f s, 256 KiB %.3f s: not linear", big, small);
}

static void test_livelog(void **state)
{
    (void)state;
    struct livelog lv;
    assert_int_equal(livelog_init(&lv), 0);
    const char *log = "step=1 loss=2.3 peak_alloc=1.00GB peak_reserved=1.50GB\nstep=2 loss=2.2 peak_al";
    livelog_feed(&lv, log, strlen(log));
    assert_int_equal(lv.step, 1); /* the second line is not complete yet */
    livelog_feed(&lv, "loc=2.00GB peak_reserved=2.50GB\n", 32);
    assert_int_equal(lv.step, 2);
    assert_int_equal(livelog_peak(&lv), (int64_t)(2.5 * 1073741824.0));
    const char *oom = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a "
                      "total capacity of 79.15 GiB of which 3.81 MiB is free.";
    livelog_feed(&lv, oom, strlen(oom));
    assert_int_equal(lv.ooms, 0);
    livelog_flush(&lv); /* the last line, without a newline */
    assert_int_equal(lv.ooms, 1);
    livelog_release(&lv);
    /* HF dicts print no step: the loss lines count; a redrawn bar counts once per state */
    assert_int_equal(livelog_init(&lv), 0);
    const char *hf = "{'loss': 2.1, 'grad_norm': 1.0, 'learning_rate': 5e-05, 'epoch': 0.1}\r"
                     "{'loss': 2.0, 'grad_norm': 1.0, 'learning_rate': 5e-05, 'epoch': 0.2}\n";
    livelog_feed(&lv, hf, strlen(hf));
    assert_int_equal(livelog_steps_seen(&lv), 2);
    /* a huge line is judged on its start, and the next line still counts */
    char *big = malloc(LIVELOG_LINE_MAX * 2);
    memset(big, 'x', LIVELOG_LINE_MAX * 2);
    livelog_feed(&lv, big, LIVELOG_LINE_MAX * 2);
    livelog_feed(&lv, "\nstep=9 loss=1.0\n", 17);
    assert_int_equal(lv.step, 9);
    free(big);
    livelog_release(&lv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xml_escaping),
        cmocka_unit_test(test_document),
        cmocka_unit_test(test_github),
        cmocka_unit_test(test_github_file),
        cmocka_unit_test(test_livelog),
        cmocka_unit_test(test_livelog_linear),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
