/* Unit tests for diagnose leftovers (helper tidy25, twenty-second round).
 * The lines are written here; each assertion on a changed rule failed on
 * main af512501. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/oom.h"
#include "lib/scan.h"
#include "scan_fixture.h"

/* A C++ what() that ends in ": out of memory" is the device's where the
 * paste names the device (near_what_oom, msg.c). An identifier that holds
 * CUDA is not the word CUDA: the toolkit's path or the architectures a build
 * targets (CUDA_HOME, TORCH_CUDA_ARCH_LIST) say a CUDA toolkit is there, as
 * "cudatoolkit 11.8.0" does, not that the program runs on the device. The
 * variable that picks the devices the program runs on, CUDA_VISIBLE_DEVICES,
 * still names them (its own row). On main the first two named the device. */
static void test_what_oom_cuda_identifiers(void **state)
{
    (void)state;
    static const char what[] =
        "terminate called after throwing an instance of 'duckdb::IOException'\n"
        "  what():  Failed to prepare query \"SELECT 1\": out of memory\n";
    static const char *const host_above[] = {"CUDA_HOME=/opt/toolkit\n", "TORCH_CUDA_ARCH_LIST=\"8.0 8.6\"\n"};
    static const char *const device_above[] = {"CUDA_VISIBLE_DEVICES=0\n", "export CUDA_VISIBLE_DEVICES=0,1\n",
                                               "Using CUDA device 0\n"};
    char log[1024];
    struct oom_report rep;
    for (size_t i = 0; i < sizeof host_above / sizeof host_above[0]; i++) {
        snprintf(log, sizeof log, "%s%s", host_above[i], what);
        scan_log(log, &rep);
        assert_true(rep.primary < 0);
        oom_report_release(&rep);
    }
    for (size_t i = 0; i < sizeof device_above / sizeof device_above[0]; i++) {
        snprintf(log, sizeof log, "%s%s", device_above[i], what);
        assert_string_equal(scan_primary(log, &rep)->kind, "cuda-error");
        oom_report_release(&rep);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_what_oom_cuda_identifiers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
