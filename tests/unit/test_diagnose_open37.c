/* Unit tests for the mechanisms read from the misses of heldout37 (vision,
 * generative, 3D, medical ... logs), opened for study after its blind
 * figures were recorded at dde05b75 (call 109/115, numbers 162/165, stages
 * 10/20). A Gaussian-splatting rasterizer's own line naming the pass that
 * failed; its trainer's "Training progress" bar ending a walk up; a GAN's
 * backward_G running a module forward; a loop told the validation phase
 * and handed the validation loader; a LoRA patch's "ERROR <weight key>"
 * line; COLMAP's GPU matcher failure; TF's BFC chunk dump alone.
 * Each case has a guard that must stay as it was. The pastes are written
 * here, in the shape of the posts the notes name, not copied from them. */
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

/* diff-gaussian-rasterization in debug mode prints which autograd pass the
 * CUDA rasterizer failed in, after the error (h37-10, h37-11 shapes). */
static void test_rasterizer_names_the_pass(void **state)
{
    (void)state;
    const char *fault =
        "Training progress:   0%|          | 0/7000 [00:00<?, ?it/s]\n"
        "[CUDA ERROR] in cuda_rasterizer/rasterizer_impl.cu\n"
        "Line 288: an illegal memory access was encountered\n"
        "An error occured in forward. Please forward snapshot_fw.dump for debugging.\n"
        "Traceback (most recent call last):\n"
        "  File \"train.py\", line 90, in training\n"
        "    out = render(cam, splats, pipe, bg)\n";
    assert_string_equal(first_stage_of(fault, NULL), "forward");

    const char *oom =
        "RuntimeError: CUDA out of memory. Tried to allocate 1.20 GiB (GPU 0; 23.69 GiB total capacity; "
        "20.10 GiB already allocated; 900.00 MiB free; 21.30 GiB reserved in total by PyTorch)\n"
        "\n"
        "An error occured in backward. Writing snapshot_bw.dump for debugging.\n";
    assert_string_equal(stage_of(oom), "backward");

    /* guard: a sentence about a forward pass after the message names none */
    const char *prose =
        "RuntimeError: CUDA out of memory. Tried to allocate 1.20 GiB (GPU 0; 23.69 GiB total capacity; "
        "20.10 GiB already allocated; 900.00 MiB free; 21.30 GiB reserved in total by PyTorch)\n"
        "No error occurred in my own forward code as far as I can tell.\n";
    assert_string_equal(stage_of(prose), "unknown");
}

/* graphdeco's trainer names its tqdm bar "Training progress": training is
 * under way, and the loading lines above it are over (h37-11 shape). */
static void test_training_progress_bar_ends_the_walk(void **state)
{
    (void)state;
    assert_true(stage_training_line("Training progress:   0%|          | 0/30000 [00:00<?, ?it/s]", 60));
    const char *log =
        "Loading Training Cameras\n"
        "Training progress:   3%|3         | 900/30000 [00:41<21:58, 22.07it/s]\n"
        "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 11.00 GiB total capacity; "
        "8.00 GiB already allocated; 1.50 GiB free; 9.00 GiB reserved in total by PyTorch)\n";
    assert_string_equal(stage_of(log), "unknown");
    /* guard: the loading line right above the error still names load */
    const char *load =
        "Loading Training Cameras\n"
        "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 11.00 GiB total capacity; "
        "8.00 GiB already allocated; 1.50 GiB free; 9.00 GiB reserved in total by PyTorch)\n";
    assert_string_equal(stage_of(load), "load");
}

/* A CycleGAN-style model's backward_G computes its losses (forward passes of
 * the generators) before it calls backward: a module forward under it is a
 * forward (h37-59 shape); autograd's own frames between keep backward. */
static void test_named_backward_runs_a_forward(void **state)
{
    (void)state;
    const char *fwd =
        "Traceback (most recent call last):\n"
        "  File \"train.py\", line 40, in <module>\n"
        "    gan.optimize_parameters()\n"
        "  File \"/w/models/pix2pix_model.py\", line 120, in optimize_parameters\n"
        "    self.backward_G()\n"
        "  File \"/w/models/pix2pix_model.py\", line 101, in backward_G\n"
        "    self.rec_A = self.netG_B(self.fake_B)\n"
        "  File \"/env/lib/python3.8/site-packages/torch/nn/modules/module.py\", line 1102, in _call_impl\n"
        "    return forward_call(*input, **kwargs)\n"
        "  File \"/w/models/networks.py\", line 377, in forward\n"
        "    return self.model(input)\n"
        "RuntimeError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 0; 7.80 GiB total capacity; "
        "6.90 GiB already allocated; 30.00 MiB free; 7.00 GiB reserved in total by PyTorch)\n";
    assert_string_equal(stage_of(fwd), "forward");

    /* guard: the loss's backward called from backward_G is a backward */
    const char *bwd =
        "Traceback (most recent call last):\n"
        "  File \"/w/models/pix2pix_model.py\", line 120, in optimize_parameters\n"
        "    self.backward_G()\n"
        "  File \"/w/models/pix2pix_model.py\", line 110, in backward_G\n"
        "    self.loss_G.backward()\n"
        "  File \"/env/lib/python3.8/site-packages/torch/_tensor.py\", line 307, in backward\n"
        "    torch.autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)\n"
        "RuntimeError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 0; 7.80 GiB total capacity; "
        "6.90 GiB already allocated; 30.00 MiB free; 7.00 GiB reserved in total by PyTorch)\n";
    assert_string_equal(stage_of(bwd), "backward");

    /* guard: activation checkpointing recomputes a forward inside autograd's
     * backward: backward, the recomputation being part of it */
    const char *ckpt =
        "Traceback (most recent call last):\n"
        "  File \"train.py\", line 77, in train_step\n"
        "    loss.backward()\n"
        "  File \"/env/lib/python3.8/site-packages/torch/_tensor.py\", line 307, in backward\n"
        "    torch.autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)\n"
        "  File \"/env/lib/python3.8/site-packages/torch/autograd/__init__.py\", line 154, in backward\n"
        "    Variable._execution_engine.run_backward(\n"
        "  File \"/env/lib/python3.8/site-packages/torch/utils/checkpoint.py\", line 138, in backward\n"
        "    outputs = ctx.run_function(*detached_inputs)\n"
        "  File \"/w/net.py\", line 51, in forward\n"
        "    h = self.block(x)\n"
        "RuntimeError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 0; 7.80 GiB total capacity; "
        "6.90 GiB already allocated; 30.00 MiB free; 7.00 GiB reserved in total by PyTorch)\n";
    assert_string_equal(stage_of(ckpt), "backward");
}

/* A loop shared by training and validation, told its phase by a literal
 * and handed the validation loader: "iterate('val', args, val_loader,
 * model, ...)" (h37-107 shape). */
static void test_validation_phase_call(void **state)
{
    (void)state;
    const char *val =
        "Traceback (most recent call last):\n"
        "  File \"main.py\", line 210, in main\n"
        "    metrics = run_epoch(\"val\", cfg, val_loader, net, epoch)\n"
        "  File \"main.py\", line 95, in run_epoch\n"
        "    out = net(batch)\n"
        "  File \"/env/lib/python3.7/site-packages/torch/nn/modules/module.py\", line 489, in __call__\n"
        "    result = self.forward(*input, **kwargs)\n"
        "  File \"/w/model.py\", line 80, in forward\n"
        "    x = self.enc(x)\n"
        "RuntimeError: CUDA out of memory. Tried to allocate 52.00 MiB (GPU 0; 7.92 GiB total capacity; "
        "6.70 GiB already allocated; 50.00 MiB free; 40.00 MiB cached)\n";
    assert_string_equal(stage_of(val), "eval");
    assert_int_equal(line_stage("    loss = one_pass(model, valid_loader, phase='valid')"), OOM_STAGE_EVAL);

    /* guards: a timing pass over the validation loader is told no phase
     * (Swin's throughput); a loader or dataset built for the split runs no
     * pass; a call handed the training loader too trains; a literal that
     * indexes ("loaders['val']") is no argument */
    assert_int_equal(line_stage("    throughput(data_loader_val, model, logger)"), OOM_STAGE_UNKNOWN);
    assert_int_equal(line_stage("    val_loader = build_loader(\"val\", cfg)"), OOM_STAGE_UNKNOWN);
    assert_int_equal(line_stage("    run(\"val\", model, train_loader, val_loader)"), OOM_STAGE_UNKNOWN);
    assert_int_equal(line_stage("    out = step(model, loaders['val'], val_loader)"), OOM_STAGE_UNKNOWN);
}

/* ComfyUI/Fooocus merging a LoRA into a weight as the model is loaded
 * prints "ERROR <state-dict key> <exception>" (h37-23 shape). */
static void test_lora_weight_patch_line(void **state)
{
    (void)state;
    const char *old =
        "ERROR diffusion_model.input_blocks.4.1.transformer_blocks.0.attn1.to_q.weight CUDA out of memory. "
        "Tried to allocate 26.00 MiB. GPU 0 has a total capacty of 5.80 GiB of which 12.00 MiB is free. "
        "Of the allocated memory 5.40 GiB is allocated by PyTorch, and 90.00 MiB is reserved by PyTorch but "
        "unallocated.\n";
    assert_string_equal(stage_of(old), "load");
    /* ComfyUI's later lora.py: "ERROR {patch_type} {key} {e}" through logging */
    const char *newer =
        "ERROR lora diffusion_model.middle_block.1.proj_out.weight Allocation on device 0 would exceed "
        "allowed memory. (out of memory)\n"
        "Currently allocated     : 7.60 GiB\n";
    bool gpu = false;
    assert_string_equal(first_stage_of(newer, &gpu), "load");

    /* guards: an error logged with no weight key; a key that is no weight */
    const char *plain =
        "ERROR: CUDA out of memory. Tried to allocate 26.00 MiB. GPU 0 has a total capacity of 5.80 GiB of "
        "which 12.00 MiB is free.\n";
    assert_string_equal(stage_of(plain), "unknown");
    const char *layer =
        "ERROR model.layers.3 CUDA out of memory. Tried to allocate 26.00 MiB. GPU 0 has a total capacity of "
        "5.80 GiB of which 12.00 MiB is free.\n";
    assert_string_equal(stage_of(layer), "unknown");
}

/* COLMAP's SiftGPU matcher reports its failure as a GPU memory shortage
 * (colmap/colmap src/colmap/feature/sift.cc). */
static void test_colmap_matcher_memory(void **state)
{
    (void)state;
    const char *log =
        "Matching block [3/9, 1/9]\n"
        "E20240101 10:00:00.000000 1234 sift.cc:1466] Feature matching failed. This is probably caused by "
        "insufficient GPU memory. Consider reducing the maximum number of features and/or matches.\n";
    struct oom_report rep;
    scan_log(log, &rep);
    assert_true(rep.primary >= 0);
    assert_true(rep.events[rep.primary].gpu_oom);
    oom_report_release(&rep);

    /* guard: a matching failure for another reason is no GPU OOM */
    const char *other = "ERROR: Feature matching failed: database is locked\n";
    expect_no_gpu_oom(other);
}

/* TF's BFC allocator dumps its chunks (DumpMemoryLog: "Bin (256): Total
 * Chunks: …", "Chunk at 0x… of size N", newer "InUse at 7f… of size N")
 * only when an allocation failed; a paste cut to those lines (h37-84 shape)
 * stands for the failure as the "Sum Total of in-use chunks" line does. */
static void test_bfc_chunk_dump(void **state)
{
    (void)state;
    const char *old =
        "2018-03-02 09:12:01.000001: I C:\\tf_jenkins\\workspace\\tensorflow\\core\\common_runtime\\bfc_allocator.cc:671] "
        "Chunk at 0000000702A40000 of size 1280\n"
        "2018-03-02 09:12:01.000002: I C:\\tf_jenkins\\workspace\\tensorflow\\core\\common_runtime\\bfc_allocator.cc:671] "
        "Chunk at 0000000702A40500 of size 33554432\n";
    struct oom_report rep;
    scan_log(old, &rep);
    assert_true(rep.primary >= 0);
    assert_string_equal(rep.events[rep.primary].kind, "bfc-dump");
    oom_report_release(&rep);
    const char *newer =
        "2023-05-04 11:00:00.100000: I tensorflow/tsl/framework/bfc_allocator.cc:1083] InUse at 7f3a2c000000 of "
        "size 256 next 1\n"
        "2023-05-04 11:00:00.100001: I tensorflow/tsl/framework/bfc_allocator.cc:1083] InUse at 7f3a2c000100 of "
        "size 1280 next 2\n";
    scan_log(newer, &rep);
    assert_true(rep.primary >= 0);
    oom_report_release(&rep);

    /* guards: the pinned host allocator's dump is host RAM; a chunk line of
     * another program is no BFC dump */
    const char *host =
        "W tensorflow/core/common_runtime/bfc_allocator.cc:275] Allocator (cuda_host_bfc) ran out of memory "
        "trying to allocate 1.00GiB.  Current allocation summary follows.\n"
        "I tensorflow/core/common_runtime/bfc_allocator.cc:671] Chunk at 0x10205000000 of size 1073741824\n";
    expect_no_gpu_oom(host);
    const char *other = "uploader.cc:88] Chunk at 0x7f00 of size 4096 sent\n";
    expect_no_gpu_oom(other);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rasterizer_names_the_pass),
        cmocka_unit_test(test_training_progress_bar_ends_the_walk),
        cmocka_unit_test(test_named_backward_runs_a_forward),
        cmocka_unit_test(test_validation_phase_call),
        cmocka_unit_test(test_lora_weight_patch_line),
        cmocka_unit_test(test_colmap_matcher_memory),
        cmocka_unit_test(test_bfc_chunk_dump),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
