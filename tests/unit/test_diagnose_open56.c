/* Unit tests for the mechanisms read from the misses of heldout56
 * (the long tail of research code: vision, NeRF, graphs, speech, old Lua
 * Torch and Caffe), opened for study after its blind figures were recorded
 * at 5bd8179c (73/77 calls, 74/75 numbers, 16/21 stages). Each case has a
 * guard that must stay as it was. The pastes are written here, in the
 * shape of the threads named. */
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
#include "call_fixture.h"

/* Lua Torch's cudnn.torch raises cuDNN's refusals as "Error in CuDNN:
 * CUDNN_STATUS_NOT_SUPPORTED (<function>)" from find.lua's checkedCall or
 * init.lua's errcheck, above a Lua stack traceback and no Python-style
 * error line: the same not-memory kind as onnxruntime's and Paddle's
 * wordings, staged by the function it names (soumith/cudnn.torch#384 =
 * heldout56 h56-34, cudnnConvolutionBackwardData, and its comment's
 * cudnnConvolutionBackwardFilter; fmassa/object-detection.torch#19,
 * "## Error in CuDNN: CUDNN_STATUS_NOT_SUPPORTED
 * (cudnnSetFilterNdDescriptor)"). */
static void test_cudnn_lua_unsupported(void **state)
{
    (void)state;
    struct seen s = look(
        "cudnnConvolutionBackwardFilter failed: \t9\t convDesc=[mode : CUDNN_CROSS_CORRELATION datatype : "
        "CUDNN_DATA_FLOAT] hash=-dimA93700,3,20,9 -filtA10,3,9,9 93700,10,12,1 -padA0,0 -convStrideA1,1 "
        "CUDNN_DATA_FLOAT\t\n"
        "/src/torch/install/bin/luajit: /src/torch/install/share/lua/5.1/nn/Container.lua:67: \n"
        "In 1 module of nn.Sequential:\n"
        "In 2 module of nn.Sequential:\n"
        "/src/torch/install/share/lua/5.1/cudnn/find.lua:94: Error in CuDNN: CUDNN_STATUS_NOT_SUPPORTED "
        "(cudnnConvolutionBackwardFilter)\n"
        "stack traceback:\n"
        "\t[C]: in function 'error'\n"
        "\t/src/torch/install/share/lua/5.1/cudnn/find.lua:94: in function 'checkedCall'\n"
        "\t...torch/install/share/lua/5.1/cudnn/SpatialConvolution.lua:264: in function 'accGradParameters'\n");
    assert_false(s.gpu_oom);
    assert_string_equal(s.kind, "cudnn-unsupported");
    assert_string_equal(s.stage, "backward");
    s = look("In 1 module of nn.Sequential:\n"
             "In 1 module of nn.ParallelTable:\n"
             "/scratch/torch/install/share/lua/5.1/cudnn/init.lua:58: ## Error in CuDNN: "
             "CUDNN_STATUS_NOT_SUPPORTED (cudnnSetFilterNdDescriptor)\n"
             "stack traceback:\n"
             "    [C]: in function 'error'\n"
             "    /scratch/torch/install/share/lua/5.1/cudnn/init.lua:58: in function 'errcheck'\n");
    assert_false(s.gpu_oom);
    assert_string_equal(s.kind, "cudnn-unsupported");
    /* guard: the same wrapper's allocation failure stays a GPU OOM */
    s = look("/home/u/torch/install/share/lua/5.1/cudnn/init.lua:118: Error in CuDNN: CUDNN_STATUS_ALLOC_FAILED "
             "(cudnnFindConvolutionForwardAlgorithm)\n"
             "stack traceback:\n"
             "\t[C]: in function 'error'\n");
    assert_true(s.gpu_oom);
    assert_string_equal(s.stage, "forward");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cudnn_lua_unsupported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
