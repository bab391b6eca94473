/* est: the memory budget of one model and workload on one card — weights,
 * gradients, optimizer states, activations, logits/loss buffers, KV cache,
 * temporaries — and the three figures people measure: the peak
 * torch.cuda.max_memory_allocated, the peak reserved by the caching
 * allocator, and device memory as nvidia-smi shows it (CUDA context included).
 * Pure arithmetic on caller-owned structs: nothing is allocated, nothing is
 * printed. Formulas and their calibration are in docs/estimate.md. */
#ifndef OOMLAB_EST_H
#define OOMLAB_EST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"

/* Architecture families: each is one row of a table in est.c saying how its
 * blocks are built (gated MLP, biases, norm kind, learned positions...). */
enum est_family {
    EST_FAM_GPT2, EST_FAM_NEOX, EST_FAM_OPT, EST_FAM_LLAMA, EST_FAM_MISTRAL,
    EST_FAM_QWEN2, EST_FAM_GEMMA, EST_FAM_GEMMA2, EST_FAM_MIXTRAL, EST_FAM_PHI,
    EST_FAM_PHI3, EST_FAM_FALCON, EST_FAM_BLOOM, EST_FAM_BERT, EST_FAM_ROBERTA,
    EST_FAM_T5, EST_FAM_QWEN, EST_FAM_QWEN3, EST_FAM_DISTILBERT, EST_FAM_ELECTRA, EST_FAM_GEMMA3,
    EST_FAM_COHERE, EST_FAM_STARCODER2, EST_FAM_OLMO2, EST_FAM_DEEPSEEK3, EST_FAM_GPTOSS,
    EST_FAM_QWEN2MOE, EST_FAM_DEEPSEEK, EST_FAM_BIGCODE, EST_FAM_STABLELM,
    EST_FAM_LLAMA4, EST_FAM_GPTJ, EST_FAM__COUNT
};

/* The model's shape. Zero means "not given"; est_model_finish fills derived
 * defaults (kv_heads = heads, head_dim = hidden / heads, ffn per family). */
struct est_model {
    char name[64];
    /* A config.json whose model_type oomlab does not model, estimated as
     * --arch's family anyway: its own refusal ('model_type "qwen2_5_vl" is
     * not modelled: a vision tower ...'), said in est_limits; "" none. */
    char read_as[256];
    enum est_family family;
    int64_t layers;          /* encoder layers for T5 */
    int64_t decoder_layers;  /* T5 only; 0 elsewhere */
    int64_t hidden, heads, kv_heads, head_dim, ffn, vocab;
    int64_t max_positions;   /* learned position table rows (GPT-2, OPT, BERT) */
    int64_t embed_proj;      /* OPT-350m word_embed_proj_dim; 0 = none */
    int64_t experts, experts_per_token; /* MoE; 0 = dense */
    /* est_model_finish filled experts_per_token with its default (2): no
     * config, preset or flag stated it, so the active count is unknown */
    bool experts_per_token_assumed;
    int64_t sliding_window;  /* 0 = none */
    /* DeepSeek-V3 (deepseek_v3 family, read only from a config.json):
     * multi-head latent attention (head_dim is q's and k's per head,
     * qk_nope_head_dim + qk_rope_head_dim; q_lora_rank 0 = a plain q_proj).
     * The families with shared experts (deepseek_v3, deepseek, qwen2_moe,
     * llama4_text; config.json only; Llama 4's dense layers are interleaved,
     * not first, which only their count matters for): dense_layers dense MLPs of dense_ffn first
     * (first_k_dense_replace, intermediate_size), then routed experts of ffn
     * (moe_intermediate_size) beside one shared MLP of shared_ffn
     * (x n_shared_experts, or shared_expert_intermediate_size); 0 = none */
    int64_t q_lora_rank, kv_lora_rank, rope_dim, v_head_dim;
    int64_t dense_layers, dense_ffn, shared_ffn;
    int mlp_kind;            /* 0 = family default, 1 = plain (fc1, act, fc2), 2 = gated */
    bool tied_embeddings;
    int dropout;             /* 0 = family default, 1 = trained with dropout, 2 = without */
};

enum est_mode { EST_MODE_TRAIN, EST_MODE_INFER, EST_MODE_LOAD };
/* fp16/bf16: 16-bit weights, no autocast; fp16-mixed/bf16-mixed: fp32
 * weights under autocast (16-bit casts of the linears' weights); fp16-
 * autocast/bf16-autocast: 16-bit weights (a model loaded with torch_dtype
 * or its own .bfloat16()) under autocast (HF Trainer --bf16/--fp16,
 * accelerate mixed_precision): 16-bit gradients and optimizer states, no
 * master and no weight casts, fp32 where autocast's fp32 list says
 * (softmax, layer_norm, cross_entropy) */
enum est_precision { EST_FP32, EST_FP16, EST_BF16, EST_FP16_MIXED, EST_BF16_MIXED, EST_FP16_AUTOCAST,
                     EST_BF16_AUTOCAST };
enum est_optimizer {
    EST_OPT_ADAMW, EST_OPT_ADAMW8, EST_OPT_SGD, EST_OPT_SGDM, EST_OPT_ADAFACTOR,
    EST_OPT_LION, EST_OPT_NONE,
    EST_OPT_PAGED_ADAMW /* bitsandbytes PagedAdamW (32-bit states): the states of tensors of
                           1e5 elements or more live in cudaMallocManaged pages that torch's
                           counters do not see (litgpt's QLoRA) */
};
/* Activation checkpointing policies, named by what each block keeps through
 * forward (docs/estimate.md maps the trainers' flags to them):
 *   none       everything autograd saves
 *   attn-core  all but the eager score matrix (Megatron's "selective";
 *              "selective" is accepted): a no-op under sdpa/flash
 *   block      the block's input only, the block recomputed in backward (HF
 *              gradient_checkpointing_enable, litgpt/Lightning per Block,
 *              torchtitan mode=full; "full" is accepted)
 *   every:N    "block" on every N-th block (torchtitan selective_ac_option=N:
 *              floor(L / N) blocks), the others keep everything
 *   op         torchtitan's op-level selective policy: the block's input, the
 *              outputs of the fused attention kernel and of every other matmul
 *              (the 1st, 3rd, ... in forward order); the rest recomputed */
enum est_ckpt { EST_CKPT_NONE, EST_CKPT_SELECTIVE, EST_CKPT_FULL, EST_CKPT_EVERY, EST_CKPT_OP };
/* Attention kernels: eager (the model's own matmul/softmax), sdpa (torch's
 * fused flash or memory-efficient kernels), flash (flash-attn), sdpa-math
 * (F.scaled_dot_product_attention falling back to torch's math kernel: an
 * explicit attn_mask on torch <= 2.2, e.g. Qwen-1 without flash-attn). */
enum est_attn { EST_ATTN_EAGER, EST_ATTN_SDPA, EST_ATTN_FLASH, EST_ATTN_SDPA_MATH };
/* bitsandbytes weights: int8 (LLM.int8), nf4 (4 bits + an fp32 absmax per
 * 64: 0.5625 B/param; HF BitsAndBytesConfig's and Lightning's default,
 * compress_statistics / bnb_4bit_use_double_quant off) and nf4-dq (double
 * quantization: absmax in 8 bits + fp32 per 256 blocks, ~0.516 B/param).
 * Pre-quantized checkpoints: gptq (AutoGPTQ / transformers GPTQConfig, 4 bits,
 * group 128: int32-packed weights and zeros, fp16 scales, ~0.52 B/param) and
 * awq (AutoAWQ GEMM, the same layout); both leave lm_head and embeddings
 * 16-bit and load without a quantization transient (but AWQ on the ExLlama
 * kernels repacks at load: est_qkernel). */
enum est_quant { EST_QUANT_NONE, EST_QUANT_INT8, EST_QUANT_NF4, EST_QUANT_NF4_DQ, EST_QUANT_GPTQ, EST_QUANT_AWQ,
                 EST_QUANT_FP8 };
/* fp8 checkpoints (quant fp8: DeepSeek-V3's quant_method "fp8", the
 * compressed-tensors float8 schemes): every linear in the blocks 1 byte
 * (float8_e4m3fn) plus scales (fp32, or the model dtype's under
 * fp8_scale_model_dtype) laid out as one per block of
 * fp8_block_out x fp8_block_in weights (block), one per output row
 * (channel) or one per weight tensor (tensor); embeddings, lm_head, norms
 * and routers stay 16-bit, and so do the block linears named in
 * fp8_keep (EST_LIN_* bits: the checkpoint's modules_to_not_convert /
 * ignore list). Inference and load only. */
enum est_fp8_scale { EST_FP8_BLOCK, EST_FP8_CHANNEL, EST_FP8_TENSOR };
/* The block linears by their HF module names (an fp8 checkpoint's keep
 * list names them): attention q/k/v/o_proj, MLA's q_a_proj, q_b_proj,
 * kv_a_proj_with_mqa, kv_b_proj, the MLP's gate/up/down_proj (routed
 * experts and dense MLPs), the shared experts' MLP. */
enum {
    EST_LIN_Q = 1, EST_LIN_K = 2, EST_LIN_V = 4, EST_LIN_O = 8, EST_LIN_GATE = 16, EST_LIN_UP = 32,
    EST_LIN_DOWN = 64, EST_LIN_Q_A = 128, EST_LIN_Q_B = 256, EST_LIN_KV_A = 512, EST_LIN_KV_B = 1024,
    EST_LIN_SHARED = 2048
};
/* The kernels an AWQ checkpoint runs on (transformers' AwqConfig "version"):
 * auto and gemm AutoAWQ's GEMM; exllama the ExLlama v1 kernels
 * (exllama_config {"version": 1}), exllama-v2 the ExLlama v2 ones (AwqConfig's
 * default for version "exllama"). Both ExLlama kinds repack every linear at
 * load; v2 also keeps one fp16 scratch buffer per device (est.c
 * awq_exllama_scratch). */
enum est_qkernel { EST_QKERNEL_AUTO, EST_QKERNEL_GEMM, EST_QKERNEL_EXLLAMA, EST_QKERNEL_EXLLAMA_V2 };
enum est_shard { EST_SHARD_NONE, EST_SHARD_ZERO1, EST_SHARD_ZERO2, EST_SHARD_ZERO3, EST_SHARD_FSDP,
                 EST_SHARD_ZERO0, /* DeepSpeed's engine without ZeRO: nothing partitioned */
                 EST_SHARD_GEMINI /* ColossalAI Gemini, static placement: chunked 16-bit params, fp32 master */ };
/* CPU offload of the model states (training): optimizer = optimizer states,
 * fp32 master weights and gradients in host memory, the step on the CPU
 * (DeepSpeed offload_optimizer, ZeRO-Offload); params = the weights too,
 * only the gathered blocks on the GPU (DeepSpeed offload_param with zero3,
 * FSDP CPUOffload(offload_params=True)). */
enum est_offload { EST_OFFLOAD_NONE, EST_OFFLOAD_OPTIMIZER, EST_OFFLOAD_PARAMS };
/* The GPUs' link, which sets how many NCCL channels a communicator opens:
 * unknown (no card named), NVLink/NVSwitch (the SXM data-centre parts), PCIe. */
enum est_link { EST_LINK_UNKNOWN, EST_LINK_NVLINK, EST_LINK_PCIE };
/* How the loss is taken: HF-style fp32 cross-entropy over the full logits,
 * chunked cross-entropy (torchtune/litgpt), or a plain reduction. */
enum est_loss { EST_LOSS_CE, EST_LOSS_CHUNKED, EST_LOSS_SUM };
/* Output head: a language-model head over the vocabulary, or a small
 * classification head (BERT sequence classification), or none (the bare
 * model, e.g. AutoModel). */
enum est_head { EST_HEAD_LM, EST_HEAD_CLS, EST_HEAD_NONE };

/* The training code, where it changes what stays alive (docs/estimate.md):
 * HF transformers (the default: fp32-upcast logits returned to the caller),
 * torchtune (logits upcast to fp32 and deleted before backward), litgpt
 * (cross-entropy on the 16-bit lm_head chunks, which stay referenced), llm.c
 * (no autograd: one preallocated activation layout, no allocator slack). */
enum est_gen_loop { EST_GEN_AUTO, EST_GEN_GPTFAST, EST_GEN_TORCHTUNE };
enum est_trainer { EST_TRAINER_HF, EST_TRAINER_TORCHTUNE, EST_TRAINER_LITGPT, EST_TRAINER_LLMC, EST_TRAINER_TORCHTITAN };

/* The KV cache of generation (inference with --gen-len):
 *   dynamic  HF DynamicCache (transformers >= 4.36): each layer's K and V
 *            grow by torch.cat, the old and new tensors of one layer alive
 *            at once; prefill logits for the last token only (>= 4.45)
 *   legacy   the tuple cache of older HF: every step returns a new tuple of
 *            all layers while the caller still holds the old one (twice the
 *            cache), and prefill computes fp32 logits for every prompt token
 *   static   StaticCache (cache_implementation="static"): K and V allocated
 *            once for prompt + generated tokens, written in place
 *   none     a plain forward that keeps no K/V: an encoder (BERT, RoBERTa:
 *            the default for those families, which build no cache) or a
 *            decoder called with use_cache=False; no generation
 *   rolling  a window of --cache-len N positions allocated once per layer and
 *            rolled left when a step would pass its end (AutoAWQ's fused
 *            modules: WindowedCache, N = max_new_tokens); the prompt must fit
 *            the window, prompt + generated need not */
enum est_cache { EST_CACHE_DYNAMIC, EST_CACHE_LEGACY, EST_CACHE_STATIC, EST_CACHE_NONE, EST_CACHE_ROLLING };

/* The causal mask of generation (docs/estimate.md, "Inference and generation"):
 *   auto            HF: eager attention, or any attention over a static cache,
 *                   gets the 4-D mask; sdpa/flash over a growing cache none
 *   none            no mask tensor (is_causal kernels)
 *   4d              (batch, 1, new tokens, cached positions) in the model dtype,
 *                   built every forward (HF _prepare_4d_causal_attention_mask,
 *                   _update_causal_mask)
 *   square          a bool N x N mask for the cache length N kept for the run,
 *                   and its (new tokens, N) rows each forward (litgpt
 *                   build_mask_cache)
 *   rows            a bool (prompt + generated) x N mask for a cache of N
 *                   positions, built once, viewed each forward (torchtune
 *                   generate)
 *   max-positions   HF 4.38/4.39 Llama family: an int64 N x N buffer for the
 *                   model's max positions N from load on, and a (batch, 1, N, N)
 *                   copy in the model dtype built every forward */
/* bitsandbytes' quant_storage: the dtype the packed 4-bit data is held in.
 * auto: the model's dtype under FSDP/ZeRO-3 (transformers asks for
 * bnb_4bit_quant_storage there), uint8 otherwise (bitsandbytes' default). */
enum est_qstore { EST_QSTORE_AUTO, EST_QSTORE_UINT8, EST_QSTORE_MODEL };
enum est_mask { EST_MASK_AUTO, EST_MASK_NONE, EST_MASK_4D, EST_MASK_SQUARE, EST_MASK_MAXPOS, EST_MASK_ROWS };
/* Which prompt positions prefill computes logits for: auto (every position
 * for --cache legacy, the last one otherwise), last (HF >= 4.45
 * logits_to_keep), all (older HF; Llama-family models upcast them to fp32). */
enum est_prefill_logits { EST_PLOGITS_AUTO, EST_PLOGITS_LAST, EST_PLOGITS_ALL };

/* LoRA targets, as a bit set. */
enum {
    EST_LORA_Q = 1, EST_LORA_K = 2, EST_LORA_V = 4, EST_LORA_O = 8,
    EST_LORA_GATE = 16, EST_LORA_UP = 32, EST_LORA_DOWN = 64,
    EST_LORA_ALL = 127, /* every linear in the blocks */
    EST_LORA_HEAD = 128 /* the lm_head (litgpt lora_head) */
};

/* What the training loop holds of the model's output (--loop-holds):
 *   auto     the trainer's own path: HF's caller holds the logits in the
 *            activation dtype through backward, torchtune/torchtitan
 *            `del logits` before it
 *   none     nothing: the loss alone reaches backward (HF Trainer's
 *            compute_loss returns only the loss)
 *   logits   the logits as returned (fp32 from torchtune's decoder and HF's
 *            Llama-family heads) through backward: torchtune recipes before
 *            8a98fbaa3 (2024-07-28), fsdp_qlora's `output` (was --keep-logits)
 *   outputs  the whole output object (logits as returned, K/V presents when
 *            the forward returns them) through backward and, the previous
 *            one, into the next forward until `outputs = model(...)`
 *            rebinds it: optimum's benchmark loop (was --keep-outputs) */
/* An inference forward run with grad enabled (--autograd): off, on (model.eval()),
 * train (model.train(): dropout active). */
enum est_autograd { EST_GRAD_OFF, EST_GRAD_EVAL, EST_GRAD_TRAIN };

enum est_keep { EST_KEEP_AUTO, EST_KEEP_NONE, EST_KEEP_LOGITS, EST_KEEP_OUTPUTS };

struct est_workload {
    enum est_mode mode;
    int64_t batch, seq;          /* micro-batch per GPU and sequence length */
    int64_t grad_accum;          /* >1 keeps gradients alive across micro-batches */
    int64_t prompt_len, gen_len; /* inference: KV cache holds prompt + gen tokens */
    enum est_precision precision;
    enum est_optimizer optimizer;
    bool foreach;                /* torch's multi-tensor optimizer step (default) */
    bool master_weights;         /* pure 16-bit with an fp32 master copy + fp32 states */
    bool keep_grads;             /* zero_grad(set_to_none=False): PyTorch < 2.0 default */
    bool no_reshard;             /* --shard fsdp: blocks stay gathered from their forward to their
                                  * backward (FSDP1 SHARD_GRAD_OP, FSDP2 reshard_after_forward=False) */
    bool kbit_prep;              /* PEFT prepare_model_for_kbit_training: the 16-bit
                                    parameters cast to fp32 (with --quant) */
    bool kbit_trl;               /* TRL's SFTTrainer: prepare_model_for_kbit_training,
                                    then peft_module_casting_to_bf16 (bf16 4-bit
                                    runs): embedding and lm_head back to bf16,
                                    norms fp32 (--kbit-prep-trl) */
    int autograd;                /* --autograd, inference without --gen-len: EST_GRAD_OFF the
                                    forward under torch.no_grad()/inference_mode() (the
                                    default); EST_GRAD_EVAL grad enabled on a model in eval
                                    mode: every op's saved tensors (the training forward's,
                                    no dropout) alive until the output is dropped;
                                    EST_GRAD_TRAIN the same with the model left in train mode
                                    (dropout masks and outputs kept) */
    enum est_keep loop_holds;    /* what the training loop holds of the model's output
                                    (--loop-holds): auto = the trainer's own path */
    bool longest_first;          /* seq is the first micro-batch's only; later ones shorter */
    int use_cache;               /* training forward returns K/V presents: 0 auto (HF decoders
                                    without gradient checkpointing: config.use_cache), 1 yes, 2 no */
    int compile_loss;            /* --compile-loss: cross-entropy under torch.compile: 0 auto
                                    (--trainer torchtitan with --compile), 1 yes, 2 no */
    int loss_upcast;             /* --loss-upcast: the dtype cross-entropy runs in: 0 auto (the
                                    trainer's own), 1 yes (fp32 logits), 2 no (the model's
                                    16-bit logits: a pure 16-bit loop with no .float() and no
                                    autocast) */
    double len_mean, len_sd;     /* --var-len: sample lengths vary, lognormal of this mean and
                                    sd (tokens), cut at seq, each micro-batch padded to its
                                    longest; 0 = every micro-batch is seq long */
    int len_order;               /* 0 random (HF RandomSampler), 1 sorted shortest first,
                                    2 longest first */
    int64_t len_samples;         /* samples in the epoch (default 1000) */
    int layer_buffers;           /* 0 auto (HF GPT-NeoX and GPT-2: a bool N x N causal-mask buffer
                                    per attention module, GPT-NeoX's fp32 rotary caches), 1 none */
    enum est_ckpt ckpt;
    int64_t ckpt_every;          /* N of EST_CKPT_EVERY */
    enum est_attn attention;
    enum est_loss loss;
    enum est_head head;
    enum est_trainer trainer;
    enum est_cache cache;        /* generation's KV cache model */
    int64_t cache_len;           /* static cache positions: 0 = prompt + generated (HF
                                    generate's max_length), -1 = the model's max positions */
    bool kv_expanded;            /* K, V stored for every query head, not per KV head */
    bool fuse_layers;            /* --fuse-layers: AutoAWQ from_quantized(fuse_layers=True): every
                                    layer's q, k, v concatenated into one packed qkv at load while
                                    the unfused model is alive (est.c fuse_load) */
    int gen_loop;                /* --gen-loop: EST_GEN_AUTO the trainer's (HF generate);
                                    EST_GEN_GPTFAST gpt-fast's generate.py and its copies
                                    (torchao/_models/llama): a static cache of a multiple of 8
                                    positions, repeat_interleave'd to every query head in each
                                    attention, every decode step's sampling probabilities kept
                                    in a list, the prefill's logits not held (gptfast_* in est.c);
                                    EST_GEN_TORCHTUNE torchtune's generate(): every step's fp32
                                    logits concatenated into generated_logits (gen_plan) */
    enum est_mask mask;          /* generation's causal mask */
    enum est_qstore quant_storage; /* 4-bit data's storage dtype: PEFT adapters follow a float one */
    enum est_prefill_logits prefill_logits;
    int64_t lora_r;              /* 0 = no LoRA */
    unsigned lora_targets;       /* EST_LORA_* bits; 0 with lora_r > 0 = q,v */
    double lora_dropout;         /* adapters' dropout p; < 0 = the trainer's default
                                    (PEFT and torchtune 0, litgpt 0.05) */
    enum est_quant quant;
    int64_t quant_group;         /* gptq/awq inputs per scale and zero: 0 = 128 (the default of
                                    both), -1 = one per output channel (GPTQ group_size -1) */
    enum est_qkernel quant_kernel; /* awq: the kernels its linears run on (--quant-kernel) */
    enum est_fp8_scale fp8_scale; /* fp8: the scales' layout (block unless the checkpoint says) */
    int64_t fp8_block_out, fp8_block_in; /* fp8 block scales: weights per block, 0 = 128 */
    bool fp8_static_act;         /* fp8 activation_scheme "static": one input_scale per linear */
    bool fp8_scale_model_dtype;  /* fp8 scales in the model's dtype (compressed-tensors: the weight's
                                    dtype, 2 B under a 16-bit load), not fp32 (transformers' FP8Linear,
                                    AutoFP8): est_fp8_scale_bytes */
    unsigned fp8_keep;           /* fp8: EST_LIN_* linears the checkpoint keeps 16-bit */
    bool fp8_decompress;         /* fp8 from compressed-tensors under transformers: CompressedLinear
                                    decompresses each weight to the model dtype at its first forward
                                    and keeps it (neuralmagic/compressed-tensors#266, 0.9.3): fp8
                                    while loaded, 16-bit linears (+ the scales) once run */
    bool bnb_fp16_state;         /* 4-bit weights quantized from fp16 (bitsandbytes < 0.43's
                                    Params4bit.cuda casts to half; Lightning's plugin always):
                                    each dequantization returns fp16, and computing in bf16
                                    makes a second, bf16 copy beside it */
    int64_t gpus;                /* data-parallel world size */
    enum est_shard shard;
    enum est_offload offload;
    /* saved activations copied to pinned host memory in forward and brought
     * back in backward (torchtune enable_activation_offloading, its
     * OffloadActivations saved_tensors_hooks; torch save_on_cpu): only the
     * block whose backward runs keeps its saved tensors on the GPU, under
     * block checkpointing its checkpointed input (--act-offload) */
    bool act_offload;
    /* the optimizer steps each parameter in its post-accumulate-grad hook
     * and frees its gradient there (torchtune optimizer_in_bwd=True,
     * register_optim_in_bwd_hooks): no moment holds every gradient
     * (--optim-in-bwd) */
    bool optim_in_bwd;
    /* DeepSpeed ZeRO's own buffers (docs/estimate.md, "DeepSpeed ZeRO"):
     * reduce_bucket_size and stage3_prefetch_bucket_size in elements, 0 = the
     * default for the stage (zero1/zero2 5e8, zero3 transformers' "auto"),
     * EST_DS_AUTO = transformers' "auto" (hidden^2, 0.9 x hidden^2);
     * overlap_comm -1 = DeepSpeed's default for the stage (zero3 on, zero1
     * and zero2 off), 0 off, 1 on. */
    int64_t ds_bucket, ds_prefetch;
    /* ZeRO-3's stage3_max_live_parameters in elements, 0 = DeepSpeed's
     * default 1e9: the prefetch gathers at most this less what is already
     * gathered (est_ds_max_live). */
    int64_t ds_max_live;
    /* ZeRO-3's stage3_param_persistence_threshold in elements, 0 =
     * DeepSpeed's default 1e5, EST_DS_AUTO = transformers' "auto"
     * (10 x hidden), EST_DS_NONE = a threshold of 0 (no parameter
     * persists): smaller params stay gathered (est_ds_persist). */
    int64_t ds_persist;
    int ds_overlap;
    /* ZeRO-3: the model was built under deepspeed.zero.Init (-1 default =
     * yes, 1 yes, 0 no). Entering zero.Init replaces F.linear with
     * DeepSpeed's LinearFunctionForZeroStage3 for the rest of the process;
     * without it torch's linear saves weight.t(), a view that keeps each
     * gathered 16-bit weight alive from its forward to its backward on
     * several GPUs (est_ds_linear_views). */
    int ds_zero_init;
    bool fused;                  /* a fused optimizer step (DeepSpeed's FusedAdam, the DS config's
                                    "optimizer" block; torch fused=True): no working copy */
    bool compiled;               /* --compile: the model (or each block) under torch.compile:
                                    each block keeps what AOTAutograd's min-cut partitioner
                                    saves for backward (est_compile_model) */
    bool compile_torch1;         /* --compile with --torch 1.x: functorch 1.13's partitioner,
                                    which may recompute a value backward's matmuls or SDPA read
                                    (torch >= 2.0 bans that: ban_recompute_materialized_backward) */
    bool torchao01;              /* --torchao 0.1: to_nf4 compares the whole weight with the 16
                                    nf4 values at once (68 B per element), not in chunks */
    bool peft_old;               /* --peft < 0.12: PEFT's LoRA adapters take the base layer's
                                    floating dtype; from 0.12 get_peft_model's default
                                    autocast_adapter_dtype=True upcasts 16-bit ones to fp32
                                    (peft_fp32_adapters in est.c) */
    unsigned transformers;       /* --transformers: major * 1000 + minor (4.48.1 -> 4048); 0 =
                                    transformers' current rule. Which causal-LM loss path the HF
                                    trainer's model runs (hf_loss_era in est.c) */
    bool torch1;                 /* --torch 1.x: cuBLAS allocates its own workspace, outside
                                    torch's counters (EST_C_BLAS is 0) */
    int64_t blas_workspace;      /* bytes of one cuBLAS workspace (one per cuBLAS handle and
                                    stream; torch >= 2.0 takes it from the caching allocator):
                                    EST_BLAS_WORKSPACE, EST_BLAS_WORKSPACE_SM90 on Hopper */
    int64_t capacity_bytes;      /* -1 unknown */
    int64_t context_bytes;       /* CUDA context + library workspaces; -1 = default */
    const char *context_why;     /* where context_bytes came from when a torch/CUDA version
                                    chose it (gpus_context); NULL: the card's or --context */
    int64_t nccl_bytes;          /* --nccl: NCCL communicator buffers on each rank of a run
                                    over several GPUs (cudaMalloc'd by NCCL, outside torch's
                                    counters: device used only); -1 = by nccl_link (est_nccl) */
    enum est_link nccl_link;     /* how the GPUs talk, from the card (gpus_nvlink) */
    double headroom;             /* fraction kept free when searching max batch/seq (0.15) */
};

/* torch's default cuBLAS workspace (CUBLAS_WORKSPACE_CONFIG :4096:2:16:8),
 * and 32 MiB on sm90 (pytorch/pytorch:aten/src/ATen/cuda/CublasHandlePool.cpp,
 * parseChosenWorkspaceSize: `sm90 ? 4096 * 8 * 1024 : 4096 * 1024 * 2 + 16 * 1024 * 8`,
 * since pytorch/pytorch#89027, torch 2.0) */
#define EST_BLAS_WORKSPACE ((int64_t)4096 * 1024 * 2 + 16 * 1024 * 8)
#define EST_BLAS_WORKSPACE_SM90 ((int64_t)4096 * 8 * 1024)

/* NCCL's buffers for one connection of one channel, one per protocol: Simple
 * DEFAULT_BUFFSIZE 1 << 22; LL128 NCCL_LL128_ELEMS_PER_THREAD 120 x
 * NCCL_LL128_MAX_NTHREADS 640 x NCCL_STEPS 8 x 8 B = 4,915,200; LL
 * NCCL_LL_LINES_PER_THREAD 8 x NCCL_LL_MAX_NTHREADS 512 x NCCL_STEPS 8 x 16 B
 * = 524,288 (NVIDIA/nccl:src/init.cc, src/include/device.h@80f6bda4) */
#define EST_NCCL_CONN_BYTES ((int64_t)(1 << 22) + 120 * 640 * 8 * 8 + 8 * 512 * 8 * 16)

#define EST_DS_AUTO (-1) /* ds_bucket / ds_prefetch: transformers' "auto" (from the hidden size) */
#define EST_DS_NONE (-2) /* ds_persist: a threshold of 0, as written (0 in the field is "unset") */

/* Result components, in table order. */
enum est_comp {
    EST_C_WEIGHTS, EST_C_WEIGHT_COPIES, EST_C_MASTER, EST_C_GRADS, EST_C_OPTIM,
    EST_C_ACTS, EST_C_LOGITS, EST_C_KV, EST_C_TEMP, EST_C_BLAS, EST_C_CONTEXT, EST_C_NCCL, EST_C_SLACK,
    EST_C__COUNT
};

struct est_component {
    const char *name;     /* "weights", "optimizer states", ... (static) */
    int64_t bytes;        /* 0 when the term does not apply */
    bool at_peak;         /* live at the moment of the peak */
    char formula[480];    /* the term's formula with its numbers (--explain) */
};

struct est_result {
    int64_t params, trainable_params;
    struct est_component comp[EST_C__COUNT];
    int64_t peak_allocated_bytes; /* torch.cuda.max_memory_allocated */
    int64_t peak_reserved_bytes;  /* torch.cuda.max_memory_reserved */
    int64_t device_used_bytes;    /* nvidia-smi: reserved + context + NCCL buffers */
    int64_t capacity_bytes;       /* -1 unknown */
    int fits;                     /* 1 fits, 0 over, -1 capacity unknown */
    int64_t over_bytes;           /* device_used - capacity when over, else 0 */
    int64_t host_bytes;           /* model states and activations offloaded to host memory (per process) */
    int64_t managed_bytes;        /* paged optimizer states: in device used, not in torch's peaks */
    const char *peak_phase;       /* "forward/backward", "optimizer step", "prefill", "decode"... */
    int64_t varlen_extra_bytes;   /* --var-len: reserved beyond a fixed-length run (in the slack) */
    int varlen_records;           /* --var-len: micro-batches that set a new longest length */
    int64_t varlen_longest;       /* --var-len: the epoch's longest micro-batch (tokens per sample) */
};

/* Defaults: train, batch 1, seq 512, bf16-mixed, adamw (foreach), no
 * checkpointing, sdpa, CE loss, LM head, 1 GPU, capacity unknown, 15%. */
void est_workload_init(struct est_workload *wl);

/* Validate the shape and fill derived fields. -1 with a message naming the
 * offending field for zero, negative or absurd values. */
int est_model_finish(struct est_model *m, struct oomlab_err *err);

/* Parameter counts (total, and trainable under wl's LoRA setting), checked. */
/* Multi-head latent attention's KV bytes per token as vLLM caches it, the
 * compressed latent: layers x (kv_lora_rank + qk_rope_head_dim) x
 * elem_bytes (vllm-project/vllm:vllm/attention/backends/mla/common.py
 * @15daa36e: "a single latent vector to represent the per-token entry of the
 * KV cache", get_kv_cache_shape (num_blocks, block_size, head_size), one
 * head, head size 576 = 512 + 64 for DeepSeek-V3). 0 without MLA. The
 * estimate's own KV cache is HF's decompressed K and V (--mode infer
 * models transformers' generate). */
int64_t est_mla_latent_per_token(const struct est_model *m, int elem_bytes);

int est_params(const struct est_model *m, const struct est_workload *wl, int64_t *total,
               int64_t *trainable, struct oomlab_err *err);

/* Parameters a token passes through: est_params' total (with wl's LoRA
 * adapters; wl may be NULL) less the routed experts it is not sent to,
 * (experts - experts_per_token) expert MLPs and their adapters on every
 * sparse layer; the router, shared experts, dense layers, attention and
 * the embedding table all count (gpt-oss's card leaves the embedding out).
 * A dense model: the total. *active is -1 (unknown) when
 * m->experts_per_token_assumed. The weights in memory stay the total. m
 * must have passed est_model_finish. */
int est_active_params(const struct est_model *m, const struct est_workload *wl, int64_t *active,
                      struct oomlab_err *err);

/* The budget. m must have passed est_model_finish. Returns 0, or -1 with a
 * message for bad workload values (batch 2^40, zero sizes) or a total that
 * does not fit in 63 bits. */
int est_compute(const struct est_model *m, const struct est_workload *wl, struct est_result *r,
                struct oomlab_err *err);

/* How far a change moves the peak: *delta = peak_allocated(changed) -
 * peak_allocated(base), signed bytes (negative saves). Used by diagnose
 * --config and probe --model to say what a proposed change buys. */
int est_delta(const struct est_model *m, const struct est_workload *base,
              const struct est_workload *changed, int64_t *delta, struct oomlab_err *err);

/* Largest micro-batch (at wl->seq) and longest sequence (at wl->batch) whose
 * device_used stays within capacity * (1 - headroom). 0 when even 1 does not
 * fit; -1 when the capacity is unknown. */
int est_max_batch(const struct est_model *m, const struct est_workload *wl, int64_t *batch,
                  struct oomlab_err *err);
int est_max_seq(const struct est_model *m, const struct est_workload *wl, int64_t *seq,
                struct oomlab_err *err);

/* Levers: single changes to the workload, each with the bytes it saves on
 * device_used. est_levers fills up to max entries, best first. */
struct est_lever {
    char what[64];       /* "grad-ckpt full", "adamw-8bit", "batch 4" */
    int64_t saves_bytes; /* > 0 */
};
int est_levers(const struct est_model *m, const struct est_workload *wl, struct est_lever *out,
               int max, int *n, struct oomlab_err *err);

/* When even batch 1 does not fit: the smallest set of levers that, applied
 * together (in table order: torch.no_grad() for --autograd, checkpointing, sdpa, 8-bit AdamW, bf16-mixed,
 * chunked cross-entropy, LoRA r16, nf4, FSDP; inference: int8 or nf4), makes
 * batch 1 at wl->seq fit within capacity * (1 - headroom), the fewest
 * changes first and the lowest peak among those. n = 0 when batch 1 already
 * fits; -1 when no combination does or the capacity is unknown. */
#define EST_COMBO_MAX 8
struct est_combo {
    int n;
    char what[EST_COMBO_MAX][64];
    int64_t device_used_bytes, peak_allocated_bytes; /* of batch 1 with all of them */
};
int est_fit_combo(const struct est_model *m, const struct est_workload *wl, struct est_combo *out,
                  struct oomlab_err *err);

/* How far off the estimate has been on measured runs of the same kind of
 * workload. bench/estimate runs every usable row of bench/data/ (real
 * measurements with their sources) and writes the per-kind figures to
 * src/lib/est_checked.inc (`bench/estimate --emit-checked FILE`); make check
 * fails when that file no longer matches what the estimator computes. */
enum est_kind {
    EST_KIND_FULL,    /* training every weight on one GPU (pre-training, full fine-tune) */
    EST_KIND_LORA,    /* LoRA adapters on 16/32-bit frozen weights */
    EST_KIND_QLORA,   /* LoRA on int8/nf4 weights */
    EST_KIND_SHARDED, /* data-parallel over several GPUs (DDP, ZeRO, FSDP) */
    EST_KIND_LLMC,    /* llm.c's preallocated layout */
    EST_KIND_OFFLOAD, /* model states offloaded to the CPU */
    EST_KIND_INFER,   /* inference: KV cache and prompt activations */
    EST_KIND_LOAD,    /* weights loaded, nothing run */
    EST_KIND__COUNT
};

struct est_checked {
    enum est_kind kind;
    int rows;              /* measured runs compared; 0: none of this kind yet */
    int tuned;             /* of those, rows the constants were calibrated on */
    double median_abs_pct; /* median |estimate - measured| / measured, percent */
    double worst_abs_pct;  /* largest |error|, percent */
    double mean_pct;       /* mean signed error: < 0 means the estimate ran low */
    /* the same over the rows - tuned rows nothing was calibrated on */
    double held_median_pct, held_worst_pct, held_mean_pct;
    const char *sources;   /* the measurement groups, comma-separated */
};

/* The kind a workload belongs to (first match: load, infer, llm.c, offload,
 * sharded, QLoRA, LoRA, full). */
enum est_kind est_kind_of(const struct est_workload *wl);
/* "full", "lora", "qlora", "sharded", "llm.c", "offload", "infer", "load". */
const char *est_kind_name(enum est_kind k);
/* What the bench measured for that kind (static; rows 0 when none). */
const struct est_checked *est_checked_for(enum est_kind k);

/* The adapters' dropout in effect: wl->lora_dropout, or the trainer's
 * default when that is < 0. */
double est_lora_dropout(const struct est_workload *wl);

/* Names <-> enums for options and JSON; -1 when unknown. */
int est_family_parse(const char *s);
const char *est_family_name(enum est_family f);
/* "gpt2, gpt_neox, ..." into buf: the families --arch builds from explicit
 * dimensions, in table order (those whose shared experts or latent
 * attention come from a config.json only are left out). */
void est_family_arch_names(char *buf, size_t n);
/* What the estimate leaves out for the family (a sentence), or NULL. */
const char *est_family_limits(enum est_family f);
/* What the estimate leaves out for this model and workload: a config read
 * as another family (read_as), the family's sentence, and under --quant fp8
 * what fp8 leaves out, into buf; NULL when
 * neither applies. */
const char *est_limits(const struct est_model *m, const struct est_workload *wl, char *buf, size_t n);
/* The family's HF default for tie_word_embeddings (gpt2, opt, gemma, falcon,
 * bloom, bert, roberta, distilbert, electra, gemma3, t5: tied; gpt_neox, llama, mistral,
 * qwen2, qwen3, mixtral, phi, phi3: untied) — what explicit dimensions
 * (--arch ...) start from. est_model_finish likewise fills the family's
 * default position-table rows (gpt2 1024, opt 2048, bert/roberta/distilbert/electra
 * 512). */
bool est_family_tied_default(enum est_family f);
/* Whether transformers gives the family an SDPA attention path (GPT-J has
 * eager and flash_attention_2 only): est_compute refuses --attention sdpa
 * and sdpa-math for one that has none. */
bool est_family_sdpa(enum est_family f);
/* The attention transformers runs the family with when none is asked for:
 * sdpa, or eager where it has no SDPA (GPT-J). estimate and probe's
 * prediction start from it. */
enum est_attn est_family_attention(enum est_family f);
int est_precision_parse(const char *s);
const char *est_precision_name(enum est_precision p);
/* What the precision keeps in which dtype (training), in words: --explain's
 * "precision" line. */
const char *est_precision_model(const struct est_model *m, const struct est_workload *wl);
int est_optimizer_parse(const char *s);
const char *est_optimizer_name(enum est_optimizer o);
/* "none", "attn-core" (or "selective"), "block" (or "full"), "op"; -1 when
 * unknown. "every:N" needs est_ckpt_parse_arg. */
int est_ckpt_parse(const char *s);
/* Any policy name including "every:N" (N 1..4096): 0, or -1 on junk. */
int est_ckpt_parse_arg(const char *s, enum est_ckpt *c, int64_t *every);
/* The policy as the user would write it ("every:2"), into buf. */
const char *est_ckpt_describe(const struct est_workload *wl, char *buf, size_t n);
int est_attn_parse(const char *s);
const char *est_attn_name(enum est_attn a);
int est_quant_parse(const char *s);
const char *est_quant_name(enum est_quant q);
/* An fp8 checkpoint's weights: *fp8_params the block linears held in fp8,
 * *scale_bytes their scales, est_fp8_scale_bytes each (each linear's own ceil(out / block) x
 * ceil(in / block) blocks, its rows, or one per tensor; + one input_scale
 * per linear under fp8_static_act), *kept_params the block linears the
 * keep list leaves 16-bit. -1 on overflow. */
int est_fp8_weights(const struct est_model *m, const struct est_workload *wl, int64_t *fp8_params,
                    int64_t *scale_bytes, int64_t *kept_params, struct oomlab_err *err);
/* One entry of a modules_to_not_convert / ignore list -> the EST_LIN_*
 * bits it keeps 16-bit in every block (0 for modules that are 16-bit
 * anyway: lm_head, embeddings, norms, the MoE router "gate"). -1 for an
 * entry oomlab cannot place: one layer's module ("model.layers.3.mlp"),
 * a regex other than re:.*NAME$, a module it does not know. */
int est_fp8_keep_parse(const char *module, unsigned *bits);
const char *est_fp8_scale_name(enum est_fp8_scale s); /* "block", "channel", "tensor" */
/* The same for people: "block", "output channel", "tensor" (one wording
 * for the workload line and the weights formula). */
const char *est_fp8_scale_words(enum est_fp8_scale s);
/* fp8 block scales' block: the workload's fp8_block_out x fp8_block_in,
 * 128 where 0 (DeepSeek-V3's layout). */
void est_fp8_block(const struct est_workload *wl, int64_t *out, int64_t *in);
/* Bytes of one fp8 scale (weight_scale, weight_scale_inv, input_scale): 4
 * (fp32), or the model dtype's under fp8_scale_model_dtype; and its name
 * for people ("fp32", "16-bit"). */
int est_fp8_scale_bytes(const struct est_workload *wl);
const char *est_fp8_scale_dtype(const struct est_workload *wl);
/* fp8 linears held 16-bit: compressed-tensors' CompressedLinear once a
 * forward ran (fp8_decompress, any mode but load). */
bool est_fp8_decompressed(const struct est_workload *wl);
int est_qkernel_parse(const char *s); /* "auto", "gemm", "exllama", "exllama-v2" */
const char *est_qkernel_name(enum est_qkernel k);
int est_shard_parse(const char *s);
const char *est_shard_name(enum est_shard s);
int est_offload_parse(const char *s);
const char *est_offload_name(enum est_offload o);
int est_mode_parse(const char *s);
const char *est_mode_name(enum est_mode m);
int est_loss_parse(const char *s);
int est_head_parse(const char *s);
int est_trainer_parse(const char *s); /* "hf", "torchtune", "litgpt", "llm.c", "torchtitan" */
int est_cache_parse(const char *s);   /* "dynamic", "legacy", "static", "none" */
/* What the estimate assumed, in words (static strings, for --explain and
 * JSON "assumed"): what the checkpointing policy keeps, the loss path (what
 * the training code keeps of the logits), the KV cache model. */
const char *est_ckpt_keeps(enum est_ckpt c);
/* What --compile changes, in words (static): the partitioner's saved set
 * per block, or why the eager terms stay (LoRA/quantized, llm.c,
 * inference); NULL without --compile. */
const char *est_compile_model(const struct est_workload *wl);
/* torchtitan's FSDP2 as modelled (what is gathered when, the stream pools
 * in the reserved figure), or NULL outside --trainer torchtitan --shard fsdp
 * training on several GPUs. */
const char *est_fsdp2_model(const struct est_workload *wl);
const char *est_loss_path(const struct est_model *m, const struct est_workload *wl);
/* transformers' causal-LM loss code for --transformers, for --explain; NULL
 * when the workload has none (not HF training on an LM head) */
const char *est_hf_loss(const struct est_model *m, const struct est_workload *wl);
const char *est_cache_model(const struct est_workload *wl);
const char *est_cache_name(enum est_cache c);
/* Which measured figure the estimate models and how (static, for --explain):
 * the allocated peak is the tensors alive at the peak moment; the reserved
 * one adds a fixed-share slack for one batch shape, no simulation of the
 * caching allocator's segments or of an epoch of varying lengths. */
const char *est_figures_model(const struct est_workload *wl);
/* The whole cache model in words (cache, its length and layout, the mask,
 * the prefill logits), into buf; the same static text as est_cache_model
 * outside generation. */
const char *est_cache_describe(const struct est_model *m, const struct est_workload *wl, char *buf,
                               size_t n);
int est_quant_storage_parse(const char *s); /* "auto", "uint8", "model" */
/* DeepSpeed ZeRO's buffers as the estimate took them (stage, GPUs,
 * reduce bucket, overlap_comm, ZeRO-3 prefetch, the step's fp32 gradient
 * partition), into buf; "" when the workload is not DeepSpeed's. */
const char *est_ds_describe(const struct est_model *m, const struct est_workload *wl, char *buf, size_t n);
/* The elements of reduce_bucket_size / stage3_prefetch_bucket_size in effect. */
int64_t est_ds_bucket(const struct est_model *m, const struct est_workload *wl);
int64_t est_ds_prefetch(const struct est_model *m, const struct est_workload *wl);
int64_t est_ds_max_live(const struct est_workload *wl);
int64_t est_ds_persist(const struct est_model *m, const struct est_workload *wl);
bool est_ds_overlap(const struct est_workload *wl);
/* DeepSpeed offload_optimizer: the GPU bytes of moving one reduced gradient
 * of `numel` elements to the host (stage 3: the partition copied back to the
 * GPU + its fp64 norm in chunks of 2.5e8 elements; stage 1/2: the fp64 norm
 * of the param's slice in this rank's partition); -1 if the workload does
 * not describe a model. */
int64_t est_ds_offload_norm(const struct est_model *m, const struct est_workload *wl, int64_t numel);
int est_mask_parse(const char *s);           /* "auto", "none", "4d", "square", "max-positions", "rows" */
int est_prefill_logits_parse(const char *s); /* "auto", "last", "all" */
int est_auto_yes_no_parse(const char *s);    /* "auto" 0, "yes" 1, "no" 2: --use-cache, --compile-loss, --loss-upcast */
bool est_loss_compiled(const struct est_workload *wl);
int est_autograd_parse(const char *s);       /* "off", "on", "train" */
const char *est_autograd_name(enum est_autograd g);
int est_keep_parse(const char *s);           /* "auto", "none", "logits", "outputs" */
const char *est_keep_name(enum est_keep k);
int est_layer_buffers_parse(const char *s);  /* "auto" 0, "none" 1 */
int est_len_order_parse(const char *s);      /* "random" 0, "sorted" 1, "longest-first" 2 */
const char *est_trainer_name(enum est_trainer t);
/* "q,v", "q,k,v,o", "all", "attn", "mlp", "head" -> EST_LORA_* bits; -1 on junk. */
int est_lora_targets_parse(const char *s, unsigned *bits);

#endif
