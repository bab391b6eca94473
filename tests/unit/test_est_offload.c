/* Unit tests for lib/est's activation offloading (--act-offload,
 * docs/estimate.md "CPU offload"): torchtune's OffloadActivations copies
 * every saved activation to pinned host memory in forward and brings it
 * back per autograd node in backward (pytorch/torchtune:
 * torchtune/training/_activation_offloading.py@bd2a0fc7). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "est_fixture.h"
#include "lib/est.h"
#include "lib/models.h"

/* Block checkpointing: the saved tensors are the L blocks' inputs, b x s x
 * h x 2 B each in bf16; all but the one in use live on the host, so host
 * memory rises by L - 1 of them. Under LoRA the peak is the loss's backward
 * with every input kept, so the activations term falls by the same; a full
 * fine-tune's first-block moment had freed those inputs anyway. */
static void test_act_offload_block_ckpt(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 2, 1024);
    struct est_result r0, r1;
    struct oomlab_err err;
    wl.ckpt = EST_CKPT_FULL;
    wl.lora_r = 16;
    assert_int_equal(est_compute(&m, &wl, &r0, &err), 0);
    wl.act_offload = true;
    assert_int_equal(est_compute(&m, &wl, &r1, &err), 0);
    int64_t ckpt = 2LL * 1024 * 4096 * 2; /* one block's input */
    assert_int_equal(r1.host_bytes - r0.host_bytes, (m.layers - 1) * ckpt);
    assert_int_equal(r0.comp[EST_C_ACTS].bytes - r1.comp[EST_C_ACTS].bytes, (m.layers - 1) * ckpt);
    assert_int_equal(est_kind_of(&wl), EST_KIND_OFFLOAD);
}

/* Without checkpointing every block's saved tensors but one block's go to
 * the host: the GPU keeps a 1/L share of the blocks' activations. */
static void test_act_offload_no_ckpt(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 512);
    struct est_result r0, r1;
    struct oomlab_err err;
    assert_int_equal(est_compute(&m, &wl, &r0, &err), 0);
    wl.act_offload = true;
    assert_int_equal(est_compute(&m, &wl, &r1, &err), 0);
    int64_t moved = r1.host_bytes - r0.host_bytes;
    assert_true(moved > 0);
    assert_int_equal(r0.comp[EST_C_ACTS].bytes - r1.comp[EST_C_ACTS].bytes, moved);
    /* what stays is at least one block's share */
    assert_true(r1.comp[EST_C_ACTS].bytes * m.layers >= r0.comp[EST_C_ACTS].bytes - moved / (m.layers - 1));
}

/* Refused where it is not modelled: inference, selective checkpointing. */
static void test_act_offload_refused(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 512);
    struct est_result r;
    struct oomlab_err err;
    wl.act_offload = true;
    wl.ckpt = EST_CKPT_SELECTIVE;
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
    wl.ckpt = EST_CKPT_NONE;
    wl.mode = EST_MODE_INFER;
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
}

/* torchtune's optimizer_in_bwd: each gradient is freed at its hook, so the
 * step moment (every gradient + the step's working copy) is gone; the
 * gradients term is the largest parameter's, the embedding's. */
static void test_optim_in_bwd(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 512);
    struct est_result r0, r1;
    struct oomlab_err err;
    wl.ckpt = EST_CKPT_FULL;
    assert_int_equal(est_compute(&m, &wl, &r0, &err), 0);
    assert_string_equal(r0.peak_phase, "optimizer step");
    wl.optim_in_bwd = true;
    assert_int_equal(est_compute(&m, &wl, &r1, &err), 0);
    assert_int_equal(r1.comp[EST_C_GRADS].bytes, 2LL * m.vocab * m.hidden);
    assert_true(r1.peak_allocated_bytes < r0.peak_allocated_bytes);
    assert_int_equal(r1.comp[EST_C_OPTIM].bytes, r0.comp[EST_C_OPTIM].bytes);
    /* the recipe refuses accumulation with it */
    wl.grad_accum = 2;
    assert_int_equal(est_compute(&m, &wl, &r1, &err), -1);
}

/* DeepSpeed offload_optimizer, the gradient's way to the host, worked from
 * microsoft/DeepSpeed@38327e07. Stage 3 (stage3.py partition_grads): the
 * partition's host buffer is copied back (`grad_buffer.to(device)`, 16-bit)
 * and _constant_buffered_norm2 takes `part.data.double()` in chunks of
 * 250,000,000 elements. Stage 1/2 (stage_1_and_2.py set_norm_for_param_
 * grad_in_gpu): `.double()` of the param's slice of this rank's partition,
 * whole. */
static void test_ds_offload_norm_bytes(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_FP16, 1, 512);
    wl.master_weights = true;
    wl.shard = EST_SHARD_ZERO3;
    wl.offload = EST_OFFLOAD_OPTIMIZER;
    wl.gpus = 8;
    /* minGPT's 8192 x 32768 MLP linear over 8 GPUs: 33,554,432 per rank */
    assert_int_equal(est_ds_offload_norm(&m, &wl, 8192LL * 32768), 2LL * 33554432 + 8LL * 33554432);
    /* one GPU, a 400M-element embedding: its whole partition copied back,
     * the double taken 2.5e8 elements at a time */
    wl.gpus = 1;
    assert_int_equal(est_ds_offload_norm(&m, &wl, 400000000LL), 2LL * 400000000 + 8LL * 250000000);
    /* stage 2 on 4 GPUs: the slice is capped by the rank's partition
     * (6,738,415,616 / 4 = 1,684,603,904 elements), never chunked */
    wl.shard = EST_SHARD_ZERO2;
    wl.gpus = 4;
    assert_int_equal(est_ds_offload_norm(&m, &wl, 4096LL * 11008), 8LL * 4096 * 11008);
    assert_int_equal(est_ds_offload_norm(&m, &wl, 1LL << 31), 8LL * 1684603904);
}

/* The bucket's flat copy: reduce_scatter_coalesced (runtime/comm/
 * coalesced_collectives.py) torch.cat's every rank's chunk of a bucket of
 * several gradients, so under ZeRO-3 offload a reduce_bucket_size larger by
 * 1e8 elements costs 2 x 1e8 16-bit elements in backward (the bucket and its
 * copy); without offload the estimate keeps the bucket alone. */
static void test_ds_offload_bucket_copy(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_FP16, 1, 512);
    struct est_result small, big;
    struct oomlab_err err;
    wl.master_weights = true;
    wl.shard = EST_SHARD_ZERO3;
    wl.gpus = 8;
    wl.offload = EST_OFFLOAD_OPTIMIZER;
    wl.ds_bucket = 200000000;
    assert_int_equal(est_compute(&m, &wl, &small, &err), 0);
    wl.ds_bucket = 300000000;
    assert_int_equal(est_compute(&m, &wl, &big, &err), 0);
    assert_string_equal(big.peak_phase, "forward/backward");
    assert_int_equal(big.comp[EST_C_TEMP].bytes - small.comp[EST_C_TEMP].bytes, 2LL * 2 * 100000000);
    wl.offload = EST_OFFLOAD_NONE;
    wl.ds_bucket = 200000000;
    assert_int_equal(est_compute(&m, &wl, &small, &err), 0);
    wl.ds_bucket = 300000000;
    assert_int_equal(est_compute(&m, &wl, &big, &err), 0);
    assert_int_equal(big.comp[EST_C_TEMP].bytes - small.comp[EST_C_TEMP].bytes, 2LL * 100000000);
}

/* At the end of backward the input embedding's gradient leaves last. With
 * a tied vocabulary of 10^6 x 512 (5.12e8 elements, larger than the 2e8 bucket,
 * so reduced alone beside its own 16-bit gradient) on one GPU under
 * ZeRO-3 offload the moment is the bucket kept from init + the gradient +
 * its copy back + the chunked double: 4e8 + 1.024e9 + 1.024e9 + 2e9 bytes,
 * the temporaries of the end-of-backward phase when it is the peak. LoRA
 * has no such moment (the adapters' gradients are small). */
static void test_ds_offload_embedding_last(void **state)
{
    (void)state;
    struct est_model m = fx_preset("gpt2");
    struct est_workload wl = fx_workload(EST_FP16, 1, 8);
    struct est_result r;
    struct oomlab_err err;
    m.vocab = 1000000;
    m.hidden = 512;
    m.heads = 8;
    m.head_dim = 64;
    m.kv_heads = 8;
    m.ffn = 2048;
    m.layers = 2;
    m.tied_embeddings = true; /* the head's gradient joins the embedding's: reduced once, at the end */
    assert_int_equal(est_model_finish(&m, &err), 0);
    wl.master_weights = true;
    wl.shard = EST_SHARD_ZERO3;
    wl.offload = EST_OFFLOAD_OPTIMIZER;
    wl.ds_bucket = 200000000;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_string_equal(r.peak_phase, "optimizer step"); /* the step moment: end of backward + step */
    int64_t E = 1000000LL * 512;
    assert_int_equal(r.comp[EST_C_TEMP].bytes, 2LL * 200000000 + 2 * E + 2 * E + 8LL * 250000000);
    wl.lora_r = 8;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_true(r.comp[EST_C_TEMP].bytes < 2LL * E);
}

/* FSDP1 with CPUOffload(offload_params=True) keeps the reduce-scatter
 * output on the GPU as _saved_grad_shard until the end of backward, and
 * under no_sync the unsharded flat gradient in .grad (torch/distributed/
 * fsdp/fully_sharded_data_parallel.py@v1.13.1 _post_backward_hook). A bf16
 * llama-2-7b on 4 GPUs: the gradient term is the shard, 2 P / 4 bytes;
 * accumulating 2 micro-batches (accelerate's and Lightning's no_sync) adds
 * the unsharded 2 P bytes to the forward/backward peak. FSDP2's
 * CPUOffloadPolicy (--trainer torchtitan) moves the reduced shard to the
 * host and keeps nothing. */
static void test_fsdp1_offload_grad_shard(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 512);
    struct est_result one, two;
    struct oomlab_err err;
    int64_t P = 6738415616LL;
    wl.shard = EST_SHARD_FSDP;
    wl.gpus = 4;
    wl.offload = EST_OFFLOAD_PARAMS;
    assert_int_equal(est_compute(&m, &wl, &one, &err), 0);
    assert_int_equal(one.comp[EST_C_GRADS].bytes, 2 * P / 4);
    wl.grad_accum = 2;
    assert_int_equal(est_compute(&m, &wl, &two, &err), 0);
    assert_string_equal(two.peak_phase, "forward/backward");
    assert_int_equal(two.peak_allocated_bytes - one.peak_allocated_bytes, 2 * P);
    wl.grad_accum = 1;
    wl.trainer = EST_TRAINER_TORCHTITAN;
    assert_int_equal(est_compute(&m, &wl, &one, &err), 0);
    assert_int_equal(one.comp[EST_C_GRADS].bytes, 0);
}

/* ColossalAI Gemini, static placement (hpcaitech/ColossalAI:colossalai/
 * zero/gemini/gemini_ddp.py, placement_policy.py @4f9953be): a bf16
 * llama-2-7b (P = 6,738,415,616) over 8 GPUs keeps 2P/8 of 16-bit chunk
 * shards, 4P/8 of fp32 master chunks and 8P/8 of HybridAdam's fp32 states,
 * no gradient buffer (the gradient is written into the 16-bit chunk). Two
 * chunks are gathered at a time, each the largest param (the 32000 x 4096
 * head, 131,072,000 elements) in 16-bit; LoRA chunks only its adapters, so
 * its chunks fall to the 32 Mi-element minimum and its frozen weights stay
 * whole. --offload optimizer (offload_optim_frac 1.0) moves master, states
 * and an fp32 gradient shard to the host, --offload params the 16-bit
 * shards too. */
static void test_gemini_static(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 512);
    struct est_result r, lora;
    struct oomlab_err err;
    int64_t P = 6738415616LL, head = 32000LL * 4096, adapters = 32LL * 2 * (4096 * 8 + 8 * 4096);
    wl.shard = EST_SHARD_GEMINI;
    wl.gpus = 8;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_WEIGHTS].bytes, 2 * P / 8);
    assert_int_equal(r.comp[EST_C_MASTER].bytes, 4 * P / 8);
    assert_int_equal(r.comp[EST_C_OPTIM].bytes, 8 * P / 8);
    assert_int_equal(r.comp[EST_C_GRADS].bytes, 0);
    assert_int_equal(est_kind_of(&wl), EST_KIND_SHARDED);
    wl.lora_r = 8;
    assert_int_equal(est_compute(&m, &wl, &lora, &err), 0);
    assert_int_equal(lora.comp[EST_C_WEIGHTS].bytes, 2 * P + 2 * adapters / 8);
    assert_int_equal(r.comp[EST_C_TEMP].bytes - lora.comp[EST_C_TEMP].bytes, 2 * 2 * (head - 33554432LL));
    wl.lora_r = 0;
    wl.offload = EST_OFFLOAD_OPTIMIZER;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_MASTER].bytes + r.comp[EST_C_OPTIM].bytes, 0);
    assert_int_equal(r.host_bytes, (4 + 8 + 4) * P / 8);
    assert_int_equal(r.comp[EST_C_WEIGHTS].bytes, 2 * P / 8);
    assert_int_equal(est_kind_of(&wl), EST_KIND_OFFLOAD);
    wl.offload = EST_OFFLOAD_PARAMS;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_WEIGHTS].bytes, 0);
    assert_int_equal(r.host_bytes, (4 + 8 + 4 + 2) * P / 8);
    /* no autocast under Gemini: mixed precision is refused */
    wl.offload = EST_OFFLOAD_NONE;
    wl.precision = EST_BF16_MIXED;
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_act_offload_block_ckpt),
        cmocka_unit_test(test_act_offload_no_ckpt),
        cmocka_unit_test(test_act_offload_refused),
        cmocka_unit_test(test_optim_in_bwd),
        cmocka_unit_test(test_ds_offload_norm_bytes),
        cmocka_unit_test(test_ds_offload_bucket_copy),
        cmocka_unit_test(test_ds_offload_embedding_last),
        cmocka_unit_test(test_fsdp1_offload_grad_shard),
        cmocka_unit_test(test_gemini_static),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
