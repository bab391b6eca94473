/* est: the memory budget model (see est.h and docs/estimate.md).
 * Parameter counts are exact integer arithmetic, checked for overflow; the
 * memory terms are sums of per-token byte coefficients, computed in long
 * double and range-checked before they become int64_t byte counts. */
#include "lib/est.h"
#include "lib/units.h"
#include "lib/allocsim.h"

#include <stdlib.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define MIB (1024.0L * 1024.0L)
#define EST_MAX_BYTES 4.0e18L /* beyond this a figure is nonsense, not an estimate */
#define EST_DEFAULT_CONTEXT ((int64_t)500 * 1024 * 1024)

/* How each family builds its blocks. */
struct fam {
    const char *name;
    int gated;          /* MLP: 1 gated (gate, up, down), 0 plain (fc1, fc2) */
    int qkv_bias, o_bias, mlp_bias;
    int rms;            /* RMSNorm (one vector) vs LayerNorm (weight + bias) */
    int norms_per_layer;
    int learned_pos, pos_offset;
    int final_norm;
    int encoder;        /* BERT-style: token types, embedding LN, pooler */
    int hidden_dropout, attn_dropout;
    int attn_p0;        /* the config's attention-probability dropout is 0.0, so train mode
                         * (--dropout) has none: OPT (OPTConfig attention_dropout=0.0,
                         * transformers:src/transformers/models/opt/configuration_opt.py
                         * @014674d3; only `dropout`, 0.1, is on) */
    int softmax_fp32;   /* eager softmax kept in fp32 under 16-bit weights */
    int eager_extra;    /* OPT clamps scores with torch.max: one more saved copy */
    int head_bias;      /* phi's lm_head has a bias */
    int ffn_mult;       /* default ffn = mult * hidden for plain MLPs */
    int window_half;    /* gemma2: sliding window on every other layer */
    int tied;           /* HF config class default for tie_word_embeddings */
    int positions;      /* HF default max_position_embeddings (learned tables; GPT-NeoX's
                         * GPTNeoXConfig default sizes its buffers) */
    int kv_views;       /* HF GPT-2: the prompt's presents are views of c_attn's whole output
                         * (q's third included) until a decode step's torch.cat replaces them */
    int qkv_view;       /* HF GPT-NeoX: v is a view of the fused qkv output, q and k
                         * new tensors from the rotary cat (fp32: fp32 cos/sin) */
    int shared_ln_in;   /* parallel residual: both LayerNorms read the same input */
    int layer_bufs;     /* HF registers buffers in every attention module (persistent=False,
                         * on the GPU beside the weights): 1 a bool N x N causal mask `bias`
                         * (N = max positions); 2 that and the rotary cos/sin caches, fp32
                         * N x rotary dims (GPT-NeoX) */
    int rope_div;       /* rotary dims = head_dim / rope_div (GPT-NeoX rotary_pct 0.25) */
    int act_saves;      /* training, HF modeling code: ffn-sized tensors the plain MLP's
                         * activation keeps for backward; 0 = 1, a fused op (F.gelu, relu)
                         * keeping its input. 4: NewGELUActivation ("gelu_new": GPT-2,
                         * phi-1/2), 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 *
                         * x^3))) in Python ops: pow keeps x, tanh its output, the last
                         * mul both factors (0.5 x and 1 + tanh), transformers:src/
                         * transformers/activations.py (NewGELUActivation); counted with
                         * saved_tensors_hooks by bench/estimate-oracle's GPT-2 block */
    int act_out;        /* the plain MLP's activation is ReLU (OPTConfig activation_function
                         * "relu", transformers:src/transformers/models/opt/
                         * configuration_opt.py@014674d3): relu's backward reads its
                         * result (threshold_backward(grad, result, 0), PyTorch's
                         * tools/autograd/derivatives.yaml), the same tensor fc2 keeps as
                         * its input, so the MLP keeps one ffn-sized tensor, not the
                         * activation's input and fc2's input (torch 1.13: an OPT block
                         * saves 8,200 B/token, bench/estimate-oracle's OPT block) */
    int qk_norm;        /* 1: an RMSNorm over each head of q and of k (head_dim weights each),
                         * before rotary: Qwen3 (qk_norm_bytes); 2: one RMSNorm over the
                         * whole q projection and one over k's (qd and kvd weights): OLMo 2 */
    int type_rows;      /* encoders: token-type embedding rows (BERT 2, RoBERTa 1, DistilBERT 0) */
    int no_pooler;      /* encoders: no pooler in the bare model (DistilBERT); its sequence
                         * classifier has its own pre_classifier (h x h + h) instead */
    int hidden_drops;   /* hidden dropouts per block, each keeping a bool mask; 0 = 2 (after
                         * attention and after the MLP); DistilBERT 1 (after the MLP only) */
    int norm_fp32_out;  /* Gemma 3's RMSNorm: (x.float() normalized) * (1 + w.float()), cast
                         * after, so the normalized tensor a trained weight needs is fp32 */
    int window_every;   /* sliding window on all but every N-th layer (Gemma 3: 5 of 6) */
    int sinks;          /* a learned sink logit per head and layer (gpt-oss: self_attn.sinks) */
    int router_bias;    /* the MoE router Linear has a bias (gpt-oss: GptOssTopKRouter.bias) */
    int shared_gate;    /* a Linear(hidden, 1) without bias whose sigmoid scales the shared
                         * expert's output (Qwen2-MoE: shared_expert_gate) */
    int no_sdpa;        /* transformers has no SDPA attention for it (est_family_sdpa) */
    int fused_qkv;      /* attention's q,k,v are one fused linear, which PEFT targets as a
                         * whole (one adapter): GPT-2 c_attn, GPT-NeoX, Falcon and BLOOM
                         * query_key_value, Phi-3 qkv_proj, Qwen c_attn, GPTBigCode c_attn */
    int fused_gate_up;  /* a gated MLP's gate and up are one fused linear (Phi-3 gate_up_proj) */
    int rope;           /* rotary position embeddings (cos/sin caches, rotated q and k) */
    int upcasts_logits; /* the HF CausalLM head returned `logits.float()` for every position
                         * (the Llama-family heads, transformers 4.37-4.44); GPT-2, GPT-NeoX,
                         * OPT, Falcon, BLOOM do not upcast in forward */
    int llama_eager;    /* eager attention is HF's Llama one (huggingface/transformers:src/
                         * transformers/models/llama/modeling_llama.py@002272831fba
                         * LlamaAttention.forward and its "Copied from" Mistral, Mixtral,
                         * Qwen2, Gemma, Qwen3, Phi-3 ones): scores in the model's dtype,
                         * softmax(dtype=float32).to(dtype) (eager_score_bytes) */
    struct {            /* transformers runs every expert on every token at inference
                         * (hidden_states.repeat(num_experts)), not the routed ones only:
                         * per token and expert, the elements alive at two moments of the
                         * fused experts' forward, as multiples of hidden and ffn; the
                         * prefill counts the larger. All zero: routed experts only. */
        unsigned char h, f;
    } dense_at[2];
    const char *config_keys; /* shared experts and dense first layers, read from a config.json only:
                              * the keys --arch alone cannot give (est_model_finish refuses) */
    const char *limits; /* what the estimate leaves out for this family, said beside its
                         * accuracy line (est_family_limits; docs/estimate.md) */
};

static const struct fam fams[EST_FAM__COUNT] = {
    [EST_FAM_GPT2] = {.name = "gpt2",
                      .fused_qkv = 1,
                      .kv_views = 1,
                      .qkv_bias = 1,
                      .o_bias = 1,
                      .mlp_bias = 1,
                      .norms_per_layer = 2,
                      .learned_pos = 1,
                      .final_norm = 1,
                      .hidden_dropout = 1,
                      .attn_dropout = 1,
                      .ffn_mult = 4,
                      .tied = 1,
                      .positions = 1024,
                      .layer_bufs = 1,
                      .act_saves = 4},
    [EST_FAM_NEOX] = {.name = "gpt_neox",
                      .fused_qkv = 1,
                      .rope = 1,
                      .qkv_bias = 1,
                      .o_bias = 1,
                      .mlp_bias = 1,
                      .norms_per_layer = 2,
                      .final_norm = 1,
                      .softmax_fp32 = 1,
                      .ffn_mult = 4,
                      .qkv_view = 1,
                      .shared_ln_in = 1,
                      .positions = 2048,
                      .layer_bufs = 2,
                      .rope_div = 4},
    [EST_FAM_OPT] = {.name = "opt",
                     .qkv_bias = 1,
                     .o_bias = 1,
                     .mlp_bias = 1,
                     .norms_per_layer = 2,
                     .learned_pos = 1,
                     .pos_offset = 2,
                     .final_norm = 1,
                     .hidden_dropout = 1,
                     .attn_p0 = 1,
                     .act_out = 1,
                     .softmax_fp32 = 1,
                     .eager_extra = 1,
                     .ffn_mult = 4,
                     .tied = 1,
                     .positions = 2048},
    [EST_FAM_LLAMA] = {.name = "llama",
                       .rope = 1,
                       .upcasts_logits = 1,
                       .llama_eager = 1,
                       .gated = 1,
                       .rms = 1,
                       .norms_per_layer = 2,
                       .final_norm = 1,
                       .softmax_fp32 = 1,
                       .ffn_mult = 4},
    [EST_FAM_MISTRAL] = {.name = "mistral",
                         .rope = 1,
                         .upcasts_logits = 1,
                         .llama_eager = 1,
                         .gated = 1,
                         .rms = 1,
                         .norms_per_layer = 2,
                         .final_norm = 1,
                         .softmax_fp32 = 1,
                         .ffn_mult = 4},
    [EST_FAM_QWEN2] = {.name = "qwen2",
                       .rope = 1,
                       .upcasts_logits = 1,
                       .llama_eager = 1,
                       .gated = 1,
                       .qkv_bias = 1,
                       .rms = 1,
                       .norms_per_layer = 2,
                       .final_norm = 1,
                       .softmax_fp32 = 1,
                       .ffn_mult = 4},
    [EST_FAM_GEMMA] = {.name = "gemma",
                       .rope = 1,
                       .upcasts_logits = 1,
                       .llama_eager = 1,
                       .gated = 1,
                       .rms = 1,
                       .norms_per_layer = 2,
                       .final_norm = 1,
                       .softmax_fp32 = 1,
                       .ffn_mult = 8,
                       .tied = 1},
    [EST_FAM_GEMMA2] = {.name = "gemma2",
                        .rope = 1,
                        .upcasts_logits = 1,
                        .gated = 1,
                        .rms = 1,
                        .norms_per_layer = 4,
                        .final_norm = 1,
                        .softmax_fp32 = 1,
                        .ffn_mult = 8,
                        .window_half = 1,
                        .tied = 1},
    [EST_FAM_MIXTRAL] = {.name = "mixtral",
                         .rope = 1,
                         .upcasts_logits = 1,
                         .llama_eager = 1,
                         .gated = 1,
                         .rms = 1,
                         .norms_per_layer = 2,
                         .final_norm = 1,
                         .softmax_fp32 = 1,
                         .ffn_mult = 4},
    [EST_FAM_PHI] = {.name = "phi",
                     .rope = 1,
                     .upcasts_logits = 1,
                     .qkv_bias = 1,
                     .o_bias = 1,
                     .mlp_bias = 1,
                     .norms_per_layer = 1,
                     .final_norm = 1,
                     .hidden_dropout = 1,
                     .softmax_fp32 = 1,
                     .head_bias = 1,
                     .ffn_mult = 4,
                     .act_saves = 4},
    [EST_FAM_PHI3] = {.name = "phi3",
                      .fused_gate_up = 1,
                      .fused_qkv = 1,
                      .rope = 1,
                      .upcasts_logits = 1,
                      .llama_eager = 1,
                      .gated = 1,
                      .rms = 1,
                      .norms_per_layer = 2,
                      .final_norm = 1,
                      .softmax_fp32 = 1,
                      .ffn_mult = 4},
    [EST_FAM_FALCON] = {.name = "falcon",
                        .fused_qkv = 1,
                        .rope = 1,
                        .norms_per_layer = 1,
                        .final_norm = 1,
                        .softmax_fp32 = 1,
                        .ffn_mult = 4,
                        .tied = 1},
    [EST_FAM_BLOOM] = {.name = "bloom",
                       .fused_qkv = 1,
                       .qkv_bias = 1,
                       .o_bias = 1,
                       .mlp_bias = 1,
                       .norms_per_layer = 2,
                       .final_norm = 1,
                       .softmax_fp32 = 1,
                       .ffn_mult = 4,
                       .tied = 1},
    [EST_FAM_BERT] = {.name = "bert",
                      .qkv_bias = 1,
                      .o_bias = 1,
                      .mlp_bias = 1,
                      .norms_per_layer = 2,
                      .learned_pos = 1,
                      .encoder = 1,
                      .hidden_dropout = 1,
                      .attn_dropout = 1,
                      .ffn_mult = 4,
                      .tied = 1,
                      .positions = 512,
                      .type_rows = 2},
    [EST_FAM_ROBERTA] = {.name = "roberta",
                         .qkv_bias = 1,
                         .o_bias = 1,
                         .mlp_bias = 1,
                         .norms_per_layer = 2,
                         .learned_pos = 1,
                         .pos_offset = 2,
                         .encoder = 1,
                         .hidden_dropout = 1,
                         .attn_dropout = 1,
                         .ffn_mult = 4,
                         .tied = 1,
                         .positions = 512,
                         .type_rows = 1},
    /* Qwen-1 (model_type "qwen", remote code modeling_qwen.py,
     * undefdev/Qwen-7B-Chat@04df5dd5): one fused c_attn with bias, c_proj
     * without; SwiGLU as w1, w2 (ffn_hidden_size / 2 each) and c_proj;
     * RMSNorm; rotary; untied lm_head whose logits stay 16-bit (no
     * .float(): shift_logits = lm_logits[..., :-1, :].contiguous()). */
    [EST_FAM_QWEN] = {.name = "qwen",
                      .fused_qkv = 1,
                      .rope = 1,
                      .gated = 1,
                      .qkv_bias = 1,
                      .rms = 1,
                      .norms_per_layer = 2,
                      .final_norm = 1,
                      .softmax_fp32 = 1,
                      .ffn_mult = 4},
    [EST_FAM_T5] = {.name = "t5",
                    .rms = 1,
                    .norms_per_layer = 2,
                    .final_norm = 1,
                    .hidden_dropout = 1,
                    .attn_dropout = 1,
                    .ffn_mult = 4,
                    .tied = 1},
    /* Qwen3 (model_type "qwen3", huggingface/transformers:src/transformers/
     * models/qwen3/modeling_qwen3.py@000c33fd): Qwen2's layout without the
     * q/k/v biases (attention_bias false), plus q_norm and k_norm, RMSNorms of
     * head_dim over every head of q and k before rotary; head_dim (128) is its
     * own config key, not hidden / heads (Qwen3-0.6B: 16 x 128 = 2048 > 1024);
     * the small models tie the head. Logits are returned in the model dtype
     * (the loss function upcasts), so not in upcasts_logits. */
    [EST_FAM_QWEN3] = {.name = "qwen3",
                       .rope = 1,
                       .llama_eager = 1,
                       .gated = 1,
                       .rms = 1,
                       .norms_per_layer = 2,
                       .final_norm = 1,
                       .softmax_fp32 = 1,
                       .ffn_mult = 4,
                       .qk_norm = 1},
    /* DistilBERT (model_type "distilbert", huggingface/transformers:src/
     * transformers/models/distilbert/modeling_distilbert.py): BERT's post-LN
     * block (q_lin, k_lin, v_lin, out_lin, sa_layer_norm, lin1, lin2,
     * output_layer_norm, all with biases) without token-type embeddings or a
     * pooler, one hidden dropout per block (after lin2; the attention output
     * goes to sa_layer_norm undropped), attention dropout on the probabilities;
     * MLM head vocab_transform, vocab_layer_norm, vocab_projector (tied, its
     * own bias): BERT's sizes. Positions: a 512-row table, learned or
     * sinusoidal (filled, not trained: the same bytes). */
    [EST_FAM_DISTILBERT] = {.name = "distilbert",
                            .qkv_bias = 1,
                            .o_bias = 1,
                            .mlp_bias = 1,
                            .norms_per_layer = 2,
                            .learned_pos = 1,
                            .encoder = 1,
                            .hidden_dropout = 1,
                            .attn_dropout = 1,
                            .ffn_mult = 4,
                            .tied = 1,
                            .positions = 512,
                            .no_pooler = 1,
                            .hidden_drops = 1},
    /* ELECTRA (model_type "electra", huggingface/transformers:src/
     * transformers/models/electra/modeling_electra.py@014873b4): BERT's
     * embeddings (token types included) and blocks ("Copied from ...bert"),
     * no pooler; ElectraClassificationHead is dense h x h + out_proj, the
     * generator's MLM head BERT's sizes. Only embedding_size == hidden_size
     * (base, large): the small models' embeddings_project is not modelled
     * and hfconfig refuses them. */
    [EST_FAM_ELECTRA] = {.name = "electra",
                         .qkv_bias = 1,
                         .o_bias = 1,
                         .mlp_bias = 1,
                         .norms_per_layer = 2,
                         .learned_pos = 1,
                         .encoder = 1,
                         .hidden_dropout = 1,
                         .attn_dropout = 1,
                         .ffn_mult = 4,
                         .tied = 1,
                         .positions = 512,
                         .type_rows = 2,
                         .no_pooler = 1},
    /* Gemma 3 text (model_type "gemma3_text", huggingface/transformers:src/
     * transformers/models/gemma3/modeling_gemma3.py@0018aa64): Gemma 2's four
     * norms per block and GeGLU, q_norm/k_norm over head_dim (256), a
     * sliding window on 5 layers of 6, tied head, logits in the model dtype.
     * Gemma3RMSNorm keeps x.float(), the rsqrt and, for the weight's
     * gradient, the fp32 normalized tensor (it multiplies by 1 + w in fp32
     * and casts after: norm_fp32_out). */
    [EST_FAM_GEMMA3] = {.name = "gemma3",
                        .rope = 1,
                        .gated = 1,
                        .rms = 1,
                        .norms_per_layer = 4,
                        .final_norm = 1,
                        .softmax_fp32 = 1,
                        .ffn_mult = 8,
                        .tied = 1,
                        .qk_norm = 1,
                        .norm_fp32_out = 1,
                        .window_every = 6},
    /* Cohere (model_type "cohere": Command-R, Aya 23; HF modeling_cohere.py,
     * CohereDecoderLayer): one input_layernorm per block (CohereLayerNorm, a
     * weight without bias) whose output feeds attention and the SwiGLU MLP in
     * parallel (residual + attention + MLP, Phi's shape), no biases, a final
     * norm, the head tied (CohereConfig's default) and scaled by logit_scale.
     * Command R+'s use_qk_norm is refused by hfconfig. */
    [EST_FAM_COHERE] = {.name = "cohere",
                        .rope = 1,
                        .gated = 1,
                        .rms = 1,
                        .norms_per_layer = 1,
                        .final_norm = 1,
                        .softmax_fp32 = 1,
                        .ffn_mult = 4,
                        .tied = 1},
    /* StarCoder2 (model_type "starcoder2", HF modeling_starcoder2.py):
     * q, k, v, o (grouped-query) and the plain MLP c_fc, c_proj all with
     * biases (use_bias), two LayerNorms with bias per block and a final one,
     * rotary, a sliding window on every layer, the head tied
     * (Starcoder2Config's default). */
    [EST_FAM_STARCODER2] = {.name = "starcoder2",
                            .rope = 1,
                            .qkv_bias = 1,
                            .o_bias = 1,
                            .mlp_bias = 1,
                            .norms_per_layer = 2,
                            .final_norm = 1,
                            .softmax_fp32 = 1,
                            .ffn_mult = 4,
                            .tied = 1},
    /* OLMo 2 (model_type "olmo2", HF modeling_olmo2.py) and OLMoE ("olmoe",
     * modeling_olmoe.py): Llama's linears and SwiGLU (OLMoE: experts behind
     * a router without bias), q_norm and k_norm RMSNorms over the whole q and
     * k projections (heads x head_dim and kv_heads x head_dim weights), two
     * norms per block (OLMo 2 after attention and after the MLP, OLMoE
     * before), untied head. */
    [EST_FAM_OLMO2] = {.name = "olmo2",
                       .rope = 1,
                       .gated = 1,
                       .rms = 1,
                       .norms_per_layer = 2,
                       .final_norm = 1,
                       .softmax_fp32 = 1,
                       .ffn_mult = 4,
                       .qk_norm = 2},
    /* DeepSeek-V3 / Kimi K2 (model_type deepseek_v3, kimi_k2: DeepseekV3ForCausalLM,
     * huggingface/transformers:src/transformers/models/deepseek_v3/
     * modeling_deepseek_v3.py@00b676f8): multi-head latent attention
     * (q_a_proj, q_a_layernorm, q_b_proj or q_proj; kv_a_proj_with_mqa,
     * kv_a_layernorm, kv_b_proj; o_proj: mla_attn_params), SwiGLU MLPs,
     * two RMSNorms per block, untied head. Only a config.json gives the
     * latent dimensions (est_model_finish refuses --arch deepseek_v3). */
    [EST_FAM_DEEPSEEK3] = {.name = "deepseek_v3",
                           .rope = 1,
                           .config_keys = "kv_lora_rank, qk_rope_head_dim, v_head_dim, n_routed_experts",
                           .gated = 1,
                           .rms = 1,
                           .norms_per_layer = 2,
                           .final_norm = 1,
                           .softmax_fp32 = 1,
                           .ffn_mult = 4,
                           .limits = "the checkpoint's multi-token-prediction layer is not counted (transformers "
                                     "does not load it); the KV cache is transformers' generate(), full keys and "
                                     "values, while vLLM caches the latent (--explain gives both); the latent "
                                     "attention's and shared experts' activations are not checked against a "
                                     "measured run"},
    /* gpt-oss (model_type gpt_oss, GptOssForCausalLM, huggingface/transformers:
     * src/transformers/models/gpt_oss/modeling_gpt_oss.py@00d4b3d2): q, k, v, o
     * with biases (attention_bias), a learned sink per head (self_attn.sinks),
     * GptOssTopKRouter (weight experts x hidden and a bias of experts),
     * GptOssExperts as fused tensors (gate_up_proj experts x hidden x 2 ffn with
     * a bias of 2 ffn, down_proj experts x ffn x hidden with a bias of hidden:
     * a gated MLP with biases per expert), two RMSNorms per block, untied head,
     * a sliding window on every other layer from the first (layer_types,
     * checked by hfconfig). GptOssExperts.forward outside self.training (some
     * versions: on a GPU outside training, the loop also on the CPU:
     * modeling_gpt_oss.py@6edf5b31) runs every expert on every token:
     * hidden_states.repeat(num_experts) viewed experts x tokens x hidden, gate_up
     * = bmm + bias (2 ffn), gate and up clamped out of place (ffn each), glu
     * (ffn), (up + 1) * glu (ffn, its (up + 1) freed before the bmm), then the
     * down bmm's output (hidden): 2 hidden + 6 ffn per token and expert; the
     * bias add and the routing-weight product each make a new hidden-sized
     * tensor while the previous one lives, the product input gone: 3 hidden +
     * 5 ffn (dense_at). The training branch loops over the hit experts. */
    [EST_FAM_GPTOSS] = {.name = "gpt_oss",
                        .rope = 1,
                        .gated = 1,
                        .qkv_bias = 1,
                        .o_bias = 1,
                        .mlp_bias = 1,
                        .rms = 1,
                        .norms_per_layer = 2,
                        .final_norm = 1,
                        .ffn_mult = 4,
                        .window_half = 1,
                        .sinks = 1,
                        .router_bias = 1,
                        .dense_at = {{2, 6}, {3, 5}},
                        /* GptOssPreTrainedModel: _supports_sdpa = False
                         * (modeling_gpt_oss.py@00d4b3d2): eager by default */
                        .no_sdpa = 1,
                        .limits = "gpt-oss under transformers' own code reads low at long prompts: the sinks' "
                                  "copy of the eager attention's scores is not counted; every expert runs on every token at inference (transformers 4.x's "
                                  "GptOssExperts outside training): counted at prefill; MXFP4 experts are not modelled (--quant none is "
                                  "the bf16 load); the nf4/int8 levers overstate, the fused experts are no Linear "
                                  "layers"},
    /* Qwen1.5-MoE / Qwen2-MoE (model_type qwen2_moe, Qwen2MoeForCausalLM,
     * huggingface/transformers:src/transformers/models/qwen2_moe/
     * modeling_qwen2_moe.py@00a3f938): Qwen2's attention (q, k, v with bias
     * under qkv_bias, o without), Qwen2MoeSparseMoeBlock: a router without
     * bias, num_experts gated MLPs of moe_intermediate_size, one shared
     * gated MLP of shared_expert_intermediate_size whose output a
     * sigmoid(shared_expert_gate(x)) scales, two RMSNorms per block, untied
     * head. hfconfig refuses dense blocks (mlp_only_layers,
     * decoder_sparse_step > 1). */
    [EST_FAM_QWEN2MOE] = {.name = "qwen2_moe",
                          .rope = 1,
                          .upcasts_logits = 1,
                          .llama_eager = 1,
                          .config_keys = "num_experts, moe_intermediate_size, shared_expert_intermediate_size",
                          .gated = 1,
                          .qkv_bias = 1,
                          .rms = 1,
                          .norms_per_layer = 2,
                          .final_norm = 1,
                          .softmax_fp32 = 1,
                          .ffn_mult = 4,
                          .shared_gate = 1,
                          .limits = "the shared expert's and its gate's activations are counted from the module's "
                                    "shapes, not checked against a measured run"},
    /* DeepSeekMoE (model_type deepseek: deepseek-moe-16b, remote code
     * modeling_deepseek.py; the same modules as vllm-project/vllm:vllm/
     * model_executor/models/deepseek.py@01dbb081): Llama's attention (q, k,
     * v, o without bias), dense gated MLPs of intermediate_size on the first
     * first_k_dense_replace layers, then DeepseekMoE: a router weight
     * (n_routed_experts x hidden, no bias), n_routed_experts gated MLPs of
     * moe_intermediate_size and one shared MLP of moe_intermediate_size x
     * n_shared_experts; two RMSNorms per block, untied head. hfconfig
     * refuses moe_layer_freq > 1. */
    [EST_FAM_DEEPSEEK] = {.name = "deepseek",
                          .rope = 1,
                          .upcasts_logits = 1,
                          .llama_eager = 1,
                          .config_keys = "n_routed_experts, n_shared_experts, moe_intermediate_size, "
                                         "first_k_dense_replace",
                          .gated = 1,
                          .rms = 1,
                          .norms_per_layer = 2,
                          .final_norm = 1,
                          .softmax_fp32 = 1,
                          .ffn_mult = 4,
                          .limits = "the shared experts' and dense first layers' activations are counted from the "
                                    "modules' shapes, not checked against a measured run"},
    /* GPTBigCode (model_type gpt_bigcode: SantaCoder, StarCoder, huggingface/
     * transformers:src/transformers/models/gpt_bigcode/modeling_gpt_bigcode.py
     * @00574544): GPT-2's block (LayerNorms with bias, c_attn and c_proj with
     * bias, c_fc/c_proj MLP with bias, learned positions, tied head) with
     * multi-query attention: c_attn is hidden + 2 x head_dim wide under
     * multi_query (hfconfig sets one K/V head), the cache one fused key_value
     * view per layer; the scores' softmax upcast to fp32
     * (attention_softmax_in_fp32). */
    [EST_FAM_BIGCODE] = {.name = "gpt_bigcode",
                         .fused_qkv = 1,
                         .kv_views = 1,
                         .qkv_bias = 1,
                         .o_bias = 1,
                         .mlp_bias = 1,
                         .norms_per_layer = 2,
                         .learned_pos = 1,
                         .final_norm = 1,
                         .hidden_dropout = 1,
                         .attn_dropout = 1,
                         .softmax_fp32 = 1,
                         .ffn_mult = 4,
                         .tied = 1,
                         .positions = 1024,
                         .limits = "the activations are counted by GPT-2's rules, not checked against a measured "
                                   "gpt_bigcode run"},
    /* StableLM (model_type stablelm: StableLM-3B-4E1T, huggingface/
     * transformers:src/transformers/models/stablelm/modeling_stablelm.py
     * @00dcc6dd): Llama's q, k, v, o (no biases under use_qkv_bias false) and
     * SwiGLU MLP, LayerNorms with bias (input_layernorm,
     * post_attention_layernorm, the final norm), rotary on the first
     * partial_rotary_factor (0.25) of each head, untied head. hfconfig refuses
     * use_qkv_bias, qk_layernorm and use_parallel_residual. */
    [EST_FAM_STABLELM] = {.name = "stablelm",
                          .rope = 1,
                          .llama_eager = 1,
                          .gated = 1,
                          .norms_per_layer = 2,
                          .final_norm = 1,
                          .softmax_fp32 = 1,
                          .ffn_mult = 4,
                          .rope_div = 4},
    /* Llama 4 text (model_type llama4_text: Llama4ForCausalLM, huggingface/
     * transformers:src/transformers/models/llama4/modeling_llama4.py
     * @000c33fd): q, k, v, o without bias (attention_bias false), the qk
     * L2Norm without weights, two RMSNorms per block, untied head. The layers
     * in moe_layers (every interleave_moe_layer_step-th) hold Llama4TextMoe:
     * a router Linear(hidden, experts) without bias, Llama4TextExperts as
     * fused tensors (gate_up_proj experts x hidden x 2 ffn, down_proj experts
     * x ffn x hidden: a gated MLP per expert of intermediate_size) and a
     * shared gated MLP of intermediate_size; the others a gated MLP of
     * intermediate_size_mlp (dense_layers, dense_ffn). Chunked attention on
     * the layers that use rope (3 of 4: no_rope_layers), full attention on
     * every 4th: the cache of a chunked layer holds attention_chunk_size
     * positions (sliding_window), as a window on all but every 4th layer
     * (DynamicCache(config) and StaticCache give a chunked_attention layer a
     * sliding-window layer of attention_chunk_size: huggingface/transformers:
     * src/transformers/cache_utils.py@004999d9). At inference Llama4TextMoe
 * feeds every token to every expert (hidden_states.repeat(num_experts)
 * scaled by the router scores: h per token and expert, alive through
 * Llama4TextExperts.forward); per token and expert: gate_up = bmm (2 ffn),
 * act_fn(gate) (ffn), up * act (ffn): h + 4 ffn; act_fn's result is freed
 * once the product exists, so at the down bmm the product (ffn), gate_up
 * (2 ffn) and the bmm's output (h) beside the input: 2 h + 3 ffn
 * (dense_at). Which is larger depends on ffn against h; torch 1.13 CPU, the
 * ops restated, peak RSS per token and expert: 895.8 at h 256, ffn 128
 * (2 h + 3 ffn = 896), 1152.6 at h 128, ffn 256 (h + 4 ffn = 1152):
 * bench/estimate-oracle-llama4moe. */
    [EST_FAM_LLAMA4] = {.name = "llama4_text",
                        .rope = 1,
                        .config_keys = "num_local_experts, intermediate_size, intermediate_size_mlp, "
                                       "interleave_moe_layer_step, attention_chunk_size",
                        .gated = 1,
                        .rms = 1,
                        .norms_per_layer = 2,
                        .final_norm = 1,
                        .ffn_mult = 4,
                        .window_every = 4,
                        .dense_at = {{1, 4}, {2, 3}},
                        .limits = "transformers' Llama4TextMoe runs every expert on every token (hidden_states."
                                  "repeat(num_experts)): counted at inference, not in training, whose saved "
                                  "activations are counted for the routed experts only; the nf4/int8 levers "
                                  "overstate, the fused experts are no Linear layers"},
    /* GPT-J (model_type gptj, GPTJForCausalLM, huggingface/transformers:
     * src/transformers/models/gptj/modeling_gptj.py@00b676f8): q, k, v and
     * out_proj without bias, one ln_1 (LayerNorm with bias) feeding
     * attention and the MLP in parallel (residual + attention + MLP), fc_in
     * and fc_out with biases and gelu_new (NewGELUActivation's Python ops),
     * a final ln_f, an untied lm_head with a bias; rotary on the first
     * rotary_dim (64 of 256) of each head. GPTJ_ATTENTION_CLASSES has eager
     * and flash_attention_2 only: no SDPA (no_sdpa), and eager attention
     * upcasts q and k, so its scores are fp32. */
    [EST_FAM_GPTJ] = {.name = "gptj",
                      .rope = 1,
                      .mlp_bias = 1,
                      .norms_per_layer = 1,
                      .final_norm = 1,
                      .head_bias = 1,
                      .hidden_dropout = 1,
                      .attn_dropout = 1,
                      .softmax_fp32 = 1,
                      .ffn_mult = 4,
                      .act_saves = 4,
                      .rope_div = 4,
                      .no_sdpa = 1,
                      .limits = "GPT-J's per-layer fp32 sin/cos table (embed_positions, max positions x rotary_dim, "
                                "a plain tensor moved to the GPU at the first forward) is not counted; its "
                                "activations are counted by the GPT-2 and GPT-NeoX rules, not checked against a "
                                "measured gptj run"},
};

/* ---- names ---------------------------------------------------------- */

static int lookup(const char *const *names, int n, const char *s)
{
    for (int i = 0; s && i < n; i++)
        if (names[i] && strcmp(names[i], s) == 0) return i;
    return -1;
}

static const char *const precision_names[] = {"fp32", "fp16", "bf16", "fp16-mixed", "bf16-mixed", "fp16-autocast",
                                               "bf16-autocast"};
static const char *const optimizer_names[] = {"adamw", "adamw-8bit", "sgd", "sgd-momentum",
                                              "adafactor", "lion", "none", "paged-adamw"};
static const char *const ckpt_names[] = {"none", "attn-core", "block", "every", "op"};
/* What each policy keeps, for --explain. */
static const char *const ckpt_keeps[] = {
    "everything autograd saves",
    "all but the eager score matrix (Megatron selective)",
    "each block's input, one block recomputed in backward (HF, litgpt, torchtitan full)",
    "every N-th block's input only, the others everything (torchtitan selective N)",
    "block input + fused attention + every other matmul output (torchtitan selective op)",
};
static const char *const attn_names[] = {"eager", "sdpa", "flash", "sdpa-math"};
static const char *const quant_names[] = {"none", "int8", "nf4", "nf4-dq", "gptq", "awq", "fp8"};
static const char *const fp8_scale_names[] = {"block", "channel", "tensor"};
/* ... in words: a channel scale is one per output channel, a row of the
 * [out, in] weight (compressed-tensors' CHANNEL strategy gives weight_scale
 * the shape (out_features, 1): neuralmagic/compressed-tensors:
 * src/compressed_tensors/quantization/lifecycle/initialize.py@9ead292f) */
static const char *const fp8_scale_words[] = {"block", "output channel", "tensor"};
static const char *const qkernel_names[] = {"auto", "gemm", "exllama", "exllama-v2"};
static const char *const shard_names[] = {"none", "zero1", "zero2", "zero3", "fsdp", "zero0", "gemini"};
static const char *const offload_names[] = {"none", "optimizer", "params"};
static const char *const mode_names[] = {"train", "infer", "load"};
static const char *const loss_names[] = {"ce", "chunked", "sum"};
static const char *const head_names[] = {"lm", "cls", "none"};
static const char *const trainer_names[] = {"hf", "torchtune", "litgpt", "llm.c", "torchtitan"};
static const char *const cache_names[] = {"dynamic", "legacy", "static", "none", "rolling"};
#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

int est_family_parse(const char *s)
{
    for (int i = 0; s && i < EST_FAM__COUNT; i++)
        if (strcmp(fams[i].name, s) == 0) return i;
    return -1;
}
const char *est_family_name(enum est_family f) { return f < EST_FAM__COUNT ? fams[f].name : "?"; }
void est_family_arch_names(char *buf, size_t n)
{
    size_t len = 0;
    if (n) buf[0] = 0;
    for (int i = 0; i < EST_FAM__COUNT; i++) {
        if (fams[i].config_keys) continue;
        int w = snprintf(buf + len, n - len, "%s%s", len ? ", " : "", fams[i].name);
        if (w < 0 || (size_t)w >= n - len) return;
        len += (size_t)w;
    }
}
const char *est_family_limits(enum est_family f) { return f < EST_FAM__COUNT ? fams[f].limits : NULL; }

const char *est_limits(const struct est_model *m, const struct est_workload *wl, char *buf, size_t n)
{
    const char *fam = est_family_limits(m->family);
    const char *fp8 = wl->quant == EST_QUANT_FP8
                          ? "fp8: no measured fp8 run checks the estimate, and the fp8 matmuls' temporaries "
                            "(each linear's input quantized to fp8 with its scales) are not counted"
                          : NULL;
    char as[sizeof m->read_as + 96] = "";
    if (m->read_as[0])
        snprintf(as, sizeof as, "read as --arch %s: %s; only what %s builds is counted", est_family_name(m->family),
                 m->read_as, est_family_name(m->family));
    if (!fam && !fp8 && !as[0]) return NULL;
    snprintf(buf, n, "%s%s%s%s%s", as, as[0] && (fam || fp8) ? "; " : "", fam ? fam : "", fam && fp8 ? "; " : "",
             fp8 ? fp8 : "");
    return buf;
}
bool est_family_tied_default(enum est_family f) { return f < EST_FAM__COUNT && fams[f].tied; }
bool est_family_sdpa(enum est_family f) { return f < EST_FAM__COUNT && !fams[f].no_sdpa; }
enum est_attn est_family_attention(enum est_family f) { return est_family_sdpa(f) ? EST_ATTN_SDPA : EST_ATTN_EAGER; }
int est_precision_parse(const char *s) { return lookup(precision_names, N_OF(precision_names), s); }
const char *est_precision_name(enum est_precision p) { return p <= EST_BF16_AUTOCAST ? precision_names[p] : "?"; }
int est_optimizer_parse(const char *s) { return lookup(optimizer_names, N_OF(optimizer_names), s); }
const char *est_optimizer_name(enum est_optimizer o) { return optimizer_names[o]; }
int est_ckpt_parse(const char *s)
{
    static const struct { const char *alias; enum est_ckpt c; } aliases[] = {
        {"selective", EST_CKPT_SELECTIVE}, {"full", EST_CKPT_FULL},
    };
    for (size_t i = 0; s && i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(s, aliases[i].alias) == 0) return aliases[i].c;
    int c = lookup(ckpt_names, N_OF(ckpt_names), s);
    return c == EST_CKPT_EVERY ? -1 : c; /* "every" wants its N */
}

int est_ckpt_parse_arg(const char *s, enum est_ckpt *c, int64_t *every)
{
    int v = est_ckpt_parse(s);
    if (v >= 0) {
        *c = (enum est_ckpt)v;
        return 0;
    }
    if (!s || strncmp(s, "every:", 6) != 0) return -1;
    int64_t n = 0;
    const char *p = s + 6;
    if (!*p) return -1;
    for (; *p; p++) {
        if (*p < '0' || *p > '9' || n > 4096) return -1;
        n = n * 10 + (*p - '0');
    }
    if (n < 1 || n > 4096) return -1;
    *c = EST_CKPT_EVERY;
    *every = n;
    return 0;
}

const char *est_ckpt_keeps(enum est_ckpt c) { return ckpt_keeps[c]; }

const char *est_ckpt_describe(const struct est_workload *wl, char *buf, size_t n)
{
    if (wl->ckpt == EST_CKPT_EVERY) snprintf(buf, n, "every:%lld", (long long)wl->ckpt_every);
    else snprintf(buf, n, "%s", ckpt_names[wl->ckpt]);
    return buf;
}
int est_attn_parse(const char *s) { return lookup(attn_names, N_OF(attn_names), s); }
const char *est_attn_name(enum est_attn a) { return attn_names[a]; }
int est_quant_parse(const char *s) { return lookup(quant_names, N_OF(quant_names), s); }
const char *est_quant_name(enum est_quant q) { return quant_names[q]; }
const char *est_fp8_scale_name(enum est_fp8_scale s) { return fp8_scale_names[s]; }
const char *est_fp8_scale_words(enum est_fp8_scale s) { return fp8_scale_words[s]; }
void est_fp8_block(const struct est_workload *wl, int64_t *out, int64_t *in)
{
    *out = wl->fp8_block_out > 0 ? wl->fp8_block_out : 128;
    *in = wl->fp8_block_in > 0 ? wl->fp8_block_in : 128;
}
bool est_fp8_decompressed(const struct est_workload *wl) { return wl->fp8_decompress && wl->mode != EST_MODE_LOAD; }
/* Scales by format, at load: transformers' FP8Linear makes weight_scale_inv
 * float32 (huggingface/transformers:src/transformers/integrations/
 * finegrained_fp8.py@0095b976), AutoFP8 stores weight_scale and input_scale
 * F32 (neuralmagic/Meta-Llama-3-8B-Instruct-FP8's index total_size matches
 * 4 B each exactly: tests/data/fp8-checkpoints.tsv); compressed-tensors
 * gives every scale the observed weight's dtype (scale_dtype =
 * module.weight.dtype: neuralmagic/compressed-tensors:src/compressed_tensors/
 * quantization/lifecycle/initialize.py@016da27b; observed_dtype =
 * weight.dtype: vllm-project/compressed-tensors, the same path, @4cff6140),
 * the model dtype transformers builds the layer in. vLLM holds all of them
 * float32 (create_fp8_scale_parameter); oomlab models transformers. */
int est_fp8_scale_bytes(const struct est_workload *wl)
{
    return wl->fp8_scale_model_dtype && wl->precision != EST_FP32 ? 2 : 4;
}
const char *est_fp8_scale_dtype(const struct est_workload *wl)
{
    return est_fp8_scale_bytes(wl) == 2 ? "16-bit" : "fp32";
}
int est_qkernel_parse(const char *s) { return lookup(qkernel_names, N_OF(qkernel_names), s); }
const char *est_qkernel_name(enum est_qkernel k) { return k <= EST_QKERNEL_EXLLAMA_V2 ? qkernel_names[k] : "?"; }
int est_shard_parse(const char *s) { return lookup(shard_names, N_OF(shard_names), s); }
const char *est_shard_name(enum est_shard s) { return shard_names[s]; }
int est_offload_parse(const char *s) { return lookup(offload_names, N_OF(offload_names), s); }
const char *est_offload_name(enum est_offload o) { return offload_names[o]; }
int est_mode_parse(const char *s) { return lookup(mode_names, N_OF(mode_names), s); }
const char *est_mode_name(enum est_mode m) { return mode_names[m]; }
int est_loss_parse(const char *s) { return lookup(loss_names, N_OF(loss_names), s); }
int est_head_parse(const char *s) { return lookup(head_names, N_OF(head_names), s); }
int est_trainer_parse(const char *s)
{
    if (s && strcmp(s, "llmc") == 0) return EST_TRAINER_LLMC;
    return lookup(trainer_names, N_OF(trainer_names), s);
}
const char *est_trainer_name(enum est_trainer t) { return trainer_names[t]; }
int est_cache_parse(const char *s) { return lookup(cache_names, N_OF(cache_names), s); }


static bool upcasts_logits(enum est_family f);
/* DeepSpeed-style: 16-bit weights on the GPU, fp32 master with the
 * optimizer (ZeRO, and CPU offload outside FSDP, which is DeepSpeed's) */
static bool ds_engine(const struct est_workload *wl)
{
    return (wl->shard >= EST_SHARD_ZERO1 && wl->shard <= EST_SHARD_ZERO3) || wl->shard == EST_SHARD_ZERO0 ||
           (wl->offload != EST_OFFLOAD_NONE && wl->shard != EST_SHARD_FSDP && wl->shard != EST_SHARD_GEMINI);
}

/* --loop-holds logits or outputs: the loop keeps the logits it was handed
 * through backward. */
static bool holds_logits(const struct est_workload *wl)
{
    return wl->loop_holds == EST_KEEP_LOGITS || wl->loop_holds == EST_KEEP_OUTPUTS;
}

/* Cross-entropy in 16-bit: F.cross_entropy on 16-bit logits runs
 * log_softmax and nll_loss in the logits' dtype. Checked on torch 1.13
 * (saved_tensors_hooks and profile_memory on F.cross_entropy of a bf16 T x V
 * tensor, bench/estimate-oracle-ce16): autograd saves one bf16 T x V tensor,
 * the log-softmax (log_softmax keeps its output, nll_loss the same tensor),
 * and backward writes nll_loss's gradient and log_softmax's, both bf16: 3a
 * per logit at the loss's backward where fp32 is 12. Nothing upcasts unless
 * the code does: autocast puts cross_entropy/log_softmax/nll_loss on its
 * fp32 list, HF Llama-family heads call logits.float() (before 4.46) and
 * transformers' ForCausalLMLoss does (4.46 on), torchtune's decoder returns
 * output(h).float(), torchtitan's loss takes pred.float(), Fabric's
 * convert_output casts litgpt's chunks to fp32 (train_acts). Auto: HF under
 * DeepSpeed's engine (no autocast) for a family whose head returns 16-bit
 * logits. --loss-upcast no: a pure 16-bit loop that calls cross_entropy on
 * the model's logits as they are, e.g. rasbt/LLMs-from-scratch:ch05/
 * 10_llm-training-speed/01_opt_single_gpu.py@908dd2f (`model.to(device).
 * to(torch.bfloat16)`, no autocast, calc_loss_batch: cross_entropy(
 * logits.flatten(0, 1), ...)) and rasbt/reasoning-from-scratch:ch08/
 * 04_train_with_distillation/distill.py@4c0c4cc (compute_example_loss on
 * the bf16 out_head output of reasoning_from_scratch/qwen3.py);
 * validate_workload refuses it where the code named upcasts. */
static bool ce_16bit(const struct est_model *m, const struct est_workload *wl)
{
    if (wl->loss_upcast == 2) return true;
    if (wl->loss_upcast == 1) return false;
    return wl->trainer == EST_TRAINER_HF && wl->precision != EST_FP32 && !upcasts_logits(m->family) &&
           ds_engine(wl);
}

/* 16-bit weights: pure 16-bit, or 16-bit weights under autocast */
static bool is16(enum est_precision p)
{
    return p == EST_FP16 || p == EST_BF16 || p == EST_FP16_AUTOCAST || p == EST_BF16_AUTOCAST;
}
static bool is_autocast16(enum est_precision p) { return p == EST_FP16_AUTOCAST || p == EST_BF16_AUTOCAST; }
static bool is_mixed(enum est_precision p) { return p == EST_FP16_MIXED || p == EST_BF16_MIXED; }
/* the matmuls run in fp16 (a dequantized weight needs no second copy) */
static bool computes_fp16(enum est_precision p)
{
    return p == EST_FP16 || p == EST_FP16_MIXED || p == EST_FP16_AUTOCAST;
}

/* What each precision keeps in which dtype, for --explain. Autocast's fp32
 * list (torch/csrc/autograd/autocast_mode.cpp, CUDA): softmax, log_softmax,
 * layer_norm, group_norm, cross_entropy / nll_loss, pow, rsqrt, sum...;
 * matmuls and linears run in 16-bit. HF Trainer --bf16/--fp16 turns on
 * accelerate's autocast whatever dtype the model was loaded in (no
 * DeepSpeed): with torch_dtype=torch.bfloat16 the weights, their gradients
 * and torch AdamW's states (zeros_like the parameter) are 16-bit. */
const char *est_precision_model(const struct est_model *m, const struct est_workload *wl)
{
    enum est_precision p = wl->precision;
    bool ds = ds_engine(wl);
    if (p == EST_FP32) return "fp32: weights, gradients, optimizer states and activations";
    if (is_mixed(p) && wl->shard == EST_SHARD_FSDP && wl->trainer == EST_TRAINER_TORCHTITAN)
        return "FSDP2's MixedPrecisionPolicy (torchtitan: param bf16, reduce fp32), no autocast: fp32 sharded "
               "weights, gradients and optimizer states; bf16 all-gathered parameters, bf16 activations and "
               "residual stream";
    if (is_mixed(p))
        return ds ? "DeepSpeed's engine: the model cast to 16-bit, no autocast; fp32 master and optimizer states"
                  : "autocast on fp32 weights: fp32 weights, gradients and optimizer states, 16-bit casts of the "
                    "linears' weights cached through forward, 16-bit matmul outputs, fp32 residual stream";
    if (is_autocast16(p))
        return m->family < EST_FAM__COUNT && fams[m->family].encoder
                   ? "autocast on 16-bit weights (HF Trainer --bf16/--fp16 on a 16-bit model): 16-bit weights, "
                     "gradients and optimizer states, no master, no weight casts; fp32 where autocast's list says: "
                     "softmax, layer_norm (a post-LN encoder's residual stream is its fp32 output), cross-entropy"
                   : "autocast on 16-bit weights (HF Trainer --bf16/--fp16 on a 16-bit model): 16-bit weights, "
                     "gradients and optimizer states, no master, no weight casts; fp32 where autocast's list says: "
                     "softmax (eager scores), layer_norm (an fp32 copy of its input), cross-entropy";
    if (ds) return "DeepSpeed's engine: 16-bit model, no autocast; fp32 master and optimizer states";
    if (wl->loss_upcast == 2 && !wl->master_weights)
        return "pure 16-bit: weights, gradients, optimizer states and activations, no autocast (fp32 only where "
               "the model upcasts: RMSNorm's x.float()); cross-entropy on the 16-bit logits (--loss-upcast no)";
    return wl->master_weights
               ? "pure 16-bit with an fp32 master copy and fp32 optimizer states; no autocast"
               : "pure 16-bit: weights, gradients, optimizer states and activations, no autocast (fp32 only where "
                 "the model upcasts: RMSNorm's x.float(), Llama-family logits; HF's loss taken in fp32)";
}

/* torchtitan's loss under torch.compile. From pytorch/torchtitan bbb1b616e
 * (2025-04-02, #1033) build_cross_entropy_loss returns
 * torch.compile(cross_entropy_loss) when --training.compile is set
 * (torchtitan/components/loss.py@bbb1b616e, @775a486ed, @2c8b59479; today
 * --compile.components defaults to ["model", "loss"], config/configs.py@
 * b5bcd76c6); before it (loss.py@0da8901b1, 2025-03-11) the loss ran eager.
 * AOTAutograd decomposes pred.flatten(0, 1).float() -> log_softmax ->
 * nll_loss into convert / amax / sub / exp / sum / log / gather, and
 * Inductor's min-cut partitioner (convert_element_type and the pointwise
 * ops recomputable, the row reductions banned as 4x smaller than their
 * input) saves the 16-bit pred and two fp32 values per row, not the fp32
 * log-softmax (checked on torch 1.13: functorch's
 * min_cut_rematerialization_partition(compiler="inductor") on that
 * function saves [pred view, amax, log]; bench/estimate-oracle-closs).
 * The backward recomputes the log-softmax inside its fused kernels and
 * writes pred's 16-bit gradient: 2 x 16-bit bytes per logit at the loss's
 * backward instead of eager's fp32 log-softmax and two fp32 gradients
 * (12 B). Auto: on for --trainer torchtitan with --compile. */
/* Own model code whose forward takes the loss (--trainer torchtune, own
 * code, with --compile --compile-loss yes): `model = torch.compile(model)`
 * on a GPT whose forward ends in `logits = self.lm_head(x); loss =
 * F.cross_entropy(logits.view(-1, V), targets.view(-1))` traces the loss
 * into the model's one graph (Jjschwartz/gollem:gollem/models/gpt2/
 * model.py@7af426c GPT.forward, train/core.py `_, loss = model(x, y,
 * return_logits=False)`; karpathy/nanoGPT model.py and llm.c's
 * train_gpt2.py alike), so the partitioner sees the same convert /
 * log_softmax / nll_loss decomposition as torchtitan's compiled
 * loss_fn: under autocast the head's matmul writes 16-bit logits and
 * cross_entropy's fp32 cast is a pointwise op inside the graph. Only on
 * request: torchtune's own recipe drops compile_loss's return for plain
 * CE (estmech12), and a loop that calls the loss outside the compiled
 * model (rasbt's calc_loss_batch) runs it eager. */
bool est_loss_compiled(const struct est_workload *wl)
{
    if (wl->mode != EST_MODE_TRAIN || wl->head != EST_HEAD_LM || wl->loss != EST_LOSS_CE)
        return false;
    if (wl->trainer == EST_TRAINER_TORCHTUNE) return wl->compile_loss == 1 && wl->compiled;
    if (wl->trainer != EST_TRAINER_TORCHTITAN) return false;
    return wl->compile_loss ? wl->compile_loss == 1 : wl->compiled;
}

const char *est_loss_path(const struct est_model *m, const struct est_workload *wl)
{
    if (wl->mode != EST_MODE_TRAIN) return "no loss (inference)";
    if (wl->head == EST_HEAD_CLS) return "classification head: negligible";
    if (wl->head == EST_HEAD_NONE) return "no head";
    if (wl->trainer == EST_TRAINER_LLMC) return "llm.c: one preallocated output buffer for the logits and their gradient";
    if (wl->loss == EST_LOSS_SUM) return "a plain reduction of the logits: only the logits kept";
    bool held = holds_logits(wl);
    if (est_loss_compiled(wl))
        return wl->trainer == EST_TRAINER_TORCHTUNE
                   ? "own model code whose forward takes the loss, under torch.compile(model) (--compile-loss yes): "
                     "the 16-bit logits and two fp32 values per row saved, the log-softmax recomputed in "
                     "backward's fused kernel, which writes the logits' 16-bit gradient; no fp32 logits"
                   : "torchtitan, the loss under torch.compile (--compile-loss; torchtitan from 2025-04-02 under "
                     "--training.compile): the 16-bit pred and two fp32 values per row saved, the log-softmax "
                     "recomputed in backward's fused kernel, which writes pred's 16-bit gradient; no fp32 logits";
    if (wl->loss_upcast == 2)
        return held || (wl->trainer == EST_TRAINER_HF && wl->loop_holds != EST_KEEP_NONE)
                   ? "cross-entropy on the model's 16-bit logits (--loss-upcast no: a pure 16-bit loop, no .float(), "
                     "no autocast): the 16-bit logits the loop holds, CE's 16-bit log-softmax kept, plain CE's two "
                     "16-bit gradients in flight"
                   : "cross-entropy on the model's 16-bit logits (--loss-upcast no: a pure 16-bit loop, no .float(), "
                     "no autocast), logits freed before backward: CE's 16-bit log-softmax kept, plain CE's two "
                     "16-bit gradients in flight";
    if (held && (wl->trainer == EST_TRAINER_TORCHTUNE || wl->trainer == EST_TRAINER_TORCHTITAN))
        return wl->loop_holds == EST_KEEP_OUTPUTS
                   ? "torchtune, the loop holding `logits` into the next forward (--loop-holds outputs): the fp32 logits held through backward; CE's fp32 log-softmax kept, plain CE's two fp32 gradients in flight"
                   : "torchtune before 8a98fbaa3 (--loop-holds logits): the fp32 logits (a shifted copy) held through backward; CE's fp32 log-softmax kept, plain CE's two fp32 gradients in flight";
    if (held && wl->trainer == EST_TRAINER_HF)
        return wl->loop_holds == EST_KEEP_OUTPUTS
                   ? (is_mixed(wl->precision) || is_autocast16(wl->precision)) && !ds_engine(wl)
                         ? "HF, the loop holding `outputs` into the next forward (--loop-holds outputs): logits as returned, fp32 (accelerate's mixed precision converts the outputs to fp32); CE's fp32 log-softmax kept, plain CE's fp32 gradients in flight"
                         : "HF, the loop holding `outputs` into the next forward (--loop-holds outputs): logits as returned (fp32 from Llama-family heads); CE's fp32 log-softmax kept, plain CE's fp32 gradients in flight"
                   : (is_mixed(wl->precision) || is_autocast16(wl->precision)) && !ds_engine(wl)
                         ? "HF, the loop holding the output through backward (--loop-holds logits): logits as returned, fp32 (accelerate's mixed precision converts the outputs to fp32); CE's fp32 log-softmax kept, plain CE's fp32 gradients in flight"
                         : "HF, the loop holding the output through backward (--loop-holds logits): logits as returned (fp32 from Llama-family heads); CE's fp32 log-softmax kept, plain CE's fp32 gradients in flight";
    if (wl->loop_holds == EST_KEEP_NONE && wl->trainer == EST_TRAINER_HF && !ce_16bit(m, wl))
        return "the loop holds no logits through backward (--loop-holds none: HF Trainer's compute_loss returns the loss alone); CE's fp32 log-softmax kept, plain CE's fp32 gradients in flight";
    switch (wl->trainer) {
    case EST_TRAINER_TORCHTUNE:
        return wl->loss == EST_LOSS_CE ? "torchtune: logits upcast to fp32 and deleted before backward; CE's fp32 log-softmax kept, plain CE's two fp32 gradients in flight"
                                       : "torchtune: fp32 logits deleted before backward; chunked CE's fp32 log-softmax kept";
    case EST_TRAINER_TORCHTITAN:
        return "torchtitan: CE on pred.float(), `del pred` before backward; CE's fp32 log-softmax kept, plain CE's two fp32 gradients in flight";
    case EST_TRAINER_LITGPT:
        return "litgpt: lm_head chunks (128 tokens) made fp32 by Fabric's convert_output and kept through backward; CE keeps each chunk's fp32 log-softmax";
    default:
        if (ce_16bit(m, wl))
            return wl->loss == EST_LOSS_CE ? "HF under DeepSpeed's engine (no autocast), a family whose logits stay 16-bit: CE's 16-bit log-softmax kept, plain CE's 16-bit gradients in flight"
                                           : "HF under DeepSpeed's engine (no autocast): chunked CE keeps a 16-bit log-softmax";
        return wl->loss == EST_LOSS_CE ? "HF: logits returned to the caller, the loss upcasts them to fp32; CE's fp32 log-softmax kept, plain CE's fp32 gradients in flight"
                                       : "HF logits returned to the caller; chunked CE keeps its fp32 log-softmax, no full fp32 temporaries";
    }
}

const char *est_cache_model(const struct est_workload *wl)
{
    static const char *const model[] = {
        "dynamic: HF DynamicCache, one layer's old K, V alive during its torch.cat; prefill logits for the last token",
        "legacy: HF tuple cache, the old tuple alive while a step builds the new one; prefill fp32 logits for every prompt token",
        "static: HF StaticCache, allocated once for prompt + generated tokens",
        "none: a plain forward that keeps no K, V (use_cache=False)",
        ("rolling: a window of --cache-len positions allocated once per layer, rolled left (torch.roll, a new "
         "tensor) when a step passes its end (AutoAWQ's fused WindowedCache); prefill logits for the last token"),
    };
    if (wl->mode == EST_MODE_TRAIN) return "training: no KV cache";
    if (wl->mode == EST_MODE_LOAD) return "weights only";
    if (wl->cache == EST_CACHE_NONE)
        return wl->gen_len ? "generation without a KV cache: every step reruns the whole sequence (no past_key_values: "
                             "BertLMHeadModel on an encoder config, or use_cache=False); HF's loop holds the previous "
                             "step's output"
                           : "plain forward over the prompt, no K, V kept (use_cache=False or an encoder), no generation";
    if (!wl->gen_len) return "plain forward over the prompt: its K, V, no generation";
    return model[wl->cache];
}
const char *est_cache_name(enum est_cache c) { return cache_names[c]; }

const char *est_figures_model(const struct est_workload *wl)
{
    if (wl->trainer == EST_TRAINER_LLMC) return "allocated = reserved: llm.c allocates everything up front";
    if (wl->longest_first)
        return "allocated: tensors alive at the peak, the longest micro-batch first; reserved: allocated + "
               "a fixed-share slack, not the allocator's segments (a run whose later batches set new "
               "lengths reserves more: not modelled)";
    if (wl->len_mean > 0 && wl->mode == EST_MODE_TRAIN)
        return "allocated: tensors alive at the peak of the longest micro-batch (--seq); reserved: allocated + "
               "a fixed-share slack + the caching allocator model's high-water mark over the epoch's "
               "varying lengths (--var-len)";
    return "allocated: tensors alive at the peak for batches all B x S; reserved: allocated + a fixed-share "
           "slack, not the caching allocator's segments nor the high-water mark of an epoch of varying "
           "lengths (--var-len models it: a reserved figure from variable-length data can be higher)";
}
static const char *const qstore_names[] = {"auto", "uint8", "model"};
int est_quant_storage_parse(const char *s) { return lookup(qstore_names, 3, s); }
static const char *const mask_names[] = {"auto", "none", "4d", "square", "max-positions", "rows"};
static const char *const plogits_names[] = {"auto", "last", "all"};
int est_mask_parse(const char *s) { return lookup(mask_names, N_OF(mask_names), s); }
int est_prefill_logits_parse(const char *s) { return lookup(plogits_names, N_OF(plogits_names), s); }
static const char *const auto_yes_no_names[] = {"auto", "yes", "no"};
static const char *const keep_names[] = {"auto", "none", "logits", "outputs"};
static const char *const autograd_names[] = {"off", "on", "train"};
int est_autograd_parse(const char *s) { return lookup(autograd_names, N_OF(autograd_names), s); }
const char *est_autograd_name(enum est_autograd g) { return g <= EST_GRAD_TRAIN ? autograd_names[g] : "?"; }
int est_keep_parse(const char *s) { return lookup(keep_names, N_OF(keep_names), s); }
const char *est_keep_name(enum est_keep k) { return k <= EST_KEEP_OUTPUTS ? keep_names[k] : "?"; }
static const char *const layer_buffers_names[] = {"auto", "none"};
/* --use-cache, --compile-loss, --loss-upcast */
int est_auto_yes_no_parse(const char *s) { return lookup(auto_yes_no_names, N_OF(auto_yes_no_names), s); }
int est_layer_buffers_parse(const char *s) { return lookup(layer_buffers_names, N_OF(layer_buffers_names), s); }
static const char *const len_order_names[] = {"random", "sorted", "longest-first"};
int est_len_order_parse(const char *s) { return lookup(len_order_names, N_OF(len_order_names), s); }

static bool scores_kept(enum est_attn a) { return a == EST_ATTN_EAGER || a == EST_ATTN_SDPA_MATH; }

/* auto: HF builds the 4-D mask for eager attention and for any attention
 * over a static cache (SDPA's is_causal cannot skip its unfilled slots). */
static enum est_mask resolve_mask(const struct est_workload *wl)
{
    if (wl->mask != EST_MASK_AUTO) return wl->mask;
    if (scores_kept(wl->attention) ||
        ((wl->cache == EST_CACHE_STATIC || wl->cache == EST_CACHE_ROLLING) && wl->gen_len))
        return EST_MASK_4D; /* sdpa-math: the explicit mask is why the math kernel runs */
    return EST_MASK_NONE;
}

/* A generation's prompt: --prompt-len, else --seq stands in for it. */
static int64_t prompt_of(const struct est_workload *wl)
{
    return wl->prompt_len ? wl->prompt_len : wl->seq;
}

/* The longest sequence one forward sees: a generation's prompt and every
 * generated token, else --seq (what per-length buffers grow to). */
static int64_t longest_sequence(const struct est_workload *wl)
{
    return wl->mode == EST_MODE_INFER && wl->gen_len ? prompt_of(wl) + wl->gen_len : wl->seq;
}

/* The positions a static or rolling cache holds: --cache-len N, "max" (the
 * model's max positions), or by default the prompt and every generated
 * token. */
static int64_t cache_positions(const struct est_model *m, const struct est_workload *wl)
{
    if (wl->cache_len > 0) return wl->cache_len;
    if (wl->cache_len < 0) return m->max_positions;
    return prompt_of(wl) + wl->gen_len;
}

const char *est_cache_describe(const struct est_model *m, const struct est_workload *wl, char *buf, size_t n)
{
    static const char *const cache[] = {
        "HF DynamicCache: one layer's old K (or V) alive during its torch.cat",
        "legacy tuple cache: the old tuple alive while a step builds the new one",
        "static: allocated once",
        "",
        "rolling window (AutoAWQ's WindowedCache): allocated once, torch.roll'ed left when a step passes its end",
    };
    static const char *const mask[] = {"", "no mask", "4-D mask in the model dtype",
                                       "bool N x N mask_cache (litgpt)",
                                       "HF 4.38 max-positions mask (int64 buffer + a dtype copy per forward)",
                                       "bool (prompt + generated) x N mask (torchtune)"};
    if (wl->mode != EST_MODE_INFER || wl->cache == EST_CACHE_NONE) {
        snprintf(buf, n, "%s", est_cache_model(wl));
        return buf;
    }
    if (!wl->gen_len && fams[m->family].encoder) {
        snprintf(buf, n, "one encoder forward over the input (%s builds no KV cache), no generation",
                 fams[m->family].name);
        return buf;
    }
    char len[64] = "";
    if (wl->gen_len && wl->cache == EST_CACHE_STATIC) {
        int64_t pos = cache_positions(m, wl);
        if (wl->gen_loop == EST_GEN_GPTFAST) pos = (pos + 7) / 8 * 8; /* find_multiple(max_seq_length, 8) (gen_plan) */
        snprintf(len, sizeof len, " for %lld positions", (long long)pos);
    }
    if (wl->gen_len && wl->cache == EST_CACHE_ROLLING)
        snprintf(len, sizeof len, "; a window of %lld positions", (long long)cache_positions(m, wl));
    bool all = !wl->gen_len || wl->prefill_logits == EST_PLOGITS_ALL ||
               (wl->prefill_logits == EST_PLOGITS_AUTO && wl->cache == EST_CACHE_LEGACY);
    snprintf(buf, n, "%s%s; K, V %s; %s; prefill logits %s%s",
             wl->gen_len ? cache[wl->cache] : "plain forward over the prompt, no generation", len,
             wl->kv_expanded ? "expanded to every query head" : "per KV head", mask[resolve_mask(wl)],
             all ? "for every prompt position" : "for the last position",
             wl->gen_loop == EST_GEN_GPTFAST ? "; gpt-fast loop: the cache repeat_interleave'd to every head in each attention, "
                                               "every decode step's probabilities kept"
             : wl->gen_loop == EST_GEN_TORCHTUNE ? "; torchtune loop: every step's fp32 logits concatenated (generated_logits)"
                                                 : "");
    return buf;
}

static const char *const kind_names[] = {"full", "lora", "qlora", "sharded", "llm.c", "offload", "infer", "load"};

const char *est_kind_name(enum est_kind k) { return k < EST_KIND__COUNT ? kind_names[k] : "?"; }

enum est_kind est_kind_of(const struct est_workload *wl)
{
    if (wl->mode == EST_MODE_LOAD) return EST_KIND_LOAD;
    if (wl->mode == EST_MODE_INFER) return EST_KIND_INFER;
    if (wl->trainer == EST_TRAINER_LLMC) return EST_KIND_LLMC;
    if (wl->offload != EST_OFFLOAD_NONE || wl->act_offload) return EST_KIND_OFFLOAD;
    if (wl->gpus > 1) return EST_KIND_SHARDED;
    if (wl->quant != EST_QUANT_NONE) return EST_KIND_QLORA;
    if (wl->lora_r > 0) return EST_KIND_LORA;
    return EST_KIND_FULL;
}

/* Generated by bench/estimate --emit-checked: one row per kind, indexed by
 * kind; rows 0 where nothing of that kind was measured. */
static const struct est_checked checked_rows[EST_KIND__COUNT] = {
#include "lib/est_checked.inc"
};

const struct est_checked *est_checked_for(enum est_kind k)
{
    return &checked_rows[k < EST_KIND__COUNT ? k : EST_KIND_FULL];
}

int est_lora_targets_parse(const char *s, unsigned *bits)
{
    static const struct { const char *name; unsigned bits; } t[] = {
        {"q", EST_LORA_Q}, {"k", EST_LORA_K}, {"v", EST_LORA_V}, {"o", EST_LORA_O},
        {"gate", EST_LORA_GATE}, {"up", EST_LORA_UP}, {"down", EST_LORA_DOWN},
        {"attn", EST_LORA_Q | EST_LORA_K | EST_LORA_V | EST_LORA_O},
        {"mlp", EST_LORA_GATE | EST_LORA_UP | EST_LORA_DOWN}, {"all", EST_LORA_ALL},
        {"head", EST_LORA_HEAD},
    };
    unsigned acc = 0;
    const char *p = s;
    if (!s || !*s) return -1;
    while (*p) {
        size_t n = strcspn(p, ",");
        int hit = 0;
        for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
            if (strlen(t[i].name) == n && strncmp(t[i].name, p, n) == 0) {
                acc |= t[i].bits;
                hit = 1;
            }
        if (!hit) return -1;
        p += n;
        if (*p == ',') p++;
    }
    *bits = acc;
    return 0;
}

void est_workload_init(struct est_workload *wl)
{
    memset(wl, 0, sizeof *wl);
    wl->mode = EST_MODE_TRAIN;
    wl->batch = 1;
    wl->seq = 512;
    wl->grad_accum = 1;
    wl->precision = EST_BF16_MIXED;
    wl->optimizer = EST_OPT_ADAMW;
    wl->foreach = true;
    wl->attention = EST_ATTN_SDPA;
    wl->gpus = 1;
    wl->capacity_bytes = -1;
    wl->context_bytes = -1;
    wl->nccl_bytes = -1;
    wl->blas_workspace = EST_BLAS_WORKSPACE;
    wl->headroom = 0.15;
    wl->lora_dropout = -1;
    wl->len_samples = 1000;
    wl->ds_overlap = -1;
    wl->ds_zero_init = -1;
}

/* ---- the model's shape -------------------------------------------- */

struct range { const char *name; int64_t *v; int64_t lo, hi; bool required; };

static int check_ranges(const struct range *r, size_t n, struct oomlab_err *err)
{
    for (size_t i = 0; i < n; i++) {
        if (*r[i].v == 0 && !r[i].required) continue;
        if (*r[i].v == 0)
            return oomlab_err_set(err, "model dimension %s is missing: pass --%s", r[i].name,
                                  r[i].name);
        if (*r[i].v < r[i].lo || *r[i].v > r[i].hi)
            return oomlab_err_set(err, "model dimension %s = %lld is out of range (%lld..%lld)",
                                  r[i].name, (long long)*r[i].v, (long long)r[i].lo,
                                  (long long)r[i].hi);
    }
    return 0;
}

/* "a, b and c": the families with shared experts (those read from a
 * config.json only, fams[].config_keys), in table order. */
static void shared_expert_families(char *buf, size_t n)
{
    size_t len = 0, total = 0, seen = 0;
    buf[0] = 0;
    for (int i = 0; i < EST_FAM__COUNT; i++) total += fams[i].config_keys != NULL;
    for (int i = 0; i < EST_FAM__COUNT; i++) {
        if (!fams[i].config_keys) continue;
        const char *sep = !seen ? "" : seen + 1 == total ? " and " : ", ";
        int w = snprintf(buf + len, n - len, "%s%s", sep, fams[i].name);
        if (w < 0 || (size_t)w >= n - len) return;
        len += (size_t)w, seen++;
    }
}

int est_model_finish(struct est_model *m, struct oomlab_err *err)
{
    if ((unsigned)m->family >= EST_FAM__COUNT) return oomlab_err_set(err, "unknown architecture");
    const struct fam *f = &fams[m->family];
    struct range r1[] = {
        {"layers", &m->layers, 1, 4096, true},
        {"hidden", &m->hidden, 1, 1 << 20, true},
        {"heads", &m->heads, 1, 1 << 16, true},
        {"vocab", &m->vocab, 1, 1 << 24, true},
    };
    if (check_ranges(r1, sizeof r1 / sizeof r1[0], err)) return -1;
    if (!m->kv_heads) m->kv_heads = m->heads;
    if (!m->head_dim && m->hidden % m->heads)
        return oomlab_err_set(err, "hidden (%lld) is not a multiple of heads (%lld): give "
                                   "head-dim (head_dim) if the model's heads are not hidden / heads wide",
                              (long long)m->hidden, (long long)m->heads);
    if (!m->head_dim) m->head_dim = m->hidden / m->heads;
    if (!m->ffn && !f->gated) m->ffn = (int64_t)f->ffn_mult * m->hidden;
    if (!m->max_positions && f->learned_pos) m->max_positions = f->positions;
    if (m->family == EST_FAM_T5 && !m->decoder_layers) m->decoder_layers = m->layers;
    struct range r2[] = {
        {"kv-heads", &m->kv_heads, 1, m->heads, true},
        {"head-dim", &m->head_dim, 1, 1 << 16, true},
        {"ffn", &m->ffn, 1, 1 << 22, true},
        {"max-positions", &m->max_positions, 1, 1 << 24, false},
        {"experts", &m->experts, 1, 1024, false},
        {"experts-per-token", &m->experts_per_token, 1, 1024, false},
        {"sliding-window", &m->sliding_window, 1, 1 << 24, false},
        {"decoder-layers", &m->decoder_layers, 1, 4096, false},
        {"embed-proj", &m->embed_proj, 1, 1 << 20, false},
    };
    if (check_ranges(r2, sizeof r2 / sizeof r2[0], err)) return -1;
    if (m->family == EST_FAM_DEEPSEEK3 && (!m->kv_lora_rank || !m->rope_dim || !m->v_head_dim || !m->experts))
        return oomlab_err_set(err, "deepseek_v3 needs its config.json (%s): multi-head latent attention is read "
                                   "from the config only", f->config_keys);
    if (f->config_keys && m->family != EST_FAM_DEEPSEEK3 && (!m->experts || !m->shared_ffn))
        return oomlab_err_set(err, "%s needs its config.json (%s): shared experts are read from the config only",
                              f->name, f->config_keys);
    if (m->family != EST_FAM_DEEPSEEK3 && m->kv_lora_rank)
        return oomlab_err_set(err, "multi-head latent attention is modelled for deepseek_v3 only");
    if (!f->config_keys && (m->dense_layers || m->shared_ffn)) {
        char names[256];
        shared_expert_families(names, sizeof names);
        return oomlab_err_set(err, "dense layers beside sparse ones and shared experts are modelled for %s only",
                              names);
    }
    struct range r3[] = {
        {"q_lora_rank", &m->q_lora_rank, 1, 1 << 20, false},
        {"kv_lora_rank", &m->kv_lora_rank, 1, 1 << 20, false},
        {"qk_rope_head_dim", &m->rope_dim, 1, m->head_dim, false},
        {"v_head_dim", &m->v_head_dim, 1, 1 << 16, false},
        {"first_k_dense_replace", &m->dense_layers, 1, m->layers, false},
        {"intermediate_size", &m->dense_ffn, 1, 1 << 22, false},
        {"shared experts' width", &m->shared_ffn, 1, 1 << 24, false},
    };
    if (check_ranges(r3, sizeof r3 / sizeof r3[0], err)) return -1;
    if (m->dense_layers && !m->dense_ffn)
        return oomlab_err_set(err, "dense first layers (first_k_dense_replace) need their width (intermediate_size)");
    if (m->heads % m->kv_heads)
        return oomlab_err_set(err, "heads (%lld) must be a multiple of kv-heads (%lld)",
                              (long long)m->heads, (long long)m->kv_heads);
    if (m->experts && !m->experts_per_token) {
        m->experts_per_token = m->experts < 2 ? 1 : 2;
        m->experts_per_token_assumed = m->experts >= 2; /* one expert: one per token, known */
    }
    if (m->experts_per_token > m->experts && m->experts)
        return oomlab_err_set(err, "experts-per-token (%lld) exceeds experts (%lld)",
                              (long long)m->experts_per_token, (long long)m->experts);
    return 0;
}

static bool gated(const struct est_model *m)
{
    return m->mlp_kind ? m->mlp_kind == 2 : fams[m->family].gated != 0;
}

/* ---- parameter counts (exact, checked) ---------------------------- */

/* Accumulator that remembers overflow instead of wrapping. */
struct acc { int64_t v; bool bad; };

static void acc_add(struct acc *a, int64_t x)
{
    if (!a->bad && !units_add(a->v, x, &a->v)) a->bad = true;
}

static int64_t mul2(struct acc *a, int64_t x, int64_t y)
{
    int64_t r = 0;
    if (__builtin_mul_overflow(x, y, &r)) a->bad = true;
    return r;
}

static int64_t mul3(struct acc *a, int64_t x, int64_t y, int64_t z)
{
    return mul2(a, mul2(a, x, y), z);
}

struct shape { int64_t h, qd, kvd, f; };

static struct shape shape_of(const struct est_model *m, struct acc *a)
{
    struct shape s = {m->hidden, mul2(a, m->heads, m->head_dim), mul2(a, m->kv_heads, m->head_dim),
                      m->ffn};
    return s;
}

/* Multi-head latent attention as DeepseekV3Attention builds it: q through a
 * q_lora_rank bottleneck with its RMSNorm (or one q_proj), K and V
 * decompressed from a kv_lora_rank latent (kv_a_proj_with_mqa also gives
 * the rope_dim key part shared by every head), o_proj from heads x
 * v_head_dim; no biases (attention_bias, which hfconfig refuses).
 * Without norms: the linear weights alone. */
static int64_t mla_linear_params(const struct est_model *m, struct acc *a)
{
    struct acc t = {0, false};
    int64_t qd = mul2(a, m->heads, m->head_dim);
    if (m->q_lora_rank) acc_add(&t, mul2(a, m->q_lora_rank, m->hidden + qd));
    else acc_add(&t, mul2(a, m->hidden, qd));
    acc_add(&t, mul2(a, m->hidden, m->kv_lora_rank + m->rope_dim));
    acc_add(&t, mul3(a, m->kv_lora_rank, m->heads, m->head_dim - m->rope_dim + m->v_head_dim));
    acc_add(&t, mul3(a, m->heads, m->v_head_dim, m->hidden));
    a->bad |= t.bad;
    return t.v;
}

static int64_t attn_params(const struct est_model *m, struct acc *a)
{
    const struct fam *f = &fams[m->family];
    if (m->kv_lora_rank) return mla_linear_params(m, a) + m->q_lora_rank + m->kv_lora_rank;
    struct shape s = shape_of(m, a);
    struct acc t = {0, false};
    acc_add(&t, mul2(a, s.h, s.qd));
    acc_add(&t, mul3(a, 2, s.h, s.kvd));
    acc_add(&t, mul2(a, s.qd, s.h));
    if (f->qkv_bias) acc_add(&t, s.qd + 2 * s.kvd);
    if (f->o_bias) acc_add(&t, s.h);
    a->bad |= t.bad;
    return t.v;
}

static int64_t mlp_params(const struct est_model *m, struct acc *a)
{
    const struct fam *f = &fams[m->family];
    struct acc t = {0, false};
    acc_add(&t, mul3(a, gated(m) ? 3 : 2, m->hidden, m->ffn));
    if (f->mlp_bias) acc_add(&t, (gated(m) ? 2 : 1) * m->ffn + m->hidden);
    a->bad |= t.bad;
    return t.v;
}

static int64_t norm_params(const struct est_model *m) { return fams[m->family].rms ? m->hidden : 2 * m->hidden; }

/* A dense first layer's MLP (dense_ffn wide) less the sparse block's
 * experts, router and shared MLP it replaces. */
static int64_t dense_mlp_delta(const struct est_model *m, struct acc *a)
{
    if (!m->dense_layers) return 0;
    int64_t sparse = mul2(a, m->experts, mlp_params(m, a)) + mul2(a, m->hidden, m->experts) +
                     mul3(a, 3, m->hidden, m->shared_ffn) + (fams[m->family].shared_gate ? m->hidden : 0);
    return mul3(a, 3, m->hidden, m->dense_ffn) - sparse;
}

/* One decoder block (T5 encoder blocks share it; decoder blocks add cross-attention). */
static int64_t layer_params(const struct est_model *m, struct acc *a)
{
    struct acc t = {0, false};
    int64_t mlp = mlp_params(m, a);
    acc_add(&t, attn_params(m, a));
    if (m->experts) {
        acc_add(&t, mul2(a, m->experts, mlp));
        acc_add(&t, mul2(a, m->hidden + fams[m->family].router_bias, m->experts));
        acc_add(&t, mul3(a, 3, m->hidden, m->shared_ffn)); /* the shared experts: one SwiGLU MLP */
        if (fams[m->family].shared_gate) acc_add(&t, m->hidden);
    } else {
        acc_add(&t, mlp);
    }
    acc_add(&t, mul2(a, fams[m->family].norms_per_layer, norm_params(m)));
    if (fams[m->family].qk_norm == 1) acc_add(&t, 2 * m->head_dim); /* q_norm, k_norm per head */
    if (fams[m->family].sinks) acc_add(&t, m->heads);
    if (fams[m->family].qk_norm == 2) /* over the whole projections */
        acc_add(&t, mul2(a, m->heads + m->kv_heads, m->head_dim));
    a->bad |= t.bad;
    return t.v;
}

/* Whether the output head is the input embedding. litgpt's GPT always has
 * its own lm_head beside transformer.wte, and its checkpoint converter
 * copies a tied model's embedding into lm_head.weight
 * (Lightning-AI/litgpt:litgpt/model.py@5895df10, GPT.__init__;
 * litgpt/scripts/convert_hf_checkpoint.py, copy_weights_falcon). */
static bool tied(const struct est_model *m, const struct est_workload *wl)
{
    return m->tied_embeddings && !(wl && wl->trainer == EST_TRAINER_LITGPT);
}

static int64_t embed_params(const struct est_model *m, const struct est_workload *wl, struct acc *a)
{
    const struct fam *f = &fams[m->family];
    int64_t ed = m->embed_proj ? m->embed_proj : m->hidden;
    struct acc t = {0, false};
    acc_add(&t, mul2(a, m->vocab, ed));
    if (m->embed_proj) acc_add(&t, mul3(a, 2, ed, m->hidden));
    if (f->learned_pos) acc_add(&t, mul2(a, m->max_positions + f->pos_offset, m->hidden));
    if (m->family == EST_FAM_BLOOM) acc_add(&t, 2 * m->hidden); /* word_embeddings_layernorm */
    if (f->encoder) {
        /* token types (BERT 2 rows, RoBERTa type_vocab_size 1, DistilBERT
         * none), embedding LayerNorm */
        acc_add(&t, (int64_t)f->type_rows * m->hidden + 2 * m->hidden);
        /* pooler; the masked-LM models build their encoder without one
         * (BertForMaskedLM: `BertModel(config, add_pooling_layer=False)`,
         * huggingface/transformers:src/transformers/models/bert/
         * modeling_bert.py@004ad5f5; RobertaForMaskedLM likewise) */
        if (!f->no_pooler && !(wl && wl->head == EST_HEAD_LM))
            acc_add(&t, mul2(a, m->hidden, m->hidden) + m->hidden);
        if (wl && wl->head == EST_HEAD_LM) /* MLM transform + decoder bias; decoder tied */
            acc_add(&t, mul2(a, m->hidden, m->hidden) + 3 * m->hidden + m->vocab);
        else if (wl && wl->head == EST_HEAD_CLS) {
            acc_add(&t, 2 * m->hidden + 2); /* two-label classifier */
            if (f->no_pooler) /* DistilBERT's pre_classifier, ELECTRA's dense, in the pooler's place */
                acc_add(&t, mul2(a, m->hidden, m->hidden) + m->hidden);
        }
    }
    if (f->final_norm && !m->embed_proj) acc_add(&t, norm_params(m));
    if (!tied(m, wl) && !f->encoder && !(wl && wl->head == EST_HEAD_NONE)) {
        acc_add(&t, mul2(a, m->vocab, ed));
        if (f->head_bias) acc_add(&t, m->vocab);
    }
    if (m->family == EST_FAM_T5) {
        acc_add(&t, norm_params(m));        /* decoder final norm */
        acc_add(&t, mul2(a, 64, m->heads)); /* relative position buckets, enc + dec */
    }
    a->bad |= t.bad;
    return t.v;
}

/* Linear weights inside the blocks (what int8/nf4 quantize, what autocast copies). */
static int64_t block_linear_params(const struct est_model *m, struct acc *a)
{
    struct shape s = shape_of(m, a);
    int64_t attn = m->kv_lora_rank ? mla_linear_params(m, a) : mul2(a, s.h, 2 * s.qd + 2 * s.kvd);
    int64_t mlp = mul3(a, gated(m) ? 3 : 2, s.h, s.f);
    if (m->experts) mlp = mul2(a, mlp, m->experts) + mul3(a, 3, s.h, m->shared_ffn);
    int64_t per = attn + mlp;
    int64_t n = mul2(a, m->layers, per);
    n += mul2(a, m->dense_layers, mul3(a, 3, s.h, m->dense_ffn) - mlp);
    if (m->decoder_layers) n += mul2(a, m->decoder_layers, per + attn);
    return n;
}

/* The block linears one by one, as HF names them (the layout of the fp8
 * checkpoints: separate q/k/v/o_proj and gate/up/down_proj; a family that
 * fuses them is counted as its parts, which moves only the rounding of
 * block scales): the same weights block_linear_params sums. */
struct blin { unsigned bit; int64_t in, out, count; };

static size_t block_linears(const struct est_model *m, struct blin *lin, struct acc *a)
{
    struct shape s = shape_of(m, a);
    size_t n = 0;
    int64_t attn = m->layers + 2 * m->decoder_layers; /* T5's decoder: self + cross attention */
    int64_t sparse = m->experts ? m->layers - m->dense_layers : 0;
    int64_t dense = m->experts ? m->dense_layers : m->layers + m->decoder_layers;
    if (m->kv_lora_rank) {
        int64_t qd = mul2(a, m->heads, m->head_dim);
        if (m->q_lora_rank) {
            lin[n++] = (struct blin){EST_LIN_Q_A, s.h, m->q_lora_rank, attn};
            lin[n++] = (struct blin){EST_LIN_Q_B, m->q_lora_rank, qd, attn};
        } else {
            lin[n++] = (struct blin){EST_LIN_Q, s.h, qd, attn};
        }
        lin[n++] = (struct blin){EST_LIN_KV_A, s.h, m->kv_lora_rank + m->rope_dim, attn};
        lin[n++] = (struct blin){EST_LIN_KV_B, m->kv_lora_rank,
                                 mul2(a, m->heads, m->head_dim - m->rope_dim + m->v_head_dim), attn};
        lin[n++] = (struct blin){EST_LIN_O, mul2(a, m->heads, m->v_head_dim), s.h, attn};
    } else {
        lin[n++] = (struct blin){EST_LIN_Q, s.h, s.qd, attn};
        lin[n++] = (struct blin){EST_LIN_K, s.h, s.kvd, attn};
        lin[n++] = (struct blin){EST_LIN_V, s.h, s.kvd, attn};
        lin[n++] = (struct blin){EST_LIN_O, s.qd, s.h, attn};
    }
    int64_t dense_ffn = m->experts ? m->dense_ffn : s.f;
    if (gated(m)) lin[n++] = (struct blin){EST_LIN_GATE, s.h, dense_ffn, dense};
    lin[n++] = (struct blin){EST_LIN_UP, s.h, dense_ffn, dense};
    lin[n++] = (struct blin){EST_LIN_DOWN, dense_ffn, s.h, dense};
    if (m->experts) {
        int64_t routed = mul2(a, sparse, m->experts);
        if (gated(m)) lin[n++] = (struct blin){EST_LIN_GATE, s.h, s.f, routed};
        lin[n++] = (struct blin){EST_LIN_UP, s.h, s.f, routed};
        lin[n++] = (struct blin){EST_LIN_DOWN, s.f, s.h, routed};
        if (m->shared_ffn) { /* DeepSeek's shared experts: one SwiGLU MLP */
            lin[n++] = (struct blin){EST_LIN_SHARED, s.h, m->shared_ffn, sparse};
            lin[n++] = (struct blin){EST_LIN_SHARED, s.h, m->shared_ffn, sparse};
            lin[n++] = (struct blin){EST_LIN_SHARED, m->shared_ffn, s.h, sparse};
        }
    }
    return n;
}

static int64_t ceil_div(int64_t x, int64_t d) { return x / d + (x % d != 0); }

int est_fp8_weights(const struct est_model *m, const struct est_workload *wl, int64_t *fp8_params,
                    int64_t *scale_bytes, int64_t *kept_params, struct oomlab_err *err)
{
    struct blin lin[16];
    struct acc a = {0, false}, fp8 = {0, false}, scales = {0, false}, kept = {0, false};
    int64_t bo, bi;
    est_fp8_block(wl, &bo, &bi);
    size_t n = block_linears(m, lin, &a);
    for (size_t i = 0; i < n; i++) {
        int64_t w = mul3(&a, lin[i].in, lin[i].out, lin[i].count);
        if (wl->fp8_keep & lin[i].bit) {
            acc_add(&kept, w);
            continue;
        }
        acc_add(&fp8, w);
        int64_t per = wl->fp8_scale == EST_FP8_BLOCK     ? mul2(&a, ceil_div(lin[i].out, bo), ceil_div(lin[i].in, bi))
                      : wl->fp8_scale == EST_FP8_CHANNEL ? lin[i].out
                                                         : 1;
        acc_add(&scales, mul3(&a, per + (wl->fp8_static_act ? 1 : 0), lin[i].count, est_fp8_scale_bytes(wl)));
    }
    if (a.bad || fp8.bad || scales.bad || kept.bad) return oomlab_err_set(err, "parameter count overflows: model too large");
    *fp8_params = fp8.v;
    *scale_bytes = scales.v;
    *kept_params = kept.v;
    return 0;
}

/* Module names an fp8 checkpoint's keep list uses (the last dotted part):
 * those already 16-bit in every fp8 model oomlab counts, and the block
 * linears. "gate" is the MoE router (DeepSeek-V3's MoEGate, MiniMax's
 * gate; checkpoints keep it bf16), not gate_proj. */
static const struct { const char *name; unsigned bits; } fp8_keep_names[] = {
    {"lm_head", 0}, {"embed_tokens", 0}, {"gate", 0}, {"e_score_correction_bias", 0}, {"norm", 0},
    {"input_layernorm", 0}, {"post_attention_layernorm", 0}, {"q_a_layernorm", 0}, {"kv_a_layernorm", 0},
    {"q_proj", EST_LIN_Q}, {"k_proj", EST_LIN_K}, {"v_proj", EST_LIN_V}, {"o_proj", EST_LIN_O},
    {"gate_proj", EST_LIN_GATE}, {"up_proj", EST_LIN_UP}, {"down_proj", EST_LIN_DOWN},
    {"q_a_proj", EST_LIN_Q_A}, {"q_b_proj", EST_LIN_Q_B}, {"kv_a_proj_with_mqa", EST_LIN_KV_A},
    {"kv_b_proj", EST_LIN_KV_B}, {"shared_experts", EST_LIN_SHARED},
    {"self_attn", EST_LIN_Q | EST_LIN_K | EST_LIN_V | EST_LIN_O | EST_LIN_Q_A | EST_LIN_Q_B | EST_LIN_KV_A |
                      EST_LIN_KV_B},
};

int est_fp8_keep_parse(const char *module, unsigned *bits)
{
    char name[128];
    const char *p = module;
    size_t len;
    *bits = 0;
    if (strncmp(p, "re:", 3) == 0) { /* only re:.*NAME$ (llm-compressor's ignore lists) */
        p += 3;
        if (strncmp(p, ".*", 2) == 0) p += 2;
        len = strlen(p);
        if (len && p[len - 1] == '$') len--;
    } else {
        len = strlen(p);
    }
    if (len == 0 || len >= sizeof name) return -1;
    memcpy(name, p, len);
    name[len] = '\0';
    if (strpbrk(name, "*+?()[]|\\^$")) return -1;
    const char *layers = strstr(name, "layers.");
    if (layers && isdigit((unsigned char)layers[7])) return -1; /* one layer's module */
    const char *last = strrchr(name, '.');
    last = last ? last + 1 : name;
    for (size_t i = 0; i < sizeof fp8_keep_names / sizeof fp8_keep_names[0]; i++)
        if (strcmp(last, fp8_keep_names[i].name) == 0) {
            *bits = fp8_keep_names[i].bits;
            return 0;
        }
    return -1;
}

static int64_t lora_params(const struct est_model *m, const struct est_workload *wl, struct acc *a)
{
    if (!wl || wl->lora_r <= 0) return 0;
    unsigned t = wl->lora_targets ? wl->lora_targets : (EST_LORA_Q | EST_LORA_V);
    struct shape s = shape_of(m, a);
    struct { unsigned bit; int64_t in, out; } lin[] = {
        {EST_LORA_Q, s.h, s.qd}, {EST_LORA_K, s.h, s.kvd}, {EST_LORA_V, s.h, s.kvd},
        {EST_LORA_O, s.qd, s.h}, {EST_LORA_GATE, gated(m) ? s.h : 0, s.f},
        {EST_LORA_UP, s.h, s.f}, {EST_LORA_DOWN, s.f, s.h},
    };
    struct acc per = {0, false};
    for (size_t i = 0; i < sizeof lin / sizeof lin[0]; i++) {
        if (!(t & lin[i].bit) || !lin[i].in) continue;
        int64_t n = mul2(a, wl->lora_r, lin[i].in + lin[i].out);
        if (lin[i].bit >= EST_LORA_GATE && m->experts) n = mul2(a, n, m->experts);
        acc_add(&per, n);
    }
    a->bad |= per.bad;
    int64_t blocks = mul2(a, m->layers + m->decoder_layers, per.v);
    if (t & EST_LORA_HEAD) /* one adapter on the lm_head: r x (hidden + vocab) */
        blocks += mul2(a, wl->lora_r, m->hidden + m->vocab);
    return blocks;
}

int64_t est_mla_latent_per_token(const struct est_model *m, int elem_bytes)
{
    if (!m->kv_lora_rank) return 0;
    return (m->layers) * (m->kv_lora_rank + m->rope_dim) * elem_bytes;
}

int est_params(const struct est_model *m, const struct est_workload *wl, int64_t *total,
               int64_t *trainable, struct oomlab_err *err)
{
    if (m->kv_lora_rank && wl && wl->lora_r > 0) /* lora_params' targets are q, k, v, o and the MLP */
        return oomlab_err_set(err, "LoRA on deepseek_v3 (multi-head latent attention: q_a/q_b, kv_a/kv_b "
                                   "projections, routed and shared experts) is not modelled");
    /* lora_params puts MLP adapters on every routed expert only: the shared
     * experts' and dense layers' adapters (PEFT matches their gate/up/down_proj
     * too) are not counted, so those targets are refused, not undercounted */
    unsigned mlp_bits = EST_LORA_GATE | EST_LORA_UP | EST_LORA_DOWN;
    if ((m->shared_ffn || m->dense_layers) && wl && wl->lora_r > 0 && (wl->lora_targets & mlp_bits))
        return oomlab_err_set(err, "LoRA on the MLP of %s (routed experts beside shared experts and dense "
                                   "layers) is not modelled: target the attention (q, k, v, o)",
                              fams[m->family].name);
    struct acc a = {0, false};
    int64_t per = layer_params(m, &a);
    struct acc t = {0, false};
    acc_add(&t, mul2(&a, m->layers, per));
    /* DeepSeek's first_k_dense_replace layers: a dense MLP in the sparse block's place */
    acc_add(&t, mul2(&a, m->dense_layers, dense_mlp_delta(m, &a)));
    if (m->decoder_layers) /* T5 decoder block: + cross-attention and a third norm */
        acc_add(&t, mul2(&a, m->decoder_layers, per + attn_params(m, &a) + norm_params(m)));
    acc_add(&t, embed_params(m, wl, &a));
    int64_t lora = lora_params(m, wl, &a);
    acc_add(&t, lora);
    if (a.bad || t.bad) return oomlab_err_set(err, "parameter count overflows: model too large");
    *total = t.v;
    if (trainable) *trainable = (wl && wl->lora_r > 0) ? lora : t.v;
    return 0;
}

int est_active_params(const struct est_model *m, const struct est_workload *wl, int64_t *active,
                      struct oomlab_err *err)
{
    int64_t total;
    if (est_params(m, wl, &total, NULL, err)) return -1;
    if (!m->experts) {
        *active = total;
        return 0;
    }
    if (m->experts_per_token_assumed) {
        *active = -1;
        return 0;
    }
    struct acc a = {0, false};
    /* one routed expert: its MLP, and the LoRA adapters on it (lora_params
     * puts the MLP targets' adapters on every expert) */
    int64_t expert = mlp_params(m, &a);
    if (wl && wl->lora_r > 0) {
        unsigned t = wl->lora_targets ? wl->lora_targets : (EST_LORA_Q | EST_LORA_V);
        int64_t widths = ((t & EST_LORA_GATE) && gated(m) ? 1 : 0) + ((t & EST_LORA_UP) ? 1 : 0) +
                         ((t & EST_LORA_DOWN) ? 1 : 0);
        expert += mul3(&a, widths, wl->lora_r, m->hidden + m->ffn);
    }
    /* the sparse layers: every layer but the dense ones (DeepSeek's first
     * first_k_dense_replace, Llama 4's interleaved MLP layers) */
    int64_t idle = mul3(&a, m->layers - m->dense_layers, m->experts - m->experts_per_token, expert);
    if (a.bad || idle > total) return oomlab_err_set(err, "active parameter count overflows: model too large");
    *active = total - idle;
    return 0;
}

/* ---- memory terms --------------------------------------------------- */

/* Calibrated constants (docs/estimate.md says where each comes from). */
#define GRAD_OVERLAP 0.0L      /* gradients live at the fwd/bwd peak (set_to_none) */
#define SLACK_DYNAMIC 0.10L    /* reserved - allocated, share of churning bytes */
#define SLACK_PERSIST 0.01L    /* block rounding of long-lived tensors */
#define SLACK_SHARDED 0.25L    /* ZeRO-3/FSDP gather buffers fragment more */
/* bytes per quantized weight, by est_quant (gptq and awq: quant_weight_bytes) */
static const long double quant_bytes[] = {2, 1.0L, 0.5L + 4.0L / 64, 0.5L + 1.0L / 64 + 4.0L / (64 * 256)};

/* gptq and awq: 4 bits, and per group of quant_group inputs (default 128)
 * an fp16 scale and a 4-bit zero for each output
 * (AutoGPTQ/AutoGPTQ:auto_gptq/nn_modules/qlinear/qlinear_cuda_old.py
 * @179776bd, pack: qweight and qzeros int32-packed, scales .half()); GPTQ's
 * int32 g_idx per input row adds 4 / out_features (< 0.1%), left out, as
 * are the per-channel scales of group -1. */
static long double quant_weight_bytes(const struct est_workload *wl)
{
    if (wl->quant == EST_QUANT_FP8) return 1; /* the scales: est_fp8_weights */
    if (wl->quant != EST_QUANT_GPTQ && wl->quant != EST_QUANT_AWQ) return quant_bytes[wl->quant];
    long double g = wl->quant_group == 0 ? 128 : (long double)wl->quant_group;
    return 0.5L + (g > 0 ? 2.5L / g : 0);
}

/* bitsandbytes' matmuls (int8, nf4) and AutoAWQ's GEMM function keep each
 * quantized linear's input for backward (ctx.tensors / save_for_backward);
 * a GPTQ linear is plain torch ops on its dequantized weight, whose matmul
 * keeps that weight instead (gptq_saved_weights). */
static bool quant_keeps_inputs(const struct est_workload *wl)
{
    return wl->quant != EST_QUANT_NONE && wl->quant != EST_QUANT_GPTQ;
}

struct calc {
    bool hdrop, adrop;     /* hidden / attention-probability dropout in training */
    const struct est_model *m;
    const struct est_workload *wl;
    const struct fam *f;
    long double a, r;      /* activation bytes; residual-stream / norm-input bytes */
    bool mixed, full, ds;  /* autocast on fp32 weights; full fine-tune; DeepSpeed-style ZeRO */
    bool ac16;             /* autocast on 16-bit weights (fp16-/bf16-autocast) */
    bool kbit;             /* prepare_model_for_kbit_training: fp32 outside the quantized linears */
    long double P, Ptrain, Plin, Pbig;
    long double T, L, h, qd, kvd, ffn, V;
    bool fsdp_mp; /* FSDP2 mixed precision (torchtitan): fp32 shards, bf16 gathers, no autocast */
    long double fp8_params, fp8_scales; /* quant fp8: the linears held in fp8, their scales' bytes */
    int64_t N;
};


static int calc_init(struct calc *c, const struct est_model *m, const struct est_workload *wl,
                     struct oomlab_err *err)
{
    int64_t total, train;
    struct acc a = {0, false};
    memset(c, 0, sizeof *c);
    c->m = m;
    c->wl = wl;
    c->f = &fams[m->family];
    if (est_params(m, wl, &total, &train, err)) return -1;
    c->P = (long double)total;
    c->Ptrain = (long double)train;
    c->Plin = (long double)block_linear_params(m, &a);
    if (wl->quant == EST_QUANT_FP8) {
        int64_t fp8, scales, kept;
        if (est_fp8_weights(m, wl, &fp8, &scales, &kept, err)) return -1;
        c->fp8_params = (long double)fp8;
        c->fp8_scales = (long double)scales;
    }
    c->Pbig = (long double)m->vocab * (long double)(m->embed_proj ? m->embed_proj : m->hidden);
    c->mixed = is_mixed(wl->precision);
    c->ac16 = is_autocast16(wl->precision);
    c->full = wl->lora_r == 0;
    c->ds = ds_engine(wl);
    c->a = wl->precision == EST_FP32 ? 4 : 2;
    c->fsdp_mp = c->mixed && wl->shard == EST_SHARD_FSDP && wl->trainer == EST_TRAINER_TORCHTITAN;
    /* FSDP2's MixedPrecisionPolicy casts the gathered parameters to bf16 and
     * runs no autocast: the residual stream is 16-bit like everything else.
     * DeepSpeed's bf16/fp16 runs no autocast either: accelerate leaves
     * native_amp off under DeepSpeed (accelerator.py@02a8a9a3, "Mixed
     * precision attributes") and the engine casts the module to 16-bit, so
     * the weights are 16-bit (weight_bytes) and so is the residual stream. */
    c->r = (wl->precision == EST_FP32 || (c->mixed && !c->fsdp_mp && !c->ds)) ? 4 : 2;
    /* autocast on 16-bit weights: layer_norm is on autocast's fp32 list, so
     * a post-LN encoder's (BERT) residual stream, the LayerNorm's output, is
     * fp32; pre-LN models add 16-bit sublayer outputs to a 16-bit stream */
    if (c->ac16 && c->f->encoder) c->r = 4;
    /* PEFT's prepare_model_for_kbit_training casts every 16-bit parameter
     * that is not Params4bit to fp32 (huggingface/peft:src/peft/utils/
     * other.py@5d602fdbf; the same cast since 0.4): the embedding's output,
     * the residual stream and the norms are fp32, and bitsandbytes'
     * Linear4bit returns `out.to(inp_dtype)`, fp32 too, so every activation
     * is fp32 but the 16-bit copies the quantized linears take of their
     * inputs (lora_layer). It skips GPTQ models (`if not is_gptq_quantized`):
     * their activations stay 16-bit. */
    /* TRL's SFTTrainer (huggingface/trl:trl/trainer/sft_trainer.py@v0.13.0
     * l.176-232) runs prepare_model_for_kbit_training on a 4-bit model that
     * is not sharded-QLoRA, then, under bf16, peft_module_casting_to_bf16
     * (trl/trainer/utils.py@v0.13.0 l.872): modules named "norm" to fp32,
     * lm_head / embed_tokens back to bf16. The residual stream is still
     * fp32: the fp32 RMSNorm weight times its bf16-cast input is fp32 (the
     * multiply is no autocast op), Linear4bit returns `out.to(inp_dtype)`,
     * so the MLP's down projection adds an fp32 output to the stream and
     * every block after the first gets an fp32 input. Only the weights
     * differ from --kbit-prep (weight_bytes). */
    c->kbit = (wl->kbit_prep || wl->kbit_trl) && quant_keeps_inputs(wl) && is16(wl->precision) && wl->mode == EST_MODE_TRAIN;
    if (c->kbit) c->a = c->r = 4;
    c->T = (long double)wl->batch * (long double)wl->seq;
    c->L = (long double)m->layers + 1.5L * (long double)m->decoder_layers;
    c->h = (long double)m->hidden;
    c->qd = (long double)m->heads * (long double)m->head_dim;
    c->kvd = (long double)m->kv_heads * (long double)m->head_dim;
    c->ffn = (long double)m->ffn;
    c->V = (long double)m->vocab;
    c->N = wl->gpus;
    c->hdrop = m->dropout ? m->dropout == 1 : c->f->hidden_dropout;
    /* --dropout is train mode with the config's probabilities: it cannot
     * turn on a dropout whose p the family's config sets to 0 */
    c->adrop = m->dropout ? m->dropout == 1 && !c->f->attn_p0 : c->f->attn_dropout;
    return 0;
}

static unsigned lora_bits(const struct est_workload *wl)
{
    if (wl->lora_r <= 0) return EST_LORA_ALL;
    return wl->lora_targets ? wl->lora_targets : (EST_LORA_Q | EST_LORA_V);
}

/* Kernels that materialize the score matrix: eager, and torch's math SDPA. */

/* Bytes saved per score element (one head, one query, one key) by eager
 * attention: softmax output (fp32 when upcast), the 16-bit copy the next
 * matmul keeps, OPT's clamp input, dropout mask and output. torch's math
 * SDPA (_scaled_dot_product_attention_math: q and k scaled, matmul, the mask
 * added in place, softmax, matmul) runs below autocast in the inputs' dtype:
 * the softmax output, a B, which the last matmul keeps too; dropout adds its
 * mask and output. */
/* Whether eager attention's softmax output is fp32. softmax is on
 * autocast's fp32 list, and fp32 weights make fp32 scores; otherwise the
 * code decides. HF's eager attention of the families marked softmax_fp32
 * calls softmax(scores, dim=-1, dtype=torch.float32) (the Llama-family
 * eager_attention_forward and its copies), and so does litgpt's one eager
 * path, Gemma-2's logit softcapping (CausalSelfAttention.
 * scaled_dot_product_attention: `F.softmax(scores, dim=-1,
 * dtype=torch.float).to(dtype=q.dtype)`). Own model code (--trainer
 * torchtune with --attention eager: torchtune's own modules call SDPA)
 * calls softmax on the 16-bit scores as they are:
 * rasbt/reasoning-from-scratch:reasoning_from_scratch/qwen3.py@4c0c4cc
 * GroupedQueryAttention.forward (`torch.softmax(attn_scores /
 * self.head_dim**0.5, dim=-1)` on the bf16 scores of a pure bf16 model),
 * nanoGPT's `F.softmax(att, dim=-1)`. */
static bool softmax_upcast(const struct calc *c)
{
    if (c->a == 4 || c->mixed || c->ac16) return true;
    return c->f->softmax_fp32 && c->wl->trainer != EST_TRAINER_TORCHTUNE;
}

static long double eager_elem(const struct calc *c)
{
    if (c->wl->attention == EST_ATTN_SDPA_MATH) return c->a + (c->adrop ? 1 + c->a : 0);
    long double sm = softmax_upcast(c) ? 4 : c->a;
    bool cast = sm == 4 && c->a < 4;
    long double extra = c->f->eager_extra ? c->a : 0;
    /* what the probabilities' matmul keeps: the 16-bit cast of the fp32
     * softmax (HF's .to(query.dtype) / .type(value.dtype), or autocast's
     * own cast of its fp32 input), else the softmax output; a dropout
     * between them keeps its bool mask, and its output is that tensor: the
     * fp32 output of a dropout on the fp32 probabilities (an encoder under
     * autocast) is not kept, the matmul keeps its 16-bit cast (checked on
     * torch 1.13: bench/estimate-oracle's encoder_block_check, bf16-mixed,
     * and the GPT-2 block under bf16-autocast with dropout) */
    long double kept = cast ? c->a : (c->adrop ? sm : 0);
    return sm + extra + (c->adrop ? 1 : 0) + kept;
}

/* Autocast casts an fp32 activation anew for every op that takes it:
 * cached_cast caches only leaf tensors that require grad (the parameters;
 * pytorch/pytorch:aten/src/ATen/autocast_mode.cpp, can_try_cache), so
 * separate q, k and v linears on one fp32 input each keep their own 16-bit
 * copy for the weight's gradient, as gate and up do (checked on torch 1.13:
 * bench/estimate-oracle's encoder_block_check under bf16-mixed, a non-leaf
 * fp32 block input: three casts). Linear inputs are fp32 under autocast on
 * fp32 weights (-mixed, the fp32 residual stream and norm outputs; not
 * DeepSpeed's engine nor FSDP2's mixed precision, which run no autocast)
 * and, on 16-bit weights, after a LayerNorm (layer_norm is on autocast's
 * fp32 list; an RMSNorm returns the input's 16-bit dtype). Fused q,k,v
 * (fused_qkv) and Phi-3's gate_up_proj are one linear. Extra bytes per token
 * and block over the one cast act_layer counts per input; full training. */
static bool fused_qkv(const struct calc *c);
static long double autocast_recasts(const struct calc *c)
{
    if (!c->full || c->wl->mode != EST_MODE_TRAIN || c->m->experts || c->wl->quant != EST_QUANT_NONE) return 0;
    bool fp32_in = (c->mixed && !c->ds && !c->fsdp_mp) || (c->ac16 && !c->f->rms);
    if (!fp32_in || c->a >= 4) return 0;
    long double n = fused_qkv(c) ? 0 : 2;
    if (gated(c->m) && !c->f->fused_gate_up) n += 1;
    return n * c->a * c->h;
}

double est_lora_dropout(const struct est_workload *wl)
{
    if (wl->lora_dropout >= 0) return wl->lora_dropout;
    return wl->trainer == EST_TRAINER_LITGPT ? 0.05 : 0; /* PEFT and torchtune default to 0 */
}

/* LoRA, per token and block: the frozen linears keep no input (autograd
 * saves an operand only for a gradient it needs) unless bitsandbytes'
 * 4/8-bit matmul keeps it anyway (every linear under --quant). Each adapter
 * with dropout keeps its dropout output (a B) and bool mask (1 B) per input
 * element; without dropout its lora_A keeps the input itself, shared with
 * the other adapters on the same input. Every adapter's lora_B keeps its
 * input, lora_A's r-wide output (a r). Adapters are one per targeted
 * linear, except litgpt's fused q,k,v (one adapter on the qkv input). */
/* One q,k,v projection, so one adapter on it: litgpt's attn, and the HF
 * families whose attention is one fused linear (GPT-2 c_attn, GPT-NeoX,
 * Falcon and BLOOM query_key_value, Phi-3 qkv_proj), which PEFT targets as
 * a whole. */
static bool fused_qkv(const struct calc *c)
{
    enum est_family f = c->m->family;
    return c->wl->trainer == EST_TRAINER_LITGPT || ((unsigned)f < EST_FAM__COUNT && fams[f].fused_qkv);
}

/* PEFT creates each adapter as a plain nn.Linear (fp32) and casts it to the
 * base layer's weight dtype only when that dtype is floating point
 * (huggingface/peft:src/peft/tuners/lora/layer.py@v0.10.0, update_layer:
 * `if weight.dtype.is_floating_point ...: self.to(weight.device,
 * dtype=weight.dtype) else: self.to(weight.device)`). bitsandbytes stores
 * 4-bit weights as uint8 unless `quant_storage` says otherwise
 * (quantize_4bit's default, functional.py@0.43.0) and 8-bit ones as int8, so
 * on a single GPU or under DDP/ZeRO-1/2 the adapters of a PEFT QLoRA model
 * stay fp32: fp32 gradients and AdamW states, and, outside autocast, each
 * adapted layer runs its adapter on `x.to(lora_A.weight.dtype)`, an fp32 copy
 * (peft/tuners/lora/bnb.py@v0.10.0, Linear4bit/Linear8bitLt.forward). Under
 * FSDP or ZeRO-3 the 4-bit data is stored in the model's dtype
 * (bnb_4bit_quant_storage, which transformers asks for with FSDP/ZeRO-3;
 * fsdp_qlora passes quant_storage=torch_dtype), so the adapters follow it.
 * litgpt and torchtune build their adapters in the model's dtype. */
/* PEFT from 0.12 also upcasts adapters built on a 16-bit floating base:
 * get_peft_model(..., autocast_adapter_dtype=True) by default, and
 * BaseTuner._cast_adapter_dtype turns every float16/bfloat16 adapter
 * parameter into float32 (huggingface/peft#1706, ae1ae20b7, 2024-05-16, first
 * in v0.12.0: mapping.py and tuners/tuners_utils.py@v0.12.0). Linear.forward
 * still runs each adapter on `x = x.to(lora_A.weight.dtype)`
 * (tuners/lora/layer.py@v0.13.0; `_cast_input_dtype` from v0.15.0), so each
 * adapter gets its own copy of the input (lora_layer). --peft
 * below 0.12 keeps the old rule. DeepSpeed's engine casts the whole module
 * to its fp16/bf16 dtype at initialisation (ds_engine: its own fp32
 * master), and sharded QLoRA asks for bf16 adapters (TRL passes
 * autocast_adapter_dtype=False; the quant_storage rule below). */
static bool peft_fp32_adapters(const struct calc *c)
{
    const struct est_workload *wl = c->wl;
    if (wl->trainer != EST_TRAINER_HF || wl->lora_r <= 0) return false;
    if (wl->quant == EST_QUANT_NONE)
        return !wl->peft_old && is16(wl->precision) && !ds_engine(wl);
    if (wl->quant_storage == EST_QSTORE_MODEL && wl->quant != EST_QUANT_INT8) return false;
    if (wl->quant_storage == EST_QSTORE_AUTO && (wl->shard == EST_SHARD_FSDP || wl->shard == EST_SHARD_ZERO3))
        return false;
    return is16(wl->precision); /* fp32: already; autocast: the adapters compute in 16-bit */
}

/* --explain's name for fp32 PEFT adapters' gradients. */
static const char *peft_adapters_why(const struct calc *c)
{
    return c->wl->quant == EST_QUANT_NONE
               ? "trainable (PEFT >= 0.12's adapters: fp32 on a 16-bit base, autocast_adapter_dtype; --peft 0.11: 16-bit)"
               : "trainable (PEFT's adapters: fp32 on integer-stored quantized weights)";
}

/* PEFT >= 0.12's fp32 adapters on a 16-bit float base (not quantized):
 * every adapter works on its own x.to(fp32) (peft_fp32_adapters). */
static bool own_input_copies(const struct calc *c)
{
    return c->wl->quant == EST_QUANT_NONE && peft_fp32_adapters(c);
}

static long double lora_layer(const struct calc *c)
{
    const struct est_workload *wl = c->wl;
    unsigned t = lora_bits(wl);
    long double a = c->a, h = c->h, qd = c->qd, f = c->ffn;
    bool gated_mlp = gated(c->m);
    /* distinct linear inputs: q/k/v (h), o (qd), gate/up (h), down (f) */
    unsigned qkv = t & (EST_LORA_Q | EST_LORA_K | EST_LORA_V), up = t & (EST_LORA_GATE | EST_LORA_UP);
    unsigned keep = quant_keeps_inputs(wl) ? EST_LORA_ALL : t;
    long double sum = 0, p = (long double)est_lora_dropout(wl);
    /* MoE: the MLP linears see every token once per chosen expert */
    long double k = c->m->experts ? (long double)c->m->experts_per_token : 1;
    if (c->kbit) {
        /* fp32 inputs: each bitsandbytes linear keeps its own 16-bit copy,
         * `x.to(self.compute_dtype)` (bitsandbytes nn/modules.py@0.43.0,
         * Linear4bit.forward; MatMul4Bit keeps it on ctx) */
        long double n_in = fused_qkv(c) ? 1 : 3, n_up = gated_mlp ? 2 : 1;
        sum += 2 * (n_in * h + qd + k * (n_up * h + f));
    } else if ((quant_keeps_inputs(wl) || p == 0) && !own_input_copies(c)) { /* the inputs themselves, once each */
        /* one norm feeding attention and MLP in parallel (Falcon, Phi): the
         * q/k/v and the MLP's first linears read the same tensor */
        bool shared = c->f->norms_per_layer == 1 && !c->m->experts && (keep & (EST_LORA_Q | EST_LORA_K | EST_LORA_V));
        if (keep & (EST_LORA_Q | EST_LORA_K | EST_LORA_V)) sum += a * h;
        if (keep & EST_LORA_O) sum += a * qd;
        if ((keep & (EST_LORA_GATE | EST_LORA_UP)) && !shared) sum += a * k * h;
        if (keep & EST_LORA_DOWN) sum += a * k * f;
    }
    long double n_qkv = fused_qkv(c) ? (qkv ? 1 : 0)
                        : (long double)(!!(t & EST_LORA_Q) + !!(t & EST_LORA_K) + !!(t & EST_LORA_V));
    long double n_up = gated_mlp ? (long double)(!!(t & EST_LORA_GATE) + !!(t & EST_LORA_UP)) : (up ? 1 : 0);
    long double n_o = (t & EST_LORA_O) ? 1 : 0, n_down = (t & EST_LORA_DOWN) ? 1 : 0;
    /* the adapters' own activation bytes: fp32 on PEFT's fp32 adapters */
    long double la = peft_fp32_adapters(c) ? 4 : a;
    long double widths = n_qkv * h + n_o * qd + k * (n_up * h + n_down * f);
    if (own_input_copies(c)) {
        /* a 16-bit float base: the frozen base linears keep nothing, so the
         * block's inputs above are not kept; each adapter's x.to(fp32) is
         * its own. Outside autocast lora_A keeps that fp32 copy (or the
         * dropout's fp32 output); under autocast lora_A keeps its own
         * 16-bit cast of it, and dropout's output is that cast's input,
         * not kept (checked on torch 1.13: bench/estimate-oracle's peft 0.13 points) */
        la = c->ac16 ? a : 4;
        sum += (p > 0 ? la + 1 : la) * widths;
    } else if (p > 0) /* one dropout output + mask per adapter */
        sum += (la + 1) * widths;
    else if (la != a) /* each adapter's lora_A keeps its own fp32 copy of the input */
        sum += la * widths;
    /* litgpt's LoRAQKVLinear (litgpt/lora.py@5895df10): lora_A is stacked for
     * the enabled q/k/v, so the grouped lora_B (conv1d) keeps r x n; zero_pad
     * then index_copy's the enabled parts into the fused width unless all
     * three are enabled, and index_copy's backward (derivatives.yaml:
     * `source: grad.index_select(dim, index).expand_as(source)`) keeps that
     * source, a reshaped copy of lora_B's output */
    long double n_b = n_qkv;
    if (wl->trainer == EST_TRAINER_LITGPT && qkv) {
        n_b = (long double)(!!(t & EST_LORA_Q) + !!(t & EST_LORA_K) + !!(t & EST_LORA_V));
        if (qkv != (EST_LORA_Q | EST_LORA_K | EST_LORA_V))
            sum += a * ((t & EST_LORA_Q ? qd : 0) + (t & EST_LORA_K ? c->kvd : 0) + (t & EST_LORA_V ? c->kvd : 0));
    }
    sum += la * (long double)wl->lora_r * (n_b + n_o + k * (n_up + n_down)); /* lora_B inputs */
    return sum;
}

/* What one norm saves per token. LayerNorm keeps its input (r h) and its
 * fp32 mean and rstd (8 B). RMSNorm in 16-bit or under autocast computes on
 * x.float(): that fp32 tensor (4h) is what pow and the rsqrt product keep
 * (not the 16-bit input; x.float() is the input itself when the residual
 * stream is fp32), with the fp32 rsqrt (4 B); the normalized tensor (r h:
 * 16-bit, fp32 under autocast; a h in fp32) is kept only when the norm's
 * weight trains. HF, torchtune and litgpt write RMSNorm this way. */
static long double norm_bytes(const struct calc *c)
{
    long double h = c->h;
    /* autocast on 16-bit weights: layer_norm runs on an fp32 cast of its
     * input (autocast's fp32 list), and that cast is what it keeps */
    if (!c->f->rms) return (c->ac16 ? 4 : c->r) * h + 8;
    /* Gemma 3: x.float() (the input itself when it is fp32), the rsqrt and
     * the fp32 normalized tensor when the weight trains */
    if (c->f->norm_fp32_out) return 4 * h + 4 + (c->full ? 4 * h : 0);
    if (c->a < 4) return 4 * h + 4 + (c->full ? c->r * h : 0);
    return c->r * h + 4 + (c->full ? c->a * h : 0);
}

/* Whether a norm keeps its input tensor itself (then a recomputed block's
 * first norm shares the checkpointed input's storage). */
static bool norm_keeps_input(const struct calc *c) { return (!c->f->rms && !c->ac16) || c->r == 4; }

/* Activation bytes one block saves for backward, per token. */
/* ffn-sized tensors a plain MLP's activation keeps for backward: the family's
 * HF modeling code (fams[].act_saves) under --trainer hf; litgpt, torchtune
 * and torchtitan call fused F.gelu / silu (their own model code). */
static long double act_saves(const struct calc *c)
{
    if (c->wl->trainer != EST_TRAINER_HF || c->f->act_saves <= 1) return 1;
    return c->f->act_saves;
}

/* Qwen3's q_norm and k_norm, per token: each is an RMSNorm over every head
 * of q (k) as HF writes it (Qwen3RMSNorm: x.to(float32), pow, mean, rsqrt,
 * weight * x.to(input_dtype)): the fp32 copy of the projection's output (4
 * B per element; the output itself in fp32), the fp32 rsqrt per head, and
 * the normalized tensor in the projection's dtype when the norm's weight
 * trains. Llama keeps none of the q, k projection outputs: rotary's muls
 * keep cos and sin only. Checked by bench/estimate-oracle's Qwen3 block. */
static long double qk_norm_bytes(const struct calc *c)
{
    if (!c->f->qk_norm) return 0;
    /* one rsqrt per head, or per token for a whole-projection norm */
    long double heads = c->f->qk_norm == 2 ? 2 : (long double)c->m->heads + (long double)c->m->kv_heads;
    long double normed = c->full ? (c->f->norm_fp32_out ? 4 : c->a) : 0;
    return (4 + normed) * (c->qd + c->kvd) + 4 * heads;
}

/* What the family's own modelling code adds to a block's saved set, in
 * words (--explain's activations line). */
static const char *family_act_note(const struct calc *c)
{
    if (act_saves(c) > 1) return "; HF's Python gelu_new keeps 4 ffn-sized tensors";
    if (c->f->qk_norm) return "; q_norm/k_norm keep fp32 q, k (and the normalized ones when they train)";
    if (c->f->hidden_drops == 1 && c->hdrop) return "; one hidden dropout per block (after the MLP)";
    return "";
}

/* A sparse-MoE block's saved set per token, `expert` being what one dense
 * expert MLP keeps for its routed tokens. transformers' loop
 * (MixtralSparseMoeBlock, Qwen3MoeSparseMoeBlock; transformers:src/
 * transformers/models/qwen3_moe/modeling_qwen3_moe.py@00d4b3d2, the loop
 * bench/estimate-oracle-moe runs): the router Linear keeps its input (the
 * post-attention norm's output) when it trains; softmax(dtype=float) keeps
 * its fp32 output (4 E), topk its int64 indices (8 k), the in-place
 * renormalisation its fp32 result and the sum (4 k + 4). Per routed
 * (token, expert) pair: the expert's own set on the gathered copy
 * `hidden_states[None, top_x]` (kept as the expert's input when its linears
 * train); `expert(x) * routing_weights[top_x, idx, None]` keeps the
 * expert's output (a h) and the gathered weight (a); index_add_ keeps its
 * source, the product (a h: derivatives.yaml's index_add `source:
 * grad.index_select(dim, index).expand_as(source)` saves it, torch 1.13 and
 * current); top_x and idx are int64 (16). Real torch 1.13, fp32 and bf16,
 * full and frozen experts, k 2 and 8: exact (bench/estimate-oracle-moe).
 * torchtitan's (and prime-rl's) grouped-mm MoE routes differently (argsort,
 * _grouped_mm, scatter_add) and keeps the older count k x expert + 4 E,
 * not derived. */
static long double moe_saved(const struct calc *c, long double expert, bool lin)
{
    long double k = (long double)c->m->experts_per_token, E = (long double)c->m->experts;
    if (c->wl->trainer == EST_TRAINER_TORCHTITAN) return expert * k + 4 * E;
    long double a = c->a, h = c->h;
    return (lin ? a * h : 0) + 4 * E + 12 * k + 4 + k * (expert + 2 * a * h + a + 16);
}

/* DeepSeek-V3's attention beyond the MHA terms act_layer counts with q and
 * k heads x head_dim wide (DeepseekV3Attention, modeling_deepseek_v3.py
 * @00b676f8): the latents q_a_proj and kv_a_proj_with_mqa output (q_lora_rank,
 * kv_lora_rank + qk_rope_head_dim), kept by their RMSNorms, and the normed
 * latents q_b_proj and kv_b_proj keep when they train; V and the output
 * projection's input are heads x v_head_dim, not heads x head_dim. An
 * estimate from the module's shapes, not checked against autograd (no
 * DeepSeek block in bench/estimate-oracle). */
static long double mla_saved(const struct calc *c, bool lin)
{
    const struct est_model *m = c->m;
    long double a = c->a, lat = (long double)(m->q_lora_rank + m->kv_lora_rank + m->rope_dim);
    long double narrow = (long double)m->heads * (long double)(m->head_dim - m->v_head_dim);
    return a * lat * (lin ? 2 : 1) - a * narrow * (lin ? 2 : 1);
}

/* The MLPs of the families with shared experts, averaged over the layers:
 * the shared expert (a gated MLP of shared_ffn on the same input as the
 * router) beside the routed experts (moe, moe_saved's figure), and the
 * first dense_layers dense gated MLPs of dense_ffn. Qwen2-MoE's
 * `sigmoid(shared_expert_gate(x)) * shared_expert(x)` keeps the shared
 * output (a h) and the sigmoid's (a); the gate Linear keeps nothing new (its
 * input is the router's). */
static long double deepseek_mlp_saved(const struct calc *c, long double moe, bool lin)
{
    const struct est_model *m = c->m;
    long double a = c->a, h = c->h, sf = (long double)m->shared_ffn, df = (long double)m->dense_ffn;
    long double L = (long double)m->layers, dl = (long double)m->dense_layers;
    long double sparse = moe + 3 * a * sf + (lin ? a * sf : 0) + (c->f->shared_gate ? a * h + a : 0);
    long double dense = 3 * a * df + (lin ? a * (h + df) : 0);
    return (dl * dense + (L - dl) * sparse) / L;
}

static long double act_layer(const struct calc *c, bool with_scores)
{
    const struct est_workload *wl = c->wl;
    /* Full training: every linear keeps its input. LoRA: lora_layer. */
    bool lin = c->full, flash = wl->attention == EST_ATTN_FLASH;
    long double a = c->a, h = c->h, f = c->ffn, sum = 0;
    if (!c->full) sum += lora_layer(c);
    sum += c->f->norms_per_layer * norm_bytes(c);
    if (lin) sum += a * h + autocast_recasts(c);
    /* K and V as attention saves them: HF (repeat_kv), torchtune and litgpt
     * expand grouped KV heads to every query head before eager or SDPA
     * attention; flash-attn takes the groups as they are. */
    long double kv_saved = flash ? c->kvd : c->qd;
    if (c->f->qkv_view && wl->trainer == EST_TRAINER_HF) {
        /* transformers' GPTNeoXAttention._attn_projections_and_rope: value is
         * qkv[..., 2d:].permute(...), a view, so the saved value keeps the
         * whole fused qkv output alive; query and key are rebuilt by
         * torch.cat(rotary part, pass part), and the rotary part is fp32
         * (cos/sin caches are fp32 buffers): eager's baddbmm saves those fp32
         * q, k; SDPA and flash-attn save the 16-bit casts (`query.to(
         * value.dtype)`), transformers:src/transformers/models/gpt_neox/
         * modeling_gpt_neox.py@006bd23 */
        if (with_scores && wl->attention == EST_ATTN_EAGER)
            /* eager: baddbmm keeps the fp32 q, k; matmul(attn_weights,
             * value) reshapes the permuted value view into a copy, which bmm
             * keeps, so the fused qkv output itself is kept only by the
             * presents (presents_extra). Checked by bench/estimate-oracle's
             * NeoX block. */
            sum += 4 * (c->qd + c->kvd) + a * c->kvd;
        else
            sum += a * (c->qd + 2 * c->kvd) + a * (c->qd + c->kvd);
    } else {
        sum += a * (c->qd + 2 * kv_saved);
    }
    /* litgpt's CausalSelfAttention: with as many KV heads as query heads, v
     * is qkv.view(...).permute(...).split(...) reshaped without a copy, so
     * the v that attention saves keeps the whole fused qkv output alive, q
     * and k parts included; q and k themselves are new tensors (apply_rope,
     * torch.cat). Grouped heads are expanded and reshaped: copies, no view
     * (Lightning-AI/litgpt:litgpt/model.py@5895df10, CausalSelfAttention.forward) */
    if (wl->trainer == EST_TRAINER_LITGPT && c->m->kv_heads == c->m->heads) sum += a * (c->qd + c->kvd);
    /* GPT-2's fused c_attn under torch's math SDPA: q and k are scaled
     * (new tensors) before the matmul; at batch 1 at::matmul folds v (B, H,
     * T, D) into (H, T, D) as a view, which keeps the whole fused output (at
     * batch > 1 the fold copies v). Eager and the fused kernels keep q, k, v
     * views of that one output. */
    else if (wl->attention == EST_ATTN_SDPA_MATH && c->m->family == EST_FAM_GPT2 && wl->batch == 1)
        sum += a * (c->qd + c->kvd);
    /* GPTNeoXLayer with use_parallel_residual: input_layernorm and
     * post_attention_layernorm both normalize hidden_states; autograd keeps
     * that one tensor once (the two LayerNorms' own mean/rstd stay) */
    if (c->f->shared_ln_in && wl->trainer == EST_TRAINER_HF && norm_keeps_input(c)) sum -= c->r * h;
    if (with_scores)
        sum += eager_elem(c) * (long double)c->m->heads * (long double)wl->seq;
    else
        sum += a * c->qd + 4 * (long double)c->m->heads;
    /* the output projection's input: a copy of the attention output
     * (transpose(1, 2).contiguous() of the (B, H, T, D) result), except under
     * flash-attn, whose (B, T, H, D) output it views */
    if (lin && !(flash && !with_scores)) sum += a * c->qd;
    if (c->hdrop) sum += (c->f->hidden_drops ? c->f->hidden_drops : 2) * h;
    sum += qk_norm_bytes(c);
    /* gated: gate, up and act outputs; plain: the activation's input, or
     * what an unfused activation keeps (act_saves) */
    long double mlp = (gated(c->m) ? 3 : act_saves(c)) * a * f + (lin ? a * (h + f) : 0);
    /* ReLU (fams[].act_out): its kept result is fc2's input */
    if (!gated(c->m) && c->f->act_out) mlp = a * f + (lin ? a * h : 0);
    if (c->m->experts) mlp = moe_saved(c, mlp, lin);
    if (c->m->kv_lora_rank) sum += mla_saved(c, lin);
    if (c->m->shared_ffn || c->m->dense_layers) mlp = deepseek_mlp_saved(c, mlp, lin);
    return sum + mlp;
}

static bool compiled_blocks(const struct calc *c);
static bool op_sac_compiled_skips_last(const struct calc *c, int i, int n);

/* torchtitan's op-level selective checkpointing, per token and block: the
 * block's input, the fused attention kernel's output and logsumexp, and the
 * outputs of the 1st, 3rd, 5th... matmul in forward order (q, k, v, o, then
 * gate, up, down or fc1, fc2); everything else is recomputed. */
static long double act_layer_op(const struct calc *c)
{
    long double mm[7] = {c->qd, c->kvd, c->kvd, c->h};
    int n = 4;
    if (gated(c->m)) { mm[n++] = c->ffn; mm[n++] = c->ffn; }
    else mm[n++] = c->ffn;
    mm[n++] = c->h;
    long double sum = c->r * c->h;
    for (int i = 0; i < n; i += 2)
        if (!op_sac_compiled_skips_last(c, i, n)) sum += c->a * mm[i];
    if (!scores_kept(c->wl->attention)) sum += c->a * c->qd + 4 * (long double)c->m->heads;
    return sum;
}

/* ---- torch.compile (--compile) ---------------------------------------
 * AOTAutograd traces forward and backward into one joint graph and
 * min_cut_rematerialization_partition (torch 1.13 functorch/_src/
 * partitioners.py; torch >= 2.0 torch/_functorch/partitioners.py, called by
 * inductor with compiler="inductor") picks the forward values backward
 * gets by a minimum cut: matmuls, the fused attention kernels and random
 * ops are never recomputed, pointwise ops, casts, views and copies are, and
 * a reduction whose output is 4x smaller than its input (a norm's mean,
 * rstd) is saved. What that leaves per block, as bench/estimate-oracle
 * measures it on torch 1.13 (each block compiled by aot_module with the
 * partitioner, as torchtitan and torchtune compile per block): the block's
 * input, each norm's statistics and output (the next matmul's input), the
 * residual after attention, q, k, v as the attention kernel takes them, its
 * output and fp32 logsumexp, the output projection's input (a transposed
 * copy, but flash-attn's view), the MLP's matmul outputs (gated: gate, up,
 * their product; plain: fc's output) and the dropout masks. RMSNorm's fp32
 * x.float(), SiLU's output and the intermediates of HF's Python gelu_new
 * are recomputed. Torch 2 also keeps what backward's matmuls and SDPA read
 * (compile_bans_materialized): the plain MLP's activation output and K/V
 * expanded for SDPA, which 1.13 recomputes. Eager attention under compile
 * keeps its score tensors as eager does, with q and the expanded K and V as
 * the score matmuls take them. LoRA and quantized linears are not modelled
 * (their eager terms stay). */
static bool compiled_blocks(const struct calc *c)
{
    const struct est_workload *wl = c->wl;
    return wl->compiled && wl->mode == EST_MODE_TRAIN && c->full && wl->quant == EST_QUANT_NONE &&
           wl->trainer != EST_TRAINER_LLMC;
}

/* The op policy under torch.compile. Eager SAC keeps the output of every
 * op the policy marks MUST_SAVE, whether backward reads it or not:
 * _CachingTorchDispatchMode.__torch_dispatch__ appends each MUST_SAVE
 * output to its storage, which the recompute pops in backward
 * (pytorch/pytorch:torch/utils/checkpoint.py as stored in the search
 * index's torch 2.4+ copies, not read at 1963fc8, the benchmark page's
 * torch; CheckpointPolicy's docstring: saving "additional tensors not
 * limited to ones that are actually needed for gradient computation").
 * The block's last matmul, a gated
 * MLP's down projection (the 7th mm, odd, so saved), only feeds the
 * residual add, whose backward reads nothing: eager keeps it anyway. With
 * the block compiled (torchtitan apply_compile after apply_ac,
 * torchtitan/parallelisms/parallelize_llama.py@9dec370), the same policy
 * tags the joint graph's nodes and the min-cut partitioner saves only the
 * MUST_SAVE values backward reads, so that output is not saved. A plain
 * MLP's last matmul (the 6th) is recomputed-tagged anyway. */
static bool op_sac_compiled_skips_last(const struct calc *c, int i, int n)
{
    return i == n - 1 && c->wl->ckpt == EST_CKPT_OP && compiled_blocks(c);
}

/* torch >= 2.0's partitioner (torch/_functorch/partitioners.py,
 * should_ban_recomputation; config.ban_recompute_materialized_backward,
 * True by default, read at pytorch/pytorch@00c07b93c9 and config.py
 * @00a1abb4ef) never recomputes a value that a non-fusible backward op reads
 * (a matmul's or SDPA's backward), since backward would materialize it
 * anyway: the activation's output that the down projection's weight
 * gradient reads, K/V expanded for SDPA. functorch 1.13 (--torch 1.x, what
 * bench/estimate-oracle runs) has no such ban and recomputes both. */
static bool compile_bans_materialized(const struct calc *c) { return !c->wl->compile_torch1; }

static long double act_layer_compiled(const struct calc *c, bool with_scores)
{
    long double a = c->a, h = c->h, qd = c->qd, H = (long double)c->m->heads;
    long double norms = (long double)c->f->norms_per_layer, stats = c->f->rms ? 4 : 8;
    long double sum = c->r * h + norms * (stats + a * h);
    /* the second norm's input: the residual after attention (a parallel
     * block, GPT-NeoX or one norm, has none) */
    if (c->f->norms_per_layer >= 2 && !c->f->shared_ln_in) sum += c->r * h;
    if (with_scores) { /* q, K and V expanded, the score bytes, the output projection's input */
        sum += a * 3 * qd + eager_elem(c) * H * (long double)c->wl->seq + a * qd;
        /* GPT-2's math SDPA at batch 1: the saved v is a view that keeps the
         * whole fused c_attn output, compiled or not (act_layer) */
        if (c->wl->attention == EST_ATTN_SDPA_MATH && c->m->family == EST_FAM_GPT2 && c->wl->batch == 1)
            sum += a * (qd + c->kvd);
    } else { /* kernel inputs, output, logsumexp; o_proj's input unless it views the output */
        bool flash = c->wl->attention == EST_ATTN_FLASH;
        /* torch 2: grouped K/V expanded for SDPA (HF repeat_kv, torchtune,
         * litgpt) are SDPA backward's inputs, so kept expanded */
        long double kv = (compile_bans_materialized(c) && !flash) ? qd : c->kvd;
        sum += a * (qd + 2 * kv) + a * qd + 4 * H + (flash ? 0 : a * qd);
    }
    if (c->hdrop) sum += 2 * h; /* two bool dropout masks */
    /* gated: gate, up and their product; plain: fc's output, and the
     * activation's output only when it is a chain of Python ops (HF's
     * gelu_new, act_saves): a fused F.gelu / relu is recomputed from fc's
     * output (bench/estimate-oracle's BERT block check) */
    long double mlp = (gated(c->m) ? 3 : act_saves(c) > 1 || compile_bans_materialized(c) ? 2 : 1) * a * c->ffn;
    if (c->m->experts) mlp = mlp * (long double)c->m->experts_per_token + 4 * (long double)c->m->experts;
    return sum + mlp;
}

const char *est_compile_model(const struct est_workload *wl)
{
    if (!wl->compiled) return NULL;
    if (wl->mode != EST_MODE_TRAIN)
        return "nothing saved for backward: the estimate is the eager one (compiled decoding's CUDA-graph pool "
               "and fused kernels not modelled)";
    if (wl->trainer == EST_TRAINER_LLMC) return "llm.c runs no torch: ignored";
    if (wl->lora_r > 0 || wl->quant != EST_QUANT_NONE)
        return "not modelled for LoRA or quantized linears: eager activation terms";
    if (wl->compile_torch1)
        return "AOTAutograd's min-cut partitioner, functorch 1.13's rules (--torch 1.x; bench/estimate-oracle runs "
               "them): each block keeps its input, norm stats and outputs, the residual, q/k/v as the attention "
               "kernel takes them (K/V grouped), its output and logsumexp, o_proj's input, the MLP's matmul "
               "outputs (and SwiGLU's product, HF gelu_new's output), dropout masks; pointwise ops (SiLU, a fused "
               "GELU, RMSNorm's fp32 cast, repeat_kv) recomputed; the loss path and temporaries as eager";
    return "AOTAutograd's min-cut partitioner, torch 2's rules: each block keeps its input, norm stats and "
           "outputs, the residual, q/k/v as SDPA takes them (K/V expanded where the model expands them; "
           "flash-attn grouped), its output and logsumexp, o_proj's input, the MLP's matmul outputs and the "
           "down projection's input (values a backward matmul or SDPA reads are never recomputed), dropout "
           "masks; pointwise ops (SiLU, RMSNorm's fp32 cast) recomputed; the loss path as its line says "
           "(compiled with torchtitan's loss, or own code whose compiled forward takes the loss: --compile-loss), "
           "temporaries as eager";
}

/* The block's saved bytes per token, compiled or eager. */
static long double block_acts(const struct calc *c, bool with_scores)
{
    return compiled_blocks(c) ? act_layer_compiled(c, with_scores) : act_layer(c, with_scores);
}

struct terms {
    long double w, copies, master, grads, optim, acts, logits, kv, temp_fwd, temp_step;
    long double grads_fwd; /* gradients alive through forward/backward (accumulation) */
    long double host;      /* model states moved to host memory (--offload) */
    bool decode;           /* inference: the peak is a decode step, not prefill */
    bool first_step;       /* inference: that step is the first, the prefill's output still held */
    bool nocache;          /* inference: generation without a KV cache, the last step's full rerun */
    bool autograd;         /* inference: a forward with grad enabled, its graph alive (autograd_forward) */
    bool fuse_load;        /* inference: the peak is AutoAWQ's fuse_layers at load (fuse_load) */
    long double managed;   /* paged optimizer states (managed memory) */
    long double later;     /* --longest-first: a later micro-batch's moment, beyond persist */
    long double init_tmp;  /* training: the model-init transient beside the weights (torchao nf4) */
    long double varlen;    /* --var-len: reserved beyond a fixed-length run (allocator model) */
    int ckpt_phase;        /* block checkpointing: 1 the loss's backward is the peak, 2 a recomputed block,
                              3 the first block recomputed, the later blocks' gradients alive */
    long double grads_ckpt; /* block checkpointing, no gradient kept from earlier: the gradients alive
                               at the recomputed block's moment (ckpt_later_grads) */
    bool loss_fwd;         /* HF: the loss's forward moment outgrows its backward (hf_forward_loss) */
    long double kept;      /* of logits: blocks that only accumulate (gpt-fast's probabilities list):
                              the long-lived slack share, not the churning one */
};

/* bitsandbytes' 4-bit matmul (MatMul4Bit.forward and .backward,
 * bitsandbytes:bitsandbytes/autograd/_functions.py@0.42.0) dequantizes the
 * whole weight of one linear for each call, `F.dequantize_4bit(B,
 * quant_state).to(A.dtype)`, and frees it after: the transient is one
 * linear, the largest the model quantizes. dequantize_4bit returns the
 * dtype the weight was quantized from: fp16 where Params4bit.cuda did
 * `.half()` (bitsandbytes < 0.43) and always under Lightning's plugin
 * (`weight.contiguous().to(device, dtype=torch.half)`,
 * Lightning-AI/pytorch-lightning:src/lightning/fabric/plugins/precision/
 * bitsandbytes.py@2.2.0); computing in bf16 or fp32, `.to(A.dtype)` then
 * holds a second copy beside the fp16 one. int8 keeps the older rule: one
 * block's linears in 16-bit. */
static long double quant_head_params(const struct calc *c);
/* One linear the model quantizes: its inputs and outputs. */
struct qlinear {
    long double in, out;
};

/* The distinct shapes of the linears the model quantizes (k and v, when
 * separate, are narrower than q and left out), into lin; returns how many.
 * A fused q,k,v linear is qd + 2 kvd wide (fused_qkv, the fam table): GPT-2's
 * c_attn Conv1D(3 x embed, embed) (huggingface/transformers:src/transformers/
 * models/gpt2/modeling_gpt2.py), which transformers' bitsandbytes
 * replacement swaps like a Linear; GPTBigCode's c_attn Linear(embed, embed +
 * 2 kv_dim), kv_dim one head under multi_query (models/gpt_bigcode/
 * modeling_gpt_bigcode.py@00574544); Qwen(1)'s c_attn Linear(hidden, 3 x
 * projection_size), projection_size kv_channels x heads (remote code
 * modeling_qwen.py, undefdev/Qwen-7B-Chat@04df5dd5, as the fam table). */
static size_t quant_linears(const struct calc *c, struct qlinear lin[5])
{
    const struct est_workload *wl = c->wl;
    long double h = c->h, f = c->ffn, head = quant_head_params(c);
    bool fused_attn = fused_qkv(c);
    bool fused_up = c->f->fused_gate_up && wl->trainer != EST_TRAINER_LITGPT && gated(c->m);
    size_t n = 0;
    lin[n++] = (struct qlinear){h, fused_attn ? c->qd + 2 * c->kvd : c->qd};
    lin[n++] = (struct qlinear){c->qd, h};
    lin[n++] = (struct qlinear){h, f * (fused_up ? 2 : 1)};
    lin[n++] = (struct qlinear){f, h};
    if (head > 0 && h > 0) lin[n++] = (struct qlinear){h, head / h};
    return n;
}

/* Elements of the largest linear the model quantizes. */
static long double largest_quant_linear(const struct calc *c)
{
    struct qlinear lin[5];
    long double big = 0;
    for (size_t i = 0, n = quant_linears(c, lin); i < n; i++)
        if (lin[i].in * lin[i].out > big) big = lin[i].in * lin[i].out;
    return big;
}

/* AWQ on the ExLlama kernels (transformers' AwqConfig(version="exllama"),
 * integrations/awq.py post_init_awq_exllama_modules): every linear's
 * post_init first repacks its weights from AutoAWQ's GEMM layout,
 * unpack_reorder_pack (casper-hansen/AutoAWQ:awq/utils/packing_utils.py
 * @88e4c76). The shifts are an int64 arange, so `qweight >> shifts` is int64
 * (8 B per weight) before its int8 copy; pack_exllama's `iweight << shifts`
 * is int64 again beside the int8 weights and its int64 sum (1 B per weight):
 * 10 B per weight of one linear at the moment, the old qweight still held
 * (measured on torch 1.13's CPU allocator, bench/estimate-oracle-awqrepack:
 * 10.0 x). The largest linear sets the load peak. */
#define AWQ_REPACK_BYTES 10
static long double awq_repack_temp(const struct calc *c)
{
    const struct est_workload *wl = c->wl;
    bool exllama = wl->quant_kernel == EST_QKERNEL_EXLLAMA || wl->quant_kernel == EST_QKERNEL_EXLLAMA_V2;
    if (wl->quant != EST_QUANT_AWQ || !exllama) return 0;
    return AWQ_REPACK_BYTES * largest_quant_linear(c);
}

/* ExLlama v2 (AwqConfig's default exllama_config {"version": 2,
 * "max_input_len": 2048, "max_batch_size": 8},
 * huggingface/transformers:src/transformers/utils/quantization_config.py
 * @000e2231): exllamav2_post_init allocates one fp16 scratch buffer per
 * device before the repacking, kept with the model, sized by the linear
 * needing most: its dequantized fp16 weight (in x out x 2 + 128 B) and the
 * forward's fp32 output rows (out x max_input_len x max_batch_size x 4 +
 * 128 B) (awq/modules/linear/exllamav2.py@88e4c76, scratch_space_fixed).
 * Its forward dequantizes into that buffer: no temporary of its own. */
#define EXLLAMA_MAX_INPUT_LEN 2048
#define EXLLAMA_MAX_BATCH 8
static long double awq_exllama_scratch(const struct calc *c)
{
    if (c->wl->quant != EST_QUANT_AWQ || c->wl->quant_kernel != EST_QKERNEL_EXLLAMA_V2) return 0;
    struct qlinear lin[5];
    long double most = 0;
    for (size_t i = 0, n = quant_linears(c, lin); i < n; i++) {
        long double need = lin[i].in * lin[i].out * 2 + 128 +
                           lin[i].out * EXLLAMA_MAX_INPUT_LEN * EXLLAMA_MAX_BATCH * 4 + 128;
        if (need > most) most = need;
    }
    return most;
}

/* GPTQ in training (transformers needs use_exllama=False; AutoGPTQ's
 * trainable linears take the torch path, qlinear_cuda_old.py@179776bd
 * forward): the int32 words shifted out per weight (4 B) and their int8
 * copy (1 B) at once, then scales * (weight - zeros) in fp16; in inference
 * the exllama kernels dequantize one linear into an fp16 scratch buffer.
 * AutoAWQ's GEMM dequantizes to fp16 for long inputs. */
static long double dequant_temp(const struct calc *c)
{
    const struct est_workload *wl = c->wl;
    /* fp8 linears quantize their input per token group and multiply fp8 by
     * fp8: no dequantized weight (transformers' FP8Linear, block scales) */
    if (wl->quant == EST_QUANT_NONE || wl->quant == EST_QUANT_FP8) return 0;
    if (wl->quant == EST_QUANT_INT8) return 2 * c->Plin / c->L;
    long double big = largest_quant_linear(c);
    if (wl->quant == EST_QUANT_GPTQ) return big * (wl->mode == EST_MODE_TRAIN ? 5 : 2);
    /* ExLlama v1 without set_tuning_params never reconstructs; v2 dequantizes into its scratch */
    if (wl->quant == EST_QUANT_AWQ) return wl->quant_kernel >= EST_QKERNEL_EXLLAMA ? 0 : big * 2;
    bool fp16_state = wl->bnb_fp16_state || wl->trainer == EST_TRAINER_LITGPT;
    bool fp16_compute = computes_fp16(wl->precision);
    return big * (2 + (fp16_state && !fp16_compute ? (c->kbit ? 2 : c->a) : 0));
}

/* Loading 4-bit weights: bitsandbytes quantizes one weight at a time on the
 * GPU, from its 16-bit copy there (Params4bit.cuda, bitsandbytes 0.42.0:
 * `w = self.data.contiguous().half().cuda(device)`; 0.43.0 _quantize keeps
 * the dtype: `self.data.contiguous().cuda(device)`), then quantize_4bit
 * writes the packed data and the absmax; with double quantization the fp32
 * absmax (4 B per 64) is freed once it is quantized. So loading peaks at the
 * weights + the largest quantized linear's 16-bit copy (+ its fp32 absmax
 * under nf4-dq). transformers' loader (set_module_quantized_tensor_to_device)
 * and Lightning's plugin both go through it, one parameter at a time. */
static long double bnb_load_temp(const struct calc *c)
{
    const struct est_workload *wl = c->wl;
    if (wl->trainer == EST_TRAINER_TORCHTUNE) return 0; /* torchao's to_nf4: torchao_nf4_temp */
    if (wl->quant != EST_QUANT_NF4 && wl->quant != EST_QUANT_NF4_DQ) return 0;
    return largest_quant_linear(c) * (2 + (wl->quant == EST_QUANT_NF4_DQ ? 4.0L / 64 : 0));
}

/* torchtune quantizes each LoRALinear's 16-bit base weight with torchao's
 * to_nf4 on the GPU, once when the model is built on the device
 * (torchtune/modules/peft/lora.py@0914d5cf: to_nf4(linear.weight)) and again
 * for every weight load_state_dict copies in (_register_nf4_dispatch_ops.py:
 * copy_ -> to_nf4(src.to(device)) while the old data is still held). torchao
 * 0.1's NF4Tensor.quantize_tensor_nearest compares every element with the
 * 16 nf4 values: (value - nf4).abs() is numel x 16 bf16 twice at once (the
 * difference and its abs), beside the bf16 input and the scaled blocks
 * (convert_to_norm_float_weight): 68 B per element of the weight being
 * quantized (torchao/dtypes/nf4tensor.py@v0.1). The largest one sets the
 * model-init peak (--torchao 0.1: torchtune pinned torchao==0.1 when its
 * QLoRA tutorial was written, ff594c231). From v0.2.0 (pytorch/ao#196,
 * 6081796bc, 2024-05-01) convert_to_norm_float_weight quantizes in chunks of
 * CHUNK_SIZE = 2^20 elements: beside the bf16 input (2 B per element) it
 * holds the scaled blocks (2 B) and the uint8 indices (1 B), and per chunk
 * the difference and its abs (2^20 x 16 x 2 B each) and the int64 indices
 * of the minimum (8 MiB): 5 B per element + 72 MiB, the default (torchtune
 * pinned torchao 0.3.1 by 2024-08, f9f75bb56). */
#define TORCHAO_CHUNK_TEMP (72.0L * 1024 * 1024)
static long double torchao_nf4_temp(const struct calc *c)
{
    const struct est_workload *wl = c->wl;
    if (wl->trainer != EST_TRAINER_TORCHTUNE) return 0;
    if (wl->quant != EST_QUANT_NF4 && wl->quant != EST_QUANT_NF4_DQ) return 0;
    long double big = c->h * c->ffn;
    if (c->h * c->qd > big) big = c->h * c->qd;
    return wl->torchao01 ? 68 * big : 5 * big + TORCHAO_CHUNK_TEMP;
}

/* Lightning's bitsandbytes plugin (litgpt) replaces every nn.Linear, the
 * lm_head included; HF keeps the output embedding in 16-bit
 * (get_keys_to_not_convert). A tied head is the embedding: never quantized. */
static long double quant_head_params(const struct calc *c)
{
    if (c->wl->trainer != EST_TRAINER_LITGPT || tied(c->m, c->wl)) return 0;
    if (c->f->encoder || c->wl->head != EST_HEAD_LM) return 0;
    return c->Pbig;
}

/* The 4-bit quant state, bytes per quantized weight: nf4's fp32 absmax per
 * 64 (compress_statistics off); nf4-dq's 8-bit absmax per 64 and an fp32
 * scale per 256 blocks. */
static long double quant_state_bytes(const struct calc *c)
{
    if (c->wl->quant == EST_QUANT_NF4) return 4.0L / 64;
    if (c->wl->quant == EST_QUANT_NF4_DQ) return 1.0L / 64 + 4.0L / (64 * 256);
    return 0;
}

/* Under ZeRO-3 / FSDP the 4-bit linears' quant state stays whole on every
 * GPU: it is not a parameter but an attribute of bitsandbytes' Params4bit
 * (Linear4bit keeps it on the module too, for FSDP), and FSDP and ZeRO
 * shard, gather and offload parameters only. fsdp_qlora's loader says so
 * ("FSDP only syncs parameters and buffers, so the quant_state isn't
 * copied"), quantizes every weight on every rank's GPU to build its quant
 * state and moves only the packed data to the CPU or meta device
 * (AnswerDotAI/fsdp_qlora:train.py@50efa1efa0ed, load_and_quantize). */
static long double replicated_quant_state(const struct calc *c)
{
    bool z3 = c->wl->shard == EST_SHARD_ZERO3 || c->wl->shard == EST_SHARD_FSDP;
    if (!z3 || c->N <= 1) return 0;
    return quant_state_bytes(c) * (c->Plin + quant_head_params(c));
}

/* One block's parameters as FSDP all-gathers them: its flat parameter as
 * stored. Under 4-bit that is bitsandbytes' packed data (two weights a
 * byte, in `quant_storage` dtype so FSDP can flatten it with the 16-bit
 * norms: bitsandbytes quantize_4bit allocates ((n + 1) // (2 x itemsize))
 * elements of quant_storage, bitsandbytes-foundation/bitsandbytes:
 * bitsandbytes/functional.py@0.43.0; fsdp_qlora: "The Linear4Bit
 * quant_storage dtype should always match the FSDP param_dtype"), not 16-bit
 * weights; the quant state is not gathered (replicated_quant_state). */
static long double gathered_layer_bytes(const struct calc *c, long double layer)
{
    if (c->wl->quant != EST_QUANT_NF4 && c->wl->quant != EST_QUANT_NF4_DQ) return c->a * layer;
    long double lin = c->Plin / (c->L > 0 ? c->L : 1);
    if (lin > layer) lin = layer;
    return 0.5L * lin + c->a * (layer - lin);
}

static long double weight_bytes(const struct calc *c)
{
    enum est_precision p = c->wl->precision;
    /* --kbit-prep-trl: embedding and lm_head 16-bit again, the fp32 norms
     * (2 per layer + 1, hidden each: < 0.01% of a 7B model) not counted */
    long double other = (p == EST_FP32 || (c->kbit && !c->wl->kbit_trl)) ? 4 : 2;
    /* fp8: the linears 1 B and their scales; the rest (embeddings,
     * lm_head, norms, routers, kept linears) in the model's dtype */
    if (c->wl->quant == EST_QUANT_FP8) {
        /* compressed-tensors' CompressedLinear: 16-bit again after its first forward, scales kept */
        long double lin = est_fp8_decompressed(c->wl) ? other : 1;
        return c->fp8_params * lin + c->fp8_scales + (c->P - c->fp8_params) * other;
    }
    if (c->wl->quant != EST_QUANT_NONE) {
        long double q = quant_weight_bytes(c->wl), nq = c->Plin + quant_head_params(c);
        /* PEFT's adapters on a uint8-stored base are fp32 (peft_fp32_adapters) */
        long double lora = c->full ? 0 : c->Ptrain, lb = peft_fp32_adapters(c) ? 4 : other;
        return nq * q + (c->P - nq - lora) * other + lora * lb;
    }
    if (p == EST_FP32 || (c->mixed && !c->ds)) return c->P * 4;
    if (peft_fp32_adapters(c)) return (c->P - c->Ptrain) * 2 + c->Ptrain * 4; /* PEFT >= 0.12's adapters */
    return c->P * 2;
}

static long double state_elem(const struct calc *c)
{
    /* DeepSpeed's optimizer steps its fp32 master partition, and Gemini's
     * HybridAdam its fp32 chunks, so their states are fp32 whatever the
     * model dtype (ds_master, gemini_states) */
    return (c->wl->precision == EST_FP32 || c->mixed || c->wl->master_weights || c->ds ||
            c->wl->shard == EST_SHARD_GEMINI || peft_fp32_adapters(c)) ? 4 : 2;
}

/* Trainable parameters in tensors of 1e5 elements or more: what
 * bitsandbytes' paged optimizers keep in managed memory. LoRA: each
 * adapter's A (r x in) and B (out x r) on its own; full training: the block
 * linears and the embedding matrices (norms and biases are small). */
#define PAGE_MIN 1.0e5L
static long double paged_params(const struct calc *c)
{
    if (c->full) {
        long double big = c->Plin + c->Pbig * (tied(c->m, c->wl) ? 1 : 2);
        return big < c->Ptrain ? big : c->Ptrain;
    }
    unsigned t = lora_bits(c->wl);
    long double r = (long double)c->wl->lora_r, h = c->h, qd = c->qd, kvd = c->kvd, f = c->ffn, sum = 0;
    struct { unsigned bit; long double in, out; } lin[] = {
        {EST_LORA_Q, h, qd}, {EST_LORA_K, h, kvd}, {EST_LORA_V, h, kvd}, {EST_LORA_O, qd, h},
        {EST_LORA_GATE, gated(c->m) ? h : 0, f}, {EST_LORA_UP, h, f}, {EST_LORA_DOWN, f, h},
    };
    for (size_t i = 0; i < sizeof lin / sizeof lin[0]; i++) {
        if (!(t & lin[i].bit) || lin[i].in == 0) continue;
        long double k = (lin[i].bit >= EST_LORA_GATE && c->m->experts) ? (long double)c->m->experts : 1;
        if (r * lin[i].in >= PAGE_MIN) sum += k * r * lin[i].in;
        if (r * lin[i].out >= PAGE_MIN) sum += k * r * lin[i].out;
    }
    sum *= (long double)(c->m->layers + c->m->decoder_layers);
    if (t & EST_LORA_HEAD) {
        if (r * h >= PAGE_MIN) sum += r * h;
        if (r * c->V >= PAGE_MIN) sum += r * c->V;
    }
    return sum;
}

static long double optim_bytes(const struct calc *c)
{
    long double se = state_elem(c), Pt = c->Ptrain;
    switch (c->wl->optimizer) {
    case EST_OPT_ADAMW: return 2 * se * Pt;
    case EST_OPT_PAGED_ADAMW: return 8 * (Pt - paged_params(c)); /* the rest is managed memory */
    case EST_OPT_ADAMW8: return 2 * Pt;
    case EST_OPT_SGDM:
    case EST_OPT_LION: return se * Pt;
    case EST_OPT_ADAFACTOR: {
        long double nm = gated(c->m) ? 3 : 2;
        long double fact = c->L * (8 * c->h + nm * (c->h + c->ffn) + 10 * c->h) + c->V + c->h;
        return se * (fact < Pt ? fact : Pt);
    }
    default: return 0;
    }
}

static long double step_temp(const struct calc *c)
{
    long double se = state_elem(c);
    enum est_optimizer o = c->wl->optimizer;
    long double biggest = c->Pbig < c->Ptrain ? c->Pbig : c->Ptrain;
    if (o == EST_OPT_NONE || o == EST_OPT_SGD || o == EST_OPT_PAGED_ADAMW) return 0; /* fused per-tensor kernel */
    if (!c->wl->foreach || o == EST_OPT_ADAMW8 || o == EST_OPT_ADAFACTOR) return 2 * se * biggest;
    if (o == EST_OPT_SGDM) return 0;
    return se * c->Ptrain; /* foreach sqrt/update list: one copy of the states' size */
}


/* ---- DeepSpeed ZeRO's own buffers ------------------------------------
 * Sources (microsoft/DeepSpeed@38327e07, Feb 2025; the same allocations in
 * the 0.9-0.16 releases HF Trainer runs on), p = trainable / gpus:
 * - runtime/zero/stage_1_and_2.py: the trainable params (requires_grad
 *   only) are flattened per param group into a 16-bit buffer the model's
 *   params become views of; `single_partition_of_fp32_groups` is this
 *   rank's partition `.clone().float()`: an fp32 master even when the model
 *   is fp32, and the optimizer (its states) runs on it. backward() allocates
 *   the ipg bucket `torch.empty(reduce_bucket_size, dtype)` before
 *   loss.backward(), a second one with overlap_comm, whatever the number of
 *   trainable elements (LoRA too); the epilogue at the end of backward frees
 *   them. ZeRO-2 copies the reduced gradients of its partition into
 *   `grads_in_partition` (p elements, 16-bit), allocated at the first
 *   bucket's reduction; under accumulation the previous micro-batches'
 *   `averaged_gradients` stay beside it until added. step(): `single_grad_
 *   partition = flatten(averaged_gradients).to(fp32)` (a 16-bit flat copy and
 *   its fp32 cast while the 16-bit gradients are alive), then the 16-bit
 *   gradients are freed and the optimizer steps the fp32 master with that
 *   fp32 gradient, freed after. With offload_optimizer it also keeps
 *   `temp_grad_buffer_for_gpu_offload`, the largest param's numel.
 * - runtime/zero/stage3.py: one ipg bucket of reduce_bucket_size
 *   (`__ipg_bucket_flat_buffer`) and `grad_partitions_flat_buffer` (p
 *   elements, torch.zeros) allocated at init and kept for the run; the step
 *   casts each sub-group's gradients to fp32 (`_prepare_fp32_grad_for_sub_
 *   group`, sub_group_size 1e9 elements by default, config.py).
 * - runtime/zero/partition_parameters.py: with one partition
 *   (num_partitions == 1) all_gather_coalesced returns a NoGatherHandle
 *   that points param.data at the partition itself: on one GPU nothing is
 *   gathered and the prefetch bucket holds nothing. On several GPUs a block's
 *   params are gathered into new buffers, stage3_prefetch_bucket_size ahead.
 * - runtime/zero/config.py: reduce_bucket_size 5e8, overlap_comm defaults
 *   to True for stage 3 only, contiguous_gradients True, prefetch 5e7.
 * - runtime/engine.py get_data_types: under ZeRO the gradients accumulate in
 *   the model dtype unless grad_accum_dtype says otherwise; the BF16_Optimizer
 *   (fp32 gradient accumulation buffers) is used for bf16 without ZeRO or
 *   with ZeRO-1 and an explicit fp32 grad_accum_dtype only.
 * - transformers (HF Trainer) fills the config's "auto" values from the
 *   model: reduce_bucket_size = hidden^2, stage3_prefetch_bucket_size =
 *   0.9 hidden^2, stage3_param_persistence_threshold = 10 hidden
 *   (huggingface/transformers:src/transformers/integrations/deepspeed.py
 *   @02348331, trainer_config_finalize).
 * Defaults: zero1/zero2 DeepSpeed's own (reduce_bucket_size 5e8,
 * overlap_comm off), which is also what accelerate's DeepSpeedPlugin leaves
 * them at (huggingface/accelerate:src/accelerate/utils/dataclasses.py
 * @16cb6eb8 writes only stage, offload and the 16-bit save) and what
 * LLaMA-Factory's examples/deepspeed/ds_z2_config.json (@1d6e8b21) sets;
 * transformers' documented ZeRO-2 example and QwenLM/Qwen's
 * finetune/ds_config_zero2.json (@af22d5e0, 2e8) turn overlap_comm on
 * (--ds-overlap-comm on). zero3: "auto" buckets, as transformers' documented
 * ZeRO-3 example and Qwen's finetune/ds_config_zero3.json have them, with
 * DeepSpeed's overlap_comm default (on). */
static bool zero_stage(const struct calc *c)
{
    return c->wl->shard >= EST_SHARD_ZERO1 && c->wl->shard <= EST_SHARD_ZERO3;
}

int64_t est_ds_bucket(const struct est_model *m, const struct est_workload *wl)
{
    int64_t h2 = m->hidden * m->hidden; /* hidden <= 2^40 is checked; the product is capped below */
    if (m->hidden > (int64_t)1 << 30) h2 = (int64_t)1 << 60;
    if (wl->ds_bucket == EST_DS_AUTO) return h2;
    if (wl->ds_bucket > 0) return wl->ds_bucket;
    return wl->shard == EST_SHARD_ZERO3 ? h2 : 500000000;
}

int64_t est_ds_prefetch(const struct est_model *m, const struct est_workload *wl)
{
    if (wl->ds_prefetch > 0) return wl->ds_prefetch;
    if (m->hidden > (int64_t)1 << 30) return (int64_t)1 << 60;
    return (int64_t)(0.9L * (long double)m->hidden * (long double)m->hidden);
}

int64_t est_ds_max_live(const struct est_workload *wl)
{
    return wl->ds_max_live > 0 ? wl->ds_max_live : 1000000000; /* stage3_max_live_parameters' default */
}

int64_t est_ds_persist(const struct est_model *m, const struct est_workload *wl)
{
    if (wl->ds_persist > 0) return wl->ds_persist;
    if (wl->ds_persist == EST_DS_NONE) return 0; /* every param has numel >= 1: none persists */
    if (wl->ds_persist == EST_DS_AUTO) return m->hidden > (int64_t)1 << 40 ? (int64_t)1 << 44 : 10 * m->hidden;
    return 100000; /* stage3_param_persistence_threshold's default */
}

bool est_ds_overlap(const struct est_workload *wl)
{
    if (wl->ds_overlap >= 0) return wl->ds_overlap == 1;
    return wl->shard == EST_SHARD_ZERO3; /* DeepSpeed's config.py overlap_comm_valid */
}

/* The gradient dtype's bytes (the model's dtype under DeepSpeed). */
static long double ds_grad_bytes(const struct calc *c) { return c->wl->precision == EST_FP32 ? 4 : 2; }

/* The ipg bucket(s): stage 1/2 allocate them in backward (two with
 * overlap_comm), stage 3 one at init. */
static long double ds_ipg(const struct calc *c)
{
    long double n = (long double)est_ds_bucket(c->m, c->wl);
    bool two = c->wl->shard != EST_SHARD_ZERO3 && est_ds_overlap(c->wl);
    return n * ds_grad_bytes(c) * (two ? 2 : 1);
}

/* What the ZeRO step holds beyond the 16-bit gradient partition counted in
 * `gradients`: the flatten + fp32 cast moment, then the fp32 gradient with
 * the optimizer's working copy (stage 1/2 have freed the 16-bit gradients by
 * then; stage 3 keeps its gradient buffer and its ipg bucket). */
static long double ds_step_temp(const struct calc *c, long double opt_per_elem, long double opt_fixed)
{
    long double N = (long double)c->N, gb = ds_grad_bytes(c);
    long double p = c->Ptrain / N;
    bool z3 = c->wl->shard == EST_SHARD_ZERO3;
    long double s = z3 && p > 1e9L ? 1e9L : p; /* stage 3 steps one sub-group at a time */
    long double cast = gb == 4 ? 0 : 4 * s;    /* .to(fp32) of an fp32 tensor is the tensor */
    long double flatten = gb * s + cast;
    long double stepping = 4 * s + opt_per_elem * s + opt_fixed - (z3 ? 0 : gb * p);
    long double t = flatten > stepping ? flatten : stepping;
    return t + (z3 ? ds_ipg(c) : 0);
}

/* ZeRO-3 on several GPUs releases a gathered parameter after its module's
 * forward by swapping param.data for an empty tensor (free_param,
 * deepspeed/runtime/zero/partition_parameters.py@v0.14.2). torch's F.linear
 * saves weight.t() for the input's gradient, a view that still holds the
 * gathered storage, so each linear's full 16-bit weight stays alive until
 * its backward (deepspeedai/DeepSpeed#7670: gathered parameters "remain
 * resident in GPU memory until the backward pass reaches that specific
 * module"). DeepSpeed's own LinearFunctionForZeroStage3 saves the parameter
 * itself and is installed as F.linear by entering zero.Init
 * (patch_init_and_builtins, "This will persist unless manually reset"):
 * HF's from_pretrained under an active ZeRO-3 config, accelerate's
 * zero3_init_flag. A model built before that (from_pretrained, then
 * TrainingArguments(deepspeed=...): DeepSpeed's engine partitions it with
 * Init(module=...), which never enters the context) keeps torch's linear:
 * at the start of backward every block whose forward kept its saved tensors
 * (not checkpointed) and the head hold their gathered weights. Returns
 * those bytes (0 under zero.Init). */
static long double ds_linear_views(const struct calc *c)
{
    const struct est_workload *wl = c->wl;
    if (wl->ds_zero_init != 0 || wl->quant != EST_QUANT_NONE || c->L <= 0) return 0;
    long double saved = c->L;
    if (wl->ckpt == EST_CKPT_EVERY) saved = c->L - floorl(c->L / (long double)wl->ckpt_every);
    else if (wl->ckpt != EST_CKPT_NONE) saved = 0;
    long double head = wl->head == EST_HEAD_LM ? c->Pbig : 0;
    return ds_grad_bytes(c) * (c->Plin * saved / c->L + head);
}

/* What ZeRO-3 keeps gathered across the forward/backward turn on several
 * GPUs. release_sub_module does not release a module's parameters when the
 * trace shows them used again within stage3_max_reuse_distance elements
 * (1e9 by default; transformers' documented ZeRO-3 config states the same):
 * __params_to_release walks the modules after the current step, adding each
 * one's numel, and keeps what it meets before the sum reaches the distance
 * (partitioned_param_coordinator.py@v0.14.2). After the head's forward its
 * backward is next, so the head always stays; a module whose remaining
 * forward (later modules and the head) and backward until its own reuse
 * sum under the distance stays too: the last modules of about D / 2
 * elements. In 16-bit: max(head, D / 2) elements, capped by the model. */
static long double ds_reuse_kept(const struct calc *c)
{
    const long double dist = 1e9L; /* stage3_max_reuse_distance's default */
    long double head = c->wl->head == EST_HEAD_LM ? c->Pbig : 0, kept = dist / 2;
    if (head > kept) kept = head;
    if (kept > c->P) kept = c->P;
    return ds_grad_bytes(c) * kept;
}

static long double ds_persist_elems(const struct calc *c);

/* The prefetch gathers the next modules' parameters up to
 * stage3_prefetch_bucket_size elements, but never past
 * stage3_max_live_parameters: fetch_sub_module takes
 * min(max_n_available_params - n_available_params, prefetch_bucket_sz),
 * n_available_params counting every gathered element
 * (partitioned_param_coordinator.py@38327e07 l.380-382; the cap is used
 * nowhere else: it never releases a gathered module). `gathered` is the
 * elements already gathered at the moment. */
static long double ds_prefetch_elems(const struct calc *c, long double gathered)
{
    long double room = (long double)est_ds_max_live(c->wl) - gathered;
    long double pf = (long double)est_ds_prefetch(c->m, c->wl);
    if (room < 0) room = 0;
    return pf < room ? pf : room;
}

/* ZeRO-3's gathered 16-bit parameters at the start of backward: two
 * blocks, or what the reuse distance keeps across the turn, or, outside
 * zero.Init, every weight torch's linear saved; + the prefetch bucket. Only
 * where gathering copies: several GPUs, or offload_param (its partitions are
 * copied to the GPU even on one). */
static long double ds_gathered(const struct calc *c)
{
    long double layer = (c->P - 2 * c->Pbig) / (c->L > 0 ? c->L : 1);
    if (layer < 0) layer = 0;
    long double views = ds_linear_views(c), blocks = 2 * 2 * layer, turn = ds_reuse_kept(c);
    if (turn > blocks) blocks = turn;
    /* n_available_params counts what DeepSpeed has not released at the
     * turn: what the reuse distance kept and the persistent params (the
     * weights torch's linear keeps were released by free_param and do not
     * count) */
    return (views > blocks ? views : blocks) + 2 * ds_prefetch_elems(c, turn / ds_grad_bytes(c) + ds_persist_elems(c));
}

/* DeepSpeed's offload_optimizer moves each reduced gradient to the host
 * through the GPU. Stage 3 (partition_grads, runtime/zero/stage3.py
 * @38327e07, the same since v0.6.0): `grad_buffer.to(grad_partition.
 * device)` copies the partition's host buffer back to the GPU (the 16-bit
 * partition), and `_constant_buffered_norm2` takes its norm through
 * `part.data.double()` in chunks of 250,000,000 elements before the copy
 * to the fp32 host gradient. Stage 1/2 (set_norm_for_param_grad_in_gpu,
 * stage_1_and_2.py@38327e07): `accumulated_grad.data.double().norm(2)` of
 * the param's slice in this rank's partition, whole, then a `.float()` copy
 * of it (half the double's bytes, after it is freed). Returns the GPU bytes
 * of that moment for a param of `numel` elements. */
static long double ds_offload_norm(const struct calc *c, long double numel)
{
    long double N = (long double)c->N;
    if (c->wl->shard == EST_SHARD_ZERO3) {
        long double part = ceill(numel / N), chunk = part < 2.5e8L ? part : 2.5e8L;
        return ds_grad_bytes(c) * part + 8 * chunk;
    }
    long double part = c->Ptrain / N;
    return 8 * (numel < part ? numel : part);
}

int64_t est_ds_offload_norm(const struct est_model *m, const struct est_workload *wl, int64_t numel)
{
    struct calc c;
    struct oomlab_err err;
    if (calc_init(&c, m, wl, &err)) return -1;
    return (int64_t)ds_offload_norm(&c, (long double)numel);
}

static bool head_shares_embedding(const struct calc *c);

/* The block param with the most elements: the MLP's linear or the query
 * projection (the gradients reduced while backward runs). */
static long double block_linear_max(const struct calc *c)
{
    struct acc a = {0, false};
    struct shape s = shape_of(c->m, &a);
    long double mlp = (long double)s.h * (long double)s.f, q = (long double)s.h * (long double)s.qd;
    return mlp > q ? mlp : q;
}

/* The offload gradient path while backward runs (full fine-tuning: the
 * adapters of LoRA are too small to count). A bucket of several gradients
 * is reduced by reduce_scatter_coalesced (runtime/comm/coalesced_
 * collectives.py@38327e07), which torch.cat's every rank's chunk of every
 * gradient into one flat buffer (the whole bucket) unless the bucket holds
 * a single tensor; stage 3 then moves each partition through
 * ds_offload_norm. A param larger than the bucket is not copied into it
 * (__add_grad_to_ipg_bucket: `elements_in_ipg_bucket + numel <
 * reduce_bucket_size`) and is reduced alone, its own 16-bit gradient alive
 * meanwhile: an untied LM head's, at the start of backward. Stage 1/2 only
 * the norm (their bucket is ds_ipg's). */
static long double ds_offload_bwd(const struct calc *c)
{
    const struct est_workload *wl = c->wl;
    if (!c->full || !c->ds || !zero_stage(c) || wl->offload == EST_OFFLOAD_NONE) return 0;
    long double gb = ds_grad_bytes(c), bucket = (long double)est_ds_bucket(c->m, wl);
    bool z3 = wl->shard == EST_SHARD_ZERO3;
    long double cat = z3 ? gb * (bucket < c->Ptrain ? bucket : c->Ptrain) : 0;
    long double blocks = cat + ds_offload_norm(c, block_linear_max(c)), head = 0;
    if (wl->head == EST_HEAD_LM && !head_shares_embedding(c))
        head = (z3 && c->Pbig > bucket ? gb * c->Pbig : 0) + ds_offload_norm(c, c->Pbig);
    return blocks > head ? blocks : head;
}

/* The same at the end of backward: the input embedding's gradient is the
 * last to arrive (tied or not), with stage 3's bucket kept from init beside
 * it; the activations are gone. */
static long double ds_offload_last(const struct calc *c)
{
    const struct est_workload *wl = c->wl;
    if (!c->full || !c->ds || !zero_stage(c) || wl->offload == EST_OFFLOAD_NONE) return 0;
    long double gb = ds_grad_bytes(c), bucket = (long double)est_ds_bucket(c->m, wl);
    bool z3 = wl->shard == EST_SHARD_ZERO3;
    return (z3 ? ds_ipg(c) : 0) + (z3 && c->Pbig > bucket ? gb * c->Pbig : 0) + ds_offload_norm(c, c->Pbig);
}

/* ZeRO's buffers alive at the forward/backward peak (the start of
 * backward), beyond the gradients counted there under accumulation. */
static long double ds_fwd_buffers(const struct calc *c)
{
    const struct est_workload *wl = c->wl;
    long double N = (long double)c->N, gb = ds_grad_bytes(c), p = c->Ptrain / N;
    long double out = ds_ipg(c);
    bool accum = wl->grad_accum > 1 || wl->keep_grads;
    switch (wl->shard) {
    case EST_SHARD_ZERO2:
        /* grads_in_partition appears with the first reduced bucket, while
         * backward runs, when the trainable elements fill a bucket */
        if (c->Ptrain > (long double)est_ds_bucket(c->m, wl)) out += gb * p;
        break;
    case EST_SHARD_ZERO3:
        if (!accum) out += gb * p; /* grad_partitions_flat_buffer, kept from init */
        if (c->N > 1) out += ds_gathered(c);
        break;
    default: break;
    }
    return out;
}

const char *est_ds_describe(const struct est_model *m, const struct est_workload *wl, char *buf, size_t n)
{
    if (wl->shard == EST_SHARD_ZERO0 && wl->mode == EST_MODE_TRAIN) {
        snprintf(buf, n, "DeepSpeed's engine at stage 0 on %lld GPU%s: 16-bit model, fp32 master and optimizer "
                 "states, nothing partitioned; gradients all-reduced after backward in flat buckets of up to "
                 "5e8 elements (no DDP bucket during backward)",
                 (long long)wl->gpus, wl->gpus > 1 ? "s" : "");
        return buf;
    }
    if (wl->shard == EST_SHARD_GEMINI && wl->mode == EST_MODE_TRAIN) {
        snprintf(buf, n, "ColossalAI Gemini, static placement, on %lld GPU%s: 16-bit params in chunks sharded "
                 "over the GPUs (frozen params whole on each), the gradient written into its 16-bit chunk and "
                 "reduce-scattered (no gradient buffer%s); fp32 master chunks and HybridAdam's fp32 states %s; "
                 "the chunk in use and the one being reduced gathered whole (a chunk: the largest param, at "
                 "least 32 Mi elements); placement \"auto\" not modelled",
                 (long long)wl->gpus, wl->gpus > 1 ? "s" : "",
                 wl->grad_accum > 1 || wl->keep_grads ? "; with accumulation a 16-bit gradient chunk" : "",
                 wl->offload == EST_OFFLOAD_PARAMS ? "and the 16-bit shards on the CPU (offload_optim_frac and "
                                                     "offload_param_frac 1.0: placement \"cpu\")"
                 : wl->offload == EST_OFFLOAD_OPTIMIZER ? "on the CPU with the fp32 gradient shard "
                                                         "(offload_optim_frac 1.0)"
                                                       : "on the GPU (offload fractions 0: placement \"cuda\")");
        return buf;
    }
    if (wl->mode != EST_MODE_TRAIN || wl->shard < EST_SHARD_ZERO1 || wl->shard > EST_SHARD_ZERO3) {
        snprintf(buf, n, "%s", "");
        return buf;
    }
    bool z3 = wl->shard == EST_SHARD_ZERO3, off = wl->offload != EST_OFFLOAD_NONE;
    int64_t b = est_ds_bucket(m, wl);
    /* offload_optimizer: the fp32 master, the states and the gradient
     * partition (stage 3's grad_partitions_flat_buffer is allocated on
     * self.device = "cpu") live in host memory and the step runs there;
     * offload_param: the 16-bit partitions too (stage3.py@v0.14.2) */
    const char *where = !off ? ""
                        : wl->offload == EST_OFFLOAD_PARAMS
                            ? " in host memory with the 16-bit param partitions (offload_param: only gathered "
                              "modules on the GPU)"
                            : " in host memory (offload_optimizer; the 16-bit params stay on the GPU)";
    snprintf(buf, n,
             "DeepSpeed ZeRO-%d on %lld GPU%s: fp32 master + fp32 optimizer states of the trainable "
             "params%s%s; reduce bucket %lld elements%s (%s)%s; %s%s%s",
             (int)wl->shard, (long long)wl->gpus, wl->gpus > 1 ? "s" : "",
             wl->gpus > 1 ? " / gpus" : " (one GPU: nothing partitioned)", where, (long long)b,
             z3 ? "" : (est_ds_overlap(wl) ? " x 2 (overlap_comm)" : " x 1 (no overlap_comm)"),
             wl->ds_bucket == EST_DS_AUTO || (!wl->ds_bucket && z3) ? "auto: hidden^2" : wl->ds_bucket ? "--ds-bucket" : "default 5e8",
             !z3 ? "" : off ? "; ZeRO-3 gradient partitions in host memory" : "; ZeRO-3 gradient buffer kept from init",
             !off ? "the step casts the gradient partition to fp32"
             : wl->lora_r > 0 ? "the step runs on the CPU (no GPU fp32 gradient)"
             : z3 ? "the step runs on the CPU; on its way out each gradient partition is copied back to the GPU "
                    "and its norm taken in fp64 (8 B per element, 2.5e8 at a time), beside the bucket's flat "
                    "reduce-scatter copy (largest: a block's linear in backward, the embedding's at its end)"
                  : "the step runs on the CPU; on its way out the norm of each gradient's slice is taken in fp64 "
                    "on the GPU (8 B per element; largest: the embedding's)",
             z3 && (wl->gpus > 1 || wl->offload == EST_OFFLOAD_PARAMS) ? (wl->ds_zero_init == 0
                                       ? "; built outside zero.Init: torch's linear keeps each gathered weight "
                                         "(a saved weight.t() view) from its forward to its backward, + the "
                                         "prefetch bucket"
                                       : "; two gathered blocks + the prefetch bucket")
             : z3 ? "; nothing gathered" : "",
             wl->fused ? "; fused optimizer step, no working copy" : "");
    size_t used = strlen(buf);
    if (z3 && used < n)
        snprintf(buf + used, n - used,
                 "; params of <= %lld elements persistent (stage3_param_persistence_threshold: gathered whole "
                 "%s); prefetch capped at %lld live elements (stage3_max_live_parameters)",
                 (long long)est_ds_persist(m, wl), off ? "and their partitions on the GPU" : "on every GPU",
                 (long long)est_ds_max_live(wl));
    return buf;
}

/* Parameters that get a gradient. */
static bool fsdp_mixed_units(const struct calc *c)
{
    const struct est_workload *wl = c->wl;
    return wl->shard == EST_SHARD_FSDP && !c->full && wl->trainer == EST_TRAINER_LITGPT;
}

static long double grad_params(const struct calc *c)
{
    /* FSDP1 with use_orig_params=True gives a unit that mixes frozen and
     * trainable parameters a gradient the size of its whole flat parameter
     * (torch's FSDP docs on freezing; the _wrap_utils warning "gradient
     * memory usage will be higher than expected", quoted in
     * Lightning-AI/litgpt#1538 and #1417). litgpt wraps each Block
     * (finetune/lora.py: FSDPStrategy(auto_wrap_policy={Block}); Lightning
     * 2.1's FSDPStrategy sets use_orig_params=True) with its LoRA adapters
     * inside, so LoRA's gradients are as large as every block's parameters;
     * the root unit (embedding, head, final norm) is frozen unless the head is
     * adapted. torchtune, PEFT's fsdp_auto_wrap_policy and fsdp_qlora's
     * train.py wrap the LoRA modules in units of their own. */
    if (!fsdp_mixed_units(c)) return c->Ptrain;
    if (lora_bits(c->wl) & EST_LORA_HEAD) return c->P;
    return c->P - c->Pbig * (tied(c->m, c->wl) ? 1 : 2);
}

/* A tied embedding's two gradients meet in autograd's InputBuffer: the head's
 * arrives first (the embedding lookup is the first op, its backward the last)
 * and is kept until EmbeddingBackward's vocab x hidden zeros-and-scatter
 * arrives; InputBuffer's accumulate adds in place into the first one only
 * when can_accumulate_inplace(old_var) ("Both `.use_count` and
 * `.storage().use_count()` are one"), else `buffer[pos] = old_var + var`
 * (pytorch/pytorch: torch/csrc/autograd/input_buffer.cpp, the same in 1.13
 * and 2.x). The head's weight gradient is a view: F.linear's addmm/mm takes
 * weight.t(), mm_mat2_backward returns `grad.t().mm(mat1).t()` for that
 * column-major operand and TBackward0 transposes it back, and the view
 * keeps its base, so the storage has two users and the sum is a third
 * vocab x hidden tensor beside both: the peak holds two beyond the
 * gradients, not one. Measured with torch 1.13 on CPU by
 * bench/estimate-oracle-tied (peak resident set over backward: gradients +
 * 2.01 E tied in fp32, 2.02 E in bf16, 2.00 E under bf16 autocast on fp32
 * weights, where the head's gradient comes through the cached cast's
 * ToCopyBackward0 and why the add is not in place was not found; + 0.01 E
 * untied). DeepSpeed and sharded runs keep the old count (their gradients
 * are flattened or partitioned; not measured). */
/* The embedding's weight also gets the output head's gradient: a tied model
 * with its LM head (an encoder under --head cls or none has no decoder over
 * the vocabulary, so its embedding gets one gradient) */
static bool head_shares_embedding(const struct calc *c)
{
    return tied(c->m, c->wl) && c->wl->head == EST_HEAD_LM;
}

static bool tied_sum_out_of_place(const struct calc *c)
{
    const struct est_workload *wl = c->wl;
    return head_shares_embedding(c) && c->full && !c->ds && wl->shard == EST_SHARD_NONE &&
           wl->trainer != EST_TRAINER_LLMC && wl->offload == EST_OFFLOAD_NONE;
}

static bool kept_grads_accumulate(const struct calc *c)
{
    const struct est_workload *wl = c->wl;
    return (wl->grad_accum > 1 || wl->keep_grads) && c->full && !c->ds && wl->shard == EST_SHARD_NONE &&
           wl->trainer != EST_TRAINER_LLMC && wl->offload == EST_OFFLOAD_NONE;
}

static long double first_block_uncast(const struct calc *c);

/* torchtune's optimizer_in_bwd (--optim-in-bwd): one optimizer per
 * parameter, stepped by a post-accumulate-grad hook that then calls
 * zero_grad() (set_to_none), so each gradient is freed as soon as backward
 * has made it (pytorch/torchtune:torchtune/training/memory.py@74e6e7b6,
 * register_optim_in_bwd_hooks; the recipe refuses gradient accumulation and
 * clipping with it). The step moment is the last hook's: the largest
 * parameter, the embedding (the last AccumulateGrad; a tied one sums the
 * head's contribution there, emb), its gradient and one parameter's share of
 * the step's working copy. */
static void optim_in_bwd_states(const struct calc *c, struct terms *t, long double gb, long double emb)
{
    long double gp = grad_params(c);
    long double big = c->Pbig < gp ? c->Pbig : gp;
    long double one = gp > 0 ? step_temp(c) * big / gp : 0;
    t->grads = t->grads_fwd = gb * big;
    t->temp_step = one > emb ? one : emb;
}

/* ZeRO-3 marks every parameter of at most stage3_param_persistence_threshold
 * elements persistent (mark_persistent_parameters, parameter_offload.py
 * @38327e07): __params_to_release never releases it, so once gathered it
 * stays whole on every GPU beside its partition, and its partition is
 * allocated on the GPU even under offload_param (_partition_param: `if
 * param.ds_persist: device = self.local_device`, partition_parameters.py).
 * Returns the persistent elements: the blocks' linears, biases and norm
 * vectors at or under the threshold, and the final norm (the embedding,
 * head and LoRA adapters are not counted; a quantized model gives 0). */
static long double ds_persist_elems(const struct calc *c)
{
    const struct est_model *m = c->m;
    const struct fam *f = c->f;
    if (c->wl->shard != EST_SHARD_ZERO3 || !c->ds || c->wl->quant != EST_QUANT_NONE) return 0;
    struct acc a = {0, false};
    struct shape s = shape_of(m, &a);
    long double x = m->experts ? (long double)m->experts : 1, lin = gated(m) ? 3 : 2;
    const struct { long double numel, count; } per[] = {
        {(long double)s.h * s.qd, 2},           /* q, o */
        {(long double)s.h * s.kvd, 2},          /* k, v */
        {(long double)s.h * s.f, lin * x},      /* the MLP's linears */
        {(long double)s.qd, f->qkv_bias},       /* q bias */
        {(long double)s.kvd, 2 * f->qkv_bias},  /* k, v biases */
        {(long double)s.h, f->o_bias + f->mlp_bias * x + f->norms_per_layer * (f->rms ? 1 : 2)},
        {(long double)s.f, f->mlp_bias * (gated(m) ? 2 : 1) * x},
    };
    long double th = (long double)est_ds_persist(m, c->wl), n = 0;
    for (size_t i = 0; i < sizeof per / sizeof per[0]; i++)
        if (per[i].numel > 0 && per[i].numel <= th) n += per[i].numel * per[i].count;
    n *= (long double)(m->layers + m->decoder_layers);
    if (f->final_norm && s.h <= th) n += (long double)s.h * (f->rms ? 1 : 2);
    return n;
}

/* ---- ColossalAI Gemini (--shard gemini) -------------------------------
 * GeminiDDP (hpcaitech/ColossalAI:colossalai/zero/gemini/gemini_ddp.py
 * @4f9953be, _preprocess_param / _init_chunks) casts every trainable param
 * to the 16-bit mixed_precision and registers it in an "fp16_param" chunk,
 * and a `.float()` clone in an "fp32_param" chunk (master_weights, the
 * default); chunks are sharded over the ranks (shard_param_frac 1.0), and
 * a param that does not require grad is ignored: moved to the GPU whole in
 * 16-bit. The gradient is written into the fp16 chunk itself
 * (reuse_fp16_chunk = master_weights without gradient accumulation;
 * grad_handle copy_tensor_to_chunk_slice) and reduce-scattered into its
 * shard, so no gradient buffer exists beside the params; with accumulation
 * a separate 16-bit grad chunk does. HybridAdam keeps its fp32 states with
 * the fp32 chunk and steps it in place. StaticPlacementPolicy
 * (placement_policy.py@4f9953be): offload_optim_frac of the chunks keep
 * their fp32 master, states and gradient shard on the CPU (--offload
 * optimizer: 1.0), offload_param_frac (allowed only with offload_optim_frac
 * 1.0) moves the 16-bit shards there too (--offload params). The forward
 * and backward gather the chunk in use and the one being reduced
 * (shard_temp). The old API's placement_policy="cuda" / "cpu"
 * (pytorch-lightning 1.7's ColossalAIStrategy) are these two statics;
 * "auto" moves chunks by the memory it measures and is not modelled. */
static void gemini_states(const struct calc *c, struct terms *t)
{
    const struct est_workload *wl = c->wl;
    long double N = (long double)c->N, trainable = c->Ptrain / N;
    long double frozen = 2 * (c->P - c->Ptrain), shards = 2 * trainable;
    t->copies = 0;
    t->master = 4 * trainable;
    t->optim = optim_bytes(c) / N;
    t->grads = t->grads_fwd = wl->grad_accum > 1 || wl->keep_grads ? 2 * trainable : 0;
    t->temp_step = 0; /* HybridAdam: one fused kernel per chunk, in place */
    t->host = 0;
    if (wl->offload != EST_OFFLOAD_NONE) {
        t->host = t->master + t->optim + 4 * trainable; /* + the fp32 gradient shard on the CPU */
        t->master = t->optim = 0;
    }
    if (wl->offload == EST_OFFLOAD_PARAMS) {
        t->host += shards;
        shards = 0;
    }
    t->w = frozen + shards;
}

/* The largest chunk Gemini gathers: search_chunk_config looks for a size
 * from max(the largest param, min_chunk_size_m = 32 Mi elements) up to
 * search_range_m more (chunk/search_utils.py@4f9953be); counted at its
 * lower end, in 16-bit. */
static long double gemini_chunk(const struct calc *c)
{
    long double big = c->full ? block_linear_max(c) : 0; /* only trainable params are chunked */
    if (c->full && c->Pbig > big) big = c->Pbig;
    if (big < 33554432.0L) big = 33554432.0L;
    return 2 * big;
}

static void train_states(const struct calc *c, struct terms *t)
{
    const struct est_workload *wl = c->wl;
    long double N = (long double)c->N;
    bool z1 = wl->shard != EST_SHARD_NONE && wl->shard != EST_SHARD_ZERO0;
    bool z2 = wl->shard >= EST_SHARD_ZERO2 && wl->shard != EST_SHARD_ZERO0;
    bool z3 = wl->shard == EST_SHARD_ZERO3 || wl->shard == EST_SHARD_FSDP;
    long double gb = (wl->precision == EST_FP32 || (c->mixed && !c->ds) || peft_fp32_adapters(c)) ? 4 : 2;
    long double qstate = replicated_quant_state(c);
    t->w = (weight_bytes(c) - qstate) / (z3 ? N : 1) + qstate;
    /* persistent params gathered whole beside their partitions */
    long double persist = ds_persist_elems(c) * ds_grad_bytes(c);
    if (c->N > 1) t->w += persist;
    /* autocast's cached 16-bit casts; under FSDP2 mixed precision the 16-bit
     * parameters are FSDP's own all-gathered blocks, counted in shard_temp.
     * Under FSDP1 autocast caches none: it caches only a leaf fp32 tensor
     * that requires grad and is not a view (`can_try_cache` in
     * aten/src/ATen/autocast_mode.cpp's cached_cast: arg.requires_grad() &&
     * arg.is_leaf() && !arg.is_view()), and FSDP1 hands forward each
     * parameter as a view into the unsharded flat parameter; the per-use
     * casts the matmuls keep are fsdp1_casts_kept. Checked on torch 1.13 CPU
     * autocast: a leaf parameter's cast is one tensor for two uses, a view's
     * two. */
    bool cacheable = wl->shard != EST_SHARD_FSDP;
    /* the LM head's weight is cast and cached the same way, and the head's
     * matmul keeps that cast for the hidden state's gradient (tied or not:
     * the embedding lookup itself casts nothing); bench/estimate-oracle's
     * bf16-mixed points measure the block linears' casts + V x h x 2 */
    if (c->mixed && !c->ds && !c->fsdp_mp && cacheable && wl->quant == EST_QUANT_NONE)
        t->copies = 2 * (c->Plin + (wl->head == EST_HEAD_LM && wl->mode == EST_MODE_TRAIN ? c->Pbig : 0)) /
                    (z3 ? N : 1);
    /* the same for PEFT >= 0.12's fp32 adapters under autocast on 16-bit
     * weights: each adapter weight (a leaf that requires grad) is cast once
     * per forward and cached, and its matmul keeps the cast for backward
     * (measured by bench/estimate-oracle's peft 0.13 points) */
    else if (c->ac16 && cacheable && own_input_copies(c))
        t->copies = 2 * (c->Ptrain - first_block_uncast(c)) / (z3 ? N : 1);
    /* DeepSpeed's engine keeps an fp32 master of a 16-bit model (ZeRO's
     * partition; at stage 0 FP16_Optimizer / BF16_Optimizer); an fp32 model
     * at stage 0 runs the client optimizer on it directly */
    bool ds_master = c->ds && !(wl->shard == EST_SHARD_ZERO0 && wl->precision == EST_FP32);
    if ((is16(wl->precision) && wl->master_weights) || ds_master)
        t->master = 4 * c->Ptrain / (z1 ? N : 1); /* ZeRO: .clone().float() of the partition, any dtype */
    long double gparams = grad_params(c);
    t->grads = gb * gparams / (z2 ? N : 1);
    /* FSDP under gradient accumulation: Lightning/Fabric and Accelerate wrap
     * the accumulating micro-batches in no_sync(), and FSDP then keeps each
     * rank's gradients unsharded until the sync step reduce-scatters them.
     * DeepSpeed ZeRO accumulates into its partitions. FSDP2's fully_shard
     * (--trainer torchtitan) reduce-scatters after every backward unless the
     * trainer calls set_requires_gradient_sync(False) (FSDPModule's default
     * is True; torch/distributed/fsdp/_fully_shard/_fully_shard.py): the
     * micro-batches accumulate into the sharded fp32 .grad. Neither
     * torchtitan (train.py: no such call around its micro-batches; only
     * the chunked loss toggles the lm_head's, components/loss.py@b5bcd76c6)
     * nor prime-rl (src/prime_rl/trainer/sft/train.py@d8f290ef0: plain
     * `(loss / grad_accum_steps).backward()` per micro-step) turns it off. */
    t->grads_fwd = (wl->shard == EST_SHARD_FSDP && wl->grad_accum > 1 && wl->trainer != EST_TRAINER_TORCHTITAN) ? gb * gparams : t->grads;
    t->optim = optim_bytes(c) / (z1 ? N : 1);
    if (wl->optimizer == EST_OPT_PAGED_ADAMW) t->managed = 8 * paged_params(c) / (z1 ? N : 1);
    t->temp_step = step_temp(c) / (z1 ? N : 1);
    if (zero_stage(c) && wl->offload == EST_OFFLOAD_NONE) {
        /* the optimizer sees one flat fp32 partition: a fused step keeps
         * nothing, foreach one copy of it, a per-tensor loop two */
        long double se = state_elem(c);
        bool own = wl->optimizer == EST_OPT_ADAMW8 || wl->optimizer == EST_OPT_ADAFACTOR;
        long double per = wl->fused || own || wl->optimizer == EST_OPT_NONE || wl->optimizer == EST_OPT_SGD ? 0
                          : wl->foreach ? (wl->optimizer == EST_OPT_SGDM ? 0 : se) : 2 * se;
        t->temp_step = ds_step_temp(c, per, own && !wl->fused ? t->temp_step : 0);
    }
    /* End of backward: a tied embedding's gradient arrives as a second
     * vocab x hidden tensor that is then added to the head's. */
    long double emb = (head_shares_embedding(c) && c->full) ? gb * c->Pbig / (z2 ? N : 1) : 0;
    if (tied_sum_out_of_place(c)) emb *= 2;
    /* Gradients kept from the previous micro-batch (--grad-accum, --keep-grads):
     * AccumulateGrad adds each new gradient into .grad in place
     * (`variable_grad += new_grad`, torch/csrc/autograd/functions/
     * accumulate_grad.h), so the new one is alive beside the kept one until
     * then: + the largest gradient, the vocabulary matrix, untied; tied, the
     * InputBuffer's three (above) beside the kept .grad. Measured by
     * bench/estimate-oracle-tied's second backward: 3.00 E tied, 1.01 E
     * untied beyond the kept gradients. */
    if (kept_grads_accumulate(c)) emb = gb * c->Pbig * (head_shares_embedding(c) ? 3 : 1);
    if (emb > t->temp_step) t->temp_step = emb;
    if (wl->optim_in_bwd) optim_in_bwd_states(c, t, gb, emb);
    /* DeepSpeed's engine at stage 0 (--shard zero0): backward() runs
     * loss.backward() and only then allreduce_gradients() ->
     * buffered_allreduce_fallback(elements_per_buffer=5e8), which flattens
     * the gradients bucket by bucket into a new tensor (allreduce_bucket:
     * self.flatten(bucket)) and copies the reduced values back
     * (microsoft/DeepSpeed:deepspeed/runtime/engine.py@077e42e68 l.1756-1842,
     * 2165-2215, 2271; MEMORY_OPT_ALLREDUCE_SIZE = 500000000): one bucket's
     * flat copy at the end of backward, when the activations are gone, and
     * no DDP bucket during backward (shard_temp). */
    if (wl->shard == EST_SHARD_ZERO0 && c->N > 1 && wl->mode == EST_MODE_TRAIN) {
        long double flat = gb * (c->Ptrain < 5e8L ? c->Ptrain : 5e8L);
        if (flat > t->temp_step) t->temp_step = flat;
    }
    if (wl->offload != EST_OFFLOAD_NONE) {
        /* CPU offload: the optimizer states, master weights and gradients
         * (streamed out through the reduce buckets, shard_temp) live in host
         * memory and the step runs there; with params, the weights too, and
         * only the gathered blocks (shard_temp) stay on the GPU. */
        t->host = t->optim + t->master + t->grads;
        if (c->ds) {
            /* DeepSpeed's host-side gradients: the fp32 gradient partition
             * (stage 1/2: the master's pinned .grad made in
             * initialize_optimizer_states and kept under cpu_offload; stage 3:
             * subgroup_gradient_buffer), stage 3's grad_partitions_flat_buffer
             * on self.device = cpu, and stage 1/2's accumulated_grads_in_cpu
             * (the param dtype) under accumulation (stage_1_and_2.py,
             * stage3.py @38327e07) */
            long double p = c->Ptrain / (z1 ? N : 1), g16 = ds_grad_bytes(c);
            bool s3 = wl->shard == EST_SHARD_ZERO3;
            t->host = t->optim + t->master + 4 * p + (s3 ? g16 * p : 0) +
                      (!s3 && wl->grad_accum > 1 ? g16 * p : 0);
        }
        t->optim = t->master = 0;
        /* FSDP1 with CPUOffload(offload_params=True) copies each reduced
         * shard to its pinned _cpu_grad but keeps the reduce-scatter output
         * on the GPU as _saved_grad_shard (cast to the param dtype) until
         * _finalize_params at the end of backward deletes it; under no_sync
         * the unsharded flat gradient stays in .grad on the GPU exactly as
         * without offload (torch/distributed/fsdp/fully_sharded_data_
         * parallel.py@v1.13.1 _post_backward_hook: `if not
         * self._sync_gradients: return`, then `param._saved_grad_shard =
         * output` and `param._cpu_grad.copy_(grad.detach(), non_blocking=
         * True)`; _runtime_utils.py _accumulate_sharded_grad / _offload_grad
         * in torch 2.x). So both gradient terms stay as FSDP has them. FSDP2
         * (fully_shard's CPUOffloadPolicy, --trainer torchtitan) moves the
         * reduce-scatter output to the host in foreach_reduce and keeps
         * nothing (torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py
         * @010ae4a8); DeepSpeed streams them out through its buckets
         * (shard_temp). */
        if (wl->shard != EST_SHARD_FSDP || wl->trainer == EST_TRAINER_TORCHTITAN) t->grads = t->grads_fwd = 0;
        t->temp_step = emb;
        long double last = ds_offload_last(c); /* the embedding's gradient on its way out */
        if (last > t->temp_step) t->temp_step = last;
        if (wl->offload == EST_OFFLOAD_PARAMS) { /* the 4-bit quant state is no parameter: it stays */
            long double gpu = qstate + persist / N + (c->N > 1 ? persist : 0); /* persistent: on the GPU */
            t->host += t->w - gpu;
            t->w = gpu;
        }
    }
    if (wl->shard == EST_SHARD_GEMINI) gemini_states(c, t);
}

/* ---- torchtitan's FSDP2 ----------------------------------------------
 * apply_fsdp (pytorch/torchtitan:torchtitan/parallelisms/
 * parallelize_llama.py@9dec370) calls fully_shard on each TransformerBlock,
 * reshard_after_forward = layer_id < n_layers - 1 (the last block stays
 * gathered, "FSDP would prefetch it immediately"), then on the model: the
 * root group holds tok_embeddings, the final norm and the output.
 * MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=fp32). torch's
 * FSDPState._lazy_init sets the root group's post_forward_mesh_info = None
 * ("For the root, do not reshard after forward"; torch/distributed/
 * _composable/fsdp/_fsdp_state.py, pytorch/pytorch@005da465), so the
 * embedding, norm and output stay all-gathered in bf16 from the root's
 * pre-forward to the end of backward.
 * World size 1 (prime-rl wraps its model with fully_shard on one GPU too)
 * runs the same collectives' code: foreach_reduce allocates the
 * reduce-scatter input, and the output under the reduce-scatter stream,
 * and copies one into the other ("For single GPU, just copy the input to
 * output (no actual reduce-scatter needed)", pytorch/pytorch:torch/
 * distributed/fsdp/_fully_shard/_fsdp_collectives.py, torch 2.9, which
 * prime-rl@d8f290ef0's pyproject pins), so the moments and stream pools
 * below hold with N = 1; FSDP1's 25% share (SLACK_SHARDED) does not apply. */
static bool fsdp2_titan(const struct calc *c)
{
    return c->fsdp_mp && c->wl->mode == EST_MODE_TRAIN && c->wl->offload == EST_OFFLOAD_NONE;
}

static long double fsdp2_root_params(const struct calc *c)
{
    return c->Pbig * (tied(c->m, c->wl) ? 1 : 2) + c->h; /* embedding, output, final norm */
}

static long double fsdp2_layer_params(const struct calc *c)
{
    long double layer = (c->P - 2 * c->Pbig) / (c->L > 0 ? c->L : 1);
    return layer > 0 ? layer : 0;
}

/* Gathered at the loss's backward: the root group and the last block, both
 * left unsharded by forward; no block's pre-backward has run yet (it fires
 * on the gradient of the block's output). */
static long double fsdp2_loss_gathered(const struct calc *c)
{
    return c->a * (fsdp2_root_params(c) + fsdp2_layer_params(c));
}

/* While a block is recomputed and runs backward, beyond the loss moment's
 * groups: the block prefetched behind it (pre_backward's _prefetch_unshard),
 * the block's unsharded bf16 gradients, the previous block's fp32
 * reduce-scatter input (comm_ctx.reduce_scatter_state keeps it until the
 * next post_backward), and the output's unsharded bf16 gradient: the root's
 * post_backward runs only in the final callback (its forward input, the
 * token ids, needs no gradient). */
static long double fsdp2_backward_extra(const struct calc *c)
{
    long double layer = fsdp2_layer_params(c);
    long double head = tied(c->m, c->wl) ? 0 : c->Pbig;
    return c->a * (layer + layer + head) + 4 * layer;
}

/* Pools of the collectives' own streams, reserved beside the default
 * stream's: the caching allocator reuses a freed block only on the stream
 * that allocated it (per-stream pools; expandable segments, which
 * torchtitan's run_llama_train.sh@9dec370 turns on, are per stream too).
 * foreach_reduce_scatter allocates the reduce-scatter output, which the
 * sharded fp32 gradients are views of, under the reduce-scatter stream
 * (torch/distributed/_composable/fsdp/_fsdp_collectives.py,
 * pytorch/pytorch@01d66d21: "The RS output is allocated in the RS stream and
 * used in the default stream (for optimizer)"), so a whole step's gradients
 * stay reserved there, never reused by activations. foreach_all_gather
 * allocates each all-gather output under the copy-in stream; the root's
 * (embedding, output, norm) is held as all_gather_state until the first
 * block's all-gather output exists beside it. */
static long double fsdp2_stream_pools(const struct calc *c)
{
    if (!fsdp2_titan(c)) return 0;
    long double grads = 4 * c->Ptrain / (long double)c->N;
    return grads + c->a * (fsdp2_root_params(c) + fsdp2_layer_params(c));
}

static void formula_append(struct est_result *r, enum est_comp i, const char *text);

const char *est_fsdp2_model(const struct est_workload *wl)
{
    if (wl->trainer != EST_TRAINER_TORCHTITAN || wl->shard != EST_SHARD_FSDP || !is_mixed(wl->precision) ||
        wl->mode != EST_MODE_TRAIN || wl->offload != EST_OFFLOAD_NONE)
        return NULL;
    return "torchtitan's fully_shard per block + root, bf16 params / fp32 reduce: fp32 shards; at the loss's "
           "backward only the root group (embedding, output, norm: the root never reshards after forward) and "
           "the last block (reshard_after_forward False) are gathered; a recomputed block's moment adds the "
           "prefetched block, its bf16 gradients, the previous fp32 reduce-scatter input and the output's bf16 "
           "gradient; reserved adds the collectives' stream pools (the sharded fp32 gradients live in the "
           "reduce-scatter stream's, the root's and a block's all-gather outputs in the copy-in stream's), "
           "which the default stream never reuses";
}

static long double shard_temp(const struct calc *c)
{
    const struct est_workload *wl = c->wl;
    long double layer = (c->P - 2 * c->Pbig) / (c->L > 0 ? c->L : 1);
    if (layer < 0) layer = 0;
    /* gradients leave for the CPU through DeepSpeed's ipg buckets (sized
     * reduce_bucket_size whatever the trainable count); stage 1/2 offload
     * also keeps temp_grad_buffer_for_gpu_offload, the largest trainable
     * param's numel (stage_1_and_2.py@38327e07) */
    if (wl->offload != EST_OFFLOAD_NONE && wl->shard != EST_SHARD_FSDP && wl->shard != EST_SHARD_GEMINI) {
        long double gb = ds_grad_bytes(c), out = ds_ipg(c);
        if (wl->shard == EST_SHARD_ZERO3) {
            /* with offload_param the NoGatherHandle's .to(device) copies
             * even on one GPU */
            if (c->N > 1 || wl->offload == EST_OFFLOAD_PARAMS) out += ds_gathered(c);
            return out + ds_offload_bwd(c);
        }
        long double big = c->full ? (c->Pbig > layer / 4 ? c->Pbig : layer / 4) : 0;
        return out + gb * (big < c->Ptrain ? big : c->Ptrain) + ds_offload_bwd(c);
    }
    switch (wl->shard) {
    case EST_SHARD_ZERO1:
    case EST_SHARD_ZERO2:
    case EST_SHARD_ZERO3: return ds_fwd_buffers(c);
    case EST_SHARD_GEMINI: return 2 * gemini_chunk(c); /* the chunk in use and the one being reduced */
    case EST_SHARD_FSDP:
        if (fsdp2_titan(c)) return fsdp2_loss_gathered(c);
        /* autocast on fp32 weights means FSDP1 without a MixedPrecision
         * param_dtype (atorch's amp_native + fsdp passes none, dlrover
         * atorch/auto/opt_lib/zero_optimization.py@3a442b728): the flat
         * parameters are gathered as stored, fp32 */
        if (c->mixed && !c->fsdp_mp && wl->quant == EST_QUANT_NONE)
            return 2 * 4 * layer + 2 * 4 * c->Pbig * (c->full ? 2 : 1);
        /* --no-reshard: FSDP1 SHARD_GRAD_OP / FSDP2 reshard_after_forward=False
         * free a block's unsharded parameters only after its backward, so at
         * the start of backward every block is gathered (benchmark_litgpt.py
         * @5fbeaa710: fully_shard(reshard_after_forward=(shard_mode == "zero3"))
         * and ShardingStrategy.SHARD_GRAD_OP for "zero2"; torch's
         * _fsdp_param_group.py post_forward reshards only when
         * reshard_after_forward), beside the one block's unsharded gradients
         * in backward: L + 1 blocks instead of the current and the prefetched */
        if (wl->no_reshard)
            return (c->L + 1) * gathered_layer_bytes(c, layer) + 2 * c->a * c->Pbig * (c->full ? 2 : 1);
        return 2 * gathered_layer_bytes(c, layer) + 2 * c->a * c->Pbig * (c->full ? 2 : 1);
    default: break;
    }
    /* DDP buckets: a second copy of the grads (not DeepSpeed's stage 0,
     * which all-reduces after backward: train_states) */
    if (c->N > 1 && wl->shard == EST_SHARD_NONE)
        return (wl->precision == EST_FP32 || c->mixed ? 4 : 2) * c->Ptrain;
    return 0;
}

static bool has_rope(enum est_family f)
{
    return (unsigned)f < EST_FAM__COUNT && fams[f].rope;
}

/* LoRA, first block: the q,k,v adapters' dropout runs on a tensor that does
 * not require grad (the first norm of frozen embeddings), so autograd keeps
 * no mask for it (lora_A still keeps the dropout output). */
static long double first_block_masks(const struct calc *c)
{
    unsigned t = lora_bits(c->wl) & (EST_LORA_Q | EST_LORA_K | EST_LORA_V);
    if (est_lora_dropout(c->wl) <= 0 || quant_keeps_inputs(c->wl) || !t) return 0;
    long double n = fused_qkv(c) ? 1 : (long double)(!!(t & EST_LORA_Q) + !!(t & EST_LORA_K) + !!(t & EST_LORA_V));
    return n * c->h;
}

/* LoRA, first block: the q,k,v adapters' lora_A read a tensor that needs no
 * grad, so their matmuls keep no cast of lora_A's weight (only the input, for
 * the weight's gradient): the parameters whose autocast casts are not kept
 * (PEFT >= 0.12's fp32 adapters under autocast; bench/estimate-oracle). */
static long double first_block_uncast(const struct calc *c)
{
    unsigned t = lora_bits(c->wl) & (EST_LORA_Q | EST_LORA_K | EST_LORA_V);
    long double n = fused_qkv(c) ? (t ? 1 : 0) : (long double)(!!(t & EST_LORA_Q) + !!(t & EST_LORA_K) + !!(t & EST_LORA_V));
    return n * (long double)c->wl->lora_r * c->h;
}

/* LoRA, the first block (its input needs no grad): q_norm (k_norm) saves
 * nothing unless an adapter on q_proj (k_proj) makes its input need one. */
static long double first_block_qk_norm(const struct calc *c)
{
    if (!c->f->qk_norm) return 0;
    unsigned t = lora_bits(c->wl);
    long double qh = c->f->qk_norm == 2 ? 1 : (long double)c->m->heads;
    long double kh = c->f->qk_norm == 2 ? 1 : (long double)c->m->kv_heads;
    return (t & EST_LORA_Q ? 0 : 4 * c->qd + 4 * qh) + (t & EST_LORA_K ? 0 : 4 * c->kvd + 4 * kh);
}

/* An adapter on the lm_head (litgpt lora_head): its dropout output and mask
 * or, without dropout, lora_A keeping the input; lora_B's r-wide input. A
 * bitsandbytes head (litgpt quantizes it) keeps its input as well. */
static long double lora_head_acts(const struct calc *c)
{
    if (c->full) return 0;
    if (!(lora_bits(c->wl) & EST_LORA_HEAD)) /* a quantized head's matmul keeps its input */
        return (quant_head_params(c) > 0 && c->wl->quant != EST_QUANT_NONE) ? c->a * c->h : 0;
    long double p = (long double)est_lora_dropout(c->wl), a = c->a, h = c->h;
    long double keep = (p > 0 ? (a + 1) * h : a * h) + a * (long double)c->wl->lora_r;
    if (p > 0 && quant_head_params(c) > 0 && c->wl->quant != EST_QUANT_NONE) keep += a * h;
    return keep;
}

/* Per token, outside the blocks: the embedding dropout's mask, the final
 * norm (its own saved bytes) and the lm_head's input when the head trains;
 * encoder families (no final norm) keep the old 2 r h. With LoRA the first
 * block's input does not require grad (frozen embeddings), so its first
 * norm saves nothing. */
static long double act_outside(const struct calc *c)
{
    long double out = c->hdrop ? c->h : 0;
    /* rotary embeddings: HF builds cos and sin once per forward, (B, T,
     * head_dim) in the residual stream's dtype, and every block keeps them */
    if (c->f->qkv_view && c->wl->trainer == EST_TRAINER_HF && c->f->rope_div)
        /* HF GPT-NeoX: every layer gathers cos[position_ids] and sin[...] from
         * its fp32 caches, (1, T, rotary_ndims) each, which the rotary muls
         * keep: per sequence position, not per sample (modeling_gpt_neox.py
         * @006bd23 apply_rotary_pos_emb) */
        out += c->L * 2 * 4 * (long double)c->m->head_dim / (long double)c->f->rope_div /
               (long double)c->wl->batch;
    else if (has_rope(c->m->family) && c->wl->trainer != EST_TRAINER_LITGPT) /* litgpt: slices of buffers */
        out += 2 * (long double)c->m->head_dim * c->r;
    if (!c->f->final_norm || c->f->encoder) return out + 2 * c->r * c->h;
    out += norm_bytes(c) + (c->full ? c->a * c->h : 0) + lora_head_acts(c);
    /* the first block runs outside a checkpoint under none, attn-core and
     * every:N with N > 1 (torchtitan's count checkpoints the N-th, 2N-th...) */
    bool first_plain = c->wl->ckpt == EST_CKPT_NONE || c->wl->ckpt == EST_CKPT_SELECTIVE ||
                       (c->wl->ckpt == EST_CKPT_EVERY && c->wl->ckpt_every > 1);
    if (!c->full && first_plain) out -= norm_bytes(c) + first_block_masks(c) + first_block_qk_norm(c);
    return out;
}

/* Per token, all blocks, under the checkpointing policy. A block recomputed
 * in backward saves what it saves without checkpointing, less its input,
 * which is the checkpointed tensor itself. */
/* What the block recomputed in backward saves, per token: all it saves
 * without checkpointing, less its input when a norm keeps that (the
 * checkpointed tensor itself). */
static long double ckpt_recompute(const struct calc *c, long double per)
{
    return per - (norm_keeps_input(c) || compiled_blocks(c) ? c->r * c->h : 0);
}

static long double act_policy(const struct calc *c, long double per, long double per_noscore)
{
    const struct est_workload *wl = c->wl;
    long double keep_in = c->r * c->h;
    long double recompute = ckpt_recompute(c, per);
    switch (wl->ckpt) {
    case EST_CKPT_FULL: return c->L * keep_in + recompute;
    case EST_CKPT_EVERY: {
        long double n = floorl(c->L / (long double)wl->ckpt_every);
        return n * keep_in + (c->L - n) * per + (n > 0 ? recompute : 0);
    }
    case EST_CKPT_OP: return c->L * act_layer_op(c) + recompute;
    case EST_CKPT_SELECTIVE: return c->L * per_noscore;
    default: return c->L * per;
    }
}

/* Activation offloading (--act-offload): torchtune's OffloadActivations is
 * a saved_tensors_hooks whose pack copies every saved CUDA tensor of at
 * least min_offload_size (1024 B) that is not a parameter into a pinned
 * `torch.empty_like(..., device="cpu")` and keeps the GPU tensor only in a
 * forward stash of the last max_fwd_stash_size (5) tensor ids; unpack
 * brings one back per autograd node and frees the previous node's. The
 * output head runs under NoOpManager (its input stays on the GPU), and the
 * recipe calls backward outside the context, so a checkpointed block's
 * recomputation keeps its tensors on the GPU (pytorch/torchtune:
 * torchtune/training/_activation_offloading.py@bd2a0fc7,
 * get_act_offloading_ctx_manager). Under block checkpointing the saved
 * tensors are the blocks' inputs (torch's non-reentrant checkpoint saves
 * them with _NoopSaveInputs' save_for_backward, under the outer hook): all
 * but the one in use go to the host. Without checkpointing, every block's
 * saved tensors but those of the block in backward. Returns the bytes moved
 * off the GPU (and onto the host). */
static long double act_offloaded(const struct calc *c, long double per)
{
    if (!c->wl->act_offload || c->L < 2) return 0;
    long double blocks = c->L - 1;
    return c->T * blocks * (c->wl->ckpt == EST_CKPT_FULL ? c->r * c->h : per);
}

/* litgpt's fit loop (finetune/lora.py, full.py @5895df10) keeps `logits`
 * and `loss` from the previous micro-batch until the new ones are assigned.
 * At the end of the next forward Fabric's convert_output builds the new fp32
 * chunks while the 16-bit ones and the previous fp32 chunks are alive: 2 T V
 * more than the 8 T V at the start of backward. The previous graph is freed
 * only when `loss` is reassigned after the new cross-entropy, and it still
 * holds every input of bitsandbytes' MatMul4Bit, which keeps them on
 * `ctx.tensors` instead of save_for_backward (bitsandbytes 0.42.0
 * autograd/_functions.py), so backward does not release them (PyTorch
 * releases only saved tensors; torch/autograd/function.py warns of exactly
 * this): under QLoRA every linear's input of the previous micro-batch, the
 * lm_head's included. Returns what that moment holds beyond acts + 8 T V. */
static long double litgpt_prev_inputs(const struct calc *c)
{
    if (c->wl->quant == EST_QUANT_NONE || c->full) return 0;
    long double a = c->a, k = c->m->experts ? (long double)c->m->experts_per_token : 1;
    bool shared = c->f->norms_per_layer == 1 && !c->m->experts;
    long double per = a * (c->h + c->qd + (shared ? 0 : k * c->h) + k * c->ffn);
    return c->T * (c->L * per + (quant_head_params(c) > 0 ? a * c->h : 0));
}

static long double litgpt_carry(const struct calc *c)
{
    long double carry = 2 * c->T * c->V;
    if (c->wl->quant == EST_QUANT_NONE || c->full) return carry;
    /* the lm_head's own forward: every 128-token chunk dequantizes the whole
     * quantized head (fp16 + a compute copy) while the previous fp32 chunks
     * (4 T V) and the new 16-bit ones (2 T V) are alive */
    bool fp16_compute = computes_fp16(c->wl->precision);
    long double head = quant_head_params(c) * (2 + (fp16_compute ? 0 : c->a)) - 2 * c->T * c->V;
    if (head > carry) carry = head;
    return carry + litgpt_prev_inputs(c);
}

/* ---- what the model object and the training loop keep (estvar) ------- */

/* Buffers HF attention modules register beside the weights (est.h
 * layer_buffers), bytes for the whole model. GPT-NeoX's GPTNeoXAttention
 * ._init_bias registers `bias` = tril(ones(N, N, bool)) per layer, grown to
 * the key length when a sequence is longer, and its GPTNeoXRotaryEmbedding
 * caches cos and sin of N x rotary_ndims in fp32 (inv_freq is `.float()`)
 * (huggingface/transformers:src/transformers/models/gpt_neox/
 * modeling_gpt_neox.py@006bd23dd0ce18d54e1cf260b09b15fa943a731d);
 * GPT2Attention registers the same bool `bias` of n_positions^2 (src/
 * transformers/models/gpt2/modeling_gpt2.py@0010f60284ab4b9d14b7df9c6525b1a2ad44e640).
 * N is config.max_position_embeddings (GPTNeoXConfig's default 2048). */
static long double rope_cache_bytes(const struct calc *c, int64_t *n);

static long double layer_buffers(const struct calc *c)
{
    const struct est_workload *wl = c->wl;
    int64_t rope_n;
    if (wl->layer_buffers == 1 || wl->trainer != EST_TRAINER_HF) return 0;
    if (!c->f->layer_bufs) return rope_cache_bytes(c, &rope_n);
    long double n = (long double)(c->m->max_positions > 0 ? c->m->max_positions : c->f->positions);
    long double longest = (long double)longest_sequence(wl);
    if (c->f->layer_bufs == 2 && longest > n) n = longest; /* _init_bias(key_length) */
    long double per = n * n;
    if (c->f->layer_bufs == 2 && c->f->rope_div)
        per += 2 * 4 * n * (long double)c->m->head_dim / (long double)c->f->rope_div;
    return (long double)c->m->layers * per;
}

/* transformers versions whose attention modules each cache rotary cos and
 * sin for the model's max positions N (config.max_position_embeddings, grown
 * to a longer sequence), `register_buffer(..., persistent=False)` in torch's
 * default dtype at load, which from_pretrained sets to torch_dtype: the
 * model's 16-bit dtype, fp32 for an fp32 load. Qwen2 (jklj077/transformers:
 * src/transformers/models/qwen2/modeling_qwen2.py@53dba62c: "Copied from
 * ...MixtralRotaryEmbedding", `self.rotary_emb` in every Qwen2Attention,
 * `_set_cos_sin_cache(seq_len=max_position_embeddings, ...,
 * dtype=torch.get_default_dtype())`), Mistral and Mixtral (the same code)
 * until huggingface/transformers#30642 reworked Mistral's for the static
 * cache (merged after v4.41.0: ASSUMED first in 4.42 for all three: the
 * Copied-from check keeps them equal); Llama's, which Mistral's was "Copied
 * from" at Mistral's addition (4.34), until 4.38's static-cache rework
 * ("max_position_embedding is only used for the causal_mask now, while
 * previously it was used for sin and cos", huggingface/transformers#27931).
 * Llama before 4.34 is not read (its cache may be fp32) and is left out.
 * default_n: the config class's max_position_embeddings (Qwen2Config 32768,
 * LlamaConfig 2048) when neither --max-positions nor a config.json gives N;
 * 0 for Mistral and Mixtral, whose class default (4096 * 32) is not what
 * their checkpoints ship and would count 2 GiB for a 7B: without N the
 * term is left out there. */
static const struct {
    enum est_family family;
    unsigned from, until; /* --transformers major * 1000 + minor, [from, until) */
    int64_t default_n;
} rope_caches[] = {
    {EST_FAM_LLAMA, 4034, 4038, 2048},
    {EST_FAM_MISTRAL, 4034, 4042, 0},
    {EST_FAM_MIXTRAL, 4036, 4042, 0},
    {EST_FAM_QWEN2, 4037, 4042, 32768},
};

/* Bytes of the per-layer rotary caches above for the whole model (0 where
 * the version or family keeps none), and N through *n. */
static long double rope_cache_bytes(const struct calc *c, int64_t *n)
{
    const struct est_workload *wl = c->wl;
    if (wl->trainer != EST_TRAINER_HF || !wl->transformers) return 0;
    for (size_t i = 0; i < N_OF(rope_caches); i++) {
        if (rope_caches[i].family != c->m->family || wl->transformers < rope_caches[i].from ||
            wl->transformers >= rope_caches[i].until)
            continue;
        int64_t longest = longest_sequence(wl);
        *n = c->m->max_positions > 0 ? c->m->max_positions : rope_caches[i].default_n;
        if (!*n) return 0;
        if (longest > *n) *n = longest; /* forward's _set_cos_sin_cache(seq_len) */
        long double elem = wl->precision == EST_FP32 || c->mixed ? 4 : 2;
        return (long double)c->m->layers * 2 * (long double)*n * (long double)c->m->head_dim * elem;
    }
    return 0;
}

/* Whether the training forward returns K/V presents: HF decoders take
 * use_cache from config.use_cache (True in GPT-2, GPT-NeoX, Llama... configs)
 * and turn it off only under their own gradient checkpointing
 * (GPTNeoXModel.forward: `if self.gradient_checkpointing and self.training:
 * use_cache = False`, modeling_gpt_neox.py@006bd23). */
static bool presents_on(const struct calc *c)
{
    const struct est_workload *wl = c->wl;
    if (wl->use_cache) return wl->use_cache == 1;
    return wl->trainer == EST_TRAINER_HF && wl->head == EST_HEAD_LM && !c->f->encoder &&
           (wl->ckpt == EST_CKPT_NONE || wl->ckpt == EST_CKPT_SELECTIVE);
}

/* Per token, all layers: what the presents hold once backward has freed the
 * saved tensors. GPT-NeoX: `present = (key, value)` with key the fp32 cat of
 * the rotary and pass parts and value a view of the fused qkv output, which
 * keeps that whole output; GPT-2 (and the other fused q,k,v families): key
 * and value are views of the one c_attn output; separate projections: K
 * (new after rotary) and a view of the v_proj output. */
static long double presents_kept(const struct calc *c)
{
    long double a = c->a;
    if (c->f->qkv_view) return c->L * (4 * c->kvd + a * (c->qd + 2 * c->kvd));
    if (fused_qkv(c)) return c->L * a * (c->qd + 2 * c->kvd);
    return c->L * 2 * a * c->kvd;
}

/* Per token, all layers: present tensors autograd does not keep anyway,
 * alive through the forward while the presents tuple is built. GPT-NeoX's
 * fp32 key: SDPA and flash-attn save its 16-bit cast, eager's baddbmm the
 * fp32 key itself (counted in act_layer). Elsewhere the presents are what
 * attention saves. */
static long double presents_extra(const struct calc *c)
{
    if (!presents_on(c) || !c->f->qkv_view || c->wl->trainer != EST_TRAINER_HF) return 0;
    /* eager: the value view's whole fused qkv output (attention keeps a copy) */
    if (c->wl->attention == EST_ATTN_EAGER) return c->L * c->a * (c->qd + 2 * c->kvd);
    /* in fp32 the cast is the key itself, which SDPA then saves */
    if (c->wl->attention == EST_ATTN_SDPA_MATH || c->a >= 4) return 0;
    return c->L * 4 * c->kvd;
}

/* Per token, all layers: the presents a checkpointed training forward
 * returns and nothing else keeps. HF's decoders turn use_cache off only
 * under their own gradient checkpointing (LlamaModel.forward at 4.31: `if
 * self.gradient_checkpointing and self.training: ... use_cache = False`);
 * a trainer that wraps the blocks itself (FSDP's checkpoint_wrapper:
 * llama-recipes' apply_fsdp_checkpointing, meta-llama/llama-cookbook:
 * llama_finetuning.py@e5970e2e) leaves config.use_cache on, so every
 * block returns its (key, value) and LlamaModel collects them in
 * next_decoder_cache. The checkpointed block saved nothing, so they are
 * bytes beside the block inputs (presents_kept: the rotary key and the
 * v_proj output the value is a view of), alive until the output object is
 * dropped: through the loss's forward always, through backward when the
 * loop holds `outputs`. --use-cache yes says the trainer did this. */
static long double presents_ckpt(const struct calc *c)
{
    const struct est_workload *wl = c->wl;
    if (wl->ckpt != EST_CKPT_FULL || wl->trainer != EST_TRAINER_HF || wl->head != EST_HEAD_LM ||
        wl->mode != EST_MODE_TRAIN || !presents_on(c))
        return 0;
    return c->T * presents_kept(c);
}

/* --loop-holds outputs: the bytes of the output object a loop such as
 *     for _ in range(n): model.zero_grad(); outputs = model(**inputs);
 *                        loss = outputs.logits.sum(); loss.backward()
 * (huggingface/optimum:tests/benchmark/benchmark_bettertransformer_training_
 * minimal.py@283555f99685a9876192c6c43a07d08e06121f8a, the script behind the
 * SDPA training tables of transformers' model docs) holds: its logits and,
 * with presents, every layer's K/V. They stay through backward (beside the
 * whole gradient at its end) and the previous ones into the next forward
 * until `outputs` is reassigned (beside that forward's activations). */
static long double returned_logits(const struct calc *c);

static long double outputs_kept(const struct calc *c)
{
    if (c->wl->loop_holds != EST_KEEP_OUTPUTS) return 0;
    long double out = c->wl->head == EST_HEAD_LM ? returned_logits(c) * c->T * c->V : 0;
    if (presents_on(c)) out += c->T * presents_kept(c);
    return out;
}

static bool upcasts_logits(enum est_family f);

/* The logits the training loop still holds through backward, per token and
 * vocabulary entry, as the model returned them: HF's Llama-family heads and
 * torchtune's decoder (`self.output(h).float()`, torchtune/modules/
 * transformer.py@ff594c2311) return fp32; other HF heads the activation
 * dtype. --loop-holds logits (or outputs): the loop keeps them — torchtune's recipes before
 * 8a98fbaa3 ("delete logits before bwd", 2024-07-28) hold `logits`, the fp32
 * `[..., :-1, :].contiguous()` copy, through loss.backward()
 * (recipes/lora_finetune_single_device.py@ff594c2311 and @0217d44c2,
 * full_finetune_distributed.py and lora_finetune_distributed.py@0217d44c2);
 * fsdp_qlora keeps `output` until after loss.backward()
 * (AnswerDotAI/fsdp_qlora:train.py@50efa1efa0ed). With auto HF's path keeps
 * its old assumption (the logits in the activation dtype, held by the
 * caller) and torchtune's none (`del logits`); none holds nothing (HF
 * Trainer's compute_loss returns the loss alone). */
static bool accelerate_fp32_outputs(const struct calc *c);

/* transformers' causal-LM loss path, by version (--transformers; 0 = the
 * current rule). HF_LOSS_OWN: the model's forward computes the loss itself.
 * The Llama-family heads (upcasts_logits) run `logits = logits.float()`
 * in forward, which rebinds the name and frees the 16-bit lm_head output,
 * then `shift_logits = logits[..., :-1, :].contiguous()` (an fp32 copy) and
 * CrossEntropyLoss on it (huggingface/transformers:src/transformers/models/
 * llama/modeling_llama.py@002272831fba LlamaForCausalLM.forward); the
 * model returns the fp32 logits. Other heads (GPT-2, OPT, GPT-NeoX...) copy
 * the 16-bit shifted logits and cross_entropy runs on them (autocast casts
 * them to fp32 first). HF_LOSS_FN_SHIFT: forward keeps the 16-bit lm_head
 * output in `logits` and calls self.loss_function (loss_utils.py
 * ForCausalLMLoss), which upcasts inside (`logits = logits.float()`) and then
 * copies the shifted fp32 logits (.contiguous()). Llama from 4.46
 * (huggingface/transformers#33902 "Remove logits.float()", for v4.46; issue
 * #35066 on 4.46.1: Llama's shift gone, Mistral's still in forward at
 * 329f5dbf, 2024-12-03); Mistral from 4.48 (modeling_mistral.py@93e0020c96f1,
 * generated from modular_mistral.py, num_logits_to_keep: self.loss_function
 * on the 16-bit logits); the other upcasting families ASSUMED with Mistral
 * (not read at 4.46-4.47; no row in the tables tells them apart).
 * HF_LOSS_FN_PAD: ForCausalLMLoss pads the labels and shifts them instead of
 * the logits: `logits.float()` then a view, no copy (#35646, opened
 * 2025-01-13, after v4.48.0 of 2025-01-10: first in v4.49.0, ASSUMED from the
 * dates; loss_utils.py@0114da07ec0e). Other families keep their own path at
 * every version (not read past 4.45). */
enum hf_loss_era { HF_LOSS_OWN, HF_LOSS_FN_SHIFT, HF_LOSS_FN_PAD };

static enum hf_loss_era hf_loss_era(const struct est_model *m, const struct est_workload *wl)
{
    if (!upcasts_logits(m->family)) return HF_LOSS_OWN;
    unsigned v = wl->transformers;
    if (v == 0 || v >= 4049) return HF_LOSS_FN_PAD;
    return v >= (m->family == EST_FAM_LLAMA ? 4046u : 4048u) ? HF_LOSS_FN_SHIFT : HF_LOSS_OWN;
}

const char *est_hf_loss(const struct est_model *m, const struct est_workload *wl)
{
    if (wl->trainer != EST_TRAINER_HF || wl->mode != EST_MODE_TRAIN || wl->head != EST_HEAD_LM) return NULL;
    switch (hf_loss_era(m, wl)) {
    case HF_LOSS_FN_PAD:
        return "self.loss_function on the 16-bit logits (transformers >= 4.49): logits.float() and the labels "
               "padded and shifted, no logits copy; forward holds the 16-bit and fp32 logits, the fp32 "
               "log-softmax and the final hidden state";
    case HF_LOSS_FN_SHIFT:
        return "self.loss_function on the 16-bit logits (transformers 4.46-4.48; Mistral-family from 4.48): "
               "logits.float() then a shifted fp32 .contiguous() copy; forward holds the 16-bit logits, two fp32 "
               "copies, the fp32 log-softmax and the final hidden state";
    default:
        return upcasts_logits(m->family)
                   ? "the model's own loss (transformers before 4.46; Mistral-family before 4.48): logits.float() in "
                     "forward frees the 16-bit logits, a shifted fp32 copy, the fp32 log-softmax"
                   : "the model's own loss: a shifted 16-bit copy of the logits, cast to fp32 for cross-entropy "
                     "under autocast, the log-softmax";
    }
}

static long double returned_logits(const struct calc *c)
{
    enum est_trainer tr = c->wl->trainer;
    if (tr == EST_TRAINER_TORCHTUNE || tr == EST_TRAINER_TORCHTITAN) return ce_16bit(c->m, c->wl) ? c->a : 4;
    if (accelerate_fp32_outputs(c)) return 4;
    if (c->wl->loss_upcast == 2) return c->a; /* nothing upcasts (ce_16bit) */
    /* the fp32 logits of a Llama-family head only while the model computes
     * its own loss; the loss function leaves the returned ones 16-bit */
    return tr == EST_TRAINER_HF && upcasts_logits(c->m->family) && hf_loss_era(c->m, c->wl) == HF_LOSS_OWN ? 4
                                                                                                           : c->a;
}

/* accelerate's native mixed precision (HF Trainer --bf16/--fp16 and any
 * Accelerator(mixed_precision=...) loop): prepare_model replaces
 * model.forward with convert_outputs_to_fp32(autocast(forward)), and
 * ConvertOutputsToFp32 runs convert_to_fp32 on the whole output,
 * `tensor.float()` for every fp16/bf16 tensor in it
 * (huggingface/accelerate:src/accelerate/accelerator.py@16cb6eb8
 * prepare_model l.1818-1829, utils/operations.py@16cb6eb8 l.889-946). So
 * the logits the caller receives are an fp32 copy even where the head
 * returns 16-bit (GPT-2, OPT, GPT-NeoX, BERT...); Llama-family heads that
 * already return fp32 are untouched. native_amp is off under DeepSpeed
 * (accelerator.py l.561-597), whose engine runs no autocast. Where the loop
 * holds the output (--loop-holds logits or outputs) it holds that fp32
 * copy; the 16-bit original and the copy exist together only at the end of
 * forward, below the backward's moment (CE's fp32 log-softmax and its two
 * fp32 gradients), so only the held dtype changes. */
static bool accelerate_fp32_outputs(const struct calc *c)
{
    return c->wl->trainer == EST_TRAINER_HF && c->wl->mode == EST_MODE_TRAIN && (c->mixed || c->ac16) && !c->ds &&
           c->wl->head == EST_HEAD_LM;
}

static long double held_logits(const struct calc *c)
{
    const struct est_workload *wl = c->wl;
    if (wl->loop_holds == EST_KEEP_NONE) return 0;
    /* a held pred is the 16-bit tensor the compiled loss saved anyway */
    if (est_loss_compiled(wl)) return holds_logits(wl) ? c->a : 0;
    if (wl->trainer == EST_TRAINER_TORCHTUNE || wl->trainer == EST_TRAINER_TORCHTITAN)
        return holds_logits(wl) ? returned_logits(c) : 0;
    if (wl->trainer != EST_TRAINER_HF) return 0;
    return holds_logits(wl) ? returned_logits(c) : c->a;
}

/* Whole-block checkpointing with no gradient kept from an earlier
 * micro-batch (zero_grad(set_to_none=True), no accumulation): backward
 * makes each parameter's gradient as it passes it and keeps it to the
 * step, so when block k is recomputed the gradients of the head and of
 * blocks k+1..L-1 are alive, and the checkpointed inputs of blocks above k
 * are freed. Checked on torch 1.13 (a pre-forward hook on each checkpointed
 * block counting the .grad elements alive at its recompute: head, head +
 * 1 block, ... head + L-1 blocks). The moment is linear in k, so the peak
 * is the last block (the one ckpt_moments always counted) or the first,
 * whichever is larger: the first when a block's gradients outweigh its
 * checkpointed input, as under FSDP1 with few GPUs. FSDP1 reduce-scatters
 * each flat parameter's gradient in its post-backward hook and keeps the
 * shard (`flat_param._saved_grad_shard = sharded_grad`,
 * pytorch/pytorch:torch/distributed/fsdp/_runtime_utils.py,
 * _accumulate_sharded_grad), so there a block's gradient is its shard,
 * t->grads' share; the root's (embeddings and head) unsharded gradient is
 * already in shard_temp. Not for DeepSpeed (its own partitioned gradient
 * buffers), torchtitan's FSDP2 (the reduce-scatter pool, counted in
 * fsdp2_stream_pools) or offload. Returns blocks 1..L-1's gradients; *head
 * the head's, alive at both moments (an untied or tied head weight's
 * gradient is made at the first step of backward). */
static long double ckpt_later_grads(const struct calc *c, long double grads, long double *head)
{
    const struct est_workload *wl = c->wl;
    *head = 0;
    /* --optim-in-bwd frees each gradient at its hook: only a tied head's
     * contribution waits in the embedding's input buffer */
    if (wl->optim_in_bwd) {
        if (wl->ckpt == EST_CKPT_FULL && c->full && head_shares_embedding(c) && grad_params(c) > 0)
            *head = grads;
        return 0;
    }
    if (wl->ckpt != EST_CKPT_FULL || wl->grad_accum > 1 || wl->keep_grads || c->ds ||
        wl->trainer == EST_TRAINER_TORCHTITAN || wl->offload != EST_OFFLOAD_NONE ||
        (wl->shard >= EST_SHARD_ZERO1 && wl->shard <= EST_SHARD_ZERO3) || c->L < 1)
        return 0;
    long double gp = grad_params(c);
    if (gp <= 0 || grads <= 0) return 0;
    long double per = grads / gp; /* bytes of gradient per trainable parameter, / gpus when sharded */
    long double blocks = c->full ? c->P - 2 * c->Pbig : gp;
    if (blocks < 0) blocks = 0;
    if (blocks > gp) blocks = gp;
    if (c->full && wl->shard != EST_SHARD_FSDP) *head = per * c->Pbig;
    return per * blocks * (c->L - 1) / c->L;
}

/* Whole-block checkpointing runs backward in two moments that are never
 * alive together. First the loss: the fp32 log-softmax and cross-entropy's
 * gradients, with every block's checkpointed input kept and no block's
 * activations alive (a checkpointed block saved nothing in forward). Only
 * when backward reaches the last block does it recompute that block
 * (torch.utils.checkpoint: the reentrant CheckpointFunction.backward reruns
 * the block's forward and then its backward; the non-reentrant unpack hook
 * reruns it at the first saved tensor backward asks for), and by then the
 * loss's buffers are freed: only the logits the caller still holds remain.
 * fsdp_qlora's loop keeps `output` through loss.backward() and sets it to
 * None after (AnswerDotAI/fsdp_qlora:train.py@50efa1efa0ed); torchtune's
 * recipe deletes the logits before backward. So the fwd/bwd peak is the
 * larger of the two moments, not their sum. torchtitan's op-level
 * selective policy runs the same way: ptd_checkpoint_wrapper is the
 * non-reentrant checkpoint (preserve_rng_state=False, context_fn the SAC
 * policy; torchtitan/parallelisms/parallelize_llama.py@9dec370), each
 * block's SAC cache is alive at the loss's backward, and the first unpack
 * in the last block's backward reruns it after the loss's buffers are
 * freed (train.py@9dec370: `del pred` before loss.backward()); under
 * torchtitan's FSDP2 that later moment also holds the gradient-side
 * buffers (fsdp2_backward_extra, passed in block_tmp). Returns the bytes
 * the sum over-counts, and sets t->ckpt_phase; *tmp becomes that moment's
 * temporaries. */
static long double ckpt_moments(const struct calc *c, struct terms *t, long double rec,
                                long double loss_tmp, long double block_tmp, long double *tmp)
{
    const struct est_workload *wl = c->wl;
    if ((wl->ckpt != EST_CKPT_FULL && wl->ckpt != EST_CKPT_OP) || wl->head != EST_HEAD_LM ||
        wl->loss == EST_LOSS_SUM)
        return 0;
    if (wl->trainer != EST_TRAINER_HF && wl->trainer != EST_TRAINER_TORCHTUNE &&
        wl->trainer != EST_TRAINER_TORCHTITAN)
        return 0;
    if (wl->longest_first) return 0;
    long double held = c->T * c->V * held_logits(c);
    long double head_g = 0, later_g = ckpt_later_grads(c, t->grads, &head_g);
    /* blocks 1..L-1's checkpointed inputs (already on the host under
     * --act-offload: act_offloaded) */
    long double freed = wl->act_offload ? 0 : (c->L - 1) * c->T * c->r * c->h;
    long double loss_moment = t->logits + loss_tmp;            /* + acts - rec */
    long double block_moment = rec + held + block_tmp + head_g; /* + acts - rec */
    long double first_moment = block_moment + later_g - freed;
    /* presents returned under checkpointing (presents_ckpt) where the loop
     * drops the output object (`loss = model(**batch).loss`): alive at the
     * end of forward, while the loss is taken: the loss's buffers as at its
     * backward less the logits the caller holds after it (the model's own
     * fp32 logits are among those buffers). Where the loop holds `outputs`
     * they stay through backward; that case keeps outputs_kept's count (see
     * docs/estimate.md: the atorch rows' figures rule out this forward's
     * presents and the previous output object alive together at the end of
     * forward, and nothing in atorch's code says which one is gone). */
    long double pres = c->wl->loop_holds == EST_KEEP_OUTPUTS ? 0 : presents_ckpt(c);
    long double end_moment = pres > 0 ? loss_moment - held + pres : 0;
    if (end_moment > loss_moment && end_moment >= block_moment && end_moment >= first_moment) {
        t->ckpt_phase = 4;
        t->acts += pres - rec;
        t->logits -= held;
        *tmp = loss_tmp;
    } else if (loss_moment >= block_moment && loss_moment >= first_moment) {
        t->ckpt_phase = 1;
        t->acts -= rec;
        *tmp = loss_tmp;
    } else if (block_moment >= first_moment) {
        t->ckpt_phase = 2;
        t->logits = held;
        t->grads_ckpt = head_g;
        *tmp = block_tmp;
    } else {
        t->ckpt_phase = 3;
        t->logits = held;
        t->acts -= freed;
        t->grads_ckpt = head_g + later_g;
        *tmp = block_tmp;
    }
    return rec;
}

/* Blocks whose graph is alive at once: every block, under block
 * checkpointing only the recomputed one, every N-th: the others and one. */
static long double graph_alive_layers(const struct calc *c)
{
    switch (c->wl->ckpt) {
    case EST_CKPT_FULL: return 1;
    case EST_CKPT_EVERY: {
        long double n = floorl(c->L / (long double)c->wl->ckpt_every);
        return c->L - n + (n > 0 ? 1 : 0);
    }
    default: return c->L;
    }
}

/* GPTQ training: each linear's matmul(x.half(), weight) keeps its fp16
 * dequantized weight for the input's gradient (autograd saves the operand
 * the other one's gradient needs), so every block whose graph is alive holds
 * its linears in 16-bit; under block checkpointing only the recomputed one. */
static long double gptq_saved_layers(const struct calc *c)
{
    if (c->wl->quant != EST_QUANT_GPTQ || c->wl->mode != EST_MODE_TRAIN) return 0;
    return graph_alive_layers(c);
}

static long double gptq_saved_weights(const struct calc *c)
{
    return gptq_saved_layers(c) * 2 * c->Plin / (c->L > 0 ? c->L : 1);
}

/* FSDP1 under autocast on fp32 weights (--shard fsdp, *-mixed, not
 * torchtitan's FSDP2): nothing is cached (train_states), so each linear
 * casts its unsharded weight view at every use, and the matmul keeps that
 * 16-bit cast for the input's gradient as GPTQ's keeps its dequantized
 * weight: the whole (unsharded) linears of every block whose graph is
 * alive. */
static long double fsdp1_casts_kept(const struct calc *c)
{
    if (!c->mixed || c->fsdp_mp || c->wl->shard != EST_SHARD_FSDP || c->wl->quant != EST_QUANT_NONE ||
        c->wl->mode != EST_MODE_TRAIN)
        return 0;
    /* op-level selective checkpointing recomputes every op its policy does
     * not save, the casts included */
    if (c->wl->ckpt == EST_CKPT_OP) return 0;
    return graph_alive_layers(c) * 2 * c->Plin / (c->L > 0 ? c->L : 1);
}

/* HF: what is alive at the end of the loss's forward, beside every saved
 * activation (per batch): the logits the model returns (R per token and
 * vocabulary entry), the copies the loss code makes (C), cross-entropy's
 * log-softmax (ce; nll_loss's output is a scalar), and the final norm's
 * output, which the CausalLM forward still holds in `hidden_states` while
 * the loss runs and which nothing saves when the lm_head is frozen (with a
 * trained head, or a LoRA or quantized head, its input is kept anyway:
 * act_outside). The loss's backward then holds the log-softmax, nll's
 * gradient and log-softmax's gradient (12 B in fp32, plus the logits the
 * loop holds); that is t->logits + lt in train_acts, and the larger of the
 * two moments is the peak. Per era (hf_loss_era), 16-bit a:
 *   own, Llama family   R 4 (`logits.float()` freed the 16-bit), C 4 (the
 *                        shifted fp32 copy): 12 B + hidden
 *   own, other heads    R a, C a (shifted copy) + 4 (autocast's fp32 cast
 *                        for cross-entropy; none in 16-bit CE)
 *   4.46-4.48           R a, C 4 + 4 (.float(), then the shifted copy):
 *                        14 B + hidden, above backward's 12 B
 *   4.49 on             R a, C 4 (.float(); a view, the labels shifted):
 *                        10 B + hidden, below backward's
 * In fp32 `.float()` returns the tensor itself. Checked on torch 1.13 CPU:
 * bench/estimate-oracle hf_loss_moments_check. */
static long double hf_forward_loss(const struct calc *c, long double ce)
{
    long double a = c->a, R = a, C;
    enum hf_loss_era e = hf_loss_era(c->m, c->wl);
    /* --loss-upcast no: nothing upcasts, the shifted copy is 16-bit */
    if (c->wl->loss_upcast == 2) C = a;
    else if (e == HF_LOSS_FN_SHIFT) C = (a < 4 ? 4 : 0) + 4;
    else if (e == HF_LOSS_FN_PAD) C = a < 4 ? 4 : 0;
    else if (upcasts_logits(c->m->family)) R = 4, C = 4;
    else C = a + (ce > a ? ce : 0);
    long double hid = c->full || lora_head_acts(c) > 0 ? 0 : c->r * c->h;
    return c->T * c->V * (R + C + ce) + c->T * hid;
}

static void train_acts(const struct calc *c, struct terms *t)
{
    const struct est_workload *wl = c->wl;
    bool eager = scores_kept(wl->attention);
    long double per_noscore = block_acts(c, false), per = block_acts(c, eager);
    t->acts = c->T * act_policy(c, per, per_noscore) + c->T * act_outside(c) + c->T * presents_extra(c) +
              gptq_saved_weights(c) + fsdp1_casts_kept(c);
    long double off = act_offloaded(c, per);
    t->acts -= off;
    t->host += off;
    long double VT = c->T * c->V, lt = 0, carry = 0;
    if (wl->head == EST_HEAD_LM) {
        if (wl->loss == EST_LOSS_SUM) {
            /* the gradient of a sum is an expanded scalar (stride 0); the
             * head's matmul backward cannot hand that to the BLAS (cuBLAS's
             * prepare_matrix_for_cublas, the CPU gemm alike) and clones it
             * contiguous, once for the input's gradient and once for the
             * weight's, one at a time: a logits-sized temporary at the
             * head's backward, beside the logits and every activation
             * (torch 1.13 CPU, profile_memory: two aten::clone of T x V x
             * 4 B in `F.linear(x, W).sum().backward()`; bench/estimate-
             * oracle-relu) */
            t->logits = VT * c->a;
            lt = VT * c->a;
        } else if (est_loss_compiled(wl)) {
            /* the compiled loss (est_loss_compiled): the 16-bit pred it
             * saved (the same tensor where the loop holds it), then its
             * 16-bit gradient beside it at the loss's backward */
            t->logits = VT * c->a;
            lt = VT * c->a;
        } else if (wl->trainer == EST_TRAINER_TORCHTUNE || wl->trainer == EST_TRAINER_TORCHTITAN) {
            /* logits.float(), then `del logits` before backward: only the
             * fp32 log-softmax the loss saves stays; plain CE then holds its
             * fp32 gradient and the log-softmax gradient at once. A loop
             * that borrows the model shape but feeds the 16-bit logits to
             * cross_entropy (--loss-upcast no, ce_16bit): the same three
             * tensors in 16-bit. */
            long double ce = ce_16bit(c->m, wl) ? c->a : 4;
            t->logits = VT * (ce + held_logits(c));
            lt = wl->loss == EST_LOSS_CE ? VT * 2 * ce : 0;
        } else if (wl->trainer == EST_TRAINER_LITGPT) {
            /* Fabric's _FabricModule.forward hands the model's output to
             * precision.convert_output, which casts every floating tensor to
             * the default dtype, fp32, under bf16-true and bitsandbytes
             * alike (Lightning-AI/pytorch-lightning:src/lightning/fabric/
             * wrappers.py@2.3.0, plugins/precision/half.py, bitsandbytes.py):
             * the list of 128-token logit chunks litgpt keeps through
             * backward is fp32, and cross-entropy on each keeps its fp32
             * log-softmax (litgpt/finetune/lora.py@5895df10). */
            t->logits = VT * 8;
            lt = wl->loss == EST_LOSS_CE ? VT * 8 : 0;
            carry = litgpt_carry(c);
        } else {
            /* cross-entropy runs in fp32 when the model upcasts its logits
             * (`logits.float()`) or autocast is on (cross_entropy is on its
             * fp32 list). Under DeepSpeed's engine, which runs no autocast
             * (accelerate leaves native_amp off, accelerator.py@02a8a9a3), a
             * model that returns 16-bit logits computes it in 16-bit. A plain
             * --precision bf16 run is taken as HF Trainer's --bf16 on 16-bit
             * weights, which autocasts: fp32. */
            long double ce = ce_16bit(c->m, wl) ? c->a : 4;
            t->logits = VT * (held_logits(c) + ce);
            lt = wl->loss == EST_LOSS_CE ? VT * 2 * ce : 0;
            /* the loss's forward moment can be the larger (hf_forward_loss) */
            if (wl->loss == EST_LOSS_CE && hf_forward_loss(c, ce) - t->logits > lt) {
                lt = hf_forward_loss(c, ce) - t->logits;
                t->loss_fwd = true;
            }
        }
    }
    /* one block's backward in flight: the MLP's three f-wide gradients. A
     * sparse-MoE block as transformers loops over it runs each expert on
     * its own tokens, so only one expert's are in flight: k / E of the
     * tokens with balanced routing (bench/estimate-oracle-moe's transient
     * measurement); torchtitan's grouped-mm MoE runs all k T at once */
    long double k = c->m->experts ? (long double)c->m->experts_per_token : 1;
    if (c->m->experts && wl->trainer != EST_TRAINER_TORCHTITAN) k /= (long double)c->m->experts;
    long double mlp_tmp = c->T * 3 * c->a * c->ffn * k;
    long double score_tmp = eager ? c->T * (long double)c->m->heads * (long double)wl->seq * 2 *
                                        ((c->mixed || c->ac16 || c->a == 4) && wl->attention == EST_ATTN_EAGER ? 4 : c->a)
                                  : 0;
    long double tmp = lt, block_tmp = mlp_tmp > score_tmp ? mlp_tmp : score_tmp;
    if (block_tmp > tmp) tmp = block_tmp;
    /* the recomputed block holds its GPTQ weights too (gptq_saved_layers: 1) */
    ckpt_moments(c, t, c->T * ckpt_recompute(c, per) +
                 (wl->ckpt == EST_CKPT_FULL ? gptq_saved_weights(c) + fsdp1_casts_kept(c) : 0), lt,
                 block_tmp + (fsdp2_titan(c) ? fsdp2_backward_extra(c) : 0), &tmp);
    tmp += dequant_temp(c); /* one quantized linear dequantized */
    /* --longest-first: lit-gpt's get_batch puts the longest sample into
     * iteration 0 only (finetune/lora.py@8641822: get_batch(fabric,
     * train_data, longest_seq_ix if iter_num == 0 else None)); later
     * micro-batches are random draws padded to their own longest. Iteration 0
     * has no previous micro-batch and no gradient before its backward; a later
     * one holds the gradients and what the longest micro-batch left (its fp32
     * logit chunks, under QLoRA its MatMul4Bit inputs) beside a batch of
     * unknown, shorter length, counted as empty: a lower bound for that
     * moment (finish takes the larger). */
    if (wl->longest_first) {
        if (wl->trainer == EST_TRAINER_LITGPT && wl->head == EST_HEAD_LM && wl->loss != EST_LOSS_SUM)
            t->later = 4 * VT + litgpt_prev_inputs(c);
        carry = 0;
    }
    if (carry > tmp) tmp = carry; /* litgpt: the end of forward, not backward, is the larger moment */
    /* --loop-holds outputs: the previous output object beside this forward's end */
    long double kept = outputs_kept(c);
    if (kept > tmp) tmp = kept;
    t->temp_step += kept; /* and the current one beside the whole gradient */
    t->temp_fwd = tmp + shard_temp(c);
    if (wl->longest_first) t->later += t->grads_fwd + t->copies + shard_temp(c);
}

/* llm.c (train_gpt2.cu) has no autograd: it allocates one activation layout
 * up front (fill_in_activation_sizes) and everything in it is live for the
 * whole run. With C = hidden, NH = heads, BT = batch x seq, Vp = the padded
 * vocabulary, in 16-bit (floatX) elements unless noted:
 *   encoded BT C; per layer ln1, atty, residual2, ln2, residual3 BT C each,
 *   qkvr 3 BT C, fch BT f, fch_gelu BT f (one shared copy with GeLU
 *   recompute, -r 1 = --grad-ckpt selective); ln1/ln2 mean and rstd (fp32);
 *   att: cuDNN keeps fp32 softmax stats L B NH T (--attention flash), the
 *   plain kernels the whole L B NH T T matrix; lnf BT C; losses BT (fp32);
 *   output BT x max(3C, NH T, Vp) (logits and their gradient, in place);
 *   scratch BT f + BT C. -r 2 (--grad-ckpt full) recomputes ln1/ln2 too. */
static void llmc_acts(const struct calc *c, struct terms *t)
{
    const struct est_workload *wl = c->wl;
    long double a = c->a, h = c->h, f = c->ffn, L = c->L, T = c->T;
    long double B = (long double)wl->batch, S = (long double)wl->seq;
    long double NH = (long double)c->m->heads;
    long double per_layer = (wl->ckpt == EST_CKPT_FULL ? 3 : 5) * h + 3 * h + f +
                            (wl->ckpt == EST_CKPT_NONE ? f : 0);
    long double att = wl->attention == EST_ATTN_FLASH ? 4 * L * B * NH * S : a * L * B * NH * S * S;
    t->acts = a * T * (h + L * per_layer + h + (wl->ckpt == EST_CKPT_NONE ? 0 : f)) +
              4 * T * (4 * L + 3) + att;
    long double out = 3 * h;
    if (NH * S > out) out = NH * S;
    if (c->V > out) out = c->V;
    t->logits = a * T * out;
    t->temp_fwd = a * T * (f + h);
    t->temp_step = 0; /* one fused AdamW kernel, in place */
    t->copies = 0;
}

/* Generation, phase by phase (docs/estimate.md, "Inference and
 * generation"). Sizes in bytes; positions are counted the way the code
 * counts them: generating G tokens feeds G - 1 of them back, so a growing
 * cache ends at prompt + G - 1 positions, while a static one is allocated
 * for its whole length (HF generate: max_length = prompt + G). */
struct gen {
    long double prompt, ctx;       /* prompt; positions cached at the last decode step */
    long double len;               /* positions the cache allocates (static: its length) */
    long double kv_at, per_tok;    /* positions attended at the last step; bytes per position */
    long double heads_stored;      /* K/V heads as stored (kv-heads, or every query head) */
    long double kv_prefill, kv_decode, kv_old; /* the cache; what a step keeps of the old one */
    long double mask_keep, mask_build; /* the causal mask through a forward; extra while built */
    long double mask_keep_d, mask_build_d;
    long double acts_prefill, acts_decode, logits_prefill, logits_decode;
    long double logits_held;       /* the prefill's returned logits, held through the first step */
    long double probs_kept;        /* --gen-loop gpt-fast: the earlier decode steps' probabilities */
    enum est_mask mask;            /* auto resolved */
    bool all_logits;               /* prefill logits for every prompt position */
    bool nocache;                  /* generation without a KV cache: every step reruns the sequence */
};

/* The family's HF head upcasts every position's logits (fams[].upcasts_logits). */
static bool upcasts_logits(enum est_family f)
{
    return (unsigned)f < EST_FAM__COUNT && fams[f].upcasts_logits;
}

/* Eager attention's inference peak, bytes per score element (one head, one
 * query, one key). HF's Llama attention (huggingface/transformers:src/
 * transformers/models/llama/modeling_llama.py@002272831fba LlamaAttention.forward,
 * and the "Copied from" Mistral, Mixtral, Qwen2, Gemma, Qwen3, Phi-3 ones) makes
 * the scores C in the model's dtype (matmul / sqrt(d), + the mask) and then
 * `softmax(C, dim=-1, dtype=torch.float32).to(query_states.dtype)`. ATen's
 * softmax with a dtype runs the fused half-to-float kernel only for a CUDA
 * Half input; any other input is first copied, `input_.toType(dtype)`
 * (pytorch/pytorch:aten/src/ATen/native/SoftMax.cpp@52644650f0a9). So bf16
 * holds C, its fp32 copy and the fp32 output at the softmax (a + 8 = 10 B:
 * torch 1.13 CPU measures 10.00 B per score for that line in bf16, 8.00 in
 * fp32), and the .to() holds C, the fp32 output and the 16-bit result
 * (2a + 4 = 8 B), fp16's larger moment. Other families and autocast keep the
 * old count: the fp32 softmax beside the scores (4 + a). */
static bool llama_eager(enum est_family f)
{
    return (unsigned)f < EST_FAM__COUNT && fams[f].llama_eager;
}

static long double eager_infer_elem(const struct calc *c)
{
    long double a = c->a;
    enum est_precision p = c->wl->precision;
    if (!llama_eager(c->m->family) || (p != EST_BF16 && p != EST_FP16 && p != EST_FP32)) return 4 + a;
    long double at_softmax = a + (p == EST_BF16 ? 4 : 0) + 4;
    long double at_cast = p == EST_FP32 ? 0 : 2 * a + 4;
    return at_softmax > at_cast ? at_softmax : at_cast;
}

/* Eager attention's code paths at prefill, by what is alive at their
 * largest moment (per token: h, q, K/V widths; per score element: bytes). */
enum eager_path { EAGER_HF_LLAMA, EAGER_AWQ_FUSED, EAGER_ENCODER, EAGER_OTHER };

static enum eager_path eager_path_of(const struct calc *c)
{
    if (c->wl->fuse_layers) return EAGER_AWQ_FUSED;
    if (c->f->encoder) return EAGER_ENCODER;
    return llama_eager(c->m->family) ? EAGER_HF_LLAMA : EAGER_OTHER;
}

/* One block's working set at an eager prefill (no autograd): the larger of
 * the attention's moment and the MLP's, not their sum - the attention's
 * tensors are freed when its forward returns, before the MLP runs.
 *
 * Attention, per path (S = batch x heads x prompt x positions scores):
 * - HF Llama family (LlamaAttention / eager_attention_forward, transformers
 *   4.35-4.5x): the layer input (the residual) and the normed input stay
 *   bound in the decoder layer, q (after rotary), K and V (the cache's own
 *   tensors; counted here only without a cache), repeat_kv's expanded K, V
 *   where KV heads are grouped; at the softmax the scores' bytes of
 *   eager_infer_elem; at the output, the 16-bit probabilities (the pre-
 *   softmax tensor is rebound) + the attention output and its
 *   transpose(1, 2).contiguous() copy.
 * - AutoAWQ's fused QuantAttentionFused (casper-hansen/AutoAWQ:awq/modules/
 *   fused/attn.py@5c7e3682d, prefill branch): the block input and norm_out,
 *   the fused xqkv output (xq, xk, xv are views of it), the rotated xq, xk
 *   (RoPE's `.type_as(xq)`: new tensors), repeat_interleave'd keys and
 *   values (every query head), then `F.softmax(scores.float(), dim=-1)
 *   .type_as(xq)`: the fp16 scores, their explicit fp32 copy and the fp32
 *   output at once (a + 8); at the output the fp16 probabilities + the
 *   output and its contiguous copy.
 * - encoders (HF BertSelfAttention, DistilBERT's MultiHeadSelfAttention):
 *   the layer input and q, k, v; `attention_scores` (scaled and masked) stays
 *   bound while `attention_probs = softmax(attention_scores)` and the context
 *   matmul run, then `context.permute(0, 2, 1, 3).contiguous()` copies:
 *   scores + probabilities (a + a; 4 + a where the softmax is fp32, + a for
 *   autocast's cast) + the context twice.
 * - other families: the old count (the scores and an fp32 softmax, 4 + a)
 *   beside the input, its norm, q, K and V; not measured here.
 * MLP: the residual, the normed input and the activation tensors (gated:
 * act(gate), up and their product; plain: fc's output and the activation's,
 * four ffn-sized under HF's Python gelu_new). */
/* The MLP's part of one block's working set at prefill, elements per token.
 * Llama4TextMoe (modeling_llama4.py@000c33fd) and, at inference, gpt-oss's
 * GptOssExperts feed every token to every expert: the larger of the
 * family's two moments per token and expert (dense_at; the fam table's
 * comments list the tensors alive at each). Elsewhere the routed experts'
 * gated (or plain) MLP on k tokens' worth. */
static long double prefill_mlp_elems(const struct calc *c, long double per_ffn)
{
    if (c->m->experts && (c->f->dense_at[0].h || c->f->dense_at[0].f)) {
        long double best = 0;
        for (size_t i = 0; i < 2; i++) {
            long double e = c->f->dense_at[i].h * c->h + c->f->dense_at[i].f * c->ffn;
            if (e > best) best = e;
        }
        return (long double)c->m->experts * best;
    }
    long double k = c->m->experts ? (long double)c->m->experts_per_token : 1;
    return per_ffn * c->ffn * k;
}

static long double prefill_eager_block(const struct calc *c, const struct gen *g, long double k_prefill)
{
    const struct est_workload *wl = c->wl;
    long double b = (long double)wl->batch, a = c->a, T = b * g->prompt;
    long double S = b * (long double)c->m->heads * g->prompt * k_prefill;
    long double h = c->h, qd = c->qd, kvd = c->kvd;
    bool grouped = !wl->kv_expanded && c->m->kv_heads < c->m->heads;
    bool own_kv = g->per_tok <= 0; /* no cache holds K and V */
    long double base, at_softmax, at_out;
    switch (eager_path_of(c)) {
    case EAGER_HF_LLAMA:
        base = 2 * h + qd + (own_kv ? 2 * kvd : 0) + (grouped ? 2 * qd : 0);
        at_softmax = eager_infer_elem(c), at_out = a;
        break;
    case EAGER_AWQ_FUSED:
        base = 2 * h + (qd + 2 * kvd) + (qd + kvd) + (c->m->kv_heads < c->m->heads ? 2 * qd : 0);
        at_softmax = a + 8, at_out = a;
        break;
    case EAGER_ENCODER: {
        long double sm = softmax_upcast(c) ? 4 : a;
        base = h + qd + 2 * kvd;
        at_softmax = a + sm, at_out = a + sm + (sm > a ? a : 0);
        break;
    }
    default:
        base = 2 * h + qd + 2 * kvd;
        at_softmax = 4 + a, at_out = a;
        break;
    }
    long double soft = T * a * base + S * at_softmax, out = T * a * (base + 2 * qd) + S * at_out;
    long double attn = soft > out ? soft : out;
    long double f = gated(c->m) ? 3 : (act_saves(c) > 1 ? 4 : 2);
    long double mlp = T * a * (2 * h + prefill_mlp_elems(c, f));
    return attn > mlp ? attn : mlp;
}

/* Positions kept under a sliding window (Gemma-2: every other layer). */
static long double windowed(const struct calc *c, long double pos)
{
    long double win = (long double)c->m->sliding_window;
    if (win <= 0 || pos <= win) return pos;
    if (c->f->window_every > 1) /* all layers but every N-th windowed */
        return (pos + (c->f->window_every - 1) * win) / c->f->window_every;
    return c->f->window_half ? (pos + win) / 2 : win;
}

/* The causal mask for q new tokens against k positions: what a forward keeps
 * and what it holds on top while building it. N = the cache length (square)
 * or the model's max positions (max-positions). */
static void mask_bytes(const struct calc *c, const struct gen *g, long double q, long double k,
                       long double *keep, long double *build)
{
    long double b = (long double)c->wl->batch, a = c->a;
    long double n = g->mask == EST_MASK_MAXPOS ? (long double)c->m->max_positions : g->len;
    *keep = *build = 0;
    switch (g->mask) {
    case EST_MASK_4D: *keep = b * q * k * a; break;
    case EST_MASK_SQUARE: *keep = n * n + q * n; break; /* bool mask_cache + its rows */
    case EST_MASK_ROWS: /* torchtune: tril(ones(total, max_seq_len)), sliced as views */
        *keep = (g->prompt + (long double)c->wl->gen_len) * n;
        break;
    case EST_MASK_MAXPOS:
        /* int64 buffer; repeat(batch) in int64, then .to(dtype) and * min:
         * the int64 copy is alive while the first dtype copy is made */
        *keep = n * n * 8 + b * n * n * a;
        *build = b * n * n * (8 > a ? 8 : a);
        break;
    default: break;
    }
}

/* Generation without a KV cache (--cache none --gen-len N): HF generate on a
 * model that returns no past_key_values reruns the whole sequence at every
 * step. BertLMHeadModel on an encoder checkpoint is one: BertModel.forward
 * sets use_cache = False unless config.is_decoder (huggingface/transformers:
 * src/transformers/models/bert/modeling_bert.py@004ad5f5), so
 * prepare_inputs_for_generation passes the full input_ids each step; a
 * decoder called with generate(use_cache=False) is another. The model's
 * head computes logits for every position (no logits_to_keep before
 * transformers 4.45), and the greedy/sample loop (generation/utils.py,
 * 4.36-4.44) rebinds `outputs = self(...)` only when the step's forward
 * returns, so the previous step's output, its logits of one position fewer,
 * is alive beside the step's forward. The peak is the last step: a forward
 * over prompt + generated - 1 positions beside the held output. */
static bool nocache_gen(const struct est_workload *wl)
{
    return wl->mode == EST_MODE_INFER && wl->cache == EST_CACHE_NONE && wl->gen_len > 0;
}

/* gen_plan's prompt-side terms describe that last step's forward; the held
 * output is the previous step's logits as the model returned them (HF's
 * loop only; its positions: every one, or the last under --prefill-logits
 * last). */
static void nocache_plan(const struct calc *c, struct gen *g)
{
    long double b = (long double)c->wl->batch;
    g->nocache = true;
    g->kv_prefill = g->kv_decode = g->kv_old = g->acts_decode = g->logits_decode = 0;
    g->mask_keep_d = g->mask_build_d = 0;
    g->logits_held = 0;
    if (c->wl->head != EST_HEAD_LM || c->wl->trainer != EST_TRAINER_HF || c->wl->gen_len < 2) return;
    g->logits_held = (g->all_logits ? b * (g->prompt - 1) : b) * c->V *
                     (g->all_logits && upcasts_logits(c->m->family) ? 4 : c->a);
}

/* gpt-fast's Attention.forward (pytorch/ao:torchao/_models/llama/model.py
 * @b0758dcc4 and @86c7b0d1d): `k, v = self.kv_cache.update(input_pos, k, v)`
 * returns the whole static buffers, then `k.repeat_interleave(n_head //
 * n_local_heads, dim=1)` and the same for v copy them to every query head
 * before SDPA, in prefill and in every decode step: one layer's K and V over
 * the whole cache length, for every head, alive through the attention. At
 * prefill that moment holds the block's input and its q beside them; the
 * MLP's moment is the other candidate (the larger is the working set). */
static void gptfast_plan(const struct calc *c, struct gen *g)
{
    const struct est_workload *wl = c->wl;
    if (wl->kv_expanded || c->m->kv_heads >= c->m->heads) return;
    long double b = (long double)wl->batch, a = c->a;
    long double rep = 2 * b * (long double)c->m->heads * (long double)c->m->head_dim * a * g->len;
    long double attn = b * g->prompt * a * (2 * c->h + c->qd) + rep;
    if (attn > g->acts_prefill) g->acts_prefill = attn;
    if (wl->attention != EST_ATTN_EAGER) g->acts_decode += rep; /* eager's repeat_kv term has it */
}

static void gen_plan(const struct calc *c, struct gen *g)
{
    const struct est_workload *wl = c->wl;
    long double b = (long double)wl->batch, a = c->a, G = (long double)wl->gen_len;
    long double layers = (long double)c->m->layers + (long double)c->m->decoder_layers;
    memset(g, 0, sizeof *g);
    g->prompt = (long double)prompt_of(wl);
    if (nocache_gen(wl)) g->prompt += G - 1; /* the last step's forward (nocache_plan) */
    g->ctx = G > 0 ? g->prompt + G - 1 : g->prompt;
    bool is_static = wl->cache == EST_CACHE_STATIC && G > 0;
    bool rolling = wl->cache == EST_CACHE_ROLLING && G > 0;
    g->len = wl->cache_len > 0 ? (long double)wl->cache_len
             : wl->cache_len < 0 ? (long double)c->m->max_positions : g->prompt + G;
    if (!is_static && !rolling && wl->mask != EST_MASK_SQUARE && wl->mask != EST_MASK_ROWS) g->len = g->ctx;
    /* gpt-fast's setup_caches: max_seq_length = find_multiple(max_seq_length, 8)
     * sizes the KVCache buffers and the causal mask (pytorch/ao:torchao/_models/
     * llama/model.py@b0758dcc4 and @86c7b0d1d) */
    if (wl->gen_loop == EST_GEN_GPTFAST) g->len = ceill(g->len / 8) * 8;
    g->heads_stored = wl->kv_expanded ? (long double)c->m->heads : (long double)c->m->kv_heads;
    g->per_tok = 2 * layers * g->heads_stored * (long double)c->m->head_dim * a * b;
    /* MLA under HF: DeepseekV3Attention caches the decompressed key_states
     * (heads x head_dim: nope + rope) and value_states (heads x v_head_dim)
     * (modeling_deepseek_v3.py@00b676f8, past_key_value.update), not the
     * latent vLLM keeps (est_mla_latent_per_token) */
    if (c->m->kv_lora_rank)
        g->per_tok = layers * (long double)c->m->heads * (long double)(c->m->head_dim + c->m->v_head_dim) * a * b;
    /* no K, V kept: --cache none (a decoder called with use_cache=False), or
     * an encoder's forward (BertModel/RobertaModel return past_key_values
     * only when configured as a decoder: BertModel.forward sets use_cache =
     * False unless config.is_decoder, huggingface/transformers:src/
     * transformers/models/bert/modeling_bert.py@004ad5f5; an encoder-only
     * benchmark such as HF's PyTorchBenchmark runs the bare forward) */
    if (wl->cache == EST_CACHE_NONE || (c->f->encoder && !wl->gen_len)) g->per_tok = 0;
    g->mask = resolve_mask(wl);
    /* an encoder's padding mask is (batch, 1, 1, seq) (HF
     * get_extended_attention_mask outside is_decoder), not a causal square */
    if (c->f->encoder && (!wl->gen_len || nocache_gen(wl)) && wl->mask == EST_MASK_AUTO) g->mask = EST_MASK_NONE;
    if (is_static) {
        g->kv_prefill = g->kv_decode = g->per_tok * windowed(c, g->len);
        g->kv_at = g->len; /* HF attends over the whole static cache */
    } else if (rolling) {
        /* AutoAWQ's fused attention (casper-hansen/AutoAWQ:awq/modules/fused/
         * cache.py and attn.py@5c7e3682d): WindowedCache allocates V (batch,
         * kv heads, N, head_dim) and K (batch, kv heads, head_dim / 8, N, 8)
         * in fp16 once per layer (N = max_seq_len = max_new_tokens) and writes
         * each step in place; when start_pos + seqlen > N a decode step calls
         * roll_kv_n_steps(n=100): `self.v = torch.roll(self.v, -n, 2)`, then
         * the same for k - a new tensor while the old one is alive, freed on
         * rebinding, one layer's V (then K) at a time. A decode step attends
         * over the positions written so far, at most N. */
        g->kv_prefill = g->kv_decode = g->per_tok * windowed(c, g->len);
        g->kv_at = g->ctx < g->len ? g->ctx : g->len;
        if (G > 1 && g->ctx > g->len) g->kv_old = g->kv_decode / (2 * (layers > 0 ? layers : 1));
    } else {
        g->kv_prefill = g->per_tok * windowed(c, g->prompt);
        /* HF GPT-2's tuple cache (GPT2Attention.forward: `query, key, value =
         * self.c_attn(hidden_states).split(self.split_size, dim=2)`, `present
         * = (key, value)` of their _split_heads views, huggingface/transformers:
         * src/transformers/models/gpt2/modeling_gpt2.py@0010f602): the prompt's presents
         * keep c_attn's whole output, q's third too, until the first decode
         * step's torch.cat makes new tensors (the legacy caller's old tuple
         * through that step is those views) */
        if (wl->cache == EST_CACHE_LEGACY && c->f->kv_views && wl->trainer == EST_TRAINER_HF && c->kvd > 0)
            g->kv_prefill *= (c->qd + 2 * c->kvd) / (2 * c->kvd);
        g->kv_decode = g->per_tok * windowed(c, g->ctx);
        g->kv_at = g->ctx;
        /* legacy: the caller's old tuple (ctx - 1 positions) outlives the
         * step; DynamicCache: one old K (or V) tensor of one layer during
         * its torch.cat, freed before the other is concatenated */
        long double old = g->per_tok * windowed(c, g->ctx - 1);
        if (G > 1) g->kv_old = wl->cache == EST_CACHE_LEGACY ? old : old / (2 * (layers > 0 ? layers : 1));
    }
    /* rolling: AutoAWQ's prefill attends over the prompt's own xk, xv (the
     * cache is read back only when seqlen == 1, attn.py@5c7e3682d) */
    long double k_prefill = is_static ? g->len : g->prompt;
    mask_bytes(c, g, g->prompt, k_prefill, &g->mask_keep, &g->mask_build);
    mask_bytes(c, g, 1, g->kv_at, &g->mask_keep_d, &g->mask_build_d);
    /* one block's working set over the prompt (no autograd) */
    long double nh = (long double)c->m->heads;
    if (wl->attention == EST_ATTN_EAGER) /* the larger of the attention's and the MLP's moment */
        g->acts_prefill = prefill_eager_block(c, g, k_prefill);
    else {
        g->acts_prefill = b * g->prompt * a * (3 * c->h + c->qd + 2 * c->kvd + prefill_mlp_elems(c, gated(c->m) ? 3 : 2));
        if (wl->attention == EST_ATTN_SDPA_MATH) /* the math kernel: scores and softmax in the dtype */
            g->acts_prefill += b * nh * g->prompt * k_prefill * 2 * a;
    }
    /* decode, eager: HF's repeat_kv copies one layer's K and V to every
     * head (grouped layout only), and the scores over the cache */
    if (wl->attention == EST_ATTN_EAGER && G > 0) {
        long double rep = !wl->kv_expanded && c->m->kv_heads < c->m->heads ? 2 * (long double)c->m->head_dim * a : 0;
        g->acts_decode = b * nh * g->kv_at * (rep + eager_infer_elem(c));
    }
    if (wl->gen_loop == EST_GEN_GPTFAST) gptfast_plan(c, g);
    g->all_logits = !G || wl->prefill_logits == EST_PLOGITS_ALL ||
                    (wl->prefill_logits == EST_PLOGITS_AUTO && (wl->cache == EST_CACHE_LEGACY || nocache_gen(wl)));
    if (wl->head == EST_HEAD_LM) {
        long double Tp = b * g->prompt;
        if (!G) g->logits_prefill = Tp * c->V * a;
        else if (g->all_logits) /* every position, fp32 in forward (Llama family); the last token's scores a view */
            g->logits_prefill = Tp * c->V * (a + (upcasts_logits(c->m->family) ? 4 : 0));
        else
            g->logits_prefill = b * c->V * (a + 4);
        g->logits_decode = b * c->V * (a + 4);
        /* as returned: fp32 where the head upcasts, else the model's dtype */
        g->logits_held = (g->all_logits ? Tp : b) * c->V * (g->all_logits && upcasts_logits(c->m->family) ? 4 : a);
    }
    if (nocache_gen(wl)) nocache_plan(c, g);
    /* gpt-fast's decode_n_tokens appends every step's probs.clone() to
     * new_probs, dropped only when the loop returns (generate: `generated_tokens,
     * _ = decode_n_tokens(...)`): at the last step G - 2 earlier steps' and the
     * step's own, (batch, vocab) in the logits' dtype (the model's: softmax keeps
     * it). pytorch/ao:torchao/_models/llama/generate.py@b0758dcc4
     * (logits_to_probs(logits[:, -1]), batch rows) and @86c7b0d1d;
     * pytorch-labs/gpt-fast:generate.py@0055c42d (batch 1, logits[0, -1]). The
     * prefill returns only the next token, so nothing of it is held (no HF
     * first-step moment). */
    if (wl->gen_loop == EST_GEN_GPTFAST && wl->head == EST_HEAD_LM && G > 1)
        g->probs_kept = (G - 1) * b * c->V * a;
    /* torchtune's generate() (pytorch/torchtune:torchtune/generation/
     * _generation.py@0f74070f4, from 726abb06a, 2024-09-16): generate_next_token
     * returns the model's logits, fp32 (TransformerDecoder: `self.output(h).float()`,
     * torchtune/modules/transformer.py@0f74070f4), and the loop keeps them:
     * generated_logits starts as the prefill's (batch, prompt, vocab) and every
     * step does `generated_logits = torch.cat([generated_logits, logits], dim=1)`.
     * The last step's forward runs beside prompt + G - 2 rows; its cat holds
     * those, the new prompt + G - 1 rows and the step's own row at once. A
     * tensor re-made each step, not equal blocks: the churning slack share.
     * (Later versions, e.g. @bd2a0fc7, start from the last position's row, a
     * view of the prefill's logits until the first cat: fewer rows for a long
     * prompt.) */
    if (wl->gen_loop == EST_GEN_TORCHTUNE && wl->head == EST_HEAD_LM && G > 1) {
        long double row = b * c->V * 4, old_rows = g->prompt + G - 2;
        long double work = g->acts_decode > g->logits_decode ? g->acts_decode : g->logits_decode;
        long double at_cat = (2 * old_rows + 2) * row, at_fwd = old_rows * row + work;
        g->probs_kept = (at_cat > at_fwd ? at_cat : at_fwd) - work;
    }
}

/* AutoAWQ's fuse_layers=True (casper-hansen/AutoAWQ:awq/models/llama.py
 * @5c7e3682d LlamaFuser.fuse_transformer, the same for Mistral): for each
 * decoder layer in turn fuse_qkv builds a new WQLinear whose qweight, qzeros
 * and scales are torch.cat of q_proj's, k_proj's and v_proj's
 * (awq/utils/fused_utils.py), then a LlamaLikeBlock whose QuantAttentionFused
 * allocates the layer's WindowedCache (`torch.zeros(shape).to(device).half()`:
 * fp32 on the GPU, then its fp16 copy; awq/modules/fused/cache.py). The old
 * layers stay in self.model.model until the loop ends and LlamaLikeModel
 * replaces it, so at the last layer the whole model's packed q, k, v exist
 * twice, every layer's cache is allocated and one cache tensor is held in
 * fp32 beside its fp16 copy. o_proj, the MLP linears, the norms' weights and
 * the embedding are reused, not copied. No matmul has run yet, so no cuBLAS
 * workspace is allocated. The peak is the larger of that load moment and
 * the run's. */
static long double blas_workspaces(const struct calc *c);

static void fuse_load(const struct calc *c, const struct gen *g, struct terms *t)
{
    const struct est_workload *wl = c->wl;
    if (!wl->fuse_layers || wl->mode != EST_MODE_INFER) return;
    long double layers = (long double)c->m->layers;
    long double qkv = layers * c->h * (c->qd + 2 * c->kvd) * quant_weight_bytes(wl);
    long double cache = g->kv_prefill;
    long double fp32 = layers > 0 ? cache / (2 * layers) * 2 : 0; /* one K (or V) in fp32: twice its fp16 bytes */
    /* the run's peak holds the cuBLAS workspace; the fusion precedes any matmul */
    long double run = t->kv + t->acts + t->logits + t->temp_fwd + blas_workspaces(c);
    if (qkv + cache + fp32 <= run) return;
    t->fuse_load = true;
    t->decode = t->first_step = false;
    t->kv = cache;
    t->acts = t->logits = 0;
    t->temp_fwd = qkv + fp32;
}

/* An inference forward with grad enabled (--autograd on|train: no
 * torch.no_grad() / inference_mode() around `model(x)`). The parameters
 * still require grad, so every op saves what it saves in training, and the
 * output's grad_fn keeps all of it alive until the output is dropped; no
 * backward, no gradients, no optimizer. The saved set is the training
 * forward's (block_acts, act_outside: the same functions), taken on a
 * training calc of the same shape without checkpointing or compile, with
 * the dropout of the model's mode (eval: none; train: the family's or the
 * config's) and, for *-mixed, the inference weights' dtype: infer loads
 * 16-bit weights under autocast (infer_terms), i.e. the -autocast rule
 * (litgpt keeps its fp32 model under autocast). The peak is the end of the
 * forward: the saved tensors beside the returned logits. K and V returned as
 * presents are the tensors attention saved, except the grouped K and V that
 * HF's repeat_kv copies before eager/SDPA attention (the saved copies are
 * expanded; the presents hold the unexpanded ones too) and GPT-NeoX's fp32
 * key (presents_extra). */
static void autograd_forward(const struct calc *c, const struct gen *g, struct terms *t)
{
    const struct est_workload *wl = c->wl;
    struct est_model m = *c->m;
    struct est_workload w = *wl;
    struct calc tc;
    struct oomlab_err err;
    if (wl->autograd == EST_GRAD_EVAL) m.dropout = 2; /* model.eval(): every nn.Dropout is the identity */
    w.mode = EST_MODE_TRAIN;
    w.ckpt = EST_CKPT_NONE;
    w.compiled = false;
    w.seq = (int64_t)g->prompt;
    w.use_cache = g->per_tok > 0 ? 1 : 2;
    if (c->mixed && wl->trainer != EST_TRAINER_LITGPT)
        w.precision = wl->precision == EST_BF16_MIXED ? EST_BF16_AUTOCAST : EST_FP16_AUTOCAST;
    if (calc_init(&tc, &m, &w, &err)) return; /* the same shape est_compute's calc_init accepted */
    long double per = block_acts(&tc, scores_kept(wl->attention));
    long double presents = 0;
    if (g->per_tok > 0) {
        presents = presents_extra(&tc);
        bool expanded = c->m->kv_heads < c->m->heads && wl->attention != EST_ATTN_FLASH && !fused_qkv(&tc) &&
                        !c->f->qkv_view && wl->trainer == EST_TRAINER_HF;
        if (expanded) presents += tc.L * 2 * tc.a * tc.kvd;
    }
    t->autograd = true;
    t->acts = tc.T * (tc.L * per + act_outside(&tc));
    t->kv = tc.T * presents;
    t->logits = g->logits_prefill;
    t->temp_fwd = g->mask_keep + dequant_temp(c);
    /* an evaluation loop that rebinds `logits = model(x)` (or `outputs`)
     * holds the previous iteration's output, and through its grad_fn that
     * forward's whole graph, until this forward returns: two graphs at once
     * (--loop-holds logits; outputs: its presents too) */
    if (wl->loop_holds == EST_KEEP_LOGITS || wl->loop_holds == EST_KEEP_OUTPUTS) {
        t->acts *= 2;
        t->logits *= 2;
        if (wl->loop_holds == EST_KEEP_OUTPUTS) t->kv *= 2;
    }
}

/* Inference. A plain forward (no --gen-len) is the prefill alone. With
 * generation the peak is the larger of prefill (the prompt's cache, one
 * block's working set over the prompt, the causal mask, the prefill logits)
 * and the last decode step (the whole cache and what the cache model keeps
 * of the old one, the mask, the last token's logits). The mask is built
 * before the blocks run: its build transient and the block working set are
 * not alive at once (temporaries carry the excess). */
static void infer_terms(const struct calc *c, struct terms *t)
{
    const struct est_workload *wl = c->wl;
    struct gen g;
    t->w = weight_bytes(c);
    if (c->mixed && wl->trainer == EST_TRAINER_LITGPT) {
        /* lit-gpt under Fabric's bf16-mixed: the model is built in fp32
         * (generate/base.py@8641822: fabric.init_module; the mixed plugin
         * changes no dtype) and every forward runs under torch.autocast
         * (MixedPrecision.forward_context, fabric/plugins/precision/amp.py),
         * whose cache keeps the 16-bit cast of every leaf weight that
         * requires grad until the context exits: the block linears and the
         * lm_head (embedding lookups and norms are not cast) */
        if (wl->mode != EST_MODE_LOAD) t->copies = 2 * (c->Plin + c->Pbig);
    } else if (c->mixed && wl->quant == EST_QUANT_NONE) {
        t->w = c->P * 2; /* inference under autocast: load in 16-bit (quantized: weight_bytes) */
    }
    if (wl->mode == EST_MODE_LOAD) {
        t->temp_fwd = torchao_nf4_temp(c) + bnb_load_temp(c) + awq_repack_temp(c);
        return;
    }
    gen_plan(c, &g);
    /* a block's working set and the head's (its input + the logits) are not
     * alive at once: activations carry what a block holds beyond the head */
    long double head_p = g.logits_prefill + (long double)wl->batch * (g.logits_prefill > 0 ? g.prompt : 0) * c->h * c->a;
    long double work_p = g.acts_prefill > head_p ? g.acts_prefill : head_p;
    long double work_d = g.acts_decode > g.logits_decode ? g.acts_decode : g.logits_decode;
    long double prefill = g.kv_prefill + g.mask_keep + (g.mask_build > work_p ? g.mask_build : work_p);
    if (wl->autograd != EST_GRAD_OFF) {
        autograd_forward(c, &g, t);
        return;
    }
    if (g.nocache) { /* the last step's forward beside the previous step's output */
        t->nocache = true;
        t->kv = 0;
        t->logits = g.logits_prefill + g.logits_held;
        t->acts = work_p - g.logits_prefill;
        t->temp_fwd = g.mask_keep + (g.mask_build > work_p ? g.mask_build - work_p : 0) + dequant_temp(c);
        return;
    }
    /* DynamicCache's old tensor is freed inside its layer, before the head
     * runs; the legacy caller's old tuple lives through the whole step */
    long double old = g.kv_old;
    if (wl->cache == EST_CACHE_DYNAMIC || wl->cache == EST_CACHE_ROLLING) old = g.kv_old > work_d ? g.kv_old - work_d : 0;
    long double decode = g.kv_decode + old + g.mask_keep_d + (g.mask_build_d > work_d ? g.mask_build_d : work_d) +
                         g.probs_kept;
    /* The first decode step: HF generate's loop rebinds `outputs = self(...)`
     * only when the step's forward returns, so the prefill's output, its
     * logits of every prompt position (or the last one's), is alive through
     * the step beside the prompt's cache (the legacy caller's old tuple) and
     * the one-longer new cache (transformers generation/utils.py, the
     * greedy/sample loops of 4.36-4.44; gpt-fast and litgpt keep only the
     * next token) */
    long double step1 = 0;
    if (wl->gen_len > 1 && wl->head == EST_HEAD_LM && wl->trainer == EST_TRAINER_HF && wl->gen_loop != EST_GEN_GPTFAST) {
        long double kv1 = g.kv_decode, old1 = 0;
        if (wl->cache == EST_CACHE_ROLLING) {
            old1 = g.prompt + 1 > g.len ? old : 0; /* the first step rolls a full window */
        } else if (wl->cache != EST_CACHE_STATIC) {
            kv1 = g.per_tok * windowed(c, g.prompt + 1);
            old1 = wl->cache == EST_CACHE_LEGACY ? g.kv_prefill : (old < g.kv_prefill ? old : g.kv_prefill);
        }
        step1 = kv1 + old1 + g.logits_held + g.mask_keep_d + (g.mask_build_d > work_d ? g.mask_build_d : work_d);
    }
    t->decode = wl->gen_len > 0 && (decode > prefill || step1 > prefill);
    t->first_step = t->decode && step1 > decode;
    if (t->first_step) {
        t->kv = step1 - g.logits_held - g.mask_keep_d - (g.mask_build_d > work_d ? g.mask_build_d : work_d);
        t->logits = g.logits_held + g.logits_decode;
        t->acts = work_d - g.logits_decode;
        t->temp_fwd = g.mask_keep_d + (g.mask_build_d > work_d ? g.mask_build_d - work_d : 0);
    } else if (t->decode) {
        t->kv = g.kv_decode + old;
        t->logits = g.logits_decode + g.probs_kept;
        t->kept = wl->gen_loop == EST_GEN_GPTFAST ? g.probs_kept : 0;
        t->acts = work_d - g.logits_decode;
        t->temp_fwd = g.mask_keep_d + (g.mask_build_d > work_d ? g.mask_build_d - work_d : 0);
    } else {
        t->kv = g.kv_prefill;
        t->logits = g.logits_prefill;
        t->acts = work_p - g.logits_prefill;
        t->temp_fwd = g.mask_keep + (g.mask_build > work_p ? g.mask_build - work_p : 0);
    }
    t->temp_fwd += dequant_temp(c);
    fuse_load(c, &g, t);
}

/* ---- variable-length batches and the caching allocator (estvar) ------ */

/* One training step's tensors, in the order the step makes and frees them,
 * fed to the allocator model (allocsim): each block's saved tensors (in
 * pieces of one residual-stream tensor, a h T), the logits and the loss's
 * buffers, the backward's per-block working set (the recomputed block under
 * checkpointing, the MLP's gradient buffers), full fine-tuning's gradients
 * (freed at the step's end unless kept). Sizes come from the same per-token
 * terms as the estimate. Tensors are tagged by group so a group can be
 * freed at once. */
struct vl {
    struct allocsim sim;
    int h[4096], grp[4096];
    int n;
    bool over;
};

enum { VL_HEAD = 1 << 16, VL_LOSS, VL_GRADH, VL_WORK, VL_GRADS };

static void vl_alloc(struct vl *v, long double bytes, int group)
{
    if (bytes < 1) return;
    if (v->n >= (int)(sizeof v->h / sizeof v->h[0])) {
        v->over = true;
        return;
    }
    v->h[v->n] = allocsim_alloc(&v->sim, (int64_t)bytes);
    v->grp[v->n++] = group;
}

static void vl_chunks(struct vl *v, long double total, long double piece, int group)
{
    for (int k = 0; total >= 1 && k < 64; k++) {
        long double x = (total < 1.5L * piece || k == 63) ? total : piece;
        vl_alloc(v, x, group);
        total -= x;
    }
}

static void vl_free_group(struct vl *v, int group)
{
    for (int i = v->n - 1; i >= 0; i--)
        if (v->grp[i] == group && v->h[i] >= 0) {
            allocsim_free(&v->sim, v->h[i]);
            v->h[i] = -1;
        }
    while (v->n > 0 && v->h[v->n - 1] < 0) v->n--;
}

static bool vl_ckpt(const struct calc *c, int i)
{
    switch (c->wl->ckpt) {
    case EST_CKPT_FULL: case EST_CKPT_OP: return true;
    case EST_CKPT_EVERY: return c->wl->ckpt_every > 0 && (i + 1) % c->wl->ckpt_every == 0;
    default: return false;
    }
}

static void vl_step(const struct calc *c, const struct terms *t, struct vl *v, long double T)
{
    const struct est_workload *wl = c->wl;
    long double a = c->a, h = c->h, piece = a * h * T;
    bool eager = scores_kept(wl->attention);
    long double per = block_acts(c, eager), keep = wl->ckpt == EST_CKPT_OP ? act_layer_op(c) : c->r * h;
    long double recompute = ckpt_recompute(c, per);
    long double k = c->m->experts ? (long double)c->m->experts_per_token : 1;
    int L = (int)c->L;
    for (int i = 0; i < L; i++) vl_chunks(v, (vl_ckpt(c, i) ? keep : per) * T, piece, i);
    long double scale = c->T > 0 ? T / c->T : 0; /* logits and loss terms are per c->T tokens */
    if (wl->head == EST_HEAD_LM) {
        vl_alloc(v, a * T * c->V, VL_HEAD);
        vl_alloc(v, t->logits * scale - a * T * c->V, VL_HEAD);
        long double lt = wl->loss == EST_LOSS_CE ? 8 * T * c->V : 0;
        vl_alloc(v, lt / 2, VL_LOSS);
        vl_alloc(v, lt / 2, VL_LOSS);
        vl_free_group(v, VL_LOSS);
    }
    vl_free_group(v, VL_HEAD);
    vl_alloc(v, piece, VL_GRADH);
    long double gb = (wl->precision == EST_FP32 || (c->mixed && !c->ds)) ? 4 : 2;
    long double lin[7] = {h * c->qd, h * c->kvd, h * c->kvd, c->qd * h, h * c->ffn * k, c->ffn * h * k, 0};
    if (gated(c->m)) lin[6] = h * c->ffn * k;
    for (int i = L - 1; i >= 0; i--) {
        if (vl_ckpt(c, i)) vl_chunks(v, recompute * T, piece, VL_WORK);
        vl_alloc(v, 3 * a * c->ffn * k * T, VL_WORK);
        if (c->full && !(wl->grad_accum > 1 || wl->keep_grads))
            for (int j = 0; j < 7; j++) vl_alloc(v, gb * lin[j], VL_GRADS);
        vl_free_group(v, VL_WORK);
        vl_free_group(v, i);
    }
    vl_free_group(v, VL_GRADH);
    vl_free_group(v, VL_GRADS); /* zero_grad(set_to_none=True) */
}

/* The reserved high-water mark of steps at these lengths (tokens per sample). */
static int64_t vl_reserved(const struct calc *c, const struct terms *t, const int64_t *len, int n, bool *ok)
{
    struct vl v;
    v.n = 0;
    v.over = false;
    allocsim_init(&v.sim);
    for (int i = 0; i < n; i++) vl_step(c, t, &v, (long double)c->wl->batch * (long double)len[i]);
    int64_t r = v.sim.peak_reserved;
    if (v.sim.failed || v.over) *ok = false;
    allocsim_release(&v.sim);
    return r;
}

/* A fixed-seed generator (xorshift64*), so the same workload gives the
 * same estimate. */
static double vl_uniform(uint64_t *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return ((double)((*x * 2685821657736338717ULL) >> 11) + 0.5) / 9007199254740992.0;
}

static int cmp_len(const void *p, const void *q)
{
    int64_t a = *(const int64_t *)p, b = *(const int64_t *)q;
    return (a > b) - (a < b);
}

#define VL_MAX_SAMPLES 100000
#define VL_MAX_RECORDS 16

/* --var-len: the epoch's sample lengths (lognormal with the given mean and
 * sd, cut at seq), in the sampler's order, grouped into micro-batches
 * padded to their longest; each micro-batch longer than every one before it
 * is a step whose length-sized tensors the cached blocks of the shorter steps
 * cannot all hold, so the allocator reserves new segments while the old
 * ones stay cached. Simulated on those record steps (at most 48, evenly
 * picked, the last kept); the extra is that high-water mark less the one of
 * steps at the epoch's longest length alone. Steps between records are not
 * simulated (they reuse cached blocks; their splitting of large blocks is
 * not modelled). */
#define VL_ORDERS 8

/* One epoch order (seed): its record steps' extra reserved bytes. */
static long double varlen_order(const struct calc *c, const struct terms *t, int64_t *len, int64_t ns,
                                uint64_t seed, int *records, int64_t *longest, bool *ok)
{
    const struct est_workload *wl = c->wl;
    double m = wl->len_mean, sd = wl->len_sd > 0 ? wl->len_sd : 0;
    double s2 = log(1 + (sd / m) * (sd / m)), mu = log(m) - s2 / 2, sg = sqrt(s2);
    uint64_t x = seed;
    for (int64_t i = 0; i < ns; i++) {
        double u1 = vl_uniform(&x), u2 = vl_uniform(&x);
        double z = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
        double l = exp(mu + sg * z);
        if (l > (double)wl->seq) l = (double)wl->seq;
        len[i] = l < 1 ? 1 : (int64_t)(l + 0.5);
    }
    if (wl->len_order != 0) qsort(len, (size_t)ns, sizeof *len, cmp_len);
    if (wl->len_order == 2)
        for (int64_t i = 0; i < ns / 2; i++) {
            int64_t tmp = len[i];
            len[i] = len[ns - 1 - i];
            len[ns - 1 - i] = tmp;
        }
    /* micro-batches padded to their longest; keep the records in place */
    int64_t best = 0, nrec = 0;
    for (int64_t i = 0; i < ns; i += wl->batch) {
        int64_t lb = 0;
        for (int64_t j = i; j < ns && j < i + wl->batch; j++)
            if (len[j] > lb) lb = len[j];
        if (lb > best) len[nrec++] = best = lb;
    }
    int64_t rec[VL_MAX_RECORDS];
    int n = 0;
    for (int i = 0; i < VL_MAX_RECORDS && i < nrec; i++)
        rec[n++] = len[nrec <= VL_MAX_RECORDS ? i : (int64_t)i * (nrec - 1) / (VL_MAX_RECORDS - 1)];
    int64_t fixed[2] = {best, best};
    int64_t var = vl_reserved(c, t, rec, n, ok), base = vl_reserved(c, t, fixed, 2, ok);
    *records += (int)nrec;
    if (best > *longest) *longest = best;
    return var > base ? (long double)(var - base) : 0;
}

/* --var-len: the epoch's sample lengths (lognormal with the given mean and
 * sd, cut at seq), in the sampler's order, grouped into micro-batches
 * padded to their longest. Each micro-batch longer than every one before it
 * needs length-sized blocks that the cached blocks of the shorter steps
 * cannot hold whole, so the allocator cudaMallocs new segments while the old
 * ones stay cached (they serve smaller requests, split). Simulated on those
 * record steps (at most 16, evenly picked, the last kept); the extra is that
 * high-water mark less the one of steps at the epoch's longest length alone,
 * averaged over 8 shuffles for a random order (which records a run meets
 * depends on its seed). Steps between records are not simulated: they reuse
 * cached blocks (their splitting of large blocks is not modelled). */
static void varlen_extra(const struct calc *c, const struct terms *t, struct est_result *r, long double *extra)
{
    const struct est_workload *wl = c->wl;
    *extra = 0;
    if (!(wl->len_mean > 0) || wl->mode != EST_MODE_TRAIN || wl->trainer == EST_TRAINER_LLMC) return;
    int64_t ns = wl->len_samples > 0 ? wl->len_samples : 1000;
    if (ns > VL_MAX_SAMPLES) ns = VL_MAX_SAMPLES;
    int64_t *len = malloc((size_t)ns * sizeof *len);
    if (!len) return;
    int orders = wl->len_order == 0 ? VL_ORDERS : 1, records = 0;
    int64_t longest = 0;
    bool ok = true;
    long double sum = 0;
    for (int k = 0; k < orders; k++)
        sum += varlen_order(c, t, len, ns, 0x9E3779B97F4A7C15ULL + 0xD1B54A32D192ED03ULL * (uint64_t)k,
                            &records, &longest, &ok);
    free(len);
    r->varlen_records = (records + orders / 2) / orders;
    r->varlen_longest = longest;
    if (ok) *extra = sum / orders;
}

/* ---- assembling the result ---------------------------------------- */

static const char *const comp_names[EST_C__COUNT] = {
    "weights", "16-bit weight copies", "fp32 master weights", "gradients", "optimizer states",
    "activations", "logits + loss", "KV cache", "temporaries", "cuBLAS workspaces", "CUDA context",
    "NCCL buffers", "allocator slack",
};

struct wrange { const char *name; int64_t v, lo, hi; };

static int check_workload(const struct est_workload *wl, struct oomlab_err *err)
{
    const struct wrange r[] = {
        {"batch", wl->batch, 1, 1 << 24},        {"seq", wl->seq, 1, 1 << 24},
        {"grad-accum", wl->grad_accum, 1, 1 << 20}, {"gpus", wl->gpus, 1, 1 << 16},
        {"lora-r", wl->lora_r, 0, 1 << 16},      {"prompt-len", wl->prompt_len, 0, 1 << 24},
        {"gen-len", wl->gen_len, 0, 1 << 24},
    };
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++)
        if (r[i].v < r[i].lo || r[i].v > r[i].hi)
            return oomlab_err_set(err, "%s %lld is out of range (%lld..%lld)", r[i].name,
                                  (long long)r[i].v, (long long)r[i].lo, (long long)r[i].hi);
    if (wl->quant_kernel != EST_QKERNEL_AUTO && wl->quant != EST_QUANT_AWQ)
        return oomlab_err_set(err, "--quant-kernel names an AWQ checkpoint's kernels: use it with --quant awq");
    if (wl->quant_kernel >= EST_QKERNEL_EXLLAMA && (wl->mode == EST_MODE_TRAIN || wl->fuse_layers))
        return oomlab_err_set(err, "--quant-kernel %s: AutoAWQ's ExLlama linears are inference-only and are not "
                                   "fused (--mode infer or load, without --fuse-layers)",
                              est_qkernel_name(wl->quant_kernel));
    if (wl->ckpt == EST_CKPT_EVERY && (wl->ckpt_every < 1 || wl->ckpt_every > 4096))
        return oomlab_err_set(err, "grad-ckpt every:N wants N in 1..4096");
    if (wl->trainer == EST_TRAINER_LLMC && wl->ckpt > EST_CKPT_FULL)
        return oomlab_err_set(err, "llm.c recomputes with -r 0/1/2: --grad-ckpt none, selective or full");
    if (!(wl->lora_dropout < 1) || (wl->lora_dropout < 0 && wl->lora_dropout != -1))
        return oomlab_err_set(err, "lora-dropout must be between 0 and 1");
    if (wl->quant_group < -1 || wl->quant_group > (1 << 20))
        return oomlab_err_set(err, "quant-group must be -1 (per channel) or a group size up to 1048576");
    if (!(wl->headroom >= 0 && wl->headroom < 0.9))
        return oomlab_err_set(err, "headroom must be between 0%% and 90%%");
    if (wl->capacity_bytes == 0 || wl->capacity_bytes < -1)
        return oomlab_err_set(err, "capacity must be a positive size");
    if (wl->mode == EST_MODE_TRAIN && wl->quant == EST_QUANT_FP8)
        return oomlab_err_set(err, "fp8 weights: training on them is not modelled (--mode infer or load; "
                                   "--quant none is the 16-bit model)");
    if (wl->mode == EST_MODE_TRAIN && wl->quant != EST_QUANT_NONE && wl->lora_r == 0)
        return oomlab_err_set(err, "quantized (%s) weights are frozen: train them with LoRA "
                                   "(--lora-r), i.e. QLoRA", est_quant_name(wl->quant));
    /* DeepSpeed runs ZeRO on one GPU (its buffers and fp32 master stay).
     * FSDP1 (FullyShardedDataParallel) switches to NO_SHARD when the world
     * size is 1 (torch/distributed/fsdp/_init_utils.py: "FSDP is switching to
     * use `NO_SHARD` instead of ShardingStrategy.FULL_SHARD since the world
     * size is 1"): that is --shard none. FSDP2's fully_shard has no such
     * switch: on a one-rank mesh it still casts and gathers each block into
     * an unsharded copy and frees it after use (prime-rl wraps its model so
     * even on one GPU), which the torchtitan FSDP2 model covers with N = 1. */
    if (wl->gpus == 1 && wl->shard == EST_SHARD_FSDP && wl->offload == EST_OFFLOAD_NONE &&
        wl->trainer != EST_TRAINER_TORCHTITAN)
        return oomlab_err_set(err, "--shard fsdp on one GPU: FSDP (FullyShardedDataParallel) switches to "
                                   "NO_SHARD there, so use --shard none; FSDP2's fully_shard on one GPU "
                                   "is --trainer torchtitan; or DeepSpeed's zero1|zero2|zero3");
    if (wl->no_reshard && (wl->shard != EST_SHARD_FSDP || wl->trainer == EST_TRAINER_TORCHTITAN ||
                           wl->offload != EST_OFFLOAD_NONE))
        return oomlab_err_set(err, "--no-reshard is FSDP's SHARD_GRAD_OP / reshard_after_forward=False: use it "
                                   "with --shard fsdp (not --trainer torchtitan, whose FSDP2 reshards every "
                                   "block but the last, nor --offload)");
    if (wl->compile_loss == 1 && ((wl->trainer != EST_TRAINER_TORCHTITAN && wl->trainer != EST_TRAINER_TORCHTUNE) ||
                                  wl->mode != EST_MODE_TRAIN || wl->head != EST_HEAD_LM || wl->loss != EST_LOSS_CE))
        return oomlab_err_set(err, "--compile-loss yes is modelled for torchtitan's loss (--trainer torchtitan) "
                                   "and own model code whose compiled forward takes the loss (--trainer torchtune "
                                   "--compile), with --mode train, --head lm, --loss ce");
    if (wl->compile_loss == 1 && wl->trainer == EST_TRAINER_TORCHTUNE && !wl->compiled)
        return oomlab_err_set(err, "--compile-loss yes with --trainer torchtune is own model code whose forward "
                                   "takes the loss under torch.compile(model): add --compile");
    if (wl->gen_loop != EST_GEN_AUTO && (wl->mode != EST_MODE_INFER || !wl->gen_len || wl->cache != EST_CACHE_STATIC ||
                                          wl->trainer != EST_TRAINER_HF))
        return oomlab_err_set(err, "--gen-loop %s is %s: use it with --mode infer, --gen-len N and --cache static "
                                   "(its KV cache is allocated once), without --trainer",
                              wl->gen_loop == EST_GEN_GPTFAST ? "gpt-fast" : "torchtune",
                              wl->gen_loop == EST_GEN_GPTFAST ? "gpt-fast's (torchao's) generate.py"
                                                              : "torchtune's generate()");
    if (wl->ds_bucket < -1 || wl->ds_bucket > ((int64_t)1 << 40) || wl->ds_prefetch < -1 ||
        wl->ds_prefetch > ((int64_t)1 << 40))
        return oomlab_err_set(err, "--ds-bucket / --ds-prefetch want elements (1..2^40) or auto");
    if (wl->ds_persist < EST_DS_NONE || wl->ds_persist > ((int64_t)1 << 40))
        return oomlab_err_set(err, "--ds-persist wants elements (0..2^40) or auto");
    if (wl->ds_max_live < 0 || wl->ds_max_live > ((int64_t)1 << 40))
        return oomlab_err_set(err, "--ds-max-live wants elements (1..2^40); DeepSpeed has no \"auto\" for "
                                   "stage3_max_live_parameters");
    if (wl->autograd != EST_GRAD_OFF && (wl->mode != EST_MODE_INFER || wl->gen_len))
        return oomlab_err_set(err, wl->gen_len ? "--autograd is a forward run with grad enabled; HF generate() "
                                                 "is decorated with torch.no_grad(), so generation keeps no graph: "
                                                 "drop --autograd (a hand-written decode loop under grad is not "
                                                 "modelled)"
                                               : "--autograd is an inference forward with grad enabled: use it "
                                                 "with --mode infer (training always records the graph)");
    if (wl->autograd != EST_GRAD_OFF && (wl->quant != EST_QUANT_NONE || wl->lora_r || wl->trainer == EST_TRAINER_LLMC))
        return oomlab_err_set(err, "--autograd is modelled for a model whose weights require grad (no --quant, "
                                   "--lora-r or --trainer llm.c)");
    if (wl->offload != EST_OFFLOAD_NONE && wl->mode != EST_MODE_TRAIN)
        return oomlab_err_set(err, "--offload moves training states (optimizer, gradients, weights) to "
                                   "the CPU: use it with --mode train");
    if (wl->offload == EST_OFFLOAD_PARAMS && wl->shard != EST_SHARD_ZERO3 && wl->shard != EST_SHARD_FSDP &&
        wl->shard != EST_SHARD_GEMINI)
        return oomlab_err_set(err, "--offload params needs --shard zero3, fsdp or gemini (the weights are "
                                   "gathered to the GPU block by block)");
    if (wl->shard == EST_SHARD_GEMINI &&
        (wl->mode != EST_MODE_TRAIN || (wl->precision != EST_FP16 && wl->precision != EST_BF16) ||
         wl->quant != EST_QUANT_NONE || wl->trainer == EST_TRAINER_LLMC || wl->trainer == EST_TRAINER_TORCHTITAN))
        return oomlab_err_set(err, "--shard gemini is ColossalAI's GeminiDDP in training: a 16-bit model with "
                                   "fp32 master chunks and no autocast (--precision fp16 or bf16), unquantized, "
                                   "outside llm.c and torchtitan");
    if (wl->offload == EST_OFFLOAD_OPTIMIZER && wl->shard == EST_SHARD_FSDP)
        return oomlab_err_set(err, "FSDP offloads parameters and gradients together: use --offload params");
    if (wl->shard == EST_SHARD_ZERO0 && (wl->offload != EST_OFFLOAD_NONE || wl->mode != EST_MODE_TRAIN))
        return oomlab_err_set(err, "--shard zero0 is DeepSpeed's training engine without ZeRO: no offload "
                                   "(DeepSpeed offloads only under ZeRO stages), --mode train");
    if (wl->optim_in_bwd && (wl->mode != EST_MODE_TRAIN || wl->grad_accum > 1 || wl->keep_grads || wl->gpus > 1 ||
                             wl->shard != EST_SHARD_NONE || wl->offload != EST_OFFLOAD_NONE))
        return oomlab_err_set(err, "--optim-in-bwd is torchtune's optimizer_in_bwd on one GPU: use it with --mode "
                                   "train, no --grad-accum (the recipe refuses accumulation), --keep-grads, "
                                   "--shard or --offload");
    if (wl->act_offload && (wl->mode != EST_MODE_TRAIN || (wl->ckpt != EST_CKPT_NONE && wl->ckpt != EST_CKPT_FULL) ||
                            wl->trainer == EST_TRAINER_LLMC))
        return oomlab_err_set(err, "--act-offload moves a training forward's saved activations to the CPU: "
                                   "use it with --mode train and --grad-ckpt none or block (not --trainer llm.c)");
    if (wl->offload != EST_OFFLOAD_NONE && wl->trainer == EST_TRAINER_LLMC)
        return oomlab_err_set(err, "llm.c has no CPU offload");
    if (is_autocast16(wl->precision) && ds_engine(wl) && wl->mode == EST_MODE_TRAIN)
        return oomlab_err_set(err, "DeepSpeed's engine runs no autocast (its bf16/fp16 casts the model): "
                                   "use --precision bf16 or fp16 with --shard zero1|zero2|zero3");
    return 0;
}

static int to_bytes(long double v, int64_t *out, const char *what, struct oomlab_err *err)
{
    if (!(v >= 0) || v > EST_MAX_BYTES)
        return oomlab_err_set(err, "%s comes to more than 4 EB: the sizes given are absurd", what);
    *out = (int64_t)(v + 0.5L);
    return 0;
}

static void fmt_gib(long double v, char *buf, size_t n)
{
    if (!(v >= 0) || v > EST_MAX_BYTES) snprintf(buf, n, "(out of range)");
    else units_format_bytes((int64_t)(v + 0.5L), buf, n);
}

/* What one weight costs, for the weights formula: "2 B", or the quantized
 * linears' bytes (gptq/awq: by group) and the rest's dtype; fp32: unquantized
 * weights are 4 B. */
/* fp8 linears for the weights formula: bytes each (2 once compressed-tensors
 * has decompressed them), how many, their scales and layout. */
static void fp8_desc(const struct calc *c, char *qb, size_t qn, char *grp, size_t gn)
{
    const struct est_workload *wl = c->wl;
    char sb[32], per[48];
    bool dec = est_fp8_decompressed(wl);
    int64_t bo, bi;
    est_fp8_block(wl, &bo, &bi);
    fmt_gib(c->fp8_scales, sb, sizeof sb);
    if (wl->fp8_scale == EST_FP8_BLOCK)
        snprintf(per, sizeof per, "%lldx%lld", (long long)bo, (long long)bi);
    else
        snprintf(per, sizeof per, "%s", est_fp8_scale_words(wl->fp8_scale));
    snprintf(qb, qn, "%s", dec ? "2" : "1");
    snprintf(grp, gn, " %.0Lf%s, %s %s scales per %s", c->fp8_params, dec ? " decompressed at the first forward" : "",
             sb, est_fp8_scale_dtype(wl), per);
}

static void weights_desc(const struct calc *c, bool fp32, char *buf, size_t n)
{
    const struct est_workload *wl = c->wl;
    static const char *const qbytes[] = {"", "1", "0.5625", "0.516", "", "", "1"};
    static const char *const qlinears[] = {"", "int8 block", "nf4", "nf4 double-quant", "gptq", "awq", "fp8"};
    char qb[16], grp[160] = "";
    snprintf(qb, sizeof qb, "%s", qbytes[wl->quant]);
    if (wl->quant == EST_QUANT_GPTQ || wl->quant == EST_QUANT_AWQ) {
        snprintf(qb, sizeof qb, "%.4Lg", quant_weight_bytes(wl));
        if (wl->quant_group < 0) snprintf(grp, sizeof grp, ", per channel");
        else snprintf(grp, sizeof grp, ", group %lld", (long long)(wl->quant_group ? wl->quant_group : 128));
    }
    if (wl->quant == EST_QUANT_FP8) fp8_desc(c, qb, sizeof qb, grp, sizeof grp);
    if (wl->quant)
        snprintf(buf, n, "%s B (%s linears%s) + %s", qb, qlinears[wl->quant], grp,
                 c->kbit && !wl->kbit_trl ? "fp32 rest (prepare_model_for_kbit_training)"
                 : c->kbit ? "16-bit rest (TRL's peft_module_casting_to_bf16; fp32 norms)" : "16-bit rest");
    else
        snprintf(buf, n, "%s", fp32 ? "4 B" : "2 B");
}

static void explain_train(const struct calc *c, const struct terms *t, struct est_result *r)
{
    const struct est_workload *wl = c->wl;
    char b[32];
    long double N = (long double)c->N;
    fmt_gib(t->w, b, sizeof b);
    char wdesc[160];
    weights_desc(c, wl->precision == EST_FP32 || (c->mixed && !c->ds), wdesc, sizeof wdesc);
    snprintf(r->comp[EST_C_WEIGHTS].formula, sizeof r->comp[0].formula,
             "params %.0Lf x %s%s%s = %s", c->P, wdesc,
             wl->shard >= EST_SHARD_ZERO3 && wl->shard != EST_SHARD_ZERO0 ? " / gpus" : "",
             replicated_quant_state(c) > 0 ? (wl->offload == EST_OFFLOAD_PARAMS
                                                  ? " (offloaded), but the 4-bit quant state whole on each GPU"
                                                  : ", the 4-bit quant state whole on each GPU")
                                           : "",
             b);
    fmt_gib(t->copies, b, sizeof b);
    snprintf(r->comp[EST_C_WEIGHT_COPIES].formula, sizeof r->comp[0].formula,
             c->mixed ? "autocast keeps 2 B copies of the block linears: %.0Lf x 2 B = %s"
                      : "autocast keeps 2 B copies of PEFT's fp32 adapters: %.0Lf x 2 B = %s",
             c->mixed ? c->Plin : c->Ptrain, b);
    fmt_gib(t->master, b, sizeof b);
    snprintf(r->comp[EST_C_MASTER].formula, sizeof r->comp[0].formula,
             "trainable %.0Lf x 4 B%s = %s", c->Ptrain, wl->shard && wl->shard != EST_SHARD_ZERO0 ? " / gpus" : "", b);
    fmt_gib(t->grads, b, sizeof b);
    if (t->grads_fwd > t->grads) {
        char u[32];
        fmt_gib(t->grads_fwd, u, sizeof u);
        snprintf(r->comp[EST_C_GRADS].formula, sizeof r->comp[0].formula,
                 "%s %.0Lf x %s = %s unsharded while accumulating (FSDP no_sync), / gpus = %s at the step",
                 fsdp_mixed_units(c) ? "params of the FSDP units holding LoRA (litgpt wraps each Block whole)"
                 : peft_fp32_adapters(c) ? peft_adapters_why(c) : "trainable",
                 grad_params(c), (wl->precision == EST_FP32 || (c->mixed && !c->ds) || peft_fp32_adapters(c)) ? "4 B" : "2 B", u, b);
    } else {
        snprintf(r->comp[EST_C_GRADS].formula, sizeof r->comp[0].formula,
                 "%s %.0Lf x %s%s = %s",
                 fsdp_mixed_units(c) ? "params of the FSDP units holding LoRA (litgpt wraps each Block whole)"
                 : peft_fp32_adapters(c) ? peft_adapters_why(c) : "trainable",
                 grad_params(c), (wl->precision == EST_FP32 || (c->mixed && !c->ds) || peft_fp32_adapters(c)) ? "4 B" : "2 B",
                 wl->shard >= EST_SHARD_ZERO2 && wl->shard != EST_SHARD_ZERO0 ? " / gpus" : "", b);
    }
    if (wl->optim_in_bwd)
        snprintf(r->comp[EST_C_GRADS].formula, sizeof r->comp[0].formula,
                 "--optim-in-bwd: each of the %.0Lf trainable params' gradients is stepped and freed at its hook; "
                 "the largest alive at once, the embedding's %.0Lf x %s = %s",
                 grad_params(c), c->Pbig < grad_params(c) ? c->Pbig : grad_params(c),
                 (wl->precision == EST_FP32 || c->mixed || peft_fp32_adapters(c)) ? "4 B" : "2 B", b);
    if (t->grads_ckpt > 0 && t->ckpt_phase >= 2) {
        char u[32], line[200];
        fmt_gib(t->grads_ckpt, u, sizeof u);
        snprintf(line, sizeof line, "; at the fwd/bwd moment %s of them: %s, made before the %s block is recomputed", u,
                 t->ckpt_phase == 3 ? (wl->shard == EST_SHARD_FSDP ? "blocks 1..L-1's gradient shards"
                                                                    : "the head's and blocks 1..L-1's gradients")
                                    : "the head's gradient",
                 t->ckpt_phase == 3 ? "first" : "last");
        formula_append(r, EST_C_GRADS, line);
    }
    fmt_gib(t->optim, b, sizeof b);
    snprintf(r->comp[EST_C_OPTIM].formula, sizeof r->comp[0].formula,
             "%s: trainable %.0Lf x %s%s = %s", est_optimizer_name(wl->optimizer), c->Ptrain,
             wl->optimizer == EST_OPT_ADAMW ? (state_elem(c) == 4 ? "8 B (m, v fp32)" : "4 B (m, v 16-bit)")
             : wl->optimizer == EST_OPT_PAGED_ADAMW ? "8 B (m, v fp32) of tensors under 1e5 elements; the rest paged"
             : wl->optimizer == EST_OPT_ADAMW8 ? "2 B (m, v 8-bit)"
             : wl->optimizer == EST_OPT_ADAFACTOR ? "4 B over factored row+column stats"
             : wl->optimizer == EST_OPT_NONE || wl->optimizer == EST_OPT_SGD ? "0 B"
             : (state_elem(c) == 4 ? "4 B (one fp32 state)" : "2 B (one 16-bit state)"),
             wl->shard && wl->shard != EST_SHARD_ZERO0 && N > 1 ? " / gpus" : "", b);
    fmt_gib(t->acts, b, sizeof b);
    char pol[24];
    bool eager = scores_kept(wl->attention);
    long double per_layer = act_policy(c, block_acts(c, eager), block_acts(c, false));
    if (t->ckpt_phase == 1 || t->ckpt_phase == 4) per_layer -= ckpt_recompute(c, block_acts(c, eager));
    long double off = act_offloaded(c, block_acts(c, eager));
    if (t->ckpt_phase == 3 && !wl->act_offload) per_layer -= (c->L - 1) * c->r * c->h;
    per_layer -= c->T > 0 ? off / c->T : 0;
    char gq[160] = "", gb[32];
    if (gptq_saved_weights(c) > 0) {
        fmt_gib(gptq_saved_weights(c), gb, sizeof gb);
        snprintf(gq, sizeof gq, " + the fp16 dequantized GPTQ linears their matmuls keep, %.0Lf block%s (%s)",
                 gptq_saved_layers(c), gptq_saved_layers(c) == 1 ? "" : "s", gb);
    }
    snprintf(r->comp[EST_C_ACTS].formula, sizeof r->comp[0].formula,
             "tokens %.0Lf x (layers %.1Lf x %.0Lf B/token/layer kept under checkpointing %s: %s; "
             "%s attention%s%s) + %.0Lf B/token outside the blocks%s = %s%s",
             c->T, c->L, per_layer / c->L,
             est_ckpt_describe(wl, pol, sizeof pol), ckpt_keeps[wl->ckpt],
             est_attn_name(wl->attention), eager ? " incl. heads x seq score bytes" : "",
             compiled_blocks(c) && wl->ckpt == EST_CKPT_OP
                 ? "; torch.compile under the op policy: the MUST_SAVE values backward reads (the down "
                   "projection's output, which eager SAC's cache keeps, is not saved)"
             : compiled_blocks(c) ? "; torch.compile: the partitioner's saved set"
             : family_act_note(c),
             act_outside(c), gq, b,
             t->ckpt_phase == 1 && t->loss_fwd
                 ? "; peak at the end of the loss's forward (--transformers), before backward"
             : t->ckpt_phase == 1 ? "; peak at the loss's backward, before any block is recomputed"
             : t->ckpt_phase == 2 ? "; peak while a block is recomputed, the loss's buffers freed"
             : t->ckpt_phase == 3 ? "; peak at the first block's recompute: later inputs freed, their gradients alive"
             : t->ckpt_phase == 4 ? "; peak at forward's end: + the K/V presents (use_cache) beside the loss" : "");
    if (off > 0) {
        char line[200], ob[32];
        fmt_gib(off, ob, sizeof ob);
        snprintf(line, sizeof line,
                 "; --act-offload: %.0Lf blocks' %s in pinned host memory (%s), the block in backward's on the GPU",
                 c->L - 1, wl->ckpt == EST_CKPT_FULL ? "checkpointed inputs" : "saved tensors", ob);
        formula_append(r, EST_C_ACTS, line);
    }
    fmt_gib(t->logits, b, sizeof b);
    long double VT = c->T * c->V;
    snprintf(r->comp[EST_C_LOGITS].formula, sizeof r->comp[0].formula,
             wl->head == EST_HEAD_CLS ? "classification head: negligible"
             : "tokens %.0Lf x vocab %.0Lf x %.0Lf B (%s) = %s", c->T, c->V,
             VT > 0 ? t->logits / VT : 0,
             wl->trainer == EST_TRAINER_LLMC ? "llm.c output buffer, B T max(3C, NH T, Vp)"
             : wl->loss == EST_LOSS_SUM ? "logits kept"
             : wl->loss_upcast == 2
                 ? (t->ckpt_phase == 2 || t->ckpt_phase == 3 ? "16-bit logits the loop holds while a block is recomputed"
                    : held_logits(c) > 0 ? "16-bit logits the loop holds + 16-bit log-softmax (--loss-upcast no)"
                                         : "16-bit log-softmax (--loss-upcast no); logits deleted before backward")
             : est_loss_compiled(wl) ? "16-bit logits the compiled loss saves (--compile-loss); no fp32 log-softmax"
             : (wl->trainer == EST_TRAINER_TORCHTUNE || wl->trainer == EST_TRAINER_TORCHTITAN)
                 ? (holds_logits(wl) ? (t->ckpt_phase == 2 || t->ckpt_phase == 3 ? "fp32 logits the loop holds while a block is recomputed"
                                                          : "fp32 logits the loop holds + fp32 log-softmax")
                                    : "fp32 log-softmax; logits deleted before backward")
             : wl->trainer == EST_TRAINER_LITGPT ? "logit chunks made fp32 by Fabric + fp32 log-softmax"
             : t->ckpt_phase == 2 || t->ckpt_phase == 3 ? "logits the caller holds while a block is recomputed"
             : ce_16bit(c->m, wl) ? (wl->loop_holds == EST_KEEP_NONE ? "16-bit log-softmax (DeepSpeed: no autocast); no logits held"
                                                                     : "logits + 16-bit log-softmax (DeepSpeed: no autocast)")
             : wl->loop_holds == EST_KEEP_NONE ? "fp32 log-softmax; the loop holds no logits"
             : "logits + fp32 log-softmax", b);
    snprintf(r->comp[EST_C_KV].formula, sizeof r->comp[0].formula, "training: no KV cache");
    char b2[32];
    fmt_gib(t->temp_fwd, b, sizeof b);
    fmt_gib(t->temp_step, b2, sizeof b2);
    snprintf(r->comp[EST_C_TEMP].formula, sizeof r->comp[0].formula,
             "fwd/bwd: largest of %s, one block's backward, eager score grads "
             "(+ shard/bucket buffers, + the largest quantized linear dequantized) = %s; end of backward / optimizer step: %s working "
             "copy%s or tied-embedding grad = %s",
             t->loss_fwd ? "the loss's forward (the returned logits, the loss code's copies, the final hidden state)"
                         : ce_16bit(c->m, wl) ? "16-bit loss buffers" : "fp32 loss buffers",
             b, wl->foreach ? "foreach" : "per-tensor",
             wl->shard == EST_SHARD_ZERO0 && c->N > 1
                 ? ", DeepSpeed stage 0's flat all-reduce bucket (up to 5e8 gradient elements, after backward)"
                 : "",
             b2);
    if (fsdp2_titan(c)) {
        char b3[32], line[300];
        fmt_gib(fsdp2_loss_gathered(c), b3, sizeof b3);
        snprintf(line, sizeof line, "; FSDP2: root group + last block gathered (bf16) = %s%s", b3,
                 t->ckpt_phase == 2 || t->ckpt_phase == 3 ? " + prefetched block, block grads, fp32 RS input, output grad" : "");
        formula_append(r, EST_C_TEMP, line);
    }
    if (zero_stage(c) && wl->offload == EST_OFFLOAD_NONE) {
        char b3[32];
        fmt_gib(ds_ipg(c), b3, sizeof b3);
        snprintf(r->comp[EST_C_TEMP].formula, sizeof r->comp[0].formula,
                 "fwd/bwd: largest of loss buffers, a block's backward, score grads + ZeRO's "
                 "reduce bucket(s) %.12s%s = %.12s; step: gradient partition cast to fp32, then "
                 "it + the %s step's copy = %.12s", b3,
                 wl->shard == EST_SHARD_ZERO3 ? " + grad buffer, gathered blocks"
                 : wl->shard == EST_SHARD_ZERO2 && c->Ptrain > (long double)est_ds_bucket(c->m, wl) ? " + grad partition" : "",
                 b, wl->fused ? "fused (none)" : wl->foreach ? "foreach" : "per-tensor", b2);
    }
    if (wl->trainer == EST_TRAINER_LLMC) {
        fmt_gib(t->acts, b, sizeof b);
        snprintf(r->comp[EST_C_ACTS].formula, sizeof r->comp[0].formula,
                 "llm.c layout: tokens %.0Lf x (layers %.0Lf x (%s h + 3h qkvr + f fch%s)%s + 2h) x "
                 "%.0Lf B + fp32 LN stats + attention %s = %s", c->T, c->L,
                 wl->ckpt == EST_CKPT_FULL ? "3" : "5", wl->ckpt == EST_CKPT_NONE ? " + f gelu" : "",
                 wl->ckpt == EST_CKPT_NONE ? "" : " + f shared gelu", c->a,
                 wl->attention == EST_ATTN_FLASH ? "cuDNN stats L B NH T x 4 B" : "L B NH T T",
                 b);
        fmt_gib(t->temp_fwd, b, sizeof b);
        snprintf(r->comp[EST_C_TEMP].formula, sizeof r->comp[0].formula,
                 "llm.c scratch buffers: tokens x (f + h) x %.0Lf B = %s", c->a, b);
    }
}

/* Appends to a component's formula (bounded). */
static void formula_append(struct est_result *r, enum est_comp i, const char *text)
{
    char *f = r->comp[i].formula;
    size_t used = strlen(f);
    if (used + 1 < sizeof r->comp[i].formula) snprintf(f + used, sizeof r->comp[i].formula - used, "%s", text);
}

/* What layer_buffers, the presents and --loop-holds outputs added, in words. */
static void explain_kept(const struct calc *c, struct est_result *r)
{
    char b[32], line[200];
    long double buf = layer_buffers(c);
    int64_t rope_n = 0;
    if (buf > 0 && !c->f->layer_bufs && rope_cache_bytes(c, &rope_n) > 0) {
        fmt_gib(buf, b, sizeof b);
        snprintf(line, sizeof line, "; incl. %s of rotary cos/sin every layer caches for %lld positions "
                 "(transformers < %s; --max-positions sets N)", b, (long long)rope_n,
                 c->m->family == EST_FAM_LLAMA ? "4.38" : "4.42");
        formula_append(r, EST_C_WEIGHTS, line);
    } else if (buf > 0) {
        fmt_gib(buf, b, sizeof b);
        snprintf(line, sizeof line, "; incl. %s of buffers every layer registers (bool N x N causal mask%s)", b,
                 c->f->layer_bufs == 2 ? ", fp32 rotary cos/sin" : "");
        formula_append(r, EST_C_WEIGHTS, line);
    }
    long double scratch = awq_exllama_scratch(c);
    if (scratch > 0) {
        fmt_gib(scratch, b, sizeof b);
        snprintf(line, sizeof line, "; incl. %s of ExLlama v2 scratch (the largest linear's fp16 weight + "
                 "out x %d x %d fp32 rows)", b, EXLLAMA_MAX_INPUT_LEN, EXLLAMA_MAX_BATCH);
        formula_append(r, EST_C_WEIGHTS, line);
    }
    if (c->wl->mode != EST_MODE_TRAIN) return;
    long double extra = c->T * presents_extra(c);
    if (extra > 0) {
        fmt_gib(extra, b, sizeof b);
        snprintf(line, sizeof line, "; incl. %s of K/V presents autograd does not keep (fp32 key)", b);
        formula_append(r, EST_C_ACTS, line);
    }
    long double kept = outputs_kept(c);
    if (kept > 0) {
        fmt_gib(kept, b, sizeof b);
        snprintf(line, sizeof line, "; the loop's output object (logits%s) = %s: the previous one at the end of "
                 "forward, the current one at the end of backward", presents_on(c) ? " + K/V presents" : "", b);
        formula_append(r, EST_C_TEMP, line);
    }
}

/* --autograd on|train: what the forward's graph keeps (autograd_forward). */
static void explain_autograd(const struct calc *c, const struct terms *t, struct est_result *r)
{
    char b[32];
    size_t n = sizeof r->comp[0].formula;
    fmt_gib(t->acts, b, sizeof b);
    snprintf(r->comp[EST_C_ACTS].formula, n,
             "saved for backward by every op of the forward (grad enabled, no torch.no_grad), alive while the output "
             "is held: the training forward's activations of all layers, %s (model.%s()), no backward = %s",
             c->wl->autograd == EST_GRAD_EVAL ? "no dropout" : "with dropout",
             c->wl->autograd == EST_GRAD_EVAL ? "eval" : "train", b);
    if (c->wl->loop_holds == EST_KEEP_LOGITS || c->wl->loop_holds == EST_KEEP_OUTPUTS)
        formula_append(r, EST_C_ACTS, " (x 2: the loop's previous output holds its graph through this forward)");
    fmt_gib(t->kv, b, sizeof b);
    snprintf(r->comp[EST_C_KV].formula, n,
             t->kv > 0 ? "presents beyond what attention saved (repeat_kv's unexpanded K, V; GPT-NeoX's fp32 key) = %s"
                       : "presents are the K, V attention saved (counted with the activations), or none = %s", b);
    fmt_gib(t->logits, b, sizeof b);
    snprintf(r->comp[EST_C_LOGITS].formula, n, "tokens x vocab x bytes: the returned logits, whose grad_fn holds the graph = %s", b);
}

static void explain_infer(const struct calc *c, const struct terms *t, struct est_result *r)
{
    char b[32], model[320];
    struct gen g;
    const struct est_workload *wl = c->wl;
    fmt_gib(t->w, b, sizeof b);
    char wdesc[160];
    /* lit-gpt under bf16-mixed builds the model in fp32 (infer_terms) */
    weights_desc(c, wl->precision == EST_FP32 || (c->mixed && wl->trainer == EST_TRAINER_LITGPT), wdesc, sizeof wdesc);
    snprintf(r->comp[EST_C_WEIGHTS].formula, sizeof r->comp[0].formula, "params %.0Lf x %s = %s", c->P, wdesc, b);
    if (wl->mode == EST_MODE_LOAD) {
        fmt_gib(t->temp_fwd, b, sizeof b);
        snprintf(r->comp[EST_C_TEMP].formula, sizeof r->comp[0].formula, "%s = %s",
                 torchao_nf4_temp(c) > 0 && c->wl->torchao01
                     ? "torchao 0.1's to_nf4 of the largest linear: 68 B x its elements"
                 : torchao_nf4_temp(c) > 0
                     ? "torchao's chunked to_nf4 of the largest linear: 5 B x its elements + 72 MiB"
                 : awq_repack_temp(c) > 0
                     ? "AutoAWQ repacking the largest linear for ExLlama: its int64 shifted words, int8 "
                       "weights and int64 sums, 10 B x its elements"
                     : "bitsandbytes quantizing the largest linear: its 16-bit copy on the GPU"
                                           " (+ the fp32 absmax under double quant)", b);
        return;
    }
    gen_plan(c, &g);
    est_cache_describe(c->m, wl, model, sizeof model);
    fmt_gib(t->kv, b, sizeof b);
    char kv_shape[200];
    if (c->m->kv_lora_rank) /* gen_plan: HF's decompressed K, V; vLLM's latent named beside it */
        snprintf(kv_shape, sizeof kv_shape,
                 "MLA as HF caches it (vLLM: the latent, layers x (kv_lora_rank + qk_rope_head_dim) x B = %lld "
                 "B/token): layers x heads %lld x (K %lld + V %lld)",
                 (long long)est_mla_latent_per_token(c->m, (int)c->a), (long long)c->m->heads,
                 (long long)c->m->head_dim, (long long)c->m->v_head_dim);
    else
        snprintf(kv_shape, sizeof kv_shape, "2 (K,V) x layers x %s heads %.0Lf x head-dim %lld",
                 wl->kv_expanded ? "query" : "kv", g.heads_stored, (long long)c->m->head_dim);
    snprintf(r->comp[EST_C_KV].formula, sizeof r->comp[0].formula,
             "%s x %.0Lf B x batch x %.0Lf positions%s (window-capped)%s = %s", kv_shape, c->a,
             wl->cache == EST_CACHE_ROLLING && wl->gen_len ? g.len
             : t->first_step && wl->cache != EST_CACHE_STATIC ? g.prompt + 1
             : t->decode || (wl->cache == EST_CACHE_STATIC && wl->gen_len) ? (wl->cache == EST_CACHE_STATIC ? g.len : g.ctx)
                                                                        : g.prompt,
             wl->cache == EST_CACHE_STATIC && wl->gen_len ? " allocated"
             : wl->cache == EST_CACHE_ROLLING && wl->gen_len ? " allocated, rolling" : "",
             t->decode && g.kv_old > 0 ? (wl->cache == EST_CACHE_LEGACY ? (t->first_step ? " + the old tuple (the prompt's)" : " + the old tuple (one position fewer)")
                                          : wl->cache == EST_CACHE_ROLLING ? " + one layer's old V (or K) during its torch.roll, beyond the head's working set"
                                                                        : " + one layer's old K during its torch.cat, beyond the head's working set")
                                       : "",
             b);
    if (t->nocache)
        snprintf(r->comp[EST_C_KV].formula, sizeof r->comp[0].formula,
                 "none: no past_key_values, every step reruns prompt + generated - 1 = %.0Lf positions = %s", g.prompt, b);
    fmt_gib(t->acts, b, sizeof b);
    snprintf(r->comp[EST_C_ACTS].formula, sizeof r->comp[0].formula,
             t->nocache ? "one block's working set over the whole sequence at the last step (no autograd) beyond the head's input + logits%s = %s"
             : t->decode ? "decode step%s = %s"
                       : "one block's working set at prefill (no autograd) beyond the head's input + logits%s = %s",
             t->decode ? (t->acts > 0 ? (wl->gen_loop == EST_GEN_GPTFAST && wl->attention != EST_ATTN_EAGER
                                             ? ", gpt-fast: one layer's K, V repeat_interleave'd to every head over the cache"
                                             : ", eager: repeat_kv's K, V of one layer + scores over the cache")
                                       : ": one token (negligible)")
             : wl->attention == EST_ATTN_EAGER ? ", eager: the larger of the attention's moment (its inputs, q, the scores and their softmax) and the MLP's"
              : wl->attention == EST_ATTN_SDPA_MATH ? ", math-kernel scores + softmax" : "", b);
    fmt_gib(t->logits, b, sizeof b);
    snprintf(r->comp[EST_C_LOGITS].formula, sizeof r->comp[0].formula, "%s x vocab x bytes = %s",
             !wl->gen_len ? "tokens"
             : t->nocache ? (g.logits_held > 0 ? (g.all_logits ? "positions of the last step (prompt + generated - 1) + of the previous step (held by the caller's `outputs`, as returned)"
                                                               : "the last step's batch + the previous step's (held by the caller's `outputs`)")
                                               : "positions of the last step (prompt + generated - 1)")
             : t->first_step ? (g.all_logits ? "the prefill's logits of every prompt position, held by the caller's `outputs` through the first decode step, + the step's batch (last token, + its fp32 copy)"
                                             : "the prefill's last-token logits, held through the first decode step, + the step's batch (last token, + its fp32 copy)")
             : t->decode && g.probs_kept > 0 && wl->gen_loop == EST_GEN_TORCHTUNE
                 ? "batch (last token, + its fp32 copy) + torchtune's generated_logits at the last torch.cat: the prefill's "
                   "and every step's fp32 rows, old and new tensor"
             : t->decode && g.probs_kept > 0 ? "batch (last token, + its fp32 copy) + every earlier step's sampling probabilities "
                                                "(gpt-fast's new_probs list: generated - 1 steps x batch)"
             : t->decode || !g.all_logits ? "batch (last token, + its fp32 copy)"
             : "prompt tokens (prefill logits of every position, fp32 in forward for Llama-family heads)", b);
    fmt_gib(t->temp_fwd, b, sizeof b);
    static const char *const mask_words[] = {
        "", "no mask", "4-D causal mask (batch, 1, new, cached) x dtype",
        "bool N x N mask_cache + its rows (litgpt), N = cache length",
        "int64 N x N buffer + (batch, 1, N, N) x dtype each forward, + the int64 copy while built (HF 4.38), N = max positions",
        "bool (prompt + generated) x N mask (torchtune generate), N = cache length",
    };
    snprintf(r->comp[EST_C_TEMP].formula, sizeof r->comp[0].formula, "%s%s = %s", mask_words[g.mask],
             wl->quant ? "; dequantized block" : "", b);
    if (t->autograd) explain_autograd(c, t, r);
    if (t->fuse_load) {
        snprintf(r->comp[EST_C_TEMP].formula, sizeof r->comp[0].formula,
                 "fuse_layers at load: every layer's packed q, k, v twice (the unfused layers and the fused qkv "
                 "torch.cat) + one cache tensor in fp32 while its fp16 copy is made = %s", b);
        snprintf(r->comp[EST_C_ACTS].formula, sizeof r->comp[0].formula, "none at load");
        snprintf(r->comp[EST_C_LOGITS].formula, sizeof r->comp[0].formula, "none at load");
    }
}

static int fill(struct est_result *r, enum est_comp i, long double v, bool at_peak,
                struct oomlab_err *err)
{
    r->comp[i].name = comp_names[i];
    r->comp[i].at_peak = at_peak && v > 0;
    return to_bytes(v, &r->comp[i].bytes, comp_names[i], err);
}

/* cuBLAS workspaces. From torch 2.0 every cuBLAS handle gets its workspace
 * from the caching allocator, one per (handle, stream) pair, kept until
 * torch._C._cuda_clearCublasWorkspaces() (getCurrentCUDABlasHandle: "workspace_it
 * = cublas_handle_stream_to_workspace().insert(workspace_it, {key,
 * getNewWorkspace()})", getNewWorkspace = CUDACachingAllocator::get()->allocate
 * (getChosenWorkspaceSize()); pytorch/pytorch:aten/src/ATen/cuda/
 * CublasHandlePool.cpp; pytorch/pytorch#95668: memory_allocated() is 8519680
 * after one nn.Linear forward on 2.0, 0 on 1.13). Handles come from a
 * per-thread pool (DeviceThreadHandlePool), and autograd runs a CUDA backward
 * on its own device thread: training holds two workspaces (forward's and
 * backward's), inference one. Measured: the 27 HF-SDPA-pythia410m rows
 * (optimum's training loop, torch 2.2.1, RTX 3080 Ti) sit 16.25-18.3 MiB above
 * the estimate without this term in both peak phases, 2 x 8519680 B = 16.25
 * MiB. llm.c calls cuBLAS(Lt) with its own workspace; load runs no matmul. */
static long double blas_workspaces(const struct calc *c)
{
    const struct est_workload *wl = c->wl;
    if (wl->torch1 || wl->trainer == EST_TRAINER_LLMC || wl->mode == EST_MODE_LOAD) return 0;
    return (long double)wl->blas_workspace * (wl->mode == EST_MODE_TRAIN ? 2 : 1);
}

/* NCCL's communicator on each rank of a run over several GPUs (torch
 * DDP/FSDP/DeepSpeed's default process group, llm.c's MPI + NCCL). NCCL
 * cudaMallocs its per-channel, per-connection FIFOs itself, outside the
 * caching allocator: nvidia-smi sees them, torch's counters do not. Each
 * channel has its own buffers for collectives (NVIDIA/nccl#1450), and "the
 * memory usage is linearly tied to the number of channels" — NVLink opens
 * many more than PCIe (NVIDIA/nccl#986). Per rank and communicator: */
static const struct nccl_rule {
    enum est_link link;
    int64_t ranks;    /* this many GPUs or more */
    long double bytes;
    const char *why;
} nccl_rules[] = {
    /* measured: 4 x A100 with NVLink, PyTorch, a 4 MB all-reduce in each
     * process group: 544 MiB per group of 2 ranks, 688 MiB from 3 */
    {EST_LINK_NVLINK, 2, 544.0L * 1024 * 1024,
     "544 MiB for 2 ranks on NVLink (4 x A100, PyTorch, one all-reduce: NVIDIA/nccl#964)"},
    {EST_LINK_NVLINK, 3, 688.0L * 1024 * 1024,
     "688 MiB for 3 ranks or more on NVLink (4 x A100, PyTorch, one all-reduce: NVIDIA/nccl#964)"},
    /* no card named, or an AMD one (RCCL, not measured): the NVLink
     * measurement, the larger count */
    {EST_LINK_UNKNOWN, 2, 544.0L * 1024 * 1024,
     "card not named, or not NVIDIA's (RCCL): the NVLink figure, 544 MiB for 2 ranks (NVIDIA/nccl#964)"},
    {EST_LINK_UNKNOWN, 3, 688.0L * 1024 * 1024,
     "card not named, or not NVIDIA's (RCCL): the NVLink figure, 688 MiB for 3 ranks or more (NVIDIA/nccl#964)"},
    /* PCIe: 2 channels (as NCCL's init logs on PCIe pairs print, "Channel
     * 00/02", rwth-i6/returnn#1469), each with the ring's and the tree's
     * up and down connections, one buffer set each */
    {EST_LINK_PCIE, 2, 2.0L * 3 * EST_NCCL_CONN_BYTES,
     "PCIe: 2 channels x 3 connections (ring, tree up, tree down) x 9,633,792 B (Simple 4 MiB + LL128 "
     "4,915,200 + LL 524,288: NVIDIA/nccl src/init.cc DEFAULT_*BUFFSIZE)"},
};

/* The NCCL term of a workload and the sentence saying why (NULL: none). */
static long double nccl_buffers(const struct est_workload *wl, const char **why)
{
    *why = NULL;
    if (wl->gpus < 2) return 0;
    if (wl->nccl_bytes >= 0) {
        *why = "--nccl";
        return (long double)wl->nccl_bytes;
    }
    long double bytes = 0;
    for (size_t i = 0; i < sizeof nccl_rules / sizeof nccl_rules[0]; i++)
        if (nccl_rules[i].link == wl->nccl_link && wl->gpus >= nccl_rules[i].ranks) {
            bytes = nccl_rules[i].bytes;
            *why = nccl_rules[i].why;
        }
    return bytes;
}

static int finish(const struct calc *c, const struct terms *t, struct est_result *r,
                  struct oomlab_err *err)
{
    const struct est_workload *wl = c->wl;
    bool llmc = wl->trainer == EST_TRAINER_LLMC; /* all preallocated: no slack */
    long double g = (wl->grad_accum > 1 || wl->keep_grads || llmc) ? 1 : GRAD_OVERLAP;
    long double persist = t->w + t->master + t->optim;
    if (wl->longest_first && wl->mode == EST_MODE_TRAIN) g = GRAD_OVERLAP; /* iteration 0: no gradient yet */
    long double fwd = t->grads_fwd * g + t->grads_ckpt + t->copies + t->acts + t->logits + t->kv + t->temp_fwd;
    bool later_peak = wl->longest_first && t->later > fwd;
    if (later_peak) fwd = t->later;
    long double step = t->grads + t->temp_step;
    bool step_peak = step > fwd;
    later_peak = later_peak && !step_peak;
    long double alloc = persist + (step_peak ? step : fwd);
    long double blas = t->fuse_load ? 0 : blas_workspaces(c); /* fusion runs before any matmul */
    alloc += blas;
    /* ZeRO-3 on one GPU gathers nothing (NoGatherHandle): no gather buffers to fragment */
    bool sharded = (wl->shard == EST_SHARD_ZERO3 && wl->gpus > 1) || wl->shard == EST_SHARD_FSDP ||
                   wl->shard == EST_SHARD_GEMINI; /* chunks gathered and released */
    /* torchtitan's FSDP2: the collectives' stream pools are counted as they
     * are (fsdp2_stream_pools), the default stream's churn takes the plain
     * share; the gradients alloc holds at the peak are the reduce-scatter
     * pool's blocks (the sharded .grad is a view of the reduce-scatter
     * output, _fsdp_collectives.py foreach_reduce), not bytes beside it: at
     * a step peak all of them, at the fwd/bwd peak those kept from the
     * earlier micro-batches (--grad-accum: FSDP2 accumulates into the
     * shards, train_states), none otherwise (GRAD_OVERLAP 0) */
    bool pools = fsdp2_titan(c);
    long double share = (sharded && !pools) ? SLACK_SHARDED : SLACK_DYNAMIC;
    /* t->kept: equal blocks allocated once each and never freed during the
     * run (gpt-fast's probabilities), so the allocator reuses nothing of them
     * and splits nothing: the long-lived share */
    long double kept = step_peak ? 0 : t->kept;
    long double slack = llmc ? 0 : share * ((step_peak ? step : fwd) - kept) + SLACK_PERSIST * (persist + kept);
    long double pool_bytes = pools ? fsdp2_stream_pools(c) - (step_peak ? t->grads : t->grads_fwd * g) : 0;
    if (pool_bytes > 0) slack += pool_bytes;
    /* --var-len: the epoch's reserved high-water mark. When cudaMalloc fails
     * the allocator frees its cached unsplit segments and retries (header
     * comment of CUDACachingAllocator.cpp), so cached blocks alone never
     * take the reserved figure past the card. */
    const char *nccl_why;
    long double nccl = nccl_buffers(wl, &nccl_why);
    long double varlen = t->varlen;
    if (varlen > 0 && wl->capacity_bytes > 0) {
        long double c0 = wl->context_bytes >= 0 ? (long double)wl->context_bytes : (long double)EST_DEFAULT_CONTEXT;
        long double room = (long double)wl->capacity_bytes - c0 - nccl - t->managed - alloc - slack;
        if (varlen > room) varlen = room > 0 ? room : 0;
    }
    slack += varlen;
    /* model init (torchtune's nf4 quantization): the weights and the
     * transient before any gradient or optimizer state exists; the peak
     * counters keep it as their high-water mark */
    bool init_peak = false;
    if (t->init_tmp > 0) {
        long double ia = t->w + t->init_tmp, is = SLACK_DYNAMIC * t->init_tmp + SLACK_PERSIST * t->w;
        init_peak = ia + is > alloc + slack;
        if (init_peak) {
            alloc = ia;
            slack = is;
            step_peak = later_peak = false;
        }
    }
    bool run = !init_peak;
    long double ctx = wl->context_bytes >= 0 ? (long double)wl->context_bytes : (long double)EST_DEFAULT_CONTEXT;
    /* the context figures (the cards', --torch's) count the workspaces cuBLAS
     * used to allocate itself; from torch 2.0 they are in the allocator's
     * figures instead, so the device total keeps one count of them */
    if (init_peak) blas = 0; /* model init runs before any matmul */
    long double ctx_blas = blas < ctx ? blas : ctx;
    ctx -= ctx_blas;
    if (fill(r, EST_C_WEIGHTS, t->w, true, err) || fill(r, EST_C_WEIGHT_COPIES, t->copies, run && !step_peak, err) ||
        fill(r, EST_C_MASTER, t->master, run, err) || fill(r, EST_C_GRADS, step_peak ? t->grads : t->grads_fwd, run && (step_peak || later_peak || g > 0 || t->grads_ckpt > 0), err) ||
        fill(r, EST_C_OPTIM, t->optim, run, err) || fill(r, EST_C_ACTS, t->acts, run && !step_peak && !later_peak, err) ||
        fill(r, EST_C_LOGITS, t->logits, run && !step_peak && !later_peak, err) || fill(r, EST_C_KV, t->kv, true, err) ||
        fill(r, EST_C_TEMP, init_peak ? t->init_tmp : step_peak ? t->temp_step : t->temp_fwd, true, err) ||
        fill(r, EST_C_BLAS, blas, true, err) || fill(r, EST_C_CONTEXT, ctx, true, err) ||
        fill(r, EST_C_NCCL, nccl, true, err) || fill(r, EST_C_SLACK, slack, true, err))
        return -1;
    if (to_bytes(alloc, &r->peak_allocated_bytes, "the peak", err) ||
        to_bytes(alloc + slack, &r->peak_reserved_bytes, "the reserved peak", err) ||
        to_bytes(alloc + slack + ctx + nccl + t->managed, &r->device_used_bytes, "device memory", err) ||
        to_bytes(t->managed, &r->managed_bytes, "the paged optimizer states", err))
        return -1;
    if (wl->context_why)
        snprintf(r->comp[EST_C_CONTEXT].formula, sizeof r->comp[0].formula, "CUDA context by --torch/--cuda: %s",
                 wl->context_why);
    else
        snprintf(r->comp[EST_C_CONTEXT].formula, sizeof r->comp[0].formula,
                 "CUDA context, kernels and library workspaces (card default or --context)");
    if (blas > 0) {
        char b[32];
        fmt_gib(ctx_blas, b, sizeof b);
        snprintf(r->comp[EST_C_BLAS].formula, sizeof r->comp[0].formula,
                 "%d x %lld B: one per cuBLAS handle and stream, taken from the caching allocator (torch >= 2.0; "
                 "%s; --torch 1.x: none), %s; %s of them moved out of the CUDA context's figure",
                 wl->mode == EST_MODE_TRAIN ? 2 : 1, (long long)wl->blas_workspace,
                 wl->blas_workspace == EST_BLAS_WORKSPACE_SM90 ? "32 MiB on Hopper" : "CUBLAS_WORKSPACE_CONFIG :4096:2:16:8",
                 wl->mode == EST_MODE_TRAIN ? "forward's thread and autograd's backward thread" : "the one thread",
                 b);
    }
    if (nccl_why)
        snprintf(r->comp[EST_C_NCCL].formula, sizeof r->comp[0].formula,
                 "one NCCL communicator per rank (%lld GPUs), cudaMalloc'd by NCCL outside torch's counters: "
                 "device used only; %s", (long long)wl->gpus, nccl_why);
    snprintf(r->comp[EST_C_SLACK].formula, sizeof r->comp[0].formula,
             "reserved - allocated: %.0Lf%% of the churning bytes + %.0Lf%% of long-lived ones",
             100 * share, 100 * SLACK_PERSIST);
    if (kept > 0) {
        char b[32], line[160];
        fmt_gib(kept, b, sizeof b);
        snprintf(line, sizeof line, "; the %s of gpt-fast's kept probabilities count as long-lived", b);
        formula_append(r, EST_C_SLACK, line);
    }
    if (pool_bytes > 0) {
        char b[32], line[300];
        fmt_gib(pool_bytes, b, sizeof b);
        snprintf(line, sizeof line, " + %s: FSDP2's stream pools, %sthe root's and a block's bf16 all-gather "
                 "outputs (copy-in stream), which the default stream cannot reuse", b,
                 step_peak ? "" : "the sharded fp32 gradients (reduce-scatter stream), ");
        formula_append(r, EST_C_SLACK, line);
    }
    if (wl->len_mean > 0 && wl->mode == EST_MODE_TRAIN) {
        char b[32], line[320];
        fmt_gib(varlen, b, sizeof b);
        r->varlen_extra_bytes = (int64_t)(varlen + 0.5L);
        snprintf(line, sizeof line, " + %s: varying lengths, the allocator's high-water mark over %d micro-batches "
                 "that each set a new longest (up to %lld tokens%s), beyond a run at that length", b,
                 r->varlen_records, (long long)r->varlen_longest,
                 wl->len_order == 0 ? "; the mean of 8 shuffles" : "");
        formula_append(r, EST_C_SLACK, line);
    }
    r->peak_phase = wl->mode == EST_MODE_LOAD ? "weights loaded"
                    : wl->mode == EST_MODE_INFER ? (t->fuse_load ? "load (AutoAWQ fuse_layers: the unfused and the fused q, k, v at once)"
                                                    : t->autograd ? "forward with grad enabled (no torch.no_grad: the graph's saved tensors held with the output)"
                                                    : t->nocache ? "decode without a KV cache (last generated token: the whole sequence rerun, the previous step's output held)"
                                                    : t->first_step ? "decode (first generated token, the prefill's output held)"
                                                    : t->decode ? "decode (last generated token)"
                                                    : wl->gen_len ? "prefill" : "inference")
                    : init_peak ? "model init (nf4 quantization)"
                    : step_peak ? (wl->optimizer == EST_OPT_NONE ? "end of backward" : "optimizer step")
                    : later_peak ? "a micro-batch after the longest"
                                 : "forward/backward";
    r->capacity_bytes = wl->capacity_bytes;
    r->fits = -1;
    r->over_bytes = 0;
    if (to_bytes(t->host, &r->host_bytes, "the offloaded states", err)) return -1;
    if (wl->capacity_bytes > 0) {
        r->fits = r->device_used_bytes <= wl->capacity_bytes;
        if (!r->fits) r->over_bytes = r->device_used_bytes - wl->capacity_bytes;
    }
    return 0;
}

/* Generation's options against the model and the lengths. */
static int check_gen(const struct est_model *m, const struct est_workload *wl, struct oomlab_err *err)
{
    int64_t prompt = prompt_of(wl);
    if (wl->cache_len < -1 || wl->cache_len > (1 << 24))
        return oomlab_err_set(err, "cache-len %lld is out of range (1..%d)", (long long)wl->cache_len, 1 << 24);
    if ((wl->cache_len == -1 || wl->mask == EST_MASK_MAXPOS) && m->max_positions <= 0)
        return oomlab_err_set(err, "the model's max positions are not known: give --max-positions N "
                                   "(config.json's max_position_embeddings)");
    int64_t len = wl->cache_len ? cache_positions(m, wl) : 0;
    if (wl->fuse_layers && (wl->mode != EST_MODE_INFER || wl->quant != EST_QUANT_AWQ || wl->cache != EST_CACHE_ROLLING))
        return oomlab_err_set(err, "--fuse-layers is AutoAWQ's from_quantized(fuse_layers=True): use it with "
                                   "--mode infer, --quant awq and --cache rolling (its fused attention's cache)");
    if (wl->mode == EST_MODE_INFER && wl->cache == EST_CACHE_ROLLING && len && len < prompt)
        return oomlab_err_set(err, "a rolling cache of %lld positions cannot take a prompt of %lld (AutoAWQ's "
                                   "WindowedCache writes the whole prompt into its window)",
                              (long long)len, (long long)prompt);
    if (wl->mode == EST_MODE_INFER && wl->cache != EST_CACHE_ROLLING && len && len < prompt + wl->gen_len)
        return oomlab_err_set(err, "a cache of %lld positions cannot hold prompt %lld + %lld generated",
                              (long long)len, (long long)prompt, (long long)wl->gen_len);
    return 0;
}

/* --loss-upcast no against the trainer and the model: 16-bit cross-entropy
 * only where nothing upcasts (ce_16bit). */
static int check_loss(const struct est_model *m, const struct est_workload *wl, struct oomlab_err *err)
{
    if (wl->loss_upcast != 2) return 0;
    /* 16-bit cross-entropy only where nothing upcasts (ce_16bit) */
    if (wl->mode != EST_MODE_TRAIN || wl->head != EST_HEAD_LM || wl->loss == EST_LOSS_SUM)
        return oomlab_err_set(err, "--loss-upcast no is the dtype of a training cross-entropy: use it with "
                                   "--mode train, --head lm, --loss ce|chunked");
    if (wl->precision != EST_FP16 && wl->precision != EST_BF16)
        return oomlab_err_set(err, "--loss-upcast no needs --precision fp16|bf16 (a pure 16-bit model): "
                                   "autocast runs cross_entropy in fp32 (its fp32 list), and fp32 logits "
                                   "have nothing to upcast");
    if (wl->trainer == EST_TRAINER_LITGPT || wl->trainer == EST_TRAINER_LLMC)
        return oomlab_err_set(err, "--loss-upcast no: litgpt's chunks are made fp32 by Fabric's "
                                   "convert_output, llm.c has its own buffers; use --trainer torchtune "
                                   "(own model code) or hf");
    if (est_loss_compiled(wl))
        return oomlab_err_set(err, "--loss-upcast no: the compiled loss (--compile-loss) already keeps "
                                   "the 16-bit logits; say --compile-loss no for an eager 16-bit loss");
    (void)m; /* an HF preset's shape on other model code (litgpt's GPT outside Fabric, the book's GPT)
              * is allowed: transformers' own Llama-family heads and ForCausalLMLoss do upcast (auto) */
    return 0;
}

int est_compute(const struct est_model *m, const struct est_workload *wl, struct est_result *r,
                struct oomlab_err *err)
{
    struct calc c;
    struct terms t;
    memset(r, 0, sizeof *r);
    memset(&t, 0, sizeof t);
    if (!est_family_sdpa(m->family) && (wl->attention == EST_ATTN_SDPA || wl->attention == EST_ATTN_SDPA_MATH))
        return oomlab_err_set(err, "%s has no SDPA attention in transformers (eager or flash_attention_2 only): "
                                   "pass --attention eager or flash",
                              est_family_name(m->family));
    if (check_workload(wl, err) || check_gen(m, wl, err) || check_loss(m, wl, err) || calc_init(&c, m, wl, err))
        return -1;
    r->params = (int64_t)c.P;
    r->trainable_params = wl->mode == EST_MODE_TRAIN ? (int64_t)c.Ptrain : 0;
    if (wl->mode == EST_MODE_TRAIN) {
        train_states(&c, &t);
        t.init_tmp = torchao_nf4_temp(&c);
        if (wl->trainer == EST_TRAINER_LLMC) llmc_acts(&c, &t);
        else train_acts(&c, &t);
        t.w += layer_buffers(&c);
        varlen_extra(&c, &t, r, &t.varlen);
        explain_train(&c, &t, r);
        explain_kept(&c, r);
    } else {
        infer_terms(&c, &t);
        t.w += layer_buffers(&c) + awq_exllama_scratch(&c);
        explain_infer(&c, &t, r);
        explain_kept(&c, r);
    }
    return finish(&c, &t, r, err);
}

int est_delta(const struct est_model *m, const struct est_workload *base,
              const struct est_workload *changed, int64_t *delta, struct oomlab_err *err)
{
    struct est_result a, b;
    if (est_compute(m, base, &a, err) || est_compute(m, changed, &b, err)) return -1;
    *delta = b.peak_allocated_bytes - a.peak_allocated_bytes;
    return 0;
}

/* Largest v in [1, hi] with device_used within the headroom; *field is the
 * workload member searched. Monotone in v, so a binary search. */
static int search(const struct est_model *m, const struct est_workload *wl, int64_t *field_of_copy,
                  struct est_workload *copy, int64_t hi, int64_t *out, struct oomlab_err *err)
{
    struct est_result r;
    if (wl->capacity_bytes <= 0) {
        *out = -1;
        return 0;
    }
    long double limit = (long double)wl->capacity_bytes * (1.0L - (long double)wl->headroom);
    int64_t lo = 0;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        *field_of_copy = mid;
        if (est_compute(m, copy, &r, err)) {
            if (lo == 0 && mid == 1) return -1;
            hi = mid - 1; /* absurd sizes count as "does not fit" */
            continue;
        }
        if ((long double)r.device_used_bytes <= limit) lo = mid;
        else hi = mid - 1;
    }
    *out = lo;
    return 0;
}

int est_max_batch(const struct est_model *m, const struct est_workload *wl, int64_t *batch,
                  struct oomlab_err *err)
{
    struct est_workload fixed_len = *wl; /* fixed-length figures: --var-len left out (its simulation is slow) */
    fixed_len.len_mean = 0;
    wl = &fixed_len;
    struct est_workload copy = *wl;
    return search(m, wl, &copy.batch, &copy, 1 << 24, batch, err);
}

int est_max_seq(const struct est_model *m, const struct est_workload *wl, int64_t *seq,
                struct oomlab_err *err)
{
    struct est_workload fixed_len = *wl; /* fixed-length figures: --var-len left out (its simulation is slow) */
    fixed_len.len_mean = 0;
    wl = &fixed_len;
    struct est_workload copy = *wl;
    if (wl->mode != EST_MODE_TRAIN && wl->prompt_len) return search(m, wl, &copy.prompt_len, &copy, 1 << 24, seq, err);
    return search(m, wl, &copy.seq, &copy, 1 << 24, seq, err);
}

/* ---- levers ----------------------------------------------------------- */

static int lever_try(const struct est_model *m, const struct est_workload *alt, int64_t base,
                     const char *what, struct est_lever *out, int max, int *n)
{
    struct est_result r;
    struct oomlab_err e;
    if (*n >= max || est_compute(m, alt, &r, &e)) return 0;
    if (r.device_used_bytes >= base) return 0;
    snprintf(out[*n].what, sizeof out[*n].what, "%s", what);
    out[*n].saves_bytes = base - r.device_used_bytes;
    (*n)++;
    return 0;
}

static void levers_train(const struct est_model *m, const struct est_workload *wl, int64_t base,
                         struct est_lever *out, int max, int *n)
{
    struct est_workload a;
    char what[64];
    if (wl->trainer == EST_TRAINER_LLMC) { /* llm.c's own switches: -r, cuDNN, -b */
        if (wl->ckpt != EST_CKPT_FULL) { a = *wl; a.ckpt = EST_CKPT_FULL; lever_try(m, &a, base, "recompute -r 2 (grad-ckpt full)", out, max, n); }
        if (wl->attention != EST_ATTN_FLASH) { a = *wl; a.attention = EST_ATTN_FLASH; lever_try(m, &a, base, "cuDNN attention (attention flash)", out, max, n); }
        if (wl->batch > 1) {
            a = *wl; a.batch = wl->batch / 2; a.grad_accum = wl->grad_accum * 2;
            snprintf(what, sizeof what, "batch %lld, grad-accum %lld", (long long)a.batch, (long long)a.grad_accum);
            lever_try(m, &a, base, what, out, max, n);
        }
        return;
    }
    if (wl->ckpt != EST_CKPT_FULL) { a = *wl; a.ckpt = EST_CKPT_FULL; lever_try(m, &a, base, "grad-ckpt block", out, max, n); }
    if (wl->ckpt == EST_CKPT_NONE && scores_kept(wl->attention)) { a = *wl; a.ckpt = EST_CKPT_SELECTIVE; lever_try(m, &a, base, "grad-ckpt attn-core", out, max, n); }
    if (scores_kept(wl->attention)) { a = *wl; a.attention = EST_ATTN_SDPA; lever_try(m, &a, base, "attention sdpa", out, max, n); }
    if (wl->optimizer == EST_OPT_ADAMW) { a = *wl; a.optimizer = EST_OPT_ADAMW8; lever_try(m, &a, base, "optimizer adamw-8bit", out, max, n); }
    if (wl->precision == EST_FP32) { a = *wl; a.precision = EST_BF16_MIXED; lever_try(m, &a, base, "precision bf16-mixed", out, max, n); }
    if (wl->loss == EST_LOSS_CE && wl->head == EST_HEAD_LM) { a = *wl; a.loss = EST_LOSS_CHUNKED; lever_try(m, &a, base, "chunked cross-entropy", out, max, n); }
    if (wl->batch > 1) {
        a = *wl; a.batch = wl->batch / 2; a.grad_accum = wl->grad_accum * 2;
        snprintf(what, sizeof what, "batch %lld, grad-accum %lld", (long long)a.batch, (long long)a.grad_accum);
        lever_try(m, &a, base, what, out, max, n);
    }
    if (wl->lora_r == 0) { a = *wl; a.lora_r = 16; a.lora_targets = EST_LORA_ALL; lever_try(m, &a, base, "LoRA r16 (all linears)", out, max, n); }
    if (wl->lora_r > 0 && wl->quant == EST_QUANT_NONE) { a = *wl; a.quant = EST_QUANT_NF4; lever_try(m, &a, base, "quant nf4 (QLoRA)", out, max, n); }
    if (wl->gpus > 1 && wl->shard != EST_SHARD_ZERO3 && wl->shard != EST_SHARD_FSDP) { a = *wl; a.shard = EST_SHARD_FSDP; lever_try(m, &a, base, "shard fsdp", out, max, n); }
    /* DeepSpeed's own: a smaller reduce bucket (transformers' "auto"), a fused step */
    if (wl->shard >= EST_SHARD_ZERO1 && wl->shard <= EST_SHARD_ZERO3 && wl->ds_bucket != EST_DS_AUTO &&
        est_ds_bucket(m, wl) > m->hidden * m->hidden) {
        a = *wl; a.ds_bucket = EST_DS_AUTO; lever_try(m, &a, base, "ds-bucket auto (hidden^2)", out, max, n);
    }
    if (wl->shard >= EST_SHARD_ZERO1 && wl->shard <= EST_SHARD_ZERO3 && wl->offload == EST_OFFLOAD_NONE && !wl->fused &&
        (wl->optimizer == EST_OPT_ADAMW || wl->optimizer == EST_OPT_LION || wl->optimizer == EST_OPT_SGDM)) {
        a = *wl; a.fused = true; a.foreach = false; lever_try(m, &a, base, "fused optimizer (DeepSpeed FusedAdam)", out, max, n);
    }
}

int est_levers(const struct est_model *m, const struct est_workload *wl, struct est_lever *out,
               int max, int *n, struct oomlab_err *err)
{
    struct est_workload fixed_len = *wl; /* fixed-length figures: --var-len left out (its simulation is slow) */
    fixed_len.len_mean = 0;
    wl = &fixed_len;
    struct est_result r;
    struct est_workload a;
    *n = 0;
    if (est_compute(m, wl, &r, err)) return -1;
    if (wl->mode == EST_MODE_TRAIN) {
        levers_train(m, wl, r.device_used_bytes, out, max, n);
    } else if (wl->mode == EST_MODE_INFER) {
        /* an fp8 checkpoint is already 1 B a weight: int8 or nf4 is another checkpoint, not a lever */
        bool prequant = wl->quant == EST_QUANT_FP8;
        if (!prequant && wl->quant != EST_QUANT_INT8 && wl->quant != EST_QUANT_NF4) { a = *wl; a.quant = EST_QUANT_INT8; lever_try(m, &a, r.device_used_bytes, "quant int8", out, max, n); }
        if (!prequant && wl->quant != EST_QUANT_NF4) { a = *wl; a.quant = EST_QUANT_NF4; lever_try(m, &a, r.device_used_bytes, "quant nf4", out, max, n); }
        if (wl->batch > 1) { a = *wl; a.batch = wl->batch / 2; lever_try(m, &a, r.device_used_bytes, "halve the batch", out, max, n); }
        if (wl->autograd) { a = *wl; a.autograd = EST_GRAD_OFF; lever_try(m, &a, r.device_used_bytes, "torch.no_grad()", out, max, n); }
    }
    for (int i = 1; i < *n; i++) /* insertion sort, best first */
        for (int j = i; j > 0 && out[j].saves_bytes > out[j - 1].saves_bytes; j--) {
            struct est_lever t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return 0;
}

/* ---- the smallest set of levers that fits -------------------------------- */

static bool can_nograd(const struct est_workload *w) { return w->autograd != EST_GRAD_OFF; }
static void do_nograd(struct est_workload *w) { w->autograd = EST_GRAD_OFF; }
static bool can_ckpt(const struct est_workload *w) { return w->ckpt != EST_CKPT_FULL && w->mode == EST_MODE_TRAIN; }
static void do_ckpt(struct est_workload *w) { w->ckpt = EST_CKPT_FULL; }
static bool can_sdpa(const struct est_workload *w) { return scores_kept(w->attention) && w->trainer != EST_TRAINER_LLMC; }
static void do_sdpa(struct est_workload *w) { w->attention = EST_ATTN_SDPA; }
static bool can_adam8(const struct est_workload *w) { return w->mode == EST_MODE_TRAIN && w->optimizer == EST_OPT_ADAMW && w->trainer != EST_TRAINER_LLMC; }
static void do_adam8(struct est_workload *w) { w->optimizer = EST_OPT_ADAMW8; }
static bool can_mixed(const struct est_workload *w) { return w->precision == EST_FP32 && w->trainer != EST_TRAINER_LLMC; }
static void do_mixed(struct est_workload *w) { w->precision = w->mode == EST_MODE_TRAIN ? EST_BF16_MIXED : EST_BF16; }
static bool can_chunk(const struct est_workload *w) { return w->mode == EST_MODE_TRAIN && w->loss == EST_LOSS_CE && w->head == EST_HEAD_LM && w->trainer != EST_TRAINER_LLMC; }
static void do_chunk(struct est_workload *w) { w->loss = EST_LOSS_CHUNKED; }
static bool can_lora(const struct est_workload *w) { return w->mode == EST_MODE_TRAIN && w->lora_r == 0 && w->trainer != EST_TRAINER_LLMC; }
static void do_lora(struct est_workload *w) { w->lora_r = 16; w->lora_targets = EST_LORA_ALL; }
static bool can_nf4(const struct est_workload *w) { return w->quant == EST_QUANT_NONE && (w->lora_r > 0 || w->mode == EST_MODE_INFER); }
static void do_nf4(struct est_workload *w) { w->quant = EST_QUANT_NF4; }
static bool can_fsdp(const struct est_workload *w) { return w->mode == EST_MODE_TRAIN && w->gpus > 1 && w->shard != EST_SHARD_ZERO3 && w->shard != EST_SHARD_FSDP && w->offload == EST_OFFLOAD_NONE; }
static void do_fsdp(struct est_workload *w) { w->shard = EST_SHARD_FSDP; }

static const struct combo_lever {
    const char *what;
    bool (*can)(const struct est_workload *);
    void (*apply)(struct est_workload *);
} combo_levers[] = {
    {"torch.no_grad()", can_nograd, do_nograd},
    {"grad-ckpt block", can_ckpt, do_ckpt},         {"attention sdpa", can_sdpa, do_sdpa},
    {"optimizer adamw-8bit", can_adam8, do_adam8},  {"precision bf16-mixed", can_mixed, do_mixed},
    {"chunked cross-entropy", can_chunk, do_chunk}, {"LoRA r16 (all linears)", can_lora, do_lora},
    {"quant nf4", can_nf4, do_nf4},                 {"shard fsdp", can_fsdp, do_fsdp},
};
#define N_COMBO ((int)(sizeof combo_levers / sizeof combo_levers[0]))

/* Apply the levers in mask, in table order; false when one does not apply
 * to the workload as changed so far. */
static bool combo_apply(const struct est_workload *wl, unsigned mask, struct est_workload *out)
{
    *out = *wl;
    for (int i = 0; i < N_COMBO; i++) {
        if (!(mask & (1u << i))) continue;
        if (!combo_levers[i].can(out)) return false;
        combo_levers[i].apply(out);
    }
    return true;
}

int est_fit_combo(const struct est_model *m, const struct est_workload *wl, struct est_combo *out,
                  struct oomlab_err *err)
{
    struct est_workload fixed_len = *wl; /* fixed-length figures: --var-len left out (its simulation is slow) */
    fixed_len.len_mean = 0;
    wl = &fixed_len;
    struct est_workload one = *wl, alt;
    struct est_result r;
    memset(out, 0, sizeof *out);
    out->n = -1;
    one.batch = 1;
    if (wl->capacity_bytes <= 0) return 0;
    long double limit = (long double)wl->capacity_bytes * (1.0L - (long double)wl->headroom);
    if (est_compute(m, &one, &r, err)) return -1;
    if ((long double)r.device_used_bytes <= limit) {
        out->n = 0;
        out->device_used_bytes = r.device_used_bytes;
        out->peak_allocated_bytes = r.peak_allocated_bytes;
        return 0;
    }
    unsigned best = 0;
    int best_n = N_COMBO + 1;
    for (unsigned mask = 1; mask < (1u << N_COMBO); mask++) {
        int n = __builtin_popcount(mask);
        struct oomlab_err e;
        if (n > best_n || !combo_apply(&one, mask, &alt) || est_compute(m, &alt, &r, &e)) continue;
        if ((long double)r.device_used_bytes > limit) continue;
        if (n < best_n || r.device_used_bytes < out->device_used_bytes) {
            best = mask;
            best_n = n;
            out->device_used_bytes = r.device_used_bytes;
            out->peak_allocated_bytes = r.peak_allocated_bytes;
        }
    }
    if (!best) return 0;
    out->n = 0;
    for (int i = 0; i < N_COMBO && out->n < EST_COMBO_MAX; i++)
        if (best & (1u << i)) snprintf(out->what[out->n++], sizeof out->what[0], "%s", combo_levers[i].what);
    return 0;
}
