/* diagnose on failures that are no memory event, and stages told by
 * general words (issue 12, helper diagverb). Each case is real text from
 * the public thread named beside it (the seen corpora's labels.tsv name
 * them); each assertion failed on the code before its mechanism (main
 * be75f87). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/msg.h"
#include "lib/scan.h"
#include "lib/stage.h"
#include "lib/verdict.h"
#include "scan_fixture.h"

struct got {
    char kind[32], stage[16], text[240], verdict[300];
    long primary;
    size_t n_events;
    int rank;
    bool gpu_oom;
};

static struct got diagnose(const char *log)
{
    struct got g;
    memset(&g, 0, sizeof g);
    struct oom_report rep;
    scan_log(log, &rep);
    g.primary = rep.primary;
    g.n_events = rep.n_events;
    if (rep.n_events) {
        const struct oom_event *e = rep.primary >= 0 ? &rep.events[rep.primary] : &rep.events[0];
        snprintf(g.kind, sizeof g.kind, "%s", e->kind);
        snprintf(g.stage, sizeof g.stage, "%s", oom_stage_name(e->stage));
        snprintf(g.text, sizeof g.text, "%s", e->text);
        g.rank = e->rank;
        g.gpu_oom = e->gpu_oom;
        struct verdicts v;
        verdict_compute(&rep, &v);
        if (verdict_has(&v, VERDICT_NOT_MEMORY))
            verdict_explain(&v, VERDICT_NOT_MEMORY, g.verdict, sizeof g.verdict);
    }
    oom_report_release(&rep);
    return g;
}

/* The exception that ends a traceback, no memory event anywhere: named,
 * with its stage, never the GPU-OOM call. facebookresearch/DONERF#7
 * (heldout20 h20-82): the pin-memory thread's ValueError. */
static void test_final_exception_named(void **state)
{
    (void)state;
    struct got g = diagnose(
        "no Checkpoints found\n"
        "epoch=21         loss=0.13672528:   0%|          | 20/300001 [00:03<7:07:22, 11.70it/s]\n"
        "Exception in thread Thread-4:\n"
        "Traceback (most recent call last):\n"
        "  File \"/opt/conda/lib/python3.8/threading.py\", line 932, in _bootstrap_inner\n"
        "    self.run()\n"
        "  File \"/opt/conda/lib/python3.8/threading.py\", line 870, in run\n"
        "    self._target(*self._args, **self._kwargs)\n"
        "  File \"/opt/conda/lib/python3.8/site-packages/torch/utils/data/_utils/pin_memory.py\", line 28, in "
        "_pin_memory_loop\n"
        "    idx, data = r\n"
        "ValueError: not enough values to unpack (expected 2, got 0)\n"
        "epoch=21         loss=0.13672528:   0%|          | 21/300001 [00:08<34:03:39,  2.45it/s]\n"
        "Traceback (most recent call last):\n"
        "  File \"train.py\", line 344, in <module>\n"
        "    main()\n");
    assert_int_equal(g.n_events, 1);
    assert_true(g.primary < 0); /* a look-alike: the scorer's call stays "no GPU OOM" */
    assert_false(g.gpu_oom);
    assert_string_equal(g.kind, "other-error");
    assert_string_equal(g.stage, "data");
    assert_string_equal(g.text, "ValueError: not enough values to unpack (expected 2, got 0)");
    assert_string_equal(g.verdict,
                        "no memory failure found; the log ends in: ValueError: not enough values to unpack (expected 2, got 0)");
}

/* An exception's class that starts a title, the traceback below cut before
 * its error line: the title is the final error, the tool's "saving
 * checkpoint" line the stage. kohya-ss/musubi-tuner#1041 (h20-84). */
static void test_title_exception(void **state)
{
    (void)state;
    struct got g = diagnose(
        "_pickle.PicklingError while trying to save a Krea 2 LoRA\n"
        "I just had another LoRA save fail at step 5,000, with a different error message this time:\n"
        "\n"
        "```\n"
        "saving checkpoint: /workspace/fine_tune/outputs/MyLoRA-step00005000.safetensors\n"
        "steps:   0%|\xe2\x96\x8f          \n"
        "Traceback (most recent call last):\n"
        "  File \"/workspace/musubi-tuner/src/musubi_tuner/krea2_train_network.py\", line 529, in <module>\n"
        "    main()\n"
        "  File \"/workspace/musubi-tuner/src/musubi_tuner/krea2_train_network.py\", line 525, in main\n"
        "    trainer.train(args)\n");
    assert_string_equal(g.kind, "other-error");
    assert_true(g.primary < 0);
    assert_string_equal(g.stage, "checkpoint");
}

/* Failures that have rows of their own now: Triton's launcher wording of a
 * misaligned access (fla-org/flash-linear-attention#913, h19-102), the
 * DeepSpeed launcher's SIGKILL (deepspeedai/DeepSpeed#3160, h19-46). */
static void test_known_rows(void **state)
{
    (void)state;
    struct got g = diagnose(
        "[Bug] chunk_gated_delta_rule_bwd gives RuntimeError: Triton Error [CUDA]: misaligned address\n"
        "```\n"
        "[rank2]:   File \"/miniforge/envs/myenv/lib/python3.12/site-packages/fla/ops/gated_delta_rule/chunk.py\", "
        "line 322, in backward\n"
        "[rank2]:     dq, dk, dv, db, dg, dh0, dA_log, ddt_bias = chunk_gated_delta_rule_bwd(\n"
        "[rank2]:                                                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^\n");
    assert_string_equal(g.kind, "cuda-illegal-address");
    assert_string_equal(g.stage, "backward");
    assert_true(g.primary < 0);
    g = diagnose("[2023-04-07 13:09:33,201] [INFO] [launch.py:318:sigkill_handler] Killing subprocess 80\n"
                 "[2023-04-07 13:09:33,220] [ERROR] [launch.py:324:sigkill_handler] ['/usr/bin/python3', '-u', "
                 "'run_clm.py', '--local_rank=0'] exits with return code = -9\n");
    assert_string_equal(g.kind, "host-sigkill");
    assert_true(g.primary < 0);
}

/* What is no "other" failure: an error about memory no row knows
 * (computational-imaging/ThreeDeconv.jl#2, h20-07: cuFFT's allocation, now a row's GPU OOM), a
 * heading over the error (deepspeedai/DeepSpeed#3182, h13-47), a warning
 * (tatsu-lab/stanford_alpaca#65, h10-43); and a GPU OOM named only in a
 * title above a cut traceback stays the GPU-OOM call (promote_mention wins). */
static void test_not_other_errors(void **state)
{
    (void)state;
    /* (since the lead's cuFFT row, merged beside this branch, the cuFFT line
     * is a GPU OOM of its own: never an "other" failure either way) */
    struct got g = diagnose("`CUFFTError(code 2, cuFFT failed to allocate GPU or CPU memory)\n");
    assert_true(g.primary >= 0);
    assert_string_equal(g.kind, "cuda-library");
    g = diagnose("**Error log**\n\n");
    assert_int_equal(g.n_events, 0);
    g = diagnose("/local_disk0/.ephemeral_nfs/cluster_libraries/python/lib/python3.9/site-packages/torch/"
                 "distributed/fsdp/fully_sharded_data_parallel.py:2224: UserWarning: Failed to clone() tensor "
                 "with name lm_head.weight.\n");
    assert_int_equal(g.n_events, 0);
    /* PeterGriffinJin/Search-R1#45 (h19-13): "OOM" as the title, the driver's frames below */
    g = diagnose("OOM\n"
                 "Traceback (most recent call last):\n"
                 "  File \"/user-fs/luankexin/mayangyang/Search-R1/verl/trainer/main_ppo.py\", line 205, in main_task\n"
                 "    trainer.fit()\n");
    assert_true(g.primary >= 0);
    assert_true(g.gpu_oom);
}

/* The line classifier on its own. */
static void test_error_line_words(void **state)
{
    (void)state;
    assert_int_equal(msg_error_line("ray.exceptions.ActorDiedError: The actor died unexpectedly", 58), 2);
    assert_int_equal(msg_error_line("safetensors_rust.SafetensorError: Error while serializing", 57), 2);
    assert_int_equal(msg_error_line("Error executing job with overrides: []", 38), 1);
    assert_int_equal(msg_error_line("THCudaCheck FAIL file=x.cpp line=278 error=46 : all CUDA-capable devices are busy",
                                    81), 1);
    assert_int_equal(msg_error_line("Another error:", 14), 0);
    assert_int_equal(msg_error_line("Errors are fine", 15), 0);
    assert_false(msg_memory_words("CUDA error: an illegal memory access was encountered", 51));
    assert_true(msg_memory_words("cuFFT failed to allocate GPU or CPU memory", 42));
}

static enum oom_stage verb(const char *line)
{
    bool done;
    return stage_verb_line(line, strlen(line), &done);
}

/* A tool's own lines by general words, on their own. */
static void test_verb_words(void **state)
{
    (void)state;
    bool done = false;
    /* xinntao/Real-ESRGAN#437 (h20-99) */
    assert_int_equal(verb("Testing 0 Kermit_T_Soviet_young_queen_of_england_wearing_doom_slayers_sui_67055c84"),
                     OOM_STAGE_FORWARD);
    /* facebookresearch/esm#355 (h20-35): one item of several done, the next one runs */
    assert_int_equal(verb("22/11/10 13:57:26 | INFO | root | Starting Predictions"), OOM_STAGE_FORWARD);
    assert_int_equal(verb("22/11/10 13:59:12 | INFO | root | Predicted structure for hipAB-750 with length 765, "
                          "pLDDT 51.2, pTM 0.264 in 105.6s. 1 / 5 completed."),
                     OOM_STAGE_FORWARD);
    /* DFKI-NLP/LLMCheckup#28 (h13-30) */
    assert_int_equal(verb("INFO in core: About to decode"), OOM_STAGE_GENERATE);
    /* EricLBuehler/mistral.rs#44 (h19-96): loading is over */
    assert_int_equal(stage_verb_line("Model loaded.", 13, &done), OOM_STAGE_UNKNOWN);
    assert_true(done);
    assert_int_equal(verb("Loading model on Cuda(CudaDevice(DeviceId(1)))..."), OOM_STAGE_LOAD);
    assert_int_equal(verb("[ Info: loading EfficientNetv2 model"), OOM_STAGE_LOAD); /* JuliaGPU/CUDA.jl#2197 */
    /* not narration: an agent noun (djbielejeski/a-person-mask-generator#87, h17-49), a rate
     * (TuSimple/mx-maskrcnn#98, h5-24), an exception's name (JuliaGPU/CUDA.jl#692, h24-68) */
    assert_int_equal(verb("A Person Mask Generator"), OOM_STAGE_UNKNOWN);
    assert_int_equal(verb("INFO:root:Epoch[0] Batch [2260] Speed: 0.34 samples/sec Train-RCNNAcc=0.795092"),
                     OOM_STAGE_UNKNOWN);
    assert_int_equal(verb("ERROR: LoadError: TaskFailedException:"), OOM_STAGE_UNKNOWN);
    /* a logger's DEBUG level is no talk of a bug (the word at a word's
     * start only); a printed record's key names a value, no action
     * (huggingface/transformers' wav2vec2 example's DEBUG lines, h32-05) */
    assert_int_equal(verb("03/12/2021 12:07:54 - DEBUG - __main__ -   Loading model from ./ckpt"), OOM_STAGE_LOAD);
    assert_int_equal(verb("03/12/2021 12:07:54 - DEBUG - __main__ -   prediction: \"\""), OOM_STAGE_UNKNOWN);
    assert_int_equal(verb("reference: \"wayumkinuka\""), OOM_STAGE_UNKNOWN);
    assert_int_equal(verb("running prediction: 240 steps"), OOM_STAGE_FORWARD);
    assert_int_equal(verb("a bug report: loading model"), OOM_STAGE_UNKNOWN);
}

/* In a log: the tool's line a few lines above a message nothing else
 * stages (h20-99, and esm's lines above its failure, h20-35); a past
 * "Model loaded." between stops the walk (h19-96); frames naming a stage
 * win over the words. */
static void test_verb_walk(void **state)
{
    (void)state;
    struct got g = diagnose(
        "Testing 0 Kermit_T_Soviet_young_queen_of_england_wearing_doom_slayers_sui_67055c84-d6f7-44de-9f9a-"
        "a3844df09e95\n"
        "Error CUDA out of memory. Tried to allocate 4.00 GiB (GPU 0; 16.00 GiB total capacity; 10.29 GiB "
        "already allocated; 0 bytes free; 13.32 GiB reserved in total by PyTorch)\n");
    assert_string_equal(g.stage, "forward");
    g = diagnose("22/11/10 13:57:26 | INFO | root | Starting Predictions\n"
                 "22/11/10 13:59:12 | INFO | root | Predicted structure for hipAB-750 with length 765, pLDDT 51.2, "
                 "pTM 0.264 in 105.6s. 1 / 5 completed.\n"
                 "22/11/10 13:59:15 | INFO | root | Failed (CUDA out of memory) on sequence hipAB-900 of length 918.\n");
    assert_string_equal(g.stage, "forward");
    /* "[ Info: loading EfficientNetv2 model" (JuliaGPU/CUDA.jl#2197, h20-05) then mistral.rs'
     * "Model loaded." (h19-96), two real lines put together */
    g = diagnose("[ Info: loading EfficientNetv2 model\n"
                 "Model loaded.\n"
                 "Error CUDA out of memory. Tried to allocate 4.00 GiB (GPU 0; 16.00 GiB total capacity; 10.29 GiB "
                 "already allocated; 0 bytes free; 13.32 GiB reserved in total by PyTorch)\n");
    assert_string_equal(g.stage, "unknown");
    g = diagnose("Loading model on Cuda(CudaDevice(DeviceId(1)))...\n"
                 "Traceback (most recent call last):\n"
                 "  File \"/x/train.py\", line 10, in main\n"
                 "    loss.backward()\n"
                 "Error CUDA out of memory. Tried to allocate 4.00 GiB (GPU 0; 16.00 GiB total capacity; 10.29 GiB "
                 "already allocated; 0 bytes free; 13.32 GiB reserved in total by PyTorch)\n");
    assert_string_equal(g.stage, "backward");
}

/* A code line by what it computes: model math is forward, the weakest
 * stage. Real lines: the failing frame's code (josStorer/selfhostedAI#5,
 * h19-52; modelscope/ms-swift#2044, h19-41), code glued before the error
 * (dhlee347/pytorchic-bert#5, h19-57). Not math: moving data
 * (yzxing87/pytorch-deep-video-prior#4, h14-42), a loss named on the left
 * (erfanzar/EasyDeL#78, h8-67), an address (KlingAIResearch/LivePortrait
 * #438, h18-49), a Keras bar (tensorflow/tensorflow#23953, h14-66). */
static void test_code_math(void **state)
{
    (void)state;
#define M(s) stage_model_math(s, strlen(s))
    assert_true(M("    attention_scores = attention_scores * query_key_layer_scaling_coeff"));
    assert_true(M("    per_token_logps = torch.gather(logits.log_softmax(-1), dim=2, index=labels.unsqueeze(2)).squeeze(2)"));
    assert_true(M("h = (scores @ v).transpose(1, 2).contiguous() "));
    assert_false(M(" net_in = torch.from_numpy(net_in).permute(0,3,1,2).float().to(device)"));
    assert_false(M("    sharded_state, loss, accuracy = self.sharded_train_step_fn("));
    assert_false(M("0:01:34pipe:: corrupt input packet in stream 0 [rawvideo @ 0x654c1c0] Invalid buffer size"));
    assert_false(M(" >  12/100 [==>...........................] - ETA: 3:59 - loss: 1.8528e-05 - binary_accuracy: 0.0661"));
#undef M
    struct got g = diagnose(
        "OutOfMemoryError: CUDA out of memory\n"
        "```\n"
        "  File \"C:\\Users\\sicma/.cache\\huggingface\\modules\\transformers_modules\\local\\modeling_chatglm.py\", "
        "line 277, in attention_fn\n"
        "    attention_scores = attention_scores * query_key_layer_scaling_coeff\n"
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 116.00 MiB (GPU 0; 6.00 GiB total "
        "capacity; 5.07 GiB already allocated; 0 bytes free; 5.31 GiB reserved in total by PyTorch)\n");
    assert_string_equal(g.stage, "forward");
    g = diagnose("h = (scores @ v).transpose(1, 2).contiguous() RuntimeError: CUDA error: out of memory\n");
    assert_string_equal(g.stage, "forward");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_final_exception_named), cmocka_unit_test(test_title_exception),
        cmocka_unit_test(test_known_rows),            cmocka_unit_test(test_not_other_errors),
        cmocka_unit_test(test_error_line_words),      cmocka_unit_test(test_verb_words),
        cmocka_unit_test(test_verb_walk),             cmocka_unit_test(test_code_math),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
