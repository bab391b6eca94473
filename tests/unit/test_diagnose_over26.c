/* Unit tests for over26 (issue 12, the "over" figure: a stage named where
 * the label says none): a library's unit-test suite run under Lua Torch's
 * test runner is no evaluation of a model. The pastes are written here in
 * the shape of the posts named beside them (the stack's frames as Lua
 * prints them), not copied from the threads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/oom.h"
#include "lib/scan.h"
#include "lib/stage.h"
#include "scan_fixture.h"

/* cutorch's and cunn's suites run under torch/Tester.lua (run -> _run ->
 * pcall -> each test); the suite's entry point is a function named 'test'
 * in the library's test.lua, which the frame cue ", in test" read as an
 * evaluation. Masked in the frames that call the runner: no stage. */
static void test_lua_tester_suite_is_no_eval(void **state)
{
    (void)state;
    /* cutorch.test() from th (torch/cutorch#498 = heldout70 h70-07) */
    assert_string_equal(primary_stage("cuda runtime error (2) : out of memory at "
                                      "/home/u/torch/extra/cutorch/lib/THC/THCGeneral.c:608\n"
                                      "stack traceback:\n"
                                      "\t[C]: at 0x7f0000001000\n"
                                      "\t[C]: in function 'CudaStorage'\n"
                                      "\t/home/u/torch/install/share/lua/5.1/cutorch/test.lua:194: in function "
                                      "'cloneExactlyToGPU'\n"
                                      "\t/home/u/torch/install/share/lua/5.1/cutorch/test.lua:1682: in function 'v'\n"
                                      "\t[C]: in function 'xpcall'\n"
                                      "\t/home/u/torch/install/share/lua/5.1/torch/Tester.lua:477: in function "
                                      "'_pcall'\n"
                                      "\t/home/u/torch/install/share/lua/5.1/torch/Tester.lua:436: in function '_run'\n"
                                      "\t/home/u/torch/install/share/lua/5.1/torch/Tester.lua:355: in function 'run'\n"
                                      "\t/home/u/torch/install/share/lua/5.1/cutorch/test.lua:3464: in function 'test'\n"
                                      "\t[string \"cutorch.test()\"]:1: in main chunk\n"
                                      "\t[C]: in function 'pcall'\n"),
                        "unknown");
    /* the older runner's frames, the suite's test 'largeNoncontiguous'
     * (torch/cunn#117 = heldout24 h24-42) */
    assert_string_equal(primary_stage("largeNoncontiguous\n"
                                      " Function call failed \n"
                                      "...ch-distro/install/share/lua/5.1/cutorch/test.lua:483: cuda runtime error "
                                      "(2) : out of memory at /home/u/torch-distro/extra/cutorch/lib/THC/"
                                      "THCStorage.cu:30\n"
                                      "stack traceback:\n"
                                      "\t[C]: in function 'new'\n"
                                      "\t...ch-distro/install/share/lua/5.1/cutorch/test.lua:483: in function 'fn'\n"
                                      "\t...ch-distro/install/share/lua/5.1/cutorch/test.lua:72: in function "
                                      "'compareFloatAndCuda'\n"
                                      "\t[C]: in function 'xpcall'\n"
                                      "\t...ch-distro/install/share/lua/5.1/torch/Tester.lua:115: in function 'pcall'\n"
                                      "\t...ch-distro/install/share/lua/5.1/torch/Tester.lua:157: in function 'run'\n"
                                      "\t...ch-distro/install/share/lua/5.1/cutorch/test.lua:2317: in function 'test'\n"
                                      "\t[string \"_RESULT={cutorch.test()}\"]:1: in main chunk\n"),
                        "unknown");
    /* guard: a training script's own 'test' pass, no test runner in the
     * stack, stays evaluation */
    assert_string_equal(primary_stage("cuda runtime error (2) : out of memory at "
                                      "/home/u/torch/extra/cutorch/lib/THC/generic/THCStorage.cu:66\n"
                                      "stack traceback:\n"
                                      "\t[C]: in function 'resize'\n"
                                      "\t/home/u/torch/install/share/lua/5.1/nn/Linear.lua:62: in function 'updateOutput'\n"
                                      "\t/home/u/proj/main.lua:210: in function 'test'\n"
                                      "\t/home/u/proj/main.lua:260: in main chunk\n"),
                        "eval");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lua_tester_suite_is_no_eval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
