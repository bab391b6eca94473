/* models: the preset table. Dimensions are the public HuggingFace config.json
 * values of each model (hidden_size, num_hidden_layers, ...). */
#include "lib/models.h"
#include "lib/strbuf.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* name, summary, {name, family, layers, decoder_layers, hidden, heads, kv_heads,
 * head_dim, ffn, vocab, max_positions, embed_proj, experts, experts_per_token,
 * sliding_window, mlp_kind, tied, dropout} */
#define M(n, s, fam, L, h, nh, kv, hd, f, V, pos, tied) \
    {n, s, {.name = n, .family = EST_FAM_##fam, .layers = L, .hidden = h, .heads = nh, .kv_heads = kv, \
            .head_dim = hd, .ffn = f, .vocab = V, .max_positions = pos, .tied_embeddings = tied}}

static const struct model_preset presets[] = {
    M("gpt2", "GPT-2 124M", GPT2, 12, 768, 12, 0, 0, 3072, 50257, 1024, true),
    M("gpt2-medium", "GPT-2 355M", GPT2, 24, 1024, 16, 0, 0, 4096, 50257, 1024, true),
    M("gpt2-large", "GPT-2 774M", GPT2, 36, 1280, 20, 0, 0, 5120, 50257, 1024, true),
    M("gpt2-xl", "GPT-2 1.5B", GPT2, 48, 1600, 25, 0, 0, 6400, 50257, 1024, true),
    M("pythia-160m", "Pythia 160M (GPT-NeoX)", NEOX, 12, 768, 12, 0, 0, 3072, 50304, 0, false),
    M("pythia-410m", "Pythia 410M", NEOX, 24, 1024, 16, 0, 0, 4096, 50304, 0, false),
    M("pythia-1b", "Pythia 1B", NEOX, 16, 2048, 8, 0, 0, 8192, 50304, 0, false),
    M("pythia-1.4b", "Pythia 1.4B", NEOX, 24, 2048, 16, 0, 0, 8192, 50304, 0, false),
    M("pythia-2.8b", "Pythia 2.8B", NEOX, 32, 2560, 32, 0, 0, 10240, 50304, 0, false),
    M("pythia-6.9b", "Pythia 6.9B", NEOX, 32, 4096, 32, 0, 0, 16384, 50432, 0, false),
    M("pythia-12b", "Pythia 12B", NEOX, 36, 5120, 40, 0, 0, 20480, 50688, 0, false),
    M("stablelm-base-alpha-3b", "StableLM-Alpha 3B (GPT-NeoX)", NEOX, 16, 4096, 32, 0, 0, 16384, 50688, 0, false),
    M("opt-125m", "OPT 125M", OPT, 12, 768, 12, 0, 0, 3072, 50272, 2048, true),
    {"opt-350m", "OPT 350M (512-wide embeddings, post-LN)",
     {.name = "opt-350m", .family = EST_FAM_OPT, .layers = 24, .hidden = 1024, .heads = 16, .ffn = 4096, .vocab = 50272, .max_positions = 2048, .embed_proj = 512, .tied_embeddings = true}},
    M("opt-1.3b", "OPT 1.3B", OPT, 24, 2048, 32, 0, 0, 8192, 50272, 2048, true),
    M("opt-6.7b", "OPT 6.7B", OPT, 32, 4096, 32, 0, 0, 16384, 50272, 2048, true),
    M("llama-2-7b", "Llama 2 7B", LLAMA, 32, 4096, 32, 32, 128, 11008, 32000, 0, false),
    M("llama-2-13b", "Llama 2 13B", LLAMA, 40, 5120, 40, 40, 128, 13824, 32000, 0, false),
    M("llama-2-70b", "Llama 2 70B (GQA 8)", LLAMA, 80, 8192, 64, 8, 128, 28672, 32000, 0, false),
    M("llama-3-8b", "Llama 3 / 3.1 8B (GQA 8, 128k vocab)", LLAMA, 32, 4096, 32, 8, 128, 14336, 128256, 0, false),
    M("llama-3-70b", "Llama 3 / 3.1 70B", LLAMA, 80, 8192, 64, 8, 128, 28672, 128256, 0, false),
    M("llama-3.2-1b", "Llama 3.2 1B (tied)", LLAMA, 16, 2048, 32, 8, 64, 8192, 128256, 0, true),
    M("llama-3.2-3b", "Llama 3.2 3B (tied)", LLAMA, 28, 3072, 24, 8, 128, 8192, 128256, 0, true),
    M("tinyllama-1.1b", "TinyLlama 1.1B", LLAMA, 22, 2048, 32, 4, 64, 5632, 32000, 0, false),
    /* SmolLM2 (model_type llama): pytorch/torchtune:torchtune/models/smol/
     * _model_builders.py@bd2a0fc7 (vocab 49152, tied: the component's defaults) */
    M("smollm2-135m", "SmolLM2 135M (Llama, tied)", LLAMA, 30, 576, 9, 3, 64, 1536, 49152, 0, true),
    M("smollm2-360m", "SmolLM2 360M (Llama, tied)", LLAMA, 32, 960, 15, 5, 64, 2560, 49152, 0, true),
    M("smollm2-1.7b", "SmolLM2 1.7B (Llama, tied)", LLAMA, 24, 2048, 32, 32, 64, 8192, 49152, 0, true),
    {"mistral-7b", "Mistral 7B v0.1 (GQA 8, 4k sliding window)",
     {.name = "mistral-7b", .family = EST_FAM_MISTRAL, .layers = 32, .hidden = 4096, .heads = 32, .kv_heads = 8, .head_dim = 128, .ffn = 14336, .vocab = 32000, .sliding_window = 4096}},
    {"mixtral-8x7b", "Mixtral 8x7B (8 experts, 2 per token)",
     {.name = "mixtral-8x7b", .family = EST_FAM_MIXTRAL, .layers = 32, .hidden = 4096, .heads = 32, .kv_heads = 8, .head_dim = 128, .ffn = 14336, .vocab = 32000, .experts = 8, .experts_per_token = 2}},
    M("qwen2-0.5b", "Qwen2 0.5B", QWEN2, 24, 896, 14, 2, 64, 4864, 151936, 0, true),
    M("qwen2-1.5b", "Qwen2 1.5B", QWEN2, 28, 1536, 12, 2, 128, 8960, 151936, 0, true),
    M("qwen2-7b", "Qwen2 7B", QWEN2, 28, 3584, 28, 4, 128, 18944, 152064, 0, false),
    /* Qwen2.5 (model_type qwen2): pytorch/torchtune:torchtune/models/qwen2_5/
     * _model_builders.py@bd2a0fc7 (0.5B-3B tie_word_embeddings=True) */
    M("qwen2.5-0.5b", "Qwen2.5 0.5B (tied)", QWEN2, 24, 896, 14, 2, 64, 4864, 151936, 0, true),
    M("qwen2.5-1.5b", "Qwen2.5 1.5B (tied)", QWEN2, 28, 1536, 12, 2, 128, 8960, 151936, 0, true),
    M("qwen2.5-3b", "Qwen2.5 3B (tied)", QWEN2, 36, 2048, 16, 2, 128, 11008, 151936, 0, true),
    M("qwen2.5-7b", "Qwen2.5 7B", QWEN2, 28, 3584, 28, 4, 128, 18944, 152064, 0, false),
    M("qwen2.5-14b", "Qwen2.5 14B", QWEN2, 48, 5120, 40, 8, 128, 13824, 152064, 0, false),
    M("qwen2.5-32b", "Qwen2.5 32B", QWEN2, 64, 5120, 40, 8, 128, 27648, 152064, 0, false),
    /* Qwen3 (q/k norms, head_dim 128 whatever the width):
     * pytorch/torchtune:torchtune/models/qwen3/_model_builders.py@bd2a0fc7
     * (0.6B-4B tie_word_embeddings=True, 8B up untied) */
    M("qwen3-0.6b", "Qwen3 0.6B (q/k norm, head_dim 128, tied)", QWEN3, 28, 1024, 16, 8, 128, 3072, 151936, 0, true),
    M("qwen3-1.7b", "Qwen3 1.7B (tied)", QWEN3, 28, 2048, 16, 8, 128, 6144, 151936, 0, true),
    M("qwen3-4b", "Qwen3 4B (tied)", QWEN3, 36, 2560, 32, 8, 128, 9728, 151936, 0, true),
    M("qwen3-8b", "Qwen3 8B", QWEN3, 36, 4096, 32, 8, 128, 12288, 151936, 0, false),
    M("qwen3-14b", "Qwen3 14B", QWEN3, 40, 5120, 40, 8, 128, 17408, 151936, 0, false),
    M("qwen3-32b", "Qwen3 32B (64 heads of 128 on 5120)", QWEN3, 64, 5120, 64, 8, 128, 25600, 151936, 0, false),
    /* Qwen3-MoE: Lightning-AI/litgpt:litgpt/config.py@26857050 (its copy of
     * Qwen/Qwen3-30B-A3B's config.json: 128 experts of 768, 8 per token);
     * untied: 30,532,122,624 params, the "30.5B in total" of
     * https://apxml.com/models/qwen3-30b-a3b (tied would be 30.2B) */
    {"qwen3-30b-a3b", "Qwen3 30B-A3B (128 experts of 768, 8 per token)",
     {.name = "qwen3-30b-a3b", .family = EST_FAM_QWEN3, .layers = 48, .hidden = 2048, .heads = 32, .kv_heads = 4, .head_dim = 128, .ffn = 768, .vocab = 151936, .experts = 128, .experts_per_token = 8}},
    M("gemma-2b", "Gemma 2B (MQA, 256k vocab)", GEMMA, 18, 2048, 8, 1, 256, 16384, 256000, 0, true),
    M("gemma-7b", "Gemma 7B", GEMMA, 28, 3072, 16, 16, 256, 24576, 256000, 0, true),
    {"gemma-2-9b", "Gemma 2 9B (alternating 4k sliding window)",
     {.name = "gemma-2-9b", .family = EST_FAM_GEMMA2, .layers = 42, .hidden = 3584, .heads = 16, .kv_heads = 8, .head_dim = 256, .ffn = 14336, .vocab = 256000, .sliding_window = 4096, .tied_embeddings = true}},
    /* Gemma 3 1B (model_type gemma3_text): Lightning-AI/litgpt:litgpt/
     * config.py@26857050 (its copy of google/gemma-3-1b-it's config.json:
     * 26 x 1152, 4 heads of 256, 1 KV head, 6912, 262144 tokens, window 512
     * on 5 layers of 6); tied (Gemma3TextConfig's default): 999,885,952 */
    {"gemma-3-1b", "Gemma 3 1B (q/k norms, 5:1 sliding window 512, 262k vocab)",
     {.name = "gemma-3-1b", .family = EST_FAM_GEMMA3, .layers = 26, .hidden = 1152, .heads = 4, .kv_heads = 1, .head_dim = 256, .ffn = 6912, .vocab = 262144, .sliding_window = 512, .tied_embeddings = true}},
    M("phi-2", "Phi-2 2.7B", PHI, 32, 2560, 32, 32, 80, 10240, 51200, 0, false),
    M("phi-3-mini", "Phi-3 mini 3.8B", PHI3, 32, 3072, 32, 32, 96, 8192, 32064, 0, false),
    /* Phi-4 (model_type phi3): pytorch/torchtune:torchtune/models/phi4/
     * _model_builders.py@bd2a0fc7 (phi3 builder: untied output) */
    M("phi-4", "Phi-4 14B (Phi-3 layout, GQA 10)", PHI3, 40, 5120, 40, 10, 128, 17920, 100352, 0, false),
    M("falcon-7b", "Falcon 7B (MQA, parallel attention)", FALCON, 32, 4544, 71, 1, 64, 18176, 65024, 0, true),
    M("bloom-560m", "BLOOM 560M", BLOOM, 24, 1024, 16, 16, 64, 4096, 250880, 0, true),
    M("bloom-1b1", "BLOOM 1.1B", BLOOM, 24, 1536, 16, 16, 96, 6144, 250880, 0, true),
    M("bloomz-7b1", "BLOOMZ 7.1B", BLOOM, 30, 4096, 32, 32, 128, 16384, 250880, 0, true),
    M("bert-base-uncased", "BERT base uncased", BERT, 12, 768, 12, 0, 0, 3072, 30522, 512, true),
    M("bert-base-cased", "BERT base cased", BERT, 12, 768, 12, 0, 0, 3072, 28996, 512, true),
    M("bert-large-uncased", "BERT large uncased", BERT, 24, 1024, 16, 0, 0, 4096, 30522, 512, true),
    M("roberta-base", "RoBERTa base", ROBERTA, 12, 768, 12, 0, 0, 3072, 50265, 512, true),
    M("roberta-large", "RoBERTa large", ROBERTA, 24, 1024, 16, 0, 0, 4096, 50265, 512, true),
    /* XLM-RoBERTa (model_type xlm-roberta, RoBERTa's code, 250k vocab):
     * keras-team/keras-hub:keras_nlp/models/xlm_roberta/xlm_roberta_presets.py
     * @0709f107 (base: its backbone's 277,450,752 params = ours less the
     * pooler, the token-type row and RoBERTa's 2 padding-offset positions) */
    M("xlm-roberta-base", "XLM-RoBERTa base (250k vocab)", ROBERTA, 12, 768, 12, 0, 0, 3072, 250002, 512, true),
    M("xlm-roberta-large", "XLM-RoBERTa large", ROBERTA, 24, 1024, 16, 0, 0, 4096, 250002, 512, true),
    /* DistilBERT: DistilBertConfig's defaults, distilbert-base-uncased's shape
     * (huggingface/transformers:src/transformers/models/distilbert/
     * configuration_distilbert.py@06053b84) */
    M("distilbert-base-uncased", "DistilBERT base uncased (6 layers, no token types or pooler)", DISTILBERT, 6,
      768, 12, 0, 0, 3072, 30522, 512, true),
    /* ELECTRA base discriminator: keras-team/keras-hub:keras_nlp/models/
     * electra/electra_presets.py@04111518 states 12 layers and 109,482,240
     * params for its backbone (which adds a pooler): BERT-base's shape
     * (768 wide, 12 heads, 3072, 30522 tokens) is the one that counts that;
     * HF's ElectraModel, without the pooler, 108,891,648 */
    M("electra-base-discriminator", "ELECTRA base discriminator (BERT-base blocks, no pooler)", ELECTRA, 12, 768,
      12, 0, 0, 3072, 30522, 512, true),
    {"t5-small", "T5 small (6+6 layers, ReLU MLP)",
     {.name = "t5-small", .family = EST_FAM_T5, .layers = 6, .decoder_layers = 6, .hidden = 512, .heads = 8, .kv_heads = 8, .head_dim = 64, .ffn = 2048, .vocab = 32128, .mlp_kind = 1, .tied_embeddings = true}},
    {"t5-base", "T5 base (12+12 layers)",
     {.name = "t5-base", .family = EST_FAM_T5, .layers = 12, .decoder_layers = 12, .hidden = 768, .heads = 12, .kv_heads = 12, .head_dim = 64, .ffn = 3072, .vocab = 32128, .mlp_kind = 1, .tied_embeddings = true}},
    {"t0-3b", "T0 3B (T5 v1.1 XL shape, gated-GELU)",
     {.name = "t0-3b", .family = EST_FAM_T5, .layers = 24, .decoder_layers = 24, .hidden = 2048, .heads = 32, .kv_heads = 32, .head_dim = 64, .ffn = 5120, .vocab = 32128, .mlp_kind = 2}},
    {"mt0-xxl", "mT0 XXL 13B (mT5-XXL shape)",
     {.name = "mt0-xxl", .family = EST_FAM_T5, .layers = 24, .decoder_layers = 24, .hidden = 4096, .heads = 64, .kv_heads = 64, .head_dim = 64, .ffn = 10240, .vocab = 250112, .mlp_kind = 2}},
};

const struct model_preset *models_table(size_t *n)
{
    *n = sizeof presets / sizeof presets[0];
    return presets;
}

const struct model_preset *models_find(const char *name)
{
    for (size_t i = 0; name && i < sizeof presets / sizeof presets[0]; i++)
        if (strcasecmp(presets[i].name, name) == 0) return &presets[i];
    return NULL;
}

/* Lower-case letters and digits of the part after the last '/'. */
static void squash_tail(const char *s, char *out, size_t n)
{
    const char *slash = strrchr(s, '/');
    size_t j = 0;
    for (s = slash ? slash + 1 : s; *s && j + 1 < n; s++)
        if (isalnum((unsigned char)*s)) out[j++] = (char)tolower((unsigned char)*s);
    out[j] = '\0';
}

const struct model_preset *models_suggest(const char *name)
{
    char want[96], have[96];
    if (!name) return NULL;
    squash_tail(name, want, sizeof want);
    if (!want[0]) return NULL;
    /* best: the longest preset inside the word (hub ids); nearest: a near
     * miss, a third of the preset's length in edits. One that spans more
     * of the word than the longest preset inside it is the better guess
     * ("gpt2-mediun" is gpt2-medium mistyped, not gpt2). */
    const struct model_preset *best = NULL, *nearest = NULL;
    size_t best_len = 0, nearest_len = 0;
    struct strbuf_near near = STRBUF_NEAR_INIT(want, 0);
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        squash_tail(presets[i].name, have, sizeof have);
        size_t len = strlen(have);
        if (strstr(want, have) && len > best_len) best = &presets[i], best_len = len;
        near.max_edits = len / 3;
        if (strbuf_near_offer(&near, have)) nearest = &presets[i], nearest_len = len;
    }
    return nearest && nearest_len > best_len ? nearest : best ? best : nearest;
}
