/* Unit tests for lib/est's DeepSpeed ZeRO model (docs/estimate.md,
 * "DeepSpeed ZeRO") and the encoder forward without a KV cache: each figure
 * is worked by hand from what DeepSpeed's stage_1_and_2.py / stage3.py /
 * partition_parameters.py allocate (microsoft/DeepSpeed@38327e07) and what
 * BertModel.forward keeps (huggingface/transformers@004ad5f5). */
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

/* DeepSpeed runs ZeRO-1/2/3 on one GPU (HF Trainer with --deepspeed on a
 * single card); FSDP1 on one GPU switches to NO_SHARD (refused: --shard
 * none), FSDP2's fully_shard does not (--trainer torchtitan: prime-rl wraps
 * its model so on one GPU): its fp32 shard is the whole model there. */
static void test_zero_on_one_gpu(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16_MIXED, 1, 512);
    struct est_result r;
    struct oomlab_err err;
    wl.lora_r = 8;
    for (int s = EST_SHARD_ZERO1; s <= EST_SHARD_ZERO3; s++) {
        wl.shard = (enum est_shard)s;
        assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
        assert_true(r.comp[EST_C_MASTER].bytes > 0);
    }
    wl.shard = EST_SHARD_FSDP;
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
    assert_non_null(strstr(err.msg, "NO_SHARD"));
    wl.lora_r = 0;
    wl.trainer = EST_TRAINER_TORCHTITAN;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    struct est_result none;
    wl.shard = EST_SHARD_NONE;
    assert_int_equal(est_compute(&m, &wl, &none, &err), 0);
    /* nothing partitioned: the same fp32 weights and Adam states as unsharded */
    assert_int_equal(r.comp[EST_C_WEIGHTS].bytes, none.comp[EST_C_WEIGHTS].bytes);
    assert_int_equal(r.comp[EST_C_OPTIM].bytes, none.comp[EST_C_OPTIM].bytes);
}

/* ZeRO's master is `.clone().float()` of the partition and the optimizer
 * steps it: fp32 master and fp32 Adam states even for a bf16 model
 * (--precision bf16, HF bf16=True under DeepSpeed), divided by the GPUs
 * from stage 1 on. */
static void test_zero_master_any_dtype(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 512);
    struct est_result r;
    struct oomlab_err err;
    int64_t P = 0;
    wl.gpus = 2;
    wl.shard = EST_SHARD_ZERO2;
    assert_int_equal(est_params(&m, &wl, &P, NULL, &err), 0);
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_MASTER].bytes, 4 * P / 2);
    assert_int_equal(r.comp[EST_C_OPTIM].bytes, 8 * P / 2);
    assert_int_equal(r.comp[EST_C_WEIGHTS].bytes, 2 * P);
}

/* The ipg bucket is torch.empty(reduce_bucket_size) in the model dtype,
 * two with overlap_comm, whatever the trainable count: LoRA on ZeRO-2 with
 * overlap_comm holds 2 x 5e8 x 2 B at the start of backward (the old rule
 * capped it at the trainable params). */
static void test_zero_ipg_bucket(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 512);
    struct est_result r, off, small, none;
    struct oomlab_err err;
    wl.lora_r = 8;
    wl.gpus = 2;
    wl.shard = EST_SHARD_ZERO2;
    assert_false(est_ds_overlap(&wl)); /* DeepSpeed's default for stage 1/2 */
    wl.ds_overlap = 1;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_true(r.comp[EST_C_TEMP].bytes >= 2000000000LL);
    assert_true(est_ds_overlap(&wl));
    wl.ds_overlap = 0;
    assert_int_equal(est_compute(&m, &wl, &off, &err), 0);
    assert_int_equal(r.comp[EST_C_TEMP].bytes - off.comp[EST_C_TEMP].bytes, 1000000000LL);
    wl.ds_bucket = 200000000; /* QwenLM/Qwen finetune/ds_config_zero2.json: 2e8 */
    assert_int_equal(est_compute(&m, &wl, &small, &err), 0);
    assert_int_equal(off.comp[EST_C_TEMP].bytes - small.comp[EST_C_TEMP].bytes, 600000000LL);
    /* the levers offer transformers' "auto" bucket, saving the difference */
    struct est_lever lv[16];
    int nl = 0, found = 0;
    assert_int_equal(est_levers(&m, &wl, lv, 16, &nl, &err), 0);
    for (int i = 0; i < nl; i++)
        if (!strcmp(lv[i].what, "ds-bucket auto (hidden^2)")) found = lv[i].saves_bytes >= (2e8 - 4096.0 * 4096) * 2 * 1.01;
    assert_true(found);
    wl.ds_bucket = EST_DS_AUTO; /* transformers: hidden^2 */
    assert_int_equal(est_ds_bucket(&m, &wl), 4096LL * 4096);
    /* ZeRO-3 defaults to DeepSpeed's overlap_comm=True */
    wl.shard = EST_SHARD_ZERO3;
    wl.ds_overlap = -1;
    assert_true(est_ds_overlap(&wl));
    /* plain DDP on one GPU keeps none of it */
    wl.shard = EST_SHARD_NONE;
    wl.gpus = 1;
    assert_int_equal(est_compute(&m, &wl, &none, &err), 0);
    assert_true(none.comp[EST_C_TEMP].bytes < off.comp[EST_C_TEMP].bytes - 900000000LL);
}

/* The ZeRO-1/2 step: flatten(averaged_gradients).to(fp32) while the 16-bit
 * gradients are alive (2p + 4p beyond them), then the fp32 gradient with
 * the foreach step's copy (4p + 4p, the 16-bit gradients freed): the step's
 * temporaries are 6p beyond the 16-bit gradient partition. */
static void test_zero_step_fp32_grad(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16_MIXED, 1, 512);
    struct est_result r;
    struct oomlab_err err;
    int64_t P = 0;
    wl.ckpt = EST_CKPT_FULL;
    wl.shard = EST_SHARD_ZERO2;
    wl.gpus = 1;
    assert_int_equal(est_params(&m, &wl, &P, NULL, &err), 0);
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_string_equal(r.peak_phase, "optimizer step");
    assert_int_equal(r.comp[EST_C_GRADS].bytes, 2 * P);
    assert_int_equal(r.comp[EST_C_TEMP].bytes, 6 * P);
    /* ZeRO-3 steps sub-groups of 1e9 elements and keeps its gradient buffer
     * and ipg bucket: max(2s + 4s, 4s + 4s foreach) + hidden^2 x 2 B */
    wl.shard = EST_SHARD_ZERO3;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_TEMP].bytes, 8000000000LL + 2LL * 4096 * 4096);
    /* a fused step (DeepSpeed's FusedAdam) keeps no working copy */
    wl.fused = true;
    wl.foreach = false;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_TEMP].bytes, 6000000000LL + 2LL * 4096 * 4096);
}

/* ZeRO-Offload's host side: fp32 states and master, the fp32 gradient
 * partition, stage 1/2's 16-bit accumulation buffers under accumulation,
 * stage 3's gradient buffer on the CPU. */
static void test_zero_offload_host(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 512);
    struct est_result r;
    struct oomlab_err err;
    int64_t P = 0;
    wl.shard = EST_SHARD_ZERO2;
    wl.offload = EST_OFFLOAD_OPTIMIZER;
    assert_int_equal(est_params(&m, &wl, &P, NULL, &err), 0);
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.host_bytes, 16 * P);
    wl.grad_accum = 4;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.host_bytes, 18 * P);
    wl.shard = EST_SHARD_ZERO3;
    wl.gpus = 2;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.host_bytes, 18 * P / 2);
}

/* ZeRO-3 on one GPU: NoGatherHandle points param.data at the partition, so
 * nothing is gathered or prefetched; it keeps its ipg bucket (hidden^2 by
 * "auto") and its gradient buffer from init. Against plain training in the
 * same dtype the forward/backward moment differs by exactly those. */
static void test_zero3_one_gpu_gathers_nothing(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 2048);
    struct est_result z3, plain;
    struct oomlab_err err;
    int64_t P = 0, T = 0;
    wl.lora_r = 16;
    wl.ckpt = EST_CKPT_FULL;
    assert_int_equal(est_params(&m, &wl, &P, &T, &err), 0);
    assert_int_equal(est_compute(&m, &wl, &plain, &err), 0);
    wl.shard = EST_SHARD_ZERO3;
    assert_int_equal(est_compute(&m, &wl, &z3, &err), 0);
    assert_string_equal(z3.peak_phase, "forward/backward");
    assert_int_equal(z3.comp[EST_C_ACTS].bytes, plain.comp[EST_C_ACTS].bytes);
    assert_int_equal(z3.comp[EST_C_TEMP].bytes - plain.comp[EST_C_TEMP].bytes, 2LL * 4096 * 4096 + 2 * T);
    /* on two GPUs two gathered blocks and the prefetch bucket come back */
    wl.gpus = 2;
    struct est_result two;
    assert_int_equal(est_compute(&m, &wl, &two, &err), 0);
    assert_true(two.comp[EST_C_TEMP].bytes > z3.comp[EST_C_TEMP].bytes + 2 * est_ds_prefetch(&m, &wl));
}

/* An encoder's forward keeps no K, V (BertModel sets use_cache = False
 * unless config.is_decoder); a decoder does unless --cache none. */
static void test_encoder_forward_keeps_no_kv(void **state)
{
    (void)state;
    struct est_model bert = fx_preset("bert-base-uncased"), gpt2 = fx_preset("gpt2");
    struct est_workload wl = fx_workload(EST_BF16_MIXED, 1, 512);
    struct est_result r;
    struct oomlab_err err;
    char buf[320];
    wl.mode = EST_MODE_INFER;
    wl.precision = EST_FP32;
    wl.batch = 8;
    wl.head = EST_HEAD_NONE;
    assert_int_equal(est_compute(&bert, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_KV].bytes, 0);
    assert_non_null(strstr(est_cache_describe(&bert, &wl, buf, sizeof buf), "encoder"));
    /* its padding mask is (batch, 1, 1, seq), no causal square, eager too */
    wl.attention = EST_ATTN_EAGER;
    assert_int_equal(est_compute(&bert, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_TEMP].bytes, 0);
    wl.attention = EST_ATTN_SDPA;
    assert_int_equal(est_compute(&gpt2, &wl, &r, &err), 0);
    assert_true(r.comp[EST_C_KV].bytes > 0);
    wl.cache = EST_CACHE_NONE;
    assert_int_equal(est_cache_parse("none"), EST_CACHE_NONE);
    assert_int_equal(est_compute(&gpt2, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_KV].bytes, 0);
    wl.gen_len = 16; /* generating without a cache reruns the sequence each step: still no K, V kept */
    assert_int_equal(est_compute(&gpt2, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_KV].bytes, 0);
    assert_non_null(strstr(r.peak_phase, "without a KV cache"));
}

/* ZeRO-3 on several GPUs, model built outside deepspeed.zero.Init
 * (--ds-zero-init off): torch's F.linear saves weight.t(), a view that keeps
 * each gathered 16-bit weight alive from its forward to its backward after
 * free_param swapped param.data out, so the start of backward holds every
 * block's linear weights and the head in full (not two gathered blocks).
 * Worked for Llama-3-8B fp16: 2 B x (32 blocks' linears + the 128256 x 4096
 * head) against what zero.Init's run keeps at the turn (the head, which
 * beats two blocks: test_zero3_reuse_distance_turn). Under zero.Init (the default) DeepSpeed's
 * LinearFunctionForZeroStage3 saves the parameter itself: unchanged. One
 * GPU gathers nothing, block checkpointing saves nothing in forward: no
 * change either. */
static void test_zero3_torch_linear_keeps_gathered_weights(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-3-8b");
    struct est_workload wl = fx_workload(EST_FP16, 1, 2048);
    wl.master_weights = true;
    wl.shard = EST_SHARD_ZERO3;
    wl.gpus = 8;
    struct est_result zi, tl;
    struct oomlab_err err;
    assert_int_equal(est_compute(&m, &wl, &zi, &err), 0);
    wl.ds_zero_init = 0;
    assert_int_equal(est_compute(&m, &wl, &tl, &err), 0);
    long double L = 32, h = 4096, f = 14336, kv = 1024, V = 128256;
    long double lin = L * (h * h + 2 * h * kv + h * h + 3 * h * f);
    long double layer = lin / L + 2 * h; /* + the two RMSNorm weights */
    long double turn = 2 * 2 * layer; /* under zero.Init: two blocks, or what the reuse distance keeps */
    if (2 * V * h > turn) turn = 2 * V * h;
    long double want = 2 * (lin + V * h) - turn;
    long double got = (long double)(tl.comp[EST_C_TEMP].bytes - zi.comp[EST_C_TEMP].bytes);
    assert_true(got > want - 1e6L && got < want + 1e6L);
    char buf[512];
    assert_non_null(strstr(est_ds_describe(&m, &wl, buf, sizeof buf), "zero.Init"));
    /* block checkpointing: only the head's view, barely more than two blocks */
    wl.ckpt = EST_CKPT_FULL;
    assert_int_equal(est_compute(&m, &wl, &tl, &err), 0);
    wl.ds_zero_init = -1;
    assert_int_equal(est_compute(&m, &wl, &zi, &err), 0);
    assert_true(tl.comp[EST_C_TEMP].bytes - zi.comp[EST_C_TEMP].bytes < (256LL << 20));
    /* offload_param copies each partition to the GPU to gather it, even on
     * one GPU: torch's linear keeps those copies too (Llama-3-8B has no
     * ckpt here; the turn keeps the head either way) */
    wl.ckpt = EST_CKPT_NONE;
    wl.gpus = 1;
    wl.offload = EST_OFFLOAD_PARAMS;
    wl.ds_zero_init = -1;
    assert_int_equal(est_compute(&m, &wl, &zi, &err), 0);
    wl.ds_zero_init = 0;
    assert_int_equal(est_compute(&m, &wl, &tl, &err), 0);
    got = (long double)(tl.comp[EST_C_TEMP].bytes - zi.comp[EST_C_TEMP].bytes);
    assert_true(got > want - 1e6L && got < want + 1e6L);
    wl.offload = EST_OFFLOAD_NONE;
    wl.ds_zero_init = -1;
    /* one GPU: NoGatherHandle, nothing gathered either way */
    wl.ckpt = EST_CKPT_NONE;
    wl.gpus = 1;
    assert_int_equal(est_compute(&m, &wl, &zi, &err), 0);
    wl.ds_zero_init = 0;
    assert_int_equal(est_compute(&m, &wl, &tl, &err), 0);
    assert_int_equal(tl.peak_allocated_bytes, zi.peak_allocated_bytes);
}

/* --explain / JSON assumed.deepspeed say which states are offloaded: with
 * offload_optimizer the fp32 master, the states and (stage 3) the gradient
 * partitions are in host memory and the step runs on the CPU; offload_param
 * moves the 16-bit partitions too. Without offload the old wording. */
static void test_zero_offload_described(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 512);
    char buf[512];
    wl.shard = EST_SHARD_ZERO3;
    wl.gpus = 4;
    assert_null(strstr(est_ds_describe(&m, &wl, buf, sizeof buf), "host memory"));
    assert_non_null(strstr(buf, "casts the gradient partition to fp32"));
    wl.offload = EST_OFFLOAD_OPTIMIZER;
    est_ds_describe(&m, &wl, buf, sizeof buf);
    assert_non_null(strstr(buf, "in host memory (offload_optimizer"));
    assert_non_null(strstr(buf, "gradient partitions in host memory"));
    assert_non_null(strstr(buf, "step runs on the CPU"));
    wl.offload = EST_OFFLOAD_PARAMS;
    assert_non_null(strstr(est_ds_describe(&m, &wl, buf, sizeof buf), "16-bit param partitions"));
}

/* A LoRA (r 8) run of batch 1 under ZeRO-3 on 8 GPUs, in bf16: the
 * workload of the stage3_* settings' tests below. */
static struct est_workload zero3_lora8(int64_t seq)
{
    struct est_workload wl = fx_workload(EST_BF16, 1, seq);
    wl.shard = EST_SHARD_ZERO3;
    wl.gpus = 8;
    wl.lora_r = 8;
    return wl;
}

/* ZeRO-3's stage3_max_reuse_distance (1e9) keeps what the trace reuses
 * soon gathered across the forward/backward turn: the head, and the last
 * modules of about D / 2 elements; in 16-bit max(head, D / 2) elements where
 * that beats two gathered blocks. Llama-2-7B (head 131M < 5e8): 1e9 B, not
 * 2 x 2 x 202M. A LoRA run at 16 tokens on 8 GPUs, so the forward/backward
 * moment's temporaries are these buffers: the ipg bucket (hidden^2 x 2 B),
 * the prefetch bucket (0.9 hidden^2 x 2 B), the adapters' gradient buffer
 * and a few MB of loss and block temporaries. */
static void test_zero3_reuse_distance_turn(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = zero3_lora8(16);
    struct est_result r;
    struct oomlab_err err;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    long double h = 4096, want = 1e9L + 2 * h * h + 2 * 0.9L * h * h;
    long double got = (long double)r.comp[EST_C_TEMP].bytes;
    assert_true(got >= want && got < want + 16e6L);
}

/* stage3_max_live_parameters caps the prefetch, not what is gathered:
 * fetch_sub_module prefetches min(max_live - n_available, prefetch bucket)
 * elements (partitioned_param_coordinator.py@38327e07 l.380). At the turn
 * the reuse distance keeps 5e8 elements of llama-2-7b gathered; a cap
 * 1e6 above that leaves room for 1e6 prefetched elements, a cap below it
 * for none, and the kept modules stay either way. */
static void test_zero3_max_live_caps_prefetch(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = zero3_lora8(16);
    struct est_result r;
    struct oomlab_err err;
    long double h = 4096, base = 1e9L + 2 * h * h;
    wl.ds_max_live = 501000000;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    long double got = (long double)r.comp[EST_C_TEMP].bytes;
    assert_true(got >= base + 2e6L && got < base + 2e6L + 16e6L);
    wl.ds_max_live = 400000000;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    got = (long double)r.comp[EST_C_TEMP].bytes;
    assert_true(got >= base && got < base + 16e6L);
    wl.ds_max_live = EST_DS_AUTO; /* DeepSpeed has no "auto" for it */
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
}

/* stage3_param_persistence_threshold: params of at most that many
 * elements are never released (__params_to_release skips ds_persist), so
 * on several GPUs each stays gathered whole beside its partition, and
 * under offload_param the partition is on the GPU too (_partition_param:
 * ds_persist -> local_device). A threshold of 2e7 takes llama-2-7b's four
 * 4096 x 4096 attention linears in all 32 blocks, not the 4096 x 11008
 * MLP linears. */
static void test_zero3_persistent_params(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = zero3_lora8(512);
    struct est_result d, big;
    struct oomlab_err err;
    long double attn = 32.0L * 4 * 4096 * 4096 * 2;
    assert_int_equal(est_compute(&m, &wl, &d, &err), 0);
    wl.ds_persist = 20000000;
    assert_int_equal(est_compute(&m, &wl, &big, &err), 0);
    assert_true(llabs(big.comp[EST_C_WEIGHTS].bytes - d.comp[EST_C_WEIGHTS].bytes - (long long)attn) < 1024);
    /* they count as gathered against stage3_max_live_parameters: 2.1e9
     * persistent elements leave no room for the prefetch bucket */
    assert_true(llabs(d.comp[EST_C_TEMP].bytes - big.comp[EST_C_TEMP].bytes - (long long)(2 * 0.9L * 4096 * 4096)) < 1024);
    wl.offload = EST_OFFLOAD_PARAMS;
    wl.ds_persist = 0;
    assert_int_equal(est_compute(&m, &wl, &d, &err), 0);
    wl.ds_persist = 20000000;
    assert_int_equal(est_compute(&m, &wl, &big, &err), 0);
    assert_true(llabs(big.comp[EST_C_WEIGHTS].bytes - d.comp[EST_C_WEIGHTS].bytes - (long long)(attn * 9 / 8)) < 1024);
    assert_true(llabs(d.host_bytes - big.host_bytes - (long long)(attn / 8)) < 1024);
    /* one GPU without offload: the partition is the parameter, nothing extra */
    wl.offload = EST_OFFLOAD_NONE;
    wl.gpus = 1;
    wl.ds_persist = 0;
    assert_int_equal(est_compute(&m, &wl, &d, &err), 0);
    wl.ds_persist = 20000000;
    assert_int_equal(est_compute(&m, &wl, &big, &err), 0);
    assert_int_equal(big.comp[EST_C_WEIGHTS].bytes, d.comp[EST_C_WEIGHTS].bytes);
}

/* A threshold of 0 (EST_DS_NONE; 0 in the field is "unset", DeepSpeed's
 * 1e5) persists nothing: the default's norm vectors (2 x 4096 per block
 * and the final norm, 1e5 >= 4096) are no longer gathered whole. */
static void test_zero3_persist_none(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = zero3_lora8(512);
    struct est_result d, none;
    struct oomlab_err err;
    assert_int_equal(est_ds_persist(&m, &wl), 100000);
    assert_int_equal(est_compute(&m, &wl, &d, &err), 0);
    wl.ds_persist = EST_DS_NONE;
    assert_int_equal(est_ds_persist(&m, &wl), 0);
    assert_int_equal(est_compute(&m, &wl, &none, &err), 0);
    long long norms = (32LL * 2 * 4096 + 4096) * 2; /* bf16 */
    assert_true(llabs(d.comp[EST_C_WEIGHTS].bytes - none.comp[EST_C_WEIGHTS].bytes - norms) < 1024);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_on_one_gpu),
        cmocka_unit_test(test_zero_master_any_dtype),
        cmocka_unit_test(test_zero_ipg_bucket),
        cmocka_unit_test(test_zero_step_fp32_grad),
        cmocka_unit_test(test_zero3_one_gpu_gathers_nothing),
        cmocka_unit_test(test_zero_offload_host),
        cmocka_unit_test(test_zero3_torch_linear_keeps_gathered_weights),
        cmocka_unit_test(test_zero_offload_described),
        cmocka_unit_test(test_zero3_reuse_distance_turn),
        cmocka_unit_test(test_zero3_max_live_caps_prefetch),
        cmocka_unit_test(test_zero3_persistent_params),
        cmocka_unit_test(test_zero3_persist_none),
        cmocka_unit_test(test_encoder_forward_keeps_no_kv),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
