/* torchelastic's failure summary (lib/elastic) on the shapes torch prints:
 * the ChildFailedError table (lzhxmu/CPPO#6, huggingface/peft#2111), the
 * newer signal name after the pid (pytorch/pytorch#175254), the agent's
 * "failed (exitcode: -9) local_rank: 2" line (xiaomi-research/time-r1#9). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "lib/elastic.h"

static void feed(struct elastic_state *s, const char *text)
{
    elastic_init(s);
    while (*text) {
        const char *nl = strchr(text, '\n');
        size_t n = nl ? (size_t)(nl - text) : strlen(text);
        elastic_line(s, text, n);
        text += n + (nl != NULL);
    }
}

static void test_table_sigkill(void **state)
{
    (void)state;
    struct elastic_state s;
    feed(&s, "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
             "============================================================\n"
             "train.py FAILED\n"
             "Failures:\n  <NO_OTHER_FAILURES>\n"
             "Root Cause (first observed failure):\n[0]:\n"
             "  time      : 2025-05-21_15:43:03\n"
             "  host      : node-7\r\n"
             "  rank      : 12 (local_rank: 4)\n"
             "  exitcode  : -9 (pid: 14750)\n"
             "  error_file: <N/A>\n"
             "  traceback : Signal 9 (SIGKILL) received by PID 14750\n"
             "============================================================\n"
             "  rank      : 99 (local_rank: 99)\n");
    assert_true(s.root.found);
    assert_int_equal(s.root.rank, 12);
    assert_int_equal(s.root.local_rank, 4);
    assert_int_equal(s.root.exitcode, -9);
    assert_int_equal(s.root.pid, 14750);
    assert_int_equal(elastic_signal(&s.root), 9);
    assert_string_equal(s.root.host, "node-7");
    assert_string_equal(s.root.time, "2025-05-21_15:43:03");
}

static void test_newer_format_and_exit_code(void **state)
{
    (void)state;
    struct elastic_state s;
    feed(&s, "Root Cause (first observed failure):\n[0]:\n  rank      : 0 (local_rank: 0)\n"
             "  exitcode  : -11 (pid: 5277) (SIGSEGV)\n");
    assert_int_equal(elastic_signal(&s.root), 11);
    assert_int_equal(s.root.pid, 5277);
    /* pasted without indentation; an exit code, not a signal */
    feed(&s, "Root Cause (first observed failure):\n[0]:\ntime : 2024-10-01_12:00:23\nhost : algo-1\n"
             "rank : 3 (local_rank: 3)\nexitcode : 1 (pid: 77)\nerror_file: <N/A>\n");
    assert_int_equal(s.root.rank, 3);
    assert_int_equal(s.root.exitcode, 1);
    assert_int_equal(elastic_signal(&s.root), 0);
    /* "Failures:" lists others before the root cause: only the root counts */
    feed(&s, "Failures:\n[1]:\n  rank      : 5 (local_rank: 5)\n  exitcode  : -15 (pid: 9)\n"
             "Root Cause (first observed failure):\n[0]:\n  rank      : 2 (local_rank: 2)\n"
             "  exitcode  : 1 (pid: 8)\n[1]:\n  rank      : 7 (local_rank: 7)\n");
    assert_int_equal(s.root.rank, 2);
    assert_int_equal(s.root.exitcode, 1);
}

static void test_agent_line_and_hostile(void **state)
{
    (void)state;
    struct elastic_state s;
    feed(&s, "E0813 06:19:49.809000 161210 site-packages/torch/distributed/elastic/multiprocessing/api.py:869] "
             "failed (exitcode: -9) local_rank: 2 (pid: 161617) of binary: /usr/bin/python3\n");
    assert_true(s.root.found);
    assert_int_equal(s.root.rank, -1);
    assert_int_equal(s.root.local_rank, 2);
    assert_int_equal(s.root.pid, 161617);
    assert_int_equal(elastic_signal(&s.root), 9);
    feed(&s, "Root Cause (first observed failure):\n  rank : 99999999999999999999\n  exitcode : -\n"
             "  rank :\n  host : \n");
    assert_false(s.root.found);
    feed(&s, "nothing of torchelastic here\nrank : 3\n");
    assert_false(s.root.found);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_sigkill),
        cmocka_unit_test(test_newer_format_and_exit_code),
        cmocka_unit_test(test_agent_line_and_hostile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
