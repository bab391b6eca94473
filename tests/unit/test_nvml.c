/* Unit tests for sys/nvml against the fake libnvidia-ml.so.1: the dlopen
 * path, every fallback (v2/v3 answering FUNCTION_NOT_FOUND, symbols missing),
 * the growth protocol, unknown values, errors with nvmlErrorString. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <dlfcn.h>

#include "fake_nvml_state.h"
#include "sys/nvml.h"
#include "sys/nvml_abi.h"

#define GIB 1073741824LL
#define TWO_GPUS "0 85899345920 536870912 35 NVIDIA A100-SXM4-80GB\n1 25769803776 0 na NVIDIA L4\n"

static int setup(void **state)
{
    (void)state;
    fake_setup(TWO_GPUS);
    fake_write("procs/100", "0 1073741824\n");
    fake_write("procs/200", "0 na\n");
    fake_write("procs/300", "1 2147483648 both\n");
    fake_write("procs/400", "1 1048576 graphics\n");
    fake_write("procs/.500.tmp", "0 999\n"); /* a temp file mid-rename: ignored */
    fake_write("driver", "550.54.15\n");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    fake_teardown();
    return 0;
}

static struct nvml *open_ok(void)
{
    struct nvml *nv = NULL;
    struct oomlab_err err = {""};
    int rc = nvml_open(&nv, &err);
    if (rc != 0) fprintf(stderr, "nvml_open: %s\n", err.msg);
    assert_int_equal(rc, 0);
    assert_non_null(nv);
    return nv;
}

static const struct nvml_proc *find(const struct nvml_proc *p, size_t n, unsigned pid)
{
    for (size_t i = 0; i < n; i++)
        if (p[i].pid == pid) return &p[i];
    return NULL;
}

/* The figures every API generation must agree on. */
static void check_gpus_and_procs(struct nvml *nv, bool v2_memory)
{
    unsigned count;
    struct oomlab_err err;
    assert_int_equal(nvml_count(nv, &count, &err), 0);
    assert_int_equal(count, 2);
    struct nvml_gpu g;
    assert_int_equal(nvml_gpu(nv, 0, &g, &err), 0);
    assert_string_equal(g.name, "NVIDIA A100-SXM4-80GB");
    assert_int_equal(g.total, 85899345920LL);
    assert_int_equal(g.used, 536870912LL + GIB); /* base + pid 100; "na" adds nothing */
    assert_int_equal(g.free, 85899345920LL - 536870912LL - GIB);
    assert_int_equal(g.reserved, v2_memory ? 0 : -1);
    assert_int_equal(g.util_gpu, 35);
    assert_int_equal(nvml_gpu(nv, 1, &g, &err), 0);
    assert_int_equal(g.util_gpu, -1); /* not supported: unknown, not 0 */
    assert_int_equal(g.used, 2 * GIB + 1048576);

    struct nvml_proc *p;
    size_t n;
    assert_int_equal(nvml_procs(nv, 0, &p, &n, &err), 0);
    assert_int_equal(n, 2);
    assert_int_equal(find(p, n, 100)->used, GIB);
    assert_int_equal(find(p, n, 200)->used, -1);
    assert_null(find(p, n, 500));
    size_t unknown;
    assert_int_equal(nvml_procs_sum(p, n, &unknown), GIB);
    assert_int_equal(unknown, 1);
    free(p);
    assert_int_equal(nvml_procs(nv, 1, &p, &n, &err), 0);
    assert_int_equal(n, 2); /* 300 listed in both lists once */
    assert_false(find(p, n, 300)->graphics);
    assert_int_equal(find(p, n, 300)->used, 2 * GIB);
    assert_true(find(p, n, 400)->graphics);
    free(p);
}

/* Open the fake, check its GPUs and processes (v2_memory: memory read
 * through nvmlDeviceGetMemoryInfo_v2), and the entry points nvml_api says
 * were bound. */
static void expect_api(bool v2_memory, const char *want)
{
    struct nvml *nv = open_ok();
    check_gpus_and_procs(nv, v2_memory);
    char api[128];
    assert_string_equal(nvml_api(nv, api, sizeof api), want);
    nvml_close(nv);
}

static void test_newest_api(void **state)
{
    (void)state;
    char log[300];
    snprintf(log, sizeof log, "%s/calls", fake_dir);
    setenv("OOMLAB_FAKE_NVML_LOG", log, 1);
    struct nvml *nv = open_ok();
    check_gpus_and_procs(nv, true);
    char api[128], driver[64];
    assert_string_equal(nvml_api(nv, api, sizeof api),
                        "init_v2 count_v2 handle_v2 memory_v2 processes_v3");
    nvml_driver(nv, driver, sizeof driver);
    assert_string_equal(driver, "550.54.15");
    nvml_close(nv);
    FILE *f = fopen(log, "r");
    assert_non_null(f);
    char calls[200] = "";
    size_t got = fread(calls, 1, sizeof calls - 1, f);
    fclose(f);
    calls[got] = '\0';
    assert_string_equal(calls, "nvmlInit_v2\nnvmlShutdown\n"); /* one shutdown per init */
}

static void test_v1_answers(void **state)
{
    (void)state;
    setenv("OOMLAB_FAKE_NVML_API", "v1", 1);
    expect_api(false, "init_v1 count_v1 handle_v1 memory_v1 processes_v1");
}

static void test_v2_processes(void **state)
{
    (void)state;
    setenv("OOMLAB_FAKE_NVML_API", "v2", 1);
    expect_api(true, "init_v2 count_v2 handle_v2 memory_v2 processes_v2");
}

static void test_v1_symbols_only(void **state)
{
    (void)state;
    fake_lib("libnvidia-ml-v1.so.1");
    expect_api(false, "init_v1 count_v1 handle_v1 memory_v1 processes_v1");
}

static void test_v1_used_includes_reserved(void **state)
{
    (void)state;
    setenv("OOMLAB_FAKE_NVML_RESERVED", "268435456", 1);
    struct oomlab_err err;
    struct nvml_gpu g2, g1;
    struct nvml *nv = open_ok();
    assert_int_equal(nvml_gpu(nv, 0, &g2, &err), 0);
    nvml_close(nv);
    setenv("OOMLAB_FAKE_NVML_API", "v1", 1);
    nv = open_ok();
    assert_int_equal(nvml_gpu(nv, 0, &g1, &err), 0);
    nvml_close(nv);
    assert_int_equal(g2.reserved, 268435456);
    assert_int_equal(g1.used, g2.used + g2.reserved);
    assert_int_equal(g1.free, g2.free);
}

static void test_many_processes_grow(void **state)
{
    (void)state;
    for (int i = 0; i < 150; i++) {
        char name[64];
        snprintf(name, sizeof name, "procs/%d", 10000 + i);
        fake_write(name, "0 1048576\n");
    }
    struct nvml *nv = open_ok();
    struct nvml_proc *p;
    size_t n;
    struct oomlab_err err;
    assert_int_equal(nvml_procs(nv, 0, &p, &n, &err), 0);
    assert_int_equal(n, 152);
    assert_non_null(find(p, n, 10149));
    free(p);
    nvml_close(nv);
}

static void expect_error(const char *fail, int which, const char *text)
{
    setenv("OOMLAB_FAKE_NVML_FAIL", fail, 1);
    struct nvml *nv = NULL;
    struct oomlab_err err = {""};
    if (which == 0) {
        assert_int_equal(nvml_open(&nv, &err), -1);
        assert_null(nv);
    } else {
        nv = open_ok();
        struct nvml_gpu g;
        struct nvml_proc *p = NULL;
        size_t n = 0;
        unsigned c;
        int rc = which == 1   ? nvml_gpu(nv, 0, &g, &err)
                 : which == 2 ? nvml_procs(nv, 0, &p, &n, &err)
                              : nvml_count(nv, &c, &err);
        assert_int_equal(rc, -1);
        assert_null(p);
        nvml_close(nv);
    }
    if (!strstr(err.msg, text)) fail_msg("'%s' lacks '%s'", err.msg, text);
    unsetenv("OOMLAB_FAKE_NVML_FAIL");
}

static void test_errors_carry_nvml_text(void **state)
{
    (void)state;
    expect_error("init", 0, "Driver Not Loaded (9)");
    expect_error("memory", 1, "GPU is lost (15)");
    expect_error("procs", 2, "Unknown Error (999)");
    expect_error("grow", 2, "Insufficient Size (7)"); /* bounded retries */
    expect_error("count", 3, "cannot count GPUs");
    expect_error("handle", 1, "Insufficient Permissions (4)");
    /* stranger22: the two a person can act on say what to do */
    expect_error("memory", 1, "GPU is lost (15); the GPU fell off the bus or cannot be reached: "
                              "dmesg names its Xid error; it needs a reset (nvidia-smi -r) or a reboot");
    expect_error("handle", 1, "Insufficient Permissions (4); this user may not query it: check "
                              "the permissions of /dev/nvidia*");
}

static void test_one_gpu_without_permission(void **state)
{
    (void)state;
    setenv("OOMLAB_FAKE_NVML_FAIL", "handle1,graphics", 1);
    struct nvml *nv = open_ok();
    struct nvml_gpu g;
    struct oomlab_err err;
    assert_int_equal(nvml_gpu(nv, 0, &g, &err), 0);
    assert_int_equal(nvml_gpu(nv, 1, &g, &err), -1);
    assert_non_null(strstr(err.msg, "GPU 1"));
    struct nvml_proc *p;
    size_t n;
    assert_int_equal(nvml_procs(nv, 0, &p, &n, &err), 0); /* graphics unsupported: fine */
    assert_int_equal(n, 2);
    free(p);
    nvml_close(nv);
}

static void test_no_library(void **state)
{
    (void)state;
    setenv("OOMLAB_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
    struct nvml *nv = NULL;
    struct oomlab_err err;
    assert_int_equal(nvml_open(&nv, &err), -1);
    assert_non_null(strstr(err.msg, "/nonexistent/libnvidia-ml.so.1"));
    setenv("OOMLAB_NVML_LIBRARY", "libc.so.6", 1); /* loads, but is not NVML */
    assert_int_equal(nvml_open(&nv, &err), -1);
    assert_non_null(strstr(err.msg, "not an NVML library"));
    unsetenv("OOMLAB_FAKE_NVML_DIR");
    fake_lib("libnvidia-ml.so.1");
    assert_int_equal(nvml_open(&nv, &err), -1);
    assert_non_null(strstr(err.msg, "Driver Not Loaded"));
}

static void test_unsupported_memory_is_unknown(void **state)
{
    (void)state;
    fake_write("gpus", "0 na 0 na NVIDIA GH200 (unified)\n");
    struct nvml *nv = open_ok();
    struct nvml_gpu g;
    struct oomlab_err err;
    assert_int_equal(nvml_gpu(nv, 0, &g, &err), 0);
    assert_int_equal(g.total, -1);
    assert_int_equal(g.used, -1);
    assert_int_equal(g.free, -1);
    assert_string_equal(g.name, "NVIDIA GH200 (unified)");
    nvml_close(nv);
}

/* The fake must refuse a wrong version word like the real library, or the
 * tests above would not prove that oomlab sends the right one. */
static void test_fake_checks_version_word(void **state)
{
    (void)state;
    void *lib = dlopen(getenv("OOMLAB_NVML_LIBRARY"), RTLD_NOW | RTLD_LOCAL);
    assert_non_null(lib);
    nvmlReturn_t (*init)(void), (*shut)(void), (*handle)(unsigned, nvmlDevice_t *),
        (*mem)(nvmlDevice_t, struct nvml_abi_memory_v2 *);
    void *p;
    p = dlsym(lib, "nvmlInit_v2"), memcpy(&init, &p, sizeof p);
    p = dlsym(lib, "nvmlShutdown"), memcpy(&shut, &p, sizeof p);
    p = dlsym(lib, "nvmlDeviceGetHandleByIndex_v2"), memcpy(&handle, &p, sizeof p);
    p = dlsym(lib, "nvmlDeviceGetMemoryInfo_v2"), memcpy(&mem, &p, sizeof p);
    assert_int_equal(init(), 0);
    nvmlDevice_t dev;
    assert_int_equal(handle(0, &dev), 0);
    struct nvml_abi_memory_v2 m = {.version = 2};
    assert_int_equal(mem(dev, &m), NVML_ERROR_FUNCTION_NOT_FOUND);
    m.version = 0x02000028u;
    assert_int_equal(mem(dev, &m), NVML_SUCCESS);
    assert_int_equal(m.total, 85899345920ULL);
    assert_int_equal(shut(), 0);
    dlclose(lib);
}

/* --gpu past NVML's count: one message for run, probe, ps and watch. */
static void test_gpu_missing_message(void **state)
{
    (void)state;
    struct oomlab_err err = {{0}};
    assert_false(nvml_gpu_missing(-1, 1, &err));
    assert_false(nvml_gpu_missing(0, 1, &err));
    assert_true(nvml_gpu_missing(7, 1, &err));
    assert_non_null(strstr(err.msg, "--gpu 7: NVML sees 1 GPU (index 0), so there is no GPU 7"));
    assert_true(nvml_gpu_missing(2, 2, &err));
    assert_non_null(strstr(err.msg, "NVML sees 2 GPUs (indices 0-1)"));
    assert_true(nvml_gpu_missing(0, 0, &err));
    assert_non_null(strstr(err.msg, "NVML sees 0 GPUs (none)"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_newest_api, setup, teardown),
        cmocka_unit_test_setup_teardown(test_v1_answers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_v2_processes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_v1_symbols_only, setup, teardown),
        cmocka_unit_test_setup_teardown(test_v1_used_includes_reserved, setup, teardown),
        cmocka_unit_test_setup_teardown(test_many_processes_grow, setup, teardown),
        cmocka_unit_test_setup_teardown(test_errors_carry_nvml_text, setup, teardown),
        cmocka_unit_test_setup_teardown(test_one_gpu_without_permission, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_library, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unsupported_memory_is_unknown, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fake_checks_version_word, setup, teardown),
        cmocka_unit_test(test_gpu_missing_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
