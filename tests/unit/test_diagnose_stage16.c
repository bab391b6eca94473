/* Unit tests for the stage mechanisms of helper diagunk16 (issue 12): the
 * seen sets' stage misses ("said unknown", "another stage") grouped by the
 * evidence diagnose did not read. One test per mechanism, on short pastes
 * written here (not copied from a corpus log), each with a guard that must
 * keep its stage. */
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
#include "stage_fixture.h"

#define TB "Traceback (most recent call last):\n"
#define THC "RuntimeError: cuda runtime error (2) : out of memory at /pytorch/aten/src/THC/THCStorage.cu:58\n"

/* A batch copied into a buffer already on the device, the in-place idiom
 * of pre-0.4 code: the copied argument is the batch, whatever the buffer
 * is called. A tensor copying itself, or a model's state, is no batch. */
static void test_batch_copied_into_buffer(void **state)
{
    (void)state;
    assert_string_equal(stage_of(TB "  File \"train.py\", line 90, in <module>\n"
                                    "    gt_boxes.data.resize_(data[2].size()).copy_(data[2])\n" THC),
                        "data");
    assert_string_equal(stage_of(TB "  File \"run.py\", line 12, in <module>\n"
                                    "    buf.copy_(batch_x)\n" THC),
                        "data");
    /* guards: a copy of a model's own state, a tensor copying itself */
    assert_string_equal(stage_of(TB "  File \"ema.py\", line 30, in update\n"
                                    "    p.data.copy_(ema_param)\n" THC),
                        "unknown");
    assert_string_equal(stage_of(TB "  File \"util.py\", line 7, in <module>\n"
                                    "    out = new_type(self.size()).copy_(self)\n" THC),
                        "unknown");
}

/* The same failure logged twice: TensorFlow's kernel logs "OP_REQUIRES
 * failed at …: Resource exhausted: OOM when allocating …" where the op
 * fails, then the raised ResourceExhaustedError names the node a few lines
 * on. The first line, the root cause, takes the stage the second shows. */
static void test_kernel_warning_takes_raised_stage(void **state)
{
    (void)state;
    const char *log =
        "2019-05-02 10:00:01.1: W tensorflow/core/framework/op_kernel.cc:1401] OP_REQUIRES failed at "
        "transpose_op.cc:199 : Resource exhausted: OOM when allocating tensor with shape[8,64,128,128] "
        "and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n" TB
        "  File \"/usr/lib/python3.6/site-packages/tensorflow/python/client/session.py\", line 1322, in "
        "_do_call\n"
        "    return fn(*args)\n"
        "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with "
        "shape[8,32,256,256] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator "
        "GPU_0_bfc\n"
        "\t [[Node: net/gradients/conv3/Conv2D_grad/Conv2DBackpropInput = Conv2DBackpropInput[T=DT_FLOAT]"
        "(net/conv3/kernel/read)]]\n";
    assert_string_equal(stage_of(log), "backward");
    /* guard: a host allocation failing after it is another failure (a
     * look-alike): its stage is not the GPU warning's */
    char host[2048];
    snprintf(host, sizeof host, "%s", log);
    char *gpu = strstr(strstr(host, "ResourceExhaustedError"), "device:GPU:0 by allocator GPU_0_bfc");
    assert_non_null(gpu);
    memcpy(gpu, "device:CPU:0 by allocator cpu      ", 35);
    assert_string_equal(stage_of(host), "unknown");
}

/* A TF node inside a graph-mode loop (tf.while_loop's "while" scope) runs
 * the loop its enclosing scope names: a sampling loop generates; an RNN's
 * or a map's loop stays forward. */
static void test_tf_while_loop_scope(void **state)
{
    (void)state;
    const char *head = "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating "
                       "tensor with shape[1,12,2,64,900,64] and type float on "
                       "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n";
    char log[1024];
    snprintf(log, sizeof log, "%s\t [[node sample_tokens/while/concat_2 (defined at gen.py:40) ]]\n", head);
    assert_string_equal(stage_of(log), "generate");
    snprintf(log, sizeof log, "%s\t [[{{node beam_search/while/Reshape}}]]\n", head);
    assert_string_equal(stage_of(log), "generate");
    /* guards: other loops */
    snprintf(log, sizeof log, "%s\t [[{{node encoder/rnn/while/gru_cell/MatMul}}]]\n", head);
    assert_string_equal(stage_of(log), "forward");
    snprintf(log, sizeof log, "%s\t [[{{node decoder/while/BasicDecoderStep/dense/Tensordot}}]]\n", head);
    assert_string_equal(stage_of(log), "forward");
    /* GPT-2's sampler scope itself generates, its loop or not: the prompt's
     * first step runs under tf.name_scope('sample_sequence') before the
     * while loop (openai/gpt-2:src/sample.py@0e42a571; diagopen50's row) */
    snprintf(log, sizeof log, "%s\t [[{{node sample_sequence/concat}}]]\n", head);
    assert_string_equal(stage_of(log), "generate");
}

/* TF 1.x's queue input pipeline: the dequeue op carries the batching
 * call's name ("batch", "shuffle_batch_1") or is a QueueDequeueMany op:
 * data. A "batch" scope inside a model is no such node. */
static void test_tf_input_queue_node(void **state)
{
    (void)state;
    const char *head = "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating "
                       "tensor with shape[16,600,800,3] and type float on "
                       "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n";
    char log[1024];
    snprintf(log, sizeof log, "%s\t [[{{node shuffle_batch_1}}]]\n", head);
    assert_string_equal(stage_of(log), "data");
    snprintf(log, sizeof log, "%s\t [[Node: input/images = QueueDequeueManyV2[component_types=[DT_FLOAT]]"
                              "(input/fifo_queue, input/n)]]\n", head);
    assert_string_equal(stage_of(log), "data");
    /* guards */
    snprintf(log, sizeof log, "%s\t [[{{node net/batch/conv1/Conv2D}}]]\n", head);
    assert_string_equal(stage_of(log), "forward");
    snprintf(log, sizeof log, "%s\t [[{{node batch_normalization/FusedBatchNormV3}}]]\n", head);
    assert_string_equal(stage_of(log), "forward");
}

/* A paste cut inside its last code line ("loss.back"): a method name
 * left at the line's end that is a proper prefix of a ".name(" cue is that
 * call. A whole name with no call, or another word, is none. */
static void test_code_line_cut_mid_word(void **state)
{
    (void)state;
    const char *head = "CUDA out of memory when training\n\n" TB "  File \"fit.py\", line 80, in <module>\n"
                       "    run(cfg)\n"
                       "  File \"/home/u/proj/engine.py\", line 41, in run\n";
    char log[1024];
    snprintf(log, sizeof log, "%s    total.backw", head);
    assert_string_equal(shown_stage(log), "backward");
    snprintf(log, sizeof log, "%s    ids = lm.genera\n", head);
    assert_string_equal(shown_stage(log), "generate");
    /* guards: a whole name (a reference), a name no cue begins with, too
     * short a piece */
    snprintf(log, sizeof log, "%s    step_fn = lm.generate\n", head);
    assert_string_equal(shown_stage(log), "unknown");
    snprintf(log, sizeof log, "%s    feats = self.backbone\n", head);
    assert_string_equal(shown_stage(log), "unknown");
    snprintf(log, sizeof log, "%s    total.bac", head);
    assert_string_equal(shown_stage(log), "unknown");
}

/* A script's own print naming the pass it starts ("run backward",
 * "Running forward...") is that pass; the pass words alone, in any other
 * sentence, name none. */
static void test_pass_announced(void **state)
{
    (void)state;
    const char *oom = "OOM caught: CUDA out of memory. Tried to allocate 1.00 GiB (GPU 0; 15.78 GiB total "
                      "capacity; 9.00 GiB already allocated)\n";
    char log[1024];
    snprintf(log, sizeof log, "trial 3\nrun forward\nrun backward\n%s", oom);
    assert_string_equal(shown_stage(log), "backward");
    snprintf(log, sizeof log, "trial 3\nRunning forward...\n%s", oom);
    assert_string_equal(shown_stage(log), "forward");
    /* guards: the words in another line */
    snprintf(log, sizeof log, "trial 3\nkept for backward compatibility\n%s", oom);
    assert_string_equal(shown_stage(log), "unknown");
    snprintf(log, sizeof log, "trial 3\nrun backward then step\n%s", oom);
    assert_string_equal(shown_stage(log), "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_batch_copied_into_buffer),
        cmocka_unit_test(test_kernel_warning_takes_raised_stage),
        cmocka_unit_test(test_tf_while_loop_scope),
        cmocka_unit_test(test_pass_announced),
        cmocka_unit_test(test_tf_input_queue_node),
        cmocka_unit_test(test_code_line_cut_mid_word),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
