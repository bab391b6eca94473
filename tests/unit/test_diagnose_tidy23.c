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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_toolchain_objects_no_stage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
