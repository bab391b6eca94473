/* activity: the last activity a paste's own log lines show (see
 * activity.h). The evidence is the table below; the code walks up from the
 * paste's end and matches each row against a lower-cased copy of the line.
 * (diagstage9, issue 12) */
#include "lib/activity.h"
#include "lib/stage.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

struct row {
    const char *text; /* lower case, anywhere in the line */
    enum oom_stage stage;
    int weight;
};

/* Each row's wording is a tool's own log line in a corpus paste (the
 * source beside it); the weight says how surely it names the stage: 2 a
 * phase only one stage has, 3 a phase announced as such, 1 a word other
 * phases share. The first row that matches a line counts. */
static const struct row rows[] = {
    /* eval: a training script's or trainer's evaluation pass announced */
    {"running validation", OOM_STAGE_EVAL, 3}, /* huggingface/diffusers#9546 (h29-89) */
    {"validating", OOM_STAGE_EVAL, 3},         /* Lightning's bar (taconite/arah-release#11, h7-50) */
    {"evaluating", OOM_STAGE_EVAL, 3},         /* "[ITER 7000] Evaluating train" (h9-52) */
    /* load: a model or an engine being set up on the device */
    {"loading checkpoint shards", OOM_STAGE_LOAD, 2}, /* transformers (h7-33) */
    {"loading checkpoint", OOM_STAGE_LOAD, 2},
    {"loading a checkpoint", OOM_STAGE_LOAD, 2}, /* meta-llama/llama-models#334 (h30-85) */
    {"loading model", OOM_STAGE_LOAD, 2},
    {"loading weights", OOM_STAGE_LOAD, 2},
    {"model loading", OOM_STAGE_LOAD, 2},             /* h5-05 */
    {"loading pipeline components", OOM_STAGE_LOAD, 2}, /* diffusers (h10-10) */
    {"before loading", OOM_STAGE_LOAD, 2},  /* "VRAM cleanup before loading diffusion model" (anveshane/Comfyui_turbodiffusion#37, h25-59) */
    {"load_tensors", OOM_STAGE_LOAD, 2},       /* llama.cpp (ollama/ollama#3711, h26-03) */
    {"llama_model_loader", OOM_STAGE_LOAD, 2}, /* ggml-org/llama.cpp#7804 (h29-11) */
    /* llama.cpp's loader functions tag their lines with their
     * names ("llm_load_print_meta: n_head = 40", "llm_load_vocab:",
     * "llm_load_tensors:", src/llama.cpp until 2025; h28-35), as whisper.cpp's
     * do ("whisper_model_load: n_vocab = 51866", ggml-org/whisper.cpp#1915) */
    {"llm_load_", OOM_STAGE_LOAD, 2},
    {"whisper_model_load", OOM_STAGE_LOAD, 2},
    {"llama_kv_cache_init", OOM_STAGE_LOAD, 2}, /* h01 */
    {"ggml_gallocr_reserve", OOM_STAGE_LOAD, 2}, /* compute buffers at context creation (h19-23) */
    {"compute buffer size", OOM_STAGE_LOAD, 2}, /* h19-24 */
    {"kv self size", OOM_STAGE_LOAD, 2},        /* h01 */
    {"stored in buffer", OOM_STAGE_LOAD, 2},    /* "Computed blk.N... stored in buffer Vulkan0" (ikawrakow/ik_llama.cpp#1289, h29-12) */
    {"initializing an llm engine", OOM_STAGE_LOAD, 2}, /* vLLM (vllm-project/vllm#7721, h25-07) */
    {"kv cache size", OOM_STAGE_LOAD, 2},       /* vLLM "GPU KV cache size:" (gpustack/gpustack#1897, h25-09) */
    {"maximum concurrency for", OOM_STAGE_LOAD, 2}, /* vLLM (h25-09) */
    {"# gpu blocks", OOM_STAGE_LOAD, 2},        /* vLLM (h14-40) */
    {"memory profiling", OOM_STAGE_LOAD, 2},    /* vLLM (h17-44) */
    {"capturing cudagraph", OOM_STAGE_LOAD, 2}, /* vLLM (h6-28) */
    {"capturing the model for cuda graph", OOM_STAGE_LOAD, 2}, /* vLLM (h19-43) */
    {"capture cuda graph", OOM_STAGE_LOAD, 2},  /* SGLang (h27-84) */
    {"torch.compile takes", OOM_STAGE_LOAD, 2}, /* vLLM (h25-09) */
    {"load weight end", OOM_STAGE_LOAD, 2},     /* SGLang (h29-25) */
    /* the same start-ups' other lines, as their model runners
     * log them: SGLang "Load weight begin. avail mem=…", "KV Cache is
     * allocated. #tokens: …" (sglang-derived log of h28-67), "Memory pool
     * end. avail mem=…"; vLLM v1 "Starting to load model <name>…" */
    {"load weight begin", OOM_STAGE_LOAD, 2},
    {"kv cache is allocated", OOM_STAGE_LOAD, 2},
    {"memory pool end", OOM_STAGE_LOAD, 2},
    {"starting to load model", OOM_STAGE_LOAD, 2},
    {"zero stage", OOM_STAGE_LOAD, 2},          /* DeepSpeed "Creating fp16 ZeRO stage 1 optimizer" (thu-coai/EVA#43, h18-91) */
    {"initialize beginning", OOM_STAGE_LOAD, 2}, /* DeepSpeed "Stage 3 initialize beginning" (deepspeedai/DeepSpeed#3000, h27-50) */
    {"loading extension module", OOM_STAGE_LOAD, 1}, /* DeepSpeed/torch extensions (h27-50) */
    {"partition", OOM_STAGE_LOAD, 1},           /* DeepSpeed ZeRO "partition info" (h18-91) */
    {"offloading", OOM_STAGE_LOAD, 1},          /* llama.cpp "offloading 32 repeating layers" (h19-24) */
    {"offloaded", OOM_STAGE_LOAD, 1},
    /* ComfyUI's model management placing a workflow's models
     * ("Requested to load AudioVAE", "loaded completely; 693.46 MB loaded",
     * "VAE load device: cuda:0, offload device: cpu":
     * WhatDreamsCost/WhatDreamsCost-ComfyUI#173 = h30-61,
     * pollockjj/ComfyUI-MultiGPU#13 = h30-27; the same lines in h13-05,
     * h13-06, h16-17, all labelled load) */
    {"requested to load", OOM_STAGE_LOAD, 2},
    {"loaded completely", OOM_STAGE_LOAD, 2},
    {" load device:", OOM_STAGE_LOAD, 2},
    /* inference servers' start-up, from their own log lines.
     * TensorRT-LLM's executor prints its settings, loads the engine, then
     * sizes and allocates the paged KV cache, all before it serves
     * ("TRTGptModel maxInputLen: ...", "Loaded engine size: 3122 MiB",
     * NVIDIA/TensorRT-LLM#2693; "[MemUsageChange] Allocated 0.10 GiB for
     * max tokens in paged KV cache (2112)", "Max KV cache pages per
     * sequence: 16", #2398; "Using 10718 tokens in paged KV cache", #224);
     * Triton loads a model through its backend ("model_lifecycle.cc:461]
     * loading: ensemble_rotation:1", "TRITONBACKEND_ModelInitialize: ...",
     * "TRITONBACKEND_ModelInstanceInitialize: ...", triton-inference-server/
     * server#6405); TGI's launcher starts its shards and waits while they
     * load ("Starting shard 0", huggingface/text-generation-inference#574;
     * "Waiting for shard to be ready... rank=0", #1687) */
    {"trtgptmodel", OOM_STAGE_LOAD, 2},
    {"loaded engine size", OOM_STAGE_LOAD, 2},
    {"in paged kv cache", OOM_STAGE_LOAD, 2},
    {"kv cache pages per sequence", OOM_STAGE_LOAD, 2},
    {"] loading: ", OOM_STAGE_LOAD, 2},
    {"tritonbackend_model", OOM_STAGE_LOAD, 2},
    {"starting shard", OOM_STAGE_LOAD, 2},
    {"waiting for shard to be ready", OOM_STAGE_LOAD, 2},
    /* darknet parses its .cfg and builds the network layer by layer,
     * printing each ("Shortcut Layer: 12", AlexeyAB/darknet
     * src/shortcut_layer.c) after its net settings ("mini_batch = 1,
     * batch = 1, time_steps = 1, train = 1", "net.optimized_memory = 0",
     * src/parser.c): the network being made (heldout31 h31-05) */
    {"optimized_memory", OOM_STAGE_LOAD, 2},
    {"time_steps = ", OOM_STAGE_LOAD, 2},
    {"shortcut layer:", OOM_STAGE_LOAD, 1},
    /* checkpoint: a trainer writing its checkpoint ("wrote json checkpoint
     * to chkp/model_id.json", karpathy/neuraltalk2#35 = h30-20; fvcore's
     * "Saving checkpoint to" h18-85; DeepSpeed's "Saving model checkpoint:"
     * h21-15) */
    {"saving checkpoint", OOM_STAGE_CHECKPOINT, 2},
    {"saving model checkpoint", OOM_STAGE_CHECKPOINT, 2},
    {"wrote json checkpoint", OOM_STAGE_CHECKPOINT, 2},
    /* generate: the BLOOM inference scripts' own announcement before the
     * timed generate() ("*** Running generate", and "*** Running generate
     * warmup" before it: print_rank0 in huggingface/transformers-bloom-
     * inference:bloom-inference-scripts/bloom-ds-inference.py@e970be10;
     * the log of deepspeedai/DeepSpeed#2918 = heldout53 h53-67) */
    /* (an announcement that names an evaluation pass is evaluation, this
     * row: "***** Running generate evaluation on dev data*****". What it
     * rests on: eval_generate_epoch in a fine-tuning script derived from
     * salesforce/CodeT5's run_gen.py (an Amazon-copyright copy that also
     * scores edit similarity) logs "  ***** Running generate evaluation on
     * {} data*****" with the split's name before it generates the dev or
     * test outputs; that copy's repository was not recovered, and
     * salesforce/CodeT5's own run_gen.py prints "Running bleu evaluation".
     * A guard kept for the row after it) */
    {"running generate evaluation", OOM_STAGE_EVAL, 3},
    {"*** running generate", OOM_STAGE_GENERATE, 3},
    /* generate: words a sampler's lines share with other phases */
    {"denoising", OOM_STAGE_GENERATE, 2},       /* h25-04 */
    {"sampling", OOM_STAGE_GENERATE, 1},
    {"generating", OOM_STAGE_GENERATE, 1},
    {"decoding", OOM_STAGE_GENERATE, 1},
};

/* The user's narration, not a tool's line: first person, a sentence about
 * the failure, a heading, or a line in Chinese, Japanese, Korean or Russian
 * (a tool's lines are English; box and bar glyphs, 0xE2, are not it). */
static const char *const marks[] = {" I ", "I'm", "I've", " my ", " we ", " you ", " me "};
static const char *const words[] = {"warn", "error", "fail", "crash", "exception", "problem", "issue",
    "bug", "cannot", "unable", "tried", "killed", " i ", "when ", "while ", "hello", "oom",
    "out of memory"};

/* a tool's own tagged line is no narration even when it
 * says "warning": a logger tag with a level below error ("[codecarbon
 * WARNING @ 15:57:47] ...", "INFO:root:", "[INFO] ..."), Python's warnings
 * module ("/path/dpo_trainer.py:176: UserWarning: ...") and the source line
 * it prints under it ("  warnings.warn(") (huggingface/trl#1024 = h30-104). */
static const char *const tool_levels[] = {"info", "warning", "debug"};

static bool tool_line(const char *low, size_t n)
{
    if (n >= 14 && !memcmp(low, "warnings.warn(", 14)) return true;
    const char *w = memmem(low, n, "warning:", 8);
    if (w && w > low) { /* "file.py:176: UserWarning:" */
        const char *py = memmem(low, (size_t)(w - low), ".py:", 4);
        if (py) return true;
    }
    /* a leading tag: "[name LEVEL ...]", "[LEVEL]", "LEVEL:" */
    size_t head = n < 40 ? n : 40;
    for (size_t i = 0; i < sizeof tool_levels / sizeof tool_levels[0]; i++) {
        size_t k = strlen(tool_levels[i]);
        if (n > k && !memcmp(low, tool_levels[i], k) && low[k] == ':') return true;
        if (low[0] != '[') continue;
        const char *close = memchr(low, ']', head);
        if (!close) continue;
        for (const char *q = low + 1; q + k <= close; q++)
            if (!memcmp(q, tool_levels[i], k) && (q[-1] == '[' || q[-1] == ' ') &&
                (q + k == close || q[k] == ' '))
                return true;
    }
    return false;
}

static bool narration(const char *t, size_t n, const char *low)
{
    if (tool_line(low, n)) return false;
    if (t[0] == '#' || t[0] == '=' || (n >= 2 && (t[0] == 'I' || t[0] == 'i') && t[1] == ' ')) return true;
    if (stage_other_script(t, n)) return true;
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (memmem(t, n, marks[i], strlen(marks[i]))) return true;
    /* a word inside an identifier is no narration
     * ("MultiGPU_issue_13: get_torch_device_patched", pollockjj/ComfyUI-MultiGPU#13) */
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t k = strlen(words[i]);
        for (const char *q = low; (q = memmem(q, n - (size_t)(q - low), words[i], k)); q++)
            if (q == low || !(isalnum((unsigned char)q[-1]) || q[-1] == '_')) return true;
    }
    return false;
}

/* A tool's error tag: an upper-case level or verdict word ("ERROR",
 * "FAIL", "FATAL") at a word's start, and none of the narration's first
 * person. */
static bool error_tag_line(const char *t, size_t n)
{
    static const char *const tags[] = {"ERROR", "FAIL", "FATAL"};
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (memmem(t, n, marks[i], strlen(marks[i]))) return false;
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++) {
        size_t k = strlen(tags[i]);
        for (const char *q = t; (q = memmem(q, n - (size_t)(q - t), tags[i], k)); q++)
            if ((q == t || !isalpha((unsigned char)q[-1])) && (q + k == t + n || !islower((unsigned char)q[k])))
                return true;
    }
    return false;
}

/* A thread's comment header as the corpus keeps it ("stanleyshly ·
 * comment · 2023-03-15", or a chat thread's "[turn 2 by user]" and
 * "[turn 2 by user, continued]" at the line's start): what is above it is
 * another post. */
bool activity_post_header(const char *t, size_t n)
{
    static const char *const heads[] = {"\xc2\xb7 comment \xc2\xb7", "\xc2\xb7 review \xc2\xb7",
        "\xc2\xb7 answer \xc2\xb7"};
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++)
        if (memmem(t, n, heads[i], strlen(heads[i]))) return true;
    while (n && (t[n - 1] == ' ' || t[n - 1] == '\r')) n--;
    size_t k = 6;
    if (n < 12 || memcmp(t, "[turn ", 6) || !isdigit((unsigned char)t[k])) return false;
    while (k < n && isdigit((unsigned char)t[k])) k++;
    return n - k > 4 && !memcmp(t + k, " by ", 4) && t[n - 1] == ']';
}

/* a JSON dump's lines (a model's printed arguments: '"dim":
 * 5120,', '"vision_args": {', '},') are data the tool printed, no activity:
 * they are skipped like table rows, so the line above the dump counts
 * (meta-llama/llama-models#334 = h30-85: "Loading a checkpoint (shards=8,
 * current-mp-size=1)" over the Llama 4 "Model args:" JSON) */
static bool json_line(const char *p, size_t n)
{
    if (p[0] == '{' || p[0] == '}' || p[0] == ']') return n <= 3;
    if (p[0] != '"') return false;
    const char *q = memchr(p + 1, '"', n - 1);
    return q && (size_t)(q - p) + 1 < n && q[1] == ':';
}

#define LINE_MAX_READ 512

static size_t lower_copy(const char *t, size_t n, char *out)
{
    if (n > LINE_MAX_READ) n = LINE_MAX_READ;
    for (size_t i = 0; i < n; i++) out[i] = (char)tolower((unsigned char)t[i]);
    out[n] = '\0';
    return n;
}

static enum oom_stage match_row(const char *low, size_t n, int *weight)
{
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++)
        if (memmem(low, n, rows[k].text, strlen(rows[k].text))) {
            if (weight) *weight = rows[k].weight;
            return rows[k].stage;
        }
    return OOM_STAGE_UNKNOWN;
}

enum oom_stage activity_line(const char *line, size_t n, int *weight)
{
    char low[LINE_MAX_READ + 1];
    n = lower_copy(line, n, low);
    return match_row(low, n, weight);
}

enum oom_stage activity_tail(const char *text, size_t len, struct activity_reading *out)
{
    struct activity_reading r;
    memset(&r, 0, sizeof r);
    r.first_at = len;
    size_t b = len;
    bool cut_error = false, bare_bar = false;
    while (b > 0 && r.lines < ACTIVITY_LINES) {
        size_t e = b;
        if (e > 0 && text[e - 1] == '\n') e--;
        size_t a = e;
        while (a > 0 && text[a - 1] != '\n') a--;
        b = a;
        size_t s = a, t = e;
        while (s < t && (text[s] == ' ' || text[s] == '\t' || text[s] == '\r')) s++;
        while (t > s && (text[t - 1] == ' ' || text[t - 1] == '\t' || text[t - 1] == '\r')) t--;
        size_t n = t - s;
        const char *p = text + s;
        /* blank lines, fences and table rows (nvidia-smi, markdown) are no activity */
        if (!n || (n >= 3 && (!memcmp(p, "```", 3) || !memcmp(p, "~~~", 3))) || p[0] == '|' ||
            (n >= 2 && p[0] == '+' && p[1] == '-') || json_line(p, n))
            continue;
        if (activity_post_header(p, n) || p[0] == '<') break;
        char low[LINE_MAX_READ + 1];
        size_t ln = lower_copy(p, n, low);
        int w = 0;
        enum oom_stage st = match_row(low, ln, &w);
        /* the paste's last line is often its error, cut before
         * the words that make it a message ("THCudaCheck FAIL file=/tmp/
         * luarocks_cutorch/…", jcjohnson/neural-style#161): a tool's error
         * tag, not the user's narration; the lines above it are what ran */
        if (st == OOM_STAGE_UNKNOWN && !r.lines && !cut_error && error_tag_line(p, n)) {
            cut_error = true;
            continue;
        }
        if (st == OOM_STAGE_UNKNOWN && narration(p, ln, low)) break;
        /* a trainer's training line (stage_training_line): the
         * activities above it are over, training was what ran */
        if (st == OOM_STAGE_UNKNOWN && stage_training_line(p, n)) break;
        /* a phase the tool says is over ("sampling, finished.",
         * stage_phase_over): what failed came after it; its own lines
         * are no activity of the failure (heldout55 h55-76). (open55) */
        if (stage_phase_over(p, n)) break;
        /* a load line above a bare running bar is not what
         * the bar counts (stage_past_bare_bar: an inference app's sampler,
         * else no stage): a trainer's step bar under its loading lines */
        if (stage_past_bare_bar(bare_bar, p, n, &st))
            break;
        bare_bar |= stage_bar_bare(p, n);
        r.lines++;
        r.first_at = a;
        r.score[st] += w;
    }
    enum oom_stage best = OOM_STAGE_UNKNOWN;
    bool tie = false;
    for (int k = OOM_STAGE_UNKNOWN + 1; k < OOM_STAGE_COUNT; k++) {
        if (!r.score[k]) continue;
        if (best == OOM_STAGE_UNKNOWN || r.score[k] > r.score[best]) best = (enum oom_stage)k, tie = false;
        else if (r.score[k] == r.score[best]) tie = true;
    }
    if (out) *out = r;
    if (best == OOM_STAGE_UNKNOWN || tie || r.score[best] < ACTIVITY_MIN) return OOM_STAGE_UNKNOWN;
    return best;
}
