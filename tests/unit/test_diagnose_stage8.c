/* diagnose's stage on logs nobody here wrote, helper diagstage8 (issue 12).
 * Each case is real text from the public thread named beside it (the corpus
 * row in brackets); each assertion failed on the code before its mechanism
 * (main af2ba85). */
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
#include "stage_fixture.h"
#include "scan_fixture.h"

/* TF 2.x graph mode names the failing node above its stack: "Original
 * stack trace for 'gradients/…'" (DeepLabCut/DeepLabCut#613, h27-85). */
static void test_tf_original_stack_trace_names_the_node(void **state)
{
    (void)state;
    const char *log =
        "Error in deeplabcut.train_network: Resource exhausted: OOM when allocating tensor with shape [1,2048,62,110].\n"
        "\n"
        "```\n"
        " pose/locref_pred/block4/weights/read (defined at c:\\users\\deeplabcut2\\anaconda3\\envs\\dlc208_1\\lib\\site-packages\\deeplabcut\\pose_estimation_tensorflow\\nnet\\pose_net.py:30)\n"
        "\n"
        "Original stack trace for 'gradients/pose/locref_pred/block4/conv2d_transpose_grad/Conv2D':\n"
        "  File \"c:\\users\\deeplabcut2\\anaconda3\\envs\\dlc208_1\\lib\\runpy.py\", line 193, in _run_module_as_main\n"
        "    \"__main__\", mod_spec)\n"
        "  File \"c:\\users\\deeplabcut2\\anaconda3\\envs\\dlc208_1\\lib\\runpy.py\", line 85, in _run_code\n"
        "    exec(code, run_globals)\n";
    assert_string_equal(stage_of(log), "backward");
    const char *line = "Original stack trace for 'gradients/pose/locref_pred/block4/conv2d_transpose_grad/Conv2D':";
    assert_int_equal(stage_tf(line, strlen(line)), OOM_STAGE_BACKWARD);
    /* a node with no stage word is forward, as the other TF heads' */
    const char *fwd = "Original stack trace for 'FirstStageFeatureExtractor/resnet_v1_101/resnet_v1_101/block3/unit_15/bottleneck_v1/conv3/Conv2D':";
    assert_int_equal(stage_tf(fwd, strlen(fwd)), OOM_STAGE_FORWARD);
}

/* TF's kernel-failure log line is a log's final error (a look-alike: no
 * memory words), and the node its stack names gives the stage, as for a TF
 * OOM: cuDNN found no algorithm for a filter gradient (Sentdex/pygta5#161,
 * h27-87). The call does not move: no GPU OOM. */
static void test_tf_kernel_failure_is_the_final_error(void **state)
{
    (void)state;
    const char *log =
        "tensorflow/core/framework/op_kernel.cc:1763] OP_REQUIRES failed at conv_grad_filter_ops.cc:1095 : Not found: No algorithm worked!\n"
        "\n"
        "Original stack trace for 'Momentum/gradients/Conv2D/Conv2D_grad/Conv2DBackpropFilter':\n"
        "  File \"train_model.py\", line 10, in <module>\n"
        "    model = alexnet(WIDTH, HEIGHT, LR)\n"
        "  File \"C:\\Users\\anjan\\Anaconda3\\lib\\site-packages\\tflearn\\models\\dnn.py\", line 65, in __init__\n"
        "    best_val_accuracy=best_val_accuracy)\n"
        "  File \"C:\\Users\\anjan\\Anaconda3\\lib\\site-packages\\tflearn\\helpers\\trainer.py\", line 131, in __init__\n"
        "    clip_gradients)\n"
        "  File \"C:\\Users\\anjan\\Anaconda3\\lib\\site-packages\\tflearn\\helpers\\trainer.py\", line 707, in initialize_training_ops\n"
        "    self.grad = tf.gradients(total_loss, self.train_vars)\n";
    bool gpu_oom = true;
    assert_string_equal(first_stage_of(log, &gpu_oom), "backward");
    assert_false(gpu_oom);
    const char *line = "tensorflow/core/framework/op_kernel.cc:1763] OP_REQUIRES failed at conv_grad_filter_ops.cc:1095 : Not found: No algorithm worked!";
    assert_int_equal(msg_error_line(line, strlen(line)), 1);
}

/* Words that say host memory ran out, in a title over a paste cut before
 * its error: the host look-alike (not "no OOM found"), staged by the
 * paste's last activity (CVI-SZU/Linly#83, h27-49: DeepSpeed ZeRO-3's
 * start-up, load). The call does not move: no GPU OOM. */
static void test_host_oom_title_over_a_cut_paste(void **state)
{
    (void)state;
    const char *log =
        "CPU out of memory during initialization\n"
        "\n"
        "```\n"
        "Loading extension module utils...\n"
        "Time to load utils op: 0.2768416404724121 seconds\n"
        "[2023-05-24 10:02:10,934] [INFO] [utils.py:829:see_memory_usage] DeepSpeedZeRoOffload initialize [begin]\n"
        "[2023-05-24 10:02:10,935] [INFO] [utils.py:834:see_memory_usage] MA 0.0 GB         Max_MA 0.0 GB         CA 0.73 GB         Max_CA 1 GB \n"
        "[2023-05-24 10:02:10,935] [INFO] [utils.py:839:see_memory_usage] CPU Virtual Memory:  used = 23.44 GB, percent = 24.8%\n"
        "Parameter Offload: Total persistent parameters: 266240 in 65 params\n"
        "[2023-05-24 10:02:10,993] [INFO] [utils.py:829:see_memory_usage] DeepSpeedZeRoOffload initialize [end]\n"
        "[2023-05-24 10:02:11,033] [INFO] [utils.py:829:see_memory_usage] Before creating fp16 partitions\n"
        "[2023-05-24 10:02:11,034] [INFO] [utils.py:834:see_memory_usage] MA 0.0 GB         Max_MA 0.0 GB         CA 0.73 GB         Max_CA 1 GB \n"
        "[2023-05-24\n";
    bool gpu_oom = true;
    assert_string_equal(first_stage_of(log, &gpu_oom), "load");
    assert_false(gpu_oom);
    struct oom_report rep;
    scan_log(log, &rep);
    assert_int_equal(rep.n_events, 1);
    assert_string_equal(rep.events[0].framework, "host");
    oom_report_release(&rep);
    /* the guard: the words asked, not asserted, stay no event */
    const char *asked = "Is it CPU out of memory?\n";
    scan_log(asked, &rep);
    assert_int_equal(rep.n_events, 0);
    oom_report_release(&rep);
}

/* ollama's runner log line answering the server's load request (its
 * fit/alloc/commit operations place the model's layers) is start-up: the
 * compute buffer that failed was being reserved for the model being loaded
 * (ollama/ollama#13303, h27-04). */
static void test_ollama_load_request_is_load(void **state)
{
    (void)state;
    const char *log =
        "failed to commit memory for model (ministral-3:14b)\n"
        "\n"
        "```shell\n"
        "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 9220.57 MiB on device 0: cudaMalloc failed: out of memory\n"
        "ggml_gallocr_reserve_n: failed to allocate CUDA0 buffer of size 9668469760\n"
        "time=2025-12-02T17:06:47.184-05:00 level=INFO source=runner.go:1271 msg=load request=\"{Operation:alloc LoraPath:[] Parallel:1 BatchSize:512 FlashAttention:false KvSize:4096 KvCacheType: NumThreads:8 GPULayers:37[ID:GPU-f8657c39-1806-f26f-e294-a51dcd5da96b Layers:37(3..39) ] MultiUserCache:false}\"\n";
    assert_string_equal(stage_of(log), "load");
}

/* A name for the whole loop, training and evaluating, names no evaluation:
 * the frames inside it say which ran. A GAN's train() under
 * train_and_evaluate(), the discriminator's forward failing
 * (alohaleonardo/Super_Resolution_with_CNNs_and_GANs#4, h26-125); TF's
 * estimator train_and_evaluate over its train frames alone names nothing
 * (tensorflow/tensor2tensor#1382, h24-63: no stage). */
static void test_train_and_evaluate_names_no_eval(void **state)
{
    (void)state;
    const char *log =
        "RuntimeError: CUDA error: out of memory\n"
        "\n"
        "Traceback (most recent call last):\n"
        "  File \"train_gan.py\", line 271, in <module>\n"
        "    train_and_evaluate(netG, netD, train_dl, val_dl, optimG, optimD, loss_fn, metrics, params, opt.model_dir, opt.restore_file,cuda_id=cuda_id)\n"
        "  File \"train_gan.py\", line 142, in train_and_evaluate\n"
        "    train(netG, netD, optimG, optimD, loss_fn, train_dataloader, metrics, params, cuda_id)\n"
        "  File \"train_gan.py\", line 75, in train\n"
        "    fake_out = netD(fake_img).mean()\n"
        "  File \"C:\\Users\\PC\\Anaconda3\\envs\\cgan\\lib\\site-packages\\torch\\nn\\modules\\module.py\", line 477, in __call__\n"
        "    result = self.forward(*input, **kwargs)\n"
        "  File \"F:\\ProgramTA\\CGAN_AinilMardiah\\program\\model\\cgan.py\", line 100, in forward\n"
        "    return torch.sigmoid(self.net(x).view(batch_size))\n";
    assert_string_equal(stage_of(log), "forward");
    assert_int_equal(stage_name_bits("train_and_evaluate", 18), 0);
    /* evaluation alone still names it */
    assert_int_equal(stage_name_bits("evaluate", 8), 1u << OOM_STAGE_EVAL);
}

/* A GPU OOM named in words just below an exception's own line takes that
 * line's traceback stage: vllm-omni's engine construction runs a dummy
 * forward (make_engine -> __init__ -> _dummy_run: load), which fails with
 * "RuntimeError: Dummy run failed", and CANN explains it below with
 * "Memory_Allocation_Failure ... Failed to allocate memory" (lead, issue 12;
 * PKU-YuanGroup/Helios#62 = h29-87, whose stage the context call had lost:
 * before it, the RuntimeError line was the log's final error with stage
 * load). Words that only name an exception ("Meet RuntimeError in
 * .../indice_cuda.cu", a title) lend no stage. */
static void test_words_below_an_exception_take_its_stage(void **state)
{
    (void)state;
    const char *log =
        "请问有Ascend npu的推理文档吗\n"
        "\n"
        "[turn 2 by OrangePure, continued]\n"
        "```\n"
        "  File \"/root/vllm-omni/vllm_omni/diffusion/diffusion_engine.py\", line 276, in make_engine\n"
        "    return DiffusionEngine(config, scheduler=scheduler)\n"
        "  File \"/root/vllm-omni/vllm_omni/diffusion/diffusion_engine.py\", line 84, in __init__\n"
        "    raise e\n"
        "  File \"/root/vllm-omni/vllm_omni/diffusion/diffusion_engine.py\", line 80, in __init__\n"
        "    self._dummy_run()\n"
        "  File \"/root/vllm-omni/vllm_omni/diffusion/diffusion_engine.py\", line 382, in _dummy_run\n"
        "    raise RuntimeError(f\"Dummy run failed: {output.error}\")\n"
        "RuntimeError: Dummy run failed: The Inner error is reported as above. The process exits for this inner error, and the current working operator name is Conv2D.\n"
        "Since the operator is called asynchronously, the stacktrace may be inaccurate. If you want to get the accurate stacktrace, please set the environment variable ASCEND_LAUNCH_BLOCKING=1.\n"
        "Note: ASCEND_LAUNCH_BLOCKING=1 will force ops to run in synchronous mode, resulting in performance degradation. Please unset ASCEND_LAUNCH_BLOCKING in time after debugging.\n"
        "[ERROR] 2026-04-09-21:56:46 (PID:210907, Device:0, RankID:0) ERR00100 PTA call acl api failed.\n"
        "[PID: 210907] 2026-04-09-21:56:40.384.694 Memory_Allocation_Failure(EL0004): Failed to allocate memory requested by GE module.\n"
        "        Possible Cause: Available memory is insufficient.\n"
        "        Solution: Close applications not in use.\n"
        "        TraceBack (most recent call las\n";
    bool gpu_oom = false;
    assert_string_equal(first_stage_of(log, &gpu_oom), "load");
    assert_true(gpu_oom);
    const char *named =
        "Meet RuntimeError in mmdet3d/ops/spconv/src/indice_cuda.cu\n"
        "\n"
        "Tai-Wang \xc2\xb7 comment \xc2\xb7 2020-07-16\n"
        "I briefly searched for some information about \"cuda runtime error 2\". It seems that it is a simple "
        "\"out of memory\" error, but I don't know why the error traceback did not elaborate it.\n";
    assert_string_equal(first_stage_of(named, &gpu_oom), "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tf_original_stack_trace_names_the_node),
        cmocka_unit_test(test_tf_kernel_failure_is_the_final_error),
        cmocka_unit_test(test_host_oom_title_over_a_cut_paste),
        cmocka_unit_test(test_ollama_load_request_is_load),
        cmocka_unit_test(test_train_and_evaluate_names_no_eval),
        cmocka_unit_test(test_words_below_an_exception_take_its_stage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
