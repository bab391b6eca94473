/* diagnose's look-alike events for a failing run that is no GPU OOM, helper
 * diaglookstage (issue 12): pastes that made no event at all ("no OOM
 * found") though they show where the run failed. Each case is a short
 * synthetic paste in the style of the real ones (an issue excerpt, a code
 * fence, launcher prefixes), written for this file; the frames are the ones
 * the named libraries' sources have. Every case below made no event before
 * this helper's change.
 *   - a Python traceback cut before its exception line ends the paste:
 *     event "traceback-cut" with the stage its frames show;
 *   - an error line the final-error fallback refused for a memory word that
 *     names no shortage (a source file's path, "access of peer GPU memory");
 *   - glog's fatal "Check failed:" line (Caffe) and its stack;
 *   - an error glued behind a progress bar; a traceback whose line breaks
 *     were lost, its error hard-wrapped inside a word;
 *   - host allocators' own failures no row knew (Ray's memory monitor,
 *     Intel MKL's mkl_malloc, the MSVC runtime's "bad allocation").
 * And what must not move: a traceback that ends in its exception, formats
 * that print the error before their frames, errors that do name memory, a
 * question with no failure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/scan.h"
#include "scan_fixture.h"

struct look_case {
    const char *what;
    const char *text;
    const char *kind; /* the one event's kind; NULL: no event at all */
    enum oom_stage stage;
};

static void expect_look(const struct look_case *cases, size_t n)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        const struct look_case *c = &cases[i];
        struct oom_report rep;
        scan_log(c->text, &rep);
        const char *kind = rep.n_events ? rep.events[0].kind : NULL;
        enum oom_stage stage = rep.n_events ? rep.events[0].stage : OOM_STAGE_UNKNOWN;
        bool ok = c->kind ? rep.n_events == 1 && !rep.events[0].gpu_oom && !strcmp(kind, c->kind) &&
                                stage == c->stage
                          : rep.n_events == 0;
        if (!ok) {
            fprintf(stderr, "%s: want %s stage %d, got %zu events, %s gpu_oom=%d stage %d\n", c->what,
                    c->kind ? c->kind : "(no event)", (int)c->stage, rep.n_events, kind ? kind : "-",
                    rep.n_events ? (int)rep.events[0].gpu_oom : -1, (int)stage);
            bad++;
        }
        oom_report_release(&rep);
    }
    assert_int_equal(bad, 0);
}

/* A paste that ends in a Python traceback's frames: the exception line
 * (printed last, "most recent call last") is cut off. */
static void test_lookstage_cut_traceback(void **state)
{
    (void)state;
    static const struct look_case cases[] = {
        {"torch.save frames cut mid-path (pytorch/pytorch:torch/serialization.py save -> _save)",
         "Saving the model fails after the second epoch\n"
         "\n"
         "```\n"
         "Epoch 1 | loss 1.52 | time 55.2\n"
         "Traceback (most recent call last):\n"
         "  File \"/opt/app/train.py\", line 212, in <module>\n"
         "    main()\n"
         "  File \"/opt/app/train.py\", line 198, in main\n"
         "    torch.save(model.state_dict(), ckpt_path)\n"
         "  File \"/usr/lib/python3.10/site-packages/torch/serialization.py\", line 628, in save\n"
         "    _save(obj, opened_zipfile, pickle_module, pickle_protocol)\n"
         "  File \"/usr/lib/python3.10/site-packages/torch/ser\n",
         "traceback-cut", OOM_STAGE_CHECKPOINT},
        {"DataLoader pin-memory thread cut at its raise (torch/utils/data/_utils/pin_memory.py)",
         "Exception in thread Thread-12 (_pin_memory_loop):\n"
         "Traceback (most recent call last):\n"
         "  File \"/usr/lib/python3.11/threading.py\", line 1045, in _bootstrap_inner\n"
         "    self.run()\n"
         "  File \"/usr/lib/python3.11/site-packages/torch/utils/data/_utils/pin_memory.py\", line 53, in _pin_memory_loop\n"
         "    do_one_step()\n"
         "  File \"/usr/lib/python3.11/site-packages/torch/utils/data/_utils/pin_memory.py\", line 30, in do_one_step\n"
         "    r = in_queue.get(timeout=MP_STATUS_CHECK_INTERVAL)\n"
         "  File \"/usr/lib/python3.11/multiprocessing/queues.py\", line 122, in get\n"
         "    return _ForkingPickler.loads(res)\n"
         "  File \"/usr/lib/python3.11/site-packages/torch/multiprocessing/reductions.py\", line 541, in rebuild_storage_fd\n"
         "    fd = df.detach()\n"
         "  File \"/usr/lib/python3.11/multiprocessing/reduction.py\", line 159, in recvfds\n"
         "    raise EO\n",
         "traceback-cut", OOM_STAGE_DATA},
        {"[rank1]: prefixed generation frames, fence closed after the cut (DeepSpeed-Chat ppo_trainer.py)",
         "RLHF step 3 crashes\n"
         "\n"
         "```\n"
         "[rank1]: Traceback (most recent call last):\n"
         "[rank1]:   File \"/w/DeepSpeed-Chat/training/step3_rlhf_finetuning/main.py\", line 528, in main\n"
         "[rank1]:     out = trainer.generate_experience(batch_prompt['prompt'],\n"
         "[rank1]:   File \"/w/DeepSpeed-Chat/dschat/rlhf/ppo_trainer.py\", line 140, in generate_experience\n"
         "[rank1]:     seq = self._generate_sequence(prompts, mask, step)\n"
         "[rank1]:   File \"/w/DeepSpeed-Chat/dschat/rlhf/ppo_trainer.py\", line 87, in _generate_sequence\n"
         "[rank1]:     seq = self.actor_model.module.generate(\n"
         "```\n",
         "traceback-cut", OOM_STAGE_GENERATE},
        {"HF Trainer training_step -> backward, cut after the autograd frame (transformers/trainer.py)",
         "Traceback (most recent call last):\n"
         "  File \"/home/u/finetune.py\", line 88, in <module>\n"
         "    trainer.train()\n"
         "  File \"/usr/local/lib/python3.10/dist-packages/transformers/trainer.py\", line 1859, in train\n"
         "    return inner_training_loop(\n"
         "  File \"/usr/local/lib/python3.10/dist-packages/transformers/trainer.py\", line 2203, in _inner_training_loop\n"
         "    tr_loss_step = self.training_step(model, inputs)\n"
         "  File \"/usr/local/lib/python3.10/dist-packages/transformers/trainer.py\", line 3147, in training_step\n"
         "    self.accelerator.backward(loss)\n"
         "  File \"/usr/local/lib/python3.10/dist-packages/torch/autograd/__init__.py\", line 266, in backward\n"
         "    Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass\n"
         "\n",
         "traceback-cut", OOM_STAGE_BACKWARD},
    };
    expect_look(cases, sizeof cases / sizeof cases[0]);
}

/* What the cut-traceback rule must leave alone. */
static void test_lookstage_cut_guards(void **state)
{
    (void)state;
    static const struct look_case cases[] = {
        {"a traceback that ends in its exception: the final error, not a cut",
         "Traceback (most recent call last):\n"
         "  File \"train.py\", line 10, in <module>\n"
         "    loss.backward()\n"
         "ValueError: x\n",
         "other-error", OOM_STAGE_BACKWARD},
        {"prose after the frames: the paste does not end inside the traceback",
         "Traceback (most recent call last):\n"
         "  File \"train.py\", line 10, in <module>\n"
         "    loss.backward()\n"
         "Any idea what is happening here?\n",
         NULL, OOM_STAGE_UNKNOWN},
        {"a C++ stack (most recent call first) ends the paste: its error is printed above it",
         "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x57\n"
         "frame #1: at::native::foo() + 0x12\n",
         NULL, OOM_STAGE_UNKNOWN},
        {"a question with no failure at all",
         "How much GPU memory does fine-tuning a 7B model take with LoRA?\n"
         "I have a 24 GB card.\n",
         NULL, OOM_STAGE_UNKNOWN},
    };
    expect_look(cases, sizeof cases / sizeof cases[0]);
}

/* Memory words that name no shortage no longer refuse the final error; words
 * that do still refuse it. */
static void test_lookstage_memory_words(void **state)
{
    (void)state;
    static const struct look_case cases[] = {
        {"THCudaCheck FAIL in the caching host allocator's source file (error 46, devices busy)",
         "Constructing networks...\n"
         "THCudaCheck FAIL file=/pytorch/aten/src/THC/THCCachingHostAllocator.cpp line=278 error=46 : "
         "all CUDA-capable devices are busy or unavailable\n",
         "other-error", OOM_STAGE_LOAD},
        {"a peer access fault over NVLink in SGLang's scheduler (sglang/srt/managers/scheduler.py)",
         "[2025-12-26 13:13:14 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
         "  File \"/py/sglang/srt/managers/scheduler.py\", line 996, in event_loop_overlap\n"
         "    self.process_batch_result(tmp_batch, tmp_result)\n"
         "  File \"/py/sglang/srt/managers/scheduler_output_processor_mixin.py\", line 288, in process_batch_result_decode\n"
         "    result.copy_done.synchronize()\n"
         "  File \"/py/torch/cuda/streams.py\", line 231, in synchronize\n"
         "    super().synchronize()\n"
         "torch.AcceleratorError: CUDA error: Invalid access of peer GPU memory over nvlink or a hardware error\n",
         "other-error", OOM_STAGE_GENERATE},
        {"an error that names a memory budget no row knows: no fallback",
         "Traceback (most recent call last):\n"
         "  File \"serve.py\", line 10, in <module>\n"
         "    engine = Engine(cfg)\n"
         "ValueError: the weights leave no memory for the cache under the configured budget\n",
         NULL, OOM_STAGE_UNKNOWN},
    };
    expect_look(cases, sizeof cases / sizeof cases[0]);
}

/* glog's fatal CHECK line ("Check failed: <condition>", google/glog
 * src/glog/logging.h CHECK) and the check-failure stack printed below it. */
static void test_lookstage_glog_check(void **state)
{
    (void)state;
    static const struct look_case cases[] = {
        {"Caffe: a cuBLAS status check in a layer's Backward_gpu (BVLC/caffe math_functions.cu)",
         "I0420 22:48:18.898177  7233 solver.cpp:138] Iteration 2520, lr = 0.001\n"
         "F0421 09:02:45.161278  7233 math_functions.cu:52] Check failed: status == CUBLAS_STATUS_SUCCESS "
         "(13 vs. 0)  CUBLAS_STATUS_EXECUTION_FAILED\n"
         "*** Check failure stack trace: ***\n"
         "    @     0x7f2f6e971daa  (unknown)\n"
         "    @     0x7f2f6f1d36a5  caffe::caffe_gpu_gemv<>()\n"
         "    @     0x7f2f6f17a51a  caffe::InnerProductLayer<>::Backward_gpu()\n"
         "    @     0x7f2f6f15c817  caffe::Net<>::BackwardFromTo()\n"
         "    @     0x7f2f6f0b4c8b  caffe::Solver<>::Step()\n"
         "Aborted (core dumped)\n",
         "other-error", OOM_STAGE_BACKWARD},
        {"a cuDNN status check in a convolution's forward (glog, Caffe cudnn_conv_layer.cu)",
         "F1105 10:20:11.123456  4411 cudnn_conv_layer.cu:28] Check failed: status == CUDNN_STATUS_SUCCESS "
         "(8 vs. 0)  CUDNN_STATUS_EXECUTION_FAILED\n"
         "*** Check failure stack trace: ***\n"
         "    @     0x7f1c2a5d1c3d  caffe::CuDNNConvolutionLayer<>::Forward_gpu()\n"
         "    @     0x7f1c2a4b2f61  caffe::Net<>::ForwardFromTo()\n",
         /* the kernel-fault row of its own since heldout51 (cuDNN's status
          * names the fault), with the same stage */
         "cudnn-execution-failed", OOM_STAGE_FORWARD},
    };
    expect_look(cases, sizeof cases / sizeof cases[0]);
}

/* An error line glued behind a progress bar, and a traceback whose line
 * breaks were lost with its error hard-wrapped inside a word. */
static void test_lookstage_glued_flat(void **state)
{
    (void)state;
    static const struct look_case cases[] = {
        {"torch_xla: a rendezvous failure glued to the evaluation bar (transformers Trainer evaluate)",
         "[INFO|trainer.py:1387] 2020-11-13 05:36:28,204 >> ***** Running Evaluation *****\n"
         "[INFO|trainer.py:1388] 2020-11-13 05:36:28,205 >>   Num examples = 9815\n"
         "  0%|          | 0/39 [00:00<?, ?it/s]\n"
         " 21%|##        | 8/39 [01:16<05:20, 10.34s/it]Exception in device=TPU:0: "
         "tensorflow/compiler/xla/xla_client/mesh_service.cc:364 : Failed to meet rendezvous 'eval_preds_1_0'\n",
         "other-error", OOM_STAGE_EVAL},
        {"a DataLoader worker's error glued to the epoch's bar (torch/utils/data/dataloader.py)",
         "Epoch 3: 41%|####      | 410/1000 [02:11<03:09, 3.11it/s]RuntimeError: DataLoader worker (pid 4242) "
         "exited unexpectedly with exit code 1. Details are lost due to multiprocessing.\n",
         "other-error", OOM_STAGE_UNKNOWN}, /* a worker's death alone names no stage (diagunk17) */
        {"a flattened PyTorch traceback, its illegal-address error hard-wrapped inside a word",
         "Post-training fails with a CUDA error\n"
         "metrics = self.train_step(batch) ^^^^^^^^ File \"/w/olmo/train/trainer.py\", line 745, in train_step "
         "loss = self.train_batch(batch) ^^^^^^^^ File \"/w/olmo/train/trainer.py\", line 690, in train_batch "
         "loss.backward() File \"/py/torch/_tensor.py\", line 581, in backward torch.autograd.backward( "
         "RuntimeError: CUDA error: an illeg\n"
         "al memory access was encountered Compile with TORCH_USE_CUDA_DSA to enable device-side assertions.\n",
         "cuda-illegal-address", OOM_STAGE_BACKWARD},
        {"a flattened traceback ending in a ValueError, no wrap (HF generate)",
         "File \"/w/app.py\", line 30, in <module> out = model.generate(**inputs) File "
         "\"/py/transformers/generation/utils.py\", line 1520, in generate self._validate_model_kwargs(model_kwargs) "
         "ValueError: The following `model_kwargs` are not used by the model: ['token_type_ids']\n",
         "other-error", OOM_STAGE_GENERATE},
        {"prose that names an error is no flattened traceback",
         "When I call trainer.train() I get RuntimeError: expected scalar type Half but found Float, any idea?\n",
         NULL, OOM_STAGE_UNKNOWN},
    };
    expect_look(cases, sizeof cases / sizeof cases[0]);
}

/* Host allocators' failures told in their own words: host look-alikes. */
static void test_lookstage_host_rows(void **state)
{
    (void)state;
    static const struct look_case cases[] = {
        {"Ray's memory monitor kills an actor being built (ray raylet, RAY_memory_usage_threshold)",
         "(raylet) A worker died or was killed while executing a task by an unexpected system error.\n"
         "Memory on the node (IP: 10.0.0.5, ID: 37f3bd9f) where the task (actor ID: 658f7608, "
         "name=CriticModelRayActor.__init__, pid=5315, memory used=1.67GB) was running was 445.48GB / "
         "468.75GB (0.950365), which exceeds the memory usage threshold of 0.95. Ray killed this worker "
         "(ID: 384252cd) because it was the most recently scheduled task\n",
         "host-oom-killer", OOM_STAGE_UNKNOWN},
        {"Intel MKL's host allocator under faster-whisper's model load",
         "Traceback (most recent call last):\n"
         "  File \"C:\\app\\transcribe.py\", line 12, in <module>\n"
         "    model = WhisperModel(\"large-v3\", device=\"cpu\", compute_type=\"int8\")\n"
         "RuntimeError: mkl_malloc: failed to allocate memory\n",
         "host-cpu-alloc", OOM_STAGE_LOAD},
        {"the MSVC runtime's bad_alloc through ONNX Runtime's CPU provider",
         "2024-01-10 10:00:00.000 [E:onnxruntime:, sequential_executor.cc:514 ExecuteKernel] Non-zero status "
         "code returned while running MatMul node. Name:'/encoder/layer.0/MatMul' Status Message: bad allocation\n",
         "host-cpu-alloc", OOM_STAGE_FORWARD},
    };
    expect_look(cases, sizeof cases / sizeof cases[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lookstage_cut_traceback),
        cmocka_unit_test(test_lookstage_cut_guards),
        cmocka_unit_test(test_lookstage_memory_words),
        cmocka_unit_test(test_lookstage_glog_check),
        cmocka_unit_test(test_lookstage_glued_flat),
        cmocka_unit_test(test_lookstage_host_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
