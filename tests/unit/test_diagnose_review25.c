/* Unit tests for diagnose leftovers (helper review25, twenty-second round).
 * The lines are written here; each assertion on a changed rule failed on
 * main 004c76cb. */
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
 * paste's CUDA or GPU words name the device (near_what_oom, msg.c), else a
 * host library's (SQLite's error string). A line that says the program
 * found no device holds those words but names none: TF's cuInit failure
 * and its cudart stub's note, PyTorch's missing-driver warning, the CUDA
 * runtime's cudaErrorNoDevice string (no_device_lines). On main each of
 * them made the host's what() a GPU OOM. A device cue on another line
 * still counts. */
static void test_what_oom_no_device_lines(void **state)
{
    (void)state;
    static const char what[] =
        "loading rows\n"
        "terminate called after throwing an instance of 'std::runtime_error'\n"
        "  what():  Failed to prepare query \"SELECT 1\": out of memory\n";
    static const char *const no_device[] = {
        "2023-11-28 16:42:02.086115: E tensorflow/compiler/xla/stream_executor/cuda/cuda_driver.cc:268] "
        "failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected\n",
        "2020-01-14 10:00:00.000000: I tensorflow/stream_executor/cuda/cudart_stub.cc:29] Ignore above "
        "cudart dlerror if you do not have a GPU set up on your machine.\n",
        "/usr/lib/python3/site-packages/torch/cuda/__init__.py:52: UserWarning: CUDA initialization: Found "
        "no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver\n",
        "THCudaCheck FAIL file=torch/csrc/cuda/Module.cpp line=34 error=38 : no CUDA-capable device is "
        "detected\n",
    };
    char log[1024];
    struct oom_report rep;
    for (size_t i = 0; i < sizeof no_device / sizeof no_device[0]; i++) {
        snprintf(log, sizeof log, "%s%s", no_device[i], what);
        scan_log(log, &rep);
        assert_true(rep.primary < 0);
        oom_report_release(&rep);
    }
    /* the device named on a line of its own, under the no-device one */
    snprintf(log, sizeof log, "%sUsing CUDA device 0\n%s", no_device[0], what);
    assert_string_equal(scan_primary(log, &rep)->kind, "cuda-error");
    oom_report_release(&rep);
}

/* A failing frame that quantises a model names no forward by its math
 * (quant_frame, scan.c, open74): "quant" as a word's end or quantise's
 * stem, not the statistics' "quantile" (a loss or metric's model math:
 * forward, as before open74). On main "compute_quantiles" read as
 * quantising: stage unknown. */
static void test_quant_frame_not_quantile(void **state)
{
    (void)state;
    static const char *const frames[] = {"compute_quantiles", "quantile_regression", "quantity_head"};
    static const char tail[] = "    H = torch.linalg.cholesky(H)\n"
                               "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 10.56 GiB. GPU 0 has a "
                               "total capacity of 31.75 GiB of which 3.81 GiB is free.\n";
    char log[1024];
    struct oom_report rep;
    for (size_t i = 0; i < sizeof frames / sizeof frames[0]; i++) {
        snprintf(log, sizeof log, "Traceback (most recent call last):\n  File \"/w/model.py\", line 122, in %s\n%s",
                 frames[i], tail);
        assert_string_equal(oom_stage_name(scan_primary(log, &rep)->stage), "forward");
        oom_report_release(&rep);
    }
    /* quantising frames still read so */
    static const char *const quant[] = {"fasterquant", "quantize_model", "pseudo_quantize_tensor", "quantise"};
    for (size_t i = 0; i < sizeof quant / sizeof quant[0]; i++) {
        snprintf(log, sizeof log, "Traceback (most recent call last):\n  File \"/w/model.py\", line 122, in %s\n%s",
                 quant[i], tail);
        assert_string_equal(oom_stage_name(scan_primary(log, &rep)->stage), "unknown");
        oom_report_release(&rep);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_what_oom_no_device_lines),
        cmocka_unit_test(test_quant_frame_not_quantile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
