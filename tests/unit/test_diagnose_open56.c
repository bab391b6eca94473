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

/* A line listing several settings, or a file's name: a snake_case name
 * there is no word of narration, though it starts like a verb
 * ("sample_rate" like "sampling"). AD-NeRF's
 * run_nerf.py prints "N_rand 2048 no_batching True sample_rate 0.95"
 * above its training bar (YudongGuo/AD-NeRF#50 = heldout56 h56-42, read
 * generate under a title's OOM); candle's printed BaseConfig struct
 * ("sample_len: 1000, temperature: 0.8, top_p: None", heldout33 h33-112,
 * read generate); a script's file name ("Running inference_propainter.py",
 * heldout28 h28-39, read forward). */
static void test_setting_name_no_verb(void **state)
{
    (void)state;
    struct seen s = look("Train Head-NeRF with command OOM\n\n"
                         "```\n"
                         "Found ckpts []\n"
                         "N_rand 2048 no_batching True sample_rate 0.95\n"
                         "Begin\n"
                         "  0%|          | 0/400000 [00:03<?, ?it/s]\n"
                         "Traceback (most recent call last):\n"
                         "  File \"run_nerf.py\", line 965, in <module>\n"
                         "    train()\n");
    assert_true(s.gpu_oom);
    assert_string_equal(s.stage, "unknown");
    /* a printed struct's fields (candle's quantized-qwen3 example,
     * huggingface/candle thread = heldout33 h33-112) */
    s = look("quantized_qwen3 CUDA_ERROR_OUT_OF_MEMORY with Irrespective of Size\n\n"
             "running 1 test\n"
             "BaseConfig { sample_len: 1000, temperature: 0.8, top_p: None, seed: 299792458, "
             "repeat_penalty: 1.1, repeat_last_n: 64 }\n"
             "Error: DriverError(CUDA_ERROR_OUT_OF_MEMORY, \"out of memory\")\n");
    assert_true(s.gpu_oom);
    assert_string_not_equal(s.stage, "generate");
    /* a script's file name (ProPainter's, heldout28 h28-39) */
    s = look("Running inference_propainter.py\n"
             "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 7.82 GiB. GPU 0 has a total "
             "capacity of 23.60 GiB of which 7.81 GiB is free.\n");
    assert_true(s.gpu_oom);
    assert_string_equal(s.stage, "unknown");
    /* guards: the word itself still narrates the action under way; one
     * setting of the action alone is printed as it starts (sd-scripts'
     * "sample_steps: 30", test_diagnose_gaps and _phasesci) */
    s = look("OOM on the first iteration\n\n"
             "```\n"
             "Sampling 50 steps\n"
             "  0%|          | 0/50 [00:01<?, ?it/s]\n"
             "Traceback (most recent call last):\n"
             "  File \"run.py\", line 120, in <module>\n"
             "    main()\n");
    assert_string_equal(s.stage, "generate");
}

/* PyTorch's message cut inside its words where a paste or a thread's
 * stored excerpt ends: "RuntimeError: CUDA ou" closing rosinality/
 * stylegan2-pytorch#110 (heldout56 h56-67) under the R1 penalty's
 * backward; "torch.cuda.OutOfMemoryError: CUDA out" (heldout14 h14-40) and
 * "RuntimeError: CUDA out of" (heldout3 g04, heldout5 h5-12) cut the same
 * way. Only an error's line, only with nothing after the cut. */
static void test_message_cut_in_word(void **state)
{
    (void)state;
    struct seen s = look("multi gpu error\n\n"
                         "  0%|          | 0/800000 [00:00<?, ?it/s]\n"
                         "Traceback (most recent call last):\n"
                         "  File \"train.py\", line 421, in <module>\n"
                         "    train(args, loader, generator, discriminator, g_optim, d_optim, g_ema, device)\n"
                         "  File \"train.py\", line 220, in train\n"
                         "    (args.r1 / 2 * r1_loss * args.d_reg_every + 0 * real_pred[0]).backward()\n"
                         "  File \"/usr/lib/python3/site-packages/torch/tensor.py\", line 195, in backward\n"
                         "    torch.autograd.backward(self, gradient, retain_graph, create_graph)\n"
                         "RuntimeError: CUDA ou");
    assert_true(s.gpu_oom);
    assert_string_equal(s.stage, "backward");
    s = look("RuntimeError: CUDA o\n");
    assert_true(s.gpu_oom);
    /* guards: another CUDA error, a word after the cut */
    s = look("RuntimeError: CUDA operation failed\n");
    assert_false(s.gpu_oom);
    s = look("RuntimeError: CUDA ou.\n");
    assert_false(s.gpu_oom);
    /* guard: a terminal's wrap right after the cut is the message going on,
     * read whole with its figures */
    struct oom_event e = primary("RuntimeError: CUDA o\n"
                                 "ut of memory. Tried to allocate 20.00 MiB (GPU 0; 5.80 GiB total capacity; "
                                 "4.36 GiB already allocated; 6.69 MiB free; 4.63 GiB reserved in total by "
                                 "PyTorch)\n");
    assert_true(e.gpu_oom);
    assert_int_equal(e.bytes.requested, 20971520LL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cudnn_lua_unsupported),
        cmocka_unit_test(test_setting_name_no_verb),
        cmocka_unit_test(test_message_cut_in_word),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
