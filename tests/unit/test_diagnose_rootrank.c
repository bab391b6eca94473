/* An OOM message without a "[rankN]:" prefix takes its rank from the
 * torchelastic ChildFailedError table printed after it: the worker its
 * "Root Cause (first observed failure):" part names (lib/elastic, read by
 * the scan's end, lib/scan.c root_cause_rank). The table's shape is torch's
 * own (pytorch/pytorch torch/distributed/elastic/multiprocessing/errors/
 * __init__.py@0140b62d8bab203e4699faeba802b5204fa51d26:
 * _FAILURE_FORMAT_TEMPLATE, _MSG_FORMAT_TEMPLATE; the Root Cause part holds
 * one failure, the one with the earliest timestamp), as printed in
 * hiyouga/LlamaFactory#6827 and VCIP-RGBD/DFormer#52. Real logs with such
 * a table in the seen sets: h60-07 (MoFHeka/LLaMA-Megatron#1: "still OOM"
 * above a table cut in its traceback field, rank 1 labelled, now read),
 * h50-14 (pytorch/torchtitan#620: rank 1, unlabelled, now read), 094
 * (lzhxmu/CPPO#6) and h14-18 (apple/ml-recurrent-drafter#5), whose SIGKILL
 * look-alike inside the table keeps the rank its "rank :" field gave it
 * (msg.c), and h33-28 (NVIDIA/DeepLearningExamples#1339, a full disk: no
 * OOM, untouched). A rank the message states wins; a restart between, or
 * another worker that raised too, leaves the rank unknown. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/elastic.h"
#include "lib/scan.h"

#define OOM_LINE                                                                                   \
     "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 1 has a total "   \
     "capacity of 79.10 GiB of which 98.00 MiB is free.\n"

#define TB_HEAD                                                                                    \
     "Traceback (most recent call last):\n"                                                         \
     "  File \"/opt/train.py\", line 10, in <module>\n"                                             \
     "    loss.backward()\n"

#define TABLE_TOP                                                                                  \
     "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"                        \
     "============================================================\n"                               \
     "train.py FAILED\n"                                                                            \
     "------------------------------------------------------------\n"                               \
     "Failures:\n"

#define NO_OTHERS "  <NO_OTHER_FAILURES>\n"

#define ROOT_HEAD                                                                                  \
     "------------------------------------------------------------\n"                               \
     "Root Cause (first observed failure):\n"

#define ENTRY(idx, rank, code)                                                                     \
     "[" #idx "]:\n"                                                                                \
     "  time      : 2025-02-05_01:02:51\n"                                                          \
     "  host      : node-1\n"                                                                       \
     "  rank      : " #rank " (local_rank: " #rank ")\n"                                            \
     "  exitcode  : " #code " (pid: 9076" #idx ")\n"                                                \
     "  error_file: <N/A>\n"                                                                        \
     "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n"

#define RULE "============================================================\n"

static int rank_of(const char *log)
{
    struct oom_report rep;
    struct oomlab_err err = {{0}};
    assert_int_equal(scan_text(log, strlen(log), &rep, &err), 0);
    assert_true(rep.primary >= 0);
    int rank = rep.events[rep.primary].rank;
    oom_report_release(&rep);
    return rank;
}

/* The record present: the message's rank is its root cause's. */
static void test_record_names_rank(void **state)
{
    (void)state;
    assert_int_equal(rank_of(TB_HEAD OOM_LINE TABLE_TOP NO_OTHERS ROOT_HEAD ENTRY(0, 3, 1) RULE), 3);
    /* other workers stopped by the agent (SIGTERM) are consequences */
    assert_int_equal(rank_of(TB_HEAD OOM_LINE TABLE_TOP ENTRY(1, 0, -15) ENTRY(2, 2, -15) ROOT_HEAD
                                 ENTRY(0, 1, 1) RULE),
                     1);
}

/* No record: the rank stays unknown. */
static void test_record_absent(void **state)
{
    (void)state;
    assert_int_equal(rank_of(TB_HEAD OOM_LINE), -1);
    /* a table before the message is an earlier run's */
    assert_int_equal(rank_of(TABLE_TOP NO_OTHERS ROOT_HEAD ENTRY(0, 3, 1) RULE TB_HEAD OOM_LINE), -1);
    assert_int_equal(rank_of(TABLE_TOP NO_OTHERS ROOT_HEAD ENTRY(0, 3, 1) RULE OOM_LINE), -1);
    /* the message inside the Root Cause part (its traceback field, with
     * @record on the worker's main) is the root cause's */
    assert_int_equal(rank_of(TABLE_TOP NO_OTHERS ROOT_HEAD ENTRY(0, 3, 1) "    " OOM_LINE RULE), 3);
}

/* Several failures: another worker that raised too may have printed the
 * message; a message inside the Failures: part is another worker's. */
static void test_several_failures(void **state)
{
    (void)state;
    assert_int_equal(rank_of(TB_HEAD OOM_LINE TABLE_TOP ENTRY(1, 2, 1) ROOT_HEAD ENTRY(0, 3, 1) RULE), -1);
    assert_int_equal(rank_of(TABLE_TOP ENTRY(1, 2, 1) "  " OOM_LINE ROOT_HEAD ENTRY(0, 3, 1) RULE), -1);
    /* a restart between the message and the table: another attempt's */
    assert_int_equal(rank_of(TB_HEAD OOM_LINE
                             "WARNING:torch.distributed.elastic.agent.server.api:[default] Worker group "
                             "FAILED. 3/3 attempts left; will restart worker group\n" TABLE_TOP NO_OTHERS
                                 ROOT_HEAD ENTRY(0, 3, 1) RULE),
                     -1);
}

/* The prefix the message states wins over the record. */
static void test_prefix_wins(void **state)
{
    (void)state;
    assert_int_equal(rank_of("[rank5]: " OOM_LINE TABLE_TOP NO_OTHERS ROOT_HEAD ENTRY(0, 3, 1) RULE), 5);
}

/* The parser alone: one Root Cause entry; two are not torch's shape. */
static void test_table_root_rank(void **state)
{
    (void)state;
    static const char one[] = TABLE_TOP NO_OTHERS ROOT_HEAD ENTRY(0, 7, 1) RULE "after\n";
    static const char two[] = TABLE_TOP NO_OTHERS ROOT_HEAD ENTRY(0, 7, 1) ENTRY(1, 4, 1) RULE;
    static const char open_end[] = TABLE_TOP NO_OTHERS ROOT_HEAD ENTRY(0, 7, 1);
    size_t used;
    assert_int_equal(elastic_table_root_rank(one, sizeof one - 1, &used), 7);
    assert_int_equal(used, sizeof one - 1 - strlen("after\n"));
    assert_int_equal(elastic_table_root_rank(two, sizeof two - 1, &used), -1);
    /* the input ends inside the Root Cause part (MoFHeka/LLaMA-Megatron#1 is
     * cut in its traceback field): its one entry stands */
    assert_int_equal(elastic_table_root_rank(open_end, sizeof open_end - 1, &used), 7);
    /* cut inside the Failures: part: no root cause read */
    static const char cut[] = TABLE_TOP ENTRY(1, 2, -15);
    assert_int_equal(elastic_table_root_rank(cut, sizeof cut - 1, &used), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_names_rank), cmocka_unit_test(test_record_absent),
        cmocka_unit_test(test_several_failures),  cmocka_unit_test(test_prefix_wins),
        cmocka_unit_test(test_table_root_rank),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
