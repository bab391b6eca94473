/* hfconfig: config.json keys differ by family (n_embd vs hidden_size vs
 * d_model); one table of key aliases per field, walked in order. */
#include "lib/hfconfig.h"
#include "lib/textenc.h"

#include <ctype.h>
#include <errno.h>
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
    const char *model_type;
    enum est_family family;
    int tied_default; /* HF's per-config default for tie_word_embeddings */
} types[] = {
    {"gpt2", EST_FAM_GPT2, 1},      {"gpt_neox", EST_FAM_NEOX, 0},  {"opt", EST_FAM_OPT, 1},
    {"llama", EST_FAM_LLAMA, 0},    {"mistral", EST_FAM_MISTRAL, 0}, {"qwen2", EST_FAM_QWEN2, 0},
    {"gemma", EST_FAM_GEMMA, 1},    {"gemma2", EST_FAM_GEMMA2, 1},  {"mixtral", EST_FAM_MIXTRAL, 0},
    {"phi", EST_FAM_PHI, 0},        {"phi3", EST_FAM_PHI3, 0},      {"falcon", EST_FAM_FALCON, 1},
    {"RefinedWebModel", EST_FAM_FALCON, 1}, {"bloom", EST_FAM_BLOOM, 1},
    {"bert", EST_FAM_BERT, 1},      {"roberta", EST_FAM_ROBERTA, 1}, {"t5", EST_FAM_T5, 1},
    {"mt5", EST_FAM_T5, 0},         {"qwen", EST_FAM_QWEN, 0},
    /* Qwen3Config's default is untied; the 0.6B-4B configs state true */
    {"qwen3", EST_FAM_QWEN3, 0},
    /* Qwen3's attention over Mixtral's sparse block (router without bias, no
     * shared expert: modeling_qwen3_moe.py@00d4b3d2); moe_layout checks every
     * block is sparse */
    {"qwen3_moe", EST_FAM_QWEN3, 0},
    /* Qwen1.5-MoE / Qwen2-MoE: Qwen2's attention over a sparse block with a
     * gated shared expert; moe_layout checks every block is sparse */
    {"qwen2_moe", EST_FAM_QWEN2MOE, 0},
    /* DeepSeekMoE (deepseek-moe-16b, remote code): Llama's attention, dense
     * first layers, routed and shared experts; deepseek_layout reads them */
    {"deepseek", EST_FAM_DEEPSEEK, 0},
    /* SantaCoder / StarCoder: GPT-2's block with one K/V head (multi_query,
     * read by family_flags) */
    {"gpt_bigcode", EST_FAM_BIGCODE, 1},
    {"stablelm", EST_FAM_STABLELM, 0},
    /* Llama 4's text model alone (Llama4ForCausalLM; the "llama4" wrapper
     * with its vision tower stays refused): llama4_layout reads it */
    {"llama4_text", EST_FAM_LLAMA4, 0},
    {"gptj", EST_FAM_GPTJ, 0},
    /* XLMRobertaModel is RobertaModel's code (modeling_xlm_roberta.py: "Copied
     * from ...roberta"), a 250k vocabulary */
    {"xlm-roberta", EST_FAM_ROBERTA, 1},
    {"distilbert", EST_FAM_DISTILBERT, 1},
    {"electra", EST_FAM_ELECTRA, 1},
    /* Gemma 3's text model alone (1B, 270M); the 4B+ checkpoints are
     * "gemma3", a vision tower beside the text model, not modelled */
    {"gemma3_text", EST_FAM_GEMMA3, 1},
    /* InternLM2 (remote code modeling_internlm2.py): Llama's block with q, k,
     * v fused in one wqkv (the same weights), no biases ("bias": false, which
     * unmodelled_keys checks), untied output */
    {"internlm2", EST_FAM_LLAMA, 0},
    /* Phi-1.5 / Phi-2 as first published (remote code, "phi-msft"): PhiForCausalLM's
     * parameters under older names (mixer.Wqkv, lm_head.ln + lm_head.linear with bias) */
    {"phi-msft", EST_FAM_PHI, 0},
    /* GLM: Qwen2's parameter layout (q, k, v with bias, o without; fused
     * gate_up; RMSNorm; untied output). chatglm is ChatGLM2/3 and GLM-4's
     * remote code (modeling_chatglm.py: query_key_value with add_qkv_bias,
     * dense_h_to_4h 2 x ffn_hidden_size, output_layer), keys of its own
     * (multi_query_group_num, kv_channels, padded_vocab_size); glm is the
     * same model in transformers (GlmForCausalLM, modeling_glm.py) */
    {"chatglm", EST_FAM_QWEN2, 0},
    {"glm", EST_FAM_QWEN2, 0},
    {"cohere", EST_FAM_COHERE, 1},
    {"starcoder2", EST_FAM_STARCODER2, 1},
    {"olmo2", EST_FAM_OLMO2, 0},
    {"olmoe", EST_FAM_OLMO2, 0},
    /* DeepSeek-V3/R1 and Kimi K2 (DeepseekV3ForCausalLM under its own
     * model_type): deepseek_layout reads the latent attention and MoE keys */
    {"deepseek_v3", EST_FAM_DEEPSEEK3, 0},
    {"kimi_k2", EST_FAM_DEEPSEEK3, 0},
    /* DeepSeek-V2 / V2-Lite: the same modules (DeepseekV2Attention, DeepseekV2MoE
     * with a router weight and no bias, dense MLPs before first_k_dense_replace,
     * the same past_key_value.update of decompressed K and V: huggingface/
     * transformers:src/transformers/models/deepseek_v2/modular_deepseek_v2.py
     * @ecd75d53) */
    {"deepseek_v2", EST_FAM_DEEPSEEK3, 0},
    /* gpt-oss: gptoss_layout checks the window pattern */
    {"gpt_oss", EST_FAM_GPTOSS, 0},
};

/* What to do next, after a refusal's reason: */
#define NEXT_ARCH                                                                                                      \
    "pass --arch and the dimensions (--layers --hidden --heads --ffn --vocab) to estimate the closest family instead"
#define NEXT_MEASURE                                                                                                   \
    "no family oomlab models is close (its recurrent layers hold a state, not a KV cache): measure it with "          \
    "`oomlab probe` or `oomlab run` instead"

/* Architectures oomlab knows it cannot model, why, and what to do instead
 * (next; NULL: NEXT_ARCH): refused with the reason instead of the generic
 * "not one oomlab knows". A wrapper whose why mentions text_config gets its
 * next from the config's own text_config (wrapper_next). */
static const struct {
    const char *model_type;
    const char *why;
    const char *next;
} unmodelled[] = {
    {"phimoe", "LayerNorms and attention biases around Mixtral's sparse block", NULL},
    /* Glm4DecoderLayer: GlmAttention, Phi3MLP and two more RMSNorms
     * (huggingface/transformers:src/transformers/models/glm4/modular_glm4.py
     * @08c53278) */
    {"glm4", "two extra norms per block (post_self_attn_layernorm, post_mlp_layernorm)",
     "closest: the same config with model_type \"glm\" (GLM-4's first layout: the same attention and MLP, those "
     "two norms' 2 x hidden weights a layer and their outputs left out)"},
    {"cohere2", "a sliding window on 3 layers of 4 (Command R7B)", NULL},
    {"gemma3", "a vision tower beside the text model (text_config)", NULL},
    {"mistral3", "a vision tower beside the text model (text_config)", NULL},
    {"llava", "a vision tower beside the text model (text_config)", NULL},
    {"llava_next", "a vision tower beside the text model (text_config)", NULL},
    {"mllama", "a vision tower beside the text model (text_config)", NULL},
    {"llama4", "a vision tower beside the text model (text_config)", NULL},
    {"qwen2_vl", "a vision tower beside the text model (vision_config)", NULL},
    {"qwen2_5_vl", "a vision tower beside the text model (vision_config)", NULL},
    {"mamba", "a state-space model: a recurrent state, no attention or KV cache", NEXT_MEASURE},
    {"mamba2", "a state-space model: a recurrent state, no attention or KV cache", NEXT_MEASURE},
    {"rwkv", "a recurrent state, no attention or KV cache", NEXT_MEASURE},
    {"rwkv5", "a recurrent state, no attention or KV cache", NEXT_MEASURE},
    {"jamba", "attention, Mamba and mixture-of-experts layers mixed", NEXT_MEASURE},
    /* 2025-2026 architectures (tests/data/hfconfigs/SOURCES names the real
     * configs) */
    {"deepseek_v32", "DeepSeek-V3's multi-head latent attention and shared experts, with a sparse-attention indexer "
                     "(index_n_heads)", NULL},
    {"glm_moe_dsa", "multi-head latent attention (kv_lora_rank), shared experts, dense first layers and a "
                    "sparse-attention indexer (index_n_heads)", NULL},
    {"qwen3_next", "Gated DeltaNet (linear attention, a recurrent state) on 3 layers of 4 "
                   "(full_attention_interval), gated attention, and a gated shared expert", NEXT_MEASURE},
    {"qwen3_5", "a vision tower beside the text model (text_config), whose layers mix Gated DeltaNet (linear "
                "attention) and full attention (layer_types)", NEXT_MEASURE},
    {"qwen3_5_moe", "a vision tower beside the text model (text_config), whose layers mix Gated DeltaNet (linear "
                    "attention) and full attention (layer_types), with shared experts", NEXT_MEASURE},
    {"qwen3_vl", "a vision tower beside the text model (text_config)", NULL},
    {"qwen3_vl_moe", "a vision tower beside the text model (text_config)", NULL},
    {"gemma4", "a vision tower beside the text model (text_config)", NULL},
    {"nemotron_h", "Mamba-2, attention and MLP (or mixture-of-experts) layers mixed (hybrid_override_pattern)",
     NEXT_MEASURE},
    {"nemotron-nas", "a different block per layer (block_configs: attention skipped or linear, MLP widths vary)", NULL},
    {"minimax_m2", "mixture-of-experts blocks with per-layer q/k norms and partial rotary (remote code)", NULL},
    {"mimo", "Qwen2's layers plus multi-token-prediction layers (num_nextn_predict_layers) built by its remote code",
     NULL},
};

/* Keys that mark a parameter layout no family models, whatever model_type
 * the config states (a fine-tune or conversion may keep a family's
 * model_type): a config carrying one is refused with the reason, not counted
 * as the family's layout. */
enum { READ_MLA = 1, READ_DEEPSEEK = 2, READ_QWEN2MOE = 4, READ_LLAMA4 = 8 };
enum layout_test {
    LK_PRESENT,  /* any non-null value */
    LK_POSITIVE, /* a number > 0 (Qwen3-Coder states shared_expert_intermediate_size 0) */
    LK_OBJECT,   /* a JSON object */
    LK_LAYERS,   /* an array holding an entry other than full_attention / sliding_attention */
};
static const struct {
    const char *key;
    enum layout_test test;
    const char *what;
    unsigned read_by; /* the READ_* layouts that read the key: not refused under their model_types */
} layout_keys[] = {
    {"kv_lora_rank", LK_PRESENT, "multi-head latent attention (a compressed KV cache)", READ_MLA},
    {"q_lora_rank", LK_PRESENT, "a low-rank query projection (multi-head latent attention)", READ_MLA},
    {"n_shared_experts", LK_POSITIVE, "shared experts beside the routed ones", READ_MLA | READ_DEEPSEEK},
    {"shared_expert_intermediate_size", LK_POSITIVE, "a shared expert beside the routed ones", READ_QWEN2MOE},
    {"first_k_dense_replace", LK_POSITIVE, "dense first layers before the sparse ones", READ_MLA | READ_DEEPSEEK},
    {"text_config", LK_OBJECT, "a text model nested in a wrapper, beside a vision or audio tower", 0},
    {"hybrid_override_pattern", LK_PRESENT, "Mamba and attention layers mixed", 0},
    {"layers_block_type", LK_PRESENT, "Mamba and attention layers mixed", 0},
    {"block_configs", LK_PRESENT, "a different block per layer", 0},
    {"layer_types", LK_LAYERS, "layers other than full or sliding-window attention (linear attention, Mamba...)",
     READ_LLAMA4},
};

/* The model_types whose layout function reads some of layout_keys. */
static const struct {
    const char *model_type;
    unsigned reads;
} layout_readers[] = {
    {"deepseek_v3", READ_MLA}, {"kimi_k2", READ_MLA}, {"deepseek_v2", READ_MLA},
    {"deepseek", READ_DEEPSEEK}, {"qwen2_moe", READ_QWEN2MOE}, {"llama4_text", READ_LLAMA4},
};

static unsigned layout_reads(const char *type)
{
    for (size_t i = 0; i < sizeof layout_readers / sizeof layout_readers[0]; i++)
        if (strcmp(layout_readers[i].model_type, type) == 0) return layout_readers[i].reads;
    return 0;
}

static bool layout_key_hit(json_object *v, enum layout_test test)
{
    switch (test) {
    case LK_PRESENT: return v != NULL;
    case LK_POSITIVE:
        return (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)) &&
               json_object_get_double(v) > 0;
    case LK_OBJECT: return json_object_is_type(v, json_type_object);
    case LK_LAYERS:
        if (!json_object_is_type(v, json_type_array)) return false;
        for (size_t i = 0; i < json_object_array_length(v); i++) {
            const char *t = json_object_get_string(json_object_array_get_idx(v, i));
            if (!t || (strcmp(t, "full_attention") != 0 && strcmp(t, "sliding_attention") != 0)) return true;
        }
        return false;
    }
    return false;
}

/* Config flags that change the parameter layout from the family's: a config
 * stating value `off` for key (or the opposite of `on`) is refused, not
 * estimated as the family's layout. type NULL: every model_type of the
 * family fam. */
static const struct {
    const char *model_type;
    const char *key;
    int want; /* the value the family's layout has */
    const char *what;
} layout_flags[] = {
    {"llama", "attention_bias", 0, "biases on q, k, v and o"},
    {"llama", "mlp_bias", 0, "biases in the MLP"},
    {"mistral", "attention_bias", 0, "biases on q, k, v and o"},
    {"qwen3", "attention_bias", 0, "biases on q, k, v and o"},
    {"phi3", "attention_bias", 0, "biases on q, k, v and o"},
    {"internlm2", "bias", 0, "biases on wqkv, wo and the MLP"},
    {"falcon", "bias", 0, "biases on the linears (Falcon-RW)"},
    {"falcon", "alibi", 0, "ALiBi"},
    {"chatglm", "add_qkv_bias", 1, "q, k, v without bias"},
    {"chatglm", "add_bias_linear", 0, "biases on the other linears"},
    {"chatglm", "rmsnorm", 1, "LayerNorm"},
    {"chatglm", "post_layer_norm", 1, "no final norm"},
    {"glm", "attention_bias", 1, "q, k, v without bias"},
    {"cohere", "use_qk_norm", 0, "per-head q and k LayerNorms (Command R+)"},
    {"cohere", "attention_bias", 0, "biases on q, k, v and o"},
    {"starcoder2", "use_bias", 1, "no biases"},
    {"deepseek_v3", "attention_bias", 0, "biases on q_a_proj, kv_a_proj_with_mqa and o_proj"},
    {"kimi_k2", "attention_bias", 0, "biases on q_a_proj, kv_a_proj_with_mqa and o_proj"},
    {"deepseek_v2", "attention_bias", 0, "biases on q_a_proj, kv_a_proj_with_mqa and o_proj"},
    /* Qwen2MoeConfig's qkv_bias (default true) sets q, k, v's biases */
    {"qwen2_moe", "qkv_bias", 1, "q, k, v without bias"},
    {"deepseek", "attention_bias", 0, "biases on q, k, v and o"},
    {"gpt_bigcode", "add_cross_attention", 0, "cross-attention blocks"},
    {"stablelm", "use_qkv_bias", 0, "biases on q, k, v (StableLM 2)"},
    {"stablelm", "qk_layernorm", 0, "per-head q and k LayerNorms"},
    {"stablelm", "use_parallel_residual", 0, "parallel attention and MLP with one LayerNorm"},
    {"llama4_text", "attention_bias", 0, "biases on q, k, v and o"},
};

#define FIELD_KEYS 5
struct field {
    const char *keys[FIELD_KEYS];
    size_t off;
    bool zero_none; /* 0 is a value: none of it (the field stays 0) */
};

/* The first key present wins; DistilBERT's own names (n_layers, dim,
 * n_heads, hidden_dim: DistilBertConfig) come last. */
#define OFF(f) offsetof(struct est_model, f)
static const struct field fields[] = {
    {{"num_hidden_layers", "n_layer", "num_layers", "n_layers", NULL}, OFF(layers), false},
    {{"num_decoder_layers", NULL}, OFF(decoder_layers), false},
    /* n_embed: BLOOM's own (bigscience/bloom, bloomz-560m; BloomConfig pops it into hidden_size) */
    {{"hidden_size", "n_embd", "d_model", "dim", "n_embed"}, OFF(hidden), false},
    {{"num_attention_heads", "n_head", "num_heads", "n_heads", NULL}, OFF(heads), false},
    {{"num_key_value_heads", "num_kv_heads", "multi_query_group_num", NULL}, OFF(kv_heads), false},
    {{"head_dim", "d_kv", "kv_channels", NULL}, OFF(head_dim), false},
    {{"intermediate_size", "n_inner", "ffn_dim", "d_ff", "hidden_dim"}, OFF(ffn), false},
    /* ChatGLM's embedding and output_layer are padded_vocab_size rows */
    {{"padded_vocab_size", "vocab_size", NULL}, OFF(vocab), false},
    {{"max_position_embeddings", "n_positions", NULL}, OFF(max_positions), false},
    {{"num_local_experts", "num_experts", NULL}, OFF(experts), false},
    {{"num_experts_per_tok", NULL}, OFF(experts_per_token), false},
    /* 0, as null: no window. transformers' flash-attention path tests the
     * window for truth (`... and sliding_window and key_states.shape[1] >
     * sliding_window`: huggingface/transformers:src/transformers/
     * modeling_flash_attention_utils.py@005f48213bd74c6773e7f52b4b24427b5eb06fe0) */
    {{"sliding_window", NULL}, OFF(sliding_window), true},
    {{"word_embed_proj_dim", NULL}, OFF(embed_proj), false},
};

static void line_col(const char *text, size_t off, long *line, long *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

/* The value v of "key" as the user wrote it, for a message (at most n - 1
 * bytes, "..." when cut). json-c's rendering is the text as written
 * (arrays spaced), except for an integer it saturated (past INT64_MIN or
 * UINT64_MAX): that one is taken from the text, at the key's last
 * occurrence, as json-c keeps the last of duplicate keys. */
static const char *as_written(const char *text, size_t len, const char *key, json_object *v,
                              char *buf, size_t n)
{
    const char *shown = json_object_to_json_string(v);
    size_t k = 0;
    bool saturated = json_object_is_type(v, json_type_int) &&
                     (json_object_get_int64(v) == INT64_MIN || json_object_get_uint64(v) == UINT64_MAX);
    char quoted[80];
    int q = snprintf(quoted, sizeof quoted, "\"%s\"", key);
    for (size_t i = 0; saturated && text && q > 0 && i + (size_t)q < len; i++) {
        if (memcmp(text + i, quoted, (size_t)q) != 0) continue;
        size_t j = i + (size_t)q;
        while (j < len && strchr(" \t\r\n", text[j]) && text[j]) j++;
        if (j >= len || text[j] != ':') continue;
        for (j++; j < len && text[j] && strchr(" \t\r\n", text[j]); j++) {}
        size_t m = 0;
        while (j + m < len && (isdigit((unsigned char)text[j + m]) || text[j + m] == '-')) m++;
        if (m) shown = text + j, k = m; /* the last occurrence wins */
    }
    if (!k) k = strlen(shown);
    if (k >= n) {
        snprintf(buf, n, "%.*s...", (int)(n - 4), shown);
        return buf;
    }
    memcpy(buf, shown, k);
    buf[k] = '\0';
    return buf;
}

/* "must be a positive integer", or, for a positive whole number too large
 * to be a dimension, "is out of range". */
static int bad_dim(const char *file, const char *key, bool positive_whole, const char *text, size_t len,
                   json_object *v, struct oomlab_err *err)
{
    char lit[48];
    if (positive_whole)
        return oomlab_err_set(err, "%s: \"%s\" is out of range (a dimension is at most 2^53), got %s", file,
                              key, as_written(text, len, key, v, lit, sizeof lit));
    return oomlab_err_set(err, "%s: \"%s\" must be a positive integer, got %s", file, key,
                          as_written(text, len, key, v, lit, sizeof lit));
}

/* A dimension: a positive integer, or null (unset); 0 too where the field
 * is zero_none (left as it was: none). */
static int get_dim(json_object *root, const struct field *f, const char *file, const char *text,
                   size_t len, int64_t *out, struct oomlab_err *err)
{
    for (int k = 0; k < FIELD_KEYS && f->keys[k]; k++) {
        json_object *v;
        if (!json_object_object_get_ex(root, f->keys[k], &v) || !v) continue;
        if (f->zero_none && (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)) &&
            json_object_get_double(v) == 0)
            return 0;
        if (json_object_is_type(v, json_type_double)) {
            double d = json_object_get_double(v);
            if (!isfinite(d) || d != floor(d) || d < 1 || d > 9.0e15)
                return bad_dim(file, f->keys[k], d == floor(d) && d > 9.0e15, text, len, v, err);
            *out = (int64_t)d;
            return 0;
        }
        if (!json_object_is_type(v, json_type_int)) return bad_dim(file, f->keys[k], false, text, len, v, err);
        /* json-c saturates out-of-range integers at INT64_MAX: anything past
         * 2^53 is not a dimension, and would overflow the arithmetic after. */
        errno = 0;
        int64_t n = json_object_get_int64(v);
        if (n < 1 || errno == ERANGE || n > ((int64_t)1 << 53))
            return bad_dim(file, f->keys[k], n > 1, text, len, v, err);
        *out = n;
        return 0;
    }
    return 0;
}

static json_object *parse_json(const char *text, size_t len, const char *file,
                               struct oomlab_err *err)
{
    if (len > (size_t)INT32_MAX) {
        oomlab_err_set(err, "%s: too large for a config.json", file);
        return NULL;
    }
    /* transformers reads config.json with open(encoding="utf-8") and
     * json.loads, which refuses a BOM too ("Unexpected UTF-8 BOM"): say what
     * the invisible bytes are, not "unexpected character" at 1:1. */
    size_t blank = 0;
    while (blank < len && strchr(" \t\r\n", text[blank])) blank++;
    if (blank == len) { /* not "1:1: unexpected end of JSON" */
        oomlab_err_set(err, "%s: empty file (%zu bytes%s), not a config.json", file, len,
                       len ? ", all blank" : "");
        return NULL;
    }
    char wide[512];
    if (textenc_wide_message(text, len, file, "a config.json", wide, sizeof wide)) {
        oomlab_err_set(err, "%s: %s", file, wide);
        return NULL;
    }
    if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
        oomlab_err_at(err, file, 1, 1, "starts with a UTF-8 byte-order mark (EF BB BF), which transformers' "
                      "json.loads refuses too: save it as UTF-8 without a BOM");
        return NULL;
    }
    json_tokener *tok = json_tokener_new();
    if (!tok) {
        oomlab_err_set(err, "out of memory");
        return NULL;
    }
    json_object *root = json_tokener_parse_ex(tok, text, (int)len);
    enum json_tokener_error e = json_tokener_get_error(tok);
    size_t end = json_tokener_get_parse_end(tok);
    if (e == json_tokener_continue) {
        long line, col;
        line_col(text, len, &line, &col);
        oomlab_err_at(err, file, line, col, "unexpected end of JSON");
    } else if (e != json_tokener_success) {
        long line, col;
        line_col(text, end > len ? len : end, &line, &col);
        oomlab_err_at(err, file, line, col, "malformed JSON: %s", json_tokener_error_desc(e));
    } else {
        for (size_t i = end; i < len && root; i++)
            if (text[i] != ' ' && text[i] != '\n' && text[i] != '\r' && text[i] != '\t') {
                long line, col;
                line_col(text, i, &line, &col);
                oomlab_err_at(err, file, line, col, "malformed JSON: text after the object");
                json_object_put(root);
                root = NULL;
            }
    }
    json_tokener_free(tok);
    if (root && !json_object_is_type(root, json_type_object)) {
        oomlab_err_at(err, file, 1, 1, "config.json must hold a JSON object");
        json_object_put(root);
        return NULL;
    }
    if (e != json_tokener_success && root) {
        json_object_put(root);
        root = NULL;
    }
    return root;
}

static int get_bool(json_object *root, const char *key, int dflt)
{
    json_object *v;
    if (!json_object_object_get_ex(root, key, &v) || !v) return dflt;
    if (json_object_is_type(v, json_type_boolean)) return json_object_get_boolean(v);
    return dflt;
}

static const char *get_str(json_object *root, const char *key)
{
    json_object *v;
    if (!json_object_object_get_ex(root, key, &v) || !json_object_is_type(v, json_type_string))
        return NULL;
    return json_object_get_string(v);
}

/* Dropout: trained with it when any probability the config states is > 0
 * (2: every one stated is 0; 0: none stated). A probability outside [0, 1]
 * (NaN, which json-c reads, included) is refused: -1 with err. */
static int dropout_of(json_object *root, const char *file, int *out, struct oomlab_err *err)
{
    static const char *const keys[] = {
        "attn_pdrop", "resid_pdrop", "embd_pdrop", "hidden_dropout_prob",
        "attention_probs_dropout_prob", "attention_dropout", "hidden_dropout", "dropout",
        "dropout_rate",
    };
    int seen = 0, on = 0;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        json_object *v;
        if (!json_object_object_get_ex(root, keys[i], &v) || !v) continue;
        if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
            continue;
        double p = json_object_get_double(v);
        if (!(p >= 0 && p <= 1))
            return oomlab_err_set(err, "%s: \"%s\" must be a probability in [0, 1], got %s", file,
                                  keys[i], json_object_to_json_string(v));
        seen = 1;
        if (p > 0) on = 1;
    }
    *out = on ? 1 : seen ? 2 : 0;
    return 0;
}

/* An AWQ config's kernels: "version" gemm / exllama (AwqConfig; "gemv",
 * "ipex" and others stay auto), and for exllama the exllama_config's
 * version, 2 when none is given (AwqConfig.post_init's default,
 * huggingface/transformers:src/transformers/utils/quantization_config.py
 * @000e2231). */
static int awq_kernel_of(json_object *qc)
{
    const char *version = get_str(qc, "version");
    json_object *ex, *v;
    if (!version) return EST_QKERNEL_AUTO;
    if (strcasecmp(version, "gemm") == 0) return EST_QKERNEL_GEMM;
    if (strcasecmp(version, "exllama") != 0) return EST_QKERNEL_AUTO;
    if (json_object_object_get_ex(qc, "exllama_config", &ex) && json_object_is_type(ex, json_type_object) &&
        json_object_object_get_ex(ex, "version", &v) && json_object_is_type(v, json_type_int) &&
        json_object_get_int64(v) == 1)
        return EST_QKERNEL_EXLLAMA;
    return EST_QKERNEL_EXLLAMA_V2;
}

/* An fp8 checkpoint's keep list (modules_to_not_convert, compressed-tensors'
 * ignore): the block linears it leaves 16-bit, and the entries no rule of
 * est_fp8_keep_parse places (counted fp8; the cmd says so). */
static void fp8_keep_of(json_object *list, struct hfconfig_quant *q)
{
    if (!list || !json_object_is_type(list, json_type_array)) return;
    for (size_t i = 0, n = json_object_array_length(list); i < n; i++) {
        json_object *e = json_object_array_get_idx(list, i);
        unsigned bits = 0;
        const char *name = json_object_is_type(e, json_type_string) ? json_object_get_string(e) : NULL;
        if (name && est_fp8_keep_parse(name, &bits) == 0) {
            q->fp8_keep |= bits;
            continue;
        }
        if (q->fp8_unplaced++ == 0)
            snprintf(q->fp8_unplaced_first, sizeof q->fp8_unplaced_first, "%.60s",
                     name ? name : json_object_to_json_string(e));
    }
}

/* A [rows, cols] block size; 0 when the value is not two sane positive ints. */
static int fp8_block_of(json_object *v, struct hfconfig_quant *q)
{
    if (!v || !json_object_is_type(v, json_type_array) || json_object_array_length(v) != 2) return 0;
    int64_t d[2];
    for (size_t i = 0; i < 2; i++) {
        json_object *e = json_object_array_get_idx(v, i);
        d[i] = json_object_is_type(e, json_type_int) ? json_object_get_int64(e) : 0;
        if (d[i] < 1 || d[i] > (1 << 20)) return 0;
    }
    q->fp8_scale = EST_FP8_BLOCK;
    q->fp8_block_out = d[0];
    q->fp8_block_in = d[1];
    return 1;
}

/* quant_method "fp8": DeepSeek-V3's and Qwen3-FP8's block scales
 * (weight_block_size [128, 128], activation_scheme "dynamic"; transformers'
 * FineGrainedFP8Config), or without weight_block_size AutoFP8's per-tensor
 * weight_scale, with an input_scale beside it under activation_scheme
 * "static" (neuralmagic/Meta-Llama-3-8B-Instruct-FP8's config.json); a
 * modules_to_not_convert list (MiniMax-M2.5's). */
static void fp8_of(json_object *qc, struct hfconfig_quant *q)
{
    json_object *v;
    const char *act = get_str(qc, "activation_scheme");
    q->fp8_static_act = act && strcmp(act, "static") == 0;
    q->fp8_scale = EST_FP8_TENSOR;
    if (json_object_object_get_ex(qc, "weight_block_size", &v) && !json_object_is_type(v, json_type_null) &&
        !fp8_block_of(v, q)) {
        snprintf(q->desc, sizeof q->desc, "fp8, weight_block_size %.24s", json_object_to_json_string(v));
        return;
    }
    if (json_object_object_get_ex(qc, "modules_to_not_convert", &v)) fp8_keep_of(v, q);
    q->quant = EST_QUANT_FP8;
}

/* compressed-tensors (llm-compressor's checkpoints: RedHatAI's FP8 models):
 * config_groups whose "weights" are 8-bit floats, by strategy "tensor",
 * "channel" or "block" (block_structure), input_activations "dynamic":
 * false meaning a static input_scale per linear, and an "ignore" list.
 * Other weights (int, 4-bit, nvfp4 groups) are not fp8: desc says which. */
static void compressed_of(json_object *qc, struct hfconfig_quant *q)
{
    json_object *groups, *v;
    if (!json_object_object_get_ex(qc, "config_groups", &groups) || !json_object_is_type(groups, json_type_object))
        return;
    int seen = 0;
    json_object_object_foreach(groups, gname, g) {
        (void)gname;
        json_object *w, *act;
        if (!json_object_is_type(g, json_type_object) || !json_object_object_get_ex(g, "weights", &w) ||
            !json_object_is_type(w, json_type_object))
            continue;
        const char *type = get_str(w, "type"), *strategy = get_str(w, "strategy");
        int64_t bits = json_object_object_get_ex(w, "num_bits", &v) && json_object_is_type(v, json_type_int)
                           ? json_object_get_int64(v) : 0;
        struct hfconfig_quant one = *q;
        if (!type || strcmp(type, "float") != 0 || bits != 8) {
            snprintf(q->desc, sizeof q->desc, "compressed-tensors, %.8s %lld bits", type ? type : "?", (long long)bits);
            return;
        }
        if (strategy && strcmp(strategy, "channel") == 0) one.fp8_scale = EST_FP8_CHANNEL;
        else if (strategy && strcmp(strategy, "tensor") == 0) one.fp8_scale = EST_FP8_TENSOR;
        else if (!(strategy && strcmp(strategy, "block") == 0 && json_object_object_get_ex(w, "block_structure", &v) &&
                   fp8_block_of(v, &one))) {
            snprintf(q->desc, sizeof q->desc, "compressed-tensors, fp8 %.16s scales", strategy ? strategy : "unnamed");
            return;
        }
        one.fp8_static_act = json_object_object_get_ex(g, "input_activations", &act) &&
                             json_object_is_type(act, json_type_object) && !get_bool(act, "dynamic", 1);
        if (seen && (one.fp8_scale != q->fp8_scale || one.fp8_block_out != q->fp8_block_out ||
                     one.fp8_block_in != q->fp8_block_in || one.fp8_static_act != q->fp8_static_act)) {
            snprintf(q->desc, sizeof q->desc, "compressed-tensors, mixed fp8 schemes");
            return;
        }
        q->fp8_scale = one.fp8_scale;
        q->fp8_block_out = one.fp8_block_out;
        q->fp8_block_in = one.fp8_block_in;
        q->fp8_static_act = one.fp8_static_act;
        seen = 1;
    }
    if (!seen) return;
    /* "frozen" and earlier statuses hold the weights uncompressed (16-bit) */
    const char *status = get_str(qc, "quantization_status");
    if (status && strcmp(status, "compressed") != 0) {
        snprintf(q->desc, sizeof q->desc, "compressed-tensors, status %.16s", status);
        return;
    }
    if (json_object_object_get_ex(qc, "ignore", &v)) fp8_keep_of(v, q);
    q->fp8_decompress = true;
    q->fp8_scale_model_dtype = true; /* scale_dtype = the weight's: est_fp8_scale_bytes */
    q->quant = EST_QUANT_FP8;
}

/* A pre-quantized checkpoint says how in quantization_config (transformers'
 * quantizers: quant_method "gptq"/"awq" with "bits" and "group_size" (AutoAWQ's
 * own "w_bit", "q_group_size"), "bitsandbytes" with
 * load_in_4bit / load_in_8bit and bnb_4bit_use_double_quant; older
 * bitsandbytes configs have no quant_method). */
static void quant_of(json_object *root, struct hfconfig_quant *q)
{
    json_object *qc, *v;
    memset(q, 0, sizeof *q);
    if (!json_object_object_get_ex(root, "quantization_config", &qc) || !json_object_is_type(qc, json_type_object))
        return;
    const char *method = get_str(qc, "quant_method");
    bool bnb4 = get_bool(qc, "load_in_4bit", 0), bnb8 = get_bool(qc, "load_in_8bit", 0);
    int64_t bits = 4;
    if ((json_object_object_get_ex(qc, "bits", &v) || json_object_object_get_ex(qc, "w_bit", &v)) &&
        json_object_is_type(v, json_type_int))
        bits = json_object_get_int64(v);
    bool bad_group = false; /* stated but no group: not a width to guess */
    if (json_object_object_get_ex(qc, "group_size", &v) || json_object_object_get_ex(qc, "q_group_size", &v)) {
        int64_t g = json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : 0;
        if (g >= -1 && g != 0 && g <= (1 << 20)) q->group = g;
        else bad_group = true;
    }
    if (!method) method = bnb4 || bnb8 ? "bitsandbytes" : "unnamed";
    snprintf(q->desc, sizeof q->desc, "%.24s", method);
    q->quant = -1;
    if (strcmp(method, "bitsandbytes") == 0) {
        if (bnb4) q->quant = get_bool(qc, "bnb_4bit_use_double_quant", 0) ? EST_QUANT_NF4_DQ : EST_QUANT_NF4;
        else if (bnb8) q->quant = EST_QUANT_INT8;
    } else if (strcmp(method, "mxfp4") == 0) {
        /* gpt-oss's experts as MXFP4 blocks and scales: kept so where the
         * GPU and kernels allow, dequantized to bf16 where not (transformers'
         * Mxfp4HfQuantizer.validate_environment) */
        snprintf(q->desc, sizeof q->desc, "mxfp4; HF loads bf16 without its kernels");
    } else if (strcmp(method, "fp8") == 0) {
        fp8_of(qc, q);
    } else if (strcmp(method, "compressed-tensors") == 0) {
        compressed_of(qc, q);
    } else if (strcmp(method, "gptq") == 0 || strcmp(method, "awq") == 0) {
        if (bits != 4) snprintf(q->desc, sizeof q->desc, "%s, %lld bits", method, (long long)bits);
        else if (bad_group) snprintf(q->desc, sizeof q->desc, "%s, group_size %.16s", method, json_object_to_json_string(v));
        else q->quant = method[0] == 'g' ? EST_QUANT_GPTQ : EST_QUANT_AWQ;
        if (q->quant == EST_QUANT_AWQ) q->kernel = awq_kernel_of(qc);
    }
}

/* Family quirks that live in config flags rather than in model_type. */
static void family_flags(json_object *root, struct est_model *m)
{
    const char *ff = get_str(root, "feed_forward_proj");
    if (m->family == EST_FAM_T5 && ff) m->mlp_kind = strncmp(ff, "gated", 5) == 0 ? 2 : 1;
    /* Falcon: num_kv_heads counts only under new_decoder_architecture
     * (40B, 180B); before it, multi_query (FalconConfig's default true) means
     * one K/V head, whatever num_kv_heads says (Falcon-7B states 71):
     * FalconAttention's num_kv_heads = config.num_kv_heads if
     * (new_decoder_architecture or not multi_query) else 1 */
    if (m->family == EST_FAM_FALCON && !get_bool(root, "new_decoder_architecture", 0))
        m->kv_heads = get_bool(root, "multi_query", 1) ? 1 : 0;
    if ((m->family == EST_FAM_QWEN2 || m->family == EST_FAM_QWEN3 || m->family == EST_FAM_QWEN2MOE) &&
        !get_bool(root, "use_sliding_window", 0))
        m->sliding_window = 0;
    /* GPTBigCodeAttention: kv_heads = 1 if multi_query (the config's default
     * true) else num_heads */
    if (m->family == EST_FAM_BIGCODE) m->kv_heads = get_bool(root, "multi_query", 1) ? 1 : 0;
    if (m->family == EST_FAM_OPT && m->embed_proj == m->hidden) m->embed_proj = 0;
    if (m->family == EST_FAM_GPT2 && !m->ffn && m->hidden) m->ffn = 4 * m->hidden;
    /* Qwen-1: intermediate_size (ffn_hidden_size in the first Qwen-7B-Chat
     * config) counts both SwiGLU branches: w1, w2 and c_proj are
     * intermediate_size // 2 wide (QWenMLP in modeling_qwen.py) */
    if (m->family == EST_FAM_QWEN) {
        json_object *v;
        if (m->ffn) m->ffn /= 2;
        else if (json_object_object_get_ex(root, "ffn_hidden_size", &v) && json_object_is_type(v, json_type_int) &&
                 json_object_get_int64(v) > 1 && json_object_get_int64(v) <= (1LL << 30))
            m->ffn = json_object_get_int64(v) / 2;
    }
    /* RoBERTa's config counts the padding offset in (514 = 512 + 2); the
     * family table adds the offset itself. */
    if (m->family == EST_FAM_ROBERTA && m->max_positions > 2) m->max_positions -= 2;
}

#define INT_KEY_MAX (1LL << 30) /* the largest value int_key reads */

/* An integer key from lo to INT_KEY_MAX (null or absent: dflt); -1 when
 * stated otherwise. */
static int64_t int_key(json_object *root, const char *key, int64_t lo, int64_t dflt)
{
    json_object *v;
    if (!json_object_object_get_ex(root, key, &v) || !v) return dflt;
    if (!json_object_is_type(v, json_type_int)) return -1;
    int64_t n = json_object_get_int64(v);
    return n >= lo && n <= INT_KEY_MAX ? n : -1;
}

/* Qwen3-MoE and Qwen2-MoE: the experts are moe_intermediate_size wide
 * (intermediate_size is the dense MLP's, used only by dense blocks). A block
 * is sparse unless listed in mlp_only_layers or off decoder_sparse_step
 * (Qwen3MoeDecoderLayer, Qwen2MoeDecoderLayer); oomlab models every block
 * alike, so a config with dense blocks is refused (-1 with err), not
 * estimated as all-sparse or all-dense. Qwen2-MoE's shared expert is
 * shared_expert_intermediate_size wide (qwen2moe_shared). */
static int qwen2moe_shared(json_object *root, const char *file, struct est_model *m, struct oomlab_err *err)
{
    int64_t shared = int_key(root, "shared_expert_intermediate_size", 1, -1);
    if (shared < 0 || shared > (1LL << 22))
        return oomlab_err_set(err, "%s: a qwen2_moe config without an integer "
                                   "\"shared_expert_intermediate_size\" from 1 to 4194304 is not modelled",
                              file);
    m->shared_ffn = shared;
    return 0;
}

static int moe_layout(json_object *root, const char *file, const char *type, struct est_model *m,
                      struct oomlab_err *err)
{
    json_object *v;
    bool qwen2 = strcmp(type, "qwen2_moe") == 0;
    if (strcmp(type, "qwen3_moe") != 0 && !qwen2) return 0;
    int64_t step = 1, ffn = 0;
    if (json_object_object_get_ex(root, "decoder_sparse_step", &v) && json_object_is_type(v, json_type_int))
        step = json_object_get_int64(v);
    bool dense_listed = json_object_object_get_ex(root, "mlp_only_layers", &v) &&
                        json_object_is_type(v, json_type_array) && json_object_array_length(v) > 0;
    if (json_object_object_get_ex(root, "moe_intermediate_size", &v) && json_object_is_type(v, json_type_int))
        ffn = json_object_get_int64(v);
    if (!m->experts || step != 1 || dense_listed || ffn < 1 || ffn > (1LL << 22))
        return oomlab_err_set(err, "%s: a %s config with %s is not modelled (oomlab needs every block "
                                   "sparse: num_experts, moe_intermediate_size, decoder_sparse_step 1, no "
                                   "mlp_only_layers)%s",
                              file, type, !m->experts ? "no num_experts" : step != 1 ? "decoder_sparse_step != 1"
                                  : dense_listed ? "dense blocks (mlp_only_layers)"
                                  : ffn ? "a moe_intermediate_size outside 1..4194304" : "no moe_intermediate_size",
                              qwen2 ? "" : "; pass --arch qwen3 and the dimensions");
    m->ffn = ffn;
    return qwen2 ? qwen2moe_shared(root, file, m, err) : 0;
}

/* ELECTRA: word, position and token-type tables are embedding_size wide
 * (ElectraConfig's default 128) and projected to hidden_size when the two
 * differ (embeddings_project): not modelled, so refused (-1 with err). */
static int electra_layout(json_object *root, const char *file, const char *type, const struct est_model *m,
                          struct oomlab_err *err)
{
    json_object *v;
    if (strcmp(type, "electra") != 0) return 0;
    int64_t e = 128;
    if (json_object_object_get_ex(root, "embedding_size", &v) && json_object_is_type(v, json_type_int))
        e = json_object_get_int64(v);
    if (e == m->hidden) return 0;
    return oomlab_err_set(err, "%s: an electra config with embedding_size %lld != hidden_size %lld (embeddings_project) "
                               "is not modelled; pass --arch electra and the dimensions",
                          file, (long long)e, (long long)m->hidden);
}

/* Gemma 3: oomlab models its window pattern, full attention on every 6th
 * layer and a sliding window on the others (Gemma3TextConfig's
 * sliding_window_pattern 6; newer configs spell it out in layer_types).
 * Another pattern is refused (-1 with err), not estimated as this one. */
static int gemma3_layout(json_object *root, const char *file, const char *type, const struct est_model *m,
                         struct oomlab_err *err)
{
    json_object *v;
    if (strcmp(type, "gemma3_text") != 0) return 0;
    if (json_object_object_get_ex(root, "sliding_window_pattern", &v) && json_object_is_type(v, json_type_int) &&
        json_object_get_int64(v) != 6)
        return oomlab_err_set(err, "%s: a gemma3_text config with sliding_window_pattern %lld is not modelled "
                                   "(oomlab models 6: full attention on every 6th layer)",
                              file, (long long)json_object_get_int64(v));
    if (json_object_object_get_ex(root, "layer_types", &v) && json_object_is_type(v, json_type_array)) {
        size_t n = json_object_array_length(v);
        for (size_t i = 0; i < n; i++) {
            const char *t = json_object_get_string(json_object_array_get_idx(v, i));
            const char *want = (i + 1) % 6 == 0 ? "full_attention" : "sliding_attention";
            if (!t || strcmp(t, want) != 0 || (m->layers && n != (size_t)m->layers))
                return oomlab_err_set(err, "%s: a gemma3_text config whose layer_types are not full attention on "
                                           "every 6th layer and sliding elsewhere is not modelled (layer %zu)",
                                      file, i);
        }
    }
    return 0;
}

/* ChatGLM2/3 and GLM-4 (model_type "chatglm"): the MLP is ffn_hidden_size
 * per branch (dense_h_to_4h is 2 x ffn_hidden_size), K and V have
 * multi_query_group_num heads only under multi_query_attention. ChatGLM-6B
 * (the first, with 2-D positions and GeLU) shares the model_type but has no
 * padded_vocab_size: refused (-1 with err). */
static int glm_layout(json_object *root, const char *file, const char *type, struct est_model *m,
                      struct oomlab_err *err)
{
    json_object *v;
    if (strcmp(type, "chatglm") != 0) return 0;
    if (!json_object_object_get_ex(root, "padded_vocab_size", &v))
        return oomlab_err_set(err, "%s: a chatglm config without padded_vocab_size (ChatGLM-6B's first layout: 2-D "
                                   "positions, GeLU MLP) is not modelled",
                              file);
    if (!get_bool(root, "multi_query_attention", 0)) m->kv_heads = 0;
    m->ffn = 0;
    if (json_object_object_get_ex(root, "ffn_hidden_size", &v) && json_object_is_type(v, json_type_int) &&
        json_object_get_int64(v) >= 1 && json_object_get_int64(v) <= (1LL << 22))
        m->ffn = json_object_get_int64(v);
    return 0;
}

/* gpt-oss: GptOssConfig's layer_types default is sliding_attention on even
 * layers and full_attention on odd ones, and it sets attention_bias True
 * whatever the config states (huggingface/transformers:src/transformers/
 * models/gpt_oss/configuration_gpt_oss.py@828a27fd), so that key is not
 * read; oomlab
 * models that pattern over an even number of layers with a stated
 * sliding_window (half the layers keep the window). Another pattern is
 * refused (-1 with err). */
static int gptoss_layout(json_object *root, const char *file, const char *type, const struct est_model *m,
                         struct oomlab_err *err)
{
    json_object *v;
    if (strcmp(type, "gpt_oss") != 0) return 0;
    if (!m->sliding_window || !m->experts || !m->experts_per_token || m->layers % 2)
        return oomlab_err_set(err, "%s: a gpt_oss config without sliding_window, num_local_experts and "
                                   "experts_per_token, or with an odd number of layers, is not modelled",
                              file);
    if (!json_object_object_get_ex(root, "layer_types", &v) || !json_object_is_type(v, json_type_array) ||
        json_object_array_length(v) != (size_t)m->layers)
        return oomlab_err_set(err, "%s: a gpt_oss config without layer_types for its %lld layers is not modelled",
                              file, (long long)m->layers);
    for (size_t i = 0; i < json_object_array_length(v); i++) {
        const char *t = json_object_get_string(json_object_array_get_idx(v, i));
        if (!t || strcmp(t, i % 2 ? "full_attention" : "sliding_attention") != 0)
            return oomlab_err_set(err, "%s: a gpt_oss config whose layer_types are not sliding and full attention "
                                       "alternating (sliding first) is not modelled (layer %zu)",
                                  file, i);
    }
    return 0;
}

static bool is_deepseek3(const char *type)
{
    return strcmp(type, "deepseek_v3") == 0 || strcmp(type, "kimi_k2") == 0 || strcmp(type, "deepseek_v2") == 0;
}

/* DeepSeekMoE (model_type deepseek, DeepseekForCausalLM: the modules of
 * vllm-project/vllm:vllm/model_executor/models/deepseek.py@01dbb081, the
 * remote code's shapes): a sparse block on every layer at or past
 * first_k_dense_replace whose index is a multiple of moe_layer_freq, so
 * only moe_layer_freq 1 is every such layer; n_shared_experts must be >= 1
 * (null builds no shared MLP, which the family does not model). -1 with
 * err otherwise. */
static int deepseek1_layout(json_object *root, const char *file, struct est_model *m, struct oomlab_err *err)
{
    int64_t freq = int_key(root, "moe_layer_freq", 1, 1);
    if (freq != 1)
        return oomlab_err_set(err, "%s: a deepseek config with moe_layer_freq other than 1 (dense layers between "
                                   "the sparse ones) is not modelled",
                              file);
    if (!m->shared_ffn)
        return oomlab_err_set(err, "%s: a deepseek config without shared experts (n_shared_experts 0) is not "
                                   "modelled",
                              file);
    return 0;
}

/* Multi-head latent attention's keys (kv_lora_rank, qk_nope_head_dim,
 * qk_rope_head_dim, v_head_dim in lat) and q_lora_rank. */
static int mla_layout(json_object *root, const char *file, const char *type, struct est_model *m,
                      const int64_t lat[4], struct oomlab_err *err)
{
    int64_t q_lora = int_key(root, "q_lora_rank", 1, 0);
    if (q_lora < 0)
        return oomlab_err_set(err, "%s: a %s config's \"q_lora_rank\" must be a positive integer or null", file, type);
    m->kv_lora_rank = lat[0];
    m->head_dim = lat[1] + lat[2];
    m->rope_dim = lat[2];
    m->v_head_dim = lat[3];
    m->q_lora_rank = q_lora;
    m->kv_heads = m->heads; /* num_key_value_heads: every head has its own decompressed K, V */
    return 0;
}

/* DeepSeek-V3 (DeepseekV3Config, DeepseekV3ForCausalLM,
 * huggingface/transformers:src/transformers/models/deepseek_v3/
 * modeling_deepseek_v3.py@00b676f8): multi-head latent attention
 * (q_lora_rank null: one q_proj; kv_lora_rank; q and k heads of
 * qk_nope_head_dim + qk_rope_head_dim, v of v_head_dim), dense MLPs of
 * intermediate_size on the first first_k_dense_replace layers, then
 * DeepseekV3MoE: n_routed_experts MLPs of moe_intermediate_size and one
 * shared MLP of moe_intermediate_size x n_shared_experts. HF builds that for
 * every layer at or past first_k_dense_replace (moe_layer_freq is not read);
 * the MTP layers (num_nextn_predict_layers) are in the checkpoint, not in
 * the model. DeepSeekMoE (deepseek) has the same MoE keys over plain
 * attention (deepseek1_layout). A key missing or not a positive integer is
 * refused (-1 with err), not replaced by DeepseekV3Config's default. */
static int deepseek_layout(json_object *root, const char *file, const char *type, struct est_model *m,
                           struct oomlab_err *err)
{
    bool mla = is_deepseek3(type);
    if (!mla && strcmp(type, "deepseek") != 0) return 0;
    /* the MoE keys every DeepSeek reads, then (mla) the latent attention's */
    static const struct { const char *key; int64_t lo; bool mla; } need[] = {
        {"n_routed_experts", 1, false}, {"num_experts_per_tok", 1, false}, {"moe_intermediate_size", 1, false},
        {"n_shared_experts", 0, false}, {"first_k_dense_replace", 0, false},
        {"kv_lora_rank", 1, true}, {"qk_nope_head_dim", 1, true}, {"qk_rope_head_dim", 1, true},
        {"v_head_dim", 1, true},
    };
    int64_t v[sizeof need / sizeof need[0]] = {0};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
        if (need[i].mla && !mla) continue;
        if ((v[i] = int_key(root, need[i].key, need[i].lo, -1)) < 0)
            return oomlab_err_set(err, "%s: a %s config without an integer \"%s\" from %lld to %lld is not modelled",
                                  file, type, need[i].key, (long long)need[i].lo, INT_KEY_MAX);
    }
    m->experts = v[0];
    m->experts_per_token = v[1];
    m->dense_ffn = m->ffn; /* intermediate_size: the dense layers' MLP */
    m->ffn = v[2];
    m->shared_ffn = v[2] * v[3];
    m->dense_layers = v[4] < m->layers ? v[4] : m->layers;
    return mla ? mla_layout(root, file, type, m, v + 5, err) : deepseek1_layout(root, file, m, err);
}

/* Llama 4 text (Llama4TextConfig, modeling_llama4.py@000c33fd): sparse
 * blocks on the layers of moe_layers (stated, or its default every
 * interleave_moe_layer_step-th from step - 1), dense gated MLPs of
 * intermediate_size_mlp on the others; the routed experts and the shared one
 * are intermediate_size wide. Chunked attention (attention_chunk_size) on
 * the layers that use rope, full attention on the others: oomlab models
 * no_rope_layers' default, every 4th layer full (no_rope_layer_interval 4),
 * so a stated no_rope_layers or layer_types with another pattern is refused
 * (-1 with err), not estimated as this one. */
static bool llama4_full_layer(int64_t i) { return (i + 1) % 4 == 0; }

static int llama4_pattern(json_object *root, const char *file, const struct est_model *m, struct oomlab_err *err)
{
    json_object *v;
    if (int_key(root, "no_rope_layer_interval", 1, 4) != 4)
        return oomlab_err_set(err, "%s: a llama4_text config with no_rope_layer_interval other than 4 is not "
                                   "modelled (oomlab models full attention on every 4th layer)",
                              file);
    static const char *const keys[] = {"no_rope_layers", "layer_types"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        if (!json_object_object_get_ex(root, keys[k], &v) || !v) continue; /* absent or null: the default */
        if (!json_object_is_type(v, json_type_array))
            return oomlab_err_set(err, "%s: a llama4_text config's %s is not a list", file, keys[k]);
        size_t n = json_object_array_length(v);
        /* no_rope_layers [] is the default too ("self.no_rope_layers if
         * self.no_rope_layers else default_no_rope_layers", huggingface/
         * transformers:src/transformers/models/llama4/configuration_llama4.py
         * @008e5743); layer_types [] is read as absent, as before */
        if (n == 0) continue;
        if (n != (size_t)m->layers)
            return oomlab_err_set(err, "%s: a llama4_text config's %s (length %zu) does not match "
                                       "num_hidden_layers (%lld)",
                                  file, keys[k], n, (long long)m->layers);
        for (size_t i = 0; i < n; i++) {
            json_object *e = json_object_array_get_idx(v, i);
            bool full = llama4_full_layer((int64_t)i);
            bool ok = k == 0 ? json_object_is_type(e, json_type_int) && json_object_get_int64(e) == (full ? 0 : 1)
                             : json_object_is_type(e, json_type_string) &&
                                   strcmp(json_object_get_string(e), full ? "full_attention" : "chunked_attention") == 0;
            if (!ok)
                return oomlab_err_set(err, "%s: a llama4_text config whose %s are not chunked attention on 3 layers "
                                           "of 4 and full attention on every 4th is not modelled (layer %zu)",
                                      file, keys[k], i);
        }
    }
    return 0;
}

static int cmp_layer(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* What a user does about a moe_layers list oomlab cannot read. */
#define MOE_LAYERS_FIX                                                                                                 \
    "list each sparse layer's index (0 to num_hidden_layers - 1) once, or drop moe_layers for its default (every "     \
    "interleave_moe_layer_step-th layer)"

/* A layout check's result beyond 0 and -1 (not modelled): out of memory,
 * which hfconfig_parse reports as HFCONFIG_BAD, not as an unknown type that
 * --arch would let through with the message dropped. */
enum { LAYOUT_NOMEM = -2 };

/* The number of sparse layers into *moe: moe_layers' entries (distinct
 * layers in range), or the default count; -1 with err saying which entry is
 * wrong and what to do, LAYOUT_NOMEM with err saying so. The layer count is not range-checked yet
 * (est_model_finish does that), so a list longer than the layers is refused
 * before any copy, and distinctness is checked on a sorted copy, not pair by
 * pair: a long list stays O(n log n). */
static int llama4_moe_layers(json_object *root, const char *file, int64_t layers, int64_t step, int64_t *moe,
                             struct oomlab_err *err)
{
    json_object *v;
    *moe = layers / step;
    if (!json_object_object_get_ex(root, "moe_layers", &v) || !v) return 0;
    if (!json_object_is_type(v, json_type_array))
        return oomlab_err_set(err, "%s: a llama4_text config whose moe_layers is not a list is not modelled; %s",
                              file, MOE_LAYERS_FIX);
    size_t n = json_object_array_length(v);
    if (n == 0)
        return oomlab_err_set(err, "%s: a llama4_text config whose moe_layers is empty (no sparse layer) is not "
                                   "modelled; %s",
                              file, MOE_LAYERS_FIX);
    if (n > (uint64_t)layers)
        return oomlab_err_set(err, "%s: a llama4_text config with %zu moe_layers for %lld layers is not modelled; %s",
                              file, n, (long long)layers, MOE_LAYERS_FIX);
    int64_t *seen = malloc(n * sizeof *seen);
    if (!seen) {
        oomlab_err_set(err, "%s: out of memory while checking a llama4_text config's %zu moe_layers; free memory "
                            "and retry, or drop moe_layers for its default",
                       file, n);
        return LAYOUT_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        json_object *e = json_object_array_get_idx(v, i);
        seen[i] = json_object_is_type(e, json_type_int) ? json_object_get_int64(e) : -1;
        if (seen[i] < 0 || seen[i] >= layers) {
            free(seen);
            return oomlab_err_set(err, "%s: a llama4_text config whose moe_layers entry %zu is not a layer index "
                                       "from 0 to %lld is not modelled; %s",
                                  file, i, (long long)layers - 1, MOE_LAYERS_FIX);
        }
    }
    qsort(seen, n, sizeof *seen, cmp_layer);
    for (size_t i = 1; i < n; i++)
        if (seen[i] == seen[i - 1]) {
            long long twice = (long long)seen[i];
            free(seen);
            return oomlab_err_set(err, "%s: a llama4_text config whose moe_layers name layer %lld twice is not "
                                       "modelled; %s",
                                  file, twice, MOE_LAYERS_FIX);
        }
    free(seen);
    *moe = (int64_t)n;
    return 0;
}

static int llama4_layout(json_object *root, const char *file, const char *type, struct est_model *m,
                         struct oomlab_err *err)
{
    if (strcmp(type, "llama4_text") != 0) return 0;
    if (!m->experts || !m->ffn || !m->layers)
        return oomlab_err_set(err, "%s: a llama4_text config without num_local_experts, intermediate_size and "
                                   "num_hidden_layers (positive integers) is not modelled",
                              file);
    int64_t step, dense_ffn, chunk;
    /* the keys llama4_text adds: default (-1: none), largest value read */
    const struct { const char *key; int64_t dflt, hi; int64_t *dst; } keys[] = {
        {"interleave_moe_layer_step", 1, INT_KEY_MAX, &step},
        {"intermediate_size_mlp", -1, 1LL << 22, &dense_ffn},
        {"attention_chunk_size", -1, INT_KEY_MAX, &chunk},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        *keys[i].dst = int_key(root, keys[i].key, 1, keys[i].dflt);
        if (*keys[i].dst < 1 || *keys[i].dst > keys[i].hi)
            return oomlab_err_set(err, "%s: a llama4_text config without an integer \"%s\" from 1 to %lld is not "
                                       "modelled",
                                  file, keys[i].key, (long long)keys[i].hi);
    }
    int64_t moe;
    int rc = llama4_moe_layers(root, file, m->layers, step, &moe, err);
    if (rc) return rc;
    if (moe < 1)
        return oomlab_err_set(err, "%s: a llama4_text config whose interleave_moe_layer_step %lld is above "
                                   "num_hidden_layers %lld (no sparse layer) is not modelled; give a step up to "
                                   "%lld, or list the sparse layers in moe_layers",
                              file, (long long)step, (long long)m->layers, (long long)m->layers);
    m->shared_ffn = m->ffn; /* Llama4TextMoe.shared_expert: Llama4TextMLP(config), intermediate_size */
    m->dense_ffn = dense_ffn;
    m->dense_layers = m->layers - moe;
    m->sliding_window = chunk;
    return llama4_pattern(root, file, m, err);
}

/* A vision wrapper (LlavaConfig, Gemma3Config, Llama4Config, ...) builds
 * its language model from text_config alone (transformers' CONFIG_MAPPING
 * [text_config["model_type"]](**text_config)): where that model_type is
 * one oomlab knows, -1 with err naming it and how to estimate it alone (the
 * vision tower and projector then left out); 0 otherwise. A text_config
 * without num_hidden_layers leaves the dimensions to its class's defaults
 * (llava-1.5's holds 7 keys): the dimension flags fill them. */
static int wrapper_next(json_object *root, const char *file, const char *type, const char *why,
                        struct oomlab_err *err)
{
    json_object *text;
    if (!strstr(why, "text_config") || !json_object_object_get_ex(root, "text_config", &text) ||
        !json_object_is_type(text, json_type_object))
        return 0;
    const char *inner = get_str(text, "model_type");
    size_t t = 0;
    for (; inner && t < sizeof types / sizeof types[0]; t++)
        if (strcmp(types[t].model_type, inner) == 0) break;
    if (!inner || t == sizeof types / sizeof types[0]) return 0;
    json_object *v;
    bool dims = json_object_object_get_ex(text, "num_hidden_layers", &v) && json_object_is_type(v, json_type_int);
    return oomlab_err_set(err, "%s: model_type \"%s\" is not modelled: %s; its text_config (model_type \"%s\") "
                               "is, without the vision tower: estimate it alone%s, saved by python3 -c 'import json,"
                               "sys; json.dump(json.load(open(sys.argv[1]))[\"text_config\"], sys.stdout)' %s > "
                               "text_config.json",
                          file, type, why, inner,
                          dims ? "" : " with the dimensions it leaves to defaults (--layers --hidden --heads --ffn "
                                      "--vocab)",
                          file);
}

/* A known architecture whose parameter layout oomlab cannot model (the
 * unmodelled table), or a config flag that moves a family's layout
 * (layout_flags): -1 with err saying which, 0 otherwise. */
static int refuse_layout(json_object *root, const char *file, const char *type, struct oomlab_err *err)
{
    for (size_t i = 0; i < sizeof unmodelled / sizeof unmodelled[0]; i++)
        if (strcmp(unmodelled[i].model_type, type) == 0) {
            if (wrapper_next(root, file, type, unmodelled[i].why, err)) return -1;
            return oomlab_err_set(err, "%s: model_type \"%s\" is not modelled: %s; %s", file, type,
                                  unmodelled[i].why, unmodelled[i].next ? unmodelled[i].next : NEXT_ARCH);
        }
    for (size_t i = 0; i < sizeof layout_flags / sizeof layout_flags[0]; i++) {
        json_object *v;
        if (strcmp(layout_flags[i].model_type, type) != 0 ||
            !json_object_object_get_ex(root, layout_flags[i].key, &v) || !json_object_is_type(v, json_type_boolean) ||
            json_object_get_boolean(v) == layout_flags[i].want)
            continue;
        return oomlab_err_set(err, "%s: a %s config with \"%s\": %s (%s) is not modelled", file, type,
                              layout_flags[i].key, layout_flags[i].want ? "false" : "true", layout_flags[i].what);
    }
    for (size_t i = 0; i < sizeof layout_keys / sizeof layout_keys[0]; i++) {
        json_object *v;
        if (!json_object_object_get_ex(root, layout_keys[i].key, &v) || !layout_key_hit(v, layout_keys[i].test) ||
            (layout_keys[i].read_by & layout_reads(type)))
            continue;
        return oomlab_err_set(err, "%s: a %s config with \"%s\" (%s) is not modelled; pass --arch and the "
                                   "dimensions to estimate the closest family instead",
                              file, type, layout_keys[i].key, layout_keys[i].what);
    }
    return 0;
}

int hfconfig_parse(const char *text, size_t len, const char *file, struct est_model *m,
                   struct hfconfig_quant *q, struct oomlab_err *err)
{
    memset(m, 0, sizeof *m);
    json_object *root = parse_json(text, len, file, err);
    if (!root) return HFCONFIG_BAD;
    int rc = HFCONFIG_OK;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (get_dim(root, &fields[i], file, text, len, (int64_t *)((char *)m + fields[i].off), err)) {
            json_object_put(root);
            return HFCONFIG_BAD;
        }
    /* HunYuan-MoE names its top-k moe_topk, an int or a list per layer
     * (huggingface/transformers:src/transformers/models/hunyuan_v1_moe/
     * configuration_hunyuan_v1_moe.py@008cd60e, "Number of experts selected
     * per token"): an int is the experts per token; a list leaves it unknown */
    json_object *topk;
    if (!m->experts_per_token && json_object_object_get_ex(root, "moe_topk", &topk) &&
        json_object_is_type(topk, json_type_int)) {
        int64_t k = json_object_get_int64(topk);
        if (k >= 1 && k <= 1024) m->experts_per_token = k;
    }
    const char *type = get_str(root, "model_type");
    const char *name = get_str(root, "_name_or_path");
    snprintf(m->name, sizeof m->name, "%s", name && *name ? name : type ? type : "config.json");
    size_t t = 0;
    for (; type && t < sizeof types / sizeof types[0]; t++)
        if (strcmp(types[t].model_type, type) == 0) break;
    if (type && refuse_layout(root, file, type, err)) {
        rc = HFCONFIG_UNKNOWN_TYPE;
    } else if (!type || t == sizeof types / sizeof types[0]) {
        oomlab_err_set(err, "%s: model_type %s%s%s is not one oomlab knows; pass --arch and the "
                            "dimensions (--layers --hidden --heads --ffn --vocab)",
                       file, type ? "\"" : "", type ? type : "(missing)", type ? "\"" : "");
        rc = HFCONFIG_UNKNOWN_TYPE;
    } else {
        m->family = types[t].family;
        m->tied_embeddings = get_bool(root, "tie_word_embeddings", types[t].tied_default);
        family_flags(root, m);
        int lr;
        if (dropout_of(root, file, &m->dropout, err)) rc = HFCONFIG_BAD;
        else if ((lr = moe_layout(root, file, type, m, err)) || (lr = electra_layout(root, file, type, m, err)) ||
                 (lr = gemma3_layout(root, file, type, m, err)) || (lr = glm_layout(root, file, type, m, err)) ||
                 (lr = deepseek_layout(root, file, type, m, err)) || (lr = gptoss_layout(root, file, type, m, err)) ||
                 (lr = llama4_layout(root, file, type, m, err)))
            rc = lr == LAYOUT_NOMEM ? HFCONFIG_BAD : HFCONFIG_UNKNOWN_TYPE;
    }
    if (q) quant_of(root, q);
    json_object_put(root);
    return rc;
}
