/* Unit tests for lib/est, lib/models, lib/gpus: parameter counts checked
 * against the published totals, component arithmetic on hand-worked small
 * shapes, absurd sizes, and the search/lever helpers. */
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
#include "lib/gpus.h"
#include "lib/models.h"

static int64_t preset_params(const char *name, enum est_head head)
{
    const struct model_preset *p = models_find(name);
    struct est_model m;
    struct est_workload wl;
    struct oomlab_err err;
    int64_t total = -1, trainable = -1;
    assert_non_null(p);
    m = p->m;
    est_workload_init(&wl);
    wl.head = head;
    assert_int_equal(est_model_finish(&m, &err), 0);
    assert_int_equal(est_params(&m, &wl, &total, &trainable, &err), 0);
    assert_int_equal(total, trainable);
    return total;
}

/* Shared experts on a family without them: the refusal names the families
 * that have them, read from the family table (config_keys), in its order. */
static void test_shared_experts_refusal_names_families(void **state)
{
    (void)state;
    const struct model_preset *p = models_find("gpt2");
    struct oomlab_err err;
    assert_non_null(p);
    struct est_model m = p->m;
    m.shared_ffn = 64;
    assert_int_equal(est_model_finish(&m, &err), -1);
    assert_string_equal(err.msg, "dense layers beside sparse ones and shared experts are modelled for "
                                 "deepseek_v3, qwen2_moe, deepseek and llama4_text only");
}

static void test_published_param_counts(void **state)
{
    (void)state;
    assert_int_equal(preset_params("gpt2", EST_HEAD_LM), 124439808);     /* tied wte */
    assert_int_equal(preset_params("bert-base-cased", EST_HEAD_NONE), 108310272);
    assert_int_equal(preset_params("opt-350m", EST_HEAD_LM), 331196416);
    assert_int_equal(preset_params("llama-2-7b", EST_HEAD_LM), 6738415616);
    assert_int_equal(preset_params("llama-3-8b", EST_HEAD_LM), 8030261248);
    assert_int_equal(preset_params("mistral-7b", EST_HEAD_LM), 7241732096);
    assert_int_equal(preset_params("mixtral-8x7b", EST_HEAD_LM), 46702792704);
    assert_int_equal(preset_params("gemma-2b", EST_HEAD_LM), 2506172416);
    assert_int_equal(preset_params("pythia-160m", EST_HEAD_LM), 162322944);
    assert_int_equal(preset_params("t5-small", EST_HEAD_LM), 60506624);
    assert_int_equal(preset_params("GPT2", EST_HEAD_LM), 124439808); /* case-insensitive */
}

/* The families of issue 13's "models users run": every count is the sum
 * over the modelling code's modules for the config (presets' sources in
 * lib/models.c). Qwen3-0.6B: 28 x 15,730,944 (q 1024x2048, k and v 1024x1024,
 * o 2048x1024, SwiGLU 3 x 1024x3072, two norms, q_norm and k_norm of 128) +
 * the tied 151936 x 1024 table + the final norm = 596,049,920, of which
 * 440,467,456 outside the embeddings (the model card's "0.6B", "0.44B
 * non-embedding"); Qwen3-8B 8,190,735,360 ("8.2B", 6.95B non-embedding).
 * DistilBERT base: DistilBertModel 66,362,880 (word + 512 positions +
 * LayerNorm, six BERT blocks, no token types, no pooler); ForMaskedLM adds
 * vocab_transform, vocab_layer_norm and the projector's bias (66,985,530);
 * ForSequenceClassification pre_classifier and a 2-label classifier
 * (66,955,010). XLM-RoBERTa base: RoBERTa's layout over 250,002 tokens,
 * 278,043,648 = keras-hub's backbone count 277,450,752 + the pooler 590,592 +
 * one token-type row + RoBERTa's two padding-offset positions (768 x 3).
 * Before, none of the three families was known. */
static void test_new_family_param_counts(void **state)
{
    (void)state;
    assert_int_equal(preset_params("qwen3-0.6b", EST_HEAD_LM), 596049920);
    assert_int_equal(preset_params("qwen3-8b", EST_HEAD_LM), 8190735360LL);
    assert_int_equal(preset_params("distilbert-base-uncased", EST_HEAD_NONE), 66362880);
    assert_int_equal(preset_params("distilbert-base-uncased", EST_HEAD_LM), 66985530);
    assert_int_equal(preset_params("distilbert-base-uncased", EST_HEAD_CLS), 66955010);
    assert_int_equal(preset_params("xlm-roberta-base", EST_HEAD_NONE), 278043648);
    assert_int_equal(277450752 + 590592 + 3 * 768, 278043648);
    /* ELECTRA base: BERT-base without the pooler (keras-hub's backbone, with
     * one, counts 109,482,240); its classification head is dense + out_proj */
    assert_int_equal(preset_params("electra-base-discriminator", EST_HEAD_NONE), 108891648);
    assert_int_equal(108891648 + 590592, 109482240);
    assert_int_equal(preset_params("electra-base-discriminator", EST_HEAD_CLS), 108891648 + 590592 + 1538);
    /* models run as earlier families: Qwen2.5-7B (qwen2), SmolLM2-135M (llama) */
    assert_int_equal(preset_params("qwen2.5-7b", EST_HEAD_LM), 7615616512LL);
    assert_int_equal(preset_params("smollm2-135m", EST_HEAD_LM), 134515008);
}

/* Qwen3's q_norm and k_norm keep, per token and block, the fp32 copy of the
 * q and k projections, an fp32 rsqrt per head, and (the norms training) the
 * normalized q and k in the activation dtype: a Qwen3 and a Llama of the same
 * shape (head_dim given) differ by exactly that; with LoRA on q, v only the
 * fp32 copies and rsqrt remain, and the first block's k_norm (its input needs
 * no grad) keeps nothing. bench/estimate-oracle's Qwen3 block measures it. */
static void test_qwen3_qk_norm_saves(void **state)
{
    (void)state;
    struct est_model q3 = fx_preset("qwen3-0.6b"), ll = q3;
    ll.family = EST_FAM_LLAMA;
    struct est_workload wl = fx_workload(EST_BF16, 2, 256);
    wl.attention = EST_ATTN_SDPA;
    struct est_result a, b;
    struct oomlab_err err;
    assert_int_equal(est_compute(&q3, &wl, &a, &err), 0);
    assert_int_equal(est_compute(&ll, &wl, &b, &err), 0);
    int64_t T = 2 * 256, L = 28, qd = 16 * 128, kvd = 8 * 128, heads = 16 + 8;
    assert_int_equal(a.comp[EST_C_ACTS].bytes - b.comp[EST_C_ACTS].bytes,
                     L * T * ((4 + 2) * (qd + kvd) + 4 * heads));
    wl.lora_r = 8;
    wl.lora_targets = EST_LORA_Q | EST_LORA_V;
    assert_int_equal(est_compute(&q3, &wl, &a, &err), 0);
    assert_int_equal(est_compute(&ll, &wl, &b, &err), 0);
    assert_int_equal(a.comp[EST_C_ACTS].bytes - b.comp[EST_C_ACTS].bytes,
                     L * T * (4 * (qd + kvd) + 4 * heads) - T * (4 * kvd + 4 * 8));
}

/* DistilBERT's block drops out once (after lin2; the attention output goes
 * to sa_layer_norm undropped), BERT's twice: with dropout on, one bool mask
 * of h per token and block less than a BERT of the same shape; the same
 * without dropout. */
static void test_distilbert_one_dropout_per_block(void **state)
{
    (void)state;
    struct est_model d = fx_preset("distilbert-base-uncased"), b = d;
    b.family = EST_FAM_BERT;
    struct est_workload wl = fx_workload(EST_FP32, 8, 128);
    wl.head = EST_HEAD_CLS;
    wl.attention = EST_ATTN_EAGER;
    struct est_result rd, rb;
    struct oomlab_err err;
    d.dropout = b.dropout = 1;
    assert_int_equal(est_compute(&d, &wl, &rd, &err), 0);
    assert_int_equal(est_compute(&b, &wl, &rb, &err), 0);
    assert_int_equal(rb.comp[EST_C_ACTS].bytes - rd.comp[EST_C_ACTS].bytes, 6 * 8 * 128 * 768);
    d.dropout = b.dropout = 2;
    assert_int_equal(est_compute(&d, &wl, &rd, &err), 0);
    assert_int_equal(est_compute(&b, &wl, &rb, &err), 0);
    assert_int_equal(rb.comp[EST_C_ACTS].bytes, rd.comp[EST_C_ACTS].bytes);
}

/* OPT's config sets attention_dropout 0.0 and dropout 0.1
 * (transformers:src/transformers/models/opt/configuration_opt.py@014674d3;
 * OPTAttention drops the probabilities with config.attention_dropout,
 * modeling_opt.py@0184d208): train mode (--dropout, DeepSpeed-Chat without
 * --disable_dropout) adds only the hidden dropouts' bool masks, two per block
 * and the embedding's, no mask and copy of the heads x seq probabilities.
 * The old rule turned attention dropout on with --dropout. */
static void test_opt_dropout_keeps_attention_p0(void **state)
{
    (void)state;
    struct est_model on = fx_preset("opt-1.3b"), off = on, dflt = on;
    on.dropout = 1;
    off.dropout = 2;
    struct est_workload wl = fx_workload(EST_FP16, 8, 512);
    wl.attention = EST_ATTN_EAGER;
    struct est_result a, b, c;
    struct oomlab_err err;
    assert_int_equal(est_compute(&on, &wl, &a, &err), 0);
    assert_int_equal(est_compute(&off, &wl, &b, &err), 0);
    assert_int_equal(est_compute(&dflt, &wl, &c, &err), 0);
    int64_t T = 8 * 512, L = 24, h = 2048;
    assert_int_equal(a.comp[EST_C_ACTS].bytes - b.comp[EST_C_ACTS].bytes, T * (L * 2 * h + h));
    assert_int_equal(a.comp[EST_C_ACTS].bytes, c.comp[EST_C_ACTS].bytes);
}

/* OPT's MLP is fc1 -> ReLU -> fc2 (OPTConfig activation_function "relu"):
 * relu's backward reads its result, the tensor fc2 keeps as its input, so
 * per token and block the MLP keeps one ffn-sized tensor; the old count took
 * the activation's input and fc2's input (two). Halving ffn takes a x f, not
 * 2 a x f, off every block (bench/estimate-oracle-relu measures both on
 * torch 1.13). */
static void test_opt_relu_keeps_one_ffn_tensor(void **state)
{
    (void)state;
    struct est_model wide = fx_preset("opt-1.3b"), narrow = wide;
    narrow.ffn = wide.ffn / 2;
    struct est_workload wl = fx_workload(EST_FP16, 8, 512);
    wl.attention = EST_ATTN_SDPA;
    struct est_result a, b;
    struct oomlab_err err;
    assert_int_equal(est_compute(&wide, &wl, &a, &err), 0);
    assert_int_equal(est_compute(&narrow, &wl, &b, &err), 0);
    int64_t T = 8 * 512, L = 24, df = wide.ffn - narrow.ffn;
    assert_int_equal(a.comp[EST_C_ACTS].bytes - b.comp[EST_C_ACTS].bytes, T * L * 2 * df);
}

/* --loss sum: the gradient of logits.sum() is an expanded scalar, which the
 * head's matmul backward clones contiguous (cuBLAS and the CPU gemm take no
 * stride-0 operand): a T x V x a temporary at the head's backward, beside
 * the held logits (torch 1.13: two aten::clone of T x V, one at a time). On
 * OPT-350m at 8 x 1024 tokens it outweighs the block's MLP gradients. */
static void test_sum_gradient_clone(void **state)
{
    (void)state;
    struct est_model m = fx_preset("opt-350m");
    struct est_workload wl = fx_workload(EST_FP16, 8, 1024);
    wl.attention = EST_ATTN_SDPA;
    wl.loss = EST_LOSS_SUM;
    wl.optimizer = EST_OPT_NONE;
    struct est_result r;
    struct oomlab_err err;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    int64_t VT = 8LL * 1024 * 50272;
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, 2 * VT);
    assert_int_equal(r.comp[EST_C_TEMP].bytes, 2 * VT);
}

/* Eager attention's softmax dtype is the code's: HF's Llama-family eager
 * attention calls softmax(dtype=torch.float32) and casts back, so its
 * block keeps the fp32 probabilities and their 16-bit cast (6 B per score
 * in bf16); own model code (--trainer torchtune with --attention eager,
 * e.g. reasoning-from-scratch's qwen3.py) calls softmax on the bf16 scores
 * and keeps that one bf16 tensor (2 B). Under autocast both are fp32. */
static int64_t hf_less_own_acts(const struct est_model *m, struct est_workload wl)
{
    struct est_result hf, own;
    struct oomlab_err err;
    wl.trainer = EST_TRAINER_HF;
    assert_int_equal(est_compute(m, &wl, &hf, &err), 0);
    wl.trainer = EST_TRAINER_TORCHTUNE;
    assert_int_equal(est_compute(m, &wl, &own, &err), 0);
    return hf.comp[EST_C_ACTS].bytes - own.comp[EST_C_ACTS].bytes;
}

static void test_own_code_eager_softmax_dtype(void **state)
{
    (void)state;
    struct est_model m = fx_preset("qwen3-0.6b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 512);
    wl.optimizer = EST_OPT_NONE;
    int64_t T = 512, L = m.layers, H = m.heads, S = 512;
    /* what else differs between the two trainers, without scores */
    wl.attention = EST_ATTN_SDPA;
    int64_t rest = hf_less_own_acts(&m, wl);
    wl.attention = EST_ATTN_EAGER;
    assert_int_equal(hf_less_own_acts(&m, wl) - rest, T * L * H * S * (6 - 2));
    /* under autocast softmax is on the fp32 list whatever the code */
    wl.precision = EST_BF16_AUTOCAST;
    wl.attention = EST_ATTN_SDPA;
    rest = hf_less_own_acts(&m, wl);
    wl.attention = EST_ATTN_EAGER;
    assert_int_equal(hf_less_own_acts(&m, wl) - rest, 0);
}

/* DeepSpeed's engine at stage 0 (--shard zero0, DeepSpeed-Chat's
 * --zero_stage 0): loss.backward() first, then allreduce_gradients() ->
 * buffered_allreduce_fallback, flat buckets of up to 5e8 elements
 * (deepspeed/runtime/engine.py@077e42e68). So unlike DDP (--shard none) no
 * bucket copy of the gradients is alive during backward; the flat copy
 * comes after backward, in the end-of-backward moment. States are the
 * engine's (fp32 master and AdamW states, nothing partitioned) whatever
 * --master-weights says; offload is refused. */
static void test_deepspeed_stage0(void **state)
{
    (void)state;
    struct est_model m = fx_preset("opt-350m");
    struct est_workload wl = fx_workload(EST_FP16, 8, 512);
    wl.attention = EST_ATTN_EAGER;
    wl.head = EST_HEAD_NONE;
    wl.gpus = 16;
    wl.master_weights = true;
    struct est_result ddp, z0;
    struct oomlab_err err;
    assert_int_equal(est_compute(&m, &wl, &ddp, &err), 0);
    wl.shard = EST_SHARD_ZERO0;
    wl.master_weights = false;
    assert_int_equal(est_compute(&m, &wl, &z0, &err), 0);
    assert_int_equal(z0.comp[EST_C_MASTER].bytes, ddp.comp[EST_C_MASTER].bytes);
    assert_int_equal(z0.comp[EST_C_OPTIM].bytes, ddp.comp[EST_C_OPTIM].bytes);
    /* DDP's fp16 bucket copy (2 B per trainable parameter) is gone from the
     * forward/backward peak */
    assert_true(ddp.peak_allocated_bytes - z0.peak_allocated_bytes >= 2 * ddp.trainable_params - (64LL << 20));
    wl.offload = EST_OFFLOAD_OPTIMIZER;
    assert_int_not_equal(est_compute(&m, &wl, &z0, &err), 0);
}

/* --no-reshard (FSDP1 SHARD_GRAD_OP, FSDP2 reshard_after_forward=False, as
 * lightning-thunder's benchmark_litgpt.py@5fbeaa710 runs "zero2"): every
 * block stays gathered from its forward to its backward, so at the start of
 * backward the shard buffers hold L blocks plus one block's unsharded
 * gradients, not the current and the prefetched block: (L + 1 - 2) more
 * 16-bit blocks. States stay FSDP's (bf16 shards, bf16 AdamW states), and
 * the flag is refused outside --shard fsdp. */
static void test_fsdp_no_reshard_keeps_blocks_gathered(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-3-8b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 8192);
    wl.attention = EST_ATTN_FLASH;
    wl.shard = EST_SHARD_FSDP;
    wl.gpus = 8;
    struct est_result a, b;
    struct oomlab_err err;
    assert_int_equal(est_compute(&m, &wl, &a, &err), 0);
    wl.no_reshard = true;
    assert_int_equal(est_compute(&m, &wl, &b, &err), 0);
    int64_t layer = (8030261248LL - 2LL * 128256 * 4096) / 32;
    assert_int_equal(b.comp[EST_C_TEMP].bytes - a.comp[EST_C_TEMP].bytes, 31 * 2 * layer);
    assert_int_equal(b.comp[EST_C_OPTIM].bytes, a.comp[EST_C_OPTIM].bytes);
    assert_int_equal(b.comp[EST_C_MASTER].bytes, 0);
    wl.shard = EST_SHARD_ZERO2;
    assert_int_not_equal(est_compute(&m, &wl, &b, &err), 0);
}

/* torchtitan compiles its loss under --training.compile from bbb1b616e
 * (2025-04-02; torchtitan/components/loss.py build_cross_entropy_loss):
 * Inductor's partitioner saves the 16-bit pred, not the fp32 log-softmax
 * (bench/estimate-oracle-closs), and backward writes a 16-bit gradient. At
 * the loss's backward the logits term is 2 B per logit, not eager's 4, and
 * the loss's temporaries 2 B, not 8. --compile-loss no is the eager loss
 * (torchtitan before 2025-04-02, prime-rl); without --compile it is eager
 * too; other trainers are refused. */
static void test_torchtitan_compiled_loss(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-3-8b");
    struct est_workload wl = fx_workload(EST_BF16_MIXED, 1, 8192);
    wl.attention = EST_ATTN_FLASH;
    wl.shard = EST_SHARD_FSDP;
    wl.gpus = 8;
    wl.trainer = EST_TRAINER_TORCHTITAN;
    wl.compiled = true;
    int64_t VT = 8192LL * 128256;
    struct est_result a, b, c;
    struct oomlab_err err;
    assert_int_equal(est_compute(&m, &wl, &a, &err), 0);
    assert_int_equal(a.comp[EST_C_LOGITS].bytes, 2 * VT);
    wl.compile_loss = 2;
    assert_int_equal(est_compute(&m, &wl, &b, &err), 0);
    assert_int_equal(b.comp[EST_C_LOGITS].bytes, 4 * VT);
    assert_true(b.peak_allocated_bytes - a.peak_allocated_bytes >= 2 * VT);
    wl.compile_loss = 0;
    wl.compiled = false;
    assert_int_equal(est_compute(&m, &wl, &c, &err), 0);
    assert_int_equal(c.comp[EST_C_LOGITS].bytes, 4 * VT);
    wl.compile_loss = 1; /* the loss alone compiled */
    assert_int_equal(est_compute(&m, &wl, &c, &err), 0);
    assert_int_equal(c.comp[EST_C_LOGITS].bytes, 2 * VT);
    wl.trainer = EST_TRAINER_HF;
    assert_int_not_equal(est_compute(&m, &wl, &c, &err), 0);
}

/* Own GPT code under torch.compile(model) whose forward takes the loss
 * (Jjschwartz/gollem:gollem/models/gpt2/model.py@7af426c GPT.forward,
 * config.py l.89 `model = torch.compile(model)`): cross-entropy is in the
 * compiled graph, so the partitioner (torch 2's rules, bench/estimate-
 * oracle-closs "own-code") saves the 16-bit logits and backward writes a
 * 16-bit gradient: 2 + 2 B per logit at the loss's backward where the
 * eager upcast path holds 4 + 8. --trainer torchtune --compile
 * --compile-loss yes says so; auto stays eager for torchtune (its recipe
 * drops compile_loss's return for plain CE); without --compile refused. */
static void test_own_code_compiled_loss(void **state)
{
    (void)state;
    struct est_model m = fx_preset("gpt2");
    struct est_workload wl = fx_workload(EST_BF16_MIXED, 8, 1024);
    wl.attention = EST_ATTN_SDPA;
    wl.trainer = EST_TRAINER_TORCHTUNE;
    wl.compiled = true;
    int64_t VT = 8192LL * 50257;
    struct est_result a, b;
    struct oomlab_err err;
    assert_int_equal(est_compute(&m, &wl, &a, &err), 0);
    assert_int_equal(a.comp[EST_C_LOGITS].bytes, 4 * VT);
    wl.compile_loss = 1;
    assert_int_equal(est_compute(&m, &wl, &b, &err), 0);
    assert_int_equal(b.comp[EST_C_LOGITS].bytes, 2 * VT);
    assert_true(a.peak_allocated_bytes - b.peak_allocated_bytes >= 8 * VT);
    assert_non_null(strstr(est_loss_path(&m, &wl), "own model code"));
    wl.compiled = false;
    assert_int_not_equal(est_compute(&m, &wl, &b, &err), 0);
    wl.compiled = true;
    wl.trainer = EST_TRAINER_LITGPT;
    assert_int_not_equal(est_compute(&m, &wl, &b, &err), 0);
}

/* --loss-upcast no: a pure bf16 loop calling F.cross_entropy on the model's
 * bf16 logits (rasbt/LLMs-from-scratch:ch05/10_llm-training-speed/
 * 01_opt_single_gpu.py@908dd2f) keeps a bf16 log-softmax and holds two bf16
 * gradients at the loss's backward (bench/estimate-oracle-ce16): 2 + 4 B per
 * logit where the upcast path is 4 + 8. Autocast and litgpt (Fabric's fp32
 * chunks) are refused; auto keeps the fp32 path. */
static void test_loss_upcast_no(void **state)
{
    (void)state;
    struct est_model m = fx_preset("gpt2");
    struct est_workload wl = fx_workload(EST_BF16, 8, 1024);
    wl.attention = EST_ATTN_FLASH;
    wl.trainer = EST_TRAINER_TORCHTUNE;
    int64_t VT = 8192LL * 50257;
    struct est_result a, b, c;
    struct oomlab_err err;
    assert_int_equal(est_compute(&m, &wl, &a, &err), 0);
    assert_int_equal(a.comp[EST_C_LOGITS].bytes, 4 * VT);
    assert_int_equal(a.comp[EST_C_TEMP].bytes, 8 * VT);
    wl.loss_upcast = 2;
    assert_int_equal(est_compute(&m, &wl, &b, &err), 0);
    assert_int_equal(b.comp[EST_C_LOGITS].bytes, 2 * VT);
    assert_int_equal(b.comp[EST_C_TEMP].bytes, 4 * VT);
    assert_true(a.peak_allocated_bytes - b.peak_allocated_bytes >= 6 * VT);
    assert_non_null(strstr(est_loss_path(&m, &wl), "16-bit"));
    wl.loop_holds = EST_KEEP_LOGITS; /* the loop holds the bf16 logits */
    assert_int_equal(est_compute(&m, &wl, &c, &err), 0);
    assert_int_equal(c.comp[EST_C_LOGITS].bytes, 4 * VT);
    wl.loop_holds = EST_KEEP_AUTO;
    wl.trainer = EST_TRAINER_HF; /* GPT-2's head returns bf16 logits */
    assert_int_equal(est_compute(&m, &wl, &c, &err), 0);
    wl.precision = EST_BF16_MIXED; /* autocast: cross_entropy on its fp32 list */
    assert_int_not_equal(est_compute(&m, &wl, &c, &err), 0);
    wl.precision = EST_BF16;
    wl.trainer = EST_TRAINER_LITGPT;
    assert_int_not_equal(est_compute(&m, &wl, &c, &err), 0);
    /* a Llama preset's shape on model code that does not upcast (litgpt's
     * GPT in lightning-thunder's benchmark_litgpt.py: the bf16 logits held,
     * cross_entropy on them): held 2 + log-softmax 2, not fp32 */
    struct est_model ll = fx_preset("llama-3-8b");
    wl.trainer = EST_TRAINER_HF;
    wl.batch = 1;
    wl.loop_holds = EST_KEEP_LOGITS;
    assert_int_equal(est_compute(&ll, &wl, &c, &err), 0);
    assert_int_equal(c.comp[EST_C_LOGITS].bytes, 4LL * 1024 * 128256);
    wl.loss_upcast = 0;
    assert_int_equal(est_compute(&ll, &wl, &c, &err), 0);
    assert_true(c.comp[EST_C_LOGITS].bytes > 4LL * 1024 * 128256);
}

/* Autocast on fp32 weights (Fabric "16-mixed" / "bf16-mixed" on DistilBERT,
 * rasbt/LLM-finetuning-scripts mixed-precision-experiment@a099246), one
 * encoder block per token, as bench/estimate-oracle's encoder_block_check
 * measures it on torch 1.13 (h 64, 4 heads, ffn 256, 2 x 24 tokens, eager,
 * dropout 0.1: 158976 B / 48 tokens): q, k and v each keep their own 16-bit
 * cast of the fp32 block input (6h; autocast caches no cast of a non-leaf
 * tensor), q, k, v (6h), per score element the fp32 softmax, the dropout's
 * mask and the 16-bit cast the matmul keeps (4 + 1 + 2: the dropout's fp32
 * output is not kept), the output projection's input (2h), the fp32
 * LayerNorm inputs (2 x (4h + 8)), fc1's cast input (2h), the GELU input
 * and fc2's input (2 x 2f), the hidden dropout's mask (h). */
static void test_autocast_encoder_block(void **state)
{
    (void)state;
    struct est_model m = fx_preset("distilbert-base-uncased");
    m.hidden = 64, m.heads = 4, m.ffn = 256, m.vocab = 512, m.head_dim = 0, m.kv_heads = 0;
    struct est_workload wl = fx_workload(EST_BF16_MIXED, 2, 24);
    wl.attention = EST_ATTN_EAGER;
    wl.head = EST_HEAD_CLS;
    m.dropout = 1;
    struct est_result a, b;
    struct oomlab_err err;
    struct est_model m2 = m, m4 = m;
    m2.layers = 2, m4.layers = 4;
    assert_int_equal(est_model_finish(&m2, &err), 0);
    assert_int_equal(est_model_finish(&m4, &err), 0);
    assert_int_equal(est_compute(&m2, &wl, &a, &err), 0);
    assert_int_equal(est_compute(&m4, &wl, &b, &err), 0);
    int64_t h = 64, f = 256, hs = 4 * 24;
    int64_t want = 6 * h + 6 * h + 7 * hs + 2 * h + 2 * (4 * h + 8) + 2 * h + 2 * 2 * f + h;
    assert_int_equal((b.comp[EST_C_ACTS].bytes - a.comp[EST_C_ACTS].bytes) / 2 / 48, want);
}

/* Gemma 3 (gemma3_text): Gemma3RMSNorm multiplies the fp32 normalized tensor
 * by 1 + w in fp32 and casts after, so each of the four block norms, the
 * final norm and the q/k norms keeps the fp32 normalized tensor for the
 * weight's gradient, not a 16-bit one (modeling_gemma3.py@0018aa64;
 * bench/estimate-oracle's Gemma3 block measures it). Against a Gemma 2 of the
 * same shape (four Llama-rule norms, no q/k norms), in bf16: per token and
 * block 4 x 2h + (4 + 4)(qd + kvd) + 4(heads + kv_heads), and 2h for the
 * final norm. Gemma 3 1B counts 999,885,952 parameters. */
static void test_gemma3_norms_keep_fp32(void **state)
{
    (void)state;
    assert_int_equal(preset_params("gemma-3-1b", EST_HEAD_LM), 999885952);
    struct est_model g3 = fx_preset("gemma-3-1b"), g2 = g3;
    g2.family = EST_FAM_GEMMA2;
    struct est_workload wl = fx_workload(EST_BF16, 1, 1024);
    wl.attention = EST_ATTN_SDPA;
    struct est_result a, b;
    struct oomlab_err err;
    assert_int_equal(est_compute(&g3, &wl, &a, &err), 0);
    assert_int_equal(est_compute(&g2, &wl, &b, &err), 0);
    int64_t T = 1024, L = 26, h = 1152, qd = 4 * 256, kvd = 256;
    assert_int_equal(a.comp[EST_C_ACTS].bytes - b.comp[EST_C_ACTS].bytes,
                     L * T * (4 * 2 * h + 8 * (qd + kvd) + 4 * (4 + 1)) + T * 2 * h);
}

/* Explicit dimensions (--arch F --layers ... --vocab ...) start from the
 * family's HF defaults — tied embeddings and position-table rows — and so
 * count exactly what the preset (the published config) counts. */
static void test_explicit_dims_take_family_defaults(void **state)
{
    (void)state;
    static const struct { const char *preset; bool tied; } cases[] = {
        {"gpt2", true},         {"pythia-160m", false},   {"opt-125m", true},
        {"llama-2-7b", false},  {"mistral-7b", false},    {"qwen2-7b", false},
        {"gemma-2b", true},     {"phi-2", false},         {"phi-3-mini", false},
        {"falcon-7b", true},    {"bloom-560m", true},     {"bert-base-uncased", true},
        {"roberta-base", true}, {"t5-small", true},       {"mixtral-8x7b", false},
        {"qwen3-8b", false},    {"distilbert-base-uncased", true}, {"xlm-roberta-base", true},
        {"electra-base-discriminator", true}, {"gemma-3-1b", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct model_preset *p = models_find(cases[i].preset);
        assert_non_null(p);
        struct est_model m, want = p->m;
        struct oomlab_err err;
        int64_t got = 0, expect = 0;
        memset(&m, 0, sizeof m);
        m.family = want.family;
        m.layers = want.layers;
        m.hidden = want.hidden;
        m.heads = want.heads;
        m.kv_heads = want.kv_heads;
        m.head_dim = want.head_dim;
        m.ffn = want.ffn;
        m.vocab = want.vocab;
        m.experts = want.experts;
        m.experts_per_token = want.experts_per_token;
        m.tied_embeddings = est_family_tied_default(m.family);
        assert_int_equal(m.tied_embeddings, cases[i].tied);
        assert_int_equal(est_model_finish(&m, &err), 0);
        assert_int_equal(est_model_finish(&want, &err), 0);
        assert_int_equal(est_params(&m, NULL, &got, NULL, &err), 0);
        assert_int_equal(est_params(&want, NULL, &expect, NULL, &err), 0);
        if (got != expect) fprintf(stderr, "%s: %lld != %lld\n", cases[i].preset, (long long)got, (long long)expect);
        assert_int_equal(got, expect);
    }
    /* the user-visible case: GPT-2 124M from dimensions alone, tied wte */
    struct est_model g;
    struct oomlab_err err;
    int64_t total = 0;
    memset(&g, 0, sizeof g);
    g.family = EST_FAM_GPT2;
    g.layers = 12;
    g.hidden = 768;
    g.heads = 12;
    g.vocab = 50257;
    g.tied_embeddings = est_family_tied_default(EST_FAM_GPT2);
    assert_int_equal(est_model_finish(&g, &err), 0);
    assert_int_equal(est_params(&g, NULL, &total, NULL, &err), 0);
    assert_int_equal(total, 124439808);
}

/* A toy Llama: 2 layers, hidden 8, 2 heads (head_dim 4), ffn 16, vocab 10, untied.
 * embed 80 + 2 x (attn 4*64 + mlp 3*8*16 + norms 2*8 = 656) + final norm 8 + head 80 = 1480. */
static struct est_model toy(void)
{
    struct est_model m;
    struct oomlab_err err;
    memset(&m, 0, sizeof m);
    m.family = EST_FAM_LLAMA;
    m.layers = 2;
    m.hidden = 8;
    m.heads = 2;
    m.ffn = 16;
    m.vocab = 10;
    assert_int_equal(est_model_finish(&m, &err), 0);
    return m;
}

static void test_model_states_fp32_adamw(void **state)
{
    (void)state;
    struct est_model m = toy();
    struct est_workload wl = fx_workload(EST_FP32, 1, 4);
    struct est_result r;
    struct oomlab_err err;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.params, 1480);
    assert_int_equal(r.comp[EST_C_WEIGHTS].bytes, 1480 * 4);
    assert_int_equal(r.comp[EST_C_GRADS].bytes, 1480 * 4);
    assert_int_equal(r.comp[EST_C_OPTIM].bytes, 1480 * 8);
    assert_int_equal(r.comp[EST_C_WEIGHT_COPIES].bytes, 0);
    wl.optimizer = EST_OPT_ADAMW8;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_OPTIM].bytes, 1480 * 2);
    wl.optimizer = EST_OPT_SGD;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_OPTIM].bytes, 0);
    wl.optimizer = EST_OPT_LION;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_OPTIM].bytes, 1480 * 4);
    /* the foreach step holds one copy of the states' size; per-tensor/fused does not */
    wl.optimizer = EST_OPT_ADAMW;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    int64_t foreach_peak = r.peak_allocated_bytes;
    wl.foreach = false;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_true(r.peak_allocated_bytes < foreach_peak);
    wl.foreach = true;
    /* pure bf16: 2 B weights and grads, AdamW states in bf16 */
    wl.optimizer = EST_OPT_ADAMW;
    wl.precision = EST_BF16;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_WEIGHTS].bytes, 1480 * 2);
    assert_int_equal(r.comp[EST_C_OPTIM].bytes, 1480 * 4);
    /* bf16-mixed: fp32 weights + 16-bit copies of the block linears (2 x 256+384)
     * and of the LM head, whose matmul keeps its cached cast (V x h = 80;
     * bench/estimate-oracle's bf16-mixed points) */
    wl.precision = EST_BF16_MIXED;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_WEIGHTS].bytes, 1480 * 4);
    assert_int_equal(r.comp[EST_C_WEIGHT_COPIES].bytes, 2 * (2 * 640 + 80));
}

/* Activation bytes per token of one block: the difference between the toy
 * with 2 layers and with 1 (the embedding/final-norm term cancels). */
static int64_t block_bytes(const struct est_workload *wl, int64_t tokens)
{
    struct est_model two = toy(), one = toy();
    struct est_result r2, r1;
    struct oomlab_err err;
    one.layers = 1;
    assert_int_equal(est_compute(&two, wl, &r2, &err), 0);
    assert_int_equal(est_compute(&one, wl, &r1, &err), 0);
    return (r2.comp[EST_C_ACTS].bytes - r1.comp[EST_C_ACTS].bytes) / tokens;
}

/* RMSNorm in 16-bit computes on x.float(): the fp32 copy (4h) is kept, the
 * 16-bit input is not; the normalized tensor (2h) only when the weight trains.
 * Toy: h 8, qd = kvd' = 8, f 16, pure bf16, sdpa, 2 heads. */
static void test_rmsnorm_keeps_the_fp32_copy(void **state)
{
    (void)state;
    struct est_workload wl = fx_workload(EST_BF16, 2, 4);
    /* full: norms 2 x (32 + fp32 rsqrt 4 + 16) + qkv input 16 + q,k,v 48 +
     * sdpa out 16 and lse 8 + o input 16 + mlp input 16 + gate, up, act 96 +
     * down input 32 */
    assert_int_equal(block_bytes(&wl, 8), 104 + 16 + 48 + 24 + 16 + 16 + 96 + 32);
    /* LoRA on q,v: frozen norms keep only the fp32 copy; frozen o, gate/up,
     * down keep no input; without dropout (PEFT's default) lora_A keeps the
     * q/v input once (2h); with dropout each of the two adapters keeps its
     * dropout output and mask (3h each) instead */
    wl.lora_r = 4; /* + each lora_B keeps lora_A's output: 2 B x r 4 x 2 adapters */
    wl.peft_old = true; /* PEFT < 0.12: the adapters in the base's bf16 */
    assert_int_equal(block_bytes(&wl, 8), 72 + 16 + 16 + 48 + 24 + 96);
    wl.lora_dropout = 0.1;
    assert_int_equal(block_bytes(&wl, 8), 72 + 48 + 16 + 48 + 24 + 96);
    /* PEFT >= 0.12: fp32 adapters, each on its own x.to(fp32): lora_A keeps
     * that copy (4h each, the bf16 input no longer kept) or the fp32 dropout
     * output and mask (5h each); lora_B keeps an fp32 r-wide input */
    wl.peft_old = false;
    assert_int_equal(block_bytes(&wl, 8), 72 + 80 + 32 + 48 + 24 + 96);
    wl.lora_dropout = 0;
    assert_int_equal(block_bytes(&wl, 8), 72 + 64 + 32 + 48 + 24 + 96);
    wl.lora_dropout = -1;
    /* under autocast the residual is already fp32: the upcast is that tensor
     * (4h), the normalized one stays fp32 (4h) when the weight trains; the
     * normalized fp32 output is cast anew by each linear that takes it
     * (autocast caches no non-leaf cast): q, k, v and gate, up keep 3 + 2
     * 16-bit copies (2h each), not one per norm (bench/estimate-oracle's
     * Llama bf16-mixed point) */
    wl.lora_r = 0;
    wl.precision = EST_BF16_MIXED;
    assert_int_equal(block_bytes(&wl, 8), 136 + 3 * 16 + 48 + 24 + 16 + 2 * 16 + 96 + 32);
}

/* Checkpointing policies, named by what they keep (toy: 2 layers, bf16,
 * sdpa, 8 tokens). every:N checkpoints floor(L / N) blocks (torchtitan's
 * layer SAC checkpoints the N-th, 2N-th... block); op keeps the block input,
 * the fused attention's output and logsumexp and every other matmul output
 * (torchtitan's op SAC). */
static void test_checkpoint_policies(void **state)
{
    (void)state;
    struct est_model m = toy();
    struct est_workload wl = fx_workload(EST_BF16, 2, 4);
    struct est_result none, block, ev1, ev2, ev3, op;
    struct oomlab_err err;
    enum est_ckpt c;
    int64_t every = 0;
    /* gradients kept (zero_grad(set_to_none=False)): the toy's gradients
     * outweigh its 8 tokens, and with none kept block checkpointing would
     * peak at the first block's recompute (test_ckpt_later_grads); this test
     * compares the policies' saved sets */
    wl.keep_grads = true;
    assert_int_equal(est_compute(&m, &wl, &none, &err), 0);
    wl.ckpt = EST_CKPT_FULL;
    assert_int_equal(est_compute(&m, &wl, &block, &err), 0);
    wl.ckpt = EST_CKPT_EVERY;
    wl.ckpt_every = 1;
    assert_int_equal(est_compute(&m, &wl, &ev1, &err), 0);
    wl.ckpt_every = 2;
    assert_int_equal(est_compute(&m, &wl, &ev2, &err), 0);
    wl.ckpt_every = 3;
    assert_int_equal(est_compute(&m, &wl, &ev3, &err), 0);
    wl.ckpt = EST_CKPT_OP;
    assert_int_equal(est_compute(&m, &wl, &op, &err), 0);
    assert_int_equal(ev1.comp[EST_C_ACTS].bytes, block.comp[EST_C_ACTS].bytes);
    assert_int_equal(ev3.comp[EST_C_ACTS].bytes, none.comp[EST_C_ACTS].bytes); /* floor(2/3) = 0 */
    /* every:2: block 2 keeps its input (2 B x h 8), block 1 everything, and
     * block 2 recomputed saves everything again (RMSNorm in bf16 keeps
     * x.float(), not the input): one checkpointed block of two costs its
     * input more than none */
    assert_int_equal(ev2.comp[EST_C_ACTS].bytes - none.comp[EST_C_ACTS].bytes, (int64_t)8 * 16);
    /* op, per token and block: input 16 + q 16 + v 16 + gate 32 + down 16 +
     * sdpa out 16 + lse 8 = 120, against block's 16 */
    assert_int_equal(op.comp[EST_C_ACTS].bytes - block.comp[EST_C_ACTS].bytes, (int64_t)8 * 2 * (120 - 16));
    /* names */
    assert_int_equal(est_ckpt_parse_arg("selective", &c, &every), 0);
    assert_int_equal(c, EST_CKPT_SELECTIVE);
    assert_int_equal(est_ckpt_parse_arg("full", &c, &every), 0);
    assert_int_equal(c, EST_CKPT_FULL);
    assert_int_equal(est_ckpt_parse_arg("every:4", &c, &every), 0);
    assert_int_equal(c, EST_CKPT_EVERY);
    assert_int_equal(every, 4);
    assert_int_equal(est_ckpt_parse_arg("every:0", &c, &every), -1);
    assert_int_equal(est_ckpt_parse_arg("every:", &c, &every), -1);
    assert_int_equal(est_ckpt_parse_arg("every:2x", &c, &every), -1);
    assert_int_equal(est_ckpt_parse_arg("every", &c, &every), -1);
    assert_int_equal(est_ckpt_parse_arg("sometimes", &c, &every), -1);
    char buf[24];
    assert_string_equal(est_ckpt_describe(&wl, buf, sizeof buf), "op");
    wl.ckpt = EST_CKPT_EVERY;
    wl.ckpt_every = 3;
    assert_string_equal(est_ckpt_describe(&wl, buf, sizeof buf), "every:3");
}

/* Issue 10: when batch 1 does not fit, the fewest levers that fit together
 * (not each alone), with the peak they give; none needed when it fits. */
static void test_fit_combo(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-3-8b");
    struct est_workload wl, alt;
    struct est_combo c;
    struct est_result r;
    struct oomlab_err err;
    est_workload_init(&wl);
    wl.seq = 2048;
    wl.capacity_bytes = gpus_find("a10g")->capacity_bytes;
    assert_int_equal(est_fit_combo(&m, &wl, &c, &err), 0);
    assert_true(c.n >= 2); /* no single lever is enough for an 8B full fine-tune on 24 GB */
    assert_true((long double)c.device_used_bytes <= 0.85L * (long double)wl.capacity_bytes);
    /* the result is what those changes give together */
    alt = wl;
    alt.ckpt = EST_CKPT_FULL;
    alt.lora_r = 16;
    alt.lora_targets = EST_LORA_ALL;
    alt.quant = EST_QUANT_NF4;
    assert_int_equal(c.n, 3);
    assert_string_equal(c.what[0], "grad-ckpt block");
    assert_string_equal(c.what[1], "LoRA r16 (all linears)");
    assert_string_equal(c.what[2], "quant nf4");
    assert_int_equal(est_compute(&m, &alt, &r, &err), 0);
    assert_int_equal(c.device_used_bytes, r.device_used_bytes);
    /* each of the three alone does not fit */
    struct est_workload one = wl;
    one.ckpt = EST_CKPT_FULL;
    assert_int_equal(est_compute(&m, &one, &r, &err), 0);
    assert_true((long double)r.device_used_bytes > 0.85L * (long double)wl.capacity_bytes);
    /* fits already: nothing to change; a 70B on a T4: nothing makes it fit */
    wl.capacity_bytes = (int64_t)1 << 42;
    assert_int_equal(est_fit_combo(&m, &wl, &c, &err), 0);
    assert_int_equal(c.n, 0);
    struct est_model big = fx_preset("llama-3-70b");
    wl.capacity_bytes = gpus_find("t4")->capacity_bytes;
    assert_int_equal(est_fit_combo(&big, &wl, &c, &err), 0);
    assert_int_equal(c.n, -1);
}

/* bitsandbytes PagedAdamW (litgpt's QLoRA): 32-bit states; those of tensors
 * of 1e5 elements or more live in managed memory, in device used but not in
 * torch's peaks. Llama-2-7B, LoRA r32 on q,v: every A (32 x 4096) and B
 * (4096 x 32) is 131072 elements, so all of it is paged. */
static void test_paged_optimizer(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 512);
    struct est_result plain, paged;
    struct oomlab_err err;
    wl.lora_r = 32;
    wl.quant = EST_QUANT_NF4;
    wl.trainer = EST_TRAINER_LITGPT;
    wl.optimizer = EST_OPT_ADAMW;
    assert_int_equal(est_compute(&m, &wl, &plain, &err), 0);
    wl.optimizer = EST_OPT_PAGED_ADAMW;
    assert_int_equal(est_compute(&m, &wl, &paged, &err), 0);
    int64_t pt = paged.trainable_params;
    assert_int_equal(pt, (int64_t)32 * 16384 * 32);
    assert_int_equal(paged.comp[EST_C_OPTIM].bytes, 0);
    assert_int_equal(paged.managed_bytes, 8 * pt);
    assert_int_equal(plain.comp[EST_C_OPTIM].bytes, 4 * pt); /* torch AdamW: bf16 m, v */
    assert_true(paged.peak_allocated_bytes < plain.peak_allocated_bytes);
    assert_true(paged.device_used_bytes - paged.peak_reserved_bytes > 8 * pt);
    assert_int_equal(est_optimizer_parse("paged-adamw"), EST_OPT_PAGED_ADAMW);
    /* r 8 on hidden 4096: 32768-element A and B stay in torch's memory */
    wl.lora_r = 8;
    assert_int_equal(est_compute(&m, &wl, &paged, &err), 0);
    assert_int_equal(paged.managed_bytes, 0);
    assert_int_equal(paged.comp[EST_C_OPTIM].bytes, 8 * paged.trainable_params);
}

/* The loss buffers by trainer, toy LM head: T = 8 tokens, V = 10, bf16. */
static void test_trainer_loss_buffers(void **state)
{
    (void)state;
    struct est_model m = toy();
    struct est_workload wl = fx_workload(EST_BF16, 2, 4);
    struct est_result r;
    struct oomlab_err err;
    assert_int_equal(est_trainer_parse("torchtune"), EST_TRAINER_TORCHTUNE);
    assert_int_equal(est_trainer_parse("llmc"), EST_TRAINER_LLMC);
    assert_int_equal(est_trainer_parse("llm.c"), EST_TRAINER_LLMC);
    assert_int_equal(est_trainer_parse("deepspeed"), -1);
    assert_string_equal(est_trainer_name(EST_TRAINER_LITGPT), "litgpt");
    /* HF: the 16-bit logits stay with the caller next to the fp32 log-softmax */
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, 80 * (2 + 4));
    /* a family that returns 16-bit logits (GPT-2: no logits.float()) under
     * DeepSpeed's engine, which runs no autocast: 16-bit log-softmax; a
     * plain bf16 run (HF Trainer --bf16 autocasts) and Llama (logits.float())
     * keep the fp32 one */
    m.family = EST_FAM_GPT2;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, 80 * (2 + 4));
    wl.shard = EST_SHARD_ZERO2; /* one GPU: DeepSpeed's buffers, nothing partitioned */
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, 80 * (2 + 2));
    m.family = EST_FAM_LLAMA;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, 80 * (2 + 4));
    wl.shard = EST_SHARD_NONE;
    /* torchtune: logits.float() then `del logits`: the fp32 log-softmax only */
    wl.trainer = EST_TRAINER_TORCHTUNE;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, 80 * 4);
    /* litgpt: Fabric's convert_output makes the chunks fp32; each chunk's
     * fp32 log-softmax beside them */
    wl.trainer = EST_TRAINER_LITGPT;
    wl.loss = EST_LOSS_CHUNKED;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, 80 * 8);
    wl.precision = EST_FP32;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, 80 * 8);
}

/* llm.c preallocates one activation layout; for GPT-2 124M (vocab padded to
 * 50304), B 4, T 1024, bf16, GeLU recompute (-r 1), cuDNN attention, its log
 * prints activations 1326 MiB, params 237, grads 237, m, v and master 474. */
static void test_llmc_layout(void **state)
{
    (void)state;
    struct est_model m = fx_preset("gpt2");
    struct est_workload wl = fx_workload(EST_BF16_MIXED, 1, 512);
    struct est_result r;
    struct oomlab_err err;
    m.vocab = 50304;
    assert_int_equal(est_model_finish(&m, &err), 0);
    wl.trainer = EST_TRAINER_LLMC;
    wl.precision = EST_BF16;
    wl.master_weights = true;
    wl.batch = 4;
    wl.seq = 1024;
    wl.ckpt = EST_CKPT_SELECTIVE;
    wl.attention = EST_ATTN_FLASH;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    const int64_t BT = 4096, C = 768, L = 12, NH = 12, T = 1024, Vp = 50304;
    int64_t layout = 2 * BT * (C + L * (5 * C + 3 * C + 4 * C) + 4 * C + C) + 4 * BT * (4 * L + 3) +
                     4 * L * 4 * NH * T + 2 * BT * Vp + 2 * BT * (4 * C + C);
    int64_t acts = r.comp[EST_C_ACTS].bytes + r.comp[EST_C_LOGITS].bytes + r.comp[EST_C_TEMP].bytes;
    assert_true(acts - layout <= 2 && layout - acts <= 2);
    double mib = (double)acts / 1048576.0;
    assert_true(mib > 1319.0 && mib < 1333.0); /* the log's 1326 MiB, within 0.5% */
    assert_int_equal(r.comp[EST_C_WEIGHTS].bytes, r.params * 2);
    assert_int_equal(r.comp[EST_C_MASTER].bytes, r.params * 4);
    assert_int_equal(r.comp[EST_C_OPTIM].bytes, r.params * 8);
    assert_int_equal(r.comp[EST_C_SLACK].bytes, 0);
    assert_true(r.comp[EST_C_GRADS].at_peak);
    int64_t sum = 0;
    for (int i = EST_C_WEIGHTS; i <= EST_C_TEMP; i++) sum += r.comp[i].bytes;
    assert_int_equal(r.peak_allocated_bytes, sum); /* everything is live at once */
    /* the plain kernels keep the whole score matrix instead of the stats */
    wl.attention = EST_ATTN_EAGER;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    int64_t eager = r.comp[EST_C_ACTS].bytes + r.comp[EST_C_LOGITS].bytes + r.comp[EST_C_TEMP].bytes;
    assert_int_equal(eager - acts, 2 * L * 4 * NH * T * T - 4 * L * 4 * NH * T);
}

static void test_eager_scores_only_in_eager(void **state)
{
    (void)state;
    struct est_model m = toy();
    struct est_workload wl = fx_workload(EST_FP16, 1, 4);
    struct est_result eager, sdpa;
    struct oomlab_err err;
    wl.attention = EST_ATTN_EAGER;
    assert_int_equal(est_compute(&m, &wl, &eager, &err), 0);
    wl.attention = EST_ATTN_SDPA;
    assert_int_equal(est_compute(&m, &wl, &sdpa, &err), 0);
    /* per token and layer: eager keeps 6 B (fp32 softmax + fp16 copy) x heads 2 x seq 4
     * = 48 B; sdpa keeps its output 2 B x 8 + logsumexp 4 B x 2 = 24 B. 4 tokens x 2 layers. */
    assert_int_equal(eager.comp[EST_C_ACTS].bytes - sdpa.comp[EST_C_ACTS].bytes, (48 - 24) * 4 * 2);
    wl.attention = EST_ATTN_FLASH;
    struct est_result flash;
    assert_int_equal(est_compute(&m, &wl, &flash, &err), 0);
    /* flash-attn's (B, T, H, D) output is viewed as o_proj's input: no copy,
     * 2 B x qd 8 less per token and layer than sdpa's transposed copy */
    assert_int_equal(sdpa.comp[EST_C_ACTS].bytes - flash.comp[EST_C_ACTS].bytes, 16 * 4 * 2);
}

static void test_checkpointing_and_lora(void **state)
{
    (void)state;
    const struct model_preset *p = models_find("llama-2-7b");
    struct est_model m = p->m;
    struct est_workload wl = fx_workload(EST_BF16_MIXED, 4, 2048);
    struct est_result none, full, lora;
    struct oomlab_err err;
    int64_t delta;
    assert_int_equal(est_model_finish(&m, &err), 0);
    assert_int_equal(est_compute(&m, &wl, &none, &err), 0);
    struct est_workload ck = wl;
    ck.ckpt = EST_CKPT_FULL;
    assert_int_equal(est_compute(&m, &ck, &full, &err), 0);
    assert_true(full.comp[EST_C_ACTS].bytes * 5 < none.comp[EST_C_ACTS].bytes);
    assert_int_equal(est_delta(&m, &wl, &ck, &delta, &err), 0);
    assert_int_equal(delta, full.peak_allocated_bytes - none.peak_allocated_bytes);
    assert_true(delta < 0);
    /* LoRA r16 on q,v: trainable = 16 x ((4096+4096) + (4096+4096)) x 32 layers */
    struct est_workload lw = wl;
    lw.lora_r = 16;
    assert_int_equal(est_compute(&m, &lw, &lora, &err), 0);
    assert_int_equal(lora.trainable_params, (int64_t)16 * 16384 * 32);
    assert_int_equal(lora.comp[EST_C_GRADS].bytes, lora.trainable_params * 4);
    assert_int_equal(lora.comp[EST_C_OPTIM].bytes, lora.trainable_params * 8);
    /* LoRA activations, per token and block (bf16, h = 4096, 32 blocks):
     * without dropout lora_A keeps the q/v input itself, once (2h); with
     * dropout each adapter keeps its dropout output and bool mask (3h), two
     * adapters under PEFT, one fused q,k,v adapter under litgpt. */
    struct est_result d0, d5, lit;
    lw.precision = EST_BF16;
    lw.peft_old = true; /* adapters in bf16 (PEFT < 0.12; test_peft_fp32_adapters for >= 0.12) */
    lw.lora_dropout = 0;
    assert_int_equal(est_compute(&m, &lw, &d0, &err), 0);
    lw.lora_dropout = 0.05;
    assert_int_equal(est_compute(&m, &lw, &d5, &err), 0);
    int64_t tok = (int64_t)wl.batch * wl.seq, per = tok * 32 * 4096;
    /* the first block's q,v dropout runs on a tensor that needs no grad:
     * no masks there (h per adapter and token) */
    assert_int_equal(d5.comp[EST_C_ACTS].bytes - d0.comp[EST_C_ACTS].bytes, per * (6 - 2) - tok * 2 * 4096);
    lw.trainer = EST_TRAINER_LITGPT;
    assert_int_equal(est_compute(&m, &lw, &lit, &err), 0);
    /* one fused adapter: one dropout copy + mask; its stacked lora_A output
     * (r x 2, as PEFT's two lora_B inputs); zero_pad's index_copy keeps its
     * source, the q and v parts (2 x 2h); litgpt's v is a view of the fused
     * qkv output, which it keeps alive (q and k parts: 2 x 2h); litgpt's RoPE
     * cos/sin are slices of buffers, HF's are built per forward (2 x
     * head_dim x 2 B per token) */
    assert_int_equal(d5.comp[EST_C_ACTS].bytes - lit.comp[EST_C_ACTS].bytes,
                     per * (6 - 3) - tok * 4096 - per * 4 - per * 4 + tok * 2 * 128 * 2);
    lw.lora_dropout = -1; /* litgpt's default is 0.05 */
    assert_int_equal(est_compute(&m, &lw, &d0, &err), 0);
    assert_int_equal(d0.comp[EST_C_ACTS].bytes, lit.comp[EST_C_ACTS].bytes);
    lw.trainer = EST_TRAINER_HF;
    lw.lora_dropout = 1.5;
    assert_int_equal(est_compute(&m, &lw, &d0, &err), -1);
    lw.lora_dropout = -1;
    /* QLoRA: nf4 block linears are ~0.52 B/param */
    lw.quant = EST_QUANT_NF4;
    lw.precision = EST_BF16;
    assert_int_equal(est_compute(&m, &lw, &lora, &err), 0);
    assert_true(lora.comp[EST_C_WEIGHTS].bytes < (int64_t)4500000000);
    assert_true(lora.comp[EST_C_WEIGHTS].bytes > (int64_t)3500000000);
}

/* bitsandbytes' 4-bit matmul dequantizes one linear at a time
 * (MatMul4Bit, bitsandbytes 0.42.0); from an fp16 quant state (bitsandbytes
 * < 0.43, Lightning's plugin always) computing in bf16 holds a bf16 copy
 * beside the fp16 one. litgpt: its own lm_head (never tied), quantized too,
 * and v a view of the fused qkv output (litgpt/model.py@5895df10). */
static void test_litgpt_qlora_mechanisms(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 512);
    struct est_result a, b;
    struct oomlab_err err;
    wl.lora_r = 8;
    wl.quant = EST_QUANT_NF4;
    assert_int_equal(est_compute(&m, &wl, &a, &err), 0);
    wl.bnb_fp16_state = true; /* the largest block linear: up/gate, 4096 x 11008 */
    assert_int_equal(est_compute(&m, &wl, &b, &err), 0);
    assert_int_equal(b.comp[EST_C_TEMP].bytes - a.comp[EST_C_TEMP].bytes, (int64_t)2 * 4096 * 11008);
    wl.precision = EST_FP16; /* fp16 compute: .to(fp16) is a no-op */
    assert_int_equal(est_compute(&m, &wl, &a, &err), 0);
    wl.bnb_fp16_state = false;
    assert_int_equal(est_compute(&m, &wl, &b, &err), 0);
    assert_int_equal(a.comp[EST_C_TEMP].bytes, b.comp[EST_C_TEMP].bytes);
    /* litgpt: the quantized lm_head (32000 x 4096) is the largest linear, fp16 +
     * bf16 (seen alone in a forward-only prefill; training: test_litgpt_carry) */
    wl.precision = EST_BF16;
    wl.trainer = EST_TRAINER_LITGPT;
    wl.mode = EST_MODE_INFER;
    wl.lora_r = 0;
    assert_int_equal(est_compute(&m, &wl, &a, &err), 0);
    assert_int_equal(a.comp[EST_C_TEMP].bytes, (int64_t)4 * 32000 * 4096);
    /* full training, litgpt vs HF: + q, k parts of qkv (2 x 2 x 4096 B per token
     * and block), - HF's per-forward cos/sin (2 x 128 x 2 B per token) */
    est_workload_init(&wl);
    wl.precision = EST_BF16;
    assert_int_equal(est_compute(&m, &wl, &a, &err), 0);
    wl.trainer = EST_TRAINER_LITGPT;
    assert_int_equal(est_compute(&m, &wl, &b, &err), 0);
    int64_t tok = wl.batch * wl.seq;
    assert_int_equal(b.comp[EST_C_ACTS].bytes - a.comp[EST_C_ACTS].bytes,
                     tok * 32 * 4 * 4096 - tok * 2 * 128 * 2);
    /* grouped KV heads are expanded and copied: no view, no extra */
    struct est_model g = fx_preset("llama-3-8b");
    wl.trainer = EST_TRAINER_HF;
    assert_int_equal(est_compute(&g, &wl, &a, &err), 0);
    wl.trainer = EST_TRAINER_LITGPT;
    assert_int_equal(est_compute(&g, &wl, &b, &err), 0);
    assert_int_equal(b.comp[EST_C_ACTS].bytes - a.comp[EST_C_ACTS].bytes, -tok * 2 * 128 * 2);
    /* a tied preset (Falcon-7B) gets its own lm_head under litgpt */
    struct est_model f = fx_preset("falcon-7b");
    assert_true(f.tied_embeddings);
    assert_int_equal(est_compute(&f, &wl, &b, &err), 0);
    wl.trainer = EST_TRAINER_HF;
    assert_int_equal(est_compute(&f, &wl, &a, &err), 0);
    assert_int_equal(b.params - a.params, f.vocab * f.hidden);
}

/* F.scaled_dot_product_attention with an explicit mask on torch 2.0 runs
 * the math kernel: the softmax output in the inputs' dtype (2 B per score in
 * bf16), not eager's fp32 softmax + 16-bit copy (6 B); GPT-2's fused c_attn
 * at batch 1: scaled q, k new, v a view keeping the fused output. */
/* litgpt's loop keeps the previous micro-batch's `logits` and `loss` until
 * the new ones are assigned; bitsandbytes' MatMul4Bit keeps its inputs on
 * ctx.tensors, which backward does not release. Llama-2-7B QLoRA, 1 x 512:
 * the lm_head's forward holds the previous fp32 chunks (4 T V), the new
 * 16-bit ones (2 T V) and the dequantized head (fp16 + bf16, 4 V h), i.e.
 * 4 V h - 2 T V beyond the 8 T V at backward, plus every quantized linear's
 * input of the previous micro-batch: 2 B x (h + h + h + f) per token and
 * block and the head's input 2 h per token. */
static void test_litgpt_carry(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 512);
    struct est_result r;
    struct oomlab_err err;
    wl.lora_r = 8;
    wl.quant = EST_QUANT_NF4;
    wl.trainer = EST_TRAINER_LITGPT;
    wl.loss = EST_LOSS_CHUNKED;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    int64_t T = 512, V = 32000, h = 4096, f = 11008;
    int64_t head = 4 * V * h - 2 * T * V, prev = T * (32 * 2 * (3 * h + f) + 2 * h);
    assert_int_equal(r.comp[EST_C_TEMP].bytes, head + prev);
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, 8 * T * V);
    /* without quantization the conversion moment's 2 T V, or one MLP's
     * backward (3 x 2 B x f per token) when that is larger */
    wl.quant = EST_QUANT_NONE;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    int64_t mlp = 3 * 2 * f * T;
    assert_int_equal(r.comp[EST_C_TEMP].bytes, 2 * T * V > mlp ? 2 * T * V : mlp);
    wl.seq = 4096; /* V = 128256 (Llama-3): the conversion moment wins */
    struct est_model g = fx_preset("llama-3-8b");
    assert_int_equal(est_compute(&g, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_TEMP].bytes, (int64_t)2 * 4096 * 128256);
}

static void test_sdpa_math(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 256);
    struct est_result e, s;
    struct oomlab_err err;
    wl.attention = EST_ATTN_EAGER;
    assert_int_equal(est_compute(&m, &wl, &e, &err), 0);
    wl.attention = EST_ATTN_SDPA_MATH;
    assert_int_equal(est_compute(&m, &wl, &s, &err), 0);
    int64_t tok = wl.batch * wl.seq;
    assert_int_equal(e.comp[EST_C_ACTS].bytes - s.comp[EST_C_ACTS].bytes, tok * 32 * 32 * 256 * (6 - 2));
    assert_int_equal(est_attn_parse("sdpa-math"), EST_ATTN_SDPA_MATH);
    struct est_model g = fx_preset("gpt2");
    wl.precision = EST_FP32;
    wl.attention = EST_ATTN_EAGER;
    assert_int_equal(est_compute(&g, &wl, &e, &err), 0);
    wl.attention = EST_ATTN_SDPA_MATH;
    assert_int_equal(est_compute(&g, &wl, &s, &err), 0);
    /* fp32, no upcast: eager keeps softmax 4 + dropout mask 1 + output 4, math the same */
    assert_int_equal(s.comp[EST_C_ACTS].bytes - e.comp[EST_C_ACTS].bytes, tok * 12 * 4 * (768 + 768));
    wl.batch = 2;
    assert_int_equal(est_compute(&g, &wl, &s, &err), 0);
    wl.attention = EST_ATTN_EAGER;
    assert_int_equal(est_compute(&g, &wl, &e, &err), 0);
    assert_int_equal(s.comp[EST_C_ACTS].bytes, e.comp[EST_C_ACTS].bytes);
}

/* transformers before 4.42 (Qwen2, Mistral, Mixtral) and 4.34-4.37 (Llama):
 * every attention module caches rotary cos and sin of N x head_dim in the
 * model's dtype, N = max positions (the config class's default when
 * unknown, grown to a longer sequence). The Qwen2 speed benchmark's prompt-1
 * rows on transformers 4.38.2 read 15-19% low without them (heldout5 Q201,
 * Q205); from 4.42, or with no --transformers (the current code), none. */
static void test_rope_caches_by_version(void **state)
{
    (void)state;
    struct est_model m = fx_preset("qwen2-0.5b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 2048);
    struct est_result base, r;
    struct oomlab_err err;
    wl.mode = EST_MODE_INFER;
    wl.prompt_len = 1;
    wl.gen_len = 2048;
    assert_int_equal(est_compute(&m, &wl, &base, &err), 0);
    const int64_t per_n = 24LL * 2 * 64 * 2; /* layers x (cos, sin) x head_dim x bf16 */
    wl.transformers = 4038;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_WEIGHTS].bytes - base.comp[EST_C_WEIGHTS].bytes, per_n * 32768);
    assert_non_null(strstr(r.comp[EST_C_WEIGHTS].formula, "32768 positions"));
    m.max_positions = 131072; /* --max-positions */
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_WEIGHTS].bytes - base.comp[EST_C_WEIGHTS].bytes, per_n * 131072);
    m.max_positions = 1024; /* a longer generation grows them to prompt + generated */
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_WEIGHTS].bytes - base.comp[EST_C_WEIGHTS].bytes, per_n * 2049);
    m.max_positions = 0;
    wl.precision = EST_FP32; /* an fp32 load: torch's default dtype stays fp32 */
    struct est_result b32;
    wl.transformers = 0;
    assert_int_equal(est_compute(&m, &wl, &b32, &err), 0);
    wl.transformers = 4041;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_WEIGHTS].bytes - b32.comp[EST_C_WEIGHTS].bytes, 2 * per_n * 32768);
    wl.precision = EST_BF16;
    wl.transformers = 4042; /* huggingface/transformers#30642: computed per forward */
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_WEIGHTS].bytes, base.comp[EST_C_WEIGHTS].bytes);
    struct est_model mi = fx_preset("mistral-7b"); /* no N given: Mistral's term is left out */
    wl.transformers = 4042;
    assert_int_equal(est_compute(&mi, &wl, &base, &err), 0);
    wl.transformers = 4040;
    assert_int_equal(est_compute(&mi, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_WEIGHTS].bytes, base.comp[EST_C_WEIGHTS].bytes);
    mi.max_positions = 32768;
    assert_int_equal(est_compute(&mi, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_WEIGHTS].bytes - base.comp[EST_C_WEIGHTS].bytes, 32LL * 2 * 128 * 2 * 32768);
    struct est_model ll = fx_preset("llama-2-7b"); /* Llama: until 4.38 */
    wl.transformers = 4038;
    assert_int_equal(est_compute(&ll, &wl, &base, &err), 0);
    wl.transformers = 4035;
    assert_int_equal(est_compute(&ll, &wl, &r, &err), 0);
    /* LlamaConfig default 2048, grown to prompt 1 + 2048 generated */
    assert_int_equal(r.comp[EST_C_WEIGHTS].bytes - base.comp[EST_C_WEIGHTS].bytes, 32LL * 2 * 128 * 2 * 2049);
    wl.trainer = EST_TRAINER_LITGPT; /* not HF's modeling code */
    assert_int_equal(est_compute(&ll, &wl, &r, &err), 0);
    wl.transformers = 4038;
    assert_int_equal(est_compute(&ll, &wl, &base, &err), 0);
    assert_int_equal(r.comp[EST_C_WEIGHTS].bytes, base.comp[EST_C_WEIGHTS].bytes);
}

static void test_kv_cache(void **state)
{
    (void)state;
    struct est_model m = toy();
    struct est_workload wl = fx_workload(EST_FP16, 1, 512);
    struct est_result r;
    struct oomlab_err err;
    wl.mode = EST_MODE_INFER;
    wl.prompt_len = 10;
    /* a plain forward: the prompt's K, V: 2 (K,V) x 2 layers x kv dim 8 x 2 B x 10 */
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_KV].bytes, 640);
    assert_int_equal(r.comp[EST_C_GRADS].bytes, 0);
    assert_string_equal(r.peak_phase, "inference");
    /* generating 1000 tokens: the last decode step is the peak; 64 B per position */
    wl.gen_len = 1000;
    /* generating 1000 tokens feeds 999 back: the cache ends at 1009 positions;
     * dynamic: + one layer's old K (1008 positions) during its torch.cat */
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_KV].bytes + r.comp[EST_C_LOGITS].bytes, 64 * 1009 + 64 * 1008 / 4);
    assert_string_equal(r.peak_phase, "decode (last generated token)");
    wl.cache = EST_CACHE_LEGACY; /* the caller's old tuple (1008 positions) alive through the step */
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_KV].bytes, 64 * 1009 + 64 * 1008);
    wl.cache = EST_CACHE_STATIC; /* allocated once for 1010 positions, at prefill already */
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_KV].bytes, 64 * 1010);
    assert_string_equal(r.peak_phase, "prefill");
    wl.gen_len = 6;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_KV].bytes, 1024);
    m.sliding_window = 4; /* Mistral-style: the cache holds the window only */
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_KV].bytes, 256);
    m.kv_heads = 1; /* GQA: one KV head of 4 */
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_KV].bytes, 128);
    assert_int_equal(est_cache_parse("legacy"), EST_CACHE_LEGACY);
    assert_int_equal(est_cache_parse("paged"), -1);
}

/* HF Llama's eager attention at inference, `softmax(scores, dim=-1,
 * dtype=torch.float32).to(dtype)`: ATen copies a non-Half input to fp32 before
 * the softmax, so bf16 holds the scores, their fp32 copy and the fp32 output
 * (10 B per score; torch 1.13 measures 10.00); fp16 (CUDA's fused
 * half-to-float softmax) peaks at the cast, scores + fp32 output + fp16
 * result (8 B); fp32 8 B. Families outside Llama's code keep 4 + a. The
 * prefill's working set is that moment (the scores here are far larger than
 * the MLP's tensors): the layer input and its norm, q (K and V are the
 * cache's), 2 h + qd = 24 elements per token for the Llama family; the other
 * families count K and V too (40). Before, the MLP's tensors were added. */
static void test_llama_eager_softmax_copy(void **state)
{
    (void)state;
    struct est_model m = toy();
    struct est_workload wl = fx_workload(EST_BF16, 1, 512);
    struct est_result r;
    struct oomlab_err err = {{0}};
    wl.mode = EST_MODE_INFER;
    wl.prompt_len = 64;
    wl.gen_len = 1;
    wl.mask = EST_MASK_4D;
    static const struct {
        enum est_family fam;
        enum est_precision p;
        int64_t per_score, per_token, a;
    } cases[] = {
        {EST_FAM_LLAMA, EST_BF16, 10, 24, 2}, {EST_FAM_LLAMA, EST_FP16, 8, 24, 2}, {EST_FAM_LLAMA, EST_FP32, 8, 24, 4},
        {EST_FAM_QWEN2, EST_BF16, 10, 24, 2}, {EST_FAM_GPT2, EST_BF16, 6, 40, 2}, {EST_FAM_GPT2, EST_FP16, 6, 40, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        m.family = cases[i].fam;
        assert_int_equal(est_model_finish(&m, &err), 0);
        wl.precision = cases[i].p;
        wl.attention = EST_ATTN_EAGER;
        assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
        assert_string_equal(r.peak_phase, "prefill");
        /* batch 1 x 2 heads x 64 x 64 scores beside 64 tokens' tensors (the working set is
         * split between activations and the head's logits, which are not alive with it) */
        assert_int_equal(r.comp[EST_C_ACTS].bytes + r.comp[EST_C_LOGITS].bytes,
                         2 * 64 * 64 * cases[i].per_score + 64 * cases[i].a * cases[i].per_token);
    }
}

/* HF GPT-2's tuple cache: `present = (key, value)` are views of c_attn's
 * split output, so the prompt's cache keeps q's third too (3 h per layer and
 * token, not 2 h) until the first decode step's torch.cat; the legacy
 * caller's old tuple through that step is those views (bench/estimate-
 * oracle-gen point 12: -19.8% on the KV term before, +0.00% after).
 * DynamicCache and other families keep 2 kvd. */
static void test_gpt2_presents_keep_c_attn(void **state)
{
    (void)state;
    struct est_model m = toy();
    struct est_workload wl = fx_workload(EST_BF16, 1, 512);
    struct est_result r;
    struct oomlab_err err = {{0}};
    m.family = EST_FAM_GPT2;
    assert_int_equal(est_model_finish(&m, &err), 0);
    wl.mode = EST_MODE_INFER;
    wl.prompt_len = 64;
    wl.gen_len = 1;
    wl.cache = EST_CACHE_LEGACY;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    /* 2 layers x 64 tokens x (8 + 2 x 8) x 2 B */
    assert_int_equal(r.comp[EST_C_KV].bytes, 2 * 64 * 24 * 2);
    wl.cache = EST_CACHE_DYNAMIC;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_KV].bytes, 2 * 64 * 16 * 2);
    m.family = EST_FAM_LLAMA;
    assert_int_equal(est_model_finish(&m, &err), 0);
    wl.cache = EST_CACHE_LEGACY;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_KV].bytes, 2 * 64 * 16 * 2);
}

/* --gen-loop gpt-fast (pytorch/ao:torchao/_models/llama/generate.py and
 * model.py@b0758dcc4, pytorch-labs/gpt-fast:generate.py@0055c42d): the static
 * cache rounded up to a multiple of 8 positions (find_multiple), one layer's
 * whole K and V repeat_interleave'd to every query head in each attention,
 * and every decode step's probabilities (batch x vocab, model dtype) kept in
 * new_probs until the loop returns; refused outside a static-cache
 * generation. */
static void test_gen_loops(void **state)
{
    (void)state;
    struct est_model m = toy();
    struct est_workload wl = fx_workload(EST_FP16, 2, 512);
    struct est_result r;
    struct oomlab_err err = {{0}};
    m.kv_heads = 1; /* grouped: 2 (K,V) x 2 layers x 1 head x 4 x 2 B x batch 2 = 64 B per position */
    wl.mode = EST_MODE_INFER;
    wl.prompt_len = 10;
    wl.gen_len = 100;
    wl.cache = EST_CACHE_STATIC;
    wl.mask = EST_MASK_SQUARE; /* gpt-fast's tril(ones(N, N, bool)) */
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_KV].bytes, 64 * 110); /* HF's StaticCache: prompt + generated */
    wl.gen_loop = EST_GEN_GPTFAST;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_KV].bytes, 64 * 112); /* find_multiple(110, 8) */
    assert_string_equal(r.peak_phase, "decode (last generated token)");
    /* the decode step: K and V of one layer for both heads over the 112
     * positions (2 x 2 x 2 x 4 x 2 B x 112 = 7168) beside the step's logits
     * (2 x 10 x (2 + 4) = 120), and 99 steps' probabilities, 2 x 10 x 2 B each */
    assert_int_equal(r.comp[EST_C_ACTS].bytes + r.comp[EST_C_LOGITS].bytes, 7168 + 99 * 40);
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, 120 + 99 * 40);
    m.kv_heads = 2; /* no grouping: nothing repeated, the prefill's MLP moment is the larger,
                     * 2 x 10 x 2 B x (3 x 8 + 8 + 2 x 8 + 3 x 16) = 3840 */
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_string_equal(r.peak_phase, "prefill");
    assert_int_equal(r.comp[EST_C_ACTS].bytes + r.comp[EST_C_LOGITS].bytes, 3840);
    wl.cache = EST_CACHE_DYNAMIC;
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
    assert_non_null(strstr(err.msg, "--gen-loop gpt-fast"));
    wl.cache = EST_CACHE_STATIC;
    wl.mode = EST_MODE_TRAIN;
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
    assert_non_null(strstr(err.msg, "--mode infer"));
    /* torchtune's generate() (pytorch/torchtune:torchtune/generation/_generation.py
     * @0f74070f4): the prefill's fp32 logits (10 rows) and every step's row
     * concatenated; the last step's torch.cat holds the old 108 rows, the new 109
     * and the step's own row, 2 x 10 x 4 B each; no rounding of the cache */
    wl.mode = EST_MODE_INFER;
    wl.gen_loop = EST_GEN_TORCHTUNE;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_KV].bytes, 128 * 110);
    assert_string_equal(r.peak_phase, "decode (last generated token)");
    assert_int_equal(r.comp[EST_C_ACTS].bytes + r.comp[EST_C_LOGITS].bytes, (108 + 109 + 1) * 80);
    wl.trainer = EST_TRAINER_TORCHTUNE; /* the loop is said by --gen-loop, not --trainer */
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
    assert_non_null(strstr(err.msg, "--gen-loop torchtune"));
}

/* --cache rolling: AutoAWQ's WindowedCache (awq/modules/fused/cache.py
 * @5c7e3682d) is a window of N positions allocated once per layer and
 * torch.roll'ed left when a step passes its end, so prompt + generated may
 * exceed N (before: refused as 'cannot hold'); a prompt longer than the
 * window is refused (update_kv writes the whole prompt into it). The
 * prefill attends over the prompt's own K, V; a roll holds one layer's old
 * V (or K) beside its new copy. */
static void test_rolling_cache(void **state)
{
    (void)state;
    struct est_model m = toy();
    struct est_workload wl = fx_workload(EST_FP16, 1, 512);
    struct est_result r;
    struct oomlab_err err = {{0}};
    char buf[512];
    wl.mode = EST_MODE_INFER;
    wl.prompt_len = 10;
    wl.gen_len = 1000;
    wl.cache = EST_CACHE_ROLLING;
    wl.cache_len = 10;
    m.kv_heads = 1; /* 32 B per position */
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    /* the window (10 positions) + one layer's old V during its roll (80 B),
     * less the step's head working set it outlives (the rule of DynamicCache) */
    assert_true(r.comp[EST_C_KV].bytes >= 32 * 10 && r.comp[EST_C_KV].bytes <= 32 * 10 + 80);
    assert_non_null(strstr(est_cache_describe(&m, &wl, buf, sizeof buf), "window of 10 positions"));
    wl.cache = EST_CACHE_STATIC;
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
    assert_non_null(strstr(err.msg, "cannot hold prompt 10 + 1000"));
    wl.cache = EST_CACHE_ROLLING;
    wl.cache_len = 5;
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
    assert_non_null(strstr(err.msg, "cannot take a prompt of 10"));
    /* a window no shorter than prompt + generated never rolls: the static cache */
    wl.cache_len = 0;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    struct est_result s;
    wl.cache = EST_CACHE_STATIC;
    wl.attention = EST_ATTN_SDPA;
    assert_int_equal(est_compute(&m, &wl, &s, &err), 0);
    wl.cache = EST_CACHE_ROLLING;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_KV].bytes, s.comp[EST_C_KV].bytes);
}

/* Generation's mechanisms beyond the cache model (docs/estimate.md): static
 * cache length, K/V expanded to every head, causal masks, prefill logits. */
static void test_gen_mechanisms(void **state)
{
    (void)state;
    struct est_model m = toy();
    struct est_workload wl = fx_workload(EST_FP16, 1, 512);
    struct est_result r;
    struct oomlab_err err = {{0}};
    wl.mode = EST_MODE_INFER;
    wl.prompt_len = 10;
    wl.gen_len = 1000;
    wl.cache = EST_CACHE_STATIC;
    m.kv_heads = 1; /* 2 (K,V) x 2 layers x 1 head x 4 x 2 B = 32 B per position */
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_KV].bytes, 32 * 1010);
    wl.kv_expanded = true; /* litgpt < fabf765b, torchtune < e1caa9f82: every query head */
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_KV].bytes, 64 * 1010);
    wl.kv_expanded = false;
    m.kv_heads = 2;
    /* static over sdpa: HF's 4-D mask (1, 1, 10, 1010) in fp16 at prefill */
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_string_equal(r.peak_phase, "prefill");
    assert_int_equal(r.comp[EST_C_TEMP].bytes, 10 * 1010 * 2);
    wl.cache_len = 4096;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_KV].bytes, 64 * 4096);
    wl.cache_len = 5;
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
    assert_non_null(strstr(err.msg, "cannot hold prompt 10 + 1000"));
    wl.cache_len = -1; /* the model's max positions: unknown for a RoPE preset */
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
    assert_non_null(strstr(err.msg, "--max-positions"));
    m.max_positions = 2048;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_KV].bytes, 64 * 2048);
    /* HF 4.38: int64 2048^2 buffer + a (1,1,N,N) fp16 copy each forward + the
     * int64 repeat while it is built; the last token's logits are the only
     * other working set of a decode step under sdpa */
    wl.cache = EST_CACHE_DYNAMIC;
    wl.cache_len = 0;
    wl.mask = EST_MASK_MAXPOS;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_string_equal(r.peak_phase, "decode (last generated token)");
    assert_int_equal(r.comp[EST_C_TEMP].bytes + r.comp[EST_C_LOGITS].bytes, (int64_t)2048 * 2048 * (8 + 2 + 8));
    /* litgpt's bool mask_cache for prompt + generated, and its rows */
    wl.mask = EST_MASK_SQUARE;
    wl.cache = EST_CACHE_STATIC;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_TEMP].bytes, 1010 * 1010 + 10 * 1010);
    /* torchtune: a bool (prompt + generated) x N mask, here N = 4096 */
    wl.mask = EST_MASK_ROWS;
    wl.cache_len = 4096;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_TEMP].bytes, 1010 * 4096);
    wl.cache_len = 0;
    /* prefill logits for every prompt position, fp32 in forward (Llama) */
    wl.mask = EST_MASK_AUTO;
    wl.cache = EST_CACHE_DYNAMIC;
    wl.gen_len = 1;
    wl.prefill_logits = EST_PLOGITS_ALL;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_string_equal(r.peak_phase, "prefill");
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, 10 * 10 * (2 + 4));
    wl.prefill_logits = EST_PLOGITS_LAST;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, 10 * (2 + 4));
    assert_int_equal(est_mask_parse("max-positions"), EST_MASK_MAXPOS);
    assert_int_equal(est_prefill_logits_parse("all"), EST_PLOGITS_ALL);
}

static void test_absurd_sizes(void **state)
{
    (void)state;
    struct est_model m = toy();
    struct est_workload wl = fx_workload(EST_BF16_MIXED, (int64_t)1 << 40, 512);
    struct est_result r;
    struct oomlab_err err = {{0}};
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
    assert_non_null(strstr(err.msg, "batch 1099511627776 is out of range"));
    wl.batch = 0;
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
    wl.batch = -3;
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
    /* the largest shapes allowed: no overflow, a clear error or a finite answer */
    struct est_model big;
    memset(&big, 0, sizeof big);
    big.family = EST_FAM_GPT2;
    big.layers = 4096;
    big.hidden = 1 << 20;
    big.heads = 64;
    big.vocab = 1 << 24;
    big.ffn = 1 << 22;
    assert_int_equal(est_model_finish(&big, &err), 0);
    est_workload_init(&wl);
    wl.batch = 1 << 24;
    wl.seq = 1 << 24;
    assert_int_equal(est_compute(&big, &wl, &r, &err), -1);
    assert_true(strlen(err.msg) > 0);
    big.hidden = (int64_t)1 << 30;
    assert_int_equal(est_model_finish(&big, &err), -1);
    assert_non_null(strstr(err.msg, "hidden"));
    memset(&big, 0, sizeof big);
    big.family = EST_FAM_LLAMA;
    assert_int_equal(est_model_finish(&big, &err), -1);
    assert_non_null(strstr(err.msg, "missing"));
}

static void test_quant_needs_lora(void **state)
{
    (void)state;
    struct est_model m = toy();
    struct est_workload wl = fx_workload(EST_BF16_MIXED, 1, 512);
    struct est_result r;
    struct oomlab_err err;
    wl.quant = EST_QUANT_NF4;
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
    assert_non_null(strstr(err.msg, "LoRA"));
    wl.quant = EST_QUANT_NONE;
    wl.shard = EST_SHARD_FSDP; /* FSDP needs several GPUs; DeepSpeed's ZeRO runs on one (test_est_ds) */
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
}

static void test_sharding_divides_states(void **state)
{
    (void)state;
    const struct model_preset *p = models_find("llama-2-13b");
    struct est_model m = p->m;
    struct est_workload wl = fx_workload(EST_BF16, 1, 512);
    struct est_result one, z3;
    struct oomlab_err err;
    assert_int_equal(est_model_finish(&m, &err), 0);
    assert_int_equal(est_compute(&m, &wl, &one, &err), 0);
    wl.gpus = 8;
    wl.shard = EST_SHARD_FSDP;
    assert_int_equal(est_compute(&m, &wl, &z3, &err), 0);
    assert_int_equal(z3.comp[EST_C_OPTIM].bytes, (one.comp[EST_C_OPTIM].bytes + 4) / 8);
    assert_true(z3.comp[EST_C_WEIGHTS].bytes * 7 < one.comp[EST_C_WEIGHTS].bytes);
    /* Gradient accumulation: FSDP under no_sync() keeps every rank's
     * gradients unsharded through the accumulating micro-batches; DeepSpeed
     * ZeRO-3 accumulates into its partitions. */
    struct est_result acc, ds;
    int64_t full_grads = 2 * one.trainable_params; /* bf16 */
    assert_int_equal(z3.comp[EST_C_GRADS].bytes, (full_grads + 4) / 8);
    wl.grad_accum = 4;
    assert_int_equal(est_compute(&m, &wl, &acc, &err), 0);
    assert_string_equal(acc.peak_phase, "forward/backward");
    assert_int_equal(acc.comp[EST_C_GRADS].bytes, full_grads);
    assert_true(acc.peak_allocated_bytes - z3.peak_allocated_bytes >= full_grads - (full_grads + 4) / 8);
    wl.shard = EST_SHARD_ZERO3;
    assert_int_equal(est_compute(&m, &wl, &ds, &err), 0);
    assert_int_equal(ds.comp[EST_C_GRADS].bytes, (full_grads + 4) / 8);
    /* FSDP2's fully_shard (torchtitan, prime-rl) reduce-scatters after every
     * backward (requires_gradient_sync defaults to True, and neither trainer
     * turns it off): the micro-batches accumulate into the fp32 shards. */
    struct est_result t2, t2acc;
    wl.shard = EST_SHARD_FSDP;
    wl.precision = EST_BF16_MIXED;
    wl.trainer = EST_TRAINER_TORCHTITAN;
    wl.grad_accum = 1;
    assert_int_equal(est_compute(&m, &wl, &t2, &err), 0);
    wl.grad_accum = 4;
    assert_int_equal(est_compute(&m, &wl, &t2acc, &err), 0);
    assert_int_equal(t2acc.comp[EST_C_GRADS].bytes, (4 * one.trainable_params + 4) / 8);
    assert_int_equal(t2acc.comp[EST_C_GRADS].bytes, t2.comp[EST_C_GRADS].bytes);
    assert_int_equal(t2acc.peak_allocated_bytes, t2.peak_allocated_bytes);
    /* at a fwd/bwd peak the kept shards are the reduce-scatter stream's
     * blocks (the sharded .grad is a view of the reduce-scatter output):
     * allocated grows by them, reserved only by the churn share */
    wl.seq = 8192;
    wl.batch = 4;
    wl.attention = EST_ATTN_FLASH;
    wl.grad_accum = 1;
    assert_int_equal(est_compute(&m, &wl, &t2, &err), 0);
    wl.grad_accum = 4;
    assert_int_equal(est_compute(&m, &wl, &t2acc, &err), 0);
    assert_string_equal(t2.peak_phase, "forward/backward");
    assert_string_equal(t2acc.peak_phase, "forward/backward");
    int64_t shards = t2acc.comp[EST_C_GRADS].bytes;
    assert_true(t2acc.peak_allocated_bytes - t2.peak_allocated_bytes >= shards - 16);
    assert_true(t2acc.peak_reserved_bytes - t2.peak_reserved_bytes < shards / 2);
}

static void test_max_batch_and_levers(void **state)
{
    (void)state;
    const struct model_preset *p = models_find("gpt2");
    struct est_model m = p->m;
    struct est_workload wl = fx_workload(EST_BF16_MIXED, 1, 1024);
    struct est_result r;
    struct oomlab_err err;
    int64_t b, s;
    assert_int_equal(est_model_finish(&m, &err), 0);
    est_max_batch(&m, &wl, &b, &err);
    assert_int_equal(b, -1); /* capacity unknown */
    wl.capacity_bytes = (int64_t)16 << 30;
    assert_int_equal(est_max_batch(&m, &wl, &b, &err), 0);
    assert_true(b > 1);
    wl.batch = b;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_true(r.device_used_bytes <= (int64_t)(0.85 * (double)wl.capacity_bytes));
    wl.batch = b + 1;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_true(r.device_used_bytes > (int64_t)(0.85 * (double)wl.capacity_bytes));
    wl.batch = 4;
    assert_int_equal(est_max_seq(&m, &wl, &s, &err), 0);
    assert_true(s > 1024);
    struct est_lever lv[8];
    int n = 0;
    assert_int_equal(est_levers(&m, &wl, lv, 8, &n, &err), 0);
    assert_true(n >= 3);
    for (int i = 1; i < n; i++) assert_true(lv[i - 1].saves_bytes >= lv[i].saves_bytes);
    wl.capacity_bytes = 100 << 20; /* 100 MiB: nothing fits */
    assert_int_equal(est_max_batch(&m, &wl, &b, &err), 0);
    assert_int_equal(b, 0);
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.fits, 0);
    assert_int_equal(r.over_bytes, r.device_used_bytes - wl.capacity_bytes);
}

static void test_names_and_cards(void **state)
{
    (void)state;
    unsigned bits = 0;
    assert_int_equal(est_lora_targets_parse("q,v", &bits), 0);
    assert_int_equal(bits, EST_LORA_Q | EST_LORA_V);
    assert_int_equal(est_lora_targets_parse("attn,mlp", &bits), 0);
    assert_int_equal(bits, EST_LORA_ALL);
    assert_int_equal(est_lora_targets_parse("q,,x", &bits), -1);
    assert_int_equal(est_lora_targets_parse("", &bits), -1);
    assert_int_equal(est_precision_parse("bf16-mixed"), EST_BF16_MIXED);
    assert_int_equal(est_optimizer_parse("adamw-8bit"), EST_OPT_ADAMW8);
    assert_int_equal(est_optimizer_parse("adam"), -1);
    assert_int_equal(est_family_parse("gpt_neox"), EST_FAM_NEOX);
    const struct gpu_card *g = gpus_find("NVIDIA A100-SXM4-80GB");
    assert_non_null(g);
    assert_string_equal(g->name, "a100-80gb");
    assert_int_equal(g->capacity_bytes, (int64_t)81920 << 20);
    assert_string_equal(gpus_find("Tesla T4")->name, "t4");
    assert_string_equal(gpus_find("NVIDIA L40S")->name, "l40s");
    assert_string_equal(gpus_find("NVIDIA L4")->name, "l4");
    assert_string_equal(gpus_find("H100")->name, "h100");
    assert_string_equal(gpus_find("a100-80")->name, "a100-80gb"); /* short --gpu forms */
    assert_null(gpus_find("a100")); /* 40 or 80 GB: ambiguous, not a guess */
    assert_string_equal(gpus_find("v100-32")->name, "v100-32gb");
    assert_string_equal(gpus_find("Tesla V100-SXM2-16GB")->name, "v100-16gb");
    assert_string_equal(gpus_find("NVIDIA H200")->name, "h200");
    assert_null(gpus_find("Voodoo 3"));
    assert_null(models_find("no-such-model"));
    /* did-you-mean: hub ids name the preset, near misses too, junk nothing */
    assert_string_equal(models_suggest("meta-llama/Meta-Llama-3-8B")->name, "llama-3-8b");
    assert_string_equal(models_suggest("meta-llama/Llama-2-7b-hf")->name, "llama-2-7b");
    assert_string_equal(models_suggest("openai-community/gpt2-medium")->name, "gpt2-medium");
    assert_string_equal(models_suggest("meta-llama/Llama-3.2-1B")->name, "llama-3.2-1b");
    assert_string_equal(models_suggest("lama-2-7b")->name, "llama-2-7b");
    /* a typo in a longer preset's name is that preset, not the shorter one inside it */
    assert_string_equal(models_suggest("gpt2-mediun")->name, "gpt2-medium");
    assert_string_equal(models_suggest("gpt2-xI")->name, "gpt2-xl");
    assert_null(models_suggest("nosuch.json"));
    assert_null(models_suggest(""));
}

/* Issue 10: "NVIDIA L40" resolved to the L4 (substring match), "NVIDIA A10"
 * and "Quadro RTX 6000" to nothing. Every row resolves from its own table
 * name, its summary and each device name NVML / nvidia-smi print for it;
 * key tokens match whole tokens only. */
static void test_every_card_resolves_from_its_device_name(void **state)
{
    (void)state;
    size_t n;
    const struct gpu_card *cards = gpus_table(&n);
    for (size_t i = 0; i < n; i++) {
        assert_ptr_equal(gpus_find(cards[i].name), &cards[i]);
        assert_ptr_equal(gpus_find(cards[i].summary), &cards[i]);
        assert_non_null(cards[i].devices[0]);
        for (int d = 0; d < 4 && cards[i].devices[d]; d++) {
            if (gpus_find(cards[i].devices[d]) != &cards[i])
                fail_msg("device name '%s' does not resolve to %s", cards[i].devices[d], cards[i].name);
        }
    }
    assert_string_equal(gpus_find("NVIDIA L40")->name, "l40");
    assert_string_equal(gpus_find("NVIDIA A10")->name, "a10");
    assert_string_equal(gpus_find("NVIDIA A10G")->name, "a10g");
    assert_string_equal(gpus_find("Quadro RTX 6000")->name, "rtx6000");
    assert_string_equal(gpus_find("NVIDIA A100-PCIE-40GB")->name, "a100-40gb");
    assert_string_equal(gpus_find("Tesla V100S-PCIE-32GB")->name, "v100-32gb");
    assert_null(gpus_find("NVIDIA RTX 6000 Ada Generation")); /* 48 GB, not the Quadro */
    assert_null(gpus_find("NVIDIA L20")); /* no row: unknown, not the L4 */
}

/* Each workload lands in one kind, first match wins; the quoted accuracy
 * is the bench's row for that kind (a kind without rows is "unvalidated"). */
static void test_kind_and_checked(void **state)
{
    (void)state;
    struct est_workload wl = fx_workload(EST_BF16_MIXED, 1, 512);
    assert_int_equal(est_kind_of(&wl), EST_KIND_FULL);
    wl.lora_r = 8;
    assert_int_equal(est_kind_of(&wl), EST_KIND_LORA);
    wl.quant = EST_QUANT_NF4;
    assert_int_equal(est_kind_of(&wl), EST_KIND_QLORA);
    wl.gpus = 4; /* several GPUs outrank LoRA/QLoRA */
    assert_int_equal(est_kind_of(&wl), EST_KIND_SHARDED);
    wl.trainer = EST_TRAINER_LLMC;
    assert_int_equal(est_kind_of(&wl), EST_KIND_LLMC);
    wl.mode = EST_MODE_INFER;
    assert_int_equal(est_kind_of(&wl), EST_KIND_INFER);
    wl.mode = EST_MODE_LOAD;
    assert_int_equal(est_kind_of(&wl), EST_KIND_LOAD);
    for (int k = 0; k < EST_KIND__COUNT; k++) {
        const struct est_checked *c = est_checked_for((enum est_kind)k);
        assert_non_null(c);
        assert_int_equal(c->kind, k);
        assert_non_null(c->sources);
        assert_true(c->tuned >= 0 && c->tuned <= c->rows);
        if (c->rows) {
            assert_true(c->median_abs_pct >= 0 && c->median_abs_pct <= c->worst_abs_pct);
            assert_true(c->mean_pct >= -c->worst_abs_pct && c->mean_pct <= c->worst_abs_pct);
        }
    }
    assert_string_equal(est_kind_name(EST_KIND_QLORA), "qlora");
    assert_string_equal(est_kind_name(EST_KIND_LLMC), "llm.c");
    /* the bench has full-training rows; an out-of-range kind is not a crash */
    assert_true(est_checked_for(EST_KIND_FULL)->rows > 0);
    assert_non_null(est_checked_for((enum est_kind)99));
}

/* CPU offload: optimizer states, fp32 master weights and gradients move to
 * host memory (the GPU keeps 16-bit weights and the reduce buckets); with
 * params under zero3/fsdp the weights too. Unvalidated kind: no rows. */
/* torchtitan: FSDP2 with MixedPrecisionPolicy(param bf16, reduce fp32) and no
 * autocast. The shards stay fp32 (weights 4P/N, grads 4P/N, AdamW 8P/N), the
 * 16-bit parameters are FSDP's gathered blocks (no autocast copies), and the
 * residual stream is bf16: on Llama with op-level checkpointing each block
 * keeps a bf16 input (2h), not autocast's fp32 one (4h). The loss path is
 * torchtune's (pred.float(), `del pred`). */
/* FSDP1 (use_orig_params) gives a unit mixing frozen and trainable
 * parameters gradients for all of them; litgpt wraps each Block whole, so
 * under LoRA its no_sync gradients are every block's parameters in bf16
 * (litgpt#1538's torch warning); HF-style wrapping (LoRA in units of its
 * own) keeps them the LoRA parameters'. */
static void test_fsdp_mixed_units(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 512);
    struct est_result hf, lit, one;
    struct oomlab_err err;
    wl.gpus = 2;
    wl.shard = EST_SHARD_FSDP;
    wl.grad_accum = 8;
    wl.ckpt = EST_CKPT_FULL;
    wl.lora_r = 8;
    wl.peft_old = true; /* bf16 adapters: PEFT >= 0.12's are fp32 */
    assert_int_equal(est_compute(&m, &wl, &hf, &err), 0);
    assert_int_equal(hf.comp[EST_C_GRADS].bytes, 2 * hf.trainable_params);
    wl.peft_old = false;
    assert_int_equal(est_compute(&m, &wl, &hf, &err), 0);
    assert_int_equal(hf.comp[EST_C_GRADS].bytes, 4 * hf.trainable_params);
    wl.trainer = EST_TRAINER_LITGPT;
    assert_int_equal(est_compute(&m, &wl, &lit, &err), 0);
    int64_t blocks = lit.params - 2 * (int64_t)32000 * 4096; /* untied wte + lm_head in the root unit */
    assert_int_equal(lit.comp[EST_C_GRADS].bytes, 2 * blocks);
    /* synced every micro-batch: the flat gradients' shards */
    wl.grad_accum = 1;
    assert_int_equal(est_compute(&m, &wl, &one, &err), 0);
    assert_int_equal(one.comp[EST_C_GRADS].bytes, blocks);
}

/* --longest-first (lit-gpt's get_batch puts the longest sample in iteration
 * 0 only): iteration 0 has no previous micro-batch and no gradient; a later
 * one holds the gradients and what the longest left, its own tokens not
 * counted. */
static void test_longest_first(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 1304);
    struct est_result base, lf;
    struct oomlab_err err;
    wl.trainer = EST_TRAINER_LITGPT;
    wl.grad_accum = 128;
    wl.lora_r = 8;
    wl.quant = EST_QUANT_NF4;
    wl.optimizer = EST_OPT_PAGED_ADAMW;
    assert_int_equal(est_compute(&m, &wl, &base, &err), 0);
    wl.longest_first = true;
    assert_int_equal(est_compute(&m, &wl, &lf, &err), 0);
    /* QLoRA on one GPU: the carried MatMul4Bit inputs and the gradients leave
     * the first micro-batch's peak; activations and logits stay */
    assert_string_equal(lf.peak_phase, "forward/backward");
    assert_int_equal(lf.comp[EST_C_ACTS].bytes, base.comp[EST_C_ACTS].bytes);
    assert_true(lf.comp[EST_C_TEMP].bytes < base.comp[EST_C_TEMP].bytes);
    int64_t drop = base.comp[EST_C_TEMP].bytes - lf.comp[EST_C_TEMP].bytes + base.comp[EST_C_GRADS].bytes;
    assert_true(llabs(base.peak_allocated_bytes - lf.peak_allocated_bytes - drop) <= 2);
    /* FSDP with litgpt's Block units: the later micro-batch holding every
     * block's unsharded gradients is the peak */
    wl.quant = EST_QUANT_NONE;
    wl.optimizer = EST_OPT_ADAMW;
    wl.gpus = 2;
    wl.shard = EST_SHARD_FSDP;
    wl.ckpt = EST_CKPT_FULL;
    assert_int_equal(est_compute(&m, &wl, &lf, &err), 0);
    assert_string_equal(lf.peak_phase, "a micro-batch after the longest");
    assert_false(lf.comp[EST_C_ACTS].at_peak);
    assert_true(lf.comp[EST_C_GRADS].at_peak);
    wl.longest_first = false;
    assert_int_equal(est_compute(&m, &wl, &base, &err), 0);
    assert_true(lf.peak_allocated_bytes < base.peak_allocated_bytes);
}

/* lit-gpt inference under Fabric's bf16-mixed: fp32 weights, and autocast's
 * cache holds a 16-bit cast of every block linear and the lm_head during a
 * forward; HF-style mixed inference loads 16-bit weights. */
/* --mode infer --autograd: a forward with grad enabled keeps what the
 * training forward saves (the same accounting: with no dropout and no
 * presents, the training estimate's activations exactly), the returned
 * logits beside them; model.train() adds the dropout masks; grouped K, V
 * returned as presents are beyond the expanded copies attention saved;
 * generation (generate() runs under no_grad) and training are refused; the
 * levers name torch.no_grad(). */
static void test_autograd_infer(void **state)
{
    (void)state;
    struct est_model m = fx_preset("gpt2");
    struct est_workload tr = fx_workload(EST_FP32, 2, 128), wl;
    struct est_result rt, on, tm, off;
    struct oomlab_err err;
    m.dropout = 2;
    tr.use_cache = 2;
    assert_int_equal(est_compute(&m, &tr, &rt, &err), 0);
    wl = tr;
    wl.mode = EST_MODE_INFER;
    wl.cache = EST_CACHE_NONE;
    wl.autograd = EST_GRAD_EVAL;
    assert_int_equal(est_compute(&m, &wl, &on, &err), 0);
    assert_int_equal(on.comp[EST_C_ACTS].bytes, rt.comp[EST_C_ACTS].bytes);
    assert_int_equal(on.comp[EST_C_LOGITS].bytes, (int64_t)2 * 128 * 50257 * 4);
    assert_int_equal(on.comp[EST_C_GRADS].bytes, 0);
    assert_int_equal(on.comp[EST_C_OPTIM].bytes, 0);
    wl.autograd = EST_GRAD_OFF;
    assert_int_equal(est_compute(&m, &wl, &off, &err), 0);
    assert_true(off.comp[EST_C_ACTS].bytes * 10 < on.comp[EST_C_ACTS].bytes);
    assert_int_equal(off.comp[EST_C_LOGITS].bytes, on.comp[EST_C_LOGITS].bytes);
    m.dropout = 1; /* the config's dropout: only train mode runs it */
    wl.autograd = EST_GRAD_EVAL;
    assert_int_equal(est_compute(&m, &wl, &tm, &err), 0);
    assert_int_equal(tm.comp[EST_C_ACTS].bytes, on.comp[EST_C_ACTS].bytes);
    wl.autograd = EST_GRAD_TRAIN;
    assert_int_equal(est_compute(&m, &wl, &tm, &err), 0);
    assert_true(tm.comp[EST_C_ACTS].bytes > on.comp[EST_C_ACTS].bytes);
    /* `logits = model(x)` in a loop: the previous graph alive through the next forward */
    struct est_result loop;
    wl.autograd = EST_GRAD_EVAL;
    m.dropout = 2;
    wl.loop_holds = EST_KEEP_LOGITS;
    assert_int_equal(est_compute(&m, &wl, &loop, &err), 0);
    assert_int_equal(loop.comp[EST_C_ACTS].bytes, 2 * on.comp[EST_C_ACTS].bytes);
    assert_int_equal(loop.comp[EST_C_LOGITS].bytes, 2 * on.comp[EST_C_LOGITS].bytes);
    wl.loop_holds = EST_KEEP_AUTO;
    struct est_lever lv[8];
    int n = 0;
    assert_int_equal(est_levers(&m, &wl, lv, 8, &n, &err), 0);
    bool named = false;
    for (int i = 0; i < n; i++) named |= !strcmp(lv[i].what, "torch.no_grad()");
    assert_true(named);
    /* Llama-3-8B, bf16, a dynamic cache: the unexpanded K, V of 8 KV heads x 128 */
    struct est_model l = fx_preset("llama-3-8b");
    wl = fx_workload(EST_BF16, 1, 256);
    wl.mode = EST_MODE_INFER;
    wl.autograd = EST_GRAD_EVAL;
    assert_int_equal(est_compute(&l, &wl, &on, &err), 0);
    assert_int_equal(on.comp[EST_C_KV].bytes, (int64_t)256 * 32 * 2 * 2 * 8 * 128);
    wl.gen_len = 10;
    assert_int_equal(est_compute(&l, &wl, &on, &err), -1);
    assert_non_null(strstr(err.msg, "no_grad"));
    wl.gen_len = 0;
    wl.mode = EST_MODE_TRAIN;
    assert_int_equal(est_compute(&l, &wl, &on, &err), -1);
}

static void test_litgpt_mixed_inference(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16_MIXED, 1, 512);
    struct est_result hf, lit;
    struct oomlab_err err;
    wl.mode = EST_MODE_INFER;
    wl.prompt_len = 6;
    wl.gen_len = 50;
    assert_int_equal(est_compute(&m, &wl, &hf, &err), 0);
    assert_int_equal(hf.comp[EST_C_WEIGHTS].bytes, 2 * hf.params);
    assert_int_equal(hf.comp[EST_C_WEIGHT_COPIES].bytes, 0);
    wl.trainer = EST_TRAINER_LITGPT;
    assert_int_equal(est_compute(&m, &wl, &lit, &err), 0);
    assert_int_equal(lit.comp[EST_C_WEIGHTS].bytes, 4 * lit.params);
    /* every parameter but the embedding (32000 x 4096) and the 65 norms */
    int64_t cast = lit.params - (int64_t)32000 * 4096 - 65 * 4096;
    assert_int_equal(lit.comp[EST_C_WEIGHT_COPIES].bytes, 2 * cast);
}

/* torchtune's to_nf4: torchao 0.1 compares every element with the 16 nf4
 * values at once, 68 B per element of the largest linear at model init,
 * which is the training run's reserved high-water mark when activations are
 * small; from v0.2.0 (pytorch/ao#196) it works in 2^20-element chunks: 5 B
 * per element + 72 MiB (the default; the old code kept 68 B for every
 * version, torchtune#1398's init +46.5%). */
static void test_torchao_nf4_init(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 512);
    struct est_result ld, tr, hf;
    struct oomlab_err err;
    wl.mode = EST_MODE_LOAD;
    wl.quant = EST_QUANT_NF4_DQ;
    wl.lora_r = 8;
    wl.trainer = EST_TRAINER_TORCHTUNE;
    assert_int_equal(est_compute(&m, &wl, &ld, &err), 0);
    assert_int_equal(ld.comp[EST_C_TEMP].bytes, (int64_t)5 * 4096 * 11008 + 72 * 1024 * 1024);
    wl.torchao01 = true;
    assert_int_equal(est_compute(&m, &wl, &ld, &err), 0);
    assert_int_equal(ld.comp[EST_C_TEMP].bytes, (int64_t)68 * 4096 * 11008);
    wl.mode = EST_MODE_TRAIN;
    wl.batch = 2;
    wl.seq = 512;
    wl.ckpt = EST_CKPT_FULL;
    assert_int_equal(est_compute(&m, &wl, &tr, &err), 0);
    assert_string_equal(tr.peak_phase, "model init (nf4 quantization)");
    assert_int_equal(tr.peak_allocated_bytes, ld.peak_allocated_bytes);
    wl.trainer = EST_TRAINER_HF;
    assert_int_equal(est_compute(&m, &wl, &hf, &err), 0);
    assert_string_equal(hf.peak_phase, "forward/backward");
}

/* DeepSpeed's bf16 runs no autocast (accelerate leaves native_amp off; the
 * engine casts the module): bf16-mixed under ZeRO keeps the same activations
 * as pure bf16. */
static void test_deepspeed_no_autocast(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 2, 1024);
    struct est_result pure, mixed, fsdp;
    struct oomlab_err err;
    wl.gpus = 8;
    wl.shard = EST_SHARD_ZERO3;
    wl.ckpt = EST_CKPT_FULL;
    wl.attention = EST_ATTN_FLASH;
    wl.lora_r = 8;
    assert_int_equal(est_compute(&m, &wl, &pure, &err), 0);
    wl.precision = EST_BF16_MIXED;
    assert_int_equal(est_compute(&m, &wl, &mixed, &err), 0);
    assert_int_equal(mixed.comp[EST_C_ACTS].bytes, pure.comp[EST_C_ACTS].bytes);
    /* FSDP1 under autocast keeps the fp32 residual stream */
    wl.shard = EST_SHARD_FSDP;
    assert_int_equal(est_compute(&m, &wl, &fsdp, &err), 0);
    assert_true(fsdp.comp[EST_C_ACTS].bytes > pure.comp[EST_C_ACTS].bytes);
}

static void test_torchtitan_fsdp2(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-3-8b");
    /* 8192 tokens: the loss's backward is the peak for both trainers (at
     * short lengths torchtitan's FSDP2 backward buffers make the recomputed
     * block's moment the larger, test_titan_op_moments) */
    struct est_workload wl = fx_workload(EST_BF16_MIXED, 1, 8192);
    struct est_result hf, tt;
    struct oomlab_err err;
    wl.gpus = 8;
    wl.shard = EST_SHARD_FSDP;
    wl.attention = EST_ATTN_FLASH;
    wl.ckpt = EST_CKPT_OP;
    assert_int_equal(est_trainer_parse("torchtitan"), EST_TRAINER_TORCHTITAN);
    assert_string_equal(est_trainer_name(EST_TRAINER_TORCHTITAN), "torchtitan");
    assert_int_equal(est_compute(&m, &wl, &hf, &err), 0);
    wl.trainer = EST_TRAINER_TORCHTITAN;
    assert_int_equal(est_compute(&m, &wl, &tt, &err), 0);
    int64_t P = tt.params;
    assert_int_equal(tt.comp[EST_C_WEIGHTS].bytes, 4 * P / 8);
    assert_int_equal(tt.comp[EST_C_GRADS].bytes, 4 * P / 8);
    assert_int_equal(tt.comp[EST_C_OPTIM].bytes, 8 * P / 8);
    /* FSDP1's parameters are views in forward: autocast caches no cast
     * (test_fsdp1_autocast_casts); FSDP2's are its own bf16 gathers */
    assert_int_equal(hf.comp[EST_C_WEIGHT_COPIES].bytes, 0);
    assert_int_equal(tt.comp[EST_C_WEIGHT_COPIES].bytes, 0);
    /* 32 blocks x 1024 tokens x (4h - 2h) fewer bytes for the block inputs;
     * the recomputed block and the outside-the-blocks terms move too, so
     * compare the per-block part only: at least that much less */
    assert_true(hf.comp[EST_C_ACTS].bytes - tt.comp[EST_C_ACTS].bytes >= (int64_t)32 * 8192 * 2 * 4096);
    assert_int_equal(tt.comp[EST_C_LOGITS].bytes, (int64_t)8192 * 128256 * 4);
    /* outside FSDP torchtitan's flag changes only the loss path */
    wl.gpus = 1;
    wl.shard = EST_SHARD_NONE;
    assert_int_equal(est_compute(&m, &wl, &tt, &err), 0);
    assert_true(tt.comp[EST_C_WEIGHT_COPIES].bytes > 0);
}

/* torchtitan, Llama-3.1-8B, 8 GPUs, op SAC, 2 x 8192 (its benchmark page's
 * FSDP row). The peak is the loss's backward: every block's SAC cache
 * (input 2h, wq 2qd, wv 2kvd, flash out 2qd + fp32 lse, w1 2f, w2 2h =
 * 63616 B/token) and the final norm outside, no block recomputed yet; the
 * fp32 log-softmax and CE's two fp32 gradients; FSDP2 holds only the root
 * group (embedding, output, norm: not resharded after forward) and the last
 * block (reshard_after_forward False) in bf16. Reserved adds 10% of that
 * churn, 1% of the shards and states, and the collectives' stream pools:
 * the sharded fp32 gradients (reduce-scatter stream) and the root's and a
 * block's all-gather outputs (copy-in stream). */
static void test_titan_op_moments(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-3-8b");
    struct est_workload wl = fx_workload(EST_BF16_MIXED, 2, 8192);
    struct est_result r;
    struct oomlab_err err;
    wl.gpus = 8;
    wl.shard = EST_SHARD_FSDP;
    wl.attention = EST_ATTN_FLASH;
    wl.ckpt = EST_CKPT_OP;
    wl.trainer = EST_TRAINER_TORCHTITAN;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    const int64_t T = 16384, V = 128256, h = 4096, P = 8030261248;
    const int64_t big = V * h, layer = (P - 2 * big) / 32;
    assert_int_equal(r.params, P);
    assert_int_equal(layer, 218112128);
    assert_int_equal(r.comp[EST_C_ACTS].bytes, T * (32 * 63616 + 33284));
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, T * V * 4);
    int64_t gathered = 2 * (2 * big + h + layer);
    assert_int_equal(r.comp[EST_C_TEMP].bytes, T * V * 8 + gathered);
    int64_t persist = 4 * P / 8 + 8 * P / 8;
    int64_t churn = r.comp[EST_C_ACTS].bytes + r.comp[EST_C_LOGITS].bytes + r.comp[EST_C_TEMP].bytes;
    assert_int_equal(r.peak_allocated_bytes, persist + churn + r.comp[EST_C_BLAS].bytes);
    long double slack = 0.10L * (long double)churn + 0.01L * (long double)persist + 4.0L * (long double)P / 8 +
                        (long double)gathered;
    assert_true(llabs(r.peak_reserved_bytes - r.peak_allocated_bytes - (int64_t)(slack + 0.5L)) <= 1);
    assert_non_null(strstr(r.comp[EST_C_SLACK].formula, "stream pools"));
    assert_non_null(strstr(r.comp[EST_C_ACTS].formula, "before any block is recomputed"));
    /* 128 GPUs: the shards, states and the gradient pool shrink, nothing else */
    struct est_result r128;
    wl.gpus = 128;
    assert_int_equal(est_compute(&m, &wl, &r128, &err), 0);
    assert_int_equal(r128.comp[EST_C_ACTS].bytes, r.comp[EST_C_ACTS].bytes);
    assert_int_equal(r128.comp[EST_C_TEMP].bytes, r.comp[EST_C_TEMP].bytes);
    /* one GPU (prime-rl wraps with fully_shard on one GPU too): foreach_reduce
     * still allocates the reduce-scatter output in its stream and copies the
     * input into it ("For single GPU, just copy the input to output"), and
     * the all-gathers still run: the same pools with N = 1 and the plain 10%
     * share of the churn, not FSDP1's 25%. Unsharded, the foreach step's
     * working copy (4P) is the peak; the gradients there are the
     * reduce-scatter pool's blocks, so the pools add only the gathers. */
    struct est_result r1;
    wl.gpus = 1;
    assert_int_equal(est_compute(&m, &wl, &r1, &err), 0);
    int64_t persist1 = 4 * P + 8 * P;
    assert_int_equal(r1.comp[EST_C_GRADS].bytes, 4 * P);
    assert_int_equal(r1.comp[EST_C_TEMP].bytes, 4 * P);
    assert_int_equal(r1.peak_allocated_bytes, persist1 + 8 * P + r1.comp[EST_C_BLAS].bytes);
    long double slack1 = 0.10L * 8.0L * (long double)P + 0.01L * (long double)persist1 + (long double)gathered;
    assert_true(llabs(r1.peak_reserved_bytes - r1.peak_allocated_bytes - (int64_t)(slack1 + 0.5L)) <= 1);
    assert_non_null(strstr(r1.comp[EST_C_SLACK].formula, "stream pools"));
}

/* transformers' sparse-MoE loop (Mixtral, Qwen3-MoE) keeps, per token and
 * block, beyond what one expert MLP keeps for each routed token: the
 * router's input (a h, when the linears train), its fp32 softmax (4 E), the
 * int64 top-k indices and the fp32 renormalised weights (12 k + 4), and per
 * routed token the gathered weight (a), the expert's output kept by the
 * weight multiply and the product kept by index_add_ (2 a h), top_x and idx
 * (16): bench/estimate-oracle-moe measures it exactly on torch 1.13. The
 * old count, k x expert + 4 E, missed the router's input, the 2 a h and the
 * indices. torchtitan's grouped-mm MoE keeps the old count. */
static void test_moe_saved(void **state)
{
    (void)state;
    struct est_model moe = fx_preset("mixtral-8x7b"), dense = moe;
    dense.experts = dense.experts_per_token = 0;
    struct est_workload wl = fx_workload(EST_BF16, 1, 512);
    struct est_result r, d;
    struct oomlab_err err;
    wl.attention = EST_ATTN_SDPA;
    const int64_t T = 512, L = 32, a = 2, h = 4096, f = 14336, E = 8, k = 2;
    assert_int_equal(moe.experts, E);
    assert_int_equal(moe.experts_per_token, k);
    /* full: the expert keeps 3 a f + a (h + f) */
    assert_int_equal(est_compute(&moe, &wl, &r, &err), 0);
    assert_int_equal(est_compute(&dense, &wl, &d, &err), 0);
    int64_t expert = 3 * a * f + a * (h + f);
    int64_t block = a * h + 4 * E + 12 * k + 4 + k * (expert + 2 * a * h + a + 16);
    assert_int_equal(r.comp[EST_C_ACTS].bytes - d.comp[EST_C_ACTS].bytes, T * L * (block - expert));
    /* frozen linears (LoRA on q, v): the expert keeps 3 a f, no router input */
    wl.lora_r = 8;
    wl.lora_targets = EST_LORA_Q | EST_LORA_V;
    assert_int_equal(est_compute(&moe, &wl, &r, &err), 0);
    assert_int_equal(est_compute(&dense, &wl, &d, &err), 0);
    expert = 3 * a * f;
    block = 4 * E + 12 * k + 4 + k * (expert + 2 * a * h + a + 16);
    assert_int_equal(r.comp[EST_C_ACTS].bytes - d.comp[EST_C_ACTS].bytes, T * L * (block - expert));
    /* the block's backward runs one expert's tokens at a time (k / E of
     * them, balanced): its three f-wide gradients, not k T tokens' worth
     * (bench/estimate-oracle-moe --transient measures it); no LM loss here,
     * so that is the fwd/bwd temporaries */
    wl.head = EST_HEAD_NONE;
    assert_int_equal(est_compute(&moe, &wl, &r, &err), 0);
    assert_true(r.comp[EST_C_TEMP].at_peak);
    assert_int_equal(r.comp[EST_C_TEMP].bytes, T * 3 * a * f * k / E);
}

/* llama-recipes' FSDP runs (LC06: 4 GPUs, pure bf16, 4 x 2048, flash):
 * FSDP's checkpoint_wrapper leaves config.use_cache on (HF turns it off only
 * under its own gradient checkpointing), so each checkpointed block returns
 * its rotary key and the v_proj output (a view) as presents, which nothing
 * else keeps: 32 x 2 x 4096 x 2 B per token beside the block inputs at the
 * end of forward, while the loss is taken. The loop (`loss =
 * model(**batch).loss`) drops them before backward. */
static void test_ckpt_presents(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 4, 2048);
    struct est_result on, off, held;
    struct oomlab_err err;
    wl.attention = EST_ATTN_FLASH;
    wl.ckpt = EST_CKPT_FULL;
    wl.shard = EST_SHARD_FSDP;
    wl.gpus = 4;
    wl.loop_holds = EST_KEEP_NONE;
    wl.use_cache = 2;
    assert_int_equal(est_compute(&m, &wl, &off, &err), 0);
    wl.use_cache = 1;
    assert_int_equal(est_compute(&m, &wl, &on, &err), 0);
    const int64_t pres = (int64_t)8192 * 32 * 2 * 4096 * 2;
    assert_int_equal(on.comp[EST_C_ACTS].bytes - off.comp[EST_C_ACTS].bytes, pres);
    assert_int_equal(on.comp[EST_C_LOGITS].bytes, off.comp[EST_C_LOGITS].bytes);
    assert_int_equal(on.peak_allocated_bytes - off.peak_allocated_bytes, pres);
    /* a loop holding `outputs` keeps its count (outputs_kept): no change here */
    wl.loop_holds = EST_KEEP_OUTPUTS;
    assert_int_equal(est_compute(&m, &wl, &held, &err), 0);
    wl.use_cache = 2;
    assert_int_equal(est_compute(&m, &wl, &off, &err), 0);
    assert_int_equal(held.comp[EST_C_ACTS].bytes, off.comp[EST_C_ACTS].bytes);
}

/* Block checkpointing, no gradient kept from an earlier micro-batch: when
 * the first block is recomputed the gradients of blocks 1..L-1 are alive
 * and the other blocks' checkpointed inputs are freed (torch 1.13: a
 * pre-forward hook on each checkpointed block counts head + L-1 blocks of
 * .grad at block 0's recompute). llama-recipes' full FSDP1 run (LC05: 4
 * GPUs, pure bf16, 4 x 2048, eager): a block's bf16 gradient shard (101 MB)
 * outweighs its checkpointed input (64 MiB), so that moment is the peak.
 * On 16 GPUs the shard is 25 MB and the last block's moment stays. */
static void test_ckpt_later_grads(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 4, 2048);
    struct est_result r, w, a;
    struct oomlab_err err;
    wl.attention = EST_ATTN_EAGER;
    wl.ckpt = EST_CKPT_FULL;
    wl.shard = EST_SHARD_FSDP;
    wl.gpus = 4;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    wl.gpus = 16;
    assert_int_equal(est_compute(&m, &wl, &w, &err), 0);
    const int64_t T = 8192, h = 4096, L = 32, P = 6738415616, Pbig = (int64_t)32000 * h;
    /* blocks 1..31's bf16 gradient shards are at the peak (FSDP1's root
     * gradient is in the temporaries); the component keeps the whole */
    assert_true(r.comp[EST_C_GRADS].at_peak);
    assert_int_equal(r.comp[EST_C_GRADS].bytes, P * 2 / 4);
    int64_t rest = 0;
    for (int i = 0; i < EST_C__COUNT; i++)
        if (i != EST_C_GRADS && i != EST_C_SLACK && i != EST_C_CONTEXT && i != EST_C_NCCL && r.comp[i].at_peak) rest += r.comp[i].bytes;
    int64_t later = r.peak_allocated_bytes - rest, want = (P - 2 * Pbig) * 2 / 4 / L * (L - 1);
    assert_true(later - want <= 16 && want - later <= 16); /* each term rounded to bytes */
    assert_false(w.comp[EST_C_GRADS].at_peak);
    assert_int_equal(w.comp[EST_C_ACTS].bytes - r.comp[EST_C_ACTS].bytes, (L - 1) * T * 2 * h);
    /* gradients kept from earlier micro-batches are counted whole, as before */
    wl.gpus = 4;
    wl.grad_accum = 2;
    assert_int_equal(est_compute(&m, &wl, &a, &err), 0);
    assert_int_equal(a.comp[EST_C_ACTS].bytes, w.comp[EST_C_ACTS].bytes);
}

/* FSDP1 under autocast on fp32 weights (--shard fsdp, bf16-mixed: atorch's
 * amp_native + fsdp, no MixedPrecision param_dtype): autocast caches no
 * cast (each parameter reaches forward as a view into the unsharded flat
 * parameter, and cached_cast caches only leaf non-view tensors), so there
 * are no "16-bit weight copies"; the matmuls keep each use's 16-bit cast of
 * the whole (unsharded) linears of every block whose graph is alive; the
 * two gathered blocks and the root's embedding and head are fp32 flat
 * parameters. Llama-2-7B, 8 GPUs, no checkpointing, against the same run
 * unsharded on one GPU. */
static void test_fsdp1_autocast_casts(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16_MIXED, 1, 512);
    struct est_result r, n;
    struct oomlab_err err;
    wl.attention = EST_ATTN_SDPA;
    wl.lora_r = 8; /* LoRA on q, v: the fwd/bwd moment is the peak in both runs */
    assert_int_equal(est_compute(&m, &wl, &n, &err), 0);
    wl.shard = EST_SHARD_FSDP;
    wl.gpus = 8;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    const int64_t h = 4096, V = 32000, Pbig = V * h, L = 32, P = r.params;
    const int64_t Plin = 6738415616 - 2 * Pbig - (2 * L + 1) * h, layer = (P - 2 * Pbig) / L;
    assert_true(n.comp[EST_C_TEMP].at_peak && r.comp[EST_C_TEMP].at_peak);
    /* the head's cast too: frozen under LoRA, not cached, but its matmul
     * keeps it for the input's gradient */
    assert_int_equal(n.comp[EST_C_WEIGHT_COPIES].bytes, 2 * (Plin + Pbig));
    assert_int_equal(r.comp[EST_C_WEIGHT_COPIES].bytes, 0);
    /* every block's graph alive: the casts are the whole linears, not 1/8 */
    assert_int_equal(r.comp[EST_C_ACTS].bytes - n.comp[EST_C_ACTS].bytes, 2 * Plin);
    /* two gathered blocks + the root's embedding and head (one under LoRA), fp32 */
    assert_true(llabs(r.comp[EST_C_TEMP].bytes - n.comp[EST_C_TEMP].bytes - (2 * 4 * layer + 2 * 4 * Pbig)) <= 8);
}

/* torchtitan full AC (ptd_checkpoint_wrapper, non-reentrant too), 1 x
 * 32768 on 8 GPUs (its page's Table 2 FSDP row): the loss's backward holds
 * each block's bf16 input and the final norm, no block recomputed */
static void test_titan_full_moments(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-3-8b");
    struct est_workload wl = fx_workload(EST_BF16_MIXED, 1, 32768);
    struct est_result full;
    struct oomlab_err err;
    wl.gpus = 8;
    wl.shard = EST_SHARD_FSDP;
    wl.attention = EST_ATTN_FLASH;
    wl.ckpt = EST_CKPT_FULL;
    wl.trainer = EST_TRAINER_TORCHTITAN;
    assert_int_equal(est_compute(&m, &wl, &full, &err), 0);
    assert_int_equal(full.comp[EST_C_ACTS].bytes, (int64_t)32768 * (32 * 2 * 4096 + 33284));
}

/* The op policy compiled (torchtitan compiles each checkpointed block):
 * eager SAC's cache keeps the down projection's output, which backward never
 * reads; the partitioner saves only what backward reads, so per token and
 * block 2h fewer bytes at the loss's backward. */
static void test_titan_op_compile(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-3-8b");
    struct est_workload wl = fx_workload(EST_BF16_MIXED, 2, 8192);
    struct est_result eager, comp;
    struct oomlab_err err;
    wl.gpus = 8;
    wl.shard = EST_SHARD_FSDP;
    wl.attention = EST_ATTN_FLASH;
    wl.ckpt = EST_CKPT_OP;
    wl.trainer = EST_TRAINER_TORCHTITAN;
    assert_int_equal(est_compute(&m, &wl, &eager, &err), 0);
    wl.compiled = true;
    assert_int_equal(est_compute(&m, &wl, &comp, &err), 0);
    assert_int_equal(eager.comp[EST_C_ACTS].bytes - comp.comp[EST_C_ACTS].bytes, (int64_t)16384 * 32 * 2 * 4096);
    /* a plain MLP's last matmul (the 6th) was never saved: nothing changes */
    struct est_model g = fx_preset("gpt2");
    struct est_workload w2 = fx_workload(EST_BF16_MIXED, 2, 1024);
    w2.attention = EST_ATTN_FLASH;
    w2.ckpt = EST_CKPT_OP;
    w2.trainer = EST_TRAINER_TORCHTITAN;
    struct est_result ge, gc;
    assert_int_equal(est_compute(&g, &w2, &ge, &err), 0);
    w2.compiled = true;
    assert_int_equal(est_compute(&g, &w2, &gc, &err), 0);
    /* both peak at the loss's backward, no block recomputed: equal */
    assert_non_null(strstr(gc.comp[EST_C_ACTS].formula, "before any block is recomputed"));
    assert_int_equal(ge.comp[EST_C_ACTS].bytes, gc.comp[EST_C_ACTS].bytes);
}

/* HF GPT-NeoX: the saved value is a view of the fused qkv output (all 3h
 * kept), q and k are new tensors from the rotary cat, fp32 ones under eager
 * (baddbmm saves them), 16-bit casts under SDPA; both LayerNorms of the
 * parallel residual read one input, kept once. Per token and block, against
 * the same shapes as plain GPT-2-style accounting (q, k, v = 3h, two LN
 * inputs): SDPA +2h x 2 B - h x 2 B, eager +2h x 4 B - h x 2 B. */
static void test_neox_qkv_view(void **state)
{
    (void)state;
    struct est_model m = fx_preset("pythia-410m");
    struct est_workload wl = fx_workload(EST_FP16, 1, 128);
    struct est_result hf, tt;
    struct oomlab_err err;
    wl.optimizer = EST_OPT_NONE;
    wl.loss = EST_LOSS_SUM;
    wl.attention = EST_ATTN_SDPA;
    wl.use_cache = 2; /* the presents' fp32 key: test_neox_presents */
    assert_int_equal(est_compute(&m, &wl, &hf, &err), 0);
    wl.trainer = EST_TRAINER_TORCHTUNE; /* not HF's modeling code: plain accounting */
    assert_int_equal(est_compute(&m, &wl, &tt, &err), 0);
    int64_t h = 1024, L = 24, T = 128;
    /* outside the blocks HF's NeoX gathers fp32 cos/sin (T x rotary 16) per
     * layer; the plain accounting builds (B, T, head_dim) once */
    int64_t rope = T * (L * 2 * 4 * 16) - T * 2 * 64 * 2;
    assert_int_equal(hf.comp[EST_C_ACTS].bytes - tt.comp[EST_C_ACTS].bytes, L * T * (2 * h * 2 - h * 2) + rope);
    wl.attention = EST_ATTN_EAGER;
    wl.trainer = EST_TRAINER_HF;
    assert_int_equal(est_compute(&m, &wl, &hf, &err), 0);
    wl.trainer = EST_TRAINER_TORCHTUNE;
    assert_int_equal(est_compute(&m, &wl, &tt, &err), 0);
    /* eager: fp32 q, k (8h) and the copy of v matmul makes (2h), not the
     * whole qkv output (the presents keep that: test_neox_presents), against
     * 6h; less the shared LayerNorm input (2h); and HF's softmax on the
     * fp32 scores with its fp16 cast (4 + 2 B per score) against own code's
     * fp16 softmax (2 B: test_own_code_eager_softmax_dtype), 16 heads */
    assert_int_equal(hf.comp[EST_C_ACTS].bytes - tt.comp[EST_C_ACTS].bytes,
                     L * T * (2 * h * 4 + 2 * h - 6 * h - h * 2) + rope + L * T * 16 * T * 4);
}

static void test_offload(void **state)
{
    (void)state;
    const struct model_preset *p = models_find("llama-2-13b");
    struct est_model m = p->m;
    struct est_workload wl = fx_workload(EST_BF16_MIXED, 1, 512);
    struct est_result r, z;
    struct oomlab_err err;
    assert_int_equal(est_model_finish(&m, &err), 0);
    wl.offload = EST_OFFLOAD_OPTIMIZER;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    int64_t P = r.params;
    assert_int_equal(r.comp[EST_C_WEIGHTS].bytes, 2 * P);
    assert_int_equal(r.comp[EST_C_OPTIM].bytes, 0);
    assert_int_equal(r.comp[EST_C_MASTER].bytes, 0);
    assert_int_equal(r.comp[EST_C_GRADS].bytes, 0);
    /* DeepSpeed keeps the fp32 gradient partition on the host (test_est_ds) */
    assert_int_equal(r.host_bytes, 8 * P + 4 * P + 4 * P);
    assert_string_equal(r.peak_phase, "forward/backward");
    assert_int_equal(est_kind_of(&wl), EST_KIND_OFFLOAD);
    assert_true(est_checked_for(EST_KIND_OFFLOAD)->rows > 0); /* heldout3 brought measured offload runs */
    /* params: the weights leave the GPU too, per process under zero3 */
    wl.gpus = 8;
    wl.shard = EST_SHARD_ZERO3;
    assert_int_equal(est_compute(&m, &wl, &z, &err), 0);
    wl.offload = EST_OFFLOAD_PARAMS;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    /* but ZeRO-3's persistent params (<= 1e5 elements: the 81 RMSNorm
     * vectors) stay gathered whole, and their partitions on the GPU too */
    assert_int_equal(r.comp[EST_C_WEIGHTS].bytes, 2 * 81 * 5120 + 2 * 81 * 5120 / 8);
    assert_int_equal(r.host_bytes, z.host_bytes + z.comp[EST_C_WEIGHTS].bytes - r.comp[EST_C_WEIGHTS].bytes);
    assert_true(r.peak_allocated_bytes < z.peak_allocated_bytes);
    /* refused: params without zero3/fsdp, optimizer-only under FSDP, inference */
    wl.shard = EST_SHARD_ZERO2;
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
    assert_non_null(strstr(err.msg, "zero3, fsdp or gemini"));
    wl.shard = EST_SHARD_FSDP;
    wl.offload = EST_OFFLOAD_OPTIMIZER;
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
    wl.shard = EST_SHARD_NONE;
    wl.gpus = 1;
    wl.mode = EST_MODE_INFER;
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
    wl.mode = EST_MODE_TRAIN;
    wl.trainer = EST_TRAINER_LLMC;
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
    assert_non_null(strstr(err.msg, "llm.c"));
    assert_int_equal(est_offload_parse("params"), EST_OFFLOAD_PARAMS);
    assert_int_equal(est_offload_parse("disk"), -1);
}

/* HF GPT-NeoX registers a bool N x N causal mask and fp32 rotary cos/sin
 * caches (N x head_dim / 4) in every attention module (modeling_gpt_neox.py
 * @006bd23): 24 x (2048^2 + 2 x 4 x 2048 x 16) B on pythia-410m, grown to
 * the sequence when it is longer; GPT-2's bias is n_positions^2. */
static void test_layer_buffers(void **state)
{
    (void)state;
    struct est_model m = fx_preset("pythia-410m");
    struct est_workload wl = fx_workload(EST_FP16, 1, 128);
    struct est_result r, none;
    struct oomlab_err err;
    wl.optimizer = EST_OPT_NONE;
    wl.loss = EST_LOSS_SUM;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    int64_t n = 2048, L = 24;
    assert_int_equal(r.comp[EST_C_WEIGHTS].bytes, 2 * r.params + L * (n * n + 2 * 4 * n * 16));
    wl.layer_buffers = 1;
    assert_int_equal(est_compute(&m, &wl, &none, &err), 0);
    assert_int_equal(none.comp[EST_C_WEIGHTS].bytes, 2 * r.params);
    assert_int_equal(r.peak_allocated_bytes - none.peak_allocated_bytes, L * (n * n + 2 * 4 * n * 16));
    wl.layer_buffers = 0;
    wl.seq = 4096; /* _init_bias(key_length) */
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_WEIGHTS].bytes, 2 * r.params + L * (4096 * 4096 + 2 * 4 * 4096 * 16));
    wl.trainer = EST_TRAINER_TORCHTUNE; /* not HF's modules */
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_WEIGHTS].bytes, 2 * r.params);
    struct est_model g = fx_preset("gpt2");
    est_workload_init(&wl);
    wl.mode = EST_MODE_INFER;
    wl.precision = EST_FP16;
    assert_int_equal(est_compute(&g, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_WEIGHTS].bytes, 2 * r.params + 12 * 1024 * 1024);
}

/* use_cache in training: GPT-NeoX's presents hold the fp32 key (the cat of
 * the fp32 rotary part and the pass part) that SDPA does not save (it saves
 * the 16-bit cast); eager's baddbmm saves that fp32 key itself, but its
 * matmul copies v, so there the presents alone keep the qkv output. HF turns
 * the presents off under its gradient checkpointing. (bench/estimate-oracle's
 * NeoX block checks both on real torch.) */
static void test_neox_presents(void **state)
{
    (void)state;
    struct est_model m = fx_preset("pythia-410m");
    struct est_workload wl = fx_workload(EST_FP16, 1, 512);
    struct est_result on, off;
    struct oomlab_err err;
    wl.optimizer = EST_OPT_NONE;
    wl.loss = EST_LOSS_SUM;
    assert_int_equal(est_compute(&m, &wl, &on, &err), 0);
    wl.use_cache = 2;
    assert_int_equal(est_compute(&m, &wl, &off, &err), 0);
    int64_t h = 1024, L = 24, T = 512;
    assert_int_equal(on.comp[EST_C_ACTS].bytes - off.comp[EST_C_ACTS].bytes, L * T * 4 * h);
    wl.use_cache = 0;
    wl.attention = EST_ATTN_EAGER;
    assert_int_equal(est_compute(&m, &wl, &on, &err), 0);
    wl.use_cache = 2;
    assert_int_equal(est_compute(&m, &wl, &off, &err), 0);
    /* eager: matmul keeps a copy of v, so the fused qkv output (3h x 2 B) is
     * kept by the presents alone */
    assert_int_equal(on.comp[EST_C_ACTS].bytes - off.comp[EST_C_ACTS].bytes, L * T * 2 * 3 * h);
    wl.use_cache = 0;
    wl.attention = EST_ATTN_SDPA;
    wl.ckpt = EST_CKPT_FULL; /* gradient_checkpointing_enable: use_cache = False */
    assert_int_equal(est_compute(&m, &wl, &on, &err), 0);
    wl.use_cache = 2;
    assert_int_equal(est_compute(&m, &wl, &off, &err), 0);
    assert_int_equal(on.comp[EST_C_ACTS].bytes, off.comp[EST_C_ACTS].bytes);
}

/* --loop-holds outputs (was --keep-outputs; optimum's benchmark_training loop): the previous output
 * object (fp16 logits T V x 2 B, presents: fp32 key 4h + the fused qkv
 * output 6h per layer) beside the next forward's end; the current one beside
 * the whole gradient at the end of backward, the peak at short sequences. */
static void test_keep_outputs(void **state)
{
    (void)state;
    struct est_model m = fx_preset("pythia-410m");
    struct est_workload wl = fx_workload(EST_FP16, 1, 2048);
    struct est_result base, kept;
    struct oomlab_err err;
    wl.optimizer = EST_OPT_NONE;
    wl.loss = EST_LOSS_SUM;
    assert_int_equal(est_compute(&m, &wl, &base, &err), 0);
    wl.loop_holds = EST_KEEP_OUTPUTS;
    assert_int_equal(est_compute(&m, &wl, &kept, &err), 0);
    int64_t h = 1024, L = 24, T = 2048, V = 50304;
    int64_t out = T * (2 * V + L * (4 * h + 2 * 3 * h));
    assert_string_equal(kept.peak_phase, "forward/backward");
    /* at 2048 tokens the previous outputs outweigh the backward temporaries */
    assert_int_equal(kept.comp[EST_C_TEMP].bytes, out);
    assert_true(kept.peak_allocated_bytes - base.peak_allocated_bytes > out - base.comp[EST_C_TEMP].bytes - 2);
    wl.seq = 128;
    T = 128;
    out = T * (2 * V + L * (4 * h + 2 * 3 * h));
    assert_int_equal(est_compute(&m, &wl, &kept, &err), 0);
    assert_string_equal(kept.peak_phase, "end of backward");
    assert_int_equal(kept.peak_allocated_bytes,
                     kept.comp[EST_C_WEIGHTS].bytes + kept.comp[EST_C_GRADS].bytes + out + kept.comp[EST_C_BLAS].bytes);
    wl.use_cache = 2; /* logits only */
    assert_int_equal(est_compute(&m, &wl, &kept, &err), 0);
    assert_int_equal(kept.peak_allocated_bytes,
                     kept.comp[EST_C_WEIGHTS].bytes + kept.comp[EST_C_GRADS].bytes + T * 2 * V + kept.comp[EST_C_BLAS].bytes);
}

/* --loop-holds, the one option for what the loop holds of the output: the
 * output object's logits are counted as the model returned them (HF Llama's
 * head: fp32), as --loop-holds logits counts them, where --keep-outputs
 * took the activation dtype for every family; none holds no logits through
 * backward (HF Trainer's compute_loss returns the loss alone), where HF's
 * default holds them in the activation dtype. The names parse both ways. */
static void test_loop_holds(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 256);
    struct est_result autor, none, outs;
    struct oomlab_err err;
    wl.lora_r = 8;
    wl.use_cache = 2; /* no presents: the output object is the logits alone */
    const int64_t TV = 256 * (int64_t)32000;
    assert_int_equal(est_compute(&m, &wl, &autor, &err), 0);
    assert_int_equal(autor.comp[EST_C_LOGITS].bytes, TV * (2 + 4)); /* held 16-bit + fp32 log-softmax */
    wl.loop_holds = EST_KEEP_NONE;
    assert_int_equal(est_compute(&m, &wl, &none, &err), 0);
    assert_int_equal(none.comp[EST_C_LOGITS].bytes, TV * 4);
    assert_non_null(strstr(est_loss_path(&m, &wl), "holds no logits"));
    wl.loop_holds = EST_KEEP_OUTPUTS;
    wl.transformers = 4045; /* before 4.46 Llama's forward returns `logits.float()` */
    assert_int_equal(est_compute(&m, &wl, &outs, &err), 0);
    assert_int_equal(outs.comp[EST_C_LOGITS].bytes, TV * (4 + 4)); /* as returned: fp32 */
    assert_true(outs.comp[EST_C_TEMP].bytes >= TV * 4);             /* the previous object, fp32 */
    wl.transformers = 0; /* today's: the loss function upcasts, the returned logits stay 16-bit */
    assert_int_equal(est_compute(&m, &wl, &outs, &err), 0);
    assert_int_equal(outs.comp[EST_C_LOGITS].bytes, TV * (2 + 4));
    assert_int_equal(est_keep_parse("outputs"), EST_KEEP_OUTPUTS);
    assert_int_equal(est_keep_parse("logits"), EST_KEEP_LOGITS);
    assert_int_equal(est_keep_parse("none"), EST_KEEP_NONE);
    assert_int_equal(est_keep_parse("all"), -1);
    assert_string_equal(est_keep_name(EST_KEEP_AUTO), "auto");
}

/* --precision bf16-autocast: HF Trainer --bf16 on a model loaded in bf16.
 * The states are pure bf16's (16-bit weights, gradients and AdamW states, no
 * master, no autocast weight copies); activations follow autocast's fp32
 * list: GPT-2's LayerNorms keep an fp32 copy of their input and eager
 * softmax is fp32, as under bf16-mixed (no checkpointing: the residual
 * stream is not kept apart from the norms); Llama's RMSNorm upcasts itself,
 * so with SDPA its activations are pure bf16's. DeepSpeed's engine runs no
 * autocast: refused. Before: no such value. */
/* HF's GPT-2 MLP activation is NewGELUActivation in Python ops ("gelu_new"):
 * autograd keeps four ffn-sized tensors where a fused F.gelu (torchtune's,
 * litgpt's own model code) keeps its input only; bench/estimate-oracle's
 * GPT-2 block counts them with saved_tensors_hooks */
static void test_gelu_new_keeps_four(void **state)
{
    (void)state;
    struct est_model g = fx_preset("gpt2");
    struct est_workload wl = fx_workload(EST_BF16, 2, 512);
    struct est_result hf, tt;
    struct oomlab_err err;
    wl.attention = EST_ATTN_SDPA;
    g.dropout = 2;
    assert_int_equal(est_compute(&g, &wl, &hf, &err), 0);
    wl.trainer = EST_TRAINER_TORCHTUNE;
    assert_int_equal(est_compute(&g, &wl, &tt, &err), 0);
    /* 3 more ffn-sized bf16 tensors per token and layer */
    assert_int_equal(hf.comp[EST_C_ACTS].bytes - tt.comp[EST_C_ACTS].bytes, (int64_t)3 * 3072 * 2 * 1024 * 12);
    assert_non_null(strstr(hf.comp[EST_C_ACTS].formula, "gelu_new"));
    assert_null(strstr(tt.comp[EST_C_ACTS].formula, "gelu_new"));
}

/* The per-layer figure the activations formula states. */
static double formula_per_layer(const struct est_result *r)
{
    double tokens = 0, layers = 0, per = 0;
    assert_int_equal(sscanf(r->comp[EST_C_ACTS].formula, "tokens %lf x (layers %lf x %lf B/token/layer", &tokens,
                            &layers, &per), 3);
    return per;
}

/* --compile: each block keeps AOTAutograd's min-cut partitioner's saved set.
 * With --torch 1.x, functorch 1.13's rules (what bench/estimate-oracle
 * compiles blocks with). Llama-3.2-3B in bf16 under SDPA (h 3072, q 3072,
 * k/v 1024 each, ffn 8192, 24 heads): the input, norm 1's rstd and output, q
 * and the grouped k, v, the kernel's output and fp32 logsumexp, o_proj's
 * input copy, the residual, norm 2's rstd and output, gate, up and their
 * product:
 *   2 h + (4 + 2 h) + 2 (q + 2 kv) + 2 q + 4 x 24 + 2 q + 2 h + (4 + 2 h) + 3 x 2 f = 96360 B
 * where eager keeps RMSNorm's fp32 x.float(), expanded K/V and SiLU's
 * output too. Torch 2 (the default) never recomputes what SDPA's backward
 * reads: K and V expanded, 2 x 2 (3072 - 1024) B more = 104552. flash-attn
 * takes them grouped, and its output is o_proj's input (a view): 2 q less. */
static void test_compile_partitioner_saved_set(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-3.2-3b");
    struct est_workload wl = fx_workload(EST_BF16, 2, 4096);
    struct est_result eager, comp, flash;
    struct oomlab_err err;
    wl.trainer = EST_TRAINER_TORCHTUNE;
    assert_null(est_compile_model(&wl));
    assert_int_equal(est_compute(&m, &wl, &eager, &err), 0);
    wl.compiled = true;
    assert_int_equal(est_compute(&m, &wl, &comp, &err), 0);
    assert_true(formula_per_layer(&comp) == 104552.0);
    wl.compile_torch1 = true;
    assert_int_equal(est_compute(&m, &wl, &comp, &err), 0);
    assert_true(formula_per_layer(&comp) == 96360.0);
    assert_non_null(strstr(est_compile_model(&wl), "functorch 1.13"));
    assert_true(formula_per_layer(&eager) > formula_per_layer(&comp));
    assert_non_null(strstr(comp.comp[EST_C_ACTS].formula, "torch.compile"));
    assert_non_null(strstr(est_compile_model(&wl), "min-cut partitioner"));
    /* only the blocks change: the same bytes outside them, the same loss path */
    assert_int_equal(eager.comp[EST_C_ACTS].bytes - comp.comp[EST_C_ACTS].bytes,
                     (int64_t)(8192 * 28 * (formula_per_layer(&eager) - 96360.0)));
    assert_int_equal(eager.comp[EST_C_LOGITS].bytes, comp.comp[EST_C_LOGITS].bytes);
    wl.attention = EST_ATTN_FLASH;
    assert_int_equal(est_compute(&m, &wl, &flash, &err), 0);
    assert_int_equal(comp.comp[EST_C_ACTS].bytes - flash.comp[EST_C_ACTS].bytes, (int64_t)8192 * 28 * 2 * 3072);
    /* LoRA and inference: nothing modelled, the eager figures */
    wl.attention = EST_ATTN_SDPA;
    wl.lora_r = 16;
    assert_int_equal(est_compute(&m, &wl, &comp, &err), 0);
    wl.compiled = false;
    assert_int_equal(est_compute(&m, &wl, &eager, &err), 0);
    assert_int_equal(comp.peak_allocated_bytes, eager.peak_allocated_bytes);
    wl.compiled = true;
    assert_non_null(strstr(est_compile_model(&wl), "not modelled"));
    wl.lora_r = 0;
    wl.mode = EST_MODE_INFER;
    assert_non_null(strstr(est_compile_model(&wl), "nothing saved for backward"));
}

/* --compile, plain MLP. functorch 1.13 (--torch 1.x): HF's Python gelu_new
 * is a chain of pointwise ops whose output the partitioner keeps beside
 * fc's; a fused F.gelu (the same GPT-2 under torchtune's or litgpt's own
 * code) is recomputed from fc's output in backward, one ffn-sized tensor
 * less per token and block (bench/estimate-oracle: the GPT-2 compile points
 * and the BERT block check). Torch 2 keeps it either way: the down
 * projection's weight gradient reads it (ban_recompute_materialized_backward). */
static void test_compile_plain_mlp(void **state)
{
    (void)state;
    struct est_model g = fx_preset("gpt2");
    struct est_workload wl = fx_workload(EST_BF16, 2, 512);
    struct est_result hf, tt;
    struct oomlab_err err;
    g.dropout = 2;
    wl.compiled = true;
    wl.compile_torch1 = true;
    assert_int_equal(est_compute(&g, &wl, &hf, &err), 0);
    wl.trainer = EST_TRAINER_TORCHTUNE;
    assert_int_equal(est_compute(&g, &wl, &tt, &err), 0);
    assert_true(formula_per_layer(&hf) - formula_per_layer(&tt) == 2.0 * 3072);
    wl.compile_torch1 = false;
    assert_int_equal(est_compute(&g, &wl, &hf, &err), 0);
    assert_true(formula_per_layer(&hf) == formula_per_layer(&tt) + 2.0 * 3072);
}

/* HF generate holds the prefill's output (`outputs`, every position's logits
 * with the tuple cache) until the first decode step's forward returns: that
 * step, beside the prompt's cache and the new one, is the peak for a long
 * prompt and a large vocabulary (bench/estimate-oracle-gen point 12) */
static void test_first_decode_step_holds_prefill(void **state)
{
    (void)state;
    struct est_model g = fx_preset("gpt2-large");
    struct est_workload wl = fx_workload(EST_FP16, 4, 768);
    struct est_result r;
    struct oomlab_err err;
    wl.mode = EST_MODE_INFER;
    wl.prompt_len = 768;
    wl.gen_len = 100;
    wl.cache = EST_CACHE_LEGACY;
    wl.prefill_logits = EST_PLOGITS_ALL;
    wl.attention = EST_ATTN_SDPA;
    assert_int_equal(est_compute(&g, &wl, &r, &err), 0);
    assert_string_equal(r.peak_phase, "decode (first generated token, the prefill's output held)");
    /* the held logits: 4 x 768 x 50257 fp16, + the step's own */
    assert_true(r.comp[EST_C_LOGITS].bytes >= (int64_t)4 * 768 * 50257 * 2);
    /* the cache: the prompt's (old tuple: views of c_attn's output, q's third too, 3 x 1280) + the
     * one-longer new one (K, V: 2 x 1280), 36 layers x 2 B */
    assert_int_equal(r.comp[EST_C_KV].bytes, (int64_t)36 * 1280 * 2 * 4 * (3 * 768 + 2 * 769));
    /* one generated token: no decode step, prefill is the peak */
    wl.gen_len = 1;
    assert_int_equal(est_compute(&g, &wl, &r, &err), 0);
    assert_string_equal(r.peak_phase, "prefill");
}

/* Generation without a KV cache (--cache none --gen-len N): every step
 * reruns the whole sequence and HF's loop holds the previous step's output
 * through the next forward (BertLMHeadModel on bert-base-uncased: the SDPA
 * BERT inference table of transformers' docs). The old code refused
 * --cache none with --gen-len. */
static void test_generate_without_cache(void **state)
{
    (void)state;
    struct est_model m = fx_preset("bert-base-uncased"), l = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_FP16, 2, 128);
    struct est_result r;
    struct oomlab_err err;
    const int64_t V = m.vocab;
    wl.mode = EST_MODE_INFER;
    wl.head = EST_HEAD_LM;
    wl.prompt_len = 128;
    wl.gen_len = 100;
    wl.cache = EST_CACHE_NONE;
    wl.attention = EST_ATTN_EAGER;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_string_equal(r.peak_phase, "decode without a KV cache (last generated token: the whole sequence rerun, "
                                      "the previous step's output held)");
    assert_int_equal(r.comp[EST_C_KV].bytes, 0);
    /* the last step's logits over 128 + 99 positions, the previous step's over 226, fp16 */
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, (int64_t)2 * (227 + 226) * V * 2);
    /* one generated token: a single forward, nothing held */
    wl.gen_len = 1;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, (int64_t)2 * 128 * V * 2);
    /* a Llama-family head upcasts in forward: the held output is fp32, the last step's bf16 + its fp32 copy */
    wl = fx_workload(EST_BF16, 1, 64);
    wl.mode = EST_MODE_INFER;
    wl.prompt_len = 64;
    wl.gen_len = 3;
    wl.cache = EST_CACHE_NONE;
    assert_int_equal(est_compute(&l, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, (int64_t)66 * l.vocab * (2 + 4) + (int64_t)65 * l.vocab * 4);
}

/* accelerate's mixed precision (HF Trainer --bf16/--fp16) wraps forward in
 * convert_outputs_to_fp32: a loop holding the output holds fp32 logits even
 * from a head that returns 16-bit ones (GPT-2). The old code held them in the
 * activation dtype. */
static void test_accelerate_fp32_outputs(void **state)
{
    (void)state;
    struct est_model g = fx_preset("gpt2");
    struct est_workload wl = fx_workload(EST_BF16_AUTOCAST, 2, 512);
    struct est_result r;
    struct oomlab_err err;
    const int64_t VT = (int64_t)g.vocab * 2 * 512;
    wl.loop_holds = EST_KEEP_LOGITS;
    assert_int_equal(est_compute(&g, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, VT * (4 + 4)); /* held fp32 copy + CE's fp32 log-softmax */
    wl.precision = EST_BF16_MIXED;
    assert_int_equal(est_compute(&g, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, VT * (4 + 4));
    /* pure bf16 (no accelerate autocast): the logits as the head returns them */
    wl.precision = EST_BF16;
    assert_int_equal(est_compute(&g, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, VT * (2 + 4));
    /* auto keeps its old assumption (the activation dtype) */
    wl.precision = EST_BF16_AUTOCAST;
    wl.loop_holds = EST_KEEP_AUTO;
    assert_int_equal(est_compute(&g, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_LOGITS].bytes, VT * (2 + 4));
}

/* A tied embedding's two gradients are summed out of place (the head's is a
 * view whose base shares its storage: autograd's InputBuffer cannot add in
 * place), so the end of backward holds the gradients + two vocab x hidden
 * tensors; bench/estimate-oracle-tied measures 2.01 E on torch 1.13. The old
 * count was one. Untied, DeepSpeed: unchanged. */
static void test_tied_embedding_sum_out_of_place(void **state)
{
    (void)state;
    struct est_model g = fx_preset("gpt2");
    struct est_workload wl = fx_workload(EST_FP32, 1, 8);
    struct est_result r;
    struct oomlab_err err;
    const int64_t E = (int64_t)g.vocab * g.hidden * 4;
    wl.optimizer = EST_OPT_NONE;
    wl.loop_holds = EST_KEEP_NONE;
    assert_int_equal(est_compute(&g, &wl, &r, &err), 0);
    assert_int_equal(r.peak_allocated_bytes - r.comp[EST_C_WEIGHTS].bytes - r.comp[EST_C_GRADS].bytes - r.comp[EST_C_BLAS].bytes, 2 * E);
    wl.precision = EST_BF16;
    assert_int_equal(est_compute(&g, &wl, &r, &err), 0);
    assert_int_equal(r.peak_allocated_bytes - r.comp[EST_C_WEIGHTS].bytes - r.comp[EST_C_GRADS].bytes - r.comp[EST_C_BLAS].bytes, 2 * (E / 2));
    g.tied_embeddings = false;
    assert_int_equal(est_compute(&g, &wl, &r, &err), 0);
    assert_int_equal(r.peak_allocated_bytes - r.comp[EST_C_WEIGHTS].bytes - r.comp[EST_C_GRADS].bytes - r.comp[EST_C_BLAS].bytes, 0);
}

/* Gradients kept from the previous micro-batch: AccumulateGrad adds the new
 * one in place, alive beside the kept one: + E untied, + 3 E tied (the
 * InputBuffer's three); bench/estimate-oracle-tied measures 1.007 E and
 * 3.000 E. A classifier head does not use the embedding: no tied sum. */
static void test_kept_grads_accumulate_beside(void **state)
{
    (void)state;
    struct est_model g = fx_preset("gpt2"), b = fx_preset("bert-base-uncased");
    struct est_workload wl = fx_workload(EST_FP32, 1, 8);
    struct est_result r;
    struct oomlab_err err;
    const int64_t E = (int64_t)g.vocab * g.hidden * 4;
    wl.optimizer = EST_OPT_NONE;
    wl.loop_holds = EST_KEEP_NONE;
    wl.keep_grads = true;
#define EXTRA(res) ((res).peak_allocated_bytes - (res).comp[EST_C_WEIGHTS].bytes - (res).comp[EST_C_GRADS].bytes - \
                    (res).comp[EST_C_BLAS].bytes)
    assert_int_equal(est_compute(&g, &wl, &r, &err), 0);
    assert_int_equal(EXTRA(r), 3 * E);
    wl.keep_grads = false;
    wl.grad_accum = 4;
    assert_int_equal(est_compute(&g, &wl, &r, &err), 0);
    assert_int_equal(EXTRA(r), 3 * E);
    g.tied_embeddings = false;
    assert_int_equal(est_compute(&g, &wl, &r, &err), 0);
    assert_int_equal(EXTRA(r), E);
    /* BERT: tied, with its MLM head two gradients meet; with a classifier one */
    const int64_t Eb = (int64_t)b.vocab * b.hidden * 4;
    wl.grad_accum = 1;
    wl.seq = 1;
    assert_int_equal(est_compute(&b, &wl, &r, &err), 0);
    assert_int_equal(EXTRA(r), 2 * Eb);
    wl.head = EST_HEAD_CLS;
    assert_int_equal(est_compute(&b, &wl, &r, &err), 0);
    assert_true(EXTRA(r) < Eb / 100);
#undef EXTRA
}

/* torch >= 2.0 takes each cuBLAS handle's workspace from the caching
 * allocator, one per (handle, stream): training's forward thread and
 * autograd's backward thread hold two, inference one, --torch 1.x none
 * (CublasHandlePool.cpp; pytorch/pytorch#95668). The device total keeps one
 * count: the context figure gives them up. */
static void test_cublas_workspaces(void **state)
{
    (void)state;
    struct est_model g = fx_preset("gpt2");
    struct est_workload wl = fx_workload(EST_BF16, 1, 128);
    struct est_result r, old;
    struct oomlab_err err;
    assert_int_equal(EST_BLAS_WORKSPACE, 8519680);
    assert_int_equal(EST_BLAS_WORKSPACE_SM90, 33554432);
    wl.context_bytes = 500LL << 20;
    assert_int_equal(est_compute(&g, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_BLAS].bytes, 2 * 8519680);
    assert_int_equal(r.comp[EST_C_CONTEXT].bytes, (500LL << 20) - 2 * 8519680);
    wl.torch1 = true;
    assert_int_equal(est_compute(&g, &wl, &old, &err), 0);
    assert_int_equal(old.comp[EST_C_BLAS].bytes, 0);
    assert_int_equal(r.peak_allocated_bytes - old.peak_allocated_bytes, 2 * 8519680);
    assert_int_equal(r.device_used_bytes, old.device_used_bytes);
    wl.torch1 = false;
    wl.mode = EST_MODE_INFER;
    wl.blas_workspace = EST_BLAS_WORKSPACE_SM90;
    assert_int_equal(est_compute(&g, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_BLAS].bytes, 33554432);
    wl.mode = EST_MODE_LOAD;
    assert_int_equal(est_compute(&g, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_BLAS].bytes, 0);
}

/* NCCL's communicator buffers on each rank of a run over several GPUs:
 * cudaMalloc'd by NCCL, so in device used and in neither of torch's peaks.
 * NVLink: the per-group figures measured on 4 x A100 (NVIDIA/nccl#964);
 * PCIe: 2 channels x 3 connections x one buffer set per protocol (Simple
 * 1 << 22, LL128 120 x 640 x 8 x 8, LL 8 x 512 x 8 x 16: NVIDIA/nccl
 * src/init.cc DEFAULT_*BUFFSIZE, src/include/device.h). */
static void test_nccl_buffers(void **state)
{
    (void)state;
    struct est_model g = fx_preset("gpt2");
    struct est_workload wl = fx_workload(EST_BF16_MIXED, 1, 128);
    struct est_result r, none;
    struct oomlab_err err;
    assert_int_equal(EST_NCCL_CONN_BYTES, 4194304 + 4915200 + 524288);
    assert_true(gpus_nvlink(gpus_find("a100-80gb")));
    assert_true(gpus_nvlink(gpus_find("h100")));
    assert_true(gpus_nvlink(gpus_find("v100-32gb")));
    assert_false(gpus_nvlink(gpus_find("rtx3090")));
    assert_false(gpus_nvlink(gpus_find("l40s")));
    assert_false(gpus_nvlink(NULL));
    wl.context_bytes = 500LL << 20;
    assert_int_equal(est_compute(&g, &wl, &r, &err), 0); /* one GPU: no communicator */
    assert_int_equal(r.comp[EST_C_NCCL].bytes, 0);
    wl.gpus = 4;
    wl.nccl_link = EST_LINK_NVLINK;
    assert_int_equal(est_compute(&g, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_NCCL].bytes, 688LL << 20);
    assert_true(r.comp[EST_C_NCCL].at_peak);
    assert_non_null(strstr(r.comp[EST_C_NCCL].formula, "nccl#964"));
    wl.nccl_bytes = 0; /* --nccl 0 */
    assert_int_equal(est_compute(&g, &wl, &none, &err), 0);
    assert_int_equal(none.comp[EST_C_NCCL].bytes, 0);
    assert_int_equal(r.peak_allocated_bytes, none.peak_allocated_bytes);
    assert_int_equal(r.peak_reserved_bytes, none.peak_reserved_bytes);
    assert_int_equal(r.device_used_bytes - none.device_used_bytes, 688LL << 20);
    wl.nccl_bytes = 100LL << 20; /* --nccl 100MiB */
    assert_int_equal(est_compute(&g, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_NCCL].bytes, 100LL << 20);
    wl.nccl_bytes = -1;
    wl.gpus = 2;
    assert_int_equal(est_compute(&g, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_NCCL].bytes, 544LL << 20);
    wl.nccl_link = EST_LINK_UNKNOWN; /* no card named: the NVLink figure */
    assert_int_equal(est_compute(&g, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_NCCL].bytes, 544LL << 20);
    wl.nccl_link = EST_LINK_PCIE;
    wl.gpus = 3;
    assert_int_equal(est_compute(&g, &wl, &r, &err), 0);
    assert_int_equal(r.comp[EST_C_NCCL].bytes, 2 * 3 * (4194304 + 4915200 + 524288));
}

static void test_autocast16(void **state)
{
    (void)state;
    struct est_model g = fx_preset("gpt2"), l = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16_MIXED, 2, 512);
    struct est_result pure, ac, mixed;
    struct oomlab_err err;
    assert_int_equal(est_precision_parse("bf16-autocast"), EST_BF16_AUTOCAST);
    assert_int_equal(est_precision_parse("fp16-autocast"), EST_FP16_AUTOCAST);
    assert_string_equal(est_precision_name(EST_BF16_AUTOCAST), "bf16-autocast");
    wl.attention = EST_ATTN_EAGER;
    wl.precision = EST_BF16;
    assert_int_equal(est_compute(&g, &wl, &pure, &err), 0);
    wl.precision = EST_BF16_AUTOCAST;
    assert_int_equal(est_compute(&g, &wl, &ac, &err), 0);
    wl.precision = EST_BF16_MIXED;
    assert_int_equal(est_compute(&g, &wl, &mixed, &err), 0);
    assert_int_equal(ac.comp[EST_C_WEIGHTS].bytes, pure.comp[EST_C_WEIGHTS].bytes);
    assert_int_equal(ac.comp[EST_C_GRADS].bytes, pure.comp[EST_C_GRADS].bytes);
    assert_int_equal(ac.comp[EST_C_OPTIM].bytes, pure.comp[EST_C_OPTIM].bytes);
    assert_int_equal(ac.comp[EST_C_WEIGHT_COPIES].bytes, 0);
    assert_true(mixed.comp[EST_C_WEIGHT_COPIES].bytes > 0);
    assert_int_equal(ac.comp[EST_C_ACTS].bytes, mixed.comp[EST_C_ACTS].bytes);
    assert_true(ac.comp[EST_C_ACTS].bytes > pure.comp[EST_C_ACTS].bytes);
    /* Llama with SDPA: RMSNorm computes on x.float() either way */
    wl.attention = EST_ATTN_SDPA;
    wl.lora_r = 8;
    wl.peft_old = true; /* bf16 adapters (PEFT < 0.12): test_peft_fp32_adapters */
    wl.precision = EST_BF16_AUTOCAST;
    assert_int_equal(est_compute(&l, &wl, &ac, &err), 0);
    wl.precision = EST_BF16;
    assert_int_equal(est_compute(&l, &wl, &pure, &err), 0);
    assert_int_equal(ac.comp[EST_C_ACTS].bytes, pure.comp[EST_C_ACTS].bytes);
    assert_int_equal(ac.peak_allocated_bytes, pure.peak_allocated_bytes);
    assert_non_null(strstr(est_precision_model(&l, &wl), "pure 16-bit"));
    wl.precision = EST_BF16_AUTOCAST;
    assert_non_null(strstr(est_precision_model(&l, &wl), "autocast on 16-bit weights"));
    wl.shard = EST_SHARD_ZERO2;
    assert_int_equal(est_compute(&l, &wl, &ac, &err), -1);
    assert_non_null(strstr(err.msg, "no autocast"));
}

/* PEFT >= 0.12 (get_peft_model's autocast_adapter_dtype=True,
 * huggingface/peft#1706) keeps LoRA adapters fp32 on a 16-bit float base:
 * fp32 weights, gradients and AdamW states for the adapters, and each
 * adapter runs on its own x.to(fp32) (lora/layer.py@v0.13.0). Outside
 * autocast lora_A keeps that fp32 copy and lora_B an fp32 r-wide input;
 * under autocast lora_A keeps its own 16-bit cast (the shared input is kept
 * by nobody); with dropout under autocast nothing changes (mask + the
 * cast's 16-bit copy either way). DeepSpeed's engine casts the module to
 * 16-bit: no change. --peft below 0.12 keeps the base's dtype. */
static void test_peft_fp32_adapters(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 2, 512);
    struct est_result nw, old;
    struct oomlab_err err;
    wl.lora_r = 8; /* q,v: two adapters on one input */
    wl.lora_dropout = 0;
    assert_int_equal(est_compute(&m, &wl, &nw, &err), 0);
    wl.peft_old = true;
    assert_int_equal(est_compute(&m, &wl, &old, &err), 0);
    int64_t tr = nw.trainable_params, tok = 2 * 512, h = 4096, r = 8, L = 32;
    assert_int_equal(nw.comp[EST_C_WEIGHTS].bytes - old.comp[EST_C_WEIGHTS].bytes, 2 * tr);
    assert_int_equal(nw.comp[EST_C_GRADS].bytes, 4 * tr);
    assert_int_equal(old.comp[EST_C_GRADS].bytes, 2 * tr);
    assert_int_equal(nw.comp[EST_C_OPTIM].bytes, 8 * tr);
    assert_int_equal(old.comp[EST_C_OPTIM].bytes, 4 * tr);
    /* per token and block: 2 x 4h + 2 x 4r against 2h + 2 x 2r */
    assert_int_equal(nw.comp[EST_C_ACTS].bytes - old.comp[EST_C_ACTS].bytes, tok * L * (6 * h + 4 * r));
    /* under autocast: 2 x 2h (one cast per adapter) against 2h */
    wl.precision = EST_BF16_AUTOCAST;
    assert_int_equal(est_compute(&m, &wl, &old, &err), 0);
    wl.peft_old = false;
    assert_int_equal(est_compute(&m, &wl, &nw, &err), 0);
    assert_int_equal(nw.comp[EST_C_ACTS].bytes - old.comp[EST_C_ACTS].bytes, tok * L * 2 * h);
    assert_int_equal(nw.comp[EST_C_GRADS].bytes, 4 * tr);
    /* autocast's cached casts of the adapter weights, less the first block's
     * q,v lora_A (their input needs no grad); none for 16-bit adapters */
    assert_int_equal(nw.comp[EST_C_WEIGHT_COPIES].bytes, 2 * (tr - 2 * r * h));
    assert_int_equal(old.comp[EST_C_WEIGHT_COPIES].bytes, 0);
    wl.lora_dropout = 0.1;
    assert_int_equal(est_compute(&m, &wl, &nw, &err), 0);
    wl.peft_old = true;
    assert_int_equal(est_compute(&m, &wl, &old, &err), 0);
    assert_int_equal(nw.comp[EST_C_ACTS].bytes, old.comp[EST_C_ACTS].bytes);
    /* DeepSpeed: module.bfloat16() at engine init */
    wl.precision = EST_BF16;
    wl.gpus = 2;
    wl.shard = EST_SHARD_ZERO2;
    assert_int_equal(est_compute(&m, &wl, &old, &err), 0);
    wl.peft_old = false;
    assert_int_equal(est_compute(&m, &wl, &nw, &err), 0);
    assert_int_equal(nw.peak_allocated_bytes, old.peak_allocated_bytes);
}

/* --transformers: the causal-LM loss path by version (hf_loss_era). Before
 * 4.46 (Mistral 4.48) the Llama-family head upcasts in forward, frees the
 * 16-bit logits and copies the shifted fp32 ones; 4.46-4.48 the loss
 * function upcasts inside while forward holds the 16-bit logits (2 B x vocab
 * more at the loss's forward moment); from 4.49 it pads the labels: no copy,
 * and the loss's backward (12 B) is the larger moment. Before: one rule for
 * every version, the backward's (fms-acceleration's Mistral LoRA rows,
 * transformers 4.48.1, 4-11% low). */
static void test_hf_loss_by_version(void **state)
{
    (void)state;
    struct oomlab_err err;
    struct est_model m = fx_preset("mistral-7b");
    struct est_workload wl = fx_workload(EST_BF16, 2, 512);
    struct est_result own, shift, pad;
    wl.lora_r = 8;
    wl.lora_dropout = 0;
    wl.loop_holds = EST_KEEP_NONE;
    int64_t tok = 2 * 512, V = m.vocab, h = m.hidden;
    wl.transformers = 4047; /* Mistral's own loss until 4.48 */
    assert_int_equal(est_compute(&m, &wl, &own, &err), 0);
    wl.transformers = 4048;
    assert_int_equal(est_compute(&m, &wl, &shift, &err), 0);
    wl.transformers = 0; /* the current rule: padded labels */
    assert_int_equal(est_compute(&m, &wl, &pad, &err), 0);
    /* forward: 16-bit logits + fp32 copy + shifted fp32 copy + log-softmax
     * (14 B) against 4 + 4 + 4, the final hidden state in both */
    assert_int_equal(shift.peak_allocated_bytes - own.peak_allocated_bytes, tok * 2 * V);
    /* own: forward's 12 B + the hidden state; current: backward's 12 B */
    assert_int_equal(own.peak_allocated_bytes - pad.peak_allocated_bytes, tok * 2 * h);
    wl.transformers = 4049;
    struct est_result v449;
    assert_int_equal(est_compute(&m, &wl, &v449, &err), 0);
    assert_int_equal(v449.peak_allocated_bytes, pad.peak_allocated_bytes);
    /* Llama switched at 4.46 */
    m = fx_preset("llama-2-7b");
    V = m.vocab;
    wl.transformers = 4045;
    assert_int_equal(est_compute(&m, &wl, &own, &err), 0);
    wl.transformers = 4046;
    assert_int_equal(est_compute(&m, &wl, &shift, &err), 0);
    assert_int_equal(shift.peak_allocated_bytes - own.peak_allocated_bytes, tok * 2 * V);
    /* a loop holding the logits through backward: fp32 ones from the model's
     * own loss, 16-bit ones from the loss function */
    wl.loop_holds = EST_KEEP_LOGITS;
    wl.transformers = 4045;
    assert_int_equal(est_compute(&m, &wl, &own, &err), 0);
    wl.transformers = 0;
    assert_int_equal(est_compute(&m, &wl, &pad, &err), 0);
    assert_int_equal(own.peak_allocated_bytes - pad.peak_allocated_bytes, tok * 2 * V);
    /* GPT-2's head keeps its own path at every version */
    m = fx_preset("gpt2-large");
    wl.loop_holds = EST_KEEP_NONE;
    wl.lora_r = 0;
    wl.transformers = 4045;
    assert_int_equal(est_compute(&m, &wl, &own, &err), 0);
    wl.transformers = 0;
    assert_int_equal(est_compute(&m, &wl, &pad, &err), 0);
    assert_int_equal(own.peak_allocated_bytes, pad.peak_allocated_bytes);
}

/* --torch / --cuda: the CUDA context of an eager-loading build (torch <
 * 1.13, CUDA < 11.7) from published measurements by CUDA version; lazy
 * builds keep the card's figure. Before: the card's default whatever the
 * version (torch 1.4's BERT rows read 37% low). */
static void test_context_by_version(void **state)
{
    (void)state;
    struct oomlab_err err;
    int64_t b = 0;
    const char *why = NULL;
    const int64_t MiB = 1024 * 1024, card = 420 * MiB;
    assert_int_equal(gpus_context("1.4", NULL, card, 0, &b, &why, &err), 0);
    assert_int_equal(b, 798 * MiB);
    assert_non_null(strstr(why, "pytorch/pytorch#49877"));
    assert_int_equal(gpus_context("1.7.1+cu110", NULL, card, 0, &b, &why, &err), 0);
    assert_int_equal(b, 1404 * MiB);
    assert_int_equal(gpus_context("1.8.2+cu101", NULL, card, 0, &b, &why, &err), 0);
    assert_int_equal(b, 798 * MiB);
    assert_int_equal(gpus_context("2.1.0", NULL, card, 0, &b, &why, &err), 0);
    assert_int_equal(b, card);
    assert_non_null(strstr(why, "LAZY"));
    assert_int_equal(gpus_context(NULL, "11.8", -1, 0, &b, &why, &err), 0);
    assert_int_equal(b, -1); /* lazy without a card: the estimator's default */
    assert_int_equal(gpus_context("1.13", "11.6", card, 0, &b, &why, &err), 0);
    assert_int_equal(b, 1404 * MiB);
    assert_int_equal(gpus_context(NULL, "10.2", card, 0, &b, &why, &err), 0);
    assert_int_equal(b, 798 * MiB);
    /* torch 1.7-1.12 shipped CUDA 10.2 and 11.x builds: on a card that runs
     * both (V100, sm_70) or an unknown one the CUDA version is needed, and
     * the message says how to read it */
    assert_int_equal(gpus_context("1.8", NULL, card, 0, &b, &why, &err), -1);
    assert_non_null(strstr(err.msg, "--cuda"));
    assert_non_null(strstr(err.msg, "--gpu"));
    assert_int_equal(gpus_context("1.12.1", NULL, card, 70, &b, &why, &err), -1);
    assert_non_null(strstr(err.msg, "10.2, 11.3 and 11.6"));
    assert_non_null(strstr(err.msg, "torch.version.cuda"));
    assert_non_null(strstr(err.msg, "1.12.1+cu113"));
    /* ...but a CUDA 10.2 build carries no sm_80+ kernels: on an A100 or an
     * RTX 3090 it was a CUDA 11.0-11.6 build (pytorch/pytorch#45028) */
    assert_int_equal(gpus_context("1.12.1", NULL, card, 80, &b, &why, &err), 0);
    assert_int_equal(b, 1404 * MiB);
    assert_non_null(strstr(why, "#45028"));
    assert_int_equal(gpus_context("1.9", NULL, card, 86, &b, &why, &err), 0);
    assert_int_equal(b, 1404 * MiB);
    assert_int_equal(gpus_context("1.9", "10.2", card, 86, &b, &why, &err), 0); /* --cuda still wins */
    assert_int_equal(b, 798 * MiB);
    assert_int_equal(gpus_context("1.4+cpu", NULL, card, 0, &b, &why, &err), -1);
    assert_int_equal(gpus_context("1.7.1+cu110", "10.2", card, 0, &b, &why, &err), -1);
    assert_int_equal(gpus_context("one", NULL, card, 0, &b, &why, &err), -1);
    assert_int_equal(gpus_context(NULL, "11.x", card, 0, &b, &why, &err), -1);
    assert_int_equal(gpus_context(NULL, "8.0", card, 0, &b, &why, &err), -1);
}

/* --var-len: an epoch of varying lengths reserves more than a run at its
 * longest length (the allocator's cached segments of shorter steps), only in
 * the reserved figures; none when the longest comes first or every sample is
 * cut to --seq; never past the card. */
static void test_var_len(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 4096);
    struct est_result base, r;
    struct oomlab_err err;
    wl.lora_r = 8;
    wl.ckpt = EST_CKPT_FULL;
    assert_int_equal(est_compute(&m, &wl, &base, &err), 0);
    wl.len_mean = 1500;
    wl.len_sd = 1000;
    wl.len_order = 1; /* shortest first: every micro-batch a new longest */
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.peak_allocated_bytes, base.peak_allocated_bytes);
    assert_true(r.varlen_extra_bytes > 0);
    assert_true(r.varlen_records > 1);
    assert_int_equal(r.peak_reserved_bytes - base.peak_reserved_bytes, r.varlen_extra_bytes);
    assert_int_equal(r.comp[EST_C_SLACK].bytes - base.comp[EST_C_SLACK].bytes, r.varlen_extra_bytes);
    int64_t sorted = r.varlen_extra_bytes;
    wl.len_order = 0; /* random: fewer new longest micro-batches */
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_true(r.varlen_extra_bytes > 0 && r.varlen_extra_bytes < sorted);
    wl.len_order = 2; /* longest first: nothing later needs a bigger block */
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.varlen_extra_bytes, 0);
    assert_int_equal(r.peak_reserved_bytes, base.peak_reserved_bytes);
    wl.len_order = 0;
    wl.len_mean = 400000; /* every sample cut to --seq */
    wl.len_sd = 10;
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_int_equal(r.varlen_extra_bytes, 0);
    wl.len_mean = 1500;
    wl.len_sd = 1000;
    wl.len_order = 1;
    wl.capacity_bytes = base.device_used_bytes + 1000; /* the cache is released before an OOM */
    assert_int_equal(est_compute(&m, &wl, &r, &err), 0);
    assert_true(r.device_used_bytes <= wl.capacity_bytes);
    assert_int_equal(r.fits, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_published_param_counts),
        cmocka_unit_test(test_new_family_param_counts),
        cmocka_unit_test(test_qwen3_qk_norm_saves),
        cmocka_unit_test(test_distilbert_one_dropout_per_block),
        cmocka_unit_test(test_opt_dropout_keeps_attention_p0),
        cmocka_unit_test(test_opt_relu_keeps_one_ffn_tensor),
        cmocka_unit_test(test_sum_gradient_clone),
        cmocka_unit_test(test_own_code_eager_softmax_dtype),
        cmocka_unit_test(test_deepspeed_stage0),
        cmocka_unit_test(test_fsdp_no_reshard_keeps_blocks_gathered),
        cmocka_unit_test(test_torchtitan_compiled_loss),
        cmocka_unit_test(test_own_code_compiled_loss),
        cmocka_unit_test(test_loss_upcast_no),
        cmocka_unit_test(test_autocast_encoder_block),
        cmocka_unit_test(test_gemma3_norms_keep_fp32),
        cmocka_unit_test(test_explicit_dims_take_family_defaults),
        cmocka_unit_test(test_model_states_fp32_adamw),
        cmocka_unit_test(test_rmsnorm_keeps_the_fp32_copy),
        cmocka_unit_test(test_trainer_loss_buffers),
        cmocka_unit_test(test_llmc_layout),
        cmocka_unit_test(test_eager_scores_only_in_eager),
        cmocka_unit_test(test_checkpointing_and_lora),
        cmocka_unit_test(test_checkpoint_policies),
        cmocka_unit_test(test_fit_combo),
        cmocka_unit_test(test_paged_optimizer),
        cmocka_unit_test(test_kv_cache),
        cmocka_unit_test(test_rolling_cache),
        cmocka_unit_test(test_gen_mechanisms),
        cmocka_unit_test(test_absurd_sizes),
        cmocka_unit_test(test_quant_needs_lora),
        cmocka_unit_test(test_litgpt_qlora_mechanisms),
        cmocka_unit_test(test_sdpa_math),
        cmocka_unit_test(test_litgpt_carry),
        cmocka_unit_test(test_sharding_divides_states),
        cmocka_unit_test(test_fsdp_mixed_units),
        cmocka_unit_test(test_longest_first),
        cmocka_unit_test(test_litgpt_mixed_inference),
        cmocka_unit_test(test_autograd_infer),
        cmocka_unit_test(test_torchao_nf4_init),
        cmocka_unit_test(test_deepspeed_no_autocast),
        cmocka_unit_test(test_max_batch_and_levers),
        cmocka_unit_test(test_names_and_cards),
        cmocka_unit_test(test_every_card_resolves_from_its_device_name),
        cmocka_unit_test(test_kind_and_checked),
        cmocka_unit_test(test_offload),
        cmocka_unit_test(test_torchtitan_fsdp2),
        cmocka_unit_test(test_titan_op_moments),
        cmocka_unit_test(test_moe_saved),
        cmocka_unit_test(test_fsdp1_autocast_casts),
        cmocka_unit_test(test_ckpt_later_grads),
        cmocka_unit_test(test_ckpt_presents),
        cmocka_unit_test(test_titan_full_moments),
        cmocka_unit_test(test_titan_op_compile),
        cmocka_unit_test(test_neox_qkv_view),
        cmocka_unit_test(test_layer_buffers),
        cmocka_unit_test(test_neox_presents),
        cmocka_unit_test(test_keep_outputs),
        cmocka_unit_test(test_loop_holds),
        cmocka_unit_test(test_autocast16),
        cmocka_unit_test(test_gelu_new_keeps_four),
        cmocka_unit_test(test_compile_partitioner_saved_set),
        cmocka_unit_test(test_compile_plain_mlp),
        cmocka_unit_test(test_first_decode_step_holds_prefill),
        cmocka_unit_test(test_generate_without_cache),
        cmocka_unit_test(test_accelerate_fp32_outputs),
        cmocka_unit_test(test_tied_embedding_sum_out_of_place),
        cmocka_unit_test(test_cublas_workspaces),
        cmocka_unit_test(test_nccl_buffers),
        cmocka_unit_test(test_kept_grads_accumulate_beside),
        cmocka_unit_test(test_peft_fp32_adapters),
        cmocka_unit_test(test_hf_loss_by_version),
        cmocka_unit_test(test_context_by_version),
        cmocka_unit_test(test_rope_caches_by_version),
        cmocka_unit_test(test_var_len),
        cmocka_unit_test(test_gen_loops),
        cmocka_unit_test(test_llama_eager_softmax_copy),
        cmocka_unit_test(test_gpt2_presents_keep_c_attn),
        cmocka_unit_test(test_shared_experts_refusal_names_families),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
