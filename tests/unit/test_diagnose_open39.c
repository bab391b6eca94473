/* Unit tests for the mechanisms read from the misses of corpus-heldout39
 * (inference, serving and applications), opened for study after its blind
 * figures were recorded at dde05b75 (call 85/99, numbers 72/73, stages
 * 13/27): WebLLM's device-lost message, OpenCV's host allocator, a
 * transformers generate() line as the paste's last activity, a frame named
 * for preprocessing, an execution provider's fused node in ONNX Runtime's
 * executor line, and a title over a tool's own log line. The pastes are
 * written here in the shape of those posts; each case has a guard. */
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
#include "scan_fixture.h"

/* WebLLM logs one message when the WebGPU device is lost, which names
 * memory as the cause and asks for a smaller model (the shape of a web-llm
 * chat app's console): a GPU-class OOM. Lost while a model is (re)loaded,
 * it says so: load. Guard: a device loss with no such words stays no OOM. */
static void test_webllm_device_lost(void **state)
{
    (void)state;
    const char *reload = "Loading model failed in the chat page\n"
                         "engine.ts:412 Device was lost during reload. This can happen due to insufficient memory "
                         "or other GPU constraints. Detailed error: [object GPUDeviceLostInfo]. Please try to reload "
                         "WebLLM with a less resource-intensive model.\n";
    struct oom_report rep;
    scan_log(reload, &rep);
    assert_true(rep.primary >= 0);
    assert_true(rep.events[rep.primary].gpu_oom);
    assert_string_equal(oom_stage_name(rep.events[rep.primary].stage), "load");
    oom_report_release(&rep);

    const char *chat = "worker.js:8 Device was lost. This can happen due to insufficient memory or other GPU "
                       "constraints. Detailed error: [object GPUDeviceLostInfo]. Please try to reload WebLLM with "
                       "a less resource-intensive model.\n";
    scan_log(chat, &rep);
    assert_true(rep.primary >= 0);
    assert_true(rep.events[rep.primary].gpu_oom);
    oom_report_release(&rep);

    const char *newer = "DeviceLostError: The WebGPU device was lost while loading the model. This issue often "
                        "occurs due to running out of memory (OOM). To resolve this, try reloading with a model "
                        "that has fewer parameters or uses a smaller context length.\n";
    scan_log(newer, &rep);
    assert_true(rep.primary >= 0);
    assert_string_equal(oom_stage_name(rep.events[rep.primary].stage), "load");
    oom_report_release(&rep);

    const char *hung = "Error: Device was lost. Detailed error: [object GPUDeviceLostInfo]\n"
                       "ID3D12Device::GetDeviceRemovedReason failed with DXGI_ERROR_DEVICE_HUNG (0x887A0006)\n";
    expect_no_gpu_oom(hung);
}

/* OpenCV's host allocator (cv::fastMalloc -> OutOfMemoryError, error code
 * -4 "Insufficient memory"), in a C++ program's abort (the shape of a ROS
 * node's console on a Jetson): host memory, the request in bytes; OpenCV
 * 3's "OpenCV Error: Insufficient memory (...)" form too. Guard: OpenCV's
 * CUDA allocator ("(-217:Gpu API call) out of memory") stays a GPU OOM. */
static void test_opencv_host_alloc(void **state)
{
    (void)state;
    const char *log = "[ WARN] [1726000000.1]: waiting for image and imu...\n"
                      "terminate called after throwing an instance of 'cv::Exception'\n"
                      "  what():  OpenCV(4.5.4) /build/opencv/modules/core/src/alloc.cpp:73: error: "
                      "(-4:Insufficient memory) Failed to allocate 81604378624 bytes in function "
                      "'OutOfMemoryError'\n\nAborted (core dumped)\n";
    struct oom_report rep;
    scan_log(log, &rep);
    assert_true(rep.primary < 0);
    assert_true(rep.n_events >= 1);
    assert_false(rep.events[0].gpu_oom);
    assert_string_equal(rep.events[0].kind, "host-cpu-alloc");
    assert_int_equal(rep.events[0].bytes.requested, 81604378624LL);
    oom_report_release(&rep);

    const char *old = "OpenCV Error: Insufficient memory (Failed to allocate 1244160 bytes) in "
                      "OutOfMemoryError, file /opencv/modules/core/src/alloc.cpp, line 52\n";
    scan_log(old, &rep);
    assert_true(rep.primary < 0);
    assert_true(rep.n_events >= 1);
    assert_int_equal(rep.events[0].bytes.requested, 1244160);
    oom_report_release(&rep);

    const char *gpu = "terminate called after throwing an instance of 'cv::Exception'\n"
                      "  what():  OpenCV(4.5.0) /src/opencv/modules/core/src/cuda/gpu_mat.cpp:116: error: "
                      "(-217:Gpu API call) out of memory in function 'allocate'\n";
    scan_log(gpu, &rep);
    assert_true(rep.primary >= 0);
    assert_true(rep.events[rep.primary].gpu_oom);
    oom_report_release(&rep);
}

/* transformers' generate() logs "Setting `pad_token_id` to `eos_token_id`:N
 * for open-end generation." when it starts (the shape of a RAG chain's
 * issue: the OOM as the title, the paste ending in that line): generate.
 * Guard: the same paste ending in a model load stays load. */
static void test_generate_setup_line(void **state)
{
    (void)state;
    const char *log = "OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 GiB. GPU 0 has a total "
                      "capacity of 23.65 GiB of which 3.10 GiB is free.\n\n"
                      "### Error Message and Stack Trace\n\n```\n"
                      "/opt/venv/lib/python3.11/site-packages/langchain_core/_api/deprecation.py:119: "
                      "LangChainDeprecationWarning: The method `Chain.__call__` was deprecated.\n"
                      "  warn_deprecated(\n"
                      "Setting `pad_token_id` to `eos_token_id`:2 for open-end generation.\n```\n";
    assert_string_equal(stage_of(log), "generate");
    const char *load = "OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 GiB. GPU 0 has a total "
                       "capacity of 23.65 GiB of which 3.10 GiB is free.\n\n```\n"
                       "Loading checkpoint shards:  50%|#####     | 1/2 [00:03<00:03,  3.1s/it]\n```\n";
    assert_string_equal(stage_of(load), "load");
}

/* An application's own function named for preprocessing its input (the
 * shape of a talking-head demo's traceback, cut before the message, under
 * a title naming the OOM): data. Guard: the same traceback through a
 * function named for inference stays forward. */
static void test_preprocess_frame(void **state)
{
    (void)state;
    const char *log = "Long video gives cuda out of memory\n\n"
                      "Traceback (most recent call last):\n"
                      "  File \"/app/demo.py\", line 300, in <module>\n"
                      "    run_demo(args, detector)\n"
                      "  File \"/app/demo.py\", line 240, in run_demo\n"
                      "    frames, boxes = video_preprocess(args, detector)\n"
                      "  File \"/app/demo.py\", line 180, in video_preprocess\n"
                      "    boxes = find_faces(frames, detector)\n"
                      "  File \"/app/demo.py\", line 95, in find_faces\n"
                      "    out = detector.detect_batch(np.asarray(frames))\n";
    assert_string_equal(stage_of(log), "data");
    const char *infer = "Long video gives cuda out of memory\n\n"
                        "Traceback (most recent call last):\n"
                        "  File \"/app/demo.py\", line 300, in <module>\n"
                        "    run_demo(args, detector)\n"
                        "  File \"/app/demo.py\", line 240, in run_demo\n"
                        "    frames = video_inference(args, detector)\n"
                        "  File \"/app/demo.py\", line 180, in video_inference\n"
                        "    boxes = find_faces(frames, detector)\n";
    assert_string_equal(stage_of(infer), "forward");
    /* guard: a script named for preprocessing that trains is no data stage */
    const char *script = "CUDA error: out of memory in the second epoch\n\n"
                         "Traceback (most recent call last):\n"
                         "  File \"docs_preprocessing.py\", line 37, in <module>\n"
                         "    pretrain(learner)\n"
                         "  File \"docs_preprocessing.py\", line 26, in pretrain\n"
                         "    learner.fit_one_cycle(2, 1e-3)\n";
    assert_string_not_equal(stage_of(script), "data");
}

/* ONNX Runtime's executor names the node whose kernel failed by its op
 * type; an execution provider's fused subgraph is typed with dashes
 * ("OpenVINO-EP-subgraph_3"): a session run, forward. The shape of a
 * machine-learning container's log on an Intel iGPU. Guard: the node line
 * of ORT training's gradient op stays backward. */
static void test_ort_fused_node(void **state)
{
    (void)state;
    const char *log = "2024-10-01 10:00:00.1 [E:onnxruntime:, sequential_executor.cc:516 ExecuteKernel] "
                      "Non-zero status code returned while running OpenVINO-EP-subgraph_3 node. "
                      "Name:'OpenVINOExecutionProvider_OpenVINO-EP-subgraph_3_0' Status Message: "
                      "[OpenVINO-EP]  Wait Model Failed: Exception from src/inference/src/cpp/infer_request.cpp:245:\n"
                      "Exception from src/plugins/intel_gpu/src/runtime/ocl/ocl_engine.cpp:185:\n"
                      "[GPU] out of GPU resources\n";
    assert_string_equal(stage_of(log), "forward");
    const char *grad = "[E:onnxruntime:, sequential_executor.cc:516 ExecuteKernel] Non-zero status code returned "
                       "while running SoftmaxCrossEntropyLossGrad node. Name:'loss_grad' Status Message: "
                       "/onnxruntime/core/framework/bfc_arena.cc:376 Failed to allocate memory for requested "
                       "buffer of size 1073741824\n";
    assert_string_equal(stage_of(grad), "backward");
}

/* A title names the OOM in bare words; the paste below is the tool's own
 * console, its message on a log line after the tool's phase line (the shape
 * of a TensorRT deployment's engine build): the failure the title names,
 * with the stage the tool's lines give it, none for an engine build
 * (engine-build-no-stage, the nineteenth round: load before; nor the ONNX
 * exporter's "has been generated" above the builder's line). Guard: an
 * explainer's prose sentence under a message does not stage the message. */
static void test_title_over_tool_line(void **state)
{
    (void)state;
    const char *log = "Cuda Error (out of memory)\n\n"
                      "I was converting my detector and met the error below\n\n"
                      "```\n"
                      "[10/01/2023-10:00:00] [W] [TRT] onnx2trt_utils.cpp:220: Your ONNX model has been generated "
                      "with INT64 weights.\n"
                      "start building engine\n"
                      "[10/01/2023-10:00:01] [E] [TRT] ../rtSafe/safeRuntime.cpp (25) - Cuda Error in allocate: 2 "
                      "(out of memory)\n"
                      "build engine done\n"
                      "```\n";
    assert_string_equal(stage_of(log), "unknown");
    const char *prose = "CUDA out of memory\n\n"
                        "RuntimeError: CUDA out of memory. Tried to allocate 512.00 MiB (GPU 0; 8.00 GiB total "
                        "capacity; 6.50 GiB already allocated; 256.00 MiB free; 6.70 GiB reserved in total by "
                        "PyTorch)\n"
                        "Why it happens\n"
                        "This error occurs because the GPU does not have enough memory for the batch.\n";
    assert_string_equal(stage_of(prose), "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_webllm_device_lost),
        cmocka_unit_test(test_opencv_host_alloc),
        cmocka_unit_test(test_generate_setup_line),
        cmocka_unit_test(test_preprocess_frame),
        cmocka_unit_test(test_ort_fused_node),
        cmocka_unit_test(test_title_over_tool_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
