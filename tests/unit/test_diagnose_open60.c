/* Unit tests for the mechanisms read from the misses of heldout60 (distributed
 * training and clusters), opened for study after its blind figures were
 * recorded at b2a3e3cb (call 61/65, numbers 54/61, stages 9/18). Each case
 * has a guard that must stay as it was. The pastes are written here in the
 * shape of the posts named beside them (the tools' own wording, from their
 * sources), not copied from the threads. */
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
#include "scan_fixture.h"

/* The first event's kind of a log with no GPU OOM. */
static void expect_lookalike_kind(const char *log, const char *kind)
{
    struct oom_report rep;
    scan_log(log, &rep);
    assert_true(rep.primary < 0);
    assert_true(rep.n_events > 0);
    assert_string_equal(rep.events[0].kind, kind);
    oom_report_release(&rep);
}

/* Rust's standard library aborts a process whose heap allocation failed
 * with "memory allocation of {size} bytes failed" (the default alloc error
 * hook, std::alloc::handle_alloc_error). Rust extensions in training runs
 * print it on the host: huggingface/tokenizers#1847 (encoding 1GB of text on
 * a 64GB machine), #159 (a WordPiece vocabulary from a 115GB file, glued to
 * the shell's "Aborted"), DeepSpeed-Chat's ranks (heldout60 h60-35, under a
 * launcher line naming CUDA_VISIBLE_DEVICES). Host memory, not the GPU. */
static void test_rust_alloc_abort_is_host(void **state)
{
    (void)state;
    expect_lookalike_kind("memory allocation of 21474836480 bytes failed\n"
                          "\n"
                          "I read the file into a str and call tokenizer.encode(text). After a couple "
                          "minutes I get the error above.\n",
                          "host-cpu-alloc");
    expect_lookalike_kind("Size limit for input text file\n"
                          "\n"
                          "As the pairs counting was going on, I got this error `memory allocation of "
                          "150994960 bytes failedAborted`.\n",
                          "host-cpu-alloc");
    expect_lookalike_kind("Step 2 fails\n"
                          "\n"
                          "[2023-04-16 21:36:09,031] [INFO] [launch.py:249:main] Setting "
                          "CUDA_VISIBLE_DEVICES=0,1,2,3\n"
                          "[2023-04-16 21:36:16,042] [INFO] [comm.py:586:init_distributed] Initializing "
                          "TorchBackend in DeepSpeed with backend nccl\n"
                          "memory allocation of 2097152 bytes failed\n"
                          "[2023-04-16 21:54:13,235] [INFO] [launch.py:428:sigkill_handler] Killing "
                          "subprocess 62215\n",
                          "host-cpu-alloc");
    /* guard: a device's allocation in the same words is not the host's */
    struct oom_report rep;
    scan_log("CUDA memory allocation of 2097152 bytes failed\n", &rep);
    for (size_t i = 0; i < rep.n_events; i++) assert_string_not_equal(rep.events[i].kind, "host-cpu-alloc");
    oom_report_release(&rep);
}

/* Determined's launch wrapper puts "[rank=N] " before every line a worker
 * prints (determined-ai/determined:harness/determined/launch/wrap_rank.py@
 * 3ff6bf9c, forward_stream), behind a field the trial log may leave empty
 * ("[] [rank=0] RuntimeError: CUDA out of memory ...", heldout60 h60-40). */
static void test_determined_rank_prefix(void **state)
{
    (void)state;
    static const char msg[] =
        "RuntimeError: CUDA out of memory. Tried to allocate 824.00 MiB (GPU 0; 7.93 GiB total capacity; "
        "4.71 GiB already allocated; 362.38 MiB free; 5.77 GiB reserved in total by PyTorch)\n";
    char log[1024];
    struct oom_report rep;
    snprintf(log, sizeof log, "[rank=1] %s", msg);
    assert_int_equal(scan_primary(log, &rep)->rank, 1);
    oom_report_release(&rep);
    snprintf(log, sizeof log, "> [] [rank=0] %s", msg);
    assert_int_equal(scan_primary(log, &rep)->rank, 0);
    oom_report_release(&rep);
    /* guards: no number, no rank; "[rank3]:" as before */
    snprintf(log, sizeof log, "[rank=x] %s", msg);
    assert_int_equal(scan_primary(log, &rep)->rank, -1);
    oom_report_release(&rep);
    snprintf(log, sizeof log, "[rank3]: %s", msg);
    assert_int_equal(scan_primary(log, &rep)->rank, 3);
    oom_report_release(&rep);
}

/* TensorFlow 1 records the stack of every op it builds; the definition stack
 * its OOM points to ("see above for traceback") ends in framework/ops.py's
 * Operation.__init__ recording it (LiLabAtVT/DeepTE#33:
 * "ops.py, line 2005, in __init__ / self._traceback =
 * tf_stack.extract_stack()"; YunYang1994/tensorflow-yolov3#440, TF 1.9 on
 * Windows: "ops.py, line 1740, in __init__ / self._traceback =
 * self._graph._extract_stack()"; heldout60 h60-32 under Horovod). That
 * constructor builds a graph node, not a model: no load. */
static void test_tf1_definition_stack_constructor(void **state)
{
    (void)state;
    const char *deepte =
        "Caused by op 'dense_1/MatMul', defined at:\n"
        "  File \"train.py\", line 88, in <module>\n"
        "    main()\n"
        "  File \"/miniconda3/envs/deepte/lib/python3.6/site-packages/tensorflow/python/framework/"
        "op_def_library.py\", line 787, in _apply_op_helper\n"
        "    op_def=op_def)\n"
        "  File \"/miniconda3/envs/deepte/lib/python3.6/site-packages/tensorflow/python/framework/ops.py\", "
        "line 3616, in create_op\n"
        "    op_def=op_def)\n"
        "  File \"/miniconda3/envs/deepte/lib/python3.6/site-packages/tensorflow/python/framework/ops.py\", "
        "line 2005, in __init__\n"
        "    self._traceback = tf_stack.extract_stack()\n"
        "\n"
        "ResourceExhaustedError (see above for traceback): OOM when allocating tensor with shape[64,4096] "
        "and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n";
    assert_string_equal(primary_stage(deepte), "unknown");
    const char *yolo =
        "  File \"train.py\", line 60, in <module>\n"
        "    main()\n"
        "  File \"E:\\Anaconda3\\lib\\site-packages\\tensorflow\\python\\framework\\ops.py\", line 1740, "
        "in __init__\n"
        "    self._traceback = self._graph._extract_stack()  # pylint: disable=protected-access\n"
        "\n"
        "ResourceExhaustedError (see above for traceback): OOM when allocating tensor with "
        "shape[6,76,76,256] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator "
        "GPU_0_bfc\n";
    assert_string_equal(primary_stage(yolo), "unknown");
    /* guard: a model's own constructor still loads */
    const char *model_init =
        "Traceback (most recent call last):\n"
        "  File \"train.py\", line 60, in <module>\n"
        "    net = Net()\n"
        "  File \"/home/u/proj/model.py\", line 12, in __init__\n"
        "    self.emb = torch.zeros(50000, 8192, device='cuda')\n"
        "RuntimeError: CUDA out of memory. Tried to allocate 1.53 GiB (GPU 0; 7.93 GiB total capacity; "
        "6.71 GiB already allocated; 362.38 MiB free; 6.77 GiB reserved in total by PyTorch)\n";
    assert_string_equal(primary_stage(model_init), "load");
}

/* ZeRO-3 fetches a submodule's partitioned parameters from the hooks
 * around it, and the call says which pass asks:
 * "param_coordinator.fetch_sub_module(sub_module, forward=True)" in
 * pre_sub_module_forward_function, "forward=False" in
 * pre_sub_module_backward_function (deepspeedai/DeepSpeed:deepspeed/
 * runtime/zero/parameter_offload.py). A paste may keep only those code
 * lines under the message (Lightning with ZeRO-3 Offload, heldout60
 * h60-20), or the hook's frames (dhcode-cpp/X-R1#14 under GRPO). */
static void test_zero3_fetch_sub_module_pass(void **state)
{
    (void)state;
    static const char msg[] =
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB (GPU 0; 31.75 GiB "
        "total capacity; 30.25 GiB already allocated; 62.19 MiB free; 30.67 GiB reserved in total by "
        "PyTorch)\n";
    char log[2048];
    snprintf(log, sizeof log,
             "CUDA OOM with ZeRO Stage 3 Offload\n\n```\n%s"
             "    param_coordinator.fetch_sub_module(sub_module, forward=True)\n"
             "    param_buffer = torch.empty(\n```\n",
             msg);
    assert_string_equal(primary_stage(log), "forward");
    snprintf(log, sizeof log,
             "```\n%s"
             "    param_coordinator.fetch_sub_module(sub_module, forward=False)\n"
             "    param_buffer = torch.empty(\n```\n",
             msg);
    assert_string_equal(primary_stage(log), "backward");
    /* the hook's code line above the message, its header cut */
    snprintf(log, sizeof log,
             "[rank0]:     self.pre_sub_module_forward_function(module)\n"
             "[rank0]:     param_coordinator.fetch_sub_module(sub_module, forward=True)\n"
             "[rank0]: %s",
             msg);
    assert_string_equal(primary_stage(log), "forward");
    /* guard: the allocation's own code line alone names no pass */
    snprintf(log, sizeof log, "```\n%s    param_buffer = torch.empty(\n```\n", msg);
    assert_string_equal(primary_stage(log), "unknown");
}

/* NCCL's error that a CUDA call it made failed, without saying which
 * failure ("unhandled cuda error", ncclUnhandledCudaError), under a GPU OOM
 * the paste names in words: the OOM stands (ultralytics/ultralytics#19375 =
 * heldout60 h60-38, a '[rank1]:' traceback under the title "OOM Error for
 * MultiGPU"; heldout30 h30-89, "there will be a situation of out of
 * memory"). Guards: NCCL naming another CUDA failure under it ("Last error:
 * / Cuda failure 1 'invalid argument'", hiyouga/LlamaFactory#8036 on WSL2,
 * whose title says the system reports insufficient GPU memory); a hedge
 * ("It looks like this maybe an issue of running out of VRAM",
 * infiniflow/ragflow#2458); NCCL's system error, which names its own cause. */
static void test_nccl_unhandled_cuda_error_under_oom_words(void **state)
{
    (void)state;
    const char *ultralytics =
        "OOM Error for MultiGPU\n"
        "\n"
        "> [rank1]: Traceback (most recent call last):\n"
        "[rank1]:   File \"/root/trainer.py\", line 268, in _setup_train\n"
        "[rank1]:     dist.broadcast(self.amp, src=0)\n"
        "[rank1]:   File \"/usr/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py\", line 2727, "
        "in broadcast\n"
        "[rank1]:     work = group.broadcast([tensor], opts)\n"
        "[rank1]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/"
        "ProcessGroupNCCL.cpp:3384, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL ver\n";
    struct oom_report rep;
    const struct oom_event *e = scan_primary(ultralytics, &rep);
    assert_int_equal(e->rank, 1);
    oom_report_release(&rep);
    const char *prose =
        "NCCL Error 1: unhandled cuda error\n"
        "\n"
        "I ran the code according to the readme on a 3090 and got NCCL Error 1: unhandled cuda error. After "
        "disabling CUDNN, there will be a situation of out of memory.\n";
    scan_primary(prose, &rep);
    oom_report_release(&rep);
    /* guards */
    expect_no_gpu_oom(
        "Although the GPU memory is sufficient, the system reports insufficient GPU memory.\n"
        "\n"
        "```\n"
        "[rank2]:   File \"/usr/lib/python3.12/site-packages/torch/distributed/distributed_c10d.py\", line 4190, "
        "in barrier\n"
        "[rank2]:     work = group.barrier(opts=opts)\n"
        "[rank2]: torch.distributed.DistBackendError: NCCL error in: /opt/pytorch/torch/csrc/distributed/c10d/"
        "NCCLUtils.hpp:317, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.23.4\n"
        "[rank2]: ncclUnhandledCudaError: Call to CUDA function failed.\n"
        "[rank2]: Last error:\n"
        "[rank2]: Cuda failure 1 'invalid argument'\n"
        "```\n");
    expect_no_gpu_oom(
        "[Question]: Multi GPU {NCCL Error 1: unhandled cuda error (run with NCCL_DEBUG=INFO for details)}\n"
        "\n"
        "When I start to ask a question, an error message pops up \"NCCL Error 1: unhandled cuda error\". It "
        "looks like this maybe an issue of running out of VRAM, but I should still have 20-30GB VRAM left.\n");
    expect_no_gpu_oom(
        "OOM Error for MultiGPU\n"
        "\n"
        "[rank1]: Traceback (most recent call last):\n"
        "[rank1]:   File \"/usr/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py\", line 4551, "
        "in barrier\n"
        "[rank1]:     work = group.barrier(opts=opts)\n"
        "[rank1]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/"
        "NCCLUtils.hpp:268, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n"
        "[rank1]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device "
        "error.\n");
}

/* TensorFlow's stream executor line, "failed to allocate 4.00G (4294967296
 * bytes) from device: CUDA_ERROR_OUT_OF_MEMORY" (tensorflow/tensorflow
 * #12237, #14231; "...: out of memory" after it, #30912), cut inside its
 * status where the paste ends (heldout60 h60-31: "... from device: CUDA_"):
 * the device allocation's failure, its request read. Guards: the whole line
 * as before; another status; the cut words with a line after them. */
static void test_tf_stream_executor_line_cut(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "> Performing evaluation.2-1-4\n"
        "> 2020-04-22 15:55:35.613508: I tensorflow/stream_executor/cuda/cuda_driver.cc:801] failed to allocate "
        "4.00G (4294967296 bytes) from device: CUDA_", &rep);
    assert_int_equal(e->bytes.requested, 4294967296LL);
    oom_report_release(&rep);
    e = scan_primary("2017-08-12 08:25:16.508376: E tensorflow/stream_executor/cuda/cuda_driver.cc:924] failed to "
                     "allocate 1.51G (1617277696 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY\n", &rep);
    assert_int_equal(e->bytes.requested, 1617277696LL);
    oom_report_release(&rep);
    expect_no_gpu_oom("E tensorflow/stream_executor/cuda/cuda_driver.cc:924] failed to allocate 1.51G (1617277696 "
                      "bytes) from device: CUDA_ERROR_INVALID_VALUE\n");
    expect_no_gpu_oom("E tensorflow/stream_executor/cuda/cuda_driver.cc:924] failed to allocate 1.51G (1617277696 "
                      "bytes) from device: CUDA_\nERROR is what it says\n");
}

/* PaddlePaddle 1.x: the system allocator's "Cannot malloc X MB GPU memory"
 * is the pool's next chunk; the buddy allocator's lines after it give the
 * request, the device and what was free, then the total (paddle/fluid/
 * memory/malloc.cc, Alloc<CUDAPlace>: "Cannot allocate N bytes in GPU D,
 * available A bytes" / "total T"; later "Cannot allocate 98.00MB in GPU 0,
 * available 2.47GB"; PaddlePaddle/Paddle#11456 = heldout60 h60-46). Guard:
 * the chunk line alone keeps its size (PaddlePaddle/models#3011, "Cannot
 * malloc 49.0002 MB GPU memory"). */
static void test_paddle_buddy_allocator_lines(void **state)
{
    (void)state;
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "W0613 10:18:30.682221   182 system_allocator.cc:100] Cannot malloc 20031.3 MB GPU memory. Please "
        "shrink FLAGS_fraction_of_gpu_memory_to_use environment variable to a lower value. Current value is "
        "0.92\n"
        "W0613 10:18:30.684809   182 malloc.cc:99] Cannot allocate 102760448 bytes in GPU 0, available "
        "2650865664 bytes\n"
        "W0613 10:18:30.684826   182 malloc.cc:100] total 24032378880\n"
        "W0613 10:18:30.684834   182 malloc.cc:102] GpuMinChunkSize 256\n", &rep);
    assert_int_equal(e->bytes.requested, 102760448LL);
    assert_int_equal(e->bytes.free, 2650865664LL);
    assert_int_equal(e->bytes.capacity, 24032378880LL);
    assert_int_equal(e->gpu, 0);
    oom_report_release(&rep);
    e = scan_primary("W1010 system_allocator.cc:110] Cannot malloc 2048 MB GPU memory. Please shrink "
                     "FLAGS_fraction_of_gpu_memory_to_use environment variable to a lower value.\n"
                     "W1010 malloc.cc:120] Cannot allocate 98.00MB in GPU 1, available 2.47GB\n", &rep);
    assert_int_equal(e->bytes.requested, 98LL << 20);
    assert_int_equal(e->gpu, 1);
    assert_true(e->bytes.free > 0);
    oom_report_release(&rep);
    /* guard: the chunk line alone, its size the request as before */
    e = scan_primary("`Cannot malloc 49.0002 MB GPU memory. Please shrink FLAGS_fraction_of_gpu_memory_to_use or "
                     "FLAGS_initial_gpu_memory_in_mb environment variable to a lower value.`\n", &rep);
    assert_true(e->bytes.requested > (49LL << 20) && e->bytes.requested < (50LL << 20));
    assert_int_equal(e->bytes.capacity, -1);
    oom_report_release(&rep);
}

/* Ultralytics' BaseTrainer._setup_train builds the run before the first
 * epoch (model on its device, AMP check, DDP broadcast, dataloaders,
 * optimizer: ultralytics/engine/trainer.py): load (an OOM in check_amp under
 * it, ultralytics/ultralytics#16813; NCCL's broadcast error under the title
 * "OOM Error for MultiGPU", #19375 = heldout60 h60-38). Guard: the loop's
 * own step under _do_train is not set-up. */
static void test_ultralytics_setup_train(void **state)
{
    (void)state;
    static const char oom[] =
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of "
        "6.00 GiB of which 1.00 MiB is free.\n";
    char log[2048];
    snprintf(log, sizeof log,
             "Traceback (most recent call last):\n"
             "  File \"train.py\", line 9, in <module>\n"
             "    results = model.train(data=\"coco8-pose.yaml\", epochs=100, imgsz=640, batch=1)\n"
             "  File \"/x/ultralytics/engine/trainer.py\", line 207, in train\n"
             "    self._do_train(world_size)\n"
             "  File \"/x/ultralytics/engine/trainer.py\", line 323, in _do_train\n"
             "    self._setup_train(world_size)\n"
             "  File \"/x/ultralytics/engine/trainer.py\", line 264, in _setup_train\n"
             "    self.amp = torch.tensor(check_amp(self.model), device=self.device)\n"
             "  File \"/x/ultralytics/utils/checks.py\", line 695, in check_amp\n"
             "    a = m(im, device=device, verbose=False)[0].boxes.data\n"
             "%s",
             oom);
    assert_string_equal(primary_stage(log), "load");
    snprintf(log, sizeof log,
             "Traceback (most recent call last):\n"
             "  File \"/x/ultralytics/engine/trainer.py\", line 207, in train\n"
             "    self._do_train(world_size)\n"
             "  File \"/x/ultralytics/engine/trainer.py\", line 381, in _do_train\n"
             "    self.loss, self.loss_items = self.model(batch)\n"
             "  File \"/x/torch/nn/modules/module.py\", line 1501, in _call_impl\n"
             "    return forward_call(*args, **kwargs)\n"
             "%s",
             oom);
    assert_string_not_equal(primary_stage(log), "load");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rust_alloc_abort_is_host),
        cmocka_unit_test(test_determined_rank_prefix),
        cmocka_unit_test(test_tf1_definition_stack_constructor),
        cmocka_unit_test(test_zero3_fetch_sub_module_pass),
        cmocka_unit_test(test_nccl_unhandled_cuda_error_under_oom_words),
        cmocka_unit_test(test_tf_stream_executor_line_cut),
        cmocka_unit_test(test_paddle_buddy_allocator_lines),
        cmocka_unit_test(test_ultralytics_setup_train),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
