/* Unit tests for diagnose leftovers (helper tidy23, nineteenth round).
 * Each row names where its line comes from, or says it is written here;
 * each assertion on a changed rule failed on main 2b09d2dc. */
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
#include "lib/stage.h"
#include "scan_fixture.h"

struct stage_row {
    const char *source;
    const char *line;
    enum oom_stage want;
};

/* A verb whose object is the build system's work or a type the library
 * infers names no phase of the program (objects_not_phase, stage.c); the
 * same verbs with a model, images or frames keep their stage. On main the
 * first four read generate, load, forward, forward. */
static void test_toolchain_objects_no_stage(void **state)
{
    (void)state;
    static const struct stage_row rows[] = {
        /* CMake's configure step: cmake::Run's progress messages */
        {"Kitware/CMake:Source/cmake.cxx@b46f68f2 (UpdateProgress)", "-- Generating done", OOM_STAGE_UNKNOWN},
        {"Kitware/CMake:Source/cmake.cxx@b46f68f2 (UpdateProgress; the path written here)",
         "-- Build files have been written to: /home/user/build", OOM_STAGE_UNKNOWN},
        /* PyTorch making a tensor from numpy data under numpy 2 */
        {"hukaixuan19970627/yolov5_obb#60", "RuntimeError: Could not infer dtype of numpy.float32",
         OOM_STAGE_UNKNOWN},
        {"pytorch/benchmark#1152", "RuntimeError: Could not infer dtype of numpy.int64", OOM_STAGE_UNKNOWN},
        {"CMake 3.26+'s timed form, written here", "-- Generating done (2.9s)", OOM_STAGE_UNKNOWN},
        /* the guards: the verbs with the program's objects */
        {"written here", "Generating images...", OOM_STAGE_GENERATE},
        {"written here", "Generating 4 images", OOM_STAGE_GENERATE},
        {"written here", "Building model...", OOM_STAGE_LOAD},
        {"written here", "Build model from config", OOM_STAGE_LOAD},
        {"written here", "Running inference on 4 images", OOM_STAGE_FORWARD},
        {"written here", "Inferring depth for frame 12", OOM_STAGE_FORWARD},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        bool done;
        enum oom_stage got = stage_verb_line(rows[i].line, strlen(rows[i].line), &done);
        if (got != rows[i].want)
            fail_msg("%s: \"%s\" read stage %d, want %d", rows[i].source, rows[i].line, (int)got, (int)rows[i].want);
    }
}

/* the rank diagnose gives the primary GPU OOM of `log` */
static int primary_rank(const char *log)
{
    struct oom_report rep;
    const struct oom_event *e = scan_primary(log, &rep);
    int rank = e->rank;
    oom_report_release(&rep);
    return rank;
}

static const char oom_msg[] =
    "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 23.65 GiB total capacity; "
    "22.10 GiB already allocated; 3.06 MiB free; 22.50 GiB reserved in total by PyTorch)\n";

/* A bare "N: " before each line is srun --label's task number, a rank, only
 * where the log names srun (srun_named, scan.c): ctest prints the test's
 * index the same way before each output line of a test. On main the first
 * log read rank 242. */
static void test_bare_label_rank_needs_srun(void **state)
{
    (void)state;
    char log[2048];
    /* ctest's prefix over a Paddle operator test (PaddlePaddle/Paddle#6265,
     * its frames; the OOM line under them written here) */
    snprintf(log, sizeof log,
             "242:   File \"/home/xx/Paddle/python/paddle/v2/fluid/tests/op_test.py\", line 323, in check_output\n"
             "242:     self.check_output_with_place(place, atol)\n"
             "242:   File \"/home/xx/Paddle/python/paddle/v2/fluid/tests/op_test.py\", line 230, in feed_var\n"
             "242:     tensor.set(self.inputs[var_name], place)\n"
             "242: %s",
             oom_msg);
    assert_int_equal(primary_rank(log), -1);
    /* guard: the same labels under srun --label (the command line written
     * here) are ranks */
    snprintf(log, sizeof log,
             "$ srun -l python train.py\n"
             "3: Traceback (most recent call last):\n"
             "3:   File \"train.py\", line 92, in train\n"
             "3:     optimizer.step()\n"
             "3: %s",
             oom_msg);
    assert_int_equal(primary_rank(log), 3);
    /* guard: srun's own error line names it ("srun: error: ..." as slurm
     * prints it; the node and task written here) */
    snprintf(log, sizeof log,
             "1: Traceback (most recent call last):\n"
             "1:   File \"train.py\", line 92, in train\n"
             "1:     optimizer.step()\n"
             "1: %s"
             "srun: error: gpu-node-7: task 1: Exited with exit code 1\n",
             oom_msg);
    assert_int_equal(primary_rank(log), 1);
    /* guard: torchrun's own prefix after a bare label keeps its rank with no
     * srun named ("0: [rank0]: Traceback", heldout45 h45-106's shape; lines
     * written here) */
    snprintf(log, sizeof log,
             "0: [rank2]: Traceback (most recent call last):\n"
             "0: [rank2]:   File \"train.py\", line 92, in train\n"
             "0: [rank2]:     optimizer.step()\n"
             "0: [rank2]: %s",
             oom_msg);
    assert_int_equal(primary_rank(log), 2);
    /* guard: torchrun's prefix alone */
    snprintf(log, sizeof log, "[rank5]: Traceback (most recent call last):\n[rank5]: %s", oom_msg);
    assert_int_equal(primary_rank(log), 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_toolchain_objects_no_stage),
        cmocka_unit_test(test_bare_label_rank_needs_srun),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
