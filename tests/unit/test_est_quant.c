/* Unit tests for lib/est's 4-bit / QLoRA / PEFT mechanisms (issue 13): how
 * bitsandbytes' 4-bit weights are sharded, gathered and offloaded, checked
 * on hand-worked Llama-2-7B figures. Each test fails on the estimator before
 * the mechanism it names (commit messages say which). */
#include <math.h>
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

/* Llama-2-7B: 32 blocks of q, k, v, o (4096 x 4096) and gate, up, down
 * (4096 x 11008); embedding and untied head 32000 x 4096 */
#define L7_LIN (32.0 * (4.0 * 4096 * 4096 + 3.0 * 4096 * 11008))
#define L7_BIG (32000.0 * 4096)

static void qlora_7b(struct est_model *m, struct est_workload *wl)
{
    *m = fx_preset("llama-2-7b");
    *wl = fx_workload(EST_BF16, 1, 2048);
    wl->quant = EST_QUANT_NF4_DQ;
    wl->lora_r = 64;
    wl->lora_targets = EST_LORA_ALL & ~EST_LORA_O & ~EST_LORA_HEAD;
    wl->lora_dropout = 0.1;
    wl->ckpt = EST_CKPT_FULL;
    wl->gpus = 2;
    wl->shard = EST_SHARD_FSDP;
}

/* the same on one GPU, unsharded */
static void qlora_7b_one_gpu(struct est_model *m, struct est_workload *wl)
{
    qlora_7b(m, wl);
    wl->gpus = 1;
    wl->shard = EST_SHARD_NONE;
}

static void assert_near(double got, double want)
{
    if (fabs(got - want) > 2.0) fail_msg("got %.0f, want %.0f", got, want);
}

/* FSDP / ZeRO-3 shard parameters only: bitsandbytes' quant state (nf4-dq:
 * an 8-bit absmax per 64 weights + an fp32 scale per 256 blocks) is an
 * attribute of Params4bit and stays whole on every GPU, also when the
 * parameters are offloaded (AnswerDotAI/fsdp_qlora train.py@50efa1efa0ed,
 * load_and_quantize). Before: the whole 0.516 B per weight was divided by
 * the GPU count, and params offload left 0 bytes of weights on the GPU. */
static void test_quant_state_replicated(void **state)
{
    (void)state;
    struct est_model m;
    struct est_workload wl;
    struct est_result r;
    struct oomlab_err err;
    qlora_7b(&m, &wl);
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    double P = (double)r.params, qs = L7_LIN * (1.0 / 64 + 4.0 / (64 * 256));
    double packed = L7_LIN * (0.5 + 1.0 / 64 + 4.0 / (64 * 256)) + (P - L7_LIN) * 2;
    assert_near((double)r.comp[EST_C_WEIGHTS].bytes, (packed - qs) / 2 + qs);
    wl.offload = EST_OFFLOAD_PARAMS;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_near((double)r.comp[EST_C_WEIGHTS].bytes, qs);
    /* host: the packed shards, AdamW's two 16-bit states and the gradients */
    assert_near((double)r.host_bytes, (packed - qs) / 2 + 3.0 * (double)r.trainable_params);
    /* one GPU, no sharding: the weights as they are */
    wl.offload = EST_OFFLOAD_NONE;
    wl.gpus = 1;
    wl.shard = EST_SHARD_NONE;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    /* (PEFT's adapters are fp32 on uint8 storage: 2 B more each) */
    assert_near((double)r.comp[EST_C_WEIGHTS].bytes, packed + 2.0 * (double)r.trainable_params);
}

/* FSDP all-gathers a block's flat parameter as stored: under 4-bit the
 * packed data (two weights a byte, in quant_storage dtype) plus the 16-bit
 * norms, not 16-bit linears. Two blocks are gathered at a time; the root
 * unit (embedding and head, 16-bit) stays gathered. Before: 2 B per weight. */
static void test_fsdp_gathers_packed_4bit(void **state)
{
    (void)state;
    struct est_model m;
    struct est_workload wl;
    struct est_result fsdp, z2;
    struct oomlab_err err;
    qlora_7b(&m, &wl);
    wl.quant_storage = EST_QSTORE_MODEL; /* 16-bit adapters under ZeRO-2 as under FSDP */
    assert_int_equal(est_compute(&m, &wl, &fsdp, &err), 0);
    wl.shard = EST_SHARD_ZERO2; /* same fwd/bwd terms, its own bucket term */
    assert_int_equal(est_compute(&m, &wl, &z2, &err), 0);
    double P = (double)fsdp.params, Pt = (double)fsdp.trainable_params;
    double layer = (P - 2 * L7_BIG) / 32, lin = L7_LIN / 32;
    double gathered = 2 * (0.5 * lin + 2 * (layer - lin)) + 2 * 2 * L7_BIG;
    /* ZeRO-2's reduce bucket(s): reduce_bucket_size elements of 16-bit
     * gradients whatever the trainable count (test_est_ds) */
    double bucket = (double)est_ds_bucket(&m, &wl) * 2 * (est_ds_overlap(&wl) ? 2 : 1);
    (void)Pt;
    assert_near((double)(fsdp.comp[EST_C_TEMP].bytes - z2.comp[EST_C_TEMP].bytes), gathered - bucket);
    /* LoRA on 16-bit weights gathers 16-bit blocks */
    wl.quant = EST_QUANT_NONE;
    wl.shard = EST_SHARD_FSDP;
    assert_int_equal(est_compute(&m, &wl, &fsdp, &err), 0);
    wl.shard = EST_SHARD_ZERO2;
    assert_int_equal(est_compute(&m, &wl, &z2, &err), 0);
    assert_near((double)(fsdp.comp[EST_C_TEMP].bytes - z2.comp[EST_C_TEMP].bytes),
                2 * 2 * layer + 2 * 2 * L7_BIG - bucket);
}

/* Whole-block checkpointing: the loss's backward (fp32 log-softmax and CE's
 * gradients) runs before any block is recomputed, and a recomputed block's
 * activations come after those buffers are freed, so the fwd/bwd peak is
 * the larger moment, not the sum (torch.utils.checkpoint, reentrant and
 * not). Before: acts (with one recomputed block) + logits + loss buffers. */
static void test_ckpt_moments(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 4, 2048);
    struct est_result r;
    struct oomlab_err err;
    wl.lora_r = 8;
    wl.ckpt = EST_CKPT_FULL;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    const int64_t T = 4 * 2048, V = 32000;
    /* the loss's moment: 32 block inputs (2 h) + outside the blocks (RoPE
     * cos/sin 2 x 128 x 2, the final RMSNorm's fp32 copy and rsqrt 4 h + 4) */
    assert_int_equal(r.comp[EST_C_ACTS].bytes, T * (32 * 8192 + 512 + 16388));
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, T * V * 6);
    assert_int_equal(r.comp[EST_C_TEMP].bytes, T * V * 8);
    /* a small vocabulary: the recomputed block's moment wins; HF's caller
     * still holds the logits, the loss buffers are gone */
    struct est_model s = m;
    s.vocab = 256;
    assert_int_equal(est_model_finish(&s, &err), 0);
    assert_int_equal(est_compute(&s, &wl, &r, &err), 0);
    assert_true(r.comp[EST_C_ACTS].bytes > T * (32 * 8192 + 512 + 16388));
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, T * 256 * 2);
    assert_int_equal(r.comp[EST_C_TEMP].bytes, T * 3 * 2 * 11008);
    /* torchtune deletes the logits before backward: nothing held then */
    wl.trainer = EST_TRAINER_TORCHTUNE;
    assert_int_equal(est_compute(&s, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, 0);
    /* without checkpointing every block is alive at the loss: the sum */
    wl.trainer = EST_TRAINER_HF;
    wl.ckpt = EST_CKPT_NONE;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, T * V * 6);
    assert_int_equal(r.comp[EST_C_TEMP].bytes, T * V * 8);
    assert_true(r.comp[EST_C_ACTS].bytes > T * 32 * 8192 * 4);
}

/* --loop-holds logits (was --keep-logits): the loop holds the logits as returned through backward —
 * torchtune's recipes before 8a98fbaa3 (the fp32 shifted copy), fsdp_qlora's
 * `output` (Llama's heads return fp32). Before: no such option; torchtune
 * always deleted them, HF held them in the activation dtype. */
static void test_keep_logits(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b"), g = fx_preset("gpt2");
    struct est_workload wl = fx_workload(EST_BF16, 2, 512);
    struct est_result r;
    struct oomlab_err err;
    wl.lora_r = 8;
    wl.trainer = EST_TRAINER_TORCHTUNE;
    wl.loop_holds = EST_KEEP_LOGITS;
    const int64_t T = 2 * 512;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, T * 32000 * 8); /* held fp32 + log-softmax */
    assert_non_null(strstr(est_loss_path(&m, &wl), "before 8a98fbaa3"));
    wl.loop_holds = EST_KEEP_AUTO;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, T * 32000 * 4);
    /* HF: Llama's head returns fp32 while it computes its own loss (before
     * transformers 4.46, fsdp_qlora's era), GPT-2's the activation dtype */
    wl.trainer = EST_TRAINER_HF;
    wl.loop_holds = EST_KEEP_LOGITS;
    wl.transformers = 4045;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, T * 32000 * 8);
    wl.transformers = 0; /* today's: self.loss_function upcasts, the returned logits stay 16-bit */
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, T * 32000 * 6);
    assert_int_equal(est_compute(&g, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, T * 50257 * 6);
    /* under block checkpointing a recomputed block's moment keeps them too */
    struct est_model s = m;
    s.vocab = 256;
    assert_int_equal(est_model_finish(&s, &err), 0);
    wl.trainer = EST_TRAINER_TORCHTUNE;
    wl.ckpt = EST_CKPT_FULL;
    assert_int_equal(est_compute(&s, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, T * 256 * 4);
}

/* PEFT leaves an adapter in fp32 when its base weight is not floating point
 * (peft lora/layer.py@v0.10.0 update_layer); bitsandbytes stores 4-bit data
 * as uint8 by default, so on one GPU a PEFT QLoRA model's adapters, their
 * gradients and AdamW states are fp32, and each adapter runs on an fp32 copy
 * of its input (bnb.py: x.to(lora_A.weight.dtype)). quant_storage in the
 * model's dtype (FSDP/ZeRO-3, fsdp_qlora) makes them 16-bit. Before: 16-bit
 * everywhere. */
static void test_peft_fp32_adapters(void **state)
{
    (void)state;
    struct est_model m;
    struct est_workload wl;
    struct est_result q, s;
    struct oomlab_err err;
    qlora_7b_one_gpu(&m, &wl);
    wl.ckpt = EST_CKPT_NONE;
    assert_int_equal(est_compute(&m, &wl, &q, &err), 0);
    int64_t Pt = q.trainable_params;
    assert_int_equal(q.comp[EST_C_GRADS].bytes, 4 * Pt);
    assert_int_equal(q.comp[EST_C_OPTIM].bytes, 8 * Pt);
    wl.quant_storage = EST_QSTORE_MODEL;
    assert_int_equal(est_compute(&m, &wl, &s, &err), 0);
    assert_int_equal(s.comp[EST_C_GRADS].bytes, 2 * Pt);
    assert_int_equal(s.comp[EST_C_OPTIM].bytes, 4 * Pt);
    assert_near((double)(q.comp[EST_C_WEIGHTS].bytes - s.comp[EST_C_WEIGHTS].bytes), 2.0 * (double)Pt);
    /* dropout 0.1 on q,k,v,gate,up,down: each adapter's dropout output 4 B
     * not 2 (+ lora_B's r-wide input 4 B not 2), 32 blocks of 2048 tokens */
    const int64_t T = 2048, widths = 5 * 4096 + 11008, r = 64;
    assert_int_equal(q.comp[EST_C_ACTS].bytes - s.comp[EST_C_ACTS].bytes,
                     32 * T * (2 * widths + 2 * r * 6));
    /* under FSDP, auto means the model's dtype (transformers asks for it) */
    wl.quant_storage = EST_QSTORE_AUTO;
    wl.gpus = 2;
    wl.shard = EST_SHARD_FSDP;
    assert_int_equal(est_compute(&m, &wl, &q, &err), 0);
    assert_int_equal(q.comp[EST_C_GRADS].bytes, 2 * Pt / 2);
    /* litgpt and torchtune build adapters in the model's dtype */
    wl.gpus = 1;
    wl.shard = EST_SHARD_NONE;
    wl.trainer = EST_TRAINER_TORCHTUNE;
    assert_int_equal(est_compute(&m, &wl, &q, &err), 0);
    assert_int_equal(q.comp[EST_C_GRADS].bytes, 2 * Pt);
    assert_int_equal(est_quant_storage_parse("model"), EST_QSTORE_MODEL);
    assert_int_equal(est_quant_storage_parse("int4"), -1);
}

/* Loading 4-bit weights: bitsandbytes quantizes one weight at a time from
 * its 16-bit copy on the GPU (Params4bit.cuda / _quantize), so loading
 * peaks at the weights + the largest linear's 16-bit copy (+ its fp32
 * absmax under double quantization). Before: weights only. */
static void test_bnb_load_transient(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 512);
    struct est_result r;
    struct oomlab_err err;
    wl.mode = EST_MODE_LOAD;
    wl.quant = EST_QUANT_NF4_DQ;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    const double big = 4096.0 * 11008; /* gate/up/down: HF keeps the head 16-bit */
    assert_near((double)r.comp[EST_C_TEMP].bytes, big * (2 + 4.0 / 64));
    assert_int_equal(r.peak_allocated_bytes, r.comp[EST_C_WEIGHTS].bytes + r.comp[EST_C_TEMP].bytes);
    wl.quant = EST_QUANT_NF4; /* the fp32 absmax stays: it is the quant state */
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_near((double)r.comp[EST_C_TEMP].bytes, big * 2);
    /* litgpt's plugin quantizes the lm_head too: the largest */
    wl.trainer = EST_TRAINER_LITGPT;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_near((double)r.comp[EST_C_TEMP].bytes, L7_BIG * 2);
    wl.quant = EST_QUANT_NONE;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_TEMP].bytes, 0);
}

/* --kbit-prep: PEFT's prepare_model_for_kbit_training casts every 16-bit
 * parameter but Params4bit to fp32, so the rest of the weights are 4 B, the
 * residual stream and every activation fp32 (Linear4bit returns
 * out.to(inp_dtype)), and each quantized linear keeps its own 16-bit copy of
 * its input (x.to(compute_dtype)). Before: no such option. */
static void test_kbit_prep(void **state)
{
    (void)state;
    struct est_model m;
    struct est_workload wl;
    struct est_result base, prep;
    struct oomlab_err err;
    qlora_7b_one_gpu(&m, &wl);
    wl.quant = EST_QUANT_NF4;
    assert_int_equal(est_compute(&m, &wl, &base, &err), 0);
    wl.kbit_prep = true;
    assert_int_equal(est_compute(&m, &wl, &prep, &err), 0);
    double P = (double)prep.params - (double)prep.trainable_params;
    double rest = P - L7_LIN; /* embedding, head, norms */
    assert_near((double)(prep.comp[EST_C_WEIGHTS].bytes - base.comp[EST_C_WEIGHTS].bytes), rest * 2);
    /* block checkpointing: every block's input is fp32 now (4 h, not 2 h) */
    assert_true(prep.comp[EST_C_ACTS].bytes - base.comp[EST_C_ACTS].bytes >= (int64_t)32 * 2048 * 2 * 4096);
    /* the loss's logits come out of an fp32 lm_head */
    assert_true(prep.comp[EST_C_LOGITS].bytes > base.comp[EST_C_LOGITS].bytes);
    /* TRL's SFTTrainer under bf16 (--kbit-prep-trl): peft_module_casting_to_bf16
     * puts the embedding and lm_head back to 16-bit, but the fp32 norms keep
     * the residual stream fp32: the weights of the plain run, the
     * activations of the prepared one */
    struct est_result trl;
    wl.kbit_prep = false;
    wl.kbit_trl = true;
    assert_int_equal(est_compute(&m, &wl, &trl, &err), 0);
    assert_int_equal(trl.comp[EST_C_WEIGHTS].bytes, base.comp[EST_C_WEIGHTS].bytes);
    assert_int_equal(trl.comp[EST_C_ACTS].bytes, prep.comp[EST_C_ACTS].bytes);
    assert_true(trl.peak_allocated_bytes - base.peak_allocated_bytes >= (int64_t)32 * 2048 * 2 * 4096);
    wl.kbit_trl = false;
    wl.kbit_prep = true;
    /* no effect without quantization or outside training */
    wl.quant = EST_QUANT_NONE;
    assert_int_equal(est_compute(&m, &wl, &prep, &err), 0);
    wl.kbit_prep = false;
    assert_int_equal(est_compute(&m, &wl, &base, &err), 0);
    assert_int_equal(prep.peak_allocated_bytes, base.peak_allocated_bytes);
}

/* --quant gptq / awq: pre-quantized 4-bit checkpoints, group 128 (an fp16
 * scale and a 4-bit zero per 128 weights: 0.5 + 2.5 / 128 B per weight;
 * AutoGPTQ/AutoGPTQ:auto_gptq/nn_modules/qlinear/qlinear_cuda_old.py@179776bd
 * pack). Loading quantizes nothing. In training a GPTQ linear is plain torch
 * ops: the int32 words shifted out and their int8 copy (5 B per weight of the
 * largest linear) then matmul(x.half(), weight), which keeps the fp16 weight
 * for the input's gradient (autograd saves the operand the other gradient
 * needs: checked with torch 1.13's saved_tensors_hooks) and not the input;
 * PEFT's prepare_model_for_kbit_training skips GPTQ models. AutoAWQ's GEMM
 * function keeps its input, as bitsandbytes does. Before: no such values. */
static void test_gptq_awq(void **state)
{
    (void)state;
    struct est_model m;
    struct est_workload wl;
    struct est_result q, none;
    struct oomlab_err err;
    qlora_7b_one_gpu(&m, &wl);
    wl.mode = EST_MODE_LOAD;
    wl.quant = EST_QUANT_GPTQ;
    wl.lora_r = 0;
    assert_int_equal(est_compute(&m, &wl, &q, &err), 0);
    wl.lora_r = 64;
    double P = (double)q.params;
    assert_near((double)q.comp[EST_C_WEIGHTS].bytes, L7_LIN * (0.5 + 2.5 / 128) + (P - L7_LIN) * 2);
    assert_int_equal(q.comp[EST_C_TEMP].bytes, 0);
    /* training, fp32 so that PEFT's adapters are fp32 either way */
    wl.mode = EST_MODE_TRAIN;
    wl.precision = EST_FP32;
    wl.ckpt = EST_CKPT_NONE;
    assert_int_equal(est_compute(&m, &wl, &q, &err), 0);
    wl.quant = EST_QUANT_NONE;
    assert_int_equal(est_compute(&m, &wl, &none, &err), 0);
    assert_near((double)(q.comp[EST_C_ACTS].bytes - none.comp[EST_C_ACTS].bytes), 2 * L7_LIN);
    assert_near((double)(q.comp[EST_C_TEMP].bytes - none.comp[EST_C_TEMP].bytes), 5 * 4096.0 * 11008);
    /* block checkpointing: only the recomputed block's weights */
    wl.ckpt = EST_CKPT_FULL;
    assert_int_equal(est_compute(&m, &wl, &none, &err), 0);
    wl.quant = EST_QUANT_GPTQ;
    assert_int_equal(est_compute(&m, &wl, &q, &err), 0);
    assert_near((double)(q.comp[EST_C_ACTS].bytes - none.comp[EST_C_ACTS].bytes), 2 * L7_LIN / 32);
    /* AWQ keeps every quantized linear's input, not its weight */
    wl.ckpt = EST_CKPT_NONE;
    wl.lora_dropout = 0;
    wl.quant = EST_QUANT_AWQ;
    assert_int_equal(est_compute(&m, &wl, &q, &err), 0);
    wl.quant = EST_QUANT_NONE;
    wl.lora_targets = EST_LORA_ALL & ~EST_LORA_HEAD; /* every linear's input kept, as AWQ keeps them */
    assert_int_equal(est_compute(&m, &wl, &none, &err), 0);
    assert_true(q.comp[EST_C_ACTS].bytes < none.comp[EST_C_ACTS].bytes);
    /* bf16 with --kbit-prep: GPTQ's rest stays 16-bit, AWQ's is cast to fp32 */
    qlora_7b_one_gpu(&m, &wl);
    wl.quant = EST_QUANT_GPTQ;
    assert_int_equal(est_compute(&m, &wl, &none, &err), 0);
    wl.kbit_prep = true;
    assert_int_equal(est_compute(&m, &wl, &q, &err), 0);
    assert_int_equal(q.peak_allocated_bytes, none.peak_allocated_bytes);
    wl.quant = EST_QUANT_AWQ;
    assert_int_equal(est_compute(&m, &wl, &q, &err), 0);
    assert_true(q.comp[EST_C_WEIGHTS].bytes > none.comp[EST_C_WEIGHTS].bytes);
}

/* AutoAWQ's fuse_layers=True (awq/models/llama.py@5c7e3682d LlamaFuser):
 * every layer's fused qkv is a torch.cat of q, k, v while the unfused
 * layers are alive, and each layer's WindowedCache is made in fp32 and then
 * copied to fp16. At 64 + 64 tokens that load moment is the peak: the
 * whole model's packed q, k, v once more (0.5 + 2.5 / 128 B per weight) and
 * one cache tensor in fp32. Before, --cache-len 64 under 64 + 64 tokens was
 * refused and nothing counted the fusion. */
static void test_awq_fuse_layers(void **state)
{
    (void)state;
    struct est_model m;
    struct est_workload wl;
    struct est_result r;
    struct oomlab_err err;
    qlora_7b_one_gpu(&m, &wl);
    wl.lora_r = 0;
    wl.mode = EST_MODE_INFER;
    wl.precision = EST_FP16;
    wl.quant = EST_QUANT_AWQ;
    wl.batch = 1;
    wl.prompt_len = 64;
    wl.gen_len = 64;
    wl.cache = EST_CACHE_ROLLING;
    wl.cache_len = 64;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_null(strstr(r.peak_phase, "load"));
    wl.fuse_layers = true;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_non_null(strstr(r.peak_phase, "fuse_layers"));
    /* 32 layers x 4096 x (3 x 4096) x 0.51953125 B + one (1, 32, 64, 128) fp32 K */
    assert_int_equal(r.comp[EST_C_TEMP].bytes, (int64_t)836763648 + 32 * 64 * 128 * 4);
    assert_int_equal(r.comp[EST_C_KV].bytes, (int64_t)2 * 32 * 32 * 128 * 2 * 64);
    assert_int_equal(r.comp[EST_C_ACTS].bytes, 0);
    assert_int_equal(r.comp[EST_C_BLAS].bytes, 0); /* no matmul before the fusion */
    /* fused modules only exist for AWQ checkpoints, with their rolling cache */
    wl.cache = EST_CACHE_STATIC;
    wl.cache_len = 128;
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
    assert_non_null(strstr(err.msg, "--fuse-layers"));
}

/* AWQ on the ExLlama kernels (AwqConfig(version="exllama")): every linear
 * is repacked at load by AutoAWQ's unpack_reorder_pack, whose int64 shifts
 * hold 10 B per weight of the largest linear (gate/up, 4096 x 11008) beside
 * the packed model; v2 (AwqConfig's default exllama_config) also keeps one
 * fp16 scratch buffer sized by that linear: its fp16 weight and 11008 x 2048
 * x 8 fp32 output rows (+ 128 B each). Its forward dequantizes into the
 * scratch, so the GEMM path's fp16 dequantized weight is not counted. Before
 * --quant-kernel the Llama-3.1-8B ExLlama rows (estimate-heldout17 JD04-06)
 * ran 14-22% low. */
static void test_awq_exllama(void **state)
{
    (void)state;
    struct est_model m;
    struct est_workload wl;
    struct est_result gemm, v1, v2;
    struct oomlab_err err;
    const int64_t big = 4096LL * 11008;
    const int64_t scratch = big * 2 + 128 + 11008LL * 2048 * 8 * 4 + 128;
    qlora_7b_one_gpu(&m, &wl);
    wl.lora_r = 0;
    wl.mode = EST_MODE_LOAD;
    wl.precision = EST_FP16;
    wl.quant = EST_QUANT_AWQ;
    assert_int_equal(est_compute(&m, &wl, &gemm, &err), 0);
    wl.quant_kernel = EST_QKERNEL_EXLLAMA;
    assert_int_equal(est_compute(&m, &wl, &v1, &err), 0);
    wl.quant_kernel = EST_QKERNEL_EXLLAMA_V2;
    assert_int_equal(est_compute(&m, &wl, &v2, &err), 0);
    assert_int_equal(gemm.comp[EST_C_TEMP].bytes, 0); /* GEMM checkpoints load as stored */
    assert_int_equal(v1.comp[EST_C_TEMP].bytes, 10 * big);
    assert_int_equal(v1.comp[EST_C_WEIGHTS].bytes, gemm.comp[EST_C_WEIGHTS].bytes);
    assert_int_equal(v2.comp[EST_C_TEMP].bytes, 10 * big);
    assert_int_equal(v2.comp[EST_C_WEIGHTS].bytes, gemm.comp[EST_C_WEIGHTS].bytes + scratch);
    assert_non_null(strstr(v2.comp[EST_C_WEIGHTS].formula, "ExLlama v2 scratch"));
    /* a prefill: the scratch stays, the repack is over, no dequantized weight */
    wl.mode = EST_MODE_INFER;
    wl.batch = 1;
    wl.prompt_len = 64;
    wl.quant_kernel = EST_QKERNEL_GEMM;
    assert_int_equal(est_compute(&m, &wl, &gemm, &err), 0);
    wl.quant_kernel = EST_QKERNEL_EXLLAMA_V2;
    assert_int_equal(est_compute(&m, &wl, &v2, &err), 0);
    assert_int_equal(gemm.comp[EST_C_TEMP].bytes - v2.comp[EST_C_TEMP].bytes, 2 * big);
    assert_int_equal(v2.comp[EST_C_WEIGHTS].bytes, gemm.comp[EST_C_WEIGHTS].bytes + scratch);
    /* the ExLlama linears are inference-only; the flag names AWQ's kernels only */
    wl.mode = EST_MODE_TRAIN;
    wl.lora_r = 16;
    assert_int_equal(est_compute(&m, &wl, &v2, &err), -1);
    assert_non_null(strstr(err.msg, "--quant-kernel"));
    wl.mode = EST_MODE_INFER;
    wl.lora_r = 0;
    wl.quant = EST_QUANT_GPTQ;
    assert_int_equal(est_compute(&m, &wl, &v2, &err), -1);
    assert_non_null(strstr(err.msg, "--quant awq"));
}

/* The largest quantized linear reads the fam table's fused_qkv, as PEFT's
 * targets do: GPT-2's c_attn Conv1D(3 x embed, embed), Qwen(1)'s c_attn
 * (hidden, 3 x projection_size) and GPTBigCode's c_attn (embed, embed + 2
 * kv_dim), kv_dim one head of 128 under multi_query. On Llama-2-7B's
 * shapes (4096 wide, 32 heads) ExLlama's repack holds 10 B per weight of
 * the largest: Qwen and GPT-2 4096 x 12288 (c_attn, above the 11008-wide
 * MLP); GPTBigCode with one K/V head and a 4200-wide MLP 4096 x 4352
 * (c_attn, above c_fc's 4096 x 4200); Llama's separate q (4096 x 4096)
 * leaves the MLP's 4096 x 4200 the largest. Before: only NeoX, Falcon,
 * BLOOM and Phi-3 read as fused, so the first three counted 11008, 11008
 * and 4200 wide. */
static void test_quant_fused_qkv(void **state)
{
    (void)state;
    static const struct {
        enum est_family family;
        int64_t kv_heads, ffn, widest;
    } cases[] = {
        {EST_FAM_QWEN, 32, 11008, 12288},
        {EST_FAM_GPT2, 32, 11008, 12288},
        {EST_FAM_BIGCODE, 1, 4200, 4096 + 2 * 128},
        {EST_FAM_LLAMA, 32, 4200, 4200},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct est_model m;
        struct est_workload wl;
        struct est_result r;
        struct oomlab_err err;
        qlora_7b_one_gpu(&m, &wl);
        m.family = cases[i].family;
        m.kv_heads = cases[i].kv_heads;
        m.ffn = cases[i].ffn;
        wl.lora_r = 0;
        wl.mode = EST_MODE_LOAD;
        wl.precision = EST_FP16;
        wl.quant = EST_QUANT_AWQ;
        wl.quant_kernel = EST_QKERNEL_EXLLAMA;
        if (est_compute(&m, &wl, &r, &err)) fail_msg("case %zu: %s", i, err.msg);
        if (r.comp[EST_C_TEMP].bytes != 10 * 4096LL * cases[i].widest)
            fail_msg("case %zu: repack %lld B, want 10 x 4096 x %lld", i, (long long)r.comp[EST_C_TEMP].bytes,
                     (long long)cases[i].widest);
    }
}

/* AutoAWQ's fused prefill attention (awq/modules/fused/attn.py@5c7e3682d)
 * is not HF's: beside the block input and its norm it keeps the fused xqkv
 * output, the rotated xq and xk (new tensors), K and V repeat_interleave'd
 * to every query head, and `F.softmax(scores.float(), dim=-1)` holds the
 * fp16 scores, their explicit fp32 copy and the fp32 output (10 B per score
 * in fp16, where HF's softmax(dtype=float32) on a CUDA Half input runs the
 * fused half-to-float kernel: 8 B at its .to()). Same workload, unfused
 * (HF's Llama path: q, the grouped K, V expanded by repeat_kv) and fused:
 * the attention's moment is the peak in both, and differs by
 * T x 2 B x (qd + 3 kvd) + 2 B per score. */
static void test_awq_fused_prefill_attention(void **state)
{
    (void)state;
    struct est_model m;
    struct est_workload wl;
    struct est_result hf, fused;
    struct oomlab_err err;
    qlora_7b_one_gpu(&m, &wl);
    m.kv_heads = 8;
    wl.lora_r = 0;
    wl.mode = EST_MODE_INFER;
    wl.precision = EST_FP16;
    wl.quant = EST_QUANT_AWQ;
    wl.attention = EST_ATTN_EAGER;
    wl.batch = 1;
    wl.prompt_len = 2048;
    wl.gen_len = 2;
    wl.cache = EST_CACHE_ROLLING;
    wl.cache_len = 2048;
    assert_int_equal(est_compute(&m, &wl, &hf, &err), 0);
    wl.fuse_layers = true;
    assert_int_equal(est_compute(&m, &wl, &fused, &err), 0);
    assert_non_null(strstr(hf.peak_phase, "prefill"));
    assert_non_null(strstr(fused.peak_phase, "prefill"));
    int64_t T = 2048, qd = 32 * 128, kvd = 8 * 128, scores = (int64_t)32 * 2048 * 2048;
    assert_int_equal(fused.comp[EST_C_ACTS].bytes - hf.comp[EST_C_ACTS].bytes, T * 2 * (qd + 3 * kvd) + 2 * scores);
}

/* Inference under the default bf16-mixed precision loads the weights in
 * 16-bit, but quantized ones stay quantized: before, --mode infer --quant nf4
 * (or gptq) without --precision counted every weight at 2 B. --quant-group
 * sets GPTQ/AWQ's scale and zero per group of inputs (0.5 + 2.5 / group). */
static void test_quant_infer_mixed(void **state)
{
    (void)state;
    struct est_model m;
    struct est_workload wl;
    struct est_result r;
    struct oomlab_err err;
    qlora_7b_one_gpu(&m, &wl);
    wl.lora_r = 0;
    wl.mode = EST_MODE_INFER;
    wl.precision = EST_BF16_MIXED;
    wl.quant = EST_QUANT_NF4;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    double P = (double)r.params;
    assert_near((double)r.comp[EST_C_WEIGHTS].bytes, L7_LIN * 0.5625 + (P - L7_LIN) * 2);
    wl.quant = EST_QUANT_GPTQ;
    wl.quant_group = 32;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_near((double)r.comp[EST_C_WEIGHTS].bytes, L7_LIN * (0.5 + 2.5 / 32) + (P - L7_LIN) * 2);
    wl.quant_group = -1;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_near((double)r.comp[EST_C_WEIGHTS].bytes, L7_LIN * 0.5 + (P - L7_LIN) * 2);
    wl.quant_group = -2;
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
}

/* fp8 scales' dtype by format: compressed-tensors gives each scale the
 * weight's dtype (initialize.py: scale_dtype = module.weight.dtype), 2 B
 * under a bf16 load, 4 B under fp32; transformers' FP8Linear and AutoFP8
 * hold fp32. Llama-2-7B with per-output-channel scales: 32 layers x (4 x
 * 4096 + 2 x 11008 + 4096) rows, + a static input scale per linear (7).
 * Before: every scale was counted 4 B. */
static void test_fp8_scale_dtype(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 512);
    struct est_result r;
    struct oomlab_err err = {{0}};
    int64_t fp8, scales, kept;
    const double rows = 32.0 * (4 * 4096 + 2 * 11008 + 4096);
    wl.mode = EST_MODE_LOAD;
    wl.quant = EST_QUANT_FP8;
    wl.fp8_scale = EST_FP8_CHANNEL;
    wl.fp8_decompress = true;
    assert_int_equal(est_fp8_weights(&m, &wl, &fp8, &scales, &kept, &err), 0);
    assert_int_equal(scales, (int64_t)rows * 4); /* fp32 unless the format says */
    assert_string_equal(est_fp8_scale_dtype(&wl), "fp32");
    wl.fp8_scale_model_dtype = true;
    assert_int_equal(est_fp8_weights(&m, &wl, &fp8, &scales, &kept, &err), 0);
    assert_int_equal(scales, (int64_t)rows * 2);
    assert_string_equal(est_fp8_scale_dtype(&wl), "16-bit");
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_near((double)r.comp[EST_C_WEIGHTS].bytes, L7_LIN + rows * 2 + 2.0 * ((double)r.params - L7_LIN));
    wl.fp8_static_act = true;
    assert_int_equal(est_fp8_weights(&m, &wl, &fp8, &scales, &kept, &err), 0);
    assert_int_equal(scales, ((int64_t)rows + 32 * 7) * 2);
    wl.fp8_static_act = false;
    wl.precision = EST_FP32; /* the model loaded fp32: its scales too */
    assert_int_equal(est_fp8_weights(&m, &wl, &fp8, &scales, &kept, &err), 0);
    assert_int_equal(scales, (int64_t)rows * 4);
}

/* fp8 weights (--quant fp8) on Llama-2-7B: the block linears 1 B plus an
 * fp32 scale per 128 x 128 block of each (4096 x 4096: 1024 blocks, 4096 x
 * 11008 and 11008 x 4096: 32 x 86 = 2752 each), the embedding, head and
 * norms 2 B; no dequantization temporary; per-tensor: 4 B per linear, + 4 B
 * for a static input scale. Training is refused, and inference offers no
 * int8 / nf4 lever (another checkpoint, not a setting). Before: --quant fp8
 * did not exist. */
static void test_fp8_weights(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 512);
    struct est_result base, r;
    struct oomlab_err err = {{0}};
    wl.mode = EST_MODE_INFER;
    assert_int_equal(est_compute(&m, &wl, &base, &err), 0);
    wl.quant = EST_QUANT_FP8;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    double scales = 32.0 * (4 * 1024 + 3 * 2752) * 4;
    assert_near((double)r.comp[EST_C_WEIGHTS].bytes, L7_LIN + scales + 2.0 * ((double)r.params - L7_LIN));
    assert_int_equal(r.comp[EST_C_TEMP].bytes, base.comp[EST_C_TEMP].bytes);
    wl.fp8_scale = EST_FP8_TENSOR;
    wl.fp8_static_act = true;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_near((double)r.comp[EST_C_WEIGHTS].bytes, L7_LIN + 32.0 * 7 * 8 + 2.0 * ((double)r.params - L7_LIN));
    wl.fp8_scale = EST_FP8_CHANNEL;
    wl.fp8_static_act = false;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_near((double)r.comp[EST_C_WEIGHTS].bytes,
                L7_LIN + 32.0 * (4 * 4096 + 2 * 11008 + 4096) * 4 + 2.0 * ((double)r.params - L7_LIN));
    /* compressed-tensors: fp8 while loaded, 16-bit linears + the scales once run */
    wl.fp8_decompress = true;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_near((double)r.comp[EST_C_WEIGHTS].bytes, 2.0 * (double)r.params + 32.0 * (4 * 4096 + 2 * 11008 + 4096) * 4);
    wl.mode = EST_MODE_LOAD;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_near((double)r.comp[EST_C_WEIGHTS].bytes,
                L7_LIN + 32.0 * (4 * 4096 + 2 * 11008 + 4096) * 4 + 2.0 * ((double)r.params - L7_LIN));
    assert_false(est_fp8_decompressed(&wl)); /* loaded, not yet run */
    wl.mode = EST_MODE_INFER;
    assert_true(est_fp8_decompressed(&wl));
    wl.fp8_decompress = false;
    assert_false(est_fp8_decompressed(&wl));
    /* the block: the checkpoint's, 128 where it names none */
    int64_t bo, bi;
    est_fp8_block(&wl, &bo, &bi);
    assert_int_equal(bo, 128);
    assert_int_equal(bi, 128);
    wl.fp8_block_out = 64;
    est_fp8_block(&wl, &bo, &bi);
    assert_int_equal(bo, 64);
    assert_int_equal(bi, 128);
    wl.fp8_block_out = 0;
    struct est_lever levers[16];
    int n = 0;
    wl.capacity_bytes = (int64_t)8 << 30;
    assert_int_equal(est_levers(&m, &wl, levers, 16, &n, &err), 0);
    for (int i = 0; i < n; i++)
        if (strstr(levers[i].what, "quant")) fail_msg("lever '%s' offered on fp8 weights", levers[i].what);
    wl.mode = EST_MODE_TRAIN;
    wl.lora_r = 16;
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
    assert_non_null(strstr(err.msg, "fp8 weights: training on them is not modelled"));
}

/* Keep-list entries as fp8 checkpoints write them -> the linears kept
 * 16-bit; modules already 16-bit give no bits; what cannot be placed is -1. */
static void test_fp8_keep_parse(void **state)
{
    (void)state;
    static const struct {
        const char *entry;
        int rc;
        unsigned bits;
    } cases[] = {
        {"lm_head", 0, 0}, {"gate", 0, 0}, {"re:.*gate$", 0, 0}, {"model.embed_tokens", 0, 0},
        {"e_score_correction_bias", 0, 0}, {"re:.*kv_a_proj_with_mqa$", 0, EST_LIN_KV_A},
        {"re:.*q_a_proj$", 0, EST_LIN_Q_A}, {"down_proj", 0, EST_LIN_DOWN}, {"mlp.shared_experts", 0, EST_LIN_SHARED},
        {"model.layers.3.mlp.down_proj", -1, 0}, {"re:.*mlp.(up|down)_proj$", -1, 0}, {"vision_tower", -1, 0},
        {"", -1, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned bits = 99;
        int rc = est_fp8_keep_parse(cases[i].entry, &bits);
        if (rc != cases[i].rc || (rc == 0 && bits != cases[i].bits))
            fail_msg("'%s': rc %d bits %u, want %d %u", cases[i].entry, rc, bits, cases[i].rc, cases[i].bits);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quant_state_replicated),
        cmocka_unit_test(test_fsdp_gathers_packed_4bit),
        cmocka_unit_test(test_ckpt_moments),
        cmocka_unit_test(test_keep_logits),
        cmocka_unit_test(test_peft_fp32_adapters),
        cmocka_unit_test(test_bnb_load_transient),
        cmocka_unit_test(test_kbit_prep),
        cmocka_unit_test(test_gptq_awq),
        cmocka_unit_test(test_quant_infer_mixed),
        cmocka_unit_test(test_awq_fuse_layers),
        cmocka_unit_test(test_awq_exllama),
        cmocka_unit_test(test_quant_fused_qkv),
        cmocka_unit_test(test_awq_fused_prefill_attention),
        cmocka_unit_test(test_fp8_weights),
        cmocka_unit_test(test_fp8_scale_dtype),
        cmocka_unit_test(test_fp8_keep_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
