/* lib/rankstats: the ranks of a launcher's interleaved log, per attempt.
 * Line shapes: torchrun's "[rankN]:" prefix (--log-line-prefix-template,
 * and torch >= 2.2's own C++ prefix), the guide's step line
 * (step=N ... peak_alloc=X peak_reserved=Y), the agent's restart line
 * (shun-zheng/Doc2EDAG#24) and a ChildFailedError table (lzhxmu/CPPO#6). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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

/* A log with more OOM events than the scan keeps (OOM_MAX_EVENTS; the
 * rest counted in n_dropped): a rank without a kept event may have had one
 * among the dropped, so its OOM is unknown, not "no" (bench/rankdense:
 * 20,000 events over 512 ranks left 313 ranks saying no). */
static void test_dropped_events_leave_oom_unknown(void **state)
{
    (void)state;
    struct rankstats rs;
    rankstats_init(&rs);
    assert_int_equal(feed(&rs, "[rank0]:torch.OutOfMemoryError: CUDA out of memory."), 0);
    assert_int_equal(feed(&rs, "[rank1]:step=1 loss=2.42 peak_alloc=4.00GiB peak_reserved=4.20GiB"), 1);
    struct oom_event ev = {.gpu_oom = true, .rank = 0, .line = 1, .stage = OOM_STAGE_FORWARD};
    struct oom_report rep = {.events = &ev, .n_events = 1, .primary = 0};
    rankstats_finish(&rs, &rep); /* every event kept: rank 1 had none */
    assert_true(rs.r[0].oom);
    assert_false(rs.r[0].oom_unknown);
    assert_false(rs.r[1].oom);
    assert_false(rs.r[1].oom_unknown);
    rankstats_release(&rs);

    rankstats_init(&rs);
    feed(&rs, "[rank0]:torch.OutOfMemoryError: CUDA out of memory.");
    feed(&rs, "[rank1]:step=1 loss=2.42 peak_alloc=4.00GiB peak_reserved=4.20GiB");
    rep.n_dropped = 3; /* events past the cap: rank 1's may be among them */
    rankstats_finish(&rs, &rep);
    assert_true(rs.r[0].oom);
    assert_false(rs.r[0].oom_unknown);
    assert_false(rs.r[1].oom);
    assert_true(rs.r[1].oom_unknown);
    rankstats_release(&rs);
}

/* srun --label's "N: " is a rank only where another line within
 * MSG_TASK_LABEL_LINES carries the same label (msg.h, the rule diagnose's
 * scan applies): a user's numbered list has each number once. */
static void test_numbered_list_no_ranks(void **state)
{
    (void)state;
    struct rankstats rs;
    rankstats_init(&rs);
    feed(&rs, "Things I tried:");
    feed(&rs, "1: batch 8 works");
    feed(&rs, "2: RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB");
    feed(&rs, "3: step=1 loss=2.42 peak_alloc=4.00GiB peak_reserved=4.20GiB");
    for (int i = 0; i < 20; i++) feed(&rs, "plain text");
    feed(&rs, "4: at the end, alone");
    rankstats_finish(&rs, NULL);
    assert_int_equal(rs.ranks, 0);
    assert_int_equal(rs.n, 0);
    rankstats_release(&rs);
}

/* srun pads labels to the widest task's (" 3: " among 16 tasks, SchedMD/slurm
 * src/api/step_io.c _wid): task 3's padded lines are rank 3's; a backtrace's
 * numbered frames ("  0: tvm::...", each number once) are no ranks. */
static void test_padded_srun_labels(void **state)
{
    (void)state;
    struct rankstats rs;
    rankstats_init(&rs);
    rs.srun = true; /* the run's command named srun */
    feed(&rs, " 3: step=1 loss=2.42 peak_alloc=4.00GiB peak_reserved=4.20GiB");
    feed(&rs, "12: step=1 loss=2.40 peak_alloc=4.50GiB peak_reserved=4.75GiB");
    feed(&rs, " 3: step=2 loss=2.30 peak_alloc=5.00GiB peak_reserved=5.25GiB");
    feed(&rs, "12: step=2 loss=2.31 peak_alloc=4.50GiB peak_reserved=4.75GiB");
    feed(&rs, "Stack trace:");
    feed(&rs, "  1: tvm::runtime::NDArray::Empty");
    feed(&rs, "  0: tvm::runtime::CUDADeviceAPI::AllocDataSpace");
    for (int i = 0; i < 20; i++) feed(&rs, "plain text");
    rankstats_finish(&rs, NULL);
    assert_int_equal(rs.ranks, 2);
    bool three = false;
    for (size_t i = 0; i < rs.n; i++)
        if (rs.r[i].rank == 3) {
            three = true;
            assert_int_equal(rs.r[i].lines, 2);
            assert_true(rs.r[i].peak_reserved == GB(5.25));
        } else
            assert_int_equal(rs.r[i].rank, 12);
    assert_true(three);
    rankstats_release(&rs);
}

struct got {
    char lines[16][80];
    long entry[16];
    size_t n;
};

static void collect(const char *line, size_t len, long entry, void *ctx)
{
    struct got *g = ctx;
    if (g->n < 16) {
        snprintf(g->lines[g->n], sizeof g->lines[0], "%.*s", (int)len, line);
        g->entry[g->n++] = entry;
    }
}

/* An srun-labelled log: a task's first line waits for the next of its own
 * (below), lines behind a held one wait too, so a rank's lines reach the
 * caller in the log's order; a label that no line within 16 repeats is
 * dropped; the figures of a line count once it is decided. */
static void test_srun_labels_decided_in_order(void **state)
{
    (void)state;
    struct rankstats rs;
    struct got g = {0};
    rankstats_init(&rs);
    rs.srun = true; /* the run's command named srun */
    rs.fn = collect;
    rs.fn_ctx = &g;
    assert_int_equal(feed(&rs, "0: step=1 loss=2.42 peak_alloc=4.00GiB peak_reserved=4.20GiB"), -1); /* held */
    assert_int_equal(feed(&rs, "[rank1]:step=1 loss=2.42 peak_alloc=6.00GiB peak_reserved=6.50GiB"), 0);
    assert_int_equal(g.n, 0); /* behind the held line */
    assert_int_equal(feed(&rs, "7: a numbered note"), -1);
    assert_int_equal(feed(&rs, "0: step=2 loss=2.30 peak_alloc=5.00GiB peak_reserved=5.25GiB"), 1); /* rank 0: entry 1 */
    assert_int_equal(g.n, 2); /* line 1 confirmed: it and [rank1]: go; line 4 waits behind the held 7: */
    assert_string_equal(g.lines[0], "0: step=1 loss=2.42 peak_alloc=4.00GiB peak_reserved=4.20GiB");
    assert_int_equal(g.entry[0], 1);
    assert_int_equal(g.entry[1], 0);
    for (int i = 0; i < 15; i++) feed(&rs, "srun: a launcher line"); /* lines 5..19 */
    assert_int_equal(g.n, 2); /* line 19 = 3 + 16 could still have repeated 7: */
    feed(&rs, "srun: a launcher line");
    assert_int_equal(g.n, 3);
    assert_string_equal(g.lines[2], "0: step=2 loss=2.30 peak_alloc=5.00GiB peak_reserved=5.25GiB");
    rankstats_finish(&rs, NULL);
    assert_int_equal(rs.ranks, 2);   /* 0 and 1; 7 was alone */
    assert_int_equal(rs.r[1].rank, 0);
    assert_int_equal(rs.r[1].lines, 2);
    assert_true(rs.r[1].peak_reserved == GB(5.25));
    assert_int_equal(g.n, 3);
    rankstats_release(&rs);
}

/* A bare "N: " is srun's label, a rank, only where srun is named (the
 * command, the log read ahead, or a line so far: msg_names_srun, the helper
 * diagnose's scan applies to the whole log): ctest prints a test's index
 * before each line of its output, repeated line after line ("242:
 * EnforceNotMet: ...", PaddlePaddle/Paddle#6265). (left23) */
static void test_bare_labels_need_srun(void **state)
{
    (void)state;
    struct rankstats rs;
    rankstats_init(&rs);
    feed(&rs, "242: Test command: /usr/bin/python test_train.py");
    feed(&rs, "242: step=1 loss=2.42 peak_alloc=4.00GiB peak_reserved=4.20GiB");
    feed(&rs, "242: step=2 loss=2.30 peak_alloc=5.00GiB peak_reserved=5.25GiB");
    feed(&rs, "0: [rank1]:step=1 loss=2.42 peak_alloc=6.00GiB peak_reserved=6.50GiB");
    rankstats_finish(&rs, NULL);
    assert_int_equal(rs.ranks, 1); /* no 242; the launcher prefix after a label keeps its rank */
    assert_int_equal(rs.r[0].rank, 1);
    rankstats_release(&rs);
    /* guard: a line naming srun, then its tasks' labels */
    rankstats_init(&rs);
    feed(&rs, "+ srun -l python train.py");
    feed(&rs, "3: step=1 loss=2.42 peak_alloc=4.00GiB peak_reserved=4.20GiB");
    feed(&rs, "3: step=2 loss=2.30 peak_alloc=5.00GiB peak_reserved=5.25GiB");
    rankstats_finish(&rs, NULL);
    assert_int_equal(rs.ranks, 1);
    assert_int_equal(rs.r[0].rank, 3);
    assert_int_equal(rs.r[0].lines, 2);
    rankstats_release(&rs);
}

/* srun settled by the caller (run read its whole log ahead): the lines are
 * not asked again, so a line cannot turn it on (the search over the whole
 * log is what decides; asking every line was a tenth of run's read-back of
 * a 1 GiB log). (stranger25) */
static void test_srun_settled_not_asked_per_line(void **state)
{
    (void)state;
    struct rankstats rs;
    rankstats_init(&rs);
    rs.srun = false;
    rs.srun_settled = true;
    feed(&rs, "+ srun -l python train.py");
    feed(&rs, "3: step=1 loss=2.42 peak_alloc=4.00GiB peak_reserved=4.20GiB");
    feed(&rs, "3: step=2 loss=2.30 peak_alloc=5.00GiB peak_reserved=5.25GiB");
    rankstats_finish(&rs, NULL);
    assert_false(rs.srun);
    assert_int_equal(rs.ranks, 0);
    rankstats_release(&rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranks_attempts_and_exits),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_dropped_events_leave_oom_unknown),
        cmocka_unit_test(test_numbered_list_no_ranks),
        cmocka_unit_test(test_padded_srun_labels),
        cmocka_unit_test(test_srun_labels_decided_in_order),
        cmocka_unit_test(test_bare_labels_need_srun),
        cmocka_unit_test(test_srun_settled_not_asked_per_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
