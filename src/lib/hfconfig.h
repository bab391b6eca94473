/* hfconfig: a HuggingFace config.json text -> struct est_model, with json-c.
 * Knows the model_type families of est.h (gpt2, gpt_neox, opt, llama,
 * mistral, qwen2, gemma, gemma2, mixtral, phi, phi3, falcon, bloom, bert,
 * roberta, t5/mt5, qwen (Qwen-1), qwen3, gemma3_text, internlm2, phi-msft, chatglm, glm,
 * qwen2_moe, deepseek, llama4_text, gpt_bigcode, gptj, stablelm and the others of hfconfig.c's types);
 * refuses, with the reason, architectures it knows it cannot model. Nothing
 * is kept after the call; the caller owns *m. */
#ifndef OOMLAB_HFCONFIG_H
#define OOMLAB_HFCONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"
#include "lib/est.h"

enum {
    HFCONFIG_OK = 0,
    HFCONFIG_BAD = -1,          /* malformed JSON (FILE:LINE:COL), a bad value, or out of memory */
    HFCONFIG_UNKNOWN_TYPE = -2, /* valid JSON, model_type not known: the generic
                                   dimensions found are filled in, family is not */
};

/* A pre-quantized checkpoint's quantization_config: quant an enum est_quant
 * (EST_QUANT_NONE when the config has none), or -1 for a method or width
 * oomlab does not model, which desc names ("gptq, 8 bits", "fp8"). */
struct hfconfig_quant {
    int quant;
    int64_t group; /* gptq/awq group_size (AutoAWQ q_group_size); 0 not stated, -1 per channel */
    int kernel;    /* awq: enum est_qkernel from "version" and exllama_config; 0 not stated */
    /* fp8 (quant_method "fp8", or "compressed-tensors" with 8-bit float
     * weights): the scales' layout (enum est_fp8_scale), the block
     * (weight_block_size / block_structure), a static activation scheme
     * (an input_scale per linear), the EST_LIN_* linears the keep list
     * (modules_to_not_convert / ignore) leaves 16-bit, and how many of its
     * entries oomlab cannot place (counted fp8), the first of them named */
    int fp8_scale;
    int64_t fp8_block_out, fp8_block_in;
    bool fp8_static_act;
    bool fp8_decompress; /* compressed-tensors: decompressed at the first forward (est.h) */
    bool fp8_scale_model_dtype; /* compressed-tensors: scales in the weight's dtype (est.h) */
    unsigned fp8_keep;
    int fp8_unplaced;
    char fp8_unplaced_first[64];
    char desc[48];
};

/* Parse len bytes of text (no NUL needed); file names the source in messages.
 * Fields the config does not state stay 0 (est_model_finish fills defaults).
 * q (may be NULL) receives the quantization_config. */
int hfconfig_parse(const char *text, size_t len, const char *file, struct est_model *m,
                   struct hfconfig_quant *q, struct oomlab_err *err);

#endif
