/* Unit tests for lib/stale: each staleness rule and process kind, with the
 * evidence it gives, and the cases that must not be flagged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/stale.h"

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
                                .gpu_util = 90,
                                .idle_after_s = 600};
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
}

static void test_orphan_by_init_and_subreaper(void **state)
{
    (void)state;
    struct stale_facts f = healthy();
    struct stale_result r;
    f.ppid = 1;
    f.parent_comm = "process_api";
    stale_assess(&f, &r);
    assert_true(r.stale);
    assert_non_null(strstr(flag(&r, "orphan")->evidence, "PID 1 (process_api), init"));
    f.ppid = 812;
    f.parent_comm = "systemd"; /* systemd --user, a subreaper */
    stale_assess(&f, &r);
    assert_non_null(strstr(flag(&r, "orphan")->evidence, "a subreaper"));
    f.parent_comm = "bash";
    stale_assess(&f, &r);
    assert_null(flag(&r, "orphan"));
    f.pid = 1; /* init itself is nobody's orphan */
    f.ppid = 0;
    stale_assess(&f, &r);
    assert_null(flag(&r, "orphan"));
}

static void test_idle_needs_zero_util_memory_and_age(void **state)
{
    (void)state;
    struct stale_facts f = healthy();
    struct stale_result r;
    f.gpu_util = 0;
    stale_assess(&f, &r);
    assert_true(r.stale);
    assert_string_equal(flag(&r, "idle")->evidence,
                        "GPU 0 is at 0% utilisation while it holds 1.00 GiB, and it has been "
                        "running for 2h00m (idle threshold 10m00s)");
    f.util_window_s = 0.8;
    stale_assess(&f, &r);
    assert_string_equal(flag(&r, "idle")->evidence,
                        "GPU 0 stayed at 0% utilisation over 0.8s while it holds 1.00 GiB, and it "
                        "has been running for 2h00m (idle threshold 10m00s)");
    f.elapsed_s = 30; /* too young */
    stale_assess(&f, &r);
    assert_null(flag(&r, "idle"));
    f.elapsed_s = -1; /* unknown age: no claim */
    stale_assess(&f, &r);
    assert_null(flag(&r, "idle"));
    f.elapsed_s = 7200;
    f.gpu_util = -1; /* utilisation not supported: no claim */
    stale_assess(&f, &r);
    assert_null(flag(&r, "idle"));
    f.gpu_util = 0;
    f.used_bytes = -1; /* memory unknown: no claim */
    stale_assess(&f, &r);
    assert_null(flag(&r, "idle"));
}

static void test_hidden_is_explained_not_stale(void **state)
{
    (void)state;
    struct stale_facts f = {.pid = 999999,
                            .visible = false,
                            .state = '?',
                            .gpu_util = 0,
                            .used_bytes = 1 << 20,
                            .elapsed_s = -1,
                            .idle_after_s = 600};
    struct stale_result r;
    stale_assess(&f, &r);
    assert_false(r.stale);
    assert_int_equal(r.n_flags, 1);
    assert_non_null(strstr(flag(&r, "hidden")->evidence, "another PID namespace"));
    assert_null(r.kind);
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
        cmocka_unit_test(test_orphan_by_init_and_subreaper),
        cmocka_unit_test(test_idle_needs_zero_util_memory_and_age),
        cmocka_unit_test(test_hidden_is_explained_not_stale),
        cmocka_unit_test(test_kinds),
        cmocka_unit_test(test_duration),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
