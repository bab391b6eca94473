/* Unit tests for lib/stale: each staleness rule and process kind, with the
 * evidence it gives, and the cases that must not be flagged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/stale.h"

/* A training job: busy GPU, CPU time gained over a 1 s window. */
static struct stale_facts healthy(void)
{
    return (struct stale_facts){.pid = 4242,
                                .gpu = 0,
                                .visible = true,
                                .state = 'S',
                                .ppid = 4000,
                                .parent_comm = "bash",
                                .parent_cmdline = "bash",
                                .cmdline = "python train.py",
                                .elapsed_s = 7200,
                                .used_bytes = 1LL << 30,
                                .window_s = 1.0,
                                .gpu_util_max = 90,
                                .gpu_util_reads = 6,
                                .cpu_s = 0.93,
                                .idle_after_s = 600};
}

/* Nothing happened over the window. */
static struct stale_facts quiet(void)
{
    struct stale_facts f = healthy();
    f.gpu_util_max = 0;
    f.cpu_s = 0;
    return f;
}

static const struct stale_flag *flag(const struct stale_result *r, const char *name)
{
    for (size_t i = 0; i < r->n_flags; i++)
        if (!strcmp(r->flags[i].name, name)) return &r->flags[i];
    return NULL;
}

static void test_healthy_is_not_flagged(void **state)
{
    (void)state;
    struct stale_facts f = healthy();
    struct stale_result r;
    stale_assess(&f, &r);
    assert_int_equal(r.n_flags, 0);
    assert_false(r.stale);
    assert_null(r.kind);
    assert_int_equal(r.activity, STALE_BUSY);
    assert_string_equal(r.activity_evidence,
                        "over 1.0s GPU 0 reached 90% utilisation (device-wide: it or another "
                        "process on the card is computing) and it used 0.93s of CPU time (93% of "
                        "a core)");
}

static void test_zombie(void **state)
{
    (void)state;
    struct stale_facts f = healthy();
    f.state = 'Z';
    f.ppid = 1; /* a zombie is not also called an orphan */
    struct stale_result r;
    stale_assess(&f, &r);
    assert_true(r.stale);
    assert_int_equal(r.n_flags, 1);
    assert_non_null(strstr(flag(&r, "zombie")->evidence, "PID 1"));
    f = quiet(); /* a quiet old zombie is a zombie, not also idle */
    f.state = 'Z';
    stale_assess(&f, &r);
    assert_int_equal(r.n_flags, 1);
    assert_string_equal(r.flags[0].name, "zombie");
}

/* Issue 10: a job under nohup/setsid/a container's init at 97% was flagged
 * orphan and killed. Re-parented is said, and stale only when quiet. */
static void test_reparented_busy_is_not_stale(void **state)
{
    (void)state;
    struct stale_facts f = healthy();
    struct stale_result r;
    f.ppid = 1;
    f.parent_comm = "tini";
    f.gpu_util_max = 97;
    f.elapsed_s = 86400;
    stale_assess(&f, &r);
    assert_false(r.stale);
    assert_null(flag(&r, "orphan"));
    assert_non_null(flag(&r, "reparented"));
    assert_false(flag(&r, "reparented")->stale);
    assert_non_null(
        strstr(flag(&r, "reparented")->evidence, "PID 1 (tini), init: normal for nohup"));
    assert_non_null(strstr(flag(&r, "reparented")->evidence, "reached 97%"));
    /* 0% GPU but CPU time gained (a data-loading or CPU phase): still working */
    f.gpu_util_max = 0;
    f.cpu_s = 0.5;
    stale_assess(&f, &r);
    assert_false(r.stale);
    assert_int_equal(r.activity, STALE_BUSY);
    assert_non_null(strstr(flag(&r, "reparented")->evidence, "0.50s of CPU time (50% of a core)"));
    /* GPU busy, no CPU time in the window (a long kernel): still working */
    f.gpu_util_max = 60;
    f.cpu_s = 0;
    stale_assess(&f, &r);
    assert_false(r.stale);
    assert_null(flag(&r, "idle"));
}

static void test_orphan_needs_quiet(void **state)
{
    (void)state;
    struct stale_facts f = quiet();
    struct stale_result r;
    f.ppid = 1;
    f.parent_comm = "process_api";
    f.elapsed_s = 30; /* young: orphan needs no --idle-after */
    stale_assess(&f, &r);
    assert_true(r.stale);
    assert_null(flag(&r, "idle"));
    assert_string_equal(flag(&r, "orphan")->evidence,
                        "its parent is PID 1 (process_api), init: no launcher waits for it (it "
                        "exited, or the job was started by init), and over 1.0s GPU 0 stayed at "
                        "0% utilisation (6 readings) and it used no CPU time");
    f.ppid = 812;
    f.parent_comm = "systemd"; /* systemd --user, a subreaper */
    stale_assess(&f, &r);
    assert_non_null(strstr(flag(&r, "orphan")->evidence, "a subreaper"));
    f.parent_comm = "bash";
    stale_assess(&f, &r);
    assert_null(flag(&r, "orphan"));
    assert_null(flag(&r, "reparented"));
    f.pid = 1; /* init itself is nobody's orphan */
    f.ppid = 0;
    stale_assess(&f, &r);
    assert_null(flag(&r, "orphan"));
}

/* No evidence of idleness is no flag: unknown utilisation, one reading,
 * unreadable CPU time, no window. */
static void test_unknown_is_never_stale(void **state)
{
    (void)state;
    struct stale_result r;
    struct stale_facts f = quiet();
    f.ppid = 1;
    f.parent_comm = "init";
    f.gpu_util_max = -1;
    stale_assess(&f, &r);
    assert_false(r.stale);
    assert_int_equal(r.activity, STALE_UNKNOWN);
    assert_non_null(strstr(flag(&r, "reparented")->evidence, "utilisation is unknown"));
    f = quiet();
    f.gpu_util_reads = 1;
    stale_assess(&f, &r);
    assert_false(r.stale);
    assert_non_null(strstr(r.activity_evidence, "too few readings"));
    f = quiet();
    f.cpu_s = -1;
    stale_assess(&f, &r);
    assert_false(r.stale);
    assert_non_null(strstr(r.activity_evidence, "CPU time could not be read"));
    f = quiet();
    f.window_s = 0;
    stale_assess(&f, &r);
    assert_false(r.stale);
    assert_string_equal(r.activity_evidence, "not watched over a sampling window");
    /* busy beats unknown */
    f = quiet();
    f.gpu_util_max = -1;
    f.cpu_s = 0.2;
    stale_assess(&f, &r);
    assert_int_equal(r.activity, STALE_BUSY);
}

static void test_idle_needs_quiet_memory_and_age(void **state)
{
    (void)state;
    struct stale_facts f = quiet();
    struct stale_result r;
    stale_assess(&f, &r);
    assert_true(r.stale);
    assert_int_equal(r.activity, STALE_QUIET);
    assert_string_equal(flag(&r, "idle")->evidence,
                        "over 1.0s GPU 0 stayed at 0% utilisation (6 readings) and it used no CPU "
                        "time, while it holds 1.00 GiB and has been running for 2h00m (idle "
                        "threshold 10m00s)");
    f.elapsed_s = 30; /* too young */
    stale_assess(&f, &r);
    assert_null(flag(&r, "idle"));
    assert_false(r.stale);
    f.elapsed_s = -1; /* unknown age: no claim */
    stale_assess(&f, &r);
    assert_null(flag(&r, "idle"));
    f.elapsed_s = 7200;
    f.used_bytes = -1; /* memory unknown: no claim */
    stale_assess(&f, &r);
    assert_null(flag(&r, "idle"));
    f.used_bytes = 1 << 30;
    f.cpu_s = 0.01; /* one clock tick of CPU is work */
    stale_assess(&f, &r);
    assert_null(flag(&r, "idle"));
}

static void test_hidden_is_explained_not_stale(void **state)
{
    (void)state;
    struct stale_facts f = {.pid = 999999,
                            .visible = false,
                            .state = '?',
                            .gpu_util_max = 0,
                            .gpu_util_reads = 6,
                            .window_s = 1,
                            .cpu_s = -1,
                            .used_bytes = 1 << 20,
                            .elapsed_s = -1,
                            .idle_after_s = 600};
    struct stale_result r;
    stale_assess(&f, &r);
    assert_false(r.stale);
    assert_int_equal(r.n_flags, 1);
    assert_non_null(strstr(flag(&r, "hidden")->evidence, "another PID namespace"));
    assert_null(r.kind);
    assert_int_equal(r.activity, STALE_UNKNOWN);
}

static void test_kinds(void **state)
{
    (void)state;
    struct stale_facts f = healthy();
    struct stale_result r;
    f.cmdline = "/usr/bin/python3 -m ipykernel_launcher -f /run/user/1000/kernel-1.json";
    stale_assess(&f, &r);
    assert_string_equal(r.kind, "jupyter-kernel");
    f.cmdline = "/usr/bin/python3 /usr/local/bin/ipython";
    stale_assess(&f, &r);
    assert_string_equal(r.kind, "ipython");
    f.cmdline = "python train.py --rank 1";
    f.parent_cmdline = "/usr/bin/python3 /usr/local/bin/torchrun --nproc-per-node 8 train.py";
    stale_assess(&f, &r);
    assert_string_equal(r.kind, "torchrun-child");
    assert_non_null(strstr(r.kind_evidence, "torchrun"));
    f.cmdline = f.parent_cmdline = "python train.py";
    stale_assess(&f, &r);
    assert_string_equal(r.kind, "dataloader-worker");
    f.cmdline = "python -c from multiprocessing.spawn import spawn_main; spawn_main(tracker_fd=5)";
    f.parent_cmdline = "python train.py";
    stale_assess(&f, &r);
    assert_string_equal(r.kind, "dataloader-worker");
}

static void test_duration(void **state)
{
    (void)state;
    char b[32];
    assert_string_equal(stale_duration(45, b, sizeof b), "45s");
    assert_string_equal(stale_duration(725, b, sizeof b), "12m05s");
    assert_string_equal(stale_duration(7980, b, sizeof b), "2h13m");
    assert_string_equal(stale_duration(3 * 86400 + 4 * 3600, b, sizeof b), "3d04h");
    assert_string_equal(stale_duration(-1, b, sizeof b), "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_healthy_is_not_flagged),
        cmocka_unit_test(test_zombie),
        cmocka_unit_test(test_reparented_busy_is_not_stale),
        cmocka_unit_test(test_orphan_needs_quiet),
        cmocka_unit_test(test_unknown_is_never_stale),
        cmocka_unit_test(test_idle_needs_quiet_memory_and_age),
        cmocka_unit_test(test_hidden_is_explained_not_stale),
        cmocka_unit_test(test_kinds),
        cmocka_unit_test(test_duration),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
