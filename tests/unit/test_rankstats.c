/* lib/rankstats: the ranks of a launcher's interleaved log, per attempt.
 * Line shapes: torchrun's "[rankN]:" prefix (--log-line-prefix-template,
 * and torch >= 2.2's own C++ prefix), the guide's step line
 * (step=N ... peak_alloc=X peak_reserved=Y), the agent's restart line
 * (shun-zheng/Doc2EDAG#24) and a ChildFailedError table (lzhxmu/CPPO#6). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/rankstats.h"

#define GB(x) ((int64_t)((x) * 1073741824.0))

static long feed(struct rankstats *rs, const char *line)
{
    struct steps_point pt;
    bool step = steps_parse_line(line, strlen(line), &pt);
    return rankstats_line(rs, line, strlen(line), step ? &pt : NULL);
}

static void test_ranks_attempts_and_exits(void **state)
{
    (void)state;
    struct rankstats rs;
    rankstats_init(&rs);
    assert_int_equal(feed(&rs, "[rank0]:step=1 loss=2.42 peak_alloc=4.00GiB peak_reserved=4.20GiB"), 0);
    assert_int_equal(feed(&rs, "[rank1]:step=1 loss=2.42 peak_alloc=6.00GiB peak_reserved=6.50GiB"), 1);
    assert_int_equal(feed(&rs, "[rank0]:step=2 loss=2.30 peak_alloc=5.00GiB peak_reserved=5.25GiB"), 0);
    assert_int_equal(feed(&rs, "[rank1]:torch.OutOfMemoryError: CUDA out of memory."), 1); /* line 4 */
    assert_int_equal(feed(&rs, "W0801 13:23:17.366000 32974 torch/distributed/elastic/multiprocessing/api.py:900] "
                               "Sending process 33051 closing signal SIGTERM"), -1);
    assert_int_equal(feed(&rs, "INFO:torch.distributed.elastic.agent.server.api:[default] Worker group FAILED. "
                               "1/1 attempts left; will restart worker group"), -1); /* line 6 */
    assert_int_equal(feed(&rs, "[rank1]:step=1 loss=2.42 peak_alloc=3.00GiB peak_reserved=3.10GiB"), 2);
    assert_int_equal(feed(&rs, "[rank0]:step=1 loss=2.42 peak_alloc=3.00GiB peak_reserved=3.00GiB"), 3);
    assert_int_equal(feed(&rs, "[rank1]:[rank1]: torch.OutOfMemoryError: CUDA out of memory."), 2); /* line 9 */
    assert_int_equal(feed(&rs, "Root Cause (first observed failure):"), -1);
    assert_int_equal(feed(&rs, "[0]:"), -1);
    assert_int_equal(feed(&rs, "  rank      : 1 (local_rank: 1)"), -1);
    assert_int_equal(feed(&rs, "  exitcode  : -9 (pid: 77)"), -1);
    assert_int_equal(rs.n, 4);
    assert_int_equal(rs.ranks, 2);
    assert_int_equal(rankstats_attempts(&rs), 2);

    struct oom_event ev[2] = {{.gpu_oom = true, .rank = 1, .line = 4, .stage = OOM_STAGE_BACKWARD},
                              {.gpu_oom = true, .rank = 1, .line = 9, .stage = OOM_STAGE_FORWARD}};
    ev[0].bytes = (struct oom_bytes){.allocated = GB(70), .reserved = GB(75), .reserved_unallocated = -1,
                                     .capacity = GB(80)};
    ev[1].bytes = (struct oom_bytes){.allocated = GB(10), .reserved = -1, .reserved_unallocated = GB(1),
                                     .capacity = GB(80)};
    struct oom_report rep = {.events = ev, .n_events = 2, .primary = 0};
    rankstats_finish(&rs, &rep);
    bool lower;
    /* attempt 0: rank 0 by its step lines, rank 1 by its OOM's counters (a lower bound) */
    assert_int_equal(rs.r[0].rank, 0);
    assert_int_equal(rs.r[0].attempt, 0);
    assert_int_equal(rankstats_peak(&rs.r[0], &lower), GB(5.25));
    assert_false(lower);
    assert_false(rs.r[0].oom);
    assert_true(rs.r[1].oom);
    assert_int_equal(rs.r[1].oom_stage, OOM_STAGE_BACKWARD);
    assert_int_equal(rankstats_peak(&rs.r[1], &lower), GB(75));
    assert_true(lower);
    assert_false(rs.r[1].have_exit); /* the table comes after the last attempt */
    /* attempt 1: rank 1's OOM is its own (allocated + reserved-unallocated), the table's exit too */
    assert_int_equal(rs.r[2].rank, 1);
    assert_int_equal(rs.r[2].attempt, 1);
    assert_true(rs.r[2].oom);
    assert_int_equal(rs.r[2].oom_stage, OOM_STAGE_FORWARD);
    assert_int_equal(rs.r[2].oom_reserved, GB(11));
    assert_true(rs.r[2].have_exit);
    assert_int_equal(rs.r[2].exitcode, -9);
    assert_int_equal(rs.r[3].rank, 0);
    assert_false(rs.r[3].oom);
    rankstats_release(&rs);
}

static void test_hostile(void **state)
{
    (void)state;
    struct rankstats rs;
    rankstats_init(&rs);
    assert_int_equal(feed(&rs, "no prefix here"), -1);
    assert_int_equal(feed(&rs, "[rank99999999]:too big a rank"), -1);
    assert_int_equal(feed(&rs, "[rank65535]:the largest followed"), 0);
    assert_int_equal(rs.ranks, 1);
    struct oom_event ev = {.gpu_oom = true, .rank = 7, .line = 1};
    struct oom_report rep = {.events = &ev, .n_events = 1, .primary = 0};
    rankstats_finish(&rs, &rep); /* a rank with no lines of its own: nothing to attach to */
    assert_false(rs.r[0].oom);
    rankstats_release(&rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranks_attempts_and_exits),
        cmocka_unit_test(test_hostile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
