/* Unit tests for sys/memlog against the fake NVML: the header, the exact
 * columns, the child's tree (this test process) against other holders,
 * unknown cells left empty, peaks, writes that fail (disk full), and a
 * symlink in the CSV's place refused (O_TRUNC would empty its target). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <signal.h>
#include <sys/resource.h>

#include "fake_nvml_state.h"
#include "sys/memlog.h"
#include "sys/nvml.h"

static char csv_path[300];

static int setup(void **state)
{
    (void)state;
    fake_setup("0 85899345920 536870912 35 NVIDIA A100-SXM4-80GB\n1 25769803776 0 na NVIDIA L4\n");
    fake_write("driver", "550.54.15\n");
    char self[64], mine[64];
    snprintf(self, sizeof self, "procs/%d", (int)getpid());
    snprintf(mine, sizeof mine, "0 %lld\n", 3LL << 30);
    fake_write(self, mine);
    fake_write("procs/1", "0 1073741824\n"); /* init: never in our tree */
    snprintf(csv_path, sizeof csv_path, "%s/mem.csv", fake_dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    fake_teardown();
    return 0;
}

static char *slurp(const char *path)
{
    static char buf[65536];
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static struct nvml *open_nvml(void)
{
    struct nvml *nv;
    struct oomlab_err err;
    assert_int_equal(nvml_open(&nv, &err), 0);
    return nv;
}

static void test_rows_and_tree(void **state)
{
    (void)state;
    struct nvml *nv = open_nvml();
    struct memlog *ml;
    struct oomlab_err err;
    assert_int_equal(
        memlog_open(&ml, nv, csv_path, NULL, 0, getpid(), "python train.py\n--x", &err), 0);
    assert_int_equal(memlog_tick(ml, &err), 0);
    fake_write("procs/1", "0 2147483648\n"); /* someone else grows: not our tree */
    assert_int_equal(memlog_tick(ml, &err), 0);
    struct memlog_peak pk[4];
    assert_int_equal(memlog_peaks(ml, pk, 4), 2);
    assert_int_equal(pk[0].gpu, 0);
    assert_int_equal(pk[0].tree_peak, 3LL << 30);
    assert_int_equal(pk[0].used_peak, 536870912LL + (3LL << 30) + (2LL << 30));
    assert_int_equal(pk[0].samples, 2);
    assert_int_equal(pk[0].used_first, 536870912LL + (3LL << 30) + (1LL << 30)); /* before init grew */
    assert_int_equal(pk[0].tree_unknown, 0);
    assert_int_equal(pk[1].tree_peak, 0); /* known: nothing of ours on GPU 1 */
    assert_int_equal(pk[1].tree_unknown, 0);
    assert_null(memlog_warning(ml));
    assert_int_equal(memlog_close(ml, &err), 0);
    nvml_close(nv);

    char *text = slurp(csv_path);
    assert_non_null(strstr(text, "# command: python train.py?--x\n"));
    assert_non_null(strstr(text, "# driver: 550.54.15\n"));
    assert_non_null(strstr(text, "# gpu 0: NVIDIA A100-SXM4-80GB, total_mib=81920\n"));
    assert_non_null(strstr(text, "# gpu 1: NVIDIA L4, total_mib=24576\n"));
    assert_non_null(
        strstr(text, "\ntimestamp,elapsed_ms,gpu,used_mib,total_mib,free_mib,util_pct,tree_mib\n"));
    assert_string_equal(memlog_columns(),
                        "timestamp,elapsed_ms,gpu,used_mib,total_mib,free_mib,util_pct,tree_mib");
    /* first tick: GPU 0 used 512 + 3072 + 1024 MiB; GPU 1 util unknown -> empty */
    assert_non_null(strstr(text, ",0,4608,81920,77312,35,3072\n"));
    assert_non_null(strstr(text, ",1,0,24576,24576,,0\n"));
    assert_non_null(strstr(text, ",0,5632,81920,76288,35,3072\n"));
    assert_non_null(
        strstr(text, "# peak gpu 0: used_mib=5632,tree_mib=3072,total_mib=81920,samples=2\n"));
    /* timestamps: ISO 8601 UTC with milliseconds */
    char *row = strstr(text, "tree_mib\n") + 9;
    assert_int_equal(row[4], '-');
    assert_int_equal(row[10], 'T');
    assert_int_equal(row[19], '.');
    assert_int_equal(row[23], 'Z');
}

static void test_unknown_cells_and_gpu_selection(void **state)
{
    (void)state;
    fake_write("gpus", "0 na 0 na NVIDIA GH200\n1 25769803776 0 10 NVIDIA L4\n");
    char self[64];
    snprintf(self, sizeof self, "procs/%d", (int)getpid());
    fake_write(self, "1 na\n");
    struct nvml *nv = open_nvml();
    struct memlog *ml;
    struct oomlab_err err;
    unsigned sel[2] = {0, 1};
    assert_int_equal(memlog_open(&ml, nv, csv_path, sel, 2, getpid(), "x", &err), 0);
    assert_int_equal(memlog_tick(ml, &err), 0);
    assert_int_equal(memlog_close(ml, &err), 0);
    nvml_close(nv);
    char *text = slurp(csv_path);
    assert_non_null(strstr(text, ",0,,,,,0\n")); /* unified memory: unknown; none of ours */
    assert_non_null(strstr(text, ",1,0,24576,24576,10,\n")); /* tree holds "na" */
    assert_non_null(strstr(text, "# peak gpu 0: used_mib=,tree_mib=0,total_mib=,samples=1\n"));
}

static void test_no_root_pid_leaves_tree_empty(void **state)
{
    (void)state;
    struct nvml *nv = open_nvml();
    struct memlog *ml;
    struct oomlab_err err;
    unsigned sel = 1;
    assert_int_equal(memlog_open(&ml, nv, csv_path, &sel, 1, 0, "watch", &err), 0);
    assert_int_equal(memlog_tick(ml, &err), 0);
    assert_int_equal(memlog_close(ml, &err), 0);
    nvml_close(nv);
    char *text = slurp(csv_path);
    assert_non_null(strstr(text, ",1,0,24576,24576,,\n"));
    assert_null(strstr(text, "# gpu 0"));
}

/* NVML reads the GPU but cannot list its processes (no permission, or a
 * container's pids): the tree's figure is unknown in those samples, counted,
 * so run never takes the device-wide figure for the run's own peak; the
 * device's used at the first sample is kept as the baseline. */
static void test_tree_unknown_counted(void **state)
{
    (void)state;
    struct nvml *nv = open_nvml();
    struct memlog *ml;
    struct oomlab_err err;
    unsigned sel = 0;
    assert_int_equal(memlog_open(&ml, nv, csv_path, &sel, 1, getpid(), "x", &err), 0);
    assert_int_equal(memlog_tick(ml, &err), 0); /* the list answers: the tree is known */
    setenv("OOMLAB_FAKE_NVML_FAIL", "procs", 1);
    fake_write("procs/1", "0 2147483648\n");
    assert_int_equal(memlog_tick(ml, &err), 0);
    assert_int_equal(memlog_tick(ml, &err), 0);
    unsetenv("OOMLAB_FAKE_NVML_FAIL");
    struct memlog_peak pk[2];
    assert_int_equal(memlog_peaks(ml, pk, 2), 1);
    assert_int_equal(pk[0].samples, 3);
    assert_int_equal(pk[0].tree_unknown, 2);
    assert_int_equal(pk[0].tree_peak, 3LL << 30);
    assert_int_equal(pk[0].used_first, 536870912LL + (3LL << 30) + (1LL << 30));
    assert_int_equal(pk[0].used_peak, 536870912LL + (3LL << 30) + (2LL << 30));
    assert_int_equal(memlog_close(ml, &err), 0);
    nvml_close(nv);
    /* watch (no root): no tree asked for, none unknown */
    assert_int_equal(memlog_open(&ml, nv = open_nvml(), csv_path, &sel, 1, 0, "watch", &err), 0);
    assert_int_equal(memlog_tick(ml, &err), 0);
    assert_int_equal(memlog_peaks(ml, pk, 2), 1);
    assert_int_equal(pk[0].tree_unknown, 0);
    assert_int_equal(memlog_close(ml, &err), 0);
    nvml_close(nv);
}

static void test_nvml_failure_is_a_warning(void **state)
{
    (void)state;
    struct nvml *nv = open_nvml();
    struct memlog *ml;
    struct oomlab_err err;
    assert_int_equal(memlog_open(&ml, nv, csv_path, NULL, 0, getpid(), "x", &err), 0);
    setenv("OOMLAB_FAKE_NVML_FAIL", "memory", 1);
    assert_int_equal(memlog_tick(ml, &err), 0);
    unsetenv("OOMLAB_FAKE_NVML_FAIL");
    assert_non_null(memlog_warning(ml));
    assert_non_null(strstr(memlog_warning(ml), "GPU is lost"));
    assert_int_equal(memlog_close(ml, &err), 0);
    nvml_close(nv);
    assert_non_null(strstr(slurp(csv_path), ",0,,,,,\n"));
}

static void test_disk_full_on_open(void **state)
{
    (void)state;
    struct nvml *nv = open_nvml();
    struct memlog *ml = (struct memlog *)1;
    struct oomlab_err err;
    assert_int_equal(memlog_open(&ml, nv, "/dev/full", NULL, 0, 0, "x", &err), -1);
    assert_null(ml);
    assert_non_null(strstr(err.msg, "No space left on device"));
    nvml_close(nv);
}

static void test_symlink_refused(void **state)
{
    (void)state;
    struct nvml *nv = open_nvml();
    struct memlog *ml = (struct memlog *)1;
    struct oomlab_err err;
    char target[320];
    snprintf(target, sizeof target, "%s/precious", fake_dir);
    FILE *f = fopen(target, "w");
    assert_non_null(f);
    fputs("keep me\n", f);
    fclose(f);
    assert_int_equal(symlink(target, csv_path), 0);
    assert_int_equal(memlog_open(&ml, nv, csv_path, NULL, 0, 0, "x", &err), -1);
    assert_null(ml);
    assert_non_null(strstr(err.msg, "symbolic link"));
    assert_string_equal(slurp(target), "keep me\n");
    unlink(csv_path);
    nvml_close(nv);
}

/* A file-size limit makes a tick's write short: the partial row is cut
 * back, the tick fails, and close reports it. */
static void test_short_write_is_rolled_back(void **state)
{
    (void)state;
    struct nvml *nv = open_nvml();
    struct memlog *ml;
    struct oomlab_err err;
    assert_int_equal(memlog_open(&ml, nv, csv_path, NULL, 0, 0, "x", &err), 0);
    assert_int_equal(memlog_tick(ml, &err), 0);
    size_t before = strlen(slurp(csv_path));
    struct rlimit old, lim;
    getrlimit(RLIMIT_FSIZE, &old);
    lim = old;
    lim.rlim_cur = before + 30; /* room for part of a row only */
    signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    int rc = memlog_tick(ml, &err);
    setrlimit(RLIMIT_FSIZE, &old);
    assert_int_equal(rc, -1);
    assert_non_null(strstr(err.msg, "cannot write"));
    assert_int_equal(strlen(slurp(csv_path)), before); /* nothing half-written */
    assert_int_equal(memlog_tick(ml, &err), 0);        /* room again: it goes on */
    assert_int_equal(memlog_close(ml, &err), -1);      /* but the loss is reported */
    assert_non_null(strstr(err.msg, "File too large"));
    nvml_close(nv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_rows_and_tree, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unknown_cells_and_gpu_selection, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_root_pid_leaves_tree_empty, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tree_unknown_counted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nvml_failure_is_a_warning, setup, teardown),
        cmocka_unit_test_setup_teardown(test_disk_full_on_open, setup, teardown),
        cmocka_unit_test_setup_teardown(test_short_write_is_rolled_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_symlink_refused, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
