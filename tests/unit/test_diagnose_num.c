/* diagnose: labelled numbers of message forms the clauses did not read
 * (issue 12, helper diagnum). Each case is a real line (source beside it)
 * from a seen corpus; each failed on main d87ea6e. */
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

/* The new form as a user retyped it: "GPU 2 has total 47.40 GiB of which
 * ..." without "a total capacity" (dylanyunlon/Neuron_SP#3 = heldout14
 * h14-47). 47.40 GiB = 50895362457.6 bytes. */
static void test_pt_new_has_total(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "torch.OutOfMemoryError: Tried to allocate 6.20 GiB. GPU 2 has total 47.40 GiB of which "
        "1.96 GiB is free.\n",
        &rep);
    assert_int_equal(e->gpu, 2);
    assert_int_equal(e->bytes.capacity, 50895362458LL);
    assert_int_equal(e->bytes.free, 2104533975LL); /* 1.96 GiB, read before too */
    oom_report_release(&rep);
}

/* flashlight's caching memory manager names the request, device, capacity,
 * allocated and cached bytes before ArrayFire's error (flashlight/
 * flashlight#211 = heldout20 h20-17). */
static void test_flashlight_memory_manager(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "Failed to allocate memory of size 1.27 GiB (Device: 0, Capacity: 31.74 GiB, Allocated: "
        "29.98 GiB, Cached: 994.36 MiB) with error 'ArrayFire Exception (Device out of "
        "memory:101):\n",
        &rep);
    assert_int_equal(e->bytes.requested, 1363652116LL);
    assert_int_equal(e->gpu, 0);
    assert_int_equal(e->bytes.capacity, 34080565494LL);
    assert_int_equal(e->bytes.allocated, 32190779884LL);
    assert_int_equal(e->bytes.reserved, 1042662031LL);
    oom_report_release(&rep);
}

/* TensorRT 10's resizable GPU buffer names its request in the error itself
 * (huggingface/optimum-nvidia#146 = heldout23 h23-11). */
static void test_tensorrt_requested_size(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "[08/11/2024-06:10:36] [TRT] [E] [globWriter.cpp::makeResizableGpuMemory::435] Error Code "
        "2: OutOfMemory (Requested size was 16654532608 bytes.)\n",
        &rep);
    assert_int_equal(e->bytes.requested, 16654532608LL);
    oom_report_release(&rep);
}

/* Caffe2's enforce on a CUDA call names the failing operator after "Error
 * from operator:", its device in the proto's device_option: on the next
 * line but one (facebookresearch/Detectron#821 = h23-25) or on the line
 * right after, joined to the message (facebookresearch/Detectron#554 =
 * h23-28: "cuda_gpu_id", the field's older name). */
static void test_caffe2_device_option(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "RuntimeError: [enforce fail at context_gpu.cu:415] error == cudaSuccess. 2 vs 0. Error at: "
        "/opt/conda/conda-bld/pytorch-nightly_1547287162138/work/caffe2/core/context_gpu.cu:415: out "
        "of memory\n"
        "Error from operator:\n"
        "input: \"gpu_0/res4_7_branch2b\" input: \"gpu_0/res4_7_branch2c_w\" output: "
        "\"gpu_0/res4_7_branch2c\" name: \"\" type: \"Conv\" arg { name: \"kernel\" i: 1 } "
        "device_option { device_type: 1 device_id: 0 } engine: \"CUDNN\"frame #0: "
        "c10::ThrowEnforceNotMet(char const*, int, char const*, std::string const&, void const*)\n",
        &rep);
    assert_int_equal(e->gpu, 0);
    oom_report_release(&rep);
    e = scan_primary(
        "RuntimeError: [enforce fail at context_gpu.cu:336] error == cudaSuccess. 2 vs 0. Error at: "
        "/var/lib/jenkins/conda-bld/caffe2-cuda9.0-cudnn7_1526317478991/work/caffe2/core/"
        "context_gpu.cu:336: out of memory Error from operator: \n"
        "input: \"gpu_0/res4_4_branch2c\" input: \"gpu_0/res4_4_branch2c_bn_s\" input: "
        "\"gpu_0/res4_4_branch2c_bn_b\" output: \"gpu_0/res4_4_branch2c_bn\" name: \"\" type: "
        "\"AffineChannel\" device_option { device_type: 1 cuda_gpu_id: 0 }\n",
        &rep);
    assert_int_equal(e->gpu, 0);
    oom_report_release(&rep);
}

/* DataParallel re-raises a replica's error naming the device; here the
 * traceback's line breaks were lost (huggingface/trl#1169 = h19-40). */
static void test_dataparallel_replica_device(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "ErrorMessage \"torch.cuda.OutOfMemoryError: Caught OutOfMemoryError in replica 0 on device "
        "0. Original Traceback (most recent call last) File \"/opt/conda/lib/python3.10/site-packages/"
        "torch/nn/parallel/parallel_apply.py\", line 64, in _worker\n",
        &rep);
    assert_int_equal(e->gpu, 0);
    assert_int_equal(e->rank, -1); /* a replica is no rank */
    oom_report_release(&rep);
}

/* The old form cut by the paste mid-word after the allocated figure
 * (fudan-zvg/4d-gaussian-splatting#16 = h9-51). 20.68 GiB = 22204980920.3. */
static void test_already_allocated_cut(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "RuntimeError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 0; 21.99 GiB total "
        "capacity; 20.68 GiB already allocate\n",
        &rep);
    assert_int_equal(e->bytes.allocated, 22204980920LL);
    assert_int_equal(e->bytes.requested, 67108864LL);
    oom_report_release(&rep);
}

/* An OOM named only in words states the failed allocation's exact size:
 * on its own line (a ggml title, ikawrakow/ik_llama.cpp#1289 = h29-12) or
 * on the line after (PaRSEC, ICLDisco/parsec#630 = h17-01). */
static void test_mention_sizes(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e =
        scan_primary("Bug: Device memory allocation of size 17368219904 failed.\n", &rep);
    assert_int_equal(e->bytes.requested, 17368219904LL);
    oom_report_release(&rep);
    e = scan_primary(
        "W@00001 /tmp/parsec/parsec/parsec/mca/device/cuda/device_cuda_module.c:348 cudaMallocout "
        "of memory\n"
        "W@00001 GPU[cuda(6)] Allocating 79855878144 bytes of memory on the GPU device failed\n",
        &rep);
    assert_int_equal(e->bytes.requested, 79855878144LL);
    assert_int_equal(e->gpu, -1); /* cuda(6) is PaRSEC's device-table index */
    oom_report_release(&rep);
}

/* ollama relays ggml's CUDA failure; the graph allocator's line after it
 * names the device buffer and its exact size (ollama/ollama#9782 = h9-27). */
static void test_ggml_buffer_after_cuda_error(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "Error: llama runner process has terminated: cudaMalloc failed: out of memory\n"
        "ggml_gallocr_reserve_n: failed to allocate CUDA0 buffer of size 838447104\n",
        &rep);
    assert_int_equal(e->gpu, 0);
    assert_int_equal(e->bytes.requested, 838447104LL);
    oom_report_release(&rep);
}

/* The message above a rank's rich-boxed traceback takes the rank of its
 * prefix, as above a plain "[rank1]: Traceback" (zai-org/GLM-4#244 =
 * h19-61: a title cut at "GPU", then the box). */
static void test_rank_from_rich_box(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "2\xe5\xbc\xa0" "4090 OutOfMemoryError: CUDA out of memory. Tried to allocate 214.00 MiB. GPU\n"
        "[rank1]: \xe2\x94\x82                                        \xe2\x94\x82\n"
        "[rank1]: \xe2\x94\x82   1856 \xe2\x94\x82   finally:          \xe2\x94\x82\n"
        "[rank1]: \xe2\x94\x82 \xe2\x9d\xb1 1859 \xe2\x94\x82   return inner_training_loop(  "
        "\xe2\x94\x82\n",
        &rep);
    assert_int_equal(e->rank, 1);
    oom_report_release(&rep);
    /* a rank-prefixed box that is no traceback (a table) gives no rank */
    e = scan_primary("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 214.00 MiB.\n"
                     "[rank1]: \xe2\x94\x82 Name \xe2\x94\x82 Type \xe2\x94\x82 Params "
                     "\xe2\x94\x82\n",
                     &rep);
    assert_int_equal(e->rank, -1);
    oom_report_release(&rep);
}

/* diagctx2: the generic PyTorch rows read either form's clauses: a title
 * mangled mid-message keeps the older form's "reserved in total" figure
 * (EPFL-IMOS/AnomalyAny#2 = heldout25 h25-92); a paraphrase keeps its
 * "X free" (NVIDIA-NeMo/RL#2871 = heldout29 h29-100). */
static void test_pt_generic_either_form(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "OutOfMemoryError: CUDA out of meMiB free; 37.20 GiB reserved in total by PyTorch\n", &rep);
    assert_int_equal(e->bytes.reserved, 39943195853LL);
    oom_report_release(&rep);
    e = scan_primary("torch.OutOfMemoryError: Tried to allocate 12.60 GiB. GPU had 12.44 GiB free "
                     "of 79.19\n",
                     &rep);
    assert_int_equal(e->bytes.requested, 13529146982LL);
    assert_int_equal(e->bytes.free, 13357348291LL);
    oom_report_release(&rep);
    /* the current form's figures as before: "of which X is free", not "X free" */
    e = scan_primary("torch.OutOfMemoryError: Tried to allocate 6.20 GiB. GPU 2 has total 47.40 GiB "
                     "of which 1.96 GiB is free.\n",
                     &rep);
    assert_int_equal(e->bytes.free, 2104533975LL);
    assert_int_equal(e->bytes.reserved, -1);
    oom_report_release(&rep);
}

/* diagctx2: vLLM's start-up check of the free memory against its budget,
 * a GPU OOM of the load (ovg-project/kvcached#110 = heldout27 h27-14): its
 * fraction "(67.24/79.25 GiB)" gives free and capacity (the numerator's
 * unit is the denominator's); the budget "(0.9, 71.33 GiB)" is no request.
 * Later versions name the device: "on device cuda:1" (pytorch/pytorch#175666,
 * vLLM's CI on a release candidate of torch). */
static void test_vllm_startup_memory(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "ValueError: Free memory on device (67.24/79.25 GiB) on startup is less than desired GPU "
        "memory utilization (0.9, 71.33 GiB). Decrease GPU memory utilization or reduce GPU "
        "memory used by other processes.\n",
        &rep);
    assert_string_equal(e->kind, "vllm-startup-memory");
    assert_true(e->gpu_oom);
    assert_int_equal(e->stage, OOM_STAGE_LOAD);
    assert_int_equal(e->bytes.free, 72198400246LL);
    assert_int_equal(e->bytes.capacity, 85094039552LL);
    assert_int_equal(e->bytes.requested, -1);
    assert_int_equal(e->gpu, -1);
    oom_report_release(&rep);
    e = scan_primary("[2026-02-24T20:21:58Z] (EngineCore_DP0 pid=6940) ValueError: Free memory on "
                     "device cuda:1 (19.77/22.05 GiB) on startup is less than desired GPU memory "
                     "utilization (0.9, 19.84 GiB). Decrease GPU memory utilization or reduce GPU "
                     "memory used by other processes.\n",
                     &rep);
    assert_int_equal(e->gpu, 1);
    assert_int_equal(e->bytes.free, 21227875860LL);
    assert_int_equal(e->bytes.capacity, 23676007219LL);
    oom_report_release(&rep);
    /* no unit after the fraction: no figure (the line above, its unit cut) */
    e = scan_primary("ValueError: Free memory on device (67.24/79.25) on startup is less than "
                     "desired GPU memory utilization (0.9, 71.33 GiB).\n",
                     &rep);
    assert_int_equal(e->bytes.free, -1);
    assert_int_equal(e->bytes.capacity, -1);
    oom_report_release(&rep);
}

/* diagctx2: the old form reworded as by a translator, quoted with "> "
 * (TEXTurePaper/TEXTurePaper#18 = heldout13 h13-55): "Attempting to
 * allocate" is the request, "total reserved by PyTorch" the reserved. */
static void test_pt_old_reworded(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "> RuntimeError: CUDA has run out of memory. Attempting to allocate 86.00 MiB (GPU 0; 8.00 "
        "GiB total capacity; 7.19 GiB already allocated; 0 bytes free; 7.31 GiB total reserved by "
        "PyTorch) If reserved memory >> allocated memory, try setting max_split_size_mb to avoid "
        "fragmentation.  See documentation for memory management and PYTORCH_CUDA_ALLOC_CONF.\n",
        &rep);
    assert_int_equal(e->bytes.requested, 90177536LL);
    assert_int_equal(e->bytes.reserved, 7849052733LL);
    assert_int_equal(e->bytes.capacity, 8589934592LL);
    oom_report_release(&rep);
}

/* diagctx2: the rank of a look-alike named in a title, from the
 * rank-prefixed traceback 10 lines below it, past the user's sentence and
 * launch command (huggingface/trl#4149 = heldout21 h21-28, its first 14
 * lines). */
static void test_rank_after_title(void **state)
{
    (void)state;
    const char *log = "CUDA error: uncorrectable ECC error encountered\n"
        "I tried to train Llama8B using PPO and Deepspeed in the example codes, using 2x80GB A100, but encountered the following errors. Why is this happening and how can we solve it?\n"
        "\n"
        "```\n"
        "accelerate launch --config_file ./deepspeed_zero2.yaml train_ppo.py\n"
        "```\n"
        "\n"
        "outputs:\n"
        "\n"
        "```\n"
        "[rank1]: Traceback (most recent call last):\n"
        "[rank1]:   File \"/home/whan/projects/LMCPO_hpc/train_ppo.py\", line 68, in <module>\n"
        "[rank1]:     training_args = PPOConfig(\n"
        "[rank1]:   File \"<string>\", line 163, in __init__\n";
    struct oom_report rep;
    scan_log(log, &rep);
    assert_true(rep.n_events >= 1);
    assert_string_equal(rep.events[0].kind, "gpu-ecc-error");
    assert_int_equal(rep.events[0].rank, 1);
    oom_report_release(&rep);
}

/* Markdown marks a paste wraps around figures (bold, code) are read past as
 * blanks are; a mark that splits a figure leaves it unknown, never the digits
 * before it as a byte count. Written here; on f87d1159 the first two lost the
 * request and the third read "1**72.00 MiB" as 1 byte. */
static void test_markdown_marks(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "RuntimeError: CUDA out of memory. Tried to allocate **20.00 MiB** (GPU 0; 7.79 GiB total "
        "capacity; 6.22 GiB already allocated; 11.31 MiB free; 6.34 GiB reserved in total by "
        "PyTorch)\n",
        &rep);
    assert_int_equal(e->bytes.requested, 20971520LL);
    assert_int_equal(e->bytes.reserved, 6807523164LL);
    oom_report_release(&rep);
    e = scan_primary("RuntimeError: CUDA out of memory. Tried to allocate `2.00 GiB` (GPU 1; "
                     "`7.79 GiB` total capacity; 6.22 GiB already allocated; 11.31 MiB free; "
                     "6.34 GiB reserved in total by PyTorch)\n",
                     &rep);
    assert_int_equal(e->bytes.requested, 2147483648LL);
    assert_int_equal(e->bytes.capacity, 8364448809LL);
    assert_int_equal(e->gpu, 1);
    oom_report_release(&rep);
    e = scan_primary("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1**72.00 MiB. "
                     "GPU 0 has a total capacity of 23.68 GiB of which 15.06 MiB is free.\n",
                     &rep);
    assert_int_equal(e->bytes.requested, -1);
    assert_int_equal(e->bytes.capacity, 25426206392LL);
    oom_report_release(&rep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pt_new_has_total),
        cmocka_unit_test(test_flashlight_memory_manager),
        cmocka_unit_test(test_tensorrt_requested_size),
        cmocka_unit_test(test_caffe2_device_option),
        cmocka_unit_test(test_dataparallel_replica_device),
        cmocka_unit_test(test_already_allocated_cut),
        cmocka_unit_test(test_mention_sizes),
        cmocka_unit_test(test_ggml_buffer_after_cuda_error),
        cmocka_unit_test(test_rank_from_rich_box),
        cmocka_unit_test(test_pt_generic_either_form),
        cmocka_unit_test(test_vllm_startup_memory),
        cmocka_unit_test(test_pt_old_reworded),
        cmocka_unit_test(test_rank_after_title),
        cmocka_unit_test(test_markdown_marks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
