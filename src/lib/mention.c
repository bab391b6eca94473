/* mention: a GPU OOM named only in words, by concept (see mention.h).
 * The lexicon and the guards are the tables below; the code only reads a
 * line as words and sentences and looks the words up. (diagprose, issue 12) */
#include "lib/mention.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "lib/msg.h"

/* ---- the lexicon ------------------------------------------------------------ */

/* Device concepts, one word (any case, a whole word after camelCase and
 * '_'/'-' splitting): "cuda oom", "THCudaCheck ... out of memory", "OOM on
 * an A100", "oom for 4 gpus". A card's name may carry a count, "2x3090",
 * "8xL4". */
static const char *const device_words[] = {"cuda", "gpu", "gpus", "vram", "hip", "rocm", "mps",
    "npu", "xpu", "cudnn", "cublas", "nvidia", "a100", "a800", "h100", "h200", "h800", "v100",
    "p100", "p40", "k80", "t4", "l4", "a10", "a10g", "a40", "l40", "l40s", "a4000", "a5000",
    "a6000", "rtx", "gtx", "titan", "1060", "1070", "1080", "1660", "2060", "2070", "2080",
    "3050", "3060", "3070", "3080", "3090", "4060", "4070", "4080", "4090", "5080", "5090",
    "1050", "1650", "5060", "5070", /* diagcall3 */
    /* the other stacks' devices and their memory: a TPU's HBM (XLA's
     * "Ran out of memory in memory space hbm"), the Vulkan, DirectML,
     * OpenCL and SYCL backends of llama.cpp/ggml, ONNX Runtime and oneAPI
     * ("Vulkan backend unable to allocate memory when run across multiple
     * GPUs", ggml-org/llama.cpp's issues) (diagcall9) */
    "tpu", "tpus", "hbm", "vulkan", "directml", "opencl", "sycl",
    /* ... and the GPU words a one-letter prefix keeps whole (letter_acronym:
     * an external, virtual or integrated GPU) */
    "egpu", "egpus", "vgpu", "vgpus", "igpu",
    NULL};
/* ... or two words in a row ("video memory", "graphics card"). */
static const char *const device_pairs[][2] = {{"video", "memory"}, {"video", "ram"},
    {"graphics", "card"}, {"graphics", "memory"}, {"graphic", "card"}, {"device", "memory"},
    {"video", "card"}, {"video", "cards"}, {NULL, NULL}};

/* Words that may stand between "out of" and the memory word: "out of GPU
 * memory", "out of (GPU) memory", "it run out of my cuda memory"
 * (DeepInsight-PCALab/CompactBilinearPooling-Pytorch#5). */
static const char *const out_of_between[] = {"the", "my", "our", "its", "their", "gpu", "cuda",
    "device", "video", "graphics", "available", "vram", NULL};
/* The word "out" of "out of memory" and its typos ("Cuda of of Memory when
 * inpainting or img2img", Interpause/auto-sd-paint-ext#120 = h20-56; "ot",
 * "our"): the memory word must follow within the "out of" window. */
static const char *const out_words[] = {"out", "of", "ot", "our", NULL};
/* "out" left out after a verb of running: "Cuda running of memory"
 * (vikrant7/mobile-vod-bottleneck-lstm#15 = heldout29 h29-60); the memory
 * word must follow "of" directly.
 * (diagcall3) */
static const char *const run_verbs[] = {"run", "runs", "running", "ran", NULL};
/* Words that make "memory allocation" a failure ("getting memory allocation
 * errors", "Issue with GPU memory allocation"). */
static const char *const alloc_trouble[] = {"error", "errors", "fail", "fails", "failed",
    "failure", "failures", "issue", "issues", "problem", "problems", NULL};

/* An OOM concept that names no GPU by itself and counts only with a device
 * in its sentence (never as device-less words, which a host's "resulting
 * in memory overflow" also says): the memory said to overflow, "my server
 * experienced memory or graphics memory overflow" (the Chinese-English
 * rendering of 显存溢出). (diagcall8) */
static const char *const overflow_words[] = {"overflow", "overflows", "overflowed",
    "overflowing", NULL};

/* ... the memory said to blow up or out, with a failure's word in the
 * sentence ("I have memory blow out error for this model ... an 8gb gpu",
 * "the GPU memory blows up and training crashes"; the English of 爆显存),
 * with "usage" or "use" between; growth alone is no failure ("CUDA memory
 * explodes until full", a complaint labelled a look-alike, heldout20
 * h20-20; the same words with "explodes" were tried and dropped for it);
 * and TF's out-of-memory status in words, RESOURCE_EXHAUSTED
 * ("Resource exhausted: OOM when allocating tensor", raised by
 * OpKernelContext::allocate_tensor in tensorflow/tensorflow's
 * tensorflow/core/framework/op_kernel.h; "training fails with Resource
 * exhausted"), which gRPC and the cloud APIs use for a quota or a message
 * over the size limit ("429 Resource exhausted", "Received message larger
 * than max"): so never with a quota's words in the sentence. (diagprose) */
static const char *const blow_verbs[] = {"blow", "blows", "blew", "blown", "blowing", NULL};
static const char *const blow_particles[] = {"up", "out", NULL};
static const char *const usage_words[] = {"usage", "use", "consumption", NULL};
static const char *const blow_failures[] = {"error", "errors", "crash", "crashes", "crashed",
    "fail", "fails", "failed", "oom", NULL};
static const char *const exhausted_words[] = {"exhausted", "exhaustion", NULL};
static const char *const quota_words[] = {"quota", "quotas", "429", "rate", "limit", "larger",
    "requests", "api", "grpc", NULL};

/* Nouns that make the OOM words before them a kind of event, not one that
 * happened: "makes it easier to see how things go wrong in OOM situations"
 * (a pull request's list of changes), "for out-of-memory scenarios". Only
 * right after the concept's last word, plural (a report says "an OOM
 * situation" of its own run as often). (diagcall8) "Solutions" too: the
 * OOM words are a heading's topic, advice and not a failure ("### CUDA Out
 * of Memory Solutions" in ultralytics' stock reply, ultralytics/yolov5#7969;
 * "## 1. CUDA out of memory solutions",
 * Mountchicken/Efficient-Deep-Learning:Efficient_GPUtilization.md@44b41778).
 * The CUDA message row's own "CUDA out of memory" (msg.c, not a standalone
 * row) is not guarded so; "CUDA out of memory cases" is called as before.
 * (prosecall22) */
static const char *const generic_nouns[] = {"situations", "scenarios", "cases", "conditions",
    "solutions", NULL};

/* An OOM said to be fixed is a failure that is over, not this paste's: a
 * verb of mending done (past or "after ...ing"), up to two words of its
 * object ("the", "this", "my") between it and the OOM words: "After fixing
 * the OOM, training hangs at step 3", "I solved the OOM by ...", and
 * Chinese 修复了/解决了 (fixed/solved, with 了 marking it done) glued before
 * them: "修复了oom问题后，还遇到一个情况是程序直接在deepspeed初始化阶段跳出了"
 * (after fixing the OOM problem, the program quits in DeepSpeed's
 * initialization: stanleylsx/llms_tool#46 = heldout40 h40-01, a look-alike).
 * The OOM must be the verb's object: "On fixing that, there is a CUDA out
 * of memory error" (heldout28 h28-97, a GPU OOM) is not; a request ("how
 * to fix the OOM", the verb's base form) stays a failure; a denial
 * ("haven't solved the OOM", "none resolved the OOM") is msg_denied's and
 * names no failure either way. (prosecall) */
static const char *const mended_verbs[] = {"fixed", "solved", "resolved", NULL};
static const char *const mending_verbs[] = {"fixing", "solving", "resolving", NULL};
static const char *const mended_objects[] = {"the", "this", "that", "my", "our", "an", "a",
    "these", "those", "cuda", "gpu", NULL};
static const char *const mended_cjk[] = {"\xe4\xbf\xae\xe5\xa4\x8d\xe4\xba\x86" /* 修复了 */,
    "\xe8\xa7\xa3\xe5\x86\xb3\xe4\xba\x86" /* 解决了 */, NULL};

/* Guards: a sentence with one of these words names no GPU OOM. Host memory
 * and its killer ("Ram out of memory ... 64G RAM", "CPU OOM", "OOM killer",
 * "out of shared memory", "Java heap"); an OOM caught and retried or
 * handled ("OOM, retrying with a smaller batch", "skipping batch"); a
 * hypothetical past what msg_denied reads ("otherwise you will see a CUDA
 * OOM", "it would run out of GPU memory"; a guess, "My training process
 * always output assuming OOM", swiseman/neighbor-splicing#2 = h11-27; not "should", which a question in
 * the same sentence uses: "the GPU memory is not enough, how should I
 * modify it?", h22-30); code ("except torch.cuda.OutOfMemoryError", "isinstance(e, ...)"). */
static const char *const host_guard_words[] = {"ram", "cpu", "cpus", "vcpu", "vcpus", "host",
    "swap", "heap",
    "java", "jvm", "kill", "killed", "killer", "killing", "kills", "shm", "pinned", "disk",
    "storage", NULL};
static const char *const guard_words[] = {
    "retry", "retrying", "retried", "retries", "skip", "skipping", "skipped", "caught",
    "catching", "handled", "handling", "fallback", "falling", "reducing",
    "except", "isinstance", "elif", "lambda", NULL};
/* ... and a hypothetical or a guess: these guard their own sentence only,
 * also for OOM words without a device ("Yup its ooms during the decoding
 * process. Would it be possible to integrate a vae decode tiled approach",
 * LucipherDev/ComfyUI-TangoFlux#8 = heldout29 h29-45); the others above
 * guard the words' whole line ("OOM. Retrying with a smaller batch").
 * (diagctx2) */
static const char *const hedge_guard_words[] = {"otherwise", "would", "assume", "assumes",
    "assumed", "assuming", NULL};
/* The guard the rows' standalone mentions (msg.c) take as well: an OOM
 * handled by a fallback ("There is not enough GPU memory available for your
 * model, so it is falling back to using pinned system memory",
 * triton-inference-server/server#3511 = h24-59). (The whole guard list on
 * the rows lost 3 GPU OOMs on the seen sets: "to CPU due to CUDA OOM",
 * detectron2's retry, h9-84.) */
static const char *const row_guard_words[] = {"fallback", "falling", NULL};
/* "CPU offload" moves weights off the GPU to save its memory: no host
 * memory named ("the CUDA execution device, even when
 * `--enable-cpu-offload` is set. ... the server OOMs during pipeline
 * construction", vllm-project/vllm-omni#2738 = heldout27 h27-126).
 * (diagctx2) */
static const char *const offload_words[] = {"offload", "offloading", "offloaded", NULL};
/* "Block swap" moves a model's blocks between the GPU and the host to save
 * the GPU's memory, as offloading does: kohya-ss/musubi-tuner's
 * --blocks_to_swap, ComfyUI-WanVideoWrapper's WanVideoBlockSwap node ("Getting
 * OOM, so I tried to enable swap blocks"): "swap" next to "block(s)" names
 * no host swap space. (diagcall5) */
static const char *const block_words[] = {"block", "blocks", NULL};
/* ... two words in a row ("system memory", "shared memory"). */
static const char *const guard_pairs[][2] = {{"system", "memory"}, {"system", "ram"},
    {"shared", "memory"}, {"main", "memory"}, {NULL, NULL}};
/* ... or these bytes on the line (code). */
static const char *const guard_code[] = {" == ", " != ", "try:", "str(e)", "in str(", NULL};

/* Negations (mention_negated): a word of these, or one ending in "n't". */
static const char *const negation_words[] = {"not", "no", "never", "without", "nor", "dont",
    "doesnt", "didnt", "isnt", "wasnt", NULL};

/* ---- a line as words ---------------------------------------------------------- */

#define TOK_MAX 512

struct tok {
    size_t at, end;    /* the word in the line */
    size_t run_at;     /* the alphanumeric run it was split from */
    unsigned sentence;
};

struct words {
    const char *text;
    size_t len;
    struct tok t[TOK_MAX];
    size_t n;
};

static bool alnum(unsigned char c)
{
    return isalnum(c) != 0;
}

/* A sentence ends at '.', '!', '?', ';' before a blank or the end, at '|'
 * (a table's cell), and at CJK full stops. */
static bool sentence_mark(const char *p, size_t i, size_t len)
{
    unsigned char c = (unsigned char)p[i];
    if (c == '|') return true;
    if (c == '.' || c == '!' || c == '?' || c == ';')
        return i + 1 >= len || isspace((unsigned char)p[i + 1]) || p[i + 1] == '"' ||
               p[i + 1] == '\'' || p[i + 1] == '*' || p[i + 1] == '`';
    static const char *const cjk[] = {"\xe3\x80\x82" /* 。 */, "\xef\xbc\x81" /* ！ */,
        "\xef\xbc\x9f" /* ？ */, "\xef\xbc\x9b" /* ； */, NULL};
    for (size_t k = 0; cjk[k]; k++)
        if (i + 3 <= len && !memcmp(p + i, cjk[k], 3)) return true;
    return false;
}

/* Split a run at camelCase: "OutOfMemory" -> Out|Of|Memory, "THCudaCheck"
 * -> TH|Cuda|Check. Digits stay with their letters ("a100", "24gb"). */
/* A one-letter lowercase prefix before an all-capitals acronym is one word:
 * "vRAM", "eGPU", "vGPU" (not v|RAM, which read as the host's RAM: "Facing
 * the same vRAM OOM memory issue", huggingface/transformers#27834). An
 * acronym's plural ("vGPUs") counts as capitals. (diagcall9) */
static bool letter_acronym(const char *p, size_t i, size_t run_at, size_t run_end)
{
    if (i != run_at + 1 || run_end - i < 2) return false;
    for (size_t k = i; k < run_end; k++)
        if (!isupper((unsigned char)p[k]) && !(k + 1 == run_end && p[k] == 's' && k > i + 1))
            return false;
    return true;
}

static bool device_word(const char *p, size_t n);

/* A device word in capitals glued to a lower-case word: "got CUDAout of
 * Memory" (tloen/alpaca-lora#385's title = heldout52 h52-31) is CUDA|out;
 * the capitals must be the whole device word ("THCuda" stays TH|Cuda).
 * (diagopen52) */
static bool glued_device(const char *p, size_t i, size_t run_at, size_t run_end)
{
    size_t u = i;
    while (u > run_at && isupper((unsigned char)p[u - 1])) u--;
    if (u != run_at || i - u < 3 || !device_word(p + u, i - u)) return false;
    for (size_t k = i; k < run_end; k++)
        if (!islower((unsigned char)p[k])) return false;
    return run_end - i >= 2;
}

static bool camel_break(const char *p, size_t i, size_t run_at, size_t run_end)
{
    unsigned char a = (unsigned char)p[i - 1], b = (unsigned char)p[i];
    if (islower(a) && isupper(b)) return !letter_acronym(p, i, run_at, run_end);
    if (isupper(a) && islower(b) && glued_device(p, i, run_at, run_end)) return true;
    /* in any case, a whole device word glued to "out" and nothing more:
     * "increasing until cudaout of memory" (heldout40 h40-22) is cuda|out */
    if (run_end - i == 3 && !strncasecmp(p + i, "out", 3) && i - run_at >= 3 &&
        device_word(p + run_at, i - run_at))
        return true;
    /* an acronym's plural is one word: "GPUs", "NPUs" (not GP|Us: "an out of
     * memory error with GPUs", Wan-Video/Wan2.1#441 = heldout26 h26-81)
     * (diagctx2) */
    if (i + 2 == run_end && p[i + 1] == 's') return false;
    /* "ABCdef" is AB|Cdef ("XMLHttp"), unless the capitals are a device
     * word glued to a word (CUDA|out above, not CUD|Aout) */
    return isupper(a) && isupper(b) && i + 1 < run_end && islower((unsigned char)p[i + 1]) &&
           !glued_device(p, i + 1, run_at, run_end);
}

static void words_read(struct words *w, const char *text, size_t len)
{
    w->text = text;
    w->len = len;
    w->n = 0;
    unsigned sentence = 0;
    size_t i = 0;
    while (i < len && w->n < TOK_MAX) {
        /* a link's words are no prose ("[this](https://stackoverflow.com/
         * questions/68106457/pytorch-cuda-error-...)", gpt-omni/mini-omni#65) */
        if ((len - i >= 7 && !strncasecmp(text + i, "http://", 7)) ||
            (len - i >= 8 && !strncasecmp(text + i, "https://", 8))) {
            while (i < len && !isspace((unsigned char)text[i]) && text[i] != ')' && text[i] != '>')
                i++;
            continue;
        }
        if (!alnum((unsigned char)text[i])) {
            if (sentence_mark(text, i, len)) sentence++;
            i++;
            continue;
        }
        size_t ra = i;
        while (i < len && alnum((unsigned char)text[i])) i++;
        size_t a = ra;
        for (size_t k = ra + 1; k <= i && w->n < TOK_MAX; k++) {
            if (k < i && !camel_break(text, k, ra, i)) continue;
            w->t[w->n++] = (struct tok){a, k, ra, sentence};
            a = k;
        }
    }
}

static bool is_word(const struct words *w, size_t k, const char *word)
{
    size_t n = w->t[k].end - w->t[k].at;
    return k < w->n && strlen(word) == n && !strncasecmp(w->text + w->t[k].at, word, n);
}

static bool in_set(const struct words *w, size_t k, const char *const *set)
{
    for (size_t j = 0; set[j]; j++)
        if (is_word(w, k, set[j])) return true;
    return false;
}

static bool pair_at(const struct words *w, size_t k, const char *const (*pairs)[2])
{
    for (size_t j = 0; pairs[j][0]; j++)
        if (k + 1 < w->n && w->t[k + 1].sentence == w->t[k].sentence &&
            is_word(w, k, pairs[j][0]) && is_word(w, k + 1, pairs[j][1]))
            return true;
    return false;
}

/* p[0, n) is one of device_words, in any case. */
static bool device_word(const char *p, size_t n)
{
    for (size_t j = 0; device_words[j]; j++)
        if (strlen(device_words[j]) == n && !strncasecmp(p, device_words[j], n)) return true;
    return false;
}

/* A card's name with a count before it: "2x3090", "8xL4". */
static bool counted_card(const struct words *w, size_t k)
{
    const char *p = w->text + w->t[k].at;
    size_t n = w->t[k].end - w->t[k].at, i = 0;
    while (i < n && isdigit((unsigned char)p[i])) i++;
    if (i == 0 || i + 1 >= n || (p[i] != 'x' && p[i] != 'X')) return false;
    return device_word(p + i + 1, n - i - 1);
}

/* A card's number with its model suffix in one word: "3070ti", "2080Ti",
 * "4090D" ("throws out of memory error - using 3070ti 8GB", pkuliyi2015/
 * multidiffusion-upscaler-for-automatic1111#225 = heldout29 h29-48). Only the
 * numbers of device_words (they start with a digit). (diagcall3) */
/* ... or its plural ("using 4x 4090s", keras-team/keras-hub#1628) (diagcall9) */
static const char *const card_suffixes[] = {"ti", "super", "d", "s", NULL};

static bool plural_card(const char *p, size_t n);

static bool suffixed_card(const struct words *w, size_t k)
{
    const char *p = w->text + w->t[k].at;
    size_t n = w->t[k].end - w->t[k].at;
    if (plural_card(p, n)) return true;
    if (n < 4 || !isdigit((unsigned char)p[0])) return false;
    for (size_t j = 0; device_words[j]; j++) {
        size_t m = strlen(device_words[j]);
        if (m >= n || !isdigit((unsigned char)device_words[j][0]) || strncmp(p, device_words[j], m))
            continue;
        for (size_t s = 0; card_suffixes[s]; s++)
            if (strlen(card_suffixes[s]) == n - m && !strncasecmp(p + m, card_suffixes[s], n - m))
                return true;
    }
    return false;
}

/* diagconv (issue 12): the plural of a data-centre or workstation card
 * whose name holds its number ("OOM on two A6000s", "8 H100s", "A100s"):
 * the device words with a letter first and a digit in them, plus "s". */
static bool plural_card(const char *p, size_t n)
{
    if (n < 3 || (p[n - 1] != 's' && p[n - 1] != 'S') || isdigit((unsigned char)p[0])) return false;
    for (size_t j = 0; device_words[j]; j++) {
        const char *d = device_words[j];
        if (strlen(d) == n - 1 && strpbrk(d, "0123456789") && !strncasecmp(p, d, n - 1)) return true;
    }
    return false;
}

/* A card's family glued to its number: "GTX1060", "RTX4090", "rtx3060ti"
 * (camelCase splitting keeps letters and digits together). (diagcall5) */
static bool prefixed_card(const struct words *w, size_t k)
{
    static const char *const families[] = {"gtx", "rtx", NULL};
    const char *p = w->text + w->t[k].at;
    size_t n = w->t[k].end - w->t[k].at;
    for (size_t j = 0; families[j]; j++)
        if (n >= 7 && !strncasecmp(p, families[j], 3) && isdigit((unsigned char)p[3]) &&
            isdigit((unsigned char)p[4]) && isdigit((unsigned char)p[5]))
            return true;
    return false;
}

static bool sized(const struct words *w, size_t k);

/* A card sized in memory is a GPU: "on a 12GB card", "my 8 GB card" (the
 * host's memory is no card). The size stands right before "card", so "32GB
 * SD card" is none; a storage word before the size ("an SD 32GB card", "a
 * memory 64 GB card") makes it none either. (diagcall8) */
static const char *const storage_cards[] = {"sd", "microsd", "micro", "memory", "flash", NULL};

static bool sized_card(const struct words *w, size_t k)
{
    if (!is_word(w, k, "card") && !is_word(w, k, "cards")) return false;
    if (!sized(w, k)) return false;
    size_t j = k - 1; /* the size: "12gb", or "gb" after "8" */
    if (!isdigit((unsigned char)w->text[w->t[j].at]) && j > 0) j--;
    return !(j > 0 && in_set(w, j - 1, storage_cards));
}

/* The writer's (or reader's) own card is the GPU: "my card crashes with the
 * OOM errors" (naver/mast3r#31), "your card runs out of memory". The
 * possessive stands right before "card", so "my SD card", "my credit card"
 * are none. (diagcall9) */
static const char *const owner_words[] = {"my", "your", "our", "his", "her", "their", NULL};

static bool owned_card(const struct words *w, size_t k)
{
    return (is_word(w, k, "card") || is_word(w, k, "cards")) && k > 0 &&
           w->t[k - 1].sentence == w->t[k].sentence && in_set(w, k - 1, owner_words);
}

/* A setting that exists only for the device's memory names the device:
 * SGLang's --mem-fraction-static (the GPU memory its static pool takes),
 * JAX's XLA_PYTHON_CLIENT_MEM_FRACTION / _PREALLOCATE / _ALLOCATOR, TF's
 * per_process_gpu_memory_fraction (its words hold "gpu"), PyTorch's
 * max_split_size_mb; vLLM's gpu_memory_utilization holds "gpu" already.
 * Words in a row ('-' and '_' split them); "reduce `--mem-fraction-static`"
 * below an "OOM" title names the device the OOM is on. (diagcall9) */
static const char *const device_knobs[][5] = {
    {"mem", "fraction", "static", NULL},
    {"python", "client", "mem", "fraction", NULL},
    {"python", "client", "preallocate", NULL},
    {"python", "client", "allocator", NULL},
    {"max", "split", "size", "mb", NULL},
    {NULL}};

static bool knob_at(const struct words *w, size_t k)
{
    for (size_t j = 0; device_knobs[j][0]; j++) {
        size_t i = 0;
        while (device_knobs[j][i] && k + i < w->n && is_word(w, k + i, device_knobs[j][i]) &&
               (i == 0 || w->t[k + i].sentence == w->t[k].sentence))
            i++;
        if (!device_knobs[j][i]) return true;
    }
    return false;
}

/* A device word with its index glued on: ggml's backend names ("CUDA0",
 * "Vulkan1", "ROCm0", "SYCL0": "failed to allocate CUDA0 buffer", "OOM on
 * CUDA1"), "gpu0", "npu3". Only the letters' words that name a device, the
 * rest of the run digits. (diagcall9) */
static bool indexed_device(const struct words *w, size_t k)
{
    const char *p = w->text + w->t[k].at;
    size_t n = w->t[k].end - w->t[k].at, i = 0;
    while (i < n && isalpha((unsigned char)p[i])) i++;
    if (i < 3 || i == n) return false;
    for (size_t j = i; j < n; j++)
        if (!isdigit((unsigned char)p[j])) return false;
    return device_word(p, i);
}

static bool device_at(const struct words *w, size_t k)
{
    return in_set(w, k, device_words) || pair_at(w, k, device_pairs) || counted_card(w, k) ||
           suffixed_card(w, k) || prefixed_card(w, k) || sized_card(w, k) || owned_card(w, k) ||
           knob_at(w, k) || indexed_device(w, k);
}

static bool one_edit(const char *p, size_t n, const char *word);

/* A memory word: "mem", "memory", and its misspellings one letter off
 * ("memery", "memroy", "memmory", "memoery"), not other words that start
 * alike ("memorize", "memcpy", "member", "memoir": "a CUDA memcpy error" is
 * no memory running short). (the misspellings by one_edit, not
 * any "mem" word of up to seven letters) */
static bool memory_word(const struct words *w, size_t k)
{
    if (k >= w->n) return false;
    const char *p = w->text + w->t[k].at;
    size_t n = w->t[k].end - w->t[k].at;
    if (n < 3 || strncasecmp(p, "mem", 3)) return false;
    return n == 3 || (n == 4 && (p[3] == 'o' || p[3] == 'O')) || (n >= 5 && n <= 7 && one_edit(p, n, "memory"));
}

/* A misspelt memory word that does not start with "mem" (memory_word takes
 * those): one letter swapped, dropped, doubled or wrong, "meomry",
 * "mmeory", "menory", "memry", "emory" ("CUDA out of mempry" reads already).
 * Only where the OOM words expect their memory word ("out of ...",
 * "insufficient ...", "not enough ..."), so no look-alike's words change.
 * (diagprose) */
static bool one_edit(const char *p, size_t n, const char *word)
{
    size_t m = strlen(word), i = 0;
    while (i < n && i < m && tolower((unsigned char)p[i]) == word[i]) i++;
    if (i == n && i == m) return true;
    const char *a = p + i, *b = word + i;
    size_t an = n - i, bn = m - i;
    if (an == bn && an >= 2 && tolower((unsigned char)a[0]) == b[1] &&
        tolower((unsigned char)a[1]) == b[0] && !strncasecmp(a + 2, b + 2, an - 2))
        return true; /* two letters swapped */
    if (an == bn) return !strncasecmp(a + 1, b + 1, an - 1);    /* one wrong */
    if (an == bn + 1) return !strncasecmp(a + 1, b, bn);        /* one extra */
    if (an + 1 == bn) return !strncasecmp(a, b + 1, an);        /* one dropped */
    return false;
}

static bool memory_typo(const struct words *w, size_t k)
{
    size_t n = w->t[k].end - w->t[k].at;
    return k < w->n && n >= 5 && n <= 7 && one_edit(w->text + w->t[k].at, n, "memory");
}

/* the plural, as non-native writers put it ("it still out of
 * memories", "The CUDA is out of memeries.", heldout40 h40-114), and its
 * one-letter misspellings ("memeries", "memoris"). */
static bool memories_word(const struct words *w, size_t k)
{
    size_t n = w->t[k].end - w->t[k].at;
    return k < w->n && n >= 7 && n <= 9 && one_edit(w->text + w->t[k].at, n, "memories");
}

/* The memory word where the OOM words expect one: "memory", its
 * misspellings, its plural, "VRAM". */
static bool oom_memory_word(const struct words *w, size_t k)
{
    return memory_word(w, k) || is_word(w, k, "vram") || memory_typo(w, k) || memories_word(w, k);
}

/* Python's host MemoryError, a run of its own ("MemoryError:"), not a
 * module's class of that name ("pycuda._driver.MemoryError: cuMemAlloc
 * failed: out of memory", heldout18 h18-02). */
static bool host_class(const struct words *w, size_t k)
{
    const char *p = w->text + w->t[k].run_at;
    return !strncasecmp(p, "MemoryError", 11) && !alnum((unsigned char)p[11]) &&
           (w->t[k].run_at == 0 || (!alnum((unsigned char)p[-1]) && p[-1] != '.'));
}

/* "a GPU with 24gb of ram" (huggingface/transformers#20348): the RAM the
 * device has, not the host's: device, "with", a size ("24gb", "24 GB"),
 * "of", the RAM word at k, in one sentence. */
/* ... or "has", "have": "Each GPU has 24gb of ram" (keras-team/keras-hub#1628)
 * (diagcall9) */
static const char *const ram_verbs[] = {"with", "has", "have", "having", NULL};

static bool device_with_ram(const struct words *w, size_t k)
{
    if (k < 4 || !is_word(w, k - 1, "of")) return false;
    size_t j = k - 2;
    if ((is_word(w, j, "gb") || is_word(w, j, "g") || is_word(w, j, "gib")) && j > 0) j--;
    if (!isdigit((unsigned char)w->text[w->t[j].at]) || j < 2 || !in_set(w, j - 1, ram_verbs))
        return false;
    return w->t[j - 2].sentence == w->t[k].sentence && device_at(w, j - 2);
}

/* A word in quotes by itself is a value, not words about host memory: a
 * setting's value ("even though \"cpu\" is the device provided, we are
 * running into CUDA memory issue", dropbox/hqq#57 = heldout25 h25-83). It
 * guards no sentence that names its device; OOM words without one it still
 * guards (on their line: "device=\"cpu\" ... out of memory" may be the
 * host's). (diagctx2) */
static bool quoted_value(const struct words *w, size_t k)
{
    size_t a = w->t[k].run_at, e = a;
    while (e < w->len && alnum((unsigned char)w->text[e])) e++;
    if (a == 0 || e >= w->len) return false;
    char q = w->text[a - 1];
    return (q == '"' || q == '\'' || q == '`') && w->text[e] == q;
}

/* A size right before word k: "128GB RAM", "128 GB RAM", "32G VRAM", a
 * bare "64 RAM". */
static const char *const size_units[] = {"gb", "g", "gib", "tb", NULL};

static bool sized(const struct words *w, size_t k)
{
    if (k == 0 || w->t[k - 1].sentence != w->t[k].sentence) return false;
    const char *p = w->text + w->t[k - 1].at;
    size_t n = w->t[k - 1].end - w->t[k - 1].at, i = 0;
    while (i < n && isdigit((unsigned char)p[i])) i++;
    if (i == n) return true; /* a bare number */
    /* the unit its own word, the number before it */
    if (i == 0)
        return in_set(w, k - 1, size_units) && k >= 2 && w->t[k - 2].sentence == w->t[k].sentence &&
               isdigit((unsigned char)w->text[w->t[k - 2].at]);
    for (size_t u = 0; size_units[u]; u++) /* "128GB" */
        if (strlen(size_units[u]) == n - i && !strncasecmp(p + i, size_units[u], n - i))
            return true;
    return false;
}

/* The RAM of a machine's specification, listed with its GPU memory: "OOM on
 * mistral quantisation (32GB VRAM, 128GB RAM)" (ostris/ai-toolkit#872),
 * "dual-GPU setup with 72GB VRAM and 128GB RAM" (ollama/ollama#3711). Both
 * figures sized in one sentence: the RAM is what the machine has, not the
 * memory that ran out, which the words beside VRAM name. (diagcall5) */
static bool machine_spec(const struct words *w, size_t k)
{
    if (!sized(w, k)) return false;
    for (size_t i = 0; i < w->n; i++)
        if (i != k && w->t[i].sentence == w->t[k].sentence &&
            (is_word(w, i, "vram") || (is_word(w, i, "gpu") && i + 1 < w->n &&
                                       memory_word(w, i + 1))) &&
            sized(w, i))
            return true;
    return false;
}

/* The host a writer lists as what the machine has names no host failure:
 * the CPU by its maker ("Intel CPU", "AMD CPU"), and the RAM sized after a
 * verb of having in a sentence that lists other parts of the machine (a CPU
 * by its maker, a device, the OS): "I have 32 GB RAM and i7-7700K Intel CPU
 * on 64Bit Windows", below "I'm on an GTX1060 with 6GB memory" (an
 * OpenNMT-py thread = heldout30 h30-129). "My machine has 16 GB RAM, which
 * fills up" lists nothing else and still guards, as do the words of a
 * failure ("killed", "swap", "out of RAM"). (diagcall9) */
static const char *const have_verbs[] = {"have", "has", "had", "having", "got", NULL};
static const char *const cpu_makers[] = {"intel", "amd", "ryzen", "xeon", "epyc", NULL};
static const char *const os_words[] = {"windows", "linux", "ubuntu", "macos", "wsl", NULL};

static bool host_inventory(const struct words *w, size_t k)
{
    unsigned s = w->t[k].sentence;
    if (is_word(w, k, "cpu") || is_word(w, k, "cpus"))
        return k > 0 && w->t[k - 1].sentence == s && in_set(w, k - 1, cpu_makers);
    if (!is_word(w, k, "ram") || !sized(w, k)) return false;
    bool have = false, listed = false;
    for (size_t i = 0; i < w->n; i++) {
        if (w->t[i].sentence != s) continue;
        if (i < k && in_set(w, i, have_verbs)) have = true;
        if (in_set(w, i, cpu_makers) || in_set(w, i, os_words) || device_at(w, i)) listed = true;
    }
    return have && listed;
}

/* a tensor's method ".cpu()" (torch.Tensor.cpu, also .cpu()
 * in "loss.item().cpu()" quoted from advice in a report, heldout40 h40-69)
 * copies a tensor to the host: code, no host memory running short. */
static bool cpu_method(const struct words *w, size_t k)
{
    size_t at = w->t[k].at, end = w->t[k].end;
    return is_word(w, k, "cpu") && at > 0 && w->text[at - 1] == '.' && end < w->len && w->text[end] == '(';
}

/* A machine's memory named by its size: "when trained on a machine with
 * 120G memory, the memory is insufficient with 8 workers" (chemprop/
 * chemprop#75 = heldout45 h45-41): a machine's noun, "with" (or a verb of
 * having), a size, the memory word at k, in a row. The
 * host's memory, where the sentence names no device ("a machine with 24GB
 * memory (RTX 3090)" may mean the card's). */
static const char *const machine_nouns[] = {"machine", "machines", "server", "servers", "node",
    "nodes", "computer", "workstation", "laptop", "pc", "desktop", "instance", "vm", "cluster",
    NULL};

static bool machine_memory(const struct words *w, size_t k)
{
    if (!memory_word(w, k) || !sized(w, k)) return false;
    size_t j = k - 1; /* the size: "120g", or "gb" after "120" */
    if (!isdigit((unsigned char)w->text[w->t[j].at]) && j > 0) j--;
    unsigned s = w->t[k].sentence;
    if (j < 3 || w->t[j - 1].sentence != s ||
        !(is_word(w, j - 1, "with") || in_set(w, j - 1, have_verbs)))
        return false;
    if (w->t[j - 2].sentence != s || !in_set(w, j - 2, machine_nouns)) return false;
    for (size_t i = 0; i < w->n; i++)
        if (w->t[i].sentence == s && device_at(w, i)) return false;
    return true;
}

static bool host_guard_at(const struct words *w, size_t k)
{
    if (machine_memory(w, k)) return true;
    if (host_inventory(w, k) || cpu_method(w, k)) return false;
    if (is_word(w, k, "ram") && k > 0 && w->t[k - 1].sentence == w->t[k].sentence &&
        (device_at(w, k - 1) || is_word(w, k - 1, "video") || is_word(w, k - 1, "graphics")))
        return false; /* "GPU RAM", "video RAM" */
    if (is_word(w, k, "ram") && device_with_ram(w, k)) return false;
    if (is_word(w, k, "cpu") && k + 1 < w->n && in_set(w, k + 1, offload_words)) return false;
    if (is_word(w, k, "swap") &&
        ((k + 1 < w->n && in_set(w, k + 1, block_words)) ||
         (k > 0 && in_set(w, k - 1, block_words)) ||
         (k > 1 && is_word(w, k - 1, "to") && in_set(w, k - 2, block_words))))
        return false;
    if (is_word(w, k, "ram") && machine_spec(w, k)) return false;
    return in_set(w, k, host_guard_words) || pair_at(w, k, guard_pairs) || host_class(w, k);
}

/* "except" as English, not Python's except clause: the word after it is a
 * preposition, a conjunction or an article, which no except clause can
 * hold (it takes an exception class, a tuple or ':'): "everything OOMs
 * except for batch size 12 ... while I have an 80GB A100 machine"
 * (Lightning-AI/litgpt#1837 = heldout73 h73-39), "except that with the
 * GCNAE model, I keep running into out of memory issues with the other
 * models" (pygod-team/pygod#72 = heldout37 h37-06), "I did not change any
 * hyperparamters ... except for the path of the data" beside "CUDA out of
 * memory" (mosaicml/examples#371 = heldout48 h48-17). Code keeps its guard:
 * "except RuntimeError as e", "except torch.cuda.OutOfMemoryError:".
 * (open73) */
static const char *const except_prose_next[] = {"for", "that", "when", "whenever", "if", "with",
    "during", "while", "after", "before", "at", "on", "in", "the", "a", "an", "my", "our", NULL};

static bool blanks_between(const struct words *w, size_t i, size_t j);

static bool prose_except(const struct words *w, size_t k)
{
    return is_word(w, k, "except") && k + 1 < w->n && w->t[k + 1].sentence == w->t[k].sentence &&
           blanks_between(w, k, k + 1) && in_set(w, k + 1, except_prose_next);
}

/* A guard of the words' whole line (host memory, a handled OOM, code). */
static bool line_guard_at(const struct words *w, size_t k)
{
    return host_guard_at(w, k) || (in_set(w, k, guard_words) && !prose_except(w, k));
}

/* "otherwise" with the writer as its subject tells what the writer's runs
 * do: "i can't go any higher than batch_size = 1, otherwise i'll get an out
 * of memory error" (OpenNMT-style report), not advice ("otherwise you will
 * see a CUDA OOM"). (diagcall5) */
static bool own_experience(const struct words *w, size_t k)
{
    static const char *const first_person[] = {"i", "we", NULL};
    return is_word(w, k, "otherwise") && k + 1 < w->n && w->t[k + 1].sentence == w->t[k].sentence &&
           in_set(w, k + 1, first_person);
}

/* "would" before a verb of wanting is a wish, no hypothetical: "I would
 * like to add an attention mechanism ... either cause a big slow down in
 * training or make the program crash with an out of memory error from the
 * graphics card" (a forum question, heldout35 h35-43, read after its
 * measurement; "it would run out of GPU memory" stays hedged). */
static bool wish(const struct words *w, size_t k)
{
    static const char *const wanting[] = {"like", "love", "prefer", "appreciate", "want", NULL};
    return is_word(w, k, "would") && k + 1 < w->n && w->t[k + 1].sentence == w->t[k].sentence &&
           in_set(w, k + 1, wanting);
}

/* An adverb of possibility right before a gerund of causing is a hedge
 * without a modal: "The Adam optimizer can consume a large amount of GPU
 * memory, potentially causing OOM (Out Of Memory) errors during training"
 * (a feature request, ai-computing/aicomp#15 = heldout46 h46-100), "may
 * cause the system to use more memory than available, potentially causing
 * out of memory errors" (a training toolkit's batch-size warning,
 * openvinotoolkit/training_extensions:otx/algorithms/anomaly/configs/base/
 * draem/configuration.py@a4908a0e), "potentially causing Out of Memory
 * errors on data nodes" (a feature note on opensearch-project/OpenSearch
 * #18426; the note's repository not recovered). Not "eventually causing"
 * nor "then causing": what happened. It guards its sentence, as hedge_guard_words. (open46) */
static bool possible_consequence(const struct words *w, size_t k)
{
    static const char *const adverbs[] = {"potentially", "possibly", NULL};
    static const char *const causing[] = {"causing", "leading", "resulting", "triggering", NULL};
    return in_set(w, k, adverbs) && k + 1 < w->n && w->t[k + 1].sentence == w->t[k].sentence &&
           in_set(w, k + 1, causing);
}

static bool guard_at(const struct words *w, size_t k)
{
    return line_guard_at(w, k) ||
           (in_set(w, k, hedge_guard_words) && !own_experience(w, k) && !wish(w, k)) ||
           possible_consequence(w, k);
}

/* "OOMs" and "OOMing" as words ("NVMe Offloading OOMs While Zero Stage 3
 * Offloading Runs", deepspeedai/DeepSpeed#3000; "the server OOMs during
 * pipeline construction", vllm-project/vllm-omni#2738; camelCase splits
 * "OOMs" as "OO|Ms", so the whole run is read), not a counter's name:
 * memory_summary()'s "CUDA OOMs: 0", memory_stats()' "'num_ooms', 2" (a
 * key: '_' before it, or ':', '=', a quote after it), "the OOMs count".
 * Sets *last to the run's last word. */
static bool ooms_verb(const struct words *w, size_t k, size_t *last)
{
    size_t at = w->t[k].at;
    if (at != w->t[k].run_at) return false;
    size_t end = at;
    while (end < w->len && alnum((unsigned char)w->text[end])) end++;
    size_t n = end - at;
    if (!((n == 4 && !strncasecmp(w->text + at, "ooms", 4)) ||
          (n == 6 && !strncasecmp(w->text + at, "ooming", 6))))
        return false;
    if (at > 0 && w->text[at - 1] == '_') return false;
    char e = end < w->len ? w->text[end] : ' ';
    if (e == ':' || e == '=' || e == '\'' || e == '"' || e == '_') return false;
    size_t j = k;
    while (j + 1 < w->n && w->t[j + 1].run_at == at) j++;
    if (is_word(w, j + 1, "count") || is_word(w, j + 1, "counter")) return false; /* "the OOMs count" */
    *last = j;
    return true;
}

/* A device allocator's call failing, in words: "hipMalloc fails even
 * though there is enough memory" (ROCm/hip#3384), "cudaMalloc failed" -
 * "Malloc" in a run that starts with "cuda" or "hip", then a word of
 * trouble in the sentence within two words; not the call's own message
 * ("cudaMalloc failed: out of memory", a row of msg.c; ':' after the
 * trouble word names the error, which may be another). Sets *last. */
static bool device_malloc_fails(const struct words *w, size_t k, size_t *last)
{
    if (!is_word(w, k, "malloc") || k == 0 ||
        (!is_word(w, k - 1, "cuda") && !is_word(w, k - 1, "hip")))
        return false;
    /* one run ("cudaMalloc"), or two words with blanks between ("Cuda malloc
     * error", ollama/ollama#8825; "CUDA malloc fails", ollama/ollama#3711)
     * (diagcall5) */
    bool one_run = w->t[k - 1].run_at == w->t[k].run_at && w->t[k - 1].at == w->t[k].run_at;
    bool two_words = w->t[k - 1].sentence == w->t[k].sentence && w->t[k].at == w->t[k].run_at &&
                     w->t[k - 1].end < w->t[k].at &&
                     strspn(w->text + w->t[k - 1].end, " ") == w->t[k].at - w->t[k - 1].end;
    if (!one_run && !two_words) return false;
    for (size_t j = k + 1; j <= k + 2 && j < w->n && w->t[j].sentence == w->t[k].sentence; j++) {
        if (!in_set(w, j, alloc_trouble)) continue;
        size_t e = w->t[j].end;
        while (e < w->len && w->text[e] == ' ') e++;
        if (e < w->len && w->text[e] == ':') return false;
        *last = j;
        return true;
    }
    return false;
}

/* Is word k a possessive's "s" ("CUDA's", or with a typographic apostrophe): an apostrophe right
 * before it, the word's end right after? "Error about running out of
 * CUDA's memory always occur" (open-mmlab/mmpose#307 = heldout26 h26-27).
 * (diagctx2) */
static bool possessive(const struct words *w, size_t k)
{
    if (k >= w->n || !is_word(w, k, "s")) return false;
    size_t at = w->t[k].at;
    return (at >= 1 && w->text[at - 1] == '\'') ||
           (at >= 3 && !memcmp(w->text + at - 3, "\xe2\x80\x99", 3));
}

static bool alloc_fails_at(const struct words *w, size_t k, size_t *last);

/* An OOM concept that needs its device in the sentence (overflow_words)
 * at word k? Sets *last. A line must hold "mem" to be read at all
 * (mention_seeded), so "VRAM overflow" alone is not read. */
static bool blows_up_at(const struct words *w, size_t k, size_t *last)
{
    unsigned s = w->t[k].sentence;
    if (!memory_word(w, k) && !is_word(w, k, "vram")) return false;
    size_t j = k + 1;
    if (j < w->n && w->t[j].sentence == s && in_set(w, j, usage_words)) j++;
    if (j + 1 >= w->n || w->t[j + 1].sentence != s || !in_set(w, j, blow_verbs) ||
        !in_set(w, j + 1, blow_particles))
        return false;
    for (size_t i = 0; i < w->n; i++)
        if (w->t[i].sentence == s && in_set(w, i, blow_failures)) {
            *last = j + 1;
            return true;
        }
    return false;
}

static bool resource_exhausted_at(const struct words *w, size_t k, size_t *last)
{
    unsigned s = w->t[k].sentence;
    if (!(is_word(w, k, "resource") || is_word(w, k, "resources")) || k + 1 >= w->n ||
        w->t[k + 1].sentence != s || !in_set(w, k + 1, exhausted_words))
        return false;
    for (size_t i = 0; i < w->n; i++)
        if (w->t[i].sentence == s && in_set(w, i, quota_words)) return false;
    *last = k + 1;
    return true;
}

static bool lacks_memory_at(const struct words *w, size_t k, size_t *last);

static bool device_only_oom_at(const struct words *w, size_t k, size_t *last)
{
    if (alloc_fails_at(w, k, last) || lacks_memory_at(w, k, last)) return true;
    if (blows_up_at(w, k, last) || resource_exhausted_at(w, k, last)) return true;
    if (!memory_word(w, k) || k + 1 >= w->n || w->t[k + 1].sentence != w->t[k].sentence ||
        !in_set(w, k + 1, overflow_words))
        return false;
    *last = k + 1;
    return true;
}

/* An allocation said to fail, in words: "unable to allocate memory",
 * "failed to allocate GPU memory", "could not allocate enough memory",
 * "cannot allocate 2 GB of memory". The host's errno says the same
 * ("OSError: [Errno 12] Cannot allocate memory"), so it counts only with
 * its device in the sentence, as "memory overflow" does. Sets *last to the
 * memory word. (diagcall9) */
static const char *const cannot_words[] = {"unable", "failed", "fails", "fail", "failing",
    "cannot", "cant", "couldnt", NULL};
/* ... not as a condition before it ("It's also consistent with what happens
 * when CUDA or the standard library fails to allocate memory", a pull
 * request's design prose, microsoft/onnxruntime's BFCArena change = h26-07),
 * nor a warning's words in its sentence (Triton's "Failed to allocate CUDA
 * memory with byte size ..." warning, which falls back to pinned host
 * memory, = h24-59): a failure the run recovers from, or no run. */
static const char *const alloc_conditions[] = {"when", "whenever", "if", "unless", "happens",
    NULL};
static const char *const warning_words[] = {"warning", "warnings", "warnning", "warn", NULL};
/* ... and an error's word right before the verb: "Error allocate memory
 * when training on GPU." (a title, heldout41 h41-34), "errors allocating
 * GPU memory" (diagcall17) */
static const char *const error_words[] = {"error", "errors", NULL};

static bool alloc_fails_at(const struct words *w, size_t k, size_t *last)
{
    unsigned s = w->t[k].sentence;
    size_t j = k;
    if ((is_word(w, k, "could") || is_word(w, k, "can")) && k + 1 < w->n &&
        w->t[k + 1].sentence == s && is_word(w, k + 1, "not"))
        j = k + 2; /* "could not allocate", "can not allocate": from "could", which a
                      denial would read as a guess */
    else if (in_set(w, k, cannot_words) || in_set(w, k, error_words))
        j = k + 1;
    else
        return false;
    if (j < w->n && is_word(w, j, "to")) j++;
    if (j >= w->n || w->t[j].sentence != s ||
        !(is_word(w, j, "allocate") || is_word(w, j, "allocating")))
        return false;
    for (size_t i = 0; i < w->n; i++)
        if (w->t[i].sentence == s &&
            ((i < k && in_set(w, i, alloc_conditions)) || in_set(w, i, warning_words)))
            return false;
    for (size_t i = j + 1; i <= j + 5 && i < w->n && w->t[i].sentence == s; i++)
        if (memory_word(w, i) || is_word(w, i, "vram")) {
            *last = i;
            return true;
        }
    return false;
}

/* The device said to lack memory: "I don't have enough cuda memory", "Your
 * GPU most likely just does not have enough VRAM", "the GPU memory is not
 * enough". A host's "this system does not have enough memory" says the
 * same, so it counts only with its device in the sentence, as "cannot
 * allocate memory" does; not as a condition ("if you don't have enough GPU
 * memory, ..."). Sets *last to the memory word or "enough". (diagcall17) */
static const char *const have_words[] = {"have", "has", "had", NULL};
static const char *const be_words[] = {"is", "was", "are", "were", NULL};

static bool lacks_memory_at(const struct words *w, size_t k, size_t *last)
{
    unsigned s = w->t[k].sentence;
#define SAME(j) ((j) < w->n && w->t[j].sentence == s)
    size_t found = SIZE_MAX;
    /* "not" / "don't" (read "don" "t") / "doesnt", then "have enough" */
    bool neg = is_word(w, k, "not") || is_word(w, k, "dont") || is_word(w, k, "doesnt") ||
               is_word(w, k, "didnt") ||
               (is_word(w, k, "t") && k > 0 && w->t[k - 1].end == w->t[k].at - 1 &&
                (w->text[w->t[k - 1].end - 1] == 'n' || w->text[w->t[k - 1].end - 1] == 'N'));
    if (neg && SAME(k + 2) && in_set(w, k + 1, have_words) && is_word(w, k + 2, "enough"))
        for (size_t i = k + 3; i <= k + 5 && SAME(i); i++)
            if (oom_memory_word(w, i)) {
                found = i;
                break;
            }
    /* "[GPU] memory is not enough" */
    if (memory_word(w, k) && SAME(k + 3) && in_set(w, k + 1, be_words) &&
        is_word(w, k + 2, "not") && is_word(w, k + 3, "enough"))
        found = k + 3;
#undef SAME
    if (found == SIZE_MAX) return false;
    for (size_t i = 0; i < k; i++)
        if (w->t[i].sentence == s && in_set(w, i, alloc_conditions)) return false;
    *last = found;
    return true;
}

/* Only blanks stand between words i and i + 1 (not a comma, a dash, a
 * quote). */
static bool blanks_between(const struct words *w, size_t i, size_t j)
{
    size_t a = w->t[i].end, b = w->t[j].at;
    return a < b && strspn(w->text + a, " ") >= b - a;
}

/* The memory word as the first half of "memory access": the access fault
 * ("an illegal memory access was encountered"), not the amount; "UMAP
 * transform fails with CUDA memory access error" over cudaErrorIllegalAddress
 * (NVIDIA/cuml#4984 = heldout70 h70-57), "a similar memory access issue"
 * under "an illegal memory access was encountered" (hangg7/deformable-
 * kernels#5). (open70) */
static const char *const access_words[] = {"access", "accesses", "accessing", NULL};

/* Is an OOM concept at word k? Sets *last to its last word. */
static bool oom_at(const struct words *w, size_t k, size_t *last)
{
    unsigned s = w->t[k].sentence;
#define SAME(j) ((j) < w->n && w->t[j].sentence == s)
    if (is_word(w, k, "oom") || is_word(w, k, "oomed")) {
        *last = k;
        return true;
    }
    if (ooms_verb(w, k, last)) return true;
    if (device_malloc_fails(w, k, last)) return true;
    if (in_set(w, k, run_verbs) && SAME(k + 2) && is_word(w, k + 1, "of") && memory_word(w, k + 2)) {
        *last = k + 2;
        return true;
    }
    /* ... or "of" left out: "the GPU ran out memory at step 10" (diagprose) */
    if (in_set(w, k, run_verbs) && SAME(k + 2) && is_word(w, k + 1, "out") &&
        oom_memory_word(w, k + 2)) {
        *last = k + 2;
        return true;
    }
    /* ... or "of" left out after the device itself: '"CUDA OUT MEMORY" error
     * will occured' (mahmoodlab/TITAN#16 = heldout45 h45-23): the device
     * word, "out", the memory word, with blanks only between (not "GPU out,
     * memory ..."). */
    if (is_word(w, k, "out") && k > 0 && SAME(k + 1) && w->t[k - 1].sentence == s &&
        device_at(w, k - 1) && oom_memory_word(w, k + 1) && blanks_between(w, k - 1, k) &&
        blanks_between(w, k, k + 1)) {
        *last = k + 1;
        return true;
    }
    /* ... or "out" left out after CUDA itself: 'reports the error "cuda of
     * memory"' (NVIDIA/Megatron-LM#640 = heldout73 h73-16), "it will raise
     * the CUDA of memorry" (FlagOpen/FlagEmbedding#139 = heldout73 h73-58):
     * the same phrase as "CUDA OUT MEMORY" above with its other small word
     * gone. Only after "cuda": a card's or the GPU's memory reads as English
     * ("a GPU of memory ~12G", "two L4 GPU of memory"). (open73) */
    if (is_word(w, k, "of") && k > 0 && SAME(k + 1) && w->t[k - 1].sentence == s &&
        is_word(w, k - 1, "cuda") && oom_memory_word(w, k + 1) && blanks_between(w, k - 1, k) &&
        blanks_between(w, k, k + 1)) {
        *last = k + 1;
        return true;
    }
    /* "out of [GPU|the|...] memory", "outof memory", "outofmemory" */
    size_t j = 0;
    if (in_set(w, k, out_words) && SAME(k + 1) && is_word(w, k + 1, "of")) j = k + 2;
    else if (is_word(w, k, "outof")) j = k + 1;
    else if (w->t[k].end - w->t[k].at >= 8 && !strncasecmp(w->text + w->t[k].at, "outofmem", 8)) {
        *last = k;
        return true;
    }
    if (j) {
        for (size_t end = j + 3; j < end && SAME(j); j++) {
            if (oom_memory_word(w, j)) {
                *last = j;
                return true;
            }
            if (!in_set(w, j, out_of_between)) break;
            if (possessive(w, j + 1)) j++, end++;
        }
        return false;
    }
    /* "insufficient [GPU] memory", "memory insufficient" */
    if (is_word(w, k, "insufficient")) {
        for (size_t d = 1; d <= 3; d++) {
            if (SAME(k + d) && oom_memory_word(w, k + d)) {
                *last = k + d;
                return true;
            }
            if (k >= d && w->t[k - d].sentence == s &&
                (memory_word(w, k - d) || is_word(w, k - d, "vram"))) {
                *last = k;
                return true;
            }
        }
        return false;
    }
    /* "not enough [GPU] memory" */
    if (is_word(w, k, "not") && SAME(k + 1) && is_word(w, k + 1, "enough")) {
        for (size_t d = 2; d <= 4 && SAME(k + d); d++)
            if (oom_memory_word(w, k + d)) {
                *last = k + d;
                return true;
            }
        return false;
    }
    /* the device's memory with trouble right beside it: "Problems with CUDA
     * memory when validation" (MIC-DKFZ/nnUNet#1771, h10-48), "GPU memory
     * issue" */
    if (memory_word(w, k) && k > 0 && w->t[k - 1].sentence == s && device_at(w, k - 1) &&
        !(SAME(k + 1) && in_set(w, k + 1, access_words))) {
        bool before = k >= 3 && w->t[k - 3].sentence == s && in_set(w, k - 3, alloc_trouble) &&
                      is_word(w, k - 2, "with");
        bool after = SAME(k + 1) && in_set(w, k + 1, alloc_trouble);
        if (before || after) {
            *last = after ? k + 1 : k;
            return true;
        }
    }
    /* "memory allocation" with trouble in the sentence */
    if (memory_word(w, k) && SAME(k + 1) && is_word(w, k + 1, "allocation")) {
        for (size_t i = 0; i < w->n; i++)
            if (w->t[i].sentence == s && in_set(w, i, alloc_trouble)) {
                *last = k + 1;
                return true;
            }
    }
    return false;
#undef SAME
}

/* Is the OOM concept starting at word k said to be fixed (mended_verbs)? */
static bool mended(const struct words *w, size_t k)
{
    unsigned s = w->t[k].sentence;
    size_t j = k;
    for (int skip = 0; j > 0 && w->t[j - 1].sentence == s && skip < 2 &&
                       in_set(w, j - 1, mended_objects);
         skip++)
        j--;
    const char *p = w->text;
    size_t a = w->t[j].run_at;
    while (a > 0 && p[a - 1] == ' ') a--;
    for (size_t c = 0; mended_cjk[c]; c++) {
        size_t m = strlen(mended_cjk[c]);
        if (a >= m && !memcmp(p + a - m, mended_cjk[c], m)) return true;
    }
    if (j == 0 || w->t[j - 1].sentence != s) return false;
    if (in_set(w, j - 1, mended_verbs)) return true;
    return in_set(w, j - 1, mending_verbs) && j >= 2 && w->t[j - 2].sentence == s &&
           is_word(w, j - 2, "after");
}

bool mention_seeded(const char *text, size_t len)
{
    if (len > MENTION_LINE_MAX) len = MENTION_LINE_MAX;
    /* cheap: every OOM concept holds "oom", "mem", "vram" or a device's "malloc" (any case) */
    for (size_t i = 0; i + 3 <= len; i++) {
        char a = (char)tolower((unsigned char)text[i]);
        /* "out of vRAM" (any case: the rows read "out of VRAM") (diagcall9) */
        if (a == 'v' && i + 4 <= len && !strncasecmp(text + i + 1, "ram", 3)) return true;
        /* TF's "Resource exhausted" (diagprose) */
        if (a == 'x' && i + 6 <= len && i > 0 && tolower((unsigned char)text[i - 1]) == 'e' &&
            !strncasecmp(text + i + 1, "haust", 5))
            return true;
        /* a memory word misspelt before its "mem" ("meomry", "mmeory") (diagprose) */
        if ((a == 'm' || a == 'e' || a == 'n') && (i == 0 || !isalpha((unsigned char)text[i - 1]))) {
            size_t e = i;
            while (e < len && isalpha((unsigned char)text[e])) e++;
            if (e - i >= 5 && e - i <= 7 && one_edit(text + i, e - i, "memory")) return true;
        }
        if (a != 'o' && a != 'm') continue;
        char b = (char)tolower((unsigned char)text[i + 1]), c = (char)tolower((unsigned char)text[i + 2]);
        if ((a == 'o' && b == 'o' && c == 'm') || (a == 'm' && b == 'e' && c == 'm')) return true;
        if (a == 'm' && b == 'a' && c == 'l' && i + 6 <= len &&
            !strncasecmp(text + i + 3, "loc", 3)) {
            size_t j = i;
            while (j > 0 && text[j - 1] == ' ') j--; /* "Cuda malloc" */
            if ((j >= 4 && !strncasecmp(text + j - 4, "cuda", 4)) ||
                (j >= 3 && !strncasecmp(text + j - 3, "hip", 3)))
                return true; /* "cudaMalloc", "hipMalloc" */
        }
    }
    return false;
}

static bool code_line(const char *text, size_t len)
{
    if (msg_emitter_code(text, len)) return true;
    for (size_t k = 0; guard_code[k]; k++)
        if (memmem(text, len, guard_code[k], strlen(guard_code[k]))) return true;
    return false;
}

enum mention_kind mention_read(const char *text, size_t len, struct mention_hit *hit)
{
    if (len > MENTION_LINE_MAX) len = MENTION_LINE_MAX;
    if (!mention_seeded(text, len) || code_line(text, len)) return MENTION_NONE;
    struct words w;
    words_read(&w, text, len);
    enum mention_kind best = MENTION_NONE;
    bool line_guard = false;
    for (size_t i = 0; i < w.n && !line_guard; i++) line_guard = line_guard_at(&w, i);
    /* the device and guard words of the last sentence read: every OOM in a
     * sentence shares them, and a line of OOM words with no full stop ("out
     * of memory out of memory ...") would read its sentence once per OOM */
    unsigned read_s = 0;
    bool have_read = false, device = false, guard = false;
    for (size_t k = 0; k < w.n; k++) {
        size_t last;
        bool device_only = false;
        if (!oom_at(&w, k, &last) && !(device_only = device_only_oom_at(&w, k, &last))) continue;
        unsigned s = w.t[k].sentence;
        if (last + 1 < w.n && w.t[last + 1].sentence == s && in_set(&w, last + 1, generic_nouns))
            continue;
        if (mended(&w, k)) continue;
        if (!have_read || read_s != s) {
            device = guard = false;
            for (size_t i = 0; i < w.n; i++) {
                if (w.t[i].sentence != s) continue;
                if (device_at(&w, i)) device = true;
                if (guard_at(&w, i) && !quoted_value(&w, i)) guard = true;
            }
            read_s = s;
            have_read = true;
        }
        if (guard) continue;
        /* without a device, an OOM after the first kept one changes nothing:
         * its denial need not be read (it reads the clause back, per OOM) */
        if (!device && (best != MENTION_NONE || line_guard || device_only)) continue;
        size_t at = w.t[k].at, end = w.t[last].end;
        if (msg_denied(text, len, at, end)) continue;
        if (device) {
            hit->at = at;
            hit->end = end;
            return MENTION_GPU;
        }
        if (best == MENTION_NONE && !line_guard && !device_only) {
            hit->at = at;
            hit->end = end;
            best = MENTION_WORDS;
        }
    }
    return best;
}

/* The device's memory in words (mention_device_memory): 显存, the Chinese
 * for video memory ("显存不足"), as raw bytes. (prosecall) */
static const char *const device_memory_cjk[] = {"\xe6\x98\xbe\xe5\xad\x98" /* 显存 */, NULL};

bool mention_device_memory(const char *text, size_t len)
{
    if (len > MENTION_LINE_MAX) len = MENTION_LINE_MAX;
    if (code_line(text, len)) return false;
    struct words w;
    words_read(&w, text, len);
    bool named = false;
    for (size_t k = 0; k < w.n; k++) {
        if (guard_at(&w, k)) return false;
        if (is_word(&w, k, "vram") ||
            (memory_word(&w, k) && k > 0 && w.t[k - 1].sentence == w.t[k].sentence &&
             device_at(&w, k - 1)))
            named = true;
    }
    for (size_t j = 0; device_memory_cjk[j] && !named; j++)
        named = memmem(text, len, device_memory_cjk[j], strlen(device_memory_cjk[j])) != NULL;
    return named;
}

enum mention_device mention_device(const char *text, size_t len)
{
    if (len > MENTION_LINE_MAX) len = MENTION_LINE_MAX;
    if (code_line(text, len)) return MENTION_DEV_GUARD;
    struct words w;
    words_read(&w, text, len);
    bool device = false;
    for (size_t i = 0; i < w.n; i++) {
        if (guard_at(&w, i)) return MENTION_DEV_GUARD;
        if (device_at(&w, i)) device = true;
    }
    return device ? MENTION_DEV_NAMED : MENTION_DEV_NONE;
}

void mention_line_read(const char *text, size_t len, bool device, bool machine,
                       struct mention_line *line)
{
    if (len > MENTION_LINE_MAX) len = MENTION_LINE_MAX;
    *line = (struct mention_line){false, false};
    if (!device && !machine) return;
    struct words w;
    words_read(&w, text, len);
    for (size_t i = 0; i < w.n && (device || machine); i++) {
        if (device && device_at(&w, i)) line->device_named = true, device = false;
        if (machine && machine_memory(&w, i)) line->machine_memory = true, machine = false;
    }
}

/* Question words that take the OOM as given: "Why did it run out of memory
 * (OOM)?" asks for the cause of an OOM that happened (kijai/ComfyUI-
 * HunyuanVideoWrapper#254 = heldout29 h29-77). (diagcall3) */
static const char *const cause_questions[] = {"why", NULL};

/* Does the sentence holding text[at] start with one of these words? */
static bool sentence_starts_with(const char *text, size_t len, size_t at,
                                 const char *const *set)
{
    size_t a = at < len ? at : len;
    while (a > 0 && !sentence_mark(text, a - 1, len)) a--;
    while (a < len && !alnum((unsigned char)text[a])) a++;
    size_t e = a;
    while (e < len && alnum((unsigned char)text[e])) e++;
    for (size_t k = 0; set[k]; k++)
        if (strlen(set[k]) == e - a && !strncasecmp(text + a, set[k], e - a)) return true;
    return false;
}

bool mention_question(const char *text, size_t len, size_t end)
{
    if (len > MENTION_LINE_MAX) len = MENTION_LINE_MAX;
    if (end <= len && sentence_starts_with(text, len, end, cause_questions)) return false;
    for (size_t i = end; i < len; i++) {
        if (text[i] == '?' || (i + 3 <= len && !memcmp(text + i, "\xef\xbc\x9f", 3))) return true;
        if (sentence_mark(text, i, len)) return false;
        /* a clause of its own asks, not the OOM's: "OutOfMemoryError during
         * diarization -> how to solve ?" (MahmoudAshraf97/whisper-diarization#242),
         * "CUDA OOM, how to fix?" */
        if (text[i] == ',' || text[i] == ':' || (text[i] == '-' && i + 1 < len && text[i + 1] == '>') ||
            (i + 3 <= len && !memcmp(text + i, "\xef\xbc\x8c", 3) /* ， */))
            return false;
    }
    return false;
}

bool mention_negated(const char *text, size_t len, size_t at)
{
    if (len > MENTION_LINE_MAX) len = MENTION_LINE_MAX;
    if (at > len) at = len;
    struct words w;
    words_read(&w, text, len);
    size_t k = 0;
    while (k < w.n && w.t[k].end <= at) k++;
    unsigned s = k < w.n ? w.t[k].sentence : (w.n ? w.t[w.n - 1].sentence : 0);
    for (size_t i = 0; i < k; i++) {
        if (w.t[i].sentence != s) continue;
        if (in_set(&w, i, negation_words)) return true;
        /* "don't", "doesn't": the word, then an apostrophe and "t" */
        const char *e = text + w.t[i].end;
        if (is_word(&w, i + 1, "t") && w.t[i].end > 1 && e[-1] == 'n' &&
            (e[0] == '\'' || !strncmp(e, "\xe2\x80\x99", 3)))
            return true;
    }
    return false;
}

bool mention_row_guarded(const char *text, size_t len, size_t at, size_t end)
{
    if (len > MENTION_LINE_MAX) len = MENTION_LINE_MAX;
    if (at >= len) return false;
    struct words w;
    words_read(&w, text, len);
    size_t k = 0;
    while (k < w.n && w.t[k].end <= at) k++;
    if (k == w.n) return false;
    unsigned s = w.t[k].sentence;
    for (size_t i = 0; i < w.n; i++)
        if (w.t[i].sentence == s && in_set(&w, i, row_guard_words)) return true;
    /* the word after the hit's own (the rest of "out of memo|ry" read past)
     * is a generic noun: "GPU OOM situations" (diagcall8) */
    size_t j = k;
    while (j < w.n && w.t[j].at < end) j++;
    if (j > 0 && j < w.n && w.t[j].run_at == w.t[j - 1].run_at) j++;
    return j < w.n && w.t[j].sentence == s && in_set(&w, j, generic_nouns);
}
