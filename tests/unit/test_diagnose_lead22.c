/* Unit tests for the lead's diagnose fixes of the twenty-second round.
 * The lines are written here; each "no OOM" assertion failed on main
 * 7637e320 (the device-qualified "OOM" row matched inside a word). */
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

/* "OOM" with a device near it names a GPU OOM only where it starts its
 * word: a name in capitals that ends in OOM is no OOM (the BLOOM model,
 * bigscience/bloom on the Hub; "ZOOM", "DOOM"). The abbreviation's own
 * forms still read: "OOMs", "OOMed", and after '_' or '/'. */
static void test_oom_starts_its_word(void **state)
{
    (void)state;
    static const char *const not_oom[] = {
        "Running bigscience/BLOOM with deepspeed on GPU\n",
        "BLOOM inference on 8 A100 GPUs is slow\n",
        "The DOOM benchmark on GPU\n",
        "We had a ZOOM call about the CUDA box\n",
    };
    static const char *const oom[] = {
        "CUDA OOM at step 3\n",
        "GPU OOMs during eval\n",
        "it OOMed on the GPU\n",
        "CUDA_OOM on GPU 0\n",
        "GPU/OOM with batch 64\n",
    };
    struct oom_report rep;
    for (size_t i = 0; i < sizeof not_oom / sizeof not_oom[0]; i++) {
        scan_log(not_oom[i], &rep);
        if (rep.primary >= 0) fail_msg("called an OOM: %s", not_oom[i]);
        oom_report_release(&rep);
    }
    for (size_t i = 0; i < sizeof oom / sizeof oom[0]; i++) {
        const struct oom_event *e = scan_primary(oom[i], &rep);
        if (!e || !e->gpu_oom) fail_msg("no GPU OOM: %s", oom[i]);
        oom_report_release(&rep);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oom_starts_its_word),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
