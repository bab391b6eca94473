/* Unit tests for lib/jobs: job ids from SLURM/torchelastic lines, and which
 * logs are ranks of one job (same id, rank-numbered names, numbered names
 * with distinct rank prefixes) versus unrelated runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/jobs.h"

static const char *id_of(const char *line)
{
    static char out[JOBS_ID_MAX];
    return jobs_id_in_line(line, strlen(line), out, sizeof out) ? out : "";
}

static void test_job_ids(void **state)
{
    (void)state;
    assert_string_equal(id_of("SLURM_JOB_ID=4242917"), "slurm:4242917");
    assert_string_equal(id_of("export SLURM_JOBID=77 SLURM_NNODES=2"), "slurm:77");
    assert_string_equal(id_of("slurmstepd: error: *** JOB 123456 ON gpu-node-3 CANCELLED AT "
                              "2024-05-01T10:00:00 ***"),
                        "slurm:123456");
    assert_string_equal(id_of("slurmstepd: error: *** STEP 123456.0 ON gpu-node-3 CANCELLED"),
                        "slurm:123456");
    assert_string_equal(id_of("srun: job 998 queued and waiting for resources"), "slurm:998");
    /* torchelastic's launch-config table; its default "none" is no id. */
    assert_string_equal(id_of("  run_id           : llama-ft-7"), "torchelastic:llama-ft-7");
    assert_string_equal(id_of("  run_id           : none"), "");
    assert_string_equal(id_of("torchrun --rdzv_id=job42 --nnodes=2 train.py"),
                        "torchelastic:job42");
    assert_string_equal(id_of("TORCHELASTIC_RUN_ID=abc-1"), "torchelastic:abc-1");
    /* Not job ids: our own launch line, other words. */
    assert_string_equal(id_of("INFO launch: run_id=run001 config=configs/run001.yaml"), "");
    assert_string_equal(id_of("my_run_id: 5"), "");
    assert_string_equal(id_of("step=10 loss=2.4790"), "");
}

/* Group paths (with optional job ids and ranks) and return the runs as
 * "0 0 2" (each log's first log). */
struct log_spec {
    const char *path, *job;
    int rank; /* -1 none */
};

static const char *group(const struct log_spec *spec, size_t n, enum jobs_link *link)
{
    static char out[128];
    struct jobs_log logs[8];
    int ranks[8];
    size_t run[8];
    for (size_t i = 0; i < n; i++) {
        ranks[i] = spec[i].rank;
        logs[i] = (struct jobs_log){spec[i].path, spec[i].job, &ranks[i], spec[i].rank >= 0, NULL};
    }
    jobs_group(logs, n, run, link);
    size_t o = 0;
    for (size_t i = 0; i < n; i++) o += (size_t)snprintf(out + o, sizeof out - o, "%s%zu", i ? " " : "", run[i]);
    return out;
}

static void test_grouping(void **state)
{
    (void)state;
    enum jobs_link link[8];
    /* Unrelated logs stay apart. */
    const struct log_spec unrelated[] = {{"logs/run001.log", "", -1}, {"logs/run002.log", "", -1},
                                         {"old/train.log", "", -1}};
    assert_string_equal(group(unrelated, 3, link), "0 1 2");
    assert_int_equal(link[0], JOBS_ALONE);
    /* Rank-numbered names. */
    const struct log_spec names[] = {{"out/train_rank0.log", "", -1}, {"out/train_rank1.log", "", -1},
                                     {"out/eval_rank0.log", "", -1}, {"out/rank-3.log", "", -1},
                                     {"out/rank-4.log", "", -1}, {"out/train.0.log", "", -1},
                                     {"out/train.1.log", "", -1}};
    assert_string_equal(group(names, 7, link), "0 0 2 3 3 5 5");
    assert_int_equal(link[1], JOBS_RANK_NAME);
    assert_string_equal(jobs_link_name(link[1]), "rank-name");
    /* The same job id joins names that share nothing; different ids never join. */
    const struct log_spec ids[] = {{"a/node-a.out", "slurm:77", -1}, {"b/node-b.out", "slurm:77", -1},
                                   {"c/x_rank0.log", "slurm:1", -1}, {"c/x_rank1.log", "slurm:2", -1}};
    assert_string_equal(group(ids, 4, link), "0 0 2 3");
    assert_int_equal(link[0], JOBS_SAME_JOB);
    /* A rank log that names no id joins its sibling that does. */
    const struct log_spec half[] = {{"c/x_rank0.log", "slurm:1", -1}, {"c/x_rank1.log", "", -1}};
    assert_string_equal(group(half, 2, link), "0 0");
    /* Numbered names join only with distinct rank prefixes inside. */
    const struct log_spec prefixed[] = {{"w/worker0.log", "", 0}, {"w/worker1.log", "", 1},
                                        {"w/worker2.log", "", 2}, {"w/worker3.log", "", -1}};
    assert_string_equal(group(prefixed, 4, link), "0 0 0 3");
    assert_int_equal(link[1], JOBS_RANK_PREFIX);
    /* Two single-rank runs both at rank 0 are not one job, nor is a third
     * rank 1 joined to both of them at once. */
    const struct log_spec same_rank[] = {{"w/worker0.log", "", 0}, {"w/worker1.log", "", 0},
                                         {"w/worker2.log", "", 1}};
    assert_string_equal(group(same_rank, 3, link), "0 1 0");
}

/* Line stamps as keys that order one job's lines; real prefixes from the
 * corpus-multirank logs (sources in its labels.tsv). */
static int64_t when(const char *line)
{
    int64_t k;
    return jobs_line_time(line, strlen(line), &k) ? k : -1;
}

static void test_line_time(void **state)
{
    (void)state;
    /* torch's c10 logger: month without its leading zero ("E321" = 21 March). */
    int64_t a = when("[rank0]:[E321 02:07:08.408271257 ProcessGroupNCCL.cpp:607] [Rank 0] x");
    int64_t b = when("[rank4]:[E321 02:07:08.414640780 ProcessGroupNCCL.cpp:607] [Rank 4] x");
    int64_t c = when("[80818] [rank4]:[E321 02:07:12.539400006 ProcessGroupNCCL.cpp:1709] x");
    assert_true(a > 0 && a < b && b < c);
    assert_int_equal(b - a, 6369523); /* nanoseconds */
    /* glog at the line's start, python logging, ISO with T. */
    int64_t g = when("W1026 03:51:31.222000 2521679 site-packages/torch/distributed/elastic/x");
    int64_t p1 = when("[2024-04-20 18:56:38,931] torch.distributed.elastic: [ERROR] failed");
    int64_t p2 = when("2024-04-20T18:56:39.5 rank 3 step 10");
    int64_t p3 = when("2024-11-20 14:37:16 [rank3]: torch.OutOfMemoryError: CUDA out of memory.");
    assert_true(g > 0 && p1 > 0 && p2 > p1 && p3 > p2);
    assert_int_equal(p2 - p1, 569000000);
    assert_true(when("[rank1]:[W1201 10:30:41.900000 x") < when("[rank0]:[W1201 10:30:58.1 x"));
    /* Not stamps: step counters, versions, bare numbers, an "E" inside a word. */
    assert_int_equal(when("step=1234 loss=2.47 lr=3e-4"), -1);
    assert_int_equal(when("NCCL version 2.21.5+cuda12.4"), -1);
    assert_int_equal(when("[rank1]: torch.OutOfMemoryError: CUDA out of memory."), -1);
    assert_int_equal(when("LINE1201 10:30:41 is no glog stamp"), -1);
    assert_int_equal(when("E1301 10:30:41.5 month 13"), -1);
    assert_int_equal(when("2024-13-01 10:00:00 month 13"), -1);
    assert_int_equal(when(""), -1);
}

static void test_rank_of_path(void **state)
{
    (void)state;
    assert_int_equal(jobs_rank_of_path("logs/run7_rank3.log"), 3);
    assert_int_equal(jobs_rank_of_path("logs/run7_rank12.log"), 12);
    assert_int_equal(jobs_rank_of_path("out/rank-0.txt"), 0);
    assert_int_equal(jobs_rank_of_path("logs/run7.log"), -1);
    assert_int_equal(jobs_rank_of_path("logs/ranker.log"), -1);
    assert_int_equal(jobs_rank_of_path("train.3.log"), -1); /* a number, not a rank's name */
}

/* Logs read for one RUN_ID are one job even when their names alone would
 * not join (logs/ID.log next to logs/ID_rank1.log). */
static void test_same_run(void **state)
{
    (void)state;
    int none = -1;
    struct jobs_log logs[3] = {
        {"logs/j.log", NULL, &none, 0, "j"},
        {"logs/j_rank1.log", NULL, &none, 0, "j"},
        {"logs/k.log", NULL, &none, 0, "k"},
    };
    size_t run[3];
    enum jobs_link link[3];
    assert_int_equal(jobs_group(logs, 3, run, link), 2);
    assert_int_equal(run[1], 0);
    assert_int_equal(run[2], 2);
    assert_int_equal(link[1], JOBS_SAME_RUN);
    assert_string_equal(jobs_link_name(JOBS_SAME_RUN), "same-run");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_job_ids),
        cmocka_unit_test(test_grouping),
        cmocka_unit_test(test_line_time),
        cmocka_unit_test(test_rank_of_path),
        cmocka_unit_test(test_same_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
