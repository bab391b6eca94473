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
#include "scan_fixture.h"

static const char *primary_stage(const char *log)
{
    struct oom_report rep;
    const struct oom_event *e = scan_primary(log, &rep);
    const char *name = oom_stage_name(e->stage);
    oom_report_release(&rep);
    return name;
}

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_caffe_net_init_load),
        cmocka_unit_test(test_caffe_solver_test_eval),
        cmocka_unit_test(test_xla_new_constant),
        cmocka_unit_test(test_tf_cufft_plan_status),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
