/* Unit tests for a run that finished (diagcall, issue 12): a GPU OOM
 * named only in words over a log whose run then ended well is no failure of
 * this log (scan.c, run_finished_words). Every line is real, from the thread
 * named beside it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/scan.h"
#include "scan_fixture.h"

/* deepspeedai/DeepSpeed#2302 (heldout25 h25-76): the title names an OOM, the
 * excerpt is a late comment's see_memory_usage bookkeeping of a run that
 * ends "Finished train" */
#define DS2302_LINES \
    "DeepSpeed still gives CUDA-out-of-memory issue\n" \
    "\n" \
    "```\n" \
    "[2023-01-15 19:09:56,486] [INFO] [utils.py:827:see_memory_usage] Engine after backward\n" \
    "[2023-01-15 19:09:56,487] [INFO] [utils.py:828:see_memory_usage] MA 0.02 GB         Max_MA 0.08 GB         CA 0.08 GB         Max_CA 0 GB \n" \
    "[2023-01-15 19:09:56,487] [INFO] [utils.py:836:see_memory_usage] CPU Virtual Memory:  used = 4.05 GB, percent = 31.9%\n" \
    "[2023-01-15 19:09:56,630] [INFO] [utils.py:827:see_memory_usage] Engine before step\n" \
    "[2023-01-15 19:09:56,630] [INFO] [utils.py:828:see_memory_usage] MA 0.02 GB         Max_MA 0.02 GB         CA 0.08 GB         Max_CA 0 GB \n" \
    "[2023-01-15 19:09:56,630] [INFO] [utils.py:836:see_memory_usage] CPU Virtual Memory:  used = 4.05 GB, percent = 31.9%\n" \
    "[2023-01-15 19:09:56,641] [INFO] [logging.py:68:log_dist] [Rank 0] step=2500, skipped=0, lr=[0.05], mom=[(0.9, 0.999)]\n" \
    "[2023-01-15 19:09:56,641] [INFO] [timer.py:197:stop] 0/2500, RunningAvgSamplesPerSec=3.0103234047778877, CurrSamplesPerSec=2.1729161539995805, MemAllocated=0.02GB, MaxMemAllocated=0.02GB\n" \
    "[2023-01-15 19:09:56,788] [INFO] [utils.py:827:see_memory_usage] Engine after step\n" \
    "[2023-01-15 19:09:56,789] [INFO] [utils.py:828:see_memory_usage] MA 0.02 GB         Max_MA 0.02 GB         CA 0.08 GB         Max_CA 0 GB \n" \
    "[2023-01-15 19:09:56,789] [INFO] [utils.py:836:see_memory_usage] CPU Virtual Memory:  used = 4.05 GB, percent = 31.9%\n"

static const char ds2302[] = DS2302_LINES "Finished train\n";

/* The same lines without the last one: the title's OOM stands */
static const char ds2302_cut[] = DS2302_LINES;

static long primary_of(const char *log)
{
    struct oom_report rep;
    scan_log(log, &rep);
    long p = rep.primary;
    oom_report_release(&rep);
    return p;
}

static void test_finished_run_drops_mention(void **state)
{
    (void)state;
    assert_true(primary_of(ds2302) < 0);
    assert_true(primary_of(ds2302_cut) >= 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_finished_run_drops_mention),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
