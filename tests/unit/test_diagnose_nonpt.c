/* diagnose on logs of stacks other than PyTorch (issue 12, helper nonpt20):
 * the stage Caffe's glog stacks name, and the messages of XLA and
 * TensorFlow's cuFFT plan that no row read. Each paste is a real log from
 * the public thread named beside it (cut to the lines that matter), each
 * with a guard that must stay as it was. The message rows of the same
 * threads are in tests/data/oom-families.tsv. */
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
#include "lib/steps.h"
#include "scan_fixture.h"

/* glog's check-failure stack, innermost first, as Caffe prints it under
 * "Check failed: error == cudaSuccess (2 vs. 0)  out of memory". */
#define CAFFE_CHECK \
    "F0228 17:38:20.483613  4104 syncedmem.cpp:64] Check failed: error == cudaSuccess (2 vs. 0)  out of memory\n" \
    "*** Check failure stack trace: ***\n" \
    "    @     0x7fcc1f3085cd  google::LogMessage::Fail()\n" \
    "    @     0x7fcc1f30a433  google::LogMessage::SendToLog()\n" \
    "    @     0x7fcc1f30815b  google::LogMessage::Flush()\n" \
    "    @     0x7fcc1f30ae1e  google::LogMessageFatal::~LogMessageFatal()\n" \
    "    @     0x7fcc1fa1e2f0  caffe::SyncedMemory::to_gpu()\n" \
    "    @     0x7fcc1fa1d2b9  caffe::SyncedMemory::mutable_gpu_data()\n" \
    "    @     0x7fcc1fa11d42  caffe::Blob<>::mutable_gpu_data()\n"

/* Solver::Init building the test nets: a data layer's LayerSetUp
 * allocating its prefetch blobs inside Net::Init (BVLC/caffe#3744) is the
 * network being set up: load. */
static void test_caffe_net_init_load(void **state)
{
    (void)state;
    const char *issue3744 =
        CAFFE_CHECK
        "    @     0x7fcc1f981168  caffe::BasePrefetchingDataLayer<>::LayerSetUp()\n"
        "    @     0x7fcc1fa76272  caffe::Net<>::Init()\n"
        "    @     0x7fcc1fa77cb1  caffe::Net<>::Net()\n"
        "    @     0x7fcc1fa2a562  caffe::Solver<>::InitTestNets()\n"
        "    @     0x7fcc1fa2aef5  caffe::Solver<>::Init()\n"
        "    @     0x7fcc1fa2b22a  caffe::Solver<>::Solver()\n"
        "    @     0x7fcc1faa33f3  caffe::Creator_SGDSolver<>()\n"
        "    @           0x40a4f8  train()\n"
        "    @           0x407408  main\n"
        "Aborted (core dumped)\n";
    assert_string_equal(primary_stage(issue3744), "load");
    /* guard: the training net's forward inside Solver::Step stays forward
     * (TextBoxes_plusplus-style stack, Solve -> Net::Forward) */
    const char *train_forward =
        CAFFE_CHECK
        "    @     0x7fd08b363928  caffe::BaseConvolutionLayer<>::forward_gpu_gemm()\n"
        "    @     0x7fd08b3eb296  caffe::ConvolutionLayer<>::Forward_gpu()\n"
        "    @     0x7fd08b1f15f2  caffe::Net<>::ForwardFromTo()\n"
        "    @     0x7fd08b1f1717  caffe::Net<>::Forward()\n"
        "    @     0x7fd08b3a6eca  caffe::Solver<>::Solve()\n"
        "    @           0x40ada0  train()\n";
    assert_string_equal(primary_stage(train_forward), "forward");
}

/* Solver::TestAll / Test run the test nets every test_interval: the
 * Forward frames inside them are an evaluation (BVLC/caffe#6289). */
static void test_caffe_solver_test_eval(void **state)
{
    (void)state;
    const char *issue6289 =
        "# Check failed: error == cudaSuccess (2 vs. 0)  out of memory\n"
        "*** Check failure stack trace: ***\n"
        "    @     0x7ffa99a40daa  (unknown)\n"
        "    @     0x7ffa99dfab2b  caffe::SyncedMemory::mutable_gpu_data()\n"
        "    @     0x7ffa99dab302  caffe::Blob<>::mutable_gpu_data()\n"
        "    @     0x7ffa99e98430  caffe::BaseConvolutionLayer<>::forward_gpu_gemm()\n"
        "    @     0x7ffa99f11621  caffe::ConvolutionLayer<>::Forward_gpu()\n"
        "    @     0x7ffa99e03f49  caffe::Net<>::ForwardFromTo()\n"
        "    @     0x7ffa99e04377  caffe::Net<>::ForwardPrefilled()\n"
        "    @     0x7ffa99db9bbe  caffe::Solver<>::Test()\n"
        "    @     0x7ffa99dba2c6  caffe::Solver<>::TestAll()\n"
        "    @     0x7ffa99dc6471  caffe::Solver<>::Step()\n"
        "    @     0x7ffa99dc6e3f  caffe::Solver<>::Solve()\n"
        "    @           0x407f15  train()\n"
        "Aborted (core dumped)\n";
    assert_string_equal(primary_stage(issue6289), "eval");
}

/* XLA's GPU executor copies a program's constants to the device; the
 * allocation failing is an INTERNAL status, no RESOURCE_EXHAUSTED
 * (octo-models/octo#22): a GPU OOM with its byte count. */
static void test_xla_new_constant(void **state)
{
    (void)state;
    const char *issue22 =
        "  File \"/home/houxuan/miniconda3/envs/octo/lib/python3.10/site-packages/jax/_src/pjit.py\", "
        "line 256, in cache_miss\n"
        "    outs, out_flat, out_tree, args_flat, jaxpr = _python_pjit_helper(\n"
        "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: Failed to allocate 98697216 bytes for new constant\n";
    struct oom_report rep;
    const struct oom_event *e = scan_primary(issue22, &rep);
    assert_int_equal(e->bytes.requested, 98697216);
    assert_string_equal(e->framework, "jax");
    oom_report_release(&rep);
    /* guard: XLA's other INTERNAL failures stay no OOM (jaxleyverse/jaxley#53:
     * a kernel's illegal address) */
    struct oom_report rep2;
    scan_log("INTERNAL: Failed to execute XLA Runtime executable: run time error: custom call "
             "'xla.gpu.func.launch' failed: Failed to launch CUDA kernel: fusion_1560 with block "
             "dimensions: 160x1x1 and grid dimensions: 1x1x1: CUDA_ERROR_ILLEGAL_ADDRESS: an illegal "
             "memory access was encountered.\n",
             &rep2);
    assert_true(rep2.primary < 0);
    oom_report_release(&rep2);
}

/* TensorFlow logs cufftPlanMany's status as a number: 2 is
 * CUFFT_ALLOC_FAILED (tensorflow/tensorflow#8710), 5 CUFFT_INTERNAL_ERROR
 * (keithito/tacotron#300). */
static void test_tf_cufft_plan_status(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e =
        scan_primary("2017-03-27 11:03:38.139000: E c:\\tf_jenkins\\tensorflow\\stream_executor\\cuda\\"
                     "cuda_fft.cc:96] failed to create cuFFT batched plan:2\n",
                     &rep);
    assert_true(e->gpu_oom);
    oom_report_release(&rep);
    expect_no_gpu_oom("2019-08-23 10:57:05.092767: E tensorflow/stream_executor/cuda/cuda_fft.cc:261] "
                      "failed to make cuFFT batched plan:5\n");
    /* a two-digit status that starts with 2 is no ALLOC_FAILED */
    expect_no_gpu_oom("E tensorflow/stream_executor/cuda/cuda_fft.cc:261] failed to make cuFFT batched plan:21\n");
}

/* Darknet's training record, "%d: %f, %f avg loss, %f rate, %lf seconds,
 * %d images" (AlexeyAB/darknet src/detector.c; pjreddie's "%f avg, %f
 * rate"): the iteration is the step, and a "Loading weights ... Done!"
 * above the records ran before the loop (AlexeyAB/darknet#1145's log: the
 * loop at iteration 7017 when check_error's assertion fired). Printed
 * "\n %d: ...", so the record is indented: a log line, no code. */
static void test_darknet_iterations(void **state)
{
    (void)state;
    struct steps_point pt;
    const char *ab = " 7017: 4.850285, 4.927210 avg loss, 0.002000 rate, 3.594010 seconds, 898176 images";
    assert_true(steps_parse_line(ab, strlen(ab), &pt) & STEPS_STEP);
    assert_int_equal(pt.step, 7017);
    assert_true(pt.loss > 4.85 && pt.loss < 4.851);
    const char *pj = "401: 2.331034, 2.505618 avg, 0.001000 rate, 3.151306 seconds, 25664 images";
    assert_true(steps_parse_line(pj, strlen(pj), &pt) & STEPS_STEP);
    assert_int_equal(pt.step, 401);
    /* guard: a numbered list of figures is no record */
    const char *list = "2: 0.5, 0.7 average";
    assert_false(steps_parse_line(list, strlen(list), &pt) & STEPS_STEP);
    assert_false(steps_darknet_line(list, strlen(list)));

    const char *issue1145 =
        "Loading weights from backup/yolov3.backup...Done!\n"
        " 7001: 4.980769, 4.980769 avg loss, 0.002000 rate, 3.618616 seconds, 896128 images\n"
        " 7002: 5.389543, 5.021646 avg loss, 0.002000 rate, 3.630440 seconds, 896256 images\n"
        " 7017: 4.850285, 4.927210 avg loss, 0.002000 rate, 3.594010 seconds, 898176 images\n"
        "darknet: ./src/cuda.c:36: check_error: Assertion `0' failed.\n";
    struct oom_report rep;
    scan_log(issue1145, &rep);
    assert_true(rep.primary < 0); /* the assertion names no cause */
    assert_true(rep.n_events >= 1);
    assert_int_equal(rep.events[0].step, 7017);
    assert_string_equal(oom_stage_name(rep.events[0].stage), "unknown");
    oom_report_release(&rep);
    /* guard: the weights loading, not said to be done, with no iteration
     * after it stays load */
    const char *loading = "Loading weights from darknet53.conv.74...\n"
                          "CUDA Error: out of memory\n"
                          "darknet: ./src/cuda.c:36: check_error: Assertion `0' failed.\n";
    assert_string_equal(primary_stage(loading), "load");
    /* and once it says "Done!", the loading is over (open55's
     * stage_phase_over): what failed came after it */
    const char *loaded = "Loading weights from darknet53.conv.74...Done!\n"
                         "CUDA Error: out of memory\n"
                         "darknet: ./src/cuda.c:36: check_error: Assertion `0' failed.\n";
    assert_string_equal(primary_stage(loaded), "unknown");
}

/* Caffe's solver indents its output records ("    Test net output #1:
 * loss = 7.87291 (* 1 = 7.87291 loss)" under its glog header): right above
 * the failure such a line read as a traceback's code line, its "loss =
 * ... * 1" as the model's math, forward. It is the finished test pass's
 * report (Cysu/dgd_person_reid#1: the failure came after it, at the
 * first training iteration): no stage. */
static void test_caffe_solver_record_no_code(void **state)
{
    (void)state;
    const char *issue1 =
        "I0516 02:08:09.886698  5662 solver.cpp:221] Iteration 0, loss = 7.87508\n"
        "I0516 02:08:09.886761  5662 solver.cpp:236]     Train net output #0: loss = 7.87812 (* 1 = 7.87812 loss)\n"
        "I0516 02:08:09.886782  5662 solver.cpp:542] Iteration 0, lr = 0.1\n"
        "I0516 02:08:09.908810  5661 solver.cpp:373]     Test net output #0: accuracy = 0\n"
        "I0516 02:08:09.908860  5661 solver.cpp:373]     Test net output #1: loss = 7.87291 (* 1 = 7.87291 loss)\n"
        "F0516 02:08:10.520869  5661 syncedmem.cpp:51] Check failed: error == cudaSuccess (2 vs. 0)  out of memory\n"
        "*** Check failure stack trace: ***\n"
        "    @     0x7f085e6939fd  google::LogMessage::Fail()\n";
    assert_string_equal(primary_stage(issue1), "unknown");
    /* guard: a real code line right above a message still reads as code */
    const char *code = "    output = net.forward(inputs)\n"
                       "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB\n";
    assert_string_equal(primary_stage(code), "forward");
}

/* A node that is a whole tf.function, no scope inside the model: Keras 3
 * fits through one traced function (keras-team/keras keras/src/backend/
 * tensorflow/trainer.py: make_train_function's one_step_on_iterator /
 * multi_step_on_iterator, called as TF 2's StatefulPartitionedCall), Keras
 * 2 through "train_function" (tf_keras/engine/training.py
 * make_train_function, "[Op:__inference_train_function_N]"). The
 * failure's node names the whole step, forward, gradient and update: no
 * one stage (as a training bar without frames). It read forward before,
 * as any other scope does. Written in the shape Keras 3 under TF 2.18
 * prints (the header, the "Detected at node" stack of Keras' own frames,
 * the node and the op). */
static void test_tf_whole_function_node(void **state)
{
    (void)state;
    const char *fit =
        "ResourceExhaustedError: Graph execution error:\n"
        "\n"
        "Detected at node StatefulPartitionedCall defined at (most recent call last):\n"
        "  File \"/usr/local/lib/python3.11/dist-packages/keras/src/backend/tensorflow/trainer.py\", line 371, in fit\n"
        "\n"
        "  File \"/usr/local/lib/python3.11/dist-packages/keras/src/backend/tensorflow/trainer.py\", line 219, in function\n"
        "\n"
        "  File \"/usr/local/lib/python3.11/dist-packages/keras/src/backend/tensorflow/trainer.py\", line 132, in "
        "multi_step_on_iterator\n"
        "\n"
        "Out of memory while trying to allocate 53530461464 bytes.\n"
        "\t [[{{node StatefulPartitionedCall}}]]\n"
        " [Op:__inference_multi_step_on_iterator_130426]\n";
    assert_string_equal(primary_stage(fit), "unknown");
    const char *keras2 =
        "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with "
        "shape[16,64,64,64] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n"
        " [Op:__inference_train_function_5913]\n";
    assert_string_equal(primary_stage(keras2), "unknown");
    /* guards: a scope inside the function still names its stage; Keras'
     * evaluate function stays eval */
    const char *tape =
        "W tensorflow/tsl/framework/bfc_allocator.cc:485] Allocator (GPU_0_bfc) ran out of memory trying to "
        "allocate 4.00GiB (rounded to 4294967296)requested by op StatefulPartitionedCall/gradient_tape/model/"
        "conv2d/Conv2DBackpropInput\n"
        "tensorflow.python.framework.errors_impl.ResourceExhaustedError: failed to allocate memory\n";
    assert_string_equal(primary_stage(tape), "backward");
    const char *test_fn =
        "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with "
        "shape[16,64,64,64] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n"
        " [Op:__inference_test_function_5913]\n";
    assert_string_equal(primary_stage(test_fn), "eval");
}

/* XGBoost's allocation error names the collective's rank ("on worker "
 * << xgboost::collective::GetRank(), dmlc/xgboost src/common/
 * device_helpers.cu ThrowOOMError) and puts the free memory and the
 * request under it: dmlc/xgboost#8292's Spark job, worker 3. Those two
 * lines are no memory the run holds: they made a "growing" memory trend
 * of 213.69 TiB -> 837.81 TiB (a bare count read as MiB), as TF 1.x's
 * start-up "Total memory: 8.00GiB" / "Free memory: 7.75GiB" did. */
static void test_xgboost_worker_rank_and_figures(void **state)
{
    (void)state;
    const char *issue8292 =
        "2022-09-29 22:22:41,591 ERROR [Executor task launch worker for task 1.0 in stage 6.0 (TID 204)] "
        "XGBoostSpark (XGBoost.scala:buildDistributedBooster(358)) - XGBooster worker 1 has failed 0 times due to\n"
        "ml.dmlc.xgboost4j.java.XGBoostError: [22:22:41] /workspace/src/tree/updater_gpu_hist.cu:712: Exception in "
        "gpu_hist: [22:22:41] /workspace/jvm-packages/xgboost4j-gpu/src/native/../../../../src/common/"
        "device_helpers.cuh:428: Memory allocation error on worker 3: Caching allocator\n"
        "- Free memory: 224067584\n"
        "- Requested memory: 878511352\n";
    struct oom_report rep;
    const struct oom_event *e = scan_primary(issue8292, &rep);
    assert_int_equal(e->rank, 3);
    assert_int_equal(e->bytes.requested, 878511352);
    assert_int_equal(e->bytes.free, 224067584);
    oom_report_release(&rep);
    struct steps_point pt;
    const char *lines[] = {"- Free memory: 224067584", "- Requested memory: 878511352",
                           "Total memory: 8.00GiB", "Free memory: 7.75GiB"};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        assert_false(steps_parse_line(lines[i], strlen(lines[i]), &pt) &
                     (STEPS_MEM | STEPS_PEAK_ALLOC | STEPS_PEAK_RESERVED));
    /* guard: a run's own memory figure still reads */
    const char *own = "step 10, loss 0.5, memory: 12.5GiB";
    assert_true(steps_parse_line(own, strlen(own), &pt) & (STEPS_MEM | STEPS_PEAK_ALLOC | STEPS_PEAK_RESERVED));
}

/* Caffe's solver tests its test nets inside training: "Iteration 0,
 * Testing net (#0)" (BVLC/caffe solver.cpp Solver::Test; the line
 * Cysu/dgd_person_reid#1's log opens its test pass with) right above the
 * failure is an evaluation; it read forward, as a tool's "Testing ..."
 * (inference) does. */
static void test_caffe_testing_net_eval(void **state)
{
    (void)state;
    const char *testing =
        "I0516 02:05:37.825336  5661 solver.cpp:258] Learning Rate Policy: stepdecr\n"
        "I0516 02:05:37.868683  5661 solver.cpp:316] Iteration 0, Testing net (#0)\n"
        "F0516 02:05:38.520869  5661 syncedmem.cpp:51] Check failed: error == cudaSuccess (2 vs. 0)  out of memory\n";
    assert_string_equal(primary_stage(testing), "eval");
    /* guard: a tool's own "Testing ..." line stays forward */
    const char *tool = "Testing the model on 20 images\n"
                       "RuntimeError: CUDA error: out of memory\n";
    assert_string_equal(primary_stage(tool), "forward");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_caffe_net_init_load),
        cmocka_unit_test(test_caffe_solver_test_eval),
        cmocka_unit_test(test_xla_new_constant),
        cmocka_unit_test(test_tf_cufft_plan_status),
        cmocka_unit_test(test_darknet_iterations),
        cmocka_unit_test(test_caffe_solver_record_no_code),
        cmocka_unit_test(test_tf_whole_function_node),
        cmocka_unit_test(test_xgboost_worker_rank_and_figures),
        cmocka_unit_test(test_caffe_testing_net_eval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
